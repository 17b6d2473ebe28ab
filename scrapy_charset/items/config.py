"""The item side's settings (``CHARSET_ITEM_*``, ``CHARSET_REPAIR_*``, ``CHARSET_ALERT_*``...),
read once into a frozen config object."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

__all__ = ["NORMALIZATION_FORMS", "ItemChecksConfig", "NormalizationForm"]

#: The Unicode normalisation forms ``CHARSET_NORMALIZE`` accepts.
NormalizationForm = Literal["NFC", "NFKC"]
NORMALIZATION_FORMS: tuple[NormalizationForm, ...] = get_args(NormalizationForm)


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
    normalize: Mapping[str, NormalizationForm] = field(default_factory=dict)
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
            normalize={
                str(k): cast(NormalizationForm, str(v).upper()) for k, v in normalize.items()
            },
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
