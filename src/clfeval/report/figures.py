"""Figures of a result, as data: the confusion heat map and dot plots with interval bars.

A figure here says *what* is drawn — labels in order, values, intervals, markers — and nothing about
how. The HTML report draws them as inline SVG (:mod:`clfeval.render.svg`) and ``--plot`` draws the
same figures with matplotlib (:mod:`clfeval.render.plot`), so a paper's figure and the report agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.count.labelsets import SplitMatrix
from clfeval.infer.comparison import Comparison
from clfeval.infer.crossvalidation import CrossValidation
from clfeval.infer.slices import Sliced
from clfeval.kinds import KINDS
from clfeval.report.matrix import MAX_SHOWN_LABELS, shown_matrix
from clfeval.result import Result
from clfeval.scoring.measures import MEASURES
from clfeval.scoring.ratios import f_title
from clfeval.scoring.scores import Scores

__all__ = [
    "MAX_DOT_ROWS",
    "MAX_HEAT_LABELS",
    "DotPlot",
    "Figure",
    "HeatMap",
    "Point",
    "Series",
    "comparison_figures",
    "cv_figures",
    "figures_of",
    "heat_map",
    "per_label_plot",
    "score_figures",
    "slices_figures",
]

#: A heat map shows at most this many labels; beyond it the least frequent are folded into one "other" row and
#: column, so a 1,000-label matrix stays readable (the JSON and CSV keep every non-zero cell).
MAX_HEAT_LABELS = MAX_SHOWN_LABELS

#: A dot plot shows at most this many rows (the weakest, as it is sorted to show the weak ones first).
MAX_DOT_ROWS = 150


@dataclass(frozen=True)
class HeatMap:
    """A confusion matrix to draw as a heat map, rows gold and columns predicted.

    Attributes
    ----------
    key, title, caption
        A file-name-safe name, a heading, and a sentence saying what the cells hold.
    labels
        The row and column labels, most frequent gold label first (multi-label: ``∅`` last).
    cells
        The counts shown, and coloured in the count and row views; row i adds up to label i's gold
        frequency (in a multi-label split-count matrix, its gold-row view).
    column_cells
        The counts that the column (precision) view divides by their column sums; the same as
        ``cells`` for single-label data, the predicted-column view for multi-label data.
    folded
        How many labels were folded into the last row and column ("other"); 0 when none were.
    """

    key: str
    title: str
    caption: str
    labels: tuple[str, ...]
    cells: np.ndarray
    column_cells: np.ndarray
    folded: int = 0

    def shares(self, view: str) -> np.ndarray:
        """The cells as shares: ``count`` of the largest cell, ``row`` of each row's sum (the recall view:
        the diagonal is each label's recall), ``column`` of each column's sum (the precision view). A row
        or column that adds up to 0 has shares 0.

        >>> HeatMap("m", "", "", ("a", "b"), np.array([[3, 1], [0, 4]]), np.array([[3, 1], [0, 4]])).shares("row")
        array([[0.75, 0.25],
               [0.  , 1.  ]])
        """
        if view == "count":
            top = float(self.cells.max()) if self.cells.size else 0.0
            return self.cells / top if top > 0 else np.zeros(self.cells.shape)
        cells = self.cells if view == "row" else self.column_cells
        sums = cells.sum(axis=1 if view == "row" else 0, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(sums > 0, cells / np.where(sums > 0, sums, 1), 0.0)

    def defined(self, view: str) -> np.ndarray:
        """Where a cell has a share in ``view``: everywhere for counts; in a row (column) that adds up to more
        than 0 for the row (column) view — a label with no gold (predicted) instances has no recall (precision)."""
        if view == "count":
            return np.ones(self.cells.shape, dtype=bool)
        if view == "row":
            return np.broadcast_to(self.cells.sum(axis=1, keepdims=True) > 0, self.cells.shape)
        return np.broadcast_to(self.column_cells.sum(axis=0, keepdims=True) > 0, self.cells.shape)

    def shade(self, view: str) -> np.ndarray:
        """How dark each cell is drawn, in [0, 1]: the share itself in the row and column views, its square root in
        the count view (so that errors stay visible beside a large diagonal)."""
        shares = self.shares(view)
        return np.sqrt(shares) if view == "count" else shares


@dataclass(frozen=True)
class Point:
    """A value with its interval (``None`` bounds: no interval); a NaN value is undefined and not drawn."""

    value: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Series:
    """One kind of marker across the rows of a dot plot: ``marker`` is ``circle``, ``square``, ``diamond``,
    ``triangle`` or ``tick``; ``muted`` draws it small and grey (cross-validation folds)."""

    name: str
    marker: str
    points: tuple[Point | None, ...]
    muted: bool = False


@dataclass(frozen=True)
class DotPlot:
    """Rows of points with interval bars on one horizontal scale.

    Attributes
    ----------
    key, title, caption
        A file-name-safe name, a heading, and what the points and bars are.
    rows
        The row names, top to bottom.
    series
        The markers drawn on each row, each with one point (or ``None``) per row.
    low, high
        The scale's ends.
    reference
        A value marked by a vertical line (0 for differences), or ``None``.
    notes
        A short text per row shown at its right (a p-value), or empty.
    """

    key: str
    title: str
    caption: str
    rows: tuple[str, ...]
    series: tuple[Series, ...]
    low: float = 0.0
    high: float = 1.0
    reference: float | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Curve:
    """One line of a line plot: points (x, y) in order, and optionally a band (``low``, ``high`` at each x: a
    bootstrap band) and marker sizes (``sizes``: the instances behind each point of a reliability diagram)."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    sizes: tuple[int, ...] | None = None


@dataclass(frozen=True)
class LinePlot:
    """Curves on a unit square (ROC, precision-recall, reliability).

    Attributes
    ----------
    key, title, caption
        A file-name-safe name, a heading, and what the lines and bands are.
    x_label, y_label
        The axes' names.
    curves
        The lines, each with its name (the legend).
    diagonal
        Whether the line y = x is drawn (chance for ROC, perfect calibration for reliability).
    """

    key: str
    title: str
    caption: str
    x_label: str
    y_label: str
    curves: tuple[Curve, ...]
    diagonal: bool = False


Figure = HeatMap | DotPlot | LinePlot


def heat_map(scores: Scores, *, limit: int = MAX_HEAT_LABELS, key: str = "confusion", title: str = "") -> HeatMap:
    """The confusion heat map of a result: labels sorted by gold support; beyond ``limit`` labels, the least
    frequent folded into one ``other`` row and column."""
    confusion = scores.confusion
    assert confusion is not None, "a heat map of a result without a confusion matrix"
    split = isinstance(confusion, SplitMatrix)
    shown = shown_matrix(confusion, limit=limit)
    labels, cells, column_cells, folded = shown.labels, shown.cells, shown.column_cells, shown.folded
    what = (
        "split counts (Van Asch's multi-label confusion matrix): the count and row views show the gold-row view, "
        "whose rows add up to each label's gold frequency; the column view divides the predicted-column view by "
        "its column sums"
        if split
        else KINDS[scores.task].matrix_cells
    )
    caption = (
        f"Rows: gold; columns: predicted; labels sorted by gold support. Cells: {what}. The row view shows "
        "each row as shares of its gold total (the diagonal is recall); the column view shows shares of each "
        "predicted total (the diagonal is precision); a row or column with no instances has no shares (–)."
    )
    if folded:
        caption += (
            f" The {folded} least frequent labels are added up into 'other'; the CSV and JSON output keep every cell."
        )
    return HeatMap(
        key,
        title or ("split-count confusion matrix" if split else KINDS[scores.task].matrix_title),
        caption,
        labels,
        cells,
        column_cells,
        folded,
    )


def _point(scores: Scores, key: tuple[str, ...], value: float) -> Point:
    bounds = scores.intervals.get(key) if scores.intervals is not None else None
    return Point(value, *(bounds if bounds is not None else (None, None)))


def _weakest_first(labels: list[str], f_values: list[float], limit: int) -> tuple[list[str], int]:
    """Labels by F, lowest first (undefined first of all); the first ``limit``, and how many were left out."""
    order = sorted(range(len(labels)), key=lambda i: (not math.isnan(f_values[i]), f_values[i], i))
    return [labels[i] for i in order[:limit]], max(0, len(labels) - limit)


def per_label_plot(scores: Scores, *, limit: int = MAX_DOT_ROWS, key: str = "per-label") -> DotPlot:
    """Per-label precision, recall and F as a dot plot, weakest F first, with each score's interval."""
    f = f_title(scores.beta)
    word = KINDS[scores.task].label_word.removesuffix("s")  # label, type
    labels = list(scores.per_label)
    rows, hidden = _weakest_first(labels, [scores.per_label[lab].f for lab in labels], limit)
    series = tuple(
        Series(
            title,
            marker,
            tuple(_point(scores, ("per_label", lab, m), getattr(scores.per_label[lab], m)) for lab in rows),
        )
        for m, title, marker in (
            ("precision", "precision", "circle"),
            ("recall", "recall", "square"),
            ("f", f, "diamond"),
        )
    )
    iv = scores.intervals
    bars = (
        f"bars: {100 * iv.confidence:g}% {iv.method} intervals"
        if iv is not None
        else "no intervals (asked for with --ci)"
    )
    zd = (
        "left undefined and not drawn"
        if math.isnan(scores.zero_division)
        else f"drawn at {scores.zero_division:g} (--zero-division)"
    )
    caption = (
        f"Each {word}'s precision, recall and {f}, lowest {f} first; {bars}. A 0/0 score, named at the right of "
        f"its row, is {zd}."
    )
    if hidden:
        caption += f" The {hidden} {word}s with the highest {f} are left out; the tables list them all."
    names = {"precision": "precision", "recall": "recall", "f": f}
    zero = {m: set(labs) for m, labs in scores.undefined.items()}
    notes = tuple(
        ("0/0: " + ", ".join(names[m] for m in names if lab in zero.get(m, ())))
        if any(lab in zero.get(m, ()) for m in names)
        else ""
        for lab in rows
    )
    return DotPlot(key, f"per-{word} precision, recall and {f}", caption, tuple(rows), series, notes=notes)


def _difference_plot(cmp: Comparison) -> DotPlot:
    rows, points, notes = [], [], []
    for p in cmp.pairs:
        rows.append(f"{p.metric}: {p.a} − {p.b}")
        points.append(Point(p.difference, *(p.ci if p.ci is not None else (None, None))))
        notes.append(
            "no test"
            if math.isnan(p.p_adjusted)
            else f"p = {p.p_value:.2g}"
            + ("" if len(cmp.pairs) == 1 else f", Holm {p.p_adjusted:.2g}")
            + (" ✓" if p.significant else "")
        )
    series = (Series("A − B", "diamond", tuple(points)),)
    bars = (
        f"bars: {100 * cmp.confidence:g}% paired bootstrap intervals"
        if cmp.ci != "none"
        else "no intervals (asked for with --ci bootstrap)"
    )
    caption = (
        f"Each pair's difference A − B per metric; {bars}. At the right: the p-value ({cmp.test}) and, with "
        f"several comparisons, Holm's adjusted p-value; ✓ marks a difference that holds at α = {cmp.alpha:g}."
    )
    return DotPlot(
        "differences",
        "differences between systems",
        caption,
        tuple(rows),
        series,
        *_symmetric(_drawn(series)),
        0.0,
        tuple(notes),
    )


def _per_label_differences(cmp: Comparison, limit: int = MAX_DOT_ROWS) -> DotPlot:
    first = cmp.first
    f = f_title(first.beta)
    pairs = list(dict.fromkeys((p.a, p.b) for p in cmp.pairs))
    labels = list(first.per_label)
    gaps = {
        pair: [cmp.results[pair[0]].per_label[lab].f - cmp.results[pair[1]].per_label[lab].f for lab in labels]
        for pair in pairs
    }
    support = [first.per_label[lab].support for lab in labels]
    order = sorted(range(len(labels)), key=lambda i: (-support[i], i))[:limit]
    markers = ("circle", "square", "diamond", "triangle")
    series = tuple(
        Series(f"{a} − {b}", markers[n % len(markers)], tuple(Point(gaps[(a, b)][i]) for i in order))
        for n, (a, b) in enumerate(pairs)
    )
    caption = (
        f"Per-label {f} of A minus that of B, labels by gold support (most frequent first); no test is "
        "made per label — these show where the systems differ, not whether it holds."
    )
    if len(labels) > limit:
        caption += f" The {len(labels) - limit} least frequent labels are left out."
    return DotPlot(
        "per-label-differences",
        f"per-label {f} differences",
        caption,
        tuple(labels[i] for i in order),
        series,
        *_symmetric(_drawn(series)),
        0.0,
    )


def _fold_plot(cv: CrossValidation) -> DotPlot:
    pooled = cv.pooled
    f = f_title(pooled.beta)
    means = cv.mean_of_folds()
    rows: list[tuple[str, tuple[str, ...], float, float]] = [
        (f"{name} {f}", ("averages", name, "f"), means["averages"][name]["f"], means["averages"][name]["f_sd"])
        for name in pooled.averages
    ]
    if "accuracy" in means:  # spans have no accuracy
        accuracy = MEASURES["accuracy"].title_for(pooled.family)
        rows.append((accuracy, ("accuracy",), means["accuracy"], means["accuracy_sd"]))

    def value(result: Scores, key: tuple[str, ...]) -> float:
        return result.averages[key[1]][key[2]] if key[0] == "averages" else result.accuracy

    folds = tuple(
        Series(f"fold {name}", "circle", tuple(Point(value(fold, key)) for _, key, _, _ in rows), True)
        for name, fold in zip(cv.fold_names, cv.folds)
    )
    pooled_series = Series("pooled", "diamond", tuple(_point(pooled, key, value(pooled, key)) for _, key, _, _ in rows))
    mean_series = Series(
        "mean of folds ± sd",
        "tick",
        tuple(
            Point(mean, *((mean - sd, mean + sd) if not math.isnan(sd) else (None, None))) for _, _, mean, sd in rows
        ),
    )
    bars = (
        f"; the pooled bars are {100 * pooled.intervals.confidence:g}% {pooled.intervals.method} intervals"
        if pooled.intervals is not None
        else ""
    )
    caption = (
        f"Grey dots: each fold's own score; diamond: pooled (the folds' counts added, then scored — the value "
        f"to report); tick: the mean of the folds' scores, its bar ± one standard deviation{bars}."
    )
    series = (*folds, mean_series, pooled_series)
    low, high = _zoomed(_drawn(series))
    if (low, high) != (0.0, 1.0):
        caption += f" The scale runs from {low:g} to {high:g}."
    return DotPlot("folds", "folds, pooled and mean of folds", caption, tuple(r[0] for r in rows), series, low, high)


def _drawn(series: Sequence[Series]) -> list[float]:
    """Every finite value and interval end that ``series`` draw: what a scale must hold."""
    return [
        x
        for s in series
        for p in s.points
        if p is not None
        for x in (p.value, p.low, p.high)
        if x is not None and not math.isnan(x)
    ]


def _symmetric(values: list[float]) -> tuple[float, float]:
    """A scale centred on 0 that holds every value with a tenth to spare (at least ±0.0011).

    >>> _symmetric([0.2, -0.05])
    (-0.22000000000000003, 0.22000000000000003)
    """
    span = max([abs(x) for x in values] + [1e-3])
    return -1.1 * span, 1.1 * span


def _zoomed(values: list[float], step: float = 0.05) -> tuple[float, float]:
    """A scale in [0, 1] around ``values``, its ends on multiples of ``step``, at least two steps wide.

    >>> _zoomed([0.71, 0.83])
    (0.65, 0.9)
    """
    if not values:
        return 0.0, 1.0
    low = max(0.0, math.floor((min(values) - step / 2) / step) * step)
    high = min(1.0, math.ceil((max(values) + step / 2) / step) * step)
    if high - low < 2 * step:
        low, high = max(0.0, low - step), min(1.0, high + step)
    return round(low, 10), round(high, 10)


def _heat_maps(scores: Scores, title: str = "") -> list[Figure]:
    """The result's heat map, or none when its kind of counts has no confusion matrix."""
    return [] if scores.confusion is None else [heat_map(scores, title=title)]


def score_figures(scores: Scores) -> list[Figure]:
    """A score's figures: its heat map and per-label plot."""
    return [*_heat_maps(scores), per_label_plot(scores)]


def comparison_figures(cmp: Comparison) -> list[Figure]:
    """A comparison's figures: the differences and the per-label differences."""
    return [_difference_plot(cmp), _per_label_differences(cmp)]


def cv_figures(cv: CrossValidation) -> list[Figure]:
    """A cross-validation's figures: the fold plot, then the pooled heat map and per-label plot."""
    return [_fold_plot(cv), *_heat_maps(cv.pooled, title="pooled confusion matrix"), per_label_plot(cv.pooled)]


#: Classes whose curves a scored result draws (one line each; beyond, the most frequent).
MAX_CURVES = 10
#: Bootstrap draws behind a ROC curve's band, and the false positive rates it is drawn at.
BAND_DRAWS, BAND_GRID = 200, 101


def _roc_band(r: Any, c: int) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]] | None:
    """The pointwise percentile band of a score column's ROC curve over count-bootstrap draws (seeded by the
    result's bootstrap seed; whole blocks when the result has blocks), at :data:`BAND_GRID` false positive rates;
    ``None`` without a bootstrap."""
    from clfeval.scoring.ranking import roc_curve

    m = r.interval_method
    if m is None or m.get("method") not in ("bootstrap", "bootstrap-bca"):
        return None
    from clfeval.infer.scored import resampled_counts

    rng = np.random.default_rng([int(m["seed"]), c])
    grid = np.linspace(0.0, 1.0, BAND_GRID)
    blocks = r.blocks
    if blocks is not None:
        rows, order = blocks.rows(r.counts)
    drawn = []
    for _ in range(BAND_DRAWS):  # the draws of the count bootstrap (resampled_counts), one at a time
        draw = (
            r.counts.with_counts(resampled_counts(rng, r.counts.count, 1)[0])
            if blocks is None
            else rows.with_counts(blocks.drawn(rng)[0][order])
        )
        fpr, tpr, _ = roc_curve(draw, c)
        if np.isnan(fpr).any() or np.isnan(tpr).any():
            continue
        drawn.append(np.interp(grid, fpr, tpr))
    if len(drawn) < BAND_DRAWS // 2:
        return None
    alpha = 1 - float(m["confidence"])
    low, high = np.quantile(np.array(drawn), [alpha / 2, 1 - alpha / 2], axis=0)
    return tuple(grid.tolist()), tuple(low.tolist()), tuple(high.tolist())


def _shown_columns(r: Any) -> list[int]:
    support = r.counts.support()
    order = sorted(range(len(r.counts.columns)), key=lambda c: -support[r.counts.labels.index(r.counts.columns[c])])
    return sorted(order[:MAX_CURVES])


def scored_figures(r: Any) -> list[Figure]:
    """A scored result's figures: the ROC curves (with the bootstrap band when the result has bootstrap intervals),
    the precision-recall curves, and the reliability diagram with the instances in each bin."""
    from clfeval.scoring.ranking import pr_curve, roc_curve

    columns = _shown_columns(r)
    left = len(r.counts.columns) - len(columns)
    more = f" The {left} least frequent classes are left out; the JSON has every curve." if left else ""
    roc_curves, pr_curves = [], []
    banded = False
    for c in columns:
        name = r.counts.columns[c]
        fpr, tpr, _ = roc_curve(r.counts, c)
        band = _roc_band(r, c) if len(columns) <= 3 else None
        auc = r.values.get(f"per_label.{name}.auc", float("nan"))
        label = f"{name} (AUC {auc:.3f})"
        if band is not None:
            banded = True
            roc_curves.append(Curve(label, tuple(fpr.tolist()), tuple(tpr.tolist())))
            roc_curves.append(Curve(f"{name} band", band[0], band[1], band[1], band[2]))
        else:
            roc_curves.append(Curve(label, tuple(fpr.tolist()), tuple(tpr.tolist())))
        precision, recall, _ = pr_curve(r.counts, c)
        ap = r.values.get(f"per_label.{name}.average_precision", float("nan"))
        pr_curves.append(
            Curve(
                f"{name} (AP {ap:.3f})",
                tuple(np.r_[0.0, recall].tolist()),
                tuple(np.r_[precision[:1], precision].tolist()),
            )
        )
    what = "the positive class's score" if r.counts.binary else "each class's score against the rest"
    band_text = (
        f" The shaded band: the pointwise {100 * r.interval_method['confidence']:g}% interval of the true positive "
        f"rate over {BAND_DRAWS} count-bootstrap draws (seed {r.interval_method['seed']})."
        if banded
        else ""
    )
    figures: list[Figure] = [
        LinePlot(
            "roc",
            "ROC curves",
            f"True against false positive rate as the threshold on {what} falls; the diagonal is chance; ties count "
            f"½ (the curve runs straight through tied scores).{band_text}{more}",
            "false positive rate",
            "true positive rate",
            tuple(roc_curves),
            diagonal=True,
        ),
        LinePlot(
            "precision-recall",
            "precision-recall curves",
            f"Precision against recall at each distinct threshold of {what}, highest first; AP is the step-wise "
            f"average precision.{more}",
            "recall",
            "precision",
            tuple(pr_curves),
        ),
    ]
    cal = r.calibration
    if cal is not None:
        filled = cal.n > 0
        target = "the positive class's probability" if cal.target == "positive" else "the top label's probability"
        figures.append(
            LinePlot(
                "reliability",
                "reliability diagram",
                f"The share right against the mean confidence in each of {len(cal.n)} {cal.binning} bins of {target}; "
                "a point's size grows with the instances in its bin (given in its tooltip and the table); the "
                f"diagonal is perfect calibration. ECE {r.values['ece']:.4f}.",
                "mean confidence",
                "share right",
                (
                    Curve(
                        "bins",
                        tuple(cal.confidence[filled].tolist()),
                        tuple(cal.accuracy[filled].tolist()),
                        sizes=tuple(int(x) for x in cal.n[filled]),
                    ),
                ),
                diagonal=True,
            )
        )
    return figures


def scored_comparison_figures(cmp: Any) -> list[Figure]:
    """A comparison of scored predictions: every system's ROC curve on one plot (multi-class: the curve of every
    (instance, class) pair pooled, the micro AUC's)."""
    from clfeval.scoring.ranking import micro_roc_curve

    curves = []
    for name in cmp.systems:
        r = cmp.results[name]
        fpr, tpr = micro_roc_curve(r.counts)
        auc = r.values.get("auc", r.values.get("micro.auc", float("nan")))
        curves.append(Curve(f"{name} (AUC {auc:.3f})", tuple(fpr.tolist()), tuple(tpr.tolist())))
    what = (
        "the positive class's score"
        if cmp.results[cmp.systems[0]].counts.binary
        else ("every (instance, class) pair pooled (the micro AUC's curve)")
    )
    return [
        LinePlot(
            "roc",
            "ROC curves of the systems",
            f"True against false positive rate as the threshold on {what} falls, one line per system; the diagonal is "
            "chance.",
            "false positive rate",
            "true positive rate",
            tuple(curves),
            diagonal=True,
        )
    ]


def scored_cv_figures(cv: Any) -> list[Figure]:
    """A cross-validation of scored predictions: the pooled result's figures."""
    return scored_figures(cv.pooled)


def _scale(values: list[float]) -> tuple[float, float]:
    """A scale for scores: :func:`_zoomed` within [0, 1], else the values' range with a tenth to spare."""
    if not values:
        return 0.0, 1.0
    if min(values) >= 0.0 and max(values) <= 1.0:
        return _zoomed(values)
    low, high = min(values), max(values)
    pad = 0.1 * (high - low) or 0.05 * max(abs(low), 1.0)
    return low - pad, high + pad


def _forest_plot(r: Sliced, metric: str) -> DotPlot:
    """A forest plot of one score: each group's value with its interval, the whole data's in the first row and as
    the dashed line, the largest gap's two ends named at the right."""
    largest = next((g for g in r.gaps if g.metric == metric and g.between == "max"), None)
    notes = {}
    if largest is not None:
        bounds = largest.difference_ci
        gap = f"{largest.difference:.3g}" + (f" [{bounds[0]:.3g}, {bounds[1]:.3g}]" if bounds is not None else "")
        notes[largest.a] = f"highest · largest gap {gap}"
        notes[largest.b] = "lowest"
    rows = ("overall", *r.names)
    points = [Point(r.value(g, metric), *(r.interval_of(g, metric) or (None, None))) for g in rows]
    series = (
        Series("overall", "diamond", (points[0], *(None for _ in r.names))),
        Series(f"{metric}, each group", "circle", (None, *points[1:])),
    )
    overall = r.value("overall", metric)
    low, high = _scale(_drawn(series))
    ci = r.gap_method["name"] != "none"
    bars = f"bars: {100 * float(r.gap_method['confidence']):g}% intervals" if ci else "no intervals (score with ci=)"
    caption = (
        f"Each group's {metric} (circles) and the whole data's (diamond, and the dashed line); {bars}. At the "
        "right: the ends of the largest gap, max − min"
        + (" with its group-stratified bootstrap interval" if ci and largest is not None else "")
        + f". The scale runs from {low:.3g} to {high:.3g}."
    )
    key = "forest-" + "".join(c if c.isalnum() or c in "-_" else "-" for c in metric)
    return DotPlot(
        key,
        f"{metric} by group",
        caption,
        rows,
        series,
        low,
        high,
        None if math.isnan(overall) else overall,
        tuple(notes.get(g, "") for g in rows),
    )


def slices_figures(r: Sliced) -> list[Figure]:
    """A result by group's figures: a forest plot of each score whose gaps it reads."""
    return [_forest_plot(r, metric) for metric in r.metrics]


def figures_of(result: Result) -> list[Figure]:
    """The figures of a result (:meth:`clfeval.result.Result.figures`): an :class:`OptionError` for a result
    without."""
    return result.figures()
