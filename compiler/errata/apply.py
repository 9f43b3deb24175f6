"""Errata as data: apply `errata` blocks to the charts as printed, and record their provenance.

Errata are applied to the syntax tree of each chart, in a defined order (`order N`, then name),
before the chart is resolved; `resolve_game` then resolves both the printed and the amended chart
and `annotate` marks every amended row and cell with the errata ids and the printed value.

Diagnostics: C601 (an errata names a chart, row or column that does not exist, or a row that is
ambiguous), C602 (two errata change the same cell and neither says which wins), C603 (an errata
change that has no effect).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Protocol, assert_never

from compiler import model
from compiler.diagnostics import Applicability, Label, Sink, Slot, codes, fixes
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.diagnostics.suggest import suggestion
from compiler.errata import cells, drms
from compiler.errata.printing import in_order
from compiler.errata.provenance import Provenance as Provenance
from dsl import ast

errata_order = in_order


def errata_docs(decls: list[ast.ErrataDecl], sink: Sink, declared: Collection[str] = ()) -> list[model.ErrataDoc]:
    """The errata documents of a game, in application order; duplicates and unknown
    `overrides` names (neither in `decls` nor in `declared`, the errata a printing leaves out)
    are reported."""
    seen: dict[str, ast.Span] = {}
    docs = []
    for e in errata_order(decls):
        if e.name.text in seen:
            declared_twice(sink, f"errata `{e.name.text}`", e.name.span, seen[e.name.text])
            continue
        seen[e.name.text] = e.name.span
        date = e.date.text if e.date and published_date(e.name.text, e.date, sink) else None
        docs.append(
            model.ErrataDoc(
                e.name.text, e.title.text, e.source.text if e.source else None, date,
                e.order or 0, tuple(n.text for n in e.notes), tuple(o.text for o in e.overrides), e.span,
                e.edition.text if e.edition else None,
            )
        )
    for e in decls:
        for o in e.overrides:
            if o.text not in seen and o.text not in declared:
                message = f"errata `{e.name.text}` overrides unknown errata `{o.text}`"
                unknown_name(sink, message, o.text, o.span, seen, slot=Slot.NAME)
    return docs


def published_date(errata_id: str, date: ast.Text, sink: Sink) -> bool:
    """Whether an errata's `date` is a calendar date, `YYYY-MM-DD`, or as much of one as the
    document prints (`YYYY-MM`, `YYYY`); C604 when not."""
    found = _DATE.fullmatch(date.text)
    if found is not None:
        year, month, day = (int(g) if g else None for g in found.groups())
        try:
            datetime.date(year or 1, month or 1, day or 1)
            return True
        except ValueError:
            pass
    sink.emit(
        codes.ERRATA_DATE,
        f"errata `{errata_id}` is dated `{date.text}`, which is not a date",
        date.span,
        "write the date it was published as `YYYY-MM-DD` (or `YYYY-MM`, `YYYY` when the document prints no "
        "more); name the printing it corrects with `edition \"...\"`",
    )
    return False


_DATE = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


class Names(Protocol):
    """The game's names errata read: its enums, to match a row's key written as a label."""

    @property
    def enums(self) -> Mapping[str, model.EnumType]: ...


def chart_handle(c: ast.ChartDecl) -> str:
    """The case-folded name a chart declaration is known by to errata."""
    return (c.chart_id or c.slug or c.title).text.casefold()


class ErrataApplier:
    """Applies every errata of a game to its chart declarations (syntax trees)."""

    def __init__(self, game: Names, charts: list[ast.ChartDecl], sink: Sink, formulas: Collection[str] = ()) -> None:
        self.game = game
        self.formulas = set(formulas)
        self.sink = sink
        self.charts = {self._handle(c): c for c in charts}
        self.provenance: dict[str, Provenance] = {}
        self._cell_owner: dict[tuple[str, ast.Span, str], tuple[str, ast.Span]] = {}
        self._overrides: dict[str, set[str]] = {}
        self._errata: dict[str, ast.ErrataDecl] = {}

    @staticmethod
    def _handle(c: ast.ChartDecl) -> str:
        return chart_handle(c)

    def find(self, name: str) -> ast.ChartDecl | None:
        folded = name.casefold()
        for c in self.charts.values():
            if folded in {x.text.casefold() for x in (c.chart_id, c.slug) if x is not None}:
                return c
        return None

    def apply(self, decls: list[ast.ErrataDecl]) -> dict[str, ast.ChartDecl]:
        """Apply errata in order; returns {chart handle: amended declaration} for changed charts."""
        amended: dict[str, ast.ChartDecl] = {}
        for e in errata_order(decls):
            self._overrides[e.name.text] = {o.text for o in e.overrides}
            self._errata[e.name.text] = e
            for a in e.amends:
                chart = self.find(a.chart.text)
                if chart is None and a.chart.text in self.game.enums:
                    continue  # an enum's records: `compiler.errata.records` amends them
                if chart is None and a.chart.text in self.formulas:
                    continue  # a formula or the game: `compiler.errata.formulas` or `.header` amends it
                if chart is None:
                    names = [x.text for c in self.charts.values() for x in (c.chart_id, c.slug) if x is not None]
                    hint, close = suggestion(a.chart.text, names)
                    self.sink.emit(
                        codes.ERRATA_TARGET_MISSING,
                        f"errata `{e.name.text}` amends chart `{a.chart.text}`, which does not exist",
                        a.chart.span,
                        hint,
                        fix=fixes.rename(a.chart.span, a.chart.text, close, Slot.CHART, names),
                    )
                    continue
                handle = self._handle(chart)
                current = amended.get(handle, chart)
                prov = self.provenance.setdefault(handle, Provenance())
                if e.name.text not in prov.errata:
                    prov.errata.append(e.name.text)
                for op in a.ops:
                    current = self._apply_op(e.name.text, current, op, prov)
                amended[handle] = current
        return amended

    # -- ops

    def _apply_op(self, errata_id: str, decl: ast.ChartDecl, op: ast.AmendOp, prov: Provenance) -> ast.ChartDecl:
        where = f"chart `{(decl.chart_id or decl.slug or decl.title).text}`"
        match op:
            case ast.AddNote():
                prov.notes.append((errata_id, op.text.text))
                return decl
            case ast.Complete():
                return self._complete(errata_id, decl, op, prov, where)
            case ast.Retitle():
                return self._retitle(errata_id, decl, op, prov, where)
            case ast.ChangeField():
                message = f"errata `{errata_id}` changes a record field, but it amends {where}"
                self.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span, "name the records' enum in `amend`")
                return decl
            case ast.ChangeResult() | ast.ChangeRequires() | ast.ChangeDomain():
                what = {ast.ChangeResult: "result", ast.ChangeRequires: "`requires`", ast.ChangeDomain: "`domain`"}
                message = f"errata `{errata_id}` changes a formula's {what[type(op)]}, but it amends {where}"
                self.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span, "name the formula in `amend`")
                return decl
            case ast.ChangeCalendar() | ast.ChangePeriod() | ast.RemovePeriod():
                message = f"errata `{errata_id}` changes the game's calendar or periods, but it amends {where}"
                self.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span, "name the game in `amend`")
                return decl
            case ast.ChangeNote():
                return self._change_note(errata_id, decl, op, prov, where)
            case ast.AddDrm() | ast.RemoveDrm() | ast.ChangeDrm():
                return drms.amend_drm(self, errata_id, decl, op, prov, where)
            case ast.ChangeCell() if decl.roll_grids:
                return cells.change_roll_cell(self, errata_id, decl, op, prov, where)
            case ast.MoveRow() if op.column is not None:
                if decl.grids:
                    return cells.move_grid_cell(self, errata_id, decl, op, prov, where)
                message = f"errata `{errata_id}` moves a grid cell, but {where} is not printed as a grid of ranges"
                hint = "without `column`, `move` gives a row another range"
                self.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span, hint)
                return decl
            case ast.AddRow() | ast.RemoveRow() | ast.MoveRow() | ast.ChangeCell():
                if decl.grids or decl.availability or decl.roll_grids:
                    self.sink.emit(
                        codes.ERRATA_TARGET_MISSING,
                        f"errata can change a cell of the grid {where} (`move RESULT column HEAD to RANGE`; in a grid "
                        "by roll, `change ROLL column HEAD to VALUE`), or retitle, annotate or complete it",
                        op.span,
                        "name a cell by its row and column, or transcribe the chart in row form",
                    )
                    return decl
                return self._amend_rows(errata_id, decl, op, prov, where)
            case _:
                assert_never(op)

    def _complete(
        self, errata_id: str, decl: ast.ChartDecl, op: ast.Complete, prov: Provenance, where: str
    ) -> ast.ChartDecl:
        if decl.partial is None:
            message = f"errata `{errata_id}` marks {where} complete, but it is not declared partial"
            self.sink.emit(codes.ERRATA_NO_EFFECT, message, op.span)
            return decl
        self.claim(errata_id, decl, decl.span, "partial", op.span)
        self._why(prov, errata_id, op.because)
        prov.completed = decl.partial.text
        return replace(decl, partial=None)

    def _change_note(
        self, errata_id: str, decl: ast.ChartDecl, op: ast.ChangeNote, prov: Provenance, where: str
    ) -> ast.ChartDecl:
        which = f"{'footnote' if op.footnote else 'note'} {op.number}"
        if op.footnote:
            index = next((i for i, f in enumerate(decl.footnotes) if f.mark == op.number), None)
            old = decl.footnotes[index].text if index is not None else None
        else:
            index = op.number - 1 if 0 < op.number <= len(decl.notes) else None
            old = decl.notes[index] if index is not None else None
        if index is None or old is None:
            message = f"errata `{errata_id}` changes {which} of {where}, which it does not print"
            self.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span)
            return decl
        if old.text == op.text.text:
            self.sink.emit(codes.ERRATA_NO_EFFECT, f"errata `{errata_id}` changes {which} to the text it has", op.span)
            return decl
        self.claim(errata_id, decl, old.span, which, op.span)
        self._why(prov, errata_id, op.because)
        prov.printed_notes.append((errata_id, which, old.text))
        if op.footnote:
            footnotes = list(decl.footnotes)
            footnotes[index] = replace(footnotes[index], text=op.text)
            return replace(decl, footnotes=tuple(footnotes))
        return replace(decl, notes=(*decl.notes[:index], op.text, *decl.notes[index + 1 :]))

    def _retitle(
        self, errata_id: str, decl: ast.ChartDecl, op: ast.Retitle, prov: Provenance, where: str
    ) -> ast.ChartDecl:
        if op.title.text == decl.title.text:
            message = f"errata `{errata_id}` retitles {where} to the title it already has"
            self.sink.emit(codes.ERRATA_NO_EFFECT, message, op.span)
            return decl
        self.claim(errata_id, decl, decl.span, "title", op.span)
        self._why(prov, errata_id, op.because)
        prov.printed_title = prov.printed_title or decl.title.text
        return replace(decl, title=op.title)

    def _amend_rows(
        self,
        errata_id: str,
        decl: ast.ChartDecl,
        op: ast.AddRow | ast.RemoveRow | ast.MoveRow | ast.ChangeCell,
        prov: Provenance,
        where: str,
    ) -> ast.ChartDecl:
        if isinstance(op, ast.AddRow):
            self.record(prov, errata_id, op.row.span, op.because)
            return replace(decl, rows=(*decl.rows, op.row))
        index = self._find_row(errata_id, decl, op.ref, op.span, where)
        if index is None:
            return decl
        row = decl.rows[index]
        match op:
            case ast.RemoveRow():
                self.claim(errata_id, decl, row.span, "row", op.span)
                prov.removed[row.span] = errata_id
                self._why(prov, errata_id, op.because)
                return replace(decl, rows=(*decl.rows[:index], *decl.rows[index + 1 :]))
            case ast.MoveRow():
                if row.range is not None and row.range.text == op.new_range.text:
                    message = f"errata `{errata_id}` moves a row of {where} to the range it already has"
                    self.sink.emit(codes.ERRATA_NO_EFFECT, f"{message} (`{op.new_range.text}`)", op.span)
                    return decl
                self.claim(errata_id, decl, row.span, "range", op.span)
                self.record(prov, errata_id, row.span, op.because)
                return _with_row(decl, index, replace(row, range=op.new_range))
            case ast.ChangeCell():
                return self._change_cell(errata_id, decl, index, op, prov, where)
            case _:
                assert_never(op)

    def _change_cell(
        self, errata_id: str, decl: ast.ChartDecl, index: int, op: ast.ChangeCell, prov: Provenance, where: str
    ) -> ast.ChartDecl:
        row = decl.rows[index]
        columns = [c.name.text for c in decl.columns]
        if op.column.text not in columns:
            message = f"errata `{errata_id}` changes column `{op.column.text}`, which {where} does not have"
            hint, close = suggestion(op.column.text, columns)
            fix = fixes.rename(op.column.span, op.column.text, close, Slot.NAME, columns)
            self.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.column.span, hint, fix=fix)
            return decl
        col = columns.index(op.column.text)
        if col >= len(row.values):
            return decl  # the row itself is malformed; its own diagnostic says so
        old = row.values[col]
        if (old.kind, old.text) == (op.value.kind, op.value.text):
            message = f"errata `{errata_id}` changes `{op.column.text}` of a row of {where} to the value it already has"
            self.sink.emit(codes.ERRATA_NO_EFFECT, f"{message} (`{old.text}`)", op.span)
            return decl
        self.claim(errata_id, decl, row.span, op.column.text, op.span)
        self.record(prov, errata_id, row.span, op.because)
        values = (*row.values[:col], op.value, *row.values[col + 1 :])
        return _with_row(decl, index, replace(row, values=values))

    def record(self, prov: Provenance, errata_id: str, span: ast.Span, because: ast.Text | None) -> None:
        ids = prov.row_errata.setdefault(span, [])
        if errata_id not in ids:
            ids.append(errata_id)
        self._why(prov, errata_id, because)
        if because is not None and because.text not in prov.row_reasons.setdefault(span, []):
            prov.row_reasons[span].append(because.text)

    def _override_fix(self, errata_id: str, earlier: str) -> fixes.Fix | None:
        """C602's fix: `earlier` added to the `overrides` list of errata `errata_id` (a guess at which
        wins, so unsafe)."""
        decl = self._errata.get(errata_id)
        if decl is None:
            return None
        if decl.overrides:
            return fixes.insert_after(decl.overrides[-1].span, earlier, Applicability.UNSAFE,
                                      f"add `{earlier}` to the `overrides` of errata `{errata_id}`", separator=", ")
        return fixes.insert_in_block(decl.span, f"overrides {earlier}", Applicability.UNSAFE)

    @staticmethod
    def _why(prov: Provenance, errata_id: str, because: ast.Text | None) -> None:
        if because and (errata_id, because.text) not in prov.reasons:
            prov.reasons.append((errata_id, because.text))

    def claim(self, errata_id: str, decl: ast.ChartDecl, span: ast.Span, what: str, op_span: ast.Span) -> None:
        """C602 when an earlier errata changed the same thing and this one does not override it."""
        key = (self._handle(decl), span, what)
        earlier = self._cell_owner.get(key)
        if earlier and earlier[0] != errata_id and earlier[0] not in self._overrides.get(errata_id, set()):
            self.sink.emit(
                codes.ERRATA_CONFLICT,
                f"errata `{errata_id}` and `{earlier[0]}` both change the same "
                f"{'cell' if what not in ('row', 'title', 'range') else what}",
                op_span,
                f"say which wins: add `overrides {earlier[0]}` to errata `{errata_id}`",
                (Label(earlier[1], f"changed by `{earlier[0]}` here"),),
                fix=self._override_fix(errata_id, earlier[0]),
            )
        self._cell_owner[key] = (errata_id, op_span)

    def _find_row(
        self, errata_id: str, decl: ast.ChartDecl, ref: ast.RowRef, op_span: ast.Span, where: str
    ) -> int | None:
        matches = [i for i, r in enumerate(decl.rows) if self._row_matches(decl, r, ref)]
        shown = " ".join([k.text for k in ref.keys] + ([ref.range.text] if ref.range else [])) or "(no keys)"
        if not matches:
            self.sink.emit(
                codes.ERRATA_TARGET_MISSING,
                f"errata `{errata_id}` names row `{shown}` of {where}, which has no such row",
                op_span,
                "name the row by its key values and printed range, e.g. `piston 3-6`",
            )
            return None
        if len(matches) > 1:
            self.sink.emit(
                codes.ERRATA_TARGET_MISSING,
                f"errata `{errata_id}` names row `{shown}` of {where}, which matches {len(matches)} rows",
                op_span,
                "add the printed range to pick one row",
            )
            return None
        return matches[0]

    def _row_matches(self, decl: ast.ChartDecl, row: ast.RowDecl, ref: ast.RowRef) -> bool:
        if ref.range is not None and (row.range is None or row.range.text != ref.range.text):
            return False
        if len(ref.keys) != len(row.keys) and not (ref.range is None and len(ref.keys) <= len(row.keys)):
            return False
        # without a range, the named keys may be the first few of the row's
        for i, (want, have) in enumerate(zip(ref.keys, row.keys, strict=False)):
            if not self._same_key(decl, i, want.text, have.text):
                return False
        return True

    def _same_key(self, decl: ast.ChartDecl, index: int, a: str, b: str) -> bool:
        if a == b:
            return True
        if index >= len(decl.keys):
            return False
        enum = self.game.enums.get(decl.keys[index].type_name.text)
        if enum is None:
            return False
        ma, mb = enum.member(a), enum.member(b)
        return ma is not None and mb is not None and ma.id == mb.id


def _with_row(decl: ast.ChartDecl, index: int, row: ast.RowDecl) -> ast.ChartDecl:
    """`decl` with its row at `index` replaced by `row`."""
    return replace(decl, rows=(*decl.rows[:index], row, *decl.rows[index + 1 :]))


def annotate(amended: model.Chart, printed: model.Chart, prov: Provenance) -> model.Chart:
    """Mark the amended chart's rows with errata ids and printed values; list removed rows."""
    printed_by_span = {r.span: r for r in printed.rows}
    rows = []
    for r in amended.rows:
        ids = tuple(prov.row_errata.get(r.span, ()))
        if not ids:
            rows.append(r)
            continue
        before = printed_by_span.get(prov.printed_span.get(r.span, r.span))
        rows.append(
            replace(
                r,
                errata=ids,
                printed_values=before.values if before is not None else None,
                printed_range=before.range.printed if before is not None and before.range is not None else None,
                added=before is None,
                because=tuple(prov.row_reasons.get(r.span, ())),
            )
        )
    removed = tuple(replace(r, errata=(prov.removed[r.span],)) for r in printed.rows if r.span in prov.removed)
    printed_drms = {d.id: d for d in printed.drms}
    amended_drms = tuple(
        replace(d, errata=tuple(prov.drm_errata[d.id]), printed=printed_drms.get(d.id), added=d.id not in printed_drms,
                because=tuple(prov.drm_reasons.get(d.id, ())))
        if d.id in prov.drm_errata else d
        for d in amended.drms
    )
    removed_drms = tuple(replace(d, errata=(prov.removed_drms[d.id],), because=tuple(prov.drm_reasons.get(d.id, ())))
                         for d in printed.drms if d.id in prov.removed_drms)
    marks = model.ChartErrata(
        applied=tuple(prov.errata),
        printed_title=prov.printed_title,
        printed_partial=prov.completed,
        removed_rows=removed,
        notes=tuple(prov.notes),
        reasons=tuple(prov.reasons),
        removed_drms=removed_drms,
        printed_notes=tuple(prov.printed_notes),
    )
    return replace(amended, rows=tuple(rows), drms=amended_drms, errata=marks)
