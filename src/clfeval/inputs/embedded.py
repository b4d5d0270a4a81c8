"""The embedded reader (``--engine polars``): the unique label rows of one table, as :class:`Cells` with counts.

A table is one file or several parts with the same columns, counted as if concatenated; each file goes to
the reader of its format (:mod:`clfeval.inputs.delimited` for text, CSV and TSV; :mod:`clfeval.inputs.typed` for
JSON Lines and Parquet). :func:`first_line_with` reads the files again, on the error path only, to say
where a value found wrong after counting stands.
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.errors import OptionError
from clfeval.inputs.chunks import STDIN, Meter, ReadProgress, check_source, display_name, size_of
from clfeval.inputs.columns import Column, resolve_column
from clfeval.inputs.delimited import read_delimited
from clfeval.inputs.formats import TableOptions, format_of, no_line_rules, separator_of
from clfeval.inputs.lines import is_blank_line, lines_of, split_fields, strip_distribution
from clfeval.inputs.tally import BLOCK_KEY, Tally, collect

__all__ = ["Cells", "first_line_with", "read_cells"]


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
        self._tally, self._is_list, self._height = tally, is_list, height
        self._rows: list[tuple[Any, ...]] | None = None

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


def read_cells(
    paths: str | Sequence[str],
    columns: Sequence[Column],
    roles: Sequence[str],
    options: TableOptions = TableOptions(),
    *,
    empty_ok: bool = False,
    progress: ReadProgress | None = None,
    blank_line_blocks: bool = False,
) -> Cells:
    """Read the unique rows of ``columns`` of one or more files, with counts.

    Parameters
    ----------
    paths
        A file path, ``-`` for standard input, or several paths: parts of one table, each with
        the same columns (and its own header line, if they have headers), counted as if
        concatenated. Glob patterns are expanded by :func:`clfeval.inputs.chunks.expand_paths`
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
            from clfeval.inputs.typed import read_typed  # JSON Lines and Parquet only: text does not load it

            if options.sep is not None:
                raise OptionError(f"--sep does not apply to {fmt} input")
            no_line_rules(fmt, options, blank_line_blocks)
            first, is_list = read_typed(
                path, name, fmt, columns, roles, tally, meter, is_list, empty_ok, options.empty_cells
            )
            has_header = True
        else:
            first, has_header, found, block = read_delimited(
                path,
                name,
                fmt,
                options,
                columns,
                roles,
                empty_ok,
                tally,
                meter,
                block + 1 if blank_line_blocks else None,
            )
            warnings += found
        if number == 0:
            first_row, header = first, has_header
    frame = tally.frame()
    counts = frame.get_column("n").to_numpy().astype(np.int64) if frame is not None else np.zeros(0, dtype=np.int64)
    rows = _LazyRows(tally, is_list, 0 if frame is None else frame.height)
    return Cells(
        rows,
        counts,
        _names(paths),
        first_row,
        header,
        tuple(warnings),
        frame,
        None if is_list is None else tuple(is_list),
    )


def first_line_with(
    paths: Sequence[str], column: Column, match: Callable[[Any], bool], options: TableOptions = TableOptions()
) -> tuple[str, int, str] | None:
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

            from clfeval.inputs.typed import label_column

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
                fields = split_fields(
                    strip_distribution(text, options.keep_distance) if strip and position is not None else text,
                    sep,
                    quoted,
                )
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
