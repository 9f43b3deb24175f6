"""A resolved chart: how it is read (kind, dice, value key, keys), its output columns, its rows,
how it is printed (grid, availability grid) and what errata did to it."""

from __future__ import annotations

import dataclasses
import enum
import functools
import itertools
import re
import weakref

from compiler.model.conditions import Condition, Drm, DrmGroup, Footnote
from compiler.model.dice import DIGIT_FORMS, Dice
from compiler.model.odds import OddsRule
from compiler.model.shifts import DrmSource, ShiftRules
from compiler.model.types import ColumnType, ContextVar, EnumType
from compiler.model.values import DieRange, KeyMatch, Value, key_matches
from dsl.lazy_dataclass import dataclass
from dsl.shared import RollStep, Side, Span, StepKind


class ChartKind(enum.StrEnum):
    """How a chart is read."""

    ROLL = "roll"  # by dice
    VALUE = "value"  # by an integer (fatigue level, victory points)
    REFERENCE = "reference"  # by its keys only
    DRMS = "drms"  # a DRM list whose table is not printed
    EXTERNAL = "external"  # printed elsewhere; other charts refer to it
    ODDS = "odds"  # an odds rule that picks CRT odds columns


@dataclass(frozen=True)
class Key:
    """An extra key a row is selected by, typed by an enum (or the game's periods)."""

    id: str
    enum: EnumType
    span: Span


@dataclass(frozen=True)
class Column:
    """An output column: what each row's cell in it holds (`type`) and its printed head."""

    id: str
    type: ColumnType
    label: str
    span: Span
    within: str | None = None  # `within LIMIT`: its cells are counts the limit caps (C492)
    within_span: Span | None = None


@dataclass(frozen=True)
class Row:
    """One row: the key members it applies to (None = any; a MonthSpan for month keys), its range
    (None for reference tables keyed only by enums), and one value per output column."""

    keys: tuple[KeyMatch, ...]
    range: DieRange | None
    values: tuple[Value, ...]
    span: Span
    errata: tuple[str, ...] = ()  # ids of the errata that added or changed this row
    printed_values: tuple[Value, ...] | None = None  # the values as printed, when an errata changed them
    printed_range: str | None = None
    added: bool = False  # the row is not in the print; an errata added it
    because: tuple[str, ...] = ()  # why the errata changed this row or cell, as they say it
    natural: bool = False  # `natural 1: ...`: read by the natural roll, before any DRM (checked first)


@dataclass(frozen=True)
class GridRow:
    values: tuple[Value, ...]
    cells: tuple[DieRange | None, ...]
    span: Span


@dataclass(frozen=True)
class GridLayout:
    """How the chart is printed when it is a grid: results down, key values across (`heads`)."""

    key: str
    heads: tuple[str, ...]
    rows: tuple[GridRow, ...]


class AvailabilityMark(enum.StrEnum):
    """A cell of an availability grid that is not a die range."""

    AUTOMATIC = "auto"  # `✓`: available without a roll


# A printed availability cell: `✓`, the die range that makes the item available, or None (`-`).
AvailabilityCell = DieRange | AvailabilityMark | None

# The result an availability grid's rows give (the text of its `result` column).
AVAILABLE = "available"
NOT_AVAILABLE = "not available"
AUTOMATIC = "automatic"


@dataclass(frozen=True)
class ShortRow:
    """A row of a partial availability grid that gives fewer cells than the grid has heads."""

    item: str  # the member id
    written: str  # the item as the row writes it
    span: Span


@dataclass(frozen=True)
class AvailabilityLayout:
    """How an availability chart is printed (IA2 R2/R3): items down (`item_key`), months across
    (`head_key`, `heads`), one cell per item and month (fewer in the `short_rows` of a partial
    chart)."""

    item_key: str
    head_key: str
    heads: tuple[str, ...]
    rows: tuple[tuple[str, tuple[AvailabilityCell, ...]], ...]  # (member id, cells)
    short_rows: tuple[ShortRow, ...] = ()


@dataclass(frozen=True)
class ValueKey:
    """The integer a value-keyed chart is read by (fatigue level, victory points)."""

    id: str
    label: str
    domain: DieRange
    within: str | None = None  # `within LIMIT`: the domain is checked against that limit (C491)
    within_span: Span | None = None


@dataclass(frozen=True)
class ChartErrata:
    """What the errata did to a chart: which applied (in order), the printed title and `partial`
    reason they replaced, the printed rows they removed, and their notes and reasons."""

    applied: tuple[str, ...]
    printed_title: str | None = None
    printed_partial: str | None = None  # the print's `partial` reason, when an errata completed the chart
    removed_rows: tuple[Row, ...] = ()  # printed rows an errata removed (their `errata` says which)
    notes: tuple[tuple[str, str], ...] = ()  # (errata id, note)
    reasons: tuple[tuple[str, str], ...] = ()  # (errata id, the `because` it gave)
    removed_drms: tuple[Drm, ...] = ()  # printed DRMs an errata removed (their `errata` says which)
    printed_notes: tuple[tuple[str, str, str], ...] = ()  # (errata id, `footnote 1` or `note 2`, printed text)


@dataclass(frozen=True)
class DiceAlternative:
    """`roll lower of 2d10 when veteran`: dice the chart is rolled with instead of its `roll` while
    `when` holds (Stuka Leader evasion); the first alternative whose condition holds is rolled."""

    dice: Dice
    when: Condition
    span: Span


@dataclass(frozen=True)
class Overlay:
    """`overlay bad_weather "In bad weather" when weather == bad { 1-2: "Aborted" }`: a band of rows
    printed over the table (issue 32) that is read before the chart's own rows while `when` holds;
    like a DRM's, the condition applies only when it is known to hold."""

    id: str | None
    label: str | None
    when: Condition
    rows: tuple[Row, ...]
    span: Span

    @property
    def name(self) -> str:
        """The overlay in messages and outputs: its label, else its id, else `overlay`."""
        return self.label or self.id or "overlay"


@dataclass(frozen=True)
class Chart:
    """A resolved chart; `kind` says how it is read. What a chart does not have (dice, keys,
    rows, ...) is None or empty."""

    game: str
    chart_id: str | None
    slug: str | None
    title: str
    kind: ChartKind
    source_file: str
    span: Span
    rule: str | None = None
    dice: Dice | None = None
    value_key: ValueKey | None = None
    keys: tuple[Key, ...] = ()
    columns: tuple[Column, ...] = ()  # the output columns
    drms: tuple[Drm, ...] = ()
    clamp: tuple[int, int] | None = None
    footnotes: tuple[Footnote, ...] = ()
    notes: tuple[str, ...] = ()
    partial: str | None = None
    partial_span: Span | None = None  # where the chart says `partial` (C309's fix deletes the statement)
    rows: tuple[Row, ...] = ()
    grid: GridLayout | None = None
    title_span: Span | None = None  # where findings about the chart as a whole point
    broken: bool = False  # some rows failed to resolve; coverage checks would only echo that
    availability: AvailabilityLayout | None = None
    odds: OddsRule | None = None
    errata: ChartErrata | None = None
    drm_meaning: str | None = None  # what a DRM means on a d66 or percentile roll
    repeat: int = 1  # how many times the roll is made, each read separately (`repeat 3`)
    dice_alternatives: tuple[DiceAlternative, ...] = ()  # `roll ... when COND`, tried before `dice`
    drm_groups: tuple[DrmGroup, ...] = ()  # exclusive groups of `drms`
    # the roll's arithmetic after the dice, in order, with one DRMS step (`roll 1d6 then drms then
    # minus 3 then minimum 0`; `modified clamp 1 to 10` ends it with `minimum 1`, `maximum 10`);
    # empty: the modified roll is the natural roll plus the DRM total
    pipeline: tuple[RollStep, ...] = ()
    context: tuple[ContextVar, ...] = ()  # the context variables the DRMs test, for reachability
    high_rolls_favour: Side | None = None  # a CRT's declared direction (`high_rolls favour attacker`)
    shifts: ShiftRules | None = None  # a CRT's column shifts
    drm_sources: tuple[DrmSource, ...] = ()  # DRMs read from a terrain effects chart (in `drms` too)
    aid_chance: bool | None = None  # `aid chance on|off`: the aid's chance column (None: the game's setting)
    overlays: tuple[Overlay, ...] = ()  # bands of rows read first while their condition holds

    @property
    def all_dice(self) -> tuple[Dice, ...]:
        """Every dice the chart may be rolled with: its `roll`, then each alternative's, in order."""
        return ((self.dice,) if self.dice else ()) + tuple(a.dice for a in self.dice_alternatives)

    @property
    def unstated_digit_drm(self) -> Dice | None:
        """The chart's `roll` when it is read digit by digit (d66, percentile) and the chart does not
        say what a DRM means there (`drm_meaning`): the one rule C413 reports and lookup and odds
        refuse a DRM by. The `roll`, not an alternative, says how the chart reads a DRM."""
        digits = self.dice is not None and self.dice.form in DIGIT_FORMS
        return self.dice if digits and self.drm_meaning is None else None

    @property
    def natural_rolls(self) -> list[int]:
        """Every natural roll some dice of the chart can show, ascending (the union over its dice)."""
        return sorted({roll for dice in self.all_dice for roll in dice.outcomes})

    @property
    def dice_text(self) -> str:
        """The dice in messages: `1d10`, or with alternatives each of them, `lower of 2d10 or 1d10`."""
        return " or ".join(d.text for d in (*(a.dice for a in self.dice_alternatives), *(self.all_dice[:1])))

    @property
    def arithmetic(self) -> tuple[RollStep, ...]:
        """The steps of the roll's pipeline other than the DRMs (`minus 3`, `minimum 0`); empty when
        the modified roll is the natural roll plus the DRM total."""
        return tuple(s for s in self.pipeline if s.kind is not StepKind.DRMS)

    @property
    def roll_steps(self) -> tuple[RollStep, ...]:
        """The roll's steps after the dice: its `pipeline`, or the DRM step alone without arithmetic."""
        return self.pipeline if self.arithmetic else (RollStep(StepKind.DRMS, self.span),)

    @property
    def address(self) -> str:
        """How the CLI and outputs name the chart inside its game: the printed ID, else the slug."""
        return self.chart_id or self.slug or ""

    @property
    def errata_ids(self) -> tuple[str, ...]:
        """The ids of the errata that amended this chart, in order of application."""
        return self.errata.applied if self.errata else ()

    @property
    def ident(self) -> str:
        """A Python-identifier form of the address (`R4` -> `r4`, `B-12` -> `b_12`)."""
        base = (self.chart_id or self.slug or "chart").lower()
        base = re.sub(r"[^a-z0-9_]", "_", base)
        return base if base[0].isalpha() or base[0] == "_" else f"chart_{base}"

    def drm_span(self) -> tuple[int, int]:
        """Lowest and highest total DRM the chart's declared modifiers can add (after clamp)."""
        return drm_span(self.drms, self.clamp)

    def key_combinations(self) -> list[tuple[str, ...]]:
        """Every combination of key members, in declaration order."""
        return list(itertools.product(*[[m.id for m in k.enum.members] for k in self.keys]))

    def with_overlays(self, active: tuple[Overlay, ...]) -> Chart:
        """The chart as read while the overlays `active` hold: their rows (in order) before its own,
        and no overlay left to apply; the chart itself when none is active."""
        if not active:
            return self
        first = tuple(r for o in active for r in o.rows)
        return dataclasses.replace(self, rows=first + self.rows, overlays=())

    def rows_for(self, combo: tuple[str, ...]) -> list[Row]:
        """The rows whose keys match `combo` (one member id per key), in table order. Each key
        combination's rows are found once per chart (`_ROWS_FOR`): the checks, the chances and
        the emitters ask for the same combinations again and again."""
        entry = _ROWS_FOR.get(id(self))
        if entry is None or entry[0]() is not self:
            entry = _ROWS_FOR[id(self)] = (weakref.ref(self, functools.partial(_forget, id(self))), {})
        known = entry[1]
        found = known.get(combo)
        if found is None:
            found = known[combo] = tuple(
                r for r in self.rows if all(key_matches(k, c) for k, c in zip(r.keys, combo, strict=False))
            )
        return list(found)


_RowsFor = dict[int, tuple[weakref.ref[Chart], dict[tuple[str, ...], tuple[Row, ...]]]]
_ROWS_FOR: _RowsFor = {}
"""Each live chart's rows per key combination, by `id` of the chart (a chart is immutable; the weak
reference drops the entry when the chart is freed, before its `id` can be reused)."""


def _forget(key: int, _: object, known: _RowsFor = _ROWS_FOR) -> None:
    """Drop a freed chart's rows (the default binds the dict itself: a chart freed at interpreter
    exit, after the module's globals are cleared, still finds it)."""
    known.pop(key, None)


def drm_span(drms: tuple[Drm, ...], clamp: tuple[int, int] | None) -> tuple[int, int]:
    """Lowest and highest total the DRMs can add, all negative ones or all positive ones together,
    after the clamp."""
    low = sum(min(d.contributions()) for d in drms)
    high = sum(max(d.contributions()) for d in drms)
    if clamp:
        low = max(clamp[0], min(clamp[1], low))
        high = max(clamp[0], min(clamp[1], high))
    return low, high
