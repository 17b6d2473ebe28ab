"""The example project: its demo site, the demo crawl a user runs, and the before/after.

The demo crawl is the integration test a user would run: ``python -m scrapy crawl demo`` in
``example_project/``, with the add-on enabled in its settings. Its items must carry the
text each page's author wrote, for every page.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import urllib.request
from typing import Any

import pytest
from scrapy.http import Headers, TextResponse
from scrapy.responsetypes import responsetypes

from tests.example import EXAMPLE
from tests.spec import REPO

from example_project.demo_site import RU_HOST, DemoPage, DemoSite, pages  # isort: skip
from example_project.spiders.demo import TEXT_SAMPLE, extract  # isort: skip


def page_id(page: DemoPage) -> str:
    return (page.host or "") + page.path


def key(url: str) -> str:
    """The page's id from a crawled URL (the port of the demo site changes every run)."""
    found = re.match(r"http://([^/]+)(/.*)", url)
    assert found is not None, url
    host = found.group(1)
    return ("" if host.startswith("127.0.0.1:") else host) + found.group(2)


def intended_item(page: DemoPage) -> dict[str, Any]:
    """Title and text the spider extracts from the page as its author wrote it."""
    headers = Headers({"Content-Type": page.content_type})
    url = f"http://{page.host or '127.0.0.1'}{page.path}"
    cls = responsetypes.from_args(headers=headers, url=url)
    if not issubclass(cls, TextResponse):
        return extract(cls(url, body=page.body, headers=headers))
    return extract(cls(url, body=page.intended.encode(), encoding="utf-8", headers=headers))


PAGE_IDS = [page_id(page) for page in pages()]
TEXT_PAGES = [page_id(page) for page in pages() if page.intended]
BY_ID = {page_id(page): page for page in pages()}


# --- The demo site on its own ---------------------------------------------------------------

# id -> the encoding the page's bytes are really in (Python codec), or None for the image.
TRUE_ENCODING = {
    "/": "utf-8",
    "/ja/": "cp932",
    "/ko/": "cp949",
    RU_HOST + "/": "cp1251",
    "/zh/": "gbk",
    "/de/": "cp1252",
    "/ar/": "utf-8",
    "/he/": "utf-8-sig",
    "/fr/": "utf-8",
    "/vi/": "utf-8",
    "/es/": "cp1252",
    "/el/": "cp1253",
    "/pl/feed.xml": "iso8859-2",
    "/api/currencies.json": "utf-8",
    "/logo.png": None,
    "/pt/": "utf-8",
}


def test_every_page_is_in_the_table() -> None:
    assert sorted(TRUE_ENCODING) == sorted(PAGE_IDS)


@pytest.fixture(scope="module")
def site() -> Any:
    with DemoSite() as running:
        yield running


@pytest.mark.parametrize("ident", PAGE_IDS)
def test_demo_site_serves_each_page_as_declared(ident: str, site: DemoSite) -> None:
    page = BY_ID[ident]
    handlers = []
    if page.host:  # a virtual host: the demo server answers as a proxy
        handlers.append(urllib.request.ProxyHandler({"http": site.base_url}))
    opener = urllib.request.build_opener(*handlers)
    with opener.open(site.url(page), timeout=30) as response:
        body = response.read()
        assert response.headers["Content-Type"] == page.content_type
        assert response.headers.get("Content-Encoding") == page.headers.get("Content-Encoding")
    assert body == page.body
    if page.headers.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    encoding = TRUE_ENCODING[ident]
    if encoding is None:
        assert body.startswith(b"\x89PNG\r\n\x1a\n")
        return
    decoded = body.decode(encoding)
    if ident == "/pt/":  # the site stored mojibake: the bytes carry damaged text
        assert decoded != page.intended
        assert "Ã£" in decoded
    else:
        assert decoded == page.intended


@pytest.mark.parametrize("ident", TEXT_PAGES)
def test_demo_texts_fit_in_an_item(ident: str) -> None:
    item = intended_item(BY_ID[ident])
    assert item["title"]
    assert 50 < len(item["text"]) < TEXT_SAMPLE


def test_demo_site_text_is_real_language_text() -> None:
    item = intended_item(BY_ID["/ja/"])
    assert "ロシア連邦" in item["text"]  # from pycountry's Japanese catalogue
    zh = BY_ID["/zh/"].intended
    with pytest.raises(UnicodeEncodeError):
        zh.encode("gb2312")  # GBK-only characters, under a gb2312 label
    assert "€".encode("cp1252") in BY_ID["/de/"].body


# --- The demo crawl, as a user runs it -----------------------------------------------------


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SCRAPY_SETTINGS_MODULE"}}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    env["PYTHONIOENCODING"] = "utf-8"
    return env


#: CONTRIBUTING.md's demo command; the fixture below runs its crawl part, as the user would.
QUICK_START = (
    'python -m pip install -e ".[demo]" && (cd example_project && python -m scrapy crawl demo)'
)


def test_contributing_demo_command_is_the_crawl_tested_here() -> None:
    assert f"\n{QUICK_START}\n" in (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def demo_crawl(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    out = tmp_path_factory.mktemp("demo") / "items.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "demo", "-O", str(out)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
        cwd=EXAMPLE,
        env=_env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return {key(item["url"]): item for item in items}, proc.stderr


def final_stats(log: str) -> dict[str, int]:
    """The integer ``charset/`` stats of the final stats dump in a crawl log."""
    dump = log.rsplit("Dumping Scrapy stats:", 1)[-1]
    return {k: int(v) for k, v in re.findall(r"'(charset/[^']+)': (\d+)", dump)}


def test_demo_crawl_reaches_every_page(demo_crawl: tuple[dict[str, Any], str]) -> None:
    items, _ = demo_crawl
    assert sorted(items) == sorted(PAGE_IDS)


@pytest.mark.parametrize("ident", PAGE_IDS)
def test_demo_crawl_items_carry_the_authors_text(
    ident: str, demo_crawl: tuple[dict[str, Any], str]
) -> None:
    """Every page's item has the text its author wrote: declared or not, mislabelled or
    not, and for /fr/ and /pt/ after the item checks repair the mojibake."""
    items, _ = demo_crawl
    item = items[ident]
    expected = intended_item(BY_ID[ident])
    assert (item["title"], item["text"]) == (expected["title"], expected["text"])


# id -> (WHATWG encoding, decision sources allowed) of the item's encoding stamp.
STAMPS = {
    "/": ("UTF-8", {"header"}),
    "/ja/": ("Shift_JIS", {"meta"}),
    "/ko/": ("EUC-KR", {"header"}),
    RU_HOST + "/": ("windows-1251", {"detected"}),
    "/zh/": ("GBK", {"header"}),
    "/de/": ("windows-1252", {"header"}),
    "/ar/": ("UTF-8", {"meta"}),
    "/he/": ("UTF-8", {"bom"}),
    "/fr/": ("windows-1252", {"header"}),
    "/vi/": ("UTF-8", {"meta"}),
    "/es/": ("windows-1252", {"detected", "default"}),
    "/el/": ("windows-1253", {"meta"}),
    "/pl/feed.xml": ("ISO-8859-2", {"xml-declaration"}),
    "/api/currencies.json": ("UTF-8", {"default"}),
    "/pt/": ("UTF-8", {"header"}),
}


@pytest.mark.parametrize("ident", sorted(STAMPS))
def test_demo_crawl_items_carry_the_encoding_decision(
    ident: str, demo_crawl: tuple[dict[str, Any], str]
) -> None:
    items, _ = demo_crawl
    stamp = items[ident]["encoding"]  # CHARSET_ITEM_FIELD = "encoding"
    encoding, sources = STAMPS[ident]
    assert stamp["encoding"] == encoding
    assert stamp["source"] in sources


def test_demo_crawl_image_is_not_decoded(demo_crawl: tuple[dict[str, Any], str]) -> None:
    items, _ = demo_crawl
    image = items["/logo.png"]
    assert (image["title"], image["text"], image["content_type"]) == (None, None, "image/png")
    assert "response_encoding" not in image


# Stats the crawl log shows: per source, per encoding, per ignored declaration, repairs.
EXPECTED_STATS = [
    pytest.param("charset/source/meta", 4, id="meta"),  # ja, ar, vi, el
    pytest.param("charset/source/bom", 1, id="bom"),
    pytest.param("charset/source/xml-declaration", 1, id="xml-declaration"),
    pytest.param("charset/source/detected", 1, id="detected"),  # the .ru page at least
    pytest.param("charset/encoding/Shift_JIS", 1, id="shift_jis"),
    pytest.param("charset/encoding/GBK", 1, id="gbk"),
    pytest.param("charset/ignored/header_meta_conflict", 1, id="header-meta-conflict"),
    pytest.param("charset/ignored/bom_header_conflict", 1, id="bom-header-conflict"),
    pytest.param("charset/ignored/not_utf", 1, id="json-not-utf"),
    pytest.param("charset/mojibake/field/text", 2, id="mojibake-text"),  # fr, pt
    pytest.param("charset/repaired/field/text", 2, id="repaired-text"),
    # 2 of the first items carry mojibake in "text": more than the 5% alert rate.
    pytest.param("charset/alerts/utf8-as-windows-1252", 1, id="alert"),
]


@pytest.mark.parametrize(("stat", "at_least"), EXPECTED_STATS)
def test_demo_crawl_log_shows_charset_stats(
    stat: str, at_least: int, demo_crawl: tuple[dict[str, Any], str]
) -> None:
    _, log = demo_crawl
    assert final_stats(log).get(stat, 0) >= at_least


def test_demo_crawl_logs_charset_stats_while_it_runs(
    demo_crawl: tuple[dict[str, Any], str],
) -> None:
    _, log = demo_crawl
    periodic = log.split("[scrapy.extensions.periodic_log] INFO:")[-1]
    assert '"charset/response_count"' in periodic


def test_demo_crawl_logs_each_decision(demo_crawl: tuple[dict[str, Any], str]) -> None:
    _, log = demo_crawl
    assert re.search(r"\[demo\] INFO: http://127\.0\.0\.1:\d+/ja/ \[Shift_JIS \(meta\)\] ", log)


def test_demo_crawl_counts_text_responses(demo_crawl: tuple[dict[str, Any], str]) -> None:
    _, log = demo_crawl
    stats = final_stats(log)
    # 15 text pages (and robots.txt, text/plain, on both hosts); the image is skipped.
    assert stats["charset/response_count"] >= 15
    assert stats["charset/response_count"] == sum(
        value for name, value in stats.items() if name.startswith("charset/source/")
    )


def _docs_block(page: str, after: str) -> str:
    """The first ``text`` block of docs/*page* after the line *after*."""
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    rest = text[text.index(after) :]
    start = rest.index("```text\n") + len("```text\n")
    return rest[start : rest.index("```", start)]


def test_docs_show_the_demo_crawls_alert_and_summary(
    demo_crawl: tuple[dict[str, Any], str],
) -> None:
    _, log = demo_crawl
    wanted = (
        "Charset alert: ",
        "INFO: Charset: ",
        "INFO: Before/after: ",
        "INFO: scrapy-charset: ",
    )
    printed = [
        # The timestamp left out, the demo site's port (a free one) shown as 8000.
        re.sub(
            r"http://127\.0\.0\.1:\d+/", "http://127.0.0.1:8000/", re.sub(r"^\S+ \S+ ", "", line)
        )
        for line in log.splitlines()
        if any(part in line for part in wanted) or line.startswith("  pages: ")
    ]
    assert len(printed) == 5, printed
    assert _docs_block("demo.md", "so its log is the same on every run") == (
        "\n".join(printed) + "\n"
    )


def test_demo_crawl_says_how_many_pages_plain_scrapy_reads_otherwise(
    demo_crawl: tuple[dict[str, Any], str],
) -> None:
    _, log = demo_crawl
    assert "[demo] INFO: Before/after: 5 of 16 pages differ from what plain Scrapy reads" in log
    assert "5 of 16 pages differ." in _docs_block("demo.md", "## Before and after")


def test_demo_crawl_periodic_log_has_no_empty_stats(
    demo_crawl: tuple[dict[str, Any], str],
) -> None:
    _, log = demo_crawl
    assert '"stats": {}' not in log
    assert "[scrapy.extensions.periodic_log] INFO:" in log  # it still logs at the end


def test_demo_crawl_log_shows_the_alert(demo_crawl: tuple[dict[str, Any], str]) -> None:
    _, log = demo_crawl
    alerts = [
        line for line in log.splitlines() if "[scrapy_charset.items.pipeline] WARNING" in line
    ]
    assert len(alerts) == 1, alerts  # one per field and kind, not one per item
    assert "'text'" in alerts[0]


@pytest.mark.parametrize(
    ("ident", "original", "repaired"),
    [
        pytest.param("/fr/", "CorÃ©e", "Corée", id="fr"),
        pytest.param("/pt/", "JapÃ£o", "Japão", id="pt"),
    ],
)
def test_demo_crawl_items_record_their_repairs(
    ident: str, original: str, repaired: str, demo_crawl: tuple[dict[str, Any], str]
) -> None:
    items, _ = demo_crawl
    (repair,) = items[ident]["repairs"]  # CHARSET_REPAIRS_FIELD = "repairs"
    assert repair["field"] == "text"
    assert original in repair["original"]
    assert repaired in repair["repaired"]
    assert "repairs" not in items["/ja/"]


def test_demo_crawl_has_no_deprecation_warnings(demo_crawl: tuple[dict[str, Any], str]) -> None:
    _, log = demo_crawl
    assert "DeprecationWarning" not in log


def test_demo_crawl_log_warns_about_conflicts(demo_crawl: tuple[dict[str, Any], str]) -> None:
    _, log = demo_crawl
    warnings = [
        line for line in log.splitlines() if re.search(r"\[scrapy_charset[\w.]*\] WARNING", line)
    ]
    assert any("conflict" in line for line in warnings), warnings


# --- Before/after --------------------------------------------------------------------------


#: The tests that read the one before/after run (conftest.py's demo_compare) share it.
DEMO_COMPARE = pytest.mark.xdist_group("demo-compare")


# Plain Scrapy 2.19 on the demo site: the pages it reads as browsers do, and those it does
# not (the undeclared pages depend on charset-normalizer's guess and are left out).
PLAIN_SAME = ["/", "/ja/", "/ko/", "/zh/", "/de/", "/ar/", "/he/", "/el/", "/pl/feed.xml"]
PLAIN_WRONG = [
    pytest.param("/fr/", "CorÃ©e", id="fr-header-conflict-mojibake"),
    pytest.param("/vi/", "\u3c21\u444f", id="vi-meta-utf-16-read-as-utf-16"),
    pytest.param("/api/currencies.json", "MÃ©xico", id="json-latin1-header"),
    pytest.param("/pt/", "JapÃ£o", id="pt-site-mojibake-kept"),
]


@pytest.fixture(scope="module")
def plain_rows(demo_compare: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    # Plain Scrapy's crawl is the same whether or not scrapy-charset's follows it.
    return {row["page"]: row for row in demo_compare}


@DEMO_COMPARE
@pytest.mark.parametrize("ident", PLAIN_SAME)
def test_plain_scrapy_reads_these_pages_right(
    ident: str, plain_rows: dict[str, dict[str, Any]]
) -> None:
    expected = intended_item(BY_ID[ident])
    assert plain_rows[ident]["plain"]["text"] == f"{expected['title']} | {expected['text']}"


@DEMO_COMPARE
@pytest.mark.parametrize(("ident", "sample"), PLAIN_WRONG)
def test_plain_scrapy_gets_these_pages_wrong(
    ident: str, sample: str, plain_rows: dict[str, dict[str, Any]]
) -> None:
    assert sample in plain_rows[ident]["plain"]["text"]


@DEMO_COMPARE
def test_compare_shows_what_changes(demo_compare: list[dict[str, Any]]) -> None:
    rows = {row["page"]: row for row in demo_compare}
    differs = {page for page, row in rows.items() if row["differs"]}
    assert {"/fr/", "/vi/", "/api/currencies.json", "/pt/"} <= differs
    assert not differs & set(PLAIN_SAME)
    assert rows["/vi/"]["charset"]["encoding"] == "UTF-8 (meta)"
    assert "Việt Nam" in rows["/vi/"]["charset"]["text"]


def test_compare_renders_a_table() -> None:
    from example_project.compare import render, rows

    plain = {
        "url": "http://127.0.0.1:1/x/",
        "title": "T",
        "text": "CafÃ©",
        "response_encoding": "cp1252",
    }
    fixed = {
        "url": "http://127.0.0.1:2/x/",
        "title": "T",
        "text": "Café",
        "encoding": {"encoding": "UTF-8", "source": "meta"},
    }
    table = rows({"plain": [plain], "charset": [fixed]})
    assert table == [
        {
            "page": "/x/",
            "differs": True,
            "plain": {"encoding": "cp1252", "text": "T | CafÃ©"},
            "charset": {"encoding": "UTF-8 (meta)", "text": "T | Café"},
        }
    ]
    assert render(table).splitlines() == [
        "/x/  DIFFERS  Scrapy: cp1252  scrapy-charset: UTF-8 (meta)",
        "  Scrapy:         T | CafÃ©",
        "  scrapy-charset: T | Café",
        "",
        "1 of 1 pages differs.",
    ]


def _fake_crawl(
    modes: tuple[str, ...] = ("plain", "charset"), url: str | None = None, max_pages: int = 20
) -> dict[str, list[dict[str, Any]]]:
    items = {
        "plain": [{"url": "http://127.0.0.1:1/x/", "title": "T", "text": "CafÃ©"}],
        "charset": [{"url": "http://127.0.0.1:2/x/", "title": "T", "text": "Café"}],
    }
    return {mode: items[mode] for mode in modes}


@pytest.mark.parametrize(
    ("args", "modes"),
    [
        pytest.param([], ("plain", "charset"), id="both"),
        pytest.param(["--modes", "plain"], ("plain",), id="plain-only"),
        pytest.param(["--json", "--modes", "charset"], ("charset",), id="json-charset-only"),
    ],
)
def test_compare_prints_the_table_of_the_crawls_it_ran(
    args: list[str],
    modes: tuple[str, ...],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command's output is the table of the crawls --modes names, rendered or as JSON
    (the crawls themselves are demo_compare's, once, in the tests above)."""
    from example_project import compare

    ran: list[tuple[str, ...]] = []

    def crawl(
        modes: tuple[str, ...] = compare.MODES, url: str | None = None, max_pages: int = 20
    ) -> dict[str, list[dict[str, Any]]]:
        ran.append(modes)
        return _fake_crawl(modes, url, max_pages)

    monkeypatch.setattr(compare, "crawl", crawl)
    assert compare.main(args) == 0
    assert ran == [modes]
    table = compare.rows(_fake_crawl(modes))
    out = capsys.readouterr().out
    if "--json" in args:
        assert json.loads(out) == table
    else:
        assert out == compare.render(table) + "\n"


def test_compare_refuses_an_unknown_mode(capsys: pytest.CaptureFixture[str]) -> None:
    from example_project import compare

    with pytest.raises(SystemExit) as exit_info:
        compare.main(["--modes", "plain,nope"])
    assert exit_info.value.code == 2
    assert "--modes takes a comma-separated subset of plain,charset" in capsys.readouterr().err
