"""Project folders, escaping, liveness, and the ``transcripts stats`` verb."""

from __future__ import annotations

import json
from pathlib import Path

from cc_hooks.cli import main
from cc_hooks.transcript import store

from .conftest import Synth, age, history


def test_escape_matches_the_cli() -> None:
    assert store.escape_project("/home/u/my.proj") == "-home-u-my-proj"
    long = "/home/u/" + "very-long-directory-name/" * 10 + "\u00e9\U0001F600"
    # Expected value computed with the CLI's own function (jCe, base36) under node.
    assert store.escape_project(long) == store._NON_ALNUM.sub("-", long)[:200] + "-kzt6fj"


def session_in(cwd: Path) -> Synth:
    s = Synth(cwd=str(cwd))
    s.user("hi")
    return s


def test_project_folders_are_checked_against_recorded_cwd(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    project = tmp_path / "my.proj"
    project.mkdir()
    mine = session_in(project).write(root / store.escape_project(str(project)) / "a.jsonl")
    # /…/my/proj escapes to the same folder name: a collision the recorded cwd exposes.
    session_in(tmp_path / "my" / "proj").write(root / (store.escape_project(str(project)) + "-x") / "b.jsonl")
    assert store.project_folders(project, root) == [mine.parent]
    other = tmp_path / "my" / "proj"
    other.mkdir(parents=True)
    assert store.project_folders(other, root) == []  # same escaped name, but the records say my.proj


def test_liveness_both_ways(tmp_path: Path) -> None:
    path = Synth().write(tmp_path / "s.jsonl")
    assert store.liveness(path, 60, opened=set()).startswith("modified 0 min ago")
    age(path, 7200)
    assert store.liveness(path, 60, opened=set()) is None
    assert store.liveness(path, 60, opened={str(path.resolve())}) == "open in a running process"


def test_stats_json_per_session_project_and_total(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    s = Synth(cwd=str(tmp_path))
    history(s, 5)
    s.boundary("sum")
    s.user("live")
    path = s.write(tmp_path / "cfg" / "projects" / store.escape_project(str(tmp_path)) / "s.jsonl")
    age(path)
    assert main(["transcripts", "stats", "--project", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (item,) = report["sessions"]
    assert item["compactions"] == 1 and item["live"] is None and item["size"] == path.stat().st_size
    data = path.read_bytes()
    assert item["before_boundary"] == data.rfind(b"\n", 0, data.find(b'"compact_boundary"')) + 1
    assert item["categories"]["progress"] > 0 and item["categories"]["thinking"] > 0
    assert item["archivable"] == item["before_boundary"] - item["needed_before_boundary"]
    assert item["types"]["progress"]["archivable"] > 0 and report["total"]["types"]["user"]["lines"] > 5
    assert report["total"]["size"] == item["size"] and list(report["projects"]) == [path.parent.name]
    assert main(["transcripts", "stats", "--all"]) == 0
    out = capsys.readouterr().out
    assert "Session transcripts" in out and "Line types" in out
    assert "file-history-snapshot" in out and "latest wins: the newest is kept" in out
