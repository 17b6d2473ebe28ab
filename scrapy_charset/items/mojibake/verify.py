"""The verifier: whether a repair gives text some language writes, whatever found it.

A repair (a layer of ftfy's plan, :mod:`.plan`, or a row of :mod:`.fallback`) is applied
only when :func:`judge` accepts the text it gives. It judges the result, not the route:

=========================  ===============================================================
check                      the repair is turned down when
=========================  ===============================================================
``not-text``               it brings in a control, unassigned, private-use or surrogate
                           code point the text did not hold
``badness-rises``          ftfy's own measure of how odd the text looks
                           (:func:`ftfy.badness.badness`) rises
plausibility (CLDR)        the field as a whole is less plausible than before
                           (:func:`.plausible.implausible`: a letter no alphabet uses, a
                           word mixing alphabets, a case break, a symbol inside a word),
                           U+FFFD set aside
=========================  ===============================================================

:func:`likeliest` chooses among readings that all pass: the likeliest by the pair table of
CLDR's names (:func:`.siblings.score`), when it is likelier than the next by
:data:`.siblings.MARGIN`; otherwise the choice is ambiguous and nothing is applied.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection

from ftfy.badness import badness as ftfy_badness

from scrapy_charset.items._memo import short_memo
from scrapy_charset.items.mojibake import siblings
from scrapy_charset.items.mojibake.plausible import NOT_TEXT, NOT_TEXT_CATEGORIES, implausible

__all__ = ["BADNESS_RISES", "NOT_TEXT", "judge", "likeliest"]

BADNESS_RISES = "badness-rises"
AMBIGUOUS = "ambiguous"


@short_memo(4096)
def _not_text(text: str) -> frozenset[str]:
    """The characters of *text* above ASCII that are not text (the pair table's test)."""
    return frozenset(filter(siblings.NOT_TEXT_ABOVE_ASCII.__getitem__, set(text)))


@short_memo(4096)
def _ftfy_badness(text: str) -> int:
    """ftfy's badness of *text*, U+FFFD aside: where bytes were lost, a repair keeps one.
    Remembered: a text is judged against each of its readings."""
    return ftfy_badness(text.replace("\ufffd", ""))


def judge(before: str, after: str, *, plausible: bool = True) -> str | None:
    """None when *after*, a repair of *before*, passes every check (but plausibility,
    unless *plausible*); else the name of the check that turns it down."""
    if after == before:
        return None
    if not _not_text(after) <= _not_text(before):
        return NOT_TEXT
    if _ftfy_badness(after) > _ftfy_badness(before):
        return BADNESS_RISES
    if not plausible:
        return None
    # What the repair kept is not its doing: U+FFFD, and controls the text held already.
    kept = {c for c in set(before) & set(after) if unicodedata.category(c) in NOT_TEXT_CATEGORIES}
    kept.add("\ufffd")
    table = dict.fromkeys(map(ord, kept))
    return implausible(before.translate(table), after.translate(table))


def likeliest(readings: dict[str, str], prior: Collection[str] = ()) -> str | None:
    """The name of the likeliest of *readings* (name -> text, all distinct and judged
    plausible), or None when no reading is likelier than the others by the margin. The
    readings named in *prior* (windows-1252's, the commonest) start
    :data:`.siblings.PRIORS`'s head start ahead."""
    if len(readings) == 1:
        return next(iter(readings))
    head = siblings.PRIORS["windows-1252"]
    scored = sorted(
        (
            (siblings.score(text) + (head if name in prior else 0.0), name)
            for name, text in readings.items()
        ),
        reverse=True,
    )
    (best, name), (second, _) = scored[0], scored[1]
    return name if best - second >= siblings.MARGIN else None
