"""The URL's top-level domain as a prior for detection.

The HTML Standard's autodetection step allows "the domain in the document's address" as
information about the likely encoding. Firefox's detector (chardetng) takes the TLD as a
hint: a ``.jp`` page is far more likely Shift_JIS or EUC-JP than Big5. :data:`TLD_PRIORS`
gives, per country-code TLD, the legacy encodings that were the local defaults, most likely
first. Generic TLDs (``.com``, ``.org``...) give no prior.

How a detector uses the prior is in :mod:`scrapy_charset.sniffing.detect`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["TLD_PRIORS", "prior", "tld_of"]

# Each country's legacy encodings: the Windows code page first, then the ISO and Mac code
# pages that wrote the same languages there.
_WESTERN = ("windows-1252", "ISO-8859-15", "macintosh")
_NORDIC = (*_WESTERN, "ISO-8859-10")  # Icelandic, Faroese
_GREENLAND = (*_WESTERN, "ISO-8859-4", "ISO-8859-10")  # Greenlandic (kra)
_CELTIC = (*_WESTERN, "ISO-8859-14")  # Welsh, Irish
_CENTRAL = ("windows-1250", "ISO-8859-2", "ISO-8859-16")
_CZECH_SLOVAK = ("windows-1250", "ISO-8859-2")
_POLISH = (*_CENTRAL, "ISO-8859-13")
_CYRILLIC = ("windows-1251", "KOI8-R", "KOI8-U", "IBM866", "ISO-8859-5", "x-mac-cyrillic")
_UKRAINIAN = ("windows-1251", "KOI8-U", "KOI8-R", "IBM866", "ISO-8859-5", "x-mac-cyrillic")
_GREEK = ("windows-1253", "ISO-8859-7")
_TURKISH = ("windows-1254", "ISO-8859-3")
_HEBREW = ("windows-1255", "ISO-8859-8", "ISO-8859-8-I")
_ARABIC = ("windows-1256", "ISO-8859-6")
_BALTIC = ("windows-1257", "ISO-8859-13", "ISO-8859-4", "ISO-8859-10")
_ESTONIAN = ("windows-1257", "ISO-8859-15", "ISO-8859-13", "ISO-8859-4")
_THAI = ("windows-874",)
_VIETNAMESE = ("windows-1258",)
_JAPANESE = ("Shift_JIS", "EUC-JP", "ISO-2022-JP")
_KOREAN = ("EUC-KR",)
_SIMPLIFIED = ("GBK", "gb18030")
_TRADITIONAL = ("Big5",)


def _table(groups: dict[tuple[str, ...], str]) -> dict[str, tuple[str, ...]]:
    return {tld: encodings for encodings, tlds in groups.items() for tld in tlds.split()}


#: Country-code TLD (punycode for internationalised ones) -> likely legacy encodings.
TLD_PRIORS: dict[str, tuple[str, ...]] = _table(
    {
        _WESTERN: "ad al ar at au be bo br ca ch cl co cr cu de dk do ec es fi fr gt hn it "
        "li lu mc mx ni nl no nz pa pe pr pt py se sv us uy ve za",
        _NORDIC: "fo is",
        _GREENLAND: "gl",
        _CELTIC: "gb ie uk",
        _CENTRAL: "ba hr hu ro si",
        _CZECH_SLOVAK: "cz sk",
        _POLISH: "pl",
        _CYRILLIC: "bg by kg kz mk mn rs ru su tj xn--90ais xn--90a3ac xn--d1alf xn--p1ai",
        _UKRAINIAN: "ua xn--j1amh",
        _GREEK: "cy gr",
        _TURKISH: "az tr",
        _HEBREW: "il",
        _ARABIC: "ae bh dz eg iq ir jo kw lb ly ma om ps qa sa sd sy tn ye",
        _BALTIC: "lt lv",
        _ESTONIAN: "ee",
        _THAI: "th",
        _VIETNAMESE: "vn",
        _JAPANESE: "jp",
        _KOREAN: "kr",
        _SIMPLIFIED: "cn xn--fiqs8s xn--fiqz9s",
        _TRADITIONAL: "hk mo tw xn--j6w193g xn--kprw13d xn--kpry57d",
    }
)


def tld_of(url: str | None) -> str | None:
    """The last label of the URL's host, lowercase ASCII (punycode), or None for a URL
    without a dotted host name (an IP address, ``localhost``, a ``file:`` URL...)."""
    if not url:
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    if not host or "." not in host or ":" in host:
        return None
    label = host.rstrip(".").rsplit(".", 1)[-1]
    if not label.isascii():
        try:
            label = label.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    label = label.lower()
    if not label or label.isdigit() or not all(c.isalnum() or c == "-" for c in label):
        return None
    return label


def prior(tld: str | None) -> tuple[str, ...]:
    """The likely legacy encodings for *tld*, most likely first (empty for no prior)."""
    return TLD_PRIORS.get(tld, ()) if tld else ()
