"""Alerts in a distributed crawl: worker processes sharing scrapy-redis's
``RedisStatsCollector`` on a real Redis server, started by the test on 127.0.0.1.

The ``charset/`` stats are integers incremented one by one, so they add up across the
workers. The alert rules are judged per process, on that process's own items (see
docs/item-checks.md, "Distributed crawls"): each worker that sees the damage fires its own
alert, so ``charset/alerts/<kind>`` counts the workers that fired, a restarted worker fires
again, and a field that no single worker saw in ``CHARSET_ALERT_MIN_ITEMS`` items raises no
alert even when the cluster saw more. The test pins that behaviour, so that the docs
change with it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.crawl import CrawlResult, run_crawl
from tests.server import Page, serve

REDIS_SERVER = shutil.which("redis-server")
pytestmark = pytest.mark.skipif(
    REDIS_SERVER is None,
    reason="redis-server is not installed (.ci/run installs it from Debian's packages)",
)
redis = pytest.importorskip("redis")
pytest.importorskip("scrapy_redis")

ROUTES = {"/bad": Page("<p>café".encode("cp1252"), {"Content-Type": "text/html"})}
#: Each worker yields these from the page: ten values with U+FFFD.
ITEMS = [{"title": f"Caf\ufffd {i}"} for i in range(10)]
STATS_KEY = "probe:stats"  # scrapy-redis's STATS_KEY, "%(spider)s:stats", for the probe


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis server of the test's own, on 127.0.0.1 and a free port, stopped after."""
    assert REDIS_SERVER is not None
    port = _free_port()
    server = subprocess.Popen(
        [
            REDIS_SERVER,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if server.poll() is not None:
                    pytest.fail(f"redis-server exited with status {server.returncode}")
                time.sleep(0.05)
        else:
            pytest.fail("redis-server did not answer")
        yield f"redis://127.0.0.1:{port}"
    finally:
        client.close()
        server.terminate()
        server.wait(timeout=10)


def _worker(base: str, url: str, settings: dict[str, Any]) -> CrawlResult:
    return run_crawl(
        [f"{base}/bad"],
        {
            "ADDONS": {"scrapy_charset.addon.Addon": 0},
            "STATS_CLASS": "scrapy_redis.stats.RedisStatsCollector",
            "REDIS_URL": url,
            # Keep the shared stats when a worker closes (scrapy-redis clears them otherwise).
            "SCHEDULER_PERSIST": True,
            "LOG_LEVEL": "INFO",
            **settings,
        },
        items={f"{base}/bad": ITEMS},
    )


#: The keys both workers increment from their first item on.
RACED = (
    "charset/items_checked",
    "charset/replacement/items",
    "charset/replacement/source/detected",
    "charset/replacement/field/title",
    "charset/replacement/kind/replacement",
)


def _seed(url: str) -> None:
    """scrapy-redis's ``inc_value`` sets a missing key to 0 before it increments it (a
    check, then a set, then HINCRBY): two workers that start at once can each reset the
    other's first increment. The test creates the keys first, as a long-running cluster
    has them, so that the counts it checks are exact."""
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        client.hset(STATS_KEY, mapping=dict.fromkeys(RACED, 0))
    finally:
        client.close()


def _shared(url: str) -> dict[str, int]:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        stats = client.hgetall(STATS_KEY)
    finally:
        client.close()
    return {k: int(v) for k, v in stats.items() if k.startswith("charset/")}


def _alerts(result: CrawlResult) -> list[str]:
    return [line for line in result.log.splitlines() if "Charset alert" in line]


def test_each_worker_judges_its_own_items(redis_url: str) -> None:
    _seed(redis_url)
    with serve(ROUTES) as base, ThreadPoolExecutor(2) as pool:
        workers = list(
            pool.map(lambda _: _worker(base, redis_url, {"CHARSET_ALERT_MIN_ITEMS": 5}), range(2))
        )
        shared = _shared(redis_url)
        # The stats add up: twenty items checked, twenty with U+FFFD.
        assert shared["charset/items_checked"] == 20
        assert shared["charset/replacement/items"] == 20
        assert shared["charset/replacement/source/detected"] == 20
        # Each worker fired its own alert, on its own ten items.
        for worker in workers:
            (line,) = _alerts(worker)
            assert "replacement in field 'title': 100.0% of 5 items" in line
        assert shared["charset/alerts/replacement"] == 2
        # A restarted worker fires again: the alert windows live in the process.
        restarted = _worker(base, redis_url, {"CHARSET_ALERT_MIN_ITEMS": 5})
    assert len(_alerts(restarted)) == 1
    assert _shared(redis_url)["charset/alerts/replacement"] == 3


def test_no_worker_alone_reaching_min_items_raises_no_alert(redis_url: str) -> None:
    """Twenty damaged items in the cluster, ten per worker: CHARSET_ALERT_MIN_ITEMS = 15 is
    reached by no worker, so none alerts, and each says so when it closes."""
    _seed(redis_url)
    with serve(ROUTES) as base, ThreadPoolExecutor(2) as pool:
        workers = list(
            pool.map(lambda _: _worker(base, redis_url, {"CHARSET_ALERT_MIN_ITEMS": 15}), range(2))
        )
    shared = _shared(redis_url)
    assert shared["charset/replacement/items"] == 20
    assert "charset/alerts/replacement" not in shared
    for worker in workers:
        assert _alerts(worker) == []
        assert (
            "Charset: 10 damaged values raised no alert: the rate rule judges a field after "
            "CHARSET_ALERT_MIN_ITEMS = 15 items carrying it, and these had fewer: "
            "'title' U+FFFD in 10 of 10 items"
        ) in worker.log
