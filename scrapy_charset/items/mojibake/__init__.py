"""Mojibake: the kinds, how each is recognised, and the repairs that are safe.

Mojibake is text whose bytes were decoded with the wrong encoding. The package is split as
ftfy splits it:

- :mod:`.chardata`: the kinds (:class:`MojibakeKind`) and the character tables they are
  made of (the Encoding Standard's single-byte indexes);
- :mod:`.badness`: the heuristic that finds damage: a pre-filter that proves text clean at
  C speed, and the evidence rule a repair needs, with its thresholds;
- :mod:`.fixes`: the repairs of UTF-8 read as a single-byte encoding or as Shift_JIS, and
  of stray C1 controls;
- :mod:`.legacy`: legacy CJK and Cyrillic bytes read as windows-1252;
- :mod:`.siblings`: which single-byte reading of a damaged segment real text supports,
  when several give letters some language uses.

Repairs of UTF-8 read as windows-1252, latin-1 or windows-1251, and of double-encoded
UTF-8, are exact inverses (re-encode the damaged segment, decode it as UTF-8): they are the
only ones applied by default, and only with the evidence :mod:`.badness` defines. The others
guess an encoding and are applied only on request (``legacy=True``); when a field reads
both as UTF-8 mojibake and as a legacy encoding, the exact UTF-8 reading wins.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from scrapy_charset.items.mojibake.badness import (
    DECISIVE,
    LONE_LATIN_RULE,
    MIN_DECISIVE,
    Evidence,
    Marks,
    Scanned,
    cp437_evidence,
    evidence,
    scan,
    shift_jis_marks,
    suspicious,
    weigh_rule,
)
from scrapy_charset.items.mojibake.chardata import (
    KINDS,
    LEGACY_KINDS,
    OTHER_READINGS,
    SAFE_KINDS,
    SAFE_RULES,
    UTF8_READINGS,
    Finding,
    MojibakeKind,
    encode_windows_1252,
    utf8_of,
)
from scrapy_charset.items.mojibake.fixes import (
    CP437_READINGS,
    _reading_patterns,
    all_utf8,
    c1_controls,
    c1_punctuation_controls,
    c1_sites,
    lossy_sequences,
    other_segments,
    utf8_as_shift_jis,
    utf8_rounds,
)
from scrapy_charset.items.mojibake.legacy import legacy_as_windows_1252
from scrapy_charset.items.mojibake.plausible import badness as text_badness
from scrapy_charset.items.mojibake.plausible import implausible, unattested
from scrapy_charset.items.mojibake.siblings import (
    AS_LIKELY_RULE,
    as_likely_as_damage,
    changed,
    competing,
    latin_1_competing,
)
from scrapy_charset.items.mojibake.siblings import RULE as SIBLING_RULE
from scrapy_charset.whatwg import singlebyte

__all__ = [
    "FIXERS",
    "KINDS",
    "LEGACY_KINDS",
    "SAFE_KINDS",
    "SAFE_RULES",
    "Finding",
    "Fixer",
    "MojibakeKind",
    "encode_windows_1252",
    "find_mojibake",
    "find_scanned",
    "suspicious",
]


def find_mojibake(text: str) -> Finding | None:
    """The mojibake in *text* and its repair, or None when the text looks clean; the
    finding names the fixer (:data:`FIXERS`) and the rule that fired, and the characters
    it fired on.

    Text without any of the pre-filter's marks returns at once.
    """
    return find_scanned(text, scan(text))


def find_scanned(
    text: str,
    marks: Marks,
    counted: Evidence | None = None,
    *,
    layers: Scanned | None = None,
) -> Finding | None:
    """:func:`find_mojibake` with *text*'s marks (:func:`.badness.scan`) already found,
    and its evidence counted until enough (*counted*) when known. The marks and evidence of
    each layer of a repair are kept in *layers*, when given: a repair is judged again as
    a field."""
    if marks.clean and "\ufffd" not in text:
        return None
    ctx = Context(text, marks, counted, layers)
    found = _find(ctx)
    if found is not None and found.repaired is not None and found.kind in _SIBLING_KINDS:
        parts = changed(text, found.repaired)
        sibling = competing(text, found.repaired, _OWN_READING.get(found.kind), parts=parts)
        if sibling is not None:
            # Another reading gives text about as likely: the segment is reported, not
            # repaired in a reading that may be the wrong one.
            reading, segment = sibling
            return _reported(found, f"{SIBLING_RULE}:{reading}", segment)
        unchanged = as_likely_as_damage(text, found.repaired, parts=parts)
        if unchanged is not None:
            # The text as given is about as likely as the repair: reported, not repaired.
            return _reported(found, AS_LIKELY_RULE, unchanged)
        whole = _whole_field_reading(text, found.repaired)
        if whole is not None:
            # C1 controls left that no UTF-8 sequence explains, and the field's bytes read
            # whole in a single-byte encoding are about as likely: reported.
            return _reported(found, f"{SIBLING_RULE}:{whole}", parts[0])
    if found is None or found.rule is not None:
        return found
    rule, found_on = _explained(ctx, found)
    return _named(found, found.fixer, rule, found_on)


def _whole_field_reading(text: str, repaired: str) -> str | None:
    """The single-byte reading (:func:`.siblings.latin_1_competing`) of *text*'s bytes, as
    a latin-1 decoder kept them, that is about as likely as *repaired*, when *text* holds a
    C1 control outside every UTF-8 sequence (:func:`.fixes.c1_sites`): a UTF-8 repair of
    bytes that a lead and a C1 control made a sequence of by chance (x-mac-cyrillic's
    "НПО «Данилов»" read as latin-1 is "\x8d\x8f\x8e Ç\x84àíèëîâÈ", and "Ç\x84" is
    UTF-8's "Ǆ")."""
    try:
        raw = text.encode("latin-1")  # first: most damaged text is not all latin-1's
    except UnicodeEncodeError:
        return None
    if not c1_sites(text)[1]:
        return None
    return latin_1_competing(raw, repaired)


def _named(found: Finding, fixer: str | None, rule: str | None, evidence: str | None) -> Finding:
    """*found* with the fixer, the rule and the evidence a report names (a constructor
    call: cheaper than :func:`dataclasses.replace`)."""
    return Finding(
        found.kind,
        found.repaired,
        lossy=found.lossy,
        encoding=found.encoding,
        sure=found.sure,
        rule=rule,
        evidence=evidence,
        fixer=fixer,
    )


def _reported(found: Finding, rule: str, evidence: str) -> Finding:
    """*found* without its repair: the rule that turned the repair down and its segment."""
    return Finding(
        found.kind,
        None,
        lossy=found.lossy,
        encoding=found.encoding,
        rule=rule,
        evidence=evidence,
        fixer=found.fixer,
    )


#: The reading the repair of a kind undid, when the kind says.
_OWN_READING = {
    MojibakeKind.UTF8_AS_WINDOWS_1252: "windows-1252",
    MojibakeKind.UTF8_DOUBLE_ENCODED: "windows-1252",
    MojibakeKind.UTF8_AS_WINDOWS_1251: "windows-1251",
}
#: The kinds whose repair reads UTF-8 bytes in one single-byte encoding, where a sibling
#: reading competes (:mod:`.siblings`).
_SIBLING_KINDS = frozenset(
    {
        MojibakeKind.UTF8_AS_WINDOWS_1252,
        MojibakeKind.UTF8_DOUBLE_ENCODED,
        MojibakeKind.UTF8_AS_WINDOWS_1251,
        MojibakeKind.UTF8_AS_OTHER,
    }
)


# --- The fixers, as one table -----------------------------------------------------------------


class Context:
    """One text and what the fixers' tests share about it, each computed once."""

    def __init__(
        self,
        text: str,
        marks: Marks,
        counted: Evidence | None = None,
        layers: Scanned | None = None,
    ) -> None:
        self.text = text
        self.marks = marks
        self.counted = counted
        #: Where the repairs keep the marks and evidence of each layer they undo.
        self.layers = layers
        self._legacy: Finding | None = None
        self._legacy_read = False

    @property
    def evidence(self) -> Evidence:
        """The evidence of UTF-8 read as a single-byte encoding (:mod:`.badness`), counted
        until one reading has enough: what the repair's first layer and the report's rule
        are both judged on."""
        if self.counted is None:
            self.counted = evidence(self.text, marks=self.marks, until=Evidence.is_enough)
        return self.counted

    @property
    def utf8(self) -> bool:
        """Some evidence of UTF-8 read as a single-byte encoding: a count stopped at
        enough has some, and one never stopped counted every sequence."""
        return self.evidence.some

    @property
    def legacy(self) -> Finding | None:
        """:func:`_legacy`'s reading of the text, read once (kept by hand: mypyc compiles
        a :func:`functools.cached_property` of a class into a plain property)."""
        if not self._legacy_read:
            self._legacy = _legacy(self.text, self.marks)
            self._legacy_read = True
        return self._legacy

    @property
    def legacy_repaired(self) -> bool:
        return self.legacy is not None and self.legacy.repaired is not None


class _Stop:
    """A fixer's answer: damage of its kind, that no later fixer may read otherwise."""


#: What a fixer's *repair* gives: a finding, :data:`STOP`, or None (the next row is tried).
STOP = _Stop()


@dataclass(frozen=True, slots=True)
class Fixer:
    """A row of :data:`FIXERS`: *applies* says whether *repair* is tried on a text;
    *safe* whether its repairs are applied by default (the exact inverses, with their
    evidence; the others only with ``legacy=True``); *example* is a text it finds, with
    the repair :func:`find_mojibake` gives (None: reported without one), and a test checks
    it does. A *last* row is tried even after a :data:`STOP`."""

    name: str
    applies: Callable[[Context], bool]
    repair: Callable[[Context], Finding | _Stop | None]
    safe: bool
    example: tuple[str, str | None]
    last: bool = False


def _utf8_rounds(ctx: Context) -> Finding | _Stop | None:
    text = ctx.text
    result = utf8_rounds(text, ctx.marks, ctx.evidence, ctx.layers)
    if result is None:
        return None
    fixed, kind, segments, a0 = result
    if fixed == text:
        # Reported without a repair; a lost no-break space names the rule that found it.
        return Finding(
            kind,
            None,
            encoding="UTF-8",
            sure=False,
            rule=None if a0 is None else a0.rule,
            evidence=None if a0 is None else a0.evidence,
        )
    if segments and not all_utf8(text) and ctx.legacy_repaired:
        # Repaired segment by segment: windows-1252 characters that happen to form a
        # UTF-8 sequence may be a legacy double-byte character instead ("ÖÐ¹ú" is GBK
        # for 中国, not "Öйú"). A plausible legacy reading of the whole text wins.
        return ctx.legacy
    if "\x1a" in fixed and "\x1a" not in text:
        # ftfy's sloppy encodings read U+FFFD as 0x1A: what it found is a guess
        # around lost characters, not a reading of real bytes.
        return STOP
    # A no-break space restored: the report names the rule that decided it.
    return Finding(
        kind,
        fixed,
        lossy="\ufffd" in fixed,
        encoding="UTF-8",
        rule=None if a0 is None else a0.rule,
        evidence=None if a0 is None else a0.evidence,
    )


def _exact_over_legacy(ctx: Context) -> Finding | None:
    exact = _exact_utf8(ctx.text)
    if exact is not None and implausible(ctx.text, exact) is None:
        # Read both ways: the exact inverse of UTF-8 mojibake wins over a guessed
        # legacy encoding, but without the evidence a default repair needs.
        return Finding(MojibakeKind.UTF8_AS_WINDOWS_1252, exact, encoding="UTF-8", sure=False)
    return None


#: The fixers, in the order :func:`find_mojibake` tries them: the first row that applies
#: and gives a finding wins. The exact inverses come first, UTF-8 read as cp437 undone
#: whole before the others (its pairs hold Latin ones: "ΓÇ£" holds "Ç£"); a field that
#: reads both as UTF-8 mojibake and as a legacy encoding is given its exact UTF-8
#: reading. Then come the readings that guess, then the reports without a repair.
FIXERS: tuple[Fixer, ...] = (
    Fixer(
        "utf8-as-cp437",
        lambda ctx: bool(ctx.marks.cp437),
        lambda ctx: _utf8_as_cp437(ctx.text, ctx.marks, whole=True),
        safe=True,
        example=("itΓÇÖs ΓÇ£newΓÇ¥", "it’s “new”"),
    ),
    Fixer(
        "utf8-rounds",
        lambda ctx: ctx.utf8 or ctx.marks.lost_a0,
        _utf8_rounds,
        safe=True,
        example=("CafÃ© crÃ¨me", "Café crème"),
    ),
    Fixer(
        "utf8-as-other",
        lambda ctx: ctx.utf8,
        lambda ctx: _utf8_as_other(ctx.text, ctx.marks),
        safe=True,
        example=("cafĆ© crĆØme é fin", "café crème é fin"),
    ),
    Fixer(
        "utf8-as-x-mac-cyrillic",
        lambda ctx: bool(ctx.marks.mac_cyrillic) and not ctx.utf8,
        lambda ctx: _utf8_as_mac_cyrillic(ctx.text, ctx.marks),
        safe=True,
        example=("Rep√Їblica do Peru, Somália", "República do Peru, Somália"),
    ),
    Fixer(
        "utf8-as-cp437-segments",
        lambda ctx: bool(ctx.marks.cp437),
        lambda ctx: _utf8_as_cp437(ctx.text, ctx.marks, whole=False),
        safe=True,
        example=("Mörkö, N├╜tt ├¡sraelskt", "Mörkö, Nýtt ísraelskt"),
    ),
    Fixer(
        "utf8-as-shift-jis",
        lambda ctx: shift_jis_marks(ctx.text, ctx.marks),
        lambda ctx: utf8_as_shift_jis(ctx.text),
        safe=False,
        example=("ﾄ径m", "Čam"),
    ),
    Fixer(
        "utf8-exact-over-legacy",
        lambda ctx: ctx.marks.legacy and ctx.legacy_repaired,
        _exact_over_legacy,
        safe=False,
        example=("ÃŸÃŸ", "ßß"),
    ),
    Fixer(
        "legacy-as-windows-1252",
        lambda ctx: ctx.marks.legacy and (ctx.legacy_repaired or not ctx.marks.c1),
        lambda ctx: ctx.legacy,
        safe=False,
        example=("ÖÐ¹ú", "中国"),
    ),
    Fixer(
        "c1-punctuation",
        lambda ctx: ctx.marks.c1,
        lambda ctx: c1_punctuation_controls(ctx.text),
        safe=True,
        example=("parlé\x85 Tu sais", "parlé… Tu sais"),
    ),
    Fixer(
        "c1-controls",
        lambda ctx: ctx.marks.c1,
        lambda ctx: c1_controls(ctx.text),
        safe=False,
        example=("\x93quoted\x94", "“quoted”"),
    ),
    Fixer(
        "lossy-sequences",
        lambda ctx: "\ufffd" in ctx.text,
        lambda ctx: lossy_sequences(ctx.text),
        safe=True,
        example=("SlovenÄ\ufffdina", "Sloven\ufffdina"),
        last=True,
    ),
    Fixer(
        "utf8-unrepaired",
        lambda ctx: ctx.utf8,
        lambda ctx: _unrepaired(ctx.text, ctx.marks),
        safe=False,
        example=("Фінляндыя, Боснія Ñ– Герцагавіна", None),
        last=True,
    ),
)


def _find(ctx: Context) -> Finding | None:
    """The first finding of :data:`FIXERS`, walked in order, with its row's name."""
    stopped = False
    for fixer in FIXERS:
        if (stopped and not fixer.last) or not fixer.applies(ctx):
            continue
        found = fixer.repair(ctx)
        if isinstance(found, _Stop):
            stopped = True
        elif found is not None:
            return _named(found, fixer.name, found.rule, found.evidence)
    return None


#: The rule of the kinds that guess a reading, by kind.
_READING_RULES = {
    MojibakeKind.LEGACY_AS_WINDOWS_1252: "legacy-reading",
    MojibakeKind.UTF8_AS_SHIFT_JIS: "shift-jis-reading",
    MojibakeKind.C1_CONTROLS: "c1-control",
}


def _explained(ctx: Context, found: Finding) -> tuple[str | None, str | None]:
    """``rule`` and ``evidence`` for *found*: the first decisive sequence's rule
    (:data:`.badness.RULES`) for UTF-8 read as a single-byte encoding, else the reading."""
    rule = _READING_RULES.get(found.kind)
    if rule is not None:
        return (f"{rule}:{found.encoding}" if found.encoding else rule), None
    if found.kind == MojibakeKind.UTF8_AS_OTHER:
        seen = evidence(ctx.text, OTHER_READINGS, ctx.marks, until=Evidence.is_enough)
    else:
        seen = ctx.evidence
    if seen.rule is None and found.kind == MojibakeKind.UTF8_AS_OTHER:
        return "segments", None
    return seen.rule, seen.sequence


#: The kind of UTF-8 mojibake by the reading that shows it.
_KIND_OF_READING = {
    "windows-1252": MojibakeKind.UTF8_AS_WINDOWS_1252,
    "windows-1251": MojibakeKind.UTF8_AS_WINDOWS_1251,
}


def _unrepaired(text: str, marks: Marks) -> Finding | None:
    """UTF-8 mojibake that no repair undoes, reported without a repair:

    - when a reading's first decisive sequence is a Latin one in a field of another script
      (:data:`.badness.LONE_LATIN_RULE`): the damage a repair of part of the field left is
      not reported clean ("Боснія Ñ– Герцагавіна");
    - when a reading with decisive evidence undoes the whole field exactly, into text no
      less plausible than it and with no letter outside every alphabet that it did not
      hold (:func:`_as_plausible_whole`): the repairs turn it down as no likelier, and it
      is damage all the same ("G√ºneyDoƒüu" is "GüneyDoğu" as macintosh; the case break
      is in both).

    The other rules' decisive sequences without a repair are left to the repairs' own
    judgement, which turns down correct text ("ООД’s", "«Ильин»®": no reading undoes
    them whole)."""
    by_reading: dict[str, Evidence] = {}
    evidence(text, marks=marks, by_reading=by_reading)
    for name in UTF8_READINGS:
        if by_reading[name].rule == LONE_LATIN_RULE:
            kind = _KIND_OF_READING.get(name, MojibakeKind.UTF8_AS_OTHER)
            return Finding(kind, None, encoding="UTF-8")
    for name in UTF8_READINGS:
        found = by_reading[name]
        if found.decisive >= MIN_DECISIVE and _as_plausible_whole(text, name):
            kind = _KIND_OF_READING.get(name, MojibakeKind.UTF8_AS_OTHER)
            return Finding(kind, None, encoding="UTF-8", rule=found.rule, evidence=found.sequence)
    return None


def _as_plausible_whole(text: str, name: str) -> bool:
    """*text*'s bytes in the reading *name* are UTF-8 of text (no control, unassigned or
    private character) that brings in no letter, mark or modifier that no alphabet uses
    (:func:`.plausible.unattested`: ftfy's correct "pra lá´´" would be "pra lᴴ") and
    weighs no more than *text* (:func:`.plausible.badness`)."""
    repaired = _whole_reading(text, name)
    if repaired is None:
        return False
    if any(unattested(c) for c in set(repaired).difference(text)):
        return False
    return text_badness(repaired) <= text_badness(text)


def _legacy(text: str, marks: Marks) -> Finding | None:
    """:func:`.legacy.legacy_as_windows_1252`, judged: a guessed reading that gives text
    no language writes (:func:`.plausible.implausible`), or one of text whose marks UTF-8
    read as a single-byte encoding explains (a lossy UTF-8 sequence), is damage without a
    repair."""
    legacy = legacy_as_windows_1252(text)
    if legacy is None or legacy.repaired is None:
        return legacy
    if implausible(text, legacy.repaired) is not None or _mostly_utf8(text):
        return Finding(legacy.kind, None, encoding=legacy.encoding)
    return legacy


#: UTF-8 sequences a text's windows-1252 bytes must hold per invalid one, for UTF-8 to
#: explain them better than a legacy double-byte encoding: damaged UTF-8 that lost a byte
#: here and there (a no-break space turned into a space) is still mostly valid.
UTF8_PER_ERROR = 4


def _mostly_utf8(text: str) -> bool:
    """*text*'s windows-1252 bytes are UTF-8 but for a few bytes lost."""
    raw = encode_windows_1252(text)
    if raw is None:
        return False
    decoded = raw.decode("utf-8", "replace")
    errors = decoded.count("\ufffd") - text.count("\ufffd")
    sequences = sum(1 for c in decoded if c > "\x7f" and c != "\ufffd")
    return sequences >= UTF8_PER_ERROR * max(1, errors)


def _exact_utf8(text: str) -> str | None:
    """*text* read back as windows-1252 bytes and decoded as UTF-8, when that is exact."""
    raw = encode_windows_1252(text)
    if raw is None or raw.isascii():
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _utf8_as_other(text: str, marks: Marks) -> Finding | None:
    """UTF-8 read as another single-byte encoding: undone whole, with the evidence a repair
    needs in that reading and an exact inverse (ftfy's badness measure leaves short fields,
    such as "caf√©", unrepaired); else segment by segment (:func:`.fixes.other_segments`),
    each segment on its own evidence, when the rest of the field is correct text the
    reading cannot encode ("cafĆ© crĆØme é fin")."""
    by_reading: dict[str, Evidence] = {}
    evidence(text, OTHER_READINGS, marks, by_reading=by_reading)
    for name in OTHER_READINGS:
        if not by_reading[name].enough:
            continue
        repaired = _whole_reading(text, name)
        if repaired is not None and implausible(text, repaired) is None:
            return Finding(MojibakeKind.UTF8_AS_OTHER, repaired, encoding="UTF-8")
    # Text that windows-1252 encodes whole is left to the legacy readings (a legacy
    # double-byte character read as windows-1252 holds such pairs by chance).
    found = other_segments(text) if encode_windows_1252(text) is None else None
    if found is not None:
        repaired, _name, _segments = found
        return Finding(MojibakeKind.UTF8_AS_OTHER, repaired, encoding="UTF-8")
    return None


_NOT_TEXT = frozenset({"Cc", "Cn", "Co", "Cs"})


def _whole_reading(text: str, name: str) -> str | None:
    """*text*'s bytes in the reading *name* (a browser's decoder) decoded as UTF-8, when
    they are UTF-8 of other text, with no control, unassigned or private character."""
    try:
        repaired = singlebyte.encode(text, name).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return None
    if repaired == text or any(unicodedata.category(c) in _NOT_TEXT for c in repaired):
        return None
    return repaired


def _utf8_as_mac_cyrillic(text: str, marks: Marks) -> Finding | None:
    """UTF-8 read as x-mac-cyrillic in text of a Latin alphabet, whose marks
    (:attr:`.badness.Marks.mac_cyrillic`) no other reading's evidence explains: each
    sequence at a mark weighed by :data:`.badness.RULES` ("√Ї" after "p" is a Cyrillic
    letter in a Latin word); with a decisive one, the segments repaired as
    :func:`.fixes.other_segments` repairs them, else reported without a repair."""
    sequence = _MAC_CYRILLIC_SEQUENCE
    for position in marks.mac_cyrillic:
        match = sequence.match(text, position)
        if match is None:
            continue
        weight, rule = weigh_rule(text, match.start(), match.end(), "x-mac-cyrillic")
        if weight != DECISIVE:
            continue
        found = other_segments(text)
        repaired = found[0] if found is not None else None
        return Finding(
            MojibakeKind.UTF8_AS_OTHER,
            repaired,
            encoding="UTF-8",
            rule=rule,
            evidence=match.group(),
        )
    return None


_MAC_CYRILLIC_SEQUENCE = _reading_patterns("x-mac-cyrillic")[1]


def _utf8_as_cp437(text: str, marks: Marks, *, whole: bool) -> Finding | None:
    """UTF-8 read as cp437 (:attr:`.badness.Marks.cp437`), with a decisive sequence by
    :func:`.badness.cp437_evidence`: with *whole*, undone whole when the text's cp437
    bytes are UTF-8 and the repair is more plausible (else None); without, segment by
    segment as :func:`.fixes.other_segments` repairs them, else reported without a
    repair."""
    found = cp437_evidence(text, marks)
    if found.decisive < MIN_DECISIVE:
        return None
    if whole:
        repaired = utf8_of(text, CP437_READINGS[0])
        if (
            repaired is None
            or any(unicodedata.category(c) in _NOT_TEXT for c in repaired)
            or implausible(text, repaired) is not None
        ):
            return None
    else:
        segments = other_segments(text, CP437_READINGS)
        repaired = segments[0] if segments is not None else None
    return Finding(
        MojibakeKind.UTF8_AS_OTHER,
        repaired,
        encoding="UTF-8",
        rule=found.rule,
        evidence=found.sequence,
    )
