"""Scores by group of scored predictions: every group's :class:`~clfeval.scoring.scored.Scored` result, the gaps of
the scored measures (AUC, average precision, log loss …) between groups with their intervals, tests between groups
(DeLong's unpaired test of AUCs, permutation of group membership, the group-stratified bootstrap) with Holm's
adjustment, and, for binary scores with a threshold, fairness of the predictions at the threshold.

The scored measures are no function of sums, so a group here is a vector of counts over the distinct (gold, scores
[, weight]) rows of the whole data (:class:`~clfeval.count.scored.ScoreCounts`): a group's rows are some of the whole
data's, its rest the total's counts less its own. Every resample is counts on these rows, scored by
:func:`~clfeval.scoring.scored.measures_of` as the count bootstrap of :mod:`clfeval.infer.scored` scores them
(``counts.with_counts(...)``); the resampling itself — each group's units (instances, or blocks) redrawn in its own
size, the rest as the other groups' draws added (stratified exactly), a pair's units pooled and dealt out again — is
:class:`~clfeval.infer.slicing.GroupSample`'s, and the gaps, tests, Holm's adjustment and fairness summaries are
:mod:`clfeval.infer.slices`'.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from clfeval.count.scored import ScoreCounts
from clfeval.errors import InputError, OptionError
from clfeval.infer.methods import CI, INTERVAL_METHODS
from clfeval.infer.slices import (
    RANGE_METHOD,
    SEEDS_NOTE,
    GroupStatistic,
    Sliced,
    checked_groups,
    fairness_of,
    gap_method_of,
    gaps_of,
    permuted_draws,
    stratified_draws,
    test_method_of,
    tests_of,
    undefined_rates,
)
from clfeval.infer.slicing import GroupSample, Slicing, rates_of
from clfeval.progress import phase
from clfeval.result import FrozenDict
from clfeval.scoring.batched import ScoredMeasures

__all__ = ["DELONG_GAPS", "default_scored_metrics", "delong_metric", "sliced_scored"]

#: How the gaps of AUCs are read with ``ci='delong'``.
DELONG_GAPS = (
    "DeLong's variances, groups independent: Var(A_a − A_b) = V_a + V_b (Wald; the ratio on the log scale), each V "
    "DeLong's variance of its own sample (an averaged AUC's from the per-instance terms), the rest's that of its "
    "counts pooled; a score that is not an AUC has no DeLong interval. The largest gap (max − min, min / max) and "
    f"the fairness summaries have no derivative: {RANGE_METHOD}"
)


def default_scored_metrics(counts: ScoreCounts) -> tuple[str, ...]:
    """The scores whose gaps are reported when none are named: ``auc`` of binary scores, ``macro.auc`` otherwise."""
    return ("auc",) if counts.binary else ("macro.auc",)


def delong_metric(metric: str, counts: ScoreCounts) -> bool:
    """Whether DeLong's variance applies to ``metric``: a score column's AUC (``auc`` of binary scores,
    ``per_label.<c>.auc``) or an averaged one (``macro.auc``, ``weighted.auc``, ``micro.auc``)."""
    from clfeval.infer.scored import AVERAGED

    if metric in AVERAGED:
        return not counts.binary
    if metric == "auc":
        return counts.binary
    return metric.startswith("per_label.") and metric.endswith(".auc") and metric[10:-4] in counts.columns


def _keys(gold: np.ndarray, scores: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """Each row as one opaque value (gold, scores and weight side by side, −0.0 as 0.0), for matching rows."""
    parts = [np.asarray(gold).reshape(len(gold), -1).astype(np.float64), np.asarray(scores, dtype=np.float64)]
    if weight is not None:
        parts.append(np.asarray(weight, dtype=np.float64).reshape(-1, 1))
    table = np.ascontiguousarray(np.hstack(parts)) + 0.0
    return table.view(np.dtype((np.void, table.dtype.itemsize * table.shape[1]))).reshape(-1)


def placed(whole: ScoreCounts, gold: np.ndarray, scores: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """The row of ``whole`` each given row is (gold, scores, weight equal), by one sort of both.

    Raises
    ------
    OptionError
        A row that is none of ``whole``'s (the group was not read as the whole data was).
    """
    mine = _keys(whole.gold, whole.scores, whole.weight)
    theirs = _keys(gold, scores, weight)
    _, inverse = np.unique(np.concatenate([mine, theirs]), return_inverse=True)
    inverse = inverse.reshape(-1)
    lookup = np.full(int(inverse.max()) + 1 if len(inverse) else 0, -1, dtype=np.int64)
    lookup[inverse[: len(mine)]] = np.arange(len(mine))
    found = lookup[inverse[len(mine) :]]
    if (found < 0).any():
        raise OptionError("a group's scores are not among the whole data's: the group was read otherwise")
    return found


def _sample(whole: ScoreCounts, part: Any) -> GroupSample:
    """A group's units as a :class:`GroupSample` whose sums are counts on the whole data's rows (R,): its distinct
    rows (instances, drawn as one multinomial over them), or its blocks (``part.blocks``, each block a unit)."""
    width = len(whole.count)
    blocks = part.blocks
    if blocks is None:
        counts = part.counts
        at = placed(whole, counts.gold, counts.scores, counts.weight)

        def on_rows(w: np.ndarray) -> np.ndarray:
            out = np.zeros((len(w), width))
            out[:, at] = w
            return out

        return GroupSample(np.asarray(counts.count, dtype=np.float64), on_rows, "instances")
    at = placed(whole, blocks.gold, blocks.scores, blocks.weight)  # each (block, gold, scores) row's row of the whole
    count, block = np.asarray(blocks.count, dtype=np.float64), np.asarray(blocks.block)

    def blocks_on_rows(w: np.ndarray) -> np.ndarray:
        out = np.empty((len(w), width))
        for r in range(len(w)):  # one bincount a resample, over the group's rows
            out[r] = np.bincount(at, weights=count * w[r, block], minlength=width)
        return out

    return GroupSample(np.ones(blocks.n_blocks), blocks_on_rows, "blocks")


class _Reader:
    """The gap metrics of counts on the whole data's rows: ``from_sums`` (size, R) → (size, M), every metric of a
    whole batch at once (:class:`~clfeval.scoring.batched.BatchedScores`)."""

    def __init__(self, whole: ScoreCounts, measures: ScoredMeasures, keys: Sequence[str]):
        self.whole, self.keys = whole, list(keys)
        self.scorer = measures.batched(whole)

    def from_sums(self, sums: np.ndarray) -> np.ndarray:
        found = self.scorer(np.rint(sums).astype(np.int64))
        return np.column_stack([found.get(k, np.full(len(sums), math.nan)) for k in self.keys])


def _threshold_rates(whole: ScoreCounts, predicted: np.ndarray) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """The positive class's rates (selection rate, TPR, FPR) at the threshold of counts (size, R) on the whole
    data's rows, ``predicted`` each row's prediction (positive or not); with sample weights, weighted."""
    positive = whole.positives(whole.gold, 0).astype(bool)
    weight = np.ones(len(whole.count)) if whole.weight is None else np.asarray(whole.weight, dtype=np.float64)
    cells = np.column_stack([positive & predicted, ~positive & predicted, positive & ~predicted,
                             ~positive & ~predicted]).astype(np.float64) * weight[:, None]  # fmt: skip

    def rated(sums: np.ndarray) -> dict[str, np.ndarray]:
        tp, fp, fn, tn = (sums @ cells).T
        return rates_of(tp, fp, fn, tn)

    return rated


def _delong(counts: ScoreCounts, metric: str) -> float:
    """DeLong's variance of ``metric`` in one sample, NaN where it does not exist (fewer than two of a class)."""
    from clfeval.infer.delong import auc_variance

    try:
        return auc_variance(counts, metric, "a")[1]
    except InputError:
        return math.nan


def _held(whole: ScoreCounts, count: np.ndarray) -> ScoreCounts:
    """The rows of ``whole`` with these counts, those counted 0 left out (a sample of its own)."""
    keep = count > 0
    weight = None if whole.weight is None else whole.weight[keep]
    return ScoreCounts(whole.labels, whole.columns, whole.gold[keep], whole.scores[keep], count[keep], weight)


def sliced_scored(
    overall: Any,
    columns: Sequence[str],
    names: Sequence[str],
    values: Sequence[tuple[str, ...]],
    score_group: Callable[[int, CI | None], Any],
    interval: CI | None,
    slicing: Slicing,
    *,
    predicted: np.ndarray | None = None,
    strata: Sequence[Sequence[Any | None]] | None = None,
    strata_columns: Sequence[str] = (),
    progress: Callable[[int, int], None] | None = None,
) -> Sliced:
    """Scores by group of scored predictions.

    Parameters
    ----------
    overall
        The whole data's :class:`~clfeval.scoring.scored.Scored` result (with its intervals, when asked for).
    columns, names, values
        The group columns, each group's name and its values.
    score_group
        Group i's :class:`~clfeval.scoring.scored.Scored` result with this interval (its seed spawned), scored by
        the path of the whole data over its classes and score columns.
    interval
        Every group's interval (the CI group: ``delong``, ``delong-logit``, ``bootstrap``, ``bootstrap-bca``).
    slicing
        The gap metrics (default ``auc`` of binary scores, else ``macro.auc``; any scored measure's report name),
        the test (default ``delong`` when every gap metric is an AUC and there are neither weights, blocks nor
        strata, else ``permutation``), its rounds and seed.
    predicted
        Binary scores with a threshold: each of the whole data's rows predicted positive or not; the fairness
        summaries read the label report at the threshold.
    strata, strata_columns
        Each group's scored predictions in each stratum (``None`` where it has none; strata in one order for every
        group), and the strata's columns: the permutation test then permutes group membership within each stratum.

    Returns
    -------
    Sliced
        ``overall`` and ``by_group`` are ``Scored`` results. A pair's gap d = θ_a − θ_b and ratio θ_a / θ_b; with
        ``ci='delong'`` an AUC's interval is d ± z √(V_a + V_b); with a bootstrap interval, the percentiles of the
        group-stratified bootstrap (each group's units redrawn in its own size; the rest's replicate is the other
        groups' replicates added).
    """
    whole: ScoreCounts = overall.counts
    metrics = tuple(slicing.metrics) if slicing.metrics is not None else default_scored_metrics(whole)
    for metric in metrics:
        overall[metric]  # an unknown name's error, with the names close to it
    aucs = all(delong_metric(m, whole) for m in metrics)
    blocked = overall.blocks is not None
    plain = aucs and not whole.weighted and not blocked and strata is None  # what DeLong's unpaired test takes
    test = slicing.test if slicing.test is not None else ("delong" if plain else "permutation")
    base, seeds = checked_groups(names, test, "scored", slicing, interval, stratified=strata is not None)
    if test == "delong":
        from clfeval.infer.scored import WEIGHTED_DELONG

        if not aucs:
            raise OptionError(
                f"DeLong's test between groups compares AUCs (auc, per_label.<class>.auc, macro.auc, weighted.auc, "
                f"micro.auc), not {', '.join(m for m in metrics if not delong_metric(m, whole))}: use test="
                "'permutation' or 'bootstrap'"
            )
        if whole.weighted:
            raise OptionError(WEIGHTED_DELONG.format(what="tests", use="test='permutation' or 'bootstrap'"))
        if blocked:
            raise OptionError(
                "DeLong's unpaired test is of independent instances: with blocks, test='permutation' or 'bootstrap' "
                "resample whole blocks"
            )
    if interval is not None and interval.method.startswith("delong") and blocked:
        raise OptionError(
            "the gaps' DeLong intervals are of independent instances: with blocks, give ci='bootstrap' (whole blocks "
            "redrawn in each group)"
        )
    by_group: dict[str, Any] = {}
    warnings: list[str] = []
    for i, (name, seed) in enumerate(zip(names, seeds)):
        result = score_group(i, None if interval is None else replace(interval, seed=seed))
        if (result.counts.labels, result.counts.columns) != (whole.labels, whole.columns):
            raise OptionError(f"group {name!r} was read with other classes than the whole data")
        undefined = [m for m in metrics if math.isnan(result.values.get(m, math.nan))]
        if undefined:
            warnings.append(
                f"group {name!r}: {', '.join(undefined)} not defined (a class with no instance, or none outside it, "
                "in the group)"
            )
        by_group[name] = result
    probabilities = overall.probabilities
    conventions = overall.conventions
    reader = _Reader(whole, ScoredMeasures(conventions, probabilities, frozenset(metrics)), metrics)
    groups = []
    for name in names:
        sample = _sample(whole, by_group[name])
        groups.append(GroupStatistic(name, by_group[name].counts, None, None, sample, sample.observed()))
    total = np.asarray(whole.count, dtype=np.float64)
    point = np.array([[by_group[g].values.get(m, math.nan) for m in metrics] for g in names])
    rest_point = reader.from_sums(np.stack([total - g.sums for g in groups]))
    rated = _threshold_rates(whole, predicted) if predicted is not None else None
    confidence = interval.confidence if interval is not None else None
    resampling = interval is not None and INTERVAL_METHODS[interval.method].resampling
    rounds = interval.resamples if interval is not None else slicing.rounds
    boot = rest = rates = None
    if interval is not None or test == "bootstrap":
        boot, rest, rates = stratified_draws(groups, total, reader, rated, rounds, np.random.default_rng(seeds[-2]),
                                        phase(progress, "group-stratified bootstrap"))  # fmt: skip
    variances = rest_variances = None
    p_values = None
    if (interval is not None and not resampling) or test == "delong":
        rests = [_held(whole, np.rint(total - g.sums).astype(np.int64)) for g in groups]
        variances = np.array([[_delong(g.counts, m) if delong_metric(m, whole) else math.nan for m in metrics]
                              for g in groups])  # fmt: skip
        rest_variances = np.array([[_delong(r, m) if delong_metric(m, whole) else math.nan for m in metrics]
                                   for r in rests])  # fmt: skip
        if test == "delong":
            p_values = _delong_tests(groups, rests, metrics, warnings)
    analytic = "DeLong's variances, groups independent (Wald; the ratio on the log scale)"
    gaps = gaps_of(metrics, names, point, rest_point, boot, rest, variances, rest_variances, confidence, resampling,
                 analytic)  # fmt: skip
    draws = None
    if test == "permutation":
        pool = groups[0].sample
        for g in groups[1:]:
            pool = pool.pooled(g.sample)
        cells = None
        if strata is not None:
            cells = [[None if c is None else _sample(whole, c) for c in row] for row in strata]
        draws = permuted_draws(groups, pool, total, reader, slicing.rounds, np.random.default_rng(seeds[-1]),
                          phase(progress, "permutation of groups"), cells)  # fmt: skip
    tests = tests_of(metrics, names, point, rest_point, test, boot, rest, variances, rest_variances, draws, p_values)
    positive = whole.columns[0] if whole.binary else None
    fairness = fairness_of(positive, names, groups, rated, rates, confidence)
    warnings.extend(undefined_rates(fairness))
    gap_method = gap_method_of(interval, resampling, rounds, seeds[-2],
                             None if resampling else ("delong", DELONG_GAPS))  # fmt: skip
    test_method = test_method_of(test, slicing, rounds, seeds, base, strata, strata_columns)
    unit = "whole blocks" if blocked else "instances (each distinct row with its sample weight)"
    notes = [
        f"every group is scored over the classes and score columns of the whole data ({len(whole.labels)} classes)",
        f"the group-stratified bootstrap and the permutation of groups resample {unit}; the rest of a group in a "
        "bootstrap replicate is every other group's replicate added",
        SEEDS_NOTE.format(base=base),
    ]
    if whole.binary and predicted is None:
        notes.append("no fairness summaries: the scores have no threshold (give threshold=)")
    elif whole.binary:
        notes.append(f"fairness of the predictions at the threshold ({overall.threshold}), positive class {positive!r}")
    return Sliced(
        columns=tuple(columns),
        names=tuple(names),
        values=tuple(tuple(v) for v in values),
        overall=overall,
        by_group=FrozenDict(by_group),
        metrics=tuple(metrics),
        gaps=tuple(gaps),
        tests=tuple(tests),
        fairness=fairness,
        gap_method=FrozenDict(gap_method),
        test_method=FrozenDict(test_method),
        warnings=tuple(dict.fromkeys(warnings)),
        notes=tuple(notes),
        units=FrozenDict({g: ("blocks", r.blocks.n_blocks) for g, r in by_group.items() if r.blocks is not None}),
    )


def _delong_tests(
    groups: Sequence[GroupStatistic], rests: Sequence[ScoreCounts], metrics: Sequence[str], warnings: list[str]
) -> dict[tuple[int, int], np.ndarray]:
    """DeLong's unpaired test (pROC's ``roc.test(paired = FALSE)``) of each pair of groups and of each group against
    its rest, by metric: p-values, NaN (with a warning) where the test is not defined."""
    from clfeval.infer.delong import delong_unpaired

    g_count = len(groups)
    out: dict[tuple[int, int], np.ndarray] = {}
    pairs = [(a, b) for a in range(g_count) for b in range(a + 1, g_count)] + [(a, -1) for a in range(g_count)]
    for a, b in pairs:
        other = groups[b].counts if b >= 0 else rests[a]
        found = np.full(len(metrics), math.nan)
        for j, metric in enumerate(metrics):
            try:
                found[j] = delong_unpaired(groups[a].counts, other, metric).p_value
            except InputError as e:
                shown = groups[b].name if b >= 0 else "rest"
                warnings.append(f"no DeLong test of {metric} between {groups[a].name!r} and {shown!r}: {e.message}")
        out[(a, b)] = found
    return out
