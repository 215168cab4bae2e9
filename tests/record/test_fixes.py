"""Is the fix still there? Judged by the fix's own lines modulo formatting, across renames (real repos)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cc_hooks.commands.triage import _patches
from cc_hooks.record.fixes import GONE, INTACT, REWRITTEN, FileText, judge


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def commit(root: Path, message: str, files: dict[str, str | None]) -> str:
    for name, text in files.items():
        if text is None:
            git(root, "rm", "-q", name)
            continue
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
        git(root, "add", name)
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


BEFORE = """def delete_where(conn, table, where):
    sql = "delete from [{}] where {}".format(table, where)
    conn.execute(sql)
    return conn
"""
FIXED = """def delete_where(conn, table, where):
    sql = "delete from [{}] where {}".format(table, where)
    with conn:
        conn.execute(sql)
    log.debug('deleted rows from %s' % table)
    return conn
"""


@pytest.fixture
def fixed(tmp_path: Path):
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    commit(tmp_path, "init", {"db.py": BEFORE, "tests/test_db.py": "def test_delete_where_commits():\n    assert True\n"})
    fix = commit(tmp_path, "delete_where commits its transaction", {"db.py": FIXED})
    return tmp_path, fix


def judged(root: Path, fix: str, guard: str | None = None):
    return judge(root, fix, _patches(root, [fix], 30.0)[fix], guard)


def test_untouched_fix_is_intact(fixed):
    root, fix = fixed
    assert judged(root, fix).outcome == INTACT


def test_reformatting_keeps_it_intact(fixed):
    """Quotes, indentation, a wrapped call, a trailing comma and an f-string: the same lines."""
    root, fix = fixed
    commit(root, "black", {"db.py": """def delete_where(conn, table, where):
    sql = 'delete from [{}] where {}'.format(
        table,
        where,
    )
    with conn:
        conn.execute(
            sql
        )
    log.debug(f"deleted rows from {table}")
    return conn
"""})
    result = judged(root, fix)
    assert result.outcome == INTACT, result.detail
    # A patch check would have failed: the context lines moved.
    assert subprocess.run(["git", "-C", str(root), "apply", "--check", "-R"], input=git(root, "show", "--format=", fix), text=True,
                          capture_output=True).returncode != 0


def test_rename_is_followed(fixed):
    root, fix = fixed
    git(root, "mv", "db.py", "sqlite_store.py")
    git(root, "commit", "-q", "-m", "rename the module")
    result = judged(root, fix)
    assert result.outcome == INTACT and "db.py is now sqlite_store.py" in result.detail


def test_real_removal_is_gone_and_names_the_commit(fixed):
    root, fix = fixed
    removal = commit(root, "simplify delete_where", {"db.py": BEFORE})
    result = judged(root, fix)
    assert result.outcome == GONE and result.by == removal, (result, walks)
    assert "simplify delete_where" in result.detail and "likely a regression" in result.detail


def test_partial_revert_is_gone(fixed):
    """The log line stays but the `with conn:` block is undone: what the fix removed is back."""
    root, fix = fixed
    partial = commit(root, "tidy", {"db.py": BEFORE.replace("    return conn", "    log.debug('deleted rows from %s' % table)\n    return conn")})
    result = judged(root, fix)
    assert result.outcome == GONE and result.by == partial and result.missing == ["with conn:"]


def test_rewritten_fix_says_by_what_and_what_changed(fixed):
    root, fix = fixed
    rewrite = commit(root, "use an explicit transaction", {"db.py": FIXED.replace("    with conn:\n        conn.execute(sql)",
                                                                                   "    conn.execute('begin')\n    conn.execute(sql)\n    conn.commit()")})
    result = judged(root, fix)
    assert result.outcome == REWRITTEN and result.by == rewrite
    assert "use an explicit transaction" in result.detail and "became" in result.detail


def test_lines_moved_to_another_file_are_rewritten_not_gone(fixed):
    root, fix = fixed
    commit(root, "split", {"db.py": "from helpers import delete_where\n",
                           "helpers.py": FIXED})
    assert judged(root, fix).outcome in (INTACT, REWRITTEN)
    assert judged(root, fix).outcome != GONE


def test_the_guard_is_checked(fixed):
    root, fix = fixed
    assert "guard tests/test_db.py::test_delete_where_commits is in HEAD" in judged(root, fix, "tests/test_db.py::test_delete_where_commits").detail
    commit(root, "drop the test", {"tests/test_db.py": None})
    assert "is not in HEAD" in judged(root, fix, "tests/test_db.py::test_delete_where_commits").detail


@pytest.mark.parametrize("line, head, present", [
    ("x = {'a': 1}", 'x = {"a": 1}', True),
    ("msg = 'n=%d' % n", 'msg = f"n={n}"', True),
    ("msg = 'n=' + str(n)", 'msg = f"n={n}"', True),
    ("call(a, b)", "call(\n    a,\n    b,\n)", True),
    ("hello", "hello again", False),
    ("timeout = 30", "timeout = 300", False),
])
def test_formatting_equivalence(line, head, present):
    assert FileText(head).has(line) is present


def test_removing_the_code_path_the_fix_lived_in_is_no_regression(tmp_path):
    """A later commit drops a whole Windows-only branch, the fix inside it with it: rewritten, not gone."""
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    commit(tmp_path, "init", {"term.py": "def prompt(text):\n    if WIN:\n        echo(text.rstrip())\n        return read(' ')\n    return read(text)\n"})
    fix = commit(tmp_path, "keep the last character", {"term.py": "def prompt(text):\n    if WIN:\n        echo(text[:-1])\n        return read(text[-1:])\n    return read(text)\n"})
    drop = commit(tmp_path, "remove colorama", {"term.py": "def prompt(text):\n    return read(text)\n"})
    result = judged(tmp_path, fix)
    assert result.outcome == REWRITTEN and result.by == drop and "code path it fixed no longer exists" in result.detail


def test_who_changed_a_fix_is_remembered_and_extended_from_the_last_tip(fixed, monkeypatch):
    """With a state directory, the walk over the fix's files is remembered: at a new HEAD only the
    commits since the last triage are read, and a newer change supersedes the remembered one."""
    import shutil

    root, fix = fixed
    (root / ".git" / "cc-hooks").mkdir()
    no_log = FIXED.replace("    log.debug('deleted rows from %s' % table)\n", "")
    partial = commit(root, "quieter deletes", {"db.py": no_log})
    assert judged(root, fix).by == partial
    tip = git(root, "rev-parse", "HEAD").strip()
    commit(root, "unrelated", {"README.md": "hello\n"})
    import cc_hooks.git as gitmod

    walks = []
    real = gitmod.run_git
    monkeypatch.setattr(gitmod, "run_git", lambda *a, **k: (walks.append(a) if "--topo-order" in a else None) or real(*a, **k))
    assert judged(root, fix).by == partial  # remembered, though no commit since the tip touched it
    assert len(walks) == 1 and f"^{tip}" in walks[0]  # only the commits since the last tip
    commit(root, "log deletes again", {"db.py": FIXED})
    drop = commit(root, "drop the delete log", {"db.py": no_log})
    result = judged(root, fix)
    assert result.outcome == GONE and result.by == drop
    shutil.rmtree(root / ".git" / "cc-hooks")
    assert judged(root, fix) == result  # the same as a walk of the whole history


def test_a_fix_whose_file_was_deleted_with_its_lines_is_gone_naming_the_deletion(fixed):
    """The file moved and was rewritten beyond rename detection, and none of the fix's lines is anywhere
    in HEAD: "rewritten" would claim a new form nobody can show; the commit that deleted it is named (issue 44)."""
    root, fix = fixed
    commit(root, "quieter deletes", {"db.py": FIXED.replace("    log.debug('deleted rows from %s' % table)\n", "")})
    git(root, "rm", "-q", "db.py")
    commit(root, "new storage layer", {"storage/sql.py": "class Store:\n    def remove(self, table, where):\n"
                                                         "        with self.conn:\n            self.conn.execute(table, where)\n"})
    result = judged(root, fix)
    assert result.outcome == GONE and "new storage layer" in result.detail and "deleted db.py" in result.detail


def test_a_fix_whose_file_was_deleted_but_whose_lines_moved_is_rewritten(fixed):
    root, fix = fixed
    git(root, "rm", "-q", "db.py")
    other = "".join(f"def helper_{i}(x):\n    return x + {i}\n\n" for i in range(40))  # too new for rename detection
    commit(root, "split the module", {"storage/sql.py": other + FIXED})
    result = judged(root, fix)
    assert result.outcome == REWRITTEN and "moved to storage/sql.py" in result.detail


def test_a_commit_taking_out_one_of_many_missing_lines_is_no_removal_of_the_fix(tmp_path):
    """Most of the fix's lines were reworked by other commits; the last one to touch the probe line
    took out that line alone: the fix was rewritten over time, not removed by that commit."""
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    commit(tmp_path, "init", {"cache.py": "def hit(stats):\n    return None\n"})
    fix = commit(tmp_path, "count cache hits", {"cache.py": "def hit(stats):\n    stats.inc('cache/hits')\n"
                                                            "    stats.inc('cache/lookups')\n    stats.flush_later()\n    return None\n"})
    commit(tmp_path, "new stats api", {"cache.py": "def hit(stats):\n    stats.inc('cache/hits')\n    stats.count('lookup')\n"
                                                   "    stats.schedule_flush()\n    return None\n"})
    last = commit(tmp_path, "hits are counted by the store", {"cache.py": "def hit(stats):\n    stats.count('lookup')\n"
                                                                         "    stats.schedule_flush()\n    return None\n"})
    result = judged(tmp_path, fix)
    assert result.outcome == REWRITTEN and result.by == last and "rewritten over time" in result.detail, result



def test_a_removed_line_written_again_elsewhere_while_the_fix_stands_is_no_regression(tmp_path):
    """The fix replaced `conn.rollback()` and everything it added still stands; a later feature writes
    `conn.rollback()` again in another function. The fix is not undone: no alarm."""
    root = tmp_path
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.com")
    git(root, "config", "user.name", "T")
    commit(root, "init", {"db.py": "def close(conn):\n    conn.rollback()\n    conn.close()\n"})
    fixed = "def close(conn):\n    if conn.in_transaction:\n        conn.commit()\n    conn.close()\n"
    fix = commit(root, "close keeps the transaction's work", {"db.py": fixed})
    later = commit(root, "add abort", {"db.py": fixed + "\n\ndef abort(conn):\n    conn.rollback()\n"})
    result = judged(root, fix)
    assert result.outcome == REWRITTEN and result.by == later, result
    assert "likely a regression" not in result.detail and "conn.rollback()" in result.detail
    undone = commit(root, "simplify close", {"db.py": "def close(conn):\n    conn.rollback()\n    conn.close()\n"
                                                      "\n\ndef abort(conn):\n    conn.rollback()\n"})
    assert (judged(root, fix).outcome, judged(root, fix).by) == (GONE, undone)  # the real undoing still alarms



def test_a_rework_that_writes_one_removed_line_among_new_code_is_rewritten_not_gone(tmp_path):
    """A refactor replaces the fixed function with new code that happens to contain the line the fix
    removed (`conn.rollback()`): more new code than restored code is a rework, not an undoing."""
    root = tmp_path
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.com")
    git(root, "config", "user.name", "T")
    commit(root, "init", {"db.py": "def close(conn):\n    conn.rollback()\n    conn.close()\n"})
    fix = commit(root, "close keeps the transaction's work",
                 {"db.py": "def close(conn):\n    if conn.in_transaction:\n        conn.commit()\n    conn.close()\n"})
    rework = commit(root, "close takes a keep flag", {"db.py": "def close(conn, keep=True):\n    if keep and conn.dirty:\n"
                                                               "        conn.flush()\n        conn.save_point()\n    else:\n"
                                                               "        conn.rollback()\n    conn.close()\n"})
    result = judged(root, fix)
    assert result.outcome == REWRITTEN and result.by == rework, result
    assert "likely a regression" not in result.detail and "conn.rollback()" in result.detail


def test_a_fix_its_remover_defined_again_in_another_file_moved_it(tmp_path: Path):
    """Issue 20 round 7 (Python-Markdown): 481e507 "Raw HTML parsing is no longer slow" took the
    ``unescape`` method a fix had added out of the postprocessor and defined it again in the inline
    pattern: "added nothing in their place: likely a regression" was a false alarm. A remover that
    writes unrelated code elsewhere, code with the same generic names (``self``, ``None``), or a
    ``close`` method of another class (review) still removed the fix."""
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    post = "class Raw:\n    def run(self, html):\n        return html\n"
    commit(tmp_path, "init", {"post.py": post, "inline.py": "class Pattern:\n    def handle(self, m):\n        return m\n"})
    fix = commit(tmp_path, "Unescape raw html", {"post.py": post.replace("        return html", "        html = self.unescape(html)\n        return html")
                                                 + "\n    def unescape(self, html):\n        for k, v in self.stashed_nodes.items():\n"
                                                   "            html = html.replace(k, v)\n        return html\n"})
    moved = commit(tmp_path, "Raw html parsing is no longer slow",
                   {"post.py": post, "inline.py": "class Pattern:\n    def handle(self, m):\n        return self.unescape(m)\n\n"
                                                  "    def unescape(self, text):\n        return PLACEHOLDER_RE.sub(self.stashed_nodes.get, text)\n"})
    result = judged(tmp_path, fix)
    assert result.outcome == REWRITTEN and result.by == moved, result
    assert "moved by" in result.detail and "`unescape` again in inline.py" in result.detail
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    git(other, "config", "user.email", "t@example.com")
    git(other, "config", "user.name", "T")
    commit(other, "init", {"post.py": post, "inline.py": "X = 1\n"})
    fix = commit(other, "Unescape raw html", {"post.py": post.replace("        return html", "        html = self.unescape(html)\n        return html")
                                              + "\n    def unescape(self, html):\n        return html.replace('a', 'b')\n"})
    removal = commit(other, "Speed up", {"post.py": post, "inline.py": "X = 2\nCACHE = {}\n"})
    result = judged(other, fix)
    assert result.outcome == GONE and result.by == removal and "likely a regression" in result.detail

    client = "class Client:\n    def request(self, url, timeout=None):\n        return self.send(url, timeout)\n"
    conn = "class Conn:\n    def send(self, data):\n        self.sock.sendall(data)\n"
    commit(other, "Add the client", {"client.py": client, "conn.py": conn})
    fixes = [commit(other, "Default the timeout", {"client.py": client.replace(
                 "        return self.send", "        if timeout is None:\n            timeout = self.default_timeout\n        return self.send")}),
             commit(other, "Close the socket on exit", {"conn.py": conn + "\n    def close(self):\n        self.sock.shutdown(2)\n        self.sock.close()\n"})]
    removals = [commit(other, "Refactor server", {"client.py": client, "server.py": "class Server:\n    def serve(self, sock, timeout=None):\n"
                                                  "        if sock is None:\n            return None\n        return self.handle(sock)\n"}),
                commit(other, "Add a pool", {"conn.py": conn, "pool.py": "class Pool:\n    def close(self):\n        self.items.clear()\n"})]
    for fix, removal in zip(fixes, removals):
        result = judged(other, fix)
        assert result.outcome == GONE and result.by == removal, result


def test_a_deleted_fix_whose_lines_another_file_happens_to_hold_is_gone_not_moved(tmp_path):
    """The handler the fix changed was deleted (a manifest bump beside it still exists); another handler
    has the same line: the deleting commit did not write it there, so it did not move."""
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    commit(tmp_path, "init", {"composer.json": '{"v": 1}\n', "src/Mandrill.php": "<?php\n$message->setDate(new \\DateTimeImmutable());\n",
                              "src/Swift.php": "<?php\n$message->setDate(time());\n"})
    fix = commit(tmp_path, "Fix Swift support for 6.0", {"composer.json": '{"v": 2}\n', "src/Swift.php": "<?php\n$message->setDate(new \\DateTimeImmutable());\n"})
    git(tmp_path, "rm", "-q", "src/Swift.php")
    remover = commit(tmp_path, "Remove the Swift handler", {"README.md": "no swift\n"})
    result = judge(tmp_path, fix, _patches(tmp_path, [fix], 30.0)[fix])
    assert result.outcome == GONE and result.by == remover, result


def test_a_file_moved_beyond_rename_detection_by_the_deleting_commit_is_rewritten_not_gone(tmp_path):
    """click's "move to src directory" deleted click/_termui_impl.py and wrote src/click/_termui_impl.py,
    rewritten since: the fix went on under its name; that its lines changed later is no removal."""
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    commit(tmp_path, "init", {"pkg/pager.py": "def pager(cmd):\n    run(cmd)\n"})
    fix = commit(tmp_path, "Ignore broken PAGER values", {"pkg/pager.py": "def pager(cmd):\n    if not cmd.strip():\n        return fallback()\n    run(cmd)\n"})
    git(tmp_path, "rm", "-q", "pkg/pager.py")
    commit(tmp_path, "move to src directory", {"src/pkg/pager.py": "".join(f"# header line {i}\n" for i in range(30))
                                                + "def pager(command: str) -> None:\n    if command.isspace() or not command:\n        return use_fallback()\n    run(command)\n"})
    result = judge(tmp_path, fix, _patches(tmp_path, [fix], 30.0)[fix])
    assert result.outcome == REWRITTEN and "moved pkg/pager.py to src/pkg/pager.py" in result.detail, result
