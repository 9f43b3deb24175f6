"""Benchmark where chartc's users wait, as ratios against a baseline measured on the same machine.

    python scripts/bench.py                    # every row, 7 paired runs each
    python scripts/bench.py --quick            # every row, 3 paired runs, smaller inputs
    python scripts/bench.py --only help        # rows whose name contains `help`
    python scripts/bench.py --only click       # what click alone costs: the floor of the `help` row
    python scripts/bench.py --rows 2000        # the synthetic corpus at 2,000 rows
    python scripts/bench.py --only check --baseline ../main   # also: these checks vs that checkout's
    python scripts/bench.py --only tricks      # each speed trick: its command with and without it
    python scripts/bench.py --only startup     # lookup and --help on a regular install (a venv it makes)
    python scripts/bench.py --write            # also record the rows in docs/records/speed.{json,md}

Each row compares a command A with a baseline B. The two run interleaved (A, B, A, B, ...), each
as a child process whose CPU time (user + system) comes from `resource.getrusage(RUSAGE_CHILDREN)`
taken around it; the figure printed is the median of the paired ratios A/B, so a slow moment of a
shared machine hits both sides of a pair. The generated-lookup rows time calls in this process
with `timeit`. Peak memory is the largest resident set of a child (`ru_maxrss`). Children run
with their modules' bytecode, as an installed chartc does: PYTHONDONTWRITEBYTECODE is not passed on.
The `speedbuild` rows compare a build in one process per CPU with a one-process build by wall time
(what parallel processes save; their CPU time is no lower), and print the machine's load average
while they ran.

The synthetic corpus is written deterministically (no randomness) into a temporary folder: one
game using every construct of docs/language.md, with realistic rows, DRMs and grids, written in
the chart language, and the same data as YAML and as JSON for the parser baselines.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "docs" / "records" / "speed.json"
"""The rows of the last `--write` run, which docs/records/speed.md shows between its markers."""
PAGE = ROOT / "docs" / "records" / "speed.md"
BEGIN = "<!-- scripts/bench.py --write: begin -->"
END = "<!-- scripts/bench.py --write: end -->"
ISSUE_35 = ("pdf-unchanged", "pdf-full", "lookup", "lookup-regular", "lookup-edit-editable", "lookup-edit-regular",
            "help", "help-regular", "odds-5d10", "odds-10d10", "odds-first", "json-size", "json-memory", "check-json",
            "check-json-first")
"""The rows of issue 35's table (the editable and regular installs both): the record holds each."""
CHARTS = ROOT / "charts"
PYTHON = sys.executable
CHARTC = [PYTHON, "-c", "import sys; from compiler.cli import main; sys.argv[0] = 'chartc'; main()"]

# --------------------------------------------------------------------------------------------------
# The synthetic corpus: data first (dicts), then written as chart language, YAML and JSON.

_UNITS = ("infantry", "armour", "artillery", "recon")
_UNIT_LABELS = ("Infantry", "Armour", "Artillery", "Reconnaissance")
_TERRAIN = ("clear", "woods", "town", "hills", "marsh")
_RESULTS_2D6 = (
    ("2-", "Eliminated", 3),
    ("3-4", "Retreat two hexes, disrupted", 2),
    ("5-6", "Retreat one hex", 1),
    ("7-8", "Pinned", 1),
    ("9-10", "No effect", 0),
    ("11", "Attacker pinned", 0),
    ("12+", "Attacker retreats", 0),
)
_QUALITY = ("Green", "Trained", "Seasoned", "Veteran")
_YEARS = tuple(range(1940, 1946))


def synthetic_game(rows: int) -> dict[str, Any]:
    """The synthetic game as plain data, with about `rows` rows over all its charts."""
    charts: list[dict[str, Any]] = []
    made = 0
    n = 0
    while made < rows:
        for build in _CHART_FORMS:
            chart = build(n)
            charts.append(chart)
            made += _row_count(chart)
            n += 1
    return {
        "game": "synth",
        "title": "Synthetic Operations: a benchmark game",
        "source": "scripts/bench.py",
        "calendar": ["1940-01", "1945-12"],
        "periods": [
            {"id": f"y{y}", "label": str(y), "from": f"{y}-01", "to": f"{y}-12"} for y in _YEARS
        ],
        "enums": [
            {"id": "unit", "label": "Unit type", "members": dict(zip(_UNITS, _UNIT_LABELS, strict=True))},
            {"id": "terrain", "label": "Terrain", "members": {t: t.title() for t in _TERRAIN}},
            {"id": "family", "label": "Aircraft family", "members": {"bf109": "Bf 109", "fw190": "FW 190"}},
        ],
        "records": {
            "id": "aircraft",
            "label": "Aircraft type",
            "fields": {"family": "family", "available": "month", "agile": "flag"},
            "members": [
                {"id": f"type{i}", "label": f"Type {i}", "family": ("bf109", "fw190")[i % 2],
                 "available": f"{1940 + i % 6}-0{1 + i % 9}", "agile": i % 3 == 0}
                for i in range(12)
            ],
        },
        "context": [
            {"id": "leader", "type": "flag", "label": "Leader present"},
            {"id": "month", "type": "month", "label": "Game month"},
            {"id": "fatigue", "type": "int", "label": "Fatigue level"},
            {"id": "ground", "type": "terrain", "label": "Terrain of the defender"},
        ],
        "odds": {"id": "crt_odds", "label": "Combat odds", "columns": ["1:2", "1:1", "2:1", "3:1", "4:1"]},
        "externals": [{"id": "B6", "label": "Fighter Damage Chart", "why": "printed on the player aid cards"}],
        "invariants": [{"id": "types", "label": "twelve aircraft types", "enum": "aircraft",
                        "field": "family", "value": "bf109", "count": 6}],
        "charts": charts,
        "errata": {
            "id": "second", "label": "Second printing errata", "chart": "combat_0",
            "change": {"row": ["infantry", "11"], "column": "result", "to": "Attacker pinned, disrupted"},
        },
    }


def _row_count(chart: dict[str, Any]) -> int:
    return len(chart.get("rows", ())) + len(chart.get("grid", {}).get("rows", ()))


def _combat(n: int) -> dict[str, Any]:
    """A 2d6 chart keyed by unit type, two output columns, DRMs with conditions (the bulk)."""
    rows = [
        {"keys": [unit], "range": rng, "values": [f"{text} ({unit_label})", loss]}
        for unit, unit_label in zip(_UNITS, _UNIT_LABELS, strict=True)
        for rng, text, loss in _RESULTS_2D6
    ]
    return {
        "form": "rows", "id": f"C{n}", "slug": f"combat_{n}", "title": f"Combat Results {n}",
        "rule": f"{7 + n % 5}.{n % 9 + 1}", "roll": "2d6", "keys": ["unit"],
        "columns": [{"id": "result", "type": "text", "label": "Result"},
                    {"id": "loss", "type": "int", "label": "Steps lost"}],
        "drms": [
            {"id": "leader", "label": "Leader stacked", "value": 1, "when": "leader", "footnote": 1},
            {"id": "winter", "label": "Winter months", "value": -1, "when": "month in [1941-12, 1942-01, 1942-02]"},
            {"id": "cover", "label": "Defender in cover", "value": -1,
             "when": "ground in [woods, town] and not leader"},
            {"id": "tired", "label": "Fatigued", "value": -1, "when": "fatigue >= 5"},
        ],
        "footnotes": {"1": "A leader adds +1 only when stacked with the attacking unit."},
        "rows": rows,
    }


def _quality(n: int) -> dict[str, Any]:
    """A percentile grid keyed by period, as IA2's pilot quality charts are printed."""
    tops = (8, 70, 92, 100)
    cells = []
    for q, top in enumerate(tops):
        row = []
        for y in range(len(_YEARS)):  # later years: fewer green pilots, more veterans
            lo = 1 if q == 0 else tops[q - 1] - y + 1
            hi = top if q == len(tops) - 1 else top - y
            row.append(f"{lo:02d}-{hi % 100:02d}")
        cells.append({"label": _QUALITY[q], "cells": row})
    return {
        "form": "grid", "id": f"Q{n}", "slug": f"quality_{n}", "title": f"Pilot Quality Chart {n}",
        "rule": "10.6", "roll": "percentile",
        "columns": [{"id": "pilot", "type": "text", "label": "Pilot"}],
        "grid": {"key": "period", "columns": [f"y{y}" for y in _YEARS], "rows": cells},
    }


def _weather(n: int) -> dict[str, Any]:
    """A 1d10 chart with the `9-0` range and a month-conditioned DRM."""
    return {
        "form": "rows", "id": f"W{n}", "slug": f"weather_{n}", "title": f"Weather Chart {n}", "rule": "6.1",
        "roll": "1d10", "keys": [],
        "columns": [{"id": "weather", "type": "text", "label": "Weather"}],
        "drms": [{"id": "december", "label": "December", "value": 1, "when": "month == 1944-12"}],
        "rows": [
            {"keys": [], "range": "1-4", "values": ["Clear"]},
            {"keys": [], "range": "5-6", "values": ["Overcast"]},
            {"keys": [], "range": "7-8", "values": ["Rain"]},
            {"keys": [], "range": "9-0", "values": ["Storm: no air missions"]},
        ],
        "open_top": True,
    }


def _d66(n: int) -> dict[str, Any]:
    """A d66 chart read as tens and ones."""
    tens = [("11-16", "Mechanical failure"), ("21-36", "Nothing sighted"), ("41-56", "Bogey sighted"),
            ("61-66", "Ambush")]
    return {
        "form": "rows", "id": f"E{n}", "slug": f"events_{n}", "title": f"Random Events {n}", "rule": "12.2",
        "roll": "d66", "keys": [], "columns": [{"id": "event", "type": "text", "label": "Event"}],
        "rows": [{"keys": [], "range": r, "values": [t]} for r, t in tens],
    }


def _fatigue(n: int) -> dict[str, Any]:
    """A value-keyed chart (an integer instead of a roll)."""
    bands = [("0-4", "No effect"), ("5-9", "-1 to initiative"), ("10-19", "+1 to landing rolls"),
             ("20+", "+2 to landing, -1 to initiative")]
    return {
        "form": "rows", "id": f"F{n}", "slug": f"fatigue_{n}", "title": f"Fatigue Effects {n}", "rule": "10.5",
        "value": {"id": "fatigue_level", "label": "Fatigue level", "domain": "0+"}, "keys": [],
        "columns": [{"id": "effect", "type": "text", "label": "Effect"}],
        "rows": [{"keys": [], "range": r, "values": [t]} for r, t in bands],
    }


def _sorties(n: int) -> dict[str, Any]:
    """A month-keyed chart (values that change by date)."""
    return {
        "form": "rows", "id": None, "slug": f"sorties_{n}", "title": f"Sorties per month {n}", "rule": "4.3.3",
        "keys": ["month"], "columns": [{"id": "sorties", "type": "int", "label": "Sorties"}],
        "rows": [{"keys": [], "month": "1940-01..1944-12", "values": [8]},
                 {"keys": [], "month": "1945-01+", "values": [4]}],
    }


def _availability(n: int) -> dict[str, Any]:
    """An availability grid: aircraft down, months across, ✓ / die range / -."""
    months = ["1944-03", "1944-04", "1944-07"]
    cells = [["✓", "✓", "1-5"], ["-", "-", "6"], ["1-3", "1-4", "✓"]]
    return {
        "form": "availability", "id": f"A{n}", "slug": f"types_{n}", "title": f"Available Aircraft {n}",
        "rule": "4.6.4", "roll": "1d6",
        "grid": {"key": "aircraft", "columns": months,
                 "rows": [{"label": f"type{i}", "cells": cells[i]} for i in range(3)]},
    }


def _weapons(n: int) -> dict[str, Any]:
    """A reference table of typed cells: pair, triple, thresholds, chart reference."""
    return {
        "form": "rows", "id": None, "slug": f"weapons_{n}", "title": f"Weapon numbers {n}", "rule": "9.2",
        "keys": ["terrain"],
        "columns": [{"id": "factors", "type": "pair", "label": "Factors/points"},
                    {"id": "costs", "type": "triple", "label": "Short/medium/long"},
                    {"id": "hits", "type": "thresholds", "label": "Hits at"},
                    {"id": "damage", "type": "chartref", "label": "Damage chart"}],
        "rows": [{"keys": [t], "range": None, "values": [f"{i + 2}/{i + 1}", f"{i}/{2 * i}/{3 * i}",
                                                         f"-/{7 + i % 2}/{9 + i % 2}/11", "[B6]"]}
                 for i, t in enumerate(_TERRAIN)],
    }


def _derived(n: int) -> dict[str, Any]:
    """A derived chart moving the bands of a percentile chart, and a DRM list without a table."""
    return {
        "form": "derived", "id": None, "slug": f"aamg_{n}", "title": f"AAMG Damage {n}", "rule": "AA.2",
        "roll": "percentile", "columns": [{"id": "damage", "type": "text", "label": "Damage"}],
        "rows": [{"keys": [], "range": "01-35", "values": ["No damage"]},
                 {"keys": [], "range": "36-80", "values": ["Damaged"]},
                 {"keys": [], "range": "81-00", "values": ["Destroyed"]}],
        "derived": {"slug": f"aamg_il2_{n}", "title": f"AAMG Damage (IL-2) {n}", "bands": 5},
        "drms_list": {"id": f"B{n}", "slug": f"weather_drms_{n}", "title": f"Weather DRMs {n}"},
    }


_CHART_FORMS: tuple[Callable[[int], dict[str, Any]], ...] = (
    _combat, _combat, _combat, _combat, _combat, _combat, _combat, _combat,
    _quality, _weather, _d66, _fatigue, _sorties, _availability, _weapons, _derived,
)


def chart_language(game: dict[str, Any]) -> str:
    """The game written in the chart language, one row per line."""
    out: list[str] = [f"game {game['game']} {{", f"  title {_q(game['title'])}", f"  source {_q(game['source'])}",
                      f"  calendar {game['calendar'][0]} to {game['calendar'][1]}"]
    out += [f"  period {p['id']} {_q(p['label'])} {p['from']} to {p['to']}" for p in game["periods"]]
    out.append("}")
    for enum in game["enums"]:
        members = " ".join(f"{k} {_q(v)}" for k, v in enum["members"].items())
        out.append(f"enum {enum['id']} {_q(enum['label'])} {{ {members} }}")
    rec = game["records"]
    out.append(f"enum {rec['id']} {_q(rec['label'])} {{")
    out.append("  fields { " + "  ".join(f"{k}: {t}" for k, t in rec["fields"].items()) + " }")
    for m in rec["members"]:
        out.append(f"  {m['id']} {_q(m['label'])} {{ family: {m['family']}  available: {m['available']}  "
                   f"agile: {'yes' if m['agile'] else 'no'} }}")
    out.append("}")
    out += [f"context {c['id']}: {c['type']} {_q(c['label'])}" for c in game["context"]]
    odds = game["odds"]
    out += [f"odds {odds['id']} {_q(odds['label'])} {{", "  rule \"15.1\"",
            "  columns [" + ", ".join(_q(c) for c in odds["columns"]) + "]",
            "  attacker_high round down", "  defender_high round up", "  beyond clamp", "}"]
    out += [f"external [{e['id']}] {_q(e['label'])} {_q(e['why'])}" for e in game["externals"]]
    for inv in game["invariants"]:
        out.append(f"invariant {inv['id']} {_q(inv['label'])} {{ count {inv['enum']} where "
                   f"{inv['field']} == {inv['value']} is {inv['count']} }}")
    for chart in game["charts"]:
        out += _chart_lines(chart)
    e = game["errata"]
    ch = e["change"]
    out += [f"errata {e['id']} {_q(e['label'])} {{", "  order 1", f"  amend {e['chart']} {{",
            f"    change {' '.join(ch['row'])} column {ch['column']} to {_q(ch['to'])} because \"second printing\"",
            "  }", "}"]
    return "\n".join(out) + "\n"


def _chart_lines(c: dict[str, Any]) -> list[str]:
    head = f"chart [{c['id']}] {c['slug']}" if c["id"] else f"chart {c['slug']}"
    out = [f"{head} {_q(c['title'])} {{", f"  rule {_q(c['rule'])}"]
    if "roll" in c:
        out.append(f"  roll {c['roll']}")
    if "value" in c:
        v = c["value"]
        out.append(f"  value {v['id']} {_q(v['label'])} {v['domain']}")
    out += [f"  key {k}" for k in c.get("keys", ())]
    out += [f"  column {col['id']}: {col['type']} {_q(col['label'])}" for col in c.get("columns", ())]
    for d in c.get("drms", ()):
        note = f" [{d['footnote']}]" if "footnote" in d else ""
        out.append(f"  drm {d['id']} {_q(d['label'])} {d['value']:+d} when {d['when']}{note}")
    out += [f"  footnote {k} {_q(v)}" for k, v in c.get("footnotes", {}).items()]
    match c["form"]:
        case "rows" | "derived":
            out.append("  rows {")
            for r in c["rows"]:
                lead = " ".join(r["keys"] + [x for x in (r.get("range"), r.get("month")) if x])
                if c.get("open_top") and r is c["rows"][-1]:
                    lead = lead.replace("9-0", "9+")
                out.append(f"    {lead}: " + ", ".join(_cell(v) for v in r["values"]))
            out += ["  }", "}"]
        case "grid":
            g = c["grid"]
            out.append(f"  grid {g['key']} [{', '.join(g['columns'])}] {{")
            out += [f"    {_q(r['label'])}: " + " | ".join(r["cells"]) for r in g["rows"]]
            out += ["  }", "}"]
        case "availability":
            g = c["grid"]
            out.append(f"  availability {g['key']} by month [{', '.join(g['columns'])}] {{")
            out += [f"    {r['label']}: " + " | ".join(r["cells"]) for r in g["rows"]]
            out += ["  }", "}"]
        case _:
            raise ValueError(c["form"])
    if c["form"] == "derived":
        d = c["derived"]
        out += [f"chart {d['slug']} {_q(d['title'])} {{", f"  rule {_q(c['rule'])}",
                f"  derive from {c['slug']} bands +{d['bands']}", "}"]
        dl = c["drms_list"]
        out += [f"drms [{dl['id']}] {dl['slug']} {_q(dl['title'])} {{", "  rule \"6.1\"",
                "  drm december \"December\" +2 when month == 1944-12", "}"]
    return out


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _cell(value: object) -> str:
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if (text[:1].isdigit() and "/" in text) or text.startswith(("-/", "[")):
        return text
    return _q(text)


def write_synthetic(folder: Path, rows: int) -> dict[str, Path]:
    """Write the synthetic game as charts (`charts/synth/`), YAML and JSON; return their paths."""
    import yaml

    game = synthetic_game(rows)
    charts = folder / "charts" / "synth"
    charts.mkdir(parents=True, exist_ok=True)
    (charts / "synth.chart").write_text(chart_language(game), encoding="utf-8")
    data_yaml = folder / "synth.yaml"
    data_yaml.write_text(yaml.dump(game, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False),
                         encoding="utf-8")
    data_json = folder / "synth.json"
    data_json.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    return {"charts": folder / "charts", "yaml": data_yaml, "json": data_json}


def copy_corpus(dest: Path, times: int) -> Path:
    """The real corpus `times` over (each game copied as `<game>_<k>`), in `dest/charts`."""
    out = dest / "charts"
    for k in range(times):
        for game in sorted(p for p in CHARTS.iterdir() if p.is_dir()):
            name = game.name if times == 1 else f"{game.name}_{k}"
            target = out / name
            shutil.copytree(game, target)
            if name != game.name:
                for f in target.glob("*.chart"):
                    text = f.read_text(encoding="utf-8")
                    if f"game {game.name} {{" in text:
                        f.write_text(text.replace(f"game {game.name} {{", f"game {name} {{", 1), encoding="utf-8")
    return out


# --------------------------------------------------------------------------------------------------
# Measuring


@dataclass(frozen=True)
class Row:
    """One line of the table: what is compared, the target ratio and the measured figures."""

    name: str
    what: str
    target: float
    a_seconds: float
    b_seconds: float
    ratio: float
    unit: str = "x"
    refused: str = ""
    """Why command A gave no answer (`odds` of dice chartc refuses): the row is printed, not met."""

    @property
    def meets(self) -> bool:
        return not self.refused and self.ratio <= self.target


# The children's environment: this one without PYTHONDONTWRITEBYTECODE (an installed chartc has
# its modules compiled; with that variable set and no bytecode yet, every child would compile
# every module from source, which no user waits for: the unmeasured warm-up pair of each row
# writes it), and with `--code DIR` importing chartc from that checkout (e.g. the code before a
# change) instead of from wherever this Python finds it.
_CHILD_ENV: dict[str, str] = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def child_cpu(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of running `cmd` to completion as a child process (with `env`,
    else the children's environment)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env or _CHILD_ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[-800:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(a: Callable[[], float], b: Callable[[], float], runs: int) -> tuple[float, float, float]:
    """Run A and B interleaved `runs` times (after one unmeasured warm-up pair); return the median
    of A, the median of B and the median of the paired ratios A/B."""
    a(), b()
    times_a: list[float] = []
    times_b: list[float] = []
    for _ in range(runs):
        times_a.append(a())
        times_b.append(b())
    ratios = [x / y for x, y in zip(times_a, times_b, strict=True)]
    return statistics.median(times_a), statistics.median(times_b), statistics.median(ratios)


@dataclass(frozen=True)
class Setup:
    """Inputs shared by the rows: a temporary folder, the synthetic corpus, the run count."""

    tmp: Path
    synth: dict[str, Path]
    runs: int
    quick: bool
    code: Path
    baseline: Path | None = None
    rows: int = 10000


def row_lookup(s: Setup) -> Iterator[Row]:
    cmd = [*CHARTC, "lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--charts", str(CHARTS)]
    # a cache folder of its own, filled by the warm-up pair: the user's holds at most 64 saved
    # games, which other processes (a test run) can replace between two measured runs
    env = {**_CHILD_ENV, "XDG_CACHE_HOME": str(s.tmp / "lookup-cache")}
    a, b, r = paired(lambda: child_cpu(cmd, s.tmp, env), lambda: child_cpu([PYTHON, "-c", "pass"], s.tmp), s.runs)
    yield Row("lookup", "`chartc lookup ia2/R4 3 ...` vs `python -c pass`, editable install", 3, a, b, r)
    if s.baseline is not None:  # the same lookup by another checkout's code, paired (a before/after)
        other = {**env, "PYTHONPATH": str(s.baseline)}
        a, b, r = paired(lambda: child_cpu(cmd, s.tmp, env), lambda: child_cpu(cmd, s.tmp, other), s.runs)
        yield Row("lookup-baseline", f"same vs the lookup of `{s.baseline.name}`", float("inf"), a, b, r)


def row_help(s: Setup) -> Iterator[Row]:
    cmd = [*CHARTC, "--help"]
    a, b, r = paired(lambda: child_cpu(cmd, s.tmp), lambda: child_cpu([PYTHON, "-c", "pass"], s.tmp), s.runs)
    yield Row("help", "`chartc --help` vs `python -c pass`, editable install", 2.1, a, b, r)
    if s.baseline is not None:
        other = {**_CHILD_ENV, "PYTHONPATH": str(s.baseline)}
        a, b, r = paired(lambda: child_cpu(cmd, s.tmp), lambda: child_cpu(cmd, s.tmp, other), s.runs)
        yield Row("help-baseline", f"same vs the `--help` of `{s.baseline.name}`", float("inf"), a, b, r)


# A click program as small as one can be with chartc's command names: what `--help` costs with
# click itself, the floor of the `help` row.
_CLICK_ONLY = (
    "import click\n"
    "@click.group()\n"
    "def cli():\n"
    "    'A group of commands.'\n"
    "for name in ('analyze build check compute diff explain export fmt import list lookup lsp odds vectors').split():\n"
    "    cli.command(name, help=f'The {name} command.')(lambda: None)\n"
    "cli(['--help'], prog_name='chartc')\n"
)


def row_click(s: Setup) -> Iterator[Row]:
    def base() -> float:
        return child_cpu([PYTHON, "-c", "pass"], s.tmp)

    a, b, r = paired(lambda: child_cpu([PYTHON, "-c", "import click"], s.tmp), base, s.runs)
    yield Row("click-import", "`python -c 'import click'` vs `python -c pass`", 2, a, b, r)
    a, b, r = paired(lambda: child_cpu([PYTHON, "-c", _CLICK_ONLY], s.tmp), base, s.runs)
    yield Row("click-help", "`--help` of a click group of 14 empty commands vs `python -c pass`", 2, a, b, r)


def row_check(s: Setup) -> Iterator[Row]:
    """`chartc check` of the synthetic game against two parsers of the same data, with a cache
    folder of its own: the first runs save the syntax tree (compiler/build/parse_cache.py: the
    second parse of a text saves it), as a check of unchanged files finds it; the `first` row
    deletes the tree and its mark before each check (a first check, or one after the file changed)."""
    check = [*CHARTC, "check", str(s.synth["charts"])]
    cache = s.tmp / "check-cache"
    env = {**_CHILD_ENV, "XDG_CACHE_HOME": str(cache)}

    def first_check() -> float:
        for tree in (cache / "chartc").glob("tree-*"):
            tree.unlink()
        return child_cpu(check, s.tmp, env)

    load_yaml = [PYTHON, "-c", "import sys, yaml; yaml.load(open(sys.argv[1], encoding='utf-8'), "
                 "Loader=yaml.CSafeLoader)", str(s.synth["yaml"])]
    load_json = [PYTHON, "-c", "import sys, json; json.load(open(sys.argv[1], encoding='utf-8'))",
                 str(s.synth["json"])]
    rows = s.synth["rows"].name
    a, b, r = paired(lambda: child_cpu(check, s.tmp, env), lambda: child_cpu(load_yaml, s.tmp), s.runs)
    yield Row("check-yaml", f"`chartc check` on {rows} synthetic rows vs PyYAML's C loader", 2, a, b, r)
    a, b, r = paired(lambda: child_cpu(check, s.tmp, env), lambda: child_cpu(load_json, s.tmp), s.runs)
    yield Row("check-json", "same vs `json.load` of the same data", 15, a, b, r)
    a, b, r = paired(first_check, lambda: child_cpu(load_json, s.tmp), s.runs)
    yield Row("check-json-first", "same, the file's syntax tree not saved yet (a first check), vs `json.load`", 15,
              a, b, r)
    if s.baseline is not None:  # the same check by another checkout's code (no target: a before/after)
        other = {**env, "PYTHONPATH": str(s.baseline)}
        a, b, r = paired(lambda: child_cpu(check, s.tmp, env), lambda: child_cpu(check, s.tmp, other), s.runs)
        yield Row("check-baseline", f"same vs the check of `{s.baseline.name}`", float("inf"), a, b, r)
        corpus = [*CHARTC, "check", str(CHARTS)]
        a, b, r = paired(lambda: child_cpu(corpus, s.tmp, env), lambda: child_cpu(corpus, s.tmp, other), s.runs)
        yield Row("check-corpus-baseline", f"`chartc check charts` vs the same by `{s.baseline.name}`",
                  float("inf"), a, b, r)


def row_build_check(s: Setup) -> Iterator[Row]:
    work = s.tmp / "build-check"
    charts = copy_corpus(work, 1)
    out = work / "generated"
    build = [*CHARTC, "build", str(charts), "--out", str(out)]
    subprocess.run(build, cwd=work, check=True, stdout=subprocess.DEVNULL, env=_CHILD_ENV)
    check = [*build, "--check"]
    a, b, r = paired(lambda: child_cpu(check, work), lambda: child_cpu(build, work), s.runs)
    yield Row("build-check", "`build --check` on the unchanged corpus vs a full `build`", 0.5, a, b, r)


# `chartc` with the game JSON's schema validation patched out: the baseline of the `validate` rows
_UNVALIDATED = [PYTHON, "-c", "import sys; from compiler.build import validate; "
                "validate.validate_outputs = lambda outputs, validated=frozenset(): None; "
                "from compiler.cli import main; sys.argv[0] = 'chartc'; main()"]


def row_validate(s: Setup) -> Iterator[Row]:
    """What validating the game JSON against its schema adds to a `build` of the corpus: when every
    JSON is read (no memo: a first build, or every game's JSON changed) and when every JSON was
    found valid before (the memo holds its bytes). The baseline is the same build with validation
    patched out; both write into a folder already holding the outputs, with a cache of their own."""
    work = s.tmp / "validate"
    charts = copy_corpus(work, 1)
    out = work / "generated"
    env = {**_CHILD_ENV, "XDG_CACHE_HOME": str(work / "cache")}
    build = [*CHARTC, "build", str(charts), "--out", str(out)]
    unvalidated = [*_UNVALIDATED, "build", str(charts), "--out", str(out)]
    memo = work / "cache" / "chartc" / "valid-json.json"

    def every_json_read() -> float:
        memo.unlink(missing_ok=True)
        return child_cpu(build, work, env)

    def baseline() -> float:
        return child_cpu(unvalidated, work, env)

    a, b, r = paired(every_json_read, baseline, s.runs)
    yield Row("validate", "`build` of the corpus, every JSON validated, vs the same build unvalidated", 1.1, a, b, r)
    a, b, r = paired(lambda: child_cpu(build, work, env), baseline, s.runs)
    yield Row("validate-memo", "`build` of the corpus, every JSON found valid before, vs the same build unvalidated",
              1.1, a, b, r)


def row_generated_lookup(s: Setup) -> Iterator[Row]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_ia2", s.code / "generated" / "ia2" / "ia2.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # the baseline: a function called the same way that reads the row from a dict by its arguments
    r4 = _plain({(3, "piston"): {"result": "Combat"}})
    r7 = _plain({(50, "late_1944"): {"pilot": "Trained"}})
    r9 = _plain({(12,): {"result": "Hit", "points": 1}})
    cases: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
        "r4": (lambda: module.lookup_r4(3, interceptor="piston"), lambda: r4(3, interceptor="piston")),
        "r7": (lambda: module.lookup_r7(50, period="late_1944"), lambda: r7(50, period="late_1944")),
        "r9": (lambda: module.lookup_r9(12), lambda: r9(12)),
    }
    number = 2000 if s.quick else 20000
    for name, (call, plain) in cases.items():
        ratios, a_list, b_list = [], [], []
        for _ in range(s.runs):
            ta = min(timeit.repeat(call, number=number, repeat=3)) / number
            tb = min(timeit.repeat(plain, number=number, repeat=3)) / number
            ratios.append(ta / tb)
            a_list.append(ta)
            b_list.append(tb)
        yield Row(f"lookup-{name}", f"generated `lookup_{name}` vs a dict lookup in a function called alike", 1.5,
                  statistics.median(a_list), statistics.median(b_list), statistics.median(ratios))


def _plain(table: dict[tuple[object, ...], dict[str, object]]) -> Callable[..., dict[str, object]]:
    def lookup(roll: int, **keys: str) -> dict[str, object]:
        return table[(roll, *keys.values())]

    return lookup


def row_pdf(s: Setup) -> Iterator[Row]:
    """`build --pdf` of the corpus with nothing changed (every PDF read back, compiler/build/pdfs.py)
    and with every PDF laid out (its record deleted before each run), each against `build`; all
    write into folders already holding their outputs, with a cache folder of their own."""
    work = s.tmp / "pdf"
    charts = copy_corpus(work, 1)
    env = {**_CHILD_ENV, "XDG_CACHE_HOME": str(work / "cache")}
    build = [*CHARTC, "build", str(charts), "--out", str(work / "generated")]
    pdf = [*CHARTC, "build", str(charts), "--out", str(work / "generated-pdf"), "--pdf"]

    def unchanged() -> float:
        return child_cpu(pdf, work, env)

    def every_pdf() -> float:
        for record in (work / "cache" / "chartc").glob("pdf-*.json"):
            record.unlink()
        return child_cpu(pdf, work, env)

    a, b, r = paired(unchanged, lambda: child_cpu(build, work, env), s.runs)
    yield Row("pdf-unchanged", "`build --pdf` with nothing changed vs `build`", 1.2, a, b, r)
    a, b, r = paired(every_pdf, lambda: child_cpu(build, work, env), max(1, s.runs // 2))
    yield Row("pdf-full", "`build --pdf`, every PDF laid out, vs `build`", 8, a, b, r)


# --------------------------------------------------------------------------------------------------
# Issue 35's table: `lookup` and `--help` on a regular (non-editable) install as well as this
# checkout's, a lookup after a chart edit, odds against icepool, the JSON of 10,000 keyed rows.

_INSTALLS: dict[Path, Path] = {}
_NOT_COPIED = (".git", ".venv", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules")


def _not_copied(folder: str, names: list[str], root: Path) -> set[str]:
    """What copying a checkout leaves out: caches, environments, and at its top the build folder."""
    left = {n for n in names if n in _NOT_COPIED or n.endswith(".egg-info")}
    return left | ({"build"} & set(names) if Path(folder) == root else set())


def regular_install(s: Setup) -> Path:
    """A virtual environment in the temporary folder with chartc installed by `pip install DIR`
    (DIR a copy of the checkout measured, so no build folder is left in it): files copied into
    site-packages and compiled to bytecode, as a user's install is. Made once per run."""
    if s.tmp not in _INSTALLS:
        source = s.tmp / "install-source"
        shutil.copytree(s.code, source, ignore=lambda folder, names: _not_copied(folder, names, s.code),
                        symlinks=True)
        venv = s.tmp / "venv-regular"
        subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        str(source)], check=True, stdout=subprocess.DEVNULL)
        _INSTALLS[s.tmp] = venv
    return _INSTALLS[s.tmp]


def _installs(s: Setup) -> Iterator[tuple[str, list[str], list[str], dict[str, str]]]:
    """(how chartc is installed, the chartc command, its Python's `-c pass`, the environment) for
    this checkout (an editable install, or `--code`'s folder) and a regular install of it."""
    yield "editable", CHARTC, [PYTHON, "-c", "pass"], _CHILD_ENV
    venv = regular_install(s)
    env = {k: v for k, v in _CHILD_ENV.items() if k != "PYTHONPATH"}
    yield "regular", [str(venv / "bin" / "chartc")], [str(venv / "bin" / "python"), "-c", "pass"], env


def row_startup(s: Setup) -> Iterator[Row]:
    """The first lookup after a chart edit (a comment added to one of IA2's files before each run:
    the game compiled again and saved) for each install; and for the regular install, `chartc
    lookup` answered from the compiled-game cache and `chartc --help` (the `lookup` and `help` rows
    measure them on the editable install), each against its own Python's `python -c pass`."""
    work = s.tmp / "startup"
    charts = copy_corpus(work, 1)
    edited = charts / "ia2" / "combat.chart"
    original = edited.read_text(encoding="utf-8")
    args = ["lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--charts", str(charts)]
    for kind, chartc, bare, base_env in _installs(s):
        env = {**base_env, "XDG_CACHE_HOME": str(work / f"cache-{kind}")}
        edits = iter(range(1 << 30))

        def after_edit(chartc: list[str] = chartc, env: dict[str, str] = env, edits: Iterator[int] = edits) -> float:
            edited.write_text(f"{original}\n# bench edit {next(edits)}\n", encoding="utf-8")
            return child_cpu([*chartc, *args], work, env)

        def base(bare: list[str] = bare, env: dict[str, str] = env) -> float:
            return child_cpu(bare, work, env)

        a, b, r = paired(after_edit, base, s.runs)
        yield Row(f"lookup-edit-{kind}", f"`chartc lookup ia2/R4 3 ...`, first run after a chart edit, vs "
                  f"`python -c pass`, {kind} install", 8, a, b, r)
        edited.write_text(original, encoding="utf-8")
        if kind == "editable":
            continue
        a, b, r = paired(lambda chartc=chartc, env=env: child_cpu([*chartc, *args], work, env), base, s.runs)
        yield Row(f"lookup-{kind}", f"`chartc lookup ia2/R4 3 ...` vs `python -c pass`, {kind} install", 3, a, b, r)
        a, b, r = paired(lambda chartc=chartc, env=env: child_cpu([*chartc, "--help"], work, env), base, s.runs)
        yield Row(f"help-{kind}", f"`chartc --help` vs `python -c pass`, {kind} install", 2.1, a, b, r)


_KEEP_CHART = ('game keep {{ title "Keep" }}\n'
               'chart [K] "highest 3 of {n}d10" {{ roll highest 3 of {n}d10 column r: text rows {{ 10-: "low" '
               '11-20: "middle" 21+: "high" }} }}\n')
_ICEPOOL_FIRST = "import icepool; icepool.d10.highest({n}, 3)"
_CHARTC_FIRST = ("from compiler.model.dice import Dice, DiceForm; "
                 "Dice(form=DiceForm.HIGHEST, count={n}, sides=10, keep=3).outcomes")


def _icepool_forgets() -> None:
    """Drop what icepool's evaluators keep between calls (`_cache`), so each call computes afresh
    as chartc's does (a repeated call otherwise costs icepool a dict lookup)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("icepool"):
            for value in list(vars(module).values()):  # icepool's own objects, not the modules it imports
                if type(value).__module__.startswith("icepool") and "_cache" in getattr(value, "__dict__", {}):
                    del value._cache


def row_odds(s: Setup) -> Iterator[Row]:
    """The exact chances of the highest 3 of 5d10 and of 10d10: chartc's (`Dice.outcomes`, a new
    `Dice` each call, so nothing is kept between calls) against icepool's (`d10.highest(n, 3)`,
    its evaluators' caches emptied before each call), in this process, the best of 5 calls; 10d10
    is refused when chartc's checks refuse the chart (C405). Then the first call in a fresh
    interpreter, imports included, paired children."""
    import icepool

    from compiler.build.project import load
    from compiler.model.dice import Dice, DiceForm

    for n in (5, 10):
        folder = s.tmp / f"odds-{n}d10" / "keep"
        folder.mkdir(parents=True)
        (folder / "keep.chart").write_text(_KEEP_CHART.format(n=n), encoding="utf-8")
        found = [d.code for d in load([folder.parent]).diagnostics]
        what = f"odds, {n}d10 keep highest 3 vs icepool"
        if found:
            theirs = min(timeit.repeat(lambda n=n: icepool.d10.highest(n, 3), _icepool_forgets, number=1, repeat=5))
            yield Row(f"odds-{n}d10", what, 1, 0.0, theirs, float("inf"), refused=f"refused ({', '.join(found)})")
            continue

        def ours(n: int = n) -> object:
            return Dice(form=DiceForm.HIGHEST, count=n, sides=10, keep=3).outcomes

        expected = {k: v for k, v in zip(icepool.d10.highest(n, 3).outcomes(),
                                          icepool.d10.highest(n, 3).probabilities(), strict=True)}
        assert ours() == expected, f"chartc and icepool disagree on the highest 3 of {n}d10"
        ratios, a_list, b_list = [], [], []
        for _ in range(s.runs):
            ta = min(timeit.repeat(ours, number=1, repeat=5))
            tb = min(timeit.repeat(lambda n=n: icepool.d10.highest(n, 3), _icepool_forgets, number=1, repeat=5))
            ratios.append(ta / tb)
            a_list.append(ta)
            b_list.append(tb)
        yield Row(f"odds-{n}d10", what, 1, statistics.median(a_list), statistics.median(b_list),
                  statistics.median(ratios))
    ours_first = [PYTHON, "-c", _CHARTC_FIRST.format(n=5)]
    theirs_first = [PYTHON, "-c", _ICEPOOL_FIRST.format(n=5)]
    a, b, r = paired(lambda: child_cpu(ours_first, s.tmp), lambda: child_cpu(theirs_first, s.tmp), s.runs)
    yield Row("odds-first", "odds, first call in a process (5d10 keep highest 3, imports included) vs icepool",
              1, a, b, r)


def row_json(s: Setup) -> Iterator[Row]:
    """The JSON `build` writes for the synthetic game of `--rows` rows (keyed charts, DRMs, grids),
    and the peak resident set of that build."""
    work = s.tmp / "json"
    charts = write_synthetic(work / "synth", s.rows)["charts"]
    out = work / "generated"
    cmd = [PYTHON, "-c", "import resource, subprocess, sys; "
           "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
           *CHARTC, "build", str(charts), "--out", str(out), "--jobs", "1"]
    done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, check=True, env=_CHILD_ENV)
    size_mb = (out / "synth" / "synth.json").stat().st_size / 1e6
    yield Row("json-size", f"JSON of the {s.rows:,}-row keyed synthetic game (MB)", 10, size_mb, 0.0, size_mb, " MB")
    peak_mb = int(done.stdout.strip()) / 1024
    yield Row("json-memory", f"peak memory, `build` of the {s.rows:,}-row keyed synthetic game (MB)", 300,
              peak_mb, 0.0, peak_mb, " MB")


# --------------------------------------------------------------------------------------------------
# The speed tricks (issue 29): each one against the same command with that trick switched off in
# the child (statements run before chartc's `main`), paired as every row. The figure is the CPU
# with the trick over the CPU without it; a trick that saves under 5 % of the command it serves goes.

# name -> (the command it serves, the statements that switch it off)
TRICKS: dict[str, tuple[str, str]] = {
    # dsl/lazy_dataclass.py: every class decorated by the standard decorator at import
    "lazy-dataclass": ("lookup", "import dataclasses, dsl.lazy_dataclass as d\nd.dataclass = dataclasses.dataclass"),
    # compiler/engine/runtime/: every part imported, not only those the question calls
    "runtime-parts": ("lookup", "import importlib, compiler.engine.runtime as r\n"
                                "for part in (*r.PARTS[1:], r.CHAINS):\n"
                                "    importlib.import_module(f'compiler.engine.runtime.{part}')"),
    # compiler/build/cache.py: the game compiled by every lookup, and saved nowhere
    "game-cache": ("lookup", "import compiler.build.cache as c\nc.fetch = lambda *args: None\n"
                             "c.store = lambda *args: None"),
    # dsl/parser_cache.py: the LALR parser built by every process
    "parser-cache": ("check", "import lark, dsl.parser_cache as p\n"
                              "p.cached_parser = lambda grammar, options, cache_dir: lark.Lark(grammar, **options)"),
    # compiler/build/parse_cache.py: every chart file parsed by every check
    "parse-cache": ("check", "import compiler.build.parse_cache as p\np.fetch = lambda *args: None\n"
                             "p.store = lambda *args: None"),
    # compiler/cli/__init__.py `_skip_last_collection`: the interpreter's last collection walks all
    "exit-freeze": ("lookup", "import compiler.cli as c\nc._skip_last_collection = lambda: None"),
    "exit-freeze-check": ("check", "import compiler.cli as c\nc._skip_last_collection = lambda: None"),
    # compiler/build/validate.py `validated_before`: every game JSON validated by every build
    "validation-memo": ("build", "import compiler.build.validate as v\n"
                                 "v.validated_before = lambda cache_dir: frozenset()"),
}


def _switched_off(statements: str) -> list[str]:
    """`chartc` with `statements` run first, in the child."""
    return [PYTHON, "-c", f"import sys\n{statements}\nfrom compiler.cli import main\nsys.argv[0] = 'chartc'\nmain()"]


def row_tricks(s: Setup) -> Iterator[Row]:
    """Each speed trick of TRICKS on the command it serves: `lookup ia2/R4 3` answered from the
    compiled-game cache (a cache folder of its own, filled by the warm-up pair), `check` of the
    corpus, `build` of the corpus into a folder already holding its outputs."""
    work = s.tmp / "tricks"
    charts = copy_corpus(work, 1)
    env = {**_CHILD_ENV, "XDG_CACHE_HOME": str(work / "cache")}
    args = {
        "lookup": ["lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--charts", str(charts)],
        "check": ["check", str(charts)],
        "build": ["build", str(charts), "--out", str(work / "generated")],
    }
    subprocess.run([*CHARTC, *args["build"]], cwd=work, check=True, stdout=subprocess.DEVNULL, env=env)
    for name, (command, statements) in TRICKS.items():
        with_it = [*CHARTC, *args[command]]
        without = [*_switched_off(statements), *args[command]]
        a, b, r = paired(functools.partial(child_cpu, with_it, work, env),
                         functools.partial(child_cpu, without, work, env), s.runs)
        yield Row(f"trick-{name}", f"`chartc {command}` with {name} vs without", 0.95, a, b, r)
    yield from _index_rows(s)


# The lookup of a generated module before its rows were indexed: the row scan of every call.
_INDEXED = re.compile(
    r"(?P<indent> +)low, by_roll, below, above = (?P<chart>_\w+)_INDEX\.tables\.get\(.*?\) or _UNINDEXED\n"
    r" +at = modified - low\n"
    r" +row = below if at < 0 else above if at >= len\(by_roll\) else by_roll\[at\]\n"
    r" +if row is None:.*\n"
    r" +row = (?P=chart)_INDEX\.select\((?P<args>.*), modified\)\n"
)


def _row_scan(match: re.Match[str]) -> str:
    address, keys = match["args"].split(", ", 1)
    return f"{match['indent']}row = _select({address}, {match['chart']}_ROWS, {keys}, modified)\n"


def _index_rows(s: Setup) -> Iterator[Row]:
    """The runtime's `_Index` (`compiler/engine/runtime/rows.py`): the generated IA2 module's
    lookups as built, and the same module with each lookup's index read replaced by the row scan."""
    import importlib.util

    source = (s.code / "generated" / "ia2" / "ia2.py").read_text(encoding="utf-8")
    scanned = _INDEXED.sub(_row_scan, source)
    assert scanned != source, "no indexed lookup found in generated/ia2/ia2.py"
    modules = []
    for name, text in (("bench_indexed", source), ("bench_scanned", scanned)):
        path = s.tmp / f"{name}.py"
        path.write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up while being created
        spec.loader.exec_module(module)
        modules.append(module)
    indexed, scanned_module = modules
    calls = {
        "r4": lambda m: m.lookup_r4(3, interceptor="piston"),
        "r7": lambda m: m.lookup_r7(50, period="late_1944"),
        "r9": lambda m: m.lookup_r9(12),
    }
    number = 2000 if s.quick else 20000
    for name, call in calls.items():
        assert call(indexed) == call(scanned_module)
        ratios, a_list, b_list = [], [], []
        for _ in range(s.runs):
            ta = min(timeit.repeat(functools.partial(call, indexed), number=number, repeat=3)) / number
            tb = min(timeit.repeat(functools.partial(call, scanned_module), number=number, repeat=3)) / number
            ratios.append(ta / tb)
            a_list.append(ta)
            b_list.append(tb)
        yield Row(f"trick-index-{name}", f"generated `lookup_{name}` with `_Index` vs the row scan", 0.95,
                  statistics.median(a_list), statistics.median(b_list), statistics.median(ratios))


def row_memory(s: Setup) -> Iterator[Row]:
    """Peak memory of a build of 100x the corpus (16x with --quick): by default (worker processes:
    the largest of the parent and its workers), and in one process (`--jobs 1`)."""
    times = 16 if s.quick else 100
    work = s.tmp / f"memory-{times}"
    charts = copy_corpus(work, times)
    for jobs, name, how in ((None, "memory", ""), (1, "memory-one-process", ", `--jobs 1`")):
        shutil.rmtree(work / "generated", ignore_errors=True)
        cmd = [PYTHON, "-c", "import resource, subprocess, sys; "
               "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
               *CHARTC, "build", str(charts), "--out", str(work / "generated"),
               *(["--jobs", str(jobs)] if jobs else [])]
        done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, check=True, env=_CHILD_ENV)
        peak_mb = int(done.stdout.strip()) / 1024
        yield Row(name, f"peak memory, `build` of {times}x the corpus{how} (MB; target at 100x)", 150, peak_mb, 0.0,
                  peak_mb, " MB")


def child_wall(cmd: list[str], cwd: Path) -> float:
    """Wall-clock seconds of running `cmd` to completion as a child process (what a parallel build
    saves: its CPU time is no lower than a one-process build's)."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_CHILD_ENV)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[-800:]}")
    return elapsed


def row_speedbuild(s: Setup) -> Iterator[Row]:
    """A full `build` (every output written into an empty folder) in one process per CPU vs in
    one process, at 1x, 10x and 100x the corpus (1x and 10x with --quick), by wall time; the load
    average of the machine during the row is part of the row's text."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    for times in (1, 10) if s.quick else (1, 10, 100):
        work = s.tmp / f"speedbuild-{times}"
        charts = copy_corpus(work, times)

        def build(jobs: int, charts: Path = charts, work: Path = work) -> float:
            out = work / f"generated-{jobs}"
            shutil.rmtree(out, ignore_errors=True)
            return child_wall([*CHARTC, "build", str(charts), "--out", str(out), "--jobs", str(jobs)], work)

        runs = max(1, s.runs // {1: 1, 10: 2, 100: 3}[times])
        load = [os.getloadavg()[0]]
        a, b, r = paired(lambda: build(cpus), lambda: build(1), runs)
        load.append(os.getloadavg()[0])
        yield Row(f"speedbuild-{times}x", f"`build --jobs {cpus}` vs `--jobs 1` of {times}x the corpus "
                  f"(wall time, {runs} pairs, load {min(load):.1f}-{max(load):.1f})", 1.0, a, b, r)


# Where one `chartc check` of the synthetic corpus spends its CPU, stage by stage, in one child
# process (`--stages`). The parse is first run twice without callbacks: Lark's lexer and LALR
# loop, the floor of any build done during the parse (the first run also compiles the lexers'
# patterns, which a check pays once).
_STAGES = """
import gc, json, sys, time
gc.disable()  # as compiler.build.project.load does
clock, marks = time.process_time, []
def mark(what, since):
    marks.append((what, clock() - since))
t = clock()
from dsl import parser
getattr(parser, "_building_parser", parser._parser)()  # before the one-pass parse: the parser only
mark("import the parser and Lark, load the saved parser", t)
text = open(sys.argv[1], encoding="utf-8").read()
def walk():
    walking = parser._parser().parse_interactive(text)
    walking.parser_state.parse_conf.callbacks = {}
    walking.resume_parse()
t = clock()
walk()
mark("Lark's lexer and LALR loop alone, first time (its lexers compile their patterns)", t)
t = clock()
walk()
mark("Lark's lexer and LALR loop alone, again", t)
t = clock()
source = parser._parse_text(text, "synth.chart").source
mark("the parse, the syntax tree built", t)
t = clock()
from compiler.checks import check_game
from compiler.diagnostics import Sink
from compiler.checks.examples import check_examples
from compiler.resolve import resolve_game
mark("import the resolver and the checks", t)
t = clock()
sink = Sink()
game = resolve_game("synth", [source], sink, None, complete=True)
mark("resolve", t)
t = clock()
check_game(game, sink)
check_examples(game, sink)
mark("checks", t)
# What dsl/callbacks.py saves: the same syntax tree built the standard way, from Lark's parse tree
# (walked for nesting too deep) by a Transformer calling the same builder methods.
from lark import Transformer, v_args
from dsl.builder import Builder
builder = Builder("synth.chart", text)
terminals = ("NAME", "STRING", "CHART_ID", "INT", "RANGE", "DRM_VALUE", "SLASHED", "DICE")
def terminal(name):
    return lambda self, tok: getattr(builder, name)(tok)
def rule(name):
    def call(self, meta, *children):
        extent = None if meta.empty else (meta.line, meta.column, meta.end_line, meta.end_column)
        return getattr(builder, name)(extent, *children)
    return call
rules = [n for n in dir(Builder) if not n.startswith("_") and n not in terminals and callable(getattr(Builder, n))]
Tokens = type("Tokens", (Transformer,), {n: terminal(n) for n in terminals})
Walk = v_args(inline=True, meta=True)(type("Walk", (Tokens,), {n: rule(n) for n in rules}))
t = clock()
tree = parser._parser().parse(text)
assert parser._too_deep(tree, "synth.chart") is None
assert Walk().transform(tree) == source
mark("the same parse without dsl/callbacks.py: Lark's parse tree, then a Transformer", t)
print(json.dumps(marks))
"""


def stages(s: Setup) -> list[str]:
    """The stages of one check of the synthetic corpus, as Markdown (CPU seconds, one child)."""
    chart = s.synth["charts"] / "synth" / "synth.chart"
    env = {**_CHILD_ENV, "PYTHONPATH": str(s.code)}
    done = subprocess.run([PYTHON, "-c", _STAGES, str(chart)], cwd=s.tmp, capture_output=True, text=True,
                          check=True, env=env)
    lines = [f"Stages of one check of {s.synth['rows'].name} synthetic rows (CPU of one child process):", "",
             "| stage | CPU |", "|---|---:|"]
    return lines + [f"| {what} | {_seconds(cpu)} |" for what, cpu in json.loads(done.stdout)]


ROWS: dict[str, Callable[[Setup], Iterator[Row]]] = {
    "lookup": row_lookup,
    "help": row_help,
    "startup": row_startup,
    "odds": row_odds,
    "json": row_json,
    "click": row_click,
    "check": row_check,
    "build-check": row_build_check,
    "validate": row_validate,
    "generated-lookup": row_generated_lookup,
    "pdf": row_pdf,
    "memory": row_memory,
    "speedbuild": row_speedbuild,
    "tricks": row_tricks,
}


def recorded_table() -> str:
    """The table of the recorded run (`RECORD`), as docs/records/speed.md holds it."""
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    rows = [Row(**{**row, "target": float(row["target"]), "ratio": float(row["ratio"])}) for row in doc["rows"]]
    return "\n".join(render(rows, doc["runs"], doc["machine"]))


def write_record(rows: list[Row], runs: int) -> None:
    """Record `rows` (replacing rows of the same name, keeping the others) and put the table into
    docs/records/speed.md between its markers."""
    old = json.loads(RECORD.read_text(encoding="utf-8"))["rows"] if RECORD.exists() else []
    new = {row.name: {k: v for k, v in vars(row).items()} for row in rows}
    kept = [row for row in old if row["name"] not in new] + list(new.values())
    order = {name: i for i, name in enumerate(ISSUE_35)}
    kept.sort(key=lambda row: order.get(row["name"], len(order)))
    for row in kept:  # JSON has no infinity: a ratio without a target or answer is a string
        row["target"], row["ratio"] = (str(row[k]) if row[k] == float("inf") else row[k] for k in ("target", "ratio"))
    doc = {"machine": machine(), "runs": runs, "rows": kept}
    RECORD.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    held = PAGE.read_text(encoding="utf-8")
    start, stop = held.find(BEGIN), held.find(END)
    assert 0 <= start < stop, f"{PAGE} has no markers {BEGIN} ... {END}"
    PAGE.write_text(f"{held[:start]}{BEGIN}\n{recorded_table()}\n{held[stop:]}", encoding="utf-8")


def machine() -> str:
    """The machine the figures come from."""
    return (f"{os.cpu_count()} CPUs ({platform.machine()}), Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.system()} {platform.release()}")


def render(rows: list[Row], runs: int, measured_on: str | None = None) -> list[str]:
    """The table as Markdown, with the machine (this one unless `measured_on`) and the run count."""
    walls = any(row.name.startswith("speedbuild") for row in rows)
    lines = [f"Machine: {measured_on or machine()}; medians of {runs} paired runs (CPU time of the child processes"
             + ("; the `speedbuild` rows: wall time, fewer pairs for larger inputs)." if walls else ")."), "",
             "| what | A | B | A / B | target | meets |", "|---|---:|---:|---:|---:|---|"]
    for row in rows:
        if row.target == float("inf"):  # a comparison without a target (`--baseline`)
            figures = f"{_seconds(row.a_seconds)} | {_seconds(row.b_seconds)} | {row.ratio:.2f}x | -"
            lines.append(f"| {row.what} | {figures} | - |")
            continue
        if row.refused:
            figures = f"{row.refused} | {_seconds(row.b_seconds)} | - | ≤ {row.target:g}x"
        elif row.unit == "x":
            figures = f"{_seconds(row.a_seconds)} | {_seconds(row.b_seconds)} | {row.ratio:.2f}x | ≤ {row.target:g}x"
        else:
            amount = f"{row.a_seconds:.0f}" if row.a_seconds >= 10 else f"{row.a_seconds:.1f}"
            figures = f"{amount}{row.unit} | | | ≤ {row.target:g}{row.unit}"
        lines.append(f"| {row.what} | {figures} | {'yes' if row.meets else 'no'} |")
    return lines


def _seconds(value: float) -> str:
    if value >= 0.1:
        return f"{value:.2f} s"
    if value >= 1e-4:
        return f"{value * 1e3:.1f} ms"
    return f"{value * 1e6:.2f} µs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="3 paired runs, 2,000 synthetic rows, 16x memory")
    parser.add_argument("--only", action="append", default=[], help="run only rows whose name contains this")
    parser.add_argument("--runs", type=int, default=None, help="paired runs per row (default 7, 3 with --quick)")
    parser.add_argument("--rows", type=int, default=None, help="synthetic rows (default 10,000, 2,000 with --quick)")
    parser.add_argument("--code", type=Path, default=None, help="run the chartc of this checkout (e.g. an older one)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="the check, lookup and help rows also compare with the same command by this "
                        "checkout's chartc")
    parser.add_argument("--write", action="store_true",
                        help="record the rows in docs/records/speed.json and their table in docs/records/speed.md")
    parser.add_argument("--stages", action="store_true",
                        help="also print where one check of the synthetic corpus spends its CPU")
    args = parser.parse_args(argv)
    global _CHILD_ENV, CHARTS
    if args.code is not None:  # that checkout's code, reading its own charts
        _CHILD_ENV = {**_CHILD_ENV, "PYTHONPATH": str(args.code.resolve())}
        CHARTS = args.code.resolve() / "charts"
    runs = args.runs or (3 if args.quick else 7)
    rows = args.rows or (2000 if args.quick else 10000)
    chosen = [fn for name, fn in ROWS.items() if not args.only or any(o in name for o in args.only)]
    if not chosen:
        parser.error(f"--only matches none of: {', '.join(ROWS)}")
    with tempfile.TemporaryDirectory(prefix="chartc-bench-") as folder:
        tmp = Path(folder)
        synth = write_synthetic(tmp / "synth", rows) if row_check in chosen or args.stages else {}
        synth["rows"] = Path(f"{rows:,}")
        baseline = args.baseline.resolve() if args.baseline else None
        setup = Setup(tmp, synth, runs, args.quick, (args.code or ROOT).resolve(), baseline, rows)
        results: list[Row] = []
        for fn in chosen:
            for row in fn(setup):
                results.append(row)
                print(f"  {row.name}: {row.refused or f'{row.ratio:.2f}{row.unit}'}", file=sys.stderr, flush=True)
        staged = stages(setup) if args.stages else []
    print("\n".join(render(results, runs)))
    if args.write:
        write_record(results, runs)
    if staged:
        print("\n" + "\n".join(staged))
    return 0


if __name__ == "__main__":
    sys.exit(main())
