"""The DBM module the audit gives Scrapy's ``DbmCacheStorage`` (``HTTPCACHE_DBM_MODULE``):
it opens every database read-only, whatever flag the storage asks for (``open_spider``
asks for ``"c"``, read and write, created if missing): an audit never writes to the cache
it reads. The database's format is found as :func:`dbm.open` finds it.
"""

from __future__ import annotations

import dbm
from typing import Any

__all__ = ["error", "open"]

error = dbm.error


def open(file: str, flag: str = "r", mode: int = 0o666) -> Any:
    """:func:`dbm.open` of *file*, read-only; *flag* and *mode* are ignored."""
    return dbm.open(file, "r")
