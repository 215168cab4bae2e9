"""The labeled sets the accuracy benches read are well formed: a set that silently parses to
nothing, or a label that is neither meaningful nor noise, would make a figure meaningless."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

TRIAGE_SETS = sorted((BENCH / "triage_sets").glob("*.tsv"))
AUDIT_SETS = sorted((BENCH / "audit_sets").glob("*.tsv"))


@pytest.mark.parametrize("path", TRIAGE_SETS, ids=lambda p: p.stem)
def test_every_triage_symptom_names_its_fix_and_a_phrasing(path):
    from triage_accuracy import read_set, shas

    items = read_set(path)
    assert len(items) >= 8
    for sha, phrasings, _gone in items:
        assert shas(sha) and all(re.fullmatch(r"[0-9a-f]{7,40}", one) for one in shas(sha)), sha
        assert phrasings and all(len(p) >= 10 for p in phrasings)


@pytest.mark.parametrize("path", AUDIT_SETS, ids=lambda p: p.stem)
def test_every_audit_label_is_meaningful_or_noise_with_a_reason(path):
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    assert rows
    for row in rows:
        assert row[2] in ("meaningful", "noise") and row[3].strip(), row[:3]
        assert re.fullmatch(r"(stale:)?[^\t:]+:\d+", row[1]), row[1]
