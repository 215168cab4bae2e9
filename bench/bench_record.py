"""Ledger parsing cost: SYMPTOMS.md of 1,000 entries and DECISIONS.md of 500.

Each parse (text -> models + findings) is compared with just reading the same
file from disk (``Path.read_text``), measured in the same run; the ratio is
what to watch, absolute times drift on shared machines. Also times the
append-only check of a whole ledger against itself plus one appended entry.

    python bench/bench_record.py [--runs N] [--smoke]
"""

from __future__ import annotations

import argparse
import datetime
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _timing import machine, table, time_call  # noqa: E402

from cc_hooks.record.append_only import compare_versions  # noqa: E402
from cc_hooks.record.decisions import parse_decisions  # noqa: E402
from cc_hooks.record.symptoms import parse_symptoms  # noqa: E402


def symptoms_text(entries: int) -> str:
    out = ["# Symptom Index", "", "Append-only. Keyed by observable.", "", "---", ""]
    for i in range(entries):
        out += [
            f"## Symptom: request {i} times out after a deploy",
            "",
            "**Known causes** (a recurring symptom may gain new causes — list all):",
            "",
            f"### Cause 1: connection pool {i} exhausted — fixed in {i:06x}a",
            "- **Mechanism**: the pool kept idle connections to the old backend,",
            "  so new requests waited for a slot until the client gave up.",
            "- **Discriminator**: `SELECT count(*) FROM pg_stat_activity` at the pool limit.",
            f"- **Fix**: recycle connections on deploy ({i:06x}a)",
            f"- **Guard**: tests/test_pool.py::test_recycle_{i}",
            "",
            f"### Cause 2: DNS cached for {i} s — fixed in `{i:06x}b`",
            "* **Mechanism:** the resolver ignored the TTL.",
            "* **Discriminator:** `dig` shows the new address, the app the old one.",
            f"* **Fix:** honour the TTL ({i:06x}b)",
            "* **Guard:** none — needs a fake resolver",
            "",
            "**Ruled out**:",
            "- Load balancer health checks — eliminated by their logs showing 200s, 2026-11-20",
            "- Slow queries -- eliminated by the query log, 2026-11-21",
            "- GC pauses — eliminated by GC logs under 5 ms, 2026-11-22",
            "",
        ]
    return "\n".join(out)


def decisions_text(entries: int) -> str:
    out = ["# Decision Ledger", "", "Append-only, dated.", "", "---", ""]
    first = datetime.date(2024, 1, 1)
    for i in range(entries):
        out += [
            f"## {first + datetime.timedelta(days=i)} — Decision number {i}",
            "",
            f"**Decision**: adopt option {i} for the cache layer.",
            "**Context**: the forces at play: latency, cost and the",
            "operational burden of another moving part.",
            "**Rejected alternatives**:",
            "- Option A — rejected because it doubles the cost.",
            "- Option B — rejected because it needs a new service",
            "  that nobody on the team operates.",
            "**Consequences**: the cache must be warmed on deploy.",
            "**Amends**: none",
            "",
        ]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--smoke", action="store_true", help="tiny files and few runs, to keep the script from rotting")
    args = parser.parse_args()
    runs, n_symptoms, n_decisions = (2, 20, 10) if args.smoke else (args.runs, 1000, 500)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, parse, count in (
            ("SYMPTOMS.md", symptoms_text(n_symptoms), parse_symptoms, n_symptoms),
            ("DECISIONS.md", decisions_text(n_decisions), parse_decisions, n_decisions),
        ):
            path = Path(tmp) / name
            path.write_text(text, encoding="utf-8")
            ledger = parse(text, name)
            assert len(ledger.entries) == count and not ledger.findings, [str(f) for f in ledger.findings[:3]]
            read = time_call(lambda: path.read_text(encoding="utf-8"), runs)
            parsed = time_call(lambda: parse(path.read_text(encoding="utf-8"), name), runs)
            appended = text + "\n## 2099-01-01 — appended\n"
            check = time_call(lambda: compare_versions(text, appended, name), runs)
            size = f"{count} entries, {len(text.splitlines())} lines, {len(text) // 1024} KiB"
            rows.append((f"{name}: read", size, f"{read * 1000:.2f}", "1"))
            rows.append((f"{name}: read + parse", "", f"{parsed * 1000:.1f}", f"{parsed / read:.0f}"))
            rows.append((f"{name}: append-only compare", "", f"{check * 1000:.1f}", f"{check / read:.0f}"))
    print(f"Machine: {machine()}; median of {runs} runs after a warm-up\n")
    print(table(rows, ("operation", "file", "ms", "x read")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
