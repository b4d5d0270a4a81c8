"""Reports: a presentation-neutral view of a result — titled tables and notes — for the renderers."""

from clfeval.report.tables import Report, Table, score_report

__all__ = ["Report", "Table", "score_report"]
