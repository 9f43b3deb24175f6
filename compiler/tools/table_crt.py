"""`chartc import` of a grid: rolls down, column heads across, as a CRT prints them.

When the heads are odds (`1:2`, `3:1`), differentials (`-3-`, `-1/0`, `+7+`) or strengths (`1-2`,
`20+`) that ascend, the draft is a CRT as the language writes one (docs/language.md, "Result codes
and the classic CRT"): an `odds` rule with the printed columns, `key odds: RULE`, and, when every
cell is a short result code (`AE`, `DR`, `D2`), an enum of `codes` the cells name. Other heads are
an enum of columns. Every head and cell is written through `quote` or as a checked name.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise

from compiler.tools.table_draft import (
    Draft,
    comment,
    document,
    raw_or,
    roll_lines,
    slug,
    value_text,
    zero_padded,
)
from compiler.tools.table_findings import ImportFinding, head_findings, range_cell, value_findings
from compiler.tools.table_labels import range_text
from compiler.tools.table_readers import Cell
from dsl.source_text import quote

_RATIO = re.compile(r"([0-9]+(?:\.[0-9]+)?):([0-9]+(?:\.[0-9]+)?)")
_DIFFERENTIAL = re.compile(r"([+-][0-9]+)(?:/([+-]?[0-9]+))?|0|[+-][0-9]+[+-]|[+-]?[0-9]+--[0-9]+|-[0-9]+--[0-9]+")
# a result code: an identifier of up to 8 characters (`AE`, `DR`, `D2`, `Ex`); not the enum's own keywords
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9]{0,7}")
_ENUM_WORDS = {"codes", "order", "fields", "chart", "enum", "odds", "game"}


def _ratio_rule(heads: list[str]) -> list[str] | None:
    """The lines of a ratio odds rule for heads that are all ascending ratios, else None."""
    parsed = [_RATIO.fullmatch(h) for h in heads]
    if not all(parsed):
        return None
    values = [(Fraction(m.group(1)), Fraction(m.group(2))) for m in parsed if m]
    if any(b == 0 or a == 0 for a, b in values):
        return None
    ratios = [a / b for a, b in values]
    if any(x >= y for x, y in pairwise(ratios)):
        return None
    if all(a == 1 or b == 1 for a, b in values) and all(a.denominator == 1 and b.denominator == 1 for a, b in values):
        return ["  attacker_high round down", "  defender_high round up", "  beyond clamp"]
    return ["  between columns lower", "  beyond clamp"]


def _span(head: str, *, signed: bool) -> tuple[int, int] | None:
    """The numbers a differential (`-1/0`, `+7+`) or strength (`3-5`, `20+`) head spans."""
    big = 10**6
    if signed:
        if found := re.fullmatch(r"([+-]?[0-9]+)/([+-]?[0-9]+)", head):
            return int(found.group(1)), int(found.group(2))
        if found := re.fullmatch(r"([+-]?[0-9]+)-(-?[0-9]+)", head):
            return int(found.group(1)), int(found.group(2))
        if found := re.fullmatch(r"([+-]?[0-9]+)([+-])", head):
            n = int(found.group(1))
            return (n, big) if found.group(2) == "+" else (-big, n)
        return (int(head), int(head)) if re.fullmatch(r"[+-]?[0-9]+", head) else None
    written = range_text(head)
    if written is None or written.startswith("-"):
        return None
    numbers = [int(n) for n in re.findall(r"[0-9]+", written)]
    if written.endswith("+"):
        return numbers[0], big
    if written.endswith("-"):
        return 0, numbers[0]
    return numbers[0], numbers[-1]


def _ascending(spans: list[tuple[int, int] | None]) -> bool:
    return all(s is not None and s[0] <= s[1] for s in spans) and all(
        a is not None and b is not None and a[1] < b[0] for a, b in pairwise(spans)
    )


def odds_rule(heads: list[str]) -> list[str] | None:
    """The body of an `odds` rule whose columns are `heads` (form, between, beyond), or None when
    the heads are not ascending odds, differentials or strengths."""
    if len(heads) < 2:
        return None
    ratio = _ratio_rule(heads)
    if ratio is not None:
        return ratio
    if any(":" in h for h in heads):
        return None
    if any(h.startswith(("+", "-")) or "/" in h for h in heads):
        spans = [_span(h, signed=True) for h in heads]
        return ["  form differential", "  between columns lower", "  beyond clamp"] if _ascending(spans) else None
    spans = [_span(h, signed=False) for h in heads]
    if not _ascending(spans):
        return None
    low = min(s[0] for s in spans if s is not None)
    return ["  form strength", f"  domain {min(low, 1)}+", "  between columns lower", "  beyond clamp"]


def _codes(body: list[list[Cell]]) -> list[str] | None:
    """The result codes of a CRT's cells in order of appearance, when every cell is one (or `-`)."""
    found: list[str] = []
    for row in body:
        for cell in row[1:]:
            if cell.text in ("", "-"):
                continue
            if not _CODE.fullmatch(cell.text) or cell.text.lower() in _ENUM_WORDS or value_findings(cell):
                return None
            if cell.text not in found:
                found.append(cell.text)
    return found or None


def grid_draft(header: list[Cell], body: list[list[Cell]], name: str, title: str) -> Draft:
    """A draft of a grid: a CRT (an odds rule and result codes) when the heads and cells are such,
    else a chart keyed by an enum of its columns."""
    findings: list[ImportFinding] = []
    heads = []
    for cell in header[1:]:
        found = head_findings(cell)
        findings += found
        heads.append((cell, found))
    head_list = ", ".join(f"??{cell.address}" if found else quote(cell.text) for cell, found in heads)
    rule = None if findings else odds_rule([cell.text for cell, _ in heads])
    codes = _codes(body) if rule is not None else None
    parts = []
    if rule is not None:
        key_id = "odds"
        opening = f"odds {name}_odds {quote(title + ' odds')} {{"
        parts.append("\n".join([opening, f"  columns [{head_list}]", *rule, "}"]))
        key_line = f"  key odds: {name}_odds"
    else:
        key_id = f"{name}_column"
        taken: set[str] = set()
        members = [
            f"  ??{cell.address}" if found else f"  {slug('c_' + cell.text, taken)} {quote(cell.text)}"
            for cell, found in heads
        ]
        parts.append("\n".join([f"enum {key_id} {quote('Column')} {{", *members, "}"]))
        key_line = f"  key {key_id}"
    column_type = "text"
    if codes is not None:
        column_type = f"{name}_result"
        note = '  # give each code its meaning: `AE "Attacker eliminated"`'
        members = ["  codes", note, *(f"  {c}" for c in codes)]
        parts.append("\n".join([f"enum {column_type} {quote('Result')} {{", *members, "}"]))
    lines = [f"chart {name} {quote(title)} {{"]
    lines += roll_lines(header[0], [row[0] for row in body], findings)
    lines += [key_line, f'  column result: {column_type} "Result"']
    lines += [comment(f) for f in findings]
    lines += [f"  grid {key_id} [{head_list}] by roll {{"]
    padded = zero_padded([row[0] for row in body])
    for row in body:
        range_written, found = range_cell(row[0], padded)
        cells = []
        for cell in row[1:]:
            cell_found = value_findings(cell)
            found += cell_found
            bare = codes is not None and cell.text not in ("", "-")
            cells.append(raw_or(cell, cell_found, cell.text if bare else value_text(cell, False)))
        lines += [comment(f) for f in found]
        findings += found
        lines.append(f"    {range_written}: {' | '.join(cells)}")
    lines += ["  }", "}"]
    return Draft(document([*parts, "\n".join(lines)]), tuple(findings))
