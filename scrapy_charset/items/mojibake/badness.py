"""The heuristic that finds damage: a pre-filter that proves text clean, and the evidence
a repair needs.

**The pre-filter.** Every kind of mojibake contains a mark that legitimate text of most
scripts does not: a UTF-8 lead byte followed by a continuation byte as a single-byte
encoding shows them (for each of :data:`~.chardata.UTF8_READINGS`), a C1 control, a
half-width katakana or a Shift_JIS reading of a UTF-8 lead byte, an x-mac-cyrillic lead of
a Latin or Cyrillic letter followed by a Cyrillic letter that is one of its continuation
bytes ("Rep√Їblica"), a cp437 lead followed by its continuation character ("─îe┼ítina"),
or two windows-1252 characters in a row in text that windows-1252
can encode whole and whose bytes may hold a legacy reading (two CJK characters' bytes, or
three bytes above 0x7F in a row: :func:`.legacy.may_read`). :func:`scan` looks for these
marks with one regular-expression pass at C speed; text without any is clean, and no
further analysis runs. One more mark holds no sequence: "Ã" or "Â" then a space right
after a lowercase letter, in text windows-1252 encodes whole (a no-break space, byte A0,
that became a space: "voilÃ le"), found by ``memchr`` (:attr:`Marks.lost_a0`). A Latin
pair is a mark only where one reading has the lead and as
many of its continuation characters as the lead needs; once a text that windows-1252
encodes whole has shown one legacy mark, the pass looks no further for them, and finds the
Latin sequences from their rarer character (the lead for macintosh, the first continuation
character for the others). All marks but those of one character are two non-ASCII
characters side by side (or around one ASCII character): in long text whose non-ASCII
characters are few and apart, such places are found first at memory speed in the text's
UTF-8 form, and the pattern runs only around them.

**The evidence rule.** A sequence of characters that reads as one UTF-8 byte sequence is
weighed in its context (the characters either side):

- *decisive* (legitimate text does not contain it):

  - it holds a C1 control (latin-1 read UTF-8: "Ã\\x89");
  - it is :data:`LONG_SEQUENCE` bytes or longer and not made of letters only ("â€™"),
    unless lowercase letters and a word's closing punctuation ("дії»"); three letters can
    be a word in most readings ("дії" is E4 B3 BF in windows-1251, "ěžš" in
    windows-1250), never in windows-1252's ("ãƒž"). ª, º, ˆ and ˜ count as symbols, and
    an apostrophe in a Cyrillic word as a letter ("б’є" in "Об’єднані", "М’янма");
  - a lowercase letter is followed by an uppercase one across or inside it, a case break
    that words do not have ("cafÃ©", "РёРІ", "GRÃœNE");
  - it ends with a symbol and a lowercase letter follows: a symbol inside a lowercase
    word ("Ã©t", "Ã…land", "NigГ©ria");
  - it is UTF-8 of a no-break space between two digits, or a digit and a currency
    sign, where prices put one ("45Ā\u00a0467" in windows-1257, "R$¬†13" in macintosh);
  - in windows-1250, ISO-8859-2 or windows-1257, it is three letters in a word that are
    UTF-8 of a Vietnamese letter, U+1EA0-U+1EF9 ("Tiáşżng", "Tiįŗæng": "Tiếng"; Czech
    and Slovak "zvlášť" holds a sequence of U+1E7B, outside the range);
  - it is capitals followed by a lowercase letter ("ÄŒesko", "OÄŸam"), or a capital
    after a capital, then a lowercase letter ("CĂłrdoba" in windows-1250);
  - it is a math symbol and letters that start a word ("√âmirats" in macintosh; "√π"
    alone is mathematics);
  - in macintosh, it starts with the lozenge that Hebrew's UTF-8 lead reads as, and
    another lozenge follows it ("◊ò◊ú◊ï◊í◊ï" is "טלוגו");
  - in macintosh, it starts with a math symbol or a florin sign inside a word
    ("Guaran√≠", "Sicilieƒçi"), or with a florin sign and letters that start a word
    ("ƒåad");
  - in macintosh or x-mac-cyrillic, it starts with a dash, starts a word, and another
    dash follows ("–ê–Ω–¥–æ—Ä—Ä–∞" is "Андорра");
  - in windows-1251, it stands alone as a word and is UTF-8 for a letter that is a word
    alone ("Рё" is "и", "С–" is "і"): correct text writes such pairs inside words only
    ("Её", "А–Я");
  - it puts a letter of another script next to an ASCII letter ("HГєngaro");
  - it is a windows-1251 or -1253 sequence in text with ASCII letters whose every
    Cyrillic (Greek) letter lies in such sequences ("Cena:В\u00a031,50": the lone "В"
    and no-break space are the bytes of one no-break space);
  - in windows-1252, it would be weak, its UTF-8 character is a symbol or punctuation,
    and the pair table (:func:`.siblings.score`) finds it :data:`.siblings.MARGIN`
    likelier decoded than as given, between its neighbours ("âœ”" is "✔", "Â°" is "°";
    not "Â®" in CLDR's Yoruba "ÈMÌRÂ®");

- *weak*: any other sequence whose continuation characters include a symbol ("É®" in
  "NESTLÉ®", "Â®" in "ÈMÌRÂ®");
- *none*: a sequence whose continuation characters are letters, without a case break:
  legitimate text in the reading's own script is made of such pairs ("ВІ" in "ВІКІ",
  "Сі", "l’é" as macintosh).

A reading's row of :mod:`.fallback` is tried only with :data:`MIN_DECISIVE` decisive
sequences or :data:`MIN_WEAK` weak ones of that reading in the field
(:attr:`Evidence.enough`), so never for one pair inside an otherwise plausible word of
capitals, symbols or digits. ftfy is asked for its plan only when there is a decisive or
weak sequence (or a C1 control, U+FFFD or a lost no-break space); its plan then decides,
each layer judged by :mod:`.verify` (ftfy repairs "25Â°C" and leaves "NESTLÉ®"). A pair
of letters alone ("ÂŠ" in the Inari Sami "ANARÂŠKIELÂ") is no evidence at all.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass

from scrapy_charset.items._memo import Table
from scrapy_charset.items.mojibake import siblings
from scrapy_charset.items.mojibake.chardata import (
    C1_RANGE,
    CP437,
    CP437_BOX,
    HALFWIDTH_KATAKANA,
    SHIFT_JIS_UTF8_LEADS,
    UTF8_LEADS,
    UTF8_READINGS,
    WINDOWS_1252_HIGH,
    chars,
    encode_windows_1252,
    extra_cont,
    high_half,
    script_of,
    sequence_pattern,
    utf8_of,
    windows_1252_encodes,
)
from scrapy_charset.items.mojibake.legacy import may_read
from scrapy_charset.whatwg import singlebyte
from scrapy_charset.whatwg._singlebyte import HIGH_HALVES

__all__ = [
    "LONG_SEQUENCE",
    "MIN_WEAK",
    "RULES",
    "Evidence",
    "Marks",
    "Rule",
    "cp437_evidence",
    "cp437_sequences",
    "evidence",
    "scan",
    "shift_jis_marks",
    "weigh_rule",
]

#: Bytes from which a sequence is decisive unless made of letters only: three-byte
#: sequences (â€™, ä¸­) do not form by chance in text of any script but Cyrillic, whose
#: windows-1251 letters do ("дії").
LONG_SEQUENCE = 3
#: Decisive sequences a field needs for a repair of the fallback: one, since legitimate
#: text holds none (0 on the negative corpus, see docs/item-safety.md).
MIN_DECISIVE = 1
#: Weak sequences a field needs without a decisive one: a symbol after an accented
#: capital happens once in a legitimate field ("NESTLÉ®"), rarely twice, and damage of
#: a whole field makes several.
MIN_WEAK = 3

# --- The pre-filter -------------------------------------------------------------------------

# Readings whose lead bytes are letters of a whole script (Cyrillic, Greek): scanned from
# the continuation character, which that script's text rarely holds, then looking back.
_SCRIPT_READINGS = ("windows-1251", "windows-1253")
_LATIN_READINGS = tuple(name for name in UTF8_READINGS if name not in _SCRIPT_READINGS)
_SCRIPT_CONT_SETS = {
    name: frozenset(HIGH_HALVES[name][: 0xC0 - 0x80]) - {"\ufffd"} for name in _SCRIPT_READINGS
}


def _classes(names: tuple[str, ...], low: int, high: int) -> str:
    return "".join(
        chars(high_half(n), low, high) + (extra_cont(n) if low == 0x80 else "") for n in names
    )


_SINGLE = f"{C1_RANGE}{HALFWIDTH_KATAKANA}{SHIFT_JIS_UTF8_LEADS}"
_LATIN_LEADS = _classes(_LATIN_READINGS, 0xC2, 0xF4)
_LATIN_CONTS = _classes(_LATIN_READINGS, 0x80, 0xBF)
_SCRIPT_CONTS = _classes(_SCRIPT_READINGS, 0x80, 0xBF)
_HIGH_1252 = re.escape(WINDOWS_1252_HIGH)
_C1_CONT_READINGS = tuple(
    name
    for name in _SCRIPT_READINGS
    if any("\x80" <= c <= "\x9f" for c in HIGH_HALVES[name][:0x40])
)
_NON_ASCII = "\x80-\U0010ffff"
# One pass over the text, from one character class (the C loop of the regex engine): each
# mark begins with a character of the class, which the match takes; the branch that
# matched names the mark. Each branch tests the neighbour that rejects most stops first
# (most stops are a letter between ASCII characters, or a letter of a word).
_SINGLE_BRANCH = (
    # A mark on its own: a C1 control, a half-width katakana, a Shift_JIS reading of a
    # UTF-8 lead byte.
    f"(?<=[{_SINGLE}])(?P<single>)"
)
_LATIN_BRANCH = (
    # A UTF-8 lead then a continuation character, in the readings of Latin alphabets (each
    # reading's own, or two readings' together: this branch is the broad test that finds
    # every place where windows-1252 may read a legacy double-byte character).
    f"(?=[{_LATIN_CONTS}])(?<=[{_LATIN_LEADS}])(?P<latin>)"
)


def _sequence_start(name: str, *, from_continuation: bool = False) -> str:
    """A lead character of the reading *name*, then as many of its continuation
    characters as the lead needs: where one of its UTF-8 sequences starts. Tested at the
    lead, or *from_continuation* at the first continuation character."""
    cont = _classes((name,), 0x80, 0xBF)
    tests = []
    for low, high, size in UTF8_LEADS:
        lead = _classes((name,), low, high)
        if not from_continuation:
            tests.append(f"(?<=[{lead}])(?=[{cont}]{{{size}}})")
        else:
            tests.append(
                f"(?<=[{lead}][{cont}])" + (f"(?=[{cont}]{{{size - 1}}})" if size > 1 else "")
            )
    return "|".join(tests)


_SEQUENCE_BRANCH = (
    # Where a UTF-8 sequence starts in one of the readings of Latin alphabets (what
    # utf8_sequences reads from a Latin mark): the Latin branch narrowed to the pairs of
    # one reading, and to the continuation characters the lead needs ("pół" is no
    # sequence in any: ó is only ever a four-byte lead; "Čí" is a lead of windows-1250
    # and a continuation of macintosh).
    f"(?=[{_LATIN_CONTS}])(?:{'|'.join(map(_sequence_start, _LATIN_READINGS))})(?P<latin>)"
)
_SCRIPT_LEAD2 = _classes(_SCRIPT_READINGS, 0xC2, 0xDF)
# A continuation character that may end a sequence, in the readings whose lead bytes are
# the letters of a whole script (Cyrillic, Greek) that such text is made of: after
# another character that is not ASCII and followed by another continuation character...
_SCRIPT_BRANCH = f"(?=[{_SCRIPT_CONTS}])(?<=[{_NON_ASCII}][{_SCRIPT_CONTS}])(?P<script>)"
# ...or after a two-byte lead. (The sequences are read out of these candidates by
# utf8_sequences.)
_SCRIPT_AFTER_LEAD_BRANCH = f"(?<=[{_SCRIPT_LEAD2}][{_SCRIPT_CONTS}])(?P<script_after_lead>)"
# Every legacy double-byte character read as windows-1252: two of its characters in a
# row, or around an ASCII trail byte (Big5, GBK and Shift_JIS: "¶V«n" is Big5 for 越南),
# in text that windows-1252 encodes whole.
# UTF-8 read as x-mac-cyrillic: a lead of a Latin letter's sequence (0xC3-0xC5, "√", "ƒ",
# "≈") or of a Cyrillic letter's (0xD0-0xD1, "–", "—"), as in macintosh, followed by a
# continuation character that is a Cyrillic letter, which no sequence of macintosh has
# ("Rep√Їblica" is "República", "√Йmerillon" is "Émerillon", "–Ь–∞–є" is "Май").
_MAC_CYRILLIC = "x-mac-cyrillic"
_MAC_CYRILLIC_LEADS = chars(HIGH_HALVES[_MAC_CYRILLIC], 0xC3, 0xC5) + chars(
    HIGH_HALVES[_MAC_CYRILLIC], 0xD0, 0xD1
)
_MAC_CYRILLIC_CONTS = re.escape(
    "".join(c for c in HIGH_HALVES[_MAC_CYRILLIC][:0x40] if "\u0400" <= c <= "\u04ff")
)
_MAC_CYRILLIC_BRANCH = f"(?<=[{_MAC_CYRILLIC_LEADS}])(?=[{_MAC_CYRILLIC_CONTS}])(?P<mac_cyrillic>)"
# UTF-8 read as cp437: a continuation character after a lead, found at the first
# continuation character (a lead is a box-drawing character, or a Greek letter or math sign
# that Greek text is made of; its continuation characters are Latin letters, symbols and
# box drawing, which a clean text's stops mostly are already). In text that windows-1252
# does not encode whole only: cp437's leads are not windows-1252's but for ß, µ and ±.
_CP437_LEADS = _classes((CP437,), 0xC2, 0xF4)
_CP437_CONTS = _classes((CP437,), 0x80, 0xBF)
_CP437_BRANCH = f"(?<=[{_CP437_LEADS}][{_CP437_CONTS}])(?P<cp437>)"
# The two branches of a lead before the continuation character, behind one test of both:
# most stops are neither, and one look back rejects them.
_AFTER_A_LEAD = (
    f"(?<=[{_SCRIPT_LEAD2}{_CP437_LEADS}][{_SCRIPT_CONTS}{_CP437_CONTS}])"
    f"(?:{_SCRIPT_AFTER_LEAD_BRANCH}|{_CP437_BRANCH})"
)
_LEGACY_PAIR = f"(?=[{_HIGH_1252}])(?<=[{_HIGH_1252}])(?P<legacy>)"
_LEGACY_TRAIL = f"(?=[\x40-\x7e][{_HIGH_1252}])(?<=[{_HIGH_1252}])(?P<trail>)"


def _mark_pattern(followed: list[str], then: list[str], *, legacy: bool) -> re.Pattern[str]:
    """The marks' pattern: after the single-character mark, the branches *followed*, which
    need a continuation character of a reading next (or, with *legacy*, a windows-1252
    character): most stops are a letter before an ASCII one or before another letter of
    its script, and one test rejects them all. Then the branches *then*, in this order."""
    start = f"{_SINGLE}{_LATIN_LEADS}{_SCRIPT_CONTS}{_HIGH_1252 if legacy else _CP437_CONTS}"
    after = f"{_LATIN_CONTS}{_SCRIPT_CONTS}{_HIGH_1252 if legacy else ''}"
    branches = [_SINGLE_BRANCH, f"(?=[{after}])(?:{'|'.join(followed)})", *then]
    return re.compile(f"[{start}](?:{'|'.join(branches)})")


#: The marks of text that windows-1252 cannot encode whole.
_MARK = _mark_pattern(
    [_SEQUENCE_BRANCH, _SCRIPT_BRANCH],
    [_AFTER_A_LEAD, _MAC_CYRILLIC_BRANCH],
    legacy=False,
)
#: The marks of text that windows-1252 encodes whole, until the text is known to have a
#: legacy mark (a legacy pair or trail, or a Latin pair: see :func:`scan`)...
_MARK_OR_LEGACY = _mark_pattern(
    [_LATIN_BRANCH, _LEGACY_PAIR, _SCRIPT_BRANCH],
    [_SCRIPT_AFTER_LEAD_BRANCH, _LEGACY_TRAIL],
    legacy=True,
)
# ...and after it. No script reading's lead is in windows-1252 (they are Cyrillic and
# Greek letters): there are no script marks to find. The Latin sequences are found from
# the rarer of their two characters: macintosh's leads are symbols and capitals, while
# its continuation characters are the accented small letters of every Latin alphabet,
# which the other readings' leads are ("ð", "é" and "ü" are windows-1252 leads and
# macintosh continuations). Each sequence of those other readings is found at its first
# continuation character, and its lead is the character before (the branches whose name
# ends in "_before", "_both" or "_after_lead").
_MACINTOSH_LEADS = _classes(("macintosh",), 0xC2, 0xF4)
_MACINTOSH_CONTS = _classes(("macintosh",), 0x80, 0xBF)
_OTHER_LATIN = tuple(name for name in _LATIN_READINGS if name != "macintosh")
_OTHER_LEADS = _classes(_OTHER_LATIN, 0xC2, 0xF4)
_OTHER_CONTS = _classes(_OTHER_LATIN, 0x80, 0xBF)
_AT_LEAD = f"(?=[{_MACINTOSH_CONTS}])(?:{_sequence_start('macintosh')})"
_AFTER_LEAD = (
    f"(?<=[{_OTHER_LEADS}][{_OTHER_CONTS}])"
    f"(?:{'|'.join(_sequence_start(n, from_continuation=True) for n in _OTHER_LATIN)})"
)
_MARK_AFTER_LEGACY = re.compile(
    f"[{_SINGLE}{_MACINTOSH_LEADS}{_OTHER_CONTS}](?:"
    f"(?<=[{_SINGLE}])(?:{_AFTER_LEAD}(?P<single_after_lead>)|(?P<single>))"
    f"|{_AT_LEAD}(?:{_AFTER_LEAD}(?P<latin_both>)|(?P<latin>))"
    f"|{_AFTER_LEAD}(?P<latin_before>))"
)
#: The branches whose mark makes text that windows-1252 encodes whole a legacy suspect.
_LEGACY_KINDS = frozenset({"latin", "legacy", "trail"})


def _marks_of(
    text: str, encodable: bool, where: Callable[[int], int | None] | None = None
) -> Iterator[tuple[int, str | None]]:
    """``(position, branch)`` of the marks in *text*, in order (the position of the
    character the match took: for a Latin lead found from its continuation character, the
    one after the lead); only the first mark that makes an encodable text a legacy suspect
    (the rest are not needed). With *where*, *text* is an excerpt: *where* maps a match's
    start to its position in the whole text, or None for a match that is not to be
    taken."""
    patterns = iter((_MARK_OR_LEGACY, _MARK_AFTER_LEGACY) if encodable else (_MARK,))
    at = 0
    for pattern in patterns:
        for match in pattern.finditer(text, at):
            position = match.start() if where is None else where(match.start())
            if position is None:
                continue
            kind = match.lastgroup
            yield position, kind
            if pattern is _MARK_OR_LEGACY and kind in _LEGACY_KINDS:
                at = match.end()
                break
        else:
            return


# --- Sparse text: where the marks can be, found at memory speed --------------------------
#
# Every mark but those of one character is two non-ASCII characters side by side, or two
# around one ASCII character in 0x40-0x7E (the legacy trail byte). The text's UTF-8 form,
# its continuation bytes deleted and every other byte replaced by its class
# (:data:`_CLASSES`), has one byte per character: such a place is "LL" or "LaL" there, at
# the characters' own positions, and a regular expression that starts with a literal byte
# finds them with the engine's fastest loop. In text whose non-ASCII characters are few
# and apart (English, and much of any Latin alphabet's text), the marks' pattern then runs
# only around those places; where they are many, and in text with a character that may be
# a mark of its own, over the whole text.

#: UTF-8 bytes by class, continuation bytes aside: "S" a lead byte of U+3000-U+FFFF
#: (half-width katakana and the Shift_JIS readings of UTF-8 lead bytes among them, and
#: surrogates); "L" any other lead byte; "a" an ASCII character a legacy trail byte can be
#: (0x40-0x7E); " " any other ASCII character.
_CLASSES = bytes(
    ord(
        " "
        if byte < 0x40 or byte == 0x7F
        else "a"
        if byte < 0x80
        else "S"
        if 0xE3 <= byte <= 0xEF
        else "L"
    )
    for byte in range(256)
)
_CONTINUATION_BYTES = bytes(range(0x80, 0xC0))
#: A place, found at its first character (a match takes one character, so places that
#: overlap are all found).
_PLACE = re.compile(rb"L(?=a?L)")
_ASCII_BYTES = bytes(range(0x80))
#: C1 controls in UTF-8 (the lead byte 0xC2 is searched for first, as a memchr).
_C1_BYTES = re.compile(rb"\xc2[\x80-\x9f]")
#: Text is sparse when its UTF-8 form has at most one byte in this many more than its
#: characters, and its places are few (see :data:`_PLACE_SPACING`), both first on a
#: sample of :data:`_SAMPLE` characters from its start. Shorter text than
#: :data:`_MIN_SIZE` is scanned whole.
_SPARSE = 8
_SAMPLE = 4096
_MIN_SIZE = 256
#: The most places worth a run of the pattern each: one per this many characters (plus
#: :data:`_MIN_PLACES`); past that, one pass over the whole text costs less.
_PLACE_SPACING = 512
_MIN_PLACES = 16
#: Characters the marks' pattern reads before and after the one a mark starts at, and
#: the characters of the longest place.
_BEHIND, _AHEAD = 1, 3
_PLACE_SIZE = 3


def _characters(raw: bytes) -> bytes:
    """The class of each character of the UTF-8 *raw*: one byte per character."""
    return raw.translate(_CLASSES, _CONTINUATION_BYTES)


def _few_non_ascii(text: str) -> bytes | None:
    """The UTF-8 form of *text* when it has at most one byte in :data:`_SPARSE` more than
    the text's characters, else None."""
    raw = text.encode("utf-8", "surrogatepass")
    return raw if len(raw) - len(text) <= len(text) // _SPARSE else None


def _sparse(sample: str) -> bool:
    """Whether the text *sample* starts looks sparse: few non-ASCII characters, and few
    places."""
    raw = _few_non_ascii(sample)
    if raw is None:
        return False
    places = _PLACE.findall(_characters(raw))
    return len(places) <= len(sample) // _PLACE_SPACING + _MIN_PLACES // 4


def _places(text: str) -> tuple[list[tuple[int, int]], bool] | None:
    """Where marks can start in sparse *text*: ``(windows, encodable)``, the ``(start,
    end)`` character ranges, and whether windows-1252 encodes the text whole (only
    computed when there are windows). None when the whole text must be scanned."""
    if len(text) < _MIN_SIZE:
        return None
    if len(text) > _SAMPLE and not _sparse(text[:_SAMPLE]):
        return None
    raw = _few_non_ascii(text)
    if raw is None:
        return None
    characters = _characters(raw)
    if b"S" in characters:
        return None
    if b"\xc2" in raw and _C1_BYTES.search(raw) is not None:
        return None
    limit = len(text) // _PLACE_SPACING + _MIN_PLACES
    windows: list[tuple[int, int]] = []
    for place in _PLACE.finditer(characters):
        start = place.start()
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], start + _PLACE_SIZE)
        elif len(windows) >= limit:
            return None
        else:
            windows.append((start, start + _PLACE_SIZE))
    if not windows:
        return windows, False
    non_ascii = raw.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")
    return windows, windows_1252_encodes(non_ascii)  # ASCII always encodes


def _found(text: str) -> tuple[bool, Iterator[tuple[int, str | None]]]:
    """Whether windows-1252 encodes *text* whole, and the pre-filter's marks in it as
    ``(position, branch)``, in order."""
    places = _places(text)
    if places is None:
        encodable = windows_1252_encodes(text)
        if len(text) < _MIN_SIZE and (_MARK_OR_LEGACY if encodable else _MARK).search(text) is None:
            return encodable, iter(())  # short text without a mark, told by one search
        return encodable, _marks_of(text, encodable)
    windows, encodable = places
    if not windows:
        return encodable, iter(())
    return encodable, _found_in(text, windows, encodable)


def _found_in(
    text: str, windows: list[tuple[int, int]], encodable: bool
) -> Iterator[tuple[int, str | None]]:
    """The pattern's matches that start in *windows*: one pass over an excerpt of the
    windows with what the pattern reads around them, joined by NUL (no mark's character
    and no trail byte), so the matches are the whole text's."""
    size = len(text)
    pieces: list[str] = []
    starts: list[int] = []  # where each piece starts in the excerpt
    at = 0
    for start, end in windows:
        piece = text[max(0, start - _BEHIND) : min(size, end + _AHEAD)]
        pieces.append(piece)
        starts.append(at)
        at += len(piece) + 1
    excerpt = "\x00".join(pieces)

    def where(at: int) -> int | None:
        i = bisect.bisect_right(starts, at) - 1
        start, end = windows[i]
        position = max(0, start - _BEHIND) + at - starts[i]
        return position if start <= position < end else None

    return _marks_of(excerpt, encodable, where)


@dataclass(slots=True, init=False)
class Marks:
    """Where the pre-filter's marks are in a text, by kind."""

    # Written out, not generated, and the one place of the fields' starting values: a field
    # with marks makes one or more of these, and the dataclass's ``__init__`` (nine fields,
    # two default factories) costs more.
    def __init__(self) -> None:
        self.latin = []
        self.script = {}
        self.c1 = False
        self.halfwidth = False
        self.shift_jis_leads = 0
        self.legacy = False
        self.mac_cyrillic = ()
        self.cp437 = ()
        self.lost_a0 = False

    @property
    def any(self) -> bool:
        """Some mark: the text may hold mojibake."""
        return self.legacy or bool(
            self.latin
            or self.script
            or self.c1
            or self.halfwidth
            or self.shift_jis_leads
            or self.mac_cyrillic
            or self.cp437
            or self.lost_a0
        )

    @property
    def clean(self) -> bool:
        """No mark that can be mojibake (the text is clean but for U+FFFD)."""
        return not self.any

    #: Where a UTF-8 sequence of a Latin reading may start: a lead character followed by
    #: the continuation characters it needs in one reading (and, in text windows-1252
    #: encodes whole, a first lead and continuation character of any two readings).
    latin: list[int]
    #: Reading -> positions of continuation characters that end a lead's sequence (none
    #: in text that windows-1252 encodes whole, which holds no lead of these readings).
    script: dict[str, list[int]]
    #: A C1 control; a half-width katakana; how many Shift_JIS readings of a UTF-8 lead.
    c1: bool
    halfwidth: bool
    shift_jis_leads: int
    #: A legacy double-byte character read as windows-1252 may be there.
    legacy: bool
    #: Where a UTF-8 sequence read as x-mac-cyrillic may start in text of a Latin
    #: alphabet (its lead, followed by a Cyrillic letter that stands for a continuation
    #: byte).
    mac_cyrillic: tuple[int, ...]
    #: Where a UTF-8 sequence read as cp437 may start (its lead, followed by the
    #: continuation characters it needs), in text that windows-1252 does not encode whole.
    cp437: tuple[int, ...]
    #: In text that windows-1252 encodes whole, "Ã" or "Â" then a space after a lowercase
    #: letter: UTF-8 of "à" or of a no-break space read as windows-1252, whose byte A0
    #: became a space ("voilÃ le travail"), a shape no correct text of the outside
    #: sources has.
    lost_a0: bool


_ALL_SCRIPT_CONTS = frozenset().union(*_SCRIPT_CONT_SETS.values())
_SCRIPT_LEAD2_SET = frozenset(
    c for name in _SCRIPT_READINGS for c in HIGH_HALVES[name][0xC2 - 0x80 : 0xE0 - 0x80]
) - {"\ufffd"}


def _script_candidate(text: str, position: int) -> bool:
    """The script branch's test, for a character another branch matched first."""
    if text[position] not in _ALL_SCRIPT_CONTS or position == 0:
        return False
    before = text[position - 1]
    after = text[position + 1 : position + 2]
    return before > "\x7f" and (before in _SCRIPT_LEAD2_SET or after in _ALL_SCRIPT_CONTS)


def _add_script(marks: Marks, text: str, position: int) -> None:
    char = text[position]
    for name, conts in _SCRIPT_CONT_SETS.items():
        if char in conts:
            positions = marks.script.setdefault(name, [])
            if not positions or positions[-1] < position:
                positions.append(position)


_CP437_LEAD_SET = frozenset(high_half(CP437)[0xC2 - 0x80 : 0xF5 - 0x80])
_CP437_CONT_SET = frozenset(high_half(CP437)[: 0xC0 - 0x80])


#: The branches whose mark has a Latin lead in the character before; with a Latin lead
#: at the mark; with a mark of one character.
_BEFORE_KINDS = frozenset({"latin_before", "latin_both", "single_after_lead"})
_LATIN_KINDS = frozenset({"latin", "latin_both"})
_SINGLE_KINDS = frozenset({"single", "single_after_lead"})
_SCRIPT_KINDS = frozenset({"script", "script_after_lead"})


def scan(text: str) -> Marks:
    """Every mark of *text*: one pass, Python work only where marks are."""
    marks = Marks()
    if text.isascii():
        return marks
    encodable, found = _found(text)
    # A Latin mark is found at most twice (at the lead, and at the next character's
    # match). The Latin branch comes first: the same character may also be a script
    # reading's continuation ("б»‘" is "ố" in windows-1251; » is a lead in macintosh's).
    # A cp437 continuation character may also be a Latin lead or a script reading's
    # continuation ("ΓÇ£" holds "Ç£", a Latin pair).
    latin = marks.latin
    cp437: list[int] = []
    script_conts, cp437_leads, cp437_conts = _ALL_SCRIPT_CONTS, _CP437_LEAD_SET, _CP437_CONT_SET
    pair = False  # a lead and a continuation character of some readings side by side
    for position, kind in found:
        if kind in _SCRIPT_KINDS:  # the commonest in a text with marks (Cyrillic)
            _add_script(marks, text, position)
            if position > 0 and text[position - 1] in cp437_leads and text[position] in cp437_conts:
                cp437.append(position - 1)
            continue
        if kind in _BEFORE_KINDS:  # the lead is the character before
            lead = position - 1
            if not latin or latin[-1] < lead:
                latin.append(lead)
                if text[lead] in script_conts and _script_candidate(text, lead):
                    _add_script(marks, text, lead)
        if kind in _LATIN_KINDS:
            pair = pair or kind == "latin"
            # A lead and a continuation character of two readings is a legacy mark only.
            exact = _PAIR_READINGS[text[position : position + 2]]
            if (not latin or latin[-1] < position) and exact:
                latin.append(position)
                if text[position] in script_conts and _script_candidate(text, position):
                    _add_script(marks, text, position)
            if position > 0 and text[position - 1] in cp437_leads and text[position] in cp437_conts:
                cp437.append(position - 1)
        elif kind in _SINGLE_KINDS:
            char = text[position]
            if char <= "\x9f":
                marks.c1 = True
                # The mark of its own came first: a C1 control can also end a sequence
                # (windows-1251 keeps 0x98 as U+0098: "Г\x98" is "Ø").
                for name in _C1_CONT_READINGS:
                    marks.script.setdefault(name, []).append(position)
            elif "\uff61" <= char <= "\uff9f":
                marks.halfwidth = True
            else:
                marks.shift_jis_leads += 1
        elif kind in ("legacy", "trail"):
            marks.legacy = True
        elif kind == "mac_cyrillic":
            marks.mac_cyrillic += (position,)
        elif kind == "cp437":  # found at the first continuation character
            cp437.append(position - 1)
    marks.cp437 = tuple(cp437)
    # The Latin pairs and C1 controls of text windows-1252 encodes whole are legacy
    # marks too (the branches are tried in order, one match per position).
    marks.legacy = (
        encodable
        and (marks.legacy or pair or marks.c1)
        and may_read(encode_windows_1252(text) or b"")
    )
    if encodable:
        marks.script.clear()  # no script reading's sequence: its leads are not there
        marks.cp437 = ()  # nor cp437's but for ß, µ and ±: read for legacy marks
    marks.lost_a0 = _lost_a0_mark(text, encodable)
    return marks


def _lost_a0_mark(text: str, encodable: bool) -> bool:
    """:attr:`Marks.lost_a0` of *text*, whose windows-1252 encoding *encodable* was told by
    the scan (it does not tell it for sparse text without a place: asked). The
    leads are looked for first, by memchr: most text has neither."""
    return (
        ("Ã" in text or "Â" in text)
        and (encodable or windows_1252_encodes(text))
        and lost_a0_at(text) >= 0
    )


def lost_a0_at(text: str, leads: str = "ÃÂ", *, after_lowercase: bool = True) -> int:
    """Where *text* holds one of *leads* ("Ã" and "Â", the leads of "à", C3 A0, and of a
    no-break space, C2 A0, in windows-1252) then a space, right after a lowercase letter
    (:attr:`Marks.lost_a0`; anywhere without *after_lowercase*): the first such lead's
    position, or -1. Each lead is found by ``str.find`` (a memchr)."""
    first = -1
    for lead in leads:
        at = text.find(lead, 1 if after_lowercase else 0)
        while at != -1 and (first == -1 or at < first):
            if text.startswith(" ", at + 1) and (not after_lowercase or text[at - 1].islower()):
                first = at
                break
            at = text.find(lead, at + 1)
    return first


# --- The evidence rule ----------------------------------------------------------------------

_SEQUENCES = {
    name: re.compile(sequence_pattern(HIGH_HALVES[name], extra_cont(name)))
    for name in UTF8_READINGS
}
_C1 = re.compile(f"[{C1_RANGE}]")

DECISIVE = 2
WEAK = 1
NONE = 0


def _char_sets(names: tuple[str, ...], low: int, high: int) -> dict[str, frozenset[str]]:
    """Character -> the readings among *names* in which it stands for a byte in range."""
    out: dict[str, set[str]] = {}
    for name in names:
        table = HIGH_HALVES[name]
        for byte in range(low, high + 1):
            out.setdefault(table[byte - 0x80], set()).add(name)
        if extra_cont(name) and low == 0x80:
            for code in range(0x80, 0xA0):
                out.setdefault(chr(code), set()).add(name)
    return {c: frozenset(v) for c, v in out.items()}


_READING_ORDER = {name: i for i, name in enumerate(UTF8_READINGS)}
_LEADS_OF = _char_sets(_LATIN_READINGS, 0xC2, 0xF4)
_CONTS_OF = _char_sets(_LATIN_READINGS, 0x80, 0xBF)


def _pair_readings(pair: str) -> tuple[str, ...]:
    """The Latin readings in which a pair of characters is a lead then a continuation
    character, in the table's order (which reading's sequence is counted first, and named
    by a report, may not depend on how a set of names happens to iterate)."""
    both = _LEADS_OF[pair[0]] & _CONTS_OF[pair[1]]
    return tuple(sorted(both, key=_READING_ORDER.__getitem__))


_PAIR_READINGS: Table[str, tuple[str, ...]] = Table(_pair_readings)


def utf8_sequences(
    text: str, marks: Marks | None = None, names: Collection[str] = UTF8_READINGS
) -> Iterator[tuple[str, int, int]]:
    """(reading, start, end) of each UTF-8 byte sequence that a reading shows in *text*.

    Found from the pre-filter's marks (*marks*, or a new :func:`scan`), so text with few
    marks is read at C speed.
    """
    if marks is None:
        marks = scan(text)
    ends = dict.fromkeys(UTF8_READINGS, 0)
    pair_readings = _PAIR_READINGS
    for start in marks.latin:
        for name in pair_readings[text[start : start + 2]]:
            if start < ends[name] or name not in names:
                continue
            found = _SEQUENCES[name].match(text, start)
            if found is not None:
                ends[name] = found.end()
                yield name, start, found.end()
    for name, conts in marks.script.items():
        if name not in names:
            continue
        sequence = _SEQUENCES[name]
        for cont in conts:
            # The sequence that holds this continuation character starts at most three
            # characters before it. In one reading, a sequence's continuation characters
            # are never leads: the leftmost match is the only one that can start there.
            at = max(ends[name], cont - 3)
            while at < cont:
                found = sequence.search(text, at, cont + 3)
                if found is None or found.start() >= cont:
                    break
                if found.end() > cont:
                    ends[name] = found.end()
                    yield name, found.start(), found.end()
                    break
                at = found.end()


#: Shift_JIS readings of UTF-8 lead bytes a text needs, without half-width katakana,
#: before the Shift_JIS repair is tried: at least this many...
MIN_SHIFT_JIS_LEADS = 3
#: ...and one character in this many: damage makes one every few characters, while
#: Chinese and Japanese text holds such characters (rare kanji) only here and there.
SHIFT_JIS_LEAD_SPACING = 16


def shift_jis_marks(text: str, marks: Marks) -> bool:
    """Enough marks of UTF-8 read as Shift_JIS to try the repair: a half-width katakana, or
    a U+FFFD, or Shift_JIS readings of UTF-8 lead bytes many and close enough."""
    if marks.halfwidth or (marks.shift_jis_leads and "\ufffd" in text):
        return True
    leads = marks.shift_jis_leads
    return leads >= MIN_SHIFT_JIS_LEADS and leads * SHIFT_JIS_LEAD_SPACING >= len(text)


#: Lowercase letters among windows-1252's continuation bytes (š, ž, œ, ƒ) right after
#: Ã or Å (the lead bytes 0xC3 and 0xC5 of Latin-1 and Latin Extended-A letters): no
#: alphabet writes these pairs ("Åžilini" is "Şilini"), while Sami writes "Öš" and "Âš".
_ODD_CAPITALS = frozenset("ÃÅ")
_ODD_AFTER_CAPITAL = frozenset("šžœƒ")

#: The Cyrillic letters that only some languages write, by language: a word's letters of
#: this kind all belong to one alphabet ("СЃРІРѕ" is UTF-8 "сво" read as windows-1251:
#: Macedonian Ѓ and Ѕ with Ukrainian or Belarusian І; "аёї" is "฿": Russian ё with
#: Ukrainian ї).
_ALPHABETS = (
    frozenset("ЂЉЊЋЏЈ"),  # Serbian
    frozenset("ЃЉЊЌЏЈЅ"),  # Macedonian
    frozenset("ҐЄЇІ"),  # Ukrainian
    frozenset("ІЎЁЫЭ"),  # Belarusian
    frozenset("ЁЫЭЪ"),  # Russian (and Bulgarian's Ъ)
)
_DISTINCTIVE = frozenset().union(*_ALPHABETS)


def _mixed_alphabets(word: str) -> bool:
    letters = _DISTINCTIVE.intersection(word.upper())
    return bool(letters) and not any(letters <= alphabet for alphabet in _ALPHABETS)


#: Back-to-back sequences that make a run (a word whose every character is part of a
#: UTF-8 sequence): from this many, with one weak among them, the run is decisive.
MIN_RUN = 2


#: Punctuation that closes a word: after lowercase letters, a long sequence ending with it
#: is a word's end ("дії»" is E4 B3 BF BB in windows-1251), not decisive.
_WORD_END = "»”“’…–—\u00a0"


def weigh_rule(text: str, start: int, end: int, reading: str = "windows-1252") -> tuple[int, str]:
    """:data:`DECISIVE`, :data:`WEAK` or :data:`NONE`: what ``text[start:end]``, one UTF-8
    sequence as *reading* shows it, says of damage; and the name of the rule of
    :data:`RULES` that decided (or :data:`WEAK_RULE`, :data:`NONE_RULE`)."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return _weigh(before, text[start:end], after, reading)


@dataclass(frozen=True, slots=True)
class Sequence:
    """One UTF-8 sequence as a reading shows it, with one character either side."""

    before: str
    sequence: str
    after: str
    reading: str

    @property
    def letters(self) -> bool:
        return _letters(self.sequence)


@dataclass(frozen=True, slots=True)
class Rule:
    """A named rule of the evidence: *test* true makes a sequence decisive; *example*
    (before, sequence, after, reading) is one it decides, and a test checks it does. With
    *readings*, the rule is tried only on the sequences of those readings (without, on
    every reading's but cp437's, which only its own rules weigh); with *leads*, only on
    those that start with one of its characters."""

    name: str
    test: Callable[[Sequence], bool]
    example: tuple[str, str, str, str]
    readings: frozenset[str] | None = None
    leads: str | None = None


def _long_not_letters(s: Sequence) -> bool:
    # Long and not letters only, unless a Cyrillic word's last letters and its closing
    # punctuation ("дії»", "үйі»").
    return (
        len(s.sequence) >= LONG_SEQUENCE
        and not s.letters
        and not (_letters(s.sequence.rstrip(_WORD_END)) and s.sequence[0].islower())
    )


#: What a number's groups and its currency sign are parted by: a no-break space, or a
#: narrow one (CLDR's French and Swiss prices).
_NUMBER_SPACES = frozenset("\u00a0\u202f")


def _space_in_a_number(s: Sequence) -> bool:
    """*s* is UTF-8 of a no-break space between two digits, between a digit and a
    currency sign, or between a currency sign and a digit."""
    if utf8_of(s.sequence, s.reading) not in _NUMBER_SPACES:
        return False
    before, after = s.before, s.after
    if before.isdigit():
        return after.isdigit() or (after != "" and unicodedata.category(after) == "Sc")
    return before != "" and unicodedata.category(before) == "Sc" and after.isdigit()


def _case_break(s: Sequence) -> bool:
    around = s.before + s.sequence + s.after
    return any(a.islower() and b.isupper() for a, b in itertools.pairwise(around))


def _two_scripts(s: Sequence) -> bool:
    next_to_ascii = (s.before.isascii() and s.before.isalpha()) or (
        s.after.isascii() and s.after.isalpha()
    )
    return next_to_ascii and any(c.isalpha() and not _latin(c) for c in s.sequence)


#: The Cyrillic letters that are words of their own in the languages of the script:
#: conjunctions, prepositions and pronouns ("и", "в", "с", "к", "о", "у", "а", "я" in
#: Russian; "і", "й", "з" in Ukrainian; "ў" in Belarusian; "ѝ" in Bulgarian and
#: Macedonian), and the capitals of those that start a sentence ("Й" and "Ў" never do:
#: "Р™" is "Й" at the end of a word in capitals, "БӘХТИӘР™").
_ONE_LETTER_WORDS = frozenset("авзийкосуяіўѝАВЗИКОСУЯІ")
#: The windows-1251 leads of their UTF-8: "Р" (0xD0) and "С" (0xD1).
_ONE_LETTER_LEADS = "РС"


def _one_letter_word(s: Sequence) -> bool:
    # A windows-1251 pair standing alone as a word, that is UTF-8 for a letter that is a
    # word alone ("Рё" is "и", "С–" is "і"): correct text writes such pairs inside words
    # only ("Её", "Рёбра", "А–Я").
    if len(s.sequence) != 2:
        return False
    if s.before.isalnum() or s.after.isalnum():
        return False
    return utf8_of(s.sequence.replace("ʼ", "’"), "windows-1251") in _ONE_LETTER_WORDS


#: The leads of macintosh that are math symbols ("√" is 0xC3, "≈" 0xC5).
_MACINTOSH_MATH_LEADS = "".join(
    c for c in HIGH_HALVES["macintosh"][0xC2 - 0x80 :] if unicodedata.category(c) == "Sm"
)
#: The leads of Cyrillic letters' sequences (0xD0, 0xD1) in macintosh and x-mac-cyrillic:
#: a word of such sequences alternates a dash and another character ("–ê–Ω–¥–æ—Ä—Ä–∞" is
#: "Андорра"), which correct text does not start a word with.
_DASHES = "–—"


def _pairs_far_likelier(s: Sequence) -> bool:
    # A sequence that is otherwise weak (a symbol among its continuation characters),
    # whose UTF-8 character is a symbol or punctuation ("âœ”" is "✔"), and which the pair
    # table finds :data:`.siblings.MARGIN` likelier decoded, between its neighbours, than
    # as given. The table's score changes only at the pairs a changed character is in: a
    # sequence and its neighbours weigh the whole segment's change. A letter or a mark
    # does not count: correct text ends a word in capitals with a lead and a symbol
    # ("IRÃ™", Portuguese "Irã"), whose reading as a letter ("IRÙ") the table prefers.
    if _letters(s.sequence[1:]):
        return False
    character = siblings.decoded(s.sequence, s.reading)
    if character is None or not all(unicodedata.category(c)[0] in "SP" for c in character):
        return False
    repaired = siblings.score(s.before + character + s.after)
    return repaired - siblings.score(s.before + s.sequence + s.after) >= siblings.MARGIN


#: cp437's box-drawing characters, and its leads of three-byte sequences (Greek letters,
#: ß, µ and math signs: 0xE0-0xEF).
_BOX = frozenset(CP437_BOX)
#: A character of Unicode's Box Drawing, Block Elements or Geometric Shapes blocks.
_LINE_ART = re.compile("[\u2500-\u25ff]")
_CP437_LEAD3 = high_half(CP437)[0xE0 - 0x80 : 0xF0 - 0x80]
#: Letters that are a word of their own, in the Latin and Cyrillic alphabets whose UTF-8
#: a cp437 reading shows as a box-drawing pair: "à" in French, "é" and "à" in Portuguese,
#: "è" in Italian, "ή", "η" and "ο" in Greek, "և" in Armenian, "و" in Arabic, Persian and
#: Urdu, and the Cyrillic ones of the windows-1251 rule ("╨▓" is "в", "┘ê" is "و").
_CP437_ONE_LETTER_WORDS = frozenset("àéèóήηοևو") | _ONE_LETTER_WORDS


def _box_and_other(sequence: str) -> bool:
    """*sequence* holds a box-drawing character and one that is not: not line art, whose
    pairs are box drawing only ("├┤a┼┐a")."""
    box = [c in _BOX for c in sequence]
    return any(box) and not all(box)


def _small_latin(letter: str | None) -> bool:
    """*letter* is a small letter of the Latin alphabets written today (not ſ)."""
    return (
        letter is not None
        and letter.islower()
        and letter != "ſ"
        and unicodedata.name(letter, "").startswith("LATIN")
    )


#: The rules that name cp437 are the only ones that weigh its sequences (:func:`_rules_of`):
#: its box drawing makes line art whose pairs the other rules would take for damage ("a┼┐a"
#: is a symbol before a lowercase letter).
_CP437_ONLY = frozenset({CP437})

#: The evidence, in the order it is tried: the first rule whose test holds makes the
#: sequence decisive. A sequence no rule decides is weak when its continuation
#: characters include a symbol, else it says nothing.
RULES: tuple[Rule, ...] = (
    Rule(
        "c1-control",
        lambda s: _C1.search(s.sequence) is not None,
        ("", "Ã\x89", "", "windows-1252"),
    ),
    Rule("long-sequence", _long_not_letters, ("l", "â€™", "s", "windows-1252")),
    Rule(
        "long-letters-windows-1252",
        lambda s: len(s.sequence) >= LONG_SEQUENCE and s.letters and s.reading == "windows-1252",
        (" ", "ãƒž", " ", "windows-1252"),
    ),
    Rule(
        "mixed-cyrillic-alphabets",
        lambda s: _mixed_alphabets(s.sequence),
        (" ", "СЃРІРѕ", " ", "windows-1251"),
    ),
    Rule("case-break", _case_break, ("f", "Ã©", " ", "windows-1252")),
    Rule(
        "symbol-before-lowercase",
        lambda s: not s.sequence[-1].isalnum() and s.after.islower(),
        (" ", "Ã©", "t", "windows-1252"),
    ),
    Rule(
        # A superscript digit or a vulgar fraction (category No) is a sign, not a letter:
        # correct text puts one after a word ("m³", "½"), never between letters.
        "number-sign-before-lowercase",
        lambda s: unicodedata.category(s.sequence[-1]) == "No" and s.after.islower(),
        ("R", "Î³", "c", "windows-1252"),
    ),
    Rule(
        "no-break-space-in-a-number",
        _space_in_a_number,
        ("5", "Ā\xa0", "4", "windows-1257"),
    ),
    Rule(
        "vietnamese-letter-in-a-word",
        lambda s: (
            len(s.sequence) == 3
            and (s.before.isalpha() or s.after.isalpha())
            and "\u1ea0" <= (utf8_of(s.sequence, s.reading) or "") <= "\u1ef9"
        ),
        ("i", "áşż", "n", "windows-1250"),
        readings=frozenset({"windows-1250", "ISO-8859-2", "windows-1257"}),
    ),
    Rule(
        "lozenge-led-pairs",
        lambda s: len(s.sequence) == 2 and s.after == "◊",
        (" ", "◊ò", "◊", "macintosh"),
        readings=frozenset({"macintosh"}),
        leads="◊",
    ),
    Rule(
        "capitals-then-lowercase",
        lambda s: s.letters and s.after.islower() and all(c.isupper() for c in s.sequence),
        (" ", "ÄŒ", "e", "windows-1252"),
    ),
    Rule(
        "capital-capital-lowercase",
        lambda s: s.before.isupper() and s.sequence[0].isupper() and s.sequence[1].islower(),
        ("C", "Ăł", "r", "windows-1250"),
    ),
    Rule(
        "math-symbol-starts-a-word",
        lambda s: (
            unicodedata.category(s.sequence[0]) == "Sm"
            and _letters(s.sequence[1:])
            and s.after.isalpha()
        ),
        (" ", "√â", "m", "macintosh"),
    ),
    Rule(
        "math-symbol-inside-a-word",
        lambda s: s.before.isalpha(),
        ("n", "√≠", " ", "macintosh"),
        readings=frozenset({"macintosh"}),
        leads=_MACINTOSH_MATH_LEADS,
    ),
    Rule(
        "florin-sign-inside-a-word",
        lambda s: s.before.isalpha(),
        ("e", "ƒç", "i", "macintosh"),
        readings=frozenset({"macintosh"}),
        leads="ƒ",
    ),
    Rule(
        "florin-sign-starts-a-word",
        lambda s: _letters(s.sequence[1:]) and s.after.islower(),
        (" ", "ƒå", "a", "macintosh"),
        readings=frozenset({"macintosh"}),
        leads="ƒ",
    ),
    Rule(
        "odd-pair-after-capital",
        lambda s: (
            len(s.sequence) == 2
            and s.sequence[0] in _ODD_CAPITALS
            and s.sequence[1] in _ODD_AFTER_CAPITAL
        ),
        (" ", "Åž", "i", "windows-1252"),
    ),
    Rule("two-scripts-in-a-word", _two_scripts, (" ", "Гє", "n", "windows-1251")),
    Rule(
        "one-letter-word",
        _one_letter_word,
        (" ", "Рё", " ", "windows-1251"),
        readings=frozenset({"windows-1251"}),
        leads=_ONE_LETTER_LEADS,
    ),
    Rule(
        "dash-led-pairs",
        lambda s: s.after in _DASHES and not s.before.isalpha(),
        (" ", "–ê", "–", "macintosh"),
        readings=frozenset({"macintosh", "x-mac-cyrillic"}),
        leads=_DASHES,
    ),
    Rule(
        "pairs-far-likelier",
        _pairs_far_likelier,
        (" ", "âœ”", " ", "windows-1252"),
        readings=frozenset({"windows-1252"}),
    ),
    Rule(
        # A box-drawing lead, then a letter, next to a letter or to another box-drawing
        # character ("─îe" is "Če", "╤Ç╨" is "р" in a Russian word).
        "box-drawing-by-a-letter",
        lambda s: (
            len(s.sequence) == 2
            and s.sequence[1].isalpha()
            and s.sequence[1] not in _BOX
            and (s.after.isalpha() or s.after in _BOX or s.before.isalpha() or s.before in _BOX)
        ),
        (" ", "─î", "e", "cp437"),
        readings=_CP437_ONLY,
        leads=CP437_BOX,
    ),
    Rule(
        # Box drawing and another character, between letters ("iß║┐n" is "iến").
        "box-drawing-inside-a-word",
        lambda s: s.before.isalpha() and s.after.isalpha() and _box_and_other(s.sequence),
        ("i", "ß║┐", "n", "cp437"),
        readings=_CP437_ONLY,
    ),
    Rule(
        # A box-drawing lead and a character that is not box drawing, at the end of a word
        # ("caf├⌐" is "café").
        "box-drawing-ends-a-word",
        lambda s: s.before.isalpha() and not s.after.isalnum() and s.sequence[-1] not in _BOX,
        ("f", "├⌐", " ", "cp437"),
        readings=_CP437_ONLY,
        leads=CP437_BOX,
    ),
    Rule(
        # A box-drawing lead and a symbol, before a letter ("├¡s" is "ís", "├⌐t" is "ét").
        "box-drawing-symbol-before-a-letter",
        lambda s: not s.sequence[-1].isalnum() and s.sequence[-1] not in _BOX and s.after.isalpha(),
        (" ", "├¡", "s", "cp437"),
        readings=_CP437_ONLY,
        leads=CP437_BOX,
    ),
    Rule(
        # Two box-drawing characters after a letter that are UTF-8 for a small Latin
        # letter ("Col├│n" is "Colón", "Bat─▒" is "Batı"). Not the long s (ſ), which no
        # alphabet writes today and line art's "a┼┐a" is.
        "box-drawing-pair-is-a-letter",
        lambda s: (
            len(s.sequence) == 2
            and s.before.isalpha()
            and not s.after.isdigit()
            and _small_latin(utf8_of(s.sequence, CP437))
        ),
        ("l", "├│", "n", "cp437"),
        readings=_CP437_ONLY,
        leads=CP437_BOX,
    ),
    Rule(
        # A pair alone as a word that is UTF-8 for a letter that is a word alone ("╨▓" is
        # "в", "├á" is "à"); not a piece of line art among others ("╨╕┬").
        "box-drawing-one-letter-word",
        lambda s: (
            len(s.sequence) == 2
            and not s.before.isalnum()
            and not s.after.isalnum()
            and _LINE_ART.search(s.before + s.after) is None
            and utf8_of(s.sequence, CP437) in _CP437_ONE_LETTER_WORDS
        ),
        (" ", "╨▓", " ", "cp437"),
        readings=_CP437_ONLY,
        leads=CP437_BOX,
    ),
    Rule(
        # A Greek letter or math sign (a three-byte lead), then two of Latin letters, box
        # drawing and Latin-1's symbols, which Greek text and formulas do not put in one
        # word ("ΓÇÖ" is "’", "ß║┐" is "ế", "Σ╕¡" is "中", "α«╡" is "வ"); not a word
        # closed by two guillemets ("α»»").
        "greek-lead-then-latin",
        lambda s: len(s.sequence) == 3 and s.sequence[1:] != "»»",
        (" ", "ΓÇÖ", "s", "cp437"),
        readings=_CP437_ONLY,
        leads=_CP437_LEAD3,
    ),
)
#: The names of the field's rules: every letter of a script reading's script in its
#: sequences (:func:`_lone_scripts`), and a run of sequences (:func:`_runs`).
LONE_SCRIPT_RULE = "lone-script-letters"
#: ... and every Latin letter of a field of another script in its sequences, which read as
#: letters of that script (:func:`_lone_latin`).
LONE_LATIN_RULE = "lone-latin-letters"
RUN_RULE = "run-of-sequences"
#: The names of a sequence no rule decides.
WEAK_RULE = "symbol-in-sequence"
NONE_RULE = "letters-only"


@functools.cache
def _rules_of(reading: str, lead: str) -> tuple[Rule, ...]:
    """The rules of :data:`RULES` tried on a sequence of *reading* that starts with
    *lead*, in order."""
    own = reading == CP437  # weighed by its own rules only
    return tuple(
        r
        for r in RULES
        if (reading in r.readings if r.readings is not None else not own)
        and (r.leads is None or lead in r.leads)
    )


# The weight depends on the sequence and one character either side only: text repeats
# them ("Ві" after a space, before a lowercase letter), so they are remembered.
@functools.lru_cache(maxsize=4096)
def _weigh(before: str, sequence: str, after: str, reading: str) -> tuple[int, str]:
    if reading == "windows-1251":
        # An apostrophe in a Cyrillic word is a letter of it, neither lower nor upper case
        # ("б’є" in "Об’єднані", "М’янма", "Кот-д’Івуар").
        sequence, before, after = (s.replace("’", "ʼ") for s in (sequence, before, after))
    elif sequence[-1] == "’" and sequence[0].isupper() and after.isalpha():
        # A capital, then an apostrophe and a letter: the possessive or an elision of a
        # word in capitals ("BEYONCÉ’s", "ZOË’s", "AÇAÍ’s", "Ã’s"), not a symbol in a word.
        sequence = sequence[:-1] + "ʼ"
    found = Sequence(before, sequence, after, reading)
    for rule in _rules_of(reading, sequence[0]):
        if rule.test(found):
            return DECISIVE, rule.name
    return (NONE, NONE_RULE) if _letters(sequence[1:]) else (WEAK, WEAK_RULE)


#: Letters by their category that text uses as symbols: ordinal indicators after digits,
#: spacing circumflex and tilde ("Ãª" is "ê", "Ëœ" is "˜").
_SYMBOL_LETTERS = frozenset("ªºˆ˜")


def _letters(text: str) -> bool:
    return text.isalpha() and _SYMBOL_LETTERS.isdisjoint(text)


@functools.lru_cache(maxsize=4096)  # bounded: any character may come
def _latin(c: str) -> bool:
    # The apostrophe stands for "’" in a word: it belongs to no script.
    return c.isascii() or c == "ʼ" or unicodedata.name(c, "").startswith("LATIN")


@dataclass(slots=True)
class Evidence:
    """Decisive and weak sequences counted in a text."""

    decisive: int = 0
    weak: int = 0
    #: The rule that decided the first decisive sequence (else the first weak one's), and
    #: the sequence, as reports name them.
    rule: str | None = None
    sequence: str | None = None

    def note(self, weight: int, rule: str, sequence: str) -> None:
        """Count one sequence's *weight*, keeping the first decisive rule."""
        self.decisive += weight == DECISIVE
        self.weak += weight == WEAK
        first_decisive = weight == DECISIVE and self.decisive == 1
        if first_decisive or (weight == WEAK and self.rule is None):
            self.rule, self.sequence = rule, sequence

    @property
    def enough(self) -> bool:
        """Enough for a repair of the fallback (see the module's docstring)."""
        return self.decisive >= MIN_DECISIVE or self.weak >= MIN_WEAK


_SCRIPT_LETTERS = {
    "windows-1251": re.compile("[\u0400-\u04ff]"),
    "windows-1253": re.compile("[\u0370-\u03ff]"),
}
_ASCII_LETTER = re.compile("[A-Za-z]")


def _lone_scripts(text: str, sequences: list[tuple[str, int, int]]) -> set[str]:
    """Script readings (windows-1251, -1253) whose every letter of their script in *text*
    is inside one of their *sequences*, in text with ASCII letters: a Latin field whose
    only Cyrillic is the reading of UTF-8 bytes ("R$В\u00a031,50", "HГєngaro")."""
    lone: set[str] = set()
    if _ASCII_LETTER.search(text) is None:
        return lone
    for name, letters in _SCRIPT_LETTERS.items():
        spans = [(start, end) for reading, start, end in sequences if reading == name]
        if spans and letters.search(_outside(text, spans)) is None:
            lone.add(name)
    return lone


def _outside(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """*text* without its *spans*, ``(start, end)`` sorted by start."""
    rest, last = [], 0
    for start, end in spans:
        rest.append(text[last:start])
        last = max(last, end)
    rest.append(text[last:])
    return "".join(rest)


def _lone_latin(text: str, sequences: list[tuple[str, int, int]]) -> set[int]:
    """The indexes of *sequences* that hold a Latin letter, in the readings whose such
    sequences hold every Latin letter of a text of another script, and read as letters of
    that script: the damage left in a field of that script ("Ñ–" is "і" in "Боснія Ñ–
    Герцагавіна", "ŘŁŮŠŘ©" is "أية" among Arabic words). A text with an ASCII letter
    never counts (a Latin word in it may be written with any accented letter)."""
    if _ASCII_LETTER.search(text) is not None:
        return set()
    letters = {c for c in set(text) if c.isalpha()}
    if {script_of(c) for c in letters} <= {"LATIN"}:
        return set()  # no letter of another script
    latin_letters = {c for c in letters if _latin(c)}
    latin = {
        i
        for i, (_name, start, end) in enumerate(sequences)
        if not latin_letters.isdisjoint(text[start:end])
    }
    if not latin:
        return set()
    lone: set[int] = set()
    for name in {sequences[i][0] for i in latin}:
        mine = [i for i in latin if sequences[i][0] == name]
        rest = _outside(text, sorted((sequences[i][1], sequences[i][2]) for i in mine))
        outside = {script_of(c) for c in set(rest) if c > "\x7f" and c.isalpha()}
        if not outside or "LATIN" in outside:
            continue
        if all(_reads_as(text[sequences[i][1] : sequences[i][2]], name, outside) for i in mine):
            lone.update(mine)
    return lone


def _reads_as(sequence: str, name: str, scripts: set[str]) -> bool:
    """*sequence*, as the bytes of the reading *name* decoded as UTF-8, is letters of
    *scripts*."""
    try:
        decoded = singlebyte.encode(sequence, name).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return False
    letters = [c for c in decoded if c.isalpha()]
    return bool(letters) and all(script_of(c) in scripts for c in letters)


def _runs(sequences: list[tuple[str, int, int]]) -> Iterator[tuple[int, int]]:
    """``(i, j)`` of each run ``sequences[i:j]`` of :data:`MIN_RUN` or more back-to-back
    sequences of one reading (*sequences* sorted by reading and start)."""
    i = 0
    while i < len(sequences):
        j = i + 1
        while (
            j < len(sequences)
            and sequences[j][0] == sequences[i][0]
            and sequences[j][1] == sequences[j - 1][2]
        ):
            j += 1
        if j - i >= MIN_RUN:
            yield i, j
        i = j


def _make_decisive(weights: list[int], rules: list[str], which: Iterable[int], rule: str) -> None:
    """Make the sequences *which* decisive, by *rule* for those that were not."""
    for i in which:
        if weights[i] != DECISIVE:
            weights[i], rules[i] = DECISIVE, rule


def evidence(
    text: str,
    names: Collection[str] = UTF8_READINGS,
    marks: Marks | None = None,
    *,
    by_reading: dict[str, Evidence] | None = None,
) -> Evidence:
    """The evidence of UTF-8 read as one of *names* in *text*: each reading counted
    apart, the best kept (and every reading's count in *by_reading*, when given)."""
    sequences: list[tuple[str, int, int]] = []
    weights: list[int] = []
    rules: list[str] = []
    for name, start, end in utf8_sequences(text, marks, names):
        weight, rule = weigh_rule(text, start, end, name)
        sequences.append((name, start, end))
        weights.append(weight)
        rules.append(rule)
    if not sequences:
        if by_reading is not None:
            by_reading.update((name, Evidence()) for name in names)
        return Evidence()
    order = sorted(range(len(sequences)), key=sequences.__getitem__)
    sequences = [sequences[i] for i in order]
    weights = [weights[i] for i in order]
    rules = [rules[i] for i in order]
    lone = _lone_scripts(text, sequences)
    _make_decisive(
        weights, rules, [i for i, s in enumerate(sequences) if s[0] in lone], LONE_SCRIPT_RULE
    )
    _make_decisive(weights, rules, _lone_latin(text, sequences), LONE_LATIN_RULE)
    # A run that holds a weak sequence, or Cyrillic letters of two language groups.
    runs = [
        k
        for i, j in _runs(sequences)
        if WEAK in weights[i:j] or _mixed_alphabets(text[sequences[i][1] : sequences[j - 1][2]])
        for k in range(i, j)
    ]
    _make_decisive(weights, rules, runs, RUN_RULE)
    # Only the readings with a sequence are counted: the others' count is empty.
    found: dict[str, Evidence] = {}
    for (name, start, end), weight, rule in zip(sequences, weights, rules, strict=True):
        count = found.get(name)
        if count is None:
            count = found[name] = Evidence()
        count.note(weight, rule, text[start:end])
    counted = [found.get(name) or Evidence() for name in names]
    if by_reading is not None:
        by_reading.update(zip(names, counted, strict=True))
    return max(counted, key=lambda e: (e.decisive, e.weak), default=Evidence())


_CP437_SEQUENCE = re.compile(sequence_pattern(high_half(CP437)))


def cp437_sequences(text: str, marks: Marks) -> list[tuple[int, int]]:
    """``(start, end)`` of each UTF-8 sequence that cp437 shows in *text* at *marks*'
    :attr:`~Marks.cp437` leads, in order."""
    out: list[tuple[int, int]] = []
    end = 0
    for position in marks.cp437:
        if position < end:
            continue
        match = _CP437_SEQUENCE.match(text, position)
        if match is not None:
            out.append(match.span())
            end = match.end()
    return out


def cp437_evidence(text: str, marks: Marks) -> Evidence:
    """The evidence of UTF-8 read as cp437 in *text*: each sequence at *marks*' leads
    weighed by the rules of :data:`RULES` that name cp437, and every sequence of a run of
    :data:`MIN_RUN` or more back to back that holds a character other than box drawing
    made decisive (:data:`RUN_RULE`: "╫⌐╫£" is "של"; line art's runs are box drawing
    only)."""
    if not marks.cp437:
        return Evidence()
    spans = [(CP437, start, end) for start, end in cp437_sequences(text, marks)]
    weighed = [weigh_rule(text, start, end, CP437) for _, start, end in spans]
    weights, rules = [w for w, _ in weighed], [r for _, r in weighed]
    runs = [
        k
        for i, j in _runs(spans)
        if not _BOX.issuperset(text[spans[i][1] : spans[j - 1][2]])
        for k in range(i, j)
    ]
    _make_decisive(weights, rules, runs, RUN_RULE)
    found = Evidence()
    for (_, start, end), weight, rule in zip(spans, weights, rules, strict=True):
        found.note(weight, rule, text[start:end])
    return found
