"""docs/differences.md, "Deliberate differences from Scrapy's built-in decoding": one test per
row.

Each case is a body as a server sends it and the text a browser shows (the Encoding
Standard's decoders, the HTML Standard's sniffing). Scrapy alone gives other text; through
``CharsetMiddleware`` the response's ``.text`` is the browser's. The rows about labels
browsers refuse are in ``test_hostile.py``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse, JsonResponse, TextResponse, XmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_charset.responses.middleware import CharsetMiddleware
from tests.spec import REPO

URL = "https://example.com/"


def row(
    id: str, body: bytes, content_type: str | None, browser_text: str, cls: type = HtmlResponse
) -> Any:
    return pytest.param(cls, body, content_type, browser_text, id=id)


ROWS = [
    # HTML Standard, prescan: a <meta> that declares UTF-16 means UTF-8.
    row(
        "meta-utf-16-is-utf-8",
        '<meta charset="utf-16"><p>Café Zürich</p>'.encode(),
        None,
        '<meta charset="utf-16"><p>Café Zürich</p>',
    ),
    # HTML Standard, prescan: a "<meta" inside another tag's attribute value is no <meta>.
    row(
        "meta-in-attribute-ignored",
        "<a title='<meta charset=koi8-r>'>x</a><p>café crème".encode(),
        None,
        "<a title='<meta charset=koi8-r>'>x</a><p>café crème",
    ),
    # RFC 8259, 8.1: JSON is UTF-8; a header naming another encoding is not honoured.
    row(
        "json-is-utf-8",
        '{"a": "México"}'.encode(),
        "application/json; charset=iso-8859-1",
        '{"a": "México"}',
        JsonResponse,
    ),
    # Encoding Standard, windows-1252 index: 0x81, 0x8D, 0x8F, 0x90, 0x9D are C1 controls
    # (Python's cp1252 rejects them: U+FFFD in Scrapy).
    row(
        "windows-1252-c1-bytes",
        b"<p>a\x81b\x8dc\x8fd\x90e\x9df",
        "text/html; charset=windows-1252",
        "<p>a\x81b\x8dc\x8fd\x90e\x9df",
    ),
    row(
        "iso-8859-1-is-windows-1252",
        b"<p>\x80 \x81",
        "text/html; charset=iso-8859-1",
        "<p>€ \x81",
    ),
    # KOI8-U index: 0xAE and 0xBE are Ukrainian/Belarusian letters, not box drawing.
    row("koi8-u-ae-be", b"<p>\xae\xbe", "text/html; charset=koi8-u", "<p>ўЎ"),
    # Labels Python has no codec under.
    row(
        "x-mac-cyrillic",
        "<p>Привет".encode("mac_cyrillic"),
        "text/html; charset=x-mac-cyrillic",
        "<p>Привет",
    ),
    row(
        "iso-8859-8-i",
        "<p>שלום".encode("iso8859_8"),
        "text/html; charset=iso-8859-8-i",
        "<p>שלום",
    ),
    row(
        "x-user-defined",
        b"<p>\x80\xff",
        "text/html; charset=x-user-defined",
        "<p>\uf780\uf7ff",
    ),
    # EUC-JP uses the jis0208 index: A1 C1 is U+FF5E FULLWIDTH TILDE (Python: U+301C), and
    # the NEC row 13 is there (AD A1 is U+2460 CIRCLED DIGIT ONE).
    row("euc-jp-a1c1", b"<p>\xa1\xc1", "text/html; charset=euc-jp", "<p>\uff5e"),
    row("euc-jp-nec-row-13", b"<p>\xad\xa1", "text/html; charset=euc-jp", "<p>①"),
    # Shift_JIS decoder: 0x80 is U+0080, 0xA0 and 0xFD are errors (Python's cp932 maps them
    # to private-use characters).
    row(
        "shift_jis-a0-fd", b"<p>\x80\xa0\xfd", "text/html; charset=shift_jis", "<p>\x80\ufffd\ufffd"
    ),
    # Big5 uses the big5 index: A3 E1 is the euro sign.
    row("big5-euro", b"<p>\xa3\xe1", "text/html; charset=big5", "<p>€"),
    # gb18030 index follows GB18030-2022: A3 A0 is U+3000 (Python: a private-use character).
    row("gb2312-a3a0", b"<p>\xa3\xa0x", "text/html; charset=gb2312", "<p>\u3000x"),
    # Encoding Standard, BOM sniff: FF FE is UTF-16LE's BOM; browsers have no UTF-32.
    row("ff-fe-00-00-is-utf-16le", b"\xff\xfe\x00\x00a\x00", None, "\x00a"),
]


#: "The scraping side's additions": the text the document holds, where browsers have none.
# pycountry's zh_CN names of languages: Scrapy alone reads them as mac-greek.
_GBK_NAMES = ["阿里语", "阿萨语", "阿巴迪语", "阿巴伽语", "阿拜伊语", "阿班杨语"]
_GBK_FEED = "<catalog>" + "".join(f"<name>{n}</name>" for n in _GBK_NAMES) + "</catalog>"
ADDITIONS = [
    # An undeclared XML feed that is not UTF-8 is detected as HTML is.
    row("xml-undeclared-gbk", _GBK_FEED.encode("gbk"), "application/xml", _GBK_FEED, XmlResponse),
]


@pytest.mark.parametrize(("cls", "body", "content_type", "browser_text"), ROWS + ADDITIONS)
def test_difference(
    cls: type[TextResponse], body: bytes, content_type: str | None, browser_text: str
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    scrapy_alone = cls(URL, body=body, headers=headers)
    assert scrapy_alone.text != browser_text

    middleware = build_from_crawler(CharsetMiddleware, get_crawler(settings_dict={}))
    request = Request(URL)
    response = cls(URL, body=body, headers=headers, request=request)
    processed = middleware.process_response(request, response)
    assert isinstance(processed, TextResponse)
    assert processed.text == browser_text
    assert processed.body is body  # the raw bytes stay untouched


def test_one_case_per_documented_row() -> None:
    """The first table of docs/differences.md names exactly the cases above."""
    page = (REPO / "docs" / "differences.md").read_text(encoding="utf-8")
    table = page.split("| Case (test id) |", 1)[1].split("\n\n", 1)[0]
    documented = {
        name
        for line in table.splitlines()[2:]
        for name in re.findall(r"`([^`]+)`", line.split("|")[1])
    }
    assert documented == {param.id for param in ROWS}


def test_one_case_per_documented_addition() -> None:
    """The table "The scraping side's additions" names exactly the cases of ADDITIONS."""
    page = (REPO / "docs" / "differences.md").read_text(encoding="utf-8")
    table = page.split("| Addition (test id) |", 1)[1].split("\n\n", 1)[0]
    documented = {
        name
        for line in table.splitlines()[2:]
        for name in re.findall(r"`([^`]+)`", line.split("|")[1])
    }
    assert documented == {param.id for param in ADDITIONS}


def test_undeclared_gbk_feed_parses_with_lxml() -> None:
    # response.encoding is a name lxml resolves, and it reads the feed's text with it.
    import io

    import lxml.etree
    from scrapy.utils.iterators import xmliter_lxml

    body = _GBK_FEED.encode("gbk")
    middleware = build_from_crawler(CharsetMiddleware, get_crawler(settings_dict={}))
    request = Request(URL + "feed.xml")
    response = XmlResponse(
        request.url, body=body, headers={"Content-Type": "application/xml"}, request=request
    )
    processed = middleware.process_response(request, response)
    assert isinstance(processed, XmlResponse)
    names = [
        e.text
        for _, e in lxml.etree.iterparse(io.BytesIO(body), encoding=processed.encoding, tag="name")
    ]
    assert names == _GBK_NAMES
    assert [n.xpath("text()").get() for n in xmliter_lxml(processed, "name")] == names
