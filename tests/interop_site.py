"""A small multilingual site and one spider of each built-in Scrapy kind, for the interop
crawl (tests/test_interop.py).

Every document is written in one of the interop encodings with real translated text
(pycountry's catalogues): XML feeds (declared in the XML declaration, or only in the
header), CSV, sitemaps (plain, gzipped, an index, found through robots.txt), HTML pages
with a form and links, and JSON. Two more documents hold what a browser reads otherwise
than Python's standard codec (a GBK euro sign, a cut Shift_JIS character), so their
responses keep a ``whatwg-*`` codec.

``python -c`` runs :func:`crawl_all` in a fresh process (a reactor runs once per process);
the spiders record what each Scrapy feature gives, lxml's reading of
``response.encoding`` included.
"""

from __future__ import annotations

import gzip
import html
import io
import json
import sys
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, quote_plus

from tests.corpus import encodable
from tests.server import Page

#: slug -> (WHATWG name, label written in the documents, Python codec to write them,
#: locales of the text).
ENCODINGS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "utf8": ("UTF-8", "utf-8", "utf-8", ("ru", "ja", "zh_CN", "fr")),
    "cp1251": ("windows-1251", "windows-1251", "cp1251", ("ru",)),
    "sjis": ("Shift_JIS", "shift_jis", "cp932", ("ja",)),
    "gbk": ("GBK", "gbk", "gbk", ("zh_CN",)),
}

#: Documents whose bytes a browser reads otherwise than the standard codec does:
#: slug -> (WHATWG name, label, the bytes that make the difference, after which message).
DIFFERING: dict[str, tuple[str, str, bytes]] = {
    # Encoding Standard, gb18030 decoder: byte 0x80 is U+20AC (the euro sign Windows'
    # GBK writes); Python's gb18030 and libxml2's iconv reject it.
    "gbk-euro": ("GBK", "gbk", b" 100\x80"),
    # Shift_JIS decoder: a lead byte followed by an ASCII byte is one error and the ASCII
    # byte is read again; libxml2 stops at the invalid sequence.
    "sjis-cut": ("Shift_JIS", "shift_jis", b"\x82"),
}

ROWS = 4
_SPECIAL = set("<>&\"',;()!*+=?#%/\n")


def messages(slug: str) -> list[str]:
    """ROWS real messages for a document of *slug*, free of the characters markup, CSV
    and URL queries write otherwise (so the expected URLs are one ``quote`` away)."""
    name, _, _, locales = ENCODINGS[slug] if slug in ENCODINGS else _differing(slug)
    found: list[str] = []
    for index in range(ROWS):
        locale = locales[index % len(locales)]
        texts = [t for t, _ in encodable(locale, name) if not set(t) & _SPECIAL]
        found.append(texts[(index * 97 + 300) % len(texts)])
    return found


def _differing(slug: str) -> tuple[str, str, str, tuple[str, ...]]:
    name, label, _ = DIFFERING[slug]
    base = next(s for s, v in ENCODINGS.items() if v[0] == name)
    return name, label, ENCODINGS[base][2], ENCODINGS[base][3]


def _codec(slug: str) -> str:
    return ENCODINGS[slug][2] if slug in ENCODINGS else _differing(slug)[2]


def _encode(slug: str, text: str) -> bytes:
    """*text* in the document's encoding; ``@`` marks where the differing bytes go."""
    data = text.encode(_codec(slug))
    if slug in DIFFERING:
        data = data.replace(b"@", DIFFERING[slug][2])
    return data


def browser_names(slug: str) -> list[str]:
    """The messages as a browser reads the feed's names (the differing bytes included)."""
    from scrapy_charset import decode

    name = (ENCODINGS.get(slug) or _differing(slug))[0]
    return [decode(_encode(slug, _marked(slug, i, m)), name) for i, m in enumerate(messages(slug))]


def _marked(slug: str, index: int, message: str) -> str:
    return message + "@" if slug in DIFFERING and index == 1 else message


#: The encodings whose feeds and sitemaps are also served with no declaration anywhere
#: (the scraping side's addition: detected as HTML is).
UNDECLARED = ("cp1251", "sjis", "gbk")


def _feed(slug: str, declared: bool, *, header: bool = True) -> Page:
    label = (ENCODINGS.get(slug) or _differing(slug))[1]
    entries = "".join(
        f"<entry><code>{slug}-{i}</code><name>{html.escape(_marked(slug, i, m))}</name></entry>"
        for i, m in enumerate(messages(slug))
    )
    head = f'<?xml version="1.0" encoding="{label}"?>\n' if declared else ""
    content_type = (
        "application/xml" if declared or not header else f"application/xml; charset={label}"
    )
    return Page(
        _encode(slug, f"{head}<catalog>{entries}</catalog>"), {"Content-Type": content_type}
    )


def _csv(slug: str) -> Page:
    label = ENCODINGS[slug][1]
    rows = "".join(f"{slug}-{i},{m}\n" for i, m in enumerate(messages(slug)))
    return Page(_encode(slug, rows), {"Content-Type": f"text/csv; charset={label}"})


#: A UTF-8 page whose <meta> says UTF-16, a common authoring slip: the HTML Standard reads
#: a declared UTF-16 as UTF-8 (browsers show the page right), plain Scrapy decodes UTF-16.
SLIP = "/utf8/slip.html"


def _page(slug: str, index: int, label: str | None = None) -> Page:
    label = label or ENCODINGS[slug][1]
    title, heading, value, link = (messages(slug) * 2)[index : index + 4]
    body = (
        f'<!DOCTYPE html><html><head><meta charset="{label}"><title>{title}</title></head>'
        f"<body><h1>{heading}</h1>"
        f'<form action="/search" method="get"><input name="country" value="{value}">'
        f'<input type="submit" name="go" value="OK"></form>'
        f'<p><a href="/{slug}/p{index}.html?q={link}">{link}</a></p></body></html>'
    )
    return Page(_encode(slug, body), {"Content-Type": "text/html"})


def _undeclared_urlset(base: str, slug: str) -> bytes:
    """A sitemap with no declaration anywhere: its <loc> is ASCII, its image title the
    site's language in the sitemap's encoding."""
    title = html.escape(messages(slug)[2])
    return _encode(
        slug,
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
        f"<url><loc>{base}/{slug}/p2.html</loc><image:image><image:loc>{base}/i.png"
        f"</image:loc><image:title>{title}</image:title></image:image></url></urlset>",
    )


def _urlset(base: str, slug: str, pages: list[int]) -> bytes:
    label = ENCODINGS[slug][1]
    # The <loc> are IRIs with the page's text: the sitemap's own encoding carries them.
    locs = "".join(
        f"<url><loc>{base}/{slug}/p{i}.html?t={html.escape(messages(slug)[i])}</loc></url>"
        for i in pages
    )
    if slug == "utf8" and 0 in pages:
        locs += f"<url><loc>{base}{SLIP}</loc></url>"
    return _encode(
        slug,
        f'<?xml version="1.0" encoding="{label}"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>',
    )


def routes(base: str) -> dict[str, Page]:
    """The site, its absolute URLs under *base*."""
    out: dict[str, Page] = {}
    index = []
    for slug in ENCODINGS:
        out[f"/{slug}/feed.xml"] = _feed(slug, declared=True)
        out[f"/{slug}/feed-header.xml"] = _feed(slug, declared=False)
        out[f"/{slug}/data.csv"] = _csv(slug)
        for i in range(2):
            out[f"/{slug}/p{i}.html"] = _page(slug, i)
        out[f"/{slug}/sitemap.xml"] = Page(
            _urlset(base, slug, [0]), {"Content-Type": "application/xml"}
        )
        out[f"/{slug}/sitemap.xml.gz"] = Page(
            gzip.compress(_urlset(base, slug, [1])), {"Content-Type": "application/x-gzip"}
        )
        index += [f"{base}/{slug}/sitemap.xml", f"{base}/{slug}/sitemap.xml.gz"]
        if slug in UNDECLARED:
            out[f"/{slug}/feed-undeclared.xml"] = _feed(slug, declared=False, header=False)
            out[f"/{slug}/p2.html"] = _page(slug, 2)
            out[f"/{slug}/sitemap-undeclared.xml"] = Page(
                _undeclared_urlset(base, slug), {"Content-Type": "application/xml"}
            )
            index.append(f"{base}/{slug}/sitemap-undeclared.xml")
        data = {"names": messages(slug)}
        out[f"/{slug}/data.json"] = Page(
            json.dumps(data, ensure_ascii=False).encode(), {"Content-Type": "application/json"}
        )
    out[SLIP] = _page("utf8", 0, label="utf-16")
    for slug in DIFFERING:
        out[f"/{slug}/feed.xml"] = _feed(slug, declared=True)
    half = len(index) // 2
    out["/sitemap_index.xml"] = Page(
        (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            + "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in index[:half])
            + "</sitemapindex>"
        ).encode(),
        {"Content-Type": "application/xml"},
    )
    robots = "User-agent: *\nDisallow:\n\nSitemap: /sitemap_index.xml\n" + "".join(
        f"Sitemap: {loc}\n" for loc in index[half:]
    )
    out["/robots.txt"] = Page(robots.encode(), {"Content-Type": "text/plain"})
    return out


def feeds() -> list[str]:
    return (
        [f"/{s}/feed.xml" for s in [*ENCODINGS, *DIFFERING]]
        + [f"/{s}/feed-header.xml" for s in ENCODINGS]
        + [f"/{s}/feed-undeclared.xml" for s in UNDECLARED]
    )


@dataclass(frozen=True)
class Expected:
    """What a spider of each kind should yield for one document, as a browser reads it."""

    spider: str
    doc: str
    item: dict[str, Any]


def expected(base: str) -> list[Expected]:
    """Every item the crawl should yield (paths relative to the site)."""
    out: list[Expected] = []
    for doc in feeds():
        slug = doc.split("/")[1]
        names = browser_names(slug)
        for spider in ("feed-iternodes", "feed-xml", "feed-html"):
            for i, name in enumerate(names):
                out.append(Expected(spider, doc, {"code": f"{slug}-{i}", "name": name}))
        out.append(Expected("lxml-iterparse", doc, {"names": names}))
    for slug in ENCODINGS:
        doc = f"/{slug}/data.csv"
        for i, m in enumerate(messages(slug)):
            out.append(Expected("csv", doc, {"code": f"{slug}-{i}", "name": m}))
        out.append(Expected("json", f"/{slug}/data.json", {"names": messages(slug)}))
        codec = _codec(slug)
        pages = [(f"/{slug}/p{i}.html", i) for i in range(3 if slug in UNDECLARED else 2)]
        if slug == "utf8":
            pages.append((SLIP, 0))
        for doc, i in pages:
            title, heading, value, link = (messages(slug) * 2)[i : i + 4]
            query = quote(link.encode(codec))
            out.append(
                Expected(
                    "sitemap",
                    doc,
                    {
                        "title": title,
                        "h1": heading,
                        "lxml_title": title,
                        "loader_title": [title],
                        # HTML Standard: a form submits in the document's encoding.
                        "form": f"/search?country={quote_plus(value.encode(codec))}&go=OK",
                        "follow": f"/{slug}/p{i}.html?q={query}",
                        "links": [[f"/{slug}/p{i}.html?q={query}", link]],
                    },
                )
            )
    return out


# --- the spiders ----------------------------------------------------------------------


def _spiders() -> list[type[Any]]:
    import lxml.etree
    import lxml.html
    import scrapy
    from scrapy.linkextractors import LinkExtractor
    from scrapy.loader import ItemLoader
    from scrapy.spiders import CSVFeedSpider, SitemapSpider, XMLFeedSpider

    def rel(url: str, base: str) -> str:
        return url[len(base) :] if url.startswith(base) else url

    def feed(iterator: str) -> type[Any]:
        class Feed(XMLFeedSpider):
            name = f"feed-{iterator}"
            itertag = "entry"

            def __init__(self, base: str, **kwargs: Any) -> None:
                super().__init__(**kwargs)
                self.base = base
                self.start_urls = [base + doc for doc in feeds()]

            def parse_node(self, response: Any, node: Any) -> Any:
                return {
                    "doc": rel(response.url, self.base),
                    "code": node.xpath("code/text()").get(),
                    "name": node.xpath("name/text()").get(),
                }

        Feed.iterator = iterator
        Feed.__name__ = Feed.__qualname__ = f"Feed{iterator.title()}"
        return Feed

    class Csv(CSVFeedSpider):
        name = "csv"
        headers = ("code", "name")  # type: ignore[assignment]
        delimiter = ","

        def __init__(self, base: str, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.base = base
            self.start_urls = [f"{base}/{s}/data.csv" for s in ENCODINGS]

        def parse_row(self, response: Any, row: dict[str, str]) -> Any:
            return {"doc": rel(response.url, self.base), **row}

    class Sitemap(SitemapSpider):
        name = "sitemap"

        def __init__(self, base: str, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.base = base
            self.sitemap_urls = [base + "/robots.txt"]

        def parse(self, response: Any, **kwargs: Any) -> Any:
            root = lxml.html.fromstring(
                response.body, parser=lxml.html.HTMLParser(encoding=response.encoding)
            )
            loader = ItemLoader(item={}, response=response)
            loader.add_css("loader_title", "title::text")
            form = scrapy.FormRequest.from_response(response, formxpath="//form")
            yield {
                "doc": rel(response.url.split("?")[0], self.base),
                "title": response.css("title::text").get(),
                "h1": response.xpath("//h1/text()").get(),
                "lxml_title": root.findtext(".//title"),
                **loader.load_item(),
                "form": rel(form.url, self.base),
                "follow": rel(response.follow(response.css("a")[0]).url, self.base),
                "links": [
                    [rel(link.url, self.base), link.text]
                    for link in LinkExtractor().extract_links(response)
                ],
            }

    class Iterparse(scrapy.Spider):
        name = "lxml-iterparse"

        def __init__(self, base: str, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.base = base
            self.start_urls = [base + doc for doc in feeds()]

        def parse(self, response: Any, **kwargs: Any) -> Any:
            try:
                names = [
                    element.text
                    for _, element in lxml.etree.iterparse(
                        io.BytesIO(response.body), encoding=response.encoding, tag="name"
                    )
                ]
            except (LookupError, lxml.etree.XMLSyntaxError) as exc:
                names = [type(exc).__name__]
            yield {"doc": rel(response.url, self.base), "names": names}

    class Json(scrapy.Spider):
        name = "json"

        def __init__(self, base: str, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.base = base
            self.start_urls = [f"{base}/{s}/data.json" for s in ENCODINGS]

        def parse(self, response: Any, **kwargs: Any) -> Any:
            yield {"doc": rel(response.url, self.base), **response.json()}

    return [feed("iternodes"), feed("xml"), feed("html"), Csv, Sitemap, Iterparse, Json]


def crawl_all(base: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Run every spider against *base*; their items and the spider errors they hit."""
    import scrapy
    from scrapy.crawler import CrawlerProcess

    process = CrawlerProcess({"LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False, **settings})
    items: list[dict[str, Any]] = []
    errors: list[str] = []
    for spider in SPIDERS:
        crawler = process.create_crawler(spider)

        def collect(item: Any, spider: Any) -> None:
            items.append({"spider": spider.name, **dict(item)})

        def failed(failure: Any, response: Any, spider: Any) -> None:
            errors.append(f"{spider.name} {response.url[len(base) :]} {failure.type.__name__}")

        crawler.signals.connect(collect, signal=scrapy.signals.item_scraped, weak=False)
        crawler.signals.connect(failed, signal=scrapy.signals.spider_error, weak=False)
        process.crawl(crawler, base=base)
    process.start()
    return {"items": items, "errors": errors}


#: The spiders, also at module level so that ``SPIDER_MODULES`` finds them (``scrapy parse``).
SPIDERS = _spiders()
globals().update({cls.__name__: cls for cls in SPIDERS})

if __name__ == "__main__":
    result = crawl_all(sys.argv[1], json.loads(sys.argv[2]))
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        json.dump(result, out, ensure_ascii=False)
