# ruff: noqa: RUF001 (look-alike characters are the data here)
"""Partly damaged fields: each damaged segment found on its own evidence, repaired or
reported, and damage a repair left is never reported clean."""

from __future__ import annotations

import pytest

from scrapy_charset.items.mojibake import MojibakeKind
from scrapy_charset.items.textcheck import inspect_text
from tests.test_pipeline import make, stats

OTHER = MojibakeKind.UTF8_AS_OTHER

# (damaged, repaired with legacy=True): one phrase damaged, correct accented text around.
PARTLY_DAMAGED = [
    pytest.param(
        "10 вВђ вАФ caf√© cr√®me й fin",
        "10 € — café crème й fin",
        id="utf8-as-x-mac-cyrillic-and-macintosh-next-to-cyrillic",
    ),
    pytest.param("cafĆ© crĆØme é fin", "café crème é fin", id="utf8-as-windows-1257"),
]


@pytest.mark.parametrize(("damaged", "repaired"), PARTLY_DAMAGED)
def test_a_damaged_phrase_is_found_among_correct_text(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert report.mojibake == OTHER
    assert report.repaired is None  # a reading that guesses: only on request
    assert inspect_text(damaged, legacy=True).repaired == repaired


HALF = "Bangladéš, Severní Makedonie — ÄŚad, MoldavskĂˇ republika"


def test_damage_a_repair_left_is_reported() -> None:
    report = inspect_text(HALF)
    assert report.repaired == "Bangladéš, Severní Makedonie — ÄŚad, Moldavská republika"
    assert report.partial
    assert report.remaining == OTHER
    assert report.remaining_segments == 1
    assert not inspect_text(report.repaired).clean


def test_with_legacy_a_segment_two_readings_give_stays_reported() -> None:
    # "ÄŚad" is Čad in windows-1250 and Ħad (Maltese's Ħ) in ISO-8859-2: the pair table
    # (siblings.py) cannot tell them apart, so even on request it is reported, not repaired.
    report = inspect_text(HALF, legacy=True)
    assert report.repaired == "Bangladéš, Severní Makedonie — ÄŚad, Moldavská republika"
    assert report.partial
    assert report.remaining == "utf8-as-other"


def test_the_pipeline_counts_partial_repairs() -> None:
    pipeline = make()
    item = {"name": HALF}
    pipeline.process_item(item)
    assert item["name"] == "Bangladéš, Severní Makedonie — ÄŚad, Moldavská republika"
    found = stats(pipeline)
    assert found["charset/repaired/partial"] == 1
    assert found["charset/mojibake/kind/utf8-as-other"] == 1


# ftfy 6.3.1's lossy cases: a UTF-8 sequence that lost a byte becomes one U+FFFD.
LOSSY = [
    pytest.param("Ð±ÑŠÐ»Ð³Ð°Ñ€Ñ�ÐºÐ¸ ÐµÐ·Ð¸Ðº", "българ�ки език", id="bulgarian"),
    pytest.param("â€œlossy decodingâ€�", "“lossy decoding�", id="lossy-quote"),
]


@pytest.mark.parametrize(("damaged", "repaired"), LOSSY)
def test_lossy_mojibake_keeps_one_replacement_character(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert report.repaired == repaired
    assert report.lossy
