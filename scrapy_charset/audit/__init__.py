"""Audit what was already crawled: the responses kept in Scrapy's HTTP cache and in WARC
or WACZ archives, decoded again as the middleware does and set against plain Scrapy's text.

:func:`audit_record` audits one response; ``scrapy charset audit`` reads whole archives
(:mod:`scrapy_charset.audit.sources`), in parallel, and sums up (:mod:`.summary`).
"""

from __future__ import annotations

from scrapy_charset.audit.record import audit_record

__all__ = ["audit_record"]
