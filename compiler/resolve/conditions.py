"""DRMs and their conditions: bind each condition's context variable and type its operands (C407)."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.calendar import Month
from compiler.diagnostics import Sink, codes
from compiler.diagnostics.messages import declared_twice, not_a_value_of, unknown_name
from compiler.resolve.symbols import SymbolTable, first_span
from dsl import ast


class ConditionResolver:
    """Binds the DRMs of one chart (`where` names it in messages)."""

    def __init__(self, symbols: SymbolTable, sink: Sink, where: str) -> None:
        self.symbols = symbols
        self.sink = sink
        self.where = where

    def drms(self, decls: tuple[ast.DrmDecl, ...]) -> list[model.Drm]:
        """The chart's DRMs with their conditions bound; a DRM whose condition cannot be is dropped."""
        drms: list[model.Drm] = []
        for decl in decls:
            first = first_span(drms, decl.name.text)
            if first is not None:
                declared_twice(self.sink, f"DRM `{decl.name.text}`", decl.name.span, first, where=f"in {self.where}")
                continue
            when = self.condition(decl.when) if decl.when else None
            if decl.when is not None and when is None:
                continue
            label = decl.label.text if decl.label else decl.name.text.replace("_", " ")
            drms.append(model.Drm(decl.name.text, label, decl.value, when, decl.footnote, decl.span))
        return drms

    def _var(self, name: ast.Name) -> model.ContextVar | None:
        var = self.symbols.context.get(name.text)
        if var is None:
            unknown_name(
                self.sink,
                f"unknown context variable `{name.text}` in {self.where}",
                name.text,
                name.span,
                self.symbols.context,
                f"declare it: `context {name.text}: flag`",
            )
        return var

    def condition(self, cond: ast.Cond) -> model.Condition | None:
        if isinstance(cond, ast.CondFlag):
            var = self._var(cond.var)
            if var is None:
                return None
            if var.type is not model.ContextType.FLAG:
                self.sink.emit(
                    codes.INVALID_CONDITION,
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
            op = model.CompareOp(cond.op)
            if var.type in (model.ContextType.ENUM, model.ContextType.FLAG) and op not in (
                model.CompareOp.EQ,
                model.CompareOp.NE,
            ):
                self.sink.emit(
                    codes.INVALID_CONDITION, f"`{cond.op}` does not apply to `{var.id}`; use `==` or `!=`", cond.span
                )
                return None
            return model.Compare(var.id, op, value, cond.span)
        if isinstance(cond, ast.CondIn):
            var = self._var(cond.var)
            if var is None:
                return None
            values = [self._operand(var, o) for o in cond.operands]
            if any(v is None for v in values):
                return None
            return model.In(var.id, tuple(v for v in values if v is not None), cond.span)
        if isinstance(cond, ast.CondNot):
            inner = self.condition(cond.inner)
            return model.Not(inner, cond.span) if inner else None
        parts = [self.condition(p) for p in cond.parts]
        if any(p is None for p in parts):
            return None
        kept = tuple(p for p in parts if p is not None)
        return model.All(kept, cond.span) if isinstance(cond, ast.CondAll) else model.Any_(kept, cond.span)

    def _operand(self, var: model.ContextVar, op: ast.Operand) -> model.Operand | None:
        if var.type is model.ContextType.INT and op.kind is ast.OperandKind.INT:
            return int(op.text)
        if var.type is model.ContextType.MONTH and op.kind is ast.OperandKind.MONTH:
            month = Month.parse(op.text)
            if month is None:
                self.sink.emit(codes.INVALID_MONTH, f"`{op.text}` is not a month", op.span)
            return month
        if var.type is model.ContextType.ENUM and op.kind in ("name", "text"):
            enum = self.symbols.enums[var.enum or ""]
            member = enum.member(op.text)
            if member is None:
                not_a_value_of(self.sink, op.text, f"`{enum.id}`", op.span, [m.id for m in enum.members])
                return None
            return model.MemberId(member.id)
        kinds = {
            "int": "a whole number",
            "month": "a month like `1944-12`",
            "enum": "one of its values",
            "flag": "nothing",
        }
        self.sink.emit(
            codes.INVALID_CONDITION,
            f"`{var.id}` is {_kind_phrase(var)} and cannot be compared with `{op.text}`",
            op.span,
            f"compare it with {kinds[var.type]}",
        )
        return None


def _kind_phrase(var: model.ContextVar) -> str:
    match var.type:
        case model.ContextType.INT:
            return "an int variable"
        case model.ContextType.MONTH:
            return "a month variable"
        case model.ContextType.FLAG:
            return "a flag"
        case model.ContextType.ENUM:
            return f"a `{var.enum}` variable"
        case _:
            assert_never(var.type)
