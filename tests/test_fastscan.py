# ruff: noqa: RUF001 (look-alike characters are the data here)
"""The compiled scanner (optional) gives the marks and reports of the pure path.

The pure path's regular expressions are the reference: with the scanner, they are tried
only where its table of classes finds a branch's characters side by side, which must be
every place they match at. Here the marks of :func:`scan` and the reports of
:func:`inspect_unguarded` on both paths are compared, on arbitrary text of every kind of
string (1-, 2- and 4-byte, astral characters, lone surrogates), on mark-heavy alphabets,
sparse text and the benchmarks' fields; and text whose script marks the scanner finds
quiet has no evidence on the pure path.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks._itemdata import clean_values, legacy_samples, utf8_samples
from benchmarks._negative import negative_corpus
from benchmarks.items import _text
from scrapy_charset.items.mojibake import _fastscan, badness
from scrapy_charset.items.mojibake.badness import NONE, Evidence, Marks, evidence, scan
from scrapy_charset.items.mojibake.chardata import _shift_jis_utf8_leads
from scrapy_charset.items.textcheck import TextReport, inspect_unguarded
from scrapy_charset.whatwg._singlebyte import HIGH_HALVES
from tests.test_badness import _MARK_CHARS, _SEQUENCE_CHARS, ENGLISH, sparse_text

if _fastscan.SCANNER != "compiled":
    pytest.skip(
        "the compiled scanner is not in use: not built (python scripts/build_scanner.py) "
        "or SCRAPY_CHARSET_PURE is set",
        allow_module_level=True,
    )


def pure(text: str) -> tuple[Marks, TextReport]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(badness, "_FAST_PATH", False)
        return scan(text), inspect_unguarded(text)


def fast(text: str) -> tuple[Marks, TextReport]:
    assert badness._FAST_PATH
    return scan(text), inspect_unguarded(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(ENGLISH + "Ã©", id="latin-1-kind"),
        pytest.param("cafÃ© Łódź", id="2-byte-kind"),
        pytest.param("😀 cafÃ©", id="4-byte-kind"),
    ],
)
def test_the_scanner_finds_the_marks(text: str) -> None:
    assert badness._found_fast(text) is not None
    assert scan(text).latin
    assert fast(text) == pure(text)


@pytest.mark.parametrize(
    ("text", "encodable"),
    [
        pytest.param("café", True, id="latin-1"),
        pytest.param("\x81\x8d café", True, id="c1-controls"),
        pytest.param("€ œ ™ café", True, id="windows-1252-high"),
        pytest.param("€ œ Ł", False, id="latin-extended"),
        pytest.param("привет", False, id="cyrillic"),
        pytest.param("😀", False, id="astral"),
        pytest.param("\ud800", False, id="lone-surrogate"),
        pytest.param("", True, id="empty"),
    ],
)
def test_the_scanner_tells_whether_windows_1252_encodes_the_text(
    text: str, encodable: bool
) -> None:
    assert badness._candidates is not None
    assert badness._candidates(text)[0] is encodable
    assert badness._encodable(text) is encodable


def _kind(limit: int) -> st.SearchStrategy[str]:
    """Text whose characters are below *limit*, with marks' characters of that range."""
    marks = [c for c in _SEQUENCE_CHARS + "\x81\x8d\x98" if ord(c) < limit]
    return st.text(
        alphabet=st.one_of(
            st.sampled_from(marks + list("abc @~")),
            st.characters(max_codepoint=limit - 1, exclude_categories=()),
        ),
        max_size=200,
    )


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.text(alphabet=_MARK_CHARS + "abc ", max_size=200),
        st.text(alphabet=_SEQUENCE_CHARS + "a ", max_size=200),
        # The lost no-break space's shape ("voilÃ le"), in short and in sparse text.
        st.text(alphabet="ÃÂaZé ✔", max_size=40),
        st.builds(lambda a, b: a + "voilÃ le" + b, sparse_text, sparse_text),
        sparse_text,
        _kind(0x100),  # 1-byte strings
        _kind(0x10000),  # 2-byte strings, lone surrogates among them
        _kind(0x110000),  # 4-byte strings
    )
)
def test_any_text_gives_the_marks_and_report_of_the_pure_path(text: str) -> None:
    assert fast(text) == pure(text)


def _benchmark_fields() -> Iterator[str]:
    fields = clean_values(per_language=20)
    yield from (f.text for f in fields)
    yield from (s.damaged for s in utf8_samples(fields))
    yield from (s.damaged for s, _ in legacy_samples(fields))


def test_the_benchmark_fields_give_the_pure_path_s_marks_and_reports() -> None:
    differ = [text for text in _benchmark_fields() if fast(text) != pure(text)]
    assert differ == []


_SCRIPTS = ("en", "fr", "cs", "vi", "ru", "uk", "el", "zh_CN", "ja", "ar")


@pytest.mark.parametrize("script", _SCRIPTS)
def test_the_benchmark_texts_give_the_pure_path_s_marks_and_reports(script: str) -> None:
    text = _text(script, 20_000)
    assert fast(text) == pure(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(ENGLISH + "\ud800Ã©", id="surrogate-then-mark"),
        pytest.param("\udc80\udcc3\udca9 Ã©", id="surrogates-only"),
        pytest.param("Ã\ud800©", id="surrogate-inside"),
    ],
)
def test_a_lone_surrogate_gives_the_pure_path_s_marks(text: str) -> None:
    assert fast(text) == pure(text)


def test_the_negative_corpus_gives_the_pure_path_s_marks_and_reports() -> None:
    texts = [t for values in negative_corpus(step=40).values() for t in values]
    differ = [text for text in texts if fast(text) != pure(text)]
    assert differ == []


@pytest.mark.parametrize(
    "joiner",
    [
        pytest.param(" ", id="apart"),
        pytest.param("", id="side-by-side"),
        pytest.param("Ã", id="after-a-latin-lead"),
        pytest.param("\x81", id="after-a-c1-control"),
    ],
)
def test_the_counted_shift_jis_leads_are_the_pure_path_s(joiner: str) -> None:
    # The compiled scanner counts these marks instead of handing them to the pattern.
    text = joiner.join(_shift_jis_utf8_leads())
    assert fast(text) == pure(text)
    assert scan(text).shift_jis_leads > 0


# --- The quiet test: script marks that can never be evidence, told apart in C ---------------

_UKRAINIAN = _text("uk", 20_000)
_DAMAGED = "Україна, Київ".encode().decode("windows-1251")


def _quiet(text: str) -> bool:
    assert badness._candidates is not None
    return badness._candidates(text)[3] is not None


@pytest.mark.parametrize(
    ("text", "quiet"),
    [
        pytest.param(_UKRAINIAN, True, id="ukrainian-clean"),
        pytest.param("Він", True, id="capital-then-i"),
        pytest.param("Об’єднані, її, Пів", True, id="apostrophe-and-double-letters"),
        pytest.param(_DAMAGED, False, id="ukrainian-as-windows-1251"),
        pytest.param(_UKRAINIAN + " " + _DAMAGED, False, id="mixed"),
        pytest.param("Ві", False, id="no-script-letter-outside"),
        pytest.param("Ві Paris", False, id="lone-script-letters"),
        pytest.param("аВіт", False, id="case-break"),
        pytest.param("ВІв", False, id="capitals-then-lowercase"),
        pytest.param("НПів", False, id="capital-capital-lowercase"),
        pytest.param("Віx", False, id="two-scripts-in-a-word"),
        pytest.param("Ъів", False, id="mixed-cyrillic-alphabets"),
        pytest.param("Вєнё’", False, id="run-of-sequences"),
        pytest.param("ΞΒ’ о", False, id="windows-1253-sequence"),
        pytest.param("Він Ã©", False, id="another-mark"),
        pytest.param("Він \x81", False, id="a-mark-of-one-character"),
        pytest.param("Він і Рє", False, id="one-letter-word-at-the-end"),
        pytest.param("Він Рє їжак", False, id="one-letter-word"),
        pytest.param("Він (Рє) їжак", False, id="one-letter-word-in-brackets"),
    ],
)
def test_the_quiet_test_gives_the_pure_path_s_marks_and_reports(text: str, quiet: bool) -> None:
    assert _quiet(text) is quiet
    assert scan(text).quiet is quiet
    assert fast(text) == pure(text)


def test_quiet_marks_are_clean_on_the_pure_path() -> None:
    marks, report = pure(_UKRAINIAN)
    assert marks.script
    assert report.clean
    weighed: list[tuple[str, int, int, int]] = []
    assert not evidence(_UKRAINIAN, marks=marks, weighed=weighed).some
    assert weighed
    assert {w for *_, w in weighed} == {NONE}


_CYRILLIC = HIGH_HALVES["windows-1251"] + HIGH_HALVES["windows-1253"][0x40:] + "Bb ,’-"


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.text(alphabet=_CYRILLIC, max_size=60),
        st.lists(
            st.one_of(st.sampled_from(_UKRAINIAN.split()), st.text(_CYRILLIC, max_size=4)),
            max_size=20,
        ).map(" ".join),
    )
)
def test_quiet_text_has_no_evidence_on_the_pure_path(text: str) -> None:
    assert fast(text) == pure(text)
    if _quiet(text):
        marks, report = pure(text)
        weighed: list[tuple[str, int, int, int]] = []
        by_reading: dict[str, Evidence] = {}
        evidence(text, marks=marks, by_reading=by_reading, weighed=weighed)
        assert {w for *_, w in weighed} <= {NONE}
        assert not any(e.some for e in by_reading.values())
        assert report.clean or "\ufffd" in text


@pytest.mark.parametrize(
    "rule",
    [r for r in badness.RULES if r.example[3] in ("windows-1251", "windows-1253")],
    ids=lambda r: r.name,
)
def test_a_script_rule_s_example_is_never_quiet(rule: badness.Rule) -> None:
    """The quiet test mirrors the evidence rules in C: each rule of a script reading, with
    its example in clean Ukrainian text around, gives the pure path's marks and report (a
    rule added without its C side fails here)."""
    before, sequence, after, _reading = rule.example
    text = f"Він і їжак {before}{sequence}{after} їжак і Він"
    assert fast(text) == pure(text)
    assert not pure(text)[1].clean
