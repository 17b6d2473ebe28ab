"""Encoding Standard, section 9 "Legacy single-byte encodings", and x-user-defined.

https://encoding.spec.whatwg.org/#single-byte-decoder
https://encoding.spec.whatwg.org/#x-user-defined-decoder

Each decoder is a 256-entry decoding table for the C function ``codecs.charmap_decode``:
ASCII for bytes 0x00 to 0x7F, the index for 0x80 to 0xFF (generated), and U+FFFD where the
index has no code point, so the table itself gives the standard's error output. The
encoders are the same tables reversed (``codecs.charmap_build``), the spec's encoder.
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

from scrapy_charset.whatwg._singlebyte import HIGH_HALVES

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["DECODING_TABLES", "ENCODING_MAPS", "decode", "encode"]

_ASCII = "".join(map(chr, range(0x80)))

#: Encoding name -> decoding table (256 code points; U+FFFD: error).
DECODING_TABLES: dict[str, str] = {name: _ASCII + high for name, high in HIGH_HALVES.items()}
# x-user-defined: bytes 0x80 to 0xFF are U+F780 to U+F7FF.
DECODING_TABLES["x-user-defined"] = _ASCII + "".join(map(chr, range(0xF780, 0xF800)))

#: Encoding name -> charmap encoding map (U+FFFD in a table is an error, not a byte).
ENCODING_MAPS = {
    name: codecs.charmap_build(table.replace("\ufffd", "\ufffe"))
    for name, table in DECODING_TABLES.items()
}


def decode(data: Buffer, name: str) -> str:
    """The single-byte (or x-user-defined) decoder of encoding *name*."""
    return codecs.charmap_decode(data, "strict", DECODING_TABLES[name])[0]


def encode(text: str, name: str, errors: str = "strict") -> bytes:
    """The encoder of encoding *name*; *errors* as for ``str.encode``."""
    return codecs.charmap_encode(text, errors, ENCODING_MAPS[name])[0]
