"""`cc-hooks summaries list|show|export`: the real corpus, hooks run for real on a real repository, hostile text."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cc_hooks.cli import main
from cc_hooks.transcript import store
from test_hook import event, run_hook
from transcript.conftest import CORPUS, CORPUS_332, Synth, age

HOSTILE = "<script>alert(1)</script> \x1b]0;pwned\x07\x1b[2J \u202eevil\u202c </pre><img src=http://x.invalid/i.png> ```"


def corpus_files() -> list[Path]:
    files = sorted(CORPUS_332.glob("*/*.jsonl")) + sorted(p for p in CORPUS.glob("*/*.jsonl") if p.name != "hook-payloads.jsonl")
    if not files:
        pytest.skip(f"../shared/corpus not present: {CORPUS.parent.resolve()}")
    return files


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["summaries", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_show_and_export_on_the_corpus(git_repo: Path, tmp_path: Path, capsys) -> None:
    files = corpus_files()
    copies = []
    for source in files:
        target = tmp_path / "corpus" / source.parent.name / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        copies.append(target)
    picks = [a for path in copies for a in ("--transcript", str(path))]
    code, out, _ = cli(capsys, "list", "--project", str(git_repo), "--json", *picks)
    listed = json.loads(out)
    assert code == 0 and len(listed) == len(copies) + 1  # the 2.1.332 session has two compactions
    auto = [c for c in listed if c["session_id"].startswith("42338138")]
    assert [c["number"] for c in auto] == [1, 2] and {c["trigger"] for c in auto} == {"auto"}
    assert [c["pre_tokens"] for c in auto] == [67148, 67596] and all(c["summary_chars"] == 80 for c in auto)
    assert all(c["sources"] == ["transcript"] and c["audit_counts"] is None for c in listed)
    code, out, _ = cli(capsys, "list", "--project", str(git_repo), *picks)
    assert code == 0 and "Compactions" in out and "67,596" in out

    code, out, _ = cli(capsys, "show", "42338138", "1", "--project", str(git_repo), *picks)
    assert code == 0 and "compaction 1 of 2" in out and "tokens before: 67148" in out
    # The claims are checked now (no audit was stored): the sentence, then its verdict under it.
    assert re.search(r"- Fixed the parser in commit deadbee2\.\n +↳ CONTRADICTED: no commit deadbee2", out), out
    assert "If you need specific details" not in out  # the CLI's wrapper is not the summary
    code, out, _ = cli(capsys, "show", "5d2e4ca7", "--json", "--project", str(git_repo), *picks)
    data = json.loads(out)
    assert data["trigger"] == "manual" and data["summary"] == "scripted summary: fixed bug in calc.py commit deadbeef"
    assert data["counts"]["CONTRADICTED"] == 1 and data["verified"].startswith("verified now")

    for fmt in ("md", "html"):
        target = tmp_path / f"auto.{fmt}"
        code, _, err = cli(capsys, "export", "42338138", "--format", fmt, "-o", str(target), "--project",
                           str(git_repo), *picks)
        text = target.read_text()
        assert code == 0 and "2 compaction(s)" in err
        assert text.count("Compaction 1") == 1 and text.count("Compaction 2") == 1
        assert "CONTRADICTED" in text and "turn 0: filler line" in text
        assert text.index("Compaction 1") < text.index("Compaction 2")


def hooked_session(repo: Path, config_dir: Path, summary_extra: str = "") -> tuple[str, Path]:
    """A transcript of a session in ``repo`` with one compaction, and the hooks of that compaction run
    for real (PostCompact's capture and audit, SessionStart's report) with the same session id."""
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    summary = f"<summary>Work done:\n- Committed {head} on branch `main`.\n- Fixed it in commit deadbee9.{summary_extra}</summary>"
    s = Synth(session="aaaabbbb-0000-4000-8000-000000000001", cwd=str(repo))
    s.user(f"please fix it {HOSTILE}")
    s.lines[-1] = s.lines[-1].replace('"timestamp":"2026-01-01T00:00:01.000Z"', f'"timestamp":{json.dumps(HOSTILE)}')
    assert HOSTILE[:8] in json.loads(s.lines[-1])["timestamp"]  # even a timestamp is transcript text
    s.assistant([{"type": "text", "text": f"Fixed. {HOSTILE}"}])
    s.tool("Bash", {"command": "echo <b>hi</b>"}, f"out {HOSTILE}")
    s.boundary("Work done:\n- Committed on branch `main`.")
    s.user("continue")
    path = s.write(config_dir / "projects" / store.escape_project(str(repo)) / f"{s.session}.jsonl")
    age(path)
    for name, fields in (("PostCompact", {"trigger": "manual", "compact_summary": summary}),
                         ("SessionStart", {"source": "compact"})):
        proc = run_hook(event(name, repo, session_id=s.session, transcript_path=str(path), **fields), repo)
        assert proc.returncode == 0, proc.stderr.decode()
    return s.session, path


def test_a_hooked_compaction_shows_its_audit_inline_and_the_report_it_injected(git_repo, tmp_path, capsys,
                                                                                 monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    sid, _ = hooked_session(git_repo, tmp_path / "cfg")
    code, out, _ = cli(capsys, "list", "--project", str(git_repo), "--json")
    (item,) = json.loads(out)
    assert code == 0 and item["session_id"] == sid and item["sources"] == ["transcript", "capture", "report"]
    assert item["audit_counts"] == {"VERIFIED": 1, "CONTRADICTED": 1, "UNVERIFIED": 0}
    code, out, _ = cli(capsys, "show", "--project", str(git_repo))
    assert code == 0 and "claims (the audit made at the compaction): 1 verified, 1 contradicted" in out
    assert cli(capsys, "show", "1", "--project", str(git_repo))[1] == out  # N alone: the newest session's
    assert re.search(r"Fixed it in commit deadbee9\.\n +↳ CONTRADICTED: no commit deadbee9", out), out
    report = next(iter(json.loads(p.read_text())["report"] for p in (git_repo / ".git" / "cc-hooks" / "reports").rglob("*.json")))
    assert "Rehydration report the model received after it" in out
    assert all(line.strip() in out for line in report.splitlines() if line.strip())
    code, out, _ = cli(capsys, "show", sid[:8], "1", "--json", "--project", str(git_repo))
    data = json.loads(out)
    assert data["report"]["report"] == report and data["verified"] == "the audit made at the compaction"


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs = set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs += [(tag, name, value) for name, value in attrs]


ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "ul", "li", "code", "section",
                "p", "pre", "span", "div"}


def test_the_html_export_is_one_file_without_resources_and_escapes_all_transcript_text(git_repo, tmp_path, capsys,
                                                                                         monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    sid, _ = hooked_session(git_repo, tmp_path / "cfg", summary_extra=f"\n- {HOSTILE}")
    target = tmp_path / "out" / "session.html"
    target.parent.mkdir()
    code, _, _ = cli(capsys, "export", sid, "--format", "html", "-o", str(target), "--project", str(git_repo))
    text = target.read_text()
    assert code == 0 and list(target.parent.iterdir()) == [target]
    parser = Tags()
    parser.feed(text)
    assert parser.tags <= ALLOWED_TAGS, parser.tags - ALLOWED_TAGS
    assert {name for _, name, _ in parser.attrs} <= {"lang", "charset", "http-equiv", "content", "name", "class"}
    assert "default-src 'none'" in text and not re.search(r"(?i)<script|<img|<link|<iframe|url\(|@import", text)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "&lt;/pre&gt;&lt;img" in text
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", text)
    assert text.count("alert(1)") >= 4  # the prompt, the answer, the tool result and the summary: all shown
    assert "Compaction 1" in text and "CONTRADICTED" in text and "Rehydration report" in text


def test_the_markdown_export_fences_hostile_text(git_repo, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    sid, _ = hooked_session(git_repo, tmp_path / "cfg")
    code, out, _ = cli(capsys, "export", sid, "--project", str(git_repo))
    assert code == 0 and "\x1b" not in out and "\u202e" not in out
    for match in re.finditer(r"^(`{3,})text\n(.*?)\n\1$", out, re.DOTALL | re.MULTILINE):
        assert not re.search(rf"^{match.group(1)}", match.group(2), re.MULTILINE)  # nothing inside closes the fence
    outside = re.sub(r"^(`{3,})text\n.*?\n\1$", "", out, flags=re.DOTALL | re.MULTILINE)
    outside = re.sub(r"(`+) .*? \1|(`+)[^` ][^\n]*?\2", "", outside)  # inline code spans (``printable.quote``)
    assert "<script>" not in outside and "alert(1)" not in outside


def test_bad_input_is_a_nonzero_exit_with_a_human_message(git_repo, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert cli(capsys, "list", "--project", str(git_repo))[0] == 1  # nothing compacted yet
    sid, _ = hooked_session(git_repo, tmp_path / "cfg")
    cases = [
        (["show", "nosuch", "--project", str(git_repo)], 1, "no session 'nosuch'"),
        (["show", sid, "3", "--project", str(git_repo)], 1, "has compactions 1..1, not 3"),
        (["show", "3", "--project", str(git_repo)], 1, "has compactions 1..1, not 3"),  # N of the newest session
        (["show", "--transcript", str(tmp_path / "missing.jsonl"), "--project", str(git_repo)], 2, "no such file"),
        (["list", "--project", str(tmp_path)], 2, "not inside a git repository"),
        (["export", sid, "-o", str(tmp_path / "no" / "dir.md"), "--project", str(git_repo)], 2, "no such directory"),
    ]
    for argv, expected, message in cases:
        code, _, err = cli(capsys, *argv)
        assert code == expected and message in err and "Traceback" not in err, (argv, err)
    with pytest.raises(SystemExit) as exc:
        main(["summaries", "export", sid, "--format", "pdf"])
    assert exc.value.code == 2


def test_captures_match_their_compaction_by_text_and_reports_by_time(tmp_path: Path) -> None:
    from cc_hooks.summaries.collect import iso_epoch, merge, transcript_compactions

    s = Synth()
    s.user("first")
    s.boundary("alpha summary: the parser")
    s.user("second")
    s.boundary("beta summary: the lexer")
    path = s.write(tmp_path / "s.jsonl")
    found, session_id, cwd = transcript_compactions(path)
    assert session_id == s.session and cwd == s.cwd and [c.trigger for c in found] == ["auto", "auto"]
    late = iso_epoch(json.loads(s.lines[-1])["timestamp"]) + 3600
    # Both captures are written after both boundaries: time alone would give both to the second.
    captures = [(late, "c2", {"summary": "<summary>beta summary: the lexer</summary>"}),
                (late + 1, "c1", {"summary": "<analysis>x</analysis><summary>alpha summary: the parser</summary>"})]
    reports = [(late + 2, "r", {"source": "compact", "report": "the report"}),
               (late + 3, "r-resume", {"source": "resume", "report": "not this one"})]
    items = merge(found, captures, reports)
    assert [(c.number, c.capture_path) for c in items] == [(1, "c1"), (2, "c2")]
    assert items[0].report is None and items[1].report["report"] == "the report"
    assert items[0].summary == "alpha summary: the parser"  # the capture's visible text, no <analysis>
    orphan = merge([], [(late, "c9", {"summary": "no transcript", "trigger": "manual"})], [])
    assert [(c.number, c.trigger, c.sources) for c in orphan] == [(1, "manual", ["capture"])]


def test_show_on_a_terminal_styles_the_verdicts_and_strips_escapes(git_repo, tmp_path, monkeypatch) -> None:
    import io

    from rich.console import Console

    from cc_hooks.summaries import collect, render

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    sid, _ = hooked_session(git_repo, tmp_path / "cfg", summary_extra=f"\n- {HOSTILE}")
    session = collect.pick_session(collect.project_sessions(git_repo), sid[:6])
    compaction = collect.pick_compaction(session, 1)
    stream = io.StringIO()
    render.print_rich(session, compaction, render.verdicts(compaction), Console(file=stream, force_terminal=True,
                                                                               width=120, color_system="standard"))
    out = stream.getvalue()
    assert "\x1b[1;31m" in out and "CONTRADICTED: no commit deadbee9" in out  # bold red, from rich only
    assert "\x1b]0;" not in out and "\x1b[2J" not in out and "\u202e" not in out and "alert(1)" in out
