"""What the `chartc` commands share: exit codes, loading a project, finding a chart by its
address, reading `--key` pairs and whole numbers, and printing text safely."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TypeVar

import click

from compiler.cli.configuration import CHARTS_ENV as CHARTS_ENV
from compiler.cli.configuration import default_charts_dir as default_charts_dir
from compiler.cli.exits import EXIT_FINDINGS as EXIT_FINDINGS
from compiler.cli.exits import EXIT_INTERNAL as EXIT_INTERNAL
from compiler.cli.exits import EXIT_OK as EXIT_OK
from compiler.cli.exits import EXIT_USAGE as EXIT_USAGE
from compiler.cli.printing import as_printed_flag, pick_printing, printing_name_option, unknown_printing
from compiler.diagnostics import did_you_mean
from compiler.diagnostics.suggest import known_values_hint
from compiler.diagnostics.textsafe import printable
from compiler.errata.printing import AS_CORRECTED, Printing, UnknownPrinting

if TYPE_CHECKING:
    from compiler import model
    from compiler.build.project import Compilation
    from compiler.diagnostics import Diagnostic
    from compiler.engine.lookup import Forces


# The output formats of a command that prints for a reader or for a tool (`--format human|json`).
JSON_FORMATS = ("human", "json")

T = TypeVar("T")

# A game folder name as typed in GAME/CHART: one path component, not `.` or `..`.
_GAME_ID = re.compile(r"[^/\\]+")


class LazyChoice(click.Choice[str]):
    """A `click.Choice` whose choices are read when first needed (parsing or `--help` of its
    command), so declaring the option does not import the module that lists them."""

    def __init__(self, load: Callable[[], Iterable[str]]) -> None:
        self._load = load
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(self._load())

    @choices.setter
    def choices(self, value: tuple[str, ...]) -> None:
        """Ignored: the choices always come from `load`."""


def format_option(
    choices: Iterable[str] | Callable[[], Iterable[str]],
    help: str,
    default: str = "human",
    alias: str | None = "json",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--format CHOICE`, the one name every command gives its output choice, and `--ALIAS`
    (`--json`), a flag that is the same as `--format ALIAS`. The command receives the choice as
    `fmt`; `--json` with another `--format` is a usage error.

    `choices` may be a function listing them, read when first needed (see `LazyChoice`).
    """

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        listed = LazyChoice(choices) if callable(choices) else click.Choice(list(choices))

        @functools.wraps(command)
        def run(*args: Any, fmt: str, alias_flag: bool = False, **kwargs: Any) -> Any:
            if alias_flag:
                given = click.get_current_context().get_parameter_source("fmt")
                if fmt != alias and given is not click.core.ParameterSource.DEFAULT:
                    raise usage_error(f"--{alias} is the same as --format {alias}; give one of them")
            return command(*args, fmt=alias if alias_flag else fmt, **kwargs)

        # declared in this order, `--help` lists `--format` first, then its alias
        if alias is not None:
            run = click.option(f"--{alias}", "alias_flag", is_flag=True, help=f"Same as --format {alias}.")(run)
        return click.option("--format", "fmt", type=listed, default=default, show_default=True, help=help)(run)

    return decorate


def usage_error(message: str) -> click.UsageError:
    """A usage error (exit 2) whose message is safe to print (see `compiler.diagnostics.textsafe`)."""
    return click.UsageError(printable(message))


def echo_lines(lines: Iterable[str], err: bool = False) -> None:
    """Print lines already made safe by their renderer, one per line."""
    for line in lines:
        click.echo(line, err=err)


def fail(message: str) -> NoReturn:
    """Print `error: MESSAGE` (made safe) on stderr and exit 1: the question has no answer."""
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(EXIT_FINDINGS)


def load_project(paths: tuple[Path, ...], printing: Printing = AS_CORRECTED) -> Compilation:
    """Load and check the charts at PATHS (default `charts/`) in `printing`; a bad path, or a
    printing a game does not have, is a usage error."""
    from compiler.build.project import PathError, load  # lazy: `chartc --help` loads no charts

    try:
        return load(list(paths) or [default_charts_dir()], printing=printing)
    except PathError as exc:
        raise usage_error(str(exc)) from exc
    except UnknownPrinting as exc:
        raise unknown_printing(exc) from exc


def find_games(paths: tuple[Path, ...]) -> dict[str, Path]:
    """The game folders at PATHS (default `charts/`), by game id; a bad path is a usage error."""
    from compiler.build.project import PathError, find_game_dirs  # lazy: `chartc --help` loads no charts

    try:
        return find_game_dirs(list(paths) or [default_charts_dir()])
    except PathError as exc:
        raise usage_error(str(exc)) from exc


def load_game_folder(folder: Path, printing: Printing = AS_CORRECTED) -> Compilation:
    """Load one game folder for a query in `printing`, through the compiled-game cache; a bad
    path, or a printing the game does not have, is a usage error."""
    from compiler.build.project import PathError, load_game  # lazy: `chartc --help` loads no charts

    try:
        return load_game(folder, printing)
    except PathError as exc:
        raise usage_error(str(exc)) from exc
    except UnknownPrinting as exc:
        raise unknown_printing(exc) from exc


def whole_number(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """Click callback: an integer option typed in ASCII digits with an optional sign (`int()` alone
    also reads other scripts' digits, such as Arabic-Indic `٣`, as numbers), at most 30 digits."""
    if value is None:
        return None
    return _read_whole_number(ctx, param, value)


def summed_whole_numbers(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> int:
    """Click callback of a repeatable numeric option (`--drm 1 --drm -2`): each value is one
    modifier and they add up, as the modifiers they stand for do (none given: 0)."""
    return sum(_read_whole_number(ctx, param, v) for v in values)


def summed_drms_or_none(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> int | None:
    """Click callback of `--drm` where leaving it out means every DRM total (`analyze`): the values
    given add up, as `summed_whole_numbers`; None when none is given."""
    return summed_whole_numbers(ctx, param, values) if values else None


def _read_whole_number(ctx: click.Context, param: click.Parameter, value: str) -> int:
    # lazy: `chartc --help` imports no engine
    from compiler.engine.context import read_number
    from compiler.engine.problems import LookupUsage

    try:
        return read_number(value, "a whole number")
    except LookupUsage as exc:
        raise click.BadParameter(printable(str(exc)), ctx, param) from exc


def shift_total(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> int:
    """Click callback: `--shift` given any number of times, each a whole number; they add up
    (a terrain shift and a leader shift are two `--shift`s)."""
    return sum(whole_number(ctx, param, value) or 0 for value in values)


def parse_keys(pairs: tuple[str, ...]) -> dict[str, str]:
    """`--key NAME=VALUE` pairs as {name: value}; a malformed or repeated pair is a usage error."""
    keys: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(
                f"`{printable(pair)}`: write NAME=VALUE, e.g. --key interceptor=piston", param_hint="--key"
            )
        if name.strip() in keys:
            raise click.BadParameter(f"key `{printable(name.strip())}` is given twice", param_hint="--key")
        keys[name.strip()] = value.strip()
    return keys


def split_address(address: str) -> tuple[str, str]:
    """`ia2/R4` -> (`ia2`, `R4`); anything else (no slash, `./R4`, `../x/R4`) is a usage error."""
    game_id, sep, chart_name = address.partition("/")
    if not sep or not chart_name or not _GAME_ID.fullmatch(game_id) or game_id in (".", ".."):
        raise usage_error(
            f"`{address}`: address a chart as GAME/CHART, e.g. ia2/R4 (GAME is a folder name in --charts)"
        )
    return game_id, chart_name


def find_chart(address: str, charts_dir: Path, printing: Printing = AS_CORRECTED) -> tuple[model.Game, model.Chart]:
    """The game and chart at ADDRESS under CHARTS_DIR, from a game that checks clean.

    A wrong address (a limit's too: only `lookup` reads one) is a usage error (exit 2); a game with
    errors prints them and exits 1.
    """
    from compiler.model.types import EnumType  # lazy: `chartc --help` imports no model

    game, chart, other = find_chart_or_limit(address, charts_dir, printing)
    if isinstance(other, EnumType):
        raise usage_error(
            f"`{other.id}` is a set of records of game `{game.id}`, not a chart: "
            f"chartc lookup {game.id}/{other.id} --key {other.id}=VALUE"
        )
    if other is not None:
        raise usage_error(
            f"`{other.id}` is a limit of game `{game.id}`, not a chart: "
            f"chartc lookup {game.id}/{other.id} --set NAME=VALUE"
        )
    assert chart is not None
    return game, chart


def find_chart_or_limit(
    address: str, charts_dir: Path, printing: Printing = AS_CORRECTED
) -> tuple[model.Game, model.Chart | None, model.Limit | model.EnumType | None]:
    """The game and the chart at ADDRESS, or (where no chart has the name) the limit, or the record
    set (an enum with fields, `chartc lookup GAME/ENUM`), from a game that checks clean; see
    `find_chart`."""
    game_id, chart_name = split_address(address)
    folder = charts_dir / game_id
    comp = load_game_folder(folder, printing) if folder.is_dir() else None
    game = comp.project.games.get(game_id) if comp is not None else None
    if comp is None or game is None:
        known = sorted(p.name for p in charts_dir.iterdir() if p.is_dir()) if charts_dir.is_dir() else []
        hint = known_values_hint(game_id, [(g, None) for g in known], "games")
        raise usage_error(f"no game `{game_id}` in {charts_dir}; {hint}")
    chart = game.chart(chart_name)
    # any error in the game can change this chart (an errata, a derived chart's base, a dropped
    # row) or hide it (a syntax error drops its file), so a lookup never answers from a game that
    # does not check clean, and a chart missing from such a game is reported as its errors
    blocking = [d for d in comp.diagnostics if d.severity.value == "error"]
    limit = game.limit(chart_name) if chart is None and not blocking else None
    if limit is not None:
        return game, None, limit
    records = game.enums.get(chart_name) if chart is None and not blocking else None
    if records is not None and records.fields and not records.synthetic:
        return game, None, records
    if chart is None and not blocking and game.formula(chart_name) is not None:
        raise usage_error(
            f"`{chart_name}` is a formula of game `{game_id}`, not a chart: "
            f"chartc compute {game_id}/{chart_name} --set NAME=N"
        )
    if chart is None and not blocking:
        record_sets = [e.id for e in game.enums.values() if e.fields and not e.synthetic]
        close = did_you_mean(chart_name, [c.address for c in game.charts] + record_sets)
        raise usage_error(
            f"no chart `{chart_name}` in game `{game_id}`" + (f"; {close}" if close else "")
            + f" (`chartc list {game_id}` lists them)"
        )
    if blocking or chart is None:
        refuse_errors(game_id, blocking, charts_dir)
    return game, chart, None


def refuse_errors(game_id: str, blocking: list[Diagnostic], charts_dir: Path) -> NoReturn:
    """Print a game's first 20 errors and `error: game ... fix them first` on stderr, and exit 1:
    no command answers from, or writes, a game that does not check clean."""
    from compiler.diagnostics import render_short  # lazy: `chartc --help` and `lookup` render no finding

    echo_lines((render_short(d) for d in blocking[:20]), err=True)
    click.echo(
        printable(
            f"error: game `{game_id}` has {len(blocking)} error(s); fix them first "
            f"(`chartc check {charts_dir / game_id}`)"
        ),
        err=True,
    )
    sys.exit(EXIT_FINDINGS)


def load_clean_game(game_id: str, charts_dir: Path, printing: Printing = AS_CORRECTED) -> model.Game:
    """Game GAME_ID of the charts folder in `printing`, checked: a game that is not there is a usage
    error, one with errors is refused (`refuse_errors`)."""
    folder = charts_dir / game_id
    comp = load_game_folder(folder, printing) if folder.is_dir() else None
    game = comp.project.games.get(game_id) if comp is not None else None
    if comp is None or game is None:
        raise usage_error(f"no game `{game_id}` in {charts_dir}")
    blocking = [d for d in comp.diagnostics if d.severity.value == "error"]
    if blocking:
        refuse_errors(game_id, blocking, charts_dir)
    return game


def ask(
    address: str,
    charts_dir: Path,
    question: Callable[[model.Game, model.Chart], T],
    printing: Printing = AS_CORRECTED,
    found: tuple[model.Game, model.Chart] | None = None,
) -> tuple[model.Game, model.Chart, T]:
    """Find chart ADDRESS (unless `found` gives it), then return (game, chart, question(game, chart));
    a `LookupUsage` is a usage error and a `LookupProblem` (the question has no answer on this chart)
    exits 1."""
    from compiler.engine.lookup import LookupProblem, LookupUsage  # lazy: `chartc --help` imports no engine

    game, chart = found if found is not None else find_chart(address, charts_dir, printing)
    try:
        return game, chart, question(game, chart)
    except LookupUsage as exc:
        raise usage_error(str(exc)) from exc
    except LookupProblem as exc:
        # lazy: only a question without an answer reads the book's inconsistencies here
        from compiler.query.inconsistencies import Answered, inconsistency_lines

        click.echo(f"error: {printable(str(exc))}", err=True)
        echo_lines((printable(line) for line in inconsistency_lines(game, chart, Answered(None))), err=True)
        sys.exit(EXIT_FINDINGS)


# Options shared by the commands that read one chart (`lookup`, `odds`), declared once so the two
# stay alike as options are added.
key_option = click.option(
    "--key",
    "keys",
    multiple=True,
    metavar="NAME=VALUE",
    help="A key of the chart, by id or printed label (repeatable).",
)
drm_option = click.option(
    "--drm",
    multiple=True,
    callback=summed_whole_numbers,
    metavar="N",
    help="A die roll modifier added to the natural roll, on top of the chart's DRMs read with --when/--set "
    "(repeatable: the values add up).",
)
when_option = click.option(
    "--when",
    multiple=True,
    metavar="FLAG",
    help="A flag of the chart's DRM conditions that holds, e.g. --when fb_attack (repeatable); "
    "reads the chart's DRMs.",
)
set_option = click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="NAME=VALUE",
    help="A context value of the chart's DRM conditions: an int, a month 1944-12 or an enum value by id or "
    "label (repeatable); reads the chart's DRMs.",
)
read_drms_option = click.option(
    "--read-drms",
    is_flag=True,
    help="Read the chart's DRMs even with no --when/--set: every flag false, other values unknown.",
)
strict_option = click.option("--strict", is_flag=True, help="Treat warnings as errors.")
charts_option = click.option(
    "--charts",
    "charts_dir",
    type=click.Path(path_type=Path),
    default=lambda: default_charts_dir(),
    show_default="$CHARTC_CHARTS, else `charts` of [tool.chartc] in pyproject.toml, else charts",
    help="The charts folder.",
)
attack_option = click.option(
    "--attack",
    callback=whole_number,
    metavar="N",
    help="Attack factors (of a strength-keyed CRT: the strength): pick the odds column.",
)
defense_option = click.option(
    "--defense", callback=whole_number, metavar="N", help="Defense factors: pick the odds column (with --attack)."
)
shift_option = click.option(
    "--shift",
    multiple=True,
    callback=shift_total,
    metavar="N",
    help="Odds column shifts (+ toward the attacker); given more than once, they add up.",
)


class ChartQuestion(NamedTuple):
    """What `lookup` and `odds` ask of one chart, as typed: `--key`, `--when`, `--set`,
    `--read-drms`, `--drm`, the forces of `--attack`, `--defense`, `--shift`, and where the chart
    is read (`--as-printed` or `--printing`, `--charts`). (A NamedTuple: a dataclass's methods, generated when the
    first question is made, cost `chartc lookup` about 1 % of its CPU.)"""

    keys: tuple[str, ...]
    when: tuple[str, ...]
    sets: tuple[str, ...]
    read_drms: bool
    drm: int
    attack: int | None
    defense: int | None
    shift: int
    printing: Printing
    charts_dir: Path

    def key_values(self) -> dict[str, str]:
        """`--key NAME=VALUE` pairs by name (`parse_keys`)."""
        return parse_keys(self.keys)

    def forces(self) -> Forces | None:
        """The forces `--attack`, `--defense` and `--shift` give (`forces_from`)."""
        return forces_from(self.attack, self.defense, self.shift)

    def refuse_forces(self, why: str) -> None:
        """A usage error when forces are given where they do not apply (`why`: `with --follow`)."""
        if self.forces() is not None:
            raise usage_error(f"--attack/--defense/--shift do not apply {why}")

    def check_read_drms(self, charts: Sequence[model.Chart]) -> None:
        """`--read-drms` refused on charts that have no DRM to read (`refuse_read_drms`)."""
        if self.read_drms:
            from compiler.engine.context import refuse_read_drms  # lazy: `chartc --help` imports no engine

            refuse_read_drms(charts)

    def ask(
        self,
        address: str,
        answer: Callable[[model.Game, model.Chart], T],
        found: tuple[model.Game, model.Chart] | None = None,
    ) -> tuple[model.Game, T]:
        """The game of chart ADDRESS (unless `found` gives it) and `answer(game, chart)` (`ask`)."""
        game, _, answered = ask(address, self.charts_dir, answer, self.printing, found)
        return game, answered


_QUESTION_OPTIONS = (
    (key_option, "keys"),
    (when_option, "when"),
    (set_option, "sets"),
    (read_drms_option, "read_drms"),
    (drm_option, "drm"),
    (attack_option, "attack"),
    (defense_option, "defense"),
    (shift_option, "shift"),
    (as_printed_flag, "as_printed"),
    (printing_name_option, "printing_name"),
    (charts_option, "charts_dir"),
)


def chart_question_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options of a `ChartQuestion` (`--key` ... `--charts`, in that order in `--help`), handed
    to `command` as one `question` argument."""

    @functools.wraps(command)
    def asked(**params: Any) -> None:
        given = {name: params.pop(name) for _, name in _QUESTION_OPTIONS}
        given["printing"] = pick_printing(given.pop("as_printed"), given.pop("printing_name"))
        command(question=ChartQuestion(**given), **params)

    for option, _ in reversed(_QUESTION_OPTIONS):
        asked = option(asked)
    return asked


def forces_from(attack: int | None, defense: int | None, shift: int) -> Forces | None:
    """The forces `--attack`, `--defense` and `--shift` give; None without `--attack`. A defense
    or a shift without an attack is a usage error."""
    from compiler.engine.lookup import Forces  # lazy: `chartc --help` imports no engine

    if attack is None and defense is not None:
        raise usage_error("give --attack with --defense")
    if attack is None and shift:
        raise usage_error("--shift moves an odds column: give --attack and --defense")
    return Forces(attack, defense, shift) if attack is not None else None
