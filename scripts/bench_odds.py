"""Benchmark: chartc's exact enumeration (compiler/model/dice.py + compiler/engine/chances.py) against icepool.

Not a test and not part of CI. Run from the repository root:

    pip install -e '.[bench]'      # icepool>=2.1.3,<2.2: the 2.2 line needs Python 3.12
    python scripts/bench_odds.py

Two workloads, each "every row's exact probability for every key combination and every DRM":

* corpus: every roll chart in charts/ at every DRM of its declared span (what `chartc build` emits);
* forms: one chart per dice form (2d6, d66, percentile, 1d10, lower of 2d10, 1d6 minus 3 min 0,
  higher of 2d10, highest 3 of 4d6, lowest 2 of 3d6, 1d6 versus 1d6, 1d10 read 0-9) at every DRM
  from -6 to +6, to cover the forms the corpus does not use yet.

Both implementations build each distribution from scratch (no cached dice), assign each modified
roll to the first matching row, and must give identical `Fraction`s; the script stops if not.
Timings are the best of 7 repeats of `timeit` autorange loops, in milliseconds per workload; the
import cost is the median over 7 fresh interpreters of `python -X importtime`'s cumulative time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import timeit
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler import model  # noqa: E402
from compiler.build.project import load  # noqa: E402
from compiler.engine.chances import drm_values  # noqa: E402
from compiler.engine.drms import modified_roll  # noqa: E402
from compiler.model.dice import Dice  # noqa: E402

FORMS = '''game forms { title "Dice forms" }
chart [S2] "2d6" { roll 2d6 column r: text rows { 2-: "a" 3-4: "b" 5-7: "c" 8-10: "d" 11-12: "e" 13+: "f" } }
chart [D66] "d66" { roll d66 column r: text rows { 16-: "a" 21-26: "b" 31-46: "c" 51-66: "d" 67+: "e" } }
chart [PCT] "percentile" { roll percentile column r: text rows { 01-: "a" 02-50: "b" 51-99: "c" 100+: "d" } }
chart [D10] "d10" { roll 1d10 column r: text rows { 1-: "a" 2-8: "b" 9+: "c" } }
chart [LOW] "lower of 2d10" { roll lower of 2d10 column r: text rows { 1-: "a" 2-5: "b" 6+: "c" } }
chart [FLAK] "flak" { roll 1d6 minus 3 min 0 column hits: int rows { 0-: 0 1: 1 2: 2 3+: 3 } }
chart [HIGH] "higher of 2d10" { roll higher of 2d10 column r: text rows { 3-: "a" 4-8: "b" 9+: "c" } }
chart [KEEP] "highest 3 of 4d6" { roll highest 3 of 4d6 column r: text rows { 7-: "a" 8-13: "b" 14+: "c" } }
chart [LOWEST] "lowest 2 of 3d6" { roll lowest 2 of 3d6 column r: text rows { 3-: "a" 4-6: "b" 7+: "c" } }
chart [VS] "1d6 versus 1d6" { roll 1d6 versus 1d6 column r: text rows { -2-: "a" -1-1: "b" 2+: "c" } }
chart [Z10] "1d10 read 0-9" { roll 1d10 zero reads 0 column r: text rows { 0-: "a" 1-8: "b" 9+: "c" } }
'''


def _load(path: Path) -> model.Project:
    cwd = os.getcwd()
    os.chdir(path)
    try:
        comp = load([Path("charts")])
    finally:
        os.chdir(cwd)
    return comp.project


def corpus_workload() -> list[tuple[model.Chart, list[int]]]:
    project = _load(ROOT)
    return [(c, drm_values(c)) for g in project.games.values() for c in g.charts if c.kind == "roll" and c.dice]


def forms_workload() -> list[tuple[model.Chart, list[int]]]:
    tmp = Path(tempfile.mkdtemp())
    (tmp / "charts" / "forms").mkdir(parents=True)
    (tmp / "charts" / "forms" / "forms.chart").write_text(FORMS, encoding="utf-8")
    project = _load(tmp)
    return [(c, list(range(-6, 7))) for c in project.games["forms"].charts]


def _assign(chart: model.Chart, combo: tuple[str, ...], items) -> list[Fraction]:
    """First-match assignment of (modified roll, probability) pairs to the rows of `combo`."""
    rows = [r for r in chart.rows_for(combo) if r.range is not None]
    got = [Fraction(0)] * (len(rows) + 1)  # the last slot is "no row"
    for value, p in items:
        i = next((i for i, r in enumerate(rows) if r.range.contains(value)), len(rows))
        got[i] += p
    return got


def plain(workload) -> list[list[Fraction]]:
    """chartc's own model: fresh Dice (so the enumeration is timed), each natural roll through the
    chart's steps with each DRM (the sum without arithmetic)."""
    out = []
    for chart, drms in workload:
        d = chart.dice
        outcomes = Dice(d.form, d.count, d.sides, d.keep, d.versus_count, d.versus_sides, d.zero).outcomes
        for combo in chart.key_combinations():
            for drm in drms:
                moved = ((modified_roll(chart, roll, drm), p) for roll, p in outcomes.items())
                out.append(_assign(chart, combo, moved))
    return out


def icepool_die(d: Dice):
    import icepool

    if d.form == "d66":
        return icepool.map(lambda t, o: 10 * t + o, icepool.d(6), icepool.d(6))
    if d.form == "percentile":
        return icepool.map(lambda t, o: (10 * t + o) or 100, icepool.z(10), icepool.z(10))
    die = icepool.z(10) if d.sides == 10 and d.zero == 0 else icepool.d(d.sides)
    if d.form == "lower":
        return die.lowest(d.count)
    if d.form == "higher":
        return die.highest(d.count)
    if d.form == "highest":
        return die.highest(d.count, d.keep)
    if d.form == "lowest":
        return die.lowest(d.count, d.keep)
    total = d.count @ die
    if d.form == "versus":
        other = icepool.z(10) if d.versus_sides == 10 and d.zero == 0 else icepool.d(d.versus_sides)
        return total - d.versus_count @ other
    return total


def icepool_roll(chart: model.Chart, drm: int):
    """The chart's dice through its steps (dice arithmetic) with the DRM total `drm`, in icepool."""
    die = icepool_die(chart.dice) + (0 if chart.arithmetic else drm)
    for step in chart.pipeline if chart.arithmetic else ():
        match step.kind:
            case model.StepKind.DRMS:
                die = die + drm
            case model.StepKind.ADD:
                die = die + step.amount
            case model.StepKind.TIMES:
                die = die * step.amount
            case model.StepKind.HALVE if step.rounding == "down":
                die = die.map(lambda x: x // 2)
            case model.StepKind.HALVE:
                die = die.map(lambda x: -(-x // 2))
            case model.StepKind.MINIMUM:
                die = die.clip(step.amount, None)
            case model.StepKind.MAXIMUM:
                die = die.clip(None, step.amount)
    return die


def with_icepool(workload) -> list[list[Fraction]]:
    out = []
    for chart, drms in workload:
        for combo in chart.key_combinations():
            for drm in drms:
                shifted = icepool_roll(chart, drm)
                out.append(_assign(chart, combo, zip(shifted.outcomes(), shifted.probabilities(), strict=True)))
    return out


def best_ms(fn, workload) -> float:
    timer = timeit.Timer(lambda: fn(workload))
    loops, _ = timer.autorange()
    return min(timer.repeat(7, loops)) / loops * 1000


def import_ms(module: str) -> float:
    """Median over 7 fresh interpreters of `-X importtime`'s cumulative time for `module`, in ms."""
    runs = []
    for _ in range(7):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], check=True,
                             capture_output=True, text=True).stderr
        line = next(x for x in err.splitlines() if x.rstrip().endswith(f"| {module}"))
        runs.append(int(line.split("|")[1]) / 1000)
    return statistics.median(runs)


def main() -> None:
    import icepool

    print(f"python {sys.version.split()[0]}, icepool {icepool.__version__}")
    for name, workload in (("corpus", corpus_workload()), ("forms", forms_workload())):
        ours, theirs = plain(workload), with_icepool(workload)
        if ours != theirs:
            sys.exit(f"{name}: icepool and chartc disagree")
        dists = len(ours)
        probs = sum(len(r) for r in ours)
        print(
            f"{name}: {len(workload)} charts, {dists} distributions, {probs} probabilities (rows + no row), identical; "
            f"chartc {best_ms(plain, workload):.2f} ms, icepool {best_ms(with_icepool, workload):.2f} ms"
        )
    print(
        f"import (-X importtime, cumulative): fractions {import_ms('fractions'):.0f} ms, "
        f"icepool {import_ms('icepool'):.0f} ms"
    )
    from compiler.build.render import render_outputs
    from compiler.engine.chances import row_chances

    project = _load(ROOT)
    render_outputs(project)  # warm: jinja2 import and template compilation are not chances
    charts = [c for g in project.games.values() for c in g.charts if c.kind == "roll" and c.dice]
    total = best_ms(render_outputs, project)
    chances_part = best_ms(lambda cs: [list(row_chances(c)) for c in cs], charts)
    print(
        f"render_outputs on the corpus (JSON + Python + HTML): {total:.1f} ms, "
        f"of which row_chances {chances_part:.2f} ms"
    )

if __name__ == "__main__":
    main()
