"""The Python examples of README.md and of every docs/*.md page run as doctests, so the
documentation cannot drift from the code.

An example is a ``>>>`` session in a fenced code block (```` ```pycon ````, or
```` ```python ```` holding a session); the rest of the page is left out, line numbers
kept, so a session needs no blank line before its closing fence. Each page's examples
share one namespace, in order, as ``doctest.testfile`` would run them.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from tests.spec import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\w*)")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def sessions(text: str) -> str:
    """*text* with every line outside a session's fenced block blanked."""
    kept: list[str] = []
    fence, language = "", ""
    block: list[str] = []
    for line in text.splitlines():
        if not fence:
            opening = FENCE.match(line)
            if opening:
                fence, language, block = opening.group(1), opening.group(2), []
            kept.append("")
            continue
        closing = line.strip()
        if closing and set(closing) == {fence[0]} and len(closing) >= len(fence):
            session = language in ("pycon", "python", "") and any(
                b.lstrip().startswith(">>>") for b in block
            )
            kept.extend(block if session else [""] * len(block))
            kept.append("")
            fence = ""
            continue
        block.append(line)
    return "\n".join(kept) + "\n"


def run_page(path: Path) -> tuple[doctest.TestResults, str]:
    text = sessions(path.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(text, {}, path.name, str(path), 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=report.append)
    return runner.summarize(verbose=False), "".join(report)


@pytest.mark.parametrize("path", PAGES, ids=[p.relative_to(REPO).as_posix() for p in PAGES])
def test_examples(path: Path) -> None:
    result, report = run_page(path)
    assert result.failed == 0, report


def test_the_reference_has_examples() -> None:
    """The API pages carry sessions (an extraction that found none would pass silently)."""
    for name in ("decision.md", "detection.md", "decoders.md", "item-checks.md"):
        assert run_page(REPO / "docs" / name)[0].attempted > 0, name


def test_a_failing_session_fails() -> None:
    text = "# Page\n\n```pycon\n>>> 1 + 1\n3\n```\n"
    test = doctest.DocTestParser().get_doctest(sessions(text), {}, "page", "page.md", 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False) == (1, 1)
    assert sessions(text).splitlines()[3] == ">>> 1 + 1"  # line numbers kept


# --- README.md: what PyPI shows ------------------------------------------------------------

README = (REPO / "README.md").read_text(encoding="utf-8")
BLOB = "https://github.com/scrapy-charset/scrapy-charset/blob/main/"


def _section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _commands(section: str) -> list[str]:
    return re.findall(r"```console\n(.*?)\n```", section, re.DOTALL)


def test_readme_links_work_on_pypi() -> None:
    """PyPI renders README.md away from the repository: every link is absolute, and those
    into the repository name files that exist."""
    links = re.findall(r"\]\(([^)]+)\)", README)
    assert links
    assert [link for link in links if not link.startswith("https://")] == []
    for link in links:
        if link.startswith(BLOB):
            assert (REPO / link.removeprefix(BLOB).split("#")[0]).exists(), link


#: README.md's sections, in a new user's order: what it is for, how to install and enable
#: it, what the crawl then shows and changes, the one command to ask why; then the links,
#: and the contributors' part last.
SECTIONS = [
    "What it solves",
    "Install",
    "Enable it",
    "What you will see",
    "What it changes in your items",
    "Why did this page come out that way?",
    "Documentation",
    "Contributing",
    "Licence",
    "Changelog",
]


def test_readme_is_written_for_users_first() -> None:
    assert re.findall(r"^## (.+)$", README, re.MULTILINE) == SECTIONS
    assert _commands(_section("Install")) == ["python -m pip install scrapy-charset"]
    assert 'ADDONS = {"scrapy_charset.Addon": 0}' in _section("Enable it")


def test_the_settings_readme_and_getting_started_name_exist() -> None:
    """Every CHARSET_* name the user's pages give is a setting the package reads and the
    settings reference lists: none is invented."""
    from scrapy_charset._settings import SETTINGS

    reference = (REPO / "docs" / "settings.md").read_text(encoding="utf-8")
    for page in (README, (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")):
        named = set(re.findall(r"\bCHARSET_[A-Z_]+\b", page))
        assert named
        assert named <= SETTINGS, named - SETTINGS
        assert all(f"`{name}`" in reference for name in named)


def test_ci_runs_the_readme_test_command() -> None:
    """CI's ``.ci/run`` runs the test command README.md gives contributors, as written."""
    (tests,) = _commands(_section("Contributing"))
    assert tests == 'python -m pip install -e ".[test]" && python -m pytest'
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci
