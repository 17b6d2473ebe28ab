"""Every consumer of ``response.encoding`` a user pairs the add-on with, on a feed and a
page in each legacy encoding that hold the sequences lxml's own tables read otherwise
(measured, ``scrapy_charset/whatwg/_lxml_names.py``): Shift_JIS's six pairs, Big5's euro
sign, EUC-JP, GBK and gb18030, EUC-KR, and every byte of every single-byte encoding.

Each consumer gives the browser's text, or, for lxml used directly with a name no lxml
table reads exactly, refuses the name with ``LookupError``:

- Scrapy's ``xmliter_lxml`` (``XMLFeedSpider``'s ``iternodes``) and ``Selector(response,
  type="xml")``;
- ``lxml.html.fromstring(body, parser=HTMLParser(encoding=response.encoding))`` and
  ``lxml.etree.XMLParser(encoding=response.encoding)``;
- ``parsel.Selector(body=response.body, encoding=response.encoding)``, as Scrapy's newer
  selectors build it (parsel 1.12 and later decode a body that is not UTF-8 in Python).
"""

from __future__ import annotations

import unicodedata

import lxml.etree
import lxml.html
import parsel
import pytest
from scrapy.http import HtmlResponse, Request, TextResponse, XmlResponse
from scrapy.selector import Selector
from scrapy.utils.iterators import xmliter_lxml
from scrapy.utils.test import get_crawler

from scrapy_charset.responses.middleware import CharsetMiddleware
from scrapy_charset.whatwg import _lxml_names, singlebyte
from scrapy_charset.whatwg.codecs import (
    DECODERS,
    STANDARD_NAMES,
    is_private_codec,
    private_codec_name,
)

#: Shift_JIS's six pairs as libiconv's CP932 reads them otherwise, and as browsers read them.
SIX_PAIRS = "営業時間 9時～18時 ∥ －5 ￠ ￡ ￢"


def _single_byte(name: str) -> bytes:
    """Every byte of a single-byte encoding's upper half that browsers map, and each
    combining mark after a letter (libiconv composes some)."""
    table = singlebyte.DECODING_TABLES[name]
    mapped = [byte for byte in range(0x80, 0x100) if table[byte] != "\ufffd"]
    marks = [byte for byte in mapped if unicodedata.combining(table[byte])]
    return bytes(mapped) + b" " + b" ".join(b"a" + bytes((mark,)) for mark in marks)


def _measured(name: str) -> bytes:
    """Each sequence lxml reads otherwise, between spaces, after common characters."""
    common = {"EUC-KR": "한국어 "}.get(name, "中文 ")
    return _encoded(common, name) + b" ".join(_lxml_names.DIFFERING[name])


def _encoded(text: str, encoding: str) -> bytes:
    return text.encode(private_codec_name(encoding))


#: (encoding, label declared, content): the bytes each document holds as its text.
CASES = [
    pytest.param("Shift_JIS", "shift_jis", _encoded(SIX_PAIRS, "Shift_JIS"), id="sjis-six-pairs"),
    pytest.param(
        "Shift_JIS", "shift_jis", _encoded("営業時間 9時から18時", "Shift_JIS"), id="sjis-plain"
    ),
    pytest.param("Shift_JIS", "shift_jis", _measured("Shift_JIS"), id="sjis-measured"),
    pytest.param("Big5", "big5", _encoded("字典,€25", "Big5"), id="big5-euro"),
    pytest.param("Big5", "big5", _measured("Big5"), id="big5-measured"),
    pytest.param("EUC-JP", "euc-jp", _measured("EUC-JP"), id="euc-jp-measured"),
    pytest.param("EUC-JP", "euc-jp", _encoded("日本語", "EUC-JP"), id="euc-jp-plain"),
    pytest.param("GBK", "gbk", _measured("GBK"), id="gbk-measured"),
    pytest.param("GBK", "gbk", _encoded("中文", "GBK"), id="gbk-plain"),
    pytest.param("gb18030", "gb18030", _measured("gb18030"), id="gb18030-measured"),
    pytest.param("EUC-KR", "euc-kr", _encoded("한국어 텍스트", "EUC-KR"), id="euc-kr"),
    *(
        pytest.param(name, name.lower(), _single_byte(name), id=name)
        for name in singlebyte.DECODING_TABLES
        if name in STANDARD_NAMES
    ),
]


def _middleware() -> CharsetMiddleware:
    return CharsetMiddleware.from_crawler(get_crawler(settings_dict={"CHARSET_DETECTOR": "none"}))


def _decided(cls: type[TextResponse], url: str, body: bytes, content_type: str) -> TextResponse:
    request = Request(url)
    response = cls(url, body=body, headers={"Content-Type": content_type}, request=request)
    result = _middleware().process_response(request, response)
    assert isinstance(result, cls)
    return result


@pytest.mark.parametrize(("encoding", "label", "content"), CASES)
def test_feed(encoding: str, label: str, content: bytes) -> None:
    """A feed declared in its XML declaration only."""
    body = (
        f'<?xml version="1.0" encoding="{label}"?>\n<rss><channel><item><title>'.encode()
        + content
        + b"</title></item></channel></rss>"
    )
    expected = DECODERS[encoding](content)
    response = _decided(XmlResponse, "https://example.com/feed.xml", body, "application/xml")
    assert response.meta["charset"]["encoding"] == encoding
    titles = [node.xpath("title/text()").get() for node in xmliter_lxml(response, "item")]
    assert titles == [expected]
    assert Selector(response, type="xml").xpath("//title/text()").get() == expected
    selector = parsel.Selector(body=response.body, encoding=response.encoding, type="xml")
    assert selector.xpath("//title/text()").get() == expected
    if is_private_codec(response.encoding):
        with pytest.raises(LookupError):
            lxml.etree.XMLParser(encoding=response.encoding)
    else:
        parser = lxml.etree.XMLParser(encoding=response.encoding)
        assert lxml.etree.fromstring(response.body, parser).findtext(".//title") == expected


@pytest.mark.parametrize(("encoding", "label", "content"), CASES)
def test_page(encoding: str, label: str, content: bytes) -> None:
    """A page declared in its ``<meta>`` only."""
    body = (
        f'<!DOCTYPE html><html><head><meta charset="{label}"><title>t</title></head>'
        "<body><p>".encode()
        + content
        + b"</p></body></html>"
    )
    expected = DECODERS[encoding](content)
    response = _decided(HtmlResponse, "https://example.com/", body, "text/html")
    assert response.meta["charset"]["encoding"] == encoding
    assert response.css("p::text").get() == expected
    selector = parsel.Selector(body=response.body, encoding=response.encoding)
    assert selector.css("p::text").get() == expected
    assert selector.css("p::text").get() == Selector(text=response.text).css("p::text").get()
    if is_private_codec(response.encoding):
        with pytest.raises(LookupError):
            lxml.html.HTMLParser(encoding=response.encoding)
    else:
        parser = lxml.html.HTMLParser(encoding=response.encoding)
        root = lxml.html.fromstring(response.body, parser=parser)
        assert root.xpath("string(//p)") == expected


def test_six_pairs_keep_the_whatwg_name() -> None:
    """The page of the issue: libiconv's CP932 would read 〜 for ～; the name is refused."""
    body = _encoded(f'<meta charset="shift_jis"><p>{SIX_PAIRS}</p>', "Shift_JIS")
    response = _decided(HtmlResponse, "https://example.com/", body, "text/html")
    assert response.encoding == "whatwg-shift_jis"
    plain = HtmlResponse("https://example.com/", body=body, headers={"Content-Type": "text/html"})
    assert plain.encoding == "cp932"  # Scrapy's own name, which lxml reads otherwise
    found = lxml.html.fromstring(body, parser=lxml.html.HTMLParser(encoding="cp932"))
    assert found.xpath("string(//p)") == "営業時間 9時〜18時 ‖ −5 ¢ £ ¬"


@pytest.mark.parametrize(
    ("encoding", "label", "path"),
    [
        # libiconv's Shift_JIS reads ~ as U+203E; its CP932 ～ as U+301C.
        pytest.param("Shift_JIS", "Shift_JIS", "~u/9時～18時", id="shift_jis"),
        pytest.param("Big5", "big5", "價格/€", id="big5-euro"),
        pytest.param("windows-1251", "windows-1251", "~u/Москва", id="1251"),
        pytest.param("UTF-8", "utf-8", "~u/東京", id="utf-8-as-is"),
    ],
)
def test_sitemap(encoding: str, label: str, path: str) -> None:
    """``SitemapSpider`` parses a sitemap's bytes under its own XML declaration, not
    ``response.encoding``: a decided sitemap in a legacy encoding is given as its text."""
    from scrapy.spiders import SitemapSpider

    class Spider(SitemapSpider):
        name = "sitemap"

    loc = f"http://example.com/{path}"
    body = _encoded(
        f'<?xml version="1.0" encoding="{label}"?>\n<urlset><url><loc>{loc}</loc></url></urlset>',
        encoding,
    )
    response = _decided(XmlResponse, "https://example.com/sitemap.xml", body, "text/xml")
    assert response.meta["charset"]["encoding"] == encoding
    found = [request.url for request in Spider()._parse_sitemap(response)]
    assert found == [Request(loc).url]
