"""``scrapy charset audit`` and :func:`scrapy_charset.audit_record`: the demo site's pages
stored in a WARC file (warcio's writer) and in Scrapy's HTTP cache (a real crawl against
the local demo server, filesystem and DBM storages), with hostile records; audited
serially and with ``--jobs 2``."""

from __future__ import annotations

import dbm
import gzip
import json
import pickle
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.http import Headers, TextResponse
from scrapy.responsetypes import responsetypes

from scrapy_charset import audit_record
from tests.archives import (
    BASE,
    euc_jp_page,
    page_url,
    write_demo,
    write_hostile,
    write_huge,
)
from tests.crawl import run_crawl
from tests.example import run_scrapy, write_entry_point
from tests.spec import REPO

from example_project.demo_site import RU_HOST, DemoPage, DemoSite, pages  # isort: skip

# Page id -> the middleware's decision (HTML Standard 13.2.3.2 with the UTF-8 and detection
# steps; see tests/test_command.py for each rule) and the Python codec that decodes the
# page's bytes to the same text; None for the image (not text: left alone).
DECISIONS: dict[str, tuple[str, str, str] | None] = {
    "/": ("UTF-8", "header", "utf-8"),
    "/ja/": ("Shift_JIS", "meta", "cp932"),
    "/ko/": ("EUC-KR", "header", "cp949"),
    RU_HOST + "/": ("windows-1251", "detected", "cp1251"),
    "/zh/": ("GBK", "header", "gbk"),
    "/de/": ("windows-1252", "header", "cp1252"),
    "/ar/": ("UTF-8", "meta", "utf-8"),
    "/he/": ("UTF-8", "bom", "utf-8-sig"),
    "/fr/": ("windows-1252", "header", "cp1252"),  # the header wins, as in browsers
    "/vi/": ("UTF-8", "meta", "utf-8"),  # a <meta> UTF-16 label means UTF-8
    "/es/": ("windows-1252", "detected", "cp1252"),
    "/el/": ("windows-1253", "meta", "cp1253"),
    "/pl/feed.xml": ("ISO-8859-2", "xml-declaration", "iso8859-2"),
    "/api/currencies.json": ("UTF-8", "default", "utf-8"),  # RFC 8259: JSON is UTF-8
    "/logo.png": None,
    "/pt/": ("UTF-8", "header", "utf-8"),  # right bytes, mojibake the site itself stored
}


def page_id(page: DemoPage) -> str:
    return (page.host or "") + page.path


def url_id(url: str) -> str:
    found = re.match(r"http://([^/]+)(/.*)", url)
    assert found is not None, url
    host = found.group(1)
    return ("" if host.startswith("127.0.0.1:") else host) + found.group(2)


def body_of(page: DemoPage) -> bytes:
    """The body as the spider gets it: after the Content-Encoding."""
    if page.headers.get("Content-Encoding") == "gzip":
        return gzip.decompress(page.body)
    return page.body


def plain_scrapy(body: bytes, headers: dict[str, str], url: str) -> tuple[str, str]:
    """Plain Scrapy's text (a leading U+FEFF aside) and encoding for the response."""
    scrapy_headers = Headers(headers)
    cls = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
    response = cls(url=url, body=body, headers=scrapy_headers)
    assert isinstance(response, TextResponse)
    return response.text.removeprefix("\ufeff"), response.encoding


def first_difference(a: str, b: str) -> int:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


class Expected:
    """What the audit must find on one text page, worked out from the page alone."""

    def __init__(self, page: DemoPage, url: str) -> None:
        decision = DECISIONS[page_id(page)]
        assert decision is not None
        self.encoding, self.source, codec = decision
        body = body_of(page)
        headers = {k: v for k, v in page.headers.items() if k != "Content-Encoding"}
        self.text = body.decode(codec)
        self.scrapy, self.scrapy_encoding = plain_scrapy(body, headers, url)
        self.differs = self.scrapy != self.text
        self.fffd_only = self.differs and (
            self.scrapy.replace("\ufffd", "") == self.text.replace("\ufffd", "")
        )

    def diff_line(self, url: str, source: str, record: str) -> dict[str, Any]:
        at = first_difference(self.scrapy, self.text)
        return {
            "url": url,
            "source": source,
            "record": record,
            "scrapy_encoding": self.scrapy_encoding,
            "fffd": {"scrapy": self.scrapy.count("\ufffd"), "scrapy_charset": 0},
            "fffd_only": self.fffd_only,
            "mojibake": None,  # checked by default; none of the differing demo pages has any
            "difference": {
                "offset": at,
                "scrapy": self.scrapy[max(0, at - 40) : at + 40],
                "scrapy_charset": self.text[max(0, at - 40) : at + 40],
            },
        }


def test_every_demo_page_is_in_the_table() -> None:
    assert sorted(DECISIONS) == sorted(page_id(page) for page in pages())


# --- audit_record, in process ---------------------------------------------------------------


@pytest.mark.parametrize("page", [p for p in pages() if DECISIONS[page_id(p)]], ids=page_id)
def test_audit_record_on_each_demo_page(page: DemoPage) -> None:
    url = page_url(page)
    expected = Expected(page, url)
    headers = {k: v for k, v in page.headers.items() if k != "Content-Encoding"}
    found = audit_record(body_of(page), headers, url, text=True)
    assert found["left_alone"] is None
    assert (found["encoding"], found["charset"]["source"]) == (expected.encoding, expected.source)
    assert found["differs"] is expected.differs
    assert found["fffd_only"] is expected.fffd_only
    if expected.differs:
        assert found["text"] == expected.text
        assert {k: found[k] for k in ("fffd", "difference", "scrapy_encoding")} == {
            k: v
            for k, v in expected.diff_line(url, "", "").items()
            if k in ("fffd", "difference", "scrapy_encoding")
        }
    else:
        assert "text" not in found


def test_audit_record_leaves_an_image_alone() -> None:
    page = next(p for p in pages() if p.path == "/logo.png")
    found = audit_record(page.body, page.headers, page_url(page))
    assert found == {"url": page_url(page), "host": "127.0.0.1", "bytes": len(page.body),
                     "left_alone": "not_text"}  # fmt: skip


def test_audit_record_differs_by_fffd_only() -> None:
    # Encoding Standard, EUC-JP decoder: FD FE is one error, where Python's codec sees two.
    url, body = euc_jp_page()
    found = audit_record(body, [(b"Content-Type", b"text/html; charset=euc-jp")], url)
    assert (found["differs"], found["fffd_only"], found["fffd"]) == (
        True,
        True,
        {"scrapy": 2, "scrapy_charset": 1},
    )


def test_audit_record_mojibake_left_by_the_site() -> None:
    page = next(p for p in pages() if p.path == "/pt/")
    found = audit_record(page.body, page.headers, page_url(page), mojibake=True)
    assert (found["differs"], found["mojibake"]) == (False, "utf8-as-windows-1252")


def test_audit_record_is_exported_lazily() -> None:
    import scrapy_charset

    assert "audit_record" in scrapy_charset.__all__
    assert scrapy_charset.audit_record is audit_record


CONTENT_TYPES = st.sampled_from(
    [
        "text/html",
        "text/html; charset=utf-8",
        "text/html; charset=shift_jis",
        "text/plain; charset=utf-16",
        "application/json; charset=iso-8859-1",
        "application/xml",
        "image/png",
        "",
    ]
)


HEADER_NAMES = st.sampled_from([b"Content-Type", b"content-type", b"Content-Encoding"]) | st.binary(
    min_size=1, max_size=12
)


@settings(max_examples=150, deadline=None)
@given(
    body=st.binary(max_size=400),
    content_type=CONTENT_TYPES | st.text(max_size=40),
    more=st.lists(st.tuples(HEADER_NAMES, st.binary(max_size=30)), max_size=4),
    url=st.sampled_from(["http://example.ru/", "https://example.jp/a.json", "dns:x"])
    | st.text(max_size=30),
)
def test_audit_record_on_any_input(
    body: bytes, content_type: str, more: list[tuple[bytes, bytes]], url: str
) -> None:
    headers = [(b"Content-Type", content_type.encode("utf-8")), *more]
    found = audit_record(body, headers, url, text=True, mojibake=True)
    json.dumps(found)  # JSON-safe
    if found["left_alone"] is not None:
        return
    assert found["differs"] is (found["difference"] is not None)
    assert found["differs"] is ("text" in found)
    if found["fffd_only"]:
        assert found["differs"]


# --- The stored crawls ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def entry_point(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_entry_point(tmp_path_factory.mktemp("entry-point"))


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("warc")
    with open(folder / "demo.warc.gz", "wb") as stream:
        demo_ids = write_demo(stream)
    with open(folder / "hostile.warc.gz", "wb") as stream:
        hostile_ids = write_hostile(stream, large=2 << 20)
    # The archive cut inside its 8th record (the Russian page's response), after three
    # responses (and their requests).
    data = (folder / "demo.warc.gz").read_bytes()
    members = _members(data)
    cut = b"".join(members[:7]) + members[7][: len(members[7]) // 2]
    (folder / "truncated.warc.gz").write_bytes(cut)
    with zipfile.ZipFile(folder / "demo.wacz", "w") as wacz:
        wacz.write(folder / "demo.warc.gz", "archive/data.warc.gz")
        wacz.writestr("datapackage.json", "{}")
    return {"folder": folder, "demo": demo_ids, "hostile": hostile_ids}


def _members(data: bytes) -> list[bytes]:
    """The gzip members of a record-at-a-time gzipped WARC."""
    import zlib

    members = []
    while data:
        decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
        decompressor.decompress(data)
        size = len(data) - len(decompressor.unused_data)
        members.append(data[:size])
        data = decompressor.unused_data
    return members


STORAGES: dict[str, dict[str, Any]] = {
    "filesystem": {"HTTPCACHE_STORAGE": "scrapy.extensions.httpcache.FilesystemCacheStorage"},
    "filesystem-gzip": {
        "HTTPCACHE_STORAGE": "scrapy.extensions.httpcache.FilesystemCacheStorage",
        "HTTPCACHE_GZIP": True,
    },
    "dbm": {"HTTPCACHE_STORAGE": "scrapy.extensions.httpcache.DbmCacheStorage"},
}

#: A fingerprint no request has: the entry added without metadata.
ORPHAN = "ab" * 20


@pytest.fixture(scope="module")
def caches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Scrapy's HTTP cache after a real crawl of the demo site, in each storage, plus one
    entry whose metadata is missing (a write cut short)."""
    folders = {}
    with DemoSite() as site:
        urls = [site.url(page) for page in pages()]
        proxied = {site.url(page): {"proxy": site.base_url} for page in pages() if page.host}
        for name, storage in STORAGES.items():
            folder = tmp_path_factory.mktemp(f"cache-{name}")
            result = run_crawl(
                urls,
                {"HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(folder), **storage},
                meta=proxied,
            )
            assert len(result.responses) == len(urls), result.log[-3000:]
            folders[name] = folder
    for name in ("filesystem", "filesystem-gzip"):
        entry = next((folders[name] / "probe").glob("*/*"))
        orphan = folders[name] / "probe" / ORPHAN[:2] / ORPHAN
        shutil.copytree(entry, orphan)
        (orphan / "pickled_meta").unlink()
    with dbm.open(str(folders["dbm"] / "probe.db"), "w") as db:
        db[f"{ORPHAN}_data"] = pickle.dumps({"url": BASE + "/", "body": b"", "headers": {}})
    return folders


def audit(
    entry_point: Path, cwd: Path, *args: str | Path, jobs: int = 1
) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]], str, int]:
    diff_out, text_out = cwd / f"diff-{jobs}.jsonl", cwd / f"text-{jobs}.jsonl"
    result = run_scrapy(
        ["charset", "audit", "--json", "--jobs", str(jobs), "--diff-out", str(diff_out),
         "--text-out", str(text_out), *map(str, args)],
        path=[entry_point, REPO],
        cwd=cwd,
        timeout=300,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    diffs = [json.loads(line) for line in diff_out.read_text("utf-8").splitlines()]
    texts = [json.loads(line) for line in text_out.read_text("utf-8").splitlines()]
    return json.loads(result.stdout), diffs, texts, result.stderr, result.returncode


def demo_totals(expected: dict[str, Expected]) -> dict[str, Any]:
    differ = [e for e in expected.values() if e.differs]
    return {
        "records": len(pages()),
        "left_alone": {"not_text": 1},
        "decided": len(expected),
        "differs": len(differ),
        "differs_fffd_only": sum(e.fffd_only for e in differ),
    }


def totals(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        key: summary[key]
        for key in ("records", "left_alone", "decided", "differs", "differs_fffd_only")
    }


@pytest.mark.parametrize("jobs", [1, 2], ids=["serial", "jobs-2"])
def test_audit_warc_files(
    jobs: int, warcs: dict[str, Any], entry_point: Path, tmp_path: Path
) -> None:
    folder = warcs["folder"]
    summary, diffs, texts, log, status = audit(
        entry_point,
        tmp_path,
        folder / "demo.warc.gz",
        folder / "hostile.warc.gz",
        folder / "truncated.warc.gz",
        "--max-size",
        "1M",
        jobs=jobs,
    )
    assert status == 1  # something was skipped
    assert summary["skipped"] == {"broken_http_headers": 1, "too_large": 1, "truncated": 1}
    for reason in summary["skipped"]:  # one warning per reason
        assert log.count(f"skipped ({reason}:") == 1

    demo = {
        url: Expected(page, url)
        for page in pages()
        if DECISIONS[page_id(page)]
        for url in [page_url(page)]
    }
    # The truncated copy: the three responses before the cut; the EUC-JP, chunked-gzip and
    # Russian pages of the hostile file, and its dns and revisit records.
    truncated = dict(list(demo.items())[:3])
    want = demo_totals(demo)
    want["records"] += 3 + 5
    want["decided"] += 3 + 3
    want["left_alone"] = {"not_http": 1, "not_text": 1, "revisit": 1}
    # The hostile file's Russian page (undeclared, under .ru) differs where the running
    # Scrapy's own guess misses windows-1251 (Scrapy 2.13 guesses otherwise than 2.19).
    ru = next(page for page in pages() if page.host == RU_HOST)
    after_url = "http://novosti.example.ru/after-the-large-one"
    after_scrapy, _ = plain_scrapy(ru.body, {"Content-Type": "text/html"}, after_url)
    after_text = ru.body.decode("cp1251")
    after_differs = after_scrapy != after_text
    after_fffd_only = after_differs and after_scrapy.replace("\ufffd", "") == after_text
    want["differs"] += 1 + after_differs + sum(e.differs for e in truncated.values())
    want["differs_fffd_only"] += 1 + after_fffd_only + sum(e.fffd_only for e in truncated.values())
    assert totals(summary) == want
    assert [
        (Path(row["input"]).name, row["records"], row["skipped"]) for row in summary["inputs"]
    ] == [("demo.warc.gz", 16, 0), ("hostile.warc.gz", 5, 2), ("truncated.warc.gz", 3, 1)]

    source = str(folder / "demo.warc.gz")
    want_diffs = [
        e.diff_line(url, source, warcs["demo"][url]) for url, e in demo.items() if e.differs
    ]
    hostile = str(folder / "hostile.warc.gz")
    euc_url, euc_body = euc_jp_page()
    found = [line for line in diffs if line["source"] == hostile]
    assert [line["url"] for line in found] == [euc_url] + [after_url] * after_differs
    found = [line for line in found if line["url"] == euc_url]
    assert [{k: v for k, v in line.items() if k != "difference"} for line in found] == [
        {
            "url": euc_url,
            "source": hostile,
            "record": warcs["hostile"]["euc-jp"],
            "charset": {
                "encoding": "EUC-JP",
                "source": "header",
                "label": "euc-jp",
                "confidence": "certain",
                "ignored": [
                    {
                        "source": "meta",
                        "label": "shift_jis",
                        "encoding": "Shift_JIS",
                        "reason": "header_meta_conflict",
                        "offset": 38,
                    }
                ],
            },
            "scrapy_encoding": "euc_jp",
            "fffd": {"scrapy": 2, "scrapy_charset": 1},
            "fffd_only": True,
            "mojibake": None,
        }
    ]
    # Both texts have one U+FFFD for FD FE; Scrapy's has a second one right after it.
    at = len(euc_body[: euc_body.index(b"\xfd\xfe")].decode("euc_jp")) + 1
    assert found[0]["difference"]["offset"] == at
    assert [
        {k: v for k, v in line.items() if k != "charset"}
        for line in diffs
        if line["source"] == source
    ] == want_diffs
    for line in diffs:
        if line["source"] == source:
            encoding, decided_by, _ = DECISIONS[url_id(line["url"])] or ("", "", "")
            assert (line["charset"]["encoding"], line["charset"]["source"]) == (
                encoding,
                decided_by,
            )
    # The corrected text: exactly the page's bytes in the right encoding.
    for line in texts:
        if line["source"] == source:
            assert line["text"].removeprefix("\ufeff") == demo[line["url"]].text
            assert line["record"] == warcs["demo"][line["url"]]
    assert len(texts) == len(diffs)


def test_parallel_output_is_the_serial_output(
    warcs: dict[str, Any], entry_point: Path, tmp_path: Path
) -> None:
    folder = warcs["folder"]
    runs = [
        audit(entry_point, tmp_path, folder / "demo.wacz", folder / "hostile.warc.gz",
              "--max-size", "1M", jobs=jobs)[:3]
        for jobs in (1, 2)
    ]  # fmt: skip
    assert runs[0] == runs[1]
    assert runs[0][0]["skipped"] == {"broken_http_headers": 1, "too_large": 1}


def test_wacz_is_read_like_its_warc(
    warcs: dict[str, Any], entry_point: Path, tmp_path: Path
) -> None:
    folder = warcs["folder"]
    warc, warc_diffs, _, _, status = audit(entry_point, tmp_path, folder / "demo.warc.gz")
    wacz, wacz_diffs, _, _, _ = audit(entry_point, tmp_path, folder / "demo.wacz")
    assert status == 0  # nothing skipped
    assert wacz.pop("inputs")[0]["input"] == str(folder / "demo.wacz")
    assert warc.pop("inputs")[0]["input"] == str(folder / "demo.warc.gz")
    assert wacz == warc
    assert [line["record"] for line in wacz_diffs] == [
        "archive/data.warc.gz#" + line["record"] for line in warc_diffs
    ]


@pytest.mark.parametrize("storage", list(STORAGES))
@pytest.mark.parametrize("jobs", [1, 2], ids=["serial", "jobs-2"])
def test_audit_http_cache(
    storage: str, jobs: int, caches: dict[str, Path], entry_point: Path, tmp_path: Path
) -> None:
    summary, diffs, texts, log, status = audit(entry_point, tmp_path, caches[storage], jobs=jobs)
    assert status == 1
    assert summary["skipped"] == {"no_metadata": 1}
    assert log.count("skipped (no_metadata:") == 1
    expected = {
        page_id(page): Expected(page, page_url(page))
        for page in pages()
        if DECISIONS[page_id(page)]
    }
    assert totals(summary) == demo_totals(expected)
    assert sorted(url_id(line["url"]) for line in diffs) == sorted(
        ident for ident, e in expected.items() if e.differs
    )
    record = r"probe\.db#[0-9a-f]{40}" if storage == "dbm" else r"probe/[0-9a-f]{2}/[0-9a-f]{40}"
    for line in diffs:
        e = expected[url_id(line["url"])]
        assert re.fullmatch(record, line["record"])
        assert line["source"] == str(caches[storage])
        assert (line["charset"]["encoding"], line["charset"]["source"]) == (e.encoding, e.source)
        assert {k: line[k] for k in ("fffd", "fffd_only", "difference", "scrapy_encoding")} == {
            k: v
            for k, v in e.diff_line("", "", "").items()
            if k in ("fffd", "fffd_only", "difference", "scrapy_encoding")
        }
    assert {url_id(line["url"]): line["text"] for line in texts} == {
        ident: e.text for ident, e in expected.items() if e.differs
    }


def test_one_spider_folder_of_the_cache(
    caches: dict[str, Path], entry_point: Path, tmp_path: Path
) -> None:
    whole, whole_diffs, *_ = audit(entry_point, tmp_path, caches["filesystem"])
    spider, spider_diffs, *_ = audit(entry_point, tmp_path, caches["filesystem"] / "probe")
    assert totals(spider) == totals(whole)
    assert spider["skipped"] == {"no_metadata": 1}
    assert [line["record"] for line in spider_diffs] == [line["record"] for line in whole_diffs]


def test_huge_record_is_skipped_with_the_default_limit(entry_point: Path, tmp_path: Path) -> None:
    with open(tmp_path / "huge.warc", "wb") as stream:
        huge = write_huge(stream, 200 * 1024 * 1024)
    summary, _, _, log, status = audit(entry_point, tmp_path, tmp_path / "huge.warc")
    (tmp_path / "huge.warc").unlink()
    assert status == 1
    assert summary["skipped"] == {"too_large": 1}
    assert (summary["records"], summary["decided"]) == (1, 1)  # the record after it
    assert f"{huge} skipped (too_large:" in log


# The options of the mojibake check -> whether the table counts mojibake. U+FFFD is always
# counted; --mojibake, once needed, is still accepted.
MOJIBAKE_OPTIONS = [
    pytest.param([], True, id="checked-by-default"),
    pytest.param(["--no-mojibake"], False, id="no-mojibake"),
    pytest.param(["--mojibake"], True, id="mojibake-still-accepted"),
]


@pytest.mark.parametrize(("options", "mojibake"), MOJIBAKE_OPTIONS)
def test_text_table(
    options: list[str], mojibake: bool, warcs: dict[str, Any], entry_point: Path, tmp_path: Path
) -> None:
    result = run_scrapy(
        ["charset", "audit", "--jobs", "1", *options, str(warcs["folder"] / "demo.warc.gz")],
        path=[entry_point, REPO],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Responses", "read", str(len(pages()))]
    assert "Still U+FFFD after decoding                0" in lines
    # /fr/ (a header browsers follow too) and /pt/ (stored so): mojibake once decoded.
    assert ("Still mojibake after decoding              2" in lines) is mojibake
    assert ("Still mojibake" in result.stdout) is mojibake
    assert "Encoding pair (Scrapy -> scrapy-charset)" in result.stdout
    assert any(line.split()[:1] == ["novosti.example.ru"] for line in lines)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param([], "give at least one source", id="no-source"),
        pytest.param(["nowhere.warc"], "no such file or folder: nowhere.warc", id="missing"),
        pytest.param(["--jobs", "0", "x"], "not a positive integer", id="jobs-0"),
        pytest.param(["--file", "x", "x"], "--file does not apply to audit", id="file"),
        pytest.param(
            ["--diff-out", "no/such/folder/d.jsonl", "x"],
            "cannot write no/such/folder/d.jsonl",
            id="diff-out-unwritable",
        ),
    ],
)
def test_usage_errors(args: list[str], message: str, entry_point: Path, tmp_path: Path) -> None:
    (tmp_path / "x").write_bytes(b"")
    result = run_scrapy(["charset", "audit", *args], path=[entry_point, REPO], cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr


def test_audit_options_go_with_audit(entry_point: Path, tmp_path: Path) -> None:
    (tmp_path / "page.html").write_bytes(b"<p>x")
    result = run_scrapy(
        ["charset", "--file", "page.html", "--diff-out", "d.jsonl"],
        path=[entry_point, REPO],
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "--diff-out goes with 'scrapy charset audit'" in result.stderr


def test_not_an_archive_is_skipped(entry_point: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.warc").write_bytes(b"Just some notes, not a WARC file.\n")
    summary, *_, status = audit(entry_point, tmp_path, tmp_path / "notes.warc")
    assert (summary["skipped"], status) == ({"not_warc": 1}, 1)


def test_without_warcio_scrapy_still_works(entry_point: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("warcio", "tqdm", "dask"):
        (broken / f"{name}.py").write_text('raise ImportError("deliberately broken")\n')
    path = [broken, entry_point, REPO]
    version = run_scrapy(["version"], path=path, cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    (tmp_path / "a.warc").write_bytes(b"")
    result = run_scrapy(["charset", "audit", "a.warc"], path=path, cwd=tmp_path)
    # An installation error, not skipped records (1).
    assert result.returncode == 2
    assert "pip install 'scrapy-charset[audit]'" in result.stderr


def test_a_bad_setting_is_a_usage_error(entry_point: Path, tmp_path: Path) -> None:
    (tmp_path / "a.warc").write_bytes(b"")
    result = run_scrapy(
        ["charset", "audit", "-s", "CHARSET_DETECTOR=nope", "a.warc"],
        path=[entry_point, REPO],
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "scrapy charset audit: CHARSET_DETECTOR = 'nope' is not valid" in result.stderr


# (what is given, its name, the warning's words): each reason says what was given.
NOT_AN_ARCHIVE = [
    pytest.param("folder", "plain", "plain: the folder skipped (not_warc: a folder with no "
                 "Scrapy HTTP cache (HTTPCACHE_DIR) in it)", id="plain-folder"),
    pytest.param("file", "notes.txt", "notes.txt: the file skipped (not_warc: a file whose "
                 "name is not .warc, .warc.gz or .wacz)", id="other-file"),
    pytest.param("file", "notes.warc", "notes.warc: the file skipped (not_warc: not a WARC "
                 "file)", id="warc-name-not-warc"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "name", "warning"), NOT_AN_ARCHIVE)
def test_a_source_that_is_not_an_archive_is_named_for_what_it_is(
    entry_point: Path, tmp_path: Path, kind: str, name: str, warning: str
) -> None:
    source = tmp_path / name
    if kind == "folder":
        source.mkdir()
        (source / "a.txt").write_text("x")
    else:
        source.write_text("Just some notes, not a WARC file.\n")
    result = run_scrapy(["charset", "audit", name], path=[entry_point, REPO], cwd=tmp_path)
    assert result.returncode == 1
    assert f"WARNING: {warning}; the audit goes on." in result.stderr
    assert "the rest of the file" not in result.stderr


@pytest.mark.parametrize(
    ("options", "debug"),
    [
        pytest.param([], False, id="default"),
        pytest.param(["-L", "WARNING"], False, id="L-WARNING"),
        pytest.param(["--nolog"], False, id="nolog"),
        pytest.param(["-L", "DEBUG"], True, id="L-DEBUG"),
    ],
)
@pytest.mark.parametrize("source", ["plain-folder", "http-cache"])
def test_serial_audit_keeps_the_log_level(
    entry_point: Path,
    tmp_path: Path,
    *,
    caches: dict[str, Path],
    source: str,
    options: list[str],
    debug: bool,
) -> None:
    # Reading Scrapy's HTTP cache builds a Crawler, whose constructor re-installs Scrapy's
    # root log handler from its own settings (DEBUG): the command's level must hold.
    if source == "plain-folder":
        (tmp_path / "plain").mkdir()
        target, status = "plain", 1
    else:
        target, status = str(caches["filesystem"]), 1  # its orphan entry is skipped
    result = run_scrapy(
        ["charset", "audit", "--jobs", "1", *options, target],
        path=[entry_point, REPO],
        cwd=tmp_path,
    )
    assert result.returncode == status, result.stderr
    if debug:
        # What logs at DEBUG depends on the source and Scrapy's version: reading a cache
        # always does (Scrapy's own components), a plain folder may not.
        assert source == "plain-folder" or " DEBUG: " in result.stderr, result.stderr
    else:
        assert " DEBUG: " not in result.stderr, result.stderr
    assert "xmliter_lxml reads responses" not in result.stderr


def test_progress_bar_on_a_terminal_only(
    warcs: dict[str, Any], entry_point: Path, tmp_path: Path
) -> None:
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    demo = str(warcs["folder"] / "demo.warc.gz")
    env = {k: v for k, v in os.environ.items() if k not in {"SCRAPY_SETTINGS_MODULE"}}
    env["PYTHONPATH"] = os.pathsep.join([str(entry_point), str(REPO)])
    terminal, child_end = pty.openpty()
    fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "scrapy", "charset", "audit", "--jobs", "1", demo],
            stdout=subprocess.PIPE,
            stderr=child_end,
            env=env,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        os.close(child_end)
        shown = b""
        while True:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # the terminal's other end is closed
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(terminal)
    assert done.returncode == 0
    bar = shown.decode("utf-8", "replace")
    assert "audit: 100%" in bar
    assert "B/s" in bar  # the rate
    piped = run_scrapy(
        ["charset", "audit", "--jobs", "1", demo], path=[entry_point, REPO], cwd=tmp_path
    )
    assert "audit:" not in piped.stderr


# --- The engine's bounds ------------------------------------------------------------------


def test_an_internal_error_skips_that_record_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy_charset.audit import run
    from scrapy_charset.audit.record import Auditor
    from scrapy_charset.audit.sources import Entry, Skip

    auditor = Auditor()
    real = auditor.audit

    def audit(body: bytes, headers: Any, url: str) -> dict[str, Any]:
        if url.endswith("/boom"):
            raise RuntimeError("a bug")
        return real(body, headers, url)

    monkeypatch.setattr(auditor, "audit", audit)
    monkeypatch.setattr(run, "_auditor", auditor)
    headers = [(b"Content-Type", b"text/html; charset=utf-8")]
    out = run._audit_batch(
        [
            Entry("a.warc", "<1>", "http://example.com/boom", headers, b"<p>caf\xc3\xa9"),
            Entry("a.warc", "<2>", "http://example.com/ok", headers, b"<p>caf\xc3\xa9"),
        ]
    )
    assert out[0] == Skip("a.warc", "<1>", "error", "RuntimeError: a bug")
    assert isinstance(out[1], dict)
    assert (out[1]["record"], out[1]["differs"]) == ("<2>", False)


def test_host_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy_charset.audit import summary

    monkeypatch.setattr(summary, "MAX_HOSTS", 2)
    totals = summary.Summary(top=10)
    for host in ("a.example", "b.example", "c.example", "d.example", "a.example"):
        found = audit_record(b"<p>x", {"Content-Type": "text/html"}, f"http://{host}/")
        totals.add(found)
    assert [(row["host"], row["records"]) for row in totals.as_dict()["hosts"]] == [
        ("(other hosts)", 2),
        ("a.example", 2),
        ("b.example", 1),
    ]


# --- differs_text: the differences that are more than U+FFFD ------------------------------


def _record(kind: str) -> dict[str, Any]:
    """One audited record: its text the same as plain Scrapy's, different by U+FFFD only,
    or different text."""
    if kind == "fffd-only":
        # Encoding Standard, EUC-JP decoder: FD FE is one error where Python's sees two.
        url, body = euc_jp_page()
        return audit_record(body, [(b"Content-Type", b"text/html; charset=euc-jp")], url)
    if kind == "text":
        # RFC 8259, 8.1: JSON is UTF-8; plain Scrapy believes the header and reads cp1252.
        body = '{"name": "C\u00f4te d\u2019Ivoire"}'.encode()
        return audit_record(
            body, {"Content-Type": "application/json; charset=iso-8859-1"}, "https://example.ci/"
        )
    assert kind == "same"
    return audit_record(
        "<p>Caf\u00e9</p>".encode(), {"Content-Type": "text/html; charset=utf-8"}, "http://a/"
    )


@pytest.mark.parametrize(
    ("records", "differs", "fffd_only", "differs_text"),
    [
        pytest.param(["fffd-only"], 1, 1, 0, id="fffd-only-is-not-different-text"),
        pytest.param(["text"], 1, 0, 1, id="different-text"),
        pytest.param(["same"], 0, 0, 0, id="same"),
        pytest.param(["fffd-only", "text", "same", "fffd-only"], 3, 2, 1, id="mixed"),
    ],
)
def test_differs_text_counts_only_differences_beyond_fffd(
    records: list[str], differs: int, fffd_only: int, differs_text: int
) -> None:
    from scrapy_charset.audit.summary import Summary

    summary = Summary()
    for kind in records:
        found = _record(kind)
        assert (found["differs"], found["fffd_only"]) == {
            "fffd-only": (True, True),
            "text": (True, False),
            "same": (False, False),
        }[kind]
        summary.add(found)
    data = summary.as_dict()
    assert (data["differs"], data["differs_fffd_only"], data["differs_text"]) == (
        differs,
        fffd_only,
        differs_text,
    )
    # The summary table's lines that these figures feed.
    lines = {
        line.rsplit(None, 1)[0].strip(): line.split()[-1]
        for line in summary.render().splitlines()[:8]
    }
    assert lines["Text differs from plain Scrapy's"] == str(differs)
    assert lines["by U+FFFD only"] == str(fffd_only)
    assert lines["different text"] == str(differs_text)


def test_an_unknown_detector_is_a_settings_error_as_in_a_crawl() -> None:
    from scrapy_charset import CharsetSettingsError
    from scrapy_charset.audit.record import Auditor
    from scrapy_charset.responses.config import CharsetConfig

    with pytest.raises(CharsetSettingsError, match="CHARSET_DETECTOR = 'nope'"):
        Auditor(CharsetConfig(detector="nope"))


# Bodies -> (U+FFFD in the middleware's text, whether plain Scrapy reads it differently,
# the first U+FFFD's offset): a page with U+FFFD is counted whether or not it differs.
REPLACEMENT = [
    pytest.param(
        "<p>Caf\ufffd</p>".encode(), "text/html; charset=utf-8", (1, False, 6), id="stored"
    ),
    pytest.param(b"<p>caf\xe9</p>", "text/html; charset=utf-8", (1, False, 6), id="invalid-bytes"),
    pytest.param("<p>Café</p>".encode(), "text/html; charset=utf-8", (0, False, None), id="clean"),
    pytest.param(
        '{"a": "\ufffd"}'.encode(),
        "application/json; charset=iso-8859-1",
        (1, True, 7),
        id="fixed-and-still-damaged",
    ),
]


@pytest.mark.parametrize(("body", "content_type", "want"), REPLACEMENT)
def test_pages_with_u_fffd_are_counted(
    body: bytes, content_type: str, want: tuple[int, bool, int | None]
) -> None:
    from scrapy_charset.audit.summary import Summary

    found = audit_record(body, {"Content-Type": content_type}, "http://shop.example/")
    sample = found.get("fffd_sample")
    assert (found["fffd"]["scrapy_charset"], found["differs"], sample and sample["offset"]) == want
    offset = want[2]
    if offset is not None:
        assert sample is not None
        assert sample["text"][offset - max(0, offset - 40)] == "\ufffd"
    summary = Summary(samples=True)
    summary.add(found)
    assert summary.as_dict()["replacement"] == want[0]
    assert len(summary.replacement_samples) == want[0]
    assert "Still U+FFFD after decoding" in summary.render()
