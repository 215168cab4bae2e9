"""Modules of the checklist's sweep and of the guard proofs import one way only (issue 22 item 5).

Every import counts, the lazy ones inside functions and the TYPE_CHECKING ones too: a cycle that
only a lazy import hides is still two modules that cannot be read, or changed, one without the other."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cc_hooks"


def imports_of(module: str) -> set[str]:
    path = PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cc_hooks"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("cc_hooks"))
    return found


def test_guard_proofs_do_not_import_the_prover():
    assert "cc_hooks.guards.proofs" in imports_of("cc_hooks.guards.prove")
    assert not {m for m in imports_of("cc_hooks.guards.proofs") if m.startswith("cc_hooks.guards.prove")}


def test_transcript_adapter_does_not_import_the_sweep():
    assert "cc_hooks.checks.transcript_adapter" in imports_of("cc_hooks.checks.session_sweep")
    assert not {m for m in imports_of("cc_hooks.checks.transcript_adapter") if m.startswith("cc_hooks.checks.session_sweep")}
    assert not {m for m in imports_of("cc_hooks.checks.sweep_record") if m.startswith("cc_hooks.checks.")}
