"""One chart of a generated module: its result type, its rows and the parameters of its functions.

`ChartEmitter` holds what every function of a chart needs (its names, the game's enums and context
variables, the keys and context variables as parameters) and writes the chart's types and rows;
the functions themselves are written by `compiler.emit.python.lookups` (`lookup_<id>`,
`roll_<id>`, `rolls_<id>`) and `compiler.emit.python.modifiers` (`drm_<id>`, `shift_<id>`,
`odds_<id>`). Chart text only ever enters the module through `repr()` literals or `docstring()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from compiler import model
from compiler.emit.python.chains import chain_types, chain_value
from compiler.emit.python.layout import INDENT, LINE, docstring, fill, tuple_display, tuple_lines
from compiler.emit.python.literals import literal
from compiler.emit.python.names import ChartNames, EnumType, Namespace, identifier
from compiler.engine import plain

# What a lookup reads besides its keys, by chart kind.
READS = {model.ChartKind.ROLL: "roll", model.ChartKind.VALUE: "value"}
# The parameters and locals of lookup_<id> and roll_<id>, which pass the chart's keys on by name.
LOOKUP_NAMES = ("roll", "value", "drm", "row", "rng", "natural", "modified", "low", "by_roll", "below", "above", "at",
                "when", "applied", "total")
# The keywords of the situation a chart's DRMs read, as `chartc lookup --when/--set`: `set_`, as the
# naming policy spells a builtin's name.
SITUATION = ["when: Iterable[str] = ()", "set_: Mapping[str, object] | None = None"]


@dataclass(frozen=True)
class Param:
    """A key or context variable as a parameter: its chart-language id, Python name and type."""

    id: str
    name: str
    annotation: str
    check: str  # the runtime call that validates it
    selects: str = ""  # the expression that selects rows, when it is not the parameter itself
    # a quick test that holds for every value `check` rejects (and for a few it accepts, such as a
    # str subclass): `lookup_<id>` runs `check` only when it holds, so a valid call makes no call
    guard: str = ""


class ChartEmitter:
    """What the functions of one chart are written from, and the chart's types, rows and parameters."""

    def __init__(
        self,
        game: model.Game,
        chart: model.Chart,
        names: ChartNames,
        enums: dict[str, EnumType],
        module: Namespace,
        context: dict[str, str],
    ) -> None:
        self.game = game
        self.context = context
        self.chart = chart
        self.names = names
        self.enums = enums
        self.module = module
        self.address = repr(chart.address)

    # -- values and their types

    def column_type(self, column: model.Column) -> str:
        base = self.enums[column.type].alias if isinstance(column.type, model.EnumRef) else builtin_type(column.type)
        index = self.chart.columns.index(column)
        nullable = any(row.values[index] is None for row in self.chart.rows)
        chained = chain_types([row.values[index] for row in self.chart.rows])
        if any(isinstance(row.values[index], model.Choice) for row in self.chart.rows):
            chained.append("Choice")
        base = " | ".join([base, *(t for t in chained if t != base)])
        return f"{base} | None" if nullable else base

    def python_value(self, value: model.Value) -> str:
        if isinstance(value, model.ChartRef | model.RollAgain | model.SubRoll):
            return chain_value(self.game, value)
        if isinstance(value, model.Choice):
            return f"{{'choice': {tuple_display([self.python_value(o) for o in value.options])}}}"
        return literal(value)

    def key_value(self, key: model.Key, match: model.KeyMatch) -> str:
        """A row key as the runtime reads it (`compiler.engine.plain.key_match`); an odds rule's
        column by its printed label, which the CRT's lookup takes."""
        enum = self.enums.get(key.enum.id)
        if isinstance(match, str) and enum is not None and enum.labels is None:  # an odds rule: its printed column
            member = key.enum.member(match)
            return repr(member.label if member else match)
        return literal(plain.key_match(match))

    def result_type(self) -> list[str]:
        fields = [f"{c.id!r}: {self.column_type(c)}" for c in self.chart.columns]
        name = self.names.result
        lines = fill(f"{name} = TypedDict({name!r}, {{", fields, "})")
        columns = [repr(c.id) for c in self.chart.columns]
        return lines + fill(f"{self.names.const}_COLUMNS: Final = (", columns, ",)" if len(columns) == 1 else ")")

    def values_type(self) -> str:
        types = [self.column_type(c) for c in self.chart.columns]
        return f"tuple[{', '.join(types)}]" if types else "tuple[()]"

    def rows(self) -> list[str]:
        chart = self.chart
        row_type = f"_Row[{self.values_type()}]"
        head = f"_{self.names.const}_ROWS: Final[tuple[{row_type}, ...]] = ("
        if len(head) > LINE:
            alias = f"_{self.names.const}_VALUES"
            lines = fill(f"{alias}: TypeAlias = tuple[", [self.column_type(c) for c in chart.columns], "]")
            head = f"_{self.names.const}_ROWS: Final[tuple[_Row[{alias}], ...]] = ("
        else:
            lines = []
        lines.append(head)
        lines += self.row_lines([r for r in chart.rows if not r.natural])
        if READS.get(chart.kind):  # read by a roll or a value: indexed by it (`_Index`)
            lines.append(f"_{self.names.const}_INDEX: Final = _Index(_{self.names.const}_ROWS)")
        if any(r.natural for r in chart.rows):
            lines.append(head.replace("_ROWS:", "_NATURAL_ROWS:", 1))
            lines += self.row_lines([r for r in chart.rows if r.natural])
        lines += self.overlay_lines(head)
        for key in chart.keys:
            if key.enum.synthetic:  # the months or turns this chart is read in
                lines += fill(f"{self.members_const(key)}: Final = (", [repr(m.id) for m in key.enum.members], ")")
        if chart.dice is not None:
            outcomes = [str(r) for r in chart.natural_rolls]
            lines += fill(f"_{self.names.const}_OUTCOMES: Final = frozenset({{", outcomes, "})")
        if chart.dice is not None and chart.arithmetic:  # the roll's steps, as `_modified` reads them
            steps = [literal(s) for s in plain.steps(chart)]
            lines += fill(f"_{self.names.const}_STEPS: Final[tuple[_Step, ...]] = (", steps, ")")
        return lines

    def overlay_lines(self, head: str) -> list[str]:
        """`_<ID>_OVERLAY_<N>`, each overlay's rows, and `_<ID>_OVERLAYS`, each overlay's condition
        (as the runtime's `_holds` reads it) with its rows, in order."""
        const, lines, pairs = self.names.const, [], []
        for n, overlay in enumerate(self.chart.overlays, 1):
            lines.append(head.replace("_ROWS:", f"_OVERLAY_{n}:", 1))
            lines += self.row_lines(list(overlay.rows))
            pairs += fill("(", [literal(plain.condition(overlay.when)), f"_{const}_OVERLAY_{n}"], "),", INDENT)
        return [*lines, f"_{const}_OVERLAYS: Final = (", *pairs, ")"] if pairs else lines

    def row_lines(self, rows: list[model.Row]) -> list[str]:
        """The rows of a `_ROWS` constant, each a tuple, and its closing parenthesis."""
        chart = self.chart
        lines = []
        for row in rows:
            keys = [self.key_value(k, m) for k, m in zip(chart.keys, row.keys, strict=True)]
            values = [self.python_value(v) for v in row.values]
            low = row.range.low if row.range else None
            high = row.range.high if row.range else None
            one = f"{INDENT}({tuple_display(keys)}, {low!r}, {high!r}, {tuple_display(values)}),"
            if len(one) <= LINE:
                lines.append(one)
            else:
                lines += fill(f"({tuple_display(keys)}, {low!r}, {high!r}, (", values, ")),", INDENT)
        lines.append(")")
        return lines

    # -- the situation (`when=`, `set_=`)

    def reads_situation(self) -> bool:
        """Whether `lookup_<id>` (and `read_<id>`, `roll_<id>`) take `when=`/`set_=`: a roll or value
        chart with DRMs."""
        return bool(self.chart.drms) and self.chart.kind in (model.ChartKind.ROLL, model.ChartKind.VALUE)

    def situation_vars(self) -> list[str]:
        """The context variables the chart's DRMs read (conditions, per-N counts), in the order of
        first use, without the chart's own keys (`compiler.engine.context.tested_variables`)."""
        keys = {k.id for k in self.chart.keys}
        found: dict[str, None] = {}
        for drm in self.chart.drms:
            for var in (*model.condition_variables(drm.when), *((drm.per.var,) if drm.per else ())):
                found.setdefault(var)
        return [v for v in found if v not in keys]

    def var_literal(self, var_id: str) -> str:
        """A context variable as the runtime's `_Var`: id, type, declared range, an enum's labels."""
        var = self.game.context[var_id]
        if var.type is model.ContextType.ENUM:
            enum = self.enums[var.enum or ""]
            labels = enum.labels or "{" + ", ".join(f"{v!r}: {v!r}" for v in enum.values) + "}"
            return f"_Var({var_id!r}, 'enum', labels={labels})"
        bounds = f", {literal(var.low)}, {literal(var.high)}" if var.low is not None or var.high is not None else ""
        return f"_Var({var_id!r}, {var.type.value!r}{bounds})"

    def situation_statement(self, params: list[Param], target: str) -> str:
        """`if when or set_ is not None: TARGET _context_drms(...)`: the DRM total and the DRMs that
        apply in the situation given, with the chart's keys its DRMs test (already read to their ids
        by the function's checks), as a statement of a function body."""
        const = self.names.const
        tested = {v for d in self.chart.drms for v in model.key_vars(d.when)}
        keys = "{" + ", ".join(f"{p.id!r}: {p.name}" for p in params if p.id in tested) + "}"
        converted = plain.chart_drms(self.chart)
        args = [self.address, f"_{const}_READS", "when", "set_", keys, f"_{const}_DRMS", f"_{const}_DRM_NAMES"]
        args += [literal(converted.clamp)] + ([literal(converted.groups)] if converted.groups else [])
        head, _, tail = target.partition("@")
        call = fill(f"{head}_context_drms(", args, f"){tail}", INDENT * 2)
        return "\n".join(["if when or set_ is not None:", *(line.removeprefix(INDENT) for line in call)])

    def situation_constants(self) -> list[str]:
        """`_<ID>_READS` (the variables `when=`/`set_=` may name) and `_<ID>_DRM_NAMES` (each DRM's
        id and label, naming the DRMs that applied)."""
        const = self.names.const
        reads = [self.var_literal(v) for v in self.situation_vars()]
        names = [tuple_display([repr(d.id), repr(d.label)]) for d in self.chart.drms]
        return (tuple_lines(f"_{const}_READS: Final[tuple[_Var, ...]] = (", reads)
                + tuple_lines(f"_{const}_DRM_NAMES: Final = (", names))

    # -- parameters

    @property
    def const(self) -> str:
        """The chart's part of its constants' names (`_<CONST>_ROWS`)."""
        return self.names.const

    def key_check(self, key: model.Key, name: str) -> str:
        """The check of a value given for the chart's key `key` as the parameter `name`, worded as
        the chart's lookup words it (an enum value read to its id)."""
        where = f"{self.address}, {name!r}, {name}"
        if key.enum.synthetic:
            return f"{_synthetic_check(key)}({where}, {self.members_const(key)})"
        enum = self.enums[key.enum.id]
        if enum.labels is None:
            return f"{name} = _odds_key({where}, get_args({enum.alias}))"
        return f"{name} = _member({where}, {enum.labels})"

    def key_annotation(self, key: model.Key) -> str:
        """The Python type of a key of the chart: its enum's alias (a month key: str)."""
        return "str" if key.enum.synthetic else self.enums[key.enum.id].alias

    def members_const(self, key: model.Key) -> str:
        """The constant holding the months (`_<CONST>_MONTHS`) or turns (`_<CONST>_TURNS`) of a
        calendar or turn-track key."""
        return f"_{self.names.const}_{'TURNS' if key.enum.id == 'turn' else 'MONTHS'}"

    @property
    def ident(self) -> str:
        """The chart's part of its function names (`lookup_<ident>`)."""
        return self.names.ident

    def lookup_key_params(self) -> list[Param]:
        """The key parameters of `lookup_<id>` and `roll_<id>`."""
        return self.key_params(self.module.child(LOOKUP_NAMES))

    def key_params(self, scope: Namespace) -> list[Param]:
        out = []
        for key in self.chart.keys:
            name = scope.parameter(key.id)
            if key.enum.synthetic:
                months = self.members_const(key)
                check = f"{_synthetic_check(key)}({self.address}, {name!r}, {name}, {months})"
                guard = f"type({name}) is not str or {name} not in {months}"
                out.append(Param(key.id, name, "str", check, guard=guard))
                continue
            enum = self.enums[key.enum.id]
            if enum.labels is None:  # an odds rule's columns: checked where the row is selected
                column = f"_odds_key({self.address}, {name!r}, {name}, get_args({enum.alias}))"
                out.append(Param(key.id, name, enum.alias, "", column))
                continue
            member = f"{name} = _member({self.address}, {name!r}, {name}, {enum.labels})"
            guard = f"type({name}) is not str or {name} not in {enum.labels}"
            out.append(Param(key.id, name, enum.alias, member, guard=guard))
        return out

    def param_var(self, p: Param) -> model.ContextVar:
        """The context variable a `drm_<id>` parameter stands for (a chart key as an enum variable)."""
        for key in self.chart.keys:
            if key.id == p.id and p.id not in self.game.context:
                return model.ContextVar(key.id, model.ContextType.ENUM, key.enum.id, key.enum.label, key.span)
        return self.game.context[p.id]

    def tested_key_params(self, key_ids: list[str]) -> list[Param]:
        """The chart's own keys a DRM condition tests, as `drm_<id>` keywords (None: unknown)."""
        scope = self.module.child(self.context.values())
        out = []
        for key in self.chart.keys:
            if key.id not in key_ids:
                continue
            name = scope.parameter(key.id)
            where = f"{self.address}, {name!r}, {name}"
            if key.enum.synthetic and key.enum.id == "turn":
                annotation, check = "str", f"_check_turn({where}, {self.members_const(key)})"
            elif key.enum.synthetic:
                annotation, check = "str", f"_check_month({where})"
            else:
                alias = self.enums[key.enum.id].alias
                annotation, check = alias, f"_check_member({where}, get_args({alias}))"
            out.append(Param(key.id, name, f"{annotation} | None = None", f"if {name} is not None:\n{INDENT}{check}"))
        return out

    def context_params(
        self, conditions: list[model.Condition | None] | None = None, scope: Namespace | None = None
    ) -> list[Param]:
        """The keyword parameters of the context variables `conditions` test (default: the DRMs',
        with the variables per-N DRMs count and the chart keys DRMs test), named as in every
        `drm_<id>`, or within `scope` when one is given (a function that also takes keys and a roll)."""
        if conditions is not None:
            return self.params_for(sorted({v for when in conditions for v in model.condition_vars(when)}), scope)
        drms = self.chart.drms
        keys = {v for d in drms for v in model.key_vars(d.when)}
        used = sorted({v for d in drms for v in model.condition_vars(d.when)} | {d.per.var for d in drms if d.per})
        context = self.params_for([v for v in used if v not in keys], scope)
        return self.tested_key_params(sorted(keys & set(used))) + context

    def params_for(self, used: list[str], scope: Namespace | None = None) -> list[Param]:
        """The keyword parameters of the context variables `used`, in that order (named within
        `scope` when one is given)."""
        out = []
        for var_id in used:
            var = self.game.context[var_id]
            name = self.context[var_id] if scope is None else scope.parameter(var_id)
            where = f"{self.address}, {name!r}, {name}"
            match var.type:
                case model.ContextType.FLAG:
                    out.append(Param(var_id, name, "bool = False", f"_check_flag({where})"))
                    continue
                case model.ContextType.INT:
                    annotation, check = "int", f"_check_int({where})" + _range_check(var, where)
                case model.ContextType.MONTH:
                    annotation, check = "str", f"_check_month({where})" + _range_check(var, where)
                case model.ContextType.ENUM:
                    enum = self.enums[var.enum or ""]
                    annotation, check = enum.alias, _context_member(enum, name, where)
                case _:
                    assert_never(var.type)
            out.append(Param(var_id, name, f"{annotation} | None = None", f"if {name} is not None:\n{INDENT}{check}"))
        return out

    def alternative_params(self, keys: list[Param]) -> list[Param]:
        """The context keywords of `roll_<id>`/`rolls_<id>` for the `roll ... when` conditions: none of
        them the name of a key, of the roll's own names or of the local `context`."""
        scope = self.module.child([*LOOKUP_NAMES, "context", "when", "rows", "found", *(p.name for p in keys)])
        return self.context_params([alt.when for alt in self.chart.dice_alternatives], scope)

    def overlay_params(self, keys: list[Param]) -> list[Param]:
        """The context keywords of `lookup_<id>`, `roll_<id>` and `rolls_<id>` for the overlays'
        conditions (the chart's keys they test are the key parameters), named as `alternative_params`."""
        scope = self.module.child([*LOOKUP_NAMES, "context", "when", "rows", "found", *(p.name for p in keys)])
        tested = sorted({v for o in self.chart.overlays for v in model.condition_vars(o.when)})
        return self.params_for([v for v in tested if v not in {k.id for k in self.chart.keys}], scope)

    def context_doc(self, var: model.ContextVar) -> str:
        match var.type:
            case model.ContextType.FLAG:
                return f"{var.label} (True or False)"
            case model.ContextType.INT:
                return f"{var.label} (an int, or None if unknown)"
            case model.ContextType.MONTH:
                return f"{var.label} ('YYYY-MM', or None if unknown)"
            case model.ContextType.ENUM:
                enum = self.enums[var.enum or ""]
                return f"{var.label} ({enum.alias}, labels in {enum.labels}; or None if unknown)"
            case _:
                assert_never(var.type)

    def key_doc(self, key: model.Key) -> str:
        if key.enum.synthetic and key.enum.id == "turn":
            halves = ", ".join(dict.fromkeys(m.id.partition(" ")[2] for m in key.enum.members))
            first, last = key.enum.members[0].id, key.enum.members[-1].id
            return f"a turn 'YYYY-MM-DD HALF' (HALF one of {halves}), {first} to {last}"
        if key.enum.synthetic:
            return f"a month 'YYYY-MM', {key.enum.members[0].id} to {key.enum.members[-1].id}"
        enum = self.enums[key.enum.id]
        if enum.labels is None:
            rule = identifier(key.enum.id)
            return f"{key.enum.label}: the odds column as printed, as odds_{rule}() returns it"
        return f"{key.enum.label} ({enum.alias}; labels in {enum.labels})"

    def function(self, name: str, params: list[str], returns: str, doc: str, body: list[str]) -> list[str]:
        one = f"def {name}({', '.join(params)}) -> {returns}:"
        split = [f"def {name}(", *(f"{INDENT}{p}," for p in params), f") -> {returns}:"]
        lines = [one] if len(one) <= LINE else split
        lines.append(docstring(doc, INDENT))
        for statement in body:
            lines += [INDENT + line for line in statement.split("\n")]
        return lines



def cite(chart: model.Chart) -> str:
    cite = chart.title
    if chart.chart_id:
        cite += f" [{chart.chart_id}]"
    if chart.rule:
        cite += f", rule {chart.rule}"
    return cite

def _range_check(var: model.ContextVar, where: str) -> str:
    """The declared range check of an int or month context variable (none when undeclared)."""
    if var.low is None and var.high is None:
        return ""
    return f"\n{INDENT}_check_range({where}, {literal(var.low)}, {literal(var.high)})"

def _context_member(enum: EnumType, name: str, where: str) -> str:
    """An enum context variable read by id or printed label (labels in the enum's label table)."""
    if enum.labels is None:  # an odds rule's columns have no label table
        return f"_check_member({where}, get_args({enum.alias}))"
    return f"{name} = _member({where}, {enum.labels})"

def builtin_type(t: model.BuiltinType) -> str:
    """The Python type of a cell of a builtin column type (months are 'YYYY-MM' strings)."""
    match t:
        case model.BuiltinType.TEXT | model.BuiltinType.MONTH:
            return "str"
        case model.BuiltinType.INT:
            return "int"
        case model.BuiltinType.FLAG:
            return "bool"
        case model.BuiltinType.PAIR:
            return "tuple[int | None, int | None]"
        case model.BuiltinType.TRIPLE:
            return "tuple[int | None, int | None, int | None]"
        case model.BuiltinType.THRESHOLDS:
            return "tuple[int | None, ...]"
        case model.BuiltinType.CHARTREF:
            return "ChartRef"
        case _:
            assert_never(t)

def context_lines(items: list[str]) -> list[str]:
    """`context: dict[str, _Context] = {...}` as lines of a function body: on one line when that line,
    indented in the body, is at most `LINE` long; else the items packed between the braces."""
    # measured with the function's indent, which the body's lines get when they are written
    return [line.removeprefix(INDENT) for line in fill("context: dict[str, _Context] = {", items, "}", INDENT)]


def _synthetic_check(key: model.Key) -> str:
    """The runtime check of a value given for a calendar or turn-track key."""
    return "_check_turn" if key.enum.id == "turn" else "_check_member"
