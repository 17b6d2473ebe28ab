"""Shared helpers for the benchmarks: timing, growth exponents, callgrind's counts."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path


def best_time(function: Callable[[], object], *, repeat: int = 5, min_time: float = 0.05) -> float:
    """The best time of *repeat* runs, each run repeated until it lasts *min_time*."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            function()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            break
        number *= 2
    best = elapsed / number
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(number):
            function()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def growth_exponent(sizes: Sequence[int], times: Sequence[float]) -> float:
    """The least-squares slope of log(time) against log(size): 1.0 is linear."""
    xs = [math.log(size) for size in sizes]
    ys = [math.log(max(t, 1e-9)) for t in times]
    mean_x = sum(xs) / len(xs)
    mean_y = sum(ys) / len(ys)
    num = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    den = sum((x - mean_x) ** 2 for x in xs)
    return num / den


def callgrind_count(path: Path) -> int | None:
    """The instruction count of one part callgrind wrote (its ``summary`` or ``totals``
    line), or None when it has none."""
    match = re.search(r"^(?:summary|totals): (\d+)", path.read_text(), re.MULTILINE)
    return int(match.group(1)) if match else None


def callgrind_parts(prefix: str) -> list[int]:
    """The instruction counts of the parts callgrind has written so far under *prefix*
    (``--callgrind-out-file=PREFIX`` with ``--dump-before=getppid``: one part per call of
    ``os.getppid()``), in order."""
    found = []
    for path in Path(prefix).parent.glob(Path(prefix).name + ".*"):
        number = path.name.rsplit(".", 1)[1]
        if number.isdigit():
            count = callgrind_count(path)
            if count is not None:
                found.append((int(number), count))
    return [count for _, count in sorted(found)]
