"""Every use of Scrapy's private attributes, in one place, each with a named check.

Scrapy may change a private attribute in any release. The package touches few, and only
here:

- ``TextResponse._cached_ubody``: the middleware hands over a text it already decoded, so
  that ``.text`` does not decode the body again (:func:`set_text`);
- ``scrapy.utils.iterators._StreamReader``, its ``__init__``, ``_text``, ``_is_unicode``
  and ``encoding``: ``xmliter_lxml`` reads a response decoded by a ``whatwg-*`` codec as
  its text (:func:`read_as_text`, a process-wide patch installed once);
- ``SitemapSpider._get_sitemap_body``, which gives lxml a sitemap's bytes (read under the
  document's own XML declaration): a decided sitemap in a legacy encoding is given as its
  text, in UTF-8 (:func:`sitemap_as_text`, a process-wide patch installed once);
- a :class:`~scrapy.crawler.Crawler` that is never started, with a stats collector that
  keeps nothing and a request fingerprinter built from ``REQUEST_FINGERPRINTER_CLASS``,
  which Scrapy otherwise sets when a crawl starts (:func:`unstarted_crawler`): what the
  audit needs to build Scrapy's components (``HttpCompressionMiddleware``, the HTTP
  cache storages, whose ``open_spider`` reads the fingerprinter from it), and that leaves
  the command's log handler alone (``Crawler._update_root_log_handler``, which re-installs
  Scrapy's root handler from the crawler's own settings, DEBUG by default).

:data:`CHECKS` names each use and holds a check that raises :exc:`ScrapyChanged` when this
Scrapy no longer has the attribute or the behaviour relied on; the test suite runs them on
every supported Scrapy version. At run time a missing attribute costs nothing but the
saving: the text is decoded by Scrapy, with the same encoding, and ``xmliter_lxml`` stays
as Scrapy made it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy.http import TextResponse

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = [
    "CHECKS",
    "ScrapyChanged",
    "read_as_text",
    "set_text",
    "sitemap_as_text",
    "unstarted_crawler",
]


class ScrapyChanged(AssertionError):
    """This Scrapy no longer has a private attribute the package relies on."""

    def __init__(self, name: str, detail: str) -> None:
        import scrapy

        super().__init__(f"Scrapy {scrapy.__version__} changed {name}: {detail}")
        self.name = name


# --- TextResponse._cached_ubody ---------------------------------------------------------

CACHED_TEXT = "TextResponse._cached_ubody"


def set_text(response: TextResponse, text: str) -> None:
    """Let ``response.text`` be *text*, exactly what decoding its body gives, without
    decoding it again (Scrapy keeps the decoded body in ``_cached_ubody``)."""
    response._cached_ubody = text


def check_cached_text() -> None:
    """``TextResponse.text`` returns ``_cached_ubody`` once it is set."""
    response = TextResponse("http://example.com/", body=b"body", encoding="utf-8")
    if not hasattr(response, "_cached_ubody"):
        raise ScrapyChanged(CACHED_TEXT, "a new TextResponse has no _cached_ubody attribute")
    set_text(response, "text")
    if response.text != "text":
        raise ScrapyChanged(CACHED_TEXT, "TextResponse.text no longer returns _cached_ubody")


# --- scrapy.utils.iterators._StreamReader ------------------------------------------------

STREAM_READER = "scrapy.utils.iterators._StreamReader (__init__, _text, _is_unicode, encoding)"

_MARK = "_scrapy_charset_text"


def _stream_reader() -> Any:
    try:
        from scrapy.utils import iterators
    except ImportError:  # pragma: no cover - a Scrapy without the module
        return None
    reader = getattr(iterators, "_StreamReader", None)
    if reader is None or not callable(getattr(reader, "read", None)):
        return None
    return reader


def read_as_text(wanted: Callable[[str], bool]) -> bool:
    """Make ``xmliter_lxml``'s stream reader feed lxml the text (as UTF-8) of a
    :class:`~scrapy.http.TextResponse` whose encoding *wanted* accepts, instead of its
    body and encoding name (idempotent: the first *wanted* stays). False when this
    Scrapy's iterator has no stream reader of the known shape, which then stays as it
    is."""
    reader = _stream_reader()
    if reader is None:
        return False
    if getattr(reader, _MARK, False):
        return True
    original = reader.__init__

    def __init__(self: Any, obj: Any, *args: Any, **kwargs: Any) -> None:
        original(self, obj, *args, **kwargs)
        if (
            isinstance(obj, TextResponse)
            and isinstance(getattr(self, "encoding", None), str)
            and wanted(self.encoding)
            and hasattr(self, "_is_unicode")
        ):
            # The reader's own path for text: it feeds lxml UTF-8 and names it so.
            self._text, self.encoding, self._is_unicode = obj.text, "utf-8", True

    reader.__init__ = __init__
    setattr(reader, _MARK, True)
    return True


def check_stream_reader() -> None:
    """``_StreamReader(response)`` keeps the body in ``_text``, the name in ``encoding``
    and whether ``_text`` is a str in ``_is_unicode``, and reads a str ``_text`` as
    UTF-8 bytes."""
    reader = _stream_reader()
    if reader is None:
        raise ScrapyChanged(STREAM_READER, "scrapy.utils.iterators has no _StreamReader")
    response = TextResponse("http://example.com/", body=b"<a>x</a>", encoding="cp1252")
    found = reader(response)
    for name in ("_text", "_is_unicode", "encoding"):
        if not hasattr(found, name):
            raise ScrapyChanged(STREAM_READER, f"a _StreamReader has no {name} attribute")
    if found._text != response.body or found._is_unicode or found.encoding != "cp1252":
        raise ScrapyChanged(
            STREAM_READER,
            "_StreamReader(response) no longer keeps the body in _text and the response's "
            "encoding in encoding",
        )
    found._text, found.encoding, found._is_unicode = "<a>\u00e9</a>", "utf-8", True
    if found.read() != "<a>\u00e9</a>".encode():
        raise ScrapyChanged(STREAM_READER, "a str _text is no longer read as UTF-8")


# --- SitemapSpider._get_sitemap_body -----------------------------------------------------

SITEMAP_BODY = "SitemapSpider._get_sitemap_body (an XmlResponse's body, parsed by Sitemap)"

_SITEMAP_MARK = "_scrapy_charset_sitemap_text"


def _sitemap_spider() -> Any:
    try:
        from scrapy.spiders import SitemapSpider
    except ImportError:  # pragma: no cover - a Scrapy without it
        return None
    if not callable(getattr(SitemapSpider, "_get_sitemap_body", None)):
        return None
    return SitemapSpider


def sitemap_as_text(document: Callable[[TextResponse], bytes | None]) -> bool:
    """Make ``SitemapSpider`` parse, for a sitemap that is a
    :class:`~scrapy.http.TextResponse`, the bytes *document* gives (None: its body, as
    before), instead of its body (idempotent: the first *document* stays). A subclass that
    overrides ``_get_sitemap_body`` keeps its own. False when this Scrapy's spider has no
    such method, which then stays as it is."""
    spider = _sitemap_spider()
    if spider is None:
        return False
    if getattr(spider, _SITEMAP_MARK, False):
        return True
    original = spider._get_sitemap_body

    def _get_sitemap_body(self: Any, response: Any) -> bytes | None:
        body: bytes | None = original(self, response)
        if isinstance(response, TextResponse) and body is response.body:
            found = document(response)
            if found is not None:
                return found
        return body

    spider._get_sitemap_body = _get_sitemap_body
    setattr(spider, _SITEMAP_MARK, True)
    return True


def check_sitemap_body() -> None:
    """``SitemapSpider._get_sitemap_body`` returns an XmlResponse's own body, which
    ``scrapy.utils.sitemap.Sitemap`` parses (bytes, under the document's declaration)."""
    from scrapy.http import XmlResponse
    from scrapy.utils.sitemap import Sitemap

    spider = _sitemap_spider()
    if spider is None:
        raise ScrapyChanged(SITEMAP_BODY, "SitemapSpider has no _get_sitemap_body method")
    body = b"<urlset><url><loc>http://e.com/</loc></url></urlset>"
    response = XmlResponse("http://example.com/sitemap.xml", body=body)
    found = spider._get_sitemap_body(spider(name="check"), response)
    if found is not response.body:
        raise ScrapyChanged(
            SITEMAP_BODY, "_get_sitemap_body no longer returns an XmlResponse's body"
        )
    if [entry["loc"] for entry in Sitemap(found)] != ["http://e.com/"]:
        raise ScrapyChanged(SITEMAP_BODY, "Sitemap no longer parses the bytes it is given")


# --- a Crawler that is never started ---------------------------------------------------

UNSTARTED_CRAWLER = "Crawler.stats and Crawler.request_fingerprinter set before the crawl starts"


def unstarted_crawler(settings: dict[str, Any] | None = None) -> Crawler:
    """A crawler that is never started: settings, signals, a stats collector that keeps
    nothing and the request fingerprinter of ``REQUEST_FINGERPRINTER_CLASS`` (which
    Scrapy sets when a crawl starts), what Scrapy's components need to be built and
    opened outside a crawl."""
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import Settings
    from scrapy.statscollectors import DummyStatsCollector
    from scrapy.utils.misc import build_from_crawler, load_object

    class _Unstarted(Crawler):
        # Never started: the command that built it keeps its own log handler and level.
        def _update_root_log_handler(self) -> None:
            pass

    crawler = _Unstarted(Spider, Settings(settings or {}))
    crawler.stats = DummyStatsCollector(crawler)
    crawler.request_fingerprinter = build_from_crawler(
        load_object(crawler.settings["REQUEST_FINGERPRINTER_CLASS"]), crawler
    )
    return crawler


class _Fingerprinter:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.calls = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> _Fingerprinter:
        return cls(crawler)

    def fingerprint(self, request: Any) -> bytes:
        self.calls += 1
        return b"\x00" * 20


def check_unstarted_crawler() -> None:
    """An unstarted crawler takes a stats collector and builds the fingerprinter its
    ``REQUEST_FINGERPRINTER_CLASS`` names, Scrapy's HTTP cache storage reads it from
    ``spider.crawler`` in ``open_spider``, and the Crawler's constructor re-installs the
    root log handler through ``_update_root_log_handler`` (which the unstarted one skips)."""
    import inspect
    import tempfile

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.extensions.httpcache import FilesystemCacheStorage

    if "_update_root_log_handler" not in inspect.getsource(Crawler.__init__):
        raise ScrapyChanged(
            UNSTARTED_CRAWLER,
            "Crawler.__init__ no longer re-installs the root log handler through "
            "_update_root_log_handler",
        )

    setting = f"{__name__}._Fingerprinter"
    try:
        crawler = unstarted_crawler({"REQUEST_FINGERPRINTER_CLASS": setting})
        fingerprinter = crawler.request_fingerprinter
        stats = crawler.stats
    except Exception as exc:
        raise ScrapyChanged(UNSTARTED_CRAWLER, f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(fingerprinter, _Fingerprinter) or fingerprinter.crawler is not crawler:
        raise ScrapyChanged(
            UNSTARTED_CRAWLER, "Crawler.request_fingerprinter does not keep the value set"
        )
    if stats is None:
        raise ScrapyChanged(UNSTARTED_CRAWLER, "Crawler.stats does not keep the value set")
    with tempfile.TemporaryDirectory() as folder:
        from scrapy.settings import Settings

        storage = FilesystemCacheStorage(Settings({"HTTPCACHE_DIR": folder}))
        spider = Spider.from_crawler(crawler, name="check")
        storage.open_spider(spider)
        found = storage.retrieve_response(spider, Request("http://example.com/"))
        if found is not None or fingerprinter.calls != 1:
            raise ScrapyChanged(
                UNSTARTED_CRAWLER,
                "FilesystemCacheStorage.open_spider no longer takes the fingerprinter of "
                "spider.crawler",
            )


#: ``(name, check)`` for each private attribute the package relies on.
CHECKS: tuple[tuple[str, Callable[[], None]], ...] = (
    (CACHED_TEXT, check_cached_text),
    (STREAM_READER, check_stream_reader),
    (SITEMAP_BODY, check_sitemap_body),
    (UNSTARTED_CRAWLER, check_unstarted_crawler),
)
