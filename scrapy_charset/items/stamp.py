"""Link each item to the encoding decision of the response it came from.

Pipelines never see the response, so a spider middleware makes the link. It always tells
the item pipeline the :class:`Origin` of each item, without touching the item: its
response's URL and decision's source (``header``, ``meta``, ``detected``...).
:class:`ItemSources` keeps it, keyed by the item object, until the pipeline takes it, so the
pipeline attributes damage (``charset/mojibake/source/<source>``, the alerts' "decided by")
and names its pages (the alerts' pages, the closing list of damaged pages) by default. It holds at
most :data:`MAX_PENDING` items: an item another component filters out before the
pipeline is held weakly where its type allows (``scrapy.Item``, dataclasses, attrs,
pydantic), and a dict until newer items push it out (``charset/items/sources_evicted``).

With ``CHARSET_ITEM_FIELD`` set it also stamps each item a callback yields: the field is
set to a flat, JSON-safe dict (``encoding``,
``source``, ``label``, ``confidence``), read from ``response.meta["charset"]`` (written by
the downloader middleware; from ``meta["charset_decision"]`` when a project's own value
kept ``meta["charset"]``). Dicts get the key; ``scrapy.Item``, dataclass, attrs and
pydantic items only when they declare the field (otherwise it is counted in
``charset/stamp/undeclared_field`` and warned about once per item class).

A user's data is never replaced: when the field already holds a value (a spider that
names ``CHARSET_ITEM_FIELD = "title"``), the item keeps it, ``charset/stamp/field_taken``
counts it and one warning per item class says so. An internal error lets the item through
as it came, counted in ``charset/errors/stamp`` and logged once per exception type with
its traceback.
"""

from __future__ import annotations

import logging
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import Request
from scrapy.exceptions import NotConfigured

from scrapy_charset import stats as keys
from scrapy_charset._log import Once, disabled_notice, internal_error
from scrapy_charset._meta import decision_of
from scrapy_charset._placement import built_in_wrong_role
from scrapy_charset._settings import stops_the_crawl
from scrapy_charset.items.config import ItemChecksConfig

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

__all__ = [
    "MAX_PENDING",
    "STAMP_KEYS",
    "BoundStats",
    "CharsetItemStampMiddleware",
    "ItemSources",
    "Origin",
    "item_sources",
    "stamp_from_decision",
]

logger = logging.getLogger(__name__)

#: The keys of a stamp, all str or float or None.
STAMP_KEYS = ("encoding", "source", "label", "confidence")


#: Items waiting between the spider middleware and the item pipeline, at most. Scrapy hands
#: each item to the pipelines as soon as the spider middlewares yield it (up to
#: ``CONCURRENT_ITEMS`` per response at once), so only items that never reach the pipeline
#: (filtered out by another spider middleware, dropped before it) stay longer.
MAX_PENDING = 10_000


class Origin:
    """Where an item came from: its response's *url* and decision *source*.

    One object for all the items of a response, so the pipeline counts a damaged page once
    (:attr:`damage_left`, :attr:`repaired`: whether it has counted this page already).
    """

    __slots__ = ("damage_left", "repaired", "source", "url")

    def __init__(self, source: str | None, url: str | None = None) -> None:
        self.source = source
        self.url = url
        self.damage_left = False
        self.repaired = False

    def __repr__(self) -> str:
        return f"Origin({self.source!r}, {self.url!r})"


class ItemSources:
    """The :class:`Origin` of each item on its way from the spider middleware to the item
    pipeline, for at most *limit* items.

    Keyed by the item's ``id()`` with an identity check: a weak reference for the item
    types that allow one, the item itself for those that do not (``dict``, slotted
    classes), so a key reused by a new object after an item was freed never matches. Past
    *limit* the oldest entry is forgotten (its item, if it ever arrives, is attributed to
    no source) and :attr:`evicted` counts it.
    """

    def __init__(self, limit: int = MAX_PENDING) -> None:
        self.limit = limit
        self.evicted = 0
        #: Set by the item pipeline: without one to take them, sources are not kept.
        self.consumed = False
        self._pending: OrderedDict[int, tuple[Any, Origin]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pending)

    def remember(self, item: Any, origin: Origin | str) -> bool:
        """Keep *origin* (or a decision source alone) for *item*; True when the oldest entry
        was forgotten for it."""
        if isinstance(origin, str):
            origin = Origin(origin)
        pending = self._pending
        key = id(item)
        held = weakref.ref(item) if type(item).__weakrefoffset__ else item
        evicted = False
        if key in pending:  # an object freed and its id reused, or the item yielded again
            pending.move_to_end(key)
        elif len(pending) >= self.limit:
            pending.popitem(last=False)
            self.evicted += 1
            evicted = True
        pending[key] = (held, origin)
        return evicted

    def pop_origin(self, item: Any) -> Origin | None:
        """The origin kept for *item* (forgetting it), or None."""
        entry = self._pending.pop(id(item), None)
        if entry is None:
            return None
        held, origin = entry
        if held is item or (type(held) is weakref.ref and held() is item):
            return origin
        return None

    def pop(self, item: Any) -> str | None:
        """The decision source kept for *item* (forgetting it), or None."""
        origin = self.pop_origin(item)
        return None if origin is None else origin.source

    def discard(self, item: Any) -> None:
        """Forget *item* (dropped, or failed in a pipeline)."""
        self.pop_origin(item)

    def clear(self) -> None:
        self._pending.clear()


_SOURCES: weakref.WeakKeyDictionary[Any, ItemSources] = weakref.WeakKeyDictionary()


def item_sources(crawler: Any) -> ItemSources:
    """The one :class:`ItemSources` the spider middleware and the pipeline of *crawler*
    share."""
    sources = _SOURCES.get(crawler)
    if sources is None:
        sources = _SOURCES[crawler] = ItemSources()
    return sources


def stamp_from_decision(decision: Any) -> dict[str, Any] | None:
    """The flat stamp of a decision (``response.meta["charset"]``, a dict), or None."""
    if not isinstance(decision, Mapping):
        return None
    stamp = {}
    for key in STAMP_KEYS:
        value = decision.get(key)
        stamp[key] = value if value is None or isinstance(value, (str, int, float)) else str(value)
    return stamp if stamp["encoding"] else None


class _Page:
    """One response's part of its items' stamps, read at its first item."""

    __slots__ = ("error", "origin", "stamp")

    def __init__(self) -> None:
        self.origin: Origin | None = None
        self.stamp: dict[str, Any] | None = None
        self.error: Exception | None = None


class BoundStats:
    """A component's ``stats``, with ``inc_value`` bound once as ``_inc`` whenever the
    collector is set (the item stamp's and the pipeline's: tests replace it)."""

    _stats: StatsCollector
    _inc: Callable[..., None]

    @property
    def stats(self) -> StatsCollector:
        return self._stats

    @stats.setter
    def stats(self, stats: StatsCollector) -> None:
        self._stats = stats
        # Bound once: Scrapy's stats collector resolves its methods on every access.
        self._inc = stats.inc_value


class CharsetItemStampMiddleware(BoundStats):
    """Tell the item pipeline which decision each item's response had and, with
    ``CHARSET_ITEM_FIELD``, put the decision on every item.

    The response's part (its decision's source and stamp) is read once per response, at
    its first item; each item then costs a type check, the source's bookkeeping and, with
    the field, one write. It has no ``process_start``: start requests and start items
    carry no response and pass it by.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        with stops_the_crawl():
            config = ItemChecksConfig.from_settings(crawler.settings)
        if not config.charset_enabled:
            disabled_notice(crawler)
            raise NotConfigured
        if config.item_field is None and not config.enabled:
            raise NotConfigured(
                "the item checks are off and CHARSET_ITEM_FIELD is unset: nothing to stamp"
            )
        self.field = config.item_field
        # Sources are kept only for a pipeline that takes them.
        self.sources = item_sources(crawler) if config.enabled else None
        assert crawler.stats is not None
        self.stats = crawler.stats
        self._warn = Once(logger, extra={"crawler": crawler})

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if built_in_wrong_role(crawler, cls):
            raise NotConfigured
        return cls(crawler)

    def process_spider_output(
        self, response: Response | None, result: Iterable[Any], spider: Any = None
    ) -> Iterable[Any]:
        if response is None:
            yield from result
            return
        page: _Page | None = None
        for output in result:
            if type(output) is dict or not isinstance(output, Request):
                if page is None:
                    page = self._page(response)
                self._take(output, page)
            yield output

    async def process_spider_output_async(
        self, response: Response | None, result: AsyncIterator[Any], spider: Any = None
    ) -> AsyncIterator[Any]:
        if response is None:
            async for output in result:
                yield output
            return
        page: _Page | None = None
        async for output in result:
            if type(output) is dict or not isinstance(output, Request):
                if page is None:
                    page = self._page(response)
                self._take(output, page)
            yield output

    def get_processed_request(self, request: Request, response: Response | None) -> Request:
        """A request passes through as it is."""
        return request

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        """Stamp one *item* of *response* (``None`` for a start item, left alone)."""
        if response is not None:
            self._take(item, self._page(response))
        return item

    def _page(self, response: Response) -> _Page:
        """What every item of *response* gets: its origin (URL and decision's source) and
        stamp."""
        try:
            decision = decision_of(response.meta)
        except AttributeError:  # a response built without a request
            decision = None
        page = _Page()
        sources = self.sources
        if not isinstance(decision, Mapping):
            if sources is not None and sources.consumed:
                page.origin = Origin(None, response.url)
            return page
        try:
            if sources is not None and sources.consumed:
                source = decision.get("source")
                page.origin = Origin(str(source) if source else None, response.url)
            if self.field is not None:
                page.stamp = stamp_from_decision(decision)
        except Exception as error:
            page.error = error
        return page

    def _take(self, item: Any, page: _Page) -> None:
        """Keep *item*'s source for the pipeline and stamp it; an internal error lets it
        through as it came."""
        try:
            if type(item) is not dict and not ItemAdapter.is_item(item):
                return
            sources = self.sources
            if (
                page.origin is not None
                and sources is not None
                and sources.remember(item, page.origin)
            ):
                self._evicted()
            if page.error is not None:
                raise page.error
            if self.field is not None:
                self._stamp(item, page.stamp)
        except Exception as error:
            self._failed(error)

    def _stamp(self, item: Any, stamp: dict[str, Any] | None) -> None:
        field = self.field
        assert field is not None
        if stamp is None:
            self._inc(keys.STAMP_MISSING)
            return
        if type(item) is dict:
            if item.get(field) is not None:
                self._taken(item)
                return
            item[field] = stamp.copy()  # each item its own
            self._inc(keys.STAMPED)
            return
        adapter = ItemAdapter(item)
        if adapter.get(field) is not None:
            self._taken(item)
            return
        try:
            adapter[field] = stamp.copy()
        except KeyError:
            self._inc(keys.STAMP_UNDECLARED)
            self._warn_once(
                item,
                "%(cls)s does not declare the %(field)r field: its items are not stamped "
                "with the encoding decision (declare the field, or unset "
                "CHARSET_ITEM_FIELD)",
            )
            return
        self._inc(keys.STAMPED)

    def _taken(self, item: Any) -> None:
        self._inc(keys.STAMP_FIELD_TAKEN)
        self._warn_once(
            item,
            "%(cls)s items hold their own value in the %(field)r field: it is left as it "
            "is and not stamped with the encoding decision (choose another "
            "CHARSET_ITEM_FIELD)",
        )

    def _evicted(self) -> None:
        self.stats.inc_value(keys.SOURCES_EVICTED)
        self._warn(
            "evicted",
            "More than %(limit)d items are waiting between the spider middleware and the item "
            "pipeline: the oldest ones' damage is attributed to no decision source (counted "
            "in charset/items/sources_evicted)",
            {"limit": self.sources.limit if self.sources else MAX_PENDING},
        )

    def _warn_once(self, item: Any, message: str) -> None:
        cls = f"{type(item).__module__}.{type(item).__qualname__}"
        self._warn((message, cls), message, {"cls": cls, "field": self.field})

    def _failed(self, error: Exception) -> None:
        internal_error(self._warn, self.stats, "stamp", "item stamp", error)
