"""Test-wide setup."""

from __future__ import annotations

from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Scrapy 2.13's test helpers (``get_crawler``) need an installed reactor; 2.19's work
    # either way. Install the asyncio reactor, Scrapy's default, as a crawl would.
    from scrapy.utils.reactor import install_reactor, is_reactor_installed

    if not is_reactor_installed():
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """On several processes (pytest-xdist's ``--dist loadgroup``, pyproject.toml), a test
    file's tests run in one, so that what its module fixtures make (a crawl, a server, an
    archive) is made once; an ``xdist_group`` mark of a test's own (a run several files
    read) wins. Before xdist's hook, which reads the marks."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.path.name))


@pytest.fixture(scope="session")
def demo_compare() -> list[dict[str, Any]]:
    """``python -m example_project.compare --json`` on the demo site, run once: the rows
    of plain Scrapy's and scrapy-charset's crawls, page by page (tests/test_demo.py and
    docs/demo.md's table in tests/test_doc_outputs.py read it). The tests that read it are
    in one ``xdist_group``, so that one process runs it when the suite runs on several."""
    import json

    from tests.example import run_compare

    rows: list[dict[str, Any]] = json.loads(run_compare("--json"))
    return rows
