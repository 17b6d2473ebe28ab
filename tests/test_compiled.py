"""The item checks' modules compiled with mypyc (optional): which path runs, and a build
that matches its sources.

That the compiled modules give the pure path's reports is the whole suite's to show: CI
runs it on both (``.ci/run``).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_charset import _compiled
from tests.spec import PACKAGE, REPO, script

#: Where the imported package is: the checkout, or an installed wheel's site-packages (the
#: build script reads the list of modules from the package it is given).
INSTALLED = PACKAGE.parent


build_compiled = script("build_compiled")


def _compiled_files() -> list[Path]:
    return [
        INSTALLED / target
        for target in build_compiled.targets(INSTALLED)
        if (INSTALLED / target).exists()
    ]


def test_every_module_to_compile_has_its_source() -> None:
    for name in _compiled.MODULES:
        module = importlib.import_module(name)
        assert module.__spec__ is not None
        source = INSTALLED / build_compiled._source(name, INSTALLED)
        assert source.is_file(), name
        assert Path(str(module.__spec__.origin)).parent == source.parent


def test_the_build_writes_a_module_for_each_source_and_the_shared_library() -> None:
    targets = build_compiled.targets(INSTALLED)
    assert len(targets) == len(_compiled.MODULES) + 1
    assert targets[-1].name.startswith(_compiled.GROUP + "__mypyc.")
    assert (
        Path("scrapy_charset", "items", "mojibake", "__init__.py").with_name(
            "__init__" + build_compiled.SUFFIX
        )
        in targets
    )


@pytest.mark.skipif(not _compiled.PURE, reason="SCRAPY_CHARSET_PURE is not set")
def test_the_pure_path_runs_the_sources() -> None:
    assert _compiled.compiled() == []
    for name in _compiled.MODULES:
        assert str(sys.modules[name].__file__).endswith(".py")


@pytest.mark.skipif(_compiled.PURE, reason="SCRAPY_CHARSET_PURE is set: the sources run")
def test_built_modules_are_the_ones_in_use() -> None:
    """Modules built in place are imported (none built: the sources), all or none."""
    built = _compiled_files()
    assert len(_compiled.compiled()) == (len(_compiled.MODULES) if built else 0)


@pytest.mark.skipif(_compiled.PURE, reason="SCRAPY_CHARSET_PURE is set: the sources run")
def test_built_modules_are_not_older_than_their_sources() -> None:
    """A source edited after the build would not run: rebuild
    (``python scripts/build_compiled.py``) or remove the build (``--clean``)."""
    if INSTALLED != REPO:
        pytest.skip("an installed package: its files' times are the install's")
    built = _compiled_files()
    if not built:
        pytest.skip("no compiled module is built in place (python scripts/build_compiled.py)")
    oldest = min(os.stat(path).st_mtime for path in built)
    newer = [
        name
        for name in _compiled.MODULES
        if os.stat(REPO / build_compiled._source(name, REPO)).st_mtime > oldest
    ]
    assert newer == [], "edited after the build: python scripts/build_compiled.py"


def test_the_package_import_stays_light() -> None:
    """``scrapy_charset._compiled`` is imported with the package, by every ``scrapy``
    command: it brings no module of the finder's machinery at load time."""
    code = (
        "import sys; before = set(sys.modules); import scrapy_charset; "
        "print(*sorted(set(sys.modules) - before), sep='\\n')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    loaded = done.stdout.split()
    assert "scrapy_charset._compiled" in loaded
    heavy = {"importlib.abc", "importlib.util", "importlib.resources", "tempfile", "pathlib"}
    assert heavy.isdisjoint(loaded)
