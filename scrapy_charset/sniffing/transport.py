"""The transport-layer charset: the ``charset`` parameter of ``Content-Type``.

Fetch, "extract a MIME type" (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type)
over the header's values as "get, decode, and split" gives them, with MIME Sniffing's
"parse a MIME type" (https://mimesniff.spec.whatwg.org/#parse-a-mime-type) for each value.
Everything here is linear in the length of the header, and the scanning is done by
compiled regular expressions, so a hostile 100 KB header costs milliseconds rather than the
tenths of a second a character-by-character loop takes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = [
    "ContentType",
    "MimeType",
    "charset_parameter",
    "combined_value",
    "essence",
    "extract_mime_type",
    "parse_content_type",
    "parse_mime_type",
    "split_header_values",
]

#: HTTP whitespace: U+000A LF, U+000D CR, U+0009 TAB, U+0020 SPACE.
HTTP_WHITESPACE = "\n\r\t "
#: HTTP token code points (Fetch), one or more.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
#: HTTP quoted-string token code points: U+0009, U+0020 to U+007E, U+0080 to U+00FF.
_QUOTED_STRING_TOKEN = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
if sys.version_info >= (3, 11):
    # Possessive quantifiers: the same matches, without a backtracking record per escape
    # (which costs about 170 bytes per escape on an escape-dense header).
    _QUOTED_STRING = re.compile(r'"([^"\\]*+(?:\\[\s\S][^"\\]*+)*+)(\\?)("?)')
else:  # pragma: no cover
    _QUOTED_STRING = re.compile(r'"([^"\\]*(?:\\[\s\S][^"\\]*)*)(\\?)("?)')
_ESCAPE = re.compile(r"\\([\s\S])")
_QUOTE_OR_COMMA = re.compile(r'[",]')
_SEMICOLON_OR_EQUALS = re.compile(r"[;=]")
_NOT_HTTP_WHITESPACE = re.compile(r"[^\n\r\t ]")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _is_token(value: str) -> bool:
    return _TOKEN.fullmatch(value) is not None


def _is_quoted_string_token(value: str) -> bool:
    return _QUOTED_STRING_TOKEN.fullmatch(value) is not None


@dataclass
class MimeType:
    type: str
    subtype: str
    parameters: dict[str, str] = field(default_factory=dict)

    @property
    def essence(self) -> str:
        return f"{self.type}/{self.subtype}"


def _collect_quoted_string(
    value: str, position: int, *, extract_value: bool = True
) -> tuple[str, int]:
    """Fetch, "collect an HTTP quoted string".

    ``value[position]`` is the opening quote; returns the unescaped value (with
    *extract_value*, else an empty string) and the position after the closing quote (or
    the end).
    """
    # One match reads the whole quoted string: runs of plain code points, each escape
    # (a backslash and the code point after it), a final lone backslash, and the closing
    # quote if any.
    found = _QUOTED_STRING.match(value, position)
    assert found is not None  # every part of the pattern may be empty
    if not extract_value:
        return "", found.end()
    inner, lone_backslash, _ = found.groups()
    if "\\" in inner:
        inner = _ESCAPE.sub(r"\1", inner)
    return inner + lone_backslash, found.end()


def parse_mime_type(value: str) -> MimeType | None:
    """MIME Sniffing, 4.4 "parse a MIME type"; None for failure."""
    value = value.strip(HTTP_WHITESPACE)
    slash = value.find("/")
    if slash < 0:
        return None
    type_ = value[:slash]
    if not _is_token(type_):
        return None
    semicolon = value.find(";", slash + 1)
    if semicolon < 0:
        semicolon = len(value)
    subtype = value[slash + 1 : semicolon].rstrip(HTTP_WHITESPACE)
    if not _is_token(subtype):
        return None
    mime = MimeType(type_.translate(_LOWER), subtype.translate(_LOWER))
    position = semicolon
    end = len(value)
    while position < end:
        position += 1  # the ";"
        found = _NOT_HTTP_WHITESPACE.search(value, position)
        position = end if found is None else found.start()
        found = _SEMICOLON_OR_EQUALS.search(value, position)
        stop = end if found is None else found.start()
        name = value[position:stop].translate(_LOWER)
        position = stop
        if position < end:
            if value[position] == ";":
                continue
            position += 1  # the "="
        if position >= end:
            break
        if value[position] == '"':
            parameter_value, position = _collect_quoted_string(value, position)
            stop = value.find(";", position)
            position = end if stop < 0 else stop
        else:
            stop = value.find(";", position)
            if stop < 0:
                stop = end
            parameter_value = value[position:stop].rstrip(HTTP_WHITESPACE)
            position = stop
            if not parameter_value:
                continue
        if (
            _is_token(name)
            and _is_quoted_string_token(parameter_value)
            and name not in mime.parameters
        ):
            mime.parameters[name] = parameter_value
    return mime


def split_header_values(value: str) -> list[str]:
    """Fetch, "get, decode, and split" a header value: split on commas outside quoted
    strings and strip HTTP tab or space from each value."""
    if '"' not in value:
        # The common shape: no quoted string, so every comma splits.
        return [part.strip("\t ") for part in value.split(",")]
    values: list[str] = []
    position = 0
    end = len(value)
    while True:
        parts: list[str] = []
        while True:
            found = _QUOTE_OR_COMMA.search(value, position)
            stop = end if found is None else found.start()
            parts.append(value[position:stop])
            position = stop
            if position < end and value[position] == '"':
                quoted_start = position
                _, position = _collect_quoted_string(value, position, extract_value=False)
                parts.append(value[quoted_start:position])
                if position < end:
                    continue
            break
        values.append("".join(parts).strip("\t "))
        if position >= end:
            return values
        position += 1  # the ","


def combined_value(values: Collection[bytes]) -> str | None:
    """Fetch, "get" a header: its values in order, separated by ", " (0x2C 0x20), and
    isomorphic decoded; None when the header is absent. *values* are the raw values as
    ``response.headers.getlist(b"Content-Type")`` gives them."""
    if not values:
        return None
    return b", ".join(values).decode("latin-1")


def extract_mime_type(header: str) -> MimeType | None:
    """Fetch, "extract a MIME type" from the (comma-combined) ``Content-Type`` values.

    The last parsable value wins; a charset given on an earlier value of the same essence
    is kept when the later one has none.
    """
    charset: str | None = None
    essence: str | None = None
    mime: MimeType | None = None
    for value in split_header_values(header):
        temporary = parse_mime_type(value)
        if temporary is None or temporary.essence == "*/*":
            continue
        mime = temporary
        if mime.essence != essence:
            charset = mime.parameters.get("charset")
            essence = mime.essence
        elif "charset" not in mime.parameters and charset is not None:
            mime.parameters["charset"] = charset
    return mime


#: The common shape, ``text/html; charset=utf-8``: one MIME type whose only parameter is an
#: unquoted charset of token code points. It parses to the charset as written.
_COMMON_SHAPE = re.compile(
    r"[\t\n\r ]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+/[!#$%&'*+\-.^_`|~0-9A-Za-z]+[\t\n\r ]*"
    r";[\t\n\r ]*(?i:charset)=([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[\t\n\r ]*"
)


def charset_parameter(header: str | None) -> str | None:
    """The ``charset`` parameter of a ``Content-Type`` header value, as written, or None."""
    if not header:
        return None
    common = _COMMON_SHAPE.fullmatch(header)
    if common is not None:
        return common.group(1)
    if "charset" not in header.translate(_LOWER):
        # A parameter name is never quoted or escaped: without the word there is no charset.
        return None
    mime = extract_mime_type(header)
    if mime is None:
        return None
    return mime.parameters.get("charset")


@lru_cache(maxsize=256)
def _cached_essence(header: str) -> str | None:
    mime = extract_mime_type(header)
    return None if mime is None else mime.essence


def essence(header: str | None) -> str | None:
    """The essence (``type/subtype``, lowercase) of the MIME type "extract a MIME type" gives
    for a ``Content-Type`` header value, or None for failure.

    A crawl sends the same few header values again and again, so short ones are remembered
    (a bounded cache of immutable results); long ones, typically hostile, are parsed anew.
    """
    if not header:
        return None
    if len(header) <= 256:
        return _cached_essence(header)
    return _cached_essence.__wrapped__(header)


@dataclass(frozen=True)
class ContentType:
    """A ``Content-Type`` header parsed once: the value as "get" gives it (None when the
    header is absent), the essence of the MIME type "extract a MIME type" gives (None for
    failure), and that MIME type's ``charset`` parameter as written (None if it has none).
    """

    value: str | None
    essence: str | None = None
    charset: str | None = None


_ABSENT = ContentType(None)


def _parse_content_type(header: str) -> ContentType:
    mime = extract_mime_type(header)
    if mime is None:
        return ContentType(header)
    return ContentType(header, mime.essence, mime.parameters.get("charset"))


_cached_content_type = lru_cache(maxsize=256)(_parse_content_type)


def parse_content_type(header: str | None) -> ContentType:
    """The ``Content-Type`` header value *header* (the values joined by commas, see
    :func:`combined_value`) parsed once into its essence and its charset: what
    :func:`essence` and :func:`charset_parameter` give, from one run of "extract a MIME
    type".

    Short values are remembered, as by :func:`essence`; long ones are parsed anew.
    """
    if header is None:
        return _ABSENT
    if not header:
        return ContentType(header)
    if len(header) <= 256:
        return _cached_content_type(header)
    return _parse_content_type(header)
