# ruff: noqa: RUF001 (look-alike characters are the data here)
"""What the item checks add to a process's memory: the resident set size (RSS) of a fresh
Python process after importing Scrapy, after importing the package, and after the first
inspection of a damaged field (the tables and caches it builds then).

Run: ``python -m benchmarks.item_memory``. Each figure is read from ``/proc/self/status``
(Linux) in a new interpreter, so nothing another run imported is counted.
"""

from __future__ import annotations

import argparse
import compileall
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import scrapy_charset

#: The measurement, run in a new interpreter: RSS in kB after each step, as JSON.
_CHILD = """
import json, os

def rss():
    with open(f"/proc/{os.getpid()}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

import scrapy, scrapy.crawler, scrapy.http
steps = {"scrapy": rss()}
from scrapy_charset import inspect_text
steps["import"] = rss()
inspect_text("CafÃ© crÃ¨me and Ð\\x9fÑ\\x80Ð¸Ð²ÐµÑ\\x82, РџСЂРёРІРµС‚")
steps["first damaged field"] = rss()
print(json.dumps(steps))
"""


def measure() -> dict[str, int]:
    """RSS in kB after importing Scrapy, the package, and one damaged field's inspection.
    The package's bytecode is compiled first, as ``pip install`` leaves it: a module
    compiled at import (a stale cache under ``PYTHONDONTWRITEBYTECODE``) costs memory
    the installed package does not."""
    compileall.compile_dir(str(Path(scrapy_charset.__file__).parent), quiet=1)
    done = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True
    )
    steps: dict[str, int] = json.loads(done.stdout)
    return steps


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes, the median kept")
    args = parser.parse_args(argv)
    runs = [measure() for _ in range(max(1, args.runs))]
    print("| step | RSS, MB | over Scrapy, MB |")
    print("|---|---:|---:|")
    for step in runs[0]:
        values = sorted(run[step] for run in runs)
        median = values[len(values) // 2]
        scrapy = sorted(run["scrapy"] for run in runs)[len(runs) // 2]
        print(f"| {step} | {median / 1024:.1f} | {(median - scrapy) / 1024:.1f} |")


if __name__ == "__main__":
    main()
