"""Regression tests for problems found by trying chartc as a new user and with hostile input."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import ROOT, codes, compile_text

HEAD = 'game t { title "T" }\n'


def test_a_header_statement_given_twice_is_reported(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, 'game t { title "G" title "H" }\n')
    assert codes(comp) == ["C103"] and comp.project.games["t"].title == "G"


def test_an_invariant_declared_twice_is_reported(tmp_path: Path) -> None:
    inv = 'invariant i "n" { count e is 1 }\n'
    comp = compile_text(tmp_path, HEAD + 'enum e { fields { n: int } a "A" { n: 1 } }\n' + inv + inv)
    assert codes(comp) == ["C202"]


def test_a_label_or_alias_naming_two_values_is_reported(tmp_path: Path) -> None:
    assert codes(compile_text(tmp_path, HEAD + 'enum e { a "Same" b "Same" }\n')) == ["C202"]
    assert codes(compile_text(tmp_path / "2", HEAD + 'enum e { a "A" b "B" aka "A" }\n')) == ["C202"]


def test_errata_cannot_add_rows_to_a_grid(tmp_path: Path) -> None:
    text = HEAD + (
        'chart g "G" { roll 1d6 column r: text grid k [x, y] { "a": 1-3 | 1-6 \n "b": 4-6 | - } }\n'
        'enum k { x "X" y "Y" }\n'
        'errata e "E" { amend g { add 1: "c" } }\n'
    )
    comp = compile_text(tmp_path, text)
    assert "C601" in codes(comp)


def test_an_invariant_part_outside_the_cells_is_reported(tmp_path: Path) -> None:
    text = HEAD + (
        'enum sys { fields { need: int } x "X" { need: 4 } }\nenum c { a "A" b "B" }\n'
        'chart t "T" { key c column x: pair "X" rows { a: 1/10  b: 2/20 } }\n'
        'invariant i "n" { sum t part PART per column reaches sys.need }\n'
    )
    assert codes(compile_text(tmp_path, text.replace("PART", "0"))) == ["C402"]
    assert codes(compile_text(tmp_path / "3", text.replace("PART", "3"))) == ["C402"]
    assert codes(compile_text(tmp_path / "2", text.replace("PART", "2"))) == []


def test_an_allow_without_a_reason_is_reported(tmp_path: Path) -> None:
    text = (
        HEAD
        + 'context f: flag\nchart c "C" { roll 1d6 column r: text drm d +1 when f allow C305 "" rows { 1-6: "x" } }\n'
    )
    assert sorted(codes(compile_text(tmp_path, text))) == ["C305", "C502"]


def test_odds_tables_too_large_to_write_are_refused(tmp_path: Path) -> None:
    flags = "".join(f"context f{i}: flag\n" for i in range(40))
    drms = " ".join(f"drm d{i} +1 when f{i}" for i in range(40))
    keys = (
        "enum a { "
        + " ".join(f"a{i}" for i in range(16))
        + " }\nenum b { "
        + " ".join(f"b{i}" for i in range(16))
        + " }\n"
    )
    rows = " ".join(f"* * {i}: \"r\"" for i in range(1, 41))
    text = (
        HEAD
        + flags
        + keys
        + f'chart c "C" {{ roll 2d20 key a key b column r: text {drms} rows {{ {rows} 41+: "x" }} }}\n'
    )
    comp = compile_text(tmp_path, text)
    assert "C415" in codes(comp)


def test_lookup_refuses_a_game_with_errors(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "charts" / "g"
    folder.mkdir(parents=True)
    (folder / "a.chart").write_text(
        'game g { title "G" }\n'
        'chart a "A" { roll 1d6 column r: text column n: int "N" rows { 1-3: "x", 1  4-6: "y", 2 } }\n'
        'errata e1 "E1" { amend a { change 4-6 column n to "oops" } }\n'
    )
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["lookup", "g/a", "5"])
    assert r.exit_code == 1 and "has 1 error(s)" in r.output and "C402" in r.output


def test_a_key_given_twice_is_a_usage_error(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--key", "interceptor=jet"])
    assert r.exit_code == 2 and "given twice" in r.output


def test_diff_html_into_a_missing_folder_is_a_usage_error(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["diff", "charts", "charts", "--html", "/nonexistent/dir/x.html"])
    assert r.exit_code == 2 and "cannot write the errata sheet" in r.output


def test_derive_drops_bands_pushed_off_the_dice_and_chains(tmp_path: Path) -> None:
    text = HEAD + (
        'chart a "A" { roll percentile column r: text rows { 01-35: "x" 36-70: "y" 71-00: "z" } }\n'
        'chart b "B" { derive from a bands +35 }\nchart c "C" { derive from b bands -35 }\n'
    )
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []
    game = comp.project.games["t"]
    assert [(r.range.printed, r.values[0]) for r in game.chart("b").rows] == [("01-70", "x"), ("71-00", "y")]
    assert [(r.range.printed, r.values[0]) for r in game.chart("c").rows] == [("01-35", "x"), ("36-00", "y")]


# ---- a second new-user trial -----------------------------------------------------------------------

CRT_GAME = HEAD + (
    'odds crt_odds "Odds" { columns ["1:1", "2:1", "3:1"] attacker_high round down defender_high round up '
    "beyond clamp }\n"
    'context night: flag "Night"\n'
    'chart [CRT] "CRT" { roll 1d6 key odds: crt_odds column r: text drm dark "Night" +1 when night\n'
    '  grid odds ["1:1", "2:1", "3:1"] { "AE": 1-3 | 1-2 | 1\n "DE": 4-6 | 3-6 | 2-6 } }\n'
    'chart [E1] "Events" { roll 1d6 column r: text rows { 1-6: "Nothing" } }\n'
)


def _invoke(tmp_path: Path, *args: str):
    return CliRunner().invoke(cli, [*args, "--charts", str(tmp_path / "charts")])


def test_forces_with_follow_say_they_do_not_apply(tmp_path: Path) -> None:
    # `lookup X/crt_odds --attack 3 --defense 1 --follow` said "give --attack and --defense"
    compile_text(tmp_path, CRT_GAME)
    for address in ("t/crt_odds", "t/CRT"):
        r = _invoke(tmp_path, "lookup", address, "--attack", "3", "--defense", "1", "--follow")
        assert r.exit_code == 2 and "--attack/--defense/--shift do not apply with --follow" in r.output, r.output


def test_read_drms_on_a_chart_without_drms_is_refused_as_when_is(tmp_path: Path) -> None:
    compile_text(tmp_path, CRT_GAME)
    refusal = "chart `E1` has no DRMs, column shifts or dice conditions: --read-drms does not apply (use --drm N)"
    for args in (["lookup", "t/E1", "3"], ["odds", "t/E1"]):
        for follow in ((), ("--follow",)):
            r = _invoke(tmp_path, *args, *follow, "--read-drms")
            assert r.exit_code == 2 and refusal in r.output, (args, r.output)
    # a chart with DRMs reads them with every flag false
    r = _invoke(tmp_path, "lookup", "t/CRT", "3", "--key", "odds=2:1", "--read-drms")
    assert r.exit_code == 0 and "  natural 3, no DRM applies = 3\n" in r.output and r.output.endswith("R: DE\n")


def test_list_of_a_missing_or_empty_folder_is_a_usage_error(tmp_path: Path) -> None:
    # `chartc list` printed an empty table and exited 0; `check` says "no such file or folder"
    r = CliRunner().invoke(cli, ["list", "--charts", str(tmp_path / "nowhere")])
    assert r.exit_code == 2 and "nowhere: no such file or folder" in r.output
    (tmp_path / "empty" / ".git").mkdir(parents=True)
    r = CliRunner().invoke(cli, ["list", "--charts", str(tmp_path / "empty")])
    assert r.exit_code == 2 and "holds no game folders with `.chart` files" in r.output
    # a hidden folder holding charts is not offered as a game
    compile_text(tmp_path, CRT_GAME)
    (tmp_path / "charts" / ".backup").mkdir()
    (tmp_path / "charts" / ".backup" / "a.chart").write_text(HEAD.replace("game t", "game backup"))
    r = _invoke(tmp_path, "list", "x")
    assert r.exit_code == 2 and "known games: t" in r.output and "backup" not in r.output, r.output
    r = _invoke(tmp_path, "list")
    assert r.exit_code == 0 and "t/CRT" in r.output and "backup" not in r.output, r.output


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch, tmp_path: Path) -> None:
    # XDG Base Directory Specification: "If an implementation encounters a relative path in any of
    # these variables it should consider the path invalid and ignore it."
    from dsl.parser_cache import default_cache_dir

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert default_cache_dir() == tmp_path / ".cache" / "chartc"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "chartc"
