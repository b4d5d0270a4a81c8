"""Reports: a presentation-neutral view of a result — titled tables and notes — for the renderers.

Each kind of result names the function here that builds its report (:attr:`clfeval.results.Result.report_builder`);
:func:`report_of` asks the result, so nothing here switches on a result's type.
"""

from __future__ import annotations

from typing import Any

from clfeval.report.audit import audit_report
from clfeval.report.comparison import comparison_report
from clfeval.report.conversion import conversion_report
from clfeval.report.crossvalidation import cv_report
from clfeval.report.finagle import finagle_report
from clfeval.report.tables import Report, Table, score_report
from clfeval.results import Result

__all__ = [
    "Report",
    "Table",
    "audit_report",
    "comparison_report",
    "conversion_report",
    "cv_report",
    "finagle_report",
    "report_of",
    "score_report",
]


def report_of(result: Result, *, matrix: bool = True, **_: Any) -> Report:
    """The report of any result (with the confusion matrix, where it has one, unless ``matrix=False``)."""
    return result.report(matrix=matrix)
