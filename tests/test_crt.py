"""CRT odds columns: the USAAF 15.1-15.2 rounding rule, table edges and column shifts."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from compiler.crt import (
    Beyond,
    OddsProblem,
    OddsRule,
    Rounding,
    ShiftOrder,
    column,
    raw_odds,
)
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
    from compiler.query.lookup import keys_from_odds, lookup

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
    from compiler.crt import OddsProblem as Problem

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
    from compiler.emit.python import emit_game_python

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
