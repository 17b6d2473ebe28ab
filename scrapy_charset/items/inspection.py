"""The inspection of one text value, behind :func:`.textcheck.inspect_text`: the pre-filter,
the finding and its repair, the passes over what a repair left, and the damage left.

A compiled build compiles this module with mypyc (:mod:`scrapy_charset._compiled`);
:mod:`.textcheck` is the public, pure-Python entry point that checks its argument and
keeps the safety net.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import itertools
import re
import unicodedata
from dataclasses import dataclass

from scrapy_charset.items.mojibake import (
    SAFE_KINDS,
    SAFE_RULES,
    Finding,
    MojibakeKind,
    find_scanned,
)
from scrapy_charset.items.mojibake.badness import (
    NONE,
    Marks,
    Scanned,
    evidence,
    scan,
    sequence_pairs,
    utf8_sequences,
    weigh,
)
from scrapy_charset.items.mojibake.chardata import (
    HALFWIDTH_KATAKANA,
    UTF8_READINGS,
    encode_reading,
)
from scrapy_charset.items.mojibake.fixes import (
    CP437_READINGS,
    SEGMENT_READINGS,
    _reading_patterns,
    a0_left,
    utf8_as_shift_jis,
)
from scrapy_charset.items.mojibake.plausible import implausible
from scrapy_charset.items.mojibake.siblings import a_layer_short


@dataclass(frozen=True, slots=True)
class TextReport:
    """What :func:`.textcheck.inspect_text` found in one text.

    - ``replacement_chars``: how many U+FFFD REPLACEMENT CHARACTER the text holds;
    - ``mojibake``: the kind of mojibake found (see :mod:`scrapy_charset.items.mojibake`), or None;
    - ``repaired``: the repaired text when a repair was allowed and exists, else None;
    - ``lossy``: True when information is gone for good (U+FFFD in the text, or mojibake
      whose bytes were partly dropped), so no repair can give the original back;
    - ``encoding``: the encoding the text should have been decoded with, when known;
    - ``rule`` and ``evidence``: the rule that found the mojibake (a name of
      :data:`scrapy_charset.items.mojibake.badness.RULES`, or the reading a guessed
      repair used) and the characters it fired on;
    - ``fixer``: the row of :data:`scrapy_charset.items.mojibake.FIXERS` that found it;
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
    fixer: str | None = None

    @property
    def clean(self) -> bool:
        """True when nothing was found."""
        return self.replacement_chars == 0 and self.mojibake is None

    @property
    def partial(self) -> bool:
        """True when a repair left damage in ``repaired``."""
        return self.repaired is not None and self.remaining is not None


CLEAN = TextReport()


def replacements_only(replacements: int) -> TextReport:
    """The report of a text with *replacements* U+FFFD and nothing else found."""
    return CLEAN if not replacements else TextReport(replacements, lossy=True)


def inspect_unguarded(value: str, *, legacy: bool = False) -> TextReport:
    """:func:`.textcheck.inspect_text` without its safety net: for tests and fuzzing,
    where an internal error must show."""
    if value.isascii():
        return CLEAN
    replacements = value.count("\ufffd") if "\ufffd" in value else 0  # "in" is memchr
    marks = scan(value)  # one pass over clean text: the pre-filter's
    if not replacements and marks.clean:
        return CLEAN  # find_scanned's own first test, before its layers are set up
    if len(value) > KEPT_LENGTH:
        return _inspect_flagged(value, marks, replacements, legacy)
    return _kept(_Flagged(value, legacy, marks, replacements))


#: The reports of flagged values (a mark or a U+FFFD) kept, at most, the most recently
#: asked first, and the longest value kept: the same damaged name, category or breadcrumb
#: on every page of a crawl is inspected once. A report depends only on the value and the
#: policy; the pre-filter runs on every value, so clean text never looks here.
KEPT_REPORTS = 1024
KEPT_LENGTH = 512


class _Flagged:
    """A flagged value as the key of its kept report: the value and the policy; the
    pre-filter's findings, which they determine, ride along outside the key."""

    __slots__ = ("legacy", "marks", "replacements", "value")

    def __init__(self, value: str, legacy: bool, marks: Marks, replacements: int) -> None:
        self.value = value
        self.legacy = legacy
        self.marks = marks
        self.replacements = replacements

    def __hash__(self) -> int:
        return hash((self.value, self.legacy))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Flagged)
            and self.value == other.value
            and self.legacy == other.legacy
        )


@functools.lru_cache(maxsize=KEPT_REPORTS)
def _kept(flagged: _Flagged) -> TextReport:
    return _inspect_flagged(flagged.value, flagged.marks, flagged.replacements, flagged.legacy)


def clear_kept_reports() -> None:
    """Forget the kept reports: what a value's first inspection costs is measured after."""
    _kept.cache_clear()


def _inspect_flagged(value: str, marks: Marks, replacements: int, legacy: bool) -> TextReport:
    """The report of *value*, which the pre-filter flagged (*marks*, *replacements*)."""
    layers: Scanned = {}
    found = find_scanned(value, marks, layers=layers)
    if found is None:
        return replacements_only(replacements)
    repaired = _allowed(found, legacy)
    remaining: Finding | None = None
    lossy = found.lossy
    if repaired is not None:
        # The repaired text is judged again: a segment of another kind may be left. A
        # repair that is one of the layers undone was scanned already.
        for _ in range(MAX_PASSES):
            marks_counted = layers.get(repaired) or (scan(repaired), None)
            remaining = find_scanned(repaired, *marks_counted, layers=layers)
            more = _allowed(remaining, legacy) if remaining is not None else None
            if more is None or more == repaired or implausible(repaired, more) is not None:
                break
            lossy = lossy or (remaining is not None and remaining.lossy)
            repaired, remaining = more, None
    left_kind, left = (
        (remaining.kind, _segments_left(repaired, remaining))
        if remaining is not None
        else _left_after_repair(value, marks, repaired)
        if repaired is not None
        else (None, 0)
    )
    return TextReport(
        replacement_chars=replacements,
        mojibake=found.kind,
        repaired=repaired,
        lossy=lossy or replacements > 0,
        encoding=found.encoding,
        remaining=left_kind,
        remaining_segments=left,
        rule=found.rule,
        evidence=found.evidence,
        fixer=found.fixer,
    )


#: Repairs of a field at most: the first finding's, then those of what it left (another
#: kind of damage in another segment).
MAX_PASSES = 2


def _allowed(found: Finding, legacy: bool) -> str | None:
    """The repair of *found* that the policy applies: only the exact inverses, with the
    evidence a default repair needs, and the repairs of a rule of :data:`SAFE_RULES`,
    unless *legacy*."""
    if found.repaired is None:
        return None
    if not legacy and not (found.sure and (found.kind in SAFE_KINDS or found.rule in SAFE_RULES)):
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


_TOKEN = re.compile("[^ \t\r\n]+")
_UNWEIGHED_READINGS = (
    *(n for n in SEGMENT_READINGS if n not in UTF8_READINGS),
    *CP437_READINGS,
)
#: The kind of a UTF-8 sequence left, by the reading that shows it.
_KIND_OF_READING = {
    "windows-1252": MojibakeKind.UTF8_AS_WINDOWS_1252,
    "windows-1251": MojibakeKind.UTF8_AS_WINDOWS_1251,
}


#: Distinct sequences of a field looked for in its repair one by one, at most; past that,
#: the full check runs (it is linear, this shortcut is not).
_MAX_LOOKUPS = 64
#: Tokens of a field, and characters of a token, that the alignments below (difflib,
#: quadratic at worst) take at most. A longer field pairs its tokens by position (a
#: repair keeps their number); a longer token that changed is taken to hold what it held.
_MAX_ALIGNED_TOKENS = 2000
_MAX_ALIGNED_CHARS = 4000


def _left_after_repair(value: str, marks: Marks, repaired: str) -> tuple[MojibakeKind | None, int]:
    """The damage a repair of *value* left in *repaired*: its sequences
    (:func:`_damage_left`), the lone leads whose no-break space became a space that no
    rule restored (:func:`.fixes.a0_left`), counted as UTF-8 read as windows-1252, and the
    tokens the repair kept that are UTF-8 read as Shift_JIS (:func:`_shift_jis_left`)."""
    kind, left = _damage_left(value, marks, repaired)
    lost = a0_left(repaired)
    if lost:
        kind, left = kind or MojibakeKind.UTF8_AS_WINDOWS_1252, left + lost
    shift_jis = _shift_jis_left(value, marks, repaired)
    if shift_jis:
        kind, left = kind or MojibakeKind.UTF8_AS_SHIFT_JIS, left + shift_jis
    return kind, left


_HALFWIDTH_KATAKANA = re.compile(f"[{HALFWIDTH_KATAKANA}]")


def _shift_jis_left(value: str, marks: Marks, repaired: str) -> int:
    """How many tokens of *value* that hold a half-width katakana are UTF-8 read as
    Shift_JIS on their own (:func:`.fixes.utf8_as_shift_jis`, the check a whole field
    gets) while *repaired* does not hold that reading: that reading is looked for over the
    whole field, and a field joined from two sources, one of them damaged so, is not so as
    a whole ("ÐœÐµÐºÑ\x81Ð¸ÐºÐ¾, Filipﾃｭnskﾃｩ peso" is repaired to "Мексико, Filipﾃｭnskﾃｩ
    peso"). A token the repair changed counts too: the other source's repair reads a C1
    control of it as windows-1252 ("ﾕ\x80ﾕｸﾕｶﾕｯﾕｸﾕｶﾕ｣" became "ﾕ€ﾕｸﾕｶﾕｯﾕｸﾕｶﾕ｣"). A token
    that reading finds without a repair counts where the repair kept it as it was."""
    if not marks.halfwidth or _HALFWIDTH_KATAKANA.search(repaired) is None:
        return 0  # a repair that read every half-width katakana (most): none left
    repair_tokens = frozenset(_TOKEN.findall(repaired))
    left = 0
    for token in _TOKEN.findall(value):
        if _HALFWIDTH_KATAKANA.search(token) is None:
            continue
        found = utf8_as_shift_jis(token)
        if found is None:
            continue
        # Looked up among the repair's tokens, not searched for in it: linear in the field.
        if (
            token in repair_tokens  # kept as it was
            if found.repaired is None
            else found.repaired not in repair_tokens  # its reading is not in the repair
        ):
            left += 1
    return left


def _damage_left(value: str, marks: Marks, repaired: str) -> tuple[MojibakeKind | None, int]:
    """The damage a repair of *value* (whose marks are *marks*) left in *repaired*: the
    kind and the count of the segments (runs of characters without a space) that still
    hold, unchanged, a UTF-8 sequence of *value* that had evidence there
    (:func:`.badness.evidence`, the field's rules included), or that made a segment whole
    and reads as a letter of a script the repair brought in ("Рё" is "и" beside
    "РЈРѕР»Р»РµСЃ", repaired to "Уоллес"). A sequence too weak to be found again alone
    is still damage left: the field was damaged and repaired around it. Linear in the
    length of the field."""
    unweighed = _other_sequences(value)
    if _none_left(value, marks, unweighed, repaired):
        return None, 0  # no sequence of the field is left anywhere: the common case
    weighed: list[tuple[str, int, int, int]] = []
    evidence(value, marks=marks, weighed=weighed)
    weighed += [(name, s, e, weigh(value, s, e, name)) for name, s, e in unweighed]
    if not weighed:
        return None, 0
    old = list(_TOKEN.finditer(value))
    new = _TOKEN.findall(repaired)
    pairs, brought = _pairs(old, new)
    starts = [token.start() for token in old]
    by_token: dict[int, list[tuple[str, int, int, int]]] = {}
    for item in weighed:
        index = bisect.bisect_right(starts, item[1]) - 1
        if index >= 0 and item[2] <= old[index].end():
            by_token.setdefault(index, []).append(item)
    covered: dict[tuple[int, str], bool] = {}
    left: dict[int, str] = {}  # token of *value* (its start) -> the reading of a sequence left
    for index, token_new in pairs:
        inside = by_token.get(index)
        if not inside:
            continue
        token = old[index]
        spans = sorted(
            (start, end, name)
            for name, start, end, weight in inside
            if weight != NONE
            or _whole_and_brought(
                value, token, (name, start, end), inside, brought=brought, covered=covered
            )
            # One decode reads every sequence of a token that its reading shows: those a
            # repair left beside the ones it read are damage left, however weak alone.
            or a_layer_short(token.group(), token_new, name)
        )
        reading = _left_in(token, token_new, spans)
        if reading is not None:
            left[token.start()] = reading
    if not left:
        return None, 0
    first = left[min(left)]
    return _KIND_OF_READING.get(first, MojibakeKind.UTF8_AS_OTHER), len(left)


def _none_left(
    value: str, marks: Marks, unweighed: list[tuple[str, int, int]], repaired: str
) -> bool:
    """No UTF-8 sequence of *value* (*unweighed*, then those of :func:`.badness.evidence`'s
    readings) is anywhere in *repaired*, found with at most :data:`_MAX_LOOKUPS` lookups
    of distinct sequences, or in a field short enough to align from the pairs alone.
    Most often no pair of characters the sequences hold
    (:func:`.badness.sequence_pairs`) is in *repaired*, and the sequences need not be
    read."""
    pairs, most = sequence_pairs(value, marks)
    # In a field short enough to align (_MAX_ALIGNED_CHARS), every sequence the full check
    # counts as left is a part of *repaired* (a token kept, or a block a token shares with
    # its repair), and each sequence holds one of *pairs*: with none of them in *repaired*,
    # none is left, however many sequences the field holds.
    short = max(len(value), len(repaired)) <= _MAX_ALIGNED_CHARS
    if (short or len(unweighed) + most <= _MAX_LOOKUPS) and not _any_pair_in(pairs, repaired):
        return not any(value[start:end] in repaired for _name, start, end in unweighed)
    distinct: set[str] = set()
    for _name, start, end in itertools.chain(unweighed, utf8_sequences(value, marks)):
        sequence = value[start:end]
        if sequence in distinct:
            continue
        if len(distinct) == _MAX_LOOKUPS or sequence in repaired:
            return False
        distinct.add(sequence)
    return True


def _any_pair_in(pairs: set[str], text: str) -> bool:
    """Some of *pairs* (of two characters) is in *text*: one search each, or for many,
    one pass over *text*'s pairs."""
    if len(pairs) <= _MAX_LOOKUPS:
        return any(pair in text for pair in pairs)
    return not pairs.isdisjoint(map(str.__add__, text, text[1:]))


def _pairs(old: list[re.Match[str]], new: list[str]) -> tuple[list[tuple[int, str]], set[str]]:
    """``(index of a token of the field, the token it became)`` for the tokens a repair
    kept in place, and the scripts of the letters of the tokens it changed."""
    brought: set[str] = set()
    if len(old) == len(new) and len(old) > _MAX_ALIGNED_TOKENS:
        pairs = list(enumerate(new))
        for token, token_new in zip(old, new, strict=True):
            if token.group() != token_new:
                brought.update(_scripts(token_new))
        return pairs, brought
    if len(old) > _MAX_ALIGNED_TOKENS or len(new) > _MAX_ALIGNED_TOKENS:
        # Tokens were split or joined in a long field: the common start and end pair up.
        head = 0
        while head < min(len(old), len(new)) and old[head].group() == new[head]:
            head += 1
        tail = 0
        while (
            tail < min(len(old), len(new)) - head
            and old[len(old) - 1 - tail].group() == new[len(new) - 1 - tail]
        ):
            tail += 1
        brought.update(_scripts(" ".join(new[head : len(new) - tail])))
        pairs = [(i, new[i]) for i in range(head)]
        pairs += [(len(old) - 1 - k, new[len(new) - 1 - k]) for k in range(tail)]
        return pairs, brought
    pairs = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, [t.group() for t in old], new, autojunk=False
    ).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            pairs += zip(range(i1, i2), new[j1:j2], strict=True)
        if tag != "equal":
            brought.update(_scripts("".join(new[j1:j2])))
    return pairs, brought


def _other_sequences(text: str) -> list[tuple[str, int, int]]:
    """``(reading, start, end)`` of the UTF-8 sequences of the segment readings that the
    evidence does not weigh (:data:`.fixes.SEGMENT_READINGS`: x-mac-cyrillic; and cp437)."""
    # A sequence is made of characters of the reading's high half, none a space: it lies
    # inside one run of characters the reading encodes, and one pass finds them all.
    return [
        (name, match.start(), match.end())
        for name in _UNWEIGHED_READINGS
        for match in _reading_patterns(name)[1].finditer(text)
    ]


def _scripts(text: str) -> set[str]:
    """The scripts of the non-ASCII letters of *text* (the first word of their names)."""
    return {unicodedata.name(c, " ").split(" ", 1)[0] for c in text if c > "\x7f" and c.isalpha()}


def _whole_and_brought(
    text: str,
    token: re.Match[str],
    sequence: tuple[str, int, int],
    inside: list[tuple[str, int, int, int]],
    *,
    brought: set[str],
    covered: dict[tuple[int, str], bool],
) -> bool:
    """The *sequence* ``(reading, start, end)`` of *token* reads as letters of a script
    in *brought*, and the token's non-ASCII characters are all in sequences of its
    reading (among *inside*, the token's sequences; the answer is kept in *covered*)."""
    name, start, end = sequence
    raw = encode_reading(text[start:end], name)
    try:
        decoded = raw.decode("utf-8") if raw is not None else ""
    except UnicodeDecodeError:
        return False
    if not decoded.isalpha() or not _scripts(decoded) <= brought:
        return False
    key = (token.start(), name)
    whole = covered.get(key)
    if whole is None:
        chars: set[int] = set()
        for reading, s, e, _weight in inside:
            if reading == name:
                chars.update(range(s, e))
        whole = covered[key] = all(
            i in chars for i in range(token.start(), token.end()) if text[i] > "\x7f"
        )
    return whole


def _left_in(token: re.Match[str], new: str, spans: list[tuple[int, int, str]]) -> str | None:
    """The reading of the first of *spans* inside *token* that *new* (the token repaired)
    still holds as it was, or None."""
    inside = [(s, e, n) for s, e, n in spans if token.start() <= s and e <= token.end()]
    if not inside:
        return None
    old = token.group()
    if old == new or len(old) > _MAX_ALIGNED_CHARS or len(new) > _MAX_ALIGNED_CHARS:
        return inside[0][2]
    blocks = difflib.SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks()
    for start, end, name in inside:
        s, e = start - token.start(), end - token.start()
        if any(a <= s and e <= a + size for a, _b, size in blocks):
            return name
    return None
