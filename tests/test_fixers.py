"""The fixers as one table (:data:`scrapy_charset.items.mojibake.FIXERS`): each row
finds its own example, gives its repair, and is applied by default only when it is safe."""

from __future__ import annotations

import dataclasses

import pytest

from scrapy_charset.items.mojibake import (
    FIXERS,
    Finding,
    Fixer,
    MojibakeKind,
    _named,
    find_mojibake,
)
from scrapy_charset.items.textcheck import inspect_text


@pytest.mark.parametrize("fixer", FIXERS, ids=[fixer.name for fixer in FIXERS])
def test_fixer_finds_its_example(fixer: Fixer) -> None:
    text, repaired = fixer.example
    found = find_mojibake(text)
    assert found is not None
    assert (found.fixer, found.repaired) == (fixer.name, repaired)


@pytest.mark.parametrize("fixer", FIXERS, ids=[fixer.name for fixer in FIXERS])
def test_a_fixer_is_applied_by_default_only_when_safe(fixer: Fixer) -> None:
    text, repaired = fixer.example
    report = inspect_text(text)
    assert report.fixer == fixer.name
    assert report.repaired == (repaired if fixer.safe else None)
    assert inspect_text(text, legacy=True).repaired == repaired


def test_fixer_names_are_unique() -> None:
    names = [fixer.name for fixer in FIXERS]
    assert len(set(names)) == len(names)


def test_the_reports_without_a_repair_come_last() -> None:
    last = [fixer.last for fixer in FIXERS]
    assert last == sorted(last)


def test_a_finding_named_keeps_every_other_field() -> None:
    # The fixer, rule and evidence are set by a constructor call: a field of Finding that
    # the copy forgot would be lost from every report.
    found = Finding(
        MojibakeKind.UTF8_AS_OTHER,
        "café",
        lossy=True,
        encoding="UTF-8",
        sure=False,
        rule="case-break",
        evidence="Ã©",
        fixer="utf8-rounds",
    )
    assert _named(found, found.fixer, found.rule, found.evidence) == found
    assert [f.name for f in dataclasses.fields(Finding)] == [
        "kind", "repaired", "lossy", "encoding", "sure", "rule", "evidence", "fixer",
    ]  # fmt: skip
