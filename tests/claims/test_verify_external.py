"""Probes run only when trusted, without a shell, within their timeout."""

import sys

import tomli_w

from cc_hooks import trust
from cc_hooks.claims.model import CONTRADICTED, EXTERNAL, UNVERIFIED, VERIFIED

PY = sys.executable


def setup_probes(repo, **probes):
    """``name=(python code, {extra fields})``: each probe runs ``python -c code``."""
    table = {name: {"argv": [PY, "-c", code], **extra} for name, (code, extra) in probes.items()}
    repo.write(".cc-hooks.toml", tomli_w.dumps({"probes": table}))
    return repo.config()


def test_untrusted_probe_leaves_the_claim_unverified(repo, tmp_path):
    marker = tmp_path / "ran"
    setup_probes(repo, staging=(f"open({str(marker)!r}, 'w')", {}))
    claim = repo.check("Staging runs v1.4.2. (probe: staging)")
    assert claim.kind == EXTERNAL
    assert claim.verdict == UNVERIFIED and "probe not trusted" in claim.evidence
    assert not marker.exists(), "an untrusted probe must never run"


def test_trusted_probe_that_passes_verifies(repo):
    config = setup_probes(repo, staging=("print('version v1.4.2')", {"expect": "v1.4.2"}))
    trust.trust(repo.path, config)
    claim = repo.check("Staging runs v1.4.2. (probe: staging)")
    assert claim.verdict == VERIFIED and "output contains 'v1.4.2'" in claim.evidence


def test_trusted_probe_with_other_output_contradicts(repo):
    config = setup_probes(repo, staging=("print('version v1.4.1')", {"expect": "v1.4.2"}))
    trust.trust(repo.path, config)
    claim = repo.check("Staging runs v1.4.2. (probe: staging)")
    assert claim.verdict == CONTRADICTED and "it said: version v1.4.1" in claim.evidence


def test_failing_probe_is_unverified_never_verified(repo):
    config = setup_probes(repo, ci=("import sys; sys.exit(3)", {}))
    trust.trust(repo.path, config)
    claim = repo.check("CI is green. (probe: ci)")
    assert claim.verdict == UNVERIFIED and "failed (exit 3)" in claim.evidence


def test_probe_timeout_is_unverified(repo):
    config = setup_probes(repo, slow=("import time; time.sleep(5)", {"timeout": 0.3}))
    trust.trust(repo.path, config)
    claim = repo.check("Deployed. (probe: slow)")
    assert claim.verdict == UNVERIFIED and "timed out" in claim.evidence


def test_changed_probe_table_is_untrusted_again(repo):
    config = setup_probes(repo, staging=("print('v1.4.2')", {}))
    trust.trust(repo.path, config)
    assert repo.check("Staging is up. (probe: staging)").verdict == VERIFIED
    setup_probes(repo, staging=("print('v1.4.2'); print('changed')", {}))
    claim = repo.check("Staging is up. (probe: staging)")
    assert claim.verdict == UNVERIFIED and "changed since it was trusted" in claim.evidence


def test_unknown_probe_and_external_claim_without_probe(repo):
    claim = repo.check("Staging is up. (probe: nosuch)")
    assert claim.verdict == UNVERIFIED and "no probe named nosuch" in claim.evidence
    claim = repo.check("Deployed to production.")
    assert claim.kind == EXTERNAL and claim.verdict == UNVERIFIED


def test_a_probe_no_config_names_does_not_load_the_trust_store(repo):
    """No probe configured: the claim is UNVERIFIED at once, without importing `cc_hooks.trust` (its
    hashing) on the hook's path."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from cc_hooks.claims.extract import claim_from_line\n"
        "from cc_hooks.claims.verify import verify_claims\n"
        "from cc_hooks.config import Config\n"
        "from cc_hooks.runtime import Deadline\n"
        "claim = claim_from_line('Staging runs v2. (probe: staging)', 'next_steps.md', 3, 'state', '2026-11-29')\n"
        "verify_claims(sys.argv[1], [claim], Config(), Deadline(20))\n"
        "print(claim.verdict, 'cc_hooks.trust' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(repo.path)], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["UNVERIFIED", "False"]
