"""The generated Python of rules without a table: `limit_<id>(*, context...) -> Bound` per limit
and the `LIMITS` table, and the `Choice` type of cells that offer outcomes to choose from.

A module whose game declares a limit or holds a choice carries the rules runtime
(`compiler/engine/runtime_rules.py`); `limit_<id>` reads its cases with the runtime's three-valued
conditions, as `chartc lookup GAME/LIMIT` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import assert_never

from compiler import model
from compiler.emit.python.layout import INDENT, docstring, fill
from compiler.emit.python.literals import runtime_condition
from compiler.emit.python.names import Namespace, identifier
from compiler.engine import runtime_rules
from compiler.engine.limits import limit_variables
from compiler.model.formulas import condition_text

_MARKER = "# ---- inlined into a generated module below this line"


def rules_runtime_code() -> str:
    """The rules runtime's source below its marker line, inlined after the module's runtime."""
    source = Path(runtime_rules.__file__).read_text(encoding="utf-8")
    return "\n\n" + source.split(_MARKER, 1)[1].strip("\n")


def game_has_rules(game: model.Game) -> bool:
    """Whether the game declares a limit or holds a choice (then its module carries the rules runtime)."""
    return bool(game.limits) or any(
        isinstance(v, model.Choice) for c in game.charts for r in c.rows for v in r.values
    )


def limit_names(game: model.Game, names: Namespace) -> dict[str, str]:
    """Each limit's function name, unique in the module."""
    return {lim.id: names.numbered(f"limit_{identifier(lim.id)}") for lim in game.limits}


def limits_code(
    game: model.Game, functions: Mapping[str, str], context: Mapping[str, str], enum_aliases: Mapping[str, str]
) -> str:
    """Every limit's cases and function (context: each variable's parameter name) and `LIMITS`."""
    parts = [_limit(game, lim, functions[lim.id], context, enum_aliases) for lim in game.limits]
    entries = [f"{INDENT}{lim.id!r}: {functions[lim.id]}," for lim in game.limits]
    parts.append("\n".join(["", "", "LIMITS: Final[dict[str, Callable[..., Bound]]] = {", *entries, "}"]))
    return "\n".join(parts)


def _limit(
    game: model.Game,
    limit: model.Limit,
    function: str,
    context: Mapping[str, str],
    enum_aliases: Mapping[str, str],
) -> str:
    where = repr(limit.id)
    cases_name = f"_{function.upper()}_CASES"
    lines = ["", "", f"{cases_name}: Final[tuple[tuple[_Condition | None, Bound], ...]] = ("]
    for case in limit.cases:
        bound = case.bound
        fields = [
            f"'kind': {bound.kind.value!r}", f"'min': {bound.low!r}", f"'max': {bound.high!r}",
            f"'text': {bound.text!r}", f"'cite': {case.cite!r}",
        ]
        one = f"{INDENT}({runtime_condition(case.when)}, {{{', '.join(fields)}}}),"
        if len(one) <= 120:
            lines.append(one)
            continue
        lines += [f"{INDENT}(", f"{INDENT * 2}{runtime_condition(case.when)},", f"{INDENT * 2}{{"]
        for field in fields:
            key, value = field.split(": ", 1)
            # a long cite on a line of its own: a chart text alone may run past the line length
            fits = len(f"{INDENT * 3}{field},") <= 120
            lines += [f"{INDENT * 3}{field},"] if fits else [f"{INDENT * 3}{key}:", f"{INDENT * 4}{value},"]
        lines += [f"{INDENT * 2}}},", f"{INDENT}),"]
    lines += [")", "", ""]
    params, checks, items = [], [], []
    for var_id in limit_variables(limit):
        var = game.context[var_id]
        name = context[var_id]
        spot = f"{where}, {name!r}, {name}"
        items.append(f"{var_id!r}: {name}")
        match var.type:
            case model.ContextType.FLAG:
                params.append(f"{name}: bool = False")
                checks.append(f"_check_flag({spot})")
                continue
            case model.ContextType.INT:
                annotation, check = "int", f"_check_int({spot})"
            case model.ContextType.MONTH:
                annotation, check = "str", f"_check_month({spot})"
            case model.ContextType.ENUM:
                annotation = enum_aliases[var.enum or ""]
                check = f"_check_member({spot}, get_args({annotation}))"
            case _:
                assert_never(var.type)
        params.append(f"{name}: {annotation} | None = None")
        checks.append(f"if {name} is not None:\n{INDENT}{INDENT}{check}")
    head = f"def {function}(" + ("*, " + ", ".join(params) if params else "") + ") -> Bound:"
    if len(head) > 120:
        head = "\n".join([f"def {function}(", f"{INDENT}*,", *(f"{INDENT}{p}," for p in params), ") -> Bound:"])
    title = limit.title + (f" (rule {limit.rule})" if limit.rule else "")
    doc = [title + (f": {limit.counts}." if limit.counts else ".")]
    doc += ["", "The first case whose condition holds applies:"]
    for case in limit.cases:
        when = f"when {condition_text(case.when)}" if case.when is not None else "otherwise"
        doc.append(f"{case.bound.text} {when}" + (f" (rule {case.cite})" if case.cite else ""))
    if params:
        doc += ["", "A value left as None is unknown: ValueError when the answer depends on it."]
    head_line = "context: dict[str, _Context] = {"
    body = [*checks, *(line.removeprefix(INDENT) for line in fill(head_line, items, "}", INDENT))]
    body.append(f"return _limit({where}, {cases_name}, context)")
    return "\n".join([*lines, head, docstring("\n".join(doc), INDENT), *(INDENT + b for b in body)])
