"""Trust covers the code a probe or guard runs and the repository it belongs to, not only the
argv (issue 16, item 4): a ``git pull`` that changes ``probe.sh`` and another repository cloned
at the same path are untrusted again, with the reason. Through the installed ``cc-hooks``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import git, make_repo

ENTRY = Path(sys.executable).with_name("cc-hooks")
pytestmark = pytest.mark.skipif(not ENTRY.exists(), reason=f"the installed entry point {ENTRY} is absent")


def cli(repo: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ENTRY), *args], cwd=repo, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def session_start(repo: Path, env: dict) -> str:
    payload = {"hook_event_name": "SessionStart", "session_id": "trust", "cwd": str(repo), "source": "startup"}
    proc = subprocess.run([str(ENTRY), "hook"], input=json.dumps(payload), cwd=repo, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **env})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]


def probed_repo(path: Path, argv: list[str], files: dict[str, str], env: dict, marker: Path) -> Path:
    """A repository whose dashboard claims what a probe checks; the probe files write ``marker``."""
    repo = make_repo(path)
    assert cli(repo, env, "init").returncode == 0
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text.replace("MARKER", str(marker)))
        (repo / name).chmod(0o755)
    (repo / ".cc-hooks.toml").write_text(f"[probes.staging]\nargv = {json.dumps(argv)}\nexpect = \"v1\"\n")
    steps = repo / "next_steps.md"  # init's scaffold states nothing in flight: say what is
    head, heading, tail = steps.read_text().partition("## CURRENT STATE")
    date, _, rest = tail.partition("\n")
    rest = rest.split("\n## ", 1)[1] if "\n## " in rest else ""
    steps.write_text(f"{head}{heading}{date}\nResume point: continue\n- staging runs v1 (probe: staging)\n\n## {rest}")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "probe")
    return repo


SCRIPT = "#!/bin/sh\necho code-1 >> 'MARKER'\necho v1\n"
SHAPES = {
    "direct": (["./probe.sh"], {"probe.sh": SCRIPT}, "probe.sh"),
    "sh": (["sh", "./tools/x.sh"], {"tools/x.sh": SCRIPT}, "tools/x.sh"),
    "python": ([sys.executable, "probe.py"], {"probe.py": "open('MARKER', 'a').write('code-1\\n'); print('v1')\n"}, "probe.py"),
    "sh -c": (["sh", "-c", "./probe.sh --quiet"], {"probe.sh": SCRIPT}, "probe.sh"),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_pull_that_changes_the_probes_code_untrusts_it(tmp_path, shape):
    argv, files, changed = SHAPES[shape]
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    marker = tmp_path / "ran"
    upstream = probed_repo(tmp_path / "upstream", argv, files, env, marker)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(upstream), str(clone)], check=True)
    assert cli(clone, env, "trust").returncode == 0
    first = session_start(clone, env)
    assert marker.exists() and marker.read_text() == "code-1\n", first  # trusted: it ran
    marker.unlink()
    path = upstream / changed
    path.write_text(path.read_text().replace("code-1", "code-2"))
    git(upstream, "commit", "-q", "-am", "new probe code")
    git(clone, "pull", "-q", "--ff-only")
    context = session_start(clone, env)
    assert not marker.exists()
    assert f"{changed} changed since you trusted it: run `cc-hooks trust`" in context
    assert cli(clone, env, "trust", "--show").returncode == 1
    assert cli(clone, env, "trust").returncode == 0  # the user looks and trusts the new code
    session_start(clone, env)
    assert marker.read_text() == "code-2\n"


def test_another_repository_cloned_at_the_same_path_is_not_trusted(tmp_path, monkeypatch):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    marker = tmp_path / "ran"
    argv, files, _ = SHAPES["direct"]
    place = tmp_path / "work"
    probed_repo(place, argv, files, env, marker)
    assert cli(place, env, "trust").returncode == 0
    shutil.rmtree(place)
    # Built within the same second, the same commits would have the same ids: date the other history.
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2001-01-01T00:00:00+0000")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2001-01-01T00:00:00+0000")
    probed_repo(place, argv, files, env, marker)  # same path, same table, same probe.sh: another history
    context = session_start(place, env)
    assert not marker.exists()
    assert "not the repository trusted at" in context and "root commit differs" in context


def test_a_configured_guard_whose_script_changed_is_not_run(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    marker = tmp_path / "ran"
    repo = make_repo(tmp_path / "repo")
    (repo / "check.sh").write_text(f"#!/bin/sh\necho ran >> '{marker}'\nexit 0\n")
    (repo / ".cc-hooks.toml").write_text('[guards.g]\nargv = ["sh", "check.sh"]\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "guard")
    assert cli(repo, env, "trust").returncode == 0
    assert cli(repo, env, "guards", "run", "g").returncode == 0 and marker.exists()
    marker.unlink()
    (repo / "check.sh").write_text(f"#!/bin/sh\necho changed >> '{marker}'\nexit 0\n")
    proc = cli(repo, env, "guards", "run", "g")
    assert proc.returncode != 0 and not marker.exists(), proc.stdout
