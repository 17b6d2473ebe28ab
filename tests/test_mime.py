"""MIME Sniffing Standard, 7.1 "rules for identifying an unknown MIME type", and what the
middleware does with a response that has no (or an uninformative) ``Content-Type``.

The signature cases are built from the standard's tables themselves (each row's pattern,
with its masked bytes filled and its tag-terminating byte written); the response-class
cases start from the class Scrapy's own ``responsetypes`` chooses for the same headers,
URL and body; the crawl serves the bodies without a ``Content-Type`` from a local server.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.http import (
    Headers,
    HtmlResponse,
    JsonResponse,
    Response,
    TextResponse,
    XmlResponse,
)
from scrapy.responsetypes import responsetypes

from scrapy_charset.responses.decision import Confidence, EncodingDecision, Source
from scrapy_charset.responses.unknown_type import sniff_unknown_type
from scrapy_charset.sniffing.mime import (
    ARCHIVE,
    AUDIO_VIDEO,
    COMPUTED_TYPES,
    IMAGE,
    NON_SCRIPTABLE,
    RESOURCE_HEADER,
    SCRIPTABLE,
    Signature,
    identify_unknown,
    pattern_matches,
    sniffed_kind,
)
from tests.crawl import run_crawl
from tests.server import Page, serve

# --- The signature tables --------------------------------------------------------------


def _example(row: Signature, *, lower: bool = False, terminator: bytes = b">") -> bytes:
    """Bytes that match *row*: the pattern, a masked-out byte written as 0x00, a
    case-insensitive letter in lowercase when *lower*, then the terminator for ``TT``."""
    out = bytearray()
    for byte, mask in zip(row.pattern, row.mask, strict=True):
        if lower and mask == 0xDF and 0x41 <= byte <= 0x5A:
            out.append(byte | 0x20)
        else:
            out.append(byte & mask)
    if row.terminated:
        out += terminator
    return bytes(out) + b" tail"


_TABLE_ROWS = [
    pytest.param(table, row, id=f"{name}-{row.mime_type}-{row.pattern[:12]!r}")
    for name, table in (
        ("scriptable", SCRIPTABLE),
        ("non-scriptable", NON_SCRIPTABLE),
        ("image", IMAGE),
        ("audio-video", AUDIO_VIDEO),
        ("archive", ARCHIVE),
    )
    for row in table
]


@pytest.mark.parametrize(("table", "row"), _TABLE_ROWS)
def test_each_row_computes_its_type(table: tuple[Signature, ...], row: Signature) -> None:
    # 7.1: the first row that matches gives the computed type.
    assert pattern_matches(_example(row), row)
    assert identify_unknown(_example(row)) == row.mime_type


@pytest.mark.parametrize("row", [r for r in SCRIPTABLE if r.skip_whitespace], ids=str)
def test_html_rows_ignore_leading_whitespace_and_case(row: Signature) -> None:
    # The HTML rows: "Whitespace bytes" are the leading bytes to be ignored, and the 0xDF
    # mask makes the letters case-insensitive.
    body = b" \t\r\n\x0c" + _example(row, lower=True)
    assert identify_unknown(body) == row.mime_type


@pytest.mark.parametrize("row", [r for r in SCRIPTABLE if r.terminated], ids=str)
def test_html_rows_need_a_tag_terminating_byte(row: Signature) -> None:
    # 3 "Terminology": a tag-terminating byte is 0x20 or 0x3E; "<bx" is no "<b" tag.
    assert identify_unknown(_example(row, terminator=b" ")) == "text/html"
    assert identify_unknown(_example(row, terminator=b"x")) == "text/plain"


@pytest.mark.parametrize("row", SCRIPTABLE, ids=str)
def test_nosniff_rules_out_the_scriptable_table(row: Signature) -> None:
    # 8.1: the sniff-scriptable flag is the inverse of the no-sniff flag.
    computed = identify_unknown(_example(row), sniff_scriptable=False)
    assert computed == "text/plain"


@pytest.mark.parametrize(
    ("body", "computed"),
    [
        pytest.param(b"", "text/plain", id="empty-has-no-binary-byte"),
        pytest.param("Grüße aus Köln".encode(), "text/plain", id="utf-8-text"),
        pytest.param("Съешь же ещё".encode("cp1251"), "text/plain", id="legacy-text"),
        pytest.param(b"plain\x00text", "application/octet-stream", id="nul-is-binary"),
        pytest.param(b"esc\x1b(Bjis", "text/plain", id="esc-0x1b-is-not-binary"),
        pytest.param(b"ff\x0cff\r\n\t", "text/plain", id="ff-cr-lf-tab-are-not-binary"),
        pytest.param(b"vt\x0b", "application/octet-stream", id="vt-0x0b-is-binary"),
        pytest.param(b"a" * RESOURCE_HEADER + b"\x00", "text/plain", id="nul-beyond-header"),
        pytest.param(b"x<html>", "text/plain", id="html-not-at-the-start"),
        pytest.param(b"<htm", "text/plain", id="shorter-than-a-pattern"),
        pytest.param(b"<html", "text/plain", id="no-terminator-at-the-end"),
        pytest.param("\ufeff<html>".encode("utf-16-le"), "text/plain", id="utf-16le-bom"),
        pytest.param("\ufeff<html>".encode("utf-16-be"), "text/plain", id="utf-16be-bom"),
        pytest.param("\ufeff<html>".encode(), "text/plain", id="utf-8-bom-before-html"),
        pytest.param(b"\xff\xfe", "text/plain", id="bom-alone"),
        pytest.param(b'{"a": 1}', "text/plain", id="json-is-text-plain"),
    ],
)
def test_unknown_type(body: bytes, computed: str) -> None:
    assert identify_unknown(body) == computed


@given(st.binary(max_size=2 * RESOURCE_HEADER))
def test_computed_type_is_one_of_the_tables(body: bytes) -> None:
    # The stats key charset/sniffed_type/<type> stays bounded: every body computes one of
    # a fixed set of types.
    assert identify_unknown(body) in COMPUTED_TYPES
    assert identify_unknown(body, sniff_scriptable=False) in COMPUTED_TYPES


@pytest.mark.parametrize(
    ("computed", "kind"),
    [("text/html", "html"), ("text/xml", "xml"), ("text/plain", "text"), ("image/png", None)],
)
def test_sniffed_kind(computed: str, kind: str | None) -> None:
    assert sniffed_kind(computed) == kind


# --- Scrapy's response classes, and the class the computed type asks for ----------------

_OCTET = frozenset({"application/octet-stream"})
_HTML_PUBLIC = (
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
    '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
    '<html lang="ru"><head><meta charset="windows-1251"><title>Россия</title></head>'
    "<body><p>Съешь же ещё этих мягких французских булок</p></body></html>"
)
_UTF16 = "\ufeffGrüße aus Köln, Съешь же ещё".encode("utf-16-le")
#: An untyped body that starts with an XML declaration for KOI8-R and holds a <meta> for
#: windows-1251: text/xml by the table, KOI8-R from the declaration (as Firefox shows it).
_XML_WITH_META = (
    '<?xml version="1.0" encoding="koi8-r"?>\n<html><head><meta charset="windows-1251">'
    "<title>Новости</title></head><body><p>Съешь же ещё этих мягких французских булок</p>"
    "</body></html>"
).encode("koi8-r")
_PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02"


@pytest.mark.parametrize(
    ("headers", "url", "body", "scrapy_class", "new_class", "computed"),
    [
        pytest.param(
            {}, "http://example.ru/page", _HTML_PUBLIC.encode("cp1251"),
            TextResponse, HtmlResponse, "text/html", id="html-doctype-public-made-text",
        ),
        pytest.param(
            {}, "http://example.de/note", _UTF16,
            Response, TextResponse, "text/plain", id="utf-16-bom-made-response",
        ),
        pytest.param(
            {"Content-Type": "application/octet-stream"}, "http://example.ru/get",
            _HTML_PUBLIC.encode("cp1251"),
            TextResponse, HtmlResponse, "text/html", id="octet-stream-html",
        ),
        pytest.param(
            {"Content-Type": "unknown/unknown"}, "http://example.de/x", _UTF16,
            Response, TextResponse, "text/plain", id="unknown-unknown-utf-16",
        ),
        pytest.param(
            {}, "http://example.org/feed", b'<?xml version="1.0"?><rss></rss>',
            XmlResponse, XmlResponse, "text/xml", id="xml-stays-xml",
        ),
        pytest.param(
            {}, "http://example.org/a.json", '{"q": "Grüße"}'.encode(),
            JsonResponse, JsonResponse, "text/plain", id="json-url-keeps-scrapy-class",
        ),
        pytest.param(
            # 7.1 reads the table in order from the start: "<?xml" is text/xml, whatever
            # <html> Scrapy finds in the first bytes.
            {}, "http://example.ru/news", _XML_WITH_META,
            HtmlResponse, XmlResponse, "text/xml", id="xml-declaration-before-html",
        ),
        pytest.param(
            {}, "http://example.ru/news.html", _XML_WITH_META,
            HtmlResponse, HtmlResponse, "text/xml", id="html-url-keeps-scrapy-class",
        ),
        pytest.param(
            # The reverse: Scrapy saw "<?xml" and no "<html>"; the table says text/html.
            {}, "http://example.org/x", b'<!DOCTYPE html><p>see <?xml version="1.0"?></p>',
            XmlResponse, HtmlResponse, "text/html", id="html-doctype-before-xml",
        ),
        pytest.param(
            {}, "http://example.org/x", b"note: <html><p>x</p>",
            HtmlResponse, HtmlResponse, "text/plain", id="markup-never-made-plain-text",
        ),
        pytest.param(
            {}, "http://example.org/pixel", _PNG,
            Response, Response, "image/png", id="png-stays-binary",
        ),
        pytest.param(
            {"X-Content-Type-Options": "nosniff"}, "http://example.ru/page",
            _HTML_PUBLIC.encode("cp1251"),
            TextResponse, TextResponse, "text/plain", id="nosniff-html-stays-text",
        ),
    ],
)  # fmt: skip
def test_response_class_follows_the_computed_type(
    headers: dict[str, str],
    url: str,
    body: bytes,
    *,
    scrapy_class: type[Response],
    new_class: type[Response],
    computed: str,
) -> None:
    scrapy_headers = Headers(headers)
    cls = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
    assert cls is scrapy_class  # what Scrapy chose, the starting point
    response = cls(url=url, headers=scrapy_headers, body=body)
    sniffed, found = sniff_unknown_type(response, _OCTET)
    assert found == computed
    assert type(sniffed) is new_class
    assert sniffed.body is body
    assert sniffed.headers == response.headers


@settings(deadline=None)
@given(
    st.binary(max_size=2 * RESOURCE_HEADER),
    st.sampled_from([None, "application/octet-stream", "unknown/unknown", "*/*", "image/png"]),
    st.sampled_from([Response, TextResponse, HtmlResponse, JsonResponse]),
)
def test_sniffing_keeps_the_response(
    body: bytes, content_type: str | None, cls: type[Response]
) -> None:
    # Whatever the body: the same URL, status, headers and body bytes; only a generic class
    # changes, and only to the class of a text type.
    headers = {"Content-Type": content_type} if content_type else {}
    response = cls("http://example.org/", headers=headers, body=body)
    sniffed, computed = sniff_unknown_type(response, _OCTET)
    assert sniffed.body is response.body
    assert (sniffed.url, sniffed.status) == (response.url, response.status)
    assert sniffed.headers == response.headers
    if type(sniffed) is not cls:
        # A generic class, or Scrapy's markup class for the other markup type.
        assert cls in (Response, TextResponse) or computed in ("text/html", "text/xml")
        assert computed in ("text/html", "text/xml", "text/plain")
    if computed is not None:
        assert computed in COMPUTED_TYPES


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({"Content-Type": "text/plain"}, id="informative-type"),
        pytest.param({"Content-Type": "image/png"}, id="binary-type"),
        pytest.param({"Content-Encoding": "br"}, id="still-compressed"),
    ],
)
def test_an_informative_type_is_not_sniffed(headers: dict[str, str]) -> None:
    response = TextResponse("http://example.org/", headers=headers, body=b"<html><p>x</p>")
    assert sniff_unknown_type(response) == (response, None)


def test_decision_records_the_sniffed_type() -> None:
    decision = EncodingDecision(
        "UTF-16LE", Source.BOM, Confidence.CERTAIN, sniffed_type="text/plain"
    )
    assert decision.as_dict()["sniffed_type"] == "text/plain"
    plain = EncodingDecision("UTF-8", Source.UTF8, Confidence.TENTATIVE)
    assert "sniffed_type" not in plain.as_dict()


# --- A real crawl ------------------------------------------------------------------------

_FR = "<p>Les élèves ont étudié à l'école près de la forêt.</p>"
_ROUTES: dict[str, Page] = {
    "/html": Page(_HTML_PUBLIC.encode("cp1251")),
    "/utf16": Page(_UTF16),
    "/octet": Page(
        ("<html>\n" + _FR).encode("cp1252"), {"Content-Type": "application/octet-stream"}
    ),
    "/png": Page(_PNG),
    "/nosniff": Page(_HTML_PUBLIC.encode("cp1251"), {"X-Content-Type-Options": "nosniff"}),
}


@pytest.fixture(scope="module")
def crawled() -> dict[str, dict[str, Any]]:
    with serve(_ROUTES) as base:
        result = run_crawl(
            [base + path for path in _ROUTES],
            {"ADDONS": {"scrapy_charset.Addon": 0}, "LOG_LEVEL": "INFO"},
        )
    out = {path: result.response(path) for path in _ROUTES}
    out["stats"] = result.charset_stats()
    return out


@pytest.mark.parametrize(
    ("path", "cls", "text", "encoding", "sniffed"),
    [
        pytest.param("/html", "HtmlResponse", _HTML_PUBLIC, "windows-1251", "text/html",
                     id="html-meta-is-read"),
        pytest.param("/utf16", "TextResponse", _UTF16.decode("utf-16"), "UTF-16LE",
                     "text/plain", id="utf-16-bom-decoded"),
        pytest.param("/octet", "HtmlResponse", "<html>\n" + _FR, "windows-1252", "text/html",
                     id="octet-stream-html"),
        pytest.param("/nosniff", "TextResponse", None, None, "text/plain", id="nosniff"),
    ],
)  # fmt: skip
def test_crawl_without_content_type(
    crawled: dict[str, dict[str, Any]],
    path: str,
    *,
    cls: str,
    text: str | None,
    encoding: str | None,
    sniffed: str,
) -> None:
    record = crawled[path]
    assert record["class"] == cls
    assert record["meta_charset"]["sniffed_type"] == sniffed
    if text is not None:
        assert record["text"] == text
        assert record["meta_charset"]["encoding"] == encoding


def test_crawl_binary_without_content_type_is_left_alone(
    crawled: dict[str, dict[str, Any]],
) -> None:
    assert crawled["/png"]["class"] == "Response"
    assert crawled["/png"]["meta_charset"] is None
    stats = crawled["stats"]
    assert stats["charset/sniffed_type/text/html"] == 2
    assert stats["charset/sniffed_type/text/plain"] == 2
    assert stats["charset/skipped/not_text"] == 1


# --- The table at the start of a body, through the middleware ----------------------------


def _middleware() -> Any:
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from scrapy_charset.responses.middleware import CharsetMiddleware

    return build_from_crawler(CharsetMiddleware, get_crawler(settings_dict={}))


def _through_middleware(body: bytes, url: str = "http://example.org/doc") -> Response:
    from scrapy import Request

    cls = responsetypes.from_args(url=url, body=body)
    request = Request(url)
    response = cls(url=url, body=body, request=request)
    result = _middleware().process_response(request, response)
    assert isinstance(result, Response)
    return result


def test_xml_declaration_decides_over_a_later_meta() -> None:
    response = _through_middleware(_XML_WITH_META, "http://example.ru/news")
    assert type(response) is XmlResponse
    assert isinstance(response, TextResponse)
    decision = response.meta["charset"]
    assert (decision["encoding"], decision["source"]) == ("KOI8-R", "xml-declaration")
    assert decision["sniffed_type"] == "text/xml"
    assert response.text == _XML_WITH_META.decode("koi8-r")


#: The response class the middleware gives each computed text type.
_CLASS_OF = {"text/html": HtmlResponse, "text/xml": XmlResponse, "text/plain": TextResponse}


@pytest.mark.parametrize(("table", "row"), _TABLE_ROWS)
def test_every_pattern_at_the_start_of_a_body(table: tuple[Signature, ...], row: Signature) -> None:
    # Each row of 7.1's tables at the start of an untyped body, then text in windows-1251:
    # the response gets the class of the computed type, and a text type is decoded (a
    # binary one is left alone, whatever class Scrapy chose).
    body = _example(row) + "<p>Съешь же ещё этих мягких французских булок</p>".encode("cp1251")
    computed = identify_unknown(body)
    assert computed == row.mime_type
    scrapy_class = responsetypes.from_args(url="http://example.org/doc", body=body)
    response = _through_middleware(body)
    expected = _CLASS_OF.get(computed, scrapy_class)
    assert type(response) is expected
    if isinstance(response, TextResponse):
        # A binary type leaves the class Scrapy chose: a TextResponse is decoded as text
        # (as before), and the decision records the type browsers compute.
        assert response.meta["charset"]["sniffed_type"] == computed
    else:
        assert "charset" not in response.meta
