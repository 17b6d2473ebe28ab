"""A real crawl through ADDONS: items of every type are stamped, checked and repaired; one
alert per field and kind (a WARNING, a stat, the charset_alert signal); drops and closing.

The spider (``tests/crawl.py``) yields, for each page, the items configured here; the
encoding decision on ``response.meta["charset"]`` is the one the downloader middleware
wrote, or, where it is not enabled, the one the test puts on the request.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Any

import attrs
import pydantic
import pytest
import scrapy
from scrapy import signals

from scrapy_charset.items.pipeline import CharsetPipeline
from scrapy_charset.items.stamp import STAMP_KEYS
from scrapy_charset.signals import charset_alert
from tests.crawl import CrawlResult, run_crawl
from tests.server import Page, serve

DAMAGED = "Café crème".encode().decode("cp1252")
FIXED = "Café crème"
MODULE = __name__


# --- Item types the spider builds (imported by name in the crawl process) ---------------


class Product(scrapy.Item):
    name = scrapy.Field()
    offers = scrapy.Field()
    encoding = scrapy.Field()


class Unstamped(scrapy.Item):
    name = scrapy.Field()


@dataclasses.dataclass
class DataProduct:
    name: str
    encoding: dict[str, Any] | None = None


@attrs.define
class AttrsProduct:
    name: str
    encoding: dict[str, Any] | None = None


class PydanticProduct(pydantic.BaseModel):
    name: str
    encoding: dict[str, Any] | None = None


class AlertRecorder:
    """An extension writing each charset_alert's payload as a JSON line (ALERT_RECORD)."""

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    def from_crawler(cls, crawler: Any) -> AlertRecorder:
        recorder = cls(crawler.settings.get("ALERT_RECORD"))
        crawler.signals.connect(recorder.record, signal=charset_alert)
        crawler.signals.connect(recorder.closed, signal=signals.spider_closed)
        return recorder

    def record(  # noqa: PLR0917 - Scrapy hands a signal's arguments by keyword
        self,
        field: str,
        kind: str,
        rate: float,
        samples: list[str],
        sources: dict[str, int],
        urls: list[str],
    ) -> None:
        payload = {
            "field": field,
            "kind": kind,
            "rate": rate,
            "samples": samples,
            "sources": sources,
            "urls": urls,
        }
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(payload) + "\n")

    def closed(self, reason: str) -> None:
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"closed": reason}) + "\n")


# --- The crawl ----------------------------------------------------------------------------


def _decision(encoding: str, source: str, label: str | None) -> dict[str, Any]:
    return {
        "encoding": encoding,
        "source": source,
        "label": label,
        "confidence": "certain" if source == "header" else "tentative",
        "ignored": [],
    }


ROUTES = {
    "/good": Page("<p>café".encode(), {"Content-Type": "text/html; charset=utf-8"}),
    "/bad": Page("<p>café".encode("cp1252"), {"Content-Type": "text/html"}),
}
META = {
    "/good": {"charset": _decision("UTF-8", "header", "utf-8")},
    "/bad": {"charset": _decision("windows-1252", "default", None)},
}


def _item(cls: str, **fields: Any) -> dict[str, Any]:
    return {"__item_class__": f"{MODULE}:{cls}", **fields}


def crawl(
    tmp_path: Path, settings: dict[str, Any], bad_items: int = 10
) -> tuple[CrawlResult, list[dict[str, Any]]]:
    record = tmp_path / "alerts.jsonl"
    good = [
        {"name": DAMAGED, "offers": [{"price": "12\u00a0€"}, {"price": DAMAGED}]},
        _item("Product", name=DAMAGED, offers=[{"price": "1\ufffd"}]),
        _item("DataProduct", name=DAMAGED),
        _item("AttrsProduct", name=DAMAGED),
        _item("PydanticProduct", name=DAMAGED),
        _item("Unstamped", name="plain"),
        _item("Unstamped", name="plain"),
    ]
    bad = [{"title": f"Caf\ufffd {i}", "name": "ok"} for i in range(bad_items)]
    with serve(ROUTES) as base:
        result = run_crawl(
            [f"{base}/good", f"{base}/bad"],
            {
                "ADDONS": {"scrapy_charset.addon.Addon": 0},
                "EXTENSIONS": {f"{MODULE}.AlertRecorder": 0},
                "ALERT_RECORD": str(record),
                "CHARSET_ITEM_FIELD": "encoding",
                "CHARSET_ALERT_MIN_ITEMS": 5,
                "CHARSET_ALERT_RATE": 0.5,
                "CONCURRENT_REQUESTS": 1,
                **settings,
            },
            meta={f"{base}{path}": meta for path, meta in META.items()},
            items={f"{base}/good": good, f"{base}/bad": bad},
        )
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return result, [json.loads(line) for line in lines]


def _stamp(decision: dict[str, Any]) -> dict[str, Any]:
    return {key: decision.get(key) for key in STAMP_KEYS}


def test_crawl_checks_stamps_repairs_and_alerts_once(tmp_path: Path) -> None:
    result, records = crawl(tmp_path, {})
    good = result.response("/good")["meta_charset"]
    bad = result.response("/bad")["meta_charset"]
    stats = result.charset_stats()

    # Every item type is stamped when it declares the field, and repaired.
    named = [i for i in result.items if i.get("name") == FIXED]
    assert len(named) == 5
    assert all(i["encoding"] == _stamp(good) for i in named)
    assert named[0]["offers"] == [{"price": "12\u00a0€"}, {"price": FIXED}]
    assert [i for i in result.items if i.get("name") == "plain"] == [{"name": "plain"}] * 2
    assert stats["charset/stamp/undeclared_field"] == 2
    assert result.log.count("does not declare the 'encoding' field") == 1

    assert stats["charset/items_checked"] == 17
    assert stats["charset/repaired/field/name"] == 5
    assert stats["charset/repaired/field/offers.price"] == 1
    assert stats["charset/mojibake/kind/utf8-as-windows-1252"] == 6
    assert stats["charset/replacement/items"] == 11
    assert stats["charset/replacement/chars"] == 11
    assert stats["charset/replacement/field/title"] == 10
    assert stats["charset/replacement/field/offers.price"] == 1
    assert stats[f"charset/replacement/source/{bad['source']}"] == 10
    assert stats[f"charset/replacement/source/{good['source']}"] == 1

    # One alert per field and kind: a WARNING, a stat and the signal each. "name" is
    # mojibake in every item (repaired, still worth knowing), "title" U+FFFD.
    assert stats["charset/alerts/replacement"] == 1
    assert stats["charset/alerts/utf8-as-windows-1252"] == 1
    assert result.log.count("Charset alert") == 2
    assert "Charset alert: replacement in field 'title'" in result.log
    assert "Charset alert: utf8-as-windows-1252 in field 'name'" in result.log
    alerts = sorted((r for r in records if "field" in r), key=lambda r: r["field"])
    assert alerts == [
        {
            "field": "name",
            "kind": "utf8-as-windows-1252",
            "rate": 1.0,
            "samples": [DAMAGED] * 3,
            "sources": {good["source"]: 5},
            "urls": [result.response("/good")["url"]],
        },
        {
            "field": "title",
            "kind": "replacement",
            "rate": 1.0,
            "samples": ["Caf\ufffd 0", "Caf\ufffd 1", "Caf\ufffd 2"],
            "sources": {bad["source"]: 5},
            "urls": [result.response("/bad")["url"]],
        },
    ]
    assert result.stats["finish_reason"] == "finished"


def test_crawl_drops_items_and_closes_the_spider(tmp_path: Path) -> None:
    result, records = crawl(
        tmp_path,
        {"CHARSET_DROP_ITEM_FIELDS": 1, "CHARSET_CLOSE_SPIDER_RATE": 0.8},
        bad_items=30,
    )
    stats = result.stats
    assert stats["item_dropped_reasons_count/CharsetDropItem"] == stats["charset/items_dropped"]
    assert stats["charset/items_dropped"] >= 5
    assert "U+FFFD or mojibake left in 1 field(s): title" in result.log
    assert not any("\ufffd" in json.dumps(i, ensure_ascii=False) for i in result.items)
    assert stats["finish_reason"] == "charset_damage"
    assert {"closed": "charset_damage"} in records


def test_crawl_spidermon_suite_fails_the_job(tmp_path: Path) -> None:
    pytest.importorskip("spidermon")
    result, _ = crawl(
        tmp_path,
        {
            "SPIDERMON_ENABLED": True,
            "EXTENSIONS": {"spidermon.contrib.scrapy.extensions.Spidermon": 500},
            "SPIDERMON_SPIDER_CLOSE_MONITORS": [
                "scrapy_charset.items.monitors.CharsetMonitorSuite"
            ],
            "CHARSET_MONITOR_MAX_MOJIBAKE_RATE": 0.5,
        },
    )
    assert "Charset/Charset alerts within CHARSET_MONITOR_MAX_ALERTS... FAIL" in result.log
    assert "Charset/U+FFFD within CHARSET_MONITOR_MAX_REPLACEMENT_RATE... FAIL" in result.log
    assert "Charset/Mojibake within CHARSET_MONITOR_MAX_MOJIBAKE_RATE... OK" in result.log
    assert "[Spidermon] FAILED (failures=2)" in result.log


# --- Hostile strings: not one item lost ----------------------------------------------------


class Article(scrapy.Item):
    title = scrapy.Field()
    url = scrapy.Field()
    name = scrapy.Field()


class FailingPipeline(CharsetPipeline):
    """The pipeline with a text check that fails on some values, as a bug would."""

    def _check_text(self, scan: Any, text: str, path: str) -> Any:
        if "boom" in text:
            raise RuntimeError("the text check failed")
        return super()._check_text(scan, text, path)


def _readings(text: str) -> list[str]:
    data = text.encode()
    return [
        data.decode("cp1252", "replace"),
        data.decode("cp1251", "replace"),
        data.decode("latin-1"),
        data.decode("shift_jis", "replace"),
        data.decode("mac_roman"),
        data.decode("cp1252", "replace").encode().decode("cp1252", "replace"),
    ]


# Every kind of hostile string: (id, value). Lone surrogates, controls, noncharacters, the
# mojibake of every kind the README lists, legitimate text a bad repair would change, and
# sizes and nesting the pipeline must bound.
HOSTILE = [
    ("lone-surrogates", "\ud800 a\udfffb \udc80\udc81"),
    ("c0-controls", "\x00\x01\x1b[31mred\x7f"),
    ("c1-controls", "\x80\x85\x9f text \x92"),
    ("ftfy-bytes-plan", "turÂ\x92stico"),
    ("bom-zero-width-bidi", "\ufeff\u200b\u202eevil\u202c"),
    ("noncharacters", "\ufffe\uffff\U0010ffff\U0001fffe"),
    ("private-use", "\ue000\U000f0000\U00100000"),
    ("combining-pile", "e" + "\u0301\u0308\u0327" * 300),
    ("replacement", "Caf\ufffd cr\ufffd\ufffdme"),
    ("legit-symbols", "NESTLÉ® ВІКІ 10×20 ½ £5 ¥100 €"),
    ("legit-ukrainian", "Уряд схвалив дії міністерства; ці дії тривають."),
    ("mixed-kinds", " ".join(_readings("Grüße aus Zürich, Привет"))),
    *[(f"reading-{i}", value) for i, value in enumerate(_readings("Café crème, Кафе, 珈琲店"))],
    ("megabyte", DAMAGED * 90_000),
    # Lost no-break spaces by the thousand: the spaces a repair joins are paired with
    # bounded work (siblings._joined), and each lead is found by memchr.
    ("lost-no-break-spaces", "Å " * 40_000 + "baÅ†Ä·ieri konkrÄ“tus"),
    ("lost-no-break-space-alone", "voilÃ le travail " * 20_000),
    # C1 punctuation by the thousand, each closing quote after its opening one: every
    # reading of the field is scored once (c1-punctuation).
    ("c1-punctuation", "\x93café " + "dit\x94 et " * 20_000),
]


#: Strings longer than this are the sizes the pipeline must bound (a megabyte, tens of
#: thousands of sequences): seconds of work each, in the crawl and in the expected value.
LARGE = 10_000


@pytest.mark.parametrize(
    "large_everywhere",
    [
        # Every string in every place: a dict (nested, in a list) and each item class.
        pytest.param(True, id="every-string-everywhere", marks=pytest.mark.slow),
        # The same, but each large string once, as a dict's field.
        pytest.param(False, id="large-strings-once"),
    ],
)
def test_crawl_with_hostile_strings_loses_no_item(
    large_everywhere: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fuzz import pipeline_items
    from fuzz.pipeline_items import expected_value

    # The expected repair of each distinct string is worked out once: a string can be in
    # eight places (three in a dict, one in each item class).
    monkeypatch.setattr(pipeline_items, "_fixed", functools.cache(pipeline_items._fixed))
    nested: Any = "deep"
    for _ in range(40):
        nested = [nested]
    specs: list[dict[str, Any]] = []
    for _, value in HOSTILE:
        if len(value) > LARGE and not large_everywhere:
            specs.append({"name": value})
            continue
        specs.append({"name": value, "offers": [{"price": value}, [value, nested]]})
        for cls in ("Product", "DataProduct", "AttrsProduct", "PydanticProduct", "Unstamped"):
            specs.append(_item(cls, name=value))
    with serve(ROUTES) as base:
        result = run_crawl(
            [f"{base}/good"],
            {
                "ADDONS": {"scrapy_charset.addon.Addon": 0},
                "CHARSET_ITEM_FIELD": "encoding",
                "CHARSET_REPAIRS_FIELD": "repairs",
                "LOG_LEVEL": "INFO",
            },
            items={f"{base}/good": specs},
            timeout=300,
        )
    stats = result.stats
    assert len(result.items) == len(specs)
    assert stats["item_scraped_count"] == len(specs)
    assert "item_dropped_count" not in stats
    assert stats["charset/items_checked"] == len(specs)
    for spec, item in zip(specs, result.items, strict=True):
        sent = {k: v for k, v in spec.items() if k != "__item_class__"}
        got = {k: v for k, v in item.items() if k in sent}
        if stats.get("charset/errors/pipeline"):
            assert got in (sent, expected_value(sent))
        else:
            assert got == expected_value(sent)


def test_crawl_with_a_failing_check_loses_no_item(tmp_path: Path) -> None:
    specs = [{"name": DAMAGED, "note": f"boom {i}"} for i in range(5)]
    specs += [{"name": DAMAGED, "note": "fine"}]
    with serve(ROUTES) as base:
        result = run_crawl(
            [f"{base}/good"],
            {
                "DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585},
                "ITEM_PIPELINES": {f"{MODULE}.FailingPipeline": 300},
            },
            items={f"{base}/good": specs},
        )
    assert result.items == [*specs[:5], {"name": FIXED, "note": "fine"}]
    assert result.stats["charset/errors/pipeline"] == 5
    assert result.log.count("Charset item check failed (builtins.RuntimeError)") == 1
    assert "Traceback" in result.log
    assert result.stats["finish_reason"] == "finished"


# --- CHARSET_ITEM_FIELD / CHARSET_REPAIRS_FIELD naming the user's own fields ---------------


def test_crawl_never_replaces_a_users_title_or_url(tmp_path: Path) -> None:
    specs = [
        {"title": "Café de Flore", "url": "https://example.com/flore", "name": DAMAGED},
        _item("Article", title="Zürich", url="https://example.com/zh", name=DAMAGED),
        {"title": "Café de Flore", "url": "https://example.com/flore", "name": DAMAGED},
        {"name": DAMAGED},  # both fields free: stamped and recorded
    ]
    with serve(ROUTES) as base:
        result = run_crawl(
            [f"{base}/good"],
            {
                "ADDONS": {"scrapy_charset.addon.Addon": 0},
                "CHARSET_ITEM_FIELD": "title",
                "CHARSET_REPAIRS_FIELD": "url",
            },
            items={f"{base}/good": specs},
        )
    decision = result.response("/good")["meta_charset"]
    kept, article, again, free = result.items
    assert (
        kept
        == again
        == {
            "title": "Café de Flore",
            "url": "https://example.com/flore",
            "name": FIXED,
        }
    )
    assert article == {"title": "Zürich", "url": "https://example.com/zh", "name": FIXED}
    assert free["title"] == _stamp(decision)
    assert free["url"] == [
        {
            "field": "name",
            "original": DAMAGED,
            "repaired": FIXED,
            "kind": "utf8-as-windows-1252",
            "rule": "case-break",
        }
    ]
    stats = result.charset_stats()
    assert stats["charset/stamp/field_taken"] == 3
    assert stats["charset/items/field_taken"] == 3
    assert stats["charset/stamp/items"] == 1
    assert result.log.count("hold their own value in the 'title' field") == 2  # per class
    assert result.log.count("hold their own value in the 'url' field") == 2


# --- With the ADDONS line only: damage attributed, small crawls explained -----------------

ITEM_CHECKS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "item-checks.md"


def _doc_block(after: str) -> list[str]:
    """The lines of the first ```text block after *after* in docs/item-checks.md: an example
    output the crawl below must produce."""
    text = ITEM_CHECKS_PAGE.read_text(encoding="utf-8")
    start = text.index("```text\n", text.index(after)) + len("```text\n")
    return text[start : text.index("```", start)].splitlines()


def _messages(log: str, marker: str) -> list[str]:
    """The log lines holding *marker*, without the timestamp."""
    return [line[line.index("[") :] for line in log.splitlines() if marker in line]


def test_crawl_attributes_damage_to_the_decision_with_addons_only(tmp_path: Path) -> None:
    """No CHARSET_ITEM_FIELD: the items are not stamped, yet their damage is attributed to
    the decision of the response each came from, in the stats and in the alerts."""
    record = tmp_path / "alerts.jsonl"
    good = [
        {"name": DAMAGED},
        _item("Unstamped", name=DAMAGED),
        _item("DataProduct", name=DAMAGED),
        _item("AttrsProduct", name=DAMAGED),
        _item("PydanticProduct", name=DAMAGED),
    ] * 2
    bad = [{"title": f"Caf\ufffd {i}"} for i in range(10)]
    with serve(ROUTES) as base:
        result = run_crawl(
            [f"{base}/good", f"{base}/bad"],
            {
                "ADDONS": {"scrapy_charset.addon.Addon": 0},
                "EXTENSIONS": {f"{MODULE}.AlertRecorder": 0},
                "ALERT_RECORD": str(record),
                "CHARSET_ALERT_MIN_ITEMS": 5,
            },
            items={f"{base}/good": good, f"{base}/bad": bad},
        )
    good_source = result.response("/good")["meta_charset"]["source"]
    bad_source = result.response("/bad")["meta_charset"]["source"]
    assert (good_source, bad_source) == ("header", "detected")
    stats = result.charset_stats()
    assert stats["charset/mojibake/source/header"] == 10
    assert stats["charset/replacement/source/detected"] == 10
    assert not [key for key in stats if key.endswith("/source/unknown")]
    assert "charset/stamp/items" not in stats
    assert "charset/items/sources_evicted" not in stats
    assert all(item.get("encoding") is None for item in result.items)  # not stamped
    assert "decided by header (5); all 5 repaired; e.g." in result.log
    alert_lines = [m.split(" WARNING: ", 1)[1] for m in _messages(result.log, "Charset alert")]
    assert sorted(alert_lines) == sorted(_doc_block("A mojibake alert says whether"))
    assert (
        "Charset alert: replacement in field 'title': 100.0% of 5 items; decided by "
        "detected (5); e.g." in result.log
    )
    alerts = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    sources = {a["field"]: a["sources"] for a in alerts if "sources" in a}
    assert sources == {"name": {"header": 5}, "title": {"detected": 5}}
    # Each alert names the page its values came from, on the line after it and in the
    # signal; the close lists the damaged pages, those left damaged first.
    urls = {a["field"]: a["urls"] for a in alerts if "urls" in a}
    assert urls == {"name": [f"{base}/good"], "title": [f"{base}/bad"]}
    lines = result.log.splitlines()
    pages = [lines[i + 1] for i, line in enumerate(lines) if "Charset alert: " in line]
    assert sorted(pages) == [f"  pages: {base}/bad", f"  pages: {base}/good"]
    assert _messages(result.log, "Charset: damage left") == [
        "[scrapy_charset.items.pipeline] INFO: Charset: damage left in the items of 1 page "
        f"(U+FFFD, or mojibake not repaired): {base}/bad; repaired in the items of 1 page: "
        f"{base}/good"
    ]


def test_small_crawl_says_why_it_raised_no_alert(tmp_path: Path) -> None:
    """Eight items, one U+FFFD and one mojibake value: too few items for the rate rule, so
    no alert, and one INFO line at the close that says so, naming the setting."""
    items = [{"title": f"Café {i}", "name": "plain"} for i in range(8)]
    items[2]["title"] = "Caf\ufffd 2"
    items[5]["name"] = DAMAGED
    with serve(ROUTES) as base:
        result = run_crawl(
            [f"{base}/good"],
            {"ADDONS": {"scrapy_charset.addon.Addon": 0}, "LOG_LEVEL": "INFO"},
            items={f"{base}/good": items},
        )
    assert "Charset alert" not in result.log
    notes = _messages(result.log, "raised no alert")
    assert notes == [
        "[scrapy_charset.items.pipeline] INFO: Charset: 2 damaged values raised no alert: "
        "the rate rule judges a field after CHARSET_ALERT_MIN_ITEMS = 50 items carrying it, "
        "and these had fewer: 'name' utf8-as-windows-1252 in 1 of 8 items, 1 repaired; "
        "'title' U+FFFD in 1 of 8 items"
    ]
    assert notes == _doc_block("An eight-item crawl")
    stats = result.charset_stats()
    assert stats["charset/replacement/source/header"] == 1
    assert stats["charset/mojibake/source/header"] == 1
