"""DRMs and their conditions: bind each condition's context variable and type its operands (C407)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Sink, Slot, codes
from compiler.diagnostics.messages import not_a_value_of
from compiler.model.calendar import Month
from compiler.resolve.symbols import SymbolTable, declared_before, unknown
from dsl import ast


class ConditionResolver:
    """Binds the DRMs of one chart (`where` names it in messages)."""

    def __init__(self, symbols: SymbolTable, sink: Sink, where: str) -> None:
        self.symbols = symbols
        self.sink = sink
        self.where = where
        self.keys: dict[str, model.ContextVar] = {}  # the chart's own keys, as conditions see them

    def drm_set(
        self, decls: tuple[ast.DrmDecl, ...], groups: tuple[ast.DrmGroupDecl, ...], keys: list[model.Key]
    ) -> tuple[list[model.Drm], list[model.DrmGroup]]:
        """The chart's DRMs, those inside exclusive groups included, in declaration order, and its
        groups. A condition may test one of the chart's `keys` (`drm woods -1 when terrain == woods`)."""
        self.keys = {
            k.id: model.ContextVar(k.id, model.ContextType.ENUM, k.enum.id, k.enum.label, k.span, members=_ids(k.enum))
            for k in keys
        }
        tagged = [(d, None) for d in decls] + [(d, g.name.text) for g in groups for d in g.drms]
        tagged.sort(key=lambda t: (t[0].span.line, t[0].span.col))
        drms = self.drms(tuple(d for d, _ in tagged), {id(d): g for d, g in tagged})
        out_groups: list[model.DrmGroup] = []
        for g in groups:
            if self._repeated(out_groups, g.name, "DRM group"):
                continue
            members = tuple(d.id for d in drms if d.group == g.name.text)
            mode = g.mode
            out_groups.append(model.DrmGroup(g.name.text, _label(g.name, g.label), mode, members, g.span))
        return drms, out_groups

    def _repeated(self, declared: list[model.Drm] | list[model.DrmGroup], name: ast.Name, what: str) -> bool:
        """Whether `name` was declared before in this chart (reported, C202)."""
        return declared_before(self.sink, declared, what, name, f"in {self.where}")

    def drms(self, decls: tuple[ast.DrmDecl, ...], groups: dict[int, str | None] | None = None) -> list[model.Drm]:
        """The chart's DRMs with their conditions bound; a DRM whose condition cannot be is dropped.
        `groups` maps a declaration (by `id`) to the exclusive group it is declared in."""
        drms: list[model.Drm] = []
        for decl in decls:
            if self._repeated(drms, decl.name, "DRM"):
                continue
            when = self.condition(decl.when) if decl.when else None
            if decl.when is not None and when is None:
                continue
            per = self._per(decl.per) if decl.per else None
            if decl.per is not None and per is None:
                continue
            label = _label(decl.name, decl.label)
            group = (groups or {}).get(id(decl))
            drms.append(model.Drm(decl.name.text, label, decl.value, when, decl.footnote, decl.span, per, group))
        return drms

    def _per(self, per: ast.DrmPerDecl) -> model.PerStep | None:
        """`per N VAR`: VAR must be an int with both ends of its range declared (C331)."""
        var = self._var(per.var)
        if var is None:
            return None
        if var.type is not model.ContextType.INT or not isinstance(var.low, int) or not isinstance(var.high, int):
            self.sink.emit(
                codes.PER_STEP_DOMAIN,
                f"`per {per.var.text}` needs an int context variable with a declared range; `{var.id}` is "
                + (_kind_phrase(var) if var.type is not model.ContextType.INT else "an int without one"),
                per.var.span,
                f'declare its range: `context {var.id}: int "{var.label}" 0-300`',
            )
            return None
        if per.step < 1:
            self.sink.emit(codes.PER_STEP_DOMAIN, f"a per-N DRM counts steps of 1 or more, not {per.step}", per.span)
            return None
        return model.PerStep(var.id, per.step, per.rounding, per.span, var.low, var.high)

    def _var(self, name: ast.Name) -> model.ContextVar | None:
        # a context variable keeps its name; a chart key is tested where no context variable has it
        var = self.symbols.context.get(name.text) or self.keys.get(name.text)
        if var is None:
            unknown(
                self.sink,
                f"unknown context variable `{name.text}` in {self.where}",
                name,
                self.symbols.context,
                f"declare it: `context {name.text}: flag`",
            )
        return var

    def _on_key(self, var: model.ContextVar) -> bool:
        return var.id not in self.symbols.context and var.id in self.keys

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
            op = cond.op
            if var.type in (model.ContextType.ENUM, model.ContextType.FLAG) and op not in (
                model.CompareOp.EQ,
                model.CompareOp.NE,
            ):
                self.sink.emit(
                    codes.INVALID_CONDITION, f"`{cond.op}` does not apply to `{var.id}`; use `==` or `!=`", cond.span
                )
                return None
            return model.Compare(var.id, op, value, cond.span, self._on_key(var))
        if isinstance(cond, ast.CondIn):
            var = self._var(cond.var)
            if var is None:
                return None
            values = [self._operand(var, o) for o in cond.operands]
            if any(v is None for v in values):
                return None
            return model.In(var.id, tuple(v for v in values if v is not None), cond.span, self._on_key(var))
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
                members = [m.id for m in enum.members]
                not_a_value_of(self.sink, op.text, f"`{enum.id}`", op.span, members, slot=Slot.VALUE)
                return None
            return model.MemberId(member.id)
        self.sink.emit(
            codes.INVALID_CONDITION,
            f"`{var.id}` is {_kind_phrase(var)} and cannot be compared with `{op.text}`",
            op.span,
            f"compare it with {_TYPE_WORDS[var.type][1]}",
        )
        return None


# How messages name a context variable of each type (`{enum}`: its enum), and what it is compared with.
_TYPE_WORDS: dict[model.ContextType, tuple[str, str]] = {
    model.ContextType.INT: ("an int variable", "a whole number"),
    model.ContextType.MONTH: ("a month variable", "a month like `1944-12`"),
    model.ContextType.ENUM: ("a `{enum}` variable", "one of its values"),
    model.ContextType.FLAG: ("a flag", "nothing"),
}
assert set(_TYPE_WORDS) == set(model.ContextType), "every type of context variable has its words"


def _kind_phrase(var: model.ContextVar) -> str:
    return _TYPE_WORDS[var.type][0].format(enum=var.enum)



def _ids(enum: model.EnumType) -> tuple[str, ...]:
    return tuple(m.id for m in enum.members)


def _label(name: ast.Name, label: ast.Text | None) -> str:
    """The printed label, or the name with spaces for underscores."""
    return label.text if label else name.text.replace("_", " ")
