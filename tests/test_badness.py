"""The pre-filter's two ways through a text give the same marks, and miss no UTF-8 sequence.

Long text whose non-ASCII characters are few and apart is scanned only around the places
where two of them meet (:func:`scrapy_charset.items.mojibake.badness._places`); every
other text in one pass. The marks must be the same either way, wherever a mark falls
(first or last character, the edge of a place, two places that touch), and for every
kind of mark; and the legacy readings must reject long text from its start exactly as
they do from the whole.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks._itemdata import cldr_names, windows_1252
from scrapy_charset import decode
from scrapy_charset.items.mojibake import badness, legacy
from scrapy_charset.items.mojibake.badness import Marks, scan
from scrapy_charset.items.mojibake.chardata import (
    C1_RANGE,
    HALFWIDTH_KATAKANA,
    SHIFT_JIS_UTF8_LEADS,
    UTF8_READINGS,
    WINDOWS_1252_HIGH,
    encode_windows_1252,
)

#: Real English text with a few non-ASCII characters (CLDR's names of territories,
#: languages and currencies): "Côte d’Ivoire", "Åland Islands", "Curaçao".
ENGLISH = ", ".join(cldr_names("en"))
HALFWIDTH_KATAKANA_CHARS = "".join(chr(c) for c in range(0xFF61, 0xFFA0))


def whole(text: str) -> Marks:
    """The marks of one pass over the whole *text*."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(badness, "_places", lambda _text: None)
        return scan(text)


def test_english_is_sparse() -> None:
    # The text the fast way is for: non-ASCII characters apart, and a few pairs.
    places = badness._places(ENGLISH)
    assert places is not None
    assert not ENGLISH.isascii()


# A mark of each kind, as mojibake makes it, and legitimate pairs the pattern stops at.
MARKS = [
    pytest.param(windows_1252("é".encode()), id="latin-utf8-as-1252"),
    pytest.param(windows_1252("’".encode()), id="latin-three-bytes"),
    pytest.param(decode("ї".encode(), "windows-1251"), id="script-after-lead"),
    pytest.param("Пії", id="script-continuation-pair"),
    pytest.param("\x92", id="single-c1-control"),
    pytest.param("ｱ", id="single-halfwidth-katakana"),
    pytest.param(SHIFT_JIS_UTF8_LEADS[0], id="single-shift-jis-lead"),
    pytest.param(windows_1252("中国".encode("gbk")), id="legacy-pair"),
    pytest.param(windows_1252("越南".encode("big5")), id="legacy-trail"),
    pytest.param("ñoñ", id="trail-between-letters"),
    pytest.param("l’École", id="legitimate-pair"),
    pytest.param("√©", id="utf8-as-macintosh"),
    pytest.param("\ud800", id="lone-surrogate"),
]


def _positions(text: str) -> Iterator[tuple[str, int]]:
    size = len(text)
    yield from (
        ("start", 0),
        ("second", 1),
        ("middle", size // 2),
        ("before-end", size - 1),
        ("end", size),
    )


@pytest.mark.parametrize("mark", MARKS)
@pytest.mark.parametrize(("where", "at"), list(_positions(ENGLISH)))
def test_mark_anywhere_in_sparse_text(mark: str, where: str, at: int) -> None:
    text = ENGLISH[:at] + mark + ENGLISH[at:]
    assert scan(text) == whole(text)


@pytest.mark.parametrize("mark", MARKS)
def test_marks_next_to_each_other_and_to_a_place(mark: str) -> None:
    # Beside the apostrophe of "Côte d’Ivoire" and the ç of "Curaçao", twice in a row, and
    # after an accented letter at the very end.
    pair = ENGLISH.index("d’I")
    accented = ENGLISH.index("ç")
    text = (
        ENGLISH[:accented]
        + mark
        + ENGLISH[accented:pair]
        + mark
        + mark
        + ENGLISH[pair:]
        + "é"
        + mark
    )
    assert scan(text) == whole(text)


@pytest.mark.parametrize(
    "char",
    [
        pytest.param(C1_RANGE[0], id="first-c1"),
        pytest.param(C1_RANGE[-1], id="last-c1"),
        pytest.param(HALFWIDTH_KATAKANA[0], id="first-halfwidth-katakana"),
        pytest.param(HALFWIDTH_KATAKANA[-1], id="last-halfwidth-katakana"),
        *(
            pytest.param(c, id=f"shift-jis-lead-U+{ord(c):04X}")
            for c in SHIFT_JIS_UTF8_LEADS[:: max(1, len(SHIFT_JIS_UTF8_LEADS) // 8)]
        ),
    ],
)
def test_a_mark_of_one_character_sends_the_text_through_the_whole_scan(char: str) -> None:
    # The places are pairs: a text with a mark of its own character anywhere is read whole.
    assert badness._places(ENGLISH + char) is None


def test_every_mark_of_one_character_is_seen_by_the_byte_classes() -> None:
    # C1 controls are found by their bytes (C2 80-9F), the others by their lead byte.
    singles = [chr(c) for c in range(0x80, 0xA0)] + list(
        HALFWIDTH_KATAKANA_CHARS + SHIFT_JIS_UTF8_LEADS
    )
    for char in singles:
        raw = char.encode("utf-8")
        assert b"S" in badness._characters(raw) or badness._C1_BYTES.search(raw), char


_MARK_CHARS = (
    "éèÃÂ©®’“”€™Ð¿Ñ€ÐšПіїєВІ\u00a0«»–—…ñÑ\x80\x92\x9dｱ縺√ÖÐ¹ú¶V«n中\ud800😀"
    "─┼├╨╤ßΓΣαπ≡│┐╗║"  # cp437's leads and box drawing
)
sparse_text = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(max_codepoint=0x7F), min_size=1, max_size=40),
        st.text(alphabet=_MARK_CHARS, min_size=1, max_size=3),
        st.sampled_from(["ñoñ", "l’É", "Ã©t", "Пі", "дії", "\x1a"]),
    ),
    min_size=1,
    max_size=80,
).map(lambda parts: ENGLISH[: 300 + 7 * len(parts)] + "".join(parts))


@settings(max_examples=400, deadline=None)
@given(sparse_text)
def test_sparse_text_gives_the_marks_of_the_whole_scan(text: str) -> None:
    expected = whole(text)
    assert scan(text) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=600))
def test_any_text_gives_the_marks_of_the_whole_scan(text: str) -> None:
    assert scan(text) == whole(text)


# --- Legacy readings of long text ----------------------------------------------------------

LONG_LEGACY = [
    # (text, the reading found, or None)
    pytest.param(ENGLISH, None, id="english"),
    pytest.param(ENGLISH + windows_1252("中国".encode("gbk")), None, id="english-then-gbk"),
    pytest.param(windows_1252("中国".encode("gbk")) + ENGLISH, None, id="gbk-then-english"),
    pytest.param(windows_1252(("北京市，中国。" * 900).encode("gbk")), "GBK", id="gbk-text"),
    pytest.param(
        windows_1252(("東京都、日本。" * 900).encode("cp932")), "Shift_JIS", id="shift-jis-text"
    ),
    pytest.param(
        windows_1252(("Москва, Россия. " * 500).encode("cp1251")), "windows-1251", id="cp1251"
    ),
    pytest.param("x" + windows_1252(("中国" * 2000).encode("gbk")), "GBK", id="gbk-after-x"),
    pytest.param("中" + ENGLISH, None, id="not-windows-1252-at-start"),
    pytest.param(ENGLISH + "中", None, id="not-windows-1252-at-end"),
]


@pytest.mark.parametrize(("text", "encoding"), LONG_LEGACY)
def test_legacy_readings_of_long_text(text: str, encoding: str | None) -> None:
    found = legacy.legacy_as_windows_1252(text)
    assert (found and found.encoding) == encoding


# --- Every UTF-8 sequence is read, whatever the pass leaves out ---------------------------


def every_sequence(text: str) -> set[tuple[str, int, int]]:
    """Every UTF-8 sequence each reading shows in *text*, found at every position (in one
    reading, a sequence's continuation characters are never its leads, so they never
    overlap)."""
    return {
        (name, start, found.end())
        for name in UTF8_READINGS
        for start in range(len(text))
        if (found := badness._SEQUENCES[name].match(text, start)) is not None
    }


# Text windows-1252 cannot encode (ł), so the pass looks for the pairs of one reading.
NO_SEQUENCE = [
    # ó is a four-byte lead in windows-1252, -1250, -1257 and ISO-8859-2, and needs three
    # continuation characters; ł is one, the space is not.
    pytest.param("Półwysep, pół ceny", id="polish-four-byte-lead-without-its-three"),
    # Č is a lead of windows-1250 and í a continuation of macintosh only.
    pytest.param("Čísla ł", id="czech-pair-of-two-readings"),
    pytest.param("Đông Nam Á ł", id="vietnamese-pair-of-two-readings"),
    pytest.param("Väärä ł", id="estonian-pair-of-two-readings"),
]


@pytest.mark.parametrize("text", NO_SEQUENCE)
def test_a_pair_of_no_one_reading_is_no_mark(text: str) -> None:
    marks = scan(text)
    assert marks.latin == []
    assert list(badness.utf8_sequences(text, marks)) == []


SEQUENCES = [
    pytest.param(windows_1252("é".encode()) + " ł", "windows-1252", id="two-byte-windows-1252"),
    pytest.param(windows_1252("’".encode()) + " ł", "windows-1252", id="three-byte-windows-1252"),
    pytest.param(windows_1252("😀".encode()) + " ł", "windows-1252", id="four-byte-windows-1252"),
    pytest.param(decode("é".encode(), "macintosh") + " ł", "macintosh", id="two-byte-macintosh"),
    pytest.param(decode("ł".encode(), "windows-1250") + " ł", "windows-1250", id="windows-1250"),
    pytest.param(decode("ą".encode(), "windows-1257") + " ł", "windows-1257", id="windows-1257"),
]


@pytest.mark.parametrize(("text", "reading"), SEQUENCES)
def test_a_sequence_of_one_reading_is_a_mark(text: str, reading: str) -> None:
    found = list(badness.utf8_sequences(text))
    assert (reading, 0, text.index(" ")) in found
    assert set(found) == every_sequence(text)


# Text windows-1252 encodes whole: after its first legacy mark (here a GBK character read
# as windows-1252), the pass looks for no more of them, and still finds every other mark.
_GBK = windows_1252("中国".encode("gbk"))
AFTER_LEGACY = [
    # (text, the mark after the legacy one, whether a UTF-8 sequence is there)
    pytest.param(_GBK + " CafÃ©", "latin", True, id="latin-after-legacy-pair"),
    # é then ©: a lead of windows-1252 that needs two continuation characters, and no
    # sequence in any other reading.
    pytest.param(_GBK + " caf\u00e9\u00a9", "none", False, id="pair-of-no-reading"),
    pytest.param(_GBK + " \x92", "c1", False, id="c1-after-legacy-pair"),
    pytest.param(windows_1252("越南".encode("big5")) + " CafÃ©", "latin", True, id="after-trail"),
    # Found at the lead: ’ is a macintosh lead, é its continuation ("Վ").
    pytest.param(_GBK + " l’école", "latin", True, id="macintosh-lead-after-legacy"),
    # – ends windows-1252's "Ã–" (Ö) and starts macintosh's "–é": both leads are marks.
    pytest.param(_GBK + " Ã–é", "latin", True, id="lead-of-one-reading-continuation-of-another"),
    # A C1 control is a mark of its own and windows-1252's continuation (latin-1's É).
    pytest.param(_GBK + " Ã\x89", "c1", True, id="c1-continuation-after-legacy"),
]


@pytest.mark.parametrize(("text", "kind", "sequence"), AFTER_LEGACY)
def test_marks_after_the_first_legacy_mark(text: str, kind: str, sequence: bool) -> None:
    marks = scan(text)
    assert marks.legacy
    legacy_part = text[: text.index(" ")]
    latin_after = [p for p in marks.latin if p > len(legacy_part)]
    assert bool(latin_after) == (kind == "latin" or (kind == "c1" and sequence))
    assert marks.c1 == (kind == "c1")
    assert marks.script == {}  # no script reading's lead is in windows-1252
    sequences = every_sequence(text)
    assert bool(sequences - every_sequence(legacy_part)) == sequence
    assert set(badness.utf8_sequences(text, marks)) == sequences


# Text windows-1252 encodes whole is a legacy suspect only when its bytes may hold a legacy
# reading: two CJK characters' bytes, or three bytes above 0x7F in a row.
LEGACY_SUSPECTS = [
    # (text, a legacy suspect, clean)
    # A0 and 80 are a lead of macintosh and a continuation of windows-1252: a pair of no
    # one reading, one GBK character's bytes, no second one.
    pytest.param("94\u00a0574,50\u00a0€", False, True, id="price-with-no-break-spaces"),
    pytest.param("€\u00a05", False, True, id="euro-sign-first"),
    pytest.param(_GBK, True, False, id="gbk-read-as-windows-1252"),
    pytest.param(windows_1252("Москва".encode("cp1251")), True, False, id="cp1251-read-so"),
    pytest.param("Lýðveldið Slóvakía", True, False, id="icelandic-pairs-of-gbk-bytes"),
    pytest.param("Crème brûlée", True, False, id="french-pairs-of-gbk-bytes"),
]


@pytest.mark.parametrize(("text", "suspect", "clean"), LEGACY_SUSPECTS)
def test_a_legacy_suspect_needs_bytes_a_reading_could_take(
    text: str, suspect: bool, clean: bool
) -> None:
    marks = scan(text)
    assert marks.legacy == suspect
    assert marks.clean == clean


_LEGACY_BYTES = st.binary(max_size=24).map(
    lambda raw: raw.decode("latin-1").translate(
        {0x80 + i: c for i, c in enumerate(WINDOWS_1252_HIGH[:0x20])}
    )
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_LEGACY_BYTES, st.text(alphabet="ÀÁâéèð€ýþ¶«V¢aé 1", max_size=24)))
def test_bytes_no_reading_could_take_have_no_reading(text: str) -> None:
    """The byte shapes :func:`legacy.may_read` asks for are necessary: without them, no
    CJK or Cyrillic reading of the bytes is plausible."""
    raw = encode_windows_1252(text)
    assert raw is not None
    if legacy._CJK_PAIR.search(raw) is None:
        assert legacy._cjk_readings(text, raw) == []
    if legacy._CYRILLIC_WORD.search(raw) is None:
        assert legacy._cyrillic_readings(text, raw) == []


_SEQUENCE_CHARS = _MARK_CHARS + "łóąćżČíĐôäÄ‡ÐÑ¸ºª√π¬∆ÔÒÚÛ" + _GBK


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        sparse_text,
        st.text(alphabet=_SEQUENCE_CHARS + "abc ", max_size=60),
        st.text(max_size=200),
    )
)
def test_every_sequence_is_read(text: str) -> None:
    assert set(badness.utf8_sequences(text)) == every_sequence(text)


# The rule a report names does not depend on how a set of reading names iterates: the
# same text gives the same rule under any hash seed (ftfy's case with lost bytes, where
# two readings' sequences start at the same character).
def test_rule_named_is_the_same_under_any_hash_seed() -> None:
    import os
    import subprocess
    import sys

    text = "ItÃ?Â¢â?¬â?¢s classic. ItÃ?Â¢â?¬â?¢s epic. ItÃ?Â¢â?¬â?¢s ELIZABETH"
    code = (
        "import sys; from scrapy_charset.items.textcheck import inspect_text; "
        "r = inspect_text(sys.argv[1]); print(r.rule, repr(r.evidence))"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code, text],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "2", "3")
    }
    assert len(seen) == 1, seen
