"""The grammar and the parser: LALR without collisions, spans on nodes, keywords usable as names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dsl import ast
from dsl.parser import MAX_NESTING, grammar_text, parse_text
from tests.conftest import compile_text


def test_grammar_builds_in_strict_mode() -> None:
    # strict=True fails on terminal collisions and shift/reduce conflicts (lark[interegular]).
    from lark import Lark

    Lark(grammar_text(), parser="lalr", lexer="contextual", strict=True)


def test_keywords_stay_usable_as_names() -> None:
    text = """
    enum word { rows "Rows" table "Table" roll "Roll" key "Key" }
    chart rule "Keywords as values" {
      roll 1d6
      key word
      column result: text
      rows { rows 1-6: "a"  table 1-6: "b"  roll 1-6: "c"  key 1-6: "d" }
    }
    """
    result = parse_text(text, "k.chart")
    assert result.errors == []
    chart = result.source.charts[0]
    assert chart.slug.text == "rule"
    assert [r.keys[0].text for r in chart.rows] == ["rows", "table", "roll", "key"]


@pytest.mark.parametrize("word", ["key", "rows", "roll", "column", "bands", "when"])
def test_a_keyword_is_a_slug_after_a_chart_id(word: str) -> None:
    # `[T1]` followed by a slug: the ID's rule is the declaration's own, so only a slug or title
    # can follow it and the keyword is read as a name (a shared rule made `key` the keyword there)
    text = f'chart [T1] {word} "T" {{ roll 1d6 rows {{ 1-6: "x" }} }}\ndrms [T2] {word}2 "D" {{ }}\n'
    text += f'external [T3] {word} "E"\nodds [T4] {word} "O" {{ }}\n'
    result = parse_text(text, "k.chart")
    assert result.errors == []
    assert result.source.charts[0].slug is not None and result.source.charts[0].slug.text == word


def test_a_keyword_where_only_a_name_fits_says_so() -> None:
    # after a chart-reference value, `column` is still read as the keyword (a fact's `[B6] column`)
    text = 'chart x "X" { key k column result: text rows { a: [B6]\n column: "x" } }'
    [error] = parse_text(text, "k.chart").errors
    assert error.message == (
        "`column` is a keyword of the chart language and cannot be a name here while reading chart `x`"
    )
    assert error.help == "choose a name that is not a keyword, e.g. `my_column`"
    assert (error.span.line, error.span.col) == (2, 2)


def test_keywords_after_values_and_keys_of_rows_stay_names() -> None:
    # errata and invariant words (`because`, `note`, `change`, `is`, `as`) after a row's value
    words = ["because", "note", "change", "remove", "complete", "is", "as", "to"]
    rows = "  ".join(f'{w} 1-6: "v"' for w in words)
    text = f'enum k {{ {" ".join(words)} }}\nchart x "X" {{ roll 1d6 key k column result: text rows {{ {rows} }} }}'
    result = parse_text(text, "k.chart")
    assert result.errors == []
    assert [r.keys[0].text for r in result.source.charts[0].rows] == words


def test_every_node_has_a_span() -> None:
    text = 'chart [R4] escape "Escape Chart" {\n  roll 1d6\n  rows {\n    3-6: "Combat"\n  }\n}\n'
    chart = parse_text(text, "e.chart").source.charts[0]
    row = chart.rows[0]
    assert row.range == ast.RangeText("3-6", ast.Span("e.chart", 4, 5, 4, 8))
    assert row.values[0].span == ast.Span("e.chart", 4, 10, 4, 18)
    assert chart.chart_id.span == ast.Span("e.chart", 1, 8, 1, 10)
    assert chart.span.line == 1 and chart.span.end_line == 6


def test_range_forms_keep_their_printed_text() -> None:
    text = 'chart x "X" { roll 1d10 column r: text rows { 01-08: "a" 9-0: "b" 12+: "c" 3-: "d" 5: "e" } }'
    rows = parse_text(text, "r.chart").source.charts[0].rows
    assert [r.range.text for r in rows] == ["01-08", "9-0", "12+", "3-", "5"]


def test_dice_forms() -> None:
    forms = {
        "1d6": ("sum", 1, 6),
        "2d6": ("sum", 2, 6),
        "d66": ("d66", 2, 6),
        "percentile": ("percentile", 2, 10),
        "lower of 2d10": ("lower", 2, 10),
        "1d6 minus 3 min 0": ("sum", 1, 6),
    }
    for text, (form, count, sides) in forms.items():
        dice = parse_text(f'chart x "X" {{ roll {text} }}', "d.chart").source.charts[0].roll
        assert (dice.form, dice.count, dice.sides) == (form, count, sides), text


def test_roll_steps_parse_in_the_order_written() -> None:
    # IA2 10.16: "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)", the +1 IFF drm on the roll
    text = 'chart x "X" { roll 1d6 then drms then minus 3 then minimum 0 then maximum 3 }'
    dice = parse_text(text, "d.chart").source.charts[0].roll
    assert [(s.kind, s.amount) for s in dice.steps] == [("drms", 0), ("add", -3), ("minimum", 0), ("maximum", 3)]
    more = 'chart x "X" { roll 2d6 then plus 2 then doubled then times 3 then halved round up then minimum -1 }'
    steps = parse_text(more, "d.chart").source.charts[0].roll.steps
    assert [s.text for s in steps] == ["plus 2", "doubled", "times 3", "halved round up", "minimum -1"]
    # the older spelling is the dice, the DRMs, minus K and minimum F (IA2 7.1.5)
    old = parse_text('chart x "X" { roll 1d6 minus 3 min 0 }', "d.chart").source.charts[0].roll
    assert [s.text for s in old.steps] == ["drms", "minus 3", "minimum 0"]
    # `then` steps may follow it, and a `roll ... when` keeps its steps for the checker (C343)
    both = parse_text('chart x "X" { roll 1d6 minus 3 min 0 then maximum 3 when fb }', "d.chart").source.charts[0]
    assert [s.text for s in both.roll_alternatives[0].dice.steps] == ["drms", "minus 3", "minimum 0", "maximum 3"]


def test_a_roll_step_without_its_number_or_rounding_is_a_syntax_error() -> None:
    minus = parse_text('chart x "X" { roll 1d6 then minus column r: int }', "d.chart").errors
    assert minus and minus[0].message == "unexpected `column` while reading chart `x`"
    # halving rounds as printed: the rounding is part of the step
    halved = parse_text('chart x "X" { roll 1d6 then halved column r: int }', "d.chart").errors
    expected = [("unexpected `column` while reading chart `x`", "expected `round`")]
    assert [(e.message, e.help) for e in halved] == expected


def test_conditions_parse_into_structure() -> None:
    text = 'chart x "X" { drm w "Weather" +1 when month in [1944-11, 1945-01] and not (fb or fatigue >= 5) [2] }'
    drm = parse_text(text, "c.chart").source.charts[0].drms[0]
    assert drm.value == 1 and drm.footnote == 2
    assert isinstance(drm.when, ast.CondAll)
    inside, negated = drm.when.parts
    assert isinstance(inside, ast.CondIn) and [o.text for o in inside.operands] == ["1944-11", "1945-01"]
    assert isinstance(negated, ast.CondNot) and isinstance(negated.inner, ast.CondAny)


def test_string_escapes_and_unicode() -> None:
    text = 'chart x "Caf\\u00e9 \\"quoted\\" ½ ✓" { }'
    assert parse_text(text, "s.chart").source.charts[0].title.text == 'Café "quoted" ½ ✓'


def test_strings_without_escapes_read_as_written_and_raw_cr_or_nul_stay_refused() -> None:
    # Strings without a backslash skip Python's literal parser; what it refuses must stay refused.
    plain = parse_text('chart x "Escape Chart ½ ✓ # not a comment\t\x0c" { }', "s.chart")
    assert plain.source.charts[0].title.text == "Escape Chart ½ ✓ # not a comment\t\x0c"
    for raw in ("\r", "\x00"):
        [error] = parse_text(f'chart x "a{raw}b" {{ }}', "s.chart").errors
        assert error.message == f'invalid escape in string "a{raw}b"' and error.span == ast.Span("s.chart", 1, 9, 1, 14)


def test_bom_and_crlf_are_accepted() -> None:
    text = '\ufeffchart x "X" {\r\n  roll 1d6\r\n}\r\n'
    result = parse_text(text.replace("\r\n", "\n"), "b.chart")
    assert result.errors == []


def _doc_examples() -> list[str]:
    """The chart-language examples of docs/language.md, each made a whole file."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    # chart-language blocks: fences without a language tag (```console blocks are terminal sessions)
    blocks = [text for tag, text in re.findall(r"^```(\w*)\n(.*?)^```", doc, flags=re.DOTALL | re.MULTILINE) if not tag]
    assert len(blocks) >= 8
    texts = []
    for block in blocks:
        text = block.replace("...", "")
        if text.lstrip().startswith(("drm ", "context ")):
            text = f'chart x "X" {{ {text} }}' if text.lstrip().startswith("drm") else text
        if text.lstrip().startswith('chart [R4] escape "Escape Chart" { ... }'):
            continue
        texts.append(text)
    return texts


def test_every_example_in_the_language_docs_parses() -> None:
    for text in _doc_examples():
        result = parse_text(text, "docs.chart")
        assert result.errors == [], (text, result.errors)


# ---- the typed syntax tree ---------------------------------------------------------------------


def test_amendments_are_one_class_per_operation() -> None:
    # The shape of charts/usaaf/errata.chart and docs/language.md "Errata": every operation once.
    text = """
    errata second "Second printing errata" {
      order 2
      amend [R4] {
        add jet 7+: "Escape" because "7+ was missing"
        remove piston 1-2
        change piston 3-6 column result to "Combat" because "typo"
        move jet 1-6 to 1-5
        retitle "Escape Chart"
        complete because "the 1945 rows were found"
        note "see rule 7.1.10"
      }
    }
    """
    [amend] = parse_text(text, "e.chart").source.errata[0].amends
    add, remove, change, move, retitle, complete, note = amend.ops
    assert isinstance(add, ast.AddRow) and add.row.range.text == "7+" and add.because.text == "7+ was missing"
    assert (
        isinstance(remove, ast.RemoveRow)
        and [k.text for k in remove.ref.keys] == ["piston"]
        and remove.ref.range.text == "1-2"
    )
    assert remove.because is None
    assert isinstance(change, ast.ChangeCell) and change.column.text == "result"
    assert (change.value.kind, change.value.text) == (ast.ValueKind.TEXT, "Combat")
    assert isinstance(move, ast.MoveRow) and (move.ref.range.text, move.new_range.text) == ("1-6", "1-5")
    assert isinstance(retitle, ast.Retitle) and retitle.title.text == "Escape Chart"
    assert isinstance(complete, ast.Complete) and complete.because.text == "the 1945 rows were found"
    assert isinstance(note, ast.AddNote) and note.text.text == "see rule 7.1.10"
    assert note.span == ast.Span("e.chart", 11, 9, 11, 31)


def test_invariants_are_one_class_per_kind() -> None:
    # charts/ia2/reference.chart (IA2 9.1: "Bf 109 (18 aircraft)") and charts/usaaf/targets.chart (20.1).
    text = """
    invariant bf109_18 "9.1" { count aircraft where family == bf109 is 18 }
    invariant bases "4.6" { count base is 36 }
    invariant reach "20.1" { sum [TS1] part 2 per column reaches target_system.points_needed }
    """
    where, every, column_sum = parse_text(text, "i.chart").source.invariants
    assert isinstance(where, ast.CountInvariant) and (where.enum.text, where.count) == ("aircraft", 18)
    [test] = where.where
    assert (test.field.text, test.op, test.value.text) == ("family", ast.CompareOp.EQ, "bf109")
    assert test.span == ast.Span("i.chart", 2, 53, 2, 68)  # `family == bf109`
    assert isinstance(every, ast.CountInvariant) and every.where == () and every.count == 36
    assert isinstance(column_sum, ast.ColumnSumInvariant)
    assert (column_sum.chart.text, column_sum.part, column_sum.enum.text, column_sum.field.text) == (
        "TS1",
        2,
        "target_system",
        "points_needed",
    )


def test_kinds_are_enums_that_still_equal_their_words() -> None:
    text = """
    odds crt_odds "Odds" {
      columns ["1:1", "2:1"] attacker_high round down defender_high round nearest beyond clamp shift after clamp
    }
    chart x "X" { roll lower of 2d10 column r: text drm d +1 when fatigue >= 5 rows { 1944-07..1944-09 1-10: - } }
    """
    source = parse_text(text, "k.chart").source
    odds, chart = source.odds[0], source.charts[0]
    assert (odds.attacker_round, odds.defender_round) == (ast.Rounding.DOWN, ast.Rounding.NEAREST)
    assert (odds.beyond, odds.shift_order) == (ast.Beyond.CLAMP, ast.ShiftOrder.AFTER)
    assert chart.kind is ast.ChartKind.CHART and chart.kind == "chart"
    assert chart.roll.form is ast.DiceForm.LOWER and chart.roll.form == "lower"
    cond = chart.drms[0].when
    assert (
        isinstance(cond, ast.CondCompare) and cond.op is ast.CompareOp.GE and cond.operand.kind is ast.OperandKind.INT
    )
    row = chart.rows[0]
    assert row.keys[0].kind is ast.KeyValueKind.MONTHS and (row.keys[0].first, row.keys[0].last) == (
        "1944-07",
        "1944-09",
    )
    assert row.values[0].kind is ast.ValueKind.NONE


def test_a_statement_given_twice_keeps_the_first_and_reports_the_second() -> None:
    # Before: an odds rule's `beyond error ... beyond clamp` kept the later `clamp` and reported the
    # first line, because the two spellings were looked up in grammar order, not source order.
    text = 'odds o "O" {\n  beyond error\n  beyond clamp\n  rule "15.1"\n  rule "15.2"\n}\n'
    odds = parse_text(text, "o.chart").source.odds[0]
    assert odds.beyond == ast.Beyond.ERROR and odds.rule.text == "15.1"
    assert [s.line for s in odds.repeated] == [3, 5]
    chart = parse_text('chart x "X" {\n roll 1d6\n rule "a"\n roll 2d6\n rule "b"\n}\n', "c.chart").source.charts[0]
    assert (chart.roll.text, chart.rule.text) == ("1d6", "a")
    assert [s.line for s in chart.repeated] == [4, 5]


# ---- limits on input: numbers and strings (issue 11 items 4 and 7) -----------------------------------

HUGE = "7" * 4301  # Python refuses to read an integer string over 4,300 digits
GAME = 'game t { title "T" }\ncontext fb: flag\ncontext lvl: int\nenum e { fields { n: int } a "A" { n: 1 } }\n'
INTEGER_SITES = {
    "cell": 'chart [R1] "X" { roll 1d6 column r: int rows { 1-6: N } }',
    "range bound": 'chart [R1] "X" { roll 1d6 column r: text rows { 1-N: "a" } }',
    "zero-padded range bound": 'chart [R1] "X" { roll percentile column r: text rows { 0N-00: "a" } }',
    "DRM value": 'chart [R1] "X" { roll 1d6 column r: text drm d +N when fb rows { 1-6: "a" } }',
    "DRM footnote mark": 'chart [R1] "X" { roll 1d6 column r: text drm d +1 when fb [N] rows { 1-6: "a" } }',
    "footnote number": 'chart [R1] "X" { roll 1d6 column r: text footnote N "f" rows { 1-6: "a" } }',
    "dice count": 'chart [R1] "X" { roll Nd6 column r: text rows { 1-6: "a" } }',
    "dice sides": 'chart [R1] "X" { roll lower of 2dN column r: text rows { 1-6: "a" } }',
    "dice minus": 'chart [R1] "X" { roll 1d6 minus N min 0 column r: text rows { 0-3: "a" } }',
    "condition operand": 'chart [R1] "X" { roll 1d6 column r: text drm d +1 when lvl >= N rows { 1-6: "a" } }',
    "slashed cell": 'chart [R1] "X" { roll 1d6 column r: pair rows { 1-6: 6/N } }',
    "value key domain": 'chart [V1] "V" { value v "V" 0-N column r: text rows { 0+: "a" } }',
    "combine clamp": 'drms [D1] "D" { drm d +1 when fb combine sum clamp -N to +2 }',
    "derive bands": 'chart [R1] "X" { roll 1d6 column r: text rows { 1-6: "a" } }\n'
    'chart [R2] "Y" { derive from R1 bands +N }',
    "grid cell": 'chart [G1] "G" { roll 1d6 key k: e column r: text grid k [a] { "x": N } }',
    "availability cell": 'chart [A1] "A" { roll 1d6 key k: e availability k by k [a] { a: 1-N } }',
    "errata order": 'errata e1 "E" { order N }',
    "count is N": 'invariant i "I" { count e is N }',
    "count where value": 'invariant i "I" { count e where n == N is 1 }',
    "column sum part": 'invariant i "I" { sum R1 part N per column reaches e.n }',
}


@pytest.mark.parametrize("site", INTEGER_SITES, ids=str)
def test_a_number_too_long_is_a_positioned_syntax_error_at_every_integer_site(site: str, tmp_path: Path) -> None:
    # Before: `int()` raised ValueError (over 4,300 digits) in the parser or the resolver: exit 3.
    text = GAME + INTEGER_SITES[site].replace("N", HUGE)
    [d] = compile_text(tmp_path, text).diagnostics
    digits = next(m for m in re.finditer("[0-9]+", text) if HUGE in m.group())  # `0777...` when zero-padded
    line = text.count("\n", 0, digits.start()) + 1
    col = digits.start() - text.rfind("\n", 0, digits.start())
    assert (d.code, d.span.line, d.span.col, d.span.end_col) == ("C101", line, col, col + len(digits.group()))
    assert d.message.startswith(
        f"the number `{digits.group()[:39]}…` is too long ({len(digits.group())} digits, at most 9)"
    )
    assert d.help == "a whole number in a chart has at most 9 digits; check for a missing `-`, `,` or space"


def test_numbers_up_to_nine_digits_are_read() -> None:
    ok = parse_text('chart x "X" { footnote 999999999 "f" drm d -000000001 }', "n.chart")
    assert ok.errors == [] and ok.source.charts[0].footnotes[0].mark == 999_999_999
    [too_long] = parse_text('chart x "X" {\n  footnote 1000000000 "f"\n}', "n.chart").errors
    assert too_long.message == "the number `1000000000` is too long (10 digits, at most 9) while reading chart `x`"
    assert too_long.span == ast.Span("n.chart", 2, 12, 2, 22)


def test_a_long_string_costs_memory_linear_in_its_length_with_a_small_factor() -> None:
    # Before: the STRING terminal's regex kept backtracking state per character: ~150 bytes of
    # memory per byte of string (a 50 MB title took 12.7 GB). Now the parse holds a few copies.
    import tracemalloc

    length = 1_000_000
    text = 'chart x "' + "a" * length + '" { }\n'
    parse_text("", "warm.chart")  # build the parser outside the measurement
    tracemalloc.start()
    try:
        result = parse_text(text, "s.chart")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.errors == [] and len(result.source.charts[0].title.text) == length
    assert peak < 12 * length, f"{peak / length:.0f} bytes per byte of string"


def test_grammar_string_terminal_is_possessive_and_collision_free() -> None:
    # interegular (strict mode's collision check) cannot read possessive quantifiers and skips such
    # a terminal, so check the backtracking twin of STRING, which matches the same strings.
    from lark import Lark

    grammar = grammar_text()
    assert '/"(?:[^"\\\\\\n]++|\\\\.)*+"/' in grammar
    twin = grammar.replace("]++|", "]+|").replace(")*+", ")*")
    Lark(twin, parser="lalr", lexer="contextual", strict=True)


# ---- the saved parser (no grammar build at start-up) ---------------------------------------------


def test_the_saved_parser_is_reused_and_a_changed_grammar_gets_its_own(tmp_path: Path) -> None:
    from dsl.parser import _PARSER_OPTIONS
    from dsl.parser_cache import _load, cached_parser

    escape = 'chart [R4] escape "Escape Chart" { roll 1d6 rows { 3-6: "Combat" } }'
    built = cached_parser(grammar_text(), _PARSER_OPTIONS, tmp_path)
    [saved] = tmp_path.iterdir()
    loaded = _load(saved)
    assert loaded is not None and loaded.parse(escape) == built.parse(escape)
    assert saved.stat().st_mode & 0o777 == 0o600 and tmp_path.stat().st_mode & 0o022 == 0
    cached_parser(grammar_text() + "\n// a comment changes the grammar text\n", _PARSER_OPTIONS, tmp_path)
    assert len(list(tmp_path.iterdir())) == 2, "a changed grammar must not load the old parser"


def test_a_cache_folder_that_cannot_be_written_still_parses(tmp_path: Path) -> None:
    from dsl.parser import _PARSER_OPTIONS
    from dsl.parser_cache import cached_parser

    (tmp_path / "home").write_text("a file where the cache folder would be")
    parser = cached_parser(grammar_text(), _PARSER_OPTIONS, tmp_path / "home" / "chartc")
    assert parser.parse('chart x "X" { }').children[0].data == "chart"


def test_a_saved_parser_others_could_have_written_is_not_loaded(tmp_path: Path) -> None:
    # A saved parser is a pickle: loading one someone else wrote would run their code.
    from dsl.parser import _PARSER_OPTIONS
    from dsl.parser_cache import _load, cached_parser

    cached_parser(grammar_text(), _PARSER_OPTIONS, tmp_path)
    [saved] = tmp_path.iterdir()
    saved.chmod(0o666)
    assert _load(saved) is None
    saved.chmod(0o600)
    tmp_path.chmod(0o777)
    assert _load(saved) is None
    tmp_path.chmod(0o700)
    saved.write_bytes(saved.read_bytes()[:1000])  # truncated: rebuilt, not a crash
    assert _load(saved) is None
    cached_parser(grammar_text(), _PARSER_OPTIONS, tmp_path)
    assert _load(saved) is not None


# ---- the syntax tree built during the parse (dsl/callbacks.py) ----------------------------------
# The builder's methods are called as the LALR parser reduces each rule, with the children and
# the extent Lark's parse tree (`propagate_positions`) would give that rule's node: every span
# of every diagnostic comes from them.


class _Mirror:
    """A builder that returns each rule as `(name, extent, children)`: the tree the callbacks see."""

    def __getattr__(self, name: str) -> object:
        if name.isupper():  # terminals stay tokens
            raise AttributeError(name)
        return lambda meta, *children: (name, meta, children)


def _as_mirror(node: object) -> object:
    """Lark's parse tree in `_Mirror`'s shape: the rule, its meta's extent and its children."""
    from lark import Tree

    if not isinstance(node, Tree):
        return node  # a token, or the None of an absent `[...]`
    m = node.meta
    extent = None if m.empty else (m.line, m.column, m.end_line, m.end_column)
    return (node.data, extent, tuple(_as_mirror(c) for c in node.children))


def _callbacks_see_the_parse_tree(texts: list[str]) -> None:
    from dsl import parser
    from dsl.callbacks import Nesting, make_callbacks, parse

    lark = parser._parser()
    nesting = Nesting(frozenset(), 10**6, frozenset(), 10**6)
    callbacks = make_callbacks(lark, _Mirror(), nesting)  # type: ignore[arg-type]
    for text in texts:
        text = text.removeprefix("\ufeff")
        assert parse(lark, callbacks, text) == _as_mirror(lark.parse(text)), text[:200]


def test_the_callbacks_see_the_rules_and_extents_of_the_parse_tree() -> None:
    # the examples of every construct in docs/language.md; IA2's errata (amendments with and
    # without a range or a reason); the USAAF odds (15.1) and formulas (22.2-22.4); Stuka
    # Leader's chained results
    charts = Path(__file__).parent.parent / "charts"
    files = ["ia2/errata.chart", "usaaf/odds.chart", "usaaf/movement.chart", "stuka_leader/reference.chart"]
    _callbacks_see_the_parse_tree([*_doc_examples(), *((charts / f).read_text(encoding="utf-8") for f in files)])


@pytest.mark.slow
def test_the_callbacks_see_the_parse_tree_of_every_chart_and_case() -> None:
    root = Path(__file__).parent.parent

    def parses(path: Path) -> bool:
        try:
            return parse_text(path.read_text(encoding="utf-8"), path.name).source is not None
        except UnicodeDecodeError:  # the cases of unreadable files
            return False

    cases = [p for p in sorted((root / "tests" / "cases").glob("*.chart")) if parses(p)]
    paths = [*sorted((root / "charts").rglob("*.chart")), *cases]
    _callbacks_see_the_parse_tree([p.read_text(encoding="utf-8") for p in paths])


def test_a_syntax_error_anywhere_is_reported_before_a_number_too_long_or_nesting_too_deep() -> None:
    # One syntax error stops the file (DESIGN: collect diagnostics, one syntax error stops that
    # file only): what the parse finds wins over what the builder refuses, wherever each is.
    deep = "not " * (MAX_NESTING + 1)
    number_first = 'chart x "X" {\n  footnote 1000000000 "f"\n  roll 1d6 }\n}\n'
    [error] = parse_text(number_first, "n.chart").errors
    assert error.message == "unexpected `}` while reading chart `x`" and error.span == ast.Span("n.chart", 4, 1, 4, 2)
    deep_first = f'chart x "X" {{\n  drm d +1 when {deep}a\n  footnote 1000000000 "f"\n}}\n}}\n'
    [error] = parse_text(deep_first, "d.chart").errors
    assert error.message == "unexpected `}` while reading chart `x`" and error.span == ast.Span("d.chart", 5, 1, 5, 2)


def test_nesting_too_deep_is_reported_before_a_number_too_long_before_or_after_it() -> None:
    deep = "not " * (MAX_NESTING + 1)
    for text, line in (
        (f'chart x "X" {{\n  footnote 1000000000 "f"\n  drm d +1 when {deep}a\n}}\n', 3),
        (f'chart x "X" {{\n  drm d +1 when {deep}a\n  footnote 1000000000 "f"\n}}\n', 2),
    ):
        [error] = parse_text(text, "d.chart").errors
        assert error.message == f"this condition is nested more than {MAX_NESTING} levels deep", text
        # the condition inside 51 `not`s: the flag `a`, after `  drm d +1 when ` and the `not `s
        col = len("  drm d +1 when ") + 4 * (MAX_NESTING + 1) + 1
        assert error.span == ast.Span("d.chart", line, col, line, col + 1)
    ok = f'chart x "X" {{\n  drm d +1 when {"not " * MAX_NESTING}a\n}}\n'
    assert parse_text(ok, "d.chart").errors == []


def test_a_span_orders_by_position_prints_as_file_line_col_and_is_replaced_field_by_field() -> None:
    import dataclasses

    span = ast.Span("r.chart", 3, 7, 3, 10)
    assert span < ast.Span("r.chart", 3, 8, 3, 9) and str(span) == "r.chart:3:7"
    assert dataclasses.replace(span, col=1) == ast.Span("r.chart", 3, 1, 3, 10)
