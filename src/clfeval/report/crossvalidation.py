"""Build a :class:`Report` from a :class:`CrossValidation`: pooled against mean of folds, each fold, the pooled
report."""

from __future__ import annotations

from functools import partial
from typing import Any

from clfeval.infer.crossvalidation import CrossValidation
from clfeval.kinds import KINDS
from clfeval.report.page import cv_page
from clfeval.report.rows import cv_rows
from clfeval.report.tables import Label, Report, Table, measure_title, score_report
from clfeval.report.view import View
from clfeval.scoring.measures import overall_measures
from clfeval.scoring.ratios import f_title

__all__ = ["cv_report"]


def cv_report(cv: CrossValidation, *, matrix: bool = True, measures: Any = None, verbose: bool = False) -> Report:
    """The tables and notes of a cross-validation report.

    Tables: each average's and each overall measure's pooled value beside the mean (± sd) of the folds'
    values and their difference (the measures ``measures`` names: :class:`~clfeval.report.view.View`); one row per
    fold (N, accuracy, each average's F); then the pooled score report. Notes say what moved a number, one line per
    choice; with ``verbose``, what pooled and mean of folds are, and every definition.
    """
    view = View.of(measures, verbose)
    f_name = f_title(cv.pooled.beta)
    beta = cv.pooled.beta
    means = cv.mean_of_folds()
    shown = view.averaged(cv.pooled)
    pairs = [(a, m) for a in cv.pooled.averages for m in shown]
    order = {pair: i for i, pair in enumerate(pairs)}
    rows = sorted(
        (r for r in cv.differences() if (r["average"], r["measure"]) in order),
        key=lambda r: order[(r["average"], r["measure"])],
    )
    overall = [
        (m.title_for(cv.pooled.family), cv.pooled.overall[m.name], means[m.name], means[f"{m.name}_sd"])
        for m in overall_measures(cv.pooled.family)
        if m.name in view.overall(cv.pooled)
    ]
    both = Table(
        "pooled (counts added, then scored) against the mean of the folds' scores",
        ("average", "measure", "pooled", "mean of folds", "sd", "pooled − mean"),
        tuple(
            (
                r["average"],
                measure_title(r["measure"], beta),
                r["pooled"],
                r["mean_of_folds"],
                means["averages"][r["average"]][f"{r['measure']}_sd"],
                r["difference"],
            )
            for r in rows
        )
        + tuple(("overall", title, pooled, mean, sd, pooled - mean) for title, pooled, mean, sd in overall),
        "cv",
    )
    names = list(cv.pooled.averages)
    accuracy = ("accuracy",) if "accuracy" in cv.pooled.overall else ()  # spans have none
    folds = Table(
        "folds",
        ("fold", "N", *accuracy, *(f"{name} {f_name}" for name in names)),
        tuple(
            (Label(name), fold.n_instances, *(fold.accuracy for _ in accuracy), *(fold.averages[a]["f"] for a in names))
            for name, fold in zip(cv.fold_names, cv.folds)
        ),
        "folds",
    )
    pooled = score_report(cv.pooled, matrix=matrix, measures=view)
    tables = [both, folds] + [Table(f"pooled: {t.title}", t.columns, t.rows, t.key, t.index) for t in pooled.tables]
    notes = [
        f"{len(cv.folds)} folds, {cv.pooled.n_instances} instances in all; every fold is scored over the pooled "
        "label set",
    ]
    if view.verbose:
        notes += [
            "pooled (F_tp,fp): tp, fp and fn added over the folds, then every measure computed once — the score "
            "of all N out-of-fold predictions as one test set (Forman & Scholz 2010; Van Asch §7)",
            "mean of folds (F_avg): each fold scored on its own, then the mean and sample standard deviation — the "
            "score on a test set of one fold's size, pulled down on small folds where a rare label is absent or "
            "never predicted; the sd is the spread of fold scores, not the standard error of either summary",
            "neither summary is unbiased (both are ratios of counts), and they differ even for folds of equal size "
            "and class balance, since F is not linear in the counts",
        ]
    else:
        notes.append(
            "pooled: the folds' counts added, then scored once; mean of folds: each fold scored, then averaged "
            "(sd: the spread of the folds' scores)"
        )
    notes += pooled.notes
    kind = KINDS[cv.pooled.task]
    title = (
        f"clfeval cv — {cv.pooled.task}, {len(cv.folds)} folds, {cv.pooled.n_instances} {kind.instances}, "
        f"{len(cv.pooled.labels)} {kind.label_word}"
    )
    return Report(
        title, tuple(tables), cv.warnings, tuple(notes), partial(cv_rows, cv), build_page=partial(cv_page, cv, view)
    )
