"""The kinds of mojibake, and the character tables they are made of.

The single-byte tables are the Encoding Standard's (:mod:`scrapy_charset.whatwg.singlebyte`,
generated from its indexes): mojibake is made by browsers and by code that decodes as
browsers do, so the browser's windows-1252 (which keeps 0x81, 0x8D, 0x8F, 0x90 and 0x9D as
C1 controls) is the table to invert, not Python's ``cp1252``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from scrapy_charset.whatwg import singlebyte
from scrapy_charset.whatwg._singlebyte import HIGH_HALVES

__all__ = [
    "KINDS",
    "LEGACY_KINDS",
    "SAFE_KINDS",
    "Finding",
    "MojibakeKind",
    "decode_reading",
    "encode_reading",
    "encode_windows_1252",
    "high_half",
    "script_of",
    "utf8_of",
]


class MojibakeKind(str, Enum):
    """How the damage was made: the name says what to fix upstream."""

    #: UTF-8 bytes decoded as windows-1252 or latin-1 ("CafÃ©", "â€™").
    UTF8_AS_WINDOWS_1252 = "utf8-as-windows-1252"
    #: The above, twice ("Ã¢â‚¬â„¢").
    UTF8_DOUBLE_ENCODED = "utf8-double-encoded"
    #: UTF-8 bytes decoded as windows-1251 ("РџСЂРёРІРµС‚").
    UTF8_AS_WINDOWS_1251 = "utf8-as-windows-1251"
    #: UTF-8 bytes decoded as another single-byte encoding (macintosh, windows-1250,
    #: ISO-8859-2, windows-1253, -1254, -1257; cp437 through ftfy): "caf√©".
    UTF8_AS_OTHER = "utf8-as-other"
    #: UTF-8 bytes decoded as Shift_JIS ("譌･譛ｬ", "Cafﾃｩ").
    UTF8_AS_SHIFT_JIS = "utf8-as-shift_jis"
    #: Legacy CJK or Cyrillic bytes decoded as windows-1252 ("ÖÐ¹ú", "Ïðèâåò").
    LEGACY_AS_WINDOWS_1252 = "legacy-as-windows-1252"
    #: Stray C1 controls (U+0080 to U+009F): windows-1252 bytes decoded as latin-1.
    C1_CONTROLS = "c1-controls"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        # Reports print as they did when kinds were plain strings.
        return repr(self.value)


KINDS: tuple[MojibakeKind, ...] = tuple(MojibakeKind)
#: Exact inverses of how the damage was made (the bytes a single-byte reading shows,
#: decoded as UTF-8): repaired by default, when the evidence holds and no other reading,
#: nor the text as given, is about as likely as the repair (:mod:`.siblings`).
SAFE_KINDS = frozenset(
    {
        MojibakeKind.UTF8_AS_WINDOWS_1252,
        MojibakeKind.UTF8_DOUBLE_ENCODED,
        MojibakeKind.UTF8_AS_WINDOWS_1251,
        MojibakeKind.UTF8_AS_OTHER,
    }
)
#: Repairs that choose an encoding: only on request, but for C1 controls that are all
#: punctuation in windows-1252, which are read so by default.
LEGACY_KINDS = frozenset(KINDS) - SAFE_KINDS


@dataclass(frozen=True, slots=True)
class Finding:
    """A legacy reading of a text (:mod:`.legacy`): its kind, and its repair (None when no
    reading is told apart from the others) in the encoding it chose."""

    kind: MojibakeKind
    repaired: str | None
    encoding: str | None = None


# --- Single-byte tables ---------------------------------------------------------------------

#: Bytes 0x80-0xFF of the browser's windows-1252.
WINDOWS_1252_HIGH = HIGH_HALVES["windows-1252"]

#: Single-byte encodings whose reading of UTF-8 bytes is looked for: windows-1252 (which
#: covers latin-1 and windows-1254's letters), windows-1251, and the others ftfy can undo.
UTF8_READINGS = (
    "windows-1252",
    "windows-1251",
    "macintosh",
    "windows-1250",
    "ISO-8859-2",
    "windows-1253",
    "windows-1257",
)

#: Bytes 0x80-0xFF of cp437, the IBM PC's code page (DOS consoles, ZIP file names): no
#: browser decodes it, so the Encoding Standard has no table of it; this one is Python's
#: codec's. UTF-8 read as cp437 shows its lead bytes as box drawing (0xC2-0xDF), Greek
#: letters and math signs (0xE0-0xF4): "─îe┼ítina" is "Čeština".
CP437 = "cp437"
CP437_HIGH = bytes(range(0x80, 0x100)).decode(CP437)
#: cp437's box-drawing and block characters (bytes 0xB0-0xDF): the two-byte leads, and
#: the continuation bytes 0xB0-0xBF.
CP437_BOX = CP437_HIGH[0xB0 - 0x80 : 0xE0 - 0x80]


def high_half(name: str) -> str:
    """Bytes 0x80-0xFF of the single-byte encoding *name* (the Encoding Standard's
    table, or :data:`CP437_HIGH`)."""
    return CP437_HIGH if name == CP437 else HIGH_HALVES[name]


@functools.lru_cache(maxsize=4096)  # bounded: any character may come
def script_of(c: str) -> str:
    """The first word of *c*'s Unicode name: its script, for the letters and signs of one
    ("LATIN", "CYRILLIC", "ARABIC"); "" for a character without a name."""
    return unicodedata.name(c, "").split(" ", 1)[0]


def encode_reading(text: str, name: str) -> bytes | None:
    """The bytes the single-byte encoding *name* read as *text* (a browser's decoder, or
    cp437's), or None when *name* has no byte for one of its characters."""
    if name == "windows-1252":
        return encode_windows_1252(text)
    try:
        return text.encode(CP437) if name == CP437 else singlebyte.encode(text, name)
    except UnicodeEncodeError:
        return None


def decode_reading(raw: bytes, name: str) -> str:
    """*raw* decoded in reading *name*: the Encoding Standard's decoder, or cp437's."""
    return raw.decode(CP437) if name == CP437 else singlebyte.decode(raw, name)


def utf8_of(text: str, name: str) -> str | None:
    """*text*'s bytes in the single-byte encoding *name* (:func:`encode_reading`) decoded
    as UTF-8, or None when *name* has no byte for one of its characters or the bytes are
    not UTF-8."""
    raw = encode_reading(text, name)
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


_TO_LATIN1 = str.maketrans(
    {c: chr(0x80 + i) for i, c in enumerate(WINDOWS_1252_HIGH[:0x20]) if ord(c) > 0xFF}
)


#: A character that neither windows-1252 nor latin-1 has a byte for.
_NOT_WINDOWS_1252 = re.compile(
    "[^\x00-\xff" + re.escape("".join(c for c in WINDOWS_1252_HIGH if ord(c) > 0xFF)) + "]"
)


def windows_1252_encodes(text: str) -> bool:
    """:func:`encode_windows_1252` gives bytes for *text* (told without encoding it)."""
    return _NOT_WINDOWS_1252.search(text) is None


def encode_windows_1252(text: str) -> bytes | None:
    """The bytes a browser's windows-1252 (or latin-1) decoder read as *text*, or None."""
    if not windows_1252_encodes(text):
        return None
    try:
        return text.encode("cp1252")
    except UnicodeEncodeError:  # the five C1 controls windows-1252 keeps, and latin-1's
        return text.translate(_TO_LATIN1).encode("latin-1")


def chars(table: str, low: int, high: int) -> str:
    """The characters of bytes *low* to *high* in a high-half *table*, for a regex class."""
    found = (table[b - 0x80] for b in range(low, high + 1) if b >= 0x80)
    return re.escape("".join(c for c in found if c != "\ufffd"))


#: UTF-8 lead bytes, ``(first, last, continuation bytes)``: a two-, three- and four-byte
#: sequence's lead and how many continuation bytes (0x80-0xBF) follow it.
UTF8_LEADS = ((0xC2, 0xDF, 1), (0xE0, 0xEF, 2), (0xF0, 0xF4, 3))


def sequence_pattern(table: str, extra_cont: str = "") -> str:
    """One UTF-8 byte sequence as a single-byte decoder shows it."""
    cont = chars(table, 0x80, 0xBF) + extra_cont
    return "(?:{})".format(
        "|".join(
            f"[{chars(table, low, high)}][{cont}]" + (f"{{{size}}}" if size > 1 else "")
            for low, high, size in UTF8_LEADS
        )
    )


#: windows-1252 as latin-1 shows it too: the C1 controls stand for its continuation bytes.
C1_RANGE = "\u0080-\u009f"


def extra_cont(name: str) -> str:
    """Characters that also stand for a continuation byte in *name*'s reading."""
    return C1_RANGE if name == "windows-1252" else ""


#: Half-width katakana: UTF-8 lead bytes 0xC2-0xDF and continuation bytes 0xA1-0xBF, as
#: Shift_JIS reads them.
HALFWIDTH_KATAKANA = "\uff61-\uff9f"


def _shift_jis_utf8_leads() -> str:
    """Shift_JIS characters of a UTF-8 lead byte 0xE0-0xEF followed by a continuation
    byte: every UTF-8 three-byte sequence read as Shift_JIS begins with one."""
    found = set()
    for lead in range(0xE0, 0xF0):
        for trail in range(0x80, 0xC0):
            try:
                found.add(bytes([lead, trail]).decode("cp932"))
            except UnicodeDecodeError:
                continue
    return "".join(sorted(found))


SHIFT_JIS_UTF8_LEADS = re.escape(_shift_jis_utf8_leads())
