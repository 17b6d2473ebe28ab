"""One response, one outcome: left alone with a reason, or decided.

:func:`decide` is the one function that takes a response to its encoding decision. The
crawl (:class:`~scrapy_charset.responses.middleware.CharsetMiddleware`), ``scrapy charset``
and the audit all call it, so the three give the same answer for the same bytes, headers
and URL:

1. the request's ``dont_charset`` leaves the response alone;
2. the ``Content-Type`` is parsed, once
   (:func:`~scrapy_charset.sniffing.transport.parse_content_type`);
3. a response with no or an uninformative type gets the type browsers compute (MIME
   Sniffing Standard, 7.1, :func:`~scrapy_charset.responses.unknown_type.sniffed_class`),
   and the class that type asks for: the response is classified once;
4. the responses the middleware never decodes are left alone, with the reason
   (:data:`scrapy_charset.stats.SKIP_REASONS`): not text, a HEAD request, an empty body,
   a ``data:`` URL, a browser's rendering, a type that is not text or is skipped by
   ``CHARSET_SKIP_CONTENT_TYPES``;
5. the kind of rules (HTML, XML, JSON, plain text) follows the MIME type's essence, or
   the class when the type says nothing, and :func:`~scrapy_charset.sniffing.sniff_with_text`
   builds the whole decision: the override that is not a label, the labels cut to
   :data:`~scrapy_charset.responses.decision.MAX_LABEL` characters, the sniffed type;
6. the codec that decodes the body as the browser does
   (:func:`~scrapy_charset.whatwg.codecs.response_codec`), and the text when deciding
   already decoded it.

:func:`rebuild` makes the response the spider gets from a decided outcome: its class,
with the codec as its encoding and the known text handed over.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scrapy.http import HtmlResponse, JsonResponse, Response, TextResponse, XmlResponse

from scrapy_charset import _scrapy_compat
from scrapy_charset._settings import shown
from scrapy_charset.responses.decision import MAX_LABEL, EncodingDecision, Ignored, Source
from scrapy_charset.responses.unknown_type import sniffed_class
from scrapy_charset.sniffing import Kind, Trace, sniff_with_text
from scrapy_charset.sniffing.detect import Detector, get_detector
from scrapy_charset.sniffing.mime import UNKNOWN_TYPES
from scrapy_charset.sniffing.transport import combined_value, parse_content_type
from scrapy_charset.whatwg.codecs import decode, response_codec

if TYPE_CHECKING:
    from scrapy import Request

    from scrapy_charset.responses.config import CharsetConfig

__all__ = ["Decided", "Outcome", "Skipped", "decide", "kind_of", "rebuild"]

#: MIME types that say nothing about the body: the response class Scrapy chose (from
#: the URL or the body) decides the kind, once the MIME Sniffing Standard had its say.
UNINFORMATIVE_TYPES = frozenset(
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

#: The class of a response read with each kind's rules, when ``kind`` is forced on a
#: response whose class is not text.
_KIND_CLASSES: dict[Kind, type[TextResponse]] = {
    "html": HtmlResponse,
    "xml": XmlResponse,
    "json": JsonResponse,
    "text": TextResponse,
}


@dataclass(frozen=True)
class Skipped:
    """A response left alone: ``reason`` is one of :data:`scrapy_charset.stats.SKIP_REASONS`.

    ``response_class`` is the class the response has (after MIME sniffing), ``content_type``
    the ``Content-Type`` values joined by commas (None when absent), ``sniffed_type`` the
    MIME type computed for an untyped response (None when its type was informative).
    """

    reason: str
    response_class: type[Response]
    content_type: str | None = None
    sniffed_type: str | None = None


@dataclass(frozen=True)
class Decided:
    """A response decided: the class it is read as, the kind of rules, the decision, the
    codec that decodes the body as the browser does (``response.encoding``), and the text
    when deciding already decoded the body (else None: Scrapy decodes it lazily, with the
    codec)."""

    response_class: type[TextResponse]
    kind: Kind
    decision: EncodingDecision
    codec: str
    text: str | None
    content_type: str | None = None
    sniffed_type: str | None = None


Outcome = Skipped | Decided


def _class_kind(cls: type[Response]) -> Kind:
    if issubclass(cls, HtmlResponse):
        return "html"
    if issubclass(cls, XmlResponse):
        return "xml"
    if issubclass(cls, JsonResponse):
        return "json"
    return "text"


def kind_of(cls: type[Response], essence: str | None) -> Kind | None:
    """Which rules decode a response of class *cls*: from its MIME type *essence* when
    that names a text type, from the class when the type is missing or says nothing; None
    for a type that is not text (``application/pdf``, ``image/png``...)."""
    if essence is None or essence in UNINFORMATIVE_TYPES:
        return _class_kind(cls)
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
    """True for a body a browser rendered: the renderer's serialisation of the text the
    browser decoded, encoded again by the renderer and named in ``response.encoding``
    (scrapy-playwright encodes it in the charset of the header or of the ``<meta>``, in
    UTF-8 when that cannot encode it; Zyte API's ``browserHtml`` is UTF-8), under the
    origin's headers: sniffing it again would make mojibake.

    A URL the browser downloaded instead of rendering (scrapy-playwright sets
    ``meta["playwright_suggested_filename"]``) comes back with the site's own bytes, and
    is decided like any download."""
    meta = request.meta
    if meta.get("playwright") and "playwright_suggested_filename" not in meta:
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


def _skip_reason(
    request: Request,
    response: Response,
    cls: type[Response],
    essence: str | None,
    skip_types: frozenset[str],
) -> str | None:
    """Why a response of class *cls* (after MIME sniffing) is left alone, or None."""
    if not issubclass(cls, TextResponse):
        return "not_text"
    if request.method == "HEAD":
        return "head"
    if not response.body:
        return "empty"
    if response.url[:5].lower() == "data:":
        return "data_url"
    if _rendered_by_browser(request, response):
        return "browser"
    if essence is not None and (
        essence in skip_types or f"{essence.partition('/')[0]}/*" in skip_types
    ):
        return "content_type"
    return None


def _override(request: Request) -> tuple[str | None, Ignored | None]:
    """``(label, None)`` for the override label (or None), ``(None, ignored)`` for a
    value that is not a string: recorded and counted as an unknown label."""
    value = request.meta.get("charset_encoding")
    if value is None or isinstance(value, str):
        return value, None
    label = f"{shown(value, MAX_LABEL // 2)} ({type(value).__name__}, not a string)"
    return None, Ignored(source=Source.OVERRIDE, label=label, reason="unknown_label")


@lru_cache(maxsize=16)
def _configured_detector(name: str, window: int, use_tld: bool) -> Detector | None:
    return get_detector(name, window=window, use_tld=use_tld)


class _FromConfig:
    """The default of :func:`decide`'s *detector*: the one the config names."""

    def __repr__(self) -> str:
        return "FROM_CONFIG"


FROM_CONFIG = _FromConfig()


def decide(
    request: Request,
    response: Response,
    config: CharsetConfig,
    trace: Trace | None = None,
    *,
    kind: Kind | None = None,
    detector: Detector | _FromConfig | None = FROM_CONFIG,
) -> Outcome:
    """The outcome for *response* (downloaded for *request*) under *config*.

    :param trace: a :class:`~scrapy_charset.sniffing.trace.Trace` filled with what each
        step of the decision saw (``scrapy charset`` passes one).
    :param kind: force the rules of this kind (``scrapy charset --kind``): the response is
        then decided whatever its class and type, and only ``dont_charset`` leaves it
        alone.
    :param detector: the detector for undeclared bodies; by default the one
        ``config.detector`` names (built once). The middleware passes its own, which
        logs a failure once.

    Reads neither ``.text`` nor ``.encoding`` of *response*, and changes nothing: the
    caller applies the outcome (:func:`rebuild`).
    """
    body = response.body
    if request.meta.get("dont_charset"):
        return Skipped("dont_charset", type(response))
    content_type = parse_content_type(combined_value(response.headers.getlist(b"Content-Type")))
    essence = content_type.essence
    cls: type[Response] = type(response)
    sniffed = None
    if (
        not isinstance(response, TextResponse)
        or essence is None
        or essence in UNKNOWN_TYPES
        or essence in UNINFORMATIVE_TYPES
    ):
        # No Content-Type, or one that says nothing: the type browsers compute decides
        # the kind (and the response class).
        cls, sniffed = sniffed_class(response, essence, UNINFORMATIVE_TYPES)
    if kind is None:
        reason = _skip_reason(request, response, cls, essence, config.skip_content_types)
        kind = None if reason is not None else kind_of(cls, essence)
        if kind is None:
            return Skipped(reason or "content_type", cls, content_type.value, sniffed)
    elif not issubclass(cls, TextResponse) or _class_kind(cls) != kind:
        cls = _KIND_CLASSES[kind]
    assert issubclass(cls, TextResponse)
    override, not_a_label = _override(request)
    if isinstance(detector, _FromConfig):
        detector = _configured_detector(config.detector, config.detect_window, config.detect_tld)
    decision, text = sniff_with_text(
        body,
        content_type,
        response.url,
        kind=kind,
        override=override,
        detector=detector,
        default=config.default_encoding if kind in ("html", "text") else None,
        trace=trace,
        ignored=() if not_a_label is None else (not_a_label,),
        sniffed_type=sniffed,
        max_label=MAX_LABEL,
    )
    codec, decoded = response_codec(body, decision.encoding)
    if text is None:
        text = decoded
    if text is None and body.startswith(_UTF32_BOMS):
        # Scrapy's .text reads a UTF-32 byte order mark before the response's encoding
        # (w3lib); browsers have no UTF-32, and FF FE 00 00 is a UTF-16LE BOM and a NUL.
        text = decode(body, decision.encoding)
    return Decided(cls, kind, decision, codec, text, content_type.value, sniffed)


def rebuild(response: Response, outcome: Decided) -> TextResponse:
    """*response* as the spider gets it: of the outcome's class, with the codec as its
    encoding, and the text handed over when deciding already decoded it (exactly what
    decoding gives, so ``.text`` does not decode again).

    Built without ``Response.replace()``, which reads every attribute, ``.encoding``
    included, and so runs Scrapy's detection. ``attributes`` lists the public attributes
    that are also ``__init__`` keywords (the request too, so ``response.meta`` is the same
    dict); the body is the same bytes object. Raises what a third-party class whose
    ``__init__`` breaks that contract raises.
    """
    kwargs: dict[str, Any] = {
        name: getattr(response, name) for name in response.attributes if name != "encoding"
    }
    new = outcome.response_class(**kwargs, encoding=outcome.codec)
    if outcome.text is not None:
        _scrapy_compat.set_text(new, outcome.text)
    return new
