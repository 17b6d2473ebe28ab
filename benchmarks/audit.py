"""``scrapy charset audit``: throughput and memory on a generated WARC archive.

Run: ``python -m benchmarks.audit`` (10,240 records, over 500 MB of bodies, by
default; ``--records N --mean-kb K`` to change; the archive is written to a temporary
folder and removed). The records are the demo site's pages (pycountry's text in fifteen
encodings and declaration styles, one gzip-compressed, one image) grown to 8-128 KB by
repeating their list items.

In one run, over the same records:

- reading alone (warcio: gzip, HTTP headers, Content-Encoding), the floor of any audit;
- reading + ``bytes.decode`` (UTF-8, replacing errors): the decoding floor;
- reading + plain Scrapy (``responsetypes`` and ``TextResponse.text``);
- ``scrapy charset audit --no-mojibake`` with ``--jobs 1`` and ``--jobs 2``, each in a
  fresh process, its peak resident memory (RSS) included: the decoding alone, without the
  mojibake check the command runs by default;
- the cost of the HTML report: ``--json`` against ``--json --html FILE`` (``--jobs 1``),
  alternating, ``--html-rounds`` times each (default 3; 0 to skip), as the ratio of the
  median CPU and wall-clock times, with the page's size and both peak RSS.

MB/s counts the decoded body bytes. "Per core" divides by the CPU time used (all
processes of a run), which stays meaningful on a busy machine where wall-clock time does
not; the command's CPU time includes starting Python and Scrapy in each process.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from io import BytesIO
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "example_project"))

from example_project.demo_site import DemoPage, pages  # noqa: E402

#: Body sizes in KB, in turn (mean 49.6 KB).
SIZES_KB = (8, 16, 32, 64, 128)
#: Where a page's repeated part starts and ends, per kind of page.
_REPEATED = (
    (b"<li>", b"</ul>"),
    (b"<item>", b"</channel>"),
    (b'"currencies": [', b"]}"),
)


def _grow(body: bytes, size: int) -> bytes:
    """*body* with its list items repeated until it is about *size* bytes long."""
    for start_tag, end_tag in _REPEATED:
        start, end = body.find(start_tag), body.rfind(end_tag)
        if 0 <= start < end:
            if start_tag.startswith(b'"'):
                start += len(start_tag)
                middle = body[start:end] + b", "
                middle_end = end
            else:
                middle, middle_end = body[start:end], end
            copies = max(1, (size - len(body)) // max(1, len(middle)) + 1)
            grown = body[:start] + middle * copies + body[middle_end:]
            if start_tag.startswith(b'"'):  # a JSON list: no trailing comma
                grown = body[:start] + (middle * copies)[:-2] + body[middle_end:]
            return grown
    return body  # the image: kept as it is


def _record(page: DemoPage, size: int) -> tuple[bytes, list[tuple[str, str]]]:
    body = page.body
    gzipped = page.headers.get("Content-Encoding") == "gzip"
    if gzipped:
        body = gzip.decompress(body)
    body = _grow(body, size)
    if gzipped:
        body = gzip.compress(body, compresslevel=1, mtime=0)
    headers = [*page.headers.items(), ("Content-Length", str(len(body)))]
    return body, headers


def generate(path: Path, records: int, mean_kb: float) -> int:
    """Write the archive; the total of the body bytes (decoded)."""
    scale = mean_kb / (sum(SIZES_KB) / len(SIZES_KB))
    demo = pages()
    variants = {
        (index, size): _record(page, int(size * 1024 * scale))
        for index, page in enumerate(demo)
        for size in SIZES_KB
    }
    total = 0
    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for n in range(records):
            index, size = n % len(demo), SIZES_KB[(n // len(demo)) % len(SIZES_KB)]
            page = demo[index]
            body, headers = variants[index, size]
            host = page.host or f"site{n % 97}.example"
            url = f"http://{host}{page.path}?n={n}"
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            record = writer.create_warc_record(
                url, "response", payload=BytesIO(body), length=len(body), http_headers=http
            )
            writer.write_record(record)
            total += (
                len(gzip.decompress(body)) if page.headers.get("Content-Encoding") else len(body)
            )
    return total


def _responses(path: Path) -> Iterator[tuple[bytes, list[tuple[str, str]], str]]:
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type == "response":
                yield (
                    record.content_stream().read(),
                    record.http_headers.headers,
                    record.rec_headers.get_header("WARC-Target-URI"),
                )


def _timed(
    path: Path, work: Callable[[bytes, list[tuple[str, str]], str], object]
) -> tuple[float, float]:
    """Wall-clock and CPU seconds."""
    start, cpu = time.perf_counter(), time.process_time()
    for body, headers, url in _responses(path):
        work(body, headers, url)
    return time.perf_counter() - start, time.process_time() - cpu


def _read_only(body: bytes, headers: list[tuple[str, str]], url: str) -> None:
    pass


def _decode_floor(body: bytes, headers: list[tuple[str, str]], url: str) -> None:
    body.decode("utf-8", "replace")


def _plain_scrapy(body: bytes, headers: list[tuple[str, str]], url: str) -> None:
    from scrapy.http import Headers, TextResponse
    from scrapy.responsetypes import responsetypes

    scrapy_headers = Headers(headers)
    cls = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
    response = cls(url=url, headers=scrapy_headers, body=body)
    if isinstance(response, TextResponse):
        response.text  # noqa: B018 - the decoding is the work


def _command(path: Path, jobs: int, *more: str) -> tuple[float, float, int, dict[str, object]]:
    """``scrapy charset audit`` in a fresh process: wall-clock and CPU seconds (its worker
    processes included), peak RSS (KB), summary."""
    code = (
        "import resource, subprocess, sys, time\n"
        "start = time.perf_counter()\n"
        "out = subprocess.run([sys.executable, '-m', 'scrapy', 'charset', 'audit', '--json',\n"
        "    '--no-mojibake',\n"
        f"    '--jobs', '{jobs}', *{list(more)!r}, {str(path)!r}], capture_output=True,\n"
        "    text=True)\n"
        "elapsed = time.perf_counter() - start\n"
        "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "sys.stderr.write(out.stderr)\n"
        "print(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)\n"
        "print(out.stdout)\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    first, _, rest = result.stdout.partition("\n")
    elapsed, cpu, peak = first.split()
    return float(elapsed), float(cpu), int(peak), json.loads(rest)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--records", type=int, default=10_240)
    parser.add_argument("--mean-kb", type=float, default=53.0, help="mean body size (KB)")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2])
    parser.add_argument(
        "--html-rounds", type=int, default=3, help="runs each of --json and --json --html"
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.warc.gz"
        start = time.perf_counter()
        body_bytes = generate(path, args.records, args.mean_kb)
        print(
            f"archive: {args.records:,} records, {body_bytes / 1e6:,.0f} MB of bodies, "
            f"{path.stat().st_size / 1e6:,.1f} MB gzipped WARC "
            f"(written in {time.perf_counter() - start:.0f} s)"
        )
        mb = body_bytes / 1e6
        rows: list[tuple[str, float, float]] = []
        for name, work in (
            ("read (warcio)", _read_only),
            ("read + bytes.decode", _decode_floor),
            ("read + plain Scrapy .text", _plain_scrapy),
        ):
            rows.append((name, *_timed(path, work)))
        peaks = {}
        for jobs in args.jobs:
            elapsed, cpu, peak, summary = _command(path, jobs)
            assert summary["records"] == args.records, summary
            rows.append((f"scrapy charset audit --no-mojibake --jobs {jobs}", elapsed, cpu))
            peaks[jobs] = peak
        # Per core: per CPU-second, which a busy machine does not skew.
        plain = next(cpu for name, _, cpu in rows if "plain" in name)
        print(
            f"{'':<34} {'wall s':>7} {'MB/s':>7} {'rec/s':>7} {'CPU s':>7} "
            f"{'MB/s/core':>10} {'rec/s/core':>11} {'CPU vs Scrapy':>14}"
        )
        for name, seconds, cpu in rows:
            print(
                f"{name:<34} {seconds:>7.1f} {mb / seconds:>7.1f} {args.records / seconds:>7.0f} "
                f"{cpu:>7.1f} {mb / cpu:>10.1f} {args.records / cpu:>11.0f} {cpu / plain:>13.2f}x"
            )
        for jobs, peak in peaks.items():
            print(f"peak RSS, --jobs {jobs}: {peak / 1024:.0f} MB (largest process)")
        print(f"differs: {summary['differs']}, U+FFFD only: {summary['differs_fffd_only']}")
        if args.html_rounds:
            _html_cost(path, args.html_rounds, Path(folder) / "report.html")
        print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


def _html_cost(path: Path, rounds: int, page: Path) -> None:
    """``--json`` and ``--json --html``, alternating; the ratio of the medians."""
    import statistics

    times: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    peaks: dict[bool, int] = {False: 0, True: 0}
    reference: dict[str, object] = {}
    for _ in range(rounds):
        for html in (False, True):
            more = ("--html", str(page)) if html else ()
            elapsed, used, peak, summary = _command(path, 1, *more)
            times[html].append((elapsed, used))
            peaks[html] = max(peaks[html], peak)
            if html:
                assert summary == reference, "--html changed the --json output"
            else:
                reference = summary
    wall = [statistics.median(t for t, _ in times[html]) for html in (False, True)]
    cpu = [statistics.median(c for _, c in times[html]) for html in (False, True)]
    print(
        f"--html over --json (--jobs 1, {rounds} alternating runs each, medians): "
        f"CPU {cpu[1]:.1f} s / {cpu[0]:.1f} s = {cpu[1] / cpu[0]:.3f}x, "
        f"wall {wall[1]:.1f} s / {wall[0]:.1f} s = {wall[1] / wall[0]:.3f}x; "
        f"page {page.stat().st_size / 1024:.0f} KB; peak RSS {peaks[True] / 1024:.0f} MB "
        f"against {peaks[False] / 1024:.0f} MB"
    )


if __name__ == "__main__":
    main()
