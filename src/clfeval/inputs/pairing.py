"""Line pairing of separate files: a gold file and one or more prediction files read in step, line i with line i.

Each file's label column is read in line order, a chunk at a time, by the reader of its format; the files'
instance counts must agree (the message says which file ends early), and their blank lines (block ends)
must fall at the same places.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import STDIN, Meter, ReadProgress, check_source, display_name, size_of
from clfeval.inputs.columns import Column, one_role_each
from clfeval.inputs.delimited import LeftOut, delimited_column_parts
from clfeval.inputs.formats import TableOptions, format_of, no_line_rules
from clfeval.inputs.tally import BLOCK_KEY, Tally, unique_counts

__all__ = ["file_identity", "read_cells_in_line_order"]


def read_cells_in_line_order(
    sources: Sequence[tuple[str, Column, str]],
    options: TableOptions = TableOptions(),
    *,
    empty_ok: bool = False,
    progress: ReadProgress | None = None,
    blank_line_blocks: bool = False,
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

    if options.header is None and any(
        isinstance(col, str) and format_of(path, options) not in ("jsonl", "parquet") for path, col, _ in sources
    ):
        # a column named in one delimited file means the delimited files have headers: read each one's first line
        # as one (JSON Lines and Parquet fields always have names, which says nothing of a text file's first line)
        options = replace(options, header=True)
    paths = [path for path, _, _ in sources]
    if paths.count(STDIN) > 1:
        raise OptionError("standard input (-) can stand for one file only")
    blank_is_value = empty_ok and not blank_line_blocks
    meter = Meter(size_of(list(dict.fromkeys(paths))), progress)
    opened = [
        _column_parts(path, col, role, options, blank_is_value, empty_ok, meter, blank_line_blocks)
        for path, col, role in sources
    ]
    names = [display_name(path) for path in paths]
    # one column of one file for two roles (gold.txt gold.txt: a file scored against itself) is refused
    one_role_each(
        [(file_identity(path), part[3]) for path, part in zip(paths, opened)],
        [r for _, _, r in sources],
        names[0],
        [f"{part[3][0]} {part[3][1]} of {name}" for part, name in zip(opened, names)],
    )
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
            raise InputError(
                f"{names[longest]} has {totals[longest]} instances but {names[short]} has "
                f"{totals[short]}: {names[short]} ends early, {ended}, where {names[longest]} goes on "
                f"at line {going_on}"
            )
        step = min(lengths)
        heads = [b[:step] for b in buffers]
        _same_blocks(
            heads,
            names,
            "blank line(s)"
            if options.block_end is None
            else "block end(s) (blank lines or lines matching --block-end)",
        )
        frame = pl.DataFrame(
            {
                **{k: h.get_column("v") for k, h in zip(keys, heads)},
                **({BLOCK_KEY: heads[0].get_column(BLOCK_KEY)} if blank_line_blocks else {}),
            }
        )
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
            raise InputError(
                f"{head.get_column(BLOCK_KEY)[at]} {ends} before this line, but {first[at]} before line "
                f"{other} of {names[0]}, which it pairs with: {kind} must fall at the same places in "
                "every file (the files are out of step)",
                name,
                line,
            )


def file_identity(path: str) -> tuple[int, int] | str:
    """What makes two paths one file (device and inode: a symbolic link or ``./`` is the same file); ``-`` itself."""
    try:
        stat = os.stat(path)
    except OSError:
        return path
    return stat.st_dev, stat.st_ino


def _column_parts(
    path: str,
    col: Column,
    role: str,
    options: TableOptions,
    blank_is_value: bool,
    empty_ok: bool,
    meter: Meter,
    blocks: bool,
) -> tuple[bool, Iterator[Any], LeftOut, tuple[str, object]]:
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
        from clfeval.inputs.typed import typed_column_parts  # JSON Lines and Parquet only: text does not load it

        no_line_rules(fmt, options, blocks)
        is_list, series, field_name = typed_column_parts(path, name, fmt, col, role, meter, empty_ok)
        return is_list, series, LeftOut(), ("field", repr(field_name))
    header = bool(options.header) or isinstance(col, str)
    frames, left_out, index = delimited_column_parts(
        path, name, fmt, replace(options, input_format=fmt, header=header), col, role, empty_ok, meter, blank_is_value
    )
    return False, frames, left_out, ("column", index if index < 0 else index + 1)
