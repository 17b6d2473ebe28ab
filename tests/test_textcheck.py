"""inspect_text(): field values -> (kind, repaired, lossy), and accuracy on real text.

Damaged values are made in the test the way scrapers make them: the clean text is encoded
with one encoding and decoded with another (browser decoders: windows-1252 keeps 0x81,
0x8D, 0x8F, 0x90 and 0x9D as C1 controls).
"""

from __future__ import annotations

import gc
import logging
import tracemalloc

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from benchmarks._itemdata import (
    Field,
    clean_values,
    legacy_samples,
    utf8_samples,
    windows_1252,
)
from benchmarks._negative import negative_corpus
from fuzz.textcheck import check_text, one_input, to_text
from scrapy_charset import decode
from scrapy_charset.items import _engine, inspection, textcheck
from scrapy_charset.items.mojibake import SAFE_KINDS, legacy, verify
from scrapy_charset.items.mojibake.chardata import WINDOWS_1252_HIGH, encode_windows_1252
from scrapy_charset.items.textcheck import TextReport, inspect_text
from scrapy_charset.whatwg._singlebyte import HIGH_HALVES


def misread(text: str, written: str, read: str) -> str:
    """*text* written in one encoding and read in another (browser windows-1252/-1251)."""
    raw = text.encode(written)
    if read == "windows-1252":
        return windows_1252(raw)
    if read == "windows-1251":
        return decode(raw, "windows-1251")
    return raw.decode(read, "replace")


def twice(text: str) -> str:
    return misread(misread(text, "utf-8", "windows-1252"), "utf-8", "windows-1252")


U8_1252 = "utf8-as-windows-1252"
U8_1251 = "utf8-as-windows-1251"

# (value, kind, repaired, lossy), repairs as the default policy applies them.
CASES = [
    pytest.param(
        misread("Café crème", "utf-8", "windows-1252"),
        U8_1252,
        "Café crème",
        False,
        id="utf8-as-1252-cafe",
    ),
    pytest.param(
        misread("It’s “quoted”", "utf-8", "windows-1252"),
        U8_1252,
        "It’s “quoted”",
        False,
        id="utf8-as-1252-curly-quotes",
    ),
    pytest.param(
        misread("Ærøskøbing", "utf-8", "latin-1"),
        U8_1252,
        "Ærøskøbing",
        False,
        id="utf8-as-latin1-c1-controls",
    ),
    pytest.param(
        misread("Åland", "utf-8", "windows-1252"),
        U8_1252,
        "Åland",
        False,
        id="utf8-as-1252-a-ring-ellipsis",
    ),
    pytest.param(
        misread("Česko", "utf-8", "windows-1252"),
        U8_1252,
        "Česko",
        False,
        id="utf8-as-1252-0x8d-hole",
    ),
    pytest.param(
        misread("Привет, мир", "utf-8", "windows-1252"),
        U8_1252,
        "Привет, мир",
        False,
        id="utf8-cyrillic-as-1252",
    ),
    pytest.param(
        misread("東京都", "utf-8", "windows-1252"), U8_1252, "東京都", False, id="utf8-cjk-as-1252"
    ),
    pytest.param(twice("It’s"), "utf8-double-encoded", "It’s", False, id="double-encoded"),
    pytest.param(
        twice("São Paulo"),
        "utf8-double-encoded",
        "São Paulo",
        False,
        id="double-encoded-portuguese",
    ),
    pytest.param(
        misread("Привет", "utf-8", "windows-1251"),
        "utf8-as-windows-1251",
        "Привет",
        False,
        id="utf8-as-1251",
    ),
    pytest.param(
        misread("Crème brûlée", "utf-8", "windows-1251"),
        "utf8-as-windows-1251",
        "Crème brûlée",
        False,
        id="utf8-latin-as-1251",
    ),
    pytest.param(
        "Café and " + misread("crème", "utf-8", "windows-1252"),
        U8_1252,
        "Café and crème",
        False,
        id="partly-damaged",
    ),
    pytest.param(
        misread("Größe", "utf-8", "windows-1252") + " " + twice("Größe"),
        "utf8-as-windows-1252",
        "Größe Größe",
        False,
        id="once-and-twice",
    ),
    # An emoji as two UTF-8-encoded surrogates (CESU-8: Java's modified UTF-8, MySQL's old
    # "utf8"), read as windows-1252: ftfy's "utf-8-variants" decode undoes it.
    pytest.param(
        windows_1252("Great \ud83d\ude00 day".encode("utf-8", "surrogatepass")),
        U8_1252,
        "Great \U0001f600 day",
        False,
        id="cesu8-emoji-as-1252",
    ),
    # UTF-8 read as Shift_JIS: detected; repaired only on request (see LEGACY_CASES).
    pytest.param(
        misread("Café", "utf-8", "shift_jis"),
        "utf8-as-shift_jis",
        None,
        False,
        id="utf8-as-shift_jis",
    ),
    pytest.param(
        misread("日本語", "utf-8", "cp932"),
        "utf8-as-shift_jis",
        None,
        True,
        id="utf8-as-shift_jis-lossy",
    ),
    # Legacy bytes read as windows-1252: detected, repaired only on request.
    pytest.param(
        misread("中华人民共和国", "gbk", "windows-1252"),
        "legacy-as-windows-1252",
        None,
        False,
        id="gbk-as-1252",
    ),
    pytest.param(
        misread("Россия", "cp1251", "windows-1252"),
        "legacy-as-windows-1252",
        None,
        False,
        id="1251-as-1252",
    ),
    # C1 controls with no latin-1 word: macintosh's "ìquotedî" is as likely (see
    # tests/test_c1_punctuation.py for the ones read by default).
    pytest.param("\x93quoted\x94", "c1-controls", None, False, id="c1-controls"),
    # A lead without the continuation bytes it needs is no UTF-8 sequence: the C1 control
    # after it is windows-1252's (é is a three-byte lead, "é\x85 " no sequence), here
    # with the evidence of the rule c1-punctuation (tests/test_c1_punctuation.py).
    pytest.param(
        "beaucoup parlé\x85 Tu sais",
        "c1-controls",
        "beaucoup parlé… Tu sais",
        False,
        id="c1-punctuation-after-accented-letter",
    ),
    # U+FFFD: lossy, whatever else.
    pytest.param("Caf\ufffd", None, None, True, id="replacement-char"),
    pytest.param(misread("Crème", "utf-8", "ascii"), None, None, True, id="utf8-as-ascii"),
]

# Legitimate text: nothing found, nothing changed.
CONTROLS = [
    pytest.param("NÃO É POSSÍVEL", id="portuguese-capital-a-tilde"),
    pytest.param("MAÇÃ VERDE", id="portuguese-a-tilde-space"),
    pytest.param("Â l'époque, Âge d'or", id="french-a-circumflex"),
    # Its windows-1251 reading is a Cyrillic word ("За") shorter than
    # legacy.MIN_CYRILLIC_WORD: no evidence of a legacy encoding.
    pytest.param("Çà", id="french-two-letters-as-cyrillic"),
    # The same after a guillemet: three bytes above 0x7F in a row, which the Cyrillic
    # readings are tried on; still a word of two letters ("«За y est»").
    pytest.param("«Çà y est»", id="french-two-letters-after-a-guillemet-as-cyrillic"),
    pytest.param("São Tomé e Príncipe", id="portuguese"),
    pytest.param("¥1,200～¥3,400", id="fullwidth-tilde-price-range"),
    pytest.param("価格～100円", id="japanese-price"),
    pytest.param("1\u00a0234,50\u00a0€", id="nbsp-price"),
    pytest.param("R$\u00a012,50", id="nbsp-real"),
    pytest.param("x² + y² ≤ 1, ∑ ±½ °C µm", id="math-and-symbols"),
    pytest.param("Great 😀👍🏽 offer", id="emoji"),
    pytest.param("e\u0301te\u0301 cafe\u0301", id="decomposed-accents"),
    pytest.param("“curly” ‘quotes’ — and … ellipsis", id="curly-quotes"),
    pytest.param("Straße“ zum „Bahnhof“", id="german-sharp-s-then-quote"),
    pytest.param("Süßigkeiten, Größe", id="german-umlaut-sharp-s"),
    pytest.param("Þú, það, Ísland", id="icelandic"),
    pytest.param("Ámárico, Rúpía, Venäjän", id="ascii-between-accents"),
    pytest.param("Сірий, їжак, Євген", id="ukrainian"),
    # Valid windows-1251 pairs by chance: "Сі" is D1 B3, "дії" E4 B3 BF, "В" + NBSP C2 A0.
    pytest.param("креольська (острів Сі)", id="ukrainian-1251-pair"),
    pytest.param("дії", id="ukrainian-1251-triple"),
    pytest.param("В\u00a02020 году", id="russian-preposition-nbsp"),
    # ASCII letters read as Big5/GBK trail bytes give rare characters only.
    pytest.param("Írán, öböl-menti, ógörög", id="hungarian"),
    pytest.param("«Всё», — сказал он", id="russian-with-guillemets"),
    pytest.param("ｶﾀｶﾅ ﾃｽﾄ", id="halfwidth-katakana"),
    pytest.param("意大利, 片假名, 寬扎", id="chinese"),
    pytest.param("대한민국", id="korean"),
    pytest.param("Ελλάδα", id="greek"),
    pytest.param("עברית ועربية", id="hebrew-arabic"),
    pytest.param("plain ASCII", id="ascii"),
    pytest.param("", id="empty"),
]

# With legacy=True: the repairs that choose an encoding.
LEGACY_CASES = [
    pytest.param(
        misread("中华人民共和国", "gbk", "windows-1252"), "中华人民共和国", "GBK", id="gbk"
    ),
    pytest.param(misread("中華民國", "big5", "windows-1252"), "中華民國", "Big5", id="big5"),
    pytest.param(
        misread("日本の価格", "cp932", "windows-1252"), "日本の価格", "Shift_JIS", id="shift_jis"
    ),
    pytest.param(
        misread("ひらがなとカタカナ", "euc_jp", "windows-1252"),
        "ひらがなとカタカナ",
        "EUC-JP",
        id="euc-jp",
    ),
    pytest.param(misread("대한민국", "cp949", "windows-1252"), "대한민국", "EUC-KR", id="euc-kr"),
    pytest.param(
        misread("Привет, мир", "cp1251", "windows-1252"),
        "Привет, мир",
        "windows-1251",
        id="windows-1251",
    ),
    pytest.param(
        misread("Привет, мир", "koi8_r", "windows-1252"), "Привет, мир", "KOI8-U", id="koi8"
    ),
    pytest.param(
        misread("Café", "utf-8", "shift_jis"), "Café", "Shift_JIS", id="utf8-as-shift_jis"
    ),
]


@pytest.mark.parametrize(("value", "kind", "repaired", "lossy"), CASES)
def test_inspect_text(value: str, kind: str | None, repaired: str | None, lossy: bool) -> None:
    report = inspect_text(value)
    assert (report.mojibake, report.repaired, report.lossy) == (kind, repaired, lossy)
    assert report.replacement_chars == value.count("\ufffd")


@pytest.mark.parametrize("value", CONTROLS)
def test_legitimate_text_is_left_alone(value: str) -> None:
    assert inspect_text(value) == TextReport()
    assert inspect_text(value, legacy=True) == TextReport()


#: Correct text that a legacy reading would make letters of (legacy.MIN_SYMBOL_RUN): real
#: lines of Babel's and lxml's change logs.
SYMBOL_RUNS = [
    pytest.param(
        "- added pluralization support for currency names and added a '¤¤¤'",
        id="babel-currency-placeholder-not-koi8",
    ),
    pytest.param(
        "accepted non-decimal numbers like ``²²²`` as integers.", id="lxml-superscripts-not-big5"
    ),
    pytest.param("Rating: •••", id="bullets-not-windows-1251"),
    pytest.param("Wait ··· x ··· y", id="dots-twice"),
    pytest.param("“added a '¤¤¤'”®", id="with-quotes-and-marks-attached"),
]


@pytest.mark.parametrize("value", SYMBOL_RUNS)
def test_a_run_of_one_symbol_has_no_legacy_reading(value: str) -> None:
    assert inspect_text(value) == TextReport()
    assert inspect_text(value, legacy=True) == TextReport()


def test_a_letter_repeated_keeps_its_legacy_reading() -> None:
    # Shift_JIS katakana: every lead byte is 0x83, "ƒ" in windows-1252.
    damaged = misread("アフガニスタン", "cp932", "windows-1252")
    assert set(damaged) - set("AtKjX^“") == {"ƒ"}
    assert inspect_text(damaged, legacy=True).repaired == "アフガニスタン"


@pytest.mark.parametrize(("value", "repaired", "encoding"), LEGACY_CASES)
def test_legacy_repairs_on_request(value: str, repaired: str, encoding: str) -> None:
    assert inspect_text(value).repaired is None
    report = inspect_text(value, legacy=True)
    assert (report.repaired, report.encoding) == (repaired, encoding)


def test_safe_kinds_are_the_reversible_utf8_ones() -> None:
    assert (
        frozenset({U8_1252, "utf8-double-encoded", "utf8-as-windows-1251", "utf8-as-other"})
        == SAFE_KINDS
    )


# --- Real multilingual text (pycountry's catalogues), a small slice of benchmarks/items.py


@pytest.fixture(scope="module")
def fields() -> list[Field]:
    return clean_values(per_language=40, seed=7)


def _rate(hits: int, total: int) -> float:
    return hits / total if total else 0.0


def test_real_text_clean_fields(fields: list[Field]) -> None:
    clean = [f.text for f in fields if not f.text.isascii()]
    reports = [inspect_text(v, legacy=True) for v in clean]
    flagged = [v for v, r in zip(clean, reports, strict=True) if not r.clean]
    changed = [v for v, r in zip(clean, reports, strict=True) if r.repaired is not None]
    assert len(clean) > 1000
    assert _rate(len(flagged), len(clean)) <= 0.0005, flagged
    assert changed == []


def test_real_text_utf8_mojibake(fields: list[Field]) -> None:
    samples = list(utf8_samples(fields))
    reports = [inspect_text(s.damaged) for s in samples]
    flagged = sum(not r.clean for r in reports)
    repairable = [
        (s, r)
        for s, r in zip(samples, reports, strict=True)
        if s.kind in SAFE_KINDS - {"utf8-as-other"} and not s.lossy
    ]
    exact = sum(r.repaired == s.original for s, r in repairable)
    assert len(samples) > 5000
    assert _rate(flagged, len(samples)) >= 0.97
    assert _rate(exact, len(repairable)) >= 0.99


def test_real_text_utf8_read_in_other_single_byte_encodings(fields: list[Field]) -> None:
    """UTF-8 read as macintosh, windows-1250, ISO-8859-2 or windows-1257: a repair is exact
    or says what it left; a segment two readings give, or a repair no likelier than the
    text as given, is reported instead."""
    samples = [s for s in utf8_samples(fields) if s.kind == "utf8-as-other" and not s.lossy]
    reports = [inspect_text(s.damaged) for s in samples]
    exact = sum(r.repaired == s.original for s, r in zip(samples, reports, strict=True))
    wrong = [
        (s.original, r.repaired)
        for s, r in zip(samples, reports, strict=True)
        if r.repaired not in (None, s.original) and not r.partial
    ]
    assert len(samples) > 5000
    assert wrong == []
    assert _rate(exact, len(samples)) >= 0.85
    assert _rate(sum(not r.clean for r in reports), len(samples)) >= 0.97


def test_real_text_legacy_repair(fields: list[Field]) -> None:
    samples = [s for s, _ in legacy_samples(fields)]
    results = [inspect_text(s.damaged, legacy=True).repaired for s in samples]
    exact = sum(r == s.original for r, s in zip(results, samples, strict=True))
    wrong = sum(r is not None and r != s.original for r, s in zip(results, samples, strict=True))
    assert len(samples) > 300
    assert _rate(exact, len(samples)) >= 0.95
    assert _rate(wrong, len(samples)) <= 0.02


# --- Legitimate text that a possible pair once sent to the repair (item-safety issue) --------

# Each is correct text holding a chance-valid UTF-8 sequence in some single-byte reading.
EVIDENCE_CONTROLS = [
    pytest.param("NESTLÉ®", id="capital-then-symbol-in-a-brand"),
    pytest.param("NESTLÉ® NESCAFÉ®", id="two-brands"),
    # Two weak sequences in one token (text nodes joined without a space): still fewer
    # than MIN_WEAK.
    pytest.param("NESTLÉ®NESCAFÉ®", id="two-brands-joined"),
    pytest.param("ВІКІ", id="ukrainian-capitals-1251-pairs"),
    pytest.param("Уряд схвалив дії міністерства; ці дії тривають.", id="ukrainian-sentence"),
    pytest.param("дії, дії", id="ukrainian-1251-triples-twice"),
    pytest.param("«дії»", id="ukrainian-word-end-then-guillemet"),
    pytest.param("ЗМІ, ВНЗ, ТОВ «Рога»", id="ukrainian-abbreviations"),
    pytest.param("В\u00a02020 году", id="russian-preposition-nbsp-digits"),
    pytest.param("l’été, l’école", id="french-apostrophe-as-macintosh-pair"),
    pytest.param("30×40 cm, 1½ in", id="dimensions"),
    pytest.param("1\u00a0234,50\u00a0£", id="price-nbsp-pound"),
    pytest.param("Àhàn", id="yoruba-not-big5"),
]


@pytest.mark.parametrize("value", EVIDENCE_CONTROLS)
def test_legitimate_text_needs_evidence(value: str) -> None:
    assert inspect_text(value) == TextReport()


# Mojibake whose repair the verifier (items/mojibake/verify.py) turns down: (value, the
# check that does).
TURNED_DOWN = [
    # The repair brings in a private-use character the text did not hold (in place of two
    # C1 controls, which the plausibility check weighs the same).
    pytest.param(
        misread("Prix: 5\ue001", "utf-8", "latin-1"), "not-text", id="not-text-private-use"
    ),
]


@pytest.mark.parametrize(("value", "verdict"), TURNED_DOWN)
def test_the_verifier_turns_the_repair_down(value: str, verdict: str) -> None:
    report = inspect_text(value)
    assert (report.mojibake, report.repaired, report.verdict) == (U8_1252, None, verdict)


# Fields joined from two sources, each damaged its own way: the repair undoes one and the
# other still holds a sequence the evidence weighs (weak on its own: a symbol after "Â",
# legacy bytes read as windows-1252). Reported with what remains, not applied.
LEAVES_DAMAGE = [
    pytest.param(
        misread("Kraków", "utf-8", "iso-8859-2") + ", " + misread("¥99", "utf-8", "windows-1252"),
        id="iso-8859-2-name-and-windows-1252-price",
    ),
    pytest.param(
        misread("한국어", "euc-kr", "windows-1252")
        + ", "
        + misread("Réunion", "utf-8", "mac_roman"),
        id="euc-kr-name-and-macintosh-name",
    ),
    # The half-width katakana of UTF-8 read as Shift_JIS are left, the C1 control among them
    # read as windows-1252's ("ﾑ\x80" became "ﾑ€").
    pytest.param(
        misread("Ирак", "utf-8", "windows-1252") + ", " + misread("ньоро", "utf-8", "cp932"),
        id="windows-1252-name-and-shift-jis-name",
    ),
    pytest.param(
        misread("Португалија", "utf-8", "cp932") + ", " + misread("Zürich", "utf-8", "latin-1"),
        id="shift-jis-name-partly-repaired-and-latin-1-name",
    ),
]


@pytest.mark.parametrize("value", LEAVES_DAMAGE)
def test_a_repair_that_leaves_weighed_damage_is_reported(value: str) -> None:
    report = inspect_text(value)
    assert (report.repaired, report.verdict) == (None, "leaves-damage")
    assert report.remaining is not None
    assert not report.clean


# Fields joined from two sources damaged two ways, which one reading decodes whole: in the
# part damaged the other way, that reading gives a word that fails the verifier on its own,
# and the word's one reading that verifies is another encoding's. Reported, not repaired.
ONE_WORD_ANOTHER_READING = [
    # "KambodŞanski" (windows-1250's, a case break) against "Kambodžanski" (ISO-8859-2's).
    pytest.param(
        misread("Kambodžanski rijal", "utf-8", "iso-8859-2")
        + ", "
        + misread("அஓம்", "utf-8", "cp1250"),
        id="iso-8859-2-word-in-a-windows-1250-field",
    ),
]


@pytest.mark.parametrize("value", ONE_WORD_ANOTHER_READING)
def test_a_word_whose_one_verified_reading_is_not_the_repairs(value: str) -> None:
    report = inspect_text(value)
    assert (report.repaired, report.verdict) == (None, "ambiguous")


# (before, after, the words judged): the verifier judges the words a repair changed; what
# both texts start and end with is set aside up to the whitespace nearest the difference.
@pytest.mark.parametrize(
    ("before", "after", "judged"),
    [
        pytest.param("Café crÃ¨me et thé", "Café crème et thé", ("crÃ¨me", "crème"), id="a-word"),
        pytest.param("CafÃ©", "Café", ("CafÃ©", "Café"), id="the-whole-field"),
        pytest.param("x Ã© y Ã¨ z", "x é y è z", ("Ã© y Ã¨", "é y è"), id="two-words-apart"),
        pytest.param("a\tbÃ©\nc", "a\tbé\nc", ("bÃ©", "bé"), id="tab-and-line-break"),
        pytest.param("ÃÃ", "Ã", ("ÃÃ", "Ã"), id="one-character-less"),
    ],
)
def test_the_verifier_judges_the_words_changed(
    before: str, after: str, judged: tuple[str, str]
) -> None:
    assert verify.changed(before, after) == judged


WORDS = st.text(alphabet=" \tabcÃ©é\n", max_size=40)


@given(WORDS, WORDS)
def test_the_words_changed_hold_every_difference(before: str, after: str) -> None:
    """What is set aside is alike on both sides and cut at whitespace (or an end)."""
    assume(before != after)  # the verifier judges equal texts alike without a look
    judged_before, judged_after = verify.changed(before, after)
    cuts = [
        cut
        for cut in range(len(before) + 1)
        if before[:cut] == after[:cut]
        and before[cut:].startswith(judged_before)
        and after[cut:].startswith(judged_after)
        and before[cut + len(judged_before) :] == after[cut + len(judged_after) :]
        and (cut == 0 or before[cut - 1] in " \t\n\r")
    ]
    assert cuts
    end = cuts[0] + len(judged_before)
    assert end == len(before) or before[end] in " \t\n\r"


def test_a_long_field_is_judged_by_its_damaged_words() -> None:
    """A word no alphabet writes, far from the damage, does not turn its repair down."""
    clean = ", ".join(["Mörkö", "Čeština", "Ωmega"] * 200)
    field = f"{clean}, N├╜tt ├¡sraelskt sheqel, {clean}"
    assert inspect_text(field, legacy=True).repaired == field.replace(
        "N├╜tt ├¡sraelskt", "Nýtt ísraelskt"
    )


ONE_SEQUENCE = (
    "a short repair of the fallback's (one or two sequences) that the pair table finds no "
    "likelier than the text as given: reported, not repaired"
)


# Damage that carries the evidence: (value, kind, repaired by default).
EVIDENCE_CASES = [
    pytest.param(
        misread("Le café était très célèbre à Genève", "utf-8", "mac_roman"),
        "utf8-as-other",
        "Le café était très célèbre à Genève",
        id="utf8-as-macintosh",
    ),
    pytest.param(
        misread("Zażółć gęślą jaźń", "utf-8", "cp1250"),
        "utf8-as-other",
        "Zażółć gęślą jaźń",
        id="utf8-as-windows-1250",
    ),
    pytest.param(misread("25°C", "utf-8", "windows-1252"), U8_1252, "25°C", id="degree-ftfy"),
    pytest.param(misread("Česko", "utf-8", "windows-1252"), U8_1252, "Česko", id="capitals"),
    pytest.param(misread("Oğam", "utf-8", "windows-1252"), U8_1252, "Oğam", id="caps-lower"),
    pytest.param(
        misread("Şilini", "utf-8", "windows-1252"),
        U8_1252,
        "Şilini",
        id="odd-pair",
        marks=pytest.mark.xfail(strict=True, reason=ONE_SEQUENCE),
    ),
    pytest.param(
        misread("сво", "utf-8", "windows-1251"), U8_1251, "сво", id="macedonian-with-ukrainian"
    ),
    pytest.param(misread("ва", "utf-8", "windows-1251"), U8_1251, "ва", id="run-with-symbol"),
    pytest.param(misread("Húngaro", "utf-8", "windows-1251"), U8_1251, "Húngaro", id="two-scripts"),
    pytest.param(
        misread("Trung Quốc", "utf-8", "windows-1251"),
        U8_1251,
        "Trung Quốc",
        id="guillemet-also-a-macintosh-lead",
    ),
    pytest.param(
        misread("Østrig", "utf-8", "windows-1251"), U8_1251, "Østrig", id="c1-control-in-1251"
    ),
    # Issue 16's tail: short fields of symbols and digits read as windows-1251.
    pytest.param(
        misread("R$\u00a031,50", "utf-8", "windows-1251"),
        U8_1251,
        "R$\u00a031,50",
        id="price",
        marks=pytest.mark.xfail(strict=True, reason=ONE_SEQUENCE),
    ),
    pytest.param(
        misread("฿87\u00a0784", "utf-8", "windows-1251"), U8_1251, "฿87\u00a0784", id="baht"
    ),
]


@pytest.mark.parametrize(("value", "kind", "repaired"), EVIDENCE_CASES)
def test_damage_with_evidence(value: str, kind: str, repaired: str | None) -> None:
    report = inspect_text(value)
    assert (report.mojibake, report.repaired) == (kind, repaired)


def test_other_single_byte_readings_repaired_with_either_policy() -> None:
    value = misread("Le café était très célèbre à Genève", "utf-8", "mac_roman")
    assert inspect_text(value, legacy=True).repaired == "Le café était très célèbre à Genève"
    assert inspect_text(value).repaired == "Le café était très célèbre à Genève"


# Fields that read both as UTF-8 mojibake and as a legacy encoding: the exact UTF-8 reading
# wins (pycountry's Romanian, Turkish and Vietnamese names; the legacy reading in the id).
BOTH_READINGS = [
    pytest.param("malgașă", id="also-gbk"),
    pytest.param("Hollanda Krallığı", id="also-euc-kr"),
    pytest.param("Đồng Li-lan-ge-ni", id="also-windows-1251"),
]


@pytest.mark.parametrize("original", BOTH_READINGS)
def test_legacy_repair_prefers_exact_utf8(original: str) -> None:
    damaged = misread(original, "utf-8", "windows-1252")
    assert inspect_text(damaged, legacy=True).repaired == original
    assert inspect_text(damaged).repaired == original


# --- Never raise, never lose: the fuzz target's properties under hypothesis ------------------

# Everything a str can hold: lone surrogates, C0 and C1 controls, private use, unassigned.
ANY_TEXT = st.text(st.characters(codec=None, categories=None), max_size=60)
# The alphabets mojibake is made of, mixed with ASCII: windows-1252 and -1251 readings,
# Shift_JIS readings of UTF-8 bytes, C1 controls, U+FFFD.
MOJIBAKE_ALPHABET = st.text(
    st.sampled_from(
        sorted(
            set(WINDOWS_1252_HIGH + HIGH_HALVES["windows-1251"] + "ｱｲｳｴｵﾃｩﾐ･譌譛縺\ufffd")
            | set(map(chr, range(0x80, 0xA0)))
            | set("abc XYZ 019,.-«»")
        )
    ),
    max_size=40,
)
# Real UTF-8 mojibake of arbitrary text, once, twice, or as Shift_JIS.
MADE_MOJIBAKE = st.builds(
    lambda text, how: to_text(bytes([how]) + text.encode("utf-8", "surrogatepass")),
    st.text(max_size=30),
    st.sampled_from([1, 2, 3, 4]),
)


@settings(max_examples=300, deadline=None)
@given(value=ANY_TEXT)
@example(value="\x91Bò")  # a default repair of a guessed kind, on c1-punctuation's evidence
def test_any_text_gives_a_report(value: str) -> None:
    check_text(value)


@settings(max_examples=300, deadline=None)
@given(value=MOJIBAKE_ALPHABET | MADE_MOJIBAKE)
def test_mojibake_alphabets_give_a_report(value: str) -> None:
    check_text(value)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=200))
def test_fuzz_target(data: bytes) -> None:
    one_input(data)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("\u00c2\x92", id="ftfy-plan-ends-on-encode"),
        pytest.param("tur\u00c2\x92stico", id="in-a-word"),
        pytest.param("\ud800Ã©", id="lone-surrogate"),
        pytest.param("Ã©\x00\x1b[0m\u0301\ue000", id="controls-combining-private-use"),
    ],
)
def test_hostile_values(value: str) -> None:
    check_text(value)


def test_internal_error_gives_the_value_back(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(text: str, *args: object, **kwargs: object) -> None:
        raise RuntimeError("bug")

    inspection.clear_kept_reports()  # reports kept by earlier tests would answer
    monkeypatch.setattr(_engine, "find", broken)
    monkeypatch.setattr(textcheck, "_LOGGED", set())
    with caplog.at_level(logging.ERROR, logger=textcheck.__name__):
        assert inspect_text("CafÃ©\ufffd") == TextReport(1, lossy=True)
        assert inspect_text("CafÃ©") == TextReport()
    assert len(caplog.records) == 1  # once per exception type


# --- A flagged value's report is kept -----------------------------------------------------


def _no_inspection(text: str, *args: object, **kwargs: object) -> None:
    raise RuntimeError(f"inspected again: {text!r}")


# (value, policy) asked once, then (value, policy) asked again with the inspection broken ->
# the first report given back (kept), or None (inspected again).
@pytest.mark.parametrize(
    ("first", "then", "kept"),
    [
        pytest.param(("CafÃ© crÃ¨me", False), ("CafÃ© crÃ¨me", False), True, id="same-value"),
        pytest.param(("Caf\ufffd au lait", False), ("Caf\ufffd au lait", False), True, id="u+fffd"),
        pytest.param(("ÖÐ¹ú", False), ("ÖÐ¹ú", True), False, id="other-policy"),
        pytest.param(("CafÃ© crÃ¨me", False), ("CafÃ© crÃ¨mes", False), False, id="other-value"),
        pytest.param(
            ("x" * inspection.KEPT_LENGTH + " CafÃ©", False),
            ("x" * inspection.KEPT_LENGTH + " CafÃ©", False),
            False,
            id="longer-than-kept-length",
        ),
    ],
)
def test_a_flagged_values_report_is_kept(
    first: tuple[str, bool], then: tuple[str, bool], kept: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    inspection.clear_kept_reports()
    report = inspection.inspect_unguarded(first[0], legacy=first[1])
    assert not report.clean
    monkeypatch.setattr(_engine, "find", _no_inspection)
    if kept:
        assert inspection.inspect_unguarded(then[0], legacy=then[1]) is report
    else:
        with pytest.raises(RuntimeError, match="inspected again"):
            inspection.inspect_unguarded(then[0], legacy=then[1])


@pytest.mark.parametrize("value", ["Café crème", "naïve", "東京", "ASCII only"])
def test_clean_values_are_not_kept(value: str) -> None:
    inspection.clear_kept_reports()
    assert inspect_text(value).clean
    assert inspection._kept.cache_info().currsize == 0


def test_kept_reports_are_bounded() -> None:
    inspection.clear_kept_reports()
    for number in range(inspection.KEPT_REPORTS + 10):
        inspect_text(f"CafÃ© n°{number}")
    assert inspection._kept.cache_info().currsize == inspection.KEPT_REPORTS


def test_long_damaged_fields_are_not_kept() -> None:
    """A crawl whose items carry each page's whole text, one damaged name in it: what the
    checks keep of each field must not grow with the fields (each is a new text)."""
    page = ", ".join(f"Crème brûlée n°{number}" for number in range(300))  # 6,000 chars
    damaged = decode("Crème à Zürich".encode(), "windows-1252")

    def field(number: int) -> str:
        return f"{number}: {page} {damaged} {page}"

    inspect_text(field(0))  # the tables built once
    gc.collect()
    tracemalloc.start()
    try:
        for number in range(1, 21):
            assert inspect_text(field(number)).mojibake == "utf8-as-windows-1252"
        gc.collect()
        kept, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept < 20 * len(field(1))  # less than one byte a character of each field


def test_character_tables_are_bounded() -> None:
    """A field that holds a great many characters (a hostile page's text) fills the
    character tables up to their bound and no further, and is still inspected."""
    from scrapy_charset.items import _memo
    from scrapy_charset.items.mojibake import plausible, siblings

    field = "".join(chr(code) for code in range(0x100, 0x100 + 3 * _memo.TABLE_SIZE))
    assert inspect_text(field).repaired is None
    for table in (plausible.CASES, plausible._CLASSES, siblings.NOT_TEXT_ABOVE_ASCII):
        assert len(table) == _memo.TABLE_SIZE


# --- The negative corpus, a slice (benchmarks/items.py runs it whole) ------------------------


def test_negative_corpus_slice_is_left_alone() -> None:
    corpus = negative_corpus(step=40)
    values = [v for source in corpus.values() for v in source]
    assert len(values) > 20_000
    changed = [v for v in values if inspect_text(v).repaired is not None]
    assert changed == []


# --- The legacy readings' pre-filter gives the full readings' answer ------------------------

WINDOWS_1252_TEXT = st.text(
    st.sampled_from(sorted(set(WINDOWS_1252_HIGH) | set("aeiouAEIOU lnrstßé019,.-«»"))),
    max_size=40,
)


def _cyrillic_plausible_somewhere(text: str) -> bool:
    raw = encode_windows_1252(text)
    assert raw is not None
    for _, codec in legacy._CYRILLIC:
        try:
            decoded = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if legacy._plausible_cyrillic(decoded):
            return True
    return False


@pytest.mark.parametrize(
    ("text", "turned_away"),
    [
        pytest.param("Le café était très célèbre", True, id="french"),
        pytest.param("Größe der Straße", True, id="german"),
        pytest.param("Ã¬Ã®Ã±ÃªÃ¢Ã\xa0", False, id="no-ascii-letter"),
        pytest.param("Ìîñêâà è Êèåâ", False, id="windows-1251-read-as-1252"),
        pytest.param("«über»", False, id="u-umlaut-is-a-cp866-symbol"),
    ],
)
def test_cyrillic_prefilter_table(text: str, turned_away: bool) -> None:
    assert bool(legacy._LATIN_WORD.search(text)) is turned_away
    if turned_away:
        assert not _cyrillic_plausible_somewhere(text)


@settings(max_examples=500, deadline=None)
@given(text=WINDOWS_1252_TEXT)
def test_cyrillic_prefilter_never_turns_away_a_plausible_reading(text: str) -> None:
    if legacy._LATIN_WORD.search(text):
        assert not _cyrillic_plausible_somewhere(text)
