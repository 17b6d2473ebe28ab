"""decode_strict: the standard's decoders with the error mode "fatal"
(https://encoding.spec.whatwg.org/#concept-encoding-process)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.whatwg.codecs import DECODERS
from scrapy_charset.whatwg.strict import decode_strict


@pytest.mark.parametrize(
    ("body", "encoding", "text"),
    [
        pytest.param(b"caf\xc3\xa9", "utf-8", "café", id="utf-8"),
        pytest.param(b"caf\xc3", "utf-8", None, id="utf-8-truncated-sequence"),
        pytest.param(b"\xef\xbf\xbd", "utf-8", "\ufffd", id="utf-8-genuine-fffd"),
        pytest.param(b"\x81", "windows-1252", "\x81", id="windows-1252-keeps-c1-0x81"),
        pytest.param(b"\x98", "windows-1251", "\x98", id="windows-1251-0x98-is-u0098"),
        pytest.param(b"\xa1", "iso-8859-8", None, id="iso-8859-8-unmapped-byte"),
        pytest.param(b"\xd6\xd0\xb9\xfa", "gbk", "中国", id="gbk-is-gb18030"),
        pytest.param(b"\x84\x31\xa4\x37", "gb18030", "\ufffd", id="gb18030-genuine-fffd"),
        pytest.param(b"\xa4\xa4\xb5\xd8", "big5", "中華", id="big5"),
        pytest.param(b"\xff", "shift_jis", None, id="shift_jis-invalid-byte"),
        pytest.param(b"\x00a", "utf-16be", "a", id="utf-16be"),
        pytest.param(b"\x00\xd8", "utf-16le", None, id="utf-16le-lone-surrogate"),
        pytest.param(b"", "replacement", "", id="replacement-empty"),
        pytest.param(b"x", "replacement", None, id="replacement-reports-an-error"),
    ],
)
def test_decode_strict(body: bytes, encoding: str, text: str | None) -> None:
    assert decode_strict(body, encoding) == text


def test_unknown_label() -> None:
    with pytest.raises(LookupError):
        decode_strict(b"", "utf-7")


# --- The CJK decoders stop at the first error: the same answer as a whole decode ---------

CJK = ("gb18030", "GBK", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR")


def _whole_decode(body: bytes, name: str) -> str | None:
    """The fatal mode read off the replacement mode's whole output: None when it holds a
    U+FFFD that the bytes do not encode."""
    text = DECODERS[name](body)
    genuine = body.count(b"\x84\x31\xa4\x37") if name in ("gb18030", "GBK") else 0
    return text if text.count("\ufffd") == genuine else None


#: Bytes that CJK encodings are made of: leads, trails, gb18030's four-byte parts, and the
#: bytes of U+FFFD in gb18030.
_CJK_BYTES = st.sampled_from(
    [0x20, 0x30, 0x31, 0x37, 0x39, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0x84, 0x8E, 0x8F, 0xA1, 0xA4,
     0xC8, 0xFE, 0xFF]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.binary(max_size=40), st.lists(_CJK_BYTES, max_size=40).map(bytes)),
    st.sampled_from(CJK),
)
def test_cjk_fatal_is_the_whole_decodes_answer(body: bytes, name: str) -> None:
    assert decode_strict(body, name) == _whole_decode(body, name)


@pytest.mark.parametrize(
    ("body", "name", "text"),
    [
        # A lead byte then a space: the error, and the decode stops there.
        pytest.param("déjà vu".encode("cp1252"), "GBK", None, id="gbk-lead-then-space"),
        pytest.param("déjà vu".encode("cp1252"), "Shift_JIS", None, id="sjis-lead-then-space"),
        # An error the C codec meets but the standard decodes (Big5's HKSCS pairs).
        pytest.param(b"\x87\x40", "Big5", "䏰", id="big5-hkscs-pair-c-codec-lacks"),
        pytest.param(b"a\x84\x31\xa4\x37b", "gb18030", "a\ufffdb", id="gb18030-fffd-inside"),
    ],
)
def test_cjk_fatal_cases(body: bytes, name: str, text: str | None) -> None:
    assert decode_strict(body, name) == text
