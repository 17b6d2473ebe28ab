"""Settings as a project writes them, in a real crawl against a local server: an invalid
value stops the crawl before the first request with one line naming it; CHARSET_ENABLED =
False turns every component off with one INFO line; a middleware listed above the
decompressor, a misspelt setting name and a project's own ``meta["charset"]`` are reported;
labels from hostile headers stay short in meta and in the log."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.crawl import CrawlResult, run_crawl
from tests.server import Page, serve

ADDON = {"ADDONS": {"scrapy_charset.Addon": 0}}
BY_HAND = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585},
    "ITEM_PIPELINES": {"scrapy_charset.CharsetPipeline": 50},
    "SPIDER_MIDDLEWARES": {"scrapy_charset.CharsetItemStampMiddleware": 550},
}
RU = "<p>Съешь же ещё этих мягких французских булок</p>"
PAGE = Page(RU.encode("cp1251"), {"Content-Type": "text/html; charset=windows-1251"})


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    long_label = "x" * 10_000
    routes = {
        "/ru": PAGE,
        "/ru2": PAGE,
        "/long": Page(RU.encode("cp1251"), {"Content-Type": f"text/html; charset={long_label}"}),
        "/gzip": Page(
            gzip.compress(RU.encode("cp1251")),
            {"Content-Type": "text/html; charset=windows-1251", "Content-Encoding": "gzip"},
        ),
    }
    with serve(routes) as url:
        yield url


def lines(result: CrawlResult, pattern: str) -> list[str]:
    return [line for line in result.log.splitlines() if re.search(pattern, line)]


# --- An invalid value stops the crawl before the first request -----------------------------

INVALID = [
    # (settings, the line's start, a fragment of what is accepted)
    pytest.param(
        {**ADDON, "CHARSET_DETECTOR": "chardet2"},
        "CHARSET_DETECTOR = 'chardet2' is not valid",
        "'charset-normalizer'",
        id="addon-detector-typo",
    ),
    pytest.param(
        {**ADDON, "CHARSET_ITEM_CHECKS_ENABLED": "maybe"},
        "CHARSET_ITEM_CHECKS_ENABLED = 'maybe' is not valid",
        "True or False",
        id="addon-item-checks-not-bool",
    ),
    pytest.param(
        {**ADDON, "CHARSET_ALERT_RATE": "abc"},
        "CHARSET_ALERT_RATE = 'abc' is not valid",
        "a share between 0 and 1",
        id="addon-alert-rate-not-number",
    ),
    pytest.param(
        {**ADDON, "CHARSET_NORMALIZE": {"title": "NFD"}},
        "CHARSET_NORMALIZE = {'title': 'NFD'} is not valid",
        "'NFC' or 'NFKC'",
        id="addon-normalize-form",
    ),
    pytest.param(
        {**ADDON, "CHARSET_MONITOR_MAX_MOJIBAKE_RATE": "1%"},
        "CHARSET_MONITOR_MAX_MOJIBAKE_RATE = '1%' is not valid",
        "a share between 0 and 1",
        id="addon-monitor-rate",
    ),
    pytest.param(
        {**BY_HAND, "CHARSET_DETECTOR": "chardet2"},
        "CHARSET_DETECTOR = 'chardet2' is not valid",
        "'none'",
        id="by-hand-middleware-detector-typo",
    ),
    pytest.param(
        {"ITEM_PIPELINES": BY_HAND["ITEM_PIPELINES"], "CHARSET_REPAIR_ENABLED": "abc"},
        "CHARSET_REPAIR_ENABLED = 'abc' is not valid",
        "True or False",
        id="by-hand-pipeline-repair-not-bool",
    ),
    pytest.param(
        {"SPIDER_MIDDLEWARES": BY_HAND["SPIDER_MIDDLEWARES"], "CHARSET_ITEM_FIELD": 5},
        "CHARSET_ITEM_FIELD = 5 is not valid",
        "a field name",
        id="by-hand-stamp-field-not-a-name",
    ),
]


@pytest.mark.parametrize(("settings", "start", "accepted"), INVALID)
def test_invalid_setting_stops_the_crawl(
    base: str, settings: dict[str, Any], start: str, accepted: str
) -> None:
    result = run_crawl([base + "/ru"], settings)
    assert result.responses == []
    assert "downloader/request_count" not in result.stats
    assert not lines(result, "Spider opened")
    found = lines(result, re.escape(start))
    assert found, result.log[-3000:]
    # One line says it all: the setting and value, then what is accepted.
    assert all("; accepted: " in line and accepted in line for line in found)
    assert all("CharsetSettingsError" in line for line in found)


# --- CHARSET_ENABLED = False ---------------------------------------------------------------


@pytest.mark.parametrize(
    "settings",
    [
        pytest.param(ADDON, id="addon"),
        pytest.param(BY_HAND, id="listed-by-hand"),
        pytest.param({**ADDON, **BY_HAND}, id="addon-and-by-hand"),
    ],
)
def test_charset_enabled_false_turns_everything_off(base: str, settings: dict[str, Any]) -> None:
    result = run_crawl(
        [base + "/ru"],
        {**settings, "CHARSET_ENABLED": False, "CHARSET_ITEM_FIELD": "encoding"},
        items={base + "/ru": [{"title": RU}]},
    )
    assert len(lines(result, r"INFO: scrapy-charset is off \(CHARSET_ENABLED = False\)")) == 1
    assert result.charset_stats() == {}
    assert result.response("/ru")["meta_charset"] is None
    assert result.items == [{"title": RU}]  # not stamped, not checked
    for component in ("CharsetMiddleware", "CharsetPipeline", "CharsetItemStampMiddleware"):
        assert not lines(result, f"Disabled .*{component}")


# --- Reported at start-up --------------------------------------------------------------------


def test_middleware_listed_above_the_decompressor_is_reported(base: str) -> None:
    result = run_crawl(
        [base + "/gzip", base + "/ru"],
        {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 950}},
    )
    warned = lines(result, "is listed in DOWNLOADER_MIDDLEWARES at 950")
    assert len(warned) == 1
    assert "HttpCompressionMiddleware (590)" in warned[0]
    assert "Use 585" in warned[0]
    # What the warning is about: the compressed body was not decided.
    assert result.charset_stats()["charset/skipped/not_text"] == 1


def test_middleware_listed_in_its_place_is_not_reported(base: str) -> None:
    result = run_crawl([base + "/gzip", base + "/ru"], {**BY_HAND})
    assert not lines(result, "is listed in DOWNLOADER_MIDDLEWARES")
    assert result.charset_stats()["charset/encoding/windows-1251"] == 2


def test_misspelt_setting_name_is_reported(base: str) -> None:
    result = run_crawl([base + "/ru"], {**ADDON, "CHARSET_DETECTER": "none"})
    warned = lines(result, "CHARSET_DETECTER is not a scrapy-charset setting")
    assert len(warned) == 1
    assert "did you mean CHARSET_DETECTOR?" in warned[0]


# --- meta["charset"] is reserved: a project's own value is kept -----------------------------


def test_a_projects_own_meta_charset_is_kept(base: str) -> None:
    urls = [base + "/ru", base + "/ru2"]
    result = run_crawl(
        urls,
        {**ADDON, "CHARSET_ITEM_FIELD": "encoding"},
        meta={url: {"charset": "cp1251 (set by the spider)"} for url in urls},
        items={url: [{"title": "x"}] for url in urls},
    )
    for path in ("/ru", "/ru2"):
        record = result.response(path)
        assert record["meta_charset"] == "cp1251 (set by the spider)"
        assert record["text"] == RU
    # The decision went to meta["charset_decision"], where the item stamp finds it.
    assert [item["encoding"]["encoding"] for item in result.items] == ["windows-1251"] * 2
    assert result.stats["charset/meta_taken"] == 2
    assert len(lines(result, r"already holds 'cp1251 \(set by the spider\)'")) == 1


# --- Bounded labels; a non-string override is an unknown label -----------------------------


def test_a_10_kb_charset_label_is_cut(base: str) -> None:
    result = run_crawl([base + "/long"], ADDON)
    decision = result.response("/long")["meta_charset"]
    (ignored,) = decision["ignored"]
    assert ignored["reason"] == "unknown_label"
    assert ignored["label"] == "x" * 40 + "... (cut, 10000 characters)"
    assert result.stats["charset/ignored/unknown_label"] == 1
    assert max(len(line) for line in result.log.splitlines()) < 1000


def test_a_non_string_override_is_an_unknown_label(base: str) -> None:
    result = run_crawl([base + "/ru"], ADDON, meta={base + "/ru": {"charset_encoding": 1251}})
    decision = result.response("/ru")["meta_charset"]
    assert decision["source"] == "header"
    assert decision["ignored"] == [
        {
            "source": "override",
            "label": "1251 (int, not a string)",
            "encoding": None,
            "reason": "unknown_label",
            "offset": None,
        }
    ]
    assert result.stats["charset/ignored/unknown_label"] == 1
    assert len(lines(result, r"charset_encoding'\] = '1251 \(int, not a string\)'")) == 1
