"""The item checks' pre-filter, pure-Python and compiled (Hyperscan), side by side.

Run: ``python -m benchmarks.scanner``. M chars/s of ``inspect_text`` on clean text of each
script of ``benchmarks/items.py`` (1 KB, 100 KB, 1 MB), on the pure path and on the
compiled scanner (the ``fast`` extra) in the same run, alternated, and the floors at 1 MB:
``str.isascii()`` and a ``re.search`` that finds nothing. Then whether both paths give the
same marks and reports on the benchmark's fields.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from functools import partial

from benchmarks._itemdata import clean_values, legacy_samples, utf8_samples
from benchmarks.items import _rate, _text
from scrapy_charset.items.mojibake import _fastscan, badness
from scrapy_charset.items.textcheck import inspect_unguarded

SCRIPTS = ("en", "fr", "cs", "vi", "ru", "uk", "el", "zh_CN", "ja", "ar")
SIZES = (1_000, 100_000, 1_000_000)


def _on(path: bool, function: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        saved = badness._FAST_PATH
        badness._FAST_PATH = path
        try:
            return function()
        finally:
            badness._FAST_PATH = saved

    return run


def _both(text: str) -> tuple[badness.Marks, object]:
    return badness.scan(text), inspect_unguarded(text)


def main(argv: Sequence[str] = ()) -> None:
    fast = _fastscan.SCANNER == "hyperscan" and badness._fast_scanner() is not None
    print(f"scanner: {_fastscan.SCANNER}")
    header = "".join(f"{f'{size:,} py':>13}{'hs':>8}" for size in SIZES)
    print(f"{'M chars/s of inspect_text':<26}{header}{'isascii':>10}{'re.search':>11}")
    nothing = re.compile("\ufffd")
    for script in SCRIPTS:
        cells = []
        for size in SIZES:
            text = _text(script, size)
            pure = _on(False, partial(inspect_unguarded, text))
            compiled = _on(True, partial(inspect_unguarded, text))
            rates: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(3):  # alternated, the best of each
                rates[False].append(_rate(pure, size))
                if fast:
                    rates[True].append(_rate(compiled, size))
            cells.append(f"{max(rates[False]):>13.0f}{max(rates[True], default=0):>8.0f}")
        text = _text(script, SIZES[-1])
        floor = _rate(text.isascii, len(text))
        search = _rate(partial(nothing.search, text), len(text))
        print(f"{script:<26}{''.join(cells)}{floor:>10.0f}{search:>11.0f}")
    if fast:
        fields = clean_values(per_language=50)
        texts = [f.text for f in fields]
        texts += [s.damaged for s in utf8_samples(fields)]
        texts += [s.damaged for s, _ in legacy_samples(fields)]
        texts += [_text(script, 5_000) for script in SCRIPTS]
        with_size = badness._FAST_SIZE, badness._FAST_DENSITY
        badness._FAST_SIZE, badness._FAST_DENSITY = 0, 10.0  # every text through it
        try:
            differ = sum(_both(t) != _on(False, partial(_both, t))() for t in texts)
        finally:
            badness._FAST_SIZE, badness._FAST_DENSITY = with_size
        print(f"\n{len(texts)} fields: {differ} with other marks or reports than the pure path's")


if __name__ == "__main__":
    main(sys.argv[1:])
