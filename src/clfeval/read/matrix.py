"""Confusion-matrix files: first row and first column are labels, the cells are counts."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.errors import MatrixError, OptionError, unknown_name
from clfeval.read.table import TableOptions, _decode, _lines, _separator, _source, _split, format_of

__all__ = ["MATRIX_ORIENTATIONS", "read_matrix"]

#: What the rows of a matrix file hold.
MATRIX_ORIENTATIONS: Mapping[str, str] = {
    "gold": "rows are gold labels, columns predicted (scikit-learn's orientation)",
    "predicted": "rows are predicted labels, columns gold (as the seed papers print them)",
}


def _count(text: str, name: str, line: int, column: int) -> int:
    try:
        value = float(text)
    except ValueError:
        raise MatrixError(f"cell {column} is {text!r}, expected a count", name, line) from None
    if not value.is_integer():
        raise MatrixError(f"cell {column} is {text!r}, expected a whole number", name, line)
    if value < 0:
        raise MatrixError(f"cell {column} is {text!r}, expected a count ≥ 0", name, line)
    return int(value)


def read_matrix(path: str, rows: str = "gold", options: TableOptions = TableOptions()) -> ConfusionCounts:
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
    sep = _separator(fmt, options)
    name = "<stdin>" if path == "-" else path
    src = _source(path)
    table: list[tuple[int, list[str]]] = []
    for number, raw in _lines(src):
        text = _decode(raw, name, number)
        if text.strip():
            table.append((number, [f.strip() for f in _split(text, sep, fmt == "csv")]))
    if not table:
        raise MatrixError("is empty: expected a header row of labels and one row per label", name)
    head_line, head = table[0]
    body = table[1:]
    columns = head[1:]
    if not columns:
        raise MatrixError("the header row names no labels", name, head_line)
    if len(set(columns)) != len(columns):
        dup = next(c for c in columns if columns.count(c) > 1)
        raise MatrixError(f"column label {dup!r} is repeated", name, head_line)
    if len(body) != len(columns):
        raise MatrixError(f"the matrix is not square: {len(columns)} column labels but {len(body)} rows",
                          name, body[-1][0] if body else head_line)
    row_labels: list[str] = []
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
    return ConfusionCounts(tuple(columns), cells)
