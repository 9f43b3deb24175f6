"""The language server driven in this process by random edit sequences (issue 33): after each
edit, the server's view of the document must be what `chartc check` and `chartc fmt` make of the
same text saved to disk.

A `Session` is a copy of tests/data/lsp/lspdemo (labels holding an umlaut and `𝔄`, two UTF-16
units) in a temporary folder and a `ChartServer` whose publishing is recorded; `step` applies one
random edit as the editor would (the whole text, as the server asks: full sync) and checks:

1. the server's text of the document is the text as chartc reads the file (CRLF, lone CR as LF);
2. its syntax tree is a fresh parse of that text, spans and all;
3. the findings it publishes for the document are those of `compiler.build.project.load` of the
   folder with the text written to the file, at the same protocol ranges, each inside the
   document as the editor counts its lines (CRLF, lone CR and LF all end a line);
4. (every `FORMAT_EVERY`th edit) applying its formatting edits to the editor's text, as the
   editor does, gives `chartc fmt`'s text, and no edit when `chartc fmt` refuses.

`scripts/fuzz_surfaces.py` runs it for the ledger; tests/test_lsp_hostile.py runs a few hundred.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

from lsprotocol import types
from pygls.workspace import Workspace

from compiler.build.project import load
from compiler.build.reader import as_read
from compiler.lsp import positions
from compiler.lsp.server import ChartServer, build_server
from compiler.tools.fmt import FormatSyntaxError, UnsafeFormat, format_text
from dsl.parser import parse_text

DEMO = Path(__file__).resolve().parent / "data" / "lsp" / "lspdemo"
FORMAT_EVERY = 8
_LINE_END = re.compile("\r\n|\r|\n")

# What an edit inserts: the language's tokens, every line end, characters of one and two UTF-16
# units, a BOM, quotes and braces that open or close what follows, comments, `# fmt: off`.
SNIPPETS = (
    "\n", "\r\n", "\r", " ", "  ", "\t", "{", "}", "[", "]", "(", ")", '"', ":", ",", "-", "+", "|",
    "ä", "𝔄", "\ufeff", "\u202e", "#", "# note", "# fmt: off\n", "# fmt: on\n", "1", "6", "3-6", "0-3",
    "chart", "rows", "roll", "1d6", "key", "column", "drm", "when", "night", "sky", "stormy",
    "weather", "clear", "storm", '"Hit"', '"Miss"', "-", "[A1]", "[A9]", "result", "text",
    '  6: "Hit"\n', 'chart [A3] x "X" { roll 1d6 column r: text "R" rows { 1-6: "A" } }\n',
)


class Session:
    """The server and one document of its game, with the text the editor holds."""

    def __init__(self, folder: Path) -> None:
        shutil.copytree(DEMO, folder)
        self.folder = folder
        self.path = folder / "combat.chart"
        self.uri = self.path.resolve().as_uri()
        self.text = self.path.read_text(encoding="utf-8")
        self.published: dict[str, list[types.Diagnostic]] = {}
        self.server: ChartServer = build_server()
        self.server.protocol._workspace = Workspace(None, types.TextDocumentSyncKind.Full)
        self.server.text_document_publish_diagnostics = self._record  # type: ignore[method-assign]
        self.steps = 0
        item = types.TextDocumentItem(uri=self.uri, language_id="chart", version=0, text=self.text)
        self.server.workspace.put_text_document(item)
        self._feature(types.TEXT_DOCUMENT_DID_OPEN)(types.DidOpenTextDocumentParams(item))

    def _record(self, params: types.PublishDiagnosticsParams) -> None:
        self.published[params.uri] = list(params.diagnostics)

    def _feature(self, method: str):  # type: ignore[no-untyped-def]
        return self.server.protocol.fm.features[method]

    def edit(self, text: str) -> None:
        """The editor changes the document to `text` (full sync, as the server asks)."""
        self.steps += 1
        self.text = text
        doc = types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.steps)
        change = types.TextDocumentContentChangeWholeDocument(text=text)
        self.server.workspace.update_text_document(doc, change)
        self._feature(types.TEXT_DOCUMENT_DID_CHANGE)(types.DidChangeTextDocumentParams(doc, [change]))

    def check(self, with_format: bool) -> None:
        """The properties of the module docstring; an AssertionError names the one that failed."""
        read = as_read(self.text)
        index = self.server.games[self.folder.resolve()]
        name = index.check.name_of(self.path)
        assert name is not None
        assert index.check.text(name) == read, "1: the server's text is not the text as read"
        fresh = parse_text(read, name).source
        assert index.check.trees.get(name) == fresh, "2: the server's syntax tree is not a fresh parse"
        self.path.write_text(self.text, encoding="utf-8", newline="")
        try:
            on_disk = load([self.folder])
        finally:
            shutil.copyfile(DEMO / "combat.chart", self.path)
        lines = positions.lines_of(on_disk.sources.get(name, ""))
        expected = sorted(
            (d.code, d.message, _key(positions.span_range(lines, d.span))) for d in on_disk.diagnostics
            if d.span.file == name)
        got = sorted((str(d.code), d.message.split("\nhelp: ")[0], _key_of(d.range))
                     for d in self.published.get(self.uri, []))
        assert got == expected, f"3: published {got} but chartc check finds {expected}"
        editor_lines = _LINE_END.split(self.text)
        for d in self.published.get(self.uri, []):
            for p in (d.range.start, d.range.end):
                assert p.line < len(editor_lines), f"3: {p} is past the document's last line"
                assert p.character <= _units(editor_lines[p.line]), f"3: {p} is past its line's end"
        if with_format:
            self._check_format()

    def _check_format(self) -> None:
        document = types.TextDocumentIdentifier(self.uri)
        params = types.DocumentFormattingParams(document, types.FormattingOptions(2, True))
        edits = self._feature(types.TEXT_DOCUMENT_FORMATTING)(params)
        try:
            wanted: str | None = format_text(self.text)
        except (FormatSyntaxError, UnsafeFormat):
            wanted = None
        if wanted is None or wanted == self.text:
            assert edits == [], "4: an edit where chartc fmt changes nothing"
            return
        assert apply_edits(self.text, edits) == wanted, "4: the formatting edits do not give chartc fmt's text"


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """`text` after `edits`, as an editor applies them: positions in UTF-16 units over lines ended
    by CRLF, lone CR or LF; a column past its line's end is the line's end (the protocol's rule)."""
    starts = [0] + [m.end() for m in _LINE_END.finditer(text)]
    ends = [m.start() for m in _LINE_END.finditer(text)] + [len(text)]

    def offset(p: types.Position) -> int:
        if p.line >= len(starts):
            return len(text)
        line = text[starts[p.line]:ends[p.line]]
        units = 0
        for i, char in enumerate(line):
            if units >= p.character:
                return starts[p.line] + i
            units += 2 if ord(char) > 0xFFFF else 1
        return ends[p.line]

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


def random_edit(rng: random.Random, text: str) -> str:
    """One edit an editor could make: insert a snippet, delete or replace a stretch, duplicate or
    drop a line, or undo back to the demo file."""
    at = rng.randrange(len(text) + 1)
    span = rng.choice((1, 1, 2, 5, 20))
    match rng.randrange(10):
        case 0 | 1 | 2 | 3:
            return text[:at] + rng.choice(SNIPPETS) + text[at:]
        case 4 | 5:
            return text[:at] + text[at + span:]
        case 6:
            return text[:at] + rng.choice(SNIPPETS) + text[at + span:]
        case 7:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            return "\n".join(lines[: i + 1] + lines[i:])
        case 8:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            return "\n".join(lines[:i] + lines[i + 1:])
        case _:
            return (DEMO / "combat.chart").read_text(encoding="utf-8") if rng.random() < 0.1 else text


def run(folder: Path, seed: int, edits: int) -> int:
    """Apply `edits` random edits from `seed` in a new session under `folder`, checking after each;
    returns the number of edits checked (an AssertionError says which property failed)."""
    rng = random.Random(seed)
    session = Session(folder)
    session.check(with_format=True)
    for n in range(edits):
        text = random_edit(rng, session.text)
        if len(text) > 4000:
            text = (DEMO / "combat.chart").read_text(encoding="utf-8")
        session.edit(text)
        try:
            session.check(with_format=n % FORMAT_EVERY == 0)
        except AssertionError as exc:
            raise AssertionError(f"seed {seed}, edit {n + 1}: {exc}\ntext: {text!r}") from None
    return edits


def _units(line: str) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in line)


def _key(r: positions.Range) -> tuple[int, int, int, int]:
    return (r.start.line, r.start.character, r.end.line, r.end.character)


def _key_of(r: types.Range) -> tuple[int, int, int, int]:
    return (r.start.line, r.start.character, r.end.line, r.end.character)
