"""A repository received as an archive with its ``.git`` configures programs git would run
(fsmonitor, hooks, filters, diff drivers, signature programs, pagers, transports...): none of
them runs from anything cc-hooks does, through the installed ``cc-hooks`` entry point, as
Claude Code runs it (issue 16, item 2; docs/security.md, "Git runs no repository program")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import assert_sane, git, make_repo
from .faults import FIELDS

ENTRY = Path(sys.executable).with_name("cc-hooks")
# Every program a hostile .git/config or .git/hooks can name, each a script that leaves a marker.
VECTORS = ("fsmonitor", "hook", "clean", "smudge", "process", "textconv", "diff-command", "diff-external",
           "merge-driver", "gpg", "gpg-ssh", "gpg-x509", "pager", "pager-cmd", "credential", "credential-url",
           "ssh-command", "askpass", "ext-transport", "upload-pack", "alternate-refs", "trailer", "editor",
           "tar", "git-proxy")
HOOKS = ("post-checkout", "post-index-change", "reference-transaction", "pre-commit", "post-commit",
         "pre-auto-gc", "post-merge", "post-rewrite", "fsmonitor-watchman")
MISSING = "1234567890abcdef1234567890abcdef12345678"  # a full object id no repository has: lazily fetched


def plant(repo: Path, markers: Path, bin_dir: Path) -> None:
    """Arm ``repo``: every vector's program touches ``markers/<vector>`` (filters and textconv
    pass their input through, so git keeps going and reaches the next one)."""
    bin_dir.mkdir()
    markers.mkdir()
    for name in (*VECTORS, *HOOKS):
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\ntouch '{markers}/{name}'\ncase \"$0\" in *clean|*smudge|*textconv) cat ;; esac\nexit 0\n")
        script.chmod(0o755)
    hooks = repo / ".git" / "hooks"
    for name in HOOKS:
        (hooks / name).write_text(f"#!/bin/sh\ntouch '{markers}/hook'\n")
        (hooks / name).chmod(0o755)
    (repo / ".gitattributes").write_text("* filter=evil diff=evil merge=evil\n")
    settings = {
        "core.fsmonitor": f"{bin_dir}/fsmonitor", "filter.evil.clean": f"{bin_dir}/clean",
        "filter.evil.smudge": f"{bin_dir}/smudge", "diff.evil.textconv": f"{bin_dir}/textconv",
        "diff.evil.command": f"{bin_dir}/diff-command", "diff.external": f"{bin_dir}/diff-external",
        "merge.evil.driver": f"{bin_dir}/merge-driver %O %A %B", "gpg.program": f"{bin_dir}/gpg",
        "gpg.ssh.program": f"{bin_dir}/gpg-ssh", "gpg.x509.program": f"{bin_dir}/gpg-x509",
        "log.showSignature": "true", "core.pager": f"{bin_dir}/pager", "pager.log": f"{bin_dir}/pager-cmd",
        "pager.status": f"{bin_dir}/pager-cmd", "credential.helper": f"!{bin_dir}/credential",
        "credential.https://example.com.helper": f"!{bin_dir}/credential-url",
        "core.sshCommand": f"{bin_dir}/ssh-command", "core.askPass": f"{bin_dir}/askpass",
        "core.alternateRefsCommand": f"{bin_dir}/alternate-refs", "trailer.symptom.cmd": f"{bin_dir}/trailer",
        "core.editor": f"{bin_dir}/editor", "sequence.editor": f"{bin_dir}/editor",
        "tar.evil.command": f"{bin_dir}/tar", "core.gitProxy": f"{bin_dir}/git-proxy",
        # A partial clone fetches a missing object lazily, from any transport the config allows.
        "core.repositoryformatversion": "1", "extensions.partialClone": "origin",
        "remote.origin.url": f"ext::{bin_dir}/ext-transport", "remote.origin.promisor": "true",
        "protocol.ext.allow": "always", "protocol.allow": "always",
        "remote.up.url": "file:///nonexistent/up", "remote.up.promisor": "true",
        "remote.up.uploadpack": f"{bin_dir}/upload-pack",
    }
    for key, value in settings.items():
        git(repo, "config", key, value)
    # The long-running filter protocol would not pass content through: a repository of its own below.
    git(repo, "config", "filter.other.process", f"{bin_dir}/process")


@pytest.fixture(scope="module")
def armed(tmp_path_factory):
    """A repository with a record, a dashboard whose claims make the verifiers run git, a HEAD
    signed with a (fake) key, and every vector planted afterwards."""
    base = tmp_path_factory.mktemp("programs")
    repo = make_repo(base / "repo")
    assert subprocess.run([str(ENTRY), "init"], cwd=repo, capture_output=True).returncode == 0
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("print('hello')\n")
    steps = repo / "next_steps.md"
    text = steps.read_text()
    head, marker, tail = text.partition("Resume point:")
    sha = git(repo, "rev-parse", "--short", "HEAD").strip()
    claims = [f"- Landed in `{sha}`: `src/app.py` prints hello.", f"- The fix is `{MISSING}`.",
              "- Branch `feature` is merged.", "- `src/gone.py` was removed."]
    steps.write_text(head + marker + " continue\n" + "\n".join(claims) + "\n" + tail.split("\n", 1)[1])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Record and app\n\nSymptom: the app said nothing")
    signer = base / "signer"
    signer.write_text("#!/bin/sh\ncat >/dev/null\necho '[GNUPG:] SIG_CREATED D 1 8 00 1 X' >&2\n"
                      "printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nAAAA\\n-----END PGP SIGNATURE-----\\n'\n")
    signer.chmod(0o755)
    (repo / "src" / "app.py").write_text("print('hello again')\n")
    git(repo, "add", "-A")
    git(repo, "-c", f"gpg.program={signer}", "-c", "user.signingkey=X", "commit", "-q", "-S", "-m", "Signed change")
    assert "gpgsig" in git(repo, "cat-file", "commit", "HEAD")
    markers, bin_dir = base / "markers", base / "bin"
    plant(repo, markers, bin_dir)
    (repo / "src" / "app.py").write_text("print('hello, dirty')\n")  # a dirty file: status must look at it
    os.utime(repo / "README.md", None)  # a racily clean one: git must hash it (through the clean filter)
    other = make_repo(base / "process-repo")  # the long-running filter protocol, on its own
    (other / ".gitattributes").write_text("* filter=other\n")
    git(other, "add", "-A")
    git(other, "commit", "-q", "-m", "attributes")
    git(other, "config", "filter.other.process", f"{bin_dir}/process")
    git(other, "config", "filter.other.required", "true")
    os.utime(other / "README.md", None)
    return {"repo": repo, "other": other, "markers": markers, "bin": bin_dir}


def fired(armed) -> list[str]:
    found = sorted(p.name for p in armed["markers"].iterdir())
    for path in armed["markers"].iterdir():
        path.unlink()
    return found


def hook(name: str, cwd: Path, **fields) -> subprocess.CompletedProcess:
    payload = {"hook_event_name": name, "session_id": "s-programs", "cwd": str(cwd),
               "transcript_path": str(cwd / "t.jsonl"), **FIELDS[name], **fields}
    return subprocess.run([str(ENTRY), "hook"], input=json.dumps(payload).encode(), cwd=cwd, capture_output=True,
                          timeout=120, env={**os.environ, "CC_HOOKS_TEST": "programs"})


pytestmark = pytest.mark.skipif(not ENTRY.exists(), reason=f"the installed entry point {ENTRY} is absent")


def test_the_planted_programs_are_armed(armed):
    """Plain git in the armed repository runs them: what the tests below prove cc-hooks avoids."""
    repo = armed["repo"]
    subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True)
    subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%H"], capture_output=True)
    subprocess.run(["git", "-C", str(repo), "cat-file", "-t", MISSING], capture_output=True)
    subprocess.run(["git", "-C", str(armed["other"]), "status", "--porcelain"], capture_output=True)
    assert {"fsmonitor", "clean", "gpg", "ext-transport", "process"} <= set(fired(armed))


@pytest.mark.parametrize("events", [
    ("SessionStart",), ("SessionStart",),  # the second run starts its learned git commands early
    ("PreCompact", "PostCompact", "SessionStart"),
])
def test_no_hook_event_runs_a_repository_program(armed, events):
    for repo in (armed["repo"], armed["other"]):
        for name in events:
            proc = hook(name, repo, **({"source": "compact"} if name == "SessionStart" and len(events) > 1 else {}))
            assert proc.returncode in (0, 2) and "Traceback" not in proc.stderr.decode(), proc
    assert not (found := fired(armed)), f"repository programs ran: {found}"


@pytest.mark.parametrize("verb", [["check"], ["rehydrate"], ["doctor"], ["triage", "the app said nothing"],
                                  ["audit"], ["guards", "list"], ["trust", "--show"]])
def test_no_cli_verb_runs_a_repository_program(armed, verb):
    for repo in (armed["repo"], armed["other"]):
        proc = subprocess.run([str(ENTRY), *verb], cwd=repo, capture_output=True, timeout=300)
        assert "Traceback" not in proc.stderr.decode(), proc.stderr.decode()[-2000:]
    assert not (found := fired(armed)), f"repository programs ran: {found}"


def test_a_driver_name_git_cannot_be_told_to_neutralize_stops_git(tmp_path):
    """``-c`` splits at the first "=": a driver named ``x=y`` cannot be given an inert value, so
    no git runs in that repository (the hook still answers, saying git failed)."""
    from cc_hooks.git import GitError, run_git

    repo = make_repo(tmp_path / "repo")
    marker = tmp_path / "ran"
    git(repo, "config", "filter.x=y.clean", f"touch {marker}")
    (repo / ".gitattributes").write_text("* filter=x=y\n")
    with pytest.raises(GitError, match="cannot neutralize"):
        run_git(repo, "status", "--porcelain")
    proc = hook("SessionStart", repo, source="startup")
    assert proc.returncode == 0 and not marker.exists()
    assert_sane_process(proc, "SessionStart")


def assert_sane_process(proc: subprocess.CompletedProcess, name: str) -> None:
    from .conftest import Answer

    assert_sane(Answer(name, proc.returncode, proc.stdout.decode(), proc.stderr.decode(), 0.0))


def test_every_git_process_goes_through_the_one_builder():
    """No module starts git but cc_hooks.git (the prefetch starts its processes from
    ``git.command`` too), and nothing imports GitPython, which would start git processes of its own."""
    import ast

    package = Path(__file__).resolve().parents[2] / "cc_hooks"
    starters = {"run", "Popen", "call", "check_call", "check_output", "execv", "execvp", "spawnv", "spawnvp"}
    offenders = []
    for path in package.rglob("*.py"):
        rel = path.relative_to(package).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "git" for a in node.names):
                offenders.append(f"{rel}:{node.lineno} imports GitPython")
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "git":
                offenders.append(f"{rel}:{node.lineno} imports GitPython")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in starters
                    and node.args and isinstance(node.args[0], ast.List) and node.args[0].elts
                    and isinstance(node.args[0].elts[0], ast.Constant) and node.args[0].elts[0].value == "git"
                    and rel != "git.py"):
                offenders.append(f"{rel}:{node.lineno} starts git itself")
    assert offenders == []


def test_a_repositorys_own_hooks_path_outside_it_is_not_written(tmp_path):
    """`core.hooksPath` in the repository's .git/config, pointing at a directory of the user's:
    `cc-hooks install --git-hooks` must neither write a commit-msg there nor move one aside."""
    import subprocess
    import sys
    from pathlib import Path

    victim = tmp_path / "bin"
    victim.mkdir()
    (victim / "commit-msg").write_text("#!/bin/sh\n# the user's own\n")
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "config", "core.hooksPath", str(victim)], check=True)
    cc_hooks = Path(sys.executable).with_name("cc-hooks")
    env = {**__import__("os").environ, "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    proc = subprocess.run([str(cc_hooks), "install", "--git-hooks", "--project", str(repo)], capture_output=True, text=True, env=env, cwd=repo)
    assert proc.returncode != 0 and "core.hooksPath leads outside it" in proc.stderr, proc.stderr
    assert sorted(p.name for p in victim.iterdir()) == ["commit-msg"]
    assert (victim / "commit-msg").read_text() == "#!/bin/sh\n# the user's own\n"
