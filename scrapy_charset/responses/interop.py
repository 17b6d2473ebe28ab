"""Scrapy's consumers of ``response.encoding`` that hand the name to a C library.

Most bodies carry a standard codec name (see :func:`scrapy_charset.whatwg.codecs.
response_codec`), which libxml2 resolves. The others carry a ``whatwg-*`` codec: Python
decodes with it, libxml2 cannot (its encoding names come from iconv), and no name libxml2
knows decodes those bodies as a browser does (the bytes where the standard codecs differ
are the ones iconv's tables lack). For them, the consumer is handed the text instead.

Scrapy's ``xmliter_lxml`` (``XMLFeedSpider``'s default ``iternodes`` iterator) is the one
built-in consumer that passes ``response.encoding`` to lxml: its stream reader already
knows how to feed lxml text (as UTF-8), and :func:`install` makes it do so for a response
whose encoding is one of this package's codecs. Every other response, and every
response whose encoding lxml can resolve, is read exactly as before.

``SitemapSpider`` gives lxml a sitemap's bytes, which lxml reads under the document's own
XML declaration, whatever ``response.encoding`` says: libiconv's ``Shift_JIS`` reads
``~`` as U+203E and ``\\`` as U+00A5, its CP932 U+FF5E as U+301C. :func:`install` makes it
parse a sitemap the middleware decided in another encoding than UTF-8 as its text, in
UTF-8 under a declaration that says so (:func:`utf8_document`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from scrapy_charset import _scrapy_compat
from scrapy_charset.whatwg.codecs import is_private_codec

if TYPE_CHECKING:
    from scrapy.http import TextResponse

__all__ = ["install", "utf8_document"]

#: The encoding declaration of an XML declaration at the start of a document.
_DECLARED = re.compile(r"""\A(\s*<\?xml\s[^>]*?\bencoding\s*=\s*)(["'])[^"'>]*\2""")


def utf8_document(response: TextResponse) -> bytes | None:
    """A decided response's text in UTF-8, its XML declaration saying UTF-8; None for a
    response the middleware did not decide, or decided UTF-8 (its bytes read as they
    are)."""
    request = response.request
    decision = request.meta.get("charset") if request is not None else None
    if not isinstance(decision, dict) or decision.get("encoding") in (None, "UTF-8"):
        return None
    return _DECLARED.sub(r"\1\2UTF-8\2", response.text, count=1).encode("utf-8")


def install() -> bool:
    """Let ``scrapy.utils.iterators.xmliter_lxml`` read a response whose encoding is a
    ``whatwg-*`` codec as its text, and ``SitemapSpider`` a decided sitemap in a legacy
    encoding (idempotent). False when this Scrapy's iterator has no stream reader of the
    known shape, which then stays as it is (as does a ``SitemapSpider`` without
    ``_get_sitemap_body``).

    The patches of Scrapy's private attributes are
    :func:`scrapy_charset._scrapy_compat.read_as_text` and
    :func:`~scrapy_charset._scrapy_compat.sitemap_as_text`, checked on every supported
    Scrapy.
    """
    _scrapy_compat.sitemap_as_text(utf8_document)
    return _scrapy_compat.read_as_text(is_private_codec)
