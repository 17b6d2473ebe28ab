# ruff: noqa: RUF001 (look-alike characters are the data here)
"""Sibling readings: the pair table generated from CLDR's names
(scrapy_charset/items/mojibake/siblings.py), the readings it tells apart, and the
verifier's choice among readings that all verify: the likeliest, or none when no reading
is likelier than the others by the margin. The examples are names of pycountry's translations, the
text of the partly damaged fields of benchmarks/item_evidence.py."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from scrapy_charset.items.mojibake import _bigrams, fallback
from scrapy_charset.items.mojibake.siblings import score
from scrapy_charset.items.textcheck import inspect_text
from tests.spec import PACKAGE, REPO, script

GENERATOR = REPO / "scripts" / "generate_bigrams.py"


def _babel_of_the_table() -> None:
    babel = pytest.importorskip("babel")
    if babel.__version__ != _bigrams.BABEL_VERSION:
        pytest.skip(f"the table is made from Babel {_bigrams.BABEL_VERSION}")


def test_generated_table_fingerprint_is_babels_names() -> None:
    """The fast check: the names the installed Babel gives are those the table counted
    (its FINGERPRINT); the full regeneration is the slow check below."""
    _babel_of_the_table()
    names = script("generate_bigrams").names()
    digest = hashlib.sha256("\n".join(names).encode("utf-8")).hexdigest()
    assert digest == _bigrams.FINGERPRINT
    assert len(names) == _bigrams.NAMES


@pytest.mark.slow
def test_generated_table_is_current() -> None:
    _babel_of_the_table()
    result = subprocess.run(
        [sys.executable, str(GENERATOR), "--package", str(PACKAGE), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_table_records_its_source_and_licence() -> None:
    text = (PACKAGE / "items" / "mojibake" / "_bigrams.py").read_text("utf-8")
    assert f"Babel {_bigrams.BABEL_VERSION}" in text
    assert "Unicode License v3" in text
    assert "Do not edit" in text
    assert len(_bigrams.FINGERPRINT) == 64
    assert _bigrams.NAMES > 100_000


# (damaged, reading, what that reading gives): each reading gives its own text.
READING_EXAMPLES = [
    pytest.param("Ć‰tat", "windows-1257", "État", id="windows-1257-e-acute"),
    pytest.param("Ć‰tat", "windows-1250", "Ɖtat", id="windows-1250-african-d"),
    pytest.param("SĂźĂźria", "ISO-8859-2", "Süüria", id="iso-8859-2-u-umlaut"),
    pytest.param("SĂźĂźria", "windows-1250", "Sßßria", id="windows-1250-sharp-s"),
    pytest.param("TiбЇњng", "x-mac-cyrillic", "Tiếng", id="x-mac-cyrillic-vietnamese"),
    pytest.param("TiбЇњng", "windows-1251", "Tiᯜng", id="windows-1251-batak"),
    pytest.param("–æ–ª–∫–æ–ª", "macintosh", "олкол", id="macintosh-cyrillic"),
    pytest.param("SÃ£o", "windows-1252", "São", id="windows-1252-a-tilde"),
    pytest.param("SÃ£o", "macintosh", "S\u0323o", id="macintosh-dot-below"),
    # A sequence whose next byte became U+FFFD keeps one U+FFFD, as the repair does.
    pytest.param("Ć\x81mĆ\ufffdrico", "windows-1257", "Ám\ufffdrico", id="lost-byte"),
    pytest.param("Ä¨eÅ\ufffdtina", "windows-1257", "če\ufffdtina", id="lost-byte-czech"),
    pytest.param("Ä¨eÅ\ufffdtina", "windows-1250", "ĨeÅ\ufffdtina", id="no-lead-no-loss"),
]


@pytest.mark.parametrize(("damaged", "name", "expected"), READING_EXAMPLES)
def test_reading(damaged: str, name: str, expected: str | None) -> None:
    assert fallback.in_place(damaged, name) == expected


# (right, wrong): the reading real text supports scores higher than its sibling's.
SCORE_EXAMPLES = [
    pytest.param("État", "Ɖtat", id="french-against-windows-1250"),
    pytest.param("Árabes", "Ɓrabes", id="portuguese-against-windows-1250"),
    pytest.param("Süüria", "Sßßria", id="estonian-against-windows-1250"),
    pytest.param("konžština", "konŞťtina", id="czech-against-windows-1250"),
    pytest.param("Tiếng", "Tiᯜng", id="vietnamese-against-windows-1251"),
    pytest.param("Тирхутская", "–¢–∏—ė֗ɗǗŖ∫–∞—è", id="russian-against-windows-1252"),
    pytest.param("Micronésia", "MicronÊsia", id="case-break-costs"),
]


@pytest.mark.parametrize(("right", "wrong"), SCORE_EXAMPLES)
def test_real_text_scores_higher(right: str, wrong: str) -> None:
    assert score(right) > score(wrong)


# (field, reading that competes, damaged segment): the repair another reading competes
# with is reported, not applied, with and without legacy=True.
WRONG_REASON = (
    "two words of one field damaged by decodes of two encodings: ftfy's plan reads the field "
    "whole in one of them, and no reading of the other word is likelier by the margin"
)
SIBLING_EXAMPLES = [
    pytest.param(
        "Ć‰tat plurinational de Bolivie, Bénin", "windows-1257", "Ć‰tat", id="windows-1257"
    ),
    pytest.param("Emirados Ć\x81rabes Unidos, Moçambique", "windows-1257", "Ć\x81rabes",
                 id="windows-1257-c1-byte"),
    # A U+FFFD in another segment rules no reading out: no reading has a byte for it.
    pytest.param("Ć\x81rabe mesopotĆ\ufffdmico", "windows-1257", "Ć\x81rabe",
                 id="windows-1257-byte-lost-elsewhere"),
    pytest.param("Čeština, Ä¨eÅ\ufffdtina", "windows-1257", "Ä¨eÅ\ufffdtina",
                 id="windows-1257-byte-lost"),
    # Less likely by the pairs (9.8 below windows-1250's "Piteü"), but a word real text
    # uses where windows-1250's reading makes none: words decide (pycountry's Swedish).
    pytest.param("PiteĂĽ saami", "ISO-8859-2", "PiteĂĽ",
                 marks=pytest.mark.xfail(strict=True, reason=WRONG_REASON),
                 id="iso-8859-2-by-words"),
    # Two sources, each damaged its own way: windows-1252's "Ð“Ð°Ð±Ð¾Ð½" holds "“", which
    # ISO-8859-2 has no byte for, yet it rules out no reading of the other decode's
    # segments (windows-1250 reads "РоспуйНика", ISO-8859-2 "Республика").
    pytest.param("Đ\xa0ĐľŃ\x81ĐżŃ\x83ĐąĐťĐ¸ĐşĐ° Đ\x9fĐ°Đ˝Đ°ĐźĐ°, Ð“Ð°Ð±Ð¾Ð½", "ISO-8859-2",
                 "Đ\xa0ĐľŃ\x81ĐżŃ\x83ĐąĐťĐ¸ĐşĐ°",
                 marks=pytest.mark.xfail(strict=True, reason=WRONG_REASON),
                 id="ruled-out-by-another-decode-only"),
    # windows-1250's Thai rules windows-1257 out for "Ost-ApurĆ\xadmac" (one reading,
    # windows-1250, gives both), yet its "Apurímac" holds nothing real text does not,
    # where the repair's "Apurƭmac" holds a letter no language uses: it competes.
    pytest.param("ŕ¸\xadŕ¸´ŕ¸™ŕ¸¸ŕ¸\x81, Ost-ApurĆ\xadmac", "windows-1257", "Ost-ApurĆ\xadmac",
                 id="ruled-out-but-fewer-events"),
    # windows-1250's euro sign, "â\u201a¬", rules ISO-8859-2 out (one reading,
    # windows-1250, gives both segments), yet ISO-8859-2's "šillinki" is 18.5 likelier
    # than the repair's "ťillinki", twice the margin: it competes (pycountry's, two sources).
    pytest.param("Ugandan ĹĄillinki, 4Â\xa0746,50Â\xa0â‚¬", "ISO-8859-2", "ĹĄillinki,",
                 id="ruled-out-but-twice-the-margin-likelier"),
    # ISO-8859-2's "Armēnija" holds U+0093, which windows-1250 has no byte for: it rules
    # windows-1250 out for "KÄŤ". Its "Kč" (Czech crowns) is 4.8 less likely by the pairs
    # than the repair's "Kī", but a word real text uses where the repair makes none.
    pytest.param("11Â\xa0687,50Â\xa0KÄŤ, ArmÄ\x93nija", "windows-1250",
                 "11Â\xa0687,50Â\xa0KÄŤ,",
                 marks=pytest.mark.xfail(strict=True, reason=WRONG_REASON),
                 id="ruled-out-but-a-word"),
]  # fmt: skip


@pytest.mark.parametrize(("field", "name", "segment"), SIBLING_EXAMPLES)
@pytest.mark.parametrize("legacy", [False, True], ids=["default", "legacy"])
def test_sibling_reading_is_reported_not_repaired(
    field: str, name: str, segment: str, legacy: bool
) -> None:
    report = inspect_text(field, legacy=legacy)
    assert not report.clean
    assert (report.repaired, report.verdict) == (None, "ambiguous")


# (field, repaired): repairs no other reading competes with stay.
CERTAIN_EXAMPLES = [
    # Words damaged by one decode of a sibling encoding beside clean ones: the reading
    # whose sequences verify and score likeliest decodes them in place.
    pytest.param(
        "Süüria, SĂźĂźria Araabia Vabariik", "Süüria, Süüria Araabia Vabariik", id="iso-8859-2"
    ),
    pytest.param("Džürčenské, konĹžĹĄtina", "Džürčenské, konžština", id="iso-8859-2-czech"),
    pytest.param("Bolívie, –¢–∏—Ä—Ö—É—Ç—Å–∫–∞—è", "Bolívie, Тирхутская", id="macintosh-cyrillic"),
    pytest.param(
        "Tiếng Việt, TiбЇњng Lo-di", "Tiếng Việt, Tiếng Lo-di", id="x-mac-cyrillic-vietnamese"
    ),
    pytest.param(
        "Île de Man, Ć\xa0rab",
        "Île de Man, àrab",
        id="windows-1257-a-grave",
        marks=pytest.mark.xfail(
            strict=True,
            reason="one sequence, no likelier than the text as given: reported, not repaired",
        ),
    ),
    pytest.param("São Tomé, SÃ£o Paulo", "São Tomé, São Paulo", id="windows-1252-prior"),
    pytest.param("Bénin, CafÃ© crÃ¨me", "Bénin, Café crème", id="windows-1252"),
    pytest.param("Ελλάδα, Î\xa0ÎµÏ\x81ÏƒÎ¹ÎºÎ¬", "Ελλάδα, Περσικά", id="windows-1252-greek"),
    pytest.param("Ecuadorâ\x80\x99s â\x80\x98purely", "Ecuador’s ‘purely", id="ftfy-latin-1"),
    pytest.param(
        "MĂĄm dost tĹ\x99etĂ\xadho tisĂ\xadciletĂ\xad",
        "Mám dost třetího tisíciletí",
        id="ruled-out-by-the-field",
    ),
    # Two sources damaged two ways, each read by its own decode: no sibling competes.
    pytest.param(
        "CafÃ© crÃ¨me, SĂşdĂˇinis",
        "Café crème, Súdáinis",
        id="two-decodes",
    ),
    # The first pass reads "zÅ\u201a" as windows-1252 and leaves windows-1257's "Ā\xa0": the
    # reading windows-1252's Cyrillic rules out is that repair a layer short, no sibling.
    pytest.param(
        "39Ā\xa0670,50Ā\xa0zÅ‚, ÐºÐ¾Ð½Ð³Ð¾",
        "39\xa0670,50\xa0zł, конго",
        id="ruled-out-reading-a-layer-further",
    ),
    # Each reading keeps one U+FFFD for the sequence that lost a byte, as the repair does.
    pytest.param("bhĆ³dÅ¾purÅ\ufffdtina", "bhódžpur\ufffdtina", id="byte-lost-alike"),
    # A no-break space restored joins two segments ("Å veices" is "Šveices"): each reading
    # reads them joined by the byte restored, and windows-1252's gives the same letters.
    pytest.param(
        "Å veices baÅ†Ä·ieri gaida", "Šveices baņķieri gaida", id="a0-restored-joins-segments"
    ),
]


@pytest.mark.parametrize(("field", "repaired"), CERTAIN_EXAMPLES)
def test_certain_repair_is_kept(field: str, repaired: str) -> None:
    assert inspect_text(field).repaired == repaired


# A damaged part that holds more of what real text does not (plausible.badness: a
# superscript between letters, a symbol before a lowercase letter) than its repair is no
# reading of its own, whatever the pair table says.
@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        pytest.param("IL2RÎ³cKO mice", "IL2RγcKO mice", id="ftfy-gene-name"),
        pytest.param("BÃ¦verska", "Bæverska", id="bavarian-windows-1252"),
        pytest.param("BĂ¦verska", "Bæverska", id="bavarian-windows-1250"),
        # A sequence that lost a byte keeps one U+FFFD, as ftfy does.
        pytest.param("perÅ\ufffdtina", "per\ufffdtina", id="lossy-czech"),
    ],
)
def test_a_damaged_part_that_is_no_reading_is_repaired(damaged: str, repaired: str) -> None:
    assert inspect_text(damaged).repaired == repaired
