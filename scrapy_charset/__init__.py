"""scrapy-charset: decode every response as a browser does, and watch items for damage."""

from __future__ import annotations

from scrapy_charset.decision import Confidence, EncodingDecision, Ignored, Source
from scrapy_charset.sniff import sniff
from scrapy_charset.whatwg.codecs import decode
from scrapy_charset.whatwg.labels import get_encoding as lookup

__version__ = "0.1.0"

# Scrapy components load on first use, so that importing the spec layers (or running an
# unrelated ``scrapy`` command) does not import Scrapy's machinery through this package.
_LAZY = {
    "Addon": "scrapy_charset.addon",
    "CharsetMiddleware": "scrapy_charset.middleware",
    "CharsetPipeline": "scrapy_charset.pipeline",
    "CharsetItemStampMiddleware": "scrapy_charset.itemstamp",
    "TextReport": "scrapy_charset.textcheck",
    "inspect_text": "scrapy_charset.textcheck",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'scrapy_charset' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "Addon",
    "CharsetItemStampMiddleware",
    "CharsetMiddleware",
    "CharsetPipeline",
    "Confidence",
    "EncodingDecision",
    "Ignored",
    "Source",
    "TextReport",
    "__version__",
    "decode",
    "inspect_text",
    "lookup",
    "sniff",
]
