"""The runtime of rules without a table, inlined into a generated module whose game declares limits
or holds choices.

`chartc build` copies the code below the marker line verbatim after the module's runtime
(`compiler/engine/runtime.py`), whose `_holds` it uses. `_limit` reads a limit as `chartc lookup
GAME/LIMIT` does (`compiler.engine.limits`): the first case whose condition is true applies; a case
whose condition is unknown (a value left as None) makes the answer depend on it, and `_limit`
raises ValueError naming the cases that still may apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from compiler.engine import runtime

_holds = runtime._holds  # in a generated module, the runtime's own `_holds`
_Condition = runtime._Condition
_Context = runtime._Context

# ---- inlined into a generated module below this line


class Choice(TypedDict):
    """A result that offers outcomes for the player to choose from (`one of [...]`): no roll picks one."""

    choice: tuple[object, ...]


class Bound(TypedDict):
    """What a limit allows: the counts from `min` to `max` (None: open at that end), as the rule
    words it (`at most 4`), and the rule the case cites (None: the limit's own)."""

    kind: str
    min: int | None
    max: int | None
    text: str
    cite: str | None


def _limit(
    limit: str,
    cases: tuple[tuple[_Condition | None, Bound], ...],
    context: Mapping[str, _Context],
) -> Bound:
    """The bound of the first case whose condition is true (None: always).

    ValueError when a case before it is unknown in `context`, or when no case applies.
    """
    pending: list[str] = []
    for when, bound in cases:
        verdict = True if when is None else _holds(when, context)
        if verdict is True and not pending:
            return bound
        if verdict is not False:
            pending.append(bound["text"])
        if verdict is True:
            break
    if pending:
        raise ValueError(f"limit {limit!r} depends on a value left as None: it may be {' or '.join(pending)}")
    raise ValueError(f"limit {limit!r}: no case applies to {dict(context)!r}")
