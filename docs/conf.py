"""Sphinx configuration: the reference documentation, written in MyST Markdown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_INIT = Path(__file__).resolve().parents[1] / "scrapy_charset" / "__init__.py"
_VERSION = re.search(r'^__version__ = "([^"]+)"', _INIT.read_text("utf-8"), re.MULTILINE)

project = "scrapy-charset"
author = "scrapy-charset contributors"
copyright = "scrapy-charset contributors"
release = _VERSION.group(1) if _VERSION else "unknown"
version = release

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]

# Headings up to level 3 get anchors, so that "page.md#a-heading" links resolve.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The theme of Scrapy's own documentation.
html_theme = "sphinx_rtd_theme"
html_title = "scrapy-charset"


def _list_new_pages(app: Any, docname: str, source: list[str]) -> None:
    """Every page joins the index: those its toctrees do not list go under "More", by name,
    so that a new topic page builds with ``-W`` without an edit of the index."""
    if docname != root_doc:
        return
    listed = set(re.findall(r"^([\w-]+)$", source[0], re.MULTILINE))
    pages = sorted(path.stem for path in Path(app.srcdir).glob("*.md"))
    new = [page for page in pages if page not in listed and page != root_doc]
    if new:
        source[0] += "\n```{toctree}\n:maxdepth: 2\n:caption: More\n\n" + "\n".join(new) + "\n```\n"


def _reread_index(
    app: Any, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """An incremental build re-reads the index when a page comes or goes."""
    return [root_doc] if added or removed else []


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _list_new_pages)
    app.connect("env-get-outdated", _reread_index)
    return {"parallel_read_safe": True}
