"""The add-on: one line enables the middleware, between MetaRefreshMiddleware and
HttpCompressionMiddleware wherever a project has put them."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.settings import Settings
from scrapy.settings.default_settings import DOWNLOADER_MIDDLEWARES_BASE
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from scrapy_charset import CharsetMiddleware
from scrapy_charset.addon import Addon, middleware_priority, misplaced_priority
from tests.spec import REPO

META_REFRESH = "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware"
COMPRESSION = "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware"


class MyCompression(HttpCompressionMiddleware):
    """A project's own decompressor, replacing Scrapy's."""


@pytest.mark.parametrize(
    ("custom", "priority"),
    [
        pytest.param({}, 585, id="scrapy-defaults"),
        pytest.param({META_REFRESH: None}, 585, id="meta-refresh-disabled"),
        pytest.param({COMPRESSION: None}, 585, id="compression-disabled"),
        pytest.param({META_REFRESH: None, COMPRESSION: None}, 585, id="both-disabled"),
        pytest.param({COMPRESSION: 700}, 640, id="compression-moved-up"),
        pytest.param({META_REFRESH: 100}, 345, id="meta-refresh-moved-down"),
        pytest.param({HttpCompressionMiddleware: 700}, 640, id="class-key"),
        pytest.param({COMPRESSION: 581}, 580.5, id="adjacent-neighbours"),
        # The wrong way round: seeing decompressed bodies wins.
        pytest.param({META_REFRESH: 650, COMPRESSION: 600}, 595, id="swapped"),
        pytest.param({META_REFRESH: 590}, 585, id="equal-neighbours"),
        pytest.param(
            {COMPRESSION: None, "tests.test_addon.MyCompression": 620}, 600, id="subclass-replaces"
        ),
        pytest.param({"tests.test_addon.MyCompression": 595}, 585, id="two-decompressors"),
        pytest.param({"not.a.module.Middleware": 586}, 585, id="unloadable-key-ignored"),
    ],
)
def test_middleware_priority(custom: dict[Any, Any], priority: float) -> None:
    assert middleware_priority(DOWNLOADER_MIDDLEWARES_BASE, custom) == priority


def process_response_order(settings: dict[str, Any]) -> list[object]:
    """The classes of the downloader middlewares, in the order process_response runs."""
    crawler = get_crawler(settings_dict=settings)
    manager = DownloaderMiddlewareManager.from_crawler(crawler)
    return [
        type(getattr(method, "__self__", None)) for method in manager.methods["process_response"]
    ]


@pytest.mark.parametrize(
    "custom",
    [
        pytest.param({}, id="defaults"),
        pytest.param({COMPRESSION: 700}, id="compression-moved"),
        pytest.param({COMPRESSION: 700, META_REFRESH: 300}, id="moved"),
    ],
)
def test_addon_places_the_middleware_in_the_chain(custom: dict[str, Any]) -> None:
    order = process_response_order({"ADDONS": {Addon: 0}, "DOWNLOADER_MIDDLEWARES": custom})
    # process_response runs in this order: decompression, then us, then meta refresh.
    assert (
        order.index(HttpCompressionMiddleware)
        < order.index(CharsetMiddleware)
        < order.index(MetaRefreshMiddleware)
    )


@pytest.mark.parametrize(
    ("custom", "priority"),
    [
        pytest.param({}, 585, id="added"),
        pytest.param({"scrapy_charset.CharsetMiddleware": 123}, 123, id="listed-by-hand"),
        pytest.param({CharsetMiddleware: 777}, 777, id="listed-by-hand-as-class"),
        pytest.param(
            {"scrapy_charset.responses.middleware.CharsetMiddleware": None}, None, id="disabled"
        ),
    ],
)
def test_addon_leaves_a_hand_listing_alone(custom: dict[Any, Any], priority: int | None) -> None:
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 0}, "DOWNLOADER_MIDDLEWARES": custom})
    listed = crawler.settings.getdict("DOWNLOADER_MIDDLEWARES")
    ours = [value for key, value in listed.items() if key in (CharsetMiddleware, *custom)]
    assert ours == [priority]


def test_addon_by_path_and_disabled_middleware() -> None:
    order = process_response_order(
        {"ADDONS": {"scrapy_charset.Addon": 0}, "CHARSET_ENABLED": False}
    )
    assert CharsetMiddleware not in order


def test_middleware_by_hand() -> None:
    order = process_response_order(
        {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585}}
    )
    assert order.index(HttpCompressionMiddleware) + 1 == order.index(CharsetMiddleware)


def test_docs_list_every_component_the_addon_enables() -> None:
    """The docs' "without the add-on" snippet enables what the add-on enables, at the same
    priorities (the item stamp being enabled by CHARSET_ITEM_FIELD)."""
    page = (REPO / "docs" / "activation.md").read_text(encoding="utf-8")
    snippet = page.split("Without the add-on", 1)[1].split("```python\n", 1)[1].split("```")[0]
    listed: dict[str, Any] = {}
    exec(snippet, listed)
    settings = Settings({"CHARSET_ITEM_FIELD": "encoding"})
    Addon().update_settings(settings)
    for name in ("DOWNLOADER_MIDDLEWARES", "ITEM_PIPELINES", "SPIDER_MIDDLEWARES"):
        by_hand = {load_object(path): priority for path, priority in listed[name].items()}
        assert by_hand == settings.getdict(name), name


@pytest.mark.parametrize(
    ("custom", "expected"),
    [
        pytest.param({"scrapy_charset.CharsetMiddleware": 950}, (950, 590, 585), id="above"),
        pytest.param({"scrapy_charset.CharsetMiddleware": 590}, (590, 590, 585), id="equal"),
        pytest.param(
            {"scrapy_charset.CharsetMiddleware": 950, COMPRESSION: 990},
            None,
            id="compression-moved-above-it",
        ),
        pytest.param(
            {"scrapy_charset.CharsetMiddleware": 700, COMPRESSION: 650, META_REFRESH: 600},
            (700, 650, 625),
            id="both-moved",
        ),
        pytest.param({"scrapy_charset.CharsetMiddleware": 585}, None, id="in-place"),
        pytest.param({"scrapy_charset.CharsetMiddleware": 100}, None, id="low"),
        pytest.param(
            {"scrapy_charset.CharsetMiddleware": 950, COMPRESSION: None}, None, id="no-decompressor"
        ),
        pytest.param({}, None, id="not-listed"),
    ],
)
def test_misplaced_priority(custom: dict[Any, Any], expected: tuple[float, ...] | None) -> None:
    assert misplaced_priority(DOWNLOADER_MIDDLEWARES_BASE, custom) == expected


def test_addon_enables_nothing_when_switched_off() -> None:
    settings = Settings({"CHARSET_ENABLED": False, "CHARSET_ITEM_FIELD": "encoding"})
    Addon().update_settings(settings)
    for name in ("DOWNLOADER_MIDDLEWARES", "ITEM_PIPELINES", "SPIDER_MIDDLEWARES"):
        assert settings.getdict(name) == {}
