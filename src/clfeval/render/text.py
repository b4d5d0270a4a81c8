"""Plain-text report: aligned tables, deterministic (no terminal codes), so pipes and golden files agree."""

from __future__ import annotations

from typing import Any

from clfeval.infer.comparison import Comparison
from clfeval.infer.crossvalidation import CrossValidation
from clfeval.report import report_of
from clfeval.report.tables import Report, Table, format_number
from clfeval.score.result import Scores

__all__ = ["render_text", "text_table"]


def text_table(table: Table, digits: int) -> list[str]:
    """A table as aligned lines: the first column left-aligned, the others right-aligned."""
    cells = [list(table.columns)] + [[format_number(v, digits) for v in row] for row in table.rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
    lines = []
    for n, row in enumerate(cells):
        parts = [row[0].ljust(widths[0])] + [v.rjust(w) for v, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def render_report_text(report: Report, digits: int) -> str:
    """A :class:`Report` as plain text."""
    lines = [report.title, ""]
    for table in report.tables:
        lines.append(f"{table.title}:")
        lines.extend(text_table(table, digits))
        lines.append("")
    if report.warnings:
        lines.append("warnings:")
        lines.extend(f"  ! {w}" for w in report.warnings)
        lines.append("")
    lines.append("notes:")
    lines.extend(f"  - {n}" for n in report.notes)
    return "\n".join(lines) + "\n"


def render_text(result: Scores | Comparison | CrossValidation, *, digits: int = 4, matrix: bool = True,
                **_: Any) -> str:
    """The terminal report of a result."""
    return render_report_text(report_of(result, matrix=matrix), digits)
