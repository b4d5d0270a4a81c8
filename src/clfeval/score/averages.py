"""Averaging methods, by name: each turns per-label values (and counts) into one precision, recall and F.

Every average is a registry entry with its formula in words; nothing averages implicitly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.score.ratios import f_beta, ratio

__all__ = ["AVERAGES", "Average", "AverageInput", "InstanceMatrices", "PerLabel", "weighted_mean"]

MEASURES = ("precision", "recall", "f")


@dataclass(frozen=True, eq=False)
class PerLabel:
    """Per-label values of each measure over the label set, and where each was undefined (0/0)."""

    counts: LabelCounts
    values: Mapping[str, np.ndarray]
    undefined: Mapping[str, np.ndarray]


@dataclass(frozen=True, eq=False)
class AverageInput:
    """Everything an average may need, computed once per report."""

    per_label: PerLabel
    beta: float
    zero_division: float
    undefined: str
    frequencies: np.ndarray
    instances: InstanceMatrices | None


Result = dict[str, float]


@dataclass(frozen=True, eq=False)
class InstanceMatrices:
    """Multi-label data over the label set: label multiplicities of each unique (gold, predicted) pair.

    ``gold[u, λ]`` and ``pred[u, λ]`` count λ in pair u's gold and predicted lists; ``weights[u]``
    is how many instances have pair u.
    """

    gold: np.ndarray
    pred: np.ndarray
    weights: np.ndarray

    @classmethod
    def of(cls, counts: LabelSetCounts, label_set: tuple[str, ...]) -> "InstanceMatrices":
        """The matrices of ``counts`` over ``label_set``."""
        return cls(*counts.indicator(label_set))


def weighted_mean(values: np.ndarray, weights: np.ndarray, undefined: np.ndarray, policy: str,
                  zero_division: float) -> tuple[float, bool]:
    """Σ wᵢvᵢ / Σ wᵢ; with ``policy="exclude"`` labels whose value is undefined drop out.

    Returns the mean and whether it is itself undefined (no weight left).
    """
    w = np.where(undefined, 0.0, weights) if policy == "exclude" else np.asarray(weights, dtype=np.float64)
    total = w.sum()
    if total == 0:
        return zero_division, True
    return float(np.sum(np.where(w > 0, values * w, 0.0)) / total), False


def _weighted(inp: AverageInput, weights: np.ndarray) -> Result:
    out: Result = {}
    for m in MEASURES:
        out[m], _ = weighted_mean(inp.per_label.values[m], weights, inp.per_label.undefined[m],
                                  inp.undefined, inp.zero_division)
    return out


def _micro(inp: AverageInput) -> Result:
    c = inp.per_label.counts
    tp, fp, fn = c.tp.sum(), c.fp.sum(), c.fn.sum()
    p, _ = ratio(tp, tp + fp, inp.zero_division)
    r, _ = ratio(tp, tp + fn, inp.zero_division)
    f, _ = f_beta(tp, fp, fn, inp.beta, inp.zero_division)
    return {"precision": float(p), "recall": float(r), "f": float(f)}


def _macro(inp: AverageInput) -> Result:
    return _weighted(inp, np.ones(len(inp.per_label.counts.labels)))


def _macro_fa(inp: AverageInput) -> Result:
    out = _macro(inp)
    p, r, b2 = out["precision"], out["recall"], inp.beta ** 2
    f, _ = ratio(np.float64((1 + b2) * p * r), np.float64(b2 * p + r), inp.zero_division)
    out["f"] = float(f)
    return out


def _support_weighted(inp: AverageInput) -> Result:
    return _weighted(inp, inp.per_label.counts.support.astype(np.float64))


def _lfb(inp: AverageInput) -> Result:
    return _weighted(inp, inp.frequencies)


def _samples(inp: AverageInput) -> Result:
    assert inp.instances is not None
    g_mat, p_mat, w = inp.instances.gold, inp.instances.pred, inp.instances.weights
    inter = np.minimum(g_mat, p_mat).sum(axis=1)
    n_pred, n_gold = p_mat.sum(axis=1), g_mat.sum(axis=1)
    values = {
        "precision": ratio(inter, n_pred, inp.zero_division),
        "recall": ratio(inter, n_gold, inp.zero_division),
        "f": f_beta(inter, n_pred - inter, n_gold - inter, inp.beta, inp.zero_division),
    }
    return {m: weighted_mean(v, w.astype(np.float64), und, inp.undefined, inp.zero_division)[0]
            for m, (v, und) in values.items()}


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
        Per-label input → {"precision", "recall", "f"}.
    """

    name: str
    title: str
    definition: str
    short: str
    tasks: frozenset[str]
    compute: Callable[[AverageInput], Result]


_BOTH = frozenset({"single-label", "multi-label"})

#: The averaging methods, in report order.
AVERAGES: Mapping[str, Average] = {a.name: a for a in (
    Average("micro", "micro", "the measure on tp, fp and fn summed over the label set",
            "summed tp, fp, fn", _BOTH, _micro),
    Average("macro", "macro (AF)", "unweighted mean over the label set of each label's measure",
            "AF: mean of per-label {F}", _BOTH, _macro),
    Average("macro_fa", "macro (FA)", "precision and recall as macro; F is the F of macro precision "
            "and macro recall", "FA: {F} of macro P and macro R", _BOTH, _macro_fa),
    Average("weighted", "weighted", "mean of each label's measure weighted by its gold support",
            "mean weighted by gold support", _BOTH, _support_weighted),
    Average("lfb", "lfb", "label-frequency-based: mean of each label's measure weighted by its relative "
            "frequency (training data when given, else test gold)", "mean weighted by {freq} label frequencies",
            _BOTH, _lfb),
    Average("samples", "samples", "mean over instances of the measure on each instance's gold and "
            "predicted label sets", "mean over instances", frozenset({"multi-label"}), _samples),
)}
