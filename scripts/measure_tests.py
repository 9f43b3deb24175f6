"""Measure the CPU time of the test suite: the default run (`pytest`) and the slow run (`pytest -m slow`).

    python scripts/measure_tests.py              # both runs
    python scripts/measure_tests.py --default    # only the default run
    python scripts/measure_tests.py --slow       # only the slow run

Each run is a subprocess; its user and system CPU come from `resource.getrusage(RUSAGE_CHILDREN)`
taken around it, so the CPU of everything the tests start (chartc subprocesses, Chromium,
poppler) is counted too. Wall time depends on the machine's load; CPU time is the fairer figure.
The figures of docs/records/tests.md come from this script.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = {
    "default": [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
    "slow": [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", "slow"],
}


@dataclass(frozen=True)
class Measure:
    """One run's exit status, wall time and CPU time (seconds)."""

    name: str
    status: int
    wall: float
    user: float
    system: float
    summary: str

    @property
    def cpu(self) -> float:
        return self.user + self.system


def measure(name: str, cmd: list[str]) -> Measure:
    """Run `cmd` in the project root and measure it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    return Measure(
        name,
        proc.returncode,
        wall,
        after.ru_utime - before.ru_utime,
        after.ru_stime - before.ru_stime,
        lines[-1] if lines else proc.stderr.strip()[-200:],
    )


def report(m: Measure) -> str:
    """One line: the command, the CPU time split into user and system, the wall time, pytest's summary."""
    command = "pytest" if m.name == "default" else "pytest -m slow"
    return (
        f"{command}: {m.cpu:.0f} s CPU ({m.user:.0f} s user + {m.system:.0f} s system), "
        f"{m.wall:.0f} s wall, on {os.cpu_count()} CPUs: {m.summary}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--default", action="store_true", help="measure only the default run")
    parser.add_argument("--slow", action="store_true", help="measure only the slow run")
    args = parser.parse_args(argv)
    names = [n for n, wanted in (("default", args.default), ("slow", args.slow)) if wanted] or list(RUNS)
    status = 0
    for name in names:
        m = measure(name, RUNS[name])
        print(report(m), flush=True)
        status = status or m.status
    return status


if __name__ == "__main__":
    sys.exit(main())
