"""The reading functions of a chart in a generated module: `lookup_<id>`, `roll_<id>` and `rolls_<id>`.

Each follows the runtime's pipeline of a roll (`compiler.engine.runtime.roll`): the dice
(`_roll`), the DRM total given, the modified roll (the sum inline, or `_modified` through the
chart's steps when it has arithmetic), then the row (`natural` rows first, then the index of the
rows by modified roll).
"""

from __future__ import annotations

from compiler import model
from compiler.emit.python.chart import LOOKUP_NAMES, READS, SITUATION, ChartEmitter, Param, cite, context_lines
from compiler.emit.python.layout import INDENT, LINE, fill, tuple_display
from compiler.emit.python.literals import literal, literal_lines
from compiler.engine import plain
from compiler.model.dice import DIGIT_FORMS
from compiler.model.text import key_label, natural_text, value_text


def lookup_function(e: ChartEmitter) -> list[str]:
    """`lookup_<id>`. Each argument check is a quick test written inline, with the runtime's
    check (which raises, worded as always) called only when the test fails, and the index is
    read inline: a valid call of a roll or value chart calls nothing but `select` on a miss."""
    chart, c = e.chart, e.names
    reads = READS.get(chart.kind)
    params = e.key_params(e.module.child(LOOKUP_NAMES))
    overlaid = e.overlay_params(params) if chart.overlays else []
    signature = [f"{reads}: int"] if reads else []
    situation = SITUATION if e.reads_situation() else []
    keywords = [f"{p.name}: {p.annotation}" for p in params] + situation + (["drm: int = 0"] if reads else [])
    keywords += [f"{p.name}: {p.annotation}" for p in overlaid]
    if keywords:
        signature += ["*", *keywords]
    body = []
    if chart.kind is model.ChartKind.ROLL and chart.dice is not None:
        outcomes = f"_{c.const}_OUTCOMES"
        body.append(
            _guarded(
                f"type(roll) is not int or roll not in {outcomes}",
                f"_check_natural({e.address}, roll, {outcomes}, {chart.dice_text!r})",
            )
        )
    elif chart.kind is model.ChartKind.VALUE and chart.value_key is not None:
        d = chart.value_key.domain
        outside = [f"value < {d.low!r}"] if d.low is not None else []
        outside += [f"value > {d.high!r}"] if d.high is not None else []
        body.append(
            _guarded(
                " or ".join(["type(value) is not int", *outside]),
                f"_check_value({e.address}, {chart.value_key.id!r}, value, {d.low!r}, {d.high!r})",
            )
        )
    body += [_guarded(p.guard, p.check) if p.guard else p.check for p in params if p.check]
    body += [p.check for p in overlaid]
    modified = "None"
    if reads:
        body.append(_guarded("type(drm) is not int", f"_check_int({e.address}, 'drm', drm)"))
        if situation:
            body.append(e.situation_statement(params, "drm += @[0]"))
        modified = f"{reads} + drm"  # `_modified` without steps, inline: a call is most of a lookup's time
        if chart.arithmetic:
            modified = f"_modified({reads}, drm, _{c.const}_STEPS)"
    if _digit_read_without_meaning(chart) and chart.dice is not None:
        body.append(_guarded("drm", f"_check_no_drm({e.address}, drm, {chart.dice.text!r})"))
    keys = tuple_display([p.selects or p.name for p in params])
    fields = [f"{col.id!r}: row[{i}]" for i, col in enumerate(chart.columns)]
    if chart.overlays and reads:
        body += _overlay_lines(e, params, overlaid, modified, fields)
        modified = "modified"
    if any(r.natural for r in chart.rows):
        rows = f"_{c.const}_NATURAL_ROWS, _{c.const}_INDEX"
        body.append(f"row = _select_natural({e.address}, {rows}, {keys}, {reads}, {modified})")
    elif reads:
        index = f"_{c.const}_INDEX"
        body += [
            *([f"modified = {modified}"] if modified != "modified" else []),
            f"low, by_roll, below, above = {index}.tables.get({keys}) or _UNINDEXED",
            "at = modified - low",
            "row = below if at < 0 else above if at >= len(by_roll) else by_roll[at]",
            _guarded(
                "row is None",
                f"row = {index}.select({e.address}, {keys}, modified)",
                "not indexed yet, or no row: the row scan answers or raises NoRowError",
            ),
        ]
    else:
        body.append(f"row = _select({e.address}, _{c.const}_ROWS, {keys}, None)")
    body += [line.removeprefix(INDENT) for line in fill("return {", fields, "}", INDENT)]
    return e.function(f"lookup_{c.ident}", signature, c.result, lookup_doc(e, params), body)


def _overlay_lines(
    e: ChartEmitter, keys: list[Param], context: list[Param], modified: str, fields: list[str]
) -> list[str]:
    """The overlays' step of `lookup_<id>`: the rows of each overlay whose condition holds, in order,
    read before the chart's own (the first row found is the row read, as chartc reads the chart with
    their rows first)."""
    items = [f"{p.id!r}: {p.selects or p.name}" for p in keys] + [f"{p.id!r}: {p.name}" for p in context]
    key_tuple = tuple_display([p.selects or p.name for p in keys])
    returned = [f.replace("row[", "found[", 1) for f in fields]
    found = [line.removeprefix(INDENT) for line in fill("return {", returned, "}", INDENT)]
    step = [
        *context_lines(items),
        f"for when, rows in _{e.names.const}_OVERLAYS:",
        f"{INDENT}found = _first(rows, {key_tuple}, modified) if _holds(when, context) is True else None",
        f"{INDENT}if found is not None:",
        *(f"{INDENT}{INDENT}{line}" for line in found),
    ]
    tested = {v for o in e.chart.overlays for v in model.condition_vars(o.when)}
    if context and not any(p.annotation.startswith("bool") for p in context) and not tested & {p.id for p in keys}:
        # no flag (whose default, False, is known) and no key (always given): with every variable
        # unknown no overlay holds (three-valued `_holds`), and the lookup skips the step
        given = " or ".join(f"{p.name} is not None" for p in context)
        step = [f"if {given}:", *(INDENT + line for line in "\n".join(step).split("\n"))]
    return [f"modified = {modified}", *step]


def lookup_doc(e: ChartEmitter, params: list[Param]) -> str:
    chart = e.chart
    reads = READS.get(chart.kind)
    doc = [f"{cite(chart)}: the row {f'a {reads} selects' if reads else 'the keys select'}.", "", "Args:"]
    if chart.kind is model.ChartKind.ROLL and chart.dice:
        rolls = chart.natural_rolls
        doc.append(f"    roll: the natural roll on {chart.dice_text}, {rolls[0]} to {rolls[-1]} (what the dice show).")
    if chart.kind is model.ChartKind.VALUE and chart.value_key:
        doc.append(f"    value: {chart.value_key.label} ({chart.value_key.domain.printed}).")
    for key, p in zip(chart.keys, params, strict=True):
        doc.append(f"    {p.name}: {e.key_doc(key)}.")
    if e.reads_situation():
        doc += _situation_doc(e)
    if reads:
        doc.append(f"    drm: the total die roll modifier, added {_drm_place(chart)}"
                   + (", on top of the DRMs read from `when`/`set_`." if e.reads_situation() else "."))
    overlaid = e.overlay_params(params) if chart.overlays and reads else []
    doc += [f"    {p.name}: {e.context_doc(e.game.context[p.id])}." for p in overlaid]
    if overlaid:
        names = ", ".join(o.name for o in chart.overlays)
        doc += ["", f"Overlays ({names}): while one's condition is true, its rows are read first."]
    if chart.arithmetic:
        steps = ", then ".join(s.text for s in chart.pipeline)
        doc += ["", f"The roll is {chart.dice_text}, then {steps}: the rows read the result."]
    doc += [f"{natural_text(e.game, chart, r)}." for r in chart.rows if r.natural]
    doc += ["", "Returns:", "    The row's values by column:"]
    doc += [f"        {c.id!r}: {c.label}" for c in chart.columns]
    if chart.errata_ids:
        applied = ", ".join(chart.errata_ids)
        doc += ["", f"Errata applied: {applied} (see the game's JSON for the printed values)."]
        doc += [f"    {_amended(e.game, chart, r)}" for r in chart.rows if r.errata]
    partial = f" (the chart is partial: {chart.partial})" if chart.partial else ""
    doc += ["", "Raises:", "    ValueError: a roll or key value that cannot occur"
            + (", a name the chart's DRMs do not read." if e.reads_situation() else ".")]
    doc.append(f"    NoRowError: no row is selected{partial}.")
    return "\n".join(doc)


def _situation_doc(e: ChartEmitter) -> list[str]:
    """The docstring lines of `when=` and `set_=`: the names the chart's DRMs read."""
    names = ", ".join(e.situation_vars()) or "none: its DRMs test only its keys"
    return [
        "    when: the flags that are true, by name. Given `when` or `set_`, the chart's DRMs are read in",
        f"        that situation ({names}) and their total added to `drm`, as drm_<id>() adds them",
        "        up; left out, a flag is false and any other value unknown.",
        "    set_: the other values of the situation by name: an int, a month 'YYYY-MM', an enum id or",
        "        label (a flag's True or False too); `set_={}` reads the DRMs with every flag false.",
    ]


def read_function(e: ChartEmitter) -> list[str]:
    """`read_<id>`: a roll chart with DRMs read for a natural roll rolled elsewhere, returned as
    `roll_<id>` returns it (the DRM total, the modified roll, its steps and the DRMs that applied)."""
    chart, c = e.chart, e.names
    params = e.lookup_key_params()
    signature = ["roll: int", "*", *(f"{p.name}: {p.annotation}" for p in params), *SITUATION, "drm: int = 0"]
    doc = (
        f"{cite(chart)}: the row a natural roll selects in the situation given, and how.\n\n"
        f"Takes what lookup_{c.ident}() takes; returns what roll_{c.ident}() returns: the natural roll, the\n"
        "DRM total, the modified roll, the row's values, the steps that made the modified roll and the\n"
        "DRMs that applied (`drms`: id, label and value of each)."
    )
    body = [_guarded(p.guard, p.check) if p.guard else p.check for p in params if p.check]
    body += [
        _guarded("type(drm) is not int", f"_check_int({e.address}, 'drm', drm)"),
        "applied: tuple[AppliedDrm, ...] = ()",
        e.situation_statement(params, "total, applied = @") + f"\n{INDENT}drm += total",
    ]
    call = ", ".join(["roll", *(f"{p.name}={p.name}" for p in params), "drm=drm"])
    steps = f"_{c.const}_STEPS" if chart.arithmetic else "()"
    body.append(f"return _rolled(roll, drm, lookup_{c.ident}({call}), {steps}, applied)")
    return e.function(f"read_{c.ident}", signature, f"Roll[{c.result}]", doc, body)


def _amended(game: model.Game, chart: model.Chart, row: model.Row) -> str:
    """`2:1 3-4: e2021, printed EX (15.1: ...)`: a row or cell an errata changed, cited by id,
    with what the print had and why."""
    name = " ".join([key_label(k, m) for k, m in zip(chart.keys, row.keys, strict=False)]
                    + ([row.range.printed] if row.range is not None else [])) or "the row"
    if row.added:
        was = "not in the print"
    else:
        olds = [value_text(game, c, old) for c, old, new in zip(chart.columns, row.printed_values or (), row.values,
                                                                 strict=False) if old != new]
        if row.printed_range is not None and row.range is not None and row.printed_range != row.range.printed:
            olds.insert(0, f"range {row.printed_range}")
        was = "printed " + ", ".join(olds) if olds else "as printed"
    why = f" ({'; '.join(row.because)})" if row.because else ""
    return f"{name}: {', '.join(row.errata)}, {was}{why}."


def roll_function(e: ChartEmitter) -> list[str]:
    chart, c = e.chart, e.names
    dice = chart.dice
    assert dice is not None
    params = e.key_params(e.module.child(LOOKUP_NAMES))
    context = e.alternative_params(params)
    situation = SITUATION if e.reads_situation() else []
    overlaid = [p for p in e.overlay_params(params) if p.id not in {q.id for q in context}]
    signature = ["rng: random.Random", "*"] + [f"{p.name}: {p.annotation}" for p in params] + situation
    signature += ["drm: int = 0", *(f"{p.name}: {p.annotation}" for p in context + overlaid)]
    doc = (
        f"Roll {dice.text} with `rng` and read {cite(chart)}.\n\n"
        "Returns the natural roll, the DRM, the modified roll, the selected row's values and the steps\n"
        "that made the modified roll.\n"
        "Raises ValueError for an argument that cannot occur and NoRowError when the modified roll\n"
        "selects no row."
    )
    if chart.dice_alternatives:
        doc = (
            f"Roll {chart.dice_text} with `rng` and read {cite(chart)}: the first `when` alternative whose\n"
            f"condition holds ({', '.join(a.dice.text for a in chart.dice_alternatives)}), else {dice.text}.\n\n"
            + doc.split("\n\n", 1)[1]
        )
    call = ", ".join(["natural", *(f"{p.name}={p.name}" for p in params), "drm=drm"])
    call += "".join(f", {p.name}={p.name}" for p in e.overlay_params(params))
    body = [f"_check_rng({e.address}, rng)", *(p.check for p in context)]
    body += natural_roll(e, context)
    if situation:  # read by read_<id>, which names the DRMs that applied
        call = call.replace("drm=drm", "when=when, set_=set_, drm=drm")
        body.append(f"return read_{c.ident}({call})")
    else:
        steps = f", _{c.const}_STEPS" if chart.arithmetic else ""
        body.append(f"return _rolled(natural, drm, lookup_{c.ident}({call}){steps})")
    return dice_constants(e) + e.function(f"roll_{c.ident}", signature, f"Roll[{c.result}]", doc, body)


def dice_constants(e: ChartEmitter) -> list[str]:
    """`_<ID>_DICE`, the chart's dice as the runtime's `_Dice`, and `_<ID>_DICE_WHEN`, its `roll ...
    when` alternatives as (condition, dice) pairs, before `roll_<id>`."""
    chart, const = e.chart, e.names.const
    assert chart.dice is not None
    lines = literal_lines(plain.dice(chart.dice), f"_{const}_DICE: Final = ")
    if chart.dice_alternatives:
        lines.append(f"_{const}_DICE_WHEN: Final = (")
        for when, dice in plain.dice_alternatives(chart):
            lines += fill("(", [literal(when), literal(dice)], "),", INDENT)
        lines.append(")")
    return [*lines, "", ""]


def natural_roll(e: ChartEmitter, context: list[Param]) -> list[str]:
    """The statements that set `natural`: the dice step, the chart's dice or those of the first
    `when` alternative whose condition holds (`_dice_for`)."""
    const = e.names.const
    if not e.chart.dice_alternatives:
        return [f"natural = _roll(rng, _{const}_DICE)"]
    lines = context_lines([f"{p.id!r}: {p.name}" for p in context])
    return [*lines, f"natural = _roll(rng, _dice_for(_{const}_DICE_WHEN, context, _{const}_DICE))"]


def repeated_roll_function(e: ChartEmitter) -> list[str]:
    """`rolls_<id>`: the chart's `repeat N` rolls, each read separately by `roll_<id>`."""
    chart, c = e.chart, e.names
    assert chart.dice is not None
    params = e.key_params(e.module.child(LOOKUP_NAMES))
    context = e.alternative_params(params)
    params += context + [p for p in e.overlay_params(params) if p.id not in {q.id for q in context}]
    situation = SITUATION if e.reads_situation() else []
    signature = ["rng: random.Random", "*"] + [f"{p.name}: {p.annotation}" for p in params] + situation
    signature.append("drm: int = 0")
    doc = (
        f"Roll {chart.dice.text} {chart.repeat} times with `rng` and read each roll on {cite(chart)}.\n\n"
        "Returns one roll_() result per roll, in order. Raises ValueError for an argument that\n"
        "cannot occur and NoRowError when a modified roll selects no row."
    )
    passed = [f"{p.name}={p.name}" for p in params] + (["when=when", "set_=set_"] if situation else [])
    call = ", ".join(["rng", *passed, "drm=drm"])
    body = [f"return [roll_{c.ident}({call}) for _ in range({chart.repeat})]"]
    return e.function(f"rolls_{c.ident}", signature, f"list[Roll[{c.result}]]", doc, body)


def _drm_place(chart: model.Chart) -> str:
    """Where the DRM total enters the roll: `to the natural roll`, or after the steps before it."""
    kinds = [s.kind for s in chart.pipeline]
    before = [s.text for s in chart.pipeline[: kinds.index(model.StepKind.DRMS)]] if chart.arithmetic else []
    return "to the natural roll" if not before else f"after {', '.join(before)}"


def _guarded(test: str, then: str, comment: str = "") -> str:
    """`if TEST:` with the statement THEN (a call) inside and a comment on the `if` line when
    given, as lines of a function body; a line too long is split inside its parentheses."""
    head = f"if {test}:{f'  # {comment}' if comment else ''}"
    if len(INDENT + head) > LINE:
        head = f"if (\n{INDENT}{test}\n):{f'  # {comment}' if comment else ''}"
    if len(INDENT * 2 + then) > LINE and then.endswith(")"):
        call, _, args = then.partition("(")
        then = f"{call}(\n{INDENT * 2}{args.removesuffix(')')}\n{INDENT})"
    return f"{head}\n{INDENT}{then}"


def _digit_read_without_meaning(chart: model.Chart) -> bool:
    """A d66 or percentile roll chart that does not say what a DRM means on it (see C413)."""
    digit_read = chart.dice is not None and chart.dice.form in DIGIT_FORMS
    return chart.kind is model.ChartKind.ROLL and digit_read and chart.drm_meaning is None
