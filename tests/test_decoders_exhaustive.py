"""Exhaustive conformance of the decoders against the Encoding Standard's indexes.

Every pointer of every index decodes to its code point, and every lead/trail combination
decodes as the standard's decoder does (errors included), through the registered codecs
and through Scrapy (``HtmlResponse(encoding=...).text``). Whole inputs are compared at once
(one test per index or per encoding), so a failure names the first differing position.

https://encoding.spec.whatwg.org/#indexes
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scrapy_charset.whatwg.codecs import codec_name
from scrapy_charset.whatwg.labels import ENCODING_NAMES
from tests.whatwg_reference import (
    BIG5_SPECIAL,
    SINGLE_BYTE,
    gb18030_ranges_code_point,
    index,
    reference_decode,
)


def scrapy_text(body: bytes, encoding: str) -> str:
    from scrapy.http import HtmlResponse

    # A BOM would be read by Scrapy itself before our codec sees the body.
    assert not body.startswith((b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe"))
    return HtmlResponse("https://example.com/", body=body, encoding=codec_name(encoding)).text


def first_difference(got: str, expected: str) -> str:
    for position, (a, b) in enumerate(zip(got, expected, strict=False)):
        if a != b:
            window = slice(position, position + 3)
            return f"at {position}: {got[window]!r} != {expected[window]!r}"
    return f"lengths {len(got)} != {len(expected)}"


def check(body: bytes, encoding: str, expected: str, *, via_scrapy: bool = True) -> None:
    got = body.decode(codec_name(encoding))
    assert got == expected, first_difference(got, expected)
    if via_scrapy:
        got = scrapy_text(body, encoding)
        assert got == expected, "Scrapy .text " + first_difference(got, expected)


# -- every pointer of every index ------------------------------------------------------


def _single_byte_index(encoding: str) -> str:
    return "iso-8859-8" if encoding == "ISO-8859-8-I" else encoding.lower()


@pytest.mark.parametrize("encoding", SINGLE_BYTE)
def test_single_byte_index(encoding: str) -> None:
    """https://encoding.spec.whatwg.org/#single-byte-decoder: all 256 bytes at once."""
    table = index(_single_byte_index(encoding))
    expected = "".join(map(chr, range(0x80))) + "".join(
        chr(table[pointer]) if pointer in table else "\ufffd" for pointer in range(128)
    )
    check(bytes(range(256)), encoding, expected)


def test_x_user_defined() -> None:
    """https://encoding.spec.whatwg.org/#x-user-defined-decoder"""
    expected = "".join(map(chr, range(0x80))) + "".join(map(chr, range(0xF780, 0xF800)))
    check(bytes(range(256)), "x-user-defined", expected)


def _gb18030_pairs() -> Iterator[tuple[bytes, int]]:
    for pointer, code_point in index("gb18030").items():
        lead, trail = divmod(pointer, 190)
        yield bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41))), code_point


def _big5_pairs() -> Iterator[tuple[bytes, int]]:
    for pointer, code_point in index("big5").items():
        if pointer in BIG5_SPECIAL:
            continue  # two code points, checked below
        lead, trail = divmod(pointer, 157)
        yield bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62))), code_point


def _jis0208_euc_jp() -> Iterator[tuple[bytes, int]]:
    for pointer, code_point in index("jis0208").items():
        lead, trail = divmod(pointer, 94)
        if lead < 94:  # EUC-JP reaches pointers up to 8835
            yield bytes((lead + 0xA1, trail + 0xA1)), code_point


def _jis0208_iso_2022_jp() -> Iterator[tuple[bytes, int]]:
    for seq, code_point in _jis0208_euc_jp():
        yield bytes((seq[0] - 0x80, seq[1] - 0x80)), code_point


def _jis0208_shift_jis() -> Iterator[tuple[bytes, int]]:
    for pointer, code_point in index("jis0208").items():
        lead, trail = divmod(pointer, 188)
        yield (
            bytes(
                (
                    lead + (0x81 if lead < 0x1F else 0xC1),
                    trail + (0x40 if trail < 0x3F else 0x41),
                )
            ),
            code_point,
        )


def _jis0212() -> Iterator[tuple[bytes, int]]:
    for pointer, code_point in index("jis0212").items():
        lead, trail = divmod(pointer, 94)
        yield bytes((0x8F, lead + 0xA1, trail + 0xA1)), code_point


def _euc_kr() -> Iterator[tuple[bytes, int]]:
    for pointer, code_point in index("euc-kr").items():
        lead, trail = divmod(pointer, 190)
        yield bytes((lead + 0x81, trail + 0x41)), code_point


def _four_byte(pointer: int) -> bytes:
    pointer, d = divmod(pointer, 10)
    pointer, c = divmod(pointer, 126)
    a, b = divmod(pointer, 10)
    return bytes((a + 0x81, b + 0x30, c + 0x81, d + 0x30))


def _gb18030_ranges() -> Iterator[tuple[bytes, int]]:
    """Every BMP pointer (0 to 39419) and every 97th supplementary one, with the ends."""
    pointers = [*range(39420), *range(189000, 1237576, 97), 1237575]
    for pointer in pointers:
        code_point = gb18030_ranges_code_point(pointer)
        assert code_point is not None
        yield _four_byte(pointer), code_point


INDEX_CASES = {
    "gb18030-gb18030": ("gb18030", _gb18030_pairs),
    "gb18030-GBK": ("GBK", _gb18030_pairs),
    "gb18030-ranges-gb18030": ("gb18030", _gb18030_ranges),
    "gb18030-ranges-GBK": ("GBK", _gb18030_ranges),
    "big5-Big5": ("Big5", _big5_pairs),
    "jis0208-EUC-JP": ("EUC-JP", _jis0208_euc_jp),
    "jis0208-Shift_JIS": ("Shift_JIS", _jis0208_shift_jis),
    "jis0208-ISO-2022-JP": ("ISO-2022-JP", _jis0208_iso_2022_jp),
    "jis0212-EUC-JP": ("EUC-JP", _jis0212),
    "euc-kr-EUC-KR": ("EUC-KR", _euc_kr),
}

#: Pointers checked per index case (filled by the tests; the report prints it).
CHECKED: dict[str, int] = {}


@pytest.mark.parametrize("case", INDEX_CASES)
def test_every_pointer_decodes_to_its_code_point(case: str) -> None:
    encoding, pointers = INDEX_CASES[case]
    pairs = list(pointers())
    expected = []
    for seq, code_point in pairs:
        # Shift_JIS pointers 8836 to 10715 are the EUDC range: Private Use Area, not index.
        if encoding == "Shift_JIS":
            lead, trail = seq
            pointer = (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + trail
            pointer -= 0x40 if trail < 0x7F else 0x41
            assert not 8836 <= pointer <= 10715
        expected.append(chr(code_point))
    body = b"".join(seq for seq, _ in pairs)
    if encoding == "ISO-2022-JP":
        body = b"\x1b$B" + body
    CHECKED[case] = len(pairs)
    check(body, encoding, "".join(expected))


def test_big5_pointers_with_two_code_points() -> None:
    """Big5 pointers 1133, 1135, 1164 and 1166 decode to two code points each."""
    body = b"".join(
        bytes((0x81 + pointer // 157, pointer % 157 + (0x40 if pointer % 157 < 0x3F else 0x62)))
        for pointer in BIG5_SPECIAL
    )
    check(body, "Big5", "".join(BIG5_SPECIAL.values()))


def test_shift_jis_eudc_range() -> None:
    """Shift_JIS pointers 8836 to 10715 decode to U+E000 to U+E757."""
    body = b""
    for pointer in range(8836, 10716):
        lead, trail = divmod(pointer, 188)
        body += bytes((lead + 0xC1, trail + (0x40 if trail < 0x3F else 0x41)))
    check(body, "Shift_JIS", "".join(map(chr, range(0xE000, 0xE758))))


def test_gb18030_null_four_byte_pointers() -> None:
    """Pointers over 39419 and under 189000, and over 1237575, are errors (one each)."""
    nulls = [*range(39420, 189000, 101), 188999, *range(1237576, 1587600, 331)]
    body = b"".join(_four_byte(pointer) for pointer in nulls)
    for encoding in ("gb18030", "GBK"):
        check(body, encoding, "\ufffd" * len(nulls))


# -- every lead/trail combination, against the step-by-step reference ------------------

MULTI_BYTE = ["gb18030", "GBK", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"]


def _pair_blob(encoding: str) -> bytes:
    """Every lead byte 0x80-0xFF with every byte after it, each pair followed by LF.

    LF is ASCII: after any incomplete or unmapped sequence it is an error's prepended
    byte, so each pair is decoded from the initial state.
    """
    prefix = b"\x1b$B" if encoding == "ISO-2022-JP" else b""
    leads = range(0x21, 0x7F) if encoding == "ISO-2022-JP" else range(0x80, 0x100)
    pairs = [bytes((lead, trail)) for lead in leads for trail in range(256)]
    separator = b"\x1b$B" if encoding == "ISO-2022-JP" else b"\n"
    return prefix + separator.join(pairs)


@pytest.mark.parametrize("encoding", MULTI_BYTE)
def test_every_lead_trail_pair(encoding: str) -> None:
    body = _pair_blob(encoding)
    check(body, encoding, reference_decode(body, encoding))


@pytest.mark.parametrize("encoding", [*MULTI_BYTE, "UTF-8"])
def test_every_two_byte_input_alone(encoding: str) -> None:
    """Each two-byte input alone: end-of-queue right after the trail byte."""
    name = codec_name(encoding)
    failures = []
    for lead in range(0x80, 0x100):
        for trail in range(256):
            body = bytes((lead, trail))
            if body.decode(name) != reference_decode(body, encoding):
                failures.append(body)
    assert not failures, failures[:10]


def _euc_jp_three_bytes() -> bytes:
    """0x8F with every second byte, and every third byte after 0x8F 0xA2 and 0x8F 0xFE."""
    seqs = [bytes((0x8F, second, 0xA1)) for second in range(256)]
    seqs += [bytes((0x8F, second, third)) for second in (0xA2, 0xFE) for third in range(256)]
    return b"\n".join(seqs)


def _gb18030_four_bytes() -> bytes:
    """Each position of a four-byte sequence with every byte (the others well-formed)."""
    seqs = []
    for byte in range(256):
        seqs += [
            bytes((0x81, byte, 0x81, 0x30)),
            bytes((0x81, 0x30, byte, 0x30)),
            bytes((0x81, 0x30, 0x81, byte)),
            bytes((0x84, 0x31, 0xA4, byte)),
            bytes((0xE3, 0x32, 0x9A, byte)),
            bytes((0x81, 0x35, 0xF4, byte)),
        ]
    return b"\n".join(seqs) + b"\x81\x30\x81"


def _utf16_units(big_endian: bool) -> bytes:
    """Every pair and triple of interesting code units (surrogates and not), and odd ends."""
    units = [0x0041, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFD, 0x00D8, 0xFEFF]
    out = b""
    for a in units:
        for b in units:
            for c in units:
                for unit in (a, b, c):
                    pair = bytes((unit >> 8, unit & 0xFF))
                    out += pair if big_endian else pair[::-1]
    return b"A\x00" + out + (b"\xd8" if big_endian else b"\x00\xd8") + b"\x00"


def _iso_2022_jp_escapes() -> bytes:
    """Every ESC + byte + byte with the interesting bytes, in each state, back to back."""
    interesting = [0x1B, 0x24, 0x28, 0x40, 0x42, 0x4A, 0x49, 0x41, 0x21, 0x5C, 0x7E, 0x0E]
    interesting += [0x80, 0x5F, 0x60]
    out = b""
    for state in (b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$B", b"\x1b$@"):
        for a in interesting:
            for b in interesting:
                out += state + b"\x1b" + bytes((a, b)) + b"!!\x5c\x7e"
    return out + b"\x1b$B!"


def _utf8_sequences() -> bytes:
    """Every lead byte with every second byte, and three/four-byte boundaries."""
    seqs = [
        bytes((lead, second, 0x80, 0x80)) for lead in range(0xC0, 0x100) for second in range(256)
    ]
    return b"A".join(seqs) + b"\xf4\x8f\xbf"


SEQUENCE_CASES = {
    "EUC-JP-jis0212-three-bytes": ("EUC-JP", _euc_jp_three_bytes),
    "gb18030-four-bytes": ("gb18030", _gb18030_four_bytes),
    "GBK-four-bytes": ("GBK", _gb18030_four_bytes),
    "UTF-16BE-surrogates": ("UTF-16BE", lambda: _utf16_units(big_endian=True)),
    "UTF-16LE-surrogates": ("UTF-16LE", lambda: _utf16_units(big_endian=False)),
    "ISO-2022-JP-escapes": ("ISO-2022-JP", _iso_2022_jp_escapes),
    "UTF-8-sequences": ("UTF-8", _utf8_sequences),
}


@pytest.mark.parametrize("case", SEQUENCE_CASES)
def test_longer_sequences(case: str) -> None:
    encoding, make = SEQUENCE_CASES[case]
    body = make()
    check(body, encoding, reference_decode(body, encoding))


def test_iso_2022_jp_well_formed_runs_take_the_c_codec(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every JIS X 0208 pair in a well-formed run, decoded by the C codec path only."""
    from scrapy_charset.whatwg import iso2022jp

    def unexpected(data: bytes) -> str:
        raise AssertionError("the state machine ran")

    monkeypatch.setattr(iso2022jp, "_decode_pieces", unexpected)
    jis = range(0x21, 0x7F)
    body = b"".join(b"\x1b$B" + bytes((a, b)) + b"\x1b(B\n" for a in jis for b in jis)
    check(body, "ISO-2022-JP", reference_decode(body, "ISO-2022-JP"))


@pytest.mark.parametrize("encoding", ENCODING_NAMES)
def test_every_single_byte_alone(encoding: str) -> None:
    """Each byte alone, and all 256 bytes in a row."""
    name = codec_name(encoding)
    for byte in range(256):
        body = bytes((byte,))
        assert body.decode(name) == reference_decode(body, encoding), body
    body = bytes(range(1, 256))
    check(body, encoding, reference_decode(body, encoding))


@pytest.mark.parametrize("case", [c for c in INDEX_CASES if "ISO-2022-JP" not in c])
def test_index_code_points_encode_back(case: str) -> None:
    """Each code point of the index encodes to bytes that decode back to it.

    Big5's encoder leaves out the HKSCS pointers (under 5024), as the standard's does.
    """
    encoding, pointers = INDEX_CASES[case]
    name = codec_name(encoding)
    unencodable = []
    for sequence, code_point in pointers():
        char = chr(code_point)
        try:
            encoded = char.encode(name)
        except UnicodeEncodeError:
            unencodable.append(sequence)
            continue
        assert encoded.decode(name) == char, (sequence, char, encoded)
    if encoding == "Big5":
        assert all(sequence[0] < 0xA1 for sequence in unencodable)
    else:
        assert unencodable == []
