"""The one list of hostile strings every output channel is tested with (issue 33, class e):
spreadsheet formulas, terminal escape sequences, bidi overrides and isolates, C0 and C1 controls,
line and paragraph separators, zero-width characters, forged CI commands and HTML/Markdown.

tests/test_output_channels.py writes each into a game's chart text (through `dsl.source_text.quote`,
the one quoting function) and a file name, and reads it back through the terminal, JSON, CSV,
SARIF, GitHub annotations and step summary, and HTML.
"""

from __future__ import annotations

HOSTILE = (
    '=HYPERLINK("https://example.invalid","click")',  # CSV: a formula
    "+1+cmd|' /C calc'!A0",  # CSV: DDE through a leading +
    "-2+3+cmd|' /C calc'!A0",  # CSV: a leading - that is no number
    "@SUM(A1:A9)",  # CSV: a leading @
    "'=already guarded",  # CSV: the guard itself, read back unchanged
    "\tleading tab",  # CSV: a tab some spreadsheets trim before reading a formula
    "Safe\u202eEvade",  # RLO: the Trojan Source trick
    "\u2066isolated\u2069 \u200fRLM",  # bidi isolates and a right-to-left mark
    "row\u2028break\u2029para",  # line and paragraph separators
    "vt\x0bff\x0cnel\x85",  # VT, FF, NEL: line breaks to str.splitlines and many CSV readers
    "c1\x9b31mred\x9d0;title\x07",  # C1 CSI and OSC
    "esc\x1b]0;pwned\x07\x1b[2J",  # ESC sequences: retitle and clear the terminal
    "zero\u200bwidth\ufeffbom",  # zero-width space and a BOM inside text
    "Combat\n  Result: Evade\r::error file=charts/x.chart,line=1::forged",  # a forged result and annotation
    "<img src=x onerror=alert(1)><script>alert(2)</script>",  # HTML in a summary or the aid
    "`code` | pipe [link](javascript:alert(1)) **bold**",  # Markdown in a step summary
    "del\x7f nul-free \x01\x1f",  # DEL and other C0 controls
)
"""Each is visible text a player could never mean; none holds a NUL (a chart file cannot)."""

RAW_HIDDEN = "\x07\x0b\x0c\x1b\x7f\x85\x9b\x9d\u200b\u200f\u2028\u2029\u202e\u2066\u2069\ufeff\x01\x1f"
"""The hidden characters the list carries: none may reach an output raw (CR, LF and TAB are
checked per channel: they are the channels' own line ends and separators)."""
