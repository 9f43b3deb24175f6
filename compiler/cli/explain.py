"""`chartc explain`: a diagnostic code's failing input, report and fix, or the list of codes."""

from __future__ import annotations

import click

from compiler.cli.common import usage_error
from compiler.diagnostics import CODES, did_you_mean
from compiler.diagnostics.explain import explain_text, find_code, load_examples
from compiler.diagnostics.textsafe import printable, printable_lines


@click.command()
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Explain diagnostic CODE (e.g. C305 or modified-roll-off-table): a failing input, what
    chartc reports, and the fix. Without CODE, list every code."""
    if code is None:
        for c in CODES.values():
            click.echo(printable(f"{c.code}  {c.severity.value:<7}  {c.name}: {c.summary}"))
        return
    found = find_code(code)
    if found is None:
        typed = code.upper()
        # a letter O typed for a zero (`C3O5`) reads as the zero first: C305, not C365
        hint = did_you_mean(typed[:1] + typed[1:].replace("O", "0"), list(CODES)) or did_you_mean(
            code.lower(), [c.name for c in CODES.values()]
        )
        raise usage_error(
            f"no diagnostic code `{code}`" + (f"; {hint}" if hint else "; run `chartc explain` for the list")
        )
    click.echo(printable_lines(explain_text(found, load_examples()[found.code])), nl=False)
