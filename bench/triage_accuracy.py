"""Triage accuracy on a labeled set: top-1 / top-3 recall of the true fix, and false regression alarms.

    python bench/triage_accuracy.py --repo /work/triage-data/pallets+click --set bench/triage_sets/click.tsv [-v]

A set file (bench/triage_sets/*.tsv) holds one symptom a line: the true fix commit(s), a tab, the
symptom as a user reports it (phrasings separated by " | "). The true fix of a merge commit is
the merge and every commit of its branch (``M^1..M^2``): finding the PR's code commit is finding
the fix; likewise a merge whose branch holds the labeled commit is the PR that landed it. A candidate list is the triage's prior causes found in history, by rank, then its weaker
leads. A false regression alarm is a KNOWN verdict ("its fix is gone from HEAD: likely a
regression") on a symptom whose fix is, as labeled, still in HEAD (every labeled fix was shipped
and its changelog entry stands); a missed regression is any other verdict on a symptom whose fix is
labeled ``gone: …`` (reverted, removed or undone at HEAD). An invented symptom (sha ``none``,
expected ``invented``) is right only when answered NOVEL.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

if "--baseline" not in sys.argv:  # --baseline: the cc_hooks on PYTHONPATH (an older checkout), to compare
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cc_hooks.commands.triage import KNOWN, NOVEL, triage  # noqa: E402


def read_set(path: Path) -> list[tuple[str, list[str], bool]]:
    """(fix sha, phrasings, whether HEAD no longer has the fix) per symptom; an invented symptom (no
    fix: sha ``none``, expected ``invented``) has the sha "none"."""
    items = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        sha, _, rest = line.partition("\t")
        symptom, _, expected = rest.partition("\t")
        items.append((sha.strip(), [p.strip() for p in symptom.split(" | ") if p.strip()], expected.strip().startswith("gone")))
    return items


INVENTED = "none"


def shas(field: str) -> list[str]:
    """The labeled commits of a set line: separated by spaces or commas (a merge and its code commit)."""
    return field.replace(",", " ").split()


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def true_fixes(repo: Path, sha: str) -> set[str]:
    full = _git(repo, "rev-parse", f"{sha}^{{commit}}").strip()
    parents = _git(repo, "rev-list", "--parents", "-n1", full).split()[1:]
    found = {full}
    if len(parents) > 1:
        found |= set(_git(repo, "rev-list", f"{parents[0]}..{parents[1]}").split())
    return found


def merged_by(repo: Path, sha: str, labeled: set[str]) -> bool:
    """Whether ``sha`` is a merge whose branch (``sha^1..sha^2``) holds a labeled fix."""
    parents = _git(repo, "rev-list", "--parents", "-n1", sha).split()[1:]
    return len(parents) > 1 and bool(labeled & set(_git(repo, "rev-list", f"{parents[0]}..{parents[1]}").split()))


def candidates(result) -> list[str]:
    """The commits found in history, best first (a triage before ranking: its commit causes in order)."""
    found = [c for c in result.prior if getattr(c, "rank", None)] or [c for c in result.prior if c.source in ("commit", "trailer")]
    found.sort(key=lambda c: getattr(c, "rank", None) or 0)
    return [c.fixes[0].full_sha or c.fixes[0].sha for c in found] + [m["sha"] for m in result.mentions]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", required=True, type=Path)
    parser.add_argument("--set", required=True, type=Path, dest="set_file")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--baseline", action="store_true", help="use the cc_hooks on PYTHONPATH instead of this checkout's")
    parser.add_argument("--agent-prompts", type=Path, metavar="DIR",
                        help="write the prompt `triage --agent` would send for each symptom to DIR/<set>-<n>.md (the program's order is "
                             "scored); with --agent-answers, the prompts that were answered: an answer to other candidates is not used")
    parser.add_argument("--agent-answers", type=Path, metavar="DIR",
                        help="score with the agent's answers DIR/<set>-<n>.json (the text of its reply) ordering the candidates")
    args = parser.parse_args(argv)
    items = read_set(args.set_file)
    top1 = top3 = alarms = true_alarms = missed = novel = 0
    real = [item for item in items if item[0] != INVENTED]
    invented = [item for item in items if item[0] == INVENTED]
    started = time.perf_counter()
    answered = no_fix = no_fix_found = 0
    for number, (sha, phrasings, gone) in enumerate(items, 1):
        name = f"{args.set_file.stem}-{number:02d}"
        agent = stand_in(args.agent_prompts, args.agent_answers, name) if args.agent_prompts or args.agent_answers else None
        result = triage(args.repo, phrasings, timeout=120.0, agent=agent)
        if sha == INVENTED:  # never reported nor fixed: the answer must be NOVEL
            novel += result.verdict == NOVEL
            if args.verbose or result.verdict != NOVEL:
                print(f"{'ok ' if result.verdict == NOVEL else 'NOT NOVEL':>4} (invented) {' | '.join(phrasings)[:90]} -> {result.verdict}")
            continue
        truth = set().union(*(true_fixes(args.repo, one) for one in shas(sha)))
        answered += bool(result.agent) and not result.agent.get("error")
        found = candidates(result)
        labeled = {_git(args.repo, "rev-parse", f"{one}^{{commit}}").strip() for one in shas(sha)}
        place = next((i + 1 for i, c in enumerate(found) if c in truth or (i < 3 and merged_by(args.repo, c, labeled))), None)
        top1 += place == 1
        top3 += place is not None and place <= 3
        if result.agent.get("fixes") == 0:  # the agent called none of them the fix: NOVEL, the candidates weaker leads
            no_fix += 1
            no_fix_found += place is not None
        alarm = result.verdict == KNOWN and not gone
        alarms += alarm
        true_alarms += result.verdict == KNOWN and gone
        missed += gone and result.verdict != KNOWN  # the fix is gone and triage did not say so
        if args.verbose or place != 1 or alarm:
            mark = "ok " if place == 1 else f"#{place}" if place else "MISS"
            print(f"{mark:>4} {sha} {' | '.join(phrasings)[:90]}{'  FALSE ALARM' if alarm else ''}"
                  f"{'  MISSED REGRESSION (' + result.verdict + ')' if gone and result.verdict != KNOWN else ''}")
            if place != 1:
                for cause in sorted((c for c in result.prior if getattr(c, "rank", None)), key=lambda c: c.rank)[:3]:
                    print(f"       #{cause.rank} {cause.fixes[0].sha[:10]} {cause.cause[:70]} [{cause.score}: {cause.matched_by[:120]}]")
            if alarm:
                for cause in result.prior:
                    for fix in cause.fixes:
                        if fix.intact is False:
                            print(f"       alarm: {fix.sha[:10]} {fix.status}: {fix.detail[:200]}")
    n = len(real)
    elapsed = time.perf_counter() - started
    gone_total = sum(g for _, _, g in real)
    print(f"{args.set_file.name} on {args.repo.name}: {n} symptoms with a fix; top-1 {top1}/{n} = {top1 / max(n, 1):.0%}; "
          f"top-3 {top3}/{n} = {top3 / max(n, 1):.0%}; false regression alarms {alarms}; missed regressions {missed}/{gone_total} "
          f"(true alarms {true_alarms} of {gone_total} fixes labeled gone); invented answered NOVEL {novel}/{len(invented)}; "
          f"{elapsed / max(len(items), 1):.1f} s per triage" + (f"; agent answers used {answered}/{n}, of which {no_fix} call no candidate the fix "
                                                 f"(the labeled fix among them in {no_fix_found})" if args.agent_answers else ""))
    return 0


def stand_in(prompts: Path | None, answers: Path | None, name: str):
    """The agent of ``triage --agent`` for the bench: its prompt written to ``prompts``, its answer read
    from ``answers`` (written by whoever stood in for the model), through the command's own parser. With
    both, ``prompts`` holds the prompts that were answered and is only read: an answer whose prompt showed
    other candidates than the command shows now is stale and not used."""
    from cc_hooks.record.triage_agent import AgentError, build_prompt, parse_answer

    def agent(phrasings, shown):
        prompt = build_prompt(phrasings, shown)
        answered = prompts / f"{name}.md" if prompts else None
        if answers is None:
            prompts.mkdir(parents=True, exist_ok=True)
            answered.write_text(prompt, encoding="utf-8")
            raise AgentError("prompt written; no answer asked")
        answer = answers / f"{name}.json"
        if not answer.exists():
            raise AgentError(f"no answer {name}.json")
        if answered is not None and (not answered.exists() or _listed(answered.read_text(encoding="utf-8")) != _listed(prompt)):
            raise AgentError(f"stale answer {name}.json: the candidates changed since its prompt")
        return parse_answer(answer.read_text(encoding="utf-8"), [s.id for s in shown])

    return agent


def _listed(prompt: str) -> list[str]:
    """The candidates a prompt shows, in order (``[C1] <sha>`` lines)."""
    import re

    return re.findall(r"^\[(C\d+)\] ([0-9a-f]{12}) ", prompt, re.M)


if __name__ == "__main__":
    sys.exit(main())
