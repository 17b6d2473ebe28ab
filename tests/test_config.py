"""The CHARSET_* settings: read once, validated, NotConfigured with a how-to-fix message."""

from __future__ import annotations

import re
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings

from scrapy_charset.config import CharsetConfig
from scrapy_charset.sniff.detect import DEFAULT_WINDOW
from tests.spec import REPO


def config(**settings: Any) -> CharsetConfig:
    return CharsetConfig.from_settings(Settings(settings))


def test_defaults() -> None:
    assert config() == CharsetConfig(
        enabled=True,
        detector="default",
        detect_window=DEFAULT_WINDOW,
        detect_tld=True,
        default_encoding=None,
        skip_content_types=frozenset(),
    )


def test_frozen() -> None:
    with pytest.raises(AttributeError):
        config().enabled = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("settings", "field", "expected"),
    [
        pytest.param({"CHARSET_ENABLED": False}, "enabled", False, id="enabled-false"),
        pytest.param({"CHARSET_ENABLED": "0"}, "enabled", False, id="enabled-string-0"),
        pytest.param({"CHARSET_ENABLED": "true"}, "enabled", True, id="enabled-string-true"),
        pytest.param({"CHARSET_DETECTOR": "none"}, "detector", "none", id="detector-none"),
        pytest.param({"CHARSET_DETECTOR": " default "}, "detector", "default", id="detector-strip"),
        pytest.param({"CHARSET_DETECT_WINDOW": 4096}, "detect_window", 4096, id="window-int"),
        pytest.param({"CHARSET_DETECT_WINDOW": "4096"}, "detect_window", 4096, id="window-str"),
        pytest.param({"CHARSET_DETECT_TLD": False}, "detect_tld", False, id="tld-false"),
        # Encoding Standard "get an encoding": labels resolve to names.
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": "sjis"}, "default_encoding", "Shift_JIS", id="default-sjis"
        ),
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": " latin1 "},
            "default_encoding",
            "windows-1252",
            id="default-latin1-is-windows-1252",
        ),
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": ""}, "default_encoding", None, id="default-empty"
        ),
        pytest.param(
            {"CHARSET_SKIP_CONTENT_TYPES": ["Text/CSV", "application/javascript"]},
            "skip_content_types",
            frozenset({"text/csv", "application/javascript"}),
            id="skip-list-lowercased",
        ),
        pytest.param(
            {"CHARSET_SKIP_CONTENT_TYPES": "text/csv, text/*"},
            "skip_content_types",
            frozenset({"text/csv", "text/*"}),
            id="skip-comma-string",
        ),
        pytest.param(
            {"CHARSET_SKIP_CONTENT_TYPES": []}, "skip_content_types", frozenset(), id="skip-empty"
        ),
    ],
)
def test_valid_settings(settings: dict[str, Any], field: str, expected: Any) -> None:
    assert getattr(config(**settings), field) == expected


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        pytest.param({"CHARSET_ENABLED": "maybe"}, "True or False", id="enabled-not-bool"),
        pytest.param({"CHARSET_DETECTOR": 3}, "'none' to turn detection off", id="detector-int"),
        pytest.param(
            {"CHARSET_DETECTOR": " "}, "'none' to turn detection off", id="detector-blank"
        ),
        pytest.param({"CHARSET_DETECT_WINDOW": "big"}, "positive number", id="window-not-int"),
        pytest.param({"CHARSET_DETECT_WINDOW": 0}, "positive number", id="window-zero"),
        pytest.param({"CHARSET_DETECT_WINDOW": -1}, "positive number", id="window-negative"),
        pytest.param({"CHARSET_DETECT_TLD": "yes"}, "True or False", id="tld-not-bool"),
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": "klingon"}, "Encoding Standard label", id="default-unknown"
        ),
        # A label Python knows but browsers refuse is not a default either.
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": "utf-7"}, "Encoding Standard label", id="default-utf-7"
        ),
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": 1252}, "Encoding Standard label", id="default-int"
        ),
        # "hz-gb-2312" is a label of the replacement encoding.
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": "hz-gb-2312"},
            "cannot be a fallback",
            id="default-replacement",
        ),
        pytest.param(
            {"CHARSET_DEFAULT_ENCODING": "utf-16"}, "cannot be a fallback", id="default-utf-16"
        ),
        pytest.param({"CHARSET_SKIP_CONTENT_TYPES": ["csv"]}, "MIME types", id="skip-no-slash"),
        pytest.param({"CHARSET_SKIP_CONTENT_TYPES": ["*/*"]}, "MIME types", id="skip-everything"),
        pytest.param(
            {"CHARSET_SKIP_CONTENT_TYPES": ["text/csv; charset=utf-8"]},
            "MIME types",
            id="skip-with-parameters",
        ),
        pytest.param({"CHARSET_SKIP_CONTENT_TYPES": [None]}, "MIME types", id="skip-none-item"),
        pytest.param({"CHARSET_SKIP_CONTENT_TYPES": 5}, "MIME types", id="skip-int"),
    ],
)
def test_invalid_settings(settings: dict[str, Any], message: str) -> None:
    name = next(iter(settings))
    with pytest.raises(NotConfigured) as info:
        config(**settings)
    text = str(info.value)
    assert name in text
    assert message in text
    assert "remove it" in text


def test_docs_document_every_setting() -> None:
    """Every CHARSET_* setting the package reads has a row in docs/settings.md, and the
    documented detection window is the real default."""
    page = (REPO / "docs" / "settings.md").read_text(encoding="utf-8")
    read = {
        name
        for path in (REPO / "scrapy_charset").rglob("*.py")
        for name in re.findall(r'"(CHARSET_[A-Z_]+)"', path.read_text(encoding="utf-8"))
    }
    documented = set(re.findall(r"^\| `(CHARSET_[A-Z_]+)` \|", page, re.MULTILINE))
    assert "CHARSET_ITEM_FIELD" in read
    assert read <= documented
    assert f"| `CHARSET_DETECT_WINDOW` | `{DEFAULT_WINDOW}` |" in page
