"""Real multilingual field values, and mojibake made from them the ways scrapers make it.

The clean values are pycountry's translations (country, currency, language and script
names in some sixty languages), read straight from the installed ``.mo`` catalogues; prices
are written the way shops in those languages write them; long descriptions join real
translated names into one field. Mojibake is made from the clean values by encoding and
decoding them with the wrong encoding, as a scraper does, with the browser decoders.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pycountry

from scrapy_charset import decode

__all__ = ["LEGACY", "Sample", "clean_values", "legacy_samples", "utf8_samples"]

LANGUAGES = (
    "fr",
    "pt",
    "pt_BR",
    "es",
    "it",
    "de",
    "nl",
    "da",
    "sv",
    "nb_NO",
    "is",
    "fi",
    "et",
    "pl",
    "cs",
    "sk",
    "sl",
    "hr",
    "hu",
    "ro",
    "tr",
    "ca",
    "eu",
    "gl",
    "ga",
    "cy",
    "lt",
    "lv",
    "vi",
    "el",
    "ru",
    "uk",
    "bg",
    "sr",
    "mk",
    "be",
    "kk",
    "ky",
    "tt",
    "he",
    "ar",
    "fa",
    "ur",
    "hi",
    "bn",
    "ta",
    "th",
    "ka",
    "hy",
    "am",
    "ja",
    "ko",
    "zh_CN",
    "zh_TW",
    "zh_HK",
)
DOMAINS = ("iso3166-1", "iso4217", "iso15924", "iso639-3")

# Legacy encodings a language was (and is) served in: (Python codec to make the bytes,
# WHATWG name expected back from the repair).
LEGACY = {
    "zh_CN": (("gbk", "GBK"),),
    "zh_TW": (("big5", "Big5"),),
    "zh_HK": (("big5", "Big5"),),
    "ja": (("cp932", "Shift_JIS"), ("euc_jp", "EUC-JP")),
    "ko": (("cp949", "EUC-KR"),),
    "ru": (("cp1251", "windows-1251"), ("koi8_r", "KOI8-U")),
    "uk": (("cp1251", "windows-1251"),),
    "bg": (("cp1251", "windows-1251"),),
    "sr": (("cp1251", "windows-1251"),),
    "mk": (("cp1251", "windows-1251"),),
    "be": (("cp1251", "windows-1251"),),
}


def read_mo(path: Path) -> dict[str, str]:
    """The messages of a GNU gettext ``.mo`` file (the format, read directly)."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _revision, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    out: dict[str, str] = {}
    for i in range(count):
        olen, ooff = struct.unpack(order + "2I", data[originals + 8 * i : originals + 8 * i + 8])
        tlen, toff = struct.unpack(
            order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
        )
        original = data[ooff : ooff + olen].decode("utf-8", "replace")
        translated = data[toff : toff + tlen].decode("utf-8", "replace")
        if original and translated and translated != original:
            out[original] = translated
    return out


def cldr_names(identifier: str) -> list[str]:
    """CLDR's names of territories, languages and currencies in a locale (Babel), each
    table in the order of its codes; none for a locale Babel does not know."""
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(identifier)
    except (UnknownLocaleError, ValueError):
        return []
    tables = (locale.territories, locale.languages, locale.currencies)
    return [str(name) for table in tables for _, name in sorted(table.items())]


def _catalogue(language: str) -> list[str]:
    values: list[str] = []
    for domain in DOMAINS:
        path = Path(pycountry.LOCALES_DIR) / language / "LC_MESSAGES" / f"{domain}.mo"
        if path.exists():
            values.extend(v for v in read_mo(path).values() if "\ufffd" not in v)
    return sorted(set(values))


_PRICE_FORMATS = {
    "fr": "{a},{b}\u00a0€",
    "de": "{a},{b}\u00a0€",
    "pl": "{a},{b}\u00a0zł",
    "cs": "{a},{b}\u00a0Kč",
    "ru": "{a}\u00a0₽",
    "uk": "{a}\u00a0грн",
    "ja": "¥{a}～¥{c}",
    "zh_CN": "¥{a}～{c}元",
    "ko": "₩{a}",
    "tr": "{a},{b}\u00a0₺",
    "hu": "{a}\u00a0Ft",
    "vi": "{a}\u00a0₫",
    "th": "฿{a}",
    "he": "\u200f{a}\u00a0₪",
    "hi": "₹{a}",
    "pt_BR": "R$\u00a0{a},{b}",
    "es": "{a},{b}\u00a0€",
    "el": "{a},{b}\u00a0€",
}


@dataclass(frozen=True)
class Field:
    language: str
    shape: str  # "name", "price" or "description"
    text: str


def clean_values(*, per_language: int = 10_000, seed: int = 1) -> list[Field]:
    """Clean field values: names, prices and long descriptions, in every language."""
    rng = random.Random(seed)
    fields: list[Field] = []
    for language in LANGUAGES:
        names = _catalogue(language)
        if not names:
            continue
        chosen = names if len(names) <= per_language else rng.sample(names, per_language)
        fields.extend(Field(language, "name", n) for n in chosen)
        fmt = _PRICE_FORMATS.get(language)
        if fmt:
            for _ in range(20):
                a = f"{rng.randint(1, 99_999):,}".replace(",", "\u00a0")
                fields.append(Field(language, "price", fmt.format(a=a, b="50", c=a + "0")))
        separator = "、" if language in ("ja", "zh_CN", "zh_TW", "zh_HK") else ", "
        for _ in range(max(2, min(100, len(names) // 20, per_language // 10))):
            fields.append(Field(language, "description", separator.join(rng.sample(names, 12))))
    return fields


def windows_1252(raw: bytes) -> str:
    """Bytes decoded as a browser's windows-1252 (C1 controls for its five holes)."""
    return decode(raw, "windows-1252")


@dataclass(frozen=True)
class Sample:
    original: str
    damaged: str
    kind: str
    how: str  # how it was made, for the per-kind tables
    lossy: bool


def _damage(text: str, how: str) -> str:
    raw = text.encode("utf-8")
    if how == "utf-8 as windows-1252":
        return windows_1252(raw)
    if how == "utf-8 as latin-1":
        return raw.decode("latin-1")
    if how == "utf-8 as windows-1251":
        return decode(raw, "windows-1251")
    if how == "utf-8 as Shift_JIS":
        return decode(raw, "Shift_JIS")
    if how == "double-encoded utf-8":
        return windows_1252(windows_1252(raw).encode("utf-8"))
    if how == "utf-8 as cp437":  # no browser's encoding: Python's codec
        return raw.decode("cp437")
    if how.startswith("utf-8 as "):  # another single-byte encoding, as browsers decode it
        return decode(raw, how.removeprefix("utf-8 as "))
    raise ValueError(how)


_UTF8_KINDS = {
    "utf-8 as windows-1252": "utf8-as-windows-1252",
    "utf-8 as latin-1": "utf8-as-windows-1252",
    "utf-8 as windows-1251": "utf8-as-windows-1251",
    "utf-8 as Shift_JIS": "utf8-as-shift_jis",
    "double-encoded utf-8": "utf8-double-encoded",
    "utf-8 as macintosh": "utf8-as-other",
    "utf-8 as windows-1250": "utf8-as-other",
    "utf-8 as ISO-8859-2": "utf8-as-other",
    "utf-8 as windows-1257": "utf8-as-other",
}


def utf8_samples(fields: list[Field], *, seed: int = 2) -> Iterator[Sample]:
    """UTF-8 mojibake of every non-ASCII field, every way, and partly damaged fields."""
    rng = random.Random(seed)
    for field in fields:
        if field.text.isascii():
            continue
        for how, kind in _UTF8_KINDS.items():
            damaged = _damage(field.text, how)
            if damaged != field.text:
                yield Sample(field.text, damaged, kind, how, "\ufffd" in damaged)
        if field.shape == "description":
            # One name damaged in an otherwise clean field.
            parts = field.text.split(", " if ", " in field.text else "、")
            i = rng.randrange(len(parts))
            if not parts[i].isascii():
                parts[i] = _damage(parts[i], "utf-8 as windows-1252")
                sep = ", " if ", " in field.text else "、"
                yield Sample(field.text, sep.join(parts), "utf8-as-windows-1252", "partial", False)


def legacy_samples(fields: list[Field]) -> Iterator[tuple[Sample, str]]:
    """Legacy CJK and Cyrillic bytes read as windows-1252, with the expected encoding."""
    for field in fields:
        for codec, name in LEGACY.get(field.language, ()):
            if field.text.isascii():
                continue
            try:
                raw = field.text.encode(codec)
            except UnicodeEncodeError:
                continue
            how = f"{name} as windows-1252"
            yield Sample(field.text, windows_1252(raw), "legacy-as-windows-1252", how, False), name
