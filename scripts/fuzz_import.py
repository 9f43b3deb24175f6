"""Long passes of `chartc import`'s differential and round-trip fuzzer (tests/import_differential.py),
with a ledger, and the ledger's table in docs/records/fuzzing.md.

    python scripts/fuzz_import.py --mode differential --cases 100000 --resume --ledger tests/fuzz_import_ledger.jsonl
    python scripts/fuzz_import.py --mode round-trip --cases 100000 --resume --ledger tests/fuzz_import_ledger.jsonl
    python scripts/fuzz_import.py --report            # print the ledger's table
    python scripts/fuzz_import.py --report --check    # exit 1 when docs/records/fuzzing.md does not hold it
    python scripts/fuzz_import.py --report --write    # put it in docs/records/fuzzing.md

Seed N of the differential writes table N in format N mod 4 (CSV, XLSX, ODS, Markdown); seed N of
the round trip damages table N and writes it in format N mod 4. Each finished block of `--block`
seeds appends one JSON line to the ledger: the mode, the seeds, lookups compared, drafts that went
round, cases held back, failures, CPU seconds, the code hash (`dsl/`, `compiler/`, the generator
and the runner) and the commit the pass ran on. `--resume` starts after the highest seed the ledger
holds for this mode and code. `--first SEED --cases 1 --show` prints one case's failures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.import_differential import FORMATS, Run, differential, round_trip  # noqa: E402

CODE_FILES = ("dsl", "compiler", "tests/importgen.py", "tests/import_differential.py")
LEDGER = ROOT / "tests" / "fuzz_import_ledger.jsonl"
PAGE = ROOT / "docs" / "records" / "fuzzing.md"
BEGIN = "<!-- import fuzz ledger table: python scripts/fuzz_import.py --report -->"
END = "<!-- end of import fuzz ledger table -->"
MODES = ("differential", "round-trip")


def code_hash() -> str:
    """A hash of every file a pass runs: chartc's packages, the table generator and the runner."""
    digest = hashlib.sha256()
    for entry in CODE_FILES:
        path = ROOT / entry
        files = [path] if path.is_file() else sorted(
            p for p in path.rglob("*") if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts
        )
        for file in files:
            digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def run_block(mode: str, first: int, count: int) -> tuple[Run, float]:
    """Seeds first .. first + count - 1 of a mode, and the CPU seconds they took."""
    start = time.process_time()
    total = Run()
    with tempfile.TemporaryDirectory(prefix="chartc-import-fuzz-") as folder:
        if mode == "differential":
            for index, fmt in enumerate(FORMATS):
                seeds = range(first + (index - first) % len(FORMATS), first + count, len(FORMATS))
                part = differential(seeds, fmt, Path(folder) / fmt)
                total.cases += part.cases
                total.lookups += part.lookups
                total.held_back += part.held_back
                total.failures += part.failures
        else:
            total = round_trip(range(first, first + count), Path(folder))
    return total, time.process_time() - start


def read_ledger(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() or "?"


def append_ledger(path: Path, mode: str, first: int, run: Run, cpu: float, code: str) -> None:
    record = {
        "mode": mode,
        "first": first,
        "cases": run.cases,
        "lookups": run.lookups,
        "round_trips": run.round_trips,
        "held_back": run.held_back,
        "failures": len(run.failures),
        "cpu_s": round(cpu, 1),
        "code": code,
        "commit": _commit(),
    }
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, sort_keys=True) + "\n")
        out.flush()
        os.fsync(out.fileno())


def next_seed(path: Path, mode: str, code: str, default: int) -> int:
    ends = [
        int(str(r["first"])) + int(str(r["cases"]))
        for r in read_ledger(path)
        if r["mode"] == mode and r["code"] == code
    ]
    return max(ends, default=default)


def table(path: Path = LEDGER) -> str:
    """One row per mode and code version: seeds, longest run, lookups, round trips, CPU, failures."""
    records = read_ledger(path)
    lines = [
        "| pass | code (commit) | cases | longest run of seeds | lookups compared | round trips "
        "| held back | CPU | failures |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    groups = dict.fromkeys((str(r["mode"]), str(r["code"]), str(r["commit"])) for r in records)
    for mode, code, commit in groups:
        rows = [r for r in records if (r["mode"], r["code"], r["commit"]) == (mode, code, commit)]
        starts = [(int(str(r["first"])), int(str(r["cases"]))) for r in rows]
        seeds = sorted({seed for first, cases in starts for seed in range(first, first + cases)})
        best, start = (0, -1), None
        for i, seed in enumerate(seeds):
            start = seed if i == 0 or seed != seeds[i - 1] + 1 else start
            if start is not None and seed - start > best[1] - best[0]:
                best = (start, seed)

        def total(field: str, rows: list[dict[str, object]] = rows) -> float:
            return sum(float(str(r[field])) for r in rows)

        lines.append(
            f"| {mode} | {code} ({commit}) | {len(seeds):,} | {best[1] - best[0] + 1:,} ({best[0]:,} to {best[1]:,}) "
            f"| {total('lookups'):,.0f} | {total('round_trips'):,.0f} | {total('held_back'):,.0f} "
            f"| {total('cpu_s'):,.0f} s | {total('failures'):,.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mode", choices=MODES, default="differential")
    parser.add_argument("--cases", type=int, default=1000, help="how many seeds to run (default 1000)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--block", type=int, default=1000, help="seeds per block, the ledger's unit (default 1000)")
    parser.add_argument("--ledger", type=Path, help="append one JSON line per finished block to this file")
    parser.add_argument("--resume", action="store_true", help="start after the ledger's highest seed for this code")
    parser.add_argument("--show", action="store_true", help="print every failure in full")
    parser.add_argument("--report", action="store_true", help="the ledger's table (with --check or --write)")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    if args.report:
        from scripts.doc_block import doc_block_main

        flags = ["--check"] if args.check else ["--write"] if args.write else []
        sys.argv = [sys.argv[0], *flags]
        what, script = "import fuzz ledger table", "scripts/fuzz_import.py --report"
        return doc_block_main(__doc__ or "", PAGE, BEGIN, END, table, what, script)
    if args.resume and args.ledger is None:
        parser.error("--resume needs --ledger")
    code = code_hash()
    first = next_seed(args.ledger, args.mode, code, args.first) if args.resume else args.first
    end = args.first + args.cases if not args.resume else max(first, args.first + args.cases)
    failures = 0
    for start in range(first, end, args.block):
        count = min(args.block, end - start)
        run, cpu = run_block(args.mode, start, count)
        failures += len(run.failures)
        for failure in run.failures:
            print(str(failure) if args.show else str(failure)[:300], flush=True)
        if args.ledger is not None:
            append_ledger(args.ledger, args.mode, start, run, cpu, code)
        print(
            f"{args.mode} seeds {start}-{start + count - 1}: {run.cases} cases, {run.lookups:,} lookups, "
            f"{run.round_trips} round trips, {run.held_back} held back, {len(run.failures)} failures, {cpu:.1f} s CPU",
            flush=True,
        )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
