"""Legacy CJK and Cyrillic bytes read as windows-1252: the readings, and the choice.

The damaged text is re-encoded as windows-1252 and decoded with each legacy encoding a
page may have been in (GBK, Big5, Shift_JIS, EUC-KR, EUC-JP, windows-1251, KOI8-U,
IBM866); a reading is kept when it is plausible text of its script, and the choice among
several is made by character frequency (the level-1 sets the standards order by
frequency) and, on long text, by a frequency-based detector. The repair chooses an
encoding, so it is applied only on request (``legacy=True``).

Clean Latin text that windows-1252 encodes whole (French, German, Spanish paragraphs) is
turned away cheaply, with the same answers as the full readings:

- the Cyrillic readings are not tried when a windows-1252 character sits next to an ASCII
  letter and every Cyrillic reading makes it a Cyrillic letter (then one word mixes two
  alphabets) or a character Cyrillic text does not hold (``_LATIN_WORD``): the é of
  "été", the ß of "Straße". Single-byte readings keep positions and ASCII, so the test
  runs on the text itself, before any decoding;
- the CJK readings count the text's ASCII letters once, on the bytes, and only when a
  decoding succeeds.

These tests are not detection's (:func:`scrapy_charset.sniffing.detectors.implausibility`,
which scores every candidate decoding of a body and keeps the lowest): here each reading is
accepted or refused alone by its own script's shape (a CJK reading holds only characters
its repertoire is expected to hold, no CJK run glued to ASCII letters; a Cyrillic reading
holds words of Cyrillic letters only, of one case shape). The one test both make, a case
break, is defined differently on each side: sharing it would change one side's answers.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from scrapy_charset.items.mojibake.chardata import (
    WINDOWS_1252_HIGH,
    Finding,
    MojibakeKind,
    encode_windows_1252,
)
from scrapy_charset.whatwg.strict import decode_strict

__all__ = ["legacy_as_windows_1252", "may_read"]


def _is_han(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf" or "\uf900" <= c <= "\ufaff"


def _is_kana(c: str) -> bool:
    return "\u3040" <= c <= "\u30ff" or "\u31f0" <= c <= "\u31ff"


def _is_hangul(c: str) -> bool:
    return "\uac00" <= c <= "\ud7af" or "\u1100" <= c <= "\u11ff" or "\u3130" <= c <= "\u318f"


def _is_cjk_punct(c: str) -> bool:
    return "\u3000" <= c <= "\u303f" or "\uff01" <= c <= "\uff60" or c in "·×÷—…‘’“”※"


def _is_cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u04ff"


def _cjk_ok(c: str, encoding: str) -> bool:
    if _is_cjk_punct(c):
        return True
    if encoding == "EUC-KR":
        return _is_hangul(c)  # Korean text on the web is written in Hangul, not Hanja
    if _is_han(c):
        return True
    if encoding in ("Shift_JIS", "EUC-JP"):
        return _is_kana(c)
    return False


_WORD = re.compile(r"[^\W\d_]+")
_CYRILLIC_PUNCT = set("«»—–“”„…№\u00a0’‘•")

# (WHATWG name, Python codec): the order breaks ties. Readings decode with the standard's
# decoders (decode_strict); the Python codecs only encode characters back to find their
# frequency rows.
_CJK = (
    ("GBK", "gbk"),
    ("Big5", "big5"),
    ("Shift_JIS", "cp932"),
    ("EUC-KR", "cp949"),
    ("EUC-JP", "euc_jp"),
)
_CYRILLIC = (("windows-1251", "cp1251"), ("KOI8-U", "koi8_u"), ("IBM866", "cp866"))
_CYRILLIC_NAMES = frozenset(name for name, _ in _CYRILLIC)


def _ascii_letters_around(text: str, start: int, end: int) -> tuple[bool, bool]:
    """Whether an ASCII letter is right before ``text[start:end]``, and right after."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before.isascii() and before.isalpha(), after.isascii() and after.isalpha()


def _plausible_cjk(decoded: str, encoding: str, consumed: bool) -> bool:
    """*consumed*: ASCII letters became trail bytes; then no CJK run may touch a letter
    ("Ámárico" is not Big5, though "Ám" and "ár" are valid Big5 pairs)."""
    han = 0
    for run in re.finditer(r"[^\x00-\x7f]+", decoded):
        before, after = _ascii_letters_around(decoded, run.start(), run.end())
        if (before and after) or ((consumed or len(run.group()) < 2) and (before or after)):
            return False
        for c in run.group():
            if not _cjk_ok(c, encoding):
                return False
            han += not _is_cjk_punct(c)
    if encoding in ("Shift_JIS", "EUC-JP") and not _plausible_japanese(decoded):
        return False
    return han >= 2


# Kana that cannot come where they are: a small ya/yu/yo after anything but an i-row
# kana, a small vowel or sokuon at the start, a prolonged sound mark after no katakana.
_BAD_KANA = re.compile(
    "(?:^|[^きしちにひみりぎじぢびぴ])[ゃゅょ]|(?:^|[^キシチニヒミリギジヂビピテデフヴウ])[ャュョ]"
    "|(?:^|[^\u3040-\u30ff])[ぁぃぅぇぉっァィゥェォッー]|^[んをンヲ]"
)


def _kana_class(c: str) -> str:
    if "\u3041" <= c <= "\u309f":
        return "h"
    if "\u30a1" <= c <= "\u30ff" and c not in "ヶヵ":
        return "k"
    return "x"


def _plausible_japanese(decoded: str) -> bool:
    """Kana where Japanese puts them: no impossible small kana, no lone katakana between
    kanji, not a different kind of character at every step ("い仇チ郁" is Big5 中華民國)."""
    if _BAD_KANA.search(decoded):
        return False
    classes = [_kana_class(c) for c in decoded if not c.isascii() and not _is_cjk_punct(c)]
    for i in range(1, len(classes) - 1):
        if classes[i] == "k" and classes[i - 1] != "k" and classes[i + 1] != "k":
            return False
    switches = sum(a != b for a, b in itertools.pairwise(classes))
    return not (len(classes) >= 3 and switches == len(classes) - 1)


#: Letters of the longest Cyrillic word a legacy reading needs: shorter ones come from
#: symbols and digits by chance ("1\u00a0234,50\u00a0£" reads "1а234,50аг" in IBM866).
MIN_CYRILLIC_WORD = 3
_DIGIT_LETTER = re.compile(r"\d[^\W\d_]|[^\W\d_]\d")
#: A character neither ASCII, Cyrillic nor Cyrillic text's punctuation.
_NOT_CYRILLIC = re.compile(
    f"[^\x00-\x7f\u0400-\u04ff{re.escape(''.join(sorted(_CYRILLIC_PUNCT)))}]"
)


def _plausible_cyrillic(decoded: str) -> bool:
    """Words of Cyrillic letters only, in one of the three cases, not glued to digits,
    and one of :data:`MIN_CYRILLIC_WORD` letters at least."""
    if _NOT_CYRILLIC.search(decoded):
        return False
    if _DIGIT_LETTER.search(decoded):
        return False
    longest = 0
    for word in _WORD.findall(decoded):
        cyrillic = sum(1 for c in word if _is_cyrillic(c))
        if not cyrillic:
            continue
        if cyrillic != len(word):
            return False  # Latin and Cyrillic letters in one word
        # Words are lowercase, Capitalised or UPPERCASE: no upper after a lower letter.
        if any(a.islower() and b.isupper() for a, b in itertools.pairwise(word)):
            return False
        longest = max(longest, cyrillic)
    return longest >= MIN_CYRILLIC_WORD


def _rejects_next_to_latin(byte: int) -> bool:
    """True when *byte*, next to an ASCII letter, makes every Cyrillic reading
    implausible: each reads it as a Cyrillic letter (one word with the ASCII letter), as a
    character that is neither Cyrillic nor Cyrillic text's punctuation, or not at all."""
    for name, _ in _CYRILLIC:
        char = decode_strict(bytes([byte]), name)
        if char is None:
            continue
        if char in _CYRILLIC_PUNCT or (_is_cyrillic(char) and not _WORD.fullmatch(char)):
            return False
    return True


_NEXT_TO_LATIN = "".join(
    sorted(
        {WINDOWS_1252_HIGH[b - 0x80] for b in range(0x80, 0x100) if _rejects_next_to_latin(b)}
        | {chr(b) for b in range(0x80, 0x100) if _rejects_next_to_latin(b)}
    )
)
#: The pre-filter of the Cyrillic readings: a windows-1252 character that every reading
#: turns into a Cyrillic letter or a foreign character, next to an ASCII letter (the é of
#: "été", the ß of "Straße": a Latin word, in every Cyrillic reading). The bytes are the
#: text's one to one, and ASCII reads as ASCII in each.
_LATIN_WORD = re.compile(
    f"[A-Za-z][{re.escape(_NEXT_TO_LATIN)}]|[{re.escape(_NEXT_TO_LATIN)}][A-Za-z]"
)


#: Bytes from which chardetng's guess is trusted among plausible readings.
_LONG = 40
#: Encodings whose frequent characters mostly have lead bytes that windows-1252 shows as
#: symbols (Shift_JIS's are letters: 0x88-0x9F and 0xE0-0xEA).
_SYMBOL_LEADS = frozenset({"Big5", "GBK"})
#: Share of frequent characters a CJK reading must exceed when ASCII letters became trail
#: bytes ("Šmíd" reads as one frequent and one rare kanji in Shift_JIS).
MIN_COMMONNESS_WITH_ASCII_TRAILS = 0.5


def _chardetng_guess(raw: bytes) -> str | None:
    try:
        import chardetng_py
    except ImportError:  # pragma: no cover - optional
        return None
    return str(chardetng_py.detect(raw, allow_utf8=False))


#: A text whose characters outside ASCII are one symbol (not a letter) written this many
#: times or more (and the punctuation of :data:`QUOTES_AND_MARKS`) has no legacy
#: reading: a run such as "¤¤¤" (a currency placeholder), "²²²" or "•••" is written as it
#: is, while a legacy reading makes letters of it ("єєє" in KOI8-U, "眷深" in Big5,
#: "ХХХ" in windows-1251). A shorter run makes no reading on its own (one needs two CJK
#: characters or a Cyrillic word of three letters). A letter repeated is a legacy lead
#: byte: "ƒ" is Shift_JIS's 0x83, the katakana lead ("ƒAƒtƒKƒj" is アフガニ).
MIN_SYMBOL_RUN = 3
#: The quotes, dashes and marks that Latin text attaches to a name or a line, left out of
#: the test above ("'¤¤¤'®", "“²²²”").
QUOTES_AND_MARKS = frozenset("‘’‚“”„«»‹›–—…®™©")


def _one_symbol_run(text: str) -> bool:
    """*text*'s characters outside ASCII, but :data:`QUOTES_AND_MARKS`, are one
    symbol, :data:`MIN_SYMBOL_RUN` times or more."""
    high = [c for c in text if c > "\x7f" and c not in QUOTES_AND_MARKS]
    return (
        len(high) >= MIN_SYMBOL_RUN
        and len(set(high)) == 1
        and not unicodedata.category(high[0]).startswith("L")
    )


def legacy_as_windows_1252(text: str) -> Finding | None:
    """Legacy CJK or Cyrillic bytes read as windows-1252: the finding, or None."""
    raw = encode_windows_1252(text)
    if raw is None:
        return None
    candidates = (_cjk_readings(text, raw) if _CJK_PAIR.search(raw) else []) + (
        _cyrillic_readings(text, raw) if _CYRILLIC_WORD.search(raw) else []
    )
    if not candidates or _one_symbol_run(text):
        return None
    name, decoded = _choose(raw, candidates) or (None, None)
    return Finding(MojibakeKind.LEGACY_AS_WINDOWS_1252, decoded, encoding=name)


#: Two characters of a legacy CJK encoding (a lead byte and a trail byte, or gb18030's four
#: bytes), which a plausible CJK reading holds; three bytes above 0x7F in a row, a Cyrillic
#: reading's word. Necessary conditions: without them a reading is not even decoded.
_CJK_CHARACTER = rb"[\x81-\xfe](?:[\x40-\xfe]|[\x30-\x39][\x81-\xfe][\x30-\x39])"
_CJK_PAIR = re.compile(rb"%s.*?%s" % (_CJK_CHARACTER, _CJK_CHARACTER), re.DOTALL)
_CYRILLIC_WORD = re.compile(rb"[\x80-\xff]{%d}" % MIN_CYRILLIC_WORD)


def may_read(raw: bytes) -> bool:
    """Some legacy reading of the windows-1252 bytes *raw* may be plausible (the
    pre-filter asks before it calls a text a legacy suspect)."""
    return _CJK_PAIR.search(raw) is not None or _CYRILLIC_WORD.search(raw) is not None


_ASCII_LETTERS = bytes(range(0x41, 0x5B)) + bytes(range(0x61, 0x7B))


def _ascii_letters(raw: bytes) -> int:
    return len(raw) - len(raw.translate(None, _ASCII_LETTERS))


def _cjk_readings(text: str, raw: bytes) -> list[tuple[str, str]]:
    """(encoding, text) for each plausible legacy CJK reading of *raw*."""
    candidates: list[tuple[str, str]] = []
    letters = -1
    for name, _ in _CJK:
        decoded = decode_strict(raw, name)
        if decoded is None:
            continue
        if letters < 0:
            letters = _ascii_letters(raw)  # the windows-1252 bytes are the text's, one to one
        consumed = _ascii_letters(decoded.encode("ascii", "ignore")) < letters
        if consumed and name in _SYMBOL_LEADS and all(c.isalpha() for c in text if c > "~"):
            # An ASCII letter is a trail byte only after a lead byte, and most frequent
            # characters' lead bytes (0xA4-0xBF in Big5, 0xB0-0xBF in GBK) are symbols in
            # windows-1252 ("¶V«n" is 越南): text of letters only ("Àhàn") is a Latin word.
            continue
        if consumed and name == "EUC-KR":
            # ASCII trail bytes make the UHC extension's rare syllables ("ÅLÂN" reads
            # "휤헞"): the 2,350 syllables of KS X 1001 in use have high trail bytes.
            continue
        if not _plausible_cjk(decoded, name, consumed):
            continue
        # ASCII letters read as trail bytes ("¶V«n" is Big5 for 越南) must give frequent
        # characters: "Írán" and "öböl" make valid but rare ones.
        if consumed and _commonness(decoded, name) <= MIN_COMMONNESS_WITH_ASCII_TRAILS:
            continue
        candidates.append((name, decoded))
    return candidates


def _cyrillic_readings(text: str, raw: bytes) -> list[tuple[str, str]]:
    """(encoding, text) for each plausible legacy Cyrillic reading, the most lowercase
    ones only: running text is mostly lowercase, and the readings differ in case."""
    candidates: list[tuple[str, str]] = []
    if _LATIN_WORD.search(text):
        return candidates
    for name, _ in _CYRILLIC:
        decoded = decode_strict(raw, name)
        if decoded is None:
            continue
        if _plausible_cyrillic(decoded):
            candidates.append((name, decoded))
    if len(candidates) > 1:
        best = max(sum(ch.islower() for ch in c[1]) for c in candidates)
        candidates = [c for c in candidates if sum(ch.islower() for ch in c[1]) == best]
    return candidates


def _choose(raw: bytes, candidates: list[tuple[str, str]]) -> tuple[str, str] | None:
    """One reading among plausible ones, ``(encoding, text)``, or None when none is told
    apart from the others.

    A frequency-based detector (Firefox's chardetng) is right on long text; on short
    text, prefer the reading made of the encoding's frequent characters (GB2312 and Big5
    level 1, JIS X 0208 kana and level-1 kanji, KS X 1001 Hangul), and ask the detector
    only to break a tie.
    """
    if len(candidates) == 1:
        return candidates[0]
    guess = _chardetng_guess(raw)
    if guess == "gb18030":
        guess = "GBK"
    by_name = dict(candidates)
    if guess is not None and len(raw) >= _LONG and guess in by_name:
        return guess, by_name[guess]
    scores = [_commonness(decoded, name) for name, decoded in candidates]
    best_score = max(scores)
    candidates = [c for c, score in zip(candidates, scores, strict=True) if score == best_score]
    if len(candidates) == 1:
        return candidates[0]
    for name, decoded in candidates:
        if name == guess:
            return name, decoded
    if all(name in _CYRILLIC_NAMES for name, _ in candidates):
        return candidates[0]  # the most used first: windows-1251, KOI8-U, IBM866
    return None


# Frequent-character ranges of each legacy double-byte encoding, as (first, last) byte
# pairs: the level-1 sets the standards order by frequency of use.
_FREQUENT: dict[str, tuple[tuple[bytes, bytes], ...]] = {
    "GBK": ((b"\xb0\xa1", b"\xd7\xfe"),),  # GB 2312 level-1 hanzi
    "Big5": ((b"\xa4\x40", b"\xc6\x7e"),),  # Big5 frequently used hanzi
    "Shift_JIS": ((b"\x82\x9f", b"\x83\x96"), (b"\x88\x9f", b"\x98\x72")),  # kana, level 1
    "EUC-JP": ((b"\xa4\xa1", b"\xa5\xf6"), (b"\xb0\xa1", b"\xcf\xd3")),
    "EUC-KR": ((b"\xb0\xa1", b"\xc8\xfe"),),  # KS X 1001 Hangul
}
_PY_CODEC = dict(_CJK)
_EUC_ROWS = frozenset({"GBK", "EUC-JP"})
_SYMBOL_ROWS = {
    "GBK": (b"\xa1", b"\xa2", b"\xa3"),
    "Big5": (b"\xa1", b"\xa2", b"\xa3"),
    "Shift_JIS": (b"\x81",),
    "EUC-JP": (b"\xa1", b"\xa2"),
}


# Hangul syllables rare in running text: double or aspirated final consonants, the
# vowels yae, wae and we, the tense initials pp and jj (Unicode syllable arithmetic).
_RARE_FINALS = frozenset({2, 3, 5, 6, 9, 10, 11, 12, 13, 14, 15, 18, 24, 25, 26, 27})
_RARE_MEDIALS = frozenset({3, 10, 15})
_RARE_INITIALS = frozenset({8, 13})


def _rare_hangul(c: str) -> bool:
    s = ord(c) - 0xAC00
    if not 0 <= s < 11172:
        return False
    return s % 28 in _RARE_FINALS or (s % 588) // 28 in _RARE_MEDIALS or s // 588 in _RARE_INITIALS


def _commonness(decoded: str, name: str) -> float:
    if name == "EUC-KR":
        hangul = [c for c in decoded if _is_hangul(c)]
        return 1 - sum(map(_rare_hangul, hangul)) / len(hangul) if hangul else 0.0
    ranges = _FREQUENT.get(name)
    if ranges is None:
        return 1.0
    codec = _PY_CODEC[name]
    total = frequent = 0
    for c in decoded:
        if c.isascii() or _is_cjk_punct(c):
            continue
        try:
            raw = c.encode(codec)
        except UnicodeEncodeError:
            # The standard's decoder reads more than the codec encodes (Big5's HKSCS
            # extension): no frequent row holds such a character.
            total += 1
            continue
        if raw[:1] in _SYMBOL_ROWS[name]:
            continue  # punctuation rows ("・", "’") count for no reading
        total += 1
        if name in _EUC_ROWS and (len(raw) != 2 or raw[1] < 0xA1):
            continue  # GBK's and EUC's extensions below 0xA1 are not the frequent rows
        frequent += any(low <= raw <= high for low, high in ranges)
    return frequent / total if total else 0.0
