"""Reading ``CHARSET_*`` settings: one reader for the response side and the item side.

Every value is checked when the crawler starts. An invalid one raises
:exc:`CharsetSettingsError`, whose message is one line naming the setting, the value given
and what is accepted. (:exc:`scrapy.exceptions.NotConfigured` is not used for invalid
values: it only disables one component, and the crawl would go on without it.)

On the crawl's start-up path (the add-on's ``update_settings``, a component's
``from_crawler``) the error goes through :func:`stops_the_crawl`: that one line is logged
at ERROR, and the exception is raised on, so Scrapy stops the crawl before the first
request and ``scrapy crawl`` exits with status 1. Scrapy has no way for a component to
stop a crawl with one line: it leaves an exception from ``Crawler.crawl()`` to asyncio
("Task exception was never retrieved") or Twisted ("Unhandled error in Deferred"), which
print its traceback when the crawl's task or Deferred is collected. A filter on those two
loggers drops that second report of an error already logged, and only of such an error.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["SETTINGS", "CharsetSettingsError", "SettingsReader", "shown", "stops_the_crawl"]

logger = logging.getLogger(__name__)

#: Every setting the package reads; a ``CHARSET_*`` name outside it is reported as a
#: likely typo.
SETTINGS = frozenset(
    {
        "CHARSET_ENABLED",
        "CHARSET_DETECTOR",
        "CHARSET_DETECT_WINDOW",
        "CHARSET_DETECT_TLD",
        "CHARSET_DEFAULT_ENCODING",
        "CHARSET_SKIP_CONTENT_TYPES",
        "CHARSET_ITEM_CHECKS_ENABLED",
        "CHARSET_ITEM_FIELD",
        "CHARSET_REPAIRS_FIELD",
        "CHARSET_REPAIR_ENABLED",
        "CHARSET_REPAIR_LEGACY",
        "CHARSET_NORMALIZE",
        "CHARSET_ALERT_RATE",
        "CHARSET_ALERT_MIN_ITEMS",
        "CHARSET_ALERT_WINDOW",
        "CHARSET_ALERT_RISE",
        "CHARSET_ALERT_SAMPLES",
        "CHARSET_DROP_ITEM_FIELDS",
        "CHARSET_CLOSE_SPIDER_RATE",
        "CHARSET_MAX_FIELD_PATHS",
        "CHARSET_MONITOR_MAX_ALERTS",
        "CHARSET_MONITOR_MAX_REPLACEMENT_RATE",
        "CHARSET_MONITOR_MAX_MOJIBAKE_RATE",
    }
)

#: The most characters of a value an error message repeats.
_SHOWN = 80

_TRUE = frozenset({"1", "true"})
_FALSE = frozenset({"0", "false"})


def shown(value: Any, limit: int = _SHOWN) -> str:
    """``repr(value)``, cut to *limit* characters with the full length said."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


class CharsetSettingsError(ValueError):
    """An invalid ``CHARSET_*`` setting. ``setting``, ``value`` and ``accepted`` say which,
    what was given and what is accepted; the message says all three on one line."""

    # Shown in tracebacks under the module users import it from.
    __module__ = "scrapy_charset"

    #: True once :func:`stops_the_crawl` has logged the message.
    reported = False

    def __init__(self, setting: str, value: Any, accepted: str, problem: str = "") -> None:
        self.setting = setting
        self.value = value
        self.accepted = accepted
        what = f" ({problem})" if problem else ""
        super().__init__(
            f"{setting} = {shown(value)} is not valid{what}; accepted: {accepted}. "
            f"Fix it, or remove it to use the default."
        )


def _reported(record: logging.LogRecord) -> bool:
    """False for a record that repeats, with its traceback, an error already logged."""
    error = record.exc_info[1] if record.exc_info else None
    return not (isinstance(error, CharsetSettingsError) and error.reported)


#: Where Scrapy's runners leave an exception from ``Crawler.crawl()``: asyncio's handler
#: of a task's unretrieved exception, and Twisted's unhandled error in a Deferred (which
#: Scrapy forwards to the ``twisted`` logger).
_REPEATERS = ("asyncio", "twisted")


@contextmanager
def stops_the_crawl() -> Iterator[None]:
    """Around reading settings on the crawl's start-up path: a
    :exc:`CharsetSettingsError` is logged as one ERROR line, and raised on so that
    Scrapy stops the crawl (``scrapy crawl`` exits with status 1); its traceback is not
    printed again when Scrapy's runner reports the failed crawl."""
    try:
        yield
    except CharsetSettingsError as error:
        if not error.reported:
            error.reported = True
            logger.error("%s", error)
            for name in _REPEATERS:
                repeater = logging.getLogger(name)
                if _reported not in repeater.filters:
                    repeater.addFilter(_reported)
        raise


class SettingsReader:
    """Typed, checked reads of one crawler's settings (a Scrapy ``BaseSettings``).

    A setting that is missing or ``None`` gives the default. Each method raises
    :exc:`CharsetSettingsError` for a value of the wrong type or out of range.
    """

    def __init__(self, settings: BaseSettings) -> None:
        self.settings = settings

    def raw(self, name: str) -> Any:
        return self.settings.get(name)

    def boolean(self, name: str, default: bool) -> bool:
        """``True``/``False``, ``1``/``0`` or their strings (as ``Settings.getbool``)."""
        value = self.raw(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise CharsetSettingsError(name, value, "True or False")

    def integer(self, name: str, default: int, *, minimum: int) -> int:
        """A whole number (or its string) of at least *minimum*."""
        value = self.raw(name)
        if value is None:
            return default
        accepted = f"a whole number of {minimum} or more"
        number: int | None = None
        if isinstance(value, bool):
            number = None
        elif isinstance(value, int):
            number = value
        elif isinstance(value, float) and value.is_integer():
            number = int(value)
        elif isinstance(value, str):
            try:
                number = int(value.strip())
            except ValueError:
                number = None
        if number is None or number < minimum:
            raise CharsetSettingsError(name, value, accepted)
        return number

    def share(self, name: str, default: float) -> float:
        """A share between 0 and 1 (a number, or its string)."""
        value = self.raw(name)
        if value is None:
            return default
        number: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            try:
                number = float(value.strip())
            except ValueError:
                number = None
        if number is None or math.isnan(number) or not 0.0 <= number <= 1.0:
            raise CharsetSettingsError(name, value, "a share between 0 and 1, such as 0.05")
        return number

    def name(self, name: str) -> str | None:
        """A non-empty string (an item field name), or None when unset or empty."""
        value = self.raw(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str) or not value.strip():
            raise CharsetSettingsError(name, value, "a field name such as 'encoding'")
        return value.strip()

    def choice(self, name: str, default: str, choices: Iterable[str]) -> str:
        """One of *choices*, compared without case and surrounding spaces."""
        value = self.raw(name)
        if value is None:
            return default
        known = {choice.lower(): choice for choice in choices}
        key = value.strip().lower() if isinstance(value, str) else None
        if key is None or key not in known:
            raise CharsetSettingsError(name, value, ", ".join(repr(c) for c in known.values()))
        return known[key]

    def mapping(self, name: str, accepted: str) -> Mapping[Any, Any]:
        """A dict, or its JSON string (as ``Settings.getdict``); empty when unset."""
        value = self.raw(name)
        if value is None or value == "":
            return {}
        try:
            return dict(self.settings.getdict(name))
        except (TypeError, ValueError):
            raise CharsetSettingsError(name, value, accepted) from None
