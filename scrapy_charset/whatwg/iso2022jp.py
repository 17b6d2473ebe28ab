"""Encoding Standard, section 12.2 "ISO-2022-JP": the decoder.

https://encoding.spec.whatwg.org/#iso-2022-jp-decoder

The decoder is a state machine switched by escape sequences. The input is split at each
ESC (0x1B): every piece after the first starts where the spec's decoder is in its
"escape start" state, and the bytes between two escapes are decoded in one state:

- ASCII, Roman and katakana states map each byte on its own (a ``charmap_decode`` table,
  U+FFFD where the spec returns an error);
- the lead byte state (JIS X 0208) reads pairs of bytes 0x21 to 0x7E: a well-formed run is
  decoded as EUC-JP (each byte plus 0x80), which uses the same index and pointer formula.

The "output flag" rule is kept: an escape sequence directly after another one (nothing
decoded between them) is an error.

Most documents only switch between ASCII and JIS X 0208 with well-formed runs. Those
Python's C codec decodes, with EUC-JP's corrections (the same JIS X 0208 index): pairs the
C codec lacks go through the error handler, the characters it maps differently are
translated. A few searches tell the other documents apart (``_OTHER_ESCAPE`` ...).
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING

from scrapy_charset.whatwg.cjk import DECODERS

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["decode"]

_FFFD = "\ufffd"
_ASCII, _ROMAN, _KATAKANA, _LEAD = "ascii", "roman", "katakana", "lead byte"

#: Escape sequences (after ESC) -> the state they switch to.
_ESCAPES = {b"(B": _ASCII, b"(J": _ROMAN, b"(I": _KATAKANA, b"$@": _LEAD, b"$B": _LEAD}


def _table(mapping: dict[int, int]) -> str:
    return "".join(chr(mapping.get(byte, 0xFFFD)) for byte in range(256))


_PLAIN = {byte: byte for byte in range(0x80) if byte not in (0x0E, 0x0F, 0x1B)}
_TABLES = {
    # ISO-2022-JP ASCII state: 0x00-0x7F except 0x0E, 0x0F and 0x1B.
    _ASCII: _table(_PLAIN),
    # Roman state: as ASCII, except 0x5C is U+00A5 YEN SIGN and 0x7E is U+203E OVERLINE.
    _ROMAN: _table({**_PLAIN, 0x5C: 0xA5, 0x7E: 0x203E}),
    # Katakana state: 0x21-0x5F are U+FF61 - 0x21 + byte.
    _KATAKANA: _table({byte: 0xFF61 - 0x21 + byte for byte in range(0x21, 0x60)}),
}
_JIS_BYTES = bytes(range(0x21, 0x7F))
_TO_EUC_JP = bytes((byte + 0x80) & 0xFF for byte in range(256))
_EUC_JP = DECODERS["EUC-JP"]


def _decode_jis0208(body: bytes) -> tuple[str, bool]:
    """The lead byte and trail byte states over *body*: (text, a lead byte is pending)."""
    if len(body) % 2 == 0 and not body.translate(None, _JIS_BYTES):
        # Pairs of 0x21-0x7E: pointer (lead - 0x21) * 94 + trail - 0x21 in jis0208, which
        # is EUC-JP's (lead - 0xA1) * 94 + trail - 0xA1; a null pointer is one error.
        return _EUC_JP.decode(body.translate(_TO_EUC_JP)), False
    out: list[str] = []
    pos, end = 0, len(body)
    while pos < end:
        lead = body[pos]
        if not 0x21 <= lead <= 0x7E:
            out.append(_FFFD)
            pos += 1
            continue
        if pos + 1 == end:
            return "".join(out), True
        trail = body[pos + 1]
        found = None
        if 0x21 <= trail <= 0x7E:
            found = _EUC_JP.lookup(bytes((lead + 0x80, trail + 0x80)))
        # A trail byte outside 0x21-0x7E is an error and is consumed.
        out.append(_FFFD if found is None else found)
        pos += 2
    return "".join(out), False


# What Python's C codec decodes otherwise than the standard (it is exact elsewhere):
#: an escape sequence other than ESC ( B, ESC $ B and ESC $ @ (katakana, Roman, unknown);
_OTHER_ESCAPE = re.compile(rb"\x1b(?!\$[B@]|\(B)")
#: a JIS X 0208 run with a byte outside 0x21-0x7E (a control byte passes through there);
_JIS_RUN_BREAK = re.compile(rb"\x1b\$[B@][\x21-\x7e]*+(?!\x1b|\Z)")
#: an escape sequence right after another one (the output flag makes that an error).
_TWO_ESCAPES = (b"\x1b(B\x1b", b"\x1b$B\x1b", b"\x1b$@\x1b")
_ERRORS = "scrapy_charset.whatwg.iso-2022-jp"


class _NotAPair(Exception):
    pass


def _on_error(exc: UnicodeError) -> tuple[str, int]:
    """The C codec lacks a JIS X 0208 pair: look it up as EUC-JP does."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    pair = exc.object[exc.start : exc.start + 2]
    if len(pair) != 2 or pair.translate(None, _JIS_BYTES):
        raise _NotAPair
    found = _EUC_JP.lookup(pair.translate(_TO_EUC_JP))
    return (_FFFD if found is None else found), exc.start + 2


codecs.register_error(_ERRORS, _on_error)


def _decode_run(body: bytes, state: str) -> tuple[str, bool]:
    if state == _LEAD:
        return _decode_jis0208(body)
    return codecs.charmap_decode(body, "strict", _TABLES[state])[0], False


def decode(data: Buffer) -> str:
    """The ISO-2022-JP decoder over *data*."""
    data = bytes(data)
    if data.isascii() and b"\x1b" not in data and b"\x0e" not in data and b"\x0f" not in data:
        return data.decode("ascii")
    if not (
        b"\x0e" in data
        or b"\x0f" in data  # SO and SI are errors; the C codec passes them through
        or any(two in data for two in _TWO_ESCAPES)
        or _OTHER_ESCAPE.search(data)
        or _JIS_RUN_BREAK.search(data)
    ):
        try:
            text = data.decode("iso2022_jp", _ERRORS)
        except _NotAPair:
            pass
        else:
            return _EUC_JP.apply_fixes(text)
    return _decode_pieces(data)


def _decode_pieces(data: bytes) -> str:
    """The state machine, run by pieces between escapes."""
    pieces = data.split(b"\x1b")
    text, pending = _decode_run(pieces[0], _ASCII)
    out = [text]
    state = _ASCII  # the decoder's "output state"
    output_flag = False
    for piece in pieces[1:]:
        if pending:
            # Trail byte state, byte 0x1B: an error, then the escape start state.
            out.append(_FFFD)
        switch = _ESCAPES.get(piece[:2])
        if switch is not None:
            state = switch
            if output_flag:  # two escape sequences in a row
                out.append(_FFFD)
            output_flag = True
            body = piece[2:]
        else:
            # Not an escape sequence: an error, and the bytes after ESC are prepended,
            # i.e. decoded again in the output state.
            out.append(_FFFD)
            output_flag = False
            body = piece
        text, pending = _decode_run(body, state)
        if body:
            output_flag = False
        out.append(text)
    if pending:
        out.append(_FFFD)  # end-of-queue in the trail byte state
    return "".join(out)
