"""The downloader middleware: each text response decoded as a browser would, and tagged.

For every :class:`~scrapy.http.TextResponse` the middleware decides the encoding with
:func:`scrapy_charset.sniff` (the rules of the response's kind: HTML, XML, JSON or plain
text), returns the same response with ``.encoding`` set to a codec that decodes it as the
browser does, and records the decision in ``response.meta["charset"]``. The codec is the
standard one (``utf-8``, ``windows-1251``, ``cp932``...) whenever that decodes this body
exactly, which every consumer of the name understands (lxml, iconv, other processes), and
the registered ``whatwg-*`` codec for the bodies where it does not.

It sits between ``MetaRefreshMiddleware`` (580) and ``HttpCompressionMiddleware`` (590), at
585 by default: ``process_response`` runs in decreasing order, so it sees decompressed
bodies (HTTP cache hits included, since the cache stores compressed responses and the
chain runs again on a hit) and runs before ``MetaRefreshMiddleware``, the first reader of
``.text``.

It never reads ``.text`` or ``.encoding`` of the incoming response (either runs Scrapy's
own detection). It decodes a body only where choosing the name needs it (the UTF-8
check of an undeclared body, a CJK or UTF-16 body) and then hands the text over; other
bodies Scrapy decodes lazily, once, when the spider first reads ``.text``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, JsonResponse, TextResponse, XmlResponse
from scrapy.utils.httpobj import urlparse_cached

from scrapy_charset import stats as keys
from scrapy_charset._log import Once, counted, disabled_notice
from scrapy_charset._meta import FALLBACK_META_KEY, META_KEY, tag, untag
from scrapy_charset._settings import CharsetSettingsError, shown, stops_the_crawl
from scrapy_charset.responses import interop
from scrapy_charset.responses.config import CharsetConfig
from scrapy_charset.responses.decision import EncodingDecision, Ignored, Source
from scrapy_charset.responses.unknown_type import sniff_unknown_type
from scrapy_charset.sniffing import Kind, sniff_with_text
from scrapy_charset.sniffing.detect import Detected, Detector, get_detector
from scrapy_charset.sniffing.mime import UNKNOWN_TYPES
from scrapy_charset.sniffing.transport import combined_value
from scrapy_charset.sniffing.transport import essence as mime_essence
from scrapy_charset.whatwg.codecs import decode, response_codec

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from typing_extensions import Self

__all__ = ["CharsetMiddleware", "response_kind", "skip_reason"]

logger = logging.getLogger(__name__)

#: MIME types that say nothing about the body: the response class Scrapy chose (from
#: the URL or the body) decides the kind.
_UNINFORMATIVE_TYPES = frozenset(
    {
        "application/octet-stream",
        "binary/octet-stream",
        "application/unknown",
        "unknown/unknown",
        "application/x-unknown-content-type",
    }
)
#: HTML Standard: text/html is parsed as HTML; XHTML served as XML goes to the XML parser.
_HTML_TYPES = frozenset({"text/html"})
_XML_TYPES = frozenset({"text/xml", "application/xml"})
_JSON_TYPES = frozenset(
    {"application/json", "text/json", "application/x-json", "application/json-amazonui-streaming"}
)
#: Scripts are text (HTML Standard, "fetch a classic script": BOM, charset, fallback).
_SCRIPT_TYPES = frozenset(
    {
        "application/javascript",
        "application/x-javascript",
        "application/ecmascript",
        "application/x-ecmascript",
    }
)

#: Byte order marks of UTF-32, which Scrapy's ``.text`` honours and browsers do not.
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")

#: The most characters of a label kept in ``meta["charset"]`` and in log lines; Encoding
#: Standard labels are at most 19 characters, so only garbage is cut.
MAX_LABEL = 40


def _class_kind(response: TextResponse) -> Kind:
    if isinstance(response, HtmlResponse):
        return "html"
    if isinstance(response, XmlResponse):
        return "xml"
    if isinstance(response, JsonResponse):
        return "json"
    return "text"


def response_kind(response: TextResponse, essence: str | None) -> Kind | None:
    """Which rules decode *response*: from its MIME type *essence* when that names a
    text type, from the response class when the type is missing or says nothing;
    None for a type that is not text (``application/pdf``, ``image/png``...)."""
    if essence is None or essence in _UNINFORMATIVE_TYPES:
        return _class_kind(response)
    if essence in _HTML_TYPES:
        return "html"
    if essence in _XML_TYPES or essence.endswith("+xml"):
        return "xml"
    if essence in _JSON_TYPES or essence.endswith("+json"):
        return "json"
    if essence.startswith("text/") or essence in _SCRIPT_TYPES:
        return "text"
    return None


def _rendered_by_browser(request: Request, response: Response) -> bool:
    """True for a body a browser rendered: it is the renderer's UTF-8 serialisation under
    the origin's headers, so sniffing it again would make mojibake."""
    meta = request.meta
    if meta.get("playwright"):  # scrapy-playwright renders every request that sets it
        return True
    for key in ("zyte_api", "zyte_api_automap"):  # scrapy-zyte-api, per request
        params = meta.get(key)
        if isinstance(params, dict) and params.get("browserHtml"):
            return True
    # scrapy-zyte-api with default or automatic parameters: its response classes keep the
    # API's answer in their public ``raw_api_response`` (read without importing that
    # package).
    if _from_zyte_api(type(response)):
        raw = getattr(response, "raw_api_response", None)
        if isinstance(raw, dict) and raw.get("browserHtml"):
            return True
    return False


#: :func:`_from_zyte_api` per response class: a crawl meets a handful of classes.
_ZYTE_CLASSES: dict[type, bool] = {}


def _from_zyte_api(cls: type) -> bool:
    """True for the response classes of scrapy-zyte-api and their subclasses."""
    found = _ZYTE_CLASSES.get(cls)
    if found is None:
        found = any(base.__module__.startswith("scrapy_zyte_api") for base in cls.__mro__)
        if len(_ZYTE_CLASSES) < 256:
            _ZYTE_CLASSES[cls] = found
    return found


def _unknown_type(content_type: str | None) -> bool:
    """True when the ``Content-Type`` leaves the type to the MIME Sniffing Standard's rules
    (:func:`~scrapy_charset.responses.unknown_type.sniff_unknown_type`): missing, unparsable, or
    one of the unknown or uninformative types."""
    essence = mime_essence(content_type)
    return essence is None or essence in UNKNOWN_TYPES or essence in _UNINFORMATIVE_TYPES


def skip_reason(
    request: Request, response: Response, skip_types: frozenset[str] = frozenset()
) -> tuple[str | None, Kind | None, str | None]:
    """``(reason, kind, content_type)``: why the middleware leaves *response* alone (one
    of :data:`scrapy_charset.stats.SKIP_REASONS`), or None with the kind of rules that
    apply and the ``Content-Type`` values joined by commas."""
    if request.meta.get("dont_charset"):
        return "dont_charset", None, None
    if not isinstance(response, TextResponse):
        return "not_text", None, None
    if request.method == "HEAD":
        return "head", None, None
    if not response.body:
        return "empty", None, None
    if response.url[:5].lower() == "data:":
        return "data_url", None, None
    if _rendered_by_browser(request, response):
        return "browser", None, None
    content_type = combined_value(response.headers.getlist(b"Content-Type"))
    essence = mime_essence(content_type)
    if essence is not None and (
        essence in skip_types or f"{essence.partition('/')[0]}/*" in skip_types
    ):
        return "content_type", None, content_type
    kind = response_kind(response, essence)
    if kind is None:
        return "content_type", None, content_type
    return None, kind, content_type


def _rebuild(response: TextResponse, encoding: str) -> TextResponse:
    """The same response with ``encoding`` set, built without ``Response.replace()``,
    which reads every attribute, ``.encoding`` included, and so runs Scrapy's detection.

    ``attributes`` lists the public attributes that are also ``__init__`` keywords (the
    request too, so ``response.meta`` is the same dict); the body is the same bytes object.
    """
    kwargs: dict[str, Any] = {
        name: getattr(response, name) for name in response.attributes if name != "encoding"
    }
    return type(response)(**kwargs, encoding=encoding)


def _domain(response: Response) -> str:
    return urlparse_cached(response).hostname or ""


def _cut_label(label: str) -> str:
    """*label* if it is at most :data:`MAX_LABEL` characters, else its start and a note
    that it was cut (a 10 KB ``Content-Type`` must not make a 10 KB meta value or log line)."""
    if len(label) <= MAX_LABEL:
        return label
    return f"{label[:MAX_LABEL]}... (cut, {len(label)} characters)"


def _bounded(decision: EncodingDecision) -> EncodingDecision:
    """*decision* with every label cut to :data:`MAX_LABEL` characters."""
    long_label = decision.label is not None and len(decision.label) > MAX_LABEL
    if not long_label and all(len(i.label) <= MAX_LABEL for i in decision.ignored):
        return decision
    return dataclasses.replace(
        decision,
        label=_cut_label(decision.label) if decision.label is not None else None,
        ignored=tuple(dataclasses.replace(i, label=_cut_label(i.label)) for i in decision.ignored),
    )


def _describe(decision: EncodingDecision) -> str:
    parts = [decision.source.value]
    if decision.label is not None:
        parts.append(repr(decision.label))
    parts.append(decision.confidence.value)
    if decision.detector is not None:
        parts.append(f"detector {decision.detector} score {decision.score}")
    text = f"{decision.encoding} ({', '.join(parts)})"
    if decision.ignored:
        lost = "; ".join(f"{i.source.value} {i.label!r} {i.reason}" for i in decision.ignored)
        text += f"; ignored: {lost}"
    return text


class CharsetMiddleware:
    """Decide each text response's encoding as a browser would, decode with the WHATWG
    decoders, and tag the response (``response.meta["charset"]``)."""

    def __init__(self, crawler: Crawler, config: CharsetConfig | None = None) -> None:
        self.crawler = crawler
        self.config = (
            config if config is not None else CharsetConfig.from_settings(crawler.settings)
        )
        if not self.config.enabled:
            disabled_notice(crawler)
            raise NotConfigured
        extra = {"spider": crawler.spider}
        # Once per domain and reason, per override label, per response class...
        self._warn = Once(logger, extra=extra)
        self._warn_override = Once(logger, extra=extra)
        self._warn_class = Once(logger, extra=extra)
        self._warn_detector = Once(logger, extra=extra)
        self._warn_meta = Once(logger, extra=extra)
        # XMLFeedSpider hands response.encoding to lxml: for the bodies that keep a
        # whatwg-* codec, it reads the text instead.
        interop.install()
        self.detector: Detector | None = self._load_detector(self.config)
        self._counts: dict[str, Counter[str]] = {
            "encoding": Counter(),
            "source": Counter(),
            "ignored": Counter(),
            "skipped": Counter(),
        }
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        with stops_the_crawl():
            middleware = cls(crawler)
        middleware._check_priority()
        return middleware

    def _check_priority(self) -> None:
        """Warn when the project lists the middleware above a decompressor: it would see
        compressed bodies (``charset/skipped/not_text``)."""
        from scrapy_charset.addon import misplaced_priority

        settings = self.crawler.settings
        found = misplaced_priority(
            settings.getdict("DOWNLOADER_MIDDLEWARES_BASE"),
            settings.getdict("DOWNLOADER_MIDDLEWARES"),
            type(self),
        )
        if found is None:
            return
        listed, compression, advised = found
        logger.warning(
            "%(cls)s is listed in DOWNLOADER_MIDDLEWARES at %(listed)s, at or above "
            "HttpCompressionMiddleware (%(compression)s): it sees compressed bodies and leaves "
            "them alone (charset/skipped/not_text). Use %(advised)s, or the add-on "
            "(ADDONS = {'scrapy_charset.Addon': 0}), which places it.",
            {
                "cls": f"{type(self).__module__}.{type(self).__qualname__}",
                "listed": listed,
                "compression": compression,
                "advised": advised,
            },
            extra={"spider": self.crawler.spider},
        )

    def _load_detector(self, config: CharsetConfig) -> Detector | None:
        try:
            detector = get_detector(
                config.detector, window=config.detect_window, use_tld=config.detect_tld
            )
        except ValueError as exc:
            raise CharsetSettingsError(
                "CHARSET_DETECTOR",
                config.detector,
                "'default', 'none' or a detector name",
                str(exc),
            ) from None
        if detector is None:
            return None
        found: Detector = detector

        def detect(body: bytes, url: str | None) -> Detected | None:
            # A failing detector must not cost the response: the default decides instead.
            try:
                return found(body, url)
            except Exception:
                self._warn_detector(
                    "failed",
                    "The charset detector %(name)r failed on %(url)s; undeclared bodies "
                    "it fails on fall to the default encoding. Logged once.",
                    {"name": config.detector, "url": url},
                    exc_info=True,
                )
                return None

        return detect

    # --- per response --------------------------------------------------------------

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Request | Response:
        original = response
        reason, kind, content_type = skip_reason(request, response, self.config.skip_content_types)
        sniffed: str | None = None
        if reason == "not_text" or (reason is None and _unknown_type(content_type)):
            # No Content-Type, or one that says nothing: the type browsers compute decides
            # the kind (and the response class).
            try:
                response, sniffed = sniff_unknown_type(response, _UNINFORMATIVE_TYPES)
            except Exception:  # a response that cannot be rebuilt stays as Scrapy made it
                self._unsupported(type(response))
                response, sniffed = original, None
            if response is not original:
                reason, kind, content_type = skip_reason(
                    request, response, self.config.skip_content_types
                )
        if reason is not None or kind is None:
            self._skip(request, original, reason or "content_type")
            return original
        assert isinstance(response, TextResponse)
        override, not_a_label = self._override(request)
        decision, text = sniff_with_text(
            response.body,
            content_type,
            response.url,
            kind=kind,
            override=override,
            detector=self.detector,
            default=self.config.default_encoding if kind in ("html", "text") else None,
        )
        if not_a_label is not None:
            decision = dataclasses.replace(decision, ignored=(not_a_label, *decision.ignored))
        decision = _bounded(decision)
        if sniffed is not None:
            decision = dataclasses.replace(decision, sniffed_type=sniffed)
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value(keys.sniffed_type(sniffed))
        codec, decoded = response_codec(response.body, decision.encoding)
        if text is None:
            text = decoded
        try:
            new = _rebuild(response, codec)
        except Exception:  # a third-party class whose __init__ breaks the attributes contract
            self._unsupported(type(response))
            self._skip(request, response, "unsupported_class")
            return response
        if text is None and response.body.startswith(_UTF32_BOMS):
            # Scrapy's .text reads a UTF-32 byte order mark before the response's encoding
            # (w3lib); browsers have no UTF-32, and FF FE 00 00 is a UTF-16LE BOM and a NUL.
            text = decode(response.body, decision.encoding)
        if text is not None and isinstance(new, TextResponse):
            # The text is already known (the UTF-8 check or the choice of the codec
            # decoded the body, or the case above): hand it over, exactly what decode()
            # gives, rather than decode again.
            new._cached_ubody = text
        self._record(response, decision)
        tagged = decision.as_dict()
        for meta in _metas(request, response):
            if not tag(meta, tagged):
                self._meta_taken(response, meta[META_KEY])
        return new

    def _meta_taken(self, response: Response, value: Any) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(keys.META_TAKEN)
        self._warn_meta(
            "taken",
            "%(url)s: Request.meta[%(key)r] already holds %(value)s, which scrapy-charset did "
            "not write; it is kept, and the encoding decision is in meta[%(fallback)r]. The "
            "key %(key)r is reserved for the decision: keep your own data under another key. "
            "Logged once; charset/meta_taken counts every response.",
            {
                "url": response.url,
                "key": META_KEY,
                "value": shown(value),
                "fallback": FALLBACK_META_KEY,
            },
        )

    def _skip(self, request: Request, response: Response, reason: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(keys.skipped(reason))
        self._counts["skipped"][reason] += 1
        # A redirect (meta refresh, retry) copies meta from the previous request: never
        # let a decision about another body describe this one.
        untag(request.meta)
        logger.debug(
            "Charset of %(url)s left alone: %(reason)s",
            {"url": response.url, "reason": reason},
            extra={"spider": self.crawler.spider},
        )

    def _unsupported(self, cls: type) -> None:
        name = f"{cls.__module__}.{cls.__qualname__}"
        self._warn_class(
            name,
            "%(cls)s cannot be rebuilt from its 'attributes' (Response.attributes lists "
            "the __init__ keywords); its responses keep Scrapy's own decoding.",
            {"cls": name},
            exc_info=True,
        )

    @staticmethod
    def _override(request: Request) -> tuple[str | None, Ignored | None]:
        """``(label, None)`` for the override label (or None), ``(None, ignored)`` for a
        value that is not a string: recorded and counted as an unknown label."""
        value = request.meta.get("charset_encoding")
        if value is None or isinstance(value, str):
            return value, None
        label = f"{shown(value, MAX_LABEL // 2)} ({type(value).__name__}, not a string)"
        return None, Ignored(source=Source.OVERRIDE, label=label, reason="unknown_label")

    # --- stats and logs -------------------------------------------------------------

    def _record(self, response: Response, decision: EncodingDecision) -> None:
        stats = self.crawler.stats
        assert stats is not None
        inc_value = stats.inc_value  # one look-up: Scrapy wraps the stats methods
        source = decision.source.value
        inc_value(keys.RESPONSE_COUNT)
        inc_value(keys.source(source))
        inc_value(keys.encoding(decision.encoding))
        counts = self._counts
        counts["source"][source] += 1
        counts["encoding"][decision.encoding] += 1
        for ignored in decision.ignored:
            inc_value(keys.ignored(ignored.reason))
            counts["ignored"][ignored.reason] += 1
            self._warn_ignored(response, decision, ignored)
        if decision.encoding == "replacement":
            self._warn_once(
                response,
                "replacement",
                "%(url)s: the label %(label)r maps to the replacement encoding (the Encoding "
                "Standard's guard against ISO-2022-KR, HZ-GB-2312 and similar): the text is "
                "one U+FFFD, as in browsers; the body is kept as is.",
                {"label": decision.label},
            )
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug(
                "Charset of %(url)s: %(decision)s",
                {"url": response.url, "decision": _describe(decision)},
                extra={"spider": self.crawler.spider},
            )

    def _warn_ignored(
        self, response: Response, decision: EncodingDecision, ignored: Ignored
    ) -> None:
        if ignored.source is Source.OVERRIDE:
            self._warn_override(
                ignored.label,
                "Request.meta['charset_encoding'] = %(label)r is %(what)s; it is ignored "
                "(%(url)s was decided as %(encoding)s from %(source)s). Use an Encoding "
                "Standard label: https://encoding.spec.whatwg.org/#names-and-labels",
                {
                    "label": ignored.label,
                    "what": "an encoding browsers do not support"
                    if ignored.reason == "refused_label"
                    else "not an Encoding Standard label",
                    "url": response.url,
                    "encoding": decision.encoding,
                    "source": decision.source.value,
                },
            )
            return
        if ignored.reason == "refused_label":
            self._warn_once(
                response,
                ignored.reason,
                "%(url)s: the %(lost)s declares %(label)r, an encoding browsers do not "
                "support; it is ignored and %(encoding)s (from the %(source)s) is used.",
                {"lost": _place(ignored.source), "label": ignored.label, **_fields(decision)},
            )
        elif ignored.reason.endswith("_conflict") and decision.source is not Source.OVERRIDE:
            # A forced encoding that disagrees with the page is what the user asked for:
            # counted, not warned.
            self._warn_once(
                response,
                ignored.reason,
                "%(url)s: the %(lost)s declares %(label)r (%(lost_encoding)s) but the "
                "%(source)s decides %(encoding)s, as in browsers.",
                {
                    "lost": _place(ignored.source),
                    "label": ignored.label,
                    "lost_encoding": ignored.encoding,
                    **_fields(decision),
                },
            )

    def _warn_once(
        self, response: Response, reason: str, message: str, args: dict[str, Any]
    ) -> None:
        self._warn(
            (_domain(response), reason),
            message + " Logged once per domain; the charset/ignored/%(reason)s stat counts "
            "every response.",
            {"url": response.url, "reason": reason, **args},
        )

    def spider_closed(self, spider: Spider) -> None:
        counts = self._counts
        decided = sum(counts["source"].values())
        logger.info(
            "scrapy-charset: %(decided)s decoded (%(encodings)s; by %(sources)s); "
            "%(ignored)s ignored%(ignored_detail)s; %(skipped)s left alone%(skipped_detail)s",
            {
                "decided": counted(decided, "response"),
                "encodings": _summary(counts["encoding"]) or "none",
                "sources": _summary(counts["source"]) or "none",
                "ignored": counted(sum(counts["ignored"].values()), "declaration"),
                "ignored_detail": _detail(counts["ignored"]),
                "skipped": counted(sum(counts["skipped"].values()), "response"),
                "skipped_detail": _detail(counts["skipped"]),
            },
            extra={"spider": spider},
        )


def _metas(request: Request, response: Response) -> list[dict[str, Any]]:
    """The meta dicts the decision is written to: the request's, and the response's own
    request's when a middleware replaced it."""
    metas = [request.meta]
    if response.request is not None and response.request is not request:
        metas.append(response.request.meta)
    return metas


#: Where each kind of declaration is written, for log messages.
_PLACES = {
    Source.OVERRIDE: "Request.meta['charset_encoding']",
    Source.BOM: "byte order mark",
    Source.HEADER: "Content-Type header",
    Source.META: "<meta> tag",
    Source.XML_DECLARATION: "XML declaration",
    Source.UTF8: "UTF-8 validity rule",
    Source.DETECTED: "detector",
    Source.DEFAULT: "default",
}


def _fields(decision: EncodingDecision) -> dict[str, Any]:
    return {"encoding": decision.encoding, "source": _place(decision.source)}


def _place(source: Source) -> str:
    return _PLACES.get(source, source.value)


def _summary(counter: Counter[str]) -> str:
    """Most common first; equal counts by name, so the line does not depend on the order
    responses came in."""
    ranked = sorted(counter.items(), key=lambda pair: (-pair[1], pair[0]))
    return ", ".join(f"{name} {count}" for name, count in ranked)


def _detail(counter: Counter[str]) -> str:
    return f" ({_summary(counter)})" if counter else ""
