"""The repair: ftfy's plan (:func:`ftfy.fix_encoding_and_explain`), one layer at a time.

ftfy finds the plan that undoes mojibake: a list of steps (``encode`` with a single-byte
encoding, ``transcode`` or ``apply`` one of its fixers, ``decode`` as UTF-8). A *layer*
is the steps that undo one round of damage: an ``encode`` with the transcodes and the
``decode`` that follow it, or one ``apply``, or one ``transcode`` on its own. Each layer is
applied on its own (:func:`ftfy.apply_plan`), so that :mod:`.verify` judges every text on
the way, and only the layers whose every step is on :data:`ALLOWED` are taken: the
encodings and fixers this package can name and defend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import ftfy

from scrapy_charset.items.mojibake.chardata import MojibakeKind

__all__ = ["ALLOWED", "WINDOWS_1252", "Layer", "apply", "kind_of", "layers", "step_names"]

#: The steps of ftfy's plans this package applies, by action. ftfy's ``sloppy-`` codecs
#: are the browser's windows-125x (its five unassigned bytes kept as C1 controls).
ALLOWED: dict[str, frozenset[str]] = {
    "encode": frozenset(
        {
            "latin-1",
            "sloppy-windows-1252",
            "sloppy-windows-1251",
            "sloppy-windows-1250",
            "sloppy-windows-1253",
            "sloppy-windows-1254",
            "sloppy-windows-1257",
            "iso-8859-2",
            "macroman",
            "cp437",
        }
    ),
    "decode": frozenset({"utf-8", "utf-8-variants", "windows-1252"}),
    "transcode": frozenset({"restore_byte_a0", "replace_lossy_sequences", "fix_c1_controls"}),
    "apply": frozenset({"decode_inconsistent_utf8"}),
}

#: The readings of UTF-8 that a windows-1252 repair undoes (latin-1 is its subset).
WINDOWS_1252 = frozenset({"latin-1", "sloppy-windows-1252", "sloppy-windows-1254"})


@dataclass(frozen=True, slots=True)
class Layer:
    """One layer of ftfy's plan: its steps, as ``(action, parameter)``, and the text
    after it."""

    steps: tuple[tuple[str, str], ...]
    text: str

    @property
    def encoding(self) -> str | None:
        """The single-byte encoding the layer undoes, when it encodes."""
        return self.steps[0][1] if self.steps[0][0] == "encode" else None

    @property
    def lossy(self) -> bool:
        """Bytes were lost before this layer: it puts U+FFFD where they were."""
        return ("transcode", "replace_lossy_sequences") in self.steps


def layers(text: str) -> list[Layer]:
    """ftfy's plan for *text*, as the layers on :data:`ALLOWED` it starts with, each with
    the text it gives. A layer with another step ends the list."""
    plan = ftfy.fix_encoding_and_explain(text).explanation
    if not plan:
        return []
    grouped: list[list[tuple[str, str]]] = []
    for action, parameter in plan:
        starts = (
            action in ("encode", "apply")
            or (action == "transcode" and parameter == "fix_c1_controls")
            or not grouped
            or grouped[-1][-1][0] == "decode"
        )
        if starts:
            grouped.append([])
        grouped[-1].append((action, parameter))
    found: list[Layer] = []
    current = text
    for steps in grouped:
        if not all(parameter in ALLOWED.get(action, ()) for action, parameter in steps):
            break
        try:
            after = ftfy.apply_plan(current, steps)
        except (UnicodeError, ValueError):
            break
        if after != current:  # a layer that changes nothing is no repair
            current = after
            found.append(Layer(tuple(steps), current))
    return found


def apply(text: str, steps: Sequence[tuple[str, str]]) -> str:
    """*text* after *steps* (:func:`ftfy.apply_plan`)."""
    return ftfy.apply_plan(text, list(steps))


def kind_of(chosen: list[Layer]) -> MojibakeKind:
    """The kind of damage the *chosen* layers undo."""
    encodings = [layer.encoding for layer in chosen if layer.encoding is not None]
    decodes = [p for layer in chosen for a, p in layer.steps if a == "decode"]
    if not encodings:
        if any(p == "decode_inconsistent_utf8" for layer in chosen for _, p in layer.steps):
            return MojibakeKind.UTF8_AS_WINDOWS_1252
        return MojibakeKind.C1_CONTROLS
    if decodes and all(d == "windows-1252" for d in decodes):
        return MojibakeKind.C1_CONTROLS
    utf8 = [e for layer in chosen if (e := layer.encoding) and _decodes_utf8(layer)]
    if len(utf8) >= 2 and all(e in WINDOWS_1252 for e in utf8):
        return MojibakeKind.UTF8_DOUBLE_ENCODED
    first = utf8[0] if utf8 else encodings[0]
    if first in WINDOWS_1252:
        return MojibakeKind.UTF8_AS_WINDOWS_1252
    if first == "sloppy-windows-1251":
        return MojibakeKind.UTF8_AS_WINDOWS_1251
    return MojibakeKind.UTF8_AS_OTHER


def _decodes_utf8(layer: Layer) -> bool:
    return any(a == "decode" and p.startswith("utf-8") for a, p in layer.steps)


def step_names(chosen: list[Layer]) -> str:
    """The plan of the *chosen* layers as a report names it: ``encode:latin-1,
    decode:utf-8``."""
    return ", ".join(f"{a}:{p}" for layer in chosen for a, p in layer.steps)
