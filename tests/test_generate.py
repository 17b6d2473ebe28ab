"""The generated tables are what the generator makes of the pinned spec data."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.spec import REPO, SPEC_DIR


def test_generated_modules_are_current() -> None:
    """``--check`` with no ``--spec-dir``: the default is the repository's own copy."""
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "generate_tables.py"),
            "--check",
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


@pytest.mark.parametrize(
    "source", sorted(p.name for p in SPEC_DIR.iterdir() if p.is_dir()), ids=str
)
def test_spec_data_carries_its_licence_and_revision(source: str) -> None:
    """Each copied source keeps its licence file and has a section in tests/data/README.md
    with a pinned commit; the Encoding Standard's is the revision the tables record."""
    assert (SPEC_DIR / source / "LICENSE").is_file()
    readme = (SPEC_DIR / "README.md").read_text("utf-8")
    section = readme.split(f"## {source}/\n", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"commit\s+`[0-9a-f]{40}`", section)
    assert "Licence:" in section
    if source == "whatwg-encoding":
        assert "a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a" in section
