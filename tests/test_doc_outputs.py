"""Every example output in the documentation is produced by a test.

Each fenced block of README.md and docs/*.md that is not Python (``pycon`` sessions are
doctested by tests/test_readme.py) is in :data:`BLOCKS`, keyed by its page and first line,
with how it is produced: a comparison with a real run in this module, the test elsewhere
that compares it, or "not output" (a command to type, code). A block in no entry fails
:func:`test_every_block_is_in_the_table`, so a new example output cannot go untested.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.example import write_entry_point
from tests.spec import REPO

from example_project.demo_site import DemoSite, pages  # isort: skip

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

#: Languages whose blocks are not shown output: Python code and sessions (doctested by
#: tests/test_readme.py).
NOT_SHOWN = {"python", "pycon"}

_FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\S*)")


def blocks() -> list[tuple[str, str, list[str]]]:
    """(page, language, lines) of every fenced block."""
    found = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            match = _FENCE.match(lines[i].strip())
            if match:
                fence, lang = match.groups()
                body = []
                i += 1
                while i < len(lines) and not lines[i].strip().startswith(fence):
                    body.append(lines[i])
                    i += 1
                found.append((str(page.relative_to(REPO)), lang, body))
            i += 1
    return found


def block(page: str, first: str) -> list[str]:
    """The lines of the block of *page* whose first line is *first*."""
    for name, _, lines in blocks():
        if name == page and lines and lines[0] == first:
            return lines
    raise KeyError((page, first))


# --- What produces each block ---------------------------------------------------------------

NOT_OUTPUT = "not output: a command to type"
NOT_OUTPUT_CODE = "not output: code to copy"

#: (page, first line of the block) -> how the block is produced.
BLOCKS: dict[tuple[str, str], str] = {
    ("README.md", "python -m pip install scrapy-charset"): NOT_OUTPUT,
    ("README.md", "[scrapy_charset.responses.middleware] WARNING: http://127.0.0.1:8000/fr/"): (
        "test_shop_crawl_log"
    ),
    ("README.md", "$ scrapy charset http://127.0.0.1:8000/fr/"): "test_shop_command_output",
    ("README.md", 'python -m pip install -e ".[test]" && python -m pytest'): NOT_OUTPUT,
    ("docs/getting-started.md", "python -m pip install scrapy-charset"): NOT_OUTPUT,
    (
        "docs/getting-started.md",
        "[scrapy_charset.responses.middleware] WARNING: http://127.0.0.1:8000/fr/",
    ): "test_shop_crawl_log",
    ("docs/architecture.md", "scrapy_charset/"): (
        "tests/test_architecture.py::test_architecture_tree_lists_every_module"
    ),
    ("docs/architecture.md", "python scripts/generate_tables.py"): NOT_OUTPUT,
    ("docs/architecture.md", "python scripts/generate_lxml_names.py --report"): NOT_OUTPUT,
    ("docs/compatibility.md", "python scripts/generate_lxml_names.py --report"): NOT_OUTPUT,
    (
        "docs/compatibility.md",
        "python -m pytest tests/test_lxml_names.py tests/test_consumers.py "
        "tests/test_crawl_playwright.py",
    ): NOT_OUTPUT,
    ("docs/audit.md", 'pip install "scrapy-charset[audit]"'): NOT_OUTPUT,
    ("docs/audit.md", "Responses read                            16"): "test_audit_summary",
    ("docs/audit.md", "{"): "test_audit_diff_out_line",
    ("docs/audit.md", "scrapy charset audit --html report.html \\"): NOT_OUTPUT,
    ("docs/command.md", "$ scrapy charset http://127.0.0.1:8000/vi/"): "test_command_output",
    (
        "docs/command.md",
        "$ http_proxy=http://127.0.0.1:8000 scrapy charset http://novosti.example.ru/",
    ): "test_command_output",
    ("docs/command.md", "$ scrapy charset http://127.0.0.1:8000/pt/"): "test_command_output",
    ("docs/command.md", "$ scrapy charset http://127.0.0.1:8000/fr/"): "test_command_output",
    (
        "docs/command.md",
        '$ scrapy charset --file currencies.json --content-type "application/json; '
        'charset=iso-8859-1"',
    ): "test_command_output",
    (
        "docs/crawl-benchmark.md",
        "python -m benchmarks.crawl                      # 10,000 pages, two rounds",
    ): NOT_OUTPUT,
    (
        "docs/demo.md",
        "(cd example_project && python -m scrapy crawl demo -a url=",
    ): NOT_OUTPUT,
    ("docs/demo.md", "(cd example_project && python -m example_project.compare)"): NOT_OUTPUT,
    ("docs/hostile-input.md", 'python -m pip install -e ".[fuzz]"'): NOT_OUTPUT,
    (
        "docs/hostile-input.md",
        "python -m fuzz.pipeline_items -max_total_time=600 corpus-items/",
    ): NOT_OUTPUT,
    ("docs/index.md", ":maxdepth: 2"): "not output: a Sphinx table of contents",
    ("docs/item-checks.md", "def setup(crawler):"): NOT_OUTPUT_CODE,
    (
        "docs/item-checks.md",
        "Charset alert: utf8-as-windows-1252 in field 'name'",
    ): "tests/test_crawl_items.py::test_crawl_attributes_damage_to_the_decision_with_addons_only",
    (
        "docs/item-checks.md",
        "[scrapy_charset.items.pipeline] INFO: Charset: 2 damaged values raised no alert",
    ): "tests/test_crawl_items.py::test_small_crawl_says_why_it_raised_no_alert",
    ("docs/performance.md", "python -m benchmarks.overhead"): NOT_OUTPUT,
    ("docs/performance.md", "python -m benchmarks.item_cost --stages"): NOT_OUTPUT,
    (
        "docs/performance.md",
        "python -m benchmarks.item_cost                 # microseconds, best of 5",
    ): NOT_OUTPUT,
    (
        "docs/demo.md",
        "[scrapy_charset.items.pipeline] WARNING: Charset alert:",
    ): "tests/test_demo.py::test_docs_show_the_demo_crawls_alert_and_summary",
    (
        "docs/demo.md",
        "/                     same     Scrapy: utf-8  scrapy-charset: UTF-8 (header)",
    ): "test_compare_output",
    ("docs/settings-validation.md", "$ scrapy crawl demo -s CHARSET_DETECTOR=nope"): (
        "tests/test_crawl_settings.py::test_the_line_in_the_docs_is_the_line_scrapy_crawl_prints"
    ),
    (
        "docs/settings-validation.md",
        "[scrapy_charset._log] INFO: scrapy-charset is off (CHARSET_ENABLED = False):",
    ): "tests/test_crawl_settings.py::test_charset_enabled_false_turns_everything_off",
    (
        "docs/settings-validation.md",
        "[scrapy_charset.responses.middleware] WARNING: scrapy_charset.responses.middleware."
        "Charset",
    ): "tests/test_crawl_settings.py::test_middleware_listed_above_the_decompressor_is_reported",
    (
        "docs/settings-validation.md",
        "[scrapy_charset._placement] WARNING: scrapy_charset.CharsetMiddleware is listed in",
    ): "tests/test_crawl_settings.py::test_the_misplacement_warning_in_the_docs_is_the_crawls",
    (
        "docs/settings-validation.md",
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (cut, 10000 characters)",
    ): "tests/test_crawl_settings.py::test_a_10_kb_charset_label_is_cut",
}


def _entry(page: str, first: str) -> str | None:
    """The table's entry for a block: keys may give only the start of a long first line."""
    for (name, start), how in BLOCKS.items():
        if name == page and first.startswith(start):
            return how
    return None


def test_every_block_is_in_the_table() -> None:
    missing = [
        (page, lines[0] if lines else "")
        for page, lang, lines in blocks()
        if lang not in NOT_SHOWN and _entry(page, lines[0] if lines else "") is None
    ]
    assert not missing, (
        "output blocks in no entry of tests/test_doc_outputs.py's BLOCKS: "
        f"{missing}; compare each with a real run there, or say it is not output"
    )


def test_every_entry_has_its_block() -> None:
    firsts = {(page, lines[0]) for page, _, lines in blocks() if lines}
    stale = [
        key
        for key in BLOCKS
        if not any(page == key[0] and first.startswith(key[1]) for page, first in firsts)
    ]
    assert not stale, f"entries of BLOCKS with no block in the docs: {stale}"


def test_tests_named_elsewhere_exist() -> None:
    for how in BLOCKS.values():
        if how.startswith("tests/"):
            path, name = how.split("::")
            source = (REPO / path).read_text(encoding="utf-8")
            assert f"def {name}(" in source, how


#: docs/audit.md's exit statuses (its "Bad input" section) -> the run of tests/test_audit.py
#: that checks each; that part of the page is not compared here.
AUDIT_EXIT_STATUSES = {
    0: ("test_text_table", "assert result.returncode == 0"),
    1: ("test_not_an_archive_is_skipped", 'status) == ({"not_warc": 1}, 1)'),
    2: ("test_usage_errors", "assert result.returncode == 2"),
}


@pytest.mark.parametrize("status", list(AUDIT_EXIT_STATUSES))
def test_audit_exit_status_is_checked_in_test_audit(status: int) -> None:
    name, check = AUDIT_EXIT_STATUSES[status]
    source = (REPO / "tests" / "test_audit.py").read_text(encoding="utf-8")
    body = source[source.index(f"def {name}(") :]
    body = body[: body.find("\ndef ", 1)]
    assert check in body, (name, check)


# --- Real runs ------------------------------------------------------------------------------

#: The demo site's address in the docs; a test's server has a free port.
DOC_BASE = "http://127.0.0.1:8000"

#: The Scrapy whose output the docs show. Plain Scrapy's guess on an undeclared page comes
#: from its detector and changes between versions; a block that shows one is compared on
#: this version only.
DOC_SCRAPY = "2.19"


def needs_doc_scrapy() -> None:
    import scrapy

    version = ".".join(scrapy.__version__.split(".")[:2])
    if version != DOC_SCRAPY:
        pytest.skip(
            f"the block shows Scrapy {DOC_SCRAPY}'s guess on an undeclared page; "
            f"this is Scrapy {scrapy.__version__}"
        )


@pytest.fixture(scope="module")
def entry_point(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_entry_point(tmp_path_factory.mktemp("entry-point"))


def run(command: list[str], entry_point: Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    """``python -m scrapy COMMAND`` as a user runs it; its standard output."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SCRAPY_SETTINGS_MODULE", "SCRAPY_PROJECT", "http_proxy", "HTTP_PROXY"}
    }
    environ["PYTHONPATH"] = os.pathsep.join([str(entry_point), str(REPO)])
    environ["PYTHONIOENCODING"] = "utf-8"
    environ.update(env or {})
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", *command],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        cwd=cwd,
        env=environ,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def shown(lines: list[str], output: str) -> None:
    """*lines* (a block's output, ``...`` for lines left out at its start) are the output's:
    all of it, or its last lines after a ``...``."""
    actual = output.rstrip("\n").splitlines()
    if lines and lines[0] == "...":
        expected = lines[1:]
        actual = actual[-len(expected) :]
    else:
        expected = lines
    assert actual == expected


def _command_block(first: str, page: str = "docs/command.md") -> tuple[list[str], list[str]]:
    """A console block's command (after ``$ ``) as arguments, and its output lines."""
    lines = block(page, first)

    return shlex.split(lines[0][2:]), lines[1:]


COMMANDS = [key[1] for key, how in BLOCKS.items() if how == "test_command_output"]
IDS = ["vi", "proxy-ru", "pt", "fr", "file-json"]
#: The blocks that show plain Scrapy's guess on an undeclared page.
UNDECLARED = {"proxy-ru"}


@pytest.mark.parametrize(("first", "ident"), list(zip(COMMANDS, IDS, strict=True)), ids=IDS)
def test_command_output(first: str, ident: str, entry_point: Path, tmp_path: Path) -> None:
    if ident in UNDECLARED:
        needs_doc_scrapy()
    args, expected = _command_block(first)
    env = {}
    while "=" in args[0]:  # VAR=value before the command
        name, value = args.pop(0).split("=", 1)
        env[name] = value
    assert args[:2] == ["scrapy", "charset"]
    api = next(page for page in pages() if page.path == "/api/currencies.json")
    (tmp_path / "currencies.json").write_bytes(api.body)
    with DemoSite() as site:
        # Normalised: the server's port, in the command and in what it prints.
        args = [arg.replace(DOC_BASE, site.base_url) for arg in args[2:]]
        env = {name: value.replace(DOC_BASE, site.base_url) for name, value in env.items()}
        output = run(["charset", *args], entry_point, tmp_path, env)
        output = output.replace(site.base_url, DOC_BASE)
    shown(expected, output)


@pytest.fixture(scope="module")
def demo_warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.archives import write_demo

    folder = tmp_path_factory.mktemp("demo-warc")
    with open(folder / "demo.warc.gz", "wb") as stream:
        write_demo(stream)
    return folder


AUDIT_COMMAND = "`scrapy charset audit demo.warc.gz` prints, with Scrapy"


def test_audit_summary(entry_point: Path, demo_warc: Path) -> None:
    page = (REPO / "docs" / "audit.md").read_text(encoding="utf-8")
    assert f"{AUDIT_COMMAND} {DOC_SCRAPY}:" in page  # the command the block is the output of
    needs_doc_scrapy()  # the undeclared Spanish page's pair
    output = run(["charset", "audit", "demo.warc.gz"], entry_point, demo_warc)
    shown(block("docs/audit.md", "Responses read                            16"), output)


def test_audit_diff_out_line(entry_point: Path, demo_warc: Path) -> None:
    run(
        ["charset", "audit", "--diff-out", "differ.jsonl", "demo.warc.gz"],
        entry_point,
        demo_warc,
    )
    lines = (demo_warc / "differ.jsonl").read_text(encoding="utf-8").splitlines()
    documented = json.loads("\n".join(block("docs/audit.md", "{")))
    found = [json.loads(line) for line in lines]
    assert documented in found


@pytest.mark.xdist_group("demo-compare")  # conftest.py's demo_compare, run once
def test_compare_output(demo_compare: list[dict[str, Any]]) -> None:
    """docs/demo.md's before/after table is what ``python -m example_project.compare``
    prints on the demo site, whole: the table of its run, rendered as the command renders
    it (tests/test_demo.py checks that the command prints that rendering)."""
    from example_project.compare import render

    needs_doc_scrapy()  # plain Scrapy's guesses on the undeclared pages
    lines = block(
        "docs/demo.md",
        "/                     same     Scrapy: utf-8  scrapy-charset: UTF-8 (header)",
    )
    assert render(demo_compare).splitlines() == lines


# --- The shop of README.md and docs/getting-started.md --------------------------------------

#: The pages whose log and command output README.md and Getting started show.
LOG_PAGES = ["README.md", "docs/getting-started.md"]


def test_shop_crawl_log() -> None:
    """The crawl of the shop with the ``ADDONS`` line only (its pages one at a time, so the
    log is the same on every run): scrapy-charset's lines are the ones README.md and
    Getting started show, and the items are repaired as they say."""
    from tests.crawl import run_crawl
    from tests.server import serve
    from tests.shop import DISHES, PAGES

    with serve(PAGES) as base:
        urls = [f"{base}{path}" for path in PAGES]
        result = run_crawl(
            urls,
            {"ADDONS": {"scrapy_charset.Addon": 0}, "CONCURRENT_REQUESTS": 1},
            extract=dict.fromkeys(urls, DISHES),
        )
    lines = result.log.replace(base, DOC_BASE).splitlines()
    shown = [
        re.sub(r"^\S+ \S+ ", "", line)  # the timestamp
        for line in lines
        if ("[scrapy_charset." in line and "] DEBUG: " not in line) or line.startswith("  pages:")
    ]
    for page in LOG_PAGES:
        assert block(page, shown[0]) == shown, page
    values = {item["value"] for item in result.items}
    assert {"Crème brûlée", "Pão de queijo"} <= values  # repaired, as both pages say
    assert not [value for value in values if "Ã" in value]
    assert "K\ufffdsesp\ufffdtzle" in values  # U+FFFD stays


def test_shop_command_output(entry_point: Path, tmp_path: Path) -> None:
    from tests.server import serve
    from tests.shop import PAGES

    args, expected = _command_block("$ scrapy charset http://127.0.0.1:8000/fr/", "README.md")
    with serve(PAGES) as base:
        output = run(
            ["charset", *(arg.replace(DOC_BASE, base) for arg in args[2:])], entry_point, tmp_path
        )
    shown(expected, output.replace(base, DOC_BASE))
