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
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from clfeval.errors import InputError, OptionError
from clfeval.read.chunks import STDIN, Meter, ReadProgress, check_source, display_name, size_of
from clfeval.read.columns import Column, one_role_each, resolve_column
from clfeval.read.delimited import LeftOut, delimited_column_parts, read_delimited
from clfeval.read.formats import TableOptions, format_of, no_line_rules, separator_of
from clfeval.read.lines import is_blank_line, lines_of, split_fields, strip_distribution
from clfeval.read.tally import BLOCK_KEY, Tally, collect, unique_counts
from clfeval.read.typed import label_column, read_typed, typed_column_parts

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
            first, is_list = read_typed(path, name, fmt, columns, roles, tally, meter, is_list, empty_ok)
            has_header = True
        else:
            first, has_header, found, block = read_delimited(
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
                values = collect(lf.select(label_column(schema, field_name).alias("v"))).get_column("v").to_list()
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
                  meter: Meter, blocks: bool) -> tuple[bool, Iterator[Any], LeftOut, tuple[str, object]]:
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
        is_list, series, field_name = typed_column_parts(path, name, fmt, col, role, meter, empty_ok)
        return is_list, series, LeftOut(), ("field", repr(field_name))
    header = bool(options.header) or isinstance(col, str)
    frames, left_out, index = delimited_column_parts(path, name, fmt, replace(options, input_format=fmt, header=header),
                                                     col, role, empty_ok, meter, blank_is_value)
    return False, frames, left_out, ("column", index if index < 0 else index + 1)
