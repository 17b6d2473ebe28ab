"""Encoding Standard, section 6 "Hooks for standards": decode.

https://encoding.spec.whatwg.org/#decode

Provisional: until the WHATWG decoders land this leans on the closest Python codecs.
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

from scrapy_charset.sniff.bom import bom_sniff
from scrapy_charset.whatwg.labels import ENCODING_NAMES, get_encoding

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["codec_name", "decode", "register"]

_PREFIX = "whatwg-"

_PYTHON_CODECS = {
    "UTF-8": "utf-8",
    "IBM866": "cp866",
    "ISO-8859-2": "iso8859-2",
    "ISO-8859-3": "iso8859-3",
    "ISO-8859-4": "iso8859-4",
    "ISO-8859-5": "iso8859-5",
    "ISO-8859-6": "iso8859-6",
    "ISO-8859-7": "iso8859-7",
    "ISO-8859-8": "iso8859-8",
    "ISO-8859-8-I": "iso8859-8",
    "ISO-8859-10": "iso8859-10",
    "ISO-8859-13": "iso8859-13",
    "ISO-8859-14": "iso8859-14",
    "ISO-8859-15": "iso8859-15",
    "ISO-8859-16": "iso8859-16",
    "KOI8-R": "koi8-r",
    "KOI8-U": "koi8-u",
    "macintosh": "mac-roman",
    "windows-874": "cp874",
    "windows-1250": "cp1250",
    "windows-1251": "cp1251",
    "windows-1252": "cp1252",
    "windows-1253": "cp1253",
    "windows-1254": "cp1254",
    "windows-1255": "cp1255",
    "windows-1256": "cp1256",
    "windows-1257": "cp1257",
    "windows-1258": "cp1258",
    "x-mac-cyrillic": "mac-cyrillic",
    "GBK": "gb18030",
    "gb18030": "gb18030",
    "Big5": "big5hkscs",
    "EUC-JP": "euc-jp",
    "ISO-2022-JP": "iso2022-jp",
    "Shift_JIS": "cp932",
    "EUC-KR": "cp949",
    "UTF-16BE": "utf-16-be",
    "UTF-16LE": "utf-16-le",
}


def codec_name(encoding: str) -> str:
    """The name of the Python codec registered for a WHATWG encoding name."""
    return _PREFIX + encoding.lower()


def _decode_without_bom(body: bytes, name: str) -> str:
    if name == "replacement":
        return "\ufffd" if body else ""
    if name == "x-user-defined":
        return "".join(chr(b) if b < 0x80 else chr(0xF780 + b - 0x80) for b in body)
    return body.decode(_PYTHON_CODECS[name], "replace")


_BY_CODEC = {codec_name(name).replace("-", "_"): name for name in ENCODING_NAMES}


def _search(normalized: str) -> codecs.CodecInfo | None:
    name = _BY_CODEC.get(normalized.replace("-", "_").replace(" ", "_"))
    if name is None:
        return None
    fallback = _PYTHON_CODECS.get(name, "utf-8")

    def decode(data: Buffer, errors: str = "strict", /) -> tuple[str, int]:
        data = bytes(data)
        return _decode_without_bom(data, name), len(data)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.encode(text, fallback, errors), len(text)

    return codecs.CodecInfo(encode, decode, name=codec_name(name))


_registered = False


def register() -> None:
    """Register the ``whatwg-*`` codecs with Python's codec registry (idempotent)."""
    global _registered
    if not _registered:
        codecs.register(_search)
        _registered = True


def decode(body: bytes, encoding: str) -> str:
    """Decode *body* as a browser does: a BOM wins, then *encoding* (a label or a name).

    Never raises for bytes; raises ``LookupError`` for a label that is not an Encoding
    Standard label. The result always encodes as UTF-8 (no lone surrogates).
    """
    name = get_encoding(encoding)
    if name is None:
        raise LookupError(f"{encoding!r} is not an Encoding Standard label")
    found = bom_sniff(body)
    if found is not None:
        name, size = found
        body = body[size:]
    return _decode_without_bom(body, name)


register()
