"""The WHATWG decoders against the closest Python codec, on real text.

Run: ``python -m benchmarks.decoders``. For each encoding, the country names of pycountry's
ISO 3166 catalogue translated into a language the encoding serves are encoded with the
closest Python codec (characters it lacks are dropped), repeated to about 256 KB, and
decoded:

- ``valid``: that body as is;
- ``errors``: the same body with one byte in every 64 replaced by 0xFF (invalid in every
  multi-byte encoding, and a lead or unmapped byte in most others).

Columns: microseconds for ``body.decode("whatwg-...")`` and for the Python codec with
``errors="replace"`` (what Scrapy's ``TextResponse.text`` runs, through w3lib), and the
ratio (ours / Python's; the target is 1.5 or less on valid input).
"""

from __future__ import annotations

import argparse
import gettext
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import pycountry

from benchmarks._growth import best_time, growth_exponent
from scrapy_charset.whatwg.codecs import codec_name
from scrapy_charset.whatwg.labels import ENCODING_NAMES

SIZE = 256_000
ROUNDS = 4

#: Encoding -> (closest Python codec or None, catalogue language).
CASES: dict[str, tuple[str | None, str]] = {
    "UTF-8": ("utf-8", "fr"),
    "IBM866": ("cp866", "ru"),
    "ISO-8859-2": ("iso8859-2", "pl"),
    "ISO-8859-3": ("iso8859-3", "mt"),
    "ISO-8859-4": ("iso8859-4", "lv"),
    "ISO-8859-5": ("iso8859-5", "ru"),
    "ISO-8859-6": ("iso8859-6", "ar"),
    "ISO-8859-7": ("iso8859-7", "el"),
    "ISO-8859-8": ("iso8859-8", "he"),
    "ISO-8859-8-I": ("iso8859-8", "he"),
    "ISO-8859-10": ("iso8859-10", "is"),
    "ISO-8859-13": ("iso8859-13", "lt"),
    "ISO-8859-14": ("iso8859-14", "cy"),
    "ISO-8859-15": ("iso8859-15", "fr"),
    "ISO-8859-16": ("iso8859-16", "ro"),
    "KOI8-R": ("koi8-r", "ru"),
    "KOI8-U": ("koi8-u", "uk"),
    "macintosh": ("mac-roman", "de"),
    "windows-874": ("cp874", "th"),
    "windows-1250": ("cp1250", "cs"),
    "windows-1251": ("cp1251", "bg"),
    "windows-1252": ("cp1252", "es"),
    "windows-1253": ("cp1253", "el"),
    "windows-1254": ("cp1254", "tr"),
    "windows-1255": ("cp1255", "he"),
    "windows-1256": ("cp1256", "ar"),
    "windows-1257": ("cp1257", "lt"),
    "windows-1258": ("cp1258", "vi"),
    "x-mac-cyrillic": ("mac-cyrillic", "ru"),
    "GBK": ("gbk", "zh_CN"),
    "gb18030": ("gb18030", "zh_CN"),
    "Big5": ("big5hkscs", "zh_TW"),
    "EUC-JP": ("euc_jp", "ja"),
    "ISO-2022-JP": ("iso2022_jp", "ja"),
    "Shift_JIS": ("cp932", "ja"),
    "EUC-KR": ("cp949", "ko"),
    "replacement": (None, "en"),
    "UTF-16BE": ("utf-16-be", "ja"),
    "UTF-16LE": ("utf-16-le", "ja"),
    "x-user-defined": ("cp1252", "en"),  # no Python codec: a charmap one, for scale
}


def country_names(language: str) -> str:
    """Every country name in pycountry's ISO 3166-1 catalogue, translated."""
    if language == "en":  # the catalogue's own language
        return "\n".join(country.name for country in pycountry.countries)
    path = Path(pycountry.LOCALES_DIR) / language / "LC_MESSAGES" / "iso3166-1.mo"
    with path.open("rb") as file:
        catalogue = gettext.GNUTranslations(file)
    return "\n".join(catalogue.gettext(country.name) for country in pycountry.countries)


def bodies(encoding: str) -> tuple[bytes, bytes]:
    """(valid body, body with errors) for *encoding*."""
    python_codec, language = CASES[encoding]
    text = country_names(language)
    if encoding == "ISO-2022-JP":
        # Line by line, as mail and old pages do: each line returns to ASCII.
        once = b"\n".join(line.encode("iso2022_jp", "ignore") for line in text.split("\n"))
    else:
        once = text.encode(python_codec or "utf-8", "ignore")
    once += "\n".encode(python_codec or "utf-8")
    valid = (once * (SIZE // len(once) + 1))[:SIZE]
    if encoding in ("UTF-16BE", "UTF-16LE"):
        valid = valid[: len(valid) // 2 * 2]
    else:
        # End on a whole line, so the valid body stays valid in the multi-byte encodings.
        valid = valid[: valid.rindex(b"\n") + 1]
    damaged = bytearray(valid)
    damaged[::64] = b"\xff" * len(damaged[::64])
    return valid, bytes(damaged)


def interleaved(ours: Callable[[], object], theirs: Callable[[], object]) -> tuple[float, float]:
    """Best times of both, measured in turns so that load on the machine hits both alike."""
    best_ours = best_theirs = float("inf")
    for _ in range(ROUNDS):
        best_ours = min(best_ours, best_time(ours, repeat=3, min_time=0.02))
        best_theirs = min(best_theirs, best_time(theirs, repeat=3, min_time=0.02))
    return best_ours, best_theirs


def main(argv: Sequence[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    print(f"decoding about {SIZE // 1000} KB of country names per encoding (microseconds)")
    print(
        f"{'encoding':<16}{'python codec':<14}"
        f"{'ours':>9}{'python':>9}{'ratio':>7}   {'ours':>9}{'python':>9}{'ratio':>7}"
    )
    print(f"{'':<30}{'---------- valid ----------':>25}   {'--------- errors ----------':>25}")
    for encoding in ENCODING_NAMES:
        python_codec, _ = CASES[encoding]
        row = f"{encoding:<16}{python_codec or '-':<14}"
        for body in bodies(encoding):
            decode_ours = partial(body.decode, codec_name(encoding))
            if python_codec is None:
                row += f"{best_time(decode_ours) * 1e6:>9.0f}{'-':>9}{'-':>7}   "
                continue
            ours, theirs = interleaved(decode_ours, partial(body.decode, python_codec, "replace"))
            row += f"{ours * 1e6:>9.0f}{theirs * 1e6:>9.0f}{ours / theirs:>7.2f}   "
        print(row.rstrip())
    hostile()


#: Hostile bodies: (encoding, a unit repeated to the size).
HOSTILE = {
    "gb18030 0xFF": ("gb18030", b"\xff"),
    "gb18030 0x81 0x30 A": ("gb18030", b"\x81\x30A"),
    "Big5 lead + ASCII": ("Big5", b"\xa4<"),
    "Big5 ambiguous": ("Big5", b"\xa2A\xa1\xfe"),
    "EUC-JP 0x8F 0xA1 A": ("EUC-JP", b"\x8f\xa1A"),
    "Shift_JIS lead + ASCII": ("Shift_JIS", b"\x81<"),
    "ISO-2022-JP ESC": ("ISO-2022-JP", b"\x1b"),
    "ISO-2022-JP switches": ("ISO-2022-JP", b"\x1b$B0\x1b(J\x1b(I"),
    "UTF-8 stray bytes": ("UTF-8", b"\x80\xed\xa0"),
    "UTF-16LE lone surrogates": ("UTF-16LE", b"\x00\xd8"),
}
GROWTH_SIZES = [16_000, 64_000, 256_000]


def hostile() -> None:
    print()
    print("hostile input: microseconds per size and growth exponent (1.0 is linear)")
    print(f"{'shape':<28}" + "".join(f"{size:>10,}" for size in GROWTH_SIZES) + "  exponent")
    for label, (encoding, unit) in HOSTILE.items():
        times = []
        for size in GROWTH_SIZES:
            body = (unit * (size // len(unit) + 1))[:size]
            times.append(best_time(partial(body.decode, codec_name(encoding)), repeat=3))
        row = "".join(f"{t * 1e6:>10.0f}" for t in times)
        print(f"{label:<28}{row}  {growth_exponent(GROWTH_SIZES, times):>8.2f}")


if __name__ == "__main__":
    main()
