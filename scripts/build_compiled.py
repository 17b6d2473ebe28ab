"""Compile the item checks' modules (``scrapy_charset._compiled.MODULES``) with mypyc.

Writes the extension modules next to their sources, for a checkout (tests, benchmarks), or
into the directory given, under the package's layout: the wheel build (``hatch_build.py``,
with ``SCRAPY_CHARSET_COMPILE=1``) uses this module. Needs mypy (its mypyc), setuptools, a C
compiler and the Python headers. The sources are compiled from a copy of the package, so
the checkout's own build settings play no part. ``--clean`` removes the modules written in
place. Without them, the sources run.

Usage::

    python scripts/build_compiled.py [output directory]
    python scripts/build_compiled.py --clean
    python -m pip install $(python scripts/build_compiled.py --requirements)
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "scrapy_charset"
SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")

#: What the build needs besides a C compiler: the mypyc the wheels are built with (pinned:
#: the compiled code is mypyc's), and setuptools, which drives the compiler.
REQUIREMENTS = ("mypy==2.4.1", "setuptools>=68")

#: mypy's options for the compiled modules: the project's strict ones, without the
#: missing stubs of optional detectors (imported lazily, never compiled).
_MYPY_OPTIONS = ("--strict", "--ignore-missing-imports", "--python-version", "3.10")

_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

paths, group = sys.argv[1:-1], sys.argv[-1]
setup(
    name="scrapy-charset-compiled",
    ext_modules=mypycify(paths, opt_level="3", group_name=group),
    script_args=["build_ext", "--inplace", "--quiet"],
)
"""


def _compiled_table(root: Path) -> tuple[tuple[str, ...], str]:
    """The modules to compile and the group's name, read from the checkout at *root*."""
    spec = importlib.util.spec_from_file_location("_compiled", root / PACKAGE / "_compiled.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.MODULES), str(module.GROUP)


def _source(name: str, root: Path) -> Path:
    """The source of module *name* relative to *root* (a package's ``__init__.py``)."""
    path = Path(*name.split("."))
    return path / "__init__.py" if (root / path).is_dir() else path.with_suffix(".py")


def targets(root: Path = ROOT) -> list[Path]:
    """The extension modules a build writes, relative to the package's parent."""
    modules, group = _compiled_table(root)
    out = []
    for name in modules:
        source = _source(name, root)
        out.append(source.with_name(source.stem + SUFFIX))
    out.append(Path(*f"{group}__mypyc".split(".")).with_suffix(SUFFIX))
    return out


def build(root: Path = ROOT, output: Path | None = None) -> list[Path]:
    """Compile the modules of the checkout at *root* into *output* (default: next to their
    sources); the paths of the modules written."""
    modules, group = _compiled_table(root)
    output = output if output is not None else root
    with tempfile.TemporaryDirectory() as work:
        shutil.copytree(
            root / PACKAGE,
            Path(work, PACKAGE),
            ignore=shutil.ignore_patterns("__pycache__", f"*{SUFFIX}", "*.pyd"),
        )
        paths = [str(_source(name, root)) for name in modules]
        subprocess.run(
            [sys.executable, "-c", _SETUP, *_MYPY_OPTIONS, *paths, group],
            cwd=work,
            check=True,
        )
        written = []
        for target in targets(root):
            destination = output / target
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(Path(work, target), destination)
            written.append(destination)
    return written


def clean(root: Path = ROOT) -> list[Path]:
    """Remove the modules :func:`build` wrote in place; the paths removed."""
    removed = []
    for target in targets(root):
        path = root / target
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed


def main(argv: list[str]) -> None:
    if argv == ["--requirements"]:
        print(" ".join(REQUIREMENTS))
        return
    if argv == ["--clean"]:
        paths = clean(ROOT)
    else:
        paths = build(ROOT, Path(argv[0]) if argv else None)
    for path in paths:
        print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
