"""The alert rules at their boundaries: the rate after a minimum of items, the sudden rise
against the field's own baseline, once per field and kind."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from scrapy_charset.items.alerts import MAX_URLS, REPLACEMENT, Alert, AlertRules
from tests.spec import REPO

MOJIBAKE = "utf8-as-windows-1252"


def feed(
    rules: AlertRules, pattern: str, *, path: str = "title", kind: str = REPLACEMENT
) -> list[Alert]:
    """One item per character: "x" damaged, "." clean."""
    alerts: list[Alert] = []
    for i, mark in enumerate(pattern):
        kinds = [kind] if mark == "x" else []
        alerts += rules.observe(path, kinds, value=f"value {i}", source="header")
    return alerts


# (items pattern, min_items, rate, fires): the rate rule, "share >= rate after min_items".
RATE_CASES = [
    pytest.param("xx" + "." * 8, 10, 0.2, True, id="exactly-the-rate-at-min-items"),
    pytest.param("x" + "." * 9, 10, 0.2, False, id="below-the-rate"),
    pytest.param("x" * 9, 10, 0.2, False, id="before-min-items"),
    pytest.param("x" * 10, 10, 0.2, True, id="at-min-items"),
    pytest.param("x" * 5 + "." * 95, 100, 0.05, True, id="default-rate-5-of-100"),
    pytest.param("x" * 4 + "." * 96, 100, 0.05, False, id="default-rate-4-of-100"),
]


@pytest.mark.parametrize(("pattern", "min_items", "rate", "fires"), RATE_CASES)
def test_rate_rule(pattern: str, min_items: int, rate: float, fires: bool) -> None:
    rules = AlertRules(rate=rate, min_items=min_items, window=1000, rise=1.0)
    alerts = feed(rules, pattern)
    assert [a.rule for a in alerts] == (["rate"] if fires else [])


# (baseline window, recent window, rise, fires): window 10, the rate rule out of reach.
RISE_CASES = [
    pytest.param("x" + "." * 9, "xxxx" + "." * 6, 0.3, True, id="rise-exactly-0.3"),
    pytest.param("x" + "." * 9, "xxx" + "." * 7, 0.3, False, id="rise-0.2"),
    pytest.param("." * 10, "xxx" + "." * 7, 0.3, True, id="from-zero"),
    pytest.param("xxxx" + "." * 6, "xxxxxx" + "." * 4, 0.3, False, id="high-baseline"),
    pytest.param("", "x" * 10, 0.3, False, id="no-baseline-yet"),
    pytest.param("." * 9, "x" * 10, 0.3, False, id="baseline-one-short"),
]


@pytest.mark.parametrize(("baseline", "recent", "rise", "fires"), RISE_CASES)
def test_sudden_rise_rule(baseline: str, recent: str, rise: float, fires: bool) -> None:
    rules = AlertRules(rate=1.0, min_items=10_000, window=10, rise=rise)
    assert feed(rules, baseline) == []
    alerts = feed(rules, recent)
    assert [a.rule for a in alerts] == (["rise"] if fires else [])
    if fires:
        assert alerts[0].rate == recent.count("x") / 10


def test_rise_is_measured_over_a_sliding_window() -> None:
    # 30 items: the damage of items 1-5 slides out of the baseline before the rise.
    rules = AlertRules(rate=1.0, min_items=10_000, window=10, rise=0.5)
    assert feed(rules, "xxxxx" + "." * 15) == []
    alerts = feed(rules, "xxxxx" + "." * 5)
    assert [(a.rule, a.rate) for a in alerts] == [("rise", 0.5)]


def test_one_alert_per_field_and_kind() -> None:
    rules = AlertRules(rate=0.1, min_items=2, window=1000)
    assert len(feed(rules, "xxxxxx")) == 1
    assert feed(rules, "xxxxxx") == []
    assert len(feed(rules, "xx", path="price")) == 1
    assert len(feed(rules, "xx", kind=MOJIBAKE)) == 1


def test_alert_payload() -> None:
    rules = AlertRules(rate=0.5, min_items=4, window=1000, samples=2)
    rules.observe("title", [REPLACEMENT], value="a\ufffd", source="detected", url="http://a/1")
    rules.observe("title", [REPLACEMENT], value="b\ufffd", source="detected", url="http://a/1")
    rules.observe("title", [], value="clean", source="header", url="http://a/2")
    (alert,) = rules.observe("title", [REPLACEMENT], value="c\ufffd", source=None)
    assert alert.as_dict() == {
        "field": "title",
        "kind": REPLACEMENT,
        "rule": "rate",
        "rate": 0.75,
        "items": 4,
        "samples": ["a\ufffd", "b\ufffd"],
        "sources": {"detected": 2, "unknown": 1},
        "damaged": 3,
        "repaired": 0,
        "urls": ["http://a/1"],
    }


# The pages an alert names: (the page of each damaged item, None for an unknown one; of
# each clean one) -> the alert's URLs. The rate rule fires at the last damaged item.
ALERT_URLS = [
    pytest.param([None] * 4, [], (), id="no-page-known"),
    pytest.param(["/a"] * 4, [], ("/a",), id="one-page-named-once"),
    pytest.param(["/a", None, "/b", "/a"], [], ("/a", "/b"), id="known-and-unknown"),
    pytest.param(["/a", "/b", "/c", "/d"], [], ("/a", "/b", "/c"), id="the-first-three"),
    pytest.param(["/a", "/a", "/b", "/b"], ["/clean"], ("/a", "/b"), id="clean-pages-not"),
]


@pytest.mark.parametrize(("damaged", "clean", "urls"), ALERT_URLS)
def test_an_alert_names_the_pages_of_its_values(
    damaged: list[str | None], clean: list[str], urls: tuple[str, ...]
) -> None:
    rules = AlertRules(rate=0.5, min_items=len(damaged) + len(clean), window=1000)
    for url in clean:
        rules.observe("title", [], url=url)
    alerts = [a for url in damaged for a in rules.observe("title", [REPLACEMENT], url=url)]
    assert [alert.urls for alert in alerts] == [urls]
    assert len(urls) <= MAX_URLS


def test_mojibake_alerts_count_the_repaired_values() -> None:
    rules = AlertRules(rate=0.5, min_items=3, window=1000)
    rules.observe("name", [MOJIBAKE], repaired=[MOJIBAKE])
    rules.observe("name", [MOJIBAKE])
    (alert,) = rules.observe("name", [MOJIBAKE], repaired=[MOJIBAKE])
    assert (alert.damaged, alert.repaired) == (3, 2)


# What no rule could judge when the crawl ends: (items of "name" with damage, clean items
# of "name") -> the unjudged entries. The rate rule judges a field after min_items = 4.
UNJUDGED = [
    pytest.param("", "", [], id="nothing-seen"),
    pytest.param("", "...", [], id="clean"),
    pytest.param("x", "..", [("name", MOJIBAKE, 1, 3, 1)], id="too-few-items"),
    pytest.param("x", "...", [], id="judged-no-alert"),
    pytest.param("xxx", ".", [], id="judged-and-fired"),
    pytest.param("xx", "", [("name", MOJIBAKE, 2, 2, 2)], id="all-damaged-too-few"),
]


@pytest.mark.parametrize(("damaged", "clean", "expected"), UNJUDGED)
def test_unjudged(damaged: str, clean: str, expected: list[tuple[Any, ...]]) -> None:
    rules = AlertRules(rate=0.5, min_items=4, window=1000)
    for _ in damaged:
        rules.observe("name", [MOJIBAKE], repaired=[MOJIBAKE])
    for _ in clean:
        rules.observe("name", [])
    got = [(u.field, u.kind, u.damaged, u.items, u.repaired) for u in rules.unjudged()]
    assert got == expected


def test_unjudged_most_damaged_first() -> None:
    rules = AlertRules(min_items=50)
    feed(rules, "x.", path="b")
    feed(rules, "xx", path="a")
    feed(rules, "x.", path="c")
    assert [(u.field, u.damaged) for u in rules.unjudged()] == [("a", 2), ("b", 1), ("c", 1)]


def test_rate_over() -> None:
    rules = AlertRules(min_items=4)
    feed(rules, "xx..")
    assert rules.rate_over(0.5) == ("title", REPLACEMENT, 0.5)
    assert rules.rate_over(0.51) is None


# --- The Spidermon suite reads the alert stats (extra [spidermon]) ------------------------

MONITOR_CASES = [
    pytest.param({}, {}, [], id="no-items"),
    pytest.param({"charset/items_checked": 100}, {}, [], id="clean"),
    pytest.param(
        {"charset/items_checked": 100, "charset/alerts/replacement": 1},
        {},
        ["test_alerts"],
        id="an-alert",
    ),
    pytest.param(
        {"charset/items_checked": 100, "charset/alerts/replacement": 1},
        {"CHARSET_MONITOR_MAX_ALERTS": 1},
        [],
        id="an-alert-allowed",
    ),
    pytest.param(
        {"charset/items_checked": 100, "charset/replacement/items": 1},
        {},
        [],
        id="replacement-at-the-limit",
    ),
    pytest.param(
        {"charset/items_checked": 100, "charset/replacement/items": 2},
        {},
        ["test_replacement_rate"],
        id="replacement-over",
    ),
    pytest.param(
        {"charset/items_checked": 100, "charset/mojibake/items": 2},
        {"CHARSET_MONITOR_MAX_MOJIBAKE_RATE": 0.02},
        [],
        id="mojibake-allowed",
    ),
    pytest.param(
        {"charset/items_checked": 100, "charset/mojibake/items": 3},
        {"CHARSET_MONITOR_MAX_MOJIBAKE_RATE": 0.02},
        ["test_mojibake_rate"],
        id="mojibake-over",
    ),
]


@pytest.mark.parametrize(("stats", "settings", "failed"), MONITOR_CASES)
def test_spidermon_suite(
    stats: dict[str, int], settings: dict[str, object], failed: list[str]
) -> None:
    pytest.importorskip("spidermon")
    import scrapy
    from scrapy.utils.test import get_crawler
    from spidermon.runners import MonitorRunner

    from scrapy_charset.items.monitors import CharsetMonitorSuite

    crawler = get_crawler(scrapy.Spider, settings_dict=settings)
    suite = CharsetMonitorSuite(crawler=crawler)
    result = MonitorRunner().run(suite, stats=stats, crawler=crawler)
    names = sorted(r.monitor._testMethodName for r in result.monitors_failed_results)
    assert names == failed


def test_monitors_module_imports_without_spidermon() -> None:
    code = (
        "import sys; sys.modules['spidermon'] = None\n"
        "import scrapy_charset.items.monitors as m\n"
        "try:\n    m.CharsetMonitorSuite()\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout
    assert "pip install 'scrapy-charset[spidermon]'" in out


# Kinds of damage that reach the rate at the same item -> the order of their alerts: by
# kind, whatever order they were seen in, so a crawl's log is the same on every run.
SAME_ITEM = [
    pytest.param([MOJIBAKE, REPLACEMENT], id="mojibake-seen-first"),
    pytest.param([REPLACEMENT, MOJIBAKE], id="replacement-seen-first"),
    pytest.param(["utf8-as-windows-1251", MOJIBAKE, REPLACEMENT], id="three-kinds"),
]


@pytest.mark.parametrize("kinds", SAME_ITEM)
def test_alerts_at_one_item_come_in_the_order_of_their_kinds(kinds: list[str]) -> None:
    rules = AlertRules(rate=0.1, min_items=len(kinds) + 1, window=1000)
    for kind in kinds:
        assert rules.observe("name", [kind]) == []
    alerts = rules.observe("name", [])
    assert [alert.kind for alert in alerts] == sorted(kinds)
