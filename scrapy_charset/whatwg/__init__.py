"""The WHATWG Encoding Standard (https://encoding.spec.whatwg.org/).

Pure code: nothing here imports Scrapy.
"""

from scrapy_charset.whatwg.labels import get_encoding

__all__ = ["get_encoding"]
