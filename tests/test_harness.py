"""The crawl-test harness works on its own: plain Scrapy against the local server."""

from __future__ import annotations

from tests.crawl import run_crawl
from tests.server import Page, serve


def test_plain_scrapy_crawl_against_local_server() -> None:
    routes = {
        "/a": Page("<p>café".encode("cp1252"), {"Content-Type": "text/html; charset=cp1252"}),
        "/b": Page(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", {"Content-Type": "image/png"}),
    }
    with serve(routes) as base:
        result = run_crawl([f"{base}/a", f"{base}/b"], {})
    assert result.response("/a")["text"] == "<p>café"
    assert result.response("/a")["class"] == "HtmlResponse"
    assert result.response("/b")["class"] == "Response"
    assert result.stats["downloader/response_count"] == 2
