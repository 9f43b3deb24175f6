"""Percentile read as "the lower of two d10s as tens, the other die the units" (issue 32):
`roll percentile lower as tens`. Two d10 (faces 0-9): the lower is the tens digit, the other the
ones, so the tens digit is never above the ones; a double (11, ..., 99, 00) has 1 chance in 100, any
other result 2 (either die may show the lower); 00 reads 100, as on a percentile roll. 55 results."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from compiler.emit.python.module import emit_game_python
from compiler.engine.chances import chances
from compiler.engine.lookup import lookup
from compiler.engine.problems import LookupProblem
from compiler.model.dice import Dice, DiceForm
from tests.conftest import codes, compile_text, import_module

PATROL = """game t { title "Test game" }
# a patrol table printed for 01-00, rolled with the lower of two d10 as tens
chart [P1] patrol "Patrol Chart" {
  roll percentile lower as tens
  column result: text "Result"
  rows {
    01-19: "Quiet"
    22-49: "Contact"
    55-79: "Ambush"
    88-89: "Lost"
    99-00: "Disaster"
  }
}
"""


def test_the_chances_are_not_uniform() -> None:
    dice = Dice(DiceForm.LOWER_TENS, 2, 10)
    assert len(dice.outcomes) == 55 and sum(dice.outcomes.values()) == 1
    assert dice.outcomes[37] == Fraction(2, 100) and dice.outcomes[33] == Fraction(1, 100)
    assert dice.outcomes[100] == Fraction(1, 100)  # two 0s: 00, read as 100
    assert 73 not in dice.outcomes and 10 not in dice.outcomes and 9 in dice.outcomes
    # the tens digit t is at most the ones: P(tens = t) = (2 * (9 - t) + 1) / 100, 19/100 for 0
    by_tens = {t: sum(p for r, p in dice.outcomes.items() if r % 100 // 10 == t) for t in range(10)}
    assert by_tens == {t: Fraction(2 * (9 - t) + 1, 100) for t in range(10)}


def test_a_table_reads_with_exact_chances(tmp_path) -> None:
    comp = compile_text(tmp_path, PATROL)
    assert comp.diagnostics == []
    chart = comp.project.games["t"].chart("P1")
    found = {r.row.range.printed: r.probability for r in chances(chart, (), 0).rows}
    # 01-19: 01-09 (9 x 2) + 11 (1) + 12-19 (8 x 2) = 35; 22-49: 15 + 13 + 11; 55-79: 9 + 7 + 5
    assert found == {"01-19": Fraction(35, 100), "22-49": Fraction(39, 100), "55-79": Fraction(21, 100),
                     "88-89": Fraction(3, 100), "99-00": Fraction(2, 100)}
    # the two dice as they fell, or the two-digit number as printed; a tens digit above the ones is refused
    assert lookup(chart, "7,3", {}, 0).natural == 37 and lookup(chart, "37", {}, 0).row.values == ("Contact",)
    assert lookup(chart, "0 0", {}, 0).natural == 100
    with pytest.raises(LookupProblem, match=r"never above the ones \(did you mean 37\?\)"):
        lookup(chart, "73", {}, 0)


def test_rows_it_never_reaches_are_reported(tmp_path) -> None:
    # 90-98: a tens digit of 9 leaves only 99 (and 00); 50-54 needs a tens above the ones
    bad = compile_text(tmp_path / "a", PATROL.replace("88-89", "90-98"))
    messages = [d.message for d in bad.diagnostics if d.code == "C306"]
    assert messages == ["row `90-98` of chart `P1` can never be selected: `90-98` holds no roll: the lower d10 is "
                        "the tens, so the tens digit is never above the ones"]
    assert "C302" in codes(bad)  # and 88-89 is now a gap
    # the rows need not list what cannot be rolled: 20-21, 30-32, 80-87 are no gaps
    assert compile_text(tmp_path / "b", PATROL).diagnostics == []


def test_the_module_rolls_and_reads_it(tmp_path) -> None:
    game = compile_text(tmp_path, PATROL).project.games["t"]
    path = tmp_path / "t_mod.py"
    path.write_text(emit_game_python(game), encoding="utf-8")
    mod = import_module(path, "t_lower_tens_mod")
    assert mod.lookup_p1(37)["result"] == "Contact" and mod.lookup_p1(100)["result"] == "Disaster"
    with pytest.raises(ValueError):
        mod.lookup_p1(73)
    rng = random.Random(5)
    rolls = [mod.roll_p1(rng)["natural"] for _ in range(4000)]
    assert set(rolls) <= set(game.chart("P1").dice.outcomes) and len(set(rolls)) > 45
    assert all(r == 100 or r // 10 <= r % 10 for r in rolls)
