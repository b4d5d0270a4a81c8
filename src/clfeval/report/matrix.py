"""The confusion matrix as a report shows it: whole for few labels, the most frequent labels and an ``other`` row
and column for many, and the most frequent confusions.

A matrix of K labels has K² cells; every report that draws or prints it (text, Markdown, LaTeX, the heat map)
shows at most :data:`MAX_SHOWN_LABELS` labels and says how many it added up. The JSON and CSV outputs keep every
non-zero cell. Counts are folded from their non-zero cells, never from a K×K table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import SplitMatrix

__all__ = ["MAX_SHOWN_LABELS", "TOP_CONFUSIONS", "ShownMatrix", "nonzero_cells", "shown_matrix", "top_confusions"]

#: The most labels a printed or drawn confusion matrix shows; beyond, the least frequent are added up into one.
MAX_SHOWN_LABELS = 40
#: How many of the largest off-diagonal cells a report of a folded matrix lists.
TOP_CONFUSIONS = 20


@dataclass(frozen=True, eq=False)
class ShownMatrix:
    """A confusion matrix as shown.

    Attributes
    ----------
    labels
        The labels shown, in order; with ``folded`` > 0 one of them is ``other (F labels)``.
    cells
        The counts (float64), rows gold and columns predicted: the gold-row view of a split-count matrix.
    column_cells
        The same for the column (precision) view: ``cells`` for single-label data, the predicted-column view of a
        split-count matrix.
    folded
        How many labels were added up into ``other`` (0: none).
    total_labels
        K, the labels of the whole matrix.
    """

    labels: tuple[str, ...]
    cells: np.ndarray
    column_cells: np.ndarray
    folded: int
    total_labels: int


def _by_support(support: np.ndarray, pinned_last: bool) -> np.ndarray:
    """Label positions, most frequent gold label first (ties in label order); ``pinned_last`` keeps the last label
    (multi-label ∅) at the end."""
    n = len(support) - (1 if pinned_last else 0)
    order = np.lexsort((np.arange(n), -support[:n]))
    return np.concatenate([order, [n]]) if pinned_last else order


def shown_matrix(
    confusion: ConfusionCounts | SplitMatrix, *, limit: int = MAX_SHOWN_LABELS, by_support: bool = True
) -> ShownMatrix:
    """``confusion`` with its labels sorted by gold support (``by_support``; else in their own order) and, beyond
    ``limit`` labels, the least frequent added up into one ``other`` row and column (before ∅, which stays last).

    Notes
    -----
    Counts are folded from their non-zero cells (a split-count matrix's, each view): each cell (g, p) goes to
    (g', p'), a label's new position or ``other``'s, with one ``bincount`` of limit² bins: O(cells + K).
    """
    labels = tuple(confusion.labels)
    k = len(labels)
    split = isinstance(confusion, SplitMatrix)
    support = confusion.gold_totals.astype(np.float64)
    if split:  # a label's row of the gold-row view adds up to its gold frequency, a whole number: ties stay ties
        support = np.rint(support)
    order = _by_support(support, split) if by_support or k > limit else np.arange(k)
    tail = [k - 1] if split else []
    if k > limit:
        keep = order[: limit - 1 - len(tail)]
        folded = k - len(keep) - len(tail)
        shown = (*(labels[i] for i in keep), f"other ({folded} labels)", *(labels[i] for i in tail))
        position = np.full(k, len(keep), dtype=np.int64)  # every label not kept goes to "other"
    else:
        keep, folded, shown = order, 0, tuple(labels[i] for i in order)
        position = np.zeros(k, dtype=np.int64)
    position[keep] = np.arange(len(keep))
    if tail:
        position[tail] = len(shown) - 1
    size = len(shown)
    keys = position[confusion.gold] * size + position[confusion.pred]
    if isinstance(confusion, SplitMatrix):
        cells = np.bincount(keys, weights=confusion.gold_counts, minlength=size * size).reshape(size, size)
        column_cells = np.bincount(keys, weights=confusion.predicted_counts, minlength=size * size).reshape(size, size)
    else:
        cells = column_cells = np.bincount(keys, weights=confusion.count, minlength=size * size).reshape(size, size)
    return ShownMatrix(shown, cells, column_cells, folded, k)


def top_confusions(confusion: ConfusionCounts, n: int = TOP_CONFUSIONS) -> list[tuple[str, str, float, float]]:
    """The ``n`` largest off-diagonal cells: (gold, predicted, count, count / gold support), largest first (ties in
    (gold, predicted) position order)."""
    off = np.flatnonzero(confusion.gold != confusion.pred)
    if not len(off):
        return []
    counts = confusion.count[off]
    chosen = off[np.lexsort((off, -counts))[:n]]
    support = confusion.gold_totals
    return [
        (
            confusion.labels[g],
            confusion.labels[p],
            int(c) if float(c).is_integer() else float(c),
            float(c) / float(support[g]),
        )
        for g, p, c in zip(confusion.gold[chosen], confusion.pred[chosen], confusion.count[chosen])
    ]


def nonzero_cells(confusion: ConfusionCounts | SplitMatrix) -> list[tuple[str, str, tuple[float, ...]]]:
    """Every non-zero cell: (gold, predicted, its values): the count, or a split-count matrix's gold-row and
    predicted-column views (a cell non-zero in either)."""
    labels = confusion.labels
    if isinstance(confusion, SplitMatrix):
        m = confusion
        return [
            (labels[i], labels[j], (float(a), float(b)))
            for i, j, a, b in zip(m.gold.tolist(), m.pred.tolist(), m.gold_counts.tolist(), m.predicted_counts.tolist())
        ]
    return [(g, p, (c,)) for g, p, c in confusion.entries()]
