"""Whether a repair gives text that some language writes: evidence from CLDR.

The Unicode CLDR lists, for every locale, the letters its language writes (its exemplar
characters: main, auxiliary and index sets). :mod:`._plausible`, generated from them by
``scripts/generate_plausible.py``, gives each letter, mark and modifier letter the set of
alphabets (distinct exemplar sets) that use it. A repair is judged on what it brings in:

- ``unattested-character``: a letter, mark or modifier that no alphabet uses ("ɒ" from
  "É’", "˒" from "Ë’", "ᴴ" from "á´´", a combining fermata from "Í’") loses. The
  ideographic, Hangul-syllable and kana blocks count by their script (CLDR lists only
  the commonest of their characters); symbols and punctuation are neither evidence for
  nor against (real names carry ®, ™ and quotes);
- ``no-common-alphabet``: a word that the repair changed must have all its letters in
  one alphabet ("Bront녔" mixes Latin and Hangul; "HГєngaro" Latin and Cyrillic).

The model is a character set per alphabet, chosen by measurement on ftfy's test cases and
the item checks (docs/item-safety.md): every wrong change the checks found brought in a
character outside every alphabet, or made a word of two alphabets.
"""

from __future__ import annotations

import functools
import operator
import re
import unicodedata

from scrapy_charset.items._memo import Table, short_memo
from scrapy_charset.items.mojibake._plausible import BY_SCRIPT, LETTER_GROUPS, SCRIPT_GROUPS
from scrapy_charset.items.mojibake.chardata import UTF8_READINGS
from scrapy_charset.whatwg._singlebyte import HIGH_HALVES

__all__ = [
    "CASES",
    "CASE_BREAK",
    "NOT_TEXT",
    "NOT_TEXT_CATEGORIES",
    "alphabets",
    "badness",
    "events",
    "implausible",
    "unattested",
]

#: The rules' names, as reports give them.
UNATTESTED = "unattested-character"
NO_COMMON_ALPHABET = "no-common-alphabet"
CASE_BREAK = "case-break"
SYMBOL_IN_WORD = "symbol-in-word"
NOT_TEXT = "not-text"

_MASKS: dict[str, int] = {c: mask for mask, chars in LETTER_GROUPS for c in chars}
#: Every alphabet: what a character that is no letter is compatible with.
_ANY = (1 << 4096) - 1


@functools.lru_cache(maxsize=8192)
def alphabets(c: str) -> int:
    """The alphabets that use *c*, as a bitmask: 0 for a letter, mark or modifier none
    uses; every alphabet for a character that is no letter (digits, symbols, spaces)."""
    mask = _MASKS.get(c)
    if mask is not None:
        return mask
    decomposed = unicodedata.normalize("NFD", c)
    if decomposed != c:
        # A character that normalisation never composes ("য়" is য and a nukta).
        mask = _ANY
        for part in decomposed:
            mask &= alphabets(part)
        return mask
    code = ord(c)
    for name, first, last in BY_SCRIPT:
        if first <= code <= last:
            return SCRIPT_GROUPS[name]
    category = unicodedata.category(c)
    return 0 if category[0] in "LM" or category == "Sk" else _ANY


def unattested(c: str) -> bool:
    """*c* is a letter, mark or modifier that no alphabet uses."""
    return alphabets(c) == 0


#: Characters that join the letters of one word: apostrophes and the hyphen.
_JOINERS = frozenset("'’ʼ-‐·׳״")


#: Letters by their category that text uses as symbols: the ordinal indicators.
_SYMBOL_LETTERS = frozenset("ªº")


def _is_letter(c: str) -> bool:
    return unicodedata.category(c)[0] in "LM" and c not in _SYMBOL_LETTERS


#: The punctuation a single-byte reading of UTF-8 bytes shows: that of the readings'
#: high halves (other punctuation joins the words of its script: "・", "።").
_READING_PUNCTUATION = frozenset(
    c
    for name in UTF8_READINGS
    for c in HIGH_HALVES[name]
    if unicodedata.category(c)[0] == "P" and c not in _JOINERS
)


def _is_symbol(c: str) -> bool:
    """A symbol, a control, a superscript or fraction, or a reading's punctuation: no
    part of a word (ASCII punctuation and the joiners are: "U.S.A.", "e-mail", "l’eau")."""
    category = unicodedata.category(c)
    if category[0] == "P":
        return c in _READING_PUNCTUATION
    # Superscripts and fractions ("Ã³", "Ã¼") are no digits of a word either.
    return category[0] in "SC" or category == "No" or c in _SYMBOL_LETTERS


#: The categories of what is not text: controls, unassigned, private use, surrogates.
NOT_TEXT_CATEGORIES = frozenset({"Cc", "Cn", "Co", "Cs"})


def _script_and_letters(word: str) -> bool:
    """*word* glues an ideograph, kana or Hangul syllable to letters of an alphabet
    ("鳒s"): CJK locales list Latin letters too, but not inside their words."""
    by_script = word.translate(_BY_SCRIPT)
    return "1" in by_script and "0" in by_script


#: A lowercase Greek letter of a scientific name: one in a word of ASCII letters with a
#: capital ("IL2Rγc", "TNFα", "IFNγ", "PPARγ"), as gene, protein and unit names write it.
_SYMBOL_NAME = re.compile(
    "[A-Za-z]*[A-Z][A-Za-z]*[α-ω][A-Za-z]*|[A-Za-z]*[α-ω][A-Za-z]*[A-Z][A-Za-z]*"
)


def events(text: str) -> list[str]:
    """The names of what *text* holds that real text of no language does (see the
    module's docstring), once per occurrence."""
    return list(_events(text))


def _class(code: int) -> str:
    """What a character is to :func:`_events`: ``a`` a letter or mark (:func:`_is_letter`),
    ``n`` a control, unassigned, private-use or surrogate character other than a tab or
    line break, ``s`` another symbol (:func:`_is_symbol`; ``n`` is one too), ``.``
    anything else."""
    c = chr(code)
    if _is_letter(c):
        return "a"
    if c not in "\t\n\r" and unicodedata.category(c) in NOT_TEXT_CATEGORIES:
        return "n"
    return "s" if _is_symbol(c) else "."


#: ``str.translate``'s tables of each character's class, and case: ``l``
#: (``str.islower``), ``u`` (``str.isupper``) or ``-`` (:mod:`.siblings` counts case
#: breaks with it too); the alphabets of a word's letter (every alphabet for one no
#: alphabet uses: it is counted once on its own); whether a character is in a block that
#: counts by its script (:data:`BY_SCRIPT`), ``1`` or ``0``; :func:`unattested`.
_CLASSES: Table[int, str] = Table(_class)
CASES: Table[int, str] = Table(
    lambda code: "l" if chr(code).islower() else "u" if chr(code).isupper() else "-"
)
_WORD_MASKS: Table[str, int] = Table(lambda c: alphabets(c) or _ANY)
_BY_SCRIPT: Table[int, str] = Table(
    lambda code: "1" if any(first <= code <= last for _n, first, last in BY_SCRIPT) else "0"
)
_UNATTESTED: Table[str, bool] = Table(unattested)
_WORD = re.compile("a+")
#: A symbol between two letters (each found once: the letters are not consumed).
_SYMBOL_IN_WORD = re.compile("(?<=a)[sn](?=a)")


# A field's tokens are judged once per layer and against each other: remembered.
@short_memo(4096)
def _events(text: str) -> tuple[str, ...]:
    found: list[str] = []
    found += [UNATTESTED] * sum(map(_UNATTESTED.__getitem__, set(text)))
    classes = text.translate(_CLASSES)
    found += [NOT_TEXT] * classes.count("n")
    cases = text.translate(CASES) if "a" in classes else ""
    for word_match in _WORD.finditer(classes):
        start, end = word_match.span()
        word = text[start:end]
        mask = functools.reduce(operator.and_, map(_WORD_MASKS.__getitem__, word), _ANY)
        if (not mask and _SYMBOL_NAME.fullmatch(word) is None) or _script_and_letters(word):
            found.append(NO_COMMON_ALPHABET)
        found += [CASE_BREAK] * cases.count("lu", start, end)
    found += [SYMBOL_IN_WORD] * len(_SYMBOL_IN_WORD.findall(classes))
    return tuple(found)


#: What each event weighs: a control or unassigned character is never text, while a
#: letter outside CLDR's exemplar sets, a word of two alphabets, a case break or a symbol
#: between letters is only rare.
WEIGHTS = {NOT_TEXT: 2}


def badness(text: str) -> int:
    """The weighted count of :func:`events` in *text*."""
    return sum(WEIGHTS.get(name, 1) for name in _events(text))


def implausible(damaged: str, repaired: str) -> str | None:
    """The name of the rule that turns the repair of *damaged* into *repaired* down, or
    None: a repair may leave none of :func:`events`, or weigh less than the damaged
    text (:func:`badness`)."""
    after = _events(repaired)
    if repaired == damaged or not after or badness(repaired) < badness(damaged):
        return None
    return after[0]
