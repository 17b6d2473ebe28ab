"""The mutation run's table (``scripts/mutate.py``) stays in step with the code: every
mutant's snippet occurs exactly once in its file, and its test files exist. Nothing is
mutated or run here; ``python scripts/mutate.py`` does that (CONTRIBUTING.md)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.spec import REPO, script

mutate = script("mutate")
MUTANTS = mutate.MUTANTS


@pytest.mark.parametrize("mutant", MUTANTS, ids=[mutant.id for mutant in MUTANTS])
def test_the_mutant_applies(mutant: Any) -> None:
    assert mutate.problems(mutant, REPO) == []
    assert all(test.startswith("tests/test_") for test in mutant.tests)


def test_the_ids_are_unique() -> None:
    repeated = [name for name, count in Counter(m.id for m in MUTANTS).items() if count > 1]
    assert repeated == []


def test_every_layer_has_mutants() -> None:
    layers = Counter(mutant.layer for mutant in MUTANTS)
    assert set(layers) == {"whatwg", "decision", "middleware", "items", "alerts", "audit", "stats"}
    assert len(MUTANTS) >= 30


def test_a_stale_snippet_is_reported() -> None:
    first = MUTANTS[0]
    stale = mutate.Mutant(
        first.id, first.layer, first.path, first.old + "\0", first.new, first.breaks, first.tests
    )
    assert mutate.problems(stale, REPO) == [
        f"{first.id}: the snippet occurs 0 times in {first.path}"
    ]


def test_only_selects_and_refuses_unknown_ids() -> None:
    assert [m.id for m in mutate.select(f"{MUTANTS[1].id},{MUTANTS[0].id}")] == [
        MUTANTS[1].id,
        MUTANTS[0].id,
    ]
    with pytest.raises(SystemExit, match="unknown mutant"):
        mutate.select("no-such-mutant")
