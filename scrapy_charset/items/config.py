"""The item side's settings (``CHARSET_ITEM_*``, ``CHARSET_REPAIR_*``, ``CHARSET_ALERT_*``,
``CHARSET_MONITOR_*``...), read once into a frozen config object.

Read through the same checked reader as the response side's
(:mod:`scrapy_charset.responses.config`): an invalid value raises :exc:`CharsetSettingsError`, one
line naming the setting, the value and what is accepted, and the crawl stops before the
first request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from scrapy_charset._settings import CharsetSettingsError, SettingsReader

__all__ = ["NORMALIZATION_FORMS", "CharsetSettingsError", "ItemChecksConfig", "NormalizationForm"]

#: The Unicode normalisation forms ``CHARSET_NORMALIZE`` accepts.
NormalizationForm = Literal["NFC", "NFKC"]
NORMALIZATION_FORMS: tuple[NormalizationForm, ...] = get_args(NormalizationForm)


@dataclass(frozen=True)
class ItemChecksConfig:
    """The item pipeline's, the item stamp's, the alerts' and the monitors' settings.

    ========================================  ===========================  ===============
    setting                                   attribute                    default
    ========================================  ===========================  ===============
    ``CHARSET_ENABLED``                       ``charset_enabled``          ``True``
    ``CHARSET_ITEM_CHECKS_ENABLED``           ``enabled``                  ``True``
    ``CHARSET_ITEM_FIELD``                    ``item_field``               ``None``
    ``CHARSET_REPAIRS_FIELD``                 ``repairs_field``            ``None``
    ``CHARSET_REPAIR_ENABLED``                ``repair``                   ``True``
    ``CHARSET_REPAIR_LEGACY``                 ``repair_legacy``            ``False``
    ``CHARSET_NORMALIZE``                     ``normalize``                ``{}``
    ``CHARSET_ALERT_RATE``                    ``alert_rate``               ``0.05``
    ``CHARSET_ALERT_MIN_ITEMS``               ``alert_min_items``          ``50``
    ``CHARSET_ALERT_WINDOW``                  ``alert_window``             ``100``
    ``CHARSET_ALERT_RISE``                    ``alert_rise``               ``0.2``
    ``CHARSET_ALERT_SAMPLES``                 ``alert_samples``            ``3``
    ``CHARSET_DROP_ITEM_FIELDS``              ``drop_item_fields``         ``0`` (off)
    ``CHARSET_CLOSE_SPIDER_RATE``             ``close_spider_rate``        ``0.0`` (off)
    ``CHARSET_MAX_FIELD_PATHS``               ``max_field_paths``          ``100``
    ``CHARSET_MONITOR_MAX_ALERTS``            ``monitor_max_alerts``       ``0``
    ``CHARSET_MONITOR_MAX_REPLACEMENT_RATE``  ``monitor_max_replacement``  ``0.01``
    ``CHARSET_MONITOR_MAX_MOJIBAKE_RATE``     ``monitor_max_mojibake``     ``0.01``
    ========================================  ===========================  ===============
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
    monitor_max_alerts: int = 0
    monitor_max_replacement: float = 0.01
    monitor_max_mojibake: float = 0.01
    charset_enabled: bool = True

    def __post_init__(self) -> None:
        # The same limits as the reader's, for a config built directly.
        for name in (
            "alert_rate",
            "alert_rise",
            "close_spider_rate",
            "monitor_max_replacement",
            "monitor_max_mojibake",
        ):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise CharsetSettingsError(_SETTING[name], value, "a share between 0 and 1")
        for name in ("alert_min_items", "alert_window", "max_field_paths"):
            if getattr(self, name) < 1:
                raise CharsetSettingsError(_SETTING[name], getattr(self, name), "1 or more")
        for name in ("alert_samples", "drop_item_fields", "monitor_max_alerts"):
            if getattr(self, name) < 0:
                raise CharsetSettingsError(_SETTING[name], getattr(self, name), "0 or more")
        for path, form in self.normalize.items():
            if form not in NORMALIZATION_FORMS:
                raise CharsetSettingsError(
                    "CHARSET_NORMALIZE",
                    dict(self.normalize),
                    "a dict of field path -> 'NFC' or 'NFKC'",
                    f"{path!r} maps to {form!r}",
                )
        if self.item_field is not None and self.item_field == self.repairs_field:
            raise CharsetSettingsError(
                "CHARSET_REPAIRS_FIELD",
                self.repairs_field,
                "a field name other than CHARSET_ITEM_FIELD's",
                "the stamp and the repairs would share one field",
            )

    @classmethod
    def from_settings(cls, settings: Any) -> ItemChecksConfig:
        """Read and check the settings (a Scrapy ``BaseSettings``).

        :raises CharsetSettingsError: for an invalid value.
        """
        read = SettingsReader(settings)
        return cls(
            charset_enabled=read.boolean("CHARSET_ENABLED", True),
            enabled=read.boolean("CHARSET_ITEM_CHECKS_ENABLED", True),
            item_field=read.name("CHARSET_ITEM_FIELD"),
            repairs_field=read.name("CHARSET_REPAIRS_FIELD"),
            repair=read.boolean("CHARSET_REPAIR_ENABLED", True),
            repair_legacy=read.boolean("CHARSET_REPAIR_LEGACY", False),
            normalize=_normalize(read.mapping("CHARSET_NORMALIZE", _NORMALIZE_ACCEPTED)),
            alert_rate=read.share("CHARSET_ALERT_RATE", 0.05),
            alert_min_items=read.integer("CHARSET_ALERT_MIN_ITEMS", 50, minimum=1),
            alert_window=read.integer("CHARSET_ALERT_WINDOW", 100, minimum=1),
            alert_rise=read.share("CHARSET_ALERT_RISE", 0.2),
            alert_samples=read.integer("CHARSET_ALERT_SAMPLES", 3, minimum=0),
            drop_item_fields=read.integer("CHARSET_DROP_ITEM_FIELDS", 0, minimum=0),
            close_spider_rate=read.share("CHARSET_CLOSE_SPIDER_RATE", 0.0),
            max_field_paths=read.integer("CHARSET_MAX_FIELD_PATHS", 100, minimum=1),
            monitor_max_alerts=read.integer("CHARSET_MONITOR_MAX_ALERTS", 0, minimum=0),
            monitor_max_replacement=read.share("CHARSET_MONITOR_MAX_REPLACEMENT_RATE", 0.01),
            monitor_max_mojibake=read.share("CHARSET_MONITOR_MAX_MOJIBAKE_RATE", 0.01),
        )


_NORMALIZE_ACCEPTED = "a dict of field path -> 'NFC' or 'NFKC', such as {'title': 'NFC'}"


def _normalize(value: Mapping[Any, Any]) -> dict[str, NormalizationForm]:
    out: dict[str, NormalizationForm] = {}
    for path, form in value.items():
        key = form.strip().upper() if isinstance(form, str) else None
        if not isinstance(path, str) or not path or key not in NORMALIZATION_FORMS:
            raise CharsetSettingsError("CHARSET_NORMALIZE", dict(value), _NORMALIZE_ACCEPTED)
        out[path] = key
    return out


_SETTING = {
    "alert_rate": "CHARSET_ALERT_RATE",
    "alert_rise": "CHARSET_ALERT_RISE",
    "close_spider_rate": "CHARSET_CLOSE_SPIDER_RATE",
    "alert_min_items": "CHARSET_ALERT_MIN_ITEMS",
    "alert_window": "CHARSET_ALERT_WINDOW",
    "max_field_paths": "CHARSET_MAX_FIELD_PATHS",
    "alert_samples": "CHARSET_ALERT_SAMPLES",
    "drop_item_fields": "CHARSET_DROP_ITEM_FIELDS",
    "monitor_max_alerts": "CHARSET_MONITOR_MAX_ALERTS",
    "monitor_max_replacement": "CHARSET_MONITOR_MAX_REPLACEMENT_RATE",
    "monitor_max_mojibake": "CHARSET_MONITOR_MAX_MOJIBAKE_RATE",
}
