"""The Encoding Standard's decoders as Python codecs, and its "decode" hook.

https://encoding.spec.whatwg.org/#decode

Every encoding of the standard is registered with Python's codec registry as
``whatwg-<name in lowercase>`` (``codec_name``), e.g. ``body.decode("whatwg-shift_jis")``.

Decoding
    A registered codec is the encoding's decoder with the error mode "replacement": its
    output is the standard's whatever ``errors`` the caller passes (browsers have one
    mode). The UTF-8, UTF-16BE and UTF-16LE codecs remove their own byte order mark, as
    the standard's "decode" does for that encoding; no codec switches encoding on a BOM.
    ``decode(body, encoding)`` is the "decode" hook itself: a UTF-8 or UTF-16 BOM wins over
    *encoding*. Scrapy's ``TextResponse.text`` removes a BOM (and decodes with it) before a
    codec sees the body, so a response built with ``encoding=codec_name(X)`` reads as the
    standard's "decode" whenever there is no BOM.

Encoding
    The single-byte encodings and x-user-defined encode with the standard's encoders
    (their tables reversed). The others use the closest Python codec: UTF-8, UTF-16BE/LE,
    gb18030 (also for GBK), big5hkscs (Big5), euc_jp, iso2022_jp, cp932 (Shift_JIS) and
    cp949 (EUC-KR); for a character the C codec cannot encode, the CJK encoders (but
    ISO-2022-JP) take the index's bytes (e.g. U+FF5E is A1 C1 in EUC-JP). Replacement
    encodes as UTF-8, its output encoding. ``errors`` is honoured when encoding.

Incremental decoders stream the stateless single-byte decoders and UTF-8; the others
decode when the input is final.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import TYPE_CHECKING

from scrapy_charset.whatwg import iso2022jp, singlebyte, unicode
from scrapy_charset.whatwg.bom import bom_sniff
from scrapy_charset.whatwg.cjk import DECODERS as _CJK
from scrapy_charset.whatwg.labels import ENCODING_NAMES, get_encoding

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["DECODERS", "codec_name", "decode", "register"]

_PREFIX = "whatwg-"


def _replacement(data: Buffer) -> str:
    """https://encoding.spec.whatwg.org/#replacement-decoder: one error for any input."""
    return "\ufffd" if memoryview(data).nbytes else ""


def _single_byte(name: str) -> Callable[[Buffer], str]:
    table = singlebyte.DECODING_TABLES[name]
    charmap_decode = codecs.charmap_decode
    return lambda data: charmap_decode(data, "strict", table)[0]


#: Encoding name -> its decoder (no BOM handling), error mode replacement.
DECODERS: dict[str, Callable[[Buffer], str]] = {
    "UTF-8": lambda data: unicode.utf8_decode(data)[0],
    **{name: _single_byte(name) for name in singlebyte.DECODING_TABLES},
    **{name: decoder.decode for name, decoder in _CJK.items()},
    "ISO-2022-JP": iso2022jp.decode,
    "replacement": _replacement,
    "UTF-16BE": unicode.utf16be_decode,
    "UTF-16LE": unicode.utf16le_decode,
}

#: The byte order mark a codec removes (its own encoding's).
_OWN_BOM = {"UTF-8": codecs.BOM_UTF8, "UTF-16BE": codecs.BOM_UTF16_BE}
_OWN_BOM["UTF-16LE"] = codecs.BOM_UTF16_LE

#: Encoders that are Python codecs (the others are the standard's single-byte tables).
_PYTHON_ENCODERS = {
    "UTF-8": "utf-8",
    "GBK": "gb18030",
    "gb18030": "gb18030",
    "Big5": "big5hkscs",
    "EUC-JP": "euc_jp",
    "ISO-2022-JP": "iso2022_jp",
    "Shift_JIS": "cp932",
    "EUC-KR": "cp949",
    "replacement": "utf-8",
    "UTF-16BE": "utf-16-be",
    "UTF-16LE": "utf-16-le",
}


def codec_name(encoding: str) -> str:
    """The name of the Python codec registered for a WHATWG encoding name."""
    return _PREFIX + encoding.lower()


def _codec_info(name: str) -> codecs.CodecInfo:
    decoder = DECODERS[name]
    bom = _OWN_BOM.get(name)

    def decode(data: Buffer, errors: str = "strict", /) -> tuple[str, int]:
        # bytes.decode() passes a memoryview: the decoders read it without a copy.
        view = memoryview(data).cast("B")
        if bom is not None and view[: len(bom)] == bom:
            return decoder(view[len(bom) :]), view.nbytes
        return decoder(view), view.nbytes

    python_codec = _PYTHON_ENCODERS.get(name)
    if python_codec is None:

        def encode(text: str, errors: str = "strict", /) -> tuple[bytes, int]:
            return singlebyte.encode(text, name, errors), len(text)

        class IncrementalEncoder(codecs.IncrementalEncoder):
            def encode(self, text: str, final: bool = False) -> bytes:
                return singlebyte.encode(text, name, self.errors)

        encoder, incremental_encoder = encode, IncrementalEncoder
    elif name in _CJK:
        encoder = _CJK[name].encode
        incremental_encoder = codecs.lookup(python_codec).incrementalencoder  # type: ignore[assignment]
    else:
        python_info = codecs.lookup(python_codec)
        encoder = python_info.encode
        incremental_encoder = python_info.incrementalencoder  # type: ignore[assignment]

    streams = name == "UTF-8" or name in singlebyte.DECODING_TABLES

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        started = False

        def _buffer_decode(self, data: Buffer, errors: str, final: bool) -> tuple[str, int]:
            data = bytes(data)
            if not final and not streams:
                return "", 0
            if not self.started:
                if bom is not None and not final and len(data) < len(bom) and bom.startswith(data):
                    return "", 0  # maybe the start of a BOM: wait
                self.started = True
                if bom is not None and data.startswith(bom):
                    text, used = self._decode_more(data[len(bom) :], final)
                    return text, used + len(bom)
            return self._decode_more(data, final)

        @staticmethod
        def _decode_more(data: bytes, final: bool) -> tuple[str, int]:
            if name == "UTF-8":
                return unicode.utf8_decode(data, final)
            return decoder(data), len(data)

        def reset(self) -> None:
            super().reset()
            self.started = False

    return codecs.CodecInfo(
        encoder,
        decode,
        name=codec_name(name),
        incrementaldecoder=IncrementalDecoder,
        incrementalencoder=incremental_encoder,
    )


_BY_CODEC = {codec_name(name).replace("-", "_"): name for name in ENCODING_NAMES}
_INFOS: dict[str, codecs.CodecInfo] = {}


def _search(normalized: str) -> codecs.CodecInfo | None:
    name = _BY_CODEC.get(normalized.replace("-", "_").replace(" ", "_"))
    if name is None:
        return None
    info = _INFOS.get(name)
    if info is None:
        info = _INFOS[name] = _codec_info(name)
    return info


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
    Standard label, ``TypeError`` when *body* is not bytes, bytearray or memoryview or
    *encoding* not a str. The result always encodes as UTF-8 (no lone surrogates).
    """
    if not isinstance(body, (bytes, bytearray, memoryview)):
        raise TypeError(
            "decode() argument 'body' must be bytes, bytearray or memoryview, "
            f"not {type(body).__name__}"
        )
    if not isinstance(encoding, str):
        raise TypeError(f"decode() argument 'encoding' must be str, not {type(encoding).__name__}")
    body = body if type(body) is bytes else bytes(body)
    name = get_encoding(encoding)
    if name is None:
        raise LookupError(f"{encoding!r} is not an Encoding Standard label")
    found = bom_sniff(body)
    if found is not None:
        name, size = found
        body = body[size:]
    return DECODERS[name](body)


register()
