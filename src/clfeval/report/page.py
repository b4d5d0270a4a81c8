"""A report as a page: the summary a reader sees first, extra sections, which figures lead, and the provenance.

The HTML renderer lays a :class:`Page` out; it knows blocks (paragraphs, tables of defined rows, grids,
definition lists, references to the report's tables and figures), not result types. Each result with a page
(score, compare, cv) builds it here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from clfeval._version import __version__
from clfeval.infer.comparison import COMPARE_SCHEMA, Comparison
from clfeval.infer.crossvalidation import CV_SCHEMA, CrossValidation
from clfeval.infer.pairtests import TESTS
from clfeval.infer.slices import SLICES_SCHEMA, Sliced
from clfeval.report.paper import Estimate, estimate_of
from clfeval.report.tables import Bounds, PValue, average_title, measure_title, overall_rows
from clfeval.report.view import View
from clfeval.scoring.averages import AVERAGES
from clfeval.scoring.labelset import LABEL_SOURCES
from clfeval.scoring.scores import SCHEMA, Scores

__all__ = [
    "Aside",
    "Block",
    "Cell",
    "Code",
    "DefinedRow",
    "DefinedTable",
    "Definitions",
    "Grid",
    "Page",
    "Paragraph",
    "Section",
    "Sub",
    "TableRef",
    "comparison_page",
    "cv_page",
    "score_page",
    "slices_page",
]


@dataclass(frozen=True)
class Code:
    """Inline: something to type (an option)."""

    text: str


@dataclass(frozen=True)
class Sub:
    """Inline: a subscript."""

    text: str


@dataclass(frozen=True)
class Aside:
    """Inline: a muted aside (the label set's members)."""

    text: str


@dataclass(frozen=True)
class Paragraph:
    """Text, with inline :class:`Code`, :class:`Sub` and :class:`Aside` parts."""

    parts: tuple[str | Code | Sub | Aside, ...]


@dataclass(frozen=True)
class DefinedRow:
    """A row named by a term whose definition goes with it, then its estimates."""

    title: str
    definition: str
    cells: tuple[Estimate, ...]


@dataclass(frozen=True)
class DefinedTable:
    """Rows named by a defined term (every average, every overall measure) with their estimates."""

    key: str
    style: str
    head: str
    columns: tuple[str, ...]
    rows: tuple[DefinedRow, ...]


@dataclass(frozen=True)
class Cell:
    """A grid cell: its value, its style (``label``, ``num``, ``num ci`` or none) and whether it is stressed."""

    value: Any
    style: str = "num"
    strong: bool = False


@dataclass(frozen=True)
class Grid:
    """A summary table whose columns and cells carry their own styles (a comparison's pairs)."""

    key: str
    style: str
    columns: tuple[tuple[str, str], ...]
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class Definitions:
    """Terms and what they are."""

    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TableRef:
    """One of the report's tables, by key."""

    key: str


Block = Paragraph | DefinedTable | Grid | Definitions | TableRef


@dataclass(frozen=True)
class Section:
    """A section of the page after the summary."""

    id: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Page:
    """What a page shows beyond the report's tables, warnings and notes.

    Attributes
    ----------
    summary
        The blocks of the summary.
    sections
        Sections after the summary, before the figures (cv's pooled scores).
    lead_figures
        How many of the result's figures belong to the summary (compare's differences, cv's folds).
    provenance
        (name, value) rows: version, schema, inputs, N, seeds and every option.
    matrix_labels
        The labels of the confusion matrix (a page leaves out a matrix table too wide to read).
    """

    summary: tuple[Block, ...]
    sections: tuple[Section, ...]
    lead_figures: int
    provenance: tuple[tuple[str, str], ...]
    matrix_labels: int


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


def _score_blocks(scores: Scores, view: View | None = None) -> tuple[Block, ...]:
    """Every average by its explicit name with its interval and definition, then the overall measures (those of
    ``view``: by default the default measures)."""
    view = view or View()
    iv = scores.intervals
    labels = ", ".join(scores.labels[:60]) + (
        f" … and {len(scores.labels) - 60} more" if len(scores.labels) > 60 else ""
    )
    averaged = view.averaged(scores)
    averages = DefinedTable(
        "summary",
        "summary",
        "average",
        tuple(measure_title(m, scores.beta) for m in averaged),
        tuple(
            DefinedRow(
                average_title(name, scores, averaged),
                _average_definition(name, scores),
                tuple(estimate_of(scores, ("averages", name, m), values[m]) for m in averaged),
            )
            for name, values in scores.averages.items()
        ),
    )
    overall = DefinedTable(
        "overall-summary",
        "overall",
        "measure",
        ("value",),
        tuple(
            DefinedRow(r.name, r.definition, (estimate_of(scores, (r.key,), r.value),))
            for r in overall_rows(scores, view)
        ),
    )
    if iv is not None:
        head = f"Intervals: {100 * iv.confidence:g}% {iv.method} — {iv.definition}"
        if iv.resamples is not None:
            head += f"; {iv.resamples} resamples of {iv.unit}, seed {iv.seed}"
        ci = Paragraph((head + ".",))
    else:
        ci = Paragraph(
            (
                "No intervals were asked for: add ",
                Code("--ci delta"),
                ", ",
                Code("--ci delta-logit"),
                " or ",
                Code("--ci bootstrap"),
                " to put one on every score.",
            )
        )
    return (
        Paragraph((_label_set_sentence(scores) + " ", Aside(f"L = {{{labels}}}"))),
        *([averages] if averaged else []),
        *([overall] if overall.rows else []),
        ci,
        Paragraph((f"{_zero_division_sentence(scores)} β = {scores.beta:g}.",)),
    )


def _flat(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_flat(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_flat(v) for v in value)
    return "—" if value is None else str(value)


def _scores_provenance(scores: Scores, *, intervals_none: bool = True) -> list[tuple[str, str]]:
    """The interval method, label set, β and every option of a score (the part every page shares)."""
    rows: list[tuple[str, str]] = []
    iv = scores.intervals
    if iv is not None:
        rows += [
            ("intervals", f"{iv.method}, {100 * iv.confidence:g}%"),
            ("resamples", _flat(iv.resamples)),
            ("seed", _flat(iv.seed)),
            ("interval unit", iv.unit if iv.n_units is None else f"{iv.n_units} {iv.unit}"),
        ]
    elif intervals_none:
        rows.append(("intervals", "none"))
    rows += [("label set", f"{len(scores.labels)} labels, source {scores.label_source}"), ("β", f"{scores.beta:g}")]
    rows += [(f"option {k}", _flat(v)) for k, v in scores.options.items()]
    return rows


def _head(schema: str, inputs: Mapping[str, Any], scores: Scores) -> list[tuple[str, str]]:
    rows = [("clfeval", __version__), ("schema", schema)]
    rows += [(f"input {k}", _flat(v)) for k, v in inputs.items()]
    rows.append(("N", f"{scores.n_instances} instances ({scores.task})"))
    return rows


def _matrix_size(scores: Scores) -> int:
    """The labels of a result's confusion matrix (0 for a kind of counts without one)."""
    return 0 if scores.confusion is None else len(scores.confusion.labels)


def score_page(scores: Scores, view: View | None = None) -> Page:
    """A score's page: the summary of every average and overall measure ``view`` shows, and the provenance."""
    provenance = _head(SCHEMA, scores.inputs, scores) + _scores_provenance(scores)
    return Page(_score_blocks(scores, view), (), 0, tuple(provenance), _matrix_size(scores))


def comparison_page(cmp: Comparison) -> Page:
    """A comparison's page: the test, each pair's difference with its p-value, the metrics' definitions."""
    first = cmp.first
    test = TESTS[cmp.test]
    columns = [("metric", ""), ("A", ""), ("B", ""), ("score A", "num"), ("score B", "num"), ("A − B", "num")]
    if cmp.ci != "none":
        columns.append((f"{100 * cmp.confidence:g}% CI", "num"))
    columns += [("p", "num"), ("p (Holm)", "num"), ("holds", "")]
    rows = []
    for p in cmp.pairs:
        row = [Cell(p.metric, "label"), Cell(p.a, "label"), Cell(p.b, "label"), Cell(p.score_a), Cell(p.score_b),
               Cell(p.difference, strong=True)]  # fmt: skip
        if cmp.ci != "none":
            row.append(Cell(Bounds(*(p.ci if p.ci else (None, None))), "num ci"))
        holds = "no test" if math.isnan(p.p_adjusted) else ("yes" if p.significant else "no")
        row += [Cell(PValue(p.p_value)), Cell(PValue(p.p_adjusted)), Cell(holds, "")]
        rows.append(tuple(row))
    definitions = tuple(
        (metric, f"{average_title(key[1], first)} — {_average_definition(key[1], first)}")
        for metric, key in zip(cmp.metrics, cmp.keys)
        if key[0] == "averages"
    ) + tuple((m, str(cmp.definition(m))) for m in cmp.metrics if cmp.definition(m) is not None)
    rounds = "" if cmp.rounds is None or all(p.exact for p in cmp.pairs) else f"; {cmp.rounds} rounds, seed {cmp.seed}"
    summary: list[Block] = [
        Paragraph(
            (
                f"{test.title} ({cmp.alternative}) — {test.definition}{rounds}. A difference holds when its "
                f"Holm-adjusted p-value is below α = {cmp.alpha:g}.",
            )
        ),
        Grid("pairs", "summary", tuple(columns), tuple(rows)),
    ]
    if definitions:
        summary.append(Definitions(definitions))
    summary.append(Paragraph((f"{_label_set_sentence(first)} {_zero_division_sentence(first)}",)))
    provenance = _head(COMPARE_SCHEMA, cmp.inputs, first) + [
        ("systems", ", ".join(cmp.systems)),
        ("comparisons", "every pair" if cmp.baseline is None else f"each against the baseline {cmp.baseline}"),
        ("test", cmp.test),
        ("alternative", cmp.alternative),
        ("rounds", _flat(cmp.rounds)),
        ("seed", _flat(cmp.seed)),
        ("alpha", f"{cmp.alpha:g}"),
        ("unit", cmp.unit if cmp.n_units is None else f"{cmp.n_units} {cmp.unit}"),
    ]
    if TESTS[cmp.test].enumerates:
        provenance.append(("exact limit", str(cmp.exact_limit)))
    provenance.append(("difference intervals", cmp.ci if cmp.ci == "none" else f"{cmp.ci}, {100 * cmp.confidence:g}%"))
    provenance += _scores_provenance(first, intervals_none=False)
    return Page(tuple(summary), (), 1, tuple(provenance), _matrix_size(first))


def cv_page(cv: CrossValidation, view: View | None = None) -> Page:
    """A cross-validation's page: pooled against mean of folds, the fold figure, then the pooled summary."""
    summary = (
        Paragraph(
            (
                "Pooled: the folds' counts added up, then scored once (F",
                Sub("tp,fp"),
                ": the score of all N predictions as one test set). Mean of folds: each fold scored on its own, "
                "then averaged (F",
                Sub("avg"),
                ": the score on a test set of one fold's size). Neither is unbiased, and they differ even for folds "
                "of equal size and class balance, since F is not linear in the counts.",
            )
        ),
        TableRef("cv"),
    )
    pooled = Section("pooled", "Pooled scores", _score_blocks(cv.pooled, view))
    provenance = _head(CV_SCHEMA, cv.inputs, cv.pooled) + [("folds", ", ".join(cv.fold_names))]
    provenance += _scores_provenance(cv.pooled)
    return Page(summary, (pooled,), 1, tuple(provenance), _matrix_size(cv.pooled))


def scored_page(r: Any) -> Page:
    """A scored result's page: its headline scores (with their intervals), what they are, and the provenance; the
    ROC and precision-recall curves and the reliability diagram follow as figures."""
    from clfeval.scoring.scored import SCORED_SCHEMA

    names = [n for n in r.values if not n.startswith("per_label.")]
    with_ci = r.interval_method is not None
    columns = [("score", ""), ("value", "num")] + ([("interval", "num")] if with_ci else [])
    rows = []
    for name in names:
        row = [Cell(name, "label"), Cell(r.values[name], strong=name in ("auc", "macro.auc"))]
        if with_ci:
            bounds = r.intervals.get(name)
            row.append(Cell(Bounds(*(bounds if bounds is not None else (None, None))), "num ci"))
        rows.append(tuple(row))
    what = (
        "binary scores of the positive class " + repr(r.counts.columns[0])
        if r.counts.binary
        else (f"a score per class ({len(r.counts.labels)} classes)")
    )
    summary: list[Block] = [
        Paragraph(
            (
                f"{r.n_instances} instances with {what}, counted as {len(r.counts.count)} distinct (gold, scores) rows."
                + (
                    " The scores are probabilities."
                    if r.probabilities
                    else " The scores are not probabilities: ranking only."
                ),
            )
        ),
        Grid("scores", "summary", tuple(columns), tuple(rows)),
    ]
    provenance = [("clfeval", __version__), ("schema", SCORED_SCHEMA), ("N", f"{r.n_instances} instances ({r.task})")]
    provenance += [(f"input {k}", _flat(v)) for k, v in r.inputs.items()]
    provenance += [(k, _flat(v)) for k, v in r.conventions.to_dict().items()]
    if r.interval_method is not None:
        provenance += [(f"ci {k}", _flat(v)) for k, v in r.interval_method.items() if k != "not_estimable"]
    return Page(tuple(summary), (), 0, tuple(provenance), 0)


def scored_comparison_page(cmp: Any) -> Page:
    """A comparison of scored predictions' page: the test, each pair's difference with its p-value, the provenance."""
    from clfeval.infer.scored import SCORED_PAIRS_SCHEMA

    with_ci = any(p["ci"] is not None for p in cmp.pairs)
    columns = [("metric", ""), ("A", ""), ("B", ""), ("score A", "num"), ("score B", "num"), ("A − B", "num")]
    columns += [(f"{100 * cmp.confidence:g}% CI", "num")] if with_ci else []
    columns += [("p", "num"), ("p (Holm)", "num"), ("holds", "")]
    rows = []
    for p in cmp.pairs:
        row = [Cell(p["metric"], "label"), Cell(p["a"], "label"), Cell(p["b"], "label"), Cell(p["score_a"]),
               Cell(p["score_b"]), Cell(p["difference"], strong=True)]  # fmt: skip
        if with_ci:
            row.append(Cell(Bounds(*(p["ci"] if p["ci"] is not None else (None, None))), "num ci"))
        row += [
            Cell(PValue(p["p_value"])),
            Cell(PValue(p["p_adjusted"])),
            Cell("yes" if p["significant"] else "no", ""),
        ]
        rows.append(tuple(row))
    rounds = f"; {cmp.rounds} rounds, seed {cmp.seed}" if cmp.rounds is not None else ""
    summary: list[Block] = [
        Paragraph(
            (
                f"{cmp.test} ({cmp.alternative}) — {cmp.test_definition}{rounds}. A difference holds when its "
                f"Holm-adjusted p-value is below α = {cmp.alpha:g}.",
            )
        ),
        Grid("pairs", "summary", tuple(columns), tuple(rows)),
    ]
    provenance = [("clfeval", __version__), ("schema", SCORED_PAIRS_SCHEMA), ("N", f"{cmp.n_instances} instances")]
    provenance += [("systems", ", ".join(cmp.systems)), ("signature", cmp.signature)]
    return Page(tuple(summary), (), 0, tuple(provenance), 0)


def scored_cv_page(cv: Any) -> Page:
    """A cross-validation of scored predictions' page: pooled against the mean of the folds, and the provenance."""
    from clfeval.infer.scored import SCORED_CV_SCHEMA

    columns = (("score", ""), ("pooled", "num"), ("mean of folds", "num"), ("sd", "num"))
    rows = tuple(
        (Cell(name, "label"), Cell(cv.pooled.values[name], strong=True), Cell(mean), Cell(sd))
        for name, (mean, sd) in cv.mean_of_folds().items()
    )
    summary: list[Block] = [
        Paragraph(
            (
                f"{len(cv.folds)} folds, {cv.pooled.n_instances} instances: the folds' counts added and scored "
                "once (pooled), and each fold scored alone (mean and sample sd over the folds).",
            )
        ),
        Grid("cv", "summary", columns, rows),
    ]
    provenance = [("clfeval", __version__), ("schema", SCORED_CV_SCHEMA), ("folds", ", ".join(cv.fold_names))]
    provenance.append(("signature", cv.signature))
    return Page(tuple(summary), (), 0, tuple(provenance), 0)


def slices_page(r: Sliced) -> Page:
    """A result by group's page: the groups side by side with the forest plots, the largest gaps, then the tests
    and the fairness summaries; the provenance names the gaps' method, the test and their seeds."""
    ci = r.gap_method["name"] != "none"
    head = f"{100 * float(r.gap_method['confidence']):g}% CI" if ci else ""
    columns = [("metric", ""), ("highest", ""), ("lowest", ""), ("max − min", "num")]
    columns += [(head, "num")] if ci else []
    columns += [("min / max", "num")] + ([(head, "num")] if ci else [])
    rows = []
    for gap in r.gaps:
        if gap.between != "max":
            continue
        row = [Cell(gap.metric, "label"), Cell(f"{gap.a} ({gap.value_a:.4f})", "label"),
               Cell(f"{gap.b} ({gap.value_b:.4f})", "label"), Cell(gap.difference, strong=True)]  # fmt: skip
        row += [Cell(Bounds(*(gap.difference_ci or (None, None))), "num ci")] if ci else []
        row += [Cell(gap.ratio)] + ([Cell(Bounds(*(gap.ratio_ci or (None, None))), "num ci")] if ci else [])
        rows.append(tuple(row))
    columns_named = " & ".join(r.columns)
    gaps = (
        f"The gaps' intervals: {r.gap_method['name']} — {r.gap_method['definition']}."
        if ci
        else "No intervals were asked for: score with ci= for an interval of every group's score and every gap."
    )
    summary: list[Block] = [
        Paragraph(
            (
                f"{len(r.names)} groups of {columns_named}, {r.n_instances} instances in all, each scored over the "
                "label set of the whole data. The forest plots show each group's score with its interval, the whole "
                "data's as a dashed line, and the ends of the largest gap.",
            )
        ),
        TableRef("by_group"),
        Paragraph(("The largest gap of each score: the highest group against the lowest. " + gaps,)),
        Grid("largest", "summary", tuple(columns), tuple(rows)),
    ]
    sections = [Section("gaps", "Gaps between groups", (TableRef("gaps"),))]
    test = r.test_method
    if r.tests:
        seed = f", seed {test['seed']}" if test.get("seed") is not None else ""
        rounds = f", {test['rounds']} rounds" if test.get("rounds") else ""
        sections.append(
            Section(
                "tests",
                "Tests between groups",
                (
                    Paragraph(
                        (
                            f"{test['name']} ({test['alternative']}{rounds}{seed}) — {test['definition']}. "
                            f"Holm's adjustment: {test['multiplicity']}; significant when below α = "
                            f"{float(test['alpha']):g}.",
                        )
                    ),
                    TableRef("tests"),
                ),
            )
        )
    if r.fairness is not None:
        sections.append(Section("fairness", "Fairness", (TableRef("fairness_rates"), TableRef("fairness"))))
    provenance = [
        ("clfeval", __version__),
        ("schema", SLICES_SCHEMA),
        ("N", f"{r.n_instances} instances ({r.task})"),
        ("group columns", ", ".join(r.columns)),
        ("groups", f"{len(r.names)}: " + ", ".join(r.names[:30]) + (" …" if len(r.names) > 30 else "")),
        ("metrics", ", ".join(r.metrics)),
        *((f"gaps {k}", _flat(v)) for k, v in r.gap_method.items() if k != "definition"),
        *((f"test {k}", _flat(v)) for k, v in test.items() if k != "definition"),
        ("signature", r.signature),
    ]
    labels = getattr(r.overall, "labels", None)
    if labels is not None:
        provenance.append(("label set", f"{len(labels)} labels, source {getattr(r.overall, 'label_source', '—')}"))
    return Page(tuple(summary), tuple(sections), len(r.metrics), tuple(provenance), 0)
