"""The wheel's optional compiled modules: with ``SCRAPY_CHARSET_COMPILE=1``,
``python -m build --wheel`` compiles the item checks' scanner
(``scrapy_charset/items/mojibake/_scanc.c``, see ``scripts/build_scanner.py``) and the item
checks' modules with mypyc (``scrapy_charset._compiled.MODULES``, see
``scripts/build_compiled.py``) into a platform wheel, which holds the sources too. Without
it, the wheel is pure Python, as it is for every install without a compiler, and the pure
path runs.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _asked() -> bool:
    return os.environ.get("SCRAPY_CHARSET_COMPILE", "") not in ("", "0")


def _script(root: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, Path(root, "scripts", f"{name}.py"))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompiledBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not _asked():
            return []
        return list(_script(self.root, "build_compiled").REQUIREMENTS)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not _asked():
            return
        self._output = tempfile.TemporaryDirectory()
        output = Path(self._output.name)
        scanner = _script(self.root, "build_scanner")
        module = scanner.build(Path(self.root), output / "scanner")
        build_data["force_include"][str(module)] = str(scanner.PACKAGE / module.name)
        compiled = _script(self.root, "build_compiled")
        for path in compiled.build(Path(self.root), output / "compiled"):
            build_data["force_include"][str(path)] = str(path.relative_to(output / "compiled"))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        output = getattr(self, "_output", None)
        if output is not None:
            output.cleanup()
