"""Three-way differential run of one generated game: the CLI, the generated Python, the JSON rows.

`run_game(seed, folder)` writes the game `tests.gamegen.generate(seed)` under `folder`, checks it
(it must have no errors), builds it with `chartc build`, and asks every chart the same questions
three ways:

* the JSON rows, read with their integer bounds from the emitted `g.json` (the oracle here: a
  few lines of code anyone can audit), together with the dice outcomes' exact chances;
* the generated Python module, imported from the build output (`LOOKUPS[address](...)`,
  `drm_<chart>(...)`, `odds_<rule>(...)`);
* the CLI in-process through click's CliRunner: `chartc lookup --json` (a sample of the queries),
  `chartc odds --format json` (each row's chance) and `chartc lookup RULE --attack --defense`.

Every answer that differs, and every traceback, becomes a `Disagreement` naming the seed, the
chart, the exact question and both answers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import itertools
import json
import math
import random
import re
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

from click.testing import CliRunner

from compiler.build.validate import validate_json
from compiler.cli import cli
from tests.gamegen import generate, months

GAME = "g"
NO_ROW = "no row"


@dataclass(frozen=True)
class Disagreement:
    """Two of chartc's answers to one question that differ (or a traceback)."""

    seed: int
    chart: str
    question: str
    answers: str

    def __str__(self) -> str:
        return f"seed {self.seed}, chart {self.chart}: {self.question}: {self.answers}"


@dataclass
class GameRun:
    """What one game's differential run compared and what it found."""

    seed: int
    files: dict[str, str]
    cli_samples: int = 3
    comparisons: int = 0
    cli_calls: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)

    def disagree(self, chart: str, question: str, answers: str) -> None:
        self.disagreements.append(Disagreement(self.seed, chart, question, answers))


@dataclass(frozen=True)
class Question:
    """One lookup: the key values by key id, the natural roll or value (None: a reference
    chart read by its keys) and the total DRM."""

    keys: tuple[tuple[str, str], ...]
    roll: int | None
    drm: int

    def cli_args(self, chart: dict[str, Any], printed_roll: str | None, labels: Mapping[str, str]) -> list[str]:
        """`chartc lookup` arguments; a key in `labels` is given by its printed label, not its id."""
        args = ["lookup", f"{GAME}/{chart['address']}"]
        if printed_roll is not None:
            args.append(printed_roll)
        for key, value in self.keys:
            args += ["--key", f"{key}={labels.get(key, value)}"]
        if self.drm:
            args.append(f"--drm={self.drm}")
        return [*args, "--json"]


# ---- the JSON oracle ------------------------------------------------------------------------------


def key_values(doc: dict[str, Any], enum_id: str) -> list[str]:
    """The values a key of enum `enum_id` takes: calendar months, period ids or member ids."""
    if enum_id == "month":
        calendar = doc["game"]["calendar"]
        return months(calendar["first"], calendar["last"])
    for enum in doc["enums"]:
        if enum["id"] == enum_id:
            return [m["id"] for m in enum["members"]]
    if enum_id == "period":
        return [p["id"] for p in doc["game"]["periods"]]
    raise KeyError(f"no enum {enum_id!r} in the JSON")


def key_matches(row_key: Any, given: str) -> bool:
    if row_key is None or row_key == given:
        return True
    if isinstance(row_key, dict) and "months" in row_key:
        span = row_key["months"]
        return span["first"] <= given and (span["last"] is None or given <= span["last"])
    return False


def in_range(bounds: dict[str, Any] | None, modified: int | None) -> bool:
    if bounds is None or modified is None:
        return True
    return (bounds["min"] is None or modified >= bounds["min"]) and (bounds["max"] is None or modified <= bounds["max"])


def select(chart: dict[str, Any], keys: Mapping[str, str], modified: int | None) -> int | None:
    """The index of the JSON row the keys and modified roll select, or None."""
    for index, row in enumerate(chart["rows"]):
        if all(key_matches(row["keys"].get(k), v) for k, v in keys.items()) and in_range(row["range"], modified):
            return index
    return None


def outcome_chances(chart: dict[str, Any]) -> dict[int, Fraction]:
    return {o["roll"]: Fraction(_chance_of(o)["exact"]) for o in chart["dice"]["outcomes"]}


def modified(chart: dict[str, Any], natural: int, drm: int) -> int:
    """The modified roll as the JSON's `pipeline` describes it (the natural roll plus the DRM
    without one): each step in order, the DRM total at the `drms` step."""
    roll = natural
    for step in chart.get("pipeline") or [{"step": "drms"}]:
        kind, amount = step["step"], step.get("amount")
        if kind == "drms":
            roll += drm
        elif kind == "add":
            roll += amount
        elif kind == "times":
            roll *= amount
        elif kind == "halve":
            roll = math.ceil(Fraction(roll, 2)) if step["rounding"] == "up" else math.floor(Fraction(roll, 2))
        elif kind == "minimum":
            roll = max(roll, amount)
        else:
            assert kind == "maximum", step
            roll = min(roll, amount)
    return roll


def row_chances(chart: dict[str, Any], keys: Mapping[str, str], drm: int) -> tuple[dict[int, Fraction], Fraction]:
    """The exact chance of each row (by index) and of no row, from the dice outcomes."""
    chances: dict[int, Fraction] = {}
    none = Fraction(0)
    for natural, chance in outcome_chances(chart).items():
        index = select(chart, keys, modified(chart, natural, drm))
        if index is None:
            none += chance
        else:
            chances[index] = chances.get(index, Fraction(0)) + chance
    return chances, none


def holds(when: dict[str, Any] | None, context: Mapping[str, Any]) -> bool:
    """A DRM condition of the JSON on a context where every variable is set."""
    if when is None:
        return True
    op = when["op"]
    if op == "flag":
        return bool(context[when["var"]])
    if op == "not":
        return not holds(when["of"], context)
    if op == "all":
        return all(holds(w, context) for w in when["of"])
    if op == "any":
        return any(holds(w, context) for w in when["of"])
    if op == "in":
        return context[when["var"]] in when["values"]
    left, right = context[when["var"]], when["value"]
    comparisons: dict[str, Callable[[Any, Any], bool]] = {
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        "<": lambda a, b: a < b,
    }
    return comparisons[op](left, right)


def drm_total(chart: dict[str, Any], context: Mapping[str, Any]) -> int:
    total = sum(d["value"] for d in chart["drms"] if holds(d["when"], context))
    clamp = chart["combine"]["clamp"]
    if clamp is None:
        return total
    low, high = (clamp["min"], clamp["max"]) if isinstance(clamp, dict) else clamp
    return max(low, min(high, total))


def odds_label(rule: dict[str, Any], attack: int, defense: int) -> str:
    """The CRT column of an odds rule read from the JSON (no shifts): ratio, rounding, table edge."""

    def rounded(value: Fraction, how: str) -> int:
        return {"down": math.floor(value), "up": math.ceil(value), "nearest": math.floor(value + Fraction(1, 2))}[how]

    if attack == defense:
        position = 0
    elif attack > defense:
        position = max(1, rounded(Fraction(attack, defense), rule["attacker_high"])) - 1
    else:
        position = -(max(1, rounded(Fraction(defense, attack), rule["defender_high"])) - 1)
    if rule["columns"]:
        positions = [_position(c) for c in rule["columns"]]
        if position <= positions[0]:
            return str(rule["columns"][0])
        return str(rule["columns"][max(i for i, p in enumerate(positions) if p <= position)])
    return f"{position + 1}:1" if position >= 0 else f"1:{1 - position}"


def _position(label: str) -> int:
    a, d = (int(x) for x in label.split(":"))
    return a - 1 if d == 1 else -(d - 1)


# ---- the three answers ----------------------------------------------------------------------------


def normal(value: Any) -> Any:
    """A value as JSON would carry it (tuples become lists), to compare across the three outputs."""
    return json.loads(json.dumps(value))


def python_answer(fn: Callable[..., Any], chart: dict[str, Any], q: Question, error: type[Exception]) -> Any:
    """The generated lookup's answer: its row's values as JSON carries them, or NO_ROW. The key
    parameters are the keyword-only ones in the chart's key order (their names follow the module's
    identifier policy, not the chart's key names)."""
    # (`when` and `set_`, the situation, are no keys: the question gives the DRM total)
    params = [p.name for p in inspect.signature(fn).parameters.values()
              if p.kind is p.KEYWORD_ONLY and p.name not in ("drm", "when", "set_")]
    kwargs: dict[str, Any] = dict(zip(params, (v for _, v in q.keys), strict=True))
    if chart["kind"] in ("roll", "value"):
        kwargs["drm"] = q.drm
    try:
        result = fn(q.roll, **kwargs) if q.roll is not None else fn(**kwargs)
    except error:
        return NO_ROW
    return normal(dict(result))


def cli_answer(run: GameRun, runner: CliRunner, args: list[str]) -> tuple[int, Any]:
    """`chartc ARGS` in-process: (exit status, parsed JSON output, or the text on a non-zero exit).

    Raises:
        CliTraceback: the command raised, or exited 3 with a traceback.
    """
    run.cli_calls += 1
    result = runner.invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise CliTraceback(result.exception)
    if result.exit_code == 3 or "Traceback" in result.output:
        raise CliTraceback(RuntimeError(result.output[-800:]))
    if result.exit_code != 0:
        return result.exit_code, result.output
    return 0, json.loads(result.stdout) if result.stdout.strip().startswith("{") else result.stdout.strip()


class CliTraceback(Exception):
    """The CLI raised or exited 3 (an internal error)."""


def printed_roll(chart: dict[str, Any], roll: int, rng: random.Random) -> str:
    """A natural roll typed as printed on the dice, in one of the forms docs/cli.md allows."""
    dice = chart["dice"]
    if dice is None:  # a value-keyed chart: the value as typed
        return str(roll)
    if dice["form"] == "percentile" and rng.random() < 0.5:
        return "00" if roll == 100 else f"{roll:02d}"
    if dice.get("sides") == 10 and dice["form"] == "sum" and dice["count"] == 1 and roll == 10 and rng.random() < 0.5:
        return "0"
    return str(roll)


# ---- the run --------------------------------------------------------------------------------------


def run_game(
    seed: int,
    folder: Path,
    cli_samples: int = 3,
    tamper: Callable[[str], str] | None = None,
    tamper_json: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> GameRun:
    """Generate, check, build and compare game `seed` in `folder` (an empty directory).

    `tamper` and `tamper_json` rewrite the built Python module's text or the JSON document before
    the comparison: the tests use them to show that a wrong answer is caught."""
    run = GameRun(seed, generate(seed, GAME), cli_samples)
    game_dir = folder / "charts" / GAME
    game_dir.mkdir(parents=True)
    for name, text in run.files.items():
        (game_dir / name).write_text(text, encoding="utf-8")
    runner = CliRunner()
    with contextlib.chdir(folder):
        built = runner.invoke(cli, ["build", "--out", "gen"])
        unreachable = drop_unreachable_rows(runner, folder) if built.exit_code != 0 else []
        if unreachable:
            built = runner.invoke(cli, ["build", "--out", "gen"])
        if built.exit_code != 0:
            run.disagree("-", "chartc build (a generated game must check without errors)", built.output[-2000:])
            return run
        text = (folder / "gen" / GAME / f"{GAME}.json").read_text(encoding="utf-8")
        validate_json(text)  # as a build does before writing
        doc = json.loads(text)
        if tamper_json:
            doc = tamper_json(doc)
        if tamper:
            py = folder / "gen" / GAME / f"{GAME}.py"
            py.write_text(tamper(py.read_text(encoding="utf-8")), encoding="utf-8")
        for address, printed in unreachable:
            confirm_unreachable(run, doc, address, printed)
        module = import_module(folder / "gen" / GAME / f"{GAME}.py", f"chartc_differential_{seed}_{id(folder)}")
        try:
            compare_game(run, runner, doc, module, random.Random(seed))
        finally:
            sys.modules.pop(module.__name__, None)
    return run


# ---- rows the checker calls unreachable (C306, an error) ------------------------------------------

_UNREACHABLE = re.compile(r"^row `(?P<range>[^`]+)` of chart `(?P<chart>[^`]+)` can never be selected")


def drop_unreachable_rows(runner: CliRunner, folder: Path) -> list[tuple[str, str]]:
    """When every error of a generated game is an unreachable row (C306), delete those rows from the
    sources so the rest of the game can be compared, and return (chart address, printed range) of
    each: `confirm_unreachable` then tries to reach them by brute force. Empty when other errors
    remain (the build failure is then reported as it is)."""
    report = json.loads(runner.invoke(cli, ["check", "--format", "json"]).output)
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    if not errors or any(d["code"] != "C306" for d in errors):
        return []
    found = []
    for d in sorted(errors, key=lambda d: (d["file"], -d["line"])):  # bottom up: line numbers stay right
        match = _UNREACHABLE.match(d["message"])
        assert match, d["message"]
        path = folder / d["file"]
        lines = path.read_text(encoding="utf-8").split("\n")
        row = lines[d["line"] - 1]
        if not re.match(rf"\s*(\S+\s+)*{re.escape(match['range'])}:", row):
            return []  # a grid cell or a derived chart's row: not one source line to drop
        del lines[d["line"] - 1]
        path.write_text("\n".join(lines), encoding="utf-8")
        found.append((match["chart"], match["range"]))
    return found


def printed_bounds(chart: dict[str, Any], printed: str) -> tuple[int | None, int | None]:
    """The bounds of a range as the generated games print it (`3-5`, `7+`, `2-`, `-2--1`, `9-0`)."""
    dice = chart["dice"]

    def face(text: str) -> int:
        if text == "0" and dice.get("sides") == 10 and dice.get("zero_reads", 10) == 10:
            return 10
        return 100 if text == "00" and dice["form"] == "percentile" else int(text)

    if match := re.fullmatch(r"(-?[0-9]+)([+-]?)", printed):
        value = face(match[1])
        return (value, None) if match[2] == "+" else (None, value) if match[2] == "-" else (value, value)
    match = re.fullmatch(r"(-?[0-9]+)-(-?[0-9]+)", printed)
    assert match, printed
    return face(match[1]), face(match[2])


def contexts(doc: dict[str, Any], chart: dict[str, Any], limit: int = 20000) -> Iterator[dict[str, Any]]:
    """Every assignment of the context variables the chart's DRMs test (ints over -1 to 2 past the
    largest constant the conditions name), or a seeded sample of `limit` of them when there are more."""
    names: list[str] = []
    constants: set[int] = set()

    def walk(when: dict[str, Any] | None) -> None:
        if when is None:
            return
        if "var" in when and when["var"] not in names:
            names.append(when["var"])
        for v in [when.get("value"), *when.get("values", [])]:
            if isinstance(v, int) and not isinstance(v, bool):
                constants.add(v)
        for inner in when.get("of", []) if isinstance(when.get("of"), list) else [when.get("of")]:
            walk(inner)

    for d in chart["drms"]:
        walk(d["when"])
    variables = {v["id"]: v for v in doc["context"]}
    domains: list[list[Any]] = []
    for name in names:
        var = variables[name]
        match var["type"]:
            case "flag":
                domains.append([False, True])
            case "int":
                domains.append(list(range(-1, max(constants | {7}) + 3)))
            case "month":
                domains.append(key_values(doc, "month"))
            case _:
                domains.append(key_values(doc, var["enum"] or var["type"]))
    size = math.prod(len(d) for d in domains)
    if size <= limit:
        for values in itertools.product(*domains):
            yield dict(zip(names, values, strict=True))
        return
    rng = random.Random(size)
    for _ in range(limit):
        yield {name: rng.choice(domain) for name, domain in zip(names, domains, strict=True)}


def confirm_unreachable(run: GameRun, doc: dict[str, Any], address: str, printed: str) -> None:
    """A row the checker calls unreachable must hold no modified roll under any context."""
    chart = next(c for c in doc["charts"] if c["address"] == address)
    low, high = printed_bounds(chart, printed)
    naturals = [o["roll"] for o in chart["dice"]["outcomes"]]
    for context in contexts(doc, chart):
        total = drm_total(chart, context)
        inside = [n + total for n in naturals if low is None or n + total >= low]
        hits = [m for m in inside if high is None or m <= high]
        if hits:
            run.disagree(address, f"row {printed} called unreachable (C306)", f"reached by {hits[0]} under {context}")
            return


def import_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def compare_game(run: GameRun, runner: CliRunner, doc: dict[str, Any], module: ModuleType, rng: random.Random) -> None:
    lookups = getattr(module, "LOOKUPS", {})
    for chart in doc["charts"]:
        address = chart["address"]
        try:
            if (chart.get("layout") or {}).get("form") == "availability":
                compare_availability_layout(run, chart)
            if chart["kind"] in ("roll", "value", "reference"):
                if address not in lookups:
                    run.disagree(address, "LOOKUPS[address]", "the generated module has no lookup for this chart")
                    continue
                compare_lookups(run, runner, doc, chart, lookups[address], module, rng)
                if chart["kind"] == "roll":
                    compare_chances(run, runner, doc, chart, rng)
            if chart["drms"]:
                compare_drms(run, doc, chart, module, rng)
                compare_drm_context(run, runner, doc, chart, rng)
            if chart["kind"] == "odds":
                compare_odds_rule(run, runner, chart, module, rng)
        except CliTraceback as exc:
            run.disagree(address, "chartc (in-process)", f"traceback: {exc.args[0]!r}")
        except Exception as exc:  # a crash of the generated module is a finding (the frame says whose)
            where = traceback.extract_tb(exc.__traceback__)[-1]
            run.disagree(
                address,
                "comparison raised",
                f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno} {where.line})",
            )


AVAILABILITY_CELL = {"auto": "automatic", None: "not available"}


def compare_availability_layout(run: GameRun, chart: dict[str, Any]) -> None:
    """An availability grid's printed cells (JSON `layout`, what the player aid prints) must say
    what its rows say: a check mark is one `automatic` row, `-` one `not available` row, a die
    range the `available` row with the same bounds."""
    layout = chart["layout"]
    for member, cells in layout["cells"].items():
        for month, cell in zip(layout["columns"], cells, strict=True):
            rows = [r for r in chart["rows"] if r["keys"] == {layout["row_key"]: member, layout["column_key"]: month}]
            available = [(r["range"]["min"], r["range"]["max"]) for r in rows if r["values"]["result"] == "available"]
            if isinstance(cell, dict):
                agree = available == [(cell["min"], cell["max"])]
            else:
                agree = [r["values"]["result"] for r in rows] == [AVAILABILITY_CELL[cell]]
            run.comparisons += 1
            if not agree:
                run.disagree(chart["address"], f"layout cell {member}/{month}",
                             f"layout {cell!r}, rows {[(r['range']['printed'], r['values']) for r in rows]!r}")


def key_labels(doc: dict[str, Any]) -> dict[tuple[str, str], str]:
    """The printed label of each key value, by (enum id, value id): a lookup may name either."""
    labels = {("period", p["id"]): p["label"] for p in doc["game"]["periods"]}
    for enum in doc["enums"]:
        labels.update({(enum["id"], m["id"]): m["label"] for m in enum["members"]})
    return labels


def questions(doc: dict[str, Any], chart: dict[str, Any], rng: random.Random) -> Iterator[Question]:
    """Every question worth asking a chart, with a sample of the key combinations."""
    layout = chart.get("layout") or {}
    keys = [
        (
            k["id"],
            layout["columns"]
            if layout.get("form") == "availability" and k["id"] == layout["column_key"]
            else key_values(doc, k["enum"]),
        )
        for k in chart["keys"]
    ]
    combos = list(itertools.product(*(values for _, values in keys)))
    if len(combos) > 12:
        combos = rng.sample(combos, 12)
    ids = [k for k, _ in keys]
    if chart["kind"] == "roll":
        span = chart["drm_span"]
        rolls: list[int | None] = [o["roll"] for o in chart["dice"]["outcomes"]]
        drms = sorted({0, span["min"], span["max"], span["max"] + 1})
        if chart["dice"]["form"] in ("d66", "percentile") and chart["drm_meaning"] is None:
            drms = [0]  # a DRM there has no stated meaning: refused (tests/test_context_cli.py)
    elif chart["kind"] == "value":
        domain = chart["value_key"]["domain"]
        bounds = [b for r in chart["rows"] for b in (r["range"]["min"], r["range"]["max"]) if b is not None]
        top = domain["max"] if domain["max"] is not None else max(bounds, default=0) + 2
        rolls, drms = list(range(domain["min"] or 0, top + 1)), [0]
    else:
        rolls, drms = [None], [0]
    for combo in combos:
        for roll in rolls:
            for drm in drms:
                yield Question(tuple(zip(ids, combo, strict=True)), roll, drm)


def compare_lookups(
    run: GameRun,
    runner: CliRunner,
    doc: dict[str, Any],
    chart: dict[str, Any],
    fn: Callable[..., Any],
    module: ModuleType,
    rng: random.Random,
) -> None:
    error = getattr(module, "NoRowError", LookupError)
    all_labels = key_labels(doc)
    asked = list(questions(doc, chart, rng))
    for q in asked:
        index = select(chart, dict(q.keys), None if q.roll is None else modified(chart, q.roll, q.drm))
        expected = NO_ROW if index is None else chart["rows"][index]["values"]
        got = python_answer(fn, chart, q, error)
        run.comparisons += 1
        if got != expected:
            run.disagree(
                chart["address"],
                f"{fn.__name__}({q.roll}, keys={dict(q.keys)}, drm={q.drm})",
                f"Python {got!r}, JSON rows {expected!r}",
            )
    for q in rng.sample(asked, min(run.cli_samples, len(asked))):
        roll_text = None if q.roll is None else printed_roll(chart, q.roll, rng)
        enums = {k["id"]: k["enum"] for k in chart["keys"]}
        labels = {k: all_labels[(enums[k], v)] for k, v in q.keys if (enums[k], v) in all_labels and rng.random() < 0.3}
        args = q.cli_args(chart, roll_text, labels)
        status, out = cli_answer(run, runner, args)
        index = select(chart, dict(q.keys), None if q.roll is None else modified(chart, q.roll, q.drm))
        run.comparisons += 1
        if index is None:
            if status != 1:
                run.disagree(
                    chart["address"], "chartc " + " ".join(args), f"exit {status} {out!r}, JSON rows: no row (exit 1)"
                )
            continue
        row = chart["rows"][index]
        wanted = {"values": row["values"], "range": None if row["range"] is None else row["range"]["printed"]}
        got = out if status else {"values": normal(out.get("values")), "range": out.get("range")}
        if status or got["values"] != wanted["values"] or (wanted["range"] and got["range"] != wanted["range"]):
            run.disagree(chart["address"], "chartc " + " ".join(args), f"CLI {got!r}, JSON rows {wanted!r}")


def _chance_of(entry: dict[str, Any]) -> dict[str, Any]:
    """The exact/float pair of an entry, named `probability` or `chance` (the name is changing)."""
    return entry.get("chance") or entry["probability"]


def _chances_of(chart: dict[str, Any]) -> list[dict[str, Any]]:
    return expanded_chances(chart["chances"], len(chart["rows"])) if chart.get("chances") else []


ZERO_JSON = {"exact": "0/1", "float": 0.0}


def expanded_chances(chances: dict[str, Any], row_count: int) -> list[dict[str, Any]]:
    """A chart's `chances` (each distinct distribution once, referenced by key combination and
    DRM) read back as one entry per key combination and DRM, `{keys, drm, rows, no_row}`, with the
    chance of every row of the chart (0 for the rows of other key values), in key then DRM order."""
    out = []
    for entry in chances["keys"]:
        for drm, ref in zip(chances["drms"], entry["distributions"], strict=True):
            dist = chances["distributions"][ref]
            rows = [ZERO_JSON] * row_count
            for index, p in zip(entry["rows"], dist["rows"], strict=True):
                rows[index] = p
            out.append({"keys": entry["keys"], "drm": drm, "rows": rows, "no_row": dist["no_row"]})
    return out


def compare_chances(
    run: GameRun, runner: CliRunner, doc: dict[str, Any], chart: dict[str, Any], rng: random.Random
) -> None:
    # the game JSON's precomputed chances against the dice outcomes
    for entry in _chances_of(chart):
        chances, none = row_chances(chart, entry["keys"], entry["drm"])
        got = [Fraction(r["exact"]) for r in entry["rows"]]
        wanted = [chances.get(i, Fraction(0)) for i in range(len(chart["rows"]))]
        run.comparisons += 1
        if got != wanted or Fraction(entry["no_row"]["exact"]) != none:
            run.disagree(
                chart["address"],
                f"JSON chances for keys {entry['keys']} and DRM {entry['drm']}",
                f"JSON {[str(g) for g in got]} no row {entry['no_row']['exact']}, "
                f"from the outcomes {[str(w) for w in wanted]} no row {none}",
            )
    # `chartc odds --format json` for one key combination and DRM
    asked = list(questions(doc, chart, rng))
    q = rng.choice(asked)
    args = ["odds", f"{GAME}/{chart['address']}", *[a for k, v in q.keys for a in ("--key", f"{k}={v}")]]
    args += [f"--drm={q.drm}", "--format", "json"]
    status, out = cli_answer(run, runner, args)
    chances, none = row_chances(chart, dict(q.keys), q.drm)
    wanted = [
        (row["range"]["printed"], row["values"], str(chances.get(i, Fraction(0))))
        for i, row in enumerate(chart["rows"])
        if all(key_matches(row["keys"].get(k), v) for k, v in q.keys)
    ]
    run.comparisons += 1
    if status != 0:
        run.disagree(chart["address"], "chartc " + " ".join(args), f"exit {status}: {str(out)[-300:]}")
        return
    got = [(r["range"]["printed"], normal(r["values"]), str(Fraction(_chance_of(r)["exact"]))) for r in out["rows"]]
    if got != wanted or Fraction(out["no_row"]["exact"]) != none:
        run.disagree(
            chart["address"],
            "chartc " + " ".join(args),
            f"CLI {got} no row {out['no_row']['exact']}, JSON rows and outcomes {wanted} no row {none}",
        )


def context_values(doc: dict[str, Any], var: dict[str, Any], rng: random.Random) -> Any:
    match var["type"]:
        case "flag":
            return rng.random() < 0.5
        case "int":
            return rng.randint(0, 7)
        case "month":
            return rng.choice(key_values(doc, "month"))
        case _:
            return rng.choice(key_values(doc, var["enum"] or var["type"]))


def chart_function(module: ModuleType, prefix: str, chart: dict[str, Any]) -> Callable[..., Any] | None:
    """The generated function `prefix + identifier` of a chart (`drm_r4`, `odds_crt_odds`), named
    like the chart's lookup in LOOKUPS when it has one, else from its address."""
    lookups = getattr(module, "LOOKUPS", {})
    if chart["address"] in lookups:
        name = prefix + lookups[chart["address"]].__name__.removeprefix("lookup_")
    else:
        name = prefix + "".join(c if c.isalnum() or c == "_" else "_" for c in chart["address"].lower())
    fn = getattr(module, name, None)
    return fn if callable(fn) else None


def compare_drms(
    run: GameRun, doc: dict[str, Any], chart: dict[str, Any], module: ModuleType, rng: random.Random
) -> None:
    fn = chart_function(module, "drm_", chart)
    if fn is None:
        run.disagree(chart["address"], "drm_<chart>", "the generated module has no DRM function for this chart")
        return
    variables = {v["id"]: v for v in doc["context"]}
    params = {p.name for p in inspect.signature(fn).parameters.values()}
    keyword = module.CONTEXT_PARAMETERS
    for _ in range(12):
        context = {var_id: context_values(doc, var, rng) for var_id, var in variables.items()}
        kwargs = {keyword[var_id]: value for var_id, value in context.items() if keyword[var_id] in params}
        wanted = drm_total(chart, context)
        got = fn(**kwargs)
        run.comparisons += 1
        if got != wanted:
            run.disagree(chart["address"], f"{fn.__name__}(**{kwargs})", f"Python {got}, JSON DRMs {wanted}")


def drm_variables(chart: dict[str, Any]) -> list[str]:
    """The context variables a chart's DRMs test (conditions and per-N counts) in order of first
    use, leaving out the chart's own keys."""
    found: dict[str, None] = {}

    def walk(when: dict[str, Any] | None) -> None:
        if when is None:
            return
        if "var" in when:
            found.setdefault(when["var"])
        for part in when["of"] if isinstance(when.get("of"), list) else [when.get("of")]:
            walk(part)

    for drm in chart["drms"]:
        walk(drm["when"])
        if drm.get("per"):
            found.setdefault(drm["per"]["var"])
    keys = {k["id"] for k in chart["keys"]}
    return [v for v in found if v not in keys]


def context_options(doc: dict[str, Any], context: Mapping[str, Any], rng: random.Random) -> list[str]:
    """`--when`/`--set` options for a context (None: left out); enum values by id or printed label."""
    variables = {v["id"]: v for v in doc["context"]}
    labels = key_labels(doc)
    args: list[str] = []
    for name, value in context.items():
        var = variables[name]
        if value is None:
            continue
        if var["type"] == "flag":
            args += ["--when", name] if value else []
        elif var["type"] == "enum" and rng.random() < 0.5:
            args += ["--set", f"{name}={labels.get((var['enum'], value), value)}"]
        else:
            args += ["--set", f"{name}={value}"]
    return args


def compare_drm_context(
    run: GameRun, runner: CliRunner, doc: dict[str, Any], chart: dict[str, Any], rng: random.Random
) -> None:
    """`--when`/`--set` on the command line against the JSON DRMs: `chartc lookup` of a DRM-list
    chart, `chartc odds` of a roll chart, give the total the JSON conditions give."""
    if chart["kind"] not in ("drms", "roll") or not run.cli_samples:
        return
    if chart["kind"] == "roll" and chart["dice"]["form"] in ("d66", "percentile") and chart["drm_meaning"] is None:
        return  # a DRM there is refused (tests/test_context_cli.py)
    variables = {v["id"]: v for v in doc["context"]}
    for _ in range(2):
        context = {n: context_values(doc, variables[n], rng) for n in drm_variables(chart)}
        args = context_options(doc, context, rng)
        if not args:
            continue
        wanted = drm_total(chart, context)
        if chart["kind"] == "drms":
            command = ["lookup", f"{GAME}/{chart['address']}", *args, "--json"]
        else:
            keys = rng.choice(chart["chances"]["keys"])["keys"] if chart["chances"] else {}
            options = [a for k, v in keys.items() for a in ("--key", f"{k}={v}")]
            command = ["odds", f"{GAME}/{chart['address']}", *options, *args, "--format", "json"]
        status, out = cli_answer(run, runner, command)
        run.comparisons += 1
        if status or out.get("drm") != wanted:
            run.disagree(chart["address"], "chartc " + " ".join(command), f"CLI {out!r}, JSON DRMs {wanted}")


def compare_odds_rule(
    run: GameRun, runner: CliRunner, chart: dict[str, Any], module: ModuleType, rng: random.Random
) -> None:
    rule = chart["odds_rule"]
    fn = chart_function(module, "odds_", chart)
    if fn is None:
        run.disagree(chart["address"], "odds_<rule>", "the generated module has no function for this odds rule")
        return
    pairs = [(rng.randint(1, 30), rng.randint(1, 30)) for _ in range(20)]
    for attack, defense in pairs:
        wanted, got = odds_label(rule, attack, defense), fn(attack, defense)
        run.comparisons += 1
        if got != wanted:
            run.disagree(
                chart["address"], f"{fn.__name__}({attack}, {defense})", f"Python {got!r}, JSON rule {wanted!r}"
            )
    attack, defense = pairs[0]
    args = ["lookup", f"{GAME}/{chart['address']}", "--attack", str(attack), "--defense", str(defense), "--json"]
    status, out = cli_answer(run, runner, args)
    wanted = odds_label(rule, attack, defense)
    run.comparisons += 1
    if status or out.get("column") != wanted:
        run.disagree(chart["address"], "chartc " + " ".join(args), f"CLI {out!r}, JSON rule {wanted!r}")
