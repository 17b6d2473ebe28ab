"""Encoding Standard, section 6 "Hooks for standards": BOM sniff.

It lives in the Encoding Standard layer because "decode" uses it; the HTML Standard's
"determining the character encoding" calls it as its first step.

https://encoding.spec.whatwg.org/#bom-sniff
"""

from __future__ import annotations

__all__ = ["bom_sniff"]

_BOMS = (
    (b"\xef\xbb\xbf", "UTF-8"),
    (b"\xfe\xff", "UTF-16BE"),
    (b"\xff\xfe", "UTF-16LE"),
)


def bom_sniff(body: bytes) -> tuple[str, int] | None:
    """Return ``(encoding, BOM length)`` for a UTF-8, UTF-16BE or UTF-16LE BOM, else None.

    Only these three are byte order marks for the web: ``FF FE 00 00`` is the UTF-16LE BOM
    followed by a NUL code unit, not a UTF-32 BOM.
    """
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return encoding, len(bom)
    return None
