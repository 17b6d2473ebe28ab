"""The item checks on text nobody on this project wrote, through a real crawl with the
``ADDONS`` line: pages served on 127.0.0.1 hold ftfy 6.3.1's test cases, real names with
what real text attaches to them (Faker, CLDR), and partly damaged fields (pycountry's
translations, one name damaged in each reading); the spider extracts one item per list
entry, and the add-on's pipeline checks and repairs them.

Each value must come out of the crawl exactly as :func:`~scrapy_charset.inspect_text`
says (one answer for the crawl and the function), the stats must count what the reports
say, and the checks of ``tests/test_item_evidence.py`` must hold on the crawl's own items.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from html import escape
from itertools import islice
from typing import Any

import pytest
from parsel import Selector

from benchmarks.item_evidence import (
    READINGS,
    cldr_locale_names,
    faker_names,
    ftfy_cases,
    partly_damaged,
    with_attachments,
)
from scrapy_charset.items.textcheck import inspect_text
from tests.crawl import CrawlResult, run_crawl
from tests.server import Page, serve
from tests.test_item_evidence import HIDDEN
from tests.test_plausible import LEFT_ALONE

#: Correct text only: no value of these pages may change.
CLEAN_PAGES = ("names", "capitals")


def _survives_html(value: str) -> bool:
    """*value* comes back whole from an ``<li>`` of an HTML page (no markup-significant
    whitespace or control character lost to the parser)."""
    return Selector(text=f"<ul><li>{escape(value)}</li></ul>").css("li::text").getall() == [value]


@cache
def _pages() -> dict[str, list[str]]:
    names = with_attachments(
        iter([*islice(faker_names(step=25), 300), *islice(cldr_locale_names(step=100), 300)])
    )
    pages = {
        "ftfy": [text for _variant, _label, text, _expected in ftfy_cases()],
        "names": list(names),
        "capitals": LEFT_ALONE,
        "partly": [damaged for _reading, _original, damaged in _partly()],
    }
    return {page: [v for v in values if _survives_html(v)] for page, values in pages.items()}


@cache
def _partly() -> list[tuple[str, str, str]]:
    return list(partly_damaged(per_language=40))


def _html(values: list[str]) -> bytes:
    items = "".join(f"<li>{escape(value)}</li>\n" for value in values)
    return f"<!doctype html><meta charset=utf-8><ul>\n{items}</ul>".encode()


@pytest.fixture(scope="module")
def crawl() -> CrawlResult:
    pages = _pages()
    routes = {
        f"/{page}": Page(_html(values), {"Content-Type": "text/html; charset=utf-8"})
        for page, values in pages.items()
    }
    with serve(routes) as base:
        return run_crawl(
            [f"{base}/{page}" for page in pages],
            {
                "ADDONS": {"scrapy_charset.addon.Addon": 0},
                "CHARSET_REPAIRS_FIELD": "repairs",
                "LOG_LEVEL": "INFO",
            },
            extract={f"{base}/{page}": "li::text" for page in pages},
            timeout=300,
        )


def _items(crawl: CrawlResult, page: str) -> list[dict[str, Any]]:
    items = sorted((i for i in crawl.items if i["page"] == page), key=lambda i: i["index"])
    assert [i["index"] for i in items] == list(range(len(_pages()[page]))), "an item was lost"
    return items


@pytest.mark.parametrize("page", ["ftfy", "names", "capitals", "partly"])
def test_crawl_gives_inspect_texts_answer(crawl: CrawlResult, page: str) -> None:
    """Every value: the crawl's item holds the repair inspect_text gives (or the value as
    it was), and its repairs record names the kind and the rule."""
    values = _pages()[page]
    assert len(values) > 10
    for item, value in zip(_items(crawl, page), values, strict=True):
        report = inspect_text(value)
        if report.repaired is not None and report.repaired != value:
            assert item["value"] == report.repaired, value
            (record,) = item["repairs"]
            assert (record["original"], record["kind"]) == (value, report.mojibake)
            assert record.get("rule") == report.rule
        else:
            assert item["value"] == value
            assert "repairs" not in item


@pytest.mark.parametrize("page", CLEAN_PAGES)
def test_crawl_leaves_correct_names_alone(crawl: CrawlResult, page: str) -> None:
    items = _items(crawl, page)
    values = _pages()[page]
    changed = [(v, i["value"]) for i, v in zip(items, values, strict=True) if i["value"] != v]
    assert changed == []


def test_crawl_stats_count_the_reports(crawl: CrawlResult) -> None:
    reports = [inspect_text(v) for values in _pages().values() for v in values]
    repaired = [r for r in reports if r.repaired is not None]
    stats = crawl.charset_stats()
    assert len(crawl.items) == len(reports)
    assert stats["charset/items_checked"] == len(reports)
    assert stats.get("charset/repaired/field/value", 0) == len(repaired) > 0
    assert stats.get("charset/repaired/partial", 0) == sum(r.partial for r in repaired)
    assert stats.get("charset/replacement/chars", 0) == sum(r.replacement_chars for r in reports)
    # Flags: every kind found, and the kind a repair left behind, once per value.
    kinds: Counter[str] = Counter()
    for report in reports:
        if report.mojibake is not None:
            kinds[report.mojibake] += 1
            if report.remaining is not None and report.remaining != report.mojibake:
                kinds[report.remaining] += 1
    assert stats.get("charset/mojibake/items", 0) == sum(r.mojibake is not None for r in reports)
    assert {
        key.rsplit("/", 1)[1]: count
        for key, count in stats.items()
        if key.startswith("charset/mojibake/kind/")
    } == dict(kinds)


def _by_reading(crawl: CrawlResult) -> dict[str, list[tuple[str, str, str]]]:
    """reading -> (original, damaged, what the crawl's item holds)."""
    partly = [s for s in _partly() if _survives_html(s[2])]
    out: dict[str, list[tuple[str, str, str]]] = {reading: [] for reading in READINGS}
    for (reading, original, damaged), item in zip(partly, _items(crawl, "partly"), strict=True):
        out[reading].append((original, damaged, item["value"]))
    return out


def _gap(request: pytest.FixtureRequest, reading: str, gaps: dict[str, str]) -> None:
    if reading in gaps:
        request.applymarker(pytest.mark.xfail(strict=True, reason=gaps[reading]))


@pytest.mark.parametrize("reading", READINGS)
def test_crawl_repairs_no_partly_damaged_field_wrongly(crawl: CrawlResult, reading: str) -> None:
    """No character a repair brings is in neither the original nor the damaged field."""
    wrong = [
        (damaged, value)
        for original, damaged, value in _by_reading(crawl)[reading]
        if set(value) - set(original) - set(damaged)
    ]
    assert wrong == []


#: Readings whose repair can leave damage that its report names (``remaining``) but that a
#: second check of the repaired value does not find alone.
NOT_FOUND_AGAIN: dict[str, str] = {}


@pytest.mark.parametrize("reading", READINGS)
def test_crawl_reports_damage_a_repair_left(crawl: CrawlResult, reading: str) -> None:
    """A value that came out of the crawl neither as it was nor as the original: its
    repair's report says damage is left (the pipeline counted it in
    ``charset/repaired/partial``)."""
    unreported = [
        value
        for original, damaged, value in _by_reading(crawl)[reading]
        if value not in (original, damaged) and not inspect_text(damaged).partial
    ]
    assert unreported == []


@pytest.mark.parametrize("reading", READINGS)
def test_crawl_never_calls_a_repaired_field_clean_with_damage_left(
    crawl: CrawlResult, reading: str, request: pytest.FixtureRequest
) -> None:
    _gap(request, reading, {**HIDDEN, **NOT_FOUND_AGAIN})
    hidden = [
        value
        for original, damaged, value in _by_reading(crawl)[reading]
        if value not in (original, damaged) and inspect_text(value).clean
    ]
    assert hidden == []
