"""Check one text value for the traces of a bad decoding: U+FFFD and mojibake.

:func:`inspect_text` is what the item pipeline runs on every string field, and what users
can call in their own code and tests::

    >>> from scrapy_charset import inspect_text
    >>> report = inspect_text("CafÃ© crÃ¨me")
    >>> report.mojibake, report.repaired, report.lossy
    ('utf8-as-windows-1252', 'Café crème', False)

It is fast on clean text: pure ASCII, and text without any mark that mojibake is made of
(:func:`~scrapy_charset.items.mojibake.badness.scan`), return at once. It returns a
report for every string and never raises: an internal error is logged once per exception
type, and the report then gives only the count of U+FFFD.

The inspection itself is :mod:`.inspection`.
"""

from __future__ import annotations

import logging

from scrapy_charset.items.inspection import TextReport, inspect_unguarded, replacements_only

logger = logging.getLogger(__name__)

__all__ = ["TextReport", "inspect_text", "inspect_unguarded"]


def inspect_text(value: str, *, legacy: bool = False) -> TextReport:
    """Look for U+FFFD and mojibake in *value*, and repair what can be repaired safely.

    By default only the exact inverses are applied (UTF-8 read as windows-1252, latin-1 or
    windows-1251, and double-encoded UTF-8), segment by segment, and only with the evidence
    :mod:`scrapy_charset.items.mojibake.badness` defines. With ``legacy=True``, the
    repairs that choose an encoding are applied too: legacy CJK or Cyrillic read as
    windows-1252, UTF-8 read as Shift_JIS, other single-byte encodings, C1 controls.
    Nothing else in the text is ever changed. A field that reads both as UTF-8 mojibake
    and as a legacy encoding is given its exact UTF-8 reading.
    """
    if not isinstance(value, str):
        raise TypeError(f"inspect_text() argument 'value' must be str, not {type(value).__name__}")
    try:
        return inspect_unguarded(value, legacy=legacy)
    except Exception as error:  # users' data is never lost to a bug of this check
        if type(error) not in _LOGGED:
            _LOGGED.add(type(error))
            logger.error("inspect_text failed on a %d-character value", len(value), exc_info=True)
        return replacements_only(value.count("\ufffd"))


_LOGGED: set[type[BaseException]] = set()
