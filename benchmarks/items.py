"""Item checks: detection, false positives, repair exactness and cost per field.

Run: ``python -m benchmarks.items``. The field values are real translations (pycountry's
catalogues, some sixty languages: names, prices, long descriptions); the mojibake is made
from them the ways scrapers make it (see ``benchmarks/_itemdata.py``). Targets: detection
>= 97% of mojibake fields with <= 0.05% of clean fields flagged; repair >= 99% exact on the
reversible UTF-8 kinds with zero changes to clean fields; opt-in legacy repair >= 95% exact
with <= 2% wrong output. Cost is compared with ftfy's ``fix_encoding`` and with a bare
``str.isascii`` (the floor).
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

import ftfy

from benchmarks._itemdata import Sample, clean_values, legacy_samples, utf8_samples
from scrapy_charset.items.mojibake import SAFE_KINDS
from scrapy_charset.items.textcheck import inspect_text


def _per_field(function: Callable[[str], object], values: Sequence[str]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for value in values:
            function(value)
        best = min(best, time.perf_counter() - start)
    return best / max(1, len(values)) * 1e6


def main(argv: Sequence[str] = ()) -> None:
    per_language = int(argv[0]) if argv else 10_000
    fields = clean_values(per_language=per_language)
    clean = [f.text for f in fields if not f.text.isascii()]
    print(f"clean non-ASCII fields: {len(clean):,} ({len(fields):,} with ASCII ones)")

    false_positive = [v for v in clean if not inspect_text(v).clean]
    changed = [v for v in clean if inspect_text(v, legacy=True).repaired is not None]
    print(
        f"clean fields flagged: {len(false_positive)} "
        f"({100 * len(false_positive) / len(clean):.3f}%), "
        f"changed by a repair (legacy on): {len(changed)}"
    )
    for value in false_positive[:10]:
        print(f"   flagged: {value!r} -> {inspect_text(value)}")

    samples: list[Sample] = list(utf8_samples(fields))
    legacy = list(legacy_samples(fields))
    samples += [s for s, _ in legacy]
    by_how: dict[str, Counter[str]] = defaultdict(Counter)
    for sample in samples:
        report = inspect_text(sample.damaged)
        row = by_how[sample.how]
        row["fields"] += 1
        row["detected"] += report.mojibake is not None
        row["flagged"] += not report.clean
        row["kind ok"] += report.mojibake == sample.kind
        if sample.kind in SAFE_KINDS and not sample.lossy:
            row["repairable"] += 1
            row["exact"] += report.repaired == sample.original
            row["wrong"] += report.repaired is not None and report.repaired != sample.original
    total = Counter[str]()
    print(
        f"\n{'made as':<28}{'fields':>8}{'detected':>10}{'flagged':>9}{'kind ok':>9}"
        f"{'repairable':>12}{'exact':>8}{'wrong':>7}"
    )
    for how, row in sorted(by_how.items()):
        total.update(row)
        _row(how, row)
    _row("all", total)

    exact = wrong = none = 0
    per_encoding: dict[str, Counter[str]] = defaultdict(Counter)
    for sample, encoding in legacy:
        repaired = inspect_text(sample.damaged, legacy=True).repaired
        row = per_encoding[encoding]
        row["fields"] += 1
        if repaired == sample.original:
            exact += 1
            row["exact"] += 1
        elif repaired is None:
            none += 1
            row["none"] += 1
        else:
            wrong += 1
            row["wrong"] += 1
    n = max(1, len(legacy))
    print(
        f"\nlegacy repair (opt-in): {len(legacy):,} fields, exact {100 * exact / n:.2f}%, "
        f"wrong {100 * wrong / n:.2f}%, left alone {100 * none / n:.2f}%"
    )
    for encoding, row in sorted(per_encoding.items()):
        print(
            f"   {encoding:<14}{row['fields']:>7} exact {100 * row['exact'] / row['fields']:6.2f}%"
            f"  wrong {100 * row['wrong'] / row['fields']:5.2f}%"
        )

    ascii_values = [f.text for f in fields if f.text.isascii()]
    damaged = [s.damaged for s in samples[:: max(1, len(samples) // 5000)]]
    print(
        f"\n{'cost per field (us)':<28}{'inspect_text':>14}{'ftfy fix_encoding':>19}{'isascii':>9}"
    )
    for label, values in (
        ("clean, ASCII", ascii_values),
        ("clean, non-ASCII", clean),
        ("mojibake", damaged),
    ):
        ours = _per_field(inspect_text, values)
        theirs = _per_field(ftfy.fix_encoding, values)
        floor = _per_field(str.isascii, values)
        print(f"{label:<28}{ours:>14.2f}{theirs:>19.2f}{floor:>9.3f}")


def _row(how: str, row: Counter[str]) -> None:
    fields = max(1, row["fields"])
    repairable = max(1, row["repairable"])
    print(
        f"{how:<28}{row['fields']:>8}{100 * row['detected'] / fields:>9.2f}%"
        f"{100 * row['flagged'] / fields:>8.2f}%{100 * row['kind ok'] / fields:>8.2f}%"
        f"{row['repairable']:>12}{100 * row['exact'] / repairable:>7.2f}%"
        f"{100 * row['wrong'] / repairable:>6.2f}%"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
