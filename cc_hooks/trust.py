"""Which repositories' probe and guard tables the user has allowed to run.

Probes and guards are commands that come from the repository (``.cc-hooks.toml``),
so a clone could make the hooks run anything. Like direnv's ``allow``, nothing
runs until the user trusts the *current* commands: ``cc-hooks trust`` stores,
under the repo root's realpath in ``${XDG_CONFIG_HOME:-~/.config}/cc-hooks/trust.json``,

- the sha256 of the canonical JSON of ``{"probes": ..., "guards": ...}``;
- the sha256 of every repository file those commands execute or read by name
  (any argv element, or word of one, that names a file or directory in the
  repository: ``./probe.sh``, ``python probe.py``, ``sh -c "./x.sh"``, the
  package of ``python -m pkg``), so a ``git pull`` that changes ``probe.sh``
  untrusts it;
- the repository's identity: its root commit(s), so another repository cloned
  at the same path is not the one trusted.

Any difference and the commands are untrusted again, with the reason.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from cc_hooks.fsutil import atomic_write_text

TRUST_FILE = "trust.json"
VERSION = 2
MAX_TREE_FILES = 5000  # a directory named in an argv is hashed whole, up to this many files...
MAX_TREE_BYTES = 256 * 1024 * 1024  # ...and bytes; beyond, the commands cannot be trusted as a whole
TOO_LARGE = "too-large"
# Files a runner executes without being named: covered as if they were in the argv.
IMPLIED_FILES = {
    "make": ("Makefile", "makefile", "GNUmakefile"), "just": ("justfile", "Justfile", ".justfile"),
    "npm": ("package.json",), "yarn": ("package.json",), "pnpm": ("package.json",), "npx": ("package.json",),
    "pytest": ("conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"), "tox": ("tox.ini",),
    "nox": ("noxfile.py",), "cargo": ("Cargo.toml", "build.rs"), "rake": ("Rakefile",), "gradle": ("build.gradle",),
}


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return root / "cc-hooks"


def trust_path() -> Path:
    return config_dir() / TRUST_FILE


def repo_key(repo_root: str | os.PathLike) -> str:
    return os.path.realpath(repo_root)


def command_table(config) -> dict:
    """The part of the config that trust covers, as plain data."""
    table = {
        "probes": {name: probe.model_dump(mode="json") for name, probe in sorted(config.probes.items())},
        "guards": {name: guard.model_dump(mode="json") for name, guard in sorted(config.guards.items())},
    }
    runner = config.guard_runner.model_dump(mode="json", exclude_none=True) if hasattr(config, "guard_runner") else {}
    if runner:  # `[guards] python` / `command` run every guard: trusted like a command (absent: digests unchanged)
        table["guard_runner"] = runner
    return table


def table_digest(config) -> str:
    canonical = json.dumps(command_table(config), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def executed_files(root: str | os.PathLike, argvs: Iterable[list[str]]) -> dict[str, str]:
    """Every repository file or directory the argvs name, relative to ``root``: its sha256 (of the
    bytes of a file, of the names and bytes of a directory's files), ``missing`` or ``too-large``."""
    root = os.path.realpath(root)
    found: dict[str, str] = {}
    for argv in argvs:
        for name in _named_paths(argv):
            lexical = os.path.normpath(os.path.join(root, name))
            if lexical == root or not _within(lexical, root):
                continue  # the whole tree is not hashed (any commit would untrust it): the named files are
            rel = os.path.relpath(lexical, root)
            if rel not in found and (os.path.lexists(lexical) or _path_like(name)):
                found[rel] = _digest(lexical)  # a path missing now counts too: it may appear later
    return found


def _named_paths(argv: list[str]) -> list[str]:
    """What in ``argv`` could name a file: each element, the value of ``--opt=value``, the words
    of an element a shell would split (``sh -c "./x.sh arg"``), the package of ``-m pkg``."""
    names: list[str] = []
    for at, element in enumerate(argv):
        names.append(element)
        if element.startswith("-") and "=" in element:
            names.append(element.split("=", 1)[1])
        if any(ch.isspace() for ch in element):
            try:
                names.extend(shlex.split(element))
            except ValueError:
                names.extend(element.split())
        if element == "-m" and at + 1 < len(argv):
            package = argv[at + 1].split(".")[0]
            names.extend([package, package + ".py"])
    program = os.path.basename(argv[0]) if argv else ""
    names.extend(f"./{name}" for name in IMPLIED_FILES.get(program, ()))
    module = argv[argv.index("-m") + 1] if program.startswith("python") and "-m" in argv[:-1] else ""
    names.extend(f"./{name}" for name in IMPLIED_FILES.get(module, ()))
    if "pytest" in (program, module):  # pytest also runs the conftest.py of every directory above a test
        for name in list(names):
            parts = os.path.normpath(name.split("::")[0]).split(os.sep)[:-1]
            names.extend("./" + os.path.join(*parts[:depth], "conftest.py") for depth in range(1, len(parts) + 1)
                         if not os.path.isabs(name) and ".." not in parts)
    return [n for n in names if n and "\0" not in n]


def _path_like(name: str) -> bool:
    """A word that reads as a file name (``probe.sh``, ``tools/x``), not an option or a snippet."""
    return (not name.startswith("-") and len(name) <= 255 and not any(ch.isspace() or ch in "'\"()$`;|&<>*?" for ch in name)
            and ("/" in name or "." in name.lstrip(".")))


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _digest(path: str) -> str:
    """The sha256 of what ``path`` is now (a symlink is followed: its target is what runs); a
    device, a FIFO or a file past the size bound is never read."""
    try:
        info = os.stat(path)
    except OSError:
        return "missing"
    if stat.S_ISREG(info.st_mode):
        return TOO_LARGE if info.st_size > MAX_TREE_BYTES else _file_sha(path) or "unreadable"
    if not stat.S_ISDIR(info.st_mode):
        return f"not-a-file:{stat.S_IFMT(info.st_mode):o}"
    tree, count, size = hashlib.sha256(), 0, 0
    for directory, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files):
            full = os.path.join(directory, name)
            try:
                info = os.stat(full)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            size += info.st_size
            count += 1
            if count > MAX_TREE_FILES or size > MAX_TREE_BYTES:
                return TOO_LARGE
            tree.update(f"{os.path.relpath(full, path)}\0{_file_sha(full) or 'unreadable'}\n".encode("utf-8", "surrogateescape"))
    return tree.hexdigest()


def _file_sha(path: str) -> Optional[str]:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1024 * 1024), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def identity(repo_root: str | os.PathLike) -> list[str]:
    """The repository's root commit(s) reachable from HEAD ([] before the first commit or
    outside git): what tells a re-clone of another project at the same path from this one."""
    from cc_hooks.git import GitError, run_git

    try:
        out = run_git(repo_root, "rev-list", "--max-parents=0", "HEAD", "--", timeout=30.0, check=False)
    except GitError:
        return []
    return sorted(line for line in out.split() if len(line) >= 40)


def argvs_of(config) -> list[list[str]]:
    return [p.argv for p in config.probes.values()] + [g.argv for g in config.guards.values()]


@dataclass
class TrustStatus:
    repo: str
    digest: str  # of the current table
    trusted_digest: Optional[str]  # what the user trusted, if anything
    trusted_at: Optional[str]
    problem: Optional[str] = None  # the store could not be read
    identity: list = field(default_factory=list)  # the repository's root commits now
    files: dict = field(default_factory=dict)  # relpath -> sha256 of what the commands run, now
    trusted_identity: Optional[list] = None
    trusted_files: Optional[dict] = None

    @property
    def trusted(self) -> bool:
        return not self.reason

    def __bool__(self) -> bool:
        return self.trusted

    @property
    def changed_files(self) -> list[str]:
        before = self.trusted_files or {}
        return sorted(name for name in set(before) | set(self.files) if before.get(name) != self.files.get(name))

    @property
    def reason(self) -> str:
        """Why probes may not run, in one phrase (empty when they may)."""
        if self.problem:
            return f"probe not trusted ({self.problem})"
        if self.trusted_digest is None:
            return "probe not trusted (the probe table was never trusted: `cc-hooks trust`)"
        if self.trusted_files is None or self.trusted_identity is None:
            return ("probe not trusted (trusted by an older cc-hooks that did not record the files the commands "
                    "run: `cc-hooks trust` again)")
        if self.trusted_identity != self.identity:
            return (f"probe not trusted (this is not the repository trusted at {self.repo}: its root commit "
                    "differs; `cc-hooks trust` if you trust this one)")
        if self.trusted_digest != self.digest:
            return "probe not trusted (the probe table changed since it was trusted: `cc-hooks trust`)"
        large = [name for name, sha in self.files.items() if sha == TOO_LARGE]
        if large:
            return (f"probe not trusted ({_names(large)} holds more than {MAX_TREE_FILES} files or "
                    f"{MAX_TREE_BYTES // 2**20} MiB: name the files the command runs)")
        changed = self.changed_files
        if changed:
            return f"probe not trusted ({_names(changed)} changed since you trusted it: run `cc-hooks trust`)"
        return ""


def _names(names: list[str], limit: int = 3) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _load() -> tuple[dict, Optional[str]]:
    path = trust_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"version": VERSION, "repos": {}}, None
    except (OSError, ValueError) as exc:
        return {"version": VERSION, "repos": {}}, f"{path} unreadable: {exc}"
    if not isinstance(data, dict) or not isinstance(data.get("repos"), dict):
        return {"version": VERSION, "repos": {}}, f"{path} has an unexpected shape"
    return data, None


# The files the last trusted ``status`` of this process covered, by repository: what a guard run
# in another checkout of it (``guards prove``'s worktree) must find unchanged (``argv_changed``).
_covered: dict[str, dict] = {}


def status(repo_root: str | os.PathLike, config) -> TrustStatus:
    data, problem = _load()
    key = repo_key(repo_root)
    entry = data["repos"].get(key)
    entry = entry if isinstance(entry, dict) else {}
    files = executed_files(repo_root, argvs_of(config))
    result = TrustStatus(
        key, table_digest(config), entry.get("sha256"), entry.get("trusted_at"), problem,
        identity=identity(repo_root) if entry else [], files=files,
        trusted_identity=entry.get("identity") if isinstance(entry.get("identity"), list) else None,
        trusted_files=entry.get("files") if isinstance(entry.get("files"), dict) else None,
    )
    if result.trusted:
        _covered[key] = files
    return result


def argv_changed(argv: list[str], cwd: str | os.PathLike) -> str:
    """Why ``argv`` may not run in ``cwd`` though its table is trusted (empty when it may): a file
    it names differs there from what the trusted ``status`` of this process covered."""
    now = {name: sha for name, sha in executed_files(cwd, [argv]).items() if sha != "missing"}
    if not now:
        return ""  # it runs no file of the repository's
    if not _covered:
        return "probe not trusted (its files were not checked against the trusted ones in this run: `cc-hooks trust --show`)"
    for covered in _covered.values():
        if all(covered.get(name) == sha for name, sha in now.items()):
            return ""
    changed = sorted(name for name, sha in now.items() if all(c.get(name) != sha for c in _covered.values()))
    return f"probe not trusted ({_names(changed)} differs here from what you trusted: run `cc-hooks trust`)"


def is_trusted(repo_root: str | os.PathLike, config) -> bool:
    return status(repo_root, config).trusted


def endpoints_pinned(repo_root: str | os.PathLike) -> dict:
    """The tracker endpoints the user allowed for this repository with ``cc-hooks trust``
    ({backend: {key: value}}), or {} when none, or when the repository at this path is no
    longer the one trusted (its root commits differ)."""
    data, _ = _load()
    entry = data["repos"].get(repo_key(repo_root))
    if not isinstance(entry, dict) or not isinstance(entry.get("endpoints"), dict) or not entry["endpoints"]:
        return {}
    if entry.get("identity") != identity(repo_root):
        return {}
    return entry["endpoints"]


def trust(repo_root: str | os.PathLike, config, endpoints: Optional[dict] = None) -> TrustStatus:
    """Record the current commands, the files they run, the tracker endpoints the repository's
    config asks for (``endpoints``) and the repository's identity as trusted."""
    data, problem = _load()
    if problem:
        raise TrustStoreError(f"{problem}; fix or remove it first")
    files = executed_files(repo_root, argvs_of(config))
    large = [name for name, sha in files.items() if sha == TOO_LARGE]
    if large:
        raise TrustStoreError(f"{_names(large)} holds more than {MAX_TREE_FILES} files or {MAX_TREE_BYTES // 2**20} MiB: "
                              "name the files the command runs instead of the directory")
    data["repos"][repo_key(repo_root)] = {
        "sha256": table_digest(config),
        "identity": identity(repo_root),
        "files": files,
        "trusted_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "probes": sorted(config.probes),
        "guards": sorted(config.guards),
        "endpoints": endpoints or {},
    }
    _save(data)
    return status(repo_root, config)


def revoke(repo_root: str | os.PathLike) -> bool:
    """Forget this repository's trust; True when there was something to forget."""
    data, problem = _load()
    if problem:
        raise TrustStoreError(f"{problem}; fix or remove it first")
    if data["repos"].pop(repo_key(repo_root), None) is None:
        return False
    _save(data)
    return True


def _save(data: dict) -> None:
    path = trust_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    data["version"] = VERSION
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n", mode=0o600)


class TrustStoreError(Exception):
    pass
