"""The detection window: the bytes of text content that detection reads.

The HTML Standard's autodetection step (13.2.3.2, "determining the character encoding")
looks at the document's content; markup, scripts, styles, comments and URLs are ASCII in
every legacy encoding browsers support, so they carry no evidence and only dilute the
statistics. :func:`detection_window` keeps detection bounded and web-aware:

1. **Start where the non-ASCII text starts.** The first byte that is not ASCII (or an
   ``ESC``, which starts an ISO-2022-JP escape) is found chunk by chunk (``bytes.isascii``
   runs at memory speed), and the window starts at the ``<`` of the tag before it, so the
   markup around the first text is recognised. In every legacy encoding of the Encoding
   Standard, the first byte of a multi-byte character is non-ASCII, so the start is always a
   character boundary.
2. **At most ``size`` bytes,** ending at a safe character boundary: the last newline or
   space of the window (else its last ``<``). None of these bytes can be the trail byte of
   a Shift_JIS, EUC-JP, EUC-KR, GBK/gb18030 or Big5 character, and newline and space are
   never part of an ISO-2022-JP double-byte pair, so the cut does not split a character (a
   raw cut in the middle of one makes detectors fail).
3. **Text content only.** Scripts, styles, comments, tags (with their attribute values),
   character references and URLs are replaced by a space. A CDATA section is text (XML
   1.0, 2.7; the HTML Standard's "CDATA section state" in foreign content): only its
   delimiters ``<![CDATA[`` and ``]]>`` are removed, its content stays (a feed whose text
   is all in CDATA sections would otherwise leave detection a few words). When nothing
   non-ASCII is left
   (the only non-ASCII bytes were in attributes or scripts), the raw window is used, and
   a seven-bit window (ISO-2022-JP, whose double-byte pairs use ``<`` and ``&`` too) is
   always read raw.

Every step is a regular-expression scan or a slice of at most ``size`` bytes (plus the 4 KiB
looked at before the start), so the cost is capped whatever the body's length; only the
search for the first non-ASCII byte reads further, at memory speed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Window", "detection_window", "first_non_ascii"]

_CHUNK = 64 * 1024
_NON_ASCII = re.compile(rb"[\x80-\xff\x1b]")
#: How far back from the first non-ASCII byte the window may start (the enclosing tag).
_LOOKBEHIND = 4096
#: How far back from the end a safe cut is searched.
_LOOKBACK = 4096


def _either_case(word: bytes) -> bytes:
    """A pattern matching *word* in any ASCII case (``b"tp"`` gives ``[tT][pP]``)."""
    return b"".join(
        b"[%c%c]" % (byte, byte ^ 0x20) if chr(byte).isalpha() else re.escape(bytes((byte,)))
        for byte in word
    )


_SCRIPT, _STYLE, _CDATA = (_either_case(w) for w in (b"script", b"style", b"CDATA"))
_URL_REST = rb"://[^\s<>\"']*"
# What is replaced, in this order (ASCII case-insensitive): a script, a style, a comment,
# the delimiters of a CDATA section, a tag, a character reference, a URL that starts a
# word (http, https, ftp). Every alternative starts with a literal byte ("<", "]", "&",
# or the first letter of a URL scheme in one case, the word boundary checked after it),
# so the engine skips to the next such byte at C speed; letters are matched in either
# case by classes, since the IGNORECASE flag would turn that skip off. Every alternative
# either matches to a terminator or to the end of the window, so no position is scanned
# twice: linear in the window.
_MARKUP = re.compile(
    rb"<(?:"
    + (_SCRIPT + rb"\b[^>]*>.*?(?:</" + _SCRIPT + rb"\s*>|\Z)")
    + (rb"|" + _STYLE + rb"\b[^>]*>.*?(?:</" + _STYLE + rb"\s*>|\Z)")
    + rb"|!--.*?(?:-->|\Z)"
    + (rb"|!\[" + _CDATA + rb"\[")
    + rb"|[!/?a-zA-Z][^>]*(?:>|\Z))"
    + rb"|\]\]>"
    + rb"|&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|\#[0-9]{1,8}|\#[xX][0-9a-fA-F]{1,8});?"
    + b"".join(
        rb"|" + first + rb"(?<![A-Za-z0-9_]" + first + rb")" + rest + _URL_REST
        for first, rest in (
            (b"h", _either_case(b"ttp") + b"[sS]?"),
            (b"H", _either_case(b"ttp") + b"[sS]?"),
            (b"f", _either_case(b"tp")),
            (b"F", _either_case(b"tp")),
        )
    ),
    re.DOTALL,
)


def first_non_ascii(body: bytes) -> int | None:
    """The offset of the first byte that is not ASCII or is ``ESC``, or None."""
    for start in range(0, len(body), _CHUNK):
        chunk = body[start : start + _CHUNK]
        if not chunk.isascii() or b"\x1b" in chunk:
            found = _NON_ASCII.search(chunk)
            if found is not None:
                return start + found.start()
    return None


@dataclass(frozen=True)
class Window:
    """The bytes detection reads, and where they came from in the body."""

    text: bytes
    start: int
    end: int
    #: True when markup was removed (the text is content only).
    stripped: bool


def _safe_end(body: bytes, start: int, end: int) -> int:
    """*end*, moved back to the last newline or space before it (else the last ``<``)."""
    if end >= len(body):
        return len(body)
    low = max(start, end - _LOOKBACK)
    cut = max(body.rfind(b"\n", low, end), body.rfind(b" ", low, end))
    if cut <= start:
        cut = body.rfind(b"<", low, end)
    return cut if cut > start else end


def strip_markup(data: bytes) -> bytes:
    """*data* with scripts, styles, comments, tags, references and URLs replaced by a space."""
    return _MARKUP.sub(b" ", data)


def detection_window(body: bytes, size: int) -> Window | None:
    """The text content detection reads from *body*, at most *size* bytes; None when the
    body is all ASCII (there is nothing to detect)."""
    first = first_non_ascii(body)
    if first is None:
        return None
    tag = body.rfind(b"<", max(0, first - _LOOKBEHIND), first)
    start = tag if tag >= 0 else first
    end = _safe_end(body, first, first + size)
    raw = body[start:end]
    if raw.isascii():
        # Seven-bit ISO-2022-JP: its double-byte pairs use every printable ASCII byte,
        # "<" and "&" included, so markup cannot be told from text; read it raw.
        return Window(raw, start, end, stripped=False)
    text = strip_markup(raw)
    if text.isascii() and b"\x1b" not in text:
        return Window(raw, start, end, stripped=False)
    return Window(text, start, end, stripped=True)
