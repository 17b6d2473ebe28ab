# Spidermon ships no type hints, and the suite has a stand-in without it:
# mypy: disable-error-code="no-redef,untyped-decorator,misc,assignment"
"""A Spidermon monitor suite failing a job on charset damage (extra ``[spidermon]``).

Add it to the spider-close monitors::

    SPIDERMON_ENABLED = True
    SPIDERMON_SPIDER_CLOSE_MONITORS = ("scrapy_charset.items.monitors.CharsetMonitorSuite",)

It reads the stats the item pipeline wrote, with these settings (read and checked with the
others in :class:`~scrapy_charset.items.config.ItemChecksConfig`):

- ``CHARSET_MONITOR_MAX_ALERTS`` (default ``0``): the most ``charset/alerts/*`` allowed;
- ``CHARSET_MONITOR_MAX_REPLACEMENT_RATE`` (default ``0.01``): the largest share of
  checked items holding U+FFFD;
- ``CHARSET_MONITOR_MAX_MOJIBAKE_RATE`` (default ``0.01``): the largest share of checked
  items holding mojibake (repaired or not).

Without Spidermon installed this module still imports; using the suite then raises an
``ImportError`` that says what to install.

Spidermon's ``BaseStatMonitor`` compares one stat with a threshold and fails (or skips)
when the stat is missing. Neither check fits it: alerts are a family of stats
(``charset/alerts/<kind>``), the rates divide two stats, and a missing damage stat means
no damage (a pass). So the monitors are plain Spidermon monitors.
"""

from __future__ import annotations

from typing import Any

from scrapy_charset import stats as keys
from scrapy_charset._log import counted
from scrapy_charset.items.config import ItemChecksConfig

__all__ = ["CharsetMonitor", "CharsetMonitorSuite"]

_ALERTS_PREFIX = keys.alert("")


def _config(monitor: Any) -> ItemChecksConfig:
    """The item side's settings, from the crawler Spidermon hands to monitors."""
    crawler = getattr(monitor.data, "crawler", None)
    if crawler is None:
        return ItemChecksConfig()
    return ItemChecksConfig.from_settings(crawler.settings)


try:
    from spidermon import Monitor, MonitorSuite, monitors
except ImportError as error:  # pragma: no cover - exercised without the extra
    _MISSING = error

    class CharsetMonitorSuite:
        """Placeholder: Spidermon is not installed."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError(
                "scrapy_charset.items.monitors needs Spidermon: "
                "pip install 'scrapy-charset[spidermon]'"
            ) from _MISSING

    CharsetMonitor = CharsetMonitorSuite
else:

    @monitors.name("Charset")
    class CharsetMonitor(Monitor):
        """Charset alerts, U+FFFD and mojibake within the job's thresholds."""

        @monitors.name("Charset alerts within CHARSET_MONITOR_MAX_ALERTS")
        def test_alerts(self) -> None:
            stats = self.data.stats
            alerts = sum(v for k, v in stats.items() if k.startswith(_ALERTS_PREFIX))
            limit = _config(self).monitor_max_alerts
            kinds = sorted(k[len(_ALERTS_PREFIX) :] for k in stats if k.startswith(_ALERTS_PREFIX))
            self.assertLessEqual(  # noqa: PT009 - Spidermon monitors are unittest cases
                alerts, limit, msg=f"{alerts} charset alert(s) ({', '.join(kinds)}), max {limit}"
            )

        @monitors.name("U+FFFD within CHARSET_MONITOR_MAX_REPLACEMENT_RATE")
        def test_replacement_rate(self) -> None:
            self._rate(keys.REPLACEMENT_ITEMS, _config(self).monitor_max_replacement, "U+FFFD")

        @monitors.name("Mojibake within CHARSET_MONITOR_MAX_MOJIBAKE_RATE")
        def test_mojibake_rate(self) -> None:
            self._rate(keys.MOJIBAKE_ITEMS, _config(self).monitor_max_mojibake, "mojibake")

        def _rate(self, key: str, limit: float, what: str) -> None:
            stats = self.data.stats
            checked = int(stats.get(keys.ITEMS_CHECKED, 0))
            damaged = int(stats.get(key, 0))
            rate = damaged / checked if checked else 0.0
            self.assertLessEqual(  # noqa: PT009
                rate,
                limit,
                msg=f"{what} in {damaged} of {counted(checked, 'item')} ({rate:.2%}), "
                f"max {limit:.2%}",
            )

    class CharsetMonitorSuite(MonitorSuite):
        """The charset monitors, for ``SPIDERMON_SPIDER_CLOSE_MONITORS``."""

        monitors = [CharsetMonitor]  # noqa: RUF012
