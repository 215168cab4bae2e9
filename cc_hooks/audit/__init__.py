"""The cold-start audit (methodology §5; checklist items 8-9): does the record answer a
stranger's questions from a fresh clone?

``run_audit`` makes the fresh-clone view, generates the questions, answers them in ladder order
(``answer``), scans for stale distractors, optionally has the user's ``claude -p`` grade them too
(``agent``; the stricter grade wins), and returns an ``AuditResult``; ``result.store`` keeps it in
the state dir for the checklist's ``audit`` check. Never run from a hook: it is slow and the agent
half spends the user's tokens.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

AUDIT_SECONDS = 60.0
# Verbatim questions first: they are the ones the author asked for.
AGENT_ORDER = ("coldstart", "caller", "symptom", "trailer", "decision", "oddity", "stale")


def run_audit(
    root: str | Path,
    config,
    questions: Iterable[str] = (),
    claude: Optional[Path] = None,
    agent_timeout: float = 600.0,
    max_questions: int = 40,
    seconds: float = AUDIT_SECONDS,
    env: Optional[dict] = None,
):
    """Audit ``root``'s HEAD. ``claude``: also run the agent audit with that CLI.

    Raises FreshCloneError / GitError when the audit cannot run, AgentError when the agent's
    answer is unusable, Interrupted on SIGTERM (the view is removed in every case).
    """
    from cc_hooks.audit.answer import Auditor, absent_record
    from cc_hooks.audit.freshclone import fresh_clone
    from cc_hooks.audit.questions import generate
    from cc_hooks.audit.result import AuditResult, head_fingerprint, record_paths
    from cc_hooks.audit.stale import stale_claims
    from cc_hooks.config import load_config_or_default
    from cc_hooks.runtime import Deadline

    root = Path(root).resolve()
    paths = record_paths(root, config)
    with fresh_clone(root) as view:
        view_config, _ = load_config_or_default(view.path)
        asked = generate(view.path, view_config, questions)
        auditor = Auditor(view, view_config)
        graded = absent_record(view, paths) + [auditor.answer(q) for q in asked]
        graded += stale_claims(view, view_config, Deadline(seconds))
        result = AuditResult(view.head, str(root), graded)
        result.record = head_fingerprint(root, paths, view.head)
        if claude is not None:
            _agent_audit(result, view, claude, agent_timeout, max_questions, env)
    return result


def _agent_audit(result, view, claude: Path, timeout: float, limit: int, env: Optional[dict]) -> None:
    from cc_hooks.audit.agent import check_pointers, merge, run_agent

    order = {kind: n for n, kind in enumerate(AGENT_ORDER)}
    candidates = sorted((g.question for g in result.graded if g.question.kind in order), key=lambda q: order[q.kind])
    sent = candidates[:limit]
    if len(candidates) > limit:
        result.notes.append(f"{len(candidates) - limit} question(s) beyond --max-questions {limit} were graded by the program only")
    answer = run_agent(claude, view.path, sent, view.head, [*view.ignored, *view.uncommitted], timeout, env)
    check_pointers(answer, view.path)
    result.graded, result.set_aside = merge(result.graded, answer, limit)
    result.agent = {"cli": answer.cli, "questions_sent": len(answer.sent), "extra": len(answer.extra),
                    "set_aside": len(result.set_aside), "duration": answer.duration}
