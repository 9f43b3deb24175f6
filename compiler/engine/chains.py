"""Chained results: a cell that sends the reader to another chart, to this chart again, or to a roll
inside the cell; and the exact chance of each *final* outcome of such a chain.

A row's cells are read in column order: every roll inside a cell (`SubRoll`) is made first and
replaced by the value it gives, then the first cell that sends the reader on (`ChartRef`,
`RollAgain`) is the next step. A reference to an `external` chart ends the chain (its rows are not
transcribed). The chain's states are (chart, key values, carried DRM); the chances of its final
outcomes solve the absorbing Markov chain over those states exactly, with fractions, so a
"roll again" loop with an exit has exact chances, and a loop without one is reported
(`ChainLoops`). `compiler.checks.chains` checks the references; `compiler.engine.follow` walks one
chain roll by roll.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

from compiler import model
from compiler.engine.chances import chances
from compiler.engine.runtime.chains import _cell_outcome, _next_key
from compiler.model.dice import Dice

# A chain may visit at most this many states (chart, keys, carried DRM) before it is refused: far
# beyond any printed chain, and it keeps the exact solve small.
MAX_STATES = 500


@dataclass(frozen=True)
class Pick:
    """A roll made inside a cell: the column, the cell's roll and the outcome its natural roll gave."""

    column: int
    roll: model.SubRoll
    natural: int | None  # None when chances are summed over every natural roll
    outcome: model.SubOutcome


@dataclass(frozen=True)
class Branch:
    """One way a row reads once the rolls inside its cells are made: its chance (1 when no cell
    holds a roll), the values with each roll replaced by its outcome, and the rolls made."""

    probability: Fraction
    values: tuple[model.Value, ...]
    picks: tuple[Pick, ...]

    @property
    def move(self) -> model.ChartRef | model.RollAgain | None:
        """The first cell that sends the reader on, in column order; None ends the chain here."""
        return next((v for v in self.values if isinstance(v, model.ChartRef | model.RollAgain)), None)


class ChainLoops(Exception):
    """A chain that cannot end from some state it reaches (a loop with no exit under this DRM)."""


class ChainTooLong(Exception):
    """A chain that visits more than `MAX_STATES` states: the message names the limit."""


class ChainKeyMissing(Exception):
    """A chart the chain reaches is read by a key that no step gives: the message names it."""


def is_chain(value: model.Value) -> bool:
    """Whether a cell sends the reader on (a chart reference, `-> again`, a roll in the cell)."""
    return isinstance(value, model.ChartRef | model.RollAgain | model.SubRoll)


def has_chains(chart: model.Chart) -> bool:
    """Whether some row of the chart holds a chained cell."""
    return any(is_chain(v) for row in chart.rows for v in row.values)


def chains_in(value: model.Value) -> Iterator[model.ChartRef | model.RollAgain]:
    """Every chart reference and `-> again` in a cell, the outcomes of a roll in it included."""
    if isinstance(value, model.ChartRef | model.RollAgain):
        yield value
    elif isinstance(value, model.SubRoll):
        for outcome in value.outcomes:
            yield from chains_in(outcome.value)


def cell_values(value: model.Value) -> Iterator[model.Value]:
    """The values a cell can give: itself, or for a roll in the cell each outcome's (recursively)."""
    if isinstance(value, model.SubRoll):
        for outcome in value.outcomes:
            yield from cell_values(outcome.value)
    else:
        yield value


def outcome_chance(roll: model.SubRoll, outcome: model.SubOutcome) -> Fraction:
    """The exact chance that the cell's roll gives `outcome` (the runtime's `_cell_outcome`)."""
    outcomes = _outcomes(roll)
    return sum((p for r, p in roll.dice.outcomes.items() if _cell_outcome(outcomes, r) is outcome), Fraction(0))


def picked(roll: model.SubRoll, natural: int) -> model.SubOutcome:
    """The outcome a natural roll of the cell's dice gives (the outcomes tile the dice, C454), as
    the runtime's `_cell_outcome` picks it in a generated `follow_<id>`.

    Raises:
        ValueError: the dice cannot roll `natural`.
    """
    found = _cell_outcome(_outcomes(roll), natural)
    if found is None or natural not in roll.dice.outcomes:
        raise ValueError(f"{natural} is not a result of {roll.dice.text} (the roll in the cell)")
    return found


def _outcomes(roll: model.SubRoll) -> tuple[tuple[int | None, int | None, model.SubOutcome], ...]:
    """A cell's roll as the runtime's (low, high, outcome) triples."""
    return tuple((o.range.low, o.range.high, o) for o in roll.outcomes)


def branches(row: model.Row) -> list[Branch]:
    """Every way the rolls inside the row's cells can fall, with its exact chance (one branch of
    chance 1 for a row without such rolls); a roll whose outcome is itself a roll is followed."""
    per_column = [_cell_branches(i, v) for i, v in enumerate(row.values)]
    out = []
    for combo in itertools.product(*per_column):
        p = Fraction(1)
        for q, _, _ in combo:
            p *= q
        out.append(Branch(p, tuple(v for _, v, _ in combo), tuple(pick for _, _, picks in combo for pick in picks)))
    return out


def _cell_branches(column: int, value: model.Value) -> list[tuple[Fraction, model.Value, tuple[Pick, ...]]]:
    if not isinstance(value, model.SubRoll):
        return [(Fraction(1), value, ())]
    out = []
    for outcome in value.outcomes:
        p = outcome_chance(value, outcome)
        for q, inner, picks in _cell_branches(column, outcome.value):
            out.append((p * q, inner, (Pick(column, value, None, outcome), *picks)))
    return out


def rolled_branch(row: model.Row, roll_cell: Callable[[int, Dice], int]) -> Branch:
    """The row once each roll inside its cells is made: `roll_cell(column, dice)` gives each
    natural roll, in column order (a roll whose outcome is a roll asks again)."""
    values: list[model.Value] = []
    picks: list[Pick] = []
    for column, value in enumerate(row.values):
        while isinstance(value, model.SubRoll):
            natural = roll_cell(column, value.dice)
            outcome = picked(value, natural)
            picks.append(Pick(column, value, natural, outcome))
            value = outcome.value
        values.append(value)
    return Branch(Fraction(1), tuple(values), tuple(picks))


# ---- where a step sends the reader ----------------------------------------------------------------


def target_of(game: model.Game, chart: model.Chart, move: model.ChartRef | model.RollAgain) -> model.Chart | None:
    """The chart a move rolls on next (this chart for `-> again`); None for an unknown chart."""
    return chart if isinstance(move, model.RollAgain) else game.chart(move.address)


def target_combo(
    chart: model.Chart,
    combo: tuple[str, ...],
    values: tuple[model.Value, ...],
    move: model.ChartRef | model.RollAgain,
    target: model.Chart,
    given: Mapping[str, str],
) -> tuple[str, ...]:
    """The key values the next chart is read with. `-> again` keeps this step's; a reference takes
    each of the target's keys from, in order: the reference's own `(key=value)`, this step's key of
    that name, this row's value in a column of that name, the keys the reader gave (`--key`): the
    runtime's `_next_key`, as a generated `follow_<id>` takes them.

    Raises:
        ChainKeyMissing: a key none of them gives, or a value not of that key.
    """
    if isinstance(move, model.RollAgain):
        return combo

    written = {k.key: k.value for k in move.keys}
    mine = dict(zip((k.id for k in chart.keys), combo, strict=True))
    cells = {c.id: v for c, v in zip(chart.columns, values, strict=True)}
    out = []
    for key in target.keys:
        text = _next_key(key.id, written, mine, cells, given)
        member = key.enum.member(text) if text is not None else None
        if member is None:
            why = f"`{text}` is not a value of it" if text is not None else "no step gives it"
            raise ChainKeyMissing(
                f"{chart.address} sends the reader to {target.address}, which is read by key `{key.id}`: {why}; "
                f"add `--key {key.id}=VALUE`"
            )
        out.append(member.id)
    return tuple(out)


# ---- the exact chance of each final outcome ----------------------------------------------------------


@dataclass(frozen=True)
class State:
    """A step of a chain: the chart rolled on, its key values and the DRM carried to it."""

    address: str
    combo: tuple[str, ...]
    carried: int


@dataclass(frozen=True)
class Final:
    """Where a chain ends: the chart and row of the last step (None: its roll selected no row),
    the row's values with the rolls in its cells made, and its key values."""

    address: str
    combo: tuple[str, ...]
    row: model.Row | None
    values: tuple[model.Value, ...]


@dataclass(frozen=True)
class FinalChance:
    final: Final
    probability: Fraction


# The DRM total of a step: the chart, its key values and the DRM carried to it.
DrmOf = Callable[[model.Chart, tuple[str, ...], int], int]


def final_chances(
    game: model.Game, start: State, drm_of: DrmOf, given: Mapping[str, str]
) -> tuple[list[FinalChance], int]:
    """The exact chance of each final outcome of the chain that starts at `start`, and how many
    states (chart, keys, carried DRM) it can visit.

    Args:
        game: the game whose charts the chain visits.
        start: the first chart, its key values and the DRM given for its roll.
        drm_of: the DRM total of a step (the chart's own DRMs in the reader's context plus the
            carried DRM).
        given: the keys the reader gave (`--key`), for charts no step gives a key to.

    Returns:
        The final outcomes in the order first met, their chances summing to exactly 1.

    Raises:
        ChainLoops: some state the chain reaches can never lead to a final outcome.
        ChainKeyMissing: a chart is reached whose key no step gives.
        ChainTooLong: more than `MAX_STATES` states.
    """
    transitions: dict[State, list[tuple[Fraction, State | Final]]] = {}
    order: list[State] = []
    todo = [start]
    while todo:
        state = todo.pop()
        if state in transitions:
            continue
        if len(transitions) >= MAX_STATES:
            raise ChainTooLong(
                f"the chain visits more than {MAX_STATES} states (chart, keys, DRM), the most chartc solves exactly"
            )
        out = _transitions(game, state, drm_of, given)
        transitions[state] = out
        order.append(state)
        todo.extend(s for _, s in out if isinstance(s, State) and s not in transitions)
    _refuse_loops(order, transitions)
    return _absorb(order, transitions), len(order)


def _transitions(
    game: model.Game, state: State, drm_of: DrmOf, given: Mapping[str, str]
) -> list[tuple[Fraction, State | Final]]:
    """Where one step can lead, with its exact chance: another state or a final outcome."""
    chart = game.chart(state.address)
    assert chart is not None  # states are made from charts the game has
    out: list[tuple[Fraction, State | Final]] = []
    if chart.kind is model.ChartKind.REFERENCE:
        rows = chart.rows_for(state.combo)
        weighted = [(Fraction(1), rows[0])] if rows else []
        miss = Fraction(0) if rows else Fraction(1)
    else:
        result = chances(chart, state.combo, drm_of(chart, state.combo, state.carried))
        weighted = [(rc.probability, rc.row) for rc in result.rows if rc.probability]
        miss = result.no_row
    if miss:
        out.append((miss, Final(chart.address, state.combo, None, ())))
    for p, row in weighted:
        for branch in branches(row):
            out.append((p * branch.probability, _next(game, chart, state, row, branch, given)))
    return out


def _next(
    game: model.Game, chart: model.Chart, state: State, row: model.Row, branch: Branch, given: Mapping[str, str]
) -> State | Final:
    move = branch.move
    target = target_of(game, chart, move) if move is not None else None
    if move is None or target is None or target.kind is model.ChartKind.EXTERNAL:
        return Final(chart.address, state.combo, row, branch.values)
    combo = target_combo(chart, state.combo, branch.values, move, target, given)
    return State(target.address, combo, move.drm or 0)


def _refuse_loops(order: list[State], transitions: Mapping[State, list[tuple[Fraction, State | Final]]]) -> None:
    """ChainLoops when some state cannot reach a final outcome with a non-zero chance."""
    ends = {s for s in order if any(isinstance(t, Final) for _, t in transitions[s])}
    changed = True
    while changed:
        changed = False
        for s in order:
            if s not in ends and any(isinstance(t, State) and t in ends for _, t in transitions[s]):
                ends.add(s)
                changed = True
    stuck = [s for s in order if s not in ends]
    if stuck:
        where = ", ".join(sorted({s.address for s in stuck}))
        raise ChainLoops(f"the chain can loop forever: no roll on {where} leads out of the loop")


def _absorb(order: list[State], transitions: Mapping[State, list[tuple[Fraction, State | Final]]]) -> list[FinalChance]:
    """Solve (I - Q) X = R exactly (Gauss-Jordan over fractions): X[s][f] is the chance that the
    chain started in state s ends in final outcome f; the first state's row is the answer."""
    index = {s: i for i, s in enumerate(order)}
    finals: dict[Final, int] = {}
    for s in order:
        for _, t in transitions[s]:
            if isinstance(t, Final) and t not in finals:
                finals[t] = len(finals)
    n, m = len(order), len(finals)
    matrix = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(0)] * m for i in range(n)]
    for s in order:
        i = index[s]
        for p, t in transitions[s]:
            if isinstance(t, Final):
                matrix[i][n + finals[t]] += p
            else:
                matrix[i][index[t]] -= p
    _gauss_jordan(matrix, n)
    return [FinalChance(f, matrix[0][n + j]) for f, j in finals.items() if matrix[0][n + j]]


def _gauss_jordan(matrix: list[list[Fraction]], n: int) -> None:
    """Reduce the first n columns of `matrix` to the identity in place (the system is
    non-singular once every state can reach a final outcome: `_refuse_loops`)."""
    for col in range(n):
        pivot = next(r for r in range(col, n) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        head = matrix[col][col]
        matrix[col] = [x / head for x in matrix[col]]
        for r in range(n):
            factor = matrix[r][col]
            if r != col and factor:
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
