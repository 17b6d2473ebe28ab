"""The documented Dask recipe (docs/audit.md), run as written on a local cluster: the same
totals as ``scrapy charset audit`` on the same WARC files."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.archives import Archive, euc_jp_page, write_demo
from tests.example import run_scrapy, write_entry_point
from tests.spec import REPO

distributed = pytest.importorskip("dask.distributed")


def recipe() -> dict[str, Any]:
    """The recipe's code, from the documentation page."""
    page = (REPO / "docs" / "audit.md").read_text("utf-8")
    found = re.search(r"```python\n(# The Dask recipe\n.*?)```", page, re.DOTALL)
    assert found is not None, "the recipe is missing from docs/audit.md"
    namespace: dict[str, Any] = {"__name__": "recipe"}
    exec(compile(found.group(1), "docs/audit.md", "exec"), namespace)
    return namespace


def test_dask_recipe_gives_the_command_totals(tmp_path: Path) -> None:
    with open(tmp_path / "a.warc.gz", "wb") as stream:
        write_demo(stream)
    shutil.copy(tmp_path / "a.warc.gz", tmp_path / "b.warc.gz")
    with open(tmp_path / "c.warc.gz", "wb") as stream:
        url, body = euc_jp_page()
        Archive(stream).response(url, body, [("Content-Type", "text/html; charset=euc-jp")])
    paths = [str(tmp_path / name) for name in ("a.warc.gz", "b.warc.gz", "c.warc.gz")]

    audit_warcs = recipe()["audit_warcs"]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        found = audit_warcs(paths, str(tmp_path / "differ-*.jsonl"))

    command = run_scrapy(
        ["charset", "audit", "--json", "--jobs", "1", *paths],
        path=[write_entry_point(tmp_path / "entry-point"), REPO],
        cwd=tmp_path,
    )
    assert command.returncode == 0, command.stderr
    summary = json.loads(command.stdout)
    assert found == {
        "records": summary["records"],
        "decided": summary["decided"],
        "differs": summary["differs"],
        "differs_fffd_only": summary["differs_fffd_only"],
        "hosts": {row["host"]: row["differs"] for row in summary["hosts"] if row["differs"]},
    }
    assert found["differs_fffd_only"] == 1  # the EUC-JP page
    lines = [
        json.loads(line)
        for part in sorted(tmp_path.glob("differ-*.jsonl"))
        for line in part.read_text("utf-8").splitlines()
    ]
    assert len(lines) == summary["differs"]
    assert {line["warc"] for line in lines} == set(paths)
