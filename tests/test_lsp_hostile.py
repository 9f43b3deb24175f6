"""The language server under hostile input (issue 33, finding 8): a message too large to hold is
skipped without being held, an unsaved buffer is read as `chartc check` reads a file (line ends,
size limit), formatting a lone-CR document replaces it instead of duplicating it, and random edit
sequences leave the server's view equal to a fresh parse (tests/lsp_fuzz.py)."""

from __future__ import annotations

import contextlib
import io
import json
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types
from pygls.io_ import run
from pygls.workspace import Workspace

from compiler.build.reader import MAX_SOURCE_BYTES
from compiler.lsp import positions
from compiler.lsp.server import MAX_MESSAGE_BYTES, REFUSED, LimitedInput, build_server
from compiler.tools.fmt import format_text
from tests import lsp_fuzz

_CHUNK = bytes(1 << 20)


class _HugeStream:
    """A stream holding `head`, then `size` zero bytes made on demand (never held at once), then
    `tail`; it records the largest read asked of it."""

    def __init__(self, head: bytes, size: int, tail: bytes) -> None:
        self.head, self.left, self.tail = io.BytesIO(head), size, io.BytesIO(tail)
        self.largest = 0

    def readline(self, limit: int = -1) -> bytes:
        line = self.head.readline(limit)
        return line if line or self.left else self.tail.readline(limit)

    def read(self, size: int) -> bytes:
        self.largest = max(self.largest, size)
        if self.left:
            n = min(size, self.left, len(_CHUNK))
            self.left -= n
            return _CHUNK[:n]
        return self.tail.read(size)


def _message(body: dict[str, object]) -> bytes:
    data = json.dumps(body).encode("utf-8")
    return f"Content-Length: {len(data)}\r\n\r\n".encode() + data


def test_a_message_of_3_3_gb_is_skipped_in_small_reads_and_the_editor_told(tmp_path: Path) -> None:
    # issue 33 finding 8: a 3.3 GB document was read whole (pygls reads `Content-Length` bytes at once)
    size = 3_300_000_000
    game = tmp_path / "t"
    game.mkdir()
    chart = game / "t.chart"
    chart.write_text('game t { title "T" }\n', encoding="utf-8")
    item = {"uri": chart.resolve().as_uri(), "languageId": "chart", "version": 1, "text": 'game t { title "T" }\n'}
    after = _message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": item}})
    stream = _HugeStream(f"Content-Length: {size}\r\n\r\n".encode(), size, after)
    server = build_server()
    shown: list[types.ShowMessageParams] = []
    published: list[types.PublishDiagnosticsParams] = []
    server.window_show_message = shown.append  # type: ignore[method-assign]
    server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign]
    server.protocol._workspace = Workspace(None, types.TextDocumentSyncKind.Full)
    run(threading.Event(), LimitedInput(stream), server.protocol)  # type: ignore[arg-type]
    assert stream.left == 0 and stream.largest <= len(_CHUNK)  # read through, a megabyte at a time
    [message] = shown
    assert message.type == types.MessageType.Error
    assert f"a message of {size:,} bytes from the editor is over the limit of {MAX_MESSAGE_BYTES:,}" in message.message
    assert [p.uri for p in published] == [item["uri"]]  # the next message is served as usual


def test_the_refused_notification_is_what_stands_in_for_a_skipped_message() -> None:
    head = f"Content-Length: {MAX_MESSAGE_BYTES + 1}\r\n\r\n".encode()
    limited = LimitedInput(_HugeStream(head, MAX_MESSAGE_BYTES + 1, b""))  # type: ignore[arg-type]
    assert limited.readline() == b"Content-Length: %d\r\n" % (MAX_MESSAGE_BYTES + 1)
    assert limited.readline() == b"\r\n"
    body = json.loads(limited.read(MAX_MESSAGE_BYTES + 1))
    assert body == {"jsonrpc": "2.0", "method": REFUSED, "params": {"bytes": MAX_MESSAGE_BYTES + 1}}
    cut = LimitedInput(io.BytesIO(b"x" * (1 << 20) + b"\n"))  # type: ignore[arg-type]
    assert len(cut.readline()) == 64 * 1024  # a header line is never held whole


def test_an_unsaved_buffer_over_the_file_limit_is_c102_as_the_file_would_be(tmp_path: Path) -> None:
    session = lsp_fuzz.Session(tmp_path / "lspdemo")
    session.edit("# " + "x" * MAX_SOURCE_BYTES + "\n")
    [found] = session.published[session.uri]
    assert found.code == "C102" and f"over the limit of {MAX_SOURCE_BYTES:,} bytes; it was not read" in found.message


def test_formatting_a_lone_cr_document_replaces_it_whole(tmp_path: Path) -> None:
    # issue 33 finding 8: the edit's end was computed over `\n` lines only, so an editor (for which
    # a lone CR ends a line) kept every line after the first and the document came out twice
    session = lsp_fuzz.Session(tmp_path / "lspdemo")
    cr = session.text.replace("\n", "\r").replace("0-3:", "0-3:   ")
    session.edit(cr)
    session.check(with_format=False)  # the findings sit where the editor's lines say
    params = types.DocumentFormattingParams(types.TextDocumentIdentifier(session.uri), types.FormattingOptions(2, True))
    edits = session.server.protocol.fm.features[types.TEXT_DOCUMENT_FORMATTING](params)
    [edit] = edits
    assert (edit.range.end.line, edit.range.end.character) == (cr.count("\r"), 0)
    assert lsp_fuzz.apply_edits(cr, edits) == format_text(cr) == format_text(cr.replace("\r", "\n"))


def test_a_lone_cr_buffer_reads_as_the_same_file_on_disk(tmp_path: Path) -> None:
    # the server parsed an unsaved buffer without reading CR as a line end, as `chartc check` does
    session = lsp_fuzz.Session(tmp_path / "lspdemo")
    session.edit(session.text.replace("\n", "\r").replace('"Hit"', '"Hit"\r\r  bogus'))
    session.check(with_format=True)
    assert any(d.code == "C101" and d.range.start.line > 0 for d in session.published[session.uri])


def test_a_bom_buffer_places_first_line_findings_where_the_editor_counts_them(tmp_path: Path) -> None:
    # issue 33: the parser reads the text after a BOM, the editor counts the BOM as a character: a
    # finding on line 1 was one column to the left of its word
    session = lsp_fuzz.Session(tmp_path / "lspdemo")
    first, rest = session.text.split("\n", 1)
    text = "\ufeff" + first.replace("{", "{ bogus", 1) + "\n" + rest
    session.edit(text)
    [found] = [d for d in session.published[session.uri] if d.range.start.line == 0]
    start = found.range.start.character
    assert text.split("\n")[0][start : start + 5] == "bogus", found


def test_bom_positions_round_trip_on_the_first_line_only() -> None:
    lines = positions.lines_of("\ufeffgame t {\n  title")
    assert positions.to_utf16(lines, 1, 1) == positions.Position(0, 1)  # the parser's column 1 is after the BOM
    assert positions.from_utf16(lines, positions.Position(0, 1)) == (1, 1)
    assert positions.from_utf16(lines, positions.Position(0, 0)) == (1, 1)  # on the BOM itself: its first column
    assert positions.to_utf16(lines, 2, 3) == positions.Position(1, 2)
    assert positions.from_utf16(lines, positions.Position(1, 2)) == (2, 3)


@pytest.mark.parametrize(("seeds", "edits"), [(range(2), 40), pytest.param(range(2, 22), 250, marks=pytest.mark.slow)])
def test_random_edit_sequences_leave_the_servers_view_equal_to_a_fresh_parse(
        tmp_path: Path, seeds: range, edits: int) -> None:
    # each edit checked four ways (tests/lsp_fuzz.py); scripts/fuzz_surfaces.py runs the long pass
    with contextlib.chdir(tmp_path):
        assert sum(lsp_fuzz.run(Path(f"s{seed}"), seed, edits) for seed in seeds) == len(seeds) * edits


def test_an_oversized_request_gets_an_error_reply_with_its_id(tmp_path: Path) -> None:
    # issue 33: a request over the limit was skipped like a notification, so the editor waited for
    # its reply for ever; now the reply is an error for its id
    size = MAX_MESSAGE_BYTES + 10
    head = b'{"jsonrpc": "2.0", "id": 17, "method": "textDocument/formatting", "params": {"x": "'
    body = head + b"x" * (size - len(head) - 3) + b'"}}'
    replies = io.BytesIO()
    server = build_server()
    server.protocol._workspace = Workspace(None, types.TextDocumentSyncKind.Full)
    server.protocol.set_writer(replies)  # type: ignore[arg-type]
    stream = io.BytesIO(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    run(threading.Event(), LimitedInput(stream), server.protocol)  # type: ignore[arg-type]
    reply = json.loads(replies.getvalue().split(b"\r\n\r\n", 1)[1])
    assert reply["id"] == 17 and reply["error"]["code"] == -32600
    assert f"a message of {len(body):,} bytes from the editor is over the limit" in reply["error"]["message"]


def test_a_skipped_notification_keeps_no_id_and_an_id_inside_params_is_not_taken() -> None:
    notification = b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"id": 3, "text": "'
    limited = LimitedInput(io.BytesIO(notification + b"x" * MAX_MESSAGE_BYTES))  # type: ignore[arg-type]
    assert json.loads(limited.read(MAX_MESSAGE_BYTES + 1))["method"] == REFUSED
