# Spidermon ships no type hints, and the suite has a stand-in without it:
# mypy: disable-error-code="no-redef,untyped-decorator,misc,assignment"
"""A Spidermon monitor suite failing a job on charset damage (extra ``[spidermon]``).

Add it to the spider-close monitors::

    SPIDERMON_ENABLED = True
    SPIDERMON_SPIDER_CLOSE_MONITORS = ("scrapy_charset.items.monitors.CharsetMonitorSuite",)

It reads the stats the item pipeline wrote, with these settings:

- ``CHARSET_MONITOR_MAX_ALERTS`` (default ``0``): the most ``charset/alerts/*`` allowed;
- ``CHARSET_MONITOR_MAX_REPLACEMENT_RATE`` (default ``0.01``): the largest share of
  checked items holding U+FFFD;
- ``CHARSET_MONITOR_MAX_MOJIBAKE_RATE`` (default ``0.01``): the largest share of checked
  items holding mojibake (repaired or not).

Without Spidermon installed this module still imports; using the suite then raises an
``ImportError`` that says what to install.
"""

from __future__ import annotations

from typing import Any

from scrapy_charset import stats as keys

__all__ = ["CharsetMonitor", "CharsetMonitorSuite"]

_ALERTS_PREFIX = keys.alert("")


def _settings(monitor: Any) -> Any:
    """The crawler's settings, from the data Spidermon hands to monitors."""
    crawler = getattr(monitor.data, "crawler", None)
    return crawler.settings if crawler is not None else None


def _get(settings: Any, name: str, default: float) -> float:
    if settings is None:
        return default
    return float(settings.getfloat(name, default))


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
            limit = int(_get(_settings(self), "CHARSET_MONITOR_MAX_ALERTS", 0))
            kinds = sorted(k[len(_ALERTS_PREFIX) :] for k in stats if k.startswith(_ALERTS_PREFIX))
            self.assertLessEqual(  # noqa: PT009 - Spidermon monitors are unittest cases
                alerts, limit, msg=f"{alerts} charset alert(s) ({', '.join(kinds)}), max {limit}"
            )

        @monitors.name("U+FFFD within CHARSET_MONITOR_MAX_REPLACEMENT_RATE")
        def test_replacement_rate(self) -> None:
            self._rate(keys.REPLACEMENT_ITEMS, "CHARSET_MONITOR_MAX_REPLACEMENT_RATE", "U+FFFD")

        @monitors.name("Mojibake within CHARSET_MONITOR_MAX_MOJIBAKE_RATE")
        def test_mojibake_rate(self) -> None:
            self._rate(keys.MOJIBAKE_ITEMS, "CHARSET_MONITOR_MAX_MOJIBAKE_RATE", "mojibake")

        def _rate(self, key: str, setting: str, what: str) -> None:
            stats = self.data.stats
            checked = int(stats.get(keys.ITEMS_CHECKED, 0))
            damaged = int(stats.get(key, 0))
            limit = _get(_settings(self), setting, 0.01)
            rate = damaged / checked if checked else 0.0
            self.assertLessEqual(  # noqa: PT009
                rate,
                limit,
                msg=f"{what} in {damaged} of {checked} items ({rate:.2%}), max {limit:.2%}",
            )

    class CharsetMonitorSuite(MonitorSuite):
        """The charset monitors, for ``SPIDERMON_SPIDER_CLOSE_MONITORS``."""

        monitors = [CharsetMonitor]  # noqa: RUF012
