"""Measure how `chartc check` time grows with input size (docs/records/fuzzing.md states the figures).

    python scripts/measure_scaling.py            # sizes 1x, 2x, 4x, 8x of each family
    python scripts/measure_scaling.py --quick    # 1x, 2x, 4x (about 15 s)

Families: many small charts in one file (parse + resolve + check per chart), one very long line
(a 1 MB+ title string), comment lines, and conditions of 10,000+ nested parentheses. Each figure
is the best of three runs of the full front end (`compiler.build.project.load`) on a fresh folder,
in CPU seconds of this process; the last column, microseconds per kilobyte, stays flat when time
grows linearly. It prints the Markdown table of docs/records/fuzzing.md.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from compiler.build.project import load

HEADER = 'game t { title "T" }\ncontext fb: flag\n'
CHART = 'chart [R{i}] "Chart {i}" {{ roll 1d6 column r: text drm d +1 when fb rows {{ 1-3: "a" 4+: "b" }} }}\n'


def many_charts(n: int) -> str:
    return HEADER + "".join(CHART.format(i=i) for i in range(1000 * n))


def long_line(n: int) -> str:
    return HEADER + 'chart [R1] "' + "x" * (1_000_000 * n) + '" { roll 1d6 column r: text rows { 1-6: "a" } }\n'


def comments(n: int) -> str:
    # 1.9 MB per step, so the largest (x8, 15 MB) stays under the reader's 16 MiB limit per file
    return HEADER + ("# " + "c" * 77 + "\n") * (25_000 * n)


def nested_parens(n: int) -> str:
    depth = 10_000 * n
    cond = "(" * depth + "fb" + ")" * depth
    return HEADER + f'chart [R1] "X" {{ roll 1d6 column r: text drm d +1 when {cond} rows {{ 1-6: "a" }} }}\n'


# Each family's row label; `{size}` is the size of one step's input.
FAMILIES = {
    "many charts in one file (1,000 charts, {size} per step)": many_charts,
    "one long line (a 1 MB title per step)": long_line,
    "comment lines ({size} per step; a file is read up to 16 MiB)": comments,
    "nested parentheses in a condition (10,000 per step)": nested_parens,
}


def best_of_three(text: str) -> float:
    """The least CPU time of three loads of `text`, each a text the process has not parsed before:
    the parser keeps the syntax trees of texts up to 256 KiB (dsl/parser.py), and a second load of
    the same text would measure that memo, not the parse."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "charts" / "t"
        folder.mkdir(parents=True)
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            for run in range(3):
                (folder / "a.chart").write_text(f"{text}# run {run}\n", encoding="utf-8")
                start = time.process_time()  # CPU time: a busy shared machine inflates the wall clock
                load([Path("charts")])
                times.append(time.process_time() - start)
        finally:
            os.chdir(cwd)
    return min(times)


def _size(kb: float) -> str:
    return f"{kb:,.0f} KB" if kb < 1000 else f"{kb / 1024:.1f} MB"


def _span(values: list[float]) -> str:
    low, high = f"{min(values):,.0f}", f"{max(values):,.0f}"
    return low if low == high else f"{low}-{high}"


def main(argv: list[str]) -> None:
    """Print the table of docs/records/fuzzing.md: seconds per size step, and microseconds per KB."""
    steps = (1, 2, 4) if "--quick" in argv else (1, 2, 4, 8)
    load([Path(__file__).resolve().parent.parent / "charts"])  # warm up the grammar
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} at the start; CPU seconds, best of three runs of each input."
    )
    print()
    print("| input | " + " | ".join(f"{n}x" for n in steps) + " | µs per KB |")
    print("|---|" + "---|" * len(steps) + "---|")
    for label, make in FAMILIES.items():
        cells, per_kb = [], []
        for n in steps:
            text = make(n)
            seconds = best_of_three(text)
            kb = len(text.encode("utf-8")) / 1024
            cells.append(f"{seconds:.2f} s")
            per_kb.append(seconds * 1e6 / kb)
        size = _size(len(make(1).encode("utf-8")) / 1024)
        print(f"| {label.format(size=size)} | " + " | ".join(cells) + f" | {_span(per_kb)} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
