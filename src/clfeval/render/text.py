"""Plain-text report: aligned tables, deterministic (no terminal codes), so pipes and golden files agree."""

from __future__ import annotations

import unicodedata

from clfeval.report.tables import Report, Table, format_number
from clfeval.result import Result

__all__ = ["render_report_text", "render_text", "text_table", "visible"]

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}

#: Control characters (C0 and DEL) as the escapes Python would print: a newline in a label cannot break a row.
_VISIBLE = str.maketrans({chr(i): _NAMED.get(chr(i), f"\\x{i:02x}") for i in (*range(0x20), 0x7F)})


def visible(text: str) -> str:
    r"""``text`` with every control character shown as an escape (``\n``, ``\t``, ``\r``, ``\x07`` …).

    Examples
    --------
    >>> print(visible("two\nlines\tand a bell\a"))
    two\nlines\tand a bell\x07
    """
    return text.translate(_VISIBLE)


#: Cells whose text is digits, a point, a sign or "undefined": nothing to escape.
_NUMBERS = (float, int)


#: Characters beyond ASCII that reports write themselves, each one column wide (the interval mark †, ∅, dashes).
_NARROW = str.maketrans("", "", "†‡–—−…·×±≤≥≈∅")


def _width(text: str) -> int:
    """Terminal columns of ``text``: wide (CJK) characters take two, combining marks none."""
    if text.isascii() or text.translate(_NARROW).isascii():  # numbers and most labels: one column a character
        return len(text)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def text_table(table: Table, digits: int) -> list[str]:
    """A table as aligned lines: the first column left-aligned, the others right-aligned."""
    cells = [[visible(c) for c in table.columns]] + [
        [format_number(v, digits) if type(v) in _NUMBERS else visible(format_number(v, digits)) for v in row]
        for row in table.rows
    ]
    sizes = [[_width(v) for v in row] for row in cells]  # each cell's width, measured once
    widths = [max(row[i] for row in sizes) for i in range(len(table.columns))]
    lines = []
    for n, (row, size) in enumerate(zip(cells, sizes)):
        parts = [row[0] + " " * (widths[0] - size[0])]
        parts += [" " * (w - s) + v for v, w, s in zip(row[1:], widths[1:], size[1:])]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def render_report_text(report: Report, digits: int) -> str:
    """A :class:`Report` as plain text (control characters in any text shown as escapes)."""
    lines = [visible(report.title), ""]
    for table in report.tables:
        lines.append(f"{visible(table.title)}:")
        lines.extend(text_table(table, digits))
        lines.append("")
    if report.warnings:
        lines.append("warnings:")
        lines.extend(f"  ! {visible(w)}" for w in report.warnings)
        lines.append("")
    lines.append("notes:")
    lines.extend(f"  - {visible(n)}" for n in report.notes)
    return "\n".join(lines) + "\n"


def render_text(
    result: Result,
    *,
    digits: int = 4,
    matrix: bool = True,
    command: str | None = None,
    raw_csv: bool = False,
) -> str:
    """The terminal report of a result."""
    return render_report_text(result.report(matrix=matrix), digits)
