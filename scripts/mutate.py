"""The mutation run: hand-picked mutants that the test suite must kill.

Each mutant in :data:`MUTANTS` is one bug as it would look in a real change: a changed
bound, a dropped rule, a swapped order, a missed tag, a wrong default. For each, the
repository's tracked files are copied to a scratch directory, the mutant's snippet is
replaced there (it must occur exactly once in its file, so a mutant cannot go stale
silently), and pytest runs the mutant's test files against the scratch copy. The mutant is
killed when pytest reports failing tests (exit status 1); a collection or usage error is
not a kill, and neither is a run that does not finish in time. An unmutated run of the same
test files comes first and must pass, so that no kill is a failure the code already had.

    python scripts/mutate.py                 # every mutant, its own test files
    python scripts/mutate.py --full          # every mutant against the whole suite
    python scripts/mutate.py --only ID[,ID]  # some mutants
    python scripts/mutate.py --list          # the table, nothing run
    python scripts/mutate.py -j 2            # two mutants at a time

The exit status is 1 when a mutant survives or errs (or the unmutated run fails), else 0.
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutant:
    """One mutant: *old*, which occurs exactly once in *path*, becomes *new*."""

    id: str
    layer: str
    path: str
    old: str
    new: str
    breaks: str
    tests: tuple[str, ...]


def _m(  # noqa: PLR0917 - one row of the table, read in column order
    id: str, layer: str, path: str, old: str, new: str, breaks: str, *tests: str
) -> Mutant:
    return Mutant(id, layer, path, old, new, breaks, tuple(f"tests/{name}" for name in tests))


_PKG = "scrapy_charset"

#: The mutants, by layer. ``tests`` are the files that must kill each one.
MUTANTS: tuple[Mutant, ...] = (
    # --- the Encoding Standard layer ------------------------------------------------------
    # Three mutants the tables of hostile input and of ftfy's cases must kill on their own
    # (each lists only that table's file): the tables are one test each, and must still
    # notice one failing case among thousands.
    _m(
        "gb18030-ascii-trail-consumed",
        "whatwg",
        f"{_PKG}/whatwg/multibyte.py",
        "return _FFFD, pos + 1 if second < 0x80 else pos + 2",
        "return _FFFD, pos + 2",
        "gb18030 decoder: an ASCII byte after a lead is consumed, not prepended (markup smuggled)",
        "test_hostile.py",
    ),
    _m(
        "refused-label-unknown",
        "decision",
        f"{_PKG}/responses/decision.py",
        'reason = "refused_label" if is_refused(label) else "unknown_label"',
        'reason = "unknown_label"',
        "a label only Python knows is reported as unknown, not as refused",
        "test_hostile.py",
    ),
    _m(
        "plan-drops-latin-1",
        "items",
        f"{_PKG}/items/mojibake/plan.py",
        '            "latin-1",\n            "sloppy-windows-1252",\n',
        '            "sloppy-windows-1252",\n',
        "ftfy's plans that re-encode in latin-1 are no longer applied",
        "test_ftfy_cases.py",
    ),
    _m(
        "label-whitespace-kept",
        "whatwg",
        f"{_PKG}/whatwg/labels.py",
        "LABELS.get(label.strip(ASCII_WHITESPACE).translate(_LOWER))",
        "LABELS.get(label.translate(_LOWER))",
        "get an encoding: leading and trailing ASCII whitespace is not removed",
        "test_labels.py",
    ),
    _m(
        "label-unicode-lowercase",
        "whatwg",
        f"{_PKG}/whatwg/labels.py",
        "LABELS.get(label.strip(ASCII_WHITESPACE).translate(_LOWER))",
        "LABELS.get(label.strip(ASCII_WHITESPACE).lower())",
        "get an encoding: non-ASCII letters are case-folded (the Kelvin sign matches 'k')",
        "test_labels.py",
    ),
    _m(
        "bom-utf16le-missed",
        "whatwg",
        f"{_PKG}/whatwg/bom.py",
        '    (b"\\xff\\xfe", "UTF-16LE"),\n',
        "",
        "BOM sniff: the UTF-16LE byte order mark is not recognised",
        "test_decoders.py",
        "test_sniff.py",
    ),
    _m(
        "x-user-defined-offset",
        "whatwg",
        f"{_PKG}/whatwg/singlebyte.py",
        "range(0xF780, 0xF800)",
        "range(0xF781, 0xF801)",
        "x-user-defined: bytes 0x80 to 0xFF are off by one code point",
        "test_decoders.py",
    ),
    _m(
        "utf16-odd-byte-dropped",
        "whatwg",
        f"{_PKG}/whatwg/unicode.py",
        'return text + "\\ufffd" if odd else text',
        "return text",
        "UTF-16 decoder: an odd trailing byte is dropped instead of being an error",
        "test_decoders.py",
    ),
    _m(
        "utf8-stream-final",
        "whatwg",
        f"{_PKG}/whatwg/unicode.py",
        'return codecs.utf_8_decode(data, "replace", final)',
        'return codecs.utf_8_decode(data, "replace", True)',
        "UTF-8 decoder: a sequence split between two chunks is two errors",
        "test_decoders.py",
    ),
    _m(
        "gb18030-0x80-not-euro",
        "whatwg",
        f"{_PKG}/whatwg/multibyte.py",
        'return "\\u20ac", pos + 1',
        "return _FFFD, pos + 1",
        "gb18030 decoder: byte 0x80 is an error instead of U+20AC",
        "test_decoders.py",
    ),
    _m(
        "gb18030-four-byte-range",
        "whatwg",
        f"{_PKG}/whatwg/multibyte.py",
        "    if 0x30 <= second <= 0x39:\n        if pos + 2 == end:",
        "    if 0x30 <= second <= 0x38:\n        if pos + 2 == end:",
        "gb18030 decoder: a second byte 0x39 does not start a four-byte sequence",
        "test_decoders.py",
        "test_decoders_exhaustive.py",
    ),
    _m(
        "cjk-index-differences-ignored",
        "whatwg",
        f"{_PKG}/whatwg/cjk.py",
        "found = self.diffs.get(sequence)",
        "found = None",
        "CJK decoders: where the index differs from the C codec, the C codec is trusted",
        "test_decoders.py",
    ),
    _m(
        "prescan-duplicate-attribute",
        "whatwg",
        f"{_PKG}/sniffing/prescan.py",
        "        if name in attribute_list:\n            continue\n",
        "",
        "prescan: a repeated attribute overrides the first instead of being ignored",
        "test_prescan.py",
    ),
    _m(
        "prescan-pragma-not-needed",
        "whatwg",
        f"{_PKG}/sniffing/prescan.py",
        "if need_pragma is None or (need_pragma and not got_pragma) or charset is None:",
        "if need_pragma is None or charset is None:",
        "prescan: content=charset counts without http-equiv=content-type",
        "test_prescan.py",
    ),
    _m(
        "prescan-utf16-kept",
        "whatwg",
        f"{_PKG}/sniffing/prescan.py",
        '        if is_utf16(encoding):\n            encoding = "UTF-8"\n        elif',
        "        if False:\n            pass\n        elif",
        "prescan: a <meta> naming UTF-16 gives UTF-16 instead of UTF-8",
        "test_prescan.py",
    ),
    _m(
        "prescan-x-user-defined-kept",
        "whatwg",
        f"{_PKG}/sniffing/prescan.py",
        'elif encoding == "x-user-defined":',
        'elif encoding == "x-user-defined-":',
        "prescan: a <meta> naming x-user-defined is not read as windows-1252",
        "test_prescan.py",
    ),
    _m(
        "late-meta-after-body-tag",
        "whatwg",
        f"{_PKG}/sniffing/prescan.py",
        "        if name not in _HEAD_TAGS:\n            self.open = False\n        elif",
        "        if False:\n            pass\n        elif",
        "late <meta> scan: a start tag of the body does not end the head",
        "test_prescan.py",
    ),
    _m(
        "xml-declaration-utf16-kept",
        "whatwg",
        f"{_PKG}/sniffing/prescan.py",
        '    if is_utf16(encoding):\n        encoding = "UTF-8"\n    return encoding, label',
        "    return encoding, label",
        "get an XML encoding: a UTF-16 label gives UTF-16 instead of UTF-8",
        "test_prescan.py",
    ),
    # --- the decision -------------------------------------------------------------------
    _m(
        "order-meta-before-header",
        "decision",
        f"{_PKG}/sniffing/__init__.py",
        '"html": (bom_step, override_step, header_step, meta_step,',
        '"html": (bom_step, override_step, meta_step, header_step,',
        "HTML: the <meta> prescan is read before the Content-Type charset",
        "test_sniff.py",
    ),
    _m(
        "order-header-before-bom",
        "decision",
        f"{_PKG}/sniffing/__init__.py",
        '"html": (bom_step, override_step, header_step, meta_step,',
        '"html": (override_step, header_step, bom_step, meta_step,',
        "HTML: the Content-Type charset wins over a byte order mark",
        "test_sniff.py",
    ),
    _m(
        "utf8-rule-dropped",
        "decision",
        f"{_PKG}/sniffing/__init__.py",
        "header_step, meta_step, utf8_step, detect_step, default_step),",
        "header_step, meta_step, detect_step, default_step),",
        "HTML: an undeclared body that is valid UTF-8 goes to detection",
        "test_sniff.py",
    ),
    _m(
        "json-header-any-label",
        "decision",
        f"{_PKG}/sniffing/__init__.py",
        'elif ctx.kind == "json" and source is Source.HEADER',
        'elif ctx.kind == "JSON" and source is Source.HEADER',
        "JSON: a Content-Type charset that is not a UTF decides (RFC 8259 dropped)",
        "test_sniff.py",
        "test_middleware.py",
    ),
    _m(
        "mostly-utf8-ratio",
        "decision",
        f"{_PKG}/sniffing/utf8.py",
        "evidence.valid < RATIO * evidence.invalid",
        "evidence.valid < evidence.invalid",
        "mostly UTF-8: as many invalid sequences as valid ones still count as UTF-8",
        "test_detect.py",
        "test_cut_bodies.py",
    ),
    _m(
        "unscored-detection-beats-utf8",
        "decision",
        f"{_PKG}/sniffing/__init__.py",
        "if detected.score is None or detected.score < WEAK_SCORE:",
        "if detected.score is not None and detected.score < WEAK_SCORE:",
        "a detector's fallback answer (no score) wins over a mostly UTF-8 body",
        "test_detect.py",
        "test_few_bytes.py",
    ),
    _m(
        "default-for-every-kind",
        "decision",
        f"{_PKG}/responses/decide.py",
        'default=config.default_encoding if kind in ("html", "text") else None,',
        "default=config.default_encoding,",
        "XML and JSON fall back to windows-1252 instead of UTF-8",
        "test_middleware.py",
        "test_crawl_settings.py",
    ),
    # --- the middleware -----------------------------------------------------------------
    _m(
        "head-request-decoded",
        "middleware",
        f"{_PKG}/responses/decide.py",
        'if request.method == "HEAD":',
        'if request.method == "head":',
        "a HEAD request's response is decided instead of skipped",
        "test_middleware.py",
    ),
    _m(
        "empty-body-decoded",
        "middleware",
        f"{_PKG}/responses/decide.py",
        '    if not response.body:\n        return "empty"\n',
        "",
        "an empty body is decided instead of skipped",
        "test_middleware.py",
    ),
    _m(
        "xml-suffix-missed",
        "middleware",
        f"{_PKG}/responses/decide.py",
        'if essence in _XML_TYPES or essence.endswith("+xml"):',
        "if essence in _XML_TYPES:",
        "application/rss+xml and the other +xml types are read as plain text",
        "test_middleware.py",
    ),
    _m(
        "skip-keeps-stale-tag",
        "middleware",
        f"{_PKG}/responses/middleware.py",
        "            untag(meta)\n",
        "            pass\n",
        "a skipped response keeps the decision a redirect copied from another body",
        "test_middleware.py",
    ),
    _m(
        "replaced-request-untagged",
        "middleware",
        f"{_PKG}/responses/middleware.py",
        "metas.append(response.request.meta)",
        "pass",
        "the request a middleware put on the response does not get the decision",
        "test_middleware.py",
    ),
    _m(
        "body-reencoded",
        "middleware",
        f"{_PKG}/responses/decide.py",
        "    new = outcome.response_class(**kwargs, encoding=outcome.codec)\n",
        "    if outcome.text is not None:\n"
        '        kwargs["body"] = outcome.text.encode()\n'
        "    new = outcome.response_class(**kwargs, encoding=outcome.codec)\n",
        "the response's body is replaced by its text encoded again",
        "test_middleware.py",
    ),
    _m(
        "encoding-is-whatwg-name",
        "middleware",
        f"{_PKG}/responses/decide.py",
        "new = outcome.response_class(**kwargs, encoding=outcome.codec)",
        "new = outcome.response_class(**kwargs, encoding=outcome.decision.encoding)",
        "response.encoding is the WHATWG name, which Python's codec decodes otherwise",
        "test_middleware.py",
    ),
    _m(
        "source-stat-missed",
        "stats",
        f"{_PKG}/responses/middleware.py",
        "inc_value(keys.source(source))",
        "pass",
        "charset/source/<source> is not counted",
        "test_middleware.py",
    ),
    _m(
        "skipped-stat-key",
        "stats",
        f"{_PKG}/stats.py",
        'return f"{PREFIX}skipped/{reason}"',
        'return f"{PREFIX}skip/{reason}"',
        "the skip stats are written under another key than the documented one",
        "test_middleware.py",
    ),
    # --- the item checks ----------------------------------------------------------------
    _m(
        "fffd-counted-once",
        "items",
        f"{_PKG}/items/inspection.py",
        'replacements = value.count("\\ufffd") if',
        "replacements = 1 if",
        "a text's U+FFFD are counted as one, however many it holds",
        "test_textcheck.py",
    ),
    _m(
        "fffd-chars-stat-counts-items",
        "stats",
        f"{_PKG}/items/pipeline.py",
        "inc(keys.REPLACEMENT_CHARS, chars)",
        "inc(keys.REPLACEMENT_CHARS)",
        "charset/replacement/chars counts items instead of characters",
        "test_pipeline.py",
    ),
    _m(
        "weak-evidence-threshold",
        "items",
        f"{_PKG}/items/mojibake/badness.py",
        "self.weak >= MIN_WEAK",
        "self.weak >= MIN_WEAK - 1",
        "mojibake: two weak sequences are enough evidence (NESTLÉ® twice)",
        "test_badness.py",
        "test_textcheck.py",
    ),
    _m(
        "long-sequence-bound",
        "items",
        f"{_PKG}/items/mojibake/badness.py",
        "        len(s.sequence) >= LONG_SEQUENCE\n        and not s.letters",
        "        len(s.sequence) >= LONG_SEQUENCE - 1\n        and not s.letters",
        "mojibake: a two-character sequence counts as decisive",
        "test_badness.py",
        "test_textcheck.py",
    ),
    _m(
        "shift-jis-halfwidth-missed",
        "items",
        f"{_PKG}/items/mojibake/badness.py",
        'if marks.halfwidth or (marks.shift_jis_leads and "\\ufffd" in text):',
        'if marks.shift_jis_leads and "\\ufffd" in text:',
        "mojibake: half-width katakana are no sign of UTF-8 read as Shift_JIS",
        "test_textcheck.py",
    ),
    _m(
        "plan-allows-no-variants",
        "items",
        f"{_PKG}/items/mojibake/plan.py",
        '"decode": frozenset({"utf-8", "utf-8-variants", "windows-1252"}),',
        '"decode": frozenset({"utf-8", "windows-1252"}),',
        "plan allowlist: ftfy's utf-8-variants decode (CESU-8, Java's UTF-8) is refused",
        "test_textcheck.py",
        "test_api.py",
    ),
    _m(
        "double-encoded-kind",
        "items",
        f"{_PKG}/items/mojibake/plan.py",
        "if len(utf8) >= 2 and all(",
        "if len(utf8) >= 1 and all(",
        "plan: UTF-8 read as windows-1252 once is reported as double-encoded",
        "test_textcheck.py",
    ),
    _m(
        "verifier-not-text-dropped",
        "items",
        f"{_PKG}/items/mojibake/verify.py",
        "if not _not_text(after) <= _not_text(before):",
        "if False:",
        "verifier: a repair that brings in control or private-use characters passes",
        "test_textcheck.py",
        "test_c1_punctuation.py",
    ),
    _m(
        "verifier-margin-dropped",
        "items",
        f"{_PKG}/items/mojibake/verify.py",
        "return name if best - second >= siblings.MARGIN else None",
        "return name if best > second else None",
        "verifier: a reading barely likelier than another is applied, not ambiguous",
        "test_siblings.py",
        "test_textcheck.py",
    ),
    _m(
        "fallback-in-place-unchecked",
        "items",
        f"{_PKG}/items/mojibake/fallback.py",
        "if decoded == run or not _decodes_as_damage(decoded, reading):",
        "if decoded == run:",
        "fallback rows: a run is decoded in place whatever characters it brings in",
        "test_fallback.py",
        "test_textcheck.py",
    ),
    _m(
        "legacy-cyrillic-word-bound",
        "items",
        f"{_PKG}/items/mojibake/legacy.py",
        "return longest >= MIN_CYRILLIC_WORD",
        "return longest >= MIN_CYRILLIC_WORD - 1",
        "legacy readings: a Cyrillic reading with only two-letter words is plausible",
        "test_textcheck.py",
    ),
    # --- alerts -------------------------------------------------------------------------
    _m(
        "alert-min-items-bound",
        "alerts",
        f"{_PKG}/items/alerts.py",
        "if stats.items >= self.min_items and _at_least(",
        "if stats.items > self.min_items and _at_least(",
        "alerts: the rate rule waits one item more than CHARSET_ALERT_MIN_ITEMS",
        "test_alerts.py",
    ),
    _m(
        "alert-rate-boundary",
        "alerts",
        f"{_PKG}/items/alerts.py",
        "return count >= share * total - 1e-9 * total",
        "return count > share * total",
        "alerts: a rate exactly at CHARSET_ALERT_RATE does not fire",
        "test_alerts.py",
    ),
    _m(
        "alert-fires-again",
        "alerts",
        f"{_PKG}/items/alerts.py",
        "            if (path, kind) in self.fired:\n                continue\n",
        "",
        "alerts: an alert fires again for every damaged item instead of once",
        "test_alerts.py",
    ),
    _m(
        "alert-rise-without-baseline",
        "alerts",
        f"{_PKG}/items/alerts.py",
        "if recent > 0 and _at_least(rise, self.window, self.rise):",
        "if recent > 0 and _at_least(recent, self.window, self.rise):",
        "alerts: the rise rule ignores the baseline window",
        "test_alerts.py",
    ),
    _m(
        "alert-pages-unbounded",
        "alerts",
        f"{_PKG}/items/alerts.py",
        "if len(urls) < MAX_URLS and url not in urls:",
        "if url not in urls:",
        "alerts: every damaged page is named, not the first MAX_URLS",
        "test_alerts.py",
    ),
    _m(
        "alert-signal-not-sent",
        "alerts",
        f"{_PKG}/items/pipeline.py",
        "            signal=charset_alert,\n",
        "            signal=object(),\n",
        "alerts: the charset_alert signal is not sent",
        "test_pipeline.py",
    ),
    _m(
        "alert-stat-key",
        "stats",
        f"{_PKG}/stats.py",
        'return f"{PREFIX}alerts/{kind}"',
        'return f"{PREFIX}alert/{kind}"',
        "the alert stats are written under another key than the documented one",
        "test_pipeline.py",
    ),
    _m(
        "close-spider-never",
        "alerts",
        f"{_PKG}/items/pipeline.py",
        "if limit and not self._closing:",
        "if limit and self._closing:",
        "CHARSET_CLOSE_SPIDER_RATE never closes the spider",
        "test_pipeline.py",
        "test_crawl_items.py",
    ),
    _m(
        "drop-item-bound",
        "items",
        f"{_PKG}/items/pipeline.py",
        "if limit and len(scan.still_damaged) >= limit:",
        "if limit and len(scan.still_damaged) > limit:",
        "CHARSET_DROP_ITEM_FIELDS: an item with exactly that many damaged fields is kept",
        "test_pipeline.py",
    ),
    # --- the audit ----------------------------------------------------------------------
    _m(
        "audit-fffd-only-strict",
        "audit",
        f"{_PKG}/audit/record.py",
        'out["fffd_only"] = theirs.replace(_FFFD, "") == ours.replace(_FFFD, "")',
        'out["fffd_only"] = theirs == ours',
        "audit: a difference in U+FFFD only is counted as a change of text",
        "test_audit.py",
    ),
    _m(
        "audit-fffd-only-uncounted",
        "audit",
        f"{_PKG}/audit/summary.py",
        '            if result["fffd_only"]:\n                self.differs_fffd_only += 1\n',
        "",
        "audit summary: the records that differ in U+FFFD only are not counted",
        "test_audit.py",
    ),
)


# --- checking the table ----------------------------------------------------------------


def problems(mutant: Mutant, root: Path = ROOT) -> list[str]:
    """What is wrong with *mutant* against the files under *root* (nothing: an empty list)."""
    found = []
    source = root / mutant.path
    if not source.is_file():
        found.append(f"{mutant.id}: no file {mutant.path}")
    else:
        count = source.read_text(encoding="utf-8").count(mutant.old)
        if count != 1:
            found.append(f"{mutant.id}: the snippet occurs {count} times in {mutant.path}")
    if mutant.old == mutant.new:
        found.append(f"{mutant.id}: the replacement is the snippet")
    if not mutant.tests:
        found.append(f"{mutant.id}: no test file")
    for test in mutant.tests:
        if not (root / test).is_file():
            found.append(f"{mutant.id}: no test file {test}")
    return found


def select(only: str | None) -> list[Mutant]:
    """The mutants *only* names (comma-separated ids), or all; SystemExit for an unknown id."""
    if not only:
        return list(MUTANTS)
    by_id = {mutant.id: mutant for mutant in MUTANTS}
    wanted = [name.strip() for name in only.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in by_id]
    if unknown:
        raise SystemExit(f"unknown mutant id(s): {', '.join(unknown)} (see --list)")
    return [by_id[name] for name in wanted]


# --- running -----------------------------------------------------------------------------

#: Loaded into every pytest run: stops it (exit status 3, not a kill) unless the package
#: under test is the scratch copy's, whatever is installed.
_GUARD = """
import os
from pathlib import Path

import pytest


def pytest_configure(config):
    import scrapy_charset

    root = Path(os.environ["MUTATE_ROOT"]).resolve()
    found = Path(scrapy_charset.__file__).resolve()
    if root not in found.parents:
        raise pytest.UsageError(f"scrapy_charset comes from {found}, not from {root}")
"""
_GUARD_NAME = "_mutation_guard"

#: pytest's exit status when tests failed: the only status that kills a mutant.
_TESTS_FAILED = 1


@dataclass(frozen=True)
class Result:
    mutant: Mutant | None  # None: the unmutated run
    status: str  # killed, survived, error, timeout (a baseline: passed or failed)
    first: str  # the first failing test, or why the run is an error
    seconds: float


def _tracked(root: Path) -> list[str]:
    done = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True, text=True
    )
    return [name for name in done.stdout.split("\0") if name]


def _copy(root: Path, names: Sequence[str], target: Path) -> None:
    """The working-tree version of every tracked file of *root*, under *target*."""
    for name in names:
        source = root / name
        if not source.is_file():  # deleted in the working tree
            continue
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination)


@contextmanager
def _mutated(copy: Path, mutant: Mutant) -> Iterator[None]:
    """*mutant* applied to the scratch *copy* for the duration, the original put back."""
    path = copy / mutant.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutant.old) != 1:
        raise RuntimeError(f"{mutant.id}: the snippet does not occur once in {mutant.path}")
    path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
    try:
        yield
    finally:
        path.write_text(original, encoding="utf-8")


_FIRST = re.compile(r"^(FAILED|ERROR) (\S+)", re.MULTILINE)

#: The pytest runs under way, ended when the mutation run is interrupted (each runs in its
#: own session, so an interrupt at the terminal does not reach it).
_RUNNING: set[subprocess.Popen[str]] = set()
_RUNNING_LOCK = threading.Lock()
_STOPPING = threading.Event()


def _stop_all() -> None:
    _STOPPING.set()
    with _RUNNING_LOCK:
        for process in _RUNNING:
            _kill(process)


def _kill(process: subprocess.Popen[str]) -> None:
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def _pytest(
    copy: Path, guard: Path, tests: Sequence[str], timeout: float, *, parallel: bool = False
) -> tuple[int, str]:
    """Run pytest in *copy* on *tests* (all of ``testpaths`` when empty): its exit status
    (-1 when it ran out of time) and its output. In one process it stops at the first
    failure (``-x``); *parallel*, on every core (pytest-xdist) to the end, as ``-x`` under
    xdist ends the run as interrupted (exit status 2), not as failed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(copy), str(guard)])
    env["MUTATE_ROOT"] = str(copy)
    # No bytecode: a mutant and the original can have the same size and modification
    # second, and a cached .pyc of one would then stand for the other.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [
        sys.executable,
        "-m",
        "pytest",
        *(("-n", "auto") if parallel else ("-n", "0", "-x")),
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        _GUARD_NAME,
        *tests,
    ]
    with _RUNNING_LOCK:
        if _STOPPING.is_set():
            raise RuntimeError("the mutation run was interrupted")
        process = subprocess.Popen(
            command,
            cwd=copy,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: a timeout ends its children too
        )
        _RUNNING.add(process)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.communicate()
        return -1, ""
    except BaseException:
        _kill(process)
        process.wait()
        raise
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(process)
    return process.returncode, output


def _first_failure(output: str) -> str:
    found = _FIRST.search(output)
    if found is not None:
        return found.group(2)
    lines = [line for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run_mutant(mutant: Mutant, copy: Path, guard: Path, full: bool, timeout: float) -> Result:
    start = time.monotonic()
    with _mutated(copy, mutant):
        status, output = _pytest(copy, guard, () if full else mutant.tests, timeout, parallel=full)
    seconds = time.monotonic() - start
    if status == -1:
        return Result(mutant, "timeout", f"no result in {timeout:.0f} s", seconds)
    if status == 0:
        return Result(mutant, "survived", "", seconds)
    if status == _TESTS_FAILED:
        return Result(mutant, "killed", _first_failure(output), seconds)
    return Result(
        mutant, "error", f"pytest exit status {status}: {_first_failure(output)}", seconds
    )


def run_baseline(copy: Path, guard: Path, tests: Sequence[str], timeout: float) -> Result:
    start = time.monotonic()
    status, output = _pytest(copy, guard, tests, timeout, parallel=True)
    seconds = time.monotonic() - start
    if status == 0:
        return Result(None, "passed", "", seconds)
    return Result(None, "failed", f"exit status {status}: {_first_failure(output)}", seconds)


def _take(copies: queue.SimpleQueue[Path]) -> Path | None:
    """A scratch copy for a mutant, or None once the run is interrupted."""
    while not _STOPPING.is_set():
        with suppress(queue.Empty):
            return copies.get(timeout=0.2)
    return None


def _reclaim(copies: queue.SimpleQueue[Path], count: int) -> None:
    """Wait until the workers have put every scratch copy back, original files restored,
    however often interrupted: the scratch directory is removed after. (A worker's thread
    is not waited for with ``join``, which an interrupt can cut short.)"""
    held = 0
    while held < count:
        try:
            copies.get(timeout=0.2)
            held += 1
        except queue.Empty:
            pass
        except KeyboardInterrupt:
            _stop_all()


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(_row(row, widths) for row in rows)


def _print_list(mutants: Sequence[Mutant]) -> None:
    rows = [["id", "layer", "file", "tests", "breaks"]]
    for mutant in mutants:
        tests = ",".join(Path(test).name for test in mutant.tests)
        rows.append([mutant.id, mutant.layer, mutant.path, tests, mutant.breaks])
    print(_table(rows))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run the hand-picked mutants; each must be killed by the suite."
    )
    parser.add_argument("--only", metavar="ID[,ID]", help="run only these mutants")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--full", action="store_true", help="run the whole suite for each mutant")
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="mutants run at a time (1)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=1800.0,
        metavar="SECONDS",
        help="longest pytest run of one mutant before it counts as an error (1800)",
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("-j must be 1 or more")
    mutants = select(args.only)
    if args.list:
        _print_list(mutants)
        return 0
    broken = [problem for mutant in mutants for problem in problems(mutant)]
    if broken:
        print("The mutant table is out of date:", *broken, sep="\n  ", file=sys.stderr)
        return 1
    tests = sorted({test for mutant in mutants for test in mutant.tests})
    names = _tracked(ROOT)
    with tempfile.TemporaryDirectory(prefix="scrapy-charset-mutate-") as scratch:
        base = Path(scratch)
        guard = base / "guard"
        guard.mkdir()
        (guard / f"{_GUARD_NAME}.py").write_text(_GUARD, encoding="utf-8")
        copies: queue.SimpleQueue[Path] = queue.SimpleQueue()
        count = min(args.jobs, len(mutants))
        for index in range(count):
            copy = base / f"copy{index}"
            _copy(ROOT, names, copy)
            copies.put(copy)
        first = copies.get()
        what = "the whole suite" if args.full else f"{len(tests)} test files"
        print(f"Unmutated run ({what})...", flush=True)
        baseline = run_baseline(first, guard, () if args.full else tests, args.timeout)
        copies.put(first)
        print(f"  {baseline.status} in {baseline.seconds:.0f} s {baseline.first}", flush=True)
        if baseline.status != "passed":
            print("The unmutated code fails: fix that first.", file=sys.stderr)
            return 1

        def work(mutant: Mutant) -> Result:
            copy = _take(copies)
            if copy is None:  # interrupted
                return Result(mutant, "error", "interrupted", 0.0)
            try:
                result = run_mutant(mutant, copy, guard, args.full, args.timeout)
            finally:
                copies.put(copy)
            if not _STOPPING.is_set():
                print(f"  {mutant.id}: {result.status} ({result.seconds:.0f} s)", flush=True)
            return result

        start = time.monotonic()
        pool = ThreadPoolExecutor(max_workers=args.jobs)
        try:
            results = list(pool.map(work, mutants))
        except BaseException:  # an interrupt: no mutant left running or waiting
            _stop_all()
            pool.shutdown(wait=False, cancel_futures=True)
            _reclaim(copies, count)
            raise
        pool.shutdown()
        elapsed = time.monotonic() - start
    rows = [["id", "status", "first failing test", "seconds"]]
    for result in results:
        assert result.mutant is not None
        rows.append([result.mutant.id, result.status, result.first, f"{result.seconds:.1f}"])
    print()
    print(_table(rows))
    bad = [result for result in results if result.status != "killed"]
    print(
        f"\n{len(results) - len(bad)} of {len(results)} mutants killed in {elapsed:.0f} s "
        f"(the unmutated run: {baseline.seconds:.0f} s)"
    )
    if bad:
        print("Not killed: " + ", ".join(r.mutant.id for r in bad if r.mutant), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
