"""Detection accuracy and cost on undeclared legacy pages, against Scrapy's own fallback.

Run: ``python -m benchmarks.detection [--samples N] [--quick]``.

The pages come from :mod:`tests.corpus` (real translated text in every legacy encoding of
the Encoding Standard that can represent it, wrapped as HTML that declares nothing). A page
counts as right when the decoded text is exactly the text a browser shows for the true
encoding; encodings that give the same text for a page count as right.

Contestants, in one run:

- ``pkg``: :func:`scrapy_charset.sniff` with the default detector and the page's
  country-code URL, then :func:`scrapy_charset.decode`; ``pkg-notld``: the same on a
  ``.com`` URL;
- ``pkg[X]``: the package with backend X (window, markup stripping, TLD prior, WHATWG
  candidates);
- ``raw X``: library X on the whole body, its answer mapped to an Encoding Standard
  encoding (an answer browsers do not support counts as wrong);
- ``scrapy``: Scrapy's ``HtmlResponse(url, body=body).text`` (no declaration: its own
  detection, charset-normalizer over the whole body).

Then the cost per page (detection and decoding), the same tables for ``pkg``, ``pkg-notld``
and ``scrapy`` on held-out pages (languages detection was not developed on, see
:data:`tests.corpus.HELD_OUT`), and the growth on large bodies.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import partial

from benchmarks._growth import best_time, growth_exponent
from scrapy_charset.sniffing import sniff
from scrapy_charset.sniffing.detect import DEFAULT_BACKEND, get_detector
from scrapy_charset.sniffing.detectors import BACKENDS, answer_encoding, make_backend
from scrapy_charset.whatwg.codecs import decode
from tests.corpus import COMMON, LENGTHS, Page, pages

Decoder = Callable[[Page], str]


def _package(name: str, tld: bool) -> Decoder:
    detector = get_detector(name)

    def run(page: Page) -> str:
        url = page.url_tld if tld else page.url
        decision = sniff(page.body, "text/html", url, detector=detector)
        return decode(page.body, decision.encoding)

    return run


def _raw(name: str) -> Decoder | None:
    try:
        backend = make_backend(name)
    except ImportError:
        return None

    def run(page: Page) -> str:
        ranked = backend.rank(page.body, None)
        encoding = answer_encoding(ranked[0][0]) if ranked else None
        return decode(page.body, encoding) if encoding else ""

    return run


def _scrapy(page: Page) -> str:
    from scrapy.http import HtmlResponse

    return HtmlResponse(page.url_tld, body=page.body).text


def contestants() -> dict[str, Decoder]:
    out: dict[str, Decoder] = {
        "pkg": _package("default", True),
        "pkg-notld": _package("default", False),
    }
    for name in BACKENDS:
        if name != DEFAULT_BACKEND:  # that one is "pkg"
            out[f"pkg[{name}]"] = _package(name, True)
    for name in BACKENDS:
        raw = _raw(name)
        if raw is not None:
            out[f"raw {name}"] = raw
    out["scrapy"] = _scrapy
    return out


def _table(title: str, rows: dict[str, dict[str, list[bool]]], names: list[str]) -> None:
    print(f"\n{title}")
    print(f"{'':<22}{'pages':>6}" + "".join(f"{n[:14]:>15}" for n in names))
    for key, by_name in rows.items():
        count = len(by_name[names[0]])
        cells = "".join(f"{100 * sum(by_name[n]) / count:>14.1f}%" for n in names)
        print(f"{key:<22}{count:>6}{cells}")


def _score(
    runs: dict[str, Decoder], corpus: Iterable[Page]
) -> tuple[int, dict[str, dict[str, dict[str, list[bool]]]], dict[str, float]]:
    """Run every contestant on every page: (pages, tables by title, seconds by name)."""
    tables: dict[str, dict[str, dict[str, list[bool]]]] = {
        title: defaultdict(lambda: defaultdict(list))
        for title in ("Per encoding (all lengths)", "Per length (all encodings)", "Summary")
    }
    by_encoding, by_length, summary = tables.values()
    seconds: dict[str, float] = defaultdict(float)
    count = 0
    for page in corpus:
        count += 1
        for name, run in runs.items():
            start = time.perf_counter()
            text = run(page)
            seconds[name] += time.perf_counter() - start
            right = text == page.text
            by_encoding[page.encoding][name].append(right)
            by_length[f"{page.length:,} B"][name].append(right)
            summary["all pages"][name].append(right)
            if page.length >= 1_000:
                summary["all, >= 1 KB"][name].append(right)
                if page.encoding in COMMON:
                    summary["common, >= 1 KB"][name].append(right)
    return count, tables, seconds


def accuracy(samples: int, lengths: tuple[int, ...], package_only: bool = False) -> None:
    runs = contestants()
    if package_only:
        runs = {name: runs[name] for name in ("pkg", "pkg-notld", "scrapy")}
    names = list(runs)
    count, tables, seconds = _score(runs, pages(lengths=lengths, samples=samples))
    print(f"Exact decoded text, {count} undeclared pages ({samples} per language and length)")
    for title, rows in tables.items():
        _table(title, rows, names)
    print("\nTime per page (detection and decoding, mean)")
    for name in names:
        print(f"  {name:<24}{1e3 * seconds[name] / count:>8.2f} ms")
    # Languages and seeds detection was never tuned on (tests.corpus.HELD_OUT).
    held = {name: runs[name] for name in ("pkg", "pkg-notld", "scrapy")}
    count, tables, _ = _score(held, pages(lengths=lengths, samples=1, held_out=True))
    print(f"\nHeld out: {count} pages in languages detection was not developed on")
    for title, rows in tables.items():
        _table(f"Held out, {title[0].lower()}{title[1:]}", rows, list(held))


def bad_late_byte() -> None:
    """UTF-8 pages (Russian and Japanese names) with one stray byte (0x92) at positions
    around the detection window, at sizes up to 50 MB: misses (not decided UTF-8) and
    the time of sniff() per body."""
    from tests.corpus import messages

    detector = get_detector()
    names = messages("ru")[:200] + messages("ja")[:200]
    text = ("<p>" + "</p>\n<p>".join(names) + "</p>\n").encode()
    head = b"<!DOCTYPE html><html><body>\n"
    start = len(head) + 3
    window = 16 * 1024
    positions: dict[str, Callable[[int], int]] = {
        "first non-ASCII": lambda n: start,
        "inside the window": lambda n: start + window // 2,
        "window's last byte": lambda n: start + window - 1,
        "just after the window": lambda n: start + window,
        "middle": lambda n: n // 2,
        "last byte": lambda n: n - 1,
    }
    sizes = [100_000, 1_000_000, 10_000_000, 50_000_000]
    print("\nOne bad byte in a UTF-8 page: misses (not UTF-8) / time of sniff()")
    print(f"{'position':<24}" + "".join(f"{s:>16,}" for s in sizes))
    for name, where in positions.items():
        cells = []
        for size in sizes:
            body = (head + text * (size // len(text) + 1))[:size]
            at = where(len(body))
            while 0x80 <= body[at] < 0xC0:  # a character boundary
                at -= 1
            body = body[:at] + b"\x92" + body[at:]
            decision = sniff(body, "text/html", "https://example.ru/", detector=detector)
            miss = decision.encoding != "UTF-8"
            seconds = best_time(
                partial(sniff, body, "text/html", "https://example.ru/", detector=detector),
                repeat=1,
            )
            cells.append(f"{int(miss)} / {seconds * 1e3:7.1f}ms")
        print(f"{name:<24}" + "".join(f"{c:>16}" for c in cells))


def _scrapy_text(body: bytes) -> str:
    from scrapy.http import HtmlResponse

    return HtmlResponse("https://example.com/", body=body).text


def growth() -> None:
    """Large bodies: legacy text, and ASCII with one bad byte at the end."""
    detector = get_detector()
    sizes = [100_000, 1_000_000, 10_000_000, 50_000_000]
    paragraph = "Съешь же ещё этих мягких французских булок, да выпей чаю. ".encode("cp1251")
    shapes: dict[str, Callable[[int], bytes]] = {
        "windows-1251 text": lambda n: (paragraph * (n // len(paragraph) + 1))[:n],
        "ASCII + 1 bad byte": lambda n: b"<p>" + b"a" * (n - 8) + b"\xff</p>",
    }
    print("\nGrowth: sniff() with the default detector (detection only)")
    print(f"{'shape':<22}" + "".join(f"{s:>14,}" for s in sizes) + "   exponent")
    for shape, make in shapes.items():
        times = [
            best_time(partial(sniff, make(size), detector=detector), repeat=3) for size in sizes
        ]
        row = "".join(f"{t * 1e3:>12.2f}ms" for t in times)
        print(f"{shape:<22}{row}   {growth_exponent(sizes, times):.2f}")
    print("\nScrapy 2.19 (.text of an undeclared HtmlResponse)")
    small = sizes[:3]
    for shape, make in shapes.items():
        times = [best_time(partial(_scrapy_text, make(size)), repeat=1) for size in small]
        row = "".join(f"{t * 1e3:>12.2f}ms" for t in times)
        print(f"{shape:<22}{row}   {growth_exponent(small, times):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=2, help="pages per language and length")
    parser.add_argument("--quick", action="store_true", help="1 and 10 KB pages, no growth")
    parser.add_argument(
        "--package-only", action="store_true", help="only the package and Scrapy, no backends"
    )
    args = parser.parse_args()
    lengths = (1_000, 10_000) if args.quick else LENGTHS
    accuracy(args.samples, lengths, args.package_only)
    if not args.quick:
        bad_late_byte()
        growth()


if __name__ == "__main__":
    main()
