"""One stored response audited: the middleware's text against plain Scrapy's.

:func:`audit_record` takes the bytes and headers of one response as it was stored (after
its ``Content-Encoding`` is removed), decides it with the function the middleware calls
in a crawl (:func:`scrapy_charset.responses.decide.decide`), builds the response the
spider would get (:func:`~scrapy_charset.responses.decide.rebuild`), and compares its text
with what plain Scrapy's ``TextResponse.text`` gives for the same bytes and headers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.http import Headers, TextResponse
from scrapy.responsetypes import responsetypes

from scrapy_charset.responses.config import CharsetConfig, CharsetSettingsError
from scrapy_charset.responses.decide import Skipped, decide, rebuild
from scrapy_charset.sniffing.detect import Detected, Detector, get_detector

if TYPE_CHECKING:
    HeadersLike = Headers | Mapping[Any, Any] | Iterable[tuple[Any, Any]] | None

__all__ = ["SAMPLE", "Auditor", "audit_record", "first_difference"]

#: Characters shown either side of the first difference.
SAMPLE = 40

#: Compared in blocks of this many characters before the character-by-character scan.
_BLOCK = 4096

_BOM = "\ufeff"
_FFFD = "\ufffd"


def first_difference(a: str, b: str) -> int | None:
    """The index of the first character where *a* and *b* differ, None if equal."""
    if a == b:
        return None
    end = min(len(a), len(b))
    start = 0
    while start < end and a[start : start + _BLOCK] == b[start : start + _BLOCK]:
        start += _BLOCK
    for index in range(start, min(start + _BLOCK, end)):
        if a[index] != b[index]:
            return index
    return end


def _sample(text: str, at: int) -> str:
    return text[max(0, at - SAMPLE) : at + SAMPLE]


def _host(url: str) -> str:
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


def _guarded(config: CharsetConfig) -> Detector | None:
    """The detector *config* names; a failure on one body lets the default decide it, as
    in a crawl (where the middleware also logs it once)."""
    try:
        found = get_detector(
            config.detector, window=config.detect_window, use_tld=config.detect_tld
        )
    except ValueError as exc:  # as the middleware reports it
        raise CharsetSettingsError(
            "CHARSET_DETECTOR", config.detector, "'default', 'none' or a detector name", str(exc)
        ) from None
    if found is None:
        return None
    detector: Detector = found

    def detect(body: bytes, url: str | None) -> Detected | None:
        try:
            return detector(body, url)
        except Exception:
            return None

    return detect


class Auditor:
    """Audits records one at a time, with one detector (one auditor per process).

    :param config: the ``CHARSET_*`` settings the middleware would read (detector, default
        encoding, skipped types); the defaults if None. ``CHARSET_ENABLED`` is ignored.
    :param text: put the corrected text of differing responses in the result (``"text"``).
    :param mojibake: run :func:`scrapy_charset.inspect_text` on the middleware's text and
        give the kind of mojibake it still carries (``"mojibake"``).
    """

    def __init__(
        self, config: CharsetConfig | None = None, *, text: bool = False, mojibake: bool = False
    ) -> None:
        self.config = dataclasses.replace(config or CharsetConfig(), enabled=True)
        self.detector = _guarded(self.config)
        self.text = text
        self.mojibake = mojibake
        self._inspect: Any = None
        if mojibake:
            from scrapy_charset.items.textcheck import inspect_text

            self._inspect = inspect_text

    def audit(self, body: bytes, headers: HeadersLike, url: str) -> dict[str, Any]:
        """The result for one response; see :func:`audit_record`."""
        scrapy_headers = headers if isinstance(headers, Headers) else Headers(headers or {})
        response_class = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
        plain = response_class(url=url, headers=scrapy_headers, body=body)
        try:
            request = Request(url)
        except ValueError:  # no scheme: the middleware reads only meta and method
            request = Request("http://invalid./")
        out: dict[str, Any] = {"url": url, "host": _host(url), "bytes": len(body)}
        outcome = decide(request, plain, self.config, detector=self.detector)
        if isinstance(outcome, Skipped):
            out["left_alone"] = outcome.reason
            return out
        try:
            new = rebuild(plain, outcome)
        except Exception:  # as the middleware: a class that cannot be rebuilt is left alone
            out["left_alone"] = "unsupported_class"
            return out
        if not isinstance(plain, TextResponse):
            # Scrapy made a plain Response (a UTF-16 body with a BOM and no type): its
            # own decoding of the bytes is what a TextResponse gives.
            plain = TextResponse(url=plain.url, headers=plain.headers, body=body)
        decision = outcome.decision.as_dict()
        text = new.text
        scrapy_text = plain.text
        out.update(
            kind=outcome.kind,
            left_alone=None,
            charset=decision,
            encoding=decision["encoding"],
            scrapy_encoding=plain.encoding,
            fffd={"scrapy": scrapy_text.count(_FFFD), "scrapy_charset": text.count(_FFFD)},
        )
        if out["fffd"]["scrapy_charset"]:
            first = text.index(_FFFD)
            out["fffd_sample"] = {"offset": first, "text": _sample(text, first)}
        ours = text[1:] if text.startswith(_BOM) else text
        theirs = scrapy_text[1:] if scrapy_text.startswith(_BOM) else scrapy_text
        at = first_difference(theirs, ours)
        out["differs"] = at is not None
        if at is None:
            out["fffd_only"] = False
            out["difference"] = None
        else:
            out["fffd_only"] = theirs.replace(_FFFD, "") == ours.replace(_FFFD, "")
            out["difference"] = {
                "offset": at,
                "scrapy": _sample(theirs, at),
                "scrapy_charset": _sample(ours, at),
            }
            if self.text:
                out["text"] = text
        if self._inspect is not None:
            found = self._inspect(text)
            out["mojibake"] = found.mojibake
            if found.mojibake is not None and found.repaired is not None:
                at = first_difference(text, found.repaired)
                if at is not None:
                    out["mojibake_sample"] = {
                        "offset": at,
                        "text": _sample(text, at),
                        "repaired": _sample(found.repaired, at),
                    }
        return out


_AUDITORS: dict[tuple[CharsetConfig, bool, bool], Auditor] = {}


def audit_record(
    body: bytes,
    headers: HeadersLike,
    url: str,
    *,
    config: CharsetConfig | None = None,
    text: bool = False,
    mojibake: bool = False,
) -> dict[str, Any]:
    """Audit one stored response: the middleware's decision and text against plain
    Scrapy's ``TextResponse.text`` for the same bytes and headers.

    :param body: the body as the spider would get it: after the ``Content-Encoding`` (gzip,
        br...) is removed, as ``HttpCompressionMiddleware`` does in a crawl.
    :param headers: the response headers: Scrapy ``Headers``, a mapping, or (name, value)
        pairs (str or bytes), as a WARC reader gives them.
    :param url: the response URL (its top-level domain is a hint for detection).

    The result is a JSON-safe dict: ``url``, ``host``, ``bytes``, and ``left_alone`` (the
    middleware's reason for leaving a response alone: ``not_text``, ``content_type``,
    ``empty``...). For a decoded response, ``left_alone`` is None and it also has
    ``kind``, ``charset`` (the decision, as in ``response.meta["charset"]``), ``encoding``
    (its encoding), ``scrapy_encoding``, ``fffd`` (U+FFFD counts in both texts, with
    ``fffd_sample``, the first U+FFFD of the middleware's text and up to :data:`SAMPLE`
    characters either side, when it has one), ``differs``
    (the texts differ, a leading U+FEFF aside), ``fffd_only`` (they differ by U+FFFD
    only) and ``difference`` (the first differing character's offset and up to
    :data:`SAMPLE` characters either side in both texts, or None); ``text`` (the
    middleware's text, when *text* is true and the texts differ) and ``mojibake`` (the
    kind of mojibake :func:`scrapy_charset.inspect_text` finds in it, when *mojibake* is
    true; with ``mojibake_sample``, the first character its repair changes and up to
    :data:`SAMPLE` characters either side, before and after, when it can be repaired).

        >>> from scrapy_charset import audit_record
        >>> body = '{"name": "C\u00f4te d\u2019Ivoire"}'.encode()
        >>> found = audit_record(
        ...     body, {"Content-Type": "application/json; charset=iso-8859-1"}, "https://example.ci/"
        ... )
        >>> found["encoding"], found["scrapy_encoding"], found["differs"]
        ('UTF-8', 'cp1252', True)
    """
    key = (config or CharsetConfig(), text, mojibake)
    auditor = _AUDITORS.get(key)
    if auditor is None:
        auditor = _AUDITORS[key] = Auditor(key[0], text=text, mojibake=mojibake)
    return auditor.audit(body, headers, url)
