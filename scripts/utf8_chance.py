"""Measure how often legacy text makes valid UTF-8 multi-byte sequences by chance.

The mostly-UTF-8 rule (:mod:`scrapy_charset.sniffing.utf8`) weighs the valid sequences of
an undeclared body against the chance that legacy text makes them. This script decodes
the real translated text of :mod:`tests.corpus` (pycountry's catalogues), encoded in every
legacy encoding that can write it, as UTF-8, and prints per encoding the share of the
decoder's sequences (valid or invalid) that are valid two-, three- and four-byte
sequences, highest first, then the highest rate per length next to
:data:`~scrapy_charset.sniffing.utf8.CHANCE`.

Usage::

    python scripts/utf8_chance.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrapy_charset.sniffing.utf8 import CHANCE
from tests.corpus import LANGUAGES, encodable


def chance_rates() -> dict[str, dict[int, float]]:
    """Encoding -> {sequence length: share of the decoder's sequences valid by chance}."""
    rates: dict[str, dict[int, float]] = {}
    for encoding, languages in LANGUAGES.items():
        counts: Counter[int] = Counter()
        for locale, _ in languages:
            for _, data in encodable(locale, encoding):
                if data.isascii():
                    continue
                text = data.decode("utf-8", "replace")
                for char in text:
                    if char == "\ufffd":
                        counts[0] += 1  # an invalid sequence (no U+FFFD is written)
                    elif ord(char) >= 0x80:
                        counts[len(char.encode())] += 1
        total = sum(counts.values())
        if total:
            rates[encoding] = {n: counts[n] / total for n in (2, 3, 4)}
    return rates


def main() -> None:
    rates = chance_rates()
    print(f"{'encoding':<16}{'2 bytes':>10}{'3 bytes':>10}{'4 bytes':>10}")
    for encoding, rate in sorted(rates.items(), key=lambda item: -max(item[1].values())):
        print(f"{encoding:<16}" + "".join(f"{rate[n]:>10.4f}" for n in (2, 3, 4)))
    highest = [max(rate[n] for rate in rates.values()) for n in (2, 3, 4)]
    print(f"{'highest':<16}" + "".join(f"{value:>10.4f}" for value in highest))
    print(f"{'CHANCE':<16}" + "".join(f"{CHANCE[n]:>10.4f}" for n in (2, 3, 4)))


if __name__ == "__main__":
    main()
