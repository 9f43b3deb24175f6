"""A build of many games, one game at a time: each is compiled, rendered and handed to the writer
before the next is read, so a build holds one game's model and outputs, not those of every game.

The writer stages each game's outputs to fsynced temp files as they come (`compiler.build.writer.Staging`)
and journals them only once every game is built and every check passed, so the all-or-nothing
guarantee is the writer's as before: a game with errors, a crash or a refusal deletes the temp
files and no output changes. `build --check` compares each game's outputs with the disk the same
way (`compiler.build.writer.Comparison`) and keeps only the differences.

With `--jobs N`, or by default for a large build when other work leaves a CPU idle (`pool_jobs`),
the games are compiled and rendered in worker processes forked once the parser, the checks, the
emitters and their templates are loaded
(`compiler.build.render.in_processes`, which also renders the PDFs of `build --pdf --jobs N`). A game's
outputs do not depend on the process that made them; the parent stages them as they arrive.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Generator, Iterable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from compiler.build import pdfs, project, validate
from compiler.build import record as build_record
from compiler.build import render as build
from compiler.build.journal import Recovery
from compiler.build.writer import Comparison, Staging, Staleness, WriteResult, orphan_games
from compiler.diagnostics import Diagnostic, Severity
from compiler.emit.templating import environment
from compiler.errata.printing import AS_CORRECTED, Printing
from dsl.parser import prepare_parser
from dsl.parser_cache import default_cache_dir

POOL_MIN_SOURCE_BYTES = 512 * 1024
"""By default a build uses worker processes only when its games' chart files hold at least this
much text (about twice the corpus): below it, forking and passing the outputs back cost about
what the second CPU saves (measured with `scripts/bench.py --only speedbuild`)."""


@dataclass(frozen=True)
class BuildOptions:
    """How the outputs are rendered, and which findings fail the build."""

    printing: Printing = AS_CORRECTED
    paper: str = "a4"
    large_print: bool = False
    pdf: bool = False
    strict: bool = False
    landscape: bool = False


@dataclass(frozen=True)
class GameBuild:
    """One game compiled and, when nothing fails it, rendered."""

    game_id: str
    failing: tuple[Diagnostic, ...]
    """The findings that fail the build (errors; warnings too with `--strict`)."""
    sources: dict[str, str]
    """Every file the game's compilation read: displayed name -> `build_record.source_digest`."""
    outputs: dict[str, str | bytes]
    """Relative path -> content; empty when `failing` is not."""
    pdf_keys: dict[str, str] = field(default_factory=dict)
    """With `--pdf`: the PDF's relative path -> the key of its inputs (`pdfs.inputs_key`)."""
    pdfs_reused: int = 0
    """PDFs read back from `--out` (their inputs unchanged) instead of laid out again."""
    reported: tuple[Diagnostic, ...] = ()
    """The findings that do not fail the build (warnings, notes): `chartc build` prints them as `check` does."""


@dataclass(frozen=True)
class _Task:
    game_id: str
    folder: Path
    options: BuildOptions
    validated: frozenset[str] = frozenset()
    """The digests of game JSON found valid before (`validate.validated_before`): not read again."""
    out_dir: Path | None = None
    pdf_record: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """With `--pdf`, the record of the PDFs in `out_dir` (`pdfs.recorded`): a PDF whose inputs are
    unchanged is read back from there instead of laid out again."""


def build_game(task: _Task) -> GameBuild:
    """Compile one game and, unless a finding fails it, render its outputs (and its PDF) and
    validate its JSON against the schema.

    Raises:
        InvalidOutput: the JSON does not match the schema (a bug in chartc).
    """
    options = task.options
    [comp] = project.compile_games({task.game_id: task.folder}, options.printing)
    fails = (Severity.ERROR, Severity.WARNING) if options.strict else (Severity.ERROR,)
    failing = tuple(d for d in comp.diagnostics if d.severity in fails)
    reported = tuple(d for d in comp.diagnostics if d.severity not in fails)
    outputs: dict[str, str | bytes] = {}
    pdf_keys: dict[str, str] = {}
    reused = 0
    if not failing:
        game = comp.project.games[task.game_id]
        outputs.update(build.render_game(game, options.paper, options.large_print, options.landscape))
        validate.validate_outputs(outputs, task.validated)
        if options.pdf:
            aid = f"{task.game_id}/{task.game_id}"
            html = str(outputs[f"{aid}.html"])
            pdf_keys[f"{aid}.pdf"] = key = pdfs.inputs_key(html)
            kept = None if task.out_dir is None else pdfs.reuse(task.out_dir, f"{aid}.pdf", key, task.pdf_record)
            reused = int(kept is not None)
            outputs[f"{aid}.pdf"] = build.html_to_pdf(html) if kept is None else kept
    sources = {name: build_record.source_digest(text) for name, text in comp.sources.items()}
    return GameBuild(task.game_id, failing, sources, outputs, pdf_keys, reused, reported)


def build_games(
    game_dirs: Mapping[str, Path], options: BuildOptions, jobs: int | None = None, out_dir: Path | None = None
) -> Generator[GameBuild, None, None]:
    """Each game built (`build_game`), the largest first, in `jobs` processes (None: `pool_jobs`);
    closing the generator stops the workers. With `--pdf` and `out_dir`, a PDF whose inputs did not
    change since the recorded build of `out_dir` is read back from there (`compiler.build.pdfs`).

    Raises:
        OutputError: `--pdf` without WeasyPrint (before any game is built).
        InvalidOutput: a game's JSON does not match the schema (a bug in chartc).
    """
    record = pdfs.recorded(default_cache_dir(), out_dir) if options.pdf and out_dir is not None else {}
    if options.pdf and all(f"{g}/{g}.pdf" in record for g in game_dirs):
        build.find_weasyprint()  # every PDF likely read back: imported only by a process that lays one out
    elif options.pdf:
        build.require_weasyprint()  # imported once, before the workers fork
    sizes = {game_id: _source_bytes(folder) for game_id, folder in game_dirs.items()}
    order = sorted(game_dirs, key=lambda game_id: (-sizes[game_id], game_id))
    jobs = pool_jobs(len(order), sum(sizes.values()), options.pdf) if jobs is None else jobs
    if jobs > 1 and len(order) > 1:
        _prepare()
    validated = validate.validated_before(default_cache_dir())
    if options.pdf:
        pdfs.environment_key()  # once, before the workers fork: it walks the font folders
    tasks = [_Task(g, game_dirs[g], options, validated, out_dir, record) for g in order]
    yield from build.in_processes(build_game, tasks, jobs)


def pool_jobs(games: int, source_bytes: int, pdf: bool) -> int:
    """The default number of processes. With `--pdf`, one per CPU (`build.default_jobs`). Else,
    for chart files of `POOL_MIN_SOURCE_BYTES` or more, one per CPU that other work leaves idle
    (`idle_cpus`): on a machine whose CPUs are all busy, workers only share the same CPUs and the
    build is no faster (measured); else one."""
    if pdf:
        return build.default_jobs(games)
    return min(build.default_jobs(games), idle_cpus()) if source_bytes >= POOL_MIN_SOURCE_BYTES else 1


def idle_cpus() -> int:
    """The CPUs this process may use less the load average of the last minute, counting this
    process as idle (it is about to hand its work to the workers); at least 1."""
    cpus = build.default_jobs(1 << 16)
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover - a system without a load average
        return cpus
    return max(1, min(cpus, round(cpus - load + 1)))


def _source_bytes(folder: Path) -> int:
    try:
        return sum(f.stat().st_size for f in project.chart_files(folder))
    except OSError:
        return 0  # compiling reports it


_COMPILING_MODULES = ("compiler.checks", "compiler.checks.examples", "compiler.resolve", "dsl.builder")
"""What `compiler.build.project` imports when it first compiles a game."""


def _prepare() -> None:
    """Load what every worker needs before they are forked, so each inherits it instead of doing
    it again: the modules compiling a game imports, the parser and the player aid's templates."""
    for module in _COMPILING_MODULES:
        importlib.import_module(module)
    prepare_parser()
    validate.prepare()
    for name in environment().list_templates():
        environment().get_template(name)


@dataclass
class Built:
    """What a build of many games found, and what it did to `--out`."""

    failing: list[Diagnostic]
    """Every failing finding of every game, in file order; when there are any, no output changed."""
    game_ids: list[str]
    """The games built, sorted."""
    sources: dict[str, str]
    digests: dict[str, str]
    """The SHA-256 of every output (relative path -> digest)."""
    pdf_keys: dict[str, str] = field(default_factory=dict)
    """With `--pdf`: each PDF's relative path -> the key of its inputs."""
    pdfs_reused: int = 0
    reported: list[Diagnostic] = field(default_factory=list)
    """Every game's warnings and notes that do not fail the build, in file order."""
    recovery: Recovery = field(default_factory=Recovery)
    written: WriteResult | None = None
    stale: Staleness | None = None


def write_games(out_dir: Path, builds: Iterable[GameBuild], whole_tree: bool) -> Built:
    """Stage every game's outputs as it is built, then commit them, deleting the orphans of the
    built games (and with `whole_tree`, of games whose charts are gone). Nothing is staged once a
    game fails, and a failure leaves `--out` as it was.

    Raises:
        WriteError: the writer refused the build or writing failed (its message says whether any
            output changed).
    """
    done = Built([], [], {}, {})
    with ExitStack() as stack:
        staging: Staging | None = None
        for game in builds:
            _note(done, game)
            if not done.failing:
                if staging is None:
                    staging = stack.enter_context(Staging(out_dir))
                staging.add(game.outputs)
        if staging is not None:
            done.recovery = staging.recovery
        if done.failing:
            return _sorted(done)
        if staging is None:
            staging = stack.enter_context(Staging(out_dir))
        done.written = staging.commit(_owned(out_dir, done.game_ids, whole_tree))
        done.recovery, done.digests = staging.recovery, staging.digests
    _remember_valid(done.digests)
    return _sorted(done)


def check_games(out_dir: Path, builds: Iterable[GameBuild], whole_tree: bool) -> Built:
    """`build --check`: compare every game's outputs with `--out` as it is built (after
    recovering an interrupted build), then look for orphans; nothing is compared once a game fails."""
    done = Built([], [], {}, {})
    comparison: Comparison | None = None
    for game in builds:
        _note(done, game)
        if not done.failing:
            comparison = comparison or Comparison(out_dir)
            comparison.add(game.outputs)
    if done.failing:
        return _sorted(done)
    comparison = comparison or Comparison(out_dir)
    done.stale = comparison.result(_owned(out_dir, done.game_ids, whole_tree))
    done.recovery, done.digests = comparison.recovery, comparison.digests
    _remember_valid(done.digests)
    return _sorted(done)


def _remember_valid(digests: Mapping[str, str]) -> None:
    """Every game JSON of a build that nothing failed was validated (or found valid before)."""
    validate.remember(default_cache_dir(), (d for rel, d in digests.items() if rel.endswith(".json")))


def _note(done: Built, game: GameBuild) -> None:
    done.game_ids.append(game.game_id)
    done.sources.update(game.sources)
    done.pdf_keys.update(game.pdf_keys)
    done.pdfs_reused += game.pdfs_reused
    done.failing.extend(game.failing)
    done.reported.extend(game.reported)


def _owned(out_dir: Path, game_ids: list[str], whole_tree: bool) -> list[str]:
    """The games whose outputs the build owns: those built, and with a whole charts tree, those
    whose outputs are in `--out` but whose charts are gone (their outputs are orphans)."""
    built = sorted(game_ids)
    return sorted(built + orphan_games(out_dir, built)) if whole_tree else built


def _sorted(done: Built) -> Built:
    done.failing.sort(key=Diagnostic.sort_key)
    done.reported.sort(key=Diagnostic.sort_key)
    done.game_ids.sort()
    return done

