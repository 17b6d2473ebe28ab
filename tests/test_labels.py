"""Encoding Standard 4.2, "get an encoding": every label, and names that stay unknown."""

from __future__ import annotations

import json

import pytest

from scrapy_charset import lookup
from scrapy_charset.whatwg.labels import ENCODING_NAMES, LABELS, is_refused
from tests.spec import SPEC_DIR


def _spec_labels() -> list[tuple[str, str]]:
    data = json.loads((SPEC_DIR / "whatwg-encoding" / "encodings.json").read_text("utf-8"))
    return [
        (label, encoding["name"])
        for group in data
        for encoding in group["encodings"]
        for label in encoding["labels"]
    ]


SPEC_LABELS = _spec_labels()


def test_table_is_the_whole_spec_table() -> None:
    assert len(SPEC_LABELS) == 228
    assert dict(SPEC_LABELS) == LABELS
    assert len(ENCODING_NAMES) == 40


@pytest.mark.parametrize(("label", "name"), SPEC_LABELS, ids=[lab for lab, _ in SPEC_LABELS])
def test_every_label(label: str, name: str) -> None:
    assert lookup(label) == name
    # ASCII case-insensitive, with leading and trailing ASCII whitespace removed.
    assert lookup(label.upper()) == name
    assert lookup(f" \t\n\x0c\r{label.title()}\r\n\x0c\t ") == name


@pytest.mark.parametrize(
    "label",
    [
        "cp437",
        "utf-7",
        "utf7",
        "utf-32",
        "utf-32le",
        "latin9",
        "x-mac-japanese",
        "johab",
        "rot13",
        "rot_13",
        "base64",
        "hex",
        "zlib",
        "punycode",
        "idna",
        "undefined",
        "unicode_escape",
        "raw_unicode_escape",
        "mbcs",
        "hz",
        "iso-2022-jp-2",
        "cp65001",
        "utf8-sig",
        "utf-8-sig",
        "",
        "utf-8\x00",
        "utf\u20128",
        "\u212aoi8-r",  # KELVIN SIGN: not ASCII, so not case-folded to "k"
        "\xa0utf-8",  # NO-BREAK SPACE is not ASCII whitespace
        "utf-8\x0b",  # VT is not ASCII whitespace
    ],
)
def test_unknown_names(label: str) -> None:
    assert lookup(label) is None


@pytest.mark.parametrize(
    ("label", "refused"),
    [
        ("utf-7", True),
        ("cp437", True),
        ("rot13", True),
        ("base64", True),
        ("punycode", True),
        ("bogus", False),
        ("utf-8", False),
        ("x" * 1000, False),
    ],
)
def test_refused_means_python_knows_it(label: str, refused: bool) -> None:
    assert is_refused(label) is refused


def test_wpt_unsupported_labels() -> None:
    lines = (SPEC_DIR / "wpt-encoding" / "unsupported-labels.txt").read_text("utf-8")
    labels = [line for line in lines.splitlines() if line and not line.startswith("#")]
    assert len(labels) >= 150
    assert [label for label in labels if lookup(label) is not None] == []
