"""Dependency trees: directories of installed third-party code that no sweep reads.

A virtualenv made by Python before 3.13 does not ignore itself, and ``node_modules`` is often
unignored in a young repository: their markdown is somebody else's documentation, and every
"claim" in it is about somebody else's repository. The sweeps (stale-claims, the audit's scans,
triage) skip every path under such a directory, tracked or not.

A directory is a dependency tree when

- its name says so: ``node_modules``, ``bower_components``, ``jspm_packages``, ``site-packages``,
  ``dist-packages``, ``__pypackages__``, ``.tox``, ``.nox``, ``.eggs``, ``.pixi``, or a name
  starting with ``.venv`` (``.venv``, ``.venv-3.11``);
- it holds a ``pyvenv.cfg`` (any virtualenv, whatever its name) or a ``conda-meta`` directory
  (a conda environment);
- it is ``vendor/bundle`` (Bundler's install path), or a ``vendor`` holding Go's ``modules.txt``
  or Composer's ``autoload.php``;
- it is a vendoring directory (``vendor``, ``_vendor``, ``vendored``, ``third_party``, ...) holding a
  vendor manifest (``vendor.txt``, ``vendor.json``: the list of the projects copied in, as pip's
  ``src/pip/_vendor/vendor.txt``). Its code is upstream's, changed only by re-vendoring: a
  "workaround" comment in it is no question for this project's maintainers. A vendoring directory
  holding the ``*.dist-info`` of what it copied in (setuptools' ``_vendor``) has its manifest too;
- among the ``listed`` paths (the audit's tracked files: no look at the disk for it on a hook's
  path), it holds a license file other than the project's (``LICENSE``, ``COPYING``) and no project
  manifest (``pyproject.toml``, ``setup.py``, ``package.json``, ``Cargo.toml``, ``go.mod``): a library
  copied in with its license (PyInstaller's ``bootloader/zlib``). A workspace member has its manifest
  beside its license, and is the project's own; so are docs and examples under their own license;
- among the ``listed`` paths, it is a vendoring directory or an ``extern`` one holding a README (astropy's
  ``astropy/extern``: "third-party Python packages/modules"), which says what was copied in, or a folder
  of a vendoring directory holding its README (OctoPrint's ``vendor/sockjs``: the project copied in), or a
  vendoring script (joblib's ``externals/vendor_loky.sh``), which copies it in; or it is named
  ``_vendor``, ``vendored`` or ``_vendored`` (botocore's ``vendored``: six and requests), whatever it holds;
- among the ``listed`` paths, it sits in a ``deps`` or vendoring directory and holds its own build
  (``configure.ac``, ``CMakeLists.txt``, a project manifest): gevent's ``deps/c-ares``; or its name is
  a version number (``3.12``, ``2.7``, ``3.x``) inside a test tree or a copied standard library, a
  snapshot of that version of something else: gevent's ``src/greentest/3.12`` (CPython's tests),
  PyPy's ``lib-python/2.7``; or, among the ``listed`` paths, its name is a project's name and a
  release number (``scons-2.3.2``, ``jinja2-2.11.3``): an unpacked release of that project, as
  Nuitka's ``inline_copy/lib/scons-4.10.1`` (outside the docs).

Cargo's and Maven's ``target/`` are build output, not dependency trees; ignore them in
``.gitignore`` as usual.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Optional

NAMES = frozenset({
    "node_modules", "bower_components", "jspm_packages", "site-packages", "dist-packages", "__pypackages__",
    ".tox", ".nox", ".eggs", ".pixi",
})
VENV_PREFIX = ".venv"
ENV_MARKERS = ("pyvenv.cfg", "conda-meta")
VENDOR_MARKERS = ("modules.txt", "autoload.php", "vendor.txt", "vendor.json")
VENDOR_NAMES = frozenset({"vendor", "_vendor", "vendored", "_vendored", "third_party", "thirdparty", "3rdparty"})
LICENSE_FILES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "LICENSE.rst", "LICENCE", "LICENCE.txt", "COPYING", "COPYING.txt")
PROJECT_MANIFESTS = ("pyproject.toml", "setup.py", "setup.cfg", "package.json", "Cargo.toml", "go.mod", "pom.xml", "build.gradle")
# A project's own build, beside its sources: a folder under ``deps/`` holding one is a project copied in
BUILD_FILES = PROJECT_MANIFESTS + ("configure.ac", "configure", "CMakeLists.txt", "Makefile.am", "meson.build", "SConstruct")
COPIES_NAMES = VENDOR_NAMES | {"deps"}
# A folder whose name says it was vendored (a participle, not ``vendor``: chalice's ``vendor/`` is the user's)
VENDORED_NAMES = frozenset({"_vendor", "vendored", "_vendored"})
# A vendoring folder that explains itself in a README (what was copied in, from where): its code is upstream's
EXTERN_NAMES = VENDOR_NAMES | {"extern", "externals"}


def _vendored_prefix(directory: str) -> str:
    """The leading part of ``directory`` that ends in a folder named as vendored, or ""."""
    parts = directory.split("/")
    for index, part in enumerate(parts):
        if part.lower() in VENDORED_NAMES:
            return "/".join(parts[: index + 1])
    return ""


def named_dependency_dir(name: str) -> bool:
    """True when a directory of this name is a dependency tree whatever it holds."""
    return name in NAMES or name.startswith(VENV_PREFIX)


class DependencyTrees:
    """Answers "is this repo-relative path inside a dependency tree?" for one directory tree.

    ``listed`` are repo-relative paths known to exist (e.g. a fresh-clone view's tracked files):
    a listed ``x/pyvenv.cfg`` marks ``x`` without a look at the disk. Each directory is looked at
    once (a stat or two), however many paths lie under it.
    """

    def __init__(self, root: str | os.PathLike, listed: Iterable[str] = ()):
        self.root = Path(root)
        self._known: dict[str, bool] = {}
        self._own_license: Optional[set] = None
        licensed, manifested, seen = set(), set(), set()
        for path in listed:
            directory, _, name = path.rpartition("/")
            if not directory:
                continue
            if directory not in seen:
                seen.add(directory)
                snapshot = _version_snapshot(directory) or _unpacked_release(directory)
                if snapshot:
                    self._known[snapshot] = True  # gevent's src/greentest/3.12, Nuitka's inline_copy/lib/scons-2.3.2
                vendored = _vendored_prefix(directory)
                if vendored:
                    self._known[vendored] = True  # botocore's ``vendored`` (six, requests): its name says it was copied in
            if name in ENV_MARKERS or (name in VENDOR_MARKERS and directory.rsplit("/", 1)[-1] in VENDOR_NAMES):
                self._known[directory] = True
            elif name in LICENSE_FILES:
                licensed.add(directory)
            elif name in PROJECT_MANIFESTS:
                manifested.add(directory)
            parent, _, folder = directory.rpartition("/")
            if parent and folder.endswith(".dist-info") and parent.rsplit("/", 1)[-1] in VENDOR_NAMES:
                self._known[parent] = True
            if name in BUILD_FILES and parent.rsplit("/", 1)[-1].lower() in COPIES_NAMES:
                self._known[directory] = True  # gevent's deps/c-ares (configure.ac): upstream's code
            if name.upper().startswith(("README", "VENDOR")) and folder.lower() in EXTERN_NAMES:
                self._known[directory] = True  # astropy's extern/README.rst; joblib's externals/vendor_loky.sh
            elif name.upper().startswith("README") and parent.rsplit("/", 1)[-1].lower() in VENDOR_NAMES:
                self._known[directory] = True  # OctoPrint's vendor/sockjs/README.txt: the project copied into vendor/
        for directory in licensed - manifested:
            if self._copied_in(directory):
                self._known[directory] = True

    def contains(self, rel: str) -> bool:
        return self.tree_of(rel) is not None

    def tree_of(self, rel: str) -> Optional[str]:
        """The outermost dependency tree holding ``rel``, or None."""
        parts = rel.replace("\\", "/").strip("/").split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            directory = "/".join(parts[:depth])
            if self._is_tree(directory, parts[depth - 1], parts[depth - 2] if depth > 1 else None):
                return directory
        return None

    def filter(self, paths: Iterable[str]) -> list[str]:
        """``paths`` without those inside a dependency tree, in order."""
        return [p for p in paths if p and not self.contains(p)]

    def _is_tree(self, directory: str, name: str, parent: Optional[str]) -> bool:
        known = self._known.get(directory)
        if known is not None:
            return known
        found = named_dependency_dir(name) or (parent == "vendor" and name == "bundle") or self._marked(directory, name)
        self._known[directory] = found
        return found

    def _marked(self, directory: str, name: str) -> bool:
        base = self.root / directory
        markers = ENV_MARKERS + (VENDOR_MARKERS if name in VENDOR_NAMES else ())
        return any(os.path.lexists(base / marker) for marker in markers)

    def psf_licensed(self) -> bool:
        """Whether the project's own license is the Python Software Foundation's (CPython's copies are its own)."""
        return any("python software foundation" in text.lower() for text in self._own_licenses())

    def _own_licenses(self) -> set:
        if self._own_license is None:
            found = [n for n in _listdir(self.root) if n.upper().startswith(("LICENSE", "LICENCE", "COPYING"))]
            self._own_license = {_license_text(self.root / n) for n in found} - {None}
        return self._own_license

    def _copied_in(self, directory: str) -> bool:
        """Whether ``directory``'s license file is another one than the project's (a package shipping
        a copy of the project's own license is the project's; the docs' own license, CC-BY, leaves
        them the project's docs). Unknown when the project's license is not found: not copied in."""
        if _DOCS_PARTS & set(directory.lower().split("/")):
            return False
        own = self._own_licenses()
        theirs = {_license_text(self.root / directory / n) for n in LICENSE_FILES} - {None}
        return bool(own) and bool(theirs) and not theirs & own


# A folder named by a version, in a test tree or a copied standard library, holds a snapshot of that
# version of something else: gevent's ``src/greentest/3.12`` (CPython's tests of 3.12), PyPy's
# ``lib-python/2.7``. Elsewhere (``schemas/2.0``, ``docker/3.12``) it is the project's own.
_VERSION_DIR_RE = re.compile(r"^\d+\.(?:\d+|x)$")
_SNAPSHOT_PARENT_RE = re.compile(r"test|^lib-python$|^stdlib$|^lib$", re.IGNORECASE)


def _version_snapshot(directory: str) -> Optional[str]:
    """The version-named folder of ``directory`` (or an ancestor) that is a snapshot, or None."""
    parts = directory.split("/")
    for i, part in enumerate(parts[1:], 1):
        if part[:1].isdigit() and _VERSION_DIR_RE.match(part) and _SNAPSHOT_PARENT_RE.search(parts[i - 1]):
            return None if _DOCS_PARTS & {p.lower() for p in parts[:i]} else "/".join(parts[: i + 1])
    return None


# "scons-2.3.2", "jinja2-2.11.3", "pyparsing-3.1.0rc1": a project's name and a release's number
# ("python-3.12", "py-3.12": a target interpreter, the project's own CI or Docker folder)
_RELEASE_DIR_RE = re.compile(r"^(?!(?:c?python|py|pypy)\d*-)[A-Za-z][\w.]*?[A-Za-z0-9]-v?\d+\.\d+(?:\.\d+)*(?:(?:a|b|rc|\.post|\.dev)\d*)?$")


def _unpacked_release(directory: str) -> Optional[str]:
    """The release-named folder of ``directory`` (or an ancestor), outside the docs, or None."""
    parts = directory.split("/")
    for i, part in enumerate(parts):
        if _RELEASE_DIR_RE.match(part):
            return None if _DOCS_PARTS & {p.lower() for p in parts[:i]} else "/".join(parts[: i + 1])
    return None


_DOCS_PARTS = frozenset({"docs", "doc", "documentation", "examples", "example", "site", "_themes", "themes", "_static", "static"})


def _listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _license_text(path: Path) -> Optional[str]:
    """A license file's words (line endings and spacing aside), or None."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with open(path, "rb") as handle:
            return " ".join(handle.read(65536).decode("utf-8", "replace").split())
    except OSError:
        return None


def sweepable(root: str | os.PathLike, paths: Iterable[str], listed: Iterable[str] = ()) -> list[str]:
    """``paths`` (repo-relative) a sweep may read: none inside a dependency tree."""
    return DependencyTrees(root, listed).filter(paths)
