"""Properties over arbitrary input: sniff() and decode() never raise, text is valid Unicode."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_charset import decode, lookup, sniff
from scrapy_charset.sniffing import KINDS
from scrapy_charset.whatwg.labels import LABELS

# Bytes biased towards markup, so the prescan's paths are exercised.
MARKUP = st.lists(
    st.sampled_from(
        [
            b"<",
            b">",
            b"<meta",
            b" charset=",
            b"'",
            b'"',
            b"<!--",
            b"-->",
            b"</",
            b"<?xml",
            b" encoding=",
            b"http-equiv=content-type",
            b" content=",
            b"utf-8",
            b"koi8-r",
            b"/",
            b"\x00",
            b"\xff\xfe",
            b"\xef\xbb\xbf",
            b"<head>",
            b"<script>",
            b"</script>",
            b" ",
        ]
    )
    | st.binary(max_size=8),
    max_size=60,
).map(b"".join)
BODIES = st.binary(max_size=2048) | MARKUP
HEADERS = (
    st.none()
    | st.text(max_size=80)
    | st.builds(
        lambda label: f"text/html; charset={label}", st.sampled_from(sorted(LABELS)) | st.text()
    )
)


@settings(max_examples=400, deadline=None)
@given(body=BODIES, content_type=HEADERS, kind=st.sampled_from(KINDS))
def test_sniff_never_raises(body: bytes, content_type: str | None, kind: str) -> None:
    decision = sniff(body, content_type, "http://example.com/", kind=kind)  # type: ignore[arg-type]
    assert lookup(decision.encoding) == decision.encoding or decision.encoding == "replacement"
    text = decode(body, decision.encoding)
    text.encode("utf-8")  # no lone surrogates


@settings(max_examples=300, deadline=None)
@given(body=st.binary(max_size=512), label=st.sampled_from(sorted(LABELS)))
def test_decode_never_raises(body: bytes, label: str) -> None:
    decode(body, label).encode("utf-8")
