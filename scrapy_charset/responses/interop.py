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
"""

from __future__ import annotations

from scrapy_charset import _scrapy_compat
from scrapy_charset.whatwg.codecs import is_private_codec

__all__ = ["install"]


def install() -> bool:
    """Let ``scrapy.utils.iterators.xmliter_lxml`` read a response whose encoding is a
    ``whatwg-*`` codec as its text (idempotent). False when this Scrapy's iterator has
    no stream reader of the known shape, which then stays as it is.

    The patch of Scrapy's private stream reader is
    :func:`scrapy_charset._scrapy_compat.read_as_text`, checked on every supported Scrapy.
    """
    return _scrapy_compat.read_as_text(is_private_codec)
