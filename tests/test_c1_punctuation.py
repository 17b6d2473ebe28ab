"""C1 controls read as windows-1252 by default (rule ``c1-punctuation``): only where the
field's bytes are windows-1252's on evidence, else a guess left to ``legacy=True``
(``benchmarks/c1_readings.py`` counts both on pycountry's translations)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scrapy_charset.items.mojibake.chardata import C1_PUNCTUATION_RULE, SAFE_RULES
from scrapy_charset.items.mojibake.fixes import (
    _C1,
    _ONE_SEQUENCE,
    C1_PUNCTUATION,
    UTF8_AS_WINDOWS_1252,
    c1_punctuation,
    c1_sites,
)
from scrapy_charset.items.mojibake.siblings import latin_1_competing
from scrapy_charset.items.textcheck import inspect_text

# (damaged, repaired): punctuation of windows-1252 where real text puts it, in a field
# whose latin-1 letters no other single-byte reading of its bytes explains as well.
REPAIRED = [
    # ftfy 6.3.1's "Mostly negative: we only need to fix C1 control characters".
    pytest.param(
        "C'est vrai que nous n'en avons pas encore beaucoup parlé\x85 Tu sais, ça fait de "
        "nombreuses années",
        "C'est vrai que nous n'en avons pas encore beaucoup parlé… Tu sais, ça fait de "
        "nombreuses années",
        id="ftfy-ellipsis-after-a-word",
    ),
    pytest.param("le \x93café\x94 est là", "le “café” est là", id="quotes-around-a-word"),
    pytest.param("l\x92été à Paris", "l’été à Paris", id="apostrophe-inside-a-word"),
    pytest.param("café \x96 crème", "café – crème", id="dash-between-spaces"),
    pytest.param(
        "il a dit \x93café\x94 et \x91ça\x92",
        "il a dit “café” et ‘ça’",
        id="closing-quote-after-its-opening-one",
    ),
]


@pytest.mark.parametrize(("damaged", "repaired"), REPAIRED)
def test_c1_punctuation_is_repaired_by_default(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.mojibake, report.rule) == (
        repaired,
        "c1-controls",
        C1_PUNCTUATION_RULE,
    )
    assert report.fixer == "c1-punctuation"
    assert report.evidence is not None
    assert report.evidence in damaged
    assert report.remaining is None
    assert inspect_text(repaired).clean


# Each a field whose C1 controls are read as windows-1252 only with legacy=True: the
# evidence is not there, and the reading may be another encoding's.
LEFT_TO_LEGACY = [
    # No latin-1 letter in a word: nothing says the bytes are windows-1252's.
    pytest.param("\x93quoted\x94", id="no-latin-1-word"),
    # A letter in windows-1252 (Ž): macintosh's "Café" is "Caf\x8e".
    pytest.param("Caf\x8e crème", id="a-letter-not-punctuation"),
    # macintosh's "Árabe Judeo marroquí": a closing quote at a word's end, none opened.
    pytest.param("çrabe Judeo marroqu\x92", id="macintosh-i-acute-at-a-word-end"),
    # macintosh's "così": an opening quote right after a letter.
    pytest.param("così\x93 bello è", id="opening-quote-after-a-letter"),
    # macintosh's "habló": a dash against a letter.
    pytest.param("habl\x97 más è", id="dash-against-a-letter"),
    # windows-1250's Romanian "tibetană": that reading is about as likely.
    pytest.param(
        "tibetanã, norvegianã, englezã veche (cca. 450\x961100)", id="windows-1250-sibling"
    ),
]


@pytest.mark.parametrize("damaged", LEFT_TO_LEGACY)
def test_c1_controls_without_the_evidence_are_a_legacy_repair(damaged: str) -> None:
    assert c1_punctuation(damaged) is None
    report = inspect_text(damaged)
    assert (report.mojibake, report.repaired) == ("c1-controls", None)
    legacy = inspect_text(damaged, legacy=True)
    assert legacy.repaired is not None
    assert not any("\x80" <= c <= "\x9f" for c in legacy.repaired)


@pytest.mark.parametrize(
    ("raw", "repaired", "reading"),
    [
        pytest.param(b"parl\xe9\x85 Tu sais", "parlé… Tu sais", None, id="french"),
        pytest.param(
            b"tibetan\xe3, englez\xe3 veche", "tibetanã, englezã veche", "windows-1250", id="ro"
        ),
    ],
)
def test_latin_1_competing(raw: bytes, repaired: str, reading: str | None) -> None:
    assert latin_1_competing(raw, repaired) == reading


def test_the_rule_is_a_safe_one() -> None:
    assert C1_PUNCTUATION_RULE in SAFE_RULES
    # Punctuation and signs only: no letter is read by default.
    assert not any(c.isalpha() for c in C1_PUNCTUATION)


# Text a latin-1 decoder could have made, with the words and punctuation of the rule.
_LATIN_1_TEXT = st.text(
    st.sampled_from(["a", "é", "ç", " ", "T", "\x85", "\x91", "\x92", "\x93", "\x94", "\x8e"])
    | st.characters(max_codepoint=0xFF),
    max_size=40,
)


@given(_LATIN_1_TEXT)
def test_c1_punctuation_names_a_c1_control_read_as_punctuation(text: str) -> None:
    found = c1_punctuation(text)
    if found is not None:
        assert found in text
        assert "\x80" <= found <= "\x9f"
        assert bytes([ord(found)]).decode("cp1252") in C1_PUNCTUATION


@given(st.text(max_size=40))
def test_c1_punctuation_on_any_text(text: str) -> None:
    found = c1_punctuation(text)
    assert found is None or found in text


# Where a field holds a C1 control outside every UTF-8 sequence, its bytes may be another
# single-byte encoding's, read as latin-1: Faker's Russian company names in x-mac-cyrillic
# ("«" is 0xC7, "Ç" in latin-1, and the capital after it a C1 control: "Ç\x84" is UTF-8's
# "Ǆ"). The field's whole reading competes with the UTF-8 repair, which is not applied.
@pytest.mark.parametrize(
    "name",
    [
        pytest.param("НПО «Данилов»", id="npo-danilov"),
        pytest.param("АО «Котова Семенова»", id="ao-kotova-semenova"),
        pytest.param("РАО «Колесников, Власов и Пестов»", id="rao-kolesnikov"),
    ],
)
def test_x_mac_cyrillic_read_as_latin_1_is_not_repaired_as_utf8(name: str) -> None:
    damaged = name.encode("mac_cyrillic").decode("latin-1")
    assert c1_sites(damaged)[1]
    report = inspect_text(damaged)
    assert report.mojibake is not None
    assert report.repaired is None
    assert report.rule == "sibling-reading:x-mac-cyrillic"


# (text, (a UTF-8 sequence holds a C1 control, one stands outside every sequence)): the one
# question that c1_controls, ftfy's segment step and the whole field's reading ask.
@pytest.mark.parametrize(
    ("text", "sites"),
    [
        pytest.param("parlé\x85 Tu sais", (False, True), id="punctuation-byte"),
        pytest.param("â\x80\x9csenza", (True, False), id="inside-a-utf8-sequence"),
        pytest.param("â\x80\x9csenza modifiche\x94", (True, True), id="one-inside-one-outside"),
        pytest.param("\x94 â\x80\x9csenza", (True, True), id="one-outside-before-one-inside"),
        pytest.param("Ð\x95Ð\x9a", (True, False), id="two-sequences-each-holding-one"),
        pytest.param("Ð\x95\x85", (True, True), id="right-after-a-sequence"),
        pytest.param("â\x80 x", (False, True), id="lead-short-of-its-continuation"),
        pytest.param("Café", (False, False), id="none"),
    ],
)
def test_c1_sites(text: str, sites: tuple[bool, bool]) -> None:
    assert c1_sites(text) == sites


@given(st.text(alphabet=st.characters(max_codepoint=0xFF)))
def test_c1_sites_agrees_with_each_sequence_looked_at_alone(text: str) -> None:
    # The one pass over controls and sequences gives what asking each sequence gives.
    spans = [m.span() for m in _ONE_SEQUENCE[UTF8_AS_WINDOWS_1252].finditer(text)]
    controls = [m.start() for m in _C1.finditer(text)]
    inside = [any(s <= at < e for s, e in spans) for at in controls]
    assert c1_sites(text) == (any(inside), not all(inside))


def test_words_tell_windows_1252_from_a_sibling_the_pairs_prefer() -> None:
    # windows-1257 reads "coûte" as "coūte", which the pair table scores a little
    # likelier; "coûte" is a French word and "coūte" none.
    raw = "Le café coûte 3 €".encode("cp1252")
    assert latin_1_competing(raw, raw.decode("cp1252")) is None
    report = inspect_text(raw.decode("latin-1"))
    assert (report.repaired, report.rule) == ("Le café coûte 3 €", C1_PUNCTUATION_RULE)
