# ruff: noqa: RUF001 (look-alike characters are the data here)
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
    ("extra", 80): "the same, after the extra layer is undone",
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

BYTE_A0 = (
    "ftfy restores a no-break space that became a space (its restore_byte_a0 guess): "
    "the byte is gone, and this package does not guess it back (the same shape is a "
    "Portuguese word in capitals before a space: IRMÃ E)"
)
GREEK_IN_LATIN_WORD = (
    "a Greek letter inside a Latin word (a gene name, IL2Rγc) is what the "
    "no-common-alphabet rule turns down"
)
LEGACY_ONLY_C1 = "C1 controls read as windows-1252 is a repair that guesses: legacy=True only"
C1_DECODE_STEP = (
    "after a UTF-8 layer, ftfy decodes the latin-1 text left as windows-1252 (a decode "
    "step, not its C1-control fixer): not followed"
)
SUB_CHARACTER = (
    "a text with U+001A, which ftfy's sloppy codecs use for a lost byte: the repair is not taken"
)

WEAK_ONLY = (
    "only weak sequences (a symbol after an accented capital or before a no-break space), "
    "and the damaged text is no less plausible than the repair: correct text has that "
    "shape too (CLDR's Yoruba 'DIRHÀM ÈMÌRÂ®' with a registered sign), so it is left"
)

#: (variant, case index) -> why the default repair is not ftfy's exact one.
NOT_EXACT = {
    ("plain", 22): WEAK_ONLY,  # Checkmark that almost looks okay as mojibake
    ("plain", 94): WEAK_ONLY,  # French example containing non-breaking spaces
    ("plain", 160): WEAK_ONLY,  # Synthetic: mojibake with trademark sign at the end of a word
    ("plain", 13): BYTE_A0,  # Messy language names: Thai
    ("plain", 43): GREEK_IN_LATIN_WORD,  # Science! Mid-word Greek letter gets fixed correctly
    ("plain", 56): LEGACY_ONLY_C1,  # fancy Unicode crossing-out, but mojibaked
    ("plain", 93): LEGACY_ONLY_C1,  # Mostly negative: we only need to fix C1 control characters
    ("plain", 96): BYTE_A0,  # Synthetic: we can recognize Ã in some cases when it's the on
    ("plain", 97): BYTE_A0,  # Synthetic: we can recognize Ã at the end of a word when it a
    ("plain", 101): BYTE_A0,  # The Portuguese word 'às' does not become 'à s' due to the Fr
    ("plain", 103): BYTE_A0,  # We can fix 'à' in windows-1251 sometimes as well
    ("plain", 104): BYTE_A0,  # 'Ã quele' is the Portuguese word 'àquele', not 'à quele'
    ("plain", 105): BYTE_A0,  # A complex, lossy pile-up of mojibake in Portuguese
    ("plain", 124): BYTE_A0,  # Latvian UTF-8 / Windows-1257 mojibake
    ("plain", 126): BYTE_A0,  # Lithuanian UTF-8 / Windows-1257 mojibake
    ("extra", 24): C1_DECODE_STEP,  # Latin-1 / Windows-1252 mixup in German
    ("extra", 96): BYTE_A0,  # Synthetic: we can recognize Ã in some cases when it's the on
    ("extra", 101): BYTE_A0,  # The Portuguese word 'às' does not become 'à s' due to the Fr
    ("extra", 103): BYTE_A0,  # We can fix 'à' in windows-1251 sometimes as well
    ("extra", 104): BYTE_A0,  # 'Ã quele' is the Portuguese word 'àquele', not 'à quele'
    ("extra", 105): BYTE_A0,  # A complex, lossy pile-up of mojibake in Portuguese
    ("extra", 124): BYTE_A0,  # Latvian UTF-8 / Windows-1257 mojibake
    ("extra", 126): BYTE_A0,  # Lithuanian UTF-8 / Windows-1257 mojibake
    ("extra", 141): SUB_CHARACTER,  # Synthetic, negative: don't leak our internal use of byte 0x1
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


def test_the_pinned_copy_is_ftfys() -> None:
    data = json.loads(FTFY_CASES.read_text("utf-8"))
    assert len(data) == 161
    assert sum(case["expect"] == "pass" for case in data) == 151
    licence = (REPO / "tests" / "data" / "ftfy" / "LICENSE").read_text("utf-8")
    assert "Apache License, Version 2.0" in licence
