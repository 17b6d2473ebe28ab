"""A memo of a function of one text that keeps short texts only.

The item checks ask the same questions of the same short texts again and again (a word's
readings, a field's score under the pair table), so their answers are kept. A long text
(a page's whole text in one field) is seldom asked about twice, and keeping it would hold
its memory: up to the memo's size times the longest field of a crawl. A text longer than
:data:`LONGEST` is answered afresh each time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["LONGEST", "ShortMemo", "short_memo"]

T = TypeVar("T")

#: The longest text a memo keeps (as :data:`.inspection.KEPT_LENGTH` for whole reports).
LONGEST = 512


class ShortMemo(Generic[T]):
    """*function* of one text, its answers kept for the last *size* texts of at most
    :data:`LONGEST` characters."""

    def __init__(self, function: Callable[[str], T], size: int) -> None:
        self._function = function
        self._kept = functools.lru_cache(maxsize=size)(function)
        functools.update_wrapper(self, function)

    def __call__(self, text: str) -> T:
        return self._kept(text) if len(text) <= LONGEST else self._function(text)

    def cache_clear(self) -> None:
        """Forget every answer kept."""
        self._kept.cache_clear()


def short_memo(size: int) -> Callable[[Callable[[str], T]], ShortMemo[T]]:
    """A decorator: :class:`ShortMemo` of *size* texts."""
    return lambda function: ShortMemo(function, size)
