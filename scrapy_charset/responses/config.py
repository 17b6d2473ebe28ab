"""The downloader middleware's ``CHARSET_*`` settings, read once into a frozen config object.

Every value is checked when the crawler starts (by the add-on, and again by the middleware
when it is listed by hand): an invalid one raises :exc:`CharsetSettingsError`, a one-line
message naming the setting, the value and what is accepted, and the crawl stops before the
first request. ``CHARSET_ENABLED = False`` turns every component off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy_charset._settings import CharsetSettingsError, SettingsReader
from scrapy_charset.sniffing.detect import DEFAULT_WINDOW
from scrapy_charset.sniffing.detectors import BACKENDS
from scrapy_charset.whatwg.labels import get_encoding

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["CharsetConfig", "CharsetSettingsError", "detector_names"]

#: Encodings that cannot be a fallback: the HTML Standard's default is never UTF-16
#: (13.2.3.2, "the user agent may attempt to autodetect... or use a default", and 13.2.3.3
#: "changes the encoding from UTF-16BE/LE to UTF-8"), and "replacement" decodes to U+FFFD.
_NOT_A_DEFAULT = frozenset({"replacement", "UTF-16BE", "UTF-16LE"})


def detector_names() -> tuple[str, ...]:
    """The values ``CHARSET_DETECTOR`` accepts."""
    return ("default", *BACKENDS, "none")


@dataclass(frozen=True)
class CharsetConfig:
    """The downloader middleware's settings.

    ``enabled`` is ``CHARSET_ENABLED``, the switch of every component. ``default_encoding``
    is a WHATWG encoding name, or None for each kind's own default (windows-1252 for HTML
    and plain text). ``skip_content_types`` holds lowercase MIME essences (``"text/csv"``)
    and ``"type/*"`` wildcards.
    """

    enabled: bool = True
    detector: str = "default"
    detect_window: int = DEFAULT_WINDOW
    detect_tld: bool = True
    default_encoding: str | None = None
    skip_content_types: frozenset[str] = frozenset()

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> CharsetConfig:
        """Read and check the middleware's ``CHARSET_*`` settings.

        :raises CharsetSettingsError: for an invalid value.
        """
        read = SettingsReader(settings)
        return cls(
            enabled=read.boolean("CHARSET_ENABLED", True),
            detector=read.choice("CHARSET_DETECTOR", "default", detector_names()),
            detect_window=read.integer("CHARSET_DETECT_WINDOW", DEFAULT_WINDOW, minimum=1),
            detect_tld=read.boolean("CHARSET_DETECT_TLD", True),
            default_encoding=_default_encoding(read.raw("CHARSET_DEFAULT_ENCODING")),
            skip_content_types=_content_types(read.raw("CHARSET_SKIP_CONTENT_TYPES")),
        )


def _default_encoding(value: Any) -> str | None:
    if value is None or value == "":
        return None
    encoding = get_encoding(value) if isinstance(value, str) else None
    if encoding is None:
        raise CharsetSettingsError(
            "CHARSET_DEFAULT_ENCODING",
            value,
            "an Encoding Standard label such as 'windows-1252', 'Shift_JIS' or 'GBK' "
            "(https://encoding.spec.whatwg.org/#names-and-labels)",
            "not an Encoding Standard label",
        )
    if encoding in _NOT_A_DEFAULT:
        raise CharsetSettingsError(
            "CHARSET_DEFAULT_ENCODING",
            value,
            "a legacy encoding such as 'windows-1252'",
            f"{encoding} cannot be a fallback encoding",
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
            raise CharsetSettingsError(
                "CHARSET_SKIP_CONTENT_TYPES",
                value,
                "a list of MIME types such as ['text/csv', 'application/javascript', 'text/*']",
            )
        out.add(essence)
    return frozenset(out)
