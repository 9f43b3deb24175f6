"""The modifier functions of a chart in a generated module: `drm_<id>` (its DRMs' total),
`shift_<id>` (a CRT's column shifts) and `odds_<id>` (an odds rule's column).

The DRMs, shifts and odds rule are written as the data `compiler.engine.plain` converts them to,
the very data `chartc lookup` reads through the same runtime functions (`_total_drm`,
`_shift_terms`, `_odds_column`).
"""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.emit.html.aid_view import describe_shift
from compiler.emit.python.chart import ChartEmitter, cite, context_lines
from compiler.emit.python.layout import INDENT, LINE, fill
from compiler.emit.python.literals import literal, literal_lines
from compiler.engine import plain
from compiler.engine import shifts as column_shifts
from compiler.model.odds import OddsForm, OddsRule
from compiler.model.text import group_text, per_text


def drm_function(e: ChartEmitter) -> list[str]:
    chart, c = e.chart, e.names
    params = e.context_params()
    converted = plain.chart_drms(chart)
    lines = [f"_{c.const}_DRMS: Final = ("]
    for converted_drm in converted.drms:
        lines += literal_lines(converted_drm, tail=",", indent=INDENT)
    lines += [")"]
    if e.reads_situation():
        lines += e.situation_constants()
    lines += ["", ""]
    doc = [f"The total DRM for {cite(chart)}: the sum of the DRMs whose conditions are true.", ""]
    for d in chart.drms:
        per = f" ({per_text(chart, d.per)})" if d.per else ""
        doc.append(f"{d.value:+d} {d.label}{per}" + (f" (footnote {d.footnote})" if d.footnote else "") + _errata(d))
    doc += [f"{group_text(chart, g)}." for g in chart.drm_groups]
    if chart.clamp:
        doc.append(f"The total is clamped to {chart.clamp[0]:+d}..{chart.clamp[1]:+d}.")
    if any(e.param_var(p).type is not model.ContextType.FLAG for p in params):
        doc += ["", "A value left as None is unknown: a DRM applies only when its condition is true without it."]
    if params:
        doc += ["", "Args:"]
        for p in params:
            doc.append(f"    {p.name}: {e.context_doc(e.param_var(p))}.")
    items = [f"{p.id!r}: {p.name}" for p in params]
    context = fill("{", items, "}")
    clamp = literal(converted.clamp)
    clamp += f", {literal(converted.groups)}" if converted.groups else ""
    body = [p.check for p in params]
    single = f"return _total_drm(_{c.const}_DRMS, {context[0]}, {clamp})"
    if len(context) == 1 and len(INDENT + single) <= LINE:
        body.append(single)
    else:
        body += context_lines(items)
        body.append(f"return _total_drm(_{c.const}_DRMS, context, {clamp})")
    signature = ["*", *(f"{p.name}: {p.annotation}" for p in params)] if params else []
    return lines + e.function(f"drm_{c.ident}", signature, "int", "\n".join(doc), body)


def shift_function(e: ChartEmitter, rules: model.ShiftRules) -> list[str]:
    chart, c = e.chart, e.names
    params = e.params_for(sorted(column_shifts.variables(rules)))
    lines = [f"_{c.const}_SHIFTS: Final = ("]
    for s in rules.shifts:
        lines += literal_lines(plain.shift(s), tail=",", indent=INDENT)
    lines += [")", "", ""]
    doc = [f"The total column shift for {cite(chart)} (+ toward the attacker).", ""]
    doc += [describe_shift(s, rules, e.game) for s in rules.shifts]
    if rules.cap:
        doc.append(f"The total is held to {rules.cap[0]:+d}..{rules.cap[1]:+d}.")
    doc += ["", "Pass the total to the odds function of the CRT's odds rule as its `shift`."]
    if params:
        doc += ["", "Args:"]
        doc += [f"    {p.name}: {e.context_doc(e.game.context[p.id])}." for p in params]
    groups = literal(plain.shift_groups(rules))
    cap = literal(rules.cap)
    body = [p.check for p in params]
    body += context_lines([f"{p.id!r}: {p.name}" for p in params])
    body.append(f"return _shift_terms(_{c.const}_SHIFTS, context, {groups}, {cap})[1]")
    signature = ["*", *(f"{p.name}: {p.annotation}" for p in params)] if params else []
    return lines + e.function(f"shift_{c.ident}", signature, "int", "\n".join(doc), body)


def odds_function(e: ChartEmitter) -> list[str]:
    chart, c = e.chart, e.names
    rule = chart.odds
    assert rule is not None
    enum = e.enums.get(rule.id)
    strength = rule.form is OddsForm.STRENGTH
    accepted = ", as the CRT lookups keyed by it accept it" if enum else ""
    shifts = f"shifts apply {rule.shift_order} clamping." if rule.shift_order else "no column shifts."
    factors = (
        "    strength: the attack strength, an int in the rule's domain.\n"
        if strength
        else "    attack, defense: combat factors, ints >= 1.\n"
        if rule.form is OddsForm.RATIO
        else "    attack, defense: combat factors, ints >= 0.\n"
    )
    partial = (
        f"\n\nThe rule is partial: {chart.partial}; a column that is not printed may be the one."
        if chart.partial
        else ""
    )
    doc = (
        f"{cite(chart)}: the odds column for these combat factors.\n\n"
        f"{_odds_how(rule)}{shifts}{partial}\n\n"
        "Args:\n"
        f"{factors}"
        "    shift: columns to shift (+ toward the attacker).\n\n"
        "Returns:\n"
        f"    The column label as printed, e.g. {(rule.columns or ('3:1',))[-1]!r}{accepted}.\n\n"
        "Raises:\n"
        "    ValueError: factors the rule does not take, odds off a table that does not clamp, or an\n"
        "    undeclared shift."
    )
    lines = [*literal_lines(plain.odds_rule(rule), f"_{c.const}_RULE: Final = "), "", ""]
    if strength:
        column = f"_odds_column(_{c.const}_RULE, strength, None, shift)"
        signature = ["strength: int", "shift: int = 0"]
    else:
        column = f"_odds_column(_{c.const}_RULE, attack, defense, shift)"
        signature = ["attack: int", "defense: int", "shift: int = 0"]
    body = [f"return cast({enum.alias}, {column})" if enum else f"return {column}"]
    return lines + e.function(f"odds_{c.ident}", signature, enum.alias if enum else "str", doc, body)


def _odds_how(rule: OddsRule) -> str:
    """How an odds rule forms odds and reads a column, for the odds function's docstring."""
    columns = ", ".join(rule.columns)
    edge = f"beyond the edge: {rule.beyond}"
    between = f"odds between two columns read the {rule.between} one; " if rule.between else ""
    match rule.form:
        case OddsForm.RATIO if rule.between is None:
            how = (
                f"Attacker-high odds divide attack by defense and round {rule.attacker_round}; defender-high odds\n"
                f"divide defense by attack and round {rule.defender_round}; equal factors are 1:1.\n"
            )
            printed = "No printed columns: the ratio itself is returned; "
            where = f"Columns {columns}; {edge}; " if rule.columns else printed
            return how + where
        case OddsForm.RATIO:
            return f"The exact ratio attack : defense is compared with the columns {columns};\n{between}{edge}; "
        case OddsForm.DIFFERENTIAL:
            return f"Attack minus defense is read on the columns {columns};\n{between}{edge}; "
        case OddsForm.STRENGTH:
            low, high = rule.domain or (0, None)
            upper = f"to {high}" if high is not None else "or more"
            return f"The strength ({low} {upper}) is read on the columns {columns};\n{between}{edge}; "
        case _:
            assert_never(rule.form)


def _errata(d: model.Drm) -> str:
    """` (errata e2021, printed +1: 7.1.10: ...)`: the errata that changed a DRM, cited in its line."""
    if not d.errata:
        return ""
    was = "not in the print" if d.printed is None else f"printed {d.printed.value:+d}"
    return f" (errata {', '.join(d.errata)}, {was}" + "".join(f": {why}" for why in d.because) + ")"
