"""The import paths of 0.1.0 that moved in 0.2.0 keep working for one release, with a
DeprecationWarning naming the new path (CHANGES.md, "Moved modules")."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from tests.spec import REPO

# (the old path, the new one, a name that must be the very same object through both)
MOVED = [
    ("scrapy_charset.sniff", "scrapy_charset.sniffing", "sniff_with_text"),
    ("scrapy_charset.sniff.detect", "scrapy_charset.sniffing.detect", "Detected"),
    ("scrapy_charset.sniff.trace", "scrapy_charset.sniffing.trace", "Trace"),
    ("scrapy_charset.sniff.prescan", "scrapy_charset.sniffing.prescan", "prescan"),
    ("scrapy_charset.sniff.utf8", "scrapy_charset.sniffing.utf8", "mostly_utf8"),
    ("scrapy_charset.middleware", "scrapy_charset.responses.middleware", "CharsetMiddleware"),
    ("scrapy_charset.decision", "scrapy_charset.responses.decision", "EncodingDecision"),
    ("scrapy_charset.config", "scrapy_charset.responses.config", "CharsetConfig"),
    ("scrapy_charset.unknown_type", "scrapy_charset.responses.unknown_type", "sniff_unknown_type"),
    ("scrapy_charset.interop", "scrapy_charset.responses.interop", "install"),
]


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(("old", "new", "name"), MOVED, ids=[old for old, _, _ in MOVED])
def test_old_path_warns_and_gives_the_same_object(old: str, new: str, name: str) -> None:
    # In a fresh interpreter: the warning is emitted once, when the old path is first used.
    run = _fresh(f"from {old} import {name}")
    assert run.returncode == 1
    assert f"DeprecationWarning: {old} moved to {new} in scrapy-charset 0.2.0" in run.stderr
    run = _fresh(
        "import warnings\n"
        "warnings.simplefilter('ignore', DeprecationWarning)\n"
        f"from {old} import {name} as old\n"
        f"from {new} import {name} as new\n"
        "print(old is new)"
    )
    assert run.stdout.strip() == "True", run.stderr


def test_the_new_paths_import_without_a_warning() -> None:
    run = _fresh(
        "import scrapy_charset.sniffing.detect as detect, scrapy_charset\n"
        "from scrapy_charset.responses.middleware import CharsetMiddleware\n"
        "print(callable(scrapy_charset.sniff), detect.Detected.__module__)"
    )
    assert (run.returncode, run.stdout.strip()) == (0, "True scrapy_charset.sniffing.detect")


def test_the_function_sniff_survives_the_old_package() -> None:
    # scrapy_charset.sniff is the public function; the old package of the same name must not
    # replace it, whichever is imported first.
    run = _fresh(
        "import warnings\n"
        "warnings.simplefilter('ignore', DeprecationWarning)\n"
        "from scrapy_charset.sniff.trace import Trace\n"
        "from scrapy_charset.sniff import prescan\n"
        "import scrapy_charset\n"
        "from scrapy_charset import sniff\n"
        "print(callable(scrapy_charset.sniff), sniff is scrapy_charset.sniffing.sniff,"
        " sniff(b'x').encoding)"
    )
    assert run.stdout.strip() == "True True UTF-8", run.stderr


def test_an_old_setting_path_still_loads() -> None:
    # DOWNLOADER_MIDDLEWARES = {"scrapy_charset.middleware.CharsetMiddleware": 585} in an
    # existing project: Scrapy's load_object resolves it through the old path.
    from scrapy.utils.misc import load_object

    from scrapy_charset.responses.middleware import CharsetMiddleware

    sys.modules.pop("scrapy_charset.middleware", None)
    with pytest.warns(DeprecationWarning, match="scrapy_charset.middleware moved"):
        loaded = load_object("scrapy_charset.middleware.CharsetMiddleware")
    assert loaded is CharsetMiddleware


def test_a_path_that_never_existed_is_not_invented() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("scrapy_charset.sniff.nothing_here")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("scrapy_charset.nothing_here")
