"""The generated Python of computed values: `compute_<id>(*, inputs...) -> int` per formula and the
`FORMULAS` table.

The arithmetic is the runtime's (`_div`, `_pow`, `_round_half_up`, with `math.floor`/`math.ceil`),
the same functions `chartc compute` uses, so the module and the CLI give the same number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from compiler import model
from compiler.emit.python.layout import INDENT, docstring, fill
from compiler.emit.python.literals import literal
from compiler.emit.python.names import Namespace, identifier
from compiler.engine.formulas import MAX_EXPONENT, expr_text, formula_refs, inputs
from compiler.model import formulas as fx

_COMPARE = {op: op.value for op in model.CompareOp}


def formula_names(game: model.Game, names: Namespace) -> dict[str, str]:
    """Each formula's function name, unique in the module."""
    return {f.id: names.numbered(f"compute_{identifier(f.id)}") for f in game.formulas}


def formulas_code(
    game: model.Game, functions: Mapping[str, str], context: Mapping[str, str], enum_aliases: Mapping[str, str]
) -> str:
    """Every formula's function (context: each variable's parameter name) and `FORMULAS`."""
    parts = []
    for formula in game.formulas:
        parts.append(_function(game, formula, functions, context, enum_aliases))
    entries = [f"{INDENT}{f.id!r}: {functions[f.id]}," for f in game.formulas]
    parts.append("\n".join(["", "", "FORMULAS: Final[dict[str, Callable[..., int]]] = {", *entries, "}"]))
    return "\n".join(parts)


def _function(
    game: model.Game,
    formula: model.Formula,
    functions: Mapping[str, str],
    context: Mapping[str, str],
    enum_aliases: Mapping[str, str],
) -> str:
    reads = inputs(game, formula)
    where = repr(formula.id)
    params, checks = [], []
    for var_id in reads:
        var = game.context[var_id]
        name = context[var_id]
        spot = f"{where}, {name!r}, {name}"
        match var.type:
            case model.ContextType.FLAG:
                params.append(f"{name}: bool = False")
                checks.append(f"_check_flag({spot})")
            case model.ContextType.INT:
                params.append(f"{name}: int")
                checks.append(f"_check_int({spot})")
                if var.low is not None or var.high is not None:
                    checks.append(f"_check_range({spot}, {var.low!r}, {var.high!r})")
            case model.ContextType.MONTH:
                params.append(f"{name}: str")
                checks.append(f"_check_month({spot})")
            case model.ContextType.ENUM:
                alias = enum_aliases[var.enum or ""]
                params.append(f"{name}: {alias}")
                checks.append(f"_check_member({spot}, get_args({alias}))")
            case _:
                assert_never(var.type)
    head = f"def {functions[formula.id]}(" + ("*, " + ", ".join(params) if params else "") + ") -> int:"
    if len(head) > 120:
        head = "\n".join(
            [f"def {functions[formula.id]}(", f"{INDENT}*,", *(f"{INDENT}{p}," for p in params), ") -> int:"]
        )
    doc = (
        f"{formula.title} (rule {formula.rule}): {expr_text(formula.expr)}.\n\n"
        "Exact arithmetic: `/` divides exactly; floor, ceil and round (half up) make the value whole.\n"
        "ValueError for an input of the wrong type or outside its declared range, or a division by zero."
        + (f"\nIt applies only where {formula.requires.text}: ValueError otherwise." if formula.requires else "")
        + (f"\nIts values: {formula.domain.text}." if formula.domain else "")
        + (f"\nErrata {', '.join(formula.errata)}: {'; '.join(formula.as_printed())}"
           + "".join(f"; {why}" for why in formula.because) + "." if formula.errata else "")
    )
    arguments = {var_id: context[var_id] for var_id in reads}
    # each formula it uses is computed once, before its own value (an `if` picks among values)
    taken = set(arguments.values())
    local: dict[str, str] = {}
    for ref in formula_refs(formula):
        name = f"_{identifier(ref)}"
        while name in taken:
            name += "_"
        taken.add(name)
        local[ref] = name
    used = []
    for ref, name in local.items():
        other = game.formula(ref)
        assert other is not None
        given = [f"{arguments[v]}={arguments[v]}" for v in inputs(game, other)]
        used += [line.removeprefix(INDENT) for line in fill(f"{name} = {functions[ref]}(", given, ")", INDENT)]
    value = f"value = {_code(formula.expr, arguments, local)}"
    steps = [value] if len(INDENT + value) <= 120 else _steps(formula.expr, arguments, local)
    body = [*checks, *used, *_requires(formula, arguments, local), *steps, "return int(value)"]
    return "\n".join(["", "", head, docstring(doc, INDENT), *(INDENT + b for b in body)])


def _requires(formula: model.Formula, names: Mapping[str, str], local: Mapping[str, str]) -> list[str]:
    """`if not (xp >= promotion_number): raise ValueError(...)`: the inputs the formula applies to."""
    req = formula.requires
    if req is None:
        return []
    test = f"{_code(req.left, names, local)} {_COMPARE[req.op]} {_code(req.right, names, local)}"
    message = f"{formula.id}: applies only where {req.text}"
    return [f"if not ({test}):", f"{INDENT}raise ValueError({message!r})"]


def _steps(expr: fx.Expr, names: Mapping[str, str], local: Mapping[str, str]) -> list[str]:
    """A formula too long for one line as one assignment per operation (`v1 = ...`, ..., `value = ...`);
    an `if` becomes an if statement, so the branch not taken is not computed."""
    lines: list[str] = []
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return f"v{counter[0]}"

    def step(node: fx.Expr, indent: str) -> str:
        match node:
            case fx.Number() | fx.Var() | fx.FormulaRef():
                return _code(node, names, local)
            case fx.Binary(op, left, right):
                code = _binary_code(op, step(left, indent), step(right, indent))
            case fx.Neg(inner):
                code = f"(-{step(inner, indent)})"
            case fx.Call(function, args):
                code = _call_code(function, [step(a, indent) for a in args])
            case fx.IfElse(cond, then, otherwise):
                name = fresh()
                lines.append(f"{indent}if {_condition(cond, names)}:")
                lines.append(f"{indent}{INDENT}{name} = {step(then, indent + INDENT)}")
                lines.append(f"{indent}else:")
                lines.append(f"{indent}{INDENT}{name} = {step(otherwise, indent + INDENT)}")
                return name
            case _:
                assert_never(node)
        name = fresh()
        lines.append(f"{indent}{name} = {code}")
        return name

    last = step(expr, "")
    lines.append(f"value = {last}")
    return lines


def _code(expr: fx.Expr, names: Mapping[str, str], local: Mapping[str, str]) -> str:
    """The Python expression computing `expr` exactly (a Fraction or an int); `local` names the
    value of each formula it uses."""
    match expr:
        case fx.Number(value):
            return repr(value) if value >= 0 else f"({value!r})"
        case fx.Var(var_id):
            return names[var_id]
        case fx.FormulaRef(ref):
            return local[ref]
        case fx.Binary(op, left, right):
            return _binary_code(op, _code(left, names, local), _code(right, names, local))
        case fx.Neg(inner):
            return f"(-{_code(inner, names, local)})"
        case fx.Call(function, args):
            return _call_code(function, [_code(a, names, local) for a in args])
        case fx.IfElse(cond, then, otherwise):
            a, b = _code(then, names, local), _code(otherwise, names, local)
            return f"({a} if {_condition(cond, names)} else {b})"
        case _:
            assert_never(expr)


def _binary_code(op: fx.Op, a: str, b: str) -> str:
    match op:
        case fx.Op.ADD | fx.Op.SUB | fx.Op.MUL:
            return f"({a} {op.value} {b})"
        case fx.Op.DIV:
            return f"_div({a}, {b})"
        case fx.Op.POW:
            return f"_pow({a}, {b}, {MAX_EXPONENT})"
        case _:
            assert_never(op)


def _call_code(function: fx.Function, parts: list[str]) -> str:
    match function:
        case fx.Function.FLOOR:
            return f"math.floor({parts[0]})"
        case fx.Function.CEIL:
            return f"math.ceil({parts[0]})"
        case fx.Function.ROUND:
            return f"_round_half_up({parts[0]})"
        case fx.Function.MIN | fx.Function.MAX:
            return f"{function.value}({', '.join(parts)})"
        case _:
            assert_never(function)


def _condition(cond: model.Condition, names: Mapping[str, str]) -> str:
    match cond:
        case model.Flag(var):
            return names[var]
        case model.Compare(var, op, value):
            return f"{names[var]} {_COMPARE[op]} {literal(value)}"
        case model.In(var, values):
            return f"{names[var]} in ({', '.join(literal(v) for v in values)},)"
        case model.Not(inner):
            return f"not ({_condition(inner, names)})"
        case model.All(parts):
            return "(" + " and ".join(_condition(p, names) for p in parts) + ")"
        case model.Any_(parts):
            return "(" + " or ".join(_condition(p, names) for p in parts) + ")"
        case _:
            assert_never(cond)
