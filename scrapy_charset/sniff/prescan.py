"""HTML Standard, 13.2.3.2: "prescan a byte stream to determine its encoding".

https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding

Also here, because they read the same bytes with the same tokenizer:

- "get an XML encoding" (same section), which the prescan falls back on;
- "extracting character encodings from meta elements" (HTML Standard, 2.5.3);
- the late ``<meta>`` in ``<head>``: when the prescan of the first 1024 bytes finds
  nothing, the tree builder still meets ``<meta>`` start tags in the "in head" insertion
  mode (13.2.6.4.4) and, while the confidence is tentative, changes the encoding
  ("change the encoding", 13.2.3.4). :func:`prescan` emulates that by going on past the
  first 1024 bytes for as long as the document is still in its head, up to a bound.

Every loop moves forward through the input, so the work is linear in the bytes read, and
those are at most ``head_limit`` bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy_charset.decision import Ignored, Source
from scrapy_charset.whatwg.labels import get_encoding, is_refused, is_utf16

__all__ = [
    "HEAD_SCAN_LIMIT",
    "PRESCAN_BYTES",
    "PrescanResult",
    "extract_meta_charset",
    "get_xml_encoding",
    "prescan",
]

#: "User agents are encouraged to only prescan the first 1024 bytes."
PRESCAN_BYTES = 1024
#: How far the late ``<meta>`` scan of the head may read.
HEAD_SCAN_LIMIT = 64 * 1024

_SPACE = b"\t\n\x0c\r "
_SPACE_OR_SLASH = b"\t\n\x0c\r /"
_SPACE_OR_GT = b"\t\n\x0c\r >"
_LT = 0x3C
_GT = 0x3E
_ASCII_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")

#: Start tags the "in head" (and "before head") insertion modes keep in the head.
_HEAD_TAGS = frozenset(
    {
        b"html",
        b"head",
        b"base",
        b"basefont",
        b"bgsound",
        b"link",
        b"meta",
        b"title",
        b"noscript",
        b"noframes",
        b"style",
        b"script",
        b"template",
    }
)
#: End tags that end the head; the "in head" mode ignores any other end tag.
_HEAD_ENDING_END_TAGS = frozenset({b"head", b"body", b"html", b"br"})
#: Elements whose content is text up to their end tag (RCDATA and raw text in the head).
_RAW_TEXT = frozenset({b"title", b"noscript", b"noframes", b"style", b"script"})


@dataclass
class PrescanResult:
    """What the prescan found: an encoding or nothing, plus the labels it passed over."""

    encoding: str | None = None
    label: str | None = None
    offset: int | None = None
    source: Source = Source.META
    ignored: list[Ignored] = field(default_factory=list)


def _isomorphic_decode(value: bytes) -> str:
    return value.decode("latin-1")


def _get_attribute(data: bytes, position: int, end: int) -> tuple[bytes, bytes, int] | None:
    """ "Get an attribute": ``(name, value, position)``, or None when there is none.

    Names and values are ASCII-lowercased. Reaching the end of the input also gives None.
    """
    # 1. Skip whitespace and "/".
    while position < end and data[position] in _SPACE_OR_SLASH:
        position += 1
    # 2. ">" (or the end): there is no attribute.
    if position >= end or data[position] == _GT:
        return None
    # 3-5. The attribute name.
    start = position
    while True:
        byte = data[position]
        if byte == 0x3D and position > start:  # "=" after at least one byte
            name = data[start:position].translate(_LOWER)
            position += 1
            break
        if byte in _SPACE:
            name = data[start:position].translate(_LOWER)
            # 6. Spaces.
            while position < end and data[position] in _SPACE:
                position += 1
            if position >= end:
                return None
            # 7. Anything but "=": the attribute has no value.
            if data[position] != 0x3D:
                return name, b"", position
            position += 1
            break
        if byte in b"/>":
            return data[start:position].translate(_LOWER), b"", position
        position += 1
        if position >= end:
            return None
    # 9. Value: skip whitespace.
    while position < end and data[position] in _SPACE:
        position += 1
    if position >= end:
        return None
    # 10. A quoted value, ">", or the first byte of an unquoted value.
    byte = data[position]
    if byte in b"\"'":
        close = data.find(bytes((byte,)), position + 1, end)
        if close < 0:
            return None
        return name, data[position + 1 : close].translate(_LOWER), close + 1
    if byte == _GT:
        return name, b"", position
    start = position
    position += 1
    # 11-12. The rest of an unquoted value, up to whitespace or ">".
    while position < end and data[position] not in _SPACE_OR_GT:
        position += 1
    if position >= end:
        return None
    return name, data[start:position].translate(_LOWER), position


def extract_meta_charset(value: str) -> str | None:
    """HTML Standard 2.5.3, "the algorithm for extracting a character encoding from a
    meta element": the label in a ``content`` attribute value, or None for nothing.

    Returns the label as written (the caller gets an encoding from it).
    """
    position = 0
    lowered = value.lower() if value.isascii() else value
    end = len(value)
    while True:
        # 2. Loop: find "charset" (ASCII case-insensitive) after position.
        found = lowered.find("charset", position)
        if found < 0:
            return None
        position = found + 7
        # 3. Skip ASCII whitespace.
        while position < end and value[position] in "\t\n\x0c\r ":
            position += 1
        # 4. The next character must be "="; otherwise loop again from here.
        if position < end and value[position] == "=":
            break
    position += 1
    # 5. Skip ASCII whitespace.
    while position < end and value[position] in "\t\n\x0c\r ":
        position += 1
    if position >= end:
        return None
    # 6. A quoted value up to the matching quote, or an unquoted value up to ";" or space.
    first = value[position]
    if first in "\"'":
        close = value.find(first, position + 1)
        if close < 0:
            return None
        return value[position + 1 : close]
    stop = position
    while stop < end and value[stop] not in "\t\n\x0c\r ;":
        stop += 1
    return value[position:stop]


def get_xml_encoding(data: bytes) -> tuple[str, str] | None:
    """HTML Standard 13.2.3.2, "get an XML encoding": ``(encoding, label)`` or None.

    Only a declaration at the very start counts, and only its ``encoding`` pseudo-attribute
    up to the declaration's ``>``. A UTF-16 label gives UTF-8.
    """
    if not data.startswith(b"<?xml"):
        return None
    declaration_end = data.find(b">", 5)
    if declaration_end < 0:
        return None
    position = data.find(b"encoding", 5, declaration_end)
    if position < 0:
        return None
    position += 8
    while position < declaration_end and data[position] <= 0x20:
        position += 1
    if position >= declaration_end or data[position] != 0x3D:
        return None
    position += 1
    while position < declaration_end and data[position] <= 0x20:
        position += 1
    if position >= declaration_end:
        return None
    quote = data[position]
    if quote not in b"\"'":
        return None
    position += 1
    close = data.find(bytes((quote,)), position, declaration_end)
    if close < 0:
        return None
    potential = data[position:close]
    if any(byte <= 0x20 for byte in potential):
        return None
    label = _isomorphic_decode(potential)
    encoding = get_encoding(label)
    if encoding is None:
        return None
    if is_utf16(encoding):
        encoding = "UTF-8"
    return encoding, label


def _unusable(source: Source, label: str, offset: int) -> Ignored:
    reason = "refused_label" if is_refused(label) else "unknown_label"
    return Ignored(source=source, label=label, reason=reason, offset=offset)


def _meta(data: bytes, position: int, end: int, result: PrescanResult) -> tuple[str | None, int]:
    """The prescan's ``<meta`` steps from the byte after ``<meta``.

    Returns ``(label, position)``: the label of a usable declaration (after the
    "processing" steps) or None, and where the scan goes on.
    """
    offset = position - 5
    attribute_list: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: str | None = None  # the label; None is the spec's "null"
    while True:
        attribute = _get_attribute(data, position, end)
        if attribute is None:
            break
        name, value, position = attribute
        if name in attribute_list:
            continue
        attribute_list.add(name)
        if name == b"http-equiv":
            if value == b"content-type":
                got_pragma = True
        elif name == b"content":
            label = extract_meta_charset(_isomorphic_decode(value))
            if label is not None and charset is None:
                charset = label
                need_pragma = True
        elif name == b"charset":
            charset = _isomorphic_decode(value)
            need_pragma = False
    # Processing.
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return None, position
    if get_encoding(charset) is None:
        result.ignored.append(_unusable(Source.META, charset.strip("\t\n\x0c\r "), offset))
        return None, position
    return charset, position


def _tag_name_end(data: bytes, position: int, end: int) -> int:
    while position < end and data[position] not in _SPACE_OR_GT:
        position += 1
    return position


def _skip_attributes(data: bytes, position: int, end: int) -> int:
    while True:
        attribute = _get_attribute(data, position, end)
        if attribute is None:
            return position
        position = attribute[2]


def prescan(
    body: bytes,
    *,
    prescan_bytes: int = PRESCAN_BYTES,
    head_limit: int = HEAD_SCAN_LIMIT,
) -> PrescanResult:
    """Prescan *body* for a ``<meta>`` declaration, then an XML declaration.

    Constructs that start in the first *prescan_bytes* bytes are read as the spec's prescan
    reads them (a tag or comment begun there is read to its end). Past that, the scan goes
    on only while the document is still in its head (no body content, no ``</head>``),
    skipping the text of ``<script>``, ``<style>`` and ``<title>``, and never past
    *head_limit* bytes.
    """
    result = PrescanResult()
    # Prescan for UTF-16 XML declarations ('<?x' in UTF-16LE or UTF-16BE).
    if body.startswith(b"<\x00?\x00x\x00"):
        result.encoding, result.offset, result.source = "UTF-16LE", 0, Source.XML_DECLARATION
        return result
    if body.startswith(b"\x00<\x00?\x00x"):
        result.encoding, result.offset, result.source = "UTF-16BE", 0, Source.XML_DECLARATION
        return result
    data = body[: max(head_limit, prescan_bytes)]
    end = len(data)
    last_charset = _scan_bound(data)
    position = 0 if last_charset >= 0 else end
    in_head = True  # no body content seen yet
    raw_text_end: bytes | None = None  # b"</script" while inside a raw text element
    while position < end:
        if position >= prescan_bytes:
            # Past the prescan: only the head is read, and raw text is skipped whole.
            if not in_head:
                break
            if raw_text_end is not None:
                position = _find_ascii_ci(data, raw_text_end, position, end)
                if position < 0:
                    break
        lt = data.find(b"<", position)
        if lt < 0:
            lt = end
        if raw_text_end is None and data[position:lt].strip(_SPACE):
            in_head = False  # text in the head starts the body
        position = lt
        if position >= end or (position >= prescan_bytes and not in_head):
            break
        if position > last_charset:
            break
        if data.startswith(b"<!--", position):
            # Skip to the first "-->" after the "<" (its hyphens may be those of "<!--").
            close = data.find(b"-->", position + 2)
            if close < 0:
                break
            position = close + 3
            continue
        if (
            data[position + 1 : position + 5].translate(_LOWER) == b"meta"
            and position + 5 < end
            and data[position + 5] in _SPACE_OR_SLASH
        ):
            label, position = _meta(data, position + 5, end, result)
            if label is not None:
                encoding = get_encoding(label)
                assert encoding is not None
                if is_utf16(encoding):
                    encoding = "UTF-8"
                elif encoding == "x-user-defined":
                    encoding = "windows-1252"
                result.encoding = encoding
                result.label = label.strip("\t\n\x0c\r ")
                result.offset = lt
                result.source = Source.META
                return result
            position += 1  # next byte
            continue
        following = data[position + 1 : position + 2]
        name_start = position + 2 if following == b"/" else position + 1
        if name_start < end and data[name_start] in _ASCII_LETTERS:
            name_end = _tag_name_end(data, name_start, end)
            name = data[name_start:name_end].translate(_LOWER).rstrip(b"/")
            position = _skip_attributes(data, name_end, end) + 1
            if raw_text_end is not None:
                if following == b"/" and b"</" + name == raw_text_end:
                    raw_text_end = None
            elif following == b"/":
                if name in _HEAD_ENDING_END_TAGS:
                    in_head = False
            elif name not in _HEAD_TAGS:
                in_head = False
            elif name in _RAW_TEXT:
                raw_text_end = b"</" + name
            continue
        if following in (b"!", b"/", b"?"):
            close = data.find(b">", position + 1)
            if close < 0:
                break
            position = close + 1
            continue
        if raw_text_end is None:
            in_head = False  # a "<" that starts nothing is text
        position += 1
    xml = get_xml_encoding(data)
    if xml is not None:
        result.encoding, result.label = xml
        result.offset = 0
        result.source = Source.XML_DECLARATION
    return result


def _scan_bound(data: bytes) -> int:
    """Where the last tag that can matter may start, or -1 when none can.

    Every declaration the scan can find or pass over has the word "charset" in it (the
    attribute's name, or the pragma's content), so no tag that starts after the word's
    last occurrence can matter, and without the word there is nothing to scan. The result
    of the scan is the same; it just stops early. (``bytes.lower`` is ASCII-only, as the
    matching is.)
    """
    return data.lower().rfind(b"charset")


def _find_ascii_ci(data: bytes, needle: bytes, start: int, end: int) -> int:
    """Find *needle* (ASCII lowercase) in ``data[start:end]`` ignoring ASCII case."""
    first_lower = needle[:2]  # "</" has no case
    position = start
    size = len(needle)
    while True:
        found = data.find(first_lower, position, end)
        if found < 0:
            return -1
        if data[found : found + size].translate(_LOWER) == needle:
            return found
        position = found + 2
