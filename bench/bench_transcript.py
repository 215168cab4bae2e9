"""Benchmark the transcript reader and archiver on large transcripts built from real corpus lines.

Builds a SMALL (12 MB) and a LARGE (150 MB) transcript in a temp dir: the same live tail (the part
after the last boundary of a real CLI 2.1.39 session), preceded by real pre-boundary lines repeated
with a boundary + summary every few MB (several compactions), ~92% of SMALL before its last
boundary. Prints medians (after a warm-up) and ratios measured in the same run:

- reader LARGE vs SMALL (target <= 2x: the reader is ~O(live part));
- reader vs ``json.loads`` of every line (target >= 20x faster);
- ``archive --execute`` vs ``gzip -6`` of the same bytes (throughput);
- peak RSS of the reader and of the archiver, each in a fresh subprocess.

``--smoke`` uses 2 MB / 8 MB and fewer repeats (seconds; for CI).
Run: ``python bench/bench_transcript.py [--smoke]`` (needs ../shared/corpus beside the checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus" / "transcripts" / "spotter-2.1.39"
MB = 1 << 20


def corpus_parts(tail_target: int) -> tuple[list[bytes], list[bytes], bytes]:
    """(pre-boundary lines of every session, boundary+summary lines, the live tail of one session).

    The tail is the real post-boundary part closest to ``tail_target`` bytes.
    """
    files = sorted(CORPUS.glob("*.jsonl"))
    if not files:
        sys.exit(f"corpus not found: {CORPUS.resolve()}")
    pre: list[bytes] = []
    marker: list[bytes] = []
    tails: list[bytes] = []
    for path in files:
        lines = path.read_bytes().splitlines(keepends=True)
        at = next(i for i, l in enumerate(lines) if b'"compact_boundary"' in l and b'"subtype"' in l)
        pre += lines[:at]
        marker = lines[at:at + 2]
        tails.append(b"".join(lines[at:]))
    return pre, marker, min(tails, key=lambda t: abs(len(t) - tail_target))


def build(path: Path, size: int, pre: list[bytes], marker: list[bytes], tail: bytes, every: int = 4 * MB) -> None:
    with open(path, "wb") as out:
        written, since, i = 0, 0, 0
        while written < size - len(tail):
            line = pre[i % len(pre)]
            out.write(line)
            written += len(line)
            since += len(line)
            i += 1
            if since >= every:  # an earlier compaction
                for m in marker:
                    out.write(m)
                    written += len(m)
                since = 0
        out.write(tail)
    old = time.time() - 7200
    os.utime(path, (old, old))


def timed(fn, repeats: int) -> float:
    fn()  # warm-up (page cache, imports)
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def parse_all(path: Path) -> int:
    count = 0
    with open(path, "rb") as handle:
        for raw in handle:
            try:
                json.loads(raw)
                count += 1
            except ValueError:
                pass
    return count


def peak_rss_mb(code: str, *args: str) -> float:
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the (large) forking parent.
    probe = code + "\nprint([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])"
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1]) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, seconds")
    args = parser.parse_args()
    small_size, large_size, repeats = ((2 * MB, 8 * MB, 3) if args.smoke else (12 * MB, 150 * MB, 7))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from cc_hooks.transcript import read_live
    from cc_hooks.transcript.archive import archive_session

    pre, marker, tail = corpus_parts(int(small_size * 0.08))
    with tempfile.TemporaryDirectory(prefix="bench-transcript-") as tmp:
        tmpdir = Path(tmp)
        small, large = tmpdir / "p" / "small.jsonl", tmpdir / "p" / "large.jsonl"
        small.parent.mkdir()
        build(small, small_size, pre, marker, tail)
        build(large, large_size, pre, marker, tail)
        for path in (small, large):
            live = read_live(path)
            boundaries = path.read_bytes().count(b'"compact_boundary"')
            print(f"{path.name}: {path.stat().st_size / MB:.1f} MB, live part {live.live_bytes / MB:.2f} MB "
                  f"({100 * live.live_offset / live.size:.1f}% before the last boundary), "
                  f"{boundaries} boundaries, {len(live.messages)} live messages")

        t_small = timed(lambda: read_live(small), repeats)
        t_large = timed(lambda: read_live(large), repeats)
        t_naive_large = timed(lambda: parse_all(large), max(1, repeats // 3))
        t_naive_small = timed(lambda: parse_all(small), repeats)
        print(f"reader: small {t_small * 1000:.1f} ms, large {t_large * 1000:.1f} ms "
              f"-> ratio large/small {t_large / t_small:.2f}x (target <= 2x)")
        print(f"json.loads of every line: small {t_naive_small * 1000:.0f} ms, large {t_naive_large * 1000:.0f} ms "
              f"-> reader is {t_naive_large / t_large:.0f}x faster on large, {t_naive_small / t_small:.0f}x on small "
              f"(target >= 20x)")

        gzip_bin = shutil.which("gzip")
        t_gzip = timed(lambda: subprocess.run([gzip_bin, "-6", "-c", str(large)], stdout=subprocess.DEVNULL,
                                              check=True), 1) if gzip_bin else float("nan")
        work = tmpdir / "q" / "large.jsonl"
        work.parent.mkdir()
        archive_times = []
        for n in range(2):
            shutil.copyfile(large, work)
            os.utime(work, (time.time() - 7200,) * 2)
            start = time.perf_counter()
            outcome = archive_session(work, execute=True, root=tmpdir / f"archive{n}", opened=())
            archive_times.append(time.perf_counter() - start)
            assert outcome.action == "archived", outcome
        t_archive = min(archive_times)
        size_mb = large.stat().st_size / MB
        print(f"archive --execute: {t_archive:.2f} s ({size_mb / t_archive:.0f} MB/s; live file "
              f"{outcome.original_size / MB:.1f} -> {outcome.kept_size / MB:.2f} MB); gzip -6: {t_gzip:.2f} s "
              f"({size_mb / t_gzip:.0f} MB/s) -> archive/gzip time {t_archive / t_gzip:.2f}x")

        base = peak_rss_mb("import cc_hooks.transcript")
        rss_reader = peak_rss_mb("import sys; from cc_hooks.transcript import read_live; read_live(sys.argv[1])",
                                 str(large))
        shutil.copyfile(large, work)
        os.utime(work, (time.time() - 7200,) * 2)
        rss_archive = peak_rss_mb(
            "import sys; from pathlib import Path; from cc_hooks.transcript.archive import archive_session; "
            "archive_session(sys.argv[1], execute=True, root=Path(sys.argv[2]), opened=())",
            str(work), str(tmpdir / "archive-rss"))
        print(f"peak RSS: interpreter+import {base:.0f} MB, reader on large {rss_reader:.0f} MB "
              f"(file is mapped; pages count once touched), archiver on large {rss_archive:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
