"""Single-label counts: the K×K confusion matrix ``cells[gold, pred]``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.limits import check_dense, count_array
from clfeval.errors import InputError

__all__ = ["ConfusionCounts"]


@dataclass(frozen=True, eq=False)
class ConfusionCounts:
    """Counts of single-label predictions: ``cells[i, j]`` = instances with gold ``labels[i]`` predicted ``labels[j]``.

    These are the sufficient statistics of every single-label measure. Counts of
    parts (file chunks, partitions, folds) add up with ``+``; labels are aligned by
    name, so parts need not have seen the same labels.

    Raises
    ------
    InputError
        If the labels repeat, ``cells`` is not a K×K table of whole numbers ≥ 0, or the counts exceed
        what float64 arithmetic keeps exact (:mod:`clfeval.count.limits`).
    """

    labels: tuple[str, ...]
    cells: np.ndarray

    def __post_init__(self) -> None:
        k = len(self.labels)
        if len(set(self.labels)) != k:
            repeated = sorted({lab for lab in self.labels if list(self.labels).count(lab) > 1})
            raise InputError(f"labels must be distinct; repeated: {', '.join(map(repr, repeated))}")
        check_dense(k)
        cells = count_array(self.cells, "cells")
        if cells.shape != (k, k):
            raise InputError(f"cells has shape {cells.shape}, expected ({k}, {k}) for {k} labels")
        cells.setflags(write=False)
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "cells", cells)

    @property
    def n_instances(self) -> int:
        """Number of instances counted: the sum of all cells."""
        return int(self.cells.sum())

    @classmethod
    def empty(cls, labels: Sequence[str] = ()) -> ConfusionCounts:
        """Counts of no instances over ``labels``."""
        k = len(labels)
        check_dense(k)
        return cls(tuple(labels), np.zeros((k, k), dtype=np.int64))

    def with_labels(self, labels: Sequence[str]) -> ConfusionCounts:
        """The same counts over ``labels`` (a superset of the labels with non-zero counts), in that order."""
        labels = tuple(labels)
        index = {lab: i for i, lab in enumerate(labels)}
        missing = [
            lab
            for lab, row, col in zip(self.labels, self.cells.sum(1), self.cells.sum(0))
            if lab not in index and (row or col)
        ]
        if missing:
            raise ValueError(f"labels {missing} have counts but are not in the new label list")
        keep = [i for i, lab in enumerate(self.labels) if lab in index]
        pos = np.array([index[self.labels[i]] for i in keep], dtype=np.intp)
        check_dense(len(labels))
        cells = np.zeros((len(labels), len(labels)), dtype=np.int64)
        if keep:
            cells[np.ix_(pos, pos)] = self.cells[np.ix_(keep, keep)]
        return ConfusionCounts(labels, cells)

    def __add__(self, other: object) -> ConfusionCounts:
        if not isinstance(other, ConfusionCounts):
            return NotImplemented
        if other.labels == self.labels:
            return ConfusionCounts(self.labels, self.cells + other.cells)
        labels = self.labels + tuple(lab for lab in other.labels if lab not in set(self.labels))
        return ConfusionCounts(labels, self.with_labels(labels).cells + other.with_labels(labels).cells)

    def __radd__(self, other: object) -> ConfusionCounts:
        if other == 0:  # so that sum(parts) works
            return self
        return self.__add__(other)

    def label_counts(self, label_set: Sequence[str]) -> LabelCounts:
        """One-vs-rest tp/fp/fn/tn of each label in ``label_set`` (labels never seen count zero).

        Notes
        -----
        tp_λ = cells[λ, λ]; fp_λ = Σ_g cells[g, λ] − tp_λ; fn_λ = Σ_p cells[λ, p] − tp_λ;
        tn_λ = N − tp_λ − fp_λ − fn_λ.
        """
        aligned = self.with_labels(tuple(label_set) + tuple(lab for lab in self.labels if lab not in set(label_set)))
        k = len(label_set)
        diag = np.diagonal(aligned.cells)[:k]
        tp = diag.copy()
        fp = aligned.cells.sum(axis=0)[:k] - tp
        fn = aligned.cells.sum(axis=1)[:k] - tp
        n = self.n_instances
        return LabelCounts(tuple(label_set), tp, fp, fn, n - tp - fp - fn, n)
