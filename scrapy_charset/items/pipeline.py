"""The item pipeline: measure U+FFFD and mojibake in every string field, repair what is safe.

Every item type itemadapter supports (dict, ``scrapy.Item``, dataclass, attrs, pydantic)
is walked, nested dicts, lists and items included; a field's path joins keys with dots and
drops list indexes (``offers.price``), so the stats keys stay bounded. Deciding to alert is
:mod:`scrapy_charset.items.alerts`'s job; this module measures, repairs and reports.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, NotConfigured

from scrapy_charset import stats as keys
from scrapy_charset._log import Once, disabled_notice
from scrapy_charset.items.alerts import REPLACEMENT, Alert, AlertRules
from scrapy_charset.items.config import ItemChecksConfig
from scrapy_charset.items.textcheck import inspect_text
from scrapy_charset.signals import charset_alert

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from typing_extensions import Self

__all__ = ["CLOSE_REASON", "CharsetDropItem", "CharsetPipeline"]

logger = logging.getLogger(__name__)

#: The finish reason when ``CHARSET_CLOSE_SPIDER_RATE`` closes the spider.
CLOSE_REASON = "charset_damage"

_MAX_DEPTH = 32

Setter = Callable[[str], None]


class CharsetDropItem(DropItem):
    """An item dropped for U+FFFD or mojibake (``CHARSET_DROP_ITEM_FIELDS``).

    Scrapy counts it as ``item_dropped_reasons_count/CharsetDropItem``.
    """


def _walk(value: Any, path: str, setter: Setter | None, depth: int = 0) -> Iterator[Any]:
    """Yield (path, text, setter) for every string under *value*; lists keep the path."""
    if isinstance(value, str):
        yield path, value, setter
    elif depth >= _MAX_DEPTH:
        return
    elif isinstance(value, MutableMapping):
        for key in list(value):
            yield from _walk(value[key], _join(path, key), _dict_setter(value, key), depth + 1)
    elif isinstance(value, list):
        for i, element in enumerate(value):
            yield from _walk(element, path, _list_setter(value, i), depth + 1)
    elif isinstance(value, Mapping):  # read-only: measured, never repaired
        for key, element in value.items():
            yield from _walk(element, _join(path, key), None, depth + 1)
    elif isinstance(value, (tuple, frozenset, set)):
        for element in value:
            yield from _walk(element, path, None, depth + 1)
    elif ItemAdapter.is_item(value):
        adapter = ItemAdapter(value)
        for key in list(adapter.keys()):
            yield from _walk(adapter[key], _join(path, key), _dict_setter(adapter, key), depth + 1)


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _dict_setter(container: MutableMapping[Any, Any], key: object) -> Setter:
    def set_value(text: str) -> None:
        container[key] = text

    return set_value


def _list_setter(container: list[Any], index: int) -> Setter:
    def set_value(text: str) -> None:
        container[index] = text

    return set_value


class CharsetPipeline:
    """Check every string field of every item for U+FFFD and mojibake.

    Stats (all integers): ``charset/items_checked``, ``charset/replacement/items``,
    ``charset/replacement/chars``, ``charset/replacement/field/<path>``,
    ``charset/replacement/source/<source>``, ``charset/mojibake/items``,
    ``charset/mojibake/field/<path>``, ``charset/mojibake/kind/<kind>``,
    ``charset/mojibake/source/<source>``, ``charset/repaired/field/<path>``,
    ``charset/repaired/kind/<kind>``, ``charset/normalized/field/<path>``,
    ``charset/alerts/<kind>``, ``charset/items_dropped``,
    ``charset/items/undeclared_field``.
    """

    def __init__(self, crawler: Crawler, config: ItemChecksConfig) -> None:
        self.crawler = crawler
        self.config = config
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.rules = AlertRules(
            rate=config.alert_rate,
            min_items=config.alert_min_items,
            window=config.alert_window,
            rise=config.alert_rise,
            samples=config.alert_samples,
        )
        self._paths: set[str] = set()
        self._warn = Once(logger, extra={"crawler": crawler})
        self._closing = False
        self._skip = {f for f in (config.item_field, config.repairs_field) if f}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """:raises CharsetSettingsError: for an invalid setting; Scrapy stops the crawl."""
        config = ItemChecksConfig.from_settings(crawler.settings)
        if not config.charset_enabled:
            disabled_notice(crawler)
            raise NotConfigured
        if not config.enabled:
            raise NotConfigured("CHARSET_ITEM_CHECKS_ENABLED is False")
        return cls(crawler, config)

    # --- measuring ---------------------------------------------------------------------

    def process_item(self, item: Any, spider: Any = None) -> Any:
        if not ItemAdapter.is_item(item):
            return item
        adapter = ItemAdapter(item)
        config = self.config
        self.stats.inc_value(keys.ITEMS_CHECKED)
        source = self._source(adapter)
        found: dict[str, set[str]] = {}
        samples: dict[str, str] = {}
        still_damaged: set[str] = set()
        chars = 0
        changes: list[dict[str, str]] = []
        for key in list(adapter.keys()):
            if key in self._skip:
                continue
            for path, text, setter in _walk(adapter[key], str(key), _dict_setter(adapter, key)):
                name = self._bound(path)
                kinds = found.setdefault(name, set())
                report = inspect_text(text, legacy=config.repair_legacy)
                new = text
                if report.replacement_chars:
                    chars += report.replacement_chars
                    kinds.add(REPLACEMENT)
                    samples.setdefault(name, text)
                if report.mojibake is not None:
                    kinds.add(report.mojibake)
                    samples.setdefault(name, text)
                    repaired = report.repaired
                    if config.repair and repaired is not None and setter is not None:
                        changes.append(_change(name, text, repaired, report.mojibake))
                        self.stats.inc_value(keys.repaired_field(name))
                        self.stats.inc_value(keys.repaired_kind(report.mojibake))
                        new = repaired
                    else:
                        still_damaged.add(name)
                if report.replacement_chars:
                    still_damaged.add(name)
                form = config.normalize.get(path)
                if form is not None and setter is not None:
                    normalized = unicodedata.normalize(form, new)  # type: ignore[arg-type]
                    if normalized != new:
                        changes.append(_change(name, new, normalized, form.lower()))
                        self.stats.inc_value(keys.normalized_field(name))
                        new = normalized
                if new is not text and setter is not None:
                    setter(new)
        self._count(found, chars, source)
        if changes and config.repairs_field:
            self._record(adapter, item, changes)
        self._decide(found, samples, source)
        if config.drop_item_fields and len(still_damaged) >= config.drop_item_fields:
            self.stats.inc_value(keys.ITEMS_DROPPED)
            raise CharsetDropItem(
                f"U+FFFD or mojibake left in {len(still_damaged)} field(s): "
                + ", ".join(sorted(still_damaged))
            )
        return item

    def _source(self, adapter: ItemAdapter) -> str | None:
        field = self.config.item_field
        if not field:
            return None
        stamp = adapter.get(field)
        if isinstance(stamp, Mapping):
            value = stamp.get("source")
            return str(value) if value else None
        return None

    def _bound(self, path: str) -> str:
        """The path as a stats key part, or ``<other>`` past ``CHARSET_MAX_FIELD_PATHS``."""
        if path in self._paths:
            return path
        if len(self._paths) >= self.config.max_field_paths:
            return keys.OTHER_FIELD
        self._paths.add(path)
        return path

    def _count(self, found: dict[str, set[str]], chars: int, source: str | None) -> None:
        inc = self.stats.inc_value
        replacement = mojibake = False
        for path, kinds in found.items():
            for kind in kinds:
                if kind == REPLACEMENT:
                    replacement = True
                    inc(keys.replacement_field(path))
                else:
                    mojibake = True
                    inc(keys.mojibake_field(path))
                    inc(keys.mojibake_kind(kind))
        if replacement:
            inc(keys.REPLACEMENT_ITEMS)
            inc(keys.REPLACEMENT_CHARS, chars)
            inc(keys.replacement_source(source or "unknown"))
        if mojibake:
            inc(keys.MOJIBAKE_ITEMS)
            inc(keys.mojibake_source(source or "unknown"))

    def _record(self, adapter: ItemAdapter, item: Any, changes: list[dict[str, str]]) -> None:
        field = self.config.repairs_field
        assert field is not None
        try:
            previous = adapter.get(field)
            adapter[field] = [*previous, *changes] if isinstance(previous, list) else changes
        except KeyError:
            self.stats.inc_value(keys.UNDECLARED_FIELD)
            self._warn_once(
                field,
                type(item),
                "%(cls)s does not declare the %(field)r field: repairs are counted in stats "
                "but not recorded on the item (declare the field, or unset "
                "CHARSET_REPAIRS_FIELD)",
            )

    def _warn_once(self, field: str, cls: type, message: str) -> None:
        name = f"{cls.__module__}.{cls.__qualname__}"
        self._warn((field, name), message, {"cls": name, "field": field})

    # --- deciding (alerts.py) and acting -------------------------------------------------

    def _decide(
        self, found: dict[str, set[str]], samples: dict[str, str], source: str | None
    ) -> None:
        for path, kinds in found.items():
            for alert in self.rules.observe(path, kinds, value=samples.get(path), source=source):
                self._alert(alert)
        limit = self.config.close_spider_rate
        if limit and not self._closing:
            hit = self.rules.rate_over(limit)
            if hit is not None:
                self._close(*hit)

    def _alert(self, alert: Alert) -> None:
        self.stats.inc_value(keys.alert(alert.kind))
        rule = (
            f"{alert.rate:.1%} of {alert.items} items"
            if alert.rule == "rate"
            else f"{alert.rate:.1%} of the last {self.config.alert_window} items, a sudden rise"
        )
        logger.warning(
            "Charset alert: %(kind)s in field %(field)r: %(rule)s; decided by %(sources)s; "
            "e.g. %(samples)r",
            {
                "kind": alert.kind,
                "field": alert.field,
                "rule": rule,
                "sources": ", ".join(f"{k} ({n})" for k, n in alert.sources.items()) or "?",
                "samples": list(alert.samples),
            },
            extra={"crawler": self.crawler},
        )
        self.crawler.signals.send_catch_log(
            signal=charset_alert,
            alert=alert,
            field=alert.field,
            kind=alert.kind,
            rule=alert.rule,
            rate=alert.rate,
            samples=list(alert.samples),
            sources=dict(alert.sources),
            spider=self.crawler.spider,
        )

    def _close(self, path: str, kind: str, rate: float) -> None:
        self._closing = True
        logger.error(
            "Closing the spider: %(kind)s in %(rate).1f%% of field %(field)r passes "
            "CHARSET_CLOSE_SPIDER_RATE",
            {"kind": kind, "rate": 100 * rate, "field": path},
            extra={"crawler": self.crawler},
        )
        engine = self.crawler.engine
        if hasattr(engine, "close_spider_async"):
            from scrapy.utils.defer import deferred_from_coro

            self._closing_deferred = deferred_from_coro(
                engine.close_spider_async(reason=CLOSE_REASON)
            )
        else:  # pragma: no cover - Scrapy < 2.14
            engine.close_spider(self.crawler.spider, CLOSE_REASON)  # type: ignore[arg-type]


def _change(path: str, original: str, repaired: str, kind: str) -> dict[str, str]:
    return {"field": path, "original": original, "repaired": repaired, "kind": kind}
