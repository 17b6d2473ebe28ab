"""Encoding Standard, section 4.2 "Names and labels": "get an encoding".

https://encoding.spec.whatwg.org/#concept-encoding-get
"""

from __future__ import annotations

from scrapy_charset.whatwg._labels import ENCODING_NAMES, LABELS

__all__ = ["ASCII_WHITESPACE", "ENCODING_NAMES", "LABELS", "get_encoding", "is_refused", "is_utf16"]

#: ASCII whitespace: U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020 SPACE.
ASCII_WHITESPACE = "\t\n\x0c\r "

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def get_encoding(label: str) -> str | None:
    """Return the encoding name for *label*, or ``None`` for failure.

    1. Remove any leading and trailing ASCII whitespace from label.
    2. If label is an ASCII case-insensitive match for any of the labels listed in the
       table, return the corresponding encoding; otherwise return failure.

    Only ASCII letters are lowercased (``str.lower`` would also fold, for example, the
    Kelvin sign U+212A to "k", which the standard does not). A *label* that is not a str
    raises ``TypeError``.
    """
    if not isinstance(label, str):
        raise TypeError(f"lookup() argument 'label' must be str, not {type(label).__name__}")
    return LABELS.get(label.strip(ASCII_WHITESPACE).translate(_LOWER))


def is_utf16(encoding: str) -> bool:
    """True for UTF-16BE and UTF-16LE (the "UTF-16BE/LE" of the HTML Standard)."""
    return encoding in ("UTF-16BE", "UTF-16LE")


def _python_codec_names() -> frozenset[str]:
    """Normalised names of every codec the Python standard library ships."""
    import encodings
    import encodings.aliases
    import pkgutil

    modules = {m.name for m in pkgutil.iter_modules(encodings.__path__)}
    modules.discard("aliases")
    return frozenset(modules | set(encodings.aliases.aliases))


_PYTHON_CODECS: frozenset[str] | None = None


def is_refused(label: str) -> bool:
    """True when *label* is not an Encoding Standard label but names a Python codec.

    Such labels (``utf-7``, ``cp437``, ``rot13``, ``base64``, ``punycode``...) are refused
    rather than unknown: a browser does not support them, and handing them to Python
    would decode text a browser never shows, or raise, or smuggle markup. The check reads
    the standard library's codec names; it never calls :func:`codecs.lookup`.
    """
    global _PYTHON_CODECS
    if get_encoding(label) is not None:
        return False
    name = label.strip(ASCII_WHITESPACE)
    if not name or len(name) > 64 or not name.isascii():
        return False
    if _PYTHON_CODECS is None:
        _PYTHON_CODECS = _python_codec_names()
    import encodings

    return encodings.normalize_encoding(name.translate(_LOWER)) in _PYTHON_CODECS
