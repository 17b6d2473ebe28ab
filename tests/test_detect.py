"""Detection for undeclared, non-UTF-8 bodies (HTML Standard 13.2.3.2, autodetection step).

Real text from pycountry's translation catalogues (:mod:`tests.corpus`), encoded in the
test; the backends are the installed libraries, and fakes where a test needs control.
"""

from __future__ import annotations

import codecs
import json
import logging
import math
import re
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset._log import Once
from scrapy_charset.responses.decision import Confidence, Source
from scrapy_charset.sniffing import sniff
from scrapy_charset.sniffing.detect import (
    DEFAULT_BACKEND,
    DEFAULT_WINDOW,
    Detected,
    WebDetector,
    get_detector,
    latin9_letters,
)
from scrapy_charset.sniffing.detectors import (
    BACKENDS,
    LEGACY_ENCODINGS,
    answer_encoding,
    country_letters,
    differing_words,
    foreign_letters,
    implausibility,
    make_backend,
)
from scrapy_charset.sniffing.text import detection_window, first_non_ascii, strip_markup
from scrapy_charset.sniffing.tld import TLD_PRIORS, prior, tld_of
from scrapy_charset.sniffing.utf8 import (
    CHANCE,
    LIKELIHOOD,
    RATIO,
    Utf8Evidence,
    is_utf8,
    mostly_utf8,
    utf8_evidence,
)
from scrapy_charset.whatwg.codecs import decode
from scrapy_charset.whatwg.labels import ENCODING_NAMES
from tests import corpus
from tests.spec import script

needs_catalogues = pytest.mark.skipif(
    not corpus.have_catalogues(), reason="pycountry's translation catalogues are not installed"
)


class FakeBackend:
    """A backend that answers a fixed ranking and records what it was given."""

    def __init__(self, ranking: Sequence[tuple[str, float | None]], uses_tld: bool = False) -> None:
        self.name = "fake"
        self.uses_tld = uses_tld
        self.ranking = list(ranking)
        self.seen: list[tuple[bytes, str | None]] = []

    def rank(self, text: bytes, tld: str | None) -> Sequence[tuple[str, float | None]]:
        self.seen.append((text, tld))
        return self.ranking


# --- Mostly UTF-8 stays UTF-8 -----------------------------------------------------------


def _mixed(valid: int, invalid: int) -> bytes:
    """*valid* UTF-8 "é" and *invalid* stray windows-1252 bytes, in French-like text."""
    words = ["caf\u00e9"] * valid + ["na\udcefve"] * invalid
    out = " ".join(words).encode("utf-8", "surrogateescape")
    return b"<p>" + out + b"</p>"


@pytest.mark.parametrize(
    ("valid", "invalid", "mostly"),
    [
        # The documented values (sniffing/utf8.py): four valid sequences per error, and
        # too many to be chance (likelihood at most 0.01).
        pytest.param(4, 1, True, id="four-valid-one-error"),
        pytest.param(3, 1, False, id="three-valid-one-error"),
        pytest.param(8, 1, True, id="eight-valid-one-error"),
        pytest.param(12, 3, True, id="ratio-exactly"),
        pytest.param(11, 3, False, id="ratio-just-below"),
        pytest.param(500, 10, True, id="stray-bytes-in-a-long-page"),
        pytest.param(0, 5, False, id="legacy-only"),
    ],
)
def test_mostly_utf8_boundary(valid: int, invalid: int, mostly: bool) -> None:
    body = _mixed(valid, invalid)
    assert utf8_evidence(body).valid == valid
    assert utf8_evidence(body).invalid == invalid
    assert (mostly_utf8(body) is not None) is mostly
    decision = sniff(body, "text/html", detector=None)  # below the rule, the default decides
    if mostly:
        assert (decision.encoding, decision.source) == ("UTF-8", Source.UTF8)
        assert decision.as_dict()["detector"] == {
            "name": "mostly-utf-8",
            "score": round(valid / (valid + invalid), 4),
            "valid": valid,
            "invalid": invalid,
        }
        # Decoded as a browser would: one U+FFFD per invalid sequence, nothing else lost.
        assert decode(body, decision.encoding).count("\ufffd") == invalid
    else:
        assert decision.source is Source.DEFAULT


def test_rule_figures_are_the_documented_ones() -> None:
    # docs/detection.md and sniffing/utf8.py state these figures.
    assert CHANCE == {2: 0.18, 3: 0.14, 4: 0.011}
    assert (LIKELIHOOD, RATIO) == (0.01, 4)


@pytest.mark.parametrize(
    ("evidence", "likelihood"),
    [
        # C(V + E, V) x the chance of each valid sequence (two bytes 0.18, three 0.14,
        # four 0.011).
        pytest.param(Utf8Evidence(4, 1), 5 * 0.18**4, id="four-two-byte"),
        pytest.param(Utf8Evidence(4, 1, three=2), 5 * 0.18**2 * 0.14**2, id="issue-example"),
        pytest.param(Utf8Evidence(4, 1, three=2, four=1), 5 * 0.18 * 0.14**2 * 0.011, id="four"),
        pytest.param(Utf8Evidence(3, 1), 4 * 0.18**3, id="three-two-byte"),
        pytest.param(Utf8Evidence(8, 2), 45 * 0.18**8, id="eight-two-errors"),
        pytest.param(Utf8Evidence(1, 9), 1.0, id="capped-at-one"),
    ],
)
def test_likelihood(evidence: Utf8Evidence, likelihood: float) -> None:
    assert evidence.likelihood == pytest.approx(likelihood)


@pytest.mark.parametrize(
    ("text", "valid", "three", "four"),
    [
        pytest.param("caf\u00e9", 1, 0, 0, id="two-byte"),
        pytest.param("10 \u20ac \u2014", 2, 2, 0, id="three-byte"),
        pytest.param("\U0001f600 \ufffd", 2, 1, 1, id="astral-and-written-replacement"),
    ],
)
def test_sequence_lengths_are_counted(text: str, valid: int, three: int, four: int) -> None:
    evidence = utf8_evidence(text.encode() + b" \xe9 ")
    assert (evidence.valid, evidence.invalid, evidence.three, evidence.four) == (
        valid,
        1,
        three,
        four,
    )


def test_chance_bounds_real_legacy_text() -> None:
    # scripts/utf8_chance.py measures the rates on the corpus; CHANCE bounds them.
    chance_rates = script("utf8_chance").chance_rates
    if not corpus.have_catalogues():
        pytest.skip("pycountry's translation catalogues are not installed")
    rates = chance_rates()
    assert len(rates) >= 30
    for length in (2, 3, 4):
        highest = max(rate[length] for rate in rates.values())
        # The highest rate, rounded up to two significant digits.
        step = 10 ** (math.floor(math.log10(highest)) - 1)
        assert CHANCE[length] == pytest.approx(math.ceil(highest / step) * step), length


def test_valid_utf8_names_no_rule() -> None:
    decision = sniff("caf\u00e9 na\u00efve".encode(), "text/html")
    assert decision.source is Source.UTF8
    assert decision.detector is None
    assert "detector" not in decision.as_dict()


@needs_catalogues
@pytest.mark.parametrize("page", corpus.small_table(), ids=lambda page: page.id)
def test_legacy_text_is_not_mostly_utf8(page: corpus.Page) -> None:
    assert mostly_utf8(page.body) is None


# --- A bad byte anywhere in a UTF-8 body: the whole body's evidence counts ---------------

# Real text: Russian and Japanese translated names (pycountry), or a fixed sentence pair
# when the catalogues are not installed.
_HEAD_ASCII = b"<!DOCTYPE html><html><head><title>x</title></head><body>\n" + b"<!-- -->" * 100


def _boundary(body: bytes, position: int) -> int:
    """*position*, moved back to the start of the UTF-8 character it falls in."""
    while 0 < position < len(body) and 0x80 <= body[position] < 0xC0:
        position -= 1
    return position


def _utf8_text() -> bytes:
    names = corpus.messages("ru")[:200] + corpus.messages("ja")[:200]
    if not names:
        names = ("Съешь же ещё этих мягких французских булок", "日本語の文章です")
    return ("<p>" + "</p>\n<p>".join(names) + "</p>\n").encode("utf-8")


def _utf8_body(size: int) -> bytes:
    text = _utf8_text()
    body = _HEAD_ASCII + text * (size // len(text) + 1)
    return body[: _boundary(body, size)]


_WINDOW_START = len(_HEAD_ASCII) + 3  # the first non-ASCII byte: after "<p>"

#: Where the bad byte goes, relative to the detection window (which starts at the first
#: non-ASCII byte and is DEFAULT_WINDOW bytes long).
_POSITIONS: dict[str, object] = {
    "in-the-ascii-head": 10,
    "first-non-ascii": _WINDOW_START,
    "inside-the-window": _WINDOW_START + DEFAULT_WINDOW // 2,
    "last-byte-of-the-window": _WINDOW_START + DEFAULT_WINDOW - 1,
    "first-byte-after-the-window": _WINDOW_START + DEFAULT_WINDOW,
    "just-after-the-window": _WINDOW_START + DEFAULT_WINDOW + 3,
    "at-a-64k-chunk-edge": 65_536,
    "middle-of-the-body": "middle",
    "last-byte": "last",
}


def _with_bad_byte(size: int, where: object) -> bytes:
    body = _utf8_body(size)
    if where == "last":
        return body[: _boundary(body, len(body) - 1)] + b"\x92"
    position = len(body) // 2 if where == "middle" else int(str(where))
    position = _boundary(body, position)
    return body[:position] + b"\x92" + body[position:]


_SIZES = (100_000, 1_000_000, 10_000_000, 50_000_000)


@pytest.mark.timeout(120)  # a hang guard, not a timing assertion: quadratic would not end
@pytest.mark.parametrize("size", _SIZES, ids=lambda size: f"{size:,}B")
@pytest.mark.parametrize("where", list(_POSITIONS.values()), ids=list(_POSITIONS))
def test_one_bad_byte_anywhere_stays_utf8(where: object, size: int) -> None:
    # A stray windows-1252 byte (0x92, a right quote) in a UTF-8 page: the page is UTF-8
    # wherever the byte lies, in the detection window or far beyond it.
    body = _with_bad_byte(size, where)
    decision = sniff(body, "text/html", "https://example.ru/", detector=get_detector())
    assert (decision.encoding, decision.source) == ("UTF-8", Source.UTF8)
    assert decision.detector == "mostly-utf-8"
    assert dict(decision.details)["invalid"] == 1


@pytest.mark.timeout(120)  # a hang guard, not a timing assertion
@pytest.mark.parametrize("size", _SIZES, ids=lambda size: f"{size:,}B")
@pytest.mark.parametrize(
    "cut", [1, 2], ids=["last-character-missing-one-byte", "last-character-missing-two"]
)
def test_truncated_last_character_is_utf8(size: int, cut: int) -> None:
    # A download cut in the middle of the last character (DOWNLOAD_MAXSIZE with
    # DOWNLOAD_FAIL_ON_DATALOSS off) is valid UTF-8 but for its end.
    body = _utf8_body(size).rstrip(b"\n<>/p")
    body = body[: _boundary(body, len(body) - 1)]
    body += "語".encode()[: 3 - cut]
    decision = sniff(body, "text/html", "https://example.ru/", detector=get_detector())
    assert (decision.encoding, decision.source, decision.detector) == ("UTF-8", Source.UTF8, None)


@pytest.mark.parametrize(
    ("where", "size"),
    [
        pytest.param("middle", 100_000, id="middle-100KB"),
        pytest.param("last", 1_000_000, id="last-1MB"),
    ],
)
def test_one_bad_byte_decodes_with_one_replacement(where: object, size: int) -> None:
    body = _with_bad_byte(size, where)
    decision = sniff(body, "text/html")
    text = decode(body, decision.encoding)
    assert text.count("\ufffd") == 1
    original = _utf8_body(size)
    if where == "last":
        original = original[: _boundary(original, len(original) - 1)]
    assert text.replace("\ufffd", "") == original.decode("utf-8")


@pytest.mark.parametrize("size", [1_000_000, 50_000_000], ids=lambda size: f"{size:,}B")
def test_mostly_utf8_memory_is_bounded(size: int) -> None:
    # The count reads the body in 64 KiB chunks: what it allocates does not grow with the
    # body (a whole-body decode of 50 MB would allocate far more than 4 MB).
    import tracemalloc

    body = _with_bad_byte(size, "last")
    tracemalloc.start()
    try:
        evidence = mostly_utf8(body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert evidence is not None
    assert evidence.invalid == 1
    assert peak < 4_000_000


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("\ufffd".encode() * 20 + b"\x92", (20, 1), id="literal-fffd-is-valid"),
        pytest.param(
            b"a" * 70_000 + "\ufffd".encode() * 40 + b"\x92", (40, 1), id="literal-fffd-late"
        ),
        pytest.param(
            b"\xe9" + b"a" * 65_534 + "\ufffd".encode() * 9, (9, 1), id="literal-across-chunks"
        ),
    ],
)
def test_evidence_counts_written_replacement_characters_as_valid(
    body: bytes, expected: tuple[int, int]
) -> None:
    evidence = utf8_evidence(body)
    assert (evidence.valid, evidence.invalid) == expected


def _naive_evidence(data: bytes) -> tuple[int, int]:
    """(valid, invalid) from one decode of the whole of *data*; a sequence cut off by the
    end of *data* counts neither way (it is pending in the decoder)."""
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(data, False)
    ascii_bytes = sum(1 for b in data if b < 0x80)
    invalid = text.count("\ufffd") - data.count("\ufffd".encode())
    return len(text) - ascii_bytes - invalid, invalid


_PIECES = st.sampled_from(
    [b"a", b"\n", "é".encode(), "€".encode(), "😀".encode(), "\ufffd".encode(),
     b"\x92", b"\xe2\x82", b"\xf0\x9f", b"\xc3", b"x" * 16_380, b"y" * 65_530]
)  # fmt: skip


@settings(deadline=None)  # no timing assertion: multi-megabyte examples
@given(st.lists(_PIECES, max_size=60).map(b"".join))
def test_chunked_evidence_matches_one_decode(data: bytes) -> None:
    # The count reads 16 KiB chunks: a sequence or a written U+FFFD across a chunk edge
    # counts once, as one decode of the whole body counts it.
    evidence = utf8_evidence(data)
    assert (evidence.valid, evidence.invalid) == _naive_evidence(data)
    mostly = mostly_utf8(data)
    if mostly is not None:
        assert mostly.invalid >= 1
        assert mostly.valid >= 4 * mostly.invalid
        assert mostly.likelihood <= 0.01
        assert mostly.valid <= evidence.valid


@needs_catalogues
@pytest.mark.parametrize(
    "encoding", ["windows-1251", "KOI8-R", "Shift_JIS", "EUC-JP", "EUC-KR", "GBK", "Big5"]
)
def test_long_legacy_text_is_not_mostly_utf8(encoding: str) -> None:
    # Legacy text of 1 MB: the whole-body count stops early and still says no.
    locale, tld = corpus.LANGUAGES[encoding][0]
    page = corpus.page(encoding, locale, 1_000_000, 0, tld)
    assert mostly_utf8(page.body) is None
    decision = sniff(page.body, "text/html", page.url_tld, detector=get_detector())
    assert decode(page.body, decision.encoding) == page.text


# --- The tail: sibling code pages, rarer Latin, Mac, CJK and Greek ----------------------

# (encoding, pycountry locale, TLD): pages of real text in each class, under the country
# TLD, at two short lengths and three seeds the development corpus does not use.
_TAIL: list[Any] = [
    # Sibling code pages against the TLD: a Central European page stays Central European.
    pytest.param("ISO-8859-2", "hu", "hu", id="siblings-hungarian-iso-8859-2-hu"),
    pytest.param("windows-1250", "hu", "hu", id="siblings-hungarian-windows-1250-hu"),
    pytest.param("ISO-8859-2", "cs", "cz", id="siblings-czech-iso-8859-2-cz"),
    pytest.param("ISO-8859-2", "sl", "si", id="siblings-slovenian-iso-8859-2-si"),
    # Rarer Latin code pages, short texts.
    pytest.param("ISO-8859-15", "da", "dk", id="latin-danish-iso-8859-15-dk"),
    pytest.param("ISO-8859-15", "es", "es", id="latin-spanish-iso-8859-15-es"),
    pytest.param("ISO-8859-15", "et", "ee", id="latin-estonian-iso-8859-15-ee"),
    pytest.param("ISO-8859-4", "et", "ee", id="latin-estonian-iso-8859-4-ee"),
    pytest.param("ISO-8859-13", "lt", "lt", id="latin-lithuanian-iso-8859-13-lt"),
    pytest.param("ISO-8859-13", "lv", "lv", id="latin-latvian-iso-8859-13-lv"),
    pytest.param("ISO-8859-3", "tr", "tr", id="latin-turkish-iso-8859-3-tr"),
    # Letters every code page of the country can write: Polish "ł" in ISO-8859-13, not
    # "ù" (ISO-8859-16) or "ů" (ISO-8859-2); Latvian "ž" in ISO-8859-10, not "ŧ".
    pytest.param("ISO-8859-13", "pl", "pl", id="latin-polish-iso-8859-13-pl"),
    pytest.param("ISO-8859-10", "lv", "lv", id="latin-latvian-iso-8859-10-lv"),
    pytest.param("windows-1254", "tr", "tr", id="latin-turkish-windows-1254-tr"),
    # Gaps: both readings are letters the country's code pages all write.
    pytest.param("ISO-8859-13", "hr", "hr", id="latin-croatian-iso-8859-13-hr",
                 marks=pytest.mark.xfail(strict=True, reason="ISO-8859-13 cannot write "
                 "Croatian 'đ', so it is not one of .hr's code pages; windows-1250 reads "
                 "the rest as letters")),
    pytest.param("ISO-8859-10", "lt", "lt", id="latin-lithuanian-iso-8859-10-lt",
                 marks=pytest.mark.xfail(strict=True, reason="some short pages: ISO-8859-4 "
                 "reads them with Lithuanian letters too")),
    # Mac code pages.
    pytest.param("macintosh", "fr", "fr", id="mac-french-macintosh-fr"),
    pytest.param("macintosh", "de", "de", id="mac-german-macintosh-de"),
    pytest.param("macintosh", "es", "es", id="mac-spanish-macintosh-es"),
    pytest.param("x-mac-cyrillic", "uk", "ua", id="mac-ukrainian-x-mac-cyrillic-ua"),
    pytest.param("x-mac-cyrillic", "ru", "ru", id="mac-russian-x-mac-cyrillic-ru"),
    pytest.param("KOI8-U", "uk", "ua", id="mac-sibling-ukrainian-koi8-u-ua"),
    # CJK and Greek.
    pytest.param("EUC-KR", "ko", "kr", id="cjk-korean-euc-kr-kr"),
    pytest.param("Big5", "zh_TW", "tw", id="cjk-chinese-big5-tw"),
    pytest.param("ISO-8859-7", "el", "gr", id="greek-iso-8859-7-gr"),
    pytest.param("windows-1253", "el", "gr", id="greek-windows-1253-gr"),
]  # fmt: skip


@needs_catalogues
@pytest.mark.parametrize(("encoding", "locale", "tld"), _TAIL)
def test_tail_classes_on_real_text(encoding: str, locale: str, tld: str) -> None:
    detector = get_detector()
    wrong = []
    for length in (300, 1_000):
        for seed in (2_000, 2_001, 2_002):
            page = corpus.page(encoding, locale, length, seed, tld)
            decision = sniff(page.body, "text/html", page.url_tld, detector=detector)
            if decode(page.body, decision.encoding) != page.text:
                wrong.append((length, seed, decision.encoding))
    assert wrong == []


@needs_catalogues
@pytest.mark.parametrize(
    ("encoding", "locale", "tld"),
    [
        pytest.param("ISO-8859-2", "hu", "hu", id="hungarian-iso-8859-2-hu"),
        pytest.param("windows-1250", "hu", "hu", id="hungarian-windows-1250-hu"),
        pytest.param("ISO-8859-2", "cs", "cz", id="czech-iso-8859-2-cz"),
    ],
)
def test_sibling_refinement_respects_the_tld(
    monkeypatch: pytest.MonkeyPatch, encoding: str, locale: str, tld: str
) -> None:
    # Firefox's detector answers windows-1252 for a Central European page whose accents
    # are mostly Western ("á", "é", "ö"): the refinement must not then choose a Baltic
    # sibling of windows-1252 ("ő" read as "õ", "ű" as "ż") against the TLD.
    backend = make_backend("chardetng+chardet")
    monkeypatch.setattr(backend, "_primary", FakeBackend([("windows-1252", 0.5)], True))
    page = corpus.page(encoding, locale, 10_000, 2_000, tld)
    found = detection_window(page.body, DEFAULT_WINDOW)
    assert found is not None
    ranked = backend.rank(found.text, tld)
    chosen = answer_encoding(ranked[0][0])
    assert chosen in {*prior(tld), "windows-1252"}
    assert decode(found.text, chosen or "") == decode(found.text, encoding)


@pytest.mark.parametrize(
    ("tld", "written", "not_written"),
    [
        pytest.param("pl", "ąćęłńóśźż", "ùůŕÿæ", id="pl"),
        pytest.param("cz", "čďěňřšťůž", "ùÿæ", id="cz"),
        pytest.param("lv", "āčēģīķļņšūž", "ŧ", id="lv"),
        pytest.param("tr", "çğışöü", "", id="tr"),
        pytest.param("hu", "őű", "ŕ", id="hu"),
    ],
)
def test_country_letters(tld: str, written: str, not_written: str) -> None:
    # The letters every code page a country used can write (its TLD's likely encodings).
    letters = country_letters(frozenset(prior(tld)))
    assert set(written) <= letters
    assert not set(not_written) & letters
    assert foreign_letters(f"text {written} {not_written}", letters) == len(not_written)


def _paragraphs(locale: str, keep: str, extra: str = "", count: int = 12) -> str:
    """An HTML page of *locale*'s translated names that contain one of *keep*."""
    names = [m for m in corpus.messages(locale) if any(c in m for c in keep)][:count]
    return "<html><body>" + "".join(f"<p>{n}{extra}</p>" for n in names) + "</body></html>"


@needs_catalogues
@pytest.mark.parametrize(
    ("locale", "tld", "keep"),
    [
        pytest.param("da", "dk", "æøå", id="danish-dk"),
        pytest.param("es", "es", "ñáéíóú", id="spanish-es"),
        pytest.param("fi", "fi", "äö", id="finnish-fi"),
        pytest.param("fr", "fr", "éèà", id="french-fr"),
    ],
)
def test_euro_next_to_a_number_reads_as_iso_8859_15(locale: str, tld: str, keep: str) -> None:
    # 0xA4 is the euro sign in ISO-8859-15 and the currency sign in windows-1252: next to
    # a number only the euro reading is text.
    html = _paragraphs(locale, keep, extra=": 12,50 \u20ac")
    body = html.encode("iso-8859-15")
    decision = sniff(body, "text/html", f"https://www.example.{tld}/", detector=get_detector())
    assert decode(body, decision.encoding) == html


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"<p>Caf\xe9 \xa4 la carte, na\xefve \xa4 jour</p>", id="not-next-to-digits"),
        pytest.param(b"<p>Prix 12 \xa4 \x96 caf\xe9</p>", id="windows-1252-dash-too"),
    ],
)
def test_currency_sign_without_a_price_stays_windows_1252(body: bytes) -> None:
    assert latin9_letters(body) is False


@needs_catalogues
def test_greek_tonos_capitals_read_as_iso_8859_7() -> None:
    # ISO-8859-7 0xB6 is "Ά"; windows-1253 reads it as "¶" ("¶γιος"), and 0xA2 ("Ά" in
    # windows-1253) as a quotation mark in ISO-8859-7.
    html = _paragraphs("el", "Ά", count=20)
    for encoding in ("ISO-8859-7", "windows-1253"):
        body = html.encode("cp1253" if encoding == "windows-1253" else "iso8859-7")
        decision = sniff(body, "text/html", "https://www.example.gr/", detector=get_detector())
        assert decode(body, decision.encoding) == html, encoding


@needs_catalogues
def test_replacement_characters_lose_to_a_clean_tld_encoding() -> None:
    # A backend (here a fake one, taking the TLD itself as chardetng does) answers Big5
    # for a Korean EUC-KR page: the Big5 reading has U+FFFD, the TLD's EUC-KR has none.
    html = _paragraphs("ko", "가나다라마바사아자차카타파하은는이의에", count=400)
    body = html.encode("euc-kr")
    assert "\ufffd" in decode(body, "Big5")
    detector = WebDetector(FakeBackend([("big5", 0.5)], uses_tld=True))
    detected = detector(body, "https://www.example.kr/")
    assert detected is not None
    assert detected.encoding == "EUC-KR"
    assert dict(detected.details)["chosen_by"] == "tld"
    # Without the TLD nothing supports another reading: the backend's answer stands.
    plain = detector(body, "https://www.example.com/")
    assert plain is not None
    assert plain.encoding == "Big5"


# --- Only encodings browsers support ----------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "encoding"),
    [
        ("cp932", "Shift_JIS"),
        ("shift_jis_2004", "Shift_JIS"),
        ("euc_jis_2004", "EUC-JP"),
        ("iso2022_jp_2", "ISO-2022-JP"),
        ("cp949", "EUC-KR"),
        ("big5hkscs", "Big5"),
        ("gb2312", "GBK"),
        ("GB18030", "gb18030"),
        ("iso8859_2", "ISO-8859-2"),
        ("ISO-8859-1", "windows-1252"),  # the Encoding Standard's label table
        ("ascii", "windows-1252"),
        ("Windows-1251", "windows-1251"),
        ("MacCyrillic", "x-mac-cyrillic"),
        ("mac-roman", "macintosh"),
        ("TIS-620", "windows-874"),
        ("koi8_u", "KOI8-U"),
        ("utf_7", None),  # refused: browsers never decode UTF-7
        ("cp1125", None),
        ("johab", None),
        ("cp737", None),
        ("hz", None),  # hz-gb-2312 is the "replacement" encoding
        ("utf_8", None),  # decided by the UTF-8 step, never detected
        ("utf_16", None),
        ("", None),
        (None, None),
    ],
)
def test_answer_encoding(answer: str | None, encoding: str | None) -> None:
    assert answer_encoding(answer) == encoding


def test_legacy_encodings_are_whatwg_names() -> None:
    assert set(ENCODING_NAMES) >= LEGACY_ENCODINGS
    assert set(corpus.LANGUAGES) <= LEGACY_ENCODINGS


def test_unsupported_answers_fall_to_the_next_candidate() -> None:
    backend = FakeBackend([("utf_7", 0.99), ("cp1125", 0.9), ("koi8_r", 0.5)])
    body = "Привет, как дела".encode("koi8-r")
    detected = WebDetector(backend)(body, None)
    assert detected is not None
    assert (detected.encoding, detected.score) == ("KOI8-R", 0.5)


def test_no_usable_answer_detects_nothing() -> None:
    backend = FakeBackend([("utf_7", 0.99)])
    assert WebDetector(backend)(b"\xe9t\xe9", None) is None
    assert sniff(b"\xe9t\xe9", detector=WebDetector(backend)).source is Source.DEFAULT


def test_a_candidate_that_makes_replacement_characters_gives_way() -> None:
    # "日本語のテキスト" in EUC-JP is not valid Shift_JIS throughout.
    body = "日本語のテキストです。".encode("euc-jp")
    backend = FakeBackend([("shift_jis", 0.6), ("euc-jp", 0.5)])
    detected = WebDetector(backend)(body, None)
    assert detected is not None
    assert detected.encoding == "EUC-JP"
    assert dict(detected.details)["chosen_by"] == "decoder"


def test_a_candidate_that_makes_c1_controls_gives_way() -> None:
    # 0x9A is "š" in windows-1250 and a C1 control in ISO-8859-2: no text uses C1 controls.
    body = "<p>Pošta a škola</p>".encode("cp1250")
    backend = FakeBackend([("iso8859-2", 0.6), ("cp1250", 0.5)])
    detected = WebDetector(backend)(body, None)
    assert detected is not None
    assert detected.encoding == "windows-1250"
    assert dict(detected.details)["chosen_by"] == "decoder"


# --- Web-aware: text content and the TLD prior ------------------------------------------


@pytest.mark.parametrize(
    ("html", "text"),
    [
        pytest.param(b"<p>caf\xe9</p>", b" caf\xe9 ", id="tags"),
        pytest.param(b'<a title="\xe9t\xe9">x</a>', b" x ", id="attribute-value"),
        pytest.param(b"<script>var s = '\xe9';</script>t", b" t", id="script"),
        pytest.param(b"<STYLE>p:after{content:'\xe9'}</STYLE>t", b" t", id="style-any-case"),
        pytest.param(b"<!-- \xe9 -->t", b" t", id="comment"),
        pytest.param(b"a https://ex.com/\xe9?q=1 b", b"a   b", id="url"),
        pytest.param(b"caf&eacute; &#233; &#xE9;", b"caf     ", id="references"),
        pytest.param(b"a < b", b"a < b", id="lone-less-than-is-text"),
        pytest.param(b"<script>\xe9\xe9", b" ", id="unterminated-script"),
        # XML 1.0, 2.7: a CDATA section is character data; only its delimiters go.
        pytest.param(b"<t><![CDATA[caf\xe9]]></t>", b"  caf\xe9  ", id="cdata-content-kept"),
        pytest.param(b"<![CDATA[<p>\xe9t\xe9</p>]]>", b"  \xe9t\xe9  ", id="cdata-with-markup"),
        pytest.param(b"<![CDATA[\xe9 > \xe9]]>", b" \xe9 > \xe9 ", id="cdata-with-greater-than"),
        pytest.param(b"<![CDATA[\xe9\xe9", b" \xe9\xe9", id="unterminated-cdata"),
        pytest.param(b"<![cdata[\xe9]]>", b" \xe9 ", id="cdata-any-case"),
        pytest.param(b"a HTTPS://ex.com/\xe9 b", b"a   b", id="url-any-case"),
        pytest.param(b"a Ftp://ex.com/\xe9 b", b"a   b", id="ftp-url"),
        pytest.param(b"\xe9http://ex.com/\xe9", b"\xe9 ", id="url-after-a-non-ascii-byte"),
        pytest.param(b"xhttp://ex.com/\xe9", b"xhttp://ex.com/\xe9", id="url-inside-a-word-kept"),
        pytest.param(b"_ftp://ex.com/\xe9", b"_ftp://ex.com/\xe9", id="url-after-underscore-kept"),
    ],
)
def test_strip_markup(html: bytes, text: bytes) -> None:
    assert strip_markup(html) == text


#: strip_markup's pattern as the rule reads, with the IGNORECASE flag and a word boundary;
#: the module spells it so that every alternative starts with a literal byte (fast).
_MARKUP_AS_READ = re.compile(
    rb"""
      <script\b[^>]*>.*?(?:</script\s*>|\Z)
    | <style\b[^>]*>.*?(?:</style\s*>|\Z)
    | <!--.*?(?:-->|\Z)
    | <!\[CDATA\[ | \]\]>
    | <[!/?a-zA-Z][^>]*(?:>|\Z)
    | &(?:[a-zA-Z][a-zA-Z0-9]{1,31}|\#[0-9]{1,8}|\#[xX][0-9a-fA-F]{1,8});?
    | \b(?:https?|ftp)://[^\s<>"']*
    """,
    re.IGNORECASE | re.DOTALL | re.VERBOSE,
)
#: Pieces of markup and text the pattern's alternatives start, end or stop at.
_MARKUP_PIECES = st.sampled_from(
    [
        *b"< > / ! ? - -- [ ] & # ; x = _ a Z 0 ' \" :// amp E9 233 h H f t p s S".split(),
        *b"script SCRIPT Style sTyLe cdata CDATA [CDATA[ ]]> <!-- --> http https HTTPS".split(),
        *[b"hTtPs", b"Ftp", b"fTP", b" ", b"\n", b"\t", b"\xe9", b"\x80"],
    ]
)


@st.composite
def _in_any_case(draw: st.DrawFn, words: Sequence[bytes]) -> bytes:
    word = draw(st.sampled_from(words))
    upper = draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    return bytes(
        b ^ 0x20 if u and chr(b).isalpha() else b for b, u in zip(word, upper, strict=True)
    )


_MARKUP_WORDS = _in_any_case(
    [
        *[b"http://", b"https://", b"ftp://", b"<script", b"</script", b"<style", b"</style"],
        *[b"<![cdata[", b"script", b"style"],
    ]
)


_MARKUP_BODIES = st.lists(
    st.one_of(_MARKUP_PIECES, _MARKUP_WORDS, st.binary(max_size=3)), max_size=40
).map(b"".join)


@given(_MARKUP_BODIES)
@settings(max_examples=300, deadline=None)
def test_strip_markup_is_the_case_insensitive_pattern(data: bytes) -> None:
    assert strip_markup(data) == _MARKUP_AS_READ.sub(b" ", data)


@pytest.mark.slow
@given(_MARKUP_BODIES)
@settings(max_examples=3000, deadline=None)
def test_strip_markup_is_the_case_insensitive_pattern_full_budget(data: bytes) -> None:
    assert strip_markup(data) == _MARKUP_AS_READ.sub(b" ", data)


def _korean_feed(title: str) -> bytes:
    """An undeclared RSS feed in EUC-KR whose item titles are all CDATA sections."""
    names = [m for m in corpus.messages("ko") if not m.isascii()]
    items = "".join(
        f"<item><title><![CDATA[{name}]]></title><link>http://example.kr/{i}</link></item>\n"
        for i, name in enumerate(names[:40])
    )
    feed = f'<?xml version="1.0"?>\n<rss><channel><title>{title}</title>{items}</channel></rss>'
    return feed.encode("euc-kr")


@needs_catalogues
@pytest.mark.parametrize(
    "title",
    # Channel titles, the only text outside CDATA, on which detection alone read the feed
    # as windows-874, windows-1251 or EUC-JP when the CDATA sections were dropped.
    [pytest.param(t, id=f"title-{i}") for i, t in enumerate(("루바어", "롬어", "남극", "아루바"))],
)
@pytest.mark.parametrize("kind", ["text", "html"])
def test_cdata_text_is_detection_evidence(title: str, kind: Any) -> None:
    body = _korean_feed(title)
    decision = sniff(body, None, kind=kind, detector=get_detector())
    assert decision.encoding == "EUC-KR"
    assert "\ufffd" not in decode(body, decision.encoding)


def test_window_falls_back_to_raw_when_only_markup_is_non_ascii() -> None:
    body = b'<html><a title="caf\xe9">x</a></html>'
    window = detection_window(body, DEFAULT_WINDOW)
    assert window is not None
    assert not window.stripped
    assert b"\xe9" in window.text


@pytest.mark.parametrize(
    ("url", "tld"),
    [
        ("https://www.example.jp/page", "jp"),
        ("HTTP://WWW.EXAMPLE.RU/", "ru"),
        ("https://example.com./", "com"),
        ("https://пример.рф/", "xn--p1ai"),
        ("https://user:pw@shop.example.co.uk:8080/x", "uk"),
        ("http://127.0.0.1/", None),
        ("http://[::1]/", None),
        ("http://localhost/", None),
        ("file:///srv/page.html", None),
        ("not a url", None),
        (None, None),
    ],
)
def test_tld_of(url: str | None, tld: str | None) -> None:
    assert tld_of(url) == tld


@pytest.mark.parametrize(
    ("tld", "first"),
    [
        ("jp", "Shift_JIS"),
        ("ru", "windows-1251"),
        ("ua", "windows-1251"),
        ("kr", "EUC-KR"),
        ("cn", "GBK"),
        ("tw", "Big5"),
        ("cz", "windows-1250"),
        ("gr", "windows-1253"),
        ("il", "windows-1255"),
        ("fr", "windows-1252"),
    ],
)
def test_tld_prior_table(tld: str, first: str) -> None:
    assert prior(tld)[0] == first


def test_tld_prior_names_whatwg_encodings_only() -> None:
    assert prior("com") == prior(None) == ()
    assert {e for encodings in TLD_PRIORS.values() for e in encodings} <= LEGACY_ENCODINGS


@pytest.mark.parametrize(
    ("ranking", "url", "expected", "how"),
    [
        pytest.param(
            [("cp1252", 0.50), ("cp1250", 0.48)],
            "https://example.cz/",
            "windows-1250",
            "tld",
            id="near-tie-goes-to-the-tld",
        ),
        pytest.param(
            [("cp1252", 0.50), ("cp1250", 0.20)],
            "https://example.cz/",
            "windows-1252",
            "backend",
            id="clear-winner-stays",
        ),
        pytest.param(
            [("cp1252", 0.50), ("cp1250", 0.48)],
            "https://example.com/",
            "windows-1252",
            "backend",
            id="no-prior-on-com",
        ),
        pytest.param(
            [("iso8859_15", 0.50), ("cp1252", 0.49)],
            "https://example.fr/",
            "ISO-8859-15",
            "backend",
            id="no-move-within-a-family",
        ),
        pytest.param([], "https://example.ru/", "windows-1251", "tld", id="no-answer-tld-first"),
    ],
)
def test_tld_prior_for_ranking_backends(
    ranking: list[tuple[str, float]], url: str, expected: str, how: str
) -> None:
    body = "<p>Le café a été fermé</p>".encode("cp1250")
    detected = WebDetector(FakeBackend(ranking))(body, url)
    assert detected is not None
    assert detected.encoding == expected
    assert dict(detected.details)["chosen_by"] == how


def test_tld_prior_off() -> None:
    backend = FakeBackend([("cp1252", 0.50), ("cp1250", 0.48)])
    detected = WebDetector(backend, use_tld=False)(b"<p>\xe9t\xe9</p>", "https://example.cz/")
    assert detected is not None
    assert detected.encoding == "windows-1252"
    assert dict(detected.details)["tld"] is None


def test_native_tld_backend_gets_the_tld() -> None:
    backend = FakeBackend([("cp1252", 1.0)], uses_tld=True)
    WebDetector(backend)(b"<p>\xe9t\xe9</p>", "https://www.example.de/")
    assert backend.seen[0][1] == "de"


@needs_catalogues
@pytest.mark.parametrize(
    ("encoding", "locale", "length", "tld", "without"),
    [
        # 300 bytes of Estonian: too little text to tell ISO-8859-15's š from
        # windows-1257's Ø without the .ee prior.
        ("ISO-8859-15", "et", 300, "ee", "windows-1257"),
    ],
)
def test_tld_prior_decides_short_pages(
    encoding: str, locale: str, length: int, tld: str, without: str
) -> None:
    page = corpus.page(encoding, locale, length, 0, tld)
    detector = get_detector()
    with_tld = sniff(page.body, "text/html", page.url_tld, detector=detector)
    plain = sniff(page.body, "text/html", page.url, detector=detector)
    assert decode(page.body, with_tld.encoding) == page.text
    assert plain.encoding == without


# Pages on a .com URL that chardetng alone reads as its no-TLD default (windows-1252) or
# a sibling: chardet's ranking of the Latin and Cyrillic code pages and the plausibility
# of the decoded text decide them.
@needs_catalogues
@pytest.mark.parametrize(
    ("encoding", "locale", "length"),
    [
        ("windows-1250", "hu", 10_000),
        ("ISO-8859-2", "hu", 10_000),
        ("windows-1250", "hu", 1_000),
        ("x-mac-cyrillic", "ru", 10_000),
        ("x-mac-cyrillic", "uk", 1_000),
        ("windows-1257", "et", 10_000),
        ("ISO-8859-14", "cy", 10_000),
        # chardet ranks ISO-8859-4 a hair above windows-1252 here; the texts are as plausible,
        # so chardetng's answer stays.
        ("windows-1252", "nl", 1_000),
    ],
)
def test_pages_without_a_country_tld(encoding: str, locale: str, length: int) -> None:
    page = corpus.page(encoding, locale, length, 0)
    decision = sniff(page.body, "text/html", page.url, detector=get_detector())
    assert decode(page.body, decision.encoding) == page.text


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param("Möller, Ärger, ÉCOLE", 0, id="case-as-written"),
        pytest.param("Русский язык", 0, id="cyrillic"),
        pytest.param("Hungarian: Győr, Kőszeg", 0, id="latin-letters"),
        pytest.param("mØller", 1, id="uppercase-inside-a-word"),
        pytest.param("jÄrjestÄ", 1, id="uppercase-twice-one-word"),
        pytest.param("Bia¶ystok", 1, id="symbol-inside-a-word"),
        pytest.param("R\u0443\u0441\u0441\u0438\u044f", 1, id="latin-next-to-cyrillic"),
        pytest.param("caf\x82 au lait", 4, id="c1-control"),
    ],
)
def test_implausibility(text: str, count: int) -> None:
    assert implausibility(text) == count


@pytest.mark.parametrize(
    ("encodings", "body", "words"),
    [
        pytest.param(
            ("windows-1252", "ISO-8859-15"),
            "café, Šibenik, œuvre".encode("iso8859-15"),
            [b"\xa6ibenik", b"\xbduvre"],
            id="only-the-letters-that-differ",
        ),
        pytest.param(("windows-1252", "ISO-8859-15"), "café".encode("cp1252"), [], id="same-text"),
        pytest.param(
            ("windows-1250", "ISO-8859-2"),
            "Kraków Šibenik".encode("cp1250"),
            [b"\x8aibenik"],
            id="windows-1250-only-byte",
        ),
    ],
)
def test_differing_words(encodings: tuple[str, ...], body: bytes, words: list[bytes]) -> None:
    assert differing_words(frozenset(encodings)).findall(body) == words


@pytest.mark.parametrize(
    ("text", "encoding", "latin9"),
    [
        pytest.param("Le cœur et l'œuvre", "iso8859-15", True, id="oe-ligature"),
        pytest.param("Šibenik, Žilina", "iso8859-15", True, id="s-z-caron"),
        pytest.param("Ajoutez 1½ tasse", "cp1252", False, id="fraction-after-digit"),
        # 0xA4 next to a number is a price: the euro of ISO-8859-15, not windows-1252's "¤".
        pytest.param("Prix : 10 ¤", "cp1252", True, id="currency-sign-after-a-price"),
        pytest.param("Prix : ¤ 10", "cp1252", True, id="currency-sign-before-a-price"),
        pytest.param("Le signe ¤ seul", "cp1252", False, id="currency-sign-alone"),
        pytest.param(
            "It\u00b4s the \u0153uvre\u2019s end", "cp1252", False, id="windows-1252-quotes"
        ),
    ],
)
def test_latin9_letters(text: str, encoding: str, latin9: bool) -> None:
    assert latin9_letters(text.encode(encoding)) is latin9


# --- Bounded -----------------------------------------------------------------------------


def test_window_starts_at_the_first_non_ascii_text() -> None:
    body = b"<html><head><title>x</title></head><body>" + b"a" * 100_000 + b"<p>\xe9t\xe9</p>"
    assert first_non_ascii(body) == body.index(b"\xe9")
    window = detection_window(body, 1_000)
    assert window is not None
    assert window.start == body.rindex(b"<p>")
    assert window.text.strip() == b"\xe9t\xe9"


@pytest.mark.parametrize(
    ("encoding", "sentence"),
    [
        ("cp932", "東京都の天気は晴れです。漢字とカタカナのテキスト"),
        ("euc-jp", "東京都の天気は晴れです。漢字とカタカナのテキスト"),
        ("gbk", "北京市今天天气晴朗汉字文本"),
        ("gb18030", "北京市今天天气晴朗汉字文本"),
        ("big5", "台北市今天天氣晴朗漢字文本"),
        ("euc-kr", "서울의 날씨는 맑습니다 한국어"),
        ("utf-8", "東京都の天気は晴れです。"),
    ],
)
@pytest.mark.parametrize("separator", ["\n", "<br>"], ids=["lines", "no-spaces"])
def test_window_ends_at_a_character_boundary(encoding: str, sentence: str, separator: str) -> None:
    text = "<p>" + (sentence.replace(" ", "") + separator) * 2_000 + "</p>"
    body = text.encode(encoding)
    for size in (1_000, 1_001, 1_002, 4_097):
        window = detection_window(body, size)
        assert window is not None
        assert window.end - window.start <= size + 3
        assert "\ufffd" not in window.text.decode(encoding, "replace")


def test_iso2022jp_window_is_read_raw() -> None:
    body = "<p>東京&amp;大阪</p>".encode("iso2022_jp")
    window = detection_window(body, DEFAULT_WINDOW)
    assert window is not None
    assert not window.stripped
    assert window.text == body[body.index(b"\x1b") - 3 :]


def test_undeclared_iso2022jp_is_detected_not_utf8() -> None:
    body = "<p>東京都の天気は晴れです。明日は雨でしょう。</p>".encode("iso2022_jp")
    decision = sniff(body, "text/html", detector=get_detector())
    assert (decision.encoding, decision.source) == ("ISO-2022-JP", Source.DETECTED)


def test_huge_body_costs_no_more_than_the_window() -> None:
    line = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n".encode("cp1251")
    body = b"<html><body>" + line * (20_000_000 // len(line))
    backend = FakeBackend([("cp1251", 0.9)])
    detected = WebDetector(backend, window=DEFAULT_WINDOW)(body, None)
    assert detected is not None
    assert detected.encoding == "windows-1251"
    # The documented window: 16 KiB, ending at the last space or newline before its end
    # (so at most a line shorter), bounded from below as well as above.
    assert DEFAULT_WINDOW == 16 * 1024
    assert DEFAULT_WINDOW - len(line) <= len(backend.seen[0][0]) <= DEFAULT_WINDOW
    decision = sniff(body, "text/html", detector=get_detector())
    assert decision.encoding == "windows-1251"
    start, end = decision.as_dict()["detector"]["window"]
    assert start == len(b"<html>")  # the "<" of the tag before the first text
    first = len(b"<html><body>")  # the window's 16 KiB count from the first non-ASCII byte
    assert DEFAULT_WINDOW - len(line) <= end - first <= DEFAULT_WINDOW


# --- Pluggable ---------------------------------------------------------------------------


@needs_catalogues
@pytest.mark.parametrize("name", ["default", *BACKENDS])
@pytest.mark.parametrize(
    ("encoding", "locale", "tld"),
    [("windows-1251", "ru", "ru"), ("Shift_JIS", "ja", "jp"), ("GBK", "zh_CN", "cn")],
)
def test_every_backend(name: str, encoding: str, locale: str, tld: str) -> None:
    page = corpus.page(encoding, locale, 3_000, 1, tld)
    detector = get_detector(name)
    assert detector is not None
    decision = sniff(page.body, "text/html", page.url_tld, detector=detector)
    assert decode(page.body, decision.encoding) == page.text
    assert decision.source is Source.DETECTED
    assert decision.detector == (DEFAULT_BACKEND if name == "default" else name)


def test_none_and_unknown_names() -> None:
    assert get_detector("none") is None
    assert get_detector(" None ") is None
    with pytest.raises(ValueError, match="unknown charset detector 'chardetng2'"):
        get_detector("chardetng2")
    with pytest.raises(ValueError, match="positive"):
        get_detector(window=0)


@pytest.fixture
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy_charset.sniffing import detect

    monkeypatch.setattr(detect, "_warn", Once(detect.logger))


@pytest.mark.usefixtures("fresh_warnings")
@pytest.mark.parametrize(
    ("name", "modules", "expected"),
    [
        pytest.param("cchardet", ["cchardet"], DEFAULT_BACKEND, id="optional-to-default"),
        pytest.param(
            "default",
            ["chardetng_py", "chardetng_py.detector"],
            "charset-normalizer",
            id="default-to-charset-normalizer",
        ),
    ],
)
def test_missing_backend_falls_back_with_one_log_line(
    name: str,
    modules: list[str],
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)
    with caplog.at_level(logging.WARNING, logger="scrapy_charset.sniffing.detect"):
        first = get_detector(name)
        second = get_detector(name)
    assert first is not None
    assert second is not None
    assert isinstance(first, WebDetector)
    assert first.name == expected
    assert len(caplog.records) == 1
    assert "not installed" in caplog.records[0].getMessage()


def test_default_without_chardet_is_chardetng(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "chardet", None)
    detector = get_detector()
    assert isinstance(detector, WebDetector)
    assert detector.name == "chardetng"


# --- Recorded ----------------------------------------------------------------------------


def test_decision_records_the_detector() -> None:
    body = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p>".encode("cp1251")
    decision = sniff(body, "text/html", "https://example.ru/", detector=get_detector())
    assert decision.source is Source.DETECTED
    assert decision.confidence is Confidence.TENTATIVE
    assert decision.detector == DEFAULT_BACKEND
    assert decision.score is not None
    record = decision.as_dict()["detector"]
    assert record["name"] == DEFAULT_BACKEND
    assert record["tld"] == "ru"
    assert record["chosen_by"] == "backend"
    assert record["markup_stripped"] is True
    assert json.loads(json.dumps(decision.as_dict())) == decision.as_dict()


def test_detected_is_a_plain_value() -> None:
    assert Detected("KOI8-R", "fake") == Detected("KOI8-R", "fake", None, ())


# --- Accuracy on real text ---------------------------------------------------------------


@needs_catalogues
@pytest.mark.parametrize("page", corpus.small_table(), ids=lambda page: page.id)
def test_accuracy_on_real_text(page: corpus.Page) -> None:
    decision = sniff(page.body, "text/html", page.url_tld, detector=get_detector())
    assert decision.source is Source.DETECTED
    assert decode(page.body, decision.encoding) == page.text


# --- UTF-8 validity across chunk boundaries (the check reads 64 KiB at a time) ----------

_E = "é".encode()
_EURO = "€".encode()


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        pytest.param(_E * 40_000 + _EURO[:2], True, id="truncated-at-the-end"),
        pytest.param(_E * 40_000 + b"\xff", False, id="bad-byte-at-the-end"),
        pytest.param(b"a" * 65_535 + _EURO, True, id="sequence-across-chunks"),
        pytest.param(b"a" * 65_535 + _EURO[:2], False, id="only-a-truncated-sequence"),
        pytest.param(_E + b"a" * 65_535 + _EURO[:2], True, id="truncated-after-valid"),
        pytest.param(b"a" * 200_000 + b"\xff" + _E * 10, False, id="ascii-then-bad-byte"),
    ],
)
def test_is_utf8_across_chunks(body: bytes, valid: bool) -> None:
    assert is_utf8(body) is valid


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("<p>Les élèves ont étudié à l'école près de la forêt.</p>", id="fr"),
        pytest.param("<p>Über die Brücke gehen die Mädchen schön.</p>", id="de"),
    ],
)
def test_siblings_reading_the_same_text_keep_windows_1252(text: str) -> None:
    # ISO-8859-15 and macintosh siblings are chosen only when they read the text otherwise.
    decision = sniff(text.encode("cp1252"), "text/html", detector=get_detector())
    assert decision.encoding == "windows-1252"


@pytest.mark.timeout(60)  # a hang guard, not a timing assertion: quadratic would not end
@pytest.mark.parametrize(
    "body",
    # 0xB9 is "¹" in windows-1252 and "ą" in windows-1250.
    [b"a" * 300_000, b"\xb9" + b"a" * 300_000, b"a" * 300_000 + b"\xb9"],
    ids=["no-differing-byte", "differing-first", "differing-last"],
)
def test_differing_words_reads_one_long_word_once(body: bytes) -> None:
    pattern = differing_words(frozenset(["windows-1252", "windows-1250"]))
    words = pattern.findall(body)
    assert words == ([] if b"\xb9" not in body else [body])


def _in_cp1250(text: str) -> bool:
    try:
        text.encode("cp1250")
    except UnicodeEncodeError:
        return False
    return True


def _quoted_names(locale: str, count: int) -> str:
    """*count* of the catalogue's names with a letter outside ASCII, in „low-high” quotes
    and separated by en dashes, the way Hungarian and Czech copy writes them."""
    names = [m for m in corpus.messages(locale) if not m.isascii() and _in_cp1250(m)]
    return " \u2013 ".join(f"\u201e{name}\u201d" for name in names[:count])


@needs_catalogues
@pytest.mark.parametrize("count", [1, 3, 10, 40])
@pytest.mark.parametrize(("locale", "tld"), [("hu", "hu"), ("cs", "cz"), ("sk", "sk")])
def test_windows_1250_quotes_and_dashes_are_evidence(locale: str, tld: str, count: int) -> None:
    # 0x84, 0x94 and 0x96 are the low and high quotes and the en dash in windows-1250,
    # C1 controls in ISO-8859-2: the page is windows-1250 (or reads the same way).
    body = f"<p>{_quoted_names(locale, count)}</p>".encode("cp1250")
    decision = sniff(body, "text/html", f"http://example.{tld}/", detector=get_detector())
    assert decode(body, decision.encoding) == decode(body, "windows-1250")
