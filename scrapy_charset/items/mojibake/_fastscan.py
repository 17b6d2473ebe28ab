"""The pre-filter's compiled scanner: where in a long text the marks' pattern can match,
found by Hyperscan (optional: ``pip install scrapy-charset[fast]``).

The marks' regular expressions (:mod:`.badness`) stay the reference: they look around the
character they match, which Hyperscan does not support. Each of their branches is written
here as the characters it reads, one class each, with no look-around: a superset of the
branch's matches. Hyperscan finds every place where one of them matches, at the speed of
its compiled automata, and the marks' pattern is then tried at those places only (and at no
other: where no expression matches, the pattern cannot). Text that windows-1252 encodes
whole is scanned in those bytes (one byte per character); other text in UTF-8, whose byte
offsets are counted back to characters.

``SCANNER`` tells which path is in use: ``"hyperscan"`` when the package imports and the
environment variable ``SCRAPY_CHARSET_PURE`` is not set to a non-empty value other than
``0``, else ``"python"``.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

logger = logging.getLogger(__name__)

#: One expression: the class bodies (regular-expression syntax) of the characters it reads,
#: in order, and how many characters after its first the mark's position is.
Expression = tuple[tuple[str, ...], int]

_PURE = os.environ.get("SCRAPY_CHARSET_PURE", "") not in ("", "0")


def _load() -> Any:
    if _PURE:
        return None
    try:
        import hyperscan
    except ImportError:
        return None
    return hyperscan


_hyperscan = _load()

#: The path in use: "hyperscan" or "python".
SCANNER = "python" if _hyperscan is None else "hyperscan"

_SURROGATES = range(0xD800, 0xE000)
_PLANES = (0x10000, 0x1F600, 0x10FFFF)  # probes of the supplementary planes


@functools.cache
def _members(body: str) -> tuple[tuple[int, int], ...]:
    """The code-point ranges the class ``[body]`` matches."""
    pattern = re.compile(f"[{body}]")
    points = {ord(c) for c in pattern.findall(_bmp())}
    ranges: list[tuple[int, int]] = []
    for point in sorted(points):
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    supplementary = [pattern.match(chr(p)) is not None for p in _PLANES]
    if all(supplementary):
        ranges.append((0x10000, 0x10FFFF))
    elif any(supplementary):
        raise ValueError(f"a class with part of the supplementary planes: [{body}]")
    return tuple(ranges)


@functools.lru_cache(maxsize=1)
def _bmp() -> str:
    return "".join(map(chr, range(0x10000)))


def _utf8_class(body: str) -> str:
    parts = []
    for low, high in _members(body):
        # Lone surrogates are not UTF-8: text that holds one is left to the pure path.
        for start, end in ((low, min(high, 0xD7FF)), (max(low, 0xE000), high)):
            if start <= end:
                parts.append(f"\\x{{{start:x}}}" + (f"-\\x{{{end:x}}}" if end > start else ""))
    return f"[{''.join(parts)}]" if parts else ""


def _byte_class(body: str, encode: Callable[[str], bytes | None]) -> str:
    found: set[int] = set()
    for low, high in _members(body):
        for point in range(low, min(high, 0xFFFF) + 1):
            raw = None if point in _SURROGATES else encode(chr(point))
            if raw is not None:
                found.update(raw)
    return "[" + "".join(f"\\x{b:02x}" for b in sorted(found)) + "]" if found else ""


def _compile(expressions: Sequence[str], flags: int) -> Any:
    database = _hyperscan.Database(mode=_hyperscan.HS_MODE_BLOCK)
    database.compile(
        expressions=[e.encode("ascii") for e in expressions],
        ids=list(range(len(expressions))),
        flags=[flags] * len(expressions),
    )
    return database


#: Bytes that are not UTF-8 continuation bytes (deleted to count those).
_NOT_CONTINUATION = bytes(range(0x80)) + bytes(range(0xC0, 0x100))


class Scanner:
    """The places of a text where the marks' pattern may match."""

    def __init__(
        self,
        utf8: Sequence[Expression],
        single_byte: Sequence[Expression],
        encode: Callable[[str], bytes | None],
    ) -> None:
        """*utf8*: the expressions of text read in UTF-8; *single_byte*: of text read in
        the single-byte form *encode* gives one character (the bytes it may be, or None
        for a character that form does not have)."""
        self._utf8 = self._database(utf8, _utf8_class, _hyperscan.HS_FLAG_UTF8)
        self._single_byte = self._database(
            single_byte, functools.partial(_byte_class, encode=encode), 0
        )
        self._local = threading.local()

    @staticmethod
    def _database(
        expressions: Sequence[Expression], to_class: Callable[[str], str], flags: int
    ) -> tuple[Any, list[int]]:
        written, offsets = [], []
        for classes, offset in expressions:
            parts = [to_class(body) for body in classes]
            if all(parts):  # a class no character of this form is in: no match
                written.append("".join(parts))
                # From the match's end (each expression reads a fixed number of
                # characters) back to the mark.
                offsets.append(offset - len(classes))
        return _compile(written, flags), offsets

    def _scratch(self, database: Any) -> Any:
        # Hyperscan's scratch space serves one scan at a time: one per thread.
        scratches = self._local.__dict__.setdefault("scratches", {})
        scratch = scratches.get(id(database))
        if scratch is None:
            scratch = scratches[id(database)] = _hyperscan.Scratch(database)
        return scratch

    def places(self, text: str, single_byte: bytes | None) -> list[int] | None:
        """The character positions, in order, where the marks' pattern may match in
        *text*: every position it matches at is among them. *single_byte* is the text's
        windows-1252 form (one byte per character), or None when it has none. None when
        this scanner cannot read the text (a lone surrogate)."""
        if single_byte is not None:
            raw, (database, offsets) = single_byte, self._single_byte
        else:
            try:
                raw = text.encode("utf-8")
            except UnicodeEncodeError:
                return None
            database, offsets = self._utf8
        ends: list[tuple[int, int]] = []
        append = ends.append

        def found(ident: int, _start: int, end: int, _flags: int, _context: object) -> None:
            append((end, offsets[ident]))

        database.scan(raw, match_event_handler=found, scratch=self._scratch(database))
        if not ends:
            return []
        if single_byte is not None:
            return sorted({end + offset for end, offset in ends})
        ends.sort()
        positions = set()
        byte = character = 0
        for end, offset in ends:
            if end != byte:
                # The characters between: the bytes less their continuation bytes.
                step = raw[byte:end]
                character += len(step) - len(step.translate(None, _NOT_CONTINUATION))
                byte = end
            positions.add(character + offset)
        return sorted(positions)


def scanner(
    utf8: Sequence[Expression],
    single_byte: Sequence[Expression],
    encode: Callable[[str], bytes | None],
) -> Scanner | None:
    """A :class:`Scanner` of these expressions, or None on the pure path (or when Hyperscan
    cannot compile them: logged once)."""
    if _hyperscan is None:
        logger.debug("mojibake pre-filter: the Python path")
        return None
    try:
        built = Scanner(utf8, single_byte, encode)
    except Exception:
        global SCANNER
        SCANNER = "python"
        logger.warning("mojibake pre-filter: Hyperscan failed, the Python path", exc_info=True)
        return None
    logger.debug("mojibake pre-filter: Hyperscan %s", getattr(_hyperscan, "__version__", "?"))
    return built
