"""`Dashboard: github o/r` through the real Claude Code CLI against a loopback fake of GitHub (issue 19).

One repository per CLI version: ``cc-hooks install`` + ``init``, the declaration switched to
``github o/r`` with ``api_url`` at the fake; the fake holds a state issue and two queued issues, one
of which a commit on HEAD names (landed but open). After ``/compact`` the next request must carry the
tracker's state with verdicts, the landed issue CONTRADICTED; with the fake stopped, a second
``/compact`` and prompt still work and the report says the tracker was unreachable.
"""

from __future__ import annotations

import datetime
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import _unavailable
from .fakeapi import FakeAnthropic
from .harness import ClaudeRunner
from .test_rehydration import COMPACT_HEADER, commit_all, install_and_init, new_repo, report, section

pytestmark = pytest.mark.e2e

TODAY = datetime.date.today().isoformat()
TOKEN = "ghp_e2eS3cretToken0123456789abcdefABCDEF"
FAKES = Path(__file__).resolve().parents[1] / "record" / "backends" / "fakes.py"


def load_fakes():
    spec = importlib.util.spec_from_file_location("tracker_fakes", FAKES)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def point_at(repo: Path, url: str) -> None:
    claude_md = repo / "CLAUDE.md"
    claude_md.write_text(claude_md.read_text().replace("Dashboard: file next_steps.md", "Dashboard: github o/r"))
    toml = repo / ".cc-hooks.toml"
    toml.write_text(toml.read_text().replace('api_url = "https://api.github.com"', f'api_url = "{url}"'))
    assert "Dashboard: github o/r" in claude_md.read_text() and url in toml.read_text()


@pytest.fixture(scope="module")
def tracked(claude_cli: Path, tmp_path_factory: pytest.TempPathFactory):
    exe = Path(sys.executable).parent / "cc-hooks"
    if not exe.exists():
        _unavailable(f"{exe} missing: install the package first (pip install -e '.[test]')")
    fakes = load_fakes()
    base = tmp_path_factory.mktemp("tracker")
    github = fakes.FakeGitHub(token=TOKEN)
    try:
        with FakeAnthropic(max_lifetime=600) as fake:
            claude = ClaudeRunner(cli=claude_cli, fake=fake, home=base / "home", cwd=new_repo(base / "repo"))
            claude.extra_env["GITHUB_TOKEN"] = TOKEN
            install_and_init(claude, exe)
            point_at(claude.cwd, github.url)
            commit_all(claude.cwd, "Start the record; the dashboard is GitHub Issues")
            # The fake is not api.github.com: the user allows the endpoint the config names, as a person would.
            allowed = subprocess.run([str(exe), "trust"], cwd=claude.cwd, env=claude.env(), capture_output=True, text=True)
            assert allowed.returncode == 0 and github.url in allowed.stdout, allowed.stdout + allowed.stderr
            github.add_issue("cc-hooks: current state", ["cc-hooks-state"],
                             f"## CURRENT STATE — {TODAY}\nResume point: write the user guide next.\n- Branch `main` is the trunk.\n")
            landed = github.add_issue("Add the tokenizer", ["cc-hooks-queue"], body=f"Queued: {TODAY}\n")
            pending = github.add_issue("Write the user guide", ["cc-hooks-queue"], body=f"Queued: {TODAY}\n")
            (claude.cwd / "tokenizer.py").write_text("def tokens(s):\n    return s.split()\n")
            sha = commit_all(claude.cwd, f"Tokenizer: split the input (#{landed})")

            claude.fake.summary_text = "<analysis>a</analysis>\n<summary>\n1. Work: the tokenizer.\n</summary>"
            claude.fake.queue_text("hello")
            claude.fake.queue_text("noted")
            sid = claude.session(["hi", "more"])
            claude.compact(sid, "keep the queue")
            claude.fake.queue_text("Continuing.")
            claude.run("what next?", resume=sid)
            first = claude.fake.turns[-1].text
            asked = len(github.requests)

            github.stop()
            claude.compact(sid, "again, tracker down")
            claude.fake.queue_text("Still going.")
            after = claude.run("and now?", resume=sid)
            second = claude.fake.turns[-1].text
            yield {"claude": claude, "sid": sid, "sha": sha, "landed": landed, "pending": pending, "first": first,
                   "second": second, "after": after, "asked": asked, "github": github}
    finally:
        try:
            github.stop()
        except Exception:
            pass


def test_after_compact_the_request_carries_the_trackers_state_with_verdicts(tracked):
    compact = report(tracked["first"], COMPACT_HEADER)
    assert "`github o/r` (CURRENT STATE " + TODAY + ")" in compact
    contradicted = section(compact, "CONTRADICTED")
    assert f"`#{tracked['landed']} Add the tokenizer`" in contradicted
    assert re.search(rf"landed: #{tracked['landed']} referenced in {tracked['sha'][:7]}", contradicted)
    assert f"#{tracked['pending']} Write the user guide" not in contradicted  # pending, and verified so
    assert re.search(r"### [1-9]\d* other claim\(s\) verified\.", compact)
    assert tracked["asked"] > 0 and all(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in tracked["github"].requests)


def test_the_checklist_before_compact_named_the_close_command(tracked):
    compact_request = next(r for r in tracked["claude"].fake.summaries)
    assert f"cc-hooks dashboard close #{tracked['landed']}" in compact_request.text


def test_with_the_tracker_stopped_the_session_goes_on_and_says_so(tracked):
    assert tracked["after"].returncode == 0 and "and now?" in tracked["claude"].fake.turns[-1].last_user_text
    compact = report(tracked["second"][tracked["second"].rfind(COMPACT_HEADER):], COMPACT_HEADER)
    assert re.search(r"dashboard as read at \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z; github o/r unreachable: `cannot connect", compact)
    assert f"`#{tracked['landed']} Add the tokenizer`" in section(compact, "CONTRADICTED")  # from the last good read


def test_the_token_reached_no_request_text_nor_transcript_nor_state(tracked):
    claude = tracked["claude"]
    assert all(TOKEN not in r.text for r in claude.fake.requests)
    assert TOKEN not in claude.transcript_path(tracked["sid"]).read_text(encoding="utf-8")
    state = claude.cwd / ".git" / "cc-hooks"
    assert list(state.glob("dashboard/github-*.json"))  # the last good read is there ...
    for path in state.rglob("*"):
        if path.is_file():
            assert TOKEN not in path.read_bytes().decode("utf-8", "replace"), path  # ... without the token
