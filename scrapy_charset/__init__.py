"""scrapy-charset: decode every response as a browser does, and watch items for damage."""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy_charset import signals
    from scrapy_charset._settings import CharsetSettingsError
    from scrapy_charset.audit.record import audit_record
    from scrapy_charset.items import alerts, monitors
    from scrapy_charset.responses.decision import Confidence, EncodingDecision, Ignored, Source
    from scrapy_charset.sniffing import sniff
    from scrapy_charset.whatwg.codecs import codec_name, decode
    from scrapy_charset.whatwg.labels import get_encoding as lookup

__version__ = "0.1.0"

# Everything loads on first use. Scrapy imports every ``scrapy.commands`` entry point on
# every ``scrapy`` invocation, and ours lives in this package: an import error anywhere
# below must not break ``scrapy version``. It also keeps Scrapy's machinery out of an
# import of the spec layers.
_LAZY = {
    "Confidence": "scrapy_charset.responses.decision",
    "EncodingDecision": "scrapy_charset.responses.decision",
    "Ignored": "scrapy_charset.responses.decision",
    "Source": "scrapy_charset.responses.decision",
    "sniff": "scrapy_charset.sniffing",
    "decode": "scrapy_charset.whatwg.codecs",
    "codec_name": "scrapy_charset.whatwg.codecs",
    "lookup": "scrapy_charset.whatwg.labels",
    "Addon": "scrapy_charset.addon",
    "CharsetMiddleware": "scrapy_charset.responses.middleware",
    "CharsetPipeline": "scrapy_charset.items.pipeline",
    "CharsetItemStampMiddleware": "scrapy_charset.items.stamp",
    "TextReport": "scrapy_charset.items.textcheck",
    "inspect_text": "scrapy_charset.items.textcheck",
    "audit_record": "scrapy_charset.audit.record",
    "CharsetSettingsError": "scrapy_charset._settings",
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


def __dir__() -> list[str]:
    """The public API (``__all__``): its names load on first use, so ``globals()`` lacks
    them until then, and the rest of the module's namespace is private."""
    return sorted(__all__)


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
    "CharsetSettingsError",
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
