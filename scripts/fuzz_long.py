"""The long differential pass: many generated games, each checked and answered three ways.

    python scripts/fuzz_long.py --games 100000                  # seeds 0 to 99,999
    python scripts/fuzz_long.py --games 1000 --first 500000     # another stretch of seeds
    python scripts/fuzz_long.py --games 200 --cli-samples 20    # more CLI questions per chart

Each seed is a complete reproducer: `python scripts/fuzz_long.py --first SEED --games 1 --show`
prints the game's files and every disagreement. The default test run covers a handful of seeds
(tests/test_differential.py); this pass is the same comparison at scale. It prints the number of
games, comparisons and CLI calls, the duration (wall and CPU) and every disagreement, and exits 1
if there was any.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.differential import Disagreement, run_game


def category(d: Disagreement) -> str:
    """A disagreement without its seed and chart, to count how often each kind occurs."""
    return f"{d.question.split('(')[0].split(' --')[0]}: {d.answers[:120]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="how many games to generate (default 1000)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--cli-samples", type=int, default=3, help="CLI lookups per chart (default 3)")
    parser.add_argument("--show", action="store_true", help="print each game's files (for reproducing one seed)")
    parser.add_argument("--progress", type=int, default=1000, help="print a progress line every N games")
    args = parser.parse_args(argv)

    start, cpu_start = time.monotonic(), time.process_time()
    games = comparisons = cli_calls = 0
    found: list[Disagreement] = []
    kinds: Counter[str] = Counter()
    for seed in range(args.first, args.first + args.games):
        with tempfile.TemporaryDirectory(prefix="chartc-fuzz-") as folder:
            run = run_game(seed, Path(folder), cli_samples=args.cli_samples)
        games += 1
        comparisons += run.comparisons
        cli_calls += run.cli_calls
        if args.show:
            for name, text in run.files.items():
                print(f"---- charts/g/{name}\n{text}")
        for d in run.disagreements:
            found.append(d)
            kinds[category(d)] += 1
            print(d, flush=True)
        if args.progress and games % args.progress == 0:
            print(f"... {games} games, {len(found)} disagreements, {time.monotonic() - start:.0f} s", flush=True)

    wall, cpu = time.monotonic() - start, time.process_time() - cpu_start
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"{games} games (seeds {args.first} to {args.first + games - 1}), {comparisons} comparisons, "
        f"{cli_calls} CLI calls, {wall:.0f} s wall, {cpu + children.ru_utime + children.ru_stime:.0f} s CPU: "
        f"{len(found)} disagreements in {len({d.seed for d in found})} games"
    )
    for kind, count in kinds.most_common():
        print(f"  {count:6d}  {kind}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
