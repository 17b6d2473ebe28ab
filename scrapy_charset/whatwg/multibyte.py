"""Encoding Standard, sections 10 to 13: the legacy multi-byte CJK decoders, step by step.

https://encoding.spec.whatwg.org/#legacy-multi-byte-chinese-(simplified)-encodings

gb18030 (and GBK, which shares its decoder), Big5, EUC-JP, Shift_JIS and EUC-KR are
stateless: after each code point or error the decoder is back in its initial state. Each
``*_step`` function runs one decoder from that state for one result (a code point, two for
four Big5 pointers, or an error) and says where the next starts, mirroring the spec's
steps: the lead and trail ranges, "prepend byte" for an ASCII trail byte (it is decoded
again) and end-of-queue. The index lookup is a parameter: the fast decoders in
:mod:`scrapy_charset.whatwg.cjk` pass the C codec plus the generated differences, the
table generator passes the indexes themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["STEPS", "Lookup", "Step", "step_decode"]

#: A one-step decoder from a character boundary: ``(data, pos, lookup) -> (text, new pos)``.
#: ``lookup(sequence)`` gives the index's text for a byte sequence, or None (null).
Lookup = Callable[[bytes], "str | None"]
Step = Callable[[bytes, int, Lookup], tuple[str, int]]

_FFFD = "\ufffd"


def gb18030_step(data: bytes, pos: int, lookup: Lookup) -> tuple[str, int]:
    """https://encoding.spec.whatwg.org/#gb18030-decoder, from the initial state."""
    end = len(data)
    first = data[pos]
    if first < 0x80:
        return chr(first), pos + 1
    if first == 0x80:
        return "\u20ac", pos + 1
    if first == 0xFF:
        return _FFFD, pos + 1
    if pos + 1 == end:  # end-of-queue with gb18030 first set
        return _FFFD, end
    second = data[pos + 1]
    if 0x30 <= second <= 0x39:
        if pos + 2 == end:
            return _FFFD, end
        third = data[pos + 2]
        if not 0x81 <= third <= 0xFE:
            # Prepend second and the byte: only the first byte is consumed.
            return _FFFD, pos + 1
        if pos + 3 == end:
            return _FFFD, end
        fourth = data[pos + 3]
        if not 0x30 <= fourth <= 0x39:
            # Prepend second, third and the byte.
            return _FFFD, pos + 1
        found = lookup(data[pos : pos + 4])
        return (_FFFD if found is None else found), pos + 4
    if 0x40 <= second <= 0x7E or 0x80 <= second <= 0xFE:
        found = lookup(data[pos : pos + 2])
        if found is not None:
            return found, pos + 2
    # An ASCII byte is prepended (decoded again); any other byte is consumed.
    return _FFFD, pos + 1 if second < 0x80 else pos + 2


def big5_step(data: bytes, pos: int, lookup: Lookup) -> tuple[str, int]:
    """https://encoding.spec.whatwg.org/#big5-decoder, from the initial state."""
    lead = data[pos]
    if lead < 0x80:
        return chr(lead), pos + 1
    if not 0x81 <= lead <= 0xFE:
        return _FFFD, pos + 1
    if pos + 1 == len(data):
        return _FFFD, pos + 1
    byte = data[pos + 1]
    if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
        # Pointers 1133, 1135, 1164 and 1166 give two code points: lookup returns both.
        found = lookup(data[pos : pos + 2])
        if found is not None:
            return found, pos + 2
    return _FFFD, pos + 1 if byte < 0x80 else pos + 2


def euc_jp_step(data: bytes, pos: int, lookup: Lookup) -> tuple[str, int]:
    """https://encoding.spec.whatwg.org/#euc-jp-decoder, from the initial state."""
    end = len(data)
    lead = data[pos]
    if lead < 0x80:
        return chr(lead), pos + 1
    if not (lead in (0x8E, 0x8F) or 0xA1 <= lead <= 0xFE):
        return _FFFD, pos + 1
    if pos + 1 == end:
        return _FFFD, end
    byte = data[pos + 1]
    if lead == 0x8E and 0xA1 <= byte <= 0xDF:
        return chr(0xFF61 - 0xA1 + byte), pos + 2
    if lead == 0x8F and 0xA1 <= byte <= 0xFE:
        # JIS X 0212: the byte becomes the lead of a two-byte pair.
        if pos + 2 == end:
            return _FFFD, end
        trail = data[pos + 2]
        if 0xA1 <= trail <= 0xFE:
            found = lookup(data[pos : pos + 3])
            if found is not None:
                return found, pos + 3
        return _FFFD, pos + 2 if trail < 0x80 else pos + 3
    if 0xA1 <= lead <= 0xFE and 0xA1 <= byte <= 0xFE:
        found = lookup(data[pos : pos + 2])
        if found is not None:
            return found, pos + 2
    return _FFFD, pos + 1 if byte < 0x80 else pos + 2


def shift_jis_step(data: bytes, pos: int, lookup: Lookup) -> tuple[str, int]:
    """https://encoding.spec.whatwg.org/#shift_jis-decoder, from the initial state."""
    lead = data[pos]
    if lead <= 0x80:
        return chr(lead), pos + 1
    if 0xA1 <= lead <= 0xDF:
        return chr(0xFF61 - 0xA1 + lead), pos + 1
    if not (0x81 <= lead <= 0x9F or 0xE0 <= lead <= 0xFC):
        return _FFFD, pos + 1
    if pos + 1 == len(data):
        return _FFFD, pos + 1
    byte = data[pos + 1]
    if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
        offset = 0x40 if byte < 0x7F else 0x41
        pointer = (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + byte - offset
        if 8836 <= pointer <= 10715:  # the EUDC range maps to the Private Use Area
            return chr(0xE000 - 8836 + pointer), pos + 2
        found = lookup(data[pos : pos + 2])
        if found is not None:
            return found, pos + 2
    return _FFFD, pos + 1 if byte < 0x80 else pos + 2


def euc_kr_step(data: bytes, pos: int, lookup: Lookup) -> tuple[str, int]:
    """https://encoding.spec.whatwg.org/#euc-kr-decoder, from the initial state."""
    lead = data[pos]
    if lead < 0x80:
        return chr(lead), pos + 1
    if not 0x81 <= lead <= 0xFE:
        return _FFFD, pos + 1
    if pos + 1 == len(data):
        return _FFFD, pos + 1
    byte = data[pos + 1]
    if 0x41 <= byte <= 0xFE:
        found = lookup(data[pos : pos + 2])
        if found is not None:
            return found, pos + 2
    return _FFFD, pos + 1 if byte < 0x80 else pos + 2


#: Encoding name -> its one-step decoder.
STEPS: dict[str, Step] = {
    "gb18030": gb18030_step,
    "GBK": gb18030_step,
    "Big5": big5_step,
    "EUC-JP": euc_jp_step,
    "Shift_JIS": shift_jis_step,
    "EUC-KR": euc_kr_step,
}

_ASCII_RUN = re.compile(rb"[\x00-\x7f]+")


def step_decode(data: bytes, step: Step, lookup: Lookup) -> str:
    """Run a stateless decoder over *data* one step at a time (ASCII runs in bulk)."""
    out: list[str] = []
    pos, end = 0, len(data)
    match = _ASCII_RUN.match
    while pos < end:
        run = match(data, pos)
        if run is not None:
            out.append(run.group().decode("ascii"))
            pos = run.end()
            continue
        text, pos = step(data, pos, lookup)
        out.append(text)
    return "".join(out)
