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

from scrapy_charset.decision import Confidence, EncodingDecision, Ignored, Source
from scrapy_charset.sniff.detect import Detected, Detector, get_detector
from scrapy_charset.sniff.fallback import DEFAULT_ENCODING
from scrapy_charset.sniff.prescan import get_xml_encoding, prescan
from scrapy_charset.sniff.transport import charset_parameter
from scrapy_charset.sniff.utf8 import decode_utf8, has_iso2022jp_escapes, is_utf8, mostly_utf8
from scrapy_charset.whatwg.bom import bom_sniff
from scrapy_charset.whatwg.labels import get_encoding, is_refused

__all__ = ["KINDS", "ORDER", "Detected", "Detector", "Kind", "sniff", "sniff_with_text"]

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


Step = Callable[[_Context], EncodingDecision | None]


def _decision(
    encoding: str,
    source: Source,
    confidence: Confidence,
    label: str | None = None,
    offset: int | None = None,
) -> EncodingDecision:
    return EncodingDecision(
        encoding=encoding, source=source, confidence=confidence, label=label, offset=offset
    )


def _unusable(source: Source, label: str) -> Ignored:
    reason = "refused_label" if is_refused(label) else "unknown_label"
    return Ignored(source=source, label=label, reason=reason)


def bom_step(ctx: _Context) -> EncodingDecision | None:
    """Step 1: BOM sniffing. A BOM decides with the confidence certain."""
    found = bom_sniff(ctx.body)
    if found is None:
        return None
    return _decision(found[0], Source.BOM, Confidence.CERTAIN)


def override_step(ctx: _Context) -> EncodingDecision | None:
    """Step 2: the user's explicit override (``Request.meta["charset_encoding"]``)."""
    if ctx.override is None:
        return None
    label = ctx.override.strip("\t\n\x0c\r ")
    encoding = get_encoding(label)
    if encoding is None:
        ctx.ignored.append(_unusable(Source.OVERRIDE, label))
        return None
    return _decision(encoding, Source.OVERRIDE, Confidence.CERTAIN, label)


def header_step(ctx: _Context) -> EncodingDecision | None:
    """Step 3: the transport layer's charset (``Content-Type``), confidence certain.

    An unknown or empty label gives nothing and the scan goes on.
    """
    written = charset_parameter(ctx.content_type)
    if written is None:
        return None
    label = written.strip("\t\n\x0c\r ")
    encoding = get_encoding(label)
    if encoding is None:
        ctx.ignored.append(_unusable(Source.HEADER, label))
        return None
    if ctx.kind == "json" and encoding not in _UTFS:
        # RFC 8259, 8.1: JSON text exchanged between systems is UTF-8; only a UTF counts.
        ctx.ignored.append(Ignored(Source.HEADER, label, "not_utf", encoding))
        return None
    return _decision(encoding, Source.HEADER, Confidence.CERTAIN, label)


def meta_step(ctx: _Context) -> EncodingDecision | None:
    """Step 5: prescan the byte stream (a ``<meta>``, then an XML declaration), tentative."""
    result = prescan(ctx.body)
    ctx.ignored.extend(result.ignored)
    if result.encoding is None:
        return None
    return _decision(
        result.encoding, result.source, Confidence.TENTATIVE, result.label, result.offset
    )


def xml_declaration_step(ctx: _Context) -> EncodingDecision | None:
    """XML 1.0, 4.3.3 and Appendix F, as browsers read it: UTF-16 without a BOM by its
    first bytes, else the declaration's ``encoding`` ("get an XML encoding")."""
    body = ctx.body
    if body.startswith(b"<\x00?\x00x\x00"):
        return _decision("UTF-16LE", Source.XML_DECLARATION, Confidence.CERTAIN, None, 0)
    if body.startswith(b"\x00<\x00?\x00x"):
        return _decision("UTF-16BE", Source.XML_DECLARATION, Confidence.CERTAIN, None, 0)
    found = get_xml_encoding(body[:1024])
    if found is None:
        return None
    return _decision(found[0], Source.XML_DECLARATION, Confidence.CERTAIN, found[1], 0)


def utf8_step(ctx: _Context) -> EncodingDecision | None:
    """The scraping side's rule: an undeclared body that is valid UTF-8 is UTF-8, and so
    is one that is mostly UTF-8 (:mod:`scrapy_charset.sniff.utf8`): the decision then
    names the rule as its detector, with the counts. Seven-bit ISO-2022-JP text is left
    to detection."""
    if ctx.want_text:
        valid, ctx.text = decode_utf8(ctx.body)
    else:
        valid = is_utf8(ctx.body)
    if valid:
        if ctx.body.isascii() and has_iso2022jp_escapes(ctx.body):
            ctx.text = None
            return None
        return _decision("UTF-8", Source.UTF8, Confidence.TENTATIVE)
    evidence = mostly_utf8(ctx.body)
    if evidence is None:
        return None
    return EncodingDecision(
        encoding="UTF-8",
        source=Source.UTF8,
        confidence=Confidence.TENTATIVE,
        detector="mostly-utf-8",
        score=evidence.share,
        details=(("valid", evidence.valid), ("invalid", evidence.invalid)),
    )


def detect_step(ctx: _Context) -> EncodingDecision | None:
    """Step 8 (autodetection): frequency analysis and the URL's top-level domain."""
    if ctx.detector is None:
        return None
    detected = ctx.detector(ctx.body, ctx.url)
    if detected is None:
        return None
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
    return _decision(ctx.default, Source.DEFAULT, Confidence.TENTATIVE)


#: The browser's order, per kind of body. HTML follows the HTML Standard; XML reads the
#: XML declaration instead of ``<meta>`` and defaults to UTF-8; JSON is UTF-8 unless a BOM
#: or the header names another UTF (RFC 8259); plain text has no in-document declaration.
ORDER: dict[Kind, tuple[Step, ...]] = {
    "html": (bom_step, override_step, header_step, meta_step, utf8_step, detect_step, default_step),
    "xml": (bom_step, override_step, header_step, xml_declaration_step, default_step),
    "json": (bom_step, override_step, header_step, default_step),
    "text": (bom_step, override_step, header_step, utf8_step, detect_step, default_step),
}

#: Steps that read a declaration: after a decision, those still to come are read for
#: conflicts.
_DECLARATIONS: frozenset[Step] = frozenset({header_step, meta_step, xml_declaration_step})

_DEFAULTS: dict[Kind, str] = {
    "html": DEFAULT_ENCODING,
    "xml": "UTF-8",
    "json": "UTF-8",
    "text": DEFAULT_ENCODING,
}


def sniff(
    body: bytes,
    content_type: str | bytes | None = None,
    url: str | None = None,
    *,
    kind: Kind = "html",
    override: str | None = None,
    detector: Detector | str | None = "default",
    default: str | None = None,
) -> EncodingDecision:
    """Determine the encoding of *body* as a browser does, and say how.

    :param body: the raw body (after content-encoding is removed): ``bytes``,
        ``bytearray`` or ``memoryview``.
    :param content_type: the ``Content-Type`` header value, ``str`` or ``bytes`` (as
        Scrapy's ``response.headers`` gives it, read as latin-1); several values may be
        joined with commas, as HTTP combines duplicate headers.
    :param url: the response URL, a hint for detection (its top-level domain).
    :param kind: ``"html"``, ``"xml"``, ``"json"`` or ``"text"``: which rules apply.
    :param override: a label that overrides every declaration but a BOM.
    :param detector: for an undeclared body that is not UTF-8: a name as the
        ``CHARSET_DETECTOR`` setting takes (by default the middleware's default detector;
        ``"none"`` turns detection off), a :data:`Detector` callable, or None (no detection).
    :raises TypeError: for an argument of the wrong type, naming it.
    :param default: the encoding when nothing else decides (``windows-1252`` for HTML and
        text, ``UTF-8`` for XML and JSON). It must be an Encoding Standard name or label.
    """
    ctx = _context(
        body,
        content_type=content_type,
        url=url,
        kind=kind,
        override=override,
        detector=detector,
        default=default,
    )
    return _determine(ctx)


def sniff_with_text(
    body: bytes,
    content_type: str | bytes | None = None,
    url: str | None = None,
    *,
    kind: Kind = "html",
    override: str | None = None,
    detector: Detector | str | None = "default",
    default: str | None = None,
) -> tuple[EncodingDecision, str | None]:
    """:func:`sniff`, plus the body's text when deciding already decoded it, else None.

    The UTF-8 check decodes an undeclared body to know that it is UTF-8; this returns that
    text (exactly what ``decode(body, "UTF-8")`` gives) so that a caller need not decode
    the body a second time. For every other decision the text is None.
    """
    ctx = _context(
        body,
        content_type=content_type,
        url=url,
        kind=kind,
        override=override,
        detector=detector,
        default=default,
    )
    ctx.want_text = True
    decision = _determine(ctx)
    text = ctx.text if decision.source is Source.UTF8 else None
    return decision, text


def _context(
    body: bytes,
    *,
    content_type: str | bytes | None,
    url: str | None,
    kind: Kind,
    override: str | None,
    detector: Detector | str | None,
    default: str | None,
) -> _Context:
    _require("body", body, (bytes, bytearray, memoryview), "bytes, bytearray or memoryview")
    _require("content_type", content_type, (str, bytes, type(None)), "str, bytes or None")
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
    return _Context(
        # A bytes object is used as it is: copying a large body would double its memory.
        body=body if type(body) is bytes else bytes(body),
        content_type=content_type.decode("latin-1")
        if isinstance(content_type, bytes)
        else content_type,
        url=url,
        kind=kind,
        override=override,
        detector=detector,
        default=fallback,
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
        return EncodingDecision(
            encoding=decision.encoding,
            source=decision.source,
            confidence=decision.confidence,
            label=decision.label,
            ignored=tuple(ctx.ignored),
            offset=decision.offset,
            detector=decision.detector,
            score=decision.score,
            details=decision.details,
        )
    raise AssertionError("the default step always decides")  # pragma: no cover
