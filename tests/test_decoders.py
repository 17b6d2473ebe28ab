"""The decoders' error cases, the registered codecs' behaviour, and properties.

Each error case is the standard's output for a short input, written out by hand from the
decoder's steps (the step is named in the id) and checked against both the fast decoder and
the step-by-step reference (which the exhaustive tests then trust).
"""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset import decode
from scrapy_charset.whatwg.codecs import DECODERS, codec_name
from scrapy_charset.whatwg.labels import ENCODING_NAMES

R = "\ufffd"

# (id, encoding, input, the standard's output)
ERROR_CASES = [
    # https://encoding.spec.whatwg.org/#gb18030-decoder
    ("gb18030-0x80-is-euro", "gb18030", b"\x80", "\u20ac"),
    ("gbk-0x80-is-euro", "GBK", b"\x80", "\u20ac"),
    ("gb18030-0xff-error", "gb18030", b"\xff", R),
    ("gb18030-lead-at-eoq", "gb18030", b"a\x81", "a" + R),
    ("gb18030-two-of-four-at-eoq", "gb18030", b"\x81\x30", R),
    ("gb18030-three-of-four-at-eoq", "gb18030", b"\x81\x30\x81", R),
    ("gb18030-third-not-81-fe-prepends-two", "gb18030", b"\x81\x30\x41", R + "0A"),
    ("gb18030-fourth-not-30-39-prepends-three", "gb18030", b"\x81\x30\x81\x41", R + "0\u4e04"),
    ("gb18030-ascii-trail-prepended", "gb18030", b"\x81\x3c", R + "<"),
    ("gb18030-0x7f-trail-prepended", "gb18030", b"\x81\x7f", R + "\x7f"),
    ("gb18030-0xff-trail-consumed", "gb18030", b"\x81\xffa", R + "a"),
    ("gb18030-2022-a3a0-ideographic-space", "gb18030", b"\xa3\xa0", "\u3000"),
    ("gb18030-2022-a6d9-vertical-comma", "gb18030", b"\xa6\xd9", "\ufe10"),
    ("gb18030-2022-fe59", "gb18030", b"\xfe\x59", "\u9fb4"),
    ("gb18030-a8bc-is-u1e3f", "gb18030", b"\xa8\xbc", "\u1e3f"),
    ("gb18030-pointer-7457-is-ue7c7", "gb18030", b"\x81\x35\xf4\x37", "\ue7c7"),
    ("gb18030-swapped-pair-together", "gb18030", b"\xa8\xbc\x81\x35\xf4\x37", "\u1e3f\ue7c7"),
    ("gb18030-four-byte-first", "gb18030", b"\x81\x30\x81\x30", "\x80"),
    ("gb18030-four-byte-last-bmp", "gb18030", b"\x84\x31\xa4\x39", "\uffff"),
    ("gb18030-null-pointer-39420", "gb18030", b"\x84\x31\xa5\x30", R),
    ("gb18030-supplementary-first", "gb18030", b"\x90\x30\x81\x30", "\U00010000"),
    ("gb18030-supplementary-last", "gb18030", b"\xe3\x32\x9a\x35", "\U0010ffff"),
    ("gb18030-null-pointer-above-10ffff", "gb18030", b"\xe3\x32\x9a\x36", R),
    ("gb18030-null-pointer-fe39fe39", "gb18030", b"\xfe\x39\xfe\x39", R),
    # https://encoding.spec.whatwg.org/#big5-decoder
    ("big5-pointer-1133-two-code-points", "Big5", b"\x88\x62", "\u00ca\u0304"),
    ("big5-pointer-1135-two-code-points", "Big5", b"\x88\x64", "\u00ca\u030c"),
    ("big5-pointer-1164-two-code-points", "Big5", b"\x88\xa3", "\u00ea\u0304"),
    ("big5-pointer-1166-two-code-points", "Big5", b"\x88\xa5", "\u00ea\u030c"),
    ("big5-a3e1-euro", "Big5", b"\xa3\xe1", "\u20ac"),
    ("big5-a145-hyphenation-point", "Big5", b"\xa1\x45", "\u2027"),
    ("big5-a241-division-slash", "Big5", b"\xa2\x41", "\u2215"),
    ("big5-a241-beside-fullwidth-solidus", "Big5", b"\xa2\x41\xa1\xfe", "\u2215\uff0f"),
    ("big5-0x80-error", "Big5", b"\x80", R),
    ("big5-0xff-error", "Big5", b"\xff", R),
    ("big5-lead-at-eoq", "Big5", b"\xa4", R),
    ("big5-ascii-trail-prepended", "Big5", b"\xa4\x3c", R + "<"),
    ("big5-unmapped-non-ascii-trail-consumed", "Big5", b"\x81\x80a", R + "a"),
    ("big5-hkscs-lead-0x87", "Big5", b"\x87\x40", "\u43f0"),
    # https://encoding.spec.whatwg.org/#euc-jp-decoder
    ("euc-jp-a1c1-wave-dash-is-fullwidth-tilde", "EUC-JP", b"\xa1\xc1", "\uff5e"),
    ("euc-jp-8e-katakana", "EUC-JP", b"\x8e\xb1", "\uff71"),
    ("euc-jp-8e-e0-error-consumed", "EUC-JP", b"\x8e\xe0", R),
    ("euc-jp-8e-ascii-prepended", "EUC-JP", b"\x8e<", R + "<"),
    ("euc-jp-8f-jis0212", "EUC-JP", b"\x8f\xb0\xa1", "\u4e02"),
    ("euc-jp-8f-a2b7-tilde", "EUC-JP", b"\x8f\xa2\xb7", "\uff5e"),
    ("euc-jp-8f-a2b7-beside-ascii-tilde", "EUC-JP", b"~\x8f\xa2\xb7~", "~\uff5e~"),
    ("euc-jp-8f-unmapped-consumed", "EUC-JP", b"\x8f\xa1\xa1a", R + "a"),
    ("euc-jp-8f-ascii-third-prepended", "EUC-JP", b"\x8f\xb0<", R + "<"),
    ("euc-jp-8f-ascii-second-prepended", "EUC-JP", b"\x8f<", R + "<"),
    ("euc-jp-8f-two-at-eoq", "EUC-JP", b"\x8f\xb0", R),
    ("euc-jp-lead-at-eoq", "EUC-JP", b"\xb0", R),
    ("euc-jp-0xa0-error", "EUC-JP", b"\xa0", R),
    ("euc-jp-0xff-error", "EUC-JP", b"\xff", R),
    # https://encoding.spec.whatwg.org/#iso-2022-jp-decoder
    ("iso-2022-jp-ascii", "ISO-2022-JP", b"a~\\", "a~\\"),
    ("iso-2022-jp-so-si-errors", "ISO-2022-JP", b"\x0e\x0f", R + R),
    ("iso-2022-jp-high-byte-error", "ISO-2022-JP", b"\x80", R),
    ("iso-2022-jp-jis0208", "ISO-2022-JP", b"\x1b$B0!\x1b(B", "\u4e9c"),
    ("iso-2022-jp-jis-c-6226", "ISO-2022-JP", b"\x1b$@0!\x1b(B", "\u4e9c"),
    ("iso-2022-jp-roman", "ISO-2022-JP", b"\x1b(J\\~a", "\u00a5\u203ea"),
    ("iso-2022-jp-katakana", "ISO-2022-JP", b"\x1b(I1", "\uff71"),
    ("iso-2022-jp-katakana-ascii-error", "ISO-2022-JP", b"\x1b(Ia", R),
    ("iso-2022-jp-two-escapes-in-a-row", "ISO-2022-JP", b"\x1b$B\x1b(Ba", R + "a"),
    ("iso-2022-jp-escape-at-end-no-error", "ISO-2022-JP", b"a\x1b$B", "a"),
    ("iso-2022-jp-lone-esc-at-eoq", "ISO-2022-JP", b"a\x1b", "a" + R),
    ("iso-2022-jp-esc-paren-at-eoq", "ISO-2022-JP", b"\x1b(", R + "("),
    ("iso-2022-jp-unknown-escape-reprocessed", "ISO-2022-JP", b"\x1b(Z", R + "(Z"),
    ("iso-2022-jp-unknown-escape-start", "ISO-2022-JP", b"\x1bA", R + "A"),
    ("iso-2022-jp-unknown-escape-in-jis0208", "ISO-2022-JP", b"\x1b$B\x1b(Z0!", R + R + "\u4e9c"),
    ("iso-2022-jp-lead-at-esc", "ISO-2022-JP", b"\x1b$B0\x1b(Ba", R + "a"),
    ("iso-2022-jp-lead-at-eoq", "ISO-2022-JP", b"\x1b$B0", R),
    ("iso-2022-jp-bad-trail-consumed", "ISO-2022-JP", b"\x1b$B0\x0a!", R + R),
    ("iso-2022-jp-unmapped-pair", "ISO-2022-JP", b"\x1b$B\x22\x2f", R),
    ("iso-2022-jp-lf-in-jis0208-error", "ISO-2022-JP", b"\x1b$B\n", R),
    # https://encoding.spec.whatwg.org/#shift_jis-decoder
    ("shift_jis-0x80-is-u0080", "Shift_JIS", b"\x80", "\x80"),
    ("shift_jis-0xa0-error", "Shift_JIS", b"\xa0", R),
    ("shift_jis-0xfd-error", "Shift_JIS", b"\xfd", R),
    ("shift_jis-halfwidth-katakana", "Shift_JIS", b"\xb1", "\uff71"),
    ("shift_jis-8160-fullwidth-tilde", "Shift_JIS", b"\x81\x60", "\uff5e"),
    ("shift_jis-eudc-f040", "Shift_JIS", b"\xf0\x40", "\ue000"),
    ("shift_jis-ibm-fa40", "Shift_JIS", b"\xfa\x40", "\u2170"),
    ("shift_jis-lead-at-eoq", "Shift_JIS", b"\x81", R),
    ("shift_jis-ascii-trail-prepended", "Shift_JIS", b"\x81\x3c", R + "<"),
    ("shift_jis-0xfd-trail-consumed", "Shift_JIS", b"\x81\xfda", R + "a"),
    # https://encoding.spec.whatwg.org/#euc-kr-decoder
    ("euc-kr-hangul", "EUC-KR", b"\xb0\xa1", "\uac00"),
    ("euc-kr-uhc-extension", "EUC-KR", b"\x81\x41", "\uac02"),
    ("euc-kr-0x80-error", "EUC-KR", b"\x80", R),
    ("euc-kr-0xff-error", "EUC-KR", b"\xff", R),
    ("euc-kr-lead-at-eoq", "EUC-KR", b"\xb0", R),
    ("euc-kr-ascii-trail-prepended", "EUC-KR", b"\xb0\x3c", R + "<"),
    ("euc-kr-0x40-trail-prepended", "EUC-KR", b"\xb0\x40", R + "@"),
    ("euc-kr-0xff-trail-consumed", "EUC-KR", b"\xb0\xffa", R + "a"),
    # https://encoding.spec.whatwg.org/#shared-utf-16-decoder
    ("utf-16le-pair", "UTF-16LE", b"\x3d\xd8\x00\xde", "\U0001f600"),
    ("utf-16le-lone-lead", "UTF-16LE", b"\x3d\xd8a\x00", R + "a"),
    ("utf-16le-lone-trail", "UTF-16LE", b"\x00\xdea\x00", R + "a"),
    ("utf-16le-lead-lead-trail", "UTF-16LE", b"\x3d\xd8\x3d\xd8\x00\xde", R + "\U0001f600"),
    ("utf-16le-odd-byte", "UTF-16LE", b"a\x00b", "a" + R),
    ("utf-16le-lead-then-odd-byte-one-error", "UTF-16LE", b"\x3d\xd8b", R),
    ("utf-16le-lead-at-eoq", "UTF-16LE", b"a\x00\x3d\xd8", "a" + R),
    ("utf-16be-lone-lead", "UTF-16BE", b"\xd8\x3d\x00a", R + "a"),
    ("utf-16be-odd-byte", "UTF-16BE", b"\x00a\x00", "a" + R),
    # https://encoding.spec.whatwg.org/#replacement-decoder
    ("replacement-empty", "replacement", b"", ""),
    ("replacement-one-error", "replacement", b"<html>\xff\x00", R),
    # https://encoding.spec.whatwg.org/#x-user-defined-decoder
    ("x-user-defined-high", "x-user-defined", b"a\x80\xff", "a\uf780\uf7ff"),
    # https://encoding.spec.whatwg.org/#single-byte-decoder
    ("windows-1252-0x81-is-c1", "windows-1252", b"\x81\x8d\x8f\x90\x9d", "\x81\x8d\x8f\x90\x9d"),
    ("windows-1253-0xaa-unmapped", "windows-1253", b"\xaa", R),
    ("koi8-u-0xae", "KOI8-U", b"\xae\xbe", "\u045e\u040e"),
    ("iso-8859-8-i-same-as-8", "ISO-8859-8-I", b"\xe0\xfd", "\u05d0\u200e"),
    ("x-mac-cyrillic-0xff", "x-mac-cyrillic", b"\xff", "\u20ac"),
]


@pytest.mark.parametrize(
    ("encoding", "body", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in ERROR_CASES],
)
def test_error_cases(encoding: str, body: bytes, expected: str) -> None:
    from tests.whatwg_reference import reference_decode

    assert reference_decode(body, encoding) == expected
    assert body.decode(codec_name(encoding)) == expected


# Malformed UTF-8 seen in the field: one U+FFFD per maximal subpart.
# https://encoding.spec.whatwg.org/#utf-8-decoder and Unicode 15, section 3.9 (U+FFFD
# substitution of maximal subparts), which browsers follow.
UTF8_CASES = [
    ("truncated-two-byte", b"a\xc3", "a" + R),
    ("truncated-three-byte", b"a\xe2\x82", "a" + R),
    ("truncated-four-byte", b"a\xf0\x9f\x98", "a" + R),
    ("truncated-then-ascii", b"\xe2\x82a", R + "a"),
    ("truncated-then-lead", b"\xf0\x9f\xc3\xa9", R + "\u00e9"),
    ("stray-continuation", b"a\x80b", "a" + R + "b"),
    ("stray-continuations", b"\x80\xbf\x80", R * 3),
    ("overlong-c0-slash", b"\xc0\xaf", R * 2),
    ("overlong-c1", b"\xc1\xbf", R * 2),
    ("overlong-e0-80", b"\xe0\x80\xaf", R * 3),
    ("overlong-f0-80", b"\xf0\x80\x80\xaf", R * 4),
    ("surrogate-ed-a0-80", b"\xed\xa0\x80", R * 3),
    ("cesu-8-pair", b"\xed\xa0\xbd\xed\xb8\x80", R * 6),
    ("modified-utf-8-nul", b"a\xc0\x80b", "a" + R * 2 + "b"),
    ("f4-90-above-10ffff", b"\xf4\x90\x80\x80", R * 4),
    ("f5", b"\xf5\x80\x80\x80", R * 4),
    ("ff", b"\xff", R),
    ("fe-ff", b"a\xfe\xff", "a" + R * 2),
    ("five-byte-form", b"\xf8\x88\x80\x80\x80", R * 5),
    ("six-byte-form", b"\xfc\x84\x80\x80\x80\x80", R * 6),
    ("valid-max", b"\xf4\x8f\xbf\xbf", "\U0010ffff"),
    ("e0-a0-then-ascii", b"\xe0\xa0a", R + "a"),
    ("latin-1-in-utf-8", "café".encode("latin-1"), "caf" + R),
    ("double-encoded-stays-mojibake", "é".encode().decode("latin-1").encode(), "\u00c3\u00a9"),
]


@pytest.mark.parametrize(("body", "expected"), [pytest.param(*c[1:], id=c[0]) for c in UTF8_CASES])
def test_malformed_utf8(body: bytes, expected: str) -> None:
    assert body.decode(codec_name("UTF-8")) == expected
    assert decode(body, "utf-8") == expected


@pytest.mark.parametrize(("body", "expected"), [pytest.param(*c[1:], id=c[0]) for c in UTF8_CASES])
def test_malformed_utf8_reference(body: bytes, expected: str) -> None:
    from tests.whatwg_reference import reference_decode

    assert reference_decode(body, "UTF-8") == expected


# -- the registered codecs ------------------------------------------------------------


@pytest.mark.parametrize(
    "errors", ["strict", "replace", "ignore", "surrogateescape", "backslashreplace"]
)
@pytest.mark.parametrize(
    "encoding", ["UTF-8", "windows-1252", "Shift_JIS", "UTF-16LE", "ISO-2022-JP"]
)
def test_errors_argument_does_not_change_the_output(encoding: str, errors: str) -> None:
    body = b"\x81\xff\x00\xd8a\x1b\xe0"
    assert body.decode(codec_name(encoding), errors) == DECODERS[encoding](body)


@pytest.mark.parametrize("encoding", ENCODING_NAMES)
def test_codec_name_survives_w3lib_and_scrapy(encoding: str) -> None:
    """Scrapy resolves the response encoding with w3lib's resolve_encoding (codecs.lookup)."""
    from w3lib.encoding import resolve_encoding

    name = codec_name(encoding)
    assert codecs.lookup(name).name == name
    assert codecs.lookup(name.upper().replace("-", "_")).name == name
    assert resolve_encoding(name) == name


# Text per encoding for round trips (a sentence each encoding can represent).
SAMPLES = {
    "UTF-8": "Grüße, мир, 世界 😀",
    "IBM866": "Привет, мир",
    "ISO-8859-2": "Zażółć gęślą jaźń",
    "ISO-8859-3": "Ħ ġ ċ",
    "ISO-8859-4": "Ā ē ī ū",
    "ISO-8859-5": "Привет, мир",
    "ISO-8859-6": "مرحبا بالعالم",
    "ISO-8859-7": "Καλημέρα κόσμε",
    "ISO-8859-8": "שלום עולם",
    "ISO-8859-8-I": "שלום עולם",
    "ISO-8859-10": "Ŋ ŧ ŋ",
    "ISO-8859-13": "Ą ę ų",
    "ISO-8859-14": "Ŵ ŷ ẁ",
    "ISO-8859-15": "€ œ Ÿ",
    "ISO-8859-16": "Ș ț €",
    "KOI8-R": "Привет, мир",
    "KOI8-U": "Привіт, світ",
    "macintosh": "Café ™",
    "windows-874": "สวัสดีชาวโลก",
    "windows-1250": "Zażółć gęślą jaźń",
    "windows-1251": "Привет, мир",
    "windows-1252": "Café “quoted” €",
    "windows-1253": "Καλημέρα κόσμε",
    "windows-1254": "Merhaba dünya ğş",
    "windows-1255": "שלום עולם",
    "windows-1256": "مرحبا بالعالم",
    "windows-1257": "Labdien, pasaule ų",
    "windows-1258": "Xin chào",
    "x-mac-cyrillic": "Привет, мир",
    "GBK": "你好, 世界 €",
    "gb18030": "你好, 世界 😀",
    "Big5": "你好, 世界",
    "EUC-JP": "こんにちは世界",
    "ISO-2022-JP": "こんにちは世界",
    "Shift_JIS": "こんにちは世界",
    "EUC-KR": "안녕하세요 세계",
    "replacement": "",
    "UTF-16BE": "Grüße 😀",
    "UTF-16LE": "Grüße 😀",
    "x-user-defined": "abc\uf780\uf7ff",
}


@pytest.mark.parametrize("encoding", ENCODING_NAMES)
def test_encode_round_trips_through_scrapy(encoding: str) -> None:
    """``TextResponse(body=str, encoding=...)`` encodes with the codec's encoder."""
    from scrapy.http import HtmlResponse

    text = SAMPLES[encoding]
    response = HtmlResponse("https://example.com/", body=text, encoding=codec_name(encoding))
    assert response.text == text
    assert response.body.decode(codec_name(encoding)) == text


@pytest.mark.parametrize(
    ("encoding", "text", "errors", "expected"),
    [
        pytest.param("EUC-JP", "a\uff5e", "strict", b"a\xa1\xc1", id="euc-jp-fullwidth-tilde"),
        pytest.param(
            "Big5", "\uff0f\u2215", "strict", b"\xa1\xfe\xa2\x41", id="big5-solidus-and-slash"
        ),
        pytest.param("Big5", "€", "strict", b"\xa3\xe1", id="big5-euro"),
        pytest.param(
            "gb18030", "ḿ\ue7c7", "strict", b"\xa8\xbc\x81\x35\xf4\x37", id="gb18030-swap"
        ),
        pytest.param("GBK", "\u3000\ue5e5", "replace", b"\xa1\xa1?", id="gbk-ue5e5-unencodable"),
        pytest.param(
            "Big5", "a¥b¥", "xmlcharrefreplace", b"a&#165;b&#165;", id="big5-yen-not-in-index"
        ),
        pytest.param("Shift_JIS", "\uf8f0", "replace", b"?", id="shift_jis-pua-f8f0-not-in-index"),
        pytest.param("EUC-KR", "\U0010ffff", "replace", b"?", id="euc-kr-not-encodable"),
    ],
)
def test_cjk_encoders_encode_what_the_decoders_decode(
    encoding: str, text: str, errors: str, expected: bytes
) -> None:
    assert text.encode(codec_name(encoding), errors) == expected


def test_cjk_encoder_strict_raises_for_what_the_index_lacks() -> None:
    with pytest.raises(UnicodeEncodeError):
        "¥".encode(codec_name("Big5"))


def test_replacement_encodes_as_utf8() -> None:
    assert "é".encode(codec_name("replacement")) == b"\xc3\xa9"
    assert b"\xc3\xa9".decode(codec_name("replacement")) == R


@pytest.mark.parametrize(
    ("encoding", "body", "expected"),
    [
        pytest.param("UTF-8", b"\xef\xbb\xbfa", "a", id="utf-8-removes-its-bom"),
        pytest.param("UTF-8", b"\xef\xbb\xbf\xef\xbb\xbf", "\ufeff", id="utf-8-removes-one-bom"),
        pytest.param("UTF-16LE", b"\xff\xfea\x00", "a", id="utf-16le-removes-its-bom"),
        pytest.param("UTF-16BE", b"\xfe\xff\x00a", "a", id="utf-16be-removes-its-bom"),
        pytest.param("UTF-16LE", b"\xfe\xff", "\ufffe", id="utf-16le-keeps-the-be-bom"),
        pytest.param("windows-1252", b"\xef\xbb\xbfa", "ï»¿a", id="windows-1252-no-bom"),
    ],
)
def test_codec_bom(encoding: str, body: bytes, expected: str) -> None:
    """A codec removes its own encoding's BOM only; it never switches encoding."""
    assert body.decode(codec_name(encoding)) == expected


@pytest.mark.parametrize(
    ("label", "body", "expected"),
    [
        pytest.param("windows-1252", b"\xef\xbb\xbfa\xc3\xa9", "aé", id="utf-8-bom-wins"),
        pytest.param("utf-8", b"\xff\xfea\x00", "a", id="utf-16le-bom-wins"),
        pytest.param("shift_jis", b"\xfe\xff\x00a", "a", id="utf-16be-bom-wins"),
        pytest.param("latin1", b"\x80", "\u20ac", id="no-bom-label"),
    ],
)
def test_decode_hook_sniffs_the_bom(label: str, body: bytes, expected: str) -> None:
    """https://encoding.spec.whatwg.org/#decode: the BOM wins over the encoding."""
    assert decode(body, label) == expected


def test_decode_hook_refuses_unknown_labels() -> None:
    with pytest.raises(LookupError):
        decode(b"a", "utf-7")


@pytest.mark.parametrize("encoding", ENCODING_NAMES)
def test_incremental_decoder_byte_by_byte(encoding: str) -> None:
    from tests.whatwg_reference import reference_decode

    body = b"a\xef\xbb\xbf\x81\x30\x81\x30\x1b$B0!\xd8\x3d\xde\x00\x8f\xb0\xa1\xe0"
    decoder = codecs.getincrementaldecoder(codec_name(encoding))()
    text = "".join(decoder.decode(body[i : i + 1]) for i in range(len(body)))
    text += decoder.decode(b"", final=True)
    assert text == reference_decode(body, encoding)


@pytest.mark.parametrize("encoding", ["UTF-8", "UTF-16LE", "UTF-16BE"])
def test_incremental_decoder_removes_a_split_bom(encoding: str) -> None:
    bom = {"UTF-8": codecs.BOM_UTF8, "UTF-16LE": codecs.BOM_UTF16_LE}.get(
        encoding, codecs.BOM_UTF16_BE
    )
    body = bom + "ab".encode(encoding.lower())
    decoder = codecs.getincrementaldecoder(codec_name(encoding))()
    text = "".join(decoder.decode(body[i : i + 1]) for i in range(len(body)))
    assert text + decoder.decode(b"", final=True) == "ab"


# -- properties -----------------------------------------------------------------------

# Bytes biased towards the structure of the multi-byte encodings.
STRUCTURED = st.lists(
    st.one_of(
        st.binary(max_size=4),
        st.sampled_from(
            [
                b"\x1b$B",
                b"\x1b(B",
                b"\x1b(J",
                b"\x1b(I",
                b"\x1b",
                b"\x8f",
                b"\x8e",
                b"\x80",
                b"\x810",
                b"0",
                b"\xa1",
                b"\xd8",
                b"\xdc",
                b"\xed\xa0",
                b"\xf4\x8f",
            ]
        ),
    ),
    max_size=20,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(body=STRUCTURED)
def test_every_decoder_output_is_valid_unicode(body: bytes) -> None:
    for encoding in ENCODING_NAMES:
        text = body.decode(codec_name(encoding))
        text.encode("utf-8")  # no lone surrogates


@settings(max_examples=300, deadline=None)
@given(body=STRUCTURED)
def test_every_decoder_matches_the_reference(body: bytes) -> None:
    from tests.whatwg_reference import reference_decode

    for encoding in ENCODING_NAMES:
        # The decoder itself: the codecs also remove their own BOM (tested above).
        assert DECODERS[encoding](body) == reference_decode(body, encoding), encoding


@pytest.mark.parametrize("encoding", ENCODING_NAMES)
@pytest.mark.parametrize(
    "wrap",
    [bytearray, memoryview, lambda b: memoryview(b"xx" + b)[2:]],
    ids=["bytearray", "memoryview", "memoryview-slice"],
)
def test_codecs_take_any_buffer(encoding: str, wrap: object) -> None:
    assert callable(wrap)
    body = b"\xef\xbb\xbfa\x81\x30\x81\x30\x1b$B0!\xd8\x3d\xde\x00\xe0"
    expected = body.decode(codec_name(encoding))
    assert codecs.decode(wrap(body), codec_name(encoding)) == expected


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\xff\xfe\x3d\xd8a\x00", id="utf-16le-bom-lone-surrogate"),
        pytest.param(b"\xfe\xff\xd8\x3d\xd8\x3d\xde\x00", id="utf-16be-bom-lead-lead-trail"),
        pytest.param(b"\xef\xbb\xbf\xc0\xaf", id="utf-8-bom-overlong"),
        pytest.param(
            b"\xff\xfe\x00\x00a\x00",
            id="utf-16le-bom-then-nul",
            marks=pytest.mark.xfail(
                strict=True,
                reason="w3lib reads FF FE 00 00 as a UTF-32LE BOM before any codec sees the "
                "body; browsers read the UTF-16LE BOM and a NUL. CharsetMiddleware hands "
                ".text over in this case.",
            ),
        ),
    ],
)
def test_scrapy_text_with_a_bom_is_the_decode_hook(body: bytes) -> None:
    """With a BOM, Scrapy decodes with Python's codec (w3lib): the same as "decode"."""
    from scrapy.http import HtmlResponse

    response = HtmlResponse("https://example.com/", body=body, encoding=codec_name("windows-1252"))
    assert response.text == decode(body, "windows-1252")
