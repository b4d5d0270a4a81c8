"""Files as a stream of byte chunks cut at line ends: bounded memory, line numbers and progress for the readers.

Every reader walks its input a chunk at a time (a few MiB of whole lines, or a slice of a
Parquet file's rows), counts the chunk, and keeps only the counts: memory is set by the
chunk size and the number of distinct label rows, never by the file's length. Chunks know
their first line's number, so a bad line is named exactly, and a :class:`Meter` reports the
bytes and rows done to a progress callback.
"""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from clfeval.errors import InputError

__all__ = ["CHUNK_BYTES", "STDIN", "Chunk", "Meter", "ReadProgress", "chunk_bytes", "expand_paths", "line_chunks",
           "size_of"]

#: Bytes read per chunk unless ``CLFEVAL_CHUNK_BYTES`` says otherwise (4 MiB: the peak memory of a
#: chunk's parse stays near 100 MiB, and larger chunks are no faster).
CHUNK_BYTES = 4 << 20
STDIN = "-"
_BOM = b"\xef\xbb\xbf"
_GLOB_CHARS = frozenset("*?[")

#: ``progress(bytes_done, bytes_total or None, rows_done)``: reading progress (no total on standard input).
ReadProgress = Callable[[int, "int | None", int], None]


def chunk_bytes() -> int:
    """The chunk size: ``CLFEVAL_CHUNK_BYTES`` from the environment, else :data:`CHUNK_BYTES`."""
    value = os.environ.get("CLFEVAL_CHUNK_BYTES")
    return max(int(value), 1) if value else CHUNK_BYTES


@dataclass(frozen=True)
class Chunk:
    """Whole lines of a file.

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


def line_chunks(path: str, *, quoted: bool = False, size: int | None = None,
                meter: Meter | None = None) -> Iterator[Chunk]:
    """Read ``path`` (``-``: standard input) as chunks of about ``size`` bytes of whole lines.

    A UTF-8 byte-order mark at the start is dropped. With ``quoted`` (CSV), a chunk never ends
    inside a double-quoted field, so a quoted line break stays within one chunk.
    """
    size = size or chunk_bytes()
    handle = sys.stdin.buffer if path == STDIN else open(path, "rb")
    try:
        rest = b""
        line = 1
        start = True
        while True:
            block = handle.read(size)
            if meter is not None:
                meter.add(len(block))
            data = rest + block if rest else block
            if start and (len(data) >= len(_BOM) or not block):
                start = False
                if data.startswith(_BOM):
                    data = data[len(_BOM):]
            if not block:
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
            line += data.count(b"\n", 0, cut)
    finally:
        if path != STDIN:
            handle.close()
