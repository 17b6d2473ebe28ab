"""Detection for bodies that declare nothing and are not UTF-8.

The HTML Standard lets the user agent use "information about the likely encoding", such as
frequency analysis and the URL's top-level domain (13.2.3.2, "determining the character
encoding", the autodetection step). This module defines the interface detection plugs into;
without a detector the decision falls to the default (windows-1252).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["DEFAULT_WINDOW", "Detected", "Detector", "get_detector"]


@dataclass(frozen=True)
class Detected:
    """A detector's answer: a WHATWG encoding name, who said it, and how sure it was."""

    encoding: str
    detector: str
    score: float | None = None


class Detector(Protocol):
    def __call__(self, body: bytes, url: str | None) -> Detected | None: ...


#: Bytes of text detection reads at most (starting where the non-ASCII text starts).
DEFAULT_WINDOW = 64 * 1024


def get_detector(
    name: str = "default", *, window: int = DEFAULT_WINDOW, use_tld: bool = True
) -> Detector | None:
    """The detector called *name* (``"default"`` for the recommended one), or None for none.

    Provisional: no backend is wired in yet, so every name gives None and undeclared
    non-UTF-8 bodies fall to the default encoding.
    """
    return None
