"""The audit is never run from a hook: nothing on the hook path imports the audit machinery.

The checklist's `audit` check only reads stored results (``cc_hooks.audit.result``)."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "cc_hooks"
ALLOWED = {"cc_hooks.audit.result"}
_IMPORT_RE = re.compile(r"^\s*(?:from\s+(cc_hooks\.audit[\w.]*)\s+import\s+([\w, ]+)|import\s+(cc_hooks\.audit[\w.]*))", re.M)


def audit_imports(text: str) -> list[str]:
    """Modules of ``cc_hooks.audit`` a source imports, other than the stored-result reader."""
    found = []
    for match in _IMPORT_RE.finditer(text):
        module = match.group(1) or match.group(3)
        if module == "cc_hooks.audit" and match.group(2):
            module = "cc_hooks.audit:" + match.group(2).strip()
        if module not in ALLOWED:
            found.append(module)
    return found


def hook_path_sources() -> list[Path]:
    return [*(PACKAGE / "events").glob("*.py"), *(PACKAGE / "checks").glob("*.py"),
            PACKAGE / "runtime.py", PACKAGE / "commands" / "hook.py"]


def test_the_detector_sees_an_audit_import_and_allows_the_result_reader():
    assert audit_imports("    from cc_hooks.audit import run_audit\n") == ["cc_hooks.audit:run_audit"]
    assert audit_imports("import cc_hooks.audit.agent\n") == ["cc_hooks.audit.agent"]
    assert audit_imports("        from cc_hooks.audit.result import worktree_fingerprint\n") == []


def test_nothing_on_the_hook_path_runs_the_audit():
    offenders = {str(p.relative_to(PACKAGE)): audit_imports(p.read_text(encoding="utf-8")) for p in hook_path_sources()}
    assert {k: v for k, v in offenders.items() if v} == {}
    assert "checks/audit.py" in offenders  # the check was looked at
