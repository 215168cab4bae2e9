"""The accuracy corpus holds the verdicts to issue 15's bar (thresholds.py).

The corpus tests run the real pipeline on every labeled claim; the self-tests
check the ruler itself: the builders are deterministic, placeholders resolve,
and every case parses and names a real repository.
"""

from __future__ import annotations

import pytest

from . import harness, thresholds
from .build import fingerprint
from .repos import SPECS, build_all


@pytest.fixture(scope="session")
def corpus_repos(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("accuracy-corpus"))


@pytest.fixture(scope="session")
def corpus_run(corpus_repos):
    return harness.run_all(None, repos=corpus_repos)


# --- the ruler ------------------------------------------------------------


def test_builders_are_deterministic(corpus_repos, tmp_path):
    again = build_all(tmp_path)
    for name, repo in corpus_repos.items():
        assert fingerprint(again[name]) == fingerprint(repo), name


def test_placeholders_resolve(corpus_repos):
    repo = corpus_repos["tablekit"]
    full = repo.shas["views-fix"]
    assert repo.resolve("{sha:views-fix}") == full[:7]
    assert repo.resolve("{sha12:views-fix}") == full[:12]
    assert repo.resolve("{sha4:views-fix}") == full[:4]
    assert repo.git("rev-parse", "--verify", "-q", full[:4] + "^{commit}").strip() == full
    absent = repo.resolve("{nosha4:x}")
    assert not any(o.startswith(absent) for o in repo._objects)
    line = int(repo.resolve("{line:tablekit/db.py:def rows_where}"))
    assert repo.head_text("tablekit/db.py").splitlines()[line - 1].startswith("def rows_where(")
    with pytest.raises(KeyError):
        repo.resolve("{sha:no-such-mark}")


def test_ambiguous_prefix_is_ambiguous_to_git(corpus_repos):
    repo = corpus_repos["docsite"]
    prefix = repo.resolve("{amb4:nav-fix}")
    assert repo.shas["nav-fix"].startswith(prefix)
    commits = repo.git("rev-list", "--all").split()
    assert sum(1 for c in commits if c.startswith(prefix)) == 2


def test_clones_have_remote_only_branches(corpus_repos):
    repo = corpus_repos["tablekit"]
    assert repo.git("branch", "--format=%(refname)").split() == ["refs/heads/main"]
    assert "refs/remotes/origin/3.x" in repo.git("for-each-ref", "--format=%(refname)", "refs/remotes")


def test_every_case_parses_and_names_a_repository():
    names = {spec().name for spec in SPECS}
    cases = harness.load_cases()
    assert cases
    for case in cases:
        assert case.repo in names, case.name


def test_every_placeholder_of_every_case_resolves(corpus_repos):
    for case in harness.load_cases():
        repo = corpus_repos[case.repo]
        for text in (case.dashboard, case.summary, *(label.key for label in case.labels), *(c for label in case.labels for c in label.cites)):
            if text:
                assert "{" not in repo.resolve(text).replace("{{", ""), (case.name, text)


def test_short_prefixes_must_be_unique_and_have_a_letter(corpus_repos):
    repo = corpus_repos["ratelimit"]
    digits = next(m for m, sha in repo.shas.items() if sha[:4].isdigit())
    with pytest.raises(ValueError, match="no hex letter"):
        repo.sha(digits, 4)
    with pytest.raises(ValueError, match="not a unique prefix"):
        corpus_repos["docsite"].sha("nav-fix", 4)


def test_cites_accept_any_prefix_the_evidence_uses():
    full = "e278eefb0123456789abcdef0123456789abcdef"
    assert harness.names_commit('e278e "Add sliding window limiter" is reachable', full)
    assert harness.names_commit("landed in e278eef", full[:7])
    assert not harness.names_commit("landed in e279eef", full)


def test_dashboard_is_read_while_excluded(corpus_repos):
    """The harness's way of placing next_steps.md leaves `git status` clean and is still read."""
    case = harness.Case("probe", "tablekit", "## CURRENT STATE — 2026-11-24\nResume point: x.\n- Working tree clean.\n", None, None,
                        [harness.Label("TRUE", "other:clean", "Working tree clean.", "clean")])
    outcomes, _ = harness.run_case(case, corpus_repos["tablekit"])
    assert outcomes[0].verdict == "VERIFIED", outcomes[0].evidence
    assert corpus_repos["tablekit"].git("status", "--porcelain") == ""


def test_labels_match_one_claim_or_are_reported(corpus_repos):
    dashboard = "## CURRENT STATE — 2026-11-24\nResume point: x.\n- `setup.py` is gone.\n- `setup.py` is gone for good.\n"
    label = lambda key: harness.Label("TRUE", "2", key, "r")  # noqa: E731
    case = harness.Case("probe", "tablekit", dashboard, None, None, [label("`setup.py` is gone."), label("never written")])
    outcomes, unlabeled = harness.run_case(case, corpus_repos["tablekit"])
    assert [o.verdict != harness.NOT_FOUND for o in outcomes] == [True, False]  # exact text first, then substrings
    assert [c.text for c in unlabeled] == ["x.", "`setup.py` is gone for good."]
    case.labels = [label("`setup.py` is gone")]
    with pytest.raises(harness.CaseError, match="matches 2 claims"):
        harness.run_case(case, corpus_repos["tablekit"])


def test_every_dashboard_claim_is_labeled(corpus_run):
    """A dashboard's claims are its resume point and bullets (DESIGN.md): each one has a label.
    (A summary may yield claims no label covers: what the extractor takes from prose may grow.)"""
    missing = {case: [t for t in texts if t.startswith("dashboard: ")] for case, texts in corpus_run.unlabeled.items()}
    assert not {case: texts for case, texts in missing.items() if texts}


# --- the corpus -----------------------------------------------------------


def test_corpus_size_and_coverage(corpus_run):
    outcomes = corpus_run.outcomes
    assert len(outcomes) >= thresholds.MIN_LABELED_CLAIMS
    for cls in harness.CLASSES:
        for label in ("TRUE", "FALSE"):
            n = sum(1 for o in outcomes if o.cls == cls and o.label == label)
            assert n >= thresholds.MIN_PER_CLASS_AND_POLARITY, f"class {cls} {label}: {n}"


def test_every_labeled_claim_is_found(corpus_run):
    missing = harness.not_found(corpus_run.outcomes)
    assert len(missing) <= thresholds.MAX_NOT_FOUND, [f"{o.case}: {o.key}" for o in missing]


def test_no_false_verified(corpus_run):
    wrong = harness.false_verified(corpus_run.outcomes)
    assert len(wrong) <= thresholds.MAX_FALSE_VERIFIED, _describe(wrong)


def test_no_false_contradicted(corpus_run):
    wrong = harness.false_contradicted(corpus_run.outcomes)
    assert len(wrong) <= thresholds.MAX_FALSE_CONTRADICTED, _describe(wrong)


def test_correct_share_of_checkable_claims(corpus_run):
    correct, checkable = harness.accuracy(corpus_run.outcomes)
    wrong = [o for o in corpus_run.outcomes if o.checkable and not o.correct]
    assert correct >= thresholds.MIN_CORRECT_SHARE * checkable, _describe(wrong)


def _describe(outcomes) -> str:
    return "\n" + "\n".join(f"[{o.cls}] {o.case}: {o.key!r} {o.label} -> {o.verdict}: {o.evidence}" for o in outcomes)
