"""The scraping side's addition to the HTML Standard: a body that is valid UTF-8 is UTF-8.

Browsers fall back to a locale default or a detector where nothing is declared; a scraper
knows that almost every undeclared page written since 2010 is UTF-8, and that a body which
is valid UTF-8 (and not plain ASCII) is, with overwhelming probability, UTF-8: legacy
encodings almost never produce valid UTF-8 multi-byte sequences by chance.
"""

from __future__ import annotations

__all__ = ["is_utf8"]


def is_utf8(body: bytes) -> bool:
    """True when *body* is valid UTF-8, allowing a sequence cut off by the end of the body
    (a truncated download must not turn a UTF-8 page into windows-1252)."""
    if body.isascii():
        return True
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        # Valid up to a final sequence that is only incomplete, not wrong, after some
        # multi-byte UTF-8 that shows the body is UTF-8 at all.
        return (
            error.end == len(body)
            and error.reason == "unexpected end of data"
            and not body[: error.start].isascii()
        )
    return True
