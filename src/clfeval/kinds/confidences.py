"""Predictions with their confidences: :class:`~clfeval.count.confidence.ConfidenceCounts`, what ``finagle`` reads.

Rows (gold, predicted, confidence) with counts; ``finagle`` rewrites predictions on them and scores the confusion
matrices it makes. They have no count file and are not scored as they are.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from clfeval.count.confidence import ConfidenceCounts
from clfeval.kinds.kind import Kind, register_kind

__all__ = ["Confidences"]


class Confidences(Kind):
    """(gold, predicted, confidence) rows: :class:`~clfeval.count.confidence.ConfidenceCounts`."""

    name: ClassVar[str] = "confidences"
    title: ClassVar[str] = "confidences"
    counts_type: ClassVar[type] = ConfidenceCounts
    tasks: ClassVar[frozenset[str]] = frozenset({"finagle"})

    def labels_seen(self, counts: ConfidenceCounts) -> tuple[set[str], set[str]]:
        labels = np.array(counts.labels, dtype=object)
        return set(labels[counts.gold].tolist()), set(labels[counts.pred].tolist())

    def n_types(self, counts: ConfidenceCounts) -> int:
        return len(counts.counts)

    def describe(self, counts: Any) -> str:
        return "confidences"


CONFIDENCES = register_kind(Confidences())
