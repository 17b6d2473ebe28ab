"""HTML Standard 13.2.3.2, "determining the character encoding", for scraped bodies.

https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding

The browser's order is the data in :data:`ORDER`: one tuple of steps per kind of body. The
first step that gives an encoding decides; the declarations that come after it are still
read, so that a declaration that disagrees is reported in ``ignored``.

Pure code: nothing here imports Scrapy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from scrapy_charset.responses.decision import (
    Confidence,
    EncodingDecision,
    Ignored,
    Source,
    cut_label,
)
from scrapy_charset.sniffing.detect import FEW_BYTES, Detected, Detector, get_detector
from scrapy_charset.sniffing.fallback import DEFAULT_ENCODING
from scrapy_charset.sniffing.prescan import get_xml_encoding, utf16_xml_declaration
from scrapy_charset.sniffing.prescan import prescan as prescan_bytes
from scrapy_charset.sniffing.trace import (
    BomSeen,
    DeclarationSeen,
    DetectionSeen,
    LabelSeen,
    Trace,
    Utf8Seen,
)
from scrapy_charset.sniffing.transport import ContentType, parse_content_type
from scrapy_charset.sniffing.utf8 import (
    Utf8Evidence,
    accepted,
    decode_utf8,
    has_iso2022jp_escapes,
    is_utf8,
    rule_evidence,
)
from scrapy_charset.whatwg.bom import bom_sniff
from scrapy_charset.whatwg.labels import ASCII_WHITESPACE, get_encoding

__all__ = [
    "KINDS",
    "ORDER",
    "Detected",
    "Detector",
    "Kind",
    "Trace",
    "sniff",
    "sniff_with_text",
]

Kind = Literal["html", "xml", "json", "text"]
KINDS: tuple[Kind, ...] = ("html", "xml", "json", "text")

_UTFS = ("UTF-8", "UTF-16BE", "UTF-16LE")


@dataclass
class _Context:
    body: bytes
    content_type: str | None
    url: str | None
    kind: Kind
    override: str | None
    detector: Detector | None
    default: str
    ignored: list[Ignored] = field(default_factory=list)
    #: Whether the caller wants the text a step decodes on the way (see sniff_with_text).
    want_text: bool = False
    text: str | None = None
    #: Filled with what each step saw when the caller asks (see trace.py).
    trace: Trace | None = None
    #: The ``Content-Type``'s charset parameter, as written (parsed once, by the caller
    #: or by _context).
    charset: str | None = None
    #: Recorded in the decision: the MIME type computed for an untyped response.
    sniffed_type: str | None = None
    #: Labels in the decision are cut to this many characters (None: kept whole).
    max_label: int | None = None
    #: The UTF-8 counts of a body that is not valid UTF-8 (for the detection step).
    utf8: Utf8Evidence | None = None


Step = Callable[[_Context], EncodingDecision | None]


@lru_cache(maxsize=256)
def _decision(
    encoding: str,
    source: Source,
    confidence: Confidence,
    label: str | None = None,
    offset: int | None = None,
) -> EncodingDecision:
    """A decision of a declaration or a rule. Decisions are immutable, and a crawl meets
    the same few again and again (``text/html; charset=utf-8``): each is built once."""
    return EncodingDecision(
        encoding=encoding, source=source, confidence=confidence, label=label, offset=offset
    )


def bom_step(ctx: _Context) -> EncodingDecision | None:
    """Step 1: BOM sniffing. A BOM decides with the confidence certain."""
    found = bom_sniff(ctx.body)
    if ctx.trace is not None:
        ctx.trace.bom = BomSeen(*found) if found else BomSeen(None, 0)
    if found is None:
        return None
    return _decision(found[0], Source.BOM, Confidence.CERTAIN)


def _label_step(ctx: _Context, source: Source, written: str | None) -> tuple[str, str] | None:
    """``(label, encoding)`` for a label of the override or the transport layer, or None;
    an unusable label is recorded in ``ignored``."""
    label = None if written is None else written.strip(ASCII_WHITESPACE)
    encoding = None if label is None else get_encoding(label)
    problem = None
    if label is not None and encoding is None:
        lost = Ignored.unusable(source, label)
        ctx.ignored.append(lost)
        problem = lost.reason
    elif ctx.kind == "json" and source is Source.HEADER and encoding not in (None, *_UTFS):
        # RFC 8259, 8.1: JSON text exchanged between systems is UTF-8; only a UTF counts.
        assert label is not None
        ctx.ignored.append(Ignored(source, label, "not_utf", encoding))
        problem = "not_utf"
    if ctx.trace is not None:
        seen = LabelSeen(source, label, encoding, problem)
        if source is Source.OVERRIDE:
            ctx.trace.override = seen
        else:
            ctx.trace.header = seen
    if label is None or encoding is None or problem is not None:
        return None
    return label, encoding


def override_step(ctx: _Context) -> EncodingDecision | None:
    """Step 2: the user's explicit override (``Request.meta["charset_encoding"]``)."""
    found = _label_step(ctx, Source.OVERRIDE, ctx.override)
    if found is None:
        return None
    return _decision(found[1], Source.OVERRIDE, Confidence.CERTAIN, found[0])


def header_step(ctx: _Context) -> EncodingDecision | None:
    """Step 4: the transport layer's charset (``Content-Type``), confidence certain.

    An unknown or empty label gives nothing and the scan goes on.
    """
    found = _label_step(ctx, Source.HEADER, ctx.charset)
    if found is None:
        return None
    return _decision(found[1], Source.HEADER, Confidence.CERTAIN, found[0])


def meta_step(ctx: _Context) -> EncodingDecision | None:
    """Step 5: prescan the byte stream (a ``<meta>``, then an XML declaration), tentative."""
    result = prescan_bytes(ctx.body)
    ctx.ignored.extend(result.ignored)
    if ctx.trace is not None:
        ctx.trace.in_document = DeclarationSeen(
            result.source, result.label, result.encoding, result.offset, tuple(result.ignored)
        )
    if result.encoding is None:
        return None
    return _decision(
        result.encoding, result.source, Confidence.TENTATIVE, result.label, result.offset
    )


def xml_declaration_step(ctx: _Context) -> EncodingDecision | None:
    """XML 1.0, 4.3.3 and Appendix F, as browsers read it: UTF-16 without a BOM by its
    first bytes, else the declaration's ``encoding`` ("get an XML encoding")."""
    utf16 = utf16_xml_declaration(ctx.body)
    found = None if utf16 else get_xml_encoding(ctx.body[:1024])
    encoding, label = found if found else (utf16, None)
    if ctx.trace is not None:
        offset = None if encoding is None else 0
        ctx.trace.in_document = DeclarationSeen(Source.XML_DECLARATION, label, encoding, offset)
    if encoding is None:
        return None
    return _decision(encoding, Source.XML_DECLARATION, Confidence.CERTAIN, label, 0)


def utf8_step(ctx: _Context) -> EncodingDecision | None:
    """The scraping side's rule: an undeclared body that is valid UTF-8 is UTF-8, and so
    is one that is mostly UTF-8 (:mod:`scrapy_charset.sniffing.utf8`): the decision then
    names the rule as its detector, with the counts. Seven-bit ISO-2022-JP text is left
    to detection."""
    if ctx.want_text:
        valid, ctx.text = decode_utf8(ctx.body)
    else:
        valid = is_utf8(ctx.body)
    if valid:
        if ctx.body.isascii() and has_iso2022jp_escapes(ctx.body):
            ctx.text = None
            if ctx.trace is not None:
                ctx.trace.utf8 = Utf8Seen(True, True, None, iso2022jp_escapes=True)
            return None
        if ctx.trace is not None:
            ctx.trace.utf8 = Utf8Seen(True, ctx.body.isascii(), None)
        return _decision("UTF-8", Source.UTF8, Confidence.TENTATIVE)
    ctx.utf8 = rule_evidence(ctx.body)
    evidence = accepted(ctx.utf8)
    if ctx.trace is not None:
        ctx.trace.utf8 = Utf8Seen(
            False,
            False,
            _first_invalid(ctx.body),
            counts=ctx.utf8,
            mostly=evidence is not None,
        )
    if evidence is None:
        return None
    return _mostly_utf8(evidence)


def _mostly_utf8(evidence: Utf8Evidence, *extra: tuple[str, object]) -> EncodingDecision:
    return EncodingDecision(
        encoding="UTF-8",
        source=Source.UTF8,
        confidence=Confidence.TENTATIVE,
        detector="mostly-utf-8",
        score=evidence.share,
        details=(("valid", evidence.valid), ("invalid", evidence.invalid), *extra),
    )


#: A detector's score under which its answer is no evidence against a body that is mostly
#: valid UTF-8 (more valid multi-byte sequences than invalid ones).
WEAK_SCORE = 0.2


def _weak_over_utf8(ctx: _Context, detected: Detected) -> bool:
    """True when *detected* may not win over a body with more valid UTF-8 multi-byte
    sequences than invalid ones: its score is under :data:`WEAK_SCORE`, or it has none
    (the answer is a fallback, the TLD's or the decoder check's, not the backend's), or
    the body has fewer than :data:`~scrapy_charset.sniffing.detect.FEW_BYTES` non-ASCII
    bytes."""
    evidence = ctx.utf8
    if evidence is None or evidence.valid <= evidence.invalid:
        return False
    if detected.score is None or detected.score < WEAK_SCORE:
        return True
    # On a few bytes of evidence a detector's confidence means little either way.
    two = evidence.valid - evidence.three - evidence.four
    high = 2 * two + 3 * evidence.three + 4 * evidence.four + evidence.invalid
    return high < FEW_BYTES


def _first_invalid(body: bytes) -> int | None:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return None


def detect_step(ctx: _Context) -> EncodingDecision | None:
    """Step 8 (autodetection): frequency analysis and the URL's top-level domain."""
    if ctx.detector is None:
        if ctx.trace is not None:
            ctx.trace.detection = DetectionSeen(available=False)
        return None
    detected = ctx.detector(ctx.body, ctx.url)
    if ctx.trace is not None:
        ctx.trace.detection = DetectionSeen(available=True, detected=detected)
    if detected is None:
        return None
    if _weak_over_utf8(ctx, detected):
        # A guess the detector itself scores this low does not outweigh valid UTF-8: the
        # body is read as the mostly-UTF-8 text it looks like, with U+FFFD where it is not.
        assert ctx.utf8 is not None
        return _mostly_utf8(ctx.utf8, ("over", detected.encoding), ("over_score", detected.score))
    return EncodingDecision(
        encoding=detected.encoding,
        source=Source.DETECTED,
        confidence=Confidence.TENTATIVE,
        detector=detected.detector,
        score=detected.score,
        details=detected.details,
    )


def default_step(ctx: _Context) -> EncodingDecision | None:
    """Step 9: the default encoding, confidence tentative."""
    if ctx.trace is not None:
        ctx.trace.default = ctx.default
    return _decision(ctx.default, Source.DEFAULT, Confidence.TENTATIVE)


#: The browser's order, per kind of body. HTML follows the HTML Standard; XML reads the
#: XML declaration instead of ``<meta>`` and defaults to UTF-8; JSON is UTF-8 unless a BOM
#: or the header names another UTF (RFC 8259); plain text has no in-document declaration.
#: The scraping side's addition for XML: an undeclared body that is not UTF-8 is detected
#: as HTML is (a browser reads it as UTF-8 and stops at the first invalid byte; a feed in
#: windows-1251 or GBK with no declaration anywhere is still that feed's text).
ORDER: dict[Kind, tuple[Step, ...]] = {
    "html": (bom_step, override_step, header_step, meta_step, utf8_step, detect_step, default_step),
    "xml": (
        bom_step,
        override_step,
        header_step,
        xml_declaration_step,
        utf8_step,
        detect_step,
        default_step,
    ),
    "json": (bom_step, override_step, header_step, default_step),
    "text": (bom_step, override_step, header_step, utf8_step, detect_step, default_step),
}

#: Steps that read a declaration: after a decision, those still to come are read for
#: conflicts.
_DECLARATIONS: frozenset[Step] = frozenset({header_step, meta_step, xml_declaration_step})

#: The source each step gives, for the trace.
_SOURCES: dict[Step, Source] = {
    bom_step: Source.BOM,
    override_step: Source.OVERRIDE,
    header_step: Source.HEADER,
    meta_step: Source.META,
    xml_declaration_step: Source.XML_DECLARATION,
    utf8_step: Source.UTF8,
    detect_step: Source.DETECTED,
    default_step: Source.DEFAULT,
}

_DEFAULTS: dict[Kind, str] = {
    "html": DEFAULT_ENCODING,
    "xml": "UTF-8",
    "json": "UTF-8",
    "text": DEFAULT_ENCODING,
}


def sniff(
    body: bytes,
    content_type: str | bytes | ContentType | None = None,
    url: str | None = None,
    *,
    kind: Kind = "html",
    override: str | None = None,
    detector: Detector | str | None = "default",
    default: str | None = None,
    trace: Trace | None = None,
) -> EncodingDecision:
    """Determine the encoding of *body* as a browser does, and say how.

    :param body: the raw body (after content-encoding is removed): ``bytes``,
        ``bytearray`` or ``memoryview``.
    :param content_type: the ``Content-Type`` header value, ``str`` or ``bytes`` (as
        Scrapy's ``response.headers`` gives it, read as latin-1); several values may be
        joined with commas, as HTTP combines duplicate headers; or the header as
        :func:`~scrapy_charset.sniffing.transport.parse_content_type` parsed it.
    :param url: the response URL, a hint for detection (its top-level domain).
    :param kind: ``"html"``, ``"xml"``, ``"json"`` or ``"text"``: which rules apply.
    :param override: a label that overrides every declaration but a BOM.
    :param detector: for an undeclared body that is not UTF-8: a name as the
        ``CHARSET_DETECTOR`` setting takes (by default the middleware's default detector;
        ``"none"`` turns detection off), a :data:`Detector` callable, or None (no detection).
    :param default: the encoding when nothing else decides (``windows-1252`` for HTML and
        text, ``UTF-8`` for XML and JSON). It must be an Encoding Standard name or label.
    :param trace: a :class:`Trace` to fill with what each step saw (``scrapy charset``
        shows it); by default nothing is recorded.
    :raises TypeError: for an argument of the wrong type, naming it.
    """
    ctx = _context(
        body,
        content_type=content_type,
        url=url,
        kind=kind,
        override=override,
        detector=detector,
        default=default,
        trace=trace,
    )
    return _determine(ctx)


def sniff_with_text(
    body: bytes,
    content_type: str | bytes | ContentType | None = None,
    url: str | None = None,
    *,
    kind: Kind = "html",
    override: str | None = None,
    detector: Detector | str | None = "default",
    default: str | None = None,
    trace: Trace | None = None,
    ignored: tuple[Ignored, ...] = (),
    sniffed_type: str | None = None,
    max_label: int | None = None,
) -> tuple[EncodingDecision, str | None]:
    """:func:`sniff`, plus the body's text when deciding already decoded it, else None.

    The UTF-8 check decodes an undeclared body to know that it is UTF-8; this returns that
    text (exactly what ``decode(body, "UTF-8")`` gives) so that a caller need not decode
    the body a second time. For every other decision the text is None.

    The decision is whole when it is returned: *ignored* are the caller's own findings
    (an override that is not a label), recorded before the steps'; *sniffed_type* is the
    MIME type computed for an untyped response; with *max_label*, every label is cut to
    that many characters (:func:`~scrapy_charset.responses.decision.cut_label`).
    """
    ctx = _context(
        body,
        content_type=content_type,
        url=url,
        kind=kind,
        override=override,
        detector=detector,
        default=default,
        trace=trace,
    )
    ctx.want_text = True
    ctx.ignored.extend(ignored)
    ctx.sniffed_type = sniffed_type
    ctx.max_label = max_label
    decision = _determine(ctx)
    text = ctx.text if decision.source is Source.UTF8 else None
    return decision, text


def _context(
    body: bytes,
    *,
    content_type: str | bytes | ContentType | None,
    url: str | None,
    kind: Kind,
    override: str | None,
    detector: Detector | str | None,
    default: str | None,
    trace: Trace | None,
) -> _Context:
    _require("body", body, (bytes, bytearray, memoryview), "bytes, bytearray or memoryview")
    # A ContentType is the middleware's: the header already parsed.
    _require(
        "content_type", content_type, (str, bytes, ContentType, type(None)), "str, bytes or None"
    )
    _require("url", url, (str, type(None)), "str or None")
    _require("kind", kind, (str,), "str")
    _require("override", override, (str, type(None)), "str or None")
    _require("default", default, (str, type(None)), "str or None")
    if isinstance(detector, str):
        detector = _named_detector(detector)
    elif detector is not None and not callable(detector):
        raise TypeError(
            "sniff() argument 'detector' must be a detector name, a callable or None, "
            f"not {type(detector).__name__}"
        )
    if kind not in ORDER:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    fallback = _DEFAULTS[kind] if default is None else get_encoding(default)
    if fallback is None:
        raise ValueError(f"default {default!r} is not an Encoding Standard label")
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    parsed = (
        content_type if isinstance(content_type, ContentType) else parse_content_type(content_type)
    )
    if trace is not None:
        trace.order = tuple(_SOURCES[step] for step in ORDER[kind])
    return _Context(
        # A bytes object is used as it is: copying a large body would double its memory.
        body=body if type(body) is bytes else bytes(body),
        content_type=parsed.value,
        url=url,
        kind=kind,
        override=override,
        detector=detector,
        default=fallback,
        trace=trace,
        charset=parsed.charset,
    )


def _require(argument: str, value: object, types: tuple[type, ...], accepted: str) -> None:
    if not isinstance(value, types):
        raise TypeError(
            f"sniff() argument {argument!r} must be {accepted}, not {type(value).__name__}"
        )


@lru_cache(maxsize=16)
def _named_detector(name: str) -> Detector | None:
    """The detector a ``CHARSET_DETECTOR`` name gives, with the middleware's defaults for
    the window and the TLD prior; built once per name."""
    return get_detector(name)


def _determine(ctx: _Context) -> EncodingDecision:
    steps = ORDER[ctx.kind]
    for index, step in enumerate(steps):
        decision = step(ctx)
        if decision is None:
            continue
        for later in steps[index + 1 :]:
            if later not in _DECLARATIONS:
                continue
            lost = later(ctx)
            if lost is not None and lost.encoding != decision.encoding:
                winner = decision.source.value.replace("-", "_")
                loser = lost.source.value.replace("-", "_")
                ctx.ignored.append(
                    Ignored(
                        source=lost.source,
                        label=lost.label or "",
                        reason=f"{winner}_{loser}_conflict",
                        encoding=lost.encoding,
                        offset=lost.offset,
                    )
                )
        return _whole(ctx, decision)
    raise AssertionError("the default step always decides")  # pragma: no cover


def _whole(ctx: _Context, decision: EncodingDecision) -> EncodingDecision:
    """The step's *decision* with everything the context adds: the declarations ignored,
    the sniffed type, the labels cut. Built once; nothing is patched afterwards."""
    if not ctx.ignored and ctx.sniffed_type is None and ctx.max_label is None:
        return decision  # a step's decision has nothing ignored
    ignored = tuple(ctx.ignored)
    label = decision.label
    if ctx.max_label is not None:
        limit = ctx.max_label
        if label is not None:
            label = cut_label(label, limit)
        if any(len(item.label) > limit for item in ignored):
            ignored = tuple(
                Ignored(
                    source=item.source,
                    label=cut_label(item.label, limit),
                    reason=item.reason,
                    encoding=item.encoding,
                    offset=item.offset,
                )
                for item in ignored
            )
        if not ignored and ctx.sniffed_type is None and label == decision.label:
            return decision
    return EncodingDecision(
        encoding=decision.encoding,
        source=decision.source,
        confidence=decision.confidence,
        label=label,
        ignored=ignored,
        offset=decision.offset,
        detector=decision.detector,
        score=decision.score,
        details=decision.details,
        sniffed_type=ctx.sniffed_type,
    )
