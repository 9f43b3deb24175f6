"""The long differential pass: many generated games, each checked and answered three ways.

    python scripts/fuzz_long.py --games 100000                  # seeds 0 to 99,999
    python scripts/fuzz_long.py --games 1000 --first 500000     # another stretch of seeds
    python scripts/fuzz_long.py --games 200 --cli-samples 20    # more CLI questions per chart
    python scripts/fuzz_long.py --resume --games 100000 --jobs 2 --ledger tests/fuzz_ledger.jsonl
    python scripts/fuzz_long.py --summary --ledger tests/fuzz_ledger.jsonl

A long pass can be run in pieces: with `--ledger FILE` every block of `--block` seeds that finishes
appends one JSON line (its seeds, counts, CPU time and a hash of the code it ran: chartc's packages
and the generator), so a pass stopped at any moment loses at most one block per worker; `--resume`
starts after the highest seed the ledger holds for the current code. `--summary` prints the
ledger's totals for the current code, for each code version it holds and for all code, which is
where docs/records/fuzzing.md's figures come from.

Each seed is a complete reproducer: `python scripts/fuzz_long.py --first SEED --games 1 --show`
prints the game's files and every disagreement. The default test run covers a handful of seeds
(tests/test_differential.py); this pass is the same comparison at scale. It prints the number of
games, comparisons and CLI calls, the duration (wall and CPU) and every disagreement, and exits 1
if there was any.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.differential import Disagreement, run_game

ROOT = Path(__file__).resolve().parent.parent


def category(d: Disagreement) -> str:
    """A disagreement without its seed and chart, to count how often each kind occurs."""
    return f"{d.question.split('(')[0].split(' --')[0]}: {d.answers[:120]}"


# A worker's memory grows by about 40 KB a game (1.4 GB after 17,000 games) and its rate falls with
# it (12.5 games a second at first, 11.7 after 17,000 on two cores), so each worker is replaced after
# this many blocks.
MAX_BLOCKS_PER_WORKER = 10

CODE_FILES = ("dsl", "compiler", "tests/gamegen.py", "tests/differential.py")


def code_hash() -> str:
    """A hash of every file the differential runs: chartc's packages and the game generator."""
    digest = hashlib.sha256()
    for entry in CODE_FILES:
        path = ROOT / entry
        files = [path]
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for file in files:
            digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@dataclass
class Block:
    """What one stretch of seeds found."""

    first: int
    games: int = 0
    comparisons: int = 0
    cli_calls: int = 0
    cpu: float = 0.0
    disagreements: list[str] | None = None
    kinds: Counter[str] | None = None


def run_block(first: int, games: int, cli_samples: int, show: bool = False) -> Block:
    """Run seeds first .. first + games - 1; CPU is this process's own (the CLI runs in-process)."""
    cpu_start = time.process_time()
    block = Block(first, disagreements=[], kinds=Counter())
    assert block.disagreements is not None and block.kinds is not None
    for seed in range(first, first + games):
        with tempfile.TemporaryDirectory(prefix="chartc-fuzz-") as folder:
            run = run_game(seed, Path(folder), cli_samples=cli_samples)
        block.games += 1
        block.comparisons += run.comparisons
        block.cli_calls += run.cli_calls
        if show:
            for name, text in run.files.items():
                print(f"---- charts/g/{name}\n{text}")
        for d in run.disagreements:
            block.disagreements.append(str(d))
            block.kinds[category(d)] += 1
    block.cpu = time.process_time() - cpu_start
    return block


def _run_block_args(args: tuple[int, int, int]) -> Block:
    return run_block(*args)


def read_ledger(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def append_ledger(path: Path, block: Block, code: str) -> None:
    record = {
        "first": block.first,
        "games": block.games,
        "comparisons": block.comparisons,
        "cli_calls": block.cli_calls,
        "disagreements": len(block.disagreements or []),
        "cpu_s": round(block.cpu, 1),
        "code": code,
    }
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, sort_keys=True) + "\n")
        out.flush()
        os.fsync(out.fileno())


@dataclass(frozen=True)
class Totals:
    """What a ledger's rows hold together: seeds counted once where blocks overlap."""

    code: str
    seeds: frozenset[int]
    games: int
    comparisons: int
    cli_calls: int
    cpu_s: float
    disagreements: int

    def longest_run(self) -> tuple[int, int]:
        """The first and last seed of the longest stretch of consecutive seeds."""
        best = (0, -1)
        start = previous = -2
        for seed in sorted(self.seeds):
            if seed != previous + 1:
                start = seed
            previous = seed
            if seed - start > best[1] - best[0]:
                best = (start, seed)
        return best


def totals(code: str, rows: list[dict[str, object]]) -> Totals:
    return Totals(
        code=code,
        seeds=frozenset(
            s for r in rows for s in range(int(str(r["first"])), int(str(r["first"])) + int(str(r["games"])))
        ),
        games=sum(int(str(r["games"])) for r in rows),
        comparisons=sum(int(str(r["comparisons"])) for r in rows),
        cli_calls=sum(int(str(r["cli_calls"])) for r in rows),
        cpu_s=sum(float(str(r["cpu_s"])) for r in rows),
        disagreements=sum(int(str(r["disagreements"])) for r in rows),
    )


def versions(records: list[dict[str, object]]) -> list[Totals]:
    """Each code version's totals, in the order the ledger first met it."""
    codes = dict.fromkeys(str(r["code"]) for r in records)
    return [totals(code, [r for r in records if r["code"] == code]) for code in codes]


def summary(path: Path, code: str) -> str:
    records = read_ledger(path)

    def line(t: Totals) -> str:
        return (
            f"{len(t.seeds):,} distinct seeds ({t.games:,} games), {t.comparisons:,} comparisons, "
            f"{t.cli_calls:,} CLI calls, {t.cpu_s:,.0f} s CPU, {t.disagreements} disagreements"
        )

    held = versions(records)
    lines = [f"current code {code}: {line(totals(code, [r for r in records if r['code'] == code]))}"]
    lines += [f"code {t.code}: {line(t)}" for t in held]
    lines.append(f"all code ({len(held)} versions): {line(totals('all', records))}")
    return "\n".join(lines)


def next_seed(path: Path, code: str, default: int) -> int:
    ends = [int(str(r["first"])) + int(str(r["games"])) for r in read_ledger(path) if r["code"] == code]
    return max(ends, default=default)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="how many games to generate (default 1000)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--cli-samples", type=int, default=3, help="CLI lookups per chart (default 3)")
    parser.add_argument("--show", action="store_true", help="print each game's files (for reproducing one seed)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--block", type=int, default=200, help="seeds per block, the ledger's unit (default 200)")
    parser.add_argument("--ledger", type=Path, help="append one JSON line per finished block to this file")
    parser.add_argument("--resume", action="store_true", help="start after the ledger's highest seed for this code")
    parser.add_argument("--summary", action="store_true", help="print the ledger's totals and exit")
    args = parser.parse_args(argv)
    if (args.resume or args.summary) and args.ledger is None:
        parser.error("--resume and --summary need --ledger")
    code = code_hash()
    if args.summary:
        print(summary(args.ledger, code))
        return 0
    first = next_seed(args.ledger, code, args.first) if args.resume else args.first
    if args.show:
        args.jobs = 1
    end = first + args.games
    blocks = [(s, min(args.block, end - s), args.cli_samples) for s in range(first, end, args.block)]

    start = time.monotonic()
    games = comparisons = cli_calls = 0
    cpu = 0.0
    found: list[str] = []
    kinds: Counter[str] = Counter()
    # a worker's heap grows with every game it runs (see MAX_BLOCKS_PER_WORKER), so workers are renewed
    pool = multiprocessing.Pool(args.jobs, maxtasksperchild=MAX_BLOCKS_PER_WORKER) if args.jobs > 1 else None
    results = pool.imap(_run_block_args, blocks) if pool else (run_block(*b, show=args.show) for b in blocks)
    try:
        for block in results:
            games += block.games
            comparisons += block.comparisons
            cli_calls += block.cli_calls
            cpu += block.cpu
            for line in block.disagreements or []:
                print(line, flush=True)
                found.append(line)
            kinds.update(block.kinds or {})
            if args.ledger:
                append_ledger(args.ledger, block, code)
            print(f"... {games} games, {len(found)} disagreements, {time.monotonic() - start:.0f} s", flush=True)
    finally:
        if pool:
            pool.terminate()

    wall = time.monotonic() - start
    last = first + games - 1
    print(
        f"{games} games (seeds {first} to {last}), {comparisons} comparisons, "
        f"{cli_calls} CLI calls, {wall:.0f} s wall, {cpu:.0f} s CPU: {len(found)} disagreements"
    )
    for kind, count in kinds.most_common():
        print(f"  {count:6d}  {kind}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
