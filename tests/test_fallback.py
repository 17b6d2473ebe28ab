# ruff: noqa: RUF001 (look-alike characters are the data here)
"""The fallback table (scrapy_charset/items/mojibake/fallback.py): each row's example is
what the row gives, and what the whole inspection gives with ``legacy=True``."""

from __future__ import annotations

import pytest

from scrapy_charset.items.mojibake import fallback
from scrapy_charset.items.textcheck import inspect_text

ROWS = [pytest.param(row, id=row.reading) for row in fallback.ROWS]


@pytest.mark.parametrize("row", ROWS)
def test_the_rows_example_is_what_the_row_gives(row: fallback.Row) -> None:
    damaged, repaired = row.example
    assert repaired in (
        fallback.whole(damaged, row.reading),
        fallback.in_place(damaged, row.reading),
    )


@pytest.mark.parametrize("row", ROWS)
def test_the_rows_example_is_repaired_on_request(row: fallback.Row) -> None:
    damaged, repaired = row.example
    report = inspect_text(damaged, legacy=True)
    assert (report.mojibake is not None, report.repaired) == (True, repaired)


# (text, reading): a decode to what text damaged so never holds is no repair.
@pytest.mark.parametrize(
    ("text", "reading"),
    [
        pytest.param("Данилова»’s", "windows-1251", id="lao-digit-from-cyrillic-and-a-quote"),
        pytest.param("Парагвај’s", "windows-1251", id="tibetan-mark-without-tibetan-letters"),
        pytest.param("„çûkî“", "macintosh", id="cjk-compatibility-from-latin"),
        pytest.param("ΒΆΙ™", "windows-1253", id="latin-from-greek-capitals"),
    ],
)
def test_a_decode_that_fails_the_rows_test_is_no_repair(text: str, reading: str) -> None:
    assert fallback.whole(text, reading) is None
    assert fallback.in_place(text, reading) in (None, text)
