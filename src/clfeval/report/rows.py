"""Tidy rows: one row per number, a header row first, for the CSV renderer (and any program that wants them).

A score gives ``section,label,measure,value``; a cross-validation ``scope,average,measure,value``; a
comparison one row per (metric, pair). An undefined value is NaN here (the CSV renderer writes an empty cell).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clfeval.count.labelsets import SplitMatrix
from clfeval.report.matrix import nonzero_cells
from clfeval.scoring.measures import averaged_measures, count_names, label_measures
from clfeval.scoring.scores import Scores

if TYPE_CHECKING:
    from clfeval.infer.comparison import Comparison
    from clfeval.infer.crossvalidation import CrossValidation
    from clfeval.infer.slices import Sliced

__all__ = ["comparison_rows", "cv_rows", "score_rows", "slices_rows"]


def cv_rows(cv: CrossValidation) -> list[list[Any]]:
    """Rows ``scope,average,measure,value``: scope ``pooled``, ``mean_of_folds``, ``sd`` or ``fold:<name>``;
    average ``overall`` holds the overall measures (accuracy, Hamming loss, micro FPR, MCC, κ …); the first row after
    the header, scope ``signature``, holds the result's :attr:`~clfeval.result.Result.signature`."""
    rows: list[list[Any]] = []
    rows.append(["scope", "average", "measure", "value"])
    rows.append(["signature", "", "", cv.signature])
    fk = cv.pooled.f_name
    overall = [m.name for m in cv.pooled.given_overall()]
    means = cv.mean_of_folds()
    for scope, result in [("pooled", cv.pooled)] + [(f"fold:{n}", f) for n, f in zip(cv.fold_names, cv.folds)]:
        for name, values in result.averages.items():
            for m in averaged_measures(result.family):
                rows.append([scope, name, fk if m == "f" else m, values[m]])
        for m in overall:
            rows.append([scope, "overall", m, result.overall[m]])
    for name, values in means["averages"].items():
        for m in averaged_measures(cv.pooled.family):
            rows.append(["mean_of_folds", name, fk if m == "f" else m, values[m]])
            rows.append(["sd", name, fk if m == "f" else m, values[f"{m}_sd"]])
    for m in overall:
        rows.append(["mean_of_folds", "overall", m, means[m]])
        rows.append(["sd", "overall", m, means[f"{m}_sd"]])
    return rows


def comparison_rows(cmp: Comparison) -> list[list[Any]]:
    """One row per (metric, pair): ``metric,a,b,score_a,score_b,difference,ci_low,ci_high,p_value,p_adjusted,
    significant,exact,rounds,test,alternative,seed``; an undefined value is an empty cell."""
    rows: list[list[Any]] = []
    rows.append(
        [
            "metric",
            "a",
            "b",
            "score_a",
            "score_b",
            "difference",
            "ci_low",
            "ci_high",
            "p_value",
            "p_adjusted",
            "significant",
            "exact",
            "rounds",
            "test",
            "alternative",
            "seed",
        ]
    )
    for p in cmp.pairs:
        low, high = (p.ci[0], p.ci[1]) if p.ci is not None else ("", "")
        rows.append(
            [
                p.metric,
                p.a,
                p.b,
                p.score_a,
                p.score_b,
                p.difference,
                low,
                high,
                p.p_value,
                p.p_adjusted,
                p.significant,
                p.exact,
                "" if p.rounds is None else p.rounds,
                cmp.test,
                cmp.alternative,
                "" if cmp.seed is None else cmp.seed,
            ]
        )
    return rows


def score_rows(scores: Scores, matrix: bool = True) -> list[list[Any]]:
    """Rows ``section,label,measure,value``.

    Sections: ``per_label`` (label = the label), ``average`` (label = the average's JSON
    name), ``overall`` and ``confusion_matrix`` (label = gold label, measure = predicted label;
    multi-label adds ``confusion_matrix_predicted_view``). An undefined value is an empty cell.
    With intervals, each score's row is followed by ``<measure>_ci_low`` and ``<measure>_ci_high``
    rows (empty when it has no interval; per-label precision and recall add ``_wilson_ci_``
    rows), and ``ci`` rows name the method, confidence, resamples and seed. A ``signature`` row holds the result's
    :attr:`~clfeval.result.Result.signature`.
    """
    rows: list[list[Any]] = []
    rows.append(["section", "label", "measure", "value"])
    fk = scores.f_name
    iv = scores.intervals

    def row(section: str, label: str, measure: str, value: Any, key: tuple[str, ...]) -> None:
        name = fk if measure == "f" else measure
        rows.append([section, label, name, value])
        if iv is None or measure in ("support", "predicted", "tp", "fp", "fn", "tn"):
            return
        extra = [(name, key)]
        if key[0] == "per_label" and measure in ("precision", "recall"):
            extra.append((f"{measure}_wilson", key[:2] + (f"{measure}_wilson",)))
        for title, k in extra:
            bounds = iv.get(k)
            rows.append([section, label, f"{title}_ci_low", "" if bounds is None else bounds[0]])
            rows.append([section, label, f"{title}_ci_high", "" if bounds is None else bounds[1]])

    for lab, r in scores.per_label.items():
        for measure in count_names(scores.family):
            row("per_label", lab, measure, getattr(r, measure), ("per_label", lab, measure))
        for m in label_measures(scores.family):
            row("per_label", lab, m.name, r[m.name], ("per_label", lab, m.name))
    for name, values in scores.averages.items():
        for measure in averaged_measures(scores.family):
            row("average", name, measure, values[measure], ("averages", name, measure))
    for m in scores.given_overall():
        row("overall", "", m.name_for(scores.family), scores.overall[m.name], (m.name,))
    if iv is not None:
        for key, value in (
            ("method", iv.method),
            ("confidence", iv.confidence),
            ("resamples", iv.resamples),
            ("seed", iv.seed),
        ):
            rows.append(["ci", "", key, "" if value is None else value])
    rows.append(["signature", "", "", scores.signature])
    confusion = scores.confusion
    if not matrix or confusion is None:
        return rows
    cells = nonzero_cells(confusion)  # a row per non-zero cell: a cell left out is 0
    split = isinstance(confusion, SplitMatrix)
    sections = ("confusion_matrix", "confusion_matrix_predicted_view") if split else ("confusion_matrix",)
    for view, section in enumerate(sections):
        rows.extend([section, g, p, values[view]] for g, p, values in cells)
    return rows


def slices_rows(r: Sliced) -> list[list[Any]]:
    """Rows ``section,group,name,value``, every number of a result by group: section ``overall`` (group empty) and
    ``by_group`` (group = the group), name a score's flat name (``macro.f1``, ``per_label.<label>.f1``, with
    ``_ci_low`` and ``_ci_high`` beside it when there are intervals); ``gap`` and ``ratio`` (group = ``max``,
    ``<a>_vs_<b>`` or ``<a>_vs_rest``, name = the metric, with its interval's ends); ``p`` and ``p_holm`` (group =
    the pair); ``fairness`` (group empty: a summary and its interval's ends; group = a group: its rates); ``count``
    (``n_instances``, ``n_groups``); and a ``signature`` row. An undefined value is an empty cell."""
    rows: list[list[Any]] = [["section", "group", "name", "value"]]
    rows.append(["count", "", "n_instances", r.n_instances])
    rows.append(["count", "", "n_groups", len(r.names)])
    for name, value in r.overall.flat(".", per_label=True).items():
        rows.append(["overall", "", name, value])
    for group, result in r.by_group.items():
        for name, value in result.flat(".", per_label=True).items():
            rows.append(["by_group", group, name, value])
    for gap in r.gaps:
        for section, value, bounds in (("gap", gap.difference, gap.difference_ci), ("ratio", gap.ratio, gap.ratio_ci)):
            rows.append([section, gap.name, gap.metric, value])
            if bounds is not None:
                rows.append([section, gap.name, f"{gap.metric}_ci_low", bounds[0]])
                rows.append([section, gap.name, f"{gap.metric}_ci_high", bounds[1]])
    for test in r.tests:
        rows.append(["p", f"{test.a}_vs_{test.b}", test.metric, test.p_value])
        rows.append(["p_holm", f"{test.a}_vs_{test.b}", test.metric, test.p_holm])
    if r.fairness is not None:
        for name, entry in r.fairness["summaries"].items():
            rows.append(["fairness", "", name, entry["value"]])
            if entry["ci"] is not None:
                rows.append(["fairness", "", f"{name}_ci_low", entry["ci"][0]])
                rows.append(["fairness", "", f"{name}_ci_high", entry["ci"][1]])
        for group, rates in r.fairness["by_group"].items():
            rows.extend(["fairness", group, rate, value] for rate, value in rates.items())
    rows.append(["signature", "", "", r.signature])
    return rows
