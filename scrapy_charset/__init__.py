"""scrapy-charset: decode every response as a browser does, and watch items for damage."""

from __future__ import annotations

import codecs
import sys
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy_charset import signals
    from scrapy_charset.audit.record import audit_record
    from scrapy_charset.decision import Confidence, EncodingDecision, Ignored, Source
    from scrapy_charset.items import alerts, monitors
    from scrapy_charset.sniff import sniff
    from scrapy_charset.whatwg.codecs import codec_name, decode
    from scrapy_charset.whatwg.labels import get_encoding as lookup

__version__ = "0.1.0"

# Everything loads on first use. Scrapy imports every ``scrapy.commands`` entry point on
# every ``scrapy`` invocation, and ours lives in this package: an import error anywhere
# below must not break ``scrapy version``. It also keeps Scrapy's machinery out of an
# import of the spec layers.
_LAZY = {
    "Confidence": "scrapy_charset.decision",
    "EncodingDecision": "scrapy_charset.decision",
    "Ignored": "scrapy_charset.decision",
    "Source": "scrapy_charset.decision",
    "sniff": "scrapy_charset.sniff",
    "decode": "scrapy_charset.whatwg.codecs",
    "codec_name": "scrapy_charset.whatwg.codecs",
    "lookup": "scrapy_charset.whatwg.labels",
    "Addon": "scrapy_charset.addon",
    "CharsetMiddleware": "scrapy_charset.middleware",
    "CharsetPipeline": "scrapy_charset.items.pipeline",
    "CharsetItemStampMiddleware": "scrapy_charset.items.stamp",
    "TextReport": "scrapy_charset.items.textcheck",
    "inspect_text": "scrapy_charset.items.textcheck",
    "audit_record": "scrapy_charset.audit.record",
}

#: Documented modules, also loaded on first use: ``scrapy_charset.signals.charset_alert``
#: and the item side's ``alerts`` and ``monitors`` (which live in ``scrapy_charset.items``).
_MODULES = {
    "signals": "scrapy_charset.signals",
    "alerts": "scrapy_charset.items.alerts",
    "monitors": "scrapy_charset.items.monitors",
}


def __getattr__(name: str) -> object:
    import importlib

    if name in _MODULES:
        value: object = importlib.import_module(_MODULES[name])
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), _ALIASES.get(name, name))
    else:
        raise AttributeError(f"module 'scrapy_charset' has no attribute {name!r}")
    globals()[name] = value
    return value


_ALIASES = {"lookup": "get_encoding"}


class _Package(ModuleType):
    """This package, where a public name shared with a subpackage stays the public object.

    ``scrapy_charset.sniff`` is the function; importing the subpackage of the same name
    would rebind it to the module (the import system sets the parent's attribute).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in _LAZY and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def _find_codec(name: str) -> codecs.CodecInfo | None:
    """The ``whatwg-*`` codecs, loaded on their first lookup: a stored
    ``response.encoding`` decodes in a process that only imported this package."""
    if not name.startswith("whatwg"):
        return None
    from scrapy_charset.whatwg import codecs as whatwg_codecs

    return whatwg_codecs.lookup(name)


codecs.register(_find_codec)


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
    "alerts",
    "audit_record",
    "codec_name",
    "decode",
    "inspect_text",
    "lookup",
    "monitors",
    "signals",
    "sniff",
]
