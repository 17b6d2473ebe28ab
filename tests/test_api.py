"""The public functions as a user calls them: the middleware's defaults, and clear errors.

``sniff()`` detects with the middleware's default detector unless told otherwise, takes the
``Content-Type`` as Scrapy's headers give it (bytes) or as text, and every public function
names the argument whose type is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from scrapy_charset import Source, decode, lookup, sniff
from scrapy_charset.items.textcheck import inspect_text
from scrapy_charset.responses.middleware import CharsetMiddleware
from scrapy_charset.sniffing import sniff_with_text
from scrapy_charset.sniffing.detect import get_detector

# Undeclared windows-1251 on a .ru URL: only detection reads it right.
RUSSIAN = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p>".encode("cp1251")
RU_URL = "https://example.ru/"

# Values of every other type, for the arguments that take bytes or text.
OTHERS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.integers(0, 255), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.tuples(st.binary(max_size=4)),
)
NOT_BYTES = st.one_of(OTHERS, st.text(max_size=8))
NOT_TEXT = st.one_of(OTHERS, st.binary(max_size=8))
BYTES_LIKE = st.binary(max_size=64).flatmap(
    lambda b: st.sampled_from([b, bytearray(b), memoryview(b)])
)


# --- sniff() detects as the middleware does --------------------------------------------


@pytest.mark.parametrize(
    ("detector", "setting", "source"),
    [
        pytest.param("default", "default", Source.DETECTED, id="default"),
        pytest.param("chardetng", "chardetng", Source.DETECTED, id="named-backend"),
        pytest.param("none", "none", Source.DEFAULT, id="none-name"),
        pytest.param(None, "none", Source.DEFAULT, id="none"),
    ],
)
def test_sniff_detector_matches_the_middleware_setting(
    detector: str | None, setting: str, source: Source
) -> None:
    """``detector`` takes what ``CHARSET_DETECTOR`` takes, and gives the same decision."""
    decision = sniff(RUSSIAN, "text/html", RU_URL, detector=detector)
    assert decision.source is source
    crawler = get_crawler(settings_dict={"CHARSET_DETECTOR": setting})
    middleware = CharsetMiddleware.from_crawler(crawler)
    request = Request(RU_URL)
    response = HtmlResponse(
        RU_URL, body=RUSSIAN, headers={"Content-Type": "text/html"}, request=request
    )
    middleware.process_response(request, response)
    assert request.meta["charset"] == decision.as_dict()


def test_sniff_detects_by_default() -> None:
    decision = sniff(RUSSIAN, "text/html", RU_URL)
    assert (decision.encoding, decision.source) == ("windows-1251", Source.DETECTED)
    assert decision == sniff(RUSSIAN, "text/html", RU_URL, detector=get_detector())
    assert sniff_with_text(RUSSIAN, "text/html", RU_URL)[0] == decision


def test_sniff_unknown_detector_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown charset detector 'bogus'"):
        sniff(RUSSIAN, detector="bogus")


@pytest.mark.parametrize(
    ("header", "encoding", "ignored"),
    [
        pytest.param(b"text/html; charset=koi8-r", "KOI8-R", [], id="bytes"),
        pytest.param("text/html; charset=koi8-r", "KOI8-R", [], id="str"),
        # Header bytes are latin-1 (RFC 9110, 5.5): the unknown label is kept as written.
        pytest.param(b"text/html; charset=\xe9", "windows-1251", ["\xe9"], id="bytes-latin-1"),
        pytest.param(None, "windows-1251", [], id="none"),
    ],
)
def test_sniff_content_type_bytes_or_str(
    header: str | bytes | None, encoding: str, ignored: list[str]
) -> None:
    """Scrapy's ``response.headers.get("Content-Type")`` is bytes: it is read as latin-1."""
    decision = sniff(RUSSIAN, header, RU_URL)
    assert decision.encoding == encoding
    assert [i.label for i in decision.ignored] == ignored


@settings(max_examples=200, deadline=None)
@given(body=st.binary(max_size=256), header=st.text(max_size=40))
def test_sniff_bytes_header_is_its_latin_1_text(body: bytes, header: str) -> None:
    encoded = header.encode("latin-1", "replace")
    assert sniff(body, encoded) == sniff(body, encoded.decode("latin-1"))


@settings(max_examples=200, deadline=None)
@given(body=BYTES_LIKE)
def test_sniff_and_decode_take_any_bytes_like_body(body: bytes) -> None:
    raw = bytes(body)
    decision = sniff(body, "text/html")
    assert decision == sniff(raw, "text/html")
    assert decode(body, decision.encoding) == decode(raw, decision.encoding)


# --- Wrong argument types: a TypeError naming the argument ------------------------------


@pytest.mark.parametrize(
    ("function", "args", "kwargs", "message"),
    [
        pytest.param(
            sniff,
            (None,),
            {},
            "sniff() argument 'body' must be bytes, bytearray or memoryview, not NoneType",
            id="sniff-body-none",
        ),
        pytest.param(
            sniff,
            ("<p>café",),
            {},
            "sniff() argument 'body' must be bytes, bytearray or memoryview, not str",
            id="sniff-body-str",
        ),
        pytest.param(
            sniff,
            (b"x", ["text/html"]),
            {},
            "sniff() argument 'content_type' must be str, bytes or None, not list",
            id="sniff-content-type-list",
        ),
        pytest.param(
            sniff,
            (b"x", None, b"https://example.ru/"),
            {},
            "sniff() argument 'url' must be str or None, not bytes",
            id="sniff-url-bytes",
        ),
        pytest.param(
            sniff,
            (b"x",),
            {"override": b"koi8-r"},
            "sniff() argument 'override' must be str or None, not bytes",
            id="sniff-override-bytes",
        ),
        pytest.param(
            sniff,
            (b"x",),
            {"kind": ["html"]},
            "sniff() argument 'kind' must be str, not list",
            id="sniff-kind-list",
        ),
        pytest.param(
            sniff,
            (b"x",),
            {"default": 1252},
            "sniff() argument 'default' must be str or None, not int",
            id="sniff-default-int",
        ),
        pytest.param(
            sniff,
            (b"x",),
            {"detector": 1},
            "sniff() argument 'detector' must be a detector name, a callable or None, not int",
            id="sniff-detector-int",
        ),
        pytest.param(
            decode,
            (None, "utf-8"),
            {},
            "decode() argument 'body' must be bytes, bytearray or memoryview, not NoneType",
            id="decode-body-none",
        ),
        pytest.param(
            decode,
            (b"x", b"utf-8"),
            {},
            "decode() argument 'encoding' must be str, not bytes",
            id="decode-encoding-bytes",
        ),
        pytest.param(
            lookup,
            (None,),
            {},
            "lookup() argument 'label' must be str, not NoneType",
            id="lookup-none",
        ),
        pytest.param(
            lookup,
            (b"utf-8",),
            {},
            "lookup() argument 'label' must be str, not bytes",
            id="lookup-bytes",
        ),
        pytest.param(
            inspect_text,
            (None,),
            {},
            "inspect_text() argument 'value' must be str, not NoneType",
            id="inspect-text-none",
        ),
        pytest.param(
            inspect_text,
            (b"Caf\xc3\xa9",),
            {},
            "inspect_text() argument 'value' must be str, not bytes",
            id="inspect-text-bytes",
        ),
    ],
)
def test_wrong_types_name_the_argument(
    function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(TypeError) as info:
        function(*args, **kwargs)
    assert str(info.value) == message


@settings(max_examples=100, deadline=None)
@given(value=NOT_BYTES)
def test_sniff_and_decode_refuse_every_non_bytes_body(value: Any) -> None:
    with pytest.raises(TypeError, match=r"^sniff\(\) argument 'body' must be bytes"):
        sniff(value)
    with pytest.raises(TypeError, match=r"^decode\(\) argument 'body' must be bytes"):
        decode(value, "utf-8")


@settings(max_examples=100, deadline=None)
@given(value=NOT_TEXT)
def test_text_arguments_refuse_every_non_str(value: Any) -> None:
    with pytest.raises(TypeError, match=r"^decode\(\) argument 'encoding' must be str"):
        decode(b"x", value)
    with pytest.raises(TypeError, match=r"^lookup\(\) argument 'label' must be str"):
        lookup(value)
    with pytest.raises(TypeError, match=r"^inspect_text\(\) argument 'value' must be str"):
        inspect_text(value)


@settings(max_examples=100, deadline=None)
@given(value=st.one_of(OTHERS.filter(lambda v: v is not None), st.binary(max_size=8)))
def test_sniff_refuses_non_text_url_and_override(value: Any) -> None:
    with pytest.raises(TypeError, match=r"^sniff\(\) argument 'url' must be str or None"):
        sniff(b"x", None, value)
    with pytest.raises(TypeError, match=r"^sniff\(\) argument 'override' must be str or None"):
        sniff(b"x", override=value)


@settings(max_examples=100, deadline=None)
@given(value=st.text(max_size=20))
def test_lookup_and_inspect_text_take_every_str(value: str) -> None:
    found = lookup(value)
    assert found is None or isinstance(found, str)
    assert inspect_text(value).replacement_chars == value.count("\ufffd")
