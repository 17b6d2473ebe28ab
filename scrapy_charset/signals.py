"""Signals sent by scrapy-charset, for ``crawler.signals.connect(handler, signal=...)``."""

from __future__ import annotations

__all__ = ["charset_alert"]

#: Sent once per item field and kind of damage when an alert rule fires. Arguments:
#: ``alert`` (a :class:`scrapy_charset.items.alerts.Alert`), its ``field``, ``kind``,
#: ``rule``, ``rate``, ``samples``, ``sources`` (decision source -> damaged items),
#: ``repaired``, ``urls`` (up to three pages the damaged values came from) and ``spider``.
charset_alert = object()
