"""Which charts folder a command reads when none is given: `$CHARTC_CHARTS`, else `charts` under
`[tool.chartc]` in the nearest pyproject.toml, else `charts` (`default_charts_dir`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from compiler.diagnostics.textsafe import printable

CHARTS_ENV = "CHARTC_CHARTS"


def default_charts_dir(cwd: Path | None = None) -> Path:
    """The charts folder when none is given: `$CHARTC_CHARTS`, else `charts = "..."` under
    `[tool.chartc]` in the nearest `pyproject.toml` at or above the working directory (read
    relative to that file's folder; the nearest one decides), else `charts`.

    Raises:
        click.UsageError: that pyproject.toml is not valid TOML or its `charts` is not a string.
    """
    from_env = os.environ.get(CHARTS_ENV)
    if from_env:
        return Path(from_env)
    start = (cwd or Path.cwd()).resolve()
    for folder in (start, *start.parents):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            configured = _configured_charts(pyproject)
            return Path("charts") if configured is None else _shown_relative(folder / configured, start)
    return Path("charts")


def _configured_charts(pyproject: Path) -> str | None:
    import tomllib  # lazy: `chartc --help` reads no pyproject.toml

    try:
        table = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise click.UsageError(printable(f"{pyproject}: cannot read [tool.chartc]: {exc}")) from exc
    tool = table.get("tool", {})
    chartc = tool.get("chartc", {}) if isinstance(tool, dict) else {}
    charts = chartc.get("charts") if isinstance(chartc, dict) else None
    if charts is not None and not isinstance(charts, str):
        why = f"{pyproject}: [tool.chartc] charts must be a string (a folder), not {charts!r}"
        raise click.UsageError(printable(why))
    return charts


def _shown_relative(path: Path, start: Path) -> Path:
    """`path` relative to the working directory when it lies inside it (shorter in messages)."""
    try:
        return path.relative_to(start)
    except ValueError:
        return path
