"""The transport-layer charset: the ``charset`` parameter of ``Content-Type``.

Fetch, "extract a MIME type" (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type)
over the header's values as "get, decode, and split" gives them, with MIME Sniffing's
"parse a MIME type" (https://mimesniff.spec.whatwg.org/#parse-a-mime-type) for each value.
Everything here is linear in the length of the header.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["MimeType", "extract_mime_type", "parse_mime_type", "split_header_values"]

#: HTTP whitespace: U+000A LF, U+000D CR, U+0009 TAB, U+0020 SPACE.
HTTP_WHITESPACE = "\n\r\t "
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _is_token(value: str) -> bool:
    return bool(value) and all(c in _TOKEN for c in value)


def _is_quoted_string_token(value: str) -> bool:
    # U+0009, U+0020 to U+007E, U+0080 to U+00FF.
    return all(c == "\t" or " " <= c <= "~" or "\x80" <= c <= "\xff" for c in value)


@dataclass
class MimeType:
    type: str
    subtype: str
    parameters: dict[str, str] = field(default_factory=dict)

    @property
    def essence(self) -> str:
        return f"{self.type}/{self.subtype}"


def _collect_quoted_string(value: str, position: int) -> tuple[str, int]:
    """Fetch, "collect an HTTP quoted string" with extract-value set to true.

    ``value[position]`` is the opening quote; returns the unescaped value and the position
    after the closing quote (or the end).
    """
    out: list[str] = []
    position += 1
    end = len(value)
    while True:
        stop = position
        while stop < end and value[stop] not in '"\\':
            stop += 1
        out.append(value[position:stop])
        position = stop
        if position >= end:
            break
        quote_or_backslash = value[position]
        position += 1
        if quote_or_backslash == "\\":
            if position >= end:
                out.append("\\")
                break
            out.append(value[position])
            position += 1
        else:
            break
    return "".join(out), position


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
        while position < end and value[position] in HTTP_WHITESPACE:
            position += 1
        stop = position
        while stop < end and value[stop] not in ";=":
            stop += 1
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
    values: list[str] = []
    position = 0
    end = len(value)
    while True:
        parts: list[str] = []
        while True:
            stop = position
            while stop < end and value[stop] not in '",':
                stop += 1
            parts.append(value[position:stop])
            position = stop
            if position < end and value[position] == '"':
                quoted_start = position
                _, position = _collect_quoted_string(value, position)
                parts.append(value[quoted_start:position])
                if position < end:
                    continue
            break
        values.append("".join(parts).strip("\t "))
        if position >= end:
            return values
        position += 1  # the ","


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


def charset_parameter(header: str | None) -> str | None:
    """The ``charset`` parameter of a ``Content-Type`` header value, as written, or None."""
    if not header:
        return None
    mime = extract_mime_type(header)
    if mime is None:
        return None
    return mime.parameters.get("charset")
