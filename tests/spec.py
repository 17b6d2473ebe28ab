"""Where the spec data the tests read lives: ``tests/data/``, carried in the repository.

Each source's origin, pinned revision and licence are in ``tests/data/README.md``. The data
is part of the repository (and of the sdist), so no test depends on a folder outside it.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import scrapy_charset

REPO = Path(__file__).resolve().parents[1]
#: The package the tests import: this checkout's, or an installed wheel's (the tests that
#: read the package's own files read these, so a wheel is checked as it is installed).
PACKAGE = Path(scrapy_charset.__file__).resolve().parent

#: The conformance data: the Encoding Standard's labels and indexes, html5lib-tests and
#: html5prescan encoding cases, web-platform-tests' unsupported labels.
SPEC_DIR = REPO / "tests" / "data"


@functools.cache
def script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (``scripts/`` is not a package), loaded once."""
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a script's dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def read_dat(path: Path) -> list[tuple[bytes, str]]:
    """html5lib-tests ``.dat`` encoding tests: ``(document bytes, expected encoding)``."""
    tests = []
    for chunk in path.read_bytes().split(b"#data\n")[1:]:
        data, _, expected = chunk.partition(b"#encoding\n")
        # The newline before "#encoding" belongs to the format, not the document.
        tests.append((data[:-1] if data.endswith(b"\n") else data, expected.strip().decode()))
    return tests
