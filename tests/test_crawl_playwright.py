"""A real crawl with scrapy-playwright and Chromium against a local server, the add-on on.

- Pages Chromium rendered are left alone (``charset/skipped/browser``) and right:
  scrapy-playwright encodes the rendered text in the charset of the header or of the
  ``<meta>`` (as w3lib names it: ``cp932`` for ``shift_jis``), or in UTF-8 when that
  charset cannot encode it, and names it in ``response.encoding``.
- A URL Chromium downloads instead of rendering (``Content-Disposition: attachment``) comes
  back with the site's bytes and ``meta["playwright_suggested_filename"]``: it is decided,
  and a Big5 CSV's euro sign (A3 E1, which Python's big5 lacks) is right.
- Requests without ``meta["playwright"]`` in the same crawl are decided.

Skipped when Chromium (``/usr/bin/chromium``, Debian's; ``.ci/run`` installs it) or
scrapy-playwright is missing.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from scrapy_charset.whatwg.codecs import private_codec_name
from tests.crawl import CrawlResult, run_crawl
from tests.server import Page, serve

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (.ci/run installs it from Debian's packages)",
)
pytest.importorskip("scrapy_playwright")

SIX_PAIRS = "営業時間 9時～18時 ∥ －5 ￠ ￡ ￢"
RUSSIAN = "Съешь же ещё этих мягких французских булок"
CSV = "字典,€25\n"


def _page(text: str, encoding: str, content_type: str) -> Page:
    html = f"<!DOCTYPE html><html><head><title>t</title></head><body><p>{text}</p></body></html>"
    return Page(html.encode(private_codec_name(encoding)), {"Content-Type": content_type})


ROUTES = {
    "/rendered-sjis": _page(SIX_PAIRS, "Shift_JIS", "text/html; charset=shift_jis"),
    "/rendered-1251": _page(RUSSIAN, "windows-1251", "text/html; charset=windows-1251"),
    "/plain-sjis": _page(SIX_PAIRS, "Shift_JIS", "text/html; charset=shift_jis"),
    "/download.csv": Page(
        CSV.encode(private_codec_name("Big5")),
        {
            "Content-Type": "text/csv; charset=big5",
            "Content-Disposition": 'attachment; filename="prices.csv"',
        },
    ),
}


@pytest.fixture(scope="module")
def crawl() -> CrawlResult:
    with serve(ROUTES) as base:
        playwright = {"playwright": True}
        return run_crawl(
            [f"{base}{path}" for path in ROUTES],
            {
                "ADDONS": {"scrapy_charset.Addon": 0},
                "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
                "DOWNLOAD_HANDLERS": {
                    "http": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
                    "https": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
                },
                "PLAYWRIGHT_BROWSER_TYPE": "chromium",
                "PLAYWRIGHT_LAUNCH_OPTIONS": {
                    "executable_path": CHROMIUM,
                    "args": [
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--no-first-run",
                    ],
                },
                "CONCURRENT_REQUESTS": 1,
            },
            meta={
                f"{base}/rendered-sjis": playwright,
                f"{base}/rendered-1251": playwright,
                f"{base}/download.csv": playwright,
            },
            timeout=300,
        )


def _paragraph(text: str) -> str:
    return text.split("<p>", 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize(
    ("path", "expected", "decided", "encoding"),
    [
        # scrapy-playwright reads the header's charset through w3lib: cp932, cp1251.
        pytest.param("/rendered-sjis", SIX_PAIRS, None, "cp932", id="rendered-shift_jis"),
        pytest.param("/rendered-1251", RUSSIAN, None, "cp1251", id="rendered-1251"),
        # libiconv's BIG5-HKSCS has no euro sign at A3 E1: the whatwg-* codec.
        pytest.param("/download.csv", CSV, "Big5", "whatwg-big5", id="download-big5"),
        pytest.param("/plain-sjis", SIX_PAIRS, "Shift_JIS", "whatwg-shift_jis", id="plain"),
    ],
)
def test_response(
    crawl: CrawlResult, path: str, expected: str, decided: str | None, encoding: str
) -> None:
    record: dict[str, Any] = crawl.response(path)
    assert "error" not in record, record
    text = record["text"] if path.endswith(".csv") else _paragraph(record["text"])
    assert text == expected
    assert record["encoding"] == encoding
    if decided is None:
        assert record["meta_charset"] is None
    else:
        assert record["meta_charset"]["encoding"] == decided


def test_counts(crawl: CrawlResult) -> None:
    stats = crawl.charset_stats()
    assert stats["charset/skipped/browser"] == 2
    assert stats["charset/response_count"] == 2
    assert crawl.stats["playwright/download_count"] == 1
