"""The crawl benchmark's ground truth: each generated page, decoded as a browser decodes it,
holds exactly the title and text the benchmark checks items against."""

from __future__ import annotations

import re
from html import unescape

import pytest

from benchmarks.crawl import SCENARIOS, Site, digest
from scrapy_charset import decode, lookup

SITE = Site(120, seed=7)
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)


@pytest.mark.parametrize("page", SITE.pages[:60], ids=lambda page: f"page-{page.index}")
def test_a_page_read_as_browsers_read_it_gives_the_expected_text(page: object) -> None:
    from benchmarks.crawl import Page

    assert isinstance(page, Page)
    html = decode(b"".join(SITE.body(page)), page.encoding)
    title, text = SITE.expected(page)
    found = _TITLE.search(html)
    assert found is not None
    assert unescape(found.group(1)) == title
    assert "\n".join(unescape(p) for p in _PARAGRAPH.findall(html)) == text
    declared = page.meta or page.content_type.partition("charset=")[2] or None
    if declared is not None:  # a declaration names the page's own encoding
        assert lookup(declared) == page.encoding
    assert digest(title, text) == digest(*SITE.expected(page))


def test_the_site_has_every_scenario_and_size() -> None:
    site = Site(400, seed=11)
    assert {page.scenario for page in site.pages} == {name for name, *_ in SCENARIOS}
    sizes = [sum(map(len, site.body(page))) for page in site.pages]
    assert 5_000 <= min(sizes) < 10_000
    assert 150_000 < max(sizes) <= 200_400
