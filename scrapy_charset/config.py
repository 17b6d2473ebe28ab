"""Every ``CHARSET_*`` setting, read once into frozen config objects.

An invalid value raises :exc:`scrapy.exceptions.NotConfigured` with a message that names
the setting, the value and how to fix it; Scrapy then disables the component and logs the
message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy.exceptions import NotConfigured

from scrapy_charset.sniff.detect import DEFAULT_WINDOW
from scrapy_charset.whatwg.labels import get_encoding

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["CharsetConfig", "ItemChecksConfig"]

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


# --- Item checks ---------------------------------------------------------------------------

NORMALIZATION_FORMS = ("NFC", "NFKC")


@dataclass(frozen=True)
class ItemChecksConfig:
    """The item pipeline's, the item stamp's and the alerts' settings.

    ======================================  ======================  ========================
    setting                                 attribute               default
    ======================================  ======================  ========================
    ``CHARSET_ITEM_CHECKS_ENABLED``         ``enabled``             ``True``
    ``CHARSET_ITEM_FIELD``                  ``item_field``          ``None``
    ``CHARSET_REPAIRS_FIELD``               ``repairs_field``       ``None``
    ``CHARSET_REPAIR_ENABLED``              ``repair``              ``True``
    ``CHARSET_REPAIR_LEGACY``               ``repair_legacy``       ``False``
    ``CHARSET_NORMALIZE``                   ``normalize``           ``{}``
    ``CHARSET_ALERT_RATE``                  ``alert_rate``          ``0.05``
    ``CHARSET_ALERT_MIN_ITEMS``             ``alert_min_items``     ``50``
    ``CHARSET_ALERT_WINDOW``                ``alert_window``        ``100``
    ``CHARSET_ALERT_RISE``                  ``alert_rise``          ``0.2``
    ``CHARSET_ALERT_SAMPLES``               ``alert_samples``       ``3``
    ``CHARSET_DROP_ITEM_FIELDS``            ``drop_item_fields``    ``0`` (off)
    ``CHARSET_CLOSE_SPIDER_RATE``           ``close_spider_rate``   ``0.0`` (off)
    ``CHARSET_MAX_FIELD_PATHS``             ``max_field_paths``     ``100``
    ======================================  ======================  ========================
    """

    enabled: bool = True
    item_field: str | None = None
    repairs_field: str | None = None
    repair: bool = True
    repair_legacy: bool = False
    normalize: Mapping[str, str] = field(default_factory=dict)
    alert_rate: float = 0.05
    alert_min_items: int = 50
    alert_window: int = 100
    alert_rise: float = 0.2
    alert_samples: int = 3
    drop_item_fields: int = 0
    close_spider_rate: float = 0.0
    max_field_paths: int = 100

    def __post_init__(self) -> None:
        for name in ("alert_rate", "alert_rise", "close_spider_rate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{_SETTING[name]} must be a share between 0 and 1, not {value!r}")
        for name in ("alert_min_items", "alert_window", "max_field_paths"):
            if getattr(self, name) < 1:
                raise ValueError(f"{_SETTING[name]} must be 1 or more")
        for name in ("alert_samples", "drop_item_fields"):
            if getattr(self, name) < 0:
                raise ValueError(f"{_SETTING[name]} must be 0 or more")
        for path, form in self.normalize.items():
            if form not in NORMALIZATION_FORMS:
                raise ValueError(
                    f"CHARSET_NORMALIZE[{path!r}] must be one of {NORMALIZATION_FORMS}, "
                    f"not {form!r}"
                )

    @classmethod
    def from_settings(cls, settings: Any) -> ItemChecksConfig:
        """Read the settings (a Scrapy ``BaseSettings``); ``ValueError`` says what to fix."""
        normalize = settings.getdict("CHARSET_NORMALIZE")
        return cls(
            enabled=settings.getbool("CHARSET_ITEM_CHECKS_ENABLED", True),
            item_field=settings.get("CHARSET_ITEM_FIELD") or None,
            repairs_field=settings.get("CHARSET_REPAIRS_FIELD") or None,
            repair=settings.getbool("CHARSET_REPAIR_ENABLED", True),
            repair_legacy=settings.getbool("CHARSET_REPAIR_LEGACY", False),
            normalize={str(k): str(v).upper() for k, v in normalize.items()},
            alert_rate=settings.getfloat("CHARSET_ALERT_RATE", 0.05),
            alert_min_items=settings.getint("CHARSET_ALERT_MIN_ITEMS", 50),
            alert_window=settings.getint("CHARSET_ALERT_WINDOW", 100),
            alert_rise=settings.getfloat("CHARSET_ALERT_RISE", 0.2),
            alert_samples=settings.getint("CHARSET_ALERT_SAMPLES", 3),
            drop_item_fields=settings.getint("CHARSET_DROP_ITEM_FIELDS", 0),
            close_spider_rate=settings.getfloat("CHARSET_CLOSE_SPIDER_RATE", 0.0),
            max_field_paths=settings.getint("CHARSET_MAX_FIELD_PATHS", 100),
        )


_SETTING = {
    "alert_rate": "CHARSET_ALERT_RATE",
    "alert_rise": "CHARSET_ALERT_RISE",
    "close_spider_rate": "CHARSET_CLOSE_SPIDER_RATE",
    "alert_min_items": "CHARSET_ALERT_MIN_ITEMS",
    "alert_window": "CHARSET_ALERT_WINDOW",
    "max_field_paths": "CHARSET_MAX_FIELD_PATHS",
    "alert_samples": "CHARSET_ALERT_SAMPLES",
    "drop_item_fields": "CHARSET_DROP_ITEM_FIELDS",
}
