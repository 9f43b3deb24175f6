"""One check of a game folder as the editor sees it: the files on disk, with the open buffers'
unsaved text in their place, through `compiler.build.project.load`, the loader `chartc check` uses.

A chart refers to names declared in its sibling files, so the unit of checking is the game
folder of the file being edited (`charts/<game>/`), never the file alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from compiler.build.project import CHART_SUFFIX, Compilation, PathError, chart_files, display_path, load
from compiler.diagnostics import Diagnostic
from dsl import ast
from dsl.aid_order import ORDER_FILE
from dsl.parser import parse_text


@dataclass
class GameCheck:
    """A checked game folder: the compilation, each file's syntax tree and text by the name its
    spans carry, and the file behind each name."""

    folder: Path
    compilation: Compilation
    paths: dict[str, Path]  # displayed name (the spans' `file`) -> the file
    trees: dict[str, ast.SourceFile] = field(default_factory=dict)

    def name_of(self, path: Path) -> str | None:
        """The displayed name of a file of this game, or None when it is not one of its files."""
        wanted = path.resolve()
        return next((name for name, p in self.paths.items() if p.resolve() == wanted), None)

    def text(self, name: str) -> str:
        return self.compilation.sources.get(name, "")

    def diagnostics_by_file(self) -> dict[str, list[Diagnostic]]:
        """Every finding of the check under the file it points at; every file of the game has an
        entry (an empty list clears the editor's old findings)."""
        found: dict[str, list[Diagnostic]] = {name: [] for name in self.paths}
        for d in self.compilation.diagnostics:
            found.setdefault(d.span.file, []).append(d)
        return found


def game_folder(path: Path) -> Path | None:
    """The game folder of a `.chart` or `aid.order` file, or None for any other file."""
    if path.suffix == CHART_SUFFIX or path.name == ORDER_FILE:
        return path.parent
    return None


def check_game(folder: Path, unsaved: Mapping[Path, str]) -> GameCheck | None:
    """Check the game in `folder` with `unsaved` texts (by resolved path) read in place of the
    files; None when the folder holds no chart files (the path errors of `chartc check`)."""
    try:
        comp = load([folder], unsaved={p.resolve(): t for p, t in unsaved.items()})
    except PathError:
        return None
    paths = {display_path(p): p for p in chart_files(folder)}
    order = folder / ORDER_FILE
    if order.exists():
        paths[display_path(order)] = order
    check = GameCheck(folder, comp, paths)
    for name, text in comp.sources.items():
        if name.endswith(CHART_SUFFIX):
            parsed = parse_text(text, name).source
            if parsed is not None:
                check.trees[name] = parsed
    return check
