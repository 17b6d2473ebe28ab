"""Where the shared spec data lives, for tests that read it.

The data sits beside the repository (``../shared/spec``) or where ``SCRAPY_CHARSET_SPEC_DIR``
points; tests that need it skip with a clear reason when it is absent (a plain clone).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def spec_dir() -> Path:
    env = os.environ.get("SCRAPY_CHARSET_SPEC_DIR")
    return Path(env) if env else REPO.parent / "shared" / "spec"


SPEC_DIR = spec_dir()
HAVE_SPEC = (SPEC_DIR / "whatwg-encoding" / "encodings.json").is_file()

needs_spec = pytest.mark.skipif(
    not HAVE_SPEC,
    reason=f"the spec data ({SPEC_DIR}) is absent; set SCRAPY_CHARSET_SPEC_DIR to run these",
)


def read_dat(path: Path) -> list[tuple[bytes, str]]:
    """html5lib-tests ``.dat`` encoding tests: ``(document bytes, expected encoding)``."""
    if not path.is_file():
        return []
    tests = []
    for chunk in path.read_bytes().split(b"#data\n")[1:]:
        data, _, expected = chunk.partition(b"#encoding\n")
        # The newline before "#encoding" belongs to the format, not the document.
        tests.append((data[:-1] if data.endswith(b"\n") else data, expected.strip().decode()))
    return tests
