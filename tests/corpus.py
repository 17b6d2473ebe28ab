"""A development corpus for detection: real translated text, undeclared legacy HTML pages.

The text comes from the translation catalogues ``pycountry`` ships (language, country,
currency and script names translated by people into each language), so every page carries
real words, in the real letter frequencies of its language. Each text is encoded into every
legacy encoding of the Encoding Standard that can represent it, and wrapped as a realistic
page that declares nothing: a ``<head>`` with a title, a script, a style and links, then the
body text with markup and URLs. Lengths go from 300 bytes to 100 KB of text.

A page is scored by the exact text a browser would show (:attr:`Page.text`), not by the
encoding's name: ``windows-1252`` and ``ISO-8859-15`` give the same text for most French,
and ``GBK`` bytes give the same text under ``gb18030``.

Used by the tests (:func:`small_table`) and by ``benchmarks/detection.py`` (:func:`pages`).
"""

from __future__ import annotations

import gettext
import random
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from scrapy_charset.whatwg.codecs import decode

__all__ = [
    "COMMON",
    "HELD_OUT",
    "LANGUAGES",
    "LENGTHS",
    "Page",
    "have_catalogues",
    "messages",
    "page",
    "pages",
    "small_table",
]

#: Legacy encodings and the languages (pycountry locale, country-code TLD) written in them.
#: A TLD of None means the language has no country of its own (the page is on ``.org``).
LANGUAGES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "windows-1252": (("fr", "fr"), ("de", "de"), ("es", "es"), ("it", "it"), ("nl", "nl"),
                     ("pt_BR", "br"), ("da", "dk"), ("sv", "se")),
    "ISO-8859-15": (("fr", "fr"), ("fi", "fi"), ("et", "ee")),
    "macintosh": (("fr", "fr"), ("de", "de")),
    "ISO-8859-2": (("cs", "cz"), ("pl", "pl"), ("hu", "hu"), ("sk", "sk"), ("sl", "si"),
                   ("hr", "hr")),
    "windows-1250": (("cs", "cz"), ("pl", "pl"), ("hu", "hu"), ("sk", "sk"), ("sl", "si"),
                     ("hr", "hr")),
    "ISO-8859-3": (("mt", "mt"), ("eo", None)),
    "ISO-8859-4": (("lv", "lv"), ("lt", "lt")),
    "ISO-8859-10": (("is", "is"),),
    "ISO-8859-13": (("lt", "lt"), ("lv", "lv")),
    "ISO-8859-14": (("cy", "uk"), ("ga", "ie")),
    "ISO-8859-16": (("ro", "ro"),),
    "windows-1251": (("ru", "ru"), ("uk", "ua"), ("bg", "bg"), ("be", "by"), ("sr", "rs"),
                     ("mk", "mk")),
    "KOI8-R": (("ru", "ru"), ("bg", "bg")),
    "KOI8-U": (("uk", "ua"), ("ru", "ru")),
    "IBM866": (("ru", "ru"),),
    "ISO-8859-5": (("ru", "ru"), ("bg", "bg"), ("sr", "rs")),
    "x-mac-cyrillic": (("ru", "ru"), ("uk", "ua")),
    "windows-1253": (("el", "gr"),),
    "ISO-8859-7": (("el", "gr"),),
    "windows-1254": (("tr", "tr"),),
    "windows-1255": (("he", "il"),),
    "ISO-8859-8": (("he", "il"),),
    "ISO-8859-8-I": (("he", "il"),),
    "windows-1256": (("ar", "eg"), ("fa", "ir")),
    "ISO-8859-6": (("ar", "eg"),),
    "windows-1257": (("lt", "lt"), ("lv", "lv"), ("et", "ee")),
    "windows-1258": (("vi", "vn"),),
    "windows-874": (("th", "th"),),
    "Shift_JIS": (("ja", "jp"),),
    "EUC-JP": (("ja", "jp"),),
    "ISO-2022-JP": (("ja", "jp"),),
    "EUC-KR": (("ko", "kr"),),
    "GBK": (("zh_CN", "cn"),),
    "gb18030": (("zh_CN", "cn"),),
    "Big5": (("zh_TW", "tw"), ("zh_HK", "hk")),
}  # fmt: skip

#: Languages kept out of development: detection was never tuned on them. The benchmark
#: reports these pages (with seeds the development pages do not use) separately, as the
#: held-out figures.
HELD_OUT: dict[str, tuple[tuple[str, str | None], ...]] = {
    "windows-1252": (("ca", None), ("eu", None), ("gl", None), ("af", "za"), ("id", "id"),
                     ("nb_NO", "no"), ("pt", "pt"), ("is", "is")),
    "ISO-8859-15": (("pt", "pt"), ("nb_NO", "no"), ("ca", None)),
    "macintosh": (("es", "es"), ("it", "it")),
    "ISO-8859-2": (("sq", "al"), ("bs", "ba"), ("ro", "ro"), ("csb", None)),
    "windows-1250": (("sq", "al"), ("bs", "ba"), ("ro", "ro"), ("csb", None)),
    "ISO-8859-3": (("tr", "tr"),),
    "ISO-8859-4": (("kl", "gl"), ("et", "ee")),
    "ISO-8859-10": (("fo", "fo"),),
    "ISO-8859-13": (("pl", "pl"), ("et", "ee")),
    "ISO-8859-14": (("br", None), ("gv", None), ("kw", None)),
    "ISO-8859-16": (("sq", "al"), ("hu", "hu")),
    "windows-1251": (("kk", "kz"), ("ky", "kg"), ("tt", None), ("ba", None), ("mn", "mn")),
    "KOI8-R": (("uk", "ua"), ("be", "by")),
    "KOI8-U": (("bg", "bg"),),
    "ISO-8859-5": (("mk", "mk"), ("uk", "ua")),
    "x-mac-cyrillic": (("bg", "bg"), ("be", "by")),
    "windows-1254": (("az", "az"), ("crh", None)),
    "windows-1257": (("fi", "fi"), ("pl", "pl")),
}  # fmt: skip

#: The common web encodings the accuracy targets name.
COMMON = (
    "windows-1252",
    "windows-1251",
    "windows-1250",
    "ISO-8859-2",
    "KOI8-R",
    "Shift_JIS",
    "EUC-JP",
    "EUC-KR",
    "GBK",
    "gb18030",
    "Big5",
)

#: Bytes of encoded body text per page.
LENGTHS = (300, 1_000, 10_000, 100_000)

# Python codecs used only to *encode* the corpus; every encoded message is checked to
# decode back to itself with the package's WHATWG decoder, so a codec difference can
# only drop a message, never put a wrong one into the corpus.
_ENCODERS = {
    "macintosh": "mac-roman",
    "x-mac-cyrillic": "mac-cyrillic",
    "IBM866": "cp866",
    "ISO-8859-8-I": "iso8859-8",
    "windows-874": "cp874",
    "Shift_JIS": "cp932",
    "EUC-JP": "euc-jp",
    "ISO-2022-JP": "iso2022-jp",
    "EUC-KR": "euc-kr",
    "GBK": "gbk",
    "gb18030": "gb18030",
    "Big5": "big5",
}

_DOMAINS = ("iso639-3", "iso3166-1", "iso3166-2", "iso4217", "iso15924", "iso3166-3")


def _locales_dir() -> Path | None:
    try:
        import pycountry
    except ImportError:  # pragma: no cover - pycountry is in the test extra
        return None
    path = Path(pycountry.LOCALES_DIR)
    return path if path.is_dir() else None


def have_catalogues() -> bool:
    """True when pycountry's translation catalogues are installed."""
    return _locales_dir() is not None


@cache
def messages(locale: str) -> tuple[str, ...]:
    """The translated messages of *locale* (those that differ from the English)."""
    root = _locales_dir()
    if root is None:
        return ()
    out: list[str] = []
    for domain in _DOMAINS:
        path = root / locale / "LC_MESSAGES" / f"{domain}.mo"
        if not path.is_file():
            continue
        with path.open("rb") as file:
            catalog: dict[str, str] = gettext.GNUTranslations(file)._catalog  # type: ignore[attr-defined]
        out.extend(
            v.strip() for k, v in sorted(catalog.items()) if k and v and v != k and "\n" not in v
        )
    return tuple(out)


def _encoder(encoding: str) -> str:
    return _ENCODERS.get(encoding, encoding.lower())


def _for_1258(text: str) -> str:
    """Vietnamese as windows-1258 writes it: precomposed letters where the code page has
    them (ơ, ư, â...), the tone marks as combining characters."""
    out: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        if out and unicodedata.combining(char):
            composed = unicodedata.normalize("NFC", out[-1] + char)
            if len(composed) == 1 and _encodes(composed, "windows-1258"):
                out[-1] = composed
                continue
        out.append(char)
    return "".join(out)


def _encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(_encoder(encoding))
    except UnicodeEncodeError:
        return False
    return True


@cache
def encodable(locale: str, encoding: str) -> tuple[tuple[str, bytes], ...]:
    """The messages of *locale* that *encoding* represents exactly, with their bytes."""
    out: list[tuple[str, bytes]] = []
    for message in messages(locale):
        text = _for_1258(message) if encoding == "windows-1258" else message
        try:
            data = text.encode(_encoder(encoding))
        except UnicodeEncodeError:
            continue
        if decode(data, encoding) == text:
            out.append((text, data))
    return tuple(out)


@dataclass(frozen=True)
class Page:
    """One undeclared page: its bytes, the text a browser shows, and two URLs."""

    encoding: str
    locale: str
    length: int
    body: bytes
    text: str
    url: str
    url_tld: str

    @property
    def id(self) -> str:
        return f"{self.encoding}-{self.locale}-{self.length}"


_HEAD = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<title>{title}</title>
<link rel="stylesheet" href="/static/site.css?v=20240117">
<link rel="canonical" href="https://{host}/{path}">
<style>
body {{ font-family: "Helvetica Neue", Arial, sans-serif; margin: 0 auto; max-width: 60em; }}
.nav a:hover, .nav a:focus {{ color: #0645ad; text-decoration: underline; }}
@media (max-width: 600px) {{ .sidebar {{ display: none; }} }}
</style>
<script>
window.dataLayer = window.dataLayer || [];
function gtag() {{ dataLayer.push(arguments); }}
gtag("js", new Date()); gtag("config", "G-X7Y2ZQ91KD", {{ anonymize_ip: true }});
document.addEventListener("DOMContentLoaded", function () {{
  var items = document.querySelectorAll(".menu > li");
  for (var i = 0; i < items.length; i++) {{ items[i].classList.add("ready"); }}
}});
</script>
</head>
<body>
<div class="nav"><a href="/">Home</a> | <a href="/about.html">About</a></div>
<h1>{title}</h1>
"""

_TAIL = """<div class="footer"><a href="https://{host}/privacy">Privacy</a></div>
</body>
</html>
"""


def page(encoding: str, locale: str, length: int, seed: int = 0, tld: str | None = None) -> Page:
    """An undeclared page in *encoding* with about *length* bytes of *locale* text."""
    pool = encodable(locale, encoding)
    if not pool:
        raise ValueError(f"no {locale} message is representable in {encoding}")
    rng = random.Random(f"{encoding}/{locale}/{length}/{seed}")
    order = list(range(len(pool)))
    rng.shuffle(order)
    lang = locale.partition("_")[0]
    host = f"www.example.{tld or 'org'}"
    title = pool[order[0]][0]
    parts: list[str] = []
    size = 0
    index = 1
    paragraph: list[str] = []
    while size < length:
        text, data = pool[order[index % len(order)]]
        index += 1
        paragraph.append(text)
        size += len(data) + 2
        if len(paragraph) >= rng.randint(4, 12) or size >= length:
            if rng.random() < 0.3:
                link = f'<a href="https://{host}/wiki/{index}?ref=nav&amp;id={index * 7}">'
                paragraph[0] = f"{link}{paragraph[0]}</a>"
            parts.append("<p>" + ", ".join(paragraph) + ".</p>\n")
            paragraph = []
    path = f"{lang}/page-{seed}.html"
    html = _HEAD.format(lang=lang, title=title, host=host, path=path)
    html += "".join(parts) + _TAIL.format(host=host)
    if encoding == "windows-1258":
        html = _for_1258(html)
    codec = _encoder(encoding)
    body = html.encode(codec)
    if encoding == "ISO-2022-JP":
        # Each line starts in ASCII, as ISO-2022-JP writers switch back before a newline.
        body = b"\n".join(line.encode(codec) for line in html.split("\n"))
    text = decode(body, encoding)
    assert text == html, (encoding, locale)
    return Page(
        encoding=encoding,
        locale=locale,
        length=length,
        body=body,
        text=text,
        url=f"https://www.example.com/{path}",
        url_tld=f"https://{host}/{path}",
    )


def pages(
    lengths: tuple[int, ...] = LENGTHS,
    samples: int = 3,
    encodings: tuple[str, ...] = (),
    *,
    held_out: bool = False,
) -> Iterator[Page]:
    """Every (encoding, language, length) of the corpus, *samples* pages each; with
    *held_out*, the :data:`HELD_OUT` languages instead, with seeds from 1000."""
    first = 1_000 if held_out else 0
    for encoding, languages in (HELD_OUT if held_out else LANGUAGES).items():
        if encodings and encoding not in encodings:
            continue
        for locale, tld in languages:
            if not encodable(locale, encoding):
                continue
            for length in lengths:
                for seed in range(first, first + samples):
                    yield page(encoding, locale, length, seed, tld)


def small_table() -> list[Page]:
    """One 2 KB page per common encoding, for the accuracy test in the normal suite (empty
    without the catalogues)."""
    if not have_catalogues():
        return []
    out = []
    for encoding in COMMON:
        locale, tld = LANGUAGES[encoding][0]
        out.append(page(encoding, locale, 2_000, 0, tld))
    return out
