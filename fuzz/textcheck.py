"""Fuzz target: ``inspect_text()`` on arbitrary strings and on mojibake alphabets.

Run with atheris (``pip install atheris``)::

    python -m fuzz.textcheck -max_total_time=600 corpus/

The first byte chooses how the rest becomes a string: UTF-32 code points (any code point,
lone surrogates included), or the bytes read as windows-1252, windows-1251 or Shift_JIS,
as UTF-8 text read that way (the alphabets mojibake is made of). Every string must give a
report without an internal error (the check runs without :func:`inspect_text`'s safety
net), and the report must be consistent. The test suite runs :func:`one_input` under
hypothesis on every run.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # pragma: no cover - coverage feedback for the package only
    import atheris

    with atheris.instrument_imports(include=["scrapy_charset"]):
        import scrapy_charset.items.textcheck  # noqa: F401

from scrapy_charset import decode
from scrapy_charset.items.mojibake import SAFE_KINDS, MojibakeKind
from scrapy_charset.items.textcheck import TextReport, inspect_unguarded

__all__ = ["check_text", "one_input", "to_text"]

_READINGS = ("windows-1252", "windows-1251", "Shift_JIS")


def to_text(data: bytes) -> str:
    """Cut fuzz input into one string (see the module's docstring)."""
    if not data:
        return ""
    mode, rest = data[0] % 5, data[1:]
    if mode == 0:
        units = rest[: len(rest) // 4 * 4]
        return "".join(
            chr(int.from_bytes(units[i : i + 4], "little") % 0x110000)
            for i in range(0, len(units), 4)
        )
    if mode == 4:  # UTF-8 bytes of any text, read as windows-1252 twice
        once = decode(rest.decode("utf-8", "replace").encode("utf-8"), "windows-1252")
        return decode(once.encode("utf-8"), "windows-1252")
    return decode(rest, _READINGS[mode - 1])


def check_text(value: str) -> None:
    """Inspect *value* both ways and check the reports."""
    for legacy in (False, True):
        report = inspect_unguarded(value, legacy=legacy)
        assert isinstance(report, TextReport)
        assert report.replacement_chars == value.count("\ufffd")
        if report.replacement_chars:
            assert report.lossy
        if report.mojibake is None:
            assert report.repaired is None
        if report.repaired is not None:
            assert isinstance(report.repaired, str)
            assert report.repaired != value
            assert report.remaining is None  # a repair that leaves damage is not applied
            if not legacy:  # the exact inverses, or C1 controls that are all punctuation
                assert report.mojibake in SAFE_KINDS or (
                    report.mojibake is MojibakeKind.C1_CONTROLS
                )


def one_input(data: bytes) -> None:
    check_text(to_text(data))


def main() -> None:  # pragma: no cover - needs atheris
    import atheris

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":  # pragma: no cover
    main()
