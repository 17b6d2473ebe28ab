"""The inspection of one flagged text: detection, ftfy's plan, the fallback, the verifier."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ftfy.badness import badness as ftfy_badness

from scrapy_charset.items._memo import short_memo
from scrapy_charset.items.mojibake import fallback, plan, verify
from scrapy_charset.items.mojibake.badness import (
    Evidence,
    Marks,
    cp437_evidence,
    evidence,
    lost_a0_at,
    scan,
    shift_jis_marks,
    weigh_rule,
)
from scrapy_charset.items.mojibake.chardata import (
    CP437,
    HALFWIDTH_KATAKANA,
    SAFE_KINDS,
    UTF8_READINGS,
    MojibakeKind,
)
from scrapy_charset.items.mojibake.legacy import legacy_as_windows_1252
from scrapy_charset.items.mojibake.plausible import badness as plausibility
from scrapy_charset.items.mojibake.plausible import implausible

_KIND_OF_READING = {
    "windows-1252": MojibakeKind.UTF8_AS_WINDOWS_1252,
    "windows-1251": MojibakeKind.UTF8_AS_WINDOWS_1251,
}
#: ftfy's encodings and the reading this package names.
_READING_OF_ENCODING = {
    "latin-1": "windows-1252",
    "sloppy-windows-1252": "windows-1252",
    "sloppy-windows-1254": "windows-1252",
    "sloppy-windows-1251": "windows-1251",
    "sloppy-windows-1250": "windows-1250",
    "sloppy-windows-1253": "windows-1253",
    "sloppy-windows-1257": "windows-1257",
    "iso-8859-2": "ISO-8859-2",
    "macroman": "macintosh",
    "cp437": CP437,
}
#: The single-byte encodings of ftfy's plans that compete as readings of the same bytes.
_SIBLINGS = (
    "sloppy-windows-1252",
    "sloppy-windows-1250",
    "iso-8859-2",
    "sloppy-windows-1257",
    "macroman",
    "sloppy-windows-1253",
    "sloppy-windows-1251",
    "cp437",
)
#: The readings whose whole-field judgement ftfy's own tests pin: a field that encodes
#: whole in one of them and that ftfy leaves alone is left alone.
_FTFY_READINGS = frozenset({CP437})
#: The fallback's readings that ftfy's plans never use: token by token windows-1251,
#: x-mac-cyrillic, Shift_JIS.
_BEYOND_FTFY = frozenset({"windows-1251", fallback.MAC_CYRILLIC, fallback.SHIFT_JIS})
MAX_PASSES = 3
#: The fallback's answer for a field ftfy reads whole in one of :data:`_FTFY_READINGS`
#: and leaves: text, not damage.
_LEFT_WHOLE = "left-whole"
LEAVES_DAMAGE = "leaves-damage"
#: The rule a legacy reading's report names: the readings weigh no sequence of their own.
LEGACY_READING = "legacy-reading"
NOTHING_DECODED = "nothing-decoded"
#: Continuation bytes a repair decodes (the characters it takes away) from which a legacy
#: reading of the same bytes no longer competes: random legacy bytes seldom form that
#: many valid UTF-8 sequences.
MIN_UTF8_BYTES = 3


@dataclass(frozen=True, slots=True)
class Found:
    kind: MojibakeKind
    repaired: str | None
    lossy: bool = False
    encoding: str | None = None
    rule: str | None = None
    evidence: str | None = None
    fixer: str | None = None
    remaining: MojibakeKind | None = None
    remaining_segments: int = 0
    verdict: str | None = None


class _Detected:
    """The evidence of each reading in one text, counted once."""

    def __init__(self, text: str, marks: Marks) -> None:
        self.text = text
        self.marks = marks
        self.by_reading: dict[str, Evidence] = {}
        self.best = evidence(text, UTF8_READINGS, marks, by_reading=self.by_reading)
        self._cp437: Evidence | None = None
        self._shown: tuple[tuple[MojibakeKind, str | None, str | None] | None] | None = None

    def enough(self, reading: str) -> bool:
        if reading == fallback.SHIFT_JIS:
            return shift_jis_marks(self.text, self.marks)
        if reading == CP437:
            if self._cp437 is None:
                self._cp437 = cp437_evidence(self.text, self.marks)
            return self._cp437.enough
        if reading == fallback.MAC_CYRILLIC:
            return bool(self.marks.mac_cyrillic)
        found = self.by_reading.get(reading)
        return found is not None and found.enough

    def decisive(self, reading: str) -> bool:
        """*reading*'s evidence in the text holds a decisive sign, not only weak ones."""
        if reading == CP437:
            return self.enough(CP437) and self._cp437 is not None and self._cp437.decisive > 0
        found = self.by_reading.get(reading)
        return found is not None and found.decisive > 0

    def damaged(self) -> tuple[MojibakeKind, str | None, str | None] | None:
        """The kind, rule and sequence of the damage this text shows, or None."""
        if self._shown is None:  # asked of one text several times: counted once
            self._shown = (self._damage(),)
        return self._shown[0]

    def weighed(
        self, *, enough: bool = False
    ) -> tuple[MojibakeKind, str | None, str | None] | None:
        """The kind, rule and sequence of the reading with the most decisive evidence (the
        first of equals) among those with a weighed sequence, or *enough* evidence."""
        found = [
            (r, e)
            for r, e in self.by_reading.items()
            if (e.enough if enough else e.decisive or e.weak)
        ]
        if not found:
            return None
        reading, evidence = max(found, key=lambda item: (item[1].decisive, item[1].weak))
        kind = _KIND_OF_READING.get(reading, MojibakeKind.UTF8_AS_OTHER)
        return kind, evidence.rule, evidence.sequence

    def _damage(self) -> tuple[MojibakeKind, str | None, str | None] | None:
        shown = self.weighed(enough=True)
        if shown is not None:
            return shown
        for row in fallback.ROWS:
            if row.reading not in self.by_reading and self.enough(row.reading):
                if row.reading == CP437 and self._cp437 is not None:
                    return row.kind, self._cp437.rule, self._cp437.sequence
                if row.reading == fallback.MAC_CYRILLIC:
                    at = self.marks.mac_cyrillic[0]  # a lead before its continuation
                    rule = weigh_rule(self.text, at, at + 2, fallback.MAC_CYRILLIC)[1]
                    return row.kind, rule, self.text[at : at + 2]
                if row.reading == fallback.SHIFT_JIS and (found := _HALFWIDTH.search(self.text)):
                    return row.kind, row.reading, found.group()  # a half-width katakana
                return row.kind, row.reading, None
        return None


_HALFWIDTH = re.compile(f"[{HALFWIDTH_KATAKANA}]")


def _plan(text: str) -> tuple[list[plan.Layer], str | None]:
    """The layers of ftfy's plan for *text* that the verifier accepts, and the verdict
    that stopped it. Each layer must bring in nothing that is not text and must not make
    ftfy's badness rise; the text after the last layer taken must be plausible (a layer
    between two of a double encoding is still damaged: it is judged by where it leads)."""
    chosen: list[plan.Layer] = []
    current = text
    verdict: str | None = None
    for layer in plan.layers(text):
        verdict = verify.judge(current, layer.text, plausible=False)
        if verdict is not None:
            break
        if layer.encoding is not None:
            better = _likeliest_sibling(current, layer)
            if better is None:
                verdict = verify.AMBIGUOUS
                break
            layer = better  # noqa: PLW2901 - the layer taken is the likeliest reading
        elif _IN_PLACE in layer.steps and not _likeliest_in_place(current, layer.text):
            verdict = verify.AMBIGUOUS
            break
        chosen.append(layer)
        current = layer.text
    while chosen:
        judged = verify.judge(text, chosen[-1].text)
        if judged is None:
            break
        further = _round_further(chosen)
        if (
            further is not None
            and verify.judge(chosen[-1].text, further.text) is None
            and verify.judge(text, further.text) is None
        ):
            chosen.append(further)  # a double encoding ftfy's plan stopped a round short of
            break
        verdict = judged
        chosen.pop()
    further = _round_further(chosen) if chosen else None
    if (
        further is not None
        and verify.judge(chosen[-1].text, further.text) is None
        and _Detected(chosen[-1].text, scan(chosen[-1].text)).damaged() is not None
    ):
        chosen.append(further)  # damage shows still after ftfy's last round
    return chosen, verdict


def _round_further(chosen: list[plan.Layer]) -> plan.Layer | None:
    """One more round of windows-1252 after *chosen* layers that are all windows-1252's,
    when the whole text after them is UTF-8 read so."""
    if _after(chosen) != "windows-1252":
        return None
    out = fallback.whole(chosen[-1].text, "windows-1252")
    if out is None:
        return None
    return plan.Layer((("encode", "sloppy-windows-1252"), ("decode", "utf-8")), out)


def _likeliest_sibling(current: str, layer: plan.Layer) -> plan.Layer | None:
    """The layer whose encoding is the likeliest reading of the bytes *layer* re-encodes
    (the competing single-byte encodings of :data:`_SIBLINGS` that also verify), *layer*
    itself when none competes, or None when the choice is ambiguous."""
    encoding = layer.encoding
    assert encoding is not None
    lossy = "\ufffd" in current
    readings = {encoding: layer.text}
    for other in _SIBLINGS:
        if other == encoding:
            continue
        try:
            result = plan.apply(current, _steps(other, lossy))
        except (UnicodeError, ValueError):
            continue
        if result not in readings.values() and verify.judge(current, result) is None:
            readings[other] = result
    if len(readings) == 1:
        return layer
    best = verify.likeliest(readings, prior=plan.WINDOWS_1252)
    if best is None:
        return None
    if best == encoding:
        return layer
    return plan.Layer(_steps(best, lossy), readings[best])


_IN_PLACE = ("apply", "decode_inconsistent_utf8")
#: The readings that compete with windows-1252's where ftfy decodes its sequences in
#: place (:data:`_IN_PLACE`).
_IN_PLACE_SIBLINGS = (
    "windows-1250",
    "ISO-8859-2",
    "windows-1257",
    "macintosh",
    fallback.MAC_CYRILLIC,
    "windows-1251",
    "windows-1253",
)


def _likeliest_in_place(current: str, repaired: str) -> bool:
    """windows-1252's reading of the sequences ftfy decodes in place (*repaired*) is
    likelier than every other reading of them that also verifies."""
    readings = {"windows-1252": repaired}
    for reading in _IN_PLACE_SIBLINGS:
        out = fallback.in_place(current, reading)
        if out is not None and out not in readings.values() and verify.judge(current, out) is None:
            readings[reading] = out
    return verify.likeliest(readings, prior=("windows-1252",)) == "windows-1252"


def _mixed(value: str, repaired: str) -> bool:
    """*value* holds clean words beside damaged ones: a non-ASCII word *repaired* keeps."""
    kept = set(_TOKEN.findall(repaired))
    return any(not t.isascii() and t in kept for t in _TOKEN.findall(value))


def _tokens_agree(value: str, repaired: str, mixed: bool) -> bool:
    """Each word of *value* that some reading decodes reads in *repaired* as its
    likeliest reading: a field may hold words damaged by different decodes, and a repair
    of the whole field must not give one of them another encoding's letters."""
    kept = set(_TOKEN.findall(repaired))
    changed = [
        token
        for token in set(_TOKEN.findall(value))
        if not token.isascii() and token not in kept and "\ufffd" not in token
    ]  # a word that lost bytes has no reading of its own to compare
    if len(changed) < 2 and not mixed:
        return True  # one damaged word: the field's own readings competed for it
    for token in changed:
        best, text = _likeliest_word(token)
        if best is None:
            if mixed:
                return False
            continue
        if text is not None and text.strip("\ufffd") not in repaired and scan(text).clean:
            return False
    return True


def clear_kept_words() -> None:
    """Forget the readings of words kept by :func:`_likeliest_word`."""
    _likeliest_word.cache_clear()


@short_memo(4096)
def _likeliest_word(token: str) -> tuple[str | None, str | None]:
    """The likeliest reading of *token* in place and its text (the one that verifies, when
    one does); (None, None) when readings verify and none is likeliest; ("", None) when
    none verifies or fewer than two readings decode."""
    outs: dict[str, str] = {}
    for reading in ("windows-1252", *_IN_PLACE_SIBLINGS):
        out = fallback.in_place(token, reading)
        if out is not None and out not in outs.values():
            outs[reading] = out
    if len(outs) < 2:
        return "", None  # one reading, or none: nothing competes
    readings = {name: out for name, out in outs.items() if verify.judge(token, out) is None}
    if len(readings) < 2:  # a repair that gives the word another reading gives one that fails
        return next(iter(readings.items()), ("", None))
    best = verify.likeliest(readings, prior=("windows-1252",))
    return best, readings[best] if best is not None else None


def _steps(encoding: str, lossy: bool) -> tuple[tuple[str, str], ...]:
    """Re-encode in *encoding*, decode as UTF-8; a sloppy encoding's lost sequences
    (U+FFFD in the text, *lossy*) kept as one U+FFFD each, as ftfy's plans do."""
    if lossy and encoding.startswith("sloppy-"):
        return (
            ("encode", encoding),
            ("transcode", "replace_lossy_sequences"),
            ("decode", "utf-8"),
        )
    return (("encode", encoding), ("decode", "utf-8"))


def _fallback(
    text: str, detected: _Detected, *, after_plan: bool | str
) -> tuple[fallback.Row, str, bool] | str | None:
    """The fallback's repair of *text*: the row and the text; or the verdict that turned
    it down (ambiguous); or None. After a layer of ftfy's plan (*after_plan*), only the
    rows ftfy's plans never read are tried: the plan stopped where its readings no longer
    held; but after a plan that decodes in place, every row reads in place what it left."""
    # A second round of windows-1252 is a double encoding ftfy's plan stopped short of.
    beyond = _BEYOND_FTFY | ({"windows-1252"} if after_plan in _WINDOWS_1252_AFTER else set())
    # What ftfy decoded in place, it decoded as windows-1252: the sequences it left (a C1
    # control or a no-break space among their bytes) are read in place too, and compete.
    rounds_only = after_plan and after_plan != _IN_PLACE_AFTER
    candidates: dict[str, str] = {}
    partial: set[str] = set()
    evidenced = False
    for row in fallback.ROWS:
        if not detected.enough(row.reading):
            continue
        evidenced = evidenced or row.reading not in (CP437, fallback.SHIFT_JIS)
        if after_plan and row.reading not in beyond:
            continue
        if row.reading in _FTFY_READINGS and fallback.encodes(text, row.reading):
            out = fallback.whole(text, row.reading)
            if out is not None and verify.judge(text, out) is None:
                # ftfy judged the field whole in this reading and left it: so does this
                # package, and no other reading of part of it is taken instead. With
                # another reading's evidence the field is reported; else it is text.
                if detected.decisive(row.reading) or any(
                    found.enough for found in detected.by_reading.values()
                ):
                    return verify.AMBIGUOUS
                return _LEFT_WHOLE
            continue
        for how in (fallback.whole, fallback.in_place):
            if how is fallback.in_place and row.reading not in _BEYOND_FTFY and rounds_only:
                continue  # a round further than ftfy's plan: the whole field only
            out = how(text, row.reading)
            if out is not None and how is fallback.in_place:
                out = _word_by_word(text, out)
            if out is None or out == text or out in candidates.values():
                continue
            if verify.judge(text, out) is None:
                candidates[row.reading] = out
                if how is fallback.in_place:
                    partial.add(row.reading)
                break
    if not candidates and not evidenced:
        return None
    # Every other reading of the same sequences competes, with evidence of its own or not.
    for row in fallback.ROWS:
        if row.reading in candidates or row.reading in (CP437, fallback.SHIFT_JIS):
            continue
        if rounds_only and row.reading not in _BEYOND_FTFY:
            continue  # in place, a round further than ftfy's plan is not taken
        out = fallback.in_place(text, row.reading)
        if out is not None:
            out = _word_by_word(text, out)
        if out is not None and out not in candidates.values() and verify.judge(text, out) is None:
            candidates[row.reading] = out
            partial.add(row.reading)
    if not candidates:
        return None
    whole = {name: out for name, out in candidates.items() if name not in partial}
    if whole:  # a reading of the whole field explains every byte: it beats a partial one
        candidates = whole
    best = verify.likeliest(candidates, prior=("windows-1252",))
    if best is None:
        return verify.AMBIGUOUS
    return fallback.BY_READING[best], candidates[best], best in partial


def _word_by_word(text: str, out: str) -> str | None:
    """*out*, a repair in place of *text*, with each word the verifier turns down on its
    own kept as *text* has it: a field's other words must not pay for one damaged word.
    A word is turned down when its repair is less plausible (a word of two alphabets, a
    mark that starts a word) or when the word as given is the likelier reading (the
    first two letters of a Belarusian word are windows-1251's reading of UTF-8's "ѳ").
    None when no word is left changed."""
    before, after = text.split(" "), out.split(" ")
    if len(before) != len(after):
        return out
    kept = [b if a == b or _word_stands(a, b) else a for a, b in zip(before, after, strict=True)]
    merged = " ".join(kept)
    return None if merged == text else merged


def _word_stands(given: str, repaired: str) -> bool:
    """The repair of one word is no less plausible than the word as given, and the word
    as given is not the likelier reading."""
    given, repaired = given.replace("\ufffd", ""), repaired.replace("\ufffd", "")
    return (
        implausible(given, repaired) is None
        and verify.likeliest({"given": given, "repair": repaired}) != "given"
    )


#: What :func:`_after` says of a plan whose layers all decode in place.
_IN_PLACE_AFTER = "in-place"
_WINDOWS_1252_AFTER = frozenset({"windows-1252", _IN_PLACE_AFTER})


def _after(chosen: list[plan.Layer]) -> bool | str:
    """What the fallback is told of the plan's layers taken: none (False), all windows-1252's
    (``"windows-1252"``), all in place (:data:`_IN_PLACE_AFTER`), or others (True)."""
    if not chosen:
        return False
    if all(_IN_PLACE in layer.steps for layer in chosen):
        return _IN_PLACE_AFTER
    encodings = {layer.encoding for layer in chosen}
    return "windows-1252" if encodings <= plan.WINDOWS_1252 else True


def _c1_only(layer: plan.Layer) -> bool:
    """The layer reads C1 controls as windows-1252, and nothing else."""
    return all(p in ("fix_c1_controls", "latin-1", "windows-1252") for _, p in layer.steps)


_STRAY = re.compile("^\ufffd|[\x00-\x7f]\ufffd")


def _decoded_nothing(value: str, repaired: str) -> bool:
    """The repair brings in no character but U+FFFD, in a field with a U+FFFD that no
    lost sequence explains (at its start, or after an ASCII character): legacy text
    decoded as UTF-8, not mojibake."""
    return (
        "\ufffd" in repaired
        and set(repaired) - {"\ufffd"} <= set(value)
        and _STRAY.search(value) is not None
    )


#: Punctuation that stands where windows-1252's would not: an opening quote right after
#: a letter, a dash against a letter. Its byte is likelier another encoding's letter.
_OUT_OF_PLACE = re.compile(
    "(?<=[^\\W\\d_])[\x84\x91\x93]|(?<=[^\\W\\d_])[\x96\x97]|[\x96\x97](?=[^\\W\\d_])"
)


def _c1_punctuation(text: str) -> bool:
    """Every C1 control of *text* is a punctuation mark or symbol in windows-1252, and
    none stands where that mark does not go."""
    c1 = {c for c in text if "\x80" <= c <= "\x9f"}
    if not c1 or "\ufffd" in text:
        return False
    for c in c1:
        try:
            mapped = c.encode("latin-1").decode("cp1252")
        except UnicodeDecodeError:
            return False
        if unicodedata.category(mapped)[0] not in "PS":
            return False
    return _OUT_OF_PLACE.search(text) is None


#: The single-byte readings of a whole field decoded as latin-1 that compete with its
#: repair: another encoding's bytes decoded so show C1 controls too.
_WHOLE_READINGS = {
    "windows-1252": "cp1252",
    "macintosh": "mac_roman",
    "x-mac-cyrillic": "mac_cyrillic",
    "windows-1250": "cp1250",
    "windows-1251": "cp1251",
}


def _whole_reading_beats(value: str, repaired: str, kind: MojibakeKind) -> bool:
    """*value* was decoded as latin-1 (it holds a C1 control windows-1252 never gives),
    and another single-byte reading of its bytes that verifies, and that is no less
    plausible than *repaired*, is likelier; or, for C1 controls read as windows-1252's
    (*kind*), as likely."""
    if not _LATIN_1_ONLY.search(value):
        return False
    try:
        raw = value.encode("latin-1")
    except UnicodeEncodeError:
        return False
    c1 = kind is MojibakeKind.C1_CONTROLS
    weight = plausibility(repaired)
    readings = {"repair": repaired}
    for name, codec in _WHOLE_READINGS.items():
        if name == "windows-1252" and not c1:
            continue  # the damaged text itself, C1 controls aside
        text = raw.decode(codec, "replace")
        if (
            text not in readings.values()
            and verify.judge(value, text) is None
            and plausibility(text) <= weight
        ):
            readings[name] = text
    if len(readings) == 1:
        return False
    best = verify.likeliest(readings, prior={"repair"})
    return best != "repair" and (best is not None or c1)


_C1 = re.compile("[\x80-\x9f]")


def _as_windows_1252(match: re.Match[str]) -> str:
    """A C1 control as windows-1252 reads its byte; one of its five undefined bytes kept."""
    try:
        return match.group().encode("latin-1").decode("windows-1252")
    except UnicodeDecodeError:
        return match.group()


def _explained(text: str, detected: _Detected) -> bool:
    """Some reading with evidence in *text* decodes UTF-8 sequences of it into text that
    brings in nothing that is not text and that ftfy's badness does not find odder."""
    for row in fallback.ROWS:
        if not detected.enough(row.reading):
            continue
        for how in (fallback.whole, fallback.in_place):
            out = how(text, row.reading)
            if out is not None and out != text and verify.judge(text, out) is None:
                return True
    return False


_TOKEN = re.compile("[^ \t\r\n]+")


def _left(value: str, repaired: str) -> MojibakeKind | None:
    """The kind of the damage *repaired* (a repair of *value*) still holds as *value*
    held it: a damaged or weighed sequence, or a damaged token, the repair did not touch.
    What the repair brought in is judged by the verifier, not here."""
    marks = scan(repaired)
    if marks.clean:
        return None
    detected = _Detected(repaired, marks)
    # A field a repair was undoing: one weighed sequence left, too few to repair on, is
    # damage too.
    shown = detected.damaged() or detected.weighed()
    if shown is None:
        return None
    kind, _rule, sequence = shown
    if sequence is not None:
        return kind if sequence in value else None
    kept = set(_TOKEN.findall(value))
    return kind if any(t in kept and not t.isascii() for t in _TOKEN.findall(repaired)) else None


#: A C1 control that windows-1252's decoder never gives (it gives one only for the five
#: bytes it leaves undefined): the text was decoded as latin-1, and is not legacy bytes
#: read as windows-1252.
_LATIN_1_ONLY = re.compile("[\x80\x82-\x8c\x8e\x91-\x9c\x9e\x9f]")


def _legacy(value: str, repaired: str | None, whole_field: bool) -> Found | str | None:
    """The legacy reading of *value* (CJK or Cyrillic bytes read as windows-1252) when it
    verifies and beats the UTF-8 *repaired*; the verdict ``ambiguous`` when neither is
    likelier; None when the UTF-8 repair stands."""
    short = repaired is not None and len(value) - len(repaired) < MIN_UTF8_BYTES
    if (repaired is not None and whole_field and not short) or _LATIN_1_ONLY.search(value):
        return None
    found = legacy_as_windows_1252(value)
    if found is not None and found.repaired is None and repaired is None:
        # Legacy bytes, in an encoding no reading tells apart: reported.
        return Found(
            MojibakeKind.LEGACY_AS_WINDOWS_1252,
            None,
            rule=LEGACY_READING,
            fixer="legacy",
            verdict=verify.AMBIGUOUS,
        )
    if found is None or found.repaired is None or verify.judge(value, found.repaired) is not None:
        return None
    if short and whole_field:
        assert repaired is not None
        best = verify.likeliest({"utf-8": repaired, "legacy": found.repaired}, prior={"utf-8"})
        if best is None:
            return verify.AMBIGUOUS
        if best == "utf-8":
            return None
    return Found(
        MojibakeKind.LEGACY_AS_WINDOWS_1252,
        found.repaired,
        encoding=found.encoding,
        rule=LEGACY_READING,
        fixer=f"legacy: {found.encoding}",
    )


def _worth_planning(value: str, detected: _Detected) -> bool:
    """Some UTF-8 sequence of a reading is in *value* (weighed decisive or weak), or a C1
    control (the pre-filter's mark), U+FFFD or a lost no-break space: only then is ftfy
    asked for a plan (its own check reads the whole text, at about 5 M characters a
    second)."""
    best = detected.best
    return bool(
        best.decisive
        or best.weak
        or detected.marks.c1
        or "\ufffd" in value
        or lost_a0_at(value, "ÂÃÅ", after_lowercase=False) >= 0  # ftfy's restore_byte_a0
        or detected.enough(CP437)
        or detected.marks.mac_cyrillic
    )


def find(value: str, marks: Marks) -> Found | None:
    """The damage in *value* (flagged by the pre-filter, *marks*) and its verified
    repair, or None when nothing is found."""
    detected = _Detected(value, marks)
    chosen, verdict = _plan(value) if _worth_planning(value, detected) else ([], None)
    if chosen and all(_c1_only(layer) for layer in chosen) and detected.damaged() is not None:
        # C1 controls among the sequences of another reading: that reading decides.
        chosen = []
    whole_field = not any(
        p == "decode_inconsistent_utf8" for layer in chosen for _, p in layer.steps
    )
    repaired = chosen[-1].text if chosen else None
    kind: MojibakeKind | None = plan.kind_of(chosen) if chosen else None
    fixer = f"ftfy: {plan.step_names(chosen)}" if chosen else None
    lossy = any(layer.lossy for layer in chosen)
    encoding = None
    if chosen and chosen[0].encoding is not None:
        encoding = _READING_OF_ENCODING.get(chosen[0].encoding)
    if kind is MojibakeKind.C1_CONTROLS:
        encoding = "windows-1252"  # the C1 controls are read as windows-1252's
        if not _c1_punctuation(value):
            fixer = f"{fixer} (c1)"
    # The fallback, on the text as given or on what the plan left.
    current = repaired if repaired is not None else value
    for _ in range(MAX_PASSES):
        current_marks = marks if current is value else scan(current)
        if current_marks.clean:
            break
        here = detected if current is value else _Detected(current, current_marks)
        if here.damaged() is None:
            break
        more = _fallback(current, here, after_plan=_after(chosen))
        if more is None:
            break
        if more == _LEFT_WHOLE:
            if repaired is None:
                return None
            break
        if isinstance(more, str):
            verdict = verdict or more
            break
        row, current, in_place = more
        whole_field = whole_field and not in_place
        if kind is None:
            kind = row.kind
            encoding = row.reading
        fixer = f"{fixer}; " if fixer else ""
        fixer += f"fallback: {row.reading}"
        repaired = current
    # A legacy reading of the same bytes, when plausible, beats a UTF-8 repair that is
    # partial, and competes with one that decodes too few sequences to be told from chance.
    if marks.legacy:
        legacy = _legacy(value, repaired, whole_field)
        if isinstance(legacy, Found):
            return legacy
        if legacy is not None:
            repaired, kind, verdict = None, None, legacy
    shown = detected.damaged()
    rule, sequence = (shown[1], shown[2]) if shown is not None else (None, None)
    if repaired is None or kind is None:
        if shown is None or (verdict is None and not _explained(value, detected)):
            # No reading explains the marks: nothing a user could act on.
            return None
        return Found(shown[0], None, rule=rule, evidence=sequence, verdict=verdict, fixer=None)
    if _decoded_nothing(value, repaired):
        return Found(
            kind,
            None,
            lossy=True,
            rule=rule,
            evidence=sequence,
            fixer=fixer,
            verdict=NOTHING_DECODED,
        )
    # What the repair left: a repair that would leave damage is reported, not applied.
    left = _left(value, repaired)
    if left is not None:
        return Found(
            kind,
            None,
            lossy=lossy,
            encoding=encoding,
            rule=rule,
            evidence=sequence,
            fixer=fixer,
            remaining=left,
            remaining_segments=1,
            verdict=LEAVES_DAMAGE,
        )
    if shown is None and not whole_field:
        if repaired != _C1.sub(_as_windows_1252, value):
            return None  # a repair in place needs this package's evidence
        kind = MojibakeKind.C1_CONTROLS  # what the repair does: C1 controls read so
        encoding = "windows-1252"
    if (
        # Some damaged word reads likelier, or as likely, in another encoding.
        (
            kind is not MojibakeKind.C1_CONTROLS
            and len(chosen) <= 1  # a word of a layered repair has no reading of its own
            and not _tokens_agree(value, repaired, _mixed(value, repaired))
        )
        # The bytes of another single-byte encoding, decoded as latin-1.
        or _whole_reading_beats(value, repaired, kind)
        # A sequence or two of the fallback's: the text as given is a reading too, and
        # the repair is no likelier (a Ukrainian abbreviation with a registered sign).
        or (
            not chosen
            and encoding is not None
            and len(value) - len(repaired) < MIN_UTF8_BYTES
            and verify.likeliest({"given": value, "repair": repaired}, prior=("given",)) != "repair"
        )
    ):
        return Found(
            kind,
            None,
            lossy=lossy,
            rule=rule,
            evidence=sequence,
            fixer=fixer,
            verdict=verify.AMBIGUOUS,
        )
    if shown is None and encoding not in (None, "windows-1252", "windows-1251"):
        # Only ftfy's plan reads the field in a sibling encoding: no evidence of this
        # package's says the bytes were that encoding's.
        return Found(
            kind,
            None,
            lossy=lossy,
            rule=chosen[0].steps[0][1] if chosen else None,
            fixer=fixer,
            verdict=verify.AMBIGUOUS,
        )
    if (
        shown is None
        and ftfy_badness(repaired) >= ftfy_badness(value)
        and kind is not MojibakeKind.C1_CONTROLS
    ):
        # Neither this package's evidence nor ftfy's measure says the text was damaged.
        return None
    return Found(
        kind,
        repaired,
        lossy=lossy,
        encoding=encoding,
        rule=rule or (chosen[0].steps[0][1] if chosen else None),
        evidence=sequence,
        fixer=fixer,
    )


def allowed(found: Found, value: str, legacy: bool) -> bool:
    """The policy: by default only the exact inverses, and C1 controls that are all
    punctuation in windows-1252."""
    if found.repaired is None:
        return False
    if legacy:
        return True
    if found.kind in SAFE_KINDS:
        return True
    return found.kind is MojibakeKind.C1_CONTROLS and _c1_punctuation(value)
