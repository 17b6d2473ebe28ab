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


@pytest.mark.parametrize("case", cases(), ids=_id)
@pytest.mark.parametrize("legacy", [False, True], ids=["default", "legacy"])
def test_no_wrong_change(case: Case, legacy: bool, request: pytest.FixtureRequest) -> None:
    reason = WRONG_WITH_LEGACY.get((case.variant, case.index)) if legacy else None
    if reason is not None:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    result = _result(case, legacy=legacy)
    if _sort_of_negative(case):
        return
    wrong = set(result) - set(case.text) - set(case.expected) - ftfy_way(case.text)
    assert not wrong, (result, sorted(wrong))


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


@pytest.mark.parametrize("case", _exact_cases(), ids=_id)
def test_exact_repair_of_utf8_kinds(case: Case, request: pytest.FixtureRequest) -> None:
    reason = NOT_EXACT.get((case.variant, case.index))
    if reason is not None:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    assert _result(case) == case.expected


@pytest.mark.parametrize("case", _exact_cases(), ids=_id)
def test_damage_not_repaired_exactly_is_not_reported_clean(case: Case) -> None:
    # A field that is not given back as ftfy's exact repair is flagged, and a repair that
    # is not exact says damage remains, or a second check of it finds the damage.
    report = inspect_text(case.text)
    if _result(case) == case.expected:
        return
    assert report.mojibake is not None
    if report.repaired is not None and report.remaining is None:
        assert inspect_text(report.repaired).mojibake is not None, report.repaired


def test_the_pinned_copy_is_ftfys() -> None:
    data = json.loads(FTFY_CASES.read_text("utf-8"))
    assert len(data) == 161
    assert sum(case["expect"] == "pass" for case in data) == 151
    licence = (REPO / "tests" / "data" / "ftfy" / "LICENSE").read_text("utf-8")
    assert "Apache License, Version 2.0" in licence
