"""``Request.meta["charset"]``: the key the middleware's decision is written to.

The key is reserved for scrapy-charset. A value the middleware did not write (a project's
own ``meta["charset"] = "utf-8"``, another package's data) is never replaced: it is kept,
and the decision goes to ``meta["charset_decision"]`` instead (counted in
``charset/meta_taken``, warned about once). A decision is recognised by its shape, so one
copied by a redirect or restored from a ``JOBDIR`` queue is still the middleware's own.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from scrapy_charset.responses.decision import Source

__all__ = ["FALLBACK_META_KEY", "META_KEY", "decision_of", "is_decision", "tag", "untag"]

#: Where the decision is written.
META_KEY = "charset"
#: Where it goes when :data:`META_KEY` holds a value the middleware did not write.
FALLBACK_META_KEY = "charset_decision"

#: The keys every ``EncodingDecision.as_dict()`` has.
_DECISION_KEYS = frozenset({"encoding", "source", "label", "confidence", "ignored"})
_SOURCES = frozenset(source.value for source in Source)


def is_decision(value: Any) -> bool:
    """True for a dict the middleware wrote (``EncodingDecision.as_dict()``'s shape)."""
    return (
        isinstance(value, Mapping)
        and value.keys() >= _DECISION_KEYS
        and value.get("source") in _SOURCES
    )


def decision_of(meta: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The middleware's decision in *meta*, wherever it was written; None without one."""
    for key in (META_KEY, FALLBACK_META_KEY):
        value = meta.get(key)
        if is_decision(value):
            return value
    return None


def tag(meta: MutableMapping[str, Any], decision: dict[str, Any]) -> bool:
    """Write *decision* into *meta*; False when :data:`META_KEY` held a value the
    middleware did not write, which is kept (the decision then goes to
    :data:`FALLBACK_META_KEY`, unless that too holds a value of someone else's)."""
    if META_KEY not in meta or is_decision(meta[META_KEY]):
        meta[META_KEY] = decision
        if is_decision(meta.get(FALLBACK_META_KEY)):
            del meta[FALLBACK_META_KEY]
        return True
    if FALLBACK_META_KEY not in meta or is_decision(meta[FALLBACK_META_KEY]):
        meta[FALLBACK_META_KEY] = decision
    return False


def untag(meta: MutableMapping[str, Any]) -> None:
    """Remove the middleware's decision from *meta* (never a value it did not write)."""
    for key in (META_KEY, FALLBACK_META_KEY):
        if is_decision(meta.get(key)):
            del meta[key]
