"""CSV output: one tidy row per number — section, label, measure, value.

Every cell goes through :func:`clfeval.output.delimited_row`, the one rule of every CSV and TSV clfeval writes: a text
cell a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return,
and not a plain number) gets a leading apostrophe, as OWASP recommends against CSV injection, unless
``raw_csv=True`` (``--raw-csv``), which writes every cell exactly, for programs; a cell holding a line break is
quoted either way.
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.output import FORMULA_STARTS, delimited_row, safe_cell
from clfeval.report.tables import Bounds, Report
from clfeval.result import Result

__all__ = ["FORMULA_STARTS", "render_csv", "report_csv", "safe_cell"]


def _value(v: Any) -> Any:
    return "" if isinstance(v, float) and math.isnan(v) else v


def render_csv(
    result: Result,
    *,
    digits: int = 4,
    matrix: bool = True,
    command: str | None = None,
    raw_csv: bool = False,
    measures: Any = None,
    verbose: bool = False,
    width: int | None = None,
) -> str:
    """A result's report as CSV: its tidy rows where it has them (a score's ``section,label,measure,value``, a
    cross-validation's rows per scope, a comparison's row per test: :mod:`clfeval.report.rows`), else its tables.
    Text cells a spreadsheet would run as formulas get a leading apostrophe unless ``raw_csv``, and cells holding a
    line break are quoted (see the module docstring); ``matrix=False`` leaves the confusion matrix out; an undefined
    value is an empty cell."""
    report = result.report(matrix=matrix)
    if report.tidy is None:
        return report_csv(report, raw=raw_csv)
    return "".join(delimited_row([_value(v) for v in row], raw=raw_csv) for row in report.tidy())


def report_csv(report: Report, raw: bool = False) -> str:
    """Any report's tables as rows ``table,<its columns…>`` (one header row per table); a column of intervals is two
    columns of numbers, ``<title> low`` and ``<title> high`` (an interval that does not exist: two empty cells)."""
    lines = []
    for table in report.tables:
        spans = {i for row in table.rows for i, v in enumerate(row) if isinstance(v, Bounds)}
        header: list[Any] = []
        for i, title in enumerate(table.columns):
            header += [f"{title} low", f"{title} high"] if i in spans else [title]
        lines.append(delimited_row(["table", *header], raw=raw))
        for row in table.rows:
            cells: list[Any] = [table.key]
            for i, v in enumerate(row):
                if i in spans:
                    low, high = (v.low, v.high) if isinstance(v, Bounds) else (None, None)
                    cells += ["" if low is None else _value(low), "" if high is None else _value(high)]
                else:
                    cells.append(_value(v))
            lines.append(delimited_row(cells, raw=raw))
    return "".join(lines)
