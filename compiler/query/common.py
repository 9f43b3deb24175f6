"""What `chartc lookup` and `chartc odds` (and their `--follow`) print alike: JSON documents, safe
text lines, a chart's heading, the DRM breakdown of `--when`/`--set`, and how a CRT's odds keys
were read from forces.

Every text line goes through `textsafe.printable` (`safe_lines`), so chart text cannot add lines,
escape sequences or bidi overrides to the output; every JSON document goes through
`textsafe.json_text` (`json_document`).
"""

from __future__ import annotations

from typing import Any

from compiler import model
from compiler.diagnostics.textsafe import json_text, printable
from compiler.engine.context import ModifierAnswer, context_json
from compiler.engine.lookup import KeyValues
from compiler.engine.odds import Reading
from compiler.engine.shifts import ShiftBreakdown
from compiler.model.text import value_text


def json_document(doc: dict[str, Any]) -> str:
    """A CLI JSON answer: indented, UTF-8 text, hidden characters escaped (see `textsafe`)."""
    import json  # lazy: only for --format json: `chartc lookup` prints text

    return json_text(json.dumps(doc, ensure_ascii=False, indent=2))


def safe_lines(lines: list[str]) -> list[str]:
    return [printable(line) for line in lines]


def heading(game: model.Game, chart: model.Chart) -> str:
    """`ia2/R4 Escape Chart (rule 7.1.10)`."""
    return f"{game.id}/{chart.address} {chart.title}" + (f" (rule {chart.rule})" if chart.rule else "")


def signed(n: int) -> str:
    """A DRM as the CLI prints it: `+2`, `-1`, `0` (ASCII, for terminals and logs)."""
    return f"{n:+d}" if n else "0"


# ---- the DRM breakdown (`--when`, `--set`) --------------------------------------------------------


def drm_terms(modifiers: ModifierAnswer) -> list[str]:
    """The DRMs that make up the total, as a rulebook adds them up: `F/B Attack +1 [fn 1]`,
    `Kills -2 (2 x -1)` for a per-N DRM, the clamp of the chart's total, then `--drm +1`."""
    terms: list[str] = []
    breakdown = modifiers.breakdown
    if breakdown is not None:
        for applied in breakdown.items:
            steps = f" ({applied.steps} x {applied.drm.value:+d})" if applied.steps is not None else ""
            note = f" [fn {applied.drm.footnote}]" if applied.drm.footnote else ""
            terms.append(f"{applied.drm.label} {applied.value:+d}{steps}{note}")
        if not breakdown.items:
            terms.append("no DRM applies")
        if breakdown.clamped:
            terms.append(f"DRMs {breakdown.sum:+d} capped to {signed(breakdown.total)}")
    if modifiers.extra or breakdown is None:
        terms.append(f"--drm {signed(modifiers.extra)}")
    return terms


def breakdown_line(modifiers: ModifierAnswer, natural: int | None, modified: int | None) -> str:
    """`natural 2, F/B Attack +1 [fn 1], Gruppe Leader -1 = 2` (with a natural roll), or
    `DRM: F/B Attack +1 [fn 1] = +1` (without one, for `chartc odds`)."""
    terms = drm_terms(modifiers)
    if natural is None or modified is None:
        return "DRM: " + ", ".join(terms) + f" = {signed(modifiers.total)}"
    line = ", ".join([f"natural {natural}", *terms]) + f" = {natural + modifiers.total}"
    if modified != natural + modifiers.total:
        line += f", modified roll capped to {modified}"
    return line


def undecided_lines(game: model.Game, modifiers: ModifierAnswer) -> list[str]:
    """`not given: month (a DRM tests it: --set month=VALUE)`, when a DRM was left undecided."""
    if not modifiers.undecided:
        return []
    named = ", ".join(f"{v} (--set {v}=VALUE)" for v in modifiers.undecided)
    return [f"  not given, so the DRMs testing them do not apply: {named}"]


def modifiers_json(modifiers: ModifierAnswer | None) -> dict[str, Any] | None:
    """The DRM breakdown as JSON: the context given, each DRM that applies, the chart's total and
    `--drm` (None when no context was given: the chart's DRMs were not read)."""
    if modifiers is None or modifiers.breakdown is None:
        return None
    breakdown = modifiers.breakdown
    return {
        "context": context_json(modifiers.context),
        "applied": [
            {
                "id": a.drm.id,
                "label": a.drm.label,
                "value": a.value,
                "steps": a.steps,
                "footnote": a.drm.footnote,
            }
            for a in breakdown.items
        ],
        "sum": breakdown.sum,
        "chart_total": breakdown.total,
        "given": modifiers.extra,
        "total": modifiers.total,
        "undecided": list(modifiers.undecided),
    }


# ---- CRT keys read from forces (`--attack`, `--defense`) ----------------------------------------


def key_lines(
    keys: KeyValues,
    odds: tuple[tuple[str, Reading], ...],
    shifts: ShiftBreakdown | None,
) -> list[str]:
    """One line per key, an odds key read from forces saying how (`odds: 2:1 (3:1 shifted -1 reads
    the 2:1 column)`), after the CRT's column shifts when it declares any."""
    readings = dict(odds)
    lines = [f"  column shifts: {shifts.text()}"] if shifts is not None else []
    return lines + [f"  {k.id}: {m.label}" + (how_read(readings[k.id]) if k.id in readings else "") for k, m in keys]


def how_read(reading: Reading) -> str:
    """` (9:1 reads the 6:1 column: the table's edge)` when the odds are not the column's own."""
    if not reading.formed or (reading.formed == reading.column and not reading.shift):
        return ""
    shifted = f" shifted {reading.shift:+d}" if reading.shift else ""
    edge = ": the table's edge" if reading.clamped else ""
    return f" ({reading.formed}{shifted} reads the {reading.column} column{edge})"


def odds_json(odds: tuple[tuple[str, Reading], ...], shifts: ShiftBreakdown | None) -> dict[str, Any]:
    """For a CRT read from forces: how each odds key was read and the column shifts that applied."""
    out: dict[str, Any] = {}
    if odds:
        out["odds_read"] = {
            key: {"odds": r.formed, "shift": r.shift, "column": r.column, "clamped": r.clamped} for key, r in odds
        }
    if shifts is not None:
        out["column_shifts"] = {
            "applied": [{"label": label, "shift": v} for label, v in shifts.terms],
            "total": shifts.total,
        }
    return out


def cell_text(game: model.Game, col: model.Column, value: model.Value) -> str:
    """A cell as the terminal prints it: `value_text`, and a reference to another chart by its printed
    ID or title with the address to look it up (`see War Now Ends (war_now_ends)`, not `[war_now_ends]`)."""
    if isinstance(value, model.ChartRef) and not value.chained and (target := game.chart(value.address)) is not None:
        name = target.chart_id or target.title
        return f"see {name}" + (f" ({target.address})" if target.address != name else "")
    return value_text(game, col, value)

