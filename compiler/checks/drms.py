"""Checks on a chart's DRMs as a whole: members of a `one` group that can apply together (C330), and
DRM conditions too many to decide exactly which totals can happen (C333)."""

from __future__ import annotations

import itertools

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.engine.reach import MAX_ASSIGNMENTS, can_hold_together, reach


def check_drms(chart: model.Chart, sink: Sink) -> None:
    """C330 and C333 on one chart."""
    for group in chart.drm_groups:
        if group.mode is model.GroupMode.ONE:
            _check_one_group(chart, group, sink)
    if chart.drms and not reach(chart).exact:
        sink.emit(
            codes.REACH_APPROXIMATED,
            f"the DRM conditions of chart `{chart.address}` combine into more than {MAX_ASSIGNMENTS} cases: "
            "the checker took its DRMs as independent, so it may see totals the rules never allow",
            chart.title_span or chart.span,
            "split the chart's DRMs, or narrow the int ranges they test",
        )


def _check_one_group(chart: model.Chart, group: model.DrmGroup, sink: Sink) -> None:
    """C330: two members of a `one` group whose conditions some context makes true together."""
    members = [d for d in chart.drms if d.group == group.id]
    for a, b in itertools.combinations(members, 2):
        if a.when is None or b.when is None or can_hold_together(chart, a.when, b.when):
            sink.emit(
                codes.DRM_GROUP_OVERLAP,
                f"DRMs `{a.id}` and `{b.id}` of group `{group.id}` can apply together, but the group "
                "says only one can",
                b.span,
                "make their conditions exclusive, or write `best` or `worst` for the group",
                (Label(a.span, "this DRM applies too"),),
            )
