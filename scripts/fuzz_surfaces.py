"""Long passes of the fuzzers of issue 33's new surfaces, with a ledger like scripts/fuzz_long.py's.

    python scripts/fuzz_surfaces.py --fuzzer journal --cases 100000 --ledger tests/fuzz_surfaces_ledger.jsonl
    python scripts/fuzz_surfaces.py --fuzzer lsp --cases 100000 --ledger tests/fuzz_surfaces_ledger.jsonl
    python scripts/fuzz_surfaces.py --summary --ledger tests/fuzz_surfaces_ledger.jsonl

- `journal` (tests/journal_fuzz.py): a case is one seed: a build and up to two more commands,
  each killed or failed at a random file-system call; the tree must end old or new.
- `lsp` (tests/lsp_fuzz.py): a case is one random edit of a document open in the language
  server, checked against a fresh parse and `chartc check` (seeds of `EDITS_PER_SEED` edits).

Each finished block appends one JSON line (fuzzer, code hash, first seed, seeds, cases, failures,
CPU seconds, the first failure's message); `--resume` starts after the highest seed the ledger
holds for this fuzzer and code. The code hash covers `dsl/`, `compiler/` and the fuzzer's module.
Temporary folders go to /dev/shm when it exists (the journal fuzzer rewrites a tree per case).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EDITS_PER_SEED = 100
MODULES = {"journal": "tests/journal_fuzz.py", "lsp": "tests/lsp_fuzz.py"}


def code_hash(fuzzer: str) -> str:
    digest = hashlib.sha256()
    for entry in ("dsl", "compiler", MODULES[fuzzer]):
        path = ROOT / entry
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) if path.is_dir() \
            else [path]
        for file in files:
            digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def run_block(fuzzer: str, first: int, seeds: int, scratch: Path) -> dict[str, object]:
    """Run `seeds` seeds from `first`; the ledger line of the block."""
    start = time.process_time()
    cases, failures, message = 0, 0, ""
    for seed in range(first, first + seeds):
        folder = scratch / f"s{seed}"
        try:
            if fuzzer == "journal":
                from tests import journal_fuzz  # lazy: only the fuzzer asked for

                folder.mkdir()
                journal_fuzz.run_case(folder, seed)
                cases += 1
            else:
                from tests import lsp_fuzz  # lazy: only the fuzzer asked for (it imports pygls)

                with contextlib.chdir(scratch):
                    cases += lsp_fuzz.run(Path(folder.name), seed, EDITS_PER_SEED)
        except AssertionError as exc:
            failures += 1
            message = message or str(exc)[:2000]
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return {"fuzzer": fuzzer, "first": first, "seeds": seeds, "cases": cases, "failures": failures,
            "cpu_s": round(time.process_time() - start, 1), "first_failure": message}


def read_ledger(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def summary(path: Path) -> str:
    """One line per fuzzer and code version: seeds, cases, failures, CPU."""
    totals: dict[tuple[str, str], list[float]] = {}
    for r in read_ledger(path):
        t = totals.setdefault((str(r["fuzzer"]), str(r["code"])), [0, 0, 0, 0.0])
        for i, key in enumerate(("seeds", "cases", "failures", "cpu_s")):
            t[i] += float(r[key])  # type: ignore[arg-type]
    return "\n".join(f"{fuzzer} {code}: {int(s):,} seeds, {int(c):,} cases, {int(f)} failures, {cpu:,.0f} s CPU"
                     for (fuzzer, code), (s, c, f, cpu) in totals.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fuzzer", choices=sorted(MODULES))
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--block", type=int, default=1000, help="cases per ledger line")
    parser.add_argument("--ledger", type=Path)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    if args.summary:
        print(summary(args.ledger))
        return
    if args.fuzzer is None:
        parser.error("--fuzzer is needed")
    code = code_hash(args.fuzzer)
    per_seed = EDITS_PER_SEED if args.fuzzer == "lsp" else 1
    first = args.first
    if args.resume and args.ledger is not None:
        done = [r for r in read_ledger(args.ledger) if r["fuzzer"] == args.fuzzer and r["code"] == code]
        first = max((int(r["first"]) + int(r["seeds"]) for r in done), default=first)  # type: ignore[call-overload]
    seeds, block = max(1, args.cases // per_seed), max(1, args.block // per_seed)
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    failures = 0
    with tempfile.TemporaryDirectory(prefix="chartc-fuzz-", dir=base) as scratch:
        for start in range(first, first + seeds, block):
            record = {"code": code, **run_block(args.fuzzer, start, min(block, first + seeds - start), Path(scratch))}
            failures += int(record["failures"])  # type: ignore[call-overload]
            print(json.dumps(record), flush=True)
            if args.ledger is not None:
                with args.ledger.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(record, sort_keys=True) + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
