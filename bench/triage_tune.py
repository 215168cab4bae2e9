"""Measure variants of triage's evidence weights on labeled sets, and search for better ones.

    python bench/triage_tune.py --clones /work/triage-data --set bench/triage_sets/click.tsv [--set ...]
        [--memo /tmp/gitmemo] [--jobs 2] [--search] [--held-out bench/triage_sets/x.tsv ...]

Each set's repository is the clone named ``<owner>+<set name>`` in one of the ``--clones`` folders.
Every symptom is ranked by ``cc_hooks.record.evidence.rank`` (the ranking alone, no verdict: see
``triage_accuracy.py`` for the whole command), and a rank counts when a true fix
(``triage_accuracy.true_fixes``) is there. History is immutable, so git's answers are kept in
memory and, with ``--memo``, on disk between runs: a variant costs seconds, not minutes.

``--search``: coordinate descent from ``evidence.WEIGHTS`` (or ``--start``): each weight in turn is scaled (x0.5,
x0.75, x1.25, x1.5, x2, and 0) and the best change is kept when it raises top-1 + top-3 on the
``--set`` symptoms; the ``--held-out`` sets are ranked with the weights found and never searched on.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import pickle
import re
import subprocess
import sys
from multiprocessing import Pipe, Process
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SCALES = (0.5, 0.75, 1.25, 1.5, 2.0, 0.0)
BOUNDED = {"text_floor", "body", "tests"}  # shares: at most 1
POSITIVE = {"changed_lines_size"}  # a divisor: never 0
DEPTH = 8  # ranks looked at (the reciprocal rank of a fix below this counts 0)


def _memoize(memo: Path | None) -> None:
    """git's answers kept in this process, and in ``memo`` when given (the key is the command)."""
    import cc_hooks.git as git

    real_text, real_bytes, seen = git.run_git, git.run_git_bytes, {}

    def remembered(root, args, given, compute):
        key = _key(root, args, given)
        if key in seen:
            return seen[key]
        path = memo / key if memo else None
        if path is not None and path.exists():
            seen[key] = pickle.loads(path.read_bytes())
            return seen[key]
        seen[key] = answer = compute()
        if path is not None:
            path.write_bytes(pickle.dumps(answer))
        return answer

    def per_commit(root, args, given, run):
        """A ``diff-tree --stdin`` answered commit by commit: another variant asks for another
        list of candidates, mostly the same commits."""
        shas = given.split() if isinstance(given, str) else given.decode().split()
        missing = [sha for sha in shas if _key(root, args, sha) not in seen and not (memo and (memo / _key(root, args, sha)).exists())]
        if missing:
            joined = "\n".join(missing) + "\n"
            out = run(joined if isinstance(given, str) else joined.encode())
            found = _records(out if isinstance(out, str) else out.decode("utf-8", "surrogateescape"))
            for sha in missing:
                text = found.get(sha, "")
                remembered(root, args, sha, lambda: text)
        parts = [remembered(root, args, sha, lambda: "") for sha in shas]
        return "".join(parts) if isinstance(given, str) else "".join(parts).encode("utf-8", "surrogateescape")

    def run_git(root, *args, input=None, timeout=30.0, check=True, prefetch=True):
        def run(given):
            return real_text(root, *args, input=given, timeout=timeout, check=check, prefetch=prefetch)
        if args[:1] == ("diff-tree",) and "--stdin" in args and input:
            return per_commit(root, args, input, run)
        return remembered(root, args, input, lambda: run(input))

    def run_git_bytes(root, *args, input=None, env=None, timeout=30.0):
        def run(given):
            done = real_bytes(root, *args, input=given, env=env, timeout=timeout)
            return done.stdout
        if args[:1] == ("diff-tree",) and "--stdin" in args and input:
            return subprocess.CompletedProcess(args, 0, per_commit(root, args, input, run), b"")
        def compute():
            done = real_bytes(root, *args, input=input, env=env, timeout=timeout)
            return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, done.stderr)
        return remembered(root, args, input, compute)

    git.run_git, git.run_git_bytes = run_git, run_git_bytes


def _key(root, args, given) -> str:
    return hashlib.sha1(repr((str(root), args, given)).encode()).hexdigest()


_RECORD_RE = re.compile(r"^\x1e?([0-9a-f]{40})$", re.M)


def _records(out: str) -> dict[str, str]:
    """sha -> its part of a ``diff-tree --stdin`` output (each starts with a line of its sha)."""
    starts = list(_RECORD_RE.finditer(out))
    return {m.group(1): out[m.start() : starts[i + 1].start() if i + 1 < len(starts) else len(out)] for i, m in enumerate(starts)}


def _repo_of(set_file: Path, clones: list[Path]) -> Path:
    for folder in clones:
        found = sorted(folder.glob(f"*+{set_file.stem}"))
        if found:
            return found[0]
    raise SystemExit(f"no clone named <owner>+{set_file.stem} in {', '.join(map(str, clones))}")


def _cache_what_weights_do_not_change() -> None:
    """Keep, across variants, what ranking computes before any weight applies: the query's word and
    identifier hits, and each commit's changed lines and their words."""
    import functools

    from cc_hooks.record import evidence
    from cc_hooks.record.history_index import HistoryIndex

    lines: dict[tuple, list[str]] = {}
    real_changed = evidence._changed_code

    def changed_code(root, shas, timeout, merges=False):
        missing = [sha for sha in shas if (str(root), merges, sha) not in lines]
        for sha, found in (real_changed(root, missing, timeout, merges) if missing else {}).items():
            lines[str(root), merges, sha] = found
        for sha in missing:
            lines.setdefault((str(root), merges, sha), [])
        return {sha: lines[str(root), merges, sha] for sha in shas if lines[str(root), merges, sha]}

    def by_args(function, key):
        seen = {}

        @functools.wraps(function)
        def cached(*args):
            k = key(*args)
            if k not in seen:
                seen[k] = function(*args)
            return seen[k]
        return cached

    evidence._changed_code = changed_code
    evidence.words_of = functools.lru_cache(maxsize=200_000)(evidence.words_of)
    evidence._word_hits = by_args(evidence._word_hits, lambda index, query: (id(index), frozenset(query.words)))
    evidence._identifier_hits = by_args(evidence._identifier_hits,
                                        lambda root, idents, timeout, literals=(): (str(root), tuple(idents), tuple(literals)))
    defining = by_args(evidence._defining_files, lambda root, idents, timeout: (str(root), tuple(idents)))
    evidence._defining_files = lambda root, idents, timeout: dict(defining(root, idents, timeout))  # the caller adds to it
    evidence._commits_touching = by_args(evidence._commits_touching, lambda root, homes, timeout: (str(root), tuple(sorted(homes))))
    HistoryIndex.naming = by_args(HistoryIndex.naming, lambda index, identifier: (id(index), identifier))


def _worker(conn, pairs: list[tuple[Path, Path]], memo: Path | None) -> None:
    """Ranks its sets' symptoms for every weights it is sent: [(set, sha, rank or None)]."""
    _memoize(memo)
    _cache_what_weights_do_not_change()
    from triage_accuracy import read_set, shas, true_fixes

    from cc_hooks.record import history_index
    from cc_hooks.record.evidence import Weights, rank

    loaded = []
    for repo, set_file in pairs:
        index = history_index.load(repo, timeout=600)
        items = [(sha, phrasings, set().union(*(true_fixes(repo, s) for s in shas(sha)))) for sha, phrasings, _ in read_set(set_file)]
        loaded.append((repo, set_file.stem, index, items))
    while True:
        fields = conn.recv()
        if fields is None:
            return
        weights = Weights(**fields)
        places = []
        for repo, name, index, items in loaded:
            for sha, phrasings, truth in items:
                ranked = rank(repo, phrasings, index, 300.0, limit=DEPTH, weights=weights)
                places.append((name, sha, next((i + 1 for i, c in enumerate(ranked) if c.sha in truth), None)))
        conn.send(places)


class Pool:
    """Long-lived workers, each holding its sets' indexes and git answers."""

    def __init__(self, pairs: list[tuple[Path, Path]], jobs: int, memo: Path | None):
        shares = [pairs[i::jobs] for i in range(jobs)]
        self.conns, self.procs = [], []
        for share in filter(None, shares):
            mine, theirs = Pipe()
            proc = Process(target=_worker, args=(theirs, share, memo), daemon=True)
            proc.start()
            self.conns.append(mine)
            self.procs.append(proc)

    def places(self, fields: dict) -> list[tuple]:
        for conn in self.conns:
            conn.send(fields)
        return [place for conn in self.conns for place in conn.recv()]

    def close(self) -> None:
        for conn in self.conns:
            conn.send(None)
        for proc in self.procs:
            proc.join()


def figures(places: list[tuple]) -> tuple[int, int, float]:
    """(top-1, top-3, mean reciprocal rank within ``DEPTH``)."""
    top1 = sum(p == 1 for _, _, p in places)
    top3 = sum(bool(p and p <= 3) for _, _, p in places)
    return top1, top3, sum(1 / p for _, _, p in places if p) / max(len(places), 1)


def _objective(places: list[tuple]) -> tuple:
    top1, top3, mrr = figures(places)
    return top1 + top3, round(mrr, 4)


def _line(label: str, places: list[tuple]) -> str:
    top1, top3, mrr = figures(places)
    n = len(places)
    return f"{label}: {n} symptoms; top-1 {top1} ({top1 / max(n, 1):.0%}); top-3 {top3} ({top3 / max(n, 1):.0%}); MRR@{DEPTH} {mrr:.3f}"


def search(pool: Pool, start: dict, rounds: int) -> dict:
    best = dict(start)
    best_score = _objective(pool.places(best))
    print(f"start: top-1 + top-3, MRR = {best_score}", flush=True)
    for round_ in range(1, rounds + 1):
        changed = False
        for name in start:
            trials = {}
            for scale in SCALES:
                if scale == 0 and name in POSITIVE:
                    continue
                value = best[name] * scale
                if name in BOUNDED:
                    value = min(value, 1.0)
                if value == best[name]:
                    continue
                trials[value] = _objective(pool.places({**best, name: value}))
            if not trials:
                continue
            value, score = max(trials.items(), key=lambda item: item[1])
            if score[0] > best_score[0]:  # a gain in found fixes, not in MRR alone
                print(f"round {round_}: {name} {best[name]:g} -> {value:g}: {best_score} -> {score}", flush=True)
                best[name], best_score, changed = value, score, True
        if not changed:
            break
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clones", required=True, type=Path, action="append", help="folder of <owner>+<name> clones (repeatable)")
    parser.add_argument("--set", required=True, type=Path, action="append", dest="sets", help="labeled set searched on (repeatable)")
    parser.add_argument("--held-out", type=Path, action="append", default=[], help="labeled set only measured (repeatable)")
    parser.add_argument("--memo", type=Path, help="folder keeping git's answers between runs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--search", action="store_true")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--start", default="", help="name=value,... : weights to start from instead of evidence.WEIGHTS")
    args = parser.parse_args(argv)
    from cc_hooks.record.evidence import WEIGHTS

    if args.memo:
        args.memo.mkdir(parents=True, exist_ok=True)
    start = dataclasses.asdict(WEIGHTS)
    for item in filter(None, args.start.split(",")):
        name, _, value = item.partition("=")
        if name not in start:
            raise SystemExit(f"--start: no weight named {name!r} (weights: {', '.join(start)})")
        start[name] = float(value)
    searched = Pool([(_repo_of(s, args.clones), s) for s in args.sets], args.jobs, args.memo)
    try:
        print(_line("searched sets, starting weights", searched.places(start)), flush=True)
        found = search(searched, start, args.rounds) if args.search else start
        if args.search:
            print(_line("searched sets, weights found", searched.places(found)))
            print("changed: " + (", ".join(f"{k}={v:g} (was {start[k]:g})" for k, v in found.items() if v != start[k]) or "none"))
    finally:
        searched.close()
    if args.held_out:
        held = Pool([(_repo_of(s, args.clones), s) for s in args.held_out], args.jobs, args.memo)
        try:
            print(_line("held-out sets, starting weights", held.places(start)))
            if found != start:
                print(_line("held-out sets, weights found", held.places(found)))
        finally:
            held.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
