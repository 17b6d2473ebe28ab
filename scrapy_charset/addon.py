"""The Scrapy add-on: ``ADDONS = {"scrapy_charset.Addon": 0}`` enables every component.

Each component has its own ``_add_*`` method. A component the project already lists in its
setting (even as ``None``, to disable it) is left as the project wrote it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.utils.misc import load_object

from scrapy_charset.middleware import CharsetMiddleware

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["DEFAULT_PRIORITY", "Addon", "middleware_priority"]

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


def middleware_priority(base: Mapping[Any, Any], custom: Mapping[Any, Any]) -> float:
    """Where :class:`CharsetMiddleware` goes among the project's downloader middlewares.

    *base* is ``DOWNLOADER_MIDDLEWARES_BASE`` and *custom* the project's
    ``DOWNLOADER_MIDDLEWARES`` (a ``None`` priority disables a component). ``process_response``
    runs in decreasing priority, so the middleware must come below every decompressor
    (it then sees decoded bodies) and above every meta-refresh reader (the first to read
    ``.text``): the midpoint when both exist, 585 with Scrapy's defaults. When a project has
    put them the other way round, seeing decompressed bodies wins.
    """
    merged: dict[Any, Any] = {}
    for components in (base, custom):
        for key, priority in components.items():
            merged[_loaded(key)] = priority
    enabled = {key: value for key, value in merged.items() if value is not None}
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

    def update_settings(self, settings: BaseSettings) -> None:
        self._add_middleware(settings)
        self._add_item_checks(settings)
        self._add_item_stamp(settings)

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
        if not settings.getbool("CHARSET_ITEM_CHECKS_ENABLED", True):
            return
        from scrapy_charset.items.pipeline import CharsetPipeline

        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", CharsetPipeline, ITEM_PIPELINE_PRIORITY
        )

    def _add_item_stamp(self, settings: BaseSettings) -> None:
        """The item stamp spider middleware, when ``CHARSET_ITEM_FIELD`` names a field."""
        if not settings.get("CHARSET_ITEM_FIELD"):
            return
        from scrapy_charset.items.stamp import CharsetItemStampMiddleware

        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", CharsetItemStampMiddleware, ITEM_STAMP_PRIORITY
        )
