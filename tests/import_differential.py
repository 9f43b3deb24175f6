"""The differential and the round-trip fuzzer of `chartc import` (issue 32 item 3, issue 33).

`differential(seeds, fmt, folder)`: each seed's table (`tests.importgen.generate`) is written in
`fmt` (csv, xlsx, ods, markdown) as a publisher would save it, imported, and must draft with no
finding; all the drafts are compiled together (one game each), must check with no error, and every
lookup of every chart (each key value, each natural roll) must answer the printed cell.

`round_trip(seeds, folder)`: each seed's table is damaged (`mutate`: hostile text in cells and
heads, a row or a column cut, a cell moved, random bytes) and written in a random format. The
import must end in a draft or in `ImportError_` (never another exception); a draft that parses
holds one chart of the given name and nothing else (no errata, no second chart); a draft with no
finding parses; one that also checks clean is exported as CSV, imported again and checked: the same table, lookup
for lookup.

Each problem is a `Failure` naming the seed, the format and what differed.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from compiler import model
from compiler.build.project import Compilation, load
from compiler.diagnostics.textsafe import printable
from compiler.engine.lookup import LookupProblem, LookupUsage, lookup
from compiler.tools.table_export import dice_word, export_csv, not_plain_reason
from compiler.tools.table_import import Draft, ImportError_, draft, read_table
from dsl.parser import parse_text
from tests.importgen import (
    SourceTable,
    all_rows,
    csv_bytes,
    expected,
    generate,
    markdown_bytes,
    ods_bytes,
    xlsx_bytes,
)

FORMATS = ("csv", "xlsx", "ods", "markdown")
_SUFFIX = {"csv": ".csv", "xlsx": ".xlsx", "ods": ".ods", "markdown": ".md"}


@dataclass(frozen=True)
class Failure:
    seed: int
    fmt: str
    what: str

    def __str__(self) -> str:
        return f"seed {self.seed} ({self.fmt}): {self.what}"


@dataclass
class Run:
    """What a batch found: cases run, lookups compared, drafts that round-tripped, failures."""

    cases: int = 0
    lookups: int = 0
    round_trips: int = 0
    held_back: int = 0  # drafts with findings, or refused files: nothing to round-trip
    failures: list[Failure] = field(default_factory=list)


def write(table: SourceTable, fmt: str, rng: random.Random) -> tuple[Path, bytes]:
    """The table saved in `fmt`: a CSV with a random separator and encoding (cp1252 when it holds
    the text), an XLSX or ODS with integer cells as numbers, or Markdown."""
    rows = all_rows(table)
    offset = table.keys + 1
    numbers = frozenset(c + offset for c in table.integer_columns)
    match fmt:
        case "csv":
            separator = rng.choice([",", ",", ";", "\t"])
            encoding = rng.choice(["utf-8", "utf-8-sig", "cp1252"])
            try:
                return Path("t.csv"), csv_bytes(rows, separator, encoding)
            except UnicodeEncodeError:
                return Path("t.csv"), csv_bytes(rows, separator, "utf-8")
        case "xlsx":
            return Path("t.xlsx"), xlsx_bytes(rows, numbers if table.header is not None else frozenset())
        case "ods":
            return Path("t.ods"), ods_bytes(rows, numbers if table.header is not None else frozenset())
        case "markdown":
            return Path("t.md"), markdown_bytes(rows, table.header is not None)
    raise AssertionError(fmt)


def _roll_text(chart: model.Chart, roll: int) -> str:
    dice = chart.dice
    return "00" if dice is not None and dice.text == "percentile" and roll == 100 else str(roll)


def _cell(value: model.Value) -> str:
    return "-" if value is None else str(value)


def _answer(chart: model.Chart, given: dict[str, str], roll: int) -> str:
    """One lookup's cells joined by ` | `, or `no row`."""
    try:
        row = lookup(chart, _roll_text(chart, roll), given, 0).row
    except LookupUsage:
        raise  # a key value the chart does not have: the caller's to report
    except LookupProblem:
        return "no row"
    return " | ".join(_cell(v) for v in row.values)


def table_of(chart: model.Chart, by_id: bool = False) -> dict[tuple[tuple[str, ...], int], str]:
    """Every lookup of a chart: (key values, natural roll) -> its cells joined by ` | `, or
    `no row`; a key value told by its printed label, or (`by_id`) by the member id an export writes."""
    combos: list[list[model.Member]] = [[]]
    for key in chart.keys:
        combos = [[*combo, member] for combo in combos for member in key.enum.members]
    answers = {}
    for combo in combos:
        given = {key.id: member.id for key, member in zip(chart.keys, combo, strict=True)}
        told = tuple(member.id if by_id else (member.label or member.id) for member in combo)
        for roll in chart.natural_rolls:
            answers[(told, roll)] = _answer(chart, given, roll)
    return answers


def asked(chart: model.Chart, questions: list[tuple[tuple[str, ...], int]]) -> dict[tuple[tuple[str, ...], int], str]:
    """The answers of a chart to questions whose key values are ids or labels (as `lookup` reads them)."""
    answers = {}
    for values, roll in questions:
        given = {key.id: value for key, value in zip(chart.keys, values, strict=True)}
        try:
            answers[(values, roll)] = _answer(chart, given, roll)
        except LookupProblem as exc:  # a key value the chart does not have
            answers[(values, roll)] = f"refused: {exc}"
    return answers


def _compile(folder: Path, drafts: dict[int, str]) -> Compilation:
    """Every draft in a game of its own (`g<seed>`), compiled together."""
    folders = []
    for seed, text in drafts.items():
        game = folder / f"g{seed}"
        game.mkdir(parents=True, exist_ok=True)
        (game / "game.chart").write_text(f'game g{seed} {{\n  title "Imported"\n}}\n', encoding="utf-8")
        (game / "t.chart").write_text(text, encoding="utf-8")
        folders.append(game)
    return load(folders) if folders else Compilation.__new__(Compilation)


def _errors_by_game(comp: Compilation) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for d in comp.diagnostics:
        if d.severity.value == "error":
            game = Path(d.span.file).parent.name if d.span is not None else "?"
            found.setdefault(game, []).append(f"{d.code} {d.message}")
    return found


def _guarded(seed: int, fmt: str, run: Run, step: Callable[[], Draft]) -> Draft | None:
    """A step's draft, or None with a failure for any exception but the import's own refusal."""
    try:
        return step()
    except ImportError_:
        run.held_back += 1
        return None
    except Exception:
        run.failures.append(Failure(seed, fmt, "traceback:\n" + traceback.format_exc(limit=6)))
        return None


def differential(seeds: range, fmt: str, folder: Path) -> Run:
    run = Run()
    drafts: dict[int, str] = {}
    tables: dict[int, SourceTable] = {}
    for seed in seeds:
        run.cases += 1
        table = generate(seed)
        path, data = write(table, fmt, random.Random(seed))
        result = _guarded(seed, fmt, run, lambda path=path, data=data: draft(read_table(path, data), "t", "T"))
        if result is None:
            run.failures.append(Failure(seed, fmt, "the import refused a printed table"))
            continue
        if result.findings:
            run.failures.append(Failure(seed, fmt, f"findings on a clean table: {result.findings}"))
            continue
        drafts[seed], tables[seed] = result.text, table
    comp = _compile(folder, drafts)
    errors = _errors_by_game(comp)
    for seed, table in tables.items():
        if f"g{seed}" in errors:
            run.failures.append(Failure(seed, fmt, f"the draft does not check: {errors[f'g{seed}'][:3]}"))
            continue
        chart = comp.project.games[f"g{seed}"].chart("t")
        assert chart is not None
        want, got = expected(table), table_of(chart)
        run.lookups += len(want)
        dice = (dice_word(chart.dice) if chart.dice is not None else None) or "?"
        if dice.lower() != table.dice or want != got:
            diff = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))[:3]
            shown = [(k, want.get(k), got.get(k)) for k in diff]
            run.failures.append(Failure(seed, fmt, f"dice {dice} for {table.dice}; lookups differ: {shown}"))
    return run


# ---- the round-trip fuzzer -----------------------------------------------------------------------

HOSTILE = [
    '"', '\\', '\n', '\r', '\t', '}', '{', '}\n}\nerrata x "y" {\n', '#', '//', ':', ',', ';', '|', '\\|', '->',
    '\u202e', '\u2028', '\x0b', '\x85', '\x00', '\x1b[31m', 'é', '½', '\u2013', '\u2212', '=cmd|', '@SUM(1)',
    '3-Feb', '03:01:00', '1944-06-06', '00', '0', '-', '', ' ', '1 or less', '11+', '≤ 2', '7 to 9', '-3--1',
    '1000000000', '-9999999999', '12345-67890', '99999+',
    'rows', 'chart', 'odds', 'codes', 'order', 'roll', 'key', 'grid', 'x' * 300, '9' * 30,
]


def mutate(table: SourceTable, rng: random.Random) -> list[list[str]]:
    """The table's rows (header first) with 1-4 damages: a cell or head replaced by hostile text or
    spliced with it, a row dropped or doubled, a column dropped, two cells swapped."""
    rows = [list(r) for r in all_rows(table)]
    for _ in range(rng.randint(1, 4)):
        r = rng.randrange(len(rows))
        c = rng.randrange(len(rows[r]))
        match rng.randrange(6):
            case 0:
                rows[r][c] = rng.choice(HOSTILE)
            case 1:
                cut = rng.randint(0, len(rows[r][c]))
                rows[r][c] = rows[r][c][:cut] + rng.choice(HOSTILE) + rows[r][c][cut:]
            case 2 if len(rows) > 2:
                del rows[r]
            case 3:
                rows.insert(r, list(rows[r]))
            case 4 if all(len(row) > 2 for row in rows):
                for row in rows:
                    del row[min(c, len(row) - 1)]
            case _:
                r2 = rng.randrange(len(rows))
                c2 = rng.randrange(len(rows[r2]))
                rows[r][c], rows[r2][c2] = rows[r2][c2], rows[r][c]
    return rows


def _write_rows(rows: list[list[str]], fmt: str, rng: random.Random) -> tuple[Path, bytes]:
    match fmt:
        case "csv":
            return Path("t.csv"), csv_bytes(rows, rng.choice([",", ";", "\t"]), "utf-8")
        case "xlsx":
            clean = [["".join(ch for ch in c if ch >= " " or ch in "\t\n\r") for c in row] for row in rows]
            return Path("t.xlsx"), xlsx_bytes(clean)
        case "ods":
            clean = [["".join(ch for ch in c if ch >= " " or ch in "\t\n") for c in row] for row in rows]
            return Path("t.ods"), ods_bytes(clean)
        case "markdown":
            return Path("t.md"), markdown_bytes(rows, True)
    raise AssertionError(fmt)


def _one_chart(seed: int, fmt: str, text: str, run: Run) -> None:
    """A draft that parses is one chart named `t` with its enums and odds rule: nothing injected."""
    parsed = parse_text(text, "t.chart")
    if parsed.source is None:
        return
    charts = [c.slug.text if c.slug is not None else "?" for c in parsed.source.charts]
    if charts != ["t"] or parsed.source.errata or parsed.source.game or parsed.source.invariants:
        run.failures.append(Failure(seed, fmt, f"the draft holds more than its chart: {charts}"))


def round_trip(seeds: range, folder: Path) -> Run:
    run = Run()
    first: dict[int, str] = {}
    formats: dict[int, str] = {}
    for seed in seeds:
        run.cases += 1
        rng = random.Random(seed)
        fmt = FORMATS[seed % len(FORMATS)]
        formats[seed] = fmt
        if rng.random() < 0.02:  # random bytes under a table's name
            path, data = Path("t" + _SUFFIX[fmt]), rng.randbytes(rng.randint(0, 400))
        else:
            path, data = _write_rows(mutate(generate(seed), rng), fmt, rng)
        result = _guarded(seed, fmt, run, lambda path=path, data=data: draft(read_table(path, data), "t", "T"))
        if result is None:
            continue
        _one_chart(seed, fmt, result.text, run)
        if not result.findings and parse_text(result.text, "t.chart").errors:
            run.failures.append(Failure(seed, fmt, "a draft with no finding does not parse"))
            continue
        if result.findings:
            run.held_back += 1
            continue
        first[seed] = result.text
    comp = _compile(folder / "first", first)
    errors = _errors_by_game(comp)
    again: dict[int, str] = {}
    tables: dict[int, dict[tuple[tuple[str, ...], int], str]] = {}
    for seed in first:
        game = comp.project.games.get(f"g{seed}") if f"g{seed}" not in errors else None
        chart = game.chart("t") if game is not None else None
        if chart is None or not_plain_reason(chart) is not None:
            run.held_back += 1
            continue
        fmt = formats[seed]
        exported = export_csv(chart)
        data = exported.encode()
        result = _guarded(seed, fmt, run, lambda data=data: draft(read_table(Path("e.csv"), data), "t", "T"))
        if result is None or result.findings:
            run.failures.append(Failure(seed, fmt, f"its export does not import clean: {result and result.findings}"))
            continue
        # CSV export shows a hidden character as its `<U+XXXX>` mark (issue 33 item 9: no control or bidi
        # character reaches a spreadsheet), so the table comes back as a spreadsheet shows it
        again[seed] = result.text
        tables[seed] = {k: printable(v) for k, v in table_of(chart, by_id=True).items()}
    comp = _compile(folder / "again", again)
    errors = _errors_by_game(comp)
    for seed, want in tables.items():
        if f"g{seed}" in errors:
            found = errors[f"g{seed}"][:3]
            run.failures.append(Failure(seed, formats[seed], f"the export's draft does not check: {found}"))
            continue
        chart = comp.project.games[f"g{seed}"].chart("t")
        assert chart is not None
        got = asked(chart, sorted(want))
        run.lookups += len(want)
        run.round_trips += 1
        if got != want or len(table_of(chart)) != len(want):
            diff = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))[:3]
            shown = [(k, want.get(k), got.get(k)) for k in diff]
            run.failures.append(Failure(seed, formats[seed], f"the round trip changed lookups: {shown}"))
    return run
