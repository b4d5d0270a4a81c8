"""Tidy data frames of a result: named tables as columns, for :meth:`~clfeval.result.Result.to_polars` and
:meth:`~clfeval.result.Result.to_pandas`.

Each table is a mapping column name → values (a list or a numpy array), built when asked for; the frame libraries
are imported by the methods that return their frames, never here. The tables and their columns (docs/integrations.md):

=========================  ===============================================================================
result, table              columns
=========================  ===============================================================================
score ``per_label``        ``label``, ``support``, ``predicted``, ``tp``, ``fp``, ``fn``, ``tn``, then every
                           per-label measure (``precision``, ``recall``, ``f1`` (``f2`` … for another β),
                           ``specificity``, ``npv``, ``fpr``, ``fnr``, ``jaccard``)
score ``averages``         ``average``, then every averaged measure (``precision``, ``recall``, ``f1``,
                           ``specificity``, ``jaccard``)
score ``overall``          ``measure``, ``value``
score ``matrix``           ``gold``, ``pred``, ``count``: one row per non-zero cell (multi-label: the
                           gold-row view's ``count`` and the predicted-column view's ``count_predicted_view``)
score ``matrix_wide``      ``gold``, then one column per predicted label (multi-label: the gold-row view;
                           ``matrix_wide_predicted_view`` the other)
compare ``pairs``          one row per (metric, pair): ``metric``, ``a``, ``b``, ``score_a``, ``score_b``,
                           ``difference``, ``ci_low``, ``ci_high``, ``p_value``, ``p_adjusted``,
                           ``significant``, ``exact``, ``rounds``, ``test``, ``alternative``, ``seed``
compare ``scores``         ``system``, ``metric``, ``score``, ``rank``
cv ``folds``               one row per fold: ``fold``, ``n_instances``, then every metric by its report name
                           (``micro.f1``, ``macro.f1``, ``macro_fa.f1`` …, ``accuracy``, ``mcc`` …)
cv ``summary``             ``scope`` (``pooled``, ``mean_of_folds``, ``sd``), then the same metric columns
by group ``by_group``      one row per group (fairlearn's ``MetricFrame.by_group``): ``group``, each group
                           column's value (named by the column), ``n_instances``, then each gap metric by its
                           report name (``f1``, ``macro.f1``, ``accuracy`` …)
by group ``gaps``          one row per gap: ``metric``, ``between`` (``max``, ``rest``, ``pair``), ``a``, ``b``,
                           ``value_a``, ``value_b``, ``difference``, ``ratio`` (each with ``_ci_low`` and
                           ``_ci_high``), ``method``
by group ``tests``         one row per test: ``metric``, ``between``, ``a``, ``b``, ``difference``, ``p_value``,
                           ``p_holm``, ``significant``, ``test``
by group ``fairness``      one row per group: ``group``, ``selection_rate``, ``tpr``, ``fpr`` (of the positive
                           class; a binary problem of labels only); ``fairness_summaries``: ``summary``,
                           ``value``, ``ci_low``, ``ci_high``, one row per fairness summary
score of spans             also ``read``, ``span_errors``, ``modes`` and ``transitions``: the span tables of
                           the report (docs/spans.md)
any other result           its report's tables, by their keys (an interval cell as ``<column>_low`` and
                           ``<column>_high``)
=========================  ===============================================================================

With intervals, each score column of a score's tables (and the pooled row of cv's ``summary``) is followed by
``<column>_ci_low`` and ``<column>_ci_high`` (per-label precision and recall also by their Wilson intervals,
``precision_wilson_ci_low`` …); a score without an interval has NaN bounds. An undefined score is NaN.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import SplitMatrix
from clfeval.errors import OptionError
from clfeval.report.tables import Bounds, Label
from clfeval.result import Result
from clfeval.scoring.measures import averaged_measures, count_names, label_measures
from clfeval.scoring.metrics import metric_name
from clfeval.scoring.scores import Key, Scores

if TYPE_CHECKING:
    from clfeval.infer.comparison import Comparison
    from clfeval.infer.crossvalidation import CrossValidation
    from clfeval.infer.slices import Sliced

__all__ = [
    "MAX_WIDE_LABELS",
    "Columns",
    "Frames",
    "comparison_frames",
    "cv_frames",
    "report_frames",
    "score_frames",
    "scored_frames",
    "slices_frames",
]

#: A table: column name → values, every column the same length.
Columns = dict[str, Any]
#: The most labels a wide confusion matrix is built for (4·10⁶ cells); the long table has every non-zero cell.
MAX_WIDE_LABELS = 2_000


class Frames:
    """A result's tidy tables by name, each built when first asked for; ``default`` is the one a bare
    ``to_polars()`` gives."""

    def __init__(self, builders: Mapping[str, Callable[[], Columns]], default: str) -> None:
        self._builders = dict(builders)
        self.default = default

    @property
    def names(self) -> tuple[str, ...]:
        """The tables' names."""
        return tuple(self._builders)

    def columns(self, table: str | None = None) -> Columns:
        """The columns of ``table`` (the default one when ``None``); an unknown name lists the valid ones."""
        name = self.default if table is None else table
        if name not in self._builders:
            raise OptionError(f"unknown table {name!r}; this result has {', '.join(map(repr, self._builders))}")
        return self._builders[name]()


def _with_bounds(columns: Columns, name: str, values: list[float], bounds: list[tuple[float, float] | None]) -> None:
    """Add ``name`` and, when ``bounds`` is not empty, ``name_ci_low`` and ``name_ci_high`` (NaN for no interval)."""
    columns[name] = values
    if bounds:
        columns[f"{name}_ci_low"] = [math.nan if b is None else float(b[0]) for b in bounds]
        columns[f"{name}_ci_high"] = [math.nan if b is None else float(b[1]) for b in bounds]


def _bounds(scores: Scores, keys: list[Key]) -> list[tuple[float, float] | None]:
    iv = scores.intervals
    return [] if iv is None else [iv.get(k) for k in keys]


def _per_label(scores: Scores) -> Columns:
    labels = list(scores.per_label)
    rows = [scores.per_label[lab] for lab in labels]
    columns: Columns = {"label": labels}
    for count in count_names(scores.family):
        columns[count] = np.array([getattr(r, count) for r in rows], dtype=np.int64)
    for measure in label_measures(scores.family):
        name = scores.f_name if measure.name == "f" else measure.name
        values = [float(r.values[measure.name]) for r in rows]
        _with_bounds(columns, name, values, _bounds(scores, [("per_label", lab, measure.name) for lab in labels]))
    if scores.intervals is not None:
        for m in ("precision", "recall"):
            wilson = _bounds(scores, [("per_label", lab, f"{m}_wilson") for lab in labels])
            columns[f"{m}_wilson_ci_low"] = [math.nan if b is None else float(b[0]) for b in wilson]
            columns[f"{m}_wilson_ci_high"] = [math.nan if b is None else float(b[1]) for b in wilson]
    return columns


def _averages(scores: Scores) -> Columns:
    names = list(scores.averages)
    columns: Columns = {"average": names}
    for m in averaged_measures(scores.family):
        values = [float(scores.averages[a][m]) for a in names]
        _with_bounds(
            columns, scores.f_name if m == "f" else m, values, _bounds(scores, [("averages", a, m) for a in names])
        )
    return columns


def _overall(scores: Scores) -> Columns:
    measures = scores.given_overall()
    columns: Columns = {"measure": [m.name_for(scores.family) for m in measures]}
    values = [float(scores.overall[m.name]) for m in measures]
    _with_bounds(columns, "value", values, _bounds(scores, [(m.name,) for m in measures]))
    if "value_ci_low" in columns:
        columns["ci_low"], columns["ci_high"] = columns.pop("value_ci_low"), columns.pop("value_ci_high")
    return columns


def _matrix_of(scores: Scores) -> ConfusionCounts | SplitMatrix:
    """The result's confusion matrix; a kind of counts without one has no matrix tables."""
    if scores.confusion is None:
        raise OptionError(f"{scores.task} results have no confusion matrix: no table 'matrix'")
    return scores.confusion


def _matrix_long(scores: Scores) -> Columns:
    confusion = _matrix_of(scores)
    labels = np.array(confusion.labels, dtype=object)
    if isinstance(confusion, SplitMatrix):
        return {
            "gold": labels[confusion.gold].tolist(),
            "pred": labels[confusion.pred].tolist(),
            "count": np.asarray(confusion.gold_counts, dtype=np.float64),
            "count_predicted_view": np.asarray(confusion.predicted_counts, dtype=np.float64),
        }
    return {
        "gold": labels[confusion.gold].tolist(),
        "pred": labels[confusion.pred].tolist(),
        "count": np.asarray(confusion.count, dtype=np.int64),
    }


def _row_name(labels: tuple[str, ...]) -> str:
    """The name of the wide matrix's first column: ``gold``, with underscores before it while a label has it."""
    name = "gold"
    while name in labels:
        name = "_" + name
    return name


def _matrix_wide(scores: Scores, predicted_view: bool = False) -> Columns:
    confusion = _matrix_of(scores)
    labels = tuple(confusion.labels)
    if len(labels) > MAX_WIDE_LABELS:
        raise OptionError(
            f"a wide confusion matrix of {len(labels)} labels would hold {len(labels) ** 2:,} cells (at most "
            f"{MAX_WIDE_LABELS} labels are laid out wide): take the long table 'matrix', one row per non-zero cell"
        )
    if isinstance(confusion, SplitMatrix):
        cells: np.ndarray = confusion.predicted_view if predicted_view else confusion.gold_view
    else:
        cells = confusion.cells
    columns: Columns = {_row_name(labels): list(labels)}
    for j, label in enumerate(labels):
        columns[label] = cells[:, j]
    return columns


def score_frames(scores: Scores) -> Frames:
    """A score's tables: ``per_label`` (the default), ``averages``, ``overall``, ``matrix`` (long) and
    ``matrix_wide`` (multi-label also ``matrix_wide_predicted_view``)."""
    builders: dict[str, Callable[[], Columns]] = {
        "per_label": lambda: _per_label(scores),
        "averages": lambda: _averages(scores),
        "overall": lambda: _overall(scores),
    }
    if scores.confusion is not None:  # a kind of counts without a matrix has no matrix tables
        builders["matrix"] = lambda: _matrix_long(scores)
        builders["matrix_wide"] = lambda: _matrix_wide(scores)
    if isinstance(scores.confusion, SplitMatrix):
        builders["matrix_wide_predicted_view"] = lambda: _matrix_wide(scores, predicted_view=True)
    from clfeval.kinds import KINDS

    kind = KINDS.get(scores.task)
    if kind is not None and kind.report_tables is not None:  # the kind's own tables (spans: read, errors, modes …)
        module, _, function = kind.report_tables.partition(":")
        for table in getattr(importlib.import_module(module), function)(scores):
            rows = tuple(tuple(str(v) if isinstance(v, Label) else v for v in row) for row in table.rows)
            builders.setdefault(table.key, partial(_table_columns, table.columns, rows))
    return Frames(builders, "per_label")


def _blank(value: Any) -> Any:
    return None if isinstance(value, str) and value == "" else value


def _pairs(cmp: Comparison) -> Columns:
    from clfeval.report.rows import comparison_rows

    header, *rows = comparison_rows(cmp)
    columns: Columns = {name: [_blank(row[i]) for row in rows] for i, name in enumerate(header)}
    for name in ("score_a", "score_b", "difference", "ci_low", "ci_high", "p_value", "p_adjusted"):
        columns[name] = [math.nan if v is None else float(v) for v in columns[name]]
    return columns


def _systems(cmp: Comparison) -> Columns:
    columns: Columns = {"system": [], "metric": [], "score": [], "rank": []}
    for metric in cmp.metrics:
        for row in cmp.ranking(metric):
            columns["system"].append(row["system"])
            columns["metric"].append(metric)
            columns["score"].append(float(row["score"]))
            columns["rank"].append(row["rank"])
    return columns


def comparison_frames(cmp: Comparison) -> Frames:
    """A comparison's tables: ``pairs`` (the default; one row per (metric, pair)) and ``scores`` (one row per
    (system, metric), best first, with its rank)."""
    return Frames({"pairs": lambda: _pairs(cmp), "scores": lambda: _systems(cmp)}, "pairs")


def _metric_columns(scores: Scores) -> list[tuple[str, Key]]:
    """Every average's measures and every overall measure: (report name, score key)."""
    out: list[tuple[str, Key]] = [
        (metric_name(("averages", a, m), scores.beta), ("averages", a, m))
        for a in scores.averages
        for m in averaged_measures(scores.family)
    ]
    out += [(m.name_for(scores.family), (m.name,)) for m in scores.given_overall()]
    return out


def _folds(cv: CrossValidation) -> Columns:
    metrics = _metric_columns(cv.pooled)
    columns: Columns = {"fold": list(cv.fold_names), "n_instances": [f.n_instances for f in cv.folds]}
    for name, key in metrics:
        columns[name] = [f.value_at(key) for f in cv.folds]
    return columns


def _summary(cv: CrossValidation) -> Columns:
    pooled = cv.pooled
    means = cv.mean_of_folds()

    def summary(key: Key, suffix: str) -> float:
        if key[0] == "averages":
            return float(means["averages"][key[1]][key[2] + suffix])
        return float(means[key[0] + suffix])

    columns: Columns = {"scope": ["pooled", "mean_of_folds", "sd"]}
    for name, key in _metric_columns(pooled):
        columns[name] = [pooled.value_at(key), summary(key, ""), summary(key, "_sd")]
        if pooled.intervals is not None:
            bounds = pooled.intervals.get(key)
            low, high = (math.nan, math.nan) if bounds is None else (float(bounds[0]), float(bounds[1]))
            columns[f"{name}_ci_low"] = [low, math.nan, math.nan]
            columns[f"{name}_ci_high"] = [high, math.nan, math.nan]
    return columns


def cv_frames(cv: CrossValidation) -> Frames:
    """A cross-validation's tables: ``folds`` (the default; one row per fold) and ``summary`` (pooled, mean of
    folds and sd)."""
    return Frames({"folds": lambda: _folds(cv), "summary": lambda: _summary(cv)}, "folds")


def _unique(names: list[str]) -> list[str]:
    """Column names made distinct: a repeated one gets ``_2``, ``_3`` …"""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return out


def _table_columns(columns: tuple[str, ...], rows: tuple[tuple[Any, ...], ...]) -> Columns:
    """A report table as columns: an interval cell (:class:`Bounds`) as two columns, ``<column>_low`` and
    ``_high``."""
    names: list[str] = []
    cells: list[list[Any]] = []
    for i, title in enumerate(columns):
        values = [row[i] if i < len(row) else None for row in rows]
        if values and all(isinstance(v, Bounds) or v is None for v in values) and any(values):
            names += [f"{title}_low", f"{title}_high"]
            cells += [[None if v is None else v.low for v in values], [None if v is None else v.high for v in values]]
        else:
            names.append(title or f"column_{i + 1}")
            cells.append(values)
    return dict(zip(_unique(names), cells))


def report_frames(result: Result) -> Frames:
    """Any result's report tables as frames, by their keys (the first is the default)."""
    tables = result.report().tables
    if not tables:
        raise OptionError(f"a {result.kind} result has no tables")
    keys = _unique([t.key for t in tables])
    builders: dict[str, Callable[[], Columns]] = {
        key: partial(_table_columns, t.columns, t.rows) for key, t in zip(keys, tables)
    }
    return Frames(builders, keys[0])


def scored_frames(r: Any) -> Frames:
    """A scored result's tables: ``per_label`` (the default: class, support, ``auc``, ``average_precision``, each with
    ``_ci_low``/``_ci_high``), ``scores`` (every score by its report name, ``value``, ``ci_low``, ``ci_high``),
    ``reliability`` (the calibration bins) and, for the label report at the threshold, ``labels_per_label``,
    ``labels_averages`` and ``labels_overall``."""

    def per_label() -> Columns:
        support = r.counts.support()
        out: Columns = {"class": list(r.counts.columns), "support": []}
        for c in r.counts.columns:
            out["support"].append(int(support[r.counts.labels.index(c)]))
        for m in ("auc", "average_precision"):
            names = [f"per_label.{c}.{m}" for c in r.counts.columns]
            out[m] = [r.values[n] for n in names]
            out[f"{m}_ci_low"] = [r.intervals[n][0] if n in r.intervals else None for n in names]
            out[f"{m}_ci_high"] = [r.intervals[n][1] if n in r.intervals else None for n in names]
        return out

    def scores() -> Columns:
        names = [n for n in r.values if not n.startswith("per_label.")]
        return {
            "score": names,
            "value": [r.values[n] for n in names],
            "ci_low": [r.intervals[n][0] if n in r.intervals else None for n in names],
            "ci_high": [r.intervals[n][1] if n in r.intervals else None for n in names],
        }

    def reliability() -> Columns:
        cal = r.calibration
        return {
            "bin_low": cal.edges[:-1].tolist(),
            "bin_high": cal.edges[1:].tolist(),
            "n": cal.n.astype(np.int64).tolist(),
            "mean_confidence": cal.confidence.tolist(),
            "share_right": cal.accuracy.tolist(),
        }

    builders: dict[str, Callable[[], Columns]] = {"per_label": per_label, "scores": scores}
    if r.calibration is not None:
        builders["reliability"] = reliability
    if r.labels_at_threshold is not None:
        inner = score_frames(r.labels_at_threshold)
        for name in ("per_label", "averages", "overall"):
            builders[f"labels_{name}"] = partial(inner.columns, name)
    return Frames(builders, "per_label")


def _pair_columns(columns: Columns, name: str, bounds: list[tuple[float, float] | None]) -> None:
    columns[f"{name}_ci_low"] = [math.nan if b is None else float(b[0]) for b in bounds]
    columns[f"{name}_ci_high"] = [math.nan if b is None else float(b[1]) for b in bounds]


def _by_group(r: Sliced) -> Columns:
    names = list(r.names)
    group_columns = _unique(["group", *r.columns, "n_instances"])
    columns: Columns = {group_columns[0]: names}
    for i in range(len(r.columns)):
        columns[group_columns[1 + i]] = [values[i] for values in r.values]
    columns[group_columns[-1]] = np.array([r.by_group[g].n_instances for g in names], dtype=np.int64)
    with_ci = r.gap_method["name"] != "none"
    for metric in r.metrics:
        columns[metric] = [r.value(g, metric) for g in names]
        if with_ci:
            _pair_columns(columns, metric, [r.interval_of(g, metric) for g in names])
    return columns


def _gaps(r: Sliced) -> Columns:
    gaps = r.gaps
    columns: Columns = {name: [getattr(g, name) for g in gaps] for name in ("metric", "between", "a", "b")}
    columns["value_a"] = [float(g.value_a) for g in gaps]
    columns["value_b"] = [float(g.value_b) for g in gaps]
    columns["difference"] = [float(g.difference) for g in gaps]
    _pair_columns(columns, "difference", [g.difference_ci for g in gaps])
    columns["ratio"] = [float(g.ratio) for g in gaps]
    _pair_columns(columns, "ratio", [g.ratio_ci for g in gaps])
    columns["method"] = [g.method for g in gaps]
    return columns


def _tests(r: Sliced) -> Columns:
    tests = r.tests
    alpha = float(r.test_method["alpha"])
    columns: Columns = {name: [getattr(t, name) for t in tests] for name in ("metric", "between", "a", "b")}
    columns["difference"] = [float(t.difference) for t in tests]
    columns["p_value"] = [float(t.p_value) for t in tests]
    columns["p_holm"] = [float(t.p_holm) for t in tests]
    columns["significant"] = [bool(t.p_holm < alpha) for t in tests]  # NaN (no test) is not significant
    columns["test"] = [t.test for t in tests]
    return columns


def _fairness(r: Sliced) -> Columns:
    assert r.fairness is not None
    by_group = r.fairness["by_group"]
    columns: Columns = {"group": list(by_group)}
    for rate in ("selection_rate", "tpr", "fpr"):
        columns[rate] = [float(rates[rate]) for rates in by_group.values()]
    return columns


def _fairness_summaries(r: Sliced) -> Columns:
    assert r.fairness is not None
    summaries = r.fairness["summaries"]
    columns: Columns = {"summary": list(summaries), "value": [float(e["value"]) for e in summaries.values()]}
    _pair_columns(columns, "", [e["ci"] for e in summaries.values()])
    columns["ci_low"], columns["ci_high"] = columns.pop("_ci_low"), columns.pop("_ci_high")
    return columns


def slices_frames(r: Sliced) -> Frames:
    """A result by group's tables: ``by_group`` (the default; one row per group, as fairlearn's
    ``MetricFrame.by_group``), ``gaps``, ``tests`` and, for a binary problem with a positive class, ``fairness``
    (each group's rates) and ``fairness_summaries``."""
    builders: dict[str, Callable[[], Columns]] = {
        "by_group": lambda: _by_group(r),
        "gaps": lambda: _gaps(r),
        "tests": lambda: _tests(r),
    }
    if r.fairness is not None:
        builders["fairness"] = lambda: _fairness(r)
        builders["fairness_summaries"] = lambda: _fairness_summaries(r)
    return Frames(builders, "by_group")
