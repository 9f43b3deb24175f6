"""Errata on the cells of printed grids (issue 31): a CRT printed by roll and a grid of ranges by odds,
amended with a reason, and the correction shown by lookup, JSON, the module, the aid and the errata sheet."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.cli import cli
from compiler.errata.printing import AS_PRINTED
from compiler.tools.diff import diff_projects, errata_sheet_html
from tests.conftest import codes, compile_text

GAME = '''game t { title "Test game" }
enum crt_result "Combat result" { codes AE "Attacker eliminated" EX "Exchange" DR "Defender retreats"
  order AE < EX < DR }
odds crt_odds "Combat odds" { columns ["1:1", "2:1", "3:1"] attacker_high round down defender_high round up
  beyond clamp }
chart [CRT] "Combat Results" { rule "15.1" roll 1d6 key odds: crt_odds column result: crt_result
  grid odds ["1:1", "2:1", "3:1"] by roll {
    1-2: AE | AE | EX
    3-4: EX | EX | DR
    5-6: DR | DR | DR } }
chart [G] "Odds grid" { rule "15.2" roll 1d6 key odds: crt_odds column result: crt_result
  grid odds ["1:1", "2:1", "3:1"] {
    AE: 1-2 | 1 | -
    EX: 3-4 | 2-4 | 1-2
    DR: 5-6 | 5-6 | 3-6 } }
'''

ERRATA = '''errata e2021 "Official errata (2021)" { source "publisher website" date "2021-03"
  amend CRT { change 3-4 column "2:1" to DR because "15.1: a 2:1 attack that rolls 3-4 retreats the defender" }
  amend G {
    move AE column "2:1" to 1-2 because "the 2 of the 2:1 column was printed in the EX row"
    move EX column "2:1" to 3-4 because "the 2 of the 2:1 column was printed in the EX row"
  }
}
'''


def _row(chart, odds: str, roll: int):
    return next(r for r in chart.rows_for((odds,)) if r.range is not None and r.range.contains(roll))


def test_errata_change_a_crt_cell_by_roll_and_a_grid_range(tmp_path: Path) -> None:
    # IA2 errata 2021 style: a CRT cell corrected by the publisher, with its reason
    comp = compile_text(tmp_path, GAME + ERRATA)
    assert comp.diagnostics == []
    game = comp.project.games["t"]
    cell = _row(game.chart("CRT"), "2:1", 3)
    assert (cell.values, cell.printed_values, cell.errata) == (("DR",), ("EX",), ("e2021",))
    assert cell.because == ("15.1: a 2:1 attack that rolls 3-4 retreats the defender",)
    assert _row(game.chart("CRT"), "1:1", 3).errata == ()  # the other cells of the line stay as printed
    g = game.chart("G")
    assert (_row(g, "2:1", 2).values, _row(g, "2:1", 2).range.printed, _row(g, "2:1", 2).printed_range) == (
        ("AE",), "1-2", "1")
    assert (_row(g, "2:1", 3).values, _row(g, "2:1", 3).printed_range) == (("EX",), "2-4")
    printed = compile_text(tmp_path / "p", GAME).project.games["t"]
    assert _row(printed.chart("CRT"), "2:1", 3).values == ("EX",) and _row(printed.chart("G"), "2:1", 2).values == (
        "EX",)


def test_every_output_shows_the_corrected_cell(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    out = render_outputs(comp.project)
    doc = json.loads(out["t/t.json"])
    crt = next(c for c in doc["charts"] if c["chart_id"] == "CRT")
    [marked] = [r for r in crt["rows"] if "errata" in r]
    assert marked["keys"] == {"odds": "2:1"} and marked["values"] == {"result": "DR"}
    assert marked["printed"] == {"range": "3-4", "values": {"result": "EX"}}
    assert marked["because"] == ["15.1: a 2:1 attack that rolls 3-4 retreats the defender"]
    html = out["t/t.html"]
    assert html.count('<td>DR<sup class="errata">E1</sup></td>') == 2  # rolls 3 and 4 of the 2:1 column
    # a grid cell also names the chart row it stands for (issue 34: the calculator marks it)
    assert re.search(r'<td class="r" data-row="\d+">1-2<sup class="errata">E1</sup>', html)
    assert re.search(r'<td class="r" data-row="\d+">3-4<sup class="errata">E1</sup>', html)
    # the dense print names each errata once in its key and runs the changes on under the chart
    assert "Official errata (2021) (publisher website, 2021-03)" in html
    assert ("E1: Changed cells: 2:1 3-4 (printed EX (Exchange)). Reason: 15.1: a 2:1 attack that rolls 3-4 "
            "retreats the defender.</p>") in html
    assert "2:1 1-2 (printed 1), 2:1 3-4 (printed 2-4)" in html
    # the interactive aid's "as printed" toggle reads the printed cell from the page's data
    live = json.loads(html.split('<script type="application/json" id="chartc-live">')[1].split("</script>")[0])
    [live_cell] = [r for c in live["charts"] if c["address"] == "CRT" for r in c["rows"] if "errata" in r]
    assert live_cell["cells"] == ["DR (Defender retreats)"] and live_cell["printed"]["cells"] == ["EX (Exchange)"]
    module = out["t/t.py"]
    assert "2:1 3-4: e2021, printed EX (Exchange) (15.1: a 2:1 attack that rolls 3-4 retreats the defender)." in module
    assert "2:1 1-2: e2021, printed range 1 (the 2 of the 2:1 column was printed in the EX row)." in module


def test_lookup_cites_the_errata_and_its_reason(tmp_path: Path, monkeypatch) -> None:
    compile_text(tmp_path, GAME + ERRATA)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["lookup", "t/CRT", "3", "--key", "odds=2:1", "--charts", "charts"])
    assert r.exit_code == 0, r.output
    assert "Result: DR (Defender retreats)" in r.stdout
    assert ("Errata: Official errata (2021) (printed EX (Exchange)): 15.1: a 2:1 attack that rolls 3-4 retreats "
            "the defender") in r.stdout
    r = CliRunner().invoke(cli, ["lookup", "t/G", "2", "--key", "odds=2:1", "--charts", "charts", "--json"])
    doc = json.loads(r.stdout)
    assert doc["values"] == {"result": "AE"} and doc["errata"] == {
        "ids": ["e2021"], "printed": {"range": "1", "values": {"result": "AE"}},
        "because": ["the 2 of the 2:1 column was printed in the EX row"]}
    printed = CliRunner().invoke(cli, ["lookup", "t/G", "2", "--key", "odds=2:1", "--charts", "charts", "--as-printed"])
    assert "Result: EX (Exchange)" in printed.stdout and "Errata" not in printed.stdout


def test_errata_sheet_gives_reason_and_rule_per_chart(tmp_path: Path) -> None:
    compile_text(tmp_path, GAME + ERRATA)
    a = load([tmp_path / "charts"], printing=AS_PRINTED).project
    b = load([tmp_path / "charts"]).project
    changes = diff_projects(a, b)
    assert [(c.chart, c.where, c.old, c.new, c.reason, c.rule) for c in changes] == [
        ("CRT", "odds 2:1, roll 3-4: Result", "EX (Exchange)", "DR (Defender retreats)",
         "15.1: a 2:1 attack that rolls 3-4 retreats the defender", "15.1"),
        ("G", "odds 2:1, roll 1", "1", "1-2", "the 2 of the 2:1 column was printed in the EX row", "15.2"),
        ("G", "odds 2:1, roll 2-4", "2-4", "3-4", "the 2 of the 2:1 column was printed in the EX row", "15.2"),
    ]
    html = errata_sheet_html(changes, {"t": "Test game"}, "as printed", "with errata")
    assert '<h3><span class="badge">CRT</span> <span class="cite">rule 15.1</span></h3>' in html
    assert ("<td>EX (Exchange) → DR (Defender retreats)</td><td>15.1: a 2:1 attack that rolls 3-4 retreats the "
            "defender</td>") in html


@pytest.mark.parametrize(
    "amend, message",
    [
        ('amend CRT { change 3-4 column "4:1" to DR }', "changes column `4:1`, which the grid of chart `CRT`"),
        ('amend CRT { change 3-5 column "2:1" to DR }', "names line `3-5` of the grid of chart `CRT`"),
        ('amend G { move DE column "2:1" to 1-2 }', "names result `DE` of the grid of chart `G`"),
        ('amend CRT { move AE column "2:1" to 1-2 }', "moves a grid cell, but chart `CRT` is not printed as a grid"),
        ('amend G { change AE column "2:1" to DR }', "errata can change a cell of the grid chart `G`"),
    ],
)
def test_grid_errata_naming_no_cell_are_c601(tmp_path: Path, amend: str, message: str) -> None:
    comp = compile_text(tmp_path, GAME + f'errata e1 "E" {{ {amend} }}')
    found = [d for d in comp.diagnostics if d.code == "C601"]
    assert len(found) == 1 and message in found[0].message, comp.diagnostics


def test_grid_errata_without_effect_or_in_conflict(tmp_path: Path) -> None:
    same = compile_text(tmp_path, GAME + 'errata e1 "E" { amend CRT { change 3-4 column "2:1" to EX } }')
    assert codes(same) == ["C603"]
    twice = GAME + ('errata e1 "E1" { order 1 amend G { move AE column "2:1" to 1-2 } }\n'
                    'errata e2 "E2" { order 2 amend G { move AE column "2:1" to 1-3 } }\n')
    assert "C602" in codes(compile_text(tmp_path / "b", twice))
    settled = twice.replace("order 2 amend", "order 2 overrides e1 amend")
    comp = compile_text(tmp_path / "c", settled.replace("move EX", "move EX"))
    assert "C602" not in codes(comp)
