"""C1 controls read as windows-1252: how often that reading is the wrong one.

Run: ``python -m benchmarks.c1_readings [per_language]`` (real values a language, 200 by
default, as ``benchmarks.item_evidence`` takes them), or ``--faker`` for the names of
people and companies of every Faker locale (``benchmarks.item_evidence.faker_names``).

A C1 control (U+0080-U+009F) in a field is a byte that a latin-1 decoder kept; the
repair ``c1-controls`` reads each as windows-1252 does ("parlé\\x85" is "parlé…"). Other
damage leaves C1 controls too, which that reading gets wrong: the bytes of another
single-byte encoding read as latin-1 ("Café" in macintosh is "Caf\\x8e", which
windows-1252 reads "CafŽ"), and UTF-8 read as an encoding that keeps C1 controls for some
bytes (ISO-8859-2 for all of 0x80-0x9F, windows-1250 and others for their holes). For
each reading of ``benchmarks.item_evidence.READINGS``, the clean values (pycountry's
translations: ``benchmarks._itemdata.clean_values``) are damaged both ways; of the fields
that hold a C1 control, the windows-1252 reading of their C1 controls
(``fixes.c1_controls``) gives back the value (right), another text (wrong), or nothing
(its guard: a C1 control inside a UTF-8 sequence); and ``inspect_text``'s repairs are
counted: by default, those it makes and those that give back the value; by default and
with ``legacy=True``, the wrong ones (a character neither in the value nor in the damaged
field, as ``benchmarks.item_evidence`` counts them). A default repair of C1 controls needs
the evidence of ``fixes.c1_punctuation`` (rule ``c1-punctuation``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence

from benchmarks._itemdata import _damage, clean_values
from benchmarks.item_evidence import READINGS
from scrapy_charset.items.mojibake.chardata import encode_reading
from scrapy_charset.items.mojibake.fixes import c1_controls
from scrapy_charset.items.textcheck import inspect_text

_C1 = re.compile("[\u0080-\u009f]")

#: The columns of a row of :func:`figures`.
COLUMNS = (
    "fields",
    "with C1",
    "right",
    "wrong",
    "refused",
    "default",
    "right default",
    "wrong default",
    "wrong legacy",
)


def damaged(texts: Sequence[str], reading: str) -> Iterator[tuple[str, str, str]]:
    """(how, original, damaged) for each of *texts* that holds a C1 control once damaged:
    its *reading* bytes read as latin-1 (when *reading* encodes it), and its UTF-8 read as
    *reading*."""
    for text in texts:
        raw = encode_reading(text, reading)
        if raw is not None:
            yield f"{reading} as latin-1", text, raw.decode("latin-1")
        yield f"utf-8 as {reading}", text, _damage(text, f"utf-8 as {reading}")


def figures(texts: Sequence[str]) -> dict[str, dict[str, int]]:
    """Per way of damage (see :func:`damaged`): the fields made, those with a C1 control,
    and of those, the windows-1252 reading right, wrong and refused, and the wrong repairs
    of ``inspect_text``, by default and with ``legacy=True``."""
    rows: dict[str, dict[str, int]] = {}
    for reading in READINGS:
        for how, original, text in damaged(texts, reading):
            row = rows.setdefault(how, dict.fromkeys(COLUMNS, 0))
            row["fields"] += 1
            if _C1.search(text) is None:
                continue
            row["with C1"] += 1
            read = c1_controls(text).repaired
            if read is None:
                row["refused"] += 1
            else:
                row["right" if read == original else "wrong"] += 1
            for key, legacy in (("wrong default", False), ("wrong legacy", True)):
                repaired = inspect_text(text, legacy=legacy).repaired
                row[key] += repaired is not None and bool(set(repaired) - set(original) - set(text))
                if not legacy and repaired is not None:
                    row["default"] += 1
                    row["right default"] += repaired == original
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "per_language", type=int, nargs="?", default=200, help="real values a language"
    )
    parser.add_argument(
        "--faker",
        action="store_true",
        help="Faker's names of people and companies of every locale instead",
    )
    args = parser.parse_args(argv)
    if args.faker:
        from benchmarks.item_evidence import faker_names

        texts = sorted({name for name in faker_names(1) if not name.isascii()})
    else:
        per_language = max(1, args.per_language)
        values = clean_values(per_language=per_language)
        texts = [f.text for f in values if not f.text.isascii()]
    print(f"{len(texts):,} non-ASCII values; the windows-1252 reading of their C1 controls:")
    print(f"{'made as':<28}" + "".join(f"{name:>14}" for name in COLUMNS))
    for how, row in figures(texts).items():
        print(f"{how:<28}" + "".join(f"{row[name]:>14,}" for name in COLUMNS))


if __name__ == "__main__":
    main()
