"""The package imports one way only (issue 22 item 5): the checklist's sweep, the guard proofs, the hook runtime.

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


def _modules() -> dict[str, set[str]]:
    """Every module of the package -> the package modules it imports (a name imported from a module
    counts as that module, or as the submodule it names)."""
    names = {".".join(("cc_hooks", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
             for p in PACKAGE.rglob("*.py")}

    def module(name: str) -> str:
        while name not in names and "." in name:
            name = name.rsplit(".", 1)[0]
        return name

    graph = {}
    for name in names:
        path = PACKAGE.joinpath(*name.split(".")[1:])
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        graph[name] = {module(m) for m in imports_of_path(path)} - {name, "cc_hooks"}
    return graph


def imports_of_path(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cc_hooks"):
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("cc_hooks"))
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_hook_runtime_git_and_prefetch_import_one_way():
    """git imports no cc_hooks module; prefetch plugs into git; the runtime drives both; the I/O models
    and the runtime share HookResult from a module of its own (issue 22 item 5)."""
    graph = _modules()
    assert graph["cc_hooks.git"] == set()
    assert "cc_hooks.runtime" not in graph["cc_hooks.prefetch"]
    assert "cc_hooks.runtime" not in graph["cc_hooks.protocol"]
    assert "cc_hooks.commands.init" not in graph["cc_hooks.migrate_queue"]


def test_no_module_of_the_package_is_part_of_an_import_cycle():
    assert _cycles(_modules()) == []
