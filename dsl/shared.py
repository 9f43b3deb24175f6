"""What the syntax tree shares with the compiler's model: source spans and the side of a combat.

They live apart from `dsl.ast` (which re-exports them) so that the model, and a compiled game
read back from the query cache (`compiler.build.cache`), load without the syntax tree's ~90
classes: `lookup` and `odds` answered from the cache never need them. `Span` is a dataclass of
`dsl.lazy_dataclass` (the lowest layer, as this module): a saved game holds thousands of
spans, and reading it back generates none of their methods.
"""

from __future__ import annotations

from enum import StrEnum

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
