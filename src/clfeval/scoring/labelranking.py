"""Multi-label scores judged instance by instance: how each instance's scores rank its own gold labels above the
others (label ranking average precision, coverage error, ranking loss, and the per-instance AUC and average
precision that scikit-learn calls the ``samples`` average).

For an instance with labels scored s_1 … s_K and gold set G (|G| = P, K − P = N others), write for each label j
ge_j = #{l : s_l ≥ s_j} (its rank, ties counted as the worst place) and gold_j = #{l ∈ G : s_l ≥ s_j}. Then

    LRAP = (1/P) Σ_{j ∈ G} gold_j / ge_j              (1 when P = 0: scikit-learn's convention)
    AP   = the same sum, the step-wise average precision of the instance's scores (defined when P > 0)
    coverage error = max_{j ∈ G} ge_j                  (0 when P = 0)
    ranking loss   = #{(j, l) : j ∈ G, l ∉ G, s_l ≥ s_j} / (P N)   (ties count as wrong; 0 when P = 0 or N = 0)
    AUC  = #{(j, l) : j ∈ G, l ∉ G, s_l < s_j} + ½ #{… s_l = s_j}, over P N   (defined when P > 0 and N > 0)

and each is averaged over instances (a distinct row weighs its count, with sample weights its mass Σ m·w); AUC and AP
over the instances where they are defined, the others counted. Each row's labels are sorted once (O(K log K) per row,
rows in chunks): no per-instance Python and nothing of size K² per row.
"""

from __future__ import annotations

import numpy as np

from clfeval.count.scored import ScoreCounts

__all__ = ["CHUNK_CELLS", "label_ranking", "undefined_instances"]

#: Rows × labels handled at a time.
CHUNK_CELLS = 1 << 21


def label_ranking(counts: ScoreCounts) -> dict[str, float]:
    """The per-instance measures of multi-label scores (see the module): ``lrap``, ``coverage_error``,
    ``ranking_loss``, ``samples.auc`` and ``samples.average_precision`` (over the instances where they are defined:
    :func:`undefined_instances`)."""
    held = counts.count > 0
    scores, gold, weight = counts.scores[held], counts.gold[held].astype(np.int64), counts.mass[held]
    k = scores.shape[1]
    step = max(1, CHUNK_CELLS // max(k, 1))
    sums = dict.fromkeys(("lrap", "coverage", "loss", "auc", "ap", "w_auc", "w_ap"), 0.0)
    for at in range(0, len(scores), step):
        part = _rows(scores[at : at + step], gold[at : at + step])
        w = weight[at : at + step]
        sums["lrap"] += float(w @ part["lrap"])
        sums["coverage"] += float(w @ part["coverage"])
        sums["loss"] += float(w @ part["loss"])
        has_auc, has_ap = part["has_auc"], part["has_ap"]
        sums["auc"] += float(w[has_auc] @ part["auc"][has_auc])
        sums["ap"] += float(w[has_ap] @ part["ap"][has_ap])
        sums["w_auc"] += float(w[has_auc].sum())
        sums["w_ap"] += float(w[has_ap].sum())
    total = float(weight.sum())
    nan = float("nan")
    return {
        "lrap": sums["lrap"] / total if total else nan,
        "coverage_error": sums["coverage"] / total if total else nan,
        "ranking_loss": sums["loss"] / total if total else nan,
        "samples.auc": sums["auc"] / sums["w_auc"] if sums["w_auc"] else nan,
        "samples.average_precision": sums["ap"] / sums["w_ap"] if sums["w_ap"] else nan,
    }


def undefined_instances(counts: ScoreCounts) -> tuple[int, int]:
    """The instances whose own AUC is undefined (no gold label, or every label gold) and whose own average precision
    is (no gold label): what the samples averages leave out. From the gold rows alone, no sort."""
    golds = counts.gold.sum(axis=1)
    k = counts.gold.shape[1]
    none, every = golds == 0, golds == k
    return int(counts.count[none | every].sum()), int(counts.count[none].sum())


def _rows(scores: np.ndarray, gold: np.ndarray) -> dict[str, np.ndarray]:
    """Each row's measures (see the module), from one sort of each row's scores, highest first."""
    m, k = scores.shape
    order = np.argsort(-scores, axis=1, kind="stable")
    s = np.take_along_axis(scores, order, axis=1)
    g = np.take_along_axis(gold, order, axis=1)
    idx = np.broadcast_to(np.arange(k), (m, k))
    same = s[:, 1:] == s[:, :-1]
    last = np.ones((m, k), dtype=bool)
    last[:, :-1] = ~same
    first = np.ones((m, k), dtype=bool)
    first[:, 1:] = ~same
    end = np.minimum.accumulate(np.where(last, idx, k)[:, ::-1], axis=1)[:, ::-1]  # the last place of each tie
    start = np.maximum.accumulate(np.where(first, idx, -1), axis=1)  # and its first
    ge = (end + 1).astype(np.float64)
    cum = np.cumsum(g, axis=1)
    gold_ge = np.take_along_axis(cum, end, axis=1).astype(np.float64)
    gold_above = np.where(start > 0, np.take_along_axis(cum, np.maximum(start - 1, 0), axis=1), 0).astype(np.float64)
    p = g.sum(axis=1).astype(np.float64)
    n = k - p
    tied_others = (end - start + 1) - (gold_ge - gold_above)
    below_others = (k - ge) - (p[:, None] - gold_ge)
    is_gold = g == 1
    precision = np.where(is_gold, gold_ge / ge, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = precision / p
        pairs = p * n
        auc = np.where(is_gold, below_others + 0.5 * tied_others, 0.0).sum(axis=1) / pairs
        loss = np.where(is_gold, n[:, None] - below_others, 0.0).sum(axis=1) / pairs
    return {
        "lrap": np.where(p > 0, ap, 1.0),
        "coverage": np.where(is_gold, ge, 0.0).max(axis=1),
        "loss": np.where(pairs > 0, loss, 0.0),
        "auc": auc,
        "ap": ap,
        "has_auc": pairs > 0,
        "has_ap": p > 0,
    }
