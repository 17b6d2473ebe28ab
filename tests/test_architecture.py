"""docs/architecture.md: its module tree is the package's (its examples run with every
docs page's, in test_readme.py)."""

from __future__ import annotations

import re

from tests.spec import PACKAGE, REPO

PAGE = REPO / "docs" / "architecture.md"


def _tree_modules(text: str) -> set[str]:
    """The module paths the first ``text`` block lists, from its box-drawing indentation."""
    tree = text.split("```text\n", 1)[1].split("```", 1)[0]
    found: set[str] = set()
    folders: list[str] = []
    for line in tree.splitlines()[1:]:
        match = re.match(r"^((?:│   |    )*)[├└]── (\S+)", line)
        if match is None:
            continue
        depth = len(match.group(1)) // 4
        name = match.group(2)
        del folders[depth:]
        if name.endswith("/"):
            folders.append(name.rstrip("/"))
        elif name.endswith(".py"):
            found.add("/".join([*folders, name]))
    return found


def test_architecture_tree_lists_every_module() -> None:
    package = PACKAGE
    modules = {
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if path.name != "__init__.py" or path.parent != package
    }
    modules.add("__init__.py")
    modules -= {name for name in modules if name.endswith("/__init__.py")}
    listed = _tree_modules(PAGE.read_text("utf-8"))
    listed -= {name for name in listed if name.endswith("/__init__.py")}
    assert listed == modules, (
        "docs/architecture.md's module tree is not the package's: "
        f"missing {sorted(modules - listed)}, gone {sorted(listed - modules)}"
    )


def _packages() -> list[str]:
    import pkgutil

    import scrapy_charset

    return ["scrapy_charset"] + [
        info.name
        for info in pkgutil.walk_packages(scrapy_charset.__path__, "scrapy_charset.")
        if info.ispkg
    ]


def test_a_packages_submodule_names_are_its_submodules() -> None:
    """A name a package imports never hides one of its submodules: ``from
    scrapy_charset.items.mojibake import badness`` is the module, not a function of the
    same name imported into the package."""
    import importlib
    import pkgutil

    hidden = []
    for name in _packages():
        package = importlib.import_module(name)
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{name}.{info.name}")
            if getattr(package, info.name) is not module:
                hidden.append(f"{name}.{info.name}")
    assert hidden == []
