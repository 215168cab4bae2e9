"""Dashboard: declaration finder, file backend parsing, findings, and byte-minimal writes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cc_hooks.record.backends import file as file_backend
from cc_hooks.record.dashboard import (
    DashboardError,
    available_backends,
    find_declaration,
    get_backend,
    open_dashboard,
    parse_declaration,
)

SAMPLE = """# Next steps

## CURRENT STATE — 2026-11-29
Resume point: finishing the refresh-token fix on `fix/refresh`.
- Branch `fix/refresh` at `3f2a9c1`, not merged into `main`.
- Fix for "login loops after 30 min" landed in `9b1d2e0`.
- Staging runs v1.4.2. (probe: staging-version)
- Awaiting the user's ruling on token lifetime.

## QUEUED
- 2026-11-28 — Add a regression test for negative numbers in `add()`.
- DONE 2026-11-27 — Release v1.4.2.

## Notes
Free text that must survive.
"""


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    return tmp_path


def add(repo: Path, name: str, text: str) -> None:
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(repo, "add", name)


def rules(findings) -> set[str]:
    return {f.rule for f in findings}


# --- declaration ------------------------------------------------------------------


def test_declaration_in_tracked_claude_md(repo):
    add(repo, "CLAUDE.md", "# Project\n\nDashboard: file docs/status.md   # the dashboard\n")
    declaration, findings = find_declaration(repo)
    assert (declaration.backend, declaration.locator, declaration.source) == ("file", "docs/status.md", "CLAUDE.md")
    assert declaration.line == 3 and findings == []


def test_declaration_from_tracked_echo(repo):
    add(repo, "README.md", "Intro\nDashboard: jira PROJ @ site.atlassian.net\n")
    declaration, findings = find_declaration(repo)
    assert (declaration.backend, declaration.locator, declaration.source) == ("jira", "PROJ @ site.atlassian.net", "tracked-echo")
    assert (declaration.file, declaration.line) == ("README.md", 2)
    assert findings == []


def test_untracked_echo_does_not_count(repo):
    (repo / "notes.md").write_text("Dashboard: file elsewhere.md\n")
    declaration, findings = find_declaration(repo)
    assert (declaration.locator, declaration.source) == ("next_steps.md", "default")
    assert rules(findings) == {"dashboard-undeclared"}


def test_default_uses_config(repo):
    from cc_hooks.config import Config, RecordConfig

    declaration, _ = find_declaration(repo, Config(record=RecordConfig(default_dashboard="STATUS.md")))
    assert (declaration.backend, declaration.locator) == ("file", "STATUS.md")


def test_gitignore_trap_reported(repo):
    add(repo, ".gitignore", "CLAUDE.md\n")
    (repo / "CLAUDE.md").write_text("Dashboard: file next_steps.md\n")
    declaration, findings = find_declaration(repo)
    assert declaration.source == "CLAUDE.md"
    assert rules(findings) == {"dashboard-gitignore-trap"}
    add(repo, "README.md", "Dashboard: file next_steps.md\n")
    declaration, findings = find_declaration(repo)
    assert declaration.source == "CLAUDE.md" and findings == []


def test_untracked_claude_md_is_a_warning(repo):
    (repo / "CLAUDE.md").write_text("Dashboard: file next_steps.md\n")
    _, findings = find_declaration(repo)
    assert [(f.rule, f.severity) for f in findings] == [("dashboard-declaration-untracked", "warning")]


def test_mismatching_echo_reported(repo):
    add(repo, "CLAUDE.md", "Dashboard: file next_steps.md\n")
    add(repo, "README.md", "Dashboard: file old.md\n")
    declaration, findings = find_declaration(repo)
    assert declaration.locator == "next_steps.md"
    assert rules(findings) == {"dashboard-declaration-mismatch"}


def test_parse_declaration_forms():
    assert parse_declaration("Dashboard: file next_steps.md") == ("file", "next_steps.md")
    assert parse_declaration("  Dashboard: FILE x.md <!-- note -->") == ("file", "x.md")
    assert parse_declaration("Dashboard:") is None
    assert parse_declaration("The Dashboard: file x") is None


def test_registry(repo):
    assert "file" in available_backends()
    assert get_backend("file", repo, "next_steps.md").name == "file"
    for bad in ("nosuch", "../file", "File"):
        with pytest.raises(DashboardError):
            get_backend(bad, repo, "x")
    add(repo, "CLAUDE.md", "Dashboard: file plan.md\n")
    backend, declaration, _ = open_dashboard(repo)
    assert backend.locator == "plan.md" and declaration.source == "CLAUDE.md"


# --- reading ---------------------------------------------------------------------------


def test_read_sample(repo):
    (repo / "next_steps.md").write_text(SAMPLE)
    result = get_backend("file", repo, "next_steps.md").read()
    assert result.exists and result.findings == []
    state = result.state
    assert (state.line, state.date) == (3, "2026-11-29")
    assert state.resume_point.text.startswith("finishing") and state.resume_point.line == 4
    assert [c.line for c in state.claims] == [4, 5, 6, 7, 8]
    assert "`3f2a9c1`" in state.claims[1].text
    assert [(i.line, i.date, i.done) for i in result.queued] == [(11, "2026-11-28", False), (12, "2026-11-27", True)]
    assert result.queued[1].text == "Release v1.4.2."
    assert [i.line for i in result.open_items] == [11]


def test_missing_file(repo):
    result = get_backend("file", repo, "next_steps.md").read()
    assert not result.exists and rules(result.findings) == {"dashboard-missing"}


def test_bad_path_is_a_finding(repo):
    result = get_backend("file", repo, "../outside.md").read()
    assert rules(result.findings) == {"dashboard-bad-path"}


@pytest.mark.parametrize(
    "text, rule",
    [
        ("# N\n\n## QUEUED\n- 2026-01-01 — x\n", "dashboard-no-state"),
        ("## CURRENT STATE — 2026-01-01\nResume point: a\n## CURRENT STATE — 2026-01-02\nResume point: b\n", "dashboard-multiple-states"),
        ("## CURRENT STATE\nResume point: a\n", "dashboard-undated"),
        ("## CURRENT STATE — 2026-13-01\nResume point: a\n", "dashboard-bad-date"),
        ("## CURRENT STATE — yesterday\nResume point: a\n", "dashboard-bad-date"),
        ("## CURRENT STATE — 2026-01-01\n- a claim\n", "dashboard-no-resume-point"),
        ("## CURRENT STATE — 2026-01-01\nResume point: a\n## QUEUED\n- no date\n", "queue-item-undated"),
        ("## CURRENT STATE — 2026-01-01\nResume point: a\n## QUEUED\n- 2026-02-30 — x\n", "queue-item-bad-date"),
    ],
)
def test_format_findings(text, rule):
    assert rule in rules(file_backend.parse(text).findings)


def test_well_formed_has_no_findings():
    assert file_backend.parse("## CURRENT STATE — 2026-01-01\nResume point: a\n\n## QUEUED\n- 2026-01-01 — x\n").findings == []


def test_two_blocks_reads_the_freshest():
    text = "## CURRENT STATE — 2026-01-01\nResume point: old\n\n## CURRENT STATE — 2026-03-01\nResume point: new\n"
    assert file_backend.parse(text).state.resume_point.text == "new"


def test_fenced_lines_are_not_claims():
    text = "## CURRENT STATE — 2026-01-01\nResume point: a\n```\n- not a claim\n## QUEUED\n```\n- real\n"
    result = file_backend.parse(text)
    assert [c.text for c in result.state.claims] == ["a", "real"] and result.queued == []


def test_continuation_lines_join_the_bullet():
    text = "## CURRENT STATE — 2026-01-01\nResume point: a\n- first part\n  second part `x/y.py`\nprose\n  not joined\n"
    claims = file_backend.parse(text).state.claims
    assert claims[1].text == "first part second part `x/y.py`"
    assert len(claims) == 2


# --- writing: every other byte unchanged --------------------------------------------


def split_keep(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


@pytest.fixture(params=["\n", "\r\n"], ids=["lf", "crlf"])
def board(request, repo):
    newline = request.param
    data = SAMPLE.replace("\n", newline).encode()
    (repo / "next_steps.md").write_bytes(data)
    return get_backend("file", repo, "next_steps.md"), data, newline.encode()


def test_update_rewrites_only_the_block(board):
    backend, before, nl = board
    state = backend.update("reviewing PR #12", ["Branch `main` at `abc1234`.", "- Awaiting CI."], date="2026-12-01")
    after = backend.path.read_bytes()
    old, new = split_keep(before), split_keep(after)
    assert new[:2] == old[:2] and new[6:] == old[8:]
    assert new[2:6] == [
        b"## CURRENT STATE \xe2\x80\x94 2026-12-01" + nl,
        b"Resume point: reviewing PR #12" + nl,
        b"- Branch `main` at `abc1234`." + nl,
        b"- Awaiting CI." + nl,
    ]
    assert state.date == "2026-12-01" and [c.text for c in state.claims] == ["reviewing PR #12", "Branch `main` at `abc1234`.", "Awaiting CI."]
    assert backend.read().findings == []


def test_queue_appends_after_last_item(board):
    backend, before, nl = board
    item = backend.queue("Write the migration guide", date="2026-12-02")
    old, new = split_keep(before), split_keep(backend.path.read_bytes())
    assert new == old[:12] + ["- 2026-12-02 \u2014 Write the migration guide".encode() + nl] + old[12:]
    assert (item.line, item.date, item.done, item.text) == (13, "2026-12-02", False, "Write the migration guide")


def test_close_marks_done_in_place(board):
    backend, before, nl = board
    item = backend.close("regression test", date="2026-12-03")
    old, new = split_keep(before), split_keep(backend.path.read_bytes())
    assert new == old[:10] + [b"- DONE " + old[10][2:]] + old[11:]
    assert item.done and item.line == 11
    with pytest.raises(DashboardError, match="already DONE"):
        backend.close(11)
    with pytest.raises(DashboardError, match="already DONE"):
        backend.close(12)
    with pytest.raises(DashboardError, match="no queued item"):
        backend.close("nothing like this")


def test_close_ambiguous_needs_a_line(repo):
    (repo / "n.md").write_text("## QUEUED\n- 2026-01-01 — tests for a\n- 2026-01-01 — tests for b\n")
    backend = get_backend("file", repo, "n.md")
    with pytest.raises(DashboardError, match="2 queued items"):
        backend.close("tests")
    assert backend.close(3).text == "tests for b"


def test_queue_creates_section_and_handles_missing_final_newline(repo):
    path = repo / "n.md"
    path.write_bytes(b"# T\r\n\r\n## CURRENT STATE \xe2\x80\x94 2026-01-01\r\nResume point: x")
    get_backend("file", repo, "n.md").queue("first", date="2026-01-02")
    assert path.read_bytes() == (
        b"# T\r\n\r\n## CURRENT STATE \xe2\x80\x94 2026-01-01\r\nResume point: x\r\n\r\n## QUEUED\r\n- 2026-01-02 \xe2\x80\x94 first\r\n"
    )


def test_update_inserts_block_after_title(repo):
    path = repo / "n.md"
    path.write_text("# Title\n\n## QUEUED\n- 2026-01-01 — x\n")
    state = get_backend("file", repo, "n.md").update("start", [], date="2026-01-05")
    assert path.read_text() == "# Title\n\n## CURRENT STATE — 2026-01-05\nResume point: start\n\n## QUEUED\n- 2026-01-01 — x\n"
    assert state.line == 3


def test_update_creates_missing_file(repo):
    backend = get_backend("file", repo, "next_steps.md")
    backend.update("begin", ["one"], date="2026-01-05")
    result = backend.read()
    assert result.findings == [] and result.state.resume_point.text == "begin"


def test_invalid_utf8_bytes_survive_a_write(repo):
    path = repo / "n.md"
    path.write_bytes(b"# T \xff\xfe\n\n## QUEUED\n- 2026-01-01 \xe2\x80\x94 caf\xe9\n")
    get_backend("file", repo, "n.md").queue("next", date="2026-01-02")
    assert path.read_bytes().startswith(b"# T \xff\xfe\n\n## QUEUED\n- 2026-01-01 \xe2\x80\x94 caf\xe9\n- 2026-01-02")


def test_bad_input_rejected_without_writing(board):
    backend, before, _ = board
    for call in (lambda: backend.queue("two\nlines"), lambda: backend.update("", []), lambda: backend.queue("x", date="2026-1-1")):
        with pytest.raises(DashboardError):
            call()
    assert backend.path.read_bytes() == before


# --- never raises ------------------------------------------------------------------------

MARKDOWNISH = st.text(alphabet=st.sampled_from(list("#-*`~ \n\r\t:—–abDONE0123456789()[]<!->\\/.")) | st.characters(), max_size=400)


@settings(max_examples=300, deadline=None)
@given(MARKDOWNISH)
def test_parse_never_raises(text):
    result = file_backend.parse(text)
    assert isinstance(result.findings, list)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_parse_bytes_never_raises(data):
    file_backend.parse(data)


@settings(max_examples=100, deadline=None)
@given(MARKDOWNISH)
def test_queue_only_inserts(tmp_path_factory, text):
    root = tmp_path_factory.mktemp("q")
    path = root / "n.md"
    before = text.encode("utf-8", "surrogatepass")
    path.write_bytes(before)
    item = get_backend("file", root, "n.md").queue("added item", date="2026-01-02")
    after = path.read_bytes()
    assert item.text == "added item"
    # Only whole lines were inserted (and at most a line end added to the old last line).
    import difflib

    def lines(data: bytes) -> list[bytes]:
        return [part + b"\n" for part in data.split(b"\n")[:-1]] + ([data.rsplit(b"\n", 1)[-1]] if not data.endswith(b"\n") and data else [])

    old, new = lines(before), lines(after)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "replace":
            assert i2 - i1 == 1 and i2 == len(old) and new[j1] in (old[i1] + b"\n", old[i1] + b"\r\n")
        else:
            assert tag in ("equal", "insert")
