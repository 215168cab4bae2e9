"""The release a report says brought the bug ("since 3.5.0", "after upgrading to peewee 4.0.8"): a
commit new in that release shipped with the bug, so it is more likely its cause than its fix.

Only the newest version the report names counts ("from 3.17.8 to 4.0.5": 4.0.5 broke it), and only
the commits new in it (since the tag before it on its line): an older fix of the same symptom, which a
regression undid, is no cause and keeps its rank. A version counts when this repository has a tag of
it (``v3.5.0``, ``3.5.0``, ``redis-py-3.5.0``, SQLAlchemy's ``rel_3_5_0``; "4.0" is ``4.0`` or
``4.0.0``), not after another program's name ("Python 3.11", "Python version: 3.12", "python==3.11",
"Ubuntu 22.04 and 24.04", "TLS 1.2"), not as a quantity ("1.5 seconds", ``sleep(0.5)``, ``timeout=1.5``)
and not where the report says it fixed the bug ("fixed in 2.1", "upgrading to 2.1 fixed it", "works
again in 2.1"). Git processes, only when the report names a version: one ``for-each-ref`` of the tags,
one ``describe`` and one ``rev-list``.
"""

from __future__ import annotations

import re

_VERSION_RE = re.compile(r"(?<![\w./\\=(-])v?(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+)?)(?![\w-]|\.\d)")
# what names another program's version, not this project's: "Python 3.11", "on Ubuntu 22.04", "TLS 1.2"
_OTHER_PROGRAMS = frozenset(
    "python python3 py pypy cpython pip setuptools node nodejs npm java go rust gcc clang ruby perl php ubuntu debian centos rhel "
    "fedora alpine windows macos osx ios android linux kernel glibc openssl libressl tls ssl http https tlsv1 utf unicode rfc "
    "sqlite sqlite3 postgres postgresql mysql mariadb redis valkey mongodb django numpy pandas chrome firefox safari".split())
# the word naming whose version it is, past what joins a name to its version: "Python version: 3.12",
# "Python 3.10 and 3.11", "python==3.11"
_WORDS_BEFORE_RE = re.compile(r"([A-Za-z][\w-]*)(?:\W+(?:version|v|\d+(?:\.\d+)+)){0,2}(?:\s*(?:and|or|to|,|/))?[\s:=]*\Z", re.I)
_QUANTITY_RE = re.compile(r"\s*(?:s|ms|us|ns|secs?|seconds?|mins?|minutes?|h|hours?|days?|%|x|times|[kmg]i?b|px|em)\b", re.I)
_FIXED_BEFORE_RE = re.compile(r"\b(?:fix(?:ed|es)?|works?\s+(?:again|fine|now)|working\s+again|resolved|solved)\s*(?:in|by|with|on)?\s*"
                              r"(?:version\s+)?:?\s*\Z", re.I)
_FIXED_AFTER_RE = re.compile(r"^\s*(?:fix(?:ed|es)|solve[sd]|resolve[sd])\b", re.I)
_TAG_VERSION_RE = re.compile(r"^(?:\D*[-_/])?v?(\d+(?:[._]\d+)+(?:(?:a|b|rc)\d+)?)$")  # v3.5.0, redis-py-3.5.0, rel_1_16_0


def named_versions(text: str) -> list[str]:
    """The versions ``text`` names as this project's releases with the bug ("3.5.0", "4.0"), in order, once each."""
    found = []
    for m in _VERSION_RE.finditer(text):
        before, after = text[max(0, m.start() - 40) : m.start()], text[m.end() : m.end() + 20]
        word = _WORDS_BEFORE_RE.search(before)
        if (word and word.group(1).lower() in _OTHER_PROGRAMS) or _QUANTITY_RE.match(after) \
                or _FIXED_BEFORE_RE.search(before) or _FIXED_AFTER_RE.match(after):
            continue
        found.append(m.group(1))
    return list(dict.fromkeys(found))


def newest(versions: list[str]) -> str:
    """The newest of ``versions`` ("4.0.5" of "3.17.8" and "4.0.5")."""
    return max(versions, key=lambda v: [int(n) for n in re.findall(r"\d+", v)])


def tags_of(root, versions: list[str], timeout: float) -> list[str]:
    """The tags of ``versions`` (one ``for-each-ref``); "4.0" is also ``4.0.0``. Only tags of commits."""
    from cc_hooks.git import run_git

    wanted = {v: v for v in versions} | {f"{v}.0": v for v in versions if v.count(".") == 1}
    listed = run_git(root, "for-each-ref", "--format=%(refname:lstrip=2)%00%(*objecttype)%(objecttype)", "refs/tags",
                     check=False, timeout=timeout).splitlines()
    tags = [name for name, _, kind in (line.partition("\0") for line in listed) if kind.startswith("commit")]
    return [tag for tag in tags if (m := _TAG_VERSION_RE.match(tag)) and m.group(1).replace("_", ".") in wanted]


def new_in(root, tag: str, timeout: float) -> set[str]:
    """The commits ``tag`` holds that the tag before it on its line does not (one ``describe``, one
    ``rev-list``); every commit it holds when it is the first."""
    from cc_hooks.git import run_git

    ref = f"refs/tags/{tag}"
    previous = run_git(root, "describe", "--tags", "--abbrev=0", f"{ref}^", check=False, timeout=timeout).strip()
    return set(run_git(root, "rev-list", ref, *((f"^refs/tags/{previous}",) if previous else ()), "--",
                       check=False, timeout=timeout).split())
