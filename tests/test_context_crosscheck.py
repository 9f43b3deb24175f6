"""Issue 12's cross-check: on every roll chart of the corpus, for random DRM contexts (seeded),
`chartc lookup --when/--set --json`, the game JSON (its DRM conditions and rows), the generated
Python (`drm_<id>` then `lookup_<id>`) and `chartc odds --when/--set` give the same DRM total and
the same row. The default run asks a few contexts per chart; `-m slow` asks many more."""

from __future__ import annotations

import inspect
import json
import random
from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import ROOT, import_module
from tests.differential import (
    chart_function,
    context_options,
    drm_variables,
    expanded_chances,
    holds,
    key_values,
    modified,
    select,
)

GAMES = sorted(p.name for p in (ROOT / "generated").iterdir() if (p / f"{p.name}.json").is_file())


def _game(game_id: str) -> tuple[dict[str, Any], ModuleType]:
    doc = json.loads((ROOT / "generated" / game_id / f"{game_id}.json").read_text(encoding="utf-8"))
    module = import_module(ROOT / "generated" / game_id / f"{game_id}.py", f"{game_id}_crosscheck")
    return doc, module


def _steps(per: dict[str, Any], given: int) -> int:
    """How many steps of a per-N DRM `given` holds, with the JSON's rounding."""
    whole, rest = divmod(given, per["step"])
    if per["rounding"] == "up":
        return whole + (1 if rest else 0)
    if per["rounding"] == "nearest":
        return whole + (1 if 2 * rest >= per["step"] else 0)
    return whole


def json_total(chart: dict[str, Any], context: dict[str, Any]) -> int:
    """The DRM total as the game JSON states the rules: conditions (every tested variable set, or
    None for unknown: then the DRM does not apply), per-N steps, exclusive groups, the clamp."""
    applied: list[tuple[dict[str, Any], int]] = []
    for drm in chart["drms"]:
        names = drm_variables({"drms": [{"when": drm["when"]}], "keys": []})
        if any(context.get(n) is None and not _is_flag(n, context) for n in names):
            continue
        if not holds(drm["when"], context):
            continue
        per = drm.get("per")
        if per is None:
            applied.append((drm, drm["value"]))
        elif context.get(per["var"]) is not None and _steps(per, context[per["var"]]):
            applied.append((drm, drm["value"] * _steps(per, context[per["var"]])))
    for group in chart.get("drm_groups", []):
        members = [(d, v) for d, v in applied if d["id"] in group["members"]]
        if len(members) > 1:
            pick = {"best": max, "worst": min}.get(group["mode"], lambda ms, key: ms[0])
            keep = pick(members, key=lambda m: m[1])
            applied = [(d, v) for d, v in applied if (d, v) == keep or d["id"] not in group["members"]]
    total = sum(v for _, v in applied)
    clamp = chart["combine"]["clamp"]
    if clamp is None:
        return total
    low, high = (clamp["min"], clamp["max"]) if isinstance(clamp, dict) else clamp
    return max(low, min(high, total))


def _is_flag(name: str, context: dict[str, Any]) -> bool:
    return isinstance(context.get(name), bool)


def _random_context(doc: dict[str, Any], names: list[str], rng: random.Random) -> dict[str, Any]:
    """A value for each tested variable: flags true or false, ints 0-20, months of the calendar,
    enum members; a few left out (unknown: their DRMs do not apply)."""
    variables = {v["id"]: v for v in doc["context"]}
    context: dict[str, Any] = {}
    for name in names:
        var = variables[name]
        if var["type"] != "flag" and rng.random() < 0.15:
            continue
        match var["type"]:
            case "flag":
                context[name] = rng.random() < 0.5
            case "int":
                bounds = var.get("range") or {"min": 0, "max": 20}
                context[name] = rng.randint(bounds["min"], bounds["max"])
            case "month":
                context[name] = rng.choice(key_values(doc, "month"))
            case _:
                context[name] = rng.choice(key_values(doc, var["enum"]))
    return context


def _json_chance(chart: dict[str, Any], keys: dict[str, str], drm: int, index: int) -> Fraction | None:
    """The game JSON's chance of row INDEX for these keys at this DRM (None outside the span)."""
    for entry in expanded_chances(chart["chances"], len(chart["rows"])):
        if entry["keys"] == keys and entry["drm"] == drm:
            return Fraction(entry["rows"][index]["exact"])
    return None


def _printed(roll: int, chart: dict[str, Any]) -> str:
    """A natural roll typed as printed on the dice (a d10's 10 as 0, 100 on percentile as 00)."""
    form = chart["dice"]["form"]
    if form == "percentile" and roll == 100:
        return "00"
    return str(roll)


def _as_python(values: Any) -> Any:
    """A row's values as the generated module gives them: the JSON writes a roll inside a cell as
    `{"roll": {"dice", "count", "sides", "outcomes": [{"range", "min", "max", "value"}]}}`, the module
    as its `CellRoll` (`count`, `sides`, `outcomes` as (low, high, value) tuples)."""
    if isinstance(values, dict) and set(values) == {"roll"} and isinstance(values["roll"], dict):
        roll = values["roll"]
        outcomes = tuple((o["min"], o["max"], _as_python(o["value"])) for o in roll["outcomes"])
        return {"count": roll["count"], "sides": roll["sides"], "outcomes": outcomes}
    if isinstance(values, dict):
        return {k: _as_python(v) for k, v in values.items()}
    return values


def crosscheck_game(game_id: str, contexts_per_chart: int, seed: int) -> int:
    """Ask every roll chart of GAME_ID `contexts_per_chart` random questions; return how many
    answers were compared (every disagreement fails the test with the question)."""
    doc, module = _game(game_id)
    runner = CliRunner()
    rng = random.Random(f"{game_id}:{seed}")
    compared = 0
    for chart in doc["charts"]:
        if chart["kind"] != "roll":
            continue
        names = drm_variables(chart)
        drm_fn = chart_function(module, "drm_", chart)
        lookup_fn = module.LOOKUPS[chart["address"]]
        assert (drm_fn is not None) == bool(chart["drms"]), chart["address"]
        for _ in range(contexts_per_chart):
            context = _random_context(doc, names, rng)
            keys = dict(rng.choice(chart["chances"]["keys"])["keys"])  # a key combination the chart reads
            roll = rng.choice([o["roll"] for o in chart["dice"]["outcomes"]])
            question = f"{game_id}/{chart['address']} roll {roll} keys {keys} context {context}"
            # the game JSON: its conditions give the total, its rows the answer
            total = json_total(chart, {**{n: None for n in names}, **keys, **context})
            index = select(chart, keys, modified(chart, roll, total))  # the JSON's steps of the roll
            # the generated Python
            keyword = module.CONTEXT_PARAMETERS
            if drm_fn is not None:
                assert drm_fn(**{keyword[n]: v for n, v in context.items()}) == total, question
            params = [p.name for p in inspect.signature(lookup_fn).parameters.values() if p.kind is p.KEYWORD_ONLY]
            by_key = dict(zip([p for p in params if p not in ("drm", "when", "set_")], keys.values(), strict=True))
            try:
                python_values: Any = lookup_fn(roll, drm=total, **by_key)
            except module.NoRowError:
                python_values = None
            expected = None if index is None else chart["rows"][index]["values"]
            assert (python_values and dict(python_values)) == _as_python(expected), question
            if drm_fn is not None:  # the module reading the same situation itself (`set_`, flags included)
                try:
                    situated: Any = lookup_fn(roll, set_=context, **by_key)
                except module.NoRowError:
                    situated = None
                assert situated == python_values, question
            # chartc lookup
            options = [a for k, v in keys.items() for a in ("--key", f"{k}={v}")] + context_options(doc, context, rng)
            address = f"{game_id}/{chart['address']}"
            # `--` before the roll: a versus roll (IA2's [B12]) can be negative
            result = runner.invoke(cli, ["lookup", address, *options, "--json", "--", _printed(roll, chart)])
            if index is None:
                assert result.exit_code == 1, (question, result.output)
            else:
                assert result.exit_code == 0, (question, result.output, result.stderr if result.stderr_bytes else "")
                answer = json.loads(result.output)
                assert answer["drm"] == total, (question, answer)
                # no --when/--set (every flag false, nothing set): the chart's DRMs are not read
                assert answer["modifiers"] is None or answer["modifiers"]["total"] == total, (question, answer)
                assert answer["values"] == expected, (question, answer)
            # chartc odds: the same total, and the row's chance as the game JSON gives it
            result = runner.invoke(cli, ["odds", address, *options, "--format", "json"])
            odds = json.loads(result.output)
            assert odds["drm"] == total, (question, odds)
            if index is not None:
                want = _json_chance(chart, keys, total, index)
                row = chart["rows"][index]
                same = [r for r in odds["rows"] if r["range"]["printed"] == row["range"]["printed"]]
                assert [r["values"] for r in same] == [row["values"]], (question, odds["rows"])
                got = Fraction(same[0]["probability"]["exact"])
                assert want is None or got == want, (question, got, want)
            compared += 4
    return compared


@pytest.mark.parametrize("game_id", GAMES)
def test_cli_json_python_and_odds_agree_on_random_contexts(game_id: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    compared = crosscheck_game(game_id, contexts_per_chart=2, seed=12)
    assert compared > 0 or game_id == "usaaf"  # USAAF's charts are read by keys and values, not dice


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_cli_json_python_and_odds_agree_on_many_contexts(game_id: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    crosscheck_game(game_id, contexts_per_chart=100, seed=1944)


def test_the_roll_charts_with_drms_are_in_the_sweep() -> None:
    # IA2's roll charts with DRMs: R4 (7.1.10), R9 (10.16), promotion (7.9.3), crash_enroute (7.4.3),
    # bodenplatte_flak (10.16)
    doc, _ = _game("ia2")
    with_drms = {c["address"] for c in doc["charts"] if c["kind"] == "roll" and c["drms"]}
    assert {"R4", "R9", "promotion", "crash_enroute", "bodenplatte_flak"} <= with_drms
