"""Compile the item checks' optional scanner (``scrapy_charset/items/mojibake/_scanc.c``).

Writes the extension module next to its source, for a checkout (tests, benchmarks), or
into the directory given: the wheel build (``hatch_build.py``, with
``SCRAPY_CHARSET_COMPILE=1``) uses this module. Needs a C compiler (``$CC``, else
``cc``) and the Python headers; nothing else. Without it, the pure-Python path runs.

Usage::

    python scripts/build_scanner.py [output directory]
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path("scrapy_charset", "items", "mojibake")
SOURCE = PACKAGE / "_scanc.c"
#: The module's file name on this interpreter (e.g. ``_scanc.cpython-311-x86_64-linux-gnu.so``).
NAME = "_scanc" + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def command(source: Path, target: Path) -> list[str]:
    """The compiler's command line that builds *target* from *source*."""
    if sys.platform == "win32":
        raise OSError("building the scanner on Windows is not supported: the pure path runs")
    compiler = shlex.split(os.environ.get("CC") or "cc")
    flags = ["-O3", "-DNDEBUG", "-fPIC", "-shared", "-Wall", "-std=c11"]
    if sys.platform == "darwin":
        flags += ["-undefined", "dynamic_lookup"]
    include = sysconfig.get_paths()["include"]
    return [*compiler, *flags, f"-I{include}", str(source), "-o", str(target)]


def build(root: Path = ROOT, output: Path | None = None) -> Path:
    """Compile the scanner of the checkout at *root* into *output* (default: next to its
    source); the path of the module written."""
    target = (output if output is not None else root / PACKAGE) / NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(command(root / SOURCE, target), check=True)
    return target


def main(argv: list[str]) -> None:
    output = Path(argv[0]) if argv else None
    print(build(ROOT, output))


if __name__ == "__main__":
    main(sys.argv[1:])
