"""HTML Standard 13.2.3.2, "determining the character encoding": the precedence table.

Each case cites the step it checks. Inputs are text plus the encoding to write it in.
"""

from __future__ import annotations

from typing import Any

import pytest

from scrapy_charset import EncodingDecision, sniff
from scrapy_charset.sniffing import ORDER, Kind

BOM8 = b"\xef\xbb\xbf"
HTML_1252 = "<p>café".encode("cp1252")
META_BIG5 = b'<meta charset="big5"><p>' + "中文".encode("big5")


def case(
    id: str,
    body: bytes,
    content_type: str | None,
    encoding: str,
    source: str,
    *,
    label: str | None = None,
    confidence: str | None = None,
    ignored: list[str] | None = None,
    kind: Kind = "html",
    override: str | None = None,
) -> Any:
    return pytest.param(
        body,
        content_type,
        kind,
        override,
        {
            "encoding": encoding,
            "source": source,
            "label": label,
            "confidence": confidence,
            "ignored": ignored or [],
        },
        id=id,
    )


CASES = [
    # Step 1: BOM sniffing beats everything, with the confidence certain.
    case("step1-bom-utf8", BOM8 + b"<p>x", None, "UTF-8", "bom", confidence="certain"),
    case("step1-bom-utf16be", b"\xfe\xff\x00<", None, "UTF-16BE", "bom"),
    case("step1-bom-utf16le", b"\xff\xfe<\x00", None, "UTF-16LE", "bom"),
    case("step1-ff-fe-00-00-is-utf16le", b"\xff\xfe\x00\x00", None, "UTF-16LE", "bom"),
    case(
        "step1-bom-beats-header",
        BOM8 + b"<p>x",
        "text/html; charset=koi8-r",
        "UTF-8",
        "bom",
        ignored=["bom_header_conflict"],
    ),
    case(
        "step1-bom-beats-meta",
        BOM8 + META_BIG5,
        None,
        "UTF-8",
        "bom",
        ignored=["bom_meta_conflict"],
    ),
    case("step1-bom-beats-override", BOM8 + b"x", None, "UTF-8", "bom", override="koi8-r"),
    # Step 2: the user's override.
    case(
        "step2-override-beats-header",
        b"x",
        "text/html; charset=utf-8",
        "KOI8-R",
        "override",
        label="koi8-r",
        ignored=["override_header_conflict"],
        override="koi8-r",
    ),
    case(
        "step2-unusable-override-ignored",
        b"x",
        "text/html; charset=big5",
        "Big5",
        "header",
        label="big5",
        ignored=["unknown_label"],
        override="bogus",
    ),
    # Step 4: the transport layer (Content-Type charset), confidence certain.
    case(
        "step4-header",
        HTML_1252,
        "text/html; charset=windows-1252",
        "windows-1252",
        "header",
        label="windows-1252",
        confidence="certain",
    ),
    case(
        "step4-header-beats-meta",
        META_BIG5,
        "text/html; charset=utf-8",
        "UTF-8",
        "header",
        label="utf-8",
        ignored=["header_meta_conflict"],
    ),
    case(
        "step4-header-agrees-with-meta",
        META_BIG5,
        "text/html; charset=big5-hkscs",
        "Big5",
        "header",
        label="big5-hkscs",
    ),
    case(
        "step4-unknown-label-falls-through",
        META_BIG5,
        "text/html; charset=bogus",
        "Big5",
        "meta",
        label="big5",
        ignored=["unknown_label"],
    ),
    case(
        "step4-utf7-never-honoured",
        b"+AGEAYgBj-",
        "text/html; charset=utf-7",
        "UTF-8",
        "utf8-validity",
        ignored=["refused_label"],
    ),
    case(
        "step4-empty-label-falls-through",
        META_BIG5,
        'text/html; charset=""',
        "Big5",
        "meta",
        label="big5",
        ignored=["unknown_label"],
    ),
    case(
        "step4-latin1-is-windows-1252",
        HTML_1252,
        "text/html; charset=ISO-8859-1",
        "windows-1252",
        "header",
        label="ISO-8859-1",
    ),
    case(
        "step4-gb2312-is-gbk",
        b"x",
        "text/html; charset=gb2312",
        "GBK",
        "header",
        label="gb2312",
    ),
    case(
        "step4-utf16-from-header-is-honoured",
        "<p>x".encode("utf-16-le"),
        "text/html; charset=utf-16le",
        "UTF-16LE",
        "header",
        label="utf-16le",
    ),
    case(
        "step4-replacement-label",
        b"<p>x",
        "text/html; charset=iso-2022-kr",
        "replacement",
        "header",
        label="iso-2022-kr",
    ),
    # Step 5: the prescan, confidence tentative.
    case("step5-meta", META_BIG5, None, "Big5", "meta", label="big5", confidence="tentative"),
    case("step5-meta-utf16-is-utf8", b'<meta charset="utf-16">', None, "UTF-8", "meta"),
    case(
        "step5-meta-x-user-defined-is-1252",
        b"<meta charset=x-user-defined>",
        None,
        "windows-1252",
        "meta",
        label="x-user-defined",
    ),
    case(
        "step5-meta-replacement",
        b"<meta charset=csiso2022kr>",
        None,
        "replacement",
        "meta",
        label="csiso2022kr",
    ),
    case(
        "step5-meta-utf7-refused",
        b"<meta charset=utf-7>" + HTML_1252,
        None,
        "windows-1252",
        "default",
        ignored=["refused_label"],
    ),
    case(
        "step5-meta-in-comment-ignored",
        b"<!-- <meta charset=big5> -->" + HTML_1252,
        None,
        "windows-1252",
        "default",
    ),
    case(
        "step5-meta-in-attribute-ignored",
        b"<a title='<meta charset=big5>'>" + HTML_1252,
        None,
        "windows-1252",
        "default",
    ),
    case(
        "step5-xml-declaration",
        b"<?xml version='1.0' encoding='koi8-r'?><html>",
        None,
        "KOI8-R",
        "xml-declaration",
        label="koi8-r",
    ),
    case(
        "step5-late-meta-in-head",
        b"<head><!--" + b"-" * 2000 + b"--><meta charset=koi8-r>",
        None,
        "KOI8-R",
        "meta",
        label="koi8-r",
    ),
    # The scraping side's rule: valid UTF-8 is UTF-8.
    case("utf8-valid", "<p>café".encode(), None, "UTF-8", "utf8-validity", confidence="tentative"),
    case("utf8-ascii", b"<p>plain", None, "UTF-8", "utf8-validity"),
    case("utf8-truncated-at-end", "<p>日本".encode()[:-1], None, "UTF-8", "utf8-validity"),
    # Steps 8-9: detection (none plugged in here), then the default.
    case("step9-default", HTML_1252, None, "windows-1252", "default", confidence="tentative"),
    case("step9-lone-lead-byte-at-end", b"<p>caf\xe9", None, "windows-1252", "default"),
    # Other kinds of body.
    case(
        "xml-declaration",
        b"<?xml version='1.0' encoding='iso-8859-2'?><a/>",
        None,
        "ISO-8859-2",
        "xml-declaration",
        kind="xml",
    ),
    case(
        "xml-header-beats-declaration",
        b"<?xml version='1.0' encoding='iso-8859-2'?><a/>",
        "text/xml; charset=utf-8",
        "UTF-8",
        "header",
        label="utf-8",
        ignored=["header_xml_declaration_conflict"],
        kind="xml",
    ),
    case("xml-default-utf8", b"<a>\xe9</a>", None, "UTF-8", "default", kind="xml"),
    case(
        # No <meta> prescan for XML; the body is ASCII, so the UTF-8 step decides.
        "xml-no-meta-scan",
        b"<a><meta charset=big5/></a>",
        None,
        "UTF-8",
        "utf8-validity",
        kind="xml",
    ),
    case(
        "json-rfc8259-utf8",
        b'{"a": "\xe9"}',
        "application/json; charset=iso-8859-1",
        "UTF-8",
        "default",
        ignored=["not_utf"],
        kind="json",
    ),
    case(
        "json-utf16-header",
        '{"a": 1}'.encode("utf-16-be"),
        "application/json; charset=utf-16be",
        "UTF-16BE",
        "header",
        label="utf-16be",
        kind="json",
    ),
    case(
        "text-no-meta-scan",
        b"<meta charset=big5>" + HTML_1252,
        "text/plain",
        "windows-1252",
        "default",
        kind="text",
    ),
]


@pytest.mark.parametrize(("body", "content_type", "kind", "override", "expected"), CASES)
def test_precedence(
    body: bytes,
    content_type: str | None,
    kind: Kind,
    override: str | None,
    expected: dict[str, Any],
) -> None:
    # The order without detection: the detection step has its own tests (test_detect.py).
    decision = sniff(body, content_type, kind=kind, override=override, detector=None)
    assert decision.encoding == expected["encoding"]
    assert decision.source == expected["source"]
    if expected["label"] is not None:
        assert decision.label == expected["label"]
    if expected["confidence"] is not None:
        assert decision.confidence == expected["confidence"]
    assert [item.reason for item in decision.ignored] == expected["ignored"]


def test_order_is_data() -> None:
    names = {kind: [step.__name__ for step in steps] for kind, steps in ORDER.items()}
    assert names["html"] == [
        "bom_step",
        "override_step",
        "header_step",
        "meta_step",
        "utf8_step",
        "detect_step",
        "default_step",
    ]


def test_detector_hook() -> None:
    from scrapy_charset.sniffing.detect import Detected

    calls: list[tuple[bytes, str | None]] = []

    def detector(body: bytes, url: str | None) -> Detected:
        calls.append((body, url))
        return Detected("KOI8-R", "test", 0.5)

    decision = sniff(HTML_1252, url="http://example.ru/", detector=detector)
    assert calls == [(HTML_1252, "http://example.ru/")]
    assert (decision.encoding, decision.source, decision.detector) == ("KOI8-R", "detected", "test")
    assert decision.as_dict()["detector"] == {"name": "test", "score": 0.5}
    # Valid UTF-8 never reaches the detector.
    sniff(b"plain", detector=detector)
    assert len(calls) == 1


def test_as_dict_is_json_safe() -> None:
    import json

    decision = sniff(BOM8 + META_BIG5, "text/html; charset=bogus")
    data = decision.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["ignored"][0] == {
        "source": "header",
        "label": "bogus",
        "encoding": None,
        "reason": "unknown_label",
        "offset": None,
    }


def test_decision_is_frozen() -> None:
    decision = sniff(b"x")
    assert isinstance(decision, EncodingDecision)
    with pytest.raises(AttributeError):
        decision.encoding = "x"  # type: ignore[misc]


@pytest.mark.parametrize(("kwargs"), [{"kind": "pdf"}, {"default": "utf-7"}])
def test_bad_arguments_are_clear_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"kind|default"):
        sniff(b"x", **kwargs)
