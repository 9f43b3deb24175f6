"""A CRT's column shifts for one context: which apply and their total, as the runtime computes it.

The rule (conditions, exclusive groups, the cap) lives in the runtime (`_shift_terms`), which every
generated module carries, so `chartc lookup` and the generated `shift_<crt>()` agree.
"""

from __future__ import annotations

from collections.abc import Mapping

from compiler import model
from compiler.engine import plain
from dsl.lazy_dataclass import dataclass

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
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime.shifts import _shift_terms

    rules = chart.shifts
    if rules is None:
        return ShiftBreakdown((), 0)
    shifts = tuple(plain.shift(s)._replace(label=_label(s, context)) for s in rules.shifts)
    terms, total = _shift_terms(shifts, context, plain.shift_groups(rules), rules.cap)
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
