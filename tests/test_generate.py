"""The generated tables are what the generator makes of the pinned spec data, and of the
running CPython's CJK codecs."""

from __future__ import annotations

import hashlib
import platform
import re
import subprocess
import sys

import pytest

from scrapy_charset.whatwg import _multibyte
from scrapy_charset.whatwg._singlebyte import HIGH_HALVES
from tests.spec import PACKAGE, REPO, SPEC_DIR, script

#: SHA-256 of the repository's copy of the Encoding Standard's data (every file of
#: tests/data/whatwg-encoding, by name, at the revision the modules record): the tables
#: were regenerated and checked from this data. When the data changes, regenerate
#: (scripts/generate_tables.py), run the slow check below, then record the new value.
SPEC_DATA_FINGERPRINT = "7a0064aa3ea72c5982b7f25d1f3f66d2d65058819fd89d4cf432b56b1df7fffa"


def spec_data_fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted((SPEC_DIR / "whatwg-encoding").iterdir()):
        digest.update(path.name.encode() + b"\x00" + path.read_bytes() + b"\x00")
    return digest.hexdigest()


def test_spec_data_is_the_data_the_tables_were_generated_from() -> None:
    """The fast check: the pinned data is the data the tables were last generated from
    (the full regeneration is the slow check below)."""
    assert spec_data_fingerprint() == SPEC_DATA_FINGERPRINT, (
        "tests/data/whatwg-encoding changed: regenerate with scripts/generate_tables.py, "
        "run python -m pytest -m slow tests/test_generate.py, and record the new fingerprint"
    )


@pytest.mark.slow
def test_generated_modules_are_current() -> None:
    """``--check`` with no ``--spec-dir``: the default is the repository's own copy."""
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "generate_tables.py"),
            "--package",
            str(PACKAGE),
            "--check",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_generated_modules_record_the_spec_revision() -> None:
    text = (PACKAGE / "whatwg" / "_labels.py").read_text("utf-8")
    assert "a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a" in text
    assert "Do not edit" in text


def test_cpython_codecs_are_those_the_tables_were_diffed_against() -> None:
    # No spec data needed: _multibyte.py's corrections are differences against CPython's
    # CJK codecs, so a CPython whose codecs changed needs new tables.
    found = script("generate_tables").codec_fingerprint()
    assert found == _multibyte.CODEC_FINGERPRINT, (
        f"CPython {platform.python_version()}'s CJK codecs "
        f"({', '.join(_multibyte.C_CODECS.values())}) are not those of Python "
        f"{_multibyte.PYTHON_VERSION} that scrapy_charset/whatwg/_multibyte.py was diffed "
        "against: regenerate with scripts/generate_tables.py"
    )


def test_fingerprint_notices_one_changed_codec_output(monkeypatch: pytest.MonkeyPatch) -> None:
    generator = script("generate_tables")
    codecs = {"EUC-KR": "cp949"}
    before = generator.codec_fingerprint(codecs)
    real = generator._c_lookup

    def changed(codec: str, seq: bytes) -> str | None:
        return "\u3001" if seq == b"\xa1\xa1" else real(codec, seq)

    monkeypatch.setattr(generator, "_c_lookup", changed)
    assert real("cp949", b"\xa1\xa1") == "\u3000"
    assert generator.codec_fingerprint(codecs) != before


@pytest.mark.parametrize(
    ("recorded", "same"),
    [
        pytest.param('PYTHON_VERSION = "3.13.1"\nCODEC_FINGERPRINT = "ab"\n', True, id="version"),
        pytest.param('PYTHON_VERSION = "3.11.7"\nCODEC_FINGERPRINT = "cd"\n', False, id="codecs"),
    ],
)
def test_check_ignores_only_the_python_version(recorded: str, same: bool) -> None:
    generated = 'PYTHON_VERSION = "3.11.7"\nCODEC_FINGERPRINT = "ab"\n'
    comparable = script("generate_tables")._comparable
    assert (comparable(recorded) == comparable(generated)) is same


def test_iso_8859_8_i_is_iso_8859_8s_table() -> None:
    # Encoding Standard, 9: both decode with index-iso-8859-8.txt; one table, two names.
    assert HIGH_HALVES["ISO-8859-8-I"] is HIGH_HALVES["ISO-8859-8"]


@pytest.mark.parametrize(
    "source", sorted(p.name for p in SPEC_DIR.iterdir() if p.is_dir()), ids=str
)
def test_spec_data_carries_its_licence_and_revision(source: str) -> None:
    """Each copied source keeps its licence file and has a section in tests/data/README.md
    with a pinned commit; the Encoding Standard's is the revision the tables record."""
    assert (SPEC_DIR / source / "LICENSE").is_file()
    readme = (SPEC_DIR / "README.md").read_text("utf-8")
    section = readme.split(f"## {source}/\n", 1)[1].split("\n## ", 1)[0]
    # A repository's commit, or a registry package's version and its archive's SHA-256.
    assert re.search(r"commit\s+`[0-9a-f]{40}`", section) or (
        re.search(r"version\s+`[0-9][^`]*`", section)
        and re.search(r"SHA-256\s+`[0-9a-f]{64}`", section)
    )
    assert "Licence:" in section
    if source == "whatwg-encoding":
        assert "a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a" in section
