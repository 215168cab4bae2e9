"""Dashboard file backend: parse a large next_steps.md, against the cost of reading it.

The file: a CURRENT STATE block of 200 claims (shas, branches, paths, refs,
probes) and a QUEUED section of 500 dated items. Baseline in the same run:
reading the file and splitting its lines. Also timed: the whole ``read()``
and one ``queue()`` (a minimal rewrite plus an atomic, fsynced replace).

    python bench/bench_dashboard.py [--runs N] [--smoke]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _timing import machine, table, time_call  # noqa: E402

from cc_hooks.record.backends import file as file_backend  # noqa: E402

CLAIMS, ITEMS = 200, 500


def make_dashboard(claims: int = CLAIMS, items: int = ITEMS) -> str:
    lines = ["# Next steps", "", "## CURRENT STATE — 2026-11-29", "Resume point: finishing the fix on `fix/refresh-0`."]
    for i in range(claims - 1):
        kind = i % 5
        if kind == 0:
            lines.append(f"- Branch `fix/refresh-{i}` at `{i:04x}abc{i:03d}`, not merged into `main`.")
        elif kind == 1:
            lines.append(f"- The handler in `src/module_{i}/handler.py:{i + 1}` now retries (see PROJ-{i}, #{i}).")
        elif kind == 2:
            lines.append(f"- Staging runs v1.{i}.0. (probe: staging-{i})")
        elif kind == 3:
            lines.append(f"- Fix for case {i} landed in {i:03d}fe{i:04d}; docs in `docs/topic-{i}.md`.")
        else:
            lines.append(f"- Awaiting the user's ruling on question {i}, which has a long explanation that goes on and on.")
    lines += ["", "## QUEUED"]
    for i in range(items):
        done = "DONE " if i % 4 == 0 else ""
        lines.append(f"- {done}2026-{1 + i % 12:02d}-{1 + i % 28:02d} — workstream {i}: write `tests/test_{i}.py` for PROJ-{i}.")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="a few runs, to keep the script from rotting")
    args = parser.parse_args()
    runs = 3 if args.smoke else args.runs
    tmp = Path(tempfile.mkdtemp(prefix="bench-dashboard-"))
    try:
        path = tmp / "next_steps.md"
        path.write_text(make_dashboard(), encoding="utf-8")
        backend = file_backend.Backend(tmp, "next_steps.md")
        result = backend.read()
        claims = len(result.state.claims) if result.state else 0
        if claims != CLAIMS or len(result.queued) != ITEMS or result.findings:
            print(f"unexpected parse: {claims} claims, {len(result.queued)} items, findings {result.findings[:3]}")
            return 1
        data = path.read_bytes()
        read_only = time_call(lambda: path.read_bytes().decode("utf-8").split("\n"), runs)
        parse = time_call(lambda: file_backend.parse(data), runs)
        read = time_call(backend.read, runs)
        original = path.read_bytes()

        def queue_once():
            path.write_bytes(original)
            backend.queue("one more item", date="2026-11-30")

        queue = time_call(queue_once, max(3, runs // 3))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = [
        ("read + split lines (baseline)", f"{read_only * 1000:.2f}", "1.0"),
        ("parse (bytes in memory)", f"{parse * 1000:.2f}", f"{parse / read_only:.1f}"),
        ("Backend.read() (file + parse)", f"{read * 1000:.2f}", f"{read / read_only:.1f}"),
        ("Backend.queue() (parse + atomic write)", f"{queue * 1000:.2f}", f"{queue / read_only:.1f}"),
    ]
    print(f"Machine: {machine()}; {len(data):,} bytes, {CLAIMS} claims, {ITEMS} queued items; median of {runs} runs\n")
    print(table(rows, ("operation", "ms", "x baseline")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
