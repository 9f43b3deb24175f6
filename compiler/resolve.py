"""Resolve one game's syntax trees into the chart model: bind names, read ranges, type values.

`resolve_game(game_id, files, sink)` returns a `model.Game` and reports unknown names (with a
did-you-mean), duplicates, malformed ranges and type errors to the sink. It never raises for
bad input; a construct that cannot be resolved is dropped after its diagnostic so later passes
see a consistent model.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from compiler import model
from compiler.diagnostics import CODES, Label, Sink, suppressible
from compiler.dice import Dice
from dsl import ast

_BUILTIN_COLUMN_TYPES = ("text", "int")
_BUILTIN_CONTEXT_TYPES = ("flag", "int", "month")
_RANGE_RE = re.compile(r"^(\d+)(?:(-)(\d+)?|(\+))?$")
_MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
# Guards that keep exact enumeration small (see compiler.dice): a chart roll this large is a typo.
_MAX_DICE_COUNT = 10
_MAX_SIDES = 100
_MAX_LOWER_OUTCOMES = 10**5
# Guards that keep checking and odds tables bounded per chart, so time grows linearly with the
# number of charts (C408). The largest printed charts known have ~100 rows and ~50 key values.
MAX_ROWS = 1000
MAX_KEY_COMBINATIONS = 256
MAX_DRMS = 64
MAX_DRM_SPAN = 64


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A help line suggesting the closest known name, or listing the few that exist."""
    pool = sorted(set(candidates))
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not close:
        folded = {c.casefold(): c for c in pool}
        close = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.6)
        close = [folded[c] for c in close]
    if close:
        return f"did you mean `{close[0]}`?"
    if pool and len(pool) <= 8:
        return "known: " + ", ".join(f"`{c}`" for c in pool)
    return None


def resolve_game(
    game_id: str, files: list[ast.SourceFile], sink: Sink, folder_span: ast.Span, complete: bool = True
) -> model.Game:
    """Resolve every declaration of one game folder.

    Args:
        game_id: the folder name under `charts/` (the game's id in outputs and addresses).
        files: the parsed files of that folder, in path order.
        sink: receives every diagnostic.
        folder_span: where to point a missing-header diagnostic (the folder's first file).
        complete: False when some file of the folder could not be read or parsed; then a missing
            header is not reported (it may be in that file) and unknown names are still reported.

    Returns:
        The game model; charts with errors are still included as far as they resolved.
    """
    header = _game_header(game_id, files, sink, folder_span, complete)
    periods = _periods(header, sink)
    game = model.Game(
        id=game_id,
        title=header.title.text if header and header.title else game_id,
        source=header.source.text if header and header.source else None,
        calendar=_calendar(header, sink),
        periods=periods,
        enums={},
        context={},
        span=header.span if header else folder_span,
    )
    if periods:
        first = periods[0].span
        game.enums["period"] = model.EnumType(
            "period", "Period", tuple(model.Member(p.id, p.label, p.span) for p in periods), first
        )
    for f in files:
        for e in f.enums:
            _add_enum(game, e, sink)
    for f in files:
        for c in f.contexts:
            _add_context(game, c, sink)
    seen: dict[str, ast.Span] = {}
    for f in files:
        for decl in f.charts:
            game.suppressions.extend(_suppressions(decl, sink))
            chart = _ChartResolver(game, decl, f.path, sink).resolve()
            if chart is None:
                continue
            for handle in {h.casefold(): h for h in filter(None, (chart.chart_id, chart.slug))}.values():
                if handle.casefold() in seen:
                    sink.emit(
                        "C202",
                        f"chart `{handle}` is declared twice in game `{game_id}`",
                        decl.span,
                        "give each chart its own printed ID or slug",
                        (Label(seen[handle.casefold()], "first declared here"),),
                    )
                else:
                    seen[handle.casefold()] = decl.span
            game.charts.append(chart)
    return game


def _suppressions(decl: ast.ChartDecl, sink: Sink) -> list[model.Suppression]:
    """The chart's valid `allow` statements; unknown or unsilenceable codes are reported (C502)."""
    chart = (decl.chart_id or decl.slug or decl.title).text
    found = []
    for allow in decl.allows:
        code = allow.code.text
        if code not in CODES:
            hint = did_you_mean(code, [c for c in CODES if suppressible(c)])
            sink.emit("C502", f"`allow {code}` names no diagnostic code", allow.code.span, hint or "see `chartc explain`")
        elif not suppressible(code):
            why = "errors" if CODES[code].severity.value == "error" else "suppression codes"
            sink.emit("C502", f"`{code}` cannot be silenced: {why} are always reported", allow.code.span,
                      "fix the chart, or declare it `partial` if rows are missing")
        else:
            found.append(model.Suppression(code, allow.reason.text, chart, allow.span, decl.span))
    return found


# ---- game header, calendar, periods ------------------------------------------------------------


def _game_header(
    game_id: str, files: list[ast.SourceFile], sink: Sink, folder_span: ast.Span, complete: bool
) -> ast.GameDecl | None:
    headers = [g for f in files for g in f.game]
    if not headers and not complete:
        return None
    if not headers:
        sink.emit(
            "C203",
            f"game folder `{game_id}` has no `game` header",
            folder_span,
            f'add `game {game_id} {{ title "..." }}` to one file of the folder',
        )
        return None
    for extra in headers[1:]:
        sink.emit(
            "C203",
            f"game `{game_id}` has more than one `game` header",
            extra.span,
            "keep one header per game folder",
            (Label(headers[0].span, "first header here"),),
        )
    header = headers[0]
    if header.name.text != game_id:
        sink.emit(
            "C203",
            f"game header says `{header.name.text}` but the folder is `{game_id}`",
            header.name.span,
            f"rename the folder or write `game {game_id}`",
        )
    return header


def parse_month(text: str) -> tuple[int, int] | None:
    """`YYYY-MM` as (year, month), or None when it is not a real month."""
    m = _MONTH_RE.match(text)
    if not m or not 1 <= int(m.group(2)) <= 12:
        return None
    return int(m.group(1)), int(m.group(2))


def _checked_month(month: ast.MonthText, sink: Sink) -> str | None:
    if parse_month(month.text) is None:
        sink.emit("C406", f"`{month.text}` is not a month", month.span, "write months as `YYYY-MM` with MM from 01 to 12")
        return None
    return month.text


def _calendar(header: ast.GameDecl | None, sink: Sink) -> tuple[str, str] | None:
    if header is None or header.calendar is None:
        return None
    first, last = (_checked_month(m, sink) for m in header.calendar)
    if first is None or last is None:
        return None
    if first > last:
        sink.emit("C406", f"the calendar runs backwards: {first} to {last}", header.calendar[0].span)
        return None
    return first, last


def _periods(header: ast.GameDecl | None, sink: Sink) -> tuple[model.Period, ...]:
    if header is None:
        return ()
    out: list[model.Period] = []
    seen: dict[str, ast.Span] = {}
    for p in header.periods:
        if p.name.text in seen:
            sink.emit("C202", f"period `{p.name.text}` is declared twice", p.name.span, labels=(Label(seen[p.name.text], "first declared here"),))
            continue
        seen[p.name.text] = p.name.span
        first, last = _checked_month(p.first, sink), _checked_month(p.last, sink)
        if first is None or last is None:
            continue
        if first > last:
            sink.emit("C406", f"period `{p.name.text}` runs backwards: {first} to {last}", p.first.span)
            continue
        out.append(model.Period(p.name.text, p.label.text, first, last, p.span))
    return tuple(out)


# ---- enums and context -------------------------------------------------------------------------


def _add_enum(game: model.Game, decl: ast.EnumDecl, sink: Sink) -> None:
    if decl.name.text in game.enums:
        sink.emit(
            "C202",
            f"enum `{decl.name.text}` is declared twice",
            decl.name.span,
            labels=(Label(game.enums[decl.name.text].span, "first declared here"),),
        )
        return
    members: list[model.Member] = []
    seen: dict[str, ast.Span] = {}
    for m in decl.members:
        if m.name.text in seen:
            sink.emit(
                "C202",
                f"`{m.name.text}` appears twice in enum `{decl.name.text}`",
                m.name.span,
                labels=(Label(seen[m.name.text], "first here"),),
            )
            continue
        seen[m.name.text] = m.name.span
        members.append(model.Member(m.name.text, m.label.text if m.label else m.name.text, m.span))
    label = decl.label.text if decl.label else decl.name.text
    game.enums[decl.name.text] = model.EnumType(decl.name.text, label, tuple(members), decl.name.span)


def _add_context(game: model.Game, decl: ast.ContextDecl, sink: Sink) -> None:
    name = decl.name.text
    if name in game.context:
        sink.emit(
            "C202",
            f"context variable `{name}` is declared twice",
            decl.name.span,
            labels=(Label(game.context[name].span, "first declared here"),),
        )
        return
    type_name = decl.type_name.text
    enum = None
    if type_name not in _BUILTIN_CONTEXT_TYPES:
        if type_name not in game.enums:
            sink.emit(
                "C201",
                f"unknown type `{type_name}` for context variable `{name}`",
                decl.type_name.span,
                did_you_mean(type_name, [*_BUILTIN_CONTEXT_TYPES, *game.enums]),
            )
            return
        enum = type_name
        type_name = "enum"
    label = decl.label.text if decl.label else name
    game.context[name] = model.ContextVar(name, type_name, enum, label, decl.name.span)


# ---- charts ------------------------------------------------------------------------------------


class _ChartResolver:
    def __init__(self, game: model.Game, decl: ast.ChartDecl, path: str, sink: Sink) -> None:
        self.game = game
        self.decl = decl
        self.path = path
        self.sink = sink
        self.dice: Dice | None = None
        self.value_key: model.ValueKey | None = None

    @property
    def where(self) -> str:
        d = self.decl
        return f"chart `{(d.chart_id or d.slug or d.title).text}`"

    def resolve(self) -> model.Chart | None:
        d = self.decl
        for span in d.repeated:
            self.sink.emit("C103", f"this statement may appear only once in {self.where}", span, "delete the repeated line")
        if d.chart_id is None and d.slug is None:
            self.sink.emit(
                "C404",
                f"chart `{d.title.text}` has neither a printed ID nor a slug",
                d.title.span,
                'write `chart [R4] "Title"` for a printed ID or `chart my_slug "Title"` for an unnumbered chart',
            )
            return None
        kind = self._kind()
        if d.roll:
            self.dice = self._dice(d.roll)
        if d.value_key:
            self.value_key = self._value_key(d.value_key)
        keys = self._keys()
        columns = self._columns()
        drms = self._drms()
        footnotes = self._footnotes(drms)
        rows: list[model.Row] = []
        grid = None
        broken = (d.roll is not None and self.dice is None) or len(keys) != len(d.keys)
        if kind != "drms":
            rows = [r for r in (self._row(r, keys, columns) for r in d.rows) if r is not None]
            broken = broken or len(rows) != len(d.rows)
            if d.grids:
                grid, keys = self._grid(d.grids[0], keys, columns)
                rows.extend(_grid_rows(grid, keys))
                broken = broken or grid is None or len(grid.rows) != len(d.grids[0].rows)
                for extra in d.grids[1:]:
                    self.sink.emit("C103", f"{self.where} has more than one grid", extra.span, "split it into two charts")
            if not columns:
                self.sink.emit("C404", f"{self.where} declares no output column", d.title.span, 'add e.g. `column result: text "Result"`')
            elif not rows and not broken:
                self.sink.emit("C404", f"{self.where} has no rows", d.title.span, "add a `rows { ... }` block or a `grid`")
        clamp = (d.combine.clamp_min, d.combine.clamp_max) if d.combine and d.combine.clamp_min is not None else None
        if clamp and clamp[0] > clamp[1]:
            self.sink.emit("C304", f"the DRM clamp runs backwards: {clamp[0]:+d} to {clamp[1]:+d}", d.combine.span)
            clamp = None
        broken = not self._within_limits(keys, rows, drms, clamp) or broken
        return model.Chart(
            game=self.game.id,
            chart_id=d.chart_id.text if d.chart_id else None,
            slug=d.slug.text if d.slug else None,
            title=d.title.text,
            rule=d.rule.text if d.rule else None,
            kind=kind,
            dice=self.dice,
            value_key=self.value_key,
            keys=tuple(keys),
            columns=tuple(columns),
            drms=tuple(drms),
            clamp=clamp,
            footnotes=tuple(footnotes),
            notes=tuple(n.text for n in d.notes),
            partial=d.partial.text if d.partial else None,
            rows=tuple(rows),
            grid=grid,
            source_file=self.path,
            span=d.span,
            broken=broken,
        )

    def _within_limits(self, keys: list[model.Key], rows: list[model.Row], drms: list[model.Drm], clamp: tuple[int, int] | None) -> bool:
        """Report (C408) a chart too large to check and tabulate exactly; True when it is not."""
        combos = 1
        for k in keys:
            combos *= max(1, len(k.enum.members))
        low = sum(x.value for x in drms if x.value < 0)
        high = sum(x.value for x in drms if x.value > 0)
        if clamp:
            low, high = max(clamp[0], min(clamp[1], low)), max(clamp[0], min(clamp[1], high))
        problems = [
            (len(rows) > MAX_ROWS, f"{len(rows)} rows (at most {MAX_ROWS})"),
            (combos > MAX_KEY_COMBINATIONS, f"{combos} key combinations (at most {MAX_KEY_COMBINATIONS})"),
            (len(drms) > MAX_DRMS, f"{len(drms)} DRMs (at most {MAX_DRMS})"),
            (high - low > MAX_DRM_SPAN, f"DRMs spanning {low:+d} to {high:+d} (at most {MAX_DRM_SPAN} apart)"),
        ]
        found = [text for bad, text in problems if bad]
        for text in found:
            self.sink.emit("C408", f"{self.where} is too large to check: {text}", self.decl.title.span,
                           "split the chart, or check the numbers for a typo")
        return not found

    def _kind(self) -> str:
        d = self.decl
        if d.kind == "drms":
            return "drms"
        if d.roll and d.value_key:
            self.sink.emit(
                "C404",
                f"{self.where} has both a `roll` and a `value` key",
                d.value_key.span,
                "a chart is read either by a die roll or by an integer value, not both",
            )
        if d.roll:
            return "roll"
        if d.value_key:
            return "value"
        if not d.keys and not d.grids:
            self.sink.emit(
                "C404",
                f"{self.where} has no `roll`, `value` or `key` to be read by",
                d.title.span,
                "add `roll 1d6` (or another dice form), `value NAME 0+`, or `key NAME`",
            )
        return "reference"

    def _dice(self, decl: ast.DiceDecl) -> Dice | None:
        if decl.form in ("d66", "percentile"):
            return Dice(decl.form, 2, 6 if decl.form == "d66" else 10)
        problem = None
        if decl.count < 1 or decl.count > _MAX_DICE_COUNT:
            problem = f"{decl.count} dice (1 to {_MAX_DICE_COUNT} are supported)"
        elif decl.sides < 2 or decl.sides > _MAX_SIDES:
            problem = f"dice with {decl.sides} face{'s' if decl.sides != 1 else ''} (2 to {_MAX_SIDES} are supported)"
        elif decl.form == "lower" and (decl.count < 2 or decl.sides**decl.count > _MAX_LOWER_OUTCOMES):
            problem = f"the lower of {decl.count}d{decl.sides} (2 or more dice, at most {_MAX_LOWER_OUTCOMES} outcomes)"
        if problem:
            self.sink.emit("C405", f"{self.where} cannot roll {problem}", decl.span)
            return None
        return Dice(decl.form, decl.count, decl.sides, decl.subtract, decl.floor)

    def _value_key(self, decl: ast.ValueKeyDecl) -> model.ValueKey | None:
        domain = self.read_range(decl.domain, Dice("sum", 1, 6), plain=True)
        if domain is None:
            return None
        label = decl.label.text if decl.label else decl.name.text
        return model.ValueKey(decl.name.text, label, domain)

    def _enum(self, name: ast.Name, what: str) -> model.EnumType | None:
        enum = self.game.enums.get(name.text)
        if enum is None:
            extra = "" if self.game.periods or name.text != "period" else " (the game header declares no periods)"
            self.sink.emit("C201", f"unknown {what} `{name.text}` in {self.where}{extra}", name.span, did_you_mean(name.text, self.game.enums))
        return enum

    def _keys(self) -> list[model.Key]:
        keys: list[model.Key] = []
        for k in self.decl.keys:
            if any(existing.id == k.name.text for existing in keys):
                self.sink.emit("C202", f"key `{k.name.text}` is declared twice in {self.where}", k.name.span)
                continue
            enum = self._enum(k.type_name, "key type")
            if enum is not None:
                keys.append(model.Key(k.name.text, enum, k.span))
        return keys

    def _columns(self) -> list[model.Column]:
        columns: list[model.Column] = []
        for c in self.decl.columns:
            if any(existing.id == c.name.text for existing in columns):
                self.sink.emit("C202", f"column `{c.name.text}` is declared twice in {self.where}", c.name.span)
                continue
            type_name = c.type_name.text
            if type_name not in _BUILTIN_COLUMN_TYPES and type_name not in self.game.enums:
                self.sink.emit(
                    "C201",
                    f"unknown column type `{type_name}` in {self.where}",
                    c.type_name.span,
                    did_you_mean(type_name, [*_BUILTIN_COLUMN_TYPES, *self.game.enums]),
                )
                continue
            label = c.label.text if c.label else c.name.text.replace("_", " ").capitalize()
            columns.append(model.Column(c.name.text, type_name, label, c.span))
        return columns

    # -- DRMs and conditions

    def _drms(self) -> list[model.Drm]:
        drms: list[model.Drm] = []
        for decl in self.decl.drms:
            if any(d.id == decl.name.text for d in drms):
                self.sink.emit("C202", f"DRM `{decl.name.text}` is declared twice in {self.where}", decl.name.span)
                continue
            when = self._cond(decl.when) if decl.when else None
            if decl.when is not None and when is None:
                continue
            label = decl.label.text if decl.label else decl.name.text.replace("_", " ")
            drms.append(model.Drm(decl.name.text, label, decl.value, when, decl.footnote, decl.span))
        return drms

    def _var(self, name: ast.Name) -> model.ContextVar | None:
        var = self.game.context.get(name.text)
        if var is None:
            self.sink.emit(
                "C201",
                f"unknown context variable `{name.text}` in {self.where}",
                name.span,
                did_you_mean(name.text, self.game.context) or f"declare it: `context {name.text}: flag`",
            )
        return var

    def _cond(self, cond: ast.Cond) -> model.Condition | None:
        if isinstance(cond, ast.CondFlag):
            var = self._var(cond.var)
            if var is None:
                return None
            if var.type != "flag":
                self.sink.emit(
                    "C407",
                    f"`{var.id}` is {_kind_phrase(var)}, not a flag",
                    cond.span,
                    f"compare it, e.g. `{var.id} == ...`",
                )
                return None
            return model.Flag(var.id, cond.span)
        if isinstance(cond, ast.CondCompare):
            var = self._var(cond.var)
            value = self._operand(var, cond.operand) if var else None
            if var is None or value is None:
                return None
            if var.type in ("enum", "flag") and cond.op not in ("==", "!="):
                self.sink.emit("C407", f"`{cond.op}` does not apply to `{var.id}`; use `==` or `!=`", cond.span)
                return None
            return model.Compare(var.id, cond.op, value, cond.span)
        if isinstance(cond, ast.CondIn):
            var = self._var(cond.var)
            if var is None:
                return None
            values = [self._operand(var, o) for o in cond.operands]
            if any(v is None for v in values):
                return None
            return model.In(var.id, tuple(v for v in values if v is not None), cond.span)
        if isinstance(cond, ast.CondNot):
            inner = self._cond(cond.inner)
            return model.Not(inner, cond.span) if inner else None
        parts = [self._cond(p) for p in cond.parts]
        if any(p is None for p in parts):
            return None
        kept = tuple(p for p in parts if p is not None)
        return model.All(kept, cond.span) if isinstance(cond, ast.CondAll) else model.Any_(kept, cond.span)

    def _operand(self, var: model.ContextVar, op: ast.Operand) -> int | str | None:
        if var.type == "int" and op.kind == "int":
            return int(op.text)
        if var.type == "month" and op.kind == "month":
            if parse_month(op.text) is None:
                self.sink.emit("C406", f"`{op.text}` is not a month", op.span)
                return None
            return op.text
        if var.type == "enum" and op.kind in ("name", "text"):
            enum = self.game.enums[var.enum or ""]
            member = enum.member(op.text)
            if member is None:
                self.sink.emit(
                    "C201",
                    f"`{op.text}` is not a value of `{enum.id}`",
                    op.span,
                    did_you_mean(op.text, [m.id for m in enum.members]),
                )
                return None
            return member.id
        kinds = {"int": "a whole number", "month": "a month like `1944-12`", "enum": "one of its values", "flag": "nothing"}
        self.sink.emit(
            "C407",
            f"`{var.id}` is {_kind_phrase(var)} and cannot be compared with `{op.text}`",
            op.span,
            f"compare it with {kinds[var.type]}",
        )
        return None

    def _footnotes(self, drms: list[model.Drm]) -> list[model.Footnote]:
        notes: dict[int, model.Footnote] = {}
        for f in self.decl.footnotes:
            if f.mark in notes:
                self.sink.emit("C202", f"footnote {f.mark} is declared twice in {self.where}", f.span)
                continue
            notes[f.mark] = model.Footnote(f.mark, f.text.text, f.span)
        for d in drms:
            if d.footnote is not None and d.footnote not in notes:
                self.sink.emit(
                    "C201",
                    f"DRM `{d.id}` cites footnote {d.footnote}, which {self.where} does not declare",
                    d.span,
                    did_you_mean(str(d.footnote), [str(m) for m in notes]),
                )
        return [notes[m] for m in sorted(notes)]

    # -- ranges, rows, values

    def read_range(self, text: ast.RangeText, dice: Dice | None, plain: bool = False) -> model.DieRange | None:
        """Read `3-6`, `12+`, `3-`, `01-08`, `9-0` or `5` with the chart's dice conventions."""
        m = _RANGE_RE.match(text.text)
        if not m:  # pragma: no cover - the grammar's RANGE terminal only admits these forms
            self.sink.emit("C307", f"cannot read range `{text.text}`", text.span)
            return None
        low_text, dash, high_text, plus = m.groups()
        reader = (lambda s: int(s)) if plain or dice is None else dice.read_number
        low = reader(low_text)
        high = reader(high_text) if high_text else None
        bad = low_text if low is None else (high_text if high_text and high is None else None)
        if bad is not None:
            self.sink.emit(
                "C307",
                f"`{bad}` in `{text.text}` is not a result of {dice.text if dice else 'this chart'}",
                text.span,
                "`0` reads as 10 only on 1d10, `00` as 100 only on a percentile roll; zero-padded numbers only on percentile rolls",
            )
            return None
        if plus:
            return model.DieRange(low, None, text.text, text.span)
        if dash and not high_text:
            return model.DieRange(None, low, text.text, text.span)
        if high_text:
            if low is not None and high is not None and low > high:
                self.sink.emit(
                    "C304",
                    f"range `{text.text}` runs backwards ({low} to {high}) in {self.where}",
                    text.span,
                    f"write `{high}-{low}`" if not plain else None,
                )
                return None
            return model.DieRange(low, high, text.text, text.span)
        return model.DieRange(low, low, text.text, text.span)

    def _row_range(self, text: ast.RangeText | None, row_span: ast.Span) -> tuple[bool, model.DieRange | None]:
        kind = self._kind_cached
        if kind == "reference":
            if text is not None:
                self.sink.emit(
                    "C403",
                    f"{self.where} is read by its keys only, so its rows take no range",
                    text.span,
                    "add a `roll` or `value` statement, or delete the range",
                )
                return False, None
            return True, None
        if text is None:
            self.sink.emit("C403", f"this row of {self.where} has no range", row_span, "write the roll or value range before `:`, e.g. `3-6:`")
            return False, None
        if kind == "roll" and self.dice is None:
            return False, None
        rng = self.read_range(text, self.dice, plain=kind == "value")
        return rng is not None, rng

    @property
    def _kind_cached(self) -> str:
        d = self.decl
        return "roll" if d.roll else "value" if d.value_key else "reference"

    def _key_member(self, key: model.Key, kv: ast.KeyValueText) -> tuple[bool, str | None]:
        if kv.kind == "any":
            return True, None
        member = key.enum.member(kv.text)
        if member is None:
            self.sink.emit(
                "C201",
                f"`{kv.text}` is not a value of key `{key.id}` in {self.where}",
                kv.span,
                did_you_mean(kv.text, [m.id for m in key.enum.members] + [m.label for m in key.enum.members]),
            )
            return False, None
        return True, member.id

    def _values(self, values: tuple[ast.ValueText, ...], columns: list[model.Column], span: ast.Span) -> tuple[model.Value, ...] | None:
        if len(values) != len(columns):
            self.sink.emit(
                "C403",
                f"this row gives {len(values)} value{'s' if len(values) != 1 else ''} but {self.where} has {len(columns)} column{'s' if len(columns) != 1 else ''}",
                span,
                "columns: " + ", ".join(f"`{c.id}`" for c in columns) if columns else None,
            )
            return None
        out: list[model.Value] = []
        ok = True
        for v, c in zip(values, columns):
            typed = self._typed_value(v, c)
            ok = ok and typed is not _BAD
            out.append(None if typed is _BAD else typed)  # type: ignore[arg-type]
        return tuple(out) if ok else None

    def _typed_value(self, v: ast.ValueText, c: model.Column) -> object:
        if v.kind == "none":
            return None
        if c.type == "text":
            if v.kind == "text":
                return v.text
            hint = f'quote it: `"{v.text}"`'
        elif c.type == "int":
            if v.kind == "int":
                return int(v.text)
            hint = "write a whole number, or `-` for no value"
        else:
            enum = self.game.enums[c.type]
            member = enum.member(v.text) if v.kind in ("name", "text") else None
            if member is not None:
                return member.id
            if v.kind in ("name", "text"):
                self.sink.emit(
                    "C201",
                    f"`{v.text}` is not a value of `{enum.id}` (column `{c.id}`)",
                    v.span,
                    did_you_mean(v.text, [m.id for m in enum.members]),
                )
                return _BAD
            hint = f"write one of the values of `{enum.id}`"
        self.sink.emit("C402", f"column `{c.id}` holds `{c.type}` values, found `{v.text}`", v.span, hint)
        return _BAD

    def _row(self, decl: ast.RowDecl, keys: list[model.Key], columns: list[model.Column]) -> model.Row | None:
        if len(decl.keys) != len(self.decl.keys):
            expected = ", ".join(k.name.text for k in self.decl.keys) or "no keys"
            self.sink.emit(
                "C403",
                f"this row gives {len(decl.keys)} key value{'s' if len(decl.keys) != 1 else ''} but {self.where} is keyed by {expected}",
                decl.keys[0].span if decl.keys else decl.span,
                "give one value per key, in the order of the `key` lines (`*` for any)",
            )
            return None
        if len(keys) != len(self.decl.keys):  # a key failed to resolve; already reported
            return None
        members: list[str | None] = []
        ok = True
        for key, kv in zip(keys, decl.keys):
            good, member = self._key_member(key, kv)
            ok = ok and good
            members.append(member)
        good_range, rng = self._row_range(decl.range, decl.span)
        values = self._values(decl.values, columns, decl.span)
        if not (ok and good_range) or values is None:
            return None
        return model.Row(tuple(members), rng, values, decl.span)

    def _grid(self, decl: ast.GridDecl, keys: list[model.Key], columns: list[model.Column]) -> tuple[model.GridLayout | None, list[model.Key]]:
        key = next((k for k in keys if k.id == decl.key.text), None)
        if key is None:
            if self.decl.keys:
                self.sink.emit(
                    "C201",
                    f"grid key `{decl.key.text}` is not a key of {self.where}",
                    decl.key.span,
                    did_you_mean(decl.key.text, [k.id for k in keys]),
                )
                return None, keys
            enum = self._enum(decl.key, "grid key")
            if enum is None:
                return None, keys
            key = model.Key(decl.key.text, enum, decl.key.span)
            keys = [*keys, key]
        if len(keys) != 1:
            self.sink.emit("C404", f"a grid reads one key, but {self.where} has {len(keys)}", decl.span, "use the row form for charts with several keys")
            return None, keys
        col_ids: list[str] = []
        for kv in decl.columns:
            good, member = self._key_member(key, kv)
            if good and member is None:
                self.sink.emit("C403", "`*` cannot head a grid column", kv.span, "name the key value of this column")
                return None, keys
            if not good:
                return None, keys
            col_ids.append(member or "")
        grid_rows: list[model.GridRow] = []
        for gr in decl.rows:
            if len(gr.cells) != len(col_ids):
                self.sink.emit(
                    "C401",
                    f"this grid row has {len(gr.cells)} cell{'s' if len(gr.cells) != 1 else ''} but the grid has {len(col_ids)} column{'s' if len(col_ids) != 1 else ''}",
                    gr.span,
                    "one cell per column, separated by `|`; `-` where the result cannot occur",
                    (Label(decl.span, "grid declared here"),),
                )
                continue
            values = self._values(gr.values, columns, gr.span)
            cells = []
            for cell in gr.cells:
                if cell.range is None:
                    cells.append(None)
                    continue
                ok, rng = self._row_range(cell.range, cell.span)
                cells.append(rng if ok else None)
            if values is not None:
                grid_rows.append(model.GridRow(values, tuple(cells), gr.span))
        return model.GridLayout(key.id, tuple(col_ids), tuple(grid_rows)), keys


_BAD = object()


def _kind_phrase(var: model.ContextVar) -> str:
    return {"int": "an int variable", "month": "a month variable", "flag": "a flag"}.get(var.type, f"a `{var.enum}` variable")


def _grid_rows(grid: model.GridLayout | None, keys: list[model.Key]) -> list[model.Row]:
    """Expand a grid into rows: one per non-empty cell, keyed by the cell's column."""
    if grid is None:
        return []
    rows = []
    for gr in grid.rows:
        for member, cell in zip(grid.columns, gr.cells):
            if cell is not None:
                rows.append(model.Row((member,), cell, gr.values, cell.span))
    return rows
