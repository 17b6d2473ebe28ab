"""The names lxml reads as browsers do: the measured table (scripts/generate_lxml_names.py)
is what the installed lxml gives, and a body that holds a sequence lxml reads otherwise
keeps the ``whatwg-*`` codec, which lxml refuses."""

from __future__ import annotations

import lxml.etree
import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.whatwg import _lxml_names, libxml2
from scrapy_charset.whatwg.codecs import (
    DECODERS,
    STANDARD_NAMES,
    private_codec_name,
    response_codec,
)
from tests.spec import PACKAGE, REPO, script


def test_the_installed_lxml_is_the_one_measured() -> None:
    """The fast check: the installed lxml and its libxml2 are those the table was measured
    with (the ``test`` extra pins lxml), so the fingerprint, a read of every sequence
    through both parsers (the slow check below), stands. Another lxml is measured here."""
    generator = script("generate_lxml_names")
    recorded = {
        "LXML_VERSION": _lxml_names.LXML_VERSION,
        "LIBXML_VERSION": _lxml_names.LIBXML_VERSION,
    }
    if generator.versions() != recorded:
        _check_fingerprint()


# The two slow checks share one measure (cached in the generator): one process.
@pytest.mark.slow
@pytest.mark.xdist_group("lxml-measure")
def test_fingerprint_is_the_installed_lxmls() -> None:
    """What lxml reads for every sequence under the kept names is what it read when the
    table was made: another lxml (another libxml2 or libiconv) needs a new table."""
    _check_fingerprint()


def _check_fingerprint() -> None:
    generator = script("generate_lxml_names")
    found = generator.fingerprint(_lxml_names.NAMES)
    assert found == _lxml_names.FINGERPRINT, (
        f"lxml {generator.versions()} reads the encodings otherwise than lxml "
        f"{_lxml_names.LXML_VERSION} (libxml2 {_lxml_names.LIBXML_VERSION}) did: regenerate "
        "scrapy_charset/whatwg/_lxml_names.py with scripts/generate_lxml_names.py"
    )


@pytest.mark.slow
@pytest.mark.xdist_group("lxml-measure")
def test_generated_module_is_current() -> None:
    """The module is what the script makes of the installed lxml (versions aside)."""
    generator = script("generate_lxml_names")
    text = (PACKAGE / "whatwg" / "_lxml_names.py").read_text("utf-8")
    assert generator.comparable(text) == generator.comparable(generator.generate())


@pytest.mark.parametrize(
    ("recorded", "same"),
    [
        pytest.param('LXML_VERSION = "5.3.0"\nFINGERPRINT = "ab"\n', True, id="version"),
        pytest.param('LXML_VERSION = "6.2.0"\nFINGERPRINT = "cd"\n', False, id="fingerprint"),
    ],
)
def test_check_ignores_only_the_versions(recorded: str, same: bool) -> None:
    comparable = script("generate_lxml_names").comparable
    generated = 'LXML_VERSION = "6.2.0"\nFINGERPRINT = "ab"\n'
    assert (comparable(recorded) == comparable(generated)) is same


def test_the_standard_names_are_the_best_measured() -> None:
    """No other spelling of the same Python codec is read better by lxml."""
    assert _lxml_names.NAMES == STANDARD_NAMES


@pytest.mark.parametrize(
    ("encoding", "sequences"),
    [
        # libiconv's CP932: 〜 ‖ − ¢ £ ¬ where browsers read ～ ∥ － ￠ ￡ ￢; 0x80 dropped.
        pytest.param(
            "Shift_JIS",
            {b"\x80", b"\x81\x60", b"\x81\x61", b"\x81\x7c", b"\x81\x91", b"\x81\x92", b"\x81\xca"},
            id="shift_jis",
        ),
        pytest.param("Big5", {b"\xa3\xe1"}, id="big5-euro"),
        pytest.param("GBK", {b"\x80", b"\xa3\xa0", b"\xfe\x51"}, id="gbk"),
        pytest.param("EUC-JP", {b"\xa1\xc1", b"\xa2\xcc"}, id="euc-jp"),
        pytest.param("ISO-2022-JP", {b"\x1b$B!A\x1b(B"}, id="iso-2022-jp"),
        pytest.param("macintosh", {b"\xbd", b"\xdb", b"\xf0"}, id="macintosh"),
        pytest.param("x-mac-cyrillic", {b"\xa2", b"\xb6", b"\xff"}, id="mac-cyrillic"),
        pytest.param("KOI8-U", {b"\xae", b"\xbe"}, id="koi8-u"),
        pytest.param("windows-1258", {b"a\xcc"}, id="1258-composed"),
        pytest.param("windows-1255", {b"\xe0\xc8"}, id="1255-composed"),
    ],
)
def test_measured_differences(encoding: str, sequences: set[bytes]) -> None:
    """Differences known from the issue and from libiconv's tables are among those
    measured."""
    assert sequences <= set(_lxml_names.DIFFERING[encoding])


@pytest.mark.parametrize(
    "encoding",
    [pytest.param(name, id=name) for name in ("EUC-KR", "UTF-8", "UTF-16BE", "UTF-16LE")],
)
def test_encodings_lxml_reads_as_browsers(encoding: str) -> None:
    assert _lxml_names.DIFFERING[encoding] == ()


SJIS = "Shift_JIS"


@pytest.mark.parametrize(
    ("encoding", "body", "standard"),
    [
        pytest.param(SJIS, "日本語 9時18時".encode("cp932"), True, id="sjis-plain"),
        pytest.param(SJIS, "9時～18時".encode("cp932"), False, id="sjis-81-60"),
        pytest.param(SJIS, "a∥b".encode("cp932"), False, id="sjis-81-61"),
        pytest.param(SJIS, "－".encode("cp932"), False, id="sjis-81-7c"),
        pytest.param(SJIS, "￠".encode("cp932"), False, id="sjis-81-91"),
        pytest.param(SJIS, "￡".encode("cp932"), False, id="sjis-81-92"),
        pytest.param(SJIS, "￢".encode("cp932"), False, id="sjis-81-ca"),
        pytest.param(SJIS, b"a\x80b", False, id="sjis-0x80"),
        # U+FFE2 from the NEC-selected IBM row reads alike in libiconv; 81 60 is 堰's
        # trail byte and a backquote, not a character: the aligned pass says so.
        pytest.param(SJIS, "堰`".encode("cp932") + b"\xfa\x54", True, id="sjis-straddling"),
        # 0x80 as a trail byte: ム is 83 80.
        pytest.param(SJIS, "ム".encode("cp932"), True, id="sjis-0x80-trail"),
        pytest.param("Big5", "中文".encode("big5"), True, id="big5"),
        pytest.param("Big5", "5€".encode(private_codec_name("Big5")), False, id="big5-euro"),
        pytest.param("EUC-JP", "日本語".encode("euc_jp"), True, id="euc-jp"),
        pytest.param("GBK", "中文".encode("gbk"), True, id="gbk"),
        pytest.param(
            "gb18030", "\ue816".encode(private_codec_name("gb18030")), False, id="gb-fe51"
        ),
        pytest.param("EUC-KR", "한국어".encode("cp949"), True, id="euc-kr"),
        pytest.param("macintosh", "café".encode("mac_roman"), True, id="mac"),
        pytest.param("macintosh", "Ω".encode("mac_roman"), False, id="mac-omega"),
        pytest.param("windows-1258", "Vie\u0323t".encode("cp1258"), False, id="1258"),
    ],
)
def test_standard_name_only_where_lxml_reads_the_body(
    encoding: str, body: bytes, standard: bool
) -> None:
    codec, _ = response_codec(body, encoding)
    assert codec == (STANDARD_NAMES[encoding] if standard else private_codec_name(encoding))
    _assert_lxml_reads_or_refuses(body, encoding, codec)


def _assert_lxml_reads_or_refuses(body: bytes, encoding: str, codec: str) -> None:
    """lxml's XML and HTML parsers given *codec* read *body* as the browser does, or
    refuse the name."""
    expected = DECODERS[encoding](body)
    document = b"<r>" + body + b"</r>"
    if codec == private_codec_name(encoding):
        with pytest.raises(LookupError):
            lxml.etree.XMLParser(encoding=codec)
        with pytest.raises(LookupError):
            lxml.html.HTMLParser(encoding=codec)
        return
    xml = lxml.etree.fromstring(document, lxml.etree.XMLParser(encoding=codec))
    assert (xml.text or "") == expected
    html = lxml.html.fromstring(document, parser=lxml.html.HTMLParser(encoding=codec))
    assert html.text_content() == expected


#: Characters of each multi-byte encoding to build bodies from: those of the sequences
#: lxml reads otherwise, their look-alikes and a few common ones.
_MULTI_BYTE = ("Shift_JIS", "EUC-JP", "Big5", "GBK", "gb18030", "EUC-KR")


def _pieces(encoding: str) -> list[bytes]:
    differing = list(_lxml_names.DIFFERING[encoding])[:64]
    common = "日本語中文한국 ～〜∥‖－−￠¢￡£￢¬€ a`".encode(private_codec_name(encoding), "ignore")
    return [
        *differing,
        *(bytes((byte,)) for byte in b" a`0"),
        common,
        "堰".encode("cp932", "ignore"),
        b"\xfa\x54",
    ]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), encoding=st.sampled_from(_MULTI_BYTE))
def test_a_standard_name_is_read_by_lxml_as_by_browsers(data: st.DataObject, encoding: str) -> None:
    """Whatever the mix of sequences: a body given the standard name reads in lxml as in
    the browser, and one lxml would read otherwise gets the whatwg-* codec."""
    body = b"".join(data.draw(st.lists(st.sampled_from(_pieces(encoding)), max_size=12)))
    codec, _ = response_codec(body, encoding)
    if "\ufffd" in DECODERS[encoding](body) and codec == private_codec_name(encoding):
        return  # an error: Python's strict codec refuses it already
    _assert_lxml_reads_or_refuses(body, encoding, codec)


@pytest.mark.parametrize(
    "encoding", [pytest.param(name, id=name) for name, seqs in libxml2.DIFFERING.items() if seqs]
)
def test_every_measured_sequence_keeps_the_whatwg_codec(encoding: str) -> None:
    """Each sequence lxml reads otherwise, between ASCII letters, gives the body the
    whatwg-* codec."""
    for sequence in libxml2.DIFFERING[encoding]:
        body = b"a" + sequence + b"b"
        assert response_codec(body, encoding)[0] == private_codec_name(encoding), sequence


def _docs_counts() -> dict[str, int]:
    """docs/compatibility.md's "What lxml reads" table: encoding -> sequences it gives."""
    text = (REPO / "docs" / "compatibility.md").read_text("utf-8")
    section = text.split("## What lxml reads", 1)[1].split("\n## ", 1)[0]
    counts: dict[str, int] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) != 3 or not cells[1].isdigit():
            continue
        for name in cells[0].split(", "):
            if name == "ISO-8859-2 to -16":
                counts.update(
                    (encoding, int(cells[1]))
                    for encoding in STANDARD_NAMES
                    if encoding.startswith("ISO-8859-")
                )
            else:
                counts[name] = int(cells[1])
    return counts


def test_docs_table_is_the_measured_one() -> None:
    """The counts docs/compatibility.md gives per encoding are the generated table's."""
    measured = {name: len(sequences) for name, sequences in _lxml_names.DIFFERING.items()}
    assert _docs_counts() == measured


_PER_BYTE = pytest.mark.xfail(
    strict=True,
    reason="lxml's HTML parser reads a truncated UTF-8 sequence as one U+FFFD per byte; "
    "browsers put one per maximal subpart (docs/compatibility.md, What still differs)",
)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("日本".encode(), id="valid"),
        pytest.param(b"a\xffb", id="invalid-byte"),
        pytest.param(b"a\xed\xa0\x80b", id="surrogate"),
        pytest.param(b"a\xe6\x97b", id="truncated", marks=_PER_BYTE),
        pytest.param(b"a\xf0\x9f\x98", id="truncated-at-end", marks=_PER_BYTE),
    ],
)
def test_lxml_html_reads_utf8_as_browsers(body: bytes) -> None:
    """Every UTF-8 body keeps ``utf-8``; lxml's HTML parser reads it as browsers do but for
    a truncated sequence."""
    assert response_codec(body, "UTF-8")[0] == "utf-8"
    root = lxml.html.fromstring(
        b"<p>" + body + b"</p>", parser=lxml.html.HTMLParser(encoding="utf-8")
    )
    assert root.text_content() == DECODERS["UTF-8"](body)


#: What docs/compatibility.md says lxml reads otherwise where Python's codec reads as
#: browsers do: the sequences new to the choice of the name.
NEW_TO_THE_CHOICE = {
    "macintosh": 3,
    "x-mac-cyrillic": 3,
    "windows-1255": 32,
    "windows-1258": 196,
    "GBK": 6,
    "gb18030": 6,
    "Big5": 7,
    "Shift_JIS": 7,
}


@pytest.mark.parametrize(
    "encoding", [pytest.param(name, id=name) for name, seqs in libxml2.DIFFERING.items() if seqs]
)
def test_sequences_new_to_the_choice(encoding: str) -> None:
    """The counts the docs give of the sequences lxml reads otherwise and Python right."""
    found = [seq for seq in libxml2.DIFFERING[encoding] if libxml2._python_reads(encoding, seq)]
    assert len(found) == NEW_TO_THE_CHOICE.get(encoding, 0)
