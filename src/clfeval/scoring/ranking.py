"""How well scores rank: ROC AUC (binary, one-vs-rest averages, Hand & Till's one-vs-one), average precision, and
the ROC and precision-recall curves, from :class:`~clfeval.count.scored.ScoreCounts`.

Every function reads one-vs-rest tables — a column's distinct scores ascending, with the weight of positives and
negatives at each (:meth:`ScoreCounts.column`: instances, or with sample weights their mass Σ m·w) — so ties are
grouped once and the cost after the counting sort is
linear in the distinct scores.

Conventions, stated wherever the values are reported:

* **Ties** in AUC count ½ (the Mann-Whitney statistic with midranks): AUC = Σ_v w⁺(v) (N_<(v) + ½ w⁻(v)) / (P N),
  with N_<(v) the negatives scoring below v. It does not depend on row order.
* **Average precision** is scikit-learn's step-wise sum AP = Σ_n (R_n − R_{n−1}) P_n over the distinct thresholds,
  highest first (no interpolation).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from clfeval.count.scored import ScoreCounts

__all__ = [
    "AUC_AVERAGES",
    "auc_of",
    "average_precision",
    "average_precision_of",
    "micro_roc_curve",
    "averaged_auc",
    "ovo_auc",
    "ovr_auc",
    "pr_curve",
    "roc_curve",
]

#: The ways a multi-class AUC is averaged, by name (scikit-learn's ``average``/``multi_class`` names in brackets).
AUC_AVERAGES: Mapping[str, str] = {
    "macro": "mean of the one-vs-rest AUCs of the classes (ovr, macro)",
    "weighted": "one-vs-rest AUCs weighted by each class's gold support (ovr, weighted)",
    "micro": "the AUC of every (instance, class) pair pooled: the one-vs-rest tables added (ovr, micro)",
    "ovo": "Hand & Till (2001): the mean over pairs of classes of the mean of A(i|j) and A(j|i) (ovo, macro)",
    "ovo_weighted": "Hand & Till's pairs weighted by the prevalence of the pair (ovo, weighted)",
}


def auc_of(values: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> float:
    """The AUC of a one-vs-rest table (distinct scores ascending, weights of positives and negatives at each), ties
    counted ½; NaN without positives or without negatives."""
    p, n = float(pos.sum()), float(neg.sum())
    if p == 0 or n == 0:
        return float("nan")
    # Σ pos_i (negatives below s_i + ½ negatives at s_i) = pos · cumsum(neg) − ½ pos · neg
    return float((np.dot(pos, np.cumsum(neg)) - 0.5 * np.dot(pos, neg)) / (p * n))


def _column_auc(counts: ScoreCounts, c: int) -> float:
    return auc_of(*counts.column(c))


def ovr_auc(counts: ScoreCounts) -> dict[str, float]:
    """Each score column's one-vs-rest AUC (binary: the positive class's alone), by class."""
    return {name: _column_auc(counts, c) for c, name in enumerate(counts.columns)}


def averaged_auc(counts: ScoreCounts, average: str) -> float:
    """A multi-class AUC averaged as :data:`AUC_AVERAGES` names (binary scores: the AUC itself, whatever
    ``average``)."""
    if counts.binary:
        return _column_auc(counts, 0)
    per = ovr_auc(counts)
    if average == "macro":
        return float(np.mean(list(per.values())))
    if average == "weighted":
        support = counts.weighted_support()  # with sample weights: each class's Σ m·w, as scikit-learn's
        w = np.array([support[counts.labels.index(c)] for c in counts.columns])
        return float(np.dot(w, list(per.values())) / w.sum())
    if average == "micro":
        tables = [counts.column(c) for c in range(len(counts.columns))]
        values = np.concatenate([t[0] for t in tables])
        pos, neg = np.concatenate([t[1] for t in tables]), np.concatenate([t[2] for t in tables])
        order = np.argsort(values, kind="stable")
        v, start = np.unique(values[order], return_index=True)
        return auc_of(v, np.add.reduceat(pos[order], start), np.add.reduceat(neg[order], start))
    if average in ("ovo", "ovo_weighted"):
        return ovo_auc(counts, weighted=average == "ovo_weighted")
    raise ValueError(f"unknown AUC average {average!r}")


def ovo_auc(counts: ScoreCounts, *, weighted: bool = False) -> float:
    """Hand & Till's (2001) multi-class AUC: for each pair of classes i < j, Â(i, j) = (A(i|j) + A(j|i)) / 2, where
    A(i|j) is the AUC of class i's scores on the instances of classes i and j (i positive); the mean over pairs, or
    (``weighted``) weighted by the pair's prevalence (p_i + p_j), as scikit-learn's ``average="weighted"``."""
    k = len(counts.labels)
    support = counts.weighted_support()
    total = 0.0
    weights = 0.0
    for i in range(k):
        for j in range(i + 1, k):
            a = (_pair_auc(counts, i, j) + _pair_auc(counts, j, i)) / 2
            w = (support[i] + support[j]) / support.sum() if weighted else 1.0
            total += w * a
            weights += w
    return float(total / weights) if weights else float("nan")


def _pair_auc(counts: ScoreCounts, i: int, j: int) -> float:
    """A(i|j): the AUC of class i's scores, instances of class i positive and of class j negative."""
    c = counts.columns.index(counts.labels[i])
    mine = ((counts.gold == i) | (counts.gold == j)) & (counts.count > 0)
    s = counts.scores[mine, c]
    mass = counts.mass[mine]
    pos = np.where(counts.gold[mine] == i, mass, 0.0)
    allw = mass
    order = np.argsort(s, kind="stable")
    v, start = np.unique(s[order], return_index=True)
    if not len(v):
        return float("nan")
    p = np.add.reduceat(pos[order], start)
    return auc_of(v, p, np.add.reduceat(allw[order], start) - p)


def _descending(values: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds from the highest score down, with the positives and negatives at or above each."""
    return values[::-1], np.cumsum(pos[::-1]), np.cumsum(neg[::-1])


def average_precision_of(values: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> float:
    """Step-wise average precision of a one-vs-rest table: AP = Σ_n (R_n − R_{n−1}) P_n over the distinct thresholds
    from the highest down (scikit-learn's ``average_precision_score``); NaN without positives."""
    _, tp, fp = _descending(values, pos, neg)
    p = float(pos.sum())
    if p == 0:
        return float("nan")
    precision = _precision(tp, fp)
    recall = tp / p
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


def _precision(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """tp / (tp + fp), 0 at thresholds with no weight at or above them (sample weights of 0 at the top scores, as
    scikit-learn's ``precision_recall_curve``)."""
    out = np.zeros_like(tp, dtype=np.float64)
    np.divide(tp, tp + fp, out=out, where=(tp + fp) != 0)
    return out


def average_precision(counts: ScoreCounts) -> dict[str, float]:
    """Each score column's step-wise average precision, by class."""
    return {name: average_precision_of(*counts.column(c)) for c, name in enumerate(counts.columns)}


def roc_curve(counts: ScoreCounts, c: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ROC curve of score column ``c``: false and true positive rates at each distinct threshold from the highest
    down (a point (0, 0) first, at threshold +∞), and the thresholds."""
    values, tp, fp = _descending(*counts.column(c))
    p, n = (tp[-1], fp[-1]) if len(tp) else (0.0, 0.0)
    fpr = np.r_[0.0, fp / n] if n else np.r_[0.0, np.full(len(fp), np.nan)]
    tpr = np.r_[0.0, tp / p] if p else np.r_[0.0, np.full(len(tp), np.nan)]
    return fpr, tpr, np.r_[np.inf, values]


def micro_roc_curve(counts: ScoreCounts) -> tuple[np.ndarray, np.ndarray]:
    """The ROC curve of every (instance, class) pair pooled (the curve of ``micro.auc``; binary scores: the positive
    class's curve): false and true positive rates from the highest threshold down."""
    if counts.binary:
        fpr, tpr, _ = roc_curve(counts, 0)
        return fpr, tpr
    tables = [counts.column(c) for c in range(len(counts.columns))]
    values = np.concatenate([t[0] for t in tables])
    pos, neg = np.concatenate([t[1] for t in tables]), np.concatenate([t[2] for t in tables])
    order = np.argsort(values, kind="stable")
    v, start = np.unique(values[order], return_index=True)
    _, tp, fp = _descending(v, np.add.reduceat(pos[order], start), np.add.reduceat(neg[order], start))
    return np.r_[0.0, fp / fp[-1]], np.r_[0.0, tp / tp[-1]]


def pr_curve(counts: ScoreCounts, c: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The precision-recall curve of score column ``c``: precision and recall at each distinct threshold from the
    highest down, and the thresholds."""
    values, tp, fp = _descending(*counts.column(c))
    p = tp[-1] if len(tp) else 0.0
    return _precision(tp, fp), (tp / p if p else np.full(len(tp), np.nan)), values
