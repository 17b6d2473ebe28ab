"""A body cut short inside its last character keeps its encoding.

A download that stops early (``DOWNLOAD_FAIL_ON_DATALOSS = False``, ``DOWNLOAD_MAXSIZE``,
a server that closes the connection) often ends inside a multi-byte character. The
incomplete character is evidence of the cut, not against the encoding: the body is judged
without it and decoded as the Encoding Standard's decoder does, with one U+FFFD at the end
(4.1: an incomplete sequence at the end of the queue is one error).

Real text from pycountry's translation catalogues, every CJK encoding of the Encoding
Standard and UTF-8, the body cut at every offset of its last three characters.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from scrapy_charset.sniffing import sniff
from scrapy_charset.sniffing.detect import get_detector
from scrapy_charset.sniffing.utf8 import is_utf8, mostly_utf8, utf8_evidence
from scrapy_charset.whatwg.codecs import decode
from tests import corpus

pytestmark = pytest.mark.skipif(
    not corpus.have_catalogues(), reason="pycountry's translation catalogues are not installed"
)

#: Encoding -> (Python codec that writes it, pycountry locale).
ENCODINGS = {
    "Shift_JIS": ("cp932", "ja"),
    "EUC-JP": ("euc_jp", "ja"),
    "ISO-2022-JP": ("iso2022_jp", "ja"),
    "EUC-KR": ("cp949", "ko"),
    "GBK": ("gbk", "zh_CN"),
    "gb18030": ("gb18030", "zh_CN"),
    "Big5": ("big5", "zh_TW"),
    "UTF-8": ("utf-8", "ja"),
}

#: Body sizes, and which cuts of the last three characters each is tested at (every offset
#: but at 1 MB, where the first, a middle and the last offset stand for the others).
SIZES = {200: "all", 4 * 1024: "all", 64 * 1024: "all", 1024 * 1024: "few"}


@cache
def _words(codec: str, locale: str) -> tuple[str, ...]:
    out = []
    for message in corpus.messages(locale):
        if message.isascii():
            continue
        try:
            message.encode(codec)
        except UnicodeEncodeError:
            continue
        out.append(message)
    return tuple(out)


@cache
def _body(encoding: str, size: int) -> tuple[bytes, tuple[int, ...]]:
    """An undeclared page of about *size* bytes in *encoding*, and the byte offsets where
    each of its last three characters starts (the last one is the body's end)."""
    codec, locale = ENCODINGS[encoding]
    words = _words(codec, locale)
    head = "<html><head><title>" + words[0] + "</title></head><body><p>"
    text = [head]
    length = len(head.encode(codec))
    index = 1
    while length < size:
        word = words[index % len(words)] + "、"
        text.append(word)
        length += len(word.encode(codec))
        index += 1
    # The page ends with a word of three or more characters none of which is ASCII, so
    # that the last three characters are multi-byte ones.
    text.append(next(w for w in words if len(w) >= 3 and not any(c.isascii() for c in w)))
    page = "".join(text)
    encoded = page.encode(codec)
    starts = tuple(len(page[:i].encode(codec)) for i in range(len(page) - 3, len(page) + 1))
    if codec == "iso2022_jp":
        # Python's encoder returns to ASCII at the end; the offsets are those of the
        # characters themselves (two bytes each), and the end is before the escape.
        escape = encoded.rfind(b"\x1b(B")
        last = [escape - 6, escape - 4, escape - 2, escape]
        return encoded[:escape], tuple(last)
    return encoded, starts


def _cuts(encoding: str, size: int) -> list[tuple[int, bool]]:
    """(length, mid-character) for every cut inside the last three characters."""
    _, starts = _body(encoding, size)
    cuts = [(length, length not in starts) for length in range(starts[0] + 1, starts[-1] + 1)]
    if SIZES[size] == "few":
        cuts = [cuts[0], cuts[len(cuts) // 2], cuts[-1]]
    return cuts


def _cases() -> list[Any]:
    out: list[Any] = []
    for encoding in ENCODINGS:
        for size in SIZES:
            if not corpus.have_catalogues():
                continue
            for length, mid in _cuts(encoding, size):
                where = "mid" if mid else "boundary"
                out.append(
                    pytest.param(
                        encoding, size, length, mid, id=f"{encoding}-{size}-{length}-{where}"
                    )
                )
    return out


@pytest.mark.parametrize(("encoding", "size", "length", "mid"), _cases())
def test_cut_body_keeps_its_encoding(encoding: str, size: int, length: int, mid: bool) -> None:
    body, _ = _body(encoding, size)
    cut = body[:length]
    decision = sniff(cut, "text/html", detector=get_detector())
    expected = decode(cut, encoding)
    # GBK bytes read the same under gb18030: the text is what counts.
    assert decode(cut, decision.encoding) == expected, decision
    # The standard's decoder: one U+FFFD at the end for an incomplete last character.
    assert expected.count("\ufffd") == (1 if mid else 0)
    assert not mid or expected.endswith("\ufffd")


@pytest.mark.parametrize(
    ("body", "valid", "invalid"),
    [
        # The cut last character counts neither way; an error before it still counts.
        pytest.param("caf\u00e9 cr\u00e8me \u20ac".encode()[:-1], 2, 0, id="cut-euro"),
        pytest.param("caf\u00e9 cr\u00e8me \u20ac".encode()[:-2], 2, 0, id="cut-euro-lead"),
        pytest.param(b"caf\xc3\xa9 \xe9 \xe2\x82", 1, 1, id="stray-then-cut"),
        pytest.param(b"caf\xc3\xa9 \xe9", 1, 0, id="stray-byte-at-the-end-is-a-cut"),
        pytest.param(b"caf\xc3\xa9 \xff", 1, 1, id="never-a-lead-byte-at-the-end"),
    ],
)
def test_cut_last_sequence_is_not_counted(body: bytes, valid: int, invalid: int) -> None:
    evidence = utf8_evidence(body)
    assert (evidence.valid, evidence.invalid) == (valid, invalid)


def test_cut_utf8_with_strays_stays_mostly_utf8() -> None:
    text = "Les œufs coûtent 3 € \u2013 déjà vu, naïve café crème brûlée. ".encode()
    # A stray windows-1252 apostrophe, then a cut euro sign.
    body = text * 4 + b"l\x92hotel " + "3 \u20ac".encode()[:-1]
    assert not is_utf8(body)
    evidence = mostly_utf8(body)
    assert evidence is not None
    assert evidence.invalid == 1


# --- A real crawl: downloads cut short --------------------------------------------------

#: Encoding -> the cut in the crawl: bytes of its 4 KB page sent before the server closes
#: (one byte into the last character but one).
_CRAWL = {encoding: _body(encoding, 4 * 1024)[1][1] + 1 for encoding in ENCODINGS}


def test_crawl_with_dataloss_allowed_keeps_the_encoding() -> None:
    from tests.crawl import run_crawl
    from tests.server import Page, serve

    routes = {
        f"/{encoding}": Page(_body(encoding, 4 * 1024)[0], {"Content-Type": "text/html"}, sent=cut)
        for encoding, cut in _CRAWL.items()
    }
    with serve(routes) as base:
        result = run_crawl(
            [base + path for path in routes],
            {
                "ADDONS": {"scrapy_charset.Addon": 0},
                "DOWNLOAD_FAIL_ON_DATALOSS": False,
                "LOG_LEVEL": "INFO",
            },
        )
    for encoding, cut in _CRAWL.items():
        record = result.response(f"/{encoding}")
        assert "error" not in record, record
        assert record["body_len"] == cut  # Scrapy handed over the cut body
        body = _body(encoding, 4 * 1024)[0][:cut]
        assert record["text"] == decode(body, encoding), encoding
        assert record["text"].endswith("\ufffd")
        assert record["text"].count("\ufffd") == 1
        assert decode(body, record["meta_charset"]["encoding"]) == decode(body, encoding)
