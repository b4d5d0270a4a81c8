"""The chunked reader of delimited text: whitespace-separated text, CSV and TSV.

Files are read a chunk at a time (:mod:`clfeval.inputs.chunks`): polars parses each chunk and
groups it by its label columns, and only the unique rows (gold, predicted …) with their
counts are kept, so memory does not grow with the file and many files add up as one. When a
chunk looks wrong (a parse error, an empty or missing cell), a line-by-line pass over that
chunk finds the first offending line and says what it expected there; a chunk that is fine
never pays for it unless it has empty cells. Lines of other widths, lines to skip (``--skip``),
blank lines and block ends (``--block-end``), and TiMBL class distributions are dealt with here.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import Chunk, Meter, line_chunks
from clfeval.inputs.columns import Column, cell_of, resolve_column
from clfeval.inputs.formats import TableOptions, separator_of, shown_pattern
from clfeval.inputs.lines import (
    DISTRIBUTION,
    decode_line,
    has_distribution,
    is_blank_line,
    lines_of,
    split_fields,
    strip_distribution,
)
from clfeval.inputs.tally import BLOCK_KEY, Tally, collect, unique_counts

__all__ = ["LeftOut", "delimited_column_parts", "read_delimited"]


def _diagnose(
    src: Any,
    name: str,
    sep: str | None,
    quoted: bool,
    header: bool,
    ncols: int | None,
    positions: Sequence[int],
    roles: Sequence[str],
    empty_ok: bool,
    *,
    offset: int = 0,
    skip: str | None = None,
    strip: bool = False,
    keep_distance: bool = False,
    block_end: str | None = None,
) -> int:
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
            named = " and ".join(r for r in roles if r != "weight") + " labels"
            named += " and the weight" if "weight" in roles else ""
            raise InputError(f"expected at least {need} fields (for the {named}), found {len(fields)}", name, number)
        _distinct_fields(positions, roles, len(fields), name, number)
        if not empty_ok:
            for p, role in zip(positions, roles):
                if fields[p].strip() == "":
                    raise InputError(f"the {cell_of(role)} is empty", name, number)
    return blank


def _distinct_fields(positions: Sequence[int], roles: Sequence[str], width: int, name: str, number: int | None) -> None:
    """Refuse two roles that fall on the same field of a line ``width`` fields wide (negative: from its end)."""
    seen: dict[int, str] = {}
    for p, role in zip(positions, roles):
        at = p if p >= 0 else width + p
        if at in seen:
            cause = " (a column scored against itself is always right)" if {seen[at], role} & {"gold"} else ""
            raise InputError(
                f"the {seen[at]} and {role} columns are the same field ({at + 1} of {width}) on this "
                f"line: give columns that differ{cause}",
                name,
                number,
            )
        seen[at] = role


def _scan_lines(data: bytes) -> Any:
    """A chunk's lines as one string column ``line``, blank lines included (a lazy polars frame)."""
    import polars as pl

    return pl.scan_csv(
        data,
        separator="\x00",
        has_header=False,
        quote_char=None,
        infer_schema=False,
        empty_string_is_null=False,
        new_columns=["line"],
        raise_if_empty=False,
    )


class _Layout(NamedTuple):
    """How one delimited file's lines are read: what its first line said (a named tuple: built once a file, and
    cheaper to define at import than a frozen dataclass)."""

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
        return _diagnose(
            chunk.data,
            self.name,
            self.sep,
            self.quoted,
            False,
            ncols,
            self.line_positions if positions is None else positions,
            self.roles,
            self.empty_ok,
            offset=chunk.first_line - 1,
            skip=self.skip,
            strip=self.strip,
            keep_distance=self.keep_distance,
            block_end=self.block_end,
        )

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


def _delimited_chunks(
    path: str,
    name: str,
    fmt: str,
    options: TableOptions,
    columns: Sequence[Column],
    roles: Sequence[str],
    empty_ok: bool,
    meter: Meter | None,
    blocks: bool = False,
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
                head = Chunk(chunk.data[_line_start(chunk.data, offset + 1) :], number + 1)
            elif blocks or passed:  # keep every line from the chunk's start: the line path reads them
                head, leading_blank = chunk, 0
            else:  # drop the blank lines before it
                head = Chunk(chunk.data[_line_start(chunk.data, offset) :], number)
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
    ragged = sep is None or (from_end and not (quoted and options.label_sep is not None and sep in options.label_sep))
    line_positions = tuple(c if isinstance(c, int) and c < 0 and ragged else p for c, p in zip(columns, positions))
    fast = sep is not None or " " in first_line.strip() or "\t" not in first_line
    if strip and not header and has_distribution(text):
        fast = False  # TiMBL output with class distributions: the line path takes them off
    layout = _Layout(
        name,
        fmt,
        sep,
        quoted,
        len(fields),
        positions,
        line_positions,
        tuple(roles),
        empty_ok,
        fast,
        options.skip,
        strip,
        blocks,
        options.keep_distance,
        options.block_end,
        ragged,
    )
    data_first = () if header else tuple(fields[p].strip() for p in positions)
    rest = itertools.chain([head] if head.data else [], chunks)
    return layout, header, data_first, rest, leading_blank


def _check_label_sep(label_sep: str | None, sep: str | None, quoted: bool, fmt: str, name: str) -> None:
    """Refuse a label separator that would split a label set into fields: whitespace in whitespace-separated
    text, or the field separator (in CSV, a cell holding it must then be quoted: allowed)."""
    if label_sep is None:
        return
    if sep is None and any(ch.isspace() for ch in label_sep):
        raise OptionError(
            f"{name}: --label-sep {label_sep!r} holds whitespace, which separates the fields of "
            f"{fmt} input, so label sets would be split into fields: choose another --label-sep, or give "
            "the field separator with --sep"
        )
    if sep is not None and sep in label_sep and not quoted:
        shown = "'\\t' (tab)" if sep == "\t" else repr(sep)
        raise OptionError(
            f"{name}: --label-sep {label_sep!r} holds the field separator {shown} of {fmt} input, so "
            "label sets would be split into fields: choose another --label-sep (or --sep)"
        )


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
        frame = _whole_lines(chunk, layout)
        if frame is not None:
            return _ChunkCount(frame, blank, 0, layout.width, layout.width, block)
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
    counts = collect(
        _scan_lines(data)
        .filter(line.str.strip_chars() != "")
        .select(line.str.count_matches(layout.fast_sep, literal=True).alias("c"))
    )
    return bool((counts.get_column("c") == layout.width - 1).all())


def _whole_lines(chunk: Chunk, layout: _Layout) -> Any:
    """The chunk's unique label rows with counts, hashing whole lines: lines are grouped as they are, and only the
    distinct lines are split into fields. ``None`` unless every distinct line is plain — the layout's width exactly,
    not blank, no quotes (CSV), no class distribution (``{``, when those are taken off), no empty label, and for
    whitespace text no tab or run of spaces — for :func:`_delimited_fast` and the line path, which say what is
    wrong and where.

    Notes
    -----
    A file of N lines over U distinct (gold, predicted) pairs has about U distinct lines: the fields of N lines are
    never parsed, only hashed as one string each.
    """
    import polars as pl

    data = chunk.data
    if (layout.quoted and b'"' in data) or (layout.strip and b"{" in data) or b"\x00" in data:
        return None  # (a NUL byte would split the line column _scan_lines reads)
    keys = layout.keys
    fields = pl.col("__f")
    try:  # one query: the distinct lines, their counts, their chosen fields and their widths
        frame = collect(
            _scan_lines(data)
            .group_by("line")
            .agg(pl.len().cast(pl.Int64).alias("n"))
            .select(pl.col("line").str.strip_suffix("\r").str.split(layout.fast_sep).alias("__f"), "n")
            .select(
                [fields.list.get(p, null_on_oob=True).alias(k) for p, k in zip(layout.positions, keys)]
                + ["n", fields.list.len().alias("__w")]
            )
        )
    except Exception:  # bytes that are not UTF-8, say: the paths below say where
        return None
    cells = [pl.col(k) for k in keys]
    bad = (pl.col("__w") != layout.width) | pl.any_horizontal([c == "" for c in cells])
    if layout.sep is None:
        bad = bad | pl.any_horizontal([c.str.contains(r"\s") for c in cells])
    else:
        bad = bad | pl.any_horizontal([c.str.contains("\r", literal=True) for c in cells])
    if frame.select(bad.any()).item():
        return None
    return frame.group_by(keys).agg(pl.col("n").sum())


def _delimited_fast(chunk: Chunk, layout: _Layout) -> tuple[Any, int]:
    """polars' CSV parser on one separator; ``(None, 0)`` when the chunk is whitespace text it cannot take."""
    import polars as pl

    keys = layout.keys
    try:
        lf = pl.scan_csv(
            chunk.data,
            separator=layout.fast_sep,
            has_header=False,
            quote_char='"' if layout.quoted else None,
            infer_schema=False,
            empty_string_is_null=False,
            raise_if_empty=False,
        )
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
    if (
        layout.sep is None
        and frame.select((empty | pl.any_horizontal([pl.col(k).str.contains(r"\s") for k in keys])).any()).item()
    ):
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
        tally = collect(
            marked.select(
                pl.col("__blank").sum().alias("b"), pl.col("__skip").sum().alias("s"), pl.col("__end").sum().alias("e")
            )
        )
        n_blank, n_skipped, n_ends = tally.row(0)
        if fields is None:  # quoted CSV: Python's csv module, line by line
            texts = collect(kept.select("line", *extra))
            split = [split_fields(t, layout.sep, True) for t in texts.get_column("line").to_list()]
            columns = {
                k: [f[p] if -len(f) <= p < len(f) else None for f in split] for p, k in zip(layout.line_positions, keys)
            }
            selected = pl.DataFrame(
                {**columns, **({BLOCK_KEY: texts.get_column(BLOCK_KEY)} if extra else {})},
                schema={**{k: pl.String for k in keys}, **({BLOCK_KEY: pl.Int64} if extra else {})},
            ).lazy()
            widths = pl.DataFrame({"w": [len(f) for f in split]}, schema={"w": pl.Int64}).lazy()
        else:
            split_lines = kept.with_columns(fields.alias("__f"))
            widths = split_lines.select(pl.col("__f").list.len().alias("w"))
            selected = split_lines.select(
                [pl.col("__f").list.get(p, null_on_oob=True).alias(k) for p, k in zip(layout.line_positions, keys)]
                + extra
            )
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
    return _ChunkCount(
        frame,
        int(n_blank),
        int(n_skipped),
        narrow if narrow is not None else layout.width,
        wide if wide is not None else layout.width,
        block + int(n_blank) + int(n_ends),
    )


@dataclass
class LeftOut:
    """Lines of one file that are not instances: blank (delimiting) lines and lines matching the skip pattern."""

    blank: int = 0
    skipped: int = 0

    def warnings(self, name: str, options: TableOptions, blocks: bool) -> list[str]:
        """The warnings that name them, one per kind (blank lines that delimit blocks go unsaid)."""
        out = [f"{name}: skipped {self.blank} blank line(s)"] if self.blank and not blocks else []
        if self.skipped:
            out.append(
                f"{name}: skipped {self.skipped} line(s) matching --skip {shown_pattern(options.skip)}"
                + (
                    ": they do not end blocks (a line matching --block-end does; MBT's sentence ends: "
                    "--block-end '^<utt>')"
                    if blocks and options.block_end is None
                    else ""
                )
            )
        return out


def read_delimited(
    path: str,
    name: str,
    fmt: str,
    options: TableOptions,
    columns: Sequence[Column],
    roles: Sequence[str],
    empty_ok: bool,
    tally: Tally,
    meter: Meter | None,
    block: int | None = None,
) -> tuple[tuple[Any, ...] | None, bool, list[str], int]:
    """Count a delimited file into ``tally``: (its first data row, whether it had a header, warnings, the block
    number after its last line). With ``block`` (the number of its first block) the rows are numbered by
    blank-line block, in a last key column :data:`BLOCK_KEY`."""
    layout, header, first, chunks, blank = _delimited_chunks(
        path, name, fmt, options, columns, roles, empty_ok, meter, blocks=block is not None
    )
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
    warnings = LeftOut(blank, skipped).warnings(name, options, blocks=block is not None)
    if narrow != wide:
        warnings.append(
            f"{name}: lines have between {narrow} and {wide} fields; the labels were taken from columns "
            f"{', '.join(str(c) for c in columns)} of each line (negative: counted from its end)"
        )
    return (first or None), header, warnings, current


def delimited_column_parts(
    path: str,
    name: str,
    fmt: str,
    options: TableOptions,
    col: Column,
    role: str,
    empty_ok: bool,
    meter: Meter,
    blank_is_value: bool,
) -> tuple[Iterator[Any], LeftOut, int]:
    """One label column of a delimited file, in line order, a chunk at a time (:func:`_column_chunk`); the count of
    its lines left out, which grows as the parts are read; and the column's position (negative: from each line's
    end). A blank line is the empty label set when ``blank_is_value``, else a delimiter."""
    layout, _, _, chunks, before = _delimited_chunks(
        path, name, fmt, options, [col], [role], empty_ok, meter, blocks=True
    )
    index = col if isinstance(col, int) and col < 0 else layout.positions[0]  # negative: from each line's end
    left_out = LeftOut(blank=before)

    def frames() -> Iterator[Any]:
        block = 0
        for chunk in chunks:
            frame, after, skipped = _column_chunk(chunk, layout, index, block, blank_is_value)
            left_out.blank += after - block
            left_out.skipped += skipped
            block = after
            yield frame

    return frames(), left_out, index


def _column_chunk(chunk: Chunk, layout: _Layout, index: int, block: int, blank_is_value: bool) -> tuple[Any, int, int]:
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
        blank.alias("__blank"),
        skipped.alias("__skip"),
        (delimiter.cast(pl.Int64).cum_sum() + block).alias(BLOCK_KEY),
        delimiter.alias("__delim"),
    )
    fields = _line_fields(layout, chunk)
    try:
        marked = collect(marked).lazy()  # parsed once, for the delimiter count and the values
        n_delim, n_skipped = (
            int(x) for x in collect(marked.select(pl.col("__delim").sum(), pl.col("__skip").sum())).row(0)
        )
        kept = marked.filter(~pl.col("__delim") & ~pl.col("__skip"))
        if fields is None:  # quoted CSV with quotes: Python's csv module, line by line
            texts = collect(kept.select("__i", "__blank", "line", BLOCK_KEY))
            split = [
                None if b else split_fields(t, sep, True)
                for t, b in zip(texts.get_column("line"), texts.get_column("__blank"))
            ]
            values = [None if f is None else f[index] if -len(f) <= index < len(f) else None for f in split]
            frame = texts.select("__i", "__blank", BLOCK_KEY).with_columns(
                pl.Series("v", [("" if f is None else v) for v, f in zip(values, split)], dtype=pl.String),
                pl.Series("w", [layout.width if f is None else len(f) for f in split], dtype=pl.Int64),
            )
        else:
            frame = collect(
                kept.select(
                    "__i",
                    "__blank",
                    BLOCK_KEY,
                    pl.when(pl.col("__blank"))
                    .then(pl.lit(""))
                    .otherwise(fields.list.get(index, null_on_oob=True).str.strip_chars())
                    .alias("v"),
                    pl.when(pl.col("__blank")).then(pl.lit(layout.width)).otherwise(fields.list.len()).alias("w"),
                )
            )
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
            raise InputError(f"the {cell_of(role)} is empty (a blank line)", name, line)
        layout.diagnose(chunk, None, [index])
        raise InputError(f"the {cell_of(role)} is empty or missing", name, line)
    return frame.select(pl.col("v"), pl.col("__i").alias("line"), pl.col(BLOCK_KEY)), block + n_delim, n_skipped
