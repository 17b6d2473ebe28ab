"""scrapy-charset: decode every response as a browser does, and watch items for damage."""

from __future__ import annotations

from scrapy_charset.decision import Confidence, EncodingDecision, Ignored, Source
from scrapy_charset.sniff import sniff
from scrapy_charset.whatwg.codecs import decode
from scrapy_charset.whatwg.labels import get_encoding as lookup

__version__ = "0.1.0"

__all__ = [
    "Confidence",
    "EncodingDecision",
    "Ignored",
    "Source",
    "__version__",
    "decode",
    "lookup",
    "sniff",
]
