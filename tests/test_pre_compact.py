"""PreCompact as Claude Code runs it: the checklist, the checkpoint, the instructions, the policy."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from checks.conftest import build_record_repo
from test_hook import event, run_hook


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


def unrecorded_fix(repo) -> str:
    repo.write("src/calc.py", "def add(a, b):\n    return int(a) + int(b)\n")
    sha = repo.commit("fix: coerce string inputs", "src/calc.py")
    repo.push()
    return sha


def checkpoint(repo, prompt_id="p-1") -> dict:
    return json.loads((repo.state / "checkpoints" / "sess-1" / f"{prompt_id}.json").read_text())


def test_healthy_repo_scores_full_and_writes_a_checkpoint(repo):
    proc = run_hook(event("PreCompact", repo.root, trigger="auto", custom_instructions=None, prompt_id="p-1"), repo.root)
    text = proc.stdout.decode()
    assert proc.returncode == 0
    assert text.startswith("cc-hooks compaction checklist: 9/10 PASS, 1 could not be checked")
    assert "Preserve verbatim" not in text and "commit sha" in text
    data = checkpoint(repo)
    assert data["head"] == repo.git("rev-parse", "HEAD").strip()
    assert {r["id"]: r["status"] for r in data["results"]}["ledgers"] == "PASS"


def test_unrecorded_fix_is_preserved_verbatim(repo):
    sha = unrecorded_fix(repo)
    proc = run_hook(event("PreCompact", repo.root, trigger="manual", custom_instructions="keep it short", prompt_id="p-1"), repo.root)
    text = proc.stdout.decode()
    assert proc.returncode == 0 and "FAIL: trailers" in text
    preserve = text.split("Preserve verbatim", 1)[1]
    assert sha[:12] in preserve and "fix: coerce string inputs" in preserve
    assert "keep it short" not in text  # the user's own instructions are Claude Code's to repeat
    items = checkpoint(repo)["preserve"]
    assert items[0]["check"] == "trailers" and sha[:7] in items[0]["tokens"]["shas"]


def test_missing_audit_stays_in_the_score_line(repo):
    import shutil

    shutil.rmtree(repo.state / "audits")
    text = run_hook(event("PreCompact", repo.root, trigger="auto", prompt_id="p-1"), repo.root).stdout.decode()
    assert "FAIL: audit" in text and "Preserve verbatim" not in text


def block_manual(repo):
    repo.write(".cc-hooks.toml", '[hooks]\nprecompact_policy = "block-manual"\n')


def test_block_manual_blocks_then_a_rerun_within_60s_passes(repo):
    sha = unrecorded_fix(repo)
    block_manual(repo)
    first = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-1"), repo.root)
    err = first.stderr.decode()
    assert first.returncode == 2 and first.stdout == b""
    assert sha[:12] in err and "/compact again within 60 s" in err and "CC_HOOKS_ALLOW_COMPACT=1" in err
    second = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-2"), repo.root)
    assert second.returncode == 0 and b"Preserve verbatim" in second.stdout
    third = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-3"), repo.root)
    assert third.returncode == 2  # the override is spent


def test_block_manual_never_blocks_auto_or_with_the_env_override(repo):
    unrecorded_fix(repo)
    block_manual(repo)
    auto = run_hook(event("PreCompact", repo.root, trigger="auto", prompt_id="p-1"), repo.root)
    assert auto.returncode == 0 and b"FAIL: trailers" in auto.stdout
    env = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-2"), repo.root, env={"CC_HOOKS_ALLOW_COMPACT": "1"})
    assert env.returncode == 0


def test_block_manual_lets_a_complete_record_through(repo):
    block_manual(repo)
    proc = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-1"), repo.root)
    assert proc.returncode == 0


def test_warn_policy_never_blocks(repo):
    unrecorded_fix(repo)
    proc = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-1"), repo.root)
    assert proc.returncode == 0 and b"FAIL: trailers" in proc.stdout


# --- guard candidates (issue 11): a failing-then-passing test named for the fix's Guard -------------

NEG_TEST = "tests/test_calc.py::test_neg"
NEG_COMMAND = f"python3 -m pytest -q {NEG_TEST}"
NEG_FIX = "Make neg() negate"


class CliTranscript:
    """A session transcript in the real CLI's JSONL shape (as in ../shared/corpus/transcripts/cc-2.1.197-demo):
    a user prompt, then per tool call an assistant `tool_use` line and a user `tool_result` line."""

    def __init__(self, path, cwd):
        import datetime
        import uuid

        self.path, self.cwd, self._uuid = path, str(cwd), uuid
        self.clock = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=5)
        self.parent, self.lines, self.calls = None, [], 0

    def _line(self, kind, message, **extra):
        import datetime

        self.clock += datetime.timedelta(seconds=1)
        line = {"parentUuid": self.parent, "isSidechain": False, "type": kind, "message": message,
                "uuid": str(self._uuid.uuid4()), "timestamp": self.clock.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
                "userType": "external", "entrypoint": "sdk-cli", "cwd": self.cwd, "sessionId": "sess-1",
                "version": "2.1.197", "gitBranch": "main", **extra}
        self.parent = line["uuid"]
        self.lines.append(line)

    def prompt(self, text):
        self._line("user", {"role": "user", "content": text}, promptId="p-0")
        return self

    def tool(self, name, tool_input, content, is_error=False, detail=None):
        self.calls += 1
        ident = f"toolu_{self.calls}"
        self._line("assistant", {"id": f"msg_{self.calls}", "type": "message", "role": "assistant", "model": "claude-opus-4-8",
                                 "content": [{"type": "tool_use", "id": ident, "name": name, "input": tool_input}],
                                 "stop_reason": "tool_use"})
        self._line("user", {"role": "user", "content": [{"type": "tool_result", "content": content, "is_error": is_error,
                                                         "tool_use_id": ident}]},
                   toolUseResult=detail if detail is not None else {"stdout": content, "stderr": "", "interrupted": False})
        return self

    def bash(self, command, output, exit_code=0):
        if exit_code:
            text = f"Exit code {exit_code}\n{output}"
            return self.tool("Bash", {"command": command}, text, is_error=True, detail=f"Error: {text}")
        return self.tool("Bash", {"command": command}, output)

    def edit(self, rel, old, new):
        path = f"{self.cwd}/{rel}"
        return self.tool("Edit", {"file_path": path, "old_string": old, "new_string": new},
                         f"The file {path} has been updated successfully.",
                         detail={"filePath": path, "oldString": old, "newString": new})

    def save(self):
        self.path.write_text("".join(json.dumps(line) + "\n" for line in self.lines), encoding="utf-8")
        return self.path


def fix_with_a_failing_test(repo) -> tuple[str, str]:
    """The repo side and the transcript of a session: `test_neg` fails, neg() is fixed, it passes, commit.
    Returns (transcript path, fix sha)."""
    repo.write("src/calc.py", repo.read("src/calc.py") + "\n\ndef neg(a):\n    return a\n")
    repo.write("tests/test_calc.py", repo.read("tests/test_calc.py") + "\n\ndef test_neg():\n    assert neg(2) == -2\n")
    repo.git("add", "src/calc.py", "tests/test_calc.py")
    an_hour_ago = f"@{int(time.time()) - 3600} +0000"  # before the session: not its commit
    subprocess.run(["git", "-C", str(repo.root), "commit", "-q", "-m", "Add neg()"], check=True,
                   env={**os.environ, "GIT_AUTHOR_DATE": an_hour_ago, "GIT_COMMITTER_DATE": an_hour_ago})
    repo.push()
    session = CliTranscript(repo.root / "t.jsonl", repo.root).prompt("test_neg fails, fix it")
    session.bash(NEG_COMMAND, f"F\nFAILED {NEG_TEST} - assert 2 == -2\n1 failed in 0.05s", exit_code=1)
    session.edit("src/calc.py", "    return a\n", "    return -a\n")
    session.bash(NEG_COMMAND, ".\n1 passed in 0.04s")
    repo.write("src/calc.py", repo.read("src/calc.py").replace("    return a\n", "    return -a\n"))
    sha = repo.commit(f"{NEG_FIX}\n\nSymptom: neg(2) returns 2", "src/calc.py")
    session.bash("git commit -qam 'Make neg() negate' && git log --oneline -1", f"{sha[:7]} {NEG_FIX}")
    return str(session.save()), sha


def compact(repo, transcript) -> str:
    proc = run_hook(event("PreCompact", repo.root, trigger="manual", transcript_path=transcript, prompt_id="p-1"), repo.root)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


def session_data(repo) -> dict:
    return next(r for r in checkpoint(repo)["results"] if r["id"] == "session")["data"]


def test_a_failing_then_passing_test_is_named_as_the_guard_candidate(repo):
    transcript, sha = fix_with_a_failing_test(repo)
    text = compact(repo, transcript)
    [line] = [line for line in text.splitlines() if line.startswith("Guard candidate")]
    assert line == (f"Guard candidate: `{NEG_COMMAND}` failed then passed (fix `{sha[:12]}`) — record it as the Guard: "
                    f"of the fix's SYMPTOMS.md entry, as `{NEG_TEST}`.")
    assert text.index(line) < text.index("Rules that keep this summary checkable")
    [candidate] = session_data(repo)["guard_candidates"]
    assert candidate == {"command": NEG_COMMAND, "test_id": NEG_TEST, "fixed_in": sha, "guarded_by": None}


def record_neg(repo, fix: str, guard: str) -> None:
    entry = (f"\n## Symptom: neg(2) returns 2\n\n**Known causes**:\n\n### Cause 1: neg() returned its input — fixed in {fix[:10]}\n"
             f"- **Mechanism**: no minus sign.\n- **Discriminator**: neg(0) == 0 but neg(2) == 2.\n"
             f"- **Fix**: negate ({fix[:10]})\n- **Guard**: {guard}\n")
    repo.write("SYMPTOMS.md", repo.read("SYMPTOMS.md") + entry)


@pytest.mark.parametrize("names_the_fix, guard, guarded", [
    (True, f"`{NEG_TEST}`", True),  # the candidate itself
    (True, "`tests/test_calc.py::test_add`", True),  # another Guard, on the cause of the fix commit
    (True, "none — nothing runs neg() yet", False),  # an explicit gap is no Guard: the candidate fills it
    (False, f"`{NEG_TEST}`", True),  # the test id alone, whatever commit the cause names
    (False, "`tests/test_calc.py::test_add`", False),  # neither the fix commit nor the test: not this outcome's
])
def test_a_candidate_already_recorded_as_a_guard_is_left_out(repo, names_the_fix, guard, guarded):
    transcript, sha = fix_with_a_failing_test(repo)
    record_neg(repo, sha if names_the_fix else repo.fix, guard)
    text = compact(repo, transcript)
    assert ("Guard candidate:" in text) is not guarded, text
    [candidate] = session_data(repo)["guard_candidates"]
    assert (candidate["guarded_by"] or "").startswith("SYMPTOMS.md:") is guarded
    if guarded:
        where, ref = candidate["guarded_by"].split(" ", 1)
        line = repo.read("SYMPTOMS.md").splitlines()[int(where.split(":")[1]) - 1]
        assert ref == guard and line == f"- **Guard**: {guard}"  # points at the Guard bullet that covers it


def test_no_guard_candidate_without_a_test_outcome(repo):
    text = run_hook(event("PreCompact", repo.root, trigger="auto", prompt_id="p-1"), repo.root).stdout.decode()
    assert "Guard candidate" not in text


def test_guard_candidate_lines_name_only_uncovered_candidates_and_at_most_five():
    from cc_hooks.checks.result import CheckResult
    from cc_hooks.events.pre_compact import guard_candidate_lines

    def candidate(command, **fields):
        return {"command": command, "test_id": None, "fixed_in": None, "guarded_by": None, **fields}

    candidates = [candidate("make test"), candidate("pytest -q t.py", guarded_by="SYMPTOMS.md:9 `t.py::test_x`"),
                  "not a candidate", candidate("")] + [candidate(f"pytest t{n}.py", fixed_in="ab" * 20) for n in range(6)]
    session = CheckResult("session", "PASS", "ok", data={"guard_candidates": candidates})
    lines = guard_candidate_lines([CheckResult("ledgers", "PASS", "ok"), session])
    assert lines[0] == "Guard candidate: `make test` failed then passed — record it as the Guard: of the fix's SYMPTOMS.md entry."
    assert lines[1] == ("Guard candidate: `pytest t0.py` failed then passed (fix `abababababab`) — "
                        "record it as the Guard: of the fix's SYMPTOMS.md entry.")
    assert len(lines) == 5 and not any("t.py" in line for line in lines)
    assert guard_candidate_lines([CheckResult("session", "COULD NOT CHECK", "no transcript")]) == []
