"""Checks on chained results: where each reference sends the reader (C453), the keys it gives (C450),
the DRM it carries (C451), and loops of references that can never end (C452).

An unknown target is C201, reported when the reference was typed (`compiler.resolve`).
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler import model
from compiler.diagnostics import Applicability, Sink, Slot, codes, fixes
from compiler.diagnostics.suggest import suggestion
from compiler.engine.chains import ChainKeyMissing, branches, chains_in, has_chains, target_combo, target_of
from compiler.engine.chances import chances, unreachable_rows
from compiler.model.dice import DIGIT_FORMS
from dsl.shared import Span

# The loop check visits each (chart, key values) once; a chart with more key combinations than
# this is left to `chartc odds --follow`, which refuses a loop for the keys it is asked about.
_MAX_COMBOS = 2000

_Node = tuple[str, tuple[str, ...]]


def check_chains(game: model.Game, sink: Sink) -> None:
    """Every chained cell of the game: its target, keys and DRM, then loops without an exit."""
    for chart in game.charts:
        for row in chart.rows:
            for value in row.values:
                for move in chains_in(value):
                    _check_move(game, chart, move, row.span, sink)
    _check_loops(game, sink)


def _check_move(
    game: model.Game, chart: model.Chart, move: model.ChartRef | model.RollAgain, row_span: Span, sink: Sink
) -> None:
    span = move.span or row_span
    target = target_of(game, chart, move)
    if target is None:  # C201, reported when the cell was typed
        return
    name = "this chart" if isinstance(move, model.RollAgain) else f"`{target.address}`"
    if not _can_roll_on(target, again=isinstance(move, model.RollAgain)):
        sink.emit(
            codes.CHAIN_TARGET,
            f"chart `{chart.address}` sends the reader to {name}, which {_why_not(target)}",
            span,
            "send the reader to a chart read by dice or by keys, or declare the target `external`",
        )
        return
    if isinstance(move, model.ChartRef) and target.kind is not model.ChartKind.EXTERNAL:
        _check_keys(chart, move, target, span, sink)
    if move.drm and not _has_modified_roll(target):
        sink.emit(
            codes.CHAIN_DRM,
            f"chart `{chart.address}` carries a DRM of {move.drm:+d} to {name}, which has no modified roll "
            f"({_why_no_drm(target)})",
            span,
            "delete the DRM, or send the reader to a chart read by dice",
            fix=_without_drm(move),
        )


def _without_drm(move: model.ChartRef | model.RollAgain) -> fixes.Fix | None:
    """C451's fix: the chained cell written again without its DRM (`-> [B] (side=ours, +1)` ->
    `-> [B] (side=ours)`). Unsafe: the print may mean a DRM on another chart."""
    if move.span is None:
        return None
    args = []
    for k in move.keys if isinstance(move, model.ChartRef) else ():
        value = fixes.token(Slot.VALUE, k.value)
        if value is None:
            return None
        args.append(f"{k.key}={value}")
    where = f"[{move.address}]" if isinstance(move, model.ChartRef) else "again"
    text = f"-> {where}" + (f" ({', '.join(args)})" if args else "")
    return fixes.Fix("delete the DRM the chained cell carries", (fixes.Edit(move.span, text),), Applicability.UNSAFE)


def _can_roll_on(target: model.Chart, again: bool) -> bool:
    if again:
        return target.kind is model.ChartKind.ROLL
    return target.kind in (model.ChartKind.ROLL, model.ChartKind.REFERENCE, model.ChartKind.EXTERNAL)


def _why_not(target: model.Chart) -> str:
    match target.kind:
        case model.ChartKind.DRMS:
            return "lists DRMs only (its table is not printed)"
        case model.ChartKind.ODDS:
            return "is an odds rule (it picks a CRT column, it is not rolled on)"
        case model.ChartKind.VALUE:
            return f"is read by a value ({target.value_key.label if target.value_key else 'a number'}), not rolled on"
        case _:
            return "is not read by dice"


def _has_modified_roll(target: model.Chart) -> bool:
    if target.kind is model.ChartKind.EXTERNAL:
        return True  # its rows are not transcribed: nothing to check against
    dice = target.dice
    if target.kind is not model.ChartKind.ROLL or dice is None:
        return False
    return dice.form not in DIGIT_FORMS or target.drm_meaning is not None


def _why_no_drm(target: model.Chart) -> str:
    if target.kind is model.ChartKind.REFERENCE:
        return "it is read by its keys only"
    return f"it is read by {target.dice.text if target.dice else 'dice'} digit by digit and states no `drm_meaning`"


def _check_keys(chart: model.Chart, move: model.ChartRef, target: model.Chart, span: Span, sink: Sink) -> None:
    """C450: each key the reference gives must be a key of the target, with one of its values."""
    keys = {k.id: k for k in target.keys}
    for given in move.keys:
        where = given.span or span
        key = keys.get(given.key)
        if key is None:
            known = ", ".join(f"`{k}`" for k in keys) or "no keys"
            hint, close = suggestion(given.key, keys)
            sink.emit(
                codes.CHAIN_KEY,
                f"chart `{chart.address}` gives key `{given.key}` to `{target.address}`, which is read by {known}",
                where,
                hint or "give only the keys the target chart is read by",
                fix=_pair_fix(given, fixes.rename(where, given.key, close, Slot.NAME, keys), True),
            )
        elif key.enum.member(given.value) is None:
            hint, close = suggestion(given.value, key.enum.spellings)
            sink.emit(
                codes.CHAIN_KEY,
                f"chart `{chart.address}` gives `{given.value}` for key `{key.id}` of `{target.address}`, which is "
                f"not a value of it",
                where,
                hint or "values: " + ", ".join(m.id for m in key.enum.members),
                fix=_pair_fix(given, fixes.rename(where, given.value, close, Slot.VALUE, key.enum.spellings), False),
            )


def _pair_fix(given: model.ChainKey, renamed: fixes.Fix | None, of_key: bool) -> fixes.Fix | None:
    """C450's did-you-mean (`renamed`: the key's or the value's) as an edit of the whole `key=value`,
    which is what its span holds."""
    if given.span is None or renamed is None:
        return None
    new = renamed.edits[0].text
    pair = f"{new}={fixes.token(Slot.VALUE, given.value)}" if of_key else f"{given.key}={new}"
    return fixes.Fix(renamed.message, (fixes.Edit(given.span, pair),), renamed.applicability)


# ---- loops that can never end ------------------------------------------------------------------------


def _check_loops(game: model.Game, sink: Sink) -> None:
    """C452: a state (chart, key values) reached by a chain from which no roll leads to an end."""
    graph: dict[_Node, tuple[bool, list[tuple[_Node, Span]]]] = {}
    for chart in game.charts:
        if not has_chains(chart) or len(chart.key_combinations()) > _MAX_COMBOS:
            continue
        if game.chart(chart.address) is not chart:  # a chart ID declared twice (C202): its states are the first's
            continue
        for combo in chart.key_combinations():
            _explore(game, (chart.address, combo), graph)
    ends = {node for node, (exits, _) in graph.items() if exits}
    changed = True
    while changed:
        changed = False
        for node, (_, edges) in graph.items():
            if node not in ends and any(target in ends for target, _ in edges):
                ends.add(node)
                changed = True
    reported: set[str] = set()
    for node, (_, edges) in graph.items():
        if node in ends or node[0] in reported or not edges:
            continue
        reported.add(node[0])
        loop = sorted({target[0] for target, _ in edges} | {node[0]})
        sink.emit(
            codes.CHAIN_CYCLE,
            f"chart `{node[0]}` sends the reader round a loop that can never end: no roll on "
            + ", ".join(f"`{a}`" for a in loop)
            + " leads out of it",
            edges[0][1],
            "give some row on the loop a result that does not send the reader on",
        )


def _explore(game: model.Game, start: _Node, graph: dict[_Node, tuple[bool, list[tuple[_Node, Span]]]]) -> None:
    todo = [start]
    while todo:
        node = todo.pop()
        if node in graph:
            continue
        chart = game.chart(node[0])
        if chart is None or chart.kind not in (model.ChartKind.ROLL, model.ChartKind.REFERENCE):
            graph[node] = (True, [])
            continue
        exits, edges = _node_edges(game, chart, node[1])
        graph[node] = (exits, edges)
        todo.extend(target for target, _ in edges if target not in graph)


def _node_edges(game: model.Game, chart: model.Chart, combo: tuple[str, ...]) -> tuple[bool, list[tuple[_Node, Span]]]:
    """Whether some row of the chart for these keys ends the chain, and where the others lead."""
    exits = _may_select_no_row(chart, combo)
    edges: list[tuple[_Node, Span]] = []
    for row in _live_rows(chart, combo):
        for branch in branches(row):
            move = branch.move
            target = target_of(game, chart, move) if move is not None else None
            if move is None or target is None or target.kind not in (model.ChartKind.ROLL, model.ChartKind.REFERENCE):
                exits = True
                continue
            try:
                next_combo = target_combo(chart, combo, branch.values, move, target, {})
            except ChainKeyMissing:  # the reader gives that key: the loop cannot be decided here
                exits = True
                continue
            edges.append(((target.address, next_combo), move.span or row.span))
    return exits, edges


def _live_rows(chart: model.Chart, combo: tuple[str, ...]) -> Iterator[model.Row]:
    """The chart's rows for these keys that some roll can select."""
    dead = {id(r) for r in unreachable_rows(chart)} if chart.kind is model.ChartKind.ROLL else set()
    for row in chart.rows_for(combo):
        if id(row) not in dead:
            yield row


def _may_select_no_row(chart: model.Chart, combo: tuple[str, ...]) -> bool:
    if chart.kind is model.ChartKind.REFERENCE:
        return not chart.rows_for(combo)
    return chart.dice is not None and chances(chart, combo, 0).no_row > 0
