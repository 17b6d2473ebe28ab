"""Detection for bodies that declare nothing and are not UTF-8.

The HTML Standard lets the user agent use "information about the likely encoding", such as
frequency analysis and the URL's top-level domain (13.2.3.2, "determining the character
encoding", the autodetection step). A :class:`Detector` is called with the body and the
URL, and answers a :class:`Detected` or None (then the default, windows-1252, decides).

:func:`get_detector` builds the detector a crawl uses. Whatever the backend, detection:

- reads a bounded window of text content (:func:`scrapy_charset.sniffing.text.detection_window`:
  it starts where the non-ASCII text starts, ends at a safe character boundary, and has
  markup, scripts, styles, comments and URLs removed), so a 50 MB body costs no more than
  the window;
- maps every answer to an Encoding Standard name (:func:`~scrapy_charset.sniffing.detectors.
  answer_encoding`, never :func:`codecs.lookup`) and keeps only the legacy encodings
  browsers support;
- applies the URL's TLD prior (:mod:`scrapy_charset.sniffing.tld`): chardetng takes the TLD
  itself; for the other backends, among the candidates scoring at least
  :data:`PRIOR_MARGIN` of the best, the first one the TLD makes likely wins, and when a
  backend has no usable answer the TLD's first encoding is used if it decodes the window
  without error;
- checks the chosen candidate with the WHATWG decoder (:func:`scrapy_charset.decode`): a
  candidate that turns the window into U+FFFD or C1 controls (U+0080-U+009F, which no text
  uses: windows-1252's five undefined bytes and 0x80-0x9F in ISO-8859) gives way to the
  next one that does not;
- on a few bytes of evidence (fewer than :data:`FEW_BYTES` non-ASCII bytes of text, which
  the TLD's default reads as punctuation at the edge of a word wherever they touch a
  letter), an answer among the code pages browsers never detect (:data:`EXOTIC`: macintosh,
  x-mac-cyrillic, ISO-8859-3, -10, -14, -16) gives way to the TLD's default (its first
  encoding), or windows-1252 without one, as in browsers;
- reads windows-1252 as ISO-8859-15 when the text has ISO-8859-15's letters and none of
  windows-1252's own punctuation (:func:`latin9_letters`).

The default backend is ``chardetng+chardet``: Firefox's detector (with the TLD) decides the
script and the language family, and chardet chooses among the sibling code pages Firefox
does not detect; without a TLD prior, chardet's ranking of the Latin and Cyrillic code
pages and the plausibility of the decoded text replace chardetng's no-TLD default. It is
the most accurate on the development corpus (every page of the common web encodings right,
with or without the TLD) and cheaper per page than Scrapy's own fallback; see the README's
"Detection" section for the figures.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scrapy_charset._log import Once
from scrapy_charset.sniffing.detectors import (
    FAMILIES,
    Backend,
    answer_encoding,
    latin9_letters,
    make_backend,
    same_family,
)
from scrapy_charset.sniffing.text import Window, detection_window
from scrapy_charset.sniffing.tld import prior, tld_of
from scrapy_charset.whatwg.codecs import decode

__all__ = [
    "DEFAULT_BACKEND",
    "DEFAULT_WINDOW",
    "EXOTIC",
    "FAMILIES",
    "FEW_BYTES",
    "PRIOR_MARGIN",
    "Detected",
    "Detector",
    "WebDetector",
    "get_detector",
    "latin9_letters",
    "same_family",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Detected:
    """A detector's answer: a WHATWG encoding name, who said it, and how sure it was.

    ``details`` are JSON-safe pairs for the decision's ``as_dict()`` (under "detector").
    """

    encoding: str
    detector: str
    score: float | None = None
    details: tuple[tuple[str, Any], ...] = ()


class Detector(Protocol):
    def __call__(self, body: bytes, url: str | None) -> Detected | None: ...


#: Bytes of text detection reads at most (starting where the non-ASCII text starts).
DEFAULT_WINDOW = 16 * 1024

#: The backend ``"default"`` names.
DEFAULT_BACKEND = "chardetng+chardet"

#: The backend used when the default one is not installed (a dependency of the package).
_ALWAYS_AVAILABLE = "charset-normalizer"

#: A candidate the TLD makes likely wins when it scores at least this share of the best.
PRIOR_MARGIN = 0.9

#: The code pages browsers' detectors never answer (Firefox's chardetng detects none of
#: them): on a few bytes of evidence, a backend's answer among them is chance.
EXOTIC: frozenset[str] = frozenset(
    ["macintosh", "x-mac-cyrillic", "ISO-8859-3", "ISO-8859-10", "ISO-8859-14", "ISO-8859-16"]
)

#: Non-ASCII bytes of text under which the evidence is "a few bytes".
FEW_BYTES = 8

_HIGH = bytes(range(0x80, 0x100))


def _few_bytes(text: bytes) -> bool:
    """True when *text* has fewer than :data:`FEW_BYTES` non-ASCII bytes."""
    return len(text) - len(text.translate(None, _HIGH)) < FEW_BYTES


def _punctuation_by_words(text: bytes, encoding: str) -> bool:
    """True when *encoding* reads every non-ASCII character of *text* that touches a
    letter as punctuation at the edge of a word (the curly quotes around "q" in
    windows-1252). A letter or a symbol next to a letter, or anything between two letters
    (windows-1252's "Cor\u017den", "Paran\u02c6", "ixtl\u2021n" for macintosh's "é", "à",
    "á"), is evidence for a code page that reads those bytes as letters."""
    decoded = decode(text, encoding)
    for index, char in enumerate(decoded):
        if char.isascii():
            continue
        before = decoded[index - 1 : index].isalpha() if index else False
        after = decoded[index + 1 : index + 2].isalpha()
        if before and after:
            return False
        if (before or after) and not unicodedata.category(char).startswith("P"):
            return False
    return True


#: Bytes of the window the decoder check reads.
_CHECK = 16 * 1024

#: The most bytes of a character a cut can leave at the end of a body: three of
#: gb18030's four-byte sequences (and of UTF-8's).
_CUT_CHARACTER = 3


# U+FFFD, or a C1 control (U+0080-U+009F): windows-1252 decodes its five undefined bytes to
# C1 controls, and the ISO-8859 encodings all of 0x80-0x9F; no text uses them.
_UNCLEAN = re.compile("[\ufffd\x80-\x9f]")


def _decodes_cleanly(window: bytes, encoding: str, *, cut: bool = False) -> bool:
    """True when *encoding* decodes *window* without U+FFFD or C1 controls. With *cut* (the
    window ends where the body ends), a body cut short inside its last character is judged
    without that character: the decoder's one U+FFFD at the end is evidence of the cut,
    not against the encoding (Encoding Standard, 4.1: an incomplete sequence at the end of
    the queue is one error)."""
    sample = window
    if len(sample) > _CHECK:
        end = max(sample.rfind(b" ", 0, _CHECK), sample.rfind(b"\n", 0, _CHECK))
        sample = sample[: end if end > 0 else _CHECK]
        cut = False
    text = decode(sample, encoding)
    if _UNCLEAN.search(text) is None:
        return True
    if not cut or not text.endswith("\ufffd"):
        return False
    return any(
        _UNCLEAN.search(decode(sample[:-size], encoding)) is None
        for size in range(1, min(_CUT_CHARACTER, len(sample)) + 1)
    )


class WebDetector:
    """Detection over a :class:`Backend`: bounded, web-aware, WHATWG-only, TLD-aware."""

    def __init__(
        self, backend: Backend, *, window: int = DEFAULT_WINDOW, use_tld: bool = True
    ) -> None:
        if window <= 0:
            raise ValueError(f"the detection window must be a positive byte count, not {window}")
        self.backend = backend
        self.window = window
        self.use_tld = use_tld

    @property
    def name(self) -> str:
        return self.backend.name

    def __repr__(self) -> str:
        return f"WebDetector({self.name!r}, window={self.window}, use_tld={self.use_tld})"

    def __call__(self, body: bytes, url: str | None) -> Detected | None:
        found = detection_window(body, self.window)
        if found is None:
            return None
        tld = tld_of(url) if self.use_tld else None
        ranked = self.backend.rank(found.text, tld if self.backend.uses_tld else None)
        candidates = _candidates(ranked)
        likely = () if self.backend.uses_tld else prior(tld)
        cut = found.end == len(body)
        chosen, how = _choose(candidates, likely, found.text, prior(tld), cut=cut)
        if chosen is None:
            return None
        encoding, score, label = chosen
        if encoding in EXOTIC and _few_bytes(found.text):
            default = (prior(tld) or ("windows-1252",))[0]
            if encoding != default and _punctuation_by_words(found.text, default):
                encoding, score, label, how = default, None, "", "tld-default"
        if encoding == "windows-1252" and latin9_letters(found.text):
            encoding, how = "ISO-8859-15", "latin9-letters"
        return Detected(
            encoding=encoding,
            detector=self.name,
            score=score,
            details=_details(found, tld, label, how),
        )


def _candidates(ranked: Sequence[tuple[str, float | None]]) -> list[tuple[str, float | None, str]]:
    """(encoding, score, label as answered) for each usable answer, first of each encoding."""
    out: list[tuple[str, float | None, str]] = []
    seen: set[str] = set()
    for label, score in ranked:
        encoding = answer_encoding(label)
        if encoding is not None and encoding not in seen:
            seen.add(encoding)
            out.append((encoding, score, label))
    return out


def _choose(
    candidates: list[tuple[str, float | None, str]],
    likely: tuple[str, ...],
    text: bytes,
    country: tuple[str, ...] = (),
    *,
    cut: bool = False,
) -> tuple[tuple[str, float | None, str] | None, str]:
    """The candidate to answer, and how it was chosen ("backend", "tld", "decoder").

    *likely* is the TLD prior the detector applies to the ranking (for backends that do
    not take the TLD themselves); *country* is the TLD's likely encodings whatever the
    backend: when no candidate decodes the window cleanly, the first of those that does
    wins (an EUC-KR page under ``.kr`` that a backend reads as Big5, with U+FFFD). *cut*
    says the window ends where the body does (see :func:`_decodes_cleanly`).
    """
    if not candidates:
        if likely and _decodes_cleanly(text, likely[0], cut=cut):
            return (likely[0], None, ""), "tld"
        return None, "none"
    ordered = list(candidates)
    how = "backend"
    if likely:
        top, best = candidates[0][0], candidates[0][1] or 0.0
        for candidate in candidates:
            if same_family(candidate[0], top) and candidate[0] != top:
                continue  # the TLD says the language, not which sibling code page
            if candidate[0] in likely and (candidate[1] or 0.0) >= best * PRIOR_MARGIN:
                if candidate is not candidates[0]:
                    ordered.remove(candidate)
                    ordered.insert(0, candidate)
                    how = "tld"
                break
    for candidate in ordered[:4]:
        if _decodes_cleanly(text, candidate[0], cut=cut):
            if candidate is not ordered[0]:
                how = "decoder"
            return candidate, how
    for encoding in country:
        if _decodes_cleanly(text, encoding, cut=cut):
            return (encoding, None, ""), "tld"
    return ordered[0], how


def _details(found: Window, tld: str | None, label: str, how: str) -> tuple[tuple[str, Any], ...]:
    return (
        ("label", label or None),
        ("chosen_by", how),
        ("tld", tld),
        ("window", [found.start, found.end]),
        ("markup_stripped", found.stripped),
    )


#: One log line per missing backend, for the life of the process.
_warn = Once(logger)


def get_detector(
    name: str = "default", *, window: int = DEFAULT_WINDOW, use_tld: bool = True
) -> Detector | None:
    """The detector called *name*, or None for ``"none"`` (no detection).

    :param name: ``"default"`` (:data:`DEFAULT_BACKEND`), ``"chardetng"``, ``"chardet"``,
        ``"charset-normalizer"``, ``"cchardet"`` or ``"none"``.
    :param window: the most bytes detection reads (:data:`DEFAULT_WINDOW`).
    :param use_tld: use the URL's top-level domain as a prior.
    :raises ValueError: for an unknown name or a window that is not a positive integer.

    A backend whose library is not installed falls back to the default backend (and the
    default to charset-normalizer, a dependency), with one log line per missing backend.
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "none":
        return None
    if isinstance(window, bool) or not isinstance(window, int) or window <= 0:
        raise ValueError(f"the detection window must be a positive byte count, not {window!r}")
    wanted = DEFAULT_BACKEND if key == "default" else key
    for candidate in (wanted, DEFAULT_BACKEND, _ALWAYS_AVAILABLE):
        try:
            backend = make_backend(candidate)
        except ImportError as error:
            _warn(
                candidate,
                "charset detector %(name)r is not installed (%(error)s); using %(other)r instead",
                {
                    "name": candidate,
                    "error": error,
                    "other": DEFAULT_BACKEND if candidate != DEFAULT_BACKEND else _ALWAYS_AVAILABLE,
                },
            )
            continue
        return WebDetector(backend, window=window, use_tld=use_tld)
    raise ImportError("no charset detection backend is installed")  # pragma: no cover
