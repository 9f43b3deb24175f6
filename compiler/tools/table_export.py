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
from compiler.model.formulas import condition_text
from dsl.source_text import quote

__all__ = ["export_csv", "export_reason", "not_plain_reason", "table_rows"]


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
            | DiceForm.HIGHER
            | DiceForm.HIGHEST
            | DiceForm.LOWEST
            | DiceForm.VERSUS
            | DiceForm.EXPLODE
            | DiceForm.LOWER_TENS
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
    if chart.arithmetic:
        steps = ", ".join(s.text for s in chart.pipeline)
        return f"its rows read the roll after arithmetic ({steps}), which a range column cannot carry"
    if chart.kind is model.ChartKind.REFERENCE and not chart.keys:
        return "it has no keys"
    if any(_chained(v) for r in chart.rows for v in r.values):
        return "some cell is a chained result (`->`)"
    if any(row.natural or not all(isinstance(k, str) for k in row.keys) for row in chart.rows):
        return "some row is read by the natural roll, a month span or any key value"
    return None


def export_reason(chart: model.Chart) -> str | None:
    """Why a chart has no table to export, or None: every chart read by dice, a value or its keys
    exports its rows, an availability grid its grid, a DRM list its DRMs."""
    match chart.kind:
        case model.ChartKind.ODDS:
            return "it is an odds rule: it forms an odds column from the forces (`chartc lookup --attack N`), no rows"
        case model.ChartKind.EXTERNAL:
            return "it is printed elsewhere: its rows are not transcribed (`external`)"
        case model.ChartKind.DRMS:
            return None if chart.drms else "it is a DRM list without DRMs"
        case model.ChartKind.ROLL | model.ChartKind.VALUE | model.ChartKind.REFERENCE:
            return None if chart.rows or chart.availability is not None else "it has no rows"


def _chained(value: model.Value) -> bool:
    """Whether a cell is a chained result: `-> [B6]`, `-> again` or a roll in the cell."""
    return isinstance(value, model.RollAgain | model.SubRoll) or (isinstance(value, model.ChartRef) and value.chained)


def _cell(value: model.Value) -> str:
    if value is None:
        return "-"
    if isinstance(value, model.Choice):
        return f"one of [{', '.join(_written(o) for o in value.options)}]"
    if isinstance(value, model.RollAgain | model.SubRoll) or (isinstance(value, model.ChartRef) and value.chained):
        return _chain_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "/".join("-" if v is None else str(v) for v in value)
    if isinstance(value, model.ChartRef):
        return f"[{value.address}]"
    return str(value)


def _written(value: model.Value) -> str:
    """A value as the chart language writes it inside a choice or a chain: text quoted."""
    if isinstance(value, model.Text):
        return quote(value)
    return _cell(value)


def _chain_text(value: model.ChartRef | model.RollAgain | model.SubRoll) -> str:
    """A chained cell as the chart language writes it: `-> [B6] (jet, +1)`, `-> again`, `-> 1d6 { ... }`."""
    if isinstance(value, model.SubRoll):
        inner = "; ".join(f"{o.range.printed}: {_written(o.value)}" for o in value.outcomes)
        return f"-> {value.dice.text} {{ {inner} }}"
    keys = [f"{k.key}={k.value}" for k in value.keys] if isinstance(value, model.ChartRef) else []
    args = [*keys, *([f"{value.drm:+d}"] if value.drm is not None else [])]
    where = f"[{value.address}]" if isinstance(value, model.ChartRef) else "again"
    return f"-> {where}" + (f" ({', '.join(args)})" if args else "")


def _key_cell(key: model.KeyMatch) -> str:
    if key is None:
        return "*"
    return key.printed if isinstance(key, model.MonthSpan | model.TurnSpan) else str(key)


def _dice_header(chart: model.Chart) -> str:
    """The range column's header: the dice, and how a d10's 0 reads when a range starts at 0."""
    assert chart.dice is not None
    word = dice_word(chart.dice) or "roll"
    starts_at_zero = any(r.range is not None and r.range.printed.startswith("0") for r in chart.rows)
    if chart.dice.form is DiceForm.SUM and chart.dice.sides == 10 and starts_at_zero:
        return f"{word} zero reads {chart.dice.zero}"
    return word


def table_rows(chart: model.Chart) -> list[list[str]]:
    """The header and the rows of a chart (see `export_reason`): a plain chart's as `chartc import`
    reads them back (see `not_plain_reason`); for the others, the range column names the dice as
    written (`1d6 minus 3 min 0`, `lower of 2d10 or 1d10`) or the value read by, a natural row's
    range reads `1 natural`, a chained cell or a choice is written as in the chart language."""
    if chart.kind is model.ChartKind.DRMS:
        return _drm_rows(chart)
    if chart.availability is not None:
        return _availability_rows(chart.availability, chart)
    header = [k.id for k in chart.keys]
    ranged = chart.dice is not None or chart.value_key is not None
    if chart.dice is not None:
        plain = dice_word(chart.dice) is not None and not chart.dice_alternatives
        header.append(_dice_header(chart) if plain else chart.dice_text)
    elif chart.value_key is not None:
        header.append(chart.value_key.id)
    header += [c.label or c.id for c in chart.columns]
    rows = [header]
    for row in chart.rows:
        cells = [_key_cell(k) for k in row.keys]
        if ranged:
            printed = row.range.printed if row.range is not None else ""
            cells.append(f"{printed} natural" if row.natural else printed)
        rows.append(cells + [_cell(v) for v in row.values])
    return rows


def _drm_rows(chart: model.Chart) -> list[list[str]]:
    """A DRM list: one row per DRM (id, label, value, condition as written)."""
    rows = [["drm", "label", "value", "when"]]
    for d in chart.drms:
        per = f" per {d.per.step} {d.per.var}" if d.per is not None else ""
        rows.append([d.id, d.label, f"{d.value:+d}{per}", condition_text(d.when) if d.when is not None else ""])
    return rows


def _availability_rows(layout: model.AvailabilityLayout, chart: model.Chart) -> list[list[str]]:
    """An availability grid as printed: items down, months across, each cell `✓`, a range or `-`."""
    rows = [[layout.item_key, *layout.heads]]
    for item, cells in layout.rows:
        rows.append([item, *(_availability_cell(c) for c in cells)])
    return rows


def _availability_cell(cell: model.AvailabilityCell) -> str:
    if cell is None:
        return "-"
    if isinstance(cell, model.AvailabilityMark):
        return "\u2713"
    return cell.printed


def export_csv(chart: model.Chart) -> str:
    """A plain chart as CSV text (RFC 4180 quoting, `\\n` line ends), each cell safe to open in a
    spreadsheet (`spreadsheet_cell`: no formula, no hidden character that splits a row)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([spreadsheet_cell(c) for c in row] for row in table_rows(chart))
    return out.getvalue()
