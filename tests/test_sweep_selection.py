"""What the sweeps read: tracked files and the files the session edited; never a dependency tree.

A virtualenv made by Python before 3.13 is not ignored by itself; node_modules often is not either.
Their markdown is somebody else's documentation and must not reach stale-claims or the audit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from checks.conftest import build_record_repo, check  # noqa: E402
from transcript.conftest import Synth  # noqa: E402

from cc_hooks.deptrees import DependencyTrees, sweepable  # noqa: E402

STALE_DOC = "# Notes\n\nThe parser lives in `src/parser.py`.\n"  # src/parser.py never existed: a stale claim


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


def findings(result) -> str:
    return "\n".join(str(f) for f in result.findings)


def venv(root: Path, rel: str) -> None:
    (root / rel).mkdir(parents=True, exist_ok=True)
    (root / rel / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = false\n")


# --- the rule -------------------------------------------------------------------------------


def test_dependency_trees_by_name_by_marker_and_not_otherwise(tmp_path):
    venv(tmp_path, "env")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "modules.txt").write_text("# golang.org/x/text v0.3.0\n")
    (tmp_path / "conda" / "conda-meta").mkdir(parents=True)
    trees = DependencyTrees(tmp_path)
    inside = [".venv/lib/python3.11/site-packages/cc_hooks/SKILL.md", ".venv-3.11/README.md", "node_modules/x/README.md",
              "web/node_modules/x/README.md", "env/lib/x/README.md", "lib/python3.11/site-packages/x/README.md",
              ".tox/py311/README.md", "vendor/golang.org/x/README.md", "vendor/bundle/ruby/README.md",
              "conda/lib/README.md", "__pypackages__/3.11/lib/x/README.md"]
    outside = ["README.md", "docs/venv.md", "venv/README.md", "vendor.md", "src/vendor/x.md", "target/doc/x.md",
               "docs/node_modules.md"]
    assert [p for p in inside if not trees.contains(p)] == []
    assert [p for p in outside if trees.contains(p)] == []
    assert trees.tree_of(".venv/lib/x.md") == ".venv" and trees.tree_of("env/lib/x/README.md") == "env"


def test_a_listed_pyvenv_cfg_marks_its_directory_without_the_disk(tmp_path):
    listed = ["tools/env/pyvenv.cfg", "tools/env/lib/README.md", "tools/README.md"]
    assert sweepable(tmp_path, listed, listed=listed) == ["tools/README.md"]


# --- stale-claims ---------------------------------------------------------------------------


def test_stale_claims_skips_the_venv_node_modules_and_untracked_docs_the_session_did_not_write(repo):
    venv(repo.root, ".venv")
    repo.write(".venv/lib/python3.11/site-packages/cc_hooks/agents/skills/rehydrate/SKILL.md", STALE_DOC)
    repo.write("node_modules/x/README.md", STALE_DOC)
    repo.write("scratch.md", STALE_DOC)  # untracked, unignored, not the session's
    result = check(repo, "stale-claims")
    assert result.status == "PASS", findings(result)
    assert "no touched docs" in result.summary


def test_stale_claims_reads_a_tracked_doc_changed_in_the_work_tree(repo):
    repo.write("docs/guide.md", "# Guide\n")
    repo.commit("Add a guide", "docs/guide.md")
    repo.write("docs/guide.md", STALE_DOC)
    result = check(repo, "stale-claims")
    assert result.status == "FAIL" and "docs/guide.md" in findings(result)


def test_stale_claims_skips_a_committed_dependency_tree(repo):
    venv(repo.root, "tools/env")
    repo.write("tools/env/README.md", "# env\n")
    repo.write("node_modules/x/README.md", "# x\n")
    repo.commit("Vendor a virtualenv and a package (it happens)")
    repo.write("tools/env/README.md", STALE_DOC)
    repo.write("node_modules/x/README.md", STALE_DOC)
    result = check(repo, "stale-claims")
    assert result.status == "PASS", findings(result)


def test_stale_claims_reads_an_untracked_doc_the_session_wrote_but_not_one_it_wrote_in_a_venv(repo, tmp_path):
    venv(repo.root, ".venv")
    repo.write("docs/plan.md", STALE_DOC)
    repo.write(".venv/notes.md", STALE_DOC)
    synth = Synth(cwd=str(repo.root))
    synth.user("write the plan")
    for rel in ("docs/plan.md", ".venv/notes.md"):
        synth.tool("Write", {"file_path": str(repo.root / rel), "content": STALE_DOC}, f"File created successfully at: {repo.root / rel}")
    transcript = synth.write(tmp_path / "session.jsonl")
    result = check(repo, "stale-claims", transcript=transcript)
    assert result.status == "FAIL" and "docs/plan.md" in findings(result)
    assert ".venv" not in findings(result)


# --- the audit's scans ----------------------------------------------------------------------


def audit(root):
    from cc_hooks.audit import run_audit
    from cc_hooks.config import load_config

    return run_audit(root, load_config(root), ())


def test_the_audits_stale_scan_skips_a_committed_dependency_tree(repo):
    repo.write("docs/old.md", "# Old\n")
    repo.commit("Add a doc")
    repo.git("rm", "-q", "docs/old.md")
    repo.commit("Remove the doc")
    pointer = "# Readme\n\nSee `docs/old.md`.\n"  # a pointer to a deleted file: stale in a doc of ours
    venv(repo.root, "tools/env")
    repo.write("tools/env/README.md", pointer)
    repo.write("node_modules/x/README.md", pointer)
    repo.commit("Vendor a virtualenv and a package")
    stale = [g.question.source for g in audit(repo.root).graded if g.question.kind == "stale"]
    assert stale == []
    repo.write("docs/guide.md", pointer)
    repo.commit("A doc of ours")
    stale = [g.question.source for g in audit(repo.root).graded if g.question.kind == "stale"]
    assert stale == ["docs/guide.md:3"]


def test_the_audits_oddity_and_answer_scans_skip_dependency_trees(repo):
    from cc_hooks.audit.questions import scan_oddities

    venv(repo.root, "tools/env")
    repo.write("tools/env/lib/x.py", "def f():\n    # HACK: do not remove, breaks on windows\n    return 1\n")
    repo.write("node_modules/x/index.py", "def g():\n    # HACK: do not remove, breaks on windows\n    return 1\n")
    repo.write("src/ours.py", "def h():\n    # HACK: do not remove, breaks on windows\n    return 1\n")
    repo.commit("Code, some of it vendored")
    assert {o.path for o in scan_oddities(repo.root)} == {"src/ours.py"}


def test_the_audit_does_not_take_an_untracked_venvs_docs_for_an_uncommitted_home(repo):
    from cc_hooks.audit.result import UNCOMMITTED

    question = "Why is the frobnicator pinned to version 3?"
    answer = "# Frob\n\nThe frobnicator is pinned to version 3 because version 4 drops the legacy socket.\n"
    venv(repo.root, ".venv")
    repo.write(".venv/lib/frob/README.md", answer)
    [graded] = [g for g in audit_with(repo.root, question).graded if g.question.kind == "caller"]
    assert UNCOMMITTED not in graded.flags and ".venv" not in (graded.where or "")
    repo.write("docs/frob.md", answer)  # the same text in a doc of ours, uncommitted: found, flagged
    [graded] = [g for g in audit_with(repo.root, question).graded if g.question.kind == "caller"]
    assert graded.flags == [UNCOMMITTED]


def audit_with(root, question):
    from cc_hooks.audit import run_audit
    from cc_hooks.config import load_config

    return run_audit(root, load_config(root), [question])


def test_a_vendoring_folder_with_a_vendor_manifest_is_a_dependency_tree(tmp_path):
    """Issue 20 (pip): ``src/pip/_vendor`` with its ``vendor.txt``; the name alone is not enough."""
    (tmp_path / "src" / "pkg" / "_vendor").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "_vendor" / "vendor.txt").write_text("six==1.16.0\n")
    (tmp_path / "third_party").mkdir()
    trees = DependencyTrees(tmp_path)
    assert trees.contains("src/pkg/_vendor/six.py") and not trees.contains("third_party/mine.py")
    listed = ["lib/vendored/vendor.json", "lib/vendored/x.md", "lib/x.md"]
    assert sweepable(tmp_path, listed, listed=listed) == ["lib/x.md"]


def test_a_vendoring_folder_with_the_dist_info_of_what_it_copied_is_a_dependency_tree(tmp_path):
    """Issue 20 (setuptools): ``setuptools/_vendor`` lists no ``vendor.txt``, only ``*.dist-info``."""
    listed = ["setuptools/_vendor/jaraco.text-4.0.0.dist-info/METADATA", "setuptools/_vendor/jaraco/text/__init__.py",
              "setuptools/dist.py", "pkg/vendor/x.py"]
    trees = DependencyTrees(tmp_path, listed)
    assert trees.contains("setuptools/_vendor/jaraco/text/__init__.py")
    assert not trees.contains("setuptools/dist.py") and not trees.contains("pkg/vendor/x.py")


def test_a_folder_with_its_own_license_and_no_manifest_is_a_copied_in_library(tmp_path):
    """Issue 20 (PyInstaller): ``bootloader/zlib`` carries zlib's LICENSE; a workspace member with its
    manifest, or a package shipping the project's own license, is the project's code."""
    (tmp_path / "LICENSE").write_text("MIT, the project\n")
    for folder, files in {"bootloader/zlib": {"LICENSE": "zlib license\n", "inflate.c": ""},
                          "packages/member": {"LICENSE": "Apache\n", "pyproject.toml": "[project]\n"},
                          "src/pkg": {"LICENSE": "MIT, the project\n", "core.py": ""}}.items():
        (tmp_path / folder).mkdir(parents=True)
        for name, text in files.items():
            (tmp_path / folder / name).write_text(text)
    listed = ["LICENSE", "bootloader/zlib/LICENSE", "bootloader/zlib/inflate.c", "packages/member/LICENSE",
              "packages/member/pyproject.toml", "src/pkg/LICENSE", "src/pkg/core.py"]
    trees = DependencyTrees(tmp_path, listed)
    assert trees.contains("bootloader/zlib/inflate.c")
    assert not trees.contains("packages/member/x.py") and not trees.contains("src/pkg/core.py")


def test_a_license_rule_never_hides_docs_a_crlf_copy_or_marks_without_the_projects_license(tmp_path):
    """Review of the rule above: the docs' own CC-BY license, a copy of the project's license with CRLF
    line ends, a project whose license has another name (LICENSE-MIT is found), and a venv marker
    beside a license are each left as they were."""
    (tmp_path / "LICENSE-MIT").write_text("MIT, the project\n")
    files = {"docs/LICENSE": "CC-BY\n", "src/pkg/LICENSE": "MIT, the project\r\n", "vendor/lib/LICENSE": "BSD\n",
             "env/pyvenv.cfg": "home = /usr\n", "env/LICENSE": "MIT, the project\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(text.encode())
    trees = DependencyTrees(tmp_path, ["LICENSE-MIT", *files])
    assert not trees.contains("docs/guide.md") and not trees.contains("src/pkg/core.py")
    assert trees.contains("vendor/lib/x.c") and trees.contains("env/lib/x.md")
    (tmp_path / "LICENSE-MIT").unlink()
    assert not DependencyTrees(tmp_path, list(files)).contains("vendor/lib/x.c")  # the project's license unknown


def test_a_project_copied_into_deps_and_a_folder_named_by_a_version_are_other_peoples_code(tmp_path):
    """Issue 20 round 6 (gevent): the audit asked about 14 hacks and skips of ``deps/c-ares`` (c-ares,
    with its own ``configure.ac``, no license file) and of ``src/greentest/3.12`` (copies of CPython's
    tests); all were labeled noise. The project's own code beside them, a package in ``external/``
    with its own manifest, and folders named by a version outside a test tree or a copied standard
    library (``schemas/2.0``, ``docker/3.12``, a docs version) stay the project's (review)."""
    listed = ["deps/c-ares/configure.ac", "deps/c-ares/src/lib/ares.c", "deps/cares-make.patch", "src/greentest/3.12/test_socket.py",
              "src/greentest/test_own.py", "packages/own/pyproject.toml", "packages/own/core.py", "docs/3.12/index.md",
              "src/pkg/v1.2/api.py", "src/app/schemas/2.0/order.json", "docker/3.12/Dockerfile", "external/ownplugin/pyproject.toml",
              "external/ownplugin/core.py", "lib-python/2.7/os.py"]
    trees = DependencyTrees(tmp_path, listed)
    assert [p for p in listed if trees.contains(p)] == ["deps/c-ares/configure.ac", "deps/c-ares/src/lib/ares.c",
                                                        "src/greentest/3.12/test_socket.py", "lib-python/2.7/os.py"]


def test_a_folder_named_by_a_project_and_its_release_is_that_release_unpacked(tmp_path):
    """Issue 20 round 11 (Nuitka): 11 hacks of ``nuitka/build/inline_copy/lib/scons-2.3.2`` (and
    ``scons-3.1.2``, ``scons-4.10.1``), SCons' own code copied in release by release, were asked; all
    were labeled noise. A version folder without a project name, a name with a dash and no release
    number, a target interpreter's folder (``python-3.12``) and a release-named folder in the docs stay the project's."""
    listed = ["nuitka/build/inline_copy/lib/scons-2.3.2/SCons/Conftest.py", "nuitka/build/inline_copy/lib/scons-4.10.1/SCons/Tool/cc.py",
              "vendor-libs/jinja2-2.11.3rc1/jinja2/lexer.py", "nuitka/build/inline_copy/bin/scons.py", "src/pkg/v1.2/api.py",
              "src/python-compat/shim.py", "docs/tutorial-1.0/step.py", "tools/python-3.12/check.py"]
    trees = DependencyTrees(tmp_path, listed)
    assert [p for p in listed if trees.contains(p)] == ["nuitka/build/inline_copy/lib/scons-2.3.2/SCons/Conftest.py",
                                                        "nuitka/build/inline_copy/lib/scons-4.10.1/SCons/Tool/cc.py",
                                                        "vendor-libs/jinja2-2.11.3rc1/jinja2/lexer.py"]


def test_a_project_copied_into_a_vendor_folder_with_its_readme_is_upstreams(tmp_path):
    """Issue 20 round 12 (OctoPrint): ``src/octoprint/vendor/sockjs/`` holds sockjs-tornado with its
    README.txt; its hacks were asked and labeled noise. A ``vendor/`` folder of the project's own code
    without such a README (chalice's) stays the project's."""
    listed = ["src/octoprint/vendor/sockjs/README.txt", "src/octoprint/vendor/sockjs/tornado/static.py",
              "chalice/vendor/app.py", "chalice/vendor/lib/helpers.py"]
    trees = DependencyTrees(tmp_path, listed)
    assert [p for p in listed if trees.contains(p)] == ["src/octoprint/vendor/sockjs/README.txt",
                                                        "src/octoprint/vendor/sockjs/tornado/static.py"]
