"""Heading anchors in reStructuredText and AsciiDoc files resolve as markdown's do (real repo)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cc_hooks.record.questions import FAIL, PASS, resolve_pointers

RST = """Contributing
============

Release process
---------------

.. _testing-guide:

Running the tests
~~~~~~~~~~~~~~~~~

Café & Ünïcode!
===============
"""
ADOC = """= User Guide

[[custom-id]]
== Release Process

[#other]
=== Running the Tests
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("anchors")
    for args in (["init", "-q", "-b", "main"], ["config", "user.email", "t@example.com"], ["config", "user.name", "T"]):
        subprocess.run(["git", "-C", str(root), *args], check=True)
    (root / "docs").mkdir()
    (root / "docs/contributing.rst").write_text(RST)
    (root / "docs/guide.adoc").write_text(ADOC)
    (root / "notes.txt").write_text("Title\n=====\n")
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "docs"], check=True)
    return root


@pytest.mark.parametrize("pointer", [
    "docs/contributing.rst#release-process",
    "docs/contributing.rst#contributing",
    "docs/contributing.rst#running-the-tests",
    "docs/contributing.rst#testing-guide",
    "docs/contributing.rst#cafe-unicode",
    "docs/guide.adoc#_release_process",
    "docs/guide.adoc#release-process",
    "docs/guide.adoc#custom-id",
    "docs/guide.adoc#other",
    "docs/guide.adoc#_running_the_tests",
])
def test_sections_resolve(repo, pointer):
    result = resolve_pointers(repo, [pointer])[pointer]
    assert (result.grade, result.reason) == (PASS, "heading exists at HEAD")


@pytest.mark.parametrize("pointer, reason", [
    ("docs/contributing.rst#release", "did you mean `#release-process`"),
    ("docs/guide.adoc#no-such-section", "no heading with the anchor"),
    ("notes.txt#title", "resolve only in markdown, reStructuredText and AsciiDoc"),
])
def test_missing_sections_fail(repo, pointer, reason):
    result = resolve_pointers(repo, [pointer])[pointer]
    assert result.grade == FAIL and reason in result.reason
