"""Mojibake: the kinds, how each is recognised, how it is repaired, and how a repair is
verified.

Mojibake is text whose bytes were decoded with the wrong encoding. The item checks
(:mod:`scrapy_charset.items._engine`) put these modules together:

- :mod:`.chardata`: the kinds (:class:`MojibakeKind`) and the character tables they are
  made of (the Encoding Standard's single-byte indexes);
- :mod:`.badness`: detection: a pre-filter that proves most text clean in one regular
  expression search, and the evidence rule that says which reading shows damage;
- :mod:`.plan`: the repair: ftfy's own plan (``fix_encoding_and_explain``), a layer at
  a time, made only of steps on an allowlist;
- :mod:`.fallback`: the readings ftfy has no plan for (UTF-8 read as windows-1251 token
  by token, Shift_JIS, x-mac-cyrillic, cp437...), a row each;
- :mod:`.legacy`: legacy CJK and Cyrillic bytes read as windows-1252;
- :mod:`.verify`: the one verifier every repair must pass, whatever found it:
  nothing that is not text, ftfy's badness that must not rise, CLDR plausibility
  (:mod:`.plausible`), and competing readings (:mod:`.siblings`).

Repairs of UTF-8 read as a single-byte encoding, and of double-encoded UTF-8, are exact
inverses: they are applied by default, as are C1 controls that are all punctuation in
windows-1252. The others guess an encoding and are applied only on request
(``legacy=True``).
"""

from __future__ import annotations

from scrapy_charset.items.mojibake.chardata import (
    KINDS,
    LEGACY_KINDS,
    SAFE_KINDS,
    MojibakeKind,
)

__all__ = ["KINDS", "LEGACY_KINDS", "SAFE_KINDS", "MojibakeKind"]
