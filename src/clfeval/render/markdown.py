"""Markdown output: the report's tables as pipe tables, warnings and notes as lists."""

from __future__ import annotations

from typing import Any

from clfeval.report import report_of
from clfeval.report.tables import Table, format_number
from clfeval.result import Result

__all__ = ["markdown_escape", "render_markdown"]

#: One pass over the text: Markdown's inline syntax (GitHub's ``~`` and ``$`` too) backslash-escaped, HTML's three
#: specials as entities, control characters (a newline would end a table row or a list item) as spaces.
_MARKDOWN = str.maketrans(
    {
        **{c: "\\" + c for c in "\\`*_[]|~$"},
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        **{chr(i): " " for i in (*range(0x20), 0x7F)},
    }
)


def markdown_escape(text: str) -> str:
    r"""``text`` made inert in Markdown (a pipe-table cell, a heading or a list item): it reads as it is written.

    Parameters
    ----------
    text
        Any text: a label, a title, a note.

    Returns
    -------
    str
        The text with ``\ ` * _ [ ] | ~ $`` backslash-escaped, ``< > &`` as ``&lt; &gt; &amp;`` (so no HTML
        tag or entity survives) and control characters (newline, tab, …) as spaces.

    Examples
    --------
    >>> print(markdown_escape("<b>*A*</b> & [x]|y_z"))
    &lt;b&gt;\*A\*&lt;/b&gt; &amp; \[x\]\|y\_z
    """
    return text.translate(_MARKDOWN)


def _table(table: Table, digits: int) -> list[str]:
    head = "| " + " | ".join(markdown_escape(c) for c in table.columns) + " |"
    rule = "|" + "|".join([":---"] + ["---:"] * (len(table.columns) - 1)) + "|"
    body = ["| " + " | ".join(markdown_escape(format_number(v, digits)) for v in row) + " |" for row in table.rows]
    return [f"**{markdown_escape(table.title)}**", "", head, rule, *body, ""]


def render_markdown(
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
    """The report of a result as Markdown: every table, label, title, warning and note escaped."""
    report = report_of(result, matrix=matrix, measures=measures, verbose=verbose)
    lines = [f"### {markdown_escape(report.title)}", ""]
    for table in report.tables:
        lines.extend(_table(table, digits))
    if report.warnings:
        lines.append("**warnings**")
        lines.append("")
        lines.extend(f"- {markdown_escape(w)}" for w in report.warnings)
        lines.append("")
    lines.append("**notes**")
    lines.append("")
    lines.extend(f"- {markdown_escape(n)}" for n in report.notes)
    return "\n".join(lines) + "\n"
