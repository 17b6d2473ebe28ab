"""The scraping side's addition to the HTML Standard: a body that is valid UTF-8 is UTF-8.

Browsers fall back to a locale default or a detector where nothing is declared; a scraper
knows that almost every undeclared page written since 2010 is UTF-8, and that a body which
is valid UTF-8 (and not plain ASCII) is, with overwhelming probability, UTF-8: legacy
encodings almost never produce valid UTF-8 multi-byte sequences by chance.
"""

from __future__ import annotations

import codecs

__all__ = ["decode_utf8", "is_utf8"]

#: The UTF-8 check reads the body in slices of this many bytes, so that checking a large
#: body never holds more than one slice's text.
CHUNK = 64 * 1024


def is_utf8(body: bytes) -> bool:
    """True when *body* is valid UTF-8, allowing a sequence cut off by the end of the body
    (a truncated download must not turn a UTF-8 page into windows-1252)."""
    if body.isascii():
        return True
    view = memoryview(body)
    end = len(body)
    position = 0
    non_ascii = False
    while position < end:
        piece = view[position : position + CHUNK]
        try:
            # final=False: a sequence cut by the slice's end is left for the next slice.
            text, consumed = codecs.utf_8_decode(piece, "strict", False)
        except UnicodeDecodeError:
            return False
        non_ascii = non_ascii or not text.isascii()
        if position + len(piece) == end and consumed < len(piece):
            position += consumed
            break  # what is left is the start of a sequence that the body cuts off
        position += consumed
    # Valid up to a final sequence that is only incomplete, not wrong, after some
    # multi-byte UTF-8 that shows the body is UTF-8 at all.
    return position == end or non_ascii


def decode_utf8(body: bytes) -> tuple[bool, str | None]:
    """``(is_utf8(body), text)``: the text when the whole body decodes as UTF-8, else None.

    One full decode instead of :func:`is_utf8`'s slices, for a caller that wants the text
    anyway: the check and the decoding are then a single pass.
    """
    try:
        return True, body.decode("utf-8")
    except UnicodeDecodeError as error:
        truncated = (
            error.end == len(body)
            and error.reason == "unexpected end of data"
            and not body[: error.start].isascii()
        )
        return truncated, None
