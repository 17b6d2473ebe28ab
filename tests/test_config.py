"""The CHARSET_* settings: read once, checked in one place, and an invalid value is one
line naming the setting, the value and what is accepted."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.settings import Settings

from scrapy_charset._settings import SETTINGS
from scrapy_charset.items.config import ItemChecksConfig
from scrapy_charset.responses.config import CharsetConfig, CharsetSettingsError
from scrapy_charset.sniffing.detect import DEFAULT_WINDOW
from tests.spec import PACKAGE, REPO


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


# Every CHARSET_* setting with a value of the wrong type or out of range, and a fragment
# of what the message says is accepted. Both config objects are read, as the add-on does.
INVALID = [
    pytest.param("CHARSET_ENABLED", "maybe", "True or False", id="enabled-not-bool"),
    pytest.param("CHARSET_ENABLED", 2, "True or False", id="enabled-two"),
    pytest.param("CHARSET_DETECTOR", 3, "'none'", id="detector-int"),
    pytest.param("CHARSET_DETECTOR", " ", "'none'", id="detector-blank"),
    # A typo used to turn the whole middleware off while the crawl finished "finished".
    pytest.param("CHARSET_DETECTOR", "chardet2", "'charset-normalizer'", id="detector-typo"),
    pytest.param("CHARSET_DETECT_WINDOW", "big", "whole number of 1", id="window-not-int"),
    pytest.param("CHARSET_DETECT_WINDOW", 0, "whole number of 1", id="window-zero"),
    pytest.param("CHARSET_DETECT_WINDOW", -1, "whole number of 1", id="window-negative"),
    pytest.param("CHARSET_DETECT_WINDOW", 4096.5, "whole number of 1", id="window-fraction"),
    pytest.param("CHARSET_DETECT_WINDOW", True, "whole number of 1", id="window-bool"),
    pytest.param("CHARSET_DETECT_TLD", "yes", "True or False", id="tld-not-bool"),
    pytest.param(
        "CHARSET_DEFAULT_ENCODING", "klingon", "Encoding Standard label", id="default-unknown"
    ),
    # A label Python knows but browsers refuse is not a default either.
    pytest.param(
        "CHARSET_DEFAULT_ENCODING", "utf-7", "Encoding Standard label", id="default-utf-7"
    ),
    pytest.param("CHARSET_DEFAULT_ENCODING", 1252, "Encoding Standard label", id="default-int"),
    # "hz-gb-2312" is a label of the replacement encoding.
    pytest.param(
        "CHARSET_DEFAULT_ENCODING", "hz-gb-2312", "cannot be a fallback", id="default-replacement"
    ),
    pytest.param("CHARSET_DEFAULT_ENCODING", "utf-16", "cannot be a fallback", id="default-utf-16"),
    pytest.param("CHARSET_SKIP_CONTENT_TYPES", ["csv"], "MIME types", id="skip-no-slash"),
    pytest.param("CHARSET_SKIP_CONTENT_TYPES", ["*/*"], "MIME types", id="skip-everything"),
    pytest.param(
        "CHARSET_SKIP_CONTENT_TYPES",
        ["text/csv; charset=utf-8"],
        "MIME types",
        id="skip-with-parameters",
    ),
    pytest.param("CHARSET_SKIP_CONTENT_TYPES", [None], "MIME types", id="skip-none-item"),
    pytest.param("CHARSET_SKIP_CONTENT_TYPES", 5, "MIME types", id="skip-int"),
    # The item side: before, some crashed with Scrapy's bare message, others disabled the
    # pipeline with a message naming no setting.
    pytest.param("CHARSET_ITEM_CHECKS_ENABLED", "sometimes", "True or False", id="checks-bool"),
    pytest.param("CHARSET_ITEM_FIELD", 5, "field name", id="item-field-int"),
    pytest.param("CHARSET_REPAIRS_FIELD", ["a"], "field name", id="repairs-field-list"),
    pytest.param("CHARSET_REPAIR_ENABLED", "abc", "True or False", id="repair-bool"),
    pytest.param("CHARSET_REPAIR_LEGACY", "abc", "True or False", id="legacy-bool"),
    pytest.param("CHARSET_NORMALIZE", {"title": "NFD"}, "'NFC' or 'NFKC'", id="normalize-form"),
    pytest.param("CHARSET_NORMALIZE", "title=NFC", "'NFC' or 'NFKC'", id="normalize-not-dict"),
    pytest.param("CHARSET_NORMALIZE", {"title": 1}, "'NFC' or 'NFKC'", id="normalize-int-form"),
    pytest.param("CHARSET_ALERT_RATE", "abc", "share between 0 and 1", id="rate-not-number"),
    pytest.param("CHARSET_ALERT_RATE", 1.5, "share between 0 and 1", id="rate-over-one"),
    pytest.param("CHARSET_ALERT_RATE", float("nan"), "share between 0 and 1", id="rate-nan"),
    pytest.param("CHARSET_ALERT_MIN_ITEMS", 0, "whole number of 1", id="min-items-zero"),
    pytest.param("CHARSET_ALERT_WINDOW", "ten", "whole number of 1", id="window-words"),
    pytest.param("CHARSET_ALERT_RISE", -0.1, "share between 0 and 1", id="rise-negative"),
    pytest.param("CHARSET_ALERT_SAMPLES", -1, "whole number of 0", id="samples-negative"),
    pytest.param("CHARSET_DROP_ITEM_FIELDS", "two", "whole number of 0", id="drop-words"),
    pytest.param("CHARSET_CLOSE_SPIDER_RATE", 2, "share between 0 and 1", id="close-rate-two"),
    pytest.param("CHARSET_MAX_FIELD_PATHS", 0, "whole number of 1", id="paths-zero"),
    pytest.param("CHARSET_MONITOR_MAX_ALERTS", -1, "whole number of 0", id="monitor-alerts"),
    pytest.param(
        "CHARSET_MONITOR_MAX_REPLACEMENT_RATE", "1%", "share between 0", id="monitor-percent"
    ),
    pytest.param("CHARSET_MONITOR_MAX_MOJIBAKE_RATE", 5, "share between 0", id="monitor-mojibake"),
]


def read_both(settings: dict[str, Any]) -> None:
    CharsetConfig.from_settings(Settings(settings))
    ItemChecksConfig.from_settings(Settings(settings))


@pytest.mark.parametrize(("name", "value", "accepted"), INVALID)
def test_invalid_settings(name: str, value: Any, accepted: str) -> None:
    with pytest.raises(CharsetSettingsError) as info:
        read_both({name: value})
    error = info.value
    assert (error.setting, error.value) == (name, value)
    text = str(error)
    # One line: the setting, the value given, what is accepted.
    assert "\n" not in text
    assert text.startswith(f"{name} = {value!r} is not valid")
    assert accepted in text
    assert f"accepted: {error.accepted}" in text


def test_every_setting_has_an_invalid_case() -> None:
    cases = {case.values[0] for case in INVALID}
    assert cases == SETTINGS


def test_same_field_for_stamp_and_repairs() -> None:
    with pytest.raises(CharsetSettingsError, match="CHARSET_REPAIRS_FIELD = 'x'"):
        read_both({"CHARSET_ITEM_FIELD": "x", "CHARSET_REPAIRS_FIELD": "x"})


def test_a_huge_value_is_cut_in_the_message() -> None:
    with pytest.raises(CharsetSettingsError) as info:
        read_both({"CHARSET_DETECTOR": "x" * 10_000})
    assert len(str(info.value)) < 400
    assert "(10002 characters)" in str(info.value)


def test_item_side_defaults_and_strings() -> None:
    settings = {
        "CHARSET_ALERT_RATE": "0.1",
        "CHARSET_ALERT_WINDOW": "20",
        "CHARSET_NORMALIZE": '{"price": "nfkc"}',
        "CHARSET_ITEM_FIELD": " encoding ",
        "CHARSET_REPAIR_ENABLED": "0",
    }
    got = ItemChecksConfig.from_settings(Settings(settings))
    assert (got.alert_rate, got.alert_window, got.normalize) == (0.1, 20, {"price": "NFKC"})
    assert (got.item_field, got.repair) == ("encoding", False)
    assert ItemChecksConfig.from_settings(Settings()) == ItemChecksConfig()


def test_docs_document_every_setting() -> None:
    """Every CHARSET_* setting the package reads has a row in docs/settings.md, and the
    documented detection window is the real default."""
    page = (REPO / "docs" / "settings.md").read_text(encoding="utf-8")
    read = {
        name
        for path in PACKAGE.rglob("*.py")
        for name in re.findall(r'"(CHARSET_[A-Z_]+)"', path.read_text(encoding="utf-8"))
    }
    documented = set(re.findall(r"^\| `(CHARSET_[A-Z_]+)` \|", page, re.MULTILINE))
    assert "CHARSET_ITEM_FIELD" in read
    assert read <= documented
    assert f"| `CHARSET_DETECT_WINDOW` | `{DEFAULT_WINDOW}` |" in page


def test_settings_lists_every_setting_the_config_objects_read() -> None:
    """SETTINGS (the names the add-on knows, the others being reported as misspelt) is
    exactly what the config objects read."""
    read = set()
    for path in ("responses/config.py", "items/config.py"):
        source = (PACKAGE / path).read_text(encoding="utf-8")
        read |= set(re.findall(r'"(CHARSET_[A-Z_]+)"', source))
    assert read == SETTINGS


# Any value a settings file, a -s option or a JSON env can hold.
ANY_VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=30)
    | st.binary(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


@given(name=st.sampled_from(sorted(SETTINGS)), value=ANY_VALUE)
@settings(max_examples=500, deadline=None)
def test_any_value_is_accepted_or_one_line_naming_the_setting(name: str, value: Any) -> None:
    problem: CharsetSettingsError | None = None
    try:
        read_both({name: value})
    except CharsetSettingsError as error:
        problem = error
    if problem is not None:
        assert problem.setting == name
        assert str(problem).startswith(f"{name} = ")
        assert "\n" not in str(problem)
