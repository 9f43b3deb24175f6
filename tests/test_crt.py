"""CRT odds columns: the USAAF 15.1-15.2 rounding rule, table edges and column shifts."""

from __future__ import annotations

import re
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from compiler.engine.odds import OddsProblem, column, raw_odds
from compiler.model.odds import Beyond, OddsRule, Rounding, ShiftOrder
from dsl.ast import Span
from tests.conftest import ROOT, compile_text, import_module

SPAN = Span("t", 1, 1, 1, 1)


def rule(columns=(), beyond=None, shift=None) -> OddsRule:
    beyond_ = Beyond(beyond) if beyond else None
    shift_ = ShiftOrder(shift) if shift else None
    return OddsRule("r", None, "Odds", None, (), Rounding.DOWN, Rounding.UP, tuple(columns), beyond_, shift_, SPAN)


def test_usaaf_rounding_rule() -> None:
    # USAAF 15.1: 26 attack vs 7 defense is 3.71, rounded down: 3:1
    assert column(rule(), 26, 7) == "3:1"
    # USAAF 15.2: 5 attack vs 11 defense is 2.2, rounded up: 1:3
    assert column(rule(), 5, 11) == "1:3"
    # USAAF 15.3: equal factors are 1:1
    assert column(rule(), 7, 7) == "1:1"
    # just below 2:1 stays 1:1 (rounding down), just above 1:1 for the defender is 1:2 (rounding up)
    assert column(rule(), 13, 7) == "1:1"
    assert column(rule(), 7, 8) == "1:2"


def test_no_factors_is_a_problem() -> None:
    with pytest.raises(OddsProblem):
        raw_odds(rule(), 0, 5)


CRT = ("1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1")


def test_clamp_at_the_table_edges() -> None:
    r = rule(CRT, beyond="clamp", shift="after")
    assert column(r, 90, 10) == "6:1"  # 9:1 reads the 6:1 column
    assert column(r, 2, 11) == "1:2"  # 1:6 reads the 1:2 column


def test_beyond_error() -> None:
    with pytest.raises(OddsProblem, match="off the table"):
        column(rule(CRT, beyond="error"), 90, 10)


def test_shift_order_is_explicit_and_matters() -> None:
    # 9:1 with two column shifts against the attacker
    after = rule(CRT, beyond="clamp", shift="after")
    before = rule(CRT, beyond="clamp", shift="before")
    assert column(after, 90, 10, -2) == "4:1"  # clamp to 6:1, then shift two columns
    assert column(before, 90, 10, -2) == "6:1"  # 9:1 shifted to 7:1, then clamped to 6:1
    assert column(after, 30, 10, +5) == "6:1"  # shifts clamp at the edge too
    with pytest.raises(OddsProblem, match="before or after"):
        column(rule(CRT, beyond="clamp"), 30, 10, 1)


def test_lookup_cli_selects_the_usaaf_column(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["lookup", "usaaf/crt_odds", "--attack", "26", "--defense", "7"])
    assert r.exit_code == 0 and "-> 3:1" in r.output
    r = CliRunner().invoke(cli, ["lookup", "usaaf/crt_odds", "--attack", "5", "--defense", "11", "--json"])
    assert '"column": "1:3"' in r.output
    r = CliRunner().invoke(cli, ["lookup", "usaaf/crt_odds", "--attack", "5"])
    assert r.exit_code == 2


def test_generated_python_odds_function() -> None:
    m = import_module(ROOT / "generated" / "usaaf" / "usaaf.py", "usaaf_generated")
    assert m.odds_crt_odds(26, 7) == "3:1"  # USAAF 15.1
    assert m.odds_crt_odds(5, 11) == "1:3"  # USAAF 15.2
    assert m.odds_crt_odds(7, 7) == "1:1"  # USAAF 15.3
    with pytest.raises(ValueError):
        m.odds_crt_odds(26, 7, shift=1)  # USAAF has no column shifts


def test_crt_keyed_by_odds_columns(tmp_path: Path) -> None:
    comp = compile_text(
        tmp_path,
        'game t { title "T" }\n'
        'odds crt_odds "CRT odds" { columns ["1:2", "1:1", "2:1", "3:1"] attacker_high round down '
        "defender_high round up beyond clamp shift after clamp }\n"
        'chart crt "CRT" { roll 1d6 key odds: crt_odds column result: pair "A/D" '
        'grid odds ["1:2", "1:1", "2:1", "3:1"] { 1/0: 1-3 | 1-2 | 1 | - \n 0/1: 4-6 | 3-6 | 2-6 | 1-6 } }\n',
    )
    assert comp.diagnostics == []
    from compiler.engine.lookup import keys_from_odds, lookup

    game = comp.project.games["t"]
    crt = game.chart("crt")
    keys = keys_from_odds(game, crt, 26, 7, 0)
    assert keys == {"odds": "3:1"}
    assert lookup(crt, "1", keys, 0).values() == {"result": (0, 1)}


def test_odds_columns_must_ascend(tmp_path: Path) -> None:
    comp = compile_text(
        tmp_path,
        'game t { title "T" }\n'
        'odds o "O" { columns ["2:1", "1:1"] attacker_high round down defender_high round up beyond clamp }\n',
    )
    assert [d.code for d in comp.diagnostics] == ["C410"]


def test_beyond_error_applies_after_shifts_before_the_edge() -> None:
    r = rule(("1:2", "1:1", "2:1"), beyond="error", shift="before")
    assert column(r, 3, 1, -1) == "2:1"  # 3:1 is off the table, but one shift left lands on 2:1
    with pytest.raises(OddsProblem, match="off the table"):
        column(r, 1, 1, 5)  # 1:1 shifted five columns leaves the table


def test_generated_odds_function_matches_the_compiler(tmp_path: Path) -> None:
    from compiler.engine.odds import OddsProblem as Problem

    comp = compile_text(
        tmp_path,
        'game t { title "T" }\n'
        'odds a "A" { columns ["1:2", "1:1", "2:1", "3:1"] attacker_high round down defender_high round up '
        "beyond clamp shift after clamp }\n"
        'odds b "B" { columns ["1:2", "1:1", "2:1", "3:1"] attacker_high round nearest defender_high round up '
        "beyond error shift before clamp }\n",
    )
    assert comp.diagnostics == []
    out = tmp_path / "out.py"
    from compiler.emit.python.module import emit_game_python

    out.write_text(emit_game_python(comp.project.games["t"]))
    m = import_module(out, "odds_generated")
    game = comp.project.games["t"]
    for name in ("a", "b"):
        rule_ = game.chart(name).odds
        for attack in range(1, 13):
            for defense in range(1, 13):
                for shift in (-2, 0, 1):
                    try:
                        want: object = column(rule_, attack, defense, shift)
                    except Problem:
                        want = ValueError
                    try:
                        got: object = getattr(m, f"odds_{name}")(attack, defense, shift)
                    except ValueError:
                        got = ValueError
                    assert got == want, (name, attack, defense, shift)


# ---- column forms: exact ratios, differentials, strengths ---------------------------------------
# The forms below follow the CRTs the issue describes (a 3:2 odds CRT, a differential CRT printed
# -3- to +7+, a fire table keyed by strength 1, 2, 4, ... 20+ whose gaps read the next lower column).

FORMS = (
    'game t { title "T" }\n'
    'odds ratio "Odds" { columns ["1:2", "2:3", "1:1", "3:2", "2:1", "3:1"] between columns lower '
    "beyond clamp shift after clamp }\n"
    'odds favour "Odds" { columns ["1:2", "2:3", "1:1", "1.5:1", "2:1", "3:1"] between columns higher '
    "beyond error }\n"
    'odds diff "Differential" { form differential columns ["-3-", "-2", "-1/0", "+1/+2", "+3/+4", "+5/+6", "+7+"] '
    "beyond clamp shift before clamp }\n"
    'odds fire "Fire strength" { form strength domain 1 to 40 columns ["1", "2", "4", "6", "8", "12", "16", "20+"] '
    "between columns lower beyond error }\n"
    'odds band "Strength" { form strength domain 0 to 12 columns ["1-2", "3-5", "6-8", "9+"] beyond clamp }\n'
)


@pytest.fixture
def forms(tmp_path: Path):
    comp = compile_text(tmp_path, FORMS)
    assert comp.diagnostics == []
    return comp.project.games["t"]


def test_non_unit_ratios_compare_exactly(forms) -> None:
    from compiler.engine.odds import read

    lower, higher = forms.chart("ratio").odds, forms.chart("favour").odds
    assert read(lower, 3, 2).column == "3:2"  # exactly 3:2
    assert read(lower, 2, 3).column == "2:3"  # exactly 2:3 (0.666... as a float would not be)
    assert read(lower, 14, 10) == read(lower, 7, 5)  # 7:5 is between 1:1 and 3:2
    assert read(lower, 14, 10).column == "1:1"  # the defender's favour: the lower column
    assert read(higher, 14, 10).column == "1.5:1"  # the attacker's favour; `1.5:1` is 3:2 as printed
    assert read(lower, 9, 10).column == "2:3"  # 9:10 lies between 2:3 and 1:1
    # 26 vs 7 is 26:7, past the 3:1 column: the edge chose it, and the CLI says so
    assert (read(lower, 26, 7).formed, read(lower, 26, 7).column, read(lower, 26, 7).clamped) == ("26:7", "3:1", True)
    with pytest.raises(OddsProblem, match="off the table"):
        read(higher, 4, 10)  # 2:5 lies below the 1:2 edge, and `favour` says `beyond error`


def test_differential_columns(forms) -> None:
    from compiler.engine.odds import read

    diff = forms.chart("diff").odds
    assert read(diff, 5, 7).column == "-2"  # 5 - 7 = -2
    assert read(diff, 4, 4).column == "-1/0"  # 0 is in the joined column -1/0
    assert read(diff, 6, 4).column == "+1/+2"
    assert read(diff, 2, 9).column == "-3-"  # -7: the open low column
    assert read(diff, 20, 1).column == "+7+"  # +19: the open high column
    assert read(diff, 20, 1).formed == "+19"
    assert read(diff, 5, 7, +2).column == "+1/+2"  # two columns right of -2
    assert read(diff, 5, 7, -2).column == "-3-"  # past the open low column: the edge column
    with pytest.raises(OddsProblem, match="both attack and defense"):
        read(diff, 5, None)


def test_strength_columns_with_a_domain(forms) -> None:
    from compiler.engine.odds import read

    fire, band = forms.chart("fire").odds, forms.chart("band").odds
    assert read(fire, 1, None).column == "1"
    assert read(fire, 3, None).column == "2"  # no 3 column: the next lower column
    assert read(fire, 13, None).column == "12"
    assert read(fire, 40, None).column == "20+"
    with pytest.raises(OddsProblem, match="outside the domain"):
        read(fire, 41, None)  # the domain is 1 to 40
    with pytest.raises(OddsProblem, match="outside the domain"):
        read(fire, 0, None)
    with pytest.raises(OddsProblem, match="strength alone"):
        read(fire, 4, 2)
    with pytest.raises(OddsProblem, match="before or after"):
        read(fire, 4, None, 1)
    assert read(band, 7, None).column == "6-8"
    # a strength of 0 is in the domain but below the first column: `beyond clamp` reads 1-2
    assert (read(band, 0, None).column, read(band, 0, None).clamped) == ("1-2", True)


def test_column_forms_refused_with_their_code(tmp_path: Path) -> None:
    head = 'game t { title "T" }\n'
    cases = {
        # a 3:2 column needs to say which column odds between two columns read
        'odds o "O" { columns ["1:1", "3:2", "2:1"] beyond clamp }': ["C420"],
        'odds o "O" { columns ["1:1", "3:2"] between columns lower attacker_high round down beyond clamp }': ["C421"],
        'odds o "O" { form differential columns ["-1-", "+1", "0"] beyond clamp }': ["C410"],
        'odds o "O" { form differential columns ["-1-", "-3-"] beyond clamp }': ["C410"],
        'odds o "O" { form differential columns ["-1", "3:1"] beyond clamp }': ["C402"],
        'odds o "O" { form strength columns ["1", "2+"] beyond clamp }': ["C422"],
        'odds o "O" { form strength domain 5 to 9 columns ["1-2", "5+"] beyond clamp }': ["C422"],
        'odds o "O" { form differential domain 1+ columns ["0+"] beyond clamp }': ["C421"],
        'odds o "O" { form strength domain 1+ }': ["C404"],
    }
    for i, (text, want) in enumerate(cases.items()):
        comp = compile_text(tmp_path / str(i), head + text + "\n")
        assert [d.code for d in comp.diagnostics] == want, text


def test_generated_odds_functions_chain_into_the_crt(tmp_path: Path) -> None:
    from compiler.emit.python.module import emit_game_python

    text = FORMS + (
        'chart crt "Differential CRT" { roll 1d6 key odds: diff column result: text "Result" '
        'grid odds ["-3-", "-2", "-1/0", "+1/+2", "+3/+4", "+5/+6", "+7+"] '
        '{ "AE": 1-6 | 1-5 | 1-4 | 1-3 | 1-2 | 1 | - \n "DE": - | 6 | 5-6 | 4-6 | 3-6 | 2-6 | 1-6 } }\n'
        'chart fire_table "Fire table" { roll 1d6 key strength: fire column result: int "Hits" '
        'grid strength ["1", "2", "4", "6", "8", "12", "16", "20+"] '
        "{ 0: 1-6 | 1-5 | 1-4 | 1-3 | 1-2 | 1 | - | - \n 1: - | 6 | 5-6 | 4-6 | 3-6 | 2-6 | 1-6 | 1-6 } }\n"
    )
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []
    out = tmp_path / "forms.py"
    out.write_text(emit_game_python(comp.project.games["t"]))
    m = import_module(out, "forms_generated")
    assert m.odds_diff(5, 7) == "-2"
    assert m.lookup_crt(5, odds=m.odds_diff(5, 7)) == {"result": "AE"}  # -2 column: 1-5 AE
    assert m.lookup_crt(6, odds=m.odds_diff(5, 7)) == {"result": "DE"}
    assert m.odds_fire(3) == "2"  # the next lower column
    assert m.lookup_fire_table(6, strength=m.odds_fire(3)) == {"result": 1}
    assert m.odds_ratio(14, 10) == "1:1"
    with pytest.raises(ValueError, match="outside the domain"):
        m.odds_fire(41)
    game = comp.project.games["t"]
    for name in ("ratio", "favour", "diff"):
        rule_ = game.chart(name).odds
        for attack in range(0, 13):
            for defense in range(0, 13):
                for shift in (-2, 0, 1):
                    try:
                        want: object = column(rule_, attack, defense, shift)
                    except OddsProblem:
                        want = ValueError
                    try:
                        got: object = getattr(m, f"odds_{name}")(attack, defense, shift)
                    except ValueError:
                        got = ValueError
                    assert got == want, (name, attack, defense, shift)


def _cli(tmp_path: Path, *args: str):
    return CliRunner().invoke(cli, ["lookup", *args, "--charts", str(tmp_path / "charts")])


def test_cli_says_when_the_table_edge_chose_the_column(tmp_path: Path) -> None:
    comp = compile_text(
        tmp_path,
        FORMS + 'odds usaaf "USAAF" { columns ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1"] '
        "attacker_high round down defender_high round up beyond clamp shift after clamp }\n",
    )
    assert comp.diagnostics == []
    r = _cli(tmp_path, "t/usaaf", "--attack", "70", "--defense", "10")
    # USAAF 15.1 rounding: 70 vs 10 is 7:1, and the table ends at 5:1
    assert (
        r.exit_code == 0 and "attack 70 vs defense 10 -> 5:1 (7:1 reads the 5:1 column: the table's edge)" in r.output
    )
    r = _cli(tmp_path, "t/usaaf", "--attack", "26", "--defense", "7")
    assert r.exit_code == 0 and r.output.endswith("-> 3:1\n")  # 26 vs 7 is 3:1, the column's own odds
    r = _cli(tmp_path, "t/usaaf", "--attack", "70", "--defense", "10", "--json")
    assert '"odds": "7:1", "column": "5:1", "clamped": true' in r.output


def test_repeated_shifts_add_up(tmp_path: Path) -> None:
    compile_text(tmp_path, FORMS)
    r = _cli(tmp_path, "t/ratio", "--attack", "3", "--defense", "1", "--shift", "-2", "--shift", "+1")
    # 3:1 shifted -2 then +1 is one column left: 2:1 (shifts are summed, then applied after the edge)
    assert r.exit_code == 0 and "shift -1 -> 2:1 (3:1 shifted -1 reads the 2:1 column)" in r.output
    r = _cli(tmp_path, "t/ratio", "--shift", "1")
    assert r.exit_code == 2 and "give --attack and --defense" in r.output


def test_cli_reads_strength_and_differential_columns(tmp_path: Path) -> None:
    compile_text(tmp_path, FORMS)
    r = _cli(tmp_path, "t/fire", "--attack", "3")
    assert r.exit_code == 0 and "strength 3 -> 2 (3 reads the 2 column)" in r.output
    r = _cli(tmp_path, "t/fire", "--attack", "3", "--defense", "2")
    assert r.exit_code == 2 and "reads the attack strength alone" in r.output
    r = _cli(tmp_path, "t/fire", "--attack", "41")
    assert r.exit_code == 1 and "strength 41 is outside the domain of `fire` (1 to 40)" in r.output
    r = _cli(tmp_path, "t/diff", "--attack", "4", "--defense", "4")
    assert r.exit_code == 0 and "attack 4 vs defense 4 -> -1/0 (0 reads the -1/0 column)" in r.output
    r = _cli(tmp_path, "t/diff", "--attack", "4")
    assert r.exit_code == 2 and "give both --attack and --defense" in r.output


# ---- column shifts as data ------------------------------------------------------------------------
# A CRT with the usual shifts: the defender's terrain from the terrain effects chart, a river and
# the terrain in one group of which only the worst counts, a leader, night; the total held to -2..+2.

SHIFTS = (
    'game t { title "T" }\n'
    'odds crt_odds "Odds" { columns ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"] '
    "attacker_high round down defender_high round up beyond clamp shift after clamp }\n"
    'enum terrain "Terrain" { clear "Clear" woods "Woods" town "Town" }\n'
    'context terrain: terrain "Defender\'s terrain"\n'
    'context river: flag "Attack across a river"\n'
    'context leader: flag "Attacking leader"\n'
    'context night: flag "Night"\n'
    'chart [TEC] "Terrain Effects Chart" { key terrain: terrain column shift: int "Column shift" '
    "rows { clear: 0  woods: -1  town: -2 } }\n"
    'chart [CRT] "Combat Results Table" { roll 1d6 key odds: crt_odds column result: text "Result"\n'
    '  shift_group defence "Terrain or river" worst {\n'
    '    shift terrain "Terrain" from [TEC] column shift by terrain\n'
    '    shift river "Across a river" -1 when river\n'
    "  }\n"
    '  shift leader "Leader" +1 when leader\n'
    '  shift night "Night" -1 when night\n'
    "  shift_cap -2 to +2\n"
    '  grid odds ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"] '
    '{ "AE": 1-6 | 1-5 | 1-4 | 1-3 | 1-2 | 1 | -\n "DE": - | 6 | 5-6 | 4-6 | 3-6 | 2-6 | 1-6 } }\n'
)


@pytest.fixture
def shifts_game(tmp_path: Path):
    comp = compile_text(tmp_path, SHIFTS)
    assert comp.diagnostics == []
    return comp.project.games["t"]


def test_shift_breakdown(shifts_game) -> None:
    from compiler.engine.shifts import breakdown

    crt = shifts_game.chart("CRT")
    assert breakdown(crt, {}).terms == ()
    assert breakdown(crt, {"terrain": "woods"}).text() == "Terrain ([TEC] Woods) -1 = -1"
    # woods -1 and a river -1 are one group of which only the worst counts: the terrain, listed first
    assert breakdown(crt, {"terrain": "woods", "river": True}).total == -1
    # a river -1 is worse than clear terrain (0): the river counts
    assert breakdown(crt, {"terrain": "clear", "river": True}).text() == "Across a river -1 = -1"
    assert breakdown(crt, {"terrain": "town", "leader": True}).total == -1  # -2 + 1
    # town -2 and night -1 make -3, held to the cap of -2
    town_night = breakdown(crt, {"terrain": "town", "night": True})
    assert (town_night.total, town_night.text()) == (-2, "Terrain ([TEC] Town) -2, Night -1 = -2 (capped)")


def test_the_terrain_effects_chart_is_the_one_source(tmp_path: Path) -> None:
    from compiler.engine.shifts import breakdown

    # the TEC reprinted with town at -1: the CRT's shift follows, as nothing else states it
    comp = compile_text(tmp_path, SHIFTS.replace("town: -2 }", "town: -1 }"))
    assert comp.diagnostics == []
    game = comp.project.games["t"]
    crt = game.chart("CRT")
    assert breakdown(crt, {"terrain": "town"}).total == -1
    source = crt.shifts.shifts[0].source
    assert (source.chart, source.column, source.values) == ("TEC", "shift", (("clear", 0), ("woods", -1), ("town", -1)))


def test_lookup_applies_the_crt_shifts(shifts_game) -> None:
    from compiler.engine.lookup import Forces, answer
    from compiler.query.lookup import lookup_lines

    crt = shifts_game.chart("CRT")
    # 30 vs 10 is 3:1; woods -1, leader +1, night -1 shift one column left: 2:1, where a 4 is AE
    result = answer(shifts_game, crt, "4", {}, 0, Forces(30, 10), {"terrain": "woods", "leader": True, "night": True})
    assert result.values() == {"result": "AE"}
    assert lookup_lines(shifts_game, result)[1:3] == [
        "  column shifts: Terrain ([TEC] Woods) -1, Leader +1, Night -1 = -1",
        "  odds: 2:1 (3:1 shifted -1 reads the 2:1 column)",
    ]
    # a --shift +1 from the caller adds to the CRT's own shifts: back on 3:1, where a 4 is DE
    again = answer(shifts_game, crt, "4", {}, 0, Forces(30, 10, 1), {"terrain": "woods", "leader": True, "night": True})
    assert again.values() == {"result": "DE"}


def test_generated_shift_function_agrees_and_chains(shifts_game, tmp_path: Path) -> None:
    import itertools

    from compiler.emit.python.module import emit_game_python
    from compiler.engine.shifts import breakdown

    out = tmp_path / "shifts.py"
    out.write_text(emit_game_python(shifts_game))
    m = import_module(out, "shifts_generated")
    crt = shifts_game.chart("CRT")
    for terrain, river, leader, night in itertools.product((None, "clear", "woods", "town"), *[(False, True)] * 3):
        context = {"terrain": terrain, "river": river, "leader": leader, "night": night}
        assert m.shift_crt(**context) == breakdown(crt, context).total, context
    shift = m.shift_crt(terrain="woods", leader=True, night=True)
    assert m.lookup_crt(4, odds=m.odds_crt_odds(30, 10, shift)) == {"result": "AE"}  # as the lookup above
    with pytest.raises(ValueError, match="'swamp' is not a value of terrain"):
        m.shift_crt(terrain="swamp")


def test_shift_findings(tmp_path: Path) -> None:
    head, crt = SHIFTS.split("chart [CRT]")
    cases = {
        "  }\n": ('  }\n  shift_group defence "Again" best { shift x "X" +1 }\n', ["C202"]),
        "shift_cap -2 to +2": ("shift_cap +2 to -2", ["C424"]),
        "from [TEC] column shift": ("from [TEX] column shift", ["C201"]),
        "by terrain\n": ("by night\n", ["C425"]),
    }
    for i, (old, (new, want)) in enumerate(cases.items()):
        comp = compile_text(tmp_path / str(i), head + "chart [CRT]" + crt.replace(old, new))
        assert [d.code for d in comp.diagnostics] == want, new
    # no `shift ... clamp` in the odds rule: the CRT cannot say when its shifts apply
    comp = compile_text(tmp_path / "order", SHIFTS.replace(" shift after clamp", ""))
    assert [d.code for d in comp.diagnostics] == ["C423"]
    # a town row missing from the TEC: the shift has no value for it
    comp = compile_text(tmp_path / "row", SHIFTS.replace("  town: -2 }", " }"))
    assert "C425" in [d.code for d in comp.diagnostics]


# ---- no internal column ids in what a player or a program reads -------------------------------------

INTERNAL_ID = re.compile(r"\bo\d+_\d+\b")  # the ids odds columns had before they were their labels


def test_no_internal_column_id_in_outputs_or_cli_messages(tmp_path: Path) -> None:
    from compiler.build.project import load
    from compiler.build.render import render_outputs

    crts = (FORMS + SHIFTS.replace('game t { title "T" }\n', "")).replace(
        'odds ratio "Odds"', 'odds ratio "Ratio odds"'
    ) + (
        'chart diff_crt "Differential CRT" { roll 1d6 key odds: diff column result: text "Result" '
        'grid odds ["-3-", "-2", "-1/0", "+1/+2", "+3/+4", "+5/+6", "+7+"] '
        '{ "AE": 1-6 | 1-5 | 1-4 | 1-3 | 1-2 | 1 | - \n "DE": - | 6 | 5-6 | 4-6 | 3-6 | 2-6 | 1-6 } }\n'
    )
    comp = compile_text(tmp_path, crts)
    assert comp.diagnostics == []
    outputs = render_outputs(comp.project)
    crtlab = ROOT / "tests" / "data" / "charts" / "crtlab"  # the test CRTs of the aid and `analyze`
    lab = load([crtlab])
    assert not lab.has_errors
    outputs |= render_outputs(lab.project)
    corpus = [p for p in (ROOT / "generated").rglob("*") if p.suffix in (".json", ".html")]
    texts = {name: text for name, text in outputs.items() if not name.endswith(".py")}
    texts |= {str(p): p.read_text(encoding="utf-8") for p in corpus}
    assert '"3:1"' in outputs["t/t.json"]  # the CRT rows are keyed by the printed column
    charts = str(tmp_path / "charts")
    runs = [
        ["lookup", "t/CRT", "4", "--attack", "30", "--defense", "10"],
        ["lookup", "t/CRT", "4", "--key", "odds=7:1"],
        ["lookup", "t/CRT", "4", "--attack", "90", "--defense", "10", "--json"],
        ["lookup", "t/crt_odds", "--attack", "90", "--defense", "10"],
        ["lookup", "t/diff_crt", "4", "--attack", "2", "--defense", "9"],
        ["lookup", "t/favour", "--attack", "1", "--defense", "9"],
        ["odds", "t/CRT", "--key", "odds=3:1"],
        ["odds", "t/CRT", "--key", "odds=3:1", "--format", "json"],
        ["lookup", "usaaf/crt_odds", "--attack", "26", "--defense", "7", "--charts", str(ROOT / "charts")],
    ]
    lab_charts = str(crtlab.parent)
    runs += [
        ["lookup", "crtlab/CRT", "4", "--attack", "15", "--defense", "10", "--charts", lab_charts],
        ["lookup", "crtlab/CRT", "4", "--key", "odds=9:1", "--charts", lab_charts],
        ["lookup", "crtlab/DCRT", "4", "--attack", "3", "--defense", "9", "--json", "--charts", lab_charts],
        ["odds", "crtlab/FIRE", "--attack", "3", "--charts", lab_charts],
        ["analyze", "crtlab/CRT", "--charts", lab_charts],
        [
            "lookup",
            "crtlab/TCRT",
            "4",
            "--attack",
            "90",
            "--defense",
            "10",
            "--set",
            "terrain=town",
            "--charts",
            lab_charts,
        ],
        ["odds", "crtlab/TCRT", "--attack", "90", "--defense", "10", "--format", "json", "--charts", lab_charts],
    ]
    for args in runs:
        r = CliRunner().invoke(cli, args if "--charts" in args else [*args, "--charts", charts])
        assert r.exception is None or isinstance(r.exception, SystemExit), args
        texts[" ".join(args)] = r.output
    assert texts["lookup t/CRT 4 --key odds=7:1"].count("6:1") == 2  # did you mean `6:1`? ... 6:1
    leaks = {name: INTERNAL_ID.findall(text) for name, text in texts.items() if INTERNAL_ID.search(text)}
    assert leaks == {}


def test_too_many_chances_is_not_called_odds(tmp_path: Path) -> None:
    # C415's last limit counts chances (key combinations x DRM totals x rows), not CRT odds
    members = " ".join(f"m{i}" for i in range(40))
    drms = " ".join(f"drm d{i} +1 when f{i}" for i in range(40))
    contexts = "".join(f"context f{i}: flag\n" for i in range(40))
    rows = " ".join(f"* {i}: {i}" for i in range(1, 101))
    text = (
        f'game t {{ title "T" }}\nenum e {{ {members} }}\n{contexts}'
        f'chart [R1] "Big" {{ roll 1d100 key e: e column r: int "R" {drms} rows {{ {rows} }} }}\n'
    )
    comp = compile_text(tmp_path, text)
    [d] = [d for d in comp.diagnostics if d.code == "C415"]
    assert "40 key combinations x 41 DRM totals x 100 rows: more chances to compute than 100000" in d.message
    assert "odds" not in d.message


def test_the_aid_prints_the_terrain_shift_in_both_places(shifts_game) -> None:
    from compiler.emit.html.aid import emit_game_html

    html = emit_game_html(shifts_game, "a4", False, shifts_game.aid_order)
    tec = html[html.index('id="chart-tec"') : html.index('id="chart-crt"')]
    crt = html[html.index('id="chart-crt"') :]
    assert '<th scope="col">Column shift</th>' in tec
    assert re.search(r'<tr data-row="\d+"><th scope="row" class="text">Woods</th><td class="text">-1</td></tr>', tec)
    assert (
        "<li>Terrain: per [TEC] Terrain Effects Chart, Column shift (Woods 1 column left, Town 2 columns left) "
        "(of group defence, only the worst applies)</li>"
    ) in crt
    assert "<li>Leader: 1 column right when Attacking leader</li>" in crt
    assert "Total shift limited to −2 to +2 columns." in crt
    assert "The total shift applies after the odds table&#39;s edge." in crt


def test_odds_command_reads_a_crt_from_forces(tmp_path: Path) -> None:
    compile_text(tmp_path, SHIFTS)
    charts = str(tmp_path / "charts")
    # 90 vs 10 is 9:1: the 6:1 column at the table's edge, then --shift -1: 5:1, where 1 is AE
    r = CliRunner().invoke(
        cli, ["odds", "t/CRT", "--attack", "90", "--defense", "10", "--shift", "-1", "--charts", charts]
    )
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[1:3] == [
        "  column shifts: none",
        "  odds: 5:1 (9:1 shifted -1 reads the 5:1 column: the table's edge)",
    ]
    assert "  1     1/6 (16.7%)  AE" in r.output and "  2-6   5/6 (83.3%)  DE" in r.output
    r = CliRunner().invoke(
        cli, ["odds", "t/CRT", "--attack", "90", "--defense", "10", "--format", "json", "--charts", charts]
    )
    assert '"odds_read": {\n    "odds": {\n      "odds": "9:1",\n      "shift": 0,\n      "column": "6:1"' in r.output
    r = CliRunner().invoke(cli, ["odds", "t/CRT", "--defense", "10", "--charts", charts])
    assert r.exit_code == 2 and "give --attack with --defense" in r.output


def _oracle(columns: list[tuple[F, F]], value: F, between: str) -> int | None:
    """The column an odds value reads, from the definition alone: the column holding it, else the
    nearest column below (`lower`) or above (`higher`); None past either end."""
    holding = [i for i, (lo, hi) in enumerate(columns) if lo <= value <= hi]
    if holding:
        return holding[0]
    below = [i for i, (_, hi) in enumerate(columns) if hi < value]
    above = [i for i, (lo, _) in enumerate(columns) if lo > value]
    if not below or not above:
        return None
    return below[-1] if between == "lower" else above[0]


def test_column_forms_agree_with_their_definition(forms) -> None:
    from compiler.engine.odds import parse_band, parse_fraction

    inf = F(10**9)
    for name, between in (("ratio", "lower"), ("favour", "higher")):
        rule_ = forms.chart(name).odds
        points = [parse_fraction(c) for c in rule_.columns]
        for attack in range(1, 31):
            for defense in range(1, 31):
                want = _oracle([(p, p) for p in points], F(attack, defense), between)
                try:
                    got = rule_.columns.index(column(rule_, attack, defense))
                except OddsProblem:
                    got = None  # `favour` says `beyond error`
                if want is not None:
                    assert got == want, (name, attack, defense)
                elif got is not None:  # past an end: `ratio` clamps to the edge column
                    assert got in (0, len(points) - 1) and name == "ratio", (name, attack, defense)
    for name in ("diff", "fire", "band"):
        rule_ = forms.chart(name).odds
        bands = [parse_band(c) for c in rule_.columns]
        spans = [(F(-inf if lo is None else lo), F(inf if hi is None else hi)) for lo, hi in bands]
        for attack in range(0, 41):
            for defense in range(0, 15) if name == "diff" else (None,):
                value = F(attack - (defense or 0))
                want = _oracle(spans, value, str(rule_.between or "lower"))
                try:
                    got = rule_.columns.index(column(rule_, attack, defense))
                except OddsProblem:
                    got = None  # outside the domain, or below `fire`'s first column (`beyond error`)
                if want is not None and (
                    rule_.domain is None or rule_.domain[0] <= attack <= (rule_.domain[1] or attack)
                ):
                    assert got == want, (name, attack, defense)


def test_a_drm_read_from_the_terrain_effects_chart(tmp_path: Path) -> None:
    from compiler.emit.python.module import emit_game_python
    from compiler.engine.lookup import lookup

    # the TEC gains a DRM column: town +1 (attacking into town is harder for the defender to hold)
    text = SHIFTS.replace(
        'column shift: int "Column shift" rows { clear: 0  woods: -1  town: -2 }',
        'column shift: int "Column shift" column drm: int "DRM" rows { clear: 0, 0  woods: -1, 0  town: -2, +1 }',
    )
    text = text.replace(
        "  shift_cap -2 to +2\n", '  shift_cap -2 to +2\n  drm terrain_drm "Terrain" from [TEC] column drm by terrain\n'
    )
    text = text.replace('"DE": - | 6 | 5-6 | 4-6 | 3-6 | 2-6 | 1-6 }', '"DE": 7+ | 6+ | 5+ | 4+ | 3+ | 2+ | 1+ }')
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []
    game = comp.project.games["t"]
    crt = game.chart("CRT")
    [drm] = crt.drms  # one DRM per terrain with a DRM on the TEC: town
    assert (drm.id, drm.label, drm.value) == ("terrain_drm_town", "Terrain ([TEC] Town)", 1)
    assert crt.drm_sources[0].source.values == (("clear", 0), ("woods", 0), ("town", 1))
    out = tmp_path / "tec_drm.py"
    out.write_text(emit_game_python(game))
    m = import_module(out, "tec_drm_generated")
    assert (m.drm_crt(terrain="town"), m.drm_crt(terrain="woods")) == (1, 0)
    # 3:1, natural 3 + 1 in town: 4, which is DE on the 3:1 column (AE 1-3)
    assert m.lookup_crt(3, odds="3:1", drm=m.drm_crt(terrain="town")) == {"result": "DE"}
    assert lookup(crt, "3", {"odds": "3:1"}, 1).values() == {"result": "DE"}


def test_cli_reads_the_shifts_context(tmp_path: Path) -> None:
    compile_text(tmp_path, SHIFTS)
    charts = str(tmp_path / "charts")
    args = ["t/CRT", "4", "--attack", "30", "--defense", "10", "--set", "terrain=Woods", "--when", "leader"]
    r = CliRunner().invoke(cli, ["lookup", *args, "--when", "night", "--charts", charts])
    # woods -1, leader +1, night -1: 3:1 reads one column left, 2:1, where a 4 is AE
    assert r.exit_code == 0, r.output
    assert "  column shifts: Terrain ([TEC] Woods) -1, Leader +1, Night -1 = -1\n" in r.output
    assert "  odds: 2:1 (3:1 shifted -1 reads the 2:1 column)\n" in r.output and r.output.endswith("Result: AE\n")
    r = CliRunner().invoke(cli, ["odds", *[a for a in args if a != "4"], "--charts", charts])
    # woods -1 and leader +1 cancel: the 3:1 column, where 1-3 is AE
    assert r.exit_code == 0 and "  odds: 3:1\n" in r.output and "  1-3   1/2 (50%)  AE" in r.output, r.output


def test_shift_before_clamp_counts_steps_past_a_closed_edge(tmp_path: Path) -> None:
    from compiler.engine.odds import read

    comp = compile_text(
        tmp_path,
        'game t { title "T" }\n'
        'odds d "D" { form differential columns ["-1/0", "+1/+2", "+3/+4", "+5/+6", "+7"] beyond clamp '
        "shift before clamp }\n"
        'odds r "R" { columns ["1:1", "3:2", "2:1", "3:1"] between columns lower beyond error shift before clamp }\n',
    )
    assert comp.diagnostics == []
    diff, ratio = comp.project.games["t"].chart("d").odds, comp.project.games["t"].chart("r").odds
    # +9 is two points past the closed +7 column: a shift of -2 lands on +7, -3 on +5/+6
    assert (read(diff, 10, 1, -2).column, read(diff, 10, 1, -3).column) == ("+7", "+5/+6")
    assert read(diff, 10, 1).clamped and not read(diff, 10, 1, -2).clamped
    # 5:1 is two whole odds past 3:1: shifted -2 it reads 3:1; shifted -1 it is still off the table
    assert read(ratio, 5, 1, -2).column == "3:1"
    with pytest.raises(OddsProblem, match="5:1 shifted -1 is off the table"):
        read(ratio, 5, 1, -1)


def test_a_shift_cannot_test_the_crt_keys(tmp_path: Path) -> None:
    # a column shift is read before the column is known, from the context: not from the CRT's keys
    text = SHIFTS.replace(
        "  shift_cap -2 to +2\n", '  shift odds_shift "Low odds" +1 when odds == "1:2"\n  shift_cap -2 to +2\n'
    )
    comp = compile_text(tmp_path, text)
    assert [(d.code, d.message) for d in comp.diagnostics] == [
        ("C407", "shift `odds_shift` tests the chart's key `odds`: a column shift reads context variables only")
    ]


def test_shift_group_modes(tmp_path: Path) -> None:
    from compiler.engine.shifts import breakdown

    # the defence group as `best` and as `one`: woods -1 and a river -1 tie; clear 0 with a river
    for mode, context, want in (
        ("best", {"terrain": "town", "river": True}, -1),  # the river's -1 beats the town's -2
        ("one", {"terrain": "town", "river": True}, -2),  # the first declared that applies: terrain
        ("one", {"terrain": "clear", "river": True}, -1),  # clear is 0, so the river is the first
    ):
        comp = compile_text(
            tmp_path / f"{mode}{want}", SHIFTS.replace('"Terrain or river" worst', f'"Terrain or river" {mode}')
        )
        # issue 32: a `one` group whose shifts can both apply keeps the first silently: a warning now
        assert [d.code for d in comp.diagnostics] == (["C426"] if mode == "one" else [])
        assert breakdown(comp.project.games["t"].chart("CRT"), context).total == want, (mode, context)


def test_a_named_odds_column_with_shifts_in_the_context_is_refused(tmp_path: Path) -> None:
    # docs/language.md, Column shifts: the shifts move the column the odds give. `--key odds=3:1`
    # names the column read, so a town's -2 was silently dropped (a new user's `lookup skirmish/CRT
    # 3 --key odds=3:1 --set terrain=town` printed 3:1); now it is refused, as a usage error
    compile_text(tmp_path, SHIFTS)
    charts = str(tmp_path / "charts")
    for command in (["lookup", "t/CRT", "4"], ["odds", "t/CRT"]):
        r = CliRunner().invoke(cli, [*command, "--key", "odds=3:1", "--set", "terrain=town", "--charts", charts])
        assert r.exit_code == 2, r.output
        assert (
            "--key odds=3:1 names the odds column itself, but the CRT's column shifts apply "
            "(Terrain ([TEC] Town) -2 = -2): give --attack/--defense"
        ) in r.output
        # clear terrain shifts nothing, and a leader's +1 and woods' -1 cancel: the named column is read
        for context in (["--set", "terrain=clear"], ["--set", "terrain=woods", "--when", "leader"]):
            r = CliRunner().invoke(cli, [*command, "--key", "odds=3:1", *context, "--charts", charts])
            assert r.exit_code == 0 and "  odds: 3:1\n" in r.output, r.output
