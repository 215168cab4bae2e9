"""Issue 20: stale-doc questions on real projects were 0/34 meaningful (release notes naming files
deleted long ago, reST targets and code blocks read as plan sections, "onto pre-determined" read as
a branch, the reader's own ``setup.py``). Each test keeps a control that is still stale."""

from __future__ import annotations

from cc_hooks.audit.result import STALE
from cc_hooks.audit.stale import rst_prose

from audit.conftest import TODAY, audit, by_kind

OLD_TOOL = "tools/github_stats.py"


def _with_a_deleted_tool(project):
    project.write(OLD_TOOL, "print('stats')\n")
    project.commit("Add the stats tool")
    project.git("rm", "-q", OLD_TOOL)
    project.commit("Remove the stats tool")


def _stale(project) -> list[str]:
    return [s.question.source for s in by_kind(audit(project), STALE)]


def _asked(project, path: str, lines: list[str]) -> list[str]:
    """The stale questions once the doc ``path`` holds ``lines``."""
    project.write(path, "\n".join(lines) + "\n")
    project.commit(f"Document {path}")
    return _stale(project)


def test_historical_documents_naming_deleted_files_are_not_stale(project):
    _with_a_deleted_tool(project)
    line = f"The full list was generated with the script `{OLD_TOOL}`.\n"
    for rel in ("docs/source/whatsnew/github-stats-1.0.rst", "docs/source/whatsnew/version0.12.rst",
                "docs/release-notes.md", "sep/sep-014.rst", "docs/changes/1.2.md"):
        project.write(rel, "Title\n=====\n\n" + line)
    project.write("docs/guide.md", "# Guide\n\n" + line)  # a guide speaks of HEAD: still stale
    project.commit("Add the docs")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/guide.md:3"]


def test_rst_targets_directives_and_code_blocks_are_not_plan_sections(project):
    project.write("src/pqueues.py", "class DownloaderAwarePriorityQueue:\n    pass\n")
    project.commit("Add the priority queue used by the scheduler")  # words a misread plan item would match
    project.write("docs/settings.rst", "\n".join([
        "Settings", "========", "",
        ".. setting:: SCHEDULER_PRIORITY_QUEUE",
        ".. _broad-crawls-scheduler-priority-queue:", "",
        "SCHEDULER_PRIORITY_QUEUE", "------------------------", "",
        "Default: :class:`~pqueues.DownloaderAwarePriorityQueue`", "",
        "Type of priority queue used by the scheduler.", "",
        ".. code-block:: python", "",
        "    def get_token(q: multiprocessing.Queue) -> None:",
        "        @Request.application",
        "        def app(request): ...", "",
        "A literal block::", "",
        "    # TODO: filter valid urls here?",
        "    processed = (req for req in requests)", "",
        "Queue example", "-------------", "",
        "A priority queue used by the scheduler orders requests.", "",
    ]) + "\n")
    project.commit("Document the settings")
    assert by_kind(audit(project), STALE) == []
    project.write("docs/plan.rst", f"Plan\n====\n\nNext steps\n----------\n\n- {TODAY} — Add a multiply function ``mul()`` to the calculator.\n")
    project.commit("Plan the multiply function")
    project.write("src/calc.py", project.read("src/calc.py") + "\n\ndef mul(a, b):\n    return a * b\n")
    project.commit("Add a multiply function mul() to the calculator")
    [stale] = by_kind(audit(project), STALE)  # an underlined "Next steps" title is a plan section
    assert stale.question.source == "docs/plan.rst:7" and "landed" in stale.remediation


def test_rst_prose_keeps_line_numbers_and_titles():
    text = "Title\n=====\n\n.. note::\n\n   Kept prose.\n\nCode::\n\n    x = 1\n\nAfter.\n"
    prose = rst_prose(text).split("\n")
    assert len(prose) == len(text.split("\n"))
    assert prose[0] == "# Title" and prose[5] == "   Kept prose." and prose[7] == "Code:" and prose[9] == "" and prose[11] == "After."


def test_a_file_of_the_readers_project_is_not_this_repositorys(project):
    project.write("setup.py", "from setuptools import setup\nsetup()\n")
    project.commit("Add setup.py")
    project.git("rm", "-q", "setup.py")
    project.write("docs/development/commands.md", "# Commands\n\nAdd a ``scrapy.commands`` section in the entry points of the library ``setup.py`` file.\n\n"
                  "Put it in your `setup.py`.\n\nOur own build reads `setup.py`.\n")
    project.commit("Document commands")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/development/commands.md:7"]


def test_onto_in_prose_is_no_branch(project):
    project.write("docs/transports.md", "# Mock transports\n\nA handler can map requests onto pre-determined responses.\n\n"
                  "The work was rebased onto `fix-login`.\n")
    project.commit("Document transports")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/transports.md:5"]


def test_reading_lists_placeholders_labels_and_example_intros_are_no_claims(project):
    """Issue 20 (gunicorn, urllib3, requests): a "Next Steps" list of links is where to read next;
    ``release-X.Y.Z`` is a placeholder; a Stack Overflow tag is no git tag; a sentence introducing an
    example ("to do a total of 3 retries:") opens no plan; a dated news page is history."""
    _with_a_deleted_tool(project)
    project.write("src/calc.py", project.read("src/calc.py") + "\n\ndef configure():\n    return {}\n")
    project.commit("Add configuration options to the calculator")  # what a misread "Configure" item would match
    project.write("docs/install.md", "# Install\n\n## Next Steps\n\n- [Configure](configure.md) - Configuration options\n")
    project.write("docs/configure.md", "# Configure\n")
    project.write("docs/release.rst", "Release\n=======\n\n- Commit the changes to a ``release-X.Y.Z`` branch.\n\n"
                  "Ask on Stack Overflow and use the tag ``python-calc``.\n\n"
                  "For example, to do a total of 3 retries:\n\nThe retries are added to the calculator configuration.\n")
    project.write("docs/content/2010-news.md", f"# News\n\nThe stats come from `{OLD_TOOL}`.\n")
    project.write("docs/tags.md", "# Tags\n\nThe release tag ``v9.9`` marks the last version.\n")  # a claimed tag: still checked
    project.commit("Add the docs")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/tags.md:3"]


def _deleted(project, *rels):
    for rel in rels:
        project.write(rel, "old\n")
    project.commit("Add " + ", ".join(rels))
    project.git("rm", "-q", *rels)
    project.commit("Remove " + ", ".join(rels))


def test_sphinx_doc_links_that_resolve_are_no_claims(project):
    """Issue 20 (marshmallow, pip): ":doc:`Extending Schemas <extending>`" under "Next steps" was a
    plan item "landed" by a commit about the extending docs: a false CONTRADICTED. A page that
    resolves (relative, without suffix, or absolute from the docs root) is no claim; an intersphinx
    ``prefix:page`` is another project's; a link to a page this repository deleted is stale."""
    _deleted(project, "docs/old-api.rst")
    project.write("docs/conf.py", "project = 'calc'\n")
    project.write("docs/extending.rst", "Extending\n=========\n")
    project.write("docs/guide/usage.rst", "Usage\n=====\n")
    project.commit("Add the extending docs and the usage page")  # the words a misread plan item would match
    project.write("docs/guide/quickstart.rst", "\n".join([
        "Quickstart", "==========", "", "Next steps", "----------", "",
        "- See the :doc:`Usage <usage>` page.",
        "- Read :doc:`/extending` for the extending docs.",
        "- The usage page is covered in the :doc:`Usage <usage>`",
        "  tutorial on the extending docs.", "",
    ]) + "\n")
    project.write("docs/guide/more.md", "# More\n\n## Next Steps\n\nThis is covered in the {doc}`Installing <pypug:tutorials/installing>`\n"
                  "tutorial on the extending docs.\n")
    project.write("docs/api.rst", "API\n===\n\nThe old calls are described in :doc:`old-api`.\n")  # deleted: still stale
    project.write("docs/plan.rst", f"Plan\n====\n\nNext steps\n----------\n\n- {TODAY} — Document :class:`Calc` in the API page.\n")
    project.commit("Add the guide")
    project.write("src/calc.py", project.read("src/calc.py") + "\n\nclass Calc:\n    pass\n")
    project.commit("Document Calc in the API page")  # an API role in a plan item: the plan landed, still stale
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/api.rst:4", "docs/plan.rst:7"]


def test_a_conventional_file_named_without_its_suffix_is_not_stale(project):
    """Issue 20 (celery, pip): ":file:`README`" where the file is now ``README.rst`` (a ``README``
    was deleted once) was CONTRADICTED."""
    _deleted(project, "README", "AUTHORS")
    project.write("README.rst", "Calc\n====\n")
    project.commit("Add README.rst")
    project.write("docs/contributing.rst", "Contributing\n============\n\nAfter a release, regenerate the :file:`README` file.\n\n"
                  "Credit yourself in ``AUTHORS``.\n")  # no AUTHORS.* at all: still stale
    project.commit("Add the contributing guide")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/contributing.rst:6"]


def test_a_file_name_the_product_reads_names_the_readers_file(project):
    """Issue 20 (tox): the docs name ``tox.ini`` as the user's config format; the repository's own
    ``tox.ini`` was deleted long ago. A bare name the product's code names as a string is the
    reader's file; one the code never names is still this repository's."""
    _deleted(project, "calc.ini", "build.cfg")
    project.write("src/config.py", 'from pathlib import Path\n\n\ndef load(root):\n    return (Path(root) / "calc.ini").read_text()\n')
    project.commit("Read calc.ini")
    project.write("docs/development/config.rst", "Config\n======\n\nPlace your settings in ``calc.ini``.\n\n"
                  "Given a ``calc.ini`` with two keys, the output is short.\n\nOur build is configured in ``build.cfg``.\n")
    project.commit("Document the configuration")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/development/config.rst:8"]


def test_example_and_readers_branches_are_not_this_repositorys(project):
    """Issue 20 (celery, pip, rich): "for example, use / the ``2.4`` branch", "your local main branch
    up-to-date", "your ``origin`` branch", "when the HTML is merged into ``main``, ..." are examples,
    the reader's clone and a condition; a doc stating a branch's state ("the ``app`` branch is a
    work-in-progress", "was merged into ``release-2``") is still checked."""
    _deleted(project, "tools/old.py")
    project.write("docs/release.rst", "\n".join([
        "Release", "=======", "",
        "Change the default branch to the branch of this series, for example, use",
        "the ``2.4`` branch for the 2.4 series.", "",
        "As you work, you might need to update your local main branch up-to-date with",
        "the upstream repository.", "",
        "Force pushing updates your ``origin`` branch.", "",
        "The ``app`` branch is a work-in-progress.", "",
        "Scripts such as ``tools/old.py`` cut the release.", "",  # 14: a path given as an example is still ours
        "When the HTML is merged into ``gh-pages``, the dashboard updates.", "",  # a condition, not a state
        "The fix was merged into ``release-2``.", "",  # 18: a state, still checked
    ]) + "\n")
    project.commit("Document the release")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == [
        "docs/release.rst:12", "docs/release.rst:14", "docs/release.rst:18"]


def test_general_files_patches_reader_questions_and_lint_codes_are_no_claims(project):
    """Issue 20 (black, pyramid): "usually in ``setup.py``", "replace the need for ``setup.py``", a pasted
    patch's "index b0e4d79..b3bd82a", "Tried out Black?" under Next steps and ``E203`` (a lint code)
    were stale FAILs; "The ``setup.py`` script builds the wheel." still is one."""
    _deleted(project, "setup.py", "setup.cfg")
    blob = project.git("rev-parse", "HEAD~1:setup.py").strip()[:7]
    project.write("docs/development/guide.md", "\n".join([
        "# Guide", "",
        "An entry point is defined in a distribution (usually in `setup.py` or `setup.cfg`).", "",  # 3: in general
        "With Hatch it can fully replace the need for `setup.py` and `setup.cfg`.", "",  # 5: not needed
        "Since `E203` is not PEP 8 compliant, tell Flake8 to ignore it.", "",  # 7: a lint code
        "The `setup.py` script builds the wheel.", "",  # 9: this repository's file, deleted: stale
        "```diff", f"index {blob}..{blob} 100644", "```", "",  # 12: a pasted patch
        "## Next steps", "",
        "- Tried out the tool?", "",  # 16: a question to the reader
    ]) + "\n")
    project.commit("Document the guide")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/development/guide.md:9"]


def test_in_sync_with_names_a_branch_only_when_it_looks_like_one(project):
    """Issue 20 (poetry): "the project's environment is in sync with the ``poetry.lock`` file" read as a
    branch claim ("no branch named environment"); "`feature` is in sync with `main`" is still one."""
    project.write("docs/sync.md", "# Sync\n\nThe `sync` command makes sure that the project's environment is in sync with the `poetry.lock` file.\n\n"
                  "The `feature` branch is in sync with `main`.\n")
    project.commit("Document sync")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/sync.md:5"]


def test_archived_pages_fragments_file_kinds_other_repositories_and_repeats_are_no_new_questions(project):
    """Issue 20 (setuptools, multidict, PyInstaller): a deprecated feature's archived pages, a news
    fragment's example name, Sphinx's :file:`Makefile` (a kind of file), a branch of a repository
    the sentence links to, a reST ``..`` comment, and a second mention of the same missing file in
    one passage were stale FAILs; this repository's deleted ``.travis.yml`` still is one, once."""
    _deleted(project, ".travis.yml", "Makefile", "CHANGES/1284.bugfix.rst", "docs/old.rst")
    project.write("docs/deprecated/distutils/apiref.rst", "API\n===\n\nThe CI runs ``.travis.yml``.\n")
    project.write("docs/development/guide.rst", "\n".join([
        "Guide", "=====", "",
        "Name a news fragment after its issue: ``CHANGES/1284.bugfix.rst`` for a fix.", "",  # 4
        "The values are stored in Python's :file:`Makefile`.", "",  # 6: a kind of file
        "This directory is maintained in https://github.com/pypa/distutils, and merged into ``distutils``.", "",  # 8
        "..", "   Later: the ``.travis.yml`` file runs the slow tests.", "",  # 10-11: a comment
        "The Linux tests are run on Travis; see the apt packages", "of ``.travis.yml``.", "",  # 13-14: stale
        "Travis installs them in the ``install:`` section", "of ``.travis.yml``.", "",  # 16-17: the same question
    ]) + "\n")
    project.commit("Document the guide")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/development/guide.rst:14"]


def test_a_file_of_the_readers_project_named_anywhere_in_the_sentence_is_the_readers(project):
    """Issue 20 round 5 (dask, pytest-xdist): "If your project already uses ``setuptools`` with a
    ``setup.cfg``", "In a ``tox.ini`` ... in your root project directory", "For a fictitious library ...
    the necessary ``setup.cfg``" were stale FAILs; "This repository's ``setup.cfg`` pins flake8." is one."""
    _deleted(project, "setup.cfg", "tox.ini")
    project.write("docs/cli.rst", "\n".join([
        "CLI", "===", "",
        "If your project already uses ``setuptools`` with a ``setup.cfg`` file, add an entry point.", "",  # 4
        "In a ``tox.ini`` file in your root project directory you may list directories.", "",  # 6
        "For a fictitious library ``numpy_sizeof.py``, the necessary ``setup.cfg`` is as follows.", "",  # 8
        "This repository's ``setup.cfg`` pins flake8.", "",  # 10: stale
        "Copy our ``tox.ini`` into your project.", "",  # 12: this repository's file, for the reader: stale
    ]) + "\n")
    project.commit("Document the CLI")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/cli.rst:10", "docs/cli.rst:12"]


def test_a_bare_file_name_in_a_user_guide_is_the_readers_in_a_contributor_page_this_repositorys(project):
    """Issue 20 (tox, dask, pytest-xdist): user guides name ``tox.ini`` and ``setup.cfg`` as the
    reader's files ("Here we demonstrate with a ``tox.ini`` file"); 20 such stale FAILs were labeled
    noise, none meaningful. The same bare name in a contributor page or in a README beside the code
    (PyInstaller's ``tests/README.md`` on its removed ``.travis.yml``) is this repository's file; a path
    with a folder is this repository's anywhere."""
    _deleted(project, "tox.ini", "setup.cfg", ".travis.yml", "docs/source/settings.rst")
    project.write("docs/reference/config.rst", "Config\n======\n\nHere we demonstrate with a ``tox.ini`` file.\n\n"
                  "The necessary ``setup.cfg`` is as follows.\n\nThe options are listed in ``docs/source/settings.rst``.\n")
    project.write("CONTRIBUTING.md", "# Contributing\n\nRun the linters configured in `tox.ini`.\n")
    project.write("tests/README.md", "# Tests\n\nThe Linux jobs are defined in `.travis.yml`.\n")
    project.write("docs/development/release.md", "# Releasing\n\nBump the version in `setup.cfg`.\n")
    project.commit("Document the configuration")
    assert sorted(s.question.source for s in by_kind(audit(project), STALE)) == [
        "CONTRIBUTING.md:3", "docs/development/release.md:3", "docs/reference/config.rst:8", "tests/README.md:3"]


def test_a_user_guide_running_this_repositorys_file_names_this_repositorys_file(project):
    """Review of the rule above: "The wheel is built by running python ``setup.py``" in a user guide runs the
    checkout's own ``setup.py``: deleted, it is stale."""
    _deleted(project, "setup.py")
    project.write("docs/install.rst", "Install\n=======\n\nThe wheel is built by running python ``setup.py`` in the checkout.\n")
    project.commit("Document the install")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/install.rst:4"]


def test_a_toctrees_entries_and_options_are_pages_not_claims(project):
    """Issue 20 round 7 (nltk): a ``toctree`` under "Next Steps" listed pages (``API Reference <api/nltk>``,
    external links) and ``:caption:``; each was read as a plan item a commit had "landed": five stale
    FAILs, all noise. A deleted file named after the directive is still a question."""
    _deleted(project, "src/old_tok.py")
    project.write("src/vocab.py", "def lookup():\n    pass\n")
    project.commit("Removed example usage from the API reference of the vocabulary")  # words the entries share
    project.write("docs/index.rst", "\n".join([
        "NLTK", "====", "",
        "Next Steps", "----------", "",
        ".. toctree::", "   :maxdepth: 1", "   :caption: NLTK Documentation", "",
        "   API Reference <api/nltk>", "   Example Usage <howto>", "   Wiki <https://github.com/nltk/nltk/wiki>", "",
        "Layout", "------", "",
        "The tokenizer lives in ``src/old_tok.py``.", "",  # 18: stale
    ]) + "\n")
    project.commit("Add the index")
    assert rst_prose((project.root / "docs/index.rst").read_text()).split("\n")[6:14] == [""] * 8
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/index.rst:18"]


def test_a_branch_the_doc_has_the_reader_create_is_the_readers(project):
    """Issue 20 round 7 (xarray): "This changes your working directory to the ``shiny-new-feature``
    branch." follows ``git checkout -b shiny-new-feature`` in the contributing guide: the reader's
    branch, which the repository never holds. A branch the guide does not create is still a claim."""
    project.write("docs/contributing.rst", "\n".join([
        "Contributing", "============", "",
        "Create a branch::", "",
        "    git checkout -b shiny-new-feature", "",
        "This changes your working directory to the ``shiny-new-feature`` branch.", "",  # 8
        "Releases are cut from the ``release-stable`` branch.", "",  # 10: stale
    ]) + "\n")
    project.commit("Document contributing")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/contributing.rst:10"]


def test_a_branch_named_in_prose_after_git_is_no_command(project):
    """Last stop's note: "the git branch `maintenance-1.x`" in a sentence names a branch, it has nobody create
    one; only a command (a line of its own, after a prompt, or in inline code) creates the reader's branch."""
    assert _asked(project, "docs/CONTRIBUTING.md", [
        "# Contributing", "",
        "Start your work with `git checkout -b my-fix`, then:", "",
        "    $ git switch -c other-fix", "",
        "Your work stays on the `my-fix` branch and the `other-fix` branch until you open a pull request.", "",  # 7
        "Fixes for the 1.x line go to the git branch `maintenance-1.x`.", "",  # 9: stale
        "1. git checkout -b third-fix",  # review: a list item and a virtualenv's prompt are commands too
        "- (venv) $ git switch -c fourth-fix", "",
        "Push the `third-fix` branch and the `fourth-fix` branch.", "",  # 14
    ]) == ["docs/CONTRIBUTING.md:9"]


def test_a_branch_started_from_the_remotes_branch_of_its_name_is_the_repositorys(project):
    """Review: ``git checkout -b develop origin/develop`` checks out this repository's ``develop``; a guide
    saying pull requests merge into it makes a claim, stale when the branch is gone."""
    project.write("docs/contributing.rst", "\n".join([
        "Contributing", "============", "",
        "Track the development branch::", "",
        "    git checkout -b develop origin/develop", "",
        "Pull requests are merged into the ``develop`` branch.", "",  # 8: stale
    ]) + "\n")
    project.commit("Document contributing")
    assert [s.question.source for s in by_kind(audit(project), STALE)] == ["docs/contributing.rst:8"]


def test_a_sentence_ending_in_a_colon_is_no_plan_heading(project):
    """Issue 20 round 8 (CherryPy, Bokeh): "To do so, CherryPy manages two loggers:" and "To do that, Bokeh
    combines two elements:" read as "To do" plan headings, so the list after them was a queue whose
    items "landed"; the review added "To do this:". A heading that is the phrase, with a few words after it
    ("## TODO: before 1.0"), still opens one."""
    project.write("src/log.py", "def access_log():\n    pass\n\n\ndef error_log():\n    pass\n")
    project.commit("Add the access log and the error log that traces errors")
    assert _asked(project, "docs/logging.rst", [
        "Logging", "=======", "",
        "To do so, the server manages two loggers:", "",
        "- an access log that logs every request",
        "- an error log that traces errors", "",
        "To do this:", "",
        "- an error log that traces errors", "",
        "## TODO: before 1.0", "",  # review: a heading with a colon is still one
        "- add the error log that traces errors",  # 15: a plan item that landed
    ]) == ["docs/logging.rst:15"]


def test_a_txt_file_of_patterns_is_data_not_a_doc(project):
    """Issue 20 round 8 (numba): ``maint/stubtest/allowlist.txt`` holds regular expressions under
    "# TODO"; its lines were read as a plan whose item "numba\\.types\\..*" landed. A ``.txt`` whose lines
    are mostly single words or patterns is data; a prose ``.txt`` is still a doc."""
    project.write("src/types.py", "class types:\n    pass\n")
    project.commit("Fix the stubs of calc.types")
    project.write("maint/allowlist.txt", "# generated\ncalc\\.core\\..*\ncalc\\.tests\\..*\n\n# TODO\ncalc\\.types\\..*\n")
    project.write("docs/plan.txt", "Plan\n\nThis is the plan for the next release of calc.\n\nTODO:\n\n- fix the stubs of calc.types and more\n")
    project.commit("Add the allowlist and the plan")
    assert _stale(project) == ["docs/plan.txt:7"]  # a prose doc


def test_branch_names_need_a_letter_and_no_latin_abbreviation(project):
    """Issue 20 round 8 (Bokeh, Quart): "protected branches`_ ``main``" gave a branch named "_", and
    "a release branch i.e. no new features" a branch "i.e"; ``release-9.9`` is still one."""
    assert _asked(project, "docs/versioning.rst", [
        "Versioning", "==========", "",
        "Commits go to `Bokeh's", "protected branches`_ ``main`` only.", "",
        "A bugfix release comes from the release branch i.e. no new features.", "",
        "Backports go to the ``release-9.9`` branch.", "",  # 9: stale
    ]) == ["docs/versioning.rst:9"]


def test_a_branch_after_an_indefinite_article_is_a_kind_of_branch(project):
    """Issue 20 round 8 (numba): "cherry picked to a `release` branch" names a kind of branch, not one this
    repository must have; "the `release` branch" names one."""
    assert _asked(project, "docs/release.md", [
        "# Releasing", "",
        "Fixes are cherry picked to a `release` branch.", "",
        "Tags are cut from the `stable-9` branch.", "",  # 5: stale
    ]) == ["docs/release.md:5"]


def test_the_upstream_remote_of_a_fork_workflow_is_this_repository(project):
    """Issue 20 round 8 (bottle): "If the ``upstream/master`` branch changed while you were working" is about
    the remote a contributor adds for this repository; with no ``upstream`` remote here it names this
    repository's ``master``, which exists. ``upstream/legacy`` is still stale."""
    project.git("branch", "master")
    assert _asked(project, "docs/development.rst", [
        "Development", "===========", "",
        "**Sync with upstream:** If the ``upstream/master`` branch changed while you were working, rebase.", "",
        "Pull requests are reviewed weekly.", "",
        "Old work lives on the ``upstream/legacy`` branch.", "",  # 8: stale
    ]) == ["docs/development.rst:8"]


def test_an_intersphinx_external_role_names_another_projects_page(project):
    """Issue 20 round 8 (distributed): ":external+dask:doc:`configuration file <configuration>`" is Dask's
    page; that this repository once had (and deleted) its own ``configuration.rst`` says nothing about it.
    A local ``:doc:`` to the deleted page is still stale."""
    project.write("docs/conf.py", "project = 'calc'\n")
    project.write("docs/configuration.rst", "Configuration\n=============\n")
    project.commit("Add the configuration page")
    project.git("rm", "-q", "docs/configuration.rst")
    project.commit("Move the configuration page to Dask")
    assert _asked(project, "docs/tls.rst", [
        "TLS", "===", "",
        "* through the Dask :external+dask:doc:`configuration file <configuration>`;",
        "* through the :external:doc:`configuration <configuration>` of any project;", "",
        "See :doc:`the configuration <configuration>` for more.",  # 7: stale
    ]) == ["docs/tls.rst:7"]


def test_a_file_each_release_adds_and_consumes_is_an_instruction_not_a_deleted_pointer(project):
    """Issue 20 round 10 (pelican, hypothesis): "Add a ``RELEASE.md`` file in the root of the project" and
    "Create ``hypothesis/RELEASE.rst``" name a file each pull request adds and the release deletes
    (pelican's was deleted 17 times, hypothesis's 630): instructions, all labeled noise. A file deleted
    once is still a pointer to a deleted file."""
    for release in range(3):
        _deleted(project, "RELEASE.md")
    _deleted(project, "tools/cut.py")
    assert _asked(project, "CONTRIBUTING.rst", [
        "Contributing", "============", "",
        "Add a ``RELEASE.md`` file in the root of the project that describes the change.", "",
        "Run ``tools/cut.py`` to cut the release.", "",  # 6: deleted once: stale
    ]) == ["CONTRIBUTING.rst:6"]


def test_the_local_branch_and_a_repositorys_branch_are_the_readers(project):
    """Issue 20 round 10 (pelican): "to a repository's ``gh-pages`` branch", "updates the local ``gh-pages``
    branch", "pushes the local ``gh-pages`` branch" are the reader's site and clone (labeled noise); "the
    ``gh-pages`` branch holds the built docs" is this repository's, which has none."""
    assert _asked(project, "docs/tips.rst", [
        "Tips", "====", "",
        "Publish the ``output`` dir generated by Pelican to a repository's ``gh-pages`` branch.", "",
        "The ``ghp-import output`` command updates the local ``gh-pages`` branch with the site.", "",
        "The ``git push`` command pushes the local ``gh-pages`` branch to GitHub.", "",
        "The ``gh-pages`` branch holds the built docs of this project.", "",  # 10: stale
    ]) == ["docs/tips.rst:10"]


def test_a_pull_request_template_is_a_form_not_a_plan(project):
    """Issue 20 round 11 (zarr): the boxes of ``.github/PULL_REQUEST_TEMPLATE.md`` ("[ ] GitHub Actions have
    all passed", "[ ] Changes documented as a new file in `changes/`") came back "landed" by commits whose
    subjects share their words; both labeled noise. The same box in the project's plan is still stale."""
    project.write("ci.py", "print('ci')\n")
    project.commit("GitHub Actions: all jobs have passed on the CI workflow")
    box = "- [ ] GitHub Actions workflow jobs have all passed"
    assert _asked(project, ".github/PULL_REQUEST_TEMPLATE.md", ["## Summary", "", "[Describe the change.]", "", "## TODO", "", box, ""]) == []
    assert _asked(project, ".github/ISSUE_TEMPLATE/bug_report.md", ["## Next steps", "", box, ""]) == []
    assert _asked(project, "docs/plan.md", ["# Plan", "", "## Next steps", "", box, ""]) == ["docs/plan.md:5"]


def test_the_readers_own_branch_names_a_merge_to_come_and_a_removal_step_are_no_claims(project):
    """Issue 20 round 11 (scikit-image): "pushes the ``my-new-feature`` branch" (a name the reader makes
    up), "``src/_skimage2`` will be merged into ``src/skimage2``" (a merge to come) and "git rm
    doc/source/release_notes/release_dev.rst" (the release step deleting a file each release writes) were
    labeled noise. A deleted file the doc points at and a branch it says exists stay stale."""
    _deleted(project, "doc/release_notes/release_dev.rst", "tools/cut.py")
    assert _asked(project, "RELEASE.txt", [
        "Release", "=======", "",
        "This pushes the ``my-new-feature`` branch in this repository to the ``main`` branch.", "",
        "Once the API is stable, ``src/_pkg2`` will be merged into ``src/pkg2``.", "",
        "- git rm doc/release_notes/release_dev.rst", "",
        "Run ``tools/cut.py`` to cut the release.", "",  # 10: deleted: stale
        "The fixes land in the ``maintenance-1.x`` branch first.", "",  # 12: no such branch: stale
    ]) == ["RELEASE.txt:10", "RELEASE.txt:12"]


def test_a_page_the_docs_build_writes_from_a_template_is_there(project):
    """Issue 20 round 11 (xonsh): ``:doc:`envvars``` points at ``docs/envvars.rst``, which the docs' build
    writes from ``docs/envvars.rst.jinja2`` (the page was once committed, then generated): three "see also"
    lines labeled noise. A link to a deleted page with no template is still stale."""
    _deleted(project, "docs/envvars.rst", "docs/old.rst")
    project.write("docs/envvars.rst.jinja2", "{{ variables }}\n")
    project.write("docs/conf.py", "project = 'x'\n")
    project.commit("Generate the envvars page")
    assert _asked(project, "docs/env.rst", [
        "Environment", "===========", "",
        "* :doc:`envvars` -- full list of environment variables", "",
        "* :doc:`old` -- the old page", "",  # 6: deleted, not generated: stale
    ]) == ["docs/env.rst:6"]


def test_a_docs_missing_files_of_one_folder_and_dated_posts_and_changie_entries(project):
    """Issue 20 round 12 (dbt): nine sentences of ``API-CONTRACTS.md`` on ``src/handlers/*.rs``, gone with
    the folder, were nine questions (eight labeled duplicates); ``.changes/2.0.0-alpha.5.md`` (changie's
    changelog) and ``docs/roadmap/2024-12-play-on.md`` (a post of its date) were read as current. A
    missing file of another folder in that doc is still its own question."""
    _deleted(project, "src/handlers/json.rs", "src/handlers/pagination.rs", "src/handlers/sources.rs", "web/src/api.ts")
    filler = ["Text."] * 12
    assert _asked(project, "API-CONTRACTS.md", [
        "# API", "", "The JSON helpers live in `src/handlers/json.rs`.", *filler,  # 3: a question
        "Implementation lives in `src/handlers/pagination.rs`.", *filler,  # 16: the same folder
        "`src/handlers/sources.rs` is the authoritative reference.", *filler,  # 29: the same folder
        "The client is `web/src/api.ts`.", "",  # 42: another folder: a question
    ]) == ["API-CONTRACTS.md:3", "API-CONTRACTS.md:42"]
    _deleted(project, "core/dbt/parse.py")
    for rel in (".changes/2.0.0-alpha.5.md", "docs/roadmap/2024-12-play-on.md"):
        project.write(rel, "Parse-time config now matches `core/dbt/parse.py`.\n")
    project.commit("Add a change entry and a post")
    assert _stale(project) == ["API-CONTRACTS.md:3", "API-CONTRACTS.md:42"]
