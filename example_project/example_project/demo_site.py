"""A small demo site that serves real multilingual text the way real sites serve it.

Every page is written as Unicode text (country and currency names from pycountry's
translation catalogues) and then served as a real server would: in a legacy encoding
declared only in ``<meta>``, labelled in the header only, not declared at all, labelled
with a name that browsers read as another encoding, with a byte order mark, compressed,
as an XML feed, as a JSON API, and so on.

The server listens on 127.0.0.1 (a free port) in a background thread. It also answers as
an HTTP proxy for a few virtual hosts (``novosti.example.ru``), so that a page can have a
real-looking URL with a country-code top-level domain without any DNS: the spider routes
requests for those hosts through this server (see ``middlewares.py``).
"""

from __future__ import annotations

import gettext
import gzip
import json
import struct
import threading
import zlib
from dataclasses import dataclass, field
from functools import cache, lru_cache
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

__all__ = ["RU_HOST", "VIRTUAL_HOSTS", "DemoPage", "DemoSite", "pages"]

#: A host name with the ``.ru`` top-level domain, served through the demo server as a proxy.
RU_HOST = "novosti.example.ru"
VIRTUAL_HOSTS = frozenset({RU_HOST})

# (country, currency) pairs, translated from pycountry's ISO 3166-1 and ISO 4217 catalogues.
_PAIRS = (
    ("Japan", "Yen"),
    ("Korea, Republic of", "Won"),
    ("Russian Federation", "Russian Ruble"),
    ("China", "Yuan Renminbi"),
    ("Germany", "Euro"),
    ("France", "Euro"),
    ("United Kingdom", "Pound Sterling"),
    ("United States", "US Dollar"),
    ("India", "Indian Rupee"),
    ("Brazil", "Brazilian Real"),
    ("Egypt", "Egyptian Pound"),
    ("Mexico", "Mexican Peso"),
)


@dataclass(frozen=True)
class DemoPage:
    """One page of the demo site.

    ``intended`` is the document as its author wrote it: the text a reader should get.
    ``body`` and ``headers`` are what the server sends, which may declare the encoding
    wrongly, or not at all, or carry text the site itself damaged.
    """

    path: str
    what: str
    intended: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    host: str | None = None  # None: the server's own address; else a virtual host

    @property
    def content_type(self) -> str:
        return self.headers.get("Content-Type", "")


@cache
def _catalogue(lang: str, domain: str) -> gettext.NullTranslations:
    try:
        import pycountry
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "the demo site takes its text from pycountry's catalogues: "
            'install it with `python -m pip install -e ".[demo]"`'
        ) from exc
    path = Path(pycountry.LOCALES_DIR) / lang / "LC_MESSAGES" / f"{domain}.mo"
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as file:
        return gettext.GNUTranslations(file)


def country(lang: str, name: str) -> str:
    return _catalogue(lang, "iso3166-1").gettext(name)


def currency(lang: str, name: str) -> str:
    return _catalogue(lang, "iso4217").gettext(name)


def _lines(lang: str, *, euro_sign: bool = False) -> list[str]:
    lines = []
    for country_name, currency_name in _PAIRS:
        money = currency(lang, currency_name)
        if euro_sign and currency_name == "Euro":
            money += " (€)"
        lines.append(f"{country(lang, country_name)}: {money}")
    return lines


def _html(lang: str, title: str, lines: list[str], *, head: str = "", dir_: str = "") -> str:
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    direction = f' dir="{dir_}"' if dir_ else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"{direction}><head>{head}'
        f"<title>{escape(title)}</title></head>\n"
        f"<body><h1>{escape(title)}</h1><ul>{items}</ul></body></html>\n"
    )


def _mojibake(text: str) -> str:
    """What a site shows after reading its own UTF-8 as windows-1252 (once).

    Bytes that windows-1252 leaves undefined become the C1 control of the same number,
    as browsers and MySQL's ``latin1`` read them.
    """
    out = []
    for byte in text.encode("utf-8"):
        try:
            out.append(bytes([byte]).decode("cp1252"))
        except UnicodeDecodeError:
            out.append(chr(byte))
    return "".join(out)


def _png() -> bytes:
    """A 1x1 PNG image."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xd0\x30\x30")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _build() -> list[DemoPage]:
    html = "text/html"
    found: list[DemoPage] = []

    # Japanese in Shift_JIS, declared only in <meta>, as many Japanese sites still are.
    text = _html(
        "ja",
        country("ja", "Japan"),
        _lines("ja"),
        head='<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">',
    )
    found.append(
        DemoPage(
            "/ja/",
            "Japanese, Shift_JIS, declared only in <meta>",
            text,
            text.encode("cp932"),
            {"Content-Type": html},
        )
    )

    # Korean in EUC-KR, labelled in the Content-Type header only.
    text = _html("ko", country("ko", "Korea, Republic of"), _lines("ko"))
    found.append(
        DemoPage(
            "/ko/",
            "Korean, EUC-KR, labelled euc-kr in the header",
            text,
            text.encode("cp949"),
            {"Content-Type": "text/html; charset=euc-kr"},
        )
    )

    # Russian in windows-1251 declared nowhere, on a .ru host: only detection can tell.
    text = _html("ru", country("ru", "Russian Federation"), _lines("ru"))
    found.append(
        DemoPage(
            "/",
            "Russian, windows-1251, undeclared, on a .ru host",
            text,
            text.encode("cp1251"),
            {"Content-Type": html},
            host=RU_HOST,
        )
    )

    # Chinese labelled gb2312, with traditional characters that only GBK has: browsers read
    # the gb2312 label as GBK.
    lines = [
        f"{country('zh_CN', name)} / {country('zh_TW', name)}: {currency('zh_CN', money)}"
        for name, money in _PAIRS
    ]
    text = _html("zh", country("zh_CN", "China"), lines)
    found.append(
        DemoPage(
            "/zh/",
            "Chinese labelled gb2312, with GBK-only characters",
            text,
            text.encode("gbk"),
            {"Content-Type": "text/html; charset=gb2312"},
        )
    )

    # German labelled iso-8859-1 with a euro sign: byte 0x80, which only windows-1252 has;
    # browsers read the iso-8859-1 label as windows-1252.
    text = _html("de", country("de", "Germany"), _lines("de", euro_sign=True))
    found.append(
        DemoPage(
            "/de/",
            "German labelled iso-8859-1, with a euro sign (byte 0x80)",
            text,
            text.encode("cp1252"),
            {"Content-Type": "text/html; charset=iso-8859-1"},
        )
    )

    # Arabic in UTF-8, declared only in <meta>.
    text = _html(
        "ar", country("ar", "Egypt"), _lines("ar"), head='<meta charset="utf-8">', dir_="rtl"
    )
    found.append(
        DemoPage(
            "/ar/",
            "Arabic, UTF-8, declared only in <meta>",
            text,
            text.encode("utf-8"),
            {"Content-Type": html},
        )
    )

    # Hebrew in UTF-8 with a byte order mark, while the server's header still says
    # windows-1255: the BOM wins in browsers.
    text = _html("he", country("he", "Israel"), _lines("he"), dir_="rtl")
    found.append(
        DemoPage(
            "/he/",
            "Hebrew, UTF-8 with a BOM, header says windows-1255",
            text,
            b"\xef\xbb\xbf" + text.encode("utf-8"),
            {"Content-Type": "text/html; charset=windows-1255"},
        )
    )

    # French in UTF-8 with <meta charset="utf-8">, but the server adds its default
    # "charset=iso-8859-1": the header wins in browsers too, so the page shows "Ã©".
    text = _html("fr", country("fr", "France"), _lines("fr"), head='<meta charset="utf-8">')
    found.append(
        DemoPage(
            "/fr/",
            "French, UTF-8, header says iso-8859-1, <meta> says utf-8",
            text,
            text.encode("utf-8"),
            {"Content-Type": "text/html; charset=iso-8859-1"},
        )
    )

    # Vietnamese in UTF-8 whose <meta> says utf-16 (an editor's "save as Unicode" left it
    # behind). An ASCII-compatible page cannot be UTF-16: the HTML Standard reads a UTF-16
    # label found by the prescan as UTF-8.
    text = _html(
        "vi",
        country("vi", "Viet Nam"),
        _lines("vi"),
        head='<meta http-equiv="Content-Type" content="text/html; charset=utf-16">',
    )
    found.append(
        DemoPage(
            "/vi/",
            "Vietnamese, UTF-8, <meta> says utf-16",
            text,
            text.encode("utf-8"),
            {"Content-Type": html},
        )
    )

    # Spanish in windows-1252 declared nowhere, as many older sites are: browsers fall back
    # to windows-1252.
    text = _html("es", country("es", "Spain"), _lines("es"))
    found.append(
        DemoPage(
            "/es/",
            "Spanish, windows-1252, undeclared",
            text,
            text.encode("cp1252"),
            {"Content-Type": html},
        )
    )

    # Greek in windows-1253, declared in <meta>, sent gzip-compressed.
    text = _html("el", country("el", "Greece"), _lines("el"), head='<meta charset="windows-1253">')
    found.append(
        DemoPage(
            "/el/",
            "Greek, windows-1253 in <meta>, gzip-compressed",
            text,
            gzip.compress(text.encode("cp1253"), mtime=0),
            {"Content-Type": html, "Content-Encoding": "gzip"},
        )
    )

    # Polish RSS feed in ISO-8859-2, declared in the XML declaration only.
    entries = "".join(f"<item><title>{escape(line)}</title></item>" for line in _lines("pl"))
    text = (
        '<?xml version="1.0" encoding="ISO-8859-2"?>\n'
        f'<rss version="2.0"><channel><title>{escape(country("pl", "Poland"))}</title>'
        f"{entries}</channel></rss>\n"
    )
    found.append(
        DemoPage(
            "/pl/feed.xml",
            "Polish RSS feed, ISO-8859-2 in the XML declaration",
            text,
            text.encode("iso8859-2"),
            {"Content-Type": "application/rss+xml"},
        )
    )

    # A JSON API: UTF-8 as JSON must be, but the framework labels it iso-8859-1.
    data = {
        "title": country("es", "Mexico"),
        "currencies": [
            {"country": country("es", name), "currency": currency("es", money)}
            for name, money in _PAIRS
        ],
    }
    text = json.dumps(data, ensure_ascii=False)
    found.append(
        DemoPage(
            "/api/currencies.json",
            "JSON API, UTF-8, header says iso-8859-1",
            text,
            text.encode("utf-8"),
            {"Content-Type": "application/json; charset=iso-8859-1"},
        )
    )

    # An image: not text, left alone.
    found.append(DemoPage("/logo.png", "A PNG image", "", _png(), {"Content-Type": "image/png"}))

    # A shop whose database already holds mojibake: its UTF-8 text was once read as
    # windows-1252 and saved again. The bytes are valid UTF-8; the text itself is damaged.
    lines = _lines("pt")
    text = _html("pt", country("pt", "Brazil"), lines, head='<meta charset="utf-8">')
    damaged = _html(
        "pt",
        _mojibake(country("pt", "Brazil")),
        [_mojibake(line) for line in lines],
        head='<meta charset="utf-8">',
    )
    found.append(
        DemoPage(
            "/pt/",
            "Portuguese, UTF-8, with mojibake the site itself stored",
            text,
            damaged.encode("utf-8"),
            {"Content-Type": "text/html; charset=utf-8"},
        )
    )
    return found


def _index(found: list[DemoPage]) -> DemoPage:
    links = "".join(
        f'<li><a href="{escape(_link(page))}">{escape(page.what)}</a></li>' for page in found
    )
    text = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>scrapy-charset demo site</title></head>\n"
        "<body><h1>scrapy-charset demo site</h1>"
        "<p>Each page is served the way real sites serve their text.</p>"
        f"<ul>{links}</ul></body></html>\n"
    )
    return DemoPage(
        "/",
        "This index",
        text,
        text.encode("utf-8"),
        {"Content-Type": "text/html; charset=utf-8"},
    )


def _link(page: DemoPage) -> str:
    return f"http://{page.host}{page.path}" if page.host else page.path


@lru_cache(maxsize=1)
def pages() -> tuple[DemoPage, ...]:
    """Every page of the demo site, the index first."""
    found = _build()
    return (_index(found), *found)


_ROBOTS = DemoPage(
    "/robots.txt", "robots.txt", "", b"User-agent: *\nAllow: /\n", {"Content-Type": "text/plain"}
)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "scrapy-charset-demo"
    routes: ClassVar[dict[tuple[str | None, str], DemoPage]] = {}

    def _page(self) -> DemoPage | None:
        # A proxy request carries the absolute URL; a direct one only the path.
        parts = urlsplit(self.path)
        host = parts.hostname if parts.scheme else None
        if host not in VIRTUAL_HOSTS:
            host = None
        path = parts.path or "/"
        if path == "/robots.txt":
            return _ROBOTS
        return self.routes.get((host, path))

    def _send(self, with_body: bool) -> None:
        page = self._page()
        if page is None:
            body, headers, status = b"Not found\n", {"Content-Type": "text/plain"}, 404
        else:
            body, headers, status = page.body, page.headers, 200
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def do_GET(self) -> None:
        self._send(True)

    def do_HEAD(self) -> None:
        self._send(False)

    def log_message(self, format: str, *args: object) -> None:
        pass


class DemoSite:
    """The demo site on 127.0.0.1, a free port, served from a background thread.

    Use it as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(self, port: int = 0) -> None:
        self._port = port
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the demo site is not running")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, page: DemoPage) -> str:
        """The URL of *page*: under the server's address, or on its virtual host."""
        return f"http://{page.host}{page.path}" if page.host else self.base_url + page.path

    def start(self) -> str:
        routes = {(page.host, page.path): page for page in pages()}
        handler = type("DemoHandler", (_Handler,), {"routes": routes})
        self._server = ThreadingHTTPServer(("127.0.0.1", self._port), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="demo-site", daemon=True
        )
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def __enter__(self) -> DemoSite:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


if __name__ == "__main__":  # pragma: no cover - manual use
    import time

    with DemoSite(8000) as site:
        print(f"Demo site on {site.base_url}/ (Ctrl+C to stop)")
        for page in pages():
            print(f"  {site.url(page):45} {page.what}")
        print(f"Pages on {RU_HOST} go through this server as a proxy, for example:")
        print(f"  http_proxy={site.base_url} scrapy charset http://{RU_HOST}/")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
