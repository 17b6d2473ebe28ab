"""``scrapy charset audit``: read every source, audit each response, sum up, write out.

The main process reads the sources one record at a time and hands batches of records to
worker processes, a bounded number of batches at a time; results come back in reading
order, so the summary and the JSONL files of a parallel run are those of a serial run.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO, Any

from scrapy_charset.audit.record import Auditor
from scrapy_charset.audit.sources import MAX_SIZE, Entry, Item, LeftAlone, Skip, read, total_size
from scrapy_charset.audit.summary import Summary
from scrapy_charset.responses.config import CharsetConfig

__all__ = ["Options", "audit"]

logger = logging.getLogger(__name__)

#: A batch holds at most this many records, or this many body bytes.
BATCH_RECORDS = 64
BATCH_BYTES = 4 * 1024 * 1024
#: Batches in flight per worker process.
IN_FLIGHT = 2


@dataclass(frozen=True)
class Options:
    config: CharsetConfig = field(default_factory=CharsetConfig)
    jobs: int = 1
    max_size: int = MAX_SIZE
    top: int = 10
    mojibake: bool = False
    text: bool = False
    progress: bool = False
    #: Keep samples of each kind of change, for the HTML report.
    samples: bool = False


def _whole(skip: Skip) -> str:
    """What a skip without a record leaves out: a truncated file's rest, else the source."""
    if skip.reason == "truncated":
        return "the rest of the file"
    return "the folder" if os.path.isdir(skip.source) else "the file"


# --- one batch, in a worker or in-process -------------------------------------------------

_auditor: Auditor | None = None


def _start_worker(config: CharsetConfig, text: bool, mojibake: bool) -> None:
    global _auditor
    # Plain Scrapy's detection (charset-normalizer) logs each guess at DEBUG.
    logging.getLogger("charset_normalizer").setLevel(logging.WARNING)
    _auditor = Auditor(config, text=text, mojibake=mojibake)


def _audit_batch(batch: list[Item]) -> list[Item | dict[str, Any]]:
    assert _auditor is not None
    out: list[Item | dict[str, Any]] = []
    for item in batch:
        if not isinstance(item, Entry):
            out.append(item)
            continue
        try:
            result = _auditor.audit(item.body, item.headers, item.url)
        except Exception as exc:  # reported as a skipped record, never the end of the audit
            out.append(Skip(item.source, item.record, "error", f"{type(exc).__name__}: {exc}"))
            continue
        result["source"] = item.source
        result["record"] = item.record
        result["date"] = item.date
        out.append(result)
    return out


def _batches(items: Iterable[Item]) -> Iterator[list[Item]]:
    batch: list[Item] = []
    size = 0
    for item in items:
        batch.append(item)
        if isinstance(item, Entry):
            size += len(item.body)
        if len(batch) >= BATCH_RECORDS or size >= BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _results(batches: Iterator[list[Item]], options: Options) -> Iterator[Item | dict[str, Any]]:
    if options.jobs <= 1:
        _start_worker(options.config, options.text, options.mojibake)
        for batch in batches:
            yield from _audit_batch(batch)
        return
    import multiprocessing

    # spawn: workers start clean whatever threads the main process runs (progress bar).
    with ProcessPoolExecutor(
        options.jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(options.config, options.text, options.mojibake),
    ) as pool:
        pending: deque[Future[list[Item | dict[str, Any]]]] = deque()
        for batch in batches:
            pending.append(pool.submit(_audit_batch, batch))
            if len(pending) >= options.jobs * IN_FLIGHT:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


# --- the audit ----------------------------------------------------------------------------


def _progress_bar(paths: list[str], enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(
        total=total_size(paths),
        unit="B",
        unit_scale=True,
        unit_divisor=1024,
        desc="audit",
        file=sys.stderr,
        dynamic_ncols=True,
    )


def audit(
    paths: list[str],
    options: Options,
    *,
    diff_out: IO[str] | None = None,
    text_out: IO[str] | None = None,
) -> Summary:
    """Audit every response stored in *paths*; write one JSON line per differing response
    to *diff_out* and its corrected text to *text_out*; return the totals."""
    summary = Summary(top=options.top, mojibake=options.mojibake, samples=options.samples)
    bar = _progress_bar(paths, options.progress)
    advance: Callable[[int], Any] | None = bar.update if bar is not None else None

    def items() -> Iterator[Item]:
        for path in paths:
            yield from read(path, max_size=options.max_size, progress=advance)

    warned: set[str] = set()
    try:
        for result in _results(_batches(items()), options):
            if isinstance(result, Skip):
                summary.skip(result.reason, result.source)
                if result.reason not in warned:
                    warned.add(result.reason)
                    logger.warning(
                        "%(source)s: %(record)s skipped (%(reason)s: %(detail)s); the audit "
                        "goes on. Logged once per reason; the summary counts every one.",
                        {
                            "source": result.source,
                            "record": result.record or _whole(result),
                            "reason": result.reason,
                            "detail": result.detail,
                        },
                    )
                continue
            if isinstance(result, LeftAlone):
                summary.leave(result.reason, result.source)
                continue
            assert isinstance(result, dict)
            summary.add(result)
            if bar is not None and summary.records % 64 == 0:
                bar.set_postfix(records=summary.records, differ=summary.differs, refresh=False)
            if result["left_alone"] is None and result["differs"]:
                _write(diff_out, text_out, result)
    finally:
        if bar is not None:
            bar.close()
    return summary


def _write(diff_out: IO[str] | None, text_out: IO[str] | None, result: dict[str, Any]) -> None:
    if diff_out is not None:
        line: dict[str, Any] = {
            "url": result["url"],
            "source": result["source"],
            "record": result["record"],
            "charset": result["charset"],
            "scrapy_encoding": result["scrapy_encoding"],
            "fffd": result["fffd"],
            "fffd_only": result["fffd_only"],
            "difference": result["difference"],
        }
        if "mojibake" in result:
            line["mojibake"] = result["mojibake"]
        diff_out.write(json.dumps(line, ensure_ascii=False) + "\n")
    if text_out is not None:
        text_out.write(
            json.dumps(
                {
                    "url": result["url"],
                    "source": result["source"],
                    "record": result["record"],
                    "encoding": result["encoding"],
                    "text": result["text"],
                },
                ensure_ascii=False,
            )
            + "\n"
        )
