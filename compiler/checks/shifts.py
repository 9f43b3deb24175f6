"""Checks on a CRT's column shifts: members of a `one` shift group that can apply together (C426).

The runtime keeps the first applicable shift of a `one` group (`_exclusive`), as it does for a
`one` DRM group (C330): two members that can hold together mean the rules leave open which one
counts, and the first one written silently wins.
"""

from __future__ import annotations

import dataclasses
import itertools

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.engine.reach import can_hold_together


def check_shifts(game: model.Game, chart: model.Chart, sink: Sink) -> None:
    """C426 on one chart's `one` shift groups."""
    rules = chart.shifts
    if rules is None:
        return
    # the chart knows the variables its DRMs test; its shifts test the game's others too
    tested = {v for s in rules.shifts for v in model.condition_vars(s.when)}
    known = {v.id for v in chart.context}
    extra = tuple(game.context[v] for v in sorted(tested - known) if v in game.context)
    chart = dataclasses.replace(chart, context=chart.context + extra)
    for group, mode in rules.groups:
        if mode is not model.GroupMode.ONE:
            continue
        members = [s for s in rules.shifts if s.group == group]
        for a, b in itertools.combinations(members, 2):
            if a.when is None or b.when is None or can_hold_together(chart, a.when, b.when) is not False:
                sink.emit(
                    codes.SHIFT_GROUP_OVERLAP,
                    f"column shifts `{a.id}` and `{b.id}` of group `{group}` can apply together, but the "
                    f"group says only one can: chart `{chart.address}` would keep `{a.id}`, the first written",
                    b.span,
                    "make their conditions exclusive (`when escort and not fb`), or write `best` or `worst` "
                    "for the group, as the rules say which shift counts",
                    (Label(a.span, "this shift applies too"),),
                )
