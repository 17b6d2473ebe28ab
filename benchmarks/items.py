"""Item checks: detection, false positives, repair exactness, robustness and speed.

Run: ``python -m benchmarks.items [per_language] [strings]``. The field values are real
translations (pycountry's catalogues, some sixty languages: names, prices, long
descriptions); the mojibake is made from them the ways scrapers make it (see
``benchmarks/_itemdata.py``). The negative corpus (``benchmarks/_negative.py``: CLDR,
pycountry, Faker, Unicode, product strings) is text no repair may touch.

Targets: >= 99% of damaged fields detected and >= 99.9% of reversible UTF-8 damage
repaired exactly (``ftfy exact``: ``ftfy.fix_encoding`` on the same fields, in the same
run); 0 changes by the default repair on the negative corpus and flags on
<= 0.01% of it; 0 exceptions on >= 1,000,000 generated strings; clean text read at
>= 50 M chars/s, compared in the same run with ``str.isascii()`` and a plain
``re.search`` (the floors) and with ftfy's ``fix_encoding``.
"""

from __future__ import annotations

import argparse
import random
import re
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from functools import partial

import ftfy

from benchmarks._itemdata import (
    Field,
    Sample,
    _catalogue,
    cldr_names,
    clean_values,
    legacy_samples,
    utf8_samples,
    windows_1252,
)
from benchmarks._negative import negative_corpus
from fuzz.textcheck import to_text
from scrapy_charset.items.inspection import clear_kept_reports
from scrapy_charset.items.mojibake import SAFE_KINDS
from scrapy_charset.items.textcheck import inspect_text, inspect_unguarded


def _per_field(function: Callable[[str], object], values: Sequence[str]) -> float:
    """Microseconds a field, best of three passes; each pass inspects each value for the
    first time (the kept reports are forgotten before it)."""
    best = float("inf")
    for _ in range(3):
        clear_kept_reports()
        start = time.perf_counter()
        for value in values:
            function(value)
        best = min(best, time.perf_counter() - start)
    return best / max(1, len(values)) * 1e6


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "per_language", type=int, nargs="?", default=10_000, help="field values a language"
    )
    parser.add_argument(
        "strings", type=int, nargs="?", default=1_000_000, help="generated strings (robustness)"
    )
    args = parser.parse_args(argv)
    per_language, strings = args.per_language, args.strings
    fields = clean_values(per_language=per_language)
    samples = _detection(fields)
    _legacy(fields)
    corpus = negative_corpus()
    _negative(corpus)
    _robustness(corpus, samples, strings)
    _speed(fields, samples)


def _detection(fields: list[Field]) -> list[Sample]:
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
    samples += [s for s, _ in legacy_samples(fields)]
    by_how: dict[str, Counter[str]] = defaultdict(Counter)
    for sample in samples:
        report = inspect_text(sample.damaged)
        row = by_how[sample.how]
        row["fields"] += 1
        row["detected"] += report.mojibake is not None
        row["flagged"] += not report.clean
        row["kind ok"] += report.mojibake == sample.kind
        # A repair that is not the original, and says neither that damage is left nor
        # that a byte was lost: damage hidden.
        row["hidden"] += (
            report.repaired is not None
            and report.repaired != sample.original
            and not report.partial
            and not report.lossy
        )
        if sample.kind in SAFE_KINDS and not sample.lossy:
            row["repairable"] += 1
            row["exact"] += report.repaired == sample.original
            row["wrong"] += report.repaired is not None and report.repaired != sample.original
            row["ftfy exact"] += ftfy.fix_encoding(sample.damaged) == sample.original
    total = Counter[str]()
    print(
        f"\n{'made as':<28}{'fields':>8}{'detected':>10}{'flagged':>9}{'kind ok':>9}"
        f"{'repairable':>12}{'exact':>8}{'wrong':>7}{'hidden':>8}{'ftfy exact':>12}"
    )
    for how, row in sorted(by_how.items()):
        total.update(row)
        _row(how, row)
    _row("all", total)
    return samples


def _legacy(fields: list[Field]) -> None:
    legacy = list(legacy_samples(fields))
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


def _negative(corpus: dict[str, list[str]]) -> None:
    print(
        f"\n{'negative corpus':<16}{'strings':>10}{'changed':>9}{'flagged':>9}{'flagged %':>11}"
        f"{'changed (legacy on)':>21}"
    )
    total = Counter[str]()
    examples: list[tuple[str, object]] = []
    for source, values in corpus.items():
        row = Counter[str](strings=len(values))
        for value in values:
            report = inspect_text(value)
            row["changed"] += report.repaired is not None
            row["flagged"] += not report.clean
            if not report.clean:
                examples.append((value, report.mojibake))
            row["legacy"] += inspect_text(value, legacy=True).repaired is not None
        total.update(row)
        _negative_row(source, row)
    _negative_row("all", total)
    for value, kind in examples[:10]:
        print(f"   flagged: {value!r} ({kind})")


def _negative_row(source: str, row: Counter[str]) -> None:
    share = 100 * row["flagged"] / max(1, row["strings"])
    print(
        f"{source:<16}{row['strings']:>10,}{row['changed']:>9}{row['flagged']:>9}"
        f"{share:>10.4f}%{row['legacy']:>21}"
    )


def _generated(corpus: dict[str, list[str]], samples: list[Sample], count: int) -> Iterator[str]:
    """Legitimate strings, damaged ones, damage of legitimate ones every way, and bytes of
    every kind read as text (the fuzz target's reading), until *count*."""
    rng = random.Random(5)
    clean = [v for values in corpus.values() for v in values]
    made = 0
    for value in clean:
        yield value
        made += 1
    for sample in samples:
        yield sample.damaged
        made += 1
    while made < count:
        value = rng.choice(clean)
        raw = value.encode("utf-8", "surrogatepass")
        if rng.random() < 0.2:
            raw = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
        yield to_text(bytes([rng.randrange(5)]) + raw)
        made += 1


def _robustness(corpus: dict[str, list[str]], samples: list[Sample], count: int) -> None:
    errors: Counter[str] = Counter()
    checked = 0
    start = time.perf_counter()
    for value in _generated(corpus, samples, count):
        for legacy in (False, True):
            try:
                inspect_unguarded(value, legacy=legacy)
            except Exception:
                errors[traceback.format_exc(limit=-1).splitlines()[-1]] += 1
        checked += 1
    elapsed = time.perf_counter() - start
    print(
        f"\nrobustness: {checked:,} generated strings, both policies, "
        f"{sum(errors.values())} exceptions ({elapsed:.0f} s)"
    )
    for error, n in errors.most_common(5):
        print(f"   {n} x {error}")


_SIZES = (10, 1_000, 100_000, 1_000_000)


def _text(language: str, size: int) -> str:
    if language == "ascii":
        base = ", ".join(n for n in _catalogue("fr") if n.isascii())
    elif language == "en":  # mostly ASCII, with a few accented letters ("Curaçao")
        base = ", ".join(cldr_names("en"))
    else:
        base = ", ".join(_catalogue(language))
    return (base * (size // len(base) + 1))[:size]


def _rate(function: Callable[[], object], size: int) -> float:
    """Million characters a second, best of a few runs of at least ~20 ms."""
    repeat = max(1, 200_000 // size)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            function()
        best = min(best, (time.perf_counter() - start) / repeat)
    return size / best / 1e6


def _one_damaged_name(size: int) -> str:
    """Clean French text of *size* characters with one name damaged as windows-1252 in its
    middle: a page's whole text in one field, a name in it from a damaged source."""
    text = _text("fr", size)
    name = windows_1252("Crème brûlée à Zürich".encode())
    middle = size // 2
    return (text[:middle] + name + text[middle:])[: max(size, len(name))]


def _first_inspection(text: str) -> None:
    clear_kept_reports()  # a short damaged value's report would be kept
    inspect_text(text)


def _speed(fields: list[Field], samples: list[Sample]) -> None:
    rows: list[tuple[str, Callable[[int], str]]] = [
        ("clean ASCII", lambda n: _text("ascii", n)),
        ("clean English (CLDR)", lambda n: _text("en", n)),
        ("clean Latin (fr)", lambda n: _text("fr", n)),
        ("clean Latin (cs)", lambda n: _text("cs", n)),
        ("clean Latin (vi)", lambda n: _text("vi", n)),
        ("clean Cyrillic (ru)", lambda n: _text("ru", n)),
        ("clean Cyrillic (uk)", lambda n: _text("uk", n)),
        ("clean Greek", lambda n: _text("el", n)),
        ("clean CJK (zh_CN)", lambda n: _text("zh_CN", n)),
        ("clean CJK (ja)", lambda n: _text("ja", n)),
        ("clean Arabic", lambda n: _text("ar", n)),
        ("damaged (fr as 1252)", lambda n: windows_1252(_text("fr", n).encode())[:n]),
        ("one damaged name in fr", _one_damaged_name),
    ]
    plain = re.compile("\ufffd")
    header = "".join(f"{size:>12,}" for size in _SIZES)
    print(f"\nM chars/s of inspect_text{'':<4}{header}{'isascii x':>12}{'re.search x':>13}")
    for label, make in rows:
        inspect = _first_inspection if "damaged" in label else inspect_text
        rates = []
        for size in _SIZES:
            text = make(size)
            rates.append(_rate(partial(inspect, text), len(text)))
        text = make(_SIZES[-1])
        floor = _rate(text.isascii, len(text))
        search = _rate(partial(plain.search, text), len(text))
        cells = "".join(f"{rate:>12.1f}" for rate in rates)
        print(f"{label:<29}{cells}{floor / rates[-1]:>11.0f}x{search / rates[-1]:>12.0f}x")

    clean = [f.text for f in fields if not f.text.isascii()]
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
        f"{100 * row['wrong'] / repairable:>6.2f}%{row['hidden']:>8}"
        f"{100 * row['ftfy exact'] / repairable:>11.2f}%"
    )


if __name__ == "__main__":
    main()
