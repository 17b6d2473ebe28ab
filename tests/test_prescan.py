"""HTML Standard 13.2.3.2: the prescan, "get an XML encoding", and the late <meta> in head.

The html5lib-tests and html5prescan cases run through :func:`scrapy_charset.sniff` with no
Content-Type; those suites assume a browser whose default is windows-1252.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scrapy_charset import lookup, sniff
from scrapy_charset.sniffing.prescan import extract_meta_charset, get_xml_encoding, prescan
from tests.spec import SPEC_DIR, read_dat


def _cases(*paths: Path) -> list[Any]:
    params = []
    for path in paths:
        for index, (data, expected) in enumerate(read_dat(path), 1):
            params.append(pytest.param(data, expected, id=f"{path.stem}-{index}"))
    return params


HTML5LIB = _cases(
    *(
        SPEC_DIR / "html5lib-tests-encoding" / name
        for name in ("tests1.dat", "tests2.dat", "test-yahoo-jp.dat")
    )
)
PRESCAN3 = _cases(SPEC_DIR / "html5prescan" / "prescan3.dat")


def test_suite_sizes() -> None:
    assert len(HTML5LIB) == 82
    assert len(PRESCAN3) == 26


#: The cases whose windows-1252 is the suite's default: the document declares nothing the
#: prescan may read (a broken, unterminated or misplaced <meta>). They are plain ASCII, so
#: the valid-UTF-8 rule decides UTF-8, which reads the same text.
UNDECLARED = frozenset(
    [f"tests1-{n}" for n in (1, 7, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 25, 26, 29,
                             30, 31, 34, 35, 36)]
    + [f"tests2-{n}" for n in (1, 2, 3, 4, 5, 9, 10, 12, 13, 14, 16)]
)  # fmt: skip


def test_undeclared_cases_are_the_suites_default() -> None:
    cases = {param.id: param.values for param in HTML5LIB}
    assert len(UNDECLARED) == 32
    for case in UNDECLARED:
        data, expected = cases[case]
        assert lookup(str(expected)) == "windows-1252", case
        assert isinstance(data, bytes)
        assert data.isascii(), case


@pytest.mark.parametrize(
    ("data", "expected", "undeclared"),
    [pytest.param(*p.values, p.id in UNDECLARED, id=p.id) for p in HTML5LIB],
)
def test_html5lib_encoding(data: bytes, expected: str, undeclared: bool) -> None:
    decision = sniff(data)
    if undeclared:
        # Nothing the prescan reads: the undeclared ASCII body is UTF-8 (the scraping
        # side's rule), the same text as the suite's windows-1252 default.
        assert prescan(data).encoding is None
        assert (decision.encoding, decision.source) == ("UTF-8", "utf8-validity")
        assert data.decode("utf-8") == data.decode("cp1252")
    else:
        assert decision.encoding == lookup(expected)
        assert decision.source != "utf8-validity"


@pytest.mark.parametrize(("data", "expected"), PRESCAN3)
def test_html5prescan(data: bytes, expected: str) -> None:
    result = prescan(data)
    if expected == "None":
        assert result.encoding is None
    else:
        assert result.encoding == lookup(expected)


# (document, encoding or None, label as written or None)
PRESCAN_CASES = [
    pytest.param(b'<meta charset="koi8-r">', "KOI8-R", "koi8-r", id="charset-double-quoted"),
    pytest.param(b"<META CHARSET=KOI8-R>", "KOI8-R", "koi8-r", id="uppercase"),
    pytest.param(b"<meta/charset=koi8-r>", "KOI8-R", "koi8-r", id="slash-separator"),
    pytest.param(
        b'<meta http-equiv="Content-Type" content="text/html; charset=big5">',
        "Big5",
        "big5",
        id="http-equiv-pragma",
    ),
    pytest.param(
        b'<meta content="text/html; charset=big5" http-equiv="content-type">',
        "Big5",
        "big5",
        id="pragma-after-content",
    ),
    pytest.param(b'<meta content="text/html; charset=big5">', None, None, id="need-pragma"),
    pytest.param(
        b'<meta http-equiv="refresh" content="text/html; charset=big5">',
        None,
        None,
        id="wrong-pragma",
    ),
    pytest.param(
        b'<meta charset="big5" charset="koi8-r">', "Big5", "big5", id="duplicate-attribute"
    ),
    pytest.param(b'<meta charset="utf-16">', "UTF-8", "utf-16", id="utf16-means-utf8"),
    pytest.param(b'<meta charset="utf-16be">', "UTF-8", "utf-16be", id="utf16be-means-utf8"),
    pytest.param(
        b'<meta charset="x-user-defined">',
        "windows-1252",
        "x-user-defined",
        id="x-user-defined-means-1252",
    ),
    pytest.param(
        b'<meta charset="bogus"><meta charset="koi8-r">',
        "KOI8-R",
        "koi8-r",
        id="unknown-label-does-not-stop",
    ),
    pytest.param(b"<!-- <meta charset=koi8-r> -->", None, None, id="in-comment"),
    pytest.param(b'<div title="<meta charset=koi8-r>">', None, None, id="in-attribute"),
    pytest.param(b"<!doctype html><meta charset=koi8-r>", "KOI8-R", "koi8-r", id="after-doctype"),
    pytest.param(b"<?php ?><meta charset=koi8-r>", "KOI8-R", "koi8-r", id="after-pi"),
    pytest.param(b"</x foo='>'><meta charset=koi8-r>", "KOI8-R", "koi8-r", id="after-end-tag"),
    pytest.param(b"<meta charset=iso-2022-kr>", "replacement", "iso-2022-kr", id="replacement"),
    pytest.param(
        b'<?xml version="1.0" encoding="windows-1251"?><a/>',
        "windows-1251",
        "windows-1251",
        id="xml-declaration",
    ),
    pytest.param(
        b"<?xml version='1.0' encoding='utf-16'?><a/>", "UTF-8", "utf-16", id="xml-utf16-utf8"
    ),
    pytest.param(b" <?xml encoding='koi8-r'?>", None, None, id="xml-not-at-start"),
    pytest.param(b"<\x00?\x00x\x00m\x00l\x00", "UTF-16LE", None, id="xml-utf16le-bytes"),
    pytest.param(b"\x00<\x00?\x00x\x00m\x00l", "UTF-16BE", None, id="xml-utf16be-bytes"),
]


@pytest.mark.parametrize(("data", "encoding", "label"), PRESCAN_CASES)
def test_prescan_cases(data: bytes, encoding: str | None, label: str | None) -> None:
    result = prescan(data)
    assert result.encoding == encoding
    assert result.label == label


def _head(filler: bytes, meta: bytes = b'<meta charset="koi8-r">', tail: bytes = b"") -> bytes:
    return b"<html><head>" + filler + meta + tail


LATE = [
    pytest.param(_head(b"<!--" + b"x" * 3000 + b"-->"), "KOI8-R", id="after-long-comment"),
    pytest.param(
        _head(b"<script>var a = '<p>" + b"x" * 3000 + b"';</script>"),
        "KOI8-R",
        id="after-long-script",
    ),
    pytest.param(
        _head(b"<style>" + b"p{}" * 1000 + b"</style><title>t</title>"),
        "KOI8-R",
        id="after-style-and-title",
    ),
    pytest.param(_head(b"<link rel=x>" * 300), "KOI8-R", id="after-many-links"),
    # "Get an attribute" skips whitespace and "/" before the ">" that ends a tag: a
    # self-closing or spaced tag ends there, and its "/>" is not text.
    pytest.param(_head(b'<link rel="x"/>' * 100), "KOI8-R", id="after-self-closing-links"),
    pytest.param(_head(b"<LINK/>" * 300), "KOI8-R", id="after-self-closing-links-no-attribute"),
    pytest.param(_head(b'<link rel="x" >' * 100), "KOI8-R", id="after-links-space-before-gt"),
    pytest.param(_head(b"<base href=/ />" * 100), "KOI8-R", id="after-unquoted-self-closing"),
    pytest.param(_head(b'<link rel="x" / >' * 100), "KOI8-R", id="after-slash-space-gt"),
    pytest.param(_head(b"</title >" * 200), "KOI8-R", id="after-end-tags-space-before-gt"),
    pytest.param(_head(b"</head><body>" + b"x" * 2000), None, id="after-head-end"),
    pytest.param(_head(b"<p>" + b"x" * 2000), None, id="after-body-content"),
    # A start tag the head does not keep ends it, with no text after it ("in head": "anything
    # else" pops the head).
    pytest.param(_head(b'<img src="a.png">' * 200), None, id="after-body-start-tag"),
    pytest.param(_head(b"text " * 400), None, id="after-text"),
    pytest.param(_head(b" " * 70000), None, id="past-head-limit"),
]


@pytest.mark.parametrize(("data", "encoding"), LATE)
def test_late_meta_in_head(data: bytes, encoding: str | None) -> None:
    assert len(data) > 1024
    assert prescan(data).encoding == encoding


@pytest.mark.parametrize(
    ("content", "label"),
    [
        ("text/html; charset=utf-8", "utf-8"),
        ("text/html;CHARSET = 'koi8-r'", "koi8-r"),
        ('charset="big5', None),  # unmatched quote
        ("charset", None),
        ("charsetcharset=gbk", "gbk"),
        ("text/html; charset= euc-jp; foo", "euc-jp"),
        ("", None),
    ],
)
def test_extract_meta_charset(content: str, label: str | None) -> None:
    assert extract_meta_charset(content) == label


def test_get_xml_encoding_stops_at_declaration_end() -> None:
    assert get_xml_encoding(b'<?xml version="1.0"?><a encoding="koi8-r"/>') is None


def _tag_by_attributes(data: bytes) -> tuple[bytes, int]:
    """What ``_Prescan._tag`` gives from byte 1 of *data*, by "get an attribute" alone."""
    from scrapy_charset.sniffing.prescan import _LOWER, _skip_attributes, _tag_name_end

    name_end = _tag_name_end(data, 1, len(data))
    name = data[1:name_end].translate(_LOWER).rstrip(b"/")
    return name, _skip_attributes(data, name_end, len(data)) + 1


@pytest.mark.parametrize(
    "tag",
    [
        pytest.param(b"<head>", id="bare"),
        pytest.param(b"<BR/>", id="self-closing"),
        pytest.param(b'<html lang="bg">', id="one-attribute"),
        pytest.param(b'<link rel="stylesheet" href="/a.css">x', id="two-attributes"),
        pytest.param(b'<a\n\ttitle="x>y" data-x.y:z="">', id="gt-in-value"),
        pytest.param(b'<link rel="a" >', id="space-before-gt"),
        pytest.param(b'<link rel="a"/>', id="slash-before-gt"),
        pytest.param(b"<link rel='a'>", id="single-quotes"),
        pytest.param(b"<link rel=a>", id="unquoted"),
        pytest.param(b'<link rel = "a">', id="spaces-around-equals"),
        pytest.param(b'<link rel="a"href="b">', id="no-space-between"),
        pytest.param(b'<link =a="b">', id="name-starting-with-equals"),
        pytest.param(b'<link rel="a', id="unclosed-quote"),
        pytest.param(b'<link rel="a"', id="no-gt"),
        pytest.param(b"<link", id="name-only"),
        pytest.param(b'<p><meta charset="koi8-r">', id="meta-after"),
    ],
)
def test_simple_tag_shortcut_reads_as_get_an_attribute(tag: bytes) -> None:
    from scrapy_charset.sniffing.prescan import _Prescan

    assert _Prescan(tag, 1024)._tag(1) == _tag_by_attributes(tag)


def _at(offset: int, construct: bytes) -> bytes:
    """*construct* starting at byte *offset* of a document already in its body (so only
    the prescan of the first 1024 bytes can read it, not the late scan of the head)."""
    start = b"<html><body><p>"
    return start + b"x" * (offset - len(start)) + construct + b"<p>caf\xe9</p>"


@pytest.mark.parametrize(
    ("body", "encoding", "offset"),
    [
        # HTML Standard, prescan: a construct begun in the first 1024 bytes is read to its
        # end, however far past byte 1024 it goes.
        pytest.param(_at(1000, b'<meta charset="koi8-r">'), "KOI8-R", 1000, id="before"),
        pytest.param(_at(1010, b'<meta charset="koi8-r">'), "KOI8-R", 1010, id="spanning"),
        pytest.param(_at(1023, b'<meta charset="koi8-r">'), "KOI8-R", 1023, id="last-byte"),
        pytest.param(
            _at(1000, b'<meta name="x" content="' + b"y" * 40 + b'" charset="koi8-r">'),
            "KOI8-R",
            1000,
            id="attribute-past-1024",
        ),
        pytest.param(_at(1024, b'<meta charset="koi8-r">'), None, None, id="starts-at-1024"),
        pytest.param(
            _at(1020, b'<!-- <meta charset="koi8-r"> -->'), None, None, id="comment-spanning"
        ),
    ],
)
def test_meta_spanning_byte_1024(body: bytes, encoding: str | None, offset: int | None) -> None:
    result = prescan(body)
    assert (result.encoding, result.offset) == (encoding, offset)
