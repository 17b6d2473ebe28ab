"""The repairs: UTF-8 read as a single-byte encoding (through ftfy, then token by
token), UTF-8 read as Shift_JIS, and stray C1 controls.

Repairs of UTF-8 read as windows-1252, latin-1 or windows-1251 (and of double-encoded
UTF-8) are exact inverses: the damaged segment is re-encoded and decoded as UTF-8. ftfy's
``fix_encoding`` steps decide first (its other fixers, which change clean text, are never
used); this module's token-by-token step then catches what ftfy leaves as too uncertain,
when :mod:`.badness` finds enough evidence among the tokens it repairs.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import ftfy
from ftfy.chardata import ALTERED_UTF8_RE
from ftfy.fixes import A_GRAVE_WORD_RE

from scrapy_charset.items.mojibake.badness import (
    DECISIVE,
    MIN_DECISIVE,
    MIN_WEAK,
    NONE,
    WEAK,
    Evidence,
    Marks,
    Scanned,
    evidence,
    lost_a0_at,
    scan,
    weigh,
    weigh_rule,
)
from scrapy_charset.items.mojibake.chardata import (
    C1_PUNCTUATION_RULE,
    C1_RANGE,
    CP437,
    FROM_LATIN1,
    OTHER_READINGS,
    WINDOWS_1251_HIGH,
    WINDOWS_1252_HIGH,
    Finding,
    MojibakeKind,
    encode_reading,
    encode_windows_1251,
    encode_windows_1252,
    high_half,
    lost_sequence_pattern,
    sequence_pattern,
)
from scrapy_charset.items.mojibake.plausible import (
    EVERY_ALPHABET,
    NOT_LESS_IMPLAUSIBLE,
    alphabets,
    implausible,
)
from scrapy_charset.items.mojibake.siblings import latin_1_competing
from scrapy_charset.items.mojibake.words import RULE as WORD_RULE
from scrapy_charset.items.mojibake.words import word_repair

__all__ = [
    "A0_RULES",
    "byte_a0_rules",
    "c1_controls",
    "c1_punctuation",
    "c1_punctuation_controls",
    "c1_sites",
    "lossy_sequences",
    "utf8_as_shift_jis",
    "utf8_rounds",
]

UTF8_AS_WINDOWS_1252 = MojibakeKind.UTF8_AS_WINDOWS_1252
UTF8_DOUBLE_ENCODED = MojibakeKind.UTF8_DOUBLE_ENCODED
UTF8_AS_WINDOWS_1251 = MojibakeKind.UTF8_AS_WINDOWS_1251
UTF8_AS_OTHER = MojibakeKind.UTF8_AS_OTHER
UTF8_AS_SHIFT_JIS = MojibakeKind.UTF8_AS_SHIFT_JIS
C1_CONTROLS = MojibakeKind.C1_CONTROLS

#: Rounds of UTF-8 read as a single-byte encoding undone at most (double-encoded text
#: takes two; more is never seen, and each round is linear).
MAX_ROUNDS = 4

# --- UTF-8 read as a single-byte encoding (ftfy) -------------------------------------------

_FTFY_CONFIG = ftfy.TextFixerConfig(
    unescape_html=False,
    remove_terminal_escapes=False,
    fix_encoding=True,
    restore_byte_a0=False,  # a guess: a space may or may not have been a no-break space
    replace_lossy_sequences=True,  # one U+FFFD for a sequence that lost a byte, as ftfy
    decode_inconsistent_utf8=True,  # segment by segment, for partly damaged text
    fix_c1_controls=True,  # only after a UTF-8 step (see _ftfy_step)
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
#: ftfy's C1-control step: kept after a UTF-8 step only, whose C1 controls left are
#: windows-1252 bytes the same latin-1 decode read ("“senza modifiche\x94").
_C1_STEP = ("transcode", "fix_c1_controls")


def _ftfy_step(
    text: str, *, a0: bool = False, a0_rules: tuple[A0Rule, ...] | None = None
) -> tuple[str, int, MojibakeKind, bool, Decided | None] | None:
    """ftfy's encoding fixes: (repaired, rounds, kind, segment by segment, the A0 rule
    that restored a no-break space) or None. With *a0* (the text has enough evidence),
    ftfy's restore_byte_a0 is taken when :func:`_a0_decided` says every no-break space it
    restores is decided by one of :data:`A0_RULES` (of *a0_rules*, when given)."""
    if a0 and (_ONE_LETTER_SPACE.search(text) or _CAPITAL_LEAD_SPACE.search(text)):
        # A lead alone that may be a one-letter word, and a capital and a lead before a
        # lowercase word, are first left to ftfy, and their space restored only when a rule
        # decides it (a0-lone-lead-fits-the-field, a0-capital-lead-before-lowercase).
        released = _capital_spaces(text, released=True)
        if released is not None:
            found, _ = _a0_attempt(text, *released, a0_rules, released=True)
            if found is not None:
                return found
    kept = _capital_spaces(text)
    if kept is None:
        return None
    protected, placeholder = kept
    explained: ftfy.ExplainedText | None = None
    if a0:
        found, explained = _a0_attempt(text, protected, placeholder, a0_rules)
        if found is not None:
            return found
    if explained is None:
        explained = ftfy.fix_encoding_and_explain(protected, config=_FTFY_CONFIG)
    step = _plan_step(protected, explained)
    if step is None:
        return None
    return (_capital_words_kept(text, step[0].replace(placeholder, " ")), *step[1:], None)


def _a0_attempt(
    text: str,
    protected: str,
    placeholder: str,
    rules: tuple[A0Rule, ...] | None = None,
    *,
    released: bool = False,
) -> tuple[tuple[str, int, MojibakeKind, bool, Decided | None] | None, ftfy.ExplainedText | None]:
    """ftfy's plan with restore_byte_a0 for *protected* (*text* with the spaces it keeps
    replaced by *placeholder*), as :func:`_ftfy_step` returns it, when :func:`_a0_decided`
    says every no-break space it restores is decided by a rule of :data:`A0_RULES`; and
    ftfy's explanation when its plan restored no byte A0: that option only adds its own
    step (the segment step's inner fixes use ftfy's defaults either way), so the plan is
    the one without it. *released*: *protected* was made by ``_capital_spaces(text,
    released=True)``."""
    if _LEAD_SPACE.search(protected) is None:
        return None, None
    explained = ftfy.fix_encoding_and_explain(protected, config=_A0_CONFIG)
    found = _a0_decided(protected, explained.explanation or [], rules=rules)
    if found is not None:
        step = _plan_step(protected, explained)
        if step is not None:
            fixed = _capital_words_kept(text, step[0].replace(placeholder, " "), released)
            return (fixed, *step[1:], found[0]), None
    if _RESTORE_A0 in (explained.explanation or []):
        return None, None
    return None, explained


def _plan_step(
    text: str, explained: ftfy.ExplainedText
) -> tuple[str, int, MojibakeKind, bool] | None:
    """The UTF-8 steps of ftfy's plan *explained* for *text*: (repaired, rounds, kind,
    segment by segment) or None."""
    plan = [(operation, name) for operation, name in explained.explanation or []]
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
    # A plan can stop right after an encode step (ftfy found nothing to decode the bytes
    # with): only the steps up to the last decode give text back.
    while done and done[-1][0] not in ("decode", "apply") and done[-1] != _C1_STEP:
        done.pop()
    if done == [_C1_STEP] or (done and done[-1] == _C1_STEP and rounds == 0):
        return None
    if rounds == 0 or not done:
        return None
    fixed = explained.text if done == plan else ftfy.apply_plan(text, done)
    if not isinstance(fixed, str):
        return None
    if segments:
        fixed = _c1_only_kept(text, fixed)
        if fixed == text:
            return None
    return fixed, rounds, kind, segments


# --- A no-break space that became a space (ftfy's restore_byte_a0) -------------------------

_A0_CONFIG = _FTFY_CONFIG._replace(restore_byte_a0=True)
_RESTORE_A0 = ("transcode", "restore_byte_a0")
_SEGMENTS_STEP = ("apply", "decode_inconsistent_utf8")
#: A non-ASCII character before a space: the shape of every sequence restore_byte_a0
#: can restore (a lead, or a continuation, then the space).
_LEAD_SPACE = re.compile("[^\x00-\x7f] ")


@dataclass(frozen=True)
class A0Spot:
    """A space that ftfy's restore_byte_a0 reads as a lost no-break space (byte A0), in a
    layer of text whose characters are the bytes of *encoding*, one each."""

    text: str
    encoding: str
    #: Where the UTF-8 sequence starts, and its length in bytes with the A0 restored.
    lead: int
    length: int
    #: The scripts (:func:`_script`) of the letters of the field once repaired.
    scripts: frozenset[str]
    #: The character the sequence is with the no-break space restored.
    decoded: str
    #: The alphabets (:func:`.plausible.alphabets`) that the field's other non-ASCII
    #: letters once repaired share: those of no restored sequence.
    shared: int

    @property
    def lone(self) -> bool:
        """The lead starts a word: nothing before it but a non-letter, or nothing."""
        return self.lead == 0 or not self.text[self.lead - 1].isalnum()


@dataclass(frozen=True)
class A0Rule:
    """A named rule deciding that a space was a no-break space: *test* true on the spot;
    *example* is a damaged field it decides, and its repair."""

    name: str
    test: Callable[[A0Spot], bool]
    example: tuple[str, str]


@dataclass(frozen=True)
class Decided:
    """The rule that decided a repair the evidence alone did not, and what it decided on:
    a rule of :data:`A0_RULES` and the characters of the sequence whose no-break space it
    restored (the space aside, when last), or :data:`.words.RULE` and the word."""

    rule: str
    evidence: str


#: Shapes of a lead and a space that only a lost no-break space makes, tried in order on
#: each space restore_byte_a0 restores. Correct text ends words in capitals with such
#: leads ("IRMÃ E", "DÂ MICRUNESIA") and one-letter words are leads ("Å" in Swedish):
#: no rule decides those.
A0_RULES: tuple[A0Rule, ...] = (
    A0Rule(
        # A three- or four-byte sequence with the space among its continuation bytes.
        "a0-in-long-sequence",
        lambda s: s.length >= 3,
        ("à¸ à¸²à¸©à¸²à¹„à¸—à¸¢", "ภาษาไทย"),
    ),
    A0Rule(
        # A lead ending a word after a lowercase letter: a case break inside a word.
        "a0-after-lowercase",
        lambda s: s.length == 2 and s.lead > 0 and s.text[s.lead - 1].islower(),
        ("voilÃ  le cafÃ© crÃ¨me", "voilà le café crème"),
    ),
    A0Rule(
        # "Â" or "Ã" alone, for a no-break space or "à": neither is a word of any language.
        "a0-lone-lead-latin-1",
        lambda s: s.length == 2 and s.lone and s.text[s.lead] in "ÂÃ",
        ("com especial atenÃ§Ã£o Ã s crianÃ§as", "com especial atenção às crianças"),
    ),
    A0Rule(
        # A lead alone that is a letter of a script the repaired field has no other letter
        # of (windows-1251's "Г", for "à", among French words).
        "a0-lone-lead-outside-alphabets",
        lambda s: s.length == 2 and s.lone and _script(s.text[s.lead]) not in {"", *s.scripts},
        (
            "La rГ©gion se trouve Г lвЂ™ouest de lвЂ™Ukraine",
            "La région se trouve à l’ouest de l’Ukraine",
        ),
    ),
    A0Rule(
        # A capital and a lead, a word of two letters, before a lowercase word: a word in
        # capitals that ends with a lead ("DÂ MICRUNESIA", "IRMÃ E") does not stand so.
        "a0-capital-lead-before-lowercase",
        lambda s: (
            s.length == 2
            and s.lead >= 1
            and (s.lead == 1 or not s.text[s.lead - 2].isalnum())
            and _capital_lead_before_lowercase(
                s.text[s.lead - 1 : s.lead + 1], _after_spaces(s.text, s.lead + 1)
            )
        ),
        ("LÃ  oÃ¹ il faut", "Là où il faut"),
    ),
    A0Rule(
        # A lead alone (it may be a one-letter word, as Swedish "Å") whose character with
        # a no-break space is a letter of more of the alphabets the field's other letters
        # share than the lead is: "Š" is Latvian, "Å" is not.
        "a0-lone-lead-fits-the-field",
        lambda s: s.length == 2 and s.lone and _fits_better(s.text[s.lead], s.decoded, s.shared),
        (
            "Å veices baÅ†Ä·ieri gaida konkrÄ“tus",
            "Šveices baņķieri gaida konkrētus",
        ),
    ),
)


#: The rule that decides a lost no-break space in text with no other evidence of damage
#: (:attr:`.badness.Marks.lost_a0`): no correct text of the outside sources has it.
_LOST_A0_RULES = tuple(rule for rule in A0_RULES if rule.name == "a0-after-lowercase")
_LOST_A0 = _LOST_A0_RULES[0].name


def _a0_spots(text: str, encoding: str, repaired: str) -> list[A0Spot] | None:
    """The spaces of *text* that restore_byte_a0 restores when *text* is read back as
    *encoding*, as it does: "Ã" and a space before a word becomes "à" and the space
    (A_GRAVE_WORD_RE), other leads or continuations and a space a sequence."""
    try:
        raw = text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return None
    if len(raw) != len(text):
        return None
    found: list[tuple[int, int, str]] = []
    grave = set()
    for match in A_GRAVE_WORD_RE.finditer(raw):
        grave.add(match.start())
        found.append((match.start(), 2, "à"))
    for match in ALTERED_UTF8_RE.finditer(raw):
        if match.start() in grave:
            continue
        try:
            decoded = match.group().replace(b" ", b"\xa0").decode("utf-8")
        except UnicodeDecodeError:
            return None
        found.append((match.start(), len(match.group()), decoded))
    scripts = frozenset(_script(c) for c in repaired if c.isalpha())
    restored = "".join(decoded for _, _, decoded in found)
    shared = _shared_alphabets(c for c in repaired if c not in restored)
    spots = [
        A0Spot(text, encoding, lead, length, scripts, decoded, shared)
        for lead, length, decoded in found
    ]
    return sorted(spots, key=lambda spot: spot.lead)


def _spot_rule(spot: A0Spot, rules: tuple[A0Rule, ...] | None = None) -> str | None:
    for rule in A0_RULES if rules is None else rules:
        if rule.test(spot):
            return rule.name
    return None


def _a0_decided(
    text: str,
    explanation: list[ftfy.ExplanationStep],
    *,
    weigh_layers: bool = True,
    rules: tuple[A0Rule, ...] | None = None,
) -> list[Decided] | None:
    """The rule that decides each space ftfy's *explanation* for *text* restores as a
    no-break space, when the plan restores some, undoes each layer whole (no segment
    step), and every space is decided by a rule of :data:`A0_RULES` (of *rules* only,
    when given), in a layer with enough evidence of its own or by the rule of a lost
    no-break space alone (*weigh_layers*; the first layer's is the caller's to count);
    else None."""
    plan = [(operation, name) for operation, name in explanation]
    if _RESTORE_A0 not in plan or _SEGMENTS_STEP in plan:
        return None
    repaired = ftfy.apply_plan(text, plan)
    found: list[Decided] = []
    for at, step in enumerate(plan):
        if step != _RESTORE_A0:
            continue
        if at == 0 or plan[at - 1][0] != "encode":
            return None
        layer = ftfy.apply_plan(text, plan[: at - 1]) if at > 1 else text
        # A layer with no evidence of its own is taken only where its spaces are all
        # decided by the rule of damage of its own (a lost no-break space after a
        # lowercase letter: _LOST_A0_RULES).
        alone = at > 1 and weigh_layers and not evidence(layer, until=Evidence.is_enough).enough
        spots = _a0_spots(layer, plan[at - 1][1], repaired)
        if not spots:
            return None
        for spot in spots:
            rule = _spot_rule(spot, _LOST_A0_RULES if alone else rules)
            if rule is None:
                return None
            sequence = layer[spot.lead : spot.lead + spot.length]
            found.append(Decided(rule, sequence.rstrip() or sequence))
    return found or None


#: A capital that is a UTF-8 lead (0xC2-0xDE in windows-1252, but the multiplication
#: sign) alone before a space: what a two-byte sequence whose no-break space became a
#: space leaves ("Å veices" for "Šveices").
_LONE_LEAD = re.compile("(?<![^\\W_])[\u00c2-\u00d6\u00d8-\u00de](?= )")


def a0_left(repaired: str) -> int:
    """How many lone leads before a space (:data:`_LONE_LEAD`) a repair left in
    *repaired* that a lost no-break space explains and no rule of :data:`A0_RULES`
    decided: the character the lead and a no-break space are in UTF-8 ("Š") is a letter
    of more of the alphabets the field's other non-ASCII letters share than the lead is
    (Latvian "Å veices baņķieri"). A one-letter word of the field's own language ("Í
    gær", "Ô tô", Swedish "Å") is not counted."""
    leads = list(_LONE_LEAD.finditer(repaired))
    if not leads:
        return 0
    lone = {m.start() for m in leads}
    shared = _shared_alphabets(c for at, c in enumerate(repaired) if at not in lone)
    return sum(_fits_better(m.group(), _a0_decoded(m.group()), shared) for m in leads)


def _a0_decoded(lead: str) -> str:
    """The character *lead* and a no-break space are in UTF-8, as windows-1252 reads it."""
    return bytes((ord(lead), 0xA0)).decode("utf-8")


def _shared_alphabets(letters: Iterable[str]) -> int:
    """The alphabets (:func:`.plausible.alphabets`) that every non-ASCII letter of
    *letters* is in."""
    shared = EVERY_ALPHABET
    for c in letters:
        if not c.isascii() and c.isalpha():
            shared &= alphabets(c)
    return shared


def _fits_better(lead: str, decoded: str, shared: int) -> bool:
    """*decoded* (a lead and a no-break space, in UTF-8) is a letter of more of the
    alphabets *shared* than *lead* is; never when *shared* is none or every alphabet (the
    field's language is not told)."""
    if shared in (0, EVERY_ALPHABET):
        return False
    return (alphabets(decoded) & shared).bit_count() > (alphabets(lead) & shared).bit_count()


def byte_a0_rules(text: str) -> tuple[str, ...]:
    """The rule of :data:`A0_RULES` that decides each no-break space ftfy's
    restore_byte_a0 restores in *text*, when every one is decided and each layer is undone
    whole; else an empty tuple. (A repair also needs enough evidence of damage elsewhere
    in the text, which this does not weigh.)"""
    # As _ftfy_step reads it: a lead that may be a one-letter word left to ftfy first.
    releases = (
        (True, False)
        if _ONE_LETTER_SPACE.search(text) or _CAPITAL_LEAD_SPACE.search(text)
        else (False,)
    )
    for released in releases:
        kept = _capital_spaces(text, released=released)
        if kept is None or _LEAD_SPACE.search(kept[0]) is None:
            continue
        explained = ftfy.fix_encoding_and_explain(kept[0], config=_A0_CONFIG)
        found = _a0_decided(kept[0], explained.explanation or [], weigh_layers=False)
        if found is not None:
            return tuple(f.rule for f in found)
    return ()


_SEQUENCES = (
    (UTF8_AS_WINDOWS_1252, re.compile(sequence_pattern(WINDOWS_1252_HIGH, C1_RANGE))),
    (UTF8_AS_WINDOWS_1251, re.compile(sequence_pattern(WINDOWS_1251_HIGH))),
)
_TOKEN = re.compile("[^ \t\r\n]+")
_ONE_SEQUENCE = {
    UTF8_AS_WINDOWS_1252: re.compile(sequence_pattern(WINDOWS_1252_HIGH, C1_RANGE, one=True)),
    UTF8_AS_WINDOWS_1251: re.compile(sequence_pattern(WINDOWS_1251_HIGH, one=True)),
}
# Mojibake is made of the single-byte encoding's characters only: text outside its
# repertoire (legitimate CJK next to a damaged name) bounds a token as spaces do.
_ENCODABLE_TOKEN = {
    UTF8_AS_WINDOWS_1252: re.compile(f"[!-~\u0080-\u00ff{re.escape(WINDOWS_1252_HIGH[:0x20])}]+"),
    UTF8_AS_WINDOWS_1251: re.compile(f"[!-~{re.escape(WINDOWS_1251_HIGH)}]+"),
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


def _decode_segment(segment: str, kind: MojibakeKind) -> str | None:
    raw = (
        encode_windows_1252(segment)
        if kind == UTF8_AS_WINDOWS_1252
        else encode_windows_1251(segment)
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


def _segment_step(
    text: str, untouched: frozenset[str] | None = None
) -> tuple[str, MojibakeKind] | None:
    """Repair UTF-8 sequences segment by segment, where every token stays coherent.

    A token (a run of non-space characters) touched by a repair must have no other
    non-ASCII letter left unrepaired, and its letters must come out in one script:
    "Ã…land" -> "Åland" passes, "Straße“" (ß and “ form a valid sequence) does not.

    With *untouched* (after a layer was undone: the tokens of the field as given that it
    left as they were), only those tokens are repaired, and a weak sequence is enough:
    they belong to the layer already proven ("осканскае Ñ– іншыя"), while a token the
    layer changed is judged again on its own evidence.
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
            if untouched is not None and token.group() not in untouched:
                continue
            repaired = _repair_token(token.group(), kind, pattern)
            if repaired is not None:
                out += [text[last : token.start()], repaired]
                damaged.append(token.group())
                last = token.end()
        if out and _enough(damaged, kind, proven=untouched is not None):
            out.append(text[last:])
            return "".join(out), kind
    return None


_READING = {UTF8_AS_WINDOWS_1252: "windows-1252", UTF8_AS_WINDOWS_1251: "windows-1251"}


def _enough(damaged: list[str], kind: MojibakeKind, *, proven: bool = False) -> bool:
    """The evidence rule (:mod:`.badness`) over the tokens repaired, counted together:
    Cyrillic text holds valid windows-1251 pairs by chance ("Сі" is D1 B3, "дії" is
    E4 B3 BF), and an accented capital before a symbol is a word ("NESTLÉ®")."""
    total = Evidence()
    for token in damaged:
        found = evidence(token, (_READING[kind],), until=Evidence.is_enough)
        total.decisive += found.decisive
        total.weak += found.weak
    return total.enough or (proven and total.decisive + total.weak > 0)


_TWO_NON_ASCII = re.compile("[^\x00-\x7f]{2}")


def _left_unrepaired(rest: str, whole: bool) -> bool:
    """Text between repaired segments that says the token is not UTF-8 mojibake: any
    non-ASCII letter (windows-1251), or two non-ASCII characters in a row, the shape of a
    legacy double-byte character (windows-1252)."""
    if whole:
        return any(not c.isascii() and c.isalpha() for c in rest)
    return _TWO_NON_ASCII.search(rest) is not None


def _repair_token(word: str, kind: MojibakeKind, pattern: re.Pattern[str]) -> str | None:
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


def all_utf8(text: str) -> bool:
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


def utf8_rounds(
    text: str,
    marks: Marks | None = None,
    counted: Evidence | None = None,
    layers: Scanned | None = None,
) -> tuple[str, MojibakeKind, bool, Decided | None] | None:
    """Undo UTF-8 read as a single-byte encoding, as many times as it was done.

    Returns (repaired, kind, repaired segment by segment, the rule that decided what the
    evidence alone did not: one of :data:`A0_RULES` that restored a no-break space, or
    :data:`.words.RULE` for a layer found on weak sequences only), or None; *repaired*
    is the text itself for damage that is reported without a repair. ftfy decides first
    (whole text, then its own segments); this module's token-by-token repair catches what
    ftfy leaves as too uncertain ("Ã…land", "Å\u00a0panija", Latin text read as
    windows-1251). *marks* and *counted* are the text's marks and its evidence (counted
    until enough), when the caller has them; each layer's are kept in *layers*, when
    given.
    """
    original = text
    # Each layer as the evidence rule and a repair step find it, none judged yet.
    chain = [text]
    weak: list[bool] = []  # a layer found on weak sequences only
    kinds: list[MojibakeKind] = []
    rounds: list[int] = []
    segments: list[bool] = []
    a0: list[Decided | None] = []
    for _ in range(MAX_ROUNDS):
        # The caller's marks are those of the text as given; a repaired text is scanned anew.
        layer_marks = marks if text is original else None
        if text is original and counted is not None:
            seen = counted
        else:
            layer_marks = layer_marks or scan(text)
            seen = evidence(text, marks=layer_marks, until=Evidence.is_enough)
            if layers is not None and text is not original:
                layers[text] = layer_marks, seen
        if not seen.some:
            # A lost no-break space after a lowercase letter is damage of its own, repaired
            # only where a0-after-lowercase decides every space restored.
            if not (layer_marks or scan(text)).lost_a0:
                break
            step = _ftfy_step(text, a0=True, a0_rules=_LOST_A0_RULES)
            if step is None or step[4] is None:
                if text is original:
                    # ftfy could not undo it whole (correct accented text around it is
                    # read segment by segment): reported without a repair.
                    at = lost_a0_at(text)
                    return original, UTF8_AS_WINDOWS_1252, False, Decided(_LOST_A0, text[at])
                break
        else:
            step = _ftfy_step(text, a0=seen.enough)
        if step is not None:
            fixed, more, step_kind, step_segments, step_a0 = step
        else:
            # Each layer is judged on its own evidence: a field that was damaged once is
            # not known to be damaged again, but its tokens the layer left are.
            found = _segment_step(text)
            if found is None and len(chain) > 1:
                untouched = frozenset(_TOKEN.findall(original)) & frozenset(_TOKEN.findall(text))
                found = _segment_step(text, untouched)
            if found is None:
                break
            (fixed, step_kind), more, step_segments, step_a0 = found, 1, True, None
        if fixed == text:
            break
        chain.append(fixed)
        weak.append(not seen.enough)
        kinds.append(step_kind)
        rounds.append(more)
        segments.append(step_segments)
        a0.append(step_a0)
        text = fixed
    taken_on_words: list[str] = []
    text, used = choose_layers(chain, weak, taken_on_words)
    if used == 0:
        if len(chain) > 1 and weak[0] and choose_layers(chain[:2])[1]:
            # A layer on weak sequences only, no less implausible than the text: damage
            # that cannot be told from correct text of the same shape is reported, not
            # repaired ("OÃ™ ET QUAND?" next to CLDR's Yoruba "ÈMÌRÂ®").
            return original, kinds[0], segments[0], None
        return None
    total = sum(rounds[:used])
    if total > 1 and not _double_encoded(original, text):
        total = 1  # two separate single repairs (ftfy's, then a token it left)
    kind = UTF8_DOUBLE_ENCODED if total > 1 else kinds[0]
    decided = next((found for found in a0[:used] if found is not None), None)
    if decided is None and taken_on_words:
        decided = Decided(WORD_RULE, taken_on_words[0])
    return text, kind, any(segments[:used]), decided


#: Characters of windows-1252 that are a UTF-8 lead byte and end words in capitals
#: (Portuguese IRMÃ, MAÇÃ, AMANHÃ; Corsican DÂ, Welsh IÂ; Å, Ð): the lead of a sequence
#: whose no-break space became a space only when the word is not one of capitals.
_CAPITAL_WORD_END = re.compile("(?<=[A-ZÀ-Þ])[Â-ß](?= |$)")
#: Characters that stand for a kept space while ftfy reads the text (no sequence takes
#: them as a continuation byte, and ftfy's encoding fixes leave them as they are).
_PLACEHOLDERS = "\x00\x01\x02\x03\x04\x05\x06\x07\x08"


def _capital_spaces(text: str, *, released: bool = False) -> tuple[str, str] | None:
    """*text* with the space after each word in capitals that ends with a lead character
    (``IRMÃ E``, ``DÂ MICRUNESIA``) replaced by a placeholder, and the placeholder (a
    space when there is none to replace); None when the text holds every placeholder.
    ftfy's segment step reads such a lead and space as a UTF-8 sequence whose no-break
    space became a space ("DÂ M" → "D\u00a0M"), which a word in capitals is not. With
    *released*, the spaces an A0 rule may decide are left as they are: after a lead that
    may be a one-letter word, and after a capital and a lead before a lowercase word."""
    if _CAPITAL_WORD_END.search(text) is None and _LONE_LEAD.search(text) is None:
        return text, " "
    placeholder = next((c for c in _PLACEHOLDERS if c not in text), None)
    if placeholder is None:
        return None
    out: list[str] = []
    last = 0
    for token in _TOKEN.finditer(text):
        end = token.end()
        if (
            end < len(text)
            and text[end] == " "
            and _kept_before_space(token.group(), one_letter=not released)
            and not (
                released and _capital_lead_before_lowercase(token.group(), _after_spaces(text, end))
            )
        ):
            out += [text[last:end], placeholder]
            last = end + 1
    return "".join([*out, text[last:]]), placeholder


#: The capitals that are UTF-8 leads of windows-1252 and words of one letter at the start
#: of a sentence or a name: Swedish "Å" and "Ö", Italian "È", Portuguese "É", Icelandic
#: "Í", Irish "Ó", Vietnamese "Ô". Other leads alone ("Ð " for "Р") are no word.
_ONE_LETTER_LEAD = re.compile("[ÅÖÈÉÍÓÔ]")
#: Such a lead alone before a space.
_ONE_LETTER_SPACE = re.compile("(?<![^ \t\r\n])[ÅÖÈÉÍÓÔ](?= )")
#: A word of two letters that may be a capital and a lead, before spaces and a letter
#: (:func:`_capital_lead_before_lowercase` decides).
_CAPITAL_LEAD_SPACE = re.compile("(?<![^ \t\r\n])[A-ZÀ-Þ][Â-Þ] +(?=[^\\W\\d_])")


def _after_spaces(text: str, at: int) -> str:
    """What *text* holds from *at* past the spaces there (up to 64 characters)."""
    return text[at : at + 64].lstrip(" ")


def _capital_lead_before_lowercase(token: str, following: str) -> bool:
    """*token* is a capital and a lead (a word of two letters in capitals: ``LÃ``), and
    *following*, what comes after the spaces after it, starts with a lowercase letter:
    "LÃ  oÃ¹" is "Là où", while a word in capitals stands before another ("DÂ
    MICRUNESIA")."""
    return (
        len(token) == 2
        and token.isupper()
        and _CAPITAL_WORD_END.match(token, 1) is not None
        and following[:1].islower()
    )


def _kept_before_space(token: str, one_letter: bool = True) -> bool:
    """The space after *token* is kept out of ftfy's reach: a word in capitals ending in a
    lead (``IRMÃ``), or unless not *one_letter*, a lead that is a one-letter word
    (:data:`_ONE_LETTER_LEAD`). ftfy's segment step decodes each segment with its own
    defaults, which restore a no-break space after any lead ("Å Ã¤r" → "Šär")."""
    return _capital_word(token, bare=True) or (
        one_letter and _ONE_LETTER_LEAD.fullmatch(token) is not None
    )


def _capital_words_kept(text: str, fixed: str, released: bool = False) -> str:
    """*fixed* with each token of *text* that ends a word in capitals with a lead
    character (``IRMÃ E``, ``KÂMITÂ”``) given back: ftfy's segment step reads such a lead
    and the character after it as a UTF-8 sequence ("IRMÃ E" → "IRMà E"), which a word
    in capitals is not. (:func:`_capital_spaces` keeps the tokens of both in step.) With
    *released*, a capital and a lead before a lowercase word is not given back: an A0
    rule decided it."""
    if _CAPITAL_WORD_END.search(text) is None:
        return fixed
    return _given_back(
        text,
        fixed,
        lambda old, new, following: (
            _capital_word(old) and not (released and _capital_lead_before_lowercase(old, following))
        ),
    )


def _given_back(text: str, fixed: str, keep: Callable[[str, str, str], bool]) -> str:
    """*fixed* with each token of *text* that it changed given back where
    ``keep(old, new, following)`` (*following*: the token after one space, or ""); *fixed*
    as it is when the two do not have the same tokens."""
    before, after = _TOKEN_OR_SPACE.findall(text), _TOKEN_OR_SPACE.findall(fixed)
    if len(before) != len(after):
        return fixed
    kept = [
        old
        if old != new
        and keep(
            old,
            new,
            before[at + 2] if at + 2 < len(before) and before[at + 1].isspace() else "",
        )
        else new
        for at, (old, new) in enumerate(zip(before, after, strict=True))
    ]
    return "".join(kept)


def _capital_word(token: str, *, bare: bool = False) -> bool:
    """*token* is a word in capitals ending with a lead character (``IRMÃ``, ``DÂ``), or
    unless *bare*, with a lead and closing punctuation (``MAÇÃ,``, ``KÂMITÂ”``)."""
    word = token if bare else token.rstrip(",.;:!?)]}»”’\"'")
    return (
        len(word) >= 2
        and _CAPITAL_WORD_END.search(word, len(word) - 1) is not None
        and word.isupper()
    )


def choose_layers(
    chain: list[str], weak: list[bool] | None = None, words: list[str] | None = None
) -> tuple[str, int]:
    """The text that *chain* (a text, then each layer of repair undone from the one
    before) gives back, and how many layers were taken: token by token (a run of
    characters other than spaces), the deepest layer that is more plausible than the last
    one taken (:func:`.plausible.implausible`), so a layer is undone only after the one
    before it was judged, and a token is never a text that no whole layer gives. A layer
    found on weak sequences only (*weak*, one flag per layer) must make its tokens less
    implausible than they were (text with a symbol after an accented capital and nothing
    wrong, "ÈMÌRÂ®", stays as it is), or make each part it changes a word real text uses
    that was none (:func:`.words.word_repair`: "CAFÃ‰" is "CAFÉ"); the words taken so are
    added to *words*, when given."""
    strict = [False, *(weak or [False] * (len(chain) - 1))]

    def better(before: str, after: str, layer: int) -> str | bool:
        # A U+FFFD is a character lost, not one a repair brought in: the repair keeps one
        # for each sequence that lost a byte, as ftfy does, and it is judged on the rest.
        lost_before, lost_after = before.replace("\ufffd", " "), after.replace("\ufffd", " ")
        # Nor is a C1 control the text as given held already (a UTF-8 layer over text
        # with C1 controls, "Â\x81" undone to U+0081): what is left of it is reported.
        if _C1.search(lost_after) is not None:
            for kept in set(_C1.findall(lost_after)) & set(lost_before):
                lost_before, lost_after = (
                    lost_before.replace(kept, " "),
                    lost_after.replace(kept, " "),
                )
        found = implausible(lost_before, lost_after, strict=strict[layer])
        if found is None:
            return True
        if found != NOT_LESS_IMPLAUSIBLE or implausible(lost_before, lost_after) is not None:
            return False
        # Weak sequences only, and a repair no less plausible by its characters: taken
        # when it makes words that real text uses of text that was none.
        return word_repair(before, after) or False

    tokens = [_TOKEN_OR_SPACE.findall(t) for t in chain]
    if any(len(t) != len(tokens[0]) for t in tokens):
        best = 0
        word: str | bool = False
        for layer in range(1, len(chain)):
            found = better(chain[best], chain[layer], layer)
            if found:
                best, word = layer, found
        if words is not None and isinstance(word, str):
            words.append(word)
        return chain[best], best
    out: list[str] = []
    used = 0
    best = 0
    for i, first in enumerate(tokens[0]):
        word = False
        if first[0] not in _SPACES:
            best = 0
            for layer in range(1, len(chain)):
                if tokens[layer][i] != tokens[best][i]:
                    found = better(tokens[best][i], tokens[layer][i], layer)
                    if found:
                        best, word = layer, found
        # else: spaces go with the token before them (a space that a lost no-break space
        # became is part of that token's sequence: "voilÃ  le" is "voilà le").
        out.append(tokens[best][i])
        if tokens[best][i] != first:
            used = max(used, best)
            if words is not None and isinstance(word, str):
                words.append(word)
    return "".join(out), used


_TOKEN_OR_SPACE = re.compile("[^ \t\r\n]+|[ \t\r\n]+")
_SPACES = " \t\r\n"


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
    return raw.decode("latin-1").translate(FROM_LATIN1)


# --- UTF-8 read as another single-byte encoding, segment by segment ----------------------

#: cp437's segments are repaired on its own evidence (:func:`.badness.cp437_evidence`),
#: never chosen among the others'.
CP437_READINGS = (CP437,)

#: The readings whose segments are looked for: ftfy's other single-byte readings, and
#: x-mac-cyrillic (UTF-8 read as it: "вВђ" is "€", "вАФ" is "—").
SEGMENT_READINGS = (*OTHER_READINGS, "x-mac-cyrillic")


#: Readings whose damaged run is a whole token made of its sequences and ASCII only:
#: cp437's box drawing is line art's too, and a token with a character cp437 has no byte
#: for ("┰ä╟¥╭┇"), or one outside every sequence ("▌╬ú"), is not UTF-8 read as cp437.
WHOLE_TOKEN_READINGS = frozenset(CP437_READINGS)


@functools.cache
def _reading_patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A run of characters *name* encodes (no space; for :data:`WHOLE_TOKEN_READINGS`, a
    whole token), and one UTF-8 sequence as *name* shows it."""
    table = high_half(name)
    repertoire = re.escape("".join(c for c in table if c != "\ufffd"))
    run = f"[!-~{repertoire}]+"
    if name in WHOLE_TOKEN_READINGS:
        run = f"(?<!\\S){run}(?!\\S)"
    return re.compile(run), re.compile(sequence_pattern(table, one=True))


def _segment_token(token: str, name: str) -> tuple[str, int, int] | None:
    """*token* with each UTF-8 sequence as *name* shows it decoded, and the decisive and
    weak sequences among them (:func:`.badness.weigh`), when the result is more plausible
    (:func:`.plausible.implausible`)."""
    _run, sequence = _reading_patterns(name)
    out: list[str] = []
    last = decisive = weak = covered = 0
    for match in sequence.finditer(token):
        raw = encode_reading(match.group(), name)
        try:
            decoded = raw.decode("utf-8") if raw is not None else None
        except UnicodeDecodeError:
            continue
        if decoded is None:
            continue
        if any(unicodedata.category(c) in ("Cc", "Cn", "Co", "Cs") for c in decoded):
            continue
        weight = weigh(token, match.start(), match.end(), name)
        decisive += weight == DECISIVE
        weak += weight == WEAK
        out += [token[last : match.start()], decoded]
        last = match.end()
        covered += match.end() - match.start()
    if not out or decisive + weak == 0:
        return None
    if name in WHOLE_TOKEN_READINGS and covered != sum(not c.isascii() for c in token):
        return None
    repaired = "".join([*out, token[last:]])
    if implausible(token, repaired) is not None:
        return None
    return repaired, decisive, weak


def other_segments(
    text: str, names: tuple[str, ...] = SEGMENT_READINGS
) -> tuple[str, str, int] | None:
    """UTF-8 read as one of *names* in segments of *text*: (repaired,
    reading, segments repaired) for the reading that repairs the most, or None.

    Each run of characters the reading encodes is judged alone: its repair must be more
    plausible than it, and the damaged runs of one reading together need the evidence a
    repair needs (one decisive sequence, or :data:`.badness.MIN_WEAK` weak ones). Correct
    accented text around them neither vetoes them nor lends them evidence.
    """
    best: tuple[str, str, int] | None = None
    for name in names:
        run, _sequence = _reading_patterns(name)
        pieces: list[str] = []
        last = count = decisive = weak = 0
        for token in run.finditer(text):
            if token.group().isascii():
                continue
            found = _segment_token(token.group(), name)
            if found is not None:
                pieces += [text[last : token.start()], found[0]]
                last = token.end()
                count += 1
                decisive += found[1]
                weak += found[2]
        if decisive < MIN_DECISIVE and weak < MIN_WEAK:
            continue
        if count and (best is None or count > best[2]):
            best = ("".join([*pieces, text[last:]]), name, count)
    return best


# --- UTF-8 sequences that lost their last bytes --------------------------------------------

#: A UTF-8 sequence as windows-1252 shows it, cut short: its lead and the continuation
#: characters left, then the U+FFFD a decoder put for the bytes lost ("Ä�" in
#: "SlovenÄ�ina" was "č", 0xC4 0x8D, whose second byte windows-1252 has no character for).
_LOSSY = re.compile(lost_sequence_pattern(WINDOWS_1252_HIGH))


def lossy_sequences(text: str) -> Finding | None:
    """UTF-8 read as windows-1252 whose only damage is sequences cut short: each becomes
    one U+FFFD, as ftfy's ``replace_lossy_sequences`` does, when one of them has decisive
    evidence (:func:`.badness.weigh`, the U+FFFD counted as a symbol: "nÄ�i" is a case
    break) and the repair is no less plausible (U+FFFD aside). The report is lossy: the
    character is gone for good."""
    spans = [m.span() for m in _LOSSY.finditer(text)]
    weights = [weigh_rule(text, start, end) for start, end in spans]
    decisive = [(w, span) for w, span in zip(weights, spans, strict=True) if w[0] == DECISIVE]
    if not decisive:
        return None
    out: list[str] = []
    last = 0
    for (weight, _rule), (start, end) in zip(weights, spans, strict=True):
        if weight != NONE:
            out += [text[last:start], "\ufffd"]
            last = end
    repaired = "".join([*out, text[last:]])
    if implausible(text.replace("\ufffd", " "), repaired.replace("\ufffd", " ")) is not None:
        return None
    (_weight, rule), (start, end) = decisive[0]
    return Finding(
        UTF8_AS_WINDOWS_1252,
        repaired,
        lossy=True,
        encoding="UTF-8",
        rule=rule,
        evidence=text[start:end],
    )


# --- UTF-8 read as Shift_JIS --------------------------------------------------------------

_SJIS_RUN = re.compile("[^\x00-\x7f\ufffd]+(?:[\x40-\x7e][^\x00-\x7f\ufffd]+)*")
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


_CUT_HEAD = re.compile(rb"\A[\x80-\xbf]{1,3}")
_CUT_TAIL = re.compile(rb"(?:[\xc2-\xdf]|[\xe0-\xef][\x80-\xbf]?|[\xf0-\xf4][\x80-\xbf]{0,2})\Z")


def utf8_as_shift_jis(text: str) -> Finding | None:
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


# --- Stray C1 controls ---------------------------------------------------------------------

_C1 = re.compile("[\u0080-\u009f]")


def _c1_read_as_1252(text: str) -> str:
    """*text* with each C1 control read as the windows-1252 byte it is in latin-1."""
    return _C1.sub(lambda m: WINDOWS_1252_HIGH[ord(m.group()) - 0x80], text)


def _c1_only_kept(text: str, fixed: str) -> str:
    """*fixed* (ftfy's segment step on *text*) with each token given back whose only
    change is its C1 controls read as windows-1252, unless a UTF-8 sequence of *text*
    holds a C1 control. ftfy decodes each segment with its own defaults, which read C1
    controls so. Where a sequence holds one, the field is UTF-8 read as latin-1, and a C1
    control elsewhere is a windows-1252 byte the same decode read ("â\x80\x9csenza
    modifiche\x94" is "“senza modifiche”"). Elsewhere no UTF-8 sequence was decoded in
    that token, and the reading alone is a guess of the encoding (:func:`c1_controls`, a
    repair of ``legacy=True`` only): "Café \x8båòîíèÀà" (bytes of x-mac-cyrillic read as
    latin-1) is not "Café ‹åòîíèÀà"."""
    held, stray = c1_sites(text)
    if held or not stray:
        return fixed
    return _given_back(
        text,
        fixed,
        lambda old, new, _: _C1.search(old) is not None and _c1_read_as_1252(old) == new,
    )


def c1_controls(text: str) -> Finding:
    """windows-1252 bytes decoded as latin-1: map each C1 control as windows-1252 does.

    A guess of the encoding (the bytes of another single-byte encoding read as latin-1
    give C1 controls too: ``benchmarks/c1_readings.py``), so a repair of the kinds that
    apply with ``legacy=True`` only, unless the text has the evidence of
    :func:`c1_punctuation` (:func:`c1_punctuation_controls`)."""
    repaired = _c1_read_as_1252(text)
    # 0x81, 0x8D, 0x8F, 0x90 and 0x9D have no windows-1252 character: nothing to repair.
    # A C1 control inside a UTF-8 sequence as latin-1 shows it is a byte of UTF-8 read as
    # latin-1 ("Ð\x95" is "Е"), not of windows-1252: not this repair's. A lead followed by
    # fewer continuation bytes than it needs is no sequence ("parlé\x85 " is "parlé… ").
    if repaired == text or c1_sites(text)[0]:
        return Finding(C1_CONTROLS, None)
    return Finding(C1_CONTROLS, repaired, encoding="windows-1252")


def c1_sites(text: str) -> tuple[bool, bool]:
    """Where *text*'s C1 controls stand: (a UTF-8 sequence, as windows-1252 or latin-1
    reads it, holds one; one stands outside every such sequence). One held by a sequence
    is a byte of UTF-8 read as latin-1 ("Ð\x95" is "Е"); one outside is a byte of a
    single-byte encoding that a latin-1 decoder kept ("parlé\x85"). A lead followed by
    fewer continuation bytes than it needs is no sequence. One pass over the C1 controls
    and the sequences, in order."""
    if _C1.search(text) is None:
        return False, False
    held = stray = False
    sequences = _ONE_SEQUENCE[UTF8_AS_WINDOWS_1252].finditer(text)
    current = next(sequences, None)
    for control in _C1.finditer(text):
        at = control.start()
        while current is not None and current.end() <= at:
            current = next(sequences, None)
        if current is not None and current.start() <= at:
            held = True
        else:
            stray = True
        if held and stray:
            break
    return held, stray


def c1_punctuation_controls(text: str) -> Finding | None:
    """:func:`c1_controls`'s repair, when the text has the evidence of
    :func:`c1_punctuation` (rule :data:`.chardata.C1_PUNCTUATION_RULE`, a repair applied
    by default); else None."""
    found = c1_controls(text)  # its guards first: the evidence reads the field 9 ways
    if found.repaired is None:
        return None
    found_on = c1_punctuation(text)
    if found_on is None:
        return None
    return Finding(
        C1_CONTROLS,
        found.repaired,
        encoding="windows-1252",
        rule=C1_PUNCTUATION_RULE,
        evidence=found_on,
    )


#: The windows-1252 characters of the C1 bytes that :func:`c1_punctuation` reads, each
#: with where it stands in real text: ``(may follow a letter, may precede a letter)``.
#: Punctuation and signs only: where macintosh, x-mac-cyrillic and cp437 have letters at
#: these bytes, windows-1252 has letters too ("Caf\x8e" is macintosh's "Café", "CafŽ"),
#: or the byte stands where the punctuation does not: inside a word (but an apostrophe),
#: an opening quote after a letter (macintosh's "così" is "cos\x93"), a closing quote at
#: a word's end with no opening one before it ("marroqu\x92" is macintosh's "marroquí"),
#: a dash or a sign against a letter ("habl\x97" is macintosh's "habló"). An apostrophe
#: inside a word ("d\x92Ivoire") is weighed against the other readings like the rest.
C1_PUNCTUATION: dict[str, tuple[bool, bool]] = {
    "…": (True, False),
    "™": (True, False),
    "“": (False, True),
    "‘": (False, True),
    "”": (True, False),  # after a letter only when "“" comes before it
    "’": (True, True),  # at a word's end only when "‘" comes before it
    "–": (False, False),
    "—": (False, False),
    "•": (False, False),
    "€": (False, False),
}
_OPENING = {"”": "“", "’": "‘"}
#: A lowercase letter of latin-1 after an ASCII letter: a word of a Latin alphabet whose
#: bytes latin-1 read right ("parlé"). Bytes of macintosh, x-mac-cyrillic or cp437 read as
#: latin-1 seldom give one (their lowercase accented letters are C1 controls, or all of a
#: word's letters are latin-1's: "ïðèâåò" is Russian).
_LATIN_1_WORD = re.compile("[A-Za-z][\u00df-\u00f6\u00f8-\u00ff]")


def c1_punctuation(text: str) -> str | None:
    """The first C1 control of *text*, when *text* is windows-1252 read as latin-1 on this
    evidence: each C1 control is punctuation or a sign in windows-1252 and stands where
    that one does in real text (:data:`C1_PUNCTUATION`), a word holds a lowercase letter
    of latin-1 after an ASCII one, and no other single-byte reading of the field's bytes
    is about as likely (:func:`.siblings.latin_1_competing`): "parlé\x85 Tu sais" is
    "parlé… Tu sais". Otherwise None: the reading is a guess of the encoding."""
    if _LATIN_1_WORD.search(text) is None:
        return None
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:  # not only what a latin-1 decoder keeps
        return None
    repaired = _c1_read_as_1252(text)
    # Where each opening quote first stands: one search each, not one a closing quote.
    opened = {opening: repaired.find(opening) for opening in _OPENING.values()}
    first: str | None = None
    for match in _C1.finditer(text):
        start = match.start()
        char = repaired[start]
        place = C1_PUNCTUATION.get(char)
        if place is None:
            return None
        after_letter, before_letter = place
        letter_before = start > 0 and text[start - 1].isalpha()
        letter_after = start + 1 < len(text) and text[start + 1].isalpha()
        if (letter_before and not after_letter) or (letter_after and not before_letter):
            return None
        opening = _OPENING.get(char)
        at_word_end = letter_before and not letter_after
        if at_word_end and opening is not None and not 0 <= opened[opening] < start:
            return None
        if first is None:
            first = match.group()
    if first is None or latin_1_competing(raw, repaired) is not None:
        return None
    return first
