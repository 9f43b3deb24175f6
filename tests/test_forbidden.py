"""`forbidden when COND`: a prohibition the rules state ("the Ju 88C-6a cannot attack from approach
track 1", IA2 11.5) as a case of a limit, and C492 where a chart's count column held `within` the
limit gives a count the case forbids."""

from __future__ import annotations

import json
from pathlib import Path

from compiler.build.project import Compilation
from compiler.model import BoundKind
from tests.conftest import codes, compile_text

_JU88 = (
    'game t { title "T" }\n'
    'enum aircraft { fw190a8 "FW 190A-8" ju88c6a "Ju 88C-6a" }\n'
    'context aircraft_flown: aircraft "the aircraft you fly"\n'
    'context green_pilot: flag "Green pilot"\n'
    'limit track_1 "Attacks from approach track 1" { rule "10.7, 11.5" counts "attacks"\n'
    '  forbidden when aircraft_flown == ju88c6a cite "11.5: the Ju 88C-6a cannot attack from approach track 1"\n'
    "  at most 1 }\n"
)


def test_ia2_states_eleven_prohibitions_as_forbidden(corpus: Compilation) -> None:
    game = corpus.project.games["ia2"]
    forbidden = sorted(
        (limit.id, case.cite.split(":")[0] if case.cite else "")
        for limit in game.limits
        for case in limit.cases
        if case.bound.kind is BoundKind.FORBIDDEN
    )
    assert forbidden == [
        ("advanced_maneuver_uses", "11.5"),  # the Ju 88C-6a may not use advanced maneuvers
        ("advanced_maneuvers_bought", "10.12"),  # a Green pilot may not purchase them
        ("approach_track_1_attacks", "10.7, 11.5"),
        ("bomber_interceptions", "7.2.2.10"),  # not in the endurance box after fighter combat
        ("bomber_interceptions", "7.4.1"),  # your speed is lower than the bombers'
        ("ek1_awards", "7.8.3"),  # the EK2 before the EK1
        ("escort_combats_avoided", "7.2.1"),  # you normally cannot avoid combat with the escorts
        ("forward_weapons_held", "7.1.3"),  # the basic game fires all unjammed forward weapons together
        ("gold_clasp", "7.8.5 Game Note"),  # not obtainable within the frame of the game
        ("tour_base_changes", "10.15.2"),  # you may not change bases (Tour of Duty)
        ("vertical_attacks", "11.5"),
    ]


def test_a_player_asks_and_reads_forbidden(run) -> None:
    result = run("lookup", "ia2/approach_track_1_attacks", "--key", "aircraft_flown=ju88c6a", "--json")
    bound = json.loads(result.output)["bound"]
    assert bound == {"kind": "forbidden", "min": 0, "max": 0, "text": "forbidden"}
    # any other aircraft: 10.7's one attack a pass is not limited here
    result = run("lookup", "ia2/approach_track_1_attacks", "--key", "aircraft_flown=fw190a8")
    assert "forbidden" not in result.output


def test_forbidden_reads_as_none_in_a_fact(tmp_path: Path) -> None:
    # a forbidden case is the number 0: held against a count of no records it agrees
    same = "same limit track_1 (aircraft_flown=ju88c6a) as count aircraft where family == x"
    text = _JU88 + f'invariant zero "11.5: none" {{ {same} }}\n'
    text = text.replace('enum aircraft {', 'enum family { x "X" y "Y" }\nenum aircraft { fields { family: family }', 1)
    text = text.replace('fw190a8 "FW 190A-8"', 'fw190a8 "FW 190A-8" { family: y }').replace(
        'ju88c6a "Ju 88C-6a"', 'ju88c6a "Ju 88C-6a" { family: y }'
    )
    assert codes(compile_text(tmp_path, text)) == []


def test_a_chart_that_does_not_key_the_condition_is_not_judged(tmp_path: Path) -> None:
    # the chart is not keyed by aircraft_flown: which aircraft reads it is not the chart's to say
    chart = 'chart c "C" { roll 1d6 column attacks: int "Attacks" within track_1 rows { 1-3: 0 4-6: 1 } }\n'
    assert codes(compile_text(tmp_path, _JU88 + chart)) == []


def test_a_flag_the_chart_does_not_key_is_undecided(tmp_path: Path) -> None:
    # `forbidden when not green_pilot`: a flag left out reads false in a lookup, but a chart that does
    # not key it says nothing of it
    limit = 'limit buys "Skills bought" { rule "10.12" forbidden when not green_pilot at most 4 }\n'
    chart = 'chart c "C" { roll 1d6 column skills: int "Skills" within buys rows { 1-6: 1 } }\n'
    assert codes(compile_text(tmp_path, _JU88 + limit + chart)) == []


def test_an_unconditional_prohibition_holds_every_cell(tmp_path: Path) -> None:
    # IA2 7.8.5 Game Note: the Operational Flight Clasp in Gold is not obtainable within the game
    limit = 'limit gold "Clasps in Gold" { rule "7.8.5" forbidden cite "7.8.5: not obtainable" }\n'
    chart = 'chart c "C" { roll 1d6 column clasps: int "Clasps" within gold rows { 1-5: 0 6: 1 } }\n'
    comp = compile_text(tmp_path, _JU88 + limit + chart)
    assert [(d.code, d.message) for d in comp.diagnostics] == [
        ("C492", "chart `c` gives clasps `1`, where limit `gold` (Clasps in Gold) is forbidden (7.8.5: not obtainable)")
    ]


def test_within_names_a_limit_of_an_int_column(tmp_path: Path) -> None:
    text_col = 'chart c "C" { roll 1d6 column a: text "A" within track_1 rows { 1-6: "x" } }\n'
    assert codes(compile_text(tmp_path / "text", _JU88 + text_col)) == ["C402"]
    unknown = 'chart c "C" { roll 1d6 column a: int "A" within track_2 rows { 1-6: 0 } }\n'
    comp = compile_text(tmp_path / "unknown", _JU88 + unknown)
    assert [(d.code, d.help) for d in comp.diagnostics] == [("C201", "did you mean `track_1`?")]


def test_allowances_before_an_unconditional_prohibition_are_read_on_the_charts_keys(tmp_path: Path) -> None:
    # IA2 7.2.1: "you normally cannot avoid combat with the escorts (exceptions: 7.1.10 ...)": the Escape
    # Chart's success allows one, otherwise forbidden. A chart keyed by the outcome gives a count only
    # where the allowance holds.
    head = (
        'game t { title "T" }\n'
        'enum outcome { escaped "Escaped on R4" engaged "Combat" }\n'
        'context r4_outcome: outcome "Escape Chart outcome"\n'
        'limit avoided "Escort combats avoided" { rule "7.2.1"\n'
        '  at most 1 when r4_outcome == escaped cite "7.1.10: a successful roll on the Escape Chart [R4]"\n'
        '  forbidden cite "7.2.1: you normally cannot avoid combat with the escorts" }\n'
    )
    chart = 'chart c "C" {{ key r4_outcome: outcome column n: int "Avoided" within avoided rows {{ {rows} }} }}\n'
    ok = compile_text(tmp_path / "ok", head + chart.format(rows="escaped: 1 engaged: 0"))
    assert codes(ok) == []
    wrong = compile_text(tmp_path / "wrong", head + chart.format(rows="escaped: 1 engaged: 1"))
    assert [(d.code, d.message) for d in wrong.diagnostics] == [
        ("C492", "chart `c` gives n `1` for r4_outcome `Combat`, where limit `avoided` (Escort combats avoided) "
                 "is forbidden (7.2.1: you normally cannot avoid combat with the escorts)")
    ]


def test_the_aid_prints_forbidden_capitalised(tmp_path: Path) -> None:
    # IA2 11.5's prohibition, as the aid's limits list prints it: the case reads `Forbidden`, as a
    # book's cell prints a prohibition; the other bounds read as in a sentence (`at most 1`)
    from compiler.build.render import render_outputs

    chart = 'chart [A] "Attack" { roll 1d6 column r: text rows { 1-3: "miss"  4-6: "hit" } }\n'
    comp = compile_text(tmp_path, _JU88 + chart)
    html = render_outputs(comp.project)["t/t.html"]
    assert "Forbidden — the aircraft you fly is Ju 88C-6a (11.5: the Ju 88C-6a cannot attack" in html
    assert "; at most 1 — otherwise" in html
    assert "forbidden —" not in html
