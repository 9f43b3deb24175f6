"""The generated `roll_<id>(rng)` draws with the exact distribution of `compiler.engine.chances`.

Each dice form is rolled N = 20,000 times with a fixed seed and compared with the exact odds by
Pearson's chi-square test. Tolerance: the statistic must stay below the chi-square quantile at
1 - 1/1000 for its degrees of freedom (Wilson-Hilferty approximation, within 1 % of the tabulated
value for 1 to 100 degrees of freedom), i.e. a correct sampler fails for about one seed in a
thousand. The seed is fixed, so the test is deterministic; `test_the_bound_has_power` shows the
same bound rejects plausible wrong samplers (2d6 read as a uniform 2-12, a d10 whose 0 face is 0).
With N = 20,000 every cell expects at least 90 rolls (the rarest outcome is a 2 on the lowest 2 of
3d6 and a 12 on the highest 2, 1/216, as each result of 1d6 exploding twice from 13 up).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from compiler.emit.python.module import emit_game_python
from compiler.engine.chances import chances
from tests.conftest import compile_text, import_module

N = 20_000
SEED = 1944
Z_999 = 3.090232  # standard normal quantile at 0.999

CHARTS = '''game t { title "Dice forms" }
chart [S2] "2d6" { roll 2d6 column r: text drm d "push" +2 rows { 2-4: "a" 5-7: "b" 8-10: "c" 11-12: "d" } }
chart [D66] "d66" { roll d66 column r: text rows { 11-26: "a" 31-46: "b" 51-66: "c" } }
chart [PCT] "percentile" { roll percentile column r: text rows { 01-10: "a" 11-50: "b" 51-99: "c" 00: "d" } }
chart [D10] "d10" { roll 1d10 column r: text rows { 1: "a" 2-8: "b" 9-0: "c" } }
chart [LOW] "lower of 2d10" { roll lower of 2d10 column r: text rows { 1-2: "a" 3-5: "b" 6-10: "c" } }
chart [FLAK] "flak" { roll 1d6 minus 3 min 0 column hits: int rows { 0: 0 1: 1 2: 2 3: 3 } }
chart [HIGH] "higher of 2d10" { roll higher of 2d10 column r: text rows { 1-5: "a" 6-8: "b" 9-0: "c" } }
chart [KEEP] "highest 2 of 3d6" { roll highest 2 of 3d6 column r: text rows { 2-6: "a" 7-9: "b" 10-12: "c" } }
chart [LOWEST] "lowest 2 of 3d6" { roll lowest 2 of 3d6 column r: text rows { 2-4: "a" 5-7: "b" 8-12: "c" } }
chart [VS] "1d6 versus 1d6" { roll 1d6 versus 1d6 column r: text rows { -5--1: "a" 0: "b" 1-5: "c" } }
chart [Z10] "1d10 read 0-9" { roll 1d10 zero reads 0 column r: text rows { 0-2: "a" 3-9: "b" } }
chart [BOOM] "exploding 1d6" { roll exploding 1d6 depth 2 column r: text rows { 1-6: "a" 7-12: "b" 13+: "c" } }
'''
FORMS = ["S2", "D66", "PCT", "D10", "LOW", "FLAK", "HIGH", "KEEP", "LOWEST", "VS", "Z10", "BOOM"]


def chi_square_bound(df: int) -> float:
    """Upper 1/1000 quantile of chi-square with `df` degrees of freedom (Wilson-Hilferty)."""
    h = 2 / (9 * df)
    return df * (1 - h + Z_999 * math.sqrt(h)) ** 3


def chi_square(counts: Counter, expected: dict, n: int) -> float:
    """Pearson's statistic of observed `counts` against exact probabilities `expected` (every
    observed key must have a probability: a roll the model says is impossible fails at once)."""
    assert set(counts) <= set(expected), f"impossible results drawn: {set(counts) - set(expected)}"
    return sum((counts.get(k, 0) - n * float(p)) ** 2 / (n * float(p)) for k, p in expected.items() if p)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rolls")
    comp = compile_text(tmp, CHARTS)
    assert [d.code for d in comp.diagnostics] == ["C305"]  # S2 at +2: 13-14 fall off the table, on purpose
    game = comp.project.games["t"]
    path = tmp / "t_rolls.py"
    path.write_text(emit_game_python(game), encoding="utf-8")
    return game, import_module(path, "t_rolls")


@pytest.mark.parametrize("address", FORMS)
def test_natural_rolls_follow_the_exact_distribution(game, address: str) -> None:
    model, module = game
    chart = model.chart(address)
    roll = getattr(module, f"roll_{chart.ident}")
    rng = random.Random(SEED)
    counts = Counter(roll(rng)["natural"] for _ in range(N))
    exact = chart.dice.outcomes
    assert chi_square(counts, exact, N) < chi_square_bound(len(exact) - 1)


@pytest.mark.parametrize(
    "address, drm",
    [
        ("S2", 0),
        ("S2", 2),
        ("PCT", 0),
        ("D10", 0),
        ("LOW", 0),
        ("FLAK", 0),
        ("D66", 0),
        ("HIGH", 0),
        ("KEEP", 0),
        ("LOWEST", 0),
        ("VS", 0),
        ("Z10", 0),
    ],
)
def test_selected_rows_follow_the_exact_odds(game, address: str, drm: int) -> None:
    model, module = game
    chart = model.chart(address)
    roll = getattr(module, f"roll_{chart.ident}")
    rng = random.Random(SEED + drm)
    counts: Counter = Counter()
    for _ in range(N):
        try:
            counts[str(roll(rng, drm=drm)["values"][chart.columns[0].id])] += 1
        except module.NoRowError:  # S2 at +2: natural 11-12 become 13-14, off the table
            counts["no row"] += 1
    result = chances(chart, (), drm)
    expected: dict[str, Fraction] = {str(ro.row.values[0]): ro.probability for ro in result.rows}
    expected["no row"] = result.no_row
    cells = sum(1 for p in expected.values() if p)
    assert chi_square(counts, expected, N) < chi_square_bound(cells - 1)
    if address == "S2" and drm == 2:
        assert result.no_row == Fraction(3, 36) and counts["no row"] > 0  # 2d6 11 or 12 (3 ways) + 2


def test_the_bound_has_power(game) -> None:
    model, _ = game
    rng = random.Random(SEED)
    two_d6 = model.chart("S2").dice.outcomes
    uniform = Counter(rng.randint(2, 12) for _ in range(N))
    assert chi_square(uniform, two_d6, N) > 10 * chi_square_bound(len(two_d6) - 1)
    d10 = model.chart("D10").dice.outcomes
    zero_face = Counter(rng.randint(0, 9) for _ in range(N))  # 0 not read as 10
    with pytest.raises(AssertionError, match="impossible results drawn"):
        chi_square(zero_face, d10, N)
    # the lower of two d10 drawn as one d10: 1 comes up 1/10 of the time instead of 19/100
    low = model.chart("LOW").dice.outcomes
    one_die = Counter(rng.randint(1, 10) for _ in range(N))
    assert chi_square(one_die, low, N) > chi_square_bound(len(low) - 1)


def test_bound_matches_tabulated_values() -> None:
    # chi-square upper 0.001 quantiles from standard tables: df 1 -> 10.828, 10 -> 29.588, 99 -> 148.23
    assert abs(chi_square_bound(10) - 29.588) / 29.588 < 0.01
    assert abs(chi_square_bound(99) - 148.23) / 148.23 < 0.01
    assert abs(chi_square_bound(3) - 16.266) / 16.266 < 0.02


class _MoreFaces(Exception):
    """`_roll` asked for a die beyond the faces given: the range of that die."""

    def __init__(self, low: int, high: int) -> None:
        super().__init__(low, high)
        self.low, self.high = low, high


class _Prefix(random.Random):
    """A generator that shows the given faces in order, then stops `_roll` at the next die asked for."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise _MoreFaces(a, b)
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


@pytest.mark.parametrize("address", FORMS)
def test_the_dice_step_reads_every_throw_as_the_exact_model_counts_it(game, address: str) -> None:
    # the runtime's `_roll` (the generated `roll_<id>` and `lookup --follow --seed`) against the exact
    # outcome model, outcome by outcome: every sequence of faces the dice can show, read by `_roll`,
    # weighted by its chance (an exploding die throws more dice on some sequences than on others)
    from compiler.engine import plain
    from compiler.engine.runtime import _roll

    model, _ = game
    dice = model.chart(address).dice
    found: dict[int, Fraction] = {}
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        try:
            result = _roll(_Prefix(faces), plain.dice(dice))
        except _MoreFaces as more:
            share = chance / (more.high - more.low + 1)
            pending += [((*faces, face), share) for face in range(more.low, more.high + 1)]
            continue
        found[result] = found.get(result, Fraction(0)) + chance
    assert dict(sorted(found.items())) == dice.outcomes
