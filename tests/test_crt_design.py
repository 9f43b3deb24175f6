"""CRT result codes, design analysis (`chartc analyze`) and the classic printed grid, on the test
game tests/data/charts/crtlab (a 1d6 odds CRT, columns 1:2 to 5:1, results AE < AR < EX < DR < DE)."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.cli import cli
from compiler.engine.crt import analyze
from compiler.model.crt import classic_grid, crt_shape, fits_portrait
from tests.conftest import ROOT, compile_text, import_module

CRTLAB = ROOT / "tests" / "data" / "charts"


@pytest.fixture(scope="module")
def crtlab():
    comp = load([CRTLAB / "crtlab"])
    assert comp.diagnostics == []  # the good CRT: dominance and monotonic checks stay quiet
    return comp


def _shape(comp, address: str = "CRT"):
    game = comp.project.games["crtlab"]
    shape = crt_shape(game.chart(address), game.enums)
    assert shape is not None
    return shape


def _brute_force(shape, column: str, drm: int) -> dict[str, Fraction]:
    """Every face of every die (1d6 or 2d6), summed, plus the DRM, read on the column's rows."""
    dice = 2 if shape.chart.dice.text == "2d6" else 1
    faces = list(itertools.product(range(1, 7), repeat=dice))
    out: dict[str, Fraction] = {}
    for throw in faces:
        roll = sum(throw) + drm
        row = next(r for r in shape.chart.rows_for((column,)) if r.range.contains(roll))
        out[str(row.values[0])] = out.get(str(row.values[0]), Fraction(0)) + Fraction(1, len(faces))
    return out


@pytest.mark.parametrize(
    "address, columns, drms",
    [("CRT", 7, (-1, 0, 1)), ("DCRT", 7, (0, 1)), ("FIRE", 8, (-2, -1, 0)), ("TCRT", 7, (0,))],
)
def test_analysis_agrees_with_brute_force(crtlab, address: str, columns: int, drms: tuple[int, ...]) -> None:
    shape = _shape(crtlab, address)
    result = analyze(shape)
    assert result.drms == drms  # CRT: river -1, leader +1; DCRT: leader +1; FIRE: cover -2
    assert len(result.columns) == columns * len(drms)
    for cell in result.columns:
        got = {r.member: r.probability for r in cell.results if r.probability}
        assert got == _brute_force(shape, cell.column, cell.drm)
        assert cell.no_result == 0  # open-ended rows catch every modified roll


def test_expected_step_losses(crtlab) -> None:
    shape = _shape(crtlab)
    cells = {(c.column, c.drm): c for c in analyze(shape).columns}
    # 1:2 at DRM 0: AE on 1-2 (2 attacker steps), EX on 5 (1 each), AR 3-4 and DR 6 (none)
    e = {x.field.id: x.value for x in cells[("1:2", 0)].expected}
    assert e == {"attacker_loss": Fraction(2 * 2 + 1, 6), "defender_loss": Fraction(1, 6)}
    # 5:1 with the leader (+1): DR on a modified 2 (natural 1), DE on 3+: defender loses 2 steps 5/6 of the time
    e = {x.field.id: x.value for x in cells[("5:1", 1)].expected}
    assert e == {"attacker_loss": 0, "defender_loss": Fraction(10, 6)}


def test_classic_grid_reads_rolls_down_and_columns_across(crtlab) -> None:
    grid = classic_grid(_shape(crtlab))
    assert [b.label for b in grid.bands] == ["1-", "2", "3", "4", "5", "6+"]
    assert [grid.code(r) for r in grid.cells[1]] == ["AE", "AR", "AR", "AR", "EX", "DR", "DR"]  # roll 2
    assert [grid.code(r) for r in grid.cells[-1]] == ["DR", "DR", "DR", "DE", "DE", "DE", "DE"]  # roll 6+
    assert fits_portrait(grid, ("1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1"), 9.0)


def test_twelve_columns_fit_a_portrait_page_at_the_floor(tmp_path: Path) -> None:
    labels = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1"]
    odds = ", ".join(f'"{x}"' for x in labels)
    text = (
        'game t { title "T" }\n'
        'enum r "R" { codes AE "Attacker eliminated" DE "Defender eliminated" order AE < DE }\n'
        f'odds o "Odds" {{ columns [{odds}] attacker_high round down defender_high round up beyond clamp }}\n'
        'chart crt "CRT" { roll 1d6 key odds: o column result: r rows { * 1-3: AE  * 4-6: DE } }\n'
    )
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []  # no C433
    game = comp.project.games["t"]
    grid = classic_grid(crt_shape(game.chart("crt"), game.enums))
    assert len(grid.columns) == 12 and fits_portrait(grid, tuple(labels), 8.0)


def test_aid_prints_codes_in_cells_and_a_key_of_codes(crtlab) -> None:
    html = render_outputs(crtlab.project)["crtlab/crtlab.html"]
    assert '<table class="crt" style="font-size: 7.5pt">' in html  # the dense print's cell size (issue 34)
    cells = "".join(f"<td>{c}</td>" for c in ["AE", "AR", "AR", "AR", "EX", "DR", "DR"])
    assert f'<tr><th scope="row">2</th>{cells}</tr>' in html
    assert "<dt>DR</dt><dd>Defender retreats 1 hex (attacker steps 0, defender steps 0)</dd>" in html
    assert "<dt>1-</dt><dd>1 or less</dd>" in html  # the legend explains the grid's own open end
    # the chance table under the grid ends with the expected step losses (natural roll): at 5:1,
    # DR on 1-2 and DE on 3-6 cost the defender 2 x 4/6 = 1.33 steps
    assert '<tr><th scope="row">avg. defender steps</th><td>0.17</td>' in html
    assert "<td>1.33</td></tr>" in html
    # no internal odds column id reaches the page
    assert "o1_2" not in html and "o3_1" not in html


def test_json_and_python_carry_code_and_meaning(crtlab, tmp_path: Path) -> None:
    outputs = render_outputs(crtlab.project)
    doc = json.loads(outputs["crtlab/crtlab.json"])
    results = next(e for e in doc["enums"] if e["id"] == "crt_result")
    assert results["codes"] is True and results["order"] == ["AE", "AR", "EX", "DR", "DE"]
    assert {"id": "DR", "label": "Defender retreats 1 hex"}.items() <= results["members"][3].items()
    path = tmp_path / "crtlab.py"
    path.write_text(outputs["crtlab/crtlab.py"], encoding="utf-8")
    module = import_module(path, "crtlab_generated")
    assert module.CRT_RESULT_LABELS["DR"] == "Defender retreats 1 hex"
    # odds 9:3 is 3:1; a natural 4 there is DR (rule 7.2, column 3:1, rolls 3-4)
    assert module.lookup_crt(4, odds=module.odds_crt_odds(9, 3))["result"] == "DR"


def test_analyze_cli_human_and_json(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    r = runner.invoke(cli, ["analyze", "crtlab/CRT", "--charts", str(CRTLAB)])
    assert r.exit_code == 0, r.output
    assert "results, worst to best for the attacker: AE < AR < EX < DR < DE" in r.output
    assert "  1:2          0    33.3%  33.3%  16.7%  16.7%  0%     0.83               0.17" in r.output
    r = runner.invoke(cli, ["analyze", "crtlab/CRT", "--drm", "1", "--json", "--charts", str(CRTLAB)])
    doc = json.loads(r.output)
    assert doc["drms"] == [1] and doc["columns"][-1]["column"] == "5:1"
    assert doc["columns"][-1]["chances"]["DE"]["exact"] == "5/6"
    assert doc["columns"][-1]["expected"]["defender_loss"]["exact"] == "5/3"
    r = runner.invoke(cli, ["analyze", "crtlab/crt_odds", "--charts", str(CRTLAB)])
    assert r.exit_code == 2 and "not a combat results table" in r.output


def test_result_order_needs_less_than(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, 'game t { title "T" }\nenum r "R" { codes AE "A" DE "D" order AE > DE }\n')
    assert [d.code for d in comp.diagnostics] == ["C432"]


def test_cli_doc_analyze_example_is_current() -> None:
    # docs/cli.md's `chartc analyze` example is scripts/analyze_example.py's block
    from scripts import analyze_example
    from scripts.doc_block import marked

    page = analyze_example.PAGE.read_text(encoding="utf-8")
    block = marked(analyze_example.BEGIN, analyze_example.END, analyze_example.block())
    assert block in page, "run python scripts/analyze_example.py --write"


GOOD_CRT = (ROOT / "tests" / "cases" / "c430_crt_dominance.ok.chart").read_text(encoding="utf-8")


@pytest.mark.parametrize("side, fired", [("attacker", []), ("defender", ["C431"] * 6)])
def test_declared_roll_direction_is_checked(tmp_path: Path, side: str, fired: list[str]) -> None:
    # the good CRT rises AE -> EX -> DR in each of its three columns: declared for the defender,
    # both steps of every column (AE to EX, EX to DR) go the wrong way
    text = GOOD_CRT.replace("roll 1d6", f"roll 1d6 high_rolls favour {side}")
    comp = compile_text(tmp_path, text)
    assert [d.code for d in comp.diagnostics] == fired
    assert all("as the chart declares" in d.message for d in comp.diagnostics)


# The test CRTs of issue 13: odds with a 3:2 column, differential with negative columns, a
# strength-keyed fire table, and terrain shifts read from a terrain effects chart; each compiles
# (the fixture), looks up, and prints as a classic grid.
LOOKUPS = [
    # 13 vs 10 is between 1:1 and 3:2 and reads 1:1 (`between columns lower`); roll 4 there is EX
    (["CRT", "4", "--attack", "13", "--defense", "10"], "odds: 1:1 (13:10 reads the 1:1 column)", "EX"),
    (["CRT", "3", "--attack", "15", "--defense", "10"], "odds: 3:2", "AR"),
    # 5 vs 8 is -3: the open-ended -3- column; 20 vs 8 is +12: the +7+ column
    (["DCRT", "3", "--attack", "5", "--defense", "8"], "diff: -3-", "AE"),
    (["DCRT", "3", "--attack", "20", "--defense", "8"], "diff: +7+", "DE"),
    # a strength of 3 uses the 2 column; 2d6 roll 11 there is D1
    (["FIRE", "11", "--attack", "3"], "strength: 2 (3 reads the 2 column)", "D1"),
    # 30 vs 10 is 3:1; the defender in a town ([TEC] -2) shifts it two columns left to 1:1
    (["TCRT", "4", "--attack", "30", "--defense", "10", "--shift", "-2"], "odds: 1:1", "EX"),
    # the same shift from the context: [TEC] town -2, the leader +1, so one column left to 2:1
    (
        ["TCRT", "4", "--attack", "30", "--defense", "10", "--set", "terrain=town", "--when", "leader"],
        "Terrain ([TEC] Town) -2, Leader with the attackers +1 = -1",
        "DR",
    ),
]


@pytest.mark.parametrize("args, column, code", LOOKUPS)
def test_test_crts_look_up(monkeypatch, args: list[str], column: str, code: str) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["lookup", f"crtlab/{args[0]}", *args[1:], "--charts", str(CRTLAB)])
    assert r.exit_code == 0, r.output
    assert column in r.output and f"Result: {code} (" in r.output


def test_test_crts_print_as_classic_grids(crtlab) -> None:
    html = render_outputs(crtlab.project)["crtlab/crtlab.html"]
    tables = re.findall(r'<table class="crt" .*?</table>', html, re.S)
    assert len(tables) == 4
    heads = [re.findall(r'<th scope="col">([^<]*)</th>', t) for t in tables]
    assert heads[0] == ["Roll (1d6)", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1"]
    assert heads[1] == ["Roll (1d6)", "-3-", "-2", "-1/0", "+1/+2", "+3/+4", "+5/+6", "+7+"]
    assert heads[2] == ["Roll (2d6)", "1", "2", "4", "6", "8", "12", "16", "20+"]
    assert heads[3] == ["Roll (1d6)", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    # FIRE, 2d6 roll 12+ (the open-ended last line)
    assert "<tr><th scope=\"row\">12+</th>" + "<td>D1</td>" * 4 + "<td>D2</td>" * 4 + "</tr>" in tables[2]


def test_generated_module_chains_odds_into_each_test_crt(crtlab, tmp_path: Path) -> None:
    path = tmp_path / "crtlab.py"
    path.write_text(render_outputs(crtlab.project)["crtlab/crtlab.py"], encoding="utf-8")
    m = import_module(path, "crtlab_chained")
    assert m.lookup_crt(4, odds=m.odds_crt_odds(13, 10))["result"] == "EX"  # 13:10 reads 1:1
    assert m.lookup_dcrt(3, diff=m.odds_crt_diff(5, 8))["result"] == "AE"  # -3 reads -3-
    assert m.lookup_fire(11, strength=m.odds_fire_strength(3))["result"] == "D1"  # 3 reads 2
    # [TEC]: town -2, fortress -3; river and terrain are one group (the worst counts); leader +1
    assert m.shift_tcrt(terrain="town") == -2 and m.shift_tcrt(terrain="fortress", leader=True) == -2
    assert m.shift_tcrt(terrain="woods", river=True, leader=True) == 0
    assert m.lookup_tcrt(4, odds=m.odds_field_odds(30, 10, m.shift_tcrt(terrain="town")))["result"] == "EX"
