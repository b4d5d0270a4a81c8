"""Scores in the shape Φ(Σ_λ ψ(λ)): per-label parts, summed over the labels, then combined.

Every average and every overall measure is written this way (:class:`Separable`): ``parts`` gives, for
each label λ of the table, a few numbers ψ_r(λ) that depend on that label's counts (and N) only;
``combine`` turns their sums R_r = Σ_λ ψ_r(λ) (and the data set's scalar sums: N, exact matches …)
into the score. The point estimate, the bootstrap and the jackknife evaluate Φ(Σψ) as one
computation; the delta method (:mod:`clfeval.infer.delta`) differentiates ψ label by label, all
labels at once, and Φ on a handful of sums, so its cost grows with the labels plus the cell types,
not with their product.

One sum is not over single labels: linear κ's chance disagreement Σ_ij |i − j|·t_i·p_j pairs every
gold label with every predicted one. It is a :class:`Pair`, whose derivative with respect to t_i is
(W p)_i and to p_j is (W t)_j, W = |i − j|, two prefix-sum vectors (:func:`linear_spread`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Pair", "Part", "Parts", "Separable", "linear_spread", "summed"]


def linear_spread(values: np.ndarray) -> np.ndarray:
    """(W v)_i = Σ_j |i − j|·v_j over the last axis, in O(T) with prefix sums (no T×T).

    Notes
    -----
    With P_i = Σ_{j≤i} v_j and Q_i = Σ_{j≤i} j·v_j: (W v)_i = 2(i·P_i − Q_i) + Q_T − i·P_T.
    """
    positions = np.arange(np.shape(values)[-1], dtype=np.float64)
    cum_p, cum_q = np.cumsum(values, axis=-1), np.cumsum(values * positions, axis=-1)
    spread: np.ndarray = 2 * (positions * cum_p - cum_q) + cum_q[..., -1:] - positions * cum_p[..., -1:]
    return spread


@dataclass(frozen=True, eq=False)
class Pair:
    """The bilinear sum Σ_ij |i − j|·gold_i·pred_j over the table's positions i, j (last axis of both).

    Its derivative along a change (δg, δp) of the two vectors is δgᵀ(W pred) + δpᵀ(W gold).
    """

    gold: np.ndarray
    pred: np.ndarray

    def total(self) -> np.ndarray:
        """The sum, of the leading shape."""
        total: np.ndarray = (self.gold * linear_spread(self.pred)).sum(axis=-1)
        return total


#: One part: per-label values ψ(λ) on the last axis (summed over it), or a :class:`Pair`.
Part = np.ndarray | Pair
#: The parts of a score, by name.
Parts = Mapping[str, Part]


def summed(parts: Parts) -> dict[str, np.ndarray]:
    """R_r = Σ_λ ψ_r(λ) for every part (a :class:`Pair` by its own sum)."""
    return {name: p.total() if isinstance(p, Pair) else np.asarray(p).sum(axis=-1) for name, p in parts.items()}


@dataclass(frozen=True)
class Separable:
    """A computation written as ``combine(summed(parts(*args)), *args)``.

    Attributes
    ----------
    parts
        ``(*args)`` → the per-label parts (:data:`Parts`); each part of label λ depends on λ's counts and the
        data set's scalar sums only.
    combine
        ``(sums of the parts, *args)`` → the result; it reads the per-label arrays of ``args`` only through
        the parts' sums.
    """

    parts: Callable[..., Parts]
    combine: Callable[..., Any]

    def __call__(self, *args: Any) -> Any:
        """The result: the parts of ``args``, summed over the labels, combined."""
        return self.combine(summed(self.parts(*args)), *args)
