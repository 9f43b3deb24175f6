"""A CRT's odds rule as data: how a game forms odds and picks a column (USAAF 15.1-15.2).

Reading a column from combat factors is `compiler.engine.odds`; this module holds only the rule.
"""

from __future__ import annotations

from dsl.lazy_dataclass import dataclass
from dsl.shared import Between as Between
from dsl.shared import Beyond as Beyond
from dsl.shared import OddsForm as OddsForm
from dsl.shared import Rounding as Rounding
from dsl.shared import ShiftOrder as ShiftOrder
from dsl.shared import Span


@dataclass(frozen=True)
class OddsRule:
    """How a game forms odds and picks a CRT column.

    Attributes:
        id: the rule's name (also the enum of its columns).
        attacker_round / defender_round: how attacker-high and defender-high odds round.
        columns: the CRT's odds columns as printed ("1:2", "1:1", "2:1"), ascending; empty when
            the CRT itself is not printed.
        beyond: what odds off the table read; None when there are no columns.
        shift_order: whether column shifts apply before or after clamping at the table edge;
            None when the game uses no shifts.
        form: what the columns are read by (ratio, differential, strength).
        between: which column odds between two columns read; None for a ratio rule that rounds
            the quotient to n:1 or 1:n instead.
        domain: a strength rule's lowest and highest strength (None: no upper end).
    """

    id: str
    chart_id: str | None
    title: str
    rule: str | None
    notes: tuple[str, ...]
    attacker_round: Rounding
    defender_round: Rounding
    columns: tuple[str, ...]
    beyond: Beyond | None
    shift_order: ShiftOrder | None
    span: Span
    form: OddsForm = OddsForm.RATIO
    between: Between | None = None
    domain: tuple[int, int | None] | None = None
