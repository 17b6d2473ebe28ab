"""CharsetItemStampMiddleware: the response's decision, flat, on every item that can hold it."""

from __future__ import annotations

import dataclasses
import gc
import json
import logging
import weakref
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
from scrapy_charset.items.pipeline import CharsetPipeline
from scrapy_charset.items.stamp import (
    MAX_PENDING,
    CharsetItemStampMiddleware,
    ItemSources,
    item_sources,
)
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


def middleware(
    field: str | None = "encoding", *, pipeline: bool = True
) -> CharsetItemStampMiddleware:
    """The middleware of a crawler, with the item pipeline that takes the sources."""
    settings = {"CHARSET_ITEM_FIELD": field} if field else {}
    crawler = get_crawler(scrapy.Spider, settings_dict=settings)
    if pipeline:
        build_from_crawler(CharsetPipeline, crawler)
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


def test_not_configured_without_item_checks_or_field() -> None:
    crawler = get_crawler(scrapy.Spider, settings_dict={"CHARSET_ITEM_CHECKS_ENABLED": False})
    with pytest.raises(NotConfigured, match="CHARSET_ITEM_FIELD"):
        build_from_crawler(CharsetItemStampMiddleware, crawler)


def test_without_a_field_items_are_left_alone_and_their_source_kept() -> None:
    mw = middleware(None)
    item = {"name": "x"}
    assert mw.get_processed_item(item, response()) == {"name": "x"}
    assert mw.stats.get_value("charset/stamp/items") is None
    assert mw.sources is not None
    assert mw.sources.pop(item) == "meta"


def _outputs(mw: CharsetItemStampMiddleware, page: Any, result: list[Any], form: str) -> list[Any]:
    """The spider output after the middleware, through its sync or its async method."""
    if form == "sync":
        return list(mw.process_spider_output(page, iter(result)))

    async def source() -> Any:
        for output in result:
            yield output

    async def collect() -> list[Any]:
        return [o async for o in mw.process_spider_output_async(page, source())]

    coroutine = collect()  # nothing in it waits: run it to its end without an event loop
    try:
        coroutine.send(None)
    except StopIteration as done:
        return list(done.value)
    raise AssertionError("the spider output waited on something")


@pytest.mark.parametrize("form", ["sync", "async"])
def test_the_spider_output_keeps_its_order_and_every_item_is_stamped(form: str) -> None:
    """Requests and values that are not items pass through; each item gets its own stamp
    and its source, read once for the response."""
    mw = middleware()
    request = scrapy.Request("http://example.com/next")
    items = [{"name": "a"}, WithField(name="b"), DataclassWith(name="c")]
    result = [items[0], request, items[1], "not an item", items[2]]
    assert _outputs(mw, response(), result, form) == result
    stamps = [ItemAdapter(item)["encoding"] for item in items]
    assert stamps == [STAMP] * 3
    assert stamps[0] is not stamps[1]  # each item its own dict
    assert mw.stats.get_value("charset/stamp/items") == 3
    assert mw.sources is not None
    assert [mw.sources.pop(item) for item in items] == ["meta"] * 3


@pytest.mark.parametrize("form", ["sync", "async"])
def test_output_without_a_response_passes_through(form: str) -> None:
    mw = middleware()
    result = [{"name": "x"}]
    assert _outputs(mw, None, result, form) == [{"name": "x"}]
    assert mw.stats.get_value("charset/stamp/items") is None


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        pytest.param({}, {CharsetItemStampMiddleware: 550}, id="defaults-sources"),
        pytest.param(
            {"CHARSET_ITEM_FIELD": "encoding"}, {CharsetItemStampMiddleware: 550}, id="field"
        ),
        pytest.param(
            {"CHARSET_ITEM_FIELD": "encoding", "CHARSET_ITEM_CHECKS_ENABLED": False},
            {CharsetItemStampMiddleware: 550},
            id="field-without-checks",
        ),
        pytest.param({"CHARSET_ITEM_CHECKS_ENABLED": False}, {}, id="nothing-to-do"),
        pytest.param(
            {
                "CHARSET_ITEM_FIELD": "encoding",
                "SPIDER_MIDDLEWARES": {
                    "scrapy_charset.items.stamp.CharsetItemStampMiddleware": None
                },
            },
            {"scrapy_charset.items.stamp.CharsetItemStampMiddleware": None},
            id="listed-by-hand",
        ),
    ],
)
def test_addon_enables_the_middleware(settings: dict[str, Any], expected: Any) -> None:
    values = Settings(settings)
    Addon().update_settings(values)
    assert values.getdict("SPIDER_MIDDLEWARES") == expected


# --- Each item's decision source, kept for the pipeline without touching the item ---------


@dataclasses.dataclass(slots=True)
class Slotted:
    name: str


@attrs.define(weakref_slot=False)
class AttrsNoWeakref:
    name: str


# Every item type itemadapter supports; whether the item is held weakly (True) or, having
# no weak reference, by itself until popped or pushed out (False).
KINDS = [
    pytest.param(lambda: {"name": "x"}, False, id="dict"),
    pytest.param(lambda: WithoutField(name="x"), True, id="scrapy-item"),
    pytest.param(lambda: DataclassWithout(name="x"), True, id="dataclass"),
    pytest.param(lambda: Slotted(name="x"), False, id="dataclass-slots"),
    pytest.param(lambda: AttrsWithout(name="x"), True, id="attrs"),
    pytest.param(lambda: AttrsNoWeakref(name="x"), False, id="attrs-no-weakref-slot"),
    pytest.param(lambda: PydanticWithout(name="x"), True, id="pydantic"),
]


def _response_at(url: str, decision: Any = DECISION) -> HtmlResponse:
    meta = {"charset": decision.as_dict()} if isinstance(decision, EncodingDecision) else {}
    return HtmlResponse(url, body=b"<p>x", request=scrapy.Request(url, meta=meta))


# The origin each item gets: (the responses, by URL and with a decision or not, of each
# item) -> each item's (source, url), and which items share one origin.
ORIGINS = [
    pytest.param(
        [("http://a/1", True), ("http://a/1", True)],
        [("meta", "http://a/1")] * 2,
        id="one-response-its-decision",
    ),
    pytest.param([("http://a/1", False)], [(None, "http://a/1")], id="no-decision-a-page-still"),
    pytest.param(
        [("http://a/1", True), ("http://a/2", True)],
        [("meta", "http://a/1"), ("meta", "http://a/2")],
        id="two-responses",
    ),
]


@pytest.mark.parametrize(("pages", "expected"), ORIGINS)
def test_each_item_gets_its_pages_origin(
    pages: list[tuple[str, bool]], expected: list[tuple[str | None, str]]
) -> None:
    mw = middleware(None)
    assert mw.sources is not None
    responses = {url: _response_at(url, DECISION if decided else None) for url, decided in pages}
    items = [{"n": i} for i in range(len(pages))]
    # Items of one response go through the spider output together, as Scrapy hands them.
    for url, page_response in responses.items():
        mine = [item for item, (page, _) in zip(items, pages, strict=True) if page == url]
        list(mw.process_spider_output(page_response, iter(mine)))
    origins = [mw.sources.pop_origin(item) for item in items]
    assert [(o.source, o.url) for o in origins if o is not None] == expected
    shared = len({id(o) for o in origins})
    assert shared == len(responses)  # one origin per response, shared by its items


@pytest.mark.parametrize(("factory", "weak"), KINDS)
def test_sources_are_kept_per_item_object(factory: Any, weak: bool) -> None:
    sources = ItemSources()
    first, second, equal = factory(), factory(), factory()
    assert sources.pop(first) is None
    sources.remember(first, "header")
    sources.remember(second, "detected")
    assert sources.pop(equal) is None  # equal, not the same object
    assert sources.pop(second) == "detected"
    assert sources.pop(first) == "header"
    assert sources.pop(first) is None  # taken once
    assert len(sources) == 0


@pytest.mark.parametrize(("factory", "weak"), KINDS)
def test_a_reused_id_never_matches(factory: Any, weak: bool) -> None:
    """CPython reuses a freed object's id: an entry left by an item that never reached the
    pipeline must not be read for a new object at the same address."""
    sources = ItemSources()
    gone, new = factory(), factory()
    sources.remember(gone, "header")
    held = sources._pending.pop(id(gone))
    if weak:
        del gone
        gc.collect()
        assert held[0]() is None
    sources._pending[id(new)] = held  # what the address's reuse amounts to
    assert sources.pop(new) is None


@pytest.mark.parametrize(("factory", "weak"), KINDS)
def test_items_that_never_reach_the_pipeline_are_bounded(factory: Any, weak: bool) -> None:
    sources = ItemSources(limit=100)
    items = [factory() for _ in range(250)]
    for item in items:
        sources.remember(item, "header")
    assert len(sources) == 100
    assert sources.evicted == 150
    assert [sources.pop(item) for item in items[149:151]] == [None, "header"]
    probes = [weakref.ref(item) for item in items] if weak else []
    holders = sources._pending.values()
    assert all((type(held) is weakref.ref) is weak for held, _ in holders)
    del items, item
    gc.collect()
    assert all(probe() is None for probe in probes)  # held weakly: not kept alive


def test_the_oldest_entry_is_forgotten_first() -> None:
    sources = ItemSources(limit=2)
    a, b, c = {"n": 1}, {"n": 2}, {"n": 3}
    assert not sources.remember(a, "header")
    assert not sources.remember(b, "meta")
    assert sources.remember(c, "detected")
    assert (sources.pop(a), sources.pop(b), sources.pop(c)) == (None, "meta", "detected")


def test_the_default_bound() -> None:
    sources = ItemSources()
    items = [{"n": i} for i in range(MAX_PENDING + 10)]
    for item in items:
        sources.remember(item, "header")
    assert len(sources) == MAX_PENDING
    assert sources.evicted == 10


def test_the_middleware_counts_and_warns_once_past_the_bound(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mw = middleware(None)
    assert mw.sources is not None
    mw.sources.limit = 2
    with caplog.at_level(logging.WARNING):
        items = [{"n": i} for i in range(5)]
        for item in items:
            mw.get_processed_item(item, response())
    assert mw.stats.get_value("charset/items/sources_evicted") == 3
    warned = [r for r in caplog.records if "waiting between" in r.getMessage()]
    assert len(warned) == 1
    assert "More than 2 items" in warned[0].getMessage()


def test_without_the_pipeline_no_source_is_kept() -> None:
    """A project that disabled the pipeline (``ITEM_PIPELINES = {...: None}``): nothing
    would take the sources, so none is kept."""
    mw = middleware(None, pipeline=False)
    assert mw.sources is not None
    for _ in range(5):
        mw.get_processed_item({"name": "x"}, response())
    assert len(mw.sources) == 0


def test_the_pipeline_shares_the_crawlers_sources() -> None:
    crawler = get_crawler(scrapy.Spider)
    mw = build_from_crawler(CharsetItemStampMiddleware, crawler)
    assert mw.sources is item_sources(crawler)
    assert item_sources(get_crawler(scrapy.Spider)) is not mw.sources


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
