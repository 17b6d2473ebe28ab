"""Decode with the error mode "fatal": the text, or None where a browser's decoder would
report an error.

https://encoding.spec.whatwg.org/#decode-without-bom-or-fail and
https://encoding.spec.whatwg.org/#concept-encoding-process (error mode "fatal")

``decode_strict(body, encoding)`` is the standard's decoder of *encoding* (no BOM sniffing:
the encoding is given) that fails on the first error instead of emitting U+FFFD. Code that
asks "do these bytes read as this encoding?" (the item side's legacy readings) gets the
standard's answer, not that of a CPython codec whose table differs.
"""

from __future__ import annotations

from scrapy_charset.whatwg import singlebyte
from scrapy_charset.whatwg.cjk import DECODERS as CJK_DECODERS
from scrapy_charset.whatwg.cjk import GENUINE_FFFD
from scrapy_charset.whatwg.codecs import DECODERS
from scrapy_charset.whatwg.labels import get_encoding

__all__ = ["decode_strict"]

#: Bytes that encode U+FFFD itself in an encoding whose decoder may output it without an
#: error: gb18030 (and GBK, decoded as gb18030) maps it in its four-byte ranges.
_FFFD_BYTES = {**GENUINE_FFFD, "GBK": GENUINE_FFFD["gb18030"]}
#: Python codecs whose strict mode is the standard's fatal mode exactly.
_PYTHON_STRICT = {"UTF-8": "utf-8", "UTF-16BE": "utf-16-be", "UTF-16LE": "utf-16-le"}


def decode_strict(body: bytes, encoding: str) -> str | None:
    """*body* decoded as *encoding* (a label or a name) with the error mode "fatal", or
    None on an error. Raises ``LookupError`` for a label that is not an Encoding
    Standard label."""
    name = get_encoding(encoding)
    if name is None:
        raise LookupError(f"{encoding!r} is not an Encoding Standard label")
    body = bytes(body)
    codec = _PYTHON_STRICT.get(name)
    if codec is not None:
        try:
            return body.decode(codec)
        except UnicodeDecodeError:
            return None
    if name == "replacement":
        # Its decoder reports one error for any input but an empty one.
        return "" if not body else None
    cjk = CJK_DECODERS.get(name)
    if cjk is not None:
        # Stops at the first error the C codec meets that the standard's decoder confirms.
        found = cjk.decode_fatal(body)
        if found is None:
            return None
        text = found
    else:
        text = DECODERS[name](body)
    if "\ufffd" not in text:
        return text
    if name in singlebyte.DECODING_TABLES:
        return None  # U+FFFD there is an unmapped byte
    genuine = body.count(_FFFD_BYTES[name]) if name in _FFFD_BYTES else 0
    return text if text.count("\ufffd") == genuine else None
