"""What the syntax tree shares with the compiler's model: source spans, the kinds both hold, and
the nodes both trees build alike.

A kind the chart language writes and the model keeps unchanged (a dice form, a comparison, a
rounding, a DRM group's mode, an odds rule's choices, an example's expectation, a formula's
operator) is defined once, here: the builder puts the member in the syntax tree, the resolver
hands the same member on to the model. So are the nodes that join conditions (`not`, `and`,
`or`) and the operations of a formula (a number, `a + b`, `-a`, `if c then a else b`): generic in
what they hold, they are the syntax tree's nodes over written conditions and expressions, and the
model's over resolved ones.

They live apart from `dsl.ast` (which re-exports them) so that the model, and a compiled game
read back from the query cache (`compiler.build.cache`), load without the syntax tree's ~90
classes: `lookup` and `odds` answered from the cache never need them. `Span` is a dataclass of
`dsl.lazy_dataclass` (the lowest layer, as this module): a saved game holds thousands of
spans, and reading it back generates none of their methods.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Generic, TypeVar, assert_never

from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file; lines and columns are 1-based, the end column is exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class Side(StrEnum):
    """A side of a combat: whom a CRT's higher rolls favour."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


class DiceForm(StrEnum):
    """How the dice are read: summed, d66 (tens and ones), percentile (00 = 100), the lower or
    higher of several dice, the highest or lowest few of several, opposed dice read by their
    difference, or exploding dice (a top face rolls again and adds, to a stated depth)
    (`compiler.model.dice.Dice`). Arithmetic on the roll (IA2 7.1.5's "subtract 3") is not a dice
    form but the roll's steps (`RollStep`)."""

    SUM = "sum"
    D66 = "d66"
    PERCENTILE = "percentile"
    LOWER = "lower"
    HIGHER = "higher"
    HIGHEST = "highest"
    LOWEST = "lowest"
    VERSUS = "versus"
    EXPLODE = "explode"
    LOWER_TENS = "lower_tens"  # two d10, the lower read as tens and the other as units (issue 32)


class CompareOp(StrEnum):
    """A comparison in a condition, as written; `==` and `!=` apply to every type, the others to
    ints and months."""

    EQ = "=="
    NE = "!="
    GE = ">="
    LE = "<="
    GT = ">"
    LT = "<"


class BoundKind(StrEnum):
    """What a limit allows: `at most N`, `at least N`, `exactly N`, `L to H`, `unlimited`, `forbidden`."""

    AT_MOST = "at_most"
    AT_LEAST = "at_least"
    EXACTLY = "exactly"
    BETWEEN = "between"
    UNLIMITED = "unlimited"
    FORBIDDEN = "forbidden"  # `forbidden`: none at all, a prohibition the rules state ("may not")


class Rounding(StrEnum):
    """How a quotient becomes a whole number: a CRT odds ratio of combat factors, or the steps of
    a per-N DRM (`-1 per 10 kills`: 25 kills is 2 steps, or 3 rounded up)."""

    DOWN = "down"
    UP = "up"
    NEAREST = "nearest"  # halves up: half a step or more counts as a step


class StepKind(StrEnum):
    """A step of a roll's arithmetic, after the dice (`roll 1d6 then drms then minus 3 then minimum 0`)."""

    DRMS = "drms"  # the DRM total is added here
    ADD = "add"  # `minus 3` (amount -3), `plus 2` (amount +2)
    TIMES = "times"  # `doubled` (amount 2), `times 3`
    HALVE = "halve"  # `halved round down|up`
    MINIMUM = "minimum"  # `minimum 0`: a lower result counts as 0
    MAXIMUM = "maximum"  # `maximum 3`: a higher result counts as 3


@dataclass(frozen=True)
class RollStep:
    """One step of a roll's arithmetic, as written and as the model keeps it: the DRMs, adding or
    subtracting a number, multiplying, halving rounded as printed, a minimum or a maximum.
    `amount` is the signed number added (ADD), the factor (TIMES) or the bound (MINIMUM,
    MAXIMUM); `rounding` is HALVE's (down or up)."""

    kind: StepKind
    span: Span
    amount: int = 0
    rounding: Rounding | None = None

    @property
    def text(self) -> str:
        """The step as the chart language writes it: `drms`, `minus 3`, `times 2`, `halved round down`."""
        match self.kind:
            case StepKind.DRMS:
                return "drms"
            case StepKind.ADD:
                return f"minus {-self.amount}" if self.amount < 0 else f"plus {self.amount}"
            case StepKind.TIMES:
                return "doubled" if self.amount == 2 else f"times {self.amount}"
            case StepKind.HALVE:
                return f"halved round {self.rounding}"
            case StepKind.MINIMUM | StepKind.MAXIMUM:
                return f"{self.kind} {self.amount}"
            case _:
                assert_never(self.kind)


class GroupMode(StrEnum):
    """Which members of an exclusive DRM (or column shift) group apply when several could."""

    BEST = "best"  # only the highest applicable value
    WORST = "worst"  # only the lowest applicable value
    ONE = "one"  # the rules say only one can apply (the checker proves it; the first applies)


class OddsForm(StrEnum):
    """What a CRT's columns are read by."""

    RATIO = "ratio"  # attack : defense
    DIFFERENTIAL = "differential"  # attack - defense
    STRENGTH = "strength"  # the attack strength alone


class Beyond(StrEnum):
    """What odds beyond the CRT's edge columns read."""

    CLAMP = "clamp"  # the edge column
    ERROR = "error"  # nothing: such odds are not allowed


class Between(StrEnum):
    """Which column odds falling between two printed columns read."""

    LOWER = "lower"  # the defender's favour
    HIGHER = "higher"  # the attacker's favour


class ShiftOrder(StrEnum):
    """Whether column shifts apply before or after odds are clamped to the table's edge."""

    BEFORE = "before"
    AFTER = "after"


class ExpectKind(StrEnum):
    """What an `expect` line of a worked example states the reader gets."""

    NUMBER = "value"  # `expect value 13`: the number a formula computes
    CELL = "cell"  # `expect result = "Combat"`: a cell of the selected row (with `follow`, of the chain's last row)
    ROW = "row"  # `expect row 3-6`: the selected row, by its range as printed
    MODIFIED = "modified"  # `expect modified 7`: the modified roll
    DRM = "drm"  # `expect drm +2`: the DRM total
    ODDS = "odds"  # `expect odds "3:1"`: the odds column an odds rule (or a CRT's odds key) reads
    NO_ROW = "no_row"  # `expect no row`: the roll selects no row


class ExprOp(StrEnum):
    """A binary operator of a formula."""

    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"  # exact: `7 / 2` is 7/2 until a rounding function makes it whole
    POW = "^"  # a whole, non-negative exponent


# ---- nodes both trees build alike

C = TypeVar("C")
"""A condition: as written (`dsl.ast.Cond`) or resolved (`compiler.model.Condition`)."""
E = TypeVar("E")
"""A formula's expression: as written (`dsl.ast.Expr`) or resolved (`compiler.model.formulas.Expr`)."""


@dataclass(frozen=True)
class Not(Generic[C]):
    """`not COND`."""

    inner: C
    span: Span


@dataclass(frozen=True)
class All(Generic[C]):
    """`A and B and ...`: every part holds."""

    parts: tuple[C, ...]
    span: Span


@dataclass(frozen=True)
class Any_(Generic[C]):
    """`A or B or ...`: some part holds."""

    parts: tuple[C, ...]
    span: Span


@dataclass(frozen=True)
class Number:
    """A whole number as written: in a formula, or the number a statement states (`zero reads 0`,
    `repeat 3`, the roll a fact selects)."""

    value: int
    span: Span


@dataclass(frozen=True)
class Binary(Generic[E]):
    """`left OP right` in a formula."""

    op: ExprOp
    left: E
    right: E
    span: Span


@dataclass(frozen=True)
class Neg(Generic[E]):
    """`-x` in a formula."""

    inner: E
    span: Span


@dataclass(frozen=True)
class IfElse(Generic[C, E]):
    """`if COND then A else B` in a formula."""

    cond: C
    then: E
    otherwise: E
    span: Span
