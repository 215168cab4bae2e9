"""Claims, right and unresolved per predicate, on the labeled corpora (the table of docs/rehydration.md).

    python bench/predicate_table.py                                   # the tuned corpus (tests/accuracy)
    python bench/predicate_table.py --repo /tmp/corpora/log --cases bench/coverage_sets/log

A claim counts under the first predicate of ``PREDICATES`` its statements model (a sentence naming
only things counts as "the things it names exist"); only TRUE and FALSE labels are counted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.accuracy import harness  # noqa: E402

# (predicate as docs/rehydration.md names it, the statement kinds that model it), first match wins
PREDICATES = (
    ("what a commit did to a code name", {"code_added", "code_removed", "code_renamed"}),
    ("a code name at HEAD", {"code_at_head"}),
    ("reverted / reverts", {"reverted", "reverts"}),
    ("authored by", {"authored"}),
    ("order of commits", {"before"}),
    ("changed since / last changed", {"changed_since", "last_changed"}),
    ("latest release or tag", {"latest_tag"}),
    ("release containing a commit", {"in_release"}),
    ("on a branch (ancestry or same patch)", {"reached", "reachable", "merged", "only_on", "same_tip", "up_to_date"}),
    ("created / renamed (files)", {"created", "renamed"}),
    ("removed / never existed / on a named branch", {"gone", "never_existed", "exists_at"}),
    ("what a file or line says", {"mentions", "contains"}),
    ("what a commit did (message, paths)", {"about", "touched"}),
    ("HEAD, work tree, push state", {"head_at", "clean", "staged", "pushed", "ahead", "behind", "stash", "branch_at"}),
    ("queue items", {"queue"}),
    ("the last state's position", {"position"}),
    ("external state (probes)", {"external"}),
)


def predicate_of(kinds: list[str]) -> str:
    return next((name for name, modeled in PREDICATES if modeled & set(kinds)), "the things it names exist")


def outcomes(repo: Path | None, cases: Path | None) -> list:
    if repo is None:
        with tempfile.TemporaryDirectory() as tmp:
            return harness.run_all(Path(tmp)).outcomes
    from accuracy_real import PlainRepo

    found = []
    for path in sorted(cases.glob("*.md")):
        found += harness.run_case(harness.parse_case(path), PlainRepo(repo))[0]
    return found


def table(found: list) -> list[tuple[str, int, int, int, int, int]]:
    """(predicate, claims, right, unresolved, right verdict whose evidence lacks the labeled commit, false
    verdict) for the checkable outcomes, in PREDICATES order."""
    counts: dict[str, Counter] = {}
    for outcome in (o for o in found if o.checkable):
        row = counts.setdefault(predicate_of(outcome.kinds), Counter())
        row["claims"] += 1
        row["right"] += outcome.correct
        row["unresolved"] += outcome.verdict in ("UNVERIFIED", harness.NOT_FOUND)
        row["false"] += outcome.verdict == harness.EXPECTED["FALSE" if outcome.label == "TRUE" else "TRUE"]
        row["lacking"] += outcome.verdict == harness.EXPECTED[outcome.label] and not outcome.correct
    order = [name for name, _ in PREDICATES] + ["the things it names exist"]
    return [(n, *(counts[n][k] for k in ("claims", "right", "unresolved", "lacking", "false"))) for n in order if n in counts]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="a clone the cases are about (default: the tuned corpus)")
    parser.add_argument("--cases", type=Path, action="append", help="a directory of labeled cases for --repo (repeatable)")
    args = parser.parse_args(argv)
    found = []
    for cases in args.cases or [None]:
        found += outcomes(args.repo, cases)
    print("| predicate | claims | right | unresolved | evidence lacks the commit | false verdict |\n|---|---|---|---|---|---|")
    for row in table(found):
        print("| " + " | ".join(map(str, row)) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
