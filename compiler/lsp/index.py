"""What the language server knows about a checked game: every declared name and every place it
is used, read from the syntax trees and the model of one `workspace.GameCheck`.

Hover, definition, references, completion, document symbols and code actions are answered here,
as plain data in chartc's own 1-based positions; `server` only converts them to the protocol.
Nothing here checks anything: the findings, labels and chances are those of the compiler.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.diagnostics import CODES, Applicability, Diagnostic
from compiler.diagnostics.explain import explain_text, find_code, load_examples
from compiler.diagnostics.fixes import Edit, Fix, resolved_edits
from compiler.engine.chances import drm_values, percent_text, row_chances
from compiler.lsp.positions import contains
from compiler.lsp.workspace import GameCheck
from compiler.model.text import pipeline_text
from dsl import ast
from dsl.aid_order import read_order
from dsl.keywords import grammar_keywords


class Kind(enum.StrEnum):
    """What a declared name is."""

    ENUM = "enum"
    MEMBER = "member"
    CONTEXT = "context"
    PERIOD = "period"
    CHART = "chart"


class Role(enum.StrEnum):
    """What the grammar says a name at some place refers to, which narrows the kinds it can be."""

    ENUM = "enum"  # `key interceptor`, `context x: interceptor`
    VALUE = "value"  # a row key, a cell, a condition's operand: a member or a period
    VARIABLE = "variable"  # a condition's variable: a context variable or one of the chart's keys
    CHART = "chart"  # `[B6]`, `-> [B6]`, `amend R4`, an `aid.order` line
    CODE = "code"  # `allow C305 "..."`


_KINDS: dict[Role, frozenset[Kind]] = {
    Role.ENUM: frozenset({Kind.ENUM}),
    Role.VALUE: frozenset({Kind.MEMBER, Kind.PERIOD}),
    Role.VARIABLE: frozenset({Kind.CONTEXT, Kind.ENUM}),
    Role.CHART: frozenset({Kind.CHART}),
    Role.CODE: frozenset(),
}


@dataclass(frozen=True)
class Declaration:
    """A declared name: its kind, its name, where the name is written, and the enum of a member."""

    kind: Kind
    name: str
    span: Span
    owner: str | None = None


Span = ast.Span

_CHART_LINE = re.compile(r"^[ \t]*(?:chart|drms|external)[ \t]+\[([A-Za-z0-9][A-Za-z0-9_.\-]*)\]", re.MULTILINE)
"""A chart declaration's printed ID at the start of a line (completion reads it from an unsaved
buffer that may not parse)."""


@dataclass(frozen=True)
class Use:
    """A name written somewhere: as a declaration (`declaration` set) or as a reference."""

    role: Role
    name: str
    span: Span
    declaration: Declaration | None = None


@dataclass(frozen=True)
class QuickFix:
    """A code action: a finding's fix (`Diagnostic.fix`), its edits as the file's text takes them
    (a deletion that blanks its line takes the line), preferred when the fix is safe."""

    title: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic
    preferred: bool


@dataclass(frozen=True)
class Symbol:
    """An entry of a file's outline."""

    kind: Kind
    name: str
    detail: str
    span: Span
    selection: Span


# the name fields of the syntax tree and what a name there refers to (declarations are found apart)
_ROLES: dict[tuple[type, str], Role] = {
    (ast.KeyDecl, "type_name"): Role.ENUM,
    (ast.ContextDecl, "type_name"): Role.ENUM,
    (ast.GridDecl, "key"): Role.VARIABLE,
    (ast.RollGridDecl, "key"): Role.VARIABLE,
    (ast.AvailabilityDecl, "row_key"): Role.VARIABLE,
    (ast.AvailabilityDecl, "col_key"): Role.VARIABLE,
    (ast.CondFlag, "var"): Role.VARIABLE,
    (ast.CondCompare, "var"): Role.VARIABLE,
    (ast.CondIn, "var"): Role.VARIABLE,
    (ast.DrmPerDecl, "var"): Role.VARIABLE,
    (ast.AmendDecl, "chart"): Role.CHART,
    (ast.ChainText, "target"): Role.CHART,
    (ast.ShiftSourceDecl, "chart"): Role.CHART,
    (ast.ExampleDecl, "chart"): Role.CHART,
    (ast.ExampleInput, "name"): Role.VARIABLE,
    (ast.AllowDecl, "code"): Role.CODE,
}


def _declarations(tree: ast.SourceFile) -> Iterator[Declaration]:
    for game in tree.game:
        for period in game.periods:
            yield Declaration(Kind.PERIOD, period.name.text, period.name.span)
    for decl in tree.enums:
        yield Declaration(Kind.ENUM, decl.name.text, decl.name.span)
        for member in decl.members:
            yield Declaration(Kind.MEMBER, member.name.text, member.name.span, decl.name.text)
    for context in tree.contexts:
        yield Declaration(Kind.CONTEXT, context.name.text, context.name.span)
    for chart in tree.charts:
        for name in (chart.chart_id, chart.slug):
            if name is not None:
                yield Declaration(Kind.CHART, name.text, name.span)


def _uses(node: object, parent: object = None, field: str = "") -> Iterator[Use]:
    """Every reference in a syntax tree, walking each dataclass field (new node types are walked
    without being listed; only the fields that hold references need a role above)."""
    if isinstance(node, ast.Name):
        role = _ROLES.get((type(parent), field))
        if role is not None:
            yield Use(role, node.text, node.span)
        return
    if isinstance(node, ast.Operand):
        if node.kind is ast.OperandKind.NAME:
            yield Use(Role.VALUE, node.text, node.span)
        return
    if isinstance(node, ast.KeyValueText):
        yield Use(Role.VALUE, node.text, node.span)
        return
    if isinstance(node, ast.ValueText):
        if node.kind is ast.ValueKind.CHART:
            yield Use(Role.CHART, node.text, node.span)
        elif node.kind is ast.ValueKind.NAME:
            yield Use(Role.VALUE, node.text, node.span)
        if node.chain is not None:
            yield from _uses(node.chain, node, "chain")
        return
    if isinstance(node, tuple):
        for item in node:
            yield from _uses(item, parent, field)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _uses(getattr(node, f.name), node, f.name)


class GameIndex:
    """The names of one checked game and where each is declared and used."""

    def __init__(self, check: GameCheck) -> None:
        self.check = check
        games = list(check.compilation.project.games.values())
        self.game: model.Game | None = games[0] if games else None
        self.declarations: list[Declaration] = []
        self.uses: dict[str, list[Use]] = {}
        for name, tree in check.trees.items():
            found = list(_declarations(tree))
            self.declarations.extend(found)
            self.uses[name] = [Use(_ROLE_OF[d.kind], d.name, d.span, d) for d in found] + list(_uses(tree))
        for name, text in check.compilation.sources.items():
            if name not in check.trees and self.game is not None:  # aid.order
                self.uses[name] = list(_order_uses(name, text, self.game.id))

    # ---- finding -------------------------------------------------------------------------

    def use_at(self, file: str, line: int, col: int) -> Use | None:
        """The innermost name written at (line, col) of `file`."""
        found = [u for u in self.uses.get(file, []) if contains(u.span, line, col)]
        return min(found, key=lambda u: (u.span.end_line - u.span.line, u.span.end_col - u.span.col), default=None)

    def resolve(self, use: Use) -> list[Declaration]:
        """The declarations a use can mean: its own, or those of its name and an allowed kind."""
        if use.declaration is not None:
            return [use.declaration]
        name = use.name.strip("[]")
        return [d for d in self.declarations if d.name == name and d.kind in _KINDS[use.role]]

    def definition(self, file: str, line: int, col: int) -> list[Declaration]:
        use = self.use_at(file, line, col)
        return [] if use is None else self.resolve(use)

    def references(self, file: str, line: int, col: int, with_declaration: bool = True) -> list[Span]:
        """Every place the name at (line, col) is written, meaning the same declaration."""
        targets = set(self.definition(file, line, col))
        if not targets:
            return []
        spans = [
            u.span
            for uses in self.uses.values()
            for u in uses
            if (with_declaration or u.declaration is None) and targets & set(self.resolve(u))
        ]
        return sorted(set(spans), key=lambda s: (s.file, s.line, s.col))

    # ---- hover ---------------------------------------------------------------------------

    def hover(self, file: str, line: int, col: int) -> str | None:
        """Markdown for what is at (line, col): a diagnostic code's explanation, a name's
        declaration and label, or a row's exact chance."""
        use = self.use_at(file, line, col)
        code = _code_at(self.check.text(file), line, col)
        if code is not None and (use is None or use.role is Role.CODE):
            return code
        if use is not None:
            texts = [self.describe(d) for d in self.resolve(use)]
            if texts:
                return "\n\n---\n\n".join(texts)
        row = self.row_at(file, line, col)
        return None if row is None else row_hover(*row)

    def describe(self, decl: Declaration) -> str:
        """A declaration in words, with the label the model gives it and its source line."""
        where = f"{decl.span.file}:{decl.span.line}"
        source = self.check.text(decl.span.file).split("\n")[decl.span.line - 1].strip()
        return f"{self._heading(decl)}\n\n```chart\n{source}\n```\ndeclared at `{where}`"

    def _heading(self, decl: Declaration) -> str:
        game = self.game
        match decl.kind:
            case Kind.ENUM:
                found = game.enums.get(decl.name) if game else None
                label = f' "{found.label}", {len(found.members)} members' if found else ""
                return f"**enum** `{decl.name}`{label}"
            case Kind.MEMBER:
                owner = game.enums.get(decl.owner or "") if game else None
                member = next((m for m in owner.members if m.id == decl.name), None) if owner else None
                label = f' "{member.label}"' if member else ""
                return f"**member** `{decl.name}`{label} of enum `{decl.owner}`"
            case Kind.CONTEXT:
                var = game.context.get(decl.name) if game else None
                label = f': {var.type.value} "{var.label}"' if var else ""
                return f"**context variable** `{decl.name}`{label}"
            case Kind.PERIOD:
                period = next((p for p in game.periods if p.id == decl.name), None) if game else None
                label = f' "{period.label}", {period.first} to {period.last}' if period else ""
                return f"**period** `{decl.name}`{label}"
            case Kind.CHART:
                chart = game.chart(decl.name) if game else None
                if chart is None:
                    return f"**chart** `{decl.name}`"
                rule = f", rule {chart.rule}" if chart.rule else ""
                dice = f", roll {pipeline_text(chart) or chart.dice_text}" if chart.dice else ""
                return f'**chart** `{chart.address}` "{chart.title}"{rule}{dice}'
            case _ as unreachable:
                assert_never(unreachable)

    def row_at(self, file: str, line: int, col: int) -> tuple[model.Chart, model.Row] | None:
        """The chart row whose span holds (line, col)."""
        if self.game is None:
            return None
        for chart in self.game.charts:
            if chart.span.file != file or not contains(chart.span, line, col):
                continue
            for row in chart.rows:
                if row.span.file == file and contains(row.span, line, col):
                    return chart, row
        return None

    # ---- completion ----------------------------------------------------------------------

    def completions(self, file: str, line: int, col: int) -> list[tuple[str, str]]:
        """(label, what it is) for the cursor: chart IDs after `[`, context variables, members
        and periods in a condition (after `when`), else keywords, members and chart IDs."""
        text = self.check.text(file).split("\n")
        before = text[line - 1][: col - 1] if 0 < line <= len(text) else ""
        game = self.game
        charts = [(c.address, f"chart: {c.title}") for c in game.charts] if game else []
        known = {n for c in (game.charts if game else ()) for n in (c.chart_id, c.slug) if n}
        charts += self._unsaved_charts(file, known)
        if before.rstrip(_WORD_CHARS).endswith("["):
            return charts
        members = self._members()
        if re.search(r"\bwhen\b", before):
            variables = [(v.id, f"context {v.type.value}: {v.label}") for v in game.context.values()] if game else []
            periods = [(p.id, f"period: {p.label}") for p in game.periods] if game else []
            return variables + members + periods
        keywords = [(k, "keyword") for k in grammar_keywords()]
        return keywords + members + charts

    def _unsaved_charts(self, file: str, known: set[str]) -> list[tuple[str, str]]:
        """The chart IDs declared in the game's syntax trees and, read line by line, in the edited
        file's text (a buffer being typed in may not parse, and a game with errors may not
        compile), that the compiled game does not list."""
        found = [(d.name, "chart (not yet checked)") for d in self.declarations if d.kind is Kind.CHART]
        found += [(m.group(1), "chart (not yet checked)") for m in _CHART_LINE.finditer(self.check.text(file))]
        return [(n, what) for n, what in dict(found).items() if n not in known]

    def _members(self) -> list[tuple[str, str]]:
        if self.game is None:
            return []
        return [
            (m.id, f"{e.id}: {m.label}") for e in self.game.enums.values() if not e.synthetic for m in e.members
        ]

    # ---- outline and fixes ---------------------------------------------------------------

    def symbols(self, file: str) -> list[Symbol]:
        """The outline of a file: its enums, context variables and charts, in source order."""
        tree = self.check.trees.get(file)
        if tree is None:
            return []
        out = [Symbol(Kind.ENUM, e.name.text, e.label.text if e.label else "", e.span, e.name.span) for e in tree.enums]
        out += [Symbol(Kind.CONTEXT, c.name.text, c.type_name.text, c.span, c.name.span) for c in tree.contexts]
        for chart in tree.charts:
            names = [n for n in (chart.chart_id, chart.slug) if n is not None]
            title = " ".join(f"[{n.text}]" if n is chart.chart_id else n.text for n in names) or chart.title.text
            selection = names[0].span if names else chart.title.span
            out.append(Symbol(Kind.CHART, title, chart.title.text, chart.span, selection))
        return sorted(out, key=lambda s: (s.span.line, s.span.col))

    def fixes(self, diagnostics: list[Diagnostic]) -> list[QuickFix]:
        """The quick fixes of the findings: each finding's own fix, as `chartc check --fix` applies it
        (display-only fixes are not offered)."""
        found: list[QuickFix] = []
        for d in diagnostics:
            if d.fix is None or not d.fix.applicable:
                continue
            edits = tuple(e for file in dict.fromkeys(e.span.file for e in d.fix.edits)
                          for e in resolved_edits(self.check.text(file), _only(d.fix, file)))
            found.append(QuickFix(d.fix.message, edits, d, d.fix.applicability is Applicability.SAFE))
        return found


def _only(fix: Fix, file: str) -> Fix:
    """`fix` with the edits of `file` alone."""
    return dataclasses.replace(fix, edits=tuple(e for e in fix.edits if e.span.file == file))


_ROLE_OF = {Kind.ENUM: Role.ENUM, Kind.MEMBER: Role.VALUE, Kind.PERIOD: Role.VALUE, Kind.CONTEXT: Role.VARIABLE,
            Kind.CHART: Role.CHART}
_WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"


def _order_uses(file: str, text: str, game_id: str) -> Iterator[Use]:
    """The chart addresses of an `aid.order` file, placed as the project's check places them."""
    lines = text.lstrip("\ufeff").split("\n")
    for entry in read_order(text, game_id):
        if entry.address is None:
            continue
        col = lines[entry.line - 1].find(entry.address) + 1 or 1
        yield Use(Role.CHART, entry.address, Span(file, entry.line, col, entry.line, col + len(entry.address)))


def _code_at(text: str, line: int, col: int) -> str | None:
    """`chartc explain`'s text for a diagnostic code (`C305`) written at (line, col)."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    for match in re.finditer(r"\bC[0-9]{3}\b", lines[line - 1]):
        if match.start() < col <= match.end() + 1:
            code = find_code(match.group(0))
            if code is not None and code.code in CODES:
                return f"**{code.code}** `{code.name}`\n\n```text\n{explain_text(code, load_examples()[code.code])}```"
    return None


def row_hover(chart: model.Chart, row: model.Row) -> str:
    """A row's exact chance on the natural roll and the DRM totals under which it can be selected,
    from `compiler.engine.chances` (the numbers `chartc odds` and the player aid print)."""
    head = f"row `{row.range.printed if row.range else ''}` of chart `{chart.address}`"
    if row.errata:
        printed = f"; printed `{row.printed_range}`" if row.printed_range else ""
        head += f" (as amended by errata {', '.join(f'`{e}`' for e in row.errata)}{printed})"
    if chart.dice is None:
        return f"{head}: read by a value, not a roll"
    index = next(i for i, r in enumerate(chart.rows) if r is row)
    natural: set[Fraction] = set()
    reaching: set[int] = set()
    for combo, drm, chances, _ in row_chances(chart):
        if not any(r is row for r in chart.rows_for(combo)):
            continue
        if drm == 0:
            natural.add(chances[index])
        if chances[index]:
            reaching.add(drm)
    shown = " or ".join(f"{percent_text(p)} ({p.numerator}/{p.denominator})" for p in sorted(natural))
    totals = drm_values(chart)
    span = f"DRM {_signed(totals[0])} to {_signed(totals[-1])}" if len(totals) > 1 else "no DRM"
    reach = f"selected under DRM totals {totals_text(sorted(reaching))}" if reaching else "selected under no DRM total"
    return f"{head}, {chart.dice_text}\n\n- natural roll: **{shown or '0%'}**\n- {reach} (declared span: {span})"


def _signed(total: int) -> str:
    """A DRM total as printed: `+1`, `-1`, `0`."""
    return f"{total:+d}" if total else "0"


def totals_text(totals: list[int]) -> str:
    """Ascending DRM totals as runs: `-1 to +1`, `-2, 0 to +3`."""
    runs: list[list[int]] = []
    for total in totals:
        if runs and total == runs[-1][-1] + 1:
            runs[-1].append(total)
        else:
            runs.append([total])
    return ", ".join(_signed(r[0]) if len(r) == 1 else f"{_signed(r[0])} to {_signed(r[-1])}" for r in runs)
