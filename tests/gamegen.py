"""A generator of random VALID games, written in the chart language of docs/language.md.

`generate(seed)` returns the source text of one game folder (file name -> text) built from a
`random.Random(seed)`, so a seed is a complete reproducer. Every game uses a random selection of
the language's constructs: roll charts on every dice form, value-keyed charts, reference charts
keyed by enums and months, grids keyed by periods and odds columns, availability grids, DRMs with
conditions over flag, int, month and enum context variables (and `combine ... clamp`), periods,
enums with records, errata, `derive`, external charts with chart-reference cells, odds rules with
a CRT. Names are drawn from a pool that collides with Python builtins, keywords and the generated
module's own helpers (`total`, `_select`, `range`, `type`, `class`, `None`, ...).

A game the generator writes must check without errors (warnings such as C305 are allowed);
`tests/test_differential.py` asserts it, so a generator mistake, or a false positive of the
checker, shows up there with its seed.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, field

# Names that are a trap in generated Python: builtins, keywords and soft keywords, the generated
# module's helpers and parameters, typing names it imports, and chart-language words.
COLLIDING_NAMES = (
    "total", "_select", "range", "type", "id", "list", "dict", "str", "max", "min", "sum", "len", "any", "all",
    "print", "object", "bool", "float", "open", "input", "vars", "format", "hash", "iter", "next", "roll", "drm",
    "rng", "value", "keys", "values", "natural", "modified", "columns", "chart", "rows", "class", "def", "None",
    "True", "False", "lambda", "match", "case", "_", "type_", "return", "import", "from", "global", "yield", "not_",
    "async", "await", "with", "pass", "is_", "in_", "if_", "_Row", "Final", "Literal", "Any", "Optional", "math",
    "random", "Fraction", "GAME_ID", "GAME_TITLE", "NoRowError", "LOOKUPS", "_key_matches", "_check_member",
    "_check_natural", "_check_value", "_roll", "_round_half_up", "self", "cls", "table", "key", "grid", "column",
    "note", "rule",
)
PLAIN_NAMES = (
    "piston", "jet", "escort", "bomber", "green", "veteran", "ace", "clear", "storm", "fog", "low", "high", "early",
    "late", "alpha", "bravo", "charlie", "delta", "echo", "fox", "golf", "hotel", "india", "kilo",
)
# Names the chart language gives a meaning where a type or a key is named: the builtin column and
# context types, the calendar's keys, flag values. The generator keeps them out of its games (what
# an enum named `flag` or `text` should do is decided elsewhere, with its own tests).
RESERVED_FOR_TYPES = {
    "month", "period", "flag", "text", "int", "pair", "triple", "thresholds", "chartref", "odds", "yes", "no",
}
# Some chart statement keywords cannot be names in some places today, although the language does
# not reserve them (tests/test_differential.py, the xfail tests of keywords as names): the slug
# after a printed ID (`chart [T2] rows "X"`), and a row's key value (`note`, `column`). The
# generator keeps them out of those places until that is fixed.
CHART_STATEMENT_KEYWORDS = {
    "rule", "roll", "value", "key", "column", "drm", "combine", "footnote", "note", "partial", "rows", "grid",
    "availability", "drm_meaning", "derive", "allow", "zero", "repeat", "modified",
}
DRM_MEANING_STATEMENT = "drm_meaning"  # the statement that says what a DRM on a two-digit roll means

# The flag every roll chart DRM of a generated game also tests (see `Generator.drms`).
ENGAGED = "drm_engaged"


@dataclass(frozen=True)
class DiceForm:
    """A dice form as written after `roll`, its outcomes, and how its rolls are printed in ranges."""

    text: str
    outcomes: tuple[int, ...]
    two_digit: bool = False  # d66 and percentile: a DRM needs a `drm_meaning` statement

    def printed(self, roll: int) -> str:
        if self.text == "percentile":
            return "00" if roll == 100 else f"{roll:02d}"
        if self.text == "1d10" and roll == 10:
            return "0"
        return str(roll)

    @property
    def statement(self) -> str:
        """The `roll` line, with `zero reads 10` for the 1d10, whose 10 is printed `0` (C340 without)."""
        return f"roll {self.text}" + ("\n  zero reads 10" if self.text == "1d10" else "")


DICE = (
    DiceForm("1d6", tuple(range(1, 7))),
    DiceForm("2d6", tuple(range(2, 13))),
    DiceForm("1d20", tuple(range(1, 21))),
    DiceForm("1d10", tuple(range(1, 11))),
    DiceForm("percentile", tuple(range(1, 101)), two_digit=True),
    DiceForm("d66", tuple(10 * t + o for t in range(1, 7) for o in range(1, 7)), two_digit=True),
    DiceForm("lower of 2d10", tuple(range(1, 11))),
    DiceForm("1d6 minus 3 min 0", (0, 1, 2, 3)),
)
MONTHS_OF_CALENDAR = ("1944-01", "1945-12")
ODDS_COLUMNS = ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1")


@dataclass
class Enum:
    """An enum the game declares: its id and member ids (with labels)."""

    id: str
    members: list[tuple[str, str]]
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class Context:
    """A context variable: its id and type (`flag`, `int`, `month` or an enum id)."""

    id: str
    type: str


@dataclass
class RowChart:
    """A roll chart the generator wrote in row form: how to name it, its columns and its rows as
    (row reference as an errata names it, cells as written)."""

    address: str
    columns: list[tuple[str, str]]
    rows: list[tuple[str, list[str]]]


class GameWriter:
    """Builds one game's files from a seeded random source; names are unique across the game."""

    def __init__(self, seed: int, game_id: str = "g") -> None:
        self.rng = random.Random(seed)
        self.game_id = game_id
        self.used: set[str] = set()
        self.enums: list[Enum] = []
        self.contexts: list[Context] = []
        self.charts: list[str] = []
        self.chart_ids: list[str] = []
        self.roll_charts: list[RowChart] = []
        self.derivable: list[str] = []  # charts a `derive` may name: row-form roll charts, availability grids
        self.externals: list[str] = []
        self.months = months(*MONTHS_OF_CALENDAR)
        self.periods: list[tuple[str, str, str, str]] = []
        self.odds_rule: str | None = None
        self.counter = 0

    # ---- names ----------------------------------------------------------------------------------

    def name(self, colliding: float = 0.5, avoid: set[str] | None = None) -> str:
        """A fresh name of the game: a colliding one with chance `colliding`, else a plain one."""
        # chart names are compared without case (`Any` and `any` are one chart, C202): so are all here
        avoid = {n.lower() for n in (avoid or set()) | self.used | RESERVED_FOR_TYPES}
        pool = COLLIDING_NAMES if self.rng.random() < colliding else PLAIN_NAMES
        choices = [n for n in pool if n.lower() not in avoid]
        if choices:
            name = self.rng.choice(choices)
        else:
            self.counter += 1
            name = f"n{self.counter}"
        self.used.add(name)
        return name

    def label(self) -> str:
        words = ("Result", "Hit", "Miss", "Escape", "Combat", "Damage", "Safe", "Lost", "Ace", "Green")
        text = " ".join(self.rng.sample(words, self.rng.randint(1, 2)))
        if self.rng.random() < 0.2:
            text += self.rng.choice([' \\"quoted\\"', " \\u00e9l\\u00e8ve", " 3/4", " -1 DRM", " {{ 7*7 }}", " </td>"])
        return text

    # ---- declarations ---------------------------------------------------------------------------

    def header(self) -> str:
        cut = self.rng.randint(3, len(self.months) - 3)
        self.periods = [
            (self.name(0.3, avoid=CHART_STATEMENT_KEYWORDS), "First part", self.months[0], self.months[cut - 1]),
            (self.name(0.3, avoid=CHART_STATEMENT_KEYWORDS), "Second part", self.months[cut], self.months[-1]),
        ]
        lines = [
            f"game {self.game_id} {{",
            '  title "Generated game"',
            f"  calendar {self.months[0]} to {self.months[-1]}",
        ]
        lines += [f'  period {pid} "{label}" {first} to {last}' for pid, label, first, last in self.periods]
        return "\n".join([*lines, "}"]) + "\n"

    def enum(self, records: bool = False) -> Enum:
        members = [
            (self.name(0.4, avoid=CHART_STATEMENT_KEYWORDS), f"Member {i}") for i in range(self.rng.randint(2, 4))
        ]
        e = Enum(self.name(0.5), members)
        if records:
            e.fields = {"available": "month", "weight": "int"}
        self.enums.append(e)
        return e

    def enum_text(self, e: Enum) -> str:
        if not e.fields:
            body = " ".join(f'{mid} "{label}"' for mid, label in e.members)
            return f'enum {e.id} "Enum {e.id}" {{ {body} }}\n'
        lines = [
            f'enum {e.id} "Enum {e.id}" {{',
            '  fields { available: month "Available from"  weight: int "Weight" }',
        ]
        for mid, label in e.members:
            lines.append(f'  {mid} "{label}" {{ available: {self.months[0]}  weight: {self.rng.randint(0, 9)} }}')
        return "\n".join([*lines, "}"]) + "\n"

    def context(self) -> Context:
        kind = self.rng.choice(["flag", "flag", "int", "month"] + (["enum"] if self.enums else []))
        ctype = self.rng.choice(self.enums).id if kind == "enum" else kind
        ctx = Context(self.name(0.6), ctype)
        self.contexts.append(ctx)
        return ctx

    def condition(self, depth: int = 0) -> str:
        """A DRM condition over the context variables, nested up to two levels."""
        if depth < 2 and self.rng.random() < 0.3:
            op = self.rng.choice(["and", "or"])
            left, right = self.condition(depth + 1), self.condition(depth + 1)
            text = f"{left} {op} {right}"
            return f"({text})" if self.rng.random() < 0.5 else text
        if depth < 2 and self.rng.random() < 0.1:
            return f"not ({self.condition(depth + 1)})"
        ctx = self.rng.choice(self.contexts)
        if ctx.type == "flag":
            return ctx.id if self.rng.random() < 0.7 else f"not {ctx.id}"
        if ctx.type == "int":
            return f"{ctx.id} {self.rng.choice(['>=', '<=', '>', '<', '==', '!='])} {self.rng.randint(0, 6)}"
        if ctx.type == "month":
            month = self.rng.choice(self.months)
            if self.rng.random() < 0.3:
                return f"{ctx.id} in [{', '.join(sorted(self.rng.sample(self.months, 2)))}]"
            return f"{ctx.id} {self.rng.choice(['>=', '<=', '>', '<', '==', '!='])} {month}"
        members = next(e for e in self.enums if e.id == ctx.type).members
        if self.rng.random() < 0.3:
            return f"{ctx.id} in [{', '.join(m for m, _ in self.rng.sample(members, 2))}]"
        return f"{ctx.id} {self.rng.choice(['==', '!='])} {self.rng.choice(members)[0]}"

    def drms(self, two_digit: bool) -> list[str]:
        """DRM lines (and a clamp, a `drm_meaning` statement) for a chart, or none."""
        if not self.contexts or self.rng.random() < 0.35:
            return []
        lines = []
        for _ in range(self.rng.randint(1, 3)):
            value = self.rng.choice([-2, -1, 1, 2, 3])
            # every DRM also needs ENGAGED, so the natural roll (no DRM at all) stays a real case: the
            # checker decides which totals the conditions allow, and rows are drawn around the dice
            lines.append(f'  drm {self.name(0.5)} "{self.label()}" {value:+d} when {ENGAGED} and ({self.condition()})')
        if self.rng.random() < 0.3:
            lines.append(f"  combine sum clamp {-self.rng.randint(0, 2):+d} to {self.rng.randint(0, 3):+d}")
        if two_digit:
            lines.append(f'  {DRM_MEANING_STATEMENT} "the DRM is added to the two-digit result"')
        return lines

    # ---- cells and ranges -----------------------------------------------------------------------

    def columns(self, allow_enum: bool = True) -> list[tuple[str, str]]:
        types = ["text", "int", "pair", "triple"]
        if allow_enum and self.enums:
            types.append("enum")
        if self.externals:
            types.append("chartref")
        out = []
        for _ in range(self.rng.randint(1, 3)):
            ctype = self.rng.choice(types)
            out.append((self.name(0.6), self.rng.choice(self.enums).id if ctype == "enum" else ctype))
        return out

    def cell(self, ctype: str) -> str:
        if self.rng.random() < 0.1:
            return "-"
        match ctype:
            case "text":
                return f'"{self.label()}"'
            case "int":
                return str(self.rng.randint(-3, 12))
            case "pair":
                return f"{self.rng.randint(0, 9)}/{self.rng.randint(0, 9)}"
            case "triple":
                return "/".join(str(self.rng.randint(0, 9)) for _ in range(3))
            case "chartref":
                return f"[{self.rng.choice(self.externals)}]"
            case _:
                return self.rng.choice(next(e for e in self.enums if e.id == ctype).members)[0]

    def partition(self, outcomes: tuple[int, ...], parts: int) -> list[tuple[int, int]]:
        """`outcomes` cut into `parts` (or fewer) runs, each (first, last) of consecutive outcomes."""
        parts = max(1, min(parts, len(outcomes)))
        cuts = sorted(self.rng.sample(range(1, len(outcomes)), parts - 1))
        bounds = [0, *cuts, len(outcomes)]
        return [(outcomes[a], outcomes[b - 1]) for a, b in itertools.pairwise(bounds)]

    def ranges(self, dice: DiceForm, parts: int, open_ends: bool, reach: tuple[int, int] = (0, 0)) -> list[str]:
        """Rows tiling the outcomes; with DRMs that may add `reach` = (lowest, highest) total, the
        first row reaches `reach[1]` above the lowest outcome and the last row as far below the
        highest, so that a DRM always in force (a condition that is always true) cannot leave an end
        row unreachable (C306)."""
        runs = _widen_ends(self.partition(dice.outcomes, parts), dice.outcomes, reach)
        printed = [dice.printed(a) if a == b else f"{dice.printed(a)}-{dice.printed(b)}" for a, b in runs]
        if open_ends and len(runs) > 1:
            printed[0] = f"{dice.printed(runs[0][1])}-" if self.rng.random() < 0.5 else printed[0]
            printed[-1] = f"{dice.printed(runs[-1][0])}+" if self.rng.random() < 0.7 else printed[-1]
        return printed

    # ---- charts ---------------------------------------------------------------------------------

    def chart_head(self, title: str) -> tuple[str, str]:
        """`chart [ID] slug "title" {` with a printed ID, a slug or both; returns (head, reference), the
        reference as another statement names the chart (`[R-1]` or `slug`)."""
        choice = self.rng.random()
        slug = self.name(0.5, avoid=CHART_STATEMENT_KEYWORDS if choice < 0.2 else None)
        if self.chart_ids and choice > 0.85:
            # a slug that normalises to the identifier of an earlier printed ID: `[R-1]`, `r_1`, `r_1_2`
            normal = self.chart_ids[-1].lower().replace("-", "_")
            twin = normal + ("_2" if normal == self.chart_ids[-1].lower() else self.rng.choice(["", "_2"]))
            if twin not in self.used and twin[0].isalpha():
                slug = twin
                self.used.add(twin)
        if choice < 0.4:
            self.counter += 1
            chart_id = self.rng.choice(["R", "B", "T", "r", "R-", "X_"]) + str(self.counter)
            self.chart_ids.append(chart_id)
            if choice < 0.2:
                return f'chart [{chart_id}] {slug} "{title}" {{', f"[{chart_id}]"
            return f'chart [{chart_id}] "{title}" {{', f"[{chart_id}]"
        return f'chart {slug} "{title}" {{', slug

    def key_lines(self) -> tuple[list[str], list[list[str]]]:
        """Up to two `key` lines and, for each, the values a row may name."""
        lines: list[str] = []
        values: list[list[str]] = []
        candidates = [e for e in self.enums if not e.fields]
        for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
            if self.rng.random() < 0.3 and "period" not in lines:
                lines.append("period")
                values.append([p[0] if self.rng.random() < 0.7 else f'"{p[1]}"' for p in self.periods])
            elif candidates:
                e = self.rng.choice(candidates)
                candidates.remove(e)
                key = e.id if self.rng.random() < 0.6 else self.name(0.6)
                lines.append(e.id if key == e.id else f"{key}: {e.id}")
                values.append([m for m, _ in e.members])
        return [f"  key {line}" for line in lines], values

    def roll_chart(self) -> str:
        dice = self.rng.choice(DICE)
        head, address = self.chart_head(f"Roll on {dice.text}")
        keys, key_values = self.key_lines()
        cols = self.columns()
        lines = [head, f'  rule "{self.rng.randint(1, 20)}.{self.rng.randint(1, 9)}"', f"  {dice.statement}", *keys]
        lines += [f'  column {cid}: {ctype} "{cid.title()}"' for cid, ctype in cols]
        drm_lines = self.drms(dice.two_digit)
        lines += drm_lines
        lines.append("  rows {")
        rows = []
        for combo in _product(key_values):
            for printed in self.ranges(dice, self.rng.randint(1, 5), open_ends=True, reach=_drm_reach(drm_lines)):
                ref = f"{' '.join(combo)} {printed}".strip()
                cells = [self.cell(t) for _, t in cols]
                rows.append((ref, cells))
                lines.append(f"    {ref}: {', '.join(cells)}")
        lines += ["  }", "}"]
        self.roll_charts.append(RowChart(address, cols, rows))
        if dice.text != "d66" and " minus " not in dice.text:
            # band boundaries moved on d66 leave its outcomes uncovered (`21-26` -1 is `20-25`, and
            # 26 selects no row): chartc reports the gap (C302), so such a derive is not a valid game;
            # a roll read after arithmetic (`minus 3 min 0`) has bands that cannot move (C404)
            self.derivable.append(address)
        return "\n".join(lines) + "\n"

    def value_chart(self) -> str:
        head, _ = self.chart_head("Read by a value")
        cols = self.columns()
        top = self.rng.randint(3, 30)
        domain = tuple(range(0, top + 1))
        lines = [head, f'  value {self.name(0.6)} "Level" 0+']
        lines += [f'  column {cid}: {ctype} "{cid.title()}"' for cid, ctype in cols]
        lines.append("  rows {")
        runs = self.partition(domain, self.rng.randint(1, 5))
        for i, (a, b) in enumerate(runs):
            printed = f"{a}+" if i == len(runs) - 1 else (str(a) if a == b else f"{a}-{b}")
            lines.append(f"    {printed}: {', '.join(self.cell(t) for _, t in cols)}")
        lines += ["  }", "}"]
        return "\n".join(lines) + "\n"

    def reference_chart(self) -> str:
        head, _ = self.chart_head("Reference")
        cols = self.columns()
        if self.rng.random() < 0.4:
            cut = self.rng.randint(1, len(self.months) - 1)
            lines = [head, "  key month", *[f'  column {c}: {t} "{c.title()}"' for c, t in cols], "  rows {"]
            first = f"{self.months[0]}..{self.months[cut - 1]}" if cut > 1 else self.months[0]
            lines.append(f"    {first}: {', '.join(self.cell(t) for _, t in cols)}")
            lines.append(f"    {self.months[cut]}+: {', '.join(self.cell(t) for _, t in cols)}")
            return "\n".join([*lines, "  }", "}"]) + "\n"
        keys, key_values = self.key_lines()
        if not keys:
            return self.value_chart()
        lines = [head, *keys, *[f'  column {c}: {t} "{c.title()}"' for c, t in cols], "  rows {"]
        for combo in _product(key_values):
            lines.append(f"    {' '.join(combo)}: {', '.join(self.cell(t) for _, t in cols)}")
        return "\n".join([*lines, "  }", "}"]) + "\n"

    def grid_chart(self) -> str:
        dice = self.rng.choice([d for d in DICE if len(d.outcomes) >= 3])
        head, _ = self.chart_head(f"Grid on {dice.text}")
        if self.rng.random() < 0.5 or not [e for e in self.enums if not e.fields]:
            key, heads = "period", [p[0] if self.rng.random() < 0.6 else f'"{p[1]}"' for p in self.periods]
        else:
            e = self.rng.choice([e for e in self.enums if not e.fields])
            key, heads = e.id, [m for m, _ in e.members]
        labels = [f'"{self.label()} {i}"' for i in range(self.rng.randint(2, 4))]
        columns = []
        for _ in heads:
            runs = self.partition(dice.outcomes, len(labels))
            given = sorted(self.rng.sample(range(len(labels)), len(runs)))
            cells = ["-"] * len(labels)
            for slot, (a, b) in zip(given, runs, strict=True):
                cells[slot] = dice.printed(a) if a == b else f"{dice.printed(a)}-{dice.printed(b)}"
            columns.append(cells)
        lines = [head, f"  {dice.statement}", f'  column {self.name(0.6)}: text "Result"']
        lines += self.drms(dice.two_digit) if self.rng.random() < 0.3 else []
        lines.append(f"  grid {key} [{', '.join(heads)}] {{")
        for i, label in enumerate(labels):
            lines.append(f"    {label}: {' | '.join(col[i] for col in columns)}")
        return "\n".join([*lines, "  }", "}"]) + "\n"

    def availability_chart(self) -> str:
        e = self.enum(records=True)
        head, address = self.chart_head("Availability")
        self.derivable.append(address)
        months = sorted(self.rng.sample(self.months, self.rng.randint(1, 4)))
        lines = [head, "  roll 1d6", f"  availability {e.id} by month [{', '.join(months)}] {{"]
        for mid, _ in e.members:
            cells = [
                self.rng.choice(["✓", "-", f"1-{self.rng.randint(1, 6)}", str(self.rng.randint(1, 6))]) for _ in months
            ]
            lines.append(f"    {mid}: {' | '.join(cells)}")
        return "\n".join([*lines, "  }", "}"]) + "\n"

    def odds_and_crt(self) -> str:
        rule = self.name(0.5)
        self.odds_rule = rule
        columns = list(ODDS_COLUMNS[self.rng.randint(0, 2) : self.rng.randint(4, 6)])
        quoted = ", ".join(f'"{c}"' for c in columns)
        text = (
            f'odds {rule} "Combat odds" {{\n  columns [{quoted}]\n'
            f"  attacker_high round {self.rng.choice(['down', 'up', 'nearest'])}\n"
            f"  defender_high round {self.rng.choice(['down', 'up', 'nearest'])}\n"
            f"  beyond clamp\n}}\n"
        )
        head, _ = self.chart_head("Combat Results Table")
        dice = DICE[0]
        lines = [head, "  roll 1d6", f"  key odds: {rule}", f'  column {self.name(0.6)}: pair "A/D"']
        lines.append(f"  grid odds [{', '.join(chr(34) + c + chr(34) for c in columns)}] {{")
        labels = ["1/0", "0/0", "0/1"]
        cols = []
        for _ in columns:
            runs = self.partition(dice.outcomes, 3)
            given = sorted(self.rng.sample(range(3), len(runs)))
            cells = ["-"] * 3
            for slot, (a, b) in zip(given, runs, strict=True):
                cells[slot] = str(a) if a == b else f"{a}-{b}"
            cols.append(cells)
        for i, label in enumerate(labels):
            lines.append(f"    {label}: {' | '.join(col[i] for col in cols)}")
        return text + "\n".join([*lines, "  }", "}"]) + "\n"

    def derived_chart(self) -> str | None:
        if not self.derivable:
            return None
        base = self.rng.choice(self.derivable)
        head, _ = self.chart_head("Derived")
        return f"{head}\n  derive from {base} bands {self.rng.choice([-2, -1, 1, 2]):+d}\n}}\n"

    def drms_chart(self) -> str | None:
        if not self.contexts:
            return None
        head, _ = self.chart_head("DRMs")
        lines = [head.replace("chart ", "drms ", 1)]
        for _ in range(self.rng.randint(1, 3)):
            lines.append(
                f'  drm {self.name(0.5)} "{self.label()}" {self.rng.choice([-1, 1, 2]):+d} when {self.condition()}'
            )
        return "\n".join([*lines, "}"]) + "\n"

    def errata(self) -> str | None:
        if not self.roll_charts:
            return None
        chart = self.rng.choice(self.roll_charts)
        ops = [f'retitle "{self.label()} (corrected)" because "a printing error"', f'note "{self.label()}"']
        ops += self.cell_changes(chart)
        return (
            f'errata {self.name(0.5)} "Errata" {{\n  order 1\n  amend {chart.address} {{\n    '
            + "\n    ".join(self.rng.sample(ops, self.rng.randint(1, len(ops))))
            + "\n  }\n}\n"
        )

    def cell_changes(self, chart: RowChart) -> list[str]:
        """Up to two `change ROW column COLUMN to VALUE` operations, each to a value unlike the printed one."""
        changes = []
        for ref, cells in self.rng.sample(chart.rows, min(2, len(chart.rows))):
            index = self.rng.randrange(len(chart.columns))
            column, ctype = chart.columns[index]
            value = next((v for v in (self.cell(ctype) for _ in range(8)) if v not in ("-", cells[index])), None)
            if value is not None:
                changes.append(f'change {ref} column {column} to {value} because "misprinted"')
        return changes

    def files(self) -> dict[str, str]:
        header = self.header()
        decls = []
        for _ in range(self.rng.randint(1, 3)):
            decls.append(self.enum())
        contexts = [self.context() for _ in range(self.rng.randint(0, 3))]
        if self.rng.random() < 0.5:
            self.counter += 1
            ext = f"E{self.counter}"
            self.externals.append(ext)
        names = "\n".join(self.enum_text(e) for e in decls)
        ctx = "".join(f'context {c.id}: {c.type} "{c.id}"\n' for c in contexts)
        ctx += f'context {ENGAGED}: flag "DRMs in play"\n' if contexts else ""
        ext_text = "".join(f'external [{e}] "Printed elsewhere" "on the player aid cards"\n' for e in self.externals)
        makers = [self.roll_chart, self.roll_chart, self.value_chart, self.reference_chart, self.grid_chart]
        makers += [self.availability_chart, self.odds_and_crt]
        charts = [self.rng.choice(makers)() for _ in range(self.rng.randint(2, 6))]
        charts = [c for c in charts if c]
        extras = [
            self.derived_chart() if self.rng.random() < 0.3 else None,
            self.drms_chart() if self.rng.random() < 0.3 else None,
        ]
        errata = self.errata() if self.rng.random() < 0.3 else None
        # enums declared by availability charts (records) are written with the charts
        record_enums = "\n".join(self.enum_text(e) for e in self.enums if e.fields)
        out = {
            "game.chart": header + "\n" + names + ctx + ext_text,
            "charts.chart": record_enums + "\n".join(c for c in [*charts, *extras] if c),
        }
        if errata:
            out["errata.chart"] = errata
        return out


def generate(seed: int, game_id: str = "g") -> dict[str, str]:
    """The files of one random valid game (file name -> text), fully determined by `seed`."""
    return GameWriter(seed, game_id).files()


def months(first: str, last: str) -> list[str]:
    """Every month from `first` to `last` ('YYYY-MM'), both included."""
    year, month = int(first[:4]), int(first[5:])
    out = []
    while f"{year:04d}-{month:02d}" <= last:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def _product(values: list[list[str]]) -> list[list[str]]:
    combos: list[list[str]] = [[]]
    for options in values:
        combos = [[*c, v] for c in combos for v in options]
    return combos


def _drm_reach(drm_lines: list[str]) -> tuple[int, int]:
    """The lowest and highest total the written `drm` lines can add (every negative, every positive)."""
    found = (re.search(r'^\s*drm \S+ (?:"(?:[^"\\]|\\.)*" )?([+-]\d+)', line) for line in drm_lines)
    values = [int(m.group(1)) for m in found if m]
    return sum(v for v in values if v < 0), sum(v for v in values if v > 0)


def _widen_ends(
    runs: list[tuple[int, int]], outcomes: tuple[int, ...], reach: tuple[int, int]
) -> list[tuple[int, int]]:
    """Merge runs into the first until it reaches `reach[1]` above the lowest outcome, and into the
    last until it starts `-reach[0]` below the highest."""
    low, high = outcomes[0] + reach[1], outcomes[-1] + reach[0]
    while len(runs) > 1 and runs[0][1] < low:
        runs = [(runs[0][0], runs[1][1]), *runs[2:]]
    while len(runs) > 1 and runs[-1][0] > high:
        runs = [*runs[:-2], (runs[-2][0], runs[-1][1])]
    return runs
