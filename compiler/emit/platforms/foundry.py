"""`chartc export GAME --to foundry`: a Foundry VTT module whose compendium holds the game's charts
as RollTable documents, in the JSON source form Foundry's own CLI packs (`compilePack`).

One RollTable per roll chart and key value combination (a chart keyed by interceptor type gives a
Piston-engined table and a Jet table), in a compendium folder per chart that has several. A
table's formula is the chart's dice in Foundry's dice syntax (`2d6`, `1d100` for a percentile,
`2d10kl` for the lower of two d10s, `max(1d6 - 3, 0)`); each row is a result with its range, the
text a player reads, and, for a chained cell ("roll on [B6]", "roll again"), a link to the table it
sends the reader to. An open-ended row (`12+`) reaches as far as the chart's declared DRMs can
push a roll, so a table drawn with a modifier in its roll (`2d6 + 1`) still finds its row. What a
RollTable cannot hold is written in the table's description: the DRMs and the conditions they
need, exclusive groups, the cap on a modified roll, rows read by the natural roll, other dice in
other conditions, repeated rolls. A chart rolled as `percentile lower as tens` is left out: no
Foundry formula reads two d10 with the lower as tens.

Pure: model in, `{relative path: text}` out (`module.json` and `src/charts/*.json`), the same
bytes on every run: document ids are hashes of the game, chart and key values.
"""

from __future__ import annotations

import hashlib
import html
import json
from dataclasses import dataclass
from typing import Any

from compiler import model
from compiler.diagnostics.textsafe import printable
from compiler.emit.html.wording import cell_text, describe_condition, drm_rules, key_text, signed
from compiler.engine.chances import drm_reach_span
from compiler.engine.drms import modified_roll
from compiler.model.dice import Dice, DiceForm
from compiler.model.text import drm_amount_text

PACK = "charts"
SOURCE = f"src/{PACK}"
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
TABLE_ICON = "icons/svg/d20-grey.svg"
FOLDER_ICON = None


def document_id(*parts: str) -> str:
    """A Foundry document id (16 letters and digits) that is the same for the same parts."""
    number = int.from_bytes(hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()[:16], "big")
    out = []
    for _ in range(16):
        number, digit = divmod(number, len(_ALPHABET))
        out.append(_ALPHABET[digit])
    return "".join(out)


def module_id(game: model.Game) -> str:
    """The Foundry package id: lowercase letters, digits and hyphens."""
    return "chartc-" + game.id.lower().replace("_", "-")


def chart_formula(chart: model.Chart, drm: str = "") -> str:
    """The chart's roll in Foundry's syntax: its dice (`formula`), then its steps in order
    (IA2 7.1.5: `min(max(1d6 - 3, 0), 3)`); `drm`, a signed term such as `+ 1`, goes in at the DRM
    step (at the end without arithmetic), and none without it."""
    assert chart.dice is not None
    expr = formula(chart.dice)
    for step in chart.roll_steps:
        match step.kind:
            case model.StepKind.DRMS:
                expr = f"{expr} {drm}" if drm else expr
            case model.StepKind.ADD:
                expr = f"{expr} {'-' if step.amount < 0 else '+'} {abs(step.amount)}"
            case model.StepKind.TIMES:
                expr = f"({expr}) * {step.amount}"
            case model.StepKind.HALVE:
                expr = f"{'floor' if step.rounding == 'down' else 'ceil'}(({expr}) / 2)"
            case model.StepKind.MINIMUM:
                expr = f"max({expr}, {step.amount})"
            case model.StepKind.MAXIMUM:
                expr = f"min({expr}, {step.amount})"
    return expr


def formula(dice: Dice) -> str:
    """The dice in Foundry's roll syntax, natural rolls read as the chart reads them."""
    low = dice.zero == 0 and dice.sides == 10  # a d10 read 0..9
    shift = f" - {dice.count}" if low and dice.form is DiceForm.SUM else ""
    match dice.form:
        case DiceForm.SUM:
            return f"{dice.count}d{dice.sides}{shift}"
        case DiceForm.D66:
            return "1d6 * 10 + 1d6"
        case DiceForm.PERCENTILE:
            return "1d100"
        case DiceForm.LOWER:
            return f"{dice.count}d{dice.sides}kl" + (" - 1" if low else "")
        case DiceForm.HIGHER:
            return f"{dice.count}d{dice.sides}kh" + (" - 1" if low else "")
        case DiceForm.HIGHEST:
            return f"{dice.count}d{dice.sides}kh{dice.keep}" + (f" - {dice.keep}" if low else "")
        case DiceForm.LOWEST:
            return f"{dice.count}d{dice.sides}kl{dice.keep}" + (f" - {dice.keep}" if low else "")
        case DiceForm.VERSUS:
            theirs = f"{dice.versus_count}d{dice.versus_sides}"
            if dice.zero == 0 and dice.versus_sides == 10:
                theirs += f" - {dice.versus_count}"
            return f"{dice.count}d{dice.sides}{shift} - ({theirs})"
        case DiceForm.LOWER_TENS:  # left out of the module (`_foundry_rolls`)
            raise ValueError("Foundry's dice syntax cannot read two d10 with the lower as tens")
        case DiceForm.EXPLODE:  # `xo`: each die once; `xN=S`: N explosions in all (one die: the depth)
            again = "xo" if dice.depth == 1 else f"x{dice.depth}={dice.sides}" if dice.count == 1 else "x"
            return f"{dice.count}d{dice.sides}{again}{shift}"
    raise AssertionError(dice.form)


@dataclass(frozen=True)
class Table:
    """One RollTable: a roll chart read with one key value per key."""

    chart: model.Chart
    combo: tuple[str, ...]

    @property
    def id(self) -> str:
        return document_id(self.chart.game, self.chart.address, *self.combo)


def tables(game: model.Game) -> list[Table]:
    """Every table of the game: its roll charts by address, each key combination in order."""
    charts = sorted(
        (c for c in game.charts if c.kind is model.ChartKind.ROLL and c.dice is not None and _foundry_rolls(c)),
        key=lambda c: c.address.casefold(),
    )
    return [Table(c, combo) for c in charts for combo in c.key_combinations()]


def _foundry_rolls(chart: model.Chart) -> bool:
    """Whether Foundry's dice syntax can roll every dice of the chart: not two d10 read with the
    lower as tens (`percentile lower as tens`), which no formula of one result reads; such a chart
    is left out of the module."""
    return all(d.form is not DiceForm.LOWER_TENS for d in chart.all_dice)


def emit_foundry(game: model.Game) -> dict[str, str]:
    """The module's `module.json` and one JSON source document per table and folder."""
    found = tables(game)
    by_combo = {(t.chart.address, t.combo): t for t in found}
    out: dict[str, str] = {"module.json": _json(_manifest(game))}
    folders: dict[str, str] = {}
    for chart in dict.fromkeys(t.chart for t in found):
        if len(chart.key_combinations()) > 1:
            folder = _folder(chart)
            folders[chart.address] = folder["_id"]
            out[f"{SOURCE}/{_file_name(chart.address, folder['_id'])}"] = _json(folder)
    for table in found:
        doc = _table(game, table, by_combo, folders.get(table.chart.address))
        out[f"{SOURCE}/{_file_name(doc['name'], table.id)}"] = _json(doc)
    return out


def _json(doc: dict[str, Any]) -> str:
    return json.dumps(_shown(doc), ensure_ascii=False, indent=2) + "\n"


def _shown(value: Any) -> Any:
    """`value` with every string made `printable`: Foundry shows names and descriptions to the
    players as they are, so a bidi override or a control in chart text must arrive as a visible
    `<U+202E>`, as on the player aid (ids and keys are ASCII and pass unchanged)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shown(v) for v in value]
    return value


def _file_name(name: str, doc_id: str) -> str:
    """`<name>_<id>.json` as Foundry's CLI names extracted files: the name's letters and digits."""
    stem = "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in name).strip("_")[:40]
    return f"{stem or 'table'}_{doc_id}.json"


def _manifest(game: model.Game) -> dict[str, Any]:
    return {
        "id": module_id(game),
        "title": f"{game.title} \u2013 charts",
        "description": f"The charts of {game.title}, compiled by chartc from {game.source}.",
        "version": "1.0.0",
        "compatibility": {"minimum": "11", "verified": "13"},
        "packs": [
            {
                "name": PACK,
                "label": f"{game.title} \u2013 charts",
                "path": f"packs/{PACK}",
                "type": "RollTable",
                "ownership": {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"},
            }
        ],
    }


def _chart_name(chart: model.Chart) -> str:
    return f"{chart.chart_id} {chart.title}" if chart.chart_id else chart.title


def _folder(chart: model.Chart) -> dict[str, Any]:
    folder_id = document_id(chart.game, chart.address, "folder")
    return {
        "_id": folder_id,
        "_key": f"!folders!{folder_id}",
        "name": _chart_name(chart),
        "type": "RollTable",
        "folder": None,
        "sorting": "m",
        "sort": 0,
        "color": None,
        "description": "",
        "flags": {},
    }


def _table(
    game: model.Game, table: Table, by_combo: dict[tuple[str, tuple[str, ...]], Table], folder: str | None
) -> dict[str, Any]:
    chart = table.chart
    assert chart.dice is not None
    keys = [key_text(k, m) for k, m in zip(chart.keys, table.combo, strict=True)]
    name = _chart_name(chart) + (f" ({', '.join(keys)})" if keys else "")
    rows = [r for r in chart.rows_for(table.combo) if r.range is not None and not r.natural]
    low, high = _reach(chart)
    results = []
    positions = {id(r): i for i, r in enumerate(chart.rows)}
    for position, row in enumerate(rows):
        assert row.range is not None
        top = high if row.range.high is None else row.range.high
        first = row.range.low if row.range.low is not None else min(low, top)
        last = row.range.high if row.range.high is not None else max(high, first)
        result_id = document_id(table.id, str(position))
        result: dict[str, Any] = {
            "_id": result_id,
            "_key": f"!tables.results!{table.id}.{result_id}",
            "type": "text",
            "name": _row_text(game, chart, row),
            "description": html.escape(_row_text(game, chart, row)),
            "img": None,
            "range": [first, last],
            "weight": last - first + 1,
            "drawn": False,
            "flags": {"chartc": {"row": positions[id(row)], "printed": row.range.printed}},
        }
        target = _link(game, table, row, by_combo)
        if target is not None:
            result["type"] = "document"
            result["documentUuid"] = f"Compendium.{module_id(game)}.{PACK}.RollTable.{target.id}"
        results.append(result)
    return {
        "_id": table.id,
        "_key": f"!tables!{table.id}",
        "name": name,
        "img": TABLE_ICON,
        "description": _description(game, chart, table.combo),
        "formula": chart_formula(chart),
        "replacement": True,
        "displayRoll": True,
        "folder": folder,
        "sort": 0,
        "ownership": {"default": 0},
        "results": results,
        "flags": {"chartc": {"game": game.id, "chart": chart.address, "keys": dict(
            zip((k.id for k in chart.keys), table.combo, strict=True))}},
    }


def _reach(chart: model.Chart) -> tuple[int, int]:
    """The lowest and highest modified roll the chart's dice and declared DRMs can make (through
    its steps, each of which keeps the order of the rolls): how far an open-ended row reaches."""
    assert chart.dice is not None
    dice = chart.all_dice
    low_drm, high_drm = drm_reach_span(chart)
    low = modified_roll(chart, min(d.min for d in dice), low_drm)
    return low, modified_roll(chart, max(d.max for d in dice), high_drm)


def _row_text(game: model.Game, chart: model.Chart, row: model.Row) -> str:
    cells = [cell_text(game, col, v) for col, v in zip(chart.columns, row.values, strict=True)]
    if len(cells) == 1:
        return cells[0]
    return "; ".join(f"{col.label}: {text}" for col, text in zip(chart.columns, cells, strict=True))


def _link(
    game: model.Game, table: Table, row: model.Row, by_combo: dict[tuple[str, tuple[str, ...]], Table]
) -> Table | None:
    """The table a row's first chained cell sends the reader to (`roll on [B6] (jet)`, `roll
    again`), with the keys the chain gives it: the reference's own, else this table's key of that
    name, else this row's cell in a column of that name; None for no chained cell, or a target
    that is not a RollTable of this compendium (a chart read by keys, printed elsewhere)."""
    for value in row.values:
        if isinstance(value, model.RollAgain):
            return table
        if isinstance(value, model.ChartRef):
            target = game.chart(value.address)
            if target is None or target.kind is not model.ChartKind.ROLL or target.dice is None:
                return None
            own = {k.key: k.value for k in value.keys}
            mine = dict(zip((k.id for k in table.chart.keys), table.combo, strict=True))
            cells = {c.id: v for c, v in zip(table.chart.columns, row.values, strict=True) if isinstance(v, str)}
            combo = []
            for key in target.keys:
                given = own.get(key.id) or mine.get(key.id) or cells.get(key.id)
                member = key.enum.member(given) if given is not None else None
                if member is None:
                    return None
                combo.append(member.id)
            return by_combo.get((target.address, tuple(combo)))
    return None


def _description(game: model.Game, chart: model.Chart, combo: tuple[str, ...]) -> str:
    """The table's description (HTML, every text escaped): the chart's cite, and what the
    RollTable cannot apply by itself."""
    e = html.escape
    parts = [f"<p><strong>{e(_chart_name(chart))}</strong>" + (f" (rule {e(chart.rule)})" if chart.rule else "")]
    keys = [f"{e(k.enum.label)}: {e(key_text(k, m))}" for k, m in zip(chart.keys, combo, strict=True)]
    parts[0] += (f" \u2013 {'; '.join(keys)}" if keys else "") + "</p>"
    if chart.drms:
        items = [
            f"<li>{e(d.label)} {e(signed(d.value) if d.per is None else drm_amount_text(chart, d))}"
            f" \u2013 when {e(describe_condition(d.when, game))}</li>"
            for d in chart.drms
        ]
        clamp = ""
        if chart.clamp is not None:
            clamp = f" The total is held between {signed(chart.clamp[0])} and {signed(chart.clamp[1])}."
        example = chart_formula(chart, "+ 1") if chart.dice is not None else ""
        parts.append(
            "<p>DRMs this table cannot apply by itself: roll it with their total added to the formula"
            f" (e.g. <code>{e(example)}</code>).{e(clamp)}</p><ul>" + "".join(items) + "</ul>"
        )
    rules = drm_rules(game, chart)
    if chart.dice_alternatives:
        rules += tuple(
            f"Roll {a.dice.text} instead when {describe_condition(a.when, game)}." for a in chart.dice_alternatives
        )
    if chart.dice is not None and chart.dice.form is DiceForm.EXPLODE:
        rules += _explode_note(chart.dice)
    if chart.repeat > 1:
        rules += (f"Roll {chart.repeat} times, reading each roll separately.",)
    if chart.drm_meaning:
        rules += (f"A DRM on this roll: {chart.drm_meaning}",)
    parts += [f"<p>{e(r)}</p>" for r in rules]
    notes = [f.text for f in chart.footnotes] + list(chart.notes)
    parts += [f"<p><em>{e(n)}</em></p>" for n in notes]
    return "".join(parts)


def _explode_note(dice: Dice) -> tuple[str, ...]:
    """What the formula of exploding dice leaves to the player: the depth of each of several dice
    (Foundry caps a pool's explosions in all), and a 0-9 d10, whose top face is 9."""
    if dice.zero == 0 and dice.sides == 10:
        return (f"Roll {dice.text} by hand: the d10s read 0-9, a 9 rolls again, at most {dice.depth} times a die.",)
    if dice.count > 1 and dice.depth > 1:
        return (f"Each die rolls again on a {dice.sides} at most {dice.depth} times: stop it there.",)
    return ()
