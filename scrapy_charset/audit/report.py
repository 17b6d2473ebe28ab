"""``scrapy charset audit --html FILE``: the audit's summary as one self-contained page.

The page is rendered from the same :class:`~scrapy_charset.audit.summary.Summary` as the
terminal table and ``--json``, so its figures are theirs. It loads nothing (no script, no
style sheet, no font, no image: styles are inline and charts are inline SVG) and its
Content-Security-Policy forbids loading anything, so it opens from disk and can be
attached to a ticket.

Archived text is hostile input. Everything copied from a record (URL, host, record id,
text excerpts) is escaped for HTML, and the characters that do not show or that reorder
text (controls, bidi embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069,
other format characters, lone surrogates) are shown as a visible ``U+XXXX`` mark instead.
A URL is a link only when it is a plain ``http``/``https`` URL of the characters RFC 3986
allows unescaped; any other (``javascript:``, ``data:``, one with a quote...) is shown as
text.

The page leads with what is still damaged once decoded as the middleware decodes it
(responses whose text holds U+FFFD or mojibake), then what the middleware fixes (the
responses plain Scrapy reads differently), and carries the pages to act on as a CSV file
to download (a ``data:`` link: it works offline, and the page stays one file) and the date
of the audit (``SOURCE_DATE_EPOCH``, when set, as reproducible builds use it). A CSV cell
that a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``...) starts with
``'``.

The page's size is bounded by the caps, not by the archive: at most *hosts* host rows
plus one row for the rest, the :data:`SAMPLE_KINDS` most frequent change kinds with
:data:`~scrapy_charset.audit.summary.SAMPLES_PER_KIND` samples each, each excerpt at most
twice :data:`~scrapy_charset.audit.record.SAMPLE` characters, the :data:`BARS` largest
bars per chart, :data:`~scrapy_charset.audit.summary.MAX_LISTED` rows of CSV.
"""

from __future__ import annotations

import base64
import csv
import datetime
import difflib
import html
import io
import os
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from scrapy_charset.audit.summary import OTHER_HOSTS, ChangeKind, Summary

__all__ = ["BARS", "CSV_COLUMNS", "HOSTS", "SAMPLE_KINDS", "audit_date", "pages_csv", "render"]

#: Rows of the host table by default (``--html-hosts``); the rest share one row.
HOSTS = 100
#: Change kinds shown with samples, the most frequent first.
SAMPLE_KINDS = 10
#: Bars per chart; the rest share one bar.
BARS = 20
#: Characters of a URL, host or record id shown.
SHOWN = 300

#: A URL made only of the characters RFC 3986 allows unescaped (no quote, no angle
#: bracket, no backslash, no space), with an http or https scheme and a host.
_LINK = re.compile(r"https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+", re.ASCII | re.IGNORECASE)

_MARKS = {"\n": "\u21b5", "\t": "\u21e5", "\r": "\u240d"}

_STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;
margin:0 auto;max-width:1200px;padding:24px 32px;background:#fff}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:32px 0 8px;border-bottom:1px solid
#d0d7de;padding-bottom:4px}h3{font-size:16px;margin:20px 0 6px}
p.lead{color:#57606a;margin:0 0 16px}p.note{color:#57606a;font-size:13px;margin:4px 0 10px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}
.card{border:1px solid #d0d7de;border-radius:8px;padding:10px 12px;min-width:100px;
flex:1 1 0}
.card .n{font-size:26px;font-weight:600;display:block}.card .l{color:#57606a;font-size:13px}
.card.bad{border-color:#cf222e;background:#fff5f5}.card.bad .n{color:#cf222e}
.card.good{border-color:#1a7f37;background:#f0fff4}.card.good .n{color:#1a7f37}
.card.warn{border-color:#bf8700;background:#fffbea}
.notice{border:1px solid #bf8700;background:#fffbea;border-radius:8px;padding:10px 14px;
margin:16px 0}
table{border-collapse:collapse;margin:8px 0;font-size:14px}
th,td{border-bottom:1px solid #d8dee4;padding:4px 10px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:
tabular-nums}tr.other td{font-style:italic;background:#f6f8fa}
td.host{max-width:320px;overflow-wrap:anywhere}td.small{font-size:12px;color:#424a53}
.sample{border:1px solid #d0d7de;border-radius:8px;padding:8px 12px;margin:8px 0 14px}
.sample .meta{font-size:12px;color:#57606a;overflow-wrap:anywhere}
.sample table{width:100%;table-layout:fixed}.sample td{width:50%}
.text{font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:
pre-wrap;overflow-wrap:anywhere}
mark{background:#ffd7d5;color:#82071e;border-radius:2px}td.ours mark{background:#d2f4d3;
color:#0a3622}
.c{font:11px ui-monospace,monospace;color:#57606a;background:#eaeef2;border:1px solid
#afb8c1;border-radius:3px;padding:0 2px;margin:0 1px;white-space:nowrap}
svg text{font:12px system-ui,sans-serif;fill:#1b1f24}
footer{margin-top:40px;color:#57606a;font-size:12px}
"""


# --- escaping -----------------------------------------------------------------------------


def _shown(char: str) -> bool:
    return char.isprintable() or unicodedata.category(char) == "Zs"


def _mark(char: str) -> str:
    name = unicodedata.name(char, "")
    shown = _MARKS.get(char, f"U+{ord(char):04X}")
    title = f' title="{html.escape(name)}"' if name else ""
    return f'<span class="c"{title}>{shown}</span>'


def text(value: object, limit: int | None = None) -> str:
    """*value* as HTML text: escaped, with invisible and reordering characters shown as
    marks; cut to *limit* characters, if given, with a visible ellipsis."""
    value = str(value)
    cut = limit is not None and len(value) > limit
    if cut:
        value = value[:limit]
    if value.isprintable():
        out = html.escape(value)
    else:
        out = "".join(html.escape(char) if _shown(char) else _mark(char) for char in value)
    return out + '<span class="c">\u2026</span>' if cut else out


def plain(value: object, limit: int = 40) -> str:
    """*value* as escaped text without markup (for SVG labels and attribute values)."""
    value = str(value)
    if len(value) > limit:
        value = value[: limit - 1] + "\u2026"
    if not value.isprintable():
        value = "".join(char if _shown(char) else f"<U+{ord(char):04X}>" for char in value)
    return html.escape(value, quote=True)


def link(url: str) -> str:
    """The URL as a link when it is a plain http(s) URL, else as text."""
    shown = text(url, SHOWN)
    if _LINK.fullmatch(url):
        return f'<a href="{html.escape(url, quote=True)}" rel="noreferrer noopener">{shown}</a>'
    return shown


def highlighted(before: str, after: str) -> tuple[str, str]:
    """Both excerpts as HTML, the characters that differ between them marked.

    The excerpts start at the same offset and have the same length, so where one text has
    more characters for the same content, the other runs on further: after a difference,
    characters only one excerpt has at its very end are where they were cut, not another
    difference, and stay unmarked."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    opcodes = matcher.get_opcodes()
    left, right = [], []
    for index, (op, a1, a2, b1, b2) in enumerate(opcodes):
        cut = (
            index == len(opcodes) - 1
            and op in ("insert", "delete")
            and any(earlier[0] != "equal" for earlier in opcodes[:index])
        )
        if op == "equal" or cut:
            left.append(text(before[a1:a2]))
            right.append(text(after[b1:b2]))
            continue
        if a2 > a1:
            left.append(f"<mark>{text(before[a1:a2])}</mark>")
        if b2 > b1:
            right.append(f"<mark>{text(after[b1:b2])}</mark>")
    return "".join(left), "".join(right)


# --- pieces -------------------------------------------------------------------------------


def _n(value: int) -> str:
    return f"{value:,}"


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{text(name)}&nbsp;{_n(count)}" for name, count in counts.items()) or "-"


def _card(label: str, value: int, key: str, detail: str = "", style: str = "") -> str:
    css = f"card {style}".strip()
    extra = f'<span class="l">{detail}</span>' if detail else ""
    return (
        f'<div class="{css}"><span class="n" data-figure="{key}">{_n(value)}</span>'
        f'<span class="l">{label}</span>{"<br>" + extra if extra else ""}</div>'
    )


def _bars(rows: list[tuple[str, int]], title: str, color: str) -> str:
    """A horizontal bar chart as inline SVG; each bar carries its label and count."""
    if len(rows) > BARS:
        rest = sum(count for _, count in rows[BARS - 1 :])
        rows = [*rows[: BARS - 1], ("(the rest)", rest)]
    top = max((count for _, count in rows), default=0)
    if not top:
        return '<p class="note">Nothing to show.</p>'
    label_width, bar_width, height = 230, 520, 24
    total_height = height * len(rows) + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + bar_width + 90}" '
        f'height="{total_height}" role="img" aria-label="{plain(title, 200)}">'
    ]
    for index, (name, count) in enumerate(rows):
        y = 4 + index * height
        width = max(1, round(bar_width * count / top)) if count else 0
        label = plain(name)
        parts.append(
            f'<g class="bar" data-label="{label}" data-count="{count}">'
            f'<text x="{label_width - 8}" y="{y + 16}" text-anchor="end">{label}</text>'
            f'<rect x="{label_width}" y="{y + 3}" width="{width}" height="{height - 6}" '
            f'rx="2" fill="{color}"><title>{label}: {count}</title></rect>'
            f'<text x="{label_width + width + 6}" y="{y + 16}">{_n(count)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _table(ident: str, head: Iterable[tuple[str, bool]], rows: Iterable[str], empty: str) -> str:
    body = "".join(rows)
    if not body:
        return f'<p class="note" id="{ident}-none">{empty}</p>'
    cells = "".join(f'<th class="n">{h}</th>' if num else f"<th>{h}</th>" for h, num in head)
    return f'<table id="{ident}"><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>'


def _reasons(ident: str, title: str, counts: dict[str, int], empty: str) -> str:
    rows = (
        f'<tr data-reason="{plain(reason, 200)}"><td>{text(reason)}</td>'
        f'<td class="n">{_n(count)}</td></tr>'
        for reason, count in counts.items()
    )
    return (
        f"<div><h3>{title}</h3>"
        + _table(ident, [("Reason", False), ("Records", True)], rows, empty)
        + "</div>"
    )


def _responses(count: int) -> str:
    return f'<span data-figure="count">{_n(count)}</span> response' + ("" if count == 1 else "s")


def _host_row(row: dict[str, Any], css: str, name: str) -> str:
    return (
        f'<tr class="{css}"><td class="host">{name}</td>'
        f'<td class="n" data-figure="records">{_n(row["records"])}</td>'
        f'<td class="n" data-figure="differs">{_n(row["differs"])}</td>'
        f'<td class="n" data-figure="differs_fffd_only">{_n(row["differs_fffd_only"])}</td>'
        f'<td class="small" data-figure="encodings">{_counts(row["encodings"])}</td>'
        f'<td class="small" data-figure="sources">{_counts(row["sources"])}</td>'
        f'<td class="n" data-figure="conflicts">{_n(row["conflicts"])}</td></tr>'
    )


def _kind_name(kind: ChangeKind) -> str:
    scrapy, ours, fffd_only = kind
    what = "U+FFFD only" if fffd_only else "different text"
    return f"{scrapy or '?'} \u2192 {ours}, {what}"


def _sample_head(sample: dict[str, Any]) -> str:
    meta = [
        link(sample["url"]),
        f"stored {text(sample['date'])}" if sample.get("date") else "no date",
        f"record {text(sample['record'], SHOWN)}" if sample.get("record") else "",
    ]
    return " \u00b7 ".join(part for part in meta if part)


def _sample(sample: dict[str, Any], left: str, right: str, keys: tuple[str, str]) -> str:
    excerpt = sample.get("excerpt")
    head = _sample_head(sample)
    if not excerpt:
        return f'<div class="sample"><div class="meta">{head}</div></div>'
    before, after = highlighted(str(excerpt[keys[0]]), str(excerpt[keys[1]]))
    offset = _n(int(excerpt["offset"]))
    return (
        f'<div class="sample"><div class="meta">{head} \u00b7 first difference at character '
        f"{offset}</div><table><thead><tr><th>{left}</th><th>{right}</th></tr></thead>"
        f'<tbody><tr><td class="text scrapy">{before}</td><td class="text ours">{after}</td>'
        "</tr></tbody></table></div>"
    )


# --- the page -----------------------------------------------------------------------------


def audit_date() -> str:
    """Now, or ``SOURCE_DATE_EPOCH`` when set, in UTC to the minute."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
        if epoch and epoch.isdigit()
        else datetime.datetime.now(datetime.timezone.utc)
    )
    return when.strftime("%Y-%m-%d %H:%M UTC")


#: The CSV's columns: the page, its damage, whether scrapy-charset reads it differently
#: from plain Scrapy, the two encodings, and where it was stored.
CSV_COLUMNS = (
    "url",
    "damage",
    "u_fffd",
    "mojibake",
    "read_differently",
    "fffd_only",
    "scrapy_encoding",
    "encoding",
    "decided_by",
    "stored",
    "input",
    "record",
)

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a
    leading ``'``."""
    value = str(value)
    return "'" + value if value.startswith(_FORMULA) else value


def pages_csv(summary: Summary) -> str:
    """The listed pages as CSV, those still damaged first, then those read differently."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    rows = sorted(summary.listed, key=lambda row: not (row["fffd"] or row["mojibake"]))
    for row in rows:
        damage = " and ".join(
            part
            for part in ("U+FFFD" if row["fffd"] else "", "mojibake" if row["mojibake"] else "")
            if part
        )
        writer.writerow(
            _cell(value)
            for value in (
                row["url"],
                damage or "none",
                row["fffd"],
                row["mojibake"],
                "yes" if row["differs"] else "no",
                "yes" if row["fffd_only"] else "no",
                row["scrapy_encoding"],
                row["encoding"],
                row["decided_by"],
                row["date"],
                row["input"],
                row["record"],
            )
        )
    return out.getvalue()


def _download(summary: Summary, date: str) -> str:
    listed, more = len(summary.listed), summary.unlisted
    if not listed:
        return '<p class="note" id="csv-none">No page is damaged or read differently.</p>'
    data = base64.b64encode(pages_csv(summary).encode("utf-8")).decode("ascii")
    name = f"scrapy-charset-audit-{date[:10]}.csv"
    rest = (
        f" The first {_n(listed)} are listed; {_n(more)} more are not (see "
        "<code>--diff-out</code> and <code>--json</code>)."
        if more
        else ""
    )
    return (
        f'<p class="note">The pages to act on, as a spreadsheet: <a id="csv" download="{name}" '
        f'href="data:text/csv;charset=utf-8;base64,{data}">{name}</a> ({_n(listed)} '
        f"{'page' if listed == 1 else 'pages'}, the damaged first: URL, damage, whether "
        f"scrapy-charset reads it differently from plain Scrapy, both encodings, the rule that "
        f"decided, where and when it was stored).{rest}</p>"
    )


def render(summary: Summary, *, hosts: int = HOSTS, date: str | None = None) -> str:
    """The report as one HTML document, dated *date* (by default :func:`audit_date`)."""
    date = date or audit_date()
    data = summary.as_dict()
    skipped = sum(data["skipped"].values())
    left_alone = sum(data["left_alone"].values())
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>scrapy-charset audit</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>What is still damaged, and what scrapy-charset fixes</h1>",
        f'<p class="lead">Audited <time id="audit-date">{text(date)}</time>: '
        + (", ".join(text(row["input"], SHOWN) for row in data["inputs"][:10]) or "no input")
        + (f" and {_n(len(data['inputs']) - 10)} more" if len(data["inputs"]) > 10 else "")
        + ". Each stored response decoded as the middleware decodes it, against plain "
        "Scrapy's <code>TextResponse.text</code> for the same bytes and headers.</p>",
    ]
    out.append(_headline(summary, data, skipped, left_alone, date))
    out.append(_replacement_section(summary, data))
    out.append(_mojibake_section(summary, data))
    out.append(_samples_section(summary, data))
    out.append(_charts(data))
    out.append(_hosts_section(summary, data, hosts))
    out.append(_skipped_section(data))
    out.append(_inputs_section(data, summary.top))
    out.append(f"<footer>{_versions()}</footer></body></html>\n")
    return "\n".join(out)


def _headline(
    summary: Summary, data: dict[str, Any], skipped: int, left_alone: int, date: str
) -> str:
    decided = data["decided"]
    damaged = [
        _card(
            "with U+FFFD in their text",
            data["replacement"],
            "replacement",
            f"{_share(data['replacement'], decided)} of those decoded" if decided else "",
            "bad" if data["replacement"] else "",
        )
    ]
    if "mojibake" in data:
        damaged.append(
            _card(
                "with mojibake in their text",
                data["mojibake"],
                "mojibake",
                f"{_share(data['mojibake'], decided)} of those decoded" if decided else "",
                "bad" if data["mojibake"] else "",
            )
        )
    fixed = [
        _card(
            "read right by scrapy-charset, differently by plain Scrapy",
            data["differs"],
            "differs",
            f"{_share(data['differs'], decided)} of those decoded" if decided else "",
            "good" if data["differs"] else "",
        ),
        _card("of which U+FFFD only", data["differs_fffd_only"], "differs_fffd_only"),
        _card("of which different text", data["differs_text"], "differs_text"),
    ]
    read = [
        _card("responses read", data["records"], "records"),
        _card("skipped (unreadable input)", skipped, "skipped", style="warn" if skipped else ""),
        _card("left alone (not text)", left_alone, "left_alone"),
        _card("decoded", decided, "decided"),
    ]
    mojibake_off = (
        ""
        if "mojibake" in data
        else '<p class="note" id="mojibake-off">Mojibake not checked (<code>--no-mojibake'
        "</code>).</p>"
    )
    parts = [
        '<section id="headline"><h2>Still damaged</h2><p class="note">Decoded responses '
        "whose text, as scrapy-charset decodes it, still holds U+FFFD (bytes invalid in "
        "the encoding, or the character the page itself stores) or mojibake (the site "
        "stored it so, or a declaration browsers follow too is wrong): your spiders get "
        f"this text with or without scrapy-charset.</p>{mojibake_off}"
        f'<div class="cards" id="damaged">{"".join(damaged)}</div>'
        + _download(summary, date)
        + '<h2>What scrapy-charset fixes</h2><p class="note">Decoded responses whose text '
        "plain Scrapy reads differently: scrapy-charset reads them as browsers do.</p>"
        f'<div class="cards" id="fixed">{"".join(fixed)}</div>'
        f'<h2>Read</h2><div class="cards" id="read">{"".join(read)}</div>'
    ]
    if not data["records"] and not skipped:
        parts.append(
            '<p class="notice" id="empty">No stored response was found in these sources: '
            "nothing to audit.</p>"
        )
    elif not data["records"]:
        parts.append(
            '<p class="notice" id="empty">No stored response could be read: every record '
            "was skipped (the reasons are at the end).</p>"
        )
    elif not decided:
        parts.append(
            '<p class="notice" id="empty">No stored response had text to decode: every one '
            "was left alone (the reasons are at the end).</p>"
        )
    parts.append("</section>")
    return "".join(parts)


def _skipped_section(data: dict[str, Any]) -> str:
    return (
        '<section id="skipped-and-left-alone"><h2>Skipped and left alone</h2>'
        '<p class="note">Skipped: input that could not be read (a truncated archive, a broken '
        "HTTP header block, a cache entry without metadata, a record over the size limit). "
        "Left alone: responses the middleware does not decode (images, revisits, dns:...).</p>"
        '<div class="cards" style="align-items:flex-start;gap:32px">'
        + _reasons("skipped", "Skipped", data["skipped"], "Nothing was skipped.")
        + _reasons("left-alone", "Left alone", data["left_alone"], "Nothing was left alone.")
        + "</div></section>"
    )


def _hosts_section(summary: Summary, data: dict[str, Any], hosts: int) -> str:
    rows, rest = summary.host_table(hosts)
    body = [_host_row(row, "host", text(row["host"] or "(no host)", SHOWN)) for row in rows]
    if rest is not None:
        name = f"{_n(rest['hosts'])} other hosts"
        if any(row["host"] == OTHER_HOSTS for row in rows) or OTHER_HOSTS in summary.hosts:
            name += " (and the hosts past the audit's host limit)"
        body.append(_host_row(rest, "other", name))
    return (
        '<section id="by-host"><h2>By host</h2>'
        f'<p class="note">The hosts with the most responses read differently from plain '
        f"Scrapy, first; at most {_n(hosts)} rows (<code>--html-hosts</code>), the rest in one "
        "row. Responses decoded, those read differently, the encodings and the rules that "
        "decided, "
        "and the responses whose declarations named different encodings (conflicts).</p>"
        + _table(
            "hosts",
            [
                ("Host", False),
                ("Decoded", True),
                ("Read differently", True),
                ("U+FFFD only", True),
                ("Encodings", False),
                ("Decided by", False),
                ("Conflicts", True),
            ],
            body,
            "No response was decoded.",
        )
        + "</section>"
    )


def _charts(data: dict[str, Any]) -> str:
    rules = list(data["sources"].items())
    pairs = [
        (f"{row['scrapy'] or '?'} \u2192 {row['scrapy_charset']}", row["differs"])
        for row in data["encoding_pairs"]
        if row["differs"]
    ]
    return (
        '<section id="charts"><h2>By rule and encoding</h2>'
        '<h3>Decisions by rule</h3><p class="note">What decided each decoded response: a '
        "byte order mark, the Content-Type header, a &lt;meta&gt; or XML declaration, valid "
        "UTF-8, detection, or the default.</p>"
        f'<div id="chart-rules">{_bars(rules, "Decisions by rule", "#0969da")}</div>'
        '<h3>Responses read differently, by encoding</h3><p class="note">The encoding '
        "plain Scrapy used \u2192 the one scrapy-charset uses, for the responses it reads "
        "differently.</p>"
        f'<div id="chart-pairs">{_bars(pairs, "Responses read differently", "#1a7f37")}'
        "</div></section>"
    )


def _change_counts(data: dict[str, Any]) -> list[tuple[ChangeKind, int]]:
    kinds: list[tuple[ChangeKind, int]] = []
    for row in data["encoding_pairs"]:
        text_count = row["differs"] - row["differs_fffd_only"]
        if text_count:
            kinds.append(((row["scrapy"], row["scrapy_charset"], False), text_count))
        if row["differs_fffd_only"]:
            kinds.append(((row["scrapy"], row["scrapy_charset"], True), row["differs_fffd_only"]))
    kinds.sort(key=lambda kc: (-kc[1], kc[0]))
    return kinds


def _samples_section(summary: Summary, data: dict[str, Any]) -> str:
    kinds = _change_counts(data)
    parts = [
        '<section id="samples"><h2>What scrapy-charset fixes: samples</h2><p class="note">'
        "For the most frequent kinds of change (the pair of encodings, and whether only "
        "U+FFFD differ), the first responses read, at their first difference: plain "
        "Scrapy's text and scrapy-charset's, the characters that differ marked. Invisible "
        'and reordering characters show as <span class="c">U+XXXX</span>.</p>'
    ]
    if not kinds:
        parts.append(
            '<p class="note" id="samples-none">No response is read differently from plain '
            "Scrapy.</p>"
        )
    for kind, count in kinds[:SAMPLE_KINDS]:
        scrapy, ours, fffd_only = kind
        parts.append(
            f'<article class="kind" data-scrapy="{plain(scrapy, 200)}" '
            f'data-encoding="{plain(ours, 200)}" data-fffd-only="{str(fffd_only).lower()}">'
            f"<h3>{text(_kind_name(kind))}: {_responses(count)}</h3>"
        )
        for sample in summary.samples.get(kind, []):
            parts.append(
                _sample(
                    sample,
                    f"plain Scrapy ({text(scrapy or '?')})",
                    f"scrapy-charset ({text(ours)})",
                    ("scrapy", "scrapy_charset"),
                )
            )
        parts.append("</article>")
    if len(kinds) > SAMPLE_KINDS:
        parts.append(f'<p class="note">And {_n(len(kinds) - SAMPLE_KINDS)} rarer kinds.</p>')
    parts.append("</section>")
    return "".join(parts)


def _replacement_section(summary: Summary, data: dict[str, Any]) -> str:
    parts = [
        '<section id="replacement"><h2>U+FFFD in the decoded text</h2><p class="note">The '
        "first responses whose text, decoded as scrapy-charset decodes it, holds U+FFFD "
        "REPLACEMENT CHARACTER, at the first one.</p>"
    ]
    if not data["replacement"]:
        parts.append('<p class="note" id="replacement-none">No decoded text holds U+FFFD.</p>')
    for sample in summary.replacement_samples:
        parts.append(_damage_sample(sample))
    parts.append("</section>")
    return "".join(parts)


def _damage_sample(sample: dict[str, Any]) -> str:
    """A sample of damage: its page, and its text around the first U+FFFD, marked."""
    head = _sample_head(sample)
    excerpt = sample.get("excerpt")
    if not excerpt:
        return f'<div class="sample"><div class="meta">{head}</div></div>'
    shown = "".join(
        "<mark>\ufffd</mark>" if part == "\ufffd" else text(part)
        for part in re.split("(\ufffd)", str(excerpt["text"]))
    )
    return (
        f'<div class="sample"><div class="meta">{head} \u00b7 first U+FFFD at character '
        f'{_n(int(excerpt["offset"]))}</div><div class="text">{shown}</div></div>'
    )


def _mojibake_section(summary: Summary, data: dict[str, Any]) -> str:
    parts = ['<section id="mojibake"><h2>Mojibake in the decoded text</h2>']
    if "mojibake_kinds" not in data:
        parts.append(
            '<p class="note">Not checked (<code>--no-mojibake</code>): without it the audit '
            "finds the text that still carries mojibake once decoded as scrapy-charset "
            "decodes it.</p></section>"
        )
        return "".join(parts)
    parts.append(
        '<p class="note">Responses whose text, decoded as scrapy-charset decodes it, still '
        "carries mojibake (the site stored it so, or its declarations are wrong in a way "
        "browsers follow too), by kind; with the first responses of each kind and, where "
        "<code>inspect_text</code> can repair it, the text before and after the repair.</p>"
    )
    rows = (
        f'<tr data-kind="{plain(kind, 200)}"><td>{text(kind)}</td>'
        f'<td class="n">{_n(count)}</td></tr>'
        for kind, count in data["mojibake_kinds"].items()
    )
    parts.append(
        _table(
            "mojibake-kinds",
            [("Kind", False), ("Responses", True)],
            rows,
            "No decoded text carries mojibake.",
        )
    )
    for kind in data["mojibake_kinds"]:
        parts.append(f'<article class="mojibake" data-kind="{plain(kind, 200)}">')
        parts.append(f"<h3>{text(kind)}</h3>")
        for sample in summary.mojibake_samples.get(kind, []):
            parts.append(_sample(sample, "decoded", "repaired", ("text", "repaired")))
        parts.append("</article>")
    parts.append("</section>")
    return "".join(parts)


def _inputs_section(data: dict[str, Any], top: int) -> str:
    rows = [
        f'<tr><td class="host">{text(row["input"], SHOWN)}</td>'
        f'<td class="n">{_n(row["records"])}</td><td class="n">{_n(row["skipped"])}</td>'
        f'<td class="n">{_n(row["decided"])}</td><td class="n">{_n(row["differs"])}</td></tr>'
        for row in data["inputs"][:top]
    ]
    more = len(data["inputs"]) - top
    if more > 0:
        rows.append(f'<tr class="other"><td colspan="5">{_n(more)} more (see --json)</td></tr>')
    return (
        '<section id="inputs"><h2>Inputs</h2>'
        + _table(
            "inputs-table",
            [
                ("Input", False),
                ("Read", True),
                ("Skipped", True),
                ("Decoded", True),
                ("Read differently", True),
            ],
            rows,
            "No input.",
        )
        + "</section>"
    )


def _versions() -> str:
    import scrapy

    from scrapy_charset import __version__

    return (
        f"scrapy-charset {text(__version__)}, Scrapy {text(scrapy.__version__)}. The same "
        "figures: <code>scrapy charset audit --json</code>."
    )
