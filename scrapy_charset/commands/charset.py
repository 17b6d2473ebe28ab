"""``scrapy charset``: how the encoding of one response is decided, step by step.

    scrapy charset https://example.com/page
    scrapy charset --file page.html --content-type "text/html; charset=gb2312" --url https://example.cn/
    scrapy charset --json https://example.com/page
    scrapy charset audit .scrapy/httpcache crawl.warc.gz    (see audit.py)

Scrapy imports every ``scrapy.commands`` entry point on every ``scrapy`` invocation
(``scrapy version`` included), so this module imports only the standard library and
``scrapy.commands`` at load time; the rest of scrapy-charset loads when the command runs,
and an error there is reported by this command alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

__all__ = ["Command"]

_KINDS = ("html", "xml", "json", "text")


class Command(ScrapyCommand):
    requires_project = False
    #: The trail alone on the terminal, as ``scrapy fetch --nolog`` gives the body alone;
    #: ``-L LEVEL`` or ``--logfile`` turn the crawl log back on.
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False, "LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options] <url> | --file PATH | audit SOURCE..."

    def short_desc(self) -> str:
        return "Show how scrapy-charset decides the encoding of one response"

    def long_desc(self) -> str:
        return (
            "Fetch a URL with Scrapy's downloader (or read a file with --file) and print the "
            "HTTP status, the redirects, and the encoding decision trail: byte order mark, "
            "Content-Type charset, <meta> or XML declaration and its byte offset, UTF-8 "
            "validity, detection, the decision, what Scrapy alone would choose, a sample of "
            "the text where the two differ, and of damage (U+FFFD, mojibake) the text still "
            "holds. The crawl log is off; -L LEVEL turns it on. 'scrapy charset audit SOURCE...' "
            "does it for every response kept in Scrapy's HTTP cache or in WARC/WACZ files, "
            "and sums up where the text differs and where it is still damaged."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--file", metavar="PATH", help="read the body from a file")
        parser.add_argument(
            "--content-type", metavar="VALUE", help="the Content-Type header (with --file)"
        )
        parser.add_argument(
            "--url", metavar="URL", help="the response URL (with --file; a hint for detection)"
        )
        parser.add_argument("--kind", choices=_KINDS, help="force the rules for this kind")
        parser.add_argument(
            "--encoding", metavar="LABEL", help='force a label, as meta["charset_encoding"]'
        )
        parser.add_argument("--json", action="store_true", help="print the trail as JSON")
        parser.add_argument("--spider", help="fetch with this spider's settings")
        from scrapy_charset.commands import audit  # the standard library only

        audit.add_options(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from scrapy_charset.commands import audit  # the standard library only

        if args[:1] == ["audit"]:
            self.exitcode = audit.run(args[1:], opts, self.settings)
            return
        audit.check_not_used(opts)
        if len(args) == 1 and "://" not in args[0]:
            # As scrapy shell does: example.com/page is http://example.com/page, and a path
            # that exists is a file:// URL.
            from scrapy.utils.url import guess_scheme

            args = [guess_scheme(args[0])]
        body = self._check_arguments(args, opts)
        # Load the rest of scrapy-charset first: a broken install is reported before any
        # download.
        trail, config = self._explain()
        if trail is None:
            return
        if body is not None:
            url = opts.url or Path(opts.file).resolve().as_uri()
            self._report(trail, config, body, url, content_type=opts.content_type, opts=opts)
            return
        self._fetch(trail, config, args[0], opts)

    @staticmethod
    def _check_arguments(args: list[str], opts: argparse.Namespace) -> bytes | None:
        """Raise UsageError for wrong arguments; the body of ``--file``, if given."""
        if opts.file:
            if args:
                raise UsageError("give either a URL or --file, not both")
            if opts.url and "://" not in opts.url:
                raise UsageError(f"--url needs an absolute URL, not {opts.url!r}")
            try:
                return Path(opts.file).read_bytes()
            except OSError as exc:
                raise UsageError(f"cannot read {opts.file}: {exc.strerror}") from exc
        if len(args) != 1:
            raise UsageError("give one URL, or --file PATH")
        if "://" not in args[0]:
            raise UsageError(f"give an absolute URL, not {args[0]!r}")
        if opts.content_type or opts.url:
            raise UsageError("--content-type and --url go with --file")
        return None

    def _explain(self) -> tuple[Any, Any]:
        try:
            from scrapy_charset.commands import trail
            from scrapy_charset.responses.config import CharsetConfig, CharsetSettingsError
        except Exception as exc:
            print(
                f"scrapy charset: cannot load scrapy-charset ({type(exc).__name__}: {exc}). "
                "Reinstall it, or check the module named above.",
                file=sys.stderr,
            )
            self.exitcode = 1
            return None, None
        assert self.settings is not None
        try:  # the project's CHARSET_* settings, as the middleware reads them
            config = CharsetConfig.from_settings(self.settings)
        except CharsetSettingsError as exc:
            print(f"scrapy charset: {exc}", file=sys.stderr)
            self.exitcode = 1
            return None, None
        return trail, config

    @staticmethod
    def _report(
        trail: Any,
        config: Any,
        body: bytes,
        url: str,
        *,
        content_type: str | None,
        opts: argparse.Namespace,
        headers: Any = None,
        seen: dict[str, Any] | None = None,
        fetched: dict[str, Any] | None = None,
    ) -> None:
        found = trail.explain(
            body,
            url=url,
            content_type=content_type,
            headers=headers,
            kind=opts.kind,
            override=opts.encoding,
            config=config,
            **(fetched or {}),
        )
        if seen is not None:
            found["crawl_decision"] = seen
        if opts.json:
            json.dump(found, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            print(trail.render(found))
        sys.stdout.flush()

    def _fetch(self, trail: Any, config: Any, url: str, opts: argparse.Namespace) -> None:
        from scrapy import Request, Spider
        from scrapy.utils.datatypes import SequenceExclude
        from scrapy.utils.spider import DefaultSpider, spidercls_for_request

        got: dict[str, Any] = {}

        def keep(response: Any) -> None:
            got["response"] = response

        def failed(failure: Any) -> None:
            got["error"] = failure.value

        request = Request(url, callback=keep, errback=failed, dont_filter=True)
        request.meta["handle_httpstatus_list"] = SequenceExclude(range(300, 400))
        assert self.crawler_process is not None
        loader = self.crawler_process.spider_loader
        spidercls: type[Spider] = DefaultSpider
        if opts.spider:
            spidercls = loader.load(opts.spider)
        else:
            spidercls = spidercls_for_request(loader, request, spidercls)

        async def start(self: Spider) -> Any:
            yield request

        fetcher = type("CharsetFetch", (spidercls,), {"start": start})
        self.crawler_process.crawl(fetcher)
        self.crawler_process.start()
        if "response" not in got:
            error = got.get("error", "no response")
            print(f"scrapy charset: could not fetch {url}: {error}", file=sys.stderr)
            self.exitcode = 1
            return
        response = got["response"]
        seen = response.meta.get("charset")
        # RedirectMiddleware and MetaRefreshMiddleware record each hop: the URLs before
        # this one, and the status (or "meta refresh") that left each.
        hops = zip(
            response.meta.get("redirect_urls", []),
            response.meta.get("redirect_reasons", []),
            strict=False,
        )
        self._report(
            trail,
            config,
            response.body,
            response.url,
            content_type=None,  # from the headers
            headers=response.headers,
            opts=opts,
            seen=seen if isinstance(seen, dict) else None,
            fetched={"status": response.status, "redirects": list(hops)},
        )
