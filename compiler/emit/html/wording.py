"""How the player aid words a chart for players: months as the book prints them, conditions and
column shifts in words, the dice and the roll column's header, the DRM box's rules, the key of
result codes and the legend of the symbols a chart prints.
"""

from __future__ import annotations

import re

from compiler import model
from compiler.model.calendar import Month
from compiler.model.crt import classic_grid, crt_shape
from compiler.model.dice import DiceForm
from compiler.model.text import group_text, key_label, natural_text, pipeline_text, value_text


def month_text(text: str) -> str:
    """A month or month span as the rulebook's tables print it (IA2 R1-R3: `3/44`, `4/45+`):
    `1944-12` as `12/44`, `1943-03..1944-12` as `3/43-12/44`, `1945-01+` as `1/45+`. Other text is
    returned as it is (the charts and the JSON keep the `YYYY-MM` form). The printed form has no
    space, so a line never breaks inside it."""
    if text.endswith("+") and (first := Month.parse(text[:-1])) is not None:
        return _short_month(first) + "+"
    for joiner in ("..", " to "):
        if joiner in text:
            a, b = (Month.parse(part.strip()) for part in text.split(joiner, 1))
            if a is not None and b is not None:
                return f"{_short_month(a)}-{_short_month(b)}"
    month = Month.parse(text)
    return text if month is None else _short_month(month)


def _short_month(month: Month) -> str:
    return month.printed


def _is_month_enum(enum: model.EnumType | None) -> bool:
    """The game calendar's months (the synthetic `month` enum every month key and column uses)."""
    return enum is not None and enum.id == "month" and enum.synthetic


def key_text(key: model.Key, match: model.KeyMatch) -> str:
    """A key value as the aid prints it: `key_label`, with months as the book prints them."""
    label = key_label(key, match)
    return month_text(label) if isinstance(match, model.MonthSpan) or _is_month_enum(key.enum) else label


def cell_text(game: model.Game, col: model.Column, value: model.Value) -> str:
    """A cell as the aid prints it: `value_text`, with a month as the book prints it, a chart
    reference by the chart's printed name (`chart_name`) and text worded for players
    (`for_players`)."""
    if isinstance(value, model.ChartRef) and (target := game.chart(value.address)) is not None:
        if not value.chained:
            printed = target.chart_id is not None and target.kind is not model.ChartKind.EXTERNAL
            return chart_name(game, target, bracketed=printed)
        text = value_text(game, col, value)
        return f"{text} ({_where(target)})" if target.kind is model.ChartKind.EXTERNAL else text
    text = value_text(game, col, value)
    if _is_month_enum(game.enums.get(col.type)):
        return month_text(text)
    return for_players(game, text) if isinstance(value, str) else text


def signed(n: int) -> str:
    """A DRM or column shift as the aid prints it: `+1`, `\u22121` (a minus sign), `0`."""
    return f"+{n}" if n > 0 else ("\u2212" + str(-n) if n < 0 else "0")


def describe_condition(c: model.Condition | None, game: model.Game) -> str:
    """A condition in words: `month is 1944-11 or 1945-01`, `fb attack`, `fatigue ≥ 5`."""
    if c is None:
        return "always"
    if isinstance(c, model.Flag):
        return game.context[c.var].label if c.var in game.context else c.var
    if isinstance(c, model.Compare):
        ops = {"==": "is", "!=": "is not", ">=": "\u2265", "<=": "\u2264", ">": ">", "<": "<"}
        return f"{_var_label(c.var, game)} {ops[c.op]} {_operand(c.var, c.value, game)}"
    if isinstance(c, model.In):
        values = [_operand(c.var, v, game) for v in c.values]
        return f"{_var_label(c.var, game)} is " + (
            ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]
        )
    if isinstance(c, model.Not):
        return f"not ({describe_condition(c.inner, game)})"
    joiner = " and " if isinstance(c, model.All) else " or "
    return joiner.join(describe_condition(p, game) for p in c.parts)


def describe_shift(s: model.Shift, rules: model.ShiftRules, game: model.Game) -> str:
    """A column shift as a rulebook words it: `Across a river: 1 column left (when Attack across a
    river)`, or for a shift read from a terrain effects chart `Terrain: per [TEC] Terrain Effects
    Chart, Column shift (Woods 1 left, Town 2 left)`."""
    pick = {"best": "best", "worst": "worst", "one": "first"}[str(dict(rules.groups)[s.group])] if s.group else ""
    group = f" (of group {s.group}, only the {pick} applies)" if s.group else ""
    if s.source is None:
        when = "" if s.when is None else f" when {describe_condition(s.when, game)}"
        return f"{s.label}: {_columns_moved(s.value)}{when}{group}"
    src = s.source
    var = game.context.get(src.var)
    enum = game.enums.get(var.enum) if var and var.enum else None
    moved = [
        f"{(m.label if (m := enum.member(member)) else member) if enum else member} {_columns_moved(value)}"
        for member, value in src.values
        if value
    ]
    return f"{s.label}: per [{src.chart}] {src.chart_title}, {src.column_label} ({', '.join(moved) or 'none'}){group}"


def _columns_moved(value: int) -> str:
    """`1 column right`, `2 columns left` (+ is toward the attacker, to the right on a printed CRT)."""
    way = "right" if value > 0 else "left"
    return f"{abs(value)} column{'s' if abs(value) != 1 else ''} {way}" if value else "no shift"


def _var_label(var: str, game: model.Game) -> str:
    ctx = game.context.get(var)
    key_enum = game.enums.get(var)  # a chart key named after its enum (`key terrain`)
    return ctx.label if ctx else key_enum.label if key_enum else var


def _operand(var: str, value: int | str, game: model.Game) -> str:
    ctx = game.context.get(var)
    enum = game.enums.get(ctx.enum) if ctx and ctx.type is model.ContextType.ENUM and ctx.enum else None
    enum = enum if ctx else game.enums.get(var)
    member = enum.member(str(value)) if enum else None
    text = member.label if member else str(value)
    return month_text(text) if ctx is not None and ctx.type is model.ContextType.MONTH else text


def shift_cap(rules: model.ShiftRules | None) -> str | None:
    return f"{signed(rules.cap[0])} to {signed(rules.cap[1])}" if rules is not None and rules.cap else None


def shift_order(game: model.Game, chart: model.Chart) -> str | None:
    """`applies after the odds table's edge`, from the odds rule the CRT is keyed by."""
    for key in chart.keys:
        rule = game.chart(key.enum.id)
        if rule is not None and rule.odds is not None and rule.odds.shift_order is not None:
            return f"applies {rule.odds.shift_order} the odds table's edge"
    return None


def roll_header(chart: model.Chart, game: model.Game) -> str:
    if chart.kind is model.ChartKind.ROLL and chart.dice:
        times = f", {chart.repeat} times" if chart.repeat > 1 else ""
        if chart.dice_alternatives:
            return f"Roll ({dice_words(chart, game)}){times}"
        if chart.arithmetic:  # the rows hold the roll after its steps, which the header names
            return f"Roll ({pipeline_text(chart, signed)}){times}"
        if chart.dice.form is DiceForm.LOWER_TENS:
            return f"Roll (2d10 %, the lower die as tens){times}"
        return (f"Roll ({chart.dice.text})" if chart.dice.form is not DiceForm.PERCENTILE else "Roll (2d10 %)") + times
    if chart.kind is model.ChartKind.VALUE and chart.value_key:
        return chart.value_key.label
    return ""


def dice_words(chart: model.Chart, game: model.Game) -> str:
    """The dice as a rulebook words them: `1d10`, or with `roll ... when` alternatives
    `lower of 2d10 if Veteran, else 1d10`."""
    assert chart.dice is not None
    alternatives = [f"{a.dice.text} if {describe_condition(a.when, game)}" for a in chart.dice_alternatives]
    return ", ".join([*alternatives, ("else " if alternatives else "") + chart.dice.text])


def drm_rules(game: model.Game, chart: model.Chart) -> tuple[str, ...]:
    """The DRM box's sentences beyond the DRM list, as a rulebook words them."""
    rules = [f"{group_text(chart, g)}." for g in chart.drm_groups]
    steps = pipeline_text(chart, signed) if chart.drms else None
    rules += [f"The roll: {steps}, in this order; the rows read the result."] if steps else []
    return (*rules, *(f"{natural_text(game, chart, r)}." for r in chart.rows if r.natural))


def codes_key(game: model.Game, chart: model.Chart) -> tuple[tuple[str, str], ...]:
    """The key of result codes printed under a chart: each code of a `codes` enum the chart uses,
    in the enum's order, with its meaning (and its integer fields, such as step losses)."""
    key: list[tuple[str, str]] = []
    for index, col in enumerate(chart.columns):
        enum = game.enums.get(col.type)
        if enum is None or not enum.codes:
            continue
        used = {str(r.values[index]) for r in chart.rows if index < len(r.values) and r.values[index] is not None}
        for m in enum.members:
            if m.id in used:
                losses = [f"{f.label} {m.get(f.id)}" for f in enum.fields if isinstance(m.get(f.id), int)]
                key.append((m.id, m.label + (f" ({', '.join(losses)})" if losses else "")))
    return tuple(key)


def chart_legend(chart: model.Chart, game: model.Game) -> list[tuple[str, str]]:
    """The symbols this chart prints, each with its meaning, so the legend sits on the same page
    as the chart (layout rule L6). Only what the chart prints is listed: an open end the chart
    has, the d10's 0 face, `✓` and `–`; result codes have their own key (`codes_key`), and values
    printed as words need no legend."""
    shape = crt_shape(chart, game.enums)
    if shape is not None:
        printed = [band.label for band in classic_grid(shape).bands]
    elif chart.availability is not None:  # the grid prints its cells, not the rows read from them
        printed = [availability_text(c) for _, cells in chart.availability.rows for c in cells]
    else:
        printed = _printed_ranges(chart)
    legend: list[tuple[str, str]] = []
    high = _first(printed, r"-?\d+\+")
    if high:
        legend.append((high, f"{high[:-1]} or more"))
    low = _first(printed, r"-?\d+-|-?\d+ or less")
    if low:
        legend.append((low, low.rstrip("-").replace(" or less", "") + " or less"))
    if chart.dice and chart.dice.form is DiceForm.SUM and chart.dice.sides == 10 and _first(printed, r"(\d+-)?0"):
        legend.append(("0", "the 0 face of a d10 counts as 10" if chart.dice.zero == 10 else "the d10 reads 0 to 9"))
    if chart.dice and chart.dice.form in (DiceForm.PERCENTILE, DiceForm.LOWER_TENS) and _first(printed, r"(\d+-)?00"):
        legend.append(("00", "100 on a percentile roll"))
    if "\u2713" in printed:
        legend.append(("\u2713", "automatic: no roll needed"))
    if chart.availability is not None and "-" in printed:
        legend.append(("-", "not available"))
    elif chart.availability is None and _has_blank(chart):
        legend.append(("\u2013", "no result: not available or not applicable"))
    return legend


def availability_text(cell: model.AvailabilityCell) -> str:
    if cell is None:
        return "-"
    if isinstance(cell, model.AvailabilityMark):
        return "\u2713"
    return cell.printed


def _printed_ranges(chart: model.Chart) -> list[str]:
    """Every die range or value range as the chart prints it, rows and grid cells alike."""
    printed = [r.range.printed for r in chart.rows if r.range]
    if chart.grid is not None:
        printed += [cell.printed for gr in chart.grid.rows for cell in gr.cells if cell]
    return printed


def _has_blank(chart: model.Chart) -> bool:
    """Whether the chart prints `–` anywhere (a value or a grid cell with nothing in it)."""
    values = [v for r in chart.rows for v in r.values]
    if chart.grid is not None:
        values += [v for gr in chart.grid.rows for v in gr.values]
        if any(cell is None for gr in chart.grid.rows for cell in gr.cells):
            return True
    return any(v is None for v in values)


def _first(printed: list[str], pattern: str) -> str | None:
    return next((p for p in printed if re.fullmatch(pattern, p)), None)


# ---- names players read, never identifiers ----------------------------------------------------

# a backticked name, a bracketed chart address, a name with an underscore, or `game/chart`
_NAMED = re.compile(
    r"`([^`\s]+)`|\[([A-Za-z0-9][A-Za-z0-9_.-]*)\]|(?<![\w/])([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z][a-z0-9_]*/[A-Za-z0-9_-]+)(?![\w/])"
)
_RULE_IN_NOTE = re.compile(r"\((\d+(?:\.\d+)+(?:-\d+(?:\.\d+)*)?)\)")


def for_players(game: model.Game, text: str) -> str:
    """Chart text (a note, a footnote, a label) with every name chartc reads put as players read
    it: a chart named by its slug (`ability_fatigue`, `usaaf/crt_odds`, `[war_now_ends]`) by its
    printed name (`chart_name`), a context variable or an enum member by its label; the book's
    own chart IDs (`[R4]`) stay, with the rule of a chart the aid does not print. A name chartc
    does not know is left as it is (the print test reports it), a backticked one in quotes."""

    def named(m: re.Match[str]) -> str:
        token = m.group(1) or m.group(2) or m.group(3)
        game_part, slash, rest = token.partition("/")
        if slash and game_part == game.id:
            token = rest
        chart = game.chart(token)
        if chart is not None:
            return chart_name(game, chart, bracketed=m.group(2) is not None and chart.chart_id == token)
        if m.group(2) is not None:
            return m.group(0)  # a chart the game does not declare: the book's text, as printed
        label = _name_label(game, token)
        if label is not None:
            return label
        return f"\u201c{token}\u201d" if m.group(1) is not None else m.group(0)  # `-`: quoted as print quotes

    return _NAMED.sub(named, text)


def chart_name(game: model.Game, chart: model.Chart, bracketed: bool = False) -> str:
    """A chart as the aid names it in text: `[R4]` where the text cites it by its ID, else its
    title (with its ID); a chart the aid does not print (`external`) with the rule that holds it
    (`FLAK Table (rule 19.2)`), or `not in this aid`."""
    if chart.kind is model.ChartKind.EXTERNAL:
        return f"{f'[{chart.chart_id}]' if bracketed else chart.title} ({_where(chart)})"
    if bracketed:
        return f"[{chart.chart_id}]"
    return f"{chart.title} [{chart.chart_id}]" if chart.chart_id else chart.title


def _where(chart: model.Chart) -> str:
    """Where a chart the aid does not print is: `rule 19.2` (its rule, or the first rule its
    description cites), else `not in this aid`."""
    if chart.rule:
        return f"rule {chart.rule}"
    found = next((m.group(1) for n in chart.notes if (m := _RULE_IN_NOTE.search(n))), None)
    return f"rule {found}" if found else "not in this aid"


def _name_label(game: model.Game, name: str) -> str | None:
    """The label of a context variable, an enum, or the one enum member with this id."""
    if name in game.context:
        return game.context[name].label
    if name in game.enums and not game.enums[name].synthetic:
        return game.enums[name].label
    members = [m.label for e in game.enums.values() if (m := e.member(name)) is not None]
    return members[0] if len(members) == 1 else None
