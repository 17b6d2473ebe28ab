"""Stamp each item with the encoding decision of the response it came from.

Pipelines never see the response, so the stamp is put on by a spider middleware: each item
a callback yields gets ``CHARSET_ITEM_FIELD`` set to a flat, JSON-safe dict (``encoding``,
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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from scrapy_charset import stats as keys
from scrapy_charset._log import Once, disabled_notice, internal_error
from scrapy_charset._meta import decision_of
from scrapy_charset._settings import stops_the_crawl
from scrapy_charset.items.config import ItemChecksConfig

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["STAMP_KEYS", "CharsetItemStampMiddleware", "stamp_from_decision"]

logger = logging.getLogger(__name__)

#: The keys of a stamp, all str or float or None.
STAMP_KEYS = ("encoding", "source", "label", "confidence")


def stamp_from_decision(decision: Any) -> dict[str, Any] | None:
    """The flat stamp of a decision (``response.meta["charset"]``, a dict), or None."""
    if not isinstance(decision, Mapping):
        return None
    stamp = {}
    for key in STAMP_KEYS:
        value = decision.get(key)
        stamp[key] = value if value is None or isinstance(value, (str, int, float)) else str(value)
    return stamp if stamp["encoding"] else None


class CharsetItemStampMiddleware(BaseSpiderMiddleware):
    """Put the response's encoding decision on every item (``CHARSET_ITEM_FIELD``)."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        with stops_the_crawl():
            config = ItemChecksConfig.from_settings(crawler.settings)
        if not config.charset_enabled:
            disabled_notice(crawler)
            raise NotConfigured
        if config.item_field is None:
            raise NotConfigured("set CHARSET_ITEM_FIELD (e.g. 'encoding') to stamp items")
        self.field = config.item_field
        assert crawler.stats is not None
        self.stats = crawler.stats
        self._warn = Once(logger, extra={"crawler": crawler})

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if response is None:
            return item
        try:
            self._stamp(item, response)
        except Exception as error:
            self._failed(error)
        return item

    def _stamp(self, item: Any, response: Response) -> None:
        if not ItemAdapter.is_item(item):
            return
        try:
            decision = decision_of(response.meta)
        except AttributeError:  # a response built without a request
            decision = None
        stamp = stamp_from_decision(decision)
        if stamp is None:
            self.stats.inc_value(keys.STAMP_MISSING)
            return
        adapter = ItemAdapter(item)
        if adapter.get(self.field) is not None:
            self.stats.inc_value(keys.STAMP_FIELD_TAKEN)
            self._warn_once(
                item,
                "%(cls)s items hold their own value in the %(field)r field: it is left as it "
                "is and not stamped with the encoding decision (choose another "
                "CHARSET_ITEM_FIELD)",
            )
            return
        try:
            adapter[self.field] = stamp
        except KeyError:
            self.stats.inc_value(keys.STAMP_UNDECLARED)
            self._warn_once(
                item,
                "%(cls)s does not declare the %(field)r field: its items are not stamped "
                "with the encoding decision (declare the field, or unset "
                "CHARSET_ITEM_FIELD)",
            )
            return
        self.stats.inc_value(keys.STAMPED)

    def _warn_once(self, item: Any, message: str) -> None:
        cls = f"{type(item).__module__}.{type(item).__qualname__}"
        self._warn((message, cls), message, {"cls": cls, "field": self.field})

    def _failed(self, error: Exception) -> None:
        internal_error(self._warn, self.stats, "stamp", "item stamp", error)
