"""The only place ``charset/`` stats keys are built.

Every key is bounded: the variable part is a WHATWG encoding name, a decision source, a
reason from a fixed set, or an item field path whose list indexes are collapsed. Values are
integers, so they add up in shared collectors (scrapy-redis uses HINCRBY).
"""

from __future__ import annotations

__all__ = ["PREFIX"]

PREFIX = "charset/"

# --- Downloader middleware -------------------------------------------------------------

RESPONSE_COUNT = PREFIX + "response_count"


def source(name: str) -> str:
    return f"{PREFIX}source/{name}"


def encoding(name: str) -> str:
    return f"{PREFIX}encoding/{name}"


def ignored(reason: str) -> str:
    return f"{PREFIX}ignored/{reason}"


def skipped(reason: str) -> str:
    return f"{PREFIX}skipped/{reason}"


# --- Item pipeline ---------------------------------------------------------------------
