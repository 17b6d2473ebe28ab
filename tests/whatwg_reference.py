"""A straightforward reference of the Encoding Standard's decoders, for tests only.

Each decoder is written as the standard writes it: a handler that takes one byte (or
end-of-queue) and returns "continue", "finished", an error, or code points, with bytes
prepended to the queue when the standard says "prepend". It is slow on purpose: it mirrors
the spec's steps one by one so that the fast decoders can be compared against it.

https://encoding.spec.whatwg.org/#decoders
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from tests.spec import SPEC_DIR

INDEX_DIR = SPEC_DIR / "whatwg-encoding"

EOQ = -1  # end-of-queue
CONTINUE = "continue"
FINISHED = "finished"
ERROR = "\ufffd"  # the decoders' error mode is "replacement"

Result = str  # CONTINUE, FINISHED, ERROR or the code points to emit


@functools.cache
def index(name: str) -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#indexes: pointer -> code point."""
    table: dict[int, int] = {}
    path = Path(INDEX_DIR / f"index-{name}.txt")
    # split("\n"), not splitlines(): the third column holds the character, maybe U+0085.
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        table[int(fields[0])] = int(fields[1], 16)
    return table


@functools.cache
def _ranges() -> list[tuple[int, int]]:
    return sorted(index("gb18030-ranges").items())


def gb18030_ranges_code_point(pointer: int) -> int | None:
    """https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point"""
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    offset, code_point_offset = 0, 0
    for p, cp in _ranges():
        if p <= pointer:
            offset, code_point_offset = p, cp
        else:
            break
    return code_point_offset + pointer - offset


class Decoder:
    prepend: list[int]

    def __init__(self) -> None:
        self.prepend = []

    def handler(self, byte: int) -> Result:
        raise NotImplementedError


def run(decoder: Decoder, data: bytes) -> str:
    """https://encoding.spec.whatwg.org/#concept-encoding-run (error mode replacement)."""
    out: list[str] = []
    pos = 0
    while True:
        if decoder.prepend:
            byte = decoder.prepend.pop(0)
        elif pos < len(data):
            byte = data[pos]
            pos += 1
        else:
            byte = EOQ
        result = decoder.handler(byte)
        if result == FINISHED:
            return "".join(out)
        if result != CONTINUE:
            out.append(result)


class UTF8(Decoder):
    """https://encoding.spec.whatwg.org/#utf-8-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.cp = self.seen = self.needed = 0
        self.lower, self.upper = 0x80, 0xBF

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            if self.needed:
                self.needed = 0
                return ERROR
            return FINISHED
        if self.needed == 0:
            if byte <= 0x7F:
                return chr(byte)
            if 0xC2 <= byte <= 0xDF:
                self.needed, self.cp = 1, byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    self.lower = 0xA0
                if byte == 0xED:
                    self.upper = 0x9F
                self.needed, self.cp = 2, byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    self.lower = 0x90
                if byte == 0xF4:
                    self.upper = 0x8F
                self.needed, self.cp = 3, byte & 0x7
            else:
                return ERROR
            return CONTINUE
        if not self.lower <= byte <= self.upper:
            self.cp = self.needed = self.seen = 0
            self.lower, self.upper = 0x80, 0xBF
            self.prepend.insert(0, byte)
            return ERROR
        self.lower, self.upper = 0x80, 0xBF
        self.cp = (self.cp << 6) | (byte & 0x3F)
        self.seen += 1
        if self.seen != self.needed:
            return CONTINUE
        cp = self.cp
        self.cp = self.needed = self.seen = 0
        return chr(cp)


class UTF16(Decoder):
    """https://encoding.spec.whatwg.org/#shared-utf-16-decoder"""

    def __init__(self, be: bool) -> None:
        super().__init__()
        self.be = be
        self.lead_byte: int | None = None
        self.lead_surrogate: int | None = None

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            if self.lead_byte is not None or self.lead_surrogate is not None:
                self.lead_byte = self.lead_surrogate = None
                return ERROR
            return FINISHED
        if self.lead_byte is None:
            self.lead_byte = byte
            return CONTINUE
        unit = (self.lead_byte << 8) + byte if self.be else (byte << 8) + self.lead_byte
        self.lead_byte = None
        if self.lead_surrogate is not None:
            lead = self.lead_surrogate
            self.lead_surrogate = None
            if 0xDC00 <= unit <= 0xDFFF:
                return chr(0x10000 + ((lead - 0xD800) << 10) + (unit - 0xDC00))
            unit_bytes = [unit >> 8, unit & 0xFF]
            if not self.be:
                unit_bytes.reverse()
            self.prepend[:0] = unit_bytes
            return ERROR
        if 0xD800 <= unit <= 0xDBFF:
            self.lead_surrogate = unit
            return CONTINUE
        if 0xDC00 <= unit <= 0xDFFF:
            return ERROR
        return chr(unit)


class SingleByte(Decoder):
    """https://encoding.spec.whatwg.org/#single-byte-decoder"""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.index = index(name.lower())

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            return FINISHED
        if byte <= 0x7F:
            return chr(byte)
        cp = self.index.get(byte - 0x80)
        return ERROR if cp is None else chr(cp)


class XUserDefined(Decoder):
    """https://encoding.spec.whatwg.org/#x-user-defined-decoder"""

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            return FINISHED
        if byte <= 0x7F:
            return chr(byte)
        return chr(0xF780 + byte - 0x80)


class Replacement(Decoder):
    """https://encoding.spec.whatwg.org/#replacement-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.error_returned = False

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            return FINISHED
        if not self.error_returned:
            self.error_returned = True
            return ERROR
        return FINISHED


class GB18030(Decoder):
    """https://encoding.spec.whatwg.org/#gb18030-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.first = self.second = self.third = 0
        self.index = index("gb18030")

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            if self.first == self.second == self.third == 0:
                return FINISHED
            self.first = self.second = self.third = 0
            return ERROR
        if self.third:
            if not 0x30 <= byte <= 0x39:
                self.prepend[:0] = [self.second, self.third, byte]
                self.first = self.second = self.third = 0
                return ERROR
            cp = gb18030_ranges_code_point(
                (((self.first - 0x81) * 10 + self.second - 0x30) * 126 + self.third - 0x81) * 10
                + byte
                - 0x30
            )
            self.first = self.second = self.third = 0
            return ERROR if cp is None else chr(cp)
        if self.second:
            if 0x81 <= byte <= 0xFE:
                self.third = byte
                return CONTINUE
            self.prepend[:0] = [self.second, byte]
            self.first = self.second = 0
            return ERROR
        if self.first:
            if 0x30 <= byte <= 0x39:
                self.second = byte
                return CONTINUE
            lead, self.first = self.first, 0
            offset = 0x40 if byte < 0x7F else 0x41
            code_point = None
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:
                code_point = self.index.get((lead - 0x81) * 190 + (byte - offset))
            if code_point is not None:
                return chr(code_point)
            if byte <= 0x7F:
                self.prepend.insert(0, byte)
            return ERROR
        if byte <= 0x7F:
            return chr(byte)
        if byte == 0x80:
            return "\u20ac"
        if 0x81 <= byte <= 0xFE:
            self.first = byte
            return CONTINUE
        return ERROR


#: Big5 pointers that decode to two code points.
BIG5_SPECIAL = {
    1133: "\u00ca\u0304",
    1135: "\u00ca\u030c",
    1164: "\u00ea\u0304",
    1166: "\u00ea\u030c",
}


class Big5(Decoder):
    """https://encoding.spec.whatwg.org/#big5-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.lead = 0
        self.index = index("big5")

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            if self.lead:
                self.lead = 0
                return ERROR
            return FINISHED
        if self.lead:
            lead, self.lead = self.lead, 0
            offset = 0x40 if byte < 0x7F else 0x62
            pointer = None
            if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
                pointer = (lead - 0x81) * 157 + (byte - offset)
            if pointer in BIG5_SPECIAL:
                return BIG5_SPECIAL[pointer]
            code_point = None if pointer is None else self.index.get(pointer)
            if code_point is not None:
                return chr(code_point)
            if byte <= 0x7F:
                self.prepend.insert(0, byte)
            return ERROR
        if byte <= 0x7F:
            return chr(byte)
        if 0x81 <= byte <= 0xFE:
            self.lead = byte
            return CONTINUE
        return ERROR


class EUCJP(Decoder):
    """https://encoding.spec.whatwg.org/#euc-jp-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.jis0212 = False
        self.lead = 0

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            if self.lead:
                self.lead = 0
                return ERROR
            return FINISHED
        if self.lead == 0x8E and 0xA1 <= byte <= 0xDF:
            self.lead = 0
            return chr(0xFF61 - 0xA1 + byte)
        if self.lead == 0x8F and 0xA1 <= byte <= 0xFE:
            self.jis0212 = True
            self.lead = byte
            return CONTINUE
        if self.lead:
            lead, self.lead = self.lead, 0
            code_point = None
            if 0xA1 <= lead <= 0xFE and 0xA1 <= byte <= 0xFE:
                pointer = (lead - 0xA1) * 94 + byte - 0xA1
                code_point = index("jis0212" if self.jis0212 else "jis0208").get(pointer)
            self.jis0212 = False
            if code_point is not None:
                return chr(code_point)
            if byte <= 0x7F:
                self.prepend.insert(0, byte)
            return ERROR
        if byte <= 0x7F:
            return chr(byte)
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:
            self.lead = byte
            return CONTINUE
        return ERROR


class ISO2022JP(Decoder):
    """https://encoding.spec.whatwg.org/#iso-2022-jp-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.state = self.output_state = "ascii"
        self.lead = 0
        self.output = False

    def handler(self, byte: int) -> Result:
        state = self.state
        if state in ("ascii", "roman"):
            if byte == 0x1B:
                self.state = "escape start"
                return CONTINUE
            if 0 <= byte <= 0x7F and byte not in (0x0E, 0x0F, 0x1B):
                self.output = False
                if state == "roman" and byte == 0x5C:
                    return "\u00a5"
                if state == "roman" and byte == 0x7E:
                    return "\u203e"
                return chr(byte)
            if byte == EOQ:
                return FINISHED
            self.output = False
            return ERROR
        if state == "katakana":
            if byte == 0x1B:
                self.state = "escape start"
                return CONTINUE
            if 0x21 <= byte <= 0x5F:
                self.output = False
                return chr(0xFF61 - 0x21 + byte)
            if byte == EOQ:
                return FINISHED
            self.output = False
            return ERROR
        if state == "lead byte":
            if byte == 0x1B:
                self.state = "escape start"
                return CONTINUE
            if 0x21 <= byte <= 0x7E:
                self.output = False
                self.lead = byte
                self.state = "trail byte"
                return CONTINUE
            if byte == EOQ:
                return FINISHED
            self.output = False
            return ERROR
        if state == "trail byte":
            if byte == 0x1B:
                self.state = "escape start"
                return ERROR
            if 0x21 <= byte <= 0x7E:
                self.state = "lead byte"
                pointer = (self.lead - 0x21) * 94 + byte - 0x21
                code_point = index("jis0208").get(pointer)
                return ERROR if code_point is None else chr(code_point)
            if byte == EOQ:
                self.state = "lead byte"
                self.prepend.insert(0, byte)
                return ERROR
            self.state = "lead byte"
            return ERROR
        if state == "escape start":
            if byte in (0x24, 0x28):
                self.lead = byte
                self.state = "escape"
                return CONTINUE
            self.prepend.insert(0, byte)
            self.output = False
            self.state = self.output_state
            return ERROR
        # escape
        lead, self.lead = self.lead, 0
        new_state = None
        if lead == 0x28 and byte == 0x42:
            new_state = "ascii"
        elif lead == 0x28 and byte == 0x4A:
            new_state = "roman"
        elif lead == 0x28 and byte == 0x49:
            new_state = "katakana"
        elif lead == 0x24 and byte in (0x40, 0x42):
            new_state = "lead byte"
        if new_state is not None:
            self.state = self.output_state = new_state
            output, self.output = self.output, True
            return ERROR if output else CONTINUE
        self.prepend[:0] = [lead, byte]
        self.output = False
        self.state = self.output_state
        return ERROR


class ShiftJIS(Decoder):
    """https://encoding.spec.whatwg.org/#shift_jis-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.lead = 0
        self.index = index("jis0208")

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            if self.lead:
                self.lead = 0
                return ERROR
            return FINISHED
        if self.lead:
            lead, self.lead = self.lead, 0
            offset = 0x40 if byte < 0x7F else 0x41
            lead_offset = 0x81 if lead < 0xA0 else 0xC1
            pointer = None
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
                pointer = (lead - lead_offset) * 188 + byte - offset
            if pointer is not None and 8836 <= pointer <= 10715:
                return chr(0xE000 - 8836 + pointer)
            code_point = None if pointer is None else self.index.get(pointer)
            if code_point is not None:
                return chr(code_point)
            if byte <= 0x7F:
                self.prepend.insert(0, byte)
            return ERROR
        if byte <= 0x80:
            return chr(byte)
        if 0xA1 <= byte <= 0xDF:
            return chr(0xFF61 - 0xA1 + byte)
        if 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:
            self.lead = byte
            return CONTINUE
        return ERROR


class EUCKR(Decoder):
    """https://encoding.spec.whatwg.org/#euc-kr-decoder"""

    def __init__(self) -> None:
        super().__init__()
        self.lead = 0
        self.index = index("euc-kr")

    def handler(self, byte: int) -> Result:
        if byte == EOQ:
            if self.lead:
                self.lead = 0
                return ERROR
            return FINISHED
        if self.lead:
            lead, self.lead = self.lead, 0
            code_point = None
            if 0x41 <= byte <= 0xFE:
                code_point = self.index.get((lead - 0x81) * 190 + (byte - 0x41))
            if code_point is not None:
                return chr(code_point)
            if byte <= 0x7F:
                self.prepend.insert(0, byte)
            return ERROR
        if byte <= 0x7F:
            return chr(byte)
        if 0x81 <= byte <= 0xFE:
            self.lead = byte
            return CONTINUE
        return ERROR


SINGLE_BYTE = [
    "IBM866",
    "ISO-8859-2",
    "ISO-8859-3",
    "ISO-8859-4",
    "ISO-8859-5",
    "ISO-8859-6",
    "ISO-8859-7",
    "ISO-8859-8",
    "ISO-8859-8-I",
    "ISO-8859-10",
    "ISO-8859-13",
    "ISO-8859-14",
    "ISO-8859-15",
    "ISO-8859-16",
    "KOI8-R",
    "KOI8-U",
    "macintosh",
    "windows-874",
    "windows-1250",
    "windows-1251",
    "windows-1252",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "x-mac-cyrillic",
]


def _single_byte(name: str) -> Callable[[], Decoder]:
    index_name = "iso-8859-8" if name == "ISO-8859-8-I" else name.lower()
    return lambda: SingleByte(index_name)


DECODERS: dict[str, Callable[[], Decoder]] = {
    "UTF-8": UTF8,
    **{name: _single_byte(name) for name in SINGLE_BYTE},
    "GBK": GB18030,
    "gb18030": GB18030,
    "Big5": Big5,
    "EUC-JP": EUCJP,
    "ISO-2022-JP": ISO2022JP,
    "Shift_JIS": ShiftJIS,
    "EUC-KR": EUCKR,
    "replacement": Replacement,
    "UTF-16BE": lambda: UTF16(be=True),
    "UTF-16LE": lambda: UTF16(be=False),
    "x-user-defined": XUserDefined,
}


def reference_decode(data: bytes, encoding: str) -> str:
    """The encoding's decoder run over *data* (no BOM handling), error mode replacement."""
    return run(DECODERS[encoding](), data)
