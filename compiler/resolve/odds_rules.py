"""Phase 1: `odds` blocks (CRT odds rules) and the enum of odds columns a CRT is keyed by."""

from __future__ import annotations

from compiler import crt, model
from compiler.diagnostics import Sink, codes
from compiler.resolve.symbols import SymbolTable
from dsl import ast


def odds_rule(symbols: SymbolTable, decl: ast.OddsDecl, path: str, sink: Sink) -> model.Chart | None:
    """An `odds` block: the rule as a chart of kind `odds`; its odds columns are declared as an
    enum, so a CRT can be keyed by them."""

    where = f"odds rule `{decl.name.text}`"
    for span in decl.repeated:
        sink.emit(
            codes.REPEATED_STATEMENT,
            f"this statement may appear only once in {where}",
            span,
            "delete the repeated line",
        )
    ok = True
    for side, how in (("attacker_high", decl.attacker_round), ("defender_high", decl.defender_round)):
        if how is None:
            sink.emit(
                codes.CHART_SHAPE,
                f"{where} does not say how {side.replace('_', '-')} odds round",
                decl.name.span,
                f"add e.g. `{side} round down`",
            )
            ok = False
    columns: list[str] = []
    for c in decl.columns:
        ratio = crt.parse_label(c.text)
        if ratio is None:
            sink.emit(codes.TYPE_MISMATCH, f"odds column `{c.text}` is not a ratio like `3:1` or `1:2`", c.span)
            ok = False
        elif columns and crt.scale(ratio) <= crt.scale(crt.parse_label(columns[-1]) or (1, 1)):
            sink.emit(
                codes.COLUMN_ORDER,
                f"odds column `{c.text}` does not come after `{columns[-1]}`",
                c.span,
                "list odds columns from the defender's best to the attacker's best, each once",
            )
            ok = False
        else:
            columns.append(c.text.replace(" ", ""))
    if columns and decl.beyond is None:
        sink.emit(
            codes.CHART_SHAPE,
            f"{where} does not say what happens to odds beyond the table's edge",
            decl.name.span,
            "add `beyond clamp` (use the edge column) or `beyond error`",
        )
        ok = False
    if not ok:
        return None
    rule = crt.OddsRule(
        id=decl.name.text,
        chart_id=decl.chart_id.text if decl.chart_id else None,
        title=decl.title.text,
        rule=decl.rule.text if decl.rule else None,
        notes=tuple(n.text for n in decl.notes),
        attacker_round=crt.Rounding(decl.attacker_round or "down"),
        defender_round=crt.Rounding(decl.defender_round or "up"),
        columns=tuple(columns),
        beyond=crt.Beyond(decl.beyond) if decl.beyond else None,
        shift_order=crt.ShiftOrder(decl.shift_order) if decl.shift_order else None,
        span=decl.span,
    )
    if columns:
        if decl.name.text in symbols.enums:
            sink.emit(codes.DUPLICATE_NAME, f"`{decl.name.text}` names both an enum and an odds rule", decl.name.span)
            return None
        members = tuple(model.Member(crt.member_id(c), c, decl.span) for c in columns)
        symbols.enums[decl.name.text] = model.EnumType(decl.name.text, decl.title.text, members, decl.name.span)
    return model.Chart(
        game=symbols.id,
        chart_id=rule.chart_id,
        slug=rule.id,
        title=rule.title,
        rule=rule.rule,
        kind=model.ChartKind.ODDS,
        dice=None,
        value_key=None,
        keys=(),
        columns=(),
        drms=(),
        clamp=None,
        footnotes=(),
        notes=rule.notes,
        partial=None,
        rows=(),
        grid=None,
        source_file=path,
        span=decl.span,
        odds=rule,
    )
