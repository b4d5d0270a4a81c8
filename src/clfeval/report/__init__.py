"""Reports: a presentation-neutral view of a result — titled tables and notes — for the renderers.

Each kind of result names the function here that builds its report (:attr:`clfeval.result.Result.report_builder`);
:func:`report_of` asks the result, so nothing here switches on a result's type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.report.audit import audit_report
    from clfeval.report.comparison import comparison_report
    from clfeval.report.conversion import conversion_report
    from clfeval.report.crossvalidation import cv_report
    from clfeval.report.finagle import finagle_report
    from clfeval.report.tables import Report, Table, score_report

from clfeval.result import Result

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

#: Each public name and the module that defines it (loaded on first use: clfeval/_lazy.py).
_HOMES: dict[str, str] = {
    "audit_report": "clfeval.report.audit",
    "comparison_report": "clfeval.report.comparison",
    "conversion_report": "clfeval.report.conversion",
    "cv_report": "clfeval.report.crossvalidation",
    "finagle_report": "clfeval.report.finagle",
    "Report": "clfeval.report.tables",
    "Table": "clfeval.report.tables",
    "score_report": "clfeval.report.tables",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)


def report_of(result: Result, *, matrix: bool = True, **_: Any) -> Report:
    """The report of any result (with the confusion matrix, where it has one, unless ``matrix=False``)."""
    return result.report(matrix=matrix)
