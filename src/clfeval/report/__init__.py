"""Reports: a presentation-neutral view of a result — titled tables and notes — for the renderers.

Each kind of result names the function here that builds its report (:attr:`clfeval.result.Result.report_builder`);
:func:`report_of` asks the result, so nothing here switches on a result's type.
"""

from __future__ import annotations

import importlib
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


def report_of(result: Result, *, matrix: bool = True, measures: Any = None, verbose: bool = False, **_: Any) -> Report:
    """The report of any result (with the confusion matrix, where it has one, unless ``matrix=False``), showing the
    measures ``measures`` names and, with ``verbose``, the full notes (:class:`~clfeval.report.view.View`; both
    concern the reports of scores, comparisons, cross-validations and finagles); its last note is the signature."""
    from clfeval.report.view import View

    view = View.of(measures, verbose)  # checked for every result, so a wrong name is an error everywhere
    if view == View():
        return result.report(matrix=matrix)
    from dataclasses import replace

    module, _colon, name = result.report_builder.partition(":")
    builder = getattr(importlib.import_module(module), name)
    report: Report = builder(result, matrix=matrix, measures=view, verbose=view.verbose)
    return replace(report, notes=(*report.notes, f"signature: {result.signature}"))
