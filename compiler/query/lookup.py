"""What `chartc lookup` prints: the selected row, a DRM-list chart's total, or the odds column
forces pick, as text lines and JSON documents.

The answers come from `compiler.engine.lookup`; this module only renders them (through
`compiler.query.common`, so every line and document is made safe to print).
"""

from __future__ import annotations

from typing import Any

from compiler import model
from compiler.diagnostics.textsafe import json_text
from compiler.engine.drms import roll_steps
from compiler.engine.lookup import DrmListAnswer, LookupResult, OddsColumnAnswer
from compiler.engine.odds import Reading, parse_band
from compiler.model.text import json_value, row_range_text, step_json, step_text, value_text
from compiler.query.common import (
    breakdown_line,
    cell_text,
    drm_terms,
    heading,
    how_read,
    json_document,
    key_lines,
    modifiers_json,
    odds_json,
    safe_lines,
    undecided_lines,
)
from compiler.query.inconsistencies import Answered, inconsistencies_json, inconsistency_lines


def drm_list_lines(game: model.Game, answer: DrmListAnswer) -> list[str]:
    """A DRM-list chart's total in a context: heading, then `DRM: December 1944 +2 = +2`."""
    lines = [heading(game, answer.chart), "  " + breakdown_line(answer.modifiers, None, None)]
    applied = answer.modifiers.breakdown.items if answer.modifiers.breakdown is not None else ()
    answered = Answered(None, frozenset(a.drm.id for a in applied))
    lines += undecided_lines(game, answer.modifiers) + inconsistency_lines(game, answer.chart, answered)
    return safe_lines(lines)


def drm_list_json(game: model.Game, answer: DrmListAnswer) -> str:
    """A DRM-list chart's total in a context as a JSON document."""
    chart = answer.chart
    doc = {"game": game.id, "chart": chart.address, "title": chart.title, "drm": answer.modifiers.total}
    return json_document({**doc, "modifiers": modifiers_json(answer.modifiers), **_inconsistencies(game, chart)})


def lookup_lines(game: model.Game, result: LookupResult) -> list[str]:
    """The selected row for a terminal: heading, keys, roll -> row, then one line per column."""
    chart = result.chart
    lines = [heading(game, chart)]
    lines += key_lines(result.keys, result.odds, result.shifts)
    modifiers = result.modifiers
    if chart.arithmetic and result.natural is not None:  # the roll's steps, the DRMs at theirs
        lines.append(f"  roll {steps_line(result)}")
        lines += undecided_lines(game, modifiers) if modifiers is not None else []
        lines.append(f"  modified roll {result.modified} -> row {row_range_text(result.row)}")
    elif modifiers is not None and modifiers.breakdown is not None and chart.drms:
        lines.append("  " + breakdown_line(modifiers, result.natural, result.modified))
        lines += undecided_lines(game, modifiers)
    if result.natural is not None and not chart.arithmetic:
        drm = result.drm
        roll = (
            f"{result.natural}"
            if not drm
            else f"{result.natural} {'+' if drm > 0 else '-'} DRM {abs(drm)} = {result.natural + drm}"
        )
        what = "value" if chart.kind is model.ChartKind.VALUE else "roll"
        lines.append(f"  {what} {roll} -> row {row_range_text(result.row)}")
    if result.overlay is not None:
        lines.append(f"  overlay: {result.overlay.name} (its rows are read first while it holds)")
    lines += [
        f"  {col.label}: {cell_text(game, col, value)}"
        for col, value in zip(chart.columns, result.row.values, strict=True)
    ]
    lines += errata_lines(game, chart, result.row)
    if modifiers is not None and modifiers.breakdown is not None:
        lines += [drm_errata_line(game, a.drm) for a in modifiers.breakdown.items if a.drm.errata]
    applied = modifiers.breakdown.items if modifiers is not None and modifiers.breakdown is not None else ()
    answered = Answered(result.row, frozenset(a.drm.id for a in applied))
    return safe_lines(lines + inconsistency_lines(game, chart, answered))


def steps_line(result: LookupResult) -> str:
    """The roll's steps as a player makes them: `1d6 2, FuG25 IFF hit +1 -> 3, -3 -> 0, minimum 0
    -> 0, maximum 3 -> 0` (the DRM step names the DRMs that apply; left out when no DRM was read
    and none was given)."""
    assert result.natural is not None
    modifiers = result.modifiers
    parts = [f"{result.chart.dice_text} {result.natural}"]
    for step, _, roll in roll_steps(result.chart, result.natural, result.drm):
        if step.kind is model.StepKind.DRMS:
            if modifiers is None or (modifiers.breakdown is None and not modifiers.extra):
                continue
            parts.append(", ".join(drm_terms(modifiers)) + f" -> {roll}")
        else:
            parts.append(f"{step_text(step)} -> {roll}")
    return ", ".join(parts)


def steps_json(result: LookupResult) -> list[dict[str, Any]] | None:
    """The roll's steps as JSON: each step (`model.text.step_json`) with `roll`, the roll after it,
    and the DRM step's `amount`, the DRM total; None for a chart read without a roll."""
    if result.natural is None or result.chart.kind is not model.ChartKind.ROLL:
        return None
    made = roll_steps(result.chart, result.natural, result.drm)
    return [{**step_json(step), **({"amount": amount} if step.kind is model.StepKind.DRMS else {}), "roll": roll}
            for step, amount, roll in made]


def drm_errata_line(game: model.Game, drm: model.Drm) -> str:
    """`  Errata: Official errata (2021) (DRM F/B Attack printed +1): 7.1.10: ...`: the errata that
    changed a DRM that applied, what the print had and why."""
    titles = {e.id: e.title for e in game.errata}
    cited = ", ".join(titles.get(e, e) for e in drm.errata)
    if drm.printed is None:
        was = "not in the print"
    else:
        was = f"printed {drm.printed.value:+d}" if drm.printed.value != drm.value else "printed with another condition"
    return f"  Errata: {cited} (DRM {drm.label} {was})" + "".join(f": {why}" for why in drm.because)


def errata_lines(game: model.Game, chart: model.Chart, row: model.Row) -> list[str]:
    """`  Errata: Official errata (2021) (printed EX): 15.1: ...`: the errata that changed the
    selected row or cell, what the print had and why; none for a row as printed."""
    if not row.errata:
        return []
    titles = {e.id: e.title for e in game.errata}
    cited = ", ".join(titles.get(e, e) for e in row.errata)
    printed: list[str] = []
    if row.added:
        printed.append("not in the print")
    else:
        if row.printed_range is not None and row.range is not None and row.printed_range != row.range.printed:
            printed.append(f"printed range {row.printed_range}")
        for col, old, new in zip(chart.columns, row.printed_values or (), row.values, strict=False):
            if old != new:
                printed.append(f"printed {value_text(game, col, old)}")
    said = f" ({'; '.join(printed)})" if printed else ""
    return [f"  Errata: {cited}{said}" + "".join(f": {why}" for why in row.because)]


def lookup_json(game: model.Game, result: LookupResult) -> str:
    """The selected row as a JSON document (`chartc lookup --json`)."""
    doc = {"game": game.id, **lookup_fields(result), **odds_json(result.odds, result.shifts)}
    return json_document({**doc, **_inconsistencies(game, result.chart)})


def _inconsistencies(game: model.Game, chart: model.Chart) -> dict[str, Any]:
    """`inconsistencies`: where the book disagrees with itself about the chart; left out when nowhere."""
    found = inconsistencies_json(game, chart)
    return {"inconsistencies": found} if found else {}


def lookup_fields(result: LookupResult) -> dict[str, Any]:
    """A lookup's chart, keys, rolls, DRM breakdown, row range and values, as JSON fields."""
    chart = result.chart
    return {
        "chart": chart.address,
        "title": chart.title,
        "keys": {k.id: m.id for k, m in result.keys},
        "natural": result.natural,
        "drm": result.drm,
        "modified": result.modified,
        "steps": steps_json(result),
        "modifiers": modifiers_json(result.modifiers),
        "range": result.row.range.printed if result.row.range else None,
        "values": {k: json_value(v) for k, v in result.values().items()},
        **({"errata": errata_json(result.chart, result.row)} if result.row.errata else {}),
        **({"drm_errata": drms} if (drms := drm_errata_json(result)) else {}),
        **({"overlay": result.overlay.id or result.overlay.name} if result.overlay is not None else {}),
    }


def drm_errata_json(result: LookupResult) -> list[dict[str, Any]]:
    """The errata that changed a DRM that applied (the `Errata:` lines of the human output): the
    DRM, the errata ids, the printed value (None: not in the print) and why."""
    modifiers = result.modifiers
    applied = modifiers.breakdown.items if modifiers is not None and modifiers.breakdown is not None else ()
    return [
        {"drm": a.drm.id, "ids": list(a.drm.errata), "printed": a.drm.printed.value if a.drm.printed else None,
         "because": list(a.drm.because)}
        for a in applied if a.drm.errata
    ]


def errata_json(chart: model.Chart, row: model.Row) -> dict[str, Any]:
    """The errata that changed the selected row or cell: their ids, what the print had, why."""
    printed = None if row.added else {
        "range": row.printed_range,
        "values": {c.id: json_value(v) for c, v in zip(chart.columns, row.printed_values or (), strict=False)},
    }
    return {"ids": list(row.errata), "printed": printed, "because": list(row.because)}


def odds_column_lines(game: model.Game, answer: OddsColumnAnswer) -> list[str]:
    """`attack 26 vs defense 7 -> 3:1` under the rule's heading, and how the odds read that column
    when they are not the column's own (`9:1 reads the 6:1 column`); for a partial rule, that an
    unprinted column may be the one then."""
    reading = Reading(answer.formed, answer.column, answer.clamped, answer.shift)
    lines = [
        heading(game, answer.chart),
        f"  {_forces(answer.attack, answer.defense, answer.shift)} -> {answer.column}{how_read(reading)}",
    ]
    if answer.chart.partial and not _own_column(reading):
        # a partial rule's printed columns are not all its columns: the one read may not be the card's
        why = answer.chart.partial
        lines.append(f"  the rule is declared partial ({why}): a column that is not printed may be the one")
    return safe_lines(lines)


def _own_column(reading: Reading) -> bool:
    """Whether the odds as formed lie in the column read (strength 3 in `6-`), not between two
    printed columns or past the table's edge."""
    if reading.clamped or reading.shift:
        return False
    band = parse_band(reading.column)
    if band is None or reading.column == reading.formed:
        return reading.column == reading.formed
    try:
        value = int(reading.formed)
    except ValueError:
        return False
    low, high = band
    return (low is None or low <= value) and (high is None or value <= high)


def _forces(attack: int, defense: int | None, shift: int) -> str:
    """`attack 26 vs defense 7, shift -1`, or `strength 12` for a strength-keyed rule."""
    shifted = f", shift {shift:+d}" if shift else ""
    return (f"strength {attack}" if defense is None else f"attack {attack} vs defense {defense}") + shifted


def odds_column_json(game: model.Game, answer: OddsColumnAnswer) -> str:
    """The odds column as one line of JSON."""
    import json  # lazy: only for --format json: `chartc lookup` prints text

    doc = {
        "game": game.id,
        "chart": answer.chart.address,
        "attack": answer.attack,
        "defense": answer.defense,
        "shift": answer.shift,
        "odds": answer.formed,
        "column": answer.column,
        "clamped": answer.clamped,
    }
    return json_text(json.dumps(doc, ensure_ascii=False))
