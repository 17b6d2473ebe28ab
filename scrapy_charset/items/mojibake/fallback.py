"""The readings ftfy has no plan for, as a table: each row a reading, its test and its
example, judged by the same verifier (:mod:`.verify`) as ftfy's plans.

ftfy undoes UTF-8 read as a single-byte encoding when the whole field encodes in that
encoding and decodes as UTF-8 (or when windows-1252 shows some sequences among clean
text). It has no plan for UTF-8 read as windows-1251 or another single-byte encoding in
part of a field, for UTF-8 read as Shift_JIS, nor for x-mac-cyrillic. Each row of
:data:`ROWS` reads a field one of two ways:

- **whole**: the field's characters are the bytes of the reading, and those bytes are
  UTF-8 (the field damaged whole);
- **in place**: each run of characters the reading has bytes for is decoded where it
  holds UTF-8 sequences, the rest of the run kept (a field damaged in part, or joined
  from a clean source and a damaged one).

A row is tried only where :mod:`.badness` found the reading's evidence in the field.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from scrapy_charset.items.mojibake.chardata import (
    CP437,
    UTF8_READINGS,
    MojibakeKind,
    chars,
    decode_reading,
    encode_reading,
    high_half,
    script_of,
)

__all__ = ["ROWS", "Row", "in_place", "whole"]

SHIFT_JIS = "Shift_JIS"
MAC_CYRILLIC = "x-mac-cyrillic"


@dataclass(frozen=True, slots=True)
class Row:
    """One reading of UTF-8 bytes the fallback undoes."""

    reading: str
    kind: MojibakeKind
    #: A field damaged so, and its repair (checked by the tests).
    example: tuple[str, str]


ROWS: tuple[Row, ...] = (
    Row("windows-1252", MojibakeKind.UTF8_AS_WINDOWS_1252, ("Crème and Ã©tÃ©", "Crème and été")),
    Row("windows-1251", MojibakeKind.UTF8_AS_WINDOWS_1251, ("РџСЂРёРІРµС‚ мир", "Привет мир")),
    Row("macintosh", MojibakeKind.UTF8_AS_OTHER, ("Crème and caf√©", "Crème and café")),
    Row("windows-1250", MojibakeKind.UTF8_AS_OTHER, ("Čeština a ÄŤeĹˇtina", "Čeština a čeština")),
    Row("ISO-8859-2", MojibakeKind.UTF8_AS_OTHER, ("Čeština a Ä\x8deĹĄtina", "Čeština a čeština")),
    Row(
        "windows-1257",
        MojibakeKind.UTF8_AS_OTHER,
        ("Lietuvių ir lietuviÅ³", "Lietuvių ir lietuvių"),
    ),
    Row("windows-1253", MojibakeKind.UTF8_AS_OTHER, ("Ξ•Ξ»Ξ»Ξ¬Ξ΄Ξ±", "Ελλάδα")),
    Row(MAC_CYRILLIC, MojibakeKind.UTF8_AS_OTHER, ("Rep√Їblica", "República")),
    Row(CP437, MojibakeKind.UTF8_AS_OTHER, ("─îe┼ítina", "Čeština")),
    Row(SHIFT_JIS, MojibakeKind.UTF8_AS_SHIFT_JIS, ("Cafﾃｩ", "Café")),
)
BY_READING = {row.reading: row for row in ROWS}
assert set(UTF8_READINGS) <= set(BY_READING)


def _encode(text: str, reading: str) -> bytes | None:
    if reading == SHIFT_JIS:
        try:
            return text.encode("cp932")
        except UnicodeEncodeError:
            return None
    return encode_reading(text, reading)


def _decode(raw: bytes, reading: str) -> str:
    if reading == SHIFT_JIS:
        return raw.decode("cp932", "replace")
    return decode_reading(raw, reading)


def encodes(text: str, reading: str) -> bool:
    """*reading* has a byte for every character of *text*."""
    return _encode(text, reading) is not None


def whole(text: str, reading: str) -> str | None:
    """*text*'s bytes in *reading*, decoded as UTF-8 (the surrogates of the
    Encoding Standard's UTF-8 refused), or None when they are not UTF-8 or the field
    has no byte above 0x7F in that reading."""
    raw = _encode(text, reading)
    if raw is None or raw.isascii():
        return None
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return decoded if _decodes_as_damage(decoded, reading) else None


@functools.cache
def _run(reading: str) -> re.Pattern[str]:
    """A run of the characters *reading* shows bytes 0x80-0xFF as."""
    if reading == SHIFT_JIS:
        # Half-width katakana and the JIS X 0208 characters of the UTF-8 lead bytes.
        return re.compile("[\uff61-\uff9f\u3000-\u30ff\u4e00-\u9fff\u0391-\u03c9\u0410-\u044f]+")
    return re.compile(f"[{chars(high_half(reading), 0x80, 0xFF)}]+")


@functools.cache
def _pair(reading: str) -> re.Pattern[str] | None:
    """A UTF-8 lead in single-byte *reading*, then a continuation character or U+FFFD:
    what every sequence :func:`in_place` decodes starts with. None for Shift_JIS."""
    if reading == SHIFT_JIS:
        return None
    high = high_half(reading)
    return re.compile(f"[{chars(high, 0xC2, 0xF4)}][{chars(high, 0x80, 0xBF)}\ufffd]")


_ESCAPED = re.compile("[\udc80-\udcff]+")

_COMMON = re.compile(
    "[\u00a0-\u00bf\u00d7\u00f7\u0e3f\u2000-\u2bff\u3000-\u303f\uff00-\uffef\U0001f000-\U0001faff]"
)
#: The readings whose sequences decode only to Greek, Latin-1 and common punctuation:
#: UTF-8 read as windows-1253 is Greek text's damage.
_GREEK = re.compile("[\u00a0-\u00ff\u0370-\u03ff\u1f00-\u1fff]")


def _decodes_as_damage(decoded: str, reading: str) -> bool:
    """Each character *decoded* brings in (its non-ASCII ones, the bytes it could not
    read aside) is one that text damaged so held: a letter or a mark of any script, a
    symbol, digit or punctuation mark of the common blocks, or one of a script whose
    letters the same decode brings in (a Cyrillic letter and a curly quote are a Tibetan
    mark in UTF-8, with no Tibetan letter). UTF-8 read as windows-1253 brings in Greek
    only. cp437's and Shift_JIS's runs have their own test."""
    if reading in _WHOLE_RUNS:
        return True
    new = [c for c in decoded if c > "\x7f" and not "\udc80" <= c <= "\udcff"]
    if reading == "windows-1253":
        return all(_GREEK.match(c) or _COMMON.match(c) for c in new)
    scripts = {script_of(c) for c in new if unicodedata.category(c)[0] in "LM"}
    return all(
        unicodedata.category(c)[0] in "LM" or _COMMON.match(c) or script_of(c) in scripts
        for c in new
    )


#: The readings whose characters are common text on their own.
_WHOLE_RUNS = frozenset({SHIFT_JIS, CP437})


def in_place(text: str, reading: str) -> str | None:
    """*text* with each UTF-8 sequence that *reading* shows decoded where it stands, or
    None when there is none."""
    pair = _pair(reading)
    if pair is not None and pair.search(text) is None:
        return None  # no lead with a continuation character or a lost one after it
    changed = False
    pieces: list[str] = []
    at = 0
    for match in _run(reading).finditer(text):
        run = match.group()
        raw = _encode(run, reading)
        if raw is None:
            continue
        decoded = raw.decode("utf-8", "surrogateescape")
        if max(decoded) >= "\udc80" and _ESCAPED.fullmatch(decoded):
            continue  # no sequence at all
        if (
            reading in _WHOLE_RUNS
            and _ESCAPED.search(decoded)
            and not _lost_at_end(decoded, text, match.end())
        ):
            # Half-width katakana and box drawing are text of their own: a run of them
            # is read as UTF-8 only whole.
            continue
        if decoded == run or not _decodes_as_damage(decoded, reading):
            continue
        kept = _ESCAPED.sub(
            lambda m: _decode(bytes(ord(c) - 0xDC00 for c in m.group()), reading), decoded
        )
        if kept == run:
            continue
        pieces.append(text[at : match.start()])
        pieces.append(kept)
        at = match.end()
        changed = True
    pieces.append(text[at:])
    # A lead whose continuation bytes were lost (U+FFFD) is one lost character.
    out = _lost(reading).sub("\ufffd", "".join(pieces))
    return out if changed or out != text else None


def _lost_at_end(decoded: str, text: str, end: int) -> bool:
    """The bytes *decoded* could not read are its last ones, and the text goes on with
    U+FFFD: a sequence whose continuation bytes were lost."""
    tail = _ESCAPED.search(decoded)
    return (
        tail is not None
        and tail.end() == len(decoded)
        and _ESCAPED.search(decoded[: tail.start()]) is None
        and text.startswith("\ufffd", end)
    )


@functools.cache
def _lost(reading: str) -> re.Pattern[str]:
    """A UTF-8 lead byte in *reading* followed by U+FFFD."""
    if reading == SHIFT_JIS:
        return re.compile("[\uff82-\uff9f]\ufffd+")  # bytes C2-DF: half-width katakana
    return re.compile(f"[{chars(high_half(reading), 0xC2, 0xF4)}]\ufffd+")
