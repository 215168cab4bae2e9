"""`cc-hooks rehydrate` on real repositories: exit codes, --json, --transcript."""

import json
import subprocess

from cc_hooks.cli import main


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def dashboard(repo, *bullets):
    (repo / "next_steps.md").write_text(
        "# Next steps\n\n## CURRENT STATE — 2026-11-29\nResume point: keep going on `main`.\n" + "".join(f"- {b}\n" for b in bullets),
        encoding="utf-8",
    )


def test_exit_0_when_nothing_is_contradicted(git_repo, capsys):
    head = git(git_repo, "rev-parse", "--short", "HEAD").strip()
    dashboard(git_repo, f"Initial work landed in `{head}`.")
    assert main(["rehydrate", "--project", str(git_repo)]) == 0
    out = capsys.readouterr()
    assert "### 2 other claim(s) verified." in out.out
    assert out.err.strip() == "cc-hooks: 2 verified, 0 contradicted, 0 unverified"


def test_exit_1_on_contradiction_and_json_lists_every_claim(git_repo, capsys):
    dashboard(git_repo, "Fix landed in `9b1d2e0`.", "Deployed to production.")
    assert main(["rehydrate", "--project", str(git_repo), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["counts"] == {"VERIFIED": 1, "CONTRADICTED": 1, "UNVERIFIED": 1}
    fix = next(c for c in data["claims"] if "9b1d2e0" in c["text"])
    assert (fix["kind"], fix["verdict"], fix["line"], fix["source"]) == ("git", "CONTRADICTED", 5, "next_steps.md")
    assert fix["evidence"] == "no commit 9b1d2e0 in this repository"


def test_exit_2_without_a_record(git_repo, capsys):
    assert main(["rehydrate", "--project", str(git_repo)]) == 2
    assert "not initialized" in capsys.readouterr().out


def test_exit_2_outside_a_repository(tmp_path, capsys):
    assert main(["rehydrate", "--project", str(tmp_path)]) == 2
    assert "not inside a git repository" in capsys.readouterr().err


def test_transcript_summary_is_audited(git_repo, tmp_path, capsys):
    dashboard(git_repo)
    transcript = tmp_path / "t.jsonl"
    lines = [
        {"type": "user", "message": {"role": "user", "content": "hi"}},
        {"type": "user", "isCompactSummary": True, "timestamp": "2026-11-29T10:00:00Z",
         "message": {"role": "user", "content": "Summary:\n- Fixed bug in calc.py commit deadbeef\n"}},
    ]
    transcript.write_text("\n".join(json.dumps(l) for l in lines) + "\n", encoding="utf-8")
    assert main(["rehydrate", "--project", str(git_repo), "--transcript", str(transcript), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    summary = [c for c in data["claims"] if c["source"] == "summary"]
    assert summary and summary[0]["verdict"] == "CONTRADICTED"
    assert "no commit deadbeef" in summary[0]["evidence"]
    [path_check] = [c for c in summary[0]["checks"] if c["subject"] == "calc.py"]
    assert path_check["verdict"] == "UNVERIFIED" and "may name no file" in path_check["evidence"]  # unquoted, found nowhere
