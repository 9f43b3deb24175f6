"""Follow a chained result as a player does (`chartc lookup --follow`), and the exact chance of each
final outcome of a chain (`chartc odds --follow`).

Each step is an ordinary lookup (`compiler.engine.lookup`): the natural roll comes from the rolls
given (`ROLL`, then each `--roll` in turn) or from a seeded `random.Random` (`--seed`), thrown as
the generated modules throw them (`compiler.engine.runtime`), so a seed gives the same chain in
both. Keys carry over as `compiler.engine.chains.target_combo` says; `--key` fills a key no step gives.
The reader's `--when`/`--set` context applies to every chart of the chain; `--drm` to the first
roll only (a later roll gets the DRM its reference carries).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from compiler import model
from compiler.engine import plain
from compiler.engine.chains import (
    Branch,
    ChainKeyMissing,
    ChainLoops,
    ChainTooLong,
    FinalChance,
    State,
    chains_in,
    final_chances,
    rolled_branch,
    target_combo,
    target_of,
)
from compiler.engine.context import ContextValue, ModifierAnswer, read_context, read_modifiers, tested_variables
from compiler.engine.lookup import ChartRead, LookupProblem, LookupResult, LookupUsage, lookup, resolve_keys
from compiler.engine.runtime.dice import _roll
from compiler.model.dice import Dice

# A walk that has not ended after this many steps is refused (a `-> again` loop rolled unluckily).
MAX_STEPS = 100


@dataclass(frozen=True)
class FollowStep:
    """One step of a chain: the lookup it made, its row once the rolls in its cells were made, and
    the chart it sends the reader to next (None: the chain ends here)."""

    result: LookupResult
    branch: Branch
    next_chart: model.Chart | None


@dataclass(frozen=True)
class FollowResult:
    """A chain walked roll by roll; `external` is the chart printed elsewhere it ended at, if any."""

    steps: tuple[FollowStep, ...]
    external: model.Chart | None = None


class _Rolls:
    """The natural rolls of a walk: the given ones in order, then the seeded generator's."""

    def __init__(self, given: list[str], rng: random.Random | None) -> None:
        self.given = list(given)
        self.rng = rng
        self.used = 0

    def chart_roll(self, chart: model.Chart, step: int) -> str:
        if chart.dice is None:  # pragma: no cover - lookup refuses a chart without dice first
            raise LookupUsage(f"chart `{chart.address}` has no roll")
        return self._next(chart.dice, f"step {step}: {chart.dice.text} on {chart.address}")

    def cell_roll(self, dice: Dice, chart: model.Chart, column: model.Column, step: int) -> int:
        text = self._next(dice, f"step {step}: {dice.text} in column `{column.id}` of {chart.address}")
        natural = dice.read_number(text.strip())
        if natural is None or natural not in dice.outcomes:
            raise LookupProblem(f"{text} cannot be rolled on {dice.text} (the roll in column `{column.id}`)")
        return natural

    def _next(self, dice: Dice, what: str) -> str:
        if self.used < len(self.given):
            self.used += 1
            return self.given[self.used - 1]
        if self.rng is None:
            raise LookupUsage(f"the chain needs another roll ({what}): add --roll N, or --seed N to roll it")
        self.used += 1
        return str(throw(self.rng, dice))


def throw(rng: random.Random, dice: Dice) -> int:
    """A natural roll of `dice`, thrown as the generated modules throw it (the runtime's `_roll`)."""
    return _roll(rng, plain.dice(dice))


def follow(
    game: model.Game,
    chart: model.Chart,
    rolls: list[str],
    given_keys: dict[str, str],
    drm: int,
    seed: int | None = None,
    when: tuple[str, ...] = (),
    sets: tuple[str, ...] = (),
    read_drms: bool = False,
) -> FollowResult:
    """Walk the chain that starts on `chart`: one lookup per step, the rolls inside its cells, then
    on to the chart its first chained cell names, until a row sends the reader nowhere.

    Args:
        rolls: the natural rolls as typed, in the order the walk needs them (a chart read by keys
            only takes none).
        given_keys: `--key` pairs: the first chart's keys, and any key a later chart needs that no
            step gives.
        drm: the DRM of the first roll (`--drm`).
        seed: when given, the rolls after those in `rolls` come from `random.Random(seed)`.
        read_drms: read every chart's DRMs even with no `when`/`sets` (every flag false), as a
            worked example does; otherwise, as on the command line, only when some are given.

    Raises:
        LookupUsage: a roll is missing (no seed), a key is missing or wrong.
        LookupProblem: a roll selects no row, or the walk does not end within `MAX_STEPS` steps.
    """
    context = chain_context(game, chart, when, sets) if when or sets or read_drms else None
    supply = _Rolls(rolls, random.Random(seed) if seed is not None else None)
    keys, carried = first_chart_keys(game, chart, given_keys), drm
    steps: list[FollowStep] = []
    while len(steps) < MAX_STEPS:
        number = len(steps) + 1
        roll = supply.chart_roll(chart, number) if chart.kind is model.ChartKind.ROLL else None
        result = lookup(chart, roll, keys, carried, context)
        branch = rolled_branch(result.row, _cell_roller(supply, chart, number))
        move = branch.move
        target = target_of(game, chart, move) if move is not None else None
        if move is None or target is None or target.kind is model.ChartKind.EXTERNAL:
            steps.append(FollowStep(result, branch, None))
            left = supply.given[supply.used :]
            if left:
                raise LookupUsage(
                    f"the chain ended after {len(steps)} step{'s' if len(steps) != 1 else ''}; "
                    f"the roll{'s' if len(left) != 1 else ''} {', '.join(left)} {'were' if len(left) != 1 else 'was'} "
                    "not used"
                )
            return FollowResult(tuple(steps), target)
        steps.append(FollowStep(result, branch, target))
        combo = tuple(m.id for _, m in result.keys)
        try:
            next_combo = target_combo(chart, combo, branch.values, move, target, given_keys)
        except ChainKeyMissing as exc:
            raise LookupUsage(str(exc)) from exc
        keys = dict(zip((k.id for k in target.keys), next_combo, strict=True))
        chart, carried = target, move.drm or 0
    raise LookupProblem(f"the chain did not end within {MAX_STEPS} steps")


def first_chart_keys(game: model.Game, chart: model.Chart, given_keys: dict[str, str]) -> dict[str, str]:
    """The `--key` pairs the first chart of a chain is read with: all but those of a later chart
    only, which wait for that chart (read when no step gives the key, as the generated
    `follow_<id>` takes them) and are checked here. A key no chart of the chain has stays the first
    chart's, whose lookup says it has no such key.

    Raises:
        LookupUsage: a later chart's key given a value that is not of it.
    """
    later = {k.id: c for c in reversed(reachable_charts(game, chart)[1:]) for k in c.keys}
    for key in chart.keys:
        later.pop(key.id, None)
    for name, value in given_keys.items():
        if name in later:
            resolve_keys(later[name], {name: value})
    return {k: v for k, v in given_keys.items() if k not in later}


def _cell_roller(supply: _Rolls, chart: model.Chart, step: int) -> Callable[[int, Dice], int]:
    """The natural roll of each roll inside a cell of `chart`'s row at this step."""
    return lambda column, dice: supply.cell_roll(dice, chart, chart.columns[column], step)


def reachable_charts(game: model.Game, chart: model.Chart) -> list[model.Chart]:
    """The chart and every chart its chained cells can lead to, in the order first met."""
    seen: dict[str, model.Chart] = {chart.address: chart}
    todo = [chart]
    while todo:
        current = todo.pop()
        for row in current.rows:
            for value in row.values:
                for move in chains_in(value):
                    target = target_of(game, current, move)
                    if target is not None and target.address not in seen:
                        seen[target.address] = target
                        todo.append(target)
    return list(seen.values())


def chain_context(
    game: model.Game, chart: model.Chart, when: tuple[str, ...], sets: tuple[str, ...]
) -> dict[str, ContextValue]:
    """`--when`/`--set` read against every chart the chain can reach: each name must be tested by
    one of them (as `read_context` requires of a single chart).

    Raises:
        LookupUsage: a name no chart of the chain tests, or a value of the wrong type.
    """
    charts = reachable_charts(game, chart)
    context: dict[str, ContextValue] = {}
    left_when, left_sets = list(when), list(sets)
    for current in charts:
        tested = set(tested_variables(current))
        mine_when = tuple(w for w in left_when if w.strip() in tested)
        mine_sets = tuple(s for s in left_sets if s.partition("=")[0].strip() in tested)
        if mine_when or mine_sets:
            context.update(read_context(game, current, mine_when, mine_sets))
            left_when = [w for w in left_when if w not in mine_when]
            left_sets = [s for s in left_sets if s not in mine_sets]
    if left_when or left_sets:
        read_context(game, chart, tuple(left_when), tuple(left_sets))  # raises, naming what is allowed
    return context


@dataclass(frozen=True)
class ChainOdds(ChartRead):
    """The exact chance of each final outcome of a chain (`chartc odds --follow`)."""

    drm: int
    finals: tuple[FinalChance, ...]
    states: int
    context: dict[str, ContextValue] | None = None  # None: no chart's DRMs were read
    first_modifiers: ModifierAnswer | None = None  # the first roll's DRMs in that context

    @property
    def total(self) -> Fraction:
        return sum((f.probability for f in self.finals), Fraction(0))


def chain_odds(
    game: model.Game,
    chart: model.Chart,
    given_keys: dict[str, str],
    drm: int,
    when: tuple[str, ...] = (),
    sets: tuple[str, ...] = (),
    read_drms: bool = False,
) -> ChainOdds:
    """The exact chance of each final outcome of the chain that starts on `chart`, each chart's
    DRMs read in the context `when`/`sets` when given, or with every flag false when `read_drms`.

    Raises:
        LookupUsage: the chart is not read by dice or keys, a key is missing or wrong.
        LookupProblem: the chain can loop forever in this context (no exit has a chance), or it
            visits more than `compiler.engine.chains.MAX_STATES` states.
    """
    if chart.kind not in (model.ChartKind.ROLL, model.ChartKind.REFERENCE):
        raise LookupUsage(f"chart `{chart.address}` is not rolled on or read by its keys: it starts no chain")
    context = chain_context(game, chart, when, sets) if when or sets or read_drms else None
    keys = resolve_keys(chart, first_chart_keys(game, chart, given_keys))

    def drm_of(current: model.Chart, combo: tuple[str, ...], carried: int) -> int:
        if current.kind is not model.ChartKind.ROLL:
            return 0
        bound = tuple((k, m) for k, m in _members(current, combo))
        return read_modifiers(current, context, bound, carried).total

    start = State(chart.address, tuple(m.id for _, m in keys), drm)
    try:
        finals, states = final_chances(game, start, drm_of, given_keys)
    except ChainKeyMissing as exc:
        raise LookupUsage(str(exc)) from exc
    except (ChainLoops, ChainTooLong) as exc:
        raise LookupProblem(str(exc)) from exc
    rolled = context is not None and chart.kind is model.ChartKind.ROLL
    first = read_modifiers(chart, context, keys, drm) if rolled else None
    ordered = tuple(sorted(finals, key=lambda f: _final_order(game, f)))
    return ChainOdds(game, chart, keys, drm, ordered, states, context, first)


def _final_order(game: model.Game, final: FinalChance) -> tuple[int, tuple[int, ...], int]:
    """Final outcomes in the game's chart order, then by key values in their enums' order, then in
    row order (no row last)."""
    chart = game.chart(final.final.address)
    assert chart is not None  # finals are made from the game's charts
    position = next((i for i, c in enumerate(game.charts) if c is chart), len(game.charts))
    pairs = zip(chart.keys, final.final.combo, strict=True)
    members = tuple([m.id for m in key.enum.members].index(member) for key, member in pairs)
    row = next((i for i, r in enumerate(chart.rows) if r is final.final.row), len(chart.rows))
    return position, members, row


def _members(chart: model.Chart, combo: tuple[str, ...]) -> Iterator[tuple[model.Key, model.Member]]:
    for key, member_id in zip(chart.keys, combo, strict=True):
        member = key.enum.member(member_id)
        assert member is not None  # combos are made of the keys' own members
        yield key, member
