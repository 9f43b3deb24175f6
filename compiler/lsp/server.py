"""The language server (pygls, stdio): the one module of chartc that imports pygls and lsprotocol.

On open and on change it checks the whole game folder of the document (`workspace.check_game`,
the loader `chartc check` runs) with every open buffer's unsaved text, and publishes the findings
of each file of that game. Requests are answered from the last check of the document's game
(`index.GameIndex`); positions are converted only by `positions`.

Limits: a message from the editor is read only up to `MAX_MESSAGE_BYTES` (`LimitedInput`: a
longer one is skipped in small pieces, never held, and the editor is told), and an unsaved
buffer is checked only up to the size `chartc check` reads of a file (C102 beyond it).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Generator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import from_fs_path, to_fs_path

from compiler.build.reader import MAX_SOURCE_BYTES
from compiler.diagnostics import Diagnostic, Severity
from compiler.lsp import positions
from compiler.lsp.index import GameIndex, Kind, QuickFix
from compiler.lsp.workspace import check_game, game_folder
from compiler.tools.fmt import FormatSyntaxError, UnsafeFormat, format_text
from dsl.shared import Span

MAX_MESSAGE_BYTES = 4 * MAX_SOURCE_BYTES
"""Largest message read from the editor: a chart file's limit, with room for JSON's escapes."""
MAX_HEADER_BYTES = 64 * 1024
"""Longest header line read (`Content-Length: ...` is about 25 bytes)."""
_SKIP_CHUNK = 1 << 20
REFUSED = "chartc/refusedMessage"
"""What `LimitedInput` hands the server in place of a notification it skipped."""
REFUSED_REQUEST = "chartc/refusedRequest"
"""What `LimitedInput` hands the server in place of a request it skipped (with the request's id)."""

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.NOTE: types.DiagnosticSeverity.Information,
}
_SYMBOL_KIND = {
    Kind.ENUM: types.SymbolKind.Enum,
    Kind.MEMBER: types.SymbolKind.EnumMember,
    Kind.CONTEXT: types.SymbolKind.Variable,
    Kind.PERIOD: types.SymbolKind.Constant,
    Kind.CHART: types.SymbolKind.Class,
}


class _Utf16Protocol(LanguageServerProtocol):
    """pygls takes the client's first position encoding (Neovim offers UTF-8 first); chartc's
    positions are converted to UTF-16 only (`positions`), the encoding every client must accept,
    so the client is told no other choice."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = [types.PositionEncodingKind.Utf16]
        return (yield from super().lsp_initialize(params))


class ChartServer(LanguageServer):
    """The server and its last check of each game folder."""

    def __init__(self) -> None:
        super().__init__(
            "chartc", _version(), text_document_sync_kind=types.TextDocumentSyncKind.Full, protocol_cls=_Utf16Protocol
        )
        self.games: dict[Path, GameIndex] = {}
        self.published: dict[Path, set[str]] = {}

    # ---- documents and checks ------------------------------------------------------------

    def unsaved(self) -> dict[Path, str]:
        """The text of every open document, by its file's path."""
        out: dict[Path, str] = {}
        for uri, doc in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is not None:
                out[Path(path)] = doc.source
        return out

    def recheck(self, uri: str) -> None:
        """Check the game folder of `uri` and publish the findings of each of its files."""
        path = to_fs_path(uri)
        folder = game_folder(Path(path)) if path is not None else None
        if folder is None:
            return
        key = folder.resolve()
        check = check_game(folder, self.unsaved())
        if check is None:
            self.games.pop(key, None)
            return
        index = GameIndex(check)
        self.games[key] = index
        by_file = check.diagnostics_by_file()
        for name in self.published.get(key, set()) - set(by_file):
            by_file[name] = []
        for name, found in by_file.items():
            target = check.paths.get(name)
            file_uri = from_fs_path(str(target.resolve())) if target is not None else None
            if file_uri is None:
                continue
            lines = positions.lines_of(check.text(name))
            diagnostics = [self.diagnostic(index, lines, d) for d in found]
            params = types.PublishDiagnosticsParams(uri=file_uri, diagnostics=diagnostics)
            self.text_document_publish_diagnostics(params)
        self.published[key] = set(by_file)

    def diagnostic(self, index: GameIndex, lines: list[str], d: Diagnostic) -> types.Diagnostic:
        related = [
            types.DiagnosticRelatedInformation(self.location(index, label.span), label.message) for label in d.labels
        ]
        message = d.message + (f"\nhelp: {d.help}" if d.help else "")
        return types.Diagnostic(
            range=_range(positions.span_range(lines, d.span)),
            message=message,
            severity=_SEVERITY[d.severity],
            code=d.code,
            source="chartc",
            related_information=related or None,
            data={"name": d.name},
        )

    def location(self, index: GameIndex, span: Span) -> types.Location:
        target = index.check.paths.get(span.file)
        uri = from_fs_path(str(target.resolve())) if target is not None else span.file
        lines = positions.lines_of(index.check.text(span.file))
        return types.Location(uri=uri or span.file, range=_range(positions.span_range(lines, span)))

    def at(self, uri: str, position: types.Position) -> tuple[GameIndex, str, int, int] | None:
        """The game of `uri`, its displayed name, and the position as chartc's (line, col)."""
        path = to_fs_path(uri)
        folder = game_folder(Path(path)) if path is not None else None
        if path is None or folder is None:
            return None
        index = self.games.get(folder.resolve())
        name = index.check.name_of(Path(path)) if index is not None else None
        if index is None or name is None:
            return None
        lines = positions.lines_of(index.check.text(name))
        line, col = positions.from_utf16(lines, positions.Position(position.line, position.character))
        return index, name, line, col


class LimitedInput:
    """The editor's stream as pygls reads it (a header line with `readline`, a body of the
    `Content-Length` it names with `read`), refusing to hold more than the limits: a header line
    is cut at `MAX_HEADER_BYTES`, and a body over `MAX_MESSAGE_BYTES` is read and dropped a
    megabyte at a time, a `REFUSED` notification naming its size taking its place."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw

    def readline(self) -> bytes:
        return self.raw.readline(MAX_HEADER_BYTES)

    def read(self, size: int) -> bytes:
        if size <= MAX_MESSAGE_BYTES:
            return self.raw.read(size)
        left = size
        head = b""
        while left:
            chunk = self.raw.read(min(left, _SKIP_CHUNK))
            if not chunk:
                return b""  # the stream ended inside the message: the server stops, as pygls does
            head = head or chunk[:_ID_WINDOW]
            left -= len(chunk)
        stand_in: dict[str, object] = {"jsonrpc": "2.0", "method": REFUSED, "params": {"bytes": size}}
        request_id = _request_id(head)
        if request_id is not None:  # a request waits for its reply: it gets an error, not silence
            stand_in.update(id=request_id, method=REFUSED_REQUEST)
        return json.dumps(stand_in).encode("utf-8")


_ID_WINDOW = 4096
"""How much of a skipped message's start is kept to find its id (clients write it before `params`)."""
_ID = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


def _request_id(head: bytes) -> int | str | None:
    """The id of a skipped request, read from the start of its body, if it stands before `params`."""
    found = _ID.search(head)
    params = head.find(b'"params"')
    if found is None or (params != -1 and params < found.start()):
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    return value if isinstance(value, int | str) else None


def _refusal(params: Any) -> str:
    size = int(getattr(params, "bytes", 0))
    return (f"a message of {size:,} bytes from the editor is over the limit of {MAX_MESSAGE_BYTES:,} "
            f"and was not read (a chart file is read up to {MAX_SOURCE_BYTES:,} bytes); split the file")


def _version() -> str:
    try:
        return version("chartc")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0"


def _range(r: positions.Range) -> types.Range:
    return types.Range(
        start=types.Position(r.start.line, r.start.character), end=types.Position(r.end.line, r.end.character)
    )


def build_server() -> ChartServer:
    """The server with every feature registered."""
    server = ChartServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ChartServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.recheck(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: ChartServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.recheck(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: ChartServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.recheck(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ChartServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.recheck(params.text_document.uri)  # the file on disk replaces the closed buffer

    @server.feature(REFUSED)
    def refused(ls: ChartServer, params: Any) -> None:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"chartc: {_refusal(params)}"))

    @server.feature(REFUSED_REQUEST)
    def refused_request(ls: ChartServer, params: Any) -> None:
        raise JsonRpcInvalidRequest(_refusal(params))  # pygls replies to the request's id with this error

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: ChartServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.at(params.text_document.uri, params.position)
        text = found[0].hover(*found[1:]) if found else None
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: ChartServer, params: types.DefinitionParams) -> list[types.Location]:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return []
        index = found[0]
        return [ls.location(index, d.span) for d in index.definition(*found[1:])]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: ChartServer, params: types.ReferenceParams) -> list[types.Location]:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return []
        index, name, line, col = found
        spans = index.references(name, line, col, params.context.include_declaration)
        return [ls.location(index, span) for span in spans]

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["["])
    )
    def completion(ls: ChartServer, params: types.CompletionParams) -> types.CompletionList:
        found = ls.at(params.text_document.uri, params.position)
        items = found[0].completions(*found[1:]) if found else []
        return types.CompletionList(
            is_incomplete=False,
            items=[types.CompletionItem(label=label, detail=detail) for label, detail in items],
        )

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: ChartServer, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        try:
            formatted = format_text(doc.source, doc.path)
        except (FormatSyntaxError, UnsafeFormat):
            return []  # the findings already say why; `chartc fmt` refuses the same text
        if formatted == doc.source:
            return []
        end = positions.document_end(doc.source)  # a lone CR ends a line for the client
        whole = types.Range(start=types.Position(0, 0), end=types.Position(end.line, end.character))
        return [types.TextEdit(range=whole, new_text=formatted)]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: ChartServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        found = ls.at(params.text_document.uri, types.Position(0, 0))
        if found is None:
            return []
        index, name = found[0], found[1]
        lines = positions.lines_of(index.check.text(name))
        return [
            types.DocumentSymbol(
                name=s.name,
                detail=s.detail,
                kind=_SYMBOL_KIND[s.kind],
                range=_range(positions.span_range(lines, s.span)),
                selection_range=_range(positions.span_range(lines, s.selection)),
            )
            for s in index.symbols(name)
        ]

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION)
    def code_actions(ls: ChartServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        found = ls.at(params.text_document.uri, params.range.start)
        if found is None:
            return []
        index, name = found[0], found[1]
        lines = positions.lines_of(index.check.text(name))
        start = positions.from_utf16(lines, positions.Position(params.range.start.line, params.range.start.character))
        end = positions.from_utf16(lines, positions.Position(params.range.end.line, params.range.end.character))
        near = [
            d
            for d in index.check.compilation.diagnostics
            if d.span.file == name and (d.span.line, d.span.col) <= end and start <= (d.span.end_line, d.span.end_col)
        ]
        return [_action(ls, index, params.text_document.uri, lines, fix) for fix in index.fixes(near)]

    return server


def _action(ls: ChartServer, index: GameIndex, uri: str, lines: list[str], fix: QuickFix) -> types.CodeAction:
    """A finding's fix as a code action: its edits per file, in the protocol's UTF-16 positions."""
    changes: dict[str, list[types.TextEdit]] = {}
    for edit in fix.edits:
        target = index.check.paths.get(edit.span.file)
        file_uri = from_fs_path(str(target.resolve())) if target is not None else None
        file_lines = positions.lines_of(index.check.text(edit.span.file))
        text_edit = types.TextEdit(range=_range(positions.span_range(file_lines, edit.span)), new_text=edit.text)
        changes.setdefault(file_uri or uri, []).append(text_edit)
    return types.CodeAction(
        title=fix.title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[ls.diagnostic(index, lines, fix.diagnostic)],
        edit=types.WorkspaceEdit(changes=changes),
        is_preferred=fix.preferred,
    )


def main() -> None:
    """Serve on stdin and stdout until the client exits."""
    build_server().start_io(LimitedInput(sys.stdin.buffer), sys.stdout.buffer)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
