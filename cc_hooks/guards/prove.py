"""Prove a guard in both directions (methodology §7): healthy on HEAD, anomaly
with its fix stripped.

All of it happens in a throwaway worktree (``git worktree add --detach <tmp>
HEAD``), never in the user's tree. Per guard: reset the worktree to HEAD, run
the guard (must say 0), reverse-apply the fix commits' diff except the guard's
own files (they stay as HEAD has them: the guard under proof is HEAD's guard,
and a fix commit often adds its test too), run the guard again (must say 1).

Verdicts: PROVEN; DOES-NOT-DETECT (healthy with the fix stripped: it guards
nothing); BROKEN (anomaly on HEAD); UNPROVABLE (with the reason: no fix
recorded, a fix that does not reverse-apply cleanly, could not observe, not
trusted...). The worktree is removed on every path: ``finally`` plus SIGTERM
and SIGHUP turned into SystemExit (SIGINT is KeyboardInterrupt already), and
the guard's process group is stopped before the worktree goes.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

from cc_hooks.guards.proofs import (  # noqa: F401 (the verdicts and the store are part of this module's API)
    BROKEN, DOES_NOT_DETECT, FAILING, PROOFS_DIR, PROVEN, UNPROVABLE, Proof, load_proof, load_proofs, proof_path, store_proof,
)
from cc_hooks.guards.resolve import CONFIG, Guard
from cc_hooks.guards.run import ANOMALY, HEALTHY, Outcome, guard_env, run_guard

WORKTREE_PREFIX = "cc-hooks-prove-"
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def exit_code(proofs: list[Proof]) -> int:
    """0 all PROVEN, 1 any DOES-NOT-DETECT or BROKEN, 2 otherwise (including nothing proven)."""
    verdicts = {p.verdict for p in proofs}
    if verdicts & set(FAILING):
        return 1
    return 0 if verdicts == {PROVEN} else 2


def prove_guards(
    root: str | os.PathLike,
    guards: list[Guard],
    trusted: bool,
    timeout: Optional[float] = None,
    progress: Optional[Callable[[str], None]] = None,
    store: bool = True,
) -> list[Proof]:
    """One Proof per guard, in order; each stored under ``<state>/guards/`` when ``store``."""
    from cc_hooks.git import head

    root = Path(root)
    head_sha = head(root).sha
    proofs: dict[int, Proof] = {}

    def record(guard: Guard, proof: Proof) -> None:
        proofs[id(guard)] = proof
        if store:  # as each one is made: an interrupted run keeps what it proved
            store_proof(root, proof)

    from cc_hooks.guards.environment import resolve_environment

    environment = resolve_environment(root)  # the user's tree's: the throwaway worktree has no virtualenv
    targets = []
    for guard in guards:
        reason = "no commits yet" if head_sha is None else why_unprovable(guard, trusted)
        if not reason and environment.configured and not trusted:
            reason = f"not trusted: guards run with {environment.label}, which runs only after `cc-hooks trust`"
        if reason:
            record(guard, _proof(guard, UNPROVABLE, reason, head_sha))
        else:
            targets.append(guard)
    if targets:
        with temporary_worktree(root) as worktree:
            for guard in targets:
                if progress:
                    progress(f"proving {guard.name} ({guard.ref})")
                record(guard, prove_one(worktree, guard, head_sha, timeout, environment))
    return [proofs[id(g)] for g in guards]


def why_unprovable(guard: Guard, trusted: bool) -> str:
    if not guard.runnable:
        return guard.problem or f"no guard: none — {guard.gap}"
    if guard.needs_trust and not trusted:
        return "not trusted: the guard table of .cc-hooks.toml is not trusted (`cc-hooks trust`)"
    if not guard.fixes:
        if guard.record is None or guard.record.cause is None:
            return "no cause in SYMPTOMS.md names this guard in its **Guard** field, so there is no fix to strip"
        return "no fix commit recorded for this cause"
    return ""


def prove_one(worktree: Path, guard: Guard, head_sha: str, timeout: Optional[float], environment=None) -> Proof:
    started = time.monotonic()
    reset(worktree)
    env = guard_env(python_path(worktree))
    on_head = run_guard(guard, worktree, trusted=True, env=env, timeout=timeout, environment=environment)

    def done(verdict: str, reason: str, stripped: Optional[Outcome] = None) -> Proof:
        proof = _proof(guard, verdict, reason, head_sha, on_head, stripped)
        proof.seconds = round(time.monotonic() - started, 3)
        return proof

    if on_head.state == ANOMALY:
        return done(BROKEN, f"fails on HEAD, with the fix in place ({on_head.reason})")
    if on_head.state != HEALTHY:
        return done(UNPROVABLE, f"could not observe on HEAD: {on_head.reason}")
    problem = strip_fix(worktree, guard)
    if problem:
        return done(UNPROVABLE, problem)
    stripped = run_guard(guard, worktree, trusted=True, env=env, timeout=timeout, environment=environment)
    if stripped.state == ANOMALY:
        return done(PROVEN, "healthy on HEAD, anomaly with the fix reverted", stripped)
    if stripped.state == HEALTHY:
        return done(DOES_NOT_DETECT, "healthy even with the fix reverted: the guard does not detect this cause", stripped)
    return done(UNPROVABLE, f"could not observe with the fix reverted: {stripped.reason}", stripped)


def _proof(guard: Guard, verdict: str, reason: str, head_sha: Optional[str],
           on_head: Optional[Outcome] = None, stripped: Optional[Outcome] = None) -> Proof:
    return Proof(
        guard.name, verdict, reason, head_sha, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        guard.kind, guard.ref, list(guard.fixes), guard.record.symptom_slug if guard.record else None, guard.where,
        on_head.to_dict() if on_head else None, stripped.to_dict() if stripped else None,
    )


# --- stripping the fix ------------------------------------------------------------


# What a fix commit carries besides the fix: tests and their helpers stay as HEAD has them (the
# guard may need them), and prose (docs, the record itself) does not change behaviour; reverting
# either only adds conflicts with later commits that rewrote them.
NOT_THE_FIX = (
    ":(exclude,glob)**/tests/**",
    ":(exclude,glob)**/test/**",
    ":(exclude,glob)**/test_*.py",
    ":(exclude,glob)**/*_test.py",
    ":(exclude,glob)**/conftest.py",
    ":(exclude,glob)**/*.md",
    ":(exclude,glob)**/docs/**",
)


def strip_fix(worktree: Path, guard: Guard) -> str:
    """Reverse-apply the fix commits (newest first) minus the guard's files; "" or why not."""
    from cc_hooks.git import run_git
    from cc_hooks.git import run_git_bytes

    commits = []
    for sha in guard.fixes:
        full = run_git(worktree, "rev-parse", "--verify", "-q", f"{sha}^{{commit}}", check=False).strip()
        if not full:
            return f"fix commit {sha} does not exist in the repository"
        if run_git_bytes(worktree, "merge-base", "--is-ancestor", full, "HEAD").returncode != 0:
            return f"fix commit {sha} is not in HEAD's history"
        commits.append(full)
    commits = list(dict.fromkeys(commits))
    if len(commits) > 1:  # newest first: fewest commits between it and HEAD
        commits.sort(key=lambda c: int(run_git(worktree, "rev-list", "--count", f"{c}..HEAD")))
    keep = [f":(exclude,literal){path}" for path in guard_files(worktree, guard)] + list(NOT_THE_FIX)
    applied = 0
    for commit in commits:
        parents = run_git(worktree, "rev-list", "--parents", "-n", "1", commit).split()[1:]
        trees = [parents[0], commit] if parents else ["--root", commit]
        patch = run_git_bytes(worktree, "diff-tree", "-p", "--binary", "--full-index", "--no-renames", "--no-commit-id",
                              *trees, "--", ".", *keep).stdout
        if not patch.strip():
            continue
        proc = run_git_bytes(worktree, "apply", "-R", "--3way", input=patch)
        if proc.returncode != 0:
            conflicted = run_git(worktree, "diff", "--name-only", "--diff-filter=U", check=False).split()
            detail = ", ".join(conflicted) or _apply_error(proc.stderr.decode("utf-8", "replace"))
            return f"fix does not revert cleanly (conflict in {detail}): a later commit changed the same lines"
        applied += 1
    if not applied:
        return "the fix commit(s) change only the guard's own files, tests or docs: nothing to strip"
    return ""


def guard_files(worktree: Path, guard: Guard) -> list[str]:
    """The repo files that make up the guard (kept as HEAD has them while the fix is stripped)."""
    if guard.kind != CONFIG:
        return list(guard.paths)
    return [arg for arg in guard.argv if not os.path.isabs(arg) and ".." not in arg.split("/") and (worktree / arg).is_file()]


def python_path(worktree: Path) -> tuple[str, ...]:
    """Put the worktree's code ahead of an editable install that points at the user's tree."""
    src = worktree / "src"
    return (str(worktree), str(src)) if src.is_dir() else (str(worktree),)


def reset(worktree: Path) -> None:
    """Back to HEAD, nothing untracked: only ever run inside the throwaway worktree."""
    from cc_hooks.git import run_git

    run_git(worktree, "reset", "-q", "--hard", "HEAD")
    run_git(worktree, "clean", "-q", "-ffdx")


# --- the throwaway worktree ---------------------------------------------------------


@contextmanager
def temporary_worktree(root: Path) -> Iterator[Path]:
    """A detached worktree of HEAD in a temp directory, removed however the block ends."""
    from cc_hooks.git import run_git

    with interrupts_raise():
        parent: Optional[Path] = None
        try:
            parent = Path(tempfile.mkdtemp(prefix=WORKTREE_PREFIX))
            worktree = parent / "worktree"
            # no hooks: a post-checkout hook of the user's must not run for our checkout
            run_git(root, "-c", f"core.hooksPath={os.devnull}", "worktree", "add", "--detach", str(worktree), "HEAD", timeout=600)
            yield worktree
        finally:
            if parent is not None:
                with interrupts_ignored():
                    remove_worktree(root, parent / "worktree", parent)


def remove_worktree(root: Path, worktree: Path, parent: Path) -> None:
    from cc_hooks.git import GitError, run_git

    try:
        run_git(root, "worktree", "remove", "--force", "--force", str(worktree), timeout=120)
    except GitError:
        pass  # not registered (add was interrupted), or already gone: the rmtree and prune below finish the job
    shutil.rmtree(parent, ignore_errors=True)
    try:
        run_git(root, "worktree", "prune", timeout=60)
    except GitError:
        pass


@contextmanager
def interrupts_raise() -> Iterator[None]:
    """SIGINT → KeyboardInterrupt, SIGTERM/SIGHUP → SystemExit, so ``finally`` blocks run."""
    def leave(signum, frame):
        raise SystemExit(128 + signum)

    handlers = {sig: (signal.default_int_handler if sig == signal.SIGINT else leave) for sig in _SIGNALS}
    with _handlers(handlers):
        yield


@contextmanager
def interrupts_ignored() -> Iterator[None]:
    """A second Ctrl-C must not cut the clean-up short (it is bounded by git timeouts)."""
    with _handlers({sig: signal.SIG_IGN for sig in _SIGNALS}):
        yield


@contextmanager
def _handlers(handlers: dict) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread
        return
    previous = {sig: signal.signal(sig, handler) for sig, handler in handlers.items()}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _apply_error(stderr: str) -> str:
    """The file git apply choked on ("error: patch failed: x.py:12" -> "x.py:12"),
    not its chatter ("Falling back to direct application...")."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    if not errors:
        return lines[-1] if lines else "?"
    text = errors[0][len("error:"):].strip()
    for prefix in ("patch failed:", "while searching for:"):
        if text.startswith(prefix):
            return text[len(prefix):].strip()
    return text
