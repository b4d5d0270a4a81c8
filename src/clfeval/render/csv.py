"""CSV output: one tidy row per number — section, label, measure, value.

CSV files get opened in spreadsheets, which run a cell that starts with ``=``, ``+``, ``-`` or ``@``
(or a tab or carriage return) as a formula: a label such as ``=cmd|' /C calc'!A0`` would be one
(CSV injection). As OWASP recommends, such a text cell is written with a leading apostrophe
(``'=cmd…``), which spreadsheets show as text; cells that are plain numbers (``-1``, ``+1``,
``-0.5``, as SVM labels are) are left as they are, since a spreadsheet reads them as numbers.
``raw_csv=True`` (``--raw-csv``) writes every cell exactly, for programs.
"""

from __future__ import annotations

import csv
import io
import math
import re
from typing import Any

from clfeval.report.tables import Report
from clfeval.result import Result

__all__ = ["FORMULA_STARTS", "render_csv", "report_csv", "safe_cell"]


#: What a spreadsheet runs as a formula when a cell starts with it (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, with a leading apostrophe; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class _Writer:
    """A csv writer whose text cells are made safe for spreadsheets unless ``raw``."""

    def __init__(self, out: io.StringIO, raw: bool) -> None:
        self._writer = csv.writer(out, lineterminator="\n")
        self._raw = raw

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow(row if self._raw else [safe_cell(v) for v in row])


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
    Text cells a spreadsheet would run as formulas get a leading apostrophe unless ``raw_csv`` (see the module
    docstring); ``matrix=False`` leaves the confusion matrix out; an undefined value is an empty cell."""
    report = result.report(matrix=matrix)
    if report.tidy is None:
        return report_csv(report, raw=raw_csv)
    out = io.StringIO()
    writer = _Writer(out, raw_csv)
    for row in report.tidy():
        writer.writerow([_value(v) for v in row])
    return out.getvalue()


def report_csv(report: Report, raw: bool = False) -> str:
    """Any report's tables as rows ``table,<its columns…>`` (one header row per table)."""
    out = io.StringIO()
    writer = _Writer(out, raw)
    for table in report.tables:
        writer.writerow(["table", *table.columns])
        for row in table.rows:
            writer.writerow([table.key, *(_value(v) for v in row)])
    return out.getvalue()
