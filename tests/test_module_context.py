"""The generated modules read the situation as `chartc lookup --when/--set` does (issue 31, item 4):
`lookup_<id>`/`read_<id>`/`roll_<id>` take `when=` and `set_=`, `follow_<id>` passes them (and the
keys of later charts) to every step. Each module is imported by a separate script, as a user would.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from compiler import model
from compiler.engine.context import read_context
from compiler.engine.lookup import LookupProblem, LookupUsage, drm_list_answer, lookup
from compiler.query.lookup import lookup_fields
from tests.conftest import ROOT
from tests.test_generated_python import cli_values, python_key

# the games with roll or value charts whose DRMs have conditions (usaaf and aa_rules have none)
GAMES = ("ia2", "stuka_leader")


def run_module(game: str, code: str, stdin: str = "") -> str:
    """`code` run by a separate Python beside generated/<game>/<game>.py, as a user runs it."""
    folder = ROOT / "generated" / game
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=False, input=stdin,
        env={"PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def chartc_json(*args: str) -> Any:
    ran = subprocess.run([sys.executable, "-m", "compiler.cli", *args, "--format", "json"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def test_r4_escape_with_an_fb_attack_reads_as_chartc_lookup() -> None:
    # IA2 7.1.10, Escape Chart [R4], footnote 1: an F/B attack adds +1; a natural 2 is 3: Combat
    cli = chartc_json("lookup", "ia2/R4", "2", "--key", "interceptor=piston", "--when", "fb_attack")
    out = run_module("ia2", """
import json, ia2
row = ia2.lookup_r4(2, interceptor='piston', when=('fb_attack',))
read = ia2.read_r4(2, interceptor='Piston-engined', when=('fb_attack',))
plain = ia2.lookup_r4(2, interceptor='piston')
print(json.dumps([row, read, plain]))
""")
    row, read, plain = json.loads(out)
    assert row == read["values"] == cli["values"] == {"result": "Combat"}
    assert plain == {"result": "Safe escape"}  # the old call: no DRM read, 2 is a safe escape
    rolled = ("natural", "drm", "modified")
    assert [read[k] for k in rolled] == [cli[k] for k in rolled] == [2, 1, 3]
    applied = cli["modifiers"]["applied"]
    assert read["drms"] == [{"id": a["id"], "label": a["label"], "value": a["value"]} for a in applied]
    assert read["drms"] == [{"id": "fb_attack", "label": "F/B Attack", "value": 1}]


def test_unknown_names_and_wrong_values_name_what_the_chart_reads() -> None:
    out = run_module("ia2", """
import ia2
calls = [
    lambda: ia2.lookup_r4(2, interceptor='piston', when=('fb_atack',)),
    lambda: ia2.lookup_r4(2, interceptor='piston', when='fb_attack'),
    lambda: ia2.lookup_r4(2, interceptor='piston', set_={'fb_attack': 1}),
    lambda: ia2.lookup_knights_cross(3, set_={'points_beyond': 40}),
    lambda: ia2.lookup_knights_cross(3, when=('points_beyond',)),
]
for call in calls:
    try:
        call()
    except ValueError as exc:
        print(exc)
""")
    assert out.splitlines() == [
        "R4: the chart's DRMs do not read 'fb_atack'; they read fb_attack (flag), gruppe_leader (flag)",
        "R4: when must be a tuple of flag names, got 'fb_attack'; e.g. when=('fb_attack',)",
        "R4: fb_attack must be True or False, got 1",
        "knights_cross: points_beyond 40 is outside its declared range (0 to 39)",
        "knights_cross: 'points_beyond' is not a flag (int): give its value, set_={'points_beyond': ...}",
    ]


def test_an_award_chains_to_the_knights_cross_roll_with_its_drm_from_the_situation() -> None:
    # IA2 7.8.7: the Knight's Cross row of Awards chains to the Knight's Cross roll, -1 per point
    # beyond 30 (32 points: -2); seed 0 rolls a 4: 4 - 2 = 2, Not awarded (as chartc lookup --follow)
    cli = chartc_json("lookup", "ia2/awards", "--key", "award=knights_cross", "--follow", "--seed", "0",
                      "--set", "points_beyond=2")
    out = run_module("ia2", """
import json, random, ia2
steps = ia2.follow_awards(random.Random(0), award='knights_cross', set_={'points_beyond': 2})
print(json.dumps(steps))
""")
    steps = json.loads(out)
    assert [s["chart"] for s in steps] == [s["chart"] for s in cli["steps"]] == ["awards", "knights_cross"]
    for mine, theirs in zip(steps, cli["steps"], strict=True):
        assert [mine[k] for k in ("natural", "drm", "modified")] == [theirs[k] for k in ("natural", "drm", "modified")]
    assert (steps[1]["natural"], steps[1]["drm"], steps[1]["modified"]) == (4, -2, 2)
    assert steps[1]["values"] == cli["steps"][1]["values"] == {"result": "Not awarded"}
    assert steps[1]["drms"] == [{"id": "succeeding_points", "label": "Each succeeding point", "value": -2}]


def test_a_chain_into_a_keyed_chart_takes_the_key_no_step_gives() -> None:
    # AA rules, Anti-Aircraft e-f: an MG's damage is rolled on the AAMG Damage Caused Table, keyed by
    # the MG; the chain graph of the JSON says that key comes from the reader
    out = run_module("aa_rules", """
import json, random, aa_rules
steps = aa_rules.follow_aa_damage_tables(random.Random(1), aa_gun='mg', mg='MMG')
again = aa_rules.lookup_aamg_damage(steps[1]['natural'], mg='mmg')
try:
    aa_rules.follow_aa_damage_tables(random.Random(1), aa_gun='mg')
except ValueError as exc:
    missing = str(exc)
try:
    aa_rules.follow_aa_damage_tables(random.Random(1), aa_gun='mg', mg='hmg')
except ValueError as exc:
    wrong = str(exc)
print(json.dumps([steps, again, missing, wrong]))
""")
    steps, again, missing, wrong = json.loads(out)
    assert [s["chart"] for s in steps] == ["aa_damage_tables", "aamg_damage"]
    # the table's 01-35 row (MMG): No Damage; seed 1 rolls 29 on the percentile dice
    assert (steps[1]["natural"], steps[1]["values"]) == (29, {"result": "No Damage"})
    assert steps[1]["values"] == again
    assert missing == "aamg_damage: no step of the chain gives key 'mg'"
    assert wrong == "aamg_damage: 'hmg' is not a value of mg; expected one of 'mmg' ('MMG')"
    graph = json.loads((ROOT / "generated" / "aa_rules" / "aa_rules.json").read_text(encoding="utf-8"))["chains"]
    edge = next(e for e in graph if e["to"] == "aamg_damage")
    assert edge["from"] == "aa_damage_tables" and edge["keys"] == [{"key": "mg", "from": "given", "value": None}]


# ---- every chart with DRM conditions: the module and chartc's query layer agree ---------------


def _situation_vars(chart: model.Chart) -> list[str]:
    keys = {k.id for k in chart.keys}
    found: dict[str, None] = {}
    for drm in chart.drms:
        for var in (*model.condition_variables(drm.when), *((drm.per.var,) if drm.per else ())):
            found.setdefault(var)
    return [v for v in found if v not in keys]


def _values(game: model.Game, var: model.ContextVar) -> list[tuple[object, str]]:
    """A few values of a context variable: (as the module takes it, as `--set` takes it)."""
    match var.type:
        case model.ContextType.INT:
            low = var.low if isinstance(var.low, int) else 0
            high = var.high if isinstance(var.high, int) else low + 12
            return [(n, str(n)) for n in sorted({low, (low + high) // 2, high})]
        case model.ContextType.MONTH:
            first = var.low or (game.calendar[0] if game.calendar else None)
            last = var.high or (game.calendar[1] if game.calendar else None)
            months = [m for m in (first, last) if m is not None] or ["1944-06"]
            return [(str(m), str(m)) for m in months]
        case model.ContextType.ENUM:
            enum = game.enums[var.enum or ""]
            return [(m.label if i % 2 else m.id, m.id) for i, m in enumerate(enum.members)]
        case _:
            return []


def _cases(game: model.Game, chart: model.Chart, rng: random.Random) -> list[dict[str, Any]]:
    variables = [game.context[v] for v in _situation_vars(chart)]
    combos = chart.key_combinations()
    rolls: list[int | None] = sorted(chart.dice.outcomes) if chart.kind is model.ChartKind.ROLL and chart.dice else []
    if chart.kind is model.ChartKind.VALUE and chart.value_key is not None:
        low, high = chart.value_key.domain.low, chart.value_key.domain.high
        low = low if low is not None else (high or 0) - 10
        rolls = list(range(low, (high if high is not None else low + 20) + 1))
    cases = []
    for _ in range(10):
        when, sets, given = [], [], {}
        for var in variables:
            if var.type is model.ContextType.FLAG:
                if rng.random() < 0.5:
                    when.append(var.id)
            elif rng.random() < 0.85:  # else left out: unknown
                python, text = rng.choice(_values(game, var))
                sets.append(f"{var.id}={text}")
                given[var.id] = python
        combo = rng.choice(combos)
        for roll in rng.sample(rolls, min(3, len(rolls))) if rolls else [None]:
            cases.append({"keys": dict(zip((k.id for k in chart.keys), combo, strict=True)),
                          "python_keys": {k.id: python_key(game, k, m) for k, m in zip(chart.keys, combo, strict=True)},
                          "roll": roll, "when": when, "sets": sets, "set_": given})
    return cases


_MODULE_SIDE = """
import json, sys
import {game} as m
out = []
for case in json.load(sys.stdin):
    function = getattr(m, case['function'])
    try:
        if case['function'].startswith('drm_'):  # a DRM-list chart: its drm_<id> with the context as keywords
            given = {{m.CONTEXT_PARAMETERS[k]: v for k, v in case['set_'].items()}}
            got = function(**given, **{{m.CONTEXT_PARAMETERS[k]: True for k in case['when']}})
        else:
            got = function(case['roll'], **case['keyword_keys'], when=tuple(case['when']), set_=case['set_'])
    except m.NoRowError:
        got = 'NoRowError'
    except ValueError:
        got = 'ValueError'
    out.append(got)
print(json.dumps(out))
"""


def _normal(value: object) -> object:
    return json.loads(json.dumps(value))


def test_the_differential_covers_every_game_with_drms(corpus) -> None:
    with_drms = {g.id for g in corpus.project.games.values() for c in g.charts
                 if c.drms and c.kind in (model.ChartKind.ROLL, model.ChartKind.VALUE)}
    assert with_drms == set(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_chart_with_drm_conditions_reads_the_situation_as_chartc_lookup(corpus, game_id: str) -> None:
    module = ROOT / "generated" / game_id / f"{game_id}.py"
    source = module.read_text(encoding="utf-8")
    game = corpus.project.games[game_id]
    rng = random.Random(f"x31/{game_id}")
    keywords = _keywords(source)
    cases, wanted = [], []
    for chart in game.charts:
        if chart.drms and chart.kind is model.ChartKind.DRMS and not chart.keys:
            _drm_list_cases(game, chart, source, rng, cases, wanted)
        if not chart.drms or chart.kind not in (model.ChartKind.ROLL, model.ChartKind.VALUE):
            continue
        ident = next(a for a in _lookup_names(source, chart.address))
        reader = f"read_{ident}" if chart.kind is model.ChartKind.ROLL else f"lookup_{ident}"
        for case in _cases(game, chart, rng):
            context = read_context(game, chart, tuple(case["when"]), tuple(case["sets"])) if (
                case["when"] or case["sets"]) else {}
            try:
                result = lookup(chart, str(case["roll"]), case["keys"], 0, context)
                fields = lookup_fields(result)
                applied = [{"id": a["id"], "label": a["label"], "value": a["value"]}
                           for a in fields["modifiers"]["applied"]]
                values = _normal(cli_values(result))
                want: object = (values if chart.kind is model.ChartKind.VALUE else
                                {"natural": fields["natural"], "drm": fields["drm"], "modified": fields["modified"],
                                 "values": values, "drms": applied})
            except LookupProblem:
                want = "NoRowError"
            except LookupUsage:
                want = "ValueError"
            # a chart's keys are its functions' first keywords, in order
            keyword_keys = dict(zip(keywords[reader], case["python_keys"].values(), strict=False))
            cases.append({"function": reader, "roll": case["roll"], "python_keys": case["python_keys"],
                          "keyword_keys": keyword_keys, "when": case["when"], "set_": case["set_"] or {}})
            wanted.append((chart.address, case, want))
    assert len(cases) > 100 and any(c["function"].startswith("drm_") for c in cases), game_id
    got = json.loads(run_module(game_id, _MODULE_SIDE.format(game=game_id), json.dumps(cases)))
    for (address, case, want), answer in zip(wanted, got, strict=True):
        if isinstance(answer, dict) and "steps" in answer:  # a Roll: the fields chartc prints
            answer = {k: answer[k] for k in ("natural", "drm", "modified", "values", "drms")}
        assert answer == want, (address, case)


def _drm_list_cases(game: model.Game, chart: model.Chart, source: str, rng: random.Random,
                    cases: list[dict[str, Any]], wanted: list[tuple[str, dict[str, Any], object]]) -> None:
    """A DRM-list chart (IA2 B9): its drm_<id>, named in the module after its chart ID, against
    the total `chartc lookup GAME/CHART --when/--set` prints."""
    function = f"drm_{chart.ident}"
    assert _cites(source, function, chart), chart.address
    for case in _cases(game, chart, rng)[::3]:
        context = read_context(game, chart, tuple(case["when"]), tuple(case["sets"]))
        want = drm_list_answer(chart, None, {}, 0, context).modifiers.total
        cases.append({"function": function, "roll": None, "python_keys": {}, "keyword_keys": {},
                      "when": case["when"], "set_": case["set_"]})
        wanted.append((chart.address, case, want))


def _cites(source: str, function: str, chart: model.Chart) -> bool:
    """Whether `function`'s docstring is the one of `chart` (its title and chart ID)."""
    start = source.index(f"def {function}(")
    cite = chart.title + (f" [{chart.chart_id}]" if chart.chart_id else "")
    return cite in source[start : start + 600]


def _lookup_names(source: str, address: str) -> list[str]:
    """The identifier of a chart's functions, read from the module's LOOKUPS table."""
    table = source[source.index("LOOKUPS: Final"):]
    line = next(line for line in table.splitlines() if line.strip().startswith(f"{address!r}:"))
    return [line.split("lookup_", 1)[1].rstrip(",")]


def _keywords(source: str) -> dict[str, list[str]]:
    """Each function's keyword-only parameters, in order (a chart's keys come first)."""
    import ast

    functions = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)]
    return {n.name: [a.arg for a in n.args.kwonlyargs] for n in functions}
