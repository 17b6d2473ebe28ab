"""What ``sniff(..., trace=Trace())`` records for each step of "determining the character
encoding" (HTML Standard 13.2.3.2), and that asking for it never changes the decision."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scrapy_charset.responses.decision import Source
from scrapy_charset.sniffing import KINDS, ORDER, Detected, Detector, Kind, Trace, sniff
from scrapy_charset.sniffing.trace import (
    BomSeen,
    DeclarationSeen,
    DetectionSeen,
    LabelSeen,
    Utf8Seen,
)
from tests.test_properties import BODIES, HEADERS

NO_OVERRIDE = LabelSeen(Source.OVERRIDE, None)
LATIN = "<p>España, Logroño, Cádiz</p>".encode("cp1252")
KOI8_META = b'<meta charset="koi8-r"><p>' + "Россия".encode("koi8-r")


def _fixed(body: bytes, url: str | None) -> Detected:
    return Detected(encoding="windows-1252", detector="fixed", score=0.5)


def _silent(body: bytes, url: str | None) -> None:
    return None


# id, body, sniff keywords, the records expected (a record not named is None: not run).
CASES = [
    # Step 1: a BOM decides; the declarations after it are still read, for conflicts.
    pytest.param(
        b"\xef\xbb\xbf<meta charset=koi8-r>",
        {"content_type": "text/html; charset=windows-1251"},
        {
            "bom": BomSeen("UTF-8", 3),
            "header": LabelSeen(Source.HEADER, "windows-1251", "windows-1251"),
            "in_document": DeclarationSeen(Source.META, "koi8-r", "KOI8-R", 3),
        },
        id="step1-bom-decides-declarations-read",
    ),
    # Step 2: the override; an unusable one is recorded with its problem.
    pytest.param(
        LATIN,
        {"override": " utf-7 ", "detector": _silent},
        {
            "bom": BomSeen(None, 0),
            "override": LabelSeen(Source.OVERRIDE, "utf-7", None, "refused_label"),
            "header": LabelSeen(Source.HEADER, None),
            "in_document": DeclarationSeen(Source.META, None, None, None),
            "utf8": Utf8Seen(False, False, 7),
            "detection": DetectionSeen(available=True),
            "default": "windows-1252",
        },
        id="step2-refused-override-falls-through",
    ),
    # Step 4: the transport layer's charset decides; UTF-8 and detection do not run.
    pytest.param(
        KOI8_META,
        {"content_type": "text/html; charset=latin1", "detector": _fixed},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, "latin1", "windows-1252"),
            "in_document": DeclarationSeen(Source.META, "koi8-r", "KOI8-R", 0),
        },
        id="step4-header-decides-no-detection",
    ),
    # RFC 8259, 8.1: a JSON body's non-UTF charset is recorded with its problem.
    pytest.param(
        b'{"a": 1}',
        {"content_type": "application/json; charset=iso-8859-1", "kind": "json"},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, "iso-8859-1", "windows-1252", "not_utf"),
            "default": "UTF-8",
        },
        id="json-header-not-utf",
    ),
    # Step 5: the prescan, with the declaration it passed over.
    pytest.param(
        b'<meta charset="bogus">' + KOI8_META,
        {},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, None),
            "in_document": DeclarationSeen(Source.META, "koi8-r", "KOI8-R", 22),
        },
        id="step5-meta-after-unknown-label",
    ),
    # The UTF-8 rule decides: detection does not run, so there is no guess to show.
    pytest.param(
        "<p>Café crème</p>".encode(),
        {"detector": _fixed},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, None),
            "in_document": DeclarationSeen(Source.META, None, None, None),
            "utf8": Utf8Seen(True, False, None),
        },
        id="utf8-rule-decides-no-detection",
    ),
    # Seven-bit ISO-2022-JP: valid UTF-8, left to detection.
    pytest.param(
        "日本".encode("iso-2022-jp"),
        {"kind": "text", "detector": _silent},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, None),
            "utf8": Utf8Seen(True, True, None, iso2022jp_escapes=True),
            "detection": DetectionSeen(available=True),
            "default": "windows-1252",
        },
        id="utf8-iso-2022-jp-escapes-to-detection",
    ),
    # Step 8: detection decides; step 9 does not run.
    pytest.param(
        LATIN,
        {"detector": _fixed},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, None),
            "in_document": DeclarationSeen(Source.META, None, None, None),
            "utf8": Utf8Seen(False, False, 7),
            "detection": DetectionSeen(available=True, detected=_fixed(b"", None)),
        },
        id="step8-detection-decides",
    ),
    # Step 9: no detector; the default decides.
    pytest.param(
        LATIN,
        {"default": "windows-1250", "detector": None},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, None),
            "in_document": DeclarationSeen(Source.META, None, None, None),
            "utf8": Utf8Seen(False, False, 7),
            "detection": DetectionSeen(available=False),
            "default": "windows-1250",
        },
        id="step9-default",
    ),
    # XML: UTF-16 without a BOM, by its first bytes.
    pytest.param(
        '<?xml version="1.0"?><a/>'.encode("utf-16-le"),
        {"kind": "xml"},
        {
            "bom": BomSeen(None, 0),
            "override": NO_OVERRIDE,
            "header": LabelSeen(Source.HEADER, None),
            "in_document": DeclarationSeen(Source.XML_DECLARATION, None, "UTF-16LE", 0),
        },
        id="xml-utf16-first-bytes",
    ),
]

_RECORDS = ("bom", "override", "header", "in_document", "utf8", "detection", "default")


@pytest.mark.parametrize(("body", "keywords", "expected"), CASES)
def test_trace_records(body: bytes, keywords: dict[str, Any], expected: dict[str, Any]) -> None:
    trace = Trace()
    sniff(body, **keywords, trace=trace)
    seen = {name: _summary(getattr(trace, name)) for name in _RECORDS}
    assert seen == {name: _summary(expected.get(name)) for name in _RECORDS}


def _summary(record: Any) -> Any:
    """A record without its details (declarations passed over, the mostly-UTF-8 counts),
    which the tests below check on their own."""
    if isinstance(record, DeclarationSeen):
        return replace(record, ignored=())
    if isinstance(record, Utf8Seen):
        return replace(record, counts=None, mostly=False)
    return record


def test_trace_keeps_the_declarations_passed_over() -> None:
    trace = Trace()
    sniff(b'<meta charset="bogus">' + KOI8_META, trace=trace)
    assert trace.in_document is not None
    assert [(i.label, i.reason, i.offset) for i in trace.in_document.ignored] == [
        ("bogus", "unknown_label", 0)
    ]


def test_trace_counts_when_the_mostly_utf8_rule_says_no() -> None:
    trace = Trace()
    sniff(LATIN, trace=trace)
    assert trace.utf8 is not None
    assert trace.utf8.mostly is False
    assert trace.utf8.counts is not None
    assert (trace.utf8.counts.valid, trace.utf8.counts.invalid) == (0, 3)


def test_trace_counts_of_the_mostly_utf8_rule() -> None:
    body = "<p>Café ".encode() * 10 + b"\x92" + "<p>Café".encode()
    trace = Trace()
    decision = sniff(body, trace=trace)
    assert decision.detector == "mostly-utf-8"
    assert trace.utf8 is not None
    assert trace.utf8.mostly is True
    assert trace.utf8.counts is not None
    assert (trace.utf8.counts.valid, trace.utf8.counts.invalid) == (11, 1)
    assert trace.utf8.first_invalid_offset == body.index(b"\x92")


@pytest.mark.parametrize("kind", KINDS)
def test_trace_order_is_the_kinds_rules(kind: Kind) -> None:
    trace = Trace()
    sniff(b"x", kind=kind, trace=trace)
    assert len(trace.order) == len(ORDER[kind])
    assert trace.order[0] is Source.BOM
    assert trace.order[-1] is Source.DEFAULT


_DECLARATIONS = {Source.HEADER, Source.META, Source.XML_DECLARATION}


@settings(max_examples=300, deadline=None)
@given(
    body=BODIES,
    content_type=HEADERS,
    kind=st.sampled_from(KINDS),
    override=st.none() | st.sampled_from(["latin1", "utf-7", "", "sjis"]),
    detector=st.sampled_from([_silent, _fixed, None]),
)
# Two valid UTF-8 sequences and one invalid byte: UTF-8 wins over the detector's answer.
@example(
    body=b"\x80\xe0\xa0\x80\xe0\xa0\x80",
    content_type=None,
    kind="html",
    override=None,
    detector=_fixed,
)
def test_trace_changes_nothing_and_shows_what_ran(
    body: bytes,
    content_type: str | None,
    kind: Kind,
    override: str | None,
    detector: Detector | None,
) -> None:
    options: dict[str, Any] = {"kind": kind, "override": override, "detector": detector}
    plain = sniff(body, content_type, "http://example.com/", **options)
    trace = Trace()
    traced = sniff(body, content_type, "http://example.com/", **options, trace=trace)
    assert traced == plain
    assert traced.details == plain.details
    # Every step up to the deciding one ran; after it, only declarations (for conflicts).
    order = list(trace.order)
    decided = order.index(traced.source) if traced.source in order else order.index(Source.META)
    if "over" in dict(traced.details):
        # The mostly-UTF-8 rule won over the detector's answer: detection ran to be overruled.
        decided = order.index(Source.DETECTED)
    for index, source in enumerate(order):
        ran = trace.ran(source)
        if index <= decided:
            assert ran, source
        else:
            assert ran is (source in _DECLARATIONS), source
