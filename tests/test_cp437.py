# ruff: noqa: RUF001 (look-alike characters are the data here)
"""UTF-8 read as cp437 (DOS's code page): its marks, its evidence rules and its repair,
and correct text with box drawing, Greek letters and math signs left alone."""

from __future__ import annotations

import pytest

from scrapy_charset.items.mojibake import badness
from scrapy_charset.items.mojibake.chardata import CP437, encode_reading, high_half
from scrapy_charset.items.textcheck import inspect_text

#: (damaged, repaired): UTF-8 read as cp437, and what the default repair gives.
REPAIRED = [
    pytest.param("─îe┼ítina", "Čeština", id="czech"),
    pytest.param("Tiß║┐ng Viß╗çt", "Tiếng Việt", id="vietnamese"),
    pytest.param("#╨┐╤Ç╨░╨▓╨╕╨╗╤î╨╜╨╛╨╡", "#правильное", id="russian"),
    pytest.param("caf├⌐ cr├¿me br├╗l├⌐e", "café crème brûlée", id="french"),
    pytest.param("Col├│n, Bogot├í", "Colón, Bogotá", id="spanish"),
    pytest.param("╫⌐╫£╫ò╫¥", "שלום", id="hebrew"),
    pytest.param("Σ╕¡σ¢╜", "中国", id="chinese"),
    pytest.param(
        "Mörkö, Čeština, N├╜tt ├¡sraelskt sheqel, Ωmega",
        "Mörkö, Čeština, Nýtt ísraelskt sheqel, Ωmega",
        id="one-name-among-correct-ones",
    ),
]


@pytest.mark.parametrize(("damaged", "repaired"), REPAIRED)
def test_utf8_read_as_cp437_is_repaired(damaged: str, repaired: str) -> None:
    report = inspect_text(damaged)
    assert report.repaired == repaired
    assert report.fixer is not None
    assert "cp437" in report.fixer


@pytest.mark.parametrize("legacy", [False, True], ids=["default", "legacy"])
def test_a_field_ftfy_leaves_whole_in_cp437_is_reported_not_repaired(legacy: bool) -> None:
    # ftfy does not read "itΓÇÖs ΓÇ£newΓÇ¥" as cp437 (its own cases pin fields that encode
    # whole in cp437 as left alone); windows-1252's reading of part of it is no better.
    report = inspect_text("itΓÇÖs ΓÇ£newΓÇ¥", legacy=legacy)
    assert (report.mojibake, report.repaired, report.verdict) == (
        "utf8-as-windows-1252",
        None,
        "ambiguous",
    )


@pytest.mark.parametrize(
    ("damaged", "repaired"), [pytest.param(*case.values, id=case.id) for case in REPAIRED]
)
def test_the_repair_is_found_clean(damaged: str, repaired: str) -> None:
    assert inspect_text(repaired).clean


#: Correct text with cp437's leads and continuation characters side by side.
LEFT_ALONE = [
    pytest.param("├┤a┼┐a┼┐a┼┐a┼┐a", id="leet-line-art"),
    pytest.param("┌──┐\n│ab│\n└──┘ ╔══╗ ╚══╝", id="boxes"),
    pytest.param("├── src\n│   └── main.py", id="tree"),
    pytest.param("Ελληνικά: αβγ, πσ, Σ ≈ Φ", id="greek"),
    pytest.param("σ² ± µ ≥ 0, ∞ ≤ ∞", id="formula"),
    pytest.param("Größe: 5 µm ± 0,5 µm, Straße", id="german-units"),
    pytest.param("«Καλημέρα» «Αθήνα»", id="greek-quotes"),
    pytest.param("░▒▓█ 50% ▓▒░", id="shades"),
    pytest.param("┇┮╝ ┉╅ ├│┦", id="unicode-box-drawing-with-a-pair"),
    pytest.param("╨╕┬┆╭┣", id="unicode-box-drawing-one-letter-pair"),
]


@pytest.mark.parametrize("text", LEFT_ALONE)
@pytest.mark.parametrize("legacy", [False, True], ids=["default", "legacy"])
def test_correct_text_with_box_drawing_or_greek_is_left_alone(text: str, legacy: bool) -> None:
    report = inspect_text(text, legacy=legacy)
    assert report.repaired is None
    assert report.clean


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("┰ä╟¥╭┇ú", id="a-character-cp437-lacks-in-the-token"),
        pytest.param("▌╬ú", id="a-character-outside-every-sequence"),
    ],
)
@pytest.mark.parametrize("legacy", [False, True], ids=["default", "legacy"])
def test_a_token_that_is_not_all_sequences_is_not_repaired(text: str, legacy: bool) -> None:
    # Its pairs are evidence (reported), but a token damaged as cp437 is made of its
    # sequences and ASCII only.
    assert inspect_text(text, legacy=legacy).repaired is None


@pytest.mark.parametrize(
    ("text", "rule", "found_on"),
    [
        pytest.param("─îe┼ítina", "box-drawing-by-a-letter", "─î", id="by-a-letter"),
        pytest.param("Tiß║┐ng", "box-drawing-inside-a-word", "ß║┐", id="inside-a-word"),
        pytest.param("Le caf├⌐ noir", "box-drawing-ends-a-word", "├⌐", id="ends-a-word"),
        pytest.param("Sal ├¡ndice", "box-drawing-symbol-before-a-letter", "├¡", id="symbol"),
        pytest.param("Col├│n", "box-drawing-pair-is-a-letter", "├│", id="pair-letter"),
        pytest.param("╨£╨░╤ê╨░ ╨╕ ╨£╨╕╤ê╨░", "run-of-sequences", "╨£", id="cyrillic-run"),
        pytest.param("1 ╨▓ 2", "box-drawing-one-letter-word", "╨▓", id="one-letter-word"),
        pytest.param("itΓÇÖs", "greek-lead-then-latin", "ΓÇÖ", id="greek-lead"),
        pytest.param("╫⌐╫£", "run-of-sequences", "╫⌐", id="run"),
    ],
)
def test_a_report_names_the_cp437_rule_that_fired(text: str, rule: str, found_on: str) -> None:
    report = inspect_text(text)
    assert (report.rule, report.evidence) == (rule, found_on)


def test_a_one_letter_word_alone_is_evidence() -> None:
    text = "╨▓"  # "в", a word alone, with nothing else in the field
    weight, rule = badness.weigh_rule(text, 0, 2, CP437)
    assert (weight, rule) == (badness.DECISIVE, "box-drawing-one-letter-word")


@pytest.mark.parametrize(
    ("text", "leads"),
    [
        pytest.param("─îe┼ítina", (0, 3), id="two-byte"),
        pytest.param("Tiß║┐ng", (2,), id="three-byte"),
        pytest.param("≡ƒÿÇ ok", (0,), id="four-byte"),
        pytest.param("Ελληνικά", (), id="greek"),
        pytest.param("café ├ x", (), id="lead-alone"),
    ],
)
def test_the_marks_are_the_sequences_leads(text: str, leads: tuple[int, ...]) -> None:
    marks = badness.scan(text)
    assert tuple(start for start, _end in badness.cp437_sequences(text, marks)) == leads


def test_text_that_windows_1252_encodes_has_no_cp437_mark() -> None:
    # ß, µ and ± are windows-1252's too: such text is read for legacy marks instead.
    assert badness.scan("µùÑ ßéé").cp437 == ()


def test_encode_reading_inverts_the_table() -> None:
    table = high_half(CP437)
    assert len(table) == 128
    assert encode_reading(table, CP437) == bytes(range(0x80, 0x100))
    assert encode_reading("Ω€", CP437) is None
