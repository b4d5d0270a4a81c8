"""Averaging methods, by name: each turns per-label values (and counts) into one value of each averaged measure.

Every average is a registry entry with its formula in words; nothing averages implicitly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.score.measures import MEASURES, Setting, averaged_measures
from clfeval.score.ratios import ratio

__all__ = [
    "AVERAGED",
    "AVERAGES",
    "Average",
    "AverageInput",
    "PerLabel",
    "SampleSums",
    "instance_measures",
    "weighted_mean",
]

#: The measures every average gives, in report order (the ``averaged`` entries of :data:`MEASURES`).
AVERAGED: tuple[str, ...] = averaged_measures()


@dataclass(frozen=True, eq=False)
class PerLabel:
    """Per-label values of each measure over the label set, and where each was undefined (0/0).

    Arrays have the label set as their last axis; leading axes, when present, index resamples.
    """

    counts: LabelCounts
    values: Mapping[str, np.ndarray]
    undefined: Mapping[str, np.ndarray]

    def stacked(self, measures: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The values and 0/0 masks of ``measures``, stacked on a leading axis in that order (kept for reuse: every
        weighted average reads the same stack)."""
        cache: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = self.__dict__.setdefault("_stacks", {})
        if measures not in cache:
            cache[measures] = (
                np.stack([np.asarray(self.values[m], dtype=np.float64) for m in measures]),
                np.stack([np.asarray(self.undefined[m], dtype=bool) for m in measures]),
            )
        return cache[measures]


@dataclass(frozen=True, eq=False)
class SampleSums:
    """Sums over instances of each per-instance measure: what the ``samples`` average needs.

    For each measure m: ``sums[m]`` = Σ of the measure over the instances where it is defined,
    ``defined[m]`` = how many instances those are, and ``total`` = all instances. All three are
    linear in the instance counts, so resamples and merged parts add them up like counts.
    """

    sums: Mapping[str, np.ndarray]
    defined: Mapping[str, np.ndarray]
    total: np.ndarray

    @classmethod
    def of(cls, counts: LabelSetCounts, label_set: Sequence[str], beta: float) -> SampleSums:
        """The sums of multi-label ``counts`` over ``label_set``."""
        g_mat, p_mat, w = counts.indicator(label_set)
        values = instance_measures(g_mat, p_mat, beta)
        w = w.astype(np.float64)
        return cls(
            {m: w @ v for m, (v, _) in values.items()},
            {m: w @ d.astype(np.float64) for m, (_, d) in values.items()},
            np.asarray(w.sum()),
        )


def instance_measures(gold: np.ndarray, pred: np.ndarray, beta: float) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each instance's value of every averaged measure over the label set, 0 where undefined, and where defined.

    ``gold[u, λ]`` and ``pred[u, λ]`` count label λ in instance u's gold and predicted lists.

    Notes
    -----
    Each instance is one count table over the label set: tp = I = Σ_λ min(gold, pred), fp = |pred| − I,
    fn = |gold| − I, tn = the labels in neither list; each measure is its per-label formula on those
    (P = I/|pred|, R = I/|gold|, F_β = (1+β²)I/(β²|gold| + |pred|), Jaccard = I/|gold ∪ pred| …).
    """
    gold = np.asarray(gold)
    pred = np.asarray(pred)
    tp = np.minimum(gold, pred).sum(axis=1)
    fp, fn = pred.sum(axis=1) - tp, gold.sum(axis=1) - tp
    tn = ((gold == 0) & (pred == 0)).sum(axis=1)
    setting = Setting(beta, 0.0, "multi-label")
    out = {}
    for m in AVERAGED:
        value, undefined = MEASURES[m].compute(tp, fp, fn, tn, setting)
        out[m] = (value, ~undefined)
    return out


@dataclass(frozen=True, eq=False)
class AverageInput:
    """Everything an average may need, computed once per report (or once per batch of resamples)."""

    per_label: PerLabel
    beta: float
    zero_division: float
    undefined: str
    frequencies: np.ndarray
    samples: SampleSums | None
    measures: tuple[str, ...] = AVERAGED


Result = dict[str, np.ndarray]


def weighted_mean(
    values: np.ndarray, weights: np.ndarray, undefined: np.ndarray, policy: str, zero_division: float
) -> tuple[np.ndarray, np.ndarray]:
    """Σ wᵢvᵢ / Σ wᵢ over the last axis; with ``policy="exclude"`` labels whose value is undefined drop out.

    Returns the mean and whether it is itself undefined (no weight left), both of the leading shape.
    """
    weights = np.asarray(weights, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    if policy == "exclude":
        w = np.where(undefined, 0.0, weights)
        total = w.sum(axis=-1)
    else:
        w = weights
        total = np.broadcast_to(weights.sum(axis=-1), np.shape(values)[:-1])
    if np.isnan(values).any():  # a NaN value (zero_division nan) with no weight stays out: NaN·0 would be NaN
        values = np.where(np.broadcast_to(w, np.shape(values)) > 0, values, 0.0)
    num = values @ w if w.ndim == 1 else np.einsum("...k,...k->...", values, np.broadcast_to(w, np.shape(values)))
    return ratio(num, total, zero_division)


def _weighted(inp: AverageInput, weights: np.ndarray) -> Result:
    # every averaged measure at once: a leading axis of measures (one weighted_mean, not one per measure)
    values, undefined = inp.per_label.stacked(inp.measures)
    means = weighted_mean(values, weights, undefined, inp.undefined, inp.zero_division)[0]
    return dict(zip(inp.measures, means))


def _micro(inp: AverageInput) -> Result:
    c = inp.per_label.counts
    summed = (c.tp.sum(axis=-1), c.fp.sum(axis=-1), c.fn.sum(axis=-1), c.tn.sum(axis=-1))
    setting = Setting(inp.beta, inp.zero_division, "")
    return {m: MEASURES[m].compute(*summed, setting)[0] for m in inp.measures}


def _macro(inp: AverageInput) -> Result:
    return _weighted(inp, np.ones(len(inp.per_label.counts.labels)))


def _macro_fa(inp: AverageInput) -> Result:
    out = _macro(inp)
    if "f" not in out:
        return out
    p, r, b2 = out["precision"], out["recall"], inp.beta**2
    out["f"] = ratio((1 + b2) * p * r, b2 * p + r, inp.zero_division)[0]
    return out


def _support_weighted(inp: AverageInput) -> Result:
    return _weighted(inp, inp.per_label.counts.support)


def _lfb(inp: AverageInput) -> Result:
    return _weighted(inp, inp.frequencies)


def _samples(inp: AverageInput) -> Result:
    assert inp.samples is not None
    s = inp.samples
    out = {}
    for m in inp.measures:
        if inp.undefined == "exclude":
            out[m] = ratio(s.sums[m], s.defined[m], inp.zero_division)[0]
        else:  # undefined instances count with the zero-division value
            missing = s.total - s.defined[m]
            num = s.sums[m] + np.where(missing > 0, missing * inp.zero_division, 0.0)
            out[m] = ratio(num, s.total, inp.zero_division)[0]
    return out


@dataclass(frozen=True)
class Average:
    """A named averaging method.

    Attributes
    ----------
    name
        The report (and JSON) name.
    title
        How the text report names it.
    definition
        The formula in words, printed in every report that uses it.
    short
        A short parenthetical for report rows; ``{F}`` stands for F1/F2…, ``{freq}`` for the lfb source.
    tasks
        The tasks it applies to ("single-label", "multi-label").
    compute
        Per-label input → {measure: value} for every measure of ``input.measures`` (default :data:`AVERAGED`;
        with F, macro_fa needs precision and recall among them), arrays of the input's
        leading shape.
    """

    name: str
    title: str
    definition: str
    short: str
    tasks: frozenset[str]
    compute: Callable[[AverageInput], Result]


_BOTH = frozenset({"single-label", "multi-label"})

#: The averaging methods, in report order.
AVERAGES: Mapping[str, Average] = {
    a.name: a
    for a in (
        Average(
            "micro",
            "micro",
            "the measure on tp, fp, fn and tn summed over the label set",
            "summed tp, fp, fn, tn",
            _BOTH,
            _micro,
        ),
        Average(
            "macro",
            "macro (AF)",
            "unweighted mean over the label set of each label's measure",
            "AF: mean of per-label {F}",
            _BOTH,
            _macro,
        ),
        Average(
            "macro_fa",
            "macro (FA)",
            "every measure as macro but F, which is the F of macro precision and macro recall",
            "FA: {F} of macro P and macro R",
            _BOTH,
            _macro_fa,
        ),
        Average(
            "weighted",
            "weighted",
            "mean of each label's measure weighted by its gold support",
            "mean weighted by gold support",
            _BOTH,
            _support_weighted,
        ),
        Average(
            "lfb",
            "lfb",
            "label-frequency-based: mean of each label's measure weighted by its relative "
            "frequency (training data when given, else test gold)",
            "mean weighted by {freq} label frequencies",
            _BOTH,
            _lfb,
        ),
        Average(
            "samples",
            "samples",
            "mean over instances of the measure on each instance's gold and predicted label sets",
            "mean over instances",
            frozenset({"multi-label"}),
            _samples,
        ),
    )
}
