"""The MIME type of a response with no informative ``Content-Type``, as browsers compute
it, and the response class that type asks for.

Scrapy picks the response class from the ``Content-Type``, else the URL, else the first
bytes (``scrapy.responsetypes``): a UTF-16 body with a BOM becomes a plain ``Response``,
an HTML page that does not start with ``<html>`` a ``TextResponse``. Browsers run the MIME
Sniffing Standard's "rules for identifying an unknown MIME type" instead
(:mod:`scrapy_charset.sniffing.mime`). :func:`sniffed_class` does the same and gives the
class of the computed type when that is text: :func:`scrapy_charset.responses.decide.decide`
asks it, from the essence it parsed, and the middleware builds the response once, as that
class with its encoding. :func:`sniff_unknown_type` rebuilds a response on its own.
"""

from __future__ import annotations

from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.responsetypes import responsetypes

from scrapy_charset.sniffing.mime import UNKNOWN_TYPES, identify_unknown, sniffed_kind
from scrapy_charset.sniffing.transport import combined_value
from scrapy_charset.sniffing.transport import essence as mime_essence

__all__ = ["sniff_unknown_type", "sniffed_class"]

#: The response class for each text type the MIME Sniffing Standard computes.
_SNIFFED_CLASSES: dict[str, type[TextResponse]] = {
    "html": HtmlResponse,
    "xml": XmlResponse,
    "text": TextResponse,
}


#: Scrapy's classes for text that ``responsetypes`` chooses from the first bytes.
_FROM_BODY: frozenset[type[Response]] = frozenset({HtmlResponse, XmlResponse, TextResponse})


def _generic(response: Response, kind: str) -> bool:
    """True when the class of *response* is not the one *kind* asks for and Scrapy chose
    it without the headers or the URL: a plain ``Response``, a ``TextResponse``, or the
    HTML or XML class Scrapy picks when ``<html>`` or ``<?xml`` appears anywhere in the
    first bytes. 7.1 reads the table in order, from the start of the body: a body that
    starts ``<?xml`` is XML whatever HTML it holds, so Scrapy's HTML class gives way to the
    XML one (and the reverse); a markup class is never made plain text."""
    cls = type(response)
    if cls is _SNIFFED_CLASSES[kind]:
        return False
    if cls is Response:
        return True
    if cls not in _FROM_BODY:
        return False
    if cls is TextResponse:
        return True
    if kind == "text":
        return False  # markup Scrapy found in the first bytes stays markup
    chosen = responsetypes.from_args(headers=response.headers, url=response.url)
    return chosen is Response or chosen is TextResponse


def sniffed_class(
    response: Response, essence: str | None, uninformative: frozenset[str] = frozenset()
) -> tuple[type[Response], str | None]:
    """MIME Sniffing Standard, 7.1, for a response whose ``Content-Type`` essence
    (*essence*, parsed by the caller) is missing, one of
    :data:`~scrapy_charset.sniffing.mime.UNKNOWN_TYPES` or one of *uninformative*.

    Returns ``(class, computed type)``: the class of the computed type when that is text
    and Scrapy chose a generic class (a plain ``Response`` for a UTF-16 body with a BOM, a
    ``TextResponse`` for an HTML page), else the response's own class; ``(class, None)``
    when the type is informative or the body still has a ``Content-Encoding``. A class
    Scrapy chose from the URL (``.json``, ``.xml``) stays; one it chose from the body gives
    way to the computed type's.
    """
    cls = type(response)
    if not response.body or response.headers.get(b"Content-Encoding"):
        return cls, None
    if essence is not None and essence not in UNKNOWN_TYPES and essence not in uninformative:
        return cls, None
    nosniff = response.headers.get(b"X-Content-Type-Options") or b""
    computed = identify_unknown(
        response.body, sniff_scriptable=nosniff.strip().lower() != b"nosniff"
    )
    kind = sniffed_kind(computed)
    if kind is None or not _generic(response, kind):
        return cls, computed
    return _SNIFFED_CLASSES[kind], computed


def sniff_unknown_type(
    response: Response, uninformative: frozenset[str] = frozenset()
) -> tuple[Response, str | None]:
    """:func:`sniffed_class` for *response*, whose ``Content-Type`` it reads: returns
    ``(response, computed type)``, the response rebuilt as the class of the computed type
    when :func:`sniffed_class` gives another class, else the response itself."""
    essence = mime_essence(combined_value(response.headers.getlist(b"Content-Type")))
    cls, computed = sniffed_class(response, essence, uninformative)
    if cls is type(response):
        return response, computed
    kwargs = {name: getattr(response, name) for name in response.attributes if name != "encoding"}
    return cls(**kwargs), computed
