"""``scrapy charset audit SOURCE...``: the options, and the run.

    scrapy charset audit .scrapy/httpcache crawl-*.warc.gz
    scrapy charset audit --json --diff-out differ.jsonl --text-out text.jsonl site.wacz
    scrapy charset audit --html report.html crawl-*.warc.gz

Imported by ``charset.py`` when its options are built: the standard library only, at
load time; the audit itself (:mod:`scrapy_charset.audit`) loads when it runs.

Exit status: 0 when every stored response was read, 1 when some were skipped (or the
package cannot load), 2 for wrong arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

__all__ = ["add_options", "check_not_used", "run"]

#: The audit's options, as argparse stores them, with their defaults.
_OPTIONS = {
    "diff_out": None,
    "text_out": None,
    "mojibake": True,
    "jobs": None,
    "top": 10,
    "max_size": None,
    "html": None,
    "html_hosts": None,
}

#: Exit status when some stored responses could not be read.
SKIPPED = 1


def _size(value: str) -> int:
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    number = value.strip().lower().removesuffix("b")
    factor = units.get(number[-1:], 1)
    if factor != 1:
        number = number[:-1]
    try:
        return int(float(number) * factor)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {value!r} (e.g. 64M)") from None


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"not a positive integer: {value!r}")
    return number


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "audit",
        "scrapy charset audit SOURCE...: audit Scrapy HTTP cache folders and WARC/WACZ files",
    )
    group.add_argument(
        "--diff-out", metavar="FILE", help="write one JSON line per response whose text differs"
    )
    group.add_argument(
        "--text-out", metavar="FILE", help="write the corrected text of each differing response"
    )
    group.add_argument(
        "--html",
        metavar="FILE",
        help="write the summary as one self-contained HTML page, with samples",
    )
    group.add_argument(
        "--html-hosts",
        type=_positive,
        metavar="N",
        default=None,
        help="rows of the HTML page's host table, the rest in one row (default: 100)",
    )
    group.add_argument(
        "--no-mojibake",
        dest="mojibake",
        action="store_false",
        default=True,
        help="skip the check for mojibake in the decoded text (done by default)",
    )
    # Mojibake was counted only with --mojibake once: it is accepted still, and changes nothing.
    group.add_argument("--mojibake", dest="mojibake", action="store_true", help=argparse.SUPPRESS)
    group.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        default=None,
        help="worker processes (default: the CPU count; fewer for small inputs)",
    )
    group.add_argument(
        "--top", type=_positive, metavar="N", default=10, help="hosts shown (default: 10)"
    )
    group.add_argument(
        "--max-size",
        type=_size,
        metavar="BYTES",
        default=None,
        help="skip larger stored responses (default: 64M)",
    )


def check_not_used(opts: argparse.Namespace) -> None:
    """Raise UsageError when an audit option is given without ``audit``."""
    from scrapy.exceptions import UsageError

    for name, default in _OPTIONS.items():
        if getattr(opts, name, default) != default:
            flag = "no-mojibake" if name == "mojibake" else name.replace("_", "-")
            raise UsageError(f"--{flag} goes with 'scrapy charset audit'")


#: The exit status of a usage or installation error (as argparse's): 1 means skipped records.
USAGE_ERROR = 2


def run(sources: list[str], opts: argparse.Namespace, settings: Any) -> int:
    """Run the audit; the exit status."""
    from scrapy.exceptions import UsageError

    if not sources:
        raise UsageError("give at least one source: an HTTP cache folder, a WARC or WACZ file")
    missing = [path for path in sources if not os.path.exists(path)]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    for name in ("file", "content_type", "url", "kind", "encoding", "spider"):
        if getattr(opts, name, None):
            raise UsageError(f"--{name.replace('_', '-')} does not apply to audit")
    try:
        from scrapy_charset.audit.run import Options, audit
        from scrapy_charset.audit.sources import MAX_SIZE
        from scrapy_charset.responses.config import CharsetConfig
    except Exception as exc:
        print(
            f"scrapy charset audit: cannot load scrapy-charset ({type(exc).__name__}: {exc}). "
            "Reinstall it with its audit extra: pip install 'scrapy-charset[audit]'.",
            file=sys.stderr,
        )
        return USAGE_ERROR
    from scrapy.exceptions import NotConfigured

    if any(os.path.isfile(path) for path in sources):
        try:
            import warcio  # noqa: F401
        except ImportError as exc:
            print(
                f"scrapy charset audit: WARC and WACZ files need warcio ({exc}): "
                "pip install 'scrapy-charset[audit]'.",
                file=sys.stderr,
            )
            return USAGE_ERROR

    try:  # the project's CHARSET_* settings, as the middleware reads them
        config = CharsetConfig.from_settings(settings)
    except (NotConfigured, ValueError) as exc:  # CharsetSettingsError is a ValueError
        print(f"scrapy charset audit: {exc}", file=sys.stderr)
        return USAGE_ERROR
    if opts.html_hosts is not None and not opts.html:
        raise UsageError("--html-hosts goes with --html")
    if not settings.getbool("LOG_ENABLED"):
        _own_warnings_to_stderr()
    options = Options(
        config=config,
        jobs=opts.jobs or _default_jobs(sources),
        max_size=opts.max_size or MAX_SIZE,
        top=opts.top,
        mojibake=opts.mojibake,
        text=bool(opts.text_out),
        progress=sys.stderr.isatty(),
        samples=bool(opts.html),
    )
    for path in (opts.diff_out, opts.text_out, opts.html):
        if path:
            try:
                open(path, "w").close()
            except OSError as exc:
                raise UsageError(f"cannot write {path}: {exc.strerror}") from exc
    with _open(opts.diff_out) as diff_out, _open(opts.text_out) as text_out:
        summary = audit(sources, options, diff_out=diff_out, text_out=text_out)
    if opts.html:
        from scrapy_charset.audit.report import HOSTS, render

        with open(opts.html, "w", encoding="utf-8") as page:
            page.write(render(summary, hosts=opts.html_hosts or HOSTS))
    if opts.json:
        json.dump(summary.as_dict(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print(summary.render())
    sys.stdout.flush()
    return SKIPPED if summary.skipped else 0


#: Input bytes worth one more worker process by default (a worker takes about a second to
#: start; a small archive is audited sooner in one process).
_BYTES_PER_JOB = 16 * 1024 * 1024


def _default_jobs(sources: list[str]) -> int:
    from scrapy_charset.audit.sources import total_size

    return max(1, min(os.cpu_count() or 1, total_size(sources) // _BYTES_PER_JOB))


class _open:
    """A UTF-8 output file, or nothing."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.stream: Any = None

    def __enter__(self) -> Any:
        if self.path:
            self.stream = open(self.path, "w", encoding="utf-8")
        return self.stream

    def __exit__(self, *exc: object) -> None:
        if self.stream is not None:
            self.stream.close()


def _own_warnings_to_stderr() -> None:
    """The crawl log is off (the command's default); the audit's own warnings (one per
    skip reason) are part of its report, so they still reach standard error."""
    import logging

    log = logging.getLogger("scrapy_charset.audit")
    if any(isinstance(handler, logging.StreamHandler) for handler in log.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    handler.setLevel(logging.WARNING)
    log.addHandler(handler)
    log.propagate = False
