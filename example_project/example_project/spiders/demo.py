"""The demo spider: crawls the embedded demo site, or a site you name.

    python -m scrapy crawl demo                          # the demo site, on 127.0.0.1
    python -m scrapy crawl demo -a url=https://example.com/ -a max_pages=10
    python -m scrapy crawl demo -O items.jsonl           # keep the items

Each page gives one item: its URL, title and a sample of its text, the encoding Scrapy's
response reports, and (added by scrapy-charset, ``CHARSET_ITEM_FIELD = "encoding"``) the
encoding decision.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.http import HtmlResponse, JsonResponse, Response, TextResponse, XmlResponse

from example_project.demo_site import VIRTUAL_HOSTS, DemoSite

_VISIBLE_TEXT = "//body//text()[not(ancestor::script or ancestor::style)]"

#: Characters of page text kept in an item.
TEXT_SAMPLE = 1000


def _squash(parts: list[str]) -> str:
    return " ".join(" ".join(parts).split())


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def extract(response: Response) -> dict[str, Any]:
    """Title and text sample of a response, as the spider's items carry them.

    The text comes from ``response.text``, which is what scrapy-charset changes: for JSON
    the spider parses ``response.text`` too (``response.json()`` parses the raw bytes).
    """
    if not isinstance(response, TextResponse):
        return {
            "title": None,
            "text": None,
            "content_type": (response.headers.get(b"Content-Type") or b"").decode("latin-1"),
        }
    title: str | None
    if isinstance(response, JsonResponse):
        data = json.loads(response.text)
        title = data.get("title") if isinstance(data, dict) else None
        text = _squash(list(_strings(data)))
    elif isinstance(response, XmlResponse):
        title = response.xpath("//channel/title/text()").get()
        text = _squash(response.xpath("//item/title/text()").getall())
    elif isinstance(response, HtmlResponse):
        title = response.css("title::text").get()
        text = _squash(response.xpath(_VISIBLE_TEXT).getall())
    else:
        title = None
        text = _squash([response.text])
    return {"title": title, "text": text[:TEXT_SAMPLE]}


def _plain_scrapy(response: Response) -> Response:
    """The response as Scrapy alone decodes it: its class rebuilt from the raw body and
    headers, with no encoding given."""
    if not isinstance(response, TextResponse):
        return response
    for cls in (JsonResponse, XmlResponse, HtmlResponse, TextResponse):
        if isinstance(response, cls):
            return cls(response.url, body=response.body, headers=response.headers)
    return response  # pragma: no cover - every TextResponse is one of them


class DemoSpider(scrapy.Spider):
    """Crawl the demo site (default) or ``-a url=...`` and its same-host links."""

    name = "demo"

    def __init__(self, url: str | None = None, max_pages: str | int = 20, **kwargs: Any):
        super().__init__(**kwargs)
        self.url = url
        self.max_pages = int(max_pages)
        self.demo_site: DemoSite | None = None
        self.requested = 0
        # Before/after, as python -m example_project.compare shows it page by page: each
        # text page's item as plain Scrapy would read it, compared with the item scraped.
        self.plain: dict[str, tuple[Any, Any]] = {}
        self.pages = 0
        self.differ = 0
        self._compared = False
        if url:
            self.download_delay = 1.0

    async def start(self) -> AsyncIterator[Any]:
        if self.url:
            self.requested += 1
            yield scrapy.Request(self.url)
            return
        self.demo_site = DemoSite()
        base = self.demo_site.start()
        self.logger.info("Demo site running on %s/", base)
        yield scrapy.Request(base + "/")

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> DemoSpider:
        spider: DemoSpider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider._scraped, signal=scrapy.signals.item_scraped)
        return spider

    def _scraped(self, item: Any) -> None:
        """Count the page, and whether plain Scrapy's reading of it gives other text."""
        if not isinstance(item, dict):
            return
        self.pages += 1
        plain = self.plain.pop(item.get("url", ""), None)
        if plain is not None and plain != (item.get("title"), item.get("text")):
            self.differ += 1

    def closed(self, reason: str) -> None:
        if self.pages and self._compared:
            self.logger.info(
                "Before/after: %(differ)s of %(pages)s pages %(verb)s from what plain Scrapy "
                "reads (python -m example_project.compare shows each page).",
                {
                    "differ": self.differ,
                    "pages": self.pages,
                    "verb": "differs" if self.differ == 1 else "differ",
                },
            )
        if self.demo_site is not None:
            self.demo_site.stop()
            self.demo_site = None

    def _allowed(self, url: str, response: Response) -> bool:
        host = urlsplit(url).hostname
        if self.demo_site is not None:
            return host in VIRTUAL_HOSTS or host == urlsplit(response.url).hostname
        return host == urlsplit(self.url or "").hostname

    def parse(self, response: Response) -> Iterator[Any]:
        item: dict[str, Any] = {"url": response.url, **extract(response)}
        # scrapy-charset's decision for this response, when its middleware is enabled: the
        # item stamp carries its WHATWG name, which any process can decode a stored body
        # with (scrapy_charset.decode), never response.encoding, a codec spelling.
        decision = response.meta.get("charset")
        if isinstance(decision, dict):
            how = f"{decision.get('encoding')} ({decision.get('source')})"
            plain = extract(_plain_scrapy(response))
            self.plain[response.url] = (plain["title"], plain["text"])
            self._compared = True
        elif isinstance(response, TextResponse):
            item["response_encoding"] = response.encoding  # Scrapy's own choice
            how = response.encoding
        else:
            how = "not text"
        self.logger.info("%s [%s] %s", response.url, how, item["title"])
        yield item
        if not isinstance(response, HtmlResponse):
            return
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if self.requested >= self.max_pages or not self._allowed(url, response):
                continue
            self.requested += 1
            yield scrapy.Request(url)
