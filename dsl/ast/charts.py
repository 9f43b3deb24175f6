"""A `chart`, `drms` or `external` declaration and its statements: dice, value key, keys, columns,
footnotes, `allow`, `derive`, the side higher rolls favour."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dsl.ast.conditions import Cond
from dsl.ast.layouts import AvailabilityDecl, GridDecl, RollGridDecl, RowDecl
from dsl.ast.modifiers import (
    CombineDecl,
    DrmDecl,
    DrmFromDecl,
    DrmGroupDecl,
    ModifiedClampDecl,
    ShiftCapDecl,
    ShiftDecl,
    ShiftGroupDecl,
)
from dsl.ast.values import Name, RangeText, Text
from dsl.shared import DiceForm, Side, Span


@dataclass(frozen=True)
class DiceDecl:
    """`roll 2d6`, `roll d66`, `roll percentile`, `roll lower of 2d10`, `roll 1d6 minus 3 min 0`,
    `roll higher of 2d10`, `roll highest 3 of 4d6`, `roll lowest 2 of 3d6`, `roll 1d6 versus 1d6`.

    `keep` is how many dice the highest/lowest forms keep; `versus_count`/`versus_sides` the
    opposing side's dice of the versus form."""

    form: DiceForm
    count: int
    sides: int
    subtract: int
    floor: int
    text: str
    span: Span
    keep: int = 0
    versus_count: int = 0
    versus_sides: int = 0


@dataclass(frozen=True)
class DiceAlternativeDecl:
    """`roll lower of 2d10 when veteran` — dice rolled instead of the chart's `roll` while `when` holds."""

    dice: DiceDecl
    when: Cond
    span: Span


@dataclass(frozen=True)
class ZeroReadsDecl:
    """`zero reads 0` / `zero reads 10` — how the chart reads a d10's `0` face."""

    value: int
    span: Span


@dataclass(frozen=True)
class RepeatDecl:
    """`repeat 3` — the roll is made this many times, each read separately (USAAF 19.3 optional)."""

    times: int
    span: Span


@dataclass(frozen=True)
class ValueKeyDecl:
    """`value fatigue "Fatigue level" 0+` — the chart is keyed by an integer, not a roll."""

    name: Name
    label: Text | None
    domain: RangeText
    span: Span


@dataclass(frozen=True)
class KeyDecl:
    """`key interceptor` or `key kind: interceptor`: an extra key the rows are read by."""

    name: Name
    type_name: Name
    span: Span


@dataclass(frozen=True)
class ColumnDecl:
    """`column result: text "Result"`: an output column and its type."""

    name: Name
    type_name: Name
    label: Text | None
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
    drm_meaning: Text | None = None
    derive: DeriveDecl | None = None
    rows: tuple[RowDecl, ...] = ()
    grids: tuple[GridDecl, ...] = ()
    availability: tuple[AvailabilityDecl, ...] = ()
    repeated: tuple[Span, ...] = ()  # statements given twice where only one is allowed
    allows: tuple[AllowDecl, ...] = ()
    drm_groups: tuple[DrmGroupDecl, ...] = ()
    modified_clamp: ModifiedClampDecl | None = None
    zero_reads: ZeroReadsDecl | None = None
    repeat: RepeatDecl | None = None
    roll_alternatives: tuple[DiceAlternativeDecl, ...] = ()
    high_rolls_favour: Favoured | None = None  # `high_rolls favour attacker` on a CRT
    roll_grids: tuple[RollGridDecl, ...] = ()
    shifts: tuple[ShiftDecl, ...] = ()
    shift_groups: tuple[ShiftGroupDecl, ...] = ()
    shift_cap: ShiftCapDecl | None = None
    drms_from: tuple[DrmFromDecl, ...] = ()
    aid_chance: bool | None = None  # `aid chance on|off`: the player aid's chance column (None: the game's)
