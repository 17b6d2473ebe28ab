"""Encoding Standard, section 8 "The encoding": UTF-8, and section 14: UTF-16BE/LE.

https://encoding.spec.whatwg.org/#utf-8-decoder
https://encoding.spec.whatwg.org/#shared-utf-16-decoder

Python's C codecs are exact here once the error handling is the spec's:

- UTF-8: CPython's decoder with ``errors="replace"`` emits one U+FFFD per maximal subpart
  of an ill-formed sequence, which is the standard's UTF-8 decoder (the tests compare it
  with a step-by-step reference on every one- to four-byte sequence).
- UTF-16: a lone surrogate code unit, and an odd trailing byte, are errors. The C codec
  with ``surrogatepass`` keeps the code units; each lone surrogate becomes one U+FFFD, and
  a lone lead surrogate followed by the odd byte at the end of input is one error.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["utf8_decode", "utf16be_decode", "utf16le_decode"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8_decode(data: Buffer, final: bool = True) -> tuple[str, int]:
    """The UTF-8 decoder: ``(text, bytes consumed)``; not final keeps a trailing prefix."""
    return codecs.utf_8_decode(data, "replace", final)


def _utf16_decode(data: Buffer, big_endian: bool) -> str:
    try:
        return (codecs.utf_16_be_decode if big_endian else codecs.utf_16_le_decode)(
            data, "strict", True
        )[0]
    except UnicodeDecodeError:
        pass
    data = bytes(data)
    odd = len(data) % 2
    text = data[: len(data) - odd].decode(
        "utf-16-be" if big_endian else "utf-16-le", "surrogatepass"
    )
    # Valid pairs are already combined: what remains of the surrogates is lone.
    if odd and text and "\ud800" <= text[-1] <= "\udbff":
        # A lead surrogate waiting for its trail at end-of-queue: one error with the byte.
        text = text[:-1]
    text = _LONE_SURROGATE.sub("\ufffd", text)
    return text + "\ufffd" if odd else text


def utf16be_decode(data: Buffer) -> str:
    """The UTF-16BE decoder (no BOM handling)."""
    return _utf16_decode(data, big_endian=True)


def utf16le_decode(data: Buffer) -> str:
    """The UTF-16LE decoder (no BOM handling)."""
    return _utf16_decode(data, big_endian=False)
