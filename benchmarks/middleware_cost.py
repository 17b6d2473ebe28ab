"""The middleware's CPU cost per response, on the pages of the crawl benchmark's site.

Run: ``python -m benchmarks.middleware_cost`` (``--pages``, ``--seed``, ``--repeat``,
``--parts``). Every page of
``benchmarks.crawl.Site(pages, seed)`` is built in memory and, one scenario at a time
(``Page.scenario``: UTF-8 declared in the header, in ``<meta>`` only, undeclared; legacy
encodings the same ways), timed three ways, with no network and no engine:

- (a) plain Scrapy: ``HtmlResponse(url, body=..., headers=..., request=...).text``;
- (b) this package: ``CharsetMiddleware.process_response`` and then ``.text``;
- (c) the floor: ``bytes.decode`` of the body with the page's Python codec.

Each figure is the best of ``--repeat`` passes over the scenario's pages, divided by their
number: microseconds per response. It prints them with the ratios b/a and b/c and what the
package adds per response (b - a); ``--parts`` adds ``process_response`` alone (with the
request and response it is given) and its own share (less building those two).

**Instructions** instead of time, for a machine shared with other work: under callgrind,
``--instructions`` runs each way once per scenario (after one pass that loads everything)
between two calls of ``os.getppid()`` and prints instructions per response::

    valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=/tmp/mw.out \
        python -m benchmarks.middleware_cost --pages 300 --instructions /tmp/mw.out
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from benchmarks._growth import best_time, callgrind_parts
from benchmarks.crawl import SCENARIOS, Page, Site

URL = "http://127.0.0.1/page/"


def _crawler_middleware() -> Any:
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.reactor import install_reactor, is_reactor_installed
    from scrapy.utils.test import get_crawler

    from scrapy_charset.responses.middleware import CharsetMiddleware

    if not is_reactor_installed():
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    crawler = get_crawler(settings_dict={"LOG_LEVEL": "INFO"})
    return build_from_crawler(CharsetMiddleware, crawler)


def measure(
    site: Site,
    pages: Sequence[Page],
    middleware: Any,
    repeat: int,
    parts: bool,
    *,
    instructions: str | None = None,
) -> dict[str, float]:
    """Per-response seconds over *pages* for each way (and the parts, with *parts*); with
    *instructions* (callgrind's output prefix), per-response instructions instead."""
    from scrapy import Request
    from scrapy.http import HtmlResponse

    inputs = [
        (f"{URL}{page.index}", b"".join(site.body(page)), page.content_type, page.codec)
        for page in pages
    ]

    def responses() -> Iterator[HtmlResponse]:
        """A new response per page, as the downloader hands it over."""
        for url, body, content_type, _ in inputs:
            yield HtmlResponse(
                url, body=body, headers={"Content-Type": content_type}, request=Request(url)
            )

    def plain() -> None:
        for response in responses():
            response.text  # noqa: B018

    def charset() -> None:
        for response in responses():
            middleware.process_response(response.request, response).text  # noqa: B018

    def process_only() -> None:
        for response in responses():
            middleware.process_response(response.request, response)

    def floor() -> None:
        for _, body, _, codec in inputs:
            body.decode(codec, "replace")

    def build() -> None:
        for _ in responses():
            pass

    ways: dict[str, Callable[[], None]] = {"a": plain, "b": charset, "c": floor}
    if parts:
        ways |= {"process": process_only, "build": build}
    if instructions is None:
        return {name: best_time(run, repeat=repeat) / len(inputs) for name, run in ways.items()}
    for run in ways.values():  # imports, tables and caches loaded once, as in a crawl
        run()
    first = len(callgrind_parts(instructions))
    for run in ways.values():
        os.getppid()
        run()
    os.getppid()
    counts = callgrind_parts(instructions)[first + 1 :]
    if len(counts) != len(ways):
        raise SystemExit("run this under callgrind with --dump-before=getppid (see --help)")
    return {name: count / len(inputs) for name, count in zip(ways, counts, strict=True)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--parts", action="store_true", help="also time process_response alone")
    parser.add_argument(
        "--instructions",
        metavar="PREFIX",
        help="count instructions instead of time, under callgrind (see the module's help)",
    )
    args = parser.parse_args(argv)
    site = Site(args.pages, args.seed)
    middleware = _crawler_middleware()
    groups: dict[str, list[Page]] = {}
    for page in site.pages:
        groups.setdefault(page.scenario, []).append(page)
    order = [name for name, *_ in SCENARIOS if name in groups]
    order += sorted(set(groups) - set(order))
    rows = [(name, groups[name]) for name in order] + [("all pages", site.pages)]
    header = (
        "| scenario | pages | KB | a: Scrapy .text | b: middleware + .text | c: decode "
        "| b/a | b/c | b - a |"
    )
    if args.parts:
        header += " process_response | its own share |"
    # Microseconds per response, or thousands of instructions.
    scale = 1e-3 if args.instructions else 1e6
    if args.instructions:
        print("Per response, thousands of instructions (one pass, after one that loads).")
    else:
        print(f"Per response, best of {args.repeat} passes, microseconds.")
    print()
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name, pages in rows:
        times = measure(
            site, pages, middleware, args.repeat, args.parts, instructions=args.instructions
        )
        kb = sum(len(b"".join(site.body(p))) for p in pages) / len(pages) / 1000
        a, b, c = (times[key] * scale for key in "abc")
        line = (
            f"| {name} | {len(pages)} | {kb:.0f} | {a:.1f} | {b:.1f} | {c:.1f} "
            f"| {b / a:.2f} | {b / c:.2f} | {b - a:+.1f} |"
        )
        if args.parts:
            own = (times["process"] - times["build"]) * scale
            line += f" {times['process'] * scale:.1f} | {own:.1f} |"
        print(line, flush=True)


if __name__ == "__main__":
    main()
