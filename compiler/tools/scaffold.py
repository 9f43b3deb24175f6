"""`chartc new GAME`: a game folder that checks and builds at once, with its CI gate wired.

The game folder gets a header (`game.chart`: title, source, the enum and the context variable the
first chart reads), a first chart with a worked example the checker holds to it (`combat.chart`),
and an errata document with its first correction written out as a comment (`errata.chart`). The
project folder (the working directory) gets, unless it already has them, a GitHub Actions
workflow running `chartc check`, `chartc fmt --check` and `chartc build --check` on the charts,
pre-commit hooks running the same through the installed chartc (`repo: local`), and a
`.gitignore` for what a build leaves that is not committed. Nothing that exists is overwritten.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from dsl.source_text import quote

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ScaffoldError(Exception):
    """The game cannot be made there (a bad name, a folder that holds files)."""


@dataclass(frozen=True)
class Scaffold:
    """What `new` wrote (paths as given) and the project files it kept as they were."""

    written: tuple[Path, ...]
    kept: tuple[Path, ...]


def game_files(game_id: str, title: str) -> dict[str, str]:
    """The game folder's files, by name."""
    source = quote(f"{title} rulebook, first printing")
    return {
        "game.chart": f"""\
# The game header: its title and the book its charts come from. Every .chart file of this
# folder shares one set of names (docs/language.md).
game {game_id} {{
  title {quote(title)}
  source {source}
}}

# What the first chart is keyed by: one member per column or row group the book prints.
enum unit "Unit" {{
  infantry "Infantry"
  armour "Armour"
}}

# A fact of play a DRM tests: a flag is true or false (an int, a month or an enum also work).
context leader: flag "Leader stacked with the firing unit"
""",
        "combat.chart": """\
# A first chart, typed as the book prints it, one row per line. Replace it with your own.
chart [F1] fire "Fire Table" {
  rule "7.2"
  roll 2d6
  key unit
  column result: text "Result"
  drm leader "Leader" +1 when leader
  rows {
    infantry 2-6:  "No effect"
    infantry 7-9:  "Pinned"
    infantry 10+:  "Eliminated"
    armour   2-8:  "No effect"
    armour   9-11: "Damaged"
    armour   12+:  "Eliminated"
  }
}

# A worked example as the book prints it: `chartc check` holds it to the chart (C460-C463).
example fire_armour_leader "Armour fired on with a leader stacked, natural 11" {
  rule "7.2"
  chart [F1]
  key unit = armour
  roll 11
  when leader
  expect modified 12
  expect result = "Eliminated"
}
""",
        "errata.chart": f"""\
# Corrections to the printed charts, as data: the chart files stay as printed, and every output
# cites the errata that changed a cell (`chartc diff charts charts --as-printed` lists them).
errata first_printing "Errata to the first printing" {{
  source {source}
  order 1
  # amend F1 {{
  #   change armour 9-11 column result to "Damaged, cannot move" because "errata 7.2"
  # }}
}}
""",
    }


def project_files(charts: str, version: str) -> dict[str, str]:
    """The project folder's CI workflow, pre-commit hooks and `.gitignore`, for the charts at
    `charts` (a path relative to the project folder, `/`-separated)."""
    paths = json.dumps(charts)  # a YAML double-quoted scalar
    arg = shlex.quote(charts)  # pre-commit splits `entry` as a shell does
    return {
        ".github/workflows/charts.yml": f"""\
# chartc's gate on the charts: every finding an annotation on its line, the canonical layout,
# generated/ up to date. Written by `chartc new`.
name: charts
on: [push, pull_request]
jobs:
  chartc:
    runs-on: ubuntu-latest
    env:
      CHARTC: "chartc=={version}"   # the chartc you build with: a version, or a git URL and tag
      CHARTS: {paths}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: python -m pip install "$CHARTC"
      - run: chartc check "$CHARTS" --format github
      - run: chartc fmt --check "$CHARTS"
      - run: chartc build --check "$CHARTS"
""",
        ".pre-commit-config.yaml": f"""\
# chartc's checks before each commit, run by the chartc installed here. Written by `chartc new`.
repos:
  - repo: local
    hooks:
      - id: chartc-check
        name: chartc check
        entry: chartc check {arg} --format short
        language: system
        files: '\\.chart$'
        pass_filenames: false
      - id: chartc-fmt-check
        name: chartc fmt --check
        entry: chartc fmt --check {arg}
        language: system
        files: '\\.chart$'
        pass_filenames: false
      - id: chartc-build-check
        name: chartc build --check
        entry: chartc build --check {arg}
        language: system
        files: '\\.chart$'
        pass_filenames: false
""",
        ".gitignore": """\
# what `chartc build` leaves that is not committed: PDFs (a one-command rebuild) and the temp
# files of an interrupted build
generated/*/*.pdf
.chartc-*
""",
    }


def create(folder: Path, title: str | None, version: str, root: Path | None = None) -> Scaffold:
    """Make the game folder `folder` (its name is the game's id) and the project files of `root`
    (default: the working directory) that are missing.

    Raises:
        ScaffoldError: the name is not a chart-language name, or the folder holds files.
    """
    game_id = folder.resolve().name if folder.name in ("", ".") else folder.name
    if not NAME.fullmatch(game_id):
        raise ScaffoldError(f"`{game_id}` is not a game name: letters, digits and `_`, not first a digit")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not an empty folder")
    base = root if root is not None else Path.cwd()
    try:
        where = folder.resolve().relative_to(base.resolve())
    except ValueError as exc:
        raise ScaffoldError(f"{folder} is outside the project folder {base}") from exc
    charts = where.parent.as_posix() if where.parent != Path(".") else where.as_posix()
    written: list[Path] = []
    kept: list[Path] = []
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in game_files(game_id, title or game_id.replace("_", " ").title()).items():
        (folder / name).write_text(text, encoding="utf-8")
        written.append(folder / name)
    for name, text in project_files(charts, version).items():
        path = (root if root is not None else Path()) / name
        if path.exists():
            kept.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return Scaffold(tuple(written), tuple(kept))
