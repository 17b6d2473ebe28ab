"""The scraping side's addition to the HTML Standard: a body that is UTF-8 is UTF-8.

Browsers fall back to a locale default or a detector where nothing is declared; a scraper
knows that almost every undeclared page written since 2010 is UTF-8, and that a body which
is valid UTF-8 (and not plain ASCII) is, with overwhelming probability, UTF-8: legacy
encodings almost never produce valid UTF-8 multi-byte sequences by chance.

A seven-bit body with ISO-2022-JP escape sequences is valid UTF-8 but is ISO-2022-JP text:
it goes on to detection (:func:`has_iso2022jp_escapes`).

**Mostly UTF-8 stays UTF-8.** A UTF-8 page with a few stray bytes (a windows-1252
apostrophe, byte 0x92, pasted into a template; a truncated multi-byte character; a bad
byte in a footer far beyond the detection window) is still UTF-8: decoding it as a legacy
encoding turns all of its text into mojibake without a single U+FFFD, so nothing
downstream notices. The rule, :func:`mostly_utf8`, counts the valid multi-byte UTF-8
sequences *V* (by length: two, three and four bytes) and the invalid sequences *E* (each
maximal invalid subpart, which the decoder turns into one U+FFFD) from the body's first
non-ASCII byte to 16 KiB (the default detection window) past its first invalid sequence:
all the valid text before the first error counts, however long, and so does the window
of evidence after it. A sequence cut off by the end of the body counts neither way.

The question is how likely that many valid sequences are in a body written in a legacy
encoding. In legacy text, each sequence the UTF-8 decoder reads is valid only by chance:
a lead byte of the right range followed by the right number of continuation bytes
(0x80-0xBF). :data:`CHANCE` is that chance per sequence length, the larger of two
figures: high bytes drawn uniformly from 0x80-0xFF (2 bytes: 30 leads x 1/2 = 15/128 =
0.117; 3 bytes: 960/16384 lead-and-second pairs x 1/2 = 0.029; 4 bytes: 256/16384 x 1/4 =
0.0039), and the highest rate measured in real text of every legacy encoding
(``python scripts/utf8_chance.py``: windows-874 0.179 for two bytes, IBM866 0.135 for three,
EUC-JP 0.011 for four), rounded up. The likelihood that a legacy body shows *V* valid
sequences among its *V + E* is at most (a union bound over which sequences are valid)

    L = C(V + E, V) x product of CHANCE[length] over the valid sequences

and the body is mostly UTF-8 when

    E >= 1  and  L <= LIKELIHOOD (0.01)  and  V >= RATIO (4) * E

that is, at least four valid sequences for each invalid one, and too many to be chance.
Four two-byte sequences and one error (L = 0.0052) pass; three do not (V < 4E). The
ratio keeps out the legacy text that makes many chance-valid pairs (EUC-JP, EUC-KR,
windows-874, GBK and Big5 reach at most V = 0.27 E on the development corpus). Every body
the earlier fixed minimum (eight valid sequences) accepted is accepted: with the ratio
met, L falls as V grows and is below 0.0001 from eight sequences on. The count is one
pass of the C decoder in 16 KiB chunks (memory bounded whatever the body's size); legacy
text fails at its first non-ASCII bytes, so it costs one window, and a UTF-8 body costs
what the validity check before it costs. The decision is ``source="utf8-validity"`` (the UTF-8
step decides, confidence tentative) with ``detector="mostly-utf-8"``, the share of valid
sequences as its score and the two counts as details, so ``as_dict()`` shows the rule and
its evidence under "detector"; the text is decoded with U+FFFD where it is invalid, as a
browser would.
"""

from __future__ import annotations

import codecs
import math
import re
from dataclasses import dataclass

__all__ = [
    "CHANCE",
    "LIKELIHOOD",
    "RATIO",
    "Utf8Evidence",
    "accepted",
    "decode_utf8",
    "has_iso2022jp_escapes",
    "is_utf8",
    "mostly_utf8",
    "rule_evidence",
    "utf8_evidence",
]

#: The chance that a sequence the UTF-8 decoder reads in legacy text is a valid
#: sequence of this many bytes (see the module docstring for the model).
CHANCE: dict[int, float] = {2: 0.18, 3: 0.14, 4: 0.011}
#: The most likely a legacy body may be to show the valid sequences the rule accepts.
LIKELIHOOD = 0.01
#: Valid multi-byte sequences needed for each invalid sequence.
RATIO = 4

_HIGH = bytes(range(0x80, 0x100))
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_CHUNK = 64 * 1024
_LITERAL_FFFD = "\ufffd".encode()
#: Bytes read after the first invalid sequence (the default detection window).
WINDOW = 16 * 1024
_EVIDENCE_CHUNK = WINDOW

# Encoding Standard, 12.2 ISO-2022-JP: the escapes to JIS X 0208 (ESC $ @, ESC $ B),
# JIS X 0201 Roman (ESC ( J) and Katakana (ESC ( I).
_ISO2022JP_ESCAPE = re.compile(rb"\x1b(?:\$[@B]|\([JI])")


def is_utf8(body: bytes) -> bool:
    """True when *body* is valid UTF-8, allowing a sequence cut off by the end of the body
    (a truncated download must not turn a UTF-8 page into windows-1252)."""
    if body.isascii():
        return True
    # Validate from the first non-ASCII byte, chunk by chunk: a body that is ASCII but for
    # its end costs a memory scan, and an error never copies the whole body.
    start = _first_high(body)
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    for offset in range(start, len(body), _CHUNK):
        pending = len(decoder.getstate()[0])
        final = offset + _CHUNK >= len(body)
        try:
            decoder.decode(body[offset : offset + _CHUNK], final)
        except UnicodeDecodeError as error:
            # Valid up to a final sequence that is only incomplete, not wrong, after some
            # multi-byte UTF-8 that shows the body is UTF-8 at all.
            return (
                final
                and error.reason == "unexpected end of data"
                and offset - pending + error.start > start
            )
    return True


def decode_utf8(body: bytes) -> tuple[bool, str | None]:
    """``(is_utf8(body), text)``: the text when the whole body decodes as UTF-8, else None.

    One full decode instead of :func:`is_utf8`'s chunks, for a caller that wants the text
    anyway: the check and the decoding are then a single pass.
    """
    try:
        return True, body.decode("utf-8")
    except UnicodeDecodeError as error:
        truncated = (
            error.end == len(body)
            and error.reason == "unexpected end of data"
            and not body[: error.start].isascii()
        )
        return truncated, None


def _first_high(body: bytes) -> int:
    """The offset of the first byte >= 0x80 (the body is known not to be ASCII)."""
    for start in range(0, len(body), _CHUNK):
        if not body[start : start + _CHUNK].isascii():
            found = _HIGH_BYTE.search(body, start, start + _CHUNK)
            return found.start() if found is not None else start
    return 0


def has_iso2022jp_escapes(body: bytes) -> bool:
    """True when a seven-bit *body* switches to JIS X 0208 or JIS X 0201: it is ASCII,
    hence valid UTF-8, yet ISO-2022-JP text, which detection must see."""
    return b"\x1b" in body and _ISO2022JP_ESCAPE.search(body) is not None


@dataclass(frozen=True)
class Utf8Evidence:
    """Counts of valid multi-byte UTF-8 sequences and of invalid sequences; *three* and
    *four* are the valid sequences of three and four bytes (the rest are two bytes)."""

    valid: int
    invalid: int
    three: int = 0
    four: int = 0

    @property
    def share(self) -> float:
        """The share of the non-ASCII sequences that are valid UTF-8."""
        total = self.valid + self.invalid
        return round(self.valid / total, 4) if total else 1.0

    @property
    def likelihood(self) -> float:
        """How likely a body in a legacy encoding is to show these valid sequences by
        chance, at most (see the module docstring)."""
        two = self.valid - self.three - self.four
        chance = CHANCE[2] ** two * CHANCE[3] ** self.three * CHANCE[4] ** self.four
        return min(1.0, math.comb(self.valid + self.invalid, self.valid) * chance)


def utf8_evidence(data: bytes) -> Utf8Evidence:
    """Count the valid multi-byte sequences and the invalid sequences of *data*.

    Linear, in C: the decoder replaces each maximal invalid subpart with one U+FFFD (the
    Encoding Standard's UTF-8 decoder does the same) and never swallows an ASCII byte, so
    the non-ASCII characters of the result are the valid sequences plus the errors.
    """
    return _count(data, after_error=None)


def _count(data: bytes, *, after_error: int | None) -> Utf8Evidence:
    """:func:`utf8_evidence`, read chunk by chunk from the first non-ASCII byte; with
    *after_error*, only up to that many bytes after the first invalid sequence."""
    if data.isascii():
        return Utf8Evidence(valid=0, invalid=0)
    start = _first_high(data)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    characters = replaced = high = literal = 0
    # Bytes past ASCII of the decoded characters (re-encoded) and astral characters: the
    # lengths of the sequences, without a second decode.
    extra = astral = 0
    limit = len(data)
    offset = start
    while offset < limit:
        end = min(offset + _EVIDENCE_CHUNK, limit)
        chunk = data[offset:end]
        pending = decoder.getstate()[0]
        final = end == len(data)
        # Never the final call: a sequence cut off by the end of the body stays pending
        # and counts neither way (a body cut short is judged without its last character).
        text = decoder.decode(chunk, False)
        characters += len(text)
        replaced += text.count("\ufffd")
        chunk_high = len(chunk) - len(chunk.translate(None, _HIGH))
        high += chunk_high
        chunk_ascii = len(chunk) - chunk_high
        extra += len(text.encode("utf-8", "surrogatepass")) - chunk_ascii
        astral += len(text.encode("utf-16-le", "surrogatepass")) // 2 - len(text)
        # A U+FFFD written in the text (EF BF BD) is a valid sequence, not an error; one
        # that straddles the chunk boundary starts in the last two bytes of the previous
        # chunk.
        literal += data.count(_LITERAL_FFFD, max(start, offset - 2), end)
        if after_error is not None and limit == len(data) and replaced > literal:
            # The first invalid sequence is in this chunk: read on to the window after it.
            limit = min(len(data), _first_error(pending + chunk, final, offset - len(pending)))
            limit = min(len(data), limit + after_error)
        offset = end
    # Bytes of a sequence cut off by the limit or by the end of the body stay pending in
    # the decoder: they are neither counted as ASCII nor as a sequence.
    ascii_bytes = offset - start - high
    invalid = replaced - literal
    non_ascii = characters - ascii_bytes
    # non_ascii = two + wide + astral and extra = 2 two + 3 wide + 4 astral, where wide
    # counts every U+FFFD (three bytes re-encoded) and the valid three-byte sequences.
    wide = extra - 2 * non_ascii - 2 * astral
    return Utf8Evidence(
        valid=non_ascii - invalid, invalid=invalid, three=wide - invalid, four=astral
    )


def _first_error(data: bytes, final: bool, offset: int) -> int:
    """The body offset of the first invalid sequence in *data* (which starts at body
    offset *offset* on a character boundary)."""
    try:
        codecs.utf_8_decode(data, "strict", final)
    except UnicodeDecodeError as error:
        return offset + error.start
    return offset + len(data)  # pragma: no cover - the caller saw a U+FFFD


def mostly_utf8(data: bytes) -> Utf8Evidence | None:
    """The evidence when *data* is mostly, but not entirely, UTF-8 (see the module
    docstring for the rule), else None. *data* is the whole body: the valid text before
    the first invalid sequence counts however long it is, and so does the window after
    it."""
    return accepted(rule_evidence(data))


def rule_evidence(data: bytes) -> Utf8Evidence:
    """The counts :func:`mostly_utf8` reads: from the first non-ASCII byte to
    :data:`WINDOW` bytes past the first invalid sequence."""
    return _count(data, after_error=WINDOW)


def accepted(evidence: Utf8Evidence) -> Utf8Evidence | None:
    """*evidence* when it makes the body mostly UTF-8 (the module docstring), else None."""
    if evidence.invalid == 0 or evidence.valid < RATIO * evidence.invalid:
        return None
    if evidence.likelihood > LIKELIHOOD:
        return None
    return evidence
