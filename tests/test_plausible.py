# ruff: noqa: RUF001 (look-alike characters are the data here)
"""The plausibility evidence (scrapy_charset/items/mojibake/plausible.py): generated from
CLDR's exemplar characters, and each rule from its own example."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from scrapy_charset.items.mojibake import _plausible
from scrapy_charset.items.mojibake.badness import DECISIVE, RULES, Rule, weigh_rule
from scrapy_charset.items.mojibake.plausible import (
    CASE_BREAK,
    NO_COMMON_ALPHABET,
    NOT_TEXT,
    SYMBOL_IN_WORD,
    UNATTESTED,
    alphabets,
    events,
    implausible,
    unattested,
)
from scrapy_charset.items.textcheck import inspect_text
from tests.spec import PACKAGE, REPO


def test_generated_module_fingerprint_is_the_extracts() -> None:
    """The fast check: the pinned extract (tests/data/cldr-exemplars/exemplars.json) is the
    one the module was generated from (its FINGERPRINT); the full regeneration is the slow
    check below."""
    extract = json.loads(
        (REPO / "tests" / "data" / "cldr-exemplars" / "exemplars.json").read_text("utf-8")
    )
    digest = hashlib.sha256(
        json.dumps(extract, sort_keys=True, ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    assert digest == _plausible.FINGERPRINT


@pytest.mark.slow
def test_generated_module_is_current() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "generate_plausible.py"),
            "--package",
            str(PACKAGE),
            "--check",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_generated_module_records_its_source_and_licence() -> None:
    text = (PACKAGE / "items" / "mojibake" / "_plausible.py").read_text("utf-8")
    assert "cldr-misc-full 48.2.0" in text
    assert "Unicode License v3" in text
    assert "Do not edit" in text
    assert _plausible.CLDR_JSON_VERSION == "48.2.0"
    licence = (REPO / "tests" / "data" / "cldr-exemplars" / "LICENSE").read_text("utf-8")
    assert licence.startswith("UNICODE LICENSE V3")


@pytest.mark.parametrize(
    ("char", "used"),
    [
        pytest.param("é", True, id="e-acute-french"),
        pytest.param("Ł", True, id="l-stroke-polish"),
        pytest.param("ё", True, id="cyrillic-yo"),
        pytest.param("\u09df", True, id="bengali-yya-decomposes"),
        pytest.param("中", True, id="han-by-script"),
        pytest.param("ɒ", False, id="turned-alpha-no-language"),
        pytest.param("˒", False, id="modifier-half-ring-no-language"),
        pytest.param("ᴴ", False, id="modifier-capital-h-no-language"),
        pytest.param("\u0352", False, id="combining-fermata-no-language"),
        pytest.param("®", True, id="symbols-are-no-letters"),
    ],
)
def test_attested(char: str, used: bool) -> None:
    assert unattested(char) is not used
    assert (alphabets(char) != 0) is used


# Each rule of events(), from its own example: (text, the rule it holds).
RULE_EXAMPLES = [
    pytest.param("BEYONCɒs", UNATTESTED, id=UNATTESTED),
    pytest.param("Bront녔", NO_COMMON_ALPHABET, id=NO_COMMON_ALPHABET),
    # Not a scientific name: no capital, two Greek letters, or a letter outside ASCII.
    pytest.param("caféα", NO_COMMON_ALPHABET, id="greek-after-an-accented-letter"),
    pytest.param("Raγβc", NO_COMMON_ALPHABET, id="two-greek-letters-in-a-latin-word"),
    pytest.param("aγc", NO_COMMON_ALPHABET, id="greek-in-a-lowercase-word"),
    pytest.param("CafÃ©", CASE_BREAK, id=CASE_BREAK),
    pytest.param("25Â°C", SYMBOL_IN_WORD, id=SYMBOL_IN_WORD),
    pytest.param("ã\x83\x90", NOT_TEXT, id=NOT_TEXT),
]


@pytest.mark.parametrize(("text", "rule"), RULE_EXAMPLES)
def test_rule_fires_on_its_example(text: str, rule: str) -> None:
    assert rule in events(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("BEYONCÉ’s tour", id="possessive"),
        pytest.param("Tiếng Việt", id="vietnamese"),
        pytest.param("l’eau, e-mail, U.S.A.", id="joiners"),
        pytest.param("バーミューダ・ドル", id="katakana-middle-dot"),
        pytest.param("NESTLÉ®", id="symbol-after-a-word"),
        pytest.param("צ׳אד", id="hebrew-geresh"),
        # A scientific name: one Greek letter in a word of ASCII letters with a capital.
        pytest.param("IL2Rγc", id="greek-in-a-gene-name"),
        pytest.param("TNFα and IFNγ", id="greek-in-protein-names"),
        pytest.param("PPARγ agonists", id="greek-ends-a-gene-name"),
    ],
)
def test_real_text_has_no_events(text: str) -> None:
    assert events(text) == []


@pytest.mark.parametrize(
    ("damaged", "repaired", "rule"),
    [
        pytest.param("BEYONCÉ’s", "BEYONCɒs", UNATTESTED, id="beyonce"),
        pytest.param("ZOË’s", "ZO˒s", UNATTESTED, id="zoe"),
        pytest.param("AÇAÍ’s", "AÇA͒s", UNATTESTED, id="acai"),
        pytest.param("lá´´", "lᴴ", UNATTESTED, id="acute-as-quotes"),
        pytest.param("NESTLÉ®", "NESTLɮ", UNATTESTED, id="nestle-second-layer"),
        pytest.param("Brontë…”", "Bront녔", NO_COMMON_ALPHABET, id="bronte-second-layer"),
        pytest.param("CafÃ©", "Café", None, id="cafe"),
        pytest.param("Ä°Ñ\x81Ð²Ó™Ò—Ñ‡Ó™", "İсвәҗчә", None, id="fewer-events-wins"),
    ],
)
def test_implausible(damaged: str, repaired: str, rule: str | None) -> None:
    assert implausible(damaged, repaired) == rule


# Correct text that the repairs rewrote: an accented capital, an apostrophe, a letter
# (ordinary English about brands and people), and ftfy 6.3.1's must-leave-alone cases.
LEFT_ALONE = [
    "BEYONCÉ’s tour",
    "NESTLÉ’s",
    "CAFÉ’s",
    "PELÉ’s",
    "CHLOÉ’s",
    "RÉSUMÉ’s",
    "ZOË’s",
    "BRONTË’s",
    "AÇAÍ’s",
    "Join ZZAJÉ’s Official Fan List and receive news, events, and more!",
    "``hogwarts nao existe, voce nao vai pegar o trem pra lá´´",
    "There are a lot of Ã’s in mojibake text",
]


# Correct text beside what an evidence rule finds, which it must not find.
LEFT_ALONE_BY_THE_RULES = [
    # no-break-space-in-a-number: Latvian in capitals, a macron A before a no-break space
    # between letters; prices as written.
    pytest.param("LATVIJĀ\u00a0RĪGA", id="a-macron-before-a-no-break-space"),
    pytest.param("45\u00a0467,50\u00a0€", id="a-price-as-written"),
    pytest.param("5\u202f000\u00a0CHF", id="a-narrow-no-break-space"),
    # vietnamese-letter-in-a-word: "ášť" is a windows-1250 and ISO-8859-2 sequence too, of
    # U+1E7B, no Vietnamese letter.
    pytest.param("obzvlášť dobrý plášť", id="czech-slovak-ast"),
    pytest.param("Tiếng Việt", id="vietnamese-as-written"),
    # lozenge-led-pairs: lozenges as bullets, in a row, between words.
    pytest.param("◊ Café ◊ Thé", id="lozenges-as-bullets"),
    pytest.param("◊◊◊ fin", id="a-row-of-lozenges"),
    pytest.param("A ◊ B ◊ C", id="lozenges-between-words"),
]


@pytest.mark.parametrize("text", [*LEFT_ALONE, *LEFT_ALONE_BY_THE_RULES])
@pytest.mark.parametrize("legacy", [False, True], ids=["default", "legacy"])
def test_correct_text_is_left_alone(text: str, legacy: bool) -> None:
    report = inspect_text(text, legacy=legacy)
    assert report.repaired is None
    assert report.clean


# --- The evidence rules (badness.RULES): each from its own example -------------------------


# (damaged, repaired, rule): damage an evidence rule alone finds, repaired (pycountry's
# names, alone and beside another source's damage).
REPAIRED_BY_A_RULE = [
    # Vietnamese read as a Central European or Baltic code page: three letters a sequence.
    pytest.param("Tiáşżng Hic-tic", "Tiếng Hic-tic", "vietnamese-letter-in-a-word",
                 id="vietnamese-windows-1250"),
    pytest.param("Tiįŗæng Hic-tic", "Tiếng Hic-tic", "vietnamese-letter-in-a-word",
                 id="vietnamese-windows-1257"),
    # One byte lost in windows-1257 (0xA1 has no character there): repaired around it.
    pytest.param("Tiįŗæng PhĆ\ufffdp", "Tiếng Ph\ufffdp", "vietnamese-letter-in-a-word",
                 id="vietnamese-windows-1257-byte-lost"),
    # Hebrew read as macintosh: every letter a lozenge and a continuation.
    pytest.param("◊ò◊ú◊ï◊í◊ï", "טלוגו", "lozenge-led-pairs", id="hebrew-alone"),
    pytest.param("◊ñ◊ï◊ú◊ï, Poblacht Chamarún", "זולו, Poblacht Chamarún", "lozenge-led-pairs",
                 id="hebrew-beside-irish"),
]  # fmt: skip


@pytest.mark.parametrize(("damaged", "repaired", "rule"), REPAIRED_BY_A_RULE)
def test_a_rule_alone_finds_and_repairs(damaged: str, repaired: str, rule: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.rule) == (repaired, rule)


@pytest.mark.parametrize("rule", RULES, ids=[rule.name for rule in RULES])
def test_evidence_rule_decides_its_example(rule: Rule) -> None:
    before, sequence, after, reading = rule.example
    text = before + sequence + after
    weight, name = weigh_rule(text, len(before), len(before) + len(sequence), reading)
    assert (weight, name) == (DECISIVE, rule.name)


def test_evidence_rule_names_are_unique() -> None:
    names = [rule.name for rule in RULES]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    ("text", "rule", "found_on"),
    [
        pytest.param("CafÃ© crÃ¨me", "case-break", "Ã©", id="case-break"),
        pytest.param("â€œlossy decodingâ€�", "long-sequence", "â€œ", id="long-sequence"),
        pytest.param("Cena:В\u00a031,50 x", "lone-script-letters", "В\u00a0", id="lone-script"),
        # A currency sign before it: the no-break space of a price, read as windows-1251.
        pytest.param(
            "R$В\u00a031,50 x", "no-break-space-in-a-number", "В\u00a0", id="space-in-a-price"
        ),
        pytest.param(
            "Guaran√≠ y español", "math-symbol-inside-a-word", "√≠", id="math-symbol-inside"
        ),
        pytest.param(
            "Sicilieƒçi≈≥, Žaliojo", "florin-sign-inside-a-word", "ƒç", id="florin-sign-inside"
        ),
        pytest.param("ƒåad, Čad", "florin-sign-starts-a-word", "ƒå", id="florin-sign-starts"),
        pytest.param(
            "Кпелле, Уоллес Рё Футана, Узбекистан", "one-letter-word", "Рё", id="one-letter-word"
        ),
        pytest.param(
            "Бисламача, –ê–Ω–¥–æ—Ä—Ä–∞, Берләшкән", "dash-led-pairs", "–ê", id="dash-led-pairs"
        ),
        pytest.param(
            "Rep√Їblica do Peru, Somália",
            "math-symbol-starts-a-word",
            "√Ї",
            id="x-mac-cyrillic-in-a-latin-word",
        ),
    ],
)
def test_a_report_names_the_rule_that_fired(text: str, rule: str, found_on: str) -> None:
    report = inspect_text(text)
    assert (report.rule, report.evidence) == (rule, found_on)
