"""Triage ranks past fixes by evidence: identifiers in diffs, named files, issue numbers, rare words; not the word "fix"."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cc_hooks.commands.triage import INTACT, render_markdown, triage

from record.repo_helpers import commit_files, git, new_repo


def commit(root: Path, message: str, files: dict[str, str]) -> str:
    return commit_files(root, message, files)


@pytest.fixture
def history(tmp_path: Path):
    new_repo(tmp_path)
    commit(tmp_path, "init", {"db.py": "def delete_where(conn, sql):\n    conn.execute(sql)\n", "CHANGES.md": "# Changes\n"})
    for n in range(8):
        commit(tmp_path, f"Add table helper {n}", {f"helpers/h{n}.py": f"def helper_{n}():\n    return {n}\n"})
    shas = {"fix": commit(tmp_path, "Wrap deletes in a transaction\n\nCloses #41.",
                          {"db.py": "def delete_where(conn, sql):\n    with conn:\n        conn.execute(sql)\n"})}
    shas["release"] = commit(tmp_path, "Release 1.2: delete_where leaves the connection in an open transaction",
                             {"CHANGES.md": "# Changes\n\n- delete_where left the connection in an open transaction (#41)\n"})
    shas["docs"] = commit(tmp_path, "docs: transactions and connections", {"docs/tx.md": "open transaction\n"})
    return tmp_path, shas


def test_the_code_change_outranks_the_release_that_mentions_it(history):
    root, shas = history
    result = triage(root, ["delete_where left the connection in an open transaction"])
    assert result.prior[0].fixes[0].full_sha == shas["fix"] and result.prior[0].rank == 1
    assert "`delete_where`" in result.prior[0].matched_by
    assert result.verdict == INTACT
    ranked = [c.fixes[0].full_sha for c in result.prior] + [m["sha"] for m in result.mentions]
    assert ranked.index(shas["fix"]) < ranked.index(shas["release"])


def test_an_issue_number_finds_the_fix(history):
    root, shas = history
    result = triage(root, ["the bug in #41 is back"])
    assert result.prior[0].fixes[0].full_sha == shas["fix"] and "#41" in result.prior[0].matched_by


def test_a_named_file_counts(history):
    root, shas = history
    result = triage(root, ["deletes are not wrapped in a transaction in db.py"])
    assert result.prior[0].fixes[0].full_sha == shas["fix"] and "touches db.py" in result.prior[0].matched_by


def test_output_says_each_thing_once(history):
    root, shas = history
    commit(root, "fix: fix README typo", {"README.md": "hello\n"})
    out = render_markdown(triage(root, ["README typo"]))
    assert "fix: fix:" not in out and "cause:" not in out
    assert out.split("**Already ruled out")[0].count("fix README typo") == 1


def test_the_terminal_table_says_each_thing_once(history, capsys, monkeypatch):
    from cc_hooks.commands.triage import render_rich

    monkeypatch.setenv("COLUMNS", "400")  # one table row a line
    root, shas = history
    render_rich(triage(root, ["delete_where left the connection in an open transaction"]))
    out = capsys.readouterr().out
    assert "#1 in history" in out and out.count("Wrap deletes in a") == 1 and "why:" in out


def ranked(result) -> list[str]:
    return [c.fixes[0].full_sha for c in sorted((c for c in result.prior if c.rank), key=lambda c: c.rank)] + [m["sha"] for m in result.mentions]


def test_a_merge_and_the_commit_it_merged_are_one_candidate(history):
    root, shas = history
    git(root, "checkout", "-q", "-b", "topic")
    tip = commit(root, "Respect the proxy bypass list", {"net.py": "def bypass(host, no_proxy):\n    return host in no_proxy\n"})
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-ff", "-m", "Merge pull request #7 from someone/proxy-bypass\n\nRespect the proxy bypass list", "topic")
    merge = git(root, "rev-parse", "HEAD").strip()
    found = ranked(triage(root, ["the proxy bypass list is not respected"]))
    assert found[0] == tip and merge not in found


def test_a_constant_and_a_camelcase_name_are_evidence(history):
    root, shas = history
    commit(root, "Read the environment", {"net.py": "import os\nBYPASS = os.environ.get('NO_PROXY')\n"})
    fix = commit(root, "Honour the bypass variable when empty", {"net.py": "import os\nBYPASS = os.environ.get('NO_PROXY') or ''\n"})
    for n in range(3):
        commit(root, f"Tune the proxy {n}", {f"proxy{n}.py": f"PROXY_{n} = {n}\n"})
    result = triage(root, ["NO_PROXY is ignored: requests still go through the proxy"])
    why = [c.matched_by for c in result.prior if c.rank] + [m["matched_by"] for m in result.mentions]
    assert ranked(result)[0] == fix and "changes lines with `NO_PROXY`" in why[0]
    transport = commit(root, "Fix exception suppression in the asgi transport", {"asgi.py": "def app():\n    return 500\n"})
    assert ranked(triage(root, ["ASGITransport still raises the app's exception"]))[0] == transport


def test_a_fix_undone_by_a_later_fix_of_the_same_symptom_is_no_regression_alarm(history):
    from cc_hooks.commands.triage import KNOWN

    root, shas = history
    commit(root, "Add getwithbase", {"settings.py": "def getwithbase(key):\n    return lookup(key)\n"})
    first = commit(root, "Fix getwithbase for dotted keys that are import paths",
                   {"settings.py": "def getwithbase(key):\n    return lookup(load_object(key))\n"})
    later = commit(root, "Restore the getwithbase of 2.14 for dotted keys",
                   {"settings.py": "def getwithbase(key):\n    return lookup(key)\n"})
    result = triage(root, ["getwithbase fails for dotted keys that are import paths"])
    judged = {f.full_sha: f for cause in result.prior for f in cause.fixes}
    assert first in judged and later in ranked(result)
    assert judged[first].status == "rewritten" and later[:12] in judged[first].detail
    assert result.verdict != KNOWN


def _padding(root: Path, count: int = 12, start: int = 0) -> None:
    for n in range(start, start + count):
        commit(root, f"Tidy module {n}", {f"lib/m{n}.py": f"VALUE_{n} = {n}\n"})


def _bare(tmp_path: Path, files: dict[str, str]) -> Path:
    new_repo(tmp_path)
    commit(tmp_path, "init", files)
    return tmp_path


def _first_lead(tmp_path, before: dict[str, str], subject: str, fixed: dict[str, str], report: str):
    """The best lead triage finds for ``report`` in a history whose one fix is ``subject``, among padding."""
    root = _bare(tmp_path, before)
    _padding(root)
    fix = commit(root, subject, fixed)
    _padding(root, 3, start=20)
    result = triage(root, [report])
    assert result.prior and result.prior[0].fixes[0].full_sha == fix
    return result.prior[0]


def test_the_changelog_entry_a_fix_added_finds_it_when_its_subject_shares_nothing(tmp_path):
    lead = _first_lead(tmp_path, {"cells.py": "def split(text):\n    return list(text)\n", "CHANGELOG.md": "# Changelog\n"},
                       "Merge branch fix-grapheme-stuck",
                       {"cells.py": "def split(text):\n    return [c for c in text if c]\n",
                        "CHANGELOG.md": "# Changelog\n\n## Unreleased\n### Fixed\n- Fixed infinite loop when wrapping zero width characters\n"},
                       "rich hangs in an infinite loop wrapping a string of zero width characters")
    assert "changelog entry shares" in lead.matched_by


def test_a_release_note_points_at_the_commit_its_number_names(tmp_path):
    _bare(tmp_path, {"cache.py": "def load(entry):\n    return entry.read()\n", "docs/news.rst": "News\n====\n"})
    _padding(tmp_path)
    fix = commit(tmp_path, "Treat broken records as misses (#7805)",
                 {"cache.py": "def load(entry):\n    try:\n        return entry.read()\n    except Exception:\n        return None\n"})
    _padding(tmp_path, 3, start=20)
    entries = "".join(f"-   Unrelated improvement number {n} (:issue:`{100 + n}`)\n" for n in range(6))
    release = commit(tmp_path, "Release notes for 2.14",
                     {"docs/news.rst": f"News\n====\n\n2.14.0\n------\n\n{entries}"
                      "-   A corrupted cache entry no longer raises; the page is downloaded again (:issue:`7805`)\n"})
    result = triage(tmp_path, ["a corrupted cache entry raises instead of downloading the page again"])
    ranked = [c.fixes[0].full_sha for c in result.prior]
    assert ranked and ranked[0] == fix and release not in ranked[:1]
    assert "changelog entry shares" in result.prior[0].matched_by


def test_a_release_that_adds_many_entries_is_credited_none_of_them(tmp_path):
    from cc_hooks.record import history_index

    _bare(tmp_path, {"CHANGES.rst": "Changes\n=======\n"})
    entries = "".join(f"-   Entry about widget{n} frobnication\n    continued on a second line.\n" for n in range(5))
    commit(tmp_path, "Release 3.0", {"CHANGES.rst": f"Changes\n=======\n\nVersion 3.0\n-----------\n\n{entries}"})
    one = commit(tmp_path, "Small fix", {"a.py": "x = 1\n", "CHANGES.rst": f"Changes\n=======\n\nVersion 3.0\n-----------\n\n{entries}"
                                                                             "-   Gizmo no longer explodes. :pr:`12`\n"})
    index = history_index.HistoryIndex(history_index.extend(None, history_index._read(tmp_path, ["HEAD"], 30.0)))
    assert index.noted("widget3") == set() and index.noted("continu") == set()
    assert index.noted("gizmo") == {index.position(one)}


def test_the_regression_test_a_fix_added_is_named_after_what_broke(tmp_path):
    lead = _first_lead(tmp_path, {"tb.py": "def walk(exc):\n    return [exc, *walk(exc.__cause__)]\n", "tests/test_tb.py": "def test_walk():\n    pass\n"},
                       "Guard the walk", {"tb.py": "def walk(exc, seen=()):\n    return [] if exc in seen else [exc]\n",
                                          "tests/test_tb.py": "def test_walk():\n    pass\n\n\ndef test_cyclic_exception_chain():\n    pass\n"},
                       "rendering hangs when an exception chain is cyclic")
    assert "its new tests' names share" in lead.matched_by


def test_a_report_naming_an_error_matches_the_fix_naming_what_failed(tmp_path):
    lead = _first_lead(tmp_path, {"tb.py": "def walk(exc):\n    return [exc]\n"}, "Stop the traceback recursion",
                       {"tb.py": "def walk(exc):\n    return []\n"}, "the traceback renderer dies with RecursionError")
    assert "recursion" in lead.matched_by


def test_a_refactor_whose_code_was_removed_since_is_no_regression(tmp_path):
    from cc_hooks.commands.triage import KNOWN

    root = _bare(tmp_path, {"auth.py": "def parse(value):\n    return value\n"})
    _padding(root)
    body = "".join(f"def helper_{n}(value):\n    return value.strip().lower() + '{n}'\n\n\n" for n in range(6))
    refactor = commit(root, "Refactor Authorization header parsing", {"auth.py": f"def parse(value):\n    return helper_0(value)\n\n\n{body}"})
    commit(root, "Drop the helpers", {"auth.py": "def parse(value):\n    return value\n"})  # no lead: no word of the symptom
    result = triage(root, ["Authorization header parsing breaks"])
    top = result.prior[0]
    assert top.fixes[0].full_sha == refactor
    assert top.fixes[0].status == "rewritten" and "a refactor, not a fix" in top.fixes[0].detail
    assert result.verdict != KNOWN


def test_a_lead_with_no_line_to_compare_raises_no_regression_alarm(tmp_path):
    from cc_hooks.commands.triage import KNOWN

    root = _bare(tmp_path, {"url.py": "def host(url):\n    return url.split('%')[0]\n"})
    _padding(root)
    lead = commit(root, "Cover IPv6 zone id handling with docs", {"url.py": "def host(url):\n    # RFC 6874: an IPv6 zone id follows %25\n    return url.split('%')[0]\n"})
    result = triage(root, ["host keeps %25 for IPv6 addresses with a zone id"])
    top = result.prior[0]
    assert top.fixes[0].full_sha == lead and top.fixes[0].status == "empty"
    assert result.verdict != KNOWN


def test_the_input_a_fix_tested_finds_it_when_its_subject_does_not(tmp_path: Path):
    """The fix's subject says what it changed ("Skip legacy archives"); its diff holds what the user
    saw (``.egg``). A feature commit sharing as many of the report's words loses to it."""
    new_repo(tmp_path)
    commit(tmp_path, "init", {"README.md": "pkgs\n"})
    feature = commit(tmp_path, "Generate hashes for every archive",
                     {"hashing.py": "def hashes(files):\n    return [digest(f) for f in files]\n"})
    for n in range(12):
        commit(tmp_path, f"Tune the resolver step {n}", {f"resolver/r{n}.py": f"STEP = {n}\n"})
    fix = commit(tmp_path, "Skip legacy archives when hashing",
                 {"hashing.py": "def hashes(files):\n    return [digest(f) for f in files if not f.endswith('.egg')]\n",
                  "tests/test_hashing.py": "def test_legacy():\n    assert hashes(['a.whl', 'b.egg']) == [digest('a.whl')]\n"})
    result = triage(tmp_path, ["the hashes include .egg archives"])
    ranked = [c.fixes[0].full_sha for c in result.prior] + [m["sha"] for m in result.mentions]
    assert ranked[0] == fix, ranked
    assert "its changed lines share egg" in result.prior[0].matched_by
    assert ranked.index(feature) > 0


def test_short_plurals_are_stemmed_and_latin_endings_are_not():
    from cc_hooks.record.evidence import words_of

    assert words_of("eggs bugs keys") == words_of("egg bug key")
    assert words_of("status axis") == {"status", "axis"}


def test_the_input_a_user_quotes_finds_the_fix_whose_test_repeats_it(tmp_path: Path):
    """Issue 20 round 6 (sqlparse, arrow): "bugfix ISSUE_801; Remove all comments when only comments"
    ranked 54th for a report quoting its input ``"--A;\\n--B;"``; its regression test holds that string,
    and no other commit's diff does. A quoted string of another script ("Μαϊ") is an output too."""
    new_repo(tmp_path)
    commit(tmp_path, "init", {"fmt.py": "def format(sql, strip_comments=False):\n    return sql\n", "locales.py": "MONTHS = ['Μάιος']\n"})
    for n in range(3):
        commit(tmp_path, f"Keep the last comment of the input when strip_comments is off ({n})",
               {"fmt.py": f"def format(sql, strip_comments=False):  # {n}\n    return sql\n"})
    fix = commit(tmp_path, "Handle statements made of nothing else",
                 {"fmt.py": "def format(sql, strip_comments=False):\n    return '' if strip_comments and sql.startswith('--') else sql\n",
                  "tests/test_fmt.py": "def test_only():\n    assert format(\"--A;\\n--B;\", strip_comments=True) == ''\n"})
    for n in range(3):
        commit(tmp_path, f"Greek month names, take {n}", {f"notes/g{n}.py": f"G = {n}\n"})
    greek = commit(tmp_path, "Correct an accent", {"locales.py": "MONTHS = ['Μαΐ']\n", "old.py": "ABBR = 'Μαϊ'\n"})
    result = triage(tmp_path, ['format(strip_comments=True) leaves the last comment when the input is only comments',
                               'sqlparse.format("--A;\\n--B;", strip_comments=True) returns "--B;"'])
    assert result.prior[0].fixes[0].full_sha == fix, [(c.fixes[0].sha, c.matched_by) for c in result.prior]
    assert 'holding "--A;\\n--B;"' in result.prior[0].matched_by
    result = triage(tmp_path, ['Greek months: May is abbreviated "Μαϊ"'])
    assert result.prior[0].fixes[0].full_sha == greek, [(c.fixes[0].sha, c.matched_by) for c in result.prior]


def test_words_of_any_script_are_words():
    from cc_hooks.record.evidence import words_of

    assert {"πριν", "ώρα"} <= words_of("μία ώρα πριν, Größe") and words_of("Größe") == words_of("größe")


def test_a_tracebacks_file_paths_are_no_quoted_input():
    """Review: the ``File "..."`` lines of a pasted traceback filled the three literal slots before the
    input the user quoted."""
    from cc_hooks.record.evidence import Query

    query = Query.of(['"(UTC+01:00) Amsterdam" cannot be parsed: File "/home/u/venv/lib/python3.11/site-packages/arrow/parser.py", '
                      'line 3, in parse; File "<stdin>", line 1; File "C:\\\\venv\\\\arrow\\\\api.py"; "+01:00" works'])
    assert query.literals == ["(UTC+01:00) Amsterdam", "+01:00"]


def test_a_quoted_string_every_commit_changed_weighs_little_even_with_a_leading_plus():
    """Review: a literal beginning with "+" ("+01:00") was counted under "01:00" and always scored the
    full ``Weights.literal``."""
    from cc_hooks.record.evidence import WEIGHTS, Query, diff_weights

    query = Query.of(['offset "+01:00" and "(UTC) Berlin"'])
    assert query.literals == ["+01:00", "(UTC) Berlin"]
    by_diff = {f"sha{n}": ["+01:00"] for n in range(12)} | {"once": ["(UTC) Berlin"]}
    weights = diff_weights(query, by_diff, 13)
    assert weights["+01:00"] < WEIGHTS.literal / 4 and weights["(UTC) Berlin"] == WEIGHTS.literal


SPLIT_REPORT = "split() returns a whole BEGIN TRANSACTION ... END block as one statement"


def _split_releases(root: Path) -> dict[str, str]:
    """An older fix (in v0.5.3), the change v0.5.4 brought (the cause of "since 0.5.4"), and the fix after it."""
    new_repo(root)
    commit(root, "init", {"split.py": "def split(sql):\n    return [sql]\n"})
    shas = {"older": commit(root, "Fix split() of BEGIN ... END TRANSACTION blocks", {"split.py": "def split(sql):\n    return sql.split(';;')\n"})}
    git(root, "tag", "v0.5.3")
    shas["cause"] = commit(root, "Fix split() of BEGIN ... END blocks", {"split.py": "def split(sql):\n    return sql.split(';')\n"})
    git(root, "tag", "v0.5.4")
    for n in range(6):
        commit(root, f"Add keyword list {n}", {f"keywords/k{n}.py": f"K = {n}\n"})
    shas["fix"] = commit(root, "Keep transactions apart",
                         {"split.py": "def split(sql):\n    return [s for s in sql.split(';') if s]  # a TRANSACTION ends\n"})
    return shas


def _ranked(root: Path, text: str) -> dict[str, tuple[int, str]]:
    from cc_hooks.record import history_index
    from cc_hooks.record.evidence import rank

    return {c.sha: (place, c.why) for place, c in enumerate(rank(root, [text], history_index.load(root), limit=20))}


def test_a_commit_the_release_the_report_names_already_holds_is_not_its_fix(tmp_path: Path):
    """Issue 20 (sqlparse, redis-py): "split() returns a whole BEGIN ... END block as one statement since
    0.5.4" ranked the change 0.5.4 brought above the fix that came after it; it shipped with the bug."""
    shas = _split_releases(tmp_path)
    plain, since = _ranked(tmp_path, SPLIT_REPORT), _ranked(tmp_path, SPLIT_REPORT + " since 0.5.4")
    assert plain[shas["cause"]][0] < plain[shas["fix"]][0]  # its words alone: the change 0.5.4 brought
    assert since[shas["fix"]][0] < since[shas["cause"]][0]
    assert "new in 0.5.4, which the report says has the bug" in since[shas["cause"]][1]
    assert _ranked(tmp_path, SPLIT_REPORT + " on Python 0.5.4") == plain  # another program's version


def test_a_commit_new_in_the_release_the_report_names_is_not_its_fix(tmp_path: Path):
    """Review: only what the release brought is demoted; an older fix of the same symptom, which a change of
    that release undid, is the prior occurrence of a regression and keeps its score."""
    shas = _split_releases(tmp_path)
    plain, since = _ranked(tmp_path, SPLIT_REPORT), _ranked(tmp_path, SPLIT_REPORT + " since 0.5.4")
    assert "new in" not in since[shas["older"]][1] and since[shas["older"]][1] == plain[shas["older"]][1]


def test_the_versions_a_report_names_are_this_projects_tags(tmp_path: Path):
    """Which versions count: not another program's ("Python 3.11", "TLS 1.2", "HTTP/1.1"), not one the
    report says fixed it; a tag may carry a prefix, and "4.0" is 4.0.0."""
    from cc_hooks.record.releases import named_versions, tags_of

    assert named_versions("After upgrading from 3.17.8 to redis-py 4.0, on Python 3.11 with TLS 1.2 over HTTP/1.1") == ["3.17.8", "4.0"]
    assert named_versions("it was fixed in 2.0 but 2.1b2 breaks it again; 1.2.3-beta too") == ["2.1b2"]
    assert named_versions("see v6.5.3.") == ["6.5.3"]
    # review: other programs' versions, quantities, and a version that fixed it
    assert named_versions("Python version: 3.11.4; python==3.12; on Python 3.10 and 3.11; Ubuntu 22.04 and 24.04; numpy 1.26.4") == []
    assert named_versions("took 1.5 seconds, sleep(0.5) hangs, timeout=1.5; upgrading to 2.1 fixed it; works again in 2.2; Fixed in: 2.3") == []
    new_repo(tmp_path)
    commit(tmp_path, "init", {"a.py": "A = 1\n"})
    for tag in ("v4.0.0", "redis-py-3.17.8", "4.0.1", "14.0", "3.17.80", "rel_1_16_0", "rel_1_16_01"):
        git(tmp_path, "tag", tag)
    assert sorted(tags_of(tmp_path, ["3.17.8", "4.0", "1.16.0"], 10.0)) == ["redis-py-3.17.8", "rel_1_16_0", "v4.0.0"]
    git(tmp_path, "branch", "2.0.0")  # review: a branch of the tag's name made `refname:short` say "tags/2.0.0"
    git(tmp_path, "tag", "2.0.0")
    git(tmp_path, "tag", "9.9", "HEAD^{tree}")  # and a tag of a tree broke the one rev-list
    assert tags_of(tmp_path, ["2.0.0", "9.9"], 10.0) == ["2.0.0"]


def test_a_fix_on_the_side_a_merge_simplifies_away_is_still_found(tmp_path: Path):
    """Issue 20 round 10 (alembic): "add missing f-string" and a branch rewriting the same line were merged;
    the merge equals the branch, so ``git log -- <paths>`` followed only the branch and never listed the
    fix, whose diff holds the quoted "{template_path}"."""
    from cc_hooks.record import history_index
    from cc_hooks.record.evidence import rank

    new_repo(tmp_path)
    line = 'def init(template_path):\n    raise CommandError("No such template {template_path}")\n'
    commit(tmp_path, "init", {"command.py": line})
    git(tmp_path, "checkout", "-q", "-b", "paths")
    rewrite = commit(tmp_path, "Honor the templates path first",
                     {"command.py": line.replace('("No', '(f"No'), "paths.py": "def templates_path():\n    return 'templates'\n"})
    git(tmp_path, "checkout", "-q", "main")
    fix = commit(tmp_path, "Add the missing f", {"command.py": line.replace('("No', '(f"No')})
    git(tmp_path, "merge", "-q", "--no-edit", "paths")
    assert fix not in git(tmp_path, "log", "--format=%H", "--", ".").split()  # what git's simplification does
    found = [c.sha for c in rank(tmp_path, ['alembic init prints literal "{template_path}"'], history_index.load(tmp_path))]
    assert fix in found and rewrite in found, found


def test_of_two_commits_the_evidence_links_alike_the_small_change_is_the_fix(tmp_path: Path, monkeypatch):
    """Both subjects hold the report's words, and neither diff does: the commit that wrote sixty
    helpers (older, so it would win the tie) is a feature; the one-line change is the fix. A
    changelog's size does not count."""
    root = _bare(tmp_path, {"headers.py": "def parse_header(value):\n    return value\n"})
    _padding(root)
    helpers = "".join(f"def part_{n}(value):\n    return value.split(';')[{n}]\n\n\n" for n in range(60))
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2001-01-01T00:00:00+00:00")  # the older of a tie ranks first
    rewrite = commit(root, "parse_header: charset parameter", {"headers.py": f"def parse_header(value):\n    return value\n\n\n{helpers}"})
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    _padding(root, 3, start=20)
    notes = "".join(f"- entry {n}\n" for n in range(400))
    fix = commit(root, "parse_header: charset parameter",
                 {"headers.py": f"def parse_header(value):\n    return value\n\n\n{helpers.replace('[1]', '[1:]', 1)}", "CHANGES.md": notes})
    ranked = [c.fixes[0].full_sha for c in triage(root, ["parse_header drops the charset parameter"]).prior]
    assert ranked[:2] == [fix, rewrite], ranked


def test_a_merge_is_as_large_as_its_branch_and_a_docs_name_in_any_script_is_docs(tmp_path: Path):
    """diff-tree -m prints a merge's diff against each parent: the 500 lines master wrote meanwhile are
    not the merge's. ``docs/中.md`` is quoted by git unless core.quotepath is off, and was counted as code."""
    from cc_hooks.record import evidence

    root = _bare(tmp_path, {"a.py": "x = 1\n"})
    git(root, "checkout", "-q", "-b", "side")
    commit(root, "Keep the charset", {"a.py": "x = 2\n"})
    git(root, "checkout", "-q", "main")
    commit(root, "Add the big module", {"big.py": "".join(f"v{n} = {n}\n" for n in range(500))})
    git(root, "merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side")
    merge = git(root, "rev-parse", "HEAD").strip()
    docs = commit(root, "Explain the charset", {"docs/中.md": "".join(f"line {n}\n" for n in range(500)), "a.py": "x = 3\n"})
    found = [evidence.Candidate(sha, "", subject) for sha, subject in ((merge, "Merge branch 'side'"), (docs, "Explain the charset"))]
    evidence._score_files(root, found, evidence.Query.of(["charset"]), 30.0, set())
    assert found[0].files == ["a.py"] and found[1].files == ["a.py", "docs/中.md"]
    small = evidence.WEIGHTS.diff_size * math.log1p(2 / evidence.SMALL_DIFF)
    assert [round(c.score, 6) for c in found] == [round(small, 6)] * 2
    changed = evidence._changed_code(root, [merge], 30.0, merges=True)
    assert changed[merge] == ["x = 1", "x = 2"]  # no blank line between records counted as a changed line


def test_a_feature_announcement_loses_to_the_change_linked_alike(tmp_path: Path, monkeypatch):
    """Issue 20 (kombu, packaging): "Added connection.Pool.acquire_channel context manager" outranked the
    fix the report's words pointed at as well. "Add missing ..." and "Add check for ..." are fixes."""
    from cc_hooks.record import evidence

    root = _bare(tmp_path, {"pool.py": "class Pool:\n    size = 1\n"})
    _padding(root)
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2001-01-01T00:00:00+00:00")
    feature = commit(root, "Add pool resize with reset", {"pool.py": "class Pool:\n    size = 2\n"})
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    fix = commit(root, "Pool resize with reset", {"pool.py": "class Pool:\n    size = 3\n"})
    _padding(root, 3, start=20)
    result = triage(root, ["pool unusable after resize with reset"])
    assert [c.fixes[0].full_sha for c in result.prior][:2] == [fix, feature]
    assert "its subject announces a feature" in result.prior[1].matched_by
    assert [bool(evidence._FEATURE_RE.search(s)) for s in ("feat(pool): resize", "Implement resize", "add missing f-string",
                                                            "Add check for missing parenthesis", "Fix add()", "Support nested tuple unpacking in for loops")] \
        == [True, True, False, False, False, False]


def test_the_words_a_person_is_shown_are_the_reports_not_stems(tmp_path):
    """Issue 44: "subject shares airbrake hook", never "airbrak"."""
    from cc_hooks.commands.triage import triage

    new_repo(tmp_path)
    commit_files(tmp_path, "init", {"hooks/airbrake.go": "package hooks\n"})
    commit_files(tmp_path, "Fix airbrake hook panics on nil errors", {"hooks/airbrake.go": "package hooks\n\nfunc fire(err error) {\n\tif err == nil {\n\t\treturn\n\t}\n}\n"})
    result = triage(tmp_path, ["the airbrake hook panics when an error field is nil"])
    shown = " ".join(c.matched_by for c in result.prior)
    assert "airbrake" in shown and "airbrak " not in shown + " " and "panics" in shown, shown
