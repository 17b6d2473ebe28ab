"""What choosing a standard ``response.encoding`` costs, beside the middleware's total.

Run: ``python -m benchmarks.interop``. On real-language pages (pycountry's catalogues, the
pages of ``benchmarks.overhead``) declared in the header, at 10 KB and 1 MB, in one run:

- (e) the exactness test, ``response_codec(body, encoding)``: for UTF-8 nothing; for a
  single-byte encoding a byte-class check (no decoding); for a CJK encoding one C-codec
  decode, whose text the middleware hands to the response so Scrapy does not decode again;
- (b) the middleware's total per response: ``process_response`` and then ``.text``;
- (a) Scrapy's own decoding, ``HtmlResponse(...).text``;
- (c) the floor, ``bytes.decode`` with the right Python codec.

It prints the times in microseconds and the ratios e/b, e/c and b/a. A last row puts a
windows-1252 body holding one byte the standard codec lacks (0x81, at the end) through
(e): the worst case of the byte-class check, which scans every byte.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from benchmarks._growth import best_time
from benchmarks.overhead import CASES, KB, MB, Case, _middleware, floor, scrapy_text

SIZES = [10 * KB, MB]
NAMES = (
    "utf-8, header",
    "ru windows-1251, header",
    "de windows-1252, header",
    "ja Shift_JIS, header",
    "zh_CN GBK, header",
)


def exactness(body: bytes, encoding: str) -> Callable[[], object]:
    from scrapy_charset.whatwg.codecs import response_codec

    return lambda: response_codec(body, encoding)


def main(argv: Sequence[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    from scrapy_charset.whatwg.codecs import response_codec

    label, make_b = _middleware()
    print(f"(b) = {label}", file=sys.stderr)
    print("| page | size | codec | e: test | b: middleware | a: Scrapy | c: decode "
          "| e/b | e/c | b/a |")  # fmt: skip
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    cases: list[tuple[str, Case, bytes]] = []
    by_name = {case.name: case for case in CASES}
    for name in NAMES:
        case = by_name[name]
        for size in SIZES:
            cases.append((name, case, case.body(size)))
    w1252 = by_name["de windows-1252, header"]
    for size in SIZES:
        cases.append(("de windows-1252 + 0x81", w1252, w1252.body(size)[:-1] + b"\x81"))
    for name, case, body in cases:
        codec, _ = response_codec(body, case.whatwg)
        e = best_time(exactness(body, case.whatwg))
        b = best_time(make_b(body, case.header))
        a = best_time(scrapy_text(body, case.header))
        c = best_time(floor(body, case.python))
        print(
            f"| {name} | {len(body) / KB:,.0f} KB | `{codec}` | {e * 1e6:,.1f} µs "
            f"| {b * 1e6:,.0f} µs | {a * 1e6:,.0f} µs | {c * 1e6:,.0f} µs "
            f"| {e / b:.3f} | {e / c:.3f} | {b / a:.2f} |"
        )


if __name__ == "__main__":
    main()
