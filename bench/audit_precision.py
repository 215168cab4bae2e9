"""Precision of the audit's mined questions (code oddities) on a labeled sample from real projects.

    python bench/audit_precision.py --clones /work/triage-data --set bench/audit_sets/oddities.tsv

For every project named in the set, ``scan_oddities`` runs on ``CLONES/<project>`` (a fresh clone);
each mined question is meaningful, noise, or unlabeled as the set says. Precision is meaningful /
(meaningful + noise); unlabeled questions are listed (label them, or the figure is incomplete).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cc_hooks.audit.questions import scan_oddities  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clones", required=True, type=Path)
    parser.add_argument("--set", required=True, type=Path, dest="set_file")
    args = parser.parse_args(argv)
    labels: dict[tuple[str, str], str] = {}
    for line in args.set_file.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            project, where, label = line.split("\t")[:3]
            labels[project, where] = label
    meaningful = noise = unlabeled = 0
    for project in dict.fromkeys(p for p, _ in labels):
        mined = scan_oddities(args.clones / project)
        counts = {"meaningful": 0, "noise": 0, None: 0}
        for oddity in mined:
            label = labels.get((project, f"{oddity.path}:{oddity.line}"))
            counts[label] += 1
            if label != "meaningful":
                print(f"  {label or 'UNLABELED'}: {project} {oddity.path}:{oddity.line} {oddity.what}: {oddity.text[:80]}")
        print(f"{project}: {len(mined)} questions, {counts['meaningful']} meaningful, {counts['noise']} noise, {counts[None]} unlabeled")
        meaningful, noise, unlabeled = meaningful + counts["meaningful"], noise + counts["noise"], unlabeled + counts[None]
    judged = meaningful + noise
    print(f"precision {meaningful}/{judged} = {meaningful / judged:.1%}; {unlabeled} unlabeled" if judged else "nothing judged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
