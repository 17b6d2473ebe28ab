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
#: Responses whose ``Request.meta["charset"]`` held a value the middleware did not write
#: (kept; the decision went to ``meta["charset_decision"]``).
META_TAKEN = PREFIX + "meta_taken"


def source(name: str) -> str:
    return f"{PREFIX}source/{name}"


def encoding(name: str) -> str:
    return f"{PREFIX}encoding/{name}"


def sniffed_type(mime_type: str) -> str:
    """``charset/sniffed_type/<type>``: one of the types the MIME Sniffing Standard's
    rules compute (a fixed set, :data:`scrapy_charset.sniffing.mime.COMPUTED_TYPES`)."""
    return f"{PREFIX}sniffed_type/{mime_type}"


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
    "browser",  # rendered by a browser (scrapy-playwright, Zyte API browserHtml): its text
    "unsupported_class",  # a response class that cannot be rebuilt from its attributes
)


def skipped(reason: str) -> str:
    if reason not in SKIP_REASONS:
        raise ValueError(f"unknown skip reason {reason!r}: add it to SKIP_REASONS")
    return f"{PREFIX}skipped/{reason}"


# --- Item pipeline ---------------------------------------------------------------------

ITEMS_CHECKED = PREFIX + "items_checked"
REPLACEMENT_ITEMS = PREFIX + "replacement/items"
REPLACEMENT_CHARS = PREFIX + "replacement/chars"
MOJIBAKE_ITEMS = PREFIX + "mojibake/items"
ITEMS_DROPPED = PREFIX + "items_dropped"
UNDECLARED_FIELD = PREFIX + "items/undeclared_field"
STAMPED = PREFIX + "stamp/items"
STAMP_UNDECLARED = PREFIX + "stamp/undeclared_field"
STAMP_MISSING = PREFIX + "stamp/no_decision"
#: Items whose decision source was forgotten: more than ``MAX_PENDING`` items waited
#: between the spider middleware and the item pipeline.
SOURCES_EVICTED = PREFIX + "items/sources_evicted"
#: CHARSET_REPAIRS_FIELD / CHARSET_ITEM_FIELD names a field that holds the user's own value.
FIELD_TAKEN = PREFIX + "items/field_taken"
STAMP_FIELD_TAKEN = PREFIX + "stamp/field_taken"
#: Values the pipeline does not walk: nested too deep, or a container it can neither edit
#: in place nor rebuild (so it never flags what it could not repair).
SKIPPED_VALUES = PREFIX + "items/skipped_values"

#: The components that count their internal errors; the only values of
#: ``charset/errors/<component>``. An internal error lets the item through unchanged.
ERROR_COMPONENTS = ("pipeline", "stamp")


def error(component: str) -> str:
    if component not in ERROR_COMPONENTS:
        raise ValueError(f"unknown component {component!r}: add it to ERROR_COMPONENTS")
    return f"{PREFIX}errors/{component}"


# An item field path, list indexes collapsed ("offers.price"); the pipeline bounds how many
# distinct paths it names and counts the rest as OTHER_FIELD.
OTHER_FIELD = "<other>"


def replacement_field(path: str) -> str:
    return f"{PREFIX}replacement/field/{path}"


def replacement_source(source: str) -> str:
    return f"{PREFIX}replacement/source/{source}"


def mojibake_field(path: str) -> str:
    return f"{PREFIX}mojibake/field/{path}"


def mojibake_kind(kind: str) -> str:
    return f"{PREFIX}mojibake/kind/{kind}"


def mojibake_source(source: str) -> str:
    return f"{PREFIX}mojibake/source/{source}"


def repaired_field(path: str) -> str:
    return f"{PREFIX}repaired/field/{path}"


def repaired_kind(kind: str) -> str:
    return f"{PREFIX}repaired/kind/{kind}"


#: Values whose repair left damage of another kind or in another segment.
REPAIRED_PARTIAL = f"{PREFIX}repaired/partial"


def normalized_field(path: str) -> str:
    return f"{PREFIX}normalized/field/{path}"


def alert(kind: str) -> str:
    return f"{PREFIX}alerts/{kind}"
