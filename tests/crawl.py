"""Run a real Scrapy crawl in a subprocess and collect what it saw, for crawl tests.

A crawl runs in its own process (a Twisted reactor cannot be restarted in one process).
The spider fetches the given URLs; for each response it records the class, ``.text``,
``.encoding`` and ``meta["charset"]``, and yields the callback's items (given, or extracted
from the page with a CSS selector: one ``{"page", "index", "value"}`` item per match); the
result carries the items, the final stats and the log. An item given as a dict with an
``"__item_class__": "module:Name"`` key is built as that class (``scrapy.Item``,
dataclass, attrs, pydantic...) from the other keys.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

_SCRIPT = r"""
import importlib, json, sys
import scrapy
from itemadapter import ItemAdapter
from scrapy.crawler import CrawlerProcess

config = json.load(open(sys.argv[1]))
out_path = sys.argv[2]
responses, items = [], []

class Probe(scrapy.Spider):
    name = "probe"
    custom_settings = config.get("spider_settings", {})

    async def start(self):
        for url in config["urls"]:
            yield scrapy.Request(url, meta=config.get("meta", {}).get(url, {}),
                                 dont_filter=True, errback=self.failed)

    def parse(self, response):
        record = {
            "url": response.url,
            "class": type(response).__name__,
            "status": response.status,
            "meta_charset": response.meta.get("charset"),
            "body_len": len(response.body),
        }
        if isinstance(response, scrapy.http.TextResponse):
            record["text"] = response.text
            record["encoding"] = response.encoding
        responses.append(record)
        for item in config.get("items", {}).get(response.url, []):
            yield make_item(item)
        selector = config.get("extract", {}).get(response.url)
        if selector is not None:
            for index, value in enumerate(response.css(selector).getall()):
                yield {"page": response.url.rsplit("/", 1)[-1], "index": index, "value": value}

    def failed(self, failure):
        responses.append({"url": failure.request.url, "error": repr(failure.value)})

def make_item(spec):
    spec = dict(spec)
    path = spec.pop("__item_class__", None)
    if path is None:
        return spec
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)(**spec)

def collect(item):
    items.append(ItemAdapter(item).asdict())

process = CrawlerProcess(config["settings"])
crawler = process.create_crawler(Probe)
crawler.signals.connect(collect, signal=scrapy.signals.item_scraped)
process.crawl(crawler)
process.start()
try:
    all_stats = crawler.stats.get_stats()
except (AttributeError, RuntimeError):  # the crawl stopped before it started
    all_stats = {}
stats = {k: v for k, v in all_stats.items() if isinstance(v, (int, float, str))}
json.dump({"responses": responses, "items": items, "stats": stats}, open(out_path, "w"))
"""


@dataclass
class CrawlResult:
    responses: list[dict[str, Any]]
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str

    def response(self, url_suffix: str) -> dict[str, Any]:
        for record in self.responses:
            if record["url"].endswith(url_suffix):
                return record
        raise KeyError(url_suffix)

    def charset_stats(self) -> dict[str, Any]:
        return {k: v for k, v in self.stats.items() if k.startswith("charset/")}


def run_crawl(
    urls: list[str],
    settings: dict[str, Any],
    *,
    meta: dict[str, dict[str, Any]] | None = None,
    items: dict[str, list[dict[str, Any]]] | None = None,
    extract: dict[str, str] | None = None,
    timeout: float = 120,
) -> CrawlResult:
    """Crawl *urls* with *settings* (project priority) in a fresh Python process."""
    base = {
        "LOG_LEVEL": "DEBUG",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "RETRY_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 30,
    }
    config = {
        "urls": urls,
        "settings": {**base, **settings},
        "meta": meta or {},
        "items": items or {},
        "extract": extract or {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        config_path = Path(tmp) / "config.json"
        out_path = Path(tmp) / "out.json"
        config_path.write_text(json.dumps(config))
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        }
        proc = subprocess.run(
            [sys.executable, "-c", _SCRIPT, str(config_path), str(out_path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=tmp,
            env=env,
            check=False,
        )
        if proc.returncode != 0 or not out_path.exists():
            raise AssertionError(f"crawl failed ({proc.returncode}):\n{proc.stderr[-5000:]}")
        data = json.loads(out_path.read_text())
    return CrawlResult(data["responses"], data["items"], data["stats"], proc.stderr)
