"""Before/after: crawl the same pages with plain Scrapy and with scrapy-charset.

    python -m example_project.compare                      # the demo site
    python -m example_project.compare --url https://example.com/ --max-pages 5
    python -m example_project.compare --json               # machine-readable

Both crawls run in one process, each with its own copy of the demo site. The first runs
with no add-on (Scrapy's own decoding), the second with this project's settings
(``ADDONS = {"scrapy_charset.Addon": 0}``). For each page it prints whether the items'
text differs, the encoding each side used, and a short sample of each.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any
from urllib.parse import urlsplit

MODES = ("plain", "charset")
SAMPLE = 70


def crawl(
    modes: tuple[str, ...] = MODES, url: str | None = None, max_pages: int = 20
) -> dict[str, list[dict[str, Any]]]:
    """Run the demo spider once per mode, in one process; the items of each, by mode."""
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "example_project.settings")
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    from example_project.spiders.demo import DemoSpider

    settings = get_project_settings()
    settings.set("LOG_LEVEL", "ERROR", priority="cmdline")
    # The project's add-ons (scrapy-charset) go to the second crawler only.
    addons = settings["ADDONS"].copy_to_dict()
    settings.set("ADDONS", {}, priority="project")
    process = CrawlerProcess(settings)
    items: dict[str, list[dict[str, Any]]] = {}
    overrides: dict[str, dict[str, Any]] = {"plain": {}, "charset": {"ADDONS": addons}}
    for mode in modes:
        spidercls = type(
            f"{mode.capitalize()}DemoSpider",
            (DemoSpider,),
            {"custom_settings": overrides[mode]},
        )
        crawler = process.create_crawler(spidercls)
        collected: list[dict[str, Any]] = []
        items[mode] = collected

        def keep(item: dict[str, Any], collected: list[dict[str, Any]] = collected) -> None:
            collected.append(dict(item))

        crawler.signals.connect(keep, signal=signals.item_scraped, weak=False)
        kwargs: dict[str, Any] = {"max_pages": max_pages}
        if url:
            kwargs["url"] = url
        process.crawl(crawler, **kwargs)
    process.start()
    return items


def page_key(url: str) -> str:
    """A page's name across the two crawls (the demo site's port differs between them)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if host == "127.0.0.1":
        host = ""
    return host + (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _decision(item: dict[str, Any]) -> str:
    stamp = item.get("encoding")
    if isinstance(stamp, dict):
        return f"{stamp.get('encoding')} ({stamp.get('source')})"
    if stamp:
        return str(stamp)
    return str(item.get("response_encoding") or "-")


def rows(items: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per page: both sides' encoding and text, and whether the text differs."""
    by_mode = {mode: {page_key(i["url"]): i for i in found} for mode, found in items.items()}
    keys = sorted({key for found in by_mode.values() for key in found})
    out = []
    for key in keys:
        plain = by_mode.get("plain", {}).get(key, {})
        charset = by_mode.get("charset", {}).get(key, {})

        def text(item: dict[str, Any]) -> str | None:
            if not item or item.get("text") is None:
                return None
            return f"{item.get('title') or ''} | {item['text']}"

        out.append(
            {
                "page": key,
                "differs": bool(plain and charset) and text(plain) != text(charset),
                "plain": {"encoding": _decision(plain), "text": text(plain)},
                "charset": {"encoding": _decision(charset), "text": text(charset)},
            }
        )
    return out


def _sample(text: str | None) -> str:
    if text is None:
        return "(not text)"
    return text if len(text) <= SAMPLE else text[: SAMPLE - 1] + "…"


def render(table: list[dict[str, Any]]) -> str:
    lines = []
    width = max((len(row["page"]) for row in table), default=4)
    for row in table:
        verdict = "DIFFERS" if row["differs"] else "same"
        plain, charset = row["plain"], row["charset"]
        lines.append(
            f"{row['page']:<{width}}  {verdict:<7}  "
            f"Scrapy: {plain['encoding']}  scrapy-charset: {charset['encoding']}"
        )
        if row["differs"]:
            lines.append(f"  Scrapy:         {_sample(plain['text'])}")
            lines.append(f"  scrapy-charset: {_sample(charset['text'])}")
    changed = sum(row["differs"] for row in table)
    verb = "differs" if changed == 1 else "differ"
    lines.append(f"\n{changed} of {len(table)} pages {verb}.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m example_project.compare",
        description="Crawl the demo site (or --url) with plain Scrapy and with scrapy-charset.",
    )
    parser.add_argument("--url", help="crawl this site instead of the demo site")
    parser.add_argument("--max-pages", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--modes", default=",".join(MODES), help="which crawls to run (plain,charset)"
    )
    args = parser.parse_args(argv)
    modes = tuple(mode for mode in args.modes.split(",") if mode)
    if not modes or set(modes) - set(MODES):
        parser.error(f"--modes takes a comma-separated subset of {','.join(MODES)}")
    table = rows(crawl(modes, args.url, args.max_pages))
    if args.json:
        json.dump(table, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print(render(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
