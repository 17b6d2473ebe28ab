"""The outcome of "determining the character encoding" for one body.

An :class:`EncodingDecision` says which encoding was chosen, which rule chose it, the label
as the document or the server wrote it, the spec's confidence, and every declaration that
lost or could not be used, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

__all__ = ["MAX_LABEL", "Confidence", "EncodingDecision", "Ignored", "Source", "cut_label"]

#: The most characters of a label kept in a decision recorded by the middleware
#: (``meta["charset"]``, log lines): Encoding Standard labels are at most 19 characters,
#: so only garbage is cut.
MAX_LABEL = 40


def cut_label(label: str, limit: int = MAX_LABEL) -> str:
    """*label* if it is at most *limit* characters, else its start and a note that it was
    cut (a 10 KB ``Content-Type`` must not make a 10 KB meta value or log line)."""
    if len(label) <= limit:
        return label
    return f"{label[:limit]}... (cut, {len(label)} characters)"


class Source(str, Enum):
    """The rule that decided the encoding, in the browser's order."""

    OVERRIDE = "override"
    BOM = "bom"
    HEADER = "header"
    META = "meta"
    XML_DECLARATION = "xml-declaration"
    UTF8 = "utf8-validity"  # a body valid (or mostly valid) as UTF-8 is UTF-8
    DETECTED = "detected"
    DEFAULT = "default"

    def __str__(self) -> str:
        return self.value


class Confidence(str, Enum):
    """HTML Standard, 13.2.3.1: the confidence of the encoding of the input stream."""

    CERTAIN = "certain"
    TENTATIVE = "tentative"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Ignored:
    """A declaration that was not used, and why.

    ``reason`` is one of a small fixed set, so it can name a stats key:

    - ``unknown_label``: the label is not in the Encoding Standard's table;
    - ``refused_label``: the label names a codec Python knows but browsers do not
      support (``utf-7``, ``cp437``, ``rot13``...); it is never handed to Python;
    - ``<winner>_<source>_conflict``: a usable declaration named another encoding than the
      one that decided (``header_meta_conflict``, ``bom_header_conflict``...);
    - ``not_utf``: a JSON body's header named a non-UTF encoding (RFC 8259, section 8.1).
    """

    source: Source
    label: str
    reason: str
    encoding: str | None = None
    offset: int | None = None

    @classmethod
    def unusable(cls, source: Source, label: str, offset: int | None = None) -> Ignored:
        """A label "get an encoding" fails on: ``refused_label`` for a codec browsers do
        not support, else ``unknown_label``."""
        from scrapy_charset.whatwg.labels import is_refused

        reason = "refused_label" if is_refused(label) else "unknown_label"
        return cls(source=source, label=label, reason=reason, offset=offset)

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source.value,
            "label": self.label,
            "encoding": self.encoding,
            "reason": self.reason,
            "offset": self.offset,
        }


@dataclass(frozen=True)
class EncodingDecision:
    """The encoding of one body and how it was determined.

    ``encoding`` is always a WHATWG encoding name (``"UTF-8"``, ``"windows-1252"``,
    ``"Shift_JIS"``, ``"replacement"``...). ``label`` is the declaration as written (after
    the spec's whitespace trimming), or ``None`` when nothing was declared. ``offset`` is
    the byte offset of an in-document declaration. ``detector`` and ``score`` are set when
    the source is ``"detected"``. ``sniffed_type`` is the MIME type the MIME Sniffing
    Standard's rules computed for a response with no or an uninformative ``Content-Type``
    (:mod:`scrapy_charset.sniffing.mime`), else None.
    """

    encoding: str
    source: Source
    confidence: Confidence
    label: str | None = None
    ignored: tuple[Ignored, ...] = ()
    offset: int | None = None
    detector: str | None = None
    score: float | None = None
    details: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    sniffed_type: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (only str, int, float, bool, None, lists and dicts)."""
        out: dict[str, Any] = {
            "encoding": self.encoding,
            "source": self.source.value,
            "label": self.label,
            "confidence": self.confidence.value,
            "ignored": [item.as_dict() for item in self.ignored],
        }
        if self.offset is not None:
            out["offset"] = self.offset
        if self.detector is not None:
            out["detector"] = {"name": self.detector, "score": self.score, **dict(self.details)}
        if self.sniffed_type is not None:
            out["sniffed_type"] = self.sniffed_type
        return out
