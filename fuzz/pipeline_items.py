"""Fuzz target: ``CharsetPipeline.process_item`` on arbitrary items of every item type.

Run with atheris (``pip install atheris``; libFuzzer options follow the module)::

    python -m fuzz.pipeline_items -max_total_time=600 corpus/

The input bytes are read as a small program that builds one item (:func:`build_item`): a
dict, ``scrapy.Item``, dataclass, attrs or pydantic item whose fields hold strings (any
code point, lone surrogates and controls included, or the mojibake readings of UTF-8
bytes), numbers, ``None`` and nested lists, tuples, sets, frozensets, dicts and items.
The property (:func:`check_item`) is the pipeline's promise to users: ``process_item``
returns the item it was given, raises nothing, and changes nothing but the strings the
text check repairs, wherever they sit; after an internal error, the item is unchanged.
The test suite runs :func:`one_input` under hypothesis on every run.
"""

from __future__ import annotations

import copy
import dataclasses
import sys
from collections.abc import Callable
from typing import Any

if __name__ == "__main__":  # pragma: no cover - coverage feedback for the package only
    import atheris

    with atheris.instrument_imports(include=["scrapy_charset"]):
        import scrapy_charset.items.mojibake
        import scrapy_charset.items.pipeline
        import scrapy_charset.items.textcheck  # noqa: F401

import attrs
import pydantic
import scrapy
from itemadapter import ItemAdapter
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_charset.items.pipeline import CharsetPipeline
from scrapy_charset.items.textcheck import inspect_text

__all__ = [
    "ITEM_TYPES",
    "build_item",
    "check_item",
    "expected_value",
    "make_pipeline",
    "one_input",
]

#: The field names every item type declares.
FIELDS = ("title", "text", "offers", "tags")

# --- Item types ------------------------------------------------------------------------


class ScrapyItem(scrapy.Item):
    title = scrapy.Field()
    text = scrapy.Field()
    offers = scrapy.Field()
    tags = scrapy.Field()


@dataclasses.dataclass
class DataclassItem:
    title: Any = None
    text: Any = None
    offers: Any = None
    tags: Any = None


@attrs.define
class AttrsItem:
    title: Any = None
    text: Any = None
    offers: Any = None
    tags: Any = None


class PydanticItem(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)

    title: Any = None
    text: Any = None
    offers: Any = None
    tags: Any = None


def _dict_item(**fields: Any) -> dict[str, Any]:
    return dict(fields)


#: Every item type itemadapter supports, built from keyword arguments.
ITEM_TYPES: tuple[Callable[..., Any], ...] = (
    _dict_item,
    ScrapyItem,
    DataclassItem,
    AttrsItem,
    PydanticItem,
)

# --- Building an item from bytes ---------------------------------------------------------

# A string is read in one of these ways from its bytes: as UTF-16 code units (any BMP code
# point, lone surrogates included), as UTF-8 (undecodable bytes become U+FFFD), or as the
# mojibake readings of UTF-8: its bytes decoded as windows-1252, windows-1251, latin-1,
# Shift_JIS, macintosh, twice.
_READINGS: tuple[Callable[[bytes], str], ...] = (
    lambda b: "".join(chr(int.from_bytes(b[i : i + 2], "little")) for i in range(0, len(b), 2)),
    lambda b: b.decode("utf-8", "replace"),
    lambda b: b.decode("utf-8", "replace").encode().decode("cp1252", "replace"),
    lambda b: b.decode("utf-8", "replace").encode().decode("cp1251", "replace"),
    lambda b: b.decode("utf-8", "replace").encode().decode("latin-1"),
    lambda b: b.decode("utf-8", "replace").encode().decode("shift_jis", "replace"),
    lambda b: b.decode("utf-8", "replace").encode().decode("mac_roman"),
    lambda b: (
        b.decode("utf-8", "replace")
        .encode()
        .decode("cp1252", "replace")
        .encode()
        .decode("cp1252", "replace")
    ),
)


class _Reader:
    """Bytes consumed from the front; zeros once they run out."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def byte(self) -> int:
        if self.position >= len(self.data):
            return 0
        self.position += 1
        return self.data[self.position - 1]

    def take(self, size: int) -> bytes:
        chunk = self.data[self.position : self.position + size]
        self.position += len(chunk)
        return chunk


_MAX_DEPTH = 6
_MAX_ELEMENTS = 6


def _text(reader: _Reader) -> str:
    reading = _READINGS[reader.byte() % len(_READINGS)]
    return reading(reader.take(reader.byte()))


def _value(reader: _Reader, depth: int) -> Any:
    op = reader.byte() % (12 if depth < _MAX_DEPTH else 4)
    if op <= 1:
        return _text(reader)
    if op == 2:
        return None
    if op == 3:
        return reader.byte() - 128
    size = reader.byte() % _MAX_ELEMENTS
    if op == 4:
        return [_value(reader, depth + 1) for _ in range(size)]
    if op == 5:
        return tuple(_value(reader, depth + 1) for _ in range(size))
    if op == 6:
        return {_text(reader) for _ in range(size)}
    if op == 7:
        return frozenset(_text(reader) for _ in range(size))
    if op == 8:
        return {_text(reader): _value(reader, depth + 1) for _ in range(size)}
    if op == 9:
        return {reader.byte(): _value(reader, depth + 1) for _ in range(size)}
    return _item(reader, depth + 1)


def _item(reader: _Reader, depth: int) -> Any:
    make = ITEM_TYPES[reader.byte() % len(ITEM_TYPES)]
    fields = {name: _value(reader, depth) for name in FIELDS if reader.byte() % 4}
    return make(**fields)


def build_item(data: bytes) -> Any:
    """The item that *data* describes (see the module docstring)."""
    return _item(_Reader(data), 0)


# --- The property --------------------------------------------------------------------------


def _fixed(text: str, legacy: bool) -> str:
    """What the pipeline may make of one string: its repair, or itself."""
    try:
        report = inspect_text(text, legacy=legacy)
    except Exception:  # the pipeline must then leave the whole item alone
        return text
    if report.mojibake is not None and report.repaired is not None:
        return report.repaired
    return text


def expected_value(value: Any, legacy: bool = False) -> Any:
    """*value* (a deep copy is made) with every string replaced by its repair."""
    if isinstance(value, str):
        return _fixed(value, legacy)
    if isinstance(value, list):
        return [expected_value(v, legacy) for v in value]
    if type(value) in (tuple, set, frozenset):
        return type(value)(expected_value(v, legacy) for v in value)
    if isinstance(value, dict):
        return {k: expected_value(v, legacy) for k, v in value.items()}
    if ItemAdapter.is_item(value):
        new = copy.deepcopy(value)
        adapter = ItemAdapter(new)
        for key in list(adapter.keys()):
            adapter[key] = expected_value(adapter[key], legacy)
        return new
    return copy.deepcopy(value)


def make_pipeline(settings: dict[str, Any] | None = None) -> CharsetPipeline:
    """A pipeline on a test crawler (Scrapy < 2.14 needs an installed reactor for one)."""
    from scrapy.utils.reactor import install_reactor, is_reactor_installed

    if not is_reactor_installed():
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    crawler = get_crawler(scrapy.Spider, settings_dict=settings or {})
    return build_from_crawler(CharsetPipeline, crawler)


def check_item(pipeline: CharsetPipeline, item: Any) -> None:
    """Run *item* through *pipeline* and check the promise (see the module docstring)."""
    before = copy.deepcopy(item)
    errors = pipeline.stats.get_value("charset/errors/pipeline", 0)
    result = pipeline.process_item(item)
    assert result is item
    if pipeline.stats.get_value("charset/errors/pipeline", 0) != errors:
        assert item == before, "an internal error changed the item"
    elif not pipeline.config.repair:
        assert item == before, "CHARSET_REPAIR_ENABLED is False, yet the item changed"
    else:
        assert item == expected_value(before, pipeline.config.repair_legacy)


_PIPELINE: CharsetPipeline | None = None


def one_input(data: bytes) -> None:
    global _PIPELINE
    if _PIPELINE is None:
        _PIPELINE = make_pipeline({"CHARSET_MAX_FIELD_PATHS": 20})
    check_item(_PIPELINE, build_item(data))


def main() -> None:  # pragma: no cover - needs atheris
    import atheris

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":  # pragma: no cover
    main()
