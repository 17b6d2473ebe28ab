"""The item pipeline: measure U+FFFD and mojibake in every string field, repair what is safe.

Every item type itemadapter supports (dict, ``scrapy.Item``, dataclass, attrs, pydantic)
is walked, nested dicts, lists, tuples, sets and items included; a field's path joins keys
with dots and drops sequence indexes (``offers.price``), so the stats keys stay bounded.
Deciding to alert is :mod:`scrapy_charset.items.alerts`'s job; this module measures, repairs
and reports.

An item is handled in four steps: **scan** (read every string, decide each repair and
normalisation, change nothing), **apply** (write the new values, journalled), **record**
(the repairs field) and **report** (stats, alerts, the optional drop). Containers that can
be changed in place (``dict``, ``list``, any mutable mapping or sequence, nested items) are
written in place; ``tuple``, named tuples, ``set`` and ``frozenset`` are rebuilt with their
repaired elements and written into their parent; any other container is not walked and is
counted in ``charset/items/skipped_values``, so nothing is flagged that could not have been
repaired.

Users' data comes first: an internal error anywhere (an exception from the text check, a
setter that refuses a value, a bug) undoes what was written, lets the item through
unchanged, counts ``charset/errors/pipeline`` and logs one ERROR with the traceback per
exception type.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Mapping, MutableMapping, MutableSequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured

from scrapy_charset import stats as keys
from scrapy_charset._log import Once, counted, disabled_notice, internal_error
from scrapy_charset._placement import built_in_wrong_role
from scrapy_charset._settings import stops_the_crawl
from scrapy_charset.items.alerts import REPLACEMENT, Alert, AlertRules
from scrapy_charset.items.config import ItemChecksConfig
from scrapy_charset.items.stamp import STAMP_KEYS, BoundStats, Origin, item_sources
from scrapy_charset.items.textcheck import TextReport, inspect_text
from scrapy_charset.signals import charset_alert

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from typing_extensions import Self

__all__ = ["CLOSE_REASON", "MAX_PAGES", "CharsetDropItem", "CharsetPipeline"]

logger = logging.getLogger(__name__)

#: The finish reason when ``CHARSET_CLOSE_SPIDER_RATE`` closes the spider.
CLOSE_REASON = "charset_damage"

#: Fields the closing note names; it counts the others.
_NOTE_FIELDS = 5

#: Pages the closing list of damaged pages names, per list; it counts the others.
MAX_PAGES = 10

#: Nesting deeper than this is not walked (counted in ``charset/items/skipped_values``).
_MAX_DEPTH = 32

#: The keys of one entry of the repairs field.
_RECORD_KEYS = frozenset({"field", "original", "repaired", "kind"})

_STAMP_KEYS = frozenset(STAMP_KEYS)

#: Values that hold no text: returned at once.
_SCALARS = (int, float, complex, bytes, bytearray, memoryview, range, type(None))

#: The damage kinds of a field found clean (shared: a field's own set is made at its first
#: damage).
_CLEAN: frozenset[str] = frozenset()

#: A scan's answer for a value that stays as it is.
_SAME: Any = object()
#: The old value of a key that was not set: undone by deleting the key.
_ABSENT: Any = object()


class CharsetDropItem(DropItem):
    """An item dropped for U+FFFD or mojibake (``CHARSET_DROP_ITEM_FIELDS``).

    Scrapy counts it as ``item_dropped_reasons_count/CharsetDropItem``.
    """


@dataclass(slots=True)
class _Edit:
    """One value to write: ``container[key] = new``, undone with ``container[key] = old``."""

    container: Any
    key: Any
    old: Any
    new: Any


@dataclass(slots=True)
class _Scan:
    """What one item holds and what is to be changed in it; built without changing it."""

    source: str | None
    url: str | None = None  # the item's page, when known
    found: dict[str, AbstractSet[str]] = field(default_factory=dict)  # path -> damage kinds
    samples: dict[str, str] = field(default_factory=dict)  # path -> a damaged value
    still_damaged: set[str] = field(default_factory=set)  # paths left with damage
    chars: int = 0  # U+FFFD characters
    skipped: int = 0  # values not walked
    partial: int = 0  # values repaired in part, damage left
    changes: list[dict[str, str]] = field(default_factory=list)  # for the repairs field
    repaired: list[tuple[str, str]] = field(default_factory=list)  # (path, kind)
    normalized: list[str] = field(default_factory=list)  # paths
    edits: list[_Edit] = field(default_factory=list)
    memo: dict[int, Any] = field(default_factory=dict)  # id(container) -> its new value


class _Journal:
    """The edits written so far, to undo them all if anything fails."""

    def __init__(self) -> None:
        self.done: list[_Edit] = []

    def write(self, edit: _Edit) -> None:
        edit.container[edit.key] = edit.new
        self.done.append(edit)

    def undo(self) -> None:
        for edit in reversed(self.done):
            try:
                if edit.old is _ABSENT:
                    del edit.container[edit.key]
                else:
                    edit.container[edit.key] = edit.old
            except Exception:  # undo what can be undone
                logger.debug("could not restore %r", edit.key, exc_info=True)
        self.done.clear()


def _is_stamp(value: Any) -> bool:
    """The item stamp's value (or None while unset): a mapping of stamp keys only."""
    return value is None or (isinstance(value, Mapping) and value.keys() <= _STAMP_KEYS)


def _is_records(value: Any) -> bool:
    """The repairs field's value: None, or a list of repair records (an empty list too)."""
    return value is None or (
        isinstance(value, list)
        and all(
            isinstance(entry, Mapping)
            and (entry.keys() == _RECORD_KEYS or entry.keys() == _RECORD_KEYS | {"rule"})
            for entry in value
        )
    )


def _rebuild(value: Any, elements: list[Any]) -> Any:
    """*value*'s immutable container type again, holding *elements*."""
    kind = type(value)
    if kind is tuple or kind is frozenset or kind is set:
        return kind(elements)
    return kind._make(elements)  # a named tuple


def _rebuildable(value: Any) -> bool:
    kind = type(value)
    return (
        kind is tuple
        or kind is frozenset
        or kind is set
        or (isinstance(value, tuple) and hasattr(kind, "_make") and hasattr(kind, "_fields"))
    )


class CharsetPipeline(BoundStats):
    """Check every string field of every item for U+FFFD and mojibake.

    Stats (all integers): ``charset/items_checked``, ``charset/replacement/items``,
    ``charset/replacement/chars``, ``charset/replacement/field/<path>``,
    ``charset/replacement/source/<source>``, ``charset/mojibake/items``,
    ``charset/mojibake/field/<path>``, ``charset/mojibake/kind/<kind>``,
    ``charset/mojibake/source/<source>``, ``charset/repaired/field/<path>``,
    ``charset/repaired/kind/<kind>``, ``charset/repaired/partial``,
    ``charset/normalized/field/<path>``,
    ``charset/alerts/<kind>``, ``charset/items_dropped``,
    ``charset/items/undeclared_field``, ``charset/items/field_taken``,
    ``charset/items/skipped_values``, ``charset/errors/pipeline``.
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
        # The damaged pages, for the closing list: the first MAX_PAGES URLs, and counts.
        self._pages = _DamagedPages()
        # Filled by the spider middleware (CharsetItemStampMiddleware); what an item
        # dropped or failed before this pipeline left there is forgotten at once.
        self.sources = item_sources(crawler)
        self.sources.consumed = True
        crawler.signals.connect(self._forget, signal=signals.item_dropped)
        crawler.signals.connect(self._forget, signal=signals.item_error)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """:raises CharsetSettingsError: for an invalid setting; Scrapy stops the crawl."""
        if built_in_wrong_role(crawler, cls):
            raise NotConfigured
        with stops_the_crawl():
            config = ItemChecksConfig.from_settings(crawler.settings)
        if not config.charset_enabled:
            disabled_notice(crawler)
            raise NotConfigured
        if not config.enabled:
            raise NotConfigured("CHARSET_ITEM_CHECKS_ENABLED is False")
        return cls(crawler, config)

    def process_item(self, item: Any, spider: Any = None) -> Any:
        """Scan, repair, record and report; an internal error leaves *item* as it came."""
        journal = _Journal()
        try:
            if type(item) is dict:  # the common case: the dict is its own adapter
                adapter: MutableMapping[Any, Any] = item
            elif ItemAdapter.is_item(item):
                adapter = ItemAdapter(item)
            else:
                return item
            origin = self.sources.pop_origin(item)
            self._inc(keys.ITEMS_CHECKED)
            scan = self._scan(adapter, origin)
            for edit in scan.edits:
                journal.write(edit)
            if scan.changes and self.config.repairs_field:
                self._record(adapter, item, scan.changes, journal)
            self._report(scan)
            if scan.still_damaged or scan.repaired:
                self._pages.add(origin, left=bool(scan.still_damaged), repaired=bool(scan.repaired))
        except Exception as error:
            journal.undo()
            self._failed(error)
            return item
        self._drop_if_damaged(scan)
        return item

    # --- scan: read everything, change nothing ---------------------------------------------

    def _scan(self, adapter: MutableMapping[Any, Any], origin: Origin | None) -> _Scan:
        config = self.config
        if origin is None:
            scan = _Scan(source=self._stamped_source(adapter))
        else:
            scan = _Scan(source=origin.source or self._stamped_source(adapter), url=origin.url)
        for key in list(adapter.keys()):
            value = adapter.get(key)
            if key == config.item_field and _is_stamp(value):
                continue
            if key == config.repairs_field and _is_records(value):
                continue
            new = self._visit(scan, value, str(key), 0)
            if new is not _SAME:
                scan.edits.append(_Edit(adapter, key, value, new))
        return scan

    def _visit(self, scan: _Scan, value: Any, path: str, depth: int) -> Any:
        """The new value of *value* at *path*, or ``_SAME``; edits inside go to *scan*."""
        if isinstance(value, str):
            return self._check_text(scan, value, path)
        if isinstance(value, _SCALARS):
            return _SAME
        if depth >= _MAX_DEPTH:
            scan.skipped += 1
            return _SAME
        memo = scan.memo
        ident = id(value)
        if ident in memo:  # shared, or a cycle (marked _SAME while being walked)
            return memo[ident]
        memo[ident] = _SAME
        depth += 1
        new: Any = _SAME
        if isinstance(value, MutableMapping):
            for key in list(value):
                self._visit_slot(scan, value, key, _join(path, key), depth)
        elif isinstance(value, MutableSequence):
            for index in range(len(value)):
                self._visit_slot(scan, value, index, path, depth)
        elif _rebuildable(value):
            elements = list(value)
            changed = False
            for index, element in enumerate(elements):
                element_new = self._visit(scan, element, path, depth)
                if element_new is not _SAME:
                    elements[index] = element_new
                    changed = True
            if changed:
                new = _rebuild(value, elements)
        elif ItemAdapter.is_item(value):
            adapter = ItemAdapter(value)
            for key in list(adapter.keys()):
                self._visit_slot(scan, adapter, key, _join(path, key), depth)
        else:
            scan.skipped += _is_container(value)
        memo[ident] = new
        return new

    def _visit_slot(self, scan: _Scan, container: Any, key: Any, path: str, depth: int) -> None:
        """Visit ``container[key]`` and keep the edit it needs."""
        value = container[key]
        new = self._visit(scan, value, path, depth)
        if new is not _SAME:
            scan.edits.append(_Edit(container, key, value, new))

    def _check_text(self, scan: _Scan, text: str, path: str) -> Any:
        """Inspect one string; its repaired and normalised value, or ``_SAME``."""
        config = self.config
        name = self._bound(path)
        found = scan.found
        if name not in found:
            found[name] = _CLEAN
        form = config.normalize.get(path)
        if form is None and text.isascii():
            return _SAME
        report = inspect_text(text, legacy=config.repair_legacy)
        new = text
        if report.replacement_chars or report.mojibake is not None:
            new = self._damaged(scan, text, name, report)
        if form is not None:
            normalized = unicodedata.normalize(form, new)
            if normalized != new:
                scan.changes.append(_change(name, new, normalized, form.lower()))
                scan.normalized.append(name)
                new = normalized
        if new is text:
            return _SAME
        return new if type(text) is str else type(text)(new)

    def _damaged(self, scan: _Scan, text: str, name: str, report: TextReport) -> str:
        """Record the damage *report* found in *text* at *name*; the repaired value, or
        *text*."""
        config = self.config
        held = scan.found[name]
        kinds: set[str] = held if isinstance(held, set) else set()
        scan.found[name] = kinds
        new = text
        if report.replacement_chars:
            scan.chars += report.replacement_chars
            kinds.add(REPLACEMENT)
            scan.samples.setdefault(name, text)
            scan.still_damaged.add(name)
        if report.mojibake is not None:
            kinds.add(report.mojibake)
            scan.samples.setdefault(name, text)
            repaired = report.repaired
            if config.repair and repaired is not None and repaired != text:
                scan.changes.append(_change(name, text, repaired, report.mojibake, report.rule))
                scan.repaired.append((name, report.mojibake))
                new = repaired
                if report.remaining is not None:
                    # A repair of part of the field: what it left is damage still.
                    kinds.add(report.remaining)
                    scan.partial += 1
                    scan.still_damaged.add(name)
            else:
                if report.remaining is not None:
                    kinds.add(report.remaining)  # what a repair not applied would have left
                scan.still_damaged.add(name)
        return new

    def _stamped_source(self, adapter: MutableMapping[Any, Any]) -> str | None:
        """The source on the item's stamp, for an item the spider middleware did not see."""
        field = self.config.item_field
        if not field:
            return None
        stamp = adapter.get(field)
        if stamp is not None and _is_stamp(stamp):
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

    # --- record: the repairs field -----------------------------------------------------------

    def _record(
        self,
        adapter: MutableMapping[Any, Any],
        item: Any,
        changes: list[dict[str, str]],
        journal: _Journal,
    ) -> None:
        """Add *changes* to the repairs field, unless it holds the user's own value."""
        field = self.config.repairs_field
        assert field is not None
        old = adapter.get(field, _ABSENT)
        previous = None if old is _ABSENT else old
        if not _is_records(previous):
            self._inc(keys.FIELD_TAKEN)
            self._warn_once(
                field,
                type(item),
                "%(cls)s items hold their own value in the %(field)r field: it is left as "
                "it is and repairs are counted in stats only (choose another "
                "CHARSET_REPAIRS_FIELD)",
            )
            return
        try:
            journal.write(_Edit(adapter, field, old, [*(previous or ()), *changes]))
        except KeyError:
            self._inc(keys.UNDECLARED_FIELD)
            self._warn_once(
                field,
                type(item),
                "%(cls)s does not declare the %(field)r field: repairs are counted in stats "
                "but not recorded on the item (declare the field, or unset "
                "CHARSET_REPAIRS_FIELD)",
            )

    # --- report: stats, alerts (alerts.py decides), the optional drop -----------------------

    def _report(self, scan: _Scan) -> None:
        inc = self._inc
        for name, kind in scan.repaired:
            inc(keys.repaired_field(name))
            inc(keys.repaired_kind(kind))
        for name in scan.normalized:
            inc(keys.normalized_field(name))
        if scan.skipped:
            inc(keys.SKIPPED_VALUES, scan.skipped)
        if scan.partial:
            inc(keys.REPAIRED_PARTIAL, scan.partial)
        self._count(scan.found, scan.chars, scan.source)
        self._decide(scan)

    def _count(self, found: dict[str, AbstractSet[str]], chars: int, source: str | None) -> None:
        inc = self._inc
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

    def _drop_if_damaged(self, scan: _Scan) -> None:
        limit = self.config.drop_item_fields
        if limit and len(scan.still_damaged) >= limit:
            self._inc(keys.ITEMS_DROPPED)
            raise CharsetDropItem(
                f"U+FFFD or mojibake left in {len(scan.still_damaged)} field(s): "
                + ", ".join(sorted(scan.still_damaged))
            )

    def _failed(self, error: Exception) -> None:
        internal_error(self._warn, self.stats, "pipeline", "item check", error)

    def _warn_once(self, field: str, cls: type, message: str) -> None:
        name = f"{cls.__module__}.{cls.__qualname__}"
        self._warn((field, name), message, {"cls": name, "field": field})

    # --- deciding (alerts.py) and acting -------------------------------------------------

    def _decide(self, scan: _Scan) -> None:
        repaired: dict[str, set[str]] = {}
        for name, kind in scan.repaired:
            repaired.setdefault(name, set()).add(kind)
        for path, kinds in scan.found.items():
            for alert in self.rules.observe(
                path,
                kinds,
                value=scan.samples.get(path),
                source=scan.source,
                repaired=repaired.get(path, ()),
                url=scan.url,
            ):
                self._alert(alert)
        limit = self.config.close_spider_rate
        if limit and not self._closing:
            hit = self.rules.rate_over(limit)
            if hit is not None:
                self._close(*hit)

    def _alert(self, alert: Alert) -> None:
        self._inc(keys.alert(alert.kind))
        rule = (
            f"{alert.rate:.1%} of {alert.items} items"
            if alert.rule == "rate"
            else f"{alert.rate:.1%} of the last {self.config.alert_window} items, a sudden rise"
        )
        logger.warning(
            "Charset alert: %(kind)s in field %(field)r: %(rule)s; decided by %(sources)s; "
            "%(repairs)se.g. %(samples)r%(pages)s",
            {
                "kind": alert.kind,
                "field": alert.field,
                "rule": rule,
                "sources": ", ".join(f"{k} ({n})" for k, n in alert.sources.items()) or "?",
                "repairs": "" if alert.kind == REPLACEMENT else self._repairs(alert) + "; ",
                "samples": list(alert.samples),
                # On a line of its own: URLs are long, and the line above is read first.
                "pages": f"\n  pages: {', '.join(alert.urls)}" if alert.urls else "",
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
            repaired=alert.repaired,
            urls=list(alert.urls),
            spider=self.crawler.spider,
        )

    def _repairs(self, alert: Alert) -> str:
        """Whether a mojibake alert's values were repaired, for its log line."""
        why = "" if self.config.repair else " (CHARSET_REPAIR_ENABLED is False)"
        if alert.repaired == alert.damaged:
            return "repaired" if alert.damaged == 1 else f"all {alert.damaged} repaired"
        if not alert.repaired:
            return f"none repaired{why}"
        return f"{alert.repaired} of {alert.damaged} repaired"

    # --- closing: what the rules could not judge ---------------------------------------

    def close_spider(self, spider: Any = None) -> None:
        self.sources.clear()
        try:
            self._note_unjudged()
            self._note_pages()
        except Exception as error:  # the closing note must not fail the close
            self._failed(error)

    def _note_unjudged(self) -> None:
        """One INFO line when damage was seen in fields with fewer items than the rate
        rule needs, and no rule fired for it: it would otherwise go unmentioned."""
        unjudged = self.rules.unjudged()
        if not unjudged:
            return
        parts = []
        for entry in unjudged[:_NOTE_FIELDS]:
            kind = "U+FFFD" if entry.kind == REPLACEMENT else entry.kind
            part = f"{entry.field!r} {kind} in {entry.damaged} of {entry.items} items"
            if entry.kind != REPLACEMENT:
                part += f", {entry.repaired or 'none'} repaired"
            parts.append(part)
        if len(unjudged) > _NOTE_FIELDS:
            parts.append(f"and {len(unjudged) - _NOTE_FIELDS} more")
        logger.info(
            "Charset: %(damaged)d damaged values raised no alert: the rate rule judges a field "
            "after CHARSET_ALERT_MIN_ITEMS = %(min_items)d items carrying it, and these had "
            "fewer: %(fields)s",
            {
                "damaged": sum(entry.damaged for entry in unjudged),
                "min_items": self.config.alert_min_items,
                "fields": "; ".join(parts),
            },
            extra={"crawler": self.crawler},
        )

    def _note_pages(self) -> None:
        """One INFO line naming the pages whose items held damage: those left with damage
        first (U+FFFD, or mojibake not repaired), then those whose damage was repaired."""
        pages = self._pages
        parts = []
        if pages.left:
            parts.append(
                f"damage left in the items of {counted(pages.left, 'page')} (U+FFFD, or "
                f"mojibake not repaired): {_urls(pages.left_urls, pages.left)}"
            )
        if pages.repaired:
            parts.append(
                f"repaired in the items of {counted(pages.repaired, 'page')}: "
                f"{_urls(pages.repaired_urls, pages.repaired)}"
            )
        if pages.unknown:
            parts.append(f"{counted(pages.unknown, 'damaged item')} from no known page")
        if parts:
            logger.info(
                "Charset: %(parts)s",
                {"parts": "; ".join(parts)},
                extra={"crawler": self.crawler},
            )

    def _forget(self, item: Any) -> None:
        self.sources.discard(item)

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


class _DamagedPages:
    """The pages whose items held damage: each page counted once per list (its
    :class:`~scrapy_charset.items.stamp.Origin` is shared by its items), the first
    :data:`MAX_PAGES` URLs of each list kept."""

    def __init__(self) -> None:
        self.left = self.repaired = self.unknown = 0
        self.left_urls: list[str] = []
        self.repaired_urls: list[str] = []

    def add(self, origin: Origin | None, *, left: bool, repaired: bool) -> None:
        if origin is None or origin.url is None:
            self.unknown += 1
            return
        if left and not origin.damage_left:
            origin.damage_left = True
            self.left += 1
            if len(self.left_urls) < MAX_PAGES:
                self.left_urls.append(origin.url)
        if repaired and not origin.repaired:
            origin.repaired = True
            self.repaired += 1
            if len(self.repaired_urls) < MAX_PAGES:
                self.repaired_urls.append(origin.url)


def _urls(urls: list[str], count: int) -> str:
    """*urls*, and how many more there were of *count*."""
    more = count - len(urls)
    return ", ".join(urls) + (f" and {more} more" if more else "")


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _is_container(value: Any) -> bool:
    """True for a value that may hold text: it is iterable, or an item."""
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _change(
    path: str, original: str, repaired: str, kind: str, rule: str | None = None
) -> dict[str, str]:
    change = {"field": path, "original": original, "repaired": repaired, "kind": kind}
    if rule is not None:
        change["rule"] = rule  # the rule that found the damage (TextReport.rule)
    return change
