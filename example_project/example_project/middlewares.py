"""Routes requests for the demo site's virtual hosts through the demo server.

The demo site has a page on ``novosti.example.ru`` so that its URL carries a real
country-code top-level domain, a hint browsers and detectors use. There is no DNS for it:
requests to that host (including its robots.txt) go to the local demo server as an HTTP
proxy, which serves the page by host name. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from example_project.demo_site import VIRTUAL_HOSTS

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler


class DemoSiteRouting:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DemoSiteRouting:
        return cls(crawler)

    # ``spider`` is passed by Scrapy 2.13 only; newer versions deprecate it.
    def process_request(self, request: Request, spider: Spider | None = None) -> None:
        site = getattr(self.crawler.spider, "demo_site", None)
        if site is not None and urlsplit(request.url).hostname in VIRTUAL_HOSTS:
            request.meta["proxy"] = site.base_url
