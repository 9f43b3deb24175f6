"""The generated Python modules: typed API, one identifier policy, argument checks, and the runtime.

Regression tests build a tiny game in a temporary folder, generate its module and call it in a
fresh `python -I` interpreter, so only the standard library and the module itself are involved.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import itertools
import json
import random
import subprocess
import sys
import typing
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from compiler.emit.python.module import emit_game_python
from compiler.engine import runtime
from compiler.engine.runtime import chain_runtime_code, runtime_code
from compiler.model import ChartRef
from tests.conftest import ROOT, compile_text, import_module, mypy_strict

GAMES = sorted((ROOT / "generated").glob("*/*.py"))


def generate(tmp_path: Path, text: str) -> Path:
    """Compile one game from chart text (it must check clean) and write its module."""
    comp = compile_text(tmp_path, text)
    assert not comp.has_errors, comp.diagnostics
    path = tmp_path / "t_module.py"
    path.write_text(emit_game_python(comp.project.games["t"]), encoding="utf-8")
    return path


def call(path: Path, *expressions: str) -> list[object]:
    """Evaluate each expression on the module `m` in a fresh interpreter: its value, or
    `[exception type, message]` when it raises."""
    script = (
        "import importlib.util, json, random, sys\n"
        f"spec = importlib.util.spec_from_file_location('m', {str(path)!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "assert 'compiler' not in sys.modules\n"
        "out = []\n"
        f"for e in {list(expressions)!r}:\n"
        "    try:\n"
        "        out.append(eval(e))\n"
        "    except Exception as exc:\n"
        "        out.append([type(exc).__name__, str(exc)])\n"
        "print(json.dumps(out))\n"
    )
    r = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return list(json.loads(r.stdout))


# ---- the committed modules ----------------------------------------------------------------------


def public_functions(module: ModuleType) -> list[typing.Callable[..., object]]:
    return [
        f
        for name, f in vars(module).items()
        if inspect.isfunction(f) and f.__module__ == module.__name__ and not name.startswith("_")
    ]


def mentions_any(hint: object) -> bool:
    if hint is typing.Any:
        return True
    return any(mentions_any(arg) for arg in typing.get_args(hint))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_no_public_signature_mentions_any(path: Path) -> None:
    module = import_module(path, f"{path.stem}_signatures")
    functions = public_functions(module)
    assert len(functions) >= 5
    for function in functions:
        hints = typing.get_type_hints(function)
        assert "return" in hints, function.__name__
        assert set(inspect.signature(function).parameters) <= set(hints), function.__name__
        for name, hint in hints.items():
            assert not mentions_any(hint), f"{function.__name__}: {name} is {hint}"
    # the results are TypedDicts: R9 (IA2 10.16) has a text result and the points awarded
    if path.stem == "ia2":
        r9 = typing.get_type_hints(module.lookup_r9)["return"]
        assert typing.get_type_hints(r9) == {"result": str, "points": int}


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_no_style_debris(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for debris in ("Optional[", "+= -", "if bool(", ", )", "position += shift"):
        assert debris not in text, debris
    tree = ast.parse(text)
    lines = text.split("\n")
    for node in ast.walk(tree):
        assert not (isinstance(node, ast.Name) and node.id == "Any"), node.lineno
        if isinstance(node, ast.FunctionDef) and node.body and isinstance(node.body[0], ast.Expr):
            doc = node.body[0]
            closing = lines[(doc.end_lineno or 0) - 1]
            assert doc.lineno == doc.end_lineno or closing == '    """', f"{node.name}: closing quotes on a text line"
        if isinstance(node, ast.arg):
            assert node.arg not in dir(builtins), node.arg
    for number, line in enumerate(text.split("\n"), 1):
        # only a single long chart text may make a line longer than 120 characters (repr quotes a text
        # holding an apostrophe, as IA2 10.12's "player's choice", with double quotes)
        text_line = any(line.strip().startswith(q) and line.strip().endswith(q + ",") for q in "'\"")
        assert len(line) <= 120 or text_line, (number, line)


def test_enums_are_named_literal_aliases_with_labels() -> None:
    m = import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_aliases")
    assert typing.get_args(m.Interceptor) == ("piston", "jet")
    assert m.INTERCEPTOR_LABELS == {"piston": "Piston-engined", "jet": "Jet or Rocket"}
    assert typing.get_type_hints(m.lookup_r4)["interceptor"] == m.Interceptor
    # IA2 R7 and R8 are keyed by the same period type, named once
    assert typing.get_type_hints(m.lookup_r7)["period"] == typing.get_type_hints(m.lookup_r8)["period"] == m.Period
    # a column of member ids is typed by its enum's alias
    skill = typing.get_type_hints(typing.get_type_hints(m.lookup_allied_fighter_skills)["return"])["skill"]
    assert skill == m.AlliedSkill


def test_a_dash_cell_is_typed_optional() -> None:
    m = import_module(ROOT / "generated" / "usaaf" / "usaaf.py", "usaaf_dash")
    # USAAF 3.2: the Me109K is not set up at the start, printed `-`
    assert m.lookup_german_set_up(german_aircraft="me109k") == {"units": None}
    result = typing.get_type_hints(m.lookup_german_set_up)["return"]
    assert typing.get_type_hints(result) == {"units": int | None}
    assert typing.get_type_hints(typing.get_type_hints(m.lookup_us_forces)["return"])["set_up"] is int


def test_the_runtime_is_inlined_verbatim_and_standalone() -> None:
    code = runtime_code()
    assert code.startswith("from __future__ import annotations\n")
    for path in GAMES:
        assert code in path.read_text(encoding="utf-8"), path
    imported = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(ast.parse(code))
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }
    assert all(name.split(".")[0] in sys.stdlib_module_names for name in imported), imported


def test_the_runtime_passes_mypy_strict(tmp_path: Path) -> None:
    # as a generated module carries it: the parts inlined in order, then the chain runtime, checked
    # as one module (a name a part imports from an earlier one must be defined by then), and each
    # part on its own as chartc imports it
    inlined = tmp_path / "inlined_runtime.py"
    inlined.write_text(runtime_code() + chain_runtime_code(), encoding="utf-8")
    status, out = mypy_strict(inlined, *sorted(Path(runtime.__file__).parent.glob("*.py")))
    assert status == 0, out


def test_the_runtime_parts_are_inlined_in_order_and_whole() -> None:
    folder = Path(runtime.__file__).parent
    parts = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    assert parts == {*runtime.PARTS, runtime.CHAINS}, "every part is inlined, in PARTS or as the chain runtime"
    code = runtime_code()
    for part in runtime.PARTS:
        source = (folder / f"{part}.py").read_text(encoding="utf-8")
        inlined = source.split("# ---- inlined into a generated module below this line\n", 1)[1].strip("\n")
        assert inlined in code, part
    offsets = [code.index(f"def {name}(") for name in ("_clamp", "_check_int", "_holds", "_roll", "_total_drm")]
    assert offsets == sorted(offsets)  # base, checks, conditions, dice, drms: the order of PARTS
    # chartc reaches every runtime name as `runtime.<name>`, each from the part that defines it
    assert [name for name in runtime.__all__ if not hasattr(runtime, name)] == []
    with pytest.raises(AttributeError):
        runtime._no_such_name  # noqa: B018


# ---- the runtime, directly ----------------------------------------------------------------------


def test_unknown_context_makes_a_condition_neither_true_nor_false() -> None:
    weather = runtime._Compare("weather", "==", "storm")
    assert runtime._holds(weather, {"weather": None}) is None
    assert runtime._holds(runtime._Not(weather), {"weather": None}) is None
    assert runtime._holds(runtime._Compare("weather", "!=", "clear"), {"weather": None}) is None
    fb = runtime._Flag("fb_attack")
    # `or` is true as soon as one part is; `and` false as soon as one part is
    assert runtime._holds(runtime._AnyOf((weather, fb)), {"weather": None, "fb_attack": True}) is True
    assert runtime._holds(runtime._AllOf((weather, fb)), {"weather": None, "fb_attack": False}) is False
    assert runtime._holds(runtime._AllOf((weather, fb)), {"weather": None, "fb_attack": True}) is None
    assert runtime._holds(runtime._In("month", ("1944-11", "1945-01")), {"month": "1945-01"}) is True
    assert runtime._holds(runtime._Compare("fatigue", ">=", 5), {"fatigue": 4}) is False


def test_total_drm_sums_true_conditions_and_clamps() -> None:
    drms = (runtime._Drm(2, None), runtime._Drm(3, runtime._Flag("a")), runtime._Drm(-4, runtime._Flag("b")))
    assert runtime._total_drm(drms, {"a": True, "b": False}, None) == 5
    assert runtime._total_drm(drms, {"a": True, "b": False}, (-1, 3)) == 3
    assert runtime._total_drm(drms, {"a": False, "b": True}, (-1, 3)) == -1


def test_one_exclusive_group_rule_for_drms_and_column_shifts() -> None:
    # (position, group, amount) in declaration order: `best` keeps the highest (the first of
    # equals), `worst` the lowest, `one` the first; a member of a group not declared counts not at all
    found = [(0, "cover", 1), (1, None, 2), (2, "cover", 3), (3, "cover", 3), (4, "leader", -1), (5, "ghost", 9)]
    assert runtime._exclusive(found, (("cover", "best"), ("leader", "one"))) == [(1, 2), (2, 3), (4, -1)]
    assert runtime._exclusive(found, (("cover", "worst"), ("leader", "one"))) == [(0, 1), (1, 2), (4, -1)]
    assert runtime._exclusive(found, (("cover", "one"),)) == [(0, 1), (1, 2)]
    # DRMs and column shifts of the same values keep the same members
    drms = tuple(runtime._Drm(v, None, None, "g") for v in (1, 3, 2))
    assert runtime._drm_terms(drms, {}, (("g", "best"),)) == [(1, 3)]
    assert runtime._total_drm(drms, {}, (-2, 2), (("g", "best"),)) == 2  # 3, clamped to +2
    shifts = tuple(runtime._Shift(f"s{v}", v, None, "g") for v in (1, 3, 2))
    assert runtime._shift_terms(shifts, {}, (("g", "best"),), (-2, 2)) == ((("s3", 3),), 2)


# IA2 10.16: "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)", with "+1 drm to the Flak attack roll"
_FLAK = (("drms", 0), ("add", -3), ("minimum", 0), ("maximum", 3))
_CAPPED = (("drms", 0), ("minimum", 1), ("maximum", 6))  # `modified clamp 1 to 6`


def test_the_steps_of_a_roll_are_made_in_order() -> None:
    # the +1 IFF drm is added to the die, before "subtract 3": a 6 is 7 - 3 = 4, held at 3
    assert runtime._roll_steps(6, 1, _FLAK) == (("drms", 1, 7), ("add", -3, 4), ("minimum", 0, 4), ("maximum", 3, 3))
    assert runtime._roll_steps(2, 1, _FLAK)[-1] == ("maximum", 3, 0)  # 2 + 1 - 3 = 0
    assert runtime._roll_steps(4, 2) == (("drms", 2, 6),)  # no steps: the DRM total added
    # halving rounds as printed, down (floor) or up, below zero too
    assert [runtime._modified(n, 0, (("drms", 0), ("halve_down", 2))) for n in (-3, 5, 6)] == [-2, 2, 3]
    assert [runtime._modified(n, 0, (("drms", 0), ("halve_up", 2))) for n in (-3, 5, 6)] == [-1, 3, 3]
    assert runtime._modified(3, 1, (("times", 2), ("drms", 0))) == 7  # doubled, then the DRM
    with pytest.raises(ValueError, match="unknown step 'squared'"):
        runtime._roll_steps(3, 0, (("drms", 0), ("squared", 2)))


def test_the_pipeline_reads_natural_rows_first_then_the_capped_modified_roll() -> None:
    # a `natural 1` row ("1 is always a miss") is read before the DRM; otherwise natural + DRM,
    # held by `modified clamp 1 to 6` (the steps minimum 1, maximum 6), selects the row
    rows: tuple[tuple[tuple[str | tuple[str, str | None] | None, ...], int | None, int | None, str], ...] = (
        ((), None, 3, "low"),
        ((), 4, 6, "high"),
    )
    natural_rows: tuple[tuple[tuple[str | tuple[str, str | None] | None, ...], int | None, int | None, str], ...] = (
        ((), 1, 1, "miss"),
    )
    index = runtime._Index(rows)
    assert runtime._modified(5, 3, _CAPPED) == 6 and runtime._modified(2, -4, _CAPPED) == 1
    assert runtime._modified(5, 3) == 8  # no cap
    assert runtime._row_for(natural_rows, index, (), 1, runtime._modified(1, 4, _CAPPED)) == "miss"
    assert runtime._row_for(natural_rows, index, (), 2, runtime._modified(2, 4, _CAPPED)) == "high"
    assert runtime._row_for((), runtime._Index(rows[1:]), (), 2, 2) is None
    steps = (("drms", 3, 8), ("minimum", 1, 8), ("maximum", 6, 6))
    assert runtime._rolled(5, 3, "high", _CAPPED) == {
        "natural": 5, "drm": 3, "modified": 6, "values": "high", "steps": steps, "drms": ()
    }
    assert runtime._rolled(5, 3, "high")["steps"] == (("drms", 3, 8),)


def test_select_reads_months_open_ends_and_refuses_a_gap() -> None:
    rows: tuple[tuple[tuple[str | tuple[str, str | None] | None, ...], int | None, int | None, tuple[str]], ...] = (
        ((("1944-03", "1944-12"),), None, 2, ("early",)),
        ((("1945-01", None),), 5, None, ("late",)),
    )
    assert runtime._select("X", rows, ("1944-07",), 1) == ("early",)
    assert runtime._select("X", rows, ("1946-02",), 9) == ("late",)
    with pytest.raises(runtime.NoRowError, match="no row for modified roll 3"):
        runtime._select("X", rows, ("1944-07",), 3)


def test_argument_checks_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="'jets' is not a value of interceptor; expected one of 'piston', 'jet'"):
        runtime._check_member("R4", "interceptor", "jets", ("piston", "jet"))
    with pytest.raises(ValueError, match="True cannot be rolled on 1d6"):
        runtime._check_natural("R4", True, frozenset(range(1, 7)), "1d6")
    with pytest.raises(ValueError, match="must be a month 'YYYY-MM'"):
        runtime._check_month("B9", "month", "1944-13")
    with pytest.raises(ValueError, match="must be True or False"):
        runtime._check_flag("R4", "fb_attack", 1)
    with pytest.raises(ValueError, match=r"must be a random\.Random"):
        runtime._check_rng("R4", 3)


def test_dice_forms_read_the_faces_as_the_chart_does() -> None:
    rng = random.Random(5)
    percentile = {runtime._roll(rng, runtime._Dice("percentile", 2, 10)) for _ in range(3000)}
    assert percentile == set(range(1, 101))  # IA2 10.6: 00 is 100, there is no 0
    d66 = {runtime._roll(rng, runtime._Dice("d66", 2, 6)) for _ in range(3000)}
    assert d66 == {t * 10 + o for t in range(1, 7) for o in range(1, 7)}  # IA2 3.5
    flak = {runtime._modified(runtime._roll(rng, runtime._Dice("sum", 1, 6)), 0, _FLAK) for _ in range(500)}
    assert flak == {0, 1, 2, 3}  # IA2 7.1.5: 1d6 - 3, from zero to 3


def test_the_odds_rule_is_the_usaaf_rule() -> None:
    rule = runtime._OddsRule("crt_odds", "down", "up", (), None, None)
    assert runtime._odds_column(rule, 26, 7) == "3:1"  # USAAF 15.1
    assert runtime._odds_column(rule, 5, 11) == "1:3"  # USAAF 15.2
    assert runtime._raw_odds(rule, 7, 7) == (1, 1)  # USAAF 15.3
    nearest = runtime._OddsRule("n", "nearest", "nearest", (), None, None)
    assert runtime._odds_column(nearest, 5, 2) == "3:1"  # 2.5 rounds half up
    assert runtime._round(Fraction(5, 2), "nearest") == 3


# ---- issue 11 item 5: names from the charts ------------------------------------------------------


def test_a_key_named_like_a_runtime_helper_works(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\nenum side "Side" { a "A" b "B" }\n'
        'chart [R1] "R1" { roll 1d6 key _select: side column res: text rows { a 1-6: "x" b 1-6: "y" } }\n',
    )
    # before: `_select` as a parameter shadowed the runtime's `_select`: TypeError
    assert call(path, "m.lookup_r1(3, _select_='b')") == [{"res": "y"}]


def test_a_context_variable_named_total_counts(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\ncontext total: int "Total"\n'
        'drms [B1] "B1" { drm big "Big" +1 when total >= 5 }\n',
    )
    # before: the function's own `total = 0` overwrote the argument, so drm_b1(total=10) was 0
    assert call(path, "m.drm_b1(total=10)", "m.drm_b1(total=4)", "m.drm_b1()") == [1, 0, 0]


def test_names_that_are_builtins_or_module_names_do_not_crash(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\n'
        'enum value_error "E" { a "A" b "B" }\nenum no_row_error "N" { x "X" }\n'
        'context bool: flag "Bool"\ncontext min: flag "Min"\n'
        'chart [R1] "R1" { roll 1d6 key range: value_error column roll: text '
        'drm d "D" +1 when bool drm e "E" -1 when min combine sum clamp -1 to +1 rows { a 1-7: "x" b 1-7: "y" } }\n',
    )
    got = call(
        path,
        "m.drm_r1(bool_=True)",
        "m.drm_r1(min_=True, bool_=False)",
        "m.lookup_r1(2, range_='b')",
        "m.roll_r1(random.Random(1), range_='a')['values']",
        "m.lookup_r1(2, range_='c')",
    )
    # before: `if bool(bool)` called the flag; `min(...)` in the clamp called the flag; the enum
    # `value_error` became a module name `ValueError` that shadowed the exception
    assert got[:4] == [1, -1, {"roll": "y"}, {"roll": "x"}]
    assert got[4] == ["ValueError", "R1: 'c' is not a value of range_; expected one of 'a' ('A'), 'b' ('B')"]
    status, out = mypy_strict(path)
    assert status == 0, out


def test_keys_named_like_the_functions_own_names_are_renamed_alike(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\nenum side "Side" { a "A" b "B" }\ncontext context: flag "Context"\n'
        'chart [R1] "R1" { roll 1d6 key rng: side key natural: side key row: side column res: text '
        'drm c "C" +1 when context rows { a * * 1-7: "x" b * * 1-7: "y" } }\n',
    )
    got = call(
        path,
        "m.roll_r1(random.Random(1), rng_='b', natural_='b', row_='b')['values']",
        "m.lookup_r1(1, rng_='a', natural_='a', row_='a', drm=m.drm_r1(context_=True))",
    )
    assert got == [{"res": "y"}, {"res": "x"}]


def test_a_column_named_roll_is_not_overwritten_by_the_natural_roll(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\nchart [R1] "R1" { roll 1d6 column roll: text rows { 1-6: "printed" } }\n',
    )
    # before: roll_r1 returned {'roll': natural, 'modified': ..., **row}, and the row's `roll` won
    got = call(path, "m.roll_r1(random.Random(3))")
    natural = random.Random(3).randint(1, 6)
    steps = [["drms", 0, natural]]  # the one step of a roll without arithmetic (a JSON list here)
    assert got == [{"natural": natural, "drm": 0, "modified": natural, "values": {"roll": "printed"}, "steps": steps,
                    "drms": []}]


def test_chart_ids_that_normalise_alike_never_alias(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\n'
        'chart [R-1] "Dash" { roll 1d6 column res: text rows { 1-6: "dash" } }\n'
        'chart r_1 "Underscore" { roll 1d6 column res: text rows { 1-6: "underscore" } }\n'
        'chart r_1_2 "Two" { roll 1d6 column res: text rows { 1-6: "two" } }\n',
    )
    got = call(
        path,
        "{a: f(1)['res'] for a, f in m.LOOKUPS.items()}",
        "[m.lookup_r_1(1)['res'], m.lookup_r_1_2(1)['res'], m.lookup_r_1_3(1)['res']]",
    )
    # before: `[R-1]` and `r_1` became r_1 and r_1_2, and the chart `r_1_2` read another's rows
    assert got[0] == {"R-1": "dash", "r_1": "underscore", "r_1_2": "two"}
    # charts whose ID is already a Python name keep it; `R-1` takes the first free suffix
    assert got[1] == ["underscore", "two", "dash"]


def test_a_redundant_condition_still_passes_mypy_strict(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\nenum weather "Weather" { clear "Clear" storm "Storm" }\n'
        'context weather: weather "Weather"\n'
        'drms [B1] "B1" { drm w "Not clear" +1 when weather != clear or weather == storm }\n',
    )
    status, out = mypy_strict(path)  # before: "Non-overlapping equality check"
    assert status == 0, out
    assert call(path, "m.drm_b1(weather='storm')", "m.drm_b1(weather='clear')") == [1, 0]


# ---- issue 11 item 11: an unset context value ------------------------------------------------------


def test_an_unset_context_value_applies_no_drm_as_the_docstring_says(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" }\nenum weather "Weather" { clear "Clear" storm "Storm" }\n'
        'context weather: weather "Weather"\ncontext fb: flag "F/B"\n'
        'drms [B1] "B1" { drm a "Not clear" +1 when weather != clear '
        'drm b "Not a storm" +2 when not weather == storm drm c "F/B or storm" +4 when fb or weather == storm }\n',
    )
    got = call(path, "m.drm_b1()", "m.drm_b1(fb=True)", "m.drm_b1(weather='clear')", "m.drm_b1.__doc__")
    # before: `!=` and `not` came out true for an unset weather: 3 where the docstring promised 0
    assert got[:3] == [0, 4, 2]
    assert "left as None is unknown: a DRM applies only when its condition is true without it" in str(got[3])


# ---- every argument checked; odds feed the CRT ------------------------------------------------------


def test_a_misspelt_value_raises_naming_the_allowed_values(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" calendar 1944-01 to 1944-12 }\nenum weather "Weather" { clear "Clear" storm "Storm" }\n'
        'context weather: weather "Weather"\ncontext month: month "Month"\n'
        'chart [R1] "R1" { roll 1d6 key weather column res: int drm s "Storm" +1 when weather == storm '
        'drm d "December" +1 when month == 1944-12 rows { clear 1-7: 0 storm 1-7: 1 } }\n',
    )
    got = call(
        path,
        "m.lookup_r1(3, weather='strom')",
        "m.drm_r1(weather='strom')",
        "m.drm_r1(month='12/1944')",
        "m.lookup_r1(3, weather='storm', drm='1')",
        "m.lookup_r1(True, weather='storm')",
        "m.drm_r1(weather='storm', month='1944-12')",
    )
    # before: the DRM function silently returned 0 for 'strom'
    expected = "expected one of 'clear' ('Clear'), 'storm' ('Storm')"
    assert got[0] == ["ValueError", f"R1: 'strom' is not a value of weather; {expected}"]
    assert got[1] == got[0]
    assert got[2] == ["ValueError", "R1: month must be a month 'YYYY-MM', got '12/1944'"]
    assert got[3] == ["ValueError", "R1: drm must be an int, got '1'"]
    assert got[4] == ["ValueError", "R1: True cannot be rolled on 1d6"]
    assert got[5] == 2


def test_an_enum_value_may_be_given_by_id_or_printed_label(tmp_path: Path) -> None:
    path = generate(
        tmp_path,
        'game t { title "T" calendar 1944-01 to 1944-12 }\n'
        'enum weather "Weather" { clear "Clear" storm "Storm Front" }\ncontext weather: weather "Weather"\n'
        'chart [R1] "R1" { roll 1d6 key weather column res: int drm s "Storm" +1 when weather == storm '
        "rows { clear 1-7: 0 storm 1-7: 1 } }\n",
    )
    got = call(
        path,
        "m.lookup_r1(3, weather='Storm Front')",
        "m.lookup_r1(3, weather='STORM')",
        "m.drm_r1(weather='storm front')",
        "m.drm_r1(weather='Clear')",
        "m.drm_r1(weather=3)",
    )
    # the printed label, or the id in any case, names the value as the CLI reads it
    assert got[:4] == [{"res": 1}, {"res": 1}, 1, 0]
    assert got[4] == [
        "ValueError",
        "R1: 3 is not a value of weather; expected one of 'clear' ('Clear'), 'storm' ('Storm Front')",
    ]


CRT = (
    'game t { title "T" }\n'
    'odds crt_odds "CRT odds" { columns ["1:2", "1:1", "2:1", "3:1"] attacker_high round down '
    "defender_high round up beyond clamp shift after clamp }\n"
    'chart crt "CRT" { roll 1d6 key odds: crt_odds column result: pair "A/D" '
    'grid odds ["1:2", "1:1", "2:1", "3:1"] { 1/0: 1-3 | 1-2 | 1 | - \n 0/1: 4-6 | 3-6 | 2-6 | 1-6 } }\n'
)


def test_the_odds_column_is_what_the_crt_lookup_accepts(tmp_path: Path) -> None:
    path = generate(tmp_path, CRT)
    got = call(
        path,
        "m.odds_crt_odds(13, 4)",
        "m.lookup_crt(4, odds=m.odds_crt_odds(13, 4))",
        "m.lookup_crt(4, odds='o3_1')",
        "m.lookup_crt(4, odds='4:1')",
    )
    # before: odds_crt_odds(13, 4) returned '3:1' and lookup_crt(4, odds='3:1') raised ValueError
    assert got[:2] == ["3:1", {"result": [0, 1]}]  # USAAF 15.1: 13 vs 4 is 3.25, rounded down
    expected = "expected one of '1:2', '1:1', '2:1', '3:1'"
    # the column's id in the game's JSON is its printed label: the old internal id is gone
    assert got[2] == ["ValueError", f"crt: 'o3_1' is not an odds column of odds; {expected}"]
    assert got[3] == ["ValueError", f"crt: '4:1' is not an odds column of odds; {expected}"]
    m = import_module(path, "crt_chain")
    assert typing.get_type_hints(m.odds_crt_odds)["return"] == typing.get_type_hints(m.lookup_crt)["odds"] == m.CrtOdds
    status, out = mypy_strict(path)
    assert status == 0, out


# ---- the modules answer as chartc lookup does ------------------------------------------------------


def python_key(game, key, member_id: str) -> str:
    """A key value as the generated lookup takes it: an odds column by its printed label."""
    rule = game.chart(key.enum.id)
    member = key.enum.member(member_id)
    return member.label if rule is not None and rule.odds is not None and member is not None else member_id


def cli_values(result) -> dict[str, object]:
    return {k: as_generated(v) for k, v in result.values().items()}


def as_generated(value: object) -> object:
    """A cell as the generated module holds it: a chart reference or chained cell as a dict."""
    from compiler import model
    from compiler.model.text import json_value

    if isinstance(value, ChartRef | model.RollAgain):
        return json_value(value)  # the module's dict is the JSON object
    if isinstance(value, model.SubRoll):
        outcomes = tuple((o.range.low, o.range.high, as_generated(o.value)) for o in value.outcomes)
        return {"count": value.dice.count, "sides": value.dice.sides, "outcomes": outcomes}
    if isinstance(value, model.Choice):  # a choice: the options offered, as the module's `Choice`
        return {"choice": tuple(as_generated(o) for o in value.options)}
    return value


@pytest.mark.parametrize("game_id", [p.stem for p in GAMES])
def test_every_lookup_agrees_with_the_compiler(corpus, game_id: str) -> None:
    from compiler.engine.lookup import LookupProblem, LookupUsage, lookup

    game = corpus.project.games[game_id]
    module = import_module(ROOT / "generated" / game_id / f"{game_id}.py", f"{game_id}_differential")
    compared = 0
    for chart in game.charts:
        if chart.kind not in ("roll", "value", "reference"):
            continue
        function = module.LOOKUPS[chart.address]
        signature = inspect.signature(function).parameters.values()
        params = [p for p in signature if p.kind is p.KEYWORD_ONLY and p.name not in ("drm", "when", "set_")]
        if chart.kind == "roll":
            low, high = chart.drm_span()
            reads = [(n, drm) for n in chart.dice.outcomes for drm in sorted({0, low - 1, high + 1})]
        elif chart.kind == "value":
            domain = chart.value_key.domain
            first = domain.low if domain.low is not None else (domain.high or 0) - 20
            reads = [(n, 0) for n in range(first, (domain.high if domain.high is not None else first + 40) + 1)]
        else:
            reads = [(None, 0)]
        for combo in chart.key_combinations():
            given = dict(zip((k.id for k in chart.keys), combo, strict=True))
            kwargs = {p.name: python_key(game, k, m) for p, k, m in zip(params, chart.keys, combo, strict=True)}
            for n, drm in reads:
                try:
                    want: object = cli_values(lookup(chart, None if n is None else str(n), given, drm))
                except LookupUsage:  # a DRM on a digit-read roll without `drm_meaning`
                    want = ValueError
                except LookupProblem:
                    want = module.NoRowError
                try:
                    got: object = function(**kwargs) if n is None else function(n, drm=drm, **kwargs)
                except module.NoRowError:
                    got = module.NoRowError
                except ValueError:
                    got = ValueError
                assert got == want, (chart.address, combo, n, drm)
                compared += 1
    assert compared > 100


def test_the_identifier_policy_directly() -> None:
    from compiler.emit.python.names import Namespace, identifier, pascal

    assert identifier("R-1") == "R_1" and identifier("3rd") == "n_3rd"
    assert pascal("aircraft_type") == "AircraftType" and pascal("r_1") == "R1"
    names = Namespace.for_module(["_select"])
    assert names.numbered("r_1") == "r_1" and names.numbered("r_1") == "r_1_2" and names.numbered("r_1") == "r_1_3"
    assert names.numbered("ValueError") == "ValueError_2"  # a builtin is never shadowed
    scope = names.child(["roll"])
    assert [scope.parameter(n) for n in ("range", "_select", "roll", "class", "match", "ok")] == [
        "range_", "_select_", "roll_", "class_", "match_", "ok",
    ]


def _key_values(rows, position: int) -> list[str]:
    """The values to try for one key of an index: every id and month bound its rows name, a month
    inside each month range, and a value no row names."""
    found = {""}
    for row_keys, *_ in rows:
        key = row_keys[position]
        if isinstance(key, str):
            found.add(key)
        elif isinstance(key, tuple):
            found |= {key[0], key[0][:5] + "13", *(k for k in key[1:] if k)}  # "1944-13" sorts after 1944-12
    return sorted(found)


def _outcome(select, *args):
    try:
        return ("row", select(*args))
    except Exception as exc:  # the error and its words must be the same
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_index_selects_what_the_row_scan_selects(path: Path) -> None:
    # issue 16 item 6: `_Index` answers from a tuple per key combination; `_select` scans the rows as
    # the chart lists them. Every key value a row names, every roll from below the lowest bound to
    # past the highest, and the open ends: the same values, or the same NoRowError.
    module = import_module(path, f"{path.stem}_index_check")
    indexes = {n: v for n, v in vars(module).items() if isinstance(v, module._Index)}
    assert indexes, "no chart read by a roll or value"
    kinds = set()
    for name, index in sorted(indexes.items()):
        rows = index.rows
        width = len(rows[0][0]) if rows else 0
        bounds = [b for _, low, high, _ in rows for b in (low, high) if b is not None] or [0]
        for keys in itertools.product(*(_key_values(rows, i) for i in range(width))):
            for modified in range(min(bounds) - 3, max(bounds) + 4):
                got = _outcome(index.select, name, keys, modified)
                assert got == _outcome(module._select, name, rows, keys, modified), (name, keys, modified)
                kinds.add(got[0])
    assert "row" in kinds and kinds <= {"row", "NoRowError"}
    if path.stem == "ia2":  # IA2 R4 (7.1.10): a piston interceptor's modified 9 is past `3+`: combat
        assert module._R4_INDEX.select("R4", ("piston",), 9) == ("Combat",)
        assert module._R4_INDEX.select("R4", ("piston",), -5) == ("Safe escape",)  # `2-`, open below
        assert kinds == {"row", "NoRowError"}  # keyed charts: a key value no row names selects no row
