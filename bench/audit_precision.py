"""Precision of the audit's mined questions (code oddities and stale docs) on labeled samples from real projects.

    python bench/audit_precision.py --clones /work/triage-data --set bench/audit_sets/independent.tsv

For every project named in a set, the audit (``cc_hooks.audit.run_audit``, program grading only) runs on
a scratch clone of ``CLONES/<project>`` (or ``CLONES/<project>/repo``) made in a temporary folder, so
nothing is written into the source. Each mined ``oddity`` and ``stale`` question is meaningful, noise
or unlabeled as the set says (an oddity's label may sit on one of its copies; a question is meaningful when any of its places is). Precision is
meaningful / (meaningful + noise), per project, per kind and overall; unlabeled questions are listed
(label them, or the figure is incomplete), and so are meaningful labels no longer asked (a recall loss). Several ``--set`` files are scored one after the other.

``--set-aside FILE`` (``bench/audit_agent/set-aside.tsv``: project, where, the agent's reason): the
questions the ``--agent`` audit's agent set aside leave the score, as they leave the report's; each
meaningful one set aside is listed (the agent's recall loss) and counted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KINDS = ("oddity", "stale")
_MINED: dict = {}  # source -> its mined questions, for every set of one run


def _rows(path: Path) -> list[list[str]]:
    """The tab-separated fields of each line of a bench file, comments and blank lines left out."""
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


def read_set(path: Path) -> dict[tuple[str, str], str]:
    """(project, where) -> meaningful or noise."""
    return {(project, where): label for project, where, label, *_ in _rows(path)}


def source_of(project: str, roots: list[Path]):
    for root in roots:
        for candidate in (root / project, root / project / "repo"):
            if (candidate / ".git").exists() or (candidate / "HEAD").is_file():
                return candidate
    return None


def _clone(source: Path, clone: Path) -> None:
    """Clone ``source``; a snapshot missing some large blobs gets every file it has checked out."""
    if subprocess.run(["git", "clone", "-q", str(source), str(clone)], capture_output=True).returncode == 0:
        return
    subprocess.run(["rm", "-rf", str(clone)], check=True)
    subprocess.run(["git", "clone", "-q", "-n", str(source), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "read-tree", "HEAD"], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout-index", "-a", "-f"], capture_output=True)


def mined(source: Path) -> list[tuple[str, str, list[str], str]]:
    """(kind, where, copies, text) of every oddity and stale question the audit asks on a scratch clone."""
    from cc_hooks.audit import run_audit
    from cc_hooks.config import load_config_or_default

    with tempfile.TemporaryDirectory(prefix="audit-precision-") as scratch:
        clone = Path(scratch) / "clone"
        _clone(source, clone)
        # A user's clone has its origin's branches: carry the source's remote-tracking refs over.
        subprocess.run(["git", "-C", str(clone), "fetch", "-q", str(source), "+refs/remotes/origin/*:refs/remotes/origin/*"],
                       check=False, capture_output=True)
        config, _ = load_config_or_default(clone)
        result = run_audit(clone, config)
    found = []
    for graded in result.graded:
        question = graded.question
        if question.kind == "oddity":
            found.append(("oddity", question.source, list(question.data.get("copies", [])), question.text))
        elif question.kind == "stale":
            found.append(("stale", f"stale:{question.source}", [], question.text))
    return found


def read_set_aside(path: Path) -> dict[tuple[str, str], str]:
    """(project, where) -> the agent's reason for setting that mined question aside."""
    return {(project, where): why.strip() for project, where, why in _rows(path)}


def label_of(labels: dict, project: str, where: str, copies: list[str]):
    """The label of the question asked at ``where`` for it and its copies: meaningful when any of its
    places is (a copy labeled "noise: a duplicate of X" is X's question once the two are one), else
    the first label found."""
    found = [labels[project, place] for place in (where, *copies) if (project, place) in labels]
    return "meaningful" if "meaningful" in found else (found[0] if found else None)


def score(set_file: Path, roots: list[Path], set_aside: dict | None = None) -> Counter:
    labels = read_set(set_file)
    set_aside = set_aside or {}
    totals: Counter = Counter()
    print(f"== {set_file}")
    for project in dict.fromkeys(p for p, _ in labels):
        source = source_of(project, roots)
        if source is None:
            print(f"{project}: no clone under {', '.join(map(str, roots))}: skipped")
            continue
        counts: Counter = Counter()
        asked = set()
        if source not in _MINED:  # a project in several sets is mined once
            _MINED[source] = mined(source)
        for kind, where, copies, text in _MINED[source]:
            asked.update((where, *copies))
            label = label_of(labels, project, where, copies) or "unlabeled"
            if (project, where) in set_aside:
                counts["set aside", label] += 1
                if label == "meaningful":
                    print(f"  SET ASIDE (meaningful): {project} {where}: {set_aside[project, where][:100]}")
                continue
            counts[kind, label] += 1
            if label != "meaningful":
                print(f"  {label.upper()}: {project} {where}: {text[:100]}")
        parts = [f"{kind} {counts[kind, 'meaningful']}/{counts[kind, 'meaningful'] + counts[kind, 'noise']}"
                 + (f" (+{counts[kind, 'unlabeled']} unlabeled)" if counts[kind, "unlabeled"] else "") for kind in KINDS]
        missed = [where for (p, where), label in labels.items() if p == project and label == "meaningful" and where not in asked]
        for where in missed:
            print(f"  MISSED: {project} {where} (labeled meaningful, no longer asked)")
        print(f"{project}: {sum(counts.values())} questions; meaningful/judged: " + ", ".join(parts)
              + (f"; {len(missed)} meaningful label(s) not asked" if missed else ""))
        counts["missed", "meaningful"] += len(missed)
        totals.update(counts)
    print(f"meaningful labels no longer asked: {totals['missed', 'meaningful']}")
    totals.pop(("missed", "meaningful"), None)
    if set_aside:
        print(f"set aside by the agent: {totals.pop(('set aside', 'meaningful'), 0)} meaningful, {totals.pop(('set aside', 'noise'), 0)} noise, "
              f"{totals.pop(('set aside', 'unlabeled'), 0)} unlabeled")
    for kind in (*KINDS, None):
        good = sum(n for (k, label), n in totals.items() if label == "meaningful" and kind in (None, k))
        judged = sum(n for (k, label), n in totals.items() if label in ("meaningful", "noise") and kind in (None, k))
        unlabeled = sum(n for (k, label), n in totals.items() if label == "unlabeled" and kind in (None, k))
        name = kind or "overall"
        print(f"{name} precision {good}/{judged} = {good / judged:.1%}; {unlabeled} unlabeled" if judged else f"{name}: nothing judged")
    return totals


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clones", required=True, type=Path, action="append", help="folder of <owner>+<name> clones (repeatable)")
    parser.add_argument("--set", required=True, type=Path, dest="set_files", action="append", help="a labels file (repeatable)")
    parser.add_argument("--set-aside", type=Path, help="the questions the audit's agent set aside (bench/audit_agent/set-aside.tsv)")
    args = parser.parse_args(argv)
    set_aside = read_set_aside(args.set_aside) if args.set_aside else {}
    for set_file in args.set_files:
        score(set_file, args.clones, set_aside)
    return 0


if __name__ == "__main__":
    sys.exit(main())
