"""Per-response cost of the downloader middleware, against Scrapy's own decoding.

Run: ``python -m benchmarks.middleware``. For each page shape it times, on a fresh response
each time:

- ``scrapy``: ``HtmlResponse(...).text`` (Scrapy's detection, then w3lib's decode);
- ``charset``: ``CharsetMiddleware.process_response(...)`` then ``.text`` (the decision, the
  rebuilt response, the WHATWG codec);
- ``decide``: ``process_response`` alone (no ``.text``: what a response costs when the
  spider never reads the text);
- ``floor``: ``bytes.decode`` with the right Python codec, the least any decoder can cost.

It prints the times and the ratios to the floor, then the growth exponent of the
``charset`` path over body sizes (1.0 is linear).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.reactor import install_reactor, is_reactor_installed
from scrapy.utils.test import get_crawler

from benchmarks._growth import best_time, growth_exponent
from scrapy_charset.middleware import CharsetMiddleware

URL = "https://example.com/page"
PARAGRAPHS = {
    "ru": "<p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p>\n",
    "ja": "<p>吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。</p>\n",
    "fr": "<p>Les élèves ont étudié à l'école près de la forêt, où l'été dure.</p>\n",
}


@dataclass(frozen=True)
class Shape:
    name: str
    lang: str
    codec: str  # Python codec of the body (and of the floor)
    content_type: str
    head: str = ""


SHAPES = [
    Shape("UTF-8, header", "fr", "utf-8", "text/html; charset=utf-8"),
    Shape(
        "windows-1251, <meta> only", "ru", "cp1251", "text/html", '<meta charset="windows-1251">'
    ),
    Shape("UTF-8, undeclared", "ja", "utf-8", "text/html"),
    Shape("Shift_JIS, undeclared", "ja", "cp932", "text/html"),
]
SIZES = [10_000, 100_000, 1_000_000]


def body(shape: Shape, size: int) -> bytes:
    paragraph = PARAGRAPHS[shape.lang]
    text = shape.head + "<html><body>\n" + paragraph * (size // len(paragraph.encode()) + 1)
    return text.encode(shape.codec)[:size].decode(shape.codec, "ignore").encode(shape.codec)


def middleware() -> CharsetMiddleware:
    if not is_reactor_installed():
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    return build_from_crawler(CharsetMiddleware, get_crawler(settings_dict={"LOG_LEVEL": "INFO"}))


def paths(mw: CharsetMiddleware, shape: Shape, data: bytes) -> dict[str, Callable[[], object]]:
    headers = {"Content-Type": shape.content_type}

    def scrapy() -> object:
        return HtmlResponse(URL, body=data, headers=headers).text

    def decide() -> object:
        return mw.process_response(Request(URL), HtmlResponse(URL, body=data, headers=headers))

    def charset() -> object:
        response = mw.process_response(Request(URL), HtmlResponse(URL, body=data, headers=headers))
        assert isinstance(response, HtmlResponse)
        return response.text

    def floor() -> object:
        return data.decode(shape.codec)

    return {"scrapy": scrapy, "charset": charset, "decide": decide, "floor": floor}


def main() -> None:
    mw = middleware()
    size = 100_000
    print(f"Per response, {size:,}-byte bodies (ratio to bytes.decode):")
    print(f"{'shape':<28}{'scrapy':>18}{'charset':>18}{'decide':>18}{'floor':>10}")
    for shape in SHAPES:
        timings = {
            name: best_time(run) for name, run in paths(mw, shape, body(shape, size)).items()
        }
        floor = timings["floor"]
        cells = "".join(
            f"{timings[name] * 1e6:>9.0f}us {timings[name] / floor:>5.1f}x"
            for name in ("scrapy", "charset", "decide")
        )
        print(f"{shape.name:<28}{cells}{floor * 1e6:>8.0f}us")
    print()
    print("charset/scrapy ratio and growth of the charset path over sizes:")
    for shape in SHAPES:
        charset_times, ratios = [], []
        for n in SIZES:
            runs = paths(mw, shape, body(shape, n))
            charset_time = best_time(runs["charset"])
            charset_times.append(charset_time)
            ratios.append(charset_time / best_time(runs["scrapy"]))
        cells = "".join(f"{n:>10,}: {r:4.2f}" for n, r in zip(SIZES, ratios, strict=True))
        exponent = growth_exponent(SIZES, charset_times)
        print(f"{shape.name:<28}{cells}   exponent {exponent:4.2f}")


if __name__ == "__main__":
    main()
