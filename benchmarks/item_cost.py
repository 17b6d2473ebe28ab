"""What the item side costs per item: Scrapy's components, the item stamp, the item checks.

Run: ``python -m benchmarks.item_cost`` (``--repeat``; ``--quick`` for fewer sizes). No
network and no engine: each configuration is a crawler's real spider middleware manager and
item pipeline manager (Scrapy's own, with its built-in spider middlewares), fed one
response's output, one item at a time, as the scraper does:

- **components**: microseconds per item through both managers, for Scrapy's built-in
  components only, with a spider middleware and an item pipeline that pass everything
  through (``benchmarks.crawl``'s pass-through mode), and with the add-on's item stamp and
  item checks, alone and together, with and without ``CHARSET_ITEM_FIELD``; on an ASCII
  item (the components' fixed cost: the text check skips ASCII) and on the items of the
  crawl benchmark's pages (``benchmarks.crawl.Site``).
- **growth**: ``CharsetPipeline.process_item`` alone on dict items of 1 to 64 fields, each
  10 to 10,000 characters of real text (the ASCII ones of CLDR's English names, and Russian), with
  the growth exponent in the number of fields and in their length (1.0 is linear).

Each figure is the best of ``--repeat`` runs (see :func:`benchmarks._growth.best_time`).

``--stages`` times instead each stage of ``inspect_text`` (:data:`STAGES`) on the damaged
fields of ``--damaged`` below, against ftfy's ``fix_encoding`` on the same fields in the
same run: where a damaged field's cost goes.

**Instructions** instead of time, for a machine shared with other work: under callgrind,
``--instructions`` runs each configuration's items once between two calls of
``os.getppid()`` and reads the instruction counts of the parts callgrind wrote there::

    valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=/tmp/cg.out \
        python -m benchmarks.item_cost --instructions /tmp/cg.out

``--damaged`` (with ``--instructions``) counts instead ``inspect_text`` and ftfy's
``fix_encoding`` in the same run, per field, on about 1,000 damaged fields of
``benchmarks.items`` (every way it damages pycountry's translations, legacy CJK and
Cyrillic included), a row for each way (the dearest in all first) and their sum, and on
as many clean non-ASCII fields. Each field is seen once: the warm-up runs other fields,
so no per-field cache is warm. Then the damaged fields are seen again, as the same
damaged value is on many pages of a crawl (their reports are kept:
``scrapy_charset.items.inspection.KEPT_REPORTS``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import scrapy
from scrapy.core.spidermw import SpiderMiddlewareManager
from scrapy.http import HtmlResponse, Request
from scrapy.pipelines import ItemPipelineManager
from scrapy.utils.test import get_crawler

from benchmarks._growth import best_time, callgrind_parts, growth_exponent
from benchmarks._itemdata import cldr_names
from scrapy_charset.items.pipeline import CharsetPipeline
from scrapy_charset.responses.middleware import CharsetMiddleware

_STAMP = "scrapy_charset.items.stamp.CharsetItemStampMiddleware"
_PIPELINE = "scrapy_charset.items.pipeline.CharsetPipeline"
_ADDON = {"ADDONS": {"scrapy_charset.Addon": 0}}
_FIELD = {"CHARSET_ITEM_FIELD": "charset"}
_NO_CHECKS = {_PIPELINE: None}

#: (name, settings): Scrapy's built-in components, then what is added to them.
CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Scrapy's built-in components", {}),
    (
        "pass-through spider middleware and pipeline",
        {
            "ITEM_PIPELINES": {"benchmarks.crawl.PassThroughPipeline": 300},
            "SPIDER_MIDDLEWARES": {"benchmarks.crawl.PassThroughSpiderMiddleware": 100},
        },
    ),
    (
        "item stamp, CHARSET_ITEM_FIELD set",
        {**_ADDON, **_FIELD, "ITEM_PIPELINES": {_PIPELINE: None}},
    ),
    ("item checks alone", {**_ADDON, "SPIDER_MIDDLEWARES": {_STAMP: None}}),
    ("add-on: item checks and stamp (the default)", _ADDON),
    ("add-on with CHARSET_ITEM_FIELD", {**_ADDON, **_FIELD}),
)

FIELDS = (1, 4, 16, 64)
LENGTHS = (10, 100, 1_000, 10_000)


class _Spider(scrapy.Spider):
    name = "item_cost"


class Chain:
    """One crawler's spider middleware and item pipeline managers."""

    def __init__(self, settings: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
        crawler = get_crawler(_Spider, {"ITEM_PIPELINES": {}, **settings})
        crawler.spider = crawler._create_spider()
        self.loop = loop
        self.decider = CharsetMiddleware.from_crawler(crawler)
        self.spidermw = SpiderMiddlewareManager.from_crawler(crawler)
        self.pipelines = ItemPipelineManager.from_crawler(crawler)
        loop.run_until_complete(self.pipelines.open_spider_async())

    def response(self, body: bytes, content_type: str) -> tuple[Request, HtmlResponse]:
        request = Request("http://127.0.0.1/page")
        plain = HtmlResponse(
            request.url, body=body, headers={"Content-Type": content_type}, request=request
        )
        response = self.decider.process_response(request, plain)
        assert isinstance(response, HtmlResponse)
        return request, response

    def run(self, pages: Sequence[tuple[Request, HtmlResponse, dict[str, Any]]]) -> None:
        """Each page's item, a fresh copy, through both managers."""

        async def scrape(response: Any, request: Request) -> Any:
            return iter([dict(request.meta["item"])])

        async def all_pages() -> None:
            for request, response, item in pages:
                request.meta["item"] = item
                output = await self.spidermw.scrape_response_async(scrape, response, request)
                async for result in output:
                    await self.pipelines.process_item_async(result)

        self.loop.run_until_complete(all_pages())


def _ascii_item() -> dict[str, Any]:
    return {
        "index": 1,
        "title": "Andorra - 1",
        "text": ", ".join(cldr_names("en")[:60]).encode("ascii", "ignore").decode(),
    }


def components(repeat: int, pages: int) -> None:
    from benchmarks.crawl import Site

    loop = asyncio.new_event_loop()
    site = Site(pages)
    chains = [(name, Chain(settings, loop)) for name, settings in CONFIGS]
    decider = chains[0][1]
    ascii_page = [(*decider.response(b"<p>x</p>", "text/html; charset=utf-8"), _ascii_item())]
    site_pages = []
    for page in site.pages:
        request, response = decider.response(b"".join(site.body(page)), page.content_type)
        title, text = site.expected(page)
        site_pages.append((request, response, {"index": page.index, "title": title, "text": text}))
    print("| Configuration | ASCII item, µs | + over Scrapy | site's items, µs | + over Scrapy |")
    print("|---|---:|---:|---:|---:|")
    base: tuple[float, float] | None = None
    for name, chain in chains:
        small = 1e6 * best_time(partial(chain.run, ascii_page), repeat=repeat)
        site_cost = 1e6 * best_time(partial(chain.run, site_pages), repeat=repeat) / pages
        if base is None:
            base = (small, site_cost)
        print(
            f"| {name} | {small:.1f} | {small - base[0]:+.1f} | {site_cost:.0f} "
            f"| {site_cost - base[1]:+.0f} |"
        )
    loop.close()


def instructions(prefix: str, pages: int, count: int) -> None:
    """Instructions per item of each configuration (run under callgrind, see above)."""
    from benchmarks.crawl import Site

    loop = asyncio.new_event_loop()
    chains = [(name, Chain(settings, loop)) for name, settings in CONFIGS]
    decider = chains[0][1]
    ascii_page = [(*decider.response(b"<p>x</p>", "text/html; charset=utf-8"), _ascii_item())]
    site_pages = []
    if pages:  # the site takes long to build under callgrind; --pages 0 leaves it out
        site = Site(pages)
        for page in site.pages:
            request, response = decider.response(b"".join(site.body(page)), page.content_type)
            title, text = site.expected(page)
            item = {"index": page.index, "title": title, "text": text}
            site_pages.append((request, response, item))
    for _, chain in chains:  # warm up: imports, caches, the first alert state
        chain.run(ascii_page * 20)
        chain.run(site_pages)
    first = callgrind_parts(prefix)
    for _, chain in chains:
        os.getppid()  # callgrind starts a new part here
        chain.run(ascii_page * count)
        os.getppid()
        chain.run(site_pages)
    os.getppid()
    parts = callgrind_parts(prefix)[len(first) + 1 :]
    if len(parts) != 2 * len(chains):
        raise SystemExit("run this under callgrind with --dump-before=getppid (see --help)")
    print("| Configuration | ASCII item, Ir | + over Scrapy | site's items, Ir | + over Scrapy |")
    print("|---|---:|---:|---:|---:|")
    base: tuple[float, float] | None = None
    for index, (name, _) in enumerate(chains):
        small = parts[2 * index] / count
        site_cost = parts[2 * index + 1] / pages if pages else 0.0
        if base is None:
            base = (small, site_cost)
        print(
            f"| {name} | {small:,.0f} | {small - base[0]:+,.0f} | {site_cost:,.0f} "
            f"| {site_cost - base[1]:+,.0f} |"
        )
    loop.close()


def growth_instructions(prefix: str, fields: Sequence[int], lengths: Sequence[int]) -> None:
    """:func:`growth` in instructions (run under callgrind, see above)."""
    pipeline = _pipeline()
    cases = []
    for language, words in _languages():
        for count in fields:
            for length in lengths:
                value = _text(words, length)
                item = {f"f{i}": value for i in range(count)}
                pipeline.process_item(item)  # warm up: the field paths, the alert state
                cases.append((language, count, length, item))
    inc = pipeline.stats.inc_value  # bound once, as the package's components do
    counts: dict[str, int] = {}
    calls = 1000
    first = callgrind_parts(prefix)
    os.getppid()
    for _ in range(calls):
        inc("item_cost/calls")
    os.getppid()
    for _ in range(calls):
        counts["item_cost/calls"] = counts.get("item_cost/calls", 0) + 1
    for _, _, _, item in cases:
        os.getppid()
        pipeline.process_item(item)
    os.getppid()
    parts = callgrind_parts(prefix)[len(first) + 1 :]
    if len(parts) != len(cases) + 2:
        raise SystemExit("run this under callgrind with --dump-before=getppid (see --help)")
    stats_call, dict_increment, parts = parts[0] / calls, parts[1] / calls, parts[2:]
    print(
        f"One call of Scrapy's stats collector's inc_value: {stats_call:,.0f} instructions "
        f"(a dict increment: {dict_increment:,.0f})"
    )
    table = {
        (language, count, length): ir
        for (language, count, length, _), ir in zip(cases, parts, strict=True)
    }
    _growth_table(table, fields, lengths, "instructions", "{:,.0f}")


def damaged_instructions(prefix: str, count: int = 1000) -> None:
    """Instructions per field of ``inspect_text`` and ``ftfy.fix_encoding`` on damaged and
    clean non-ASCII fields (run under callgrind, see above)."""
    import ftfy

    from benchmarks._itemdata import clean_values, legacy_samples, utf8_samples
    from scrapy_charset.items.inspection import clear_kept_reports
    from scrapy_charset.items.textcheck import inspect_text

    fields = clean_values(per_language=200)
    samples = [*utf8_samples(fields), *(sample for sample, _ in legacy_samples(fields))]
    step = max(1, len(samples) // count)
    # The damaged fields by how benchmarks.items damaged them: each field is counted once,
    # in its kind's row, and the damaged row is their sum (the caches of a segment's
    # readings would be warm for a second pass over the same fields).
    kinds: dict[str, list[str]] = {}
    for sample in samples[::step]:
        kinds.setdefault(sample.how, []).append(sample.damaged)
    clean = [f.text for f in fields if not f.text.isascii()][:: step // 4 or 1]
    warm = [s.damaged for s in samples[1 :: step * 4]] + [f.text for f in fields[1::50]]
    for value in warm:  # imports, tables read once; not the measured fields' caches
        inspect_text(value)
        ftfy.fix_encoding(value)
    clear_kept_reports()  # a warm-up value may be a measured one (a field damaged two ways)
    first = callgrind_parts(prefix)
    again = [value for values in kinds.values() for value in values]
    measured = [*kinds.values(), clean, again]
    for values in measured:
        for function in (inspect_text, ftfy.fix_encoding):
            os.getppid()
            for value in values:
                function(value)
    os.getppid()
    parts = callgrind_parts(prefix)[len(first) + 1 :]
    if len(parts) != 2 * len(measured):
        raise SystemExit("run this under callgrind with --dump-before=getppid (see --help)")
    totals = [(parts[2 * i], parts[2 * i + 1], len(values)) for i, values in enumerate(measured)]
    damaged = [sum(column) for column in zip(*totals[: len(kinds)], strict=True)]
    rows = {"damaged": damaged, "clean, non-ASCII": totals[-2], "damaged, seen again": totals[-1]}
    per_field = [(ours / n, theirs / n) for ours, theirs, n in rows.values()]
    print("| Fields | count | inspect_text, Ir a field | ftfy.fix_encoding, Ir a field | ratio |")
    print("|---|---:|---:|---:|---:|")
    for (name, (_ours, _theirs, n)), (ours, theirs) in zip(rows.items(), per_field, strict=True):
        print(f"| {name} | {n:,} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f}x |")
    print("\n| Damaged fields, by how | count | inspect_text | ftfy.fix_encoding | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, (ours, theirs, n) in sorted(
        zip(kinds, totals, strict=False), key=lambda row: -row[1][0]
    ):
        print(f"| {name} | {n:,} | {ours / n:,.0f} | {theirs / n:,.0f} | {ours / theirs:.2f}x |")
    share = break_even(per_field[0], per_field[1])
    if share is not None:
        print(
            f"\nOn non-ASCII fields of which less than {share:.2%} are damaged, inspect_text "
            "costs less than ftfy.fix_encoding a field."
        )


def break_even(damaged: tuple[float, float], clean: tuple[float, float]) -> float | None:
    """The share of damaged fields, among non-ASCII ones, at which ``inspect_text`` and
    ``ftfy.fix_encoding`` cost the same a field, from each one's cost, ``(ours, ftfy's)``,
    on a damaged and on a clean field; None when one costs no more on either (no such
    share)."""
    extra = damaged[0] - damaged[1]  # what a damaged field costs more with inspect_text
    saved = clean[1] - clean[0]  # what a clean field costs less
    if extra <= 0 or saved <= 0:
        return None
    return saved / (extra + saved)


_INSPECTION = "scrapy_charset.items.inspection"
_ENGINE = "scrapy_charset.items._engine"
#: The stages of ``inspect_text`` on a damaged field that ``--stages`` times: (depth, label,
#: module, name). Each is timed from the call, where the module above it looks the name up,
#: to its return, what it calls included; a stage is part of the one of less depth above it.
STAGES: tuple[tuple[int, str, str, str], ...] = (
    (0, "pre-filter (badness.scan)", _INSPECTION, "scan"),
    (0, "finding and repair (_engine.find)", _ENGINE, "find"),
    (1, "ftfy's plan, layer by layer (_plan)", _ENGINE, "_plan"),
    (2, "ftfy's own step", "scrapy_charset.items.mojibake.plan", "layers"),
    (1, "evidence (_Detected)", _ENGINE, "_Detected"),
    (1, "the fallback table (_fallback)", _ENGINE, "_fallback"),
    (1, "legacy readings (_legacy)", _ENGINE, "_legacy"),
    (1, "words read alike (_tokens_agree)", _ENGINE, "_tokens_agree"),
    (1, "whole readings (_whole_reading_beats)", _ENGINE, "_whole_reading_beats"),
    (1, "damage left (_left)", _ENGINE, "_left"),
)


def stages(repeat: int, count: int = 1000) -> None:
    """Microseconds a damaged field in each stage of ``inspect_text`` (:data:`STAGES`), and
    ftfy's ``fix_encoding`` on the same fields in the same run: where a damaged field's
    cost goes, as a multiple of ftfy's whole fix. Best of *repeat* passes over the fields;
    the wrapping adds a little to each stage (the total is timed without it)."""
    import importlib
    import time

    import ftfy

    from benchmarks._itemdata import clean_values, legacy_samples, utf8_samples
    from scrapy_charset.items.inspection import clear_kept_reports
    from scrapy_charset.items.textcheck import inspect_text

    fields = clean_values(per_language=200)
    samples = [*utf8_samples(fields), *(sample for sample, _ in legacy_samples(fields))]
    values = [s.damaged for s in samples[:: max(1, len(samples) // count)]]
    for value in values[1::20]:  # imports, tables read once
        inspect_text(value)
        ftfy.fix_encoding(value)

    def first_inspections() -> None:  # each pass inspects each value for the first time
        clear_kept_reports()
        for value in values:
            inspect_text(value)

    total = best_time(first_inspections, repeat=repeat)
    theirs = best_time(lambda: [ftfy.fix_encoding(v) for v in values], repeat=repeat)
    spent: dict[str, float] = {}

    def timed(label: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + time.perf_counter() - start

        return wrapper

    originals = []
    for _depth, label, module_name, name in STAGES:
        module = importlib.import_module(module_name)
        originals.append((module, name, getattr(module, name)))
        setattr(module, name, timed(label, getattr(module, name)))
    try:
        best: dict[str, float] = {}
        for _ in range(repeat):
            spent.clear()
            first_inspections()
            if not best or sum(spent.values()) < sum(best.values()):
                best = dict(spent)
    finally:
        for module, name, function in originals:
            setattr(module, name, function)
    per_field = 1e6 / len(values)
    ftfy_field = theirs * per_field
    print(f"{len(values):,} damaged fields; ftfy.fix_encoding: {ftfy_field:.1f} µs a field")
    print("| Stage of inspect_text | µs a field | x ftfy's fix_encoding |")
    print("|---|---:|---:|")
    print(f"| all (unwrapped) | {total * per_field:.1f} | {total / theirs:.2f} |")
    for depth, label, _module, _name in STAGES:
        seconds = best.get(label, 0.0)
        indent = "\u2003" * depth
        print(f"| {indent}{label} | {seconds * per_field:.1f} | {seconds / theirs:.2f} |")


def _text(words: Sequence[str], length: int) -> str:
    out, size, i = [], 0, 0
    while size < length:
        word = words[i % len(words)]
        out.append(word)
        size += len(word) + 2
        i += 1
    return ", ".join(out)[:length]


def _pipeline() -> CharsetPipeline:
    crawler = get_crawler(_Spider, {})
    crawler.spider = crawler._create_spider()
    return CharsetPipeline.from_crawler(crawler)


def _languages() -> list[tuple[str, list[str]]]:
    english = [w for w in cldr_names("en") if w.strip() and w.isascii()]
    russian = [w for w in cldr_names("ru") if w.strip()]
    return [("English, ASCII", english), ("Russian", russian)]


def growth(repeat: int, fields: Sequence[int], lengths: Sequence[int]) -> None:
    pipeline = _pipeline()
    table: dict[tuple[str, int, int], float] = {}
    for language, words in _languages():
        for count in fields:
            for length in lengths:
                value = _text(words, length)
                item = {f"f{i}": value for i in range(count)}
                check = partial(pipeline.process_item, item)
                table[language, count, length] = 1e6 * best_time(check, repeat=repeat)
    _growth_table(table, fields, lengths, "µs", "{:,.1f}")


def _growth_table(
    table: Mapping[tuple[str, int, int], float],
    fields: Sequence[int],
    lengths: Sequence[int],
    unit: str,
    cell: str,
) -> None:
    for language in dict.fromkeys(key[0] for key in table):
        print(f"\n{language}: {unit} per item (fields x characters per field)")
        print("| fields | " + " | ".join(f"{n:,}" for n in lengths) + " | exponent in length |")
        print("|---:|" + "---:|" * (len(lengths) + 1))
        for count in fields:
            row = [table[language, count, n] for n in lengths]
            cells = " | ".join(cell.format(t) for t in row)
            print(f"| {count} | {cells} | {growth_exponent(list(lengths), row):.2f} |")
        by_fields = [
            growth_exponent(list(fields), [table[language, c, n] for c in fields]) for n in lengths
        ]
        print("| exponent in fields | " + " | ".join(f"{e:.2f}" for e in by_fields) + " | |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pages", type=int, default=200, help="crawl benchmark pages")
    parser.add_argument("--quick", action="store_true", help="fewer sizes")
    parser.add_argument(
        "--instructions", metavar="PREFIX", help="callgrind's --callgrind-out-file, to count"
    )
    parser.add_argument("--items", type=int, default=200, help="ASCII items per count")
    parser.add_argument(
        "--damaged", action="store_true", help="with --instructions: damaged fields against ftfy"
    )
    parser.add_argument(
        "--stages",
        action="store_true",
        help="microseconds a damaged field in each stage of inspect_text, against ftfy",
    )
    args = parser.parse_args(argv)
    if args.stages:
        stages(args.repeat)
        return
    fields, lengths = (FIELDS[:3], LENGTHS[:3]) if args.quick else (FIELDS, LENGTHS)
    if args.instructions and args.damaged:
        damaged_instructions(args.instructions)
        return
    if args.instructions:
        instructions(args.instructions, args.pages, args.items)
        growth_instructions(args.instructions, fields, lengths)
        return
    if args.pages:
        components(args.repeat, args.pages)
    growth(args.repeat, fields, lengths)


if __name__ == "__main__":
    main()
