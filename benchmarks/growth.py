"""Linear scanning, shown: growth exponents on adversarial shapes up to 1 MB.

Run: ``python -m benchmarks.growth``. For each adversarial shape, times the step on inputs
of 1 KB to 1 MB and fits the growth exponent (the slope of log time against log size):
1.0 is linear, 2.0 quadratic. Steps that read a bounded prefix (the prescan reads at most
its head limit, detection at most its window) must flatten past the bound (exponent well
under 1); steps that read the whole input (the header parser, the UTF-8 check) must stay
near 1.0. The target is an exponent <= 1.15 everywhere.

``--quick`` stops at 256 KB.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from functools import partial

from benchmarks._growth import best_time, growth_exponent
from scrapy_charset import sniff
from scrapy_charset.sniffing.detect import get_detector
from scrapy_charset.sniffing.prescan import prescan
from scrapy_charset.sniffing.transport import charset_parameter

SIZES = [1_000, 4_000, 16_000, 64_000, 256_000, 1_000_000]
TARGET = 1.15


def _repeat(unit: bytes, n: int, prefix: bytes = b"") -> bytes:
    return (prefix + unit * (n // len(unit) + 1))[:n]


def _random_high(n: int) -> bytes:
    rng = random.Random(n)
    return bytes(rng.randrange(0x80, 0x100) for _ in range(n))


PRESCAN_SHAPES: dict[str, Callable[[int], bytes]] = {
    "<meta repeated": lambda n: _repeat(b"<meta ", n),
    "<meta charset= repeated": lambda n: _repeat(b"<meta charset=", n),
    "unclosed quote": lambda n: _repeat(b"x", n, b"<meta charset='"),
    "unclosed comment": lambda n: _repeat(b"-", n, b"<head><!--"),
    "comment openers": lambda n: _repeat(b"<!--", n),
    "unclosed tag": lambda n: _repeat(b"a=b ", n, b"<head><link "),
    "head of links": lambda n: _repeat(b"<link rel=x>", n, b"<head>"),
    "script end soup": lambda n: _repeat(b"</scrip", n, b"<head><script>"),
    "lt soup": lambda n: _repeat(b"<", n),
    "bang soup": lambda n: _repeat(b"<!", n),
}

HEADER_SHAPES: dict[str, Callable[[int], str]] = {
    "parameters": lambda n: ("text/html" + "; a=b" * n)[:n],
    "parameters, charset last": lambda n: (
        ("text/html" + "; a=b" * (n // 5))[: n - 16] + "; charset=utf-8"
    ),
    "charset parameters": lambda n: ("text/html" + "; charset=x" * n)[:n],
    "quoted escapes": lambda n: ('text/html; charset="' + ",\\" * n)[:n],
    "unclosed quote": lambda n: ('text/html; charset="' + "a" * n)[:n],
    "values": lambda n: ("text/html, " * n)[:n],
    "values with charset": lambda n: ("text/html; charset=utf-8, " * n)[:n],
    "no slash": lambda n: ("t" * n)[:n],
}

SNIFF_SHAPES: dict[str, Callable[[int], bytes]] = {
    "<meta repeated": PRESCAN_SHAPES["<meta repeated"],
    "ascii, one bad byte at end": lambda n: _repeat(b"<p>ascii text ", n - 1) + b"\xff",
    "utf-8, truncated at end": lambda n: _repeat("<p>текст ".encode(), n - 1) + b"\xd0",
    "random high bytes": _random_high,
    "NUL": bytes,
}


def _row(label: str, sizes: list[int], times: list[float]) -> str:
    cells = "".join(f"{t * 1e3:>10.2f}ms" for t in times)
    exponent = growth_exponent(sizes, times)
    flag = "" if exponent <= TARGET else "  <-- over target"
    return f"{label:<44}{cells}   {exponent:5.2f}{flag}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 256 KB only")
    args = parser.parse_args(argv)
    sizes = [s for s in SIZES if not args.quick or s <= 256_000]
    print(f"{'step: shape':<44}" + "".join(f"{s:>12,}" for s in sizes) + "   exponent")
    for name, make in PRESCAN_SHAPES.items():
        times = [best_time(partial(prescan, make(size)), repeat=3) for size in sizes]
        print(_row(f"prescan: {name}", sizes, times))
    for name, make_header in HEADER_SHAPES.items():
        times = [best_time(partial(charset_parameter, make_header(s)), repeat=3) for s in sizes]
        print(_row(f"header: {name}", sizes, times))
    detector = get_detector()
    for name, make in SNIFF_SHAPES.items():
        bodies = [make(size) for size in sizes]
        times = [
            best_time(partial(sniff, body, None, detector=detector), repeat=3) for body in bodies
        ]
        print(_row(f"sniff (with detection): {name}", sizes, times))
    if detector is not None:
        for name, make in SNIFF_SHAPES.items():
            bodies = [make(size) for size in sizes]
            times = [best_time(partial(detector, body, None), repeat=3) for body in bodies]
            print(_row(f"detection: {name}", sizes, times))
    else:
        print("detection: no detector available (get_detector() gave None)")
    # For comparison: Scrapy's own decoding hands a declared "punycode" to Python's codec,
    # which inserts each character into a list (quadratic). This package refuses the label.
    small = [2_000, 8_000, 32_000, 64_000]
    bodies = [b"a" * (n // 2) + b"-" + b"b" * (n // 2) for n in small]
    _scrapy_punycode(bodies[0])  # the first call imports and looks up the codec
    times = [best_time(partial(_scrapy_punycode, body), repeat=2) for body in bodies]
    cells = "".join(f"{t * 1e3:>10.2f}ms" for t in times)
    sizes_note = ", ".join(f"{n:,}" for n in small)
    print(f"{'Scrapy .text, charset=punycode':<44}{cells}   {growth_exponent(small, times):5.2f}")
    print(f"  (sizes {sizes_note}; sniff() refuses the label: see the sniff rows)")


def _scrapy_punycode(body: bytes) -> str:
    from scrapy.http import HtmlResponse

    headers = {"Content-Type": "text/html; charset=punycode"}
    return HtmlResponse("https://example.com/", body=body, headers=headers).text


if __name__ == "__main__":
    main()
