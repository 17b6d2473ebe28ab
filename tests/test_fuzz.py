"""Every fuzz target runs under atheris (libFuzzer) as it is documented to run.

Each target also runs under hypothesis in the suite (test_hostile, test_textcheck,
test_pipeline); this checks the atheris entry points themselves. Skipped without atheris
(the ``fuzz`` extra).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "target",
    [
        pytest.param(["fuzz.sniff_decode", "-dict=fuzz/markup.dict"], id="sniff_decode"),
        pytest.param(["fuzz.textcheck"], id="textcheck"),
        pytest.param(["fuzz.pipeline_items"], id="pipeline_items"),
    ],
)
def test_fuzz_target_runs_under_atheris(target: list[str]) -> None:
    pytest.importorskip("atheris")
    module, *options = target
    run = subprocess.run(
        [sys.executable, "-m", module, "-runs=2000", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Done 2000 runs" in run.stderr
