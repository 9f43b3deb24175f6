"""The codes of the book's rules held as data beside `codes.py` (which re-exports them): warnings
the book's own print causes, kept as printed (C484-C485), and a case a limit forbids that a chart
allows (C492). Stable and never reused, as every code.
"""

from __future__ import annotations

from typing import Final

from compiler.diagnostics.code_type import Severity
from compiler.diagnostics.code_type import make_code as _code

FINDING_KEPT: Final = _code(
    "C484", "finding-kept", Severity.NOTE,
    "a warning the book's own print causes (C411, C412), kept as printed with a reason (`kept CODE at ... because`)",
    "Nothing to do while the reason holds; the note lists the finding and the reason in every report.",
)
KEPT_UNMATCHED: Final = _code(
    "C485", "kept-unmatched", Severity.WARNING,
    "a `kept` statement keeps no finding: a code it cannot keep, an `at` of the wrong kind, or no finding there",
    "Delete it when the finding is gone; else name the code and where (`kept C411 at 1944-05`, `at mission.x`).",
)
FORBIDDEN_ALLOWED: Final = _code(
    "C492", "forbidden-allowed", Severity.WARNING,
    "a chart's column counted `within` a limit gives a count where the limit's case is `forbidden`",
    "Write 0 or `-` in those cells (or key the chart so that they are read elsewhere), or correct the limit.",
)
