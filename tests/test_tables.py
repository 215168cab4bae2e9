"""Tables: plain, unwrapped lines into a pipe or with --plain; an 80-column terminal gets a table
that fits by dropping or abbreviating columns, never by cutting every cell."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from cc_hooks.tables import Column, _print_rich, fit, print_table, render_plain

LONG = "/home/someone/projects/a-rather-long-project-name/.venv/lib/python3.11/site-packages/pkg/README.md"


def test_plain_output_keeps_every_cell_whole_on_one_line():
    columns = [Column("check"), Column("status"), Column("detail", wrap=True), Column("fix", wrap=True)]
    text = render_plain("title", columns, [["hook runs", ("ok", "green"), LONG, ""], ["git", "fail", "no git", "install git"]])
    lines = text.splitlines()
    assert lines[0] == "title" and lines[1].split() == ["check", "status", "detail"]
    assert f"hook runs  ok      {LONG}" in lines
    assert "    fix: install git" in lines and "[" not in text  # no markup, no styling


def test_a_table_into_a_pipe_is_plain_and_a_terminal_can_ask_for_plain():
    stream = io.StringIO()  # not a terminal
    print_table("t", [Column("a"), Column("b", wrap=True)], [["x", LONG]], stream=stream, footer="done")
    assert stream.getvalue() == f"t\na  b\nx  {LONG}\ndone\n"

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    print_table("t", [Column("a"), Column("b", wrap=True)], [["x", LONG]], stream=terminal, plain=True)
    assert LONG in terminal.getvalue().splitlines()[2]


STATS = [Column(name, keep, justify="right") for name, keep in
         (("session", 100), ("size", 100), ("compactions", 60), ("before last boundary", 40), ("still needed", 30),
          ("archivable", 90), ("snapshots", 10), ("progress", 11), ("tool results", 12), ("thinking", 13),
          ("age", 80), ("live", 95))]
STATS_ROW = ["-home-dev-demo/258c7280", "2.6 MB", "1", "1.8 MB", "7.5 KB", "1.8 MB", "55.2 KB", "1.1 MB", "1.1 MB",
             "23.9 KB", "13 s", "yes"]


def test_an_80_column_terminal_drops_the_least_needed_columns_first():
    shown = [STATS[i].name for i in fit(STATS, [STATS_ROW], 80)]
    assert shown[:2] == ["session", "size"] and "archivable" in shown and "snapshots" not in shown
    out = io.StringIO()
    _print_rich("Session transcripts", STATS, [STATS_ROW], "", out, 80)
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("-home-dev-demo/258c7280" in line for line in lines)  # whole, not "ses…"
    assert "not shown at this width" in out.getvalue()


def test_doctor_and_check_into_a_pipe_print_whole_lines(git_repo):
    for verb in ("doctor", "check"):
        proc = subprocess.run([sys.executable, "-m", "cc_hooks", verb, "--project", str(git_repo)],
                              capture_output=True, text=True, timeout=120)
        assert proc.stdout, proc.stderr
        assert not any(ch in proc.stdout for ch in "┏┃│└"), proc.stdout
        assert "\x1b[" not in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "cc_hooks", "doctor", "--project", str(git_repo), "--json"],
                          capture_output=True, text=True, timeout=120)
    wired = [c for c in json.loads(proc.stdout)["checks"] if c["check"] == "hook runs"]
    assert all("…" not in c["detail"] for c in wired)  # the wired command whole


def test_triage_and_audit_take_plain(capsys, git_repo):
    from cc_hooks.cli import main

    for argv in (["triage", "anything at all", "--plain", "--project", str(git_repo)],):
        assert main(argv) == 0
        assert not any(ch in capsys.readouterr().out for ch in "┏┃│└")
