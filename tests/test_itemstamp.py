"""CharsetItemStampMiddleware: the response's decision, flat, on every item that can hold it."""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any

import attrs
import pydantic
import pytest
import scrapy
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_charset.addon import Addon
from scrapy_charset.items.stamp import CharsetItemStampMiddleware
from scrapy_charset.responses.decision import Confidence, EncodingDecision, Ignored, Source

DECISION = EncodingDecision(
    encoding="windows-1252",
    source=Source.META,
    confidence=Confidence.TENTATIVE,
    label="iso-8859-1",
    ignored=(Ignored(Source.HEADER, "foo", "unknown_label"),),
    offset=42,
)
STAMP = {
    "encoding": "windows-1252",
    "source": "meta",
    "label": "iso-8859-1",
    "confidence": "tentative",
}


class WithField(scrapy.Item):
    name = scrapy.Field()
    encoding = scrapy.Field()


class WithoutField(scrapy.Item):
    name = scrapy.Field()


@dataclasses.dataclass
class DataclassWith:
    name: str
    encoding: dict[str, Any] | None = None


@dataclasses.dataclass
class DataclassWithout:
    name: str


@attrs.define
class AttrsWith:
    name: str
    encoding: dict[str, Any] | None = None


@attrs.define
class AttrsWithout:
    name: str


class PydanticWith(pydantic.BaseModel):
    name: str
    encoding: dict[str, Any] | None = None


class PydanticWithout(pydantic.BaseModel):
    name: str


def middleware(field: str | None = "encoding") -> CharsetItemStampMiddleware:
    settings = {"CHARSET_ITEM_FIELD": field} if field else {}
    crawler = get_crawler(scrapy.Spider, settings_dict=settings)
    return build_from_crawler(CharsetItemStampMiddleware, crawler)


def response(decision: Any = DECISION) -> HtmlResponse:
    meta = {"charset": decision.as_dict()} if isinstance(decision, EncodingDecision) else {}
    request = scrapy.Request("http://example.com/", meta=meta)
    return HtmlResponse("http://example.com/", body=b"<p>x", request=request)


STAMPED = [
    pytest.param(lambda: {"name": "x"}, id="dict"),
    pytest.param(lambda: WithField(name="x"), id="scrapy-item"),
    pytest.param(lambda: DataclassWith(name="x"), id="dataclass"),
    pytest.param(lambda: AttrsWith(name="x"), id="attrs"),
    pytest.param(lambda: PydanticWith(name="x"), id="pydantic"),
]


@pytest.mark.parametrize("factory", STAMPED)
def test_items_declaring_the_field_are_stamped(factory: Any) -> None:
    mw = middleware()
    item = mw.get_processed_item(factory(), response())
    stamp = ItemAdapter(item)["encoding"]
    assert stamp == STAMP
    assert json.loads(json.dumps(stamp)) == stamp  # JSON-safe and flat
    assert mw.stats.get_value("charset/stamp/items") == 1


UNDECLARED = [
    pytest.param(lambda: WithoutField(name="x"), id="scrapy-item"),
    pytest.param(lambda: DataclassWithout(name="x"), id="dataclass"),
    pytest.param(lambda: AttrsWithout(name="x"), id="attrs"),
    pytest.param(lambda: PydanticWithout(name="x"), id="pydantic"),
]


@pytest.mark.parametrize("factory", UNDECLARED)
def test_items_without_the_field_are_counted_and_warned_once(
    factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    mw = middleware()
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            item = mw.get_processed_item(factory(), response())
            assert "encoding" not in ItemAdapter(item)
    assert mw.stats.get_value("charset/stamp/undeclared_field") == 3
    assert len([r for r in caplog.records if "does not declare" in r.getMessage()]) == 1


def test_no_decision_leaves_the_item_alone() -> None:
    mw = middleware()
    assert mw.get_processed_item({"name": "x"}, response(None)) == {"name": "x"}
    assert mw.stats.get_value("charset/stamp/no_decision") == 1


def test_requests_and_start_items_pass_through() -> None:
    mw = middleware()
    request = scrapy.Request("http://example.com/")
    assert mw.get_processed_request(request, response()) is request
    assert mw.get_processed_item({"name": "x"}, None) == {"name": "x"}


def test_not_configured_without_a_field() -> None:
    with pytest.raises(NotConfigured, match="CHARSET_ITEM_FIELD"):
        middleware(None)


def test_addon_enables_the_stamp_only_with_a_field() -> None:
    plain = Settings()
    Addon().update_settings(plain)
    assert plain.getdict("SPIDER_MIDDLEWARES") == {}
    stamped = Settings({"CHARSET_ITEM_FIELD": "encoding"})
    Addon().update_settings(stamped)
    assert stamped.getdict("SPIDER_MIDDLEWARES") == {CharsetItemStampMiddleware: 550}
    by_hand = Settings(
        {
            "CHARSET_ITEM_FIELD": "encoding",
            "SPIDER_MIDDLEWARES": {"scrapy_charset.items.stamp.CharsetItemStampMiddleware": None},
        }
    )
    Addon().update_settings(by_hand)
    assert by_hand.getdict("SPIDER_MIDDLEWARES") == {
        "scrapy_charset.items.stamp.CharsetItemStampMiddleware": None
    }


# --- A user's value in the field is never replaced ---------------------------------------

TAKEN = [
    pytest.param(lambda: {"name": "x", "encoding": "gzip"}, "gzip", id="dict-str"),
    pytest.param(lambda: {"name": "x", "encoding": {"k": 1}}, {"k": 1}, id="dict-mapping"),
    pytest.param(lambda: {"name": "x", "encoding": ""}, "", id="dict-empty-str"),
    pytest.param(lambda: WithField(name="x", encoding="utf-8"), "utf-8", id="scrapy-item"),
    pytest.param(lambda: DataclassWith(name="x", encoding={"a": 1}), {"a": 1}, id="dataclass"),
    pytest.param(lambda: AttrsWith(name="x", encoding={"a": 1}), {"a": 1}, id="attrs"),
    pytest.param(lambda: PydanticWith(name="x", encoding={"a": 1}), {"a": 1}, id="pydantic"),
]


@pytest.mark.parametrize(("factory", "kept"), TAKEN)
def test_a_field_holding_a_value_is_left_alone(
    factory: Any, kept: Any, caplog: pytest.LogCaptureFixture
) -> None:
    mw = middleware()
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            item = mw.get_processed_item(factory(), response())
            assert ItemAdapter(item)["encoding"] == kept
    assert mw.stats.get_value("charset/stamp/field_taken") == 3
    assert mw.stats.get_value("charset/stamp/items") is None
    assert len([r for r in caplog.records if "hold their own value" in r.getMessage()]) == 1


# --- Internal errors: the item passes through unchanged, counted, logged once per type ---


class Unprintable:
    """A decision value whose ``str()`` fails."""

    def __str__(self) -> str:
        raise ValueError("no text")


class Refusing(dict[str, Any]):
    """An item that refuses to be written to."""

    def __setitem__(self, key: str, value: Any) -> None:
        raise RuntimeError("read-only item")


@pytest.mark.parametrize(
    ("decision", "factory", "error"),
    [
        pytest.param(
            {**DECISION.as_dict(), "label": Unprintable()},
            lambda: {"name": "x"},
            "ValueError",
            id="decision",
        ),
        pytest.param(DECISION.as_dict(), lambda: Refusing(name="x"), "RuntimeError", id="setter"),
    ],
)
def test_internal_errors_let_the_item_through(
    decision: Any, factory: Any, error: str, caplog: pytest.LogCaptureFixture
) -> None:
    mw = middleware()
    request = scrapy.Request("http://example.com/", meta={"charset": decision})
    page = HtmlResponse("http://example.com/", body=b"<p>x", request=request)
    with caplog.at_level(logging.ERROR):
        for _ in range(3):
            item = factory()
            assert mw.get_processed_item(item, page) is item
            assert item == {"name": "x"}
    assert mw.stats.get_value("charset/errors/stamp") == 3
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert error in errors[0].getMessage()
    assert errors[0].exc_info is not None
