"""What the middleware costs per response, against Scrapy's own decoding and the floor.

Run: ``python -m benchmarks.overhead`` (``--quick``: up to 1 MB; ``--big``: add one 50 MB
body). On real-language pages built from pycountry's translation catalogues, for each class
of page and each size, in one run:

- (a) Scrapy's own decoding: ``HtmlResponse(url, body=..., headers=...).text``;
- (b) this package: the middleware's ``process_response`` and then ``.text``;
- (c) the floor: ``bytes.decode`` of the body with the right Python codec.

It prints the times and the ratios b/a and b/c per size, the per-megabyte ratio and the
fixed cost (a least-squares fit of time = fixed + per_mb * size), the growth exponent of
(b) over the sizes, and the tracemalloc peak of (a) and (b) as a multiple of (c)'s.
"""

from __future__ import annotations

import argparse
import gettext
import math
import os
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks._growth import best_time, growth_exponent

URL = "https://example.com/page.html"
KB = 1000
MB = 1000 * KB
SIZES = [10 * KB, 100 * KB, MB, 10 * MB]
BIG = 50 * MB

# --- Real text ---------------------------------------------------------------------------

_CATALOGUES = ("iso3166-1", "iso3166-2", "iso639-3", "iso4217", "iso15924")


def catalogue_strings(language: str) -> list[str]:
    """The translated strings of pycountry's catalogues for *language*."""
    import pycountry

    strings: list[str] = []
    for name in _CATALOGUES:
        path = os.path.join(pycountry.LOCALES_DIR, language, "LC_MESSAGES", f"{name}.mo")
        if not os.path.exists(path):
            continue
        with open(path, "rb") as handle:
            catalog: dict[str, str] = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
        strings.extend(v for k, v in sorted(catalog.items()) if k and v and v != k)
    return strings


def page(strings: Sequence[str], size: int, encoding: str, meta: str | None) -> bytes:
    """An HTML page of about *size* bytes in *encoding*: a head, then paragraphs of
    *strings* repeated until the size is reached. *meta* is a ``<meta charset>`` label."""
    head = '<!DOCTYPE html>\n<html lang="x">\n<head>\n'
    if meta is not None:
        head += f'<meta charset="{meta}">\n'
    head += (
        "<title>Countries, languages and currencies</title>\n"
        '<link rel="stylesheet" href="/style.css">\n'
        "<script>var page = {kind: 'catalogue'};</script>\n</head>\n<body>\n"
    )
    paragraphs: list[bytes] = []
    for index in range(0, len(strings), 8):
        text = " · ".join(strings[index : index + 8])
        encoded = f'<p class="entry" id="e{index}">{text}</p>\n'.encode(encoding, "ignore")
        paragraphs.append(encoded)
    unit = b"".join(paragraphs)
    start = head.encode(encoding)
    end = b"</body>\n</html>\n"
    repeat = max(1, (size - len(start) - len(end)) // len(unit) + 1)
    body = (unit * repeat)[: max(0, size - len(start) - len(end))]
    # Cut at a paragraph boundary so the text stays whole.
    cut = body.rfind(b"</p>\n")
    body = body[: cut + 5] if cut > 0 else body
    return start + body + end


@dataclass(frozen=True)
class Case:
    """One kind of page: how it is declared, and its text in which encoding."""

    name: str
    group: str  # the class in the summary
    language: str | tuple[str, ...]
    whatwg: str  # the true encoding (Encoding Standard name)
    python: str  # the Python codec for the floor
    header: str  # the Content-Type header
    meta: str | None

    def strings(self) -> list[str]:
        languages = (self.language,) if isinstance(self.language, str) else self.language
        per_language = [catalogue_strings(language) for language in languages]
        mixed: list[str] = []
        for row in zip(*per_language, strict=False):  # interleaved: a multilingual page
            mixed.extend(row)
        return mixed

    def body(self, size: int) -> bytes:
        return page(self.strings(), size, self.python, self.meta)


MIXED = ("ru", "ja", "zh_CN", "de", "el", "ar", "fr", "th", "ko", "he")
LEGACY = (
    ("ru", "windows-1251", "cp1251"),
    ("ja", "Shift_JIS", "cp932"),
    ("zh_CN", "GBK", "gbk"),
    ("de", "windows-1252", "cp1252"),
)

CASES: list[Case] = [
    Case("utf-8, header", "UTF-8 declared in the header", MIXED, "UTF-8", "utf-8",
         "text/html; charset=utf-8", None),
    Case("utf-8, meta", "UTF-8 declared in <meta> only", MIXED, "UTF-8", "utf-8",
         "text/html", "utf-8"),
    Case("utf-8, undeclared", "UTF-8, undeclared", MIXED, "UTF-8", "utf-8", "text/html", None),
    *[
        Case(f"{language} {whatwg}, header", "legacy, declared", language, whatwg, codec,
             f"text/html; charset={whatwg.lower()}", None)
        for language, whatwg, codec in LEGACY
    ],
    *[
        Case(f"{language} {whatwg}, undeclared", "legacy, undeclared", language, whatwg, codec,
             "text/html", None)
        for language, whatwg, codec in LEGACY
    ],
]  # fmt: skip

# --- The three ways to get the text ------------------------------------------------------


def scrapy_text(body: bytes, header: str) -> Callable[[], str]:
    from scrapy.http import HtmlResponse

    def run() -> str:
        return HtmlResponse(URL, body=body, headers={"Content-Type": header}).text

    return run


def _middleware() -> tuple[str, Callable[[bytes, str], Callable[[], str]]]:
    """(label, factory) for (b): the middleware's ``process_response``, then ``.text``."""
    from scrapy import Request
    from scrapy.http import HtmlResponse
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.reactor import install_reactor, is_reactor_installed
    from scrapy.utils.test import get_crawler

    from scrapy_charset.responses.middleware import CharsetMiddleware

    if not is_reactor_installed():
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    crawler = get_crawler(settings_dict={"LOG_LEVEL": "INFO"})
    middleware: Any = build_from_crawler(CharsetMiddleware, crawler)

    def real(body: bytes, header: str) -> Callable[[], str]:
        def run() -> str:
            request = Request(URL)
            response = HtmlResponse(
                URL, body=body, headers={"Content-Type": header}, request=request
            )
            processed = middleware.process_response(request, response)
            text: str = processed.text
            return text

        return run

    return "CharsetMiddleware.process_response + .text", real


def floor(body: bytes, codec: str) -> Callable[[], str]:
    def run() -> str:
        return body.decode(codec, "replace")

    return run


def peak_memory(function: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def fit(sizes: Sequence[int], times: Sequence[float]) -> tuple[float, float]:
    """Least squares of time = fixed + per_byte * size: (fixed seconds, seconds per MB)."""
    mean_x = sum(sizes) / len(sizes)
    mean_y = sum(times) / len(times)
    num = sum((x - mean_x) * (y - mean_y) for x, y in zip(sizes, times, strict=True))
    den = sum((x - mean_x) ** 2 for x in sizes)
    slope = num / den
    return mean_y - slope * mean_x, slope * MB


# --- The run -----------------------------------------------------------------------------


@dataclass
class Row:
    case: Case
    size: int  # the nominal size; the body is cut at a paragraph boundary below it
    a: float
    b: float
    c: float
    mem_a: int
    mem_b: int
    mem_c: int


def measure(cases: Sequence[Case], sizes: Sequence[int], *, memory: bool) -> list[Row]:
    _, make_b = _middleware()
    rows: list[Row] = []
    for case in cases:
        for size in sizes:
            body = case.body(size)
            runs = (scrapy_text(body, case.header), make_b(body, case.header))
            run_c = floor(body, case.python)
            assert runs[1]() == run_c() or case.group == "legacy, undeclared", case.name
            repeat = 5 if size <= MB else 3
            a, b, c = (best_time(run, repeat=repeat) for run in (*runs, run_c))
            mems = [peak_memory(run) if memory else 0 for run in (*runs, run_c)]
            rows.append(Row(case, size, a, b, c, *mems))
            print(
                f"  {case.name:<32}{len(body):>12,} B  a {a * 1e3:9.2f} ms  b {b * 1e3:9.2f} ms"
                f"  c {c * 1e3:9.2f} ms  b/a {b / a:5.2f}  b/c {b / c:5.2f}",
                file=sys.stderr,
            )
    return rows


def _geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def report(rows: Sequence[Row], label: str) -> str:
    lines = [f"(b) is: {label}", ""]
    lines.append("| class | size | a: Scrapy | b: scrapy-charset | c: decode | b/a | b/c "
                 "| peak a/c | peak b/c |")  # fmt: skip
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(row.case.group, []).append(row)
    summary = ["", "| class | b/a | b/c | b/c per MB | b fixed cost | growth exponent (b) "
               "| peak b/c |", "|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for group, members in groups.items():
        sizes = sorted({row.size for row in members})
        by_size: dict[int, list[Row]] = {}
        for row in members:
            by_size.setdefault(row.size, []).append(row)
        # Several pages of one class (the legacy languages) are summed per size step.
        steps = sorted(by_size.items())
        ta = [sum(r.a for r in rs) for _, rs in steps]
        tb = [sum(r.b for r in rs) for _, rs in steps]
        tc = [sum(r.c for r in rs) for _, rs in steps]
        ma = [max(r.mem_a / max(r.mem_c, 1) for r in rs) for _, rs in steps]
        mb = [max(r.mem_b / max(r.mem_c, 1) for r in rs) for _, rs in steps]
        for (size, _), a, b, c, pa, pb in zip(steps, ta, tb, tc, ma, mb, strict=True):
            lines.append(
                f"| {group} | {size / MB:.2f} MB | {a * 1e3:.2f} ms | {b * 1e3:.2f} ms "
                f"| {c * 1e3:.2f} ms | {b / a:.2f} | {b / c:.2f} | {pa:.2f} | {pb:.2f} |"
            )
        fixed_b, per_mb_b = fit(sizes, tb)
        _, per_mb_c = fit(sizes, tc)
        large = [i for i, size in enumerate(sizes) if size >= MB] or [len(sizes) - 1]
        summary.append(
            f"| {group} | {_geomean([tb[i] / ta[i] for i in large]):.2f} "
            f"| {_geomean([tb[i] / tc[i] for i in large]):.2f} "
            f"| {per_mb_b / per_mb_c:.2f} | {fixed_b * 1e6:.0f} us "
            f"| {growth_exponent(sizes, tb):.2f} | {max(mb[i] for i in large):.2f} |"
        )
    summary.append("")
    summary.append("Summary ratios are over bodies of 1 MB and more (geometric mean); "
                   "the per-MB ratio and fixed cost come from a least-squares fit over all "
                   "sizes.")  # fmt: skip
    return "\n".join(lines + summary)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 1 MB")
    parser.add_argument("--big", action="store_true", help="add one 50 MB undeclared UTF-8 body")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    args = parser.parse_args(argv)
    sizes = [s for s in SIZES if not args.quick or s <= MB]
    label, _ = _middleware()
    print(f"(b) = {label}", file=sys.stderr)
    rows = measure(CASES, sizes, memory=not args.no_memory)
    print(report(rows, label))
    if args.big:
        big = [case for case in CASES if case.name in ("utf-8, header", "utf-8, undeclared")]
        rows = measure(big, [BIG], memory=not args.no_memory)
        print()
        print("One 50 MB body:")
        print()
        print("| page | a: Scrapy | b: scrapy-charset | c: decode | b/a | b/c | peak a/c "
              "| peak b/c |")  # fmt: skip
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for row in rows:
            print(
                f"| {row.case.name} | {row.a:.2f} s | {row.b:.2f} s | {row.c:.2f} s "
                f"| {row.b / row.a:.2f} | {row.b / row.c:.2f} "
                f"| {row.mem_a / max(row.mem_c, 1):.2f} | {row.mem_b / max(row.mem_c, 1):.2f} |"
            )


if __name__ == "__main__":
    main()
