"""Every benchmark script answers ``--help`` with its usage and refuses an argument it does
not take, without running anything (each is run as ``python -m benchmarks.<name>``, as
the docs give it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(
    path.stem
    for path in (ROOT / "benchmarks").glob("*.py")
    if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
)


def _run(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"benchmarks.{name}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_scripts_are_found() -> None:
    assert {"crawl", "items", "item_evidence", "scanner"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_help_gives_the_usage(name: str) -> None:
    done = _run(name, "--help")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: ")


@pytest.mark.parametrize("name", SCRIPTS)
def test_an_unknown_option_is_refused(name: str) -> None:
    done = _run(name, "--no-such-option")
    assert done.returncode == 2
    assert "unrecognized arguments: --no-such-option" in done.stderr
