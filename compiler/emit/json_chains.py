"""The game JSON's chain graph: each chained cell as an edge from its chart and row to the chart the
player rolls on next, with the DRM it carries and where each key of that chart comes from.

A key's source is the first of the runtime's `_next_key` order that can give it: the reference's
own `(key=value)`, the step's key of that name, the row's column of that name, else the reader
(`chartc lookup --follow --key`, a generated `follow_<id>`'s keyword of that name).
"""

from __future__ import annotations

from typing import Any

from compiler import model
from compiler.engine.chains import chains_in, has_chains, target_of


def chains_json(game: model.Game) -> list[dict[str, Any]]:
    """Every edge of the game's chain graph, in chart order, then row and column order."""
    edges: list[dict[str, Any]] = []
    for chart in game.charts:
        if not has_chains(chart):
            continue
        for index, row in enumerate(chart.rows):
            for column, value in zip(chart.columns, row.values, strict=True):
                for move in chains_in(value):
                    edges.append(_edge(game, chart, index, column, move))
    return edges


def _edge(
    game: model.Game, chart: model.Chart, index: int, column: model.Column, move: model.ChartRef | model.RollAgain
) -> dict[str, Any]:
    target = target_of(game, chart, move)
    again = isinstance(move, model.RollAgain)
    to = chart.address if again else move.address if isinstance(move, model.ChartRef) else None
    keys = [] if again or target is None else [_key_source(chart, move, key) for key in target.keys]
    return {
        "from": chart.address,
        "row": index,
        "column": column.id,
        "to": to,
        "again": again,
        "drm": move.drm or 0,
        "keys": keys,
        "ends": target is None or target.kind is model.ChartKind.EXTERNAL,
    }


def _key_source(chart: model.Chart, move: model.ChartRef | model.RollAgain, key: model.Key) -> dict[str, Any]:
    """Where the next chart's key `key` comes from: `reference` (with its value as written),
    `key` (the step's own key), `column` (the row's cell) or `given` (the reader)."""
    written = {k.key: k.value for k in move.keys} if isinstance(move, model.ChartRef) else {}
    if key.id in written:
        return {"key": key.id, "from": "reference", "value": written[key.id]}
    if any(k.id == key.id for k in chart.keys):
        return {"key": key.id, "from": "key", "value": None}
    if any(c.id == key.id for c in chart.columns):
        return {"key": key.id, "from": "column", "value": None}
    return {"key": key.id, "from": "given", "value": None}
