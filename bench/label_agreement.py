"""How far two labelings of the same mined audit questions agree: the share of questions both label
alike and Cohen's kappa (agreement beyond what the two labelers' shares of "meaningful" give by chance).

    python bench/label_agreement.py bench/audit_sets/independent12-held.tsv bench/audit_sets/agreement/independent12-second.tsv

A precision target means something only as far as labelers agree: a rule that pleases one labeler
and not another has learned that labeler.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit_precision import read_set  # noqa: E402


def agreement(first: dict, second: dict) -> tuple[int, int, float]:
    """(questions both labeled, questions labeled alike, Cohen's kappa) over the questions both labeled."""
    common = sorted(set(first) & set(second))
    if not common:
        return 0, 0, 0.0
    alike = sum(first[k] == second[k] for k in common)
    observed = alike / len(common)
    p1 = sum(first[k] == "meaningful" for k in common) / len(common)
    p2 = sum(second[k] == "meaningful" for k in common) / len(common)
    chance = p1 * p2 + (1 - p1) * (1 - p2)
    return len(common), alike, 1.0 if chance == 1 else (observed - chance) / (1 - chance)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: label_agreement.py FIRST.tsv SECOND.tsv", file=sys.stderr)
        return 2
    first, second = (read_set(Path(a)) for a in args)
    both, alike, kappa = agreement(first, second)
    if not both:
        print("no question is labeled in both files", file=sys.stderr)
        return 1
    differ = [k for k in sorted(set(first) & set(second)) if first[k] != second[k]]
    print(f"{both} questions labeled twice; alike {alike} = {alike / both:.1%}; Cohen's kappa {kappa:.2f}")
    for project, where in differ:
        print(f"  {project} {where}: {first[project, where]} / {second[project, where]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
