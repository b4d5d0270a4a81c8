"""Confidence intervals for every score of a result, by a named method (:data:`INTERVAL_METHODS`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any, NamedTuple, cast

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.errors import OptionError
from clfeval.infer.bootstrap import bca_levels, bootstrap_replicates, column_quantiles, jackknife_moments
from clfeval.infer.delta import block_delta_variances, delta_variances, takahashi_variances, type_delta_variances
from clfeval.infer.methods import CI, INTERVAL_METHODS, LONG_WORK, IntervalMethod, check_interval_options, cost_note
from clfeval.infer.proportion import wilson_interval
from clfeval.infer.statistic import SeparableStatistic, Statistic, separable
from clfeval.infer.units import BlockUnits
from clfeval.kinds import KINDS, Counts, kind_of
from clfeval.progress import phase
from clfeval.result import FrozenDict
from clfeval.scoring.measures import MEASURES, Setting, averaged_measures
from clfeval.scoring.scores import Intervals, Key, Scores
from clfeval.scoring.statistics import family_measures

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


def _why(measure: str) -> str:
    """When ``measure`` is 0/0, in words about a label."""
    return MEASURES[measure].undefined_when.replace("{label} is ", "")


def _labels_text(labels: list[str]) -> str:
    shown = ", ".join(map(repr, labels[:3]))
    return shown + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")


def _boundary_reasons(scores: Scores) -> dict[Key, str]:
    """Scores that involve a 0/0 ratio at the estimate: they have no derivative there."""
    und = {m: set(labels) for m, labels in scores.undefined.items()}
    reasons: dict[Key, str] = {}
    for lab in scores.labels:
        for m in family_measures(scores.family):
            if lab in und[m]:
                reasons[("per_label", lab, m)] = f"{MEASURES[m].title} of {lab!r} is 0/0 ({_why(m)})"
    weighted = {
        "macro": scores.labels,
        "macro_fa": scores.labels,
        "weighted": [lab for lab in scores.labels if scores.per_label[lab].support > 0],
        "lfb": [lab for lab in scores.labels if scores.lfb_frequencies[lab] > 0],
    }
    for name, members in weighted.items():
        for m in averaged_measures(scores.family):
            parts = ["precision", "recall"] if (name, m) == ("macro_fa", "f") else [m]
            for part in parts:
                hit = [lab for lab in members if lab in und[part]]
                if hit and ("averages", name, m) not in reasons:
                    reasons[("averages", name, m)] = (
                        f"{MEASURES[part].title} of {_labels_text(hit)} is 0/0 ({_why(part)})"
                    )
    rows = scores.per_label.values()
    summed = [np.asarray(float(sum(getattr(r, a) for r in rows))) for a in ("tp", "fp", "fn", "tn")]
    setting = Setting(scores.beta, 0.0)
    for m in averaged_measures(scores.family):
        if MEASURES[m].compute(*summed, setting)[1]:
            reasons[("averages", "micro", m)] = f"micro {MEASURES[m].title} is 0/0"
    for scope in scores.warning_scopes.values():  # the overall measures scoring found 0/0
        kind, _, name = scope.partition(":")
        if kind == "overall":
            reasons[(name,)] = f"{MEASURES[name].title_for(scores.family)} is 0/0 ({MEASURES[name].undefined_when})"
    return reasons


def _range(key: Key, family: str) -> tuple[float, float]:
    """The range of the score at ``key`` (a Wald interval is clipped to it)."""
    return MEASURES[key[0] if len(key) == 1 else key[-1]].range_for(family)


def _closed_forms(scores: Scores) -> dict[Key, float]:
    """Takahashi et al.'s variances where they apply: counts that are a confusion matrix of instances (single-label),
    β = 1, the label set is every class of the table and each is predicted and present."""
    counts = KINDS[scores.task].confusion(scores.counts)
    if counts is None or scores.beta != 1:
        return {}
    gold, predicted = counts.seen_labels()
    if gold | predicted != set(scores.labels):
        return {}
    aligned = counts.with_labels(scores.labels)
    if (aligned.gold_totals == 0).any() or (aligned.pred_totals == 0).any() or len(scores.labels) < 2:
        return {}
    variances = takahashi_variances(aligned)
    return {("averages", name, "f"): v for name, v in variances.items()}


def _new_seed() -> int:
    return int(np.random.SeedSequence().generate_state(1)[0])


def block_units(f: Statistic, counts: Counts, blocks: Blocks) -> BlockUnits:
    """The blocks of a result as resampling units over its score function's cell types (the rows of the counts'
    kind, in the order of its cell types, are the blocks' keys)."""
    kind = kind_of(counts)
    assert kind is not None
    order = kind.rows(counts)[0]
    index = {key: i for i, key in enumerate(order)}
    try:
        item = np.array([index[tuple(key)] for key in blocks.keys], dtype=np.int64)[blocks.row]
    except KeyError as exc:
        raise ValueError(f"the blocks hold a row the counts do not: {exc.args[0]!r}") from None
    return BlockUnits.of(f.cells.rows_of, f.cells.width, blocks.block, item, blocks.count, blocks.unit, blocks.n_blocks)


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
    spec = INTERVAL_METHODS[chosen.method]
    if scores.task in KINDS and not spec.applies_to(scores.task):
        raise OptionError(
            f"{spec.name} intervals are for {', '.join(sorted(spec.kinds or ()))} counts, not {scores.task}: choose "
            f"another --ci ({', '.join(k for k, m in INTERVAL_METHODS.items() if m.applies_to(scores.task))})"
        )
    if blocks is None and scores.task in KINDS and KINDS[scores.task].needs_units:
        raise OptionError(
            "intervals of span counts need their units (sentences or documents): spans of one sentence are not "
            "independent; count them with --spans or spans=..., whose counts and count files keep the units"
        )
    f = scores.statistic()
    run = IntervalRun(scores, f, chosen, spec, progress, block_units(f, scores.counts, blocks) if blocks else None)
    long = cost_note(spec.name, f.cells.n_types, len(scores.table), chosen.resamples if spec.resampling else 0)
    if long is not None and blocks is None:
        run.notes.append(long)
    units = run.units
    if units is not None:
        run.notes.append(
            f"resampling units: {units.unit} ({units.n_blocks} blocks, whose instances are not "
            f"independent): {spec.block_note}"
        )
    n = scores.n_instances
    if n < 2 or (units is not None and units.n_blocks < 2):
        for key in f.keys:
            run.not_estimable[key] = (
                f"N = {n}: one instance says nothing about the spread of a score"
                if n < 2
                else "one block says nothing about the spread of a score"
            )
    else:
        spec.compute(run)
    if spec.measures is not None:
        for key in f.keys:
            measure = key[0] if len(key) == 1 else key[-1]
            if measure not in spec.measures:
                run.bounds.pop(key, None)
                run.not_estimable[key] = f"{spec.name} gives intervals of {', '.join(sorted(spec.measures))} only"
    if not KINDS[scores.task].sample_weights:  # Wilson's intervals are of counts of instances, not of weights
        _wilson(scores, run.z, run.bounds, run.not_estimable)
    few = few_counts(scores, spec.name)
    definition = spec.block_definition if units is not None and spec.block_definition else spec.definition
    cautions = (blocks.cautions() if blocks is not None else []) + ([few] if few else [])
    return replace(
        scores,
        warnings=tuple(dict.fromkeys([*scores.warnings, *cautions])),
        intervals=Intervals(
            method=spec.name,
            definition=definition,
            confidence=float(chosen.confidence),
            resamples=int(chosen.resamples) if spec.resampling else None,
            seed=run.seed,
            bounds=FrozenDict(run.bounds),
            not_estimable=FrozenDict(run.not_estimable),
            remarks=FrozenDict(run.remarks),
            notes=tuple(run.notes),
            unit=units.unit if units is not None else "instances",
            n_units=units.n_blocks if units is not None else n,
        ),
    )


@dataclass(eq=False)
class IntervalRun:
    """One computation of intervals: what a method of :data:`INTERVAL_METHODS` reads, and what it fills.

    Attributes
    ----------
    scores, f
        The result and its scores as a function of the weights of its types (a :class:`Statistic`).
    ci, spec
        The interval options (confidence, resamples, seed) and the method's registry entry.
    progress
        Called with (done, total) during long computations.
    units
        The blocks as resampling units, or ``None`` when instances are independent.
    estimate, z, alpha, seed
        Every score's estimate; the normal quantile and α of the confidence level; the seed drawn or given
        (resampling methods only).
    bounds, not_estimable, remarks, notes
        What the method finds: each score's interval, or why it has none; remarks on single intervals; notes on all.
    """

    scores: Scores
    f: Statistic
    ci: CI
    spec: IntervalMethod
    progress: Callable[[int, int], None] | None
    units: BlockUnits | None
    bounds: dict[Key, tuple[float, float]] = field(default_factory=dict)
    not_estimable: dict[Key, str] = field(default_factory=dict)
    remarks: dict[Key, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.estimate = self.f.point()
        self.alpha = 1 - self.ci.confidence
        self.z = NormalDist().inv_cdf(1 - self.alpha / 2)
        seed = self.ci.seed
        self.seed = (_new_seed() if seed is None else int(seed)) if self.spec.resampling else None


def wald_intervals(run: IntervalRun) -> None:
    """The ``delta`` method: Wald intervals θ̂ ± z·se, se by the delta method (:func:`delta_variances_of`)."""
    _delta(run, logit=False)


def logit_intervals(run: IntervalRun) -> None:
    """The ``delta-logit`` method: Wald intervals on the logit (or log) scale, mapped back (:func:`_transformed`)."""
    _delta(run, logit=True)


def percentile_intervals(run: IntervalRun) -> None:
    """The ``bootstrap`` method: percentile intervals of resamples of the counts (or of whole blocks)."""
    _bootstrap(run, bca=False)


def bca_intervals(run: IntervalRun) -> None:
    """The ``bootstrap-bca`` method: bias-corrected and accelerated intervals, acceleration from the jackknife."""
    _bootstrap(run, bca=True)


def delta_variances_of(f: Statistic, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The delta-method variance of every score of ``f``: from each label's parts when ``f`` gives them over types
    of one instance each (:func:`~clfeval.infer.delta.delta_variances`, O(types + labels)), else type by type
    (:func:`~clfeval.infer.delta.type_delta_variances`)."""
    if separable(f):
        return delta_variances(cast(SeparableStatistic, f), progress)
    return type_delta_variances(f, progress)


def _delta(run: IntervalRun, logit: bool) -> None:
    f, scores = run.f, run.scores
    if run.units is not None:
        variances = block_delta_variances(f, run.units)
        run.notes.append(
            "the generic delta method for every score, with blocks as the independent units "
            "(Takahashi et al.'s closed forms assume independent instances)"
        )
    else:
        variances = delta_variances_of(f, phase(run.progress, "delta method"))
        closed = _closed_forms(scores)
        for key, value in closed.items():
            variances[f.index(key)] = value
        run.notes.append(
            "closed forms of Takahashi et al. (2022) for micro, macro (AF) and macro (FA) F1; the "
            "generic delta method for every other score"
            if closed
            else "the generic delta method for every score (Takahashi et al.'s closed forms need "
            "single-label data, β = 1 and a label set of every class in the table, each predicted and "
            "present)"
        )
    boundary = _boundary_reasons(scores)
    _wald(f, run.estimate, variances, run.z, logit, boundary, run.bounds, run.not_estimable, run.remarks)
    if boundary:
        run.notes.append(
            "a score that involves a 0/0 ratio has no derivative there, so no delta-method interval; "
            "the bootstrap gives one that holds the 0/0 value fixed"
        )


class _Counted(NamedTuple):
    """A label's number of gold instances and of predictions (not their weights)."""

    support: int
    predicted: int


def few_counts(scores: Scores, method: str) -> str | None:
    """A warning when the counts that decide interval coverage are small for ``method``: a label of the label set
    with little gold support or few predictions, or few errors (thresholds: the method's
    :attr:`~clfeval.infer.methods.IntervalMethod.few_counts`), naming them.

    Notes
    -----
    In the simulation of docs/coverage.md (Takahashi et al.'s scenarios, a 1% class among ten Zipf-like ones,
    four classes at 99% accuracy) coverage of micro and macro F1 followed three expected counts, not N: the
    rarest label's gold support, its predictions, and the errors. Cells with all three at 30, 30 and 50 or more
    were covered 0.939–0.958 by the delta method and 0.937–0.962 by the percentile bootstrap; BCa reached
    0.934–0.970 from 10, 10 and 10. Below, coverage fell as low as 0.09 (an absent class, whose F1 of 0 biases
    macro F1 down). Errors are single-label instances predicted wrong, or multi-label Σ(fp + fn).
    """
    thresholds = INTERVAL_METHODS[method].few_counts
    if thresholds is None or not scores.per_label:
        return None
    least, errors_at_least = thresholds
    rows: Any = scores.per_label
    kind = KINDS[scores.task]
    if kind.sample_weights:  # what decides coverage is the number of instances, not their weight
        counted = kind.unweighted(scores.counts).label_counts(scores.labels)
        rows = {lab: _Counted(int(s), int(p)) for lab, s, p in zip(scores.labels, counted.support, counted.predicted)}
    rarest = min(rows, key=lambda lab: (rows[lab].support, lab))
    seldom = min(rows, key=lambda lab: (rows[lab].predicted, lab))
    errors = KINDS[scores.task].errors(scores.counts, scores.labels)
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
        + INTERVAL_METHODS[method].coverage_note
    )


def _wald(
    f: Statistic,
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
                ranges[measure] = _range(key, f.family)
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


def _bootstrap(run: IntervalRun, bca: bool) -> None:
    f, estimate, alpha, units, resamples = run.f, run.estimate, run.alpha, run.units, run.ci.resamples
    bounds, not_estimable, remarks = run.bounds, run.not_estimable, run.remarks
    assert run.seed is not None
    progress = phase(run.progress, "bootstrap")
    replicates = bootstrap_replicates(f, resamples, np.random.default_rng(run.seed), progress, units)
    nan_count = np.isnan(replicates).sum(axis=0)
    ordered = np.sort(replicates, axis=0)
    if bca:
        moments = jackknife_moments(f, units, phase(run.progress, "BCa jackknife"))
        low_level, high_level, invalid = bca_levels(estimate, replicates, moments, alpha)
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
    if any(k[0] == "per_label" for k in _boundary_reasons(run.scores)):
        run.notes.append(
            "labels with a 0/0 ratio in the data (never predicted, or absent from gold) keep it in "
            "every resample: a resample cannot predict what the data never predicted, so intervals "
            "treat those values as fixed"
        )
    if resamples < 1000:
        run.notes.append(f"only {resamples} resamples: the interval ends rest on few draws (default 10000)")


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
