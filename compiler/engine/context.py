"""The DRM context a player gives on the command line: `--when FLAG` and `--set NAME=VALUE`.

`chartc lookup` and `chartc odds` read them against the game's declared context variables, so a
typo is a usage error naming the allowed names or values (with did-you-mean), never a silent 0.
The DRM total itself comes from `compiler.engine.drms`; this module only reads and types the input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import assert_never

from compiler import model
from compiler.diagnostics.suggest import did_you_mean
from compiler.engine import shifts as column_shifts
from compiler.engine.drms import Breakdown, evaluate, holds
from compiler.engine.problems import LookupUsage
from compiler.model.calendar import Month
from dsl.lazy_dataclass import dataclass

# What a context variable holds once read: a flag, an int, a month or an enum member's id.
ContextValue = bool | int | Month | model.MemberId

# A number as typed on the command line: ASCII digits only. `str.isdigit` also accepts
# superscripts (`³`) and other scripts' digits (Arabic-Indic `٣`), which `int` would read silently.
_NUMBER = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 30  # far beyond any die, factor or value domain; keeps `int()` away from its digit limit


def read_context(
    game: model.Game, chart: model.Chart, when: tuple[str, ...], sets: tuple[str, ...]
) -> dict[str, ContextValue]:
    """`--when FLAG` and `--set NAME=VALUE` as {context variable id: typed value}.

    Only the variables the chart reads (`tested_variables`) may be given, so a name that cannot
    change the answer is reported rather than ignored.

    Raises:
        LookupUsage: an unknown or repeated name, a flag given a value, a value that is not of the
            variable's type, or a chart without DRMs.
    """
    tested = tested_variables(chart)
    def variable(name: str, option: str) -> model.ContextVar:
        return _variable(game, chart, tested, name, option)

    return read_given(game, when, sets, variable, "month=1944-12")


def read_given(
    game: model.Game,
    when: tuple[str, ...],
    sets: tuple[str, ...],
    variable: Callable[[str, str], model.ContextVar],
    example: str,
) -> dict[str, ContextValue]:
    """`--when FLAG` and `--set NAME=VALUE` as {context variable id: typed value}, each name bound
    by `variable(name, option)` (which refuses a name the question does not read); `example` is a
    `NAME=VALUE` for the message on a `--set` without `=`.

    Raises:
        LookupUsage: a name `variable` refuses or given twice, a flag given a value, a value of
            the wrong type.
    """
    given: dict[str, ContextValue] = {}
    for name in when:
        var = variable(name.strip(), "--when")
        if var.type is not model.ContextType.FLAG:
            raise LookupUsage(f"`{var.id}` is not a flag ({var.label}): give it a value, --set {var.id}=VALUE")
        put_once(given, var.id, True)
    for pair in sets:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise LookupUsage(f"--set `{pair}`: write NAME=VALUE, e.g. --set {example}")
        var = variable(name.strip(), "--set")
        put_once(given, var.id, read_value(game, var, text.strip()))
    return given


def tested_variables(chart: model.Chart) -> tuple[str, ...]:
    """The context variables the chart reads, in the order of first use: its DRMs' conditions
    and per-N counts, its `roll ... when` alternatives and overlays, its column shifts (a CRT)."""
    keys = {k.id for k in chart.keys}
    found: dict[str, None] = {}
    for drm in chart.drms:
        for var in (*model.condition_variables(drm.when), *((drm.per.var,) if drm.per else ())):
            found.setdefault(var)
    for when in (*(a.when for a in chart.dice_alternatives), *(o.when for o in chart.overlays)):
        for var in model.condition_variables(when):
            found.setdefault(var)
    for var in column_shifts.variables(chart.shifts) if chart.shifts is not None else ():
        found.setdefault(var)
    return tuple(v for v in found if v not in keys)


def read_value(game: model.Game, var: model.ContextVar, text: str) -> ContextValue:
    """The value `text` names for a context variable: an int, a month `1944-12` inside the
    calendar, or an enum member by id, label or alias (case-insensitive).

    Raises:
        LookupUsage: the text is not a value of the variable, with the allowed values.
    """
    match var.type:
        case model.ContextType.FLAG:
            raise LookupUsage(f"`{var.id}` is a flag ({var.label}): write --when {var.id} (leave it out for false)")
        case model.ContextType.INT:
            return _read_int(var, text)
        case model.ContextType.MONTH:
            return _read_month(game, var, text)
        case model.ContextType.ENUM:
            return _read_member(game, var, text)
        case _:
            assert_never(var.type)


def _variable(
    game: model.Game, chart: model.Chart, tested: tuple[str, ...], name: str, option: str
) -> model.ContextVar:
    if not tested:
        raise _nothing_to_read(chart, option)
    var = game.context.get(name)
    if var is None or var.id not in tested:
        hint = did_you_mean(name, tested) or ""
        raise LookupUsage(
            f"chart `{chart.address}` does not read `{name}`; it reads "
            + ", ".join(_described(game.context[v]) for v in tested)
            + (f"; {hint}" if hint.startswith("did you mean") else "")
        )
    return var


def _nothing_to_read(chart: model.Chart, option: str) -> LookupUsage:
    return LookupUsage(
        f"chart `{chart.address}` has no DRMs, column shifts or dice conditions: {option} does not apply"
        + (" (use --drm N)" if chart.dice is not None else "")
    )


def refuse_read_drms(charts: Sequence[model.Chart]) -> None:
    """`--read-drms` on charts (one, or every chart of a chain) that declare no DRM, column shift
    or dice condition has nothing to read: refused as `--when` is there.

    Raises:
        LookupUsage: none of `charts` has any.
    """
    if not any(c.drms or c.shifts is not None or c.dice_alternatives or c.overlays for c in charts):
        raise _nothing_to_read(charts[0], "--read-drms")


def _described(var: model.ContextVar) -> str:
    """`fb_attack (flag)`, `month (month)`, `kills (int)`: a name with how to give it."""
    return f"{var.id} ({var.enum if var.type is model.ContextType.ENUM else var.type.value})"


def put_once(given: dict[str, ContextValue], var_id: str, value: ContextValue) -> None:
    """Record one context value given on the command line; a second value for it is a usage error."""
    if var_id in given:
        raise LookupUsage(f"`{var_id}` is given twice")
    given[var_id] = value


def read_number(text: str, what: str) -> int:
    """A whole number typed in ASCII digits with an optional sign, at most `MAX_DIGITS` long.

    Raises:
        LookupUsage: anything else; the message names `what` was asked for.
    """
    stripped = text.strip()
    if not _NUMBER.fullmatch(stripped):
        raise LookupUsage(f"`{text}` is not {what}: give a whole number in ASCII digits (0-9)")
    digits = len(stripped.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise LookupUsage(
            f"a number of {digits} digits is not {what}: it is far beyond any die, factor or modifier "
            f"(at most {MAX_DIGITS} digits)"
        )
    return int(stripped)


def _read_int(var: model.ContextVar, text: str) -> int:
    number = read_number(text, f"a value of `{var.id}` ({var.label})")
    low, high = var.low, var.high
    if (isinstance(low, int) and number < low) or (isinstance(high, int) and number > high):
        shown = f"{low if low is not None else ''}-{high if high is not None else ''}"
        raise LookupUsage(f"{var.id} {number} is outside its declared range {shown} ({var.label})")
    return number


def _read_month(game: model.Game, var: model.ContextVar, text: str) -> Month:
    month = Month.parse(text)
    if month is None:
        raise LookupUsage(f"`{text}` is not a value of `{var.id}` ({var.label}): give a month YYYY-MM, e.g. 1944-12")
    if game.calendar is not None and not game.calendar[0] <= month <= game.calendar[1]:
        first, last = game.calendar
        raise LookupUsage(f"{var.id} {month} is outside the game's calendar ({first} to {last})")
    return month


def _read_member(game: model.Game, var: model.ContextVar, text: str) -> model.MemberId:
    enum = game.enums.get(var.enum or "")
    if enum is None:  # a resolved game binds every enum-typed variable
        raise LookupUsage(f"`{var.id}` has no enum in this game")
    member = enum.member(text)
    if member is None:
        hint = did_you_mean(text, enum.spellings)
        values = ", ".join(f'{m.id} ("{m.label}")' for m in enum.members)
        hint_text = f"{hint} " if hint else ""
        raise LookupUsage(f"`{text}` is not a value of `{var.id}` ({var.label}): {hint_text}values are {values}")
    return model.MemberId(member.id)


def context_json(context: Mapping[str, ContextValue]) -> dict[str, bool | int | str]:
    """The given context as JSON values (months and member ids as their text)."""
    return {k: v if isinstance(v, bool | int) else str(v) for k, v in sorted(context.items())}


@dataclass(frozen=True)
class ModifierAnswer:
    """The DRM total of one question: the chart's DRMs read in the given context (None when no
    `--when`/`--set` was given, so the rules were not read), plus the `--drm` given on top.

    Attributes:
        context: the context as given (flags, ints, months, member ids by variable id).
        breakdown: the chart's DRMs that apply and their (clamped) total, or None.
        extra: the `--drm` total added on top.
        undecided: the variables left out that a DRM's condition needed (that DRM did not apply).
    """

    context: Mapping[str, ContextValue]
    breakdown: Breakdown | None
    extra: int
    undecided: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        """The DRM added to the natural roll."""
        return (self.breakdown.total if self.breakdown is not None else 0) + self.extra


def read_modifiers(
    chart: model.Chart,
    context: Mapping[str, ContextValue] | None,
    keys: tuple[tuple[model.Key, model.Member], ...],
    extra: int,
) -> ModifierAnswer:
    """The DRM total for a question: with a context, the chart's DRMs evaluated on it and on the
    chart's keys (for DRMs that test them), plus `extra`; without, `extra` alone."""
    if context is None:
        return ModifierAnswer({}, None, extra)
    full: dict[str, ContextValue] = {k.id: model.MemberId(m.id) for k, m in keys}
    full.update(context)
    undecided = tuple(dict.fromkeys(v for drm in chart.drms for v in _undecided(drm, full)))
    return ModifierAnswer(dict(context), evaluate(chart, full), extra, undecided)


def _undecided(drm: model.Drm, context: Mapping[str, ContextValue]) -> tuple[str, ...]:
    """The variables left out of `context` that keep the DRM from applying (none when it is decided)."""
    decided = True if drm.when is None else holds(drm.when, context)
    if decided is None:
        return tuple(v for v in model.condition_variables(drm.when) if v not in context)
    if decided and drm.per is not None and drm.per.var not in context:
        return (drm.per.var,)
    return ()
