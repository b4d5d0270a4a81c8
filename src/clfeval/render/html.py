"""A self-contained HTML report: one file with its styles, figures (inline SVG) and a few lines of script.

Opening it loads nothing: no stylesheet, font, script or image comes from the network. It reads on a laptop
and on a phone (tables and figures scroll sideways inside their box; the page does not). Sections: the
summary (every average by its explicit name, with its interval and a one-sentence definition), the
figures of :func:`clfeval.report.figures.figures_of`, every table of the text report (folded), and the
options and provenance at the bottom. Every label and name is HTML-escaped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from clfeval._version import __version__
from clfeval.errors import OptionError
from clfeval.infer.comparison import COMPARE_SCHEMA, TESTS, Comparison
from clfeval.infer.crossvalidation import CV_SCHEMA, CrossValidation
from clfeval.render.svg import VIEWS, dot_plot_svg, heat_map_svg
from clfeval.render.svg import markup_text as _e
from clfeval.report import report_of
from clfeval.report.figures import MAX_HEAT_LABELS, DotPlot, Figure, HeatMap, figures_of
from clfeval.report.tables import (
    Bounds,
    PValue,
    Report,
    Table,
    average_title,
    format_number,
    measure_title,
    overall_rows,
)
from clfeval.score.averages import AVERAGED, AVERAGES
from clfeval.score.labelset import LABEL_SOURCES
from clfeval.score.result import SCHEMA, Scores

__all__ = ["render_html"]

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


def _table(table: Table, digits: int) -> str:
    """A report table as HTML: the first column names rows, numbers right-aligned, intervals muted."""
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


def _with_interval(value: float, bounds: tuple[float, float] | None, digits: int, asked: bool) -> str:
    shown = format_number(value, digits)
    if not asked:
        return f'<td class="num">{_e(shown)}</td>'
    ci = "no interval" if bounds is None else f"[{bounds[0]:.{digits}f}, {bounds[1]:.{digits}f}]"
    return f'<td class="num">{_e(shown)}<br><span class="ci">{_e(ci)}</span></td>'


def _average_definition(name: str, scores: Scores) -> str:
    sentence = AVERAGES[name].definition
    if name == "lfb":
        where = scores.inputs.get("train_file")
        sentence += (
            "; frequencies from the training data" + (f" ({where})" if where else "")
            if scores.lfb_source == "train"
            else "; frequencies from the test gold labels, as no training data was given"
        )
    return sentence


def _label_set_sentence(scores: Scores) -> str:
    source = scores.label_source
    return (
        f"Every average runs over the label set L of {len(scores.labels)} labels, source '{source}': "
        f"{LABEL_SOURCES[source]}."
    )


def _zero_division_sentence(scores: Scores) -> str:
    zd = "NaN (undefined)" if math.isnan(scores.zero_division) else f"{scores.zero_division:g}"
    affected = sorted({lab for labs in scores.undefined.values() for lab in labs})
    verb = "included in" if scores.undefined_policy == "include" else "left out of"
    shown = ", ".join(affected[:12]) + (f" and {len(affected) - 12} more" if len(affected) > 12 else "")
    return f"A 0/0 ratio is set to {zd} and {verb} the averages; labels affected: {shown or 'none'}."


def _score_summary(scores: Scores, digits: int) -> str:
    """Every average by its explicit name with its interval and definition, then the overall measures."""
    iv = scores.intervals
    asked = iv is not None
    rows = []
    for name, values in scores.averages.items():
        cells = "".join(
            _with_interval(values[m], iv.get(("averages", name, m)) if iv else None, digits, asked) for m in AVERAGED
        )
        definition = _e(_average_definition(name, scores))
        rows.append(
            f'<tr><td class="label"><strong>{_e(average_title(name, scores))}</strong>'
            f'<span class="def-inline">{definition}</span></td>{cells}<td class="def">{definition}</td></tr>'
        )
    table = (
        '<div class="scroll"><table class="summary" data-key="summary"><thead><tr><th>average</th>'
        + "".join(f'<th class="num">{_e(measure_title(m, scores.beta))}</th>' for m in AVERAGED)
        + '<th class="def">definition</th>'
        "</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table></div>"
    )
    orows = "".join(
        f'<tr><td class="label"><strong>{_e(r.name)}</strong><span class="def-inline">'
        f"{_e(r.definition)}</span></td>"
        f"{_with_interval(r.value, iv.get((r.key,)) if iv else None, digits, asked)}"
        f'<td class="def">{_e(r.definition)}</td></tr>'
        for r in overall_rows(scores)
    )
    otable = (
        f'<div class="scroll"><table class="overall" data-key="overall-summary"><thead><tr><th>measure</th>'
        f'<th class="num">value</th><th class="def">definition</th></tr></thead><tbody>{orows}</tbody>'
        "</table></div>"
    )
    if iv is not None:
        head = f"Intervals: {100 * iv.confidence:g}% {iv.method} — {iv.definition}"
        if iv.resamples is not None:
            head += f"; {iv.resamples} resamples of {iv.unit}, seed {iv.seed}"
        ci = f"<p>{_e(head)}.</p>"
    else:
        ci = (
            "<p>No intervals were asked for: add <code>--ci delta</code>, <code>--ci delta-logit</code> or "
            "<code>--ci bootstrap</code> to put one on every score.</p>"
        )
    labels = ", ".join(scores.labels[:60]) + (
        f" … and {len(scores.labels) - 60} more" if len(scores.labels) > 60 else ""
    )
    return (
        f'<p>{_e(_label_set_sentence(scores))} <span class="ci">L = {{{_e(labels)}}}</span></p>{table}{otable}'
        f"{ci}<p>{_e(_zero_division_sentence(scores))} β = {scores.beta:g}.</p>"
    )


def _comparison_summary(cmp: Comparison, digits: int) -> str:
    first = cmp.first
    test = TESTS[cmp.test]
    rows = []
    for p in cmp.pairs:
        ci = (
            ""
            if cmp.ci == "none"
            else (f'<td class="num ci">{_e(format_number(Bounds(*(p.ci if p.ci else (None, None))), digits))}</td>')
        )
        holds = "no test" if math.isnan(p.p_adjusted) else ("yes" if p.significant else "no")
        rows.append(
            f'<tr><td class="label">{_e(p.metric)}</td><td class="label">{_e(p.a)}</td>'
            f'<td class="label">{_e(p.b)}</td><td class="num">{_e(format_number(p.score_a, digits))}</td>'
            f'<td class="num">{_e(format_number(p.score_b, digits))}</td>'
            f'<td class="num"><strong>{_e(format_number(p.difference, digits))}</strong></td>{ci}'
            f'<td class="num">{_e(format_number(PValue(p.p_value), digits))}</td>'
            f'<td class="num">{_e(format_number(PValue(p.p_adjusted), digits))}</td><td>{holds}</td></tr>'
        )
    ci_head = "" if cmp.ci == "none" else f'<th class="num">{100 * cmp.confidence:g}% CI</th>'
    table = (
        f'<div class="scroll"><table class="summary" data-key="pairs"><thead><tr><th>metric</th><th>A</th>'
        f'<th>B</th><th class="num">score A</th><th class="num">score B</th><th class="num">A − B</th>{ci_head}'
        f'<th class="num">p</th><th class="num">p (Holm)</th><th>holds</th></tr></thead><tbody>\n'
        + "\n".join(rows)
        + "\n</tbody></table></div>"
    )
    definitions = []
    for metric, key in zip(cmp.metrics, cmp.keys):
        if key[0] == "averages":
            definitions.append(
                f"<li><strong>{_e(metric)}</strong>: "
                f"{_e(average_title(key[1], first))} — {_e(_average_definition(key[1], first))}</li>"
            )
    rounds = "" if cmp.rounds is None or all(p.exact for p in cmp.pairs) else f"; {cmp.rounds} rounds, seed {cmp.seed}"
    return (
        f"<p>{_e(test.title)} ({_e(cmp.alternative)}) — {_e(test.definition)}{_e(rounds)}. A difference holds "
        f"when its Holm-adjusted p-value is below α = {cmp.alpha:g}.</p>{table}"
        + (f"<ul>{''.join(definitions)}</ul>" if definitions else "")
        + f"<p>{_e(_label_set_sentence(first))} {_e(_zero_division_sentence(first))}</p>"
    )


def _cv_summary(report: Report, digits: int) -> str:
    both = next(t for t in report.tables if t.key == "cv")
    return (
        "<p>Pooled: the folds' counts added up, then scored once (F<sub>tp,fp</sub>, the value to report). "
        "Mean of folds: each fold scored on its own, then averaged (F<sub>avg</sub>); it is biased when folds "
        f"differ in size or class balance.</p>{_table(both, digits)}"
    )


def _figure(fig: Figure, n: int) -> str:
    if isinstance(fig, HeatMap):
        buttons = "".join(
            f'<button type="button" data-view="{v}" data-note="cells: {_e(note)}" '
            f'aria-pressed="{str(v == "count").lower()}">{_e(v if v != "count" else "counts")}'
            "</button>"
            for v, note in VIEWS.items()
        )
        return (
            f'<figure class="heat" id="figure-{n}"><div class="views" role="group" aria-label="normalise">'
            f'{buttons}</div><p class="viewnote ci">cells: counts</p><div class="scroll">{heat_map_svg(fig)}'
            f"</div><figcaption>{_e(fig.caption)}</figcaption></figure>"
        )
    assert isinstance(fig, DotPlot)
    return (
        f'<figure class="dots" id="figure-{n}"><div class="scroll">{dot_plot_svg(fig)}</div>'
        f"<figcaption>{_e(fig.caption)}</figcaption></figure>"
    )


def _provenance(result: Scores | Comparison | CrossValidation, command: str | None) -> list[tuple[str, str]]:
    """(name, value) rows: version, command, inputs, N, seeds and every option."""
    schema = (
        COMPARE_SCHEMA
        if isinstance(result, Comparison)
        else CV_SCHEMA
        if isinstance(result, CrossValidation)
        else SCHEMA
    )
    rows = [("clfeval", __version__), ("schema", schema)]
    if command:
        rows.append(("command", command))
    scores = (
        result.first
        if isinstance(result, Comparison)
        else (result.pooled if isinstance(result, CrossValidation) else result)
    )
    rows += [(f"input {k}", _flat(v)) for k, v in result.inputs.items()]
    rows.append(("N", f"{scores.n_instances} instances ({scores.task})"))
    if isinstance(result, CrossValidation):
        rows.append(("folds", ", ".join(result.fold_names)))
    if isinstance(result, Comparison):
        rows += [
            ("systems", ", ".join(result.systems)),
            (
                "comparisons",
                "every pair" if result.baseline is None else f"each against the baseline {result.baseline}",
            ),
            ("test", result.test),
            ("alternative", result.alternative),
            ("rounds", _flat(result.rounds)),
            ("seed", _flat(result.seed)),
            ("alpha", f"{result.alpha:g}"),
            ("unit", result.unit if result.n_units is None else f"{result.n_units} {result.unit}"),
        ]
        if result.test == "ar":
            rows.append(("exact limit", str(result.exact_limit)))
        rows.append(
            ("difference intervals", result.ci if result.ci == "none" else f"{result.ci}, {100 * result.confidence:g}%")
        )
    iv = scores.intervals
    if iv is not None:
        rows += [
            ("intervals", f"{iv.method}, {100 * iv.confidence:g}%"),
            ("resamples", _flat(iv.resamples)),
            ("seed", _flat(iv.seed)),
            ("interval unit", iv.unit if iv.n_units is None else f"{iv.n_units} {iv.unit}"),
        ]
    elif not isinstance(result, Comparison):
        rows.append(("intervals", "none"))
    rows += [("label set", f"{len(scores.labels)} labels, source {scores.label_source}"), ("β", f"{scores.beta:g}")]
    rows += [(f"option {k}", _flat(v)) for k, v in scores.options.items()]
    return rows


def _flat(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_flat(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_flat(v) for v in value)
    return "—" if value is None else str(value)


def _list(items: Iterable[str]) -> str:
    return "".join(f"<li>{_e(i)}</li>" for i in items)


def render_html(
    result: Scores | Comparison | CrossValidation,
    *,
    digits: int = 4,
    matrix: bool = True,
    command: str | None = None,
    raw_csv: bool = False,
) -> str:
    """The result as one self-contained HTML page (see the module docstring).

    ``matrix=False`` leaves the confusion matrix table out of the folded tables (the heat map stays); so does a
    matrix of more than :data:`~clfeval.report.figures.MAX_HEAT_LABELS` labels, whose cells the CSV and JSON hold;
    ``command`` is shown under provenance.
    """
    if not isinstance(result, (Scores, Comparison, CrossValidation)):
        raise OptionError(
            f"the HTML report is made for score, compare and cv results, not {type(result).__name__}; "
            "use text, markdown, latex, csv or json"
        )
    scores = result.pooled if isinstance(result, CrossValidation) else result
    n_labels = len(scores.confusion.labels) if isinstance(scores, Scores) else 0
    wide = n_labels > MAX_HEAT_LABELS
    report = report_of(result, matrix=matrix and not wide)  # a 1,000-label matrix table would be a million cells
    if isinstance(result, Comparison):
        summary = _comparison_summary(result, digits)
    elif isinstance(result, CrossValidation):
        summary = _cv_summary(report, digits)
    else:
        summary = _score_summary(result, digits)
    figures = figures_of(result)
    first, rest = (figures[:1], figures[1:]) if isinstance(result, (Comparison, CrossValidation)) else ([], figures)
    lead = "".join(_figure(fig, 0) for fig in first)  # compare's differences, cv's folds: part of the summary
    sections = [f'<section id="summary"><h2>Summary</h2>{summary}{lead}</section>']
    if isinstance(result, CrossValidation):
        sections.append(f'<section id="pooled"><h2>Pooled scores</h2>{_score_summary(result.pooled, digits)}</section>')
    for n, fig in enumerate(rest, start=len(first)):
        sections.append(
            f'<section id="{_e(fig.key)}"><h2>{_e(fig.title[:1].upper() + fig.title[1:])}</h2>'
            f"{_figure(fig, n)}</section>"
        )
    tables = "".join(_table(t, digits) for t in report.tables)
    if matrix and wide:
        tables += (
            f"<p>The confusion matrix of {n_labels} labels is left out here (the heat map "
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
    provenance = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in _provenance(result, command))
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
