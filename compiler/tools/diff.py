"""Compare two chart trees chart by chart, row by row, cell by cell, in the field's words.

Rows are matched by identity (their keys and range), not by position, so reordered rows are no
change. A row whose range moved (`3-6` -> `3+`) or whose keys were renamed, with the same values,
is one change, not a removal and an addition.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import assert_never

from compiler import model
from compiler.diagnostics.textsafe import json_text, printable
from compiler.emit.html.wording import describe_condition
from compiler.emit.templating import environment
from compiler.model.formulas import expr_text
from compiler.model.text import keys_phrase, value_text


class ChangeKind(StrEnum):
    """What changed; the value is the word `diff` prints and writes in its JSON."""

    GAME_ADDED = "game added"
    GAME_REMOVED = "game removed"
    CHART_ADDED = "chart added"
    CHART_REMOVED = "chart removed"
    TITLE = "title"
    PARTIAL = "partial"
    DRM = "drm"
    ROW_ADDED = "row added"
    ROW_REMOVED = "row removed"
    RANGE = "range"
    KEYS = "keys"
    CELL = "cell"
    NOTE = "note"
    FORMULA = "formula"
    CALENDAR = "calendar"
    PERIOD = "period"


@dataclass(frozen=True)
class Change:
    """One difference, located by game, chart and `where` (row, column or DRM), with the old and
    new text and the errata cited."""

    game: str
    chart: str
    kind: ChangeKind
    where: str
    old: str | None
    new: str | None
    cite: str | None
    reason: str | None = None  # why, as the errata say it (`because`)
    rule: str | None = None  # the chart's rule section

    def text(self) -> str:
        """`R4, interceptor Piston-engined, roll 3-6: Result Combat → Evade`."""
        head = ", ".join(x for x in (self.chart, self.where) if x)
        return f"{head}: {self.body()}"

    def body(self) -> str:
        """What changed: `row added: Result Evade`, or `3-6 → 3+` (the errata sheet prints it too)."""
        match self.kind:
            case ChangeKind.GAME_ADDED | ChangeKind.CHART_ADDED | ChangeKind.ROW_ADDED:
                return f"{self.kind}: {self.new}" if self.new else str(self.kind)
            case ChangeKind.GAME_REMOVED | ChangeKind.CHART_REMOVED | ChangeKind.ROW_REMOVED:
                return f"{self.kind}: {self.old}" if self.old else str(self.kind)
            case (
                ChangeKind.TITLE
                | ChangeKind.PARTIAL
                | ChangeKind.DRM
                | ChangeKind.RANGE
                | ChangeKind.KEYS
                | ChangeKind.CELL
                | ChangeKind.NOTE
                | ChangeKind.FORMULA
                | ChangeKind.CALENDAR
                | ChangeKind.PERIOD
            ):
                return f"{self.old or '–'} \u2192 {self.new or '–'}"
            case _:
                assert_never(self.kind)

    def as_json(self) -> dict[str, str | None]:
        """The change as a JSON object (`chartc diff --format json`)."""
        return {
            "game": self.game,
            "chart": self.chart,
            "kind": str(self.kind),
            "where": self.where,
            "old": self.old,
            "new": self.new,
            "cite": self.cite,
            "reason": self.reason,
            "rule": self.rule,
            "text": self.text(),
        }


def diff_projects(old: model.Project, new: model.Project) -> list[Change]:
    """Every change from `old` to `new`, games and charts in sorted order, rows in `new` order."""
    changes: list[Change] = []
    for game_id in sorted(set(old.games) | set(new.games)):
        a, b = old.games.get(game_id), new.games.get(game_id)
        if a is None or b is None:
            kind = ChangeKind.GAME_ADDED if a is None else ChangeKind.GAME_REMOVED
            title = (b or a).title  # type: ignore[union-attr]
            changes.append(
                Change(game_id, "", kind, "", title if a is not None else None, title if b is not None else None, None)
            )
            continue
        changes.extend(_diff_game(a, b))
    return changes


def _diff_game(a: model.Game, b: model.Game) -> list[Change]:
    out: list[Change] = []
    old_charts = {c.address: c for c in a.charts}
    new_charts = {c.address: c for c in b.charts}
    for address in sorted(set(old_charts) | set(new_charts), key=str.casefold):
        oc, nc = old_charts.get(address), new_charts.get(address)
        if oc is None:
            out.append(Change(b.id, address, ChangeKind.CHART_ADDED, "", None, nc.title, _cite(b, nc.errata_ids)))  # type: ignore[union-attr]
        elif nc is None:
            out.append(Change(a.id, address, ChangeKind.CHART_REMOVED, "", oc.title, None, None))
        else:
            out.extend(replace(c, reason=_reason(oc, nc, c), rule=nc.rule) for c in _diff_chart(a, b, oc, nc))
    return _diff_header(a, b) + out + _diff_records(a, b) + _diff_formulas(a, b)


HEADER = "game header"  # the `chart` of a change to the calendar or a period


def _diff_header(a: model.Game, b: model.Game) -> list[Change]:
    """The calendar and each period that differ (an errata's `change calendar`, `change period`,
    `add period`, `remove period`), under `game header`, citing the errata that corrected them."""
    marks = {(m.part, m.id): m for m in (*a.header_errata, *b.header_errata)}

    def change(
        kind: ChangeKind, where: str, old: str | None, new: str | None, key: tuple[model.HeaderPart, str | None]
    ) -> Change:
        mark = marks.get(key)
        cite = _cite(b, mark.errata) or _cite(a, mark.errata) if mark is not None else None
        reason = "; ".join(mark.because) or None if mark is not None else None
        return Change(b.id, HEADER, kind, where, old, new, cite, reason)

    out = []
    old_calendar, new_calendar = (" to ".join(g.calendar) if g.calendar else None for g in (a, b))
    if old_calendar != new_calendar:
        calendar_key = (model.HeaderPart.CALENDAR, None)
        out.append(change(ChangeKind.CALENDAR, "calendar", old_calendar, new_calendar, calendar_key))
    old_periods, new_periods = ({p.id: _period_text(p) for p in g.periods} for g in (a, b))
    for period_id in [*new_periods, *(p for p in old_periods if p not in new_periods)]:
        before, after = old_periods.get(period_id), new_periods.get(period_id)
        if before != after:
            key = (model.HeaderPart.PERIOD, period_id)
            out.append(change(ChangeKind.PERIOD, f"period {period_id}", before, after, key))
    return out


def _period_text(p: model.Period) -> str:
    """`"1944 late" 1944-07 to 1944-12` (`1946-01+` when open-ended), as `chartc diff` prints a period."""
    return f'"{p.label}" {p.first} to {p.last}' if not p.open_end else f'"{p.label}" {p.first}+'


def _diff_formulas(a: model.Game, b: model.Game) -> list[Change]:
    """Each formula whose result, `requires` or `domain` differs (an errata's `change result to
    ...`, `change requires ...`, `remove domain`), under its id; a statement not printed reads `–`."""
    old_formulas = {f.id: f for f in a.formulas}
    out: list[Change] = []
    for f in b.formulas:
        before = old_formulas.get(f.id)
        if before is None:
            continue
        for what, old, new in _formula_statements(before, f):
            if old != new:
                out.append(Change(b.id, f.id, ChangeKind.FORMULA, f"formula {f.title}: {what}", old, new,
                                  _cite(b, f.errata), "; ".join(f.because) or None, f.rule))
    return out


def _formula_statements(a: model.Formula, b: model.Formula) -> list[tuple[str, str | None, str | None]]:
    """The statements of two readings of one formula, as text (None: not stated)."""
    return [
        ("result", expr_text(a.expr), expr_text(b.expr)),
        ("requires", a.requires.text if a.requires else None, b.requires.text if b.requires else None),
        ("domain", a.domain.text if a.domain else None, b.domain.text if b.domain else None),
    ]


def _diff_records(a: model.Game, b: model.Game) -> list[Change]:
    """Each record field whose value differs (an errata on reference data), under its enum's id."""
    out: list[Change] = []
    for enum_id in sorted(set(a.enums) & set(b.enums)):
        old_enum, new_enum = a.enums[enum_id], b.enums[enum_id]
        old_members = {m.id: m for m in old_enum.members}
        for m in new_enum.members:
            before = old_members.get(m.id)
            if before is None:
                continue
            for f in new_enum.fields:
                old_v, new_v = before.record.get(f.id), m.record.get(f.id)
                if old_v != new_v:
                    cite = _cite(b, m.errata)
                    out.append(Change(b.id, enum_id, ChangeKind.CELL, f"record {m.label}: {f.label}",
                                      "–" if old_v is None else str(old_v), "–" if new_v is None else str(new_v),
                                      cite, "; ".join(m.because) or None))
    return out


def _reason(old: model.Chart, chart: model.Chart, change: Change) -> str | None:
    """Why the errata made `change`: the `because` of the row or cell it changed, else those the
    errata it cites gave for the chart (a title, a completed chart, a removed row); an errata note
    is its own reason."""
    if change.reason is not None or chart.errata is None or change.cite is None or change.where == ERRATA_NOTE:
        return change.reason
    fresh = _fresh(old, chart)
    return "; ".join(dict.fromkeys(t for e, t in chart.errata.reasons if e in fresh)) or None


ERRATA_NOTE = "errata note"
"""Where an errata's `note "..."` on a chart is listed (a note the chart does not print)."""


def _fresh(old: model.Chart, new: model.Chart) -> tuple[str, ...]:
    """The errata that amend `new` and not `old` (the round between two printings), or, when both
    are amended by the same errata (two revisions of the chart files), all of `new`'s."""
    return tuple(e for e in new.errata_ids if e not in old.errata_ids) or new.errata_ids


def _errata_notes(b: model.Game, oc: model.Chart, nc: model.Chart) -> list[Change]:
    """The notes errata add to a chart (`note "..."` in an `amend`) that `oc` lacks or `nc` lost."""
    was = list(oc.errata.notes) if oc.errata is not None else []
    now = list(nc.errata.notes) if nc.errata is not None else []
    added = [Change(b.id, nc.address, ChangeKind.NOTE, ERRATA_NOTE, None, text, _cite(b, (e,))) for e, text in now
             if (e, text) not in was]
    return added + [Change(b.id, nc.address, ChangeKind.NOTE, ERRATA_NOTE, text, None, None) for e, text in was
                    if (e, text) not in now]


def _notes(oc: model.Chart, nc: model.Chart) -> dict[str, tuple[str | None, str | None]]:
    """Each footnote (by its mark) and note (by its place) of two versions of a chart: (old, new) text."""
    out: dict[str, tuple[str | None, str | None]] = {}
    for f in oc.footnotes:
        out[f"footnote {f.mark}"] = (f.text, None)
    for f in nc.footnotes:
        out[f"footnote {f.mark}"] = (out.get(f"footnote {f.mark}", (None, None))[0], f.text)
    for i in range(max(len(oc.notes), len(nc.notes))):
        out[f"note {i + 1}"] = (oc.notes[i] if i < len(oc.notes) else None, nc.notes[i] if i < len(nc.notes) else None)
    return out


def _because(row: model.Row) -> str | None:
    return "; ".join(row.because) or None


def _cite(game: model.Game, errata_ids: tuple[str, ...]) -> str | None:
    cites = []
    for errata_id in errata_ids:
        doc = next((e for e in game.errata if e.id == errata_id), None)
        if doc is not None:  # where it was published, the printing it corrects, when
            published = "; ".join(x for x in (doc.source, doc.edition, doc.date) if x)
            cites.append(doc.title + (f" ({published})" if published else ""))
    return "; ".join(cites) or None


def _key_text(chart: model.Chart, keys: tuple[model.KeyMatch, ...]) -> str:
    return keys_phrase(chart.keys, keys)


def _where(chart: model.Chart, row: model.Row) -> str:
    parts = [_key_text(chart, row.keys)]
    if row.range is not None:
        noun = "value" if chart.kind is model.ChartKind.VALUE else "roll"
        parts.append(f"{noun} {row.range.printed}")
    return ", ".join(p for p in parts if p)


RowIdentity = tuple[tuple[object, ...], tuple[int | None, int | None] | None]


def _identity(row: model.Row) -> RowIdentity:
    keys = tuple((k.first, k.last) if isinstance(k, model.MonthSpan | model.TurnSpan) else k for k in row.keys)
    rng = (row.range.low, row.range.high) if row.range is not None else None
    return keys, rng


def _row_text(game: model.Game, chart: model.Chart, row: model.Row) -> str:
    return "; ".join(f"{c.label} {value_text(game, c, v)}" for c, v in zip(chart.columns, row.values, strict=False))


def _diff_chart(a: model.Game, b: model.Game, oc: model.Chart, nc: model.Chart) -> list[Change]:
    address = nc.address
    out: list[Change] = []
    cite_chart = _cite(b, _fresh(oc, nc))
    if oc.title != nc.title:
        out.append(Change(b.id, address, ChangeKind.TITLE, "title", oc.title, nc.title, cite_chart))
    if oc.partial != nc.partial:
        out.append(
            Change(
                b.id,
                address,
                ChangeKind.PARTIAL,
                "completeness",
                oc.partial or "complete",
                nc.partial or "complete",
                cite_chart,
            )
        )
    for mark, (was, now) in _notes(oc, nc).items():
        if was != now:
            out.append(Change(b.id, address, ChangeKind.NOTE, mark, was, now, cite_chart))
    out.extend(_errata_notes(b, oc, nc))
    old_drms = {d.id: d for d in oc.drms}
    for d in nc.drms:
        before = old_drms.pop(d.id, None)
        cite, why = (_cite(b, d.errata) or cite_chart, "; ".join(d.because) or None)
        if before is None or before.value != d.value:
            old = f"{before.value:+d}" if before else None
            out.append(Change(b.id, address, ChangeKind.DRM, f"DRM {d.label}", old, f"{d.value:+d}", cite, why))
        old, new = (describe_condition(x.when, g) if x is not None else "" for x, g in ((before, a), (d, b)))
        if before is not None and old != new:  # conditions compared as they read: their spans differ
            out.append(Change(b.id, address, ChangeKind.DRM, f"DRM {d.label}: when", old, new, cite, why))
    removed = {d.id: d for d in nc.errata.removed_drms} if nc.errata is not None else {}
    for d in old_drms.values():
        gone = removed.get(d.id)
        cite = _cite(b, gone.errata) if gone is not None else cite_chart
        why = "; ".join(gone.because) or None if gone is not None else None
        out.append(Change(b.id, address, ChangeKind.DRM, f"DRM {d.label}", f"{d.value:+d}", None, cite, why))
    out.extend(_diff_rows(a, b, oc, nc))
    return out


def _diff_rows(a: model.Game, b: model.Game, oc: model.Chart, nc: model.Chart) -> list[Change]:
    address = nc.address
    old_by_id: dict[RowIdentity, list[model.Row]] = {}
    for r in oc.rows:
        old_by_id.setdefault(_identity(r), []).append(r)
    matched: list[tuple[model.Row, model.Row]] = []
    unmatched_new: list[model.Row] = []
    for r in nc.rows:
        bucket = old_by_id.get(_identity(r))
        if bucket:
            matched.append((bucket.pop(0), r))
        else:
            unmatched_new.append(r)
    unmatched_old = [r for rows in old_by_id.values() for r in rows]
    out: list[Change] = []
    for before, after in matched:
        for col, old_v, new_v in zip(nc.columns, before.values, after.values, strict=False):
            if old_v != new_v:
                out.append(
                    Change(
                        b.id,
                        address,
                        ChangeKind.CELL,
                        f"{_where(nc, after)}: {col.label}",
                        value_text(a, col, old_v),
                        value_text(b, col, new_v),
                        _cite(b, after.errata),
                        _because(after),
                    )
                )
    # a row whose range moved or whose keys were renamed, with the same values, is one change
    for after in list(unmatched_new):
        same_values = [r for r in unmatched_old if r.values == after.values]
        moved = next((r for r in same_values if r.keys == after.keys), None)
        renamed = next((r for r in same_values if _identity(r)[1] == _identity(after)[1]), None)
        if moved is not None and moved.range is not None and after.range is not None:
            out.append(
                Change(
                    b.id,
                    address,
                    ChangeKind.RANGE,
                    _where(nc, moved),
                    moved.range.printed,
                    after.range.printed,
                    _cite(b, after.errata),
                    _because(after),
                )
            )
        elif renamed is not None:
            out.append(
                Change(
                    b.id,
                    address,
                    ChangeKind.KEYS,
                    _where(oc, renamed),
                    _key_text(oc, renamed.keys),
                    _key_text(nc, after.keys),
                    _cite(b, after.errata),
                    _because(after),
                )
            )
            moved = renamed
        else:
            continue
        unmatched_old.remove(moved)
        unmatched_new.remove(after)
    for r in unmatched_old:
        out.append(
            Change(
                b.id, address, ChangeKind.ROW_REMOVED, _where(oc, r), _row_text(a, oc, r), None, _cite(b, nc.errata_ids)
            )
        )
    for r in unmatched_new:
        out.append(
            Change(
                b.id, address, ChangeKind.ROW_ADDED, _where(nc, r), None, _row_text(b, nc, r), _cite(b, r.errata),
                _because(r),
            )
        )
    return out


def changes_lines(changes: list[Change]) -> list[str]:
    """One line per change for a terminal: `ia2/R4, …: 3-6 → 3+  [errata cite]`, made safe to print
    (see `compiler.diagnostics.textsafe`)."""
    return [printable(f"{c.game}/{c.text()}" + (f"  [{c.cite}]" if c.cite else "")) for c in changes]


def changes_json(changes: list[Change], old_label: str, new_label: str) -> str:
    """The changes as a JSON document (`chartc diff --format json`)."""
    doc = {"old": old_label, "new": new_label, "changes": [c.as_json() for c in changes]}
    return json_text(json.dumps(doc, ensure_ascii=False, indent=2))


def errata_sheet_html(changes: list[Change], titles: dict[str, str], old_label: str, new_label: str) -> str:
    """A printable errata sheet (Jinja2, autoescaped): per game and chart (its ID and rule), one
    change per line with its location, printed -> corrected value, the reason and the errata cited."""
    games = []
    for game_id in sorted({c.game for c in changes}):
        mine = [c for c in changes if c.game == game_id]
        charts = [{"chart": chart, "rule": next((c.rule for c in mine if c.chart == chart and c.rule), None),
                   "changes": [c for c in mine if c.chart == chart]} for chart in dict.fromkeys(c.chart for c in mine)]
        games.append({"title": titles.get(game_id, game_id), "charts": charts})
    return (
        environment().get_template("errata_sheet.html.j2").render(games=games, old_label=old_label, new_label=new_label)
    )
