"""CharsetPipeline: every item type, nested fields, stats, repairs, alerts, drops, the add-on."""

from __future__ import annotations

import collections
import copy
import dataclasses
import logging
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import attrs
import pydantic
import pytest
import scrapy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from fuzz.pipeline_items import (
    FIELDS,
    ITEM_TYPES,
    check_item,
    expected_value,
    make_pipeline,
    one_input,
)
from scrapy_charset.addon import Addon
from scrapy_charset.items.pipeline import CharsetDropItem, CharsetPipeline
from scrapy_charset.items.stamp import CharsetItemStampMiddleware
from scrapy_charset.responses.config import CharsetSettingsError
from scrapy_charset.signals import charset_alert

DAMAGED = "Café crème".encode().decode("cp1252")  # "CafÃ© crÃ¨me"
FIXED = "Café crème"


class ScrapyProduct(scrapy.Item):
    name = scrapy.Field()
    repairs = scrapy.Field()


@dataclasses.dataclass
class DataclassProduct:
    name: str
    repairs: list[Any] = dataclasses.field(default_factory=list)


@attrs.define
class AttrsProduct:
    name: str
    repairs: list[Any] = attrs.Factory(list)


class PydanticProduct(pydantic.BaseModel):
    name: str
    repairs: list[Any] = []


ROOT = Path(__file__).resolve().parent.parent


class Undeclared(scrapy.Item):
    name = scrapy.Field()


def make(settings: dict[str, Any] | None = None) -> CharsetPipeline:
    crawler = get_crawler(scrapy.Spider, settings_dict=settings or {})
    return build_from_crawler(CharsetPipeline, crawler)


def stats(pipeline: CharsetPipeline) -> dict[str, Any]:
    return {k: v for k, v in pipeline.stats.get_stats().items() if k.startswith("charset/")}


ITEMS = [
    pytest.param(lambda: {"name": DAMAGED}, id="dict"),
    pytest.param(lambda: ScrapyProduct(name=DAMAGED), id="scrapy-item"),
    pytest.param(lambda: DataclassProduct(name=DAMAGED), id="dataclass"),
    pytest.param(lambda: AttrsProduct(name=DAMAGED), id="attrs"),
    pytest.param(lambda: PydanticProduct(name=DAMAGED), id="pydantic"),
]


@pytest.mark.parametrize("factory", ITEMS)
def test_every_item_type_is_repaired_and_records_the_repair(factory: Any) -> None:
    pipeline = make({"CHARSET_REPAIRS_FIELD": "repairs"})
    item = pipeline.process_item(factory())
    adapter = ItemAdapter(item)
    assert adapter["name"] == FIXED
    assert adapter["repairs"] == [
        {
            "field": "name",
            "original": DAMAGED,
            "repaired": FIXED,
            "kind": "utf8-as-windows-1252",
            "rule": "case-break",
        }
    ]
    assert stats(pipeline) == {
        "charset/items_checked": 1,
        "charset/mojibake/items": 1,
        "charset/mojibake/field/name": 1,
        "charset/mojibake/kind/utf8-as-windows-1252": 1,
        "charset/mojibake/source/unknown": 1,
        "charset/repaired/field/name": 1,
        "charset/repaired/kind/utf8-as-windows-1252": 1,
    }


def test_nested_fields_collapse_list_indexes() -> None:
    pipeline = make()
    item: dict[str, Any] = {
        "offers": [{"price": "10\ufffd"}, {"price": "12\ufffd\ufffd", "seller": {"name": DAMAGED}}],
        "tags": ("ok", "bad\ufffd"),
        "count": 3,
    }
    pipeline.process_item(item)
    assert item["offers"][1]["seller"]["name"] == FIXED
    assert item["tags"] == ("ok", "bad\ufffd")
    got = stats(pipeline)
    assert got["charset/replacement/field/offers.price"] == 1  # once per item
    assert got["charset/replacement/field/tags"] == 1
    assert got["charset/replacement/chars"] == 4
    assert got["charset/replacement/items"] == 1
    assert got["charset/repaired/field/offers.seller.name"] == 1


def test_clean_items_touch_only_items_checked() -> None:
    pipeline = make()
    item = {"name": "São Tomé ～ 1\u00a0234 €", "n": "“quoted” 😀"}
    pipeline.process_item(dict(item))
    assert stats(pipeline) == {"charset/items_checked": 1}


def test_repairs_can_be_turned_off() -> None:
    pipeline = make({"CHARSET_REPAIR_ENABLED": False})
    item = pipeline.process_item({"name": DAMAGED})
    assert item == {"name": DAMAGED}
    assert "charset/repaired/field/name" not in stats(pipeline)


def test_legacy_repair_on_request() -> None:
    damaged = "中华人民共和国".encode("gbk").decode("cp1252", "replace")
    assert make().process_item({"name": damaged}) == {"name": damaged}
    fixed = make({"CHARSET_REPAIR_LEGACY": True}).process_item({"name": damaged})
    assert fixed == {"name": "中华人民共和国"}


def test_normalization_of_named_fields() -> None:
    pipeline = make(
        {"CHARSET_NORMALIZE": {"price": "NFKC", "name": "NFC"}, "CHARSET_REPAIRS_FIELD": "repairs"}
    )
    item = pipeline.process_item(
        {"price": "１２０～１５０円", "name": "Cafe\u0301", "text": "Cafe\u0301"}
    )
    assert item["price"] == "120~150円"
    assert item["name"] == "Café"
    assert item["text"] == "Cafe\u0301"  # not named: left alone
    assert [r["kind"] for r in item["repairs"]] == ["nfkc", "nfc"]
    assert stats(pipeline)["charset/normalized/field/price"] == 1


def test_undeclared_repairs_field_is_counted_and_warned_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pipeline = make({"CHARSET_REPAIRS_FIELD": "repairs"})
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            item = pipeline.process_item(Undeclared(name=DAMAGED))
            assert item["name"] == FIXED
    assert stats(pipeline)["charset/items/undeclared_field"] == 3
    assert len([r for r in caplog.records if "does not declare" in r.getMessage()]) == 1


def test_sources_come_from_the_stamp() -> None:
    pipeline = make({"CHARSET_ITEM_FIELD": "encoding"})
    stamp = {
        "encoding": "windows-1252",
        "source": "detected",
        "label": None,
        "confidence": "tentative",
    }
    pipeline.process_item({"name": "x\ufffd", "encoding": stamp})
    pipeline.process_item({"name": DAMAGED, "encoding": dict(stamp, source="default")})
    got = stats(pipeline)
    assert got["charset/replacement/source/detected"] == 1
    assert got["charset/mojibake/source/default"] == 1
    assert "charset/replacement/field/encoding.label" not in got


def _response(source: str) -> Any:
    from scrapy.http import HtmlResponse

    decision: dict[str, Any] = {
        "encoding": "windows-1252",
        "source": source,
        "label": None,
        "confidence": "certain",
        "ignored": [],
    }
    meta = {"charset": decision}
    request = scrapy.Request("http://example.com/", meta=meta)
    return HtmlResponse("http://example.com/", body=b"<p>x", request=request)


@pytest.mark.parametrize("factory", ITEMS)
def test_sources_come_from_the_spider_middleware_by_default(factory: Any) -> None:
    from scrapy_charset.items.stamp import CharsetItemStampMiddleware

    pipeline = make()
    middleware = build_from_crawler(CharsetItemStampMiddleware, pipeline.crawler)
    item = middleware.get_processed_item(factory(), _response("header"))
    pipeline.process_item(item)
    got = stats(pipeline)
    assert got["charset/mojibake/source/header"] == 1
    assert "charset/mojibake/source/unknown" not in got
    assert "encoding" not in ItemAdapter(item)  # no field written
    assert len(pipeline.sources) == 0


def test_items_dropped_before_the_pipeline_are_forgotten() -> None:
    from scrapy import signals

    from scrapy_charset.items.stamp import CharsetItemStampMiddleware

    pipeline = make()
    middleware = build_from_crawler(CharsetItemStampMiddleware, pipeline.crawler)
    dropped, failed, filtered = {"a": "1"}, {"a": "2"}, {"a": "3"}
    for item in (dropped, failed, filtered):
        middleware.get_processed_item(item, _response("meta"))
    assert len(pipeline.sources) == 3
    send = pipeline.crawler.signals.send_catch_log
    send(signals.item_dropped, item=dropped, response=None, exception=Exception(), spider=None)
    send(signals.item_error, item=failed, response=None, spider=None, failure=None)
    assert len(pipeline.sources) == 1  # the filtered one waits, within the bound
    pipeline.close_spider()
    assert len(pipeline.sources) == 0


def test_field_paths_are_bounded() -> None:
    pipeline = make({"CHARSET_MAX_FIELD_PATHS": 2})
    pipeline.process_item({f"f{i}": "x\ufffd" for i in range(5)})
    got = stats(pipeline)
    assert got["charset/replacement/field/f0"] == 1
    assert got["charset/replacement/field/f1"] == 1
    assert got["charset/replacement/field/<other>"] == 1


def test_alert_warns_once_counts_and_signals(caplog: pytest.LogCaptureFixture) -> None:
    pipeline = make(
        {"CHARSET_ALERT_MIN_ITEMS": 4, "CHARSET_ALERT_RATE": 0.5, "CHARSET_ITEM_FIELD": "encoding"}
    )
    received: list[dict[str, Any]] = []

    def on_alert(**kwargs: Any) -> None:
        received.append(kwargs)

    pipeline.crawler.signals.connect(on_alert, signal=charset_alert)
    with caplog.at_level(logging.WARNING):
        for i in range(10):
            pipeline.process_item({"title": f"t{i}\ufffd", "encoding": {"source": "detected"}})
    assert stats(pipeline)["charset/alerts/replacement"] == 1
    warnings = [r for r in caplog.records if "Charset alert" in r.getMessage()]
    assert len(warnings) == 1
    assert "'title'" in warnings[0].getMessage()
    assert [r["alert"].field for r in received] == ["title"]
    assert [(r["field"], r["kind"], r["rate"], r["samples"], r["sources"]) for r in received] == [
        ("title", "replacement", 1.0, ["t0\ufffd", "t1\ufffd", "t2\ufffd"], {"detected": 4})
    ]


def _through_the_stamp(
    settings: dict[str, Any], pages: list[tuple[str | None, dict[str, Any]]]
) -> CharsetPipeline:
    """The pipeline of a crawler whose item stamp saw each item's page (one response per
    URL, its items together; None: an item with no response, a start item), every item
    processed in order, the spider closed."""
    crawler = get_crawler(scrapy.Spider, settings_dict=settings)
    pipeline = build_from_crawler(CharsetPipeline, crawler)
    stamp = build_from_crawler(CharsetItemStampMiddleware, crawler)
    by_page: dict[str, list[Any]] = {}
    for url, item in pages:
        if url is not None:
            by_page.setdefault(url, []).append(item)
    for url, items in by_page.items():  # a response's items go through the stamp together
        response = HtmlResponse(url, body=b"<p>x", request=scrapy.Request(url))
        list(stamp.process_spider_output(response, items))
    for _, item in pages:
        pipeline.process_item(item)
    pipeline.close_spider()
    return pipeline


def test_an_alert_names_its_pages_in_the_log_and_the_signal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    received: list[dict[str, Any]] = []

    def on_alert(**kwargs: Any) -> None:
        received.append(kwargs)

    crawler = get_crawler(scrapy.Spider, settings_dict={"CHARSET_ALERT_MIN_ITEMS": 4})
    crawler.signals.connect(on_alert, signal=charset_alert)
    pipeline = build_from_crawler(CharsetPipeline, crawler)
    stamp = build_from_crawler(CharsetItemStampMiddleware, crawler)
    with caplog.at_level(logging.WARNING):
        for i in range(5):
            url = f"http://shop.example/p{i}"
            response = HtmlResponse(url, body=b"<p>x", request=scrapy.Request(url))
            pipeline.process_item(stamp.get_processed_item({"name": DAMAGED}, response))
    (message,) = [r.getMessage() for r in caplog.records if "Charset alert" in r.getMessage()]
    first, pages = message.split("\n")
    assert first.startswith("Charset alert: utf8-as-windows-1252 in field 'name': 100.0% of 4")
    assert (
        pages == "  pages: http://shop.example/p0, http://shop.example/p1, http://shop.example/p2"
    )
    assert [r["urls"] for r in received] == [
        ["http://shop.example/p0", "http://shop.example/p1", "http://shop.example/p2"]
    ]


# The closing list of damaged pages: (settings, (page, item) in the order they come) -> the
# INFO line, or None when no item held damage.
PAGES_NOTE = [
    pytest.param({}, [("http://a/1", {"name": "ok"})], None, id="clean-no-line"),
    pytest.param(
        {},
        [("http://a/1", {"t": "x\ufffd"}), ("http://a/1", {"t": "y\ufffd"})],
        "Charset: damage left in the items of 1 page (U+FFFD, or mojibake not repaired): "
        "http://a/1",
        id="a-page-counted-once",
    ),
    pytest.param(
        {},
        [("http://a/1", {"name": DAMAGED}), ("http://a/2", {"t": "x\ufffd"})],
        "Charset: damage left in the items of 1 page (U+FFFD, or mojibake not repaired): "
        "http://a/2; repaired in the items of 1 page: http://a/1",
        id="left-first-then-repaired",
    ),
    pytest.param(
        {"CHARSET_REPAIR_ENABLED": False},
        [("http://a/1", {"name": DAMAGED})],
        "Charset: damage left in the items of 1 page (U+FFFD, or mojibake not repaired): "
        "http://a/1",
        id="repair-off-mojibake-left",
    ),
    pytest.param(
        {},
        [(f"http://a/{i}", {"t": "x\ufffd"}) for i in range(13)],
        "Charset: damage left in the items of 13 pages (U+FFFD, or mojibake not repaired): "
        + ", ".join(f"http://a/{i}" for i in range(10))
        + " and 3 more",
        id="ten-named-the-rest-counted",
    ),
    pytest.param(
        {},
        [(None, {"t": "x\ufffd"}), (None, {"t": "y\ufffd"})],
        "Charset: 2 damaged items from no known page",
        id="no-page-known",
    ),
]


@pytest.mark.parametrize(("settings", "pages", "line"), PAGES_NOTE)
def test_the_close_names_the_damaged_pages(
    settings: dict[str, Any],
    pages: list[tuple[str | None, dict[str, Any]]],
    line: str | None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="scrapy_charset.items.pipeline"):
        _through_the_stamp(settings, pages)
    notes = [
        r.getMessage()
        for r in caplog.records
        if r.getMessage().startswith("Charset: ") and "raised no alert" not in r.getMessage()
    ]
    assert notes == ([] if line is None else [line])


# The mojibake alert says whether its values were repaired: (settings, values) -> the words.
ALERT_REPAIRS = [
    pytest.param({}, [DAMAGED] * 4, "all 4 repaired", id="all"),
    pytest.param({"CHARSET_ALERT_MIN_ITEMS": 1}, [DAMAGED], "repaired", id="the-one"),
    pytest.param(
        {"CHARSET_REPAIR_ENABLED": False},
        [DAMAGED] * 4,
        "none repaired (CHARSET_REPAIR_ENABLED is False)",
        id="repair-off",
    ),
    pytest.param({}, ["ÖÐ¹ú"] * 4, "none repaired", id="legacy-not-by-default"),
]


@pytest.mark.parametrize(("settings", "values", "words"), ALERT_REPAIRS)
def test_a_mojibake_alert_says_whether_values_were_repaired(
    settings: dict[str, Any], values: list[str], words: str, caplog: pytest.LogCaptureFixture
) -> None:
    pipeline = make({"CHARSET_ALERT_MIN_ITEMS": 4, **settings})
    with caplog.at_level(logging.WARNING):
        for value in values:
            pipeline.process_item({"name": value})
    (warning,) = [r.getMessage() for r in caplog.records if "Charset alert" in r.getMessage()]
    assert f"; {words}; e.g. " in warning


def test_a_replacement_alert_says_nothing_of_repairs(caplog: pytest.LogCaptureFixture) -> None:
    pipeline = make({"CHARSET_ALERT_MIN_ITEMS": 2})
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            pipeline.process_item({"title": "x\ufffd"})
    (warning,) = [r.getMessage() for r in caplog.records if "Charset alert" in r.getMessage()]
    assert "repaired" not in warning


def _closing_notes(pipeline: CharsetPipeline, caplog: pytest.LogCaptureFixture) -> list[str]:
    with caplog.at_level(logging.INFO):
        pipeline.close_spider()
    return [r.getMessage() for r in caplog.records if "raised no alert" in r.getMessage()]


def test_damage_too_few_items_to_judge_is_said_at_close(caplog: pytest.LogCaptureFixture) -> None:
    pipeline = make()
    for i in range(8):
        pipeline.process_item(
            {
                "title": "Caf\ufffd" if i == 0 else "Café",
                "name": DAMAGED if i == 1 else "plain",
            }
        )
    assert _closing_notes(pipeline, caplog) == [
        "Charset: 2 damaged values raised no alert: the rate rule judges a field after "
        "CHARSET_ALERT_MIN_ITEMS = 50 items carrying it, and these had fewer: "
        "'name' utf8-as-windows-1252 in 1 of 8 items, 1 repaired; "
        "'title' U+FFFD in 1 of 8 items"
    ]


@pytest.mark.parametrize(
    ("settings", "items"),
    [
        pytest.param({}, [{"title": "Café"}] * 8, id="clean"),
        pytest.param({"CHARSET_ALERT_MIN_ITEMS": 2}, [{"title": "x\ufffd"}] * 3, id="alerted"),
        pytest.param(
            {"CHARSET_ALERT_MIN_ITEMS": 4},
            [{"title": "x\ufffd"}] + [{"title": "ok"}] * 9,
            id="judged-below-the-rate",
        ),
    ],
)
def test_no_closing_note_when_the_rules_judged(
    settings: dict[str, Any], items: list[dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    pipeline = make(settings)
    for item in items:
        pipeline.process_item(dict(item))
    assert _closing_notes(pipeline, caplog) == []


def test_the_closing_note_names_five_fields_and_counts_the_rest(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pipeline = make()
    pipeline.process_item({f"f{i}": "x\ufffd" for i in range(7)})
    (note,) = _closing_notes(pipeline, caplog)
    assert note.startswith("Charset: 7 damaged values raised no alert")
    assert note.count(" U+FFFD in 1 of 1 items") == 5
    assert note.endswith("; and 2 more")


def test_drop_items_over_the_per_item_threshold() -> None:
    pipeline = make({"CHARSET_DROP_ITEM_FIELDS": 2})
    assert pipeline.process_item({"a": "x\ufffd", "b": DAMAGED})  # b is repaired
    with pytest.raises(CharsetDropItem, match="2 field"):
        pipeline.process_item({"a": "x\ufffd", "b": "y\ufffd"})
    assert stats(pipeline)["charset/items_dropped"] == 1


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        pytest.param({"CHARSET_ALERT_RATE": 1.5}, "CHARSET_ALERT_RATE = 1.5", id="rate"),
        pytest.param({"CHARSET_ALERT_WINDOW": 0}, "CHARSET_ALERT_WINDOW = 0", id="window"),
        pytest.param({"CHARSET_NORMALIZE": {"p": "NFD"}}, "CHARSET_NORMALIZE = ", id="form"),
    ],
)
def test_bad_settings_stop_the_crawl(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(CharsetSettingsError, match=message):
        make(settings)


@pytest.mark.parametrize(
    "settings",
    [
        pytest.param({"CHARSET_ITEM_CHECKS_ENABLED": False}, id="item-checks-off"),
        pytest.param({"CHARSET_ENABLED": False}, id="everything-off"),
    ],
)
def test_switched_off(settings: dict[str, Any]) -> None:
    with pytest.raises(NotConfigured):
        make(settings)


# --- The add-on ------------------------------------------------------------------------


def addon_settings(values: dict[str, Any]) -> Settings:
    settings = Settings(values)
    Addon().update_settings(settings)
    return settings


def test_addon_enables_the_pipeline() -> None:
    settings = addon_settings({})
    assert settings.getdict("ITEM_PIPELINES") == {CharsetPipeline: 50}
    assert CharsetPipeline not in settings.getdict("SPIDER_MIDDLEWARES")


def test_addon_leaves_a_hand_listed_pipeline_alone() -> None:
    settings = addon_settings(
        {"ITEM_PIPELINES": {"scrapy_charset.items.pipeline.CharsetPipeline": 900}}
    )
    assert settings.getdict("ITEM_PIPELINES") == {
        "scrapy_charset.items.pipeline.CharsetPipeline": 900
    }


def test_addon_respects_item_checks_disabled() -> None:
    settings = addon_settings({"CHARSET_ITEM_CHECKS_ENABLED": False})
    assert settings.getdict("ITEM_PIPELINES") == {}


# --- Internal errors: the item passes through unchanged, counted, logged once per type ---


@dataclasses.dataclass(frozen=True)
class FrozenProduct:
    name: str


class Boom(RuntimeError):
    pass


def _raise_type_error(text: str, **kwargs: Any) -> Any:
    raise TypeError("cannot use a string pattern on a bytes-like object")


def _raise_boom(*args: Any, **kwargs: Any) -> Any:
    raise Boom("alert rules failed")


def _break_text_check(pipeline: CharsetPipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("scrapy_charset.items.pipeline.inspect_text", _raise_type_error)


def _break_alerts(pipeline: CharsetPipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline.rules, "observe", _raise_boom)


class FailingStats:
    """A stats collector that fails on the repair counts, after the repairs are written."""

    def __init__(self, stats: Any) -> None:
        self.stats = stats

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        if key.startswith("charset/repaired/"):
            raise Boom(key)
        self.stats.inc_value(key, count, start)

    def get_value(self, key: str, default: Any = None) -> Any:
        return self.stats.get_value(key, default)


def _break_stats(pipeline: CharsetPipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "stats", FailingStats(pipeline.stats))


class BrokenStats:
    """A stats collector that fails on every call."""

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        raise Boom(key)


def _break_all_stats(pipeline: CharsetPipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "stats", BrokenStats())


def _nothing(pipeline: CharsetPipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    pass


# (what breaks, the item, the exception type logged). Every item is damaged where a repair
# would apply, so an item that came out changed would show.
FAILURES = [
    pytest.param(
        _break_text_check,
        lambda: {"t": "turÂ\x92stico", "u": DAMAGED},
        "TypeError",
        id="text-check",
    ),
    pytest.param(_break_alerts, lambda: {"a": DAMAGED, "b": [DAMAGED]}, "Boom", id="alerts"),
    pytest.param(_break_stats, lambda: {"a": DAMAGED, "b": (DAMAGED,)}, "Boom", id="stats"),
    pytest.param(
        _nothing,
        lambda: {"a": DAMAGED, "b": [FrozenProduct(name=DAMAGED)]},
        "FrozenInstanceError",
        id="frozen-dataclass-setter",
    ),
    pytest.param(
        _nothing,
        lambda: ScrapyProduct(name=DAMAGED, repairs=[{"x": FrozenProduct(name=DAMAGED)}]),
        "FrozenInstanceError",
        id="undo-across-levels",
    ),
]


def test_a_broken_stats_collector_loses_no_item(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pipeline = make()
    _break_all_stats(pipeline, monkeypatch)
    with caplog.at_level(logging.ERROR):
        item = {"a": DAMAGED}
        assert pipeline.process_item(item) is item
    assert item == {"a": DAMAGED}
    assert ["Boom" in r.getMessage() for r in caplog.records] == [True]


@pytest.mark.parametrize(("breakage", "factory", "error"), FAILURES)
def test_internal_errors_let_the_item_through_unchanged(
    breakage: Any,
    factory: Any,
    error: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    pipeline = make({"CHARSET_REPAIRS_FIELD": "repairs", "CHARSET_DROP_ITEM_FIELDS": 1})
    breakage(pipeline, monkeypatch)
    with caplog.at_level(logging.ERROR):
        for _ in range(3):
            item = factory()
            before = copy.deepcopy(item)
            assert pipeline.process_item(item) is item
            assert item == before
    assert pipeline.stats.get_value("charset/errors/pipeline") == 3
    assert pipeline.stats.get_value("charset/items_checked") == 3
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert error in errors[0].getMessage()
    assert errors[0].exc_info is not None  # the traceback


def test_one_error_log_per_exception_type(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pipeline = make()
    with caplog.at_level(logging.ERROR):
        _break_text_check(pipeline, monkeypatch)
        pipeline.process_item({"a": DAMAGED})
        pipeline.process_item({"a": DAMAGED})
        monkeypatch.setattr("scrapy_charset.items.pipeline.inspect_text", _raise_boom)
        pipeline.process_item({"a": DAMAGED})
        pipeline.process_item({"a": DAMAGED})
    assert pipeline.stats.get_value("charset/errors/pipeline") == 4
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(logged) == 2
    assert "TypeError" in logged[0]
    assert "Boom" in logged[1]


def test_the_reported_item_is_not_lost() -> None:
    # inspect_text once raised TypeError on this value, and the item was dropped.
    pipeline = make()
    item = {"t": "turÂ\x92stico"}
    assert pipeline.process_item(item) is item
    assert item["t"] == expected_value("turÂ\x92stico")


# --- Sequences and other containers: repaired like lists, or skipped and counted ----------


class Pair(NamedTuple):
    name: str
    note: str


class Opaque(Sequence[str]):
    """A read-only sequence type the pipeline cannot rebuild."""

    def __init__(self, *values: str) -> None:
        self.values = values

    def __getitem__(self, index: Any) -> Any:
        return self.values[index]

    def __len__(self) -> int:
        return len(self.values)


# (the value, the repaired value; None: skipped and counted, not flagged)
CONTAINERS = [
    pytest.param(lambda: [DAMAGED, "ok"], [FIXED, "ok"], id="list"),
    pytest.param(lambda: (DAMAGED, "ok"), (FIXED, "ok"), id="tuple"),
    pytest.param(lambda: Pair(DAMAGED, "ok"), Pair(FIXED, "ok"), id="namedtuple"),
    pytest.param(lambda: {DAMAGED, "ok"}, {FIXED, "ok"}, id="set"),
    pytest.param(lambda: frozenset({DAMAGED}), frozenset({FIXED}), id="frozenset"),
    pytest.param(lambda: collections.deque([DAMAGED]), collections.deque([FIXED]), id="deque"),
    pytest.param(
        lambda: collections.UserList([DAMAGED]), collections.UserList([FIXED]), id="userlist"
    ),
    pytest.param(lambda: ((DAMAGED,), [DAMAGED]), ((FIXED,), [FIXED]), id="tuple-of-tuple"),
    pytest.param(lambda: ({"n": (DAMAGED,)},), ({"n": (FIXED,)},), id="tuple-dict-tuple"),
    pytest.param(
        lambda: collections.OrderedDict(n=DAMAGED),
        collections.OrderedDict(n=FIXED),
        id="ordereddict",
    ),
    pytest.param(lambda: types.MappingProxyType({"n": DAMAGED}), None, id="mappingproxy"),
    pytest.param(lambda: Opaque(DAMAGED), None, id="custom-sequence"),
    pytest.param(lambda: iter([DAMAGED]), None, id="iterator"),
]


@pytest.mark.parametrize(("factory", "repaired"), CONTAINERS)
def test_containers_are_repaired_like_lists_or_skipped(factory: Any, repaired: Any) -> None:
    pipeline = make()
    value = factory()
    item = pipeline.process_item({"f": value})
    got = stats(pipeline)
    if repaired is None:
        assert item["f"] is value
        assert got == {"charset/items_checked": 1, "charset/items/skipped_values": 1}
        return
    assert item["f"] == repaired
    assert type(item["f"]) is type(value)
    assert got["charset/mojibake/items"] == 1
    assert "charset/items/skipped_values" not in got


def test_shared_and_cyclic_containers_are_walked_once() -> None:
    pipeline = make()
    shared = (DAMAGED,)
    cycle: list[Any] = [DAMAGED]
    cycle.append(cycle)
    item = pipeline.process_item({"a": shared, "b": shared, "c": cycle})
    assert item["a"] == item["b"] == (FIXED,)
    assert item["c"][0] == FIXED
    assert item["c"][1] is item["c"]


def test_nesting_past_the_limit_is_skipped_and_counted() -> None:
    pipeline = make()
    deep: Any = DAMAGED
    for _ in range(40):
        deep = [deep]
    pipeline.process_item({"f": deep})
    assert stats(pipeline) == {"charset/items_checked": 1, "charset/items/skipped_values": 1}


# --- The repairs field never replaces a user's value (issue: never overwrite data) --------


@pytest.mark.parametrize(
    ("factory", "kept"),
    [
        pytest.param(
            lambda: {"name": DAMAGED, "url": "http://example.com/"}, "http://example.com/", id="str"
        ),
        pytest.param(lambda: {"name": DAMAGED, "url": ["a", "b"]}, ["a", "b"], id="list"),
        pytest.param(lambda: {"name": DAMAGED, "url": {"k": 1}}, {"k": 1}, id="dict"),
    ],
)
def test_repairs_field_holding_a_value_is_left_alone(
    factory: Any, kept: Any, caplog: pytest.LogCaptureFixture
) -> None:
    pipeline = make({"CHARSET_REPAIRS_FIELD": "url"})
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            item = pipeline.process_item(factory())
            assert item == {"name": FIXED, "url": kept}
    assert stats(pipeline)["charset/items/field_taken"] == 2
    assert len([r for r in caplog.records if "hold their own value" in r.getMessage()]) == 1


def test_repairs_field_taken_is_checked_as_any_field() -> None:
    pipeline = make({"CHARSET_REPAIRS_FIELD": "title"})
    item = pipeline.process_item({"title": DAMAGED})
    assert item == {"title": FIXED}
    assert stats(pipeline)["charset/items/field_taken"] == 1


def test_repairs_field_extends_earlier_records() -> None:
    pipeline = make({"CHARSET_REPAIRS_FIELD": "repairs"})
    item = pipeline.process_item({"a": DAMAGED})
    item["b"] = DAMAGED
    pipeline.process_item(item)
    assert [r["field"] for r in item["repairs"]] == ["a", "b"]


# --- Properties over arbitrary items (the fuzz target's property, under hypothesis) --------

# Any code point, lone surrogates, controls and private use included.
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)
# The mojibake alphabets: UTF-8 bytes read as windows-1252, windows-1251, Shift_JIS...
MOJIBAKE_TEXT = st.builds(
    lambda text, codec: text.encode("utf-8", "surrogatepass").decode(codec, "replace"),
    ANY_TEXT,
    st.sampled_from(["cp1252", "cp1251", "latin-1", "shift_jis", "mac_roman", "cp1250"]),
)
TEXT = ANY_TEXT | MOJIBAKE_TEXT | st.sampled_from([DAMAGED, "turÂ\x92stico", "x\ufffd"])
VALUES = st.recursive(
    TEXT | st.none() | st.integers(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.frozensets(TEXT, max_size=3)
        | st.sets(TEXT, max_size=3)
        | st.dictionaries(TEXT | st.integers(), inner, max_size=3)
        | st.builds(
            lambda make, fields: make(**fields),
            st.sampled_from(ITEM_TYPES),
            st.fixed_dictionaries({}, optional=dict.fromkeys(FIELDS, inner)),
        )
    ),
    max_leaves=12,
)
ITEMS_OF_EVERY_TYPE = st.builds(
    lambda make, fields: make(**fields),
    st.sampled_from(ITEM_TYPES),
    st.fixed_dictionaries({}, optional=dict.fromkeys(FIELDS, VALUES)),
)
SETTINGS = st.sampled_from(
    [
        {},
        {"CHARSET_REPAIR_LEGACY": True},
        {"CHARSET_REPAIR_ENABLED": False},
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(item=ITEMS_OF_EVERY_TYPE, config=SETTINGS)
def test_any_item_comes_out_whole(item: Any, config: dict[str, Any]) -> None:
    check_item(make_pipeline(config), item)


@settings(max_examples=300, deadline=None)
@given(text=TEXT, kind=st.sampled_from([list, tuple, frozenset]))
def test_a_sequence_is_flagged_and_repaired_as_a_list_is(text: str, kind: type) -> None:
    as_list, other = make(), make()
    listed = as_list.process_item({"f": [text]})
    kept = other.process_item({"f": kind([text])})
    assert kept["f"] == kind(listed["f"])
    assert stats(as_list) == stats(other)


@settings(max_examples=500, deadline=None)
@given(data=st.binary(max_size=2048))
def test_fuzz_target_on_raw_bytes(data: bytes) -> None:
    one_input(data)
