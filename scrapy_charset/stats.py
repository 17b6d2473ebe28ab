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


#: Why the middleware left a response alone; the only values of ``charset/skipped/<reason>``.
SKIP_REASONS = (
    "dont_charset",  # Request.meta["dont_charset"] is true
    "not_text",  # not a TextResponse (images, archives, undecompressed bodies)
    "content_type",  # a TextResponse whose Content-Type is not text, or is skipped by setting
    "head",  # a HEAD request: no body
    "empty",  # an empty body
    "data_url",  # a data: URL, whose charset parameter is the whole story
    "browser",  # rendered by a browser (scrapy-playwright, Zyte API browserHtml): UTF-8 text
    "unsupported_class",  # a response class that cannot be rebuilt from its attributes
)


def skipped(reason: str) -> str:
    if reason not in SKIP_REASONS:
        raise ValueError(f"unknown skip reason {reason!r}: add it to SKIP_REASONS")
    return f"{PREFIX}skipped/{reason}"


# --- Item pipeline ---------------------------------------------------------------------
