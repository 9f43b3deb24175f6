"""The one way chartc opens a file it reads: chart sources, `aid.order`, and its own outputs.

A file is read only when it is a regular file (not a FIFO, device or folder), lies inside the
folder it was found in once symlinks are resolved, and is no larger than a limit; text must be
UTF-8. Every refusal is a `ReadError` naming what is wrong, never the file's content, so a link to
`/proc/self/environ` or a secrets file cannot leak into a diagnostic.
"""

from __future__ import annotations

import enum
import os
import stat
from pathlib import Path
from typing import assert_never

MAX_SOURCE_BYTES = 16 * 1024 * 1024
"""Largest chart or `aid.order` file read (16 MiB: the real corpus's largest file is under 40 KB)."""

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
"""O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOFOLLOW: the path is already resolved,
so a link appearing after the check is refused rather than followed."""


class ReadFailure(enum.StrEnum):
    """Why a file was not read."""

    UNREADABLE = "unreadable"
    OUTSIDE = "outside"
    NOT_REGULAR = "not-regular"
    TOO_LARGE = "too-large"
    NOT_UTF8 = "not-utf8"


class ReadError(Exception):
    """A file chartc refused or failed to read; `line`/`col` locate an undecodable byte."""

    def __init__(self, failure: ReadFailure, detail: str, line: int = 1, col: int = 1) -> None:
        super().__init__(detail)
        self.failure = failure
        self.detail = detail
        self.line = line
        self.col = col

    def describe(self, shown: str) -> str:
        """The problem as one diagnostic message about the file shown as `shown`."""
        match self.failure:
            case ReadFailure.UNREADABLE:
                return f"cannot read `{shown}`: {self.detail}"
            case ReadFailure.OUTSIDE:
                return f"`{shown}` links to {self.detail}; it was not read"
            case ReadFailure.NOT_REGULAR:
                return f"`{shown}` is {self.detail}, not a regular file; it was not read"
            case ReadFailure.TOO_LARGE:
                return f"`{shown}` is {self.detail}; it was not read"
            case ReadFailure.NOT_UTF8:
                return f"`{shown}` is not UTF-8: {self.detail}"
            case _:
                assert_never(self.failure)

    @property
    def help(self) -> str | None:
        """The fix, where one is obvious."""
        match self.failure:
            case ReadFailure.OUTSIDE:
                return "copy the file into the folder instead of linking it"
            case ReadFailure.NOT_UTF8:
                return "save the file as UTF-8"
            case ReadFailure.TOO_LARGE:
                return "split the file"
            case ReadFailure.UNREADABLE | ReadFailure.NOT_REGULAR:
                return None
            case _:
                assert_never(self.failure)


def read_text(path: Path, inside: Path, where: str = "its folder", limit: int = MAX_SOURCE_BYTES) -> str:
    """A source file's text, with CRLF and lone CR line ends read as LF.

    Args:
        path: the file, as found (it may be a symlink).
        inside: the folder the file must really lie in once every symlink is resolved.
        where: how messages name `inside` ("its game folder").
        limit: the largest size read, in bytes.

    Raises:
        ReadError: the file is missing or unreadable, leads outside `inside`, is not a regular
            file, is larger than `limit`, or is not UTF-8.
    """
    data = read_bytes(path, inside, where, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ReadError(ReadFailure.NOT_UTF8, f"byte 0x{data[exc.start]:02X} cannot be decoded", line, col) from None
    return as_read(text)


def as_read(text: str) -> str:
    """A source's text as chartc reads it: CRLF and lone CR line ends as LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def held_text(text: str, limit: int = MAX_SOURCE_BYTES) -> str:
    """An editor's unsaved text read as a file of the same bytes would be (`read_text`): the same
    line ends and the same size limit.

    Raises:
        ReadError: the text is larger than `limit` bytes in UTF-8.
    """
    if len(text) > limit or (4 * len(text) > limit and len(text.encode("utf-8", "surrogatepass")) > limit):
        raise ReadError(ReadFailure.TOO_LARGE, f"over the limit of {limit:,} bytes")
    return as_read(text)


def read_bytes(path: Path, inside: Path, where: str = "its folder", limit: int = MAX_SOURCE_BYTES) -> bytes:
    """A file's bytes, under the same rules as `read_text` (no decoding).

    Raises:
        ReadError: as `read_text`, except for decoding.
    """
    data = _read_regular(path, inside, where, limit, refuse_larger=True)
    if len(data) > limit:  # the file grew while it was read
        raise ReadError(ReadFailure.TOO_LARGE, f"over the limit of {limit:,} bytes")
    return data


def read_start(path: Path, inside: Path, where: str, size: int) -> bytes:
    """The first `size` bytes of a file (all of it when shorter), under the rules of `read_bytes`
    except the size limit.

    Raises:
        ReadError: as `read_bytes`, except for the size.
    """
    return _read_regular(path, inside, where, size, refuse_larger=False)[:size]


def _read_regular(path: Path, inside: Path, where: str, limit: int, refuse_larger: bool) -> bytes:
    """Up to `limit` + 1 bytes of a regular file inside `inside`."""
    real = resolve_inside(path, inside, where)
    try:
        fd = os.open(real, _OPEN_FLAGS)
    except OSError as exc:
        raise ReadError(ReadFailure.UNREADABLE, exc.strerror or str(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReadError(ReadFailure.NOT_REGULAR, _file_type(info.st_mode))
        if refuse_larger and info.st_size > limit:
            raise ReadError(ReadFailure.TOO_LARGE, f"{info.st_size:,} bytes, over the limit of {limit:,}")
        return _read_at_most(fd, limit + 1)
    except OSError as exc:
        raise ReadError(ReadFailure.UNREADABLE, exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def resolve_inside(path: Path, inside: Path, where: str = "its folder") -> Path:
    """`path` with every symlink resolved, provided it lies strictly inside `inside`.

    Raises:
        ReadError: the path does not exist, or resolves outside `inside`.
    """
    try:
        real = path.resolve(strict=True)
        root = inside.resolve(strict=True)
    except OSError as exc:
        raise ReadError(ReadFailure.UNREADABLE, exc.strerror or str(exc)) from None
    if root not in real.parents:
        raise ReadError(ReadFailure.OUTSIDE, f"{real}, outside {where}")
    return real


def _read_at_most(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    remaining = size
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _file_type(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
