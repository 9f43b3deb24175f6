"""The player aid's JavaScript engine (`compiler/emit/templates/engine.js`) run in a bare V8
(mini-racer) and held to the Python engine's answers (`compiler.tools.vectors`).

`JsEngine` holds one V8 context with the engine loaded; `disagreements(game, label)` runs every
vector case of one game through it (the page's data, `compiler.emit.html.interactive.live_data`)
and returns each answer that differs, and each JavaScript exception, naming the game, the chart and
the case. Compared, for every case: the DRM total (or the refusal of a DRM on a digit-read roll),
the dice rolled, the column shift total, the exact chance of each row and of no row, and for every
natural roll the JS engine finds on those dice, the modified roll and the row it selects; for every
odds rule, the column (with the odds as formed and whether the table's edge held it) of each
reading of the grid; for every roll chart, the natural roll read from what a player types.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, assert_never

from compiler import model
from compiler.emit.html.interactive import live_chart, live_data
from compiler.emit.json import chart_document
from compiler.emit.templating import visible_controls
from compiler.engine.chances import fraction_text
from compiler.engine.context import ContextValue
from compiler.engine.lookup import read_roll
from compiler.engine.problems import LookupProblem, LookupUsage
from compiler.model.calendar import Month
from compiler.model.text import value_text
from compiler.tools.vectors import case_json, game_vectors, roll_case
from tests.conftest import ROOT

ENGINE = ROOT / "compiler" / "emit" / "templates" / "engine.js"

# What the page does with the engine for one case (tests/test_aid_live.py's _SET_AND_READ does the
# same through the page's fields): the context and keys as the panel gives them, every natural roll
# of the dice the engine picks, each odds reading and each typed roll. A JavaScript exception is
# caught per case and returned with it.
_DRIVER = r"""
function chartcAnswers(dataText, vectorsText, extraOddsText, typedText) {
  const data = JSON.parse(dataText), vectors = JSON.parse(vectorsText);
  const odds = Object.assign({}, JSON.parse(extraOddsText), data.odds), typed = JSON.parse(typedText);
  const failed = (e) => ({ error: String(e) + (e && e.stack ? "\n" + e.stack : "") });
  const charts = vectors.charts.map((entry) => {
    const chart = data.charts.find((c) => c.address === entry.chart);
    if (!chart) { return { chart: entry.chart, missing: true }; }
    const cases = entry.cases.map((c) => { try {
      const state = { keys: c.keys, context: c.context, asPrinted: false, natural: null };
      const a = answer(chart, state);
      const out = { drm: a.refused ? null : a.drm, dice: a.dice.text };
      if (chart.shifts) { out.shift = shiftTerms(chart.shifts, c.context).total; }
      if (a.refused) { return Object.assign(out, { rolls: [], chances: {}, no_row: "0" }); }
      out.chances = {};
      [...a.chances.entries()].filter(([, p]) => p.n).sort((x, y) => x[0] - y[0])
        .forEach(([i, p]) => { out.chances[String(i)] = fracText(p); });
      out.no_row = fracText(a.noRow);
      out.rolls = a.dice.outcomes.filter((o) => parseFrac(o.probability.exact).n).map((o) => {
        const r = rollOn(chart, a.rows, o.roll, a.drm);  // as answer() reads state.natural
        return [o.roll, r.modified, r.row === null ? null : r.row.index];
      });
      return out;
    } catch (e) { return failed(e); } });
    const read = (t) => { try { return readRoll(chart, t); } catch (e) { return failed(e); } };
    return { chart: entry.chart, cases: cases, typed: (typed[entry.chart] || []).map(read) };
  });
  const readings = vectors.odds.map((entry) => entry.readings.map((r) => { try {
    const read = oddsRead(odds[entry.chart], r.attack, r.defense, r.shift);
    return read.error ? { column: null } : { column: read.column, formed: read.formed, clamped: read.clamped };
  } catch (e) { return failed(e); } }));
  return JSON.stringify({ charts: charts, odds: readings });
}
// One chart of the page's data, by address (for the answers below).
function chartcChart(dataText, address) { return JSON.parse(dataText).charts.find((c) => c.address === address); }
function chartcReadRoll(dataText, address, typed) { return readRoll(chartcChart(dataText, address), typed); }
function chartcPrintedRow(dataText, address, natural) {
  const state = { keys: {}, context: {}, asPrinted: true, natural: natural };
  const row = answer(chartcChart(dataText, address), state).row;
  return row === null ? null : [row.range, row.natural, row.cells];
}
// The page's "as printed, before the errata" view of each chart the vectors name: rows named by
// what the page shows of them (printed range, natural mark, printed cells), since their indices
// are the amended chart's.
function chartcPrinted(dataText, vectorsText) {
  const data = JSON.parse(dataText), vectors = JSON.parse(vectorsText);
  const failed = (e) => ({ error: String(e) + (e && e.stack ? "\n" + e.stack : "") });
  const named = (r) => (r === null ? null : JSON.stringify([r.range, r.natural, r.cells]));
  return JSON.stringify(vectors.charts.map((entry) => {
    const chart = data.charts.find((c) => c.address === entry.chart);
    return entry.cases.map((c) => { try {
      const state = { keys: c.keys, context: c.context, asPrinted: true, natural: null };
      const a = answer(chart, state);
      if (a.refused) { return { drm: null, rolls: [], chances: [], no_row: "0" }; }
      const byName = new Map();
      for (const r of a.rows) {
        const p = a.chances.get(r.index);
        if (p && p.n) { byName.set(named(r), add(byName.get(named(r)) || ZERO, p)); }
      }
      const rolls = a.dice.outcomes.filter((o) => parseFrac(o.probability.exact).n).map((o) => {
        const r = rollOn(chart, a.rows, o.roll, a.drm);
        return [o.roll, r.modified, named(r.row)];
      });
      const chances = [...byName.entries()].map(([k, p]) => [k, fracText(p)]).sort();
      return { drm: a.drm, rolls: rolls, chances: chances, no_row: fracText(a.noRow) };
    } catch (e) { return failed(e); } });
  }));
}
"""


class JsEngine:
    """One V8 context with the aid's engine (and the driver above) loaded."""

    def __init__(self) -> None:
        from py_mini_racer import MiniRacer

        self.context = MiniRacer()
        self.context.eval(ENGINE.read_text(encoding="utf-8"))
        self.context.eval(_DRIVER)

    def answers(self, game: model.Game, vectors: dict[str, Any]) -> dict[str, Any]:
        """The JS engine's answers to the game's vectors (the shape `chartcAnswers` returns)."""
        extra_odds = {
            c.address: chart_document(c, chances=False)["odds_rule"] for c in game.charts if c.odds is not None
        }
        typed = {c.address: typed_rolls(c) for c in game.charts if live_chart(c)}
        text = self.context.call(
            "chartcAnswers", live_data(game), json.dumps(vectors), json.dumps(extra_odds), json.dumps(typed)
        )
        return json.loads(text)  # type: ignore[no-any-return]

    def read_roll(self, game: model.Game, address: str, typed: str) -> int | None:
        """The engine's reading of a natural roll typed on chart `address` (None: refused)."""
        read = self.context.call("chartcReadRoll", live_data(game), address, typed)
        return read  # type: ignore[no-any-return]

    def printed_row(self, game: model.Game, address: str, natural: int) -> list[Any] | None:
        """[printed range, natural, printed cells] of the row the page's as-printed view reads for
        `natural` (a chart without keys, no DRM)."""
        row = self.context.call("chartcPrintedRow", live_data(game), address, natural)
        return row  # type: ignore[no-any-return]

    def disagreements(
        self, game: model.Game, label: str, vectors: dict[str, Any] | None = None
    ) -> tuple[int, list[str]]:
        """(answers compared, each disagreement or JS exception as a line naming `label`, the chart
        and the case); `vectors` are the game's (`game_vectors`), computed when not given."""
        given = vectors if vectors is not None else game_vectors(game)
        charts = []
        for entry in given["charts"]:
            chart = game.chart(entry["chart"])
            assert chart is not None
            charts.append({**entry, "cases": entry["cases"] + unknown_cases(game, chart, entry["cases"])})
        vectors = {**given, "charts": charts}
        got = self.answers(game, vectors)
        found: list[str] = []
        compared = 0
        for entry, answer in zip(vectors["charts"], got["charts"], strict=True):
            chart = entry["chart"]
            if answer.get("missing"):
                found.append(f"{label}, chart {chart}: not in the page's data")
                continue
            for case, js in zip(entry["cases"], answer["cases"], strict=True):
                compared += 1 + len(case["rolls"])
                problem = _case_problem(case, js)
                if problem:
                    where = f"keys {case['keys']}, context {case['context']}"
                    found.append(f"{label}, chart {chart}, {where}: {problem}")
            chart_model = game.chart(chart)
            assert chart_model is not None
            for text, js in zip(typed_rolls(chart_model), answer["typed"], strict=True):
                compared += 1
                wanted = python_roll(chart_model, text)
                if js != wanted:
                    found.append(f"{label}, chart {chart}: typed roll {text!r}: JS {js!r}, Python {wanted!r}")
        for entry, readings in zip(vectors["odds"], got["odds"], strict=True):
            for reading, js in zip(entry["readings"], readings, strict=True):
                compared += 1
                wanted = {k: reading[k] for k in ("column", "formed", "clamped") if k in reading}
                if js != wanted:
                    question = {k: reading[k] for k in ("attack", "defense", "shift")}
                    found.append(f"{label}, odds rule {entry['chart']}, {question}: JS {js!r}, Python {wanted!r}")
        return compared, found

    def printed_disagreements(self, game: model.Game, printed: model.Game, label: str) -> tuple[int, list[str]]:
        """The page's as-printed view of each chart an errata amended (its rows as printed, before
        the errata) against the Python engine's answers on the game compiled as printed
        (`chartc lookup --as-printed`): (answers compared, disagreements)."""
        amended = {c.address for c in game.charts if live_chart(c) and _amended_rows(c)}
        vectors = game_vectors(printed)
        vectors["charts"] = [
            e for e in vectors["charts"] if e["chart"] in amended  # type: ignore[union-attr]
        ]
        got = json.loads(self.context.call("chartcPrinted", live_data(game), json.dumps(vectors)))
        found: list[str] = []
        compared = 0
        for entry, answers in zip(vectors["charts"], got, strict=True):  # type: ignore[call-overload]
            chart = printed.chart(entry["chart"])
            assert chart is not None
            named = [_row_name(printed, chart, row) for row in chart.rows]
            for case, js in zip(entry["cases"], answers, strict=True):
                compared += 1 + len(case["rolls"])
                where = f"{label}, chart {entry['chart']} as printed, keys {case['keys']}, context {case['context']}"
                if "error" in js:
                    found.append(f"{where}: JS exception: {js['error']}")
                    continue
                chances: dict[str, Fraction] = {}
                for index, p in case["chances"].items():
                    chances[named[int(index)]] = chances.get(named[int(index)], Fraction(0)) + Fraction(p)
                wanted = {
                    "drm": case["drm"],
                    "rolls": [[n, m, None if i is None else named[i]] for n, m, i in case["rolls"]],
                    "chances": sorted([k, fraction_text(p)] for k, p in chances.items()),
                    "no_row": case["no_row"],
                }
                if js != wanted:
                    differs = [f"{k}: JS {js[k]!r}, Python {wanted[k]!r}" for k in wanted if js[k] != wanted[k]]
                    found.append(f"{where}: {'; '.join(differs)}")
        return compared, found


def _amended_rows(chart: model.Chart) -> bool:
    """Whether an errata changed the chart's rows (the page then offers its as-printed view)."""
    return any(r.errata for r in chart.rows) or bool(chart.errata and chart.errata.removed_rows)


def _row_name(game: model.Game, chart: model.Chart, row: model.Row) -> str:
    """A row as the page's as-printed view names it: [printed range, natural, printed cells]."""
    cells = [value_text(game, col, v) for col, v in zip(chart.columns, row.values, strict=True)]
    shown = [visible_controls(c) for c in cells]
    named = [row.range.printed if row.range else None, row.natural, shown]
    return json.dumps(named, separators=(",", ":"), ensure_ascii=False)  # as JSON.stringify writes it


def unknown_cases(
    game: model.Game, chart: model.Chart, cases: list[dict[str, Any]], limit: int = 4
) -> list[dict[str, Any]]:
    """More cases, answered by the Python engine (`compiler.tools.vectors.roll_case`): the first
    `limit` cases each with one context variable left out, and with all of them left out (the
    page's "(not given)" choice and an empty int field; a flag is never unknown, its box reads
    false). A condition over an unknown variable is neither true nor false, so its DRM, its
    column shift and its `roll ... when` do not apply."""
    out: list[dict[str, Any]] = []
    seen = {json.dumps(c["context"], sort_keys=True) + json.dumps(c["keys"], sort_keys=True) for c in cases}
    for case in cases[:limit]:
        given = [v for v in case["context"] if game.context[v].type is not model.ContextType.FLAG]
        for left_out in [*([v] for v in given), *([given] if len(given) > 1 else [])]:
            context = {k: _model_value(game, k, v) for k, v in case["context"].items() if k not in left_out}
            combo = tuple(case["keys"][k.id] for k in chart.keys)
            doc = case_json(roll_case(chart, combo, context))
            key = json.dumps(doc["context"], sort_keys=True) + json.dumps(doc["keys"], sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append(doc)
    return out


def _model_value(game: model.Game, var: str, value: Any) -> ContextValue:
    """A vector case's context value (JSON) as the engine takes it."""
    match game.context[var].type:
        case model.ContextType.MONTH:
            return Month(value)
        case model.ContextType.ENUM:
            return model.MemberId(value)
        case model.ContextType.INT | model.ContextType.FLAG:
            return value  # type: ignore[no-any-return]
        case _:
            assert_never(game.context[var].type)


def _case_problem(case: dict[str, Any], js: dict[str, Any]) -> str | None:
    """What differs between the Python case and the JS answer, or None."""
    if "error" in js:
        return f"JS exception: {js['error']}"
    wanted = {k: case[k] for k in ("drm", "dice", "rolls", "chances", "no_row")}
    if "shift" in case:
        wanted["shift"] = case["shift"]
    got = {k: js.get(k) for k in wanted}
    if got == wanted:
        return None
    differs = [f"{k}: JS {got[k]!r}, Python {wanted[k]!r}" for k in wanted if got[k] != wanted[k]]
    return "; ".join(differs)


def typed_rolls(chart: model.Chart) -> list[str]:
    """What a player may type as the natural roll: each roll of the chart's dice as printed and
    plainly, the d10 and percentile zeros, a leading zero, a sign, one past each end, and junk."""
    assert chart.dice is not None
    rolls = chart.natural_rolls
    texts = {str(r) for r in rolls} | {f"{r:02d}" for r in rolls if 0 <= r < 10}
    texts |= {str(rolls[0] - 1), str(rolls[-1] + 1)}
    texts |= {"0", "00", "000", "01", "09", "-0", "-1", "+1", " 3 ", "1.0", "", "x", "\u22121"}
    return sorted(texts)


def python_roll(chart: model.Chart, text: str) -> int | None:
    """`chartc lookup`'s reading of a typed natural roll (None: refused)."""
    try:
        return read_roll(chart, text)
    except (LookupProblem, LookupUsage):
        return None
