"""The import paths of 0.1.0 that moved in 0.2.0, kept for one release with a warning.

``scrapy_charset.sniff`` was both the public function and the package of the sniffing
algorithm; the package is now :mod:`scrapy_charset.sniffing`, and the response side's
Scrapy glue lives in :mod:`scrapy_charset.responses`. An old path imports a stand-in
module that forwards every attribute to the module's new home, and importing it emits a
:exc:`DeprecationWarning` naming the new path. Objects are the same (``is``); only
assignments to a stand-in do not reach the real module.

``scrapy_charset.sniff`` itself is registered in :data:`sys.modules` when the package is
imported, so that ``from scrapy_charset.sniff import Trace`` finds the stand-in without
the import system rebinding the package's ``sniff`` attribute (the function) to it.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import importlib.abc
    import importlib.machinery
    from collections.abc import Sequence

# importlib and warnings load only when an old path is used: the package's import stays
# as light as before.

#: Each old module path and its new one. ``scrapy_charset.sniff.<name>`` maps to
#: ``scrapy_charset.sniffing.<name>`` for every module of the package.
MOVED = {
    "scrapy_charset.sniff": "scrapy_charset.sniffing",
    "scrapy_charset.middleware": "scrapy_charset.responses.middleware",
    "scrapy_charset.decision": "scrapy_charset.responses.decision",
    "scrapy_charset.config": "scrapy_charset.responses.config",
    "scrapy_charset.unknown_type": "scrapy_charset.responses.unknown_type",
    "scrapy_charset.interop": "scrapy_charset.responses.interop",
}

_SNIFF = "scrapy_charset.sniff"


def new_name(old: str) -> str | None:
    """The module that replaced ``old``, or ``None`` when ``old`` did not move."""
    if old in MOVED:
        return MOVED[old]
    if old.startswith(_SNIFF + "."):
        return "scrapy_charset.sniffing" + old[len(_SNIFF) :]
    return None


def _warn(old: str, new: str) -> None:
    import warnings

    warnings.warn(
        f"{old} moved to {new} in scrapy-charset 0.2.0; the old path will be removed "
        "in the next release",
        DeprecationWarning,
        stacklevel=3,
    )


class _Forward(ModuleType):
    """A stand-in for a moved module: every attribute comes from the new one."""

    def __init__(self, old: str, new: str, *, warn_on_use: bool) -> None:
        super().__init__(old, f"Deprecated alias of {new}.")
        self.__path__: list[str] = []  # lets ``scrapy_charset.sniff.<name>`` be imported
        self._new = new
        self._warn_on_use = warn_on_use

    def _target(self) -> ModuleType:
        import importlib

        return importlib.import_module(self._new)

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if self._warn_on_use:
            _warn(self.__name__, self._new)
        return getattr(self._target(), name)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._target())))


class _Loader:
    def __init__(self, old: str, new: str) -> None:
        self._old = old
        self._new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return _Forward(self._old, self._new, warn_on_use=False)

    def exec_module(self, module: ModuleType) -> None:
        import importlib

        _warn(self._old, self._new)
        importlib.import_module(self._new)  # a typo in the old path fails here, by name


class _Finder:
    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("scrapy_charset."):
            return None
        new = new_name(fullname)
        if new is None:
            return None
        import importlib.machinery
        import importlib.util

        if importlib.util.find_spec(new) is None:
            return None
        loader = cast("importlib.abc.Loader", _Loader(fullname, new))
        return importlib.machinery.ModuleSpec(fullname, loader)


def install() -> None:
    """Register the finder of old paths, and the stand-in of ``scrapy_charset.sniff``."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    # Used as a module (``from scrapy_charset.sniff import Trace``), the old package warns
    # when an attribute is read: importing it costs nothing, and the name is taken.
    sys.modules.setdefault(_SNIFF, _Forward(_SNIFF, MOVED[_SNIFF], warn_on_use=True))
