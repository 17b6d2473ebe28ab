"""Test-wide setup."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Scrapy 2.13's test helpers (``get_crawler``) need an installed reactor; 2.19's work
    # either way. Install the asyncio reactor, Scrapy's default, as a crawl would.
    from scrapy.utils.reactor import install_reactor, is_reactor_installed

    if not is_reactor_installed():
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
