"""A whole crawl, three ways: plain Scrapy, the middleware alone, the add-on with everything on.

Run: ``python -m benchmarks.crawl`` (``--pages 1000`` for a quick run; ``--rounds``,
``--concurrency``; ``--profile addon`` to profile one mode with cProfile;
``--instructions`` to count each crawl's instructions under callgrind, which other work on
the machine does not move: valgrind must be installed, and a crawl takes some 50 times
longer).

**The site.** A local server, started by this script in a process of its own, serves
``--pages`` generated pages of real multilingual text: names of territories, languages and
currencies from CLDR (through Babel) and pycountry's translation catalogues, in some forty
languages, as paragraphs in ``<p>`` elements, 5 to 200 KB a page (log-uniform; ``--max-kb`` sets the
largest). The pages
come in the web's mix of encodings and declarations (see :data:`SCENARIOS`): mostly UTF-8
declared in the header, some in ``<meta>`` only, some undeclared; legacy encodings
declared in the header or in ``<meta>`` (sometimes by the label browsers read as another
encoding, as ``iso-8859-1`` for windows-1252) and undeclared. Each page is built from a
seeded generator, so the server and the checker agree on every page without keeping it:
the server holds the encoded paragraphs once and writes a page as a list of them, from
memory, so that it is never the bottleneck (its CPU share is reported).

**The crawl.** A spider requests every page (``CONCURRENT_REQUESTS`` 32, one domain) and
yields one item per page: the title and the whole text (every paragraph). The three modes
run back to back and alternated, each in a fresh process, ``--rounds`` times.

**What is measured**, per run: pages per second (from the spider's opening to its
closing), CPU seconds of the crawling process per 1,000 pages (user + system, the checking
below taken out) and how much of it the garbage collector took, the server's CPU share,
peak RSS and RSS every 1,000 items. Every item's title and text are compared with the
generated ones (a digest, in a last pipeline whose own CPU time is subtracted); every item
that differs is kept and classified afterwards by cause: the encoding the response was
decoded with against the page's, U+FFFD, a repair by the item pipeline. The verdict lists,
for the add-on, the items that differ where plain Scrapy was right.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import cProfile
import dataclasses
import gc
import hashlib
import html
import json
import math
import os
import pstats
import queue
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import scrapy
from scrapy import signals

from benchmarks._growth import callgrind_count
from benchmarks._itemdata import cldr_names
from benchmarks.overhead import catalogue_strings

KB = 1000
MIN_SIZE, MAX_SIZE = 5 * KB, 200 * KB
#: Every mode; ``--modes`` runs a subset (the summary's ratios need plain Scrapy's run).
MODES = ("plain", "middleware", "passthrough", "addon")
DEFAULT_MODES = ("plain", "middleware", "addon")
SETTINGS: dict[str, dict[str, Any]] = {
    "plain": {},
    "middleware": {"DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585}},
    # The middleware, and an item pipeline and a spider middleware that pass everything
    # through where the add-on puts its item checks and item stamp: what Scrapy itself
    # costs for two more components, so that the add-on's own item work shows.
    "passthrough": {
        "DOWNLOADER_MIDDLEWARES": {"scrapy_charset.CharsetMiddleware": 585},
        "ITEM_PIPELINES": {
            "benchmarks.crawl.PassThroughPipeline": 300,
            "benchmarks.crawl.Verify": 1000,
        },
        "SPIDER_MIDDLEWARES": {"benchmarks.crawl.PassThroughSpiderMiddleware": 100},
    },
    "addon": {
        "ADDONS": {"scrapy_charset.Addon": 0},
        "CHARSET_ITEM_FIELD": "charset",
        "CHARSET_REPAIRS_FIELD": "charset_repairs",
    },
}

# --- The text --------------------------------------------------------------------------

#: (language, its legacy encodings as (Encoding Standard name, Python codec, labels used)).
LANGUAGES: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = {
    "en": (("windows-1252", "cp1252", ("windows-1252", "iso-8859-1")),),
    "fr": (("windows-1252", "cp1252", ("iso-8859-1", "windows-1252")),),
    "de": (("windows-1252", "cp1252", ("iso-8859-1", "windows-1252")),),
    "es": (("windows-1252", "cp1252", ("iso-8859-1", "windows-1252")),),
    "pt": (("windows-1252", "cp1252", ("iso-8859-1",)),),
    "it": (("windows-1252", "cp1252", ("iso-8859-1",)),),
    "nl": (("windows-1252", "cp1252", ("iso-8859-1",)),),
    "sv": (("windows-1252", "cp1252", ("iso-8859-1",)),),
    "da": (("windows-1252", "cp1252", ("iso-8859-1",)),),
    "fi": (
        ("windows-1252", "cp1252", ("iso-8859-1", "windows-1252")),
        ("ISO-8859-15", "iso8859_15", ("iso-8859-15",)),
    ),
    "is": (("windows-1252", "cp1252", ("iso-8859-1",)),),
    "ru": (
        ("windows-1251", "cp1251", ("windows-1251",)),
        ("KOI8-R", "koi8_r", ("koi8-r",)),
    ),
    "uk": (
        ("windows-1251", "cp1251", ("windows-1251",)),
        ("KOI8-U", "koi8_u", ("koi8-u",)),
    ),
    "bg": (("windows-1251", "cp1251", ("windows-1251",)),),
    "sr": (("windows-1251", "cp1251", ("windows-1251",)),),
    "pl": (
        ("windows-1250", "cp1250", ("windows-1250",)),
        ("ISO-8859-2", "iso8859_2", ("iso-8859-2",)),
    ),
    "cs": (("windows-1250", "cp1250", ("windows-1250",)),),
    "hu": (
        ("windows-1250", "cp1250", ("windows-1250",)),
        ("ISO-8859-2", "iso8859_2", ("iso-8859-2", "latin2")),
    ),
    "ro": (("windows-1250", "cp1250", ("windows-1250",)),),
    "hr": (("windows-1250", "cp1250", ("windows-1250",)),),
    "el": (
        ("windows-1253", "cp1253", ("windows-1253",)),
        ("ISO-8859-7", "iso8859_7", ("iso-8859-7", "greek")),
    ),
    "tr": (("windows-1254", "cp1254", ("windows-1254", "iso-8859-9")),),
    "he": (("windows-1255", "cp1255", ("windows-1255",)),),
    "ar": (("windows-1256", "cp1256", ("windows-1256",)),),
    "fa": (("windows-1256", "cp1256", ("windows-1256",)),),
    "lt": (("windows-1257", "cp1257", ("windows-1257",)),),
    "lv": (("windows-1257", "cp1257", ("windows-1257",)),),
    "et": (("windows-1257", "cp1257", ("windows-1257",)),),
    "th": (("windows-874", "cp874", ("tis-620", "windows-874")),),
    "ja": (
        ("Shift_JIS", "cp932", ("shift_jis", "x-sjis")),
        ("EUC-JP", "euc_jp", ("euc-jp",)),
    ),
    "zh_CN": (("GBK", "gbk", ("gb2312", "gbk")), ("gb18030", "gb18030", ("gb18030",))),
    "zh_TW": (("Big5", "big5", ("big5",)),),
    "ko": (("EUC-KR", "euc_kr", ("euc-kr", "ks_c_5601-1987")),),
    "vi": (),
    "hi": (),
    "ka": (),
    "hy": (),
    "ta": (),
    "id": (),
    "sw": (),
}
#: English's share of the pages (as on the web); the other languages share the rest.
ENGLISH_SHARE = 0.3

#: (name, share, encoding family, where the declaration is). UTF-8 pages are in any
#: language; legacy pages in one of the language's legacy encodings.
SCENARIOS: tuple[tuple[str, float, str, str], ...] = (
    ("utf-8, header", 0.64, "utf-8", "header"),
    ("utf-8, meta only", 0.10, "utf-8", "meta"),
    ("utf-8, undeclared", 0.08, "utf-8", "none"),
    ("legacy, header", 0.08, "legacy", "header"),
    ("legacy, meta only", 0.05, "legacy", "meta"),
    ("legacy, undeclared", 0.05, "legacy", "none"),
)

_PARAGRAPHS = 160  # paragraphs per language
_PER_PARAGRAPH = (4, 14)  # names per paragraph


@cache
def _names(language: str) -> tuple[str, ...]:
    """Real names in *language*: CLDR's territories, languages and currencies (Babel), then
    pycountry's catalogue translations; duplicates and the empty string dropped."""
    names = cldr_names(language)
    if language != "en":
        names.extend(catalogue_strings(language))
    return tuple(dict.fromkeys(n.strip() for n in names if n and n.strip()))


@dataclass(frozen=True)
class Pool:
    """One language's paragraphs: their text and, per Python codec, their encoded form."""

    language: str
    texts: tuple[str, ...]
    titles: tuple[str, ...]
    encoded: dict[str, tuple[bytes, ...]]  # codec -> each paragraph as ``<p>...</p>\n``


def _pool(language: str, seed: int) -> Pool:
    from scrapy_charset import decode, lookup

    rng = random.Random(f"{seed}/{language}")
    names = list(_names(language))
    legacy = LANGUAGES[language]

    def round_trips(text: str) -> bool:
        """Every legacy encoding of the language carries *text* exactly, read as browsers do."""
        for whatwg, codec, _ in legacy:
            try:
                if decode(text.encode(codec), whatwg) != text:
                    return False
            except UnicodeEncodeError:
                return False
        return True

    for whatwg, _, labels in legacy:
        for label in labels:  # each label names the page's encoding, as browsers read it
            assert lookup(label) == whatwg, (label, lookup(label), whatwg)
    usable = [name for name in names if round_trips(name)]
    texts: list[str] = []
    for _ in range(_PARAGRAPHS):
        count = rng.randint(*_PER_PARAGRAPH)
        texts.append(", ".join(rng.choice(usable) for _ in range(count)) + ".")
    markup = [f"<p>{html.escape(text, quote=False)}</p>\n" for text in texts]
    encoded = {"utf-8": tuple(m.encode() for m in markup)}
    for _, codec, _ in legacy:
        encoded[codec] = tuple(m.encode(codec) for m in markup)
    return Pool(language, tuple(texts), tuple(usable[:200]), encoded)


def _scenario(pick: float) -> tuple[str, float, str, str]:
    """The scenario at *pick* (0 to 1) of the cumulative shares."""
    for scenario in SCENARIOS:
        pick -= scenario[1]
        if pick < 0:
            return scenario
    return SCENARIOS[-1]


@dataclass(frozen=True)
class Page:
    """One generated page: how it is served and the text a reader should get."""

    index: int
    language: str
    scenario: str
    encoding: str  # the page's encoding (Encoding Standard name)
    codec: str  # the Python codec its bytes were written with
    content_type: str
    meta: str | None  # the <meta charset> label, if any
    title: str
    paragraphs: tuple[int, ...]  # indexes into the language's pool

    def text(self, pool: Pool) -> str:
        return "\n".join(pool.texts[i] for i in self.paragraphs)

    def head(self) -> bytes:
        meta = f'<meta charset="{self.meta}">\n' if self.meta else ""
        title = html.escape(self.title, quote=False)
        return (
            f'<!DOCTYPE html>\n<html lang="{self.language}">\n<head>\n{meta}'
            f"<title>{title}</title>\n"
            '<link rel="stylesheet" href="/style.css">\n</head>\n<body>\n'
        ).encode(self.codec)


_TAIL = b"</body>\n</html>\n"


class Site:
    """The generated site: every page from the seed, the paragraphs encoded once."""

    def __init__(self, pages: int, seed: int = 2024, max_size: int = MAX_SIZE) -> None:
        self.seed = seed
        self.max_size = max_size
        languages = list(LANGUAGES)
        self.pools = {language: _pool(language, seed) for language in languages}
        self.pages = [self._page(i, languages) for i in range(pages)]

    def _page(self, index: int, languages: Sequence[str]) -> Page:
        rng = random.Random(self.seed * 1_000_003 + index)
        language = "en" if rng.random() < ENGLISH_SHARE else rng.choice(languages[1:])
        name, _, family, where = _scenario(rng.random())
        legacy = LANGUAGES[language]
        if family == "legacy" and legacy:
            encoding, codec, labels = rng.choice(legacy)
            label = rng.choice(labels)
        else:
            encoding, codec, label = "UTF-8", "utf-8", rng.choice(("utf-8", "UTF-8", "utf8"))
            name = name.replace("legacy", "utf-8")  # a language without a legacy encoding
        pool = self.pools[language]
        size = int(math.exp(rng.uniform(math.log(MIN_SIZE), math.log(self.max_size))))
        page = Page(
            index=index,
            language=language,
            scenario=name,
            encoding=encoding,
            codec=codec,
            content_type=f"text/html; charset={label}" if where == "header" else "text/html",
            meta=label if where == "meta" else None,
            title=f"{rng.choice(pool.titles)} - {index}",
            paragraphs=(),
        )
        chosen: list[int] = []
        total = len(page.head()) + len(_TAIL)
        paragraphs = pool.encoded[codec]
        while total < size:
            i = rng.randrange(len(paragraphs))
            chosen.append(i)
            total += len(paragraphs[i])
        return dataclasses.replace(page, paragraphs=tuple(chosen))

    def body(self, page: Page) -> list[bytes]:
        paragraphs = self.pools[page.language].encoded[page.codec]
        return [page.head(), *(paragraphs[i] for i in page.paragraphs), _TAIL]

    def expected(self, page: Page) -> tuple[str, str]:
        return page.title, page.text(self.pools[page.language])


def digest(title: str | None, text: str | None) -> str:
    data = f"{title}\x00{text}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


# --- The server ----------------------------------------------------------------------------


def _serve(pages: int, seed: int, max_size: int, ready: Any) -> None:
    """The server process: build the site, answer from memory, report its CPU time."""
    site = Site(pages, seed, max_size)
    responses: list[tuple[bytes, list[bytes]]] = []
    for page in site.pages:
        parts = site.body(page)
        head = (
            f"HTTP/1.1 200 OK\r\nContent-Type: {page.content_type}\r\n"
            f"Content-Length: {sum(map(len, parts))}\r\n\r\n"
        ).encode("latin-1")
        responses.append((head, parts))

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await reader.readuntil(b"\r\n\r\n")
                path = request.split(b" ", 2)[1].decode("latin-1")
                if path.startswith("/p/"):
                    head, parts = responses[int(path[3:])]
                    writer.write(head)
                    writer.writelines(parts)
                else:
                    usage = resource.getrusage(resource.RUSAGE_SELF)
                    body = json.dumps({"cpu": usage.ru_utime + usage.ru_stime}).encode()
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        + f"Content-Length: {len(body)}\r\n\r\n".encode()
                        + body
                    )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=256)
        ready.put(server.sockets[0].getsockname()[1])
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def server_cpu(port: int) -> float:
    from urllib.request import urlopen

    with urlopen(f"http://127.0.0.1:{port}/cpu", timeout=30) as answer:
        return float(json.loads(answer.read())["cpu"])


# --- The crawl (in its own process) ------------------------------------------------------


def _rss() -> int:
    """The resident set size in bytes (Linux), else the peak."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # pragma: no cover - not Linux
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class SiteSpider(scrapy.Spider):
    """One item per page: the title and every paragraph's text."""

    name = "site"

    async def start(self) -> AsyncIterator[Any]:
        base, pages = self.settings["BENCH_BASE"], self.settings.getint("BENCH_PAGES")
        for index in range(pages):
            yield scrapy.Request(f"{base}/p/{index}", cb_kwargs={"index": index})

    def parse(self, response: Any, index: int) -> Iterator[dict[str, Any]]:
        yield {
            "index": index,
            "encoding": response.encoding,
            "title": response.css("title::text").get(),
            "text": "\n".join(response.css("p::text").getall()),
        }


class PassThroughPipeline:
    """An item pipeline that returns every item as it is."""

    def process_item(self, item: Any, spider: Any = None) -> Any:
        return item


class PassThroughSpiderMiddleware:
    """A spider middleware that yields the spider's output as it is."""

    async def process_spider_output_async(
        self, response: Any, result: AsyncIterator[Any], spider: Any = None
    ) -> AsyncIterator[Any]:
        async for output in result:
            yield output

    def process_spider_output(
        self, response: Any, result: Iterator[Any], spider: Any = None
    ) -> Iterator[Any]:
        yield from result


class Verify:
    """The last pipeline: compare each item with the generated page; time itself."""

    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings
        with open(settings["BENCH_EXPECTED"]) as expected:
            self.expected: list[str] = json.load(expected)
        self.out = open(settings["BENCH_DIFFERENT"], "w", encoding="utf-8")  # noqa: SIM115
        self.cpu = 0.0
        self.items = 0
        self.differ = 0
        self.memory: list[int] = []
        self.every = settings.getint("BENCH_SAMPLE_EVERY", 1000)
        self.crawler = crawler
        self.gc = 0.0  # CPU seconds in the garbage collector
        self.gc_start = 0.0
        gc.callbacks.append(self._gc)
        crawler.signals.connect(self.opened, signal=signals.spider_opened)
        crawler.signals.connect(self.closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Verify:
        return cls(crawler)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.gc_start = time.process_time()
        else:
            self.gc += time.process_time() - self.gc_start

    def opened(self) -> None:
        if self.crawler.settings.getbool("BENCH_INSTRUCTIONS"):
            os.getppid()  # callgrind (--dump-before=getppid) starts the crawl's part here
        self.gc = 0.0
        self.start_wall = time.perf_counter()
        self.start_cpu = _cpu()

    def process_item(self, item: dict[str, Any], spider: Any = None) -> dict[str, Any]:
        start = time.process_time()
        self.items += 1
        if digest(item["title"], item["text"]) != self.expected[item["index"]]:
            self.differ += 1
            record = {k: item.get(k) for k in ("index", "encoding", "title", "text")}
            record["repairs"] = item.get("charset_repairs")
            json.dump(record, self.out, ensure_ascii=True)
            self.out.write("\n")
        if self.items % self.every == 0:
            self.memory.append(_rss())
        self.cpu += time.process_time() - start
        return item

    def closed(self, reason: str) -> None:
        if self.crawler.settings.getbool("BENCH_INSTRUCTIONS"):
            os.getppid()  # and ends it here
        wall = time.perf_counter() - self.start_wall
        cpu = _cpu() - self.start_cpu - self.cpu
        self.out.close()
        result = {
            "items": self.items,
            "differ": self.differ,
            "wall": wall,
            "cpu": cpu,
            "verify_cpu": self.cpu,
            "memory": self.memory,
            "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "reason": reason,
            "gc": self.gc,
        }
        with open(self.crawler.settings["BENCH_RESULT"], "w") as out:
            json.dump(result, out)


def _child(config_path: str) -> None:
    """Run one crawl (``--child``), optionally under cProfile."""
    from scrapy.crawler import CrawlerProcess

    config = json.loads(Path(config_path).read_text())
    settings = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "RETRY_ENABLED": False,
        "COOKIES_ENABLED": False,
        "CONCURRENT_REQUESTS": config["concurrency"],
        "CONCURRENT_REQUESTS_PER_DOMAIN": config["concurrency"],
        "DOWNLOAD_DELAY": 0,
        "ITEM_PIPELINES": {"benchmarks.crawl.Verify": 1000},
        "BENCH_BASE": config["base"],
        "BENCH_PAGES": config["pages"],
        "BENCH_EXPECTED": config["expected"],
        "BENCH_DIFFERENT": config["different"],
        "BENCH_RESULT": config["result"],
        "BENCH_SAMPLE_EVERY": config["every"],
        "BENCH_INSTRUCTIONS": bool(config.get("instructions")),
    }
    settings.update(SETTINGS[config["mode"]])  # the passthrough mode has its own pipelines
    process = CrawlerProcess(settings, install_root_handler=True)
    process.crawl(SiteSpider)
    if config.get("profile"):
        profiler = cProfile.Profile()
        profiler.enable()
        process.start()
        profiler.disable()
        profiler.dump_stats(config["profile"])
    else:
        process.start()


# --- Checking and reporting --------------------------------------------------------------


@dataclass
class Run:
    mode: str
    round: int
    pages: int
    items: int
    differ: int
    wall: float
    cpu: float
    gc: float  # of which in the garbage collector
    server_cpu: float
    memory: list[int]
    peak: int
    causes: Counter[str]
    wrong: set[int]  # indexes of pages whose item differs
    instructions: int | None = None  # from the spider's opening to its closing (callgrind)

    @property
    def rate(self) -> float:
        return self.items / self.wall

    @property
    def cpu_per_1000(self) -> float:
        return 1000 * self.cpu / max(1, self.items)

    @property
    def gc_per_1000(self) -> float:
        return 1000 * self.gc / max(1, self.items)


#: The Python codec of each page encoding, to compare with a response's encoding.
_PYTHON_CODECS = {
    whatwg: codec for options in LANGUAGES.values() for whatwg, codec, _ in options
} | {"UTF-8": "utf-8"}


def _codec(encoding: str) -> str:
    """A Python codec's canonical name for *encoding*: a Python codec name, a WHATWG name, or
    this package's ``whatwg-<name>`` codec."""
    from scrapy_charset import lookup

    name = encoding.removeprefix("whatwg-")
    whatwg = lookup(name)
    if whatwg in _PYTHON_CODECS and (encoding.startswith("whatwg-") or name == whatwg):
        name = _PYTHON_CODECS[whatwg]
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name


def cause(site: Site, record: dict[str, Any]) -> str:
    """Why an item's text differs from the page's."""
    page = site.pages[record["index"]]
    title, text = site.expected(page)
    got = record["text"] or ""
    used = str(record.get("encoding") or "?")
    if record.get("repairs"):
        return f"item pipeline repaired correct text ({page.language})"
    if _codec(used) != _codec(page.codec):
        return f"decoded as {used}, page is {page.encoding} ({page.scenario})"
    if "\ufffd" in got and "\ufffd" not in text:
        return f"U+FFFD with the right encoding {page.encoding}"
    if record["title"] != title:
        return "title differs"
    return f"decoder differs on {page.encoding} ({page.scenario})"


def crawl_once(site: Site, mode: str, round_: int, args: argparse.Namespace, work: Path) -> Run:
    port = args.port
    config = {
        "mode": mode,
        "pages": len(site.pages),
        "base": f"http://127.0.0.1:{port}",
        "concurrency": args.concurrency,
        "every": args.sample_every,
        "expected": str(work / "expected.json"),
        "different": str(work / f"different-{mode}-{round_}.jsonl"),
        "result": str(work / f"result-{mode}-{round_}.json"),
        "profile": str(work / f"{mode}.prof") if args.profile == mode else None,
        "instructions": str(work / f"{mode}-{round_}.callgrind") if args.instructions else None,
    }
    config_path = work / f"config-{mode}-{round_}.json"
    config_path.write_text(json.dumps(config))
    before = server_cpu(port)
    command = [sys.executable, "-m", "benchmarks.crawl", "--child", str(config_path)]
    if config["instructions"]:
        command = [
            "valgrind",
            "--tool=callgrind",
            "--dump-before=getppid",
            f"--callgrind-out-file={config['instructions']}",
            *command,
        ]
    run = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=False,
    )
    after = server_cpu(port)
    if run.returncode != 0 or not Path(config["result"]).exists():
        raise SystemExit(f"the {mode} crawl failed:\n{run.stderr[-3000:]}")
    result = json.loads(Path(config["result"]).read_text())
    causes: Counter[str] = Counter()
    wrong: set[int] = set()
    with open(config["different"], encoding="utf-8") as different:
        for line in different:
            record = json.loads(line)
            wrong.add(record["index"])
            causes[cause(site, record)] += 1
    if config["profile"]:
        stats = pstats.Stats(config["profile"])
        print(f"\nProfile of the {mode} crawl (by internal time, then cumulative):")
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
        print(f"\nThe package's own functions in the {mode} crawl (cumulative):")
        stats.sort_stats("cumulative").print_stats("scrapy_charset", 30)
        print(_profile_summary(stats))
    return Run(
        mode=mode,
        round=round_,
        pages=len(site.pages),
        items=result["items"],
        differ=result["differ"],
        wall=result["wall"],
        cpu=result["cpu"],
        gc=result["gc"],
        server_cpu=after - before,
        memory=result["memory"],
        peak=result["peak"],
        causes=causes,
        wrong=wrong,
        instructions=_crawl_instructions(config["instructions"]),
    )


def _crawl_instructions(prefix: str | None) -> int | None:
    """The instructions callgrind counted between the spider's opening and its closing:
    its second part (the first ends at the opening)."""
    if prefix is None:
        return None
    return callgrind_count(Path(f"{prefix}.2"))


def _profile_summary(stats: pstats.Stats) -> str:
    """The crawl's time in the item pipeline, in the text check, and in the rest."""
    total: dict[str, float] = {}
    for (filename, _, function), row in stats.stats.items():  # type: ignore[attr-defined]
        key = f"{Path(filename).parent.name}/{Path(filename).name}:{function}"
        total[key] = max(total.get(key, 0.0), row[3])
    crawl = max(total.values())
    pipeline = total.get("items/pipeline.py:process_item", 0.0)
    check = total.get("items/textcheck.py:inspect_text", 0.0)
    middleware = total.get("responses/middleware.py:process_response", 0.0)
    return (
        f"\nOf {crawl:.1f} s: item pipeline {pipeline:.1f} s ({pipeline / crawl:.0%}), of "
        f"which inspect_text {check:.1f} s and the pipeline's own work "
        f"{pipeline - check:.2f} s; downloader middleware {middleware:.1f} s "
        f"({middleware / crawl:.0%})"
    )


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def report(site: Site, runs: list[Run], args: argparse.Namespace) -> None:
    mb = 1024 * 1024
    sizes = [sum(map(len, site.body(page))) for page in site.pages]
    mix = Counter(page.scenario for page in site.pages)
    print(
        f"\n{len(site.pages):,} pages, {sum(sizes) / 1e6:.0f} MB, "
        f"{min(sizes) / KB:.0f}-{max(sizes) / KB:.0f} KB (median "
        f"{_median(sizes) / KB:.0f} KB), {len({p.language for p in site.pages})} languages"
    )
    for name, count in mix.most_common():
        print(f"  {name:<22} {count / len(site.pages):6.1%}")
    print(
        "\n| run | mode | pages/s | CPU s / 1,000 pages | of which GC | server CPU (share of "
        "a core) | peak RSS | items | differ |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for run in runs:
        print(
            f"| {run.round} | {run.mode} | {run.rate:.1f} | {run.cpu_per_1000:.2f} "
            f"| {run.gc_per_1000:.2f} | {run.server_cpu:.2f} s ({run.server_cpu / run.wall:.1%}) "
            f"| {run.peak / mb:.0f} MB | {run.items:,} | {run.differ:,} |"
        )
    ran = {run.mode for run in runs}
    by_mode = {mode: [r for r in runs if r.mode == mode] for mode in MODES if mode in ran}
    plain_rate = _median([r.rate for r in by_mode["plain"]])
    plain_cpu = _median([r.cpu_per_1000 for r in by_mode["plain"]])
    print("\n| mode | pages/s (median) | vs plain | CPU s / 1,000 pages | vs plain | of which GC |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode, mode_runs in by_mode.items():
        rate = _median([r.rate for r in mode_runs])
        cpu = _median([r.cpu_per_1000 for r in mode_runs])
        collector = _median([r.gc_per_1000 for r in mode_runs])
        print(
            f"| {mode} | {rate:.1f} | {rate / plain_rate:.3f} | {cpu:.2f} | {cpu / plain_cpu:.3f} "
            f"| {collector:.2f} |"
        )
    if args.instructions:
        per_page = {
            mode: _median([r.instructions / r.items for r in mode_runs if r.instructions])
            for mode, mode_runs in by_mode.items()
        }
        print("\n| mode | instructions / page (median) | vs plain |")
        print("|---|---:|---:|")
        for mode, per in per_page.items():
            print(f"| {mode} | {per:,.0f} | {per / per_page['plain']:.3f} |")
    print(f"\nRSS every {args.sample_every:,} items (MB), last round:")
    for mode, mode_runs in by_mode.items():
        samples = " ".join(f"{m / mb:.0f}" for m in mode_runs[-1].memory)
        print(f"  {mode:<11} {samples}")
    print("\nItems whose text differs from the generated text, by cause (last round):")
    for mode, mode_runs in by_mode.items():
        last = mode_runs[-1]
        lost = last.pages - last.items
        print(f"  {mode}: {last.differ} differ, {lost} lost")
        for reason, count in last.causes.most_common():
            print(f"    {count:6}  {reason}")
    plain_wrong = set().union(*(r.wrong for r in by_mode["plain"]))
    for mode, mode_runs in by_mode.items():
        if mode == "plain":
            continue
        wrong = set().union(*(r.wrong for r in mode_runs))
        worse = wrong - plain_wrong
        fixed = plain_wrong - wrong
        print(
            f"\n{mode}: {len(worse)} pages wrong where plain Scrapy was right; "
            f"{len(fixed)} pages right where plain Scrapy was wrong"
        )
        for index in sorted(worse)[:10]:
            page = site.pages[index]
            print(f"    page {index}: {page.language}, {page.scenario}, {page.encoding}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--max-kb",
        type=int,
        default=MAX_SIZE // KB,
        help=f"the largest page, in KB (pages are {MIN_SIZE // KB} KB to this, log-uniform)",
    )
    parser.add_argument("--sample-every", type=int, default=1000, help="items between RSS samples")
    parser.add_argument("--profile", choices=MODES, help="profile this mode with cProfile")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count each crawl's instructions under callgrind (valgrind)",
    )
    parser.add_argument(
        "--modes",
        default=",".join(DEFAULT_MODES),
        help=f"comma-separated, among {', '.join(MODES)}; the summary needs plain",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    unknown = set(args.modes.split(",")) - set(MODES)
    if unknown:
        parser.error(f"unknown mode(s): {', '.join(sorted(unknown))}")
    if args.child:
        _child(args.child)
        return
    if args.max_kb * KB <= MIN_SIZE:
        parser.error(f"--max-kb must be more than {MIN_SIZE // KB}")
    started = time.perf_counter()
    site = Site(args.pages, args.seed, args.max_kb * KB)
    print(f"site built in {time.perf_counter() - started:.1f} s")
    context = get_context("spawn")
    ready = context.Queue()
    server = context.Process(
        target=_serve, args=(args.pages, args.seed, args.max_kb * KB, ready), daemon=True
    )
    server.start()
    while True:
        try:
            args.port = int(ready.get(timeout=1))
            break
        except queue.Empty:
            if not server.is_alive():
                raise SystemExit("the server failed to start") from None
    runs: list[Run] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            expected = [digest(*site.expected(page)) for page in site.pages]
            (work / "expected.json").write_text(json.dumps(expected))
            modes = [m for m in MODES if m in args.modes.split(",")]
            for round_ in range(1, args.rounds + 1):
                # Alternate the order: ABC, then CBA, so drift favours no mode.
                for mode in modes if round_ % 2 else modes[::-1]:
                    run = crawl_once(site, mode, round_, args, work)
                    print(
                        f"round {round_} {mode}: {run.rate:.1f} pages/s, "
                        f"{run.cpu_per_1000:.2f} CPU s / 1,000 pages, {run.differ} differ"
                        + (
                            f", {run.instructions / max(1, run.items):,.0f} instructions / page"
                            if run.instructions
                            else ""
                        ),
                        flush=True,
                    )
                    runs.append(run)
    finally:
        server.terminate()
        server.join(timeout=10)
    if any(run.mode == "plain" for run in runs):  # the baseline of every ratio
        report(site, runs, args)


if __name__ == "__main__":
    main()
