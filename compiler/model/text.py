"""How chart content reads to a player, shared by the CLI reports, `diff` and the HTML player aid.

`value_text` turns a typed model value into the text the chart prints: `–` for no value, `6/3`
for a pair, `-/8/9/11` for thresholds, `[B6]` for a chart reference, an enum member's label.
`key_label` and `keys_phrase` name the key values a row is read by (`interceptor Piston-engined`).
`json_value` is a cell as the JSON outputs write it; a choice (`one of [...]`) reads `your choice of A,
B or C` and is `{"choice": [...]}` in JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, assert_never

from compiler import model
from compiler.model.turns import turn_span_label


def cell_text(value: model.Value) -> str | None:
    """A cell whose printed form does not depend on its column, or None (enum members, text)."""
    if value is None:
        return "\u2013"
    if isinstance(value, tuple):
        return "/".join("-" if v is None else str(v) for v in value)
    if isinstance(value, model.ChartRef):
        return f"roll on {value.address}{_carried(value.keys, value.drm)}" if value.chained else f"[{value.address}]"
    if isinstance(value, model.RollAgain):
        return f"roll again{_carried((), value.drm)}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return None


def value_text(game: model.Game, col: model.Column, value: model.Value) -> str:
    """A cell as a player reads it, using the column's enum for member labels; a chained cell as
    the reader follows it (`roll on B6 (Jet or Rocket, +1)`, `roll again`, `1d6: 1-4 FW 190A-6;
    5-6 FW 190A-7`)."""
    if isinstance(value, model.SubRoll):
        outcomes = "; ".join(f"{o.range.printed} {value_text(game, col, o.value)}" for o in value.outcomes)
        return f"{value.dice.text}: {outcomes}"
    if isinstance(value, model.Choice):
        return choice_text([value_text(game, col, o) for o in value.options])
    if isinstance(value, model.ChartRef) and value.chained:
        return chain_ref_text(game, value)
    shown = cell_text(value)
    if shown is not None:
        return shown
    enum = game.enums.get(col.type)
    member = enum.member(str(value)) if enum else None
    if member and enum and enum.codes:
        return f"{member.id} ({member.label})"  # a result code is read with its meaning
    return member.label if member else str(value)


def field_text(game: model.Game, fld: model.Field, value: model.Value) -> str:
    """A record's field as a player reads it: `-` for a field left out, `yes`/`no` for a flag, a
    month as the book prints it (`7/44`), another enum's member by its label, `6/3` for a pair,
    `[B6]` for a chart reference; text and numbers as written."""
    if value is None:
        return "-"
    if isinstance(value, model.Month):
        return value.printed
    shown = cell_text(value)
    if shown is not None:
        return shown
    enum = game.enums.get(fld.type) if isinstance(fld.type, model.EnumRef) else None
    member = enum.member(str(value)) if enum is not None else None
    return member.label if member is not None else str(value)


def choice_text(options: list[str]) -> str:
    """`your choice of I/JG 2, II/JG 2 or III/JG 2`: a result that offers outcomes to choose from."""
    listed = ", ".join(options[:-1]) + f" or {options[-1]}" if len(options) > 1 else "".join(options)
    return f"your choice of {listed}"


def chain_ref_text(game: model.Game, ref: model.ChartRef) -> str:
    """`roll on B6 (Jet or Rocket, +1)`: the target by its printed ID (else its title), the key
    values given by their labels, the DRM carried; `see ...` for a chart read by its keys only."""
    target = game.chart(ref.address)
    name = (target.chart_id or target.title) if target is not None else ref.address
    labels = []
    for given in ref.keys:
        key = next((k for k in target.keys if k.id == given.key), None) if target is not None else None
        member = key.enum.member(given.value) if key is not None else None
        labels.append(member.label if member is not None else given.value)
    verb = "see" if target is not None and target.kind is model.ChartKind.REFERENCE else "roll on"
    return f"{verb} {name}{_carried(tuple(labels), ref.drm)}"


def _carried(keys: Iterable[model.ChainKey] | tuple[str, ...], drm: int | None) -> str:
    """` (interceptor=jet, +1)` after a chain: the keys and the DRM it carries, if any."""
    parts = [k if isinstance(k, str) else f"{k.key}={k.value}" for k in keys]
    parts += [f"{drm:+d}"] if drm is not None else []
    return f" ({', '.join(parts)})" if parts else ""


def key_label(key: model.Key, match: model.KeyMatch) -> str:
    """What a row's key value prints as: the member's label, a month span (`1944-11 to 1945-01`),
    or `any` for a row that applies to every value of the key (`*`)."""
    if match is None:
        return "any"
    if isinstance(match, model.MonthSpan):
        return match.printed
    if isinstance(match, model.TurnSpan):
        return turn_span_label(match.first, match.last)
    member = key.enum.member(match)
    return member.label if member else match


def keys_phrase(keys: Iterable[model.Key], matches: Iterable[model.KeyMatch], quoted: bool = False) -> str:
    """The keys a row or key combination is read by, in words: `interceptor Piston-engined,
    period 1944 late` (with `quoted`, each label in backticks as diagnostics write names). Keys
    that match any value are left out."""
    parts = []
    for key, match in zip(keys, matches, strict=False):
        if match is None:
            continue
        label = key_label(key, match)
        parts.append(f"{key.id} `{label}`" if quoted else f"{key.id} {label}")
    return ", ".join(parts)


def json_value(value: model.Value) -> Any:
    """A cell as JSON: slashed groups become arrays (`-` -> null), chart references objects
    (`{"chart": "B6"}`); text, numbers and member ids as they are."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, model.ChartRef):
        if not (value.chained or value.keys or value.drm is not None):
            return {"chart": value.address}
        return {"chart": value.address, "keys": {k.key: k.value for k in value.keys}, "drm": value.drm or 0}
    if isinstance(value, model.RollAgain):
        return {"again": True, "drm": value.drm or 0}
    if isinstance(value, model.Choice):
        return {"choice": [json_value(o) for o in value.options]}
    if isinstance(value, model.SubRoll):
        return {
            "roll": {
                "dice": value.dice.text,
                "count": value.dice.count,
                "sides": value.dice.sides,
                "outcomes": [
                    {"range": o.range.printed, "min": o.range.low, "max": o.range.high, "value": json_value(o.value)}
                    for o in value.outcomes
                ],
            }
        }
    return value


# ---- the modifier forms as a rulebook words them (player aid, generated docstrings, CLI) ---------

_ROUNDING_WORDS = {
    model.Rounding.DOWN: "fractions dropped",
    model.Rounding.UP: "fractions count as a whole step",
    model.Rounding.NEAREST: "half a step or more counts as a step",
}


def per_text(chart: model.Chart, per: model.PerStep) -> str:
    """`per 10 Kills, fractions dropped`; `per Skill` for steps of 1 (nothing to round)."""
    label = next((v.label for v in chart.context if v.id == per.var), per.var)
    if per.step == 1:
        return f"per {label}"
    return f"per {per.step} {label}, {_ROUNDING_WORDS[per.rounding]}"


def drm_amount_text(chart: model.Chart, drm: model.Drm) -> str:
    """`-1` or `-1 per 10 Kills, fractions dropped`."""
    amount = f"{drm.value:+d}"
    return f"{amount} {per_text(chart, drm.per)}" if drm.per else amount


_GROUP_WORDS = {
    model.GroupMode.BEST: "only the best of {listed} applies",
    model.GroupMode.WORST: "only the worst of {listed} applies",
    model.GroupMode.ONE: "only one of {listed} can apply",
}


def group_text(chart: model.Chart, group: model.DrmGroup) -> str:
    """`Terrain: only the best of Woods -1, Town -2 applies`."""
    members = [d for d in chart.drms if d.group == group.id]
    listed = ", ".join(f"{d.label} {drm_amount_text(chart, d)}" for d in members)
    return f"{group.label}: {_GROUP_WORDS[group.mode].format(listed=listed)}"


def step_text(step: model.RollStep, signed: Callable[[int], str] = lambda n: f"{n:+d}") -> str:
    """A step of a roll's arithmetic as a player reads it: `DRMs`, `-3`, `doubled`, `times 3`,
    `halved, rounded down`, `minimum 0`, `maximum 3` (`signed` writes a signed number)."""
    match step.kind:
        case model.StepKind.DRMS:
            return "DRMs"
        case model.StepKind.ADD:
            return signed(step.amount)
        case model.StepKind.TIMES:
            return "doubled" if step.amount == 2 else f"times {step.amount}"
        case model.StepKind.HALVE:
            return f"halved, rounded {step.rounding}"
        case model.StepKind.MINIMUM | model.StepKind.MAXIMUM:
            return f"{step.kind} {step.amount}"
        case _:
            assert_never(step.kind)


def pipeline_text(chart: model.Chart, signed: Callable[[int], str] = lambda n: f"{n:+d}") -> str | None:
    """The roll's steps after its dice, `1d6, DRMs, -3, minimum 0, maximum 3` (the DRM step named
    only on a chart that declares DRMs), or None for a roll read as the natural roll plus the DRMs."""
    if chart.dice is None or not chart.arithmetic:
        return None
    steps = [s for s in chart.pipeline if s.kind is not model.StepKind.DRMS or chart.drms]
    return ", ".join([chart.dice_text, *(step_text(s, signed) for s in steps)])


def step_json(step: model.RollStep) -> dict[str, Any]:
    """A step of the roll's arithmetic as the JSON outputs write it: `{"step": "add", "amount": -3}`,
    `{"step": "halve", "rounding": "down"}`, `{"step": "minimum", "amount": 0}`, `{"step": "drms"}`."""
    match step.kind:
        case model.StepKind.DRMS:
            return {"step": "drms"}
        case model.StepKind.HALVE:
            return {"step": "halve", "rounding": str(step.rounding)}
        case model.StepKind.ADD | model.StepKind.TIMES | model.StepKind.MINIMUM | model.StepKind.MAXIMUM:
            return {"step": str(step.kind), "amount": step.amount}
        case _:
            assert_never(step.kind)


def natural_text(game: model.Game, chart: model.Chart, row: model.Row) -> str:
    """`A natural 1 always reads: Automatic miss, whatever the DRMs` for a `natural` row."""
    printed = row.range.printed if row.range else ""
    values = "; ".join(value_text(game, col, v) for col, v in zip(chart.columns, row.values, strict=True))
    where = keys_phrase(chart.keys, row.keys)
    return f"A natural {printed}{f' ({where})' if where else ''} always reads: {values}, whatever the DRMs"


def row_range_text(row: model.Row) -> str:
    """A row's printed range, `natural 1` for a row read by the natural roll ("" without a range)."""
    if row.range is None:
        return ""
    return f"natural {row.range.printed}" if row.natural else row.range.printed
