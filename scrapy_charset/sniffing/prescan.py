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

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from scrapy_charset.responses.decision import Ignored, Source
from scrapy_charset.whatwg.labels import ASCII_WHITESPACE, get_encoding, is_utf16

__all__ = [
    "HEAD_SCAN_LIMIT",
    "PRESCAN_BYTES",
    "PrescanResult",
    "extract_meta_charset",
    "get_xml_encoding",
    "prescan",
    "utf16_xml_declaration",
]

#: "User agents are encouraged to only prescan the first 1024 bytes."
PRESCAN_BYTES = 1024
#: How far the late ``<meta>`` scan of the head may read.
HEAD_SCAN_LIMIT = 64 * 1024

_SPACE = ASCII_WHITESPACE.encode("ascii")
_SPACE_OR_SLASH = _SPACE + b"/"
_SPACE_OR_GT = _SPACE + b">"
_SPACE_OR_SEMICOLON = ASCII_WHITESPACE + ";"
_GT = 0x3E
_ASCII_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
#: The common shape of a tag from its name on: the name (up to whitespace or ">"), then
#: attributes written ``name="value"`` after whitespace, then ">" right after the last
#: one. "Get an attribute" reads each such attribute to its closing quote and then finds
#: no more at the ">", so the tag's attributes end where the match's ">" starts.
_SIMPLE_TAG = re.compile(
    rb'([^\t\n\x0c\r >]*)(?:[\t\n\x0c\r ]+[A-Za-z_:][-A-Za-z0-9_:.]*="[^"]*")*>'
)
#: A start or end tag of that shape from its "<": the handlers' choice for a "<" (then a
#: "/") then an ASCII letter, read in one match. Group 1 is the "/" of an end tag, group 2
#: the name as :data:`_SIMPLE_TAG` reads it.
_SIMPLE_START_OR_END_TAG = re.compile(
    rb'<(/?)([A-Za-z][^\t\n\x0c\r >]*)(?:[\t\n\x0c\r ]+[A-Za-z_:][-A-Za-z0-9_:.]*="[^"]*")*>'
)

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


def _skip_space_or_slash(data: bytes, position: int, end: int) -> int:
    """Step 1 of "get an attribute": the position past whitespace and "/"."""
    while position < end and data[position] in _SPACE_OR_SLASH:
        position += 1
    return position


def _get_attribute(data: bytes, position: int, end: int) -> tuple[bytes, bytes, int] | None:
    """ "Get an attribute": ``(name, value, position)``, or None when there is none.

    Names and values are ASCII-lowercased. Reaching the end of the input also gives None.
    """
    position = _skip_space_or_slash(data, position, end)  # 1.
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
        while position < end and value[position] in ASCII_WHITESPACE:
            position += 1
        # 4. The next character must be "="; otherwise loop again from here.
        if position < end and value[position] == "=":
            break
    position += 1
    # 5. Skip ASCII whitespace.
    while position < end and value[position] in ASCII_WHITESPACE:
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
    while stop < end and value[stop] not in _SPACE_OR_SEMICOLON:
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
        label = charset.strip(ASCII_WHITESPACE)
        result.ignored.append(Ignored.unusable(Source.META, label, offset))
        return None, position
    return charset, position


def _tag_name(written: bytes) -> bytes:
    """A tag's name as the "in head" emulation compares it: ASCII-lowercased, without the
    "/" of a self-closing tag written against it (``<BR/>`` is ``br``)."""
    return written.translate(_LOWER).rstrip(b"/")


def _tag_name_end(data: bytes, position: int, end: int) -> int:
    while position < end and data[position] not in _SPACE_OR_GT:
        position += 1
    return position


def _skip_attributes(data: bytes, position: int, end: int) -> int:
    """Where the attributes of a tag end: at its ">" (or the end of *data*), past the
    whitespace and "/" that "get an attribute" skips before it finds none."""
    while True:
        attribute = _get_attribute(data, position, end)
        if attribute is None:
            return _skip_space_or_slash(data, position, end)
        position = attribute[2]


def utf16_xml_declaration(body: bytes) -> str | None:
    """The start of an XML declaration in UTF-16 without a BOM (``<?x`` in UTF-16LE or
    UTF-16BE): that encoding, else None. The prescan checks it first; XML 1.0 Appendix F
    reads the same bytes."""
    if body.startswith(b"<\x00?\x00x\x00"):
        return "UTF-16LE"
    if body.startswith(b"\x00<\x00?\x00x"):
        return "UTF-16BE"
    return None


@dataclass
class _Head:
    """The late ``<meta>`` state: whether the document is still in its head, as the "in
    head" insertion mode (13.2.6.4.4) sees start tags, end tags and text, and the end tag
    that closes the raw text element (``<script>``, ``<style>``, ``<title>``...) it is in."""

    open: bool = True
    raw_text_end: bytes | None = None  # b"</script" while inside a raw text element

    def text(self, data: bytes, start: int, stop: int) -> None:
        """Text outside raw text elements that is not whitespace starts the body."""
        if self.raw_text_end is None and data[start:stop].strip(_SPACE):
            self.open = False

    def stray_lt(self) -> None:
        """A "<" that starts nothing is text."""
        if self.raw_text_end is None:
            self.open = False

    def start_tag(self, name: bytes) -> None:
        if self.raw_text_end is not None:
            return
        if name not in _HEAD_TAGS:
            self.open = False
        elif name in _RAW_TEXT:
            self.raw_text_end = b"</" + name

    def end_tag(self, name: bytes) -> None:
        if self.raw_text_end is not None:
            if b"</" + name == self.raw_text_end:
                self.raw_text_end = None
        elif name in _HEAD_ENDING_END_TAGS:
            self.open = False


#: A handler reads one construct that starts with "<" at a position and returns where the
#: scan goes on, or _STOP.
_Handler = Callable[[int], int]
_STOP = -1


class _Prescan:
    """The prescan's loop over one body, with a handler per construct as html5lib's
    ``EncodingParser`` has them: comment, ``<meta``, end tag, other start tag, other
    markup (``<!``, ``</``, ``<?``) and a stray "<"."""

    def __init__(self, data: bytes, prescan_bytes: int) -> None:
        self.data = data
        self.end = len(data)
        self.prescan_bytes = prescan_bytes
        self.result = PrescanResult()
        self.head = _Head()
        prefix = data[: prescan_bytes + 4].lower()
        #: Where the last "<meta" that can start in the first prescan_bytes starts.
        self.last_meta = prefix.rfind(b"<meta")
        #: :func:`_scan_bound`, computed when first needed (it reads up to head_limit).
        self.last_charset: int | None = None
        if b"</head" not in prefix and b"<body" not in prefix:
            # The head may well go on past the first prescan_bytes: bound the scan now.
            self.last_charset = _scan_bound(data)

    def run(self) -> PrescanResult:
        data, head = self.data, self.head
        simple = _SIMPLE_START_OR_END_TAG.match
        position = 0
        while position < self.end:
            position = self._next_markup(position)
            if position == _STOP or self._nothing_left(position):
                break
            tag = simple(data, position)
            if tag is not None:
                slash, written = tag.group(1, 2)
                if slash or written[:4].lower() != b"meta":
                    # What _start_tag or _end_tag reads, in one match: a tag whose name
                    # is not "meta" (a "<meta" goes to its own handler).
                    if slash:
                        head.end_tag(_tag_name(written))
                    else:
                        head.start_tag(_tag_name(written))
                    position = tag.end()
                    continue
            position = self._handler(position)(position)
            if position == _STOP:
                break
        return self.result

    def _nothing_left(self, position: int) -> bool:
        """Whether nothing from the markup at *position* on can change the result, so
        that the scan may stop: only a ``<meta`` tag can change it.

        - Once the head has ended, only markup that starts in the first prescan_bytes is
          read: without a "<meta" there from *position* on, nothing is left.
        - No declaration starts after the last "charset" (:func:`_scan_bound`). That
          search reads the whole head, so it runs only when the head goes on past the
          first prescan_bytes, or from the start when those bytes show no end of the head.
        """
        if not self.head.open and position > self.last_meta:
            return True
        if self.last_charset is None:
            if position < self.prescan_bytes:
                return False
            self.last_charset = _scan_bound(self.data)
        return position > self.last_charset

    def _next_markup(self, position: int) -> int:
        """The next "<" the scan reads, or _STOP. Past the prescan only the head is read,
        and raw text is skipped whole."""
        data, end, head = self.data, self.end, self.head
        if position >= self.prescan_bytes:
            if not head.open:
                return _STOP
            if head.raw_text_end is not None:
                position = _find_ascii_ci(data, head.raw_text_end, position, end)
                if position < 0:
                    return _STOP
        lt = data.find(b"<", position)
        if lt < 0:
            lt = end
        head.text(data, position, lt)
        if lt >= end or (lt >= self.prescan_bytes and not head.open):
            return _STOP
        return lt

    def _handler(self, position: int) -> _Handler:
        data = self.data
        if data.startswith(b"<!--", position):
            return self._comment
        if (
            data[position + 1 : position + 5].translate(_LOWER) == b"meta"
            and position + 5 < self.end
            and data[position + 5] in _SPACE_OR_SLASH
        ):
            return self._meta
        following = data[position + 1 : position + 2]
        name_start = position + 2 if following == b"/" else position + 1
        if name_start < self.end and data[name_start] in _ASCII_LETTERS:
            return self._end_tag if following == b"/" else self._start_tag
        if following in (b"!", b"/", b"?"):
            return self._other
        return self._stray_lt

    def _comment(self, position: int) -> int:
        """Skip to the first "-->" after the "<" (its hyphens may be those of "<!--")."""
        close = self.data.find(b"-->", position + 2)
        return _STOP if close < 0 else close + 3

    def _meta(self, position: int) -> int:
        """A ``<meta`` tag: a usable declaration ends the scan."""
        label, after = _meta(self.data, position + 5, self.end, self.result)
        if label is None:
            return after + 1  # next byte
        encoding = get_encoding(label)
        assert encoding is not None
        if is_utf16(encoding):
            encoding = "UTF-8"
        elif encoding == "x-user-defined":
            encoding = "windows-1252"
        result = self.result
        result.encoding = encoding
        result.label = label.strip(ASCII_WHITESPACE)
        result.offset = position
        result.source = Source.META
        return _STOP

    def _tag(self, name_start: int) -> tuple[bytes, int]:
        """The tag's lowercased name, and the position after the tag's ">"."""
        data, end = self.data, self.end
        simple = _SIMPLE_TAG.match(data, name_start, end)
        if simple is not None:
            name_end, attributes_end = simple.end(1), simple.end() - 1
        else:
            name_end = _tag_name_end(data, name_start, end)
            attributes_end = _skip_attributes(data, name_end, end)
        return _tag_name(data[name_start:name_end]), attributes_end + 1

    def _end_tag(self, position: int) -> int:
        name, position = self._tag(position + 2)
        self.head.end_tag(name)
        return position

    def _start_tag(self, position: int) -> int:
        name, position = self._tag(position + 1)
        self.head.start_tag(name)
        return position

    def _other(self, position: int) -> int:
        """``<!``, ``</`` or ``<?`` that starts no tag: skip to the next ">"."""
        close = self.data.find(b">", position + 1)
        return _STOP if close < 0 else close + 1

    def _stray_lt(self, position: int) -> int:
        self.head.stray_lt()
        return position + 1


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
    utf16 = utf16_xml_declaration(body)
    if utf16 is not None:
        return PrescanResult(encoding=utf16, offset=0, source=Source.XML_DECLARATION)
    data = body[: max(head_limit, prescan_bytes)]
    result = _Prescan(data, prescan_bytes).run()
    if result.encoding is None:
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
