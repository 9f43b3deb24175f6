"""Find, read, parse, resolve and check chart files: the front half of the pipeline.

`load(paths)` accepts the CLI's PATH arguments (the `charts/` folder, a game folder, or single
`.chart` files; a file brings its whole game folder along, since charts refer to names declared
in sibling files) and returns a `Compilation` holding the model, every diagnostic and the source
texts for rendering excerpts. It never raises for bad input.
"""

from __future__ import annotations

import bisect
import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from compiler import model
from compiler.build import cache as game_cache
from compiler.build.reader import ReadError, ReadFailure, held_text, read_text
from compiler.diagnostics import Applicability, Diagnostic, Sink, Slot, Suppressed, codes, fixes
from compiler.diagnostics.suggest import suggestion
from compiler.errata.printing import AS_CORRECTED, Printing
from dsl.aid_order import ORDER_FILE, OrderEntry, read_order
from dsl.parser_cache import default_cache_dir
from dsl.shared import Span

if TYPE_CHECKING:
    from dsl import ast
    from dsl.parser import SyntaxIssue

CHART_SUFFIX = ".chart"


@dataclass
class Compilation:
    project: model.Project
    diagnostics: list[Diagnostic]
    sources: dict[str, str] = field(default_factory=dict)
    game_dirs: dict[str, Path] = field(default_factory=dict)
    suppressed: list[Suppressed] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(d.severity.value == "error" for d in self.diagnostics)


class PathError(Exception):
    """A PATH argument that is neither a chart file nor a folder holding chart files."""


def display_path(path: Path) -> str:
    """The path as diagnostics show it: relative to the working directory when inside it. The file's
    own name is kept even when it is a symlink, so a message never names where a link leads."""
    full = path.parent.resolve() / path.name
    try:
        return full.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return full.as_posix()


def find_game_dirs(paths: list[Path]) -> dict[str, Path]:
    """Map game id -> folder for every game the PATH arguments name.

    A folder that directly holds `.chart` files is a game folder; any other folder is searched one
    level down for game folders (so both `charts` and `charts/ia2` work).

    Raises:
        PathError: a path does not exist, is neither a chart file nor a folder (a device, a FIFO),
            cannot be listed, or holds no chart files.
    """
    games: dict[str, Path] = {}
    for p in paths:
        for folder in _game_folders(p):
            game_id = folder.resolve().name
            other = games.get(game_id)
            if other is not None and other.resolve() != folder.resolve():
                raise PathError(f"two game folders are both named `{game_id}`: {other} and {folder}")
            games[game_id] = folder
    return dict(sorted(games.items()))


def _game_folders(p: Path) -> list[Path]:
    """The game folders one PATH argument names."""
    if not p.exists():
        raise PathError(f"{p}: no such file or folder")
    if p.is_file():
        if p.suffix != CHART_SUFFIX:
            raise PathError(f"{p}: not a `{CHART_SUFFIX}` file")
        return [p.parent]
    if not p.is_dir():
        raise PathError(f"{p}: not a `{CHART_SUFFIX}` file or a folder")
    candidates = sorted(c for c in _entries(p) if c.is_dir() and _holds_charts(c))
    if _holds_charts(p):
        if candidates:  # a stray chart file would turn a charts tree into one game and hide the others
            strays = sorted(f.name for f in _entries(p) if f.suffix == CHART_SUFFIX and f.is_file())
            raise PathError(
                f"{p}: holds chart files ({', '.join(strays[:3])}) beside game folders "
                f"({', '.join(c.name for c in candidates[:3])}); move the chart files into a game folder"
            )
        return [p]
    if not candidates:
        raise PathError(f"{p}: holds no game folders with `{CHART_SUFFIX}` files")
    _refuse_links_outside(p, candidates)
    return candidates


def _holds_charts(folder: Path) -> bool:
    return any(f.suffix == CHART_SUFFIX and f.is_file() for f in _entries(folder))


def _entries(folder: Path) -> list[Path]:
    """The entries of a folder named on the command line (or one level below it)."""
    try:
        return list(folder.iterdir())
    except OSError as exc:
        raise PathError(f"{folder}: cannot list the folder: {exc.strerror or exc}") from None


def source_name(game_id: str, file: Path) -> str:
    """A chart file's name in the outputs (`ia2/combat.chart`): relative to the game folder's parent,
    so it is the same from every working directory and never reveals where the charts are kept."""
    return f"{game_id}/{file.name}"


def _refuse_links_outside(parent: Path, folders: list[Path]) -> None:
    """A game folder found inside `parent` must really be inside it, not a link to elsewhere."""
    root = parent.resolve()
    for folder in folders:
        if root not in folder.resolve().parents:
            raise PathError(f"{folder} links to {folder.resolve()}, outside {parent}; "
                            "chartc reads only the folders it is given")


def chart_files(folder: Path) -> list[Path]:
    """The chart files of a game folder, in the order they are read."""
    # any non-folder entry: the reader refuses a FIFO, a device or a dangling link with C102
    return sorted(f for f in folder.iterdir() if f.suffix == CHART_SUFFIX and not f.is_dir())


def load_game(folder: Path, printing: Printing = AS_CORRECTED, cache_dir: Path | None = None) -> Compilation:
    """The game in `folder` compiled as `load([folder], printing)` compiles it, taken from the
    compiled-game cache (`compiler.build.cache`) when its files, chartc and the options are those a
    saved game was compiled from, and saved there otherwise. Raises PathError for a bad path.

    `lookup` and `odds` read their game this way: one game, and no parsing when nothing changed.
    """
    game_dirs = find_game_dirs([folder])
    sources = read_sources(game_dirs) if len(game_dirs) == 1 else None
    if sources is None:  # a file that cannot be read: compile, which reports it
        return load([folder], printing)
    cache_dir = cache_dir or default_cache_dir()
    [(game_id, game_folder)] = game_dirs.items()
    slot = game_cache.slot_name(game_folder, printing)
    key = game_cache.game_key(game_id, printing, sources)
    saved = game_cache.fetch(cache_dir, slot, key)
    if saved is not None:
        return Compilation(saved.project, list(saved.diagnostics), sources, game_dirs, list(saved.suppressed))
    comp = load([folder], printing)
    if comp.sources == sources:  # no file changed while it compiled: the result is the key's
        saved = game_cache.CompiledGame(comp.project, tuple(comp.diagnostics), tuple(comp.suppressed))
        game_cache.store(cache_dir, slot, key, saved)
    return comp


def read_sources(game_dirs: Mapping[str, Path]) -> dict[str, str] | None:
    """Every file the compilation of these games reads (displayed name -> text), as `load` reads
    them (`Compilation.sources`), or None when a file cannot be read."""
    sources: dict[str, str] = {}
    for folder in game_dirs.values():
        paths = chart_files(folder)
        order = folder / ORDER_FILE
        if order.is_symlink() or order.exists():
            paths.append(order)
        try:
            sources.update({display_path(p): read_text(p, folder, "its game folder") for p in paths})
        except ReadError:
            return None
    return sources


def load(
        paths: list[Path], printing: Printing = AS_CORRECTED, unsaved: Mapping[Path, str] | None = None
) -> Compilation:
    """Parse, resolve and check every game the paths name. Raises PathError for bad paths.

    `printing` says which `errata` blocks apply: all (the default), none (`AS_PRINTED`: the charts
    exactly as the rulebook prints them) or those up to a named one (`UpTo`); UnknownPrinting when
    a game has no errata of that name.
    `unsaved` holds texts to read instead of files on disk (by resolved path): an editor's open
    buffers, so the language server checks what the author sees, not what was last saved.
    """
    game_dirs = find_game_dirs(paths)
    with no_cyclic_gc():
        return _load(game_dirs, printing, unsaved or {})


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: the pipeline builds large acyclic trees, and its repeated
    full collections made time grow faster than the input (reference counting still frees memory)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_games(game_dirs: Mapping[str, Path], printing: Printing = AS_CORRECTED) -> Iterator[Compilation]:
    """Each game of `game_dirs` compiled on its own, one at a time (as `load` compiles it): a build
    of many games renders and writes each before the next is read, so only one is held at a time."""
    for game_id, folder in game_dirs.items():
        with no_cyclic_gc():
            yield _load_game(game_id, folder, printing)


def _load(
        game_dirs: dict[str, Path], printing: Printing = AS_CORRECTED,
        unsaved: Mapping[Path, str] | None = None) -> Compilation:
    parts = [_load_game(game_id, folder, printing, unsaved) for game_id, folder in game_dirs.items()]
    return Compilation(
        model.Project({game_id: part.project.games[game_id] for game_id, part in zip(game_dirs, parts, strict=True)}),
        sorted((d for part in parts for d in part.diagnostics), key=Diagnostic.sort_key),
        {name: text for part in parts for name, text in part.sources.items()},
        dict(game_dirs),
        sorted((s for part in parts for s in part.suppressed), key=lambda s: s.diagnostic.sort_key()),
    )


def _parse(
    text: str, shown: str, cache_dir: Path, save: bool = True
) -> tuple[ast.SourceFile | None, Sequence[SyntaxIssue]]:
    """The syntax tree of one file's text and its syntax errors: read back from the parse cache
    (`compiler.build.parse_cache`) when saved there, else parsed (and saved when it parsed clean
    and `save`: an editor's unsaved text, new at every keystroke, is not)."""
    # lazy: the parse cache reads syntax trees, which a query answered from the compiled-game cache
    # (`chartc lookup`) never loads
    from compiler.build import parse_cache

    key = parse_cache.tree_key(text, shown) if len(text) >= parse_cache.MIN_CHARS else None
    tree = parse_cache.fetch(cache_dir, key) if key is not None else None
    if tree is not None:
        return tree, ()
    from dsl.parser import parse_text  # lazy: a tree read from the parse cache imports no Lark

    result = parse_text(text, shown)
    if save and key is not None and result.source is not None and not result.errors:
        parse_cache.store(cache_dir, key, result.source)
    return result.source, result.errors


def _load_game(
        game_id: str, folder: Path, printing: Printing = AS_CORRECTED,
        unsaved: Mapping[Path, str] | None = None) -> Compilation:
    """One game parsed, resolved and checked (every check reads one game only)."""
    # lazy: a game read from the compiled-game cache (`load_game`: `chartc lookup`) is neither parsed,
    # resolved nor checked
    from compiler.checks import check_game
    from compiler.checks.examples import check_examples
    from compiler.resolve import resolve_game

    sink = Sink()
    cache_dir = default_cache_dir()
    sources: dict[str, str] = {}
    files = chart_files(folder)
    parsed: list[ast.SourceFile] = []
    for f in files:
        shown = display_path(f)
        text = _read(f, folder, shown, sink, unsaved)
        if text is None:
            continue
        sources[shown] = text
        tree, errors = _parse(text, shown, cache_dir, save=not unsaved or f.resolve() not in unsaved)
        for issue in errors:
            fix = None
            if issue.replacement is not None:  # a slip with one reading (`3---6` for `3-6`)
                span, text = issue.replacement
                fix = fixes.replace_with(span, text, Slot.RAW, Applicability.SAFE, issue.help)
            sink.emit(codes.SYNTAX_ERROR, issue.message, issue.span, issue.help, fix=fix)
        if tree is not None:
            parsed.append(replace(tree, path=source_name(game_id, f)))
    first = display_path(files[0]) if files else display_path(folder)
    folder_span = Span(first, 1, 1, 1, 1)
    complete = len(parsed) == len(files)
    game = resolve_game(game_id, parsed, sink, folder_span, complete=complete, printing=printing)
    game = replace(game, aid_order=_load_aid_order(game, folder, sink, sources, unsaved))
    check_game(game, sink)
    check_examples(game, sink)
    kept, suppressed = apply_suppressions(sink, list(game.suppressions))
    return Compilation(model.Project({game_id: game}), kept, sources, {game_id: folder}, suppressed)


def _load_aid_order(
        game: model.Game, folder: Path, sink: Sink, sources: dict[str, str],
        unsaved: Mapping[Path, str] | None = None) -> tuple[OrderEntry, ...] | None:
    """The game folder's `aid.order`, read once and checked (C416: each of the game's charts at most
    once); the entries that passed, for the player aid, or None without a file."""
    path = folder / ORDER_FILE
    if not (path.is_symlink() or path.exists()):
        return None
    shown = display_path(path)
    text = _read(path, folder, shown, sink, unsaved)
    if text is None:
        return None
    sources[shown] = text
    seen: dict[str, int] = {}
    kept: list[OrderEntry] = []
    lines = text.lstrip("\ufeff").split("\n")
    divider: int | None = None
    for entry in read_order(text, game.id):
        if entry.divider is not None and divider is not None:
            raw = lines[entry.line - 1]
            sink.emit(codes.AID_ORDER,
                      f"{ORDER_FILE} starts the rules reference twice (first on line {divider})",
                      Span(shown, entry.line, 1, entry.line, len(raw.rstrip()) + 1), "delete one of the lines",
                      fix=fixes.delete(Span(shown, entry.line, 1, entry.line, len(raw) + 1), f"line {entry.line}",
                                       Applicability.SAFE))
            continue
        if entry.address is None:
            divider = entry.line if entry.divider is not None else divider
            kept.append(entry)
            continue
        raw = lines[entry.line - 1]
        col = raw.find(entry.address) + 1 or 1
        span = Span(shown, entry.line, col, entry.line, col + len(entry.address))
        chart = game.chart(entry.address)
        if chart is None:
            known = [c.address for c in game.charts]
            hint, close = suggestion(entry.address, known)
            sink.emit(codes.AID_ORDER,
                      f"{ORDER_FILE} names chart `{entry.address}`, which game `{game.id}` does not have",
                      span, hint, fix=fixes.rename(span, entry.address, close, Slot.RAW, known))
        elif chart.address in seen:
            sink.emit(codes.AID_ORDER,
                      f"{ORDER_FILE} lists chart `{entry.address}` twice (first on line {seen[chart.address]})",
                      span, "delete one of the lines",
                      fix=fixes.delete(Span(shown, entry.line, 1, entry.line, len(raw) + 1), f"line {entry.line}",
                                       Applicability.SAFE))
        else:
            seen[chart.address] = entry.line
            kept.append(entry)
    return tuple(kept)


# suppressions by (code, file): their charts' start positions, sorted, and the suppressions
_SuppressionIndex = dict[tuple[str, str], tuple[list[tuple[int, int]], list[model.Suppression]]]


def apply_suppressions(sink: Sink, suppressions: list[model.Suppression]) -> tuple[list[Diagnostic], list[Suppressed]]:
    """Drop the findings an `allow` covers; report each `allow` that covered nothing (C501).

    Returns:
        The remaining diagnostics (sorted) and the silenced ones with the reason that silenced them.
    """
    index: _SuppressionIndex = {}
    for s in sorted(suppressions, key=lambda s: (s.scope.line, s.scope.col)):
        starts, sups = index.setdefault((s.code, s.scope.file), ([], []))
        starts.append((s.scope.line, s.scope.col))
        sups.append(s)
    kept: list[Diagnostic] = []
    suppressed: list[Suppressed] = []
    used: set[model.Suppression] = set()
    for d in sink.sorted():
        cover = _covering(index, d)
        if cover is None:
            kept.append(d)
        else:
            used.add(cover)
            suppressed.append(Suppressed(d, cover.reason, cover.span))
    unused = Sink()
    for s in suppressions:
        if s not in used:
            unused.emit(codes.UNUSED_SUPPRESSION, f"`allow {s.code}` silences nothing in chart `{s.chart}`", s.span,
                        "delete this line: the finding it was written for is gone",
                        fix=fixes.delete(s.span, f"`allow {s.code}`", Applicability.SAFE))
    return sorted(kept + unused.items, key=Diagnostic.sort_key), suppressed


def _read(path: Path, folder: Path, shown: str, sink: Sink, unsaved: Mapping[Path, str] | None = None) -> str | None:
    """A file of a game folder through the one reader (or its unsaved text, when given), or None
    after reporting why not (C102)."""
    held = unsaved.get(path.resolve()) if unsaved else None
    try:
        return read_text(path, folder, "its game folder") if held is None else held_text(held)
    except ReadError as exc:
        end_col = exc.col + 1 if exc.failure is ReadFailure.NOT_UTF8 else exc.col  # the undecodable byte
        span = Span(shown, exc.line, exc.col, exc.line, end_col)
        sink.emit(codes.UNREADABLE_FILE, exc.describe(shown), span, exc.help)
        return None


def _covering(index: _SuppressionIndex, d: Diagnostic) -> model.Suppression | None:
    """The suppression whose chart holds `d`: the last chart starting at or before it (charts of
    one file do not overlap), found by bisection so many charts cost no more than a few."""
    starts, candidates = index.get((d.code, d.span.file), ([], []))
    at = bisect.bisect_right(starts, (d.span.line, d.span.col)) - 1
    return candidates[at] if at >= 0 and candidates[at].covers(d.code, d.span) else None
