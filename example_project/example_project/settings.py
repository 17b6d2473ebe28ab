"""Settings of the scrapy-charset example project."""

BOT_NAME = "example_project"
SPIDER_MODULES = ["example_project.spiders"]
NEWSPIDER_MODULE = "example_project.spiders"

# scrapy-charset: one line enables the downloader middleware (every text response decoded
# as a browser decodes it, and tagged in response.meta["charset"]), the item checks
# (U+FFFD and mojibake, safe repairs, alerts) and the item stamping below.
ADDONS = {"scrapy_charset.Addon": 0}

# Write each item's encoding decision (encoding, source, label, confidence) into this field,
# and each repair of mojibake (field, original, repaired, kind) into that one.
CHARSET_ITEM_FIELD = "encoding"
CHARSET_REPAIRS_FIELD = "repairs"

# The demo site has 16 pages: alert once 5 items are in (the default waits for 50).
CHARSET_ALERT_MIN_ITEMS = 5

# Show the charset/ stats while the crawl runs (every LOGSTATS_INTERVAL seconds and when
# it ends), not only in the final stats dump.
EXTENSIONS = {"example_project.extensions.CharsetPeriodicLog": 0}
PERIODIC_LOG_STATS = {"include": ["charset/"]}
LOGSTATS_INTERVAL = 30.0

# The demo routes its .ru virtual host through the local demo server (see middlewares.py).
DOWNLOADER_MIDDLEWARES = {"example_project.middlewares.DemoSiteRouting": 50}

# Be a polite crawler when pointed at a real site (`-a url=...`): the spider also sets a
# download delay then.
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS_PER_DOMAIN = 1
# One request at a time across the demo's hosts too: its log, and its alert, come in
# the same order on every run (docs/demo.md shows them).
CONCURRENT_REQUESTS = 1
USER_AGENT = "scrapy-charset-example (+https://github.com/scrapy-charset/scrapy-charset)"

LOG_LEVEL = "INFO"
TELNETCONSOLE_ENABLED = False
FEED_EXPORT_ENCODING = "utf-8"
