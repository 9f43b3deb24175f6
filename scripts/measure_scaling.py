"""Measure how `chartc check` time grows with input size (the README states the figures).

    python scripts/measure_scaling.py            # sizes 1x, 2x, 4x, 8x of each family
    python scripts/measure_scaling.py --quick    # 1x, 2x, 4x (about 15 s)

Families: many small charts in one file (parse + resolve + check per chart), one very long line
(a 1 MB+ title string), comment lines, and conditions of 10,000+ nested parentheses. Each figure
is the best of three runs of the full front end (`compiler.build.project.load`) on a fresh folder; the
last column, microseconds per kilobyte, stays flat when time grows linearly.
"""

from __future__ import annotations

import os
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


FAMILIES = {"many charts (1,000 per step)": many_charts, "one long line (1 MB per step)": long_line,
            "comment lines (1.9 MB per step)": comments, "nested parentheses (10,000 per step)": nested_parens}


def best_of_three(text: str) -> float:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "charts" / "t"
        folder.mkdir(parents=True)
        (folder / "a.chart").write_text(text, encoding="utf-8")
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            for _ in range(3):
                start = time.perf_counter()
                load([Path("charts")])
                times.append(time.perf_counter() - start)
        finally:
            os.chdir(cwd)
    return min(times)


def main(argv: list[str]) -> None:
    steps = (1, 2, 4) if "--quick" in argv else (1, 2, 4, 8)
    load([Path(__file__).resolve().parent.parent / "charts"])  # warm up the grammar
    print(f"{'input':<40} {'size':>10} {'seconds':>8} {'µs/KB':>7}")
    for name, make in FAMILIES.items():
        for n in steps:
            text = make(n)
            seconds = best_of_three(text)
            kb = len(text.encode("utf-8")) / 1024
            print(f"{name + f' x{n}':<40} {kb / 1024:>8.1f}MB {seconds:>8.2f} {seconds * 1e6 / kb:>7.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
