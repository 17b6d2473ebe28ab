# ruff: noqa: RUF001 (look-alike characters are the data here)
"""The fallback table (scrapy_charset/items/mojibake/fallback.py): each row's example is
what the row gives, and what the whole inspection gives with ``legacy=True``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.items.mojibake import fallback
from scrapy_charset.items.mojibake.chardata import high_half
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


# (field, repaired): CLDR names, one of them damaged as windows-1252 among clean ones.
# ftfy decodes the damaged one in place but leaves the sequences that hold a C1 control
# or a no-break space; the fallback's windows-1252 row reads those in place too, so the
# repair is whole, and applied by default.
@pytest.mark.parametrize(
    ("field", "repaired"),
    [
        pytest.param(
            "Baškīru, Sintēstatiusa un Saba, MÄ\x81rÅ¡ala salas, Argentīna",
            "Baškīru, Sintēstatiusa un Saba, Māršala salas, Argentīna",
            id="c1-control-left-latvian",
        ),
        pytest.param(
            "Tiếng Ca-ra-Cac-pac, NÆ°á»›c Cá»™ng HoÃ\xa0 DÃ¢n Chá»§ Thi-moa Le-xá»£-te",
            "Tiếng Ca-ra-Cac-pac, Nước Cộng Hoà Dân Chủ Thi-moa Le-xợ-te",
            id="no-break-space-left-vietnamese",
        ),
        pytest.param(
            "Nigerská republika, Čad, ÄŒeskÃ½, Republika",
            "Nigerská republika, Čad, Český, Republika",
            id="capitals-left-czech",
        ),
        pytest.param(
            "тічуронг, ґен, Ñ–-Ð²Ð°Ðº, урубу-каапор",
            "тічуронг, ґен, і-вак, урубу-каапор",
            id="cyrillic-left-ukrainian",
        ),
    ],
)
def test_what_ftfy_leaves_in_place_the_fallback_finishes(field: str, repaired: str) -> None:
    report = inspect_text(field)
    assert (report.repaired, report.verdict) == (repaired, None)
    assert report.fixer == "ftfy: apply:decode_inconsistent_utf8; fallback: windows-1252"


# (field, repaired): a word the reading decodes in place but that reads likelier as given
# stays as given (the first two letters of a Belarusian word are windows-1251's reading of
# UTF-8's "ѳ").
@pytest.mark.parametrize(
    ("field", "repaired"),
    [
        pytest.param(
            "Кіпр, РњР°СћСЂС‹РєС–Р№СЃРєР°СЏ СЂСѓРїС–СЏ, Лоці, Сінгапурскі долар",
            "Кіпр, Маўрыкійская рупія, Лоці, Сінгапурскі долар",
            id="belarusian-si-stays",
        ),
    ],
)
def test_a_word_likelier_as_given_stays(field: str, repaired: str) -> None:
    report = inspect_text(field)
    assert (report.repaired, report.fixer) == (repaired, "fallback: windows-1251")


_SINGLE_BYTE = [row.reading for row in fallback.ROWS if row.reading != fallback.SHIFT_JIS]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_SINGLE_BYTE), st.data())
def test_in_place_turns_away_only_text_without_a_sequence(
    reading: str, data: st.DataObject
) -> None:
    """The search :func:`fallback.in_place` starts with (a lead before a continuation
    character or U+FFFD) turns away only text the whole reading leaves alone."""
    alphabet = [c for c in high_half(reading) if c != "\ufffd"] + list("ab \ufffdé")
    text = data.draw(st.text(alphabet=alphabet, max_size=8))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fallback, "_pair", lambda _reading: None)
        unfiltered = fallback.in_place(text, reading)
    assert fallback.in_place(text, reading) == unfiltered
