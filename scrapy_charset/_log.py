"""Warnings once per key: the one helper every component logs repeated conditions through.

A component keeps one :class:`Once` and calls it with a key (a domain and a reason, an item
class, a label...): the first call per key logs, the later ones return False and only the
stats go on counting. The keys are bounded: past *limit* distinct keys one last line says
so and the rest are silent, so a broad crawl's memory stays flat.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Hashable, Mapping
from typing import Any

from scrapy_charset import stats as keys

__all__ = ["MAX_KEYS", "Once", "counted", "disabled_notice", "internal_error", "once_per_crawler"]

logger = logging.getLogger(__name__)

#: Distinct keys one :class:`Once` logs before it falls silent.
MAX_KEYS = 1000


def counted(count: int, noun: str, plural: str = "") -> str:
    """``"1 response"``, ``"17 responses"``: a count and its noun, in the number it takes.

    >>> counted(1, "response"), counted(0, "declaration"), counted(2, "entry", "entries")
    ('1 response', '0 declarations', '2 entries')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


class Once:
    """Log each key's message the first time only, for at most *limit* keys.

    *extra* is passed to every log call (``{"spider": ...}`` or ``{"crawler": ...}`` as
    Scrapy components do).
    """

    def __init__(
        self,
        logger: logging.Logger,
        *,
        limit: int = MAX_KEYS,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.logger = logger
        self.limit = limit
        self.extra = dict(extra or {})
        self._seen: set[Hashable] = set()
        self._full = False

    def __contains__(self, key: Hashable) -> bool:
        return key in self._seen

    def __call__(
        self,
        key: Hashable,
        message: str,
        args: Mapping[str, Any] | None = None,
        *,
        level: int = logging.WARNING,
        exc_info: bool | BaseException = False,
    ) -> bool:
        """Log *message* % *args* at *level* if *key* is new; True when it was logged."""
        if key in self._seen or self._full:
            return False
        if len(self._seen) >= self.limit:
            self._full = True
            self.logger.log(
                level,
                "%(count)d distinct warnings of this kind were logged; further ones are only "
                "counted in the charset/ stats.",
                {"count": self.limit},
                extra=self.extra,
            )
            return False
        self._seen.add(key)
        if args:
            self.logger.log(level, message, args, exc_info=exc_info, extra=self.extra)
        else:
            self.logger.log(level, message, exc_info=exc_info, extra=self.extra)
        return True


_PER_CRAWLER: weakref.WeakKeyDictionary[Any, set[Hashable]] = weakref.WeakKeyDictionary()


def once_per_crawler(crawler: Any, key: Hashable) -> bool:
    """True the first time *key* is seen for *crawler*: for a notice several components
    could give (the add-on and the components listed by hand), given once per crawl."""
    seen = _PER_CRAWLER.setdefault(crawler, set())
    if key in seen:
        return False
    seen.add(key)
    return True


def disabled_notice(crawler: Any) -> None:
    """The one INFO line of a crawl with ``CHARSET_ENABLED = False``, whichever component
    (the add-on, or one listed by hand) sees the setting first."""
    if once_per_crawler(crawler, "disabled"):
        logger.info(
            "scrapy-charset is off (CHARSET_ENABLED = False): its downloader middleware, "
            "item pipeline and item stamp are not enabled.",
            extra={"crawler": crawler},
        )


def internal_error(warn: Once, stats: Any, component: str, what: str, error: Exception) -> None:
    """An internal error of an item component: counted in ``charset/errors/<component>``
    and logged, with its traceback, once per exception type through *warn*. The caller
    lets the item through as it came."""
    try:
        stats.inc_value(keys.error(component))
    except Exception:  # a failing stats collector: the log line still tells
        logger.debug("could not count the error", exc_info=True)
    kind = f"{type(error).__module__}.{type(error).__qualname__}"
    warn(
        ("error", kind),
        "Charset %(what)s failed (%(kind)s); the item passes through unchanged. "
        "Further %(kind)s errors are counted in charset/errors/%(component)s only",
        {"what": what, "kind": kind, "component": component},
        level=logging.ERROR,
        exc_info=error,
    )
