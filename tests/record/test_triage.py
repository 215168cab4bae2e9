"""`cc-hooks triage`: known via trailer or SYMPTOMS.md, fix intact or not (patch check), NOVEL, CLI contract."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cc_hooks.cli import main
from cc_hooks.commands.triage import INTACT, KNOWN, NOVEL, Phrasing, render_markdown, triage


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def commit(root: Path, message: str, files: dict[str, str] | None = None) -> str:
    for name, text in (files or {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
        git(root, "add", name)
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    commit(tmp_path, "init", {"render.py": "def render():\n    draw()\n", "auth.py": "TTL = 30\n", "README.md": "hi\n"})
    return tmp_path


def symptoms_md(sha: str, guard: str = "tests/test_auth.py::test_refresh") -> str:
    return f"""# Symptom Index

## Symptom: login loops after 30 min

**Known causes**:

### Cause 1: token refreshed after expiry — fixed in {sha}
- **Mechanism**: the refresh ran after the token expired.
- **Discriminator**: set TTL to 1 min; the loop appears at 1 min if this is the cause.
- **Fix**: refresh 5 min early ({sha})
- **Guard**: {guard}

**Ruled out**:
- clock skew on the server — eliminated by comparing NTP offsets, 2026-01-05
"""


def test_known_only_as_a_trailer_fix_intact(repo):
    fix = commit(repo, "fix: initialize the framebuffer\n\nSymptom: blank region after startup", {"render.py": "def render():\n    clear()\n    draw()\n"})
    result = triage(repo, ["Blank region after startup!", "screen stays black"])
    assert result.verdict == INTACT and result.label == INTACT
    [cause] = result.prior
    assert cause.source == "trailer" and cause.symptom == "blank region after startup"
    assert [(f.full_sha, f.in_head, f.intact, f.status, f.files) for f in cause.fixes] == [(fix, True, True, "intact", ["render.py"])]
    assert any("has no SYMPTOMS.md entry" in gap for gap in result.gaps)


def test_known_only_in_symptoms_md(repo):
    fix = commit(repo, "Refresh the token early", {"auth.py": "TTL = 25\n"})
    commit(repo, "Record the login loop", {"SYMPTOMS.md": symptoms_md(fix[:8])})
    result = triage(repo, ["Login loops", "logged out every 30 minutes"])
    assert result.verdict == INTACT
    [cause] = result.prior
    assert cause.source == "SYMPTOMS.md" and cause.cause == "token refreshed after expiry" and cause.line == 7
    assert cause.guard == "tests/test_auth.py::test_refresh" and cause.fixes[0].full_sha == fix and cause.fix_intact
    assert result.ruled_out[0]["hypothesis"] == "clock skew on the server" and result.ruled_out[0]["date"] == "2026-01-05"
    assert "TTL to 1 min" in result.discriminators[0]["discriminator"]
    # The commit that records the entry names the symptom but fixes nothing: a mention, not a cause.
    assert result.gaps == [] and [m["subject"] for m in result.mentions] == ["Record the login loop"]


def test_reverted_fix_is_not_intact(repo):
    fix = commit(repo, "fix: initialize the framebuffer\n\nSymptom: blank region after startup", {"render.py": "def render():\n    clear()\n    draw()\n"})
    git(repo, "revert", "--no-edit", fix)
    result = triage(repo, ["blank region after startup"])
    assert result.verdict == KNOWN and result.label == "KNOWN (1 prior cause)"
    [status] = result.prior[0].fixes
    assert (status.in_head, status.intact, status.status) == (True, False, "gone")
    assert "Revert" in status.detail and "likely a regression" in status.detail


def test_fix_removed_since_is_gone(repo):
    commit(repo, "fix: initialize the framebuffer\n\nSymptom: blank region after startup", {"render.py": "def render():\n    clear()\n    draw()\n"})
    removal = commit(repo, "refactor render", {"render.py": "def render():\n    draw()\n"})
    [status] = triage(repo, ["blank region after startup"]).prior[0].fixes
    assert (status.intact, status.status, status.by) == (False, "gone", removal)


def test_fix_on_another_branch_only(repo):
    git(repo, "checkout", "-q", "-b", "fix/render")
    fix = commit(repo, "fix: init framebuffer\n\nSymptom: blank region after startup", {"render.py": "def render():\n    clear()\n    draw()\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "docs", {"README.md": "more\n"})
    result = triage(repo, ["blank region"])
    [status] = result.prior[0].fixes
    assert result.verdict == KNOWN and status.status == "not-in-head" and "fix/render" in status.detail
    git(repo, "cherry-pick", fix)
    [status] = [f for cause in triage(repo, ["blank region"]).prior for f in cause.fixes if f.full_sha == fix]  # not the copy
    assert status.in_head is False and status.intact is True and status.status == "intact"


def test_fix_commit_without_trailer_is_a_gap(repo):
    fix = commit(repo, "fix(render): blank region after startup", {"render.py": "def render():\n    clear()\n    draw()\n"})
    result = triage(repo, ["blank region after startup"])
    assert result.verdict == INTACT and result.prior[0].source == "commit"
    assert result.gaps == [f"fix commit {fix[:12]} \"fix(render): blank region after startup\" has no `Symptom:` trailer"]


def test_novel_and_mentions(repo):
    commit(repo, "docs: describe the startup sequence and the blank region policy")
    result = triage(repo, ["printer catches fire", "smoke from the printer"])
    assert result.verdict == NOVEL and result.prior == [] and result.gaps == []
    mention = triage(repo, ["blank region"])
    assert mention.verdict == NOVEL and len(mention.mentions) == 1


def test_symptom_entry_without_cause_is_known(repo):
    commit(repo, "Start an entry", {"SYMPTOMS.md": "# Symptom Index\n\n## Symptom: fans spin at full speed\n\n**Ruled out**:\n"})
    result = triage(repo, ["fans spin at full speed"])
    assert result.verdict == KNOWN and result.prior[0].cause == "no cause recorded yet"


def test_body_symptom_line_is_not_a_trailer(repo):
    commit(repo, "Tidy\n\nSymptom: blank region after startup\nwas discussed but this is prose.", {"README.md": "x\n"})
    result = triage(repo, ["blank region after startup"])
    assert result.verdict == NOVEL  # a mention in a non-fix commit, not a trailer
    assert result.mentions and not result.prior


def test_decisions_are_related(repo):
    commit(repo, "Record", {"DECISIONS.md": "# Decision Ledger\n\n## 2026-01-02 — Keep the splash screen during startup\n\n**Decision**: keep it.\n"})
    result = triage(repo, ["splash screen startup"])
    assert [d["title"] for d in result.decisions] == ["Keep the splash screen during startup"]


@pytest.mark.parametrize(
    "phrasing, text, matched",
    [
        ("Blank region, after startup!", "a BLANK region after startup", True),
        ("blank region after startup", "startup leaves a blank region", True),  # all words, any order
        ("blank screen region startup", "blank region at startup", True),  # all but one of 4 words
        ("blank region", "blank regions everywhere", True),  # plural
        ("blank region after startup", "region of interest", False),
        ("login loops", "logging in works", False),
        ("the and of", "anything", False),  # only stopwords
    ],
)
def test_phrasing_variants(phrasing, text, matched):
    assert (Phrasing.of(phrasing).match(text) is not None) == matched


def test_cli_json_and_markdown(repo, capsys):
    commit(repo, "fix: init\n\nSymptom: blank region after startup", {"render.py": "def render():\n    clear()\n    draw()\n"})
    assert main(["triage", "blank region", "--json", "--project", str(repo)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == INTACT and data["prior"][0]["fix_intact"] is True and data["prior"][0]["fixes"][0]["status"] == "intact"
    assert main(["triage", "printer fire", "--project", str(repo)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## Triage: printer fire") and "**Verdict**: NOVEL" in out


def test_cli_not_a_repo(tmp_path, capsys):
    assert main(["triage", "anything", "--project", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a git repository" in err[0]


def test_many_fixes_are_judged_in_one_batch_each_as_alone(repo, monkeypatch):
    """Intact, reverted, changed, merged, binary, empty and side-branch fixes in one triage: every
    verdict is the one a triage of that fix alone gives, in 3 git processes plus one patch check per fix."""
    symptom = "\n\nSymptom: blank region after startup"
    fixes = {
        "intact": commit(repo, "fix: clear first" + symptom, {"render.py": "def render():\n    clear()\n    draw()\n"}),
        "binary": commit(repo, "fix: ship the glyph" + symptom, {"glyph.bin": "\0\1\2 glyph\n"}),
        "empty": commit(repo, "fix: nothing to change" + symptom),
        "reverted": commit(repo, "fix: TTL 25" + symptom, {"auth.py": "TTL = 25\n"}),
    }
    git(repo, "revert", "--no-edit", fixes["reverted"])
    fixes["changed"] = commit(repo, "fix: readme says hello" + symptom, {"README.md": "hello\n"})
    commit(repo, "docs", {"README.md": "hello again\n"})
    git(repo, "checkout", "-q", "-b", "side")
    fixes["side"] = commit(repo, "fix: side only" + symptom, {"side.py": "x = 1\n"})
    git(repo, "checkout", "-q", "-b", "topic", "main")
    topic = commit(repo, "fix: topic work" + symptom, {"topic.py": "y = 2\n"})
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "fix: merge topic" + symptom, "topic")
    fixes["merge"], fixes["topic"] = git(repo, "rev-parse", "HEAD").strip(), topic

    import cc_hooks.git as gitmod

    calls = []
    for name in ("run_git", "run_git_bytes"):
        real = getattr(gitmod, name)
        monkeypatch.setattr(gitmod, name, lambda *a, _real=real, **k: calls.append(a[1]) or _real(*a, **k))
    result = triage(repo, ["blank region after startup"])
    judged = {f.full_sha: (f.in_head, f.intact, f.status) for cause in result.prior for f in cause.fixes}
    assert len(judged) == len(fixes) == 8
    assert judged[fixes["intact"]] == (True, True, "intact") and judged[fixes["binary"]] == (True, True, "intact")
    assert judged[fixes["empty"]] == (True, None, "empty") and judged[fixes["reverted"]] == (True, False, "gone")
    assert judged[fixes["changed"]] == (True, True, "rewritten") and judged[fixes["side"]] == (False, False, "not-in-head")
    assert judged[fixes["merge"]] == judged[fixes["topic"]] == (True, True, "intact")
    # the oldest fix; the gone fix is git's revert, said by its message: no merge or run of its author is looked up
    assert calls.count("rev-list") == 1 and "merge-base" not in calls
    assert calls.count("diff-tree") == 1  # the candidates' files
    assert calls.count("cat-file") == 2 and "apply" not in calls  # object types, then every file of every fix
    # the history, its changelogs and its tests; who changed the lines of the fixes not intact; the reverts and their subjects
    assert calls.count("log") <= 6 and calls.count("grep") <= 1
    assert calls.count("for-each-ref") == 1  # the side-branch fix asks where it lives
    from cc_hooks.commands.triage import FixStatus, PriorCause, _check_fixes
    from cc_hooks.record import history_index
    from cc_hooks.record.trailers import read_commits

    index, others = history_index.load(repo), read_commits(repo, ["--all", "--not", "HEAD"])
    for sha, verdict in judged.items():  # a batch of one gives the same answers
        alone = PriorCause("trailer", "s", "c", "m", fixes=[FixStatus(sha)])
        _check_fixes(repo, [alone], index, others, 30.0)
        assert (alone.fixes[0].in_head, alone.fixes[0].intact, alone.fixes[0].status) == verdict


def test_a_formatting_commit_after_the_fix_is_no_regression_alarm(repo):
    """Issue 20: the fix's patch stops reverse-applying when a later commit reformats a context
    line; HEAD still has the fix, so the verdict is intact, not 'likely a regression'."""
    commit(repo, "fix: commit the transaction\n\nSymptom: delete_where left the connection in an open transaction",
           {"db.py": "def delete_where(conn):\n    sql = 'delete'\n    with conn:\n        conn.execute(sql)\n"})
    commit(repo, "black", {"db.py": 'def delete_where(conn):\n    sql = "delete"\n    with conn:\n        conn.execute(sql)\n'})
    result = triage(repo, ["delete_where left the connection in an open transaction"])
    assert result.verdict == INTACT and result.prior[0].fixes[0].status == "intact"
    assert "regression" not in render_markdown(result)


JOINER = "printing a zero width joiner raises StopIteration"
# the width from the table; the joiner fix replaces its four lines by ``lookup``
TABLE_WIDTH = "def width(text):\n    start, end = TABLE[0]\n    if text in JOINERS:\n        end = skip_joiner(text, end)\n    return end\n"


def _fix_then_its_branch(repo, subject: str, files: dict) -> str:
    """The joiner fix on branch ``zwj``, a later commit of that branch, then a ``--no-ff`` merge: the fix's sha."""
    commit(repo, "Add the width table", {"cells.py": TABLE_WIDTH})
    git(repo, "checkout", "-q", "-b", "zwj")
    fix = commit(repo, f"Fix the joiner crash\n\nSymptom: {JOINER}", {"cells.py": "def width(text):\n    return lookup(text)\n"})
    commit(repo, subject, files)
    git(repo, "checkout", "-q", "main")
    commit(repo, "Unrelated", {"README.md": "hello\n"})
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge branch zwj", "zwj")
    return fix


def test_a_later_commit_of_the_fixs_own_branch_is_one_change_not_a_regression(repo):
    """Issue 20 (rich #3953): "Fix ZWJ and edge cases", then "refine" on the same branch brought back
    a line the first commit removed; the merge landed both. The fix is the branch's net change:
    'gone ... likely a regression' was a false alarm. The same line brought back on main after the
    merge still is one."""
    fix = _fix_then_its_branch(repo, "refine", {"cells.py": "def width(text):\n    start, end = TABLE[0]\n    return lookup(text, end)\n"})
    result = triage(repo, [JOINER])
    [status] = result.prior[0].fixes
    assert status.full_sha == fix and status.status == "rewritten" and "one change" in status.detail, status.detail
    assert result.verdict == INTACT
    commit(repo, "Go back to the table", {"cells.py": TABLE_WIDTH})
    assert triage(repo, [JOINER]).verdict == KNOWN


KEEPS_LOOKUP = "def width(text):\n    start, end = TABLE[0]\n    return lookup(text, end)\n"


def _fix_then_its_series(repo, monkeypatch, step_author: str, hours: float, step: str = KEEPS_LOOKUP) -> str:
    """The joiner fix committed straight to main, then a ``step`` by ``step_author`` written ``hours`` later
    that brings back the first of the four lines the fix removed: the fix's sha."""
    commit(repo, "Add the width table", {"cells.py": TABLE_WIDTH})
    for variable in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):  # the run's steps are written this far apart (a rebase keeps it)
        monkeypatch.setenv(variable, "@1632040280 +0300")
    fix = commit(repo, f"Fix the joiner crash\n\nSymptom: {JOINER}", {"cells.py": "def width(text):\n    return lookup(text)\n"})
    monkeypatch.setenv("GIT_AUTHOR_DATE", f"@{1632040280 + int(hours * 3600)} +0300")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", step_author)
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", step_author)
    commit(repo, "Keep the table's start", {"cells.py": step})
    return fix


def test_the_next_commits_of_the_fixs_author_are_one_change_not_a_regression(repo, monkeypatch):
    """Issue 20 round 10 (dramatiq): "time_limit: define a protocol for timeout managers" was judged gone
    because "make ctypes timeout manager a daemon", the same author's commit 50 minutes later in the same
    run pushed straight to master, brought back ``self.deadlines[thread_id] = None``. The run's net change
    is what landed."""
    fix = _fix_then_its_series(repo, monkeypatch, "t@example.com", hours=0.8)
    [status] = triage(repo, [JOINER]).prior[0].fixes
    assert status.full_sha == fix and status.status == "rewritten" and "its author's next commits" in status.detail, status.detail
    assert triage(repo, [JOINER]).verdict == INTACT


@pytest.mark.parametrize("author, hours, tag", [("other@example.com", 0.8, False), ("t@example.com", 30, False), ("t@example.com", 0.8, True)])
def test_another_authors_commit_or_a_later_days_brings_the_removed_line_back_as_a_regression(repo, monkeypatch, author, hours, tag):
    """The rule above takes one author's run within a day, never released half done: someone else's commit,
    the author's own a day later (by author date: a rebase keeps it), or one after a release that shipped the
    fix alone, that brings back what the fix removed is still an alarm."""
    if tag:
        real_commit = commit

        def commit_then_tag(root, message, files=None):
            sha = real_commit(root, message, files)
            if message.startswith("Fix the joiner"):
                git(root, "tag", "v1.0")
            return sha

        monkeypatch.setitem(globals(), "commit", commit_then_tag)
    _fix_then_its_series(repo, monkeypatch, author, hours)
    assert triage(repo, [JOINER]).verdict == KNOWN


def test_a_step_of_the_run_that_writes_back_what_the_fix_removed_undid_it(repo, monkeypatch):
    """Review: the author's next commit, two hours later, wrote back the table lines the fix removed while
    keeping its ``lookup``: the run's net patch removes one of four, so the fix was undone in the run."""
    undone = "def width(text):\n    start, end = TABLE[0]\n    if text in JOINERS:\n        end = skip_joiner(text, end)\n    return end or lookup(text)\n"
    _fix_then_its_series(repo, monkeypatch, "t@example.com", 2, step=undone)
    [status] = triage(repo, [JOINER]).prior[0].fixes
    assert status.status == "gone" and "undone by its author's next commits" in status.detail, status.detail


def test_a_fix_its_own_branch_undid_before_the_merge_still_alarms(repo):
    """Review of the rule above: "Speed up the table" on the fix's branch put the table lines back and
    dropped ``lookup``; the merge carries none of the fix, so it is gone, not one change."""
    fix = _fix_then_its_branch(repo, "Speed up the table", {"cells.py": "def width(text):\n    start, end = TABLE[0]\n    return end or 0\n",
                                                            "fast.py": "FAST = True\n"})
    result = triage(repo, [JOINER])
    [status] = result.prior[0].fixes
    assert status.full_sha == fix and status.status == "gone" and "undone on its own branch" in status.detail, status.detail
    assert result.verdict == KNOWN
