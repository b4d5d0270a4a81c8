"""The typed reader: JSON Lines and Parquet, whose fields have names and types.

Label cells are strings, numbers (``1.0`` and ``1`` are one label) or lists of labels (label sets). JSON
Lines is read a chunk of lines at a time, Parquet a slice of rows at a time; a failure of polars (a panic
included) becomes an :class:`~clfeval.errors.InputError`, and a bad JSON Lines record is named by its line.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from clfeval.errors import InputError
from clfeval.inputs.chunks import STDIN, FileVersion, Meter, check_source, line_chunks
from clfeval.inputs.columns import Column, cell_of, one_role_each, resolve_column
from clfeval.inputs.lines import decode_line, lines_of
from clfeval.inputs.tally import BLOCK_KEY, Tally, collect, unique_counts, unpack

__all__ = ["label_column", "read_typed", "typed_column_parts"]


def label_column(schema: Any, column: str) -> Any:
    """A typed column as strings; a list column (label sets) as lists of strings."""
    import polars as pl

    expr = pl.col(column)
    dtype = schema[column]
    inner = dtype.inner if isinstance(dtype, pl.List) else dtype
    if inner.is_float():  # 1.0 and 1 are the same label: integral floats print as integers; NaN is missing
        as_int = pl.element() if isinstance(dtype, pl.List) else expr
        whole = (
            pl.when(as_int.is_nan())
            .then(None)
            .when((as_int == as_int.floor()) & (as_int.abs() < 2.0**62))
            .then(as_int.cast(pl.Int64, strict=False).cast(pl.String))
            .otherwise(as_int.cast(pl.String))
        )
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
        return (
            expr.is_null() | expr.list.eval(element.is_null()).list.any(),
            expr.list.eval(element.str.strip_chars() == "").list.any(),
        )
    empty = pl.lit(False) if empty_ok else expr.str.strip_chars() == ""
    return expr.is_null(), empty


#: Rows per slice of a Parquet file.
_PARQUET_ROWS = 1 << 21


def _source(path: str) -> Any:
    """What polars reads: the path, or standard input's bytes."""
    if path == STDIN:
        return sys.stdin.buffer.read()
    check_source(path)
    return path


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
        raise InputError(
            f"could not be read as {fmt}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", name
        ) from None
    if version is not None:
        version.check()


def _typed_schema(lf: Any, name: str, fmt: str, raw: bytes | None, first: int, roles: Sequence[str]) -> Any:
    try:
        return lf.collect_schema()
    except Exception as exc:
        if fmt == "jsonl":
            _diagnose_jsonl(raw, name, None, roles, first - 1)
        raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None


def read_typed(
    path: str,
    name: str,
    fmt: str,
    columns: Sequence[Column],
    roles: Sequence[str],
    tally: Tally,
    meter: Meter | None,
    is_list: list[bool] | None,
    empty_ok: bool = False,
    nulls_ok: bool = False,
) -> tuple[tuple[Any, ...] | None, list[bool]]:
    """Count a JSON Lines or Parquet file into ``tally``: (its first record's labels, which columns are lists).
    ``nulls_ok``: a null single-label cell is the empty label (an invalid prediction under ``--invalid``)."""
    with _guarded(path, name, fmt):
        return _read_typed_parts(path, name, fmt, columns, roles, tally, meter, is_list, empty_ok, nulls_ok)


def _read_typed_parts(
    path: str,
    name: str,
    fmt: str,
    columns: Sequence[Column],
    roles: Sequence[str],
    tally: Tally,
    meter: Meter | None,
    is_list: list[bool] | None,
    empty_ok: bool,
    nulls_ok: bool = False,
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
            raise InputError(
                f"the {role} labels are lists of labels in some records and single labels in others", name, start
            )
        exprs = [
            (label_column(schema, f).fill_null("") if nulls_ok and not flag else label_column(schema, f)).alias(k)
            for f, k, flag in zip(fields, keys, lists)
        ]
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


def _typed_problem(
    lf: Any,
    schema: Any,
    fields: Sequence[str],
    roles: Sequence[str],
    lists: Sequence[bool],
    empty_ok: bool,
    name: str,
    start: int,
) -> None:
    """Raise for the first record of ``lf`` with a missing or empty label (:func:`_cell_problems`), naming its
    line (JSON Lines) or row (Parquet)."""
    import polars as pl

    flags = []
    for f, r, flag in zip(fields, roles, lists):
        missing, empty = _cell_problems(label_column(schema, f), flag, empty_ok)  # NaN in a float column: null
        flags += [missing.alias(f"{r}\x00missing"), empty.alias(f"{r}\x00empty")]
    found = collect(
        lf.with_row_index("__i", offset=start)
        .select("__i", *flags)
        .filter(pl.any_horizontal(pl.exclude("__i")))
        .head(1)
    ).row(0, named=True)
    for f, r, flag in zip(fields, roles, lists):
        what = f"the {r} label set ({f!r})" if flag else f"the {cell_of(r)} ({f!r})"
        if found[f"{r}\x00missing"]:
            raise InputError(
                f"{what} holds a missing label (null)" if flag else f"{what} is missing (null)", name, found["__i"]
            )
        if found[f"{r}\x00empty"]:
            raise InputError(f"{what} holds an empty label ('')" if flag else f"{what} is empty", name, found["__i"])


def _diagnose_jsonl(
    src: Any,
    name: str,
    fields: Sequence[str] | None,
    roles: Sequence[str],
    offset: int = 0,
    lists: Sequence[bool] | None = None,
) -> None:
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
                isinstance(value, list) and all(isinstance(v, (str, int)) for v in value)
            )
            if not ok:
                raise InputError(
                    f"the {role} field {fname!r} must be a label (string or integer) or a list of "
                    f"labels, found {json.dumps(value)}",
                    name,
                    number,
                )
            if lists is not None and not lists[i] and isinstance(value, list):
                raise InputError(
                    f"the {role} field {fname!r} holds a list of labels here but single labels in other "
                    "records: one kind of value per field",
                    name,
                    number,
                )


def _coerced_jsonl(frame: Any, keys: Sequence[str], lists: Sequence[bool]) -> bool:
    """Whether a JSON Lines frame's single-label columns hold text that polars may have made of a list or an
    object (it reads a field that mixes them with strings as strings): then the records are checked one by one."""
    import polars as pl

    text = [pl.col(k).str.starts_with("[") | pl.col(k).str.starts_with("{") for k, flag in zip(keys, lists) if not flag]
    return bool(text) and bool(frame.select(pl.any_horizontal(text).any()).item())


def typed_column_parts(
    path: str, name: str, fmt: str, col: Column, role: str, meter: Meter, empty_ok: bool = False
) -> tuple[bool, Iterator[Any], str]:
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
                values = collect(lf.select(label_column(part_schema, field_name).alias("v"))).get_column("v")
            except Exception as exc:
                if fmt == "jsonl":
                    _diagnose_jsonl(raw, name, None, (role,), start - 1)
                raise InputError(f"could not be read as {fmt}: {str(exc).splitlines()[0]}", name) from None
            if fmt == "jsonl" and _coerced_jsonl(values.to_frame(), ["v"], [is_list]):
                _diagnose_jsonl(raw, name, [field_name], [role], start - 1, [is_list])
            missing, empty = _cell_problems(pl.col("v"), is_list, empty_ok)
            if values.to_frame().select((missing | empty).any()).item():
                _typed_problem(lf, part_schema, [field_name], [role], [is_list], empty_ok, name, start)
            yield pl.DataFrame(
                {
                    "v": values,
                    "line": pl.int_range(start, start + len(values), eager=True),
                    BLOCK_KEY: pl.zeros(len(values), pl.Int64, eager=True),
                }
            )

    return is_list, series(), field_name
