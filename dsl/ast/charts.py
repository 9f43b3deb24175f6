"""A `chart`, `drms` or `external` declaration and its statements: dice, value key, keys, columns,
DRMs and CRT column shifts (groups, clamps, caps, those read from a terrain effects chart),
footnotes, `allow`, `derive`, and its table as printed (rows, grids, CRTs printed by roll,
availability grids)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dsl.ast.values import Cond, KeyValueText, Name, RangeText, Text, ValueText, Written
from dsl.shared import DiceForm, GroupMode, Number, RollStep, Rounding, Side, Span


@dataclass(frozen=True)
class DiceDecl:
    """`roll 2d6`, `roll d66`, `roll percentile`, `roll lower of 2d10`, `roll higher of 2d10`,
    `roll highest 3 of 4d6`, `roll lowest 2 of 3d6`, `roll 1d6 versus 1d6`, `roll exploding 2d6
    depth 3`, and the arithmetic after the dice: `roll 1d6 then drms then minus 3 then minimum 0
    then maximum 3`.

    `keep` is how many dice the highest/lowest forms keep; `versus_count`/`versus_sides` the
    opposing side's dice of the versus form; `depth` how many times an exploding die may roll again;
    `steps` the roll's arithmetic in the order written (`roll 1d6 minus 3 min 0` is the dice with
    the steps `drms`, `minus 3`, `minimum 0`)."""

    form: DiceForm
    count: int
    sides: int
    text: str
    span: Span
    keep: int = 0
    versus_count: int = 0
    versus_sides: int = 0
    depth: int = 0
    steps: tuple[RollStep, ...] = ()


@dataclass(frozen=True)
class DiceAlternativeDecl:
    """`roll lower of 2d10 when veteran` — dice rolled instead of the chart's `roll` while `when` holds."""

    dice: DiceDecl
    when: Cond
    span: Span


@dataclass(frozen=True)
class ValueKeyDecl:
    """`value fatigue "Fatigue level" 0+` — the chart is keyed by an integer, not a roll."""

    name: Name
    label: Text | None
    domain: RangeText
    span: Span
    within: Name | None = None  # `within LIMIT`: the domain checked against a limit of the game


@dataclass(frozen=True)
class KeyDecl:
    """`key interceptor` or `key kind: interceptor`: an extra key the rows are read by."""

    name: Name
    type_name: Name
    span: Span


@dataclass(frozen=True)
class ColumnDecl:
    """`column result: text "Result"`: an output column and its type; `within LIMIT` after a count
    column names the limit that caps its cells (C492 where a case of it is `forbidden`)."""

    name: Name
    type_name: Name
    label: Text | None
    within: Name | None
    span: Span


@dataclass(frozen=True)
class FootnoteDecl:
    """`footnote 1 "text"`: a numbered footnote as printed."""

    mark: int
    text: Text
    span: Span


@dataclass(frozen=True)
class AllowDecl:
    """`allow C305 "reason"` — silence one diagnostic code for findings inside this chart."""

    code: Name
    reason: Text
    span: Span


@dataclass(frozen=True)
class DeriveDecl:
    """`derive from aamg_damage bands +5`: a variant of another chart with every inner band
    boundary moved (aa_rules IL-2: "+5% on the AAMG table's bands")."""

    base: Name
    band_shift: int
    span: Span


@dataclass(frozen=True)
class Favoured:
    """`high_rolls favour attacker`: the side a higher modified roll favours on a CRT."""

    side: Side
    span: Span


class ChartKind(StrEnum):
    """The statement that declared a chart: `chart`, `drms` (a DRM list), or `external`
    (printed elsewhere, named so references resolve)."""

    CHART = "chart"
    DRMS = "drms"
    EXTERNAL = "external"


@dataclass(frozen=True)
class ChartDecl:
    """A `chart`, `drms` or `external` declaration with its statements in source order (a
    statement the declaration does not make: None, or no items)."""

    kind: ChartKind
    chart_id: Name | None
    slug: Name | None
    title: Text
    span: Span
    rule: Text | None = None
    roll: DiceDecl | None = None
    value_key: ValueKeyDecl | None = None
    keys: tuple[KeyDecl, ...] = ()
    columns: tuple[ColumnDecl, ...] = ()
    drms: tuple[DrmDecl, ...] = ()
    combine: CombineDecl | None = None
    footnotes: tuple[FootnoteDecl, ...] = ()
    notes: tuple[Text, ...] = ()
    partial: Text | None = None
    partial_span: Span | None = None  # the whole `partial "..."` statement (C309's fix deletes it)
    drm_meaning: Text | None = None
    derive: DeriveDecl | None = None
    rows: tuple[RowDecl, ...] = ()
    grids: tuple[GridDecl, ...] = ()
    availability: tuple[AvailabilityDecl, ...] = ()
    repeated: tuple[Span, ...] = ()  # statements given twice where only one is allowed
    allows: tuple[AllowDecl, ...] = ()
    drm_groups: tuple[DrmGroupDecl, ...] = ()
    modified_clamp: BoundsDecl | None = None
    zero_reads: Number | None = None  # `zero reads 0|10`: how the chart reads a d10's `0` face
    repeat: Number | None = None  # `repeat 3`: the roll is made this many times, each read separately
    roll_alternatives: tuple[DiceAlternativeDecl, ...] = ()
    high_rolls_favour: Favoured | None = None  # `high_rolls favour attacker` on a CRT
    roll_grids: tuple[RollGridDecl, ...] = ()
    shifts: tuple[ShiftDecl, ...] = ()
    shift_groups: tuple[ShiftGroupDecl, ...] = ()
    shift_cap: BoundsDecl | None = None
    drms_from: tuple[DrmFromDecl, ...] = ()
    aid_chance: bool | None = None  # `aid chance on|off`: the player aid's chance column (None: the game's)
    overlays: tuple[OverlayDecl, ...] = ()  # `overlay NAME "label" when COND { rows }`


# ---- DRMs and CRT column shifts ------------------------------------------------------------------


@dataclass(frozen=True)
class DrmDecl:
    """`drm weather "Weather" +1 when month in [1944-11] [2]`: a DRM, its condition and footnote."""

    name: Name
    label: Text | None
    value: int
    value_span: Span
    when: Cond | None
    footnote: int | None
    span: Span
    per: DrmPerDecl | None = None


@dataclass(frozen=True)
class DrmPerDecl:
    """`per 10 kills round up`: the DRM applies once per `step` of an int context variable."""

    step: int
    var: Name
    rounding: Rounding
    span: Span


@dataclass(frozen=True)
class DrmGroupDecl:
    """`drm_group terrain "Terrain" best { drm ... }`: DRMs of which only one applies."""

    name: Name
    label: Text | None
    mode: GroupMode
    drms: tuple[DrmDecl, ...]
    span: Span


@dataclass(frozen=True)
class CombineDecl:
    """`combine sum` or `combine sum clamp -2 to +3`: how the chart's DRMs add up."""

    clamp_min: int | None
    clamp_max: int | None
    span: Span


@dataclass(frozen=True)
class BoundsDecl:
    """`LOW to HIGH`: the bounds a total is held inside: the modified roll's (`modified clamp 1 to
    10`: modified rolls below 1 read as 1, above 10 as 10) or the total column shift's (`shift_cap
    -2 to +2`)."""

    low: int
    high: int
    span: Span


@dataclass(frozen=True)
class ShiftSourceDecl:
    """`from [TEC] column shift by terrain`: a shift read from another chart's column, in the row
    the context variable `by` picks (a terrain effects chart as the one source)."""

    chart: Name
    column: Name
    by: Name
    span: Span


@dataclass(frozen=True)
class ShiftDecl:
    """`shift river "Across a river" -1 when river group terrain`, or a shift `from` a chart."""

    name: Name
    label: Text | None
    value: int | None  # None when read from a chart
    when: Cond | None
    source: ShiftSourceDecl | None
    group: Name | None
    span: Span


@dataclass(frozen=True)
class DrmFromDecl:
    """`drm terrain "Terrain" from [TEC] column drm by terrain`: a DRM per row of a terrain
    effects chart, read from its column."""

    name: Name
    label: Text | None
    source: ShiftSourceDecl
    span: Span


@dataclass(frozen=True)
class ShiftGroupDecl:
    """`shift_group defence "Defence" worst { shift ... }`: of the group's shifts that apply, only
    the worst (or best; `one`: the first) counts, as a `drm_group` for DRMs."""

    name: Name
    label: Text | None
    mode: GroupMode
    shifts: tuple[ShiftDecl, ...]
    span: Span


# ---- the table as printed ------------------------------------------------------------------------


@dataclass(frozen=True)
class RowDecl:
    """`piston 3-6: "Combat"`: key values, the printed range, and one value per column."""

    keys: tuple[KeyValueText, ...]
    range: RangeText | None
    values: tuple[ValueText, ...]
    span: Span
    natural: bool = False  # `natural 1: ...`: read by the natural roll before any DRM
    out_of: Written | None = None  # `3 in 6: ...`: `range` is the weight 3, this the 6 it is out of


@dataclass(frozen=True)
class OverlayDecl:
    """`overlay bad_weather "In bad weather" when weather == bad { 1-2: "Aborted" }`: rows printed
    over the table that are read first while `when` holds."""

    name: Name | None
    label: Text | None
    when: Cond
    rows: tuple[RowDecl, ...]
    span: Span


@dataclass(frozen=True)
class CellText:
    """A grid cell: a range or `-` (this result cannot occur in this column)."""

    range: RangeText | None
    span: Span


@dataclass(frozen=True)
class GridRowDecl:
    """One grid row: its result values, then one cell per grid column."""

    values: tuple[ValueText, ...]
    cells: tuple[CellText, ...]
    span: Span


@dataclass(frozen=True)
class GridDecl:
    """The printed grid form: rows are results, columns are values of one key, cells are ranges."""

    key: Name
    columns: tuple[KeyValueText, ...]
    rows: tuple[GridRowDecl, ...]
    span: Span


@dataclass(frozen=True)
class RollLineDecl:
    """A line of a grid printed by roll: the rolls, then one result per grid column."""

    range: RangeText
    values: tuple[ValueText, ...]
    span: Span


@dataclass(frozen=True)
class RollGridDecl:
    """`grid odds ["1:2", "1:1"] by roll { 1-: AE | AR ... }`: the classic CRT as printed, die
    rolls down, values of one key across, a result in each cell."""

    key: Name
    columns: tuple[KeyValueText, ...]
    lines: tuple[RollLineDecl, ...]
    span: Span


class AvailKind(StrEnum):
    """What an availability cell says."""

    AUTO = "auto"
    RANGE = "range"
    NONE = "none"


@dataclass(frozen=True)
class AvailCell:
    """An availability cell: `✓` (automatic), a die range, or `-` (not available)."""

    kind: AvailKind
    range: RangeText | None
    span: Span


@dataclass(frozen=True)
class AvailRowDecl:
    """`bf109g6: ✓ | 1-5 | -`: one row of an availability grid."""

    key: KeyValueText
    cells: tuple[AvailCell, ...]
    span: Span


@dataclass(frozen=True)
class AvailabilityDecl:
    """`availability type by month [1944-03, ...] { bf109g6: ✓ | 1-5 | - }` (IA2 R2/R3)."""

    row_key: Name
    col_key: Name
    columns: tuple[KeyValueText, ...]
    rows: tuple[AvailRowDecl, ...]
    span: Span
