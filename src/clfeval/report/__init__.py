"""Reports: a presentation-neutral view of a result — titled tables and notes — for the renderers."""

from __future__ import annotations

from typing import Any

from clfeval.infer.comparison import Comparison
from clfeval.infer.crossvalidation import CrossValidation
from clfeval.inverse.audit import Audit
from clfeval.inverse.tables import Conversion, LabelConversion
from clfeval.report.audit import audit_report
from clfeval.report.comparison import comparison_report
from clfeval.report.conversion import conversion_report
from clfeval.report.crossvalidation import cv_report
from clfeval.report.finagle import finagle_report
from clfeval.report.tables import Report, Table, score_report
from clfeval.score.finagle import Finagle
from clfeval.score.result import Scores

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


def report_of(
    result: Scores | Comparison | CrossValidation | Conversion | LabelConversion | Audit | Finagle,
    *,
    matrix: bool = True,
    **_: Any,
) -> Report:
    """The report of any result: a score or cross-validation (with the confusion matrix unless ``matrix=False``),
    a comparison, a conversion, an audit or a finagle."""
    if isinstance(result, Audit):
        return audit_report(result)
    if isinstance(result, Finagle):
        return finagle_report(result)
    if isinstance(result, (Conversion, LabelConversion)):
        return conversion_report(result)
    if isinstance(result, Comparison):
        return comparison_report(result)
    if isinstance(result, CrossValidation):
        return cv_report(result, matrix=matrix)
    return score_report(result, matrix=matrix)
