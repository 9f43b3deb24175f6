"""A limit read in a context: which of its cases applies (the first whose condition holds), or,
while a variable a condition tests is left out, every case that still may.

`chartc lookup GAME/LIMIT` prints it; a `same` fact, a conflict's place and a range checked
`within` a limit read it; the generated `limit_<id>()` mirrors it (`compiler.emit.python.rules`).
Conditions are read by the one DRM condition evaluator (three-valued: a flag left out is false,
any other variable left out is unknown).
"""

from __future__ import annotations

from collections.abc import Mapping

from compiler import model
from compiler.diagnostics.suggest import did_you_mean
from compiler.engine.context import ContextValue, put_once, read_value
from compiler.engine.drms import Context, holds
from compiler.engine.problems import LookupUsage
from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True)
class LimitAnswer:
    """A limit in a context: `case`, the case that applies; or, when it depends on what was left
    out, `possible`, the cases that still may (in order; the last is certain to apply if none
    before it does), and `undecided`, the variables whose values would decide."""

    limit: model.Limit
    context: Mapping[str, object]
    case: model.LimitCase | None
    possible: tuple[model.LimitCase, ...] = ()
    undecided: tuple[str, ...] = ()

    @property
    def bound(self) -> model.Bound | None:
        return self.case.bound if self.case is not None else None


def read_limit(limit: model.Limit, context: Context) -> LimitAnswer:
    """The case of `limit` that applies in `context`, or the cases that may while it is undecided;
    a context no case covers (every condition false, none unconditional) gives no case."""
    possible: list[model.LimitCase] = []
    undecided: dict[str, None] = {}
    for case in limit.cases:
        verdict = True if case.when is None else holds(case.when, context)
        if verdict is False:
            continue
        if verdict is True and not possible:
            return LimitAnswer(limit, dict(context), case)
        possible.append(case)
        if verdict is True:
            break
        assert case.when is not None
        undecided.update((v, None) for v in sorted(model.condition_vars(case.when)) if context.get(v) is None)
    return LimitAnswer(limit, dict(context), None, tuple(possible), tuple(undecided))


def limit_variables(limit: model.Limit) -> tuple[str, ...]:
    """The context variables the limit's conditions test, in order of first use."""
    found: dict[str, None] = {}
    for case in limit.cases:
        if case.when is not None:
            found.update((v, None) for v in sorted(model.condition_vars(case.when)))
    return tuple(found)


def ask_limit(
    game: model.Game,
    limit: model.Limit,
    keys: Mapping[str, str],
    when: tuple[str, ...],
    sets: tuple[str, ...],
) -> LimitAnswer:
    """`chartc lookup GAME/LIMIT`: the limit in the context `--key`/`--set NAME=VALUE` and `--when
    FLAG` give (a limit has no keys of its own: `--key` names a context variable as `--set` does).

    Raises:
        LookupUsage: a name the limit's conditions do not test, a value of the wrong type, a name given twice.
    """
    tested = limit_variables(limit)
    context: dict[str, ContextValue] = {}
    for name in when:
        var = _variable(game, limit, tested, name.strip())
        if var.type is not model.ContextType.FLAG:
            raise LookupUsage(f"`{var.id}` is not a flag ({var.label}): give it a value, --set {var.id}=VALUE")
        put_once(context, var.id, True)
    pairs = [*(f"{k}={v}" for k, v in keys.items()), *sets]
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise LookupUsage(f"`{pair}`: write NAME=VALUE, e.g. --set month=1944-12")
        var = _variable(game, limit, tested, name.strip())
        put_once(context, var.id, read_value(game, var, text.strip()))
    return read_limit(limit, context)


def _variable(game: model.Game, limit: model.Limit, tested: tuple[str, ...], name: str) -> model.ContextVar:
    var = game.context.get(name)
    if var is None or var.id not in tested:
        if not tested:
            raise LookupUsage(f"limit `{limit.id}` applies always: it reads no context ({name} given)")
        hint = did_you_mean(name, tested) or ""
        raise LookupUsage(
            f"limit `{limit.id}` does not read `{name}`; its cases test "
            + ", ".join(f"{v} ({_kind(game.context[v])})" for v in tested)
            + (f"; {hint}" if hint.startswith("did you mean") else "")
        )
    return var


def _kind(var: model.ContextVar) -> str:
    return var.enum if var.type is model.ContextType.ENUM and var.enum else var.type.value
