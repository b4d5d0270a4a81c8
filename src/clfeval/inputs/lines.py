"""Lines of text one at a time: numbered, decoded, split into fields, a TiMBL class distribution taken off.

The slow, exact path: the readers fall back on it to name the first bad line of a chunk, and it reads the
small files that need no chunked reader (confusion matrices, :mod:`clfeval.inputs.matrix`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from functools import cache

from clfeval.errors import InputError
from clfeval.inputs.chunks import Chunk, line_chunks

__all__ = [
    "DISTRIBUTION",
    "decode_line",
    "has_distribution",
    "is_blank_line",
    "lines_of",
    "split_fields",
    "strip_distribution",
]


#: A TiMBL class distribution after the predicted label, e.g. ``{ A 0.7, B 0.3 }``, optionally followed by one
#: more field (TiMBL's distance, +v di); group 1 keeps that field. Labels then numbers, so ``{A,B}`` is not one.
DISTRIBUTION = (
    r"\s+\{\s*(?:[^\s{},]+\s+[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\s*,?\s*)+\}"
    r"(\s+[^\s{}]+)?\s*$"
)


@cache
def _distribution_re() -> re.Pattern[str]:
    """:data:`DISTRIBUTION` compiled, on first use: only a line with a ``{`` can hold a distribution, and most
    files have none."""
    return re.compile(DISTRIBUTION)


def has_distribution(text: str) -> bool:
    """Whether a line ends in a TiMBL class distribution (:data:`DISTRIBUTION`)."""
    return "{" in text and _distribution_re().search(text) is not None


def strip_distribution(text: str, keep_distance: bool) -> str:
    """A line without its trailing class distribution (and without TiMBL's distance after it, unless kept)."""
    if "{" not in text:  # no distribution without a brace
        return text
    return _distribution_re().sub(r"\1" if keep_distance else "", text)


def lines_of(src: str | bytes, offset: int = 0) -> Iterator[tuple[int, bytes]]:
    """Iterate (line number, raw bytes without the line end) over a path (``-``: standard input), read as
    :func:`clfeval.inputs.chunks.line_chunks` reads it (line ends ``\\n``, ``\\r\\n`` or ``\\r``; a byte-order mark
    dropped), or over a chunk's bytes, whose numbers start at ``offset`` + 1."""
    chunks = [Chunk(src, offset + 1)] if isinstance(src, bytes) else line_chunks(src)
    for chunk in chunks:
        for number, raw in enumerate(io.BytesIO(chunk.data), start=chunk.first_line):
            yield number, raw.rstrip(b"\r\n")


def decode_line(raw: bytes, name: str, number: int) -> str:
    """A line's text; bytes that are not UTF-8 are an :class:`InputError` at ``name:number``."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"is not valid UTF-8: byte 0x{raw[exc.start]:02x} at column {exc.start + 1} (convert the file to UTF-8)",
            name,
            number,
        ) from None


def split_fields(
    text: str, sep: str | None, quoted: bool, name: str | None = None, number: int | None = None
) -> list[str]:
    """A line's fields: runs of whitespace (``sep`` None), quoted CSV, or one separator. A line Python's csv
    module cannot take raises :class:`InputError` at ``name:number`` when given, else ``csv.Error``."""
    if sep is None:
        return text.split()
    if quoted:
        try:
            return next(csv.reader([text], delimiter=sep), [])
        except csv.Error as exc:
            if name is None:
                raise
            raise InputError(f"could not be read as CSV: {exc}", name, number) from None
    return text.split(sep)


def is_blank_line(text: str, sep: str | None) -> bool:
    """A line with nothing on it; a line of separators (``\t`` in a TSV) holds empty cells and is not blank."""
    return not text.strip() and (sep is None or sep not in text)
