"""Which repositories' probe and guard tables the user has allowed to run.

Probes and guards are commands that come from the repository (``.cc-hooks.toml``),
so a clone could make the hooks run anything. Like direnv's ``allow``, nothing
runs until the user trusts the *current* table: ``cc-hooks trust`` stores the
sha256 of the canonical JSON of ``{"probes": ..., "guards": ...}`` under the
repo root's realpath in ``${XDG_CONFIG_HOME:-~/.config}/cc-hooks/trust.json``.
Any change to either table changes the digest, and the table is untrusted again.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from cc_hooks.fsutil import atomic_write_text

TRUST_FILE = "trust.json"
VERSION = 1


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


@dataclass
class TrustStatus:
    repo: str
    digest: str  # of the current table
    trusted_digest: Optional[str]  # what the user trusted, if anything
    trusted_at: Optional[str]
    problem: Optional[str] = None  # the store could not be read

    @property
    def trusted(self) -> bool:
        return self.trusted_digest is not None and self.trusted_digest == self.digest

    @property
    def reason(self) -> str:
        """Why probes may not run, in one phrase (empty when they may)."""
        if self.trusted:
            return ""
        if self.problem:
            return f"probe not trusted ({self.problem})"
        if self.trusted_digest is None:
            return "probe not trusted (the probe table was never trusted: `cc-hooks trust`)"
        return "probe not trusted (the probe table changed since it was trusted: `cc-hooks trust`)"


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


def status(repo_root: str | os.PathLike, config) -> TrustStatus:
    data, problem = _load()
    entry = data["repos"].get(repo_key(repo_root))
    entry = entry if isinstance(entry, dict) else {}
    return TrustStatus(repo_key(repo_root), table_digest(config), entry.get("sha256"), entry.get("trusted_at"), problem)


def is_trusted(repo_root: str | os.PathLike, config) -> bool:
    return status(repo_root, config).trusted


def trust(repo_root: str | os.PathLike, config) -> TrustStatus:
    """Record the current table as trusted for this repository."""
    data, problem = _load()
    if problem:
        raise TrustStoreError(f"{problem}; fix or remove it first")
    data["repos"][repo_key(repo_root)] = {
        "sha256": table_digest(config),
        "trusted_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "probes": sorted(config.probes),
        "guards": sorted(config.guards),
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
