"""``scrapy charset audit --html FILE``: the page parsed with lxml and set against
``--json`` from the same run, on every source (WARC, WACZ, Scrapy's HTTP cache after a
real crawl of the demo site), serially and with ``--jobs 2``; hostile records that must
stay inert; empty, one-record and only-skipped archives; the page's bounds."""

from __future__ import annotations

import base64
import copy
import csv
import inspect
import json
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import scrapy.extensions.httpcache
from lxml import html as lxml_html

from scrapy_charset import audit_record
from scrapy_charset.audit import report
from scrapy_charset.audit.summary import (
    MAX_LISTED,
    MAX_SAMPLE_KINDS,
    SAMPLES_PER_KIND,
    Summary,
)
from tests.archives import (
    HOSTILE_ID,
    HOSTILE_TEXT,
    HOSTILE_URLS,
    Archive,
    write_demo,
    write_hostile,
    write_hostile_text,
)
from tests.crawl import run_crawl
from tests.example import run_scrapy, write_entry_point
from tests.spec import REPO

from example_project.demo_site import DemoSite, pages  # isort: skip

# --- the page as a document -----------------------------------------------------------------

_VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "area", "base", "source"}
#: SVG elements the charts write as empty elements.
_SVG_EMPTY = {"rect"}


class _Balance(HTMLParser):
    """Every element opened is closed, in order; what an escaping bug would break."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()


def parse(page: str) -> Any:
    """The page as an lxml tree, after checking that it is one balanced document."""
    assert page.startswith("<!DOCTYPE html>\n")
    checker = _Balance()
    checker.feed(page)
    checker.close()
    assert checker.errors == []
    assert checker.stack == []
    return lxml_html.document_fromstring(page)


def number(element: Any) -> int:
    return int(element.text_content().replace(",", ""))


def counts(element: Any) -> dict[str, int]:
    """``UTF-8 6, windows-1252 3`` (a no-break space before each count) as a dict."""
    content = element.text_content()
    if content == "-":
        return {}
    pairs = (item.rsplit("\xa0", 1) for item in content.split(", "))
    return {name: int(count.replace(",", "")) for name, count in pairs}


def figures(tree: Any) -> dict[str, Any]:
    """What the page says, in the shape of ``--json``'s figures."""
    headline = {
        element.get("data-figure"): number(element)
        for element in tree.xpath('//section[@id="headline"]//*[@data-figure]')
    }
    out: dict[str, Any] = {
        **{key: headline[key] for key in headline if key not in ("skipped", "left_alone")},
        "skipped": {
            row.get("data-reason"): number(row.xpath("td")[1])
            for row in tree.xpath('//table[@id="skipped"]/tbody/tr')
        },
        "left_alone": {
            row.get("data-reason"): number(row.xpath("td")[1])
            for row in tree.xpath('//table[@id="left-alone"]/tbody/tr')
        },
        "sources": {
            bar.get("data-label"): int(bar.get("data-count"))
            for bar in tree.xpath('//div[@id="chart-rules"]//*[@class="bar"]')
        },
        "changed_pairs": {
            bar.get("data-label"): int(bar.get("data-count"))
            for bar in tree.xpath('//div[@id="chart-pairs"]//*[@class="bar"]')
        },
        "kinds": {
            (kind.get("data-scrapy"), kind.get("data-encoding"), kind.get("data-fffd-only")): (
                number(kind.xpath('.//*[@data-figure="count"]')[0])
            )
            for kind in tree.xpath('//section[@id="samples"]/article[@class="kind"]')
        },
    }
    assert sum(out["skipped"].values()) == headline["skipped"]
    assert sum(out["left_alone"].values()) == headline["left_alone"]
    rows = []
    for row in tree.xpath('//table[@id="hosts"]/tbody/tr'):
        cells = {cell.get("data-figure"): cell for cell in row.xpath("td[@data-figure]")}
        rows.append(
            {
                "class": row.get("class"),
                "host": row.xpath("td")[0].text_content(),
                **{
                    key: number(cells[key])
                    for key in ("records", "differs", "differs_fffd_only", "conflicts")
                },
                "encodings": counts(cells["encodings"]),
                "sources": counts(cells["sources"]),
            }
        )
    out["hosts"] = rows
    kinds = tree.xpath('//table[@id="mojibake-kinds"]/tbody/tr')
    if kinds or tree.xpath('//*[@id="mojibake-kinds-none"]'):
        out["mojibake_kinds"] = {row.get("data-kind"): number(row.xpath("td")[1]) for row in kinds}
    return out


def expected(summary: dict[str, Any], hosts: int) -> dict[str, Any]:
    """What the page must say, worked out from ``--json``'s output."""
    keys = ["records", "decided", "differs", "differs_fffd_only", "differs_text", "replacement"]
    out: dict[str, Any] = {key: summary[key] for key in keys}
    if "mojibake" in summary:
        out["mojibake"] = summary["mojibake"]
        out["mojibake_kinds"] = summary["mojibake_kinds"]
    out["skipped"] = summary["skipped"]
    out["left_alone"] = summary["left_alone"]
    out["sources"] = summary["sources"]
    out["changed_pairs"] = {
        f"{row['scrapy'] or '?'} \u2192 {row['scrapy_charset']}": row["differs"]
        for row in summary["encoding_pairs"]
        if row["differs"]
    }
    kinds = {}
    for row in summary["encoding_pairs"]:
        for fffd_only, count in (
            ("false", row["differs"] - row["differs_fffd_only"]),
            ("true", row["differs_fffd_only"]),
        ):
            if count:
                kinds[row["scrapy"], row["scrapy_charset"], fffd_only] = count
    out["kinds"] = kinds
    rows = [
        {"class": "host", **row, "host": row["host"] or "(no host)"}
        for row in summary["hosts"][:hosts]
    ]
    if summary["decided"] > sum(row["records"] for row in rows):
        rest: dict[str, Any] = {"class": "other", "encodings": {}, "sources": {}}
        for key in ("records", "differs", "differs_fffd_only", "conflicts"):
            rest[key] = sum(row[key] for row in summary["hosts"][hosts:])
        for key in ("encodings", "sources"):
            for row in summary["hosts"][hosts:]:
                for name, count in row[key].items():
                    rest[key][name] = rest[key].get(name, 0) + count
            rest[key] = dict(sorted(rest[key].items(), key=lambda kv: (-kv[1], kv[0])))
        rows.append(rest)
    out["hosts"] = rows
    return out


def comparable(found: dict[str, Any]) -> dict[str, Any]:
    """The page's figures without the other row's label (its host count is checked apart)."""
    found = copy.deepcopy(found)
    for row in found["hosts"]:
        if row["class"] == "other":
            row.pop("host")
    return found


# --- the runs -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def entry_point(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_entry_point(tmp_path_factory.mktemp("entry-point"))


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("archives")
    with open(folder / "demo.warc.gz", "wb") as stream:
        write_demo(stream)
    with open(folder / "hostile.warc.gz", "wb") as stream:
        write_hostile(stream, large=2 << 20)
    with open(folder / "hostile-text.warc.gz", "wb") as stream:
        write_hostile_text(stream)
    with zipfile.ZipFile(folder / "demo.wacz", "w") as wacz:
        wacz.write(folder / "demo.warc.gz", "archive/data.warc.gz")
        wacz.writestr("datapackage.json", "{}")
    # No response at all: one request record.
    with open(folder / "empty.warc.gz", "wb") as stream:
        Archive(stream).raw(
            "http://example.com/",
            b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
            "request",
            "application/http; msgtype=request",
        )
    page = next(p for p in pages() if p.path == "/api/currencies.json")
    with open(folder / "one.warc.gz", "wb") as stream:
        Archive(stream).response(
            "http://127.0.0.1:8000/api/currencies.json", page.body, page.headers.items()
        )
    with open(folder / "skipped.warc.gz", "wb") as stream:
        Archive(stream).raw(
            "http://example.com/broken",
            b"<html><body>Stored without its status line</body></html>",
            "response",
            "application/http; msgtype=response",
        )
    return folder


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Scrapy's HTTP cache (filesystem storage) after a real crawl of the demo site."""
    folder = tmp_path_factory.mktemp("cache")
    with DemoSite() as site:
        urls = [site.url(page) for page in pages()]
        proxied = {site.url(page): {"proxy": site.base_url} for page in pages() if page.host}
        result = run_crawl(
            urls, {"HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(folder)}, meta=proxied
        )
    assert len(result.responses) == len(urls), result.log[-3000:]
    return folder


def run(
    entry_point: Path, cwd: Path, *args: str | Path, jobs: int = 1, name: str = "report"
) -> tuple[str, dict[str, Any], int]:
    """The page, ``--json``'s output and the exit status of one audit."""
    page = cwd / f"{name}-{jobs}.html"
    result = run_scrapy(
        ["charset", "audit", "--json", "--jobs", str(jobs), "--html", str(page),
         *map(str, args)],
        path=[entry_point, REPO],
        cwd=cwd,
        timeout=300,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    return page.read_text("utf-8"), json.loads(result.stdout), result.returncode


SOURCES = {
    "warc": ("demo.warc.gz", "hostile.warc.gz", "hostile-text.warc.gz"),
    "wacz": ("demo.wacz", "hostile-text.warc.gz"),
}


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("jobs", [1, 2], ids=["serial", "jobs-2"])
def test_figures_are_the_json_figures(
    source: str, jobs: int, archives: Path, entry_point: Path, tmp_path: Path
) -> None:
    paths = [archives / name for name in SOURCES[source]]
    # --json lists every host (--top 100); the page, three and one row for the rest.
    page, summary, _ = run(
        entry_point, tmp_path, *paths, "--mojibake", "--max-size", "1M", "--top", "100",
        "--html-hosts", "3", jobs=jobs,
    )  # fmt: skip
    tree = parse(page)
    found = figures(tree)
    assert comparable(found) == expected(summary, 3)
    assert len(summary["hosts"]) == {"warc": 8, "wacz": 6}[source]
    other = tree.xpath('//table[@id="hosts"]/tbody/tr[@class="other"]/td')[0].text_content()
    assert other == f"{len(summary['hosts']) - 3} other hosts"
    if source == "warc":
        assert found["skipped"] == {"broken_http_headers": 1, "too_large": 1}
    # /fr/ and /pt/ of the demo, and the menu of hostile-text.warc.gz.
    assert found["mojibake_kinds"] == {"utf8-as-windows-1252": 3}
    # Every kind shown has its samples, each with its URL and the date it was stored.
    for kind in tree.xpath('//article[@class="kind"]'):
        samples = kind.xpath('div[@class="sample"]')
        count = number(kind.xpath('.//*[@data-figure="count"]')[0])
        assert len(samples) == min(count, SAMPLES_PER_KIND)
        for sample in samples:
            assert "stored 20" in sample.xpath('div[@class="meta"]')[0].text_content()
            assert sample.xpath(".//td//mark")  # the characters that differ


#: Whether this Scrapy's HTTP cache storages give the time an entry was stored.
CACHE_TIMESTAMP = "cache_timestamp" in inspect.getsource(scrapy.extensions.httpcache)


@pytest.mark.parametrize("jobs", [1, 2], ids=["serial", "jobs-2"])
def test_the_http_cache_after_a_real_crawl(
    jobs: int, cache: Path, entry_point: Path, tmp_path: Path
) -> None:
    page, summary, status = run(entry_point, tmp_path, cache, "--mojibake", jobs=jobs)
    assert status == 0
    tree = parse(page)
    assert comparable(figures(tree)) == expected(summary, report.HOSTS)
    assert (summary["records"], summary["differs"]) == (len(pages()), 3)
    # The date is the cache's timestamp, in ISO 8601 UTC, where Scrapy's storage gives it
    # (request.meta["cache_timestamp"]; Scrapy 2.13 does not).
    meta = tree.xpath('//article[@class="kind"]//div[@class="meta"]')[0].text_content()
    if CACHE_TIMESTAMP:
        assert " stored 20" in meta
        assert "Z \u00b7 record probe/" in meta
    else:
        assert " no date \u00b7 record probe/" in meta


def test_parallel_page_is_the_serial_page(
    archives: Path, entry_point: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # the same date on both pages
    paths = [
        archives / "demo.wacz",
        archives / "hostile.warc.gz",
        archives / "hostile-text.warc.gz",
    ]
    pages_ = [
        run(entry_point, tmp_path, *paths, "--mojibake", "--max-size", "1M", jobs=jobs)[0]
        for jobs in (1, 2)
    ]
    assert pages_[0] == pages_[1]


# --- hostile records ------------------------------------------------------------------------

BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


def test_hostile_records_stay_inert(archives: Path, entry_point: Path, tmp_path: Path) -> None:
    page, summary, _ = run(
        entry_point, tmp_path, archives / "hostile-text.warc.gz", "--mojibake", name="hostile"
    )
    tree = parse(page)
    assert comparable(figures(tree)) == expected(summary, report.HOSTS)
    # The records' markup is in the page as text, never as markup.
    assert [e.tag for e in tree.iter("script", "img", "iframe", "object", "embed")] == []
    assert len(tree.xpath("//style")) == 1
    assert "alert" not in tree.xpath("//style")[0].text
    assert page.count("</style>") == 1
    for element in tree.iter():
        assert not [name for name in element.attrib if name.lower().startswith("on")], element
    shown = tree.text_content()
    for payload in (HOSTILE_TEXT[0], '"><img src=x onerror=alert(2)>', HOSTILE_ID):
        assert payload in shown
    assert "CafÃ© crÃ¨me</style><script>alert(7)" in shown  # the mojibake sample
    # Bidi controls are not in the page; each shows as a visible mark.
    for char in BIDI:
        assert char not in page
        assert f"U+{ord(char):04X}" in shown
    # Links: plain http(s) URLs only; the quote and javascript: URLs are text.
    # The CSV to download is a data: link the page writes, base64 of text/csv only.
    (download,) = tree.xpath('//a[@id="csv"]')
    assert download.get("href").startswith("data:text/csv;charset=utf-8;base64,")
    assert download.get("download").endswith(".csv")
    hrefs = [a.get("href") for a in tree.iter("a") if a is not download]
    assert all(href.startswith(("http://", "https://")) for href in hrefs)
    assert not [href for href in hrefs if '"' in href or "javascript" in href.lower()]
    for url in HOSTILE_URLS:
        assert url in shown
    # Nothing is loaded: the page forbids it.
    policy = tree.xpath('//meta[@http-equiv="Content-Security-Policy"]')[0].get("content")
    assert policy.startswith("default-src 'none'")
    assert not tree.xpath("//*[@src]")
    assert not list(tree.iter("link"))


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        pytest.param("Espa\u00f1a", "Espa\u00f1a", id="text-as-is"),
        pytest.param("</style><script>", "&lt;/style&gt;&lt;script&gt;", id="markup"),
        pytest.param("\"'&", "&quot;&#x27;&amp;", id="quotes-and-ampersand"),
        pytest.param(
            "a\u202eb",
            'a<span class="c" title="RIGHT-TO-LEFT OVERRIDE">U+202E</span>b',
            id="bidi-override",
        ),
        pytest.param(
            "\u2066x\u2069",
            '<span class="c" title="LEFT-TO-RIGHT ISOLATE">U+2066</span>x'
            '<span class="c" title="POP DIRECTIONAL ISOLATE">U+2069</span>',
            id="bidi-isolate",
        ),
        pytest.param("a\nb", 'a<span class="c">\u21b5</span>b', id="newline"),
        pytest.param("\x00", '<span class="c">U+0000</span>', id="nul"),
        pytest.param("\ud800", '<span class="c">U+D800</span>', id="lone-surrogate"),
        pytest.param("\u00a0\u3000", "\u00a0\u3000", id="spaces-kept"),
        pytest.param("\ufffd", "\ufffd", id="replacement-char-kept"),
    ],
)
def test_text_is_escaped(value: str, shown: str) -> None:
    assert report.text(value) == shown


@pytest.mark.parametrize(
    ("before", "after", "marked"),
    [
        pytest.param("M\u00c3\u00a9xico", "M\u00e9xico", ("M[\u00c3\u00a9]xico", "M[\u00e9]xico"),
                     id="one-character-for-two"),
        # Cut at the same length: what only the shorter reading reaches is not marked.
        pytest.param("Jap\u00c3\u00a3o, Cor", "Jap\u00e3o, Core",
                     ("Jap[\u00c3\u00a3]o, Cor", "Jap[\u00e3]o, Core"), id="cut-end-unmarked"),
        # With no difference before it, extra text at the end is the difference.
        pytest.param("abc", "abcd", ("abc", "abc[d]"), id="longer-only"),
        pytest.param("\u4e2d\u6587", "\u6d93\u6783", ("[\u4e2d\u6587]", "[\u6d93\u6783]"),
                     id="all-different"),
    ],
)  # fmt: skip
def test_differing_characters_are_marked(before: str, after: str, marked: tuple[str, str]) -> None:
    shown = report.highlighted(before, after)
    as_brackets = tuple(side.replace("<mark>", "[").replace("</mark>", "]") for side in shown)
    assert as_brackets == tuple(report.text(side) for side in marked)


@pytest.mark.parametrize(
    ("url", "linked"),
    [
        pytest.param("http://example.com/a?b=c&d=%20", True, id="http"),
        pytest.param("HTTPS://example.com/", True, id="https-upper-case"),
        pytest.param('http://example.com/a"onmouseover="x"', False, id="quote"),
        pytest.param("http://example.com/<b>", False, id="angle-bracket"),
        pytest.param("http://example.com/a b", False, id="space"),
        pytest.param("http://example.com/\u202e", False, id="bidi"),
        pytest.param('javascript:alert("x")//', False, id="javascript"),
        pytest.param(" javascript:alert(1)", False, id="javascript-space"),
        pytest.param("data:text/html,<script>", False, id="data"),
        pytest.param("//example.com/", False, id="scheme-relative"),
    ],
)
def test_only_plain_http_urls_are_links(url: str, linked: bool) -> None:
    shown = report.link(url)
    assert shown.startswith("<a ") is linked
    tree = lxml_html.fragment_fromstring(f"<div>{shown}</div>")
    if linked:
        assert (tree.xpath("a/@href"), tree.text_content()) == ([url], url)
    else:
        assert tree.xpath("//a") == []


# --- little archives ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "notice", "records"),
    [
        pytest.param("empty.warc.gz", "No stored response was found", 0, id="no-response"),
        pytest.param("skipped.warc.gz", "every record was skipped", 0, id="only-skipped"),
        pytest.param("one.warc.gz", None, 1, id="one-record"),
    ],
)
def test_little_archives_give_a_clear_page(  # noqa: PLR0917 - parameters and fixtures
    name: str, notice: str | None, records: int, archives: Path, entry_point: Path, tmp_path: Path
) -> None:
    page, summary, _ = run(entry_point, tmp_path, archives / name)
    tree = parse(page)
    assert comparable(figures(tree)) == expected(summary, report.HOSTS)
    assert summary["records"] == records
    found = [element.text_content() for element in tree.xpath('//*[@id="empty"]')]
    assert len(found) == (notice is not None)
    assert all(notice in line for line in found if notice)
    if records:
        assert len(tree.xpath('//article[@class="kind"]/div[@class="sample"]')) == 1
    else:
        assert tree.xpath('//*[@id="samples-none"]')
        assert tree.xpath('//*[@id="hosts-none"]')
        assert tree.xpath('//div[@id="chart-rules"]/p')  # "Nothing to show", no empty chart
    assert not tree.xpath('//*[@id="mojibake-off"]')  # mojibake is checked by default


def test_html_hosts_goes_with_html(entry_point: Path, tmp_path: Path) -> None:
    (tmp_path / "x.warc").write_bytes(b"")
    result = run_scrapy(
        ["charset", "audit", "--html-hosts", "5", "x.warc"], path=[entry_point, REPO], cwd=tmp_path
    )
    assert result.returncode == 2
    assert "--html-hosts goes with --html" in result.stderr
    result = run_scrapy(
        ["charset", "audit", "--html", "no/such/folder/r.html", "x.warc"],
        path=[entry_point, REPO],
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "cannot write no/such/folder/r.html" in result.stderr
    (tmp_path / "page.html").write_bytes(b"<p>x")
    result = run_scrapy(
        ["charset", "--file", "page.html", "--html", "r.html"],
        path=[entry_point, REPO],
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "--html goes with 'scrapy charset audit'" in result.stderr


# --- bounds ---------------------------------------------------------------------------------


def _results(count: int) -> list[dict[str, Any]]:
    """*count* differing results on 50 hosts, of 80 change kinds (more than are kept)."""
    base = audit_record(
        b'{"name": "Caf\xc3\xa9"}',
        {"Content-Type": "application/json; charset=iso-8859-1"},
        "http://example.com/",
    )
    assert base["differs"]
    out = []
    for n in range(count):
        result = copy.deepcopy(base)
        result.update(
            url=f"http://host{n % 50}.example/{n}",
            host=f"host{n % 50}.example",
            scrapy_encoding=f"codec-{n % 80}",
            date="2026-01-01T00:00:00Z",
            source="a.warc.gz",
            record=f"<urn:{n}>",
        )
        out.append(result)
    return out


def test_page_size_is_bounded_by_the_caps() -> None:
    sizes = []
    for count in (2 * MAX_LISTED, 20 * MAX_LISTED):
        summary = Summary(samples=True)
        for result in _results(count):
            summary.add(result)
        kept = sum(len(samples) for samples in summary.samples.values())
        assert len(summary.samples) == MAX_SAMPLE_KINDS
        assert kept == MAX_SAMPLE_KINDS * SAMPLES_PER_KIND
        page = report.render(summary, hosts=5)
        tree = parse(page)
        assert len(tree.xpath('//table[@id="hosts"]/tbody/tr[@class="host"]')) == 5
        assert tree.xpath('//tr[@class="other"]/td')[0].text_content() == "45 other hosts"
        kinds = tree.xpath('//article[@class="kind"]')
        assert len(kinds) == report.SAMPLE_KINDS
        assert len(tree.xpath('//div[@id="chart-pairs"]//*[@class="bar"]')) == report.BARS
        assert len(csv_rows(tree)) == MAX_LISTED
        sizes.append(len(page))
    # Ten times the records: only the figures' digits grow.
    assert sizes[1] - sizes[0] < 400


def test_host_rows_count_encodings_rules_and_conflicts() -> None:
    # HTML Standard 13.2.3.1: the Content-Type charset wins over a <meta> naming another
    # encoding (a conflict); without either, valid UTF-8 is UTF-8.
    records = [
        ("a.example", b"<p>caf\xc3\xa9", "text/html; charset=utf-8"),
        ("a.example", b"<p>caf\xe9", "text/html; charset=windows-1252"),
        ("a.example", b'<meta charset="utf-8"><p>caf\xe9', "text/html; charset=windows-1252"),
        ("b.example", b"<p>caf\xc3\xa9", "text/html"),
        ("c.example", b"<p>caf\xe9", "text/html; charset=windows-1252"),
    ]
    summary = Summary()
    for host, body, content_type in records:
        summary.add(audit_record(body, {"Content-Type": content_type}, f"http://{host}/"))
    rows, rest = summary.host_table(1)
    assert rows == [
        {
            "host": "a.example",
            "records": 3,
            "differs": 0,
            "differs_fffd_only": 0,
            "encodings": {"windows-1252": 2, "UTF-8": 1},
            "sources": {"header": 3},
            "conflicts": 1,
        }
    ]
    assert rest == {
        "hosts": 2,
        "records": 2,
        "differs": 0,
        "differs_fffd_only": 0,
        "encodings": {"UTF-8": 1, "windows-1252": 1},
        "sources": {"header": 1, "utf8-validity": 1},
        "conflicts": 0,
    }


# --- what is still damaged leads; what the add-on fixes follows ----------------------------

UTF8 = [("Content-Type", "text/html; charset=utf-8")]
MOJIBAKE = "Café crème".encode().decode("cp1252")

#: (path, body, headers, record id or None) of an archive with every kind of page.
DAMAGED = [
    ("/stored-fffd", "<p>Caf\ufffd cr\ufffdme".encode(), UTF8, None),
    ("/invalid-bytes", b"<p>caf\xe9 cr\xe8me", UTF8, "=2+5"),  # a formula, for the CSV
    ("/mojibake", f"<p>{MOJIBAKE}".encode(), UTF8, None),
    (
        "/fixed.json",
        '{"name": "Café"}'.encode(),
        [("Content-Type", "application/json; charset=iso-8859-1")],
        None,
    ),
    ("/clean", "<p>Café".encode(), UTF8, None),
]


def csv_rows(tree: Any) -> list[dict[str, str]]:
    """The rows of the CSV the page's download link carries."""
    href = tree.xpath('//a[@id="csv"]/@href')[0]
    prefix = "data:text/csv;charset=utf-8;base64,"
    assert href.startswith(prefix)
    content = base64.b64decode(href[len(prefix) :]).decode("utf-8")
    return list(csv.DictReader(content.splitlines()))


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("damaged") / "damaged.warc.gz"
    with open(path, "wb") as stream:
        archive = Archive(stream)
        for page_path, body, headers, ident in DAMAGED:
            archive.response(f"http://shop.example{page_path}", body, headers, ident=ident)
    return path


def test_the_page_leads_with_what_is_still_damaged(
    damaged: Path, entry_point: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    page, summary, _ = run(entry_point, tmp_path, damaged, name="damaged")
    tree = parse(page)
    assert comparable(figures(tree)) == expected(summary, report.HOSTS)
    # U+FFFD the page stores and bytes invalid in its encoding: counted, in --json too.
    assert (summary["replacement"], summary["mojibake"], summary["differs"]) == (2, 1, 1)
    assert tree.xpath('//*[@id="audit-date"]')[0].text_content() == "2026-01-01 00:00 UTC"
    # Damage first, then what scrapy-charset fixes, which is not shown as a failure.
    ids = [element.get("id") for element in tree.xpath("//*[@id]")]
    assert ids.index("damaged") < ids.index("fixed") < ids.index("read")
    assert ids.index("replacement") < ids.index("mojibake") < ids.index("samples")
    fixed = tree.xpath('//*[@data-figure="differs"]/..')[0]
    assert "bad" not in fixed.get("class")
    damage_cards = tree.xpath('//div[@id="damaged"]/div')
    assert [card.get("class") for card in damage_cards] == ["card bad", "card bad"]
    # Each U+FFFD page is a sample, the character marked.
    samples = tree.xpath('//section[@id="replacement"]/div[@class="sample"]')
    assert [s.xpath(".//a")[0].text_content() for s in samples] == [
        "http://shop.example/stored-fffd",
        "http://shop.example/invalid-bytes",
    ]
    assert all(s.xpath('.//mark[text()="\ufffd"]') for s in samples)
    # The CSV: the damaged pages first, then the fixed one; a clean page is not in it, and
    # a cell a spreadsheet would run as a formula is text.
    rows = csv_rows(tree)
    assert [(row["url"], row["damage"], row["read_differently"]) for row in rows] == [
        ("http://shop.example/stored-fffd", "U+FFFD", "no"),
        ("http://shop.example/invalid-bytes", "U+FFFD", "no"),
        ("http://shop.example/mojibake", "mojibake", "no"),
        ("http://shop.example/fixed.json", "none", "yes"),
    ]
    assert rows[1]["record"] == "'=2+5"
    assert rows[2]["mojibake"] == "utf8-as-windows-1252"
    assert tree.xpath('//a[@id="csv"]/@download') == ["scrapy-charset-audit-2026-01-01.csv"]


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        pytest.param("http://example.com/", "http://example.com/", id="url-as-is"),
        pytest.param("=HYPERLINK(1)", "'=HYPERLINK(1)", id="equals"),
        pytest.param("+1", "'+1", id="plus"),
        pytest.param("-1", "'-1", id="minus"),
        pytest.param("@SUM(1)", "'@SUM(1)", id="at"),
        pytest.param("\t=1", "'\t=1", id="tab"),
        pytest.param("a=1", "a=1", id="equals-inside"),
    ],
)
def test_csv_cells_never_run_as_formulas(value: str, cell: str) -> None:
    assert report._cell(value) == cell


def test_the_no_mojibake_page_says_so(damaged: Path, entry_point: Path, tmp_path: Path) -> None:
    page, summary, _ = run(entry_point, tmp_path, damaged, "--no-mojibake", name="off")
    tree = parse(page)
    assert "mojibake" not in summary
    assert summary["replacement"] == 2  # U+FFFD is always counted
    assert tree.xpath('//*[@id="mojibake-off"]')
    assert [row["url"] for row in csv_rows(tree)] == [
        "http://shop.example/stored-fffd",
        "http://shop.example/invalid-bytes",
        "http://shop.example/fixed.json",
    ]
