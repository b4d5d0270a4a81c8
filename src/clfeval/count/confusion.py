"""Single-label counts: the confusion matrix ``cells[gold, pred]``, held as its non-zero cells.

A confusion matrix over K labels has K² cells, but data fill few of them: 10⁴ labels give 10⁸
cells and, in a typical test set, a million or two that are not zero. :class:`ConfusionCounts`
keeps only those (the distinct (gold, predicted) pairs and their counts), so memory and time grow
with the pairs the data hold, not with K². The dense matrix is there on request, for small K.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.limits import check_dense, check_total, count_array, exact_total
from clfeval.errors import InputError

__all__ = ["ConfusionCounts"]

_EMPTY = np.zeros(0, dtype=np.int64)


class ConfusionCounts:
    """Counts of single-label predictions: how many instances with gold ``labels[i]`` were predicted ``labels[j]``.

    These are the sufficient statistics of every single-label measure. Counts of parts (file
    chunks, partitions, folds) add up with ``+``; labels are aligned by name, so parts need not have
    seen the same labels.

    Parameters
    ----------
    labels
        The K labels, distinct.
    cells
        The K×K table of counts, rows gold and columns predicted (nested lists or an array). For many
        labels, build from the non-zero cells instead: :meth:`from_entries`.

    Attributes
    ----------
    labels
        The labels.
    gold, pred, count
        The non-zero cells: gold and predicted label positions (int64) and their counts (int64 > 0),
        sorted by (gold, pred), each cell once.

    Raises
    ------
    InputError
        If the labels repeat, ``cells`` is not a K×K table of whole numbers ≥ 0, or the counts exceed
        what float64 arithmetic keeps exact (:mod:`clfeval.count.limits`).

    Notes
    -----
    Everything here costs O(U + K) for U non-zero cells: margins are ``bincount`` of the cells'
    positions, merging is a sort of the cells' keys gold·K + pred. Only :attr:`cells` (the dense
    table) grows with K²; it refuses more labels than :func:`clfeval.count.limits.check_dense` allows.
    """

    labels: tuple[str, ...]
    gold: np.ndarray
    pred: np.ndarray
    count: np.ndarray

    def __init__(self, labels: Sequence[str], cells: Any) -> None:
        labels = tuple(labels)
        k = len(labels)
        _check_labels(labels)
        table = count_array(cells, "cells")
        if k == 0 and table.size == 0:
            table = table.reshape(0, 0)  # no labels: JSON writes the empty table as [], which reads back 1-D
        if table.shape != (k, k):
            raise InputError(f"cells has shape {table.shape}, expected ({k}, {k}) for {k} labels")
        g, p = np.nonzero(table)
        self._set(labels, g.astype(np.int64), p.astype(np.int64), table[g, p])

    def _set(self, labels: tuple[str, ...], gold: np.ndarray, pred: np.ndarray, count: np.ndarray) -> None:
        for a in (gold, pred, count):
            a.setflags(write=False)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "gold", gold)
        object.__setattr__(self, "pred", pred)
        object.__setattr__(self, "count", count)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"ConfusionCounts is immutable: cannot set {name}")

    def __reduce__(self) -> tuple[Any, ...]:  # pickling (Dask ships counts between processes)
        return (_rebuilt, (self.labels, self.gold, self.pred, self.count))

    @classmethod
    def from_entries(
        cls, labels: Sequence[str], gold: Any, pred: Any, count: Any, *, source: str | None = None
    ) -> ConfusionCounts:
        """Counts from cells given as label positions: ``count[u]`` instances of gold ``labels[gold[u]]``
        predicted ``labels[pred[u]]``. Cells may repeat (their counts add up) and be zero (dropped).

        Raises
        ------
        InputError
            If a position is outside the labels, a count is not a whole number ≥ 0, or the total is above 2⁵³.
        """
        labels = tuple(labels)
        _check_labels(labels, source)
        k = len(labels)
        counts = count_array(np.asarray(count).reshape(-1), "count", source)
        g = np.asarray(gold).reshape(-1)
        p = np.asarray(pred).reshape(-1)
        if not (len(g) == len(p) == len(counts)):
            raise InputError(f"gold, pred and count have lengths {len(g)}, {len(p)}, {len(counts)}: expected one each")
        for what, codes in (("gold", g), ("pred", p)):
            if codes.size and (codes.dtype.kind not in "iu" or codes.min() < 0 or codes.max() >= k):
                raise InputError(f"{what} positions must be whole numbers from 0 to {k - 1} (one per label)", source)
        return cls._trusted(labels, g.astype(np.int64), p.astype(np.int64), counts)

    @classmethod
    def _trusted(
        cls, labels: tuple[str, ...], gold: np.ndarray, pred: np.ndarray, count: np.ndarray
    ) -> ConfusionCounts:
        """Counts from checked labels and cells (positions in range, counts ≥ 0): sorted, merged, zeros dropped."""
        k = max(len(labels), 1)
        keys = gold * k + pred
        if len(keys) and not (np.all(keys[1:] > keys[:-1]) and count.min() > 0):
            keys, inverse = np.unique(keys, return_inverse=True)
            count = np.bincount(inverse.reshape(-1), weights=count, minlength=len(keys)).astype(np.int64)
            nonzero = count > 0
            keys, count = keys[nonzero], count[nonzero]
        out = cls.__new__(cls)
        out._set(labels, keys // k, keys % k, np.ascontiguousarray(count, dtype=np.int64))
        return out

    @classmethod
    def empty(cls, labels: Sequence[str] = ()) -> ConfusionCounts:
        """Counts of no instances over ``labels``."""
        labels = tuple(labels)
        _check_labels(labels)
        return cls._trusted(labels, _EMPTY, _EMPTY, _EMPTY)

    # -- sizes and margins, O(U + K) ----------------------------------------------------------------

    @property
    def n_instances(self) -> int:
        """Number of instances counted: the sum of all cells."""
        return exact_total(self.count)

    @property
    def n_cells(self) -> int:
        """U, the number of non-zero cells (distinct (gold, predicted) pairs)."""
        return len(self.count)

    @property
    def gold_totals(self) -> np.ndarray:
        """Each label's gold count (row sums), in the order of :attr:`labels`."""
        return self._margin("gold")

    @property
    def pred_totals(self) -> np.ndarray:
        """Each label's predicted count (column sums), in the order of :attr:`labels`."""
        return self._margin("pred")

    @property
    def diagonal(self) -> np.ndarray:
        """Each label's correct predictions (the diagonal), in the order of :attr:`labels`."""
        hit = self.gold == self.pred
        return self._bincount(self.gold[hit], self.count[hit])

    def _margin(self, axis: str) -> np.ndarray:
        return self._bincount(self.gold if axis == "gold" else self.pred, self.count)

    def _bincount(self, codes: np.ndarray, weights: np.ndarray) -> np.ndarray:
        k = len(self.labels)
        if not len(codes):
            return np.zeros(k, dtype=np.int64)
        if weights.max() < 2**53 // max(len(weights), 1):  # float64 sums exact
            return np.bincount(codes, weights=weights, minlength=k).astype(np.int64)
        out = np.zeros(k, dtype=np.int64)
        np.add.at(out, codes, weights)
        return out

    @property
    def cells(self) -> np.ndarray:
        """The dense K×K table, rows gold and columns predicted (read-only; refused above
        :data:`clfeval.count.limits.MAX_DENSE_LABELS` labels: use :attr:`gold`, :attr:`pred`, :attr:`count`)."""
        cached = self.__dict__.get("_cells")
        if cached is None:
            k = len(self.labels)
            check_dense(k)
            cached = np.zeros((k, k), dtype=np.int64)
            cached[self.gold, self.pred] = self.count
            cached.setflags(write=False)
            object.__setattr__(self, "_cells", cached)
        return cached

    def seen_labels(self) -> tuple[set[str], set[str]]:
        """The labels that occur in the gold data, and in the predictions."""
        labels, k = np.array(self.labels, dtype=object), len(self.labels)
        # positions are < K: a bincount finds the used ones in O(cells + K) (np.unique sorts, and its first call
        # imports numpy.ma, a tenth of a short run's start-up)
        gold, pred = (np.flatnonzero(np.bincount(side, minlength=k)) for side in (self.gold, self.pred))
        return set(labels[gold].tolist()), set(labels[pred].tolist())

    def entries(self) -> list[tuple[str, str, int]]:
        """The non-zero cells as (gold label, predicted label, count), in (gold, predicted) position order."""
        labels = self.labels
        return [
            (labels[g], labels[p], c) for g, p, c in zip(self.gold.tolist(), self.pred.tolist(), self.count.tolist())
        ]

    # -- relabelling and merging --------------------------------------------------------------------

    def with_labels(self, labels: Sequence[str]) -> ConfusionCounts:
        """The same counts over ``labels`` (a superset of the labels with non-zero counts), in that order."""
        labels = tuple(labels)
        if labels == self.labels:
            return self
        _check_labels(labels)
        index = {lab: i for i, lab in enumerate(labels)}
        position = np.array([index.get(lab, -1) for lab in self.labels], dtype=np.int64)
        g, p = position[self.gold], position[self.pred]
        lost = (g < 0) | (p < 0)
        if lost.any():
            used = np.zeros(len(self.labels), dtype=bool)
            used[self.gold] = used[self.pred] = True
            missing = [lab for lab, pos, u in zip(self.labels, position, used) if pos < 0 and u]
            raise ValueError(f"labels {missing} have counts but are not in the new label list")
        return ConfusionCounts._trusted(labels, g, p, self.count)

    def __add__(self, other: object) -> ConfusionCounts:
        if not isinstance(other, ConfusionCounts):
            return NotImplemented
        if other.labels == self.labels:
            labels = self.labels
            theirs = other
        else:
            mine = set(self.labels)
            labels = self.labels + tuple(lab for lab in other.labels if lab not in mine)
            theirs = other.with_labels(labels)
        total = self.n_instances + other.n_instances
        check_total(total, "the counts add up to")
        return ConfusionCounts._trusted(
            labels,
            np.concatenate([self.gold, theirs.gold]),
            np.concatenate([self.pred, theirs.pred]),
            np.concatenate([self.count, theirs.count]),
        )

    def __radd__(self, other: object) -> ConfusionCounts:
        if other == 0:  # so that sum(parts) works
            return self
        return self.__add__(other)

    def __repr__(self) -> str:
        return (
            f"ConfusionCounts({len(self.labels)} labels, {self.n_cells} non-zero cells, {self.n_instances} instances)"
        )

    def label_counts(self, label_set: Sequence[str]) -> LabelCounts:
        """One-vs-rest tp/fp/fn/tn of each label in ``label_set`` (labels never seen count zero).

        Notes
        -----
        tp_λ = cells[λ, λ]; fp_λ = Σ_g cells[g, λ] − tp_λ; fn_λ = Σ_p cells[λ, p] − tp_λ;
        tn_λ = N − tp_λ − fp_λ − fn_λ.
        """
        label_set = tuple(label_set)
        index = {lab: i for i, lab in enumerate(self.labels)}
        position = np.array([index.get(lab, -1) for lab in label_set], dtype=np.int64)
        seen = position >= 0
        at = position[seen]

        def over_set(values: np.ndarray) -> np.ndarray:
            out = np.zeros(len(label_set), dtype=np.int64)
            out[seen] = values[at]
            return out

        tp = over_set(self.diagonal)
        fp = over_set(self.pred_totals) - tp
        fn = over_set(self.gold_totals) - tp
        n = self.n_instances
        return LabelCounts(label_set, tp, fp, fn, n - tp - fp - fn, n)


def _rebuilt(labels: tuple[str, ...], gold: np.ndarray, pred: np.ndarray, count: np.ndarray) -> ConfusionCounts:
    return ConfusionCounts._trusted(labels, gold, pred, count)


def _check_labels(labels: tuple[str, ...], source: str | None = None) -> None:
    if len(set(labels)) != len(labels):
        seen: set[str] = set()
        repeated = sorted({lab for lab in labels if lab in seen or seen.add(lab)})  # type: ignore[func-returns-value]
        raise InputError(f"labels must be distinct; repeated: {', '.join(map(repr, repeated))}", source)
