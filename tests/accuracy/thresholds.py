"""What the accuracy corpus must show (issue 15, "Measure it"): the one place the bar is set."""

from __future__ import annotations

MIN_LABELED_CLAIMS = 300
MIN_PER_CLASS_AND_POLARITY = 3  # every class 1-8, TRUE and FALSE, in several phrasings
MAX_FALSE_VERIFIED = 0  # VERIFIED on a claim labeled FALSE or UNCHECKABLE
MAX_FALSE_CONTRADICTED = 0  # CONTRADICTED on a claim labeled TRUE or UNCHECKABLE
MAX_NOT_FOUND = 0  # every labeled claim is found by the extractor
MIN_CORRECT_SHARE = 0.95  # of the checkable claims (labeled TRUE or FALSE)


def failures(outcomes) -> list[str]:
    """Which thresholds the outcomes miss, as sentences (empty: all met)."""
    from . import harness

    problems = []
    if len(outcomes) < MIN_LABELED_CLAIMS:
        problems.append(f"{len(outcomes)} labeled claims, fewer than {MIN_LABELED_CLAIMS}")
    for cls in harness.CLASSES:
        for label in ("TRUE", "FALSE"):
            n = sum(1 for o in outcomes if o.cls == cls and o.label == label)
            if n < MIN_PER_CLASS_AND_POLARITY:
                problems.append(f"class {cls} has {n} {label} claims, fewer than {MIN_PER_CLASS_AND_POLARITY}")
    fv, fc, nf = len(harness.false_verified(outcomes)), len(harness.false_contradicted(outcomes)), len(harness.not_found(outcomes))
    if fv > MAX_FALSE_VERIFIED:
        problems.append(f"{fv} false VERIFIED")
    if fc > MAX_FALSE_CONTRADICTED:
        problems.append(f"{fc} false CONTRADICTED")
    if nf > MAX_NOT_FOUND:
        problems.append(f"{nf} labeled claims not found by the extractor")
    correct, checkable = harness.accuracy(outcomes)
    if checkable and correct / checkable < MIN_CORRECT_SHARE:
        problems.append(f"{correct}/{checkable} checkable claims correct ({100 * correct / checkable:.1f}%), under {100 * MIN_CORRECT_SHARE:.0f}%")
    return problems

