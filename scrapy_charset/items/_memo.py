"""The item checks' memos: of a function of one text, keeping short texts only; and of a
function of one character, keeping a bounded table (:class:`Table`).

The item checks ask the same questions of the same short texts again and again (a word's
readings, a field's score under the pair table), so their answers are kept. A long text
(a page's whole text in one field) is asked about again only while its own field is
inspected (the field as given, against each reading of it), and keeping many would hold
their memory: up to the memo's size times the longest field of a crawl. So the answers
about texts longer than :data:`LONGEST` are kept for the last :data:`LONG_TEXTS` of them
only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["LONGEST", "LONG_TEXTS", "TABLE_SIZE", "ShortMemo", "Table", "short_memo"]

T = TypeVar("T")
K = TypeVar("K")

#: The longest text a memo keeps among its *size*, and the longest value whose whole
#: report is kept (:data:`.inspection.KEPT_LENGTH`).
LONGEST = 512
#: How many longer texts a memo keeps.
LONG_TEXTS = 4


class ShortMemo(Generic[T]):
    """*function* of one text, its answers kept for the last *size* texts of at most
    :data:`LONGEST` characters and the last :data:`LONG_TEXTS` longer ones."""

    def __init__(self, function: Callable[[str], T], size: int) -> None:
        self._function = function
        self._kept = functools.lru_cache(maxsize=size)(function)
        self._kept_long = functools.lru_cache(maxsize=LONG_TEXTS)(function)
        functools.update_wrapper(self, function)

    def __call__(self, text: str) -> T:
        return self._kept(text) if len(text) <= LONGEST else self._kept_long(text)

    def cache_clear(self) -> None:
        """Forget every answer kept."""
        self._kept.cache_clear()
        self._kept_long.cache_clear()


def short_memo(size: int) -> Callable[[Callable[[str], T]], ShortMemo[T]]:
    """A decorator: :class:`ShortMemo` of *size* texts."""
    return lambda function: ShortMemo(function, size)


#: The most entries a :class:`Table` keeps: real text uses a few thousand characters, and
#: a hostile field of every code point must not grow a table without bound.
TABLE_SIZE = 1 << 14


class Table(dict[K, T]):
    """*function*'s value of each key (a character, or its code point for
    ``str.translate``), filled as keys come; past :data:`TABLE_SIZE` keys, a value is
    given and not kept."""

    def __init__(self, function: Callable[[K], T]) -> None:
        super().__init__()
        self._function = function

    def __missing__(self, key: K) -> T:
        value = self._function(key)
        if len(self) < TABLE_SIZE:
            self[key] = value
        return value
