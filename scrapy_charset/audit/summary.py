"""The audit's totals: what was read, skipped and decided, and where the text differs.

Memory stays bounded: the counters are keyed by reasons, decision sources and encoding
names (small fixed sets), and by host up to :data:`MAX_HOSTS` distinct hosts, after which
new hosts count under :data:`OTHER_HOSTS`. For the HTML report (``samples=True``), at
most :data:`SAMPLES_PER_KIND` differing responses are kept per change kind (the pair of
encodings, and whether only U+FFFD differ) for the first :data:`MAX_SAMPLE_KINDS` kinds,
and as many per kind of mojibake and of responses whose text holds U+FFFD, each with its
URL cut to :data:`SAMPLE_URL` characters; and the pages to act on (damaged, or read
differently from plain Scrapy) for the report's CSV, the first :data:`MAX_LISTED`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

__all__ = [
    "MAX_HOSTS",
    "MAX_LISTED",
    "MAX_SAMPLE_KINDS",
    "OTHER_HOSTS",
    "SAMPLES_PER_KIND",
    "SAMPLE_URL",
    "ChangeKind",
    "Summary",
]

MAX_HOSTS = 100_000
OTHER_HOSTS = "(other hosts)"
#: Samples kept per change kind and per kind of mojibake.
SAMPLES_PER_KIND = 3
#: Change kinds that keep samples (the first seen); later kinds are counted only.
MAX_SAMPLE_KINDS = 64
#: A sample's URL is cut to this many characters.
SAMPLE_URL = 500
#: Pages listed for the report's CSV (damaged, or read differently); the rest are counted.
MAX_LISTED = 1_000

#: Plain Scrapy's encoding, the package's, and whether the texts differ by U+FFFD only.
ChangeKind = tuple[str, str, bool]


class _Row:
    __slots__ = ("differs", "fffd_only", "records")

    def __init__(self) -> None:
        self.records = 0
        self.differs = 0
        self.fffd_only = 0

    def add(self, result: dict[str, Any]) -> None:
        self.records += 1
        if result["differs"]:
            self.differs += 1
            if result["fffd_only"]:
                self.fffd_only += 1

    def as_dict(self) -> dict[str, int]:
        return {
            "records": self.records,
            "differs": self.differs,
            "differs_fffd_only": self.fffd_only,
        }


class _HostRow(_Row):
    """A host's counts, with the encodings and rules that decided and the responses whose
    declarations named different encodings (an ignored ``*_conflict`` declaration).

    Most hosts are decided one way throughout: their (encoding, rule) pair is kept alone,
    and a counter of pairs is made only when a second pair comes.
    """

    __slots__ = ("conflicts", "decided_as")

    def __init__(self) -> None:
        super().__init__()
        self.conflicts = 0
        self.decided_as: tuple[str, str] | Counter[tuple[str, str]] | None = None

    def add(self, result: dict[str, Any]) -> None:
        super().add(result)
        charset = result["charset"]
        pair = (result["encoding"], charset["source"])
        if self.decided_as is None:
            self.decided_as = pair
        elif isinstance(self.decided_as, tuple):
            if self.decided_as != pair:
                self.decided_as = Counter({self.decided_as: self.records - 1, pair: 1})
        else:
            self.decided_as[pair] += 1
        self.conflicts += _conflict(charset)

    def _pairs(self) -> Counter[tuple[str, str]]:
        if isinstance(self.decided_as, tuple):
            return Counter({self.decided_as: self.records})
        return Counter(self.decided_as or {})

    def merge(self, other: _HostRow) -> None:
        pairs = self._pairs()
        pairs.update(other._pairs())
        self.decided_as = pairs
        self.records += other.records
        self.differs += other.differs
        self.fffd_only += other.fffd_only
        self.conflicts += other.conflicts

    def as_dict(self) -> dict[str, Any]:
        encodings: Counter[str] = Counter()
        sources: Counter[str] = Counter()
        for (encoding, source), count in self._pairs().items():
            encodings[encoding] += count
            sources[source] += count
        return {
            **super().as_dict(),
            "encodings": _by_count(encodings),
            "sources": _by_count(sources),
            "conflicts": self.conflicts,
        }


def _conflict(charset: dict[str, Any]) -> bool:
    return any(str(ignored["reason"]).endswith("_conflict") for ignored in charset["ignored"])


def _by_count(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def _cut(value: object, limit: int) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "\u2026"


def _order(item: tuple[Any, _Row]) -> tuple[int, int, str]:
    key, row = item
    return (-row.differs, -row.records, str(key))


class Summary:
    """Totals over every record, added in reading order."""

    def __init__(self, *, top: int = 10, mojibake: bool = False, samples: bool = False) -> None:
        self.top = top
        self.keep_samples = samples
        self.records = 0
        self.bytes = 0
        self.decided = 0
        self.differs = 0
        self.differs_fffd_only = 0
        #: Decoded responses whose text (as the middleware decodes it) holds U+FFFD.
        self.replacement = 0
        self.mojibake: int | None = 0 if mojibake else None
        self.skipped: Counter[str] = Counter()
        self.left_alone: Counter[str] = Counter()
        self.sources: Counter[str] = Counter()
        self.encodings: Counter[str] = Counter()
        self.mojibake_kinds: Counter[str] = Counter()
        self.hosts: dict[str, _HostRow] = {}
        self.pairs: dict[tuple[str, str], _Row] = {}
        #: Per input (file or cache folder), in the order given.
        self.inputs: dict[str, Counter[str]] = {}
        #: The first differing responses of each change kind, in reading order.
        self.samples: dict[ChangeKind, list[dict[str, Any]]] = {}
        #: The first responses still carrying each kind of mojibake, in reading order.
        self.mojibake_samples: dict[str, list[dict[str, Any]]] = {}
        #: The first responses whose text holds U+FFFD, in reading order.
        self.replacement_samples: list[dict[str, Any]] = []
        #: The first :data:`MAX_LISTED` pages damaged or read differently (for the CSV),
        #: and how many more there were.
        self.listed: list[dict[str, Any]] = []
        self.unlisted = 0

    def _input(self, name: str | None) -> Counter[str]:
        if name is None:
            return Counter()
        counts = self.inputs.get(name)
        if counts is None:
            counts = self.inputs[name] = Counter()
        return counts

    def skip(self, reason: str, source: str | None = None) -> None:
        self.skipped[reason] += 1
        self._input(source)["skipped"] += 1

    def leave(self, reason: str, source: str | None = None) -> None:
        self.records += 1
        self.left_alone[reason] += 1
        self._input(source)["records"] += 1

    def add(self, result: dict[str, Any]) -> None:
        """Count one result of :func:`scrapy_charset.audit.record.audit_record`."""
        self.records += 1
        self.bytes += result["bytes"]
        counts = self._input(result.get("source"))
        counts["records"] += 1
        if result["left_alone"] is not None:
            self.left_alone[result["left_alone"]] += 1
            return
        self.decided += 1
        counts["decided"] += 1
        counts["differs"] += result["differs"]
        counts["differs_fffd_only"] += result["differs"] and result["fffd_only"]
        self.sources[result["charset"]["source"]] += 1
        self.encodings[result["encoding"]] += 1
        if result["differs"]:
            self.differs += 1
            if result["fffd_only"]:
                self.differs_fffd_only += 1
        fffd = result["fffd"]["scrapy_charset"]
        if fffd:
            self.replacement += 1
            if self.keep_samples and len(self.replacement_samples) < SAMPLES_PER_KIND:
                self._keep({"": self.replacement_samples}, "", result, result.get("fffd_sample"))
        if self.keep_samples and (fffd or result["differs"] or result.get("mojibake")):
            self._list(result)
        if self.mojibake is not None and result.get("mojibake"):
            self.mojibake += 1
            kind = str(result["mojibake"])
            self.mojibake_kinds[kind] += 1
            if self.keep_samples:
                self._keep(self.mojibake_samples, kind, result, result.get("mojibake_sample"))
        host = result["host"]
        host_row = self.hosts.get(host)
        if host_row is None:
            if len(self.hosts) >= MAX_HOSTS:
                host = OTHER_HOSTS
                host_row = self.hosts.get(host)
            if host_row is None:
                host_row = self.hosts[host] = _HostRow()
        host_row.add(result)
        pair = (result["scrapy_encoding"] or "", result["encoding"])
        row = self.pairs.get(pair)
        if row is None:
            row = self.pairs[pair] = _Row()
        row.add(result)
        if self.keep_samples and result["differs"]:
            change: ChangeKind = (*pair, bool(result["fffd_only"]))
            if change in self.samples or len(self.samples) < MAX_SAMPLE_KINDS:
                self._keep(self.samples, change, result, result["difference"])

    @staticmethod
    def _keep(
        samples: dict[Any, list[dict[str, Any]]],
        kind: Any,
        result: dict[str, Any],
        excerpt: dict[str, Any] | None,
    ) -> None:
        kept = samples.setdefault(kind, [])
        if len(kept) < SAMPLES_PER_KIND:
            kept.append(
                {
                    "url": _cut(result["url"], SAMPLE_URL),
                    "date": result.get("date"),
                    "source": result.get("source"),
                    "record": _cut(result.get("record") or "", SAMPLE_URL),
                    "fffd": result.get("fffd"),
                    "excerpt": excerpt,
                }
            )

    def _list(self, result: dict[str, Any]) -> None:
        if len(self.listed) >= MAX_LISTED:
            self.unlisted += 1
            return
        self.listed.append(
            {
                "url": _cut(result["url"], SAMPLE_URL),
                "fffd": result["fffd"]["scrapy_charset"],
                "mojibake": result.get("mojibake") or "",
                "differs": bool(result["differs"]),
                "fffd_only": bool(result["differs"] and result["fffd_only"]),
                "scrapy_encoding": result["scrapy_encoding"] or "",
                "encoding": result["encoding"],
                "decided_by": result["charset"]["source"],
                "date": result.get("date") or "",
                "input": result.get("source") or "",
                "record": _cut(result.get("record") or "", SAMPLE_URL),
            }
        )

    def host_table(self, limit: int) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """The *limit* hosts with the most differing responses (then the most responses),
        and the rest summed up in one row (``hosts``: how many), or None if there is none."""
        ranked = sorted(self.hosts.items(), key=_order)
        rows = [{"host": host, **row.as_dict()} for host, row in ranked[:limit]]
        if len(ranked) <= limit:
            return rows, None
        rest = _HostRow()
        for _, row in ranked[limit:]:
            rest.merge(row)
        return rows, {"hosts": len(ranked) - limit, **rest.as_dict()}

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "records": self.records,
            "bytes": self.bytes,
            "skipped": dict(sorted(self.skipped.items())),
            "left_alone": dict(sorted(self.left_alone.items())),
            "decided": self.decided,
            "differs": self.differs,
            "differs_fffd_only": self.differs_fffd_only,
            "differs_text": self.differs - self.differs_fffd_only,
            "replacement": self.replacement,
        }
        if self.mojibake is not None:
            out["mojibake"] = self.mojibake
            out["mojibake_kinds"] = _by_count(self.mojibake_kinds)
        out["sources"] = _by_count(self.sources)
        out["encodings"] = _by_count(self.encodings)
        out["hosts"] = self.host_table(self.top)[0]
        out["inputs"] = [
            {
                "input": name,
                **{
                    key: counts[key]
                    for key in ("records", "skipped", "decided", "differs", "differs_fffd_only")
                },
            }
            for name, counts in self.inputs.items()
        ]
        out["encoding_pairs"] = [
            {"scrapy": pair[0], "scrapy_charset": pair[1], **row.as_dict()}
            for pair, row in sorted(self.pairs.items(), key=_order)
        ]
        return out

    def render(self) -> str:
        """The summary as a table for a terminal."""
        data = self.as_dict()

        def counts(counter: dict[str, int]) -> str:
            return ", ".join(f"{name} {count}" for name, count in counter.items()) or "-"

        # What is still damaged first, then what the middleware changes.
        rows = [
            ("Responses read", data["records"], ""),
            ("Left alone (not text)", sum(data["left_alone"].values()), data["left_alone"]),
            ("Decoded", data["decided"], ""),
            ("Still U+FFFD after decoding", data["replacement"], ""),
        ]
        if "mojibake" in data:
            rows.append(("Still mojibake after decoding", data["mojibake"], ""))
        rows += [
            ("Text differs from plain Scrapy's", data["differs"], ""),
            ("  by U+FFFD only", data["differs_fffd_only"], ""),
            ("  different text", data["differs_text"], ""),
        ]
        rows.append(("Skipped (unreadable input)", sum(data["skipped"].values()), data["skipped"]))
        lines = [
            f"{name:<34} {count:>9}  {counts(detail) if detail else ''}".rstrip()
            for name, count, detail in rows
        ]
        lines.append("")
        lines.append(f"Decided by      {counts(data['sources'])}")
        lines.append(f"Encodings       {counts(data['encodings'])}")
        for title, table, name in (
            ("Encoding pair (Scrapy -> scrapy-charset)", data["encoding_pairs"], _pair),
            (f"Host (top {self.top} by differing text)", data["hosts"], _hostname),
        ):
            lines.append("")
            lines.append(f"{title:<44} {'read':>9} {'differ':>7} {'U+FFFD only':>12}")
            for row in table:
                lines.append(
                    f"  {name(row):<42} {row['records']:>9} {row['differs']:>7} "
                    f"{row['differs_fffd_only']:>12}"
                )
        if data["inputs"]:
            lines.append("")
            lines.append(f"{'Input':<44} {'read':>9} {'differ':>7} {'skipped':>12}")
            for row in data["inputs"][: self.top]:
                lines.append(
                    f"  {_short(row['input']):<42} {row['records']:>9} {row['differs']:>7} "
                    f"{row['skipped']:>12}"
                )
            if len(data["inputs"]) > self.top:
                lines.append(f"  ... and {len(data['inputs']) - self.top} more (see --json)")
        return "\n".join(lines)


def _short(path: str, width: int = 42) -> str:
    return path if len(path) <= width else "..." + path[-(width - 3) :]


def _pair(row: dict[str, Any]) -> str:
    return f"{row['scrapy'] or '?'} -> {row['scrapy_charset']}"


def _hostname(row: dict[str, Any]) -> str:
    return str(row["host"]) or "(no host)"
