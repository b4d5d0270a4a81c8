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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.read.chunks import STDIN, Chunk, Meter, ReadProgress, line_chunks, size_of
from clfeval.read.columns import Column, resolve_column

__all__ = ["FORMATS", "Cells", "TableOptions", "first_line_with", "format_of", "read_cells",
           "read_cells_in_line_order", "read_cells_two_files"]

#: Input formats, by name.
FORMATS: Mapping[str, str] = {
    "text": "whitespace-separated fields, as TiMBL writes them (any extension not listed below)",
    "csv": "comma-separated values with optional double-quote quoting (.csv)",
    "tsv": "tab-separated values (.tsv, .tab)",
    "jsonl": "JSON Lines, one object per line (.jsonl, .ndjson)",
    "parquet": "Apache Parquet (.parquet, .pq)",
}
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
               ".parquet": "parquet", ".pq": "parquet"}
_WHITESPACE = re.compile(r"\s")
_LIST_JOIN = "\x1f"  # joins list cells into one string for grouping; split again after the reduction


@dataclass(frozen=True)
class TableOptions:
    """How to read a delimited file.

    Attributes
    ----------
    input_format
        A name from :data:`FORMATS`; ``None`` guesses from the extension.
    sep
        The field separator (one character; ``"\\t"`` for tab). Default: runs of whitespace for
        ``text``, ``,`` for ``csv``, tab for ``tsv``.
    header
        Whether the first line names the columns; ``None``: only when a column is chosen by name.
    """

    input_format: str | None = None
    sep: str | None = None
    header: bool | None = None


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

    def __init__(self, tally: "_Tally", is_list: Sequence[bool] | None, height: int) -> None:
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


def format_of(path: str, options: TableOptions) -> str:
    """The input format: the explicit one, else by extension, else ``text``."""
    if options.input_format is not None:
        if options.input_format not in FORMATS:
            raise unknown_name("input format", options.input_format, FORMATS)
        return options.input_format
    return _EXTENSIONS.get(Path(path).suffix.lower(), "text") if path != STDIN else "text"


def _display(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def _source(path: str) -> Any:
    """What polars reads: the path, or standard input's bytes."""
    if path == STDIN:
        return sys.stdin.buffer.read()
    _check_source(path)
    return path


def _separator(fmt: str, options: TableOptions) -> str | None:
    sep = options.sep
    if sep is not None:
        sep = "\t" if sep in ("\\t", "tab", "TAB") else sep
        if len(sep) != 1:
            raise OptionError(f"--sep must be one character (or \\t), not {options.sep!r}")
        return sep
    return {"csv": ",", "tsv": "\t"}.get(fmt)  # None: runs of whitespace


def _lines(src: Any, offset: int = 0) -> Any:
    """Iterate (line number, raw bytes without the line end) over a path or bytes; numbers start at offset + 1."""
    handle = io.BytesIO(src) if isinstance(src, bytes) else open(src, "rb")
    with handle:
        for number, raw in enumerate(handle, start=offset + 1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            yield number, raw.rstrip(b"\r\n")


def _decode(raw: bytes, name: str, number: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"is not valid UTF-8: byte 0x{raw[exc.start]:02x} at column {exc.start + 1} "
                         "(convert the file to UTF-8)", name, number) from None


def _split(text: str, sep: str | None, quoted: bool) -> list[str]:
    if sep is None:
        return text.split()
    if quoted:
        return next(csv.reader([text], delimiter=sep), [])
    return text.split(sep)


def _blank(text: str, sep: str | None) -> bool:
    """A line with nothing on it; a line of separators (``\t`` in a TSV) holds empty cells and is not blank."""
    return not text.strip() and (sep is None or sep not in text)


def _diagnose(src: Any, name: str, sep: str | None, quoted: bool, header: bool, ncols: int | None,
              positions: Sequence[int], roles: Sequence[str], empty_ok: bool, *, offset: int = 0) -> int:
    """The slow, exact pass: raise on the first bad line; otherwise return the number of blank lines."""
    blank = 0
    need = max(p + 1 if p >= 0 else -p for p in positions)
    header_pending = header
    for number, raw in _lines(src, offset):
        text = _decode(raw, name, number)
        if _blank(text, sep):
            blank += 1
            continue
        if header_pending:
            header_pending = False
            continue
        fields = _split(text, sep, quoted)
        if ncols is not None and len(fields) != ncols:
            raise InputError(f"expected {ncols} fields, found {len(fields)}", name, number)
        if len(fields) < need:
            raise InputError(f"expected at least {need} fields (for the {' and '.join(roles)} labels), "
                             f"found {len(fields)}", name, number)
        if not empty_ok:
            for p, role in zip(positions, roles):
                if fields[p].strip() == "":
                    raise InputError(f"the {role} label is empty", name, number)
    return blank


def _polars() -> Any:
    import polars as pl

    return pl


def _collect(lf: Any) -> Any:
    return lf.collect()


def _counted(lf: Any, keys: Sequence[str]) -> Any:
    """The unique rows of ``keys`` with their count in column ``n``, as a polars DataFrame."""
    pl = _polars()
    return _collect(lf.group_by(list(keys)).agg(pl.len().cast(pl.Int64).alias("n")))


class _Tally:
    """Adds up chunks' counted frames (unique key rows → ``n``) in polars, merging as they pile up.

    Merging whenever the pending rows outnumber the merged ones keeps the work proportional to
    the distinct rows, however many chunks there are.
    """

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = list(keys)
        self.merged: Any = None
        self.pending: list[Any] = []
        self.pending_rows = 0

    def add(self, frame: Any) -> None:
        if frame.height == 0:
            return
        self.pending.append(frame)
        self.pending_rows += frame.height
        if self.pending_rows > max(1 << 16, 0 if self.merged is None else self.merged.height):
            self._merge()

    def _merge(self) -> None:
        pl = _polars()
        parts = ([self.merged] if self.merged is not None else []) + self.pending
        if len(parts) == 1:
            self.merged = parts[0]
        elif parts:
            self.merged = pl.concat(parts).group_by(self.keys).agg(pl.col("n").sum())
        self.pending, self.pending_rows = [], 0

    def frame(self) -> Any:
        """The unique rows and their counts ``n`` as one polars DataFrame (``None`` when nothing was read)."""
        self._merge()
        return self.merged

    def rows(self, is_list: Sequence[bool] | None = None) -> tuple[list[tuple[Any, ...]], np.ndarray]:
        """The unique rows (list cells unpacked into tuples) and their counts."""
        self._merge()
        if self.merged is None:
            return [], np.zeros(0, dtype=np.int64)
        flags = list(is_list) if is_list is not None else [False] * len(self.keys)
        cols = [self.merged.get_column(k).to_list() for k in self.keys]
        rows = [tuple(_unpack(v, f) for v, f in zip(row, flags)) for row in zip(*cols)]
        return rows, self.merged.get_column("n").to_numpy().astype(np.int64)


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

    @property
    def keys(self) -> list[str]:
        return [f"c{i}" for i in range(len(self.positions))]

    @property
    def fast_sep(self) -> str:
        return self.sep if self.sep is not None else " "

    def diagnose(self, chunk: Chunk, ncols: int | None, positions: Sequence[int] | None = None) -> int:
        """Raise on the chunk's first bad line; otherwise return its number of blank lines."""
        return _diagnose(chunk.data, self.name, self.sep, self.quoted, False, ncols,
                         self.line_positions if positions is None else positions, self.roles, self.empty_ok,
                         offset=chunk.first_line - 1)


def _delimited_chunks(path: str, name: str, fmt: str, options: TableOptions, columns: Sequence[Column],
                      roles: Sequence[str], empty_ok: bool, meter: Meter | None
                      ) -> tuple[_Layout, bool, tuple[str, ...], Iterator[Chunk], int]:
    """Open a delimited file: its layout, whether it has a header, its first data line's fields, its chunks
    (the header line taken out) and the number of blank lines before the first line."""
    sep = _separator(fmt, options)
    quoted = fmt == "csv"
    header = bool(options.header) or any(isinstance(c, str) for c in columns)
    chunks = line_chunks(path, quoted=quoted, meter=meter)
    first_line: str | None = None
    leading_blank = 0
    head: Chunk | None = None
    for chunk in chunks:
        for offset, (number, raw) in enumerate(_lines(chunk.data, chunk.first_line - 1)):
            text = _decode(raw, name, number)
            if _blank(text, sep):
                leading_blank += 1
                continue
            first_line = text
            kept = offset + 1 if header else offset  # drop the blank lines before it, and the header line
            head = Chunk(chunk.data[_line_start(chunk.data, kept):], number + (kept - offset))
            break
        if first_line is not None:
            break
    if first_line is None or head is None:
        raise InputError("is empty: expected lines of labels", name)
    fields = _split(first_line, sep, quoted)
    names = fields if header else [f"column_{i + 1}" for i in range(len(fields))]
    positions = tuple(resolve_column(c, names, name, r) for c, r in zip(columns, roles))
    # a negative column counts from the end of each line (lines of whitespace text may differ in width)
    line_positions = tuple(c if isinstance(c, int) and c < 0 and sep is None else p
                           for c, p in zip(columns, positions))
    fast = sep is not None or " " in first_line.strip() or "\t" not in first_line
    layout = _Layout(name, fmt, sep, quoted, len(fields), positions, line_positions, tuple(roles), empty_ok, fast)
    data_first = () if header else tuple(fields[p].strip() for p in positions)
    rest = itertools.chain([head] if head.data else [], chunks)
    return layout, header, data_first, rest, leading_blank


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
        if not _blank(data[cut:end].decode("utf-8", "replace"), layout.sep):
            break
        cut, blank = end, blank + 1
    return (Chunk(data[cut:], chunk.first_line + blank) if blank else chunk), blank


def _delimited_frame(chunk: Chunk, layout: _Layout) -> tuple[Any, int, int, int]:
    """Count one chunk: (counted frame, blank lines, fewest and most fields on a line)."""
    pl = _polars()
    chunk, blank = _leading_blanks(chunk, layout)
    if not chunk.data:
        return pl.DataFrame(), blank, layout.width, layout.width
    if layout.fast:
        frame, more_blank = _delimited_fast(chunk, layout)
        if frame is not None:
            return frame, blank + more_blank, layout.width, layout.width
    frame, more_blank, narrow, wide = _whitespace_split(chunk, layout)
    return frame, blank + more_blank, narrow, wide


def _delimited_fast(chunk: Chunk, layout: _Layout) -> tuple[Any, int]:
    """polars' CSV parser on one separator; ``(None, 0)`` when the chunk is whitespace text it cannot take."""
    pl = _polars()
    keys = layout.keys
    try:
        lf = pl.scan_csv(chunk.data, separator=layout.fast_sep, has_header=False,
                         quote_char='"' if layout.quoted else None, infer_schema=False, empty_string_is_null=False,
                         raise_if_empty=False)
        width = len(lf.collect_schema())
        if width != layout.width:
            raise ValueError("a line of another width")
        frame = _counted(lf.select([pl.nth(p).alias(k) for p, k in zip(layout.positions, keys)]), keys)
    except Exception as exc:  # polars parse errors: find the line ourselves
        if layout.sep is None:
            return None, 0
        layout.diagnose(chunk, layout.width, layout.positions)
        raise InputError(f"could not be read as {layout.fmt}: {str(exc).splitlines()[0]}", layout.name) from None
    empty = pl.any_horizontal([pl.col(k) == "" for k in keys])
    if layout.sep is None and frame.select((empty | pl.any_horizontal(
            [pl.col(k).str.contains(r"\s") for k in keys])).any()).item():
        return None, 0  # runs of whitespace or tabs: take the general whitespace path
    if not frame.select(empty.any()).item():
        return frame, 0
    # raises on short lines (and on empty labels unless empty cells are allowed)
    n_blank = layout.diagnose(chunk, layout.width, layout.positions)
    if n_blank:
        blank_row = pl.all_horizontal([pl.col(k) == "" for k in keys])
        frame = frame.with_columns(pl.when(blank_row).then(pl.col("n") - n_blank).otherwise(pl.col("n")).alias("n"))
        frame = frame.filter(pl.col("n") > 0)
    return frame, n_blank


def _whitespace_split(chunk: Chunk, layout: _Layout) -> tuple[Any, int, int, int]:
    """Whitespace text with runs of spaces or tabs: split each line with a regex, in polars."""
    pl = _polars()
    keys = layout.keys
    lines = pl.scan_csv(chunk.data, separator="\x00", has_header=False, quote_char=None, infer_schema=False,
                        empty_string_is_null=False, new_columns=["line"], raise_if_empty=False)
    text = pl.col("line").str.strip_chars()
    lf = lines.filter(text != "").with_columns(text.str.replace_all(r"\s+", " ").str.split(" ").alias("__f"))
    widths = lf.select(pl.col("__f").list.len().alias("w"))
    selected = lf.select([pl.col("__f").list.get(p, null_on_oob=True).alias(k)
                          for p, k in zip(layout.line_positions, keys)])
    try:
        frame = _counted(selected, keys)
        n_blank = int(_collect(lines.select((pl.col("line").str.strip_chars() == "").sum())).item())
        narrow, wide = _collect(widths.select(pl.col("w").min(), pl.col("w").max().alias("x"))).row(0)
    except Exception:
        layout.diagnose(chunk, None)
        raise
    if frame.select(pl.any_horizontal([pl.col(k).is_null() for k in keys]).any()).item():
        layout.diagnose(chunk, None)
    return frame, n_blank, narrow if narrow is not None else layout.width, wide if wide is not None else layout.width


def _read_delimited(path: str, name: str, fmt: str, options: TableOptions, columns: Sequence[Column],
                    roles: Sequence[str], empty_ok: bool, tally: _Tally, meter: Meter | None
                    ) -> tuple[tuple[Any, ...] | None, bool, list[str]]:
    """Count a delimited file into ``tally``: (its first data row, whether it had a header, warnings)."""
    layout, header, first, chunks, blank = _delimited_chunks(path, name, fmt, options, columns, roles, empty_ok,
                                                             meter)
    narrow = wide = layout.width
    for chunk in chunks:
        frame, n_blank, lo, hi = _delimited_frame(chunk, layout)
        blank += n_blank
        narrow, wide = min(narrow, lo), max(wide, hi)
        if frame.height:
            if meter is not None:
                meter.add(rows=int(frame.get_column("n").sum()))
            tally.add(frame)
    warnings = [f"{name}: skipped {blank} blank line(s)"] if blank else []
    if narrow != wide:
        warnings.append(f"{name}: lines have between {narrow} and {wide} fields; the labels were taken from columns "
                        f"{', '.join(str(c) for c in columns)} of each line (negative: counted from its end)")
    return (first or None), header, warnings


# --------------------------------------------------------------------------- typed: JSON Lines and Parquet


def _label_column(schema: Any, column: str) -> Any:
    """A typed column as strings; a list column (label sets) joined on an internal separator."""
    pl = _polars()
    expr = pl.col(column)
    dtype = schema[column]
    inner = dtype.inner if isinstance(dtype, pl.List) else dtype
    if inner.is_float():  # 1.0 and 1 are the same label: integral floats print as integers; NaN is missing
        as_int = pl.element() if isinstance(dtype, pl.List) else expr
        whole = pl.when(as_int.is_nan()).then(None) \
            .when((as_int == as_int.floor()) & (as_int.abs() < 2.0**62)) \
            .then(as_int.cast(pl.Int64, strict=False).cast(pl.String)).otherwise(as_int.cast(pl.String))
        if isinstance(dtype, pl.List):
            return expr.list.eval(whole).list.join(_LIST_JOIN)
        return whole
    if isinstance(dtype, pl.List):
        return expr.cast(pl.List(pl.String)).list.join(_LIST_JOIN)
    return expr.cast(pl.String)


#: Rows per slice of a Parquet file.
_PARQUET_ROWS = 1 << 21


def _typed_parts(path: str, name: str, fmt: str, meter: Meter | None) -> Iterator[tuple[Any, int, bytes | None]]:
    """A JSON Lines or Parquet file as lazy frames of consecutive records: (frame, its first line or row number,
    the JSON Lines chunk's bytes for diagnosis)."""
    pl = _polars()
    if fmt == "jsonl":
        for chunk in line_chunks(path, meter=meter):
            yield pl.scan_ndjson(chunk.data), chunk.first_line, chunk.data
        return
    src = _source(path)
    lf = pl.scan_parquet(src)
    try:
        total = int(_collect(lf.select(pl.len())).item())
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


def _typed_schema(lf: Any, name: str, fmt: str, raw: bytes | None, first: int, roles: Sequence[str]) -> Any:
    try:
        return lf.collect_schema()
    except Exception as exc:
        if fmt == "jsonl":
            _diagnose_jsonl(raw, name, None, roles, first - 1)
        raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None


def _read_typed(path: str, name: str, fmt: str, columns: Sequence[Column], roles: Sequence[str], tally: _Tally,
                meter: Meter | None, is_list: list[bool] | None) -> tuple[tuple[Any, ...] | None, list[bool]]:
    """Count a JSON Lines or Parquet file into ``tally``: (its first record's labels, which columns are lists)."""
    pl = _polars()
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
            frame = _counted(selected, keys)
        except Exception as exc:
            if fmt == "jsonl":
                _diagnose_jsonl(raw, name, fields, roles, start - 1)
            raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
        if frame.select(pl.any_horizontal([pl.col(k).is_null() for k in keys]).any()).item():
            missing = [_label_column(schema, f).is_null() for f in fields]  # null, or NaN in a float column
            nulls = _collect(lf.with_row_index("__i", offset=start)
                             .filter(pl.any_horizontal(missing))
                             .select("__i", *[m.alias(r) for m, r in zip(missing, roles)])
                             .head(1)).row(0, named=True)
            role = next(r for r in roles if nulls[r])
            raise InputError(f"the {role} label ({fields[list(roles).index(role)]!r}) is missing (null)",
                             name, nulls["__i"])
        if first is None and frame.height:
            first = tuple(_unpack(v, f) for v, f in zip(_collect(selected.head(1)).row(0), is_list))
        if meter is not None:
            meter.add(rows=int(frame.get_column("n").sum()) if frame.height else 0)
        tally.add(frame)
    return first, is_list or [False] * len(columns)


def _unpack(value: Any, is_list: bool) -> Any:
    """A grouped cell back to its value: a list column's joined string becomes a tuple of labels."""
    if not is_list:
        return value
    return tuple(value.split(_LIST_JOIN)) if value else ()


def _diagnose_jsonl(src: Any, name: str, fields: Sequence[str] | None, roles: Sequence[str], offset: int = 0
                    ) -> None:
    """Find the first JSON Lines record polars could not take, and say why."""
    if src is None:
        return
    for number, raw in _lines(src, offset):
        text = _decode(raw, name, number)
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"is not valid JSON: {exc.msg} at column {exc.colno}", name, number) from None
        if not isinstance(record, dict):
            raise InputError(f"expected a JSON object, found {type(record).__name__}", name, number)
        for fname, role in zip(fields or (), roles):
            value = record.get(fname)
            ok = isinstance(value, (str, int)) or (
                isinstance(value, list) and all(isinstance(v, (str, int)) for v in value))
            if not ok:
                raise InputError(f"the {role} field {fname!r} must be a label (string or integer) or a list of "
                                 f"labels, found {json.dumps(value)}", name, number)


# --------------------------------------------------------------------------- the entry points


def _names(paths: Sequence[str]) -> str:
    shown = [_display(p) for p in paths]
    return ", ".join(shown) if len(shown) <= 3 else f"{shown[0]}, {shown[1]} … {shown[-1]} ({len(shown)} files)"


def read_cells(paths: str | Sequence[str], columns: Sequence[Column], roles: Sequence[str],
               options: TableOptions = TableOptions(), *, empty_ok: bool = False,
               progress: ReadProgress | None = None) -> Cells:
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

    Memory stays bounded by the chunk size and the number of unique rows, whatever the files' length.
    """
    paths = [paths] if isinstance(paths, str) else list(paths)
    if not paths:
        raise OptionError("no input file")
    if paths.count(STDIN) > 1:
        raise OptionError("standard input (-) can stand for one file only")
    meter = Meter(size_of(paths), progress)
    keys = [f"c{i}" for i in range(len(columns))]
    tally = _Tally(keys)
    warnings: list[str] = []
    first_row: tuple[Any, ...] | None = None
    header = True
    is_list: list[bool] | None = None
    for number, path in enumerate(paths):
        fmt = format_of(path, options)
        name = _display(path)
        _check_source(path)
        if fmt in ("jsonl", "parquet"):
            if options.sep is not None:
                raise OptionError(f"--sep does not apply to {fmt} input")
            first, is_list = _read_typed(path, name, fmt, columns, roles, tally, meter, is_list)
            has_header = True
        else:
            first, has_header, found = _read_delimited(path, name, fmt, options, columns, roles, empty_ok, tally,
                                                       meter)
            warnings += found
        if number == 0:
            first_row, header = first, has_header
    frame = tally.frame()
    counts = frame.get_column("n").to_numpy().astype(np.int64) if frame is not None else np.zeros(0, dtype=np.int64)
    rows = _LazyRows(tally, is_list, 0 if frame is None else frame.height)
    return Cells(rows, counts, _names(paths), first_row, header, tuple(warnings), frame,
                 None if is_list is None else tuple(is_list))


def _check_source(path: str) -> None:
    if path == STDIN:
        return
    if not os.path.exists(path):
        raise InputError("no such file", path)
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", path)


def first_line_with(paths: Sequence[str], column: Column, match: Callable[[str], bool],
                    options: TableOptions = TableOptions()) -> tuple[str, int, str] | None:
    """The first line (the row, for Parquet) whose value in ``column`` satisfies ``match``: (file, line, value).

    For messages about values found wrong after counting (a confidence that is not a number):
    a plain second pass over the files in order, on the error path only. Standard input cannot
    be read twice.
    """
    for path in paths:
        if path == STDIN or not os.path.isfile(path):
            continue
        fmt = format_of(path, options)
        if fmt in ("jsonl", "parquet"):
            pl = _polars()
            lf = pl.scan_parquet(path) if fmt == "parquet" else pl.scan_ndjson(path)
            names = lf.collect_schema().names()
            field_name = names[resolve_column(column, names, path, "value")]
            values = lf.select(pl.col(field_name).cast(pl.String)).collect().get_column(field_name).to_list()
            for row, value in enumerate(values, start=1):
                text = "null" if value is None else value.strip()
                if match(text):
                    return path, row, text
            continue
        sep, quoted = _separator(fmt, options), fmt == "csv"
        header = bool(options.header) or isinstance(column, str)
        position: int | None = None
        for number, raw in _lines(path):
            text = raw.decode("utf-8", "replace")
            if _blank(text, sep):
                continue
            fields = _split(text, sep, quoted)
            if position is None:
                names = fields if header else [f"column_{i + 1}" for i in range(len(fields))]
                position = resolve_column(column, names, path, "value")
                if header:
                    continue
            at = len(fields) + column if isinstance(column, int) and column < 0 and sep is None else position
            if 0 <= at < len(fields) and match(fields[at].strip()):
                return path, number, fields[at].strip()
    return None


def read_cells_two_files(gold_path: str, pred_path: str, gold_col: Column, pred_col: Column,
                         options: TableOptions = TableOptions(), *, empty_ok: bool = False,
                         progress: ReadProgress | None = None) -> tuple[list[tuple[Any, Any]], np.ndarray]:
    """Pair line i of the gold file with line i of the predictions file; unique pairs with counts."""
    rows, counts = read_cells_in_line_order([(gold_path, gold_col, "gold"), (pred_path, pred_col, "predicted")],
                                            options, empty_ok=empty_ok, progress=progress)
    return [(g, p) for g, p in rows], counts


def read_cells_in_line_order(sources: Sequence[tuple[str, Column, str]], options: TableOptions = TableOptions(),
                             *, empty_ok: bool = False, progress: ReadProgress | None = None
                             ) -> tuple[list[tuple[Any, ...]], np.ndarray]:
    """Put line i of each source side by side; the unique rows with counts.

    Parameters
    ----------
    sources
        (path, column, role) for each column: a gold file and one or more prediction files
        (a path may repeat with another column).

    The files are read in step, a chunk at a time (Arrow strings, not Python objects), so
    memory stays bounded; their line counts must agree, and the message says which file ends early.
    """
    pl = _polars()
    if options.header is None and any(isinstance(col, str) for _, col, _ in sources):
        # a column named in one file means the files have headers: read every file's first line as one
        options = TableOptions(options.input_format, options.sep, True)
    paths = [path for path, _, _ in sources]
    if paths.count(STDIN) > 1:
        raise OptionError("standard input (-) can stand for one file only")
    meter = Meter(size_of(list(dict.fromkeys(paths))), progress)
    opened = [_column_parts(path, col, role, options, empty_ok, meter) for path, col, role in sources]
    names = [_display(path) for path in paths]
    parts = [it for _, it in opened]
    is_list = [flag for flag, _ in opened]
    keys = [f"c{i}" for i in range(len(sources))]
    tally = _Tally(keys)
    buffers: list[Any] = [None] * len(sources)
    taken = [0] * len(sources)
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
            raise InputError(f"{names[longest]} has {totals[longest]} instances but {names[short]} has "
                             f"{totals[short]}: {names[short]} ends early")
        step = min(lengths)
        frame = pl.DataFrame({k: b[:step] for k, b in zip(keys, buffers)})
        tally.add(_counted(frame.lazy(), keys))
        meter.add(rows=step)
        buffers = [b[step:] for b in buffers]
        taken = [t + step for t in taken]
    return tally.rows(is_list)


def _column_parts(path: str, col: Column, role: str, options: TableOptions, empty_ok: bool,
                  meter: Meter) -> tuple[bool, Iterator[Any]]:
    """One label column of a file, in line order, as polars Series a chunk at a time; and whether it holds lists.

    Every line is an instance: a blank line is the empty label set when ``empty_ok``, else an error.
    """
    fmt = format_of(path, options)
    name = _display(path)
    _check_source(path)
    if fmt in ("jsonl", "parquet"):
        return _typed_column_parts(path, name, fmt, col, role, meter)
    header = bool(options.header) or isinstance(col, str)
    layout, _, _, chunks, leading = _delimited_chunks(path, name, fmt, TableOptions(fmt, options.sep, header),
                                                      [col], [role], empty_ok, meter)
    if leading:
        raise InputError(f"the {role} label is empty (a blank line; in two-file mode every line is an instance)",
                         name, 1)
    index = col if isinstance(col, int) and col < 0 else layout.positions[0]  # negative: from each line's end
    return False, (_column_chunk(chunk, layout, index) for chunk in chunks)


def _column_chunk(chunk: Chunk, layout: _Layout, index: int) -> Any:
    """The chunk's label column (the file's only role) in line order; an empty or missing label is an error."""
    pl = _polars()
    name, sep, quoted, role, empty_ok = layout.name, layout.sep, layout.quoted, layout.roles[0], layout.empty_ok
    lines = pl.scan_csv(chunk.data, separator="\x00", has_header=False, quote_char=None, infer_schema=False,
                        empty_string_is_null=False, new_columns=["line"], raise_if_empty=False)
    text = pl.col("line").str.strip_chars()
    if sep is None:
        fields = text.str.replace_all(r"\s+", " ").str.split(" ")
    elif quoted:
        fields = None  # quoted CSV: let the CSV parser split the fields
    else:
        fields = pl.col("line").str.split(sep)
    try:
        if fields is None:
            parsed = pl.scan_csv(chunk.data, separator=sep, has_header=False, quote_char='"', infer_schema=False,
                                 empty_string_is_null=False, raise_if_empty=False)
            blank = _collect(lines.select((text == "").alias("blank")))
            values = _collect(parsed.select(pl.nth(layout.positions[0]).alias("v")))
            if blank.height != values.height:
                raise InputError(f"has {blank.height} lines but {values.height} CSV records (a quoted field "
                                 "spans lines?); in two-file mode every line must be one instance", name,
                                 chunk.first_line)
            frame = pl.concat([blank, values], how="horizontal")
        else:
            frame = _collect(lines.select((text == "").alias("blank"),
                                          pl.when(text == "").then(pl.lit("")).otherwise(
                                              fields.list.get(index, null_on_oob=True)).alias("v")))
    except InputError:
        raise
    except Exception:
        layout.diagnose(chunk, None, [index])
        raise
    problems = frame.with_row_index("i", offset=chunk.first_line).filter(
        pl.col("v").is_null() | ((pl.col("v").str.strip_chars() == "") & (not empty_ok)))
    if problems.height:
        line, blank = problems.row(0)[0], problems.row(0)[1]
        if blank:
            raise InputError(f"the {role} label is empty (a blank line; in two-file mode every line is an "
                             "instance)", name, line)
        layout.diagnose(chunk, None, [index])
        raise InputError(f"the {role} label is empty or missing", name, line)
    return frame.get_column("v")


def _typed_column_parts(path: str, name: str, fmt: str, col: Column, role: str,
                        meter: Meter) -> tuple[bool, Iterator[Any]]:
    pl = _polars()
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
        for lf, start, raw in itertools.chain([first], parts):
            part_schema = _typed_schema(lf, name, fmt, raw, start, (role,))
            if field_name not in part_schema:
                raise InputError(f"the {role} field {field_name!r} is missing", name, start)
            try:
                values = _collect(lf.select(_label_column(part_schema, field_name).alias("v"))).get_column("v")
            except Exception as exc:
                if fmt == "jsonl":
                    _diagnose_jsonl(raw, name, None, (role,), start - 1)
                raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
            if values.null_count():
                raise InputError(f"the {role} label is missing (null)", name,
                                 start + int(values.is_null().arg_true()[0]))
            yield values

    return is_list, series()
