"""The notes the player aid prints under a chart beside its footnotes: one line per errata that
amended it, with its mark (`E1`) and what it changed and why, and the worked examples marked
`aid`, worded for players.
"""

from __future__ import annotations

import re
from typing import assert_never

from compiler import model
from compiler.emit.html.wording import cell_text, describe_condition, signed
from compiler.model.crt import crt_shape
from compiler.model.text import key_label, value_text


def errata_mark(game: model.Game, errata_id: str) -> str:
    """The short mark an amended cell carries: `E1` for the game's first errata in order."""
    ids = [e.id for e in game.errata]
    return f"E{ids.index(errata_id) + 1}" if errata_id in ids else errata_id


def errata_documents(game: model.Game) -> list[tuple[str, str]]:
    """Each errata document once, for the aid's key: its mark and its name, with where and when
    it was published (`E1`, `Official Errata (rulebook, appendix)`). File paths in a source are
    left out."""
    found = []
    for doc in game.errata:
        details = [d for d in (_readable_source(doc.source), doc.date) if d]
        found.append((errata_mark(game, doc.id), doc.title + (f" ({', '.join(details)})" if details else "")))
    return found


def header_errata(game: model.Game) -> list[str]:
    """One sentence per corrected calendar or period, for the aid's key, with its errata's mark and
    reason: `E1: period 1944 late, printed 1944-07 to 1944-12, now 1944-06 to 1944-12 (reason: ...)`."""
    lines = []
    for m in game.header_errata:
        what = "calendar" if m.part is model.HeaderPart.CALENDAR else f"period {m.id}"
        sides = [f"printed {m.printed}" if m.printed is not None else "added",
                 f"now {m.corrected}" if m.corrected is not None else "removed"]
        why = f" (reason: {'; '.join(m.because)})" if m.because else ""
        marks = ", ".join(errata_mark(game, e) for e in m.errata)
        lines.append(f"{marks}: {what}, {', '.join(sides)}{why}.")
    return lines


def chart_errata(game: model.Game, chart: model.Chart) -> list[str]:
    """One line per errata that amended this chart, for players: its mark (the key names the
    document, `errata_documents`), then what it changed and why, in sentences (`E1: Chart [C3] is
    the optional version. Reason: the rules call this chart [C3].`)."""
    lines: list[str] = []
    marks = chart.errata
    if marks is None:
        return lines
    printed_as_grid = chart.grid is not None or crt_shape(chart, game.enums) is not None
    for errata_id in marks.applied:
        what = [t for e, t in marks.notes if e == errata_id]
        if marks.printed_title and errata_id == marks.applied[0]:
            what.append(f"printed title: {marks.printed_title}")
        removed = [r for r in marks.removed_rows if errata_id in r.errata]
        if removed:
            what.append("removed rows: " + ", ".join(_row_name(chart, r) for r in removed))
        what += [f"{which} as printed: {text}" for e, which, text in marks.printed_notes if e == errata_id]
        gone = [d for d in marks.removed_drms if errata_id in d.errata]
        if gone:
            what.append("removed DRMs: " + ", ".join(f"{d.label} {signed(d.value)}" for d in gone))
        if printed_as_grid:
            cells = [_cell_change(game, chart, r) for r in chart.rows if errata_id in r.errata]
            what += ["changed cells: " + ", ".join(cells)] if cells else []
        reasons = _unique([t for e, t in marks.reasons if e == errata_id])
        if reasons:
            what.append(("reason: " if len(reasons) == 1 else "reasons: ") + _sentence(reasons[0]))
            what += reasons[1:]
        said = " ".join(_sentence(t) for t in what)
        lines.append(f"{errata_mark(game, errata_id)}: {said or 'amended the marked cells.'}")
    return lines


_PATH = re.compile(r"\(?[\w.-]*/[\w./-]+\)?")


def _readable_source(source: str | None) -> str | None:
    """An errata document's source without file paths: `chartc project (charts/ia2/errata.chart)`
    prints as `chartc project`."""
    if source is None:
        return None
    kept = " ".join(_PATH.sub("", source).split()).strip(" ,;:")
    return kept or None


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def drm_printed(game: model.Game, d: model.Drm) -> str | None:
    """What the print had for a DRM an errata changed: `printed +1`, `printed when F/B attack`,
    `not in the print`; None for a DRM as printed."""
    if not d.errata:
        return None
    if d.printed is None:
        return "not in the print"
    was = [f"printed {signed(d.printed.value)}"] if d.printed.value != d.value else []
    if d.printed.when != d.when:
        was.append("printed " + (f"when {describe_condition(d.printed.when, game)}" if d.printed.when else "always"))
    return ", ".join(was) or None


def _cell_change(game: model.Game, chart: model.Chart, r: model.Row) -> str:
    """`2:1 3-4 (printed EX)`: a grid cell an errata changed, named by column and roll, and what
    the print had (the footnote names them, since a grid cell has no room for it)."""
    if r.added or r.printed_values is None:
        return f"{_row_name(chart, r)} (not in the print)"
    was = [cell_text(game, col, old) for col, old, new in zip(chart.columns, r.printed_values, r.values,
                                                                strict=False) if old != new]
    if r.printed_range is not None and r.range is not None and r.printed_range != r.range.printed:
        was.insert(0, r.printed_range)
    return f"{_row_name(chart, r)} (printed {', '.join(was)})"


def _row_name(chart: model.Chart, r: model.Row) -> str:
    parts = [key_label(k, m) for k, m in zip(chart.keys, r.keys, strict=False)]
    if r.range is not None:
        parts.append(r.range.printed)
    return " ".join(parts) or "the row"


def example_text(game: model.Game, chart: model.Chart, example: model.Example) -> str:
    """A worked example as the aid prints it: `A jet rolls 2 (7.1.10): Jet, roll 2, F/B attack -> Result: Combat`."""
    given = [_example_key(chart, k, v) for k, v in example.keys]
    if example.rolls:
        given.append(("roll " if len(example.rolls) == 1 else "rolls ") + ", ".join(example.rolls))
    given += [game.context[f].label if f in game.context else f for f in example.when]
    given += [f"{game.context[n].label if n in game.context else n} {v}" for n, v in example.sets]
    if example.drm:
        given.append(f"DRM {signed(example.drm)}")
    if example.attack is not None:
        given.append(
            f"attack {example.attack}" + (f" vs defense {example.defense}" if example.defense is not None else "")
        )
    if example.shift:
        given.append(f"shift {signed(example.shift)}")
    results = [_example_result(game, chart, x) for x in example.expects]
    text = f"{example.title} ({example.rule}): {', '.join(given)} \u2192 {'; '.join(results)}"
    return text + (f" (the chart gives otherwise: {example.contradicts})" if example.contradicts else "")


def _example_key(chart: model.Chart, key_id: str, written: str) -> str:
    key = next((k for k in chart.keys if k.id == key_id), None)
    member = key.enum.member(written) if key is not None else None
    return member.label if member is not None else written


def _example_result(game: model.Game, chart: model.Chart, expect: model.Expect) -> str:
    match expect.kind:
        case model.ExpectKind.CELL:
            charts = [chart, *(c for c in game.charts if c is not chart)]
            column = next((c for ch in charts for c in ch.columns if c.id == expect.column), None)
            if column is None:
                return str(expect.value)
            return f"{column.label}: {value_text(game, column, expect.value)}"
        case model.ExpectKind.ROW:
            return f"row {expect.text}"
        case model.ExpectKind.MODIFIED:
            return f"modified roll {expect.text}"
        case model.ExpectKind.DRM:
            return f"DRM {signed(int(expect.text))}"
        case model.ExpectKind.ODDS:
            return f"column {expect.text}"
        case model.ExpectKind.NO_ROW:
            return "no row"
        case model.ExpectKind.NUMBER:
            return expect.text
        case _:
            assert_never(expect.kind)
