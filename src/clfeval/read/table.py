"""Reading label columns from files: text (whitespace), CSV, TSV, JSON Lines, Parquet, or standard input.

Files are read a chunk at a time (:mod:`clfeval.read.chunks`): polars parses each chunk and
groups it by its label columns, and only the unique rows (gold, predicted …) with their
counts are kept, so memory does not grow with the file and many files add up as one. When a
chunk looks wrong (a parse error, an empty or missing cell), a line-by-line pass over that
chunk finds the first offending line and says what it expected there; a chunk that is fine
never pays for it unless it has empty cells.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from clfeval.errors import InputError, OptionError
from clfeval.read.chunks import (STDIN, Chunk, FileVersion, Meter, ReadProgress, check_source, display_name,
                                 line_chunks, size_of)
from clfeval.read.columns import Column, one_role_each, resolve_column
from clfeval.read.formats import TableOptions, format_of, no_line_rules, separator_of, shown_pattern
from clfeval.read.lines import (DISTRIBUTION, DISTRIBUTION_RE, decode_line, is_blank_line, lines_of, split_fields,
                                strip_distribution)
from clfeval.read.tally import BLOCK_KEY, Tally, collect, unique_counts, unpack

__all__ = ["Cells", "first_line_with", "read_cells", "read_cells_in_line_order"]


@dataclass(frozen=True, eq=False)
class Cells:
    """Unique rows of the chosen columns with their counts, as read from a file.

    ``rows[i]`` is a tuple with one value per chosen column: a string, or a tuple of strings
    for a list-typed cell (JSON Lines, Parquet). The embedded reader also keeps ``frame``, the
    same rows as a polars DataFrame (columns ``c0``, ``c1`` … and ``n``), and builds ``rows``
    only when they are asked for: callers with many unique rows read the columns instead.
    """

    rows: Sequence[tuple[Any, ...]]
    counts: np.ndarray
    source: str
    first_row: tuple[Any, ...] | None = None
    header: bool = False
    warnings: tuple[str, ...] = field(default=())
    frame: Any = None
    is_list: tuple[bool, ...] | None = None  # which columns held lists (JSON Lines, Parquet), when known


class _LazyRows(Sequence[tuple[Any, ...]]):
    """A tally's unique rows as Python tuples, built on first use (its length is known without them)."""

    def __init__(self, tally: Tally, is_list: Sequence[bool] | None, height: int) -> None:
        self._tally, self._is_list, self._height, self._rows = tally, is_list, height, None

    def _built(self) -> list[tuple[Any, ...]]:
        if self._rows is None:
            self._rows = self._tally.rows(self._is_list)[0]
        return self._rows

    def __len__(self) -> int:
        return self._height

    def __getitem__(self, index: Any) -> Any:
        return self._built()[index]

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._built())


def _source(path: str) -> Any:
    """What polars reads: the path, or standard input's bytes."""
    if path == STDIN:
        return sys.stdin.buffer.read()
    check_source(path)
    return path


def _diagnose(src: Any, name: str, sep: str | None, quoted: bool, header: bool, ncols: int | None,
              positions: Sequence[int], roles: Sequence[str], empty_ok: bool, *, offset: int = 0,
              skip: str | None = None, strip: bool = False, keep_distance: bool = False,
              block_end: str | None = None) -> int:
    """The slow, exact pass: raise on the first bad line; otherwise return the number of blank lines.

    Lines matching ``skip`` or ``block_end`` are passed over; ``strip`` takes a trailing class distribution
    off first. ``ncols``: every line must have that many fields. Negative positions count from each line's
    end; two roles may not fall on the same field of a line.
    """
    blank = 0
    need = max(p + 1 if p >= 0 else -p for p in positions)
    header_pending = header
    passed = [re.compile(p) for p in (skip, block_end) if p is not None]
    for number, raw in lines_of(src, offset):
        text = decode_line(raw, name, number)
        if is_blank_line(text, sep):
            blank += 1
            continue
        if any(pattern.search(text) for pattern in passed):
            continue
        if header_pending:
            header_pending = False
            continue
        if strip:
            text = strip_distribution(text, keep_distance)
        fields = split_fields(text, sep, quoted, name, number)
        if ncols is not None and len(fields) != ncols:
            raise InputError(f"expected {ncols} fields, found {len(fields)}", name, number)
        if len(fields) < need:
            raise InputError(f"expected at least {need} fields (for the {' and '.join(roles)} labels), "
                             f"found {len(fields)}", name, number)
        _distinct_fields(positions, roles, len(fields), name, number)
        if not empty_ok:
            for p, role in zip(positions, roles):
                if fields[p].strip() == "":
                    raise InputError(f"the {role} label is empty", name, number)
    return blank


def _distinct_fields(positions: Sequence[int], roles: Sequence[str], width: int, name: str,
                     number: int | None) -> None:
    """Refuse two roles that fall on the same field of a line ``width`` fields wide (negative: from its end)."""
    seen: dict[int, str] = {}
    for p, role in zip(positions, roles):
        at = p if p >= 0 else width + p
        if at in seen:
            cause = " (a column scored against itself is always right)" if {seen[at], role} & {"gold"} else ""
            raise InputError(f"the {seen[at]} and {role} columns are the same field ({at + 1} of {width}) on this "
                             f"line: give columns that differ{cause}", name, number)
        seen[at] = role


def _scan_lines(data: bytes) -> Any:
    """A chunk's lines as one string column ``line``, blank lines included (a lazy polars frame)."""
    import polars as pl

    return pl.scan_csv(data, separator="\x00", has_header=False, quote_char=None, infer_schema=False,
                       empty_string_is_null=False, new_columns=["line"], raise_if_empty=False)


# --------------------------------------------------------------------------- delimited text


@dataclass(frozen=True)
class _Layout:
    """How one delimited file's lines are read: what its first line said."""

    name: str
    fmt: str
    sep: str | None
    quoted: bool
    width: int  # fields on the first (data or header) line
    positions: tuple[int, ...]  # 0-based, from the first line
    line_positions: tuple[int, ...]  # the same, negative ones kept negative for whitespace text (per line)
    roles: tuple[str, ...]
    empty_ok: bool
    fast: bool  # try polars' CSV parser first (whitespace text: when its first line has single spaces or no tabs)
    skip: str | None = None  # lines matching it are not instances
    strip: bool = False  # take trailing class distributions off (text and TSV, unless --keep-trailing)
    blocks: bool = False  # number the lines' blocks (blank lines, and lines matching block_end, delimit them)
    keep_distance: bool = False  # keep the field after a stripped distribution
    block_end: str | None = None  # lines matching it end a block and are not instances
    ragged: bool = False  # lines may differ in width: runs of whitespace, or every column counted from the end

    @property
    def keys(self) -> list[str]:
        return [f"c{i}" for i in range(len(self.positions))]

    @property
    def fast_sep(self) -> str:
        return self.sep if self.sep is not None else " "

    def diagnose(self, chunk: Chunk, ncols: int | None = None, positions: Sequence[int] | None = None) -> int:
        """Raise on the chunk's first bad line (lines must be ``ncols`` wide, and the layout's width unless lines
        may be ragged); otherwise return its number of blank lines."""
        if ncols is None and not self.ragged:
            ncols = self.width
        return _diagnose(chunk.data, self.name, self.sep, self.quoted, False, ncols,
                         self.line_positions if positions is None else positions, self.roles, self.empty_ok,
                         offset=chunk.first_line - 1, skip=self.skip, strip=self.strip,
                         keep_distance=self.keep_distance, block_end=self.block_end)

    @property
    def lined(self) -> bool:
        """Whether every chunk goes through the line path (:func:`_line_frame`): lines to skip or number by block."""
        return self.skip is not None or self.blocks

    @property
    def crossing(self) -> list[tuple[int, int]]:
        """Pairs (a column from the start, a column from the end) that fall on one field of a line of some width."""
        ahead = [p for p in self.line_positions if p >= 0]
        behind = [p for p in self.line_positions if p < 0]
        return [(a, b) for a in ahead for b in behind]


def _delimited_chunks(path: str, name: str, fmt: str, options: TableOptions, columns: Sequence[Column],
                      roles: Sequence[str], empty_ok: bool, meter: Meter | None, blocks: bool = False
                      ) -> tuple[_Layout, bool, tuple[str, ...], Iterator[Chunk], int]:
    """Open a delimited file: its layout, whether it has a header, its first data line's fields, its chunks
    (the header line taken out) and the number of blank lines before the first line.

    Lines matching the skip pattern before the first line are passed over (and not counted as blank);
    with ``blocks`` the chunks keep those leading lines, so the line path sees every line."""
    sep = separator_of(fmt, options)
    quoted = fmt == "csv"
    _check_label_sep(options.label_sep, sep, quoted, fmt, name)
    strip = not options.keep_trailing and fmt in ("text", "tsv")
    header = bool(options.header) or any(isinstance(c, str) for c in columns)
    chunks = line_chunks(path, quoted=quoted, meter=meter)
    passed = [re.compile(p) for p in (options.skip, options.block_end) if p is not None]
    first_line: str | None = None
    leading_blank = 0
    head: Chunk | None = None
    for chunk in chunks:
        for offset, (number, raw) in enumerate(lines_of(chunk.data, chunk.first_line - 1)):
            text = decode_line(raw, name, number)
            if is_blank_line(text, sep):
                leading_blank += 1
                continue
            if any(pattern.search(text) for pattern in passed):
                continue
            first_line = strip_distribution(text, options.keep_distance) if strip and not header else text
            if header:  # the header line goes; lines before it are blank or skipped, so they may go too
                head = Chunk(chunk.data[_line_start(chunk.data, offset + 1):], number + 1)
            elif blocks or passed:  # keep every line from the chunk's start: the line path reads them
                head, leading_blank = chunk, 0
            else:  # drop the blank lines before it
                head = Chunk(chunk.data[_line_start(chunk.data, offset):], number)
            break
        if first_line is not None:
            break
    if first_line is None or head is None:
        raise InputError("is empty: expected lines of labels", name)
    fields = split_fields(first_line, sep, quoted, name, number)
    names = fields if header else [f"column_{i + 1}" for i in range(len(fields))]
    positions = tuple(resolve_column(c, names, name, r) for c, r in zip(columns, roles))
    _distinct_fields(positions, roles, len(fields), name, number)
    # Lines may differ in width where each column is well defined on every line: whitespace text (a column
    # counts from the start or the end of its own line), or every column counted from the end (TiMBL output
    # with sparse features written with -f ','). A column from the start of a line of another width, with one
    # separator, is what an unquoted separator inside a field gives: lines must then all be as wide as the first.
    from_end = all(isinstance(c, int) and c < 0 for c in columns)
    ragged = sep is None or (from_end and not (quoted and options.label_sep is not None
                                               and sep in options.label_sep))
    line_positions = tuple(c if isinstance(c, int) and c < 0 and ragged else p for c, p in zip(columns, positions))
    fast = sep is not None or " " in first_line.strip() or "\t" not in first_line
    if strip and not header and DISTRIBUTION_RE.search(text):
        fast = False  # TiMBL output with class distributions: the line path takes them off
    layout = _Layout(name, fmt, sep, quoted, len(fields), positions, line_positions, tuple(roles), empty_ok, fast,
                     options.skip, strip, blocks, options.keep_distance, options.block_end, ragged)
    data_first = () if header else tuple(fields[p].strip() for p in positions)
    rest = itertools.chain([head] if head.data else [], chunks)
    return layout, header, data_first, rest, leading_blank


def _check_label_sep(label_sep: str | None, sep: str | None, quoted: bool, fmt: str, name: str) -> None:
    """Refuse a label separator that would split a label set into fields: whitespace in whitespace-separated
    text, or the field separator (in CSV, a cell holding it must then be quoted: allowed)."""
    if label_sep is None:
        return
    if sep is None and any(ch.isspace() for ch in label_sep):
        raise OptionError(f"{name}: --label-sep {label_sep!r} holds whitespace, which separates the fields of "
                          f"{fmt} input, so label sets would be split into fields: choose another --label-sep, or give "
                          "the field separator with --sep")
    if sep is not None and sep in label_sep and not quoted:
        shown = "'\\t' (tab)" if sep == "\t" else repr(sep)
        raise OptionError(f"{name}: --label-sep {label_sep!r} holds the field separator {shown} of {fmt} input, so "
                          "label sets would be split into fields: choose another --label-sep (or --sep)")


def _line_start(data: bytes, k: int) -> int:
    """Where line ``k`` (0-based) of ``data`` starts; ``len(data)`` when it has fewer lines."""
    cut = 0
    for _ in range(k):
        end = data.find(b"\n", cut)
        if end < 0:
            return len(data)
        cut = end + 1
    return cut


def _leading_blanks(chunk: Chunk, layout: _Layout) -> tuple[Chunk, int]:
    """The chunk without its leading blank lines, and how many there were."""
    cut, blank = 0, 0
    data = chunk.data
    while cut < len(data):
        end = data.find(b"\n", cut)
        end = len(data) if end < 0 else end + 1
        if not is_blank_line(data[cut:end].decode("utf-8", "replace"), layout.sep):
            break
        cut, blank = end, blank + 1
    return (Chunk(data[cut:], chunk.first_line + blank) if blank else chunk), blank


class _ChunkCount(NamedTuple):
    """One chunk counted: its unique rows with counts, what it passed over, and where its blocks end."""

    frame: Any
    blank: int  # blank lines
    skipped: int  # lines matching the skip pattern
    narrow: int  # fewest fields on a line
    wide: int  # most fields on a line
    next_block: int  # the block number after the chunk's last line


def _delimited_frame(chunk: Chunk, layout: _Layout, block: int = 0) -> _ChunkCount:
    """Count one chunk; ``block`` is the number of its first line's block (blank-line blocks)."""
    import polars as pl

    if layout.lined:
        return _line_frame(chunk, layout, block)
    chunk, blank = _leading_blanks(chunk, layout)
    if not chunk.data:
        return _ChunkCount(pl.DataFrame(), blank, 0, layout.width, layout.width, block)
    if layout.fast:
        frame, more_blank = _delimited_fast(chunk, layout)
        if frame is not None:
            return _ChunkCount(frame, blank + more_blank, 0, layout.width, layout.width, block)
    counted = _line_frame(chunk, layout, block)
    return counted._replace(blank=counted.blank + blank)


def _even_width(chunk: Chunk, layout: _Layout, exact: bool = False) -> bool:
    """Whether every non-blank line of the chunk has the first line's width.

    polars takes the width from the first line and reads selected columns of a wider or narrower
    line without complaint, so the fast path checks: the separators in the chunk must number
    (width − 1) per line — a byte count, at memory speed — and only when they do not (blank lines,
    say) are the lines counted one by one. The byte count is necessary, not sufficient (a wider line
    can make up for a narrower one): the fast path also looks at the last field, empty on every
    narrower line, and asks again with ``exact`` when one is. Quoted CSV fields may hold separators
    and line ends: there records are counted by Python's csv module.
    """
    import polars as pl

    sep = layout.fast_sep.encode()
    data = chunk.data
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if layout.quoted and b'"' in data:  # records may span lines: Python's csv module counts their fields
        records = csv.reader(io.StringIO(data.decode("utf-8", "replace"), newline=""), delimiter=layout.fast_sep)
        return all(len(record) == layout.width for record in records if record)
    if not exact and data.count(sep) == (layout.width - 1) * lines:
        return True
    line = pl.col("line")
    counts = collect(_scan_lines(data)
                     .filter(line.str.strip_chars() != "")
                     .select(line.str.count_matches(layout.fast_sep, literal=True).alias("c")))
    return bool((counts.get_column("c") == layout.width - 1).all())


def _delimited_fast(chunk: Chunk, layout: _Layout) -> tuple[Any, int]:
    """polars' CSV parser on one separator; ``(None, 0)`` when the chunk is whitespace text it cannot take."""
    import polars as pl

    keys = layout.keys
    try:
        lf = pl.scan_csv(chunk.data, separator=layout.fast_sep, has_header=False,
                         quote_char='"' if layout.quoted else None, infer_schema=False, empty_string_is_null=False,
                         raise_if_empty=False)
        width = len(lf.collect_schema())
        if width != layout.width or not _even_width(chunk, layout):
            raise ValueError("a line of another width")
        columns = [pl.nth(p).alias(k) for p, k in zip(layout.positions, keys)]
        if width - 1 in layout.positions:  # a narrower line leaves the last field empty: the check below sees it
            frame = unique_counts(lf.select(columns), keys)
        else:  # the last field is not read: look at it too
            last = (pl.nth(width - 1) == "").alias("__short")  # empty on a narrower line (or an empty last field)
            frame = unique_counts(lf.select([*columns, last]), [*keys, "__short"])
            if frame.get_column("__short").any() and not _even_width(chunk, layout, exact=True):
                raise ValueError("a line of another width")
            frame = frame.group_by(keys).agg(pl.col("n").sum())
    except Exception as exc:  # polars parse errors, or ragged lines: find the line ourselves
        if layout.ragged:
            return None, 0  # the line path splits each line on its own
        layout.diagnose(chunk, layout.width, layout.positions)
        raise InputError(f"could not be read as {layout.fmt}: {str(exc).splitlines()[0]}", layout.name) from None
    empty = pl.any_horizontal([pl.col(k) == "" for k in keys])
    if layout.sep is None and frame.select((empty | pl.any_horizontal(
            [pl.col(k).str.contains(r"\s") for k in keys])).any()).item():
        return None, 0  # runs of whitespace or tabs: take the general whitespace path
    if not frame.select(empty.any()).item():
        return frame, 0
    if layout.ragged:
        return None, 0  # a narrower line, perhaps: the line path splits each line on its own
    # raises on short lines (and on empty labels unless empty cells are allowed)
    n_blank = layout.diagnose(chunk, layout.width, layout.positions)
    if n_blank:
        blank_row = pl.all_horizontal([pl.col(k) == "" for k in keys])
        frame = frame.with_columns(pl.when(blank_row).then(pl.col("n") - n_blank).otherwise(pl.col("n")).alias("n"))
        frame = frame.filter(pl.col("n") > 0)
    return frame, n_blank


def _line_fields(layout: _Layout, chunk: Chunk) -> Any:
    """The expression splitting a line into fields; ``None`` for quoted CSV with quotes in the chunk."""
    import polars as pl

    line = pl.col("line")
    if layout.strip:
        line = line.str.replace(DISTRIBUTION, "${1}" if layout.keep_distance else "")
    if layout.sep is None:
        return line.str.strip_chars().str.replace_all(r"\s+", " ").str.split(" ")
    if layout.quoted and b'"' in chunk.data:
        return None
    return line.str.strip_chars("\r").str.split(layout.sep)


def _line_frame(chunk: Chunk, layout: _Layout, block: int = 0) -> _ChunkCount:
    """The general path, in polars: each line split on its own (runs of whitespace, tabs, a ragged width),
    lines matching the skip pattern passed over, trailing class distributions taken off, and blank lines (and
    lines matching the block-end pattern) counted as block delimiters: a line's block is ``block`` plus the
    delimiters before it in the chunk."""
    import polars as pl

    keys = layout.keys
    lines = _scan_lines(chunk.data)
    raw = pl.col("line")
    blank = raw.str.strip_chars() == ""
    if layout.sep is not None:
        blank = blank & ~raw.str.contains(layout.sep, literal=True)
    ends = raw.str.contains(layout.block_end) & ~blank if layout.block_end is not None else pl.lit(False)
    skipped = raw.str.contains(layout.skip) & ~blank & ~ends if layout.skip is not None else pl.lit(False)
    marked = lines.with_columns(blank.alias("__blank"), ends.alias("__end"), skipped.alias("__skip"))
    if layout.blocks:
        delimiter = pl.col("__blank") | pl.col("__end")
        marked = marked.with_columns((delimiter.cast(pl.Int64).cum_sum() + block).alias(BLOCK_KEY))
    try:
        marked = collect(marked).lazy()  # parsed once: the counts, the fields and the widths below all read it
    except Exception:
        layout.diagnose(chunk)
        raise
    kept = marked.filter(~pl.col("__blank") & ~pl.col("__end") & ~pl.col("__skip"))
    fields = _line_fields(layout, chunk)
    extra = [BLOCK_KEY] if layout.blocks else []
    try:
        tally = collect(marked.select(pl.col("__blank").sum().alias("b"), pl.col("__skip").sum().alias("s"),
                                      pl.col("__end").sum().alias("e")))
        n_blank, n_skipped, n_ends = tally.row(0)
        if fields is None:  # quoted CSV: Python's csv module, line by line
            texts = collect(kept.select("line", *extra))
            split = [split_fields(t, layout.sep, True) for t in texts.get_column("line").to_list()]
            columns = {k: [f[p] if -len(f) <= p < len(f) else None for f in split]
                       for p, k in zip(layout.line_positions, keys)}
            selected = pl.DataFrame({**columns, **({BLOCK_KEY: texts.get_column(BLOCK_KEY)} if extra else {})},
                                    schema={**{k: pl.String for k in keys}, **({BLOCK_KEY: pl.Int64} if extra else {})})
            widths = pl.DataFrame({"w": [len(f) for f in split]}, schema={"w": pl.Int64}).lazy()
            selected = selected.lazy()
        else:
            split_lines = kept.with_columns(fields.alias("__f"))
            widths = split_lines.select(pl.col("__f").list.len().alias("w"))
            selected = split_lines.select([pl.col("__f").list.get(p, null_on_oob=True).alias(k)
                                           for p, k in zip(layout.line_positions, keys)] + extra)
        if layout.sep is not None:
            selected = selected.with_columns([pl.col(k).str.strip_chars() for k in keys])
        frame = unique_counts(selected, keys + extra)
        w = pl.col("w")
        clash = pl.any_horizontal([w + q == p for p, q in layout.crossing]) if layout.crossing else pl.lit(False)
        narrow, wide, crossed = collect(widths.select(w.min(), w.max().alias("x"), clash.any().alias("c"))).row(0)
    except InputError:
        raise
    except Exception:
        layout.diagnose(chunk)
        raise
    if crossed or (not layout.ragged and narrow is not None and not narrow == wide == layout.width):
        layout.diagnose(chunk)  # two columns on one field of a short line, or a line of another width
    bad = pl.any_horizontal([pl.col(k).is_null() for k in keys])
    if not layout.empty_ok:
        bad = bad | pl.any_horizontal([pl.col(k) == "" for k in keys])
    if frame.select(bad.any()).item():
        layout.diagnose(chunk)
        raise InputError("holds an empty or missing label", layout.name, chunk.first_line)
    return _ChunkCount(frame, int(n_blank), int(n_skipped), narrow if narrow is not None else layout.width,
                       wide if wide is not None else layout.width, block + int(n_blank) + int(n_ends))


@dataclass
class _LeftOut:
    """Lines of one file that are not instances: blank (delimiting) lines and lines matching the skip pattern."""

    blank: int = 0
    skipped: int = 0

    def warnings(self, name: str, options: TableOptions, blocks: bool) -> list[str]:
        """The warnings that name them, one per kind (blank lines that delimit blocks go unsaid)."""
        out = [f"{name}: skipped {self.blank} blank line(s)"] if self.blank and not blocks else []
        if self.skipped:
            out.append(f"{name}: skipped {self.skipped} line(s) matching --skip {shown_pattern(options.skip)}"
                       + (": they do not end blocks (a line matching --block-end does; MBT's sentence ends: "
                          "--block-end '^<utt>')" if blocks and options.block_end is None else ""))
        return out


def _read_delimited(path: str, name: str, fmt: str, options: TableOptions, columns: Sequence[Column],
                    roles: Sequence[str], empty_ok: bool, tally: Tally, meter: Meter | None, block: int | None = None
                    ) -> tuple[tuple[Any, ...] | None, bool, list[str], int]:
    """Count a delimited file into ``tally``: (its first data row, whether it had a header, warnings, the block
    number after its last line). With ``block`` (the number of its first block) the rows are numbered by
    blank-line block, in a last key column :data:`BLOCK_KEY`."""
    layout, header, first, chunks, blank = _delimited_chunks(path, name, fmt, options, columns, roles, empty_ok,
                                                             meter, blocks=block is not None)
    narrow = wide = layout.width
    skipped = 0
    current = block or 0
    for chunk in chunks:
        counted = _delimited_frame(chunk, layout, current)
        blank += counted.blank
        skipped += counted.skipped
        current = counted.next_block
        narrow, wide = min(narrow, counted.narrow), max(wide, counted.wide)
        if counted.frame.height:
            if meter is not None:
                meter.add(rows=int(counted.frame.get_column("n").sum()))
            tally.add(counted.frame)
    warnings = _LeftOut(blank, skipped).warnings(name, options, blocks=block is not None)
    if narrow != wide:
        warnings.append(f"{name}: lines have between {narrow} and {wide} fields; the labels were taken from columns "
                        f"{', '.join(str(c) for c in columns)} of each line (negative: counted from its end)")
    return (first or None), header, warnings, current


# --------------------------------------------------------------------------- typed: JSON Lines and Parquet


def _label_column(schema: Any, column: str) -> Any:
    """A typed column as strings; a list column (label sets) as lists of strings."""
    import polars as pl

    expr = pl.col(column)
    dtype = schema[column]
    inner = dtype.inner if isinstance(dtype, pl.List) else dtype
    if inner.is_float():  # 1.0 and 1 are the same label: integral floats print as integers; NaN is missing
        as_int = pl.element() if isinstance(dtype, pl.List) else expr
        whole = pl.when(as_int.is_nan()).then(None) \
            .when((as_int == as_int.floor()) & (as_int.abs() < 2.0**62)) \
            .then(as_int.cast(pl.Int64, strict=False).cast(pl.String)).otherwise(as_int.cast(pl.String))
        if isinstance(dtype, pl.List):
            return expr.list.eval(whole)
        return whole
    if isinstance(dtype, pl.List):
        return expr.cast(pl.List(pl.String))
    return expr.cast(pl.String)


def _cell_problems(expr: Any, is_list: bool, empty_ok: bool) -> tuple[Any, Any]:
    """Where a typed label cell is missing, and where it holds an empty label: (missing, empty) expressions.

    One rule for label cells of JSON Lines and Parquet: a null cell, and a null element of a list, are
    missing labels (an error); an empty string is an empty label (an error), in a list or not — except that
    a scalar empty cell of multi-label data is the empty set, as in text input; an empty list is the empty set.
    """
    import polars as pl

    if is_list:
        element = pl.element()
        return (expr.is_null() | expr.list.eval(element.is_null()).list.any(),
                expr.list.eval(element.str.strip_chars() == "").list.any())
    empty = pl.lit(False) if empty_ok else expr.str.strip_chars() == ""
    return expr.is_null(), empty


#: Rows per slice of a Parquet file.
_PARQUET_ROWS = 1 << 21


def _typed_parts(path: str, name: str, fmt: str, meter: Meter | None) -> Iterator[tuple[Any, int, bytes | None]]:
    """A JSON Lines or Parquet file as lazy frames of consecutive records: (frame, its first line or row number,
    the JSON Lines chunk's bytes for diagnosis)."""
    import polars as pl

    if fmt == "jsonl":
        for chunk in line_chunks(path, meter=meter):
            yield pl.scan_ndjson(chunk.data), chunk.first_line, chunk.data
        return
    src = _source(path)
    lf = pl.scan_parquet(src)
    try:
        total = int(collect(lf.select(pl.len())).item())
    except Exception as exc:
        raise InputError(f"could not be read as parquet: {str(exc).splitlines()[0]}", name) from None
    size = len(src) if isinstance(src, bytes) else os.path.getsize(src)
    done = 0
    for start in range(0, max(total, 1), _PARQUET_ROWS):
        yield lf.slice(start, _PARQUET_ROWS), start + 1, None
        if meter is not None:
            step = min(_PARQUET_ROWS, total - start)
            meter.add(size * (start + step) // max(total, 1) - size * done // max(total, 1))
            done = start + step


@contextmanager
def _guarded(path: str, name: str, fmt: str) -> Iterator[None]:
    """Reading a JSON Lines or Parquet file: a failure of polars (a panic included) becomes an :class:`InputError`,
    and when the file changed while it was read (a Parquet file cut short makes polars panic) the error says so."""
    import polars as pl

    version = FileVersion(path) if path != STDIN else None
    try:
        yield
    except InputError:
        if version is not None:
            version.check()
        raise
    except (Exception, pl.exceptions.PanicException) as exc:
        if version is not None:
            version.check()
        raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}",
                         name) from None
    if version is not None:
        version.check()


def _typed_schema(lf: Any, name: str, fmt: str, raw: bytes | None, first: int, roles: Sequence[str]) -> Any:
    try:
        return lf.collect_schema()
    except Exception as exc:
        if fmt == "jsonl":
            _diagnose_jsonl(raw, name, None, roles, first - 1)
        raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None


def _read_typed(path: str, name: str, fmt: str, columns: Sequence[Column], roles: Sequence[str], tally: Tally,
                meter: Meter | None, is_list: list[bool] | None, empty_ok: bool = False
                ) -> tuple[tuple[Any, ...] | None, list[bool]]:
    """Count a JSON Lines or Parquet file into ``tally``: (its first record's labels, which columns are lists)."""
    with _guarded(path, name, fmt):
        return _read_typed_parts(path, name, fmt, columns, roles, tally, meter, is_list, empty_ok)


def _read_typed_parts(path: str, name: str, fmt: str, columns: Sequence[Column], roles: Sequence[str], tally: Tally,
                      meter: Meter | None, is_list: list[bool] | None, empty_ok: bool
                      ) -> tuple[tuple[Any, ...] | None, list[bool]]:
    import polars as pl

    keys = [f"c{i}" for i in range(len(columns))]
    fields: list[str] | None = None
    first: tuple[Any, ...] | None = None
    for lf, start, raw in _typed_parts(path, name, fmt, meter):
        schema = _typed_schema(lf, name, fmt, raw, start, roles)
        names = list(schema.names())
        if fields is None:
            if not names:
                raise InputError(f"is empty: expected {fmt} records with label fields", name)
            fields = [names[resolve_column(c, names, name, r)] for c, r in zip(columns, roles)]
            one_role_each(fields, roles, name, [f"field {f!r}" for f in fields])
        for f, r in zip(fields, roles):
            if f not in schema:
                raise InputError(f"the {r} field {f!r} is missing from every record of this part", name, start)
        lists = [isinstance(schema[f], pl.List) for f in fields]
        if is_list is None:
            is_list = lists
        elif lists != is_list:
            role = roles[next(i for i, (a, b) in enumerate(zip(lists, is_list)) if a != b)]
            raise InputError(f"the {role} labels are lists of labels in some records and single labels in others",
                             name, start)
        exprs = [_label_column(schema, f).alias(k) for f, k in zip(fields, keys)]
        selected = lf.select(exprs)
        try:
            frame = unique_counts(selected, keys)
        except Exception as exc:
            if fmt == "jsonl":
                _diagnose_jsonl(raw, name, fields, roles, start - 1)
            raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
        if fmt == "jsonl" and _coerced_jsonl(frame, keys, lists):
            _diagnose_jsonl(raw, name, fields, roles, start - 1, lists)
        problems = [_cell_problems(pl.col(k), flag, empty_ok) for k, flag in zip(keys, lists)]
        if frame.select(pl.any_horizontal([m | e for m, e in problems]).any()).item():
            _typed_problem(lf, schema, fields, roles, lists, empty_ok, name, start)
        if first is None and frame.height:
            first = tuple(unpack(v, f) for v, f in zip(collect(selected.head(1)).row(0), is_list))
        if meter is not None:
            meter.add(rows=int(frame.get_column("n").sum()) if frame.height else 0)
        tally.add(frame)
    return first, is_list or [False] * len(columns)


def _typed_problem(lf: Any, schema: Any, fields: Sequence[str], roles: Sequence[str], lists: Sequence[bool],
                   empty_ok: bool, name: str, start: int) -> None:
    """Raise for the first record of ``lf`` with a missing or empty label (:func:`_cell_problems`), naming its
    line (JSON Lines) or row (Parquet)."""
    import polars as pl

    flags = []
    for f, r, flag in zip(fields, roles, lists):
        missing, empty = _cell_problems(_label_column(schema, f), flag, empty_ok)  # NaN in a float column: null
        flags += [missing.alias(f"{r}\x00missing"), empty.alias(f"{r}\x00empty")]
    found = collect(lf.with_row_index("__i", offset=start).select("__i", *flags)
                    .filter(pl.any_horizontal(pl.exclude("__i"))).head(1)).row(0, named=True)
    for f, r, flag in zip(fields, roles, lists):
        what = f"the {r} label set ({f!r})" if flag else f"the {r} label ({f!r})"
        if found[f"{r}\x00missing"]:
            raise InputError(f"{what} holds a missing label (null)" if flag else f"{what} is missing (null)",
                             name, found["__i"])
        if found[f"{r}\x00empty"]:
            raise InputError(f"{what} holds an empty label ('')" if flag else f"{what} is empty", name, found["__i"])


def _diagnose_jsonl(src: Any, name: str, fields: Sequence[str] | None, roles: Sequence[str], offset: int = 0,
                    lists: Sequence[bool] | None = None) -> None:
    """Find the first JSON Lines record polars could not take, and say why. With ``lists`` (whether each field is
    read as label sets), a field that holds a list in a record of a single-label field is an error too: polars
    would turn it into the text of the list (``'["B"]'``)."""
    if src is None:
        return
    for number, raw in lines_of(src, offset):
        text = decode_line(raw, name, number)
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"is not valid JSON: {exc.msg} at column {exc.colno}", name, number) from None
        if not isinstance(record, dict):
            raise InputError(f"expected a JSON object, found {type(record).__name__}", name, number)
        for i, (fname, role) in enumerate(zip(fields or (), roles)):
            value = record.get(fname)
            ok = isinstance(value, (str, int)) or (
                isinstance(value, list) and all(isinstance(v, (str, int)) for v in value))
            if not ok:
                raise InputError(f"the {role} field {fname!r} must be a label (string or integer) or a list of "
                                 f"labels, found {json.dumps(value)}", name, number)
            if lists is not None and not lists[i] and isinstance(value, list):
                raise InputError(f"the {role} field {fname!r} holds a list of labels here but single labels in other "
                                 "records: one kind of value per field", name, number)


def _coerced_jsonl(frame: Any, keys: Sequence[str], lists: Sequence[bool]) -> bool:
    """Whether a JSON Lines frame's single-label columns hold text that polars may have made of a list or an
    object (it reads a field that mixes them with strings as strings): then the records are checked one by one."""
    import polars as pl

    text = [pl.col(k).str.starts_with("[") | pl.col(k).str.starts_with("{") for k, flag in zip(keys, lists)
            if not flag]
    return bool(text) and bool(frame.select(pl.any_horizontal(text).any()).item())


# --------------------------------------------------------------------------- the entry points


def _names(paths: Sequence[str]) -> str:
    shown = [display_name(p) for p in paths]
    return ", ".join(shown) if len(shown) <= 3 else f"{shown[0]}, {shown[1]} … {shown[-1]} ({len(shown)} files)"


def read_cells(paths: str | Sequence[str], columns: Sequence[Column], roles: Sequence[str],
               options: TableOptions = TableOptions(), *, empty_ok: bool = False,
               progress: ReadProgress | None = None, blank_line_blocks: bool = False) -> Cells:
    """Read the unique rows of ``columns`` of one or more files, with counts.

    Parameters
    ----------
    paths
        A file path, ``-`` for standard input, or several paths: parts of one table, each with
        the same columns (and its own header line, if they have headers), counted as if
        concatenated. Glob patterns are expanded by :func:`clfeval.read.chunks.expand_paths`
        before this.
    columns
        Which columns: 1-based numbers, negative from the end, or header names.
    roles
        What each column holds (``gold``, ``predicted``…), for messages.
    empty_ok
        Whether an empty cell is a value (the empty label set) rather than an error.
    progress
        Called as ``progress(bytes_done, bytes_total, rows_done)`` while reading.
    blank_line_blocks
        Number each line's block (blank lines delimit blocks, CoNLL style; each file starts a new
        one) as a last column of integers: the rows are then unique (labels, block) rows.

    Memory stays bounded by the chunk size and the number of unique rows, whatever the files' length.
    """
    paths = [paths] if isinstance(paths, str) else list(paths)
    if not paths:
        raise OptionError("no input file")
    if paths.count(STDIN) > 1:
        raise OptionError("standard input (-) can stand for one file only")
    meter = Meter(size_of(paths), progress)
    keys = [f"c{i}" for i in range(len(columns))] + ([BLOCK_KEY] if blank_line_blocks else [])
    tally = Tally(keys)
    warnings: list[str] = []
    first_row: tuple[Any, ...] | None = None
    header = True
    is_list: list[bool] | None = None
    block = 0
    for number, path in enumerate(paths):
        fmt = format_of(path, options)
        name = display_name(path)
        check_source(path)
        if fmt in ("jsonl", "parquet"):
            if options.sep is not None:
                raise OptionError(f"--sep does not apply to {fmt} input")
            no_line_rules(fmt, options, blank_line_blocks)
            first, is_list = _read_typed(path, name, fmt, columns, roles, tally, meter, is_list, empty_ok)
            has_header = True
        else:
            first, has_header, found, block = _read_delimited(
                path, name, fmt, options, columns, roles, empty_ok, tally, meter,
                block + 1 if blank_line_blocks else None)
            warnings += found
        if number == 0:
            first_row, header = first, has_header
    frame = tally.frame()
    counts = frame.get_column("n").to_numpy().astype(np.int64) if frame is not None else np.zeros(0, dtype=np.int64)
    rows = _LazyRows(tally, is_list, 0 if frame is None else frame.height)
    return Cells(rows, counts, _names(paths), first_row, header, tuple(warnings), frame,
                 None if is_list is None else tuple(is_list))


def first_line_with(paths: Sequence[str], column: Column, match: Callable[[Any], bool],
                    options: TableOptions = TableOptions()) -> tuple[str, int, str] | None:
    """The first line (the row, for Parquet) whose value in ``column`` satisfies ``match``: (file, line, value).

    ``match`` receives the value as the reader hands it on: a field's stripped text (delimited files,
    read with the same rules: blank, skipped and block-end lines passed over, a header, a trailing class
    distribution taken off), or a typed cell as a string, a tuple of strings (a list) or ``None``. For
    messages about values found wrong after counting (a label set with an empty label, a confidence that
    is not a number): a plain second pass over the files in order, on the error path only. Standard input
    cannot be read twice.
    """
    for path in paths:
        if path == STDIN or not os.path.isfile(path):
            continue
        fmt = format_of(path, options)
        if fmt in ("jsonl", "parquet"):
            import polars as pl

            lf = pl.scan_parquet(path) if fmt == "parquet" else pl.scan_ndjson(path)
            try:
                schema = lf.collect_schema()
                field_name = schema.names()[resolve_column(column, schema.names(), path, "value")]
                values = collect(lf.select(_label_column(schema, field_name).alias("v"))).get_column("v").to_list()
            except Exception:
                continue
            for row, value in enumerate(values, start=1):
                value = tuple(value) if isinstance(value, list) else value.strip() if isinstance(value, str) else value
                if match(value):
                    return path, row, "null" if value is None else str(value)
            continue
        sep, quoted = separator_of(fmt, options), fmt == "csv"
        header = bool(options.header) or isinstance(column, str)
        strip = not options.keep_trailing and fmt in ("text", "tsv")
        passed = [re.compile(p) for p in (options.skip, options.block_end) if p is not None]
        position: int | None = None
        for number, raw in lines_of(path):
            text = raw.decode("utf-8", "replace")
            if is_blank_line(text, sep) or any(pattern.search(text) for pattern in passed):
                continue
            try:
                fields = split_fields(strip_distribution(text, options.keep_distance) if strip and position is not None
                                      else text, sep, quoted)
            except csv.Error:
                continue
            if position is None:
                names = fields if header else [f"column_{i + 1}" for i in range(len(fields))]
                position = resolve_column(column, names, path, "value")
                if header:
                    continue
                if strip:
                    fields = split_fields(strip_distribution(text, options.keep_distance), sep, quoted)
            at = len(fields) + column if isinstance(column, int) and column < 0 else position
            if 0 <= at < len(fields) and match(fields[at].strip()):
                return path, number, fields[at].strip()
    return None


def read_cells_in_line_order(sources: Sequence[tuple[str, Column, str]], options: TableOptions = TableOptions(),
                             *, empty_ok: bool = False, progress: ReadProgress | None = None,
                             blank_line_blocks: bool = False
                             ) -> tuple[list[tuple[Any, ...]], np.ndarray, Any, list[str]]:
    """Put line i of each source side by side; the unique rows with counts, the counted polars frame, and warnings
    naming each file's skipped lines (blank, or matching the skip pattern), as one-file reading gives them.

    Parameters
    ----------
    sources
        (path, column, role) for each column: a gold file and one or more prediction files
        (a path may repeat with another column).
    blank_line_blocks
        Number each instance's block (blank lines delimit blocks) in a last column :data:`BLOCK_KEY`.

    The files are read in step, a chunk at a time (Arrow strings, not Python objects), so
    memory stays bounded; their line counts must agree, and the message says which file ends early.
    Lines matching the skip pattern are not instances. Blank lines are not instances either
    (multi-label data without blocks: a blank line is the empty label set), and they must fall
    at the same places in every file, so that no file is out of step.
    """
    import polars as pl

    if options.header is None and any(isinstance(col, str) and format_of(path, options) not in ("jsonl", "parquet")
                                      for path, col, _ in sources):
        # a column named in one delimited file means the delimited files have headers: read each one's first line
        # as one (JSON Lines and Parquet fields always have names, which says nothing of a text file's first line)
        options = replace(options, header=True)
    paths = [path for path, _, _ in sources]
    if paths.count(STDIN) > 1:
        raise OptionError("standard input (-) can stand for one file only")
    blank_is_value = empty_ok and not blank_line_blocks
    meter = Meter(size_of(list(dict.fromkeys(paths))), progress)
    opened = [_column_parts(path, col, role, options, blank_is_value, empty_ok, meter, blank_line_blocks)
              for path, col, role in sources]
    names = [display_name(path) for path in paths]
    # one column of one file for two roles (gold.txt gold.txt: a file scored against itself) is refused
    one_role_each([(file_identity(path), part[3]) for path, part in zip(paths, opened)], [r for _, _, r in sources],
                  names[0], [f"{part[3][0]} {part[3][1]} of {name}" for part, name in zip(opened, names)])
    parts = [part[1] for part in opened]
    is_list = [part[0] for part in opened]
    keys = [f"c{i}" for i in range(len(sources))]
    counted_keys = keys + ([BLOCK_KEY] if blank_line_blocks else [])
    tally = Tally(counted_keys)
    buffers: list[Any] = [None] * len(sources)
    taken = [0] * len(sources)
    last_line = [0] * len(sources)  # each file's line of its last instance paired so far
    while True:
        for i, it in enumerate(parts):
            while buffers[i] is None or len(buffers[i]) == 0:
                nxt = next(it, None)
                if nxt is None:
                    buffers[i] = None
                    break
                buffers[i] = nxt if buffers[i] is None else pl.concat([buffers[i], nxt])
        lengths = [0 if b is None else len(b) for b in buffers]
        if not any(lengths):
            break
        if not all(lengths):
            totals = [t + n + sum(len(s) for s in it) for t, n, it in zip(taken, lengths, parts)]
            longest = max(range(len(totals)), key=totals.__getitem__)
            short = min(range(len(totals)), key=totals.__getitem__)
            going_on = int(buffers[longest].get_column("line")[0])
            ended = f"after line {last_line[short]}" if last_line[short] else "before its first instance"
            raise InputError(f"{names[longest]} has {totals[longest]} instances but {names[short]} has "
                             f"{totals[short]}: {names[short]} ends early, {ended}, where {names[longest]} goes on "
                             f"at line {going_on}")
        step = min(lengths)
        heads = [b[:step] for b in buffers]
        _same_blocks(heads, names, "blank line(s)" if options.block_end is None else
                     "block end(s) (blank lines or lines matching --block-end)")
        frame = pl.DataFrame({**{k: h.get_column("v") for k, h in zip(keys, heads)},
                              **({BLOCK_KEY: heads[0].get_column(BLOCK_KEY)} if blank_line_blocks else {})})
        tally.add(unique_counts(frame.lazy(), counted_keys))
        meter.add(rows=step)
        last_line = [int(h.get_column("line")[-1]) for h in heads]
        buffers = [b[step:] for b in buffers]
        taken = [t + step for t in taken]
    rows, counts = tally.rows(is_list)
    once = [n for n, path in enumerate(paths) if paths.index(path) == n]  # a file read for two columns: said once
    warnings = [w for n in once for w in opened[n][2].warnings(names[n], options, blank_line_blocks)]
    return rows, counts, tally.frame(), warnings


def _same_blocks(heads: Sequence[Any], names: Sequence[str], ends: str = "blank line(s)") -> None:
    """Refuse files whose blank lines (``ends``: and block-end lines) fall at different places: the files would be
    out of step."""
    first = heads[0].get_column(BLOCK_KEY)
    for head, name in zip(heads[1:], names[1:]):
        differ = (head.get_column(BLOCK_KEY) != first).arg_true()
        if len(differ):
            at = int(differ[0])
            line, other = int(head.get_column("line")[at]), int(heads[0].get_column("line")[at])
            kind = "blank lines" if ends.startswith("blank") else "block ends"
            raise InputError(f"{head.get_column(BLOCK_KEY)[at]} {ends} before this line, but {first[at]} before line "
                             f"{other} of {names[0]}, which it pairs with: {kind} must fall at the same places in "
                             "every file (the files are out of step)", name, line)


def file_identity(path: str) -> tuple[int, int] | str:
    """What makes two paths one file (device and inode: a symbolic link or ``./`` is the same file); ``-`` itself."""
    try:
        stat = os.stat(path)
    except OSError:
        return path
    return stat.st_dev, stat.st_ino


def _column_parts(path: str, col: Column, role: str, options: TableOptions, blank_is_value: bool, empty_ok: bool,
                  meter: Meter, blocks: bool) -> tuple[bool, Iterator[Any], _LeftOut, tuple[str, object]]:
    """One label column of a file, in line order, a chunk at a time; whether it holds lists; the count of its
    lines left out, which grows as the parts are read; and which column it is (``("column", position)``, negative
    from each line's end, or ``("field", name)``).

    Each part is a polars DataFrame: the value ``v``, its ``line`` and the number of blank lines before it
    (:data:`BLOCK_KEY`). A blank line is the empty label set when ``blank_is_value``, else a delimiter.
    """
    fmt = format_of(path, options)
    name = display_name(path)
    check_source(path)
    if fmt in ("jsonl", "parquet"):
        no_line_rules(fmt, options, blocks)
        is_list, series, field_name = _typed_column_parts(path, name, fmt, col, role, meter, empty_ok)
        return is_list, series, _LeftOut(), ("field", repr(field_name))
    header = bool(options.header) or isinstance(col, str)
    layout, _, _, chunks, before = _delimited_chunks(path, name, fmt, replace(options, input_format=fmt, header=header),
                                                     [col], [role], empty_ok, meter, blocks=True)
    index = col if isinstance(col, int) and col < 0 else layout.positions[0]  # negative: from each line's end
    left_out = _LeftOut(blank=before)

    def frames() -> Iterator[Any]:
        block = 0
        for chunk in chunks:
            frame, after, skipped = _column_chunk(chunk, layout, index, block, blank_is_value)
            left_out.blank += after - block
            left_out.skipped += skipped
            block = after
            yield frame

    return False, frames(), left_out, ("column", index if index < 0 else index + 1)


def _column_chunk(chunk: Chunk, layout: _Layout, index: int, block: int,
                  blank_is_value: bool) -> tuple[Any, int, int]:
    """The chunk's label column (the file's only role) in line order, with line and block numbers; the block
    number after it (each delimiting blank line, or line matching the block-end pattern, adds one); and how many
    lines matched the skip pattern. An empty or missing label is an error, and so is a line of another width than
    the first when the column counts from the start of lines split on one separator."""
    import polars as pl

    name, sep, role, empty_ok = layout.name, layout.sep, layout.roles[0], layout.empty_ok
    lines = _scan_lines(chunk.data)
    raw = pl.col("line")
    text = raw.str.strip_chars()
    blank = text == ""
    ends = raw.str.contains(layout.block_end) & ~blank if layout.block_end is not None else pl.lit(False)
    skipped = raw.str.contains(layout.skip) & ~blank & ~ends if layout.skip is not None else pl.lit(False)
    delimiter = ends if blank_is_value else blank | ends
    marked = lines.with_row_index("__i", offset=chunk.first_line).with_columns(
        blank.alias("__blank"), skipped.alias("__skip"),
        (delimiter.cast(pl.Int64).cum_sum() + block).alias(BLOCK_KEY), delimiter.alias("__delim"))
    fields = _line_fields(layout, chunk)
    try:
        marked = collect(marked).lazy()  # parsed once, for the delimiter count and the values
        n_delim, n_skipped = (int(x) for x in collect(marked.select(pl.col("__delim").sum(),
                                                                    pl.col("__skip").sum())).row(0))
        kept = marked.filter(~pl.col("__delim") & ~pl.col("__skip"))
        if fields is None:  # quoted CSV with quotes: Python's csv module, line by line
            texts = collect(kept.select("__i", "__blank", "line", BLOCK_KEY))
            split = [None if b else split_fields(t, sep, True)
                     for t, b in zip(texts.get_column("line"), texts.get_column("__blank"))]
            values = [None if f is None else f[index] if -len(f) <= index < len(f) else None for f in split]
            frame = texts.select("__i", "__blank", BLOCK_KEY).with_columns(
                pl.Series("v", [("" if f is None else v) for v, f in zip(values, split)], dtype=pl.String),
                pl.Series("w", [layout.width if f is None else len(f) for f in split], dtype=pl.Int64))
        else:
            frame = collect(kept.select(
                "__i", "__blank", BLOCK_KEY,
                pl.when(pl.col("__blank")).then(pl.lit("")).otherwise(
                    fields.list.get(index, null_on_oob=True).str.strip_chars()).alias("v"),
                pl.when(pl.col("__blank")).then(pl.lit(layout.width)).otherwise(fields.list.len()).alias("w")))
    except InputError:
        raise
    except Exception:
        layout.diagnose(chunk, None, [index])
        raise
    if not layout.ragged and (frame.get_column("w") != layout.width).any():
        layout.diagnose(chunk, None, [index])
    problems = frame.filter(pl.col("v").is_null() | ((pl.col("v") == "") & (not empty_ok)))
    if problems.height:
        line, is_blank = problems.row(0)[0], problems.row(0)[1]
        if is_blank:
            raise InputError(f"the {role} label is empty (a blank line)", name, line)
        layout.diagnose(chunk, None, [index])
        raise InputError(f"the {role} label is empty or missing", name, line)
    return frame.select(pl.col("v"), pl.col("__i").alias("line"), pl.col(BLOCK_KEY)), block + n_delim, n_skipped


def _typed_column_parts(path: str, name: str, fmt: str, col: Column, role: str,
                        meter: Meter, empty_ok: bool = False) -> tuple[bool, Iterator[Any], str]:
    import polars as pl

    with _guarded(path, name, fmt):
        parts = _typed_parts(path, name, fmt, meter)
        first = next(parts, None)
        if first is None:
            raise InputError(f"is empty: expected {fmt} records with label fields", name)
        schema = _typed_schema(first[0], name, fmt, first[2], first[1], (role,))
    names = list(schema.names())
    if not names:
        raise InputError(f"is empty: expected {fmt} records with label fields", name)
    field_name = names[resolve_column(col, names, name, role)]
    is_list = isinstance(schema[field_name], pl.List)

    def series() -> Iterator[Any]:
        with _guarded(path, name, fmt):
            yield from parts_of(itertools.chain([first], parts))

    def parts_of(chunks: Iterator[tuple[Any, int, bytes | None]]) -> Iterator[Any]:
        for lf, start, raw in chunks:
            part_schema = _typed_schema(lf, name, fmt, raw, start, (role,))
            if field_name not in part_schema:
                raise InputError(f"the {role} field {field_name!r} is missing", name, start)
            try:
                values = collect(lf.select(_label_column(part_schema, field_name).alias("v"))).get_column("v")
            except Exception as exc:
                if fmt == "jsonl":
                    _diagnose_jsonl(raw, name, None, (role,), start - 1)
                raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
            if fmt == "jsonl" and _coerced_jsonl(values.to_frame(), ["v"], [is_list]):
                _diagnose_jsonl(raw, name, [field_name], [role], start - 1, [is_list])
            missing, empty = _cell_problems(pl.col("v"), is_list, empty_ok)
            if values.to_frame().select((missing | empty).any()).item():
                _typed_problem(lf, part_schema, [field_name], [role], [is_list], empty_ok, name, start)
            yield pl.DataFrame({"v": values, "line": pl.int_range(start, start + len(values), eager=True),
                                BLOCK_KEY: pl.zeros(len(values), pl.Int64, eager=True)})

    return is_list, series(), field_name
