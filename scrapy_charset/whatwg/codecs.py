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

Standard names
    Most bodies decode exactly as a browser decodes them with a standard codec as well:
    every UTF-8 body (Python's decoder with ``errors="replace"`` is the standard's), and a
    legacy body that holds nothing the standard codec decodes otherwise, in Python or in
    lxml (measured: :mod:`.libxml2`).
    ``response_codec(body, encoding)`` gives the name to give such a body (a spelling
    Python's codec registry, libxml2 and iconv all accept: ``STANDARD_NAMES``) and the
    ``whatwg-*`` codec for the others.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import TYPE_CHECKING

from scrapy_charset.whatwg import iso2022jp, libxml2, singlebyte, unicode
from scrapy_charset.whatwg.bom import bom_sniff
from scrapy_charset.whatwg.cjk import DECODERS as _CJK
from scrapy_charset.whatwg.labels import ENCODING_NAMES, get_encoding

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = [
    "DECODERS",
    "STANDARD_NAMES",
    "codec_name",
    "decode",
    "is_private_codec",
    "private_codec_name",
    "register",
    "response_codec",
]

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


def private_codec_name(encoding: str) -> str:
    """The name of the Python codec registered for a WHATWG encoding name."""
    return _PREFIX + encoding.lower()


def is_private_codec(name: str) -> bool:
    """True for the name of one of the ``whatwg-*`` codecs this package registers."""
    return name[: len(_PREFIX)].lower() == _PREFIX


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
        name=private_codec_name(name),
        incrementaldecoder=IncrementalDecoder,
        incrementalencoder=incremental_encoder,
    )


_BY_CODEC = {private_codec_name(name).replace("-", "_"): name for name in ENCODING_NAMES}
_INFOS: dict[str, codecs.CodecInfo] = {}


def _search(normalized: str) -> codecs.CodecInfo | None:
    name = _BY_CODEC.get(normalized.replace("-", "_").replace(" ", "_"))
    if name is None:
        return None
    info = _INFOS.get(name)
    if info is None:
        info = _INFOS[name] = _codec_info(name)
    return info


def lookup(name: str) -> codecs.CodecInfo | None:
    """The ``whatwg-*`` codec named *name* (any spelling Python's registry passes), or
    None; registers the codecs."""
    register()
    return _search(name)


_registered = False


def register() -> None:
    """Register the ``whatwg-*`` codecs with Python's codec registry (idempotent)."""
    global _registered
    if not _registered:
        codecs.register(_search)
        _registered = True


def _encoding_name(encoding: str) -> str:
    """The WHATWG name for an encoding name or label; LookupError for anything else."""
    if encoding in DECODERS:
        return encoding
    name = get_encoding(encoding)
    if name is None:
        raise LookupError(f"{encoding!r} is not an Encoding Standard label")
    return name


# --- standard names --------------------------------------------------------------------

#: WHATWG name -> the standard codec spelling for it, accepted by Python's codec registry,
#: libxml2 (lxml, through its iconv) and iconv alike. The encoding's name in lowercase,
#: except where one of them does not know it: Python has no ``windows-874`` or
#: ``x-mac-cyrillic``, libxml2 no ``mac-cyrillic``. The CJK spellings name the C codec
#: the decoders run (:mod:`.cjk`): GBK is decoded by the gb18030 decoder, Shift_JIS is
#: Microsoft's cp932, Big5 is read with the HKSCS extension, EUC-KR is cp949 (UHC).
#: ISO-8859-8-I decodes as ISO-8859-8 (the ``-I`` is about display order only).
#: x-user-defined and replacement have no standard codec that decodes as the browser's
#: decoder does.
STANDARD_NAMES: dict[str, str] = {
    name: name.lower() for name in ENCODING_NAMES if name not in ("x-user-defined", "replacement")
}
STANDARD_NAMES.update(
    {
        "ISO-8859-8-I": "iso-8859-8",
        "windows-874": "cp874",
        "x-mac-cyrillic": "maccyrillic",
        "GBK": "gb18030",
        "Big5": "big5-hkscs",
        "Shift_JIS": "cp932",
        "EUC-KR": "cp949",
    }
)


def _differing_bytes(name: str) -> bytes:
    """The bytes that the standard codec of a single-byte encoding decodes otherwise than
    the encoding's decoder, or not at all (read from the generated table and the running
    Python's codec), and those lxml reads otherwise under that name, measured
    (:func:`.libxml2.differing_bytes`: Apple's older tables in libiconv, the combining
    marks libiconv composes with the letter before them)."""
    table = singlebyte.DECODING_TABLES[name]
    codec = STANDARD_NAMES[name]
    lxml_differs = libxml2.differing_bytes(name)
    out = bytearray()
    for byte in range(256):
        if byte in lxml_differs:
            out.append(byte)
            continue
        try:
            same = bytes((byte,)).decode(codec) == table[byte]
        except UnicodeDecodeError:
            same = False
        if not same:
            out.append(byte)
    return bytes(out)


#: Up to this many differing bytes, one ``in`` (memchr) per byte beats one pass that
#: looks at every byte.
_MAX_SEARCHES = 16


def _byte_class_check(differing: bytes) -> Callable[[bytes], bool]:
    """A test of whether a body holds none of the *differing* bytes."""
    if not differing:
        return lambda body: True
    if len(differing) <= _MAX_SEARCHES:
        singles = tuple(bytes((byte,)) for byte in differing)
        return lambda body: body.isascii() or not any(single in body for single in singles)
    others = bytes(sorted(set(range(256)) - set(differing)))
    return lambda body: body.isascii() or not body.translate(None, others)


#: Single-byte encoding name -> whether its standard codec decodes a body exactly.
_SINGLE_BYTE_EXACT: dict[str, Callable[[bytes], bool]] = {
    name: _byte_class_check(_differing_bytes(name))
    for name in singlebyte.DECODING_TABLES
    if name in STANDARD_NAMES
}


def response_codec(body: bytes, encoding: str) -> tuple[str, str | None]:
    """``(codec, text)``: the codec name to decode *body* with, as a browser decodes it
    in *encoding* (a WHATWG name), and the body's text when finding the name decoded it
    (else None).

    The codec is the standard one (``STANDARD_NAMES``) when it decodes this body exactly
    as the encoding's decoder does, the ``whatwg-*`` codec when it does not:

    - UTF-8: always the standard codec;
    - a single-byte encoding: when the body holds none of the bytes the standard codec
      decodes otherwise (a byte-class check, no decoding);
    - the CJK encodings: when the C codec decodes the body without an error and without
      a correction (the body is decoded once, and the text returned), and the body holds
      none of the sequences lxml reads otherwise under the name
      (:func:`.libxml2.reads_exactly`: Shift_JIS's 81 60 is U+FF5E in browsers and
      Python's cp932, U+301C in libiconv's);
    - UTF-16BE/LE: when the body has no lone surrogate or odd byte (decoded, returned);
    - ISO-2022-JP: when Python's stateful codec decodes the body strictly to the same text
      (both decoded, the standard's text returned) and lxml would too.

    A byte order mark other than the encoding's own is left to the ``whatwg-*`` codec.
    The encoding's own BOM is part of the body: Python's codecs keep it as U+FEFF where
    browsers, Scrapy's ``.text`` and libxml2 drop it.
    """
    name = _encoding_name(encoding)
    private = private_codec_name(name)
    found = bom_sniff(body)
    if found is not None and found[0] != name:
        return private, None
    if name == "UTF-8":
        return STANDARD_NAMES[name], None
    check = _SINGLE_BYTE_EXACT.get(name)
    if check is not None:
        return (STANDARD_NAMES[name] if check(body) else private), None
    cjk = _CJK.get(name)
    if cjk is not None:
        text, exact = cjk.decode_checked(body)
        exact = exact and libxml2.reads_exactly(name, body, text)
        return (STANDARD_NAMES[name] if exact else private), text
    if name in ("UTF-16BE", "UTF-16LE"):
        data = body[2:] if found is not None else body
        strict = codecs.utf_16_be_decode if name == "UTF-16BE" else codecs.utf_16_le_decode
        try:
            return STANDARD_NAMES[name], strict(data, "strict", True)[0]
        except UnicodeDecodeError:
            return private, DECODERS[name](data)
    if name == "ISO-2022-JP":
        text = iso2022jp.decode(body)
        try:
            exact = body.decode(STANDARD_NAMES[name]) == text
        except UnicodeDecodeError:
            exact = False
        exact = exact and libxml2.reads_exactly(name, body, text)
        return (STANDARD_NAMES[name] if exact else private), text
    return private, None


def codec_name(encoding: str, body: bytes | None = None) -> str:
    """The Python codec that decodes a body in *encoding* (a WHATWG name, as
    ``meta["charset"]["encoding"]`` stores it, or any label) as a browser does.

    Without *body*, the ``whatwg-*`` codec, exact for any body (importing this function
    registers it). With *body*, the standard codec's name when it decodes this body
    exactly, as the middleware gives ``response.encoding``. Raises ``LookupError`` for
    what is not an Encoding Standard label.

    >>> codec_name("windows-1251")
    'whatwg-windows-1251'
    >>> codec_name("windows-1251", "Съешь".encode("cp1251"))
    'windows-1251'
    >>> codec_name("windows-1251", b"\\x98")  # Python's cp1251 has no 0x98
    'whatwg-windows-1251'
    """
    if body is None:
        return private_codec_name(_encoding_name(encoding))
    return response_codec(body, encoding)[0]


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
