"""README.md's Python examples run as doctests, so the guide cannot drift from the code."""

from __future__ import annotations

import doctest

from tests.spec import REPO


def test_readme_examples() -> None:
    result = doctest.testfile(
        str(REPO / "README.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted > 0
    assert result.failed == 0
