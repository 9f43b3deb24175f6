"""Random valid games whose roll charts use every construct a reading of a roll has, for the
player aid's engine differential (tests/test_aid_engine.py).

`tests.gamegen` writes the games of the three-way differential (CLI, generated Python, JSON rows);
its roll charts keep to plain DRMs and a few dice. The aid's JavaScript engine reads more than
that, so `generate(seed)` here writes games (through `gamegen.GameWriter`'s names, labels, cells
and conditions) whose roll charts add, each at random: every dice form (keep forms, `versus`,
`minus`, 2d10, `zero reads 0`), `roll ... when` alternatives, per-N DRMs with every rounding and
ints declared across zero, exclusive DRM groups (`best`, `worst`, `one`), DRMs on the chart's own
keys and read from a terrain effects chart, `combine sum clamp`, `modified clamp`, natural rows; and
CRTs keyed by odds rules of every form (ratio with rounding or `between`, differential, strength),
either `beyond`, shifts before or after the edge, column shifts with conditions, exclusive shift
groups, shifts read from the terrain effects chart, and `shift_cap`.

A game written here must check without errors, as `gamegen`'s must (test_aid_engine.py asserts
it), so a generator mistake or a checker's false positive shows up with its seed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tests.gamegen import DICE, ENGAGED, Context, DiceForm, GameWriter, _product, _widen_ends


@dataclass(frozen=True)
class ZeroDice(DiceForm):
    """Dice whose d10s read 0-9 (`zero reads 0`): every roll printed as it is."""

    def printed(self, roll: int) -> str:
        return str(roll)

    @property
    def statement(self) -> str:
        return f"roll {self.text}\n  zero reads 0"


def _sums(count: int, sides: int, less: int = 0, floor: int | None = None) -> tuple[int, ...]:
    totals = {sum(faces) - less for faces in itertools.product(range(1, sides + 1), repeat=count)}
    return tuple(sorted({max(floor, t) if floor is not None else t for t in totals}))


# Dice a chart may roll with others (`roll ... when`): no two-digit reading, no `zero reads 0`.
MIXABLE = (
    *(d for d in DICE if not d.two_digit),
    DiceForm("2d10", _sums(2, 10)),
    DiceForm("1d8", _sums(1, 8)),
    DiceForm("3d6", _sums(3, 6)),
    DiceForm("higher of 2d10", tuple(range(1, 11))),
    DiceForm("highest 3 of 4d6", tuple(range(3, 19))),
    DiceForm("lowest 2 of 3d6", tuple(range(2, 13))),
    DiceForm("drop lowest 1 of 3d6", tuple(range(2, 13))),
    DiceForm("1d6 versus 1d6", tuple(range(-5, 6))),
    DiceForm("2d6 minus 4 min 1", _sums(2, 6, 4, 1)),
    # a 6 rolls again and adds, twice at most: 1-5, 6+1..6+5, 12+1..12+6
    DiceForm("exploding 1d6 depth 2", (*range(1, 6), *range(7, 12), *range(13, 19))),
    DiceForm("highest 3 of 10d10", tuple(range(3, 31))),
)
DIGIT_READ = tuple(d for d in DICE if d.two_digit)
ROLLS = (
    *MIXABLE,
    *DIGIT_READ,
    ZeroDice("1d10", tuple(range(0, 10))),
    ZeroDice("2d10", tuple(range(0, 19))),
    ZeroDice("1d10 versus 1d10", tuple(range(-9, 10))),
)
# The odds columns a ratio rule may print: unit ratios (read by rounding) and others (read with
# `between columns`), each list ascending.
PLAIN = DiceForm("plain", ())  # prints every roll as it is


def _without_arithmetic(dice: DiceForm) -> DiceForm:
    """The dice of a form with arithmetic, the steps left out (`2d6 minus 4 min 1` -> `2d6`)."""
    if " minus " not in dice.text:
        return dice
    written = dice.text.split(" minus ")[0]
    count, sides = (int(n) for n in written.split("d"))
    return DiceForm(written, _sums(count, sides))


def _clash(a: DiceForm, b: DiceForm) -> bool:
    """Whether one of the dice has a d10 and the other rolls 0 or less."""
    return ("d10" in a.text and b.outcomes[0] <= 0) or ("d10" in b.text and a.outcomes[0] <= 0)


UNIT_RATIOS = ("1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1")
ALL_RATIOS = ("1:4", "1:3", "1:2", "2:3", "1:1", "3:2", "2:1", "5:2", "3:1", "4:1", "6:1")


@dataclass
class IntContext(Context):
    """An int context variable with its declared range (per-N DRMs need one)."""

    low: int = 0
    high: int = 0


class RollGameWriter(GameWriter):
    """`GameWriter` with the roll constructs above; see the module docstring."""

    def __init__(self, seed: int, game_id: str = "g") -> None:
        super().__init__(seed, game_id)
        self.ints: list[IntContext] = []
        self.terrain: tuple[str, str, list[str]] | None = None  # (TEC reference, enum context id, members)
        self.fixes: dict[str, list[str]] = {}  # chart reference -> errata operations correcting its print

    # ---- declarations ---------------------------------------------------------------------------

    def int_context(self) -> IntContext:
        low = self.rng.choice([0, 0, -3, -1, 1])
        ctx = IntContext(self.name(0.6), "int", low, low + self.rng.randint(2, 14))
        self.contexts.append(ctx)
        self.ints.append(ctx)
        return ctx

    def terrain_chart(self) -> str:
        """A terrain effects chart keyed by an enum a context variable holds: a `shift` and a `drm`
        column the CRTs and roll charts may read."""
        e = self.enum()
        var = Context(self.name(0.6), e.id)
        self.contexts.append(var)
        head, ref = self.chart_head("Terrain effects")
        self.terrain = (ref, var.id, [m for m, _ in e.members])
        lines = [head, f"  key {e.id}", '  column shift: int "Column shift"', '  column drm: int "DRM"', "  rows {"]
        for member, _ in e.members:
            lines.append(f"    {member}: {self.rng.randint(-2, 1)}, {self.rng.randint(-1, 2)}")
        return self.enum_text(e) + f'context {var.id}: {e.id} "{var.id}"\n' + "\n".join([*lines, "  }", "}"]) + "\n"

    # ---- DRMs -----------------------------------------------------------------------------------

    def guarded(self, keys: list[tuple[str, list[str]]]) -> str:
        """`when ENGAGED and (...)` over the context or, sometimes, one of the chart's keys."""
        if keys and self.rng.random() < 0.3:
            key, values = self.rng.choice(keys)
            test = f"{key} == {self.rng.choice(values)}"
        else:
            test = self.condition()
        return f"when {ENGAGED} and ({test})"

    def drm_lines(self, keys: list[tuple[str, list[str]]], two_digit: bool) -> tuple[list[str], tuple[int, int]]:
        """DRM statements and the lowest and highest total they may add (each DRM at its extremes)."""
        if not self.contexts or self.rng.random() < 0.2:
            return [], (0, 0)
        lines: list[str] = []
        low = high = 0

        def one(indent: str) -> tuple[str, int, int]:
            value = self.rng.choice([-3, -2, -1, 1, 2, 3])
            name, label = self.name(0.5), self.label()
            if self.ints and self.rng.random() < 0.4:
                value = self.rng.choice([-2, -1, 1, 2])
                var = self.rng.choice(self.ints)
                step = self.rng.choice([1, 2, 3, 5])
                rounding = self.rng.choice(["", " round down", " round up", " round nearest"])
                counts = [-(-x // step) if "up" in rounding else x // step for x in (var.low, var.high)]
                counts += [(x + step // 2) // step for x in (var.low, var.high)]  # nearest, roughly
                totals = [value * c for c in counts] + [0]
                text = f'{indent}drm {name} "{label}" {value:+d} per {step} {var.id}{rounding} {self.guarded(keys)}'
                return text, min(totals), max(totals)
            return f'{indent}drm {name} "{label}" {value:+d} {self.guarded(keys)}', min(value, 0), max(value, 0)

        for _ in range(self.rng.randint(1, 3)):
            if high - low > 24:  # DRMs spanning more than 64 are too many to check (C415)
                break
            text, a, b = one("  ")
            lines.append(text)
            low, high = low + a, high + b
        if high - low <= 24 and self.rng.random() < 0.4:
            mode = self.rng.choice(["best", "worst", "one"])
            members = [one("    ") for _ in range(self.rng.randint(2, 3))]
            if mode == "one":  # members exclusive (C330 otherwise): each on its own value of a variable
                members = self.exclusive_members(members)
            if members:
                lines.append(f'  drm_group {self.name(0.5)} "{self.label()}" {mode} {{')
                lines += [m[0] for m in members] + ["  }"]
                low, high = low + min(m[1] for m in members), high + max(m[2] for m in members)
        if self.terrain and self.rng.random() < 0.3:
            ref, var, _ = self.terrain
            lines.append(f'  drm {self.name(0.5)} "Terrain" from {ref} column drm by {var}')
            low, high = low - 1, high + 2
        if self.rng.random() < 0.3:
            clamp = (-self.rng.randint(0, 2), self.rng.randint(0, 3))
            lines.append(f"  combine sum clamp {clamp[0]:+d} to {clamp[1]:+d}")
            low, high = max(low, clamp[0]), min(high, clamp[1])
        if two_digit:
            lines.append('  drm_meaning "the DRM is added to the two-digit result"')
        return lines, (min(low, 0), max(high, 0))

    def exclusive_members(self, members: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        """Members of a `one` group rewritten to test one flag each way, so no two can apply together."""
        flags = [c for c in self.contexts if c.type == "flag"]
        if not flags:
            return []
        flag = self.rng.choice(flags).id
        out = []
        for (text, a, b), test in zip(members[:2], [flag, f"not {flag}"], strict=False):
            head = text.split(" when ")[0]
            out.append((f"{head} when {ENGAGED} and {test}", a, b))
        return out

    # ---- roll charts ----------------------------------------------------------------------------

    def rich_roll_chart(self) -> str:
        dice = self.rng.choice(ROLLS)
        alternatives: list[tuple[DiceForm, str]] = []
        if dice in MIXABLE and self.contexts and self.rng.random() < 0.3 and " minus " not in dice.text:
            # a printed `0` on a chart with a d10 would need `zero reads` (C340), which every dice of
            # the chart must then have a d10 for (C341): a d10 is not mixed with rolls of 0 or less
            # (a d66 or percentile alternative without `drm_meaning`: its DRM has no answer while rolled).
            # A chart's arithmetic (`minus ... min`) is its own, for every dice it rolls: a chart with
            # it rolls no other dice, and an alternative is written without it (C343)
            others = [d for d in (*MIXABLE, *DIGIT_READ) if d != dice and not _clash(d, dice)]
            picked = self.rng.sample(others, self.rng.randint(1, 2))
            alternatives = [(_without_arithmetic(d), self.condition()) for d in picked]
        every = [dice, *(d for d, _ in alternatives)]
        two_digit = any(d.two_digit for d in every)
        outcomes = tuple(sorted({o for d in every for o in d.outcomes}))
        head, address = self.chart_head(f"Roll on {dice.text}")
        key_lines, key_values = self.key_lines()
        keys = [(line.split()[1].rstrip(":"), values) for line, values in zip(key_lines, key_values, strict=True)]
        keys = [(k, v) for k, v in keys if k != "period"]
        cols = self.columns()
        rolls = [f"  roll {d.text} when {cond}" for d, cond in alternatives]
        lines = [head, *rolls, f"  {dice.statement}" if not alternatives else f"  roll {dice.text}", *key_lines]
        lines += [f'  column {cid}: {ctype} "{cid.title()}"' for cid, ctype in cols]
        meaning = dice.two_digit or (two_digit and self.rng.random() < 0.5)  # C413 asks it of the `roll` alone
        drm_lines, reach = self.drm_lines(keys, meaning)
        lines += drm_lines
        runs = self.runs(outcomes, reach)
        # a natural row reads the die as it shows, so a roll with arithmetic (whose outcomes are the
        # results after it) gets none: `0 natural` on `1d6 minus 3 min 0` is a face no die has (C306)
        arithmetic = " minus " in dice.text
        naturals = self.natural_rolls(outcomes) if drm_lines and not two_digit and not arithmetic else []
        runs = _merge_lone(runs, naturals)
        clamped = drm_lines and not two_digit and self.rng.random() < 0.4
        if clamped:
            low = self.rng.randint(outcomes[0] - 2, runs[0][1])
            lines.append(f"  modified clamp {low} to {self.rng.randint(max(low, runs[-1][0]), outcomes[-1] + 2)}")
        natural_printer = dice if not alternatives else PLAIN  # with other dice, no `zero reads`: 10 is `10`
        # after a clamp or arithmetic a row's range is a number as printed (`10`, not a d10's `0`)
        printer = PLAIN if clamped or arithmetic else natural_printer
        printed = [printer.printed(a) if a == b else f"{printer.printed(a)}-{printer.printed(b)}" for a, b in runs]
        if len(runs) > 1 and (drm_lines or self.rng.random() < 0.5):
            printed[0] = f"{printer.printed(runs[0][1])}-"
            printed[-1] = f"{printer.printed(runs[-1][0])}+"
        lines.append("  rows {")
        combos = _product(key_values)
        misprinted = self.rng.randrange(len(combos)) if self.rng.random() < 0.4 else None
        for c, combo in enumerate(combos):
            prefix = " ".join(combo)
            texts = [f"{natural_printer.printed(n)} natural" for n in naturals] + printed
            if c == misprinted:
                texts = self.misprint(address, prefix, texts, runs, printer, cols, naturals)
            for text in texts:
                cells = ", ".join(self.cell(t) for _, t in cols)
                lines.append(f"    {' '.join(filter(None, [prefix, text]))}: {cells}")
        self.charts.append(address)
        return "\n".join([*lines, "  }", "}"]) + "\n"

    def misprint(
        self,
        address: str,
        prefix: str,
        texts: list[str],
        runs: list[tuple[int, int]],
        printer: DiceForm,
        cols: list[tuple[str, str]],
        naturals: list[int],
    ) -> list[str]:
        """The rows of one key combination as a misprint that an errata corrects (`self.fixes`): a
        row printed one roll too long, so it overlaps the next (`move` back, or `remove` and `add`),
        or a natural row that should not be there (`remove`). Returns the rows as printed."""
        def ref(text: str) -> str:
            return " ".join(filter(None, [prefix, text]))

        ops = self.fixes.setdefault(address, [])
        if naturals and self.rng.random() < 0.3:
            extra = self.rng.choice(runs)[0]
            text = printer.printed(extra)
            if extra not in naturals and text not in texts:  # a row reference names it alone
                ops.append(f'remove {ref(text)} because "no natural roll reads this"')
                return [f"{text} natural", *texts]
        if len(runs) < 2:
            return texts
        i = self.rng.randrange(len(runs) - 1)
        j = len(naturals) + i
        right = texts[j]
        low = runs[i][0]
        reach = printer.printed(runs[i + 1][0])
        wrong = f"{reach}-" if right.endswith("-") else f"{printer.printed(low)}-{reach}"
        if wrong in texts:
            return texts
        if self.rng.random() < 0.5:
            ops.append(f'move {ref(wrong)} to {right} because "one roll too many"')
        else:
            cells = ", ".join(self.cell(t) for _, t in cols)
            ops += [f'remove {ref(wrong)} because "misprinted"', f'add {ref(right)}: {cells} because "as meant"']
        return [*texts[:j], wrong, *texts[j + 1 :]]

    def errata_text(self) -> str:
        """One errata document amending every misprinted chart."""
        fixes = {address: ops for address, ops in self.fixes.items() if ops}
        if not fixes:
            return ""
        blocks = [f"  amend {a} {{\n" + "".join(f"    {op}\n" for op in ops) + "  }\n" for a, ops in fixes.items()]
        return f'errata {self.name(0.5)} "Errata" {{\n  order 1\n' + "".join(blocks) + "}\n"

    def runs(self, outcomes: tuple[int, ...], reach: tuple[int, int]) -> list[tuple[int, int]]:
        """Rows tiling the outcomes (as `gamegen` cuts them), the end rows widened for the DRMs."""
        return _widen_ends(self.partition(outcomes, self.rng.randint(1, 6)), outcomes, reach)

    def natural_rolls(self, outcomes: tuple[int, ...]) -> list[int]:
        """Up to two natural rows (`1 natural:`), at the ends or anywhere."""
        if len(outcomes) < 4 or self.rng.random() < 0.5:
            return []
        picks = {self.rng.choice([outcomes[0], outcomes[-1], self.rng.choice(outcomes)]) for _ in range(2)}
        return sorted(picks)

    # ---- CRTs -----------------------------------------------------------------------------------

    def odds_declaration(self) -> tuple[str, str, list[str], bool]:
        """An odds rule of a random form: its name, text, columns, and whether it says where shifts go."""
        rule = self.name(0.5)
        form = self.rng.choice(["ratio", "ratio", "differential", "strength"])
        lines = [f'odds {rule} "Odds" {{']
        if form == "ratio" and self.rng.random() < 0.5:
            first = self.rng.randint(0, 4)
            columns = list(UNIT_RATIOS[first : first + self.rng.randint(2, 6)])
            lines += [
                f"  attacker_high round {self.rng.choice(['down', 'up', 'nearest'])}",
                f"  defender_high round {self.rng.choice(['down', 'up', 'nearest'])}",
            ]
        elif form == "ratio":
            columns = sorted(self.rng.sample(ALL_RATIOS, self.rng.randint(2, 7)), key=ALL_RATIOS.index)
            lines.append(f"  between columns {self.rng.choice(['lower', 'higher'])}")
        elif form == "differential":
            lines.append("  form differential")
            columns = self.bands(self.rng.randint(-5, 0), signed=True)
        else:
            lines.append("  form strength")
            top = self.rng.choice([None, 30, 60])
            lines.append(f"  domain 1 to {top}" if top else "  domain 1+")
            columns = self.bands(1, signed=False)
        open_ends = columns[0].endswith("-") and columns[-1].endswith("+")
        lines.append(f"  beyond {'clamp' if open_ends or self.rng.random() < 0.6 else 'error'}")
        shifts = self.rng.random() < 0.7
        if shifts:
            lines.append(f"  shift {self.rng.choice(['before', 'after'])} clamp")
        lines.insert(1, f"  columns [{', '.join(chr(34) + c + chr(34) for c in columns)}]")
        if form in ("differential", "strength") and not all(_contiguous(columns)):
            lines.insert(2, f"  between columns {self.rng.choice(['lower', 'higher'])}")
        return rule, "\n".join([*lines, "}"]) + "\n", columns, shifts

    def bands(self, start: int, signed: bool) -> list[str]:
        """Ascending columns of whole numbers from `start`: singles and joined bands, sometimes with
        gaps, an open low end first or an open high end last (differential and strength forms)."""
        out: list[str] = []
        value = start
        sign = (lambda v: f"{v:+d}" if v else "0") if signed else str
        for _ in range(self.rng.randint(2, 6)):
            width = self.rng.choice([0, 0, 1, 2])
            out.append(sign(value) if not width else f"{sign(value)}/{sign(value + width)}")
            value += width + 1 + (self.rng.choice([0, 0, 1, 2]) if not signed or self.rng.random() < 0.3 else 0)
        if self.rng.random() < 0.6 and "/" not in out[0]:
            out[0] += "-"
        if self.rng.random() < 0.6 and "/" not in out[-1]:
            out[-1] += "+"
        return out

    def crt(self) -> str:
        rule, text, columns, says_shifts = self.odds_declaration()
        head, address = self.chart_head("Combat Results Table")
        dice = self.rng.choice([DICE[0], DICE[1]])
        lines = [head, f"  roll {dice.text}", f"  key odds: {rule}", f'  column {self.name(0.6)}: text "Result"']
        drm_lines, reach = self.drm_lines([], False)
        lines += drm_lines
        if says_shifts and self.contexts:
            lines += self.shift_lines()
        runs = self.runs(dice.outcomes, reach)
        printed = [str(a) if a == b else f"{a}-{b}" for a, b in runs]
        if len(runs) > 1:
            printed[0], printed[-1] = f"{runs[0][1]}-", f"{runs[-1][0]}+"
        lines.append(f"  grid odds [{', '.join(chr(34) + c + chr(34) for c in columns)}] by roll {{")
        for p in printed:
            lines.append(f"    {p}: {' | '.join(self.cell('text') for _ in columns)}")
        self.charts.append(address)
        return text + "\n".join([*lines, "  }", "}"]) + "\n"

    def shift_lines(self) -> list[str]:
        """A CRT's column shifts: with conditions, in an exclusive group, read from the terrain
        effects chart, held by a cap."""

        def shift(indent: str) -> str:
            name, label, value = self.name(0.5), self.label(), self.rng.choice([-2, -1, 1, 2])
            return f'{indent}shift {name} "{label}" {value:+d} when {self.condition()}'

        lines = [shift("  ") for _ in range(self.rng.randint(1, 3))]
        if self.rng.random() < 0.5:
            mode = self.rng.choice(["best", "worst"])
            members = [shift("    ") for _ in range(self.rng.randint(1, 2))]
            if self.terrain and self.rng.random() < 0.6:
                ref, var, _ = self.terrain
                members.append(f'    shift {self.name(0.5)} "Terrain" from {ref} column shift by {var}')
            lines += [f'  shift_group {self.name(0.5)} "{self.label()}" {mode} {{', *members, "  }"]
        elif self.terrain and self.rng.random() < 0.5:
            ref, var, _ = self.terrain
            lines.append(f'  shift {self.name(0.5)} "Terrain" from {ref} column shift by {var}')
        if self.rng.random() < 0.4:
            lines.append(f"  shift_cap {-self.rng.randint(0, 2):+d} to {self.rng.randint(0, 2):+d}")
        return lines

    # ---- the game -------------------------------------------------------------------------------

    def files(self) -> dict[str, str]:
        header = self.header()
        decls = [self.enum() for _ in range(self.rng.randint(1, 3))]
        for _ in range(self.rng.randint(0, 2)):
            self.context()
        for _ in range(self.rng.randint(0, 2)):
            self.int_context()
        terrain = self.terrain_chart() if self.rng.random() < 0.5 else ""
        plain = [c for c in self.contexts if not isinstance(c, IntContext) and not terrain.count(f"context {c.id}:")]
        ctx = "".join(f'context {c.id}: {c.type} "{c.id}"\n' for c in plain)
        ctx += "".join(f'context {c.id}: int "{c.id}" {c.low}-{c.high}\n' for c in self.ints)
        ctx += f'context {ENGAGED}: flag "DRMs in play"\n'
        makers = [self.rich_roll_chart, self.rich_roll_chart, self.rich_roll_chart, self.crt]
        charts = [self.rng.choice(makers)() for _ in range(self.rng.randint(2, 5))]
        names = "\n".join(self.enum_text(e) for e in decls)
        out = {"game.chart": header + "\n" + names + ctx, "charts.chart": terrain + "\n".join(charts)}
        if errata := self.errata_text():
            out["errata.chart"] = errata
        return out


def _merge_lone(runs: list[tuple[int, int]], naturals: list[int]) -> list[tuple[int, int]]:
    """Runs with each run that holds only a natural row's roll merged into a neighbour: a natural
    roll reads its natural row, so such a run could be reached by no other roll."""
    out = list(runs)
    changed = True
    while changed and len(out) > 1:
        changed = False
        for i, (a, b) in enumerate(out):
            if a == b and a in naturals:
                j = i + 1 if i + 1 < len(out) else i - 1
                lo, hi = min(out[i][0], out[j][0]), max(out[i][1], out[j][1])
                out[min(i, j)] = (lo, hi)
                del out[max(i, j)]
                changed = True
                break
    return out


def _contiguous(columns: list[str]) -> list[bool]:
    """For each column after the first, whether it starts right after the one before (no gap)."""
    def bounds(label: str) -> tuple[int, int]:
        text = label.rstrip("+").rstrip("-") if label[-1] in "+-" and len(label) > 1 else label
        parts = text.split("/")
        return int(parts[0]), int(parts[-1])

    found = [bounds(c) for c in columns]
    return [b[0] == a[1] + 1 for a, b in itertools.pairwise(found)]


def generate(seed: int, game_id: str = "g") -> dict[str, str]:
    """The files of one random valid game (file name -> text), fully determined by `seed`."""
    return RollGameWriter(seed, game_id).files()

