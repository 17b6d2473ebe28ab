"""What each step of "determining the character encoding" saw, for one body.

HTML Standard 13.2.3.2: https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding

``sniff(body, ..., trace=Trace())`` fills the :class:`Trace` as its steps run: one typed
record per step, set when the step ran and left None when it did not (a rule earlier in
the order decided first, or the step is not part of the rules for the body's kind). The
declarations after the deciding step are still read, for conflicts, so their records are
there too. ``scrapy charset`` renders a trace; the middleware never asks for one, and a
step that is not asked pays one ``is None`` test.

Pure code: nothing here imports Scrapy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy_charset.responses.decision import Ignored, Source

if TYPE_CHECKING:
    from scrapy_charset.sniffing.detect import Detected
    from scrapy_charset.sniffing.utf8 import Utf8Evidence

__all__ = ["BomSeen", "DeclarationSeen", "DetectionSeen", "LabelSeen", "Trace", "Utf8Seen"]


@dataclass(frozen=True)
class BomSeen:
    """Step 1, BOM sniffing: the encoding of the byte order mark (None: no BOM)."""

    encoding: str | None
    length: int

    def as_dict(self) -> dict[str, Any] | None:
        return None if self.encoding is None else {"encoding": self.encoding, "length": self.length}


@dataclass(frozen=True)
class LabelSeen:
    """Step 2 (the override) or step 4 (the transport layer's charset): the label as
    written, after ASCII whitespace is stripped (None: no label), the encoding it names
    and, when the step could not use it, why (``unknown_label``, ``refused_label``,
    ``not_utf``)."""

    source: Source
    label: str | None
    encoding: str | None = None
    problem: str | None = None

    def as_dict(self) -> dict[str, Any] | None:
        if self.label is None:
            return None
        out: dict[str, Any] = {
            "source": self.source.value,
            "label": self.label,
            "encoding": self.encoding,
        }
        if self.problem is not None:
            out["problem"] = self.problem
        return out


@dataclass(frozen=True)
class DeclarationSeen:
    """Step 5, the prescan (``<meta>``, then an XML declaration), or the XML declaration of
    an XML body: what was found (``label`` None: nothing, or UTF-16 recognised by its
    first bytes), its byte offset, and the declarations passed over."""

    source: Source
    label: str | None
    encoding: str | None
    offset: int | None
    ignored: tuple[Ignored, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source.value,
            "label": self.label,
            "encoding": self.encoding,
            "offset": self.offset,
            "ignored": [item.as_dict() for item in self.ignored],
        }


@dataclass(frozen=True)
class Utf8Seen:
    """The UTF-8 rule: whether the body is valid UTF-8 (and only ASCII), the first invalid
    byte, seven-bit ISO-2022-JP escapes that leave the body to detection; for a body that
    is not valid, the counts the mostly-UTF-8 rule read in its window and whether they
    make it mostly UTF-8."""

    valid: bool
    ascii: bool
    first_invalid_offset: int | None
    iso2022jp_escapes: bool = False
    counts: Utf8Evidence | None = None
    mostly: bool = False

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "valid": self.valid,
            "ascii": self.ascii,
            "first_invalid_offset": self.first_invalid_offset,
        }
        if self.iso2022jp_escapes:
            out["iso2022jp_escapes"] = True
        if self.counts is not None:
            out["mostly_utf8"] = {
                "valid": self.counts.valid,
                "invalid": self.counts.invalid,
                "decided": self.mostly,
            }
        return out


@dataclass(frozen=True)
class DetectionSeen:
    """Step 8, autodetection: whether a detector was given, and its answer (None: none)."""

    available: bool
    detected: Detected | None = None


@dataclass
class Trace:
    """The records of one :func:`scrapy_charset.sniffing.sniff` call, in the browser's order.

    ``order`` names the steps of the body's kind, by the source each gives; a record left
    None belongs to a step that did not run.
    """

    order: tuple[Source, ...] = ()
    bom: BomSeen | None = None
    override: LabelSeen | None = None
    header: LabelSeen | None = None
    in_document: DeclarationSeen | None = None
    utf8: Utf8Seen | None = None
    detection: DetectionSeen | None = None
    default: str | None = None

    def ran(self, source: Source) -> bool:
        """Whether the step that gives *source* ran."""
        record = {
            Source.BOM: self.bom,
            Source.OVERRIDE: self.override,
            Source.HEADER: self.header,
            Source.META: self.in_document,
            Source.XML_DECLARATION: self.in_document,
            Source.UTF8: self.utf8,
            Source.DETECTED: self.detection,
            Source.DEFAULT: self.default,
        }[source]
        return record is not None
