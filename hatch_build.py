"""The wheel's optional compiled scanner: with ``SCRAPY_CHARSET_COMPILE=1``,
``python -m build --wheel`` compiles ``scrapy_charset/items/mojibake/_scanc.c`` (see
``scripts/build_scanner.py``) into a platform wheel. Without it, the wheel is pure Python,
as it is for every install without a compiler, and the pure path runs.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _asked() -> bool:
    return os.environ.get("SCRAPY_CHARSET_COMPILE", "") not in ("", "0")


class ScannerBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not _asked():
            return
        spec = importlib.util.spec_from_file_location(
            "build_scanner", Path(self.root, "scripts", "build_scanner.py")
        )
        assert spec is not None
        assert spec.loader is not None
        builder = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(builder)
        self._output = tempfile.TemporaryDirectory()
        module = builder.build(Path(self.root), Path(self._output.name))
        build_data["force_include"][str(module)] = str(builder.PACKAGE / module.name)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        output = getattr(self, "_output", None)
        if output is not None:
            output.cleanup()
