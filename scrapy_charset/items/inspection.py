"""The inspection of one text value, behind :func:`.textcheck.inspect_text`: the
pre-filter, the kept reports, and the report built from what :mod:`._engine` found."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from scrapy_charset.items import _engine
from scrapy_charset.items._memo import LONGEST
from scrapy_charset.items.mojibake.badness import Marks, scan
from scrapy_charset.items.mojibake.chardata import MojibakeKind


@dataclass(frozen=True, slots=True)
class TextReport:
    """What :func:`.textcheck.inspect_text` found in one text.

    - ``replacement_chars``: how many U+FFFD REPLACEMENT CHARACTER the text holds;
    - ``mojibake``: the kind of mojibake found (see :mod:`scrapy_charset.items.mojibake`), or None;
    - ``repaired``: the repaired text when a repair was verified, allowed by the policy,
      and leaves no damage; else None;
    - ``lossy``: True when information is gone for good (U+FFFD in the text, or mojibake
      whose bytes were partly dropped), so no repair can give the original back;
    - ``encoding``: the encoding the text should have been decoded with, when known;
    - ``rule`` and ``evidence``: the rule of the evidence that found the mojibake (or the
      reading a repair used) and the characters it fired on;
    - ``fixer``: the repair's steps: ftfy's plan (``ftfy: encode latin-1, decode utf-8``),
      a row of the fallback table (``fallback: x-mac-cyrillic``), or a legacy reading
      (``legacy: Shift_JIS``);
    - ``remaining`` and ``remaining_segments``: the kind of the damage a repair would
      leave, and how many damaged parts: such a repair is not applied (``repaired`` is
      None and ``verdict`` is ``leaves-damage``), so damage is never hidden;
    - ``verdict``: why a repair found was not applied, when it was not: ``not-text``,
      ``badness-rises``, ``implausible``, ``ambiguous``, ``leaves-damage``,
      ``nothing-decoded``, or ``policy`` (a guessed encoding, applied with ``legacy=True``).
    """

    replacement_chars: int = 0
    mojibake: MojibakeKind | None = None
    repaired: str | None = None
    lossy: bool = False
    encoding: str | None = None
    remaining: MojibakeKind | None = None
    remaining_segments: int = 0
    rule: str | None = None
    evidence: str | None = None
    fixer: str | None = None
    verdict: str | None = None

    @property
    def clean(self) -> bool:
        """True when nothing was found."""
        return self.replacement_chars == 0 and self.mojibake is None

    @property
    def partial(self) -> bool:
        """True when a repair left damage in ``repaired`` (never, now: such a repair is
        reported, not applied)."""
        return self.repaired is not None and self.remaining is not None


CLEAN = TextReport()
POLICY = "policy"


def replacements_only(replacements: int) -> TextReport:
    """The report of a text with *replacements* U+FFFD and nothing else found."""
    return CLEAN if not replacements else TextReport(replacements, lossy=True)


def inspect_unguarded(value: str, *, legacy: bool = False) -> TextReport:
    """:func:`.textcheck.inspect_text` without its safety net: for tests and fuzzing,
    where an internal error must show."""
    if value.isascii():
        return CLEAN
    replacements = value.count("\ufffd") if "\ufffd" in value else 0  # "in" is memchr
    marks = scan(value)  # one pass over clean text: the pre-filter's
    if not replacements and marks.clean:
        return CLEAN
    if len(value) > KEPT_LENGTH:
        return _inspect_flagged(value, marks, replacements, legacy)
    return _kept(_Flagged(value, legacy, marks, replacements))


#: The reports of flagged values (a mark or a U+FFFD) kept, at most, the most recently
#: asked first, and the longest value kept: the same damaged name, category or breadcrumb
#: on every page of a crawl is inspected once. A report depends only on the value and the
#: policy; the pre-filter runs on every value, so clean text never looks here.
KEPT_REPORTS = 1024
KEPT_LENGTH = LONGEST


class _Flagged:
    """A flagged value as the key of its kept report: the value and the policy; the
    pre-filter's findings, which they determine, ride along outside the key."""

    __slots__ = ("legacy", "marks", "replacements", "value")

    def __init__(self, value: str, legacy: bool, marks: Marks, replacements: int) -> None:
        self.value = value
        self.legacy = legacy
        self.marks = marks
        self.replacements = replacements

    def __hash__(self) -> int:
        return hash((self.value, self.legacy))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Flagged)
            and self.value == other.value
            and self.legacy == other.legacy
        )


@functools.lru_cache(maxsize=KEPT_REPORTS)
def _kept(flagged: _Flagged) -> TextReport:
    return _inspect_flagged(flagged.value, flagged.marks, flagged.replacements, flagged.legacy)


def clear_kept_reports() -> None:
    """Forget the kept reports, and the readings of words kept with them: what a value's
    first inspection costs is measured after."""
    _kept.cache_clear()
    _engine.clear_kept_words()


def _inspect_flagged(value: str, marks: Marks, replacements: int, legacy: bool) -> TextReport:
    """The report of *value*, which the pre-filter flagged (*marks*, *replacements*)."""
    found = _engine.find(value, marks)
    if found is None:
        return replacements_only(replacements)
    allowed = _engine.allowed(found, value, legacy)
    verdict = found.verdict
    if found.repaired is not None and not allowed:
        verdict = POLICY
    return TextReport(
        replacement_chars=replacements,
        mojibake=found.kind,
        repaired=found.repaired if allowed else None,
        lossy=found.lossy or replacements > 0,
        encoding=found.encoding,
        remaining=found.remaining,
        remaining_segments=found.remaining_segments,
        rule=found.rule,
        evidence=found.evidence,
        fixer=found.fixer,
        verdict=verdict,
    )
