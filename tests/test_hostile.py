"""Hostile input: every public function survives, stays bounded, and never smuggles markup.

Survives: no exception (``decode`` raises ``LookupError`` for a label that is not an
Encoding Standard label, its documented error, and nothing else). Bounded: inputs are
large enough that quadratic work would stall the suite (the ``timeout`` marks are a hang
guard, not a timing assertion) and peak memory is measured with ``tracemalloc``. Safe: the
decoded text is valid Unicode (no lone surrogates) and carries no markup the bytes did not
carry as markup (for an ASCII-compatible encoding, as many ``<`` and ``>`` as there are
0x3C and 0x3E bytes).
"""

from __future__ import annotations

import encodings
import encodings.aliases
import functools
import importlib
import pkgutil
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.sniff_decode import assert_safe, check, one_input
from scrapy_charset import decode, lookup, sniff
from scrapy_charset.responses.decision import EncodingDecision, Source
from scrapy_charset.sniffing import KINDS
from scrapy_charset.sniffing.prescan import get_xml_encoding, prescan
from scrapy_charset.sniffing.transport import (
    HTTP_WHITESPACE,
    MimeType,
    charset_parameter,
    extract_mime_type,
    split_header_values,
)
from scrapy_charset.whatwg.labels import ENCODING_NAMES, LABELS
from tests.table import assert_table, product

MB = 1024 * 1024

# --- The safety property -------------------------------------------------------------------

# assert_safe is the fuzz target's property: the suite and the fuzzer check the same thing.


def check_decision(body: bytes, decision: EncodingDecision) -> str:
    assert decision.encoding in ENCODING_NAMES
    text = decode(body, decision.encoding)
    assert_safe(body, decision.encoding, text)
    return text


# --- Hostile bodies ------------------------------------------------------------------------


def _random(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


#: Small crafted bodies: every encoding decodes each of them.
SMALL_BODIES: dict[str, bytes] = {
    "empty": b"",
    "lt": b"<",
    "truncated utf-8 (2 of 3 bytes)": "<p>€".encode()[:-1],
    "truncated utf-8 (1 of 2 bytes)": "<p>текст".encode()[:-1],
    "utf-8 cut before a tag": "<p>текст".encode()[:-1] + b"<b>",
    "overlong < (2 bytes)": b"<p>\xc0\xbcscript>",
    "overlong < (3 bytes)": b"<p>\xe0\x80\xbcscript>",
    "overlong < (4 bytes)": b"<p>\xf0\x80\x80\xbcscript>",
    "encoded high surrogate": b"<p>\xed\xa0\x80</p>",
    "encoded low surrogate": b"<p>\xed\xb0\x80</p>",
    "encoded surrogate pair (CESU-8)": b"<p>\xed\xa0\xbd\xed\xb8\x80</p>",
    "above U+10FFFF": b"<p>\xf4\x90\x80\x80</p>",
    "utf-16le odd length": b"\xff\xfe<\x00p\x00>\x00a",
    "utf-16be odd length": b"\xfe\xff\x00<\x00p\x00>\x00",
    "utf-16le lone surrogate before <": b"\xff\xfe\x00\xd8<\x00",
    "utf-16be lone surrogate before <": b"\xfe\xff\xd8\x00\x00<",
    "utf-16le bom on ascii": b'\xff\xfe<meta charset="utf-8"><p>x</p>',
    "utf-16be bom on ascii": b'\xfe\xff<meta charset="utf-8"><p>x</p>',
    "utf-32le bom": "\ufeff<p>x</p>".encode("utf-32-le"),
    "utf-32be bom": "\ufeff<p>x</p>".encode("utf-32-be"),
    "utf-16 without bom": "<p>x</p>".encode("utf-16-le"),
    "utf-16 xml without bom": '<?xml version="1.0"?><a/>'.encode("utf-16-be"),
    "NUL and lt": b"<\x00" * 64,
    "iso-2022-kr shift-in in a tag": b"<scr\x0fipt>alert(1)</scr\x0eipt>",
    "iso-2022-kr designation": b"\x1b$)C<scr\x0eipt\x0f>",
    "hz escapes in a tag": b"<scr~{ipt>~}x~\n<",
    "iso-2022-jp escapes in a tag": b"\x1b$B<scr\x1b(Bipt>\x1b(J<\x1b(I<\x1b$@<",
    "iso-2022-jp unterminated escape": b"<p>\x1b$",
    "unicode-escape lookalike": b"\\x3cscript\\u003e",
    "utf-7 lookalike": b"+ADw-script+AD4-",
    "lead bytes before lt": bytes(b for lead in range(0x80, 0x100) for b in (lead, 0x3C)),
    "lead bytes before gt": bytes(b for lead in range(0x80, 0x100) for b in (lead, 0x3E)),
    "gb18030 four-byte prefix before lt": b"\x81\x30<\x81\x30\x81<",
    "every byte": bytes(range(256)),
    "random 4 KB": _random(4096, 1),
}

#: Large bodies: sized so that quadratic work would stall, linear work takes milliseconds.
BIG_BODIES: dict[str, Callable[[], bytes]] = {
    "<meta repeated a million times": lambda: b"<meta" * 1_000_000,
    "<meta charset= repeated": lambda: b"<meta charset=" * 200_000,
    "unclosed double quote": lambda: b'<meta charset="' + b"x" * MB,
    "unclosed single quote": lambda: b"<meta charset='" + b"x" * MB,
    "unclosed comment": lambda: b"<head><!--" + b"<meta charset=koi8-r>" * 50_000,
    "comment openers": lambda: b"<!--" * 250_000,
    "unclosed tag": lambda: b"<head><link " + b"a=b " * 250_000,
    "head of links": lambda: b"<head>" + b"<link rel=x>" * 80_000,
    "unclosed script": lambda: b"<head><script>" + b"</scrip" * 150_000,
    "unclosed xml declaration": lambda: b'<?xml version="1.0" encoding="' + b"x" * MB,
    "lt soup": lambda: b"<" * MB,
    "NUL": lambda: bytes(MB),
    "NUL-heavy utf-16 lookalike": lambda: "<meta charset=koi8-r>".encode("utf-16-be") * 20_000,
    "random binary": lambda: _random(MB, 2),
    "ascii with one bad byte at the end": lambda: b"<p>text</p>" * 100_000 + b"\xff",
    "utf-8 with one bad byte at the end": lambda: "<p>текст</p>".encode() * 50_000 + b"\xff",
}

HEADERS: dict[str, str | None] = {
    "none": None,
    "no charset": "text/html",
    "utf-8": "text/html; charset=utf-8",
    "koi8-r": "text/html; charset=koi8-r",
    "shift_jis": "text/html; charset=shift_jis",
    "utf-16": "text/html; charset=utf-16",
    "replacement": "text/html; charset=iso-2022-kr",
    "iso-2022-jp": "text/html; charset=iso-2022-jp",
    "x-user-defined": "text/html; charset=x-user-defined",
}


#: The response kinds, by name (each its own id in the tables below).
KIND_TABLE: dict[str, Any] = {kind: kind for kind in KINDS}


def _small_hostile_body(body: bytes, header: str | None, kind: Any) -> None:
    decision = sniff(body, header, "http://example.com/", kind=kind)
    check_decision(body, decision)


def test_small_hostile_bodies() -> None:
    # Every body by header by kind, each case by its id ("lt-koi8-r-xml").
    assert_table(product(SMALL_BODIES, HEADERS, KIND_TABLE), _small_hostile_body)


def _decodes_without_smuggling(body: bytes, encoding: str) -> None:
    assert_safe(body, encoding, decode(body, encoding))


def test_every_encoding_decodes_without_smuggling() -> None:
    # Every body by every Encoding Standard encoding ("lt-Shift_JIS").
    encodings = {name: name for name in ENCODING_NAMES}
    assert_table(product(SMALL_BODIES, encodings), _decodes_without_smuggling)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("make", list(BIG_BODIES.values()), ids=list(BIG_BODIES))
def test_big_hostile_bodies(make: Callable[[], bytes], kind: Any) -> None:
    body = make()
    # The engine reads a bounded prefix plus, at most, one pass of the UTF-8 check: its
    # allocations stay far below the body's size. The detector's models load once per
    # process, before the measure.
    sniff(b"<p>\xe9t\xe9</p>", None, "http://example.com/", kind=kind)
    tracemalloc.start()
    try:
        decision = sniff(body, None, "http://example.com/", kind=kind)
        sniff_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # Detection (on by default) reads a bounded window: about 0.6 MB whatever the size.
    assert sniff_peak < len(body) // 4 + 1024 * 1024
    check_decision(body, decision)
    result = prescan(body)
    assert result.offset is None or result.offset < 64 * 1024


def _decode_peak(body: bytes, encoding: str) -> tuple[str, int]:
    tracemalloc.start()
    try:
        text = decode(body, encoding)
        return text, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("encoding", ["UTF-8", "windows-1252", "Shift_JIS", "Big5", "UTF-16LE"])
@pytest.mark.parametrize("make", list(BIG_BODIES.values()), ids=list(BIG_BODIES))
def test_big_hostile_bodies_decode_in_bounded_memory(
    make: Callable[[], bytes], encoding: str
) -> None:
    body = make()
    text, peak = _decode_peak(body, encoding)
    _, double_peak = _decode_peak(body + body, encoding)
    # Linear: twice the bytes, about twice the memory. The constant is the decoders' worst
    # case (error-dense bytes in a multi-byte encoding build the text from many pieces).
    assert double_peak <= 2.5 * peak + MB
    assert peak <= 24 * len(body) + MB
    assert_safe(body, encoding, text)


# --- Labels --------------------------------------------------------------------------------


def _python_only_labels() -> list[str]:
    """Every codec name and alias Python knows that is not an Encoding Standard label."""
    names = {module.name for module in pkgutil.iter_modules(encodings.__path__)}
    names.discard("aliases")
    names |= set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    # Python matches labels in lowercase; its one mixed-case alias ("csHPRoman8") is dead.
    names = {name for name in names if name == name.lower()}
    names |= {name.replace("_", "-") for name in names}
    names |= {"ROT13", "Base64", "UTF-7", "ISO-2022-KR", "HZ", "Unicode_Escape", "PUNYCODE"}
    return sorted(name for name in names if lookup(name) is None)


PYTHON_ONLY_LABELS = _python_only_labels()

#: Must be among them: the codecs that raise, smuggle markup or take quadratic time.
NOTORIOUS = [
    "base64",
    "bz2",
    "hex",
    "hz",
    "idna",
    "iso2022_kr",
    "mbcs",
    "punycode",
    "quopri",
    "raw_unicode_escape",
    "rot13",
    "undefined",
    "unicode_escape",
    "utf-7",
    "utf_32",
    "uu",
    "zlib",
]

# The bytes that the notorious codecs turn into "<script>" or into an exception.
SMUGGLING = b"<p>\\x3cscr\x0fipt>~{ipt~}\\u003c+ADw-</p>"


def test_python_only_labels_cover_the_notorious() -> None:
    assert len(PYTHON_ONLY_LABELS) > 300
    missing = [name for name in NOTORIOUS if name not in PYTHON_ONLY_LABELS]
    assert missing == []


def _refused_everywhere(label: str) -> None:
    assert lookup(label) is None
    with pytest.raises(LookupError):
        decode(SMUGGLING, label)
    declared = {
        Source.HEADER: (SMUGGLING, sniff(SMUGGLING, f"text/html; charset={label}")),
        Source.OVERRIDE: (SMUGGLING, sniff(SMUGGLING, override=label)),
    }
    meta = b'<meta charset="' + label.encode() + b'">' + SMUGGLING
    declared[Source.META] = (meta, sniff(meta))
    for source, (body, decision) in declared.items():
        assert decision.source is not source
        # The prescan reads attribute values ASCII-lowercased.
        written = label.lower() if source is Source.META else label
        assert [(i.source, i.label, i.reason) for i in decision.ignored] == [
            (source, written, "refused_label")
        ]
        check_decision(body, decision)
    xml = b'<?xml version="1.0" encoding="' + label.encode() + b'"?>' + SMUGGLING
    assert get_xml_encoding(xml) is None
    decision = sniff(xml, kind="xml")
    assert decision.source is not Source.XML_DECLARATION
    check_decision(xml, decision)


def test_python_only_label_is_refused_everywhere() -> None:
    # Every Python-only label, each case by the label.
    assert_table({label: (label,) for label in PYTHON_ONLY_LABELS}, _refused_everywhere)


#: Labels with NUL, non-ASCII, quotes and spaces, and what "get an encoding" gives.
ODD_LABELS: list[tuple[str, str | None]] = [
    ("utf-8\x00", None),
    ("\x00utf-8", None),
    ("utf\x00-8", None),
    ("\u212aoi8-r", None),  # KELVIN SIGN lowercases to "k" in Unicode, not in ASCII
    ("utf-\uff18", None),  # FULLWIDTH DIGIT EIGHT
    ("\uff55tf-8", None),
    ("utf-8\u00a0", None),  # NO-BREAK SPACE is not ASCII whitespace
    ("\u0130so-8859-1", None),  # LATIN CAPITAL I WITH DOT ABOVE
    ("utf-8\xff", None),
    ('"utf-8"', None),
    ("'utf-8'", None),
    ("utf-8'", None),
    ("utf 8", None),
    ("utf-8;", None),
    ("utf-8,koi8-r", None),
    ("", None),
    (" ", None),
    ("\t\n\x0c\r utf-8 \t\n\x0c\r", "UTF-8"),  # ASCII whitespace is stripped
    ("\x0butf-8", None),  # VERTICAL TAB is not ASCII whitespace
    ("UTF-8", "UTF-8"),
    ("x" * 100_000, None),
    ("utf-8" * 20_000, None),
]


@pytest.mark.parametrize(
    ("label", "expected"), ODD_LABELS, ids=[ascii(label)[:40] for label, _ in ODD_LABELS]
)
def test_odd_labels(label: str, expected: str | None) -> None:
    assert lookup(label) == expected
    if expected is None:
        with pytest.raises(LookupError):
            decode(b"<p>x</p>", label)
    body = b"<p>\xe4\xf6</p>"
    header = f"text/html; charset={label}"
    quoted = 'text/html; charset="' + label.replace("\\", "\\\\").replace('"', '\\"') + '"'
    meta_body = b"<meta charset=" + label.encode("utf-8", "surrogatepass") + b">" + body
    for decision, used_body in (
        (sniff(body, header), body),
        (sniff(body, quoted), body),
        (sniff(meta_body), meta_body),
        (sniff(body, override=label), body),
        (sniff(body, kind="text", override=label), body),
    ):
        check_decision(used_body, decision)
        if decision.source in (Source.HEADER, Source.META):
            # Only a label "get an encoding" accepts ever decides.
            assert decision.label is not None
            assert lookup(decision.label) is not None
        if decision.source is Source.OVERRIDE:
            assert decision.encoding == expected


# --- Content-Type headers ------------------------------------------------------------------

#: 100 KB headers in every shape the parser has a loop for.
HOSTILE_HEADERS: dict[str, Callable[[], str]] = {
    "parameters": lambda: "text/html" + "; a=b" * 20_000,
    "parameters, charset last": lambda: "text/html" + "; a=b" * 20_000 + "; charset=koi8-r",
    "charset parameters": lambda: "text/html" + "; charset=koi8-r" * 6_000,
    "empty parameters": lambda: "text/html" + ";" * 100_000,
    "whitespace": lambda: "text/html;" + " " * 100_000 + "charset=koi8-r",
    "quoted escapes": lambda: 'text/html; charset="' + "\\," * 50_000 + '"',
    "unclosed quote": lambda: 'text/html; charset="' + "a" * 100_000,
    "unclosed quote, escapes": lambda: 'text/html; charset="' + "\\" * 100_001,
    "quotes everywhere": lambda: '"' * 100_000,
    "values": lambda: "text/html, " * 10_000,
    "values with charset": lambda: "text/html; charset=koi8-r, " * 4_000,
    "alternating essences": lambda: "text/html; charset=koi8-r, text/plain, " * 3_000,
    "commas": lambda: "," * 100_000,
    "long type": lambda: "t" * 100_000 + "/html; charset=koi8-r",
    "long label": lambda: "text/html; charset=" + "k" * 100_000,
    "non-ascii": lambda: "text/html; charset=\u0100" + "\u00ff" * 100_000,
    "NUL": lambda: "text/html; charset=utf-8\x00" * 4_000,
}

#: Duplicate Content-Type headers, as HTTP combines them (joined with commas).
DUPLICATE_HEADERS: list[tuple[str, str | None]] = [
    ("text/html; charset=utf-8, text/html; charset=shift_jis", "Shift_JIS"),
    ("text/html; charset=koi8-r, text/html", "KOI8-R"),  # same essence keeps the charset
    ("text/html; charset=koi8-r, text/plain", None),  # a new essence drops it
    ("text/html; charset=koi8-r, */*", "KOI8-R"),
    ("text/html; charset=koi8-r, nonsense", "KOI8-R"),
    ('text/html; charset="koi8-r, text/plain"', None),  # one value: the comma is quoted
    # The last value's own charset wins even when it is unusable: nothing is declared.
    ("text/html; charset=koi8-r,text/html; charset=rot13", None),
    ("text/html; charset=rot13, text/html; charset=koi8-r", "KOI8-R"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("make", list(HOSTILE_HEADERS.values()), ids=list(HOSTILE_HEADERS))
def test_hostile_headers(make: Callable[[], str]) -> None:
    header = make()
    tracemalloc.start()
    try:
        charset_parameter(header)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # Every value and parameter is a small object: a constant factor of the header.
    assert peak < 64 * len(header) + MB
    extract_mime_type(header)
    check_decision(b"<p>\xe4</p>", sniff(b"<p>\xe4</p>", header))


@pytest.mark.parametrize(
    ("header", "expected"), DUPLICATE_HEADERS, ids=[h for h, _ in DUPLICATE_HEADERS]
)
def test_duplicate_headers(header: str, expected: str | None) -> None:
    decision = sniff(b"<p>\xe4</p>", header)
    if expected is None:
        assert decision.source is not Source.HEADER
    else:
        assert (decision.source, decision.encoding) == (Source.HEADER, expected)


# The scanning in the header parser runs in compiled regular expressions; this is the
# straightforward transcription of the Fetch and MIME Sniffing algorithms it must agree with.


def _reference_quoted_string(value: str, position: int) -> tuple[str, int]:
    out: list[str] = []
    position += 1
    while True:
        while position < len(value) and value[position] not in '"\\':
            out.append(value[position])
            position += 1
        if position >= len(value):
            break
        char = value[position]
        position += 1
        if char == "\\":
            if position >= len(value):
                out.append("\\")
                break
            out.append(value[position])
            position += 1
        else:
            break
    return "".join(out), position


_TOKEN = set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _reference_parse(value: str) -> MimeType | None:
    value = value.strip(HTTP_WHITESPACE)
    position = 0
    type_ = ""
    while position < len(value) and value[position] != "/":
        type_ += value[position]
        position += 1
    if not type_ or not set(type_) <= _TOKEN or position >= len(value):
        return None
    position += 1
    subtype = ""
    while position < len(value) and value[position] != ";":
        subtype += value[position]
        position += 1
    subtype = subtype.rstrip(HTTP_WHITESPACE)
    if not subtype or not set(subtype) <= _TOKEN:
        return None
    mime = MimeType(type_.lower(), subtype.lower())
    while position < len(value):
        position += 1
        while position < len(value) and value[position] in HTTP_WHITESPACE:
            position += 1
        name = ""
        while position < len(value) and value[position] not in ";=":
            name += value[position]
            position += 1
        name = name.lower()
        if position < len(value):
            if value[position] == ";":
                continue
            position += 1
        if position >= len(value):
            break
        if value[position] == '"':
            parameter_value, position = _reference_quoted_string(value, position)
            while position < len(value) and value[position] != ";":
                position += 1
        else:
            parameter_value = ""
            while position < len(value) and value[position] != ";":
                parameter_value += value[position]
                position += 1
            parameter_value = parameter_value.rstrip(HTTP_WHITESPACE)
            if not parameter_value:
                continue
        if (
            name
            and set(name) <= _TOKEN
            and all(c == "\t" or " " <= c <= "~" or "\x80" <= c <= "\xff" for c in parameter_value)
            and name not in mime.parameters
        ):
            mime.parameters[name] = parameter_value
    return mime


def _reference_split(value: str) -> list[str]:
    values: list[str] = []
    position = 0
    while True:
        current = ""
        while True:
            while position < len(value) and value[position] not in '",':
                current += value[position]
                position += 1
            if position < len(value) and value[position] == '"':
                start = position
                _, position = _reference_quoted_string(value, position)
                current += value[start:position]
                if position < len(value):
                    continue
            break
        values.append(current.strip("\t "))
        if position >= len(value):
            return values
        position += 1


def _reference_charset(header: str) -> str | None:
    charset: str | None = None
    essence: str | None = None
    mime: MimeType | None = None
    for value in _reference_split(header):
        parsed = _reference_parse(value)
        if parsed is None or parsed.essence == "*/*":
            continue
        mime = parsed
        if mime.essence != essence:
            charset, essence = mime.parameters.get("charset"), mime.essence
        elif "charset" not in mime.parameters and charset is not None:
            mime.parameters["charset"] = charset
    return None if mime is None else mime.parameters.get("charset")


HEADER_PIECES = st.lists(
    st.sampled_from(
        [
            *["text/html", "text/plain", "*/*", "/", ";", "=", ",", '"', "\\", " ", "\t", "\n"],
            *["charset", "CharSet", "utf-8", "koi8-r", "a", "\x00", "\u0100", "\xff", "\u212a"],
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(header=HEADER_PIECES | st.text(max_size=40))
def test_header_parser_agrees_with_the_reference(header: str) -> None:
    _header_parser_agrees(header)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(header=HEADER_PIECES | st.text(max_size=40))
def test_header_parser_agrees_with_the_reference_full_budget(header: str) -> None:
    _header_parser_agrees(header)


def _header_parser_agrees(header: str) -> None:
    assert split_header_values(header) == _reference_split(header)
    assert charset_parameter(header) == (_reference_charset(header) if header else None)
    for value in split_header_values(header):
        ours = extract_mime_type(value)
        reference = _reference_parse(value)
        if reference is not None and reference.essence == "*/*":
            reference = None
        assert ours == reference


# --- The UTF-8 check -----------------------------------------------------------------------


def _reference_is_utf8(body: bytes) -> bool:
    """The rule in one piece: valid UTF-8, or valid up to a sequence the end cuts off
    after some multi-byte UTF-8."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        return (
            error.end == len(body)
            and error.reason == "unexpected end of data"
            and not body[: error.start].isascii()
        )
    return True


UTF8_PIECES = st.lists(
    st.sampled_from(
        [
            *[b"a", b"<", b"\xd0", b"\xb5", b"\xd0\xb5", b"\xe2\x82\xac", b"\xe2\x82", b"\xf0\x9f"],
            *[b"\xf0\x9f\x98\x80", b"\xff", b"\xc0\xbc", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"],
        ]
    ),
    max_size=24,
).map(b"".join)


@pytest.mark.parametrize("chunk", [4, 5, 7, 64 * 1024])
@settings(max_examples=300, deadline=None)
@given(body=UTF8_PIECES)
def test_sliced_utf8_check_agrees_with_one_decode(body: bytes, chunk: int) -> None:
    from scrapy_charset.sniffing import utf8

    expected = _reference_is_utf8(body)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(utf8, "_CHUNK", chunk)  # small slices cut sequences everywhere
        assert utf8.is_utf8(body) is expected
    valid, text = utf8.decode_utf8(body)
    assert valid is expected
    assert text == (body.decode("utf-8") if text is not None else None)


@settings(max_examples=300, deadline=None)
@given(body=UTF8_PIECES | st.binary(max_size=64), kind=st.sampled_from(KINDS))
def test_sniff_with_text_gives_the_decoded_text(body: bytes, kind: Any) -> None:
    from scrapy_charset.sniffing import sniff_with_text

    decision, text = sniff_with_text(body, None, kind=kind)
    assert decision == sniff(body, None, kind=kind)
    if text is not None:
        assert decision.source is Source.UTF8
        assert text == decode(body, decision.encoding)


# --- The fuzz target, briefly ----------------------------------------------------------------

FUZZ_MARKUP = st.lists(
    st.sampled_from(
        [
            *[b"<", b">", b"<meta", b" charset=", b"'", b'"', b"<!--", b"-->", b"</", b"<?xml"],
            *[b" encoding=", b"http-equiv=content-type", b" content=", b"utf-8", b"koi8-r"],
            *[b"\x00", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"<head>", b"<script>"],
            *[
                b"\x1b$B",
                b"\x1b(B",
                b"\x1b$)C",
                b"\x0e",
                b"\x0f",
                b"~{",
                b"~}",
                b"\x81",
                b"\xe2\x82",
            ],
        ]
    )
    | st.binary(max_size=8),
    max_size=40,
).map(b"".join)
FUZZ_LABELS = st.sampled_from([*sorted(LABELS), *NOTORIOUS]) | st.text(max_size=12)


@settings(max_examples=500, deadline=None)
@given(data=st.binary(max_size=4096))
def test_fuzz_target_on_raw_bytes(data: bytes) -> None:
    one_input(data)


@settings(max_examples=500, deadline=None)
@given(
    body=FUZZ_MARKUP,
    label=FUZZ_LABELS,
    where=st.sampled_from(["header", "quoted header", "override", "none"]),
    kind=st.sampled_from(KINDS),
)
def test_fuzz_target_on_markup(body: bytes, label: str, where: str, kind: Any) -> None:
    header = {
        "header": f"text/html; charset={label}",
        "quoted header": f'text/html; charset="{label}"',
    }.get(where)
    check(body, header, kind, label if where == "override" else None)


ROOT = Path(__file__).resolve().parent.parent


# --- The prescan's early stop -----------------------------------------------------------------

PRESCAN_PIECES = st.lists(
    st.sampled_from(
        [
            *[b"<meta", b" ", b"/", b">", b"=", b'"', b"'", b"charset", b"CHARSET", b"content"],
            *[b"http-equiv", b"content-type", b"utf-8", b"koi8-r", b"rot13", b";", b"a", b"<"],
            *[b"<head>", b"</head>", b"<!--", b"-->", b"<link", b"<p>", b"x", b"<script>"],
            *[b"</script>", b"<title>", b"<?xml", b" encoding=", b"\x00", b"\xff"],
            *[b'<meta charset="koi8-r">', b"<META CHARSET=utf-8>", b"<meta charset=rot13>"],
            b'<meta http-equiv="Content-Type" content="text/html; CharSet=koi8-r">',
            b"<meta content='charset=big5' http-equiv=content-type>",
        ]
    ),
    max_size=50,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(data=PRESCAN_PIECES, prescan_bytes=st.sampled_from([8, 32, 1024]))
def test_prescan_early_stop_changes_nothing(data: bytes, prescan_bytes: int) -> None:
    _early_stop_changes_nothing(data, prescan_bytes)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(data=PRESCAN_PIECES, prescan_bytes=st.sampled_from([8, 32, 1024]))
def test_prescan_early_stop_changes_nothing_full_budget(data: bytes, prescan_bytes: int) -> None:
    _early_stop_changes_nothing(data, prescan_bytes)


def _early_stop_changes_nothing(data: bytes, prescan_bytes: int) -> None:
    import importlib

    module: Any = importlib.import_module("scrapy_charset.sniffing.prescan")
    bounded = prescan(data, prescan_bytes=prescan_bytes, head_limit=256)
    with pytest.MonkeyPatch.context() as patch:
        # Scan everything: never stop before the end of the head's markup.
        patch.setattr(module._Prescan, "_nothing_left", lambda self, position: False)
        unbounded = prescan(data, prescan_bytes=prescan_bytes, head_limit=256)
    assert bounded == unbounded


TAG_PIECES = st.lists(
    st.one_of(
        st.sampled_from(
            [
                *[b"<html>", b'<html lang="bg">', b"<title>", b"</title >", b"<br/>", b"<BR/>"],
                *[b"<metal>", b"</meta>", b"<meta>", b"<Meta ", b'<a b="c" d="e">', b"</p x>"],
                *[b'<link rel="x" >', b'<a\ttitle="x>y">', b'<a"b>', b"</", b"<a", b"\n"],
                *[b"<style>", b"</style>", b"<body>", b"</head>", b"-->", b"<link/>", b"<LINK/>"],
            ]
        ),
        PRESCAN_PIECES,
    ),
    max_size=30,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(data=TAG_PIECES, prescan_bytes=st.sampled_from([8, 32, 1024]))
def test_prescan_one_match_tags_change_nothing(data: bytes, prescan_bytes: int) -> None:
    _one_match_tags_change_nothing(data, prescan_bytes)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(data=TAG_PIECES, prescan_bytes=st.sampled_from([8, 32, 1024]))
def test_prescan_one_match_tags_change_nothing_full_budget(data: bytes, prescan_bytes: int) -> None:
    _one_match_tags_change_nothing(data, prescan_bytes)


def _one_match_tags_change_nothing(data: bytes, prescan_bytes: int) -> None:
    import importlib
    import re

    module: Any = importlib.import_module("scrapy_charset.sniffing.prescan")
    fast = prescan(data, prescan_bytes=prescan_bytes, head_limit=256)
    with pytest.MonkeyPatch.context() as patch:
        # Every tag through its handler: the one-match read of a simple tag never applies.
        patch.setattr(module, "_SIMPLE_START_OR_END_TAG", re.compile(rb"(?!)"))
        by_handlers = prescan(data, prescan_bytes=prescan_bytes, head_limit=256)
    assert fast == by_handlers


# --- The middleware ---------------------------------------------------------------------------


@functools.cache
def _crawler() -> Any:
    from scrapy.utils.test import get_crawler

    return get_crawler(settings_dict={})


def _middleware() -> Any:
    """A new middleware, as a crawl with no settings builds it (the test crawler is made
    once: building it is most of the cost of a small case)."""
    from scrapy.utils.misc import build_from_crawler

    from scrapy_charset.responses.middleware import CharsetMiddleware

    return build_from_crawler(CharsetMiddleware, _crawler())


RESPONSE_CLASSES = ["HtmlResponse", "XmlResponse", "TextResponse", "JsonResponse"]


def _through_middleware(
    body: bytes,
    headers: dict[str, Any],
    cls_name: str,
    meta: dict[str, Any] | None = None,
    middleware: Any = None,
) -> tuple[str, str | None]:
    """Run one response through the middleware and read its text: ``(text, encoding)``,
    the encoding None when the middleware left the response alone (an empty body, a
    Content-Type that is not text)."""
    import scrapy.http
    from scrapy import Request

    cls = getattr(scrapy.http, cls_name)
    request = Request("http://example.com/", meta=meta or {})
    response = cls("http://example.com/", body=body, headers=headers, request=request)
    middleware = _middleware() if middleware is None else middleware
    processed = middleware.process_response(request, response)
    decided = request.meta.get("charset")
    if decided is None:
        assert processed is response
    text: str = processed.text
    return text, None if decided is None else decided["encoding"]


def _middleware_small_hostile_body(body: bytes, header: str | None, cls_name: str) -> None:
    headers = {} if header is None else {"Content-Type": header}
    text, encoding = _through_middleware(body, headers, cls_name)
    if encoding is None:
        assert body == b""  # only the empty body is left alone here
        return
    assert text == decode(body, encoding)
    assert_safe(body, encoding, text)


def test_middleware_small_hostile_bodies() -> None:
    # Every body by header by response class ("lt-koi8-r-XmlResponse").
    classes = {name: name for name in RESPONSE_CLASSES}
    assert_table(product(SMALL_BODIES, HEADERS, classes), _middleware_small_hostile_body)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("make", list(BIG_BODIES.values()), ids=list(BIG_BODIES))
def test_middleware_big_hostile_bodies_in_bounded_memory(make: Callable[[], bytes]) -> None:
    body = make()
    headers = {"Content-Type": "text/html"}
    middleware = _middleware()
    # Once before measuring: the detector loads its models on first use.
    _through_middleware(
        "<p>Съешь же ещё</p>".encode("cp1251"), headers, "HtmlResponse", None, middleware
    )
    tracemalloc.start()
    try:
        text, encoding = _through_middleware(body, headers, "HtmlResponse", None, middleware)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert encoding is not None
    _, floor = _decode_peak(body, encoding)
    # The deciding and the rebuilt response cost little beside the text itself.
    assert peak <= 1.3 * floor + MB
    assert_safe(body, encoding, text)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("make", list(HOSTILE_HEADERS.values()), ids=list(HOSTILE_HEADERS))
def test_middleware_hostile_headers(make: Callable[[], str]) -> None:
    body = b"<p>\xe4</p>"
    text, encoding = _through_middleware(body, {"Content-Type": make()}, "HtmlResponse")
    if encoding is not None:  # else a MIME type that is not text: left to Scrapy
        assert_safe(body, encoding, text)


@pytest.mark.parametrize(
    ("header", "expected"), DUPLICATE_HEADERS, ids=[h for h, _ in DUPLICATE_HEADERS]
)
def test_middleware_duplicate_headers(header: str, expected: str | None) -> None:
    # Two Content-Type header lines, as the server sent them.
    body = b"<p>\xe4</p>"
    values = split_header_values(header)
    text, encoding = _through_middleware(body, {"Content-Type": values}, "HtmlResponse")
    assert encoding is not None
    assert_safe(body, encoding, text)
    if expected is not None:
        assert encoding == expected


def _middleware_refuses(label: str) -> None:
    for headers, body, meta in (
        ({"Content-Type": f"text/html; charset={label}"}, SMUGGLING, None),
        ({}, b'<meta charset="' + label.encode() + b'">' + SMUGGLING, None),
        ({"Content-Type": "text/html"}, SMUGGLING, {"charset_encoding": label}),
    ):
        text, encoding = _through_middleware(body, headers, "HtmlResponse", meta)
        assert encoding is not None
        assert_safe(body, encoding, text)
        assert "<script>" not in text


def test_middleware_python_only_labels() -> None:
    # Every Python-only label as a header, a <meta> and an override, each case by the label.
    assert_table({label: (label,) for label in PYTHON_ONLY_LABELS}, _middleware_refuses)


# --- Deliberate differences from Scrapy's built-in decoding (README) ----------------------------


def _scrapy_text(body: bytes, label: str) -> Any:
    """Scrapy 2.19's own decoding of a response declaring *label*, or the exception."""
    from scrapy.http import HtmlResponse

    response = HtmlResponse(
        "http://example.com/", body=body, headers={"Content-Type": f"text/html; charset={label}"}
    )
    try:
        return response.text
    except Exception as error:  # what a spider's parse() would meet
        return error


#: Codecs Python registers that are not text encodings, or that refuse "replace".
NON_TEXT = ["rot13", "base64", "hex", "zlib", "bz2", "uu", "quopri", "undefined", "idna"]


@pytest.mark.parametrize("label", NON_TEXT)
def test_difference_non_text_codec_labels(label: str) -> None:
    body = b"<p>caf\xc3\xa9</p>"
    # Scrapy hands the label to Python's codec registry: .text raises in the spider.
    assert isinstance(_scrapy_text(body, label), (LookupError, UnicodeError))
    # Here the label is refused, the scan goes on, and the valid UTF-8 decides.
    text, encoding = _through_middleware(
        body, {"Content-Type": f"text/html; charset={label}"}, "HtmlResponse"
    )
    assert (text, encoding) == ("<p>café</p>", "UTF-8")
    decision = sniff(body, f"text/html; charset={label}")
    assert [(i.label, i.reason) for i in decision.ignored] == [(label, "refused_label")]


#: (label, body): bytes without "<script>" that Python's codec turns into "<script>".
SMUGGLED = [
    ("iso-2022-kr", b"<scr\x0fipt>alert(1)</scr\x0eipt>"),  # shift-in/out dropped
    ("hz", b"<scr~\nipt>alert(1)</script>"),  # "~\n" is a line continuation
    ("unicode_escape", b"\\x3cscript>alert(1)\\x3c/script>"),
    ("raw_unicode_escape", b"\\u003cscript>alert(1)\\u003c/script>"),
]


@pytest.mark.parametrize(("label", "body"), SMUGGLED, ids=[label for label, _ in SMUGGLED])
def test_difference_smuggled_markup(label: str, body: bytes) -> None:
    assert b"<script>" not in body
    scrapy = _scrapy_text(body, label)
    assert isinstance(scrapy, str)
    assert "<script>" in scrapy  # markup the bytes did not carry
    text, encoding = _through_middleware(
        body, {"Content-Type": f"text/html; charset={label}"}, "HtmlResponse"
    )
    assert encoding is not None
    assert "<script>" not in text
    assert_safe(body, encoding, text)


def test_difference_punycode() -> None:
    # Python's punycode decoder inserts each character into a list: quadratic time (see
    # benchmarks/growth.py for the measured growth). Scrapy uses it for a declared label.
    from scrapy.http import HtmlResponse

    body = b"abc-" + b"b" * 64
    response = HtmlResponse(
        "http://example.com/", body=body, headers={"Content-Type": "text/html; charset=punycode"}
    )
    assert response.encoding == "punycode"
    assert response.text != body.decode("ascii")
    text, encoding = _through_middleware(
        body, {"Content-Type": "text/html; charset=punycode"}, "HtmlResponse"
    )
    assert (text, encoding) == (body.decode("ascii"), "UTF-8")  # ASCII is valid UTF-8


# --- Import order -----------------------------------------------------------------------------


def _first_imports() -> list[str]:
    import scrapy_charset

    modules = [
        f"import {info.name}"
        for package in ("scrapy_charset.whatwg", "scrapy_charset.sniffing")
        for info in pkgutil.iter_modules(
            importlib.import_module(package).__path__, prefix=f"{package}."
        )
    ]
    names = [f"from scrapy_charset import {name}" for name in scrapy_charset.__all__]
    return sorted(modules) + names


@pytest.mark.parametrize("statement", _first_imports())
def test_any_public_name_or_module_imports_first(statement: str) -> None:
    # Each in a fresh interpreter: a circular import shows only when its module comes first.
    run = subprocess.run(
        [sys.executable, "-c", statement], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
