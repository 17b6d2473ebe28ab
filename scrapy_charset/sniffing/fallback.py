"""HTML Standard 13.2.3.2, the last step of "determining the character encoding".

"Otherwise, return an implementation-defined or user-specified default character encoding,
with the confidence tentative." The standard recommends windows-1252 for most locales; it is
what the html5lib encoding tests expect.
"""

from __future__ import annotations

__all__ = ["DEFAULT_ENCODING"]

DEFAULT_ENCODING = "windows-1252"
