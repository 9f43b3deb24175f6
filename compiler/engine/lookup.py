"""Read a chart the way a player does: natural roll (or value) + DRM, keys -> the selected row.

Used by `chartc lookup` and `chartc odds`, vectors and the worked-example check. The modified roll
and the row it selects come from the runtime every generated module carries (`_modified`,
`_row_for`, `_first`), reading the chart as `compiler.engine.plain` converts it, so chartc and the
generated `lookup_<id>` select the same row. Rendering the answers is `compiler.query.reports`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from compiler import model
from compiler.engine import overlays, plain
from compiler.engine import shifts as column_shifts
from compiler.engine.context import ContextValue, ModifierAnswer, read_context, read_modifiers, read_number
from compiler.engine.drms import holds
from compiler.engine.keys import KeyValues as KeyValues  # re-exported for callers
from compiler.engine.keys import kept_months_hold
from compiler.engine.keys import resolve_keys as resolve_keys
from compiler.engine.odds import OddsProblem, Reading, read
from compiler.engine.problems import LookupProblem as LookupProblem  # re-exported for callers
from compiler.engine.problems import LookupUsage as LookupUsage
from compiler.engine.problems import NoPeriod
from compiler.engine.problems import NoRow as NoRow
from compiler.engine.runtime.roll import _modified, _row_for
from compiler.engine.runtime.rows import _first
from compiler.model.dice import Dice, DiceForm
from compiler.model.odds import OddsForm
from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True)
class ChartRead:
    """A chart of a game read for key values: what every report on the chances of one chart
    (`chartc odds`, `chartc odds --follow`) is about."""

    game: model.Game
    chart: model.Chart
    keys: KeyValues


@dataclass(frozen=True)
class LookupResult:
    """The row a lookup selected, with the natural roll (or value), the DRM and the modified roll
    (both None for a chart read by keys only)."""

    chart: model.Chart
    natural: int | None
    drm: int
    modified: int | None
    keys: KeyValues
    row: model.Row
    odds: tuple[tuple[str, Reading], ...] = ()  # CRT keys read from --attack/--defense, by key id
    shifts: column_shifts.ShiftBreakdown | None = None  # the CRT's own column shifts that applied
    modifiers: ModifierAnswer | None = None  # how `drm` was made up (None for a chart without a roll)
    overlay: model.Overlay | None = None  # the overlay whose row was selected (its condition held)

    def values(self) -> dict[str, model.Value]:
        """The selected row's cells by column id."""
        return {c.id: v for c, v in zip(self.chart.columns, self.row.values, strict=True)}


def read_roll(chart: model.Chart, text: str) -> int:
    """The natural roll (or value) as given on the command line, read with the chart's dice.

    Raises:
        LookupProblem: not a number, or not a result the chart's dice can roll.
    """
    stripped = text.strip()
    if chart.dice is not None and chart.dice.form is DiceForm.LOWER_TENS and _TWO_DICE.fullmatch(stripped):
        stripped = lower_tens_reading(stripped)  # the two d10 as they fell: `7,3` reads 37
    if stripped.startswith("+"):
        raise LookupUsage(f"`{text}` is not a roll: give a whole number in ASCII digits (0-9)")
    read_number(stripped, "a roll")
    negative = stripped.startswith("-")
    digits = stripped[1:] if negative else stripped
    if chart.kind is model.ChartKind.VALUE:
        value = -int(digits) if negative else int(digits)
        vk = chart.value_key
        if vk is not None and not vk.domain.contains(value):
            raise LookupProblem(f"{value} is not a possible {vk.label.lower()} (the chart reads {vk.domain.printed})")
        return value
    dice = chart.dice
    if dice is None:
        raise LookupProblem(f"chart `{chart.address}` has no roll")
    rolled = -int(digits) if negative else dice.read_number(digits)
    if rolled is None:
        rolled = int(digits)
    if rolled not in chart.natural_rolls and dice.form is DiceForm.LOWER_TENS and 0 < rolled < 100:
        tens, ones = divmod(rolled, 10)
        raise LookupProblem(
            f"{text} cannot be rolled on {chart.dice_text}: the lower die is the tens, so the tens digit is "
            f"never above the ones (did you mean {ones}{tens}?)"
        )
    if rolled not in chart.natural_rolls:
        raise LookupProblem(
            f"{text} cannot be rolled on {chart.dice_text}: natural rolls run {chart.natural_rolls[0]} to "
            f"{chart.natural_rolls[-1]}"
            + (" (a 0 on the die reads as 10)" if _one_d10(dice) else "")
            + (" (00 reads as 100)" if dice.form in (DiceForm.PERCENTILE, DiceForm.LOWER_TENS) else "")
        )
    return rolled


_TWO_DICE = re.compile(r"([0-9])\s*[,/ ]\s*([0-9])")


def lower_tens_reading(typed: str) -> str:
    """Two d10 as they fell (`7,3`, `7 3`, `7/3`) read as `percentile lower as tens` reads them: the
    lower die the tens, the other the ones (`37`; two 0s are `00`, which reads 100)."""
    m = _TWO_DICE.fullmatch(typed.strip())
    assert m is not None
    low, high = sorted((m.group(1), m.group(2)))
    return low + high


def odds_reading(chart: model.Chart, attack: int, defense: int | None, shift: int = 0) -> Reading:
    """The column an odds chart picks, with the odds as formed (`9:1 reads the 6:1 column`).

    Raises:
        LookupUsage: not an odds chart, or a defense given to a strength rule (or none to another).
        LookupProblem: no factors, or odds the rule does not allow.
    """
    rule = chart.odds
    if rule is None:
        raise LookupUsage(f"chart `{chart.address}` is not an odds rule")
    if rule.form is OddsForm.STRENGTH and defense is not None:
        raise LookupUsage(f"`{chart.address}` reads the attack strength alone: leave out --defense")
    if rule.form is not OddsForm.STRENGTH and defense is None:
        raise LookupUsage("give both --attack and --defense")
    try:
        return read(rule, attack, defense, shift)
    except OddsProblem as exc:
        raise LookupProblem(str(exc)) from exc


def keys_from_odds(
    game: model.Game, chart: model.Chart, attack: int, defense: int | None, shift: int
) -> dict[str, str]:
    """For a CRT keyed by an odds rule's columns: {key: column label} for these forces."""
    return {key: reading.column for key, reading in readings_from_odds(game, chart, attack, defense, shift).items()}


def readings_from_odds(
    game: model.Game, chart: model.Chart, attack: int, defense: int | None, shift: int
) -> dict[str, Reading]:
    """For a CRT keyed by an odds rule's columns: {key: the column read} for these forces."""
    found = {}
    for key in chart.keys:
        if (rule_chart := _odds_rule(game, key)) is not None:
            found[key.id] = odds_reading(rule_chart, attack, defense, shift)
    if not found:
        raise LookupUsage(f"chart `{chart.address}` has no odds column key; --attack/--defense do not apply")
    return found


def lookup(
    chart: model.Chart,
    roll_text: str | None,
    given_keys: dict[str, str],
    drm: int,
    context: Mapping[str, ContextValue] | None = None,
) -> LookupResult:
    """Select the row a roll (the natural roll through the chart's steps: DRMs, arithmetic,
    minimum and maximum) and keys pick; a `natural` row that holds the natural roll is selected
    before any other.

    Args:
        chart: a resolved chart of kind roll, value or reference.
        roll_text: the natural roll or value as typed (`3`, `0` for a d10's 10, `00` for 100); None
            for charts read by keys only.
        given_keys: key id -> member id or printed label.
        drm: the die roll modifier given on top of the chart's DRMs (`--drm`).
        context: the DRM context (`--when`, `--set`, read by `read_context`): the chart's DRMs
            are evaluated on it and its keys; None reads no DRM of the chart (`drm` is the total).

    Returns:
        The selected row with the natural and modified roll.

    Raises:
        LookupProblem: the roll is impossible, a key is wrong, or no row is selected (a gap or a
            modified roll off the end of a table without an open-ended row).
    """
    if chart.kind is model.ChartKind.DRMS:
        raise LookupUsage(
            f"`{chart.address}` lists DRMs only; its table is not printed (give --when/--set to add up its DRMs)"
        )
    if chart.kind is model.ChartKind.EXTERNAL:
        raise LookupUsage(f"`{chart.address}` is printed elsewhere; its rows are not transcribed")
    if chart.kind is model.ChartKind.ODDS:
        raise LookupUsage(f"`{chart.address}` is an odds rule: give --attack and --defense")
    keys = resolve_keys(chart, given_keys)
    combo = tuple(m.id for _, m in keys)
    declared = chart
    active: tuple[int, ...] = ()
    if chart.overlays and context is not None:  # the rows of every overlay that holds are read first
        active = overlays.active_in(chart, {**{k.id: model.MemberId(m.id) for k, m in keys}, **context})
        chart = overlays.with_active(chart, active)
    where = "".join(f", {k.id} `{m.label}`" for k, m in keys)
    rows = plain.chart_rows(chart)
    if chart.kind is model.ChartKind.REFERENCE:
        if roll_text is not None:
            raise LookupUsage(f"chart `{chart.address}` is read by its keys only; leave out the roll")
        if drm:
            raise LookupUsage(f"chart `{chart.address}` has no roll to modify")

        position = _first(rows.rows, combo, None)
        if position is None:
            raise LookupProblem(f"chart `{chart.address}` has no row{where}")
        return LookupResult(chart, None, 0, None, keys, chart.rows[position])
    if roll_text is None:
        raise LookupUsage(f"chart `{chart.address}` needs a roll: chartc lookup GAME/{chart.address} ROLL")
    natural = read_roll(chart, roll_text)
    if context is not None:
        refuse_other_dice(chart, roll_text, natural, {**{k.id: model.MemberId(m.id) for k, m in keys}, **context})
    modifiers = read_modifiers(chart, context, keys, drm)
    refuse_digit_drm(chart, modifiers.total)
    drm = modifiers.total

    modified = _modified(natural, drm, rows.steps)
    position = _row_for(rows.natural_rows, rows.indexed, combo, natural, modified)
    if position is None:
        shown = f"roll {natural}"
        if drm or modified != natural:
            shown = f"modified roll {modified} (natural {natural}, DRM {drm:+d})"
        listed = chart.rows_for(combo)
        covered = ", ".join(r.range.printed for r in listed if r.range is not None) or "nothing"
        partial = f" The chart is declared partial: {chart.partial}" if chart.partial else ""
        raise NoRow(
            f"{shown} selects no row of {chart.game}/{chart.address}{where}: the rows are {covered}.{partial}"
        )
    row = chart.rows[position]
    overlay = overlays.selected_from(declared, active, row)
    return LookupResult(chart, natural, drm, modified, keys, row, modifiers=modifiers, overlay=overlay)


def dice_in_context(chart: model.Chart, context: Mapping[str, ContextValue]) -> tuple[Dice, ...]:
    """The dice a chart with `roll ... when` alternatives may be rolled with in `context` (its
    keys and DRM context): the first alternative whose condition holds, else its own `roll`; an
    alternative whose condition is unknown there (a value not given) is kept as a possibility."""
    found: list[Dice] = []
    for alt in chart.dice_alternatives:
        holding = holds(alt.when, context)
        if holding is not False:
            found.append(alt.dice)
        if holding is True:
            return tuple(found)
    return (*found, *((chart.dice,) if chart.dice else ()))


def refuse_other_dice(chart: model.Chart, text: str, natural: int, context: Mapping[str, ContextValue]) -> None:
    """A natural roll the dice rolled in `context` cannot show (`roll 2d6 when not vet` and `roll
    1d6`: a 12 with `--when vet`), refused as `read_roll` refuses a 7 on 1d6.

    Raises:
        LookupProblem: no dice that may be rolled in `context` shows `natural`.
    """
    if not chart.dice_alternatives:
        return
    dice = dice_in_context(chart, context)
    rolls = sorted({roll for d in dice for roll in d.outcomes})
    if natural not in rolls:
        raise LookupProblem(
            f"{text} cannot be rolled on {' or '.join(d.text for d in dice)}, the dice rolled in this context: "
            f"natural rolls run {rolls[0]} to {rolls[-1]}"
        )


def refuse_digit_drm(chart: model.Chart, drm: int) -> None:
    """A DRM on a d66 or percentile chart that does not say what a DRM means there (C413 for a
    declared DRM) has no answer: adding to a two-digit reading is not obviously a roll.

    Raises:
        LookupUsage: a non-zero DRM on such a chart.
    """
    dice = chart.unstated_digit_drm
    if drm and dice is not None:
        raise LookupUsage(
            f"chart `{chart.address}` is read by {dice.text} digit by digit and does not say what a DRM means "
            f"there (no `drm_meaning`), so a DRM of {drm:+d} has no answer"
        )


@dataclass(frozen=True)
class OddsColumnAnswer:
    """The CRT odds column an odds rule picks for these forces (USAAF 15.1-15.2), with the odds as
    formed and whether the table's edge chose the column."""

    chart: model.Chart
    attack: int
    defense: int | None
    shift: int
    column: str
    formed: str = ""
    clamped: bool = False


@dataclass(frozen=True)
class Forces:
    """Attack and defense factors and column shifts (`--attack`, `--defense`, `--shift`); no
    defense for a strength-keyed rule."""

    attack: int
    defense: int | None
    shift: int = 0


def answer(
    game: model.Game,
    chart: model.Chart,
    roll_text: str | None,
    given_keys: dict[str, str],
    drm: int,
    forces: Forces | None = None,
    context: Mapping[str, ContextValue] | None = None,
    when: tuple[str, ...] = (),
    sets: tuple[str, ...] = (),
    read_drms: bool = False,
) -> LookupResult | OddsColumnAnswer | DrmListAnswer:
    """What `chartc lookup` answers: the odds column of an odds rule for FORCES, the row a roll
    selects (with the odds column key of a CRT picked from FORCES, moved by the CRT's own column
    shifts and the shift FORCES give), or, for a chart that lists DRMs only, their total.

    The chart's DRMs and column shifts are read in CONTEXT (context variable id -> value) and in
    the `--when` flags WHEN and `--set NAME=VALUE` pairs SETS; with none of them and not
    `read_drms` (`--read-drms`: every flag false), no DRM of the chart is read and `drm` is the
    whole modifier.

    Raises:
        LookupProblem: as `lookup`; LookupUsage when FORCES pick a key also given by name.
    """
    try:
        return _answer(game, chart, roll_text, given_keys, drm, forces, context, when, sets, read_drms)
    except NoPeriod as exc:
        kept = [k.reason for k in game.kept if k.code == "C411" and kept_months_hold(k.subject, exc.month)]
        if not kept:
            raise
        raise LookupUsage(f"{exc}; the book leaves it out: {'; '.join(kept)}") from exc


def _answer(
    game: model.Game,
    chart: model.Chart,
    roll_text: str | None,
    given_keys: dict[str, str],
    drm: int,
    forces: Forces | None,
    context: Mapping[str, ContextValue] | None,
    when: tuple[str, ...],
    sets: tuple[str, ...],
    read_drms: bool,
) -> LookupResult | OddsColumnAnswer | DrmListAnswer:
    if when or sets or read_drms:
        context = {**(context or {}), **read_context(game, chart, when, sets)}
    if chart.kind is model.ChartKind.DRMS and forces is None:  # read alone: every flag false, nothing set
        return drm_list_answer(chart, roll_text, given_keys, drm, context if context is not None else {})
    if forces is None:
        refuse_shifts_on_a_named_column(game, chart, given_keys, context)
        return lookup(chart, roll_text, given_keys, drm, context)
    if chart.kind is model.ChartKind.ODDS:
        if roll_text is not None:
            raise LookupUsage(f"`{chart.address}` is an odds rule: it takes the forces (--attack/--defense), no roll")
        got = odds_reading(chart, forces.attack, forces.defense, forces.shift)
        return OddsColumnAnswer(chart, forces.attack, forces.defense, forces.shift, got.column, got.formed, got.clamped)
    crt = crt_keys(game, chart, forces, given_keys, context)
    result = lookup(chart, roll_text, crt.keys, drm, context)
    return dataclasses.replace(result, odds=crt.readings, shifts=crt.shifts)


def refuse_shifts_on_a_named_column(
    game: model.Game, chart: model.Chart, given_keys: Mapping[str, str], context: column_shifts.Context | None
) -> None:
    """A CRT's column shifts move the column its odds rule reads from the forces (docs/language.md,
    Column shifts; the generated `odds_*` function takes the shift total, `lookup_*` the column
    read): an odds column given by name (`--key odds=3:1`) is already that column. When the
    context moves the column, the shift would be silently dropped, so it is refused.

    Raises:
        LookupUsage: an odds column key is given by name and the CRT's shifts in CONTEXT total
            other than 0.
    """
    if chart.shifts is None or context is None:
        return
    named = [k.id for k in chart.keys if k.id in given_keys and _odds_rule(game, k) is not None]
    shifts = column_shifts.breakdown(chart, context)
    if named and shifts.total:
        key = named[0]
        raise LookupUsage(
            f"--key {key}={given_keys[key]} names the odds column itself, but the CRT's column shifts apply "
            f"({shifts.text()}): give --attack/--defense so that they move the column the odds give"
        )


def _odds_rule(game: model.Game, key: model.Key) -> model.Chart | None:
    """The odds rule whose columns a key of a CRT takes, if it is one."""
    rule_chart = game.chart(key.enum.id)
    return rule_chart if rule_chart is not None and rule_chart.odds is not None else None


@dataclass(frozen=True)
class CrtKeys:
    """A CRT's keys with its odds columns read from forces: every key by id, how each odds key was
    read, and the CRT's own column shifts that applied (None when it declares none)."""

    keys: dict[str, str]
    readings: tuple[tuple[str, Reading], ...]
    shifts: column_shifts.ShiftBreakdown | None


def crt_keys(
    game: model.Game,
    chart: model.Chart,
    forces: Forces,
    given_keys: dict[str, str],
    context: column_shifts.Context | None = None,
) -> CrtKeys:
    """The keys `given_keys` plus the odds columns FORCES read, moved by the CRT's own column
    shifts in CONTEXT and by the shift FORCES give.

    Raises:
        LookupProblem: odds the rule does not allow; LookupUsage when FORCES pick a key also given
            by name, or the chart has no odds column key.
    """
    shifts = column_shifts.breakdown(chart, context or {}) if chart.shifts is not None else None
    shift = forces.shift + (shifts.total if shifts else 0)
    readings = readings_from_odds(game, chart, forces.attack, forces.defense, shift)
    both = sorted(set(readings) & set(given_keys))
    if both:
        raise LookupUsage(f"--attack/--defense pick key `{both[0]}`; leave out --key {both[0]}=...")
    from_odds = {key: reading.column for key, reading in readings.items()}
    return CrtKeys({**given_keys, **from_odds}, tuple(sorted(readings.items())), shifts)


@dataclass(frozen=True)
class DrmListAnswer:
    """The DRM total of a chart that lists DRMs only (IA2 B9), in a context."""

    chart: model.Chart
    modifiers: ModifierAnswer


def drm_list_answer(
    chart: model.Chart, roll_text: str | None, given_keys: dict[str, str], drm: int, context: Mapping[str, ContextValue]
) -> DrmListAnswer:
    """The DRMs of a DRM-list chart that apply in `context`, plus `drm`.

    Raises:
        LookupUsage: a roll or a key given (the chart has neither).
    """
    if roll_text is not None or given_keys:
        raise LookupUsage(f"`{chart.address}` lists DRMs only: give no roll or key, only --when/--set")
    return DrmListAnswer(chart, read_modifiers(chart, context, (), drm))


def _one_d10(dice: Dice) -> bool:
    return dice.form is DiceForm.SUM and dice.sides == 10 and dice.count == 1 and dice.zero == 10
