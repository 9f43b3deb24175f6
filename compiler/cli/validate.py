"""`chartc validate FILE...`: check JSON files against the schemas chartc ships (for consumers of
the game JSON and of `chartc check --format json`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from compiler.build.validate import check_file
from compiler.cli.common import EXIT_FINDINGS, EXIT_OK, JSON_FORMATS, echo_lines, format_option, usage_error
from compiler.diagnostics.textsafe import json_text, printable

if TYPE_CHECKING:
    from compiler.build.validate import Verdict

SHOWN = 20
"""Most violations the human format prints per file (`--format json` lists every one)."""


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@format_option(
    JSON_FORMATS,
    "human: one line per file, then where each invalid file fails; json: every file's verdict and "
    "every violation (JSON Pointers), then counts.",
)
def validate_command(files: tuple[Path, ...], fmt: str) -> None:
    """Validate JSON files against the schemas chartc ships.

    A game JSON (generated/<game>/<game>.json, which names its schema in `$schema`) is validated
    against chartc-game.schema.json; the report of `chartc check --format json` against
    diagnostics.schema.json. A folder stands for every *.json file below it.

    Exit codes: 0 every file valid, 1 any file invalid, unreadable, not JSON or of neither kind,
    2 usage error.
    """
    verdicts = [check_file(path) for path in _json_files(files)]
    if fmt == "json":
        click.echo(json_text(json.dumps(_document(verdicts), indent=2, ensure_ascii=False)))
    else:
        for verdict in verdicts:
            echo_lines(_human(verdict))
        valid = sum(v.valid for v in verdicts)
        click.echo(f"{valid} valid, {len(verdicts) - valid} not valid")
    sys.exit(EXIT_OK if all(v.valid for v in verdicts) else EXIT_FINDINGS)


def _json_files(paths: tuple[Path, ...]) -> list[Path]:
    """Each FILE as given, and for a folder every `*.json` below it, sorted; a folder without any
    or a path that does not exist is a usage error."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*.json") if p.is_file())
            if not inside:
                raise usage_error(f"{path}: a folder without any .json file")
            found += inside
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise usage_error(f"{path}: no such file or folder")
    return found


def _human(verdict: Verdict) -> Iterator[str]:
    if verdict.problem is not None:
        yield printable(f"{verdict.file}: {verdict.problem}")
        return
    assert verdict.schema is not None
    if verdict.valid:
        yield printable(f"{verdict.file}: valid ({verdict.schema.value})")
        return
    count = len(verdict.violations)
    yield printable(f"{verdict.file}: not valid against {verdict.schema.value}: "
                    f"{count} violation{'s' if count != 1 else ''}")
    for violation in verdict.violations[:SHOWN]:
        yield printable(f"  {violation.describe()}")
    if count > SHOWN:
        yield f"  ... and {count - SHOWN} more (`--format json` lists every one)"


def _document(verdicts: list[Verdict]) -> dict[str, object]:
    valid = sum(v.valid for v in verdicts)
    return {
        "files": [
            {
                "file": v.file,
                "schema": v.schema.value if v.schema is not None else None,
                "valid": v.valid,
                "problem": v.problem,
                "violations": [{"pointer": x.pointer, "message": x.message} for x in v.violations],
            }
            for v in verdicts
        ],
        "summary": {"valid": valid, "not_valid": len(verdicts) - valid},
    }
