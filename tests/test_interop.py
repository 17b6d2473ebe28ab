"""Interoperability: what ``response.encoding`` holds, and every consumer of it.

1. The name: the standard codec wherever it decodes the body exactly as the browser's
   decoder (Python, lxml and iconv all accept its spelling), the ``whatwg-*`` codec
   elsewhere.
2. A real crawl through ``ADDONS`` with each built-in spider kind (XMLFeedSpider with each
   iterator, CSVFeedSpider, SitemapSpider through robots.txt, an index and gzipped
   sitemaps, forms, links, loaders, JSON) and lxml given ``response.encoding``, on UTF-8,
   windows-1251, Shift_JIS and GBK documents: the same items as plain Scrapy, which is
   right on them, and the browser's text where plain Scrapy is not.
3. Stored decisions: a WHATWG name that decodes a stored body in a fresh process.
"""

from __future__ import annotations

import codecs
import io
import json
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import warnings
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus
from xml.sax.saxutils import escape

import lxml.etree
import lxml.html
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.http import HtmlResponse, Request, XmlResponse
from scrapy.utils.test import get_crawler

from scrapy_charset import codec_name, decode
from scrapy_charset.responses.middleware import CharsetMiddleware
from scrapy_charset.whatwg import singlebyte
from scrapy_charset.whatwg.bom import bom_sniff
from scrapy_charset.whatwg.codecs import (
    STANDARD_NAMES,
    is_private_codec,
    private_codec_name,
    response_codec,
)
from scrapy_charset.whatwg.labels import ENCODING_NAMES, LABELS, get_encoding
from tests import interop_site as site
from tests.corpus import LANGUAGES, encodable, have_catalogues
from tests.server import free_port, serve

REPO = Path(__file__).resolve().parents[1]

needs_catalogues = pytest.mark.skipif(
    not have_catalogues(), reason="pycountry's translation catalogues are not installed"
)


def _strip_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


# --- 1. the name -------------------------------------------------------------------------


@pytest.mark.parametrize(("encoding", "spelling"), sorted(STANDARD_NAMES.items()))
def test_spelling_is_known_to_python_lxml_and_iconv(encoding: str, spelling: str) -> None:
    codecs.lookup(spelling)
    lxml.etree.XMLParser(encoding=spelling)  # LookupError when libxml2 does not know it
    lxml.html.HTMLParser(encoding=spelling)
    iconv = shutil.which("iconv")
    if iconv is not None:
        sample = "<".encode(spelling)
        proc = subprocess.run(
            [iconv, "-f", spelling, "-t", "UTF-8"], input=sample, capture_output=True, check=False
        )
        assert proc.returncode == 0, proc.stderr


def _real_text(encoding: str) -> list[str]:
    """Real messages the encoding represents, from the corpus's languages for it."""
    locales = [loc for loc, _ in LANGUAGES.get(encoding, ())] or ["fr", "ru", "ja"]
    out: list[str] = []
    for locale in locales:
        out += [text for text, _ in encodable(locale, encoding)[:200]]
    return out


#: Encodings whose real text decodes exactly with the standard codec (all but the Apple
#: code pages, whose libiconv table differs from the standard's, see below).
REAL_TEXT_EXACT = sorted(
    name
    for name in STANDARD_NAMES
    if name not in ("macintosh", "x-mac-cyrillic", "UTF-16BE", "UTF-16LE")
    and (name in LANGUAGES or name == "UTF-8")
)


@needs_catalogues
@pytest.mark.parametrize("encoding", REAL_TEXT_EXACT)
def test_real_text_gets_the_standard_name(encoding: str) -> None:
    """Real text in each encoding carries its standard name, and Python's codec, lxml
    (XML and HTML parsers) and Scrapy's ``.text`` read it as the browser does."""
    text = "\n".join(_real_text(encoding) or ["Grüße"])
    python = "utf-8" if encoding == "UTF-8" else site_codec(encoding)
    body = f"<r>{escape(text)}</r>".encode(python)
    codec, _ = response_codec(body, encoding)
    if encoding in ("windows-1255", "windows-1258") and any(map(unicodedata.combining, text)):
        # libiconv composes a letter and its combining mark, browsers keep both.
        assert codec == private_codec_name(encoding)
        return
    assert codec == STANDARD_NAMES[encoding]
    browser = decode(body, encoding)
    assert body.decode(codec) == browser
    assert lxml.etree.fromstring(body, lxml.etree.XMLParser(encoding=codec)).text == text
    root = lxml.html.fromstring(body, parser=lxml.html.HTMLParser(encoding=codec))
    assert root.text_content() == text
    assert HtmlResponse("https://example.com/", body=body, encoding=codec).text == browser


def site_codec(encoding: str) -> str:
    """The Python codec the corpus writes *encoding* with."""
    from tests.corpus import _encoder

    return _encoder(encoding)


@pytest.mark.parametrize(
    ("encoding", "body", "codec"),
    [
        pytest.param("UTF-8", "Grüße".encode(), "utf-8", id="utf-8"),
        # Encoding Standard, UTF-8 decoder: one U+FFFD per maximal subpart, which is
        # Python's errors="replace"; the standard name stays.
        pytest.param("UTF-8", b"caf\xc3 \xed\xa0\x80", "utf-8", id="utf-8-invalid"),
        pytest.param("UTF-8", b"\xef\xbb\xbf<p>", "utf-8", id="utf-8-bom"),
        pytest.param("windows-1252", "café".encode("cp1252"), "windows-1252", id="1252"),
        # windows-1252 index: 0x81 is U+0081; Python's cp1252 has no 0x81.
        pytest.param("windows-1252", b"caf\x81", "whatwg-windows-1252", id="1252-c1"),
        pytest.param("windows-1251", b"\x98", "whatwg-windows-1251", id="1251-0x98"),
        # KOI8-U index: 0xAE is U+045E; Python's koi8_u has U+255D.
        pytest.param("KOI8-U", b"\xae", "whatwg-koi8-u", id="koi8-u-0xae"),
        pytest.param("KOI8-U", "Київ".encode("koi8_u"), "koi8-u", id="koi8-u"),
        pytest.param("ISO-8859-8-I", "שלום".encode("iso8859_8"), "iso-8859-8", id="8859-8-i"),
        pytest.param("windows-874", "ไทย".encode("cp874"), "cp874", id="874"),
        pytest.param("macintosh", b"plain ASCII", "macintosh", id="mac-ascii"),
        pytest.param("macintosh", "café".encode("mac_roman"), "macintosh", id="mac"),
        # libiconv's MACINTOSH is Apple's older table (0xDB is the currency sign).
        pytest.param("macintosh", "5€".encode("mac_roman"), "whatwg-macintosh", id="mac-euro"),
        pytest.param("x-mac-cyrillic", "Мир".encode("mac_cyrillic"), "maccyrillic", id="mac-cyr"),
        # ...and its MAC-CYRILLIC has no Ґ ґ (A2 B6) or euro sign (FF).
        pytest.param(
            "x-mac-cyrillic", "Ґ".encode("mac_cyrillic"), "whatwg-x-mac-cyrillic", id="mac-cyr-ghe"
        ),
        pytest.param("Shift_JIS", "日本語".encode("cp932"), "cp932", id="sjis"),
        # Shift_JIS decoder: 0xA0 is an error; cp932 gives U+F8F0.
        pytest.param("Shift_JIS", b"\xa0", "whatwg-shift_jis", id="sjis-0xa0"),
        pytest.param("Shift_JIS", b"\x82<", "whatwg-shift_jis", id="sjis-cut"),
        pytest.param("GBK", "中文".encode("gbk"), "gb18030", id="gbk"),
        # gb18030 decoder: 0x80 is U+20AC.
        pytest.param("GBK", b"100\x80", "whatwg-gbk", id="gbk-euro"),
        pytest.param("gb18030", "中文".encode("gb18030"), "gb18030", id="gb18030"),
        pytest.param("Big5", "中文".encode("big5"), "big5-hkscs", id="big5"),
        pytest.param("EUC-KR", "한국어".encode("cp949"), "cp949", id="euc-kr"),
        pytest.param("EUC-JP", "日本語".encode("euc_jp"), "euc-jp", id="euc-jp"),
        # EUC-JP index: A1 C1 is U+FF5E; Python's euc_jp gives U+301C.
        pytest.param("EUC-JP", b"\xa1\xc1", "whatwg-euc-jp", id="euc-jp-tilde"),
        pytest.param("UTF-16LE", "\ufeffé".encode("utf-16-le"), "utf-16le", id="utf-16le-bom"),
        pytest.param("UTF-16BE", b"\xd8\x00", "whatwg-utf-16be", id="utf-16be-lone"),
        pytest.param("ISO-2022-JP", "日本語".encode("iso2022_jp"), "iso-2022-jp", id="iso-2022-jp"),
        # ISO-2022-JP decoder: 0x0E is an error in the ASCII state; Python passes it.
        pytest.param("ISO-2022-JP", b"a\x0eb", "whatwg-iso-2022-jp", id="iso-2022-jp-so"),
        pytest.param("x-user-defined", b"abc", "whatwg-x-user-defined", id="x-user-defined"),
        pytest.param("replacement", b"abc", "whatwg-replacement", id="replacement"),
    ],
)
def test_response_codec(encoding: str, body: bytes, codec: str) -> None:
    found, text = response_codec(body, encoding)
    assert found == codec
    assert codec_name(encoding, body) == codec
    if text is not None:
        assert text == decode(body, encoding)
    # The name decodes the body as the browser does (a BOM aside: Python keeps it), with
    # Python's errors="replace" for UTF-8 (Scrapy's .text decodes so), strictly otherwise.
    errors = "replace" if encoding == "UTF-8" else "strict"
    assert _strip_bom(body.decode(found, errors)) == decode(body, encoding)


@given(body=st.binary(max_size=64), encoding=st.sampled_from(ENCODING_NAMES))
def test_standard_name_only_where_exact(body: bytes, encoding: str) -> None:
    """Whatever the bytes: a standard name decodes them strictly to the browser's text;
    a returned text is the browser's."""
    codec, text = response_codec(body, encoding)
    expected = decode(body, encoding)
    if text is not None:
        assert text == expected
    if is_private_codec(codec):
        assert codec == private_codec_name(encoding)
        return
    errors = "replace" if encoding == "UTF-8" else "strict"
    assert _strip_bom(body.decode(codec, errors)) == expected


@pytest.mark.parametrize(
    "encoding", sorted(n for n in singlebyte.DECODING_TABLES if n in STANDARD_NAMES)
)
def test_lxml_reads_single_byte_names_as_browsers_where_python_does(encoding: str) -> None:
    """Every byte a standard name is given for reads in libxml2 (libiconv) as in the
    browser: the byte-class check covers lxml's tables too."""
    table = singlebyte.DECODING_TABLES[encoding]
    codec = STANDARD_NAMES[encoding]
    for byte in range(0x80, 0x100):
        data = bytes((byte,))
        if response_codec(data, encoding)[0] != codec:
            continue
        parsed = lxml.etree.fromstring(
            b"<r>" + data + b"</r>", lxml.etree.XMLParser(encoding=codec)
        )
        assert parsed.text == table[byte], hex(byte)


def test_codec_name_refuses_what_is_not_a_label() -> None:
    with pytest.raises(LookupError):
        codec_name("utf-7")


@given(label=st.one_of(st.sampled_from(sorted(LABELS)), st.text(max_size=20)), body=st.binary())
def test_codec_name_is_a_python_codec_for_any_label(label: str, body: bytes) -> None:
    """Any string: a LookupError, or a codec Python finds that decodes *body* as the
    browser does (the whatwg-* codec without a body)."""
    try:
        name = codec_name(label)
    except LookupError:
        assert get_encoding(label) is None
        return
    encoding = get_encoding(label)
    assert encoding is not None
    # A BOM of another encoding decides before any codec (Encoding Standard, "decode"):
    # the middleware never names a codec against a BOM.
    found = bom_sniff(body)
    assume(found is None or found[0] == encoding)
    assert body.decode(name) == decode(body, encoding)
    chosen = codec_name(label, body)
    codecs.lookup(chosen)
    errors = "replace" if encoding == "UTF-8" else "strict"
    assert _strip_bom(body.decode(chosen, errors)) == decode(body, encoding)


# --- 2. consumers of a whatwg-* name -----------------------------------------------------


@cache
def _middleware() -> CharsetMiddleware:
    crawler = get_crawler(settings_dict={"CHARSET_DETECTOR": "none"})
    return CharsetMiddleware.from_crawler(crawler)


#: Byte order marks of UTF-32, which w3lib reads before any codec (and browsers do not):
#: the middleware hands the text over for them, a copy of the response loses it.
_UTF32_LOOKALIKES = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")


@settings(max_examples=300, deadline=None)
@given(
    body=st.binary(min_size=1, max_size=120),
    label=st.sampled_from(sorted(LABELS)),
    where=st.sampled_from(["header", "meta"]),
)
def test_the_name_alone_gives_scrapy_the_browser_text(body: bytes, label: str, where: str) -> None:
    """Whatever the bytes and the declaration: the rebuilt response's ``.text`` is the
    browser's, and so is the ``.text`` of a copy that has only ``response.encoding`` to go
    by (``replace()``, a cache, another process), w3lib's BOM handling included."""
    if where == "meta":
        body = f'<meta charset="{label}">'.encode() + body
    header = f"text/html; charset={label}" if where == "header" else "text/html"
    request = Request("https://example.com/")
    response = HtmlResponse(
        request.url, body=body, headers={"Content-Type": header}, request=request
    )
    result = _middleware().process_response(request, response)
    assert isinstance(result, HtmlResponse)
    browser = decode(body, request.meta["charset"]["encoding"])
    assert result.text == browser
    if not body.startswith(_UTF32_LOOKALIKES):
        copy = HtmlResponse(request.url, body=body, encoding=result.encoding)
        assert copy.text == browser


def test_xmliter_lxml_reads_the_text_of_a_whatwg_response() -> None:
    """``XMLFeedSpider``'s iterator hands ``response.encoding`` to lxml: for a body that
    keeps a whatwg-* codec it reads the text (Encoding Standard, gb18030 decoder: 0x80
    is the euro sign)."""
    from scrapy.utils.iterators import xmliter_lxml

    body = '<?xml version="1.0" encoding="gbk"?><r><n>价格 100'.encode("gbk") + b"\x80</n></r>"
    request = Request("https://example.com/feed.xml")
    response = XmlResponse(
        request.url, body=body, headers={"Content-Type": "application/xml"}, request=request
    )
    result = _middleware().process_response(request, response)
    assert isinstance(result, XmlResponse)
    assert result.encoding == "whatwg-gbk"
    assert [n.xpath("text()").get() for n in xmliter_lxml(result, "n")] == ["价格 100€"]


@pytest.mark.parametrize(
    ("label", "codec", "extra"),
    [
        # gb18030 decoder: 0x80 is U+20AC.
        pytest.param("gbk", "gbk", b"\x80", id="gbk-euro"),
        # windows-1252 index: 0x81 is U+0081.
        pytest.param("windows-1252", "cp1252", b"\x81", id="1252-c1"),
    ],
)
def test_page_features_on_a_whatwg_response(label: str, codec: str, extra: bytes) -> None:
    """Selectors, loaders, forms, follow and links on a page that keeps a whatwg-* codec:
    the browser's text, and URLs encoded in the page's encoding as Scrapy does."""
    from scrapy import FormRequest
    from scrapy.linkextractors import LinkExtractor
    from scrapy.loader import ItemLoader

    word = "España" if codec == "cp1252" else "中国"
    body = (
        f'<meta charset="{label}"><title>{word}</title>'.encode(codec)
        + b"<p>"
        + extra
        + f'</p><form action="/s"><input name="q" value="{word}"></form>'
        f'<a href="/a?q={word}">{word}</a>'.encode(codec)
    )
    request = Request("https://example.com/")
    response = HtmlResponse(
        request.url, body=body, headers={"Content-Type": "text/html"}, request=request
    )
    result = _middleware().process_response(request, response)
    assert isinstance(result, HtmlResponse)
    assert result.encoding == private_codec_name(request.meta["charset"]["encoding"])
    assert result.css("p::text").get() == decode(extra, label)
    loader = ItemLoader(item={}, response=result)
    loader.add_css("title", "title::text")
    assert loader.load_item() == {"title": [word]}
    query = quote_plus(word.encode(codec))
    with warnings.catch_warnings():  # deprecated in Scrapy 2.19, still built in
        warnings.simplefilter("ignore", ScrapyDeprecationWarning)
        form = FormRequest.from_response(result)
    assert form.url == f"https://example.com/s?q={query}"
    assert result.follow(result.css("a")[0]).url == f"https://example.com/a?q={query}"
    links = LinkExtractor().extract_links(result)
    assert [(link.url, link.text) for link in links] == [(f"https://example.com/a?q={query}", word)]


def test_open_in_browser_writes_the_body_bytes() -> None:
    from scrapy.utils.response import open_in_browser

    body = '<html><head><meta charset="gbk"></head><p>价格 100'.encode("gbk") + b"\x80</p>"
    request = Request("https://example.com/")
    response = HtmlResponse(
        request.url, body=body, headers={"Content-Type": "text/html"}, request=request
    )
    result = _middleware().process_response(request, response)
    assert isinstance(result, HtmlResponse)
    written: list[bytes] = []

    def opened(url: str) -> bool:
        written.append(Path(url.removeprefix("file://")).read_bytes())
        return True

    open_in_browser(result, _openfunc=opened)
    open_in_browser(response, _openfunc=opened)  # plain Scrapy: the same file
    assert b'<base href="https://example.com/">' in written[0]
    assert written[0] == written[1]
    assert written[0].endswith(body[-20:])


# --- 3. stored decisions -----------------------------------------------------------------


def test_stored_decision_decodes_in_a_fresh_process() -> None:
    """meta["charset"] stores the WHATWG name; another process decodes a stored body with
    it through scrapy_charset.decode() or codec_name(), nothing else imported."""
    body = "Съешь же ещё".encode("cp1251") + b"\x98"
    request = Request("https://example.ru/")
    response = HtmlResponse(
        request.url,
        body=body,
        headers={"Content-Type": "text/html; charset=windows-1251"},
        request=request,
    )
    _middleware().process_response(request, response)
    stored = json.dumps({"body": body.hex(), "charset": request.meta["charset"]})
    assert json.loads(stored)["charset"]["encoding"] == "windows-1251"
    script = (
        "import json, sys, scrapy_charset\n"
        "record = json.loads(sys.stdin.read())\n"
        "body, name = bytes.fromhex(record['body']), record['charset']['encoding']\n"
        "print(json.dumps([scrapy_charset.decode(body, name),"
        " body.decode(scrapy_charset.codec_name(name))]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        input=stored,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(REPO)},
    )
    assert json.loads(proc.stdout) == ["Съешь же ещё\x98"] * 2


def test_a_stored_whatwg_name_decodes_after_importing_the_package() -> None:
    """A ``response.encoding`` stored as it was (``whatwg-*``) decodes in a process that
    imports the package and nothing of it, as with any codec package."""
    script = (
        "import scrapy_charset, sys\n"
        "assert 'scrapy_charset.whatwg.codecs' not in sys.modules\n"
        "print(bytes.fromhex(sys.argv[1]).decode('whatwg-windows-1251'))\n"
    )
    body = "Москва".encode("cp1251") + b"\x98"
    proc = subprocess.run(
        [sys.executable, "-c", script, body.hex()],
        capture_output=True,
        check=True,
        env={"PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.stdout.decode("utf-8") == "Москва\x98\n"


# --- 4. the crawl ------------------------------------------------------------------------


def _crawl(base: str, settings: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        proc = subprocess.run(
            [sys.executable, "-m", "tests.interop_site", base, json.dumps(settings), str(out)],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=REPO,
            check=False,
        )
        if proc.returncode != 0 or not out.exists():
            raise AssertionError(f"crawl failed ({proc.returncode}):\n{proc.stderr[-5000:]}")
        result: dict[str, Any] = json.loads(out.read_text("utf-8"))
        result["log"] = proc.stderr
        return result


@pytest.fixture(scope="module")
def crawls() -> tuple[str, dict[str, Any], dict[str, Any]]:
    if not have_catalogues():
        pytest.skip("pycountry's translation catalogues are not installed")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(site.routes(base), port=port):
        plain = _crawl(base, {})
        ours = _crawl(base, {"ADDONS": {"scrapy_charset.Addon": 0}})
    return base, plain, ours


def _items(result: dict[str, Any], spider: str, doc: str) -> list[dict[str, Any]]:
    found = [
        {k: v for k, v in item.items() if k not in ("spider", "doc")}
        for item in result["items"]
        if item["spider"] == spider and item["doc"] == doc
    ]
    return sorted(found, key=lambda item: json.dumps(item, ensure_ascii=False))


def _expected_by_case() -> dict[tuple[str, str], list[dict[str, Any]]]:
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for case in site.expected("") if have_catalogues() else []:
        out.setdefault((case.spider, case.doc), []).append(case.item)
    return {
        key: sorted(v, key=lambda i: json.dumps(i, ensure_ascii=False)) for key, v in out.items()
    }


EXPECTED = _expected_by_case()
DIFFERING_DOCS = {f"/{slug}/feed.xml" for slug in site.DIFFERING}
UNDECLARED_DOCS = {f"/{slug}/feed-undeclared.xml" for slug in site.UNDECLARED}


@needs_catalogues
@pytest.mark.parametrize(
    ("spider", "doc"),
    [pytest.param(*key, id=f"{key[0]}:{key[1]}") for key in sorted(EXPECTED)],
)
def test_crawl_items(
    crawls: tuple[str, dict[str, Any], dict[str, Any]], spider: str, doc: str
) -> None:
    _, plain, ours = crawls
    expected = EXPECTED[(spider, doc)]
    got = _items(ours, spider, doc)
    if doc == site.SLIP:
        # Plain Scrapy decodes the page as UTF-16 (or fails on it); the browser's text.
        assert _items(plain, spider, doc) != expected
        assert got == expected
    elif doc in UNDECLARED_DOCS:
        # No declaration anywhere, not UTF-8: detected as HTML is (the scraping side's
        # addition), so every iterator and lxml itself read the feed's text; plain Scrapy
        # depends on charset-normalizer's guess.
        assert got == expected
    elif doc not in DIFFERING_DOCS:
        # Plain Scrapy is right on these documents: the add-on changes nothing.
        assert _items(plain, spider, doc) == expected
        assert got == expected
    elif spider == "lxml-iterparse":
        # lxml given a whatwg-* name directly cannot resolve it (decode the body with
        # response.text or scrapy_charset.decode instead); plain Scrapy's name resolves
        # but libxml2 stops at the bytes a browser reads.
        assert got == [{"names": ["LookupError"]}]
        assert _items(plain, spider, doc) == [{"names": ["XMLSyntaxError"]}]
    else:
        # The browser's text, through every iterator.
        assert got == expected


@needs_catalogues
def test_crawl_plain_scrapy_fails_where_the_browser_reads(
    crawls: tuple[str, dict[str, Any], dict[str, Any]],
) -> None:
    """On the differing documents, plain Scrapy's iternodes stops (libxml2 rejects the
    bytes); with the add-on every spider runs without an error."""
    _, plain, ours = crawls
    assert ours["errors"] == []
    failed = {error.rsplit(" ", 1)[0] for error in plain["errors"]}
    assert {f"feed-iternodes {doc}" for doc in DIFFERING_DOCS} <= failed
    assert "Traceback" not in ours["log"]


@needs_catalogues
def test_crawl_decisions_are_counted(crawls: tuple[str, dict[str, Any], dict[str, Any]]) -> None:
    _, _, ours = crawls
    assert "scrapy-charset:" in ours["log"]


# --- scrapy shell and scrapy parse -------------------------------------------------------


def _scrapy(args: list[str], env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", **(env or {})},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@needs_catalogues
def test_scrapy_shell_and_parse() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    slug = "sjis"
    title = site.messages(slug)[0]
    with serve(site.routes(base), port=port):
        shell = _scrapy(
            [
                "shell",
                "-s",
                'ADDONS={"scrapy_charset.Addon": 0}',
                "--nolog",
                f"{base}/{slug}/p0.html",
                "-c",
                "(response.encoding, response.css('title::text').get(),"
                " response.meta['charset']['encoding'])",
            ]
        )
        parse = _scrapy(
            [
                "parse",
                "--spider=sitemap",
                "-c",
                "parse",
                "-a",
                f"base={base}",
                "--nolog",
                f"{base}/{slug}/p0.html",
            ],
            env={"SCRAPY_SETTINGS_MODULE": "tests.interop_settings"},
        )
    assert shell.strip() == repr(("cp932", title, "Shift_JIS"))
    assert f"'title': '{title}'" in parse


def test_bytes_io_is_what_iterparse_reads() -> None:
    """lxml's iterparse, given a standard name, on a windows-1251 feed."""
    body = "<r><n>Москва</n></r>".encode("cp1251")
    codec = codec_name("windows-1251", body)
    names = [e.text for _, e in lxml.etree.iterparse(io.BytesIO(body), encoding=codec, tag="n")]
    assert names == ["Москва"]
