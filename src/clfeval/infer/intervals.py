"""Confidence intervals for every score of a result, by a named method (:data:`INTERVAL_METHODS`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from statistics import NormalDist

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.infer.bootstrap import bca_levels, bootstrap_replicates, column_quantiles, jackknife_moments
from clfeval.infer.delta import block_delta_variances, delta_variances, takahashi_variances
from clfeval.infer.methods import CI, INTERVAL_METHODS, LONG_WORK, IntervalMethod, check_interval_options, cost_note
from clfeval.infer.proportion import wilson_interval
from clfeval.infer.units import BlockUnits
from clfeval.scoring.averages import AVERAGED
from clfeval.scoring.computation import seen_labels
from clfeval.scoring.measures import MEASURES, Setting
from clfeval.scoring.scores import Intervals, Key, Scores
from clfeval.scoring.statistics import PER_LABEL_MEASURES, ScoreFunction

__all__ = [
    "CI",
    "INTERVAL_METHODS",
    "IntervalMethod",
    "LONG_WORK",
    "block_units",
    "check_interval_options",
    "cost_note",
    "with_intervals",
]


_MEASURE_WORDS = {name: m.title for name, m in MEASURES.items()}
_WHY = {name: m.undefined_when.replace("{label} is ", "") for name, m in MEASURES.items()}
#: (smallest gold support or number of predictions of a label, number of errors) below which simulation
#: (docs/coverage.md, "A warning rule on observed counts") found the method's intervals of averaged scores
#: covering less than their nominal level: what decides coverage is these counts, not N.
_FEW_COUNTS: Mapping[str, tuple[int, int]] = {
    "delta": (30, 50),
    "delta-logit": (30, 50),
    "bootstrap": (30, 50),
    "bootstrap-bca": (10, 10),
}


def _labels_text(labels: list[str]) -> str:
    shown = ", ".join(map(repr, labels[:3]))
    return shown + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")


def _boundary_reasons(scores: Scores, f: ScoreFunction) -> dict[Key, str]:
    """Scores that involve a 0/0 ratio at the estimate: they have no derivative there."""
    und = {m: set(labels) for m, labels in scores.undefined.items()}
    reasons: dict[Key, str] = {}
    for lab in scores.labels:
        for m in PER_LABEL_MEASURES:
            if lab in und[m]:
                reasons[("per_label", lab, m)] = f"{_MEASURE_WORDS[m]} of {lab!r} is 0/0 ({_WHY[m]})"
    weighted = {
        "macro": scores.labels,
        "macro_fa": scores.labels,
        "weighted": [lab for lab in scores.labels if scores.per_label[lab].support > 0],
        "lfb": [lab for lab in scores.labels if scores.lfb_frequencies[lab] > 0],
    }
    for name, members in weighted.items():
        for m in AVERAGED:
            parts = ["precision", "recall"] if (name, m) == ("macro_fa", "f") else [m]
            for part in parts:
                hit = [lab for lab in members if lab in und[part]]
                if hit and ("averages", name, m) not in reasons:
                    reasons[("averages", name, m)] = (
                        f"{_MEASURE_WORDS[part]} of {_labels_text(hit)} is 0/0 ({_WHY[part]})"
                    )
    rows = scores.per_label.values()
    summed = [np.asarray(float(sum(getattr(r, a) for r in rows))) for a in ("tp", "fp", "fn", "tn")]
    setting = Setting(scores.beta, 0.0, scores.task)
    for m in AVERAGED:
        if MEASURES[m].compute(*summed, setting)[1]:
            reasons[("averages", "micro", m)] = f"micro {_MEASURE_WORDS[m]} is 0/0"
    overall = f.evaluate(f.cells.sums(f.weights[None, :])).overall
    for name, (_, undefined) in overall.items():
        if undefined[0]:
            reasons[(name,)] = f"{MEASURES[name].title_for(scores.task)} is 0/0 ({MEASURES[name].undefined_when})"
    return reasons


def _range(key: Key, task: str) -> tuple[float, float]:
    """The range of the score at ``key`` (a Wald interval is clipped to it)."""
    return MEASURES[key[0] if len(key) == 1 else key[-1]].range_for(task)


def _closed_forms(scores: Scores) -> dict[Key, float]:
    """Takahashi et al.'s variances where they apply: single-label, β = 1, the label set is every class of
    the table and each is predicted and present."""
    counts = scores.counts
    if not isinstance(counts, ConfusionCounts) or scores.beta != 1:  # single-label counts only
        return {}
    gold, predicted = seen_labels(counts)
    if gold | predicted != set(scores.labels):
        return {}
    aligned = counts.with_labels(scores.labels)
    if (aligned.gold_totals == 0).any() or (aligned.pred_totals == 0).any() or len(scores.labels) < 2:
        return {}
    variances = takahashi_variances(aligned)
    return {("averages", name, "f"): v for name, v in variances.items()}


def _new_seed() -> int:
    return int(np.random.SeedSequence().generate_state(1)[0])


def block_units(f: ScoreFunction, counts: ConfusionCounts | LabelSetCounts, blocks: Blocks) -> BlockUnits:
    """The blocks of a result as resampling units over its score function's cell types."""
    if isinstance(counts, ConfusionCounts):
        order: list[tuple[object, object]] = [(g, p) for g, p, _ in counts.entries()]  # the order of CellTypes.of
    else:
        order = list(counts.pairs)
    index = {key: i for i, key in enumerate(order)}
    try:
        item = np.array([index[tuple(key)] for key in blocks.keys], dtype=np.int64)[blocks.row]
    except KeyError as exc:
        raise ValueError(f"the blocks hold a row the counts do not: {exc.args[0]!r}") from None
    return BlockUnits.of(f.cells.rows_of, f.cells.width, blocks.block, item, blocks.count, blocks.unit)


def with_intervals(
    scores: Scores,
    ci: str | CI | None = "delta",
    *,
    progress: Callable[[int, int], None] | None = None,
    blocks: Blocks | None = None,
) -> Scores:
    """``scores`` with a confidence interval for every score (a new frozen result).

    Parameters
    ----------
    scores
        A result of :func:`clfeval.score` and friends (its counts are what is resampled).
    ci
        The interval: a method's name from :data:`INTERVAL_METHODS` (``delta``, ``delta-logit``,
        ``bootstrap``, ``bootstrap-bca``; ``none`` removes intervals) or a :class:`CI` with its
        confidence level, resamples and seed.
    progress
        Called with (done, total) during long computations.
    blocks
        Instances grouped in blocks (sentences) whose instances are not independent: the
        bootstrap resamples whole blocks (BCa's jackknife leaves out whole blocks) and the delta
        method's variance is the cluster-robust one over blocks (:func:`block_delta_variances`).

    Returns
    -------
    Scores
        The same result with :attr:`Scores.intervals` set. Scores without an interval are
        listed with the reason in words; none is a silent NaN.

    Notes
    -----
    Per-label precision and recall also get Wilson score intervals (conditional on the number
    of predictions, or of gold occurrences). The delta method needs a derivative: a score
    that involves a 0/0 ratio at the estimate (a label never predicted, say) has none and is
    reported as not estimable; the bootstrap keeps such a label's value fixed, because a
    resample cannot predict a label the data never predicted.

    Examples
    --------
    Takahashi et al.'s example (their Table 1, transposed to rows = gold):

    >>> import clfeval
    >>> counts = clfeval.ConfusionCounts(("1", "2", "3"), [[2, 4, 1], [3, 70, 1], [1, 3, 15]])
    >>> r = with_intervals(clfeval.score(counts), "delta")
    >>> [round(x, 3) for x in r.intervals.get(("averages", "macro", "f"))]
    [0.562, 0.817]
    """
    chosen = CI.of(ci)
    if chosen is None:
        return replace(scores, intervals=None)
    method, confidence, resamples, seed = chosen.method, chosen.confidence, chosen.resamples, chosen.seed
    spec = INTERVAL_METHODS[method]
    f = ScoreFunction.of(scores)
    estimate = f.point()
    alpha = 1 - confidence
    z = NormalDist().inv_cdf(1 - alpha / 2)
    bounds: dict[Key, tuple[float, float]] = {}
    not_estimable: dict[Key, str] = {}
    remarks: dict[Key, str] = {}
    notes: list[str] = []
    used_seed = (_new_seed() if seed is None else int(seed)) if spec.resampling else None
    n = scores.n_instances
    long = cost_note(method, f.cells.n_types, len(f.cells.table), resamples if spec.resampling else 0)
    if long is not None and blocks is None:
        notes.append(long)
    units = block_units(f, scores.counts, blocks) if blocks is not None else None
    if units is not None:
        notes.append(
            f"resampling units: {units.unit} ({units.n_blocks} blocks, whose instances are not "
            "independent): "
            + (
                "the bootstrap draws whole blocks"
                if spec.resampling
                else "the delta method's variance is the cluster-robust one over blocks"
            )
        )

    if n < 2 or (units is not None and units.n_blocks < 2):
        for key in f.keys:
            not_estimable[key] = (
                f"N = {n}: one instance says nothing about the spread of a score"
                if n < 2
                else "one block says nothing about the spread of a score"
            )
    elif spec.resampling:
        assert used_seed is not None
        _bootstrap(f, estimate, method, resamples, used_seed, alpha, progress, bounds, not_estimable, remarks, units)
        fixed = _boundary_reasons(scores, f)
        if any(k[0] == "per_label" for k in fixed):
            notes.append(
                "labels with a 0/0 ratio in the data (never predicted, or absent from gold) keep it in "
                "every resample: a resample cannot predict what the data never predicted, so intervals "
                "treat those values as fixed"
            )
        if resamples < 1000:
            notes.append(f"only {resamples} resamples: the interval ends rest on few draws (default 10000)")
    else:
        if units is not None:
            variances = block_delta_variances(f, units)
            notes.append(
                "the generic delta method for every score, with blocks as the independent units "
                "(Takahashi et al.'s closed forms assume independent instances)"
            )
        else:
            variances = delta_variances(f, progress)
            closed = _closed_forms(scores)
            for key, value in closed.items():
                variances[f.index(key)] = value
            notes.append(
                "closed forms of Takahashi et al. (2022) for micro, macro (AF) and macro (FA) F1; the "
                "generic delta method for every other score"
                if closed
                else "the generic delta method for every score (Takahashi et al.'s closed forms need "
                "single-label data, β = 1 and a label set of every class in the table, each predicted and "
                "present)"
            )
        boundary = _boundary_reasons(scores, f)
        _wald(f, estimate, variances, z, method == "delta-logit", boundary, bounds, not_estimable, remarks)
        if boundary:
            notes.append(
                "a score that involves a 0/0 ratio has no derivative there, so no delta-method interval; "
                "the bootstrap gives one that holds the 0/0 value fixed"
            )
    _wilson(scores, z, bounds, not_estimable)
    few = few_counts(scores, method)
    definition = spec.definition
    if units is not None and spec.resampling:
        definition = (
            definition.replace(
                "multinomial resamples of the counts (the instance-level bootstrap, drawn per cell type)",
                "resamples of whole blocks, drawn per kind of block",
            )
            .replace("multinomial resamples of the counts", "resamples of whole blocks")
            .replace("the jackknife over instances", "the jackknife over blocks")
        )
    cautions = (blocks.cautions() if blocks is not None else []) + ([few] if few else [])
    return replace(
        scores,
        warnings=tuple(dict.fromkeys([*scores.warnings, *cautions])),
        intervals=Intervals(
            method=method,
            definition=definition,
            confidence=float(confidence),
            resamples=int(resamples) if spec.resampling else None,
            seed=used_seed,
            bounds=bounds,
            not_estimable=not_estimable,
            remarks=remarks,
            notes=tuple(notes),
            unit=units.unit if units is not None else "instances",
            n_units=units.n_blocks if units is not None else n,
        ),
    )


def few_counts(scores: Scores, method: str) -> str | None:
    """A warning when the counts that decide interval coverage are small for ``method``: a label of the label set
    with little gold support or few predictions, or few errors (thresholds :data:`_FEW_COUNTS`), naming them.

    Notes
    -----
    In the simulation of docs/coverage.md (Takahashi et al.'s scenarios, a 1% class among ten Zipf-like ones,
    four classes at 99% accuracy) coverage of micro and macro F1 followed three expected counts, not N: the
    rarest label's gold support, its predictions, and the errors. Cells with all three at 30, 30 and 50 or more
    were covered 0.939–0.958 by the delta method and 0.937–0.962 by the percentile bootstrap; BCa reached
    0.934–0.970 from 10, 10 and 10. Below, coverage fell as low as 0.09 (an absent class, whose F1 of 0 biases
    macro F1 down). Errors are single-label instances predicted wrong, or multi-label Σ(fp + fn).
    """
    if method not in _FEW_COUNTS or not scores.per_label:
        return None
    least, errors_at_least = _FEW_COUNTS[method]
    rows = scores.per_label
    rarest = min(rows, key=lambda lab: (rows[lab].support, lab))
    seldom = min(rows, key=lambda lab: (rows[lab].predicted, lab))
    if scores.task == "single-label":
        errors = scores.n_instances - round(scores.accuracy * scores.n_instances)
    else:
        errors = sum(r.fp + r.fn for r in rows.values())
    found = []
    if rows[rarest].support < least:
        found.append(f"label {rarest!r} has {rows[rarest].support} gold instance(s)")
    if rows[seldom].predicted < least:
        found.append(f"label {seldom!r} is predicted {rows[seldom].predicted} time(s)")
    if errors < errors_at_least:
        found.append(f"there are {errors} error(s)")
    if not found:
        return None
    return (
        f"{'; '.join(found)}: in simulation (docs/coverage.md) {method} intervals of averaged scores covered "
        f"less than their nominal level when a label had fewer than {least} gold instances or predictions, or "
        f"there were fewer than {errors_at_least} errors (macro F1 with a 1% class at N = 500: delta 0.92, "
        "bootstrap-bca 0.945; at 99% accuracy with 10 errors: delta 0.93); what counts is these counts, not N"
        + ("" if method == "bootstrap-bca" else "; bootstrap-bca covered 0.93–0.97 from 10 of each")
    )


def _wald(
    f: ScoreFunction,
    estimate: np.ndarray,
    variances: np.ndarray,
    z: float,
    logit: bool,
    boundary: Mapping[Key, str],
    bounds: dict[Key, tuple[float, float]],
    not_estimable: dict[Key, str],
    remarks: dict[Key, str],
) -> None:
    ranges: dict[str, tuple[float, float]] = {}  # by measure: one registry lookup each, not one per score
    for key, theta, var in zip(f.keys, estimate.tolist(), variances.tolist()):
        if math.isnan(theta):
            not_estimable[key] = "the estimate is undefined (NaN, from a 0/0 under --zero-division nan)"
        elif key in boundary:
            not_estimable[key] = boundary[key]
        elif not math.isfinite(var):
            not_estimable[key] = "the delta-method variance is not finite"
        else:
            measure = key[0] if len(key) == 1 else key[-1]
            if measure not in ranges:
                ranges[measure] = _range(key, f.task)
            bottom, top = ranges[measure]
            if logit and not bottom < theta < top:
                not_estimable[key] = (
                    f"the estimate is {theta:g}: the logit interval needs {bottom:g} < estimate < {top:g}"
                )
                continue
            se = math.sqrt(max(var, 0.0))  # a variance rounded a hair below 0 (a perfect table) is 0
            if logit:
                low, high = _transformed(theta, se, z, bottom, top)
                if not (math.isfinite(low) and math.isfinite(high)):
                    not_estimable[key] = (
                        f"the standard error ({se:.3g}) is too large beside the estimate's distance "
                        "to its bound for the log scale (use --ci delta)"
                    )
                    continue
            else:
                low, high = theta - z * se, theta + z * se
            if se == 0:
                remarks[key] = (
                    "zero width: the estimated variance is 0 (nothing the score depends on varies "
                    "in the data), which understates the uncertainty"
                )
            elif low < bottom or high > top:
                remarks[key] = (
                    f"clipped to [{bottom:g}, {top:g}]: the Wald interval crossed a bound"
                    if math.isfinite(bottom) and math.isfinite(top)
                    else f"clipped at {bottom if math.isfinite(bottom) else top:g}: the Wald interval crossed it"
                )
            bounds[key] = (max(low, bottom), min(high, top))


def _transformed(theta: float, se: float, z: float, bottom: float, top: float) -> tuple[float, float]:
    """A Wald interval on a scale that keeps it inside (bottom, top), mapped back.

    Notes
    -----
    A measure bounded on both sides is placed in its range, u = (θ − bottom)/(top − bottom), and the interval
    is logit u ± z·se_u/(u(1 − u)) with se_u = se/(top − bottom) (for [0, 1]: logit θ ± z·se/(θ(1 − θ)));
    one bounded below only (the multi-label Hamming loss) gets log(θ − bottom) ± z·se/(θ − bottom); one bounded
    above only, log(top − θ) ± z·se/(top − θ).
    """
    if math.isfinite(bottom) and math.isfinite(top):
        width = top - bottom
        share = (theta - bottom) / width
        half = z * se / width / (share * (1 - share))
        centre = math.log(share / (1 - share))
        return bottom + width * _expit(centre - half), bottom + width * _expit(centre + half)
    if math.isfinite(bottom):
        gap = theta - bottom
        return bottom + gap * _exp(-z * se / gap), bottom + gap * _exp(z * se / gap)
    gap = top - theta
    return top - gap * _exp(z * se / gap), top - gap * _exp(-z * se / gap)


def _expit(x: float) -> float:
    """1 / (1 + e^−x) without overflow for any x."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _exp(x: float) -> float:
    """e^x, infinite beyond what a float holds (a standard error far beyond the estimate's distance to its bound)."""
    return math.exp(x) if x < 700 else math.inf


def _bootstrap(
    f: ScoreFunction,
    estimate: np.ndarray,
    method: str,
    resamples: int,
    seed: int,
    alpha: float,
    progress: Callable[[int, int], None] | None,
    bounds: dict[Key, tuple[float, float]],
    not_estimable: dict[Key, str],
    remarks: dict[Key, str],
    units: BlockUnits | None = None,
) -> None:
    replicates = bootstrap_replicates(f, resamples, np.random.default_rng(seed), progress, units)
    nan_count = np.isnan(replicates).sum(axis=0)
    ordered = np.sort(replicates, axis=0)
    if method == "bootstrap-bca":
        low_level, high_level, invalid = bca_levels(estimate, replicates, jackknife_moments(f, units), alpha)
    else:
        low_level = np.full(len(f.keys), alpha / 2)
        high_level = np.full(len(f.keys), 1 - alpha / 2)
        invalid = np.zeros(len(f.keys), dtype=bool)
    low, high = column_quantiles(ordered, low_level), column_quantiles(ordered, high_level)
    for i, key in enumerate(f.keys):
        if math.isnan(estimate[i]):
            not_estimable[key] = "the estimate is undefined (NaN, from a 0/0 under --zero-division nan)"
        elif nan_count[i]:
            not_estimable[key] = (
                f"undefined (NaN) in {nan_count[i]} of {resamples} resamples (a 0/0 under "
                "--zero-division nan); choose 0 or 1 to score those resamples"
            )
        elif ordered[0, i] == ordered[-1, i]:
            bounds[key] = (float(ordered[0, i]), float(ordered[0, i]))
            remarks[key] = "zero width: every resample gives the same value"
        elif invalid[i]:
            not_estimable[key] = (
                "the estimate lies at the edge of its bootstrap distribution, so BCa's bias "
                "correction is infinite; the percentile interval (--ci bootstrap) still exists"
            )
        else:
            bounds[key] = (float(low[i]), float(high[i]))
            if low[i] == high[i]:
                remarks[key] = (
                    "zero width: almost every resample gives the same value, which understates the "
                    "uncertainty (per-label Wilson intervals do not)"
                )


def _wilson(scores: Scores, z: float, bounds: dict[Key, tuple[float, float]], not_estimable: dict[Key, str]) -> None:
    rows = list(scores.per_label.items())
    tp = np.array([r.tp for _, r in rows])
    for measure, trials, why in (
        ("precision", np.array([r.tp + r.fp for _, r in rows]), "never predicted"),
        ("recall", np.array([r.tp + r.fn for _, r in rows]), "absent from gold"),
    ):
        low, high = wilson_interval(tp, trials, z)
        for (lab, _), lo, hi, m in zip(rows, low, high, trials):
            key = ("per_label", lab, f"{measure}_wilson")
            if m == 0:
                not_estimable[key] = f"{measure} of {lab!r} is 0/0 ({why})"
            else:
                bounds[key] = (float(lo), float(hi))
