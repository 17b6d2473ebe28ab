"""The spec layers (whatwg/, sniffing/) import nothing from Scrapy."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["scrapy_charset.whatwg", "scrapy_charset.sniffing"])
def test_spec_layers_do_not_import_scrapy(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in sys.modules if m == 'scrapy' or m.startswith('scrapy.')"
        " or m.startswith('twisted'))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
