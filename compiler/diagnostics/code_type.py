"""What a diagnostic code is: its severity and its `Code` record (the codes themselves are the
constants of `compiler.diagnostics.codes`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Code:
    """A diagnostic code: stable id (`C301`), kebab-case name, severity, one-line summary, the fix.

    `suppressible` says whether `allow CODE` may silence it: warnings and notes of the checks only;
    errors never (a build with an error would emit wrong outputs), nor the suppression codes.
    """

    code: str
    name: str
    severity: Severity
    summary: str
    fix: str
    suppressible: bool = True


def make_code(code: str, name: str, severity: Severity, summary: str, fix: str, *, suppressible: bool = True) -> Code:
    return Code(code, name, severity, summary, fix, suppressible and severity is not Severity.ERROR)
