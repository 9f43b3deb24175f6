"""The generated Python of chained results: cell values, their types, and `follow_<id>` functions.

A module whose charts hold chained cells carries the chain runtime (`compiler/engine/runtime/chains.py`)
and, for each chart with chained cells, `follow_<id>(rng, *, keys..., drm=0)`: it rolls on the
chart with the module's own `roll_<id>`/`lookup_<id>` and follows the chain to its end, as
`chartc lookup --follow --seed N` does with the same generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from compiler import model
from compiler.emit.python.layout import INDENT, fill, tuple_lines
from compiler.engine.chains import chains_in, has_chains
from compiler.engine.follow import reachable_charts


class _Param(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def annotation(self) -> str: ...
    @property
    def check(self) -> str: ...


class _Emitter(Protocol):
    chart: model.Chart
    address: str

    def lookup_key_params(self) -> Sequence[_Param]: ...

    def reads_situation(self) -> bool: ...

    def situation_vars(self) -> list[str]: ...

    def var_literal(self, var_id: str) -> str: ...

    def key_annotation(self, key: model.Key) -> str: ...

    def key_check(self, key: model.Key, name: str) -> str: ...

    @property
    def const(self) -> str: ...

    def function(self, name: str, params: list[str], returns: str, doc: str, body: list[str]) -> list[str]: ...

    @property
    def ident(self) -> str: ...


def game_has_chains(game: model.Game) -> bool:
    """Whether some chart of the game holds a chained cell (then its module carries the chain runtime)."""
    return any(has_chains(c) for c in game.charts)


def chain_types(values: list[model.Value]) -> list[str]:
    """The Python types of the chained cells among a column's `values`, in a fixed order."""
    found = {_chain_type(v) for v in values}
    return [t for t in ("ChartRef", "ChainRef", "RollAgain", "CellRoll") if t in found]


def _chain_type(value: model.Value) -> str | None:
    if isinstance(value, model.ChartRef):
        return "ChainRef" if _is_chain_ref(value) else "ChartRef"
    if isinstance(value, model.RollAgain):
        return "RollAgain"
    if isinstance(value, model.SubRoll):
        return "CellRoll"
    return None


def _is_chain_ref(ref: model.ChartRef) -> bool:
    return ref.chained or bool(ref.keys) or ref.drm is not None


def chain_value(game: model.Game, value: model.ChartRef | model.RollAgain | model.SubRoll) -> str:
    """A chained cell as a Python literal: `{'chart': 'B6', 'keys': {...}, 'drm': 1}` (a plain
    `[B6]` is `{'chart': 'B6'}`), `{'again': True, 'drm': 0}`, or a roll in the cell
    `{'count': 1, 'sides': 6, 'outcomes': ((1, 4, 'fw190a6'), (5, 6, 'fw190a7'))}`."""
    if isinstance(value, model.ChartRef):
        if not _is_chain_ref(value):
            return repr({"chart": value.address})
        # key values as written (id or printed label): the target's roll_<id> reads either
        return repr({"chart": value.address, "keys": {k.key: k.value for k in value.keys}, "drm": value.drm or 0})
    if isinstance(value, model.RollAgain):
        return repr({"again": True, "drm": value.drm or 0})
    outcomes = ", ".join(f"({o.range.low!r}, {o.range.high!r}, {_literal(game, o.value)})" for o in value.outcomes)
    trailing = "," if len(value.outcomes) == 1 else ""
    return f"{{'count': {value.dice.count!r}, 'sides': {value.dice.sides!r}, 'outcomes': ({outcomes}{trailing})}}"


def _literal(game: model.Game, value: model.Value) -> str:
    if isinstance(value, model.ChartRef | model.RollAgain | model.SubRoll):
        return chain_value(game, value)
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, tuple):
        return repr(tuple(value))
    return repr(value)


class _Scope(Protocol):
    def child(self, fixed: Iterable[str]) -> _Scope: ...

    def parameter(self, name: str) -> str: ...


def follow_code(game: model.Game, emitters: Mapping[int, _Emitter], scope: _Scope) -> str:
    """The step function of every chart a chain can reach, the tables `_follow` reads, and a
    `follow_<id>` per chart with chained cells."""
    starts = [c for c in game.charts if has_chains(c)]
    reached: dict[str, model.Chart] = {}
    for chart in starts:
        for c in reachable_charts(game, chart):
            if _steppable(c):
                reached.setdefault(c.address, c)
    ordered = [c for c in game.charts if c.address in reached and reached[c.address] is c]
    lines = ["", "", "# ---- following chained results"]
    for chart in ordered:
        lines += ["", "", *_step_function(emitters[id(chart)])]
    lines += ["", "", "_CHAIN_STEPS: Final[dict[str, _Stepper]] = {"]
    lines += [f"{INDENT}{c.address!r}: _step_{emitters[id(c)].ident}," for c in ordered]
    lines.append("}")
    keys = [f"{c.address!r}: {tuple(k.id for k in c.keys)!r}" for c in ordered]
    lines += fill("_CHAIN_KEYS: Final[dict[str, tuple[str, ...]]] = {", keys, "}")
    for chart in starts:
        if _steppable(chart):
            reached_emitters = [emitters[id(c)] for c in reachable_charts(game, chart) if _steppable(c)]
            lines += ["", "", *_follow_function(emitters[id(chart)], reached_emitters, scope)]
    return "\n".join(lines)


def _steppable(chart: model.Chart) -> bool:
    """Charts a generated chain can roll on: read by dice (one dice form) or by keys."""
    if chart.kind is model.ChartKind.ROLL:
        return not chart.dice_alternatives and chart.repeat == 1
    return chart.kind is model.ChartKind.REFERENCE


def _key_arguments(emitter: _Emitter) -> list[str]:
    return [f"{p.name}=cast({p.annotation}, keys[{p.id!r}])" for p in emitter.lookup_key_params()]


def _step_function(emitter: _Emitter) -> list[str]:
    chart = emitter.chart
    signature = ["rng: random.Random", "keys: Mapping[str, str]", "drm: int", "situation: _Situation"]
    doc = (f"One step of a chain on {chart.address!r}: its natural roll, DRM total, modified roll, row and the DRMs\n"
           "that applied.")
    if chart.kind is model.ChartKind.ROLL:
        situation = [f"set_=_situation_for(_{emitter.const}_READS, situation)"] if emitter.reads_situation() else []
        call = ", ".join(["rng", *_key_arguments(emitter), *situation, "drm=drm"])
        body = [f"rolled = roll_{emitter.ident}({call})"]
        body.append("return rolled['natural'], rolled['drm'], rolled['modified'], rolled['values'], rolled['drms']")
    else:
        call = ", ".join(_key_arguments(emitter))
        body = [f"return None, drm, None, lookup_{emitter.ident}({call}), ()"]
    return emitter.function(f"_step_{emitter.ident}", signature, "_StepMade", doc, body)


def _follow_function(emitter: _Emitter, reached: Sequence[_Emitter], scope: _Scope) -> list[str]:
    """`follow_<id>`: the chart's keys, the keys of later charts that no step may give (optional),
    the situation every chart's DRMs read (`when=`, `set_=`) and the first roll's DRM."""
    chart = emitter.chart
    params = emitter.lookup_key_params()
    own = {p.id for p in params}
    later: dict[str, tuple[_Emitter, model.Key]] = {}
    for other in reached[1:]:
        for key in other.chart.keys:
            if key.id not in own and key.id not in later:
                later[key.id] = (other, key)
    names = scope.child([p.name for p in params])
    extra = [(key_id, names.parameter(key_id), other.key_annotation(key)) for key_id, (other, key) in later.items()]
    checks = [later[key_id][0].key_check(later[key_id][1], name) for key_id, name, _ in extra]
    reads: dict[str, str] = {}
    for other in reached:
        if other.reads_situation():
            for var in other.situation_vars():
                reads.setdefault(var, other.var_literal(var))
    signature = ["rng: random.Random", "*", *(f"{p.name}: {p.annotation}" for p in params)]
    signature += [f"{name}: {annotation} | None = None" for _, name, annotation in extra]
    signature += ["when: Iterable[str] = ()", "set_: Mapping[str, object] | None = None", "drm: int = 0"]
    moves = [m for row in chart.rows for v in row.values for m in chains_in(v)]
    targets = sorted({m.address for m in moves if isinstance(m, model.ChartRef)})
    sends = f" (it sends the reader to {', '.join(targets)})" if targets else ""
    later_doc = (f"\n\nA key of a later chart ({', '.join(name for _, name, _ in extra)}) is read from the step that\n"
                 "leads there (the reference, the step's keys, the row), else from the value given here."
                 if extra else "")
    variables = ", ".join(reads) or "none"
    doc = (
        f"Roll on {chart.address!r} with `rng` and follow its chained results to the end{sends}.{later_doc}\n\n"
        f"Given `when` (flags) or `set_` (other values), every chart's DRMs are read in that situation ({variables}),\n"
        "as chartc lookup --follow --when/--set reads them; `drm` is added to the first roll only (a later roll\n"
        "gets the DRM its reference carries).\n\n"
        "Returns each step: the chart, its natural roll, DRM total, modified roll, its row's values with the\n"
        "rolls inside its cells made, those rolls and the DRMs that applied. Raises ValueError for an argument\n"
        "that cannot occur or a key no step gives, NoRowError when a roll selects no row."
    )
    const = emitter.const
    body = [f"_check_rng({emitter.address}, rng)", *(p.check for p in params if p.check)]
    body.append(f"_check_int({emitter.address}, 'drm', drm)")
    given = "{" + ", ".join(f"{p.id!r}: {p.name}" for p in params) + "}"
    body.append(f"given: dict[str, str] = {given}" if extra else "")
    body += [f"if {name} is not None:\n{INDENT}{check}\n{INDENT}given[{key_id!r}] = {name}"
             for (key_id, name, _), check in zip(extra, checks, strict=True)]
    body.append("situation: _Situation = None")
    body.append(f"if when or set_ is not None:\n{INDENT}situation = _given_context({emitter.address}, "
                f"_{const}_CHAIN_READS, when, set_)")
    start = "given" if extra else given
    call = [emitter.address, "rng", start, "drm", "_CHAIN_STEPS", "_CHAIN_KEYS", "situation=situation"]
    body.append("\n".join(line.removeprefix(INDENT) for line in fill("return _follow(", call, ")", INDENT)))
    constant = tuple_lines(f"_{const}_CHAIN_READS: Final[tuple[_Var, ...]] = (", list(reads.values()))
    return [*constant, "", "", *emitter.function(f"follow_{emitter.ident}", signature, "list[Step]", doc,
                                                  [b for b in body if b])]
