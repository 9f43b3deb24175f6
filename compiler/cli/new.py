"""`chartc new`: a game folder that checks and builds at once, with its CI workflow and pre-commit
hooks (compiler/tools/scaffold.py)."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import click

from compiler.cli.common import usage_error
from compiler.diagnostics.textsafe import printable
from compiler.tools.scaffold import ScaffoldError, create


@click.command("new")
@click.argument("folder", metavar="GAME", type=click.Path(path_type=Path, file_okay=False))
@click.option("--title", help="The game's title (default: from the folder's name).")
def new_command(folder: Path, title: str | None) -> None:
    """Make the game folder GAME (e.g. charts/skirmish; its name is the game's id) with a header, a
    first chart and a worked example, and an errata file, all passing `chartc check` and `chartc
    build` at once; and, in the working directory, unless they exist, a GitHub Actions workflow
    (.github/workflows/charts.yml) and pre-commit hooks (.pre-commit-config.yaml) running chartc
    check, fmt --check and build --check, and a .gitignore."""
    try:
        done = create(folder, title, version("chartc"))
    except ScaffoldError as exc:
        raise usage_error(str(exc)) from exc
    except OSError as exc:
        raise usage_error(f"cannot write {folder}: {exc.strerror or exc}") from exc
    for path in done.written:
        click.echo(printable(f"wrote {path.as_posix()}"))
    for path in done.kept:
        click.echo(printable(f"kept  {path.as_posix()} (it exists; see docs/guide.md for chartc's lines)"))
