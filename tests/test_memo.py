"""cc_hooks.memo: facts remembered by the content they derive from; a bad cache only costs time."""

from __future__ import annotations

import os

import pytest

from cc_hooks import memo


class Counter:
    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        return self.value


def test_the_same_parts_are_computed_once(tmp_path):
    compute = Counter({"entries": [1, 2, 3]})
    assert memo.remember(tmp_path, "facts", [b"ledger"], compute) == {"entries": [1, 2, 3]}
    assert memo.remember(tmp_path, "facts", [b"ledger"], compute) == {"entries": [1, 2, 3]}
    assert compute.calls == 1


def test_other_parts_another_kind_or_a_moved_boundary_recompute(tmp_path):
    compute = Counter([1])
    memo.remember(tmp_path, "facts", [b"ab", "c"], compute)
    memo.remember(tmp_path, "facts", [b"a", "bc"], compute)
    memo.remember(tmp_path, "other", [b"ab", "c"], compute)
    memo.remember(tmp_path, "facts", [b"ab", "d"], compute)
    assert compute.calls == 4


def test_changed_code_recomputes(tmp_path, monkeypatch):
    compute = Counter([1])
    memo.remember(tmp_path, "facts", ["x"], compute)
    monkeypatch.setattr(memo, "_code", memo.code_fingerprint() + b"\nedited.py:1:2")
    memo.remember(tmp_path, "facts", ["x"], compute)
    assert compute.calls == 2


def test_the_fingerprint_names_every_module_with_its_size():
    text = memo.code_fingerprint().decode()
    info = os.stat(memo.__file__)
    assert f"./memo.py:{info.st_size}:{info.st_mtime_ns}" in text
    assert "record/symptoms.py:" in text and "__pycache__" not in text


@pytest.mark.parametrize("garbage", [b"", b"{not json", b'{"other": 1}', b"[1, 2]", b"\xff\xfe"])
def test_a_corrupt_entry_is_recomputed_and_replaced(tmp_path, garbage):
    path = memo.cache_path(tmp_path, "facts", ["x"])
    path.parent.mkdir(parents=True)
    path.write_bytes(garbage)
    compute = Counter(["right"])
    assert memo.remember(tmp_path, "facts", ["x"], compute) == ["right"]
    assert memo.remember(tmp_path, "facts", ["x"], compute) == ["right"] and compute.calls == 1


def test_no_state_dir_or_an_unwritable_one_only_costs_the_cache(tmp_path):
    compute = Counter([1])
    assert memo.remember(None, "facts", ["x"], compute) == [1]
    missing = tmp_path / "not-there"
    assert memo.remember(missing, "facts", ["x"], compute) == [1] and not missing.exists()
    blocked = tmp_path / "state"
    blocked.mkdir()
    (blocked / memo.FOLDER).write_text("a file where the cache folder should be")
    assert memo.remember(blocked, "facts", ["x"], compute) == [1]
    assert compute.calls == 3


def test_a_value_json_cannot_hold_is_returned_and_not_stored(tmp_path):
    value = {"when": object()}
    assert memo.remember(tmp_path, "facts", ["x"], lambda: value) is value
    assert not list((tmp_path / memo.FOLDER).glob("facts-*"))


def test_entries_are_private_and_only_the_newest_of_a_kind_are_kept(tmp_path):
    for n in range(memo.KEEP_PER_KIND + 5):
        memo.remember(tmp_path, "facts", [str(n)], lambda: n)
        memo.remember(tmp_path, "facts-more", [str(n)], lambda: n)  # a kind that starts like another is its own
    folder = tmp_path / memo.FOLDER
    assert len(list(folder.glob("facts-????????????????????????????????????????.json"))) == memo.KEEP_PER_KIND
    assert len(list(folder.glob("facts-more-*.json"))) == memo.KEEP_PER_KIND
    newest = memo.cache_path(tmp_path, "facts", [str(memo.KEEP_PER_KIND + 4)])
    assert newest.exists() and newest.stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700


# --- facts of history: extended from the last tip, derived again after a rewrite -----------------


def test_history_facts_extend_from_the_last_tip_and_start_over_when_it_left_the_history(tmp_path):
    calls = []

    def derive(tip, previous):
        calls.append(tip)
        return (previous or []) + [head]

    ancestors = {"a", "b"}
    head = "a"
    assert memo.remember_history(tmp_path, "log", ["x"], head, derive, ancestors.__contains__) == ["a"]
    assert memo.remember_history(tmp_path, "log", ["x"], head, derive, ancestors.__contains__) == ["a"]
    head = "b"
    assert memo.remember_history(tmp_path, "log", ["x"], head, derive, ancestors.__contains__) == ["a", "b"]
    head = "c"  # "b" was rewritten away: not an ancestor of "c"
    assert memo.remember_history(tmp_path, "log", ["x"], head, derive, set().__contains__) == ["c"]
    assert calls == [None, "a", None]


def test_history_shape_names_the_shallow_boundary_grafts_and_replace_refs(tmp_path, monkeypatch):
    (tmp_path / "refs" / "replace").mkdir(parents=True)
    plain = memo.history_shape(tmp_path)
    (tmp_path / "shallow").write_text("a" * 40 + "\n")
    shallow = memo.history_shape(tmp_path)
    (tmp_path / "refs" / "replace" / ("b" * 40)).write_text("c" * 40 + "\n")
    replaced = memo.history_shape(tmp_path)
    assert len({plain, shallow, replaced}) == 3
    monkeypatch.setenv("GIT_GRAFT_FILE", str(tmp_path / "grafts"))
    assert memo.history_shape(tmp_path) is None


def test_an_entry_is_written_whole_and_private_and_a_dead_writers_temp_is_removed(tmp_path):
    import stat

    dead = tmp_path / memo.FOLDER / f".facts-{'0' * 40}.json.999999999.abcdefgh.tmp"
    dead.parent.mkdir(parents=True)
    dead.write_bytes(b"{half")
    memo.remember(tmp_path, "facts", ["x"], lambda: {"a": 1})
    path = memo.cache_path(tmp_path, "facts", ["x"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_bytes() == b'{"value":{"a":1}}'
    assert not dead.exists()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file of ours left either


def test_facts_asked_on_demand_extend_at_the_same_head_when_they_do_not_answer(tmp_path):
    calls = []

    def derive(tip, previous):
        calls.append(tip)
        return sorted(set(previous or []) | wanted)

    wanted = {"x"}
    enough = lambda known: wanted <= set(known)  # noqa: E731
    assert memo.remember_history(tmp_path, "asked", [], "h1", derive, set().__contains__, enough) == ["x"]
    assert memo.remember_history(tmp_path, "asked", [], "h1", derive, set().__contains__, enough) == ["x"]
    wanted = {"y"}
    assert memo.remember_history(tmp_path, "asked", [], "h1", derive, set().__contains__, enough) == ["x", "y"]
    assert calls == [None, "h1"]


def test_every_fact_remembered_up_to_the_last_head_shares_one_ancestry_process(tmp_path, git_verbs, monkeypatch):
    """After a commit, the trailers, the claims' history and their ancestry each ask whether the last
    HEAD they saw is still an ancestor: the same question, asked of git once (issue 22)."""
    import subprocess

    monkeypatch.setattr(memo, "_ANCESTRY", {})
    repo = tmp_path / "repo"
    run = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True, text=True).stdout  # noqa: E731
    repo.mkdir()
    run("init", "-q", "-b", "main")
    run("-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "one")
    (repo / ".git" / "cc-hooks").mkdir()
    first = run("rev-parse", "HEAD").strip()
    for kind in ("a", "b", "c"):
        memo.remember_commit(repo, kind, [], first, lambda tip, previous: [first])
    run("-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "two")
    second = run("rev-parse", "HEAD").strip()
    git_verbs.clear()
    values = [memo.remember_commit(repo, kind, [], second, lambda tip, previous: [*previous, second] if tip else ["lost"])
              for kind in ("a", "b", "c")]
    assert values == [[first, second]] * 3
    assert git_verbs == ["merge-base"]
