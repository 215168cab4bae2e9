"""`cc-hooks transcripts` on Codex rollouts: stats know the layout; archive is refused (Claude Code only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from .rollout import Rollout, rollout_path


def cli(*args, codex_home):
    return subprocess.run([sys.executable, "-m", "cc_hooks", "transcripts", *args], capture_output=True, text=True,
                          env={**os.environ, "CODEX_HOME": str(codex_home)}, timeout=60)


def test_stats_count_compactions_per_project_and_archive_is_refused(tmp_path):
    home, repo, other = tmp_path / "codex-home", tmp_path / "repo", tmp_path / "other"
    repo.mkdir(), other.mkdir()
    r = Rollout(rollout_path(home), repo)
    r.prompt("a")
    r.compacted("S1")
    r.prompt("b")
    r.compacted("S2")
    r.save()
    Rollout(rollout_path(home, "01a23189-0000-7000-8000-000000000001"), other).save()
    proc = cli("stats", "--harness", "codex", "--project", str(repo), "--json", codex_home=home)
    assert proc.returncode == 0, proc.stderr
    [session] = json.loads(proc.stdout)["sessions"]
    assert session["compactions"] == 2 and session["project"] == str(repo) and session["archivable"] == 0
    assert 0 < session["before_boundary"] < session["size"]
    everything = json.loads(cli("stats", "--harness", "codex", "--all", "--json", codex_home=home).stdout)
    assert len(everything["sessions"]) == 2
    refused = cli("archive", str(r.path), "--execute", codex_home=home)
    assert refused.returncode == 1 and "Claude Code only" in refused.stderr
    assert cli("archive", "--harness", "codex", "--all", codex_home=home).returncode == 1
