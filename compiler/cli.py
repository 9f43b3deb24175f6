"""The `chartc` command line (click). It only orchestrates: load -> check -> emit -> write.

Exit codes: 0 clean; 1 findings (errors, or warnings with --strict), stale outputs, a lookup
that selects no row, or odds asked of a chart not read by dice; 2 usage errors (bad options, paths or addresses); 3 an internal error,
printed with a traceback and a request to report it.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import click

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
REPORT_URL = "the chartc issue tracker"


def _load(paths: tuple[Path, ...], as_printed: bool = False):
    from compiler.project import PathError, load

    try:
        return load(list(paths) or [Path("charts")], as_printed=as_printed)
    except PathError as exc:
        raise click.UsageError(str(exc)) from exc


FORMATS = ["human", "short", "json", "github", "sarif"]


def _effective(comp, strict: bool) -> list:
    """The findings to report; with --strict, warnings count as errors."""
    from dataclasses import replace

    from compiler.diagnostics import Severity

    if not strict:
        return comp.diagnostics
    return [replace(d, severity=Severity.ERROR) if d.severity is Severity.WARNING else d for d in comp.diagnostics]


def _summary(comp, diags: list) -> str:
    from compiler.diagnostics import count_by_severity

    def n(count: int, word: str) -> str:
        return f"{count} {word}{'s' if count != 1 else ''}"

    counts = count_by_severity(diags)
    games = len(comp.project.games)
    charts = sum(len(g.charts) for g in comp.project.games.values())
    return (f"checked {n(charts, 'chart')} in {n(games, 'game')}: {n(counts['error'], 'error')}, "
            f"{n(counts['warning'], 'warning')}, {n(counts['note'], 'note')}, {len(comp.suppressed)} suppressed")


def _echo_human(comp, diags: list) -> None:
    from compiler.diagnostics import render_human

    for d in diags:
        click.echo(render_human(d, comp.sources))
        click.echo()


def _echo_github(comp, diags: list) -> None:
    """Annotations first (GitHub caps them per step), then the full human report for the log."""
    from compiler.diagnostics import github_overflow, render_github

    for d in diags:
        click.echo(render_github(d))
    overflow = github_overflow(diags)
    if overflow:
        click.echo(overflow)
    _echo_human(comp, diags)


def _print_diagnostics(comp, fmt: str, strict: bool) -> int:
    from compiler.diagnostics import render_json, render_sarif, render_short

    diags = _effective(comp, strict)
    if fmt == "json":
        click.echo(render_json(diags, comp.suppressed), nl=False)
    elif fmt == "sarif":
        click.echo(render_sarif(diags, comp.suppressed, _version()), nl=False)
    elif fmt == "short":
        for d in diags:
            click.echo(render_short(d))
    elif fmt == "github":
        _echo_github(comp, diags)
    else:
        _echo_human(comp, diags)
    if fmt not in ("json", "sarif"):
        click.echo(_summary(comp, diags), err=fmt == "short")
    return EXIT_FINDINGS if any(d.severity.value == "error" for d in diags) else EXIT_OK


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chartc")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chartc")
def cli() -> None:
    """chartc: compile and check board-wargame charts.

    Charts live in charts/<game>/*.chart; outputs go to generated/<game>/.
    Exit codes: 0 clean, 1 findings or stale outputs, 2 usage error, 3 internal error.
    """


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", show_default=True,
              help="human: rustc-style blocks; short: one line per finding; json: schemas/diagnostics.schema.json; "
                   "github: workflow annotations, then the human report; sarif: SARIF 2.1.0 for code scanning.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--as-printed", is_flag=True, help="Check the charts as printed, without errata.")
def check(paths: tuple[Path, ...], fmt: str, strict: bool, as_printed: bool) -> None:
    """Check chart sources (default: charts/) and report every finding.

    Exit codes: 0 clean (warnings and notes allowed), 1 errors (or warnings with --strict),
    2 usage error, 3 internal error. `allow CODE "reason"` in a chart silences a warning or note.
    """
    comp = _load(paths, as_printed)
    sys.exit(_print_diagnostics(comp, fmt, strict))


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Output folder [default: generated; build/as-printed with --as-printed].")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 if any output is missing, stale or orphaned.")
@click.option("--as-printed", is_flag=True, help="Ignore every errata: build the charts exactly as the rulebook prints them.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True, help="Page size of the player aid.")
@click.option("--large-print", is_flag=True, help="Player aid with 12 pt table cells and 10 pt notes (more pages).")
@click.option("--pdf", is_flag=True, help="Also write the player aid as <game>.pdf (needs the `pdf` extra: WeasyPrint).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def build(
    paths: tuple[Path, ...], out_dir: Path | None, check_only: bool, as_printed: bool, paper: str, large_print: bool,
    pdf: bool, strict: bool,
) -> None:
    """Check the charts, then write JSON, Python and HTML (and with --pdf, PDF) for every game into --out.

    Nothing is written when any error is found: the previous outputs stay as they were.
    A build without --pdf leaves existing PDFs alone: it neither deletes them nor calls them orphans.
    """
    from compiler.build import OutputError, render_outputs, render_pdfs
    from compiler.diagnostics import render_short
    from compiler.writer import WriteError, check_out_dir, stale_outputs, write_outputs

    if out_dir is None:
        out_dir = Path("build/as-printed") if as_printed else Path("generated")
    comp = _load(paths, as_printed)
    try:
        check_out_dir(out_dir, comp.game_dirs)
    except WriteError as exc:
        raise click.UsageError(str(exc)) from exc
    errors = [d for d in comp.diagnostics if d.severity.value == "error" or (strict and d.severity.value == "warning")]
    if errors:
        for d in errors:
            click.echo(render_short(d), err=True)
        click.echo(f"build failed: {len(errors)} error(s); nothing was written (run `chartc check` for details)", err=True)
        sys.exit(EXIT_FINDINGS)
    try:
        outputs: dict[str, str | bytes] = dict(render_outputs(comp.project, paper, large_print))
        if pdf:
            outputs.update(render_pdfs({rel: text for rel, text in outputs.items() if isinstance(text, str)}))
            outputs = dict(sorted(outputs.items()))
    except OutputError as exc:
        click.echo(f"build failed: {exc}; nothing was written", err=True)
        sys.exit(EXIT_FINDINGS)
    game_ids = sorted(comp.project.games)
    if _whole_tree(paths):  # a whole charts tree: outputs of games whose charts are gone are orphans
        from compiler.writer import orphan_games

        game_ids = sorted(game_ids + orphan_games(out_dir, game_ids))
    if check_only:
        stale = _on_disk(lambda: stale_outputs(out_dir, outputs, game_ids), out_dir, "build --check failed")
        if stale.clean:
            click.echo(f"{len(outputs)} generated files in {out_dir} are up to date")
            sys.exit(EXIT_OK)
        for rel in stale.missing:
            click.echo(f"missing:  {out_dir / rel}", err=True)
        for rel in stale.changed:
            click.echo(f"stale:    {out_dir / rel}", err=True)
            click.echo(stale.diffs[rel], err=True)
        for rel in stale.orphaned:
            click.echo(f"orphaned: {out_dir / rel} (no chart source produces it)", err=True)
        args = "".join(f" {p}" for p in paths) + (f" --paper {paper}" if paper != "a4" else "")
        args += (" --large-print" if large_print else "") + (" --pdf" if pdf else "") + (" --as-printed" if as_printed else "")
        click.echo(f"generated files are out of date: run `chartc build{args} --out {out_dir}`", err=True)
        sys.exit(EXIT_FINDINGS)
    changed = _on_disk(lambda: write_outputs(out_dir, outputs, game_ids), out_dir, "build failed").changed
    click.echo(f"built {len(game_ids)} game{'s' if len(game_ids) != 1 else ''} into {out_dir}: {len(changed)} file{'s' if len(changed) != 1 else ''} changed")


def _on_disk(step, out_dir: Path, failed: str):
    """Run a step of the writer (a build or `--check`): print what recovering an interrupted build
    did, or the writer's refusal (exit 1)."""
    from compiler.writer import WriteError

    try:
        result = step()
    except WriteError as exc:
        click.echo(f"{failed}: {exc}", err=True)
        sys.exit(EXIT_FINDINGS)
    for line in result.recovery.lines(out_dir):
        click.echo(line, err=True)
    return result


@cli.command()
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Explain diagnostic CODE (e.g. C305 or modified-roll-off-table): a failing input, what
    chartc reports, and the fix. Without CODE, list every code."""
    from compiler.diagnostics import CODES
    from compiler.explain import explain_text, find_code, load_examples

    if code is None:
        for c in CODES.values():
            click.echo(f"{c.code}  {c.severity.value:<7}  {c.name}: {c.summary}")
        return
    found = find_code(code)
    if found is None:
        from compiler.diagnostics import did_you_mean

        hint = did_you_mean(code.upper(), list(CODES)) or did_you_mean(code.lower(), [c.name for c in CODES.values()])
        raise click.UsageError(f"no diagnostic code `{code}`" + (f"; {hint}" if hint else "; run `chartc explain` for the list"))
    click.echo(explain_text(found, load_examples()[found.code]), nl=False)


def _whole_tree(paths: tuple[Path, ...]) -> bool:
    """True when the PATHs name whole charts trees (folders of game folders), not single games."""
    from compiler.project import CHART_SUFFIX

    roots = paths or (Path("charts"),)
    return all(p.is_dir() and not any(c.suffix == CHART_SUFFIX for c in p.iterdir() if c.is_file()) for p in roots)


def _parse_keys(pairs: tuple[str, ...]) -> dict[str, str]:
    keys: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"`{pair}`: write NAME=VALUE, e.g. --key interceptor=piston", param_hint="--key")
        if name.strip() in keys:
            raise click.BadParameter(f"key `{name.strip()}` is given twice", param_hint="--key")
        keys[name.strip()] = value.strip()
    return keys


def _find_chart(address: str, charts_dir: Path, as_printed: bool = False):
    game_id, sep, chart_name = address.partition("/")
    if not sep or not game_id or not chart_name:
        raise click.UsageError(f"`{address}`: address a chart as GAME/CHART, e.g. ia2/R4")
    comp = _load((charts_dir / game_id,), as_printed) if (charts_dir / game_id).is_dir() else None
    if comp is None:
        from compiler.diagnostics import did_you_mean

        known = [p.name for p in charts_dir.iterdir() if p.is_dir()] if charts_dir.is_dir() else []
        hint = did_you_mean(game_id, known)
        raise click.UsageError(f"no game `{game_id}` in {charts_dir}" + (f"; {hint}" if hint else ""))
    game = comp.project.games[game_id]
    chart = game.chart(chart_name)
    if chart is None:
        from compiler.diagnostics import did_you_mean

        hint = did_you_mean(chart_name, [c.address for c in game.charts])
        raise click.UsageError(f"no chart `{chart_name}` in game `{game_id}`" + (f"; {hint}" if hint else ""))
    # any error in the game can change this chart (an errata, a derived chart's base, a dropped
    # row), so a lookup never answers from a game that does not check clean
    blocking = [d for d in comp.diagnostics if d.severity.value == "error"]
    if blocking:
        from compiler.diagnostics import render_short

        for d in blocking[:20]:
            click.echo(render_short(d), err=True)
        click.echo(f"error: game `{game_id}` has {len(blocking)} error(s); fix them first (`chartc check {charts_dir / game_id}`)", err=True)
        sys.exit(EXIT_FINDINGS)
    return game, chart


def _ask(address: str, charts_dir: Path, question, as_printed: bool = False):
    """Find chart ADDRESS, then return (game, chart, question(game, chart)); a `LookupProblem`
    (the question has no answer on this chart) is printed and exits 1."""
    from compiler.lookup import LookupProblem, LookupUsage

    game, chart = _find_chart(address, charts_dir, as_printed)
    try:
        return game, chart, question(game, chart)
    except LookupUsage as exc:
        raise click.UsageError(str(exc)) from exc
    except LookupProblem as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_FINDINGS)


@cli.command()
@click.argument("address")
@click.argument("roll", required=False)
@click.option("--key", "keys", multiple=True, metavar="NAME=VALUE", help="A key of the chart, by id or printed label (repeatable).")
@click.option("--drm", type=int, default=0, show_default=True, help="Total die roll modifier added to the natural roll.")
@click.option("--attack", type=int, help="Attack factors: pick the odds column (with --defense).")
@click.option("--defense", type=int, help="Defense factors: pick the odds column (with --attack).")
@click.option("--shift", type=int, default=0, show_default=True, help="Odds column shifts (+ toward the attacker).")
@click.option("--json", "as_json", is_flag=True, help="Print the selected row as JSON.")
@click.option("--as-printed", is_flag=True, help="Read the chart as printed, without errata.")
@click.option("--charts", "charts_dir", type=click.Path(path_type=Path), default=Path("charts"), show_default=True)
def lookup(
    address: str, roll: str | None, keys: tuple[str, ...], drm: int, attack: int | None, defense: int | None,
    shift: int, as_json: bool, as_printed: bool, charts_dir: Path,
) -> None:
    """Print the row ROLL (+ --drm) selects on chart ADDRESS (GAME/CHART, e.g. ia2/R4).

    ROLL is the natural roll as printed on the dice (0 on a d10 is 10, 00 on a percentile roll is
    100), or the value of a value-keyed chart; leave it out for charts read by keys only.
    Exits 1 when no row is selected (a gap, or a modified roll off the table).
    """
    from compiler.emit.json import json_value
    from compiler.lookup import keys_from_odds, odds_column
    from compiler.lookup import lookup as do_lookup
    from compiler.text import value_text

    if (attack is None) != (defense is None):
        raise click.UsageError("give both --attack and --defense")

    def ask(game, chart):
        given = _parse_keys(keys)
        if attack is not None and defense is not None:
            if chart.kind == "odds":
                return odds_column(chart, attack, defense, shift)
            from_odds = keys_from_odds(game, chart, attack, defense, shift)
            both = sorted(set(from_odds) & set(given))
            if both:
                raise click.UsageError(f"--attack/--defense pick key `{both[0]}`; leave out --key {both[0]}=...")
            given.update(from_odds)
        return do_lookup(chart, roll, given, drm)

    game, chart, result = _ask(address, charts_dir, ask, as_printed)
    if isinstance(result, str):  # an odds rule answered with its column
        if as_json:
            click.echo(json.dumps({"game": game.id, "chart": chart.address, "attack": attack, "defense": defense, "shift": shift, "column": result}))
        else:
            click.echo(f"{game.id}/{chart.address} {chart.title}" + (f" (rule {chart.rule})" if chart.rule else ""))
            click.echo(f"  attack {attack} vs defense {defense}" + (f", shift {shift:+d}" if shift else "") + f" -> {result}")
        return
    if as_json:
        doc = {
            "game": game.id,
            "chart": chart.address,
            "title": chart.title,
            "keys": {k.id: m.id for k, m in result.keys},
            "natural": result.natural,
            "drm": result.drm,
            "modified": result.modified,
            "range": result.row.range.printed if result.row.range else None,
            "values": {k: json_value(v) for k, v in result.values().items()},
        }
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    head = f"{game.id}/{chart.address} {chart.title}" + (f" (rule {chart.rule})" if chart.rule else "")
    click.echo(head)
    for k, m in result.keys:
        click.echo(f"  {k.id}: {m.label}")
    if result.natural is not None:
        roll_text = f"{result.natural}" if not drm else f"{result.natural} {'+' if drm > 0 else '-'} DRM {abs(drm)} = {result.modified}"
        what = "value" if chart.kind == "value" else "roll"
        click.echo(f"  {what} {roll_text} -> row {result.row.range.printed if result.row.range else ''}")
    for col, value in zip(chart.columns, result.row.values):
        click.echo(f"  {col.label}: {value_text(game, col, value)}")


@cli.command("odds")
@click.argument("address")
@click.option("--key", "keys", multiple=True, metavar="NAME=VALUE", help="A key of the chart, by id or printed label (repeatable).")
@click.option("--drm", type=int, default=0, show_default=True, help="Total die roll modifier added to the natural roll.")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True,
              help="human: a table for the terminal; json: exact fractions for tools.")
@click.option("--as-printed", is_flag=True, help="Read the chart as printed, without errata.")
@click.option("--charts", "charts_dir", type=click.Path(path_type=Path), default=Path("charts"), show_default=True)
def odds_command(address: str, keys: tuple[str, ...], drm: int, fmt: str, as_printed: bool, charts_dir: Path) -> None:
    """Print the exact chance of each row of chart ADDRESS (GAME/CHART, e.g. ia2/R9) at --drm.

    Shows each row's probability as a fraction and a percentage, the chance that no row is
    selected (when there is one), the expected value of each integer column (hits, points) and the
    distribution of the modified roll. Exits 1 for a chart not read by dice or a wrong key.
    """
    from compiler.odds import chart_odds, report_json, report_lines

    _, _, report = _ask(address, charts_dir, lambda game, chart: chart_odds(game, chart, _parse_keys(keys), drm), as_printed)
    if fmt == "json":
        click.echo(json.dumps(report_json(report), ensure_ascii=False, indent=2))
        return
    for line in report_lines(report):
        click.echo(line)


def _tree(arg: str, keep: list) -> tuple[Path, str]:
    """A chart tree to diff: an existing path, or a git revision of this repository (its `charts/`
    exported with `git archive` into a temporary folder kept alive by `keep`)."""
    import subprocess
    import tarfile
    import tempfile

    path = Path(arg)
    if path.exists():
        return path, arg
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
        data = subprocess.run(["git", "-C", top, "archive", "--format=tar", arg, "charts"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise click.UsageError(f"`{arg}` is neither a path nor a git revision with a charts/ folder") from exc
    tmp = tempfile.TemporaryDirectory(prefix="chartc-diff-")
    keep.append(tmp)
    import io

    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(tmp.name, filter="data")
    return Path(tmp.name) / "charts", f"{arg} (git)"


@cli.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@click.option("--html", "html_file", type=click.Path(path_type=Path, dir_okay=False, writable=True),
              help="Also write a printable errata sheet to this file.")
@click.option("--as-printed", "old_as_printed", is_flag=True, help="Read OLD without its errata (print vs. amended).")
def diff_command(old: str, new: str, fmt: str, html_file: Path | None, old_as_printed: bool) -> None:
    """List the changes from chart tree OLD to NEW, per chart and cell, in the field's words.

    OLD and NEW are paths (a charts folder or a game folder) or git revisions of this repository
    (`HEAD~1`, a tag). Reordered rows are no change; a moved range or renamed key is one change.
    `chartc diff charts charts --as-printed` lists what the errata change.
    """
    from compiler.diff import diff_projects, errata_sheet_html

    keep: list = []
    old_path, old_label = _tree(old, keep)
    new_path, new_label = _tree(new, keep)
    a = _load((old_path,), as_printed=old_as_printed)
    b = _load((new_path,))
    for comp, label in ((a, old_label), (b, new_label)):
        errors = [d for d in comp.diagnostics if d.severity.value == "error"]
        if errors:
            click.echo(f"warning: {label} has {len(errors)} error(s); its charts may be incomplete", err=True)
    changes = diff_projects(a.project, b.project)
    if fmt == "json":
        click.echo(json.dumps({"old": old_label, "new": new_label, "changes": [c.as_json() for c in changes]}, ensure_ascii=False, indent=2))
    else:
        for c in changes:
            click.echo(f"{c.game}/{c.text()}" + (f"  [{c.cite}]" if c.cite else ""))
        click.echo(f"{len(changes)} change{'s' if len(changes) != 1 else ''}", err=True)
    if html_file is not None:
        titles = {**{g.id: g.title for g in a.project.games.values()}, **{g.id: g.title for g in b.project.games.values()}}
        try:
            html_file.write_text(errata_sheet_html(changes, titles, old_label, new_label), encoding="utf-8")
        except OSError as exc:
            raise click.UsageError(f"cannot write the errata sheet to {html_file}: {exc.strerror or exc}") from exc


def main() -> None:
    """Console entry point: run the CLI, turning unexpected exceptions into exit code 3."""
    try:
        cli(prog_name="chartc")
    except SystemExit:
        raise
    except OSError as exc:  # the terminal or pipe went away, or the disk is full: not a chartc bug
        try:
            sys.stderr.write(f"chartc: cannot write output: {exc.strerror or exc}\n")
        except OSError:
            pass
        sys.exit(EXIT_FINDINGS)
    except Exception:  # noqa: BLE001 - the last line of defence: never a bare traceback exit 1
        traceback.print_exc()
        click.echo(
            "\nchartc hit an internal error (a bug in chartc, not in your charts). "
            f"Please report it on {REPORT_URL} with the traceback above and the input that caused it.",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":  # pragma: no cover
    main()
