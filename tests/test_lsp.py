"""`chartc lsp` driven by pytest-lsp: a real server process over stdio, one per module.

The game is tests/data/lsp/lspdemo: its labels hold an umlaut (one UTF-16 unit) and `𝔄` (U+1D504,
two UTF-16 units) before the names the requests point at, so a server counting characters instead
of UTF-16 code units would answer one column off.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from compiler.tools.fmt import format_text  # noqa: E402
from tests.conftest import ROOT  # noqa: E402

GAME = ROOT / "tests" / "data" / "lsp" / "lspdemo"
COMBAT = GAME / "combat.chart"
GAME_FILE = GAME / "game.chart"

pytestmark = pytest.mark.asyncio(loop_scope="module")

# a server that fails to answer must fail the test, not hang the suite
TIMEOUT = 60

# what the server answered to `initialize`, for test_the_server_speaks_utf16_whatever_the_client_prefers
SESSION: dict[str, types.InitializeResult] = {}


def _uri(path: Path) -> str:
    return path.resolve().as_uri()


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "compiler.cli", "lsp"]),
)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    # a client that prefers UTF-8 positions, as Neovim does: the server must still answer in UTF-16
    general = types.GeneralClientCapabilities(
        position_encodings=[types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16]
    )
    params = types.InitializeParams(
        capabilities=types.ClientCapabilities(general=general), root_uri=_uri(GAME), workspace_folders=None
    )
    SESSION["initialize"] = await asyncio.wait_for(lsp_client.initialize_session(params), TIMEOUT)
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=_uri(COMBAT), language_id="chart", version=1, text=COMBAT.read_text("utf-8"))
        )
    )
    await asyncio.wait_for(lsp_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), TIMEOUT)
    yield
    await lsp_client.shutdown_session()


def _at(line: int, character: int, path: Path = COMBAT) -> types.TextDocumentPositionParams:
    return types.TextDocumentPositionParams(types.TextDocumentIdentifier(_uri(path)), types.Position(line, character))


async def _wait_for(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    while _uri(path) not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), TIMEOUT)
    return client.diagnostics[_uri(path)]


async def test_the_server_speaks_utf16_whatever_the_client_prefers(client: LanguageClient) -> None:
    assert SESSION["initialize"].capabilities.position_encoding == types.PositionEncodingKind.Utf16


async def test_a_finding_arrives_at_its_utf16_position(client: LanguageClient) -> None:
    found = await _wait_for(client, COMBAT)
    [unknown] = [d for d in found if d.code == "C201"]
    # combat.chart line 6, `  drm storm "Stürm 𝔄" +1 when sky == stormy`: `stormy` is character 37
    # (0-based) but UTF-16 unit 38, since 𝔄 is a surrogate pair; `chartc check` says 6:38 (1-based)
    assert unknown.range == types.Range(types.Position(5, 38), types.Position(5, 44))
    assert unknown.severity == types.DiagnosticSeverity.Error
    assert "`stormy` is not a value of `weather`" in unknown.message
    [warning] = [d for d in found if d.code == "C305"]
    assert warning.severity == types.DiagnosticSeverity.Warning


async def test_hover_on_a_row_gives_its_chance(client: LanguageClient) -> None:
    # `storm 1-5: "Miss"` on 1d6 with DRMs -1 (night) and +1 (storm weather): 5/6 on the natural roll
    hover = await client.text_document_hover_async(types.HoverParams(*_args(_at(9, 10))))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "natural roll: **83.3% (5/6)**" in hover.contents.value
    assert "row `1-5` of chart `A1`" in hover.contents.value


async def test_definition_of_a_member_is_its_declaration(client: LanguageClient) -> None:
    # `storm` in the row `storm 6: "Hit"` (line 11) -> `storm "Storm"` in enum weather, game.chart line 10
    found = await client.text_document_definition_async(types.DefinitionParams(*_args(_at(10, 5))))
    assert found == [types.Location(_uri(GAME_FILE), types.Range(types.Position(9, 2), types.Position(9, 7)))]


async def test_completion_in_a_condition_offers_the_context_variables(client: LanguageClient) -> None:
    # just after `when ` on line 5 (`  drm night "Nacht 𝔄" -1 when night`): UTF-16 unit 31
    result = await client.text_document_completion_async(types.CompletionParams(*_args(_at(4, 31))))
    assert isinstance(result, types.CompletionList)
    labels = [item.label for item in result.items]
    assert labels[:2] == ["night", "sky"]  # the game's two context variables, as declared
    assert {"clear", "storm"} <= set(labels)


async def test_a_quick_fix_replaces_the_unknown_name_with_the_suggested_one(client: LanguageClient) -> None:
    # C201's help on line 6: did you mean `storm`? -> one edit over `stormy` (UTF-16 38-44)
    where = types.Range(types.Position(5, 40), types.Position(5, 40))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(_uri(COMBAT)), where, types.CodeActionContext([]))
    )
    assert actions is not None
    [action] = actions
    assert isinstance(action, types.CodeAction) and action.title == "replace `stormy` with `storm`"
    assert action.edit is not None and action.edit.changes is not None
    assert list(action.edit.changes[_uri(COMBAT)]) == [
        types.TextEdit(types.Range(types.Position(5, 38), types.Position(5, 44)), "storm")
    ]


async def test_formatting_returns_fmt_output(client: LanguageClient) -> None:
    messy = COMBAT.read_text("utf-8").replace("  roll 1d6\n", "  roll   1d6\n", 1)
    uri = _uri(COMBAT)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text=messy)],
        )
    )
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(types.TextDocumentIdentifier(uri), types.FormattingOptions(2, True))
    )
    assert edits is not None
    [edit] = edits
    assert edit.new_text == format_text(messy) == COMBAT.read_text("utf-8")
    assert edit.range.start == types.Position(0, 0)


async def test_an_unparsable_buffer_gets_its_syntax_error_and_requests_still_answer(client: LanguageClient) -> None:
    uri = _uri(COMBAT)
    broken = COMBAT.read_text("utf-8").replace('    storm 1-5: "Miss"', '    storm 1-5 "Miss"')
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=3, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text=broken)],
        )
    )
    found = await _wait_for(client, COMBAT)
    [syntax] = [d for d in found if d.code == "C101"]
    assert syntax.range.start == types.Position(9, 14)  # the string where `:` was expected
    assert await client.text_document_hover_async(types.HoverParams(*_args(_at(9, 10)))) is None
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(types.TextDocumentIdentifier(uri), types.FormattingOptions(2, True))
    )
    assert not edits  # `chartc fmt` leaves a file that does not parse alone


def _args(at: types.TextDocumentPositionParams) -> tuple[types.TextDocumentIdentifier, types.Position]:
    return at.text_document, at.position
