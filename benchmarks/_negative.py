"""A negative corpus: legitimate strings that no repair may touch, generated from offline data.

Sources (each a function of a random generator and a step through the locales, so that a
test can take a fast, deterministic slice):

- ``cldr``: Babel's CLDR data in every locale: names of languages, territories,
  currencies and units, currency symbols, and numbers, prices and units formatted with
  their symbols and spaces;
- ``pycountry``: the ISO catalogues (countries, subdivisions, currencies, languages,
  scripts) and their translations in every language pycountry ships;
- ``faker``: Faker's person, company, address, job and city strings in every locale;
- ``unicode``: all-caps words in every cased script (CLDR's names in every locale, in
  capitals), Greek and Cyrillic abbreviations (initials of CLDR's names), Nordic,
  Icelandic, Turkish and Vietnamese words as they are, in capitals and capitalised, and
  runs of IPA, math, arrows, box drawing, music and letterlike symbols, emoji with skin
  tone modifiers and ZWJ sequences;
- ``products``: brand names with ®/™/©, dimensions with × and ½, prices with £/¥/€.

Run ``python -m benchmarks.items`` for the per-source table.
"""

from __future__ import annotations

import argparse
import random
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pycountry

from benchmarks._itemdata import read_mo

__all__ = ["SOURCES", "negative_corpus"]

Source = Callable[[random.Random, int], Iterator[str]]


def _cldr(rng: random.Random, step: int) -> Iterator[str]:
    from babel import Locale, UnknownLocaleError
    from babel.localedata import locale_identifiers
    from babel.numbers import format_currency, format_decimal, format_percent
    from babel.units import format_unit

    units = ("length-kilometer", "mass-kilogram", "temperature-celsius", "volume-liter")
    for identifier in sorted(locale_identifiers())[::step]:
        try:
            locale = Locale.parse(identifier)
        except (UnknownLocaleError, ValueError):
            continue
        yield from locale.languages.values()
        yield from locale.territories.values()
        yield from locale.currencies.values()
        yield from locale.currency_symbols.values()
        yield from (str(v) for v in locale.scripts.values())
        for unit, names in locale._data.get("unit_display_names", {}).items():
            for name in names.values() if hasattr(names, "values") else ():
                if isinstance(name, str):
                    yield name
            del unit
        for currency in ("EUR", "USD", "JPY", "GBP", "RUB", "UAH", "INR", "CNY"):
            amount = rng.choice((1.5, 12.99, 1234.5, 99999.0, 0.25))
            try:
                yield format_currency(amount, currency, locale=locale)
            except (KeyError, ValueError):
                continue
        for value in (1234567.891, 0.5, 42):
            try:
                yield format_decimal(value, locale=locale)
                yield format_percent(value / 100, locale=locale)
            except (KeyError, ValueError):
                continue
        for unit in units:
            try:
                yield format_unit(rng.choice((1, 2.5, 12, 300)), unit, locale=locale)
                yield format_unit(5, unit, length="short", locale=locale)
            except (KeyError, ValueError, AttributeError):
                continue


def _pycountry(rng: random.Random, step: int) -> Iterator[str]:
    for country in pycountry.countries:
        yield country.name
        yield getattr(country, "official_name", country.name)
    for subdivision in pycountry.subdivisions:
        yield subdivision.name
    for currency in pycountry.currencies:
        yield currency.name
    for language in pycountry.languages:
        yield language.name
    for script in pycountry.scripts:
        yield script.name
    root = Path(pycountry.LOCALES_DIR)
    for language in sorted(p.name for p in root.iterdir())[::step]:
        for mo in sorted((root / language / "LC_MESSAGES").glob("*.mo")):
            yield from read_mo(mo).values()


def faker_values(fake: Any, method: str, count: int) -> Iterator[str]:
    """Up to *count* strings from one Faker provider method, in order; nothing where the
    locale lacks the method, and none after the first value it cannot make."""
    generate = getattr(fake, method, None)
    if generate is None:
        return
    for _ in range(count):
        try:
            value = generate()
        except (AttributeError, KeyError, ValueError, IndexError):
            return
        if isinstance(value, str):
            yield value


def _faker(rng: random.Random, step: int) -> Iterator[str]:
    import faker
    from faker.config import AVAILABLE_LOCALES

    methods = ("name", "company", "address", "street_address", "city", "job", "color_name")
    for locale in sorted(AVAILABLE_LOCALES)[::step]:
        fake = faker.Faker(locale)
        fake.seed_instance(rng.randrange(2**32))
        for method in methods:
            for value in faker_values(fake, method, 300):
                yield value
                if method == "company":
                    yield value.upper()


# Locales whose words stand for the alphabets the issue of false repairs is about.
_WORD_LOCALES = {
    "nordic": ("da", "nb", "nn", "sv", "fi", "fo"),
    "icelandic": ("is",),
    "turkish": ("tr", "az"),
    "vietnamese": ("vi",),
    "greek": ("el",),
    "cyrillic": ("ru", "uk", "be", "bg", "sr", "mk", "kk"),
}


def _cldr_names(identifier: str) -> list[str]:
    from babel import Locale

    locale = Locale.parse(identifier)
    return [
        *locale.languages.values(),
        *locale.territories.values(),
        *locale.currencies.values(),
    ]


def _words(names: list[str]) -> list[str]:
    return sorted({w for name in names for w in name.split() if not w.isascii() and w.isalpha()})


_BLOCKS = {
    "ipa": (0x0250, 0x02AF),
    "math": (0x2200, 0x22FF),
    "arrows": (0x2190, 0x21FF),
    "box": (0x2500, 0x257F),
    "music": (0x1D100, 0x1D1E8),
    "letterlike": (0x2100, 0x214F),
}
_EMOJI = "😀😂🥲👍👋🤝🙌👏💪🧑👩👨🏃🚴🤷🙋"
_SKIN = "\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"


def _soup(rng: random.Random, alphabet: list[str], low: int, high: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))


def _unicode(rng: random.Random, step: int) -> Iterator[str]:
    from babel.localedata import locale_identifiers

    # All-caps words in every cased script: CLDR's names in every locale, in capitals.
    for identifier in sorted(locale_identifiers())[::step]:
        for word in _words(_cldr_names(identifier)):
            if word.upper() != word:
                yield word.upper()
    # Words of the alphabets closest to windows-1252 and windows-1251's letters, as they
    # are, in capitals and capitalised; Greek and Cyrillic abbreviations (initials).
    for group, identifiers in _WORD_LOCALES.items():
        for identifier in identifiers:
            names = _cldr_names(identifier)
            for word in _words(names):
                yield word
                yield word.upper()
                yield word.capitalize()
            if group in ("greek", "cyrillic"):
                for name in names:
                    words = [w for w in name.split() if w[:1].isalpha()]
                    if len(words) >= 2:
                        initials = "".join(w[0] for w in words).upper()
                        yield initials
                        yield f"{initials}-{rng.randint(1, 999)}"
                        yield f"{initials} «{words[-1]}»"
    # Symbols: IPA, math, arrows, box drawing, music, letterlike; emoji with modifiers.
    count = 20_000 // step
    for _name, (low, high) in _BLOCKS.items():
        chars = [chr(c) for c in range(low, high + 1) if unicodedata.category(chr(c)) != "Cn"]
        for _ in range(count // len(_BLOCKS)):
            yield _soup(rng, chars, 1, 6)
            yield " ".join(_soup(rng, chars, 1, 3) for _ in range(3))
    for _ in range(count // 4):
        emoji = rng.choice(_EMOJI)
        yield emoji + rng.choice(_SKIN)
        yield f"Great {emoji}{rng.choice(_SKIN)} offer"
        yield "\u200d".join(rng.choice(_EMOJI) + rng.choice(_SKIN) for _ in range(2))


_SIGNS = ("®", "™", "©", "℠")
_PRICES = ("£{a}", "¥{i}", "€{a}", "{c} €", "{c}\u00a0€", "{i}\u00a0₽", "₹{a}", "{c}\u00a0zł")
_DIMENSIONS = ("{x}×{y} cm", "{x} × {y} × {z} mm", "{x}½ in", "{x}¼\u2033", "{x}° C", "{x}µm")


def _products(rng: random.Random, step: int) -> Iterator[str]:
    import faker

    count = 40_000 // step
    fake = faker.Faker(["fr_FR", "de_DE", "es_ES", "pt_BR", "sv_SE", "pl_PL", "tr_TR"])
    fake.seed_instance(rng.randrange(2**32))
    for _ in range(count):
        brand = rng.choice((fake.last_name(), fake.company().split()[0])).upper()
        sign = rng.choice(_SIGNS)
        a = f"{rng.randint(0, 9999)}.{rng.randint(0, 99):02d}"
        yield f"{brand}{sign}"
        yield f"{brand}{sign} {fake.last_name()}"
        yield rng.choice(_PRICES).format(a=a, c=a.replace(".", ","), i=rng.randint(1, 99999))
        yield rng.choice(_DIMENSIONS).format(
            x=rng.randint(1, 300), y=rng.randint(1, 300), z=rng.randint(1, 300)
        )
        yield f"{brand}{sign} – {rng.choice(_DIMENSIONS)}".format(x=2, y=3, z=4)


SOURCES: dict[str, Source] = {
    "cldr": _cldr,
    "pycountry": _pycountry,
    "faker": _faker,
    "unicode": _unicode,
    "products": _products,
}


def negative_corpus(*, step: int = 1, seed: int = 3) -> dict[str, list[str]]:
    """Source -> its legitimate non-ASCII strings (deduplicated, sorted).

    *step* > 1 takes every step-th locale and fewer synthetic strings: a fast slice.
    """
    corpus: dict[str, list[str]] = {}
    seen: set[str] = set()
    for name, source in SOURCES.items():
        rng = random.Random(f"{seed}-{name}")
        values = {v for v in source(rng, step) if v and not v.isascii() and "\ufffd" not in v}
        corpus[name] = sorted(values - seen)
        seen |= values
    return corpus


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The negative corpus's strings per source.")
    parser.add_argument("step", type=int, nargs="?", default=1, help="take every n-th locale")
    for name, values in negative_corpus(step=max(1, parser.parse_args(argv).step)).items():
        print(f"{name:<12}{len(values):>9,}")


if __name__ == "__main__":
    main()
