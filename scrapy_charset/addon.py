"""The add-on: ``ADDONS = {"scrapy_charset.Addon": 0}`` enables everything."""

from __future__ import annotations

from typing import Any

__all__ = ["Addon"]

ITEM_PIPELINE_PRIORITY = 50  # early: later pipelines see repaired text
ITEM_STAMP_PRIORITY = 550


class Addon:
    """Enable scrapy-charset's components; components a user listed by hand are left alone."""

    def update_settings(self, settings: Any) -> None:
        self._enable_item_checks(settings)
        self._enable_item_stamp(settings)

    @staticmethod
    def _enable_item_checks(settings: Any) -> None:
        """The item pipeline (``CHARSET_ITEM_CHECKS_ENABLED``, on by default)."""
        if not settings.getbool("CHARSET_ITEM_CHECKS_ENABLED", True):
            return
        from scrapy_charset.pipeline import CharsetPipeline

        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", CharsetPipeline, ITEM_PIPELINE_PRIORITY
        )

    @staticmethod
    def _enable_item_stamp(settings: Any) -> None:
        """The item stamp spider middleware, when ``CHARSET_ITEM_FIELD`` names a field."""
        if not settings.get("CHARSET_ITEM_FIELD"):
            return
        from scrapy_charset.itemstamp import CharsetItemStampMiddleware

        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", CharsetItemStampMiddleware, ITEM_STAMP_PRIORITY
        )
