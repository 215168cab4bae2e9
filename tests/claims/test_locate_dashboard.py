"""record.dashboard.locate_dashboard: find_declaration's choice, searching tracked echoes only when needed."""

from __future__ import annotations

import pytest

from cc_hooks.record.dashboard import Declaration, find_declaration, locate_dashboard


@pytest.mark.parametrize(
    "files",
    [
        {"CLAUDE.md": "# x\nDashboard: file plan.md\n", "README.md": "Dashboard: file other.md\n"},
        {"CLAUDE.md": "# x\nDashboard: file\n"},
        {"CLAUDE.md": "# no declaration\n", "README.md": "Dashboard: github owner/repo#1\n"},
        {"CLAUDE.md": "# no declaration\n", "docs/a.md": "  Dashboard: file\n"},
        {"README.md": "nothing\n"},
        {".claude/CLAUDE.md": "Dashboard: linear\n"},
    ],
)
def test_it_chooses_what_find_declaration_chooses(repo, files):
    repo.commit("files", files)
    assert locate_dashboard(repo.path, repo.config()) == find_declaration(repo.path, repo.config())[0]


def test_a_claude_md_declaration_needs_no_git_process(repo, git_verbs):
    repo.commit("declare", {"CLAUDE.md": "Dashboard: file plan.md\n", "README.md": "Dashboard: file other.md\n"})
    assert locate_dashboard(repo.path) == Declaration("file", "plan.md", "CLAUDE.md", "CLAUDE.md", 1)
    assert git_verbs == []


def test_without_one_the_tracked_echoes_are_searched(repo, git_verbs):
    repo.commit("echo", {"README.md": "Dashboard: file plan.md\n"})
    assert locate_dashboard(repo.path) == Declaration("file", "plan.md", "tracked-echo", "README.md", 1)
    assert git_verbs == ["grep"]


def test_the_exchanged_shapes_are_still_the_dashboard_module_s():
    from cc_hooks.record import dashboard, dashboard_read

    for name in ("Claim", "StateBlock", "QueueItem", "DashboardRead"):
        assert getattr(dashboard, name) is getattr(dashboard_read, name)
    for gone in ("NoSuchShape", "extract_addresses", "Addresses"):  # addresses come from cc_hooks.claims.addresses only
        with pytest.raises(AttributeError):
            getattr(dashboard, gone)
