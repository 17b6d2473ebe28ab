"""MIME Sniffing Standard, 7.1: "rules for identifying an unknown MIME type".

https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type

A browser that receives a response with no ``Content-Type`` (or ``unknown/unknown``,
``application/unknown``, ``*/*``) computes its type from the first bytes of the body, the
*resource header* (at most :data:`RESOURCE_HEADER` bytes, 5.2): the HTML signatures of the
first table (when the sniff-scriptable flag is set: no ``X-Content-Type-Options:
nosniff``), then the byte order marks, then the image, audio or video and archive
signatures (6.1, 6.2, 6.4), and finally ``text/plain`` when the header has no binary data
byte (3, "terminology"), else ``application/octet-stream``.

:func:`identify_unknown` runs those rules; :func:`sniffed_kind` says which rules of
:func:`scrapy_charset.sniffing.sniff` decode the computed type (``"html"`` for
``text/html``, ``"xml"`` for ``text/xml``, ``"text"`` for ``text/plain``, None for a
binary type). The signature rows below are the standard's tables, in its order, with its
byte patterns and masks written as the standard writes them (``TT`` is a tag-terminating
byte, 0x20 or 0x3E).

The audio and video step's three algorithms (MP4, WebM and MP3 without ID3, 6.2.1-6.2.3)
are not run: they only ever compute a binary type, which decodes no text either way, and
the bodies they match carry binary data bytes.

Pure code: nothing here imports Scrapy.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "RESOURCE_HEADER",
    "UNKNOWN_TYPES",
    "Signature",
    "identify_unknown",
    "is_binary_data_byte",
    "pattern_matches",
    "sniffed_kind",
]

#: 5.2 "Reading the resource header": the sniffing algorithms read at most 1445 bytes.
RESOURCE_HEADER = 1445

#: 8.1 "Determining the computed MIME type of a resource": the supplied types that send a
#: resource through the rules for identifying an unknown MIME type.
UNKNOWN_TYPES = frozenset({"unknown/unknown", "application/unknown", "*/*"})

#: 3 "Terminology": whitespace bytes (HTAB, LF, FF, CR, SP).
WHITESPACE_BYTES = frozenset(b"\t\n\x0c\r ")
#: 3 "Terminology": a tag-terminating byte (SP or ">").
TAG_TERMINATING_BYTES = frozenset(b" >")
#: 3 "Terminology": binary data bytes (0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F).
_BINARY_DATA_BYTES = frozenset([*range(0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
_BINARY_TABLE = bytes(range(256))
_BINARY_DELETE = bytes(sorted(_BINARY_DATA_BYTES))


def is_binary_data_byte(byte: int) -> bool:
    """3 "Terminology": True for a binary data byte."""
    return byte in _BINARY_DATA_BYTES


@dataclass(frozen=True)
class Signature:
    """One row of a signature table: byte pattern, pattern mask, whether leading
    whitespace bytes are ignored, the computed MIME type, and whether the pattern ends
    with a tag-terminating byte (``TT``)."""

    pattern: bytes
    mask: bytes
    skip_whitespace: bool
    mime_type: str
    terminated: bool = False

    @classmethod
    def row(cls, pattern: str, mask: str, leading: str, mime_type: str) -> Signature:
        """A row as the standard writes it: hex bytes, ``TT`` last for a tag-terminating
        byte; *leading* is ``"whitespace"`` or ``"none"``."""
        words = pattern.split()
        terminated = words[-1] == "TT"
        if terminated:
            words = words[:-1]
        mask_bytes = bytes.fromhex(mask)
        if terminated:
            mask_bytes = mask_bytes[:-1]
        data = bytes.fromhex(" ".join(words))
        if len(data) != len(mask_bytes):
            raise ValueError(f"pattern and mask lengths differ: {pattern!r} / {mask!r}")
        return cls(data, mask_bytes, leading == "whitespace", mime_type, terminated)


_R = Signature.row

#: 7.1 step 1: the table run when the sniff-scriptable flag is set.
SCRIPTABLE: tuple[Signature, ...] = (
    _R("3C 21 44 4F 43 54 59 50 45 20 48 54 4D 4C TT",
       "FF FF DF DF DF DF DF DF DF FF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 48 54 4D 4C TT", "FF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 48 45 41 44 TT", "FF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 53 43 52 49 50 54 TT", "FF DF DF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 49 46 52 41 4D 45 TT", "FF DF DF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 48 31 TT", "FF DF FF FF", "whitespace", "text/html"),
    _R("3C 44 49 56 TT", "FF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 46 4F 4E 54 TT", "FF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 54 41 42 4C 45 TT", "FF DF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 41 TT", "FF DF FF", "whitespace", "text/html"),
    _R("3C 53 54 59 4C 45 TT", "FF DF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 54 49 54 4C 45 TT", "FF DF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 42 TT", "FF DF FF", "whitespace", "text/html"),
    _R("3C 42 4F 44 59 TT", "FF DF DF DF DF FF", "whitespace", "text/html"),
    _R("3C 42 52 TT", "FF DF DF FF", "whitespace", "text/html"),
    _R("3C 50 TT", "FF DF FF", "whitespace", "text/html"),
    _R("3C 21 2D 2D TT", "FF FF FF FF FF", "whitespace", "text/html"),
    _R("3C 3F 78 6D 6C", "FF FF FF FF FF", "whitespace", "text/xml"),
    _R("25 50 44 46 2D", "FF FF FF FF FF", "none", "application/pdf"),
)  # fmt: skip

#: 7.1 step 2: the table run whatever the flag.
NON_SCRIPTABLE: tuple[Signature, ...] = (
    _R("25 21 50 53 2D 41 64 6F 62 65 2D", "FF FF FF FF FF FF FF FF FF FF FF", "none",
       "application/postscript"),
    _R("FE FF 00 00", "FF FF 00 00", "none", "text/plain"),  # UTF-16BE BOM
    _R("FF FE 00 00", "FF FF 00 00", "none", "text/plain"),  # UTF-16LE BOM
    _R("EF BB BF 00", "FF FF FF 00", "none", "text/plain"),  # UTF-8 BOM
)  # fmt: skip

#: 6.1 "Matching an image type pattern".
IMAGE: tuple[Signature, ...] = (
    _R("00 00 01 00", "FF FF FF FF", "none", "image/x-icon"),
    _R("00 00 02 00", "FF FF FF FF", "none", "image/x-icon"),
    _R("42 4D", "FF FF", "none", "image/bmp"),
    _R("47 49 46 38 37 61", "FF FF FF FF FF FF", "none", "image/gif"),
    _R("47 49 46 38 39 61", "FF FF FF FF FF FF", "none", "image/gif"),
    _R("52 49 46 46 00 00 00 00 57 45 42 50 56 50",
       "FF FF FF FF 00 00 00 00 FF FF FF FF FF FF", "none", "image/webp"),
    _R("89 50 4E 47 0D 0A 1A 0A", "FF FF FF FF FF FF FF FF", "none", "image/png"),
    _R("FF D8 FF", "FF FF FF", "none", "image/jpeg"),
)  # fmt: skip

#: 6.2 "Matching an audio or video type pattern" (the table; see the module docstring).
AUDIO_VIDEO: tuple[Signature, ...] = (
    _R("46 4F 52 4D 00 00 00 00 41 49 46 46",
       "FF FF FF FF 00 00 00 00 FF FF FF FF", "none", "audio/aiff"),
    _R("49 44 33", "FF FF FF", "none", "audio/mpeg"),
    _R("4F 67 67 53 00", "FF FF FF FF FF", "none", "application/ogg"),
    _R("4D 54 68 64 00 00 00 06", "FF FF FF FF FF FF FF FF", "none", "audio/midi"),
    _R("52 49 46 46 00 00 00 00 41 56 49 20",
       "FF FF FF FF 00 00 00 00 FF FF FF FF", "none", "video/avi"),
    _R("52 49 46 46 00 00 00 00 57 41 56 45",
       "FF FF FF FF 00 00 00 00 FF FF FF FF", "none", "audio/wave"),
)  # fmt: skip

#: 6.4 "Matching an archive type pattern".
ARCHIVE: tuple[Signature, ...] = (
    _R("1F 8B 08", "FF FF FF", "none", "application/x-gzip"),
    _R("50 4B 03 04", "FF FF FF FF", "none", "application/zip"),
    _R("52 61 72 21 1A 07 00", "FF FF FF FF FF FF FF", "none", "application/x-rar-compressed"),
)

#: Every type the rules can compute: a stats key naming one has bounded cardinality.
COMPUTED_TYPES: frozenset[str] = frozenset(
    row.mime_type for table in (SCRIPTABLE, NON_SCRIPTABLE, IMAGE, AUDIO_VIDEO, ARCHIVE)
    for row in table
) | {"text/plain", "application/octet-stream"}  # fmt: skip


def pattern_matches(data: bytes, signature: Signature) -> bool:
    """6 "Matching a MIME type pattern", the pattern matching algorithm: after the
    leading bytes to be ignored, each byte of *data* ANDed with the mask equals the
    pattern (then, for a ``TT`` row, a tag-terminating byte follows)."""
    pattern, mask = signature.pattern, signature.mask
    if len(data) < len(pattern):
        return False
    s = 0
    if signature.skip_whitespace:
        while s < len(data) and data[s] in WHITESPACE_BYTES:
            s += 1
    if s + len(pattern) > len(data):
        return False
    for p, expected in enumerate(pattern):
        if data[s + p] & mask[p] != expected:
            return False
    if signature.terminated:
        end = s + len(pattern)
        return end < len(data) and data[end] in TAG_TERMINATING_BYTES
    return True


def _first_match(header: bytes, table: tuple[Signature, ...]) -> str | None:
    for signature in table:
        if pattern_matches(header, signature):
            return signature.mime_type
    return None


def identify_unknown(body: bytes, *, sniff_scriptable: bool = True) -> str:
    """7.1: the computed MIME type of a resource whose supplied type is unknown.

    :param body: the body (only its resource header, the first :data:`RESOURCE_HEADER`
        bytes, is read).
    :param sniff_scriptable: the sniff-scriptable flag: False when the response says
        ``X-Content-Type-Options: nosniff`` (8.1), which rules the HTML signatures out.
    """
    header = bytes(body[:RESOURCE_HEADER])
    if sniff_scriptable:
        found = _first_match(header, SCRIPTABLE)
        if found is not None:
            return found
    for table in (NON_SCRIPTABLE, IMAGE, AUDIO_VIDEO, ARCHIVE):
        found = _first_match(header, table)
        if found is not None:
            return found
    if len(header.translate(_BINARY_TABLE, _BINARY_DELETE)) == len(header):
        return "text/plain"  # no binary data byte
    return "application/octet-stream"


#: The computed types that are text, and the rules that decode them.
_KINDS = {"text/html": "html", "text/xml": "xml", "text/plain": "text"}


def sniffed_kind(mime_type: str) -> str | None:
    """``"html"``, ``"xml"`` or ``"text"`` for a computed type that is text, else None."""
    return _KINDS.get(mime_type)
