"""Check one text value for the traces of a bad decoding: U+FFFD and mojibake.

:func:`inspect_text` is what the item pipeline runs on every string field, and what users
can call in their own code and tests::

    >>> from scrapy_charset import inspect_text
    >>> report = inspect_text("CafÃ© crÃ¨me")
    >>> report.mojibake, report.repaired, report.lossy
    ('utf8-as-windows-1252', 'Café crème', False)

It is fast on clean text: pure ASCII, and text without any mark that mojibake is made of
(:func:`~scrapy_charset.items.mojibake.badness.suspicious`), return at once. It returns a
report for every string and never raises: an internal error is logged once per exception
type, and the report then gives only the count of U+FFFD.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scrapy_charset.items.mojibake import SAFE_KINDS, Finding, MojibakeKind, find_mojibake
from scrapy_charset.items.mojibake.plausible import implausible

logger = logging.getLogger(__name__)

__all__ = ["TextReport", "inspect_text"]


@dataclass(frozen=True, slots=True)
class TextReport:
    """What :func:`inspect_text` found in one text.

    - ``replacement_chars``: how many U+FFFD REPLACEMENT CHARACTER the text holds;
    - ``mojibake``: the kind of mojibake found (see :mod:`scrapy_charset.items.mojibake`), or None;
    - ``repaired``: the repaired text when a repair was allowed and exists, else None;
    - ``lossy``: True when information is gone for good (U+FFFD in the text, or mojibake
      whose bytes were partly dropped), so no repair can give the original back;
    - ``encoding``: the encoding the text should have been decoded with, when known;
    - ``rule`` and ``evidence``: the rule that found the mojibake (a name of
      :data:`scrapy_charset.items.mojibake.badness.RULES`, or the reading a guessed
      repair used) and the characters it fired on;
    - ``remaining`` and ``remaining_segments``: the kind of the damage a repair left in
      ``repaired``, and how many damaged segments (runs of characters without a space)
      are left: a repair of part of a field never hides the rest.
    """

    replacement_chars: int = 0
    mojibake: MojibakeKind | None = None
    repaired: str | None = None
    lossy: bool = False
    encoding: str | None = None
    remaining: MojibakeKind | None = None
    remaining_segments: int = 0
    rule: str | None = None
    evidence: str | None = None

    @property
    def clean(self) -> bool:
        """True when nothing was found."""
        return self.replacement_chars == 0 and self.mojibake is None

    @property
    def partial(self) -> bool:
        """True when a repair left damage in ``repaired``."""
        return self.repaired is not None and self.remaining is not None


CLEAN = TextReport()


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
        return _replacements_only(value.count("\ufffd"))


_LOGGED: set[type[BaseException]] = set()


def _replacements_only(replacements: int) -> TextReport:
    return CLEAN if not replacements else TextReport(replacements, lossy=True)


def inspect_unguarded(value: str, *, legacy: bool = False) -> TextReport:
    """:func:`inspect_text` without its safety net: for tests and fuzzing, where an
    internal error must show."""
    if value.isascii():
        return CLEAN
    replacements = value.count("\ufffd") if "\ufffd" in value else 0  # "in" is memchr
    found = find_mojibake(value)  # one pass over clean text: the pre-filter's
    if found is None:
        return _replacements_only(replacements)
    repaired = _allowed(found, legacy)
    remaining: Finding | None = None
    lossy = found.lossy
    if repaired is not None:
        # The repaired text is judged again: a segment of another kind may be left.
        for _ in range(MAX_PASSES):
            remaining = find_mojibake(repaired)
            more = _allowed(remaining, legacy) if remaining is not None else None
            if more is None or more == repaired or implausible(repaired, more) is not None:
                break
            lossy = lossy or (remaining is not None and remaining.lossy)
            repaired, remaining = more, None
    return TextReport(
        replacement_chars=replacements,
        mojibake=found.kind,
        repaired=repaired,
        lossy=lossy or replacements > 0,
        encoding=found.encoding,
        remaining=remaining.kind if remaining is not None else None,
        remaining_segments=_segments_left(repaired, remaining),
        rule=found.rule,
        evidence=found.evidence,
    )


#: Repairs of a field at most: the first finding's, then those of what it left (another
#: kind of damage in another segment).
MAX_PASSES = 2


def _allowed(found: Finding, legacy: bool) -> str | None:
    """The repair of *found* that the policy applies: only the exact inverses, with the
    evidence a default repair needs, unless *legacy*."""
    if found.repaired is None:
        return None
    if not legacy and (found.kind not in SAFE_KINDS or not found.sure):
        return None
    return found.repaired


def _segments_left(text: str | None, remaining: Finding | None) -> int:
    """How many runs of characters without a space *remaining* would change in *text*
    (one when it has no repair to compare with)."""
    if text is None or remaining is None:
        return 0
    if remaining.repaired is None:
        return 1
    before, after = text.split(), remaining.repaired.split()
    if len(before) != len(after):
        return 1
    return max(1, sum(a != b for a, b in zip(before, after, strict=True)))
