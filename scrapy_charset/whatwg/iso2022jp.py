"""Encoding Standard, section 12.2 "ISO-2022-JP": the decoder.

https://encoding.spec.whatwg.org/#iso-2022-jp-decoder

The decoder is a state machine switched by escape sequences. The input is split at each
ESC (0x1B): every piece after the first starts where the spec's decoder is in its
"escape start" state, and the bytes between two escapes are decoded in one state:

- ASCII, Roman and katakana states map each byte on its own (a ``charmap_decode`` table,
  U+FFFD where the spec returns an error);
- the lead byte state (JIS X 0208) reads pairs of bytes 0x21 to 0x7E: a well-formed run is
  decoded as EUC-JP (each byte plus 0x80), which uses the same index and pointer formula.

The "output flag" rule is kept: an escape sequence directly after another one (nothing
decoded between them) is an error.

Python's C codec decodes most of a document as the standard does: the stretches that only
switch between ASCII (or Roman) and JIS X 0208, with no control byte in a JIS X 0208 run
and no escape sequence right after another one (``_PYTHON_EXACT``, one linear match).
There it runs with EUC-JP's corrections (the same JIS X 0208 index): its errors go
through an error handler that returns the standard's, the characters it maps
differently are translated. Between such stretches the state machine runs, from the
state the stretch left, up to an escape sequence that sets the state for both.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING

from scrapy_charset.whatwg.cjk import DECODERS

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["decode"]

_FFFD = "\ufffd"
_ASCII, _ROMAN, _KATAKANA, _LEAD = "ascii", "roman", "katakana", "lead byte"

#: Escape sequences (after ESC) -> the state they switch to.
_ESCAPES = {b"(B": _ASCII, b"(J": _ROMAN, b"(I": _KATAKANA, b"$@": _LEAD, b"$B": _LEAD}


def _table(mapping: dict[int, int]) -> str:
    # ESC only joins runs (see _decode_pieces): it decodes to itself as a marker.
    mapping = {**mapping, 0x1B: 0x1B}
    return "".join(chr(mapping.get(byte, 0xFFFD)) for byte in range(256))


_PLAIN = {byte: byte for byte in range(0x80) if byte not in (0x0E, 0x0F, 0x1B)}
_TABLES = {
    # ISO-2022-JP ASCII state: 0x00-0x7F except 0x0E, 0x0F and 0x1B.
    _ASCII: _table(_PLAIN),
    # Roman state: as ASCII, except 0x5C is U+00A5 YEN SIGN and 0x7E is U+203E OVERLINE.
    _ROMAN: _table({**_PLAIN, 0x5C: 0xA5, 0x7E: 0x203E}),
    # Katakana state: 0x21-0x5F are U+FF61 - 0x21 + byte.
    _KATAKANA: _table({byte: 0xFF61 - 0x21 + byte for byte in range(0x21, 0x60)}),
}
#: A JIS X 0208 run as EUC-JP: each byte 0x21-0x7E plus 0x80 (pointer (lead - 0x21) * 94 +
#: trail - 0x21 in jis0208 is EUC-JP's (lead - 0xA1) * 94 + trail - 0xA1), any other byte
#: 0x80, an error alone or as a trail byte, consumed as in the lead and trail byte states.
_JIS_TO_EUC_JP = bytes(
    byte + 0x80 if 0x21 <= byte <= 0x7E else 0x0A if byte == 0x1B else 0x80 for byte in range(256)
)
_EUC_JP = DECODERS["EUC-JP"]


#: The input Python's C codec decodes as the standard does (with the error handler below):
#: an ASCII run, then JIS X 0208 runs each followed by an ASCII or Roman run, and at the
#: end a JIS X 0208 run left open or closed. Runs between escape sequences are not empty
#: (the output flag makes an escape sequence right after another one an error), a JIS X
#: 0208 run holds no control byte (the C codec passes those through), an ASCII or Roman
#: run no SO or SI (likewise), and only ESC ( B, ESC ( J, ESC $ B and ESC $ @ occur (the
#: C codec designates ESC ) B, ESC $ ( B and the like silently). Matched from an escape
#: sequence, the first one may be ESC ( B or ESC ( J. Possessive, so linear.
_PYTHON_EXACT = re.compile(
    rb"(?:\x1b\([BJ](?!\x1b))?[^\x0e\x0f\x1b]*+"
    rb"(?:\x1b\$[B@][^\x00-\x1f]++\x1b\([BJ][^\x0e\x0f\x1b]++)*+"
)
_PYTHON_EXACT_END = re.compile(rb"\x1b\$[B@][^\x00-\x1f]*+(?:\x1b\([BJ])?")
#: An escape sequence after which both decoders are in the same state, not right after
#: another escape sequence (whose output flag would make it an error).
_RESYNC = re.compile(rb"(?s)(?<!\x1b..)\x1b(?:\([BJ]|\$[B@])")
_MACHINE_RUN = 512
_ERRORS = "scrapy_charset.whatwg.iso-2022-jp"


class _NotAPair(Exception):
    """An error of the C codec that the handler cannot settle without the decoder's state."""


def _on_error(exc: UnicodeError) -> tuple[str, int]:
    """The standard's error output where the C codec raises in a run.

    The C codec raises for one byte 0x80 or above (in any state: one error, the byte
    consumed), and for a JIS X 0208 pair it lacks or that is malformed. Where the first
    byte is ESC (an escape sequence it refuses) the decoder's state is needed: the
    input goes to the state machine.
    """
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    data, start, end = exc.object, exc.start, exc.end
    lead = data[start]
    if lead == 0x1B:
        raise _NotAPair
    if end - start == 1:
        # A byte 0x80 or above (ASCII, Roman and lead byte states), or a lone byte at the
        # end in a JIS X 0208 run (trail byte state at end-of-queue): one error.
        return _FFFD, end
    if end - start != 2:
        raise _NotAPair
    if lead in (0x20, 0x7F):
        # Lead byte state: a byte outside 0x21-0x7E is an error; the next byte is a lead.
        return _FFFD, start + 1
    trail = data[start + 1]
    if 0x21 <= trail <= 0x7E:
        found = _EUC_JP.lookup(bytes((lead + 0x80, trail + 0x80)))
        return (_FFFD if found is None else found), end
    if trail == 0x1B:
        # Trail byte state, 0x1B: an error, and the escape sequence is read again.
        return _FFFD, start + 1
    # Trail byte state, any other byte: an error, and the byte is consumed.
    return _FFFD, end


codecs.register_error(_ERRORS, _on_error)


def _c_codec(data: bytes) -> str | None:
    """Python's C codec over *data* with the handler above, or None where it cannot."""
    try:
        text = data.decode("iso2022_jp", _ERRORS)
    except _NotAPair:
        return None
    return _EUC_JP.apply_fixes(text)


def decode(data: Buffer) -> str:
    """The ISO-2022-JP decoder over *data*."""
    data = bytes(data)
    if data.isascii() and b"\x1b" not in data and b"\x0e" not in data and b"\x0f" not in data:
        return data.decode("ascii")
    text = _whole(data)
    if text is not None:
        return _EUC_JP.apply_fixes(text)
    out = []
    pos, end = 0, len(data)
    while pos < end:
        # The longest stretch from *pos* that the C codec decodes as the standard does.
        exact = _PYTHON_EXACT.match(data, pos)  # matches at least the empty stretch
        stop = exact.end() if exact else pos
        if stop < end and _PYTHON_EXACT_END.fullmatch(data, stop):
            stop = end
        while stop - pos >= 3 and data[stop - 3] == 0x1B:
            stop -= 3  # an escape sequence at the end: the output flag is the next one's
        text = _c_codec(data[pos:stop]) if stop > pos else ""
        if text is None:  # not expected: the state machine, from the same state
            stop = pos
        else:
            out.append(text)
        if stop == end:
            break
        # The state there: ASCII or Roman (a stretch ends after those runs), from the last
        # escape sequence; the stretch starts at one, or at the start of the input.
        escape = data.rfind(b"\x1b", pos, stop)
        state = _ASCII if escape < 0 else _ESCAPES[data[escape + 1 : escape + 3]]
        # The state machine up to an escape sequence that sets the state for both decoders
        # and does not follow another escape sequence right away; at least _MACHINE_RUN
        # bytes, so that dense errors do not make many short stretches.
        pos = _resync(data, stop + _MACHINE_RUN)
        out.append(_decode_pieces(data[stop:pos], state))
    return "".join(out)


def _whole(data: bytes) -> str | None:
    """The C codec's text for the whole of *data*, where it is the standard's (uncorrected).

    Where Python's encoder gives *data* back from that text, *data* has the shape of its
    output: only ESC ( B, ESC ( J and ESC $ B, each followed by a character, and JIS X 0208
    runs of pairs only. That is cheaper to check than ``_PYTHON_EXACT``, which is the test
    for the other inputs. SO, SI and ESC passed through (an unknown escape sequence) are
    text the encoder gives back, so they are looked for first.
    """
    if b"\x0e" in data or b"\x0f" in data:
        return None
    try:
        text = data.decode("iso2022_jp", _ERRORS)
    except _NotAPair:
        return None
    if "\x1b" in text:
        return None
    if "\ufffd" not in text:
        try:
            if text.encode("iso2022_jp") == data:
                return text
        except UnicodeEncodeError:  # a character the decoder took from the index
            pass
    exact = _PYTHON_EXACT.match(data)
    stop = exact.end() if exact else 0
    if stop < len(data) and not _PYTHON_EXACT_END.fullmatch(data, stop):
        return None
    if data[-6:-5] == b"\x1b" and data[-3:-2] == b"\x1b":
        return None  # ESC $ B ESC ( B at the end: the output flag makes the second an error
    return text


def _resync(data: bytes, start: int) -> int:
    """The first ESC from *start* where the C codec can take over, or the end."""
    found = _RESYNC.search(data, start)
    return len(data) if found is None else found.start()


def _decode_pieces(data: bytes, state: str = _ASCII) -> str:
    """The state machine, run by pieces between escapes.

    The runs of each state are decoded together, joined by ESC (which none of them holds):
    a run's decoder starts anew after each ESC, so the output splits back at the marker
    the joined decoding gives ESC. A JIS X 0208 run that ends on a lead byte ends with an
    error: the trail byte state meeting ESC (the escape sequence is then read) or the end
    of the queue.
    """
    pieces = data.split(b"\x1b")
    states = [state]  # per run: its state,
    errors = [False]  # whether an error comes before it,
    bodies = [pieces[0]]  # and its bytes
    output_flag = False  # the decoder's "output state" is *state*
    get_escape = _ESCAPES.get
    for piece in pieces[1:]:
        switch = get_escape(piece[:2])
        if switch is None:
            # Not an escape sequence: an error, and the bytes after ESC are prepended,
            # i.e. decoded again in the output state.
            errors.append(True)
            bodies.append(piece)
            output_flag = False
        else:
            state = switch
            errors.append(output_flag)  # two escape sequences in a row: an error
            body = piece[2:]
            bodies.append(body)
            output_flag = not body
        states.append(state)
    used = set(states)
    decoded = {}
    for name in used:
        runs = bodies
        if len(used) > 1:
            runs = [
                body for body, run_state in zip(bodies, states, strict=True) if run_state is name
            ]
        decoded[name] = iter(_decode_runs(runs, name).split("\x1b"))
    return "".join(
        _FFFD + next(decoded[name]) if error else next(decoded[name])
        for error, name in zip(errors, states, strict=True)
    )


def _decode_runs(bodies: list[bytes], state: str) -> str:
    """The runs of one state, joined by ESC, decoded; ESC decodes to U+001B."""
    joined = b"\x1b".join(bodies)
    if state == _LEAD:
        # ESC becomes LF, which ends a JIS X 0208 run as EUC-JP: after a lead byte it is
        # an error and read again, so a run ending on a lead byte ends with U+FFFD.
        text = _EUC_JP.decode(joined.translate(_JIS_TO_EUC_JP))
        return text.replace("\n", "\x1b")
    return codecs.charmap_decode(joined, "strict", _TABLES[state])[0]
