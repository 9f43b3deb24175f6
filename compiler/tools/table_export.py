"""`chartc export`: a chart's table as CSV, the way back to a spreadsheet.

One row per chart row: the key values (member ids, so `chartc import` reads them back as the
same names), the range as printed, then each output column; the header names the keys, the dice
(`2d6`, `d66`, `percentile`) and each column by its printed label.
"""

from __future__ import annotations

import csv
import io

from compiler import model
from compiler.diagnostics.textsafe import spreadsheet_cell
from compiler.model.dice import Dice, DiceForm

__all__ = ["export_csv", "not_plain_reason", "table_rows"]


def dice_word(dice: Dice) -> str | None:
    """The dice as the `roll` statement writes them, for the forms a range column can carry."""
    match dice.form:
        case DiceForm.SUM:
            return f"{dice.count}d{dice.sides}"
        case DiceForm.D66:
            return "d66"
        case DiceForm.PERCENTILE:
            return "percentile"
        case (
            DiceForm.LOWER
            | DiceForm.MINUS
            | DiceForm.HIGHER
            | DiceForm.HIGHEST
            | DiceForm.LOWEST
            | DiceForm.VERSUS
        ):
            return None
    return None


def not_plain_reason(chart: model.Chart) -> str | None:
    """Why a chart is not a plain table a CSV can hold, or None when it is one."""
    if chart.kind not in (model.ChartKind.ROLL, model.ChartKind.REFERENCE) or not chart.rows:
        return f"it is {'an' if chart.kind.value[0] in 'aeiou' else 'a'} {chart.kind.value} chart without rows"
    if chart.value_key is not None or chart.availability is not None:
        return "it is read by a value or laid out as an availability grid"
    if chart.dice_alternatives or chart.repeat != 1:
        return "it has alternative or repeated dice"
    if chart.dice is not None and dice_word(chart.dice) is None:
        return f"its dice `{chart.dice.text}` are not a plain range column"
    if chart.kind is model.ChartKind.REFERENCE and not chart.keys:
        return "it has no keys"
    if any(_chained(v) for r in chart.rows for v in r.values):
        return "some cell is a chained result (`->`)"
    if any(row.natural or not all(isinstance(k, str) for k in row.keys) for row in chart.rows):
        return "some row is read by the natural roll, a month span or any key value"
    return None


def _chained(value: model.Value) -> bool:
    """Whether a cell is a chained result: `-> [B6]`, `-> again` or a roll in the cell."""
    return isinstance(value, model.RollAgain | model.SubRoll) or (isinstance(value, model.ChartRef) and value.chained)


def _cell(value: model.Value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "/".join("-" if v is None else str(v) for v in value)
    if isinstance(value, model.ChartRef):
        return f"[{value.address}]"
    return str(value)


def _dice_header(chart: model.Chart) -> str:
    """The range column's header: the dice, and how a d10's 0 reads when a range starts at 0."""
    assert chart.dice is not None
    word = dice_word(chart.dice) or "roll"
    starts_at_zero = any(r.range is not None and r.range.printed.startswith("0") for r in chart.rows)
    if chart.dice.form is DiceForm.SUM and chart.dice.sides == 10 and starts_at_zero:
        return f"{word} zero reads {chart.dice.zero}"
    return word


def table_rows(chart: model.Chart) -> list[list[str]]:
    """The header and the rows of a plain chart (see `not_plain_reason`)."""
    header = [k.id for k in chart.keys]
    if chart.dice is not None:
        header.append(_dice_header(chart))
    header += [c.label or c.id for c in chart.columns]
    rows = [header]
    for row in chart.rows:
        cells = [str(k) for k in row.keys]
        if chart.dice is not None:
            cells.append(row.range.printed if row.range is not None else "")
        rows.append(cells + [_cell(v) for v in row.values])
    return rows


def export_csv(chart: model.Chart) -> str:
    """A plain chart as CSV text (RFC 4180 quoting, `\\n` line ends), each cell safe to open in a
    spreadsheet (`spreadsheet_cell`: no formula, no hidden character that splits a row)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([spreadsheet_cell(c) for c in row] for row in table_rows(chart))
    return out.getvalue()
