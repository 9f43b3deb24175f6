"""`chartc lsp` driven by pytest-lsp: a real server process over stdio, one per module.

The game is tests/data/lsp/lspdemo: its labels hold an umlaut (one UTF-16 unit) and `𝔄` (U+1D504,
two UTF-16 units) before the names the requests point at, so a server counting characters instead
of UTF-16 code units would answer one column off.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from compiler.fmt import format_text  # noqa: E402
from tests.conftest import ROOT  # noqa: E402

GAME = ROOT / "tests" / "data" / "lsp" / "lspdemo"
COMBAT = GAME / "combat.chart"
GAME_FILE = GAME / "game.chart"

pytestmark = pytest.mark.asyncio(loop_scope="module")


def _uri(path: Path) -> str:
    return path.resolve().as_uri()


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "compiler.cli", "lsp"]),
)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=_uri(GAME), workspace_folders=None
        )
    )
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=_uri(COMBAT), language_id="chart", version=1, text=COMBAT.read_text("utf-8"))
        )
    )
    await lsp_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    yield
    await lsp_client.shutdown_session()


def _at(line: int, character: int, path: Path = COMBAT) -> types.TextDocumentPositionParams:
    return types.TextDocumentPositionParams(types.TextDocumentIdentifier(_uri(path)), types.Position(line, character))


async def _wait_for(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    while _uri(path) not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[_uri(path)]


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


def _args(at: types.TextDocumentPositionParams) -> tuple[types.TextDocumentIdentifier, types.Position]:
    return at.text_document, at.position
