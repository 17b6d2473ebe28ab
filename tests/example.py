"""Helpers for the example project and command tests: run ``scrapy`` as a user would.

``scrapy`` finds commands through the ``scrapy.commands`` entry point, which exists once
the package is installed. So that the tests also run from a plain checkout, :func:`run_scrapy`
puts a minimal ``.dist-info`` declaring the same entry point on ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.spec import REPO

EXAMPLE = REPO / "example_project"
if str(EXAMPLE) not in sys.path:
    sys.path.insert(0, str(EXAMPLE))

ENTRY_POINT = "charset = scrapy_charset.commands.charset:Command"


def write_entry_point(folder: Path, entry_point: str = ENTRY_POINT) -> Path:
    """Declare a ``scrapy.commands`` entry point in *folder* (a ``sys.path`` entry)."""
    info = folder / "scrapy_charset_tests-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: scrapy-charset-tests\nVersion: 0\n"
    )
    (info / "entry_points.txt").write_text(f"[scrapy.commands]\n{entry_point}\n")
    return folder


#: What the child does not inherit: the caller's Scrapy project.
_NOT_INHERITED = frozenset({"SCRAPY_SETTINGS_MODULE", "SCRAPY_PROJECT"})


def _run_module(
    module: str,
    args: list[str],
    *,
    path: list[Path],
    cwd: Path,
    timeout: float,
    drop: frozenset[str] = _NOT_INHERITED,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m MODULE ARGS`` with *path* first on ``PYTHONPATH``, without the
    environment variables *drop*."""
    env = {key: value for key, value in os.environ.items() if key not in drop}
    # The caller's own PYTHONPATH comes last, so the command runs the Scrapy the tests run.
    outer = [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []
    env["PYTHONPATH"] = os.pathsep.join([*(str(entry) for entry in path), *outer])
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        cwd=cwd,
        env=env,
        check=False,
    )


def run_scrapy(
    args: list[str],
    *,
    path: list[Path],
    cwd: Path,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m scrapy ARGS`` with *path* first on ``PYTHONPATH``."""
    return _run_module("scrapy", args, path=path, cwd=cwd, timeout=timeout)


def run_compare(*args: str, timeout: float = 300) -> str:
    """``python -m example_project.compare ARGS`` as a user runs it from the example
    project (one crawl of the demo site per mode); its standard output. A proxy in the
    environment is not used: the demo site is on 127.0.0.1."""
    result = _run_module(
        "example_project.compare",
        list(args),
        path=[EXAMPLE, REPO],
        cwd=EXAMPLE,
        timeout=timeout,
        drop=_NOT_INHERITED | {"http_proxy", "HTTP_PROXY"},
    )
    assert result.returncode == 0, result.stderr[-5000:]
    return result.stdout
