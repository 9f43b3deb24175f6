"""Long explanations of diagnostic codes: `chartc explain CODE` and `docs/diagnostics.md`.

Each code's example (a failing input, what chartc reports, the fixed input) is taken from
`tests/cases` by `scripts/gen_diagnostics_doc.py` into `compiler/diagnostics/examples.json`, so the
docs show exactly what the tests check. A test fails when that file or the doc is stale.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files

from compiler.diagnostics import CODES, Code, suppressible

EXAMPLES_FILE = "examples.json"


@lru_cache(maxsize=1)
def load_examples() -> dict[str, dict[str, str]]:
    """`{code: {"case", "input", "report", "fix_diff"}}` as shipped with chartc, plus `"command":
    "chartc import"` for a code `chartc import` reports (the input is then a CSV table)."""
    examples: dict[str, dict[str, str]] = json.loads(
        files("compiler.diagnostics").joinpath(EXAMPLES_FILE).read_text(encoding="utf-8")
    )
    return examples


def find_code(text: str) -> Code | None:
    """A code by its id (`C305`, `c305`) or its name (`modified-roll-off-table`)."""
    wanted = text.strip()
    for code in CODES.values():
        if wanted.upper() == code.code or wanted.lower() == code.name:
            return code
    return None


def _indent(text: str) -> str:
    return "\n".join(("    " + line).rstrip() for line in text.rstrip("\n").split("\n"))


def _sentence(code: Code) -> str:
    return f"{code.summary[0].upper()}{code.summary[1:]}."


def _silencing(code: Code) -> str:
    if suppressible(code.code):
        return f'A chart may silence it with `allow {code.code} "reason"` (the reason is required).'
    return "It cannot be silenced with `allow`."


def _command(example: dict[str, str]) -> str:
    """The command whose report the example shows."""
    return example.get("command", "chartc check")


def explain_text(code: Code, example: dict[str, str]) -> str:
    """The plain-text explanation `chartc explain` prints."""
    return (
        "\n".join(
            [
                f"{code.code} {code.name} ({code.severity.value})",
                "",
                _sentence(code),
                "",
                f"Failing input ({example['case']}):",
                _indent(example["input"]),
                "",
                f"{_command(example)} reports:",
                _indent(example["report"]),
                "",
                f"Fix: {code.fix}",
                _indent(example["fix_diff"]),
                "",
                _silencing(code),
            ]
        )
        + "\n"
    )


def doc_section(code: Code, example: dict[str, str]) -> str:
    """One code's section of docs/diagnostics.md."""
    return "\n".join(
        [
            f"### {code.code} {code.name}",
            "",
            f"Severity: **{code.severity.value}**. {_sentence(code)} {_silencing(code)}",
            "",
            f"Failing input (`{example['case']}`):",
            "",
            "```",
            example["input"].rstrip("\n"),
            "```",
            "",
            f"What `{_command(example)}` reports:",
            "",
            "```",
            example["report"].rstrip("\n"),
            "```",
            "",
            f"**Fix.** {code.fix}",
            "",
            "```diff",
            example["fix_diff"].rstrip("\n"),
            "```",
            "",
        ]
    )


def render_doc(intro: str, examples: dict[str, dict[str, str]]) -> str:
    """docs/diagnostics.md: the intro, an index, then one section per code in registry order."""
    index = ["| code | name | severity |", "|---|---|---|"]
    index += [f"| [{c.code}](#{c.code.lower()}-{c.name}) | {c.name} | {c.severity.value} |" for c in CODES.values()]
    sections = [doc_section(c, examples[c.code]) for c in CODES.values()]
    return intro.rstrip("\n") + "\n\n" + "\n".join(index) + "\n\n## Codes\n\n" + "\n".join(sections)
