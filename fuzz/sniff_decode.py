"""Fuzz target: ``sniff()`` then ``decode()`` on arbitrary bytes, headers, kinds and labels.

Run with atheris (``pip install atheris``; libFuzzer options follow the module)::

    python -m fuzz.sniff_decode -dict=fuzz/markup.dict -max_total_time=600 corpus/

Every input must give a decision naming an Encoding Standard encoding, and text that is
valid Unicode (no lone surrogates) with no markup the bytes did not carry as markup. The
test suite runs :func:`one_input` under hypothesis on every run.
"""

from __future__ import annotations

import array
import sys
from typing import get_args

if __name__ == "__main__":  # pragma: no cover - coverage feedback for the package only
    import atheris

    with atheris.instrument_imports(include=["scrapy_charset"]):
        # The package loads its names lazily: import the modules the target calls.
        import scrapy_charset.sniffing
        import scrapy_charset.whatwg.codecs  # noqa: F401

from scrapy_charset import decode, lookup, sniff
from scrapy_charset.sniffing import Kind, sniff_with_text
from scrapy_charset.whatwg.bom import bom_sniff
from scrapy_charset.whatwg.labels import ENCODING_NAMES

__all__ = ["assert_safe", "check", "one_input", "split"]

KINDS: tuple[Kind, ...] = get_args(Kind)


def split(data: bytes) -> tuple[bytes, str | None, Kind, str | None]:
    """Cut fuzz input into ``(body, content_type, kind, override)``.

    Byte 0 picks the kind and which of header and override are present; byte 1 is the
    header's length and byte 2 the override's; they follow as Latin-1 text, then the body.
    """
    if not data:
        return b"", None, "html", None
    flags = data[0]
    kind = KINDS[flags % len(KINDS)]
    header_size = data[1] if len(data) > 1 else 0
    override_size = data[2] if len(data) > 2 else 0
    position = 3
    header = data[position : position + header_size].decode("latin-1")
    position += header_size
    override = data[position : position + override_size].decode("latin-1")
    position += override_size
    body = data[position:]
    return (
        body,
        header if flags & 0x10 else None,
        kind,
        override if flags & 0x20 else None,
    )


def _utf16_units(data: bytes, encoding: str, unit: int) -> int:
    units = array.array("H", data[: len(data) // 2 * 2])
    if (encoding == "UTF-16LE") != (sys.byteorder == "little"):
        units.byteswap()
    return units.count(unit)


def assert_safe(body: bytes, encoding: str, text: str) -> None:
    """*text*, decoded from *body* with *encoding*, is valid Unicode and smuggles no markup.

    For an ASCII-compatible encoding, the text has as many ``<`` and ``>`` as the bytes have
    0x3C and 0x3E; for UTF-16, as many as there are such code units; ISO-2022-JP may turn
    0x3C into half of a kanji but never anything into ``<``; replacement gives none.
    """
    text.encode("utf-8")  # raises on a lone surrogate
    found = bom_sniff(body)
    if found is not None:  # the BOM wins, and is not text
        encoding, body = found[0], body[found[1] :]
    for char in "<>":
        byte = ord(char)
        if encoding == "replacement":
            assert char not in text
        elif encoding in ("UTF-16BE", "UTF-16LE"):
            assert text.count(char) == _utf16_units(body, encoding, byte), (encoding, char)
        elif encoding == "ISO-2022-JP":
            assert text.count(char) <= body.count(byte), (encoding, char)
        else:
            assert text.count(char) == body.count(byte), (encoding, char)


def check(body: bytes, content_type: str | None, kind: Kind, override: str | None) -> None:
    """Sniff and decode one input and check every property."""
    decision = sniff(body, content_type, "http://example.com/", kind=kind, override=override)
    assert decision.encoding in ENCODING_NAMES, decision
    assert lookup(decision.encoding) == decision.encoding or decision.encoding == "replacement"
    text = decode(body, decision.encoding)
    assert_safe(body, decision.encoding, text)
    again, reused = sniff_with_text(
        body, content_type, "http://example.com/", kind=kind, override=override
    )
    assert again == decision
    assert reused is None or reused == text
    decision.as_dict()


def one_input(data: bytes) -> None:
    check(*split(data))


def main() -> None:  # pragma: no cover - needs atheris
    import atheris

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":  # pragma: no cover
    main()
