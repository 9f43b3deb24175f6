"""Worked examples: bind each example's chart and the columns its `expect` lines name, and type the
cells they state against those columns. Whether the charts agree is `compiler.checks.examples`'s question.

Inputs (`roll`, `key`, `when`, `set`) stay as written: they are read as `chartc lookup` reads its
options when the example is evaluated, so an example and the command line cannot differ.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler import model
from compiler.diagnostics import Applicability, Sink, codes, fixes
from compiler.diagnostics.messages import declared_twice
from compiler.engine.chains import chains_in
from compiler.resolve.symbols import SymbolTable, named, unknown
from compiler.resolve.values import Bad, ValueTyper
from dsl import ast


def examples(
    symbols: SymbolTable, decls: list[tuple[str, ast.ExampleDecl]], typer: ValueTyper, sink: Sink
) -> list[model.Example]:
    """Every example (with the source file it is in) that names a chart of the game, in source
    order; C202 for a name used twice."""
    seen: dict[str, ast.Span] = {}
    resolved = []
    for path, decl in decls:
        if decl.name.text in seen:
            declared_twice(sink, f"example `{decl.name.text}`", decl.name.span, seen[decl.name.text])
            continue
        seen[decl.name.text] = decl.name.span
        example = _example(symbols, path, decl, typer, sink)
        if example is not None:
            resolved.append(example)
    return resolved


def _example(
    symbols: SymbolTable, path: str, decl: ast.ExampleDecl, typer: ValueTyper, sink: Sink
) -> model.Example | None:
    for span in decl.repeated:
        sink.emit(
            codes.REPEATED_STATEMENT,
            f"example `{decl.name.text}` states this more than once",
            span,
            "delete the repeated line (list several rolls as `roll 3, 5`, several flags as `when a, b`)",
            fix=fixes.delete(span, "the repeated statement", Applicability.UNSAFE),
        )
    name = decl.name.text
    if decl.formula is not None:
        return _formula_example(symbols, path, decl, sink)
    missing = [what for what, given in (("chart", decl.chart), ("rule", decl.rule)) if given is None]
    if not decl.expects:
        missing.append("expect")
    if missing:
        sink.emit(
            codes.EXAMPLE_UNREADABLE,
            f"example `{name}` gives no {' and no '.join(f'`{m}`' for m in missing)}",
            decl.name.span,
            'an example names its chart (`chart [R4]`), cites its rule (`rule "7.1.10"`) and states a result '
            '(`expect result = "Combat"`)',
        )
        return None
    assert decl.chart is not None
    chart = symbols.chart_named(
        decl.chart,
        sink,
        f"example `{name}` reads chart `{decl.chart.text}`, which game `{symbols.id}` does not declare",
    )
    if chart is None:
        return None
    expects = [e for e in (_expect(symbols, decl, chart, x, typer, sink) for x in decl.expects) if e is not None]
    if len(expects) < len(decl.expects):
        return None
    return _resolved(decl, path, chart.address, None, tuple(expects))


def _resolved(
    decl: ast.ExampleDecl, path: str, chart: str, formula: str | None, expects: tuple[model.Expect, ...]
) -> model.Example:
    return model.Example(
        id=decl.name.text,
        title=decl.title.text,
        rule=decl.rule.text if decl.rule else None,
        notes=tuple(n.text for n in decl.notes),
        chart=chart,
        formula=formula,
        keys=tuple((k.name.text, k.text) for k in decl.keys),
        rolls=tuple(r.text for r in decl.rolls),
        when=tuple(w.text for w in decl.when),
        sets=tuple((s.name.text, s.text) for s in decl.sets),
        drm=decl.drm,
        attack=decl.attack,
        defense=decl.defense,
        shift=decl.shift,
        follow=decl.follow,
        expects=expects,
        contradicts=decl.contradicts.text if decl.contradicts else None,
        source_file=path,
        span=decl.span,
        contradicts_span=decl.contradicts.span if decl.contradicts else None,
        contradicts_statement=decl.contradicts_statement,
        aid=decl.aid,
    )


def _formula_example(
    symbols: SymbolTable, path: str, decl: ast.ExampleDecl, sink: Sink
) -> model.Example | None:
    """An example that computes a formula: `formula NAME`, `set`/`when` inputs, `expect value N`."""
    assert decl.formula is not None
    name = decl.name.text
    undeclared = f"example `{name}` computes formula `{decl.formula.text}`, which game `{symbols.id}` does not declare"
    formula = named(symbols.formulas, decl.formula, sink, undeclared)
    if formula is None:
        return None
    wrong = [e for e in decl.expects if e.kind is not ast.ExpectKind.NUMBER]
    chart_inputs = decl.chart or decl.keys or decl.rolls or decl.attack is not None or decl.follow
    if decl.rule is None or not decl.expects or wrong or chart_inputs:
        sink.emit(
            codes.EXAMPLE_UNREADABLE,
            f"example `{name}` computes formula `{formula.id}`: it cites its rule, gives the inputs with `set` and "
            "`when`, and states the result with `expect value N` (no chart, key, roll or other `expect`)",
            wrong[0].span if wrong else decl.name.span,
            'e.g. `rule "22.2"  formula production_increase  set production = 10  expect value 13`',
        )
        return None
    expects = tuple(model.Expect(model.ExpectKind.NUMBER, e.span, text=e.text) for e in decl.expects)
    return _resolved(decl, path, "", formula.id, expects)


def _expect(
    symbols: SymbolTable,
    decl: ast.ExampleDecl,
    chart: model.Chart,
    written: ast.ExpectDecl,
    typer: ValueTyper,
    sink: Sink,
) -> model.Expect | None:
    """The expectation with its cell typed against the column it names; None after reporting it."""
    kind = written.kind
    if kind is model.ExpectKind.NUMBER:
        sink.emit(
            codes.EXAMPLE_UNREADABLE,
            f"example `{decl.name.text}` reads chart `{chart.address}`: `expect value` is for an example that "
            "computes a formula",
            written.span,
            "state a cell (`expect result = ...`), the row, the DRM or the modified roll",
        )
        return None
    if kind is not model.ExpectKind.CELL:
        return model.Expect(kind, written.span, text=written.text)
    assert written.column is not None and written.value is not None
    charts = list(_reachable(symbols, chart)) if decl.follow else [chart]
    column = next((c for ch in charts for c in ch.columns if c.id == written.column.text), None)
    if column is None:
        where = f"chart `{chart.address}`" + (" or the charts its results lead to" if decl.follow else "")
        unknown(
            sink,
            f"example `{decl.name.text}` expects column `{written.column.text}`, which {where} does not have",
            written.column,
            sorted({c.id for ch in charts for c in ch.columns}),
        )
        return None
    value = typer.typed(written.value, column.type, f"column `{column.id}` of example `{decl.name.text}`")
    if isinstance(value, Bad):
        return None
    return model.Expect(kind, written.span, column.id, value, written.text)


def _reachable(symbols: SymbolTable, first: model.Chart) -> Iterator[model.Chart]:
    """The chart and every chart its chained cells can lead to, nearest first (each once)."""
    queue, seen = [first], {first.address}
    while queue:
        chart = queue.pop(0)
        yield chart
        for row in chart.rows:
            for value in row.values:
                for ref in (c.address for c in chains_in(value) if isinstance(c, model.ChartRef)):
                    target = symbols.chart(ref)
                    if target is not None and target.address not in seen:
                        seen.add(target.address)
                        queue.append(target)
