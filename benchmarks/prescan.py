"""How the prescan and the Content-Type parser grow with hostile input.

Run: ``python -m benchmarks.prescan``. Prints time per size and the growth exponent (the
slope of log time against log size; 1.0 is linear) for adversarial shapes. The prescan is
bounded by its head limit, so past it the time must stay flat (exponent near 0).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from benchmarks._growth import best_time, growth_exponent
from scrapy_charset.sniff.prescan import prescan
from scrapy_charset.sniff.transport import charset_parameter

SIZES = [1_000, 4_000, 16_000, 64_000, 256_000, 1_000_000]

PRESCAN_SHAPES: dict[str, Callable[[int], bytes]] = {
    "meta repeated": lambda n: (b"<meta " * (n // 6 + 1))[:n],
    "unclosed quote": lambda n: (b"<meta charset='" + b"x" * n)[:n],
    "unclosed comment": lambda n: (b"<head><!--" + b"-" * n)[:n],
    "attributes": lambda n: (b"<head><link " + b"a=b " * n)[:n],
    "head of links": lambda n: (b"<head>" + b"<link rel=x>" * n)[:n],
    "lt soup": lambda n: (b"<" * n)[:n],
}

HEADER_SHAPES: dict[str, Callable[[int], str]] = {
    "parameters": lambda n: ("text/html" + "; a=b" * n)[:n],
    "quoted commas": lambda n: ('text/html; a="' + ",\\" * n)[:n],
    "values": lambda n: ("text/html, " * n)[:n],
}


def main() -> None:
    print(f"{'shape':<24}" + "".join(f"{size:>12,}" for size in SIZES) + "   exponent")
    for name, make in PRESCAN_SHAPES.items():
        bodies = [make(size) for size in SIZES]
        times = [best_time(partial(prescan, body)) for body in bodies]
        row = "".join(f"{t * 1e6:>10.0f}us" for t in times)
        print(f"prescan: {name:<15}{row}   {growth_exponent(SIZES, times):5.2f}")
    for name, make_header in HEADER_SHAPES.items():
        headers = [make_header(size) for size in SIZES]
        times = [best_time(partial(charset_parameter, header)) for header in headers]
        row = "".join(f"{t * 1e6:>10.0f}us" for t in times)
        print(f"header: {name:<16}{row}   {growth_exponent(SIZES, times):5.2f}")


if __name__ == "__main__":
    main()
