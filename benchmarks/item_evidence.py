# ruff: noqa: RUF001, RUF002 (look-alike characters are the data here)
"""Item checks on text nobody on this project wrote: ftfy's test cases, real names, real
copy, and partly damaged fields.

Run: ``python -m benchmarks.item_evidence [step]`` (``step`` takes every n-th Faker
locale and CLDR locale; 1, the default, takes them all). Sources:

- ``ftfy``: ftfy 6.3.1's ``tests/test_cases.json`` (tests/data/ftfy/), as given and with
  ftfy's extra layer of damage: wrong changes (a character neither in the input, the
  expected text, nor on ``ftfy.fix_encoding``'s way there), and exact repairs of the
  UTF-8 kinds against ``ftfy.fix_encoding``'s own;
- ``faker``: people's and companies' names of every Faker locale;
- ``cldr``: CLDR's names of territories, languages and currencies of every locale
  (Babel), in title case and in capitals;
- ``metadata``: the non-ASCII lines of the descriptions (METADATA) that the installed
  distributions ship (but ftfy's and this package's, which quote mojibake on purpose);
- ``docs``: the non-ASCII lines of the documentation that Scrapy's and other packages'
  sdists ship (``tests/data/sdist-docs/``, collected by ``scripts/collect_doc_sentences.py``);
- ``products``: product strings in each language of the crawl benchmark: a company name of
  the language's Faker locale with ®/™, then prices, quantities and discounts as CLDR
  formats them in that locale (Babel: its currency, units, percent and number patterns,
  with their no-break and narrow no-break spaces, minus signs and bidi marks);
- each of the last five with the possessive ``’s``, ``®``, ``™``, curly quotes and
  guillemets attached as real text has them: 0 changed is the target, flags are counted;
- ``partly damaged``: pycountry's translations with one name of a list damaged in each
  reading the package knows, clean accented text around it: flagged, wrong repairs (with
  and without ``legacy=True``), and repaired values that come back clean while damage
  remains.

``--damaged-names`` runs only this: CLDR's names of every fourth locale (times ``step``),
in title case and in capitals, damaged whole as UTF-8 read as windows-1252 and as
latin-1: exact repairs, repairs that are not exact and wrong ones, reports and misses.
``--joined`` runs only this: two of pycountry's translations, each damaged whole in a
different way the benchmark damages fields (``benchmarks/_itemdata.py``), joined by ", "
(a field built from two sources): exact repairs, reports without a repair, partial
repairs that say so, misses, and hidden ones (a repair that is not the original, with no
damage reported left, not lossy).
``--lost-a0`` runs only this: CLDR's names of every locale (times ``step``) whose damage as
windows-1252 holds a no-break space, that space then made an ASCII space.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Literal

import ftfy

from benchmarks._itemdata import _damage, cldr_names, clean_values, utf8_samples
from benchmarks._negative import faker_values
from scrapy_charset.items.textcheck import inspect_text

FTFY_CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "ftfy" / "test_cases.json"
DOC_SENTENCES = FTFY_CASES.parents[1] / "sdist-docs" / "sentences.txt"
#: The SHA-256 of :data:`DOC_SENTENCES`, as ``scripts/collect_doc_sentences.py`` wrote it.
DOC_SENTENCES_FINGERPRINT = "41eea5057e2a0e7c6ffe6c35ef8d0755931c78f08d5a24b416190cd880d2b932"

#: How real text attaches things to a name.
ATTACHED: tuple[Callable[[str], str], ...] = (
    lambda name: f"{name}’s",
    lambda name: f"{name}®",
    lambda name: f"{name}™",
    lambda name: f"“{name}”",
    lambda name: f"« {name} »",
    lambda name: f"„{name}“",
    lambda name: f"{name}’s “new” line",
)

#: The readings a phrase of a partly damaged field is damaged in.
READINGS = (
    "windows-1252",
    "windows-1250",
    "windows-1251",
    "windows-1257",
    "ISO-8859-2",
    "macintosh",
    "x-mac-cyrillic",
    "cp437",
)


# --- ftfy's test cases -------------------------------------------------------------------


def ftfy_cases() -> list[tuple[str, str, str, str]]:
    """(variant, label, text, expected) of every case, as given and with the extra layer."""
    data = json.loads(FTFY_CASES.read_text("utf-8"))
    out = []
    for variant in ("plain", "extra"):
        for case in data:
            text = case["original"]
            if variant == "extra":
                text = text.encode("utf-8").decode("latin-1")
            out.append((variant, case["label"], text, case.get("fixed-encoding", case["fixed"])))
    return out


def ftfy_way(text: str) -> set[str]:
    """The characters of every text on ``ftfy.fix_encoding``'s way from *text* (each
    prefix of its plan that ends in text, not bytes)."""
    fixed, plan = ftfy.fix_encoding_and_explain(text)
    seen = set(fixed)
    steps = [(op, name) for op, name in plan or []]
    for end in range(1, len(steps) + 1):
        result = ftfy.apply_plan(text, steps[:end])
        if isinstance(result, str):
            seen |= set(result)
    return seen


def utf8_kind(text: str) -> bool:
    """Whether ftfy's plan for *text* decodes UTF-8 (the UTF-8 kinds of mojibake)."""
    _fixed, plan = ftfy.fix_encoding_and_explain(text)
    return any(
        (op == "decode" and name.startswith("utf-8"))
        or (op == "apply" and name == "decode_inconsistent_utf8")
        for op, name in plan or []
    )


def _result(text: str, *, legacy: bool = False) -> str:
    report = inspect_text(text, legacy=legacy)
    return report.repaired if report.repaired is not None else text


def ftfy_figures() -> dict[str, dict[str, int]]:
    """Per variant: cases, wrong changes (default, legacy), UTF-8 kinds, exact repairs
    by this package and by ftfy.fix_encoding."""
    figures: dict[str, dict[str, int]] = {}
    for variant, label, text, expected in ftfy_cases():
        row = figures.setdefault(
            variant,
            {"cases": 0, "wrong": 0, "wrong legacy": 0, "utf-8 kinds": 0, "exact": 0, "ftfy": 0},
        )
        row["cases"] += 1
        way = ftfy_way(text)
        for key, legacy in (("wrong", False), ("wrong legacy", True)):
            result = _result(text, legacy=legacy)
            if label.startswith("Sort of negative"):
                continue
            row[key] += bool(set(result) - set(text) - set(expected) - way)
        if utf8_kind(text) and not label.startswith("Sort of negative"):
            row["utf-8 kinds"] += 1
            row["exact"] += _result(text) == expected
            row["ftfy"] += ftfy.fix_encoding(text) == expected
    return figures


# --- Real names and real copy ---------------------------------------------------------------


def faker_names(step: int = 1) -> Iterator[str]:
    """People's and companies' names of every *step*-th Faker locale (seeded)."""
    import faker
    from faker.config import AVAILABLE_LOCALES

    for index, locale in enumerate(sorted(AVAILABLE_LOCALES)[::step]):
        fake = faker.Faker(locale)
        fake.seed_instance(index)
        for method in ("name", "company", "last_name"):
            yield from faker_values(fake, method, 40)


def cldr_locale_names(step: int = 1) -> Iterator[str]:
    """CLDR's names in every *step*-th locale, in title case and in capitals."""
    from babel.localedata import locale_identifiers

    for identifier in sorted(locale_identifiers())[::step]:
        if "_" in identifier:
            continue  # a region's names are its language's, with a few changes
        for name in cldr_names(identifier):
            yield name
            yield name.title()
            yield name.upper()


#: Distributions whose descriptions quote mojibake on purpose (examples of repairs).
QUOTE_MOJIBAKE = frozenset({"ftfy", "scrapy-charset"})


def metadata_lines() -> Iterator[str]:
    """The non-ASCII lines of the installed distributions' descriptions, but those of
    :data:`QUOTE_MOJIBAKE`."""
    seen: set[str] = set()
    for dist in sorted(metadata.distributions(), key=lambda d: d.metadata["Name"] or ""):
        if (dist.metadata["Name"] or "").lower() in QUOTE_MOJIBAKE:
            continue
        text = dist.read_text("METADATA") or ""
        for raw in text.splitlines():
            line = raw.strip()
            if line and not line.isascii() and line not in seen and len(line) < 400:
                seen.add(line)
                yield line


#: The quantities of :func:`product_strings`: (CLDR unit, amount, width).
PRODUCT_UNITS: tuple[tuple[str, float, Literal["short", "long"]], ...] = (
    ("mass-kilogram", 2.5, "long"),
    ("mass-gram", 250, "short"),
    ("volume-liter", 1.5, "long"),
    ("volume-milliliter", 500, "short"),
    ("length-centimeter", 42, "short"),
    ("digital-gigabyte", 128, "short"),
    ("power-watt", 1200, "long"),
)
#: Prices of :func:`product_strings`, and the discounts.
PRODUCT_PRICES = (4.99, 19.9, 1299.5, 24999)
PRODUCT_DISCOUNTS = (-0.2, -0.05, 0.15)


def _product_locales(language: str) -> tuple[str, str | None]:
    """The Babel locale of a crawl benchmark *language*, and its Faker locale (the
    language's own country first), if Faker has one."""
    from babel import Locale, UnknownLocaleError
    from faker.config import AVAILABLE_LOCALES

    base = language.partition("_")[0]
    own = f"{base}_{base.upper()}"
    candidates = [language, own, *sorted(AVAILABLE_LOCALES)]
    for name in candidates:
        if name in AVAILABLE_LOCALES and name.partition("_")[0] == base:
            try:
                Locale.parse(name)
            except (UnknownLocaleError, ValueError):
                continue
            return name, name
    return language, None


def product_strings(step: int = 1) -> Iterator[str]:
    """Product strings in every *step*-th language of the crawl benchmark: a company name
    of the language's Faker locale (or CLDR's names where Faker has none) with ® or ™,
    its quantity and price, and a discount, each as CLDR formats it in that language."""
    import faker
    from babel import Locale
    from babel.numbers import format_currency, format_percent, get_territory_currencies
    from babel.units import format_unit

    from benchmarks.crawl import LANGUAGES

    for index, language in enumerate(list(LANGUAGES)[::step]):
        name, faker_locale = _product_locales(language)
        locale = Locale.parse(name)
        territory = locale.territory
        currencies = get_territory_currencies(territory) if territory else []
        currency = currencies[0] if currencies else "EUR"
        if faker_locale is not None:
            fake = faker.Faker(faker_locale)
            fake.seed_instance(index)
            brands = [fake.company() for _ in range(8)]
        else:
            brands = cldr_names(name)[:8]
        for number, brand in enumerate(brands):
            unit, amount, width = PRODUCT_UNITS[number % len(PRODUCT_UNITS)]
            quantity = format_unit(amount, unit, width, locale=locale)
            for price in PRODUCT_PRICES:
                shown = format_currency(price, currency, locale=locale)
                discount = format_percent(PRODUCT_DISCOUNTS[number % 3], locale=locale)
                yield f"{brand}® {quantity} – {shown}"
                yield f"{brand}™, {quantity}, {shown} ({discount})"
                yield f"{shown} / {quantity}"


def doc_sentences() -> Iterator[str]:
    """The non-ASCII lines of the documentation of Scrapy's and other packages' sdists."""
    for row in DOC_SENTENCES.read_text("utf-8").splitlines():
        yield row.split("\t", 1)[1]


def with_attachments(values: Iterator[str]) -> Iterator[str]:
    """Each non-ASCII value, alone and with each of :data:`ATTACHED`."""
    for value in values:
        if value.isascii():
            continue
        yield value
        for attach in ATTACHED:
            yield attach(value)


def clean_figures(values: Sequence[str]) -> dict[str, object]:
    """Strings, changed (default, legacy), flagged, and a few examples of each."""
    changed: list[str] = []
    changed_legacy: list[str] = []
    flagged: list[str] = []
    for value in values:
        if not inspect_text(value).clean:
            flagged.append(value)
        if inspect_text(value).repaired is not None:
            changed.append(value)
        if inspect_text(value, legacy=True).repaired is not None:
            changed_legacy.append(value)
    return {
        "strings": len(values),
        "changed": len(changed),
        "changed legacy": len(changed_legacy),
        "flagged": len(flagged),
        "examples": (changed + changed_legacy + flagged)[:5],
    }


# --- Partly damaged fields -------------------------------------------------------------------


def partly_damaged(per_language: int = 40, seed: int = 5) -> Iterator[tuple[str, str, str]]:
    """(reading, original, damaged): a list of real names (pycountry's translations) with
    one non-ASCII name damaged as UTF-8 read in *reading*, the others left correct."""
    rng = random.Random(seed)
    for field in clean_values(per_language=per_language, seed=seed):
        if field.shape != "description" or ", " not in field.text:
            continue
        parts = field.text.split(", ")
        candidates = [i for i, part in enumerate(parts) if not part.isascii()]
        if len(candidates) < 2:
            continue  # no correct accented text would be left around the damage
        i = rng.choice(candidates)
        for reading in READINGS:
            damaged = _damage(parts[i], f"utf-8 as {reading}")
            if damaged == parts[i] or "\ufffd" in damaged:
                continue
            yield reading, field.text, ", ".join([*parts[:i], damaged, *parts[i + 1 :]])


def partial_figures(samples: Sequence[tuple[str, str, str]]) -> dict[str, dict[str, int]]:
    """Per reading: fields, flagged, exact (legacy), wrong repairs (default, legacy), and
    repaired values reported clean while damage remains."""
    figures: dict[str, dict[str, int]] = {}
    for reading, original, damaged in samples:
        row = figures.setdefault(
            reading,
            {"fields": 0, "flagged": 0, "exact legacy": 0, "wrong": 0, "wrong legacy": 0,
             "hidden": 0},
        )  # fmt: skip
        row["fields"] += 1
        report = inspect_text(damaged)
        row["flagged"] += not report.clean
        for key, legacy in (("wrong", False), ("wrong legacy", True)):
            found = inspect_text(damaged, legacy=legacy)
            if found.repaired is not None:
                row[key] += bool(set(found.repaired) - set(original) - set(damaged))
                if found.repaired != original and not found.partial:
                    row["hidden"] += inspect_text(found.repaired).clean
            if legacy:
                row["exact legacy"] += found.repaired == original
    return figures


# --- CLDR's names, damaged whole --------------------------------------------------------------


def damaged_names(step: int = 4, *, lost_a0: bool = False) -> dict[str, int]:
    """CLDR's names (every *step*-th locale, title case and capitals) damaged whole as UTF-8
    read as windows-1252 and as latin-1, or with *lost_a0* only those whose damage as
    windows-1252 holds a no-break space (byte A0), that space then made a space (as HTML
    whitespace handling does). Fields, those in capitals, exact repairs (of all, and of
    those in capitals), repairs that differ only in where a space is (a no-break space
    restored before or after a letter), other repairs that are not exact: wrong ones
    (bringing in a character neither in the name nor in the damaged field), and hidden ones
    (no damage reported left, and clean when checked again); reports without a repair, and
    misses."""
    row = dict.fromkeys(
        ("fields", "capitals", "exact", "exact capitals", "spaces only", "not exact",
         "wrong", "hidden", "reported", "missed"),
        0,
    )  # fmt: skip
    seen: set[str] = set()
    hows = ("utf-8 as windows-1252",) if lost_a0 else ("utf-8 as windows-1252", "utf-8 as latin-1")
    for name in cldr_locale_names(step):
        if name.isascii() or name in seen:
            continue
        seen.add(name)
        for how in hows:
            damaged = _damage(name, how)
            if lost_a0:
                if "\u00a0" not in damaged:
                    continue
                damaged = damaged.replace("\u00a0", " ")
            if damaged == name:
                continue
            report = inspect_text(damaged)
            row["fields"] += 1
            row["capitals"] += name.isupper()
            repaired = report.repaired
            if repaired == name:
                row["exact"] += 1
                row["exact capitals"] += name.isupper()
            elif repaired is None:
                row["reported" if report.mojibake is not None else "missed"] += 1
            elif repaired.replace(" ", "") == name.replace(" ", ""):
                row["spaces only"] += 1
            else:
                row["not exact"] += 1
                row["wrong"] += bool(set(repaired) - set(name) - set(damaged))
                row["hidden"] += report.remaining is None and inspect_text(repaired).clean
    return row


# --- Two sources, each damaged its own way ---------------------------------------------


def joined_damaged(
    count: int = 30_000, per_language: int = 40, seed: int = 7
) -> Iterator[tuple[str, str, str, str]]:
    """(first way, second way, original, damaged): *count* draws of two of pycountry's
    translations damaged whole in two different ways (no byte lost), joined by ", "."""
    fields = clean_values(per_language=per_language)
    samples = [s for s in utf8_samples(fields) if not s.lossy and s.how != "partial"]
    rng = random.Random(seed)
    for _ in range(count):
        first, second = rng.sample(samples, 2)
        if first.how != second.how:
            yield (
                first.how,
                second.how,
                f"{first.original}, {second.original}",
                f"{first.damaged}, {second.damaged}",
            )


def joined_figures(
    samples: Sequence[tuple[str, str, str, str]],
) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """Fields, exact repairs, reports, partial repairs that say so, misses and hidden
    repairs; and the hidden ones by the two ways (in order of the ways' names)."""
    row = dict.fromkeys(("fields", "exact", "reported", "partial", "missed", "hidden"), 0)
    hidden: dict[tuple[str, str], int] = {}
    for first, second, original, damaged in samples:
        report = inspect_text(damaged)
        row["fields"] += 1
        if report.mojibake is None:
            key = "missed"
        elif report.repaired is None:
            key = "reported"
        elif report.repaired == original:
            key = "exact"
        elif report.partial or report.lossy:
            key = "partial"
        else:
            key = "hidden"
            pair = (min(first, second), max(first, second))
            hidden[pair] = hidden.get(pair, 0) + 1
        row[key] += 1
    return row, hidden


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "step", type=int, nargs="?", default=1, help="take every n-th Faker and CLDR locale"
    )
    parser.add_argument(
        "--damaged-names",
        action="store_true",
        help="only CLDR's names of every 4th locale (times step) damaged whole",
    )
    parser.add_argument(
        "--lost-a0",
        action="store_true",
        help="only CLDR's names whose damage holds a no-break space, made a space",
    )
    parser.add_argument(
        "--joined",
        action="store_true",
        help="only fields joined from two sources, each damaged its own way",
    )
    args = parser.parse_args(argv)
    step = max(1, args.step)
    if args.joined:
        row, hidden = joined_figures(list(joined_damaged(30_000 // step)))
        print(" | ".join(row))
        print(" | ".join(f"{n:,}" for n in row.values()))
        print("\nhidden, by the two ways:")
        for (first, second), n in sorted(hidden.items(), key=lambda item: -item[1])[:10]:
            print(f"{n:>6}  {first} + {second}")
        return
    if args.damaged_names or args.lost_a0:
        row = damaged_names(step if args.lost_a0 else 4 * step, lost_a0=args.lost_a0)
        print(" | ".join(row))
        print(" | ".join(f"{n:,}" for n in row.values()))
        return
    print("ftfy 6.3.1 test_cases.json")
    print(f"{'variant':<8}{'cases':>7}{'wrong':>7}{'wrong (legacy)':>16}{'utf-8 kinds':>13}"
          f"{'exact':>7}{'ftfy exact':>12}")  # fmt: skip
    for variant, row in ftfy_figures().items():
        print(
            f"{variant:<8}{row['cases']:>7}{row['wrong']:>7}{row['wrong legacy']:>16}"
            f"{row['utf-8 kinds']:>13}{row['exact']:>7}{row['ftfy']:>12}"
        )
    print()
    sources = {
        "faker": list(with_attachments(faker_names(step))),
        "cldr": list(with_attachments(cldr_locale_names(step))),
        "metadata": list(with_attachments(metadata_lines())),
        "docs": list(with_attachments(doc_sentences())),
        "products": list(with_attachments(product_strings(step))),
    }
    print(f"{'source':<10}{'strings':>10}{'changed':>9}{'changed (legacy)':>18}{'flagged':>9}")
    for name, values in sources.items():
        found = clean_figures(values)
        print(
            f"{name:<10}{found['strings']:>10,}{found['changed']:>9}"
            f"{found['changed legacy']:>18}{found['flagged']:>9}"
        )
        for example in found["examples"]:  # type: ignore[attr-defined]
            print(f"   e.g. {example!r}")
    print()
    figures = partial_figures(list(partly_damaged(per_language=200 // step or 1)))
    print(f"{'reading':<16}{'fields':>8}{'flagged':>9}{'exact (legacy)':>16}{'wrong':>7}"
          f"{'wrong (legacy)':>16}{'hidden':>8}")  # fmt: skip
    for reading, row in figures.items():
        print(
            f"{reading:<16}{row['fields']:>8}{row['flagged'] / row['fields']:>9.2%}"
            f"{row['exact legacy'] / row['fields']:>16.2%}{row['wrong']:>7}"
            f"{row['wrong legacy']:>16}{row['hidden']:>8}"
        )


if __name__ == "__main__":
    main()
