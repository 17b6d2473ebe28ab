"""The Scrapy add-on: ``ADDONS = {"scrapy_charset.Addon": 0}`` enables every component.

Before enabling anything it reads every ``CHARSET_*`` setting through the config objects:
an invalid value stops the crawl there, before the first request, with one line naming the
setting (:exc:`~scrapy_charset.responses.config.CharsetSettingsError`); ``CHARSET_ENABLED = False``
enables nothing, with one INFO line. Each component has its own ``_add_*`` method. A
component the project already lists in its setting (even as ``None``, to disable it) is
left as the project wrote it.
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.utils.misc import load_object

from scrapy_charset._log import disabled_notice
from scrapy_charset._placement import built_in_wrong_role
from scrapy_charset._settings import SETTINGS, stops_the_crawl
from scrapy_charset.items.config import ItemChecksConfig
from scrapy_charset.responses.config import CharsetConfig
from scrapy_charset.responses.middleware import CharsetMiddleware

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from typing_extensions import Self

__all__ = ["DEFAULT_PRIORITY", "Addon", "middleware_priority", "misplaced_priority"]

logger = logging.getLogger(__name__)

#: Between MetaRefreshMiddleware (580) and HttpCompressionMiddleware (590).
DEFAULT_PRIORITY = 585
#: Early, so that later pipelines see repaired text.
ITEM_PIPELINE_PRIORITY = 50
ITEM_STAMP_PRIORITY = 550
_GAP = 5


def _loaded(key: Any) -> Any:
    """The component a priority-dict key names (import paths resolved, as Scrapy does)."""
    if not isinstance(key, str):
        return key
    try:
        return load_object(key)
    except (ImportError, NameError, ValueError):
        return key


def _priorities(components: Mapping[Any, Any], base: type) -> list[float]:
    """The priorities of the components that are *base* or a subclass of it."""
    return [
        priority
        for component, priority in components.items()
        if isinstance(component, type) and issubclass(component, base)
    ]


def _enabled(base: Mapping[Any, Any], custom: Mapping[Any, Any]) -> dict[Any, Any]:
    """The enabled components of *base* updated by *custom*, keys loaded (a ``None``
    priority disables a component)."""
    merged: dict[Any, Any] = {}
    for components in (base, custom):
        for key, priority in components.items():
            merged[_loaded(key)] = priority
    return {key: value for key, value in merged.items() if value is not None}


def misplaced_priority(
    base: Mapping[Any, Any], custom: Mapping[Any, Any], middleware: type = CharsetMiddleware
) -> tuple[float, float, float] | None:
    """``(listed, decompressor, advised)`` when *custom* lists *middleware* at or above a
    decompressor's priority (it would see compressed bodies), else None; *advised* is the
    priority the add-on would give it."""
    enabled = _enabled(base, custom)
    listed = _priorities(enabled, middleware)
    compression = _priorities(enabled, HttpCompressionMiddleware)
    if not listed or not compression or max(listed) < min(compression):
        return None
    others = {key: value for key, value in custom.items() if _loaded(key) is not middleware}
    return max(listed), min(compression), middleware_priority(base, others)


def middleware_priority(base: Mapping[Any, Any], custom: Mapping[Any, Any]) -> float:
    """Where :class:`CharsetMiddleware` goes among the project's downloader middlewares.

    *base* is ``DOWNLOADER_MIDDLEWARES_BASE`` and *custom* the project's
    ``DOWNLOADER_MIDDLEWARES`` (a ``None`` priority disables a component). ``process_response``
    runs in decreasing priority, so the middleware must come below every decompressor
    (it then sees decoded bodies) and above every meta-refresh reader (the first to read
    ``.text``): the midpoint when both exist, 585 with Scrapy's defaults. When a project has
    put them the other way round, seeing decompressed bodies wins.
    """
    enabled = _enabled(base, custom)
    refresh = _priorities(enabled, MetaRefreshMiddleware)
    compression = _priorities(enabled, HttpCompressionMiddleware)
    if not refresh and not compression:
        return DEFAULT_PRIORITY
    if not compression:
        return max(refresh) + _GAP
    if not refresh or max(refresh) >= min(compression):
        return min(compression) - _GAP
    middle = (max(refresh) + min(compression)) / 2
    return int(middle) if middle == int(middle) else middle


class Addon:
    """Enables scrapy-charset with its defaults; configure it with ``CHARSET_*`` settings."""

    def __init__(self, crawler: Crawler | None = None) -> None:
        self.crawler = crawler
        #: What :meth:`update_settings` enabled, for the repr (Scrapy's "Enabled addons").
        self.enabled: list[str] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        from scrapy.exceptions import NotConfigured

        if built_in_wrong_role(crawler, cls):
            raise NotConfigured
        return cls(crawler)

    def __repr__(self) -> str:
        if self.enabled is None:
            return "<scrapy-charset add-on>"
        if not self.enabled:
            return "<scrapy-charset add-on: off (CHARSET_ENABLED = False)>"
        return f"<scrapy-charset add-on: {', '.join(self.enabled)}>"

    def update_settings(self, settings: BaseSettings) -> None:
        """Check every ``CHARSET_*`` setting, then enable the components.

        :raises CharsetSettingsError: for an invalid value; Scrapy stops the crawl.
        """
        with stops_the_crawl():
            response_side = CharsetConfig.from_settings(settings)
            item_side = ItemChecksConfig.from_settings(settings)
        _warn_unknown_names(settings)
        self.enabled = []
        if not response_side.enabled:
            if self.crawler is not None:
                disabled_notice(self.crawler)
            return
        self._add_middleware(settings)
        self.enabled.append("response decoding")
        if item_side.enabled:
            self._add_item_checks(settings)
            self.enabled.append("item checks")
        if item_side.enabled or item_side.item_field:
            self._add_item_stamp(settings)
            self.enabled.append("item stamp")

    def _add_middleware(self, settings: BaseSettings) -> None:
        priority = middleware_priority(
            settings.getdict("DOWNLOADER_MIDDLEWARES_BASE"),
            settings.getdict("DOWNLOADER_MIDDLEWARES"),
        )
        # Scrapy accepts any real number as a priority (build_component_list checks
        # numbers.Real) though the method is annotated with int: two adjacent neighbours
        # leave only a fractional place between them.
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES",
            CharsetMiddleware,
            priority,  # type: ignore[arg-type]
        )

    def _add_item_checks(self, settings: BaseSettings) -> None:
        """The item pipeline (``CHARSET_ITEM_CHECKS_ENABLED``, on by default)."""
        from scrapy_charset.items.pipeline import CharsetPipeline

        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", CharsetPipeline, ITEM_PIPELINE_PRIORITY
        )

    def _add_item_stamp(self, settings: BaseSettings) -> None:
        """The item stamp spider middleware: it tells the pipeline each item's decision
        source and, when ``CHARSET_ITEM_FIELD`` names a field, stamps the items."""
        from scrapy_charset.items.stamp import CharsetItemStampMiddleware

        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", CharsetItemStampMiddleware, ITEM_STAMP_PRIORITY
        )


def _warn_unknown_names(settings: BaseSettings) -> None:
    """One warning per ``CHARSET_*`` setting the package does not read: a misspelt name
    would otherwise leave its default silently in force."""
    for name in sorted(key for key in settings if isinstance(key, str)):
        if not name.startswith("CHARSET_") or name in SETTINGS:
            continue
        close = difflib.get_close_matches(name, SETTINGS, n=1)
        logger.warning(
            "%(name)s is not a scrapy-charset setting and is ignored%(hint)s",
            {"name": name, "hint": f"; did you mean {close[0]}?" if close else "."},
        )
