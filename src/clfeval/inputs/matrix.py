"""Confusion-matrix files: first row and first column are labels, the cells are counts."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.limits import check_dense, check_total, exact_total, whole_count
from clfeval.errors import InputError, MatrixError, OptionError, unknown_name
from clfeval.inputs.chunks import check_source
from clfeval.inputs.formats import TableOptions, format_of, separator_of
from clfeval.inputs.lines import decode_line, lines_of, split_fields

__all__ = ["MATRIX_ORIENTATIONS", "matrix_counts"]

#: What the rows of a matrix file hold.
MATRIX_ORIENTATIONS: Mapping[str, str] = {
    "gold": "rows are gold labels, columns predicted (scikit-learn's orientation)",
    "predicted": "rows are predicted labels, columns gold (as the seed papers print them)",
}


def _count(text: str, name: str, line: int, column: int) -> int:
    try:
        value = int(text) if text.lstrip("+-").isdigit() else float(text)
    except ValueError:
        raise MatrixError(f"cell {column} is {text!r}, expected a count", name, line) from None
    try:
        return whole_count(value, f"cell {column}")
    except InputError as exc:
        raise MatrixError(exc.message, name, line) from None


def matrix_counts(path: str, rows: str = "gold", options: TableOptions = TableOptions()) -> ConfusionCounts:
    """Read a square labelled table of counts into :class:`ConfusionCounts`.

    The first row names the columns (its first cell is a corner label and is ignored), the
    first column names the rows. Row and column labels must be the same set, in any order.
    ``rows="predicted"`` reads a table printed with predictions in rows.
    """
    if rows not in MATRIX_ORIENTATIONS:
        raise unknown_name("matrix orientation", rows, MATRIX_ORIENTATIONS)
    fmt = format_of(path, options)
    if fmt in ("jsonl", "parquet"):
        raise OptionError(f"a confusion matrix is read from a text, CSV or TSV table, not {fmt}")
    sep = separator_of(fmt, options)
    name = "<stdin>" if path == "-" else path
    check_source(path)
    table: list[tuple[int, list[str]]] = []
    for number, raw in lines_of(path):
        text = decode_line(raw, name, number)
        if text.strip():
            table.append((number, [f.strip() for f in split_fields(text, sep, fmt == "csv")]))
    if not table:
        raise MatrixError("is empty: expected a header row of labels and one row per label", name)
    head_line, head = table[0]
    body = table[1:]
    if sep is None and body and len(head) == len(body[0][1]) - 1:
        head = ["", *head]  # whitespace-separated, with a blank corner: the header names the columns only
    columns = head[1:]
    if not columns:
        raise MatrixError("the header row names no labels", name, head_line)
    if len(set(columns)) != len(columns):
        dup = next(c for c in columns if columns.count(c) > 1)
        raise MatrixError(f"column label {dup!r} is repeated", name, head_line)
    if len(body) != len(columns):
        raise MatrixError(
            f"the matrix is not square: {len(columns)} column labels but {len(body)} rows",
            name,
            body[-1][0] if body else head_line,
        )
    row_labels: list[str] = []
    try:
        check_dense(len(columns))
    except InputError as exc:
        raise MatrixError(exc.message, name, head_line) from None
    cells = np.zeros((len(columns), len(columns)), dtype=np.int64)
    col_index = {c: j for j, c in enumerate(columns)}
    for number, fields in body:
        if len(fields) != len(columns) + 1:
            raise MatrixError(f"expected a label and {len(columns)} counts, found {len(fields)} fields", name, number)
        label = fields[0]
        if label in row_labels:
            raise MatrixError(f"row label {label!r} is repeated", name, number)
        if label not in col_index:
            raise MatrixError(f"row label {label!r} is not among the column labels", name, number)
        row_labels.append(label)
        cells[col_index[label]] = [_count(v, name, number, j + 2) for j, v in enumerate(fields[1:])]
    if rows == "predicted":
        cells = cells.T
    try:
        check_total(exact_total(cells), "the cells add up to")
    except InputError as exc:
        raise MatrixError(exc.message, name) from None
    return ConfusionCounts(tuple(columns), cells)
