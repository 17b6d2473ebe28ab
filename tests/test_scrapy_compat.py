"""Every private Scrapy attribute the package relies on, checked on this Scrapy: a change
fails here, naming the attribute and the Scrapy version, before it breaks a crawl."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy.http import TextResponse

from scrapy_charset import _scrapy_compat
from scrapy_charset._scrapy_compat import CHECKS, ScrapyChanged
from tests.spec import REPO


@pytest.mark.parametrize(("name", "check"), CHECKS, ids=[name for name, _ in CHECKS])
def test_scrapy_still_has(name: str, check: Callable[[], None]) -> None:
    try:
        check()
    except ScrapyChanged as exc:
        pytest.fail(str(exc), pytrace=False)
    except Exception as exc:  # a check that breaks is a change too
        pytest.fail(
            f"Scrapy {scrapy.__version__} changed {name}: {type(exc).__name__}: {exc}",
            pytrace=False,
        )


def _no_attribute(*args: Any, **kwargs: Any) -> None:
    raise AttributeError("gone")


# (check, what to break, how): each check fails, naming the attribute and the version.
BROKEN = [
    pytest.param(
        _scrapy_compat.check_cached_text,
        lambda monkeypatch: monkeypatch.setattr(
            TextResponse, "text", property(lambda self: "decoded again")
        ),
        id="cached-text-ignored",
    ),
    pytest.param(
        _scrapy_compat.check_stream_reader,
        lambda monkeypatch: monkeypatch.delattr("scrapy.utils.iterators._StreamReader"),
        id="stream-reader-gone",
    ),
    pytest.param(
        _scrapy_compat.check_stream_reader,
        lambda monkeypatch: monkeypatch.setattr(
            "scrapy.utils.iterators._StreamReader.read", lambda self, n=65535: b""
        ),
        id="stream-reader-reads-otherwise",
    ),
    pytest.param(
        _scrapy_compat.check_sitemap_body,
        lambda monkeypatch: monkeypatch.delattr(
            "scrapy.spiders.SitemapSpider._get_sitemap_body", raising=False
        ),
        id="sitemap-body-gone",
    ),
    pytest.param(
        _scrapy_compat.check_sitemap_body,
        lambda monkeypatch: monkeypatch.setattr(
            "scrapy.spiders.SitemapSpider._get_sitemap_body",
            lambda self, response: bytes(bytearray(response.body)),
        ),
        id="sitemap-body-copied",
    ),
    pytest.param(
        _scrapy_compat.check_unstarted_crawler,
        lambda monkeypatch: monkeypatch.setattr(
            "scrapy.extensions.httpcache.FilesystemCacheStorage.open_spider",
            lambda self, spider: setattr(self, "_fingerprinter", _Other()),
        ),
        id="cache-storage-fingerprinter-elsewhere",
    ),
]


class _Other:
    def fingerprint(self, request: Any) -> bytes:
        return b"\x01" * 20


@pytest.mark.parametrize(("check", "break_it"), BROKEN)
def test_a_change_fails_loudly(
    check: Callable[[], None],
    break_it: Callable[[pytest.MonkeyPatch], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    break_it(monkeypatch)
    with pytest.raises(ScrapyChanged) as info:
        check()
    names = {name for name, found in CHECKS if found is check}
    assert str(info.value).startswith(f"Scrapy {scrapy.__version__} changed {names.pop()}: ")


def _scrapy_private_names() -> set[str]:
    """The private names of the Scrapy objects the package meets: classes, instances of
    them, and the modules it imports from."""
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
    from scrapy.extensions.httpcache import DbmCacheStorage, FilesystemCacheStorage
    from scrapy.http import Headers, HtmlResponse, Request, Response
    from scrapy.settings import Settings
    from scrapy.spiders import SitemapSpider
    from scrapy.utils import iterators

    response = TextResponse("http://example.com/", body=b"x", encoding="utf-8")
    storage = FilesystemCacheStorage(Settings())
    storage.open_spider(Spider.from_crawler(_scrapy_compat.unstarted_crawler(), name="x"))
    objects: list[Any] = [
        Response,
        TextResponse,
        HtmlResponse,
        Request,
        Headers,
        Crawler,
        Settings,
        Spider,
        SitemapSpider,
        FilesystemCacheStorage,
        DbmCacheStorage,
        HttpCompressionMiddleware,
        iterators,
        iterators._StreamReader,
        iterators._StreamReader(response),
        response,
        Request("http://example.com/"),
        storage,
    ]
    names: set[str] = set()
    for obj in objects:
        for name in {*dir(obj), *getattr(obj, "__dict__", {})}:
            if name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return names


def _own_attributes(tree: ast.AST) -> set[str]:
    """The attributes the package's own classes define: methods, and what they set on
    ``self``."""
    own: set[str] = set()
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for node in ast.walk(cls):
            if isinstance(node, ast.FunctionDef):
                own.add(node.name)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                own.add(node.attr)
    return own


def private_scrapy_uses(root: Path) -> list[str]:
    """Each use of a private Scrapy name in the package under *root*, outside
    ``_scrapy_compat.py``: an attribute, a string given to ``getattr``, an import."""
    private = _scrapy_private_names()
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "_scrapy_compat.py":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        own = _own_attributes(tree)
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Attribute) and node.attr in private - own:
                name = node.attr
            elif isinstance(node, ast.Constant) and node.value in private - own:
                name = str(node.value)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scrapy"):
                name = next((a.name for a in node.names if a.name in private), None)
            if name is not None:
                found.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}: {name}")
    return found


def test_no_private_scrapy_attribute_outside_the_compat_module() -> None:
    assert private_scrapy_uses(REPO / "scrapy_charset") == []
