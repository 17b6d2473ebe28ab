"""Every benchmark script answers ``--help`` with its usage and refuses an argument it does
not take, without running anything (each is run as ``python -m benchmarks.<name>`` runs
it, as the docs give it: as ``__main__``, with its own ``sys.argv``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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


#: The argument checks of every script in one process, each as ``python -m`` runs it: the
#: module executed afresh as ``__main__`` (what it imports is imported once), its
#: ``sys.argv``, its output and its exit status captured. Prints ``{name: {argument:
#: [status, stdout, stderr]}}``.
_ARGUMENT_CHECKS = r"""
import contextlib, io, json, runpy, sys, traceback, warnings

found = {}
for name in json.loads(sys.argv[1]):
    module = f"benchmarks.{name}"
    for argument in ("--help", "--no-such-option"):
        # As `python -m`: the module is not imported yet (another script may have).
        sys.modules.pop(module, None)
        out, err = io.StringIO(), io.StringIO()
        status = 0
        with warnings.catch_warnings(), contextlib.redirect_stdout(out):
            with contextlib.redirect_stderr(err):
                sys.argv = ["-m", argument]
                try:
                    runpy.run_module(module, run_name="__main__", alter_sys=True)
                except SystemExit as exit:
                    code = exit.code
                    status = code if isinstance(code, int) else int(code is not None)
                except Exception:  # a script that breaks: its traceback is its stderr
                    status = 1
                    traceback.print_exc()
        found.setdefault(name, {})[argument] = [status, out.getvalue(), err.getvalue()]
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def argument_checks() -> dict[str, dict[str, list[Any]]]:
    done = subprocess.run(
        [sys.executable, "-c", _ARGUMENT_CHECKS, json.dumps(SCRIPTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    found: dict[str, dict[str, list[Any]]] = json.loads(done.stdout)
    return found


def test_the_scripts_are_found() -> None:
    assert {"crawl", "items", "item_evidence", "item_cost"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_help_gives_the_usage(name: str, argument_checks: dict[str, dict[str, list[Any]]]) -> None:
    status, stdout, stderr = argument_checks[name]["--help"]
    assert (status, stderr) == (0, "")
    assert stdout.startswith("usage: ")


@pytest.mark.parametrize("name", SCRIPTS)
def test_an_unknown_option_is_refused(
    name: str, argument_checks: dict[str, dict[str, list[Any]]]
) -> None:
    status, _, stderr = argument_checks[name]["--no-such-option"]
    assert status == 2
    assert "unrecognized arguments: --no-such-option" in stderr


def test_item_cost_stages() -> None:
    """Each stage of inspect_text on damaged fields gets a row, with ftfy's cost beside."""
    from benchmarks.item_cost import STAGES

    done = _run("item_cost", "--stages", "--repeat", "1")
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0].endswith("µs a field")
    rows = {
        cells[0].strip("\u2003 "): float(cells[1])
        for line in lines[4:]
        for cells in [line.strip("|").split(" | ")]
    }
    assert list(rows) == [label for _depth, label, _module, _name in STAGES]
    assert all(seconds > 0 for seconds in rows.values())


# (damaged field's cost, clean field's cost), each (inspect_text, ftfy) -> the share of
# damaged fields at which the two cost the same, or None when one is cheaper on both.
@pytest.mark.parametrize(
    ("damaged", "clean", "share"),
    [
        pytest.param((1_000.0, 200.0), (20.0, 120.0), 100 / 900, id="dearer-damaged-cheaper-clean"),
        pytest.param((200.0, 200.0), (20.0, 120.0), None, id="as-dear-damaged"),
        pytest.param((1_000.0, 200.0), (120.0, 120.0), None, id="as-dear-clean"),
        pytest.param((100.0, 200.0), (20.0, 120.0), None, id="cheaper-on-both"),
    ],
)
def test_item_cost_break_even(
    damaged: tuple[float, float], clean: tuple[float, float], share: float | None
) -> None:
    from benchmarks.item_cost import break_even

    assert break_even(damaged, clean) == (pytest.approx(share) if share is not None else None)


def test_item_evidence_joined() -> None:
    """Fields joined from two sources: every field is counted once, in one column."""
    done = _run("item_evidence", "300", "--joined")
    assert (done.returncode, done.stderr) == (0, "")
    header, counts = done.stdout.splitlines()[:2]
    numbers = [int(n.replace(",", "")) for n in counts.split(" | ")]
    row = dict(zip(header.split(" | "), numbers, strict=True))
    assert list(row) == ["fields", "exact", "reported", "partial", "missed", "hidden"]
    assert row["fields"] == sum(row.values()) - row["fields"] > 0
