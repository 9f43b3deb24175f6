#!/usr/bin/env python3
"""The script of chartc's GitHub Action (`action.yml`): check the charts, annotate the findings,
write a step summary and, when asked, a SARIF file for code scanning.

Inputs come from the environment (the action sets them from its `with:`):
    CHARTC_PATHS        the paths to check, separated by spaces (default `charts`)
    CHARTC_STRICT       `true`: warnings fail the step too
    CHARTC_SARIF_FILE   where to write SARIF 2.1.0; empty: no SARIF
    GITHUB_STEP_SUMMARY the file GitHub shows as the step's summary (set by the runner)

The exit code is `chartc check`'s: 0 clean, 1 findings, 2 usage error, 3 internal error. Run it
locally with the same variables to see what the action does.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from compiler.diagnostics.textsafe import printable

# Rows of the summary's findings table; the annotations and the SARIF file hold every finding.
MAX_SUMMARY_ROWS = 50
# Characters that mean something to GitHub's Markdown or its HTML: each is written as a numeric
# character reference, which both render as the character itself, never as markup.
_MARKUP = frozenset("\\`*_[]<>|&~")


def md_text(text: str) -> str:
    """Chart text (a file name, a message) as literal text of a Markdown table cell: hidden
    characters shown as `<U+XXXX>` (`printable`), every character GitHub reads as markup or HTML
    (`<img ...>`, `](javascript:...)`, `|`) written as `&#NN;`, so it renders as typed."""
    return "".join(f"&#{ord(ch)};" if ch in _MARKUP else ch for ch in printable(text))


def md_code(text: str) -> str:
    """A file name or path as a Markdown code span (whose text GitHub never reads as markup), or as
    `md_text` when it holds what could close the span or the table cell (a backtick, a pipe)."""
    shown = printable(text)
    return md_text(text) if "`" in shown or "|" in shown else f"`{shown}`"


def _check(paths: list[str], fmt: str, strict: bool) -> subprocess.CompletedProcess[str]:
    command = ["chartc", "check", *paths, "--format", fmt, *(["--strict"] if strict else [])]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def summary_markdown(report: dict[str, object], paths: list[str], exit_code: int) -> str:
    """The step summary: counts by severity, then a table of the first findings."""
    findings = report.get("diagnostics", [])
    assert isinstance(findings, list)
    counts = Counter(str(d["severity"]) for d in findings)
    totals = ", ".join(f"{n} {sev}{'s' * (n != 1)}" for sev, n in sorted(counts.items())) or "no findings"
    lines = [
        "### chartc check",
        "",
        f"**{totals}** in {md_code(' '.join(paths))} (exit {exit_code})",
    ]
    if findings:
        lines += ["", "| severity | code | where | message |", "|---|---|---|---|"]
        for d in findings[:MAX_SUMMARY_ROWS]:
            where = md_code(f"{d['file']}:{d['line']}")
            row = [md_text(str(d["severity"])), md_text(f"{d['code']} {d['name']}"), where, md_text(str(d["message"]))]
            lines.append("| " + " | ".join(row) + " |")
        if len(findings) > MAX_SUMMARY_ROWS:
            lines.append(f"\n…and {len(findings) - MAX_SUMMARY_ROWS} more (see the annotations)")
    return "\n".join(lines) + "\n"


def main() -> int:
    paths = shlex.split(os.environ.get("CHARTC_PATHS", "") or "charts")
    strict = os.environ.get("CHARTC_STRICT", "false").lower() == "true"
    annotated = _check(paths, "github", strict)
    sys.stdout.write(annotated.stdout)
    sys.stderr.write(annotated.stderr)
    if annotated.returncode not in (0, 1):
        return annotated.returncode
    report = json.loads(_check(paths, "json", strict).stdout)
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if step_summary:
        with open(step_summary, "a", encoding="utf-8") as out:
            out.write(summary_markdown(report, paths, annotated.returncode))
    sarif_file = os.environ.get("CHARTC_SARIF_FILE", "")
    if sarif_file:
        Path(sarif_file).write_text(_check(paths, "sarif", strict).stdout, encoding="utf-8")
    return annotated.returncode


if __name__ == "__main__":
    sys.exit(main())
