"""Build a :class:`Report` from a :class:`~clfeval.scoring.scored.Scored` result: how the scores rank (AUC and average
precision per class and averaged), how good they are as probabilities (log loss, Brier, calibration, top-k), the
reliability diagram as a table, then the label report at the threshold; notes name every convention."""

from __future__ import annotations

from typing import Any

from clfeval.report.tables import Bounds, Label, Report, Table, score_report
from clfeval.scoring import probability, ranking
from clfeval.scoring.scored import Scored

__all__ = ["scored_report"]

_TITLES = {
    "log_loss": "log loss",
    "brier": "Brier score",
    "ece": "ECE (expected calibration error)",
    "mce": "MCE (maximum calibration error)",
    "ece_debiased": "ECE, debiased",
    "ece_classwise": "class-wise ECE",
}
#: Multi-label averages' row titles.
_LABEL_AVERAGE_TITLES = {
    "macro": "macro",
    "weighted": "weighted by support",
    "micro": "micro (pairs pooled)",
    "samples": "samples (instances)",
}
_RANKING_TITLES = {
    "lrap": "label ranking AP (LRAP)",
    "coverage_error": "coverage error",
    "ranking_loss": "ranking loss",
}

#: The averaged AUCs' row titles (their definitions are in the notes).
_AVERAGE_TITLES = {
    "macro": "macro (one-vs-rest mean)",
    "weighted": "weighted (by gold support)",
    "micro": "micro (pairs pooled)",
    "ovo": "ovo (Hand & Till)",
    "ovo_weighted": "ovo, weighted by prevalence",
}


def _cell(r: Scored, name: str) -> tuple[Any, ...]:
    value = r.values[name]
    if not r.intervals and r.interval_method is None:
        return (value,)
    bounds = r.intervals.get(name)
    return (value, Bounds(*bounds) if bounds is not None else Bounds(None, None))


def scored_report(r: Scored, *, matrix: bool = True, **_: Any) -> Report:
    """The tables and notes of a scored result (``matrix`` applies to the label report at the threshold)."""
    with_ci = r.interval_method is not None
    ci = ("95% CI",) if with_ci else ()
    if with_ci and r.interval_method is not None:
        ci = (f"{100 * r.interval_method['confidence']:g}% CI",)
    support = dict(zip(r.counts.labels, (int(x) for x in r.counts.support())))
    rows = []
    for c in r.counts.columns:
        rows.append(
            (
                Label(c),
                support[c],
                *_cell(r, f"per_label.{c}.auc"),
                *_cell(r, f"per_label.{c}.average_precision"),
            )
        )
    multilabel = r.counts.multilabel
    columns = ("label" if multilabel else "class", "support", "AUC", *ci, "average precision", *ci)
    if r.counts.binary:
        title = f"ranking of the positive class {r.counts.columns[0]!r}"
    elif multilabel:
        title = "ranking, each label's instances against the others (support: instances with the label)"
    else:
        title = "ranking, each class against the rest"
    tables = [Table(title, columns, tuple(rows), "per_label")]
    if multilabel:
        averaged = [
            (Label(f"{what}, {_LABEL_AVERAGE_TITLES[a]}"), *_cell(r, f"{a}.{name}"))
            for name, what in (("auc", "AUC"), ("average_precision", "AP"))
            for a in _LABEL_AVERAGE_TITLES
        ]
        averaged += [(Label(_RANKING_TITLES[m]), *_cell(r, m)) for m in _RANKING_TITLES]
        tables.append(Table("averaged over the labels and instances", ("average", "value", *ci), tuple(averaged),
                            "averages"))  # fmt: skip
    elif not r.counts.binary:
        averaged = [(Label(f"AUC, {_AVERAGE_TITLES[a]}"), *_cell(r, f"{a}.auc")) for a in ranking.AUC_AVERAGES]
        averaged.append((Label("average precision, macro"), *_cell(r, "macro.average_precision")))
        tables.append(Table("averaged over the classes", ("average", "value", *ci), tuple(averaged), "averages"))
    if r.probabilities:
        rows2 = [(Label(_TITLES[m]), *_cell(r, m)) for m in _TITLES if m in r.values]
        rows2 += [
            (Label(f"top-{name.split('_')[1]} accuracy"), *_cell(r, name))
            for name in r.values
            if name.startswith("top_")
        ]
        tables.append(Table("as probabilities", ("score", "value", *ci), tuple(rows2), "probability"))
        cal = r.calibration
        if cal is not None:
            bins = tuple(
                (
                    f"({cal.edges[i]:.3g}, {cal.edges[i + 1]:.3g}]",
                    int(cal.n[i]),
                    float(cal.confidence[i]),
                    float(cal.accuracy[i]),
                )
                for i in range(len(cal.n))
                if cal.n[i]
            )
            what = (
                "probabilities of every (instance, label) pair"
                if multilabel
                else "positive class's probability"
                if cal.target == "positive"
                else "top-label confidence"
            )
            tables.append(
                Table(
                    f"reliability ({cal.binning} bins of the {what}; empty bins left out)",
                    ("bin", "instances", "mean confidence", "share right"),
                    bins,
                    "reliability",
                )
            )
    notes = _notes(r)
    if r.labels_at_threshold is not None:
        inner = score_report(r.labels_at_threshold, matrix=matrix)
        tables += [
            Table(f"at the threshold ({r.threshold}): {t.title}", t.columns, t.rows, t.key, t.index)
            for t in inner.tables
        ]
    kind = _kind(r.counts)
    title = f"clfeval score — scored predictions, {kind}, {r.n_instances} instances"

    def page() -> Any:
        from clfeval.report.page import scored_page

        return scored_page(r)

    return Report(title, tuple(tables), tuple(r.warnings), tuple(notes), build_page=page)


def _kind(counts: Any) -> str:
    """What the scores are, for a report's title."""
    if counts.binary:
        return "binary"
    if counts.multilabel:
        return f"multi-label, {len(counts.labels)} label{'s' if len(counts.labels) != 1 else ''}"
    return f"{len(counts.labels)} classes"


def _notes(r: Scored) -> list[str]:
    c = r.conventions
    notes = [
        "AUC: ties between a positive and a negative count ½ (midranks; independent of row order); average "
        "precision: step-wise, Σ (R_n − R_{n−1}) P_n over the thresholds (scikit-learn's), no interpolation",
    ]
    if r.counts.multilabel:
        from clfeval.scoring.labelranking import undefined_instances

        no_auc, no_ap = undefined_instances(r.counts)
        notes.append(
            "multi-label: each label's scores rank its instances against the others (macro: the mean over labels; "
            "weighted: by the instances with the label; micro: every (instance, label) pair pooled; AP: average "
            "precision); samples averages, label ranking average precision (1 for an instance without gold labels), "
            "coverage error and ranking loss (a tie of a gold and another label counts as wrong, as scikit-learn's) "
            "are per instance; AUC and "
            f"average precision per instance leave out instances where they are undefined: "
            f"{no_auc} without a gold label or with every label gold (AUC), "
            f"{no_ap} without a gold label (average precision)"
        )
    elif not r.counts.binary:
        notes.append("averaged AUC: " + "; ".join(f"{k}: {v}" for k, v in ranking.AUC_AVERAGES.items()))
    if r.probabilities and r.counts.multilabel:
        notes.append(
            "multi-label probabilities: log loss, Brier and calibration of every (instance, label) pair as a binary "
            "probability: log loss = mean binary cross-entropy over the pairs (clipped as below), Brier = mean "
            + (
                "2 (p − y)² over the pairs (--brier sum: both classes' squared errors)"
                if c.brier == "sum"
                else "(p − y)² over the pairs (scikit-learn's brier_score_loss of each label, averaged)"
            )
            + ", calibration bins of the pairs' probabilities"
        )
    if r.probabilities:
        notes += [
            f"log loss: probabilities clipped to [ε, 1 − ε], ε = {probability.LOG_LOSS_EPS:.6g} (float64's epsilon, "
            "whatever the input's dtype)",
            f"Brier: {c.brier} — {probability.BRIER_NORMALISATIONS[c.brier]}; here, {len(r.counts.labels)} "
            f"classes: {probability.brier_formula(c.brier, len(r.counts.labels))}"
            if not r.counts.multilabel
            else f"Brier: {c.brier} — of the (instance, label) pairs, each two classes",
            f"calibration: {c.bins} {c.binning} bins (a, b], 0 in the first; ECE = Σ (n_b/N)|ȳ_b − p̄_b|; the "
            "plug-in ECE is biased upward at small N, the debiased estimator beside it is not",
        ]
        if not r.counts.binary and not r.counts.multilabel:
            notes.append(f"top-k ties: {c.ties} — {probability.TIE_RULES[c.ties]}")
    elif c.lower_is_more_confident:
        notes.append(
            "lower is more confident (distances, costs): the scores were negated before anything was computed, so "
            "ranking only; thresholds are in the scores' own units"
        )
    elif c.not_probabilities:
        notes.append("the scores are declared not to be probabilities (--not-probabilities): ranking only")
    elif c.score_bins is not None:
        from clfeval.scoring.scored import auc_bin_bounds

        bounds = auc_bin_bounds(r.counts)
        shown = "; ".join(f"{k.removeprefix('per_label.')} ± {v:.4g}" for k, v in bounds.items() if k != "auc")
        notes.append(
            f"score bins: {c.score_bins} equal-width bins [k/N, (k+1)/N), each score replaced by its bin's lower edge "
            "(a fixed grid of thresholds, as torchmetrics' binned metrics use); every measure is of the binned "
            "scores, ranking only (the edges are no "
            "probabilities); a positive and a negative in one bin become a tie, so the exact AUC lies within the "
            f"bound of the binned one: {shown}"
        )
    else:
        notes.append("the scores are not probabilities (outside [0, 1], or rows that do not sum to 1): ranking only")
    if r.interval_method is not None:
        m = r.interval_method
        text = f"intervals: {100 * m['confidence']:g}% {m['method']} — {m['definition']}"
        if m.get("resamples"):
            text += f"; {m['resamples']} resamples, seed {m['seed']}"
        if m.get("n_blocks") is not None:
            text += f"; {m['n_blocks']} blocks, the independent units"
        notes.append(text)
    notes.append(
        f"labels at the threshold: {r.threshold} — the label report below scores the predictions the scores make"
    )
    return notes + list(r.notes)


def scored_comparison_report(cmp: Any, *, matrix: bool = True, **_: Any) -> Report:
    """The tables and notes of a comparison of scored predictions: each system's scores on the metrics, then each
    pair's test with Holm's adjustment."""
    from clfeval.report.tables import PValue

    scores = tuple((Label(s), *(cmp.results[s][m] for m in cmp.metrics)) for s in cmp.systems)
    tables = [Table("scores", ("system", *cmp.metrics), scores, "scores")]
    with_ci = any(p["ci"] is not None for p in cmp.pairs)
    rows = []
    for p in cmp.pairs:
        ci = (Bounds(*p["ci"]) if p["ci"] is not None else Bounds(None, None),) if with_ci else ()
        rows.append(
            (
                Label(p["metric"]),
                Label(p["a"]),
                Label(p["b"]),
                p["score_a"],
                p["score_b"],
                p["difference"],
                *ci,
                PValue(p["p_value"]),
                PValue(p["p_adjusted"]),
                "yes" if p["significant"] else "no",
            )
        )
    head = ("metric", "A", "B", "score A", "score B", "A − B", *((f"{100 * cmp.confidence:g}% CI",) if with_ci else ()))
    tables.append(
        Table(
            f"pairs ({cmp.test}, {cmp.alternative}; a difference holds when its Holm-adjusted p < {cmp.alpha:g})",
            (*head, "p", "p (Holm)", "holds"),
            tuple(rows),
            "pairs",
            3,
        )
    )
    line = f"test: {cmp.test} — {cmp.test_definition}"
    if cmp.rounds is not None:
        line += f"; {cmp.rounds} rounds, seed {cmp.seed}"
    if cmp.n_blocks is not None:
        counted = (
            f"{cmp.n_instances} instances in {cmp.n_blocks} blocks, the independent units "
            f"({cmp.distinct_rows} distinct rows within blocks)"
        )
    elif cmp.test != "delong":
        counted = (
            f"{cmp.n_instances} instances as {cmp.distinct_rows} distinct (gold, scores of every system) rows, which "
            "the rounds draw from"
        )
    else:
        counted = f"{cmp.n_instances} instances (DeLong's placements are computed once per distinct score)"
    notes = [line, counted, "Holm-adjusted over the pairs of each metric"]
    first = cmp.results[cmp.systems[0]]
    notes += [n for n in _notes(first) if not n.startswith(("intervals:", "labels at the threshold"))]
    kind = _kind(first.counts)
    title = f"clfeval compare — scored predictions, {kind}, {cmp.n_instances} instances, {len(cmp.systems)} systems"

    def page() -> Any:
        from clfeval.report.page import scored_comparison_page

        return scored_comparison_page(cmp)

    return Report(title, tuple(tables), (), tuple(notes), build_page=page)


def scored_cv_report(cv: Any, *, matrix: bool = True, **_: Any) -> Report:
    """The tables of a cross-validation of scored predictions: pooled against the mean of the folds (with the sd),
    each fold's headline scores, then the pooled report."""
    means = cv.mean_of_folds()
    rows = tuple(
        (Label(name), cv.pooled.values[name], mean, sd, cv.pooled.values[name] - mean)
        for name, (mean, sd) in means.items()
    )
    tables = [
        Table(
            "pooled (the folds' counts added, then scored) against the mean of the folds' scores",
            ("score", "pooled", "mean of folds", "sd", "pooled − mean"),
            rows,
            "cv",
        )
    ]
    head = [n for n in ("auc", "macro.auc", "average_precision", "log_loss", "brier", "ece") if n in cv.pooled.values]
    tables.append(
        Table(
            "folds",
            ("fold", "N", *head),
            tuple(
                (Label(name), f.n_instances, *(f.values.get(h, float("nan")) for h in head))
                for name, f in zip(cv.fold_names, cv.folds)
            ),
            "folds",
        )
    )
    pooled = scored_report(cv.pooled, matrix=matrix)
    tables += [Table(f"pooled: {t.title}", t.columns, t.rows, t.key, t.index) for t in pooled.tables]
    notes = [
        f"{len(cv.folds)} folds, {cv.pooled.n_instances} instances in all; pooled AUC ranks every fold's scores "
        "together (it assumes the folds' models score on one scale); the mean of folds scores each fold alone",
        *pooled.notes,
    ]
    kind = _kind(cv.pooled.counts)
    title = f"clfeval cv — scored predictions, {kind}, {len(cv.folds)} folds, {cv.pooled.n_instances} instances"

    def page() -> Any:
        from clfeval.report.page import scored_cv_page

        return scored_cv_page(cv)

    return Report(title, tuple(tables), tuple(cv.pooled.warnings), tuple(notes), build_page=page)
