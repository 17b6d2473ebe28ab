"""Detection backends: one small interface over the available statistical detectors.

A backend ranks candidate encodings for a window of text content; it says nothing final.
:mod:`scrapy_charset.sniffing.detect` maps each answer to an Encoding Standard name with
:func:`answer_encoding` (never with :func:`codecs.lookup`), drops those browsers do not
support, applies the URL's TLD prior and checks the candidates with the WHATWG decoders.

- ``chardetng``: Firefox's detector (the ``chardetng-py`` binding); it takes the TLD itself
  and only ever answers encodings of the Encoding Standard.
- ``chardet``: chardet 7, restricted to the codecs that map to Encoding Standard encodings.
- ``charset-normalizer``: the detector Scrapy uses, restricted the same way.
- ``cchardet``: the uchardet binding (``faust-cchardet`` or ``cchardet``); it cannot be
  restricted, so answers outside the Encoding Standard are dropped.

:func:`implausibility` scores candidate decodings of a body against each other; the
item side's legacy readings (:mod:`scrapy_charset.items.mojibake.legacy`) accept or
refuse one reading by its script's shape instead, which is why the two share no module
(that module's docstring says how they differ).

Each library is imported when its backend is built, so a missing optional one raises
:class:`ImportError` there and nowhere else.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from scrapy_charset.sniffing.tld import prior
from scrapy_charset.whatwg.codecs import decode
from scrapy_charset.whatwg.labels import ENCODING_NAMES, get_encoding

__all__ = [
    "BACKENDS",
    "LEGACY_ENCODINGS",
    "Backend",
    "Candidate",
    "answer_encoding",
    "in_word_symbols",
    "latin9_letters",
    "make_backend",
]

#: (label as the library wrote it, the library's score or None), best first.
Candidate = tuple[str, float | None]

#: The encodings detection may answer: every Encoding Standard encoding except UTF-8
#: (decided by the UTF-8 step), UTF-16 (browsers never detect it), "replacement" and
#: x-user-defined.
LEGACY_ENCODINGS: frozenset[str] = frozenset(ENCODING_NAMES) - {
    "UTF-8",
    "UTF-16BE",
    "UTF-16LE",
    "replacement",
    "x-user-defined",
}

# The Python codec names the libraries answer with, when they are not Encoding Standard
# labels themselves, and the label of the Encoding Standard encoding that decodes the same
# bytes to the same text as a browser (a superset where Python splits one encoding in
# two). Keys are lowercase with "_" as the separator.
_ANSWERS: dict[str, str] = {
    "big5hkscs": "big5",
    "cp950": "big5",
    "cp874": "windows-874",
    "tis_620": "windows-874",
    "cp932": "shift_jis",
    "shift_jis_2004": "shift_jis",
    "shift_jisx0213": "shift_jis",
    "cp949": "euc-kr",
    "uhc": "euc-kr",
    "euc_jp": "euc-jp",
    "euc_jis_2004": "euc-jp",
    "euc_jisx0213": "euc-jp",
    "iso2022_jp": "iso-2022-jp",
    "iso2022_jp_1": "iso-2022-jp",
    "iso2022_jp_2": "iso-2022-jp",
    "iso2022_jp_3": "iso-2022-jp",
    "iso2022_jp_2004": "iso-2022-jp",
    "iso2022_jp_ext": "iso-2022-jp",
    "gb2312": "gbk",
    "mac_roman": "macintosh",
    "macroman": "macintosh",
    "mac_cyrillic": "x-mac-cyrillic",
    "maccyrillic": "x-mac-cyrillic",
    "latin_1": "iso-8859-1",
    "koi8_r": "koi8-r",
    "koi8_u": "koi8-u",
    "euc_kr": "euc-kr",
    **{
        f"iso8859_{n}": f"iso-8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)
    },
}


def answer_encoding(answer: str | None) -> str | None:
    """The Encoding Standard encoding a detector's answer names, or None.

    The answer is looked up in the label table ("get an encoding"), after translating the
    Python codec names detectors use (``cp932``, ``euc_jis_2004``, ``iso8859_2``...) to
    labels. Only :data:`LEGACY_ENCODINGS` are returned: ``utf_7``, ``cp1125``, ``johab``,
    ``cp737``, ``hz`` (the "replacement" encoding) and the like give None.
    """
    if not answer:
        return None
    key = answer.strip().lower().replace("-", "_")
    encoding = get_encoding(_ANSWERS.get(key, answer))
    if encoding is None:
        encoding = get_encoding(key.replace("_", "-"))
    return encoding if encoding in LEGACY_ENCODINGS else None


# Encoding Standard, ISO-8859-15 vs windows-1252: eight bytes are letters in ISO-8859-15
# (S, s, Z, z with caron, the OE and oe ligatures, Y with diaeresis, and the euro sign) but
# symbols in windows-1252 (broken bar, diaeresis, acute accent, cedilla, the fractions,
# the currency sign); 0x80-0x9F are windows-1252's quotes and dashes but C1 controls in
# ISO-8859-15. The letters (all but 0xB4, often an apostrophe, and the euro sign 0xA4)
# count as evidence next to a letter and not next to a digit (0xBD in "1 1/2" written with
# the fraction is windows-1252).
_C1 = re.compile(rb"[\x80-\x9f]")
_LATIN9_LETTER = re.compile(
    rb"(?<=[A-Za-z\xc0-\xff])[\xa6\xa8\xb8\xbc\xbd\xbe](?![0-9])"
    rb"|(?<![0-9])[\xa6\xa8\xb8\xbc\xbd\xbe](?=[A-Za-z\xc0-\xff])"
)


# The euro sign is 0xA4 in ISO-8859-15, where windows-1252 has the currency sign "¤": next
# to a number ("12,50 ¤", "¤100") it is a price, and only the euro reading is text.
_LATIN9_EURO = re.compile(
    rb"[0-9][ \xa0]?\xa4(?![A-Za-z\xc0-\xff])|(?<![A-Za-z\xc0-\xff])\xa4[ \xa0]?[0-9]"
)


def latin9_letters(text: bytes) -> bool:
    """True when windows-1252 text reads better as ISO-8859-15: it has none of the bytes
    only windows-1252 uses for text (0x80-0x9F) and one of ISO-8859-15's letters next to a
    letter, or its euro sign next to a number. Backends rarely tell the two apart;
    chardetng never answers ISO-8859-15."""
    if _C1.search(text) is not None:
        return False
    return _LATIN9_LETTER.search(text) is not None or _LATIN9_EURO.search(text) is not None


# A non-ASCII character that is neither a letter nor a digit, between two letters: "¶" in
# "Bia¶ystok" or "¿" in "Ni¿ny" is a code page read as its sibling. The superscripts and
# vulgar fractions (Unicode category No: "¹" in "t¹iapaneegi") are numbers to Python's
# regular expressions, so they are named: they are symbols, never letters.
_NUMBER_SIGNS = "\u00b2\u00b3\u00b9\u00bc-\u00be"
_LETTER = f"[^\\W\\d_{_NUMBER_SIGNS}]"
# The symbol is matched first and the letters around it looked at only then: most
# positions are letters, which fail the first test at once.
_IN_WORD_SYMBOL = re.compile(f"(?:[^\\x00-\\x7f\\w]|[{_NUMBER_SIGNS}])(?<={_LETTER}.)(?={_LETTER})")


def in_word_symbols(text: str) -> int:
    """How many non-ASCII symbols *text* has inside words (fewer is more plausible)."""
    return len(_IN_WORD_SYMBOL.findall(text))


# Unicode categories, read from the decoded text: C1 controls (U+0080-U+009F) are never
# text; an uppercase letter right after a lowercase one, when one of them is not ASCII
# ("jÄrjestÄ", "mØller" for "möller"), is a code page read as its sibling; a letter of a
# non-Latin script next to an ASCII letter is one script read as another.
_C1_TEXT = re.compile("[\x80-\x9f]")
_NON_ASCII_WORD = re.compile(r"[^\W\d_]*[^\x00-\x7f\W\d_][^\W\d_]*")
_SCRIPT_BREAK = re.compile(
    r"[A-Za-z][^\W\d_\x00-\u024f\u1e00-\u1eff]|[^\W\d_\x00-\u024f\u1e00-\u1eff][A-Za-z]"
)


#: Bytes of words :func:`implausibility` reads, at most (about).
PLAUSIBILITY_SAMPLE = 2048

#: The bytes of a word: ASCII letters and digits, and every byte >= 0x80.
_WORD_BYTES = bytes(sorted(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"))
_WORD_BYTES += bytes(range(0x80, 0x100))


@functools.lru_cache(maxsize=128)
def differing_words(encodings: frozenset[str]) -> re.Pattern[bytes]:
    """A pattern for the words that single-byte *encodings* decode differently: the words
    with a byte >= 0x80 that two of them map to different characters. Only those words
    carry evidence for choosing among them."""
    high = bytes(range(0x80, 0x100))
    tables = [decode(high, encoding) for encoding in encodings]
    differing = bytes(b for i, b in enumerate(high) if len({t[i] for t in tables}) > 1)
    if not differing:
        return re.compile(rb"(?!)")  # matches nothing
    same = bytes(b for b in _WORD_BYTES if b not in differing)
    # A match starts only where a word starts (the lookbehind), and the bytes before the
    # first differing byte are a class disjoint from it: each word is read once, so the
    # search is linear even on a window that is one long word.
    return re.compile(
        b"(?<!" + _byte_class(_WORD_BYTES) + b")"
        + _byte_class(same) + b"*"
        + _byte_class(differing)
        + _byte_class(_WORD_BYTES) + b"*"
    )  # fmt: skip


def _byte_class(values: bytes) -> bytes:
    return b"[" + b"".join(b"\\x%02x" % b for b in values) + b"]" if values else b"(?!)"


def _first(matches: Iterator[re.Match[bytes]], limit: int) -> list[bytes]:
    """The matched words, up to about *limit* bytes."""
    out: list[bytes] = []
    size = 0
    for match in matches:
        out.append(match.group())
        size += len(out[-1]) + 1
        if size >= limit:
            break
    return out


def case_breaks(text: str) -> int:
    """How many words with a non-ASCII letter have an uppercase letter after a lowercase
    one ("mØller", "jÄrjestÄ"; not "Ärger", "ÉCOLE")."""
    count = 0
    for word in _NON_ASCII_WORD.findall(text):
        rest = word[1:]
        if rest != rest.lower() and rest != rest.upper():
            count += 1
    return count


def implausibility(text: str) -> int:
    """How implausible *text* is as a human language, from Unicode properties alone:
    C1 controls, symbols inside words, case breaks inside words and script breaks inside
    words (lower is more plausible)."""
    return (
        4 * len(_C1_TEXT.findall(text))
        + in_word_symbols(text)
        + case_breaks(text)
        + len(_SCRIPT_BREAK.findall(text))
    )


@functools.lru_cache(maxsize=64)
def country_letters(encodings: frozenset[str]) -> frozenset[str]:
    """The non-ASCII letters that every one of the single-byte *encodings* can write."""
    high = bytes(range(0x80, 0x100))
    sets = [frozenset(c for c in decode(high, e) if c.isalpha()) for e in encodings]
    return frozenset.intersection(*sets) if sets else frozenset()


def foreign_letters(text: str, letters: frozenset[str]) -> int:
    """How many non-ASCII letters of *text* are not among *letters*."""
    return sum(1 for c in text if c not in letters and not c.isascii() and c.isalpha())


class Backend(Protocol):
    """A statistical detector: ranks candidate encodings for a window of text."""

    #: The name settings use (``CHARSET_DETECTOR``) and decisions record.
    name: str
    #: True when the backend applies the TLD itself; otherwise the detector applies the
    #: prior to the ranking.
    uses_tld: bool

    def rank(self, text: bytes, tld: str | None) -> Sequence[Candidate]:
        """Candidates for *text*, best first (possibly empty)."""
        ...


def _library_names(names: Sequence[str]) -> list[str]:
    """The library codec names, among *names*, that map to a legacy encoding."""
    return [name for name in names if answer_encoding(name) is not None]


class ChardetngBackend:
    """Firefox's detector. ``guess_assess`` says whether the guess is confident."""

    name = "chardetng"
    uses_tld = True

    def __init__(self) -> None:
        from chardetng_py.detector import EncodingDetector

        self._detector_class = EncodingDetector

    def rank(self, text: bytes, tld: str | None) -> Sequence[Candidate]:
        detector = self._detector_class()
        # Not the last buffer: a body cut short inside its last character (a download
        # that stopped early) must not rule out its encoding; what is pending at the end
        # is then no error. A window cut inside a body ends on a character boundary.
        detector.feed(text, last=False)
        hint = tld.encode("ascii") if tld else None
        try:
            encoding, confident = detector.guess_assess(tld=hint, allow_utf8=False)
        except ValueError:  # a TLD chardetng refuses: guess without it
            encoding, confident = detector.guess_assess(tld=None, allow_utf8=False)
        return [(encoding, 1.0 if confident else 0.5)]


class ChardetBackend:
    """chardet 7 (``detect_all``), restricted to Encoding Standard encodings."""

    name = "chardet"
    uses_tld = False

    def __init__(self) -> None:
        import chardet
        import chardet.registry

        self._detect_all: Callable[..., Any] = chardet.detect_all
        self._include = _library_names(list(chardet.registry.REGISTRY))

    def rank(self, text: bytes, tld: str | None) -> Sequence[Candidate]:
        return self.rank_among(text, self._include)

    def rank_among(self, text: bytes, names: Sequence[str]) -> Sequence[Candidate]:
        """Candidates among the chardet codec *names*, best first."""
        with warnings.catch_warnings():
            # When no candidate survives, chardet answers nothing and warns that its
            # fallback (cp1252) is outside include_encodings: no answer is the result.
            warnings.filterwarnings("ignore", r".* is excluded by include_encodings", UserWarning)
            results = self._detect_all(
                text,
                ignore_threshold=True,
                compat_names=False,
                include_encodings=list(names),
                max_bytes=len(text) + 1,
            )
        return [(r["encoding"], r["confidence"]) for r in results if r.get("encoding")]

    def names_for(self, encodings: frozenset[str]) -> list[str]:
        """The chardet codec names that map to one of *encodings*."""
        return [name for name in self._include if answer_encoding(name) in encodings]


class CharsetNormalizerBackend:
    """charset-normalizer (Scrapy's detector), restricted to Encoding Standard encodings.

    The score is ``1 - chaos`` of each match (charset-normalizer's "mess" ratio).
    """

    name = "charset-normalizer"
    uses_tld = False

    def __init__(self) -> None:
        import charset_normalizer
        from charset_normalizer.constant import IANA_SUPPORTED

        self._from_bytes = charset_normalizer.from_bytes
        self._isolation = _library_names(sorted(set(IANA_SUPPORTED)))

    def rank(self, text: bytes, tld: str | None) -> Sequence[Candidate]:
        matches = self._from_bytes(text, cp_isolation=self._isolation)
        return [(match.encoding, round(1.0 - match.chaos, 4)) for match in matches]


class CchardetBackend:
    """uchardet through ``cchardet``: one answer and its confidence."""

    name = "cchardet"
    uses_tld = False

    def __init__(self) -> None:
        import cchardet

        self._detect: Callable[..., Any] = cchardet.detect

    def rank(self, text: bytes, tld: str | None) -> Sequence[Candidate]:
        result = self._detect(text)
        encoding = result.get("encoding")
        return [(encoding, result.get("confidence"))] if encoding else []


#: Encodings that write the same languages, by family: a TLD tells the language, not
#: which of these code pages a page used. The one table the detector's prior
#: (:func:`same_family`), the sibling refinement (:data:`SIBLINGS`) and the no-prior
#: comparison (:data:`LATIN`) read.
FAMILIES: dict[str, frozenset[str]] = {
    name: frozenset(members.split())
    for name, members in (
        ("western", "windows-1252 ISO-8859-15 macintosh ISO-8859-3 ISO-8859-10 ISO-8859-14"),
        ("central", "windows-1250 ISO-8859-2 ISO-8859-16"),
        ("baltic", "windows-1257 ISO-8859-13 ISO-8859-4"),
        ("turkish", "windows-1254"),
        ("vietnamese", "windows-1258"),
        ("cyrillic", "windows-1251 KOI8-R KOI8-U IBM866 ISO-8859-5 x-mac-cyrillic"),
        ("greek", "windows-1253 ISO-8859-7"),
        ("hebrew", "windows-1255 ISO-8859-8 ISO-8859-8-I"),
        ("arabic", "windows-1256 ISO-8859-6"),
        ("japanese", "Shift_JIS EUC-JP ISO-2022-JP"),
        ("chinese", "GBK gb18030"),
    )
}


def same_family(first: str, second: str) -> bool:
    """True when *first* and *second* are code pages for the same languages."""
    return first == second or any(first in f and second in f for f in FAMILIES.values())


#: The Latin-script single-byte code pages: the answers of chardetng that, without a TLD
#: prior, are its default rather than evidence.
LATIN: frozenset[str] = frozenset().union(
    *(FAMILIES[name] for name in ("western", "central", "baltic", "turkish", "vietnamese"))
)

#: The multi-byte encodings: the plausibility comparison reads single bytes, so it never
#: weighs these.
MULTI_BYTE: frozenset[str] = frozenset(
    ["Shift_JIS", "EUC-JP", "ISO-2022-JP", "EUC-KR", "GBK", "gb18030", "Big5"]
)

#: chardetng's answer -> the code pages for the same languages that chardetng never answers
#: (or confuses with it), among which chardet chooses: its family, and the Baltic code
#: pages for windows-1252 (the same letters at other bytes), ISO-8859-3 for the Central
#: European ones.
SIBLINGS: dict[str, frozenset[str]] = {
    "windows-1252": FAMILIES["western"] | {"windows-1257", "ISO-8859-13"},
    "windows-1250": FAMILIES["central"] | {"ISO-8859-3"},
    "ISO-8859-2": FAMILIES["central"] | {"ISO-8859-3"},
    "windows-1251": frozenset({"windows-1251", "x-mac-cyrillic"}),
}

#: What a page chardetng reads as Latin without a TLD may be: any Latin code page, or
#: Cyrillic (x-mac-cyrillic, which chardetng never answers, reads as Latin letters).
BROAD: frozenset[str] = LATIN | {"windows-1251", "x-mac-cyrillic"}

#: chardet's answers scoring at least this share of its best are weighed by plausibility.
NEAR_BEST = 0.9


class ChardetngChardetBackend:
    """Firefox's detector, then chardet to tell sibling code pages apart.

    chardetng (with the TLD) finds the script and the language family, and is right on
    every common web encoding; it never answers macintosh, x-mac-cyrillic, ISO-8859-3,
    -10, -14, -15 or -16 (Firefox does not detect them). When its answer has such siblings
    (:data:`SIBLINGS`), chardet, restricted to that family, chooses among them; of its
    first three answers and chardetng's, the first that puts the fewest symbols inside
    words (:func:`in_word_symbols`) wins, except for
    windows-1252 text with ISO-8859-15's letters (:func:`latin9_letters`), which the
    detector reads as ISO-8859-15 itself.

    Without a TLD prior (no country TLD, or ``.com``, ``.org``...) chardetng's Latin answer
    is its default (windows-1252) rather than evidence: then chardet ranks all the Latin
    code pages and windows-1251 and x-mac-cyrillic, and among its answers scoring at least
    :data:`NEAR_BEST` of its best, the one whose text is the most plausible
    (:func:`implausibility`, measured on the words the candidates read differently) wins,
    chardet's order breaking ties; chardetng's answer stays when it reads those words the
    same way, or as plausibly while chardet ranks it near the best too.

    With a TLD prior whose code pages are Latin, a country's text is taken to be written
    in letters every one of them can write (:func:`country_letters`): when chardetng's
    reading has other letters ("ù" in Polish) and one of the TLD's code pages reads the
    differing words with none and as plausibly, that code page wins. Then the
    plausibility comparison runs among the TLD's likely encodings
    (:data:`scrapy_charset.sniffing.tld.TLD_PRIORS`, which list the sibling code pages each
    country used) and chardetng's answer; the sibling refinement then only considers the
    siblings the TLD makes likely, so a Hungarian page under ``.hu`` is never read as a
    Baltic code page because chardet scores it higher.

    Without chardet installed this is chardetng alone.
    """

    uses_tld = True

    def __init__(self) -> None:
        self._primary = ChardetngBackend()
        self._chardet: ChardetBackend | None
        try:
            self._chardet = ChardetBackend()
        except ImportError:
            self._chardet = None
        self._broad = self._names(BROAD)
        self._names_cache: dict[frozenset[str], list[str]] = {}
        self.name = "chardetng+chardet" if self._chardet is not None else "chardetng"

    def _names(self, encodings: frozenset[str]) -> list[str]:
        """chardet's names for *encodings*, without those that are subsets of another
        (ascii, latin-1 and latin-5 read as windows-1252 and windows-1254)."""
        return [
            name
            for name in (self._chardet.names_for(encodings) if self._chardet else [])
            if name not in ("ascii", "iso8859-1", "iso8859-9")
        ]

    def rank(self, text: bytes, tld: str | None) -> Sequence[Candidate]:
        ranked = self._primary.rank(text, tld)
        if self._chardet is None or not ranked:
            return ranked
        primary = answer_encoding(ranked[0][0]) or ""
        likely = frozenset(prior(tld))
        if not likely and primary in LATIN:
            return self._plausible_among(text, ranked, self._broad)
        allowed = likely | {primary}
        if likely and len(allowed) > 1 and not allowed & MULTI_BYTE:
            names = self._names_cache.get(allowed)
            if names is None:
                names = self._names_cache[allowed] = self._names(allowed)
            # windows-1252 with ISO-8859-15's letters is read as ISO-8859-15 (by the
            # detector): that reading is the one the siblings must beat.
            reference = (
                "ISO-8859-15" if primary == "windows-1252" and latin9_letters(text) else primary
            )
            if likely <= LATIN:
                lettered = self._country_letters(text, ranked, prior(tld), reference)
                if lettered is not None:
                    return lettered
            plausible = self._plausible_among(text, ranked, names, reference, strict=True)
            if plausible is not ranked:
                return plausible
        if primary == "windows-1252" and latin9_letters(text):
            return ranked  # ISO-8859-15, which the detector reads from the letters
        family = SIBLINGS.get(primary)
        if family is None:
            return ranked
        if likely:
            # The siblings the country used: every Latin code page of the TLD for a Latin
            # answer (they share most bytes), the listed siblings otherwise (chardetng
            # tells the Cyrillic code pages apart itself: their letters are at other bytes).
            family = (family & allowed) | (allowed & LATIN if primary in LATIN else set())

        refined = self._chardet.rank_among(text, self._chardet.names_for(family))
        if not refined:
            return ranked
        # chardet's choice first, then chardetng's, then chardet's next ones; the first with
        # the fewest symbols inside words wins.
        # A sibling that reads the text the same way changes nothing: chardetng's answer,
        # the more common code page, stays.
        options = [*refined[:1], ranked[0], *refined[1:3]]
        texts = [decode(text, answer_encoding(o[0]) or primary) for o in options]
        counts = [in_word_symbols(t) for t in texts]
        best = counts.index(min(counts))
        if texts[best] == texts[1]:
            return ranked
        return [options[best], *ranked]

    def _plausible_among(
        self,
        text: bytes,
        ranked: Sequence[Candidate],
        names: list[str],
        reference: str | None = None,
        *,
        strict: bool = False,
    ) -> Sequence[Candidate]:
        """chardet ranks the code pages called *names*; of its answers scoring at least
        :data:`NEAR_BEST` of its best, and chardetng's, the one whose text is the most
        plausible (:func:`implausibility`) wins, chardet's order breaking ties and
        chardetng's answer staying when it reads the text the same way. *ranked* itself
        is returned when chardetng's answer stays.

        *reference* is the reading to beat (chardetng's answer unless given); with
        *strict* (a TLD prior: chardetng already weighed the country), only a strictly
        more plausible reading replaces it."""
        assert self._chardet is not None
        primary = reference or answer_encoding(ranked[0][0]) or "windows-1252"
        if strict and not self._could_beat(text, primary, names):
            return ranked
        broad = self._chardet.rank_among(text, names)
        top = broad[0][1] or 0.0 if broad else 0.0
        options: dict[str, Candidate] = {}
        for label, score in broad:
            encoding = answer_encoding(label)
            if (
                encoding is not None
                and encoding not in options
                and (score or 0.0) >= top * NEAR_BEST
            ):
                options[encoding] = (label, score)
        if not options or set(options) == {primary}:
            return ranked
        words = differing_words(frozenset([primary, *options]))
        sample = b" ".join(_first(words.finditer(text), PLAUSIBILITY_SAMPLE))
        if not sample:
            return ranked  # every option reads the window the same way
        best, lowest = self._most_plausible(sample, options)
        current = decode(sample, primary)
        if best == primary or decode(sample, best) == current:
            return ranked
        own = implausibility(current)
        if own < lowest or (own == lowest and (strict or primary in options)):
            return ranked
        return [options[best], *ranked]

    @staticmethod
    def _country_letters(
        text: bytes, ranked: Sequence[Candidate], likely: tuple[str, ...], reference: str
    ) -> Sequence[Candidate] | None:
        """A country's text is written in letters every one of its code pages can write
        (:func:`country_letters`). When chardetng's reading has letters outside them and
        another of the TLD's code pages reads the differing words with none, and no less
        plausibly, the most plausible such code page wins, unless another one as plausible
        reads them otherwise; else None."""
        letters = country_letters(frozenset(likely))
        words = differing_words(frozenset([*likely, reference]))
        sample = b" ".join(_first(words.finditer(text), PLAUSIBILITY_SAMPLE // 4))
        if not sample:
            return None
        current = decode(sample, reference)
        if foreign_letters(current, letters) == 0:
            return None
        lowest = implausibility(current)
        best: dict[str, str] = {}  # encoding -> its reading, among the most plausible
        for encoding in likely:
            reading = decode(sample, encoding)
            if reading == current or foreign_letters(reading, letters) > 0:
                continue
            score = implausibility(reading)
            if score < lowest:
                best, lowest = {}, score
            if score == lowest:
                best[encoding] = reading
        # Two clean readings that differ (Czech "š" in ISO-8859-2, "ą" in windows-1250)
        # are no evidence: the next steps decide.
        if not best or len(set(best.values())) > 1:
            return None
        return [(next(iter(best)), None), *ranked]

    def _could_beat(self, text: bytes, primary: str, names: list[str]) -> bool:
        """True when one of the encodings *names* reads the words they read differently
        strictly more plausibly than *primary*: only then is chardet consulted (the
        common case, a page chardetng reads as plausible text, costs no chardet run)."""
        encodings = frozenset(e for e in map(answer_encoding, names) if e is not None)
        words = differing_words(encodings | {primary})
        sample = b" ".join(_first(words.finditer(text), PLAUSIBILITY_SAMPLE // 4))
        if not sample:
            return False
        own = implausibility(decode(sample, primary))
        if own == 0:
            return False
        return any(implausibility(decode(sample, e)) < own for e in encodings - {primary})

    @staticmethod
    def _most_plausible(sample: bytes, options: dict[str, Candidate]) -> tuple[str, int]:
        """The option whose text of *sample* is the most plausible, the first on ties."""
        best, lowest = "", -1
        for encoding in options:
            score = implausibility(decode(sample, encoding))
            if lowest < 0 or score < lowest:
                best, lowest = encoding, score
        return best, lowest


#: Backend name -> class. ``"default"`` is resolved by :func:`make_backend`.
BACKENDS: dict[str, Callable[[], Backend]] = {
    "chardetng+chardet": ChardetngChardetBackend,
    "chardetng": ChardetngBackend,
    "chardet": ChardetBackend,
    "charset-normalizer": CharsetNormalizerBackend,
    "cchardet": CchardetBackend,
}


def make_backend(name: str) -> Backend:
    """Build the backend called *name*; ImportError when its library is not installed,
    ValueError when no backend has that name."""
    try:
        factory = BACKENDS[name]
    except KeyError:
        known = ", ".join(sorted([*BACKENDS, "default", "none"]))
        raise ValueError(f"unknown charset detector {name!r}; use one of: {known}") from None
    return factory()
