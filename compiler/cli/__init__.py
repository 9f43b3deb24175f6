"""The `chartc` command line (click). It only orchestrates: load -> check -> emit -> write.

One module per command (`check`, `build`, `lookup`, `odds`, `diff`, `explain`); what they share
is `common`; `git_tree` exports a git revision's charts for `diff`. Every text line they print
goes through `compiler.textsafe`, so chart text cannot become a terminal or CI command.

Exit codes: 0 clean; 1 findings (errors, or warnings with --strict), stale outputs, or a lookup
that selects no row; 2 usage errors (bad options, paths, addresses, or a question the chart
cannot answer, such as the chances of a chart not read by dice); 3 an internal error, printed
with a traceback and a request to report it.
"""

from __future__ import annotations

import contextlib
import sys
import traceback

import click

from compiler.cli.analyze import analyze_command
from compiler.cli.build import build
from compiler.cli.check import check
from compiler.cli.common import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE
from compiler.cli.diff import diff_command
from compiler.cli.explain import explain
from compiler.cli.lookup import lookup_command
from compiler.cli.odds import odds_command

__all__ = ["EXIT_FINDINGS", "EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "cli", "main"]

REPORT_URL = "the chartc issue tracker"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chartc")
def cli() -> None:
    """chartc: compile and check board-wargame charts.

    Charts live in charts/<game>/*.chart; outputs go to generated/<game>/.
    Exit codes: 0 clean, 1 findings or stale outputs, 2 usage error, 3 internal error.
    """


for _command in (check, build, explain, lookup_command, odds_command, diff_command, analyze_command):
    cli.add_command(_command)


def main() -> None:
    """Console entry point: run the CLI, turning unexpected exceptions into exit code 3."""
    try:
        cli(prog_name="chartc")
    except SystemExit:
        raise
    except OSError as exc:  # the terminal or pipe went away, or the disk is full: not a chartc bug
        with contextlib.suppress(OSError):
            sys.stderr.write(f"chartc: cannot write output: {exc.strerror or exc}\n")
        sys.exit(EXIT_FINDINGS)
    except Exception:  # the last line of defence: never a bare traceback with exit 1
        traceback.print_exc()
        click.echo(
            "\nchartc hit an internal error (a bug in chartc, not in your charts). "
            f"Please report it on {REPORT_URL} with the traceback above and the input that caused it.",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
