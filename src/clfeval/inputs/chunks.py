"""Files as a stream of byte chunks cut at line ends: bounded memory, line numbers and progress for the readers.

Every reader walks its input a chunk at a time (a few MiB of whole lines, or a slice of a
Parquet file's rows), counts the chunk, and keeps only the counts: memory is set by the
chunk size and the number of distinct label rows, never by the file's length. Chunks know
their first line's number, so a bad line is named exactly, and a :class:`Meter` reports the
bytes and rows done to a progress callback.

This module is also the one guard every reader shares: each file is opened here (:func:`byte_blocks`),
read up to the size it had when reading began, and a file that grows, is cut or is rewritten meanwhile
is an error naming it (:class:`FileVersion`) — labels, label sets, matrices, scores, spans in CoNLL and
JSON Lines, count files and the small files options name (``--labels``, ``--translate``) alike.
"""

from __future__ import annotations

import glob
import os
import stat as _stat
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from typing import Any, NamedTuple

import numpy as np

from clfeval.errors import InputError

__all__ = [
    "CHUNK_BYTES",
    "STDIN",
    "Chunk",
    "FileVersion",
    "Meter",
    "ReadProgress",
    "byte_blocks",
    "check_source",
    "chunk_bytes",
    "display_name",
    "expand_paths",
    "lf_bytes",
    "line_chunks",
    "line_ends",
    "size_of",
]

#: Bytes read per chunk unless ``CLFEVAL_CHUNK_BYTES`` says otherwise (4 MiB: the peak memory of a
#: chunk's parse stays near 100 MiB, and larger chunks are no faster).
CHUNK_BYTES = 4 << 20
STDIN = "-"
_BOM = b"\xef\xbb\xbf"
_GLOB_CHARS = frozenset("*?[")
_COUNT_SLICE = 1 << 20  # line_ends: bytes compared at a time

#: ``progress(bytes_done, bytes_total or None, rows_done)``: reading progress (no total on standard input).
ReadProgress = Callable[[int, "int | None", int], None]


def chunk_bytes() -> int:
    """The chunk size: ``CLFEVAL_CHUNK_BYTES`` from the environment, else :data:`CHUNK_BYTES`."""
    value = os.environ.get("CLFEVAL_CHUNK_BYTES")
    return max(int(value), 1) if value else CHUNK_BYTES


class Chunk(NamedTuple):
    """Whole lines of a file (a named tuple: cheaper to define at import than a frozen dataclass).

    Attributes
    ----------
    data
        The lines' bytes, line ends included (the last line of a file may lack one).
    first_line
        The 1-based number, in the file, of ``data``'s first line.
    """

    data: bytes
    first_line: int


class Meter:
    """Bytes and rows read so far across every file of one reading, reported to ``progress``."""

    def __init__(self, total_bytes: int | None, progress: ReadProgress | None = None) -> None:
        self.total_bytes = total_bytes
        self.progress = progress
        self.bytes = 0
        self.rows = 0

    def add(self, nbytes: int = 0, rows: int = 0) -> None:
        """Count ``nbytes`` more bytes read and ``rows`` more rows counted."""
        self.bytes += nbytes
        self.rows += rows
        if self.progress is not None:
            self.progress(self.bytes, self.total_bytes, self.rows)


def size_of(paths: Sequence[str]) -> int | None:
    """The total size of the files in bytes; ``None`` when standard input is among them."""
    if STDIN in paths:
        return None
    return sum(os.path.getsize(p) for p in paths if os.path.isfile(p))


def display_name(path: str) -> str:
    """A path as messages name it: ``<stdin>`` for standard input."""
    return "<stdin>" if path == STDIN else path


def check_source(path: str) -> None:
    """Refuse a path that names no file, or a directory (standard input passes)."""
    if path == STDIN:
        return
    if not os.path.exists(path):
        raise InputError("no such file", path)
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", path)


def expand_paths(specs: str | Sequence[str]) -> list[str]:
    """File paths from paths and glob patterns (``data/part-*.csv``, ``**`` too), in order, each glob sorted.

    A pattern that matches nothing is an error; a path that exists is taken as it is, even with
    glob characters in its name.

    Raises
    ------
    InputError
        If a pattern matches no file.
    """
    out: list[str] = []
    for spec in [specs] if isinstance(specs, str) else specs:
        if spec == STDIN or os.path.exists(spec) or not _GLOB_CHARS & set(spec):
            out.append(spec)
            continue
        found = sorted(p for p in glob.glob(spec, recursive=True) if os.path.isfile(p))
        if not found:
            raise InputError("no file matches this pattern", spec)
        out.extend(found)
    return out


def _cut(data: bytes, quoted: bool) -> int:
    """Where to cut ``data``: after its last line end (outside double quotes when ``quoted``); 0 if nowhere."""
    cut = data.rfind(b"\n") + 1
    if quoted and b'"' in data:
        while cut > 0 and data.count(b'"', 0, cut) % 2:
            cut = data.rfind(b"\n", 0, cut - 1) + 1
    return cut


def line_ends(data: bytes, end: int | None = None) -> int:
    """How many ``\\n`` bytes ``data[:end]`` holds. numpy compares a MiB at a time: about five times as fast as
    ``bytes.count`` on a 4 MiB chunk (0.2 ms against 1 ms), with a MiB of scratch memory at most."""
    end = len(data) if end is None else end
    if end < _COUNT_SLICE:
        return data.count(b"\n", 0, end)
    codes = np.frombuffer(data, dtype=np.uint8, count=end)
    return sum(int(np.count_nonzero(codes[i : i + _COUNT_SLICE] == 10)) for i in range(0, end, _COUNT_SLICE))


def lf_bytes(data: bytes) -> bytes:
    """Bytes whose line ends the readers all take: ``\\n``, and ``\\r\\n`` (Windows; the readers strip its ``\\r``)
    as they are; ``\\r`` alone (old Mac files, or a mix of kinds in one file) made ``\\n``, as Python's universal
    newlines read it. Only bytes with a lone ``\\r`` are rewritten (one vectorised look at each ``\\r``'s next byte
    tells)."""
    if b"\r" not in data:
        return data
    codes = np.frombuffer(data, dtype=np.uint8)
    returns = np.flatnonzero(codes == 13)
    after = returns + 1
    if after[-1] < len(codes) and not (codes[after] != 10).any():
        return data  # every \r is followed by \n (a \r ending the data is kept back by the reader)
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


class FileVersion:
    """The size and modification time of a file when reading began, to catch a file changed while it is read.

    A file that grows, is cut or is rewritten while clfeval reads it would give counts of neither
    version; :meth:`check` stops that with an error naming the file. Every reader holds a file to it:
    through :func:`byte_blocks` (and :func:`line_chunks`, :func:`read_bytes` on top of it), or, for a
    Parquet file polars reads in slices, directly (``inputs/typed.py``).
    """

    def __init__(self, path: str, handle: Any = None) -> None:
        self.path = path
        stat = os.fstat(handle.fileno()) if handle is not None else os.stat(path)
        self.size, self.mtime = stat.st_size, stat.st_mtime_ns
        self.regular = _stat.S_ISREG(stat.st_mode)

    def check(self, handle: Any = None, read: int | None = None) -> None:
        """Raise when the file is no longer what it was when reading began (``read``: the bytes read)."""
        if not self.regular:
            return
        try:
            stat = os.fstat(handle.fileno()) if handle is not None else os.stat(self.path)
        except OSError:
            raise InputError("disappeared while it was read", self.path) from None
        if read is not None and read < self.size:
            raise InputError(
                f"was cut while it was read: {self.size} bytes when reading began, only {read} "
                "could be read; what was read would be incomplete, so nothing was scored or written",
                self.path,
            )
        if stat.st_size != self.size or stat.st_mtime_ns != self.mtime:
            change = (
                f"its size went from {self.size} to {stat.st_size} bytes"
                if stat.st_size != self.size
                else "it was rewritten"
            )
            raise InputError(
                f"changed while it was read ({change}): what was read would mix two versions of the "
                "file, so nothing was scored or written; read it again once it is complete (or read a copy)",
                self.path,
            )


def byte_blocks(path: str, *, size: int | None = None, meter: Meter | None = None) -> Iterator[bytes]:
    """Read ``path`` (``-``: standard input) as blocks of about ``size`` bytes, under the one guard every reader
    shares: a regular file is read up to the size it had when reading began, and a file that grew, was cut or was
    rewritten meanwhile is an :class:`InputError` naming it (:class:`FileVersion`), raised after the last block,
    before a reader hands on what it counted. ``meter`` is told the bytes of each block."""
    size = size or chunk_bytes()
    # standard input is not ours to close
    with nullcontext(sys.stdin.buffer) if path == STDIN else open(path, "rb") as handle:
        version = FileVersion(path, handle) if path != STDIN else None
        left = version.size if version is not None and version.regular else None  # bytes still to read
        read = 0
        while True:
            raw = handle.read(size if left is None else min(size, left))
            if not raw:
                if version is not None:
                    version.check(handle, read)
                return
            read += len(raw)
            if left is not None:
                left -= len(raw)
            if meter is not None:
                meter.add(len(raw))
            yield raw


def read_bytes(path: str, *, meter: Meter | None = None) -> bytes:
    """A whole file (``-``: standard input) as bytes, read under the guard of :func:`byte_blocks`: for the readers
    that parse a file whole (JSON Lines of sentences, count files, score files in JSON Lines or Parquet, small
    text files)."""
    return b"".join(byte_blocks(path, meter=meter))


def line_chunks(
    path: str,
    *,
    quoted: bool = False,
    size: int | None = None,
    meter: Meter | None = None,
    universal: bool = True,
) -> Iterator[Chunk]:
    """Read ``path`` (``-``: standard input) as chunks of about ``size`` bytes of whole lines.

    A UTF-8 byte-order mark at the start is dropped. With ``universal`` (the default), lines may end in ``\\n``,
    ``\\r\\n`` or ``\\r`` alone, in any mix: chunks come with ``\\n`` line ends (:func:`lf_bytes`); without it the bytes
    are handed on as they are, cut after a ``\\n`` (for a reader that refuses a ``\\r`` itself). With ``quoted`` (CSV),
    a chunk never ends inside a double-quoted field, so a quoted line break stays within one chunk. The file is read
    through :func:`byte_blocks`: up to the size it had when reading began, and a file that changes meanwhile is an
    error.
    """
    rest = b""
    line = 1
    start = True
    carry = b""  # a \r ending a block: its \n may open the next block
    blocks = byte_blocks(path, size=size, meter=meter)
    while True:
        raw = next(blocks, b"")
        eof = not raw
        block = carry + raw if carry else raw
        carry = b""
        if universal:
            if raw and block.endswith(b"\r"):
                block, carry = block[:-1], b"\r"
            block = lf_bytes(block)
        data = rest + block if rest else block
        if start and (len(data) >= len(_BOM) or eof):
            start = False
            if data.startswith(_BOM):
                data = data[len(_BOM) :]
        if eof:
            if data:
                yield Chunk(data, line)
            return
        if start:
            rest = data
            continue
        cut = _cut(data, quoted)
        if cut == 0:
            rest = data
            continue
        rest = data[cut:]
        yield Chunk(data[:cut], line)
        line += line_ends(data, cut)
