"""The ISO-2022-JP decoder's C codec stretches and their edges, against the spec's decoder.

https://encoding.spec.whatwg.org/#iso-2022-jp-decoder

The decoder hands Python's C codec the longest stretches it decodes as the standard does
(``_PYTHON_EXACT``) and runs the state machine between them, from the state the stretch
left. Each case below puts one edge of that split where it matters: escape sequences at
the end or start of a stretch, the output flag across it, control bytes in JIS X 0208
runs, errors the C codec's error handler settles, truncated escape sequences.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset.whatwg import iso2022jp
from tests.whatwg_reference import reference_decode

JIS = b"\x1b$B0!F|K\\\x1b(B"  # 亜日本, back to ASCII
BAD = "\ufffd"

CASES: dict[str, bytes] = {
    # Escape sequences the C codec accepts silently, between well-formed stretches.
    "esc-paren-close-b-between-stretches": JIS + b"a\x1b)Bb" + JIS + b"c",
    "esc-paren-close-j": b"a\x1b)Jb" + JIS,
    "esc-dollar-paren-b-four-bytes": b"a\x1b$(B0!" + JIS,
    "esc-dollar-paren-at": JIS + b"x\x1b$(@0!\x1b(B",
    "esc-dollar-close-b": b"\x1b$)B0!" + JIS,
    "esc-passed-through-by-c-codec": b"a\x1bAbc" + JIS,
    "esc-esc": JIS + b"x\x1b\x1b$B0!\x1b(B",
    # ESC ( J, ESC ( I, ESC $ @ and ESC $ B mixed.
    "roman-then-jis": b"\x1b(J\\~\x1b$B0!\x1b(J\\~",
    "roman-at-stretch-start-after-error": JIS + b"\x0e\x1b(J\\~" + JIS,
    "katakana-between-jis": b"\x1b$B0!\x1b(I1\x1b$@0!\x1b(B",
    "katakana-then-ascii-error": b"\x1b(I1a\x1b(Ba",
    "jis-c-6226-then-jis": b"\x1b$@0!\x1b$B0!\x1b(B",
    "jis-to-jis-without-ascii": b"a\x1b$B0!\x1b$B0!\x1b(Bb",
    # The output flag: an escape sequence right after another one is an error.
    "two-escapes-at-start": b"\x1b(B\x1b$B0!\x1b(B",
    "two-escapes-after-stretch": JIS + b"a\x1b$B\x1b(Bb",
    "ascii-escape-twice": b"a\x1b(B\x1b(Bb",
    "roman-escape-then-jis-escape": b"a\x1b(J\x1b$B0!",
    "three-escapes-in-a-row": b"a\x1b$B\x1b(J\x1b$@0!",
    "escape-pair-after-bad-escape": b"a\x1b)B\x1b(B\x1b$B0!",
    "escape-at-end-after-escape": b"a\x1b$B\x1b(B",
    "only-two-escapes": b"\x1b$B\x1b(B",
    "jis-then-two-escapes-at-end": b"\x1b$B0!\x1b(Ba\x1b$B\x1b(J",
    # Input Python's encoder gives back from the C codec's text, and input it does not.
    "encoder-shape": "日本語 text ¥ 語\n".encode("iso2022_jp"),
    "encoder-shape-with-esc-passed-through": "日本\x1bA".encode("iso2022_jp"),
    "encoder-shape-with-so": "日本\x0e語".encode("iso2022_jp"),
    "roman-returns-instead-of-ascii": b"\x1b$B0!\x1b(Ja\n\x1b$B0!\x1b(J\\\n",
    # Control bytes in JIS X 0208 runs: errors (the C codec passes them through).
    "lf-between-pairs": b"\x1b$B0!\n0!\x1b(B\n",
    "lf-after-lead": b"\x1b$B0\n!\x1b(B",
    "crlf-in-jis": b"\x1b$B0!\r\n\x1b(B\r\n",
    "tab-at-run-start": b"\x1b$B\t0!\x1b(B",
    "nul-in-jis": b"\x1b$B0!\x00\x1b(Ba",
    "so-si-in-jis": b"\x1b$B\x0e0!\x0f\x1b(B",
    "so-si-in-ascii": JIS + b"a\x0eb\x0fc" + JIS,
    "lf-in-roman": b"\x1b(J\\\n~\x1b(B",
    # Errors the C codec's error handler settles, in each state.
    "high-byte-in-ascii": b"a\xffb" + JIS,
    "high-byte-as-trail": b"\x1b$B0\xff0!\x1b(B",
    "high-byte-as-lead": b"\x1b$B\xff0!\x1b(B",
    "space-and-del-as-lead": b"\x1b$B \x7f0!\x1b(B",
    "space-as-trail": b"\x1b$B0 0!\x1b(B",
    "unmapped-pair": b"\x1b$B\x22\x2f0!\x1b(B",
    "lead-before-esc": b"\x1b$B0!0\x1b(Ba",
    "lead-before-bad-escape": b"\x1b$B0!0\x1b)Ba",
    # Truncated escape sequences and runs at the end.
    "esc-at-end": JIS + b"\x1b",
    "esc-paren-at-end": JIS + b"\x1b(",
    "esc-dollar-at-end": JIS + b"\x1b$",
    "esc-dollar-paren-at-end": JIS + b"\x1b$(",
    "lead-at-end": b"\x1b$B0!0",
    "jis-left-open": b"a\x1b$B0!F|",
    "jis-escape-at-end": b"a\x1b$B",
    "ascii-escape-at-end": b"\x1b$B0!\x1b(B",
    "roman-escape-at-end": b"\x1b$B0!\x1b(J",
    "del-in-ascii": b"a\x7fb" + JIS,
}


@pytest.mark.parametrize("case", CASES)
def test_edges(case: str) -> None:
    body = CASES[case]
    assert iso2022jp.decode(body) == reference_decode(body, "ISO-2022-JP")


@pytest.mark.parametrize(
    ("case", "body", "expected"),
    [
        # Spec citations: escape start state (an unknown byte is an error, then read again)
        # and the output flag.
        ("paren-close-b", b"\x1b)B", BAD + ")B"),
        ("two-escapes", b"\x1b(Ba\x1b$B\x1b(Bb", "a" + BAD + "b"),
        ("lf-in-jis", b"\x1b$B\n\x1b(B", BAD),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_known_outputs(case: str, body: bytes, expected: str) -> None:
    assert iso2022jp.decode(body) == expected


def test_stretches_around_an_error_take_the_c_codec(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine runs from the unknown escape sequence to a later escape sequence only.

    It runs at least ``_MACHINE_RUN`` bytes, then up to the next ESC ( B, ESC ( J, ESC $ B
    or ESC $ @ that does not follow another escape sequence right away.
    """
    machine = iso2022jp._decode_pieces
    seen: list[bytes] = []

    def recording(data: bytes, state: str = "ascii") -> str:
        seen.append(data)
        return machine(data, state)

    monkeypatch.setattr(iso2022jp, "_decode_pieces", recording)
    unit = JIS + b"a"
    body = unit * 200 + b"\x1b)By" + unit * 200
    assert iso2022jp.decode(body) == reference_decode(body, "ISO-2022-JP")
    assert len(seen) == 1
    assert seen[0].startswith(b"\x1b)By" + unit)
    assert iso2022jp._MACHINE_RUN <= len(seen[0]) < iso2022jp._MACHINE_RUN + len(unit)
    after = body.index(b"\x1b)By") + len(seen[0])
    assert body[after : after + 3] in (b"\x1b$B", b"\x1b(B")  # the C codec resumes there


TOKENS = [
    b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$B", b"\x1b$@", b"\x1b)B", b"\x1b$(B", b"\x1b",
    b"\x1b(", b"\x1b$", b"0!", b"F|", b"0", b"\x22\x2f", b"a", b"\\~", b"1", b"\n", b"\r\n",
    b"\t", b"\x0e", b"\x0f", b"\xff", b" ", b"\x7f", b"\x00",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30))
def test_token_sequences_match_the_spec(tokens: list[bytes]) -> None:
    body = b"".join(tokens)
    assert iso2022jp.decode(body) == reference_decode(body, "ISO-2022-JP")
