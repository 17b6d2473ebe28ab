"""Collect the non-ASCII lines of the documentation that Scrapy's and other packages'
sdists ship: text nobody on this project wrote, for the item checks' outside-text check
(``benchmarks/item_evidence.py``, source ``docs``).

Each sdist of :data:`SDISTS` is fetched from PyPI's simple index at its pinned version and
SHA-256, and the lines of its documentation are read: the files under ``doc/`` or
``docs/`` and the top-level README, CHANGES and NEWS files (``.rst``, ``.md``, ``.txt``;
never tests or code). A line is kept when it holds a character outside ASCII, is not
longer than :data:`MAX_LENGTH` characters, and was not kept before; the lines are written
to ``tests/data/sdist-docs/sentences.txt`` as ``<package>==<version><TAB><line>``, in the
order of :data:`SDISTS` and of the files' paths. Each sdist's licence file is copied to
``tests/data/sdist-docs/licences/<package>.txt``.

Usage::

    python scripts/collect_doc_sentences.py [--check]

``--check`` writes nothing and exits non-zero when the file differs from what the sdists
give. Both need the network; the test suite only checks the file against its fingerprint
(the SHA-256 the script prints, recorded in ``tests/data/sdist-docs/README.md``).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "sdist-docs" / "sentences.txt"
INDEX = "https://pypi.org/simple/{name}/"

#: (distribution, version, the sdist's SHA-256): Scrapy and packages whose documentation
#: a Scrapy user reads; each has non-ASCII lines in it.
SDISTS = (
    ("scrapy", "2.13.4", "e09bce40c56b56f9f86b0d078a0e5cdd08283c83076170ce7a8eec7189ac2493"),
    ("itemloaders", "1.5.0", "e6feec5e44e92e1931dbd70fce4da430491ee4cbc9a93a725351e4f0d614a411"),
    ("sphinx", "8.1.3", "43c1911eecb0d3e161ad78611bc905d1ad0e523e4ddc202a58a821773dc4c927"),
    ("twisted", "24.11.0", "695d0556d5ec579dcc464d2856b634880ed1319f45b10d19043f2b57eb0115b5"),
    ("attrs", "24.2.0", "5cfb1b9148b5b086569baec03f20d7b6bf3bcacc9a42bebf87ffaaca362f6346"),
    ("requests", "2.32.3", "55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760"),
    ("babel", "2.16.0", "d1f3554ca26605fe173f3de0c65f750f5a42f924499bf134de6423582298e316"),
    ("lxml", "5.3.0", "4e109ca30d1edec1ac60cdbe341905dc3b8f55b16855e03a54aaf59e51ec8c6f"),
    ("pytest", "8.3.3", "70b98107bd648308a7952b06e6ca9a50bc660be218d53c257cc1fc94fda10181"),
)
MAX_LENGTH = 400
_DOC_SUFFIXES = (".rst", ".md", ".txt")
_TOP_LEVEL = re.compile(r"(README|CHANGES|CHANGELOG|NEWS|HISTORY)[^/]*$", re.IGNORECASE)
_LICENCE = re.compile(r"(LICENSE|LICENCE|COPYING)(\.\w+)?$", re.IGNORECASE)
LICENCES = OUT.parent / "licences"


def _is_doc(path: str) -> bool:
    """*path* inside the sdist (its first folder removed) is documentation."""
    if not path.endswith(_DOC_SUFFIXES):
        return False
    parts = path.split("/")
    if parts[0] in ("doc", "docs"):
        return "tests" not in parts
    return len(parts) == 1 and _TOP_LEVEL.match(parts[0]) is not None


def _sdist_url(name: str, version: str) -> str:
    """The URL of the sdist of *name* at *version*, from the simple index."""
    with urllib.request.urlopen(INDEX.format(name=name), timeout=60) as page:
        html = page.read().decode("utf-8")
    for href in re.findall(r'href="([^"]+)"', html):
        url = str(href).partition("#")[0]
        filename = url.rsplit("/", 1)[-1].lower()
        stem = f"{name}-{version}".lower().replace("-", "[-_]")
        if re.fullmatch(rf"{stem}\.(tar\.gz|zip)", filename):
            return url
    raise LookupError(f"no sdist of {name} {version}")


def _wanted(path: str) -> bool:
    return _is_doc(path) or _LICENCE.match(path) is not None


def _files(data: bytes, url: str) -> list[tuple[str, bytes]]:
    """(path without the first folder, content) of every documentation file and of the
    top-level licence file."""
    out: list[tuple[str, bytes]] = []
    if url.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                path = info.filename.split("/", 1)[-1]
                if not info.is_dir() and _wanted(path):
                    out.append((path, archive.read(info)))
    else:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                path = member.name.split("/", 1)[-1]
                handle = archive.extractfile(member) if member.isfile() else None
                if handle is not None and _wanted(path):
                    out.append((path, handle.read()))
    return sorted(out)


def fingerprint(text: str) -> str:
    """The SHA-256 of the file's text, as recorded in the data folder's README."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def collect() -> tuple[str, dict[str, str]]:
    """The file's text, and each distribution's licence text."""
    seen: set[str] = set()
    rows: list[str] = []
    licences: dict[str, str] = {}
    for name, version, digest in SDISTS:
        url = _sdist_url(name, version)
        with urllib.request.urlopen(url, timeout=120) as response:
            data = response.read()
        if hashlib.sha256(data).hexdigest() != digest:
            raise ValueError(f"{url}: not the pinned sdist (SHA-256 differs)")
        for path, content in _files(data, url):
            text = content.decode("utf-8", "replace")
            if _LICENCE.match(path):
                licences[name] = text
                continue
            for raw in text.splitlines():
                line = raw.strip()
                if "\ufffd" in line or "\t" in line:
                    continue  # not UTF-8 there, or a tab the file's format cannot hold
                if line and not line.isascii() and len(line) <= MAX_LENGTH and line not in seen:
                    seen.add(line)
                    rows.append(f"{name}=={version}\t{line}")
    missing = {name for name, _, _ in SDISTS} - set(licences)
    if missing:
        raise LookupError(f"no licence file in the sdists of {sorted(missing)}")
    return "".join(f"{row}\n" for row in rows), licences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    text, licences = collect()
    if args.check:
        same = OUT.read_text("utf-8") == text and all(
            (LICENCES / f"{name}.txt").read_text("utf-8") == licence
            for name, licence in licences.items()
        )
        print("up to date" if same else f"{OUT.parent} differs")
        return 0 if same else 1
    LICENCES.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, "utf-8")
    for name, licence in licences.items():
        (LICENCES / f"{name}.txt").write_text(licence, "utf-8")
    print(f"{len(text.splitlines())} lines, FINGERPRINT {fingerprint(text)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
