"""Tables printed as weights (issue 32): `3 in 6: "Clear"` rows get their ranges from the weights,
in order from the die's lowest face, per key combination; weights that do not fill the die are
C344. The test game is tests/data/charts/weightlab."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from compiler.build.project import load
from compiler.engine.chances import chances
from tests.conftest import ROOT, codes, compile_text

WEIGHTLAB = ROOT / "tests" / "data" / "charts" / "weightlab"


def _game():  # type: ignore[no-untyped-def]
    comp = load([WEIGHTLAB])
    assert not comp.diagnostics, comp.diagnostics
    return comp.project.games["weightlab"]


def test_ranges_are_derived_from_the_weights_per_season() -> None:
    # weightlab W1: summer 3/2/1 in 6 -> 1-3, 4-5, 6; winter 1/2/3 in 6 -> 1, 2-3, 4-6
    chart = _game().chart("W1")
    ranges = [(r.keys[0], r.range.printed if r.range else None) for r in chart.rows]
    assert ranges == [
        ("summer", "1-3"), ("summer", "4-5"), ("summer", "6"),
        ("winter", "1"), ("winter", "2-3"), ("winter", "4-6"),
    ]


def test_each_row_has_the_chance_its_weight_prints() -> None:
    chart = _game().chart("W1")
    # weightlab W1 summer: Clear 3 in 6, Overcast 2 in 6, Storm 1 in 6, exactly
    summer = chances(chart, ("summer",), 0)
    assert [rc.probability for rc in summer.rows] == [Fraction(3, 6), Fraction(2, 6), Fraction(1, 6)]
    assert summer.no_row == 0


def _errors(tmp_path: Path, roll: str, rows: str) -> list[str]:
    text = f'game t {{ title "T" }}\nchart [W] "W" {{ roll {roll} column r: text rows {{ {rows} }} }}\n'
    return codes(compile_text(tmp_path, text))


def test_weights_that_do_not_fill_the_die_are_c343_and_nothing_else(tmp_path: Path) -> None:
    # 3 + 2 in 6 leaves face 6 without a row: one C344, no follow-on gap (C302)
    assert _errors(tmp_path / "a", "1d6", '3 in 6: "a" 2 in 6: "b"') == ["C344"]
    assert _errors(tmp_path / "b", "1d6", '3 in 6: "a" 2 in 6: "b" 2 in 6: "c"') == ["C344"]


def test_weights_out_of_another_number_or_on_two_dice_are_c343(tmp_path: Path) -> None:
    assert _errors(tmp_path / "a", "1d6", '5 in 10: "a" 5 in 10: "b"') == ["C344"]
    assert _errors(tmp_path / "b", "2d6", '6 in 11: "a" 5 in 11: "b"') == ["C344"]
    assert _errors(tmp_path / "c", "1d20", '10 in 20: "a" 10 in 20: "b"') == []
