"""The verifier: whether a repair gives text some language writes, whatever found it.

A repair (a layer of ftfy's plan, :mod:`.plan`, or a row of :mod:`.fallback`) is applied
only when :func:`judge` accepts the text it gives. It judges the result, not the route,
and only the words the repair changed (:func:`changed`): the words it left are alike.

=========================  ===============================================================
check                      the repair is turned down when
=========================  ===============================================================
``not-text``               it brings in a control, unassigned, private-use or surrogate
                           code point the text did not hold
``badness-rises``          ftfy's own measure of how odd the text looks
                           (:func:`ftfy.badness.badness`) rises
plausibility (CLDR)        the words changed are less plausible than before
                           (:func:`.plausible.implausible`: a letter no alphabet uses, a
                           word mixing alphabets, a case break, a symbol inside a word),
                           U+FFFD set aside
=========================  ===============================================================

:func:`likeliest` chooses among readings that all pass: the likeliest by the pair table of
CLDR's names (:func:`.siblings.score`), when it is likelier than the next by
:data:`.siblings.MARGIN`; otherwise the choice is ambiguous and nothing is applied.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ftfy.badness import badness as ftfy_badness

from scrapy_charset.items._memo import short_memo
from scrapy_charset.items.mojibake import siblings
from scrapy_charset.items.mojibake.plausible import NOT_TEXT, implausible

__all__ = ["NOT_TEXT", "changed", "judge", "likeliest"]

BADNESS_RISES = "badness-rises"
AMBIGUOUS = "ambiguous"


_NOT_TEXT = siblings.NOT_TEXT_ABOVE_ASCII


def _not_text(text: str) -> frozenset[str]:
    """The characters of *text* above ASCII that are not text (the pair table's test)."""
    return frozenset(filter(_NOT_TEXT.__getitem__, set(text)))


_WHITESPACE = " \t\n\r"
_SPACE = re.compile(f"[{_WHITESPACE}]")


def _alike(a: str, b: str, most: int, *, end: bool = False) -> int:
    """How many characters, at most *most*, *a* and *b* start (or *end*) with alike: a
    binary search over slices, compared in C."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        same = a[-middle:] == b[-middle:] if end else a[:middle] == b[:middle]
        low, high = (middle, high) if same else (low, middle - 1)
    return low


def changed(before: str, after: str) -> tuple[str, str]:
    """The words of *before* and of *after* where the two differ: what they start and end
    with alike is set aside up to the whitespace nearest the difference. A repair changes
    some words; the words it leaves are judged the same either side."""
    if _SPACE.search(before) is None:
        return before, after  # one word: the whole is changed
    shorter = min(len(before), len(after))
    start = _alike(before, after, shorter)
    end = _alike(before, after, shorter - start, end=True)
    cut = max(before.rfind(c, 0, start) for c in _WHITESPACE) + 1
    tail = len(before) - end
    stop = min((at for c in _WHITESPACE if (at := before.find(c, tail)) != -1), default=len(before))
    return before[cut:stop], after[cut : len(after) - (len(before) - stop)]


@short_memo(1024)
def _badness(text: str) -> int:
    """ftfy's badness of *text*, U+FFFD aside (each text is judged against several
    readings: asked again and again)."""
    return int(ftfy_badness(text.replace("\ufffd", "")))


def judge(before: str, after: str, *, plausible: bool = True) -> str | None:
    """None when *after*, a repair of *before*, passes every check on the words changed
    (but plausibility, unless *plausible*); else the name of the check that turns it down."""
    if after == before:
        return None
    before, after = changed(before, after)
    if not _not_text(after) <= _not_text(before):
        return NOT_TEXT
    if _badness(after) > _badness(before):
        return BADNESS_RISES  # U+FFFD aside: where bytes were lost, the repair keeps one
    if not plausible:
        return None
    # What the repair kept is not its doing: U+FFFD, and controls the text held already.
    kept = {c for c in set(before) & set(after) if c < " " or c == "\x7f" or _NOT_TEXT[c]}
    if kept or "\ufffd" in before or "\ufffd" in after:
        kept.add("\ufffd")
        table = dict.fromkeys(map(ord, kept))
        before, after = before.translate(table), after.translate(table)
    return implausible(before, after)


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
