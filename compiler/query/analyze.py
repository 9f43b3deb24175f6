"""What `chartc analyze` prints: the CRT analysis (`compiler.engine.crt`) as terminal lines or JSON.

Chances print as percentages (exact fractions in JSON), expected step losses to two decimals
(exact in JSON). Every text line goes through `textsafe.printable`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from compiler import model
from compiler.diagnostics.textsafe import printable
from compiler.engine.chances import percent_text, probability_json
from compiler.engine.crt import CrtAnalysis, analyze, loss_fields
from compiler.engine.lookup import LookupUsage
from compiler.model.crt import crt_shape
from compiler.model.text import key_label
from compiler.query.common import json_document, signed


def crt_analysis(game: model.Game, chart: model.Chart, drms: tuple[int, ...] | None = None) -> CrtAnalysis:
    """The analysis of chart ADDRESS, or a usage error when it is not a CRT.

    Raises:
        LookupUsage: the chart is not a CRT (dice, one column key, one result column typed by an
            enum with `codes` or `order`).
    """
    shape = crt_shape(chart, game.enums)
    if shape is None:
        raise LookupUsage(
            f"chart `{chart.address}` is not a combat results table: analyze needs a chart read by dice, keyed by "
            "one column key (odds), with one result column typed by an enum with `codes` or an `order`"
        )
    return analyze(shape, drms)


def _expected_text(value: Fraction | None) -> str:
    return "\u2013" if value is None else f"{float(value):.2f}"


def analysis_lines(result: CrtAnalysis) -> list[str]:
    """The analysis as a table: one line per column and DRM, a chance per result, then the
    expected value of each integer field of the results (step losses)."""
    shape = result.shape
    chart = shape.chart
    assert chart.dice is not None  # a CRT is read by dice
    order = result.result_order
    fields = loss_fields(shape.results)
    head = [shape.key.enum.label, "DRM", *order, *(f"E[{f.label}]" for f in fields)]
    table = [head]
    for cell in result.columns:
        row = [key_label(shape.key, cell.column), signed(cell.drm)]
        row += [percent_text(r.probability) for r in cell.results]
        row += [_expected_text(e.value) for e in cell.expected]
        if cell.no_result:
            row.append(f"no result {percent_text(cell.no_result)}")
        table.append(row)
    widths = [max(len(r[i]) for r in table if i < len(r)) for i in range(len(head))]
    lines = [
        f"{chart.game}/{chart.address} {chart.title}" + (f" (rule {chart.rule})" if chart.rule else ""),
        f"  {chart.dice.text}; results, worst to best for the attacker: "
        + (" < ".join(order) if shape.results.order else ", ".join(order) + " (no declared order)"),
    ]
    for row in table:
        cells = [c.ljust(widths[i]) if i < len(widths) else c for i, c in enumerate(row)]
        lines.append(("  " + "  ".join(cells)).rstrip())
    lines += [f"  {m.id}: {m.label}" for m in shape.results.members]
    return [printable(line) for line in lines]


def analysis_json(result: CrtAnalysis) -> str:
    """The analysis as a JSON document: exact chances and expected values as `{"exact", "float"}`."""
    shape = result.shape
    chart = shape.chart
    doc: dict[str, Any] = {
        "game": chart.game,
        "chart": chart.address,
        "title": chart.title,
        "dice": chart.dice.text if chart.dice else None,
        "result_order": list(shape.results.order),
        "results": [{"code": m.id, "meaning": m.label} for m in shape.results.members],
        "drms": list(result.drms),
        "columns": [
            {
                "column": key_label(shape.key, cell.column),
                "drm": cell.drm,
                "chances": {r.member: probability_json(r.probability) for r in cell.results},
                "no_result": probability_json(cell.no_result),
                "expected": {
                    e.field.id: None if e.value is None else probability_json(e.value) for e in cell.expected
                },
            }
            for cell in result.columns
        ],
    }
    return json_document(doc)
