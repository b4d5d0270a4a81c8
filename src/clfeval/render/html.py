"""A self-contained HTML report: one file with its styles, figures (inline SVG) and a few lines of script.

Opening it loads nothing: no stylesheet, font, script or image comes from the network. It reads on a laptop
and on a phone (tables and figures scroll sideways inside their box; the page does not). Sections: the
summary (every average by its explicit name, with its interval and a one-sentence definition), the
figures of :func:`clfeval.report.figures.figures_of`, every table of the text report (folded), and the
options and provenance at the bottom. Every label and name is HTML-escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from clfeval._version import __version__
from clfeval.errors import OptionError
from clfeval.render.svg import VIEWS, dot_plot_svg, heat_map_svg, line_plot_svg
from clfeval.render.svg import markup_text as _e
from clfeval.report import report_of
from clfeval.report.figures import MAX_HEAT_LABELS, DotPlot, Figure, HeatMap, LinePlot
from clfeval.report.page import Aside, Block, Cell, Code, DefinedTable, Definitions, Grid, Page, Paragraph, Sub
from clfeval.report.paper import Estimate
from clfeval.report.tables import Bounds, PValue, Report, Table, format_number
from clfeval.result import Result

__all__ = ["page_parts", "render_html", "table_html"]

_STYLE = """
:root { --ink: #1a1a1a; --muted: #5c5c5c; --line: #d9d9d9; --band: #f4f6f9; --accent: #0b5cad; --warn: #fff4d6; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.45;
       font: 15px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 1rem 1rem 3rem; }
h1 { font-size: 1.45rem; margin: .6rem 0 .2rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; padding-bottom: .2rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
p, li, dd { overflow-wrap: anywhere; }
.lede { color: var(--muted); margin: 0 0 1rem; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; max-width: 100%; }
table { border-collapse: collapse; margin: .3rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: .3rem .55rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-weight: 600; background: var(--band); }
td.num, th.num { text-align: right; white-space: nowrap; }
td.label { max-width: 22rem; overflow-wrap: break-word; }
table.summary td.label, table.overall td.label { min-width: 9rem; }
.def-inline { display: none; }
.ci { color: var(--muted); font-size: .85em; white-space: nowrap; }
.def { color: var(--muted); font-size: .9em; min-width: 16rem; }
.warnings { background: var(--warn); border-left: 4px solid #d9a400; padding: .5rem 1rem; margin: 1rem 0; }
.warnings li { margin: .2rem 0; }
figure { margin: .5rem 0 1.5rem; }
figcaption { color: var(--muted); font-size: .9em; max-width: 52rem; margin-top: .3rem; }
svg text { font-family: inherit; }
svg text:not(.count) { fill: var(--ink); }
svg .label, svg .tick, svg .note, svg .legend { font-size: 12px; }
svg.heatmap .label { font-size: 11px; }
svg .axis { font-weight: 600; font-size: 12px; fill: var(--muted); }
svg .grid { stroke: #e3e3e3; stroke-width: 1; }
svg .reference { stroke: #444; stroke-width: 1.2; stroke-dasharray: 4 3; }
svg .band { fill: #fafbfc; }
svg .band.odd { fill: #ffffff; }
svg.dotplot { min-width: 34rem; max-width: 50rem; }
svg.heatmap rect.diagonal { stroke: #222; stroke-width: .8; }
.views { display: none; gap: .4rem; margin: .2rem 0 .6rem; flex-wrap: wrap; }
.views.on { display: flex; }
.views button { font: inherit; font-size: .9em; padding: .25rem .7rem; border: 1px solid var(--accent);
                background: #fff; color: var(--accent); border-radius: 1rem; cursor: pointer; }
.views button[aria-pressed="true"] { background: var(--accent); color: #fff; }
details { margin: .4rem 0; }
summary { cursor: pointer; color: var(--accent); }
dl.provenance { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; font-size: .9em; }
dl.provenance dt { color: var(--muted); }
dl.provenance dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
footer { margin-top: 2.5rem; border-top: 2px solid var(--line); }
@media (max-width: 640px) {
  body { font-size: 14px; }
  main { padding: .6rem .6rem 2rem; }
  th, td { padding: .25rem .35rem; }
  table.summary .def, table.overall .def { display: none; }
  .def-inline { display: block; color: var(--muted); font-size: .85em; font-weight: normal; }
}
"""

_SCRIPT = """
document.querySelectorAll('.heat').forEach(function (box) {
  var buttons = box.querySelectorAll('button[data-view]');
  var note = box.querySelector('.viewnote');
  box.querySelector('.views').classList.add('on');
  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      var view = button.dataset.view, name = view.charAt(0).toUpperCase() + view.slice(1);
      buttons.forEach(function (b) { b.setAttribute('aria-pressed', String(b === button)); });
      var texts = box.querySelectorAll('text.count');
      box.querySelectorAll('rect.cell').forEach(function (cell, k) {
        cell.setAttribute('fill', cell.dataset['fill' + name]);
        texts[k].textContent = cell.dataset['text' + name];
        texts[k].setAttribute('fill', cell.dataset['ink' + name]);
      });
      note.textContent = button.dataset.note;
    });
  });
});
"""


def _number_cell(value: Any, digits: int) -> str:
    if isinstance(value, Bounds):
        return f'<td class="num ci">{_e(format_number(value, digits))}</td>'
    if isinstance(value, (int, float, PValue)) and not isinstance(value, bool):
        return f'<td class="num">{_e(format_number(value, digits))}</td>'
    return f'<td class="label">{_e(format_number(value, digits))}</td>'


def table_html(table: Table, digits: int) -> str:
    """A report table as HTML, under an ``<h3>`` of its title: the first column names rows, numbers right-aligned,
    intervals muted; every text escaped."""
    numeric = [
        i > 0 and all(isinstance(r[i], (int, float, Bounds)) and not isinstance(r[i], bool) for r in table.rows)
        for i in range(len(table.columns))
    ]
    head = "".join(f'<th class="{"num" if numeric[i] else ""}">{_e(c)}</th>' for i, c in enumerate(table.columns))
    body = "\n".join("<tr>" + "".join(_number_cell(v, digits) for v in row) + "</tr>" for row in table.rows)
    return (
        f'<h3>{_e(table.title)}</h3><div class="scroll"><table data-key="{_e(table.key)}">'
        f"<thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table></div>"
    )


def _estimate_cell(value: Estimate, digits: int) -> str:
    """A score cell; with intervals asked for, its interval (or "no interval") under it."""
    shown = format_number(value.value, digits)
    if value.bounds is None:
        return f'<td class="num">{_e(shown)}</td>'
    b = value.bounds
    ci = "no interval" if b.low is None or b.high is None else f"[{b.low:.{digits}f}, {b.high:.{digits}f}]"
    return f'<td class="num">{_e(shown)}<br><span class="ci">{_e(ci)}</span></td>'


def _inline(part: str | Code | Sub | Aside) -> str:
    if isinstance(part, Code):
        return f"<code>{_e(part.text)}</code>"
    if isinstance(part, Sub):
        return f"<sub>{_e(part.text)}</sub>"
    if isinstance(part, Aside):
        return f'<span class="ci">{_e(part.text)}</span>'
    return _e(part)


def _block(block: Block, report: Report, digits: int) -> str:
    """One block of a page (see :mod:`clfeval.report.page`)."""
    if isinstance(block, Paragraph):
        return "<p>" + "".join(_inline(p) for p in block.parts) + "</p>"
    if isinstance(block, DefinedTable):
        head = "".join(f'<th class="num">{_e(c)}</th>' for c in block.columns)
        rows = "\n".join(
            f'<tr><td class="label"><strong>{_e(r.title)}</strong><span class="def-inline">{_e(r.definition)}'
            f"</span></td>{''.join(_estimate_cell(c, digits) for c in r.cells)}"
            f'<td class="def">{_e(r.definition)}</td></tr>'
            for r in block.rows
        )
        return (
            f'<div class="scroll"><table class="{_e(block.style)}" data-key="{_e(block.key)}"><thead><tr>'
            f'<th>{_e(block.head)}</th>{head}<th class="def">definition</th></tr></thead><tbody>\n{rows}\n'
            "</tbody></table></div>"
        )
    if isinstance(block, Grid):
        head = "".join(f"<th{_class(style)}>{_e(title)}</th>" for title, style in block.columns)
        rows = "\n".join("<tr>" + "".join(_grid_cell(c, digits) for c in row) + "</tr>" for row in block.rows)
        return (
            f'<div class="scroll"><table class="{_e(block.style)}" data-key="{_e(block.key)}"><thead><tr>{head}'
            f"</tr></thead><tbody>\n{rows}\n</tbody></table></div>"
        )
    if isinstance(block, Definitions):
        return "<ul>" + "".join(f"<li><strong>{_e(t)}</strong>: {_e(d)}</li>" for t, d in block.items) + "</ul>"
    return table_html(next(t for t in report.tables if t.key == block.key), digits)


def _class(style: str) -> str:
    return f' class="{_e(style)}"' if style else ""


def _grid_cell(cell: Cell, digits: int) -> str:
    text = _e(format_number(cell.value, digits))
    return f"<td{_class(cell.style)}>{f'<strong>{text}</strong>' if cell.strong else text}</td>"


#: The attributes of a heat map cell that hold its colour and text in every view, for the page's script.
_VIEW_DATA = re.compile(r' data-(?:fill|ink|text)-[a-z]+="[^"]*"')


def _figure(fig: Figure, n: int | None, *, views: bool = True) -> str:
    """A figure with its caption; ``n`` numbers its id (``None``: no id), ``views=False`` leaves out the heat map's
    view buttons and the per-view data they switch between (a display without script shows counts)."""
    anchor = "" if n is None else f' id="figure-{n}"'
    if isinstance(fig, HeatMap) and not views:
        return (
            f'<figure class="heat"{anchor}><p class="viewnote ci">cells: counts</p><div class="scroll">'
            f"{_VIEW_DATA.sub('', heat_map_svg(fig))}</div><figcaption>{_e(fig.caption)}</figcaption></figure>"
        )
    if isinstance(fig, HeatMap):
        buttons = "".join(
            f'<button type="button" data-view="{v}" data-note="cells: {_e(note)}" '
            f'aria-pressed="{str(v == "count").lower()}">{_e(v if v != "count" else "counts")}'
            "</button>"
            for v, note in VIEWS.items()
        )
        return (
            f'<figure class="heat"{anchor}><div class="views" role="group" aria-label="normalise">'
            f'{buttons}</div><p class="viewnote ci">cells: counts</p><div class="scroll">{heat_map_svg(fig)}'
            f"</div><figcaption>{_e(fig.caption)}</figcaption></figure>"
        )
    if isinstance(fig, LinePlot):
        return (
            f'<figure class="lines"{anchor}><div class="scroll">{line_plot_svg(fig)}</div>'
            f"<figcaption>{_e(fig.caption)}</figcaption></figure>"
        )
    assert isinstance(fig, DotPlot)
    return (
        f'<figure class="dots"{anchor}><div class="scroll">{dot_plot_svg(fig)}</div>'
        f"<figcaption>{_e(fig.caption)}</figcaption></figure>"
    )


def _list(items: Iterable[str]) -> str:
    return "".join(f"<li>{_e(i)}</li>" for i in items)


def page_parts(
    result: Result, report: Report, page: Page, digits: int, *, views: bool = True, anchors: bool = True
) -> list[tuple[str, str, str]]:
    """The parts of a result's page before its tables, as (id, heading, inner HTML): the summary with its leading
    figures, the page's sections, then each further figure.

    Parameters
    ----------
    result
        The result whose figures are drawn (:meth:`~clfeval.result.Result.figures`).
    report, page
        Its report (with or without the matrix table) and the report's :class:`~clfeval.report.page.Page`.
    digits
        Decimals of the scores.
    views
        Whether heat maps carry their view buttons and per-view data (the page's script switches them).
    anchors
        Whether figures carry ``id`` attributes (a page has one of each; a notebook may show many reports).
    """
    summary = "".join(_block(b, report, digits) for b in page.summary)
    figures = result.figures()
    first, rest = figures[: page.lead_figures], figures[page.lead_figures :]

    def drawn(fig: Figure, n: int) -> str:
        return _figure(fig, n if anchors else None, views=views)

    lead = "".join(drawn(fig, n) for n, fig in enumerate(first))  # compare's differences, cv's folds, the forest
    # plots of scores by group: part of the summary, each with its own id
    parts = [("summary", "Summary", summary + lead)]
    for section in page.sections:
        parts.append((section.id, section.title, "".join(_block(b, report, digits) for b in section.blocks)))
    for n, fig in enumerate(rest, start=len(first)):
        parts.append((fig.key, fig.title[:1].upper() + fig.title[1:], drawn(fig, n)))
    return parts


def render_html(
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
    """The result as one self-contained HTML page (see the module docstring), laid out from its report's
    :class:`~clfeval.report.page.Page`.

    ``matrix=False`` leaves the confusion matrix table out of the folded tables (the heat map stays); so does a
    matrix of more than :data:`~clfeval.report.figures.MAX_HEAT_LABELS` labels, whose cells the CSV and JSON hold;
    ``command`` is shown under provenance.
    """
    report = report_of(result, matrix=False, measures=measures, verbose=verbose)
    page = report.page
    if page is None:
        raise OptionError(f"a {result.kind} result has no HTML page; use {', '.join(result.formats)}")
    wide = page.matrix_labels > MAX_HEAT_LABELS
    if matrix and not wide:  # a 1,000-label matrix table would be a million cells
        report = report_of(result, matrix=True, measures=measures, verbose=verbose)
    sections = [
        f'<section id="{_e(key)}"><h2>{_e(title)}</h2>{inner}</section>'
        for key, title, inner in page_parts(result, report, page, digits)
    ]
    tables = "".join(table_html(t, digits) for t in report.tables)
    if matrix and wide:
        tables += (
            f"<p>The confusion matrix of {page.matrix_labels} labels is left out here (the heat map "
            "folds the rarest labels): every cell is in <code>--format csv</code> and "
            "<code>--format json</code>.</p>"
        )
    sections.append(
        f'<section id="tables"><h2>All tables</h2><details><summary>every number of the text report '
        f"({len(report.tables)} tables)</summary>{tables}</details></section>"
    )
    warnings = (
        f'<section class="warnings" id="warnings"><strong>Warnings</strong><ul>{_list(report.warnings)}</ul></section>'
        if report.warnings
        else ""
    )
    rows = list(page.provenance)
    if command:
        rows.insert(2, ("command", command))
    provenance = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in rows)
    footer = (
        f'<footer id="provenance"><h2>Options and provenance</h2><dl class="provenance">{provenance}</dl>'
        f"<h3>Notes</h3><ul>{_list(report.notes)}</ul></footer>"
    )
    lede = report.title.split(" — ", 1)[-1]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="clfeval {__version__}">'
        f"<title>{_e(report.title)}</title><style>{_STYLE}</style></head>\n"
        f'<body><main><header><h1>{_e(report.title.split(" — ")[0])}</h1><p class="lede">{_e(lede)}</p>'
        f"</header>{warnings}\n" + "\n".join(sections) + f"\n{footer}</main>\n<script>{_SCRIPT}</script>"
        "</body></html>\n"
    )
