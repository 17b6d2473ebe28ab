# ruff: noqa: RUF001, RUF003 (look-alike characters are the data here)
"""Partly damaged fields: each damaged segment found on its own evidence, repaired or
reported, and damage a repair left is never reported clean."""

from __future__ import annotations

import ftfy
import pytest

from scrapy_charset.items.mojibake import MojibakeKind
from scrapy_charset.items.mojibake.badness import scan, utf8_sequences, weigh_rule
from scrapy_charset.items.mojibake.fixes import (
    A0_RULES,
    A0Rule,
    _ftfy_step,
    a0_left,
    byte_a0_rules,
)
from scrapy_charset.items.textcheck import inspect_text
from tests.test_pipeline import make, stats

OTHER = MojibakeKind.UTF8_AS_OTHER

# (damaged, repaired): one phrase damaged, correct accented text around.
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
    assert report.repaired == repaired
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
    pytest.param("SlovenÄ�ina", "Sloven�ina", id="a-lead-then-u-fffd-alone"),
    pytest.param("à¤¹à¤¿à¤¨à¥�à¤¦à¥€", "हिन�दी", id="a-lead-then-u-fffd-among-sequences"),
]


@pytest.mark.parametrize("text", ["Ã� la carte", "CAFÉ�", "Ä�"])
def test_a_lead_then_u_fffd_without_decisive_evidence_is_left(text: str) -> None:
    report = inspect_text(text)
    assert report.repaired is None
    assert (report.replacement_chars, report.lossy) == (1, True)


@pytest.mark.parametrize(("damaged", "repaired"), LOSSY)
def test_lossy_mojibake_keeps_one_replacement_character(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert report.repaired == repaired
    assert report.lossy


# A one-letter word of the field's script, damaged alone (rule "one-letter-word"): a
# windows-1251 pair standing as a word is repaired with the rest of its field.
ONE_LETTER_WORDS = [
    pytest.param(
        "Кпелле, РЈРѕР»Р»РµСЃ Рё Р¤СѓС‚Р°РЅР°, Узбекистан",
        "Кпелле, Уоллес и Футана, Узбекистан",
        id="russian-i",
    ),
    pytest.param(
        "Фінляндыя, Р‘РѕСЃРЅС–СЏ С– Р“РµСЂС†Р°РіР°РІС–РЅР°",
        "Фінляндыя, Боснія і Герцагавіна",
        id="belarusian-i",
    ),
]


@pytest.mark.parametrize(("damaged", "repaired"), ONE_LETTER_WORDS)
def test_a_one_letter_word_is_repaired_with_its_field(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert report.repaired == repaired
    assert not report.partial


# (damaged, repaired, kind left, segments left): damage a repair left, each too weak or
# too far from the rest to be repaired with it, is reported as left.
LEFT_BY_A_REPAIR = [
    # One sequence of a word: a pair of letters of the field's own script inside a word
    # ("С–" is "і" in "імя") is no evidence alone.
    pytest.param("Кпелле, РЈРѕР»Р»РµСЃ С–мя, Узбекистан", "Кпелле, Уоллес С–мя, Узбекистан",
                 MojibakeKind.UTF8_AS_WINDOWS_1251, 1,
                 id="a-pair-of-the-fields-script-inside-a-word"),
    # Two sources, one damaged as UTF-8 read as Shift_JIS, the other another way
    # (pycountry's translations). The Shift_JIS reading is looked for over the whole field,
    # which is not so as a whole: the tokens the repair kept that are so on their own are
    # damage left.
    pytest.param("ÐœÐµÐºÑ\x81Ð¸ÐºÐ¾, Filipﾃｭnskﾃｩ peso", "Мексико, Filipﾃｭnskﾃｩ peso",
                 MojibakeKind.UTF8_AS_SHIFT_JIS, 1, id="shift-jis-beside-cyrillic-read-as-latin-1"),
    pytest.param("atong (ﾃ肱dia), åŒ—é¦¬å…¶é\xa0“å…±å’Œåœ‹", "atong (ﾃ肱dia), 北馬其頓共和國",
                 MojibakeKind.UTF8_AS_SHIFT_JIS, 1,
                 id="shift-jis-beside-chinese-read-as-windows-1252"),
    pytest.param("Panenskﾃｩ ostrovy Spojenﾃｽch, CafÃ© crÃ¨me",
                 "Panenskﾃｩ ostrovy Spojenﾃｽch, Café crème", MojibakeKind.UTF8_AS_SHIFT_JIS, 2,
                 id="shift-jis-two-tokens"),
    # The repair of the other source read the Shift_JIS token's C1 control as
    # windows-1252's "€": the token changed, and its Shift_JIS reading is still not in
    # the repair (pycountry's Armenian "Հոնկոնգ" beside Polish "zł").
    pytest.param("ﾕ\x80ﾕｸﾕｶﾕｯﾕｸﾕｶﾕ｣, 41Â\xa0361,50Â\xa0zÅ\x82",
                 "ﾕ€ﾕｸﾕｶﾕｯﾕｸﾕｶﾕ｣, 41\xa0361,50\xa0zł", MojibakeKind.UTF8_AS_SHIFT_JIS, 1,
                 id="shift-jis-token-changed-by-the-repair"),
    # A token whose repair read some sequences in one reading and left another of the same
    # reading, too weak alone ("ÂĄ" is "¥" read as windows-1250): the token was partly
    # read, and what is left is damage left (two sources, pycountry's).
    pytest.param("ÂĄ10Â\xa0545ď˝ž10Â\xa05450ĺ…\x83, áƒ™áƒ\x90áƒ\xa0áƒ˜áƒ£áƒšáƒ˜",
                 "ÂĄ10\xa0545～10\xa05450元, კარიული", MojibakeKind.UTF8_AS_OTHER, 1,
                 id="yen-read-as-windows-1250-partly-read"),
]  # fmt: skip


@pytest.mark.parametrize(("damaged", "repaired", "kind", "left"), LEFT_BY_A_REPAIR)
def test_damage_a_repair_left_is_reported_as_left(
    damaged: str, repaired: str, kind: MojibakeKind, left: int
) -> None:
    report = inspect_text(damaged)
    assert report.repaired == repaired
    assert report.partial
    assert report.remaining == kind
    assert report.remaining_segments == left


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("ｿﾆｰ, CafÃ©", id="half-width-brand-mostly-not-utf8"),
        pytest.param("ｱｲｳ, CafÃ©", id="half-width-kana-no-lead"),
    ],
)
def test_half_width_katakana_that_is_no_utf8_is_not_left(text: str) -> None:
    report = inspect_text(text)
    assert report.repaired is not None
    assert report.remaining is None


@pytest.mark.parametrize(
    "repaired",
    [
        pytest.param("Кпелле, Уоллес Рё Футана, Узбекистан", id="a-one-letter-word-i"),
        pytest.param("Фінляндыя, Боснія С– Герцагавіна", id="a-one-letter-word-belarusian-i"),
        pytest.param(
            "Кпелле, Уоллес С–мя, Узбекистан",
            marks=pytest.mark.xfail(
                strict=True,
                reason="a pair of letters of the field's own script inside a word (С– is "
                "і) is no evidence alone: correct text has such pairs (Её, Рёбра, А–Я)",
            ),
            id="a-pair-of-the-fields-script-inside-a-word",
        ),
        pytest.param("Фінляндыя, Боснія Ñ– Герцагавіна", id="latin-in-a-cyrillic-field"),
        pytest.param(
            "رموز مخصصة للمعاملات التي لا تتضمن ŘŁŮŠŘ© عملة", id="latin-in-an-arabic-field"
        ),
    ],
)
def test_damage_left_is_found_again_alone(repaired: str) -> None:
    assert not inspect_text(repaired).clean


def test_latin_letters_of_a_field_of_another_script_are_evidence() -> None:
    report = inspect_text("Фінляндыя, Боснія Ñ– Герцагавіна")
    assert (report.mojibake, report.rule, report.evidence) == (
        MojibakeKind.UTF8_AS_WINDOWS_1252,
        "lone-latin-letters",
        "Ñ–",
    )
    assert report.repaired is None  # reported: the token step weighs the token alone


# (text, rule, evidence): decisive evidence, and a reading that undoes the whole field
# exactly into text no less plausible than it (the repairs turn it down as no likelier):
# reported, not repaired. Damaged names of pycountry's translations.
AS_PLAUSIBLE_WHOLE = [
    # "GüneyDoğu" as macintosh: the case break "yD" is in the repair and in the text.
    pytest.param("Ijo, G√ºneyDoƒüu", "math-symbol-inside-a-word", "√º", id="macintosh-camel-case"),
    pytest.param("Gbaya, KuzeyBatƒ±", "florin-sign-inside-a-word", "ƒ±", id="macintosh-florin"),
    pytest.param(
        "KИЏd za nepisane dokumente",
        "capitals-then-lowercase",
        "ИЏ",
        marks=pytest.mark.xfail(
            strict=True,
            reason="Croatian 'Kȏd' (ISO 15924) read as windows-1251: its 'ȏ' (an accent of "
            "dictionaries) is in no alphabet of CLDR, and a whole repair that brings in such "
            "a letter is not reported, as ftfy's correct 'pra lá´´' would be 'pra lᴴ'",
        ),
        id="windows-1251-brings-in-an-unattested-letter",
    ),
]


@pytest.mark.parametrize(("text", "rule", "evidence"), AS_PLAUSIBLE_WHOLE)
def test_decisive_evidence_with_an_as_plausible_whole_repair_is_reported(
    text: str, rule: str, evidence: str
) -> None:
    report = inspect_text(text)
    assert (report.repaired, report.rule, report.evidence, report.fixer) == (
        None,
        rule,
        evidence,
        "utf8-unrepaired",
    )


@pytest.mark.parametrize(
    "text",
    [
        # Decisive sequences that no reading undoes whole: correct text.
        pytest.param("ООД’s", id="cyrillic-possessive"),
        pytest.param("«Ильин»®", id="cyrillic-quoted-registered"),
        # Undone whole, into a letter no alphabet uses: ftfy's correct "lá´´" is "lᴴ".
        pytest.param(
            "``hogwarts nao existe, voce nao vai pegar o trem pra lá´´", id="ftfy-negative-la"
        ),
    ],
)
def test_decisive_evidence_without_a_plausible_whole_repair_is_left_alone(text: str) -> None:
    assert inspect_text(text).clean


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Фінляндыя, Боснія Ñ– Герцагавіна, Ñandú", id="an-ascii-letter-elsewhere"),
        pytest.param("Фінляндыя, Ñ– ÅÄÖ", id="a-latin-word-elsewhere"),
    ],
)
def test_a_latin_word_in_a_field_keeps_its_accents(text: str) -> None:
    assert inspect_text(text).rule != "lone-latin-letters"


# Correct words in capitals that end with a UTF-8 lead's character before a space, next to
# damage: ftfy's segment step reads the lead and the space as a no-break space's sequence.
CAPITAL_WORDS = [
    pytest.param("IRMÃ E IRMÃO CafÃ©", "IRMÃ E IRMÃO Café", id="portuguese-irma"),
    pytest.param(
        "SÃO TOMÉ E PRÍNCIPE, MAÇÃ VERDE, CafÃ©",
        "SÃO TOMÉ E PRÍNCIPE, MAÇÃ VERDE, Café",
        id="portuguese-maca",
    ),
]


@pytest.mark.parametrize(("damaged", "repaired"), CAPITAL_WORDS)
def test_a_word_in_capitals_next_to_damage_is_kept(damaged: str, repaired: str) -> None:
    assert inspect_text(damaged).repaired == repaired


# --- Weak sequences only: the pair table decides -------------------------------------------
#
# A field whose only sequences are weak (a symbol among their continuation characters) is
# repaired when a sequence's UTF-8 character is a symbol that the pair table finds 9
# likelier than the sequence as given (badness rule ``pairs-far-likelier``); otherwise it
# is left as given, and reported when it is no less plausible than its repair.

#: Correct text of a weak shape, written by others: CLDR's names in capitals with a sign
#: attached (Yoruba, Welsh, Portuguese "Irã" and "Omã", Inari Sami), the possessive after
#: an accented capital, and ftfy 6.3.1's must-leave-alone cases.
LEFT_AS_GIVEN = [
    pytest.param("DIRHÀM ÈMÌRÂ®", id="cldr-yoruba-registered"),
    pytest.param("DIRHÀM ÈMÌRÂ™", id="cldr-yoruba-trade-mark"),
    pytest.param("“DIRHÀM ÈMÌRÂ”", id="cldr-yoruba-quoted"),
    pytest.param("„DIRHÀM ÈMÌRÂ“", id="cldr-yoruba-low-quotes"),
    pytest.param("GWLAD YR IÂ®", id="cldr-welsh-registered"),
    pytest.param("IRÃ™", id="cldr-portuguese-ira-trade-mark"),
    pytest.param("OMÃ™", id="cldr-portuguese-oma-trade-mark"),
    pytest.param("NUORTTÂRIIJKÂ™", id="cldr-inari-sami-trade-mark"),
    pytest.param("IRÂ®", id="cldr-lingala-registered"),
    pytest.param("BEYONCÉ’s", id="possessive-beyonce"),
    pytest.param("ZOË’s", id="possessive-zoe"),
    pytest.param("AÇAÍ’s", id="possessive-acai"),
    pytest.param("NESTLÉ®", id="registered-after-accented-capital"),
    pytest.param(
        "Join ZZAJÉ’s Official Fan List and receive news, events, and more!", id="ftfy-zzaje"
    ),
    pytest.param("``hogwarts nao existe, voce nao vai pegar o trem pra lá´´", id="ftfy-acute"),
    pytest.param("There are a lot of Ã’s in mojibake text", id="ftfy-a-tilde-possessive"),
]


@pytest.mark.parametrize("text", LEFT_AS_GIVEN)
@pytest.mark.parametrize("legacy", [False, True], ids=["default", "legacy"])
def test_correct_text_of_a_weak_shape_is_left_as_given(text: str, legacy: bool) -> None:
    report = inspect_text(text, legacy=legacy)
    assert report.repaired is None
    rules = {weigh_rule(text, start, end, name)[1] for name, start, end in utf8_sequences(text)}
    assert "pairs-far-likelier" not in rules


# (damaged, repaired): weak sequences only, whose repair is a symbol the pair table finds
# far likelier.
WEAK_REPAIRED = [
    pytest.param("âœ” No problems", "✔ No problems", id="ftfy-checkmark"),
    pytest.param("Max. 25Â°C", "Max. 25°C", id="degree-sign"),
]


@pytest.mark.parametrize(("damaged", "repaired"), WEAK_REPAIRED)
def test_weak_damage_the_pair_table_decides_is_repaired(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.rule) == (repaired, "pairs-far-likelier")


# --- Damage left in a long field: found the same way, in linear time ---------------------
#
# Past 2,000 tokens the repair's tokens pair up by position (inspection._MAX_ALIGNED_TOKENS),
# not through difflib, whose alignment is quadratic at worst: the report must not change.

_LEFT = "Кпелле, РЈРѕР»Р»РµСЃ С–мя, Узбекистан"


@pytest.mark.parametrize(
    "filler",
    [
        pytest.param(" слово" * 10, id="short"),
        pytest.param(" слово" * 2500, id="past-the-aligned-tokens"),
        pytest.param(" CafÃ©" * 2500, id="long-and-damaged-around"),
    ],
)
def test_damage_left_in_a_long_field(filler: str) -> None:
    report = inspect_text(_LEFT + filler)
    assert report.repaired is not None
    assert report.repaired.startswith("Кпелле, Уоллес С–мя, Узбекистан")
    assert (report.remaining, report.remaining_segments) == (
        MojibakeKind.UTF8_AS_WINDOWS_1251,
        1,
    )


@pytest.mark.parametrize(
    ("text", "left"),
    [
        # More sequences than the lookups of distinct ones (64), in a field short enough to
        # align: the pairs of characters they hold decide.
        pytest.param("CafÃ© crÃ¨me, Ã€ bientÃ´t, Ã‰tÃ© " * 12, 0, id="all-repaired"),
        pytest.param("CafÃ© crÃ¨me, Ã€ bientÃ´t, Ã‰tÃ© " * 12 + _LEFT, 1, id="one-left"),
    ],
)
def test_damage_left_among_many_sequences(text: str, left: int) -> None:
    report = inspect_text(text)
    assert report.repaired is not None
    assert report.remaining_segments == left


def test_an_a0_attempt_that_restores_nothing_asks_ftfy_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ftfy's plan with restore_byte_a0 that restores no byte A0 is its plan without it.
    text = "CafÃ© crÃ¨me é fin"
    calls: list[str] = []
    explain = ftfy.fix_encoding_and_explain

    def counted(value: str, config: ftfy.TextFixerConfig) -> ftfy.ExplainedText:
        calls.append(value)
        return explain(value, config=config)

    monkeypatch.setattr(ftfy, "fix_encoding_and_explain", counted)
    step = _ftfy_step(text, a0=True)
    assert step is not None
    # (ftfy's segment step asks it again for each segment: those calls are not counted.)
    assert (step[0], calls.count(text)) == ("Café crème é fin", 1)


#: (text, repaired by default or None, kind of the damage left): C1 controls that ftfy's
#: segment step reads as windows-1252 in a token where it decoded no UTF-8 sequence keep
#: their bytes, unless a UTF-8 sequence of the field holds a C1 control (UTF-8 read as
#: latin-1, whose other C1 controls are windows-1252 bytes the same decode read).
C1_IN_SEGMENTS = [
    # Bytes of x-mac-cyrillic ("Летонија") read as latin-1, after correct text: not "‹åò".
    pytest.param("Café \x8båòîíèÀà", None, None, id="c1-only-token-beside-correct-text"),
    pytest.param(
        "CafÃ© crÃ¨me, SÃ£o Paulo \x8båòîíèÀà",
        "Café crème, São Paulo \x8båòîíèÀà",
        "c1-controls",
        id="c1-only-token-kept",
    ),
    # With less UTF-8 damage around them, the field's bytes read whole as x-mac-cyrillic
    # ("Caf√© Летонија") are about as likely as the repair: reported, not repaired.
    pytest.param("CafÃ© \x8båòîíèÀà", None, None, id="whole-field-reading-competes"),
    # ftfy's own case: "â\x80\x9c" is UTF-8 read as latin-1, and "\x94" its closing quote.
    pytest.param(
        "ok â\x80\x9csenza modifiche\x94 all'Italicum.",
        "ok “senza modifiche” all'Italicum.",
        None,
        id="c1-after-a-latin-1-sequence",
    ),
]


@pytest.mark.parametrize(("text", "repaired", "remaining"), C1_IN_SEGMENTS)
def test_c1_controls_ftfys_segment_step_reads_alone_are_kept(
    text: str, repaired: str | None, remaining: str | None
) -> None:
    report = inspect_text(text)
    assert (report.repaired, report.remaining) == (repaired, remaining)
    assert report.mojibake is not None


# --- A no-break space that became a space (fixes.A0_RULES) -------------------------------


@pytest.mark.parametrize("rule", A0_RULES, ids=[rule.name for rule in A0_RULES])
def test_an_a0_rule_decides_its_example(rule: A0Rule) -> None:
    damaged, repaired = rule.example
    assert rule.name in byte_a0_rules(damaged)
    report = inspect_text(damaged)
    assert (report.repaired, report.rule) == (repaired, rule.name)


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # ftfy's Latvian and Lithuanian cases (UTF-8 read as windows-1257): "Š" (C5 A0)
        # lost its no-break space; "Å" is a letter of neither language, "Š" of both.
        pytest.param(
            "Å veices baÅ†Ä·ieri gaida konkrÄ“tus investÄ«ciju projektus",
            "Šveices baņķieri gaida konkrētus investīciju projektus",
            id="latvian-sveices",
        ),
        pytest.param(
            "Å iaip ÄÆdomu, kaip ÄÆsivaizduoji. VisÅ³ pirma tam reikia laiko.",
            "Šiaip įdomu, kaip įsivaizduoji. Visų pirma tam reikia laiko.",
            id="lithuanian-siaip",
        ),
        # The same with one more layer (UTF-8 read as latin-1 again).
        pytest.param(
            "Å veices baÅ†Ä·ieri gaida".encode().decode("latin-1"),
            "Šveices baņķieri gaida",
            id="latvian-sveices-double",
        ),
    ],
)
def test_a_lone_lead_that_fits_the_field_better_is_restored(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.rule) == (repaired, "a0-lone-lead-fits-the-field")
    assert report.remaining is None
    assert inspect_text(repaired).clean


def test_every_restored_space_needs_an_a0_rule() -> None:
    # "Å veices" (Šveices) is a one-letter word as far as the rules tell: ftfy would
    # restore both spaces, so neither is restored.
    text = "Å veices e atenÃ§Ã£o Ã s crianÃ§as"
    assert byte_a0_rules(text) == ()
    report = inspect_text(text)
    assert report.repaired is not None
    assert report.repaired.startswith("Å veices")
    assert report.rule not in {rule.name for rule in A0_RULES}


def test_the_a0_rules_have_distinct_names() -> None:
    names = [rule.name for rule in A0_RULES]
    assert len(set(names)) == len(names)


# Correct text with a lead character before a space (CLDR's names in capitals, one-letter
# words): no A0 rule decides it, alone or next to a damaged segment.
A0_KEPT = [
    pytest.param("IRMÃ E IRMÃO", id="portuguese-irma"),
    pytest.param("SÃO TOMÉ E PRÍNCIPE, MAÇÃ VERDE", id="portuguese-maca"),
    pytest.param("RIGGIUNI DÂ MICRUNESIA", id="corsican-micronesia"),
    pytest.param("GWLAD YR IÂ", id="welsh-iceland"),
    pytest.param("GWLAD YR IÂ A NORWY", id="welsh-iceland-mid-field"),
    pytest.param("“PÔNDO TÎ KÂMITÂ”", id="sango-in-quotes"),
    pytest.param("Å är ett ortnamn", id="swedish-one-letter-word"),
]


@pytest.mark.parametrize("text", A0_KEPT)
def test_a_lead_before_a_space_in_correct_text_is_kept(text: str) -> None:
    assert byte_a0_rules(text) == ()
    assert inspect_text(text).clean
    report = inspect_text(text + ", CafÃ© crÃ¨me")
    assert report.repaired == text + ", Café crème"
    assert a0_left(report.repaired) == 0


@pytest.mark.parametrize("text", A0_KEPT)
def test_a_lead_before_a_space_is_kept_after_damage(text: str) -> None:
    report = inspect_text("CafÃ© crÃ¨me: " + text)
    assert report.repaired == "Café crème: " + text
    assert a0_left(report.repaired) == 0


@pytest.mark.parametrize(
    ("damaged", "repaired", "left"),
    [
        # ftfy's Latvian case with its last words correct: "Š" (C5 A0) lost its no-break
        # space, and the lead "Å" alone is no letter of the field's alphabet; the field
        # is repaired segment by segment, where no A0 rule restores a space.
        pytest.param(
            "Å veices baÅ†Ä·ieri gaida konkrētus investīciju",
            "Å veices baņķieri gaida konkrētus investīciju",
            1,
            id="latvian-sveices-partly-damaged",
        ),
        # A one-letter word of the field's own language is no damage left.
        pytest.param("Í gÃ¦r fÃ³r hann", "Í gær fór hann", 0, id="icelandic-i"),
        pytest.param("Ô tÃ´ Ä‘iá»‡n", "Ô tô điện", 0, id="vietnamese-o"),
        pytest.param(
            "Å är en älv i SkellefteÃ¥ kommun", "Å är en älv i Skellefteå kommun", 0, id="swedish-a"
        ),
    ],
)
def test_a_lone_lead_a_repair_left_is_damage_left(damaged: str, repaired: str, left: int) -> None:
    assert a0_left(repaired) == left
    report = inspect_text(damaged)
    assert report.repaired == repaired
    assert report.remaining_segments == left


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # ftfy's segment step decodes with its own defaults, which read a lead and a space
        # as a no-break space's sequence: a one-letter word before a damaged word is kept.
        pytest.param("Å Ã¤r ett Ã¥namn", "Å är ett ånamn", id="swedish-a-before-damage"),
        pytest.param("Ö Ã¤r en Ã¶", "Ö är en ö", id="swedish-o-before-damage"),
        pytest.param("È cosÃ¬ bello", "È così bello", id="italian-e-before-damage"),
        pytest.param("É verdade, nÃ£o", "É verdade, não", id="portuguese-e-before-damage"),
        # A lead alone that is no word is a lost no-break space (ftfy's Russian case).
        pytest.param("Ð ÑƒÑ\ufffdÑ\ufffdÐºÐ¸Ð¹", "Ру\ufffd\ufffdкий", id="russian-er-restored"),
    ],
)
def test_a_one_letter_word_before_damage_keeps_its_space(damaged: str, repaired: str) -> None:
    assert inspect_text(damaged).repaired == repaired


# --- A lost no-break space alone (badness.Marks.lost_a0) ------------------------------------

# (damaged, repaired): "Ã" or "Â" then a space right after a lowercase letter, the field's
# only damage: ftfy's synthetic cases, and "à" and a no-break space in real French.
LOST_A0_REPAIRED = [
    pytest.param("voilÃ le travail", "voilà le travail", id="ftfy-a-grave-absorbs-a-space"),
    pytest.param("voilÃ  le travail", "voilà le travail", id="ftfy-a-grave-space-for-a0"),
    pytest.param("c'est lÃ  qu'il faut", "c'est là qu'il faut", id="french-la"),
    pytest.param("quelque choseÂ partout", "quelque chose\u00a0partout", id="no-break-space"),
    # With one more layer (UTF-8 read as latin-1 again): the layer with no evidence of
    # its own is undone by the same rule.
    pytest.param(
        "voilÃ  le travail".encode().decode("latin-1"), "voilà le travail", id="two-layers"
    ),
]


@pytest.mark.parametrize(("damaged", "repaired"), LOST_A0_REPAIRED)
def test_a_lost_no_break_space_alone_is_repaired(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.rule) == (repaired, "a0-after-lowercase")
    assert report.remaining is None
    assert inspect_text(repaired).clean


# Text with correct accented words around it is read by ftfy segment by segment, where no
# A0 rule decides a space: the damage is reported, not repaired, and never called clean.
@pytest.mark.parametrize(
    "damaged",
    [
        pytest.param("déjà voilÃ le travail", id="after-correct-french"),
        pytest.param("amanhÃ  de manhã", id="before-correct-portuguese"),
    ],
)
def test_a_lost_no_break_space_next_to_correct_text_is_reported(damaged: str) -> None:
    report = inspect_text(damaged)
    assert report.repaired is None
    assert (report.mojibake, report.rule, report.evidence) == (
        "utf8-as-windows-1252",
        "a0-after-lowercase",
        "Ã",
    )


# Correct text with a lead and a space that is not after a lowercase letter: no mark.
@pytest.mark.parametrize(
    "text",
    [
        pytest.param("IRMÃ E IRMÃO", id="portuguese-capitals"),
        pytest.param("RIGGIUNI DÂ MICRUNESIA", id="corsican-capitals"),
        pytest.param("Ã bientôt", id="lead-alone"),
        pytest.param("voilÃ", id="at-the-end"),
        pytest.param("São Tomé", id="lowercase-a-tilde"),
    ],
)
def test_no_lost_no_break_space_mark_in_correct_text(text: str) -> None:
    assert not scan(text).lost_a0
    assert inspect_text(text).repaired is None


# A UTF-8 layer over text that held C1 controls: the controls it gives back were in the
# text as given (each the continuation byte of its sequence), so they do not count against
# the layer; what is left is reported as C1 controls.
@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # ftfy's negative "don't leak our internal use of byte 0x1A", with its extra layer.
        pytest.param(
            "These control characters \x1a are apparently intentional Â\x81",
            "These control characters \x1a are apparently intentional \x81",
            id="ftfy-sub-character-extra-layer",
        ),
        pytest.param("intentional Â\x81 cafÃ©", "intentional \x81 café", id="with-a-word"),
    ],
)
def test_a_layer_that_gives_back_c1_controls_is_undone(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert (report.repaired, report.remaining) == (repaired, "c1-controls")
