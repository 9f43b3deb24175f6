"""Test vectors: the answers chartc's model gives, for the other consumers to reproduce.

`chartc vectors GAME` writes them; the generated Python module, `chartc lookup` and the
interactive player aid are each held to them (tests/test_vectors.py, tests/test_aid_live.py).

For every roll chart a vector case is one key combination and one DRM context: the DRM total,
the CRT's column shift total (a chart with column shifts: what the context gives its `shift_*`
function, to move a column read from the forces; a case's odds column key is the column read,
after any shift, so its rows are that column's), and for every natural roll the dice can
show the modified roll and the row it selects (an index into the chart's rows, as the JSON lists
them, then its overlays' rows numbered on; None: no row), with the exact chance of every row under
that DRM. Every answer comes from `compiler.engine.lookup.lookup` (the engine of `chartc lookup`) and
`compiler.engine.chances.chances`, which read every step of a roll with the generated modules' own
runtime (`compiler.engine.runtime`).

The cases are bounded: the candidate values of each context variable the chart reads are a flag's
false and true, an enum's members, and for ints and months the values its conditions name, one on
either side, and the ends of the declared range; the key combinations times the contexts are
taken whole up to `MAX_CASES`, else `MAX_CASES` of them are sampled with a `random.Random` seeded
by the game and chart address (the first case, every key's first member in the first context,
always kept), so the same charts always give the same vectors. Odds rules get vectors of their
own: attack x defense (or strength) x shift over a fixed grid, each with the column read or the
problem reported.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.diagnostics.textsafe import json_text
from compiler.engine import shifts as column_shifts
from compiler.engine.chances import chances, dice_for, fraction_text
from compiler.engine.context import ContextValue, context_json, read_modifiers, tested_variables
from compiler.engine.drms import modified_roll
from compiler.engine.lookup import LookupProblem, lookup, odds_reading, refuse_digit_drm, resolve_keys
from compiler.engine.overlays import chart_in
from compiler.engine.problems import LookupUsage, NoRow
from compiler.model.calendar import Month
from compiler.model.odds import OddsForm

FORMAT = 1
MAX_CASES = 48
"""The most key-combination x context cases kept per chart (sampled beyond)."""
ATTACKS = (0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 17, 25, 40, 41)
DEFENSES = (1, 2, 3, 4, 6, 9)
SHIFTS = (-2, 0, 1, 3)


@dataclass(frozen=True)
class RollCase:
    """One key combination and context of a roll chart, and every natural roll's answer."""

    keys: dict[str, str]
    context: dict[str, bool | int | str]
    drm: int | None  # None: the DRM has no answer on this chart (a digit-read roll)
    shift: int | None
    dice: str
    rolls: list[tuple[int, int, int | None]]  # natural, modified, row index (None: no row)
    chances: dict[int, Fraction]  # row index -> exact chance (rows with none left out)
    no_row: Fraction


def game_vectors(game: model.Game) -> dict[str, object]:
    """The game's vectors as a JSON-ready document (deterministic: charts by address)."""
    charts = sorted(game.charts, key=lambda c: c.address.casefold())
    return {
        "generator": "chartc",
        "format": FORMAT,
        "game": game.id,
        "printing": game.printing,  # rows index the game JSON of the same printing
        "charts": [
            {"chart": c.address, "cases": [case_json(case) for case in roll_cases(game, c)]}
            for c in charts
            if c.kind is model.ChartKind.ROLL and c.dice is not None
        ],
        "odds": [{"chart": c.address, "readings": odds_vectors(c)} for c in charts if c.odds is not None],
    }


def vectors_text(game: model.Game) -> str:
    """The vectors as JSON text: one case (or odds reading) per line, so a change diffs by line."""
    doc = game_vectors(game)

    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    def block(name: str, field: str) -> str:
        entries = doc[name]
        assert isinstance(entries, list)
        parts = [
            f'  {{"chart": {one(e["chart"])}, "{field}": [\n' + ",\n".join(f"   {one(x)}" for x in e[field]) + "\n  ]}"
            for e in entries
        ]
        return f' "{name}": [\n' + ",\n".join(parts) + "\n ]"

    head = ",\n".join(f" {one(k)}: {one(doc[k])}" for k in ("generator", "format", "game", "printing"))
    return json_text("{\n" + head + ",\n" + block("charts", "cases") + ",\n" + block("odds", "readings") + "\n}\n")


def case_json(case: RollCase) -> dict[str, object]:
    """A case as `chartc vectors` writes it."""
    return {
        "keys": case.keys,
        "context": case.context,
        "drm": case.drm,
        **({"shift": case.shift} if case.shift is not None else {}),
        "dice": case.dice,
        "rolls": [list(r) for r in case.rolls],
        "chances": {str(i): fraction_text(p) for i, p in sorted(case.chances.items())},
        "no_row": fraction_text(case.no_row),
    }


def roll_cases(game: model.Game, chart: model.Chart) -> list[RollCase]:
    """The bounded, deterministic cases of one roll chart (see the module docstring)."""
    combos = chart.key_combinations()
    variables = [game.context[v] for v in tested_variables(chart) if v in game.context]
    candidates = [candidate_values(game, chart, var) for var in variables]
    radix = [len(combos), *(len(c) for c in candidates)]
    total = math.prod(radix)
    if total <= MAX_CASES:
        picks: Sequence[int] = range(total)
    else:
        rng = random.Random(f"{game.id}/{chart.address}")
        picks = sorted({0, *rng.sample(range(1, total), MAX_CASES - 1)})
    cases = []
    for index in picks:
        digits = _mixed_radix(index, radix)
        combo = combos[digits[0]]
        context = {var.id: candidates[i][d] for i, (var, d) in enumerate(zip(variables, digits[1:], strict=True))}
        cases.append(roll_case(chart, combo, context))
    return cases


def _mixed_radix(index: int, radix: list[int]) -> list[int]:
    """`index` as digits of the mixed radix (the last digit fastest)."""
    digits = []
    for base in reversed(radix):
        index, digit = divmod(index, base)
        digits.append(digit)
    return digits[::-1]


def candidate_values(game: model.Game, chart: model.Chart, var: model.ContextVar) -> list[ContextValue]:
    """The values a context variable takes in the cases, ascending (see the module docstring)."""
    match var.type:
        case model.ContextType.FLAG:
            return [False, True]
        case model.ContextType.ENUM:
            enum = game.enums.get(var.enum or "")
            return [model.MemberId(m.id) for m in enum.members] if enum is not None else []
        case model.ContextType.INT:
            named = {int(v) for v in _operands(chart, var.id) if isinstance(v, int)}
            named |= {n * d.per.step for d in chart.drms if d.per and d.per.var == var.id for n in (1, 2)}
            around = {v + e for v in named for e in (-1, 0, 1)} | {0}
            low = var.low if isinstance(var.low, int) else None
            high = var.high if isinstance(var.high, int) else None
            around |= {x for x in (low, high) if x is not None}
            return sorted(v for v in around if (low is None or v >= low) and (high is None or v <= high))
        case model.ContextType.MONTH:
            months = {Month(str(v)) for v in _operands(chart, var.id) if isinstance(v, str)}
            months |= {m.previous() for m in months} | {m.next() for m in months}
            first, last = game.calendar if game.calendar is not None else (min(months), max(months))
            return sorted({first, last} | {m for m in months if first <= m <= last})
        case _:
            assert_never(var.type)


def _operands(chart: model.Chart, var_id: str) -> list[model.Operand]:
    """The values the chart's DRM and column-shift conditions compare `var_id` with."""
    conditions = [d.when for d in chart.drms] + [a.when for a in chart.dice_alternatives]
    conditions += [o.when for o in chart.overlays]
    if chart.shifts is not None:
        conditions += [s.when for s in chart.shifts.shifts]
    return [v for cond in conditions for v in _compared(cond, var_id)]


def _compared(cond: model.Condition | None, var_id: str) -> Iterator[model.Operand]:
    match cond:
        case None | model.Flag():
            return
        case model.Compare(var, _, value):
            if var == var_id:
                yield value
        case model.In(var, values):
            if var == var_id:
                yield from values
        case model.Not(inner):
            yield from _compared(inner, var_id)
        case model.All(parts) | model.Any_(parts):
            for part in parts:
                yield from _compared(part, var_id)
        case _:
            assert_never(cond)


def row_numbers(chart: model.Chart) -> dict[int, int]:
    """Each row's index, by the row's `id`: the chart's rows as the JSON lists them, then each
    overlay's rows in turn, numbered on after them (the player aid numbers them so too)."""
    overlaid = [r for o in chart.overlays for r in o.rows]
    return {id(r): i for i, r in enumerate([*chart.rows, *overlaid])}


def roll_case(chart: model.Chart, combo: tuple[str, ...], context: dict[str, ContextValue]) -> RollCase:
    """Every natural roll's answer for one key combination and context, as `chartc lookup` gives it."""
    given = dict(zip((k.id for k in chart.keys), combo, strict=True))
    full: dict[str, ContextValue] = {k: model.MemberId(v) for k, v in given.items()} | context
    rolled = dice_for(chart, full)
    assert rolled.dice is not None  # roll charts only
    index = row_numbers(chart)
    shift = column_shifts.breakdown(chart, context).total if chart.shifts is not None else None
    shown = context_json(context)
    try:
        drm: int | None = read_modifiers(chart, context, resolve_keys(chart, given), 0).total
        refuse_digit_drm(rolled, drm or 0)  # the dice rolled in this context: a d66 alternative too
    except LookupUsage:
        drm = None  # a DRM on a digit-read roll has no answer, for any roll
    if drm is None:
        return RollCase(given, shown, None, shift, rolled.dice.text, [], {}, Fraction(0))
    rolls: list[tuple[int, int, int | None]] = []
    for natural, p in rolled.dice.outcomes.items():
        if not p:
            continue
        try:
            got = lookup(chart, str(natural), given, 0, context)
        except NoRow:
            rolls.append((natural, modified_roll(chart, natural, drm), None))
            continue
        assert got.modified is not None and got.drm == drm
        rolls.append((natural, got.modified, index[id(got.row)]))
    result = chances(chart_in(rolled, full), combo, drm)  # the rows of every overlay that holds first
    found = {index[id(rc.row)]: rc.probability for rc in result.rows if rc.probability}
    return RollCase(given, shown, drm, shift, rolled.dice.text, rolls, found, result.no_row)


def odds_vectors(chart: model.Chart) -> list[dict[str, object]]:
    """An odds rule's column for each attack, defense (none for a strength rule) and shift of the
    fixed grid, or the problem `chartc lookup` reports."""
    rule = chart.odds
    assert rule is not None
    defenses: tuple[int | None, ...] = (None,) if rule.form is OddsForm.STRENGTH else DEFENSES
    shifts = SHIFTS if rule.shift_order is not None else (0,)
    out: list[dict[str, object]] = []
    for attack, defense, shift in itertools.product(ATTACKS, defenses, shifts):
        entry: dict[str, object] = {"attack": attack, "defense": defense, "shift": shift}
        try:
            reading = odds_reading(chart, attack, defense, shift)
        except (LookupProblem, LookupUsage):
            entry["column"] = None
        else:
            entry |= {"column": reading.column, "formed": reading.formed, "clamped": reading.clamped}
        out.append(entry)
    return out
