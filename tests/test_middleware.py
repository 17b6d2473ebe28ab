"""CharsetMiddleware, one response at a time: skip rules, kinds, decisions, the rebuilt
response, overrides, stats and logs. Built with Scrapy's own test helpers."""

from __future__ import annotations

import logging
from ipaddress import IPv4Address
from typing import Any, NamedTuple

import pytest
from scrapy import Request, signals
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, JsonResponse, Response, TextResponse, XmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler
from w3lib.encoding import html_to_unicode

from scrapy_charset import decode, sniff
from scrapy_charset._log import MAX_KEYS
from scrapy_charset.responses.config import CharsetSettingsError
from scrapy_charset.responses.middleware import CharsetMiddleware, response_kind
from scrapy_charset.sniffing.detect import Detected
from scrapy_charset.whatwg.codecs import codec_name
from scrapy_charset.whatwg.labels import ENCODING_NAMES

URL = "https://example.com/page"


def middleware(**settings: Any) -> CharsetMiddleware:
    crawler = get_crawler(settings_dict=settings)
    return build_from_crawler(CharsetMiddleware, crawler)


def charset_stats(mw: CharsetMiddleware) -> dict[str, Any]:
    assert mw.crawler.stats is not None
    stats = mw.crawler.stats.get_stats()
    return {k: v for k, v in stats.items() if k.startswith("charset/")}


def make(
    cls: type[Response],
    body: bytes,
    content_type: str | None = None,
    url: str = URL,
    request: Request | None = None,
    **kwargs: Any,
) -> Response:
    headers = {"Content-Type": content_type} if content_type is not None else {}
    return cls(url=url, body=body, headers=headers, request=request, **kwargs)


def run(
    mw: CharsetMiddleware,
    response: Response,
    meta: dict[str, Any] | None = None,
    method: str = "GET",
) -> tuple[Request, Response]:
    request = Request(response.url, meta=meta or {}, method=method)
    result = mw.process_response(request, response)
    assert isinstance(result, Response)
    return request, result


# --- skip rules ------------------------------------------------------------------------


class ZyteAPITextResponse(HtmlResponse):
    """Stands in for scrapy_zyte_api.responses.ZyteAPITextResponse (not installed): the
    API's answer is its public ``raw_api_response``."""

    def __init__(
        self, *args: Any, raw_api_response: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self._raw_api_response = raw_api_response

    @property
    def raw_api_response(self) -> dict[str, Any] | None:
        return self._raw_api_response


ZyteAPITextResponse.__module__ = "scrapy_zyte_api.responses"

HTML = "<p>café</p>".encode()
SKIPS = [
    # (response, meta, method, settings, reason)
    pytest.param(
        make(HtmlResponse, HTML, "text/html"),
        {"dont_charset": True},
        "GET",
        {},
        "dont_charset",
        id="meta-dont_charset",
    ),
    pytest.param(
        make(Response, b"\x89PNG\r\n\x1a\n", "image/png"),
        {},
        "GET",
        {},
        "not_text",
        id="image-is-a-plain-response",
    ),
    pytest.param(
        make(Response, b"\x1f\x8b\x08\x00", "text/html"),
        {},
        "GET",
        {},
        "not_text",
        id="still-compressed-body-is-a-plain-response",
    ),
    pytest.param(make(HtmlResponse, b"", "text/html"), {}, "HEAD", {}, "head", id="head-request"),
    pytest.param(make(HtmlResponse, b"", "text/html"), {}, "GET", {}, "empty", id="empty-body"),
    pytest.param(
        make(
            TextResponse,
            b"caf\xc3\xa9",
            "text/plain",
            url="data:text/plain;charset=utf-8,caf%C3%A9",
        ),
        {},
        "GET",
        {},
        "data_url",
        id="data-url",
    ),
    pytest.param(
        make(HtmlResponse, HTML, "text/html; charset=shift_jis"),
        {"playwright": True},
        "GET",
        {},
        "browser",
        id="scrapy-playwright",
    ),
    pytest.param(
        make(HtmlResponse, HTML, "text/html; charset=shift_jis"),
        {"zyte_api": {"browserHtml": True}},
        "GET",
        {},
        "browser",
        id="zyte-api-browserHtml",
    ),
    pytest.param(
        make(HtmlResponse, HTML, "text/html; charset=shift_jis"),
        {"zyte_api_automap": {"browserHtml": True}},
        "GET",
        {},
        "browser",
        id="zyte-api-automap-browserHtml",
    ),
    pytest.param(
        make(
            ZyteAPITextResponse,
            HTML,
            "text/html; charset=shift_jis",
            raw_api_response={"browserHtml": "<p>café</p>"},
        ),
        {},
        "GET",
        {},
        "browser",
        id="zyte-api-response-class-from-browserHtml",
    ),
    # Scrapy makes a TextResponse when a PDF's first bytes look like text.
    pytest.param(
        make(TextResponse, b"%PDF-1.4\n1 0 obj << /Type /Catalog >>", "application/pdf"),
        {},
        "GET",
        {},
        "content_type",
        id="pdf-as-textresponse",
    ),
    pytest.param(
        make(HtmlResponse, HTML, "image/png"),
        {},
        "GET",
        {},
        "content_type",
        id="html-class-but-image-type",
    ),
    pytest.param(
        make(TextResponse, b"a,b\n1,2\n", "text/csv"),
        {},
        "GET",
        {"CHARSET_SKIP_CONTENT_TYPES": ["text/csv"]},
        "content_type",
        id="setting-exact-type",
    ),
    pytest.param(
        make(TextResponse, b"a,b\n1,2\n", "text/csv"),
        {},
        "GET",
        {"CHARSET_SKIP_CONTENT_TYPES": ["text/*"]},
        "content_type",
        id="setting-wildcard",
    ),
]


@pytest.mark.parametrize(("response", "meta", "method", "settings", "reason"), SKIPS)
def test_skip(
    response: Response, meta: dict[str, Any], method: str, settings: dict[str, Any], reason: str
) -> None:
    mw = middleware(**settings)
    # A stale decision copied from a previous request (a redirect) is dropped.
    stale = sniff(b"<p>stale</p>").as_dict()
    request, result = run(mw, response, {**meta, "charset": stale}, method)
    assert result is response
    assert "charset" not in request.meta
    assert charset_stats(mw) == {f"charset/skipped/{reason}": 1}


@pytest.mark.parametrize(
    ("response", "meta"),
    [
        pytest.param(
            make(
                ZyteAPITextResponse,
                HTML,
                "text/html",
                raw_api_response={"httpResponseBody": "PHA+Y2Fmw6k8L3A+"},
            ),
            {},
            id="zyte-api-response-class-from-httpResponseBody",
        ),
        pytest.param(
            make(HtmlResponse, HTML, "text/html"),
            {"zyte_api": {"httpResponseBody": True}},
            id="zyte-api-httpResponseBody",
        ),
        pytest.param(
            make(HtmlResponse, HTML, "text/html"), {"playwright": False}, id="playwright-off"
        ),
        # scrapy-playwright: a URL the browser downloaded instead of rendering.
        pytest.param(
            make(HtmlResponse, HTML, "text/html"),
            {"playwright": True, "playwright_suggested_filename": "page.html"},
            id="playwright-download",
        ),
        pytest.param(
            make(HtmlResponse, HTML, "text/html"), {"dont_charset": False}, id="dont-false"
        ),
        pytest.param(
            make(TextResponse, b"a,b\n1,2\n", "text/csv"), {}, id="csv-is-text-without-setting"
        ),
    ],
)
def test_not_skipped(response: Response, meta: dict[str, Any]) -> None:
    mw = middleware()
    request, result = run(mw, response, meta)
    assert result is not response
    assert request.meta["charset"]["encoding"] == "UTF-8"
    assert charset_stats(mw)["charset/response_count"] == 1


@pytest.mark.parametrize(
    ("meta", "text"),
    [
        pytest.param(
            {"playwright": True, "playwright_suggested_filename": "prices.csv"},
            "字典,€25\n",
            id="download-decided",
        ),
        # A rendered page's body is the renderer's own encoding of the browser's text.
        pytest.param({"playwright": True}, None, id="rendered-left-alone"),
    ],
)
def test_playwright_download_is_decided(meta: dict[str, Any], text: str | None) -> None:
    """scrapy-playwright hands a download over with the site's bytes and headers (here a
    Big5 CSV with the euro sign, A3 E1, which Python's big5 lacks)."""
    body = "字典,€25\n".encode(codec_name("Big5"))
    assert body.endswith(b"\xa3\xe125\n")
    response = make(TextResponse, body, "text/csv; charset=big5", flags=["playwright"])
    mw = middleware()
    request, result = run(mw, response, meta)
    if text is None:
        assert result is response
        assert charset_stats(mw) == {"charset/skipped/browser": 1}
        return
    assert request.meta["charset"]["encoding"] == "Big5"
    assert result.text == text
    assert response.text != text  # Scrapy's own guess: Python's big5


# --- which rules apply -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "content_type", "kind"),
    [
        pytest.param(HtmlResponse, "text/html", "html", id="html"),
        # XHTML served as XML goes to the XML parser, in browsers.
        pytest.param(HtmlResponse, "application/xhtml+xml", "xml", id="xhtml-is-xml"),
        pytest.param(XmlResponse, "text/xml", "xml", id="text-xml"),
        pytest.param(XmlResponse, "application/rss+xml", "xml", id="rss"),
        pytest.param(TextResponse, "image/svg+xml", "xml", id="svg"),
        pytest.param(JsonResponse, "application/json", "json", id="json"),
        pytest.param(TextResponse, "application/ld+json", "json", id="ld-json"),
        pytest.param(TextResponse, "text/json", "json", id="text-json"),
        pytest.param(TextResponse, "text/plain", "text", id="plain"),
        pytest.param(TextResponse, "text/csv", "text", id="csv"),
        pytest.param(TextResponse, "text/css", "text", id="css"),
        pytest.param(TextResponse, "application/javascript", "text", id="javascript"),
        # No type, or one that says nothing: the class Scrapy chose from the URL or body.
        pytest.param(HtmlResponse, None, "html", id="untyped-html"),
        pytest.param(XmlResponse, "application/octet-stream", "xml", id="octet-stream-xml"),
        pytest.param(JsonResponse, None, "json", id="untyped-json"),
        pytest.param(TextResponse, None, "text", id="untyped-text"),
        pytest.param(TextResponse, "application/pdf", None, id="pdf"),
        pytest.param(TextResponse, "application/zip", None, id="zip"),
        pytest.param(HtmlResponse, "image/png", None, id="png"),
    ],
)
def test_response_kind(cls: type[TextResponse], content_type: str | None, kind: str | None) -> None:
    response = cls(url=URL, body=b"x")
    assert response_kind(response, content_type) == kind


# --- decisions -------------------------------------------------------------------------


class Case(NamedTuple):
    cls: type[TextResponse]
    content_type: str
    text: str
    codec: str  # the Python codec that writes the body
    encoding: str  # the expected WHATWG encoding
    source: str  # the expected rule
    meta: dict[str, Any] = {}  # noqa: RUF012
    settings: dict[str, Any] = {}  # noqa: RUF012


NO_DETECTION = {"CHARSET_DETECTOR": "none"}
DECISIONS = [
    pytest.param(
        Case(
            HtmlResponse,
            "text/html; charset=shift_jis",
            "<p>日本語</p>",
            "shift_jis",
            "Shift_JIS",
            "header",
        ),
        id="header",
    ),
    # Encoding Standard: the label iso-8859-1 is windows-1252 (0x80 is the euro sign).
    pytest.param(
        Case(
            HtmlResponse,
            "text/html; charset=ISO-8859-1",
            "<p>€ café</p>",
            "cp1252",
            "windows-1252",
            "header",
        ),
        id="header-latin1-is-windows-1252",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html",
            '<meta charset="euc-kr"><p>한국어</p>',
            "euc-kr",
            "EUC-KR",
            "meta",
        ),
        id="meta-only",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html; charset=iso-8859-1",
            "\ufeff<p>naïve</p>",
            "utf-8",
            "UTF-8",
            "bom",
        ),
        id="bom-beats-header",
    ),
    pytest.param(
        Case(HtmlResponse, "text/html", "<p>Grüße</p>", "utf-8", "UTF-8", "utf8-validity"),
        id="undeclared-utf-8",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html",
            "<p>Grüße</p>",
            "cp1252",
            "windows-1252",
            "default",
            settings=NO_DETECTION,
        ),
        id="undeclared-legacy-default",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html",
            "<p>Привет</p>",
            "cp1251",
            "windows-1251",
            "default",
            settings={**NO_DETECTION, "CHARSET_DEFAULT_ENCODING": "cp1251"},
        ),
        id="undeclared-legacy-setting-default",
    ),
    pytest.param(
        Case(
            XmlResponse,
            "text/xml",
            '<?xml version="1.0" encoding="windows-1251"?><a>Привет</a>',
            "cp1251",
            "windows-1251",
            "xml-declaration",
        ),
        id="xml-declaration",
    ),
    # XML rules: no <meta> prescan, UTF-8 by default.
    pytest.param(
        Case(
            HtmlResponse,
            "application/xhtml+xml",
            '<html><meta charset="big5"/>Grüße</html>',
            "utf-8",
            "UTF-8",
            "utf8-validity",
        ),
        id="xhtml-ignores-meta",
    ),
    # An undeclared XML body that is valid UTF-8 is UTF-8, as for HTML.
    pytest.param(
        Case(
            XmlResponse,
            "text/xml",
            "<a>Grüße</a>",
            "utf-8",
            "UTF-8",
            "utf8-validity",
            settings={"CHARSET_DEFAULT_ENCODING": "cp1251"},
        ),
        id="xml-valid-utf-8",
    ),
    # The scraping side's addition: an undeclared XML body that is not UTF-8 is detected.
    pytest.param(
        Case(
            XmlResponse,
            "application/xml",
            "<catalog><name>Российская Федерация</name><name>Украина</name></catalog>",
            "cp1251",
            "windows-1251",
            "detected",
        ),
        id="xml-undeclared-detected",
    ),
    # RFC 8259: JSON is UTF-8; a non-UTF header charset is ignored.
    pytest.param(
        Case(
            JsonResponse,
            "application/json; charset=iso-8859-1",
            '{"a": "Grüße"}',
            "utf-8",
            "UTF-8",
            "default",
        ),
        id="json-non-utf-header",
    ),
    pytest.param(
        Case(
            JsonResponse, "application/json", '\ufeff{"a": "日本"}', "utf-16-le", "UTF-16LE", "bom"
        ),
        id="json-utf-16-bom",
    ),
    pytest.param(
        Case(TextResponse, "text/plain; charset=koi8-r", "Привет", "koi8-r", "KOI8-R", "header"),
        id="text-plain-header",
    ),
    # Plain text has no in-document declaration: the <meta> is just text.
    pytest.param(
        Case(
            TextResponse,
            "text/plain",
            '<meta charset="big5"> Grüße',
            "utf-8",
            "UTF-8",
            "utf8-validity",
        ),
        id="text-plain-no-meta-scan",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html; charset=utf-8",
            '<meta charset="big5"><p>Grüße</p>',
            "utf-8",
            "UTF-8",
            "header",
        ),
        id="header-meta-conflict",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html; charset=utf-8",
            "<p>Привет</p>",
            "cp1251",
            "windows-1251",
            "override",
            meta={"charset_encoding": "windows-1251"},
        ),
        id="override",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html; charset=utf-8",
            "<p>Grüße</p>",
            "utf-8",
            "UTF-8",
            "header",
            meta={"charset_encoding": "klingon"},
        ),
        id="override-unknown-label",
    ),
    pytest.param(
        Case(
            HtmlResponse,
            "text/html; charset=utf-8",
            "<p>Grüße</p>",
            "utf-8",
            "UTF-8",
            "header",
            meta={"charset_encoding": b"sjis"},
        ),
        id="override-not-a-string",
    ),
]


@pytest.mark.parametrize("case", DECISIONS)
def test_decision(case: Case) -> None:
    mw = middleware(**case.settings)
    body = case.text.encode(case.codec)
    request, result = run(mw, make(case.cls, body, case.content_type), case.meta)
    assert isinstance(result, case.cls)
    assert request.meta["charset"]["encoding"] == case.encoding
    assert request.meta["charset"]["source"] == case.source
    # The standard codec where it decodes this body as the browser does.
    assert result.encoding == codec_name(case.encoding, body)
    assert body.decode(result.encoding).lstrip("\ufeff") == case.text.lstrip("\ufeff")
    assert result.text == case.text.lstrip("\ufeff")
    assert charset_stats(mw) == {
        "charset/response_count": 1,
        f"charset/source/{case.source}": 1,
        f"charset/encoding/{case.encoding}": 1,
        **{f"charset/ignored/{i['reason']}": 1 for i in request.meta["charset"]["ignored"]},
    }


def test_replacement_label() -> None:
    mw = middleware()
    body = b"\x1b$)C<p>\x0e!!\x0f"
    request, result = run(mw, make(HtmlResponse, body, "text/html; charset=iso-2022-kr"))
    assert request.meta["charset"]["encoding"] == "replacement"
    assert isinstance(result, TextResponse)
    assert result.text == "\ufffd"
    assert result.body == body


def test_tag_is_the_decision_dict() -> None:
    mw = middleware()
    body = '<meta charset="big5"><p>Grüße</p>'.encode()
    request, _ = run(mw, make(HtmlResponse, body, "text/html; charset=utf-8"))
    assert request.meta["charset"] == {
        "encoding": "UTF-8",
        "source": "header",
        "label": "utf-8",
        "confidence": "certain",
        "ignored": [
            {
                "source": "meta",
                "label": "big5",
                "encoding": "Big5",
                "reason": "header_meta_conflict",
                "offset": 0,
            }
        ],
    }
    assert charset_stats(mw)["charset/ignored/header_meta_conflict"] == 1


def test_detector_is_built_once_and_used(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def detector(body: bytes, url: str | None) -> Detected:
        return Detected("Shift_JIS", "fake", 0.75)

    def get_detector(name: str, *, window: int, use_tld: bool) -> Any:
        calls.append((name, window, use_tld))
        return detector

    monkeypatch.setattr("scrapy_charset.responses.middleware.get_detector", get_detector)
    mw = middleware(CHARSET_DETECTOR="chardet", CHARSET_DETECT_WINDOW=100, CHARSET_DETECT_TLD=False)
    for _ in range(2):
        request, result = run(
            mw, make(HtmlResponse, "<p>日本語</p>".encode("shift_jis"), "text/html")
        )
        assert result.text == "<p>日本語</p>"
        assert request.meta["charset"]["source"] == "detected"
        assert request.meta["charset"]["detector"] == {"name": "fake", "score": 0.75}
    assert calls == [("chardet", 100, False)]


def test_failing_detector_falls_to_the_default(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def detector(body: bytes, url: str | None) -> Detected:
        raise RuntimeError("boom")

    monkeypatch.setattr(
        "scrapy_charset.responses.middleware.get_detector", lambda *a, **k: detector
    )
    mw = middleware()
    for _ in range(2):
        request, result = run(mw, make(HtmlResponse, b"<p>caf\xe9</p>", "text/html"))
        assert result.text == "<p>café</p>"
        assert request.meta["charset"]["source"] == "default"
    assert len(warnings_of(caplog)) == 1
    assert "failed" in warnings_of(caplog)[0]


def test_unknown_detector_stops_the_crawl() -> None:
    with pytest.raises(CharsetSettingsError, match=r"CHARSET_DETECTOR = 'nope' .*'none'"):
        middleware(CHARSET_DETECTOR="nope")


def test_detector_that_cannot_be_built_stops_the_crawl(monkeypatch: pytest.MonkeyPatch) -> None:
    def get_detector(name: str, *, window: int, use_tld: bool) -> Any:
        raise ValueError(f"unknown charset detector {name!r}")

    monkeypatch.setattr("scrapy_charset.responses.middleware.get_detector", get_detector)
    with pytest.raises(CharsetSettingsError, match=r"CHARSET_DETECTOR = 'chardet' .*unknown"):
        middleware(CHARSET_DETECTOR="chardet")


def test_disabled() -> None:
    with pytest.raises(NotConfigured):
        middleware(CHARSET_ENABLED=False)


def test_invalid_setting_stops_the_crawl() -> None:
    with pytest.raises(CharsetSettingsError, match="CHARSET_DEFAULT_ENCODING = 'klingon'"):
        middleware(CHARSET_DEFAULT_ENCODING="klingon")


# --- the rebuilt response --------------------------------------------------------------


@pytest.fixture
def no_scrapy_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scrapy's own encoding detection, and Response.replace(), fail if called."""

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Scrapy's own encoding detection ran")

    for name in (
        "_body_inferred_encoding",
        "_body_declared_encoding",
        "_headers_encoding",
        "_bom_encoding",
        "replace",
    ):
        monkeypatch.setattr(TextResponse, name, fail)
    monkeypatch.setattr(Response, "replace", fail)


class CustomHtmlResponse(HtmlResponse):
    pass


@pytest.mark.usefixtures("no_scrapy_detection")
@pytest.mark.parametrize(
    "cls", [HtmlResponse, XmlResponse, JsonResponse, TextResponse, CustomHtmlResponse]
)
def test_rebuild_keeps_everything_but_the_encoding(
    cls: type[TextResponse], monkeypatch: pytest.MonkeyPatch
) -> None:
    decodes = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        decodes.append(args)
        return html_to_unicode(*args, **kwargs)

    # TextResponse.text decodes through w3lib's html_to_unicode.
    monkeypatch.setattr("scrapy.http.response.text.html_to_unicode", counting)
    mw = middleware()
    text = "<p>日本語</p>"
    body = text.encode("shift_jis")
    request = Request(URL, meta={"mine": 1})
    certificate = object()
    response = cls(
        url=URL,
        status=203,
        headers={"Content-Type": "text/plain; charset=shift_jis", "X-Other": ["a", "b"]},
        body=body,
        flags=["cached"],
        request=request,
        certificate=certificate,
        ip_address=IPv4Address("127.0.0.1"),
        protocol="HTTP/1.1",
    )
    result = mw.process_response(request, response)
    assert type(result) is cls
    assert isinstance(result, TextResponse)
    assert result is not response
    assert result.body is body
    assert result.url == URL
    assert result.status == 203
    assert result.headers == response.headers
    assert result.headers.getlist("X-Other") == [b"a", b"b"]
    assert result.flags == ["cached"]
    assert result.request is request
    assert result.meta is request.meta
    assert result.meta["mine"] == 1
    assert result.meta["charset"]["encoding"] == "Shift_JIS"
    assert result.certificate is certificate
    assert result.ip_address == IPv4Address("127.0.0.1")
    assert result.protocol == "HTTP/1.1"
    assert result.encoding == "cp932"  # Shift_JIS as browsers read it, exact for this body
    assert result.text == text
    assert result.text == text
    assert decodes == []  # choosing the codec decoded the body once: Scrapy does not


class StrictResponse(HtmlResponse):
    """A third-party class whose __init__ rejects a keyword its attributes list."""

    attributes = (*HtmlResponse.attributes, "extra")

    @property
    def extra(self) -> int:
        return 1


def test_unrebuildable_class_is_left_alone(caplog: pytest.LogCaptureFixture) -> None:
    mw = middleware()
    for _ in range(2):
        response = make(StrictResponse, HTML, "text/html")
        request, result = run(mw, response, {"charset": sniff(b"stale").as_dict()})
        assert result is response
        assert "charset" not in request.meta
    assert len(warnings_of(caplog)) == 1
    assert "StrictResponse cannot be rebuilt" in warnings_of(caplog)[0]
    assert charset_stats(mw) == {"charset/skipped/unsupported_class": 2}


def test_response_without_request_gets_meta_later() -> None:
    """Download handlers leave ``response.request`` unset; the engine sets it after the
    downloader middlewares, so the tag goes on the request being processed."""
    mw = middleware()
    request = Request(URL)
    result = mw.process_response(request, make(HtmlResponse, HTML, "text/html"))
    assert isinstance(result, Response)
    assert result.request is None
    result.request = request
    assert result.meta["charset"]["encoding"] == "UTF-8"


class ReplacedRequest(NamedTuple):
    request: Request
    response: Response


def _replaced_request(meta: dict[str, Any] | None = None) -> ReplacedRequest:
    """A response whose ``.request`` is not the request passed to ``process_response``:
    a middleware below this one (a retry, a proxy or a cache one) sent a copy."""
    request = Request(URL, meta=dict(meta or {}))
    sent = Request(URL, meta=dict(meta or {}))
    assert sent is not request
    assert sent.meta is not request.meta
    response = HtmlResponse(
        url=URL,
        body="<p>Café</p>".encode("cp1252"),
        headers={"Content-Type": "text/html; charset=windows-1252"},
        request=sent,
    )
    return ReplacedRequest(request, response)


def test_the_replaced_request_is_tagged_too() -> None:
    """What the spider reads, ``response.meta``, is the meta of ``response.request``."""
    mw = middleware()
    request, response = _replaced_request()
    result = mw.process_response(request, response)
    assert isinstance(result, TextResponse)
    assert result.request is response.request
    assert result.meta["charset"]["encoding"] == "windows-1252"
    assert result.meta["charset"]["source"] == "header"
    assert request.meta["charset"] == result.meta["charset"]


def test_a_skipped_response_drops_the_stale_tag_of_the_replaced_request() -> None:
    stale = sniff(b"<p>stale</p>").as_dict()
    mw = middleware()
    request, response = _replaced_request({"charset": stale, "dont_charset": True})
    assert mw.process_response(request, response) is response
    assert response.request is not None
    assert "charset" not in response.request.meta
    assert "charset" not in request.meta


@pytest.mark.parametrize(
    ("codec", "encoding", "query"),
    [
        pytest.param("shift_jis", "Shift_JIS", "q=%93%FA%96%7B", id="shift_jis"),
        pytest.param("euc-kr", "EUC-KR", "q=%EC%ED%DC%E2", id="euc-kr"),
        pytest.param("utf-8", "UTF-8", "q=%E6%97%A5%E6%9C%AC", id="utf-8"),
    ],
)
def test_follow_encodes_queries_in_the_page_encoding(codec: str, encoding: str, query: str) -> None:
    """URL Standard: a document's URLs encode the query in the document's encoding (the
    path is always UTF-8); Scrapy's follow() does so through ``.encoding``."""
    mw = middleware()
    body = f'<meta charset="{encoding}"><a href="/日本?q=日本">x</a>'.encode(codec)
    _, result = run(mw, make(HtmlResponse, body, "text/html"))
    assert isinstance(result, HtmlResponse)
    link = result.css("a")[0]
    assert result.follow(link).url == f"https://example.com/%E6%97%A5%E6%9C%AC?{query}"


@pytest.mark.parametrize("name", ENCODING_NAMES)
@pytest.mark.parametrize(
    "body",
    [
        pytest.param(bytes(range(0x20, 0x7F)) + bytes(range(0x80, 0x100)), id="all-high-bytes"),
        pytest.param(b"\xef\xbb\xbf<p>\xc3\xa9\xff</p>", id="utf-8-bom-invalid"),
        pytest.param(b"\xff\xfe<\x00p\x00\x00\xd8>\x00", id="utf-16le-bom-lone-surrogate"),
        pytest.param(b"\xfe\xff\x00<\x00p\x00", id="utf-16be-bom-odd-length"),
    ],
)
def test_scrapy_text_is_the_whatwg_decode(name: str, body: bytes) -> None:
    """Scrapy's ``.text`` (w3lib's BOM check, then the codec named by ``encoding``) gives
    what the Encoding Standard's "decode" gives, for every encoding."""
    response = HtmlResponse(url=URL, body=body, encoding=codec_name(name))
    assert response.text == decode(body, name)


@pytest.mark.parametrize(
    ("body", "encoding"),
    [
        # Encoding Standard, BOM sniff: FF FE is UTF-16LE's BOM; the two NULs are text.
        pytest.param(b"\xff\xfe\x00\x00a\x00\x00\x00", "UTF-16LE", id="ff-fe-00-00"),
        # 00 00 FE FF is no BOM at all; FE and FF never occur in UTF-8, so the default
        # decides.
        pytest.param(b"\x00\x00\xfe\xff<p>x", "windows-1252", id="00-00-fe-ff"),
    ],
)
def test_utf32_bom_lookalike(body: bytes, encoding: str) -> None:
    # Scrapy's .text alone reads both as UTF-32 BOMs (w3lib); browsers have no UTF-32.
    mw = middleware(CHARSET_DETECTOR="none")
    request, result = run(mw, make(HtmlResponse, body, "text/html"))
    assert request.meta["charset"]["encoding"] == encoding
    assert result.text == decode(body, encoding)


# --- logs ------------------------------------------------------------------------------


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_conflict_warned_once_per_domain_and_reason(caplog: pytest.LogCaptureFixture) -> None:
    mw = middleware()
    body = '<meta charset="big5"><p>Grüße</p>'.encode()
    caplog.set_level(logging.DEBUG, logger="scrapy_charset")
    for url in ["https://a.example/1", "https://a.example/2", "https://b.example/1"]:
        run(mw, make(HtmlResponse, body, "text/html; charset=utf-8", url=url))
    warnings = warnings_of(caplog)
    assert len(warnings) == 2
    assert "https://a.example/1" in warnings[0]
    assert "header_meta_conflict" in warnings[0]
    assert "https://b.example/1" in warnings[1]
    debug = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(debug) == 3  # one per decision
    assert "UTF-8 (header, 'utf-8'); ignored: meta 'big5'" in debug[0].getMessage()
    assert charset_stats(mw)["charset/ignored/header_meta_conflict"] == 3


def test_warnings_are_bounded_across_domains(caplog: pytest.LogCaptureFixture) -> None:
    """A broad crawl: one warning per domain up to MAX_KEYS domains, one line saying the
    rest are only counted, then silence; the stats count every response."""
    mw = middleware()
    body = '<meta charset="big5"><p>Grüße</p>'.encode()
    caplog.set_level(logging.WARNING, logger="scrapy_charset")
    for n in range(MAX_KEYS + 5):
        url = f"https://d{n}.example/"
        run(mw, make(HtmlResponse, body, "text/html; charset=utf-8", url=url))
    warnings = warnings_of(caplog)
    assert len(warnings) == MAX_KEYS + 1
    assert "only counted in the charset/ stats" in warnings[-1]
    assert charset_stats(mw)["charset/ignored/header_meta_conflict"] == MAX_KEYS + 5


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("utf-8", id="a-label"),
        pytest.param({"encoding": "mine"}, id="a-dict-of-another-shape"),
        pytest.param(None, id="none"),
    ],
)
def test_a_projects_meta_charset_survives_a_skipped_response(value: Any) -> None:
    # Left alone (dont_charset): the middleware removes only a decision it wrote.
    mw = middleware()
    request, _ = run(
        mw, make(HtmlResponse, HTML, "text/html"), {"charset": value, "dont_charset": True}
    )
    assert request.meta["charset"] == value


def test_a_projects_meta_charset_is_kept_and_the_decision_put_beside_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mw = middleware()
    for _ in range(2):
        request, _ = run(mw, make(HtmlResponse, HTML, "text/html"), {"charset": "utf-8"})
        assert request.meta["charset"] == "utf-8"
        assert request.meta["charset_decision"]["encoding"] == "UTF-8"
    assert len(warnings_of(caplog)) == 1
    assert "reserved" in warnings_of(caplog)[0]
    assert charset_stats(mw)["charset/meta_taken"] == 2


@pytest.mark.parametrize(
    ("content_type", "reason"),
    [
        pytest.param("text/html; charset=utf-7", "refused_label", id="refused-label"),
        pytest.param("text/html; charset=hz-gb-2312", "replacement", id="replacement"),
    ],
)
def test_page_warnings_once_per_domain(
    caplog: pytest.LogCaptureFixture, content_type: str, reason: str
) -> None:
    mw = middleware()
    for path in ["/1", "/2"]:
        run(mw, make(HtmlResponse, b"<p>hi</p>", content_type, url=f"https://a.example{path}"))
    warnings = warnings_of(caplog)
    assert len(warnings) == 1
    assert reason in warnings[0]


def test_unknown_override_warned_once_per_label(caplog: pytest.LogCaptureFixture) -> None:
    mw = middleware()
    for url, label in [
        ("https://a.example/", "klingon"),
        ("https://b.example/", "klingon"),
        ("https://a.example/", "utf-7"),
    ]:
        run(mw, make(HtmlResponse, HTML, "text/html", url=url), {"charset_encoding": label})
    warnings = warnings_of(caplog)
    assert len(warnings) == 2
    assert "'klingon' is not an Encoding Standard label" in warnings[0]
    assert "'utf-7' is an encoding browsers do not support" in warnings[1]
    stats = charset_stats(mw)
    assert stats["charset/ignored/unknown_label"] == 2
    assert stats["charset/ignored/refused_label"] == 1


def test_forced_encoding_conflict_is_counted_not_warned(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mw = middleware()
    meta = {"charset_encoding": "windows-1251"}
    run(mw, make(HtmlResponse, "Привет".encode("cp1251"), "text/html; charset=utf-8"), meta)
    assert warnings_of(caplog) == []
    assert charset_stats(mw)["charset/ignored/override_header_conflict"] == 1


def test_summary_at_close(caplog: pytest.LogCaptureFixture) -> None:
    mw = middleware()
    run(mw, make(HtmlResponse, HTML, "text/html; charset=utf-8"))
    run(mw, make(HtmlResponse, b"<p>caf\xe9</p>", "text/html; charset=latin1"))
    run(mw, make(Response, b"\x89PNG", "image/png"))
    caplog.set_level(logging.INFO, logger="scrapy_charset")
    mw.crawler.signals.send_catch_log(signals.spider_closed, spider=None, reason="finished")
    info = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert info == [
        "scrapy-charset: 2 responses decoded (UTF-8 1, windows-1252 1; by header 2); "
        "0 declarations ignored; 1 response left alone (not_text 1)"
    ]


def test_xml_default_is_not_from_the_setting() -> None:
    # CHARSET_DEFAULT_ENCODING is for HTML and plain text; XML falls back to UTF-8.
    mw = middleware(CHARSET_DETECTOR="none", CHARSET_DEFAULT_ENCODING="cp1251")
    request, result = run(mw, make(XmlResponse, b"<a>caf\xe9</a>", "text/xml"))
    assert (request.meta["charset"]["encoding"], request.meta["charset"]["source"]) == (
        "UTF-8",
        "default",
    )
    assert isinstance(result, TextResponse)
    assert result.text == "<a>caf\ufffd</a>"


def test_stats_add_up() -> None:
    mw = middleware(CHARSET_DETECTOR="none")
    pages = [
        (HtmlResponse, HTML, "text/html; charset=utf-8"),
        (HtmlResponse, b'<meta charset="big5"><p>x</p>', "text/html; charset=utf-8"),
        (HtmlResponse, b"<p>caf\xe9</p>", "text/html"),
        (XmlResponse, b"<a>caf\xe9</a>", "text/xml"),
        (Response, b"\x89PNG", "image/png"),
        (HtmlResponse, b"", "text/html"),
    ]
    for cls, body, content_type in pages:
        run(mw, make(cls, body, content_type))
    assert charset_stats(mw) == {
        "charset/response_count": 4,
        "charset/source/header": 2,
        "charset/source/default": 2,
        "charset/encoding/UTF-8": 3,
        "charset/encoding/windows-1252": 1,
        "charset/ignored/header_meta_conflict": 1,
        "charset/skipped/not_text": 1,
        "charset/skipped/empty": 1,
    }
