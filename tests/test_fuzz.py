"""Fuzzing: no input, however broken, makes chartc raise; every finding is positioned.

The default run is bounded (a few seconds of CPU): the truncation and token-mutation tests compile
the damaged file with the game header only (`game.chart`), truncate at a sample of lines, and each
hypothesis test tries `DEFAULT_EXAMPLES` inputs. The exhaustive versions, which compile the damaged
file with all of IA2's files at every line, and each hypothesis test again at `EXAMPLES` inputs
(the `_full` tests), are marked `slow` (`pytest -m slow`, a step of `.ci/run`). A longer run:

    CHARTC_FUZZ_EXAMPLES=2000 pytest -m slow tests/test_fuzz.py   # more hypothesis examples per test
    CHARTC_FUZZ_LONG=1 pytest -m slow tests/test_fuzz.py    # adds the 10 MB many-charts file

Seed inputs live in tests/fuzz_corpus/ (run on every pass); add each input a fuzz run finds there.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import tempfile
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.build.project import Compilation
from compiler.build.render import render_outputs
from compiler.build.validate import validate_json
from compiler.diagnostics import render_github, render_human, render_json, render_sarif, render_short
from tests.conftest import CHARTS
from tests.conftest import compile_files as compile_in

EXAMPLES = int(os.environ.get("CHARTC_FUZZ_EXAMPLES", "100"))
DEFAULT_EXAMPLES = min(EXAMPLES, 25)  # issue 29: the default run's CPU budget; the slow run tries EXAMPLES
LONG = bool(os.environ.get("CHARTC_FUZZ_LONG"))
CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("CHARTC_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], database=None)
FUZZ_DEFAULT = settings(FUZZ, max_examples=DEFAULT_EXAMPLES)
REAL = {p.name: p.read_bytes() for p in sorted((CHARTS / "ia2").glob("*.chart"))}
HEADER = "game.chart"  # the game header, calendar, periods and enums every other IA2 file uses
# The IA2 files that use names declared in files other than the header (enums, charts, errata
# targets): with the header alone they have errors; every other file compiles and renders.
# prose_tables.chart (issue 15) reads enums declared in the other files
NEEDS_OTHER_FILES = {
    "awards.chart",
    "bomber_combat.chart",
    "choices.chart",
    "conflicts.chart",
    "equipment.chart",
    "errata.chart",
    "examples.chart",
    "fighter_combat.chart",
    "limits.chart",
    "modes.chart",
    "optional.chart",
    "prose_tables.chart",
    "reassignment.chart",
    "sequence.chart",
    "setup.chart",
}
TRUNCATION_STRIDE = 50  # every 50th line (and the last) by default (issue 29: was 25); `slow`: slow_truncations
LANGUAGE_ALPHABET = [*'chartgmeroly{}[]":,|*-+#\\ \t\r\n0123456789dkCvw=<>!()', "\ufeff", "\u202e", "é"]
TOKEN = re.compile(rb'\s+|"(?:[^"\\\n]|\\.)*"|[A-Za-z0-9_]+|[^A-Za-z0-9_\s]')


def compile_files(files: dict[str, bytes], render: bool = True, game: str = "t") -> Compilation:
    """Compile `files` as the game folder `game` and assert chartc's robustness contract on the result."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        # rendering reads the game folder's aid.order through the charts' relative paths: inside
        # the temporary folder, so that the real charts/ia2/aid.order is not read for the copy
        comp = compile_in(Path(tmp), files, game)
        assert_positioned(comp, game)
        if render and not comp.has_errors:
            assert_outputs_render(comp)
    return comp


def assert_positioned(comp: Compilation, game: str = "t") -> None:
    """Every finding names a real file, a line inside it and a column >= 1; every renderer copes."""
    line_counts = {path: text.count("\n") + 1 for path, text in comp.sources.items()}
    for d in comp.diagnostics:
        assert d.span.file.startswith(f"charts/{game}/"), d
        assert d.span.line >= 1 and d.span.col >= 1, d
        assert d.span.file not in line_counts or d.span.line <= line_counts[d.span.file], d
        render_human(d, comp.sources)
        render_short(d)
        render_github(d)
    json.loads(render_json(comp.diagnostics, comp.suppressed))
    json.loads(render_sarif(comp.diagnostics, comp.suppressed))


def assert_outputs_render(comp: Compilation) -> None:
    for rel, text in render_outputs(comp.project).items():
        if rel.endswith(".py"):
            compile(text, rel, "exec")
        elif rel.endswith(".json"):
            validate_json(text)


def assert_reported(comp: Compilation) -> None:
    """Input that is not a valid game gets at least one finding (a missing header is one)."""
    assert comp.diagnostics, "broken input passed without a single finding"


# ---- seeds ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", sorted(CORPUS.iterdir()), ids=lambda p: p.name)
def test_corpus_seed(seed: Path) -> None:
    comp = compile_files({"a.chart": seed.read_bytes()})
    if not seed.name.startswith(("bom.", "crlf.", "tabs.", "nested_parens.", "nul_escape", "rtl_marks.")):
        assert_reported(comp)


def test_seeds_that_must_compile_clean_do() -> None:
    for name in ("bom.chart", "crlf.chart", "nested_parens.chart", "nul_escape_in_string.chart", "rtl_marks.chart"):
        comp = compile_files({"a.chart": (CORPUS / name).read_bytes()})
        assert not comp.has_errors, (name, [render_short(d) for d in comp.diagnostics])


def test_crlf_and_tabs_keep_columns() -> None:
    comp = compile_files({"a.chart": (CORPUS / "tabs.chart").read_bytes()})
    [d] = [d for d in comp.diagnostics if d.code == "C301"]
    assert (d.span.line, d.span.col) == (8, 3)
    [err] = compile_files({"a.chart": (CORPUS / "crlf_error.chart").read_bytes()}).diagnostics
    assert (err.code, err.span.line, err.span.col) == ("C101", 6, 9)


def test_non_utf8_is_positioned_at_the_byte() -> None:
    comp = compile_files({"a.chart": (CORPUS / "latin1.chart").read_bytes()})
    [d] = [d for d in comp.diagnostics if d.code == "C102"]
    assert (d.span.line, d.span.col) == (3, 16) and "0xE9" in d.message


def test_deep_not_nesting_is_a_syntax_error_not_a_crash() -> None:
    [d] = compile_files({"a.chart": (CORPUS / "nested_not.chart").read_bytes()}).diagnostics
    assert d.code == "C101" and "nested more than 50 levels" in d.message and d.span.line == 3


def test_10000_unclosed_parentheses_report_end_of_file() -> None:
    [d] = compile_files({"a.chart": (CORPUS / "nested_parens_unclosed.chart").read_bytes()}).diagnostics
    assert d.code == "C101" and "unexpected" in d.message and d.span.line == 3


def test_a_very_long_line_is_checked_and_excerpted_briefly() -> None:
    title = "x" * 2_000_000
    text = f'game t {{ title "T" }}\nchart [R1] "{title}" {{ roll 1d6 column r: text rows {{ 1-7: "a" }} }}\n'
    comp = compile_files({"a.chart": text.encode()})
    [d] = comp.diagnostics
    assert d.code == "C303" and d.span.col > 2_000_000
    assert max(len(line) for line in render_human(d, comp.sources).splitlines()) < 400


def test_a_10_mb_file_gets_a_positioned_diagnostic() -> None:
    body = ("# " + "c" * 97 + "\n") * 100_000
    chart = 'chart [R1] "X" { roll 1d6 column r: text rows { 1---6: "a" } }\n'
    data = ('game t { title "T" }\n' + body + chart).encode()
    assert len(data) > 10_000_000
    [d] = compile_files({"a.chart": data}).diagnostics
    assert d.code == "C101" and d.span.line == 100_002 and d.span.col == 51


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run only: set CHARTC_FUZZ_LONG=1")
def test_a_10_mb_file_of_real_charts() -> None:
    chart = 'chart [R{i}] "Chart {i}" {{ roll 1d6 column r: text drm d +1 when fb rows {{ 1-3: "a" 4-6: "b" }} }}\n'
    text = 'game t { title "T" }\ncontext fb: flag\n'
    charts = "".join(chart.format(i=i) for i in range(110_000))
    comp = compile_files({"a.chart": (text + charts).encode()}, render=False)
    assert len(text + charts) > 10_000_000
    assert [d.code for d in comp.diagnostics] == ["C305"] * 110_000


# ---- hypothesis ----------------------------------------------------------------------------------


@FUZZ_DEFAULT
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    assert_reported(compile_files({"a.chart": data}))


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_full(data: bytes) -> None:
    """`test_random_bytes` at `EXAMPLES` inputs: the slow run (issue 29's budget)."""
    test_random_bytes.hypothesis.inner_test(data)


@FUZZ_DEFAULT
@given(st.text(alphabet=st.sampled_from(LANGUAGE_ALPHABET), max_size=300))
def test_random_text_from_the_language_alphabet(text: str) -> None:
    assert_reported(compile_files({"a.chart": text.encode("utf-8", errors="surrogatepass")}))


@pytest.mark.slow
@FUZZ
@given(st.text(alphabet=st.sampled_from(LANGUAGE_ALPHABET), max_size=300))
def test_random_text_from_the_language_alphabet_full(text: str) -> None:
    """`test_random_text_from_the_language_alphabet` at `EXAMPLES` inputs: the slow run (issue 29's budget)."""
    test_random_text_from_the_language_alphabet.hypothesis.inner_test(text)


def _tokens(data: bytes) -> list[bytes]:
    return TOKEN.findall(data)


def with_header(name: str, data: bytes) -> dict[str, bytes]:
    """The damaged IA2 file `name` with the game header it needs, and nothing else of IA2."""
    return {HEADER: REAL[HEADER], name: data}


def with_all_files(name: str, data: bytes) -> dict[str, bytes]:
    """The damaged IA2 file `name` among all the other IA2 files, as a contributor's tree would be."""
    return {**REAL, name: data}


def _mutate(data, tokens: list[bytes]) -> bytes:
    for _ in range(data.draw(st.integers(1, 3))):
        op = data.draw(st.sampled_from(["delete", "duplicate", "swap"]))
        i = data.draw(st.integers(0, len(tokens) - 1))
        j = data.draw(st.integers(0, len(tokens) - 1))
        if op == "delete":
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        else:
            tokens[i], tokens[j] = tokens[j], tokens[i]
    return b"".join(tokens)


@FUZZ_DEFAULT
@given(st.data())
def test_token_mutations_of_the_real_charts(data) -> None:
    name = data.draw(st.sampled_from(sorted(REAL)))
    compile_files(with_header(name, _mutate(data, _tokens(REAL[name]))), game="ia2")


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_token_mutations_of_the_real_charts_full(data) -> None:
    """`test_token_mutations_of_the_real_charts` at `EXAMPLES` inputs: the slow run (issue 29's budget)."""
    test_token_mutations_of_the_real_charts.hypothesis.inner_test(data)


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_token_mutations_of_the_real_charts_among_all_files(data) -> None:
    name = data.draw(st.sampled_from(sorted(REAL)))
    compile_files(with_all_files(name, _mutate(data, _tokens(REAL[name]))), game="ia2")


def truncations(name: str, stride: int) -> list[int]:
    """The line counts to cut `name` at: every `stride`-th line, and the whole file."""
    count = len(REAL[name].splitlines())
    return sorted({*range(0, count, stride), count})


@pytest.mark.parametrize("name", sorted(REAL))
def test_truncation_of_the_real_charts(name: str) -> None:
    lines = REAL[name].splitlines(keepends=True)
    for n in truncations(name, TRUNCATION_STRIDE):
        compile_files(with_header(name, b"".join(lines[:n])), game="ia2")
    whole = compile_files(with_header(name, REAL[name]), game="ia2")
    assert whole.has_errors == (name in NEEDS_OTHER_FILES), [render_short(d) for d in whole.diagnostics]


def slow_truncations(name: str) -> list[int]:
    """The slow run's cuts of `name`: just after every line that opens a block (a block cut before
    its first statement), every 6th line from an offset of the file's own (so each residue is cut in
    some file), and the whole file: about 1,260 compiles of the whole IA2 game. `CHARTC_FUZZ_EVERY_LINE=1`
    cuts at every line (about 4,900 compiles and 490 renders, half an hour on CI: not for CI)."""
    lines = REAL[name].splitlines()
    if os.environ.get("CHARTC_FUZZ_EVERY_LINE") == "1":
        return list(range(len(lines) + 1))
    offset = zlib.crc32(name.encode()) % 6
    opened = {n + 1 for n, line in enumerate(lines) if line.rstrip().endswith(b"{")}  # a block just opened
    return sorted({*opened, *range(offset, len(lines), 6), len(lines)})


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(REAL))
def test_truncation_at_block_lines_of_the_real_charts(name: str) -> None:
    lines = REAL[name].splitlines(keepends=True)
    cuts = slow_truncations(name)
    rendered = {cuts[len(cuts) // 3], cuts[2 * len(cuts) // 3], cuts[-1]}  # rendering a whole game costs ~1 s
    for n in cuts:
        compile_files(with_all_files(name, b"".join(lines[:n])), render=n in rendered, game="ia2")


def test_slow_truncations_cut_after_every_block_start_and_every_6th_line() -> None:
    for name in REAL:
        cuts = slow_truncations(name)
        count = len(REAL[name].splitlines())
        assert cuts[-1] == count and max(b - a for a, b in itertools.pairwise([0, *cuts])) <= 6
        assert all(n + 1 in cuts for n, line in enumerate(REAL[name].splitlines()) if line.rstrip().endswith(b"{"))


def test_truncation_lines_cover_the_whole_file() -> None:
    for name in REAL:
        cuts = truncations(name, TRUNCATION_STRIDE)
        assert cuts[0] == 0 and cuts[-1] == len(REAL[name].splitlines())
        assert max(b - a for a, b in itertools.pairwise(cuts)) <= TRUNCATION_STRIDE


def test_token_mutation_tokenizer_round_trips() -> None:
    for data in REAL.values():
        assert b"".join(_tokens(data)) == data
