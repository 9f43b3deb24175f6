"""The `chartc` command line (click). It only orchestrates: load -> check -> emit -> write.

One module per command (`check`, `build`, `lookup`, `odds`, `analyze`, `diff`, `explain`); what they share
is `common`; `git_tree` exports a git revision's charts for `diff`. Every text line they print
goes through `compiler.diagnostics.textsafe`, so chart text cannot become a terminal or CI command.

Exit codes: 0 clean; 1 findings (errors, or warnings with --strict), stale outputs, or a lookup
that selects no row; 2 usage errors (bad options, paths, addresses, or a question the chart
cannot answer, such as the chances of a chart not read by dice); 3 an internal error, printed
with a traceback and a request to report it.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import sys

import click

from compiler.cli.exits import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE

__all__ = ["EXIT_FINDINGS", "EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "cli", "main"]

REPORT_URL = "the chartc issue tracker"


# Each command's module and object: a command's module is imported only when that command runs
# (or `--help` lists them all), so `chartc lookup` does not load `build` or `diff`.
COMMANDS = {
    "analyze": ("compiler.cli.analyze", "analyze_command"),
    "build": ("compiler.cli.build", "build"),
    "check": ("compiler.cli.check", "check"),
    "compute": ("compiler.cli.compute", "compute_command"),
    "dice": ("compiler.cli.dice", "dice_command"),
    "diff": ("compiler.cli.diff", "diff_command"),
    "explain": ("compiler.cli.explain", "explain"),
    "export": ("compiler.cli.tables", "export_command"),
    "fmt": ("compiler.cli.fmt", "fmt_command"),
    "import": ("compiler.cli.tables", "import_command"),
    "list": ("compiler.cli.list", "list_command"),
    "lookup": ("compiler.cli.lookup", "lookup_command"),
    "lsp": ("compiler.cli.lsp", "lsp_command"),
    "new": ("compiler.cli.new", "new_command"),
    "odds": ("compiler.cli.odds", "odds_command"),
    "validate": ("compiler.cli.validate", "validate_command"),
    "vectors": ("compiler.cli.vectors", "vectors_command"),
}


# Each command's one-line summary in `chartc --help`, whole (click cuts a docstring at its first
# full stop, `(e.g.` included, or at 45 characters); listed here, `--help` imports no command.
SUMMARIES = {
    "analyze": "Print a CRT's chance of each result per column and DRM",
    "build": "Check, then write each game's JSON, Python and HTML (and PDF)",
    "check": "Check charts and report every finding; --fix applies safe fixes",
    "compute": "Print the value of formula GAME/FORMULA for the inputs given",
    "dice": "Print a roll's exact chances, at least/at most and a bar plot",
    "diff": "List the changes between two chart trees or git revisions",
    "explain": "Explain a diagnostic code (e.g. C305), or list every code",
    "export": "Write a chart as CSV, or a game for Foundry VTT, TTS or VASSAL",
    "fmt": "Rewrite chart files in the canonical layout",
    "import": "Draft a chart from a CSV, TSV, XLSX, ODS or Markdown table",
    "list": "List a game's charts: ID, title, rule, dice or keys, status",
    "lookup": "Print the row a roll plus DRM selects on GAME/CHART",
    "lsp": "Run the language server for editors (stdio; extra chartc[lsp])",
    "new": "Make a game folder that checks and builds, with its CI gate",
    "odds": "Print the exact chance of each row of GAME/CHART",
    "validate": "Validate game or diagnostics JSON against chartc's shipped schemas",
    "vectors": "Write test vectors of GAME: keys, roll and DRMs -> row and chance",
}


class _LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `--help`, each with its whole summary."""
        rows = []
        for name in self.list_commands(ctx):
            summary = SUMMARIES.get(name)
            if summary is None:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                summary = command.get_short_help_str(limit=200)
            rows.append((name, summary))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(module), name)
            assert isinstance(command, click.Command) and command.name == cmd_name
            self.add_command(command)
        return self.commands.get(cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chartc")
def cli() -> None:
    """chartc: compile and check board-wargame charts.

    Charts live in charts/<game>/*.chart; outputs go to generated/<game>/.
    Exit codes: 0 clean, 1 findings or stale outputs, 2 usage error, 3 internal error.
    """


def _skip_last_collection() -> None:
    """Leave every object alive at exit out of the interpreter's last garbage collection.

    At exit, CPython collects once more, walking every object still alive (the modules, a game read
    from the compiled-game cache, the syntax trees kept for reuse) for cycles, which frees nothing a
    process about to end needs freed: files are closed and flushed by the commands themselves, and
    `atexit` handlers still run. `gc.freeze()`, run at exit, moves those objects out of its reach.
    It saved a quarter of the CPU of a cached `chartc lookup` and 30 % of a `check` of the corpus
    (`scripts/bench.py --only tricks`: rows `trick-exit-freeze` and `trick-exit-freeze-check`, 5
    pairs at a load of 8 to 10 on two CPUs); only `main` (the console script) registers it, so a
    program that calls `cli` keeps its collector.
    """
    atexit.unregister(gc.freeze)  # once, however often `main` runs in one process
    atexit.register(gc.freeze)


def main() -> None:
    """Console entry point: run the CLI, turning unexpected exceptions into exit code 3."""
    _skip_last_collection()
    try:
        cli(prog_name="chartc")
    except SystemExit:
        raise
    except OSError as exc:  # the terminal or pipe went away, or the disk is full: not a chartc bug
        with contextlib.suppress(OSError):
            sys.stderr.write(f"chartc: cannot write output: {exc.strerror or exc}\n")
        sys.exit(EXIT_FINDINGS)
    except Exception:  # the last line of defence: never a bare traceback with exit 1
        import traceback  # lazy: only on an internal error; `chartc --help` and `lookup` do without it

        traceback.print_exc()
        click.echo(
            "\nchartc hit an internal error (a bug in chartc, not in your charts). "
            f"Please report it on {REPORT_URL} with the traceback above and the input that caused it.",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
