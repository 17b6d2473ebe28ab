"""The Content-Type charset: Fetch "extract a MIME type" and MIME Sniffing "parse a MIME type"."""

from __future__ import annotations

import pytest

from scrapy_charset.sniffing.transport import (
    charset_parameter,
    essence,
    parse_mime_type,
    split_header_values,
)

# (header value, charset parameter as written or None)
CASES = [
    ("text/html; charset=utf-8", "utf-8"),
    ("text/html;charset=Shift_JIS", "Shift_JIS"),
    ("TEXT/HTML; CHARSET=EUC-KR", "EUC-KR"),
    ('text/html; charset="gbk"', "gbk"),
    ('text/html; charset="gb\\k"', "gbk"),  # quoted-pair
    ('text/html; charset="utf-8', "utf-8"),  # unterminated quoted string
    ("text/html; charset=utf-8 ", "utf-8"),  # trailing whitespace removed
    ("text/html; charset =utf-8", None),  # "charset " is not the parameter name "charset"
    ("text/html; charset=", None),  # empty value is skipped
    ("text/html; charset=;charset=big5", "big5"),
    ("text/html; charset=koi8-r; charset=utf-8", "koi8-r"),  # first one wins
    ('text/html; foo="charset=utf-8"; charset=big5', "big5"),  # inside a quoted value
    ('text/html; foo="charset=utf-8"', None),
    ("text/html; charset=utf-8, text/html", "utf-8"),  # Fetch: same essence keeps the charset
    ("text/html; charset=utf-8, text/plain", None),  # a new essence resets the charset
    ("text/plain, text/html; charset=big5", "big5"),
    ("text/html; charset=big5, */*", "big5"),  # */* is skipped
    ("text/html; charset=big5, nonsense", "big5"),  # an unparsable value is skipped
    ('text/html; charset="a,b", text/html', "a,b"),  # a comma inside quotes does not split
    ("text/html", None),
    ("", None),
    ("charset=utf-8", None),  # not a MIME type
    ("text/; charset=utf-8", None),
    ("te xt/html; charset=utf-8", None),
    ("text/html; charset=\u0100", None),  # not a quoted-string token code point
]


@pytest.mark.parametrize(("header", "expected"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_charset_parameter(header: str, expected: str | None) -> None:
    assert charset_parameter(header) == expected


def test_none() -> None:
    assert charset_parameter(None) is None


def test_parse_lowercases_type_and_names() -> None:
    mime = parse_mime_type(" Text/HTML ;  Charset=UTF-8")
    assert mime is not None
    assert mime.essence == "text/html"
    assert mime.parameters == {"charset": "UTF-8"}


def test_split_keeps_quoted_commas() -> None:
    assert split_header_values('a/b; x="1,2", c/d') == ['a/b; x="1,2"', "c/d"]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("text/html; charset=utf-8", "text/html"),
        ("Application/XHTML+XML", "application/xhtml+xml"),
        ("text/plain, text/html; charset=big5", "text/html"),  # the last parsable value
        ("nonsense", None),
        ("", None),
        (None, None),
        ("text/html; a=" + "b" * 300, "text/html"),  # too long to be remembered: parsed anew
        ("text/html; a=" + "b" * 300 + ", nonsense/", "text/html"),
    ],
    ids=["common", "case", "last-value", "unparsable", "empty", "none", "long", "long-2"],
)
def test_essence(header: str | None, expected: str | None) -> None:
    assert essence(header) == expected
    assert essence(header) == expected  # the remembered answer is the same
