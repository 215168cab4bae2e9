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
AUDIT_SETS = sorted((BENCH / "audit_sets").glob("*.tsv")) + sorted((BENCH / "audit_sets" / "agreement").glob("*.tsv"))


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


def test_label_agreement_counts_alike_labels_and_corrects_for_chance(tmp_path, capsys):
    """Agreement on 2 of 4 questions when each labeler calls half of them meaningful is chance
    (kappa 0); on 3 of 4, with shares of 1/2 and 3/4, kappa is 0.5. A question only one labeled is
    left out, and two files with no question in common are an error."""
    from audit_precision import read_set as read_labels
    from label_agreement import agreement, main

    def labels(name, rows):
        path = tmp_path / name
        path.write_text("# a header\n" + "".join(f"p\ta:{n}\t{label}\twhy\tno\n" for n, label in rows))
        return path

    first = labels("first.tsv", [(1, "meaningful"), (2, "meaningful"), (3, "noise"), (4, "noise"), (5, "noise")])
    chance = labels("chance.tsv", [(1, "meaningful"), (2, "noise"), (3, "meaningful"), (4, "noise")])
    better = labels("better.tsv", [(1, "meaningful"), (2, "meaningful"), (3, "meaningful"), (4, "noise")])
    both, alike, kappa = agreement(read_labels(first), read_labels(chance))
    assert (both, alike, kappa) == (4, 2, pytest.approx(0.0))
    both, alike, kappa = agreement(read_labels(first), read_labels(better))
    assert (both, alike, kappa) == (4, 3, pytest.approx(0.5))
    assert main([str(first), str(better)]) == 0
    assert "alike 3 = 75.0%; Cohen's kappa 0.50" in capsys.readouterr().out
    assert main([str(first), str(labels("other.tsv", [(9, "noise")]))]) == 1


def test_the_agents_set_asides_name_a_place_and_a_reason():
    from audit_precision import read_set_aside

    found = read_set_aside(BENCH / "audit_agent" / "set-aside.tsv")
    assert len(found) >= 100
    for (project, where), why in found.items():
        assert re.fullmatch(r"[\w.-]+\+[\w.-]+", project) and re.fullmatch(r"(stale:)?[^\t:]+:\d+", where), (project, where)
        assert len(why) >= 10


def test_a_question_the_agent_set_aside_leaves_the_precision_and_a_meaningful_one_is_listed(tmp_path, monkeypatch, capsys):
    import audit_precision

    labels = tmp_path / "labels.tsv"
    labels.write_text("# header\n" + "".join(f"o+p\ta.py:{n}\t{label}\twhy\tno\n"
                                             for n, label in [(1, "meaningful"), (2, "meaningful"), (3, "noise"), (4, "noise")]))
    monkeypatch.setattr(audit_precision, "_MINED", {})
    monkeypatch.setattr(audit_precision, "source_of", lambda project, roots: tmp_path)
    monkeypatch.setattr(audit_precision, "mined", lambda source: [("oddity", f"a.py:{n}", [], f"why hack {n}?") for n in (1, 2, 3, 4)])
    totals = audit_precision.score(labels, [tmp_path], {("o+p", "a.py:2"): "a test's own double", ("o+p", "a.py:3"): "test data"})
    out = capsys.readouterr().out
    assert "SET ASIDE (meaningful): o+p a.py:2: a test's own double" in out
    assert "set aside by the agent: 1 meaningful, 1 noise, 0 unlabeled" in out
    assert "overall precision 1/2 = 50.0%" in out
    assert totals["oddity", "meaningful"] == 1 and totals["oddity", "noise"] == 1


def test_a_project_in_several_sets_is_mined_once(tmp_path, monkeypatch, capsys):
    import audit_precision

    labels = tmp_path / "labels.tsv"
    labels.write_text("o+p\ta.py:1\tmeaningful\twhy\tno\n")
    calls = []
    monkeypatch.setattr(audit_precision, "_MINED", {})
    monkeypatch.setattr(audit_precision, "source_of", lambda project, roots: tmp_path)
    monkeypatch.setattr(audit_precision, "mined", lambda source: calls.append(source) or [("oddity", "a.py:1", [], "why hack?")])
    assert audit_precision.main(["--clones", str(tmp_path), "--set", str(labels), "--set", str(labels)]) == 0
    assert calls == [tmp_path] and capsys.readouterr().out.count("overall precision 1/1 = 100.0%") == 2
