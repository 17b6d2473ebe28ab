"""Mojibake: the kinds, how each is recognised, and the repairs that are safe.

Mojibake is text whose bytes were decoded with the wrong encoding. Each kind is named after
how it was made, so that the name says what to fix upstream:

- ``utf8-as-windows-1252``: UTF-8 bytes decoded as windows-1252 or latin-1 ("CafÃ©",
  "â€™"); latin-1 decoding leaves C1 controls where windows-1252 has letters, and the
  browser's windows-1252 keeps 0x81, 0x8D, 0x8F, 0x90 and 0x9D as C1 controls too.
- ``utf8-double-encoded``: the above, twice ("Ã¢â‚¬â„¢").
- ``utf8-as-windows-1251``: UTF-8 bytes decoded as windows-1251 ("РџСЂРёРІРµС‚").
- ``utf8-as-other``: UTF-8 bytes decoded as another single-byte encoding (windows-1250,
  -1253, -1254, -1257, ISO-8859-2, macintosh, cp437).
- ``utf8-as-shift_jis``: UTF-8 bytes decoded as Shift_JIS ("譌･譛ｬ", "Cafﾃｩ").
- ``legacy-as-windows-1252``: legacy CJK or Cyrillic bytes (GBK, Big5, Shift_JIS, EUC-JP,
  EUC-KR, windows-1251, KOI8-U, IBM866) decoded as windows-1252 ("ÖÐ¹ú", "Ïðèâåò").
- ``c1-controls``: stray C1 control characters (U+0080 to U+009F), most often windows-1252
  bytes decoded as latin-1.

The UTF-8 kinds are found and undone with ftfy's ``fix_encoding`` steps (its other fixers,
which change clean text, are never used), then token by token with this module's own
check for what ftfy leaves as too uncertain; Shift_JIS, the legacy kinds and C1 controls with
this module's own code. Repairs of the first three kinds are exact inverses (re-encode the
damaged segment, decode it as UTF-8), so they are the only ones applied by default; the
others guess an encoding and are applied only on request (``legacy=True``).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

import ftfy

__all__ = [
    "KINDS",
    "LEGACY_KINDS",
    "SAFE_KINDS",
    "Finding",
    "find_mojibake",
    "suspicious",
]

UTF8_AS_WINDOWS_1252 = "utf8-as-windows-1252"
UTF8_DOUBLE_ENCODED = "utf8-double-encoded"
UTF8_AS_WINDOWS_1251 = "utf8-as-windows-1251"
UTF8_AS_OTHER = "utf8-as-other"
UTF8_AS_SHIFT_JIS = "utf8-as-shift_jis"
LEGACY_AS_WINDOWS_1252 = "legacy-as-windows-1252"
C1_CONTROLS = "c1-controls"

KINDS = (
    UTF8_AS_WINDOWS_1252,
    UTF8_DOUBLE_ENCODED,
    UTF8_AS_WINDOWS_1251,
    UTF8_AS_OTHER,
    UTF8_AS_SHIFT_JIS,
    LEGACY_AS_WINDOWS_1252,
    C1_CONTROLS,
)
# Exact inverses of how the damage was made: repaired by default.
SAFE_KINDS = frozenset({UTF8_AS_WINDOWS_1252, UTF8_DOUBLE_ENCODED, UTF8_AS_WINDOWS_1251})
# Repairs that choose an encoding: only on request.
LEGACY_KINDS = frozenset(KINDS) - SAFE_KINDS


@dataclass(frozen=True, slots=True)
class Finding:
    """One kind of mojibake found in a text, and its repair when one exists."""

    kind: str
    repaired: str | None
    lossy: bool = False
    encoding: str | None = None


# --- The fast path -----------------------------------------------------------------------

# Browser windows-1252 (Encoding Standard index): bytes 0x80-0xFF, with 0x81, 0x8D, 0x8F,
# 0x90 and 0x9D mapped to the C1 controls of the same value.
_WINDOWS_1252_HIGH = "".join(
    bytes([b]).decode("cp1252", "ignore") or chr(b) for b in range(0x80, 0x100)
)
# Browser windows-1251: 0x98 is U+0098.
_WINDOWS_1251_HIGH = "".join(
    bytes([b]).decode("cp1251", "ignore") or chr(b) for b in range(0x80, 0x100)
)
_TO_1251 = str.maketrans({c: chr(0x80 + i) for i, c in enumerate(_WINDOWS_1251_HIGH)})


def _chars(table: str, low: int, high: int) -> str:
    chars = (table[b - 0x80] for b in range(low, high + 1) if b >= 0x80)
    return re.escape("".join(c for c in chars if c != "\ufffd"))


# A UTF-8 lead byte then a continuation byte, as windows-1252 (or latin-1) or windows-1251
# shows them: every UTF-8 mojibake of a non-ASCII character contains such a pair.
_LEAD_1252 = _chars(_WINDOWS_1252_HIGH, 0xC2, 0xF4)
_CONT_1252 = _chars(_WINDOWS_1252_HIGH, 0x80, 0xBF) + "\u0080-\u009f"
_LEAD_1251 = _chars(_WINDOWS_1251_HIGH, 0xC2, 0xF4)
_CONT_1251 = _chars(_WINDOWS_1251_HIGH, 0x80, 0xBF)
_NON_ASCII_1252 = re.escape(_WINDOWS_1252_HIGH[0x21:]) + "\u0080-\u009f" + _CONT_1252

_UTF8_PAIR = re.compile(f"[{_LEAD_1252}][{_CONT_1252}]|[{_LEAD_1251}][{_CONT_1251}]")
_SUSPICIOUS = re.compile(
    f"[{_LEAD_1252}][{_CONT_1252}]"
    f"|[{_LEAD_1251}][{_CONT_1251}]"
    # two windows-1252 characters in a row: every legacy double-byte character
    f"|[{_NON_ASCII_1252}]{{2}}"
    # Big5, GBK and Shift_JIS trail bytes can be ASCII: "¶V«n" is Big5 for 越南
    f"|[{_NON_ASCII_1252}][\x40-\x7e][{_NON_ASCII_1252}]"
    "|[\u0080-\u009f\ufffd]"
    # CJK and half-width forms: UTF-8 read as Shift_JIS
    "|[\u3000-\u9fff\uff00-\uffef]"
)


def suspicious(text: str) -> bool:
    """False when *text* cannot hold any kind of mojibake this module knows (fast)."""
    return not text.isascii() and _SUSPICIOUS.search(text) is not None


# --- UTF-8 read as a single-byte encoding (ftfy) -------------------------------------------

_FTFY_CONFIG = ftfy.TextFixerConfig(
    unescape_html=False,
    remove_terminal_escapes=False,
    fix_encoding=True,
    restore_byte_a0=False,  # a guess: a space may or may not have been a no-break space
    replace_lossy_sequences=False,  # would write U+FFFD into the text
    decode_inconsistent_utf8=True,  # segment by segment, for partly damaged text
    fix_c1_controls=False,
    fix_latin_ligatures=False,
    fix_character_width=False,
    uncurl_quotes=False,
    fix_line_breaks=False,
    fix_surrogates=False,
    remove_control_chars=False,
    normalization=None,
    explain=True,
)

_AS_1252 = {"latin-1", "sloppy-windows-1252", "windows-1252"}


def _ftfy_step(text: str) -> tuple[str, int, str, bool] | None:
    """ftfy's encoding fixes: (repaired, rounds, kind, segment by segment) or None."""
    explained = ftfy.fix_encoding_and_explain(text, config=_FTFY_CONFIG)
    plan = explained.explanation or []
    rounds = 0
    kind = UTF8_AS_WINDOWS_1252
    done: list[tuple[str, str]] = []
    encode = ""
    segments = False
    for step in plan:
        operation, name = step
        if operation == "encode":
            encode = name
        elif operation == "decode" and name.startswith("utf-8"):
            if rounds == 0 and encode not in _AS_1252:
                kind = UTF8_AS_WINDOWS_1251 if encode == "sloppy-windows-1251" else UTF8_AS_OTHER
            rounds += 1
        elif operation == "apply" and name == "decode_inconsistent_utf8":
            rounds += 1
            segments = True
        elif operation == "decode":
            # latin-1 -> windows-1252: ftfy's C1-control step, not UTF-8; stop before it.
            break
        elif operation != "transcode":
            break
        done.append((operation, name))
    if rounds == 0:
        return None
    fixed = ftfy.apply_plan(text, done) if len(done) < len(plan) else explained.text
    return fixed, rounds, kind, segments


def _sequence_pattern(table: str, extra_cont: str = "", *, one: bool = False) -> re.Pattern[str]:
    """UTF-8 byte sequences, as a single-byte decoder shows them, one or more in a row."""
    lead2 = _chars(table, 0xC2, 0xDF)
    lead3 = _chars(table, 0xE0, 0xEF)
    lead4 = _chars(table, 0xF0, 0xF4)
    cont = _chars(table, 0x80, 0xBF) + extra_cont
    sequence = f"(?:[{lead2}][{cont}]|[{lead3}][{cont}]{{2}}|[{lead4}][{cont}]{{3}})"
    return re.compile(sequence if one else sequence + "+")


_SEQUENCES = (
    (UTF8_AS_WINDOWS_1252, _sequence_pattern(_WINDOWS_1252_HIGH, "\u0080-\u009f")),
    (UTF8_AS_WINDOWS_1251, _sequence_pattern(_WINDOWS_1251_HIGH)),
)
_TOKEN = re.compile("[^ \t\r\n]+")
_ONE_SEQUENCE = {
    UTF8_AS_WINDOWS_1252: _sequence_pattern(_WINDOWS_1252_HIGH, "\u0080-\u009f", one=True),
    UTF8_AS_WINDOWS_1251: _sequence_pattern(_WINDOWS_1251_HIGH, one=True),
}
# Mojibake is made of the single-byte encoding's characters only: text outside its
# repertoire (legitimate CJK next to a damaged name) bounds a token as spaces do.
_ENCODABLE_TOKEN = {
    UTF8_AS_WINDOWS_1252: re.compile(f"[!-~\u0080-\u00ff{re.escape(_WINDOWS_1252_HIGH[:0x20])}]+"),
    UTF8_AS_WINDOWS_1251: re.compile(f"[!-~{re.escape(_WINDOWS_1251_HIGH)}]+"),
}


def _script(c: str) -> str:
    """The script of a letter ("LATIN", "CYRILLIC", "HAN"...), or "" for anything else."""
    if c.isascii():
        return "LATIN" if c.isalpha() else ""
    if unicodedata.category(c) not in ("Lu", "Ll", "Lt", "Lo"):
        return ""
    first = unicodedata.name(c, " ").split(" ", 1)[0]
    if first in ("CJK", "HIRAGANA", "KATAKANA", "IDEOGRAPHIC", "HALFWIDTH"):
        return "HAN"
    return first


def _coherent_token(token: str, *, strong: bool = False) -> bool:
    """The non-ASCII letters of *token* are in one script; next to ASCII letters, a
    non-Latin script counts only with two letters or more ("CFPフラン", not "Straߓ"),
    unless *strong* (every repaired sequence was three bytes or more)."""
    scripts = [_script(c) for c in token if not c.isascii()]
    found = set(scripts) - {""}
    if len(found) > 1:
        return False
    if strong:
        return True
    if found and found != {"LATIN"} and any(c.isascii() and c.isalpha() for c in token):
        return len(scripts) - scripts.count("") >= 2
    return True


def _decode_segment(segment: str, kind: str) -> str | None:
    raw = (
        encode_windows_1252(segment)
        if kind == UTF8_AS_WINDOWS_1252
        else _encode_windows_1251(segment)
    )
    if raw is None:
        return None
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if any(unicodedata.category(c) in ("Cc", "Cn", "Co", "Cs") for c in decoded):
        return None
    return decoded


def _segment_step(text: str) -> tuple[str, str] | None:
    """Repair UTF-8 sequences segment by segment, where every token stays coherent.

    A token (a run of non-space characters) touched by a repair must have no other
    non-ASCII letter left unrepaired, and its letters must come out in one script:
    "Ã…land" -> "Åland" passes, "Straße“" (ß and “ form a valid sequence) does not.
    """
    for kind, pattern in _SEQUENCES:
        if not pattern.search(text):
            continue
        out: list[str] = []
        damaged: list[str] = []
        last = 0
        for token in _ENCODABLE_TOKEN[kind].finditer(text):
            if token.group().isascii():
                continue
            repaired = _repair_token(token.group(), kind, pattern)
            if repaired is not None:
                out += [text[last : token.start()], repaired]
                damaged.append(token.group())
                last = token.end()
        if out and (kind != UTF8_AS_WINDOWS_1251 or _enough_1251(damaged, out[1::2])):
            out.append(text[last:])
            return "".join(out), kind
    return None


def _enough_1251(damaged: list[str], repaired: list[str]) -> bool:
    """Evidence of windows-1251 damage in the tokens repaired.

    Cyrillic text holds valid windows-1251 pairs by chance ("Сі" is D1 B3, "дії" is
    E4 B3 BF, "В" and a no-break space are C2 A0): one repaired sequence in Cyrillic text
    is no evidence; two are, and so is a Cyrillic letter inside a Latin word ("NigГ©ria").
    """
    if any(any(c.isascii() and c.isalpha() for c in token) for token in repaired):
        return True
    pattern = _ONE_SEQUENCE[UTF8_AS_WINDOWS_1251]
    return sum(len(pattern.findall(token)) for token in damaged) >= 2


_TWO_NON_ASCII = re.compile("[^\x00-\x7f]{2}")


def _left_unrepaired(rest: str, whole: bool) -> bool:
    """Text between repaired segments that says the token is not UTF-8 mojibake: any
    non-ASCII letter (windows-1251), or two non-ASCII characters in a row, the shape of a
    legacy double-byte character (windows-1252)."""
    if whole:
        return any(not c.isascii() and c.isalpha() for c in rest)
    return _TWO_NON_ASCII.search(rest) is not None


def _repair_token(word: str, kind: str, pattern: re.Pattern[str]) -> str | None:
    # Cyrillic letters are themselves windows-1251 mojibake material: a word read as
    # windows-1251 is damaged whole or not at all ("Сірий" holds a valid pair, "Сі").
    whole = kind == UTF8_AS_WINDOWS_1251
    out: list[str] = []
    last = 0
    # Three-byte sequences or longer do not form by chance in real text; a two-byte one
    # does ("ß“" in "Straße“" reads as U+07D3).
    strong = True
    for match in pattern.finditer(word):
        rest = word[last : match.start()]
        if _left_unrepaired(rest, whole):
            return None
        strong = strong and all(
            len(m.group()) >= 3 for m in _ONE_SEQUENCE[kind].finditer(match.group())
        )
        decoded = _decode_segment(match.group(), kind)
        if decoded is None:
            return None
        out += [rest, decoded]
        last = match.end()
    if not out:
        return None
    tail = word[last:]
    if _left_unrepaired(tail, whole):
        return None
    repaired = "".join([*out, tail])
    return repaired if _coherent_token(repaired, strong=strong) else None


def _all_utf8(text: str) -> bool:
    """Every token, read back as windows-1252 bytes, is valid UTF-8."""
    for token in _TOKEN.findall(text):
        raw = encode_windows_1252(token)
        if raw is None:
            return False
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return False
    return True


def _utf8_rounds(text: str) -> tuple[str, str, bool] | None:
    """Undo UTF-8 read as a single-byte encoding, as many times as it was done.

    Returns (repaired, kind, repaired segment by segment), or None. ftfy decides first
    (whole text, then its own segments); this module's token-by-token repair catches what
    ftfy leaves as too uncertain ("Ã…land", "Å\u00a0panija", Latin text read as
    windows-1251).
    """
    original = text
    rounds = 0
    kind = ""
    segments = False
    for _ in range(4):
        if not _UTF8_PAIR.search(text):
            break
        step = _ftfy_step(text)
        if step is not None:
            fixed, more, step_kind, step_segments = step
        else:
            found = _segment_step(text)
            if found is None:
                break
            (fixed, step_kind), more, step_segments = found, 1, True
        if fixed == text:
            break
        kind = kind or step_kind
        rounds += more
        segments = segments or step_segments
        text = fixed
    if rounds == 0:
        return None
    if rounds > 1 and not _double_encoded(original, text):
        rounds = 1  # two separate single repairs (ftfy's, then a token it left)
    return text, (UTF8_DOUBLE_ENCODED if rounds > 1 else kind), segments


def _double_encoded(damaged: str, repaired: str) -> bool:
    """Some token of *damaged* is *repaired*'s token read as windows-1252 twice."""
    before = _TOKEN.findall(damaged)
    after = _TOKEN.findall(repaired)
    if len(before) != len(after):
        return True
    for old, new in zip(before, after, strict=True):
        if old == new:
            continue
        raw = encode_windows_1252(old)
        utf8 = new.encode("utf-8", "surrogatepass")
        if raw is not None and raw in (
            _browser_windows_1252(utf8).encode("utf-8"),
            utf8.decode("latin-1").encode("utf-8"),
        ):
            return True
    return False


def _browser_windows_1252(raw: bytes) -> str:
    return raw.decode("latin-1").translate(_FROM_LATIN1)


# --- UTF-8 read as Shift_JIS --------------------------------------------------------------

_SJIS_RUN = re.compile("[^\x00-\x7f\ufffd]+(?:[\x40-\x7e][^\x00-\x7f\ufffd]+)*")
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


_CUT_HEAD = re.compile(rb"\A[\x80-\xbf]{1,3}")
_CUT_TAIL = re.compile(rb"(?:[\xc2-\xdf]|[\xe0-\xef][\x80-\xbf]?|[\xf0-\xf4][\x80-\xbf]{0,2})\Z")


def _utf8_as_shift_jis(text: str) -> Finding | None:
    """UTF-8 bytes decoded as Shift_JIS: re-encode runs, and most bytes must be UTF-8."""
    covered = total = sequences = 0
    pieces: list[str] = []
    last = 0
    exact = True
    for match in _SJIS_RUN.finditer(text):
        try:
            raw = match.group().encode("cp932")
        except UnicodeEncodeError:
            continue
        # Next to a U+FFFD, a sequence was cut: its stray ends do not count against it.
        if match.start() > 0 and text[match.start() - 1] == "\ufffd":
            raw = _CUT_HEAD.sub(b"", raw)
        if match.end() < len(text) and text[match.end()] == "\ufffd":
            raw = _CUT_TAIL.sub(b"", raw)
        high = sum(1 for b in raw if b >= 0x80)
        found = _UTF8_SEQUENCE.findall(raw)
        good = sum(map(len, found))
        sequences += len(found)
        total += high
        covered += good
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            exact = False
            continue
        if decoded != match.group():
            pieces.append(text[last : match.start()])
            pieces.append(decoded)
            last = match.end()
    if total == 0 or covered < 2 or covered < 0.8 * total:
        return None
    # Continuation bytes 0xA1-0xBF read as Shift_JIS are half-width katakana, so real
    # damage shows them (or U+FFFD where a sequence broke); ordinary Chinese or Japanese
    # text can hold a valid sequence or two by chance ("邱北" is E7 B7 96 6B).
    if not any("\uff61" <= c <= "\uff9f" or c == "\ufffd" for c in text) and (
        sequences < 3 or not exact
    ):
        return None
    pieces.append(text[last:])
    repaired = "".join(pieces)
    lossy = not exact or "\ufffd" in text
    if lossy or not _plausible_letters(repaired):
        return Finding(UTF8_AS_SHIFT_JIS, None, lossy=lossy, encoding="Shift_JIS")
    return Finding(UTF8_AS_SHIFT_JIS, repaired, encoding="Shift_JIS")


def _plausible_letters(text: str) -> bool:
    """No half-width katakana left, and some letter among the non-ASCII characters."""
    return not any("\uff61" <= c <= "\uff9f" for c in text) and any(
        ord(c) > 0x7F and unicodedata.category(c)[0] == "L" for c in text
    )


# --- Legacy CJK and Cyrillic read as windows-1252 -----------------------------------------

_TO_LATIN1 = str.maketrans(
    {c: chr(0x80 + i) for i, c in enumerate(_WINDOWS_1252_HIGH[:0x20]) if ord(c) > 0xFF}
)


_FROM_LATIN1 = str.maketrans({v: k for k, v in _TO_LATIN1.items()})


def _encode_windows_1251(text: str) -> bytes | None:
    try:
        return text.translate(_TO_1251).encode("latin-1")
    except UnicodeEncodeError:
        return None


def encode_windows_1252(text: str) -> bytes | None:
    """The bytes a browser's windows-1252 (or latin-1) decoder read as *text*, or None."""
    try:
        return text.translate(_TO_LATIN1).encode("latin-1")
    except UnicodeEncodeError:
        return None


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

# (WHATWG name, Python codec for a strict decode): the order breaks ties.
_CJK = (
    ("GBK", "gbk"),
    ("Big5", "big5"),
    ("Shift_JIS", "cp932"),
    ("EUC-KR", "cp949"),
    ("EUC-JP", "euc_jp"),
)
_CYRILLIC = (("windows-1251", "cp1251"), ("KOI8-U", "koi8_u"), ("IBM866", "cp866"))
_CYRILLIC_NAMES = frozenset(name for name, _ in _CYRILLIC)


def _flanked_by_ascii_letters(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before.isascii() and before.isalpha() and after.isascii() and after.isalpha()


def _next_to_ascii_letter(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return (before.isascii() and before.isalpha()) or (after.isascii() and after.isalpha())


def _plausible_cjk(decoded: str, encoding: str, consumed: bool) -> bool:
    """*consumed*: ASCII letters became trail bytes; then no CJK run may touch a letter
    ("Ámárico" is not Big5, though "Ám" and "ár" are valid Big5 pairs)."""
    han = 0
    for run in re.finditer(r"[^\x00-\x7f]+", decoded):
        if _flanked_by_ascii_letters(decoded, run.start(), run.end()):
            return False
        if (consumed or len(run.group()) < 2) and _next_to_ascii_letter(
            decoded, run.start(), run.end()
        ):
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


def _plausible_cyrillic(decoded: str) -> bool:
    letters = 0
    for c in decoded:
        if ord(c) > 0x7F and not _is_cyrillic(c) and c not in _CYRILLIC_PUNCT:
            return False
    for word in _WORD.findall(decoded):
        cyrillic = sum(1 for c in word if _is_cyrillic(c))
        if not cyrillic:
            continue
        if cyrillic != len(word):
            return False  # Latin and Cyrillic letters in one word
        # Words are lowercase, Capitalised or UPPERCASE: no upper after a lower letter.
        if any(a.islower() and b.isupper() for a, b in itertools.pairwise(word)):
            return False
        letters += cyrillic
    return letters >= 3


_LONG = 40  # bytes: from here on the detector's guess is trusted


def _chardetng_guess(raw: bytes) -> str | None:
    try:
        import chardetng_py
    except ImportError:  # pragma: no cover - optional
        return None
    return str(chardetng_py.detect(raw, allow_utf8=False))


def _legacy_as_windows_1252(text: str) -> Finding | None:
    raw = encode_windows_1252(text)
    if raw is None:
        return None
    candidates: list[tuple[str, str]] = []
    letters = sum(c.isascii() and c.isalpha() for c in text)
    for name, codec in _CJK:
        try:
            decoded = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        consumed = sum(c.isascii() and c.isalpha() for c in decoded) < letters
        if not _plausible_cjk(decoded, name, consumed):
            continue
        # ASCII letters read as trail bytes ("¶V«n" is Big5 for 越南) must give frequent
        # characters: "Írán" and "öböl" make valid but rare ones.
        if consumed and _commonness(decoded, name) < 0.5:
            continue
        candidates.append((name, decoded))
    for name, codec in _CYRILLIC:
        try:
            decoded = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if _plausible_cyrillic(decoded):
            candidates.append((name, decoded))
    if not candidates:
        return None
    cyrillic = [c for c in candidates if c[0] in _CYRILLIC_NAMES]
    if len(cyrillic) > 1:
        # Cyrillic readings differ in case: running text is mostly lowercase.
        best = max(sum(ch.islower() for ch in c[1]) for c in cyrillic)
        candidates = [
            c
            for c in candidates
            if c[0] not in _CYRILLIC_NAMES or sum(ch.islower() for ch in c[1]) == best
        ]
    if len(candidates) == 1:
        name, decoded = candidates[0]
        return Finding(LEGACY_AS_WINDOWS_1252, decoded, encoding=name)
    # Several encodings give plausible text. A frequency-based detector (Firefox's
    # chardetng) is right on long text; on short text, prefer the reading made of the
    # encoding's frequent characters (GB2312 and Big5 level 1, JIS X 0208 kana and
    # level-1 kanji, KS X 1001 Hangul), and ask the detector only to break a tie.
    guess = _chardetng_guess(raw)
    if guess == "gb18030":
        guess = "GBK"
    by_name = dict(candidates)
    if guess is not None and len(raw) >= _LONG and guess in by_name:
        return Finding(LEGACY_AS_WINDOWS_1252, by_name[guess], encoding=guess)
    scores = [_commonness(decoded, name) for name, decoded in candidates]
    best_score = max(scores)
    candidates = [c for c, score in zip(candidates, scores, strict=True) if score == best_score]
    if len(candidates) == 1:
        name, decoded = candidates[0]
        return Finding(LEGACY_AS_WINDOWS_1252, decoded, encoding=name)
    for name, decoded in candidates:
        if name == guess:
            return Finding(LEGACY_AS_WINDOWS_1252, decoded, encoding=name)
    if all(name in _CYRILLIC_NAMES for name, _ in candidates):
        name, decoded = candidates[0]  # the most used first: windows-1251, KOI8-U, IBM866
        return Finding(LEGACY_AS_WINDOWS_1252, decoded, encoding=name)
    return Finding(LEGACY_AS_WINDOWS_1252, None)


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
        raw = c.encode(codec)
        if raw[:1] in _SYMBOL_ROWS[name]:
            continue  # punctuation rows ("・", "’") count for no reading
        total += 1
        if name in _EUC_ROWS and (len(raw) != 2 or raw[1] < 0xA1):
            continue  # GBK's and EUC's extensions below 0xA1 are not the frequent rows
        frequent += any(low <= raw <= high for low, high in ranges)
    return frequent / total if total else 0.0


# --- Stray C1 controls ---------------------------------------------------------------------

_C1 = re.compile("[\u0080-\u009f]")


def _c1_controls(text: str) -> Finding:
    """windows-1252 bytes decoded as latin-1: map each C1 control as windows-1252 does."""
    repaired = _C1.sub(lambda m: _WINDOWS_1252_HIGH[ord(m.group()) - 0x80], text)
    # 0x81, 0x8D, 0x8F, 0x90 and 0x9D have no windows-1252 character: nothing to repair.
    if repaired == text:
        return Finding(C1_CONTROLS, None)
    return Finding(C1_CONTROLS, repaired, encoding="windows-1252")


# --- Entry point --------------------------------------------------------------------------


def find_mojibake(text: str) -> Finding | None:
    """The mojibake in *text* and its repair, or None when the text looks clean.

    Call :func:`suspicious` first: this function assumes the fast path was taken.
    """
    result = _utf8_rounds(text)
    if result is not None:
        fixed, kind, segments = result
        if segments and not _all_utf8(text):
            # Repaired segment by segment: windows-1252 characters that happen to form a
            # UTF-8 sequence may be a legacy double-byte character instead ("ÖÐ¹ú" is GBK
            # for 中国, not "Öйú"). A plausible legacy reading of the whole text wins.
            legacy = _legacy_as_windows_1252(text)
            if legacy is not None:
                return legacy
        if "\x1a" in fixed and "\x1a" not in text:
            # ftfy's sloppy encodings read U+FFFD as 0x1A: what it found is a guess
            # around lost characters, not a reading of real bytes.
            return None
        lossy = "\ufffd" in fixed
        return Finding(kind, fixed, lossy=lossy, encoding="UTF-8")
    if any("\u3000" <= c <= "\uffef" for c in text):
        found = _utf8_as_shift_jis(text)
        if found is not None:
            return found
    if _C1.search(text):
        legacy = _legacy_as_windows_1252(text)
        return legacy if legacy is not None and legacy.repaired else _c1_controls(text)
    return _legacy_as_windows_1252(text)
