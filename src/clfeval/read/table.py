"""Reading label columns from files: text (whitespace), CSV, TSV, JSON Lines, Parquet, or standard input.

The fast path is a streaming polars aggregation: the file is grouped by its label columns
and only the unique (gold, predicted) cell pairs and their counts come back, so memory does
not grow with the file. When something looks wrong (a parse error, an empty or missing
cell), a second, line-by-line pass finds the first offending line and says what it expected
there; a file that is fine never pays for it unless it has empty cells.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.read.columns import Column, resolve_column

__all__ = ["FORMATS", "Cells", "TableOptions", "format_of", "read_cells", "read_cells_in_line_order",
           "read_cells_two_files"]

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
_STDIN = "-"
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
    for a list-typed cell (JSON Lines, Parquet).
    """

    rows: list[tuple[Any, ...]]
    counts: np.ndarray
    source: str
    first_row: tuple[Any, ...] | None = None
    header: bool = False
    warnings: tuple[str, ...] = field(default=())


def format_of(path: str, options: TableOptions) -> str:
    """The input format: the explicit one, else by extension, else ``text``."""
    if options.input_format is not None:
        if options.input_format not in FORMATS:
            raise unknown_name("input format", options.input_format, FORMATS)
        return options.input_format
    return _EXTENSIONS.get(Path(path).suffix.lower(), "text") if path != _STDIN else "text"


def _display(path: str) -> str:
    return "<stdin>" if path == _STDIN else path


def _source(path: str) -> Any:
    """What polars reads: the path, or standard input's bytes."""
    if path == _STDIN:
        return sys.stdin.buffer.read()
    if not os.path.exists(path):
        raise InputError("no such file", path)
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", path)
    return path


def _separator(fmt: str, options: TableOptions) -> str | None:
    sep = options.sep
    if sep is not None:
        sep = "\t" if sep in ("\\t", "tab", "TAB") else sep
        if len(sep) != 1:
            raise OptionError(f"--sep must be one character (or \\t), not {options.sep!r}")
        return sep
    return {"csv": ",", "tsv": "\t"}.get(fmt)  # None: runs of whitespace


def _lines(src: Any) -> Any:
    """Iterate (line number, raw bytes without the line end) over a path or bytes."""
    handle = io.BytesIO(src) if isinstance(src, bytes) else open(src, "rb")
    with handle:
        for number, raw in enumerate(handle, start=1):
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
              positions: Sequence[int], roles: Sequence[str], empty_ok: bool) -> int:
    """The slow, exact pass: raise on the first bad line; otherwise return the number of blank lines."""
    blank = 0
    need = max(p + 1 if p >= 0 else -p for p in positions)
    header_pending = header
    for number, raw in _lines(src):
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
    return lf.collect(engine="streaming")


def _group(lf: Any, names: Sequence[str]) -> tuple[list[tuple[Any, ...]], np.ndarray]:
    pl = _polars()
    agg = _collect(lf.group_by(list(names)).agg(pl.len().alias("__n")))
    counts = agg.get_column("__n").to_numpy().astype(np.int64)
    cols = [agg.get_column(n).to_list() for n in names]
    return list(zip(*cols)), counts


def _read_delimited(src: Any, name: str, fmt: str, options: TableOptions, columns: Sequence[Column],
                    roles: Sequence[str], empty_ok: bool) -> Cells:
    pl = _polars()
    sep = _separator(fmt, options)
    quoted = fmt == "csv"
    header = bool(options.header) or any(isinstance(c, str) for c in columns)
    first_line = None
    for number, raw in _lines(src):
        text = _decode(raw, name, number)
        if not _blank(text, sep):
            first_line = text
            break
    if first_line is None:
        raise InputError("is empty: expected lines of labels", name)
    first_fields = _split(first_line, sep, quoted)
    names = first_fields if header else [f"column_{i + 1}" for i in range(len(first_fields))]
    positions = [resolve_column(c, names, name, r) for c, r in zip(columns, roles)]
    keys = [f"c{i}" for i in range(len(columns))]

    def diagnose(ncols: int | None) -> int:
        return _diagnose(src, name, sep, quoted, header, ncols, line_positions if ncols is None else positions,
                         roles, empty_ok)

    # a negative column counts from the end of each line (lines of whitespace text may differ in width)
    line_positions = [c if isinstance(c, int) and c < 0 and sep is None else p for c, p in zip(columns, positions)]
    rows: list[tuple[Any, ...]] | None = None
    if sep is not None or " " in first_line.strip() or "\t" not in first_line:
        fast_sep = sep if sep is not None else " "
        lf = pl.scan_csv(src, separator=fast_sep, has_header=header, quote_char='"' if quoted else None,
                         infer_schema=False, empty_string_is_null=False, raise_if_empty=False)
        width: int | None = None
        try:
            width = len(lf.collect_schema())
            selected = lf.select([pl.nth(p).alias(k) for p, k in zip(positions, keys)])
            rows, counts = _group(selected, keys)
            first = _collect(selected.head(1)).row(0) if rows else None
        except Exception as exc:  # polars parse errors: find the line ourselves
            if sep is not None:
                if "utf-8" in str(exc).lower():
                    diagnose(None)
                diagnose(width if "more fields" in str(exc) else None)
                raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
            rows = None
        if rows is not None and sep is None and any(
                v == "" or _WHITESPACE.search(v) for row in rows for v in row):
            rows = None  # runs of whitespace or tabs: take the general whitespace path below
        if rows is not None and any(v == "" for row in rows for v in row):
            n_blank = diagnose(width)  # raises on short lines (and on empty labels unless empty cells are allowed)
            blank_key = ("",) * len(keys)
            if n_blank and blank_key in rows:
                idx = rows.index(blank_key)
                counts[idx] -= n_blank
                if counts[idx] == 0:
                    del rows[idx]
                    counts = np.delete(counts, idx)
            warnings = (f"skipped {n_blank} blank line(s)",) if n_blank else ()
            return Cells(rows, counts, name, first, header, warnings)
        if rows is not None:
            return Cells(rows, counts, name, first, header)

    # whitespace-separated text with runs of spaces or tabs: split each line with a regex, in polars
    lines = pl.scan_csv(src, separator="\x00", has_header=False, quote_char=None, infer_schema=False,
                        empty_string_is_null=False, new_columns=["line"], raise_if_empty=False)
    text = pl.col("line").str.strip_chars()
    lf = (lines.with_row_index("__line", offset=1).filter(text != "")
          .with_columns(text.str.replace_all(r"\s+", " ").str.split(" ").alias("__f")))
    if header:
        lf = lf.slice(1)
    widths = lf.select(pl.col("__f").list.len().alias("n"))
    lf = lf.select([pl.col("__f").list.get(p, null_on_oob=True).alias(k) for p, k in zip(line_positions, keys)])
    try:
        rows, counts = _group(lf, keys)
        n_blank = int(_collect(lines.select((pl.col("line").str.strip_chars() == "").sum())).item())
        first = _collect(lf.head(1)).row(0) if rows else None
        narrow, wide = _collect(widths.select(pl.col("n").min().alias("lo"), pl.col("n").max().alias("hi"))).row(0)
    except Exception:
        diagnose(None)
        raise
    if any(v is None for row in rows for v in row):
        diagnose(None)
    warnings = [f"skipped {n_blank} blank line(s)"] if n_blank else []
    if narrow != wide:
        warnings.append(f"lines have between {narrow} and {wide} fields; the labels were taken from columns "
                        f"{', '.join(str(c) for c in columns)} of each line (negative: counted from its end)")
    return Cells(rows, counts, name, first, header, tuple(warnings))


def _label_column(schema: Any, column: str) -> Any:
    """A typed column as strings; a list column (label sets) joined on an internal separator."""
    pl = _polars()
    expr = pl.col(column)
    dtype = schema[column]
    inner = dtype.inner if isinstance(dtype, pl.List) else dtype
    if inner.is_float():  # 1.0 and 1 are the same label: integral floats print as integers
        as_int = pl.element() if isinstance(dtype, pl.List) else expr
        whole = pl.when(as_int == as_int.floor()).then(as_int.cast(pl.Int64).cast(pl.String)) \
            .otherwise(as_int.cast(pl.String))
        if isinstance(dtype, pl.List):
            return expr.list.eval(whole).list.join(_LIST_JOIN)
        return whole
    if isinstance(dtype, pl.List):
        return expr.cast(pl.List(pl.String)).list.join(_LIST_JOIN)
    return expr.cast(pl.String)


def _read_typed(src: Any, name: str, fmt: str, columns: Sequence[Column], roles: Sequence[str]) -> Cells:
    pl = _polars()
    try:
        lf = pl.scan_ndjson(src) if fmt == "jsonl" else pl.scan_parquet(src)
        schema = lf.collect_schema()
    except Exception as exc:
        if fmt == "jsonl":
            _diagnose_jsonl(src, name, None, roles)
        raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
    names = list(schema.names())
    if not names:
        raise InputError(f"is empty: expected {fmt} records with label fields", name)
    positions = [resolve_column(c, names, name, r) for c, r in zip(columns, roles)]
    keys = [f"c{i}" for i in range(len(columns))]
    exprs = []
    for p, k in zip(positions, keys):
        exprs.append(_label_column(schema, names[p]).alias(k))
        exprs.append(pl.col(names[p]).is_null().alias(f"{k}_null"))
    list_cols = {k for p, k in zip(positions, keys) if isinstance(schema[names[p]], pl.List)}
    selected = lf.select(exprs)
    try:
        rows, counts = _group(selected, keys + [f"{k}_null" for k in keys])
    except Exception as exc:
        if fmt == "jsonl":
            _diagnose_jsonl(src, name, [names[p] for p in positions], roles)
        raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
    if any(row[len(keys) + i] for row in rows for i in range(len(keys))):
        nulls = _collect(lf.with_row_index("__i", offset=1)
                         .filter(pl.any_horizontal([pl.col(names[p]).is_null() for p in positions]))
                         .select("__i", *[pl.col(names[p]).is_null().alias(r) for p, r in zip(positions, roles)])
                         .head(1)).row(0, named=True)
        role = next(r for r in roles if nulls[r])
        raise InputError(f"the {role} label ({names[positions[roles.index(role)]]!r}) is missing (null)",
                         name, nulls["__i"])
    out_rows = [tuple(_unpack(v, k in list_cols) for k, v in zip(keys, row[:len(keys)])) for row in rows]
    first = None
    if out_rows:
        first_raw = _collect(selected.head(1)).row(0)
        first = tuple(_unpack(v, k in list_cols) for k, v in zip(keys, first_raw[0::2]))
    return Cells(out_rows, counts, name, first, True)


def _unpack(value: Any, is_list: bool) -> Any:
    """A grouped cell back to its value: a list column's joined string becomes a tuple of labels."""
    if not is_list:
        return value
    return tuple(value.split(_LIST_JOIN)) if value else ()


def _diagnose_jsonl(src: Any, name: str, fields: Sequence[str] | None, roles: Sequence[str]) -> None:
    """Find the first JSON Lines record polars could not take, and say why."""
    for number, raw in _lines(src):
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


def read_cells(path: str, columns: Sequence[Column], roles: Sequence[str], options: TableOptions = TableOptions(),
               *, empty_ok: bool = False) -> Cells:
    """Read the unique rows of ``columns`` of one file, with counts.

    Parameters
    ----------
    path
        A file path, or ``-`` for standard input.
    columns
        Which columns: 1-based numbers, negative from the end, or header names.
    roles
        What each column holds (``gold``, ``predicted``…), for messages.
    empty_ok
        Whether an empty cell is a value (the empty label set) rather than an error.
    """
    fmt = format_of(path, options)
    name = _display(path)
    src = _source(path)
    if fmt in ("jsonl", "parquet"):
        if options.sep is not None:
            raise OptionError(f"--sep does not apply to {fmt} input")
        return _read_typed(src, name, fmt, columns, roles)
    return _read_delimited(src, name, fmt, options, columns, roles, empty_ok)


def read_cells_two_files(gold_path: str, pred_path: str, gold_col: Column, pred_col: Column,
                         options: TableOptions = TableOptions(), *, empty_ok: bool = False
                         ) -> tuple[list[tuple[Any, Any]], np.ndarray]:
    """Pair line i of the gold file with line i of the predictions file; unique pairs with counts."""
    rows, counts = read_cells_in_line_order([(gold_path, gold_col, "gold"), (pred_path, pred_col, "predicted")],
                                            options, empty_ok=empty_ok)
    return [(g, p) for g, p in rows], counts


def read_cells_in_line_order(sources: Sequence[tuple[str, Column, str]], options: TableOptions = TableOptions(),
                             *, empty_ok: bool = False) -> tuple[list[tuple[Any, ...]], np.ndarray]:
    """Put line i of each source side by side; the unique rows with counts.

    Parameters
    ----------
    sources
        (path, column, role) for each column: a gold file and one or more prediction files
        (a path may repeat with another column).

    Every file is read in full as one column (Arrow strings, not Python objects); their line
    counts must agree, and the message says which file ends early.
    """
    pl = _polars()
    if options.header is None and any(isinstance(col, str) for _, col, _ in sources):
        # a column named in one file means the files have headers: read every file's first line as one
        options = TableOptions(options.input_format, options.sep, True)
    columns = [_read_column_in_order(path, col, role, options, empty_ok) for path, col, role in sources]
    first_name, first_series, _ = columns[0]
    for name, series, _ in columns[1:]:
        if len(series) != len(first_series):
            short = name if len(series) < len(first_series) else first_name
            raise InputError(f"{first_name} has {len(first_series)} instances but {name} has {len(series)}: "
                             f"{short} ends early")
    keys = [f"c{i}" for i in range(len(columns))]
    frame = pl.DataFrame({k: series for k, (_, series, _) in zip(keys, columns)}).lazy()
    rows, counts = _group(frame, keys)
    is_list = [flag for _, _, flag in columns]
    return [tuple(_unpack(v, flag) for v, flag in zip(row, is_list)) for row in rows], counts


def _read_column_in_order(path: str, col: Column, role: str, options: TableOptions, empty_ok: bool) -> Any:
    """One label column of a file, in line order, as a polars Series (Arrow strings, not Python objects).

    Every line is an instance: a blank line is the empty label set when ``empty_ok``, else an error.
    """
    pl = _polars()
    fmt = format_of(path, options)
    name = _display(path)
    src = _source(path)
    if fmt in ("jsonl", "parquet"):
        lf = pl.scan_ndjson(src) if fmt == "jsonl" else pl.scan_parquet(src)
        try:
            schema = lf.collect_schema()
            names = list(schema.names())
            p = resolve_column(col, names, name, role)
            is_list = isinstance(schema[names[p]], pl.List)
            series = _collect(lf.select(_label_column(schema, names[p]).alias("v"))).get_column("v")
        except InputError:
            raise
        except Exception as exc:
            if fmt == "jsonl":
                _diagnose_jsonl(src, name, None, (role,))
            raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
        if series.null_count():
            line = int(series.is_null().arg_true()[0]) + 1
            raise InputError(f"the {role} label is missing (null)", name, line)
        return name, series, is_list
    sep = _separator(fmt, options)
    quoted = fmt == "csv"
    header = bool(options.header) or isinstance(col, str)
    first_line = next((_decode(raw, name, n) for n, raw in _lines(src) if raw.strip()), None)
    if first_line is None:
        raise InputError("is empty: expected one label per line", name)
    first = _split(first_line, sep, quoted)
    position = resolve_column(col, first if header else [f"column_{i + 1}" for i in range(len(first))], name, role)
    index = col if isinstance(col, int) and col < 0 else position  # negative: from each line's end
    lines = pl.scan_csv(src, separator="\x00", has_header=False, quote_char=None, infer_schema=False,
                        empty_string_is_null=False, new_columns=["line"], raise_if_empty=False)
    if header:
        lines = lines.slice(1)
    text = pl.col("line").str.strip_chars()
    if sep is None:
        fields = text.str.replace_all(r"\s+", " ").str.split(" ")
    elif quoted:
        fields = None  # quoted CSV: let the CSV parser split the fields
    else:
        fields = pl.col("line").str.split(sep)
    try:
        if fields is None:
            parsed = pl.scan_csv(src, separator=sep, has_header=header, quote_char='"', infer_schema=False,
                                 empty_string_is_null=False, raise_if_empty=False)
            blank = _collect(lines.select((text == "").alias("blank")))
            values = _collect(parsed.select(pl.nth(position).alias("v")))
            if blank.height != values.height:
                raise InputError(f"has {blank.height} lines but {values.height} CSV records (a quoted field "
                                 "spans lines?); in two-file mode every line must be one instance", name)
            frame = pl.concat([blank, values], how="horizontal")
        else:
            frame = _collect(lines.select((text == "").alias("blank"),
                                          pl.when(text == "").then(pl.lit("")).otherwise(
                                              fields.list.get(index, null_on_oob=True)).alias("v")))
    except Exception:
        _diagnose(src, name, sep, quoted, header, None, [index], [role], empty_ok)
        raise
    problems = frame.with_row_index("i", offset=1 + int(header)).filter(
        pl.col("v").is_null() | ((pl.col("v").str.strip_chars() == "") & (not empty_ok)))
    if problems.height:
        line, blank = problems.row(0)[0], problems.row(0)[1]
        if blank:
            raise InputError(f"the {role} label is empty (a blank line; in two-file mode every line is an "
                             "instance)", name, line)
        _diagnose(src, name, sep, quoted, header, None, [index], [role], empty_ok)
        raise InputError(f"the {role} label is empty or missing", name, line)
    return name, frame.get_column("v"), False
