"""The downloader middleware: each text response decoded as a browser would, and tagged.

For every response, the middleware asks :func:`scrapy_charset.responses.decide.decide`
(the one function ``scrapy charset`` and the audit ask too) whether it is left alone and,
for a text response, its encoding under the rules of its kind (HTML, XML, JSON or plain
text); it returns the same response with ``.encoding`` set to a codec that decodes it as
the browser does (:func:`~scrapy_charset.responses.decide.rebuild`), and records the
decision in ``response.meta["charset"]`` (and in the meta of ``response.request`` when
another middleware replaced the request), the stats and the log. The codec is the
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

import logging
from collections import Counter
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import load_object

from scrapy_charset import stats as keys
from scrapy_charset._log import Once, counted, disabled_notice, once_per_crawler
from scrapy_charset._meta import FALLBACK_META_KEY, META_KEY, tag, untag
from scrapy_charset._placement import built_in_wrong_role
from scrapy_charset._settings import CharsetSettingsError, shown, stops_the_crawl
from scrapy_charset.responses import interop
from scrapy_charset.responses.config import CharsetConfig
from scrapy_charset.responses.decide import Skipped, decide, kind_of, rebuild
from scrapy_charset.responses.decision import EncodingDecision, Ignored, Source
from scrapy_charset.sniffing import Kind
from scrapy_charset.sniffing.detect import Detected, Detector, get_detector

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from typing_extensions import Self

__all__ = ["CharsetMiddleware", "response_kind"]

logger = logging.getLogger(__name__)


def response_kind(response: TextResponse, essence: str | None) -> Kind | None:
    """Which rules decode *response*: from its MIME type *essence* when that names a
    text type, from the response class when the type is missing or says nothing;
    None for a type that is not text (``application/pdf``, ``image/png``...).

    :func:`scrapy_charset.responses.decide.kind_of` for the response's class.
    """
    return kind_of(type(response), essence)


def _domain(response: Response) -> str:
    return urlparse_cached(response).hostname or ""


def _describe(decision: EncodingDecision) -> str:
    # The HTML Standard's confidence ("tentative" for an honoured <meta>) is left out: it
    # reads as doubt about a decision that was used; response.meta["charset"] has it.
    parts = [decision.source.value]
    if decision.label is not None:
        parts.append(repr(decision.label))
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
        if built_in_wrong_role(crawler, cls):
            raise NotConfigured
        with stops_the_crawl():
            middleware = cls(crawler)
        middleware._check_priority()
        middleware._check_item_checks()
        return middleware

    def _check_item_checks(self) -> None:
        """One INFO line when the middleware is listed without the add-on and without the
        item pipeline: the item checks, on by default, are then off."""
        from scrapy_charset._placement import ADDON_LINE
        from scrapy_charset.items.config import ItemChecksConfig

        settings = self.crawler.settings
        if not ItemChecksConfig.from_settings(settings).enabled:
            return
        pipelines = {
            **settings.getdict("ITEM_PIPELINES_BASE"),
            **settings.getdict("ITEM_PIPELINES"),
        }
        for key, priority in pipelines.items():
            if priority is None:
                continue
            try:
                loaded = load_object(key) if isinstance(key, str) else key
            except (ImportError, NameError, ValueError, AttributeError):
                continue
            # By name: the response side loads nothing of the item side.
            if isinstance(loaded, type) and any(
                base.__module__ == "scrapy_charset.items.pipeline"
                and base.__name__ == "CharsetPipeline"
                for base in loaded.__mro__
            ):
                return
        if once_per_crawler(self.crawler, "item-checks-off"):
            logger.info(
                "The item checks are off: CharsetMiddleware is listed without the add-on, so "
                "no item is checked for U+FFFD or mojibake. To turn them on, replace the "
                "DOWNLOADER_MIDDLEWARES line with %(line)s; to silence this line, set "
                "CHARSET_ITEM_CHECKS_ENABLED = False.",
                {"line": ADDON_LINE},
                extra={"spider": self.crawler.spider},
            )

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
        outcome = decide(request, response, self.config, detector=self.detector)
        if isinstance(outcome, Skipped):
            self._skip(request, response, outcome.reason)
            return response
        if outcome.sniffed_type is not None:
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value(keys.sniffed_type(outcome.sniffed_type))
        try:
            new = rebuild(response, outcome)
        except Exception:  # a third-party class whose __init__ breaks the attributes contract
            self._unsupported(type(response))
            self._skip(request, response, "unsupported_class")
            return response
        decision = outcome.decision
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
        for meta in _metas(request, response):
            untag(meta)
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
