"""Every ``CHARSET_*`` setting, read once into frozen config objects.

An invalid value raises :exc:`scrapy.exceptions.NotConfigured` with a message that names
the setting, the value and how to fix it; Scrapy then disables the component and logs the
message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy.exceptions import NotConfigured

from scrapy_charset.sniff.detect import DEFAULT_WINDOW
from scrapy_charset.whatwg.labels import get_encoding

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["CharsetConfig"]

_T = TypeVar("_T")

#: Encodings that cannot be a fallback: the HTML Standard's default is never UTF-16
#: (13.2.3.2, "the user agent may attempt to autodetect... or use a default", and 13.2.3.3
#: "changes the encoding from UTF-16BE/LE to UTF-8"), and "replacement" decodes to U+FFFD.
_NOT_A_DEFAULT = frozenset({"replacement", "UTF-16BE", "UTF-16LE"})


def _read(settings: BaseSettings, name: str, getter: Callable[[str], _T], expected: str) -> _T:
    try:
        return getter(name)
    except (TypeError, ValueError):
        raise NotConfigured(
            f"{name} = {settings.get(name)!r} is not {expected}; set it to {expected} "
            f"or remove it to use the default."
        ) from None


@dataclass(frozen=True)
class CharsetConfig:
    """The downloader middleware's settings.

    ``default_encoding`` is a WHATWG encoding name, or None for each kind's own default
    (windows-1252 for HTML and plain text). ``skip_content_types`` holds lowercase MIME
    essences (``"text/csv"``) and ``"type/*"`` wildcards.
    """

    enabled: bool = True
    detector: str = "default"
    detect_window: int = DEFAULT_WINDOW
    detect_tld: bool = True
    default_encoding: str | None = None
    skip_content_types: frozenset[str] = frozenset()

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> CharsetConfig:
        """Read and validate the ``CHARSET_*`` settings of the downloader middleware."""
        enabled = _read(
            settings, "CHARSET_ENABLED", lambda n: settings.getbool(n, True), "True or False"
        )
        detector = settings.get("CHARSET_DETECTOR", "default")
        if not isinstance(detector, str) or not detector.strip():
            raise NotConfigured(
                f"CHARSET_DETECTOR = {detector!r} is not a detector name; set it to "
                f"'default', to 'none' to turn detection off, or remove it."
            )
        window = _read(
            settings,
            "CHARSET_DETECT_WINDOW",
            lambda n: settings.getint(n, DEFAULT_WINDOW),
            "a positive number of bytes",
        )
        if window <= 0:
            raise NotConfigured(
                f"CHARSET_DETECT_WINDOW = {window!r} is not a positive number of bytes; "
                f"set it to a number such as {DEFAULT_WINDOW} or remove it."
            )
        use_tld = _read(
            settings, "CHARSET_DETECT_TLD", lambda n: settings.getbool(n, True), "True or False"
        )
        return cls(
            enabled=enabled,
            detector=detector.strip(),
            detect_window=window,
            detect_tld=use_tld,
            default_encoding=_default_encoding(settings.get("CHARSET_DEFAULT_ENCODING")),
            skip_content_types=_content_types(settings.get("CHARSET_SKIP_CONTENT_TYPES")),
        )


def _default_encoding(value: Any) -> str | None:
    if value is None or value == "":
        return None
    encoding = get_encoding(value) if isinstance(value, str) else None
    if encoding is None:
        raise NotConfigured(
            f"CHARSET_DEFAULT_ENCODING = {value!r} is not an Encoding Standard label; set it "
            f"to a label such as 'windows-1252', 'Shift_JIS' or 'GBK' "
            f"(https://encoding.spec.whatwg.org/#names-and-labels), or remove it."
        )
    if encoding in _NOT_A_DEFAULT:
        raise NotConfigured(
            f"CHARSET_DEFAULT_ENCODING = {value!r} names {encoding}, which cannot be a "
            f"fallback encoding; use a legacy encoding such as 'windows-1252', or remove it."
        )
    return encoding


def _content_types(value: Any) -> frozenset[str]:
    if value is None or value == "":
        return frozenset()
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple, set, frozenset)):
        items = [None]
    out = set()
    for item in items:
        essence = item.strip().lower() if isinstance(item, str) else ""
        kind, _, subtype = essence.partition("/")
        if not kind or not subtype or kind == "*" or ";" in essence or " " in essence:
            raise NotConfigured(
                f"CHARSET_SKIP_CONTENT_TYPES = {value!r} is not a list of MIME types; set it "
                f"to a list such as ['text/csv', 'application/javascript', 'text/*'], "
                f"or remove it."
            )
        out.add(essence)
    return frozenset(out)
