"""Archive, restore and verify: byte-exact round trips, refusals, dry runs, crash recovery."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from cc_hooks.cli import main
from cc_hooks.transcript import archive as arc
from cc_hooks.transcript import read_live
from cc_hooks.transcript.lines import plan_file

from .conftest import Synth, age, history


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def big_session(path: Path, turns: int = 40, compactions: int = 3) -> Path:
    s = Synth()
    for c in range(compactions):
        history(s, turns)
        s.meta("custom-title", customTitle=f"title {c}")
        s.meta("content-replacement", replacements=[c])  # a type cc-hooks cannot classify
        s.boundary(f"summary {c}", preserved=[s.parent] if c == compactions - 1 else None)
    s.user("live prompt")
    s.tool("Bash", {"command": "git commit -qm 'Live fix'"}, "[main abc1234] Live fix")
    s.write(path)
    age(path)
    return path


def test_round_trip_is_byte_exact_on_the_corpus(corpus_copy: list[Path], tmp_path: Path) -> None:
    root = tmp_path / "archive"
    for path in corpus_copy:
        original, before = sha(path), read_live(path)
        done = arc.archive_session(path, execute=True, root=root)
        assert done.action == "archived" and path.stat().st_size == done.kept_size < done.original_size
        after = read_live(path)
        assert [(m.uuid, m.content) for m in after.messages] == [(m.uuid, m.content) for m in before.messages]
        assert arc.verify_session(path, root=root).action == "verified"
        assert arc.restore_session(path, execute=True, root=root).action == "restored"
        assert sha(path) == original
        assert not list((root / path.parent.name).glob("*.gz"))  # restore cleans up


def test_round_trip_on_a_large_synthetic_session_and_what_is_kept(tmp_path: Path) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    original = sha(path)
    done = arc.archive_session(path, execute=True, root=tmp_path / "a")
    text = path.read_text()
    assert done.saved > 0.8 * done.original_size
    assert "summary 0" not in text and "summary 2" in text  # old summaries go, the last stays
    assert text.count('"compact_boundary"') == 3  # every boundary stays
    assert '"content-replacement"' in text and text.count('"custom-title"') == 1 and "title 2" in text
    assert text.count('"last-prompt"') == 1 and text.count('"file-history-snapshot"') == 1
    # The last assistant line before each boundary is its logicalParentUuid; the last one is also preserved.
    assert text.count("done 39") == 3 and "done 39" in text.splitlines()[0]
    assert read_live(path).commits[0].sha == "abc1234"
    arc.restore_session(path, execute=True, root=tmp_path / "a")
    assert sha(path) == original


def test_appended_content_survives_restore_and_a_second_generation(tmp_path: Path) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    root = tmp_path / "a"
    original = path.read_bytes()
    arc.archive_session(path, execute=True, root=root)
    extra = b'{"type":"user","uuid":"later","message":{"role":"user","content":"later"}}\n'
    with open(path, "ab") as handle:
        handle.write(extra)
    age(path)
    second = arc.archive_session(path, execute=True, root=root)
    assert second.action == "skipped" and second.reason == "nothing to archive"  # nothing new to cut
    s = Synth(); s.boundary("summary 3"); s.user("newest")  # noqa: E702 - a fourth compaction appended
    with open(path, "a") as handle:
        handle.write(s.text())
    age(path)
    assert arc.archive_session(path, execute=True, root=root).action == "archived"
    manifest = json.loads((root / "p" / "s.manifest.json").read_text())
    assert manifest["current"]["generation"] == 2 and not (root / "p" / "s.g1.jsonl.gz").exists()
    arc.restore_session(path, execute=True, root=root)
    assert path.read_bytes() == original + extra + s.text().encode()


def test_live_session_is_refused_with_a_clear_message(tmp_path: Path, capsys, monkeypatch) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    os.utime(path)  # written just now
    before = sha(path)
    monkeypatch.setenv("CC_HOOKS_ARCHIVE_DIR", str(tmp_path / "a"))
    assert main(["transcripts", "archive", str(path), "--execute"]) == 1
    assert "live: modified 0 min ago (threshold 30 min); not touched" in capsys.readouterr().out
    assert sha(path) == before and not (tmp_path / "a").exists()
    opened = {os.path.realpath(path)}
    age(path)
    outcome = arc.archive_session(path, execute=True, root=tmp_path / "a", opened=opened)
    assert outcome.action == "skipped" and outcome.reason == "live: open in a running process; not touched"
    assert arc.archive_session(path, execute=True, root=tmp_path / "a", opened=set()).action == "archived"


def test_nothing_changes_without_execute(tmp_path: Path, capsys, monkeypatch) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    before, mtime = sha(path), path.stat().st_mtime_ns
    monkeypatch.setenv("CC_HOOKS_ARCHIVE_DIR", str(tmp_path / "a"))
    assert main(["transcripts", "archive", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("would-archive") and "would be moved out (dry run; add --execute)" in out
    assert sha(path) == before and path.stat().st_mtime_ns == mtime and not (tmp_path / "a").exists()


def test_a_file_without_compaction_is_left_alone(tmp_path: Path) -> None:
    s = Synth()
    history(s, 3)
    path = s.write(tmp_path / "p" / "s.jsonl")
    age(path)
    outcome = arc.archive_session(path, execute=True, root=tmp_path / "a")
    assert outcome.action == "skipped" and outcome.reason == "nothing to archive (no compaction)"


def test_crash_before_the_rename_leaves_the_original_and_the_next_run_recovers(tmp_path: Path, monkeypatch) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    root, before = tmp_path / "a", sha(path)
    real_replace = os.replace

    def crash_on_live(src, dst):
        if Path(dst) == path:
            raise OSError("injected crash")
        return real_replace(src, dst)

    monkeypatch.setattr(arc.os, "replace", crash_on_live)
    with pytest.raises(OSError, match="injected"):
        arc.archive_session(path, execute=True, root=root)
    monkeypatch.setattr(arc.os, "replace", real_replace)
    assert sha(path) == before
    # The failed run rolled itself back (issue 16, item 12): no pending generation, no temporary file.
    assert not (root / "p" / "s.manifest.json").exists()
    assert not list(path.parent.glob(".*.tmp")) and not list((root / "p").glob("*.tmp"))
    again = arc.archive_session(path, execute=True, root=root)
    assert again.action == "archived"
    assert not list(path.parent.glob(".*.tmp"))
    arc.restore_session(path, execute=True, root=root)
    assert sha(path) == before


def test_crash_after_the_rename_is_finished_by_the_next_run(tmp_path: Path, monkeypatch) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    root, before = tmp_path / "a", sha(path)
    calls = []
    real_recover = arc.recover

    def crash_on_final_recover(session):
        calls.append(1)
        if len(calls) == 2:  # the call that turns pending into current, right after the rename
            raise KeyboardInterrupt
        return real_recover(session)

    monkeypatch.setattr(arc, "recover", crash_on_final_recover)
    with pytest.raises(KeyboardInterrupt):
        arc.archive_session(path, execute=True, root=root)
    monkeypatch.setattr(arc, "recover", real_recover)
    assert sha(path) != before  # the cut is in place, the manifest still says pending
    verify = arc.verify_session(path, root=root)
    assert verify.action == "failed" and "pending" in verify.reason
    restored = arc.restore_session(path, execute=True, root=root)
    assert any("finished an interrupted archive" in n for n in restored.notes)
    assert sha(path) == before


def test_a_crash_in_a_subprocess_between_steps(tmp_path: Path) -> None:
    """A real kill (os._exit) right after the archive is written, before the live file is replaced."""
    import subprocess
    import sys

    path = big_session(tmp_path / "p" / "s.jsonl")
    before = sha(path)
    script = (
        "import os, sys\n"
        "from cc_hooks.transcript import archive as arc\n"
        "real = os.replace\n"
        "def die(src, dst):\n"
        "    if str(dst) == sys.argv[1]: os._exit(9)\n"
        "    return real(src, dst)\n"
        "arc.os.replace = die\n"
        "arc.archive_session(sys.argv[1], execute=True, root=__import__('pathlib').Path(sys.argv[2]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(path), str(tmp_path / "a")])
    assert proc.returncode == 9 and sha(path) == before
    assert list(path.parent.glob(".*.cc-hooks.tmp"))  # the half-done live copy, never renamed
    assert arc.archive_session(path, execute=True, root=tmp_path / "a").action == "archived"
    assert not list(path.parent.glob(".*.tmp"))
    assert arc.verify_session(path, root=tmp_path / "a").action == "verified"


def test_a_file_changed_during_the_archive_is_not_touched(tmp_path: Path, monkeypatch) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    real_write = arc._write_stream

    def append_meanwhile(target, chunks, like=None):
        digest = real_write(target, chunks, like)
        with open(path, "ab") as handle:
            handle.write(b'{"type":"user","uuid":"racing"}\n')
        return digest

    monkeypatch.setattr(arc, "_write_stream", append_meanwhile)
    before_bytes = path.read_bytes()
    outcome = arc.archive_session(path, execute=True, root=tmp_path / "a")
    assert outcome.action == "skipped" and "changed while archiving" in outcome.reason
    assert path.read_bytes() == before_bytes + b'{"type":"user","uuid":"racing"}\n'
    assert not (tmp_path / "a" / "p" / "s.manifest.json").exists()


def test_verify_detects_a_damaged_archive_and_restore_refuses_it(tmp_path: Path) -> None:
    path = big_session(tmp_path / "p" / "s.jsonl")
    root = tmp_path / "a"
    arc.archive_session(path, execute=True, root=root)
    gz = next((root / "p").glob("*.gz"))
    import gzip
    gz.write_bytes(gzip.compress(b"something else\n"))
    assert "differs from the manifest" in arc.verify_session(path, root=root).reason
    cut = path.read_bytes()
    with pytest.raises(arc.ArchiveError, match="sha256 does not match"):
        arc.restore_session(path, execute=True, root=root)
    assert path.read_bytes() == cut and not list(path.parent.glob(".*.tmp"))


def test_plan_counts_match_the_archive(corpus_copy: list[Path], tmp_path: Path) -> None:
    path = corpus_copy[0]
    plan, digest = plan_file(str(path), path.stat().st_size)
    assert digest == sha(path) and plan.compactions == 1
    assert sum(plan.categories.values()) == plan.size
    done = arc.archive_session(path, execute=True, root=tmp_path / "a")
    assert done.kept_size == plan.kept_size


def session_332(path: Path) -> Path:
    """A 2.1.332-shaped session: request logs and "latest wins" lines around two compactions."""
    s = Synth()
    for c in range(2):
        history(s, 5)
        s.meta("api-request-shape", shapeHash=f"shape{c}", shape={"tools": "t" * 3000})
        s.meta("api-request-blob", hash=f"blob{c}", message={"content": "b" * 3000})
        s.meta("api-request", id=f"req{c}", shapeHash=f"shape{c}", keep=[f"blob{c}"])
        for kind in ("cost-state", "atis-latch", "tools-used"):
            s.meta(kind, value=f"{kind} {c}")
        s.meta("frame-link", note=f"frame {c}")  # a type cc-hooks does not know: kept
        s.boundary(f"summary {c}")
    s.meta("api-request-blob", hash="blob-live", message={"content": "live"})
    s.user("live prompt")
    s.write(path)
    age(path)
    return path


def test_request_logs_before_the_last_boundary_are_archived_and_latest_wins_lines_kept_once(tmp_path: Path) -> None:
    path = session_332(tmp_path / "p" / "s.jsonl")
    original = sha(path)
    plan, _ = plan_file(str(path), path.stat().st_size)
    assert plan.types["api-request-blob"]["lines"] == 3 and plan.types["api-request-blob"]["archivable"] > 6000
    assert plan.categories["other"] == plan.types["frame-link"]["bytes"]  # only the unknown type is "other"
    assert sum(plan.categories.values()) == plan.size == sum(t["bytes"] for t in plan.types.values())
    arc.archive_session(path, execute=True, root=tmp_path / "a")
    text = path.read_text()
    assert "blob0" not in text and "blob1" not in text and "shape1" not in text and "blob-live" in text
    for kind in ("cost-state", "atis-latch", "tools-used"):
        assert text.count(f'"{kind}"') == 1 and f"{kind} 1" in text
    assert text.count('"frame-link"') == 2
    arc.restore_session(path, execute=True, root=tmp_path / "a")
    assert sha(path) == original


def test_round_trip_is_byte_exact_on_the_332_corpus(corpus_332_copy: list[Path], tmp_path: Path) -> None:
    root = tmp_path / "archive"
    for path in corpus_332_copy:
        original, before = sha(path), read_live(path)
        plan, _ = plan_file(str(path), path.stat().st_size)
        assert plan.categories["other"] == 0, plan.types  # every type of 2.1.332 is named
        done = arc.archive_session(path, execute=True, root=root)
        assert done.action == "archived" and done.saved > 0.5 * done.original_size
        after = read_live(path)
        assert after.summary.detected_by == "boundary"
        assert [(m.uuid, m.content) for m in after.messages] == [(m.uuid, m.content) for m in before.messages]
        assert arc.restore_session(path, execute=True, root=root).action == "restored"
        assert sha(path) == original
