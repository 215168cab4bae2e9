"""External claims ("deployed", "staging runs v1.4.2", "CI green"): only a
probe can check them.

A claim names its probe with ``(probe: NAME)``; the probe is a
``[probes.NAME]`` table in ``.cc-hooks.toml`` (argv, timeout, expect). Probes
run without a shell, in the repo root, all at once, each within
min(its timeout, the remaining budget), and only when the user has trusted
the current probe table (``cc-hooks trust``). Exit 0 (and ``expect`` in
stdout, when set) verifies the claim; exit 0 with other output contradicts it,
quoting the output; anything else (untrusted, unknown, failed to start,
non-zero exit, timeout) leaves it UNVERIFIED with the reason, never VERIFIED.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass

from cc_hooks.claims import address as addr
from cc_hooks.claims.context import MIN_SECONDS, VerifyContext
from cc_hooks.claims.model import CONTRADICTED, POSITION, QUEUE, TIME_BUDGET, UNVERIFIED, VERIFIED, Claim
from cc_hooks.claims.words import is_external_statement

NAME = "external"
OUTPUT_LIMIT = 64 * 1024


@dataclass
class ProbeResult:
    verdict: str
    evidence: str


_REQUEST_RE = re.compile(r"\b(?:the\s+)?(?:user|owner|maintainer|client|customer|team|they|he|she)\s+(?:asked|asks|wants|wanted|requested|prefers|preferred)\b", re.I)


def applies(claim: Claim) -> bool:
    return bool(claim.addresses_of(addr.PROBE)) or _unprobed_statement(claim) or bool(claim.addresses and _REQUEST_RE.search(claim.text))


def _unprobed_statement(claim: Claim) -> bool:
    """Speaks of external state (whatever else it names) and names no probe: that part stays unchecked."""
    if claim.kind in (QUEUE, POSITION) or claim.addresses_of(addr.PROBE):
        return False
    text = claim.text
    if claim.assertions:  # "PR #52 was merged into `main`": the merge is the claim, checked in git
        text = re.sub(r"\b(?:PR|pull\s+request)\s*#?\d*", " ", text, flags=re.IGNORECASE)
    if any(a.what == "in_release" for a in claim.assertions):  # "was released in `v2`": the tag is checked
        text = re.sub(r"\b(?:is|are|was|were|got|been)\s+released\b", " ", text, flags=re.IGNORECASE)
    return is_external_statement(text)


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    probed = [c for c in claims if c.addresses_of(addr.PROBE)]
    for claim in claims:
        if _unprobed_statement(claim):
            claim.add("external state", UNVERIFIED, "external state with no probe named in the claim", NAME)
        elif claim.addresses and _REQUEST_RE.search(claim.text):
            claim.add("request", UNVERIFIED, "what someone asked for or wants is not a state git or a probe can check", NAME)
    if not probed:
        return
    names = sorted({a.value for c in probed for a in c.addresses_of(addr.PROBE)})
    results = run_probes(ctx, names)
    for claim in probed:
        for address in claim.addresses_of(addr.PROBE):
            result = results[address.value]
            claim.add(f"probe {address.value}", result.verdict, result.evidence, NAME)


def run_probes(ctx: VerifyContext, names: list[str]) -> dict[str, ProbeResult]:
    probes = ctx.config.probes if ctx.config is not None else {}
    results: dict[str, ProbeResult] = {}
    known = [n for n in names if n in probes]
    for name in names:
        if name not in probes:
            results[name] = ProbeResult(UNVERIFIED, f"no probe named {name} in .cc-hooks.toml")
    if not known:
        return results  # no probe configured: the trust store (and its hashing) is not needed
    from cc_hooks import trust

    state = trust.status(ctx.root, ctx.config)
    if not state.trusted:
        for name in known:
            results[name] = ProbeResult(UNVERIFIED, state.reason)
        return results
    running = {}
    for name in known:
        if ctx.deadline.remaining() <= MIN_SECONDS:
            results[name] = ProbeResult(UNVERIFIED, TIME_BUDGET)
            continue
        running[name] = _start(ctx, probes[name].argv)
    for name, proc in running.items():
        if isinstance(proc, str):
            results[name] = ProbeResult(UNVERIFIED, f"probe {name} could not start: {proc}")
            continue
        results[name] = _finish(ctx, name, probes[name], proc)
    return results


def _start(ctx: VerifyContext, argv: list[str]):
    if not argv:
        return "empty argv"
    try:
        return subprocess.Popen(
            argv,
            cwd=ctx.root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "CC_HOOKS_PROBE": "1"},
            start_new_session=True,
        )
    except OSError as exc:
        return exc.strerror or str(exc)


def _finish(ctx: VerifyContext, name: str, probe, proc: subprocess.Popen) -> ProbeResult:
    started = time.monotonic()
    budget_bound = ctx.deadline.remaining() < probe.timeout
    limit = max(MIN_SECONDS, min(probe.timeout, ctx.deadline.remaining()))
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        _kill(proc)
        why = TIME_BUDGET if budget_bound else f"probe {name} timed out after {probe.timeout:g}s"
        return ProbeResult(UNVERIFIED, why)
    stdout = out[:OUTPUT_LIMIT].decode("utf-8", "replace")
    stderr = err[:OUTPUT_LIMIT].decode("utf-8", "replace")
    took = f"{time.monotonic() - started:.1f}s"
    if proc.returncode != 0:
        first = (stderr.strip() or stdout.strip()).splitlines()
        detail = f": {_clip(first[0])}" if first else ""
        return ProbeResult(UNVERIFIED, f"probe {name} failed (exit {proc.returncode}){detail}")
    if probe.expect is None:
        return ProbeResult(VERIFIED, f"probe {name} exited 0 ({took})")
    if probe.expect in stdout:
        return ProbeResult(VERIFIED, f"probe {name} output contains {probe.expect!r}")
    return ProbeResult(CONTRADICTED, f"probe {name} output lacks {probe.expect!r}; it said: {_clip(stdout.strip()) or '(nothing)'}")


def _kill(proc: subprocess.Popen) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()
    try:
        proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        pass


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

