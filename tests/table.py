"""Tables checked in one test: every case runs, and the test reports every failing case.

A large cartesian product (bodies by headers by kinds...) costs pytest a collected item, a
setup and a report per combination; here it costs one. The coverage is the same: each
case is checked as its own test would check it, a failure does not stop the others, and
the assertion message names each failing case by its id, with what it raised.
"""

from __future__ import annotations

import itertools
import traceback
from collections.abc import Callable, Mapping
from typing import Any

import pytest

#: The longest report of one failing case in the message (the end of its traceback).
_REPORT = 1200


def product(*tables: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    """The cartesian product of named tables: ``{"id-id-id": (value, value, value)}``, the
    ids joined with ``-`` in the order pytest's stacked ``parametrize`` gives them."""
    return {
        "-".join(ids): tuple(table[i] for table, i in zip(tables, ids, strict=True))
        for ids in itertools.product(*(list(table) for table in tables))
    }


def failures(cases: Mapping[str, tuple[Any, ...]], check: Callable[..., object]) -> list[str]:
    """Run *check* on every case (its tuple of arguments) and return one line per failing
    case: its id, then what it raised (the last frames of its traceback)."""
    found = []
    for ident, args in cases.items():
        try:
            check(*args)
        # Every failure is reported, as its own test would be: an exception, or pytest's
        # own failure (``pytest.raises`` that saw nothing raised, ``pytest.fail``).
        except (Exception, pytest.fail.Exception) as error:
            trace = "".join(traceback.format_exception(error))
            found.append(f"{ident}: {trace[-_REPORT:]}")
    return found


def assert_table(cases: Mapping[str, tuple[Any, ...]], check: Callable[..., object]) -> None:
    """Every case passes *check*; the message lists each failing case by id."""
    assert cases, "an empty table checks nothing"
    failed = failures(cases, check)
    assert not failed, f"{len(failed)} of {len(cases)} cases fail:\n" + "\n".join(failed)
