"""The pre-filter's compiled scanner (optional): where in a text the marks' pattern may
match, found by the C module :mod:`._scanc` built from this package's source.

The marks' regular expressions (:mod:`.badness`) stay the reference. Each of their
branches reads a character of some class and looks at its neighbours; the compiled
scanner reads the text's code points directly (no encoding step), looks up each one's
classes in a table built here from the very class bodies the expressions are made of
(:func:`table`), and returns the positions where a branch's classes stand side by side,
its readings' details aside: a superset of the positions the pattern matches at, which
the pattern then tries one by one. It also tells whether windows-1252 encodes the text
whole (every character is latin-1 or one of windows-1252's).

``SCANNER`` tells which path is in use: ``"compiled"`` when the module was built (a
platform wheel, or ``python scripts/build_scanner.py`` in a checkout) and the environment
variable ``SCRAPY_CHARSET_PURE`` is not set to a non-empty value other than ``0``, else
``"python"``. A debug line of this module's logger says it at import.
"""

from __future__ import annotations

import array
import functools
import logging
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType

from scrapy_charset._compiled import PURE

logger = logging.getLogger(__name__)


def _load() -> ModuleType | None:
    if PURE:
        return None
    try:
        from scrapy_charset.items.mojibake import _scanc
    except ImportError:
        return None
    return _scanc


_scanc = _load()

#: The path in use: "compiled" or "python".
SCANNER = "python" if _scanc is None else "compiled"
logger.debug(
    "mojibake pre-filter: the %s path%s",
    SCANNER,
    " (SCRAPY_CHARSET_PURE is set)" if PURE else "",
)

#: The classes of the table's bits, in bit order (``_scanc.c`` tests them by these
#: numbers): a mark of one character; a Latin reading's lead; a Latin reading's
#: continuation character; a script reading's continuation character; a script reading's
#: two-byte lead; a windows-1252 character of 0x80-0xFF; an ASCII character a legacy trail
#: byte can be; a cp437 lead; a Shift_JIS reading of a UTF-8 lead byte (among the marks of
#: one character); an x-mac-cyrillic lead of a Latin or Cyrillic letter's sequence; an
#: x-mac-cyrillic continuation character that is a Cyrillic letter; a cp437 continuation
#: character. Then :data:`READINGS` bits each for the Latin readings' two-, three- and four-byte
#: leads and their continuation characters.
CLASS_BITS = (
    "single",
    "latin_lead",
    "latin_cont",
    "script_cont",
    "script_lead2",
    "high_1252",
    "trail",
    "cp437_lead",
    "shift_jis_lead",
    "mac_cyrillic_lead",
    "mac_cyrillic_cont",
    "cp437_cont",
)
#: The Latin readings the table has bits of.
READINGS = 5
#: Code points the table has entries of: the BMP's, then one for the supplementary planes.
ENTRIES = 0x10001

_PLANES = (0x10000, 0x1F600, 0x10FFFF)  # probes of the supplementary planes


def table(bodies: Sequence[str]) -> bytes:
    """The classes of each BMP code point, then those of every supplementary one, 32 bits
    each in native byte order: bit *i* set where the regular-expression class
    ``[bodies[i]]`` matches."""
    if len(bodies) != len(CLASS_BITS) + 4 * READINGS:
        raise ValueError(f"{len(CLASS_BITS) + 4 * READINGS} classes are needed")
    bmp = "".join(map(chr, range(0x10000)))
    combined = 0
    for bit, body in enumerate(bodies):
        flag = bytes([1 << bit % 8])
        at = bit // 8 if sys.byteorder == "little" else 3 - bit // 8
        members = bytearray(4 * ENTRIES)
        for run in re.finditer(f"[{body}]+", bmp):  # few runs: ranges of code points
            start, end = run.span()
            members[4 * start + at : 4 * end : 4] = flag * (end - start)
        supplementary = [re.match(f"[{body}]", chr(p)) is not None for p in _PLANES]
        if all(supplementary):
            members[4 * 0x10000 + at] = flag[0]
        elif any(supplementary):
            raise ValueError(f"a class with part of the supplementary planes: [{body}]")
        combined |= int.from_bytes(members, "big")  # one bit of each entry
    return combined.to_bytes(4 * ENTRIES, "big")


#: The fields of the quiet test's table (``_scanc.c`` tests them by these names), by
#: their first bit and width: the continuation bytes a windows-1251 lead needs and whether
#: the character is one of its continuation bytes, the same for windows-1253; the Cyrillic
#: alphabets whose distinctive letter the character's capital is; its capital is several
#: characters, one of them distinctive; a letter text uses as a symbol; a letter of a
#: Cyrillic word without case (the apostrophe); in the block of windows-1251's script.
QUIET_FIELDS = {
    "lead_1251": (0, 2),
    "cont_1251": (2, 1),
    "lead_1253": (3, 2),
    "cont_1253": (5, 1),
    "alphabets": (6, 5),
    "mixed": (11, 1),
    "symbol": (12, 1),
    "apostrophe": (13, 1),
    "script_1251": (14, 1),
    "word_second": (15, 1),
}


def quiet_table(fields: Mapping[str, Mapping[str, int]]) -> bytes:
    """The quiet test's table: 16 bits for each BMP code point in native byte order, each
    field of :data:`QUIET_FIELDS` the value *fields* gives the character (0 if none)."""
    values = [0] * 0x10000
    for name, by_char in fields.items():
        shift, width = QUIET_FIELDS[name]
        for char, value in by_char.items():
            if not 0 <= value < 1 << width:
                raise ValueError(f"{name}: {value} does not fit {width} bits")
            values[ord(char)] |= value << shift
    return array.array("H", values).tobytes()


#: ``(encodable, positions, shift_jis, quiet)`` of a text: see :func:`scanner`.
Candidates = Callable[[str], tuple[bool, list[int], int, tuple[list[int], list[int]] | None]]


def scanner(bodies: Sequence[str], quiet: bytes) -> Candidates | None:
    """The compiled scanner of the classes *bodies* (in the order of :func:`table`): a
    function of a text that gives whether windows-1252 encodes it whole, the positions,
    in order, where the marks' pattern may match, in text it does not encode whole how
    many Shift_JIS readings of a UTF-8 lead byte it holds (marks of one character whatever
    their neighbours, counted and not among the positions), and, when every position is a
    script branch's mark that can never be evidence by the quiet test of the table *quiet*
    (:func:`quiet_table`; see :func:`.badness.scan`), the positions that are continuation
    characters of windows-1251 and those of windows-1253 (else None). None on the pure
    path."""
    if _scanc is None:
        return None
    return functools.partial(_scanc.candidates, table(bodies), quiet)
