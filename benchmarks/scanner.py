"""The item checks' pre-filter, pure-Python and compiled, side by side.

Run: ``python scripts/build_scanner.py`` (the compiled scanner, in place), then
``python -m benchmarks.scanner [rounds]``. M chars/s of ``inspect_unguarded`` on clean
text of each script of ``benchmarks/items.py`` (1 KB, 100 KB, 1 MB), on the pure path and
on the compiled scanner in the same run, alternated, the median of *rounds* (default 5)
rounds of the best of three (CPU time of the process: other processes on a shared machine
do not add to it); and the floors at 1 MB: ``str.isascii()`` and a ``re.search`` that
finds nothing. Then where the time goes at 1 MB on the compiled path (the C scan, all of
``scan()``, all of ``inspect_text``), the cost of a short field (the benchmark's clean
fields that are not ASCII), and whether both paths give the same marks and reports on the
benchmark's fields.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from benchmarks._itemdata import clean_values, legacy_samples, utf8_samples
from benchmarks.items import _text
from scrapy_charset.items.mojibake import _fastscan, badness
from scrapy_charset.items.textcheck import inspect_unguarded

T = TypeVar("T")

SCRIPTS = ("en", "fr", "cs", "vi", "ru", "uk", "el", "zh_CN", "ja", "ar")
SIZES = (1_000, 100_000, 1_000_000)


def _on(path: bool, function: Callable[[], T]) -> Callable[[], T]:
    def run() -> T:
        saved = badness._FAST_PATH
        badness._FAST_PATH = path
        try:
            return function()
        finally:
            badness._FAST_PATH = saved

    return run


def _seconds(function: Callable[[], object], repeat: int) -> float:
    """CPU seconds of one call, best of three runs of *repeat* calls: the process's own
    time, which other processes on a shared machine do not add to."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(repeat):
            function()
        best = min(best, (time.process_time() - start) / repeat)
    return best


def _rate(function: Callable[[], object], size: int) -> float:
    """Million characters a second."""
    return size / _seconds(function, max(1, 200_000 // size)) / 1e6


def _per_field(function: Callable[[str], object], values: Sequence[str]) -> float:
    """µs a field."""
    return _seconds(lambda: [function(v) for v in values], 1) / max(1, len(values)) * 1e6


def _both(text: str) -> tuple[badness.Marks, object]:
    return badness.scan(text), inspect_unguarded(text)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", type=int, nargs="?", default=5, help="alternated rounds")
    rounds = max(1, parser.parse_args(argv).rounds)
    fast = _fastscan.SCANNER == "compiled"
    print(f"scanner: {_fastscan.SCANNER}")
    header = "".join(f"{f'{size:,} py':>13}{'C':>8}" for size in SIZES)
    print(f"{'M chars/s of inspect_text':<26}{header}{'isascii':>10}{'re.search':>11}")
    nothing = re.compile("\ufffd")
    for script in SCRIPTS:
        cells = []
        for size in SIZES:
            text = _text(script, size)
            pure = _on(False, partial(inspect_unguarded, text))
            compiled = _on(True, partial(inspect_unguarded, text))
            rates: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(rounds):  # alternated, the median of each
                rates[False].append(_rate(pure, size))
                if fast:
                    rates[True].append(_rate(compiled, size))
            c = statistics.median(rates[True]) if fast else 0.0
            cells.append(f"{statistics.median(rates[False]):>13.0f}{c:>8.0f}")
        text = _text(script, SIZES[-1])
        floor = _rate(text.isascii, len(text))
        search = _rate(partial(nothing.search, text), len(text))
        print(f"{script:<26}{''.join(cells)}{floor:>10.0f}{search:>11.0f}")
    if fast:
        print(f"\n{'ms at 1 MB (compiled)':<26}{'C scan':>8}{'scan()':>8}{'inspect_text':>14}")
        for script in SCRIPTS:
            text = _text(script, SIZES[-1])
            assert badness._candidates is not None
            parts: list[Callable[[], object]] = [
                partial(badness._candidates, text),
                partial(badness.scan, text),
                partial(inspect_unguarded, text),
            ]
            cost = [
                statistics.median(_seconds(part, 1) for _ in range(rounds)) * 1e3 for part in parts
            ]
            print(f"{script:<26}{cost[0]:>8.2f}{cost[1]:>8.2f}{cost[2]:>14.2f}")
    fields = clean_values(per_language=50)
    values = [f.text for f in fields if not f.text.isascii()]
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):  # alternated, the median of each
        times[False].append(_on(False, partial(_per_field, inspect_unguarded, values))())
        if fast:
            times[True].append(_on(True, partial(_per_field, inspect_unguarded, values))())
    compiled_cost = f", C {statistics.median(times[True]):.2f}" if fast else ""
    print(
        f"\nshort fields ({len(values):,} non-ASCII clean fields, median "
        f"{statistics.median(len(v) for v in values):.0f} chars): µs a field of inspect_text: "
        f"py {statistics.median(times[False]):.2f}{compiled_cost}"
    )
    if fast:
        texts = [f.text for f in fields]
        texts += [s.damaged for s in utf8_samples(fields)]
        texts += [s.damaged for s, _ in legacy_samples(fields)]
        texts += [_text(script, 5_000) for script in SCRIPTS]
        differ = sum(_both(t) != _on(False, partial(_both, t))() for t in texts)
        print(f"\n{len(texts)} fields: {differ} with other marks or reports than the pure path's")


if __name__ == "__main__":
    main()
