"""C1 controls read as windows-1252 by default: only where each is punctuation in
windows-1252 standing where that mark goes, and no other single-byte reading of the
field's bytes is as plausible and as likely; else reported, and read so only with
``legacy=True`` when the choice is not ambiguous."""

from __future__ import annotations

import pytest

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
    pytest.param("Le café coûte 3 \x80", "Le café coûte 3 €", id="euro-sign"),
]


@pytest.mark.parametrize(("damaged", "repaired"), REPAIRED)
def test_c1_punctuation_is_repaired_by_default(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.mojibake, report.remaining) == (repaired, "c1-controls", None)
    assert report.encoding == "windows-1252"
    assert inspect_text(repaired).clean


# Each a field whose C1 controls are not read by default: (damaged, repaired with
# legacy=True, or None when the readings are as likely).
NOT_BY_DEFAULT = [
    # No latin-1 letter in a word: macintosh's "ìquotedî" is as plausible.
    pytest.param("\x93quoted\x94", None, id="no-latin-1-word"),
    # A letter in windows-1252 (Ž): macintosh's "Café" is "Caf\x8e".
    pytest.param("Caf\x8e crème", None, id="a-letter-not-punctuation"),
    # macintosh's "Árabe Judeo marroquí": a closing quote at a word's end, none opened.
    pytest.param("çrabe Judeo marroqu\x92", None, id="macintosh-i-acute-at-a-word-end"),
    # macintosh's "così": an opening quote right after a letter.
    pytest.param("così\x93 bello è", "così“ bello è", id="opening-quote-after-a-letter"),
    # macintosh's "habló": a dash against a letter.
    pytest.param("habl\x97 más è", "habl— más è", id="dash-against-a-letter"),
    # windows-1250's Romanian "tibetană": that reading is likelier.
    pytest.param(
        "tibetanã, norvegianã, englezã veche (cca. 450\x961100)",
        None,
        id="windows-1250-sibling",
    ),
]


@pytest.mark.parametrize(("damaged", "legacy"), NOT_BY_DEFAULT)
def test_c1_controls_without_the_evidence_are_not_read_by_default(
    damaged: str, legacy: str | None
) -> None:
    report = inspect_text(damaged)
    assert (report.mojibake, report.repaired) == ("c1-controls", None)
    assert inspect_text(damaged, legacy=True).repaired == legacy


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
    report = inspect_text(damaged)
    assert report.mojibake is not None
    assert (report.repaired, report.verdict) == (None, "ambiguous")
    assert inspect_text(damaged, legacy=True).repaired is None
