"""Scored predictions (issue 32, first part): counts of distinct (gold, scores) rows, the ranking and probability
measures against scikit-learn on random data with ties, and DeLong against a direct O(n²) implementation of DeLong,
DeLong & Clarke-Pearson (1988)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn import metrics

from clfeval.count.scored import ScoreCounts
from clfeval.errors import ClfevalError
from clfeval.infer.delong import delong, delong_paired
from clfeval.scoring import probability, ranking


def _binary(rng: np.random.Generator, n: int, decimals: int = 1) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), decimals)  # rounded: many ties
    return y, s


def _multiclass(rng: np.random.Generator, n: int, k: int, decimals: int = 2) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    p = np.round(p, decimals)
    p[:, -1] = 1 - p[:, :-1].sum(axis=1)  # rows still sum to 1 after rounding
    p = np.clip(p, 0, 1)
    p /= p.sum(axis=1, keepdims=True)
    return y, p


def test_counts_compress_ties_and_add_up() -> None:
    rng = np.random.default_rng(1)
    y, s = _binary(rng, 1000)
    c = ScoreCounts.of_arrays(y, s)
    assert c.n_instances == 1000 and len(c.count) <= 2 * 11  # two classes × 11 rounded scores at most
    half = ScoreCounts.of_arrays(y[:400], s[:400], labels=["0", "1"]) + ScoreCounts.of_arrays(
        y[400:], s[400:], labels=["0", "1"]
    )
    assert np.array_equal(half.count, c.count) and np.array_equal(half.scores, c.scores)


@pytest.mark.parametrize("seed", range(20))
def test_binary_auc_and_average_precision_equal_scikit_learn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y, s = _binary(rng, int(rng.integers(5, 400)), decimals=int(rng.integers(0, 3)))
    if len(set(y)) < 2:
        return
    c = ScoreCounts.of_arrays(y, s)
    assert ranking.averaged_auc(c, "macro") == pytest.approx(metrics.roc_auc_score(y, s), abs=1e-12)
    assert ranking.average_precision(c)["1"] == pytest.approx(metrics.average_precision_score(y, s), abs=1e-12)
    fpr, tpr, _ = ranking.roc_curve(c)
    sk_fpr, sk_tpr, _ = metrics.roc_curve(y, s, drop_intermediate=False)
    assert np.allclose(fpr, sk_fpr) and np.allclose(tpr, sk_tpr)
    precision, recall, _ = ranking.pr_curve(c)
    sk_p, sk_r, _ = metrics.precision_recall_curve(y, s, drop_intermediate=False)
    assert np.allclose(precision, sk_p[:-1][::-1]) and np.allclose(recall, sk_r[:-1][::-1])


@pytest.mark.parametrize("seed", range(12))
def test_multiclass_aucs_equal_scikit_learn(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    k = int(rng.integers(3, 6))
    y, p = _multiclass(rng, int(rng.integers(60, 500)), k)
    if len(set(y)) < k:
        return
    labels = [str(i) for i in range(k)]
    c = ScoreCounts.of_arrays(y, p, labels)
    for average, multi_class, sk_average in (
        ("macro", "ovr", "macro"),
        ("weighted", "ovr", "weighted"),
        ("ovo", "ovo", "macro"),
        ("ovo_weighted", "ovo", "weighted"),
    ):
        expected = metrics.roc_auc_score(y, p, multi_class=multi_class, average=sk_average)
        assert ranking.averaged_auc(c, average) == pytest.approx(expected, abs=1e-12), average
    onehot = np.eye(k)[y]
    assert ranking.averaged_auc(c, "micro") == pytest.approx(
        metrics.roc_auc_score(onehot, p, average="micro"), abs=1e-12
    )
    per = ranking.ovr_auc(c)
    assert [per[lab] for lab in labels] == pytest.approx(metrics.roc_auc_score(onehot, p, average=None), abs=1e-12)
    ap = ranking.average_precision(c)
    sk_ap = metrics.average_precision_score(onehot, p, average=None)
    assert [ap[lab] for lab in labels] == pytest.approx(sk_ap, abs=1e-12)


def test_ties_count_half_and_row_order_does_not_matter() -> None:
    y = np.array([0, 1, 0, 1, 0, 1])
    s = np.array([0.5, 0.5, 0.5, 0.2, 0.8, 0.5])
    c = ScoreCounts.of_arrays(y, s)
    assert ranking.averaged_auc(c, "macro") == pytest.approx(metrics.roc_auc_score(y, s))
    order = np.random.default_rng(0).permutation(len(y))
    again = ScoreCounts.of_arrays(y[order], s[order])
    assert ranking.averaged_auc(again, "macro") == ranking.averaged_auc(c, "macro")


@pytest.mark.parametrize("seed", range(10))
def test_log_loss_brier_and_top_k_equal_scikit_learn(seed: int) -> None:
    rng = np.random.default_rng(200 + seed)
    k = int(rng.integers(3, 6))
    y, p = _multiclass(rng, 300, k, decimals=6)  # few ties in top-k
    labels = [str(i) for i in range(k)]
    if len(set(y)) < k:
        return
    c = ScoreCounts.of_arrays(y, p, labels)
    assert probability.log_loss(c) == pytest.approx(metrics.log_loss(y, p, labels=range(k)), abs=1e-12)
    sk_brier = metrics.brier_score_loss(y, p, labels=range(k))
    assert probability.brier(c) == pytest.approx(sk_brier, abs=1e-12)
    for top in range(1, k):
        expected = metrics.top_k_accuracy_score(y, p, k=top, labels=range(k))
        assert probability.top_k_accuracy(c, top, "optimistic") == pytest.approx(expected, abs=1e-12)
    yb, sb = _binary(rng, 300, decimals=3)
    cb = ScoreCounts.of_arrays(yb, sb)
    assert probability.log_loss(cb) == pytest.approx(metrics.log_loss(yb, sb), abs=1e-12)
    assert probability.brier(cb, "half") == pytest.approx(metrics.brier_score_loss(yb, sb), abs=1e-12)


def test_the_conventions_the_issue_quotes_are_stated_choices() -> None:
    # top-k with every score tied, four classes: 1.0, 0.0 or 0.25 by the tie rule
    c = ScoreCounts.of_arrays([0, 1, 2, 3], np.full((4, 4), 0.25), ["0", "1", "2", "3"])
    assert [probability.top_k_accuracy(c, 1, rule) for rule in ("optimistic", "pessimistic", "expected")] == [
        1.0,
        0.0,
        0.25,
    ]
    # a probability of 0 on the true class costs -log(ε), ε float64's machine epsilon, whatever the dtype
    c = ScoreCounts.of_arrays([1], np.array([0.0], dtype=np.float32), ["0", "1"])
    assert probability.log_loss(c) == pytest.approx(-math.log(np.finfo(np.float64).eps))
    # the Brier normalisations of one multi-class table
    _, p = _multiclass(np.random.default_rng(3), 50, 3)
    c = ScoreCounts.of_arrays(np.arange(50) % 3, p, ["0", "1", "2"])
    total = probability.brier(c, "sum")
    assert probability.brier(c, "half") == pytest.approx(total / 2)
    assert probability.brier(c, "mean") == pytest.approx(total / 3)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_the_reliability_diagram_equals_scikit_learn_s_calibration_curve(strategy: str) -> None:
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(7)
    y, s = _binary(rng, 2000, decimals=3)
    c = ScoreCounts.of_arrays(y, s)
    binning = {"uniform": "equal-width", "quantile": "equal-mass"}[strategy]
    cal = probability.calibration(c, target="positive", bins=10, binning=binning)
    prob_true, prob_pred = calibration_curve(y, s, n_bins=10, strategy=strategy)
    filled = cal.n > 0
    assert np.allclose(cal.accuracy[filled], prob_true) and np.allclose(cal.confidence[filled], prob_pred)
    weights = cal.n[filled] / cal.n.sum()
    assert cal.ece == pytest.approx(np.dot(weights, np.abs(prob_true - prob_pred)))


def test_the_debiased_calibration_error_is_near_zero_for_calibrated_scores() -> None:
    rng = np.random.default_rng(11)
    plug_in, debiased = [], []
    for _ in range(200):
        s = rng.uniform(0, 1, 200)
        y = (rng.uniform(0, 1, 200) < s).astype(int)  # calibrated by construction
        cal = probability.calibration(ScoreCounts.of_arrays(y, s, ["0", "1"]), target="positive", bins=15)
        plug_in.append(cal.ece)
        debiased.append(cal.debiased)
    assert np.mean(plug_in) > 0.08  # the plug-in estimator is biased upward at N = 200
    assert np.mean(debiased) < np.mean(plug_in) / 2


def test_probabilities_are_checked() -> None:
    c = ScoreCounts.of_arrays([0, 1], np.array([[0.5, 0.6], [0.3, 0.7]]), ["0", "1"])
    with pytest.raises(ClfevalError, match=r"sum to 1.1, not 1 \(tolerance 1e-06\)"):
        probability.log_loss(c)
    with pytest.raises(ClfevalError, match="not probabilities"):
        probability.brier(ScoreCounts.of_arrays([0, 1], [1.5, 0.2], ["0", "1"]))
    with pytest.raises(ClfevalError, match=r"scores\[1\]: is nan"):
        ScoreCounts.of_arrays([0, 1], [0.5, float("nan")])


# -- DeLong ---------------------------------------------------------------------------------------------------------


def _psi(x: float, y: float) -> float:
    return 1.0 if x > y else 0.5 if x == y else 0.0


def _delong_direct(y: np.ndarray, scores: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """DeLong, DeLong & Clarke-Pearson (1988), as written: the AUCs and their covariance matrix, O(n²)."""
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    m, n = len(pos), len(neg)
    v10 = np.array([[np.mean([_psi(s[i], s[j]) for j in neg]) for i in pos] for s in scores])
    v01 = np.array([[np.mean([_psi(s[i], s[j]) for i in pos]) for j in neg] for s in scores])
    auc = v10.mean(axis=1)
    s10 = np.cov(v10) if len(scores) > 1 else np.array([[np.var(v10[0], ddof=1)]])
    s01 = np.cov(v01) if len(scores) > 1 else np.array([[np.var(v01[0], ddof=1)]])
    return auc, s10 / m + s01 / n


@pytest.mark.parametrize("seed", range(15))
def test_delong_equals_the_direct_implementation(seed: int) -> None:
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(8, 90))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    a = np.round(rng.normal(y, 1.0), int(rng.integers(0, 2)))
    b = np.round(rng.normal(0.5 * y, 1.0), 1)
    auc, cov = _delong_direct(y, [a, b])
    one = delong(y == 1, a)
    assert one.auc == pytest.approx(auc[0], abs=1e-12) and one.variance == pytest.approx(cov[0, 0], abs=1e-12)
    pair = delong_paired(y == 1, a, b)
    variance = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    assert pair.difference == pytest.approx(auc[0] - auc[1], abs=1e-12)
    assert pair.variance == pytest.approx(variance, abs=1e-12)
    # counted rows (distinct (gold, a, b) with their counts) give the same
    rows, inverse = np.unique(np.c_[y, a, b], axis=0, return_inverse=True)
    weight = np.bincount(inverse.ravel())
    counted = delong_paired(rows[:, 0] == 1, rows[:, 1], rows[:, 2], weight)
    assert counted.variance == pytest.approx(pair.variance, abs=1e-12) and counted.z == pytest.approx(pair.z)


def test_delong_interval_and_test_read_as_pROC_states_them() -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    a, b = rng.normal(y, 1.0), rng.normal(0.6 * y, 1.0)
    one = delong(y == 1, a, confidence=0.95)
    half = 1.959963984540054 * math.sqrt(one.variance)
    assert (one.low, one.high) == pytest.approx((one.auc - half, min(1.0, one.auc + half)))
    pair = delong_paired(y == 1, a, b)
    assert pair.p_value == pytest.approx(math.erfc(abs(pair.z) / math.sqrt(2)))
    assert pair.low < pair.difference < pair.high
