"""A CRT's column shifts for one context: which apply and their total, as the runtime computes it.

The rule (conditions, exclusive groups, the cap) lives in `compiler.engine.runtime`, which every
generated module carries, so `chartc lookup` and the generated `shift_<crt>()` agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, assert_never

from compiler import model
from dsl.lazy_dataclass import dataclass

if TYPE_CHECKING:  # imported where used: a query of a chart without odds or shifts needs none of it
    from compiler.engine import runtime

# A context variable's value by id: a flag's bool, an int, a month 'YYYY-MM', an enum member's id;
# None (or left out) is unknown, and a flag left out is false.
Context = Mapping[str, bool | int | str | None]


@dataclass(frozen=True)
class ShiftBreakdown:
    """The shifts that apply, (label, value) in declaration order, and their capped total."""

    terms: tuple[tuple[str, int], ...]
    total: int

    def text(self) -> str:
        """`Terrain ([TEC] Woods) -1, Leader +1 = +0`, or `none` when no shift applies."""
        if not self.terms:
            return "none"
        parts = ", ".join(f"{label} {value:+d}" for label, value in self.terms)
        capped = sum(v for _, v in self.terms) != self.total
        return f"{parts} = {self.total:+d}" + (" (capped)" if capped else "")


def breakdown(chart: model.Chart, context: Context) -> ShiftBreakdown:
    """The chart's shifts in `context` (context variable id -> value; a flag missing is False,
    anything else missing is unknown)."""
    from compiler.engine import runtime

    rules = chart.shifts
    if rules is None:
        return ShiftBreakdown((), 0)
    full = {v: context.get(v) for v in variables(rules)}  # a flag left out reads False (bool(None))
    shifts = tuple(runtime_shift(s)._replace(label=_label(s, full)) for s in rules.shifts)
    groups = tuple((g, str(p)) for g, p in rules.groups)
    terms, total = runtime._shift_terms(shifts, full, groups, rules.cap)
    return ShiftBreakdown(terms, total)


def _label(shift: model.Shift, context: Context) -> str:
    """A shift's label in a breakdown; one read from a chart names the chart and the row read:
    `Terrain ([TEC] Woods)`."""
    if shift.source is None or (given := context.get(shift.source.var)) is None:
        return shift.label
    return f"{shift.label} ([{shift.source.chart}] {dict(shift.source.labels).get(str(given), given)})"


def variables(rules: model.ShiftRules) -> list[str]:
    """The context variables the shifts read, each once, in order of first use."""
    found: list[str] = []
    for s in rules.shifts:
        names = [s.source.var] if s.source is not None else sorted(model.condition_vars(s.when))
        found += [n for n in names if n not in found]
    return found


def runtime_shift(shift: model.Shift) -> runtime._Shift:
    """A shift as the runtime evaluates it."""
    from compiler.engine import runtime

    if shift.source is not None:
        return runtime._Shift(shift.label, 0, None, shift.group, shift.source.var, shift.source.values)
    when = runtime_condition(shift.when) if shift.when is not None else None
    return runtime._Shift(shift.label, shift.value, when, shift.group)


def runtime_condition(c: model.Condition) -> runtime._Condition:
    """A condition as the runtime's condition objects."""
    from compiler.engine import runtime

    match c:
        case model.Flag():
            return runtime._Flag(c.var)
        case model.Compare():
            return runtime._Compare(c.var, c.op.value, _operand(c.value))
        case model.In():
            return runtime._In(c.var, tuple(_operand(v) for v in c.values))
        case model.Not():
            return runtime._Not(runtime_condition(c.inner))
        case model.All():
            return runtime._AllOf(tuple(runtime_condition(p) for p in c.parts))
        case model.Any_():
            return runtime._AnyOf(tuple(runtime_condition(p) for p in c.parts))
        case _:
            assert_never(c)


def _operand(value: model.Operand) -> int | str:
    return value if isinstance(value, int) else str(value)
