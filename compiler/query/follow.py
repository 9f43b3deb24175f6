"""What `chartc lookup --follow` and `chartc odds --follow` print: text lines and JSON documents.

Every text line goes through `textsafe.printable` and every JSON document through
`textsafe.json_text`, as in `compiler.query.common`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compiler import model
from compiler.diagnostics.textsafe import printable
from compiler.engine.chains import Final, Pick
from compiler.engine.chances import fraction_text, percent_text, probability_json
from compiler.engine.context import ContextValue, context_json
from compiler.engine.follow import ChainOdds, FollowResult, FollowStep
from compiler.engine.lookup import KeyValues
from compiler.model.text import json_value, row_range_text
from compiler.query.common import breakdown_line, cell_text, heading, json_document, modifiers_json
from compiler.query.lookup import lookup_fields


def _keys_text(keys: KeyValues) -> str:
    return "".join(f", {k.id} {m.label}" for k, m in keys)


def _roll_text(step: FollowStep) -> str:
    """`roll 4 + DRM 1 = 5 -> row 4-5`, or `read by its keys` for a chart without a roll."""
    result = step.result
    if result.natural is None:
        return "read by its keys"
    drm = result.drm
    roll = f"roll {result.natural}" + (f" {'+' if drm > 0 else '-'} DRM {abs(drm)} = {result.modified}" if drm else "")
    return f"{roll} -> row {row_range_text(result.row)}"


def _pick_text(game: model.Game, chart: model.Chart, pick: Pick) -> str:
    """`Aircraft: 1d6 rolled 5 -> 5-6 FW 190A-7`."""
    column = chart.columns[pick.column]
    outcome = pick.outcome
    return (
        f"{column.label}: {pick.roll.dice.text} rolled {pick.natural} -> {outcome.range.printed} "
        f"{cell_text(game, column, outcome.value)}"
    )


def follow_lines(game: model.Game, walk: FollowResult) -> list[str]:
    """Each step on a line (chart, keys, roll -> row, where it sends the reader), the rolls made in
    its cells beneath it, then the final row's cells."""
    first = walk.steps[0].result.chart
    lines = [heading(game, first) + ", following its chained results"]
    for number, step in enumerate(walk.steps, start=1):
        chart = step.result.chart
        lines.append(f"  {number}. {chart.address} {chart.title}{_keys_text(step.result.keys)}: {_roll_text(step)}")
        lines += [f"       {_pick_text(game, chart, pick)}" for pick in step.branch.picks]
        if step.next_chart is not None:
            lines.append(f"       -> {step.next_chart.address} {step.next_chart.title}")
    last = walk.steps[-1]
    chart = last.result.chart
    if walk.external is not None:
        lines.append(f"  ends at {walk.external.address} {walk.external.title}: printed elsewhere, not transcribed")
    lines.append(f"  Result ({chart.address}):")
    lines += [
        f"    {col.label}: {cell_text(game, col, v)}" for col, v in zip(chart.columns, last.branch.values, strict=True)
    ]
    return [printable(line) for line in lines]


def follow_json(game: model.Game, walk: FollowResult) -> str:
    """The walk as a JSON document: each step's chart, keys, rolls, row, the rolls in its cells and
    the chart it sends the reader to."""
    steps = []
    for step in walk.steps:
        result, chart = step.result, step.result.chart
        steps.append(
            {
                **lookup_fields(result),
                "values": {c.id: json_value(v) for c, v in zip(chart.columns, step.branch.values, strict=True)},
                "cell_rolls": [
                    {
                        "column": chart.columns[p.column].id,
                        "dice": p.roll.dice.text,
                        "natural": p.natural,
                        "range": p.outcome.range.printed,
                    }
                    for p in step.branch.picks
                ],
                "next": step.next_chart.address if step.next_chart is not None else None,
            }
        )
    first = walk.steps[0].result.chart
    doc: dict[str, Any] = {"game": game.id, "chart": first.address, "steps": steps}
    doc["ends_at_external"] = walk.external.address if walk.external is not None else None
    return json_document(doc)


def _final_text(game: model.Game, final: Final) -> tuple[str, str, str]:
    """(chart, row, cells) of a final outcome for the table of `chartc odds --follow`."""
    chart = game.chart(final.address)
    assert chart is not None  # finals are made from the game's charts
    keys = "".join(f" {m.label}" for _, m in _bound(chart, final.combo))
    if final.row is None:
        return f"{chart.address}{keys}", "no row", "(the roll selects no row)"
    cells = " | ".join(cell_text(game, c, v) for c, v in zip(chart.columns, final.values, strict=True))
    return f"{chart.address}{keys}", row_range_text(final.row) or "-", cells


def _bound(chart: model.Chart, combo: tuple[str, ...]) -> list[tuple[model.Key, model.Member]]:
    out = []
    for key, member_id in zip(chart.keys, combo, strict=True):
        member = key.enum.member(member_id)
        if member is not None:
            out.append((key, member))
    return out


def context_text(game: model.Game, context: Mapping[str, ContextValue]) -> str:
    """The DRM context given, by label: `Night, Hits taken 3, every other flag false`, or `every
    flag false, no value set` (`--read-drms` alone)."""
    given = []
    for var_id, value in sorted(context.items()):
        var = game.context.get(var_id)
        label = var.label if var is not None else var_id
        if value is True:
            given.append(label)
        elif not isinstance(value, bool):
            enum = game.enums.get(var.enum or "") if var is not None else None
            member = enum.member(str(value)) if enum is not None else None
            given.append(f"{label} {member.label if member is not None else value}")
    return ", ".join(given) + ", every other flag false" if given else "every flag false, no value set"


def chain_odds_lines(report: ChainOdds) -> list[str]:
    """The chance of each final outcome (fraction and percentage), the chart and row it ends on and
    that row's cells, then how many states the chain can visit."""
    game, chart = report.game, report.chart
    lines = [heading(game, chart) + ", following its chained results"]
    lines += [f"  {k.id}: {m.label}" for k, m in report.keys]
    if report.context is not None:
        lines.append(f"  context: {context_text(game, report.context)}; each chart of the chain reads its DRMs in it")
    if report.first_modifiers is not None:
        lines.append(f"  first roll {breakdown_line(report.first_modifiers, None, None)}")
    elif report.drm:
        lines.append(f"  DRM {report.drm:+d} on the first roll")
    table = [(f"{fraction_text(f.probability)} ({percent_text(f.probability)})", *_final_text(game, f.final))
             for f in report.finals]
    header = ("chance", "ends on", "row", "result")
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(3)]
    for cells in [header, *table]:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(cells[:3], widths, strict=True)) + "  " + cells[3])
    lines.append(f"  final outcomes: {len(report.finals)}; chain states (chart, keys, DRM): {report.states}")
    return [printable(line) for line in lines]


def chain_odds_json(report: ChainOdds) -> str:
    """The final outcomes as a JSON document, chances as `{"exact": "3/20", "float": 0.15}`."""
    game = report.game
    finals = []
    for f in report.finals:
        chart = game.chart(f.final.address)
        assert chart is not None
        finals.append(
            {
                "chart": f.final.address,
                "keys": {k.id: m.id for k, m in _bound(chart, f.final.combo)},
                "range": f.final.row.range.printed if f.final.row is not None and f.final.row.range else None,
                "values": {c.id: json_value(v) for c, v in zip(chart.columns, f.final.values, strict=True)}
                if f.final.row is not None
                else None,
                "probability": probability_json(f.probability),
                "percent": percent_text(f.probability),
            }
        )
    return json_document(
        {
            "game": game.id,
            "chart": report.chart.address,
            "title": report.chart.title,
            "keys": {k.id: m.id for k, m in report.keys},
            "drm": report.drm,
            "context": context_json(report.context) if report.context is not None else None,
            "modifiers": modifiers_json(report.first_modifiers),
            "finals": finals,
            "states": report.states,
        }
    )
