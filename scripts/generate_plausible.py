"""Generate the item side's plausibility table from CLDR's exemplar characters.

CLDR's exemplar characters (https://cldr.unicode.org/translation/core-data/exemplars) are,
for every locale, the letters its language writes (main, auxiliary and index sets) and its
punctuation and number characters. Babel does not carry them, so they are read from
CLDR's own JSON distribution, the ``cldr-misc-full`` package (``main/<locale>/
characters.json``), at :data:`CLDR_JSON_VERSION`.

The repository keeps an extract of that package, ``tests/data/cldr-exemplars/
exemplars.json`` (each distinct set of exemplar strings once, and which locales use it),
so the module can be regenerated and checked from a clean clone. Its licence (Unicode
License v3) is ``tests/data/cldr-exemplars/LICENSE``.

Usage::

    python scripts/generate_plausible.py [--cldr-package DIR] [--package DIR] [--check]

``--cldr-package`` is an unpacked ``cldr-misc-full`` package (``npm pack
cldr-misc-full@48.2.0``, then untar it): the extract is rewritten from it first. Without it,
the repository's extract is read. ``--check`` writes nothing and exits non-zero when the
extract or the generated module differs from what the data would generate.

The generated module, ``scrapy_charset/items/mojibake/_plausible.py``, holds:

- ``ALPHABETS``: the number of distinct alphabets (a locale's main, auxiliary and index
  letters, in both cases, NFC);
- ``LETTER_GROUPS``: ``(bitmask, characters)`` pairs: each character (letters, marks and
  modifier letters of the alphabets, ASCII included) with the set of alphabets that use
  it, as a bitmask. Characters of the ideographic, syllabic Hangul and kana blocks are
  left out: CLDR lists only the commonest of them, while text uses thousands more; the
  runtime treats those blocks by their script;
- ``PUNCTUATION``: every locale's punctuation and number characters, together;
- ``FINGERPRINT``: a SHA-256 of the extract, so a test notices data that changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXTRACT = REPO / "tests" / "data" / "cldr-exemplars" / "exemplars.json"
OUT = REPO / "scrapy_charset" / "items" / "mojibake" / "_plausible.py"

#: The cldr-misc-full package the extract comes from (CLDR's JSON distribution).
CLDR_JSON_VERSION = "48.2.0"
#: The sets of characters.json that are read.
LETTER_SETS = ("exemplarCharacters", "auxiliary", "index")
OTHER_SETS = ("punctuation", "numbers")


def read_package(package: Path) -> dict[str, object]:
    """The extract of an unpacked cldr-misc-full package: each distinct set of exemplar
    strings once, with the locales that use it."""
    version = json.loads((package / "package.json").read_text("utf-8"))["version"]
    if version != CLDR_JSON_VERSION:
        raise SystemExit(f"cldr-misc-full {version}: the generator reads {CLDR_JSON_VERSION}")
    by_sets: dict[str, list[str]] = {}
    sets: dict[str, dict[str, str]] = {}
    for path in sorted((package / "main").glob("*/characters.json")):
        locale = path.parent.name
        chars = json.loads(path.read_text("utf-8"))["main"][locale]["characters"]
        found = {k: chars[k] for k in (*LETTER_SETS, *OTHER_SETS) if k in chars}
        key = json.dumps(found, sort_keys=True, ensure_ascii=False)
        by_sets.setdefault(key, []).append(locale)
        sets[key] = found
    entries = [
        {"locales": locales, "sets": sets[key]}
        for key, locales in sorted(by_sets.items(), key=lambda item: item[1][0])
    ]
    return {"cldr-misc-full": CLDR_JSON_VERSION, "entries": entries}


def unicode_set(text: str) -> set[str]:
    """The strings of a CLDR UnicodeSet in its exemplar form: ``[a b-d {ch} \\u00E9]``."""
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    out: set[str] = set()
    items: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            nxt = body[i + 1]
            if nxt == "u":
                items.append(chr(int(body[i + 2 : i + 6], 16)))
                i += 6
                continue
            if nxt == "x" and body[i + 2] == "{":
                close = body.index("}", i)
                items.append(chr(int(body[i + 3 : close], 16)))
                i = close + 1
                continue
            items.append(nxt)
            i += 2
            continue
        if c == "{":
            close = body.index("}", i)
            out.add(body[i + 1 : close])
            i = close + 1
            continue
        if c == "-" and items and i + 1 < len(body) and not body[i + 1].isspace():
            low = items.pop()
            i += 1
            high = body[i]
            if high == "\\":
                high = body[i + 1] if body[i + 1] != "u" else chr(int(body[i + 2 : i + 6], 16))
                i += 6 if body[i + 1] == "u" else 2
            else:
                i += 1
            items.extend(chr(code) for code in range(ord(low), ord(high) + 1))
            continue
        if not c.isspace():
            items.append(c)
        i += 1
    out.update(items)
    return out


#: The blocks the table leaves to their script: (name, first, last).
BY_SCRIPT = (
    ("kana", 0x3040, 0x30FF),
    ("han", 0x3400, 0x4DBF),
    ("han", 0x4E00, 0x9FFF),
    ("han", 0xF900, 0xFAFF),
    ("hangul", 0xAC00, 0xD7AF),
    ("han", 0x20000, 0x3FFFF),
)


def script_of(c: str) -> str | None:
    """The block name of a character the table leaves to its script, or None."""
    code = ord(c)
    for name, first, last in BY_SCRIPT:
        if first <= code <= last:
            return name
    return None


def by_script(c: str) -> bool:
    """Characters the table leaves to their script (see the module's docstring)."""
    return script_of(c) is not None


def _characters(strings: set[str]) -> set[str]:
    """Every character of *strings*, NFC and NFD, in both cases (the blocks left to their
    script by their names, ``"<han>"``)."""
    out: set[str] = set()
    for string in strings:
        for form in {string, string.lower(), string.upper(), string.title()}:
            for normal in ("NFC", "NFD"):
                out.update(unicodedata.normalize(normal, form))
    return {f"<{script_of(c)}>" if by_script(c) else c for c in out if not c.isspace()}


def generate(extract: dict[str, object]) -> str:
    entries = extract["entries"]
    assert isinstance(entries, list)
    alphabets: list[frozenset[str]] = []
    punctuation: set[str] = set()
    for entry in entries:
        sets = entry["sets"]
        letters: set[str] = set()
        for name in LETTER_SETS:
            letters |= unicode_set(sets.get(name, "[]"))
        alphabet = frozenset(_characters(letters))
        if alphabet and alphabet not in alphabets:
            alphabets.append(alphabet)
        for name in OTHER_SETS:
            punctuation |= _characters(unicode_set(sets.get(name, "[]")))
    alphabets.sort(key=lambda a: "".join(sorted(a)))
    masks: dict[str, int] = {}
    for index, alphabet in enumerate(alphabets):
        for c in alphabet:
            masks[c] = masks.get(c, 0) | (1 << index)
    scripts = {c[1:-1]: masks.pop(c) for c in sorted(masks) if len(c) > 1}
    groups: dict[int, list[str]] = {}
    for c, mask in masks.items():
        groups.setdefault(mask, []).append(c)
    punctuation = {c for c in punctuation - set(masks) if len(c) == 1}
    digest = hashlib.sha256(
        json.dumps(extract, sort_keys=True, ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    lines = [
        "# GENERATED by scripts/generate_plausible.py from the Unicode CLDR's exemplar",
        f"# characters (cldr-misc-full {CLDR_JSON_VERSION}, main/*/characters.json), through",
        "# the extract tests/data/cldr-exemplars/exemplars.json. Do not edit: change the script",
        "# and regenerate.",
        "#",
        "# Data: Copyright (c) 2004-2026 Unicode, Inc. Unicode License v3",
        "# (https://www.unicode.org/license.txt; tests/data/cldr-exemplars/LICENSE).",
        '"""Which alphabets (CLDR exemplar letter sets) use each character."""',
        "",
        "from __future__ import annotations",
        "",
        f'CLDR_JSON_VERSION = "{CLDR_JSON_VERSION}"',
        f'FINGERPRINT = "{digest}"',
        f"ALPHABETS = {len(alphabets)}",
        "#: (bitmask of alphabets, characters): the alphabets that use each character.",
        "LETTER_GROUPS: tuple[tuple[int, str], ...] = (",
    ]
    for mask, chars in sorted(groups.items(), key=lambda item: min(item[1])):
        literal = _literal("".join(sorted(chars)))
        line = f"    (0x{mask:X}, {literal}),"
        if len(line) <= LINE:
            lines.append(line)
        else:
            lines += ["    (", f"        0x{mask:X},", *_wrapped(literal, 8, comma=True), "    ),"]
    lines.append(")")
    lines.append("#: The blocks left to their script: (name, first, last), and their alphabets.")
    lines.append("BY_SCRIPT = (")
    lines += [f'    ("{name}", 0x{first:X}, 0x{last:X}),' for name, first, last in BY_SCRIPT]
    lines.append(")")
    lines.append("SCRIPT_GROUPS: dict[str, int] = {")
    for name, mask in sorted(scripts.items()):
        lines.append(f'    "{name}": 0x{mask:X},')
    lines.append("}")
    lines.append("#: Every locale's punctuation and number characters that no alphabet has.")
    lines.append("PUNCTUATION = (")
    lines += _wrapped(_literal("".join(sorted(punctuation))), 4)
    lines.append(")")
    return "\n".join(lines) + "\n"


#: The longest line of the generated module (the project's line length).
LINE = 100


def _wrapped(literal: str, indent: int, *, comma: bool = False) -> list[str]:
    """A string literal cut into lines of at most :data:`LINE` characters (an escape is
    never cut), each a literal of its own; with *comma*, a comma after the last."""
    body = literal[1:-1]
    width = LINE - indent - 3
    pieces: list[str] = []
    at = 0
    while at < len(body):
        end = min(len(body), at + width)
        # Never end inside an escape: find the last backslash that starts one.
        cut = body.rfind("\\", at, end)
        if cut != -1 and end < len(body) and cut + (6 if body[cut + 1] == "u" else 10) > end:
            end = cut
        pieces.append(body[at:end])
        at = end
    out = [" " * indent + f'"{piece}"' for piece in pieces]
    if comma:
        out[-1] += ","
    return out


def _literal(text: str) -> str:
    """A string literal, with characters that do not print as themselves escaped."""
    out = []
    for c in text:
        if c in '\\"' or unicodedata.category(c)[0] in "MCZ" or not c.isprintable():
            out.append(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cldr-package", type=Path)
    parser.add_argument(
        "--package",
        type=Path,
        default=None,
        help="the scrapy_charset package to write or check (default: this checkout's)",
    )
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    out = args.package / OUT.relative_to(REPO / "scrapy_charset") if args.package else OUT
    stale: list[str] = []
    if args.cldr_package is not None:
        extract = read_package(args.cldr_package)
        text = json.dumps(extract, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        if args.check:
            if EXTRACT.read_text("utf-8") != text:
                stale.append(str(EXTRACT.relative_to(REPO)))
        else:
            EXTRACT.parent.mkdir(parents=True, exist_ok=True)
            EXTRACT.write_text(text, "utf-8")
    else:
        extract = json.loads(EXTRACT.read_text("utf-8"))
    module = generate(extract)
    if args.check:
        if not out.exists() or out.read_text("utf-8") != module:
            stale.append(str(out))
        for path in stale:
            print(f"{path} is not what scripts/generate_plausible.py makes", file=sys.stderr)
        return 1 if stale else 0
    out.write_text(module, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
