"""How often are the rehydration report's verdicts right? The labeled corpus, scored.

Builds the corpus repositories (``tests/accuracy/repos.py``, a second or two),
runs every case of ``tests/accuracy/cases/`` through the real pipeline
(``build_rehydration``), and prints the confusion matrix (labels × verdicts),
one row per error class, the accuracy on checkable claims and every wrong
verdict with its evidence.

    python bench/accuracy.py            # the report
    python bench/accuracy.py --json     # the same, as JSON
    python bench/accuracy.py --case tablekit-vacuum   # one case only
    python bench/accuracy.py --code /work/main         # score another checkout's cc_hooks

Exit status 0 when the figures meet ``tests/accuracy/thresholds.py``, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.accuracy import harness, thresholds  # noqa: E402

CLASS_NAMES = {
    "1": "remote-only branches",
    "2": "statements that something is gone",
    "3": "HEAD / branch position",
    "4": "a sha attributed to work",
    "5": "queue items",
    "6": "keyword flips to external",
    "7": "short shas",
    "8": "commit on another branch",
    "other": "everything else",
}


def report(run: harness.Run, seconds: float) -> dict:
    outcomes = run.outcomes
    correct, checkable = harness.accuracy(outcomes)
    return {
        "cases": run.cases,
        "claims": len(outcomes),
        "seconds": round(seconds, 2),
        "matrix": harness.matrix(outcomes),
        "per_class": harness.per_class(outcomes),
        "correct": correct,
        "checkable": checkable,
        "accuracy": round(correct / checkable, 4) if checkable else None,
        "false_verified": len(harness.false_verified(outcomes)),
        "false_contradicted": len(harness.false_contradicted(outcomes)),
        "not_found": len(harness.not_found(outcomes)),
        "wrong": [o.to_dict() for o in outcomes if not o.correct],
        "unlabeled": run.unlabeled,
        "meets_thresholds": thresholds.failures(outcomes) == [],
        "threshold_failures": thresholds.failures(outcomes),
    }


def print_report(data: dict, title: str = "Accuracy corpus", thresholds_line: bool = True) -> None:
    print(f"{title}: {data['cases']} cases, {data['claims']} labeled claims, {data['seconds']}s\n")
    columns = harness.VERDICT_COLUMNS
    print(f"{'label/verdict':<16}" + "".join(f"{c:>14}" for c in columns) + f"{'total':>8}")
    for label, row in data["matrix"].items():
        print(f"{label:<16}" + "".join(f"{row[c]:>14}" for c in columns) + f"{sum(row.values()):>8}")
    print()
    header = ["n", "TRUE", "FALSE", "UNCHECKABLE", "correct", "false VERIFIED", "false CONTRADICTED", harness.NOT_FOUND]
    print(f"{'class':<16}" + "".join(f"{h:>12}" for h in ["n", "T", "F", "U", "correct", "false V", "false C", "not found"]))
    for cls, row in data["per_class"].items():
        name = cls if cls.startswith("other:") else f"{cls} {CLASS_NAMES.get(cls, '')}"[:15]
        print(f"{name:<16}" + "".join(f"{row[h]:>12}" for h in header))
    print()
    if data["checkable"]:
        print(f"Correct on checkable claims (TRUE/FALSE): {data['correct']}/{data['checkable']} = {100 * data['accuracy']:.1f}%")
    print(f"False VERIFIED: {data['false_verified']}   False CONTRADICTED: {data['false_contradicted']}   Not found: {data['not_found']}")
    if data["wrong"]:
        print(f"\nWrong verdicts ({len(data['wrong'])}):")
        for w in sorted(data["wrong"], key=lambda w: (harness.class_of(w["cls"]), w["cls"], w["case"])):
            cites = f" (evidence lacks {', '.join(w['cites_missing'])})" if w["cites_missing"] else ""
            print(f"- [{w['cls']}] {w['case']}: {w['key']!r}")
            print(f"    label {w['label']} ({w['reason']}) → {w['verdict']}{cites}")
            if w["evidence"]:
                print(f"    evidence: {w['evidence']}")
    if data["unlabeled"]:
        count = sum(len(v) for v in data["unlabeled"].values())
        print(f"\nExtracted claims no label covers: {count}")
        for case, texts in data["unlabeled"].items():
            for text in texts:
                print(f"- {case}: {text[:120]}")
    if thresholds_line:
        print("\nThresholds: " + ("met" if data["meets_thresholds"] else "NOT met: " + "; ".join(data["threshold_failures"])))


def use_code(checkout: Path) -> None:
    """Import ``cc_hooks`` from ``checkout`` instead of this tree (nothing has imported it yet)."""
    package = checkout.resolve() / "cc_hooks"
    if not (package / "__init__.py").exists():
        raise SystemExit(f"{checkout} has no cc_hooks package")
    if "cc_hooks" in sys.modules:
        raise SystemExit("cc_hooks was imported before --code could take effect")
    sys.path.insert(0, str(checkout.resolve()))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    parser.add_argument("--code", type=Path, help="a checkout whose cc_hooks package is scored (default: this one)")
    args = parser.parse_args(argv)
    if args.code:
        use_code(args.code)
    cases = harness.load_cases()
    if args.case:
        cases = [c for c in cases if c.name in args.case]
        if not cases:
            print(f"no case named {', '.join(args.case)}", file=sys.stderr)
            return 2
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cc-hooks-accuracy-") as tmp:
        run = harness.run_all(Path(tmp), cases)
    data = report(run, time.monotonic() - started)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print_report(data)
    return 0 if data["meets_thresholds"] else 1


if __name__ == "__main__":
    sys.exit(main())
