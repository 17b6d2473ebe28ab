"""The decision trail of one response, for ``scrapy charset``.

:func:`explain` reads one body as each rule of "determining the character encoding" sees
it (BOM, the ``Content-Type`` charset, ``<meta>`` or the XML declaration with its byte
offset, UTF-8 validity, detection), gives the decision, and sets it against what Scrapy
alone makes of the same bytes, with a sample of the text where the two differ.

Loaded only when the command runs (see ``charset.py``).
"""

from __future__ import annotations

from typing import Any

from scrapy import Request
from scrapy.http import Headers, TextResponse
from scrapy.responsetypes import responsetypes

from scrapy_charset.config import CharsetConfig
from scrapy_charset.middleware import skip_reason
from scrapy_charset.sniff import ORDER, Kind, detect_step, sniff
from scrapy_charset.sniff.detect import Detector, get_detector
from scrapy_charset.sniff.prescan import get_xml_encoding, prescan
from scrapy_charset.sniff.transport import charset_parameter
from scrapy_charset.whatwg.bom import bom_sniff
from scrapy_charset.whatwg.codecs import decode
from scrapy_charset.whatwg.labels import get_encoding, is_refused

__all__ = ["explain", "render"]

#: Characters shown either side of the first difference.
CONTEXT = 40


def _label(label: str, source: str) -> dict[str, Any]:
    encoding = get_encoding(label)
    out: dict[str, Any] = {"source": source, "label": label, "encoding": encoding}
    if encoding is None:
        out["problem"] = "refused_label" if is_refused(label) else "unknown_label"
    return out


def _utf8(body: bytes) -> dict[str, Any]:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return {"valid": False, "ascii": False, "first_invalid_offset": exc.start}
    return {"valid": True, "ascii": body.isascii(), "first_invalid_offset": None}


def _in_document(body: bytes, kind: Kind) -> dict[str, Any] | None:
    if kind == "html":
        result = prescan(body)
        found: dict[str, Any] = {
            "source": result.source.value,
            "label": result.label,
            "encoding": result.encoding,
            "offset": result.offset,
            "ignored": [item.as_dict() for item in result.ignored],
        }
        return found
    if kind == "xml":
        declared = get_xml_encoding(body[:1024])
        if declared is None:
            return {"source": "xml-declaration", "label": None, "encoding": None, "offset": None}
        return {
            "source": "xml-declaration",
            "label": declared[1],
            "encoding": declared[0],
            "offset": 0,
        }
    return None  # JSON and plain text have no in-document declaration


def _detection(
    body: bytes, url: str | None, kind: Kind, config: CharsetConfig
) -> tuple[dict[str, Any], Detector | None]:
    """What detection says, whether this kind's rules consult it, and the detector.

    ``used`` is filled in once the decision is known.
    """
    out: dict[str, Any] = {
        "applies": detect_step in ORDER[kind],
        "available": False,
        "error": None,
        "result": None,
        "used": False,
    }
    try:
        detector = get_detector(
            config.detector, window=config.detect_window, use_tld=config.detect_tld
        )
    except Exception as exc:  # a broken optional backend must not stop the trail
        out["error"] = f"{type(exc).__name__}: {exc}"
        return out, None
    if detector is None:
        return out, None
    out["available"] = True
    if not out["applies"]:
        return out, detector
    try:
        found = detector(body, url)
    except Exception as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"
        return out, None
    if found is not None:
        out["result"] = {
            "encoding": found.encoding,
            "detector": found.detector,
            "score": found.score,
        }
    return out, detector


def _first_difference(a: str, b: str) -> int | None:
    if a == b:
        return None
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


def _window(text: str, at: int) -> str:
    start = max(0, at - CONTEXT)
    return text[start : at + CONTEXT]


def explain(
    body: bytes,
    *,
    url: str,
    content_type: str | None = None,
    headers: Headers | dict[str, Any] | None = None,
    kind: Kind | None = None,
    override: str | None = None,
    config: CharsetConfig | None = None,
) -> dict[str, Any]:
    """The decision trail for *body* as a JSON-safe dict.

    :param url: the response URL (its top-level domain is a hint for detection).
    :param content_type: the ``Content-Type`` header value; taken from *headers* if None.
    :param headers: the response headers, as Scrapy would see them.
    :param kind: force the rules (``html``, ``xml``, ``json``, ``text``); by default they
        follow the response class Scrapy would create.
    :param override: a forced label, as ``Request.meta["charset_encoding"]``.
    :param config: the ``CHARSET_*`` settings (detector, default encoding, skipped types)
        as the middleware reads them; the defaults if None.
    """
    config = config or CharsetConfig()
    scrapy_headers = Headers(headers or {})
    if content_type is None:
        values = scrapy_headers.getlist(b"Content-Type")
        content_type = b", ".join(values).decode("latin-1") if values else None
    elif b"Content-Type" not in scrapy_headers:
        scrapy_headers[b"Content-Type"] = content_type.encode("latin-1")
    response_class = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
    out: dict[str, Any] = {
        "url": url,
        "content_type": content_type,
        "response_class": response_class.__name__,
        "body_length": len(body),
    }
    # The middleware's own rules: which responses it leaves alone, which kind of rules
    # decode the others.
    reason, found_kind, _ = skip_reason(
        Request(url),
        response_class(url=url, body=body, headers=scrapy_headers),
        config.skip_content_types,
    )
    kind = kind or found_kind
    out["kind"] = kind
    if kind is None:
        out["skipped"] = reason or "content_type"
        out["note"] = f"scrapy-charset leaves this response alone ({out['skipped']})"
        return out
    if not issubclass(response_class, TextResponse):
        response_class = TextResponse

    bom = bom_sniff(body)
    header_label = charset_parameter(content_type)
    detection, detector = _detection(body, url, kind, config)
    out["trail"] = {
        "bom": {"encoding": bom[0], "length": bom[1]} if bom else None,
        "override": _label(override, "override") if override else None,
        "header": _label(header_label.strip("\t\n\x0c\r "), "header")
        if header_label is not None
        else None,
        "in_document": _in_document(body, kind),
        "utf8": _utf8(body),
        "detection": detection,
    }
    decision = sniff(
        body,
        content_type,
        url,
        kind=kind,
        override=override,
        detector=detector,
        default=config.default_encoding if kind in ("html", "text") else None,
    )
    out["decision"] = decision.as_dict()
    # Detection is consulted only for undeclared bodies that are not UTF-8; its answer on
    # other bodies is shown for information.
    detection["used"] = decision.source.value == "detected"
    text = decode(body, decision.encoding)

    plain = response_class(url=url, body=body, headers=scrapy_headers)
    scrapy_text = plain.text
    at = _first_difference(scrapy_text, text)
    out["scrapy"] = {
        "encoding": plain.encoding,
        "same_text": at is None,
        "replacement_chars": scrapy_text.count("\ufffd"),
    }
    out["replacement_chars"] = text.count("\ufffd")
    out["difference"] = (
        None
        if at is None
        else {
            "offset": at,
            "scrapy": _window(scrapy_text, at),
            "scrapy_charset": _window(text, at),
        }
    )
    return out


def _show(value: str) -> str:
    return value.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


def _declared(found: dict[str, Any] | None, what: str) -> str:
    if found is None:
        return f"no {what}"
    where = f" at byte {found['offset']}" if found.get("offset") is not None else ""
    if found["label"] is None:
        return "none found"
    target = found["encoding"] or f"unusable ({found.get('problem', 'unknown_label')})"
    return f'"{found["label"]}"{where} -> {target}'


def render(trail: dict[str, Any]) -> str:
    """The trail as text for a terminal."""
    lines = [
        f"URL           {trail['url']}",
        f"Response      {trail['response_class']}, {trail['body_length']} bytes, "
        f"Content-Type: {trail['content_type'] or '(none)'}",
    ]
    if trail["kind"] is None:
        lines.append(f"              {trail['note']}")
        return "\n".join(lines)
    lines.append(f"Rules         {trail['kind']}")
    steps = trail["trail"]
    bom = steps["bom"]
    rows = [("BOM", f"{bom['encoding']} ({bom['length']} bytes)" if bom else "none")]
    if steps["override"] is not None:
        rows.append(("Override", _declared(steps["override"], "override")))
    rows.append(("Content-Type", _declared(steps["header"], "charset parameter")))
    document = steps["in_document"]
    if document is None:
        rows.append(("In-document", f"not read for {trail['kind']}"))
    else:
        name = "<meta> prescan" if trail["kind"] == "html" else "XML declaration"
        if document["source"] == "xml-declaration" and trail["kind"] == "html":
            name = "XML declaration"
        rows.append((name, _declared(document, "declaration")))
        for lost in document.get("ignored", []):
            lost_at = f'ignored "{lost["label"]}" at byte {lost["offset"]}'
            rows.append(("", f"{lost_at}: {lost['reason']}"))
    utf8 = steps["utf8"]
    if utf8["valid"]:
        rows.append(("UTF-8", "valid (ASCII only)" if utf8["ascii"] else "valid"))
    else:
        first = utf8["first_invalid_offset"]
        rows.append(("UTF-8", f"not valid (first invalid byte at {first})"))
    detection = steps["detection"]
    if not detection["applies"]:
        said = f"not part of the {trail['kind']} rules"
    elif detection["error"]:
        said = f"unavailable: {detection['error']}"
    elif not detection["available"]:
        said = "no detector"
    else:
        found = detection["result"]
        if found is None:
            said = "no answer"
        else:
            score = f", score {found['score']:.2f}" if found["score"] is not None else ""
            said = f"{found['encoding']} ({found['detector']}{score})"
        if not detection["used"]:
            said += f"; not used, the {trail['decision']['source']} rule decided first"
    rows.append(("Detection", said))
    lines.extend(f"  {name:<18}  {value}" for name, value in rows)

    decision = trail["decision"]
    described = [f"source {decision['source']}", f"confidence {decision['confidence']}"]
    if decision["label"] is not None:
        described.append(f'label "{decision["label"]}"')
    if decision.get("offset") is not None:
        described.append(f"byte {decision['offset']}")
    lines.append(f"Decision      {decision['encoding']}: {', '.join(described)}")
    detector = decision.get("detector")
    if detector:
        details = ", ".join(f"{key} {value}" for key, value in detector.items())
        lines.append(f"  detector          {details}")
    for lost in decision["ignored"]:
        lines.append(f'  ignored           {lost["source"]} "{lost["label"]}": {lost["reason"]}')
    scrapy = trail["scrapy"]
    if scrapy["same_text"]:
        lines.append(f"Scrapy alone  {scrapy['encoding']}: same text")
    else:
        lines.append(
            f"Scrapy alone  {scrapy['encoding']}: the text differs from character "
            f"{trail['difference']['offset']} (U+FFFD: Scrapy {scrapy['replacement_chars']}, "
            f"scrapy-charset {trail['replacement_chars']})"
        )
        lines.append(f"  Scrapy          {_show(trail['difference']['scrapy'])}")
        lines.append(f"  scrapy-charset  {_show(trail['difference']['scrapy_charset'])}")
    return "\n".join(lines)
