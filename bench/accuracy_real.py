"""Score a hand-labeled dashboard against a real repository (a validation aid, not a test).

    python bench/accuracy_real.py --repo /path/to/clone --case bench/real_cases/click-pager.md
    python bench/accuracy_real.py --repo ... --case ... --json
    python bench/accuracy_real.py --repo ... --case ... --code /work/main   # another checkout's cc_hooks

The case uses the corpus format (``tests/accuracy/harness.py``) with literal
SHAs instead of placeholders. The dashboard is written as ``next_steps.md`` in
the clone (excluded through ``.git/info/exclude``) and removed afterwards.
Needs a clone of the public repository the case names; nothing here is
fetched, so the tests never depend on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.accuracy import harness  # noqa: E402


class PlainRepo:
    """A real clone: text is taken literally (no placeholders)."""

    def __init__(self, path: Path):
        self.path = Path(path).resolve()
        self.name = self.path.name

    def resolve(self, text: str) -> str:
        return text


def main(argv=None) -> int:
    sys.path.insert(0, str(ROOT / "bench"))
    from accuracy import print_report, report, use_code  # the same report as bench/accuracy.py

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True, type=Path, help="a clone of the repository the case is about")
    parser.add_argument("--case", required=True, type=Path, action="append", help="a labeled case file (repeatable)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--code", type=Path, help="a checkout whose cc_hooks package is scored (default: this one)")
    args = parser.parse_args(argv)
    if args.code:
        use_code(args.code)
    if not (args.repo / ".git").exists():
        print(f"{args.repo} is not a git work tree", file=sys.stderr)
        return 2
    repo = PlainRepo(args.repo)
    started = time.monotonic()
    outcomes, unlabeled = [], {}
    for path in args.case:
        case = harness.parse_case(path)
        found, rest = harness.run_case(case, repo, strict=False)
        outcomes += found
        if rest:
            unlabeled[case.name] = [c.text for c in rest]
    data = report(harness.Run(outcomes, unlabeled, len(args.case)), time.monotonic() - started)
    data.pop("meets_thresholds")
    data.pop("threshold_failures")
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print_report(data, title=f"Real repository {repo.name}", thresholds_line=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
