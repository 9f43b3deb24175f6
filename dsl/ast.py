"""Syntax tree of one `.chart` file: what was written, with a source span on every node.

The parser (`dsl.parser`) builds these frozen dataclasses from Lark's tree. Nothing here is
resolved: names are plain strings, ranges keep their printed text (`9-0`, `01-08`, `12+`), and
the compiler's resolver (`compiler.resolve`) turns them into the typed chart model. `Span` and
`Side`, which the model shares, are defined in `dsl.shared` and re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dsl.frozen import fast_inits
from dsl.shared import Side as Side
from dsl.shared import Span as Span


@dataclass(frozen=True)
class Name:
    """An identifier as written, e.g. `piston`, with where it was written."""

    text: str
    span: Span


@dataclass(frozen=True)
class Text:
    """A double-quoted string literal, already unescaped."""

    text: str
    span: Span


@dataclass(frozen=True)
class RangeText:
    """A printed die or value range: `3-6`, `12+`, `3-`, `01-08`, `9-0` or a single `5`."""

    text: str
    span: Span


@dataclass(frozen=True)
class MonthText:
    """A calendar month as written, `YYYY-MM`."""

    text: str
    span: Span


# ---- game header ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PeriodDecl:
    """`period late_1944 "1944 late" 1944-07 to 1944-12`; years `1936 to 1941` read as
    1936-01 to 1941-12; `1946+` (or `1946-01+`) is open-ended (`last` is None)."""

    name: Name
    label: Text
    first: MonthText
    last: MonthText | None
    span: Span


@dataclass(frozen=True)
class GameDecl:
    """`game ia2 { title ... source ... calendar ... period ... }`: the game header."""

    name: Name
    title: Text | None
    source: Text | None
    calendar: tuple[MonthText, MonthText] | None
    periods: tuple[PeriodDecl, ...]
    span: Span
    repeated: tuple[Span, ...] = ()  # a title, source or calendar given twice
    aid_chance: bool | None = None  # `aid chance on|off`: the player aid's chance column, for every chart


@dataclass(frozen=True)
class FieldDecl:
    """`fields { family: aircraft_family "Family" }` — a typed field of an enum's records."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span


@dataclass(frozen=True)
class FieldValue:
    """`family: bf109` inside a record: one field of an enum member."""

    name: Name
    value: ValueText
    span: Span


@dataclass(frozen=True)
class MemberDecl:
    """An enum value; with fields it is a reference-data record (`bf109g6 "Bf 109G-6" { ... }`)."""

    name: Name
    label: Text | None
    fields: tuple[FieldValue, ...]
    aliases: tuple[Text, ...]
    span: Span


@dataclass(frozen=True)
class ResultOrder:
    """`order AE < AR < EX < DR < DE`: an enum's results from the attacker's point of view, worst
    first. `ops` holds each comparison operator as written (only `<` is valid; the resolver says so)."""

    names: tuple[Name, ...]
    ops: tuple[Text, ...]
    span: Span


@dataclass(frozen=True)
class EnumDecl:
    """`enum interceptor "Interceptor" { piston "Piston-engined" jet "Jet or Rocket" }`.

    `codes` marks a CRT's result codes (`enum crt_result "Combat result" { codes  DR "Defender
    retreats" }`): each member's id is printed in the cells, its label in the key of codes.
    """

    name: Name
    label: Text | None
    field_decls: tuple[FieldDecl, ...]
    members: tuple[MemberDecl, ...]
    span: Span
    codes: Span | None = None
    order: ResultOrder | None = None


@dataclass(frozen=True)
class ContextDecl:
    """`context fb_attack: flag "F/B attack"` — a variable DRM conditions may test."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span
    domain: RangeText | None = None  # an int's declared values (`0-300`), for reachability


# ---- dice ------------------------------------------------------------------------------------


class DiceForm(StrEnum):
    """How the dice are read: summed, d66 (tens and ones), percentile (00 = 100), the lower of
    several dice, or a sum minus a number with a floor (IA2 7.1.5)."""

    SUM = "sum"
    D66 = "d66"
    PERCENTILE = "percentile"
    LOWER = "lower"
    MINUS = "minus"
    HIGHER = "higher"
    HIGHEST = "highest"
    LOWEST = "lowest"
    VERSUS = "versus"


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


# ---- conditions --------------------------------------------------------------------------------


class OperandKind(StrEnum):
    """What a condition compares a context variable with."""

    MONTH = "month"
    INT = "int"
    NAME = "name"
    TEXT = "text"


class CompareOp(StrEnum):
    """A comparison operator, as written."""

    EQ = "=="
    NE = "!="
    GE = ">="
    LE = "<="
    GT = ">"
    LT = "<"


@dataclass(frozen=True)
class Operand:
    """The right-hand side of a condition: `1944-11`, `5`, `-1`, `piston` or `"Piston"`."""

    kind: OperandKind
    text: str
    span: Span


@dataclass(frozen=True)
class CondFlag:
    """`fb`: a flag context variable is set."""

    var: Name
    span: Span


@dataclass(frozen=True)
class CondCompare:
    """`fatigue >= 5`, `month == 1944-12`: a context variable compared with an operand."""

    var: Name
    op: CompareOp
    operand: Operand
    span: Span


@dataclass(frozen=True)
class CondIn:
    """`month in [1944-11, 1945-01]`: a context variable equals one of the operands."""

    var: Name
    operands: tuple[Operand, ...]
    span: Span


@dataclass(frozen=True)
class CondNot:
    """`not COND`."""

    inner: Cond
    span: Span


@dataclass(frozen=True)
class CondAll:
    """`A and B and ...`."""

    parts: tuple[Cond, ...]
    span: Span


@dataclass(frozen=True)
class CondAny:
    """`A or B or ...`."""

    parts: tuple[Cond, ...]
    span: Span


Cond = CondFlag | CondCompare | CondIn | CondNot | CondAll | CondAny


# ---- chart statements --------------------------------------------------------------------------


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


class GroupMode(StrEnum):
    """Which members of an exclusive DRM group apply: the best, the worst, or only one can."""

    BEST = "best"
    WORST = "worst"
    ONE = "one"


@dataclass(frozen=True)
class DrmGroupDecl:
    """`drm_group terrain "Terrain" best { drm ... }`: DRMs of which only one applies."""

    name: Name
    label: Text | None
    mode: GroupMode
    drms: tuple[DrmDecl, ...]
    span: Span


@dataclass(frozen=True)
class ModifiedClampDecl:
    """`modified clamp 1 to 10`: modified rolls below 1 read as 1, above 10 as 10."""

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


@dataclass(frozen=True)
class ShiftCapDecl:
    """`shift_cap -2 to +2`: the total column shift is held inside these bounds."""

    low: int
    high: int
    span: Span


@dataclass(frozen=True)
class CombineDecl:
    """`combine sum` or `combine sum clamp -2 to +3`: how the chart's DRMs add up."""

    clamp_min: int | None
    clamp_max: int | None
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


class ValueKind(StrEnum):
    """The written form of a cell; the column's type decides what it means."""

    TEXT = "text"
    INT = "int"
    NAME = "name"
    NONE = "none"
    SLASHED = "slashed"
    MONTH = "month"
    CHART = "chart"
    CHAIN = "chain"  # `-> [B6] (+1)`, `-> again`, `-> 1d6 { ... }`: `ValueText.chain` holds it


@dataclass(frozen=True)
class ValueText:
    """One cell as written: a string, an integer, an identifier, `-` (no value), a slashed
    group (`6/3`, `2/4/6`, `-/8/9/11`), a month, or a chart reference (`[B6]`)."""

    kind: ValueKind
    text: str
    span: Span
    chain: ChainText | None = None  # the chained result, when `kind` is CHAIN


class KeyValueKind(StrEnum):
    """The written form of a key value in a row, grid head or availability grid."""

    NAME = "name"
    TEXT = "text"
    ANY = "any"
    MONTHS = "months"


@dataclass(frozen=True)
class KeyValueText:
    """A key given in a row: an identifier, a printed label, `*` for every value, or months:
    `1944-07`, `1944-07..1944-09`, `1945-01+` (`first`/`last` hold the ends; None = open)."""

    kind: KeyValueKind
    text: str
    span: Span
    first: str | None = None
    last: str | None = None


@dataclass(frozen=True)
class RowDecl:
    """`piston 3-6: "Combat"`: key values, the printed range, and one value per column."""

    keys: tuple[KeyValueText, ...]
    range: RangeText | None
    values: tuple[ValueText, ...]
    span: Span
    natural: bool = False  # `natural 1: ...`: read by the natural roll before any DRM


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


class ChartKind(StrEnum):
    """The statement that declared a chart: `chart`, `drms` (a DRM list), or `external`
    (printed elsewhere, named so references resolve)."""

    CHART = "chart"
    DRMS = "drms"
    EXTERNAL = "external"


@dataclass(frozen=True)
class ChartDecl:
    """A `chart`, `drms` or `external` declaration with its statements in source order."""

    kind: ChartKind
    chart_id: Name | None
    slug: Name | None
    title: Text
    rule: Text | None
    roll: DiceDecl | None
    value_key: ValueKeyDecl | None
    keys: tuple[KeyDecl, ...]
    columns: tuple[ColumnDecl, ...]
    drms: tuple[DrmDecl, ...]
    combine: CombineDecl | None
    footnotes: tuple[FootnoteDecl, ...]
    notes: tuple[Text, ...]
    partial: Text | None
    drm_meaning: Text | None
    derive: DeriveDecl | None
    rows: tuple[RowDecl, ...]
    grids: tuple[GridDecl, ...]
    availability: tuple[AvailabilityDecl, ...]
    repeated: tuple[Span, ...]  # statements given twice where only one is allowed
    span: Span
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


@dataclass(frozen=True)
class Favoured:
    """`high_rolls favour attacker`: the side a higher modified roll favours on a CRT."""

    side: Side
    span: Span


class Rounding(StrEnum):
    """How a CRT odds ratio's quotient is rounded to a whole number."""

    DOWN = "down"
    UP = "up"
    NEAREST = "nearest"


class Beyond(StrEnum):
    """What odds beyond the printed columns do: use the edge column, or are not allowed."""

    CLAMP = "clamp"
    ERROR = "error"


class ShiftOrder(StrEnum):
    """Whether column shifts apply before or after clamping at the table edge."""

    BEFORE = "before"
    AFTER = "after"


class OddsForm(StrEnum):
    """What a CRT's columns are read by: attack : defense, attack - defense, or attack alone."""

    RATIO = "ratio"
    DIFFERENTIAL = "differential"
    STRENGTH = "strength"


class Between(StrEnum):
    """Which column odds between two printed columns read."""

    LOWER = "lower"
    HIGHER = "higher"


@dataclass(frozen=True)
class OddsDomain:
    """`domain 1 to 40` or `domain 1+`: the strengths a strength-keyed rule reads."""

    low: int
    high: int | None
    span: Span


@dataclass(frozen=True)
class OddsDecl:
    """`odds crt_odds "Odds" { columns ["1:2", "1:1", "2:1"] attacker_high round down ... }`."""

    chart_id: Name | None
    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    columns: tuple[Text, ...]
    attacker_round: Rounding | None
    defender_round: Rounding | None
    beyond: Beyond | None
    shift_order: ShiftOrder | None
    repeated: tuple[Span, ...]
    span: Span
    form: OddsForm | None = None
    form_span: Span | None = None
    between: Between | None = None
    between_span: Span | None = None
    domain: OddsDomain | None = None
    round_spans: tuple[Span, ...] = ()
    partial: Text | None = None  # the columns as printed are known to be incomplete (IA2 7.1.6)


@dataclass(frozen=True)
class DeriveDecl:
    """`derive from aamg_damage bands +5`: a variant of another chart with every inner band
    boundary moved (aa_rules IL-2: "+5% on the AAMG table's bands")."""

    base: Name
    band_shift: int
    span: Span


@dataclass(frozen=True)
class FieldEquals:
    """`where FIELD == VALUE`: the records an invariant counts."""

    field: Name
    value: ValueText
    span: Span


@dataclass(frozen=True)
class CountInvariant:
    """`invariant NAME "TEXT" { count ENUM [where FIELD == VALUE] is N }`: a count the rules
    state, of an enum's records (those whose FIELD is VALUE, with `where`)."""

    name: Name
    text: Text
    enum: Name
    where: FieldEquals | None
    count: int
    span: Span


@dataclass(frozen=True)
class ColumnSumInvariant:
    """`invariant NAME "TEXT" { sum CHART part P per column reaches ENUM.FIELD }`: for every
    column of CHART, the P-th part of its cells summed over all rows reaches the FIELD of the
    ENUM member named like the column (USAAF: each target system can reach its Points Needed)."""

    name: Name
    text: Text
    chart: Name
    part: int
    enum: Name
    field: Name
    span: Span


@dataclass(frozen=True)
class FactKey:
    """`terrain=town` in a cell fact's selector: a key of the chart and its value as written."""

    key: Name
    value: ValueText
    span: Span


@dataclass(frozen=True)
class FactRoll:
    """`3` in a cell fact's selector: the roll (or value) whose row is meant."""

    value: int
    span: Span


@dataclass(frozen=True)
class CellFact:
    """`[TEC] (terrain=town) column shift`: the cell in COLUMN of the one row of CHART that the
    selector's keys (and roll) pick."""

    chart: Name
    select: tuple[FactKey | FactRoll, ...]
    column: Name
    span: Span


@dataclass(frozen=True)
class FieldFact:
    """`family.me262.aircraft`: the FIELD of the ENUM record MEMBER."""

    enum: Name
    member: Name
    field: Name
    span: Span


@dataclass(frozen=True)
class CountFact:
    """`count aircraft where family == me262`: how many records of ENUM (with FIELD == VALUE)."""

    enum: Name
    where: FieldEquals | None
    span: Span


Fact = CellFact | FieldFact | CountFact
"""One statement of a fact a rulebook prints twice."""


@dataclass(frozen=True)
class SameInvariant:
    """`invariant NAME "TEXT" { same FACT as FACT }`: two places in the data that state the same
    fact (a terrain effects chart and the rule text, a family's size and its aircraft) and must
    agree (C417)."""

    name: Name
    text: Text
    left: Fact
    right: Fact
    span: Span


InvariantDecl = CountInvariant | ColumnSumInvariant | SameInvariant
"""A rule the data must obey, checked on every build."""


@dataclass(frozen=True)
class RowRef:
    """The row an amendment names: its key values and printed range, as written (the
    amendment's span locates it; both parts may be omitted)."""

    keys: tuple[KeyValueText, ...]
    range: RangeText | None


@dataclass(frozen=True)
class AddRow:
    """`add ROW [because "..."]`."""

    row: RowDecl
    because: Text | None
    span: Span


@dataclass(frozen=True)
class RemoveRow:
    """`remove ROW-REF [because "..."]`."""

    ref: RowRef
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeCell:
    """`change ROW-REF column NAME to VALUE [because "..."]`."""

    ref: RowRef
    column: Name
    value: ValueText
    because: Text | None
    span: Span


@dataclass(frozen=True)
class MoveRow:
    """`move ROW-REF to RANGE [because "..."]`: give a row another printed range."""

    ref: RowRef
    new_range: RangeText
    because: Text | None
    span: Span


@dataclass(frozen=True)
class Retitle:
    """`retitle "TITLE" [because "..."]`."""

    title: Text
    because: Text | None
    span: Span


@dataclass(frozen=True)
class Complete:
    """`complete [because "..."]`: the errata supplies what the chart's `partial` said was missing."""

    because: Text | None
    span: Span


@dataclass(frozen=True)
class AddNote:
    """`note "..."`: a note the errata adds to the chart."""

    text: Text
    span: Span


AmendOp = AddRow | RemoveRow | ChangeCell | MoveRow | Retitle | Complete | AddNote
"""One amendment of a chart; a row is named by its keys and printed range."""


@dataclass(frozen=True)
class AmendDecl:
    """`amend R4 { ... }`: the amendments an errata makes to one chart."""

    chart: Name
    ops: tuple[AmendOp, ...]
    span: Span


@dataclass(frozen=True)
class ErrataDecl:
    """An errata document: its title, where it was published, when, the order it applies in,
    which earlier errata it overrides, and its amendments."""

    name: Name
    title: Text
    source: Text | None
    date: Text | None
    order: int | None
    overrides: tuple[Name, ...]
    notes: tuple[Text, ...]
    amends: tuple[AmendDecl, ...]
    span: Span


# ---- worked examples -------------------------------------------------------------------------


class ExpectKind(StrEnum):
    """What an `expect` line of an example states the reader gets."""

    NUMBER = "value"  # `expect value 13`: the number a formula computes
    CELL = "cell"  # `expect result = "Combat"`: a cell of the selected row
    ROW = "row"  # `expect row 3-6`: the selected row, by its range as printed
    MODIFIED = "modified"  # `expect modified 7`
    DRM = "drm"  # `expect drm +2`: the DRM total
    ODDS = "odds"  # `expect odds "3:1"`: the odds column
    NO_ROW = "no_row"  # `expect no row`: the roll selects no row


@dataclass(frozen=True)
class ExpectDecl:
    """One `expect` line: its kind, the column it names (CELL), the value or text it states."""

    kind: ExpectKind
    span: Span
    column: Name | None = None
    value: ValueText | None = None
    text: str = ""  # ROW: the range; MODIFIED, DRM: the number; ODDS: the column label


@dataclass(frozen=True)
class ExampleInput:
    """A named input of an example as written: `key NAME = VALUE` or `set NAME = VALUE`."""

    name: Name
    text: str
    span: Span


@dataclass(frozen=True)
class ExampleDecl:
    """`example NAME "title" { ... }`: a rulebook's worked example, as the inputs of a lookup and
    the results the book prints."""

    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    chart: Name | None
    formula: Name | None  # `formula NAME`: the example computes a formula instead of reading a chart
    keys: tuple[ExampleInput, ...]
    rolls: tuple[Name, ...]  # the natural rolls as typed (`3`, `0`, `00`), with their spans
    when: tuple[Name, ...]
    sets: tuple[ExampleInput, ...]
    drm: int
    attack: int | None
    defense: int | None
    shift: int | None
    follow: bool
    expects: tuple[ExpectDecl, ...]
    contradicts: Text | None
    span: Span
    repeated: tuple[Span, ...] = ()
    aid: bool = False  # printed under its chart in the player aid


# ---- computed values ---------------------------------------------------------------------------


class ExprOp(StrEnum):
    """A binary operator of a formula."""

    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"  # exact: `7 / 2` is 7/2 until a rounding function makes it whole
    POW = "^"


@dataclass(frozen=True)
class ExprNumber:
    value: int
    span: Span


@dataclass(frozen=True)
class ExprName:
    """A context variable or another formula of the game, by name."""

    name: Name
    span: Span


@dataclass(frozen=True)
class ExprBinary:
    op: ExprOp
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True)
class ExprNeg:
    inner: Expr
    span: Span


@dataclass(frozen=True)
class ExprCall:
    """`floor(x)`, `ceil(x)`, `round(x)` (half up), `min(a, b, ...)`, `max(a, b, ...)`."""

    function: Name
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class ExprIf:
    cond: Cond
    then: Expr
    otherwise: Expr
    span: Span


Expr = ExprNumber | ExprName | ExprBinary | ExprNeg | ExprCall | ExprIf


@dataclass(frozen=True)
class FormulaDecl:
    """`formula NAME "title" { rule "..." result EXPR }`: an integer a rule computes."""

    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    result: Expr | None
    span: Span
    repeated: tuple[Span, ...] = ()


@dataclass(frozen=True)
class SourceFile:
    """Everything declared in one `.chart` file."""

    path: str
    game: tuple[GameDecl, ...]
    enums: tuple[EnumDecl, ...]
    contexts: tuple[ContextDecl, ...]
    charts: tuple[ChartDecl, ...]
    odds: tuple[OddsDecl, ...] = ()
    invariants: tuple[InvariantDecl, ...] = ()
    errata: tuple[ErrataDecl, ...] = ()
    examples: tuple[ExampleDecl, ...] = ()
    formulas: tuple[FormulaDecl, ...] = ()


# ---- chained results ------------------------------------------------------------------------


class ChainKind(StrEnum):
    """Where a chained cell sends the reader: another chart, this chart again, or a roll in the cell."""

    CHART = "chart"  # `-> [B6] (interceptor=jet, +1)`
    AGAIN = "again"  # `-> again (+1)`
    ROLL = "roll"  # `-> 1d6 { 1-4: fw190a6; 5-6: fw190a7 }`


@dataclass(frozen=True)
class ChainKeyText:
    """`interceptor=jet` in a chain's arguments: a key of the target chart and its value as written."""

    key: Name
    value: str
    span: Span


@dataclass(frozen=True)
class SubOutcomeText:
    """`1-4: fw190a6` inside a cell's own roll: the range and the value it gives."""

    range: RangeText
    value: ValueText
    span: Span


@dataclass(frozen=True)
class ChainText:
    """A chained cell as written: the target chart (CHART), the keys and DRM carried over (CHART,
    AGAIN; `drm` None when not written), or the dice and outcomes of a roll in the cell (ROLL)."""

    kind: ChainKind
    span: Span
    target: Name | None = None
    keys: tuple[ChainKeyText, ...] = ()
    drm: int | None = None
    dice: str | None = None  # `1d6`
    outcomes: tuple[SubOutcomeText, ...] = ()


# The nodes made for every token or row, made faster than a frozen dataclass makes them
# (dsl/frozen.py): the same objects.
fast_inits(Span, Name, Text, RangeText, MonthText, ValueText, KeyValueText, RowDecl)
