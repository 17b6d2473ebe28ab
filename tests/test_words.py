# ruff: noqa: RUF001 (look-alike characters are the data here)
"""The word lookup (scrapy_charset/items/mojibake/words.py): a layer of repair found on
weak sequences only is taken when it makes words real text uses (wordfreq's lists) of
parts that were none, and never on a part that may be a word with something attached."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scrapy_charset.items.mojibake import _words
from scrapy_charset.items.mojibake.words import RULE, is_word, reading_of_words, word_repair
from scrapy_charset.items.textcheck import inspect_text
from tests.spec import PACKAGE, REPO

GENERATOR = REPO / "scripts" / "generate_words.py"


def test_generated_table_is_current() -> None:
    pytest.importorskip("wordfreq")
    from importlib import metadata

    if metadata.version("wordfreq") != _words.WORDFREQ_VERSION:
        pytest.skip(f"the table is made from wordfreq {_words.WORDFREQ_VERSION}")
    result = subprocess.run(
        [sys.executable, str(GENERATOR), "--package", str(PACKAGE), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_table_records_its_source_and_licence() -> None:
    text = (PACKAGE / "items" / "mojibake" / "_words.py").read_text("utf-8")
    assert f"wordfreq {_words.WORDFREQ_VERSION}" in text
    assert "Creative Commons Attribution-ShareAlike 4.0" in text
    assert "Do not edit" in text
    assert len(_words.FINGERPRINT) == 64
    assert len("".join(_words.WORDS).split()) == _words.COUNT > 50_000
    licence = (REPO / "LICENSES" / "CC-BY-SA-4.0.txt").read_text("utf-8")
    assert licence.startswith("Attribution-ShareAlike 4.0 International")


@pytest.mark.parametrize(
    ("part", "word"),
    [
        pytest.param("CAFÉ", True, id="french-spanish-cafe-in-capitals"),
        pytest.param("“où”,", True, id="french-ou-with-punctuation-around"),
        pytest.param("à", True, id="french-a-one-letter"),
        pytest.param("Irã", True, id="portuguese-ira"),
        pytest.param("irù", False, id="no-word"),
        pytest.param("ã", False, id="a-tilde-alone-is-rare"),
        pytest.param("café", True, id="lowercase"),
        pytest.param("cafe", False, id="ascii-words-are-not-in-the-table"),
        pytest.param("CAFÃ‰", False, id="a-symbol-inside"),
    ],
)
def test_is_word(part: str, word: bool) -> None:
    assert is_word(part) is word


@pytest.mark.parametrize(
    ("damaged", "repaired", "word"),
    [
        pytest.param("CAFÃ‰", "CAFÉ", "CAFÉ", id="cafe"),
        pytest.param("“CAFÃ‰”", "“CAFÉ”", "CAFÉ", id="cafe-in-quotes"),
        pytest.param("PRÃŠT-Ã€-PORTER", "PRÊT-À-PORTER", "PRÊT", id="parts-of-a-hyphenated-word"),
        # A lead alone is no word in any language: its no-break space is no attachment.
        pytest.param("Ã\u00a0", "à", "à", id="lone-a-tilde-and-no-break-space"),
        # A part that was a word as given, with a trade mark sign: no evidence.
        pytest.param("IRÃ™", "IRÙ", None, id="portuguese-ira-trademark"),
        # A trade mark sign after a part that is no word as given is the sequence's byte.
        pytest.param("OÃ™", "OÙ", "OÙ", id="trademark-sign-after-no-word"),
        pytest.param("PIÃ™", "PIÙ", "PIÙ", id="italian-piu-trademark-sign"),
        # A part that may be a word with a quote or a footnote sign attached: no evidence.
        pytest.param("NÃ”", "NÔ", None, id="closing-quote-attached"),
        pytest.param("OÃ¹", "Où", None, id="footnote-sign-attached"),
        # A repair that makes a word of one part but not of another: no evidence.
        pytest.param("CAFÃ‰ NOÃ‰", "CAFÉ NOÉ", None, id="one-part-no-word"),
        # A part that was a word as given: no evidence.
        pytest.param("São", "Sço", None, id="was-a-word"),
        pytest.param("CAFÃ‰ X", "CAFÉX", None, id="not-as-many-parts"),
    ],
)
def test_word_repair(damaged: str, repaired: str, word: str | None) -> None:
    assert word_repair(damaged, repaired) == word


# (repaired, another reading of the same damage, the word that decides for the other):
# words decide between two readings only where they differ in the word itself.
@pytest.mark.parametrize(
    ("repaired", "other", "word"),
    [
        # pycountry's Swedish "Piteå saami" damaged as UTF-8 read as ISO-8859-2, "PiteĂĽ":
        # windows-1250 reads "Piteü", which the pair table prefers by 9.8.
        pytest.param("Piteü saami", "Piteå saami", "Piteå", id="pitea-iso-8859-2"),
        pytest.param("Piteü, saami", "Piteå, saami", "Piteå", id="same-punctuation-around"),
        # The repair is a word too: the pair table decides, not the words.
        pytest.param("café", "cafĂ", None, id="repair-is-a-word"),
        # A word with symbols after it, where the repair has none, is no word of its own:
        # "xá»£" is no word "xá" (Vietnamese "xợ" damaged as UTF-8 read as windows-1250).
        pytest.param("Pa-ki-xợ-thănh", "Pa-ki-xá»£-thănh", None, id="word-with-symbols-after"),
        # One part where they differ is no word in the other reading: no evidence.
        pytest.param("Piteü Lulü", "Piteå Luluø", None, id="one-part-no-word"),
        pytest.param("Piteü saami", "Pite å saami", None, id="not-as-many-parts"),
        pytest.param("Piteü saami", "Piteü saami", None, id="the-same"),
    ],
)
def test_reading_of_words(repaired: str, other: str, word: str | None) -> None:
    assert reading_of_words(repaired, other) == word


# (damaged, repaired): weak sequences only (a symbol is the continuation character, and no
# case break), taken because the repair makes words real text uses.
REPAIRED_ON_WORDS = [
    pytest.param("CAFÃ‰", "CAFÉ", id="cafe-in-capitals"),
    pytest.param("Ã€ LA CARTE", "À LA CARTE", id="a-grave-in-capitals"),
    pytest.param("PRÃŠT-Ã€-PORTER", "PRÊT-À-PORTER", id="pret-a-porter"),
    pytest.param("CATALÃ€", "CATALÀ", id="cldr-catalan-in-capitals"),
    # ftfy's "mojibake with trademark sign at the end of a word".
    pytest.param("OÃ™ ET QUAND?", "OÙ ET QUAND?", id="ftfy-trademark-sign-case"),
    pytest.param("GUINÃ‰-BISSAU", "GUINÉ-BISSAU", id="cldr-guinea-bissau"),
    # ftfy's "French example containing non-breaking spaces".
    pytest.param(
        "ART TRIP Ã\u00a0 l'office de tourisme",
        "ART TRIP à l'office de tourisme",
        id="ftfy-a-grave-and-no-break-space",
    ),
]


@pytest.mark.parametrize(("damaged", "repaired"), REPAIRED_ON_WORDS)
def test_a_weak_layer_is_taken_on_words(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.rule) == (repaired, RULE)
    assert report.remaining is None
    assert inspect_text(repaired).clean


# Weak sequences only, left as they are (reported): correct text with a sign or a quote
# attached to a word in capitals, or a repair that makes no word.
REPORTED_NOT_REPAIRED = [
    pytest.param("IRÃ™", id="cldr-portuguese-ira-trademark"),
    pytest.param("“MĨ NÃ”", id="cldr-capitals-in-quotes"),
    pytest.param("„MĨ NÃ“", id="cldr-capitals-in-german-quotes"),
    pytest.param("DIRHÀM ÈMÌRÂ®", id="cldr-yoruba-registered"),
]


@pytest.mark.parametrize("damaged", REPORTED_NOT_REPAIRED)
def test_no_word_evidence_leaves_the_text(damaged: str) -> None:
    report = inspect_text(damaged)
    assert report.repaired is None
    assert report.rule != RULE


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("NESTLÉ®", id="nestle-registered"),
        pytest.param("BEYONCÉ’s tour", id="beyonce-possessive"),
        pytest.param("CAFÉ’s “new” line", id="cafe-possessive"),
        pytest.param("IRMÃ E IRMÃO", id="portuguese-capitals"),
    ],
)
def test_correct_text_is_left_alone(text: str) -> None:
    report = inspect_text(text)
    assert report.repaired is None
    assert report.rule != RULE


@given(damaged=st.text(max_size=60), repaired=st.text(max_size=60))
def test_any_text_gives_a_word_or_none(damaged: str, repaired: str) -> None:
    word = word_repair(damaged, repaired)
    assert word is None or is_word(word)
    assert word_repair(damaged, damaged) is None


@given(st.text(), st.text())
def test_reading_of_words_takes_any_text(repaired: str, other: str) -> None:
    word = reading_of_words(repaired, other)
    assert word is None or (is_word(word) and repaired != other)
