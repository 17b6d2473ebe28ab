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

import functools
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

logger = logging.getLogger(__name__)

_PURE = os.environ.get("SCRAPY_CHARSET_PURE", "") not in ("", "0")


def _load() -> ModuleType | None:
    if _PURE:
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
    " (SCRAPY_CHARSET_PURE is set)" if _PURE else "",
)

#: The classes of the table's bits, in bit order (``_scanc.c`` tests them by these
#: numbers): a mark of one character; a Latin reading's lead; a Latin reading's
#: continuation character; a script reading's continuation character; a script reading's
#: two-byte lead; a windows-1252 character of 0x80-0xFF; an ASCII character a legacy trail
#: byte can be; a character that is not ASCII; a Shift_JIS reading of a UTF-8 lead byte
#: (among the marks of one character); an x-mac-cyrillic lead of a Latin or Cyrillic
#: letter's sequence; an x-mac-cyrillic continuation character that is a Cyrillic letter.
#: Then :data:`READINGS` bits each for the Latin readings' two-, three- and four-byte
#: leads and their continuation characters.
CLASS_BITS = (
    "single",
    "latin_lead",
    "latin_cont",
    "script_cont",
    "script_lead2",
    "high_1252",
    "trail",
    "non_ascii",
    "shift_jis_lead",
    "mac_cyrillic_lead",
    "mac_cyrillic_cont",
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


#: ``(encodable, positions, shift_jis)`` of a text: see :func:`scanner`.
Candidates = Callable[[str], tuple[bool, list[int], int]]


def scanner(bodies: Sequence[str]) -> Candidates | None:
    """The compiled scanner of the classes *bodies* (in the order of :func:`table`): a
    function of a text that gives whether windows-1252 encodes it whole, the positions,
    in order, where the marks' pattern may match, and, in text it does not encode whole,
    how many Shift_JIS readings of a UTF-8 lead byte it holds: marks of one character
    whatever their neighbours, counted and not among the positions. None on the pure
    path."""
    if _scanc is None:
        return None
    return functools.partial(_scanc.candidates, table(bodies))
