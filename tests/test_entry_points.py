"""One table of responses, every entry point: the crawl's middleware, ``scrapy charset``
(its ``explain`` function with a Trace, and the command line with ``--file``) and the
audit give the same decision, and it is the expected one.

They all call :func:`scrapy_charset.responses.decide.decide`; before it, each worked the
routing out again and they disagreed (a UTF-16 body with a BOM and no type, an untyped
page with a late ``<meta>``).
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request
from scrapy.http import Headers, Response, TextResponse
from scrapy.responsetypes import responsetypes
from scrapy.utils.test import get_crawler

from scrapy_charset import audit_record
from scrapy_charset.commands.trail import explain
from scrapy_charset.responses.config import CharsetConfig
from scrapy_charset.responses.decide import Decided, Skipped, decide
from scrapy_charset.responses.middleware import CharsetMiddleware
from scrapy_charset.sniffing import Trace
from scrapy_charset.sniffing.transport import (
    charset_parameter,
    essence,
    parse_content_type,
)

RUSSIAN = "Привет, мир! Это проверка кодировки: съешь же ещё этих мягких французских булок."
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"


@dataclass(frozen=True)
class Case:
    """A response, and what every entry point must make of it: a skip reason, or
    ``(encoding, source, kind, sniffed type)``."""

    body: bytes
    headers: dict[str, str]
    url: str
    expected: tuple[str, ...] | tuple[str, str, str, str | None]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def override(self) -> str | None:
        value = self.meta.get("charset_encoding")
        return value if isinstance(value, str) else None

    @property
    def by_file(self) -> bool:
        """What ``scrapy charset --file`` can say: a body, a Content-Type, a URL and a
        label."""
        return (
            set(self.headers) <= {"Content-Type"}
            and set(self.meta) <= {"charset_encoding"}
            and self.override == self.meta.get("charset_encoding")
        )

    @property
    def by_audit(self) -> bool:
        """What the audit reads: a stored response has no request meta."""
        return not self.meta


def skipped(reason: str) -> tuple[str, ...]:
    return ("skipped", reason)


CASES = {
    # HTML Standard 13.2.3.2, step 4: the transport layer's charset.
    "typed-html-header": Case(
        '<html><head><meta charset="utf-8"></head><body>Café crème</body></html>'.encode(),
        {"Content-Type": "text/html; charset=utf-8"},
        "http://127.0.0.1/fr/",
        ("UTF-8", "header", "html", None),
    ),
    # Step 5: the prescan finds the <meta>.
    "typed-html-meta": Case(
        f'<html><head><meta charset="windows-1251"></head><body>{RUSSIAN}</body></html>'.encode(
            "cp1251"
        ),
        {"Content-Type": "text/html"},
        "http://127.0.0.1/ru/",
        ("windows-1251", "meta", "html", None),
    ),
    # No Content-Type: MIME Sniffing 7.1 computes text/html from "<!DOCTYPE HTML".
    "untyped-html": Case(
        b'<!DOCTYPE html><html><head><meta charset="windows-1252"></head>'
        b"<body>Caf\xe9 cr\xe8me br\xfbl\xe9e</body></html>",
        {},
        "http://127.0.0.1/fr/page",
        ("windows-1252", "meta", "html", "text/html"),
    ),
    # Scrapy makes a plain Response of it (binary bytes); browsers see the BOM (MIME
    # Sniffing 7.1, step 4: text/plain) and decode it (Encoding Standard, BOM sniff).
    "utf16-bom-untyped": Case(
        b"\xff\xfe" + f"<p>{RUSSIAN}</p>".encode("utf-16-le"),
        {},
        "http://127.0.0.1/ru/page",
        ("UTF-16LE", "bom", "text", "text/plain"),
    ),
    # "<P" + TT is an HTML signature (MIME Sniffing 7.1, step 2), so the page is HTML and
    # its <meta> after some text decides; Scrapy makes a TextResponse (no "<html>").
    "untyped-late-meta": Case(
        b'<p>Caf\xe9 cr\xe8me, cr\xeape et g\xe2teau</p>\n<meta charset="windows-1252">\n'
        b"<p>L'\xe9t\xe9 dernier</p>",
        {},
        "http://127.0.0.1/fr/late",
        ("windows-1252", "meta", "html", "text/html"),
    ),
    # Undeclared plain text that is not UTF-8: detection, with the .ru domain as a prior.
    "untyped-text-detected": Case(
        (RUSSIAN + "\n").encode("cp1251") * 3,
        {},
        "http://example.ru/notes",
        ("windows-1251", "detected", "text", "text/plain"),
    ),
    # XML 1.0, 4.3.3: the XML declaration.
    "typed-xml-declaration": Case(
        f'<?xml version="1.0" encoding="windows-1251"?><r>{RUSSIAN}</r>'.encode("cp1251"),
        {"Content-Type": "application/xml"},
        "http://127.0.0.1/feed",
        ("windows-1251", "xml-declaration", "xml", None),
    ),
    # "<?xml" computes text/xml (MIME Sniffing 7.1, step 2).
    "untyped-xml": Case(
        f'<?xml version="1.0" encoding="koi8-r"?><r>{RUSSIAN}</r>'.encode("koi8-r"),
        {},
        "http://127.0.0.1/feed",
        ("KOI8-R", "xml-declaration", "xml", "text/xml"),
    ),
    # RFC 8259, 8.1: JSON is UTF-8; a non-UTF charset is ignored.
    "json-not-utf": Case(
        '{"name": "Côte d\u2019Ivoire"}'.encode(),
        {"Content-Type": "application/json; charset=iso-8859-1"},
        "http://127.0.0.1/api",
        ("UTF-8", "default", "json", None),
    ),
    "png": Case(PNG, {"Content-Type": "image/png"}, "http://127.0.0.1/a.png", skipped("not_text")),
    # An uninformative type on binary bytes: MIME Sniffing computes a binary type.
    "octet-stream-binary": Case(
        b"\x00\x01\x02\x03 binary \x04\x05" * 8,
        {"Content-Type": "application/octet-stream"},
        "http://127.0.0.1/blob",
        skipped("not_text"),
    ),
    # A body whose Content-Encoding was not removed: never sniffed, never decoded.
    "compressed-looking": Case(
        gzip.compress(b"<html><body>" + b"Caf\xc3\xa9 " * 50 + b"</body></html>", mtime=0),
        {"Content-Encoding": "gzip"},
        "http://127.0.0.1/page",
        skipped("not_text"),
    ),
    "dont-charset": Case(
        b"<html><body>Caf\xe9</body></html>",
        {"Content-Type": "text/html; charset=windows-1252"},
        "http://127.0.0.1/fr/",
        skipped("dont_charset"),
        meta={"dont_charset": True},
    ),
    # Step 2: the user's override beats the header.
    "override": Case(
        f"<html><body>{RUSSIAN}</body></html>".encode("cp1251"),
        {"Content-Type": "text/html; charset=utf-8"},
        "http://127.0.0.1/ru/",
        ("windows-1251", "override", "html", None),
        meta={"charset_encoding": "windows-1251"},
    ),
    # An unknown label is ignored, and cut to 40 characters in the decision of every
    # entry point; the undeclared body is valid UTF-8.
    "long-unknown-label": Case(
        "<p>Café</p>".encode(),
        {"Content-Type": "text/html; charset=" + "x" * 300},
        "http://127.0.0.1/fr/",
        ("UTF-8", "utf8-validity", "html", None),
    ),
    # An override that is not a string is recorded as an unknown label, then the header
    # decides (a meta value the command and the audit cannot carry).
    "override-not-a-string": Case(
        "<p>Café</p>".encode("cp1252"),
        {"Content-Type": "text/html; charset=windows-1252"},
        "http://127.0.0.1/fr/",
        ("windows-1252", "header", "html", None),
        meta={"charset_encoding": 1252},
    ),
    "skipped-type": Case(
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
        {"Content-Type": "application/pdf"},
        "http://127.0.0.1/a.pdf",
        # Scrapy makes a TextResponse of application/pdf; its type is not text.
        skipped("content_type"),
    ),
}

_CLASS_KINDS = {
    "HtmlResponse": "html",
    "XmlResponse": "xml",
    "JsonResponse": "json",
    "TextResponse": "text",
}


def _scrapy_response(case: Case, request: Request | None = None) -> Response:
    headers = Headers(case.headers)
    cls = responsetypes.from_args(headers=headers, url=case.url, body=case.body)
    return cls(url=case.url, headers=headers, body=case.body, request=request)


def _expected(decision: dict[str, Any], kind: str) -> tuple[str, str, str, str | None]:
    return (decision["encoding"], decision["source"], kind, decision.get("sniffed_type"))


def by_middleware(case: Case) -> tuple[tuple[Any, ...], dict[str, Any] | None]:
    crawler = get_crawler(settings_dict={})
    middleware = CharsetMiddleware.from_crawler(crawler)
    request = Request(case.url, meta=dict(case.meta))
    response = _scrapy_response(case, request)
    result = middleware.process_response(request, response)
    assert crawler.stats is not None
    if "charset" not in request.meta:
        assert result is response
        left = [
            key.rpartition("/")[2]
            for key in crawler.stats.get_stats()
            if key.startswith("charset/skipped/")
        ]
        assert len(left) == 1
        return skipped(left[0]), None
    assert isinstance(result, TextResponse)
    decision = request.meta["charset"]
    assert result.meta["charset"] is decision
    return _expected(decision, _CLASS_KINDS[type(result).__name__]), decision


def by_explain(case: Case) -> tuple[tuple[Any, ...], dict[str, Any] | None]:
    found = explain(case.body, url=case.url, headers=case.headers, override=case.override)
    if found["kind"] is None:
        return skipped(found["skipped"]), None
    assert _CLASS_KINDS[found["read_as"]] == found["kind"]
    return _expected(found["decision"], found["kind"]), found["decision"]


def by_audit(case: Case) -> tuple[tuple[Any, ...], dict[str, Any] | None]:
    found = audit_record(case.body, case.headers, case.url)
    if found["left_alone"] is not None:
        return skipped(found["left_alone"]), None
    return _expected(found["charset"], found["kind"]), found["charset"]


def by_decide(case: Case) -> tuple[tuple[Any, ...], dict[str, Any] | None]:
    request = Request(case.url, meta=dict(case.meta))
    outcome = decide(request, _scrapy_response(case, request), CharsetConfig(), Trace())
    if isinstance(outcome, Skipped):
        return skipped(outcome.reason), None
    assert isinstance(outcome, Decided)
    decision = outcome.decision.as_dict()
    assert _CLASS_KINDS[outcome.response_class.__name__] == outcome.kind
    return _expected(decision, outcome.kind), decision


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_every_entry_point_gives_the_same_decision(case: Case) -> None:
    answers = {"middleware": by_middleware(case), "decide": by_decide(case)}
    if case.by_file:  # the command takes a label, not other meta keys
        answers["explain"] = by_explain(case)
    if case.by_audit:
        answers["audit"] = by_audit(case)
    for name, (found, decision) in answers.items():
        assert found == case.expected, name
        if decision is not None:
            assert all(
                len(i["label"]) <= 40 + len("... (cut, 1000 characters)")
                for i in decision["ignored"]
            )
        # The whole decision, not only its summary: ignored declarations, detector...
        assert decision == answers["middleware"][1], name


def _cli(case: Case, folder: Path) -> dict[str, Any]:
    path = folder / "body"
    path.write_bytes(case.body)
    command = [sys.executable, "-m", "scrapy.cmdline", "charset", "--json", "--file", str(path)]
    command += ["--url", case.url]
    if "Content-Type" in case.headers:
        command += ["--content-type", case.headers["Content-Type"]]
    if case.override is not None:
        command += ["--encoding", case.override]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


#: One case of each shape, through the real command line (each run starts Scrapy).
CLI_CASES = ["untyped-late-meta", "utf16-bom-untyped", "octet-stream-binary", "override"]


@pytest.mark.parametrize("name", CLI_CASES)
def test_scrapy_charset_file_gives_the_crawl_decision(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    assert case.by_file
    found = _cli(case, tmp_path)
    _, crawl = by_middleware(case)
    if found["kind"] is None:
        assert skipped(found["skipped"]) == case.expected
        assert crawl is None
    else:
        assert found["decision"] == crawl
        assert _expected(found["decision"], found["kind"]) == case.expected


# --- the Content-Type, parsed once ------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "text/html; charset=utf-8",
        "TEXT/HTML ; Charset = utf-8",
        'text/html; charset="koi8-r"',
        "text/plain, text/html; charset=koi8-r",
        "text/html; charset=koi8-r, text/html",
        "text/html;;;charset=gbk",
        "*/*, text/html",
        "nonsense",
        "",
        "x" * 300 + "/html; charset=utf-8",
    ],
    ids=[
        "common",
        "spaced",
        "quoted",
        "two-types",
        "charset-kept",
        "empty-params",
        "star",
        "nonsense",
        "empty",
        "long",
    ],
)
def test_parse_content_type_is_essence_and_charset(header: str) -> None:
    found = parse_content_type(header)
    assert (found.value, found.essence, found.charset) == (
        header,
        essence(header),
        charset_parameter(header),
    )


@pytest.mark.parametrize(
    "name", ["typed-html-header", "untyped-late-meta", "utf16-bom-untyped", "json-not-utf"]
)
def test_the_middleware_parses_the_content_type_once(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scrapy_charset.sniffing import transport

    case = CASES[name]
    # A header too long for the cache of short values: every parse is counted.
    headers = dict(case.headers)
    headers["Content-Type"] = headers.get("Content-Type", "unknown/unknown") + ";" + " " * 300
    case = Case(case.body, headers, case.url, case.expected, case.meta)
    calls = []
    original = transport.extract_mime_type

    def counting(header: str) -> Any:
        calls.append(header)
        return original(header)

    monkeypatch.setattr(transport, "extract_mime_type", counting)
    middleware = CharsetMiddleware.from_crawler(get_crawler(settings_dict={}))
    request = Request(case.url)
    middleware.process_response(request, _scrapy_response(case, request))
    assert "charset" in request.meta
    assert len(calls) == 1


def test_the_middleware_classifies_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An untyped page is rebuilt once, as the class of its sniffed type."""
    from scrapy.http import HtmlResponse

    built = []
    original = HtmlResponse.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(kwargs.get("encoding"))
        original(self, *args, **kwargs)

    case = CASES["untyped-late-meta"]
    request = Request(case.url)
    response = _scrapy_response(case, request)
    assert type(response) is TextResponse  # Scrapy's class: no "<html>" in the body
    monkeypatch.setattr(HtmlResponse, "__init__", counting)
    middleware = CharsetMiddleware.from_crawler(get_crawler(settings_dict={}))
    result = middleware.process_response(request, response)
    assert type(result) is HtmlResponse
    assert built == ["windows-1252"]


@pytest.mark.parametrize(
    ("name", "line"),
    [
        pytest.param(
            "utf16-bom-untyped",
            "Sniffed type  text/plain (MIME Sniffing Standard, 7.1), read as TextResponse",
            id="utf16-bom",
        ),
        pytest.param(
            "untyped-late-meta",
            "Sniffed type  text/html (MIME Sniffing Standard, 7.1), read as HtmlResponse",
            id="late-meta",
        ),
        pytest.param(
            "octet-stream-binary",
            "Sniffed type  application/octet-stream (MIME Sniffing Standard, 7.1)",
            id="binary",
        ),
    ],
)
def test_the_trail_shows_the_sniffed_type(name: str, line: str) -> None:
    from scrapy_charset.commands.trail import render

    case = CASES[name]
    assert line in render(explain(case.body, url=case.url, headers=case.headers)).splitlines()


def test_a_typed_trail_shows_no_sniffed_type() -> None:
    from scrapy_charset.commands.trail import render

    case = CASES["typed-html-header"]
    assert "Sniffed type" not in render(explain(case.body, url=case.url, headers=case.headers))


def test_the_recorded_ignored_labels() -> None:
    """The decision is whole as decide() returns it: the override that is not a label
    first, the labels cut."""
    for name, ignored in {
        "long-unknown-label": [("header", "x" * 40 + "... (cut, 300 characters)")],
        "override-not-a-string": [("override", "1252 (int, not a string)")],
    }.items():
        _, decision = by_decide(CASES[name])
        assert decision is not None
        assert [(i["source"], i["label"]) for i in decision["ignored"]] == ignored, name
