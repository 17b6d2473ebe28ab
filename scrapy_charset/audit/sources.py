"""Stored responses, read one at a time: WARC and WACZ archives, Scrapy's HTTP cache.

- WARC files (ISO 28500; ``.warc``, ``.warc.gz``) are read with warcio, whose content
  stream removes the ``Transfer-Encoding`` and ``Content-Encoding`` of the HTTP payload.
  A WACZ file is a ZIP whose ``archive/`` folder holds WARC files.
- Scrapy's HTTP cache is read with Scrapy's own storage classes
  (``FilesystemCacheStorage``, gzipped or not, and ``DbmCacheStorage``), then passed
  through Scrapy's ``HttpCompressionMiddleware``, as a cache hit is in a crawl.

Each reader yields :class:`Entry` (a response to audit), :class:`LeftAlone` (a response
record with nothing to decode) or :class:`Skip` (input that cannot be read: a truncated
archive, a broken HTTP header block, a cache entry without metadata, a record over the
size limit); a damaged record never stops the reading of the records after it.
"""

from __future__ import annotations

import contextlib
import dbm
import inspect
import os
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = ["SKIP_REASONS", "Entry", "LeftAlone", "Skip", "describe", "read", "total_size"]

#: Why a stored response could not be audited; the keys of the summary's ``skipped``.
SKIP_REASONS = (
    "truncated",  # the archive ends (or its compression breaks) inside a record
    "not_warc",  # not a WARC, WACZ or HTTP cache at all
    "broken_http_headers",  # a response record whose HTTP status line or headers are broken
    "no_metadata",  # an HTTP cache entry without its metadata (an interrupted write)
    "too_large",  # a record over the size limit (--max-size)
    "unreadable",  # a file or cache entry that cannot be read (I/O, pickle or ZIP error)
    "error",  # an internal error while auditing the record
)

#: Response records that carry no body to decode (``revisit``: a duplicate stored by
#: reference; ``not_http``: a response record that is not HTTP, such as ``dns:``).
LEFT_ALONE_READING = ("revisit", "not_http")


@dataclass(frozen=True, slots=True)
class Entry:
    """One stored response: the body after its Content-Encoding, as the spider gets it."""

    source: str  # the file or cache folder, as given
    record: str  # the WARC-Record-ID, or the cache entry (path or DBM key)
    url: str
    headers: list[tuple[bytes, bytes]]
    body: bytes
    date: str | None = None  # when it was stored: the WARC-Date, or the cache's timestamp


@dataclass(frozen=True, slots=True)
class LeftAlone:
    source: str
    record: str
    url: str
    reason: str


@dataclass(frozen=True, slots=True)
class Skip:
    source: str
    record: str | None
    reason: str
    detail: str


Item = Entry | LeftAlone | Skip

#: Default limit on the size of one stored response (bytes, compressed and decoded).
MAX_SIZE = 64 * 1024 * 1024

_HTTP_VERSIONS = ["HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "HTTP/2", "HTTP/3"]

_WARC_NAMES = (".warc", ".warc.gz")


def total_size(paths: list[str]) -> int:
    """The bytes the readers go through (for the progress bar)."""
    total = 0
    for path in paths:
        if os.path.isdir(path):
            for folder, _, files in os.walk(path):
                for name in files:
                    with contextlib.suppress(OSError):
                        total += os.path.getsize(os.path.join(folder, name))
        else:
            with contextlib.suppress(OSError):
                total += os.path.getsize(path)
    return total


def describe(path: str) -> str:
    """``warc``, ``wacz``, ``cache`` or ``unknown``."""
    if os.path.isdir(path):
        return "cache"
    name = path.lower()
    if name.endswith(".wacz"):
        return "wacz"
    if name.endswith(_WARC_NAMES):
        return "warc"
    return "unknown"


def read(path: str, *, max_size: int = MAX_SIZE, progress: Any = None) -> Iterator[Item]:
    """Every stored response in *path*, in storage order. *progress* (optional) is called
    with the number of input bytes consumed since its last call."""
    kind = describe(path)
    if kind == "warc":
        yield from _read_warc_file(path, max_size, progress)
    elif kind == "wacz":
        yield from _read_wacz(path, max_size, progress)
    elif kind == "cache":
        yield from _read_cache(path, max_size, progress)
    else:
        yield Skip(path, None, "not_warc", "a file whose name is not .warc, .warc.gz or .wacz")


# --- WARC -------------------------------------------------------------------------------


class _Counting:
    """A read-only stream that reports how many bytes were read through it."""

    def __init__(self, raw: IO[bytes], progress: Any) -> None:
        self._raw = raw
        self._progress = progress

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        if self._progress is not None and data:
            self._progress(len(data))
        return data

    def readline(self, size: int = -1) -> bytes:
        data = self._raw.readline(size)
        if self._progress is not None and data:
            self._progress(len(data))
        return data

    def tell(self) -> int:
        return self._raw.tell()


def _read_warc_file(path: str, max_size: int, progress: Any) -> Iterator[Item]:
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below, also when abandoned
    except OSError as exc:
        yield Skip(path, None, "unreadable", f"{type(exc).__name__}: {exc}")
        return
    with stream:
        yield from _read_warc(path, "", _Counting(stream, progress), max_size)


def _read_wacz(path: str, max_size: int, progress: Any) -> Iterator[Item]:
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        yield Skip(path, None, "unreadable", f"{type(exc).__name__}: {exc}")
        return
    with archive:
        names = sorted(
            info.filename
            for info in archive.infolist()
            if info.filename.startswith("archive/") and info.filename.lower().endswith(_WARC_NAMES)
        )
        if not names:
            yield Skip(path, None, "not_warc", "a ZIP without WARC files under archive/")
        for name in names:
            try:
                member = archive.open(name)
            except (OSError, zipfile.BadZipFile, zlib.error) as exc:
                yield Skip(path, name, "unreadable", f"{type(exc).__name__}: {exc}")
                continue
            with member:
                yield from _read_warc(path, name + "#", _Counting(member, progress), max_size)


def _archive_iterator() -> Any:
    from warcio.archiveiterator import ArchiveIterator

    class Records(ArchiveIterator):  # type: ignore[misc]
        """warcio's iterator, noting whether the file ended inside a gzip member."""

        ended_inside_gzip = False

        def close(self) -> None:
            decompressor = getattr(self.reader, "decompressor", None)
            if decompressor is not None and not getattr(decompressor, "eof", True):
                self.ended_inside_gzip = True
            super().close()

    return Records


def _ends_early(record: Any) -> bool:
    """Read the rest of *record*: True when the file ends before the record does."""
    stream = record.raw_stream
    while stream.read(1 << 16):
        pass
    return bool(getattr(stream, "limit", 0) > 0)


def _read_warc(source: str, prefix: str, stream: Any, max_size: int) -> Iterator[Item]:
    from warcio.exceptions import ArchiveLoadFailed
    from warcio.statusandheaders import StatusAndHeadersParser, StatusAndHeadersParserException

    # Browser-based crawlers record HTTP/2 and HTTP/3 responses as such.
    http_parser = StatusAndHeadersParser(_HTTP_VERSIONS, verify=True)
    records = _archive_iterator()(stream, no_record_parse=True)
    where: str | None = None
    broken: Skip | None = None
    try:
        for record in records:
            if broken is not None:
                yield broken
                broken = None
            if record.format != "warc":  # warcio reads any first line as an ARC header
                yield Skip(source, None, "not_warc", "not a WARC file")
                return
            if record.rec_type not in ("response", "revisit"):
                continue
            where = prefix + (record.rec_headers.get_header("WARC-Record-ID") or "")
            url = record.rec_headers.get_header("WARC-Target-URI") or ""
            if record.rec_type == "revisit":
                yield LeftAlone(source, where, url, "revisit")
                continue
            if not (record.content_type or "").startswith("application/http"):
                yield LeftAlone(source, where, url, "not_http")
                continue
            if record.rec_headers.get_header("Content-Length") is None:
                # Every WARC record has one (ISO 28500, 5.3): the file ends in the headers.
                yield Skip(source, where, "truncated", "the file ends inside this record")
                return
            length = record.length or 0
            if length > max_size:
                yield Skip(source, where, "too_large", f"{length} bytes > {max_size}")
                continue
            try:
                found = http_parser.parse(record.raw_stream)
                status = found.statusline.split(" ", 1)[0]
                if not (len(status) == 3 and status.isdigit()):
                    raise StatusAndHeadersParserException(
                        f"no status code in {found.statusline!r}", found.statusline
                    )
            except (StatusAndHeadersParserException, EOFError, UnicodeError) as exc:
                if _ends_early(record):
                    yield Skip(source, where, "truncated", "the file ends inside this record")
                    return
                # Held back: when the file ends right after it, the record was cut short.
                broken = Skip(source, where, "broken_http_headers", (str(exc) or "empty")[:200])
                continue
            record.http_headers = found
            body = record.content_stream().read(max_size + 1)
            if len(body) > max_size:
                yield Skip(source, where, "too_large", f"more than {max_size} bytes decoded")
                continue
            if _ends_early(record):
                yield Skip(source, where, "truncated", "the file ends inside this record")
                return
            headers = [
                (_header_bytes(name), _header_bytes(value))
                for name, value in found.headers
                if name.lower() not in ("content-encoding", "transfer-encoding")
                or not _decoded_by_warcio(name, value)
            ]
            date = record.rec_headers.get_header("WARC-Date")
            yield Entry(source, where, url, headers, body, date)
    except (ArchiveLoadFailed, EOFError, OSError, zlib.error, ValueError) as exc:
        detail = f"{type(exc).__name__}: {exc}"[:200]
        reason = "not_warc" if where is None and isinstance(exc, ArchiveLoadFailed) else "truncated"
        yield Skip(source, where, reason, detail)
        return
    if records.ended_inside_gzip:
        cut = broken.record if broken is not None else None
        yield Skip(source, cut, "truncated", "the file ends inside a gzip member")
    elif broken is not None:
        yield broken


def _header_bytes(value: str) -> bytes:
    """A header as bytes again: warcio decodes a header line as UTF-8, else ISO-8859-1."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape")


def _decoded_by_warcio(name: str, value: str) -> bool:
    """Whether warcio's content stream removed this ``Transfer-Encoding`` (chunked) or
    ``Content-Encoding`` (the compressions it supports)."""
    from warcio.bufferedreaders import BufferedReader

    value = value.strip().lower()
    if name.lower() == "transfer-encoding":
        return value == "chunked"
    return value in BufferedReader.get_supported_decompressors()


# --- Scrapy's HTTP cache ------------------------------------------------------------------

_KEY = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


class KeyFingerprinter:
    """Scrapy's storages find an entry by the request fingerprint; the audit walks the
    entries, so the fingerprint is the entry's key, carried in the request's meta. The
    storages get it the public way: ``REQUEST_FINGERPRINTER_CLASS`` names it, the crawler
    builds it, and ``open_spider`` takes it from ``spider.crawler``."""

    @classmethod
    def from_crawler(cls, crawler: Any) -> KeyFingerprinter:
        return cls()

    def fingerprint(self, request: Any) -> bytes:
        return bytes.fromhex(request.meta["audit_cache_key"])


def _spider(name: str) -> Any:
    """A spider named *name* on a crawler that is never started, whose request
    fingerprinter is :class:`KeyFingerprinter`."""
    from scrapy import Spider

    from scrapy_charset._scrapy_compat import unstarted_crawler

    crawler = unstarted_crawler(
        {"REQUEST_FINGERPRINTER_CLASS": f"{__name__}.{KeyFingerprinter.__qualname__}"}
    )
    return Spider.from_crawler(crawler, name=name)


def _is_spider_folder(folder: Path) -> bool:
    """A filesystem storage's spider folder: ``<fingerprint[:2]>/<fingerprint>/`` inside."""
    return folder.is_dir() and any(
        len(shard.name) == 2
        and shard.is_dir()
        and any(_KEY.fullmatch(e.name) for e in shard.iterdir())
        for shard in folder.iterdir()
    )


def _cache_parts(path: str) -> list[tuple[str, str, str]]:
    """``(kind, cache folder, spider name)`` for each spider folder of the filesystem
    storage (``filesystem``) and DBM file (``dbm``) in *path*, which is the cache folder
    (``HTTPCACHE_DIR``) or one spider's folder in it."""
    folder = Path(path).resolve()
    if _is_spider_folder(folder):
        return [("filesystem", str(folder.parent), folder.name)]
    parts: list[tuple[str, str, str]] = []
    for child in sorted(folder.iterdir()):
        if _is_spider_folder(child):
            parts.append(("filesystem", str(folder), child.name))
        elif child.is_file() and ".db" in child.name:
            part = ("dbm", str(folder), child.name[: child.name.index(".db")])
            if part not in parts and dbm.whichdb(str(folder / f"{part[2]}.db")):
                parts.append(part)
    return parts


def _read_cache(path: str, max_size: int, progress: Any) -> Iterator[Item]:
    from scrapy import Request
    from scrapy.exceptions import IgnoreRequest
    from scrapy.settings import Settings

    try:
        parts = _cache_parts(path)
    except OSError as exc:
        yield Skip(path, None, "unreadable", f"{type(exc).__name__}: {exc}")
        return
    if not parts:
        yield Skip(
            path, None, "not_warc", "a folder with no Scrapy HTTP cache (HTTPCACHE_DIR) in it"
        )
        return
    decompress = _Decompression()
    for kind, cachedir, name in parts:
        settings = Settings({"HTTPCACHE_DIR": cachedir, "HTTPCACHE_EXPIRATION_SECS": 0})
        spider = _spider(name)
        if kind == "filesystem":
            entries = _filesystem(path, cachedir, name, settings, spider, max_size, progress)
        else:
            entries = _dbm(path, cachedir, name, settings, spider, max_size, progress)
        for found in entries:
            if isinstance(found, tuple):
                where, response, stored = found
                if response is None:
                    yield Skip(path, where, "no_metadata", "a cache entry without metadata")
                    continue
                try:
                    request = Request(response.url, meta={"download_maxsize": max_size})
                except ValueError:
                    request = Request("http://invalid./", meta={"download_maxsize": max_size})
                try:
                    response = decompress(request, response)
                except IgnoreRequest:  # decompressed past the limit
                    yield Skip(path, where, "too_large", f"more than {max_size} bytes decoded")
                    continue
                except Exception as exc:
                    yield Skip(path, where, "unreadable", f"{type(exc).__name__}: {exc}")
                    continue
                if len(response.body) > max_size:
                    yield Skip(path, where, "too_large", f"{len(response.body)} bytes")
                    continue
                headers = [
                    (key, value) for key, values in response.headers.items() for value in values
                ]
                yield Entry(path, where, response.url, headers, response.body, _date(stored))
            else:
                yield found


def _filesystem(  # noqa: PLR0917
    path: str,
    cachedir: str,
    name: str,
    settings: Any,
    spider: Any,
    max_size: int,
    progress: Any,
) -> Iterator[Item | tuple[str, Any, Any]]:
    from scrapy import Request
    from scrapy.extensions.httpcache import FilesystemCacheStorage

    # Scrapy writes the cache gzipped when HTTPCACHE_GZIP is set: one storage a setting,
    # and each entry read by the storage with the setting it was written with.
    storages = {}
    for gzipped in (False, True):
        own = settings.copy()
        own.set("HTTPCACHE_GZIP", gzipped)
        storages[gzipped] = FilesystemCacheStorage(own)
        storages[gzipped].open_spider(spider)
    folder = Path(cachedir, name)
    for shard in sorted(folder.iterdir()):
        if not shard.is_dir():
            continue
        for entry in sorted(shard.iterdir()):
            if not (entry.is_dir() and _KEY.fullmatch(entry.name)):
                continue
            where = f"{name}/{shard.name}/{entry.name}"
            size = _size(entry)
            if progress is not None:
                progress(size)
            if size > max_size:
                yield Skip(path, where, "too_large", f"{size} bytes")
                continue
            request = Request("http://audit.invalid/", meta={"audit_cache_key": entry.name})
            try:
                response = storages[_gzipped(entry)].retrieve_response(spider, request)
            except Exception as exc:
                yield Skip(path, where, "unreadable", f"{type(exc).__name__}: {exc}")
                continue
            yield where, response, request.meta.get("cache_timestamp")


def _date(timestamp: Any) -> str | None:
    """The cache's timestamp (seconds since the epoch) as an ISO 8601 UTC time."""
    import datetime

    try:
        when = datetime.datetime.fromtimestamp(float(timestamp), datetime.timezone.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        return None
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _size(folder: Path) -> int:
    total = 0
    for child in folder.iterdir():
        with contextlib.suppress(OSError):
            total += child.stat().st_size
    return total


def _gzipped(entry: Path) -> bool:
    """Whether the cache entry was written with ``HTTPCACHE_GZIP``."""
    meta = entry / "pickled_meta"
    try:
        with open(meta, "rb") as stream:
            return stream.read(2) == b"\x1f\x8b"
    except OSError:
        return False


def _dbm(  # noqa: PLR0917
    path: str,
    cachedir: str,
    name: str,
    settings: Any,
    spider: Any,
    max_size: int,
    progress: Any,
) -> Iterator[Item | tuple[str, Any, Any]]:
    from scrapy import Request
    from scrapy.extensions.httpcache import DbmCacheStorage

    # The storage opens the database with the module HTTPCACHE_DBM_MODULE names: the
    # audit's opens it read-only, whatever flag the storage asks for.
    own = settings.copy()
    own.set("HTTPCACHE_DBM_MODULE", "scrapy_charset.audit.readonly_dbm")
    storage = DbmCacheStorage(own)
    try:
        storage.open_spider(spider)
    except Exception as exc:
        yield Skip(path, f"{name}.db", "unreadable", f"{type(exc).__name__}: {exc}")
        return
    try:
        keys = sorted(
            key.decode("latin-1") if isinstance(key, bytes) else key
            for key in storage.db.keys()  # noqa: SIM118 - not every dbm iterates
        )
        for key in keys:
            if not key.endswith("_data"):
                continue
            fingerprint = key[: -len("_data")]
            where = f"{name}.db#{fingerprint}"
            if not _KEY.fullmatch(fingerprint):
                continue
            try:
                size = len(storage.db[key])
                if progress is not None:
                    progress(size)
                if size > max_size:
                    yield Skip(path, where, "too_large", f"{size} bytes")
                    continue
                request = Request("http://audit.invalid/", meta={"audit_cache_key": fingerprint})
                response = storage.retrieve_response(spider, request)
            except Exception as exc:
                yield Skip(path, where, "unreadable", f"{type(exc).__name__}: {exc}")
                continue
            yield where, response, request.meta.get("cache_timestamp")
    finally:
        storage.close_spider(spider)


class _Decompression:
    """Scrapy's ``HttpCompressionMiddleware``: the cache keeps bodies as downloaded."""

    def __init__(self) -> None:
        from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware

        from scrapy_charset._scrapy_compat import unstarted_crawler

        self._middleware = HttpCompressionMiddleware.from_crawler(unstarted_crawler())
        spider = inspect.signature(self._middleware.process_response).parameters.get("spider")
        # Scrapy 2.13 needs the spider argument; later versions deprecate it.
        self._spider_needed = spider is not None and spider.default is inspect.Parameter.empty

    def __call__(self, request: Any, response: Any) -> Any:
        if self._spider_needed:
            return self._middleware.process_response(request, response, None)
        return self._middleware.process_response(request, response)
