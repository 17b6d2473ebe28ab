"""A component listed in the wrong setting: one WARNING naming the setting and line to use.

Scrapy builds whatever a component setting lists, whatever it is: the add-on listed in
``DOWNLOADER_MIDDLEWARES`` becomes a downloader middleware with no method, the downloader
middleware listed in ``ADDONS`` an add-on that changes no setting, and neither says a
word. Each of the package's four components therefore checks, when Scrapy builds it
(``from_crawler``), where the project listed it: a listing in another setting is told
once per crawl, and the copy built in the wrong role does nothing (``NotConfigured``).

Which role a build is for: add-ons are built while the settings are still open
(``AddonManager.load_settings``), every other component once they are frozen. This holds
in every supported Scrapy (2.13 and later).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.utils.misc import load_object

from scrapy_charset._log import once_per_crawler

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["ADDON_LINE", "COMPONENT_SETTINGS", "built_in_wrong_role", "misplacements"]

logger = logging.getLogger(__name__)

#: The one line that enables everything.
ADDON_LINE = 'ADDONS = {"scrapy_charset.Addon": 0}'

#: The settings whose keys Scrapy builds as components.
COMPONENT_SETTINGS = (
    "ADDONS",
    "DOWNLOADER_MIDDLEWARES",
    "SPIDER_MIDDLEWARES",
    "ITEM_PIPELINES",
    "EXTENSIONS",
)

#: The public path of each component, its setting, and what it is, in words.
_ROLES: dict[str, tuple[str, str]] = {
    "scrapy_charset.Addon": ("ADDONS", "an add-on"),
    "scrapy_charset.CharsetMiddleware": ("DOWNLOADER_MIDDLEWARES", "a downloader middleware"),
    "scrapy_charset.CharsetItemStampMiddleware": ("SPIDER_MIDDLEWARES", "a spider middleware"),
    "scrapy_charset.CharsetPipeline": ("ITEM_PIPELINES", "an item pipeline"),
}


def _public_path(cls: type) -> str | None:
    """``scrapy_charset.<Name>`` when *cls* is one of the four components, else None."""
    path = f"scrapy_charset.{cls.__name__}"
    if path not in _ROLES:
        return None
    import scrapy_charset

    return path if getattr(scrapy_charset, cls.__name__) is cls else None


def _listed(settings: BaseSettings, name: str, cls: type) -> list[str]:
    """How setting *name* lists *cls* (each key as the project wrote it), enabled ones only."""
    found = []
    for source in (name, f"{name}_BASE"):
        for key, priority in settings.getdict(source).items():
            if priority is None:
                continue
            loaded = key
            if isinstance(key, str):
                try:
                    loaded = load_object(key)
                except (ImportError, NameError, ValueError, AttributeError):
                    continue
            if loaded is cls:
                found.append(key if isinstance(key, str) else _public_path(cls) or repr(key))
    return found


def misplacements(settings: BaseSettings, cls: type) -> list[tuple[str, str]]:
    """``(setting, key)`` for every setting other than its own that lists *cls*."""
    path = _public_path(cls)
    if path is None:
        return []
    right = _ROLES[path][0]
    return [
        (name, key)
        for name in COMPONENT_SETTINGS
        if name != right
        for key in _listed(settings, name, cls)
    ]


def _advice(path: str) -> str:
    right, _ = _ROLES[path]
    if right == "ADDONS":
        return f"Write {ADDON_LINE} instead."
    return (
        f"Write {ADDON_LINE} instead: it enables this component and the others; "
        f"or list {path} in {right}."
    )


def built_in_wrong_role(crawler: Crawler, cls: type) -> bool:
    """Warn, once per crawl and setting, for each setting that lists *cls* though it is not
    its own; True when this build of *cls* is for such a listing (the caller raises
    ``NotConfigured``)."""
    path = _public_path(cls)
    if path is None:
        return False
    settings = crawler.settings
    found = misplacements(settings, cls)
    right, what = _ROLES[path]
    for name, key in found:
        if once_per_crawler(crawler, ("misplaced", path, name)):
            logger.warning(
                "%(key)s is listed in %(name)s, where it does nothing: it is %(what)s, "
                "for %(right)s. %(advice)s",
                {"key": key, "name": name, "what": what, "right": right, "advice": _advice(path)},
                extra={"crawler": crawler},
            )
    if not found:
        return False
    building_addons = not settings.frozen
    if right == "ADDONS":
        return not building_addons
    if building_addons:
        return any(name == "ADDONS" for name, _ in found)
    # A component setting's build: the wrong one unless its own setting lists it too.
    return not _listed(settings, right, cls)
