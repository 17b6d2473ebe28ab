"""The generated tables are what the generator makes of the pinned spec data."""

from __future__ import annotations

import subprocess
import sys

from tests.spec import REPO, SPEC_DIR, needs_spec


@needs_spec
def test_generated_modules_are_current() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "generate_tables.py"),
            "--check",
            "--spec-dir",
            str(SPEC_DIR / "whatwg-encoding"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_generated_modules_record_the_spec_revision() -> None:
    text = (REPO / "scrapy_charset" / "whatwg" / "_labels.py").read_text("utf-8")
    assert "a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a" in text
    assert "Do not edit" in text
