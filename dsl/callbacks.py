"""Build the syntax tree while Lark's LALR parser runs, with no parse tree in between.

Lark's LALR parser calls a callback when it shifts a token and when it reduces a rule; by default
those build a `lark.Tree` with positions (`propagate_positions`), which `Builder` then walked a
second time. Here each reduction calls the builder's method for its rule at once, with the rule's
children chosen as Lark chooses them (anonymous tokens left out, a None for each absent `[...]`,
`_rule`s spliced in, a `?rule` with one child replaced by it) and with the rule's extent, computed
as `propagate_positions` computes it: from the start of its first token to the end of its last,
tokens left out of the children included.

Each value on the parser's stack is a token (a `NAME`, `STRING` or `CHART_ID` already turned into
its `ast` value by the builder's terminal callback, at shift time as the parse tree's transform
met them: in source order) or an entry for a reduced rule: `(value, extent)`, where extent is
`(line, col, end_line, end_col)` or None for a rule that matched nothing. The entries of the
condition and formula rules also carry how deeply they nest (`Nesting`); a file nested deeper
than the parser allows raises `TooDeep`, and the caller reads the parse tree to say where.

Lark's own `transformer=` option does the same for plain callbacks, but cannot pass a rule's
positions (it refuses `v_args(meta=True)`): the callbacks are given to one parse through Lark's
interactive parser instead (`parse_interactive`, then its parser state's callbacks).

What it saves, against the standard way (Lark's parse tree, walked for nesting too deep, then a
`lark.Transformer` calling the same builder methods): `chartc check` of bench.py's 10,000
synthetic rows takes 0.80x-0.85x of the CPU, and `chartc check charts` (the corpus, about 0.6 s)
0.90x-0.98x (four runs of 7-9 pairs on 2 CPUs beside other jobs: `python scripts/bench.py --only
check --baseline DIR`, DIR a copy of chartc whose `dsl/parser.py` parses the standard way); the
parse alone of those rows, 0.81 s against 1.12 s (the last line of `--stages`, which builds the
same tree the standard way and checks it is equal).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from lark import Token, Tree
from lark.grammar import Terminal

from dsl.builder import Builder, Extent

if TYPE_CHECKING:
    from lark import Lark
    from lark.grammar import Rule

_Callback = Callable[[list[Any]], Any]


class TooDeep(Exception):
    """A condition or formula nests deeper than the parser allows (somewhere in the file)."""


@dataclass(frozen=True)
class Nesting:
    """What counts as nesting, and how deep it may go: the rules (by name) of each count and the
    most such rules around any node of the tree."""

    conditions: frozenset[str]
    max_conditions: int
    formulas: frozenset[str]
    max_formulas: int


def parse(parser: Lark, callbacks: dict[Any, _Callback], text: str) -> Any:
    """The start rule's value of `text`, built by `callbacks` (from `make_callbacks`).

    Raises:
        lark.exceptions.UnexpectedInput: the text does not parse.
        TooDeep: a condition or formula nests too deeply.
        BuildError: a terminal the builder refuses (a bad escape, a number too long).
    """
    interactive = parser.parse_interactive(text)
    interactive.parser_state.parse_conf.callbacks = callbacks
    entry = interactive.resume_parse()  # type: ignore[no-untyped-call]
    return entry[0]


def make_callbacks(parser: Lark, builder: Builder, nesting: Nesting) -> dict[Any, _Callback]:
    """The LALR callbacks that build `builder`'s values: one per rule of `parser`, and one per
    terminal the builder converts (`NAME`, `STRING`, `INT`, ...)."""
    callbacks: dict[Any, _Callback] = {}
    for terminal in parser.terminals:
        convert = getattr(builder, terminal.name, None)
        if convert is not None:
            callbacks[terminal.name] = convert
    placeholders = bool(parser.options.maybe_placeholders)
    carriers = _carriers(parser.rules, nesting)
    for rule in parser.rules:
        callbacks[rule] = _rule_callback(rule, builder, nesting, placeholders, rule.origin.name in carriers)
    return callbacks


def _name(rule: Rule) -> str:
    """The name of the builder's method for `rule` (as Lark names a rule's tree)."""
    return str(rule.alias or rule.options.template_source or rule.origin.name)


def _carriers(rules: list[Rule], nesting: Nesting) -> set[str]:
    """The rules (by origin) whose value may hold a condition or a formula node: the nodes that
    count, and the `?rule`s and `_rule`s a value passes through."""
    counted = nesting.conditions | nesting.formulas
    carriers = {r.origin.name for r in rules if _name(r) in counted}
    grew = True
    while grew:
        grew = False
        for r in rules:
            passes = (r.options.expand1 and not r.alias) or r.origin.name.startswith("_")
            if passes and r.origin.name not in carriers and any(s.name in carriers for s in r.expansion):
                carriers.add(r.origin.name)
                grew = True
    return carriers


def _rule_callback(rule: Rule, builder: Builder, nesting: Nesting, placeholders: bool, carrier: bool) -> _Callback:
    name = _name(rule)
    plan, trailing = _child_plan(rule, placeholders)
    children = _children(plan, trailing, len(rule.expansion))
    if name.startswith("_"):  # spliced into the rule that uses it
        if carrier:
            return lambda s: (children(s), _extent(s), *_depths(s))
        return lambda s: (children(s), _extent(s))

    method = getattr(builder, name, None)
    counts = (name in nesting.conditions, name in nesting.formulas)
    if method is not None and counts == (False, False) and not (rule.options.expand1 and not rule.alias):

        def reduce(s: list[Any]) -> Any:  # most rules
            extent = _extent(s)
            return (method(extent, *children(s)), extent)

        return reduce

    splices = any(splice for _, splice, _ in plan)
    kept = [i for i, _, _ in plan]

    def reduce_any(s: list[Any]) -> Any:
        args = children(s)
        if rule.options.expand1 and not rule.alias and len(args) == 1:
            # the child replaces the rule; its entry spans the rule's text
            if splices:  # pragma: no cover - the grammar's `?rule`s splice only after a child
                raise NotImplementedError(f"`?{name}` reduced to one child of a `_rule`")
            child = s[kept[0]] if kept else None
            if type(child) is not tuple:  # a token (or a placeholder): its own position
                return child if child is not None else (None, None)
            return (child[0], _extent(s), *child[2:])
        extent = _extent(s)
        value = method(extent, *args) if method is not None else Tree(name, args)
        if counts == (False, False):
            return (value, extent)
        deep, ops = _depths(s)
        deep, ops = max(0, counts[0] + deep), max(0, counts[1] + ops)
        if deep > nesting.max_conditions or ops > nesting.max_formulas:
            raise TooDeep(name)
        return (value, extent, deep, ops)

    return reduce_any


def _children(plan: list[tuple[int, bool, int]], trailing: int, size: int) -> Callable[[list[Any]], list[Any]]:
    """The function that picks a rule's children (as Lark's child filter does) from the values
    the parser reduces, as the builder takes them."""
    kept = [i for i, _, _ in plan]
    if trailing or any(splice or nones for _, splice, nones in plan):

        def general(s: list[Any]) -> list[Any]:
            out: list[Any] = []
            for i, splice, nones in plan:
                if nones:
                    out += [None] * nones
                c = s[i]
                if splice:
                    if out:
                        out += c[0]
                    else:  # a left-recursive `_rule*`: extend its list in place (as Lark does)
                        out = c[0]
                else:
                    out.append(c[0] if type(c) is tuple else c)
            if trailing:
                out += [None] * trailing
            return out

        return general
    if not kept:
        return lambda s: []
    if kept == list(range(size)):
        return lambda s: [c[0] if type(c) is tuple else c for c in s]
    if len(kept) == 1:
        (only,) = kept

        def one(s: list[Any]) -> list[Any]:
            c = s[only]
            return [c[0] if type(c) is tuple else c]

        return one
    pick = itemgetter(*kept)
    return lambda s: [c[0] if type(c) is tuple else c for c in pick(s)]


def _child_plan(rule: Rule, placeholders: bool) -> tuple[list[tuple[int, bool, int]], int]:
    """Lark's child filter for `rule` (`maybe_create_child_filter`): for each child kept, its
    index among the rule's symbols, whether it is a `_rule` to splice in and the Nones (absent
    `[...]` parts) before it; and the Nones after the last."""
    expansion = rule.expansion
    empty = rule.options.empty_indices if placeholders else ()
    if empty:
        flags = "".join(str(int(b)) for b in empty)
        nones_at = [len(ones) for ones in flags.split("0")]
    else:
        nones_at = [0] * (len(expansion) + 1)
    plan: list[tuple[int, bool, int]] = []
    nones = 0
    for i, sym in enumerate(expansion):
        nones += nones_at[i]
        if rule.options.keep_all_tokens or not (isinstance(sym, Terminal) and sym.filter_out):
            plan.append((i, not sym.is_term and sym.name.startswith("_"), nones))
            nones = 0
    return plan, nones + nones_at[len(expansion)]


def _extent(s: list[Any]) -> Extent:
    """From the start of the first child that spans text to the end of the last one."""
    if not s:
        return None
    c = s[0]
    t = type(c)
    if t is Token:
        line, col = c.line, c.column
    elif t is tuple:
        if c[1] is None:
            return _extent_past_empty(s)
        line, col = c[1][0], c[1][1]
    else:  # a terminal the builder converted: `ast.Name`, `ast.Text`
        line, col = c.span.line, c.span.col
    c = s[-1]
    t = type(c)
    if t is Token:
        return (line, col, c.end_line, c.end_column)
    if t is tuple:
        if c[1] is None:
            return _extent_past_empty(s)
        return (line, col, c[1][2], c[1][3])
    return (line, col, c.span.end_line, c.span.end_col)


def _extent_past_empty(s: list[Any]) -> Extent:
    """`_extent` when a child matched no text: from the first child that did to the last."""
    spanning = [c for c in s if type(c) is not tuple or c[1] is not None]
    return _extent(spanning) if spanning else None


def _depths(s: list[Any]) -> tuple[int, int]:
    """The most condition and formula rules around a node below any of these children (-1 with
    no node below them): a rule that counts adds itself, and nests too deeply when either
    passes its limit (`dsl.parser` counts the rules around each node of the parse tree)."""
    deep = ops = -1
    for c in s:
        if type(c) is tuple and c[1] is not None:
            d, o = (c[2], c[3]) if len(c) == 4 else (0, 0)
            deep, ops = max(deep, d), max(ops, o)
    return deep, ops
