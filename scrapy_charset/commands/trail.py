"""The decision trail of one response, for ``scrapy charset``.

:func:`explain` decides one response with the function the middleware calls in a crawl
(:func:`scrapy_charset.responses.decide.decide`: which responses are left alone, the
MIME type browsers compute for an untyped one, the kind of rules), with a
:class:`~scrapy_charset.sniffing.trace.Trace`, so the trail is what each rule of
"determining the character encoding" saw when the decision was made (BOM, the
``Content-Type`` charset, ``<meta>`` or the XML declaration with its byte offset, UTF-8
validity, detection, the default), and a rule that did not run is shown as such. It sets
the decision against what Scrapy alone makes of the same bytes, with a sample of the text
where the two differ, and a sample of the damage (U+FFFD, mojibake) the text still holds
(a sample of markup starts where a run of text starts, not inside a tag). When the text is
damaged it says what to do (:func:`_fix`): a declaration that another encoding reads
cleanly is overridden per request with ``Request.meta["charset_encoding"]``; mojibake the
page's own text holds is left to the item checks' repairs.
:func:`render` only formats that record for a terminal.

Loaded only when the command runs (see ``charset.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.http import Headers, Response, TextResponse
from scrapy.responsetypes import responsetypes

from scrapy_charset.responses.config import CharsetConfig
from scrapy_charset.responses.decide import Skipped, decide
from scrapy_charset.responses.decision import EncodingDecision, Source
from scrapy_charset.sniffing import Kind, Trace
from scrapy_charset.sniffing.detect import Detected, Detector, get_detector
from scrapy_charset.sniffing.transport import combined_value
from scrapy_charset.whatwg.codecs import decode

if TYPE_CHECKING:
    from scrapy_charset.items.textcheck import TextReport

__all__ = ["explain", "render"]

#: Characters shown either side of the first difference, or of the first damage.
CONTEXT = 40

#: What each step is called in the trail, by the source it gives.
_STEP_NAMES = {
    Source.BOM: "bom",
    Source.OVERRIDE: "override",
    Source.HEADER: "header",
    Source.META: "in_document",
    Source.XML_DECLARATION: "in_document",
    Source.UTF8: "utf8",
    Source.DETECTED: "detection",
    Source.DEFAULT: "default",
}


#: The rule that decided, as the "not run" rows name it.
_DECIDERS = {
    "bom": "the byte order mark",
    "override": "the override",
    "header": "the Content-Type charset",
    "meta": "the <meta> declaration",
    "xml-declaration": "the XML declaration",
    "utf8-validity": "the UTF-8 validity rule",
    "detected": "detection",
    "default": "the default",
}


class _GuardedDetector:
    """The project's detector; a failure is kept to be shown rather than raised."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.error: str | None = None

    def __call__(self, body: bytes, url: str | None) -> Detected | None:
        try:
            return self.detector(body, url)
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            return None


def _load_detector(config: CharsetConfig) -> tuple[_GuardedDetector | None, str | None]:
    try:
        detector = get_detector(
            config.detector, window=config.detect_window, use_tld=config.detect_tld
        )
    except Exception as exc:  # a broken optional backend must not stop the trail
        return None, f"{type(exc).__name__}: {exc}"
    return (None if detector is None else _GuardedDetector(detector)), None


def _steps(
    trace: Trace, decision: EncodingDecision, detector: _GuardedDetector | None, error: str | None
) -> dict[str, Any]:
    """The trace as a JSON-safe dict: one entry a step, None for a step that did not run
    or found nothing, and the steps of the kind's rules that did not run."""
    detection: dict[str, Any] = {
        "applies": Source.DETECTED in trace.order,
        "ran": trace.detection is not None,
        "available": detector is not None,
        "error": error or (detector.error if detector else None),
        "result": None,
        "used": decision.source is Source.DETECTED,
    }
    found = trace.detection.detected if trace.detection else None
    if found is not None:
        detection["result"] = {
            "encoding": found.encoding,
            "detector": found.detector,
            "score": found.score,
        }
    return {
        "order": [source.value for source in trace.order],
        "not_run": [source.value for source in trace.order if not trace.ran(source)],
        "bom": trace.bom.as_dict() if trace.bom else None,
        "override": trace.override.as_dict() if trace.override else None,
        "header": trace.header.as_dict() if trace.header else None,
        "in_document": trace.in_document.as_dict() if trace.in_document else None,
        "utf8": trace.utf8.as_dict() if trace.utf8 else None,
        "detection": detection,
        "default": trace.default,
    }


def _first_difference(a: str, b: str) -> int | None:
    if a == b:
        return None
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


def _window(text: str, at: int, markup: bool = False) -> str:
    """Up to :data:`CONTEXT` characters either side of *at*; in *markup*, from the start of
    the run of text *at* is in (after the last ``>``) when it starts in that span, else
    from a word's start."""
    start = max(0, at - CONTEXT)
    if start:
        close = text.rfind(">", start, at) if markup else -1
        if close != -1:
            start = close + 1
        else:
            space = text.find(" ", start, at)
            if space != -1:
                start = space + 1
    return text[start : at + CONTEXT]


def _mojibake_at(text: str, inspect_text: Callable[[str], TextReport]) -> int | None:
    """Where the first line with mojibake (per *inspect_text*) goes wrong."""
    offset = 0
    for line in text.splitlines(keepends=True):
        report = inspect_text(line)
        if report.mojibake is not None:
            changed = _first_difference(line, report.repaired) if report.repaired else None
            return offset + (changed or 0)
        offset += len(line)
    return None


def _damage(text: str, markup: bool = False) -> dict[str, Any] | None:
    """U+FFFD and mojibake left in the decoded text, with a sample of the first damage.

    The item checks load only here: a broken optional backend of theirs (ftfy) leaves
    the rest of the trail whole.
    """
    try:
        from scrapy_charset.items.textcheck import inspect_text
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    report = inspect_text(text)
    if report.clean:
        return None
    repairs = None  # which repairs of the item checks undo the mojibake
    if report.mojibake is not None:
        if report.repaired is not None:
            repairs = "default"
        elif inspect_text(text, legacy=True).repaired is not None:
            repairs = "legacy"
    at = _mojibake_at(text, inspect_text) if report.mojibake is not None else None
    if at is None:
        at = max(text.find("\ufffd"), 0)
    return {
        "replacement_chars": report.replacement_chars,
        "mojibake": report.mojibake,
        # The rule that found the mojibake and the characters it fired on, as the
        # item checks' report names them.
        "rule": report.rule,
        "evidence": report.evidence,
        "repairs": repairs,
        "offset": at,
        "sample": _window(text, at, markup),
    }


def _compare(
    plain: TextResponse, text: str, markup: bool = False
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What Scrapy alone decodes, and the first difference from *text*."""
    scrapy_text = plain.text
    at = _first_difference(scrapy_text, text)
    scrapy = {
        "encoding": plain.encoding,
        "same_text": at is None,
        "replacement_chars": scrapy_text.count("\ufffd"),
    }
    if at is None:
        return scrapy, None
    difference = {
        "offset": at,
        "scrapy": _window(scrapy_text, at, markup),
        "scrapy_charset": _window(text, at, markup),
    }
    return scrapy, difference


def explain(
    body: bytes,
    *,
    url: str,
    content_type: str | None = None,
    headers: Headers | dict[str, Any] | None = None,
    kind: Kind | None = None,
    override: str | None = None,
    config: CharsetConfig | None = None,
    status: int | None = None,
    redirects: Sequence[tuple[str, int | str]] = (),
) -> dict[str, Any]:
    """The decision trail for *body* as a JSON-safe dict.

    :param url: the response URL (its top-level domain is a hint for detection).
    :param content_type: the ``Content-Type`` header value; taken from *headers* if None.
    :param headers: the response headers, as Scrapy would see them.
    :param kind: force the rules (``html``, ``xml``, ``json``, ``text``); by default they
        are the crawl's: the MIME type, else the type browsers compute for an untyped
        response, else the response class Scrapy would create.
    :param override: a forced label, as ``Request.meta["charset_encoding"]``.
    :param config: the ``CHARSET_*`` settings (detector, default encoding, skipped types)
        as the middleware reads them; the defaults if None.
    :param status: the HTTP status of a fetched response.
    :param redirects: the ``(url, status or reason)`` of each redirect that led to *url*.
    """
    config = config or CharsetConfig()
    content_type, plain = _response(body, url, content_type, headers)
    out: dict[str, Any] = {
        "url": url,
        "status": status,
        "redirects": [{"url": where, "status": why} for where, why in redirects],
        "content_type": content_type,
        "response_class": type(plain).__name__,
        "body_length": len(body),
    }
    # The crawl's own decision: which responses it leaves alone, the type browsers
    # compute for an untyped one, which kind of rules decode the others.
    meta = {} if override is None else {"charset_encoding": override}
    try:
        request = Request(url, meta=meta)
    except ValueError:  # no scheme: the decision reads only the meta and the method
        request = Request("http://invalid./", meta=meta)
    detector, error = _load_detector(config)
    trace = Trace()
    outcome = decide(request, plain, config, trace, kind=kind, detector=detector)
    out["sniffed_type"] = outcome.sniffed_type
    if isinstance(outcome, Skipped):
        out["kind"] = None
        out["skipped"] = outcome.reason
        out["note"] = f"scrapy-charset leaves this response alone ({outcome.reason})"
        return out
    out["kind"] = outcome.kind
    out["read_as"] = outcome.response_class.__name__
    if not isinstance(plain, TextResponse):
        plain = TextResponse(url=url, body=body, headers=plain.headers)
    out["override"] = override
    decision = outcome.decision
    out["trail"] = _steps(trace, decision, detector, error)
    out["decision"] = decision.as_dict()
    text = outcome.text if outcome.text is not None else decode(body, decision.encoding)
    markup = outcome.kind in {"html", "xml"}
    out["scrapy"], out["difference"] = _compare(plain, text, markup)
    out["replacement_chars"] = text.count("\ufffd")
    out["damage"] = _damage(text, markup)
    out["fix"] = _fix(body, url, decision, out["damage"], detector)
    return out


#: The sources that are a declaration of the page (or its server), which may be wrong.
_DECLARED = {Source.HEADER, Source.META, Source.XML_DECLARATION}


def _reads_cleanly(body: bytes, encoding: str) -> bool:
    """Whether *encoding* decodes *body* with neither U+FFFD nor mojibake."""
    from scrapy_charset.items.textcheck import inspect_text

    return inspect_text(decode(body, encoding)).clean


def _fix(
    body: bytes,
    url: str,
    decision: EncodingDecision,
    damage: dict[str, Any] | None,
    detector: _GuardedDetector | None,
) -> dict[str, Any] | None:
    """What to do about damaged text, or None.

    - ``override``: a declaration decided, and another encoding reads the body with no
      damage: UTF-8 for a body that is valid UTF-8 (``because`` ``valid_utf8``), else the
      detector's answer (``detected``). The remedy is ``Request.meta["charset_encoding"]``.
    - ``stored``: the body is decoded as UTF-8 and the text still holds mojibake: the page
      itself holds it, which no encoding undoes; ``repairs`` says which of the item checks'
      repairs undo it in items (``default``, ``legacy``) or none.
    """
    if damage is None or "error" in damage:
        return None
    if decision.source in _DECLARED:
        candidate = because = None
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            valid_utf8 = False
        else:
            valid_utf8 = True
        if valid_utf8:  # UTF-8, or nothing: a detector's guess on it reads it wrong
            if decision.encoding != "UTF-8" and not body.isascii():
                candidate, because = "UTF-8", "valid_utf8"
        elif detector is not None:
            found = detector(body, url)
            if found is not None and found.encoding != decision.encoding:
                candidate, because = found.encoding, "detected"
        if candidate is not None and _reads_cleanly(body, candidate):
            return {
                "action": "override",
                "declaration": decision.source.value,
                "label": decision.label,
                "encoding": candidate,
                "because": because,
                "meta": {"charset_encoding": candidate},
            }
    if decision.encoding == "UTF-8" and damage.get("mojibake"):
        return {"action": "stored", "repairs": damage.get("repairs")}
    return None


def _response(
    body: bytes, url: str, content_type: str | None, headers: Headers | dict[str, Any] | None
) -> tuple[str | None, Response]:
    """The ``Content-Type`` (given, or from *headers*) and the response Scrapy makes."""
    scrapy_headers = Headers(headers or {})
    if content_type is None:
        content_type = combined_value(scrapy_headers.getlist(b"Content-Type"))
    else:
        scrapy_headers[b"Content-Type"] = content_type.encode("latin-1")
    response_class = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
    return content_type, response_class(url=url, body=body, headers=scrapy_headers)


# --- The text for a terminal ---------------------------------------------------------


def _value(value: Any) -> str:
    """A value as a reader writes it: ``none``, ``yes``/``no``, two decimals, and so
    inside a list."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return str(value)


def _show(value: str) -> str:
    return value.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


def _declared(found: dict[str, Any] | None, what: str) -> str:
    if found is None:
        return f"no {what}"
    if found["label"] is None:
        if found.get("encoding"):
            return f"{found['encoding']}, by its first bytes (UTF-16 without a BOM)"
        return "none found"
    where = f" at byte {found['offset']}" if found.get("offset") is not None else ""
    target = found["encoding"]
    if found.get("problem"):
        target = f"{target or 'unusable'} ({found['problem']})"
    return f'"{found["label"]}"{where} -> {target}'


def _bom(found: dict[str, Any] | None) -> str:
    return "none" if found is None else f"{found['encoding']} ({found['length']} bytes)"


def _utf8(found: dict[str, Any]) -> str:
    if found["valid"]:
        said = "valid (ASCII only)" if found["ascii"] else "valid"
        if found.get("iso2022jp_escapes"):
            said += ", with ISO-2022-JP escapes: left to detection"
        return said
    said = f"not valid (first invalid byte at {found['first_invalid_offset']})"
    counts = found.get("mostly_utf8")
    if counts is not None:
        verdict = "mostly UTF-8" if counts["decided"] else "not mostly UTF-8"
        said += f"; {verdict} ({counts['valid']} valid, {counts['invalid']} invalid sequences)"
    return said


def _detection(found: dict[str, Any]) -> str:
    if found["error"]:
        return f"unavailable: {found['error']}"
    if not found["available"]:
        return "no detector"
    result = found["result"]
    if result is None:
        return "no answer"
    score = f", score {_value(result['score'])}" if result["score"] is not None else ""
    return f"{result['encoding']} ({result['detector']}{score})"


def _in_document(found: dict[str, Any]) -> list[tuple[str, str]]:
    name = "<meta> prescan" if found["source"] == "meta" else "XML declaration"
    rows = [(name, _declared(found, "declaration"))]
    for lost in found.get("ignored", []):
        lost_at = f'ignored "{lost["label"]}" at byte {lost["offset"]}'
        rows.append(("", f"{lost_at}: {lost['reason']}"))
    return rows


#: Step name -> (row title, how its record reads), in the browser's order.
_ROWS: dict[str, tuple[str, Callable[[Any], str]]] = {
    "bom": ("BOM", _bom),
    "override": ("Override", lambda found: _declared(found, "override")),
    "header": ("Content-Type", lambda found: _declared(found, "charset parameter")),
    "in_document": ("In-document", lambda found: ""),  # rows of their own: _in_document
    "utf8": ("UTF-8", _utf8),
    "detection": ("Detection", _detection),
    "default": ("Default", str),
}


def _step_rows(trail: dict[str, Any]) -> list[tuple[str, str]]:
    """One row a step, in the browser's order: what it saw, or that it did not run, or
    that it is not part of this kind's rules. The override shows only when one is given."""
    steps = trail["trail"]
    rows: list[tuple[str, str]] = []
    for name, (title, show) in _ROWS.items():
        sources = [source for source in steps["order"] if _STEP_NAMES[Source(source)] == name]
        if name == "override" and trail["override"] is None:
            continue
        if not sources:
            rows.append((title, f"not part of the {trail['kind']} rules"))
        elif sources[0] in steps["not_run"]:
            decided = _DECIDERS[trail["decision"]["source"]]
            rows.append((title, f"not run: {decided} decided first"))
        elif name == "in_document":
            rows.extend(_in_document(steps[name]))
        else:
            rows.append((title, show(steps[name])))
    return rows


def _head(trail: dict[str, Any]) -> list[str]:
    lines = [f"URL           {trail['url']}"]
    for number, hop in enumerate(trail.get("redirects", []), 1):
        title = "Redirected" if number == 1 else ""
        lines.append(f"{title:<14}{number}. {hop['url']} ({_value(hop['status'])})")
    if trail.get("status") is not None:
        lines.append(f"Status        {trail['status']}")
    lines.append(
        f"Response      {trail['response_class']}, {trail['body_length']} bytes, "
        f"Content-Type: {trail['content_type'] or 'none'}"
    )
    sniffed = trail.get("sniffed_type")
    if sniffed is not None:
        read_as = f", read as {trail['read_as']}" if trail.get("read_as") else ""
        lines.append(f"Sniffed type  {sniffed} (MIME Sniffing Standard, 7.1){read_as}")
    return lines


def _decision(decision: dict[str, Any]) -> list[str]:
    # The HTML Standard's confidence ("tentative" for an honoured <meta>) reads as doubt
    # about a decision that was used: --json has it.
    described = [f"source {decision['source']}"]
    if decision["label"] is not None:
        described.append(f'label "{decision["label"]}"')
    if decision.get("offset") is not None:
        described.append(f"byte {decision['offset']}")
    lines = [f"Decision      {decision['encoding']}: {', '.join(described)}"]
    detector = decision.get("detector")
    if detector:
        details = ", ".join(f"{key} {_value(value)}" for key, value in detector.items())
        lines.append(f"  detector          {details}")
    for lost in decision["ignored"]:
        lines.append(f'  ignored           {lost["source"]} "{lost["label"]}": {lost["reason"]}')
    return lines


def _outcome(trail: dict[str, Any]) -> list[str]:
    scrapy, difference, damage = trail["scrapy"], trail["difference"], trail["damage"]
    if difference is None:
        lines = [f"Scrapy alone  {scrapy['encoding']}: same text"]
    else:
        lines = [
            f"Scrapy alone  {scrapy['encoding']}: the text differs from character "
            f"{difference['offset']} (U+FFFD: Scrapy {scrapy['replacement_chars']}, "
            f"scrapy-charset {trail['replacement_chars']})",
            f"  Scrapy          {_show(difference['scrapy'])}",
            f"  scrapy-charset  {_show(difference['scrapy_charset'])}",
        ]
    if damage is not None and "error" in damage:
        lines.append(f"Damage        not checked: {damage['error']}")
    elif damage is not None:
        kinds = [f"U+FFFD {damage['replacement_chars']}"] if damage["replacement_chars"] else []
        if damage["mojibake"]:
            kinds.append(f"mojibake ({damage['mojibake']})")
        lines.append(
            f"Damage        the text still holds {' and '.join(kinds)}, "
            f"first at character {damage['offset']}"
        )
        lines.append(f"  sample          {_show(damage['sample'])}")
        if damage.get("rule"):
            found_on = f" on {_show(damage['evidence'])!r}" if damage.get("evidence") else ""
            lines.append(f"  rule            {damage['rule']}{found_on}")
    lines.extend(_fix_lines(trail))
    seen = trail.get("crawl_decision")
    if seen is not None:
        lines.append(
            f"In this crawl  {_value(seen.get('encoding'))} ({_value(seen.get('source'))}), "
            "from the project's scrapy-charset middleware"
        )
    return lines


#: How each declaration is named in the fix.
_DECLARATIONS = {
    "header": "the Content-Type charset",
    "meta": "the <meta> declaration",
    "xml-declaration": "the XML declaration",
}

_BECAUSE = {
    "valid_utf8": "it is valid UTF-8, and reads as UTF-8 with no damage",
    "detected": "the detector reads it as {encoding}, with no damage",
}

#: The item checks' repairs that undo the mojibake a page stores, by ``repairs``.
_REPAIRS = {
    "default": "the item checks repair it in your items (CHARSET_REPAIR_ENABLED, on by default)",
    "legacy": "the item checks repair it in your items with CHARSET_REPAIR_LEGACY = True",
    None: "the item checks count it in your items, but no repair of theirs undoes it",
}


def _fix_lines(trail: dict[str, Any]) -> list[str]:
    fix = trail.get("fix")
    if fix is None:
        return []
    if fix["action"] == "stored":
        return [
            "Fix           the page's own text holds the mojibake, no encoding undoes it: "
            + _REPAIRS[fix["repairs"]]
        ]
    encoding = fix["encoding"]
    declared = _DECLARATIONS[fix["declaration"]]
    because = _BECAUSE[fix["because"]].format(encoding=encoding)
    return [
        f'Fix           {declared} "{fix["label"]}" is wrong for this body: {because}',
        f'  per request     scrapy.Request(url, meta={{"charset_encoding": "{encoding}"}})',
        f"  to check        this command with --encoding {encoding}",
    ]


def render(trail: dict[str, Any]) -> str:
    """The trail as text for a terminal."""
    lines = _head(trail)
    if trail["kind"] is None:
        lines.append(f"              {trail['note']}")
        return "\n".join(lines)
    lines.append(f"Rules         {trail['kind']}")
    lines.extend(f"  {name:<18}  {value}" for name, value in _step_rows(trail))
    lines.extend(_decision(trail["decision"]))
    lines.extend(_outcome(trail))
    return "\n".join(lines)
