"""The table of long differential passes in docs/records/fuzzing.md, read from tests/fuzz_ledger.jsonl:
one row per version of the code the ledger holds, named by its code hash and the commit the pass ran on.

    python scripts/fuzz_report.py           # print the table
    python scripts/fuzz_report.py --check   # exit 1 when docs/records/fuzzing.md does not hold it
    python scripts/fuzz_report.py --write   # put it in docs/records/fuzzing.md

The code hash is scripts/fuzz_long.py's: chartc's packages and the game generator. A version's
seeds are counted once even where blocks overlap, and "longest run" is the longest stretch of
consecutive seeds, which is what "N games on one version" means.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.fuzz_long import CODE_FILES, ROOT, read_ledger
from scripts.fuzz_long import Totals as Version
from scripts.fuzz_long import versions as ledger_versions

LEDGER = ROOT / "tests" / "fuzz_ledger.jsonl"
PAGE = ROOT / "docs" / "records" / "fuzzing.md"
BEGIN = "<!-- fuzz ledger table: python scripts/fuzz_report.py -->"
END = "<!-- end of fuzz ledger table -->"

# The commit each pass in the ledger ran on, by code hash: recorded by whoever ran it (the ledger
# holds only the hash); tests/test_fuzz_report.py checks that each commit has that code hash.
PASS_COMMITS = {
    "f7797d827f4fb6ba": "8da281f",
    "abab46b1455e1279": "0e8e067",
    "d457e1c28b82c595": "346abc4",
}


def versions(path: Path) -> list[Version]:
    """Each code version in the order the ledger first met it."""
    return ledger_versions(read_ledger(path))


def git(*args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", *args], cwd=ROOT, input=stdin, capture_output=True, check=True).stdout


def code_hash_at(commit: str) -> str:
    """scripts/fuzz_long.py's code_hash() of the files as they are at `commit`."""
    entries: list[tuple[PurePosixPath, str]] = []
    for entry in CODE_FILES:  # in code_hash()'s order, each folder's files sorted as paths
        listing = git("ls-tree", "-r", commit, "--", entry).decode()
        entries += sorted(
            (PurePosixPath(line.split("\t", 1)[1]), line.split()[2])
            for line in listing.splitlines()
            # code_hash() walks the working tree without following symlinks (compiler/schemas)
            if not line.startswith("120000") and "__pycache__" not in line
        )
    blobs = git("cat-file", "--batch", stdin="".join(f"{sha}\n" for _, sha in entries).encode())
    digest = hashlib.sha256()
    at = 0
    for path, _ in entries:
        header_end = blobs.index(b"\n", at)
        size = int(blobs[at:header_end].split()[2])
        content = blobs[header_end + 1 : header_end + 1 + size]
        at = header_end + 1 + size + 1
        digest.update(path.as_posix().encode() + b"\0" + content + b"\0")
    return digest.hexdigest()[:16]


def table() -> str:
    held = versions(LEDGER)
    lines = [
        "| code (commit the pass ran on) | seeds | longest run of seeds | comparisons | CLI calls "
        "| CPU | CPU a game | disagreements |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for v in held:
        first, last = v.longest_run()
        commit = PASS_COMMITS.get(v.code, "commit not recorded")
        lines.append(
            f"| {v.code} ({commit}) | {len(v.seeds):,} | {last - first + 1:,} ({first:,} to {last:,}) "
            f"| {v.comparisons:,} | {v.cli_calls:,} | {v.cpu_s:,.0f} s | {v.cpu_s / max(v.games, 1):.2f} s "
            f"| {v.disagreements} |"
        )
    games = sum(v.games for v in held)
    found = sum(v.disagreements for v in held)
    lines += [
        "",
        f"In all, {games:,} games over {len(held)} versions of the code, with {found:,} disagreements "
        "(a traceback counts as one).",
    ]
    return "\n".join(lines)


def main() -> int:
    from scripts.doc_block import doc_block_main

    return doc_block_main(__doc__ or "", PAGE, BEGIN, END, table, "fuzz ledger table", "scripts/fuzz_report.py")


if __name__ == "__main__":
    raise SystemExit(main())
