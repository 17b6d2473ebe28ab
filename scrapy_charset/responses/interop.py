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

import logging
from typing import Any

from scrapy.http import TextResponse

from scrapy_charset.whatwg.codecs import is_private_codec

__all__ = ["install"]

logger = logging.getLogger(__name__)

_MARK = "_scrapy_charset_text"


def install() -> bool:
    """Let ``scrapy.utils.iterators.xmliter_lxml`` read a response whose encoding is a
    ``whatwg-*`` codec as its text (idempotent). False when this Scrapy's iterator has
    no stream reader of the known shape, which then stays as it is."""
    try:
        from scrapy.utils import iterators
    except ImportError:  # pragma: no cover - a Scrapy without the module
        return False
    reader = getattr(iterators, "_StreamReader", None)
    if reader is None or not callable(getattr(reader, "read", None)):
        return False
    if getattr(reader, _MARK, False):
        return True
    original = reader.__init__

    def __init__(self: Any, obj: Any, *args: Any, **kwargs: Any) -> None:
        original(self, obj, *args, **kwargs)
        if (
            isinstance(obj, TextResponse)
            and isinstance(getattr(self, "encoding", None), str)
            and is_private_codec(self.encoding)
            and hasattr(self, "_is_unicode")
        ):
            # The reader's own path for text: it feeds lxml UTF-8 and names it so.
            self._text, self.encoding, self._is_unicode = obj.text, "utf-8", True

    reader.__init__ = __init__
    setattr(reader, _MARK, True)
    logger.debug("xmliter_lxml reads responses decoded by a whatwg-* codec as text")
    return True
