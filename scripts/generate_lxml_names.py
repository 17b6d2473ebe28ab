"""Measure which encoding name makes the installed lxml decode as a browser does.

``response.encoding`` is read by Python's codec registry and by lxml (libxml2 and the
libiconv lxml's wheels bundle), whose tables are not Python's. For every encoding the
package decodes, this script feeds lxml's HTML and XML parsers every byte sequence the
Encoding Standard's decoder maps to a character (every single byte, every pointer of
every index, gb18030's four-byte ranges, every code point of UTF-8 and UTF-16), under each
candidate name, and compares what lxml reads with the browser's text (the package's
decoders, generated from and tested against the standard's indexes).

The candidates of an encoding are the spellings Python's codec registry resolves to the
codec of its standard name (``STANDARD_NAMES``): Python's own aliases of that codec and
the encoding's WHATWG labels, so that Python reads the body exactly where the package's
per-body test says it does. The name kept is the one with the fewest sequences lxml reads
otherwise (the standard name when it is as good), and those sequences are recorded:
a body that holds one of them gets the ``whatwg-*`` codec, which lxml refuses loudly.

The comparison is lxml against lxml: each sequence's text is parsed as UTF-8 by the same
parser, so what a parser does to any text (an XML parser's refusal of a control
character, line-end normalisation) is not counted as the encoding's. Sequences whose
characters XML does not allow are compared through the HTML parser only.

Writes ``scrapy_charset/whatwg/_lxml_names.py``, which records the lxml, libxml2 and
libiconv versions it was measured with and :func:`fingerprint`, a SHA-256 of what lxml
read for every sequence under the kept names; ``--check`` writes nothing and fails when
the module differs from what the installed lxml gives (the versions aside when the
fingerprint is the same).

Usage::

    python scripts/generate_lxml_names.py [--package DIR] [--check] [--report]
"""

from __future__ import annotations

import argparse
import codecs
import encodings.aliases
import functools
import hashlib
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # the reference decoders are the package's own
    sys.path.insert(0, str(REPO))

import lxml  # noqa: E402
import lxml.etree  # noqa: E402

from scrapy_charset.whatwg import singlebyte  # noqa: E402
from scrapy_charset.whatwg._labels import LABELS  # noqa: E402
from scrapy_charset.whatwg.codecs import DECODERS, STANDARD_NAMES  # noqa: E402

OUT = REPO / "scrapy_charset" / "whatwg" / "_lxml_names.py"

#: Sequences per document; a document lxml does not read whole is bisected.
BATCH = 4096

#: The two parsers every sequence goes through.
PARSERS: dict[str, Callable[[str], lxml.etree._FeedParser]] = {
    "html": lambda name: lxml.etree.HTMLParser(encoding=name),
    "xml": lambda name: lxml.etree.XMLParser(encoding=name, resolve_entities=False),
}

_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def versions() -> dict[str, str]:
    """The versions of lxml and of the libxml2 it runs (lxml does not say which libiconv
    it was built with: the fingerprint stands for it)."""
    return {
        "LXML_VERSION": lxml.__version__,
        "LIBXML_VERSION": ".".join(map(str, lxml.etree.LIBXML_VERSION)),
    }


# --- the sequences ---------------------------------------------------------------------


def _pairs(leads: Iterable[int], trails: Iterable[int]) -> Iterator[bytes]:
    trail_list = list(trails)
    for lead in leads:
        for trail in trail_list:
            yield bytes((lead, trail))


def _span(*spans: tuple[int, int]) -> list[int]:
    return [byte for low, high in spans for byte in range(low, high + 1)]


#: Bytes that cannot stand in a document's text without being markup.
_MARKUP = frozenset(b"<&")


def _gb18030_four_byte() -> Iterator[bytes]:
    for a in range(0x81, 0xFF):
        for b in range(0x30, 0x3A):
            for c in range(0x81, 0xFF):
                for d in range(0x30, 0x3A):
                    yield bytes((a, b, c, d))


def _iso2022jp() -> Iterator[bytes]:
    for pair in _pairs(range(0x21, 0x7F), range(0x21, 0x7F)):
        yield b"\x1b$B" + pair + b"\x1b(B"
    for byte in range(0x21, 0x60):
        yield b"\x1b(I" + bytes((byte,)) + b"\x1b(B"
    for byte in range(0x20, 0x7F):
        if byte not in _MARKUP:
            yield b"\x1b(J" + bytes((byte,)) + b"\x1b(B"


def sequences(name: str) -> Iterator[bytes]:
    """Every sequence the browser's decoder of *name* maps to a character on its own
    (markup bytes aside: a document's structure tests them)."""
    if name in ("UTF-8", "UTF-16BE", "UTF-16LE"):
        python = {"UTF-8": "utf-8", "UTF-16BE": "utf-16-be", "UTF-16LE": "utf-16-le"}[name]
        for code_point in range(0x110000):
            if 0xD800 <= code_point <= 0xDFFF or code_point in _MARKUP or code_point == 0xFEFF:
                continue
            yield chr(code_point).encode(python)
        return
    singles = (bytes((byte,)) for byte in range(0x100) if byte not in _MARKUP)
    if name == "ISO-2022-JP":
        yield from (single for single in singles if single[0] < 0x80 and single[0] != 0x1B)
        yield from _iso2022jp()
        return
    yield from singles
    if name in singlebyte.DECODING_TABLES:
        return
    if name in ("GBK", "gb18030"):  # one decoder (the standard's gb18030 decoder)
        yield from _pairs(range(0x81, 0xFF), _span((0x40, 0x7E), (0x80, 0xFE)))
        yield from _gb18030_four_byte()
    elif name == "Big5":
        yield from _pairs(range(0x81, 0xFF), _span((0x40, 0x7E), (0xA1, 0xFE)))
    elif name == "EUC-JP":
        yield from _pairs(range(0xA1, 0xFF), range(0xA1, 0xFF))
        yield from (b"\x8e" + bytes((byte,)) for byte in range(0xA1, 0xE0))
        yield from (b"\x8f" + pair for pair in _pairs(range(0xA1, 0xFF), range(0xA1, 0xFF)))
    elif name == "Shift_JIS":
        yield from _pairs(_span((0x81, 0x9F), (0xE0, 0xFC)), _span((0x40, 0x7E), (0x80, 0xFC)))
    elif name == "EUC-KR":
        yield from _pairs(range(0x81, 0xFF), range(0x41, 0xFF))


def _combining_pairs(name: str) -> Iterator[bytes]:
    """For a single-byte encoding: each byte that decodes to a combining mark after each
    byte that decodes to a letter (a decoder that composes them reads the pair otherwise)."""
    table = singlebyte.DECODING_TABLES[name]
    marks = [byte for byte in range(0x80, 0x100) if unicodedata.combining(table[byte])]
    letters = [byte for byte in range(0x100) if table[byte].isalpha()]
    for mark in marks:
        for letter in letters:
            yield bytes((letter, mark))


def browser_text(name: str, sequence: bytes) -> str | None:
    """The browser's text for *sequence* alone, or None where it holds an error."""
    text = DECODERS[name](sequence)
    return None if "\ufffd" in text else text


# --- the documents ---------------------------------------------------------------------


def _frame(name: str) -> tuple[bytes, bytes, bytes, bytes, str]:
    """(start, open, close, end, python codec) of a document in *name*."""
    python = {"UTF-16BE": "utf-16-be", "UTF-16LE": "utf-16-le"}.get(name, "ascii")
    return (
        "<d>".encode(python),
        "<i>".encode(python),
        "</i>".encode(python),
        "</d>".encode(python),
        python,
    )


def _texts(document: bytes, parser: str, codec: str) -> list[str] | str:
    """The text of each ``<i>`` lxml reads in *document*, or the error it raised."""
    try:
        root = lxml.etree.fromstring(document, PARSERS[parser](codec))
    except (lxml.etree.LxmlError, LookupError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    if root is None:
        return "no document"
    return ["".join(item.itertext()) for item in root.iter("i")]


def read(
    name: str, codec: str, parser: str, batch: list[tuple[bytes, str]]
) -> Iterator[tuple[bytes, str, str]]:
    """``(sequence, browser's text, lxml's text)`` for each sequence of *batch*, read
    by *parser* under *codec*; the text lxml reads for the browser's text as UTF-8 stands
    for the browser's (lxml against lxml). A document lxml does not read whole is
    bisected down to single sequences, whose failure is their text."""
    start, opening, closing, end, python = _frame(name)
    document = start + b"".join(opening + seq + closing for seq, _ in batch) + end
    found = _texts(document, parser, codec)
    if python == "ascii":
        utf8 = b"<d>" + b"".join(b"<i>" + t.encode() + b"</i>" for _, t in batch) + b"</d>"
    else:
        utf8 = ("<d>" + "".join(f"<i>{t}</i>" for _, t in batch) + "</d>").encode()
    expected = _texts(utf8, parser, "utf-8")
    if (
        isinstance(found, list)
        and isinstance(expected, list)
        and len(found) == len(expected) == len(batch)
    ):
        for (seq, _), want, got in zip(batch, expected, found, strict=True):
            yield seq, want, got
        return
    if len(batch) == 1:
        seq, text = batch[0]
        want = expected[0] if isinstance(expected, list) and len(expected) == 1 else text
        got = found[0] if isinstance(found, list) and len(found) == 1 else str(found)
        yield seq, want, got
        return
    half = len(batch) // 2
    yield from read(name, codec, parser, batch[:half])
    yield from read(name, codec, parser, batch[half:])


def _batches(name: str, parser: str) -> Iterator[list[tuple[bytes, str]]]:
    sequences_of = sequences(name)
    if name in singlebyte.DECODING_TABLES:
        sequences_of = _chain(sequences_of, _combining_pairs(name))
    batch: list[tuple[bytes, str]] = []
    for seq in sequences_of:
        text = browser_text(name, seq)
        if text is None or (parser == "xml" and _XML_CHAR.search(text)):
            continue
        batch.append((seq, text))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _chain(*parts: Iterable[bytes]) -> Iterator[bytes]:
    for part in parts:
        yield from part


Differing = dict[bytes, dict[str, tuple[str, str]]]

#: Encodings whose decoder is another's: measured once.
_SAME_DECODER = {"GBK": "gb18030", "ISO-8859-8-I": "ISO-8859-8"}


@functools.cache
def measure(name: str, codec: str) -> tuple[Differing, str]:
    """``(differing, digest)``: the sequences lxml reads otherwise than the browser under
    *codec* (sequence -> parser -> (browser's text, lxml's)), and a SHA-256 of what lxml
    read for every sequence."""
    if name in _SAME_DECODER:
        return measure(_SAME_DECODER[name], codec)
    differing: Differing = {}
    digest = hashlib.sha256()
    for parser in PARSERS:
        digest.update(f"{codec} {parser}\n".encode())
        for batch in _batches(name, parser):
            for seq, want, got in read(name, codec, parser, batch):
                digest.update(seq + b"\x00" + got.encode("utf-8", "surrogatepass") + b"\x00")
                if got != want:
                    differing.setdefault(seq, {})[parser] = (want, got)
    return differing, digest.hexdigest()


def candidates(name: str) -> list[str]:
    """The spellings Python resolves to the codec of *name*'s standard name, that lxml
    knows: the standard name first."""
    standard = STANDARD_NAMES[name]
    codec = codecs.lookup(standard).name
    spellings = [standard, codec.replace("_", "-")]
    spellings += sorted(
        alias.replace("_", "-")
        for alias, module in encodings.aliases.aliases.items()
        if _same_codec(alias, codec) and not module.startswith("x")
    )
    spellings += sorted(label for label, encoding in LABELS.items() if encoding == name)
    out: list[str] = []
    for spelling in spellings:
        if spelling in out or not _same_codec(spelling, codec) or not _lxml_knows(spelling):
            continue
        out.append(spelling)
    return out


def _same_codec(spelling: str, codec: str) -> bool:
    try:
        return codecs.lookup(spelling).name == codec
    except LookupError:
        return False


def _lxml_knows(spelling: str) -> bool:
    try:
        lxml.etree.XMLParser(encoding=spelling)
        lxml.etree.HTMLParser(encoding=spelling)
    except LookupError:
        return False
    return True


def choose(name: str) -> tuple[str, Differing, dict[str, int]]:
    """``(name kept, its differing sequences, differing count per candidate)``: the
    standard name unless another spelling has fewer; none is tried once one has none."""
    best: tuple[str, Differing] | None = None
    counts: dict[str, int] = {}
    for spelling in candidates(name):
        differing = measure(name, spelling)[0]
        counts[spelling] = len(differing)
        if best is None or len(differing) < len(best[1]):
            best = (spelling, differing)
        if not differing:
            break
    assert best is not None, f"lxml knows no spelling of {name}'s codec"
    return best[0], best[1], counts


#: Encodings measured: those with a standard name.
MEASURED = tuple(STANDARD_NAMES)


def fingerprint(names: dict[str, str]) -> str:
    """SHA-256 of what the installed lxml reads, through both parsers, for every sequence
    of every encoding under the name kept for it (*names*)."""
    digest = hashlib.sha256()
    for name in MEASURED:
        digest.update(f"{name}={names[name]}:{measure(name, names[name])[1]}\n".encode())
    return digest.hexdigest()


# --- the module ------------------------------------------------------------------------


def _shown(text: str) -> str:
    return " ".join(f"U+{ord(char):04X}" for char in text)


def _read(text: str) -> str:
    """What a parser read, for a comment: the characters, "dropped" or "refused"."""
    if not text:
        return "dropped"
    if len(text) > 8:  # an error message
        return "refused"
    return _shown(text)


def _difference(parsers: dict[str, tuple[str, str]]) -> str:
    """``U+FF5E: html U+301C, xml U+301C``: the browser's text, then each parser's."""
    want = next(iter(parsers.values()))[0]
    return f"{_shown(want)}: " + ", ".join(
        f"{parser} {_read(got)}" for parser, (_, got) in parsers.items()
    )


def generate(report: Callable[[str], None] | None = None) -> str:
    """The text of ``_lxml_names.py`` for the installed lxml; *report* is given a line per
    encoding (the differing count of each candidate) and per differing sequence."""
    names: dict[str, str] = {}
    differing: dict[str, Differing] = {}
    for name in MEASURED:
        kept, found, counts = choose(name)
        names[name] = kept
        differing[name] = found
        if report is not None:
            report(f"{name}: kept {kept!r}; differing sequences per candidate: {counts}")
            for seq, parsers in sorted(found.items()):
                report(f"  {seq.hex(' ')}: {_difference(parsers)}")
    found_versions = versions()
    lines = [
        "# GENERATED by scripts/generate_lxml_names.py from what the installed lxml reads.",
        "# Do not edit: regenerate with the lxml the package is tested with.",
        '"""The name lxml reads as a browser does, per encoding, and the sequences it reads',
        "otherwise under that name (measured through lxml's HTML and XML parsers).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        *(f'{key} = "{value}"' for key, value in found_versions.items()),
        f'FINGERPRINT = "{fingerprint(names)}"',
        "",
        "#: WHATWG name -> the spelling lxml and Python read as the browser's decoder, but",
        "#: for the sequences of DIFFERING (no other spelling of the codec is read better).",
    ]
    lines.append("NAMES: dict[str, str] = {")
    lines.extend(f"    {name!r}: {names[name]!r}," for name in MEASURED)
    lines.append("}")
    lines.append("")
    lines.append("#: WHATWG name -> the byte sequences lxml reads otherwise under NAMES[name]")
    lines.append("#: (each with the browser's text, then what each parser read).")
    lines.append("DIFFERING: dict[str, tuple[bytes, ...]] = {")
    for name in MEASURED:
        if not differing[name]:
            lines.append(f"    {name!r}: (),")
            continue
        lines.append(f"    {name!r}: (")
        lines.extend(
            f"        {seq!r},  # {_difference(parsers)}"
            for seq, parsers in sorted(differing[name].items())
        )
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


_VERSION_LINE = re.compile(r'^(LXML|LIBXML)_VERSION = "[^"]*"$', re.MULTILINE)


def comparable(module: str) -> str:
    """The module without its version lines: the fingerprint decides."""
    return _VERSION_LINE.sub("", module)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", type=Path, default=REPO / "scrapy_charset")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--report", action="store_true", help="print each difference")
    args = parser.parse_args(argv)
    out = args.package / "whatwg" / "_lxml_names.py"
    text = generate(print if args.report else None)
    if args.check:
        current = out.read_text("utf-8") if out.exists() else ""
        if comparable(current) != comparable(text):
            print(f"{out} is not what lxml {lxml.__version__} gives", file=sys.stderr)
            return 1
        return 0
    out.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
