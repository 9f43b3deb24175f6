"""`odds` blocks: how a game forms odds and picks a CRT column (USAAF 15.1-15.2)."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.values import Name, Text
from dsl.shared import Between, Beyond, OddsForm, Rounding, ShiftOrder, Span


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
