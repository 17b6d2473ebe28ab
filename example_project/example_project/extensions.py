"""The demo's periodic log of its ``charset/`` stats."""

from __future__ import annotations

from scrapy.extensions.periodic_log import PeriodicLog


class CharsetPeriodicLog(PeriodicLog):
    """Scrapy's PeriodicLog, which also logs when the spider opens: before the first
    response no ``charset/`` stat exists, and that line would read ``"stats": {}``. An
    interval with nothing to show logs nothing."""

    def log(self) -> None:
        if self.ext_stats_enabled and not self.log_crawler_stats()["stats"]:
            return
        super().log()
