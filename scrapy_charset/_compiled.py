"""The item checks' modules that a compiled build compiles with mypyc, and the pure path.

A platform wheel built with ``SCRAPY_CHARSET_COMPILE=1`` (see ``hatch_build.py``), or a
checkout after ``python scripts/build_compiled.py``, holds each module of :data:`MODULES`
compiled beside its source, and Python imports the compiled one first. The sources stay
the reference: the compiled modules give the same reports, and every other install (the
pure wheel, an sdist without a compiler, an editable checkout) runs the sources.

With the environment variable ``SCRAPY_CHARSET_PURE`` set to a non-empty value other than
``0``, the sources run even where compiled modules are installed: importing
``scrapy_charset`` puts a finder first on :data:`sys.meta_path` that loads these modules
from their ``.py`` files. The item checks' compiled scanner
(:mod:`scrapy_charset.items.mojibake._fastscan`) reads the same variable.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType

# Imported by every import of the package (the ``scrapy`` command's among them): only
# ``os`` and ``sys`` at load time. ``importlib.abc`` alone would bring ``importlib.resources``,
# ``tempfile`` and ``shutil``; the finder needs no base class (a ``find_spec`` method is
# the protocol), and the rest is imported where it is used.

#: The modules a compiled build compiles: the inspection of a text and what it calls on a
#: damaged field. Everything else stays Python (the public entry points among them, so a
#: wrong argument gets the same error on every build).
MODULES: tuple[str, ...] = (
    "scrapy_charset.items.inspection",
    "scrapy_charset.items.mojibake",
    "scrapy_charset.items.mojibake.badness",
    "scrapy_charset.items.mojibake.chardata",
    "scrapy_charset.items.mojibake.fixes",
    "scrapy_charset.items.mojibake.legacy",
    "scrapy_charset.items.mojibake.plausible",
    "scrapy_charset.items.mojibake.siblings",
    "scrapy_charset.items.mojibake.words",
)

#: The name of the library mypyc shares between the compiled modules (its "group"): a
#: top-level module, beside the package (mypyc finds its modules from there).
GROUP = "scrapy_charset_checks"

#: ``SCRAPY_CHARSET_PURE`` is set: the sources run, and the scanner's regular expressions.
PURE = os.environ.get("SCRAPY_CHARSET_PURE", "") not in ("", "0")


class _SourcesFirst:
    """Loads the modules of :data:`MODULES` from their sources, compiled ones beside them
    or not."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in MODULES or path is None:
            return None
        from importlib.util import spec_from_file_location

        name = fullname.rpartition(".")[2]
        for entry in path:
            package = os.path.join(entry, name)
            init = os.path.join(package, "__init__.py")
            if os.path.isfile(init):
                return spec_from_file_location(fullname, init, submodule_search_locations=[package])
            module = os.path.join(entry, f"{name}.py")
            if os.path.isfile(module):
                return spec_from_file_location(fullname, module)
        return None


def compiled() -> list[str]:
    """The modules of :data:`MODULES` loaded from a compiled module (imports them)."""
    import importlib
    import importlib.machinery

    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [
        name
        for name in MODULES
        if str(getattr(importlib.import_module(name), "__file__", "")).endswith(suffixes)
    ]


if PURE and not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
    sys.meta_path.insert(0, _SourcesFirst())
