"""Issue 16, finding 13: a path claim through an in-repo symlink that points outside must not tell
whether a file outside the repository exists. Run through the installed ``cc-hooks rehydrate``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import git, make_repo

CC_HOOKS = Path(sys.executable).with_name("cc-hooks")


def _verdicts(repo: Path, env: dict) -> list[tuple[str, str]]:
    out = subprocess.run([str(CC_HOOKS), "rehydrate", "--json", "--project", str(repo)], capture_output=True, text=True, env=env)
    data = json.loads(out.stdout)
    return [(c["verdict"], c["evidence"]) for c in data["claims"] if "escape" in c["text"]]


def test_a_symlink_out_of_the_repository_tells_nothing_about_what_is_outside(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "present.txt").write_text("secret\n")
    repo = make_repo(tmp_path / "repo")
    (repo / "escape").symlink_to(outside)  # in the work tree, untracked: a hostile archive's planted link
    (repo / "CLAUDE.md").write_text("Dashboard: file next_steps.md\n")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    answers = []
    for name in ("present.txt", "absent.txt"):
        (repo / "next_steps.md").write_text(f"# Next steps\n\n## CURRENT STATE — 2026-12-01\nResume point: x.\n- Notes in `escape/{name}`.\n")
        answers.append(_verdicts(repo, env))
    assert answers[0] and len(answers[0]) == 1
    present, absent = answers
    assert present[0][0] == absent[0][0] == "CONTRADICTED"
    assert present[0][1].replace("present", "X") == absent[0][1].replace("absent", "X")  # the same words either way
    assert "work tree" not in present[0][1]
    git(repo, "status", "--porcelain")  # the repository is still a repository
