"""`chartc vectors`: the model's answers, reproduced by the generated Python and by `chartc lookup`/`odds`.

The vectors come from `compiler.tools.vectors` (the query layer); here every case of the corpus and of
the CRT test game is run through the generated module (`LOOKUPS`, `drm_<chart>`, `shift_<chart>`,
`odds_<rule>`), and a sample of them through the CLI in-process. The interactive player aid is held
to the same vectors in tests/test_aid_live.py.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from compiler import model
from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.tools.vectors import MAX_CASES, game_vectors, vectors_text
from tests.conftest import ROOT, import_module
from tests.differential import chart_function

CRTLAB = ROOT / "tests" / "data" / "charts" / "crtlab"


@functools.cache
def corpus_vectors(game_id: str) -> dict[str, Any]:
    """The vectors of one game of the corpus (compiled once per test process)."""
    comp = load([ROOT / "charts" / game_id])
    return game_vectors(comp.project.games[game_id])


def _module(path: Path, name: str) -> ModuleType:
    return import_module(path, f"vectors_{name}")


@pytest.fixture(scope="module")
def crtlab(tmp_path_factory: pytest.TempPathFactory) -> tuple[model.Game, ModuleType]:
    comp = load([CRTLAB])
    game = comp.project.games["crtlab"]
    folder = tmp_path_factory.mktemp("crtlab")
    path = folder / "crtlab.py"
    path.write_text(render_outputs(comp.project)["crtlab/crtlab.py"], encoding="utf-8")
    return game, _module(path, "crtlab")


def _keyword(fn: Any, module: ModuleType, context: dict[str, Any]) -> dict[str, Any]:
    import inspect

    params = set(inspect.signature(fn).parameters)
    names = module.CONTEXT_PARAMETERS
    return {names[k]: v for k, v in context.items() if k in names and names[k] in params}


def agree_with_python(game: model.Game, module: ModuleType) -> int:
    """Run every vector through the generated module; returns how many answers were compared."""
    doc = _json_of(game)
    rows = {c["address"]: c["rows"] for c in doc["charts"]}
    compared = 0
    vectors = game_vectors(game)
    for entry in vectors["charts"]:  # type: ignore[union-attr]
        address = entry["chart"]
        chart = next(c for c in doc["charts"] if c["address"] == address)
        lookup = module.LOOKUPS[address]
        drm_fn = chart_function(module, "drm_", chart)
        shift_fn = chart_function(module, "shift_", chart)
        for case in entry["cases"]:
            if case["drm"] is None:
                continue
            if drm_fn is not None:
                assert drm_fn(**_keyword(drm_fn, module, {**case["keys"], **case["context"]})) == case["drm"], case
            if "shift" in case:
                assert shift_fn is not None
                assert shift_fn(**_keyword(shift_fn, module, case["context"])) == case["shift"], case
            for natural, _modified, row in case["rolls"]:
                try:
                    got: Any = dict(lookup(natural, **case["keys"], drm=case["drm"]))
                except module.NoRowError:
                    got = None
                want = None if row is None else rows[address][row]["values"]
                assert _scalars(got) == _scalars(want), (address, case["keys"], case["context"], natural)
                compared += 1
    for entry in vectors["odds"]:  # type: ignore[union-attr]
        chart = next(c for c in doc["charts"] if c["address"] == entry["chart"])
        odds = chart_function(module, "odds_", chart)
        assert odds is not None
        for reading in entry["readings"]:
            args = [reading["attack"]] + ([reading["defense"]] if reading["defense"] is not None else [])
            try:
                column = odds(*args, shift=reading["shift"])
            except ValueError:
                column = None
            assert column == reading["column"], reading
            compared += 1
    return compared


def _scalars(values: dict[str, Any] | None) -> dict[str, Any] | None:
    """A row's cells that the module and the JSON write alike (a roll inside a cell, R1's `1d3`
    unit, is shaped differently by each, so only its presence is compared)."""
    if values is None:
        return None
    plain = json.loads(json.dumps(values))
    return {k: v if not isinstance(v, dict) else "<structured>" for k, v in plain.items()}


def _json_of(game: model.Game) -> dict[str, Any]:
    """The game's charts as its JSON holds them (without the chance arrays, which are not compared)."""
    from compiler.emit.json import chart_document

    return {"charts": [json.loads(json.dumps(chart_document(c, chances=False))) for c in game.charts]}


def test_ia2_vectors_agree_with_the_generated_module(ia2: model.Game) -> None:
    module = _module(ROOT / "generated" / "ia2" / "ia2.py", "ia2")
    # every natural roll of every case of the 32 roll charts: R7 alone is 4 periods x 100 rolls
    assert agree_with_python(ia2, module) > 2000


def test_crt_vectors_agree_with_the_generated_module(crtlab: tuple[model.Game, ModuleType]) -> None:
    game, module = crtlab
    assert agree_with_python(game, module) > 1000


def test_r4_vectors_hold_the_escape_chart(ia2: model.Game) -> None:
    # IA2 R4 (7.1.10, errata): piston 2- safe escape, 3+ combat; F/B Attack +1, Gruppe Leader -1
    r4 = next(e for e in corpus_vectors("ia2")["charts"] if e["chart"] == "R4")
    case = next(c for c in r4["cases"] if c["keys"] == {"interceptor": "piston"} and c["context"]["fb_attack"]
                and not c["context"]["gruppe_leader"])
    assert case["drm"] == 1 and case["rolls"][0] == [1, 2, 0] and case["rolls"][1] == [2, 3, 1]
    assert case["chances"] == {"0": "1/6", "1": "5/6"} and case["no_row"] == "0"
    assert len(r4["cases"]) == 8  # 2 interceptor types x 2 x 2 flags, all kept


def test_cases_are_bounded_and_sampled_the_same_every_run(ia2: model.Game) -> None:
    # the corpus compiled twice (the session's and this module's own) gives the same text
    text = vectors_text(ia2)
    doc = json.loads(text)
    assert doc == corpus_vectors("ia2")
    counts = {e["chart"]: len(e["cases"]) for e in doc["charts"]}
    # crash en route reads three flags and two ints, more contexts than MAX_CASES: sampled
    assert max(counts.values()) == MAX_CASES == counts["crash_enroute"]
    assert counts["R4"] == 8  # 2 interceptor types x F/B Attack x Gruppe Leader: all kept


def _cli_rows(run: Any, address: str, case: dict[str, Any]) -> tuple[list[str], str]:
    args = [f"--key={k}={v}" for k, v in case["keys"].items()]
    for name, value in case["context"].items():
        if value is True:
            args += ["--when", name]
        elif value is not False:
            args += ["--set", f"{name}={value}"]
    if not case["context"]:
        args += ["--drm", "0"]
    result = run("odds", f"ia2/{address}", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    return [r["probability"]["exact"] for r in doc["rows"]], doc["no_row"]["exact"]


@pytest.mark.parametrize("address", ["R4", "crash_enroute"])  # flags; ints with per-N DRMs
def test_vectors_agree_with_the_cli(run: Any, ia2: model.Game, address: str) -> None:
    entry = next(e for e in corpus_vectors("ia2")["charts"] if e["chart"] == address)
    chart = ia2.chart(address)
    assert chart is not None
    # the CLI reads a chart's DRMs only when given --when/--set, so a context of only false flags
    # (a DRM under `not FLAG` applies there) cannot be asked; those cases are left to the module
    rows = next(c for c in _json_of(ia2)["charts"] if c["address"] == address)["rows"]
    asked = [c for c in entry["cases"] if not c["context"] or any(v is not False for v in c["context"].values())]
    for case in asked[:3]:
        combo = tuple(case["keys"].values())
        indexes = [i for i, r in enumerate(chart.rows) if r in chart.rows_for(combo) and r.range is not None]
        got, no_row = _cli_rows(run, address, case)
        assert got == [_exact(case["chances"].get(str(i), "0")) for i in indexes], case
        assert no_row == _exact(case["no_row"])
        natural, modified, row = case["rolls"][len(case["rolls"]) // 2]
        args = [f"--key={k}={v}" for k, v in case["keys"].items()]
        args += [a for n, v in case["context"].items() if v is True for a in ("--when", n)]
        args += [a for n, v in case["context"].items() if not isinstance(v, bool) for a in ("--set", f"{n}={v}")]
        result = run("lookup", f"ia2/{address}", str(natural), *args, "--json")
        assert result.exit_code == 0, result.output
        answer = json.loads(result.output)
        assert answer["modified"] == modified and answer["values"] == rows[row]["values"]


def _exact(text: str) -> str:
    return text if "/" in text else f"{text}/1"


def test_vectors_command_writes_the_file(run: Any, tmp_path: Path, ia2: model.Game) -> None:
    out = tmp_path / "v.json"
    assert run("vectors", "ia2", "--out", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == vectors_text(ia2)
    missing = run("vectors", "no_such_game")
    assert missing.exit_code == 2 and "no game `no_such_game`" in missing.output
