"""Seeded scale fixtures for the benchmarks, built once and cached (never committed).

- ``scale_repo(commits, claims)``: a git repository built with ``git fast-import``: a few hundred
  files, one to three changed per commit, 200 fix commits carrying a ``Symptom:`` trailer spread
  over the history (25 families of observables, numbered, as recurring symptoms are), a
  ``feature`` branch 50 commits back, and the record adopted EARLY, at commit 30 (SYMPTOMS.md,
  DECISIONS.md, COLDSTART_QUESTIONS.md and CLAUDE.md naming the dashboard): what a project that
  adopted cc-hooks long ago looks like, so the trailer check's scope is the whole history. The
  next-to-last commit brings the ledgers to their full size (SYMPTOMS.md 200 entries naming real
  fix commits, DECISIONS.md 100, COLDSTART_QUESTIONS.md 300 lines); the last writes
  ``next_steps.md`` with ``claims`` claims of every kind.
- ``work_copy(repo, dest)``: a throwaway clone to run hooks in (they write state under .git).
- ``transcripts(sizes)``: transcripts built from real lines of ``../shared/corpus/transcripts/``:
  the same live tail (a real session's part after its boundary) preceded by real pre-boundary lines
  with an earlier compaction every few MB (alternately a plain boundary and one with a preserved
  segment), ids made unique per repetition; the smallest has ~92% of its bytes before the last
  boundary. Big tool results come with the corpus (up to ~170 KB per line).

The text generators of the ledgers and the dashboard are the ones bench_record.py and
bench_rehydrate.py already use (the ledger's observables varied, its made-up shas replaced with real fix
commits). Change the ``repo-vN`` key when the generator changes. The cache lives in ``$CC_HOOKS_BENCH_CACHE``, else
``$XDG_CACHE_HOME/cc-hooks-bench`` (``~/.cache/cc-hooks-bench``); entries are keyed by seed and size.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_record import decisions_text, symptoms_text  # noqa: E402
from bench_rehydrate import dashboard  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / ".." / "shared" / "corpus" / "transcripts"
MB = 1 << 20
BASE_EPOCH = 1_700_000_000  # 2023-11-14; commits are ten minutes apart
RECORD_AT = 30  # the commit that adopts the record (issue 22: users adopt on long histories)
FIXES = 200
_UUID = re.compile(rb"[0-9a-f]{8}(-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")


def cache_root() -> Path:
    explicit = os.environ.get("CC_HOOKS_BENCH_CACHE")
    base = Path(explicit) if explicit else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cc-hooks-bench"
    base.mkdir(parents=True, exist_ok=True)
    return base


def _git(repo: Path, *args: str, input: bytes | None = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, input=input).stdout.decode()


def _publish(build, final: Path) -> Path:
    """Build into a sibling temp path, then rename: a cache entry is complete or absent."""
    if final.exists():
        return final
    partial = final.with_name(final.name + f".partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True) if partial.is_dir() else partial.unlink(missing_ok=True)
    build(partial)
    os.replace(partial, final)
    return final


# --- repositories -------------------------------------------------------------------------------


OBSERVABLES = [  # recurring families of symptoms, as varied as a real project's
    "request {} times out after a deploy", "login page {} shows a blank screen", "export job {} writes an empty file",
    "worker {} crashes on start-up", "cache entry {} is served stale", "search result {} is missing",
    "upload {} stalls at 99%", "report {} shows totals twice", "webhook {} fires twice", "email {} is sent in English",
    "session {} logs out at random", "invoice {} rounds cents down", "chart {} renders upside down",
    "queue {} grows without bound", "migration {} locks the table", "avatar {} loads the wrong user",
    "timezone {} shifts dates by a day", "import {} drops the last row", "button {} stays disabled",
    "api call {} returns 500 on empty input", "build {} fails only on CI", "test {} is flaky under load",
    "memory of job {} grows each hour", "link {} points to staging", "retry {} never gives up",
]


def observable(case: int) -> str:
    return OBSERVABLES[case % len(OBSERVABLES)].format(case)


def _data(raw: bytes) -> bytes:
    return b"data %d\n%s\n" % (len(raw), raw)


def questions_text(lines: int, files: int) -> str:
    out = ["# Cold-start questions", ""]
    for i in range(lines):
        k = i % files
        pointer = [f"src/mod{k}.py", f"src/mod{k}.py:2", "DECISIONS.md", "SYMPTOMS.md"][i % 4]
        out.append(f"- Where is behaviour {i} of module {k} defined? → {pointer}")
    return "\n".join(out) + "\n"


def record_files(files: int, symptoms: int, decisions: int, questions: int) -> dict[str, str]:
    ledger = re.sub(r"^## Symptom: request (\d+) times out after a deploy$", lambda m: f"## Symptom: {observable(int(m.group(1)))}",
                    symptoms_text(symptoms), flags=re.M)
    return {
        "SYMPTOMS.md": ledger,
        "DECISIONS.md": decisions_text(decisions),
        "COLDSTART_QUESTIONS.md": questions_text(questions, files),
        "CLAUDE.md": "# Notes\n\nDashboard: file next_steps.md\n",
        "tests/test_pool.py": "".join(f"def test_recycle_{i}():\n    assert True\n\n\n" for i in range(symptoms)),
    }


def _stream(rng: random.Random, numbers: range, files: int, record: dict[str, str] | None, symptoms: int,
            fixes: frozenset = frozenset(), record_message: str = "") -> bytes:
    out = []
    for n in numbers:
        if n == 1:
            changed = range(files)
        else:
            changed = rng.sample(range(files), rng.randint(1, 3))
        if record and n == numbers.start and record_message:
            message = record_message
        elif n in fixes:
            case = rng.randrange(symptoms or 1)
            message = f"Fix {observable(case)}\n\nSymptom: {observable(case)}\n"
        else:
            message = f"Change module {changed[0]} step {n}\n"
        out.append(b"commit refs/heads/main\nmark :%d\n" % n)
        out.append(b"committer Bench <bench@example.com> %d +0000\n" % (BASE_EPOCH + n * 600))
        out.append(_data(message.encode()))
        if n > numbers.start:
            out.append(b"from :%d\n" % (n - 1))
        elif n > 1:
            out.append(b"from refs/heads/main^0\n")
        for k in changed:
            body = f"# module {k}\nVALUE = {n}\n\n\ndef handler_{k}():\n    return VALUE\n".encode()
            out.append(b"M 100644 inline src/mod%d.py\n" % k + _data(body))
        if record and n == numbers.start:
            for name, text in record.items():
                out.append(b"M 100644 inline %s\n" % name.encode() + _data(text.encode()))
        out.append(b"\n")
    return b"".join(out)


def _real_shas(text: str, repo: Path) -> str:
    """The ledger generator names made-up fix commits (``0003e8a``): name real fix commits instead."""
    fixes = _git(repo, "log", "--format=%h", "--abbrev=10", "--grep=^Symptom:", "main").split()
    if not fixes:
        return text
    return re.sub(r"\b[0-9a-f]{6}[ab]\b", lambda m: fixes[int(m.group(0)[:6], 16) % len(fixes)], text)


def base_repo(commits: int, seed: int = 0, files: int = 300, symptoms: int = 200, decisions: int = 100,
              questions: int = 300) -> Path:
    """The history (cached), without a dashboard: the record adopted at commit ``RECORD_AT``, grown
    to full size by the last commit."""

    def build(repo: Path) -> None:
        repo.mkdir(parents=True)
        _git(repo, "init", "-q", "-b", "main")
        rng = random.Random(seed)
        adopt = min(RECORD_AT, max(2, commits // 2))
        fixes = frozenset(rng.sample(range(adopt + 1, commits), min(FIXES, commits - adopt - 1)))
        start = record_files(files, 0, 0, 0)
        _git(repo, "fast-import", "--quiet", input=_stream(rng, range(1, adopt), files, None, symptoms, fixes))
        _git(repo, "fast-import", "--quiet", input=_stream(rng, range(adopt, commits), files, start, symptoms, fixes,
                                                            "Adopt the record\n"))
        record = record_files(files, symptoms, decisions, questions)
        record["SYMPTOMS.md"] = _real_shas(record["SYMPTOMS.md"], repo)
        grown = f"Record the fixes so far\n\nSymptom: {observable(0)}\n"
        _git(repo, "fast-import", "--quiet", input=_stream(rng, range(commits, commits + 1), files, record, symptoms,
                                                            fixes, grown))
        _git(repo, "checkout", "-q", "-f", "main")
        _git(repo, "branch", "feature", "HEAD~50" if commits > 60 else "HEAD~1")
        _git(repo, "gc", "-q", "--auto")

    name = f"repo-v4-s{seed}-c{commits}-f{files}-y{symptoms}-d{decisions}-q{questions}-at{RECORD_AT}-x{FIXES}"
    return _publish(build, cache_root() / name)


def scale_repo(commits: int, claims: int, seed: int = 0, **sizes: int) -> Path:
    """The history plus a last commit writing next_steps.md with ``claims`` claims (cached)."""
    base = base_repo(commits, seed, **sizes)

    def build(repo: Path) -> None:
        work_copy(base, repo)
        (repo / "next_steps.md").write_text(dashboard(repo, claims), encoding="utf-8")
        _git(repo, "add", "next_steps.md")
        when = f"{BASE_EPOCH + (commits + 1) * 600} +0000"
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=Bench", "-c", "user.email=bench@example.com",
                        "commit", "-q", "-m", f"Dashboard with {claims} claims"], check=True, env=env, capture_output=True)

    return _publish(build, base.with_name(base.name + f"-claims{claims}"))


def work_copy(repo: Path, dest: Path) -> Path:
    """A clone to run hooks in (objects hard-linked): hooks write state under .git, the cache stays pristine."""
    subprocess.run(["git", "clone", "-q", str(repo), str(dest)], check=True, capture_output=True)
    _git(dest, "remote", "remove", "origin")
    _git(dest, "branch", "-q", "feature", _git(repo, "rev-parse", "feature").strip())
    return dest


# --- transcripts --------------------------------------------------------------------------------


def _split(path: Path) -> tuple[list[bytes], list[bytes]]:
    lines = path.read_bytes().splitlines(keepends=True)
    at = max(i for i, line in enumerate(lines) if b'"compact_boundary"' in line)
    return lines[:at], lines[at:]


def corpus_parts(tail_target: int) -> tuple[list[bytes], list[list[bytes]], bytes]:
    """(pre-boundary lines of every session, earlier-compaction markers, the live tail closest to ``tail_target``)."""
    sessions = sorted((CORPUS / "spotter-2.1.39").glob("*.jsonl"))
    if not sessions:
        raise FileNotFoundError(f"../shared/corpus not present: {CORPUS.resolve()}")
    pre, markers, tails = [], [], []
    for path in sessions:
        before, after = _split(path)
        pre += before
        markers.append(after[:2])  # a plain boundary and its summary
        tails.append(b"".join(after))
    demo = sorted((CORPUS / "cc-2.1.197-demo").glob("*-*-*.jsonl"))
    for path in demo:  # a boundary with a preserved segment (CLI 2.1.197), and its summary
        for i, line in enumerate(path.read_bytes().splitlines(keepends=True)):
            if b'"compact_boundary"' in line and b"preservedSegment" in line:
                markers.append([line])
    return pre, markers, min(tails, key=lambda t: abs(len(t) - tail_target))


def _fresh_ids(chunk: bytes, rep: int, keep: set[bytes]) -> bytes:
    """Unique uuids, message and tool ids per repetition; session ids kept."""
    chunk = chunk.replace(b'"msg_', b'"msg_r%d_' % rep).replace(b'"toolu_', b'"toolu_r%d_' % rep)
    prefix = b"%08x" % (rep & 0xFFFFFFFF)
    return _UUID.sub(lambda m: m.group(0) if m.group(0) in keep else prefix + m.group(1), chunk)


def build_transcript(path: Path, size: int, pre: list[bytes], markers: list[list[bytes]], tail: bytes,
                     every: int = 4 * MB) -> None:
    keep = {p.stem.encode() for p in (CORPUS / "spotter-2.1.39").glob("*.jsonl")}
    body_target = size - len(tail)
    with open(path, "wb") as out:
        written, i, blocks = 0, 0, 0
        while written < body_target:
            block, since = [], 0
            while since < every and written + since < body_target:
                block.append(pre[i % len(pre)])
                since += len(block[-1])
                i += 1
            if written + since < body_target:  # an earlier compaction
                block += markers[blocks % len(markers)]
            blocks += 1
            chunk = _fresh_ids(b"".join(block), blocks, keep)
            out.write(chunk)
            written += len(chunk)
        out.write(tail)
    old = time.time() - 7200  # idle: `transcripts archive` leaves live sessions alone
    os.utime(path, (old, old))


def transcripts(sizes: tuple[int, ...] = (12 * MB, 150 * MB), seed: int = 0) -> dict[int, Path]:
    """Transcripts of the given sizes with the same live tail, ~8% of the smallest (cached)."""
    pre, markers, tail = corpus_parts(int(min(sizes) * 0.08))
    random.Random(seed).shuffle(markers)
    result = {}
    for size in sizes:
        final = cache_root() / f"transcript-s{seed}-{size // 1024}k-tail{len(tail)}-every{min(4 * MB, min(sizes) // 3)}.jsonl"
        every = min(4 * MB, min(sizes) // 3)  # several earlier compactions in every size
        result[size] = _publish(lambda p, size=size: build_transcript(p, size, pre, markers, tail, every), final)
    return result


def fresh_transcript(source: Path, dest: Path) -> Path:
    """A copy to archive (archiving rewrites it), idle like the original."""
    shutil.copyfile(source, dest)
    old = time.time() - 7200
    os.utime(dest, (old, old))
    return dest


if __name__ == "__main__":  # build (or show) the full-size fixtures
    started = time.perf_counter()
    for commits in (10_000, 50_000):
        for claims in (10, 200):
            print(scale_repo(commits, claims), f"{time.perf_counter() - started:.1f}s")
    for size, path in transcripts().items():
        print(path, f"{path.stat().st_size / MB:.1f} MB", f"{time.perf_counter() - started:.1f}s")
