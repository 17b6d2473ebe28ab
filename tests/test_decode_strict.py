"""decode_strict: the standard's decoders with the error mode "fatal"
(https://encoding.spec.whatwg.org/#concept-encoding-process)."""

from __future__ import annotations

import pytest

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
