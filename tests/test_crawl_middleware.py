"""Real crawls through ``ADDONS`` against a local server: every declaration style, then the
same crawl served from the HTTP cache with the server gone."""

from __future__ import annotations

import gzip
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import brotli

from scrapy_charset.whatwg.codecs import STANDARD_NAMES, private_codec_name
from tests.crawl import CrawlResult, run_crawl
from tests.server import Page, serve

JA = "<p>吾輩は猫である。名前はまだ無い。</p>"
RU = "<p>Съешь же ещё этих мягких французских булок</p>"
FR = "<p>Les élèves ont étudié à l'école près de la forêt, où l'été dure.</p>"
ZH = "<p>我能吞下玻璃而不傷身體。</p>"
KO = "<p>다람쥐 헌 쳇바퀴에 타고파</p>"


def html(charset: str | None, text: str, codec: str, meta: str = "") -> Page:
    content_type = "text/html" if charset is None else f"text/html; charset={charset}"
    return Page((meta + text).encode(codec), {"Content-Type": content_type})


@dataclass(frozen=True)
class Expect:
    """What the spider sees: the class, ``.text`` (None: not checked), the decision."""

    cls: str
    text: str | None
    encoding: str | None = None  # None: the middleware left the response alone
    sources: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    skipped: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02"
PDF = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< >>\n"

ROUTES: dict[str, Page] = {
    "/header": html("shift_jis", JA, "shift_jis"),
    "/meta": html(None, RU, "cp1251", '<meta charset="windows-1251">'),
    "/bom": html("iso-8859-1", "\ufeff" + FR, "utf-8"),
    "/xml": Page(
        f'<?xml version="1.0" encoding="windows-1251"?><a>{RU}</a>'.encode("cp1251"),
        {"Content-Type": "application/xml"},
    ),
    "/json": Page('{"q": "Grüße, 日本"}'.encode(), {"Content-Type": "application/json"}),
    "/text": Page("Съешь же ещё".encode("koi8-r"), {"Content-Type": "text/plain; charset=koi8-r"}),
    "/conflict": html("utf-8", ZH, "utf-8", '<meta charset="big5">'),
    "/replacement": html("iso-2022-kr", "<p>x</p>", "ascii"),
    "/legacy": html(None, FR, "cp1252"),
    "/gzip": Page(
        gzip.compress(RU.encode("cp1251")),
        {"Content-Type": "text/html; charset=windows-1251", "Content-Encoding": "gzip"},
    ),
    "/brotli": Page(
        brotli.compress(('<meta charset="euc-kr">' + KO).encode("euc-kr")),
        {"Content-Type": "text/html", "Content-Encoding": "br"},
    ),
    "/r1": Page(b"<p>moved</p>", {"Location": "/r2", "Content-Type": "text/html"}, 302),
    "/r2": Page(b"", {"Location": "/final"}, 301),
    "/final": html("big5", ZH, "big5"),
    "/refresh": html(
        None,
        RU,
        "cp1251",
        '<meta charset="windows-1251"><meta http-equiv="refresh" content="0;url=/meta2">',
    ),
    "/meta2": html(None, KO, "euc-kr", '<meta charset="euc-kr">'),
    "/image": Page(PNG, {"Content-Type": "image/png"}),
    "/pdf": Page(PDF, {"Content-Type": "application/pdf"}),
    "/empty": Page(b"", {"Content-Type": "text/html"}),
    "/dont": html("shift_jis", JA, "shift_jis"),
    "/override": html("iso-8859-1", RU, "cp1251"),
}

# Keyed by the final URL's path; the requests are ROUTES minus the redirect steps.
EXPECT: dict[str, Expect] = {
    "/header": Expect("HtmlResponse", JA, "Shift_JIS", ("header",)),
    "/meta": Expect(
        "HtmlResponse", '<meta charset="windows-1251">' + RU, "windows-1251", ("meta",)
    ),
    "/bom": Expect("HtmlResponse", FR, "UTF-8", ("bom",), ("bom_header_conflict",)),
    "/xml": Expect(
        "XmlResponse",
        f'<?xml version="1.0" encoding="windows-1251"?><a>{RU}</a>',
        "windows-1251",
        ("xml-declaration",),
    ),
    "/json": Expect("JsonResponse", '{"q": "Grüße, 日本"}', "UTF-8", ("default",)),
    "/text": Expect("TextResponse", "Съешь же ещё", "KOI8-R", ("header",)),
    "/conflict": Expect(
        "HtmlResponse",
        '<meta charset="big5">' + ZH,
        "UTF-8",
        ("header",),
        ("header_meta_conflict",),
    ),
    "/replacement": Expect("HtmlResponse", "\ufffd", "replacement", ("header",)),
    # Undeclared and not UTF-8: detection if a detector recognises it, else the default.
    "/legacy": Expect("HtmlResponse", FR, "windows-1252", ("detected", "default")),
    "/gzip": Expect("HtmlResponse", RU, "windows-1251", ("header",)),
    "/brotli": Expect("HtmlResponse", '<meta charset="euc-kr">' + KO, "EUC-KR", ("meta",)),
    "/final": Expect("HtmlResponse", ZH, "Big5", ("header",)),
    "/meta2": Expect("HtmlResponse", '<meta charset="euc-kr">' + KO, "EUC-KR", ("meta",)),
    "/image": Expect("Response", None, skipped="not_text"),
    "/pdf": Expect("TextResponse", None, skipped="content_type"),
    "/empty": Expect("HtmlResponse", "", skipped="empty"),
    "/dont": Expect("HtmlResponse", None, skipped="dont_charset", meta={"dont_charset": True}),
    "/override": Expect(
        "HtmlResponse",
        RU,
        "windows-1251",
        ("override",),
        ("override_header_conflict",),
        meta={"charset_encoding": "windows-1251"},
    ),
}
REQUESTED = [path for path in ROUTES if path not in ("/r2", "/final", "/meta2")]


def crawl(base: str, cache_dir: Path) -> CrawlResult:
    return run_crawl(
        [base + path for path in REQUESTED],
        {
            "ADDONS": {"scrapy_charset.Addon": 0},
            "HTTPCACHE_ENABLED": True,
            "HTTPCACHE_DIR": str(cache_dir),
        },
        meta={base + path: EXPECT[path].meta for path in EXPECT if EXPECT[path].meta},
    )


def expected_stats(result: CrawlResult) -> dict[str, int]:
    counts: Counter[str] = Counter()
    # The meta-refresh page is decided too (before MetaRefreshMiddleware reads it).
    decided = [
        *EXPECT.items(),
        ("/refresh", Expect("HtmlResponse", None, "windows-1251", ("meta",))),
    ]
    for path, expect in decided:
        if expect.skipped is not None:
            counts[f"charset/skipped/{expect.skipped}"] += 1
            continue
        source = expect.sources[0]
        if len(expect.sources) > 1:
            source = result.response(path)["meta_charset"]["source"]
        counts["charset/response_count"] += 1
        counts[f"charset/source/{source}"] += 1
        counts[f"charset/encoding/{expect.encoding}"] += 1
        for reason in expect.ignored:
            counts[f"charset/ignored/{reason}"] += 1
    return dict(counts)


def check(result: CrawlResult) -> None:
    assert "Traceback" not in result.log
    assert "DeprecationWarning" not in result.log
    assert len(result.responses) == len(REQUESTED)
    for path, expect in EXPECT.items():
        seen = result.response(path)
        assert seen["class"] == expect.cls, path
        if expect.text is not None:
            assert seen["text"] == expect.text, path
        tag = seen["meta_charset"]
        if expect.encoding is None:
            assert tag is None, path
            continue
        # Every body here decodes exactly with its standard codec but replacement's.
        assert seen["encoding"] == STANDARD_NAMES.get(
            expect.encoding, private_codec_name(expect.encoding)
        ), path
        assert tag["encoding"] == expect.encoding, path
        assert tag["source"] in expect.sources, path
        assert [i["reason"] for i in tag["ignored"]] == list(expect.ignored), path
    stats = expected_stats(result)
    assert result.charset_stats() == stats
    # One WARNING per (domain, reason), all on one host here; an INFO summary at close.
    warnings = [
        line
        for line in result.log.splitlines()
        if "[scrapy_charset.responses.middleware] WARNING: " in line
    ]
    # A forced encoding that disagrees with the header is counted, not warned.
    reasons = ["bom_header_conflict", "header_meta_conflict", "replacement"]
    assert len(warnings) == len(reasons), warnings
    for reason in reasons:
        assert any(reason in line for line in warnings), reason
    summary = f"scrapy-charset: {stats['charset/response_count']} responses decoded"
    assert f"[scrapy_charset.responses.middleware] INFO: {summary}" in result.log


def test_crawl_then_crawl_from_http_cache(tmp_path: Path) -> None:
    cache_dir = tmp_path / "httpcache"
    with serve(ROUTES) as base:
        first = crawl(base, cache_dir)
    check(first)
    assert first.stats.get("httpcache/miss", 0) > 0
    # The server is gone: every response now comes from the cache, compressed bodies
    # included, and goes through the whole middleware chain again.
    second = crawl(base, cache_dir)
    check(second)
    assert second.stats.get("httpcache/hit") == first.stats.get("httpcache/miss")
    assert "httpcache/miss" not in second.stats
