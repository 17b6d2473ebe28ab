"""Detection for bodies that declare nothing and are not UTF-8.

The HTML Standard lets the user agent use "information about the likely encoding", such as
frequency analysis and the URL's top-level domain (13.2.3.2, "determining the character
encoding", the autodetection step). This module defines the interface detection plugs into;
without a detector the decision falls to the default (windows-1252).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["Detected", "Detector"]


@dataclass(frozen=True)
class Detected:
    """A detector's answer: a WHATWG encoding name, who said it, and how sure it was."""

    encoding: str
    detector: str
    score: float | None = None


class Detector(Protocol):
    def __call__(self, body: bytes, url: str | None) -> Detected | None: ...
