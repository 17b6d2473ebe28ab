"""``scrapy charset``: the decision trail on the demo pages and offline files, the JSON
output, fetching a URL, and an import that never breaks other ``scrapy`` commands."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pycountry
import pytest

from scrapy_charset.commands.trail import explain, render
from scrapy_charset.sniffing import Kind
from tests.example import run_scrapy, write_entry_point
from tests.server import Page, serve
from tests.spec import PACKAGE, REPO

from example_project.demo_site import RU_HOST, DemoPage, DemoSite, pages  # isort: skip


def _page(path: str, host: str | None = None) -> DemoPage:
    for page in pages():
        if page.path == path and page.host == host:
            return page
    raise KeyError(path)


def _body(page: DemoPage) -> bytes:
    """The body as the middleware sees it: after the content-encoding is removed."""
    if page.headers.get("Content-Encoding") == "gzip":
        return gzip.decompress(page.body)
    return page.body


def _url(page: DemoPage) -> str:
    return f"http://{page.host or '127.0.0.1:8000'}{page.path}"


@pytest.fixture(scope="module")
def entry_point(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_entry_point(tmp_path_factory.mktemp("entry-point"))


def scrapy(args: list[str], entry_point: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_scrapy(args, path=[entry_point, REPO], cwd=cwd)


# --- The trail on every demo page (in process) -------------------------------------------

# path, host -> decision (encoding, source, label, offset), ignored reasons, Scrapy 2.13+'s
# choice and whether its text is the same (None: depends on Scrapy's version).
DEMO_TRAILS = [
    pytest.param("/", None, ("UTF-8", "header", "utf-8", None), [], "utf-8", True, id="index"),
    pytest.param(
        "/ja/",
        None,
        ("Shift_JIS", "meta", "shift_jis", 38),
        [],
        "cp932",
        True,
        id="ja-shift_jis-meta-only",
    ),
    pytest.param(
        "/ko/",
        None,
        ("EUC-KR", "header", "euc-kr", None),
        [],
        "cp949",
        True,
        id="ko-euc-kr-header",
    ),
    # Undeclared and not UTF-8: detection with the .ru domain's hint decides.
    pytest.param(
        "/",
        RU_HOST,
        ("windows-1251", "detected", None, None),
        [],
        None,
        None,
        id="ru-windows-1251-undeclared",
    ),
    # Encoding Standard: the gb2312 label is GBK.
    pytest.param(
        "/zh/",
        None,
        ("GBK", "header", "gb2312", None),
        [],
        "gb18030",
        True,
        id="zh-gb2312-label-gbk-text",
    ),
    # Encoding Standard: the iso-8859-1 label is windows-1252 (0x80 is the euro sign).
    pytest.param(
        "/de/",
        None,
        ("windows-1252", "header", "iso-8859-1", None),
        [],
        "cp1252",
        True,
        id="de-iso-8859-1-label-euro",
    ),
    pytest.param(
        "/ar/",
        None,
        ("UTF-8", "meta", "utf-8", 48),
        [],
        "utf-8",
        True,
        id="ar-utf-8-meta-only",
    ),
    # HTML Standard: the BOM decides, with the confidence certain; the header lost.
    pytest.param(
        "/he/",
        None,
        ("UTF-8", "bom", None, None),
        ["bom_header_conflict"],
        "utf-8",
        True,
        id="he-utf-8-bom-vs-header",
    ),
    # The header is certain and wins over <meta>, in browsers as here.
    pytest.param(
        "/fr/",
        None,
        ("windows-1252", "header", "iso-8859-1", None),
        ["header_meta_conflict"],
        "cp1252",
        True,
        id="fr-header-meta-conflict",
    ),
    # HTML Standard, prescan: a UTF-16 label found in <meta> means UTF-8.
    pytest.param(
        "/vi/",
        None,
        ("UTF-8", "meta", "utf-16", 38),
        [],
        "utf-16",
        False,
        id="vi-meta-utf-16-means-utf-8",
    ),
    pytest.param(
        "/el/",
        None,
        ("windows-1253", "meta", "windows-1253", 38),
        [],
        "cp1253",
        True,
        id="el-gzip-windows-1253-meta",
    ),
    pytest.param(
        "/pl/feed.xml",
        None,
        ("ISO-8859-2", "xml-declaration", "ISO-8859-2", 0),
        [],
        "iso8859-2",
        True,
        id="pl-rss-xml-declaration",
    ),
    # RFC 8259, 8.1: JSON is UTF-8; a non-UTF header charset is ignored.
    pytest.param(
        "/api/currencies.json",
        None,
        ("UTF-8", "default", None, None),
        ["not_utf"],
        "cp1252",
        False,
        id="json-api-latin1-header",
    ),
    # The bytes are right; the text was damaged by the site itself (the item checks see it).
    pytest.param(
        "/pt/",
        None,
        ("UTF-8", "header", "utf-8", None),
        [],
        "utf-8",
        True,
        id="pt-site-stored-mojibake",
    ),
]


@pytest.mark.parametrize(
    ("path", "host", "decision", "ignored", "scrapy_encoding", "same_text"), DEMO_TRAILS
)
def test_trail_on_demo_pages(  # noqa: PLR0917
    path: str,
    host: str | None,
    decision: tuple[str, str, str | None, int | None],
    ignored: list[str],
    scrapy_encoding: str | None,
    same_text: bool | None,
) -> None:
    page = _page(path, host)
    trail = explain(_body(page), url=_url(page), headers=page.headers)
    made = trail["decision"]
    assert (made["encoding"], made["source"], made["label"], made.get("offset")) == decision
    assert [item["reason"] for item in made["ignored"]] == ignored
    assert trail["trail"]["detection"]["used"] is (made["source"] == "detected")
    if scrapy_encoding is None:  # Scrapy's guess on undeclared pages varies by version
        return
    assert trail["scrapy"]["encoding"] == scrapy_encoding
    assert trail["scrapy"]["same_text"] is same_text
    assert (trail["difference"] is None) is same_text
    json.dumps(trail)  # JSON-safe


@pytest.mark.parametrize(
    ("path", "applies"),
    [
        pytest.param("/es/", True, id="html"),
        # XML runs detection too (the scraping side's addition for undeclared feeds).
        pytest.param("/pl/feed.xml", True, id="xml-detection"),
        pytest.param("/api/currencies.json", False, id="json-no-detection"),
    ],
)
def test_trail_says_whether_detection_is_part_of_the_rules(path: str, applies: bool) -> None:
    page = _page(path)
    trail = explain(_body(page), url=_url(page), headers=page.headers)
    assert trail["trail"]["detection"]["applies"] is applies
    assert ("not part of the" in render(trail)) is not applies


def test_trail_undeclared_spanish_falls_to_windows_1252() -> None:
    # Undeclared legacy text without a domain hint: detection or the default
    # (windows-1252, HTML Standard) gives windows-1252, what browsers show.
    page = _page("/es/")
    trail = explain(_body(page), url=_url(page), headers=page.headers)
    assert trail["decision"]["encoding"] == "windows-1252"
    assert trail["decision"]["source"] in {"detected", "default"}
    assert trail["trail"]["utf8"]["valid"] is False


def test_trail_image_is_left_alone() -> None:
    page = _page("/logo.png")
    trail = explain(page.body, url=_url(page), headers=page.headers)
    assert trail["kind"] is None
    assert trail["skipped"] == "not_text"
    assert trail["response_class"] == "Response"
    assert "decision" not in trail
    assert "leaves this response alone (not_text)" in render(trail)


@pytest.mark.parametrize(
    ("body", "content_type", "url", "reason"),
    [
        # Scrapy makes a TextResponse of a PDF; the middleware leaves it alone.
        pytest.param(
            b"%PDF-1.7\n", "application/pdf", "https://example.org/a.pdf", "content_type", id="pdf"
        ),
        pytest.param(b"", "text/html", "https://example.org/", "empty", id="empty-body"),
        pytest.param(b"<p>x", "text/html", "data:text/html,<p>x", "data_url", id="data-url"),
    ],
)
def test_trail_follows_the_middleware_skip_rules(
    body: bytes, content_type: str, url: str, reason: str
) -> None:
    trail = explain(body, url=url, content_type=content_type)
    assert (trail["kind"], trail["skipped"]) == (None, reason)


def test_trail_records_each_step() -> None:
    page = _page("/fr/")
    trail = explain(page.body, url=_url(page), headers=page.headers)["trail"]
    assert trail["bom"] is None
    assert trail["header"] == {
        "source": "header",
        "label": "iso-8859-1",
        "encoding": "windows-1252",
    }
    assert trail["in_document"]["encoding"] == "UTF-8"
    assert trail["in_document"]["offset"] == 38
    # The header decided: the rules after it did not run (the declarations after it are
    # read for conflicts).
    assert trail["utf8"] is None
    assert trail["not_run"] == ["utf8-validity", "detected", "default"]
    assert trail["detection"]["ran"] is False
    assert trail["detection"]["result"] is None


# --- Offline files that are not demo pages ------------------------------------------------

PREFIX = '<!DOCTYPE html><html><head><script>var s = "{}";</script>'.replace("{}", "x" * 1500)

OFFLINE = [
    # Encoding Standard, BOM sniff: a UTF-16LE BOM decides, also for plain text.
    pytest.param(
        "\ufeffСписок стран".encode("utf-16-le"),  # noqa: RUF001
        "text/plain",
        "UTF-16LE",
        "bom",
        id="text-utf-16le-bom",
    ),
    # A label browsers refuse (utf-7) is never used; valid UTF-8 decides.
    pytest.param(
        "<p>Ägypten</p>".encode(),
        "text/html; charset=utf-7",
        "UTF-8",
        "utf8-validity",
        id="refused-utf-7-header",
    ),
    # A <meta> past the first 1024 bytes, still in <head>, counts (late meta).
    pytest.param(
        (PREFIX + '<meta charset="windows-1251"></head><p>Россия').encode("cp1251"),
        "text/html",
        "windows-1251",
        "meta",
        id="late-meta-in-head",
    ),
    # XML in UTF-16LE without a BOM: recognised by its first bytes.
    pytest.param(
        '<?xml version="1.0"?><a>日本</a>'.encode("utf-16-le"),
        "application/xml",
        "UTF-16LE",
        "xml-declaration",
        id="xml-utf-16le-no-bom",
    ),
]


@pytest.mark.parametrize(("body", "content_type", "encoding", "source"), OFFLINE)
def test_trail_on_offline_files(body: bytes, content_type: str, encoding: str, source: str) -> None:
    trail = explain(body, url="https://example.org/file", content_type=content_type)
    assert (trail["decision"]["encoding"], trail["decision"]["source"]) == (encoding, source)


def test_refused_header_label_is_shown_as_unusable() -> None:
    trail = explain(b"<p>x", url="https://example.org/", content_type="text/html; charset=utf-7")
    assert trail["trail"]["header"]["problem"] == "refused_label"
    assert [item["reason"] for item in trail["decision"]["ignored"]] == ["refused_label"]


def test_late_meta_offset_is_past_the_prescan() -> None:
    body = (PREFIX + '<meta charset="windows-1251"></head>').encode()
    trail = explain(body, url="https://example.org/", content_type="text/html")
    assert trail["decision"]["offset"] == len(PREFIX)


# --- The command itself, as a user runs it -------------------------------------------------


@pytest.fixture(scope="module")
def demo_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo-files")
    for page in pages():
        name = (page.host or "") + page.path.replace("/", "_")
        (folder / name).write_bytes(_body(page))
    return folder


def test_help_lists_the_command(entry_point: Path, tmp_path: Path) -> None:
    result = scrapy(["-h"], entry_point, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "charset" in result.stdout
    assert "decides the encoding of one response" in result.stdout


def test_file_text_output(entry_point: Path, demo_files: Path) -> None:
    result = scrapy(
        [
            "charset",
            "--file",
            str(demo_files / "_api_currencies.json"),
            "--content-type",
            "application/json; charset=iso-8859-1",
            "--url",
            "http://127.0.0.1/api/currencies.json",
        ],
        entry_point,
        demo_files,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Response      JsonResponse, " in out
    assert '"iso-8859-1" -> windows-1252' in out
    assert "Decision      UTF-8: source default" in out
    assert 'header "iso-8859-1": not_utf' in out
    assert "Scrapy alone  cp1252: the text differs" in out
    assert "MÃ©xico" in out
    assert "México" in out


def test_file_json_output(entry_point: Path, demo_files: Path) -> None:
    result = scrapy(
        ["charset", "--json", "--file", str(demo_files / "_ja_"), "--content-type", "text/html"],
        entry_point,
        demo_files,
    )
    assert result.returncode == 0, result.stderr
    trail = json.loads(result.stdout)
    assert trail["decision"]["encoding"] == "Shift_JIS"
    assert trail["decision"]["source"] == "meta"
    assert trail["trail"]["in_document"]["offset"] == 38
    assert trail["url"].startswith("file://")
    assert trail["scrapy"] == {"encoding": "cp932", "same_text": True, "replacement_chars": 0}


def test_project_settings_apply(entry_point: Path, demo_files: Path) -> None:
    # The trail reads the CHARSET_* settings as the middleware does.
    result = scrapy(
        [
            "charset",
            "--json",
            "--file",
            str(demo_files / "_es_"),
            "--content-type",
            "text/html",
            "-s",
            "CHARSET_DETECTOR=none",
            "-s",
            "CHARSET_DEFAULT_ENCODING=windows-1250",
        ],
        entry_point,
        demo_files,
    )
    assert result.returncode == 0, result.stderr
    trail = json.loads(result.stdout)
    assert trail["trail"]["detection"] == {
        "applies": True,
        "ran": True,
        "available": False,
        "error": None,
        "result": None,
        "used": False,
    }
    assert (trail["decision"]["encoding"], trail["decision"]["source"]) == (
        "windows-1250",
        "default",
    )


def test_bad_project_settings_are_reported(entry_point: Path, demo_files: Path) -> None:
    result = scrapy(
        ["charset", "--file", str(demo_files / "_es_"), "-s", "CHARSET_DETECT_WINDOW=-1"],
        entry_point,
        demo_files,
    )
    assert result.returncode == 1
    assert (
        "CHARSET_DETECT_WINDOW = '-1' is not valid; accepted: a whole number of 1 or more"
        in result.stderr
    )


def test_file_override(entry_point: Path, demo_files: Path) -> None:
    result = scrapy(
        ["charset", "--json", "--file", str(demo_files / "_de_"), "--encoding", "iso-8859-15"],
        entry_point,
        demo_files,
    )
    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)["decision"]
    assert (decision["encoding"], decision["source"]) == ("ISO-8859-15", "override")


def test_fetch_url(entry_point: Path, tmp_path: Path) -> None:
    with DemoSite() as site:
        result = scrapy(["charset", "--json", site.base_url + "/vi/"], entry_point, tmp_path)
    assert result.returncode == 0, result.stderr
    trail = json.loads(result.stdout)
    assert trail["url"].endswith("/vi/")
    assert trail["decision"]["encoding"] == "UTF-8"
    assert trail["decision"]["label"] == "utf-16"
    assert trail["scrapy"]["encoding"] == "utf-16"
    assert trail["difference"]["scrapy_charset"].startswith("<!DOCTYPE html>")


def test_fetch_failure_is_reported(entry_point: Path, tmp_path: Path) -> None:
    with DemoSite() as site:  # a port that was just free and is closed again
        url = site.base_url + "/"
    result = scrapy(["charset", "-s", "RETRY_ENABLED=False", url], entry_point, tmp_path)
    assert result.returncode == 1
    assert f"could not fetch {url}" in result.stderr


@pytest.mark.parametrize(
    "scheme", [pytest.param("http://", id="absolute"), pytest.param("", id="no-scheme")]
)
def test_fetch_decompresses_like_a_crawl(entry_point: Path, tmp_path: Path, scheme: str) -> None:
    with DemoSite() as site:
        url = scheme + site.base_url.removeprefix("http://") + "/el/"
        result = scrapy(["charset", url], entry_point, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Decision      windows-1253: source meta" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param([], "give one URL", id="nothing"),
        pytest.param(["--file", "missing.html"], "cannot read missing.html", id="missing-file"),
        pytest.param(["--file", "x", "https://example.org/"], "not both", id="file-and-url"),
        pytest.param(["--file", "x", "--url", "example.org"], "absolute URL", id="relative-url"),
        pytest.param(
            ["--url", "https://example.org/", "https://example.org/"],
            "go with --file",
            id="url-without-file",
        ),
        pytest.param(
            ["--no-mojibake", "https://example.org/"],
            "--no-mojibake goes with 'scrapy charset audit'",
            id="audit-option-without-audit",
        ),
    ],
)
def test_usage_errors(args: list[str], message: str, entry_point: Path, tmp_path: Path) -> None:
    result = scrapy(["charset", *args], entry_point, tmp_path)
    assert result.returncode == 2
    assert message in result.stderr + result.stdout


# --- Import-light: nothing can break other scrapy commands --------------------------------


def test_command_module_imports_nothing_else_from_the_package() -> None:
    code = (
        "import sys, scrapy_charset.commands.charset\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('scrapy_charset'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.strip()
    # The package's own import brings nothing of its own beyond the command.
    assert out.split(",") == [
        "scrapy_charset",
        "scrapy_charset.commands",
        "scrapy_charset.commands.charset",
    ]


def test_lazy_public_names_survive_a_subpackage_import() -> None:
    # The package loads its public names lazily; importing the subpackage
    # scrapy_charset.sniffing first must leave the function scrapy_charset.sniff in place.
    code = (
        "import scrapy_charset.sniffing.prescan, scrapy_charset\n"
        "from scrapy_charset import sniff, lookup\n"
        "print(callable(scrapy_charset.sniff), sniff(b'x').encoding, lookup('latin1'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.strip()
    assert out == "True UTF-8 windows-1252"


BROKEN = 'raise ImportError("deliberately broken for a test")\n'

# Optional backends for detection and item repairs; a stand-in that fails to import
# shadows each.
OPTIONAL = ["cchardet", "chardet", "chardetng_py", "ftfy"]


def test_broken_optional_dependencies(entry_point: Path, demo_files: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in OPTIONAL:
        (broken / f"{name}.py").write_text(BROKEN)
    path = [broken, entry_point, REPO]
    version = run_scrapy(["version"], path=path, cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("Scrapy ")
    result = run_scrapy(
        [
            "charset",
            "--json",
            "--file",
            str(demo_files / "_ko_"),
            "--content-type",
            "text/html; charset=euc-kr",
        ],
        path=path,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["decision"]["encoding"] == "EUC-KR"


def test_broken_package_module_breaks_only_this_command(
    entry_point: Path, demo_files: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(PACKAGE, copy / "scrapy_charset")
    (copy / "scrapy_charset" / "sniffing" / "__init__.py").write_text(BROKEN)
    path = [copy, entry_point]
    version = run_scrapy(["version"], path=path, cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("Scrapy ")
    listing = run_scrapy(["-h"], path=path, cwd=tmp_path)
    assert "charset" in listing.stdout
    result = run_scrapy(["charset", "--file", str(demo_files / "_ko_")], path=path, cwd=tmp_path)
    assert result.returncode == 1
    assert "cannot load scrapy-charset (ImportError: deliberately broken" in result.stderr


def test_control_a_command_that_fails_to_import_breaks_scrapy_version(tmp_path: Path) -> None:
    # Why the command must stay import-light: Scrapy loads every scrapy.commands entry
    # point for every command, and an import error there stops all of them.
    folder = write_entry_point(tmp_path, "charset = broken_command:Command")
    (folder / "broken_command.py").write_text(BROKEN)
    version = run_scrapy(["version"], path=[folder, REPO], cwd=tmp_path)
    assert version.returncode != 0
    assert "deliberately broken" in version.stderr


# --- A fetched response: status, redirects, a quiet log, plain values ------------------

#: Undeclared UTF-8 (the UTF-8 rule decides), from pycountry's catalogue.
COUNTRIES = ", ".join(
    country.name
    for country in pycountry.countries
    if country.alpha_2 in {"CI", "CW", "RE", "AX", "TR"}
)
ROUTES = {
    "/old": Page(b"", {"Location": "/moved"}, 301),
    "/moved": Page(b"", {"Location": "/page"}, 302),
    "/page": Page(f"<p>{COUNTRIES}</p>".encode(), {"Content-Type": "text/html"}),
    "/gone": Page(f"<h1>404</h1><p>{COUNTRIES}</p>".encode(), {"Content-Type": "text/html"}, 404),
}


def test_fetch_shows_status_and_redirect_chain(entry_point: Path, tmp_path: Path) -> None:
    with serve(ROUTES) as base:
        text = scrapy(["charset", base + "/old"], entry_point, tmp_path)
        data = scrapy(["charset", "--json", base + "/old"], entry_point, tmp_path)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[:4] == [
        f"URL           {base}/page",
        f"Redirected    1. {base}/old (301)",
        f"              2. {base}/moved (302)",
        "Status        200",
    ]
    trail = json.loads(data.stdout)
    assert trail["status"] == 200
    assert trail["redirects"] == [
        {"url": f"{base}/old", "status": 301},
        {"url": f"{base}/moved", "status": 302},
    ]


def test_fetch_shows_an_error_status(entry_point: Path, tmp_path: Path) -> None:
    with serve(ROUTES) as base:
        result = scrapy(["charset", base + "/gone"], entry_point, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Status        404" in result.stdout
    assert "Redirected" not in result.stdout


def test_no_detector_guess_when_the_utf8_rule_decided(entry_point: Path, tmp_path: Path) -> None:
    with serve(ROUTES) as base:
        result = scrapy(["charset", base + "/page"], entry_point, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Decision      UTF-8: source utf8-validity" in result.stdout
    assert "Detection           not run: the UTF-8 validity rule decided first" in result.stdout
    assert "chardet" not in result.stdout  # no detector's name, so no guess


#: The project's add-on on: its middleware decides in the fetch too, and warns of the
#: /fr/ page's header and <meta> that disagree.
WITH_ADDON = ["-s", 'ADDONS={"scrapy_charset.Addon": 0}']


@pytest.mark.parametrize(
    ("args", "logged"),
    [
        # As `scrapy fetch --nolog`: the trail alone is on the terminal.
        pytest.param([], False, id="log-off-by-default"),
        pytest.param(["-L", "WARNING"], True, id="log-on-with-loglevel"),
    ],
)
def test_crawl_log_stays_off_the_trail(
    args: list[str], logged: bool, entry_point: Path, tmp_path: Path
) -> None:
    with DemoSite() as site:
        result = scrapy(
            ["charset", *WITH_ADDON, *args, site.base_url + "/fr/"], entry_point, tmp_path
        )
    assert result.returncode == 0, result.stderr
    assert "Decision      windows-1252: source header" in result.stdout
    assert "In this crawl  windows-1252 (header)" in result.stdout
    assert ("[scrapy_charset.responses.middleware] WARNING" in result.stderr) is logged
    assert (result.stderr == "") is not logged


def test_values_are_words_not_python(entry_point: Path, tmp_path: Path) -> None:
    # Detection decides: its details hold no TLD hint and a flag, which Python would
    # print as None and True.
    with DemoSite() as site:
        result = scrapy(["charset", site.base_url + "/es/"], entry_point, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "source detected" in result.stdout
    assert "tld none" in result.stdout
    for python in ("None", "True", "False"):
        assert python not in result.stdout


def test_damage_sample_where_both_readings_agree(entry_point: Path, tmp_path: Path) -> None:
    # The bytes are right and Scrapy agrees; the site stored mojibake in its text.
    with DemoSite() as site:
        text = scrapy(["charset", site.base_url + "/pt/"], entry_point, tmp_path)
        data = scrapy(["charset", "--json", site.base_url + "/pt/"], entry_point, tmp_path)
    assert text.returncode == 0, text.stderr
    assert "Scrapy alone  utf-8: same text" in text.stdout
    assert "Damage        the text still holds mojibake (utf8-as-windows-1252)" in text.stdout
    assert "  rule            case-break on 'Ã£'" in text.stdout  # docs/command.md
    damage = json.loads(data.stdout)["damage"]
    assert damage["mojibake"] == "utf8-as-windows-1252"
    assert "Ã" in damage["sample"]


def test_no_damage_line_for_clean_text(entry_point: Path, tmp_path: Path) -> None:
    with DemoSite() as site:
        result = scrapy(["charset", "--json", site.base_url + "/ja/"], entry_point, tmp_path)
    assert json.loads(result.stdout)["damage"] is None


# A body whose bytes are right (valid UTF-8, declared) and whose text holds mojibake: the
# damage lines name the rule that found it and the characters it fired on, as the item
# checks' report (inspect_text) does.
STORED_MOJIBAKE = [
    pytest.param("<p>Caf\u00c3\u00a9 cr\u00c3\u00a8me, cr\u00c3\u00aape</p>", id="fr-as-1252"),
    pytest.param(
        "<p>\u00d0\u0178\u00d1\u20ac\u00d0\u00b8\u00d0\u00b2\u00d0\u00b5\u00d1\u201a</p>",
        id="ru-as-1252",
    ),
]


@pytest.mark.parametrize("body", STORED_MOJIBAKE)
def test_damage_names_the_rule(entry_point: Path, tmp_path: Path, body: str) -> None:
    from scrapy_charset.items.textcheck import inspect_text

    page = tmp_path / "page.html"
    page.write_bytes(body.encode("utf-8"))
    args = ["charset", "--file", str(page), "--content-type", "text/html; charset=utf-8"]
    text = scrapy(args, entry_point, tmp_path)
    data = scrapy([*args[:1], "--json", *args[1:]], entry_point, tmp_path)
    assert text.returncode == 0, text.stderr
    report = inspect_text(body)
    assert report.rule is not None
    assert report.evidence is not None
    assert f"  rule            {report.rule} on {report.evidence!r}" in text.stdout
    damage = json.loads(data.stdout)["damage"]
    assert (damage["rule"], damage["evidence"]) == (report.rule, report.evidence)


# --- What to do about damaged text --------------------------------------------------------

CAFE = "<p>Une tasse de café crème, s'il vous plaît, et une crêpe au sucre.</p>"

# (body, Content-Type) -> the fix: its action and, for an override, the declaration it
# names and the encoding it gives; None for no fix.
FIXES = [
    pytest.param(
        CAFE.encode(),
        "text/html; charset=iso-8859-1",
        ("override", "header", "UTF-8", "valid_utf8"),
        id="utf8-body-wrong-header",
    ),
    pytest.param(
        b'<meta charset="windows-1251">' + CAFE.encode(),
        "text/html",
        ("override", "meta", "UTF-8", "valid_utf8"),
        id="utf8-body-wrong-meta",
    ),
    pytest.param(
        b'<?xml version="1.0" encoding="iso-8859-1"?><p>' + CAFE.encode() + b"</p>",
        "application/xml",
        ("override", "xml-declaration", "UTF-8", "valid_utf8"),
        id="utf8-body-wrong-xml-declaration",
    ),
    pytest.param(
        ("<p>" + "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 4).encode("cp1251"),
        "text/html; charset=utf-8",
        ("override", "header", "windows-1251", "detected"),
        id="windows-1251-body-declared-utf8",
    ),
    pytest.param(CAFE.encode(), "text/html; charset=utf-8", None, id="right-header-no-fix"),
    pytest.param(CAFE.encode("cp1252"), "text/html", None, id="undeclared-no-damage"),
    pytest.param(
        CAFE.encode().decode("cp1252").encode(),
        "text/html; charset=utf-8",
        ("stored", "default"),
        id="mojibake-stored-by-the-page",
    ),
    pytest.param(
        b"<p>caf\xef\xbf\xbd cr\xef\xbf\xbdme</p>",
        "text/html; charset=utf-8",
        None,
        id="u-fffd-stored-nothing-to-override",
    ),
]


@pytest.mark.parametrize(("body", "content_type", "fix"), FIXES)
def test_the_trail_says_what_to_do(
    body: bytes, content_type: str, fix: tuple[str, ...] | None
) -> None:
    found = explain(body, url="http://shop.example/p", content_type=content_type)
    got = found["fix"]
    if fix is None:
        assert got is None
        assert "Fix " not in render(found)
        return
    if got["action"] == "stored":
        assert (got["action"], got["repairs"]) == fix
    else:
        assert (got["action"], got["declaration"], got["encoding"], got["because"]) == fix
        assert got["meta"] == {"charset_encoding": fix[2]}
        assert f'meta={{"charset_encoding": "{fix[2]}"}}' in render(found)
        # The override it names does read the page with no damage.
        assert (
            explain(body, url="http://shop.example/p", content_type=content_type, override=fix[2])[
                "damage"
            ]
            is None
        )


def test_the_fix_on_a_page_declared_wrong_reads_as_the_docs_say() -> None:
    found = explain(
        CAFE.encode(), url="http://shop.example/p", content_type="text/html; charset=latin1"
    )
    assert render(found).splitlines()[-3:] == [
        'Fix           the Content-Type charset "latin1" is wrong for this body: it is valid '
        "UTF-8, and reads as UTF-8 with no damage",
        '  per request     scrapy.Request(url, meta={"charset_encoding": "UTF-8"})',
        "  to check        this command with --encoding UTF-8",
    ]


HEAD = "<html><head><title>A shop</title></head><body>"  # more than the context

# (the text before the damage, the kind) -> how the damage sample starts: in markup, at
# the run of text the damage is in; in a run of text longer than the context, and in a
# body that is not markup, at a word.
SAMPLE_STARTS = [
    pytest.param(HEAD + "<ul><li>one</li><li>", "html", "CafÃ©", id="html-at-the-text"),
    pytest.param(HEAD + "<p>" + "word " * 12, "html", "word word", id="long-run-at-a-word"),
    pytest.param(HEAD + '<a href="/' + "x" * 60 + '">', "html", "CafÃ©", id="after-a-long-tag"),
    pytest.param("<r>" + "<item><id>1</id></item>" * 3 + "<name>", "xml", "CafÃ©", id="xml"),
    pytest.param("<p>short <b>", "html", "<p>short <b>CafÃ©", id="near-the-start-whole"),
    pytest.param("plain text that runs on and on, " * 2, "text", "on, plain", id="text-at-a-word"),
]


@pytest.mark.parametrize(("before", "kind", "start"), SAMPLE_STARTS)
def test_damage_samples_start_at_text(before: str, kind: Kind, start: str) -> None:
    body = (before + "CafÃ©té crÃ¨me brÃ»lÃ©e").encode()
    found = explain(
        body, url="http://shop.example/p", content_type="text/plain; charset=utf-8", kind=kind
    )
    sample = found["damage"]["sample"]
    assert sample.startswith(start), sample
    assert "Ã©" in sample
