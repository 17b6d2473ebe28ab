"""CharsetPipeline: every item type, nested fields, stats, repairs, alerts, drops, the add-on."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import attrs
import pydantic
import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_charset.addon import Addon
from scrapy_charset.config import CharsetSettingsError
from scrapy_charset.items.pipeline import CharsetDropItem, CharsetPipeline
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
    from itemadapter import ItemAdapter

    adapter = ItemAdapter(item)
    assert adapter["name"] == FIXED
    assert adapter["repairs"] == [
        {"field": "name", "original": DAMAGED, "repaired": FIXED, "kind": "utf8-as-windows-1252"}
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
