"""A local HTTP server for crawl tests: serves fixed responses on 127.0.0.1, a free port.

Each route is ``path -> Page(body, headers, status)``; the body is sent as given (already
compressed where the test says so), with ``Content-Length`` added; a page with ``sent``
stops after that many bytes and closes the connection (a download cut short).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Page:
    body: bytes
    headers: Mapping[str, str | list[str]] = field(default_factory=dict)
    status: int = 200
    #: When set, only this many bytes of the body are sent under the full Content-Length,
    #: then the connection closes: a download cut short.
    sent: int | None = None


class _Handler(BaseHTTPRequestHandler):
    routes: Mapping[str, Page] = {}
    protocol_version = "HTTP/1.1"

    def _send(self, with_body: bool) -> None:
        page = self.routes.get(self.path.split("?", 1)[0])
        if page is None:
            page = Page(b"not found", {"Content-Type": "text/plain"}, 404)
        self.send_response(page.status)
        for name, value in page.headers.items():
            for one in [value] if isinstance(value, str) else value:
                self.send_header(name, one)
        self.send_header("Content-Length", str(len(page.body)))
        self.end_headers()
        if with_body:
            self.wfile.write(page.body if page.sent is None else page.body[: page.sent])
        if page.sent is not None:
            self.close_connection = True

    def do_GET(self) -> None:
        self._send(True)

    def do_HEAD(self) -> None:
        self._send(False)

    def log_message(self, format: str, *args: object) -> None:
        pass


def free_port() -> int:
    """A port free on 127.0.0.1 now, for pages that must name their own absolute URLs."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(routes: Mapping[str, Page], port: int = 0) -> Iterator[str]:
    """Serve *routes* on 127.0.0.1 (*port*, or a free one); yields the base URL
    (``http://127.0.0.1:PORT``)."""
    handler = type("Handler", (_Handler,), {"routes": dict(routes)})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
