"""ftfy 6.3.1's test cases (tests/data/ftfy/test_cases.json, from its sdist; Apache-2.0),
run through :func:`inspect_text`: as given, and with ftfy's own extra layer of damage
(``text.encode("utf-8").decode("latin-1")``).

A change is *wrong* when the result holds a character that is neither in the input, nor
in the expected text, nor on ``ftfy.fix_encoding``'s own way there (the text after each
step of its plan). ftfy's one "sort of negative" case may be repaired either way.
Exact repairs are counted on the UTF-8 kinds (cases whose ftfy plan decodes UTF-8) that
``ftfy.fix_encoding`` itself repairs exactly; the ones this package does not repair
exactly by default are listed with the reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

import ftfy
import pytest

from benchmarks.item_evidence import FTFY_CASES, ftfy_way, utf8_kind
from scrapy_charset.items.textcheck import inspect_text
from tests.spec import REPO
from tests.table import assert_table


@dataclass(frozen=True)
class Case:
    index: int
    label: str
    variant: str  # "plain", or "extra": one more layer of damage
    text: str
    expected: str


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")[:40]


@cache
def cases() -> tuple[Case, ...]:
    data = json.loads(FTFY_CASES.read_text("utf-8"))
    out = []
    for variant in ("plain", "extra"):
        for index, case in enumerate(data):
            text = case["original"]
            if variant == "extra":
                text = text.encode("utf-8").decode("latin-1")
            expected = case.get("fixed-encoding", case["fixed"])
            out.append(Case(index, case["label"], variant, text, expected))
    return tuple(out)


def _id(case: Case) -> str:
    return f"{case.variant}-{case.index:03d}-{_slug(case.label)}"


def _result(case: Case, *, legacy: bool = False) -> str:
    report = inspect_text(case.text, legacy=legacy)
    return report.repaired if report.repaired is not None else case.text


def _sort_of_negative(case: Case) -> bool:
    return case.label.startswith("Sort of negative")


# --- 0 wrong changes, with and without legacy=True ------------------------------------------

#: Wrong changes left with ``legacy=True`` (the repairs that guess an encoding).
WRONG_WITH_LEGACY = {
    ("plain", 80): "a legacy Cyrillic reading of three Latin letters (Ôôô as windows-1251 is "
    "Ффф) next to Latin words: the legacy readings do not weigh the field's other words",
}


def _no_wrong_change(case: Case, legacy: bool) -> None:
    result = _result(case, legacy=legacy)
    if _sort_of_negative(case):
        return
    wrong = set(result) - set(case.text) - set(case.expected) - ftfy_way(case.text)
    assert not wrong, (result, sorted(wrong))


def _key(case: Case) -> tuple[str, int]:
    return (case.variant, case.index)


def test_no_wrong_change() -> None:
    # Every case, with and without legacy=True ("legacy-plain-080-..."), but the known
    # wrong changes, each its own strict xfail below.
    table = {
        f"{mode}-{_id(case)}": (case, legacy)
        for mode, legacy in (("default", False), ("legacy", True))
        for case in cases()
        if not (legacy and _key(case) in WRONG_WITH_LEGACY)
    }
    assert_table(table, _no_wrong_change)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            case, marks=pytest.mark.xfail(strict=True, reason=WRONG_WITH_LEGACY[_key(case)])
        )
        for case in cases()
        if _key(case) in WRONG_WITH_LEGACY
    ],
    ids=lambda case: f"legacy-{_id(case)}",
)
def test_no_wrong_change_known_gap(case: Case) -> None:
    _no_wrong_change(case, legacy=True)


# --- Exact repairs on the UTF-8 kinds --------------------------------------------------------

UNATTESTED_MARK = (
    "the repair brings in U+0336, a combining overlay (fancy crossing-out) that no "
    "alphabet of CLDR uses and the pair table has never seen: turned down as an "
    "unattested character, the legacy readings then report the field"
)

#: (variant, case index) -> why the default repair is not ftfy's exact one.
NOT_EXACT = {
    ("plain", 56): UNATTESTED_MARK,  # fancy Unicode crossing-out, but mojibaked
}


def _exact_cases() -> list[Case]:
    return [
        case
        for case in cases()
        if not _sort_of_negative(case)
        and utf8_kind(case.text)
        and ftfy.fix_encoding(case.text) == case.expected
    ]


def _exact_repair(case: Case) -> None:
    assert _result(case) == case.expected


def test_exact_repair_of_utf8_kinds() -> None:
    # Every UTF-8 kind ftfy repairs exactly, by its id, but the known gaps (strict xfails
    # below).
    table = {_id(case): (case,) for case in _exact_cases() if _key(case) not in NOT_EXACT}
    assert_table(table, _exact_repair)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=NOT_EXACT[_key(case)]))
        for case in _exact_cases()
        if _key(case) in NOT_EXACT
    ],
    ids=_id,
)
def test_exact_repair_of_utf8_kinds_known_gap(case: Case) -> None:
    _exact_repair(case)


def test_known_gaps_are_cases() -> None:
    # A gap that names no case (a renumbered copy of ftfy's cases) would check nothing.
    keys = {_key(case) for case in cases()}
    assert set(WRONG_WITH_LEGACY) <= keys
    assert set(NOT_EXACT) <= {_key(case) for case in _exact_cases()}


def _not_reported_clean(case: Case) -> None:
    # A field that is not given back as ftfy's exact repair is flagged, and a repair that
    # is not exact says damage remains, or a second check of it finds the damage.
    report = inspect_text(case.text)
    if _result(case) == case.expected:
        return
    assert report.mojibake is not None
    if report.repaired is not None and report.remaining is None:
        assert inspect_text(report.repaired).mojibake is not None, report.repaired


def test_damage_not_repaired_exactly_is_not_reported_clean() -> None:
    assert_table({_id(case): (case,) for case in _exact_cases()}, _not_reported_clean)


def test_the_pinned_copy_is_ftfys() -> None:
    data = json.loads(FTFY_CASES.read_text("utf-8"))
    assert len(data) == 161
    assert sum(case["expect"] == "pass" for case in data) == 151
    licence = (REPO / "tests" / "data" / "ftfy" / "LICENSE").read_text("utf-8")
    assert "Apache License, Version 2.0" in licence
