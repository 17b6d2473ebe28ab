"""Project settings for ``scrapy parse`` in the interop tests (SCRAPY_SETTINGS_MODULE)."""

SPIDER_MODULES = ["tests.interop_site"]
ADDONS = {"scrapy_charset.Addon": 0}
TELNETCONSOLE_ENABLED = False
