"""Fixes as data (`compiler.diagnostics.fixes`): every fix of a diagnostic example resolves its
finding, and applying edits is exact at the edges (overlaps, end of file, CRLF, astral characters).

The cases are tests/cases (one bad chart per code, `chartc check` on `charts/t/case.chart`): each
finding there that carries a fix is fixed alone, and the file must then parse and no longer report
that finding.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler.build.project import Compilation
from compiler.diagnostics import Applicability, Diagnostic, Edit, Fix, Slot, render_short
from compiler.diagnostics.fixes import apply_fixes, delete, insert_after, open_ends, rename, resolved_edits, token
from dsl.builder import unquote
from dsl.parser import parse_text
from dsl.shared import Span
from dsl.source_text import quote
from tests.conftest import CASES, compile_files, compile_text

BAD = sorted(p for p in CASES.glob("c*.chart") if not p.name.endswith(".ok.chart"))

# The codes whose example in tests/cases carries a fix, and how far it may be trusted: a change here
# is a decision about a code (see docs/cli.md, "Output formats and fixes").
FIXED_IN_CASES = {
    "C101": {Applicability.SAFE},  # `3---6` -> `3-6`
    "C103": {Applicability.UNSAFE},  # the repeated statement deleted (which one was meant is a guess)
    "C201": {Applicability.UNSAFE},  # did you mean `piston`?
    "C203": {Applicability.UNSAFE},  # `game t` (or rename the folder)
    "C303": {Applicability.UNSAFE},  # an open end
    "C304": {Applicability.SAFE},  # the same rolls, low end first
    "C305": {Applicability.UNSAFE},  # an open end
    "C309": {Applicability.UNSAFE},  # the `partial "..."` statement deleted (its reason may say what was lost)
    "C310": {Applicability.UNSAFE},  # the row beyond a hole only a DRM reaches widened to it (`8+` -> `7+`)
    "C332": {Applicability.SAFE},  # a context range low end first; a range on a non-int deleted
    "C340": {Applicability.UNSAFE},  # `zero reads 0`
    "C341": {Applicability.UNSAFE},  # `zero reads` on dice without a d10 deleted
    "C412": {Applicability.UNSAFE},  # `-` for a month before the item is available
    "C413": {Applicability.UNSAFE},  # a `drm_meaning`
    "C416": {Applicability.SAFE},  # a chart listed twice in aid.order: the second line deleted
    "C419": {Applicability.SAFE},  # a turn span low end first (`2026-02-27 AM..2026-02-28 PM`)
    "C420": {Applicability.UNSAFE},  # `between columns lower`
    "C421": {Applicability.SAFE},  # `round` lines of a rule that rounds nothing
    "C450": {Applicability.UNSAFE},  # did you mean `side`?
    "C501": {Applicability.SAFE},  # an `allow` that silences nothing
    "C502": {Applicability.UNSAFE},  # did you mean `C430`? (the case meant C305: a guess indeed)
    "C451": {Applicability.UNSAFE},  # the chained cell without its DRM (the print may mean a DRM elsewhere)
    "C462": {Applicability.UNSAFE},  # the `contradicts` line deleted (the charts may agree only after an errata)
    "C470": {Applicability.DISPLAY_ONLY},  # `floor(...)`: where and how the rule rounds is the reader's call
    "C601": {Applicability.UNSAFE},  # did you mean `late_1944`? (a period an errata names)
    "C602": {Applicability.UNSAFE},  # `overrides e1`
}


def _case_files(case: Path) -> dict[str, bytes]:
    files = {"case.chart": case.read_bytes()}
    order = case.with_name(case.name.split(".")[0] + ".aid.order")
    if order.is_file():
        files["aid.order"] = order.read_bytes()
    return files


def _name(file: str) -> str:
    return file.rsplit("/", 1)[-1]


def _fixed(tmp_path: Path, files: dict[str, bytes], fix: Fix) -> Compilation:
    [file] = {_name(e.span.file) for e in fix.edits}
    text, taken = apply_fixes(files[file].decode("utf-8"), [fix])
    assert taken == [fix]
    return compile_files(tmp_path / "fixed", {**files, file: text.encode("utf-8")})


def _findings(comp: Compilation) -> set[tuple[str, str]]:
    return {(d.code, d.message) for d in comp.diagnostics}


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_every_fix_of_a_case_resolves_its_finding(case: Path, tmp_path: Path) -> None:
    files = _case_files(case)
    comp = compile_files(tmp_path, files)
    with_fix = [d for d in comp.diagnostics if d.fix is not None]
    assert {d.code for d in with_fix} <= set(FIXED_IN_CASES), [render_short(d) for d in with_fix]
    for d in with_fix:
        assert d.fix is not None and d.fix.applicability in FIXED_IN_CASES[d.code], (d.code, d.fix)
        after = _fixed(tmp_path / d.code, files, d.fix)
        for name, text in after.sources.items():
            if name.endswith(".chart"):
                assert parse_text(text, name).source is not None, f"{d.fix.message} broke {name}"
        assert (d.code, d.message) not in _findings(after), f"{render_short(d)} is still there after {d.fix.message}"


def test_the_cases_hold_an_example_of_every_fixed_code(tmp_path: Path) -> None:
    found: dict[str, set[Applicability]] = {}
    for i, case in enumerate(BAD):
        for d in compile_files(tmp_path / str(i), _case_files(case)).diagnostics:
            if d.fix is not None and d.code == "C" + case.name[1:4]:
                found.setdefault(d.code, set()).add(d.fix.applicability)
    assert found == FIXED_IN_CASES


# ---- fixes made where the finding is made ---------------------------------------------------------

HEADER = 'game t { title "T" }\nenum side { piston "Piston-engined" jet "Jet or Rocket" }\ncontext fb: flag\n'


def _only(comp: Compilation, code: str) -> Diagnostic:
    [d] = [d for d in comp.diagnostics if d.code == code]
    return d


def _apply(comp: Compilation, d: Diagnostic) -> str:
    assert d.fix is not None
    text, _ = apply_fixes(comp.sources[d.span.file], [d.fix])
    return text


def test_a_misspelt_label_is_replaced_by_the_label_quoted(tmp_path: Path) -> None:
    # the key value is written as the printed label; the closest spelling is a label, which a bare
    # word cannot say (the language server used to write `Piston-engined` bare, breaking the file)
    rows = 'rows { "Piston-engine" 1-6: "a" jet 1-6: "b" }'
    text = HEADER + f'chart [R4] "Escape" {{ roll 1d6 key side column r: text {rows} }}\n'
    comp = compile_text(tmp_path, text)
    d = _only(comp, "C201")
    assert d.fix is not None and d.fix.edits[0].text == '"Piston-engined"'
    assert d.fix.applicability is Applicability.UNSAFE
    assert compile_text(tmp_path / "fixed", _apply(comp, d)).diagnostics == []


def test_a_name_differing_only_in_case_is_a_safe_fix(tmp_path: Path) -> None:
    text = HEADER + 'chart [R4] "Escape" { roll 1d6 column r: text drm f +1 when FB rows { 1-6: "a" } }\n'
    d = _only(compile_text(tmp_path, text), "C201")
    assert d.fix is not None and d.fix.applicability is Applicability.SAFE and d.fix.edits[0].text == "fb"


def test_a_label_where_only_a_name_may_stand_gets_no_fix(tmp_path: Path) -> None:
    # `family.NAME.field` reads names only: `Piston-engined`, the closest spelling, cannot be written there
    text = HEADER.replace('enum side {', 'enum side { fields { n: int }') + (
        'invariant same_n "n" { same side.pistonengined.n as side.jet.n }\n'
    )
    comp = compile_text(tmp_path, text.replace('piston "Piston-engined"', 'piston "Piston-engined" { n: 1 }')
                        .replace('jet "Jet or Rocket"', 'jet "Jet or Rocket" { n: 1 }'))
    [d] = [d for d in comp.diagnostics if d.code == "C201"]
    assert d.help == "did you mean `Piston-engined`?" and d.fix is None


def test_a_bare_word_in_a_text_column_is_quoted_safely(tmp_path: Path) -> None:
    # USAAF-style cell typed without quotes: the text as written becomes a string
    text = HEADER + 'chart [R9] "Bombing" { roll 1d6 column r: text rows { 1-3: Miss 4-6: "Hit" } }\n'
    comp = compile_text(tmp_path, text)
    d = _only(comp, "C402")
    assert d.fix is not None and d.fix.applicability is Applicability.SAFE and d.fix.edits[0].text == '"Miss"'
    assert compile_text(tmp_path / "fixed", _apply(comp, d)).diagnostics == []


def test_a_backwards_month_span_is_written_forwards(tmp_path: Path) -> None:
    text = (
        'game t { title "T" calendar 1944-07 to 1945-05 }\n'
        'chart sorties "Sorties" { key month column n: int rows { 1944-07..1944-12: 8  1945-05..1945-01: 4 } }\n'
    )
    comp = compile_text(tmp_path, text)
    d = _only(comp, "C406")
    assert d.fix is not None and d.fix.edits[0].text == "1945-01..1945-05"
    assert compile_text(tmp_path / "fixed", _apply(comp, d)).diagnostics == []


def test_a_chained_key_value_is_fixed_with_its_key(tmp_path: Path) -> None:
    # C450 points at the whole `key=value`: the fix rewrites both, the value as a token (a label quoted)
    text = HEADER + (
        'chart [B] "Pursuit" { key side column r: text rows { piston: "p" jet: "j" } }\n'
        'chart [A] "Encounter" { roll 1d6 column r: text rows { 1-6: -> [B] (side="Jet or Rocke") } }\n'
    )
    comp = compile_text(tmp_path, text)
    d = _only(comp, "C450")
    assert d.fix is not None and d.fix.edits[0].text == 'side="Jet or Rocket"'
    assert compile_text(tmp_path / "fixed", _apply(comp, d)).diagnostics == []


def test_an_open_end_is_not_offered_on_a_derived_chart(tmp_path: Path) -> None:
    # the derived chart's ranges are its base's spans with moved numbers: an edit there would
    # rewrite the base chart
    text = HEADER + (
        'chart [R1] "Base" { roll 1d6 column r: text drm f +1 when fb rows { 1-2: "a" 3-4: "b" 5-6: "c" } }\n'
        'chart [R2] "Shifted" { derive from [R1] bands +1 }\n'
    )
    comp = compile_text(tmp_path, text)
    off = {d.message.rsplit("`", 2)[-2]: d.fix for d in comp.diagnostics if d.code == "C305"}
    assert set(off) == {"R1", "R2"}, [render_short(d) for d in comp.diagnostics]
    assert off["R1"] is not None and [e.text for e in off["R1"].edits] == ["5+"]
    assert off["R2"] is None


# ---- the token written into a chart --------------------------------------------------------------


@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=30))
def test_quote_reads_back_as_the_text(text: str) -> None:
    written = quote(text)
    assert re.fullmatch(r'"(?:[^"\\\n]|\\.)*"', written), written  # the grammar's STRING terminal
    assert unquote(written, Span("f", 1, 1, 1, 1)) == text


def test_a_token_fits_its_place() -> None:
    assert token(Slot.VALUE, "piston") == "piston"
    assert token(Slot.VALUE, "Jet or Rocket") == '"Jet or Rocket"'
    assert token(Slot.STRING, "Miss") == '"Miss"'
    assert token(Slot.NAME, "Jet or Rocket") is None
    assert token(Slot.CHART, "R4") == "R4"
    assert token(Slot.CHART, "B-6") is None  # an ID only brackets may hold, where a slug may stand too
    assert token(Slot.CHART_REF, "B-6") == "[B-6]"
    assert token(Slot.RAW, "3+") == "3+"
    assert token(Slot.RAW, "two\nlines") is None


# ---- applying edits ------------------------------------------------------------------------------


def _replace(line: int, col: int, end_col: int, text: str, message: str = "m") -> Fix:
    return Fix(message, (Edit(Span("f", line, col, line, end_col), text),), Applicability.SAFE)


def test_overlapping_fixes_the_first_wins_the_rest_wait() -> None:
    first, second, third = _replace(1, 1, 4, "abc"), _replace(1, 3, 6, "xyz"), _replace(1, 7, 8, "!")
    text, taken = apply_fixes("123456789", [first, second, third])
    assert text == "abc456!89" and taken == [first, third]
    # the next pass, on the text the first left, takes the one that waited
    assert apply_fixes(text, [second]) == ("abxyz6!89", [second])


def test_a_fix_is_applied_whole_or_not_at_all() -> None:
    both = Fix("m", (Edit(Span("f", 1, 1, 1, 2), "A"), Edit(Span("f", 1, 5, 1, 6), "E")), Applicability.SAFE)
    blocker = _replace(1, 5, 6, "5")
    text, taken = apply_fixes("12345", [blocker, both])
    assert (text, taken) == ("12345", [blocker])  # nothing of `both` was applied


def test_two_insertions_at_one_place_do_not_both_apply() -> None:
    a, b = _replace(1, 3, 3, "a"), _replace(1, 3, 3, "b")
    assert apply_fixes("1234", [a, b]) == ("12a34", [a])


def test_edits_at_the_end_of_the_file() -> None:
    # a span past the last line's end is the end of the text; a file without a final line end
    assert apply_fixes("ab\ncd", [_replace(2, 3, 3, "e")])[0] == "ab\ncde"
    assert apply_fixes("ab\ncd", [_replace(2, 3, 99, "X")])[0] == "ab\ncdX"
    assert apply_fixes("ab\ncd\n", [_replace(3, 1, 1, "ef\n")])[0] == "ab\ncd\nef\n"
    # deleting the whole last line (no line end after it) leaves the text before it
    last = delete(Span("f", 2, 1, 2, 3), "cd", Applicability.SAFE)
    assert apply_fixes("ab\ncd", [last])[0] == "ab\n"


def test_crlf_files_keep_their_line_ends() -> None:
    # spans count a CRLF as one line end, as the parser (which reads it as LF) does
    text = 'game t {\r\n  allow C305 "x"\r\n  title "T"\r\n}\r\n'
    gone = delete(Span("f", 2, 3, 2, 17), "`allow C305`", Applicability.SAFE)
    added = insert_after(Span("f", 3, 3, 3, 12), '\n  source "S"', Applicability.SAFE, separator="")
    fixed, _ = apply_fixes(text, [gone, added])
    assert fixed == 'game t {\r\n  title "T"\r\n  source "S"\r\n}\r\n'


def test_a_lone_cr_ends_a_line_too() -> None:
    assert apply_fixes("ab\rcd\r", [_replace(2, 1, 3, "XY")])[0] == "ab\rXY\r"


def test_astral_characters_are_one_column() -> None:
    # `𝔄` (U+1D504) is one column for chartc (and two UTF-16 units for an editor)
    text = 'title "𝔄 Zürich" pistn'
    col = text.index("pistn") + 1
    assert col == 18
    assert apply_fixes(text, [_replace(1, col, col + 5, "piston")])[0] == 'title "𝔄 Zürich" piston'


def test_a_byte_order_mark_is_kept_and_not_counted() -> None:
    assert apply_fixes("\ufeffab cd", [_replace(1, 4, 6, "XY")])[0] == "\ufeffab XY"


def test_a_deletion_takes_one_blank_with_it_or_its_whole_line() -> None:
    inline = delete(Span("f", 1, 10, 1, 24), "`allow C305`", Applicability.SAFE)
    assert apply_fixes('roll 1d6 allow C305 "x" rows', [inline])[0] == "roll 1d6 rows"
    alone = delete(Span("f", 2, 3, 2, 17), "`allow C305`", Applicability.SAFE)
    assert apply_fixes('a\n  allow C305 "x"  \nb\n', [alone])[0] == "a\nb\n"
    assert resolved_edits('a\n  allow C305 "x"  \nb\n', alone) == [Edit(Span("f", 2, 1, 3, 1), "")]


def test_fix_helpers() -> None:
    span = Span("f", 1, 1, 1, 6)
    assert rename(span, "pistn", "piston", Slot.VALUE, ["piston", "jet"]) == Fix(
        "replace `pistn` with `piston`", (Edit(span, "piston"),), Applicability.UNSAFE
    )
    same = rename(span, "late-1944", "late_1944", Slot.VALUE, ["late_1944", "y1945"])
    assert same is not None and same.applicability is Applicability.SAFE
    # `FB` could be `fb` or `Fb`: the one chosen is a guess
    both = rename(span, "FB", "fb", Slot.NAME, ["fb", "Fb"])
    assert both is not None and both.applicability is Applicability.UNSAFE
    assert rename(span, "pistn", None, Slot.VALUE, ["piston"]) is None
    chart = Span("f", 1, 1, 9, 2)
    high = open_ends([(Span("f", 2, 5, 2, 8), "3-6"), (Span("f", 3, 5, 3, 8), "3-6")], True, chart)
    assert high is not None and [e.text for e in high.edits] == ["3+", "3+"]
    low = open_ends([(Span("f", 2, 5, 2, 10), "01-08")], False, chart)
    assert low is not None and [e.text for e in low.edits] == ["08-"]
    assert open_ends([(Span("g", 2, 5, 2, 8), "3-6")], True, chart) is None  # outside the chart
    assert open_ends([(Span("f", 2, 5, 2, 7), "5+")], True, chart) is None  # already open
