"""A result in a notebook or at the prompt: a compact text repr and a self-contained HTML fragment.

:meth:`clfeval.result.Result.__repr__` calls :func:`compact_text` (a few lines that fit a cell: what was scored,
over which label set, and the headline scores by their explicit names) and Jupyter's ``_repr_html_`` calls
:func:`fragment` (the HTML report's summary, figures and tables, as one ``<div>``). Both read the result's report,
not the result: a report's tables are found by their keys (``averages``, ``overall``, ``pairs``, ``cv``), and any
other report is summarised by its title and tables. Neither lists every label, so both stay small with 10⁴ labels.

The fragment loads nothing: its figures are inline SVG, its style is one ``<style>`` element whose rules all sit
under the wrapper class :data:`WRAPPER` (so it restyles nothing else in the notebook), and it has no script (the
heat map shows counts; the full page, ``result.render("html")``, switches views). Every text is HTML-escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from clfeval.render.text import visible
from clfeval.report.tables import Bounds, PValue, Report, Table, format_number

if TYPE_CHECKING:  # the result sits below the renderers; only its type is needed here
    from clfeval.result import Result

__all__ = ["MAX_PAIRS", "MAX_ROWS", "WIDTH", "WRAPPER", "compact_text", "fragment"]

#: The class of the fragment's wrapper element: every rule of its style sits under it.
WRAPPER = "clfeval-nb"

#: The most characters in a line of :func:`compact_text`.
WIDTH = 100

#: The most pairs of a comparison :func:`compact_text` lists; the rest are counted.
MAX_PAIRS = 6

#: The most rows of a table the fragment shows; the rest are counted (``str(result)`` has them all).
MAX_ROWS = 50

#: The headline averages: (report name, its title with ``{F}`` for the F measure's name).
_HEADLINE = (("micro", "micro {F}"), ("macro", "macro {F} (AF)"), ("macro_fa", "macro {F} (FA)"))

_DIGITS = 4


def _fit(line: str, width: int = WIDTH) -> str:
    """``line`` (control characters shown as escapes) cut to ``width`` characters with an ellipsis.

    >>> _fit("a" * 12, 10)
    'aaaaaaaaa…'
    """
    line = visible(line)
    return line if len(line) <= width else line[: width - 1] + "…"


def _listed(names: Sequence[str], width: int) -> str:
    """``names`` joined by commas, as many as fit in ``width`` characters, then how many more there are.

    >>> _listed(["alpha", "beta", "gamma", "delta"], 20)
    'alpha, beta … 2 more'
    """
    shown: list[str] = []
    for n, name in enumerate(names):
        more = f" … {len(names) - n} more"
        if len(", ".join([*shown, name])) + (len(more) if n < len(names) - 1 else 0) > width:
            return ", ".join(shown) + more if shown else f"{len(names)} names"
        shown.append(name)
    return ", ".join(shown)


def _number(value: Any) -> str:
    return format_number(value, _DIGITS)


def _signed(value: float) -> str:
    return "undefined" if value != value else f"{value:+.{_DIGITS}f}"


def _tables(report: Report) -> dict[str, Table]:
    return {t.key: t for t in report.tables}


def _provenance(report: Report) -> dict[str, str]:
    """The page's (name, value) provenance rows as a mapping; empty for a report without a page."""
    page = report.page
    return {} if page is None else dict(page.provenance)


def _f_column(averages: Table) -> int | None:
    """The column of the F measure (``F1``, ``F2`` …) in a table of averages, or ``None``."""
    return next((i for i, c in enumerate(averages.columns) if i and c[:1] == "F"), None)


def _interval(table: Table, row: tuple[Any, ...], column: int) -> Bounds | None:
    """The interval of ``row[column]``: the next cell when its column holds intervals (``95% CI``)."""
    after = column + 1
    if after < len(table.columns) and table.columns[after].endswith("CI") and isinstance(row[after], Bounds):
        return row[after]
    return None


def _headline(tables: dict[str, Table]) -> list[tuple[str, str, float, Bounds | None]]:
    """The headline scores of a score's report (or a cv's pooled one): (report name, title, value, interval) of
    accuracy (subset accuracy for multi-label data), micro F, macro F (AF) and macro F (FA)."""
    out: list[tuple[str, str, float, Bounds | None]] = []
    overall = tables.get("overall")
    if overall is not None and overall.rows:
        row = overall.rows[0]
        name = str(row[0]).split(" (", 1)[0]
        out.append((name, name, row[1], _interval(overall, row, 1)))
    averages = tables.get("averages")
    f = None if averages is None else _f_column(averages)
    if averages is not None and f is not None:
        rows = {str(r[0]).split(" ", 1)[0]: r for r in averages.rows}
        for key, title in _HEADLINE:
            if key in rows:
                out.append((key, title.format(F=averages.columns[f]), rows[key][f], _interval(averages, rows[key], f)))
    return out


def _with_interval(value: float, bounds: Bounds | None) -> str:
    return _number(value) + ("" if bounds is None else f"  {_number(bounds)}")


def _label_set_line(provenance: dict[str, str]) -> list[str]:
    """``label set: 3 labels, source union — <what the source means>``, when the report's page says it."""
    label_set = provenance.get("label set")
    if label_set is None:
        return []
    from clfeval.scoring.labelset import LABEL_SOURCES  # a registry of words, for the source's one-line meaning

    meaning = LABEL_SOURCES.get(label_set.rsplit("source ", 1)[-1], "")
    line = f"label set: {label_set}" + (f" — {meaning}" if meaning else "")
    if len(line) > WIDTH and " (" in meaning:  # the aside in brackets goes first
        line = f"label set: {label_set} — {meaning.split(' (', 1)[0]}"
    return [_fit(line)]


def _score_lines(tables: dict[str, Table], provenance: dict[str, str]) -> list[str]:
    rows = _headline(tables)
    if not rows:
        return []
    width = max(len(title) for _, title, _, _ in rows)
    lines = [_fit(f"{title:<{width}}  {_with_interval(value, ci)}") for _, title, value, ci in rows]
    intervals = provenance.get("intervals")
    if intervals is not None and intervals != "none":
        lines.append(_fit(f"intervals: {intervals}{_marks(rows)}"))
    return lines


def _marks(rows: list[tuple[str, str, float, Bounds | None]]) -> str:
    """What the marks on the intervals shown (``†`` …) point to: the report's notes, which explain them."""
    marks = "".join(dict.fromkeys(ci.mark for _, _, _, ci in rows if ci is not None and ci.mark))
    return f"; {' '.join(marks)}: see the notes of str(r)" if marks else ""


def _cv_lines(tables: dict[str, Table], provenance: dict[str, str]) -> list[str]:
    cv = tables["cv"]
    by = {(str(r[0]), str(r[1])): r for r in cv.rows}
    averages = tables.get("averages")
    f = None if averages is None else _f_column(averages)
    f_name = "F1" if averages is None or f is None else averages.columns[f]
    heads = _headline(tables)
    width = max([len(title) for _, title, _, _ in heads] + [6])
    lines = [_fit(f"{'':<{width}}  pooled (counts added, then scored) · mean of folds ± sd")]
    for key, title, value, ci in heads:
        row = by.get(("overall", key)) or by.get((key, f_name))
        mean = "" if row is None else f" · {_number(row[3])} ± {_number(row[4])}"
        lines.append(_fit(f"{title:<{width}}  {_with_interval(value, ci)}{mean}"))
    if "folds" in provenance:
        lines.insert(0, _fit(f"folds: {provenance['folds']}"))
    intervals = provenance.get("intervals")
    if intervals is not None and intervals != "none":
        lines.append(_fit(f"intervals of the pooled scores: {intervals}{_marks(heads)}"))
    return lines


def _compare_lines(tables: dict[str, Table], provenance: dict[str, str]) -> list[str]:
    pairs = tables["pairs"]
    column = {c: i for i, c in enumerate(pairs.columns)}
    metrics = list(dict.fromkeys(str(r[column["metric"]]) for r in pairs.rows))
    systems = provenance.get("systems", "").split(", ") if provenance.get("systems") else []
    lines = [
        _fit(f"systems: {_listed(systems, 40)} · metrics: {_listed(metrics, 40)}"),
        _fit("test: " + pairs.title.split(" (", 1)[-1].rstrip(")")),
    ]
    ci = next((i for c, i in column.items() if c.endswith("CI")), None)
    for row in pairs.rows[:MAX_PAIRS]:
        a, b = (_fit(str(row[column[k]]), 20) for k in ("A", "B"))
        interval = "" if ci is None else f" {_number(row[ci])}"
        lines.append(
            _fit(
                f"  {_fit(str(row[column['metric']]), 24)}  {a} − {b} = {_signed(row[column['A − B']])}{interval}"
                f"  p = {_number(PValue(row[column['p']]))}, Holm {_number(PValue(row[column['p (Holm)']]))}"
                f"  holds: {row[column['holds']]}"
            )
        )
    if len(pairs.rows) > MAX_PAIRS:
        lines.append(f"  … {len(pairs.rows) - MAX_PAIRS} more pairs")
    return lines


def _slices_lines(tables: dict[str, Table], provenance: dict[str, str]) -> list[str]:
    """A result by group: its groups, then each gap metric's whole-data value and its largest gap (highest − lowest,
    with its interval), and how many tests hold."""
    groups = tables["by_group"]
    names = [str(row[0]) for row in groups.rows[1:]]
    lines = [_fit(f"groups ({provenance.get('group columns', '')}): {_listed(names, 70)}")]
    overall = groups.rows[0]
    largest = [row for row in tables["gaps"].rows if str(row[1]).startswith("largest")]
    gaps = tables["gaps"]
    ci = gaps.columns[7].endswith("CI")
    width = min(24, max([len(str(row[0])) for row in largest] + [1]))
    for row in largest:
        metric = str(row[0])
        column = groups.columns.index(metric)
        whole = _with_interval(overall[column], _interval(groups, overall, column))
        gap = f"{_number(row[6])}" + (f" {_number(row[7])}" if ci else "")
        lines.append(_fit(f"  {_fit(metric, 24):<{width}}  overall {whole} · largest gap {row[2]} − {row[3]} = {gap}"))
    tests = tables.get("tests")
    if tests is not None:
        held = sum(1 for row in tests.rows if row[-1] == "yes")
        lines.append(_fit(f"tests: {len(tests.rows)} ({provenance.get('test name', '')}, Holm), {held} significant"))
    return lines


def _generic_lines(report: Report) -> list[str]:
    lines = [
        _fit(f"  {t.title}: {len(t.rows)} row{'s' * (len(t.rows) != 1)} × {len(t.columns)} columns")
        for t in report.tables[:4]
    ]
    if len(report.tables) > 4:
        lines.append(f"  … {len(report.tables) - 4} more tables")
    return lines


def compact_text(result: Result) -> str:
    """A few lines that fit a notebook cell or a terminal: what the result is, its size and label set, and its
    headline numbers by their explicit names, each line at most :data:`WIDTH` characters.

    A score shows accuracy, micro F1, macro F1 (AF: the mean of per-label F1) and macro F1 (FA: F1 of macro
    precision and macro recall), with their intervals when it has them; a comparison its systems, metrics, test and
    each pair's difference and p-values (the first :data:`MAX_PAIRS`); a cross-validation the same headline scores
    pooled and as mean of folds ± sd; any other result its report's title and tables. It ends by saying where the
    whole report is.

    Parameters
    ----------
    result
        Any result (:class:`~clfeval.result.Result`).

    Returns
    -------
    str
        The lines, joined by newlines (no trailing newline).

    Examples
    --------
    >>> import clfeval
    >>> print(compact_text(clfeval.score(["a", "b", "b"], ["a", "b", "a"])))
    clfeval score — single-label, 3 instances, 2 labels
    label set: 2 labels, source union — every label that occurs in the gold or predicted data
    accuracy       0.6667
    micro F1       0.6667
    macro F1 (AF)  0.6667
    macro F1 (FA)  0.7500
    str(r) prints the whole report; r.render(fmt) for fmt in text, json, markdown, csv, latex, html
    """
    report = result.report(matrix=False)
    tables, provenance = _tables(report), _provenance(report)
    lines = [_fit(report.title)]
    if "pairs" in tables and provenance:
        lines += _compare_lines(tables, provenance) + _label_set_line(provenance)
    elif "by_group" in tables and "gaps" in tables and provenance:
        lines += _slices_lines(tables, provenance)
    elif "cv" in tables and provenance:
        lines += _label_set_line(provenance) + _cv_lines(tables, provenance)
    elif "averages" in tables and "overall" in tables and provenance:
        lines += _label_set_line(provenance) + _score_lines(tables, provenance)
    else:  # a report without a page (convert, audit, finagle): its tables
        lines += _generic_lines(report)
    if report.warnings:
        count = len(report.warnings)
        lines.append(_fit(f"{count} warning{'s' if count > 1 else ''}: {report.warnings[0]}"))
    lines.append(_fit(f"str(r) prints the whole report; r.render(fmt) for fmt in {', '.join(result.formats)}"))
    return "\n".join(lines)


_STYLE = """
.W { --ink: #1a1a1a; --muted: #5c5c5c; --line: #d9d9d9; --band: #f4f6f9; --accent: #0b5cad; --warn: #fff4d6;
     color: var(--ink); background: #fff; padding: .4rem .6rem; line-height: 1.4; text-align: left;
     font: 13px/1.4 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
.W * { box-sizing: border-box; }
.W .title { font-size: 1.1em; margin: .2rem 0 .4rem; }
.W .lede, .W .hint { color: var(--muted); }
.W h2 { font-size: 1.05em; margin: 1rem 0 .3rem; padding-bottom: .1rem; border-bottom: 1px solid var(--line); }
.W h3 { font-size: 1em; margin: .8rem 0 .3rem; }
.W p, .W li, .W dd { overflow-wrap: anywhere; margin: .3rem 0; }
.W .scroll { overflow-x: auto; max-width: 100%; }
.W table { border-collapse: collapse; margin: .2rem 0 .6rem; font-variant-numeric: tabular-nums; table-layout: auto;
           font-size: 1em; border: none; }
.W th, .W td { padding: .2rem .45rem; border: none; border-bottom: 1px solid var(--line); text-align: left;
               vertical-align: top; background: none; color: var(--ink); max-width: none; line-height: 1.35; }
.W th { font-weight: 600; background: var(--band); }
.W tbody tr:nth-child(odd), .W tbody tr:hover { background: none; }
.W td.num, .W th.num { text-align: right; white-space: nowrap; }
.W td.label { max-width: 22rem; overflow-wrap: break-word; }
.W .def-inline { display: none; }
.W .ci { color: var(--muted); font-size: .85em; white-space: nowrap; }
.W .def { color: var(--muted); font-size: .9em; min-width: 14rem; }
.W .warnings { background: var(--warn); border-left: 4px solid #d9a400; padding: .3rem .8rem; margin: .6rem 0; }
.W figure { margin: .3rem 0 1rem; }
.W figcaption { color: var(--muted); font-size: .9em; max-width: 52rem; margin-top: .3rem; }
.W svg { max-width: none; height: auto; }
.W svg text { font-family: inherit; }
.W svg text:not(.count) { fill: var(--ink); }
.W svg .label, .W svg .tick, .W svg .note, .W svg .legend { font-size: 12px; }
.W svg.heatmap .label { font-size: 11px; }
.W svg .axis { font-weight: 600; font-size: 12px; fill: var(--muted); }
.W svg .grid { stroke: #e3e3e3; stroke-width: 1; }
.W svg .reference { stroke: #444; stroke-width: 1.2; stroke-dasharray: 4 3; }
.W svg .band { fill: #fafbfc; }
.W svg .band.odd { fill: #ffffff; }
.W svg.dotplot { min-width: 34rem; max-width: 50rem; }
.W svg.heatmap rect.diagonal { stroke: #222; stroke-width: .8; }
.W details { margin: .4rem 0; }
.W summary { cursor: pointer; color: var(--accent); }
""".replace(".W", f".{WRAPPER}")


#: The SVG namespace attribute, which HTML's parser does not need: the fragment leaves it out.
_SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'


def _table_html(table: Table, digits: int, max_rows: int) -> str:
    """A table of the report, its first ``max_rows`` rows, and how many were left out."""
    from clfeval.render.html import table_html

    if len(table.rows) <= max_rows:
        return table_html(table, digits)
    shown = table_html(replace(table, rows=table.rows[:max_rows]), digits)
    return shown + (
        f'<p class="hint">The first {max_rows} of {len(table.rows)} rows: <code>str(result)</code> and '
        "<code>result.render(&quot;csv&quot;)</code> have them all.</p>"
    )


def fragment(result: Result, *, digits: int = _DIGITS, max_rows: int = MAX_ROWS) -> str:
    """The result as a self-contained HTML fragment for a notebook: one ``<div class="clfeval-nb">``.

    For a result with a page (score, compare, cv): the report's title, its warnings, the page's summary (every
    average by its explicit name, with its interval and definition), the figures as inline SVG (the confusion heat
    map, folded to the most frequent labels, and the per-label dot plot; compare's differences, cv's folds), the
    page's sections, and the report's tables (folded away, each cut to ``max_rows`` rows). For any other result: its
    title, warnings and tables. Notes go last, folded away. No ``<html>``, ``<head>`` or ``<body>``, no script and
    no address: nothing is loaded.

    Parameters
    ----------
    result
        Any result (:class:`~clfeval.result.Result`).
    digits
        Decimals of the scores.
    max_rows
        The most rows shown of each table (a per-label table of 10⁴ labels would be megabytes).

    Returns
    -------
    str
        The fragment; its size does not grow with the number of labels beyond the figures' and tables' caps.
    """
    from clfeval.render.html import page_parts
    from clfeval.render.svg import markup_text as _e

    report = result.report(matrix=False)
    page = report.page
    if page is None:  # no heat map: the matrix table (if any) is the picture
        report = result.report(matrix=True)
    name, _, lede = report.title.partition(" — ")
    out = [f'<div class="{WRAPPER}"><style>{_STYLE}</style>']
    out.append(f'<p class="title"><strong>{_e(name)}</strong> <span class="lede">{_e(lede)}</span></p>')
    if report.warnings:
        out.append(
            '<div class="warnings"><strong>Warnings</strong><ul>'
            + "".join(f"<li>{_e(w)}</li>" for w in report.warnings)
            + "</ul></div>"
        )
    tables = "".join(_table_html(t, digits, max_rows) for t in report.tables)
    if page is not None:
        for _, title, inner in page_parts(result, report, page, digits, views=False, anchors=False):
            out.append(f"<section><h2>{_e(title)}</h2>{inner}</section>")
        out.append(
            f"<section><h2>Tables</h2><details><summary>every table of the text report ({len(report.tables)})"
            f"</summary>{tables}</details></section>"
        )
    else:
        out.append(tables)
    if report.notes:
        out.append(
            f"<details><summary>notes ({len(report.notes)})</summary><ul>"
            + "".join(f"<li>{_e(n)}</li>" for n in report.notes)
            + "</ul></details>"
        )
    full = "<code>result.render(&quot;html&quot;)</code>, the whole page, " if "html" in result.formats else ""
    out.append(
        f'<p class="hint">{full}<code>str(result)</code>, the text report, and <code>result.render(fmt)</code> '
        f"for {_e(', '.join(result.formats))} hold every number.</p></div>"
    )
    return "".join(out).replace(_SVG_NAMESPACE, "")  # inline SVG in HTML needs no namespace: no address at all
