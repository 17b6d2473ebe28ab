"""The compiled scanner (Hyperscan, optional) gives the marks and reports of the pure path.

The pure path's regular expressions are the reference: with the scanner, they are tried
only where one of its expressions matches, which must be every place they match at. Here
the scanner reads text of any length and script (its size and density gates lifted), and
its marks and :func:`inspect_unguarded` reports are compared with the pure path's.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks._itemdata import clean_values, legacy_samples, utf8_samples
from benchmarks._negative import negative_corpus
from scrapy_charset.items.mojibake import _fastscan, badness
from scrapy_charset.items.mojibake.badness import Marks, scan
from scrapy_charset.items.textcheck import TextReport, inspect_unguarded
from tests.test_badness import _MARK_CHARS, _SEQUENCE_CHARS, ENGLISH, sparse_text

pytest.importorskip("hyperscan")
if _fastscan.SCANNER != "hyperscan":  # SCRAPY_CHARSET_PURE is set
    pytest.skip("the pure path is forced", allow_module_level=True)


@pytest.fixture(autouse=True)
def _scanner_everywhere() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(badness, "_FAST_SIZE", 0)
        patch.setattr(badness, "_FAST_DENSITY", 10.0)
        yield


def pure(text: str) -> tuple[Marks, TextReport]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(badness, "_FAST_PATH", False)
        return scan(text), inspect_unguarded(text)


def fast(text: str) -> tuple[Marks, TextReport]:
    assert badness._FAST_PATH
    return scan(text), inspect_unguarded(text)


def test_the_scanner_is_used() -> None:
    text = ENGLISH + "Ã©"
    assert badness._found_fast(text) is not None
    assert scan(text).latin


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.text(alphabet=_MARK_CHARS + "abc ", max_size=200),
        st.text(alphabet=_SEQUENCE_CHARS + "a ", max_size=200),
        sparse_text,
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


def test_a_lone_surrogate_is_left_to_the_pure_path() -> None:
    text = ENGLISH + "\ud800Ã©"
    assert badness._found_fast(text) is None
    assert scan(text) == pure(text)[0]


def test_the_negative_corpus_gives_the_pure_path_s_marks_and_reports() -> None:
    texts = [t for values in negative_corpus(step=40).values() for t in values]
    differ = [text for text in texts if fast(text) != pure(text)]
    assert differ == []
