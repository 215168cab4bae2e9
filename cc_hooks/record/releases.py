"""The releases a report says have the bug ("since 3.5.0", "after upgrading to peewee 4.0.8"): a
commit such a release already holds shipped with the bug, so it is not the fix.

A version counts only when this repository has a tag of it (``v3.5.0``, ``3.5.0``, ``redis-py-3.5.0``,
SQLAlchemy's ``rel_3_5_0``;
"4.0" is ``4.0`` or ``4.0.0``), and not after the name of a platform or protocol ("Python 3.11",
"TLS 1.2") or after "fixed in". Git processes: one ``for-each-ref`` of the tags, only when the report
names a version, and one ``rev-list`` of the named tags' history back to the oldest candidate.
"""

from __future__ import annotations

import re

_VERSION_RE = re.compile(r"(?<![\w./\\-])v?(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+)?)(?![\w-]|\.\d)")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z][\w-]*)\s*$")
# what names another program's version, not this project's: "Python 3.11", "on Ubuntu 22.04", "TLS 1.2"
_OTHER_PROGRAMS = frozenset(
    "python python3 py pypy cpython pip setuptools node nodejs npm java go rust gcc clang ruby perl php ubuntu debian centos rhel "
    "fedora alpine windows macos osx ios android linux kernel glibc openssl libressl tls ssl http https tlsv1 utf unicode rfc "
    "sqlite sqlite3 postgres postgresql mysql mariadb redis valkey mongodb django chrome firefox safari".split())
_FIXED_IN_RE = re.compile(r"\bfix(?:ed|es)?\s+(?:in|by|with)\s+(?:version\s+)?$", re.I)
_TAG_VERSION_RE = re.compile(r"^(?:\D*[-_/])?v?(\d+(?:[._]\d+)+(?:(?:a|b|rc)\d+)?)$")  # v3.5.0, redis-py-3.5.0, rel_1_16_0


def named_versions(text: str) -> list[str]:
    """The versions ``text`` names as this project's ("3.5.0", "4.0"), in order, once each."""
    found = []
    for m in _VERSION_RE.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()]
        word = _WORD_BEFORE_RE.search(before)
        if (word and word.group(1).lower() in _OTHER_PROGRAMS) or _FIXED_IN_RE.search(before):
            continue
        found.append(m.group(1))
    return list(dict.fromkeys(found))


def tags_of(root, versions: list[str], timeout: float) -> list[str]:
    """The tags of ``versions`` (one ``for-each-ref``); "4.0" is also ``4.0.0``."""
    from cc_hooks.git import run_git

    wanted = {v: v for v in versions} | {f"{v}.0": v for v in versions if v.count(".") == 1}
    tags = run_git(root, "for-each-ref", "--format=%(refname:short)", "refs/tags", check=False, timeout=timeout).split()
    return [tag for tag in tags if (m := _TAG_VERSION_RE.match(tag)) and m.group(1).replace("_", ".") in wanted]


def shipped_in(root, tags: list[str], since: str, timeout: float) -> set[str]:
    """The commits the ``tags`` hold, back to ``since`` (an ISO date: the oldest candidate's, less a
    month for commits whose author date precedes their commit date)."""
    from cc_hooks.git import run_git

    if not tags:
        return set()
    return set(run_git(root, "rev-list", f"--since={since}", *(f"refs/tags/{t}^{{commit}}" for t in tags), "--",
                       check=False, timeout=timeout).split())
