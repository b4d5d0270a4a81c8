"""Markdown output: the report's tables as pipe tables, warnings and notes as lists."""

from __future__ import annotations

from typing import Any

from clfeval.infer.comparison import Comparison
from clfeval.infer.crossvalidation import CrossValidation
from clfeval.report import report_of
from clfeval.report.tables import Table, format_number
from clfeval.score.result import Scores

__all__ = ["render_markdown"]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _table(table: Table, digits: int) -> list[str]:
    head = "| " + " | ".join(_escape(c) for c in table.columns) + " |"
    rule = "|" + "|".join([":---"] + ["---:"] * (len(table.columns) - 1)) + "|"
    body = ["| " + " | ".join(_escape(format_number(v, digits)) for v in row) + " |" for row in table.rows]
    return [f"**{_escape(table.title)}**", "", head, rule, *body, ""]


def render_markdown(result: Scores | Comparison | CrossValidation, *, digits: int = 4, matrix: bool = True,
                    **_: Any) -> str:
    """The report of a result as Markdown."""
    report = report_of(result, matrix=matrix)
    lines = [f"### {_escape(report.title)}", ""]
    for table in report.tables:
        lines.extend(_table(table, digits))
    if report.warnings:
        lines.append("**warnings**")
        lines.append("")
        lines.extend(f"- {_escape(w)}" for w in report.warnings)
        lines.append("")
    lines.append("**notes**")
    lines.append("")
    lines.extend(f"- {_escape(n)}" for n in report.notes)
    return "\n".join(lines) + "\n"
