"""The trailer check after one new commit reads only that commit (issue 22 item 1): what git is
asked, and how much it answers, is the same at 1,000 and 5,000 commits of history. The verdict is
the one a run with nothing remembered gives, after new commits, merges and rewrites."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cc_hooks.checks import run_check
from cc_hooks.checks.context import make_context
from cc_hooks.runtime import Deadline

from .conftest import commit, git

LEDGER = "# Symptom Index\n\nAppend-only. Keyed by observable.\n"


def history(root: Path, commits: int) -> Path:
    """``commits`` commits written by ``git fast-import``; the ledger added by the second, a fix with
    its trailer every 50 commits."""
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Test User"), ("user.email", "test@example.com"), ("commit.gpgsign", "false")):
        git(root, "config", key, value)
    out = []
    for n in range(1, commits + 1):
        message = f"Fix case {n}\n\nSymptom: case {n} fails\n" if n % 50 == 0 else f"Change step {n}\n"
        data = message.encode()
        body = f"VALUE = {n}\n".encode()
        out += [b"commit refs/heads/main\nmark :%d\n" % n, b"committer T <t@example.com> %d +0000\n" % (1_700_000_000 + n * 60),
                b"data %d\n%s\n" % (len(data), data)]
        if n > 1:
            out.append(b"from :%d\n" % (n - 1))
        out.append(b"M 100644 inline src/mod.py\ndata %d\n%s\n" % (len(body), body))
        if n == 2:
            out.append(b"M 100644 inline SYMPTOMS.md\ndata %d\n%s\n" % (len(LEDGER), LEDGER.encode()))
        out.append(b"\n")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=b"".join(out), check=True)
    git(root, "checkout", "-q", "-f", "main")
    (root / ".git" / "cc-hooks").mkdir(mode=0o700)  # the state directory, as the first hook makes it
    return root


def trailers(root: Path, fresh: bool = False):
    if fresh:
        shutil.rmtree(root / ".git" / "cc-hooks" / "cache", ignore_errors=True)
    return run_check(make_context(root, Deadline(60)), "trailers")


def outcome(result) -> tuple:
    return result.status, result.summary, [(f.message, f.commit) for f in result.findings], result.data.get("checked")


@pytest.fixture
def git_output(monkeypatch):
    """(argv, bytes of output) of every git command the checks run through cc_hooks.git."""
    import cc_hooks.git
    import cc_hooks.record.trailers

    calls: list[tuple[tuple, int]] = []
    real = cc_hooks.git.run_git

    def spy(root, *args, **kwargs):
        out = real(root, *args, **kwargs)
        calls.append((args, len(out)))
        return out

    monkeypatch.setattr(cc_hooks.git, "run_git", spy)
    monkeypatch.setattr(cc_hooks.record.trailers, "run_git", spy)
    return calls


def after_one_commit(root: Path, git_output: list) -> list[tuple[tuple, int]]:
    trailers(root)  # remembers the history up to HEAD
    (root / "src" / "mod.py").write_text("VALUE = 'new'\n")
    commit(root, "Change the value", "src/mod.py")
    git_output.clear()
    assert trailers(root).status == "PASS"
    return list(git_output)


def shape(calls) -> list[tuple]:
    """The commands with their shas blanked: the same questions, whatever the commits."""
    import re

    return [tuple(re.sub(r"[0-9a-f]{40}", "<sha>", a) for a in args) for args, _ in calls]


def test_one_new_commit_costs_the_same_at_1000_and_5000_commits(tmp_path, git_output):
    small = after_one_commit(history(tmp_path / "small", 1000), git_output)
    large = after_one_commit(history(tmp_path / "large", 5000), git_output)
    assert shape(small) == shape(large)
    assert [size for _, size in small] == [size for _, size in large]  # git printed as much: one commit's worth
    assert sum(size for _, size in large) < 1000
    logs = [args for args, _ in large if args[0] == "log"]
    assert logs and all(any(".." in a for a in args) for args in logs)  # every walk is bounded by the last tip


def test_the_remembered_facts_give_the_verdict_of_a_fresh_run(tmp_path):
    root = history(tmp_path / "repo", 300)
    trailers(root)
    def change(path: str, text: str, message: str):
        return lambda: (root / path).write_text(text) and commit(root, message, path)

    steps = [
        change("src/mod.py", "A = 1\n", "fix: a crash on start"),
        change("src/mod.py", "A = 2\n", "Change A"),
        lambda: git(root, "reset", "-q", "--hard", "HEAD~2"),  # a rewrite: the remembered tip is gone from HEAD
        change("src/b.py", "B = 1\n", "Fix the b module"),
        change("SYMPTOMS.md", LEDGER + "\n", "Touch the ledger"),
    ]
    for step in steps:
        step()
        remembered = outcome(trailers(root))
        assert remembered == outcome(trailers(root, fresh=True))
    assert remembered[0] == "FAIL" and len(remembered[2]) == 2  # "Fix the b module" and the ledger touch


def test_a_side_branch_merged_in_is_read_with_the_new_commits(tmp_path):
    root = history(tmp_path / "repo", 200)
    git(root, "checkout", "-q", "-b", "side", "HEAD~5")
    (root / "src" / "side.py").write_text("S = 1\n")
    side = commit(root, "fix: the side case", "src/side.py")
    git(root, "checkout", "-q", "main")
    trailers(root)
    git(root, "merge", "-q", "--no-edit", "side")
    result = trailers(root)
    assert outcome(result) == outcome(trailers(root, fresh=True))
    assert [f.commit for f in result.findings] == [side]


def test_a_re_added_ledger_moves_the_base(tmp_path):
    root = history(tmp_path / "repo", 100)
    (root / "src" / "mod.py").write_text("X = 1\n")
    commit(root, "fix: an old crash", "src/mod.py")
    assert trailers(root).status == "FAIL"
    git(root, "rm", "-q", "SYMPTOMS.md")
    git(root, "commit", "-q", "-m", "Drop the ledger\n\nSymptom: case 0 fails")
    (root / "SYMPTOMS.md").write_text(LEDGER)
    commit(root, "Start the ledger again", "SYMPTOMS.md")
    result = trailers(root)
    assert outcome(result) == outcome(trailers(root, fresh=True))
    assert result.status == "PASS" and result.data["checked"] == 0  # the old fix is before the new base


def test_a_deepened_shallow_clone_is_read_again(tmp_path):
    origin = history(tmp_path / "origin", 120)
    (origin / "src" / "mod.py").write_text("X = 1\n")
    commit(origin, "fix: deep in history", "src/mod.py")
    for n in range(3):
        (origin / "src" / "mod.py").write_text(f"X = {n + 2}\n")
        commit(origin, f"Change X {n}", "src/mod.py")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{origin}", str(clone)], check=True)
    (clone / ".git" / "cc-hooks").mkdir(mode=0o700)
    shallow = outcome(trailers(clone))
    assert shallow[0] == "PASS"  # the ledger's adding commit is not in the clone: nothing is in scope
    git(clone, "fetch", "-q", "--unshallow")
    deep = trailers(clone)
    assert outcome(deep) == outcome(trailers(clone, fresh=True))
    assert deep.status == "FAIL" and deep.findings[0].message.startswith("fix commit")
