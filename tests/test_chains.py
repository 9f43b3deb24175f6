"""Chained results: a cell that sends the reader to another chart (`-> [B] (side=ours, +1)`), to this
chart again (`-> again`) or to a roll inside the cell (`-> 1d6 { ... }`).

The test game `tests/data/charts/chainlab` chains three charts: Encounter [A] (1d6; rolls again with
+1 on a 6), Damage [B] (2d6 by side) and Crash [C] (1d6, with a 1d6 roll inside a cell). Its exact
final chances are checked against a brute-force enumeration of every die face; the corpus's real
references (IA2 R1, the Knight's Cross awards, the charts printed elsewhere) are followed too.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler import model
from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.build.validate import validate_outputs
from compiler.cli import cli
from compiler.engine import chains
from compiler.engine.chains import ChainLoops, State, final_chances
from compiler.engine.follow import MAX_STEPS, chain_odds, follow
from compiler.engine.lookup import LookupProblem, LookupUsage, lookup
from compiler.engine.runtime import chains as chain_runtime
from compiler.tools.fmt import format_text
from tests.conftest import ROOT, codes, compile_text, import_module

TEST_CHARTS = ROOT / "tests" / "data" / "charts"
HEADER = 'game t { title "T" }\nenum side { ours "Ours" theirs "Theirs" }\n'


@pytest.fixture(scope="module")
def lab_project() -> model.Project:
    with contextlib.chdir(ROOT):
        comp = load([Path("tests/data/charts/chainlab")])
    assert not comp.diagnostics, comp.diagnostics
    return comp.project


@pytest.fixture(scope="module")
def lab(lab_project: model.Project) -> model.Game:
    return lab_project.games["chainlab"]


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


# ---- the model ------------------------------------------------------------------------------------


def test_chained_cells_are_typed(lab: model.Game) -> None:
    a, c = lab.chart("A"), lab.chart("C")
    assert a is not None and c is not None
    # A 4-5: -> [B] (side=theirs, +1); A 6+: -> again (+1)
    assert a.rows[2].values[0] == model.ChartRef("B", (model.ChainKey("side", "theirs"),), 1, chained=True)
    assert a.rows[3].values[0] == model.RollAgain(1)
    # C 4-5: -> 1d6 { 1-3: "Bails out"; 4-6: "Killed" }
    roll = c.rows[1].values[0]
    assert isinstance(roll, model.SubRoll) and roll.dice.text == "1d6"
    assert [(o.range.low, o.range.high, o.value) for o in roll.outcomes] == [(1, 3, "Bails out"), (4, 6, "Killed")]


# ---- exact final chances against brute force ------------------------------------------------------------


def _faces(dice) -> list[tuple[int, Fraction]]:
    """Every combination of die faces of a sum roll, as (total, chance): brute force, not `Dice.outcomes`."""
    weight = Fraction(1, dice.sides**dice.count)
    return [(sum(f), weight) for f in itertools.product(range(1, dice.sides + 1), repeat=dice.count)]


def _brute(
    game: model.Game, address: str, keys: dict[str, str], drm: int, depth: int, memo: dict | None = None
) -> dict[tuple, Fraction]:
    """Final outcome -> chance, by reading every face combination with `lookup` and following each
    cell by hand; paths longer than `depth` steps are dropped (their mass is what is left of 1).
    A step's answer is kept per (chart, keys, DRM, depth left), so a loop costs depth x states."""
    memo = {} if memo is None else memo
    seen = (address, tuple(sorted(keys.items())), drm, depth)
    if seen not in memo:
        memo[seen] = _brute_step(game, address, keys, drm, depth, memo)
    return memo[seen]


def _brute_step(
    game: model.Game, address: str, keys: dict[str, str], drm: int, depth: int, memo: dict
) -> dict[tuple, Fraction]:
    chart = game.chart(address)
    assert chart is not None and chart.dice is not None
    out: dict[tuple, Fraction] = {}
    if depth == 0:
        return out
    for natural, p in _faces(chart.dice):
        row = lookup(chart, str(natural), keys, drm).row
        for values, q in _cells(row.values):
            move = next((v for v in values if isinstance(v, model.ChartRef | model.RollAgain)), None)
            if move is None:
                key = (address, tuple(sorted(keys.items())), row.range.printed, values)
                out[key] = out.get(key, Fraction(0)) + p * q
                continue
            if isinstance(move, model.RollAgain):
                target, next_keys = address, keys
            else:
                target = move.address
                next_keys = {k.key: k.value for k in move.keys}
            for key, r in _brute(game, target, next_keys, move.drm or 0, depth - 1, memo).items():
                out[key] = out.get(key, Fraction(0)) + p * q * r
    return out


def _cells(values: tuple) -> list[tuple[tuple, Fraction]]:
    """The row's values with each roll in a cell made, face by face."""
    ways: list[tuple[tuple, Fraction]] = [((), Fraction(1))]
    for v in values:
        if isinstance(v, model.SubRoll):
            picks = [(next(o.value for o in v.outcomes if o.range.contains(t)), w) for t, w in _faces(v.dice)]
        else:
            picks = [(v, Fraction(1))]
        ways = [((*done, pv), p * w) for done, p in ways for pv, w in picks]
    return ways


def _solved(game: model.Game, address: str, combo: tuple[str, ...], drm: int = 0) -> dict[tuple, Fraction]:
    finals, _ = final_chances(game, State(address, combo, drm), lambda chart, combo, carried: carried, {})
    out = {}
    for f in finals:
        chart = game.chart(f.final.address)
        keys = tuple(sorted(zip((k.id for k in chart.keys), f.final.combo, strict=True)))
        out[(f.final.address, keys, f.final.row.range.printed, f.final.values)] = f.probability
    return out


def test_three_chart_chain_without_loop_is_exact(lab: model.Game) -> None:
    # B (2d6, side theirs, +1 carried) -> C (+2 carried) -> the 1d6 in C's cell: 36 x 6 x 6 face combinations
    solved = _solved(lab, "B", ("theirs",), 1)
    brute = _brute(lab, "B", {"side": "theirs"}, 1, depth=10)
    assert solved == brute
    assert sum(solved.values()) == 1
    # B theirs 2-8 with +1: naturals 2-7 = 21/36; C with +2 reads 6+ on naturals 4-6
    assert solved[("B", (("side", "theirs"),), "2-8", (1, "Hit"))] == Fraction(21, 36)
    assert solved[("C", (), "6+", ("Explodes",))] == Fraction(15, 36) * Fraction(1, 2)


def test_roll_again_loop_with_an_exit_is_exact(lab: model.Game) -> None:
    # A's 6+ rolls again with +1: the brute force, cut at depth 30, differs from the exact chances
    # by no more than the mass of the paths it cut (the loop is left with chance 2/3 each time)
    solved = _solved(lab, "A", ())
    brute = _brute(lab, "A", {}, 0, depth=30)
    assert sum(solved.values()) == 1
    left = 1 - sum(brute.values())
    assert 0 < left < Fraction(1, 10**9)
    for key, p in solved.items():
        assert 0 <= p - brute.get(key, Fraction(0)) <= left
    # A 1 "Nothing" only on the first roll: 1/6; B ours: 1/3 + 1/6 x 1/2 (A +1 reads 2-3 on naturals 1-2)
    assert solved[("A", (), "1", ("Nothing",))] == Fraction(1, 6)
    assert solved[("B", (("side", "ours"),), "2-6", (0, "Clean"))] == Fraction(5, 12) * Fraction(15, 36)


def test_chain_odds_cli_gives_each_final_outcome(lab: model.Game) -> None:
    out = _run("odds", "chainlab/A", "--follow", "--charts", str(TEST_CHARTS), "--format", "json")
    doc = json.loads(out)
    finals = {(f["chart"], f["range"], json.dumps(f["values"])): f["probability"]["exact"] for f in doc["finals"]}
    assert finals[("A", "1", '{"result": "Nothing"}')] == "1/6"
    assert finals[("B", "2-6", '{"hits": 0, "then": "Clean"}')] == "25/144"
    assert finals[("C", "4-5", '{"fate": "Killed"}')] == "5/72"
    assert sum(Fraction(p) for p in finals.values()) == 1
    text = _run("odds", "chainlab/A", "--follow", "--charts", str(TEST_CHARTS))
    assert "5/72 (6.9%)" in text and "Killed" in text


def test_loop_without_exit_in_a_context_is_refused(tmp_path: Path) -> None:
    # a 1 ends the loop, so `check` is content; in a storm (+1 on every roll) no roll can end it
    text = HEADER + (
        'context storm: flag "Storm"\n'
        'chart [A] "A" { roll 1d6 column r: text drm storm "Storm" +1 when storm '
        'rows { 1: "out"  2+: -> again } }\n'
    )
    comp = compile_text(tmp_path, text)
    assert codes(comp) == []
    game = comp.project.games["t"]
    assert [f.probability for f in chain_odds(game, game.chart("A"), {}, 0).finals] == [1]
    with pytest.raises(ChainLoops):
        final_chances(game, State("A", (), 0), lambda chart, combo, carried: carried + 1, {})
    with pytest.raises(LookupProblem, match="loop forever"):
        chain_odds(game, game.chart("A"), {}, 0, when=("storm",))


# ---- checks ----------------------------------------------------------------------------------------------


def test_cycle_without_exit_is_an_error(tmp_path: Path) -> None:
    text = HEADER + (
        'chart [A] "A" { roll 1d6 column r: text rows { 1-6: -> [B] } }\n'
        'chart [B] "B" { roll 1d6 column r: text rows { 1-3: -> [A]  4-6: -> again } }\n'
    )
    assert codes(compile_text(tmp_path, text)) == ["C452", "C452"]
    fixed = text.replace("4-6: -> again", '4-5: -> again  6: "escaped"')
    assert codes(compile_text(tmp_path / "fixed", fixed)) == []


def test_reference_with_impossible_key_is_reported(tmp_path: Path) -> None:
    chart_b = 'chart [B] "B" { roll 1d6 key side column hits: int "Hits" rows { * 1-6: 1 } }\n'
    text = HEADER + 'chart [A] "A" { roll 1d6 column r: text rows { 1-6: -> [B] (side=neutral) } }\n' + chart_b
    comp = compile_text(tmp_path, text)
    assert codes(comp) == ["C450"]
    assert "`neutral` for key `side` of `B`" in comp.diagnostics[0].message


def test_drm_carried_to_a_chart_without_a_modified_roll(tmp_path: Path) -> None:
    text = HEADER + (
        'chart [A] "A" { roll 1d6 column r: text rows { 1-6: -> [B] (side=ours, -1) } }\n'
        'chart [B] "B" { key side column u: text "Unit" rows { ours: "x"  theirs: "y" } }\n'
    )
    assert codes(compile_text(tmp_path, text)) == ["C451"]


def test_unknown_target_is_an_unknown_name(tmp_path: Path) -> None:
    text = HEADER + 'chart [A] "A" { roll 1d6 column r: text rows { 1-6: -> [B7] } }\n'
    assert codes(compile_text(tmp_path, text)) == ["C201"]


# ---- lookup --follow -------------------------------------------------------------------------------------


def test_follow_with_given_rolls(lab: model.Game) -> None:
    # A 4 -> B theirs +1: 11 + 1 = 12 -> 9+ -> C +2: 3 + 2 = 5 -> 4-5, the cell's 1d6: 5 -> Killed
    walk = follow(lab, lab.chart("A"), ["4", "11", "3", "5"], {}, 0)
    assert [(s.result.chart.address, s.result.natural, s.result.modified) for s in walk.steps] == [
        ("A", 4, 4),
        ("B", 11, 12),
        ("C", 3, 5),
    ]
    assert walk.steps[-1].branch.values == ("Killed",)
    assert [p.natural for p in walk.steps[-1].branch.picks] == [5]
    out = _run("lookup", "chainlab/A", "4", "--roll", "11", "--roll", "3", "--roll", "5", "--follow",
               "--charts", str(TEST_CHARTS))
    assert "2. B Damage, side Theirs: roll 11 + DRM 1 = 12 -> row 9+" in out
    assert "Fate: 1d6 rolled 5 -> 4-6 Killed" in out and out.rstrip().endswith("Fate: Killed")


def test_follow_needs_a_roll_for_each_step(lab: model.Game) -> None:
    with pytest.raises(LookupUsage, match="step 2: 2d6 on B"):
        follow(lab, lab.chart("A"), ["2"], {}, 0)
    result = CliRunner().invoke(cli, ["lookup", "chainlab/A", "2", "--follow", "--charts", str(TEST_CHARTS)])
    assert result.exit_code == 2 and "add --roll N, or --seed N" in result.output


def test_generated_follow_chains_the_modules_own_lookups(lab_project: model.Project, tmp_path: Path) -> None:
    outputs = render_outputs(lab_project)
    path = tmp_path / "chainlab.py"
    path.write_text(outputs["chainlab/chainlab.py"], encoding="utf-8")
    module = import_module(path, "chainlab_generated")
    # the same seed gives the same chain in the module and in `chartc lookup --follow --seed`
    for seed in range(12):
        steps = module.follow_a(random.Random(seed))
        out = _run("lookup", "chainlab/A", "--follow", "--seed", str(seed), "--json", "--charts", str(TEST_CHARTS))
        walked = json.loads(out)["steps"]
        assert [(s["chart"], s["natural"], s["modified"], s["cell_rolls"]) for s in steps] == [
            (s["chart"], s["natural"], s["modified"], [r["natural"] for r in s["cell_rolls"]]) for s in walked
        ]
        assert steps[-1]["values"] == walked[-1]["values"]
    # B theirs with +1: 11 + 1 -> C with +2
    rolled = module.follow_b(random.Random(3), side="theirs", drm=1)
    assert rolled[0]["chart"] == "B" and all(s["chart"] in ("B", "C") for s in rolled)


# ---- the corpus's real references ------------------------------------------------------------------------


def test_ia2_r1_is_read_by_its_roll(ia2: model.Game) -> None:
    # IA2 R1 roll 1: I/JG 1 "Oesau" (1d3: 1), its aircraft roll 1d6: 5 -> "5-6: FW 190A-7"
    walk = follow(ia2, ia2.chart("R1"), ["1", "1", "5"], {}, 0)
    assert [s.result.chart.address for s in walk.steps] == ["R1", "starting_unit_bases"]
    assert walk.steps[1].result.keys[0][1].id == "i_jg1"
    assert walk.steps[1].branch.values[:3] == ("FW 190A-7", "wiesbaden", "1944-03")
    # IA2 R1 roll 16, 1d3: 3 -> III/ZG 26 "Horst Wessel", Me 410A-1/U2 (the rest of its row is lost)
    walk = follow(ia2, ia2.chart("R1"), ["16", "3"], {}, 0)
    assert walk.steps[1].result.keys[0][1].id == "iii_zg26" and walk.steps[1].branch.values[0] == "Me 410A-1/U2"


def test_ia2_r1_final_chances(ia2: model.Game) -> None:
    report = chain_odds(ia2, ia2.chart("R1"), {}, 0)
    chances = {(f.final.address, f.final.combo, f.final.values[:1]): f.probability for f in report.finals}
    # roll 1 (1/20) x I/JG 1 (1/3) x FW 190A-6 on 1-4 (2/3)
    assert chances[("starting_unit_bases", ("i_jg1",), ("FW 190A-6",))] == Fraction(1, 90)
    assert chances[("starting_unit_bases", ("i_zg1",), ("Ju 88C-6a",))] == Fraction(1, 20)  # roll 15
    # R1 is partial: rolls 3-12, 14 and 17-20 are lost (13 is 9.7's example, II(Sturm)/JG 300)
    assert chances[("R1", (), ())] == Fraction(15, 20)
    assert report.total == 1


def test_ia2_awards_send_the_reader_to_the_knights_cross_roll(ia2: model.Game) -> None:
    # IA2 7.8.7.1: Oakleaves at 40 points, rolled on the Knight's Cross roll: success on a 1, -1 per
    # succeeding point; 2 points beyond: naturals 1-3 succeed
    report = chain_odds(ia2, ia2.chart("awards"), {"award": "oakleaves"}, 0, sets=("points_beyond=2",))
    assert {f.final.values: f.probability for f in report.finals} == {
        ("Awarded",): Fraction(1, 2),
        ("Not awarded",): Fraction(1, 2),
    }
    walk = follow(ia2, ia2.chart("awards"), ["4"], {"award": "swords"}, 0, sets=("points_beyond=2",))
    assert [s.result.chart.address for s in walk.steps] == ["awards", "knights_cross"]
    assert walk.steps[1].result.modified == 2 and walk.steps[1].branch.values == ("Not awarded",)


def test_references_to_charts_printed_elsewhere_end_the_chain(ia2: model.Game) -> None:
    # IA2 7.1.5 flak: 1d6 - 3 hits on the Bomber and Group Damage Chart [B3], printed on the cards only
    walk = follow(ia2, ia2.chart("flak"), ["5"], {}, 0)  # the die shows 5: 5 - 3 = 2 hits
    assert walk.external is not None and walk.external.address == "B3"
    assert walk.steps[-1].branch.values == (2, model.ChartRef("B3"))
    out = _run("lookup", "ia2/approach_track", "2", "--key", "orientation=tail", "--follow")
    assert "ends at P1 Position Chart: printed elsewhere" in out
    report = chain_odds(ia2, ia2.chart("bodenplatte_flak"), {}, 0)
    assert [f.probability for f in report.finals] == [Fraction(1, 2)] + [Fraction(1, 6)] * 3


# ---- outputs and formatting ------------------------------------------------------------------------------


def test_outputs_write_chained_cells(lab_project: model.Project) -> None:
    outputs = render_outputs(lab_project)
    validate_outputs(outputs)
    doc = json.loads(outputs["chainlab/chainlab.json"])
    a = next(c for c in doc["charts"] if c["address"] == "A")
    assert [r["values"]["result"] for r in a["rows"]][1:] == [
        {"chart": "B", "keys": {"side": "ours"}, "drm": 0},
        {"chart": "B", "keys": {"side": "theirs"}, "drm": 1},
        {"again": True, "drm": 1},
    ]
    html = outputs["chainlab/chainlab.html"]
    assert "roll on B (Ours)" in html and "roll on B (Theirs, +1)" in html and "roll again (+1)" in html
    assert "1d6: 1-3 Bails out; 4-6 Killed" in html


def test_fmt_lays_out_chains() -> None:
    messy = HEADER + (
        'chart [A] "A" {\nroll 1d6\ncolumn r: text\nrows {\n1-3:->[B](side = ours ,+1)\n'
        '4-6 : ->  1d6{1-3:"x";4-6 : -> again}\n}\n}\n'
        'chart [B] "B" { roll 1d6 key side column r: text rows { * 1-6: "y" } }\n'
    )
    formatted = format_text(messy, "t/case.chart")
    assert "    1-3: -> [B] (side=ours, +1)\n" in formatted
    assert '    4-6: -> 1d6 { 1-3: "x"; 4-6: -> again }\n' in formatted
    assert format_text(formatted, "t/case.chart") == formatted


def test_chain_runtime_names_are_its_own() -> None:
    # the chain runtime is inlined after the runtime: no name of one may shadow the other's
    import ast

    from compiler.engine.runtime import chain_runtime_code, runtime_code

    def names(code: str) -> set[str]:
        found = set()
        for node in ast.parse(code).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.Assign):
                found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        return found

    chain = names(chain_runtime_code())
    assert {"_follow", "Step", "ChainRef", "CellRoll", "RollAgain"} <= chain
    assert not chain & names(runtime_code())


def test_a_chain_past_the_state_limit_is_a_clean_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a new user's chain [C0] -> [C1] -> ... -> [C1199] (one state per chart) crashed `odds --follow`
    # with a traceback; the limit is lowered here so that the chain stays small
    monkeypatch.setattr(chains, "MAX_STATES", 3)
    links = "".join(
        f'chart [C{i}] "C{i}" {{ roll 1d6 column r: text rows {{ 1-3: "stop"  4-6: -> [C{i + 1}] }} }}\n'
        for i in range(4)
    )
    comp = compile_text(tmp_path, HEADER + links + 'chart [C4] "End" { roll 1d6 column r: text rows { 1-6: "end" } }\n')
    assert codes(comp) == []
    game = comp.project.games["t"]
    with pytest.raises(LookupProblem, match="more than 3 states"):
        chain_odds(game, game.chart("C0"), {}, 0)
    result = CliRunner().invoke(cli, ["odds", "t/C0", "--follow", "--charts", str(tmp_path / "charts")])
    assert result.exit_code == 1, result.output
    assert "error: the chain visits more than 3 states" in result.output and "Traceback" not in result.output
    monkeypatch.setattr(chains, "MAX_STATES", 5)
    finals = chain_odds(game, game.chart("C0"), {}, 0).finals
    assert [f.probability for f in finals] == [Fraction(1, 2**n) for n in (1, 2, 3, 4, 4)]


def test_lookup_follow_and_the_generated_follow_share_the_step_limit() -> None:
    # `chartc lookup --follow` and a generated `follow_*` refuse a walk after the same number of steps
    limit = inspect.signature(chain_runtime._follow).parameters["limit"].default
    assert limit == MAX_STEPS == 100


def test_chain_odds_shows_the_drm_context(tmp_path: Path) -> None:
    # plain `odds` prints `DRM: Day -1 = -1`; `odds --follow` printed no context at all (a new user's
    # day/night encounter chain): it now says the context and the first roll's DRMs, text and JSON
    text = HEADER + (
        'context night: flag "Night"\ncontext hits: int "Hits" 0-9\n'
        'chart [A] "A" { roll 1d6 column r: text drm day "Day" -1 when not night '
        'rows { 1-: "out"  2+: -> [B] } }\n'
        'chart [B] "B" { roll 1d6 column r: text drm hits "Hits" +1 per 3 hits rows { 1-3: "hit"  4+: "miss" } }\n'
    )
    compile_text(tmp_path, text)
    charts = str(tmp_path / "charts")
    out = _run("odds", "t/A", "--follow", "--read-drms", "--charts", charts)
    assert out.splitlines()[1:3] == [
        "  context: every flag false, no value set; each chart of the chain reads its DRMs in it",
        "  first roll DRM: Day -1 = -1",
    ]
    out = _run("odds", "t/A", "--follow", "--when", "night", "--set", "hits=3", "--drm", "1", "--charts", charts)
    assert out.splitlines()[1:3] == [
        "  context: Hits 3, Night, every other flag false; each chart of the chain reads its DRMs in it",
        "  first roll DRM: no DRM applies, --drm +1 = +1",
    ]
    doc = json.loads(_run("odds", "t/A", "--follow", "--read-drms", "--format", "json", "--charts", charts))
    assert doc["context"] == {} and [d["label"] for d in doc["modifiers"]["applied"]] == ["Day"]
    assert doc["modifiers"]["total"] == -1
    doc = json.loads(_run("odds", "t/A", "--follow", "--format", "json", "--charts", charts))
    assert doc["context"] is None and doc["modifiers"] is None  # no context given: no chart's DRMs read


def test_a_key_only_the_reader_gave_carries_to_a_later_chart_in_the_module_too(tmp_path: Path) -> None:
    # A (by side) -> B (no key) -> C (by side): C's side comes from no reference, no step and no
    # cell, only from the reader's `--key side=...`. chartc read it so (`target_combo`); a generated
    # `follow_a` raised ValueError at B, because its runtime looked only at the step before. Both
    # now take the key by the one rule, the runtime's `_next_key`.
    text = HEADER + (
        'chart [A] "A" { roll 1d6 key side column r: text rows { * 1-6: -> [B] } }\n'
        'chart [B] "B" { roll 1d6 column r: text rows { 1-6: -> [C] } }\n'
        'chart [C] "C" { roll 1d6 key side column r: text rows { ours 1-3: "held"  ours 4-6: "lost"  '
        'theirs 1-6: "gone" } }\n'
    )
    comp = compile_text(tmp_path, text)
    assert codes(comp) == []
    outputs = render_outputs(comp.project)
    path = tmp_path / "t_module.py"
    path.write_text(outputs["t/t.py"], encoding="utf-8")
    module = import_module(path, "t_chain_key_generated")
    charts = str(tmp_path / "charts")
    for seed in range(6):
        steps = module.follow_a(random.Random(seed), side="ours")
        out = _run("lookup", "t/A", "--follow", "--seed", str(seed), "--key", "side=ours", "--json", "--charts", charts)
        walked = json.loads(out)["steps"]
        assert [s["chart"] for s in steps] == ["A", "B", "C"] == [s["chart"] for s in walked]
        assert [s["natural"] for s in steps] == [s["natural"] for s in walked]
        assert steps[-1]["values"]["r"] in ("held", "lost") and steps[-1]["values"] == walked[-1]["values"]
    game = comp.project.games["t"]
    finals = chain_odds(game, game.chart("A"), {"side": "ours"}, 0).finals
    chances = sorted((f.final.values, f.probability) for f in finals)
    assert chances == [(("held",), Fraction(1, 2)), (("lost",), Fraction(1, 2))]


def test_lookup_follow_takes_the_key_of_a_later_chart_the_first_has_not(tmp_path: Path) -> None:
    # A (no key) -> C (by side): `--key side=ours` is C's; `lookup --follow` refused it at A ("chart
    # `A` has no key `side`") while the generated `follow_a(rng, side=...)` took it
    text = HEADER + (
        'chart [A] "A" { roll 1d6 column r: text rows { 1-6: -> [C] } }\n'
        'chart [C] "C" { roll 1d6 key side column r: text rows { ours 1-3: "held"  ours 4-6: "lost"  '
        'theirs 1-6: "gone" } }\n'
    )
    comp = compile_text(tmp_path, text)
    path = tmp_path / "t_module.py"
    path.write_text(render_outputs(comp.project)["t/t.py"], encoding="utf-8")
    module = import_module(path, "t_later_key_generated")
    charts = str(tmp_path / "charts")
    walked = json.loads(_run("lookup", "t/A", "2", "--roll", "5", "--follow", "--key", "side=ours", "--json",
                             "--charts", charts))["steps"]
    assert [(s["chart"], s["natural"], s["values"]["r"]) for s in walked[1:]] == [("C", 5, "lost")]
    for seed in range(4):  # the module and `lookup --follow --seed` walk alike with the later chart's key
        steps = module.follow_a(random.Random(seed), side="ours")
        out = _run("lookup", "t/A", "--follow", "--seed", str(seed), "--key", "side=ours", "--json", "--charts", charts)
        assert [(s["chart"], s["natural"], s["values"]) for s in steps] == [
            (s["chart"], s["natural"], s["values"]) for s in json.loads(out)["steps"]]
    wrong = CliRunner().invoke(cli, ["lookup", "t/A", "2", "--roll", "5", "--follow", "--key", "side=oures",
                                     "--charts", charts])
    assert wrong.exit_code == 2 and "`oures` is not a value of key `side`" in wrong.output
    unknown = CliRunner().invoke(cli, ["lookup", "t/A", "2", "--follow", "--key", "sied=ours", "--charts", charts])
    assert unknown.exit_code == 2 and "chart `A` has no key `sied`" in unknown.output
    doc = json.loads(_run("odds", "t/A", "--follow", "--key", "side=ours", "--format", "json", "--charts", charts))
    assert [(f["values"]["r"], f["probability"]["exact"]) for f in doc["finals"]] == [("held", "1/2"), ("lost", "1/2")]


def test_ia2_r1_follow_checks_a_starting_unit_given_for_its_units_chart() -> None:
    # IA2 4.1: R1's roll 1 is I/JG 1, II/JG 1 or III/JG 1 by 1d3, then [starting_unit_bases] by unit;
    # the unit comes from R1's cell, so a `--key unit=...` is only checked, as the module's follow_r1 does
    out = _run("lookup", "ia2/R1", "1", "--roll", "1", "--roll", "1", "--follow", "--key", "unit=ii_jg1")
    assert '2. starting_unit_bases Starting Units and Bases Chart: units, unit I/JG 1 "Oesau"' in out
    assert "Initial Base: Wiesbaden" in out  # IA2 R1: I/JG 1 starts at Wiesbaden (Frankfurt) 3/44
    wrong = CliRunner().invoke(cli, ["lookup", "ia2/R1", "1", "--roll", "1", "--roll", "1", "--follow",
                                     "--key", "unit=jg1"])
    assert wrong.exit_code == 2 and "did you mean `i_jg1`?" in wrong.output


def test_a_roll_in_a_cell_picks_its_outcome_as_the_module_does(lab: model.Game) -> None:
    # C 4-5: -> 1d6 { 1-3: "Bails out"; 4-6: "Killed" }: chartc's `picked` and `outcome_chance` and
    # the module's `_cell_value` read the outcome with the runtime's `_cell_outcome`
    c = lab.chart("C")
    assert c is not None
    roll = c.rows[1].values[0]
    assert isinstance(roll, model.SubRoll)
    for natural in range(1, 7):
        outcome = chains.picked(roll, natural)
        triples = tuple((o.range.low, o.range.high, o.value) for o in roll.outcomes)
        expected = "Bails out" if natural <= 3 else "Killed"
        assert chain_runtime._cell_outcome(triples, natural) == outcome.value == expected
    assert [chains.outcome_chance(roll, o) for o in roll.outcomes] == [Fraction(1, 2), Fraction(1, 2)]


def test_a_chart_id_declared_twice_with_and_without_keys_is_checked_without_a_crash(tmp_path: Path) -> None:
    # `chartc check tests/cases` reads every case as one game: a [B] with a chained cell and no key
    # beside a [B] read by `side`. The loop check enumerated the first's key values and read the
    # second's rows with them; the row step (the runtime's, strict about keys) raised ValueError.
    text = HEADER + (
        'chart [B] "Damage" { roll 1d6 key side column hits: int "Hits" rows { * 1-6: 1 } }\n'
        'chart [B] "Again" { roll 1d6 column r: text rows { 1-3: "stop"  4-6: -> again } }\n'
    )
    comp = compile_text(tmp_path, text)
    assert "C202" in codes(comp)
