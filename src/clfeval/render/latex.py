r"""LaTeX output: booktabs tables to paste into a paper, every piece of text escaped.

A score result gives its tables — per label (support, precision, recall, F; then the further per-label
measures), the averages (each row named by its formula; precision, recall and F, then the further
averaged measures), the overall measures and the confusion matrix — with each score's
confidence interval beside it when the result has intervals: ``0.8120 \,{\footnotesize[0.7500, 0.8600]}``.
Every other result (comparison, cross-validation, conversion, audit, finagle) gives each table of
its report. The output begins with ``%`` comment lines: the clfeval version, the packages it
needs, and every warning and note of the report.

Examples
--------
>>> import clfeval
>>> tex = render_latex(clfeval.score(["a_1", "b", "b"], ["a_1", "b", "a_1"]), matrix=False)
>>> tex.splitlines()[1]
'% needs \\usepackage{booktabs}'
>>> "a\\_1 & 1 & 0.5000 & 1.0000 & 0.6667 \\\\" in tex
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval._version import __version__
from clfeval.report import report_of
from clfeval.report.paper import CaptionedTable, Estimate, Subscript, sentence
from clfeval.report.tables import Bounds, PValue, Report, format_number
from clfeval.result import Result

__all__ = ["latex_escape", "render_latex"]

#: Symbols in clfeval's own titles that pdfLaTeX's UTF-8 input cannot set: as math (or text) commands.
_SYMBOLS = {
    "Σ": r"\ensuremath{\Sigma}",
    "Π": r"\ensuremath{\Pi}",
    "α": r"\ensuremath{\alpha}",
    "β": r"\ensuremath{\beta}",
    "λ": r"\ensuremath{\lambda}",
    "≥": r"\ensuremath{\geq}",
    "≤": r"\ensuremath{\leq}",
    "∅": r"\ensuremath{\emptyset}",
    "∈": r"\ensuremath{\in}",
    "∖": r"\ensuremath{\setminus}",
    "∩": r"\ensuremath{\cap}",
    "∞": r"\ensuremath{\infty}",
    "±": r"\ensuremath{\pm}",
    "∓": r"\ensuremath{\mp}",
    "−": r"\ensuremath{-}",
    "·": r"\ensuremath{\cdot}",
    "×": r"\ensuremath{\times}",
    "→": r"\ensuremath{\rightarrow}",
    "⌈": r"\ensuremath{\lceil}",
    "⌉": r"\ensuremath{\rceil}",
    "✓": r"\ensuremath{\surd}",
    "ᵢ": r"\ensuremath{_i}",
    "ᵈ": r"\ensuremath{^d}",
    "⁻": r"\ensuremath{^-}",
    "†": r"\dag{}",
    "κ": r"\ensuremath{\kappa}",
    "φ": r"\ensuremath{\phi}",
    "θ": r"\ensuremath{\theta}",
    "√": r"\ensuremath{\surd}",
    "²": r"\ensuremath{^2}",
}

#: One pass over the text: LaTeX's special characters as the commands that print them; ``[``, ``]`` and ``*``
#: braced (a row starting with ``[`` or ``*`` would be read as the previous ``\\``'s optional argument or star);
#: control characters as spaces.
_LATEX = str.maketrans(
    {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        "<": r"\textless{}",
        ">": r"\textgreater{}",
        '"': r"\textquotedbl{}",
        "|": r"\textbar{}",
        "`": r"\textasciigrave{}",
        "[": "{[}",
        "]": "{]}",
        "*": "{*}",
        **_SYMBOLS,
        **{chr(i): " " for i in (*range(0x20), 0x7F)},
    }
)

#: A ``-``, ``'`` or ``,`` before another: broken up with ``{}``, else T1 fonts set ``--`` as a dash and ``''`` or
#: ``,,`` as a quotation mark.
_LIGATURE = re.compile(r"([-',])(?=[-',])")

#: Control characters as spaces: what a ``%`` comment line needs (a newline would end the comment).
_COMMENT = str.maketrans({chr(i): " " for i in (*range(0x20), 0x7F)})


def latex_escape(text: str) -> str:
    r"""``text`` as LaTeX that prints it: for a label, a title or a caption.

    Parameters
    ----------
    text
        Any text.

    Returns
    -------
    str
        The text with ``\ & % $ # _ { } ~ ^ < > " |`` replaced by ``\textbackslash{}``, ``\&``, ``\%``,
        ``\$``, ``\#``, ``\_``, ``\{``, ``\}``, ``\textasciitilde{}``, ``\textasciicircum{}``,
        ``\textless{}``, ``\textgreater{}``, ``\textquotedbl{}``, ``\textbar{}``; a backquote as
        ``\textasciigrave{}``; ``[``, ``]`` and ``*`` braced (``{[}``: a table row may start with one);
        control characters (newline, tab, …) as spaces; the mathematical symbols of clfeval's own titles
        (Σ, β, ∅, ≥, −, ·, † …) as commands pdfLaTeX sets without extra packages. Every other character
        passes through (letters beyond ASCII need ``\usepackage[T1]{fontenc}`` and UTF-8 input).

    Notes
    -----
    One ``str.translate`` table, so no replacement is escaped again by a later one.

    Examples
    --------
    >>> print(latex_escape("50%_$#{x}~^\\ <b>"))
    50\%\_\$\#\{x\}\textasciitilde{}\textasciicircum{}\textbackslash{} \textless{}b\textgreater{}
    >>> print(latex_escape("naïve\nΣ [1] *"))
    naïve \ensuremath{\Sigma} {[}1{]} {*}
    >>> print(latex_escape("B--I ''x'' ,,y"))
    B-{}-I '{}'x'{}' ,{},y
    """
    return _LIGATURE.sub(r"\1{}", text.translate(_LATEX))


_NUMBERS = (int, float, np.integer, np.floating, Bounds, PValue, Estimate)


def _is_number(value: Any) -> bool:
    return isinstance(value, _NUMBERS) and not isinstance(value, (bool, np.bool_))


def _number(value: Any, digits: int) -> str:
    """A number (or any cell) via :func:`format_number`, escaped; a leading minus as a minus sign."""
    text = latex_escape(format_number(value, digits))
    if _is_number(value) and text.startswith("-"):
        return r"\ensuremath{-}" + text[1:]
    return text


def _cell(value: Any, digits: int) -> str:
    """A table cell: an estimate as ``value \\,{\\footnotesize[low, high]}``, anything else via :func:`_number`."""
    if not isinstance(value, Estimate):
        return _number(value, digits)
    if math.isnan(value.value):
        return "undefined"
    text = _number(value.value, digits)
    if value.bounds is None:
        return text
    b = value.bounds
    if b.low is None or b.high is None:  # as wide as an interval, so the values above and below line up
        return text + rf" \,{{\footnotesize\rlap{{[n/a]}}\phantom{{[{0:.{digits}f}, {0:.{digits}f}]}}}}"
    mark = r"\rlap{\textsuperscript{" + latex_escape(b.mark) + "}}" if b.mark else ""
    return text + rf" \,{{\footnotesize[{_number(b.low, digits)}, {_number(b.high, digits)}]{mark}}}"


def _legend(rows: Sequence[Sequence[Any]]) -> str:
    """What the table's interval markers mean, for its caption (empty when it has none)."""
    found = [
        (v, v.bounds)
        for row in rows
        for v in row
        if isinstance(v, Estimate) and v.bounds is not None and not math.isnan(v.value)
    ]
    parts = []
    if any(b.low is None or b.high is None for _, b in found):
        parts.append("[n/a]: no interval (the notes say why)")
    remarks = sorted({v.remark for v, b in found if b.mark})
    if remarks:
        parts.append("† marks an interval with a remark: " + ", or ".join(remarks))
    return "; ".join(parts) + "." if parts else ""


def _tabular(caption: str, head: Sequence[str], rows: Sequence[Sequence[Any]], digits: int) -> list[str]:
    """A ``table`` float: centred booktabs ``tabular`` under a caption (``caption`` and ``head`` already LaTeX).

    The first column is left-aligned, a column of numbers right-aligned, any other column left-aligned.
    """
    spec = "l" + "".join("r" if all(_is_number(row[i]) for row in rows) else "l" for i in range(1, len(head)))
    body = [" & ".join(_cell(v, digits) for v in row) + r" \\" for row in rows]
    return [
        r"\begin{table}[htbp]",
        r"\centering",
        rf"\caption{{{caption}}}",
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular}",
        r"\end{table}",
        "",
    ]


def _head(column: str) -> str:
    """A column title, escaped; a subscripted one (F_1) in math mode."""
    if isinstance(column, Subscript):
        return rf"${column.base}_{{{column.sub}}}$"
    return latex_escape(column)


def _tables(report: Report, digits: int) -> list[str]:
    """The report's tables for a paper where it has them (a score's), else each of its tables under its title."""
    tables = report.paper or tuple(CaptionedTable(sentence(t.title), "", t.columns, t.rows) for t in report.tables)
    lines: list[str] = []
    for table in tables:
        caption = latex_escape(" ".join(t for t in (f"{table.title}.", table.context, _legend(table.rows)) if t))
        lines += _tabular(caption, [_head(c) for c in table.columns], table.rows, digits)
    return lines


def _comments(report: Report) -> list[str]:
    """The opening ``%`` lines: version and title, the packages needed, the legend, warnings and notes."""
    lines = [
        f"% clfeval {__version__} — {report.title}",
        r"% needs \usepackage{booktabs}",
        r"% text beyond ASCII (labels, symbols) needs \usepackage[T1]{fontenc} and \usepackage[utf8]{inputenc}",
        "% (pdfLaTeX; UTF-8 is its default input since 2018); CJK labels need XeLaTeX or LuaLaTeX with a CJK "
        "font, or the CJKutf8 package",
    ]
    estimates = [v for table in report.paper for row in table.rows for v in row if isinstance(v, Estimate)]
    if any(v.bounds is not None for v in estimates):
        lines += [
            r"% a score cell reads: estimate \,{\footnotesize[low, high]}, the low and high ends of its "
            "confidence interval;",
            r"% [n/a]: the score has no interval, \dag: the interval has a remark (the notes below say why)",
        ]
    if report.paper:
        lines.append("% undefined: a 0/0 left undefined (NaN) by --zero-division nan")
    if report.warnings:
        lines += ["%", "% warnings:", *(f"%   ! {w}" for w in report.warnings)]
    lines += ["%", "% notes:", *(f"%   - {n}" for n in report.notes)]
    return [line.translate(_COMMENT) for line in lines] + [""]


def render_latex(
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
    r"""A result as booktabs LaTeX tables, ready to paste into a paper.

    Parameters
    ----------
    result
        A :class:`~clfeval.Scores`, :class:`~clfeval.Comparison`, :class:`~clfeval.CrossValidation`,
        conversion, audit or finagle result.
    digits
        Decimals of every score (and of split counts in a multi-label confusion matrix).
    matrix
        Include the confusion matrix (a score or cross-validation result).

    Returns
    -------
    str
        ``%`` comment lines (version, report title, packages needed, every warning and note), then one
        ``table`` environment per table: ``\centering``, a ``\caption`` and a ``tabular`` ruled with
        ``\toprule``, ``\midrule`` and ``\bottomrule`` (the ``booktabs`` package).

    Notes
    -----
    For a :class:`~clfeval.Scores`: per label (label, support, precision, recall, F), the averages (one
    row per average, titled by its formula, e.g. ``macro (AF: mean of per-label F1)``), the overall
    measures and the confusion matrix; each caption states N, the label set L and its source, and the
    interval method and confidence. With intervals a score reads ``0.8120 \,{\footnotesize[0.7500, 0.8600]}``;
    ``[n/a]`` marks a score without an interval, ``\dag`` an interval with a remark, ``undefined`` a
    0/0 left as NaN. Every other result gives each table of its report (:func:`clfeval.report.report_of`)
    with its title as caption. All text goes through :func:`latex_escape`.
    """
    report = report_of(result, matrix=matrix, measures=measures, verbose=verbose)
    return "\n".join(_comments(report) + _tables(report, digits))
