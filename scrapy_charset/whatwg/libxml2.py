"""Whether lxml reads a body under its standard name as a browser does.

``response.encoding`` is read by Python's codecs and by lxml, whose tables are libxml2's
and those of the libiconv lxml's wheels bundle, not Python's. Which byte sequences lxml
reads otherwise under each standard name was measured by
``scripts/generate_lxml_names.py`` (every sequence the Encoding Standard maps to a
character, through lxml's HTML and XML parsers) and is recorded in :mod:`._lxml_names`,
pinned to the lxml it was measured with. A body that holds one of them keeps the
``whatwg-*`` codec, which lxml refuses loudly (``LookupError``), and Scrapy's own lxml
consumers are given its text (:mod:`scrapy_charset.responses.interop`).

Single-byte encodings: the differing bytes join the byte class of
:func:`scrapy_charset.whatwg.codecs.response_codec` (a pair measured as differing, a letter
then a combining mark that libiconv composes, puts its mark in the class).

Multi-byte encodings (:func:`reads_exactly`), for a body Python's C codec decoded strictly
to the browser's text, on the sequences Python reads as browsers do (a body with one of the
others keeps the ``whatwg-*`` codec already): the cheap check first, whether the text
holds one of their characters (a search for each, up to 16) and the body one of the
sequences (a substring search each, up to 16); most bodies stop at the text. When both
hold, one pass over the body's characters, aligned, says whether a differing sequence is a
character of the body or straddles two. An encoding without such a pass (ISO-2022-JP,
whose bytes mean what the escapes before them say) keeps the ``whatwg-*`` codec for a body
whose text holds a character of a differing sequence.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from scrapy_charset.whatwg import _lxml_names

__all__ = ["DIFFERING", "NAMES", "differing_bytes", "reads_exactly"]

#: WHATWG name -> the spelling lxml and Python read as the browser (measured).
NAMES = _lxml_names.NAMES
#: WHATWG name -> the byte sequences lxml reads otherwise under ``NAMES[name]``.
DIFFERING = _lxml_names.DIFFERING

#: Up to this many sequences, the cheap check searches the body for each.
_MAX_SEARCHES = 16

#: One character of a body the C codec decoded strictly, as a regular expression whose
#: alternatives never overlap (a lead byte never stands alone): the pass stays aligned.
_CHARACTERS: dict[str, bytes] = {
    "Shift_JIS": rb"[\x81-\x9f\xe0-\xfc][\x40-\x7e\x80-\xfc]|[^\x81-\x9f\xe0-\xfc]",
    "EUC-JP": rb"\x8f[\xa1-\xfe][\xa1-\xfe]|[\x8e\xa1-\xfe][\xa1-\xfe]|[^\x8e\x8f\xa1-\xfe]",
    "Big5": rb"[\x81-\xfe][\x40-\x7e\xa1-\xfe]|[^\x81-\xfe]",
    "gb18030": (
        rb"[\x81-\xfe][\x30-\x39][\x81-\xfe][\x30-\x39]|[\x81-\xfe][\x40-\x7e\x80-\xfe]"
        rb"|[^\x81-\xfe]"
    ),
    "EUC-KR": rb"[\x81-\xfe][\x41-\xfe]|[^\x81-\xfe]",
}
_CHARACTERS["GBK"] = _CHARACTERS["gb18030"]


def differing_bytes(name: str) -> bytes:
    """The bytes of a single-byte encoding whose presence keeps the ``whatwg-*`` codec
    for lxml's sake: each differing byte, and the second byte of each differing pair."""
    return bytes(sorted({sequence[-1] for sequence in DIFFERING.get(name, ())}))


def _alternatives(sequences: Iterable[bytes]) -> bytes:
    """A regular expression matching exactly *sequences*, factored on their first bytes
    (one branch per first byte, so that matching at a position costs one test)."""
    by_first: dict[int, list[bytes]] = {}
    for sequence in sequences:
        by_first.setdefault(sequence[0], []).append(sequence[1:])
    branches = []
    for first, rests in sorted(by_first.items()):
        head = re.escape(bytes((first,)))
        if all(len(rest) == 1 for rest in rests):
            trails = b"".join(re.escape(rest) for rest in sorted(rests))
            branches.append(head + b"[" + trails + b"]")
        elif rests == [b""]:
            branches.append(head)
        else:
            longer = [rest for rest in rests if rest]
            inner = _alternatives(longer)
            branches.append(head + b"(?:" + inner + b")" + (b"?" if b"" in rests else b""))
    return b"|".join(branches)


def _python_reads(name: str, sequence: bytes) -> bool:
    """Whether Python's codec of the standard name reads *sequence* as the browser."""
    from scrapy_charset.whatwg.codecs import DECODERS, STANDARD_NAMES

    try:
        return sequence.decode(STANDARD_NAMES[name]) == DECODERS[name](sequence)
    except UnicodeDecodeError:
        return False


@functools.cache
def _check(name: str) -> Callable[[bytes, str], bool]:
    """:func:`reads_exactly` for encoding *name*, built on first use: on the sequences
    Python's codec reads as the browser (a body with one of the others never gets here)."""
    sequences = tuple(seq for seq in DIFFERING.get(name, ()) if _python_reads(name, seq))
    if not sequences:
        return lambda body, text: True
    from scrapy_charset.whatwg.codecs import DECODERS

    decoder = DECODERS[name]
    characters = sorted({char for seq in sequences for char in decoder(seq)})
    if len(characters) <= _MAX_SEARCHES:

        def in_text(text: str) -> bool:
            return any(char in text for char in characters)

    else:
        search = re.compile("[" + re.escape("".join(characters)) + "]").search

        def in_text(text: str) -> bool:
            return search(text) is not None

    searches = tuple(sequences) if len(sequences) <= _MAX_SEARCHES and name in _CHARACTERS else None
    character = _CHARACTERS.get(name)
    aligned = (
        None
        if character is None
        else re.compile(b"(?:" + character + b")*?(?:" + _alternatives(sequences) + b")", re.S)
    )

    def check(body: bytes, text: str) -> bool:
        # A one-character search in the text is the cheaper: first.
        if not in_text(text):
            return True
        if searches is not None and not any(sequence in body for sequence in searches):
            return True
        if aligned is None:
            return False  # no aligned pass: a character of a differing sequence is enough
        return aligned.match(body) is None

    return check


def reads_exactly(name: str, body: bytes, text: str) -> bool:
    """Whether lxml reads *body* under ``NAMES[name]`` as the browser reads it, for a
    multi-byte body that Python's C codec decoded strictly to *text*, the browser's."""
    return _check(name)(body, text)
