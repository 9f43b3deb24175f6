"""Issue 14: computed values. USAAF 22.2-22.4's production rules as formulas, one exact arithmetic
for `chartc compute`, the checker (ranges, C470-C472) and the generated Python."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.checks.formula_intervals import Interval, interval
from compiler.cli import cli
from compiler.engine.formulas import apply, evaluate
from compiler.model import formulas as fx
from compiler.model.formulas import expr_text
from dsl.parser import parse_text
from tests.conftest import ROOT, codes, compile_text, import_module

HEADER = """game t { title "Test game" }
context n: int "N" 0-20
context k: int "K" 0-3
context veteran: flag "Veteran"
"""


@pytest.fixture(scope="module")
def usaaf():
    return import_module(ROOT / "generated" / "usaaf" / "usaaf.py", "usaaf_formulas")


def _compute(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["compute", *args, "--charts", str(ROOT / "charts")])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("production", "increased"),
    [
        (
            6,
            8,
        ),  # USAAF 22.2: "if six Me190G units were being produced, that number would be increased by two, to eight"
        (10, 13),  # USAAF 22.2: "If 10 Fw190As were being produced ... increased by three, to 13"
        (2, 2),  # a third of 2 rounds down to 0
        (0, 0),
    ],
)
def test_production_increase_follows_22_2(usaaf, production: int, increased: int) -> None:
    assert usaaf.compute_production_increase(production=production) == increased
    code, out = _compute("usaaf/production_increase", "--set", f"production={production}", "--json")
    assert code == 0, out
    assert json.loads(out)["value"] == increased


def test_halving_follows_22_3_and_22_4(usaaf) -> None:
    # USAAF 22.3: "after increasing the production number to 13, it would then instantly be halved back down to six"
    assert usaaf.compute_halved_production(production=10, halvings=1) == 6
    # 22.4: halved up to four times, each halving rounding down: 13 -> 6 -> 3 -> 1 -> 0
    assert [usaaf.compute_halved_production(production=10, halvings=h) for h in range(5)] == [13, 6, 3, 1, 0]
    # ... but a line of three or more at the first halving never falls below one
    assert usaaf.compute_halved_production(production=10, halvings=4, protected_line=True) == 1
    code, out = _compute(
        "usaaf/halved_production", "--set", "production=10", "--set", "halvings=4", "--when", "protected_line"
    )
    assert code == 0 and "  Result: 1" in out.splitlines()
    # ... and the book's two readings of 22.4's "Electrical Power" (EE or EP) follow the result
    assert "  The print reads more than one way: 22.4's \"Electrical Power\": EE or EP (22.4, 22.9, 25.0)" in out


def test_compute_refuses_what_it_cannot_answer() -> None:
    code, out = _compute("usaaf/halved_production", "--set", "production=10")
    assert code == 2 and "needs --set halvings=N (Target systems destroyed that halve production" in out
    # 22.3: production is the number before 22.2's increase (10, not 13): the usage error says so
    code, out = _compute("usaaf/halved_production", "--set", "halvings=1")
    said = "--set production=N (Units of one aircraft model produced per game turn, before the 22.2 increase"
    assert code == 2 and said in out
    code, out = _compute("usaaf/production_increase", "--set", "prodction=3")
    assert code == 2 and "did you mean `production`?" in out
    code, out = _compute("usaaf/production_increase", "--set", "production=100")
    assert code == 2 and "production 100 is outside its declared range 0-99" in out
    code, out = _compute("usaaf/production", "--set", "production=1")
    assert code == 2 and "no formula `production`" in out


def test_the_module_and_the_evaluator_agree_on_every_input(usaaf, tmp_path: Path) -> None:
    from compiler.build.project import load

    game = load([ROOT / "charts" / "usaaf"]).project.games["usaaf"]
    formula = game.formula("halved_production")
    assert formula is not None
    for production in range(100):
        for halvings in range(5):
            for protected in (False, True):
                context = {"production": production, "halvings": halvings, "protected_line": protected}
                want = evaluate(game, formula, context)
                assert usaaf.compute_halved_production(**context) == want, context


def test_arithmetic_is_exact_and_rounds_half_up() -> None:
    assert apply(fx.Function.ROUND, [Fraction(5, 2)]) == 3
    assert apply(fx.Function.ROUND, [Fraction(-5, 2)]) == -2
    assert apply(fx.Function.FLOOR, [Fraction(-1, 3)]) == -1
    assert apply(fx.Function.CEIL, [Fraction(1, 3)]) == 1


def test_formula_checks_use_the_inputs_ranges(tmp_path: Path) -> None:
    # n runs 0-20: dividing by n - 20 can divide by 0, dividing by n + 1 cannot
    bad = compile_text(tmp_path / "bad", HEADER + 'formula f "F" { rule "1" result floor(60 / (n - 20)) }')
    assert codes(bad) == ["C471"]
    assert "the divisor can be 0 (it runs -20 to 0)" in bad.diagnostics[0].message
    good = compile_text(tmp_path / "good", HEADER + 'formula f "F" { rule "1" result floor(60 / (n + 1)) }')
    assert codes(good) == []
    # a negative exponent
    neg = compile_text(tmp_path / "neg", HEADER + 'formula f "F" { rule "1" result 2 ^ (k - 1) }')
    assert codes(neg) == ["C471"]


def test_names_are_bound_with_did_you_mean(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, HEADER + 'formula f "F" { rule "1" result flor(nn / 2) }')
    found = sorted((d.code, d.help) for d in comp.diagnostics)
    assert found == [("C201", "did you mean `floor`?")]
    comp = compile_text(tmp_path / "2", HEADER + 'formula f "F" { rule "1" result nn + 1 }')
    assert [(d.code, d.help) for d in comp.diagnostics] == [("C201", "did you mean `n`?")]
    # a flag is tested, not computed with
    comp = compile_text(tmp_path / "3", HEADER + 'formula f "F" { rule "1" result veteran + 1 }')
    assert codes(comp) == ["C402"]


def test_interval_of_a_formula() -> None:
    text = HEADER + 'formula f "F" { rule "1" result if veteran then n - k else max(n, 5) }'
    from compiler.diagnostics import Sink
    from compiler.resolve import resolve_game
    from dsl import ast

    source = parse_text(text, "t.chart").source
    assert source is not None
    game = resolve_game("t", [source], Sink(), ast.Span("t.chart", 1, 1, 1, 1))
    formula = game.formula("f")
    assert formula is not None
    assert interval(game, formula.expr) == Interval(Fraction(-3), Fraction(20), True)
    assert expr_text(formula.expr) == "if veteran then n - k else max(n, 5)"


def test_printed_form_keeps_only_needed_parentheses() -> None:
    text = HEADER + 'formula f "F" { rule "1" result (n - (k - 1)) * 2 ^ (k ^ 2) - -n }'
    source = parse_text(text, "t.chart").source
    assert source is not None and not parse_text(text, "t.chart").errors
    from compiler.diagnostics import Sink
    from compiler.resolve import resolve_game
    from dsl import ast

    game = resolve_game("t", [source], Sink(), ast.Span("t.chart", 1, 1, 1, 1))
    formula = game.formula("f")
    assert formula is not None
    assert expr_text(formula.expr) == "(n - (k - 1)) * 2 ^ k ^ 2 - -n"


def test_formulas_in_the_json(tmp_path: Path) -> None:
    doc = json.loads((ROOT / "generated" / "usaaf" / "usaaf.json").read_text(encoding="utf-8"))
    (increase,) = [f for f in doc["formulas"] if f["id"] == "production_increase"]
    assert increase["text"] == "production + floor(production / 3)"
    assert increase["inputs"] == ["production"]
    assert increase["expression"] == {
        "op": "+",
        "left": {"var": "production"},
        "right": {"call": "floor", "args": [{"op": "/", "left": {"var": "production"}, "right": {"number": 3}}]},
    }
    examples = {e["id"]: e for e in doc["examples"]}
    assert examples["halved_fw190a"]["formula"] == "halved_production"
    assert examples["halved_fw190a"]["expect"] == [{"kind": "value", "value": 6}]


def test_a_formula_example_edited_to_a_wrong_value_fails_check(tmp_path: Path) -> None:
    text = HEADER + 'formula f "F" { rule "1" result floor(n / 3) }\n'
    ok = text + 'example e "ten" { rule "1" formula f set n = 10 expect value 3 }\n'
    assert codes(compile_text(tmp_path / "ok", ok)) == []
    wrong = compile_text(tmp_path / "wrong", ok.replace("expect value 3", "expect value 4"))
    assert codes(wrong) == ["C460"]
    assert "the book gives 4, `f` gives 3 (floor(n / 3))" in wrong.diagnostics[0].message
    unread = compile_text(tmp_path / "unread", ok.replace("set n = 10", "set n = 30"))
    assert codes(unread) == ["C463"]


def _game(tmp_path: Path, text: str):
    return compile_text(tmp_path, HEADER + text)


def test_inputs_keep_the_order_the_formula_names_them(tmp_path: Path) -> None:
    # an `if` testing two variables: the order was a set's, so the module's signature and the JSON
    # changed with the hash seed
    comp = _game(tmp_path, 'formula p "P" { rule "1" result if n > 1 or k > 1 then 1 else 0 }')
    from compiler.engine.formulas import inputs

    game = comp.project.games["t"]
    assert inputs(game, game.formula("p")) == ("n", "k")


def test_a_formula_used_twice_is_computed_once(tmp_path: Path, monkeypatch) -> None:
    # f0 = n; fI = f(I-1) + f(I-1): exponential if each use recomputes its formula
    text = 'formula f0 "F0" { rule "1" result n }\n' + "".join(
        f'formula f{i} "F{i}" {{ rule "1" result f{i - 1} + f{i - 1} }}\n' for i in range(1, 40)
    )
    import compiler.engine.formulas as formulas

    calls = [0]
    original = formulas._value

    def counted(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(formulas, "_value", counted)
    comp = _game(tmp_path, text)
    assert codes(comp) == []  # f39 is 2^39 * n, at most about 1.1 * 10^13
    game = comp.project.games["t"]
    calls[0] = 0
    assert evaluate(game, game.formula("f30"), {"n": 3}) == 3 * 2**30
    assert calls[0] < 200  # one pass over each formula's few nodes, not 2^30 calls


def test_huge_values_and_deep_input_are_findings_not_crashes(tmp_path: Path) -> None:
    huge = _game(tmp_path / "huge", 'formula y "Y" { rule "1" result ((((2 ^ 64) ^ 64) ^ 64) ^ 64) ^ 64 }')
    assert set(codes(huge)) == {"C471"}
    assert any("the value can exceed 10^30" in d.message for d in huge.diagnostics)
    unranged = compile_text(
        tmp_path / "free", 'game t { title "T" }\ncontext m: int "M"\nformula y "Y" { rule "1" result m ^ 2 }'
    )
    assert codes(unranged) == ["C471"] and "the base of `^` has no declared range" in unranged.diagnostics[0].message
    deep = _game(tmp_path / "deep", 'formula y "Y" { rule "1" result ' + "floor(" * 150 + "n" + ")" * 150 + " }")
    assert codes(deep) == ["C101"] and "nests more than 100 operations" in deep.diagnostics[0].message
    chain = 'formula f0 "F0" { rule "1" result n }\n' + "".join(
        f'formula f{i} "F{i}" {{ rule "1" result f{i - 1} + 0 }}\n' for i in range(1, 500)
    )
    long = _game(tmp_path / "chain", chain)
    assert "computed through 101 formulas, more than 100" in " ".join(d.message for d in long.diagnostics)


def test_an_if_narrows_the_range_of_the_branch_it_guards(tmp_path: Path, monkeypatch) -> None:
    guarded = 'formula g "G" { rule "1" result if k == 0 then 0 else floor(n / k) }'
    assert codes(_game(tmp_path / "eq", guarded)) == []
    for cond in ("k > 0", "k >= 1", "k != 0", "not k == 0", "k in [1, 2, 3]"):
        text = f'formula g "G" {{ rule "1" result if {cond} then floor(n / k) else 0 }}'
        assert codes(_game(tmp_path / str(len(cond)) / cond.replace(" ", "_"), text)) == [], cond
    assert codes(_game(tmp_path / "lt", 'formula g "G" { rule "1" result if k < 2 then floor(n / k) else 0 }')) == [
        "C471"
    ]
    # the generated module computes only the branch taken: k = 0 gives 0, no division by zero
    folder = tmp_path / "mod" / "charts" / "t"
    folder.mkdir(parents=True)
    long_name = "a_very_long_formula_name_so_that_the_generated_code_takes_one_line_per_operation"
    (folder / "game.chart").write_text(
        HEADER
        + f'formula {long_name} "G" {{ rule "1" result if k == 0 then 0 else floor(n / k) + floor(n / (k + 1)) }}',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path / "mod")
    assert CliRunner().invoke(cli, ["build", "charts", "--out", "out"]).exit_code == 0
    module = import_module(tmp_path / "mod" / "out" / "t" / "t.py", "t_guarded")
    assert getattr(module, f"compute_{long_name}")(n=7, k=0) == 0
    assert getattr(module, f"compute_{long_name}")(n=7, k=2) == 3 + 2


def test_unary_minus_binds_looser_than_power(tmp_path: Path) -> None:
    # -2 ^ 2 is -(2 ^ 2), as in mathematics and Python
    comp = _game(tmp_path, 'formula m "M" { rule "1" result -2 ^ 2 + (-2) ^ 2 - -n ^ 2 }')
    game = comp.project.games["t"]
    assert evaluate(game, game.formula("m"), {"n": 3}) == -4 + 4 + 9
    assert expr_text(game.formula("m").expr) == "-2 ^ 2 + (-2) ^ 2 - -n ^ 2"


def test_fmt_keeps_a_formula_s_plus_spaced(tmp_path: Path) -> None:
    from compiler.tools.fmt import format_text

    text = HEADER + 'formula f "F" {\n  rule "1"\n  result 2 + 3 - 4 * 5 + n\n}\n'
    assert "result 2 + 3 - 4 * 5 + n" in format_text(text, "t.chart")


def test_lookup_of_a_formula_points_to_compute() -> None:
    result = CliRunner().invoke(cli, ["lookup", "usaaf/production_increase", "--charts", str(ROOT / "charts")])
    assert result.exit_code == 2
    assert "chartc compute usaaf/production_increase --set NAME=N" in result.output
