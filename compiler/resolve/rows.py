"""Reading one chart's rows: ranges with the chart's dice conventions, key values bound to the
keys' enums (or month spans), and cells typed against the output columns."""

from __future__ import annotations

import re

from compiler import model
from compiler.diagnostics import Applicability, Sink, Slot, codes, fixes
from compiler.diagnostics.messages import not_a_value_of
from compiler.engine.chances import rolls_through
from compiler.model.dice import Dice
from compiler.resolve.symbols import SymbolTable, unknown
from compiler.resolve.turns import turn_span
from compiler.resolve.values import Bad, ValueTyper, check_month
from dsl import ast

_RANGE_RE = re.compile(r"^(-?\d+)(?:(-)(-?\d+)?|(\+))?$")


class RowReader:
    """Reads the rows of one chart declaration; `dice` and `pipeline` are set once the chart's roll
    is read."""

    def __init__(self, symbols: SymbolTable, decl: ast.ChartDecl, sink: Sink, typer: ValueTyper, where: str) -> None:
        self.symbols = symbols
        self.decl = decl
        self.sink = sink
        self.typer = typer
        self.where = where
        self.dice: Dice | None = None
        self.pipeline: tuple[model.RollStep, ...] = ()  # set with `dice`: the roll's arithmetic

    def table_bounds(self) -> tuple[int, int]:
        """The lowest and highest roll the table is printed for: the dice's natural rolls through the
        chart's arithmetic (`compiler.engine.chances.rolls_through`). Only once `dice` is set."""
        assert self.dice is not None
        rolls = rolls_through(list(self.dice.outcomes), self.pipeline)
        return rolls[0], rolls[-1]

    def enum(self, name: ast.Name, what: str) -> model.EnumType | None:
        enum = self.symbols.enums.get(name.text)
        if enum is None and name.text == "turn" and self.symbols.turns_reported:
            return None  # the track's own error (C419) says what is wrong
        if enum is None:
            extra = "" if self.symbols.periods or name.text != "period" else " (the game header declares no periods)"
            unknown(self.sink, f"unknown {what} `{name.text}` in {self.where}{extra}", name, self.symbols.enums)
        return enum

    @property
    def kind(self) -> model.ChartKind:
        """How the chart is read, from its statements alone."""
        d = self.decl
        rolled = d.roll or d.roll_alternatives
        return model.ChartKind.ROLL if rolled else model.ChartKind.VALUE if d.value_key else model.ChartKind.REFERENCE

    def read_range(self, text: ast.RangeText, dice: Dice | None, plain: bool = False) -> model.DieRange | None:
        """Read `3-6`, `12+`, `3-`, `01-08`, `9-0`, `5` or below zero (`-1`, `-3-`, `-2--1`) with the
        chart's dice conventions."""
        m = _RANGE_RE.match(text.text)
        if not m:  # pragma: no cover - the grammar's RANGE terminal only admits these forms
            self.sink.emit(codes.INVALID_RANGE, f"cannot read range `{text.text}`", text.span)
            return None
        low_text, dash, high_text, plus = m.groups()
        if not plain and dice is not None and self._zero_unstated(text, low_text, dice):
            return None
        reader = (lambda s: int(s)) if plain or dice is None else dice.read_number
        low = reader(low_text)
        high = reader(high_text) if high_text else None
        bad = low_text if low is None else (high_text if high_text and high is None else None)
        if bad is not None:
            self.sink.emit(
                codes.INVALID_RANGE,
                f"`{bad}` in `{text.text}` is not a result of {dice.text if dice else 'this chart'}",
                text.span,
                "`0` reads as 10 only on 1d10, `00` as 100 only on a percentile roll; zero-padded numbers only "
                "on percentile rolls",
            )
            return None
        if plus:
            return model.DieRange(low, None, text.text, text.span)
        if dash and not high_text:
            return model.DieRange(None, low, text.text, text.span)
        if high_text:
            if low is not None and high is not None and low > high:
                self.sink.emit(
                    codes.REVERSED_RANGE,
                    f"range `{text.text}` runs backwards ({low} to {high}) in {self.where}",
                    text.span,
                    _reversed_help(low, high) if not plain else None,
                    fix=_reversed_fix(text, low_text, high_text, high < 0 <= low) if not plain else None,
                )
                return None
            return model.DieRange(low, high, text.text, text.span)
        return model.DieRange(low, low, text.text, text.span)

    def _zero_unstated(self, text: ast.RangeText, low_text: str, dice: Dice) -> bool:
        """C340: a range starting at a d10's `0` face on a chart that does not say how 0 reads.

        `9-0` is not ambiguous (only 10 can follow 9), `0` and `0-4` are (0-9 or 1-10 die?)."""
        if low_text != "0" or not dice.has_d10_face or self.decl.zero_reads is not None:
            return False
        self.sink.emit(
            codes.ZERO_FACE_UNSTATED,
            f"row `{text.text}` of {self.where} starts at the d10's 0 face, but the chart does not say how 0 reads",
            text.span,
            "write `zero reads 0` if the die is printed 0-9, or `zero reads 10` if 0 means 10",
            # a row from 0 says the die is printed 0-9 (a guess: the print may mean 10)
            fix=fixes.insert_after(self.decl.roll.span, "zero reads 0", Applicability.UNSAFE)
            if self.decl.roll is not None
            else None,
        )
        return True

    def row_range(
        self, text: ast.RangeText | None, row_span: ast.Span, natural: bool = False
    ) -> tuple[bool, model.DieRange | None]:
        """A row's range read with the dice's conventions (a d10's `0`, a percentile's `00`); a
        row of a chart with arithmetic holds the roll after its steps, a number read as written,
        unless it is a `natural` row, which holds what the dice show."""
        kind = self.kind
        if kind is model.ChartKind.REFERENCE:
            if text is not None:
                self.sink.emit(
                    codes.ROW_SHAPE,
                    f"{self.where} is read by its keys only, so its rows take no range",
                    text.span,
                    "add a `roll` or `value` statement, or delete the range",
                )
                return False, None
            return True, None
        if text is None:
            self.sink.emit(
                codes.ROW_SHAPE,
                f"this row of {self.where} has no range",
                row_span,
                "write the roll or value range before `:`, e.g. `3-6:`",
            )
            return False, None
        if kind is model.ChartKind.ROLL and self.dice is None:
            return False, None
        computed = not natural and any(s.kind is not model.StepKind.DRMS for s in self.pipeline)
        rng = self.read_range(text, self.dice, plain=kind is model.ChartKind.VALUE or computed)
        return rng is not None, rng

    def key_member(self, key: model.Key, kv: ast.KeyValueText) -> tuple[bool, model.KeyMatch]:
        """A row's key value bound to the key: a member id, a MonthSpan for month keys, or None (`*`)."""
        if kv.kind is ast.KeyValueKind.ANY:
            return True, None
        if key.enum.id == "month" and key.enum.synthetic:
            return self._month_span(key, kv)
        if key.enum.id == "turn" and key.enum.synthetic:
            return turn_span(self.symbols, key, kv, self.where, self.sink)
        member = key.enum.member(kv.text) if kv.kind not in (ast.KeyValueKind.MONTHS, ast.KeyValueKind.TURNS) else None
        if member is None:
            not_a_value_of(
                self.sink, kv.text, f"key `{key.id}`", kv.span, key.enum.spellings, f" in {self.where}", slot=Slot.VALUE
            )
            return False, None
        return True, model.MemberId(member.id)

    def _month_span(self, key: model.Key, kv: ast.KeyValueText) -> tuple[bool, model.KeyMatch]:
        if kv.kind is not ast.KeyValueKind.MONTHS or kv.first is None:
            self.sink.emit(
                codes.UNKNOWN_NAME,
                f"`{kv.text}` is not a month for key `{key.id}` in {self.where}",
                kv.span,
                "write a month `1944-07`, a span `1944-07..1944-09`, or `1945-01+` for that month on",
            )
            return False, None
        first = check_month(self.symbols, kv.first, kv.span, self.sink)
        last = (
            check_month(self.symbols, kv.last, kv.span, self.sink)
            if kv.last is not None and first is not None
            else None
        )
        if first is None or (kv.last is not None and last is None):
            return False, None
        if last is not None and first > last:
            swapped = f"{kv.last}..{kv.first}"
            fix = fixes.replace_with(kv.span, swapped, Slot.RAW, Applicability.SAFE, old=kv.text)
            self.sink.emit(codes.INVALID_MONTH, f"month span `{kv.text}` runs backwards", kv.span, f"write `{swapped}`",
                           fix=fix)
            return False, None
        if last == first:
            return True, model.MemberId(first)
        return True, model.MonthSpan(first, last, kv.text)

    def values(
        self, values: tuple[ast.ValueText, ...], columns: list[model.Column], span: ast.Span
    ) -> tuple[model.Value, ...] | None:
        if len(values) != len(columns):
            self.sink.emit(
                codes.ROW_SHAPE,
                f"this row gives {len(values)} value{'s' if len(values) != 1 else ''} but {self.where} has "
                f"{len(columns)} column{'s' if len(columns) != 1 else ''}",
                span,
                "columns: " + ", ".join(f"`{c.id}`" for c in columns) if columns else None,
            )
            return None
        out: list[model.Value] = []
        ok = True
        for v, c in zip(values, columns, strict=False):
            typed = self.typer.typed(v, c.type, f"column `{c.id}`")
            ok = ok and not isinstance(typed, Bad)
            out.append(None if isinstance(typed, Bad) else typed)
        return tuple(out) if ok else None

    def row(self, decl: ast.RowDecl, keys: list[model.Key], columns: list[model.Column]) -> model.Row | None:
        if len(decl.keys) != len(self.decl.keys):
            expected = ", ".join(k.name.text for k in self.decl.keys) or "no keys"
            self.sink.emit(
                codes.ROW_SHAPE,
                f"this row gives {len(decl.keys)} key value{'s' if len(decl.keys) != 1 else ''} but {self.where} "
                f"is keyed by {expected}",
                decl.keys[0].span if decl.keys else decl.span,
                "give one value per key, in the order of the `key` lines (`*` for any)",
            )
            return None
        if len(keys) != len(self.decl.keys):  # a key failed to resolve; already reported
            return None
        members: list[model.KeyMatch] = []
        ok = True
        for key, kv in zip(keys, decl.keys, strict=False):
            good, member = self.key_member(key, kv)
            ok = ok and good
            members.append(member)
        good_range, rng = self.row_range(decl.range, decl.span, decl.natural)
        values = self.values(decl.values, columns, decl.span)
        if not (ok and good_range) or values is None:
            return None
        return model.Row(tuple(members), rng, values, decl.span, natural=decl.natural)


def _reversed_fix(text: ast.RangeText, low: str, high: str, doubled_dash: bool) -> fixes.Fix | None:
    """C304's fix: the same rolls low end first, as printed (`01-05` for `05-01`): safe. `3--6` is
    more likely a doubled dash (`3-6`, unsafe) than 3 down to -6."""
    if doubled_dash:
        return fixes.replace_with(text.span, f"{low}-{high[1:]}", Slot.RAW, Applicability.UNSAFE, old=text.text)
    return fixes.replace_with(text.span, f"{high}-{low}", Slot.RAW, Applicability.SAFE, old=text.text)


def _reversed_help(low: int, high: int) -> str:
    """The fix for a backwards range; `3--6` is more likely a doubled dash than 3 down to -6."""
    if high < 0 <= low:
        return f"write `{low}-{-high}` (one dash), or `{high}-{low}` for {high} to {low}"
    return f"write `{high}-{low}`"
