"""The declarations beside charts: the game header (calendar, periods), enums and their records,
context variables, odds rules, invariants, errata and their amendments, worked examples, formulas."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.values import (
    DomainDecl,
    Expr,
    MonthText,
    Name,
    RangeText,
    RequiresDecl,
    Text,
    ValueText,
)
from dsl.shared import Between, Beyond, CompareOp, ExpectKind, Number, OddsForm, Rounding, ShiftOrder, Span


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
class TurnsDecl:
    """`turns 1944-06-06 AM to 1944-06-12 PM halves [AM, PM]`: a turn track of days split into
    halves; the days as written (`YYYY-MM-DD`), each end's half, the halves in play order."""

    first_day: Text
    first_half: Name
    last_day: Text
    last_half: Name
    halves: tuple[Name, ...]
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
    turns: TurnsDecl | None = None  # a turn track of days split into halves


@dataclass(frozen=True)
class FieldDecl:
    """`fields { family: aircraft_family "Family" }` — a typed field of an enum's records; an `int`
    field may declare the values it takes (`xp: int "XP" 0-99`)."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span
    domain: RangeText | None = None


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
    rule: Text | None = None  # `rule "9.1"`: where the book prints the records


@dataclass(frozen=True)
class ContextDecl:
    """`context fb_attack: flag "F/B attack"` — a variable DRM conditions may test."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span
    domain: RangeText | None = None  # an int's declared values (`0-300`), for reachability
    within: Name | None = None  # `within LIMIT`: the values checked against a limit of the game


# ---- odds rules ----------------------------------------------------------------------------------


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
    partial_span: Span | None = None  # the whole `partial "..."` statement (C309's fix deletes it)


# ---- invariants ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldTest:
    """`FIELD == VALUE` (or `!=`) after `where`: which records an invariant counts. `op` as written
    (only `==` and `!=` are valid; the resolver says so)."""

    field: Name
    op: CompareOp
    value: ValueText
    span: Span


@dataclass(frozen=True)
class CountInvariant:
    """`invariant NAME "TEXT" { count ENUM [where FIELD == VALUE and ...] is N }`: a count the rules
    state, of an enum's records (those that pass every test of `where`)."""

    name: Name
    text: Text
    enum: Name
    where: tuple[FieldTest, ...]
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


FactRoll = Number
"""`3` in a cell fact's selector: the roll (or value) whose row is meant."""


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
    """`count aircraft where family == me262`: how many records of ENUM (that pass `where`)."""

    enum: Name
    where: tuple[FieldTest, ...]
    span: Span


@dataclass(frozen=True)
class LimitFact:
    """`limit sorties_per_month (month=1945-02)`: the number a limit of the game sets in that context."""

    limit: Name
    select: tuple[FactKey | FactRoll, ...]
    span: Span


@dataclass(frozen=True)
class FormulaFact:
    """`formula landing_mission_turn (endurance=4, take_off_mission_turn=3)`: a formula's value there."""

    formula: Name
    select: tuple[FactKey | FactRoll, ...]
    span: Span


@dataclass(frozen=True)
class DrmFact:
    """`drm [B12] agile`: the value of a DRM of a chart."""

    chart: Name
    drm: Name
    span: Span


Fact = CellFact | FieldFact | CountFact | LimitFact | FormulaFact | DrmFact
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
    kept: Text | None
    span: Span


@dataclass(frozen=True)
class SymmetricInvariant:
    """`invariant NAME "TEXT" { symmetric CHART }`: CHART, keyed by an enum and with a column per
    member, holds the same cell at (a, b) and at (b, a) (a board's adjacency, its ranges)."""

    name: Name
    text: Text
    chart: Name
    span: Span


@dataclass(frozen=True)
class DistancesInvariant:
    """`invariant NAME "TEXT" { distances CHART over RELATION is VALUE }`: each cell of CHART is the
    fewest steps from its row's member to its column's over the cells of RELATION that hold VALUE (both
    keyed by one enum, with a column per member)."""

    name: Name
    text: Text
    chart: Name
    relation: Name
    step: ValueText
    span: Span


InvariantDecl = CountInvariant | ColumnSumInvariant | SameInvariant | SymmetricInvariant | DistancesInvariant
"""A rule the data must obey, checked on every build."""


# ---- worked examples -----------------------------------------------------------------------------


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
    contradicts_statement: Span | None = None  # the whole `contradicts "..."` line (C462's fix deletes it)


# ---- formulas ------------------------------------------------------------------------------------


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
    domain: DomainDecl | None = None  # the values the result may take
    requires: RequiresDecl | None = None  # the inputs the rule applies to
    kept: Text | None = None  # the book's gap kept as printed: a result outside the domain is a note
