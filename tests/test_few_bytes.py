"""Short pages and a few bytes of evidence.

A short undeclared UTF-8 page with one stray byte is UTF-8 (the mostly-UTF-8 rule's
likelihood, and a detector answer too weak to outweigh valid UTF-8); where a few bytes
are all the evidence, the default for the URL's top-level domain wins over a code page
browsers never detect. Real text: Babel's CLDR names and pycountry's catalogues, at every
length from 20 bytes up.
"""

from __future__ import annotations

import pytest

from benchmarks._itemdata import cldr_names
from scrapy_charset.responses.decision import Source
from scrapy_charset.sniffing import sniff
from scrapy_charset.sniffing.detect import EXOTIC, FEW_BYTES, Detected, get_detector
from scrapy_charset.sniffing.mime import identify_unknown
from scrapy_charset.whatwg.codecs import decode
from tests import corpus

# --- the examples of the rule -----------------------------------------------------------


def test_short_page_with_one_stray_byte_is_utf8() -> None:
    # Four valid sequences (two of three bytes) and one windows-1252 "é": before, the
    # detector's x-mac-cyrillic (score 0.061) decoded every character wrong.
    body = b"<p>10 \xe2\x82\xac \xe2\x80\x94 caf\xc3\xa9 cr\xc3\xa8me \xe9 fin</p>"
    decision = sniff(body, "text/html", "http://127.0.0.1/x.html", detector=get_detector())
    assert (decision.encoding, decision.source) == ("UTF-8", Source.UTF8)
    assert decision.as_dict()["detector"] == {
        "name": "mostly-utf-8",
        "score": 0.8,
        "valid": 4,
        "invalid": 1,
    }
    assert decode(body, decision.encoding) == "<p>10 € — café crème \ufffd fin</p>"


def test_a_few_bytes_give_the_tld_default_over_an_exotic_code_page() -> None:
    # An untyped body: its <meta> is not in the MIME sniffing table, so it sniffs as
    # text/plain and the <meta> is not read. Its only non-ASCII bytes are windows-1252's
    # euro sign and curly quotes, and 0x81: Firefox shows windows-1252.
    body = b'<meta charset="latin1"><p>\x80 \x93q\x94 \x81</p>'
    assert identify_unknown(body) == "text/plain"
    decision = sniff(body, None, "http://127.0.0.1/x", kind="text", detector=get_detector())
    assert decision.encoding == "windows-1252"
    assert decision.as_dict()["detector"]["chosen_by"] == "tld-default"


@pytest.mark.parametrize(
    ("url", "encoding"),
    [
        pytest.param("http://example.com/", "windows-1252", id="generic-tld"),
        pytest.param(None, "windows-1252", id="no-url"),
        pytest.param("http://example.de/", "windows-1252", id="country-tld"),
        # x-mac-cyrillic is one of .ru's code pages, but not its default.
        pytest.param("http://example.ru/", "windows-1251", id="exotic-the-tld-lists"),
    ],
)
def test_tld_default_on_a_few_bytes(url: str | None, encoding: str) -> None:
    body = b"<p>\x80 \x93q\x94 \x81</p>"
    decision = sniff(body, "text/plain", url, kind="text", detector=get_detector())
    assert decision.encoding == encoding


def test_exotic_code_pages_are_those_browsers_never_detect() -> None:
    assert (
        frozenset(
            [
                "macintosh",
                "x-mac-cyrillic",
                "ISO-8859-3",
                "ISO-8859-10",
                "ISO-8859-14",
                "ISO-8859-16",
            ]
        )
        == EXOTIC
    )
    assert FEW_BYTES == 8


def test_exotic_answer_on_real_evidence_stays() -> None:
    # Enough text: the detector's x-mac-cyrillic stands (the rule is for a few bytes).
    text = "Съешь же ещё этих мягких французских булок, да выпей чаю."
    body = f"<p>{text}</p>".encode("mac_cyrillic")
    decision = sniff(body, "text/html", detector=get_detector())
    assert decode(body, decision.encoding) == decode(body, "x-mac-cyrillic")


# --- real text at every length ------------------------------------------------------------

LOCALES = ("fr", "de", "es", "pt", "pl", "cs", "ru", "el", "tr", "vi", "ja", "zh", "ko")


def _text(locale: str) -> bytes:
    return " \u00b7 ".join(n for n in cldr_names(locale) if not n.isascii()).encode()


def _with_stray(data: bytes, stray: bytes) -> bytes:
    """*data* cut at a character boundary, with a word holding one stray byte inserted at
    a space near its middle."""
    middle = max(0, data.rfind(b" ", 0, len(data) // 2 + 1))
    return b"<p>" + data[:middle] + b" l" + stray + b"x" + data[middle:] + b"</p>"


@pytest.mark.parametrize(
    "stray", [pytest.param(b"\x92", id="0x92"), pytest.param(b"\xe9", id="0xe9")]
)
@pytest.mark.parametrize("locale", LOCALES)
def test_utf8_with_one_stray_byte_at_every_length(locale: str, stray: bytes) -> None:
    text = _text(locale)
    wrong = []
    for length in range(20, 400):
        data = text[:length].decode("utf-8", "ignore").encode()
        body = _with_stray(data, stray)
        decision = sniff(body, "text/html", "http://example.com/", detector=get_detector())
        if decision.encoding != "UTF-8":
            wrong.append((length, decision.encoding))
    assert wrong == []


@pytest.mark.skipif(not corpus.have_catalogues(), reason="pycountry's catalogues are missing")
@pytest.mark.parametrize("encoding", sorted(corpus.LANGUAGES))
def test_legacy_text_is_never_read_as_utf8_at_any_length(encoding: str) -> None:
    # The other side: short legacy text is not taken for UTF-8 by the rules above.
    wrong = []
    for locale, tld in corpus.LANGUAGES[encoding]:
        items = [data for _, data in corpus.encodable(locale, encoding) if not data.isascii()]
        data = b" ".join(items[:100])
        for length in range(20, 400):
            body = b"<p>" + data[:length] + b"</p>"
            if body.isascii():
                continue
            url = f"http://example.{tld or 'org'}/"
            decision = sniff(body, "text/html", url, detector=get_detector())
            if decision.encoding == "UTF-8":
                wrong.append((locale, length))
    assert wrong == []


# --- a weak guess over mostly valid UTF-8 -------------------------------------------------


class _Fixed:
    """A detector that answers one fixed guess."""

    def __init__(self, encoding: str, score: float | None) -> None:
        self.answer = Detected(encoding, "fixed", score)

    def __call__(self, body: bytes, url: str | None) -> Detected | None:
        return self.answer


#: Three valid three-byte sequences and one stray byte: too few for the mostly-UTF-8 rule
#: (V < 4E), more valid than invalid, and 10 non-ASCII bytes (not "a few").
_THREE_AND_ONE = "<p>10 € \u2014 20 € ".encode() + b"l\x92x</p>"


@pytest.mark.parametrize(
    ("body", "score", "encoding"),
    [
        pytest.param(_THREE_AND_ONE, 0.19, "UTF-8", id="under-0.2-gives-way"),
        pytest.param(_THREE_AND_ONE, 0.06, "UTF-8", id="far-under"),
        pytest.param(_THREE_AND_ONE, None, "UTF-8", id="no-score-gives-way"),
        pytest.param(_THREE_AND_ONE, 0.2, "x-mac-cyrillic", id="at-0.2-stands"),
        pytest.param(_THREE_AND_ONE, 0.9, "x-mac-cyrillic", id="confident-stands"),
        # As many invalid sequences as valid ones: the guess stands, however weak.
        pytest.param(
            b"<p>10 \xe2\x82\xac l\x92x \xe9t\xe9</p>",
            0.01,
            "x-mac-cyrillic",
            id="not-mostly-valid",
        ),
        # A few bytes (2 valid two-byte sequences, 1 stray): a confident guess gives way.
        pytest.param(b"<p>caf\xc3\xa9 cr\xc3\xa8me l\x92x</p>", 1.0, "UTF-8", id="few-bytes"),
    ],
)
def test_weak_guess_over_valid_utf8(body: bytes, score: float | None, encoding: str) -> None:
    decision = sniff(body, "text/html", detector=_Fixed("x-mac-cyrillic", score))
    assert decision.encoding == encoding
    if encoding == "UTF-8":
        details = decision.as_dict()["detector"]
        assert (details["name"], details["over"], details["over_score"]) == (
            "mostly-utf-8",
            "x-mac-cyrillic",
            score,
        )
        assert decode(body, "UTF-8").count("\ufffd") == 1


def test_the_few_bytes_example_through_the_middleware() -> None:
    # The same untyped body as a crawl receives it: Scrapy's class, then the middleware.
    from scrapy import Request
    from scrapy.http import TextResponse
    from scrapy.responsetypes import responsetypes
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from scrapy_charset.responses.middleware import CharsetMiddleware

    body = b'<meta charset="latin1"><p>\x80 \x93q\x94 \x81</p>'
    url = "http://127.0.0.1/x"
    request = Request(url)
    response = responsetypes.from_args(url=url, body=body)(url=url, body=body, request=request)
    middleware = build_from_crawler(CharsetMiddleware, get_crawler(settings_dict={}))
    result = middleware.process_response(request, response)
    assert isinstance(result, TextResponse)
    decision = request.meta["charset"]
    assert (decision["encoding"], decision["sniffed_type"]) == ("windows-1252", "text/plain")
    assert result.text == '<meta charset="latin1"><p>\u20ac \u201cq\u201d \x81</p>'


class _Backend:
    """A backend that ranks one fixed answer."""

    name = "fixed"
    uses_tld = False

    def __init__(self, label: str) -> None:
        self.label = label

    def rank(self, text: bytes, tld: str | None) -> list[tuple[str, float | None]]:
        return [(self.label, 0.5)]


@pytest.mark.parametrize(
    ("body", "answer", "url", "encoding"),
    [
        # windows-1252's curly quotes around a word, a euro sign and 0x81 alone.
        pytest.param(b"<p>\x80 \x93q\x94 \x81</p>", "mac-cyrillic", None, "windows-1252",
                     id="quotes-give-way"),
        pytest.param(b"<p>\x93q\x94</p>", "mac-roman", "http://example.it/", "windows-1252",
                     id="quotes-under-a-tld"),
        # Real Italian and Spanish names in macintosh (pycountry): the bytes are letters.
        pytest.param(b"<p>Paran\x88, occidentale</p>", "mac-roman", "http://example.it/",
                     "macintosh", id="symbol-after-a-letter-stays"),
        pytest.param(b"<p>Zapoteco ixtl\x87n</p>", "mac-roman", "http://example.it/",
                     "macintosh", id="punctuation-between-letters-stays"),
        pytest.param(b"<p>Cor\x8een moyen</p>", "mac-roman", "http://example.fr/",
                     "macintosh", id="letter-between-letters-stays"),
        # Not exotic: the rule leaves the backend's answer.
        pytest.param(b"<p>\x93q\x94</p>", "windows-1251", None, "windows-1251",
                     id="not-exotic"),
    ],
)  # fmt: skip
def test_few_bytes_rule(body: bytes, answer: str, url: str | None, encoding: str) -> None:
    from scrapy_charset.sniffing.detect import WebDetector

    detected = WebDetector(_Backend(answer))(body, url)
    assert detected is not None
    assert detected.encoding == encoding
