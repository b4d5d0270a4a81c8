"""Counts that keep each prediction's confidence: unique (gold, predicted, confidence) rows with counts.

What :func:`clfeval.finagle` needs to change low-confidence predictions and recount, without
going back to the instances: every rewrite of predictions is a vectorised relabelling of the
unique rows, and the confusion matrix is one weighted ``bincount``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from clfeval.count.confusion import ConfusionCounts

__all__ = ["ConfidenceCounts"]


@dataclass(frozen=True, eq=False)
class ConfidenceCounts:
    """Unique (gold, predicted, confidence) rows and how often each occurs.

    Attributes
    ----------
    labels
        Every label seen (gold or predicted), sorted.
    gold, pred
        Codes into ``labels``, one per row.
    confidence
        The confidence of each row's prediction, as given (a distance when ``lower_is_more_confident``).
    counts
        Instances per row.
    lower_is_more_confident
        The column holds distances (TiMBL's distance to the nearest neighbour): lower is surer.
    """

    labels: tuple[str, ...]
    gold: np.ndarray
    pred: np.ndarray
    confidence: np.ndarray
    counts: np.ndarray
    lower_is_more_confident: bool = False

    @classmethod
    def from_rows(
        cls,
        gold: Sequence[str],
        pred: Sequence[str],
        confidence: Sequence[float] | np.ndarray,
        counts: Sequence[int] | np.ndarray | None = None,
        *,
        lower_is_more_confident: bool = False,
    ) -> ConfidenceCounts:
        """From parallel sequences (instances, or unique rows with ``counts``)."""
        labels, codes = np.unique(
            np.concatenate([np.asarray(gold, dtype=str), np.asarray(pred, dtype=str)]), return_inverse=True
        )
        n = len(gold)
        weights = np.ones(n, dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64)
        return cls(
            tuple(str(v) for v in labels),
            codes[:n].astype(np.intp),
            codes[n:].astype(np.intp),
            np.asarray(confidence, dtype=np.float64),
            weights,
            lower_is_more_confident,
        )

    @property
    def n_instances(self) -> int:
        return int(self.counts.sum())

    @property
    def sureness(self) -> np.ndarray:
        """Higher is more confident: the confidence, or minus the distance."""
        return -self.confidence if self.lower_is_more_confident else self.confidence

    @property
    def correct(self) -> np.ndarray:
        correct: np.ndarray = self.gold == self.pred
        return correct

    def with_label(self, label: str) -> ConfidenceCounts:
        """The same counts with ``label`` among the labels (a target no instance has yet)."""
        if label in self.labels:
            return self
        labels = tuple(sorted(self.labels + (label,)))
        remap = np.array([labels.index(k) for k in self.labels], dtype=np.intp)
        return ConfidenceCounts(
            labels, remap[self.gold], remap[self.pred], self.confidence, self.counts, self.lower_is_more_confident
        )

    def confusion(self, pred: np.ndarray | None = None) -> ConfusionCounts:
        """The confusion matrix of these rows, with ``pred`` (codes, one per row) in place of the predictions."""
        codes = self.pred if pred is None else pred
        return ConfusionCounts.from_entries(self.labels, self.gold, codes, np.rint(self.counts).astype(np.int64))

    def relabelled(self, change: np.ndarray, target: str) -> np.ndarray:
        """Prediction codes with the rows where ``change`` holds predicted as ``target``."""
        return np.where(change, self.labels.index(target), self.pred)
