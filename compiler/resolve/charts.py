"""Phase 2 for charts: bind and type one chart declaration into a `model.Chart`.

How it is read (kind, dice, value key), its keys and output columns, its DRMs (`conditions`), rows
(`rows`), printed layouts (`layouts`) and derived charts (`derive`). Findings about a chart that
resolved (coverage, limits, dates) are the checks' (`compiler.checks`).
"""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Applicability, Sink, Slot, codes, fixes
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.model.dice import DIGIT_FORMS, Dice, DiceForm
from compiler.resolve import layouts
from compiler.resolve.conditions import ConditionResolver
from compiler.resolve.derive import derived_chart
from compiler.resolve.dice import dice_problem
from compiler.resolve.overlays import chart_overlays
from compiler.resolve.roll_grid import roll_grid_rows
from compiler.resolve.rows import RowReader
from compiler.resolve.shifts import chart_drm_sources, chart_shifts
from compiler.resolve.steps import roll_pipeline
from compiler.resolve.symbols import SymbolTable, chart_name, declared_before
from compiler.resolve.values import ValueTyper, column_type
from compiler.resolve.weights import derive_weighted_rows
from dsl import ast

# Guards on the size of a roll (compiler.model.dice counts any of them in milliseconds; every natural
# result is tabulated with its chance in the JSON and the checks): a chart roll this large is a typo.
_MAX_DICE_COUNT = 30
_MAX_SIDES = 100
_MAX_RESULTS = 1000
_MAX_DEPTH = 10
_MAX_REPEAT = 10


class ChartResolver:
    """Resolves one chart declaration against the game's symbols."""

    def __init__(self, symbols: SymbolTable, decl: ast.ChartDecl, path: str, sink: Sink, typer: ValueTyper) -> None:
        self.symbols = symbols
        self.decl = decl
        self.path = path
        self.sink = sink
        self.where = f"chart `{chart_name(decl)}`"
        self.rows = RowReader(symbols, decl, sink, typer, self.where)
        self.conditions = ConditionResolver(symbols, sink, self.where)
        self.value_key: model.ValueKey | None = None

    def resolve(self) -> model.Chart | None:
        d = self.decl
        for span in d.repeated:
            self.sink.emit(
                codes.REPEATED_STATEMENT,
                f"this statement may appear only once in {self.where}",
                span,
                "delete the repeated line",
                fix=fixes.delete(span, "the repeated statement", Applicability.UNSAFE),
            )
        if d.chart_id is None and d.slug is None:
            self.sink.emit(
                codes.CHART_SHAPE,
                f"chart `{d.title.text}` has neither a printed ID nor a slug",
                d.title.span,
                'write `chart [R4] "Title"` for a printed ID or `chart my_slug "Title"` for an unnumbered chart',
            )
            return None
        if d.derive is not None:
            return derived_chart(self.symbols, d, self.path, self.sink, self.where)
        kind = self._kind()
        if d.roll:
            self.rows.dice = self._dice(d.roll)
        pipeline, steps_ok = roll_pipeline(d, self.rows.dice, self.sink, self.where)
        self.rows.pipeline = pipeline
        if d.value_key:
            self.value_key = self._value_key(d.value_key)
        keys = self._keys()
        columns = self._columns()
        drms, drm_groups = self.conditions.drm_set(d.drms, d.drm_groups, keys)
        footnotes = self._footnotes(drms)
        rows: list[model.Row] = []
        grid = None
        broken = (d.roll is not None and self.rows.dice is None) or len(keys) != len(d.keys) or not steps_ok
        availability = None
        if d.availability:
            availability, keys, avail_rows, avail_broken = layouts.availability(self.rows, d.availability[0], keys)
            broken = broken or avail_broken
            if not columns:
                columns = [model.Column("result", model.BuiltinType.TEXT, "Result", d.availability[0].span)]
            for extra in d.availability[1:]:
                self.sink.emit(
                    codes.REPEATED_STATEMENT,
                    f"{self.where} has more than one availability grid",
                    extra.span,
                    "split it into two charts",
                )
        if kind not in (model.ChartKind.DRMS, model.ChartKind.EXTERNAL):
            decls, weights_read = derive_weighted_rows(d.rows, self.rows.dice, self.sink, self.where)
            rows = [r for r in (self.rows.row(r, keys, columns) for r in decls) if r is not None]
            broken = broken or len(rows) != len(d.rows) or not weights_read
            if availability is not None or d.availability:
                rows.extend(avail_rows if d.availability else [])
            by_roll, complete = roll_grid_rows(self.rows, d.roll_grids, keys, columns)
            rows.extend(by_roll)
            broken = broken or not complete
            if d.grids:
                grid, keys = layouts.grid(self.rows, d.grids[0], keys, columns)
                rows.extend(layouts.grid_rows(grid, keys))
                broken = broken or grid is None or len(grid.rows) != len(d.grids[0].rows)
                for extra_grid in d.grids[1:]:
                    self.sink.emit(
                        codes.REPEATED_STATEMENT,
                        f"{self.where} has more than one grid",
                        extra_grid.span,
                        "split it into two charts",
                    )
            if not columns:
                self.sink.emit(
                    codes.CHART_SHAPE,
                    f"{self.where} declares no output column",
                    d.title.span,
                    'add e.g. `column result: text "Result"`',
                )
            elif not rows and not broken and not d.availability:
                self.sink.emit(
                    codes.CHART_SHAPE,
                    f"{self.where} has no rows",
                    d.title.span,
                    "add a `rows { ... }` block or a `grid`",
                )
                broken = True
        overlays, overlays_whole = chart_overlays(d, self.rows, self.conditions, keys, columns, self.sink, self.where)
        broken = broken or not overlays_whole
        clamp = self._clamp(d.combine)
        self._check_modified_clamp(d.modified_clamp)
        return model.Chart(
            game=self.symbols.id,
            chart_id=d.chart_id.text if d.chart_id else None,
            slug=d.slug.text if d.slug else None,
            title=d.title.text,
            rule=d.rule.text if d.rule else None,
            kind=kind,
            dice=self.rows.dice,
            value_key=self.value_key,
            keys=tuple(keys),
            columns=tuple(columns),
            drms=tuple(drms),
            clamp=clamp,
            footnotes=tuple(footnotes),
            notes=tuple(n.text for n in d.notes),
            partial=d.partial.text if d.partial else None,
            partial_span=d.partial_span if d.partial else None,
            aid_chance=d.aid_chance,
            rows=tuple(rows),
            grid=grid,
            source_file=self.path,
            span=d.span,
            title_span=d.title.span,
            broken=broken,
            availability=availability,
            drm_meaning=d.drm_meaning.text if d.drm_meaning else None,
            drm_groups=tuple(drm_groups),
            pipeline=pipeline,
            context=self._drm_context(drms, tuple(o.when for o in overlays)),
            repeat=self._repeat(d.repeat, kind),
            dice_alternatives=self._dice_alternatives(d),
            high_rolls_favour=d.high_rolls_favour.side if d.high_rolls_favour else None,
            shifts=chart_shifts(d, self.conditions, self.sink, self.where),
            drm_sources=chart_drm_sources(d),
            overlays=overlays,
        )

    def _clamp(self, combine: ast.CombineDecl | None) -> tuple[int, int] | None:
        """The `combine sum clamp LOW to HIGH` bounds on the DRM total, if given and not reversed."""
        if combine is None or combine.clamp_min is None or combine.clamp_max is None:
            return None
        if combine.clamp_min > combine.clamp_max:
            self.sink.emit(
                codes.REVERSED_RANGE,
                f"the DRM clamp runs backwards: {combine.clamp_min:+d} to {combine.clamp_max:+d}",
                combine.span,
            )
            return None
        return combine.clamp_min, combine.clamp_max

    def _check_modified_clamp(self, decl: ast.BoundsDecl | None) -> None:
        """C304 for a `modified clamp LOW to HIGH` that runs backwards (`roll_pipeline` leaves it out)."""
        if decl is not None and decl.low > decl.high:
            self.sink.emit(
                codes.REVERSED_RANGE, f"the modified-roll clamp runs backwards: {decl.low} to {decl.high}", decl.span
            )

    def _drm_context(
        self, drms: list[model.Drm], overlays: tuple[model.Condition, ...] = ()
    ) -> tuple[model.ContextVar, ...]:
        """The context variables the DRMs (and the overlays' conditions) test or count, by id: what
        reachability enumerates."""
        used = {v for d in drms for v in model.condition_vars(d.when)} | {d.per.var for d in drms if d.per}
        used |= {v for c in overlays for v in model.condition_vars(c)}
        used -= set(self.conditions.keys) - set(self.symbols.context)
        return tuple(self.symbols.context[v] for v in sorted(used) if v in self.symbols.context)

    def _kind(self) -> model.ChartKind:
        d = self.decl
        if d.kind in (ast.ChartKind.DRMS, ast.ChartKind.EXTERNAL):
            return model.ChartKind(d.kind)
        if d.roll and d.value_key:
            self.sink.emit(
                codes.CHART_SHAPE,
                f"{self.where} has both a `roll` and a `value` key",
                d.value_key.span,
                "a chart is read either by a die roll or by an integer value, not both",
            )
        if d.roll or d.roll_alternatives:  # only alternatives: C404 from `_dice_alternatives`
            return model.ChartKind.ROLL
        if d.value_key:
            return model.ChartKind.VALUE
        # a chart of rule values (Stuka Leader's "8/10/12 Pilots"): read by nothing, its one row `: ...`
        one_row = len(d.rows) == 1 and not d.rows[0].keys and d.rows[0].range is None
        if not d.keys and not d.grids and not d.availability and not one_row:
            self.sink.emit(
                codes.CHART_SHAPE,
                f"{self.where} has no `roll`, `value` or `key` to be read by"
                + (f", and {len(d.rows)} rows" if len(d.rows) > 1 else ""),
                d.title.span,
                "add `roll 1d6` (or another dice form), `value NAME 0+`, or `key NAME`; a chart of rule values "
                "read by nothing holds one row, `: value, value`",
            )
        return model.ChartKind.REFERENCE

    def _dice(self, decl: ast.DiceDecl) -> Dice | None:
        form = decl.form
        zero = self._zero_reads(decl)
        if form in DIGIT_FORMS:
            return Dice(form, 2, 6 if form is DiceForm.D66 else 10)
        problem = dice_problem(decl, _MAX_DICE_COUNT, _MAX_SIDES, _MAX_RESULTS, _MAX_DEPTH)
        if problem:
            self.sink.emit(codes.INVALID_DICE, f"{self.where} cannot roll {problem}", decl.span)
            return None
        return Dice(
            form,
            decl.count,
            decl.sides,
            keep=decl.keep,
            versus_count=decl.versus_count,
            versus_sides=decl.versus_sides,
            zero=zero,
            depth=decl.depth,
        )

    def _dice_alternatives(self, d: ast.ChartDecl) -> tuple[model.DiceAlternative, ...]:
        """`roll ... when COND` lines: each one's dice and bound condition (C404 without a plain `roll`
        to fall back on)."""
        if d.roll_alternatives and d.roll is None:
            self.sink.emit(
                codes.CHART_SHAPE,
                f"{self.where} rolls only `when` a condition holds and says nothing of the other case",
                d.roll_alternatives[0].span,
                "add the plain `roll` used otherwise, e.g. `roll 1d10`",
            )
            return ()
        out = []
        for alt in d.roll_alternatives:
            dice = self._dice(alt.dice)
            when = self.conditions.condition(alt.when)
            if dice is not None and when is not None:
                out.append(model.DiceAlternative(dice, when, alt.span))
        return tuple(out)

    def _zero_reads(self, dice: ast.DiceDecl) -> int:
        """How the chart reads a d10's 0 face (C341 for a statement that cannot apply): 10 unless stated."""
        stated = self.decl.zero_reads
        if stated is None:
            return 10
        has_d10 = dice.form not in DIGIT_FORMS and 10 in (dice.sides, dice.versus_sides)
        if stated.value in (0, 10) and has_d10:
            return stated.value
        problem = (
            f"`zero reads {stated.value}`: a d10's 0 face reads as 0 or as 10"
            if has_d10
            else f"{self.where} rolls {dice.text}, which has no d10 face to read"
        )
        # on dice without a d10 the statement reads nothing; deleting it is a guess (the dice may be wrong)
        fix = None if has_d10 else fixes.delete(stated.span, f"`zero reads {stated.value}`", Applicability.UNSAFE)
        self.sink.emit(
            codes.INVALID_ZERO_READS, problem, stated.span, "write `zero reads 0` or `zero reads 10`", fix=fix
        )
        return 10

    def _repeat(self, decl: ast.Number | None, kind: model.ChartKind) -> int:
        """How many times the roll is made (1 unless `repeat N`); C342 for a repeat that cannot apply."""
        if decl is None:
            return 1
        if kind is model.ChartKind.ROLL and 2 <= decl.value <= _MAX_REPEAT:
            return decl.value
        problem = (
            f"`repeat {decl.value}`: a roll is repeated 2 to {_MAX_REPEAT} times"
            if kind is model.ChartKind.ROLL
            else f"{self.where} is not read by dice, so it has no roll to repeat"
        )
        self.sink.emit(codes.INVALID_REPEAT, problem, decl.span, "write e.g. `repeat 3` on a chart with a `roll`")
        return 1

    def _value_key(self, decl: ast.ValueKeyDecl) -> model.ValueKey | None:
        domain = self.rows.read_range(decl.domain, Dice(DiceForm.SUM, 1, 6), plain=True)
        if domain is None:
            return None
        label = decl.label.text if decl.label else decl.name.text
        within = decl.within.text if decl.within else None
        return model.ValueKey(decl.name.text, label, domain, within, decl.within.span if decl.within else None)

    def _keys(self) -> list[model.Key]:
        keys: list[model.Key] = []
        for k in self.decl.keys:
            if declared_before(self.sink, keys, "key", k.name, f"in {self.where}"):
                continue
            enum = self.rows.enum(k.type_name, "key type")
            if enum is not None:
                keys.append(model.Key(k.name.text, enum, k.span))
        return keys

    def _columns(self) -> list[model.Column]:
        columns: list[model.Column] = []
        for c in self.decl.columns:
            if declared_before(self.sink, columns, "column", c.name, f"in {self.where}"):
                continue
            type_name = c.type_name.text
            col_type = column_type(type_name, model.COLUMN_TYPES, self.symbols.enums)
            if col_type is None:
                unknown_name(
                    self.sink,
                    f"unknown column type `{type_name}` in {self.where}",
                    type_name,
                    c.type_name.span,
                    [*model.COLUMN_TYPES, *self.symbols.enums],
                    slot=Slot.NAME,
                )
                continue
            label = c.label.text if c.label else c.name.text.replace("_", " ").capitalize()
            within = c.within
            if within is not None and col_type is not model.BuiltinType.INT:
                self.sink.emit(
                    codes.TYPE_MISMATCH,
                    f"column `{c.name.text}` of {self.where} holds `{col_type}` values; only an `int` column counts "
                    f"within limit `{within.text}`",
                    within.span,
                    "delete `within ...`, or make the column `int`",
                )
                within = None
            named, named_span = (within.text, within.span) if within else (None, None)
            columns.append(model.Column(c.name.text, col_type, label, c.span, named, named_span))
        return columns

    def _footnotes(self, drms: list[model.Drm]) -> list[model.Footnote]:
        notes: dict[int, model.Footnote] = {}
        for f in self.decl.footnotes:
            if f.mark in notes:
                declared_twice(self.sink, f"footnote {f.mark}", f.span, notes[f.mark].span, where=f"in {self.where}")
                continue
            notes[f.mark] = model.Footnote(f.mark, f.text.text, f.span)
        for d in drms:
            if d.footnote is not None and d.footnote not in notes:
                unknown_name(
                    self.sink,
                    f"DRM `{d.id}` cites footnote {d.footnote}, which {self.where} does not declare",
                    str(d.footnote),
                    d.span,
                    [str(m) for m in notes],
                )
        return [notes[m] for m in sorted(notes)]
