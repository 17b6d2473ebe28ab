"""Stored crawls for the audit tests: WARC files written with warcio from the demo site's
pages, and hostile records (a broken HTTP header block, a truncated archive, a record
over the size limit...; text, URLs and record ids that are markup).

``python -m tests.archives FOLDER`` writes the demo archive (``demo.warc.gz``), the one
the documentation's summary table comes from.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Iterable
from io import BytesIO
from pathlib import Path
from typing import Any

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from tests.example import EXAMPLE  # noqa: F401 - puts the example project on sys.path

from example_project.demo_site import RU_HOST, DemoPage, pages  # isort: skip

#: The demo site's address in the archive (a crawl's port changes every run).
BASE = "http://127.0.0.1:8000"


def page_url(page: DemoPage, base: str = BASE) -> str:
    return f"http://{page.host}{page.path}" if page.host else base + page.path


def record_id(n: int) -> str:
    return f"<urn:uuid:00000000-0000-4000-8000-{n:012d}>"


def euc_jp_page() -> tuple[str, bytes]:
    """A Japanese page in EUC-JP with one invalid byte pair, FD FE: Python's decoder gives
    two U+FFFD where the Encoding Standard's gives one (the only difference)."""
    intended = next(page for page in pages() if page.path == "/ja/").intended
    title_end = intended.index("</title>")
    body = (
        intended[:title_end].encode("euc_jp") + b"\xfd\xfe" + intended[title_end:].encode("euc_jp")
    )
    return "http://example.jp/euc-jp/", body


def chunked(body: bytes, size: int = 100) -> bytes:
    """*body* in HTTP/1.1 chunked transfer coding."""
    parts = [
        b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size])
        for i in range(0, len(body), size)
    ]
    return b"".join(parts) + b"0\r\n\r\n"


class Archive:
    """A WARC file being written; records get ids in order (see :func:`record_id`)."""

    def __init__(self, stream: Any, *, gzip: bool = True) -> None:
        self.writer = WARCWriter(stream, gzip=gzip)
        self.stream = stream
        self.gzip = gzip
        self.count = 0

    def _next_id(self) -> str:
        self.count += 1
        return record_id(self.count)

    def response(
        self,
        url: str,
        body: bytes,
        headers: Iterable[tuple[str, str]],
        *,
        status: str = "200 OK",
        ident: str | None = None,
    ) -> str:
        ident = ident or self._next_id()
        http = StatusAndHeaders(status, list(headers), protocol="HTTP/1.1")
        record = self.writer.create_warc_record(
            url,
            "response",
            payload=BytesIO(body),
            length=len(body),
            http_headers=http,
            warc_headers_dict={"WARC-Record-ID": ident},
        )
        self.writer.write_record(record)
        return ident

    def raw(self, url: str, block: bytes, record_type: str, content_type: str) -> str:
        """A record whose block is written as given, even one that warcio's writer would
        refuse (a response without an HTTP status line)."""
        ident = self._next_id()
        head = (
            f"WARC/1.1\r\nWARC-Type: {record_type}\r\nWARC-Record-ID: {ident}\r\n"
            f"WARC-Target-URI: {url}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n"
        )
        member = head.encode() + block + b"\r\n\r\n"
        self.stream.write(gzip.compress(member, mtime=0) if self.gzip else member)
        return ident


def write_demo(stream: Any, *, gzip: bool = True) -> dict[str, str]:
    """The demo site's pages as a crawl stored them; ``{url: record id}``."""
    archive = Archive(stream, gzip=gzip)
    ids = {}
    for page in pages():
        headers = [*page.headers.items(), ("Content-Length", str(len(page.body)))]
        url = page_url(page)
        request = f"GET {page.path} HTTP/1.1\r\nHost: {page.host or '127.0.0.1:8000'}\r\n\r\n"
        archive.raw(url, request.encode(), "request", "application/http; msgtype=request")
        ids[url] = archive.response(url, page.body, headers)
    return ids


def write_hostile(stream: Any, *, large: int) -> dict[str, str]:
    """Records an audit must count and get past; ``{what: record id}``."""
    archive = Archive(stream)
    ids = {}
    url, body = euc_jp_page()
    ids["euc-jp"] = archive.response(url, body, [("Content-Type", "text/html; charset=euc-jp")])
    ids["broken"] = archive.raw(
        "http://example.com/broken",
        b"<html><body>Stored without its status line</body></html>",
        "response",
        "application/http; msgtype=response",
    )
    de = next(page for page in pages() if page.path == "/de/")
    ids["chunked-gzip"] = archive.response(
        "http://example.de/chunked",
        chunked(gzip.compress(de.body, mtime=0)),
        [
            ("Content-Type", de.content_type),
            ("Content-Encoding", "gzip"),
            ("Transfer-Encoding", "chunked"),
        ],
    )
    ids["dns"] = archive.raw(
        "dns:example.com",
        b"20261201000000\nexample.com. 300 IN A 127.0.0.1\n",
        "response",
        "text/dns",
    )
    ids["revisit"] = archive.raw(BASE + "/", b"", "revisit", "application/http; msgtype=response")
    filler = ("<p>" + de.intended + "</p>\n").encode("cp1252")
    ids["large"] = archive.response(
        "http://example.de/large",
        filler * (large // len(filler) + 1),
        [("Content-Type", "text/html; charset=windows-1252")],
    )
    ru = next(page for page in pages() if page.host == RU_HOST)
    ids["after"] = archive.response(
        "http://novosti.example.ru/after-the-large-one",
        ru.body,
        [("Content-Type", "text/html")],
    )
    return ids


#: Text an HTML report must show inert: markup that would close the report's style sheet,
#: start a script or break out of an attribute, and every bidi embedding, override and
#: isolate (U+202A-U+202E, U+2066-U+2069), which would reorder the text around them.
HOSTILE_TEXT = (
    "</style><script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>' onmouseover='alert(3)",
    "\u202eevil\u202c \u2066iso\u2069 \u202a\u202b\u202d\u2067\u2068 end",
)

#: URLs an HTML report must not turn into live links, or whose quote must not end an
#: attribute.
HOSTILE_URLS = (
    'http://example.com/a"onmouseover="alert(4)"',
    'javascript:alert("x")//',
    'http://a"onmouseover="alert(5)<b>.example/',
)

#: A record id that is markup.
HOSTILE_ID = '<urn:"><script>alert(6)</script>>'


def write_hostile_text(stream: Any) -> dict[str, str]:
    """JSON responses labelled with a non-UTF charset over UTF-8 bytes (RFC 8259: JSON is
    UTF-8, so the texts differ) whose text, URL or record id is markup or reorders text,
    and an HTML page that stored mojibake around markup; ``{what: record id}``."""
    archive = Archive(stream)
    ids = {}
    labels = ("iso-8859-1", "windows-1250", "koi8-r")
    for n, (payload, url, label) in enumerate(zip(HOSTILE_TEXT, HOSTILE_URLS, labels, strict=True)):
        body = json.dumps({"name": "Caf\u00e9 " + payload}, ensure_ascii=False).encode()
        ids[f"json-{n}"] = archive.response(
            url,
            body,
            [("Content-Type", f"application/json; charset={label}")],
            ident=HOSTILE_ID if n == 0 else None,
        )
    stored = "<p>Caf\u00c3\u00a9 cr\u00c3\u00a8me</style><script>alert(7)</script></p>"
    ids["mojibake"] = archive.response(
        "http://example.fr/menu",
        f"<html><head><title>Menu</title></head><body>{stored}</body></html>".encode(),
        [("Content-Type", "text/html; charset=utf-8")],
    )
    return ids


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "demo.warc.gz", "wb") as stream:
        write_demo(stream)
    print(out / "demo.warc.gz")
    with open(out / "hostile-text.warc.gz", "wb") as stream:
        write_hostile_text(stream)
    print(out / "hostile-text.warc.gz")


if __name__ == "__main__":
    main(sys.argv[1])


class Repeat:
    """A seekable stream of *size* bytes repeating *unit*, never held in memory whole."""

    def __init__(self, unit: bytes, size: int) -> None:
        self.unit = unit
        self.size = size
        self.pos = 0

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = self.size - self.pos
        n = min(n, self.size - self.pos, 1 << 20)
        start = self.pos % len(self.unit)
        reps = (start + n) // len(self.unit) + 1
        data = (self.unit * reps)[start : start + n]
        self.pos += n
        return data

    def tell(self) -> int:
        return self.pos

    def seek(self, pos: int, whence: int = 0) -> int:
        self.pos = pos if whence == 0 else (self.pos + pos if whence == 1 else self.size + pos)
        return self.pos


def write_huge(stream: Any, size: int) -> str:
    """One HTML response of *size* bytes, streamed (uncompressed WARC), then a small one."""
    archive = Archive(stream, gzip=False)
    de = next(page for page in pages() if page.path == "/de/")
    http = StatusAndHeaders(
        "200 OK",
        [("Content-Type", "text/html; charset=windows-1252"), ("Content-Length", str(size))],
        protocol="HTTP/1.1",
    )
    ident = archive._next_id()
    record = archive.writer.create_warc_record(
        "http://example.de/huge",
        "response",
        payload=Repeat(de.body, size),
        length=size,
        http_headers=http,
        warc_headers_dict={"WARC-Record-ID": ident},
    )
    archive.writer.write_record(record)
    archive.response(BASE + de.path, de.body, [("Content-Type", de.content_type)])
    return ident
