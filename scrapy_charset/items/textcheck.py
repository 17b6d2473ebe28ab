"""Check one text value for the traces of a bad decoding: U+FFFD and mojibake.

:func:`inspect_text` is what the item pipeline runs on every string field, and what users
can call in their own code and tests::

    >>> from scrapy_charset import inspect_text
    >>> report = inspect_text("CafÃ© crÃ¨me")
    >>> report.mojibake, report.repaired, report.lossy
    ('utf8-as-windows-1252', 'Café crème', False)

It is fast on clean text: pure ASCII, and text without any character that mojibake is
made of, return at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from scrapy_charset.items.mojibake import SAFE_KINDS, find_mojibake, suspicious

__all__ = ["TextReport", "inspect_text"]


@dataclass(frozen=True, slots=True)
class TextReport:
    """What :func:`inspect_text` found in one text.

    - ``replacement_chars``: how many U+FFFD REPLACEMENT CHARACTER the text holds;
    - ``mojibake``: the kind of mojibake found (see :mod:`scrapy_charset.items.mojibake`), or None;
    - ``repaired``: the repaired text when a repair was allowed and exists, else None;
    - ``lossy``: True when information is gone for good (U+FFFD in the text, or mojibake
      whose bytes were partly dropped), so no repair can give the original back;
    - ``encoding``: the encoding the text should have been decoded with, when known.
    """

    replacement_chars: int = 0
    mojibake: str | None = None
    repaired: str | None = None
    lossy: bool = False
    encoding: str | None = None

    @property
    def clean(self) -> bool:
        """True when nothing was found."""
        return self.replacement_chars == 0 and self.mojibake is None


CLEAN = TextReport()


def inspect_text(value: str, *, legacy: bool = False) -> TextReport:
    """Look for U+FFFD and mojibake in *value*, and repair what can be repaired safely.

    By default only the exact inverses are applied (UTF-8 read as windows-1252, latin-1 or
    windows-1251, and double-encoded UTF-8), segment by segment. With ``legacy=True``, the
    repairs that choose an encoding are applied too: legacy CJK or Cyrillic read as
    windows-1252, UTF-8 read as Shift_JIS, other single-byte encodings, C1 controls.
    Nothing else in the text is ever changed.
    """
    if not isinstance(value, str):
        raise TypeError(f"inspect_text() argument 'value' must be str, not {type(value).__name__}")
    if value.isascii():
        return CLEAN
    replacements = value.count("\ufffd")
    if not suspicious(value):
        return CLEAN if not replacements else TextReport(replacements, lossy=True)
    found = find_mojibake(value)
    if found is None:
        return CLEAN if not replacements else TextReport(replacements, lossy=True)
    repaired = found.repaired
    if repaired is not None and not legacy and found.kind not in SAFE_KINDS:
        repaired = None
    return TextReport(
        replacement_chars=replacements,
        mojibake=found.kind,
        repaired=repaired,
        lossy=found.lossy or replacements > 0,
        encoding=found.encoding,
    )
