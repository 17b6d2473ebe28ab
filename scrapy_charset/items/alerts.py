"""Deciding to alert: the rules that turn per-field measurements into alerts.

The pipeline measures (what each item holds); this module decides (when a field's damage
is worth a human's attention). It knows nothing of Scrapy, so the rules are tested alone.

For each field path and each kind of damage (``replacement`` for U+FFFD, or a mojibake
kind), an alert fires once, the first time one of two rules holds:

- **rate**: after at least ``min_items`` items carrying the field, the share of them with
  that damage is ``rate`` or more;
- **rise**: over the field's last ``2 * window`` items, the share in the recent ``window``
  exceeds the share in the ``window`` before it (its own baseline) by ``rise`` or more.

An alert carries a few damaged values (``samples``) and the URLs of the first pages they
came from (``urls``, at most :data:`MAX_URLS`), so the next step (``scrapy charset <url>``)
has a page to start from.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["MAX_URLS", "REPLACEMENT", "Alert", "AlertRule", "AlertRules", "FieldStats", "Unjudged"]

#: The rule that fired an alert (see the module docstring).
AlertRule = Literal["rate", "rise"]

#: The damage kind of U+FFFD REPLACEMENT CHARACTER; the others are mojibake kinds.
REPLACEMENT = "replacement"

#: The most page URLs an alert names, per field and kind.
MAX_URLS = 3


@dataclass(frozen=True)
class Alert:
    """One alert: a field, a kind of damage, the rule that fired and what was seen."""

    field: str
    kind: str
    rule: AlertRule
    rate: float  # the share that fired the rule
    items: int  # items carrying the field so far
    samples: tuple[str, ...] = ()
    sources: dict[str, int] = dataclasses.field(
        default_factory=dict
    )  # decision source -> damaged items
    damaged: int = 0  # items carrying the field with this damage so far
    repaired: int = 0  # of them, items whose value was repaired
    urls: tuple[str, ...] = ()  # the first pages the damaged values came from

    def as_dict(self) -> dict[str, object]:
        return {
            "field": self.field,
            "kind": self.kind,
            "rule": self.rule,
            "rate": self.rate,
            "items": self.items,
            "samples": list(self.samples),
            "sources": dict(self.sources),
            "damaged": self.damaged,
            "repaired": self.repaired,
            "urls": list(self.urls),
        }


@dataclass(frozen=True)
class Unjudged:
    """Damage no rule could judge: a field with fewer than ``min_items`` items, and no
    alert for the kind."""

    field: str
    kind: str
    damaged: int  # items with the damage
    items: int  # items carrying the field
    repaired: int  # damaged items whose value was repaired


@dataclass
class FieldStats:
    """What was seen of one field: counts, the sliding windows, samples and sources."""

    items: int = 0
    damaged: Counter[str] = dataclasses.field(default_factory=Counter)
    repaired: Counter[str] = dataclasses.field(default_factory=Counter)
    recent: deque[frozenset[str]] = dataclasses.field(default_factory=deque)
    baseline: deque[frozenset[str]] = dataclasses.field(default_factory=deque)
    recent_counts: Counter[str] = dataclasses.field(default_factory=Counter)
    baseline_counts: Counter[str] = dataclasses.field(default_factory=Counter)
    samples: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    sources: dict[str, Counter[str]] = dataclasses.field(default_factory=dict)
    urls: dict[str, list[str]] = dataclasses.field(default_factory=dict)

    def rate(self, kind: str) -> float:
        return self.damaged[kind] / self.items if self.items else 0.0


_SAMPLE_LENGTH = 200


class AlertRules:
    """The alert rules over every field; :meth:`observe` returns the alerts that fire."""

    def __init__(
        self,
        *,
        rate: float = 0.05,
        min_items: int = 50,
        window: int = 100,
        rise: float = 0.2,
        samples: int = 3,
    ) -> None:
        self.rate = rate
        self.min_items = min_items
        self.window = window
        self.rise = rise
        self.max_samples = samples
        self.fields: dict[str, FieldStats] = {}
        self.fired: set[tuple[str, str]] = set()

    def observe(
        self,
        path: str,
        kinds: Iterable[str],
        *,
        value: str | None = None,
        source: str | None = None,
        repaired: Iterable[str] = (),
        url: str | None = None,
    ) -> list[Alert]:
        """Record one item's *path* with the damage *kinds* it holds (empty when clean),
        of which the *repaired* kinds were repaired; *url* is the item's page, when known."""
        stats = self.fields.get(path)
        if stats is None:
            stats = self.fields[path] = FieldStats()
        found = frozenset(kinds)
        stats.items += 1
        if found:
            _add(stats.damaged, found)
            for kind in repaired:
                stats.repaired[kind] += 1
        self._slide(stats, found)
        for kind in found:
            samples = stats.samples.setdefault(kind, [])
            if value is not None and len(samples) < self.max_samples:
                samples.append(value[:_SAMPLE_LENGTH])
            stats.sources.setdefault(kind, Counter())[source or "unknown"] += 1
            if url is not None:
                urls = stats.urls.setdefault(kind, [])
                if len(urls) < MAX_URLS and url not in urls:
                    urls.append(url)
        if not found and not stats.recent_counts:
            return []  # a clean item, nothing damaged in the recent window
        alerts = []
        # Only kinds present in the windows or the totals can fire; in the order of their
        # names, so that alerts firing at one item come in the same order on every run.
        for kind in sorted(set(stats.recent_counts) | found):
            if (path, kind) in self.fired:
                continue
            alert = self._check(path, kind, stats)
            if alert is not None:
                self.fired.add((path, kind))
                alerts.append(alert)
        return alerts

    def _slide(self, stats: FieldStats, found: frozenset[str]) -> None:
        """Push *found* into the recent window; what falls out moves to the baseline."""
        # Most items are clean (an empty set): nothing to count in or out.
        recent, baseline = stats.recent, stats.baseline
        recent.append(found)
        if found:
            _add(stats.recent_counts, found)
        if len(recent) > self.window:
            moved = recent.popleft()
            baseline.append(moved)
            if moved:
                _take(stats.recent_counts, moved)
                _add(stats.baseline_counts, moved)
            if len(baseline) > self.window:
                gone = baseline.popleft()
                if gone:
                    _take(stats.baseline_counts, gone)

    def _check(self, path: str, kind: str, stats: FieldStats) -> Alert | None:
        if stats.items >= self.min_items and _at_least(stats.damaged[kind], stats.items, self.rate):
            return self._alert(path, kind, "rate", stats.rate(kind), stats)
        if len(stats.baseline) == self.window:
            recent = stats.recent_counts[kind]
            rise = recent - stats.baseline_counts[kind]
            if recent > 0 and _at_least(rise, self.window, self.rise):
                return self._alert(path, kind, "rise", recent / self.window, stats)
        return None

    def _alert(
        self, path: str, kind: str, rule: AlertRule, rate: float, stats: FieldStats
    ) -> Alert:
        return Alert(
            field=path,
            kind=kind,
            rule=rule,
            rate=rate,
            items=stats.items,
            samples=tuple(stats.samples.get(kind, ())),
            sources=dict(stats.sources.get(kind, Counter()).most_common()),
            damaged=stats.damaged[kind],
            repaired=stats.repaired[kind],
            urls=tuple(stats.urls.get(kind, ())),
        )

    def unjudged(self) -> list[Unjudged]:
        """The damage of fields with fewer than ``min_items`` items that fired no alert,
        the most damaged first."""
        found = [
            Unjudged(path, kind, count, stats.items, stats.repaired[kind])
            for path, stats in self.fields.items()
            if stats.items < self.min_items
            for kind, count in stats.damaged.items()
            if count and (path, kind) not in self.fired
        ]
        return sorted(found, key=lambda entry: (-entry.damaged, entry.field, entry.kind))

    def rate_over(self, limit: float) -> tuple[str, str, float] | None:
        """A (field, kind, rate) whose rate is *limit* or more after ``min_items`` items."""
        for path, stats in self.fields.items():
            if stats.items < self.min_items:
                continue
            for kind in stats.damaged:
                if _at_least(stats.damaged[kind], stats.items, limit):
                    return path, kind, stats.rate(kind)
        return None


def _add(counts: Counter[str], kinds: frozenset[str]) -> None:
    for kind in kinds:
        counts[kind] += 1


def _take(counts: Counter[str], kinds: frozenset[str]) -> None:
    """Count *kinds* out; a kind whose count reaches 0 leaves the counter."""
    for kind in kinds:
        left = counts[kind] - 1
        if left > 0:
            counts[kind] = left
        else:
            del counts[kind]


def _at_least(count: int, total: int, share: float) -> bool:
    """count / total >= share, exact at the boundary (5 of 100 is 0.05, whatever floats say)."""
    return count >= share * total - 1e-9 * total
