"""One CLI convention: every output choice is `--format` (the same names on every command), `--json`
is a documented alias of `--format json`, and a shared option means the same on every command."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from compiler.cli import COMMANDS, cli
from tests.conftest import ROOT

CHARTS = str(ROOT / "charts")
CRTLAB = str(ROOT / "tests" / "data" / "charts")

# each command that prints for a reader or a tool, and the formats it offers (the first is the default)
FORMATS = {
    "analyze": ["human", "json"],
    "check": ["human", "short", "json", "github", "sarif"],
    "compute": ["human", "json"],
    "dice": ["human", "json"],
    "diff": ["human", "json"],
    "export": ["csv"],
    "list": ["human", "json"],
    "lookup": ["human", "json"],
    "odds": ["human", "json"],
    "validate": ["human", "json"],
    "vectors": ["json"],
}

# a question of each command with a JSON answer (IA2 R9 Bombing: 1d20; USAAF 22.2 production
# increase; the crtlab CRT), asked through `--format json` and through `--json`
QUESTIONS = {
    "analyze": ["analyze", "crtlab/CRT", "--drm", "1", "--charts", CRTLAB],
    "check": ["check", CHARTS],
    "compute": ["compute", "usaaf/production_increase", "--set", "production=10", "--charts", CHARTS],
    "diff": ["diff", CHARTS, CHARTS],
    "list": ["list", "ia2", "--charts", CHARTS],
    "lookup": ["lookup", "ia2/R9", "19", "--drm", "2", "--charts", CHARTS],
    "odds": ["odds", "ia2/R9", "--drm", "2", "--charts", CHARTS],
    "validate": ["validate", str(ROOT / "generated" / "ia2" / "ia2.json")],
}


def _command(name: str) -> click.Command:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    return command


def _options(command: click.Command) -> dict[str, click.Option]:
    return {name: p for p in command.params if isinstance(p, click.Option) for name in p.opts}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_output_choice_is_format(name: str) -> None:
    options = _options(_command(name))
    if name not in FORMATS:
        assert "--format" not in options
        return
    choice = options["--format"].type
    assert isinstance(choice, click.Choice) and list(choice.choices) == FORMATS[name]
    if "json" in FORMATS[name] and len(FORMATS[name]) > 1:
        assert options["--json"].help == "Same as --format json."


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_json_is_the_same_as_format_json(name: str) -> None:
    runner = CliRunner()
    by_format = runner.invoke(cli, [*QUESTIONS[name], "--format", "json"])
    by_alias = runner.invoke(cli, [*QUESTIONS[name], "--json"])
    assert by_format.exit_code == by_alias.exit_code == 0, by_format.output
    assert by_alias.stdout == by_format.stdout
    json.loads(by_format.stdout)  # it is JSON


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_json_with_another_format_is_a_usage_error(name: str) -> None:
    r = CliRunner().invoke(cli, [*QUESTIONS[name], "--json", "--format", "human"])
    assert r.exit_code == 2 and "--json is the same as --format json; give one of them" in r.output


def test_csv_stays_an_alias_of_format_csv() -> None:
    runner = CliRunner()
    by_format = runner.invoke(cli, ["export", "ia2/R4", "--format", "csv", "--charts", CHARTS])
    assert by_format.exit_code == 0
    assert runner.invoke(cli, ["export", "ia2/R4", "--csv", "--charts", CHARTS]).stdout == by_format.stdout
    assert runner.invoke(cli, ["export", "ia2/R4", "--charts", CHARTS]).stdout == by_format.stdout


# options the brief of issue 29 names: each means one thing, and says so in the same words, on every
# command that has it (`--out`, a file or build's folder, and `--drm`, whose absence means every
# total on `analyze`, say what they write or read in their own words)
SHARED = ["--charts", "--as-printed", "--key", "--when", "--set", "--strict"]
# `diff --as-printed` reads OLD alone as printed (`diff charts charts --as-printed` lists what the
# errata change): it is the second name of `--old-as-printed`, whose help says so
EXCEPTIONS = {("diff", "--as-printed")}


@pytest.mark.parametrize("option", SHARED)
def test_a_shared_option_says_the_same_on_every_command(option: str) -> None:
    helps = {}
    for name in sorted(COMMANDS):
        found = _options(_command(name)).get(option)
        if found is not None and (name, option) not in EXCEPTIONS:
            helps[name] = found.help
    assert len(helps) >= 2, helps
    assert len(set(helps.values())) == 1, helps


def test_diff_as_printed_is_the_second_name_of_old_as_printed() -> None:
    option = _options(_command("diff"))["--as-printed"]
    assert option.opts == ["--old-as-printed", "--as-printed"] and "reads OLD alone as printed" in (option.help or "")


def test_analyze_drm_adds_up_as_lookup_and_odds_do() -> None:
    runner = CliRunner()
    once = runner.invoke(cli, ["analyze", "crtlab/CRT", "--drm", "1", "--format", "json", "--charts", CRTLAB])
    twice = runner.invoke(
        cli, ["analyze", "crtlab/CRT", "--drm", "2", "--drm", "-1", "--format", "json", "--charts", CRTLAB]
    )
    assert once.exit_code == 0 and once.stdout == twice.stdout
