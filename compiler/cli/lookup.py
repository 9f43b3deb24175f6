"""`chartc lookup`: the row a natural roll plus DRM selects, or the CRT column for given forces."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from compiler.cli.common import (
    JSON_FORMATS,
    ChartQuestion,
    chart_question_options,
    echo_lines,
    find_chart_or_limit,
    format_option,
    usage_error,
)
from compiler.engine.lookup import DrmListAnswer, OddsColumnAnswer, answer
from compiler.model.types import EnumType
from compiler.query.lookup import (
    drm_list_json,
    drm_list_lines,
    lookup_json,
    lookup_lines,
    odds_column_json,
    odds_column_lines,
)

if TYPE_CHECKING:
    from compiler import model
    from compiler.engine.lookup import DrmListAnswer, LookupResult, OddsColumnAnswer


@click.command("lookup")
@click.argument("address")
@click.argument("roll", required=False)
@chart_question_options
@format_option(JSON_FORMATS, "human: the row and how the roll reached it; json: the same, for tools.")
@click.option(
    "--follow",
    is_flag=True,
    help="Follow chained results (a cell that says roll on another chart, roll again, or holds a roll of its "
    "own) step by step to the final row.",
)
@click.option(
    "--roll",
    "rolls",
    multiple=True,
    metavar="N",
    help="With --follow: the natural roll of the next step after ROLL, in order (repeatable).",
)
@click.option(
    "--seed", type=int, default=None, metavar="N", help="With --follow: roll what ROLL and --roll leave out, seeded."
)
def lookup_command(
    address: str,
    roll: str | None,
    question: ChartQuestion,
    fmt: str,
    follow: bool,
    rolls: tuple[str, ...],
    seed: int | None,
) -> None:
    """Print the row ROLL (+ --drm) selects on chart ADDRESS (GAME/CHART, e.g. ia2/R4).

    ADDRESS may also name a limit (GAME/LIMIT: the bound in the context --set/--when give) or a set
    of records, an enum with fields (GAME/ENUM: every record as a table; --key ENUM=VALUE one
    record's fields, e.g. chartc lookup ia2/jet_ace --key jet_ace=baer).

    ROLL is the natural roll as printed on the dice (0 on a d10 is 10, 00 on a percentile roll is
    100), or the value of a value-keyed chart; leave it out for charts read by keys only.
    With --when/--set the chart's DRMs are read in that context (flags left out are false, other
    values left out unknown) and the breakdown is printed; --read-drms reads them with every flag
    false; --drm adds on top. On a chart that
    lists DRMs only (IA2 B9), their total in that context (without --when/--set, every flag false).
    Exits 1 when no row is selected (a gap, or a modified roll off the table).
    With --follow, a chained result is followed to the end: ROLL, then each --roll, is the natural
    roll of each step in turn (a roll inside a cell included); --seed N rolls the rest.
    """
    as_json = fmt == "json"
    game, target, other = find_chart_or_limit(address, question.charts_dir, question.printing)
    chart_only = bool(follow or rolls or seed is not None or question.read_drms or question.drm)
    if isinstance(other, EnumType):
        _records(game, other, roll, question, as_json, chart_only)
        return
    if other is not None:
        _limit(game, other, roll, question, as_json, chart_only)
        return
    assert target is not None
    found = (game, target)
    if follow:
        question.refuse_forces("with --follow")
        _follow(address, roll, question, rolls, seed, as_json, found)
        return
    if rolls or seed is not None:
        raise click.UsageError("--roll and --seed are for --follow")

    forces = question.forces()

    def asked(game: model.Game, chart: model.Chart) -> LookupResult | OddsColumnAnswer | DrmListAnswer:
        question.check_read_drms([chart])
        return answer(
            game, chart, roll, question.key_values(), question.drm, forces,
            when=question.when, sets=question.sets, read_drms=question.read_drms,
        )

    game, result = question.ask(address, asked, found)
    if isinstance(result, OddsColumnAnswer):
        if as_json:
            click.echo(odds_column_json(game, result))
        else:
            echo_lines(odds_column_lines(game, result))
    elif isinstance(result, DrmListAnswer):
        click.echo(drm_list_json(game, result) if as_json else "\n".join(drm_list_lines(game, result)))
    elif as_json:
        click.echo(lookup_json(game, result))
    else:
        echo_lines(lookup_lines(game, result))


def _follow(
    address: str,
    roll: str | None,
    question: ChartQuestion,
    rolls: tuple[str, ...],
    seed: int | None,
    as_json: bool,
    found: tuple[model.Game, model.Chart],
) -> None:
    """`lookup --follow`: walk the chain and print each step."""
    # lazy: only `lookup --follow` follows a chain
    from compiler.engine.follow import FollowResult, follow, reachable_charts
    from compiler.query.follow import follow_json, follow_lines

    given = ([roll] if roll is not None else []) + list(rolls)

    def asked(game: model.Game, chart: model.Chart) -> FollowResult:
        question.check_read_drms(reachable_charts(game, chart))
        return follow(
            game, chart, given, question.key_values(), question.drm, seed, question.when, question.sets,
            question.read_drms,
        )

    game, walk = question.ask(address, asked, found)
    if as_json:
        click.echo(follow_json(game, walk))
    else:
        echo_lines(follow_lines(game, walk))


def _limit(
    game: model.Game,
    limit: model.Limit,
    roll: str | None,
    question: ChartQuestion,
    as_json: bool,
    chart_only: bool,
) -> None:
    """`chartc lookup GAME/LIMIT [--key/--set NAME=VALUE] [--when FLAG]`: the bound that applies."""
    # lazy: only a limit's lookup reads limits
    from compiler.engine.limits import ask_limit
    from compiler.engine.problems import LookupUsage
    from compiler.query.limits import limit_json, limit_lines

    if roll is not None or chart_only:
        raise usage_error(
            f"`{limit.id}` is a limit: it takes no roll, --drm, --follow or --read-drms; give its context with "
            "--set NAME=VALUE (or --key) and --when FLAG"
        )
    try:
        answer = ask_limit(game, limit, question.key_values(), question.when, question.sets)
    except LookupUsage as exc:
        raise usage_error(str(exc)) from exc
    click.echo(limit_json(game, answer)) if as_json else echo_lines(limit_lines(game, answer))


def _records(
    game: model.Game,
    enum: model.EnumType,
    roll: str | None,
    question: ChartQuestion,
    as_json: bool,
    chart_only: bool,
) -> None:
    """`chartc lookup GAME/ENUM [--key ENUM=VALUE]`: one record's fields, or the whole set."""
    # lazy: only a record set's lookup reads records
    from compiler.engine.problems import LookupUsage
    from compiler.engine.records import ask_record
    from compiler.query.records import record_json, record_lines

    if roll is not None or chart_only or question.when or question.sets:
        raise usage_error(
            f"`{enum.id}` is a set of records: it takes no roll, --drm, --when, --set, --follow or --read-drms; "
            f"name a record with --key {enum.id}=VALUE, or leave --key out for every record"
        )
    try:
        answer = ask_record(enum, question.key_values())
    except LookupUsage as exc:
        raise usage_error(str(exc)) from exc
    click.echo(record_json(game, answer)) if as_json else echo_lines(record_lines(game, answer))
