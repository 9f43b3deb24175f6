"""Checks on the resolved model: whatever is bound but wrong. They run on what resolved only.

Per game: periods against the calendar (`periods`), record dates and invariants (`records`, reading
facts with `facts`); per chart: size limits first (`limits`; a chart too large is not checked
further), what DRMs mean on digit rolls (`dice`), DRM groups and reach (`modifiers`), availability
dates (`records`), the coverage of its rows (`coverage`) and its overlays (`overlays`); then
chains, formulas, the domains of formulas and records (`domains`), ranges checked within a limit
of the game (`rule_limits`) and the book's declared inconsistencies (`inconsistencies`); the warnings
kept as printed (`kept`) turn into notes as they are found, and a `kept` statement that matched none
is reported last.
"""

from __future__ import annotations

from compiler import model
from compiler.checks.cells import check_empty_cells, check_record_fields
from compiler.checks.chains import check_chains
from compiler.checks.coverage import check_chart, intersecting_pairs
from compiler.checks.crt import check_crt, check_result_codes
from compiler.checks.dice import check_drm_meaning
from compiler.checks.domains import check_domains
from compiler.checks.drms import check_drms
from compiler.checks.findings import compress, describe_combo
from compiler.checks.formulas import check_formulas
from compiler.checks.inconsistencies import check_inconsistencies
from compiler.checks.kept import Keeper
from compiler.checks.limits import check_limits
from compiler.checks.overlays import check_overlays
from compiler.checks.periods import check_periods
from compiler.checks.records import (
    check_availability_dates,
    check_invariant,
    check_record_dates,
)
from compiler.checks.rule_limits import check_within
from compiler.checks.shifts import check_shifts
from compiler.diagnostics import Sink

__all__ = ["check_chart", "check_game", "compress", "describe_combo", "intersecting_pairs"]


def check_game(game: model.Game, sink: Sink) -> None:
    """Every check on one resolved game."""
    keeper = Keeper(game)
    check_periods(game, sink, keeper)
    for chart in game.charts:
        check_drm_meaning(chart, sink)
        check_availability_dates(chart, sink)
        if check_limits(chart, sink):
            check_drms(chart, sink)
            check_shifts(game, chart, sink)
            check_chart(chart, sink)
            check_overlays(chart, sink)
            check_empty_cells(chart, sink)
            check_crt(game, chart, sink)
    check_record_dates(game, sink, keeper)
    check_record_fields(game, sink)
    check_result_codes(game, sink)
    for inv in game.invariants:
        check_invariant(game, inv, sink)
    check_chains(game, sink)
    check_formulas(game, sink)
    check_domains(game, sink)
    check_within(game, sink)
    check_inconsistencies(game, sink)
    keeper.report_unmatched(sink)
