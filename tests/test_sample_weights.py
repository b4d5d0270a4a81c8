"""Sample weights (``sample_weight=``, ``--weight-col``): every measure equals scikit-learn's with ``sample_weight``.

Random cases of single-label and multi-label data, K from 2 to 8, whole and continuous weights and weights of 0; then
the seams (arrays, pandas, polars, a file with ``--weight-col``, a count file, the Accumulator give the same numbers),
compare and cv, the refusals.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.preprocessing import MultiLabelBinarizer

import clfeval

SEEDS = range(24)


def _weights(rng: np.random.Generator, n: int, kind: int) -> np.ndarray:
    """Whole-number weights (class or cost weights), continuous ones, or continuous with a share of zeros."""
    if kind == 0:
        return rng.integers(1, 5, n).astype(float)
    w = rng.gamma(2.0, 1.0, n)
    if kind == 2:
        w[rng.random(n) < 0.2] = 0.0
    return w


def _single(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    n = int(rng.integers(30, 300))
    names = np.array([f"c{i}" for i in range(k)])
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < rng.uniform(0.3, 0.9), gold, rng.integers(0, k, n))
    return names[gold], names[pred], _weights(rng, n, seed % 3), sorted(set(names[gold]) | set(names[pred]))


def _close(a: float, b: float) -> None:
    assert a == pytest.approx(b, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_single_label_measures_equal_scikit_learns_with_sample_weight(seed: int) -> None:
    gold, pred, w, labels = _single(seed)
    r = clfeval.score(gold, pred, sample_weight=w)
    assert r.task == "weighted single-label" and r.family == "single-label" and r.n_instances == len(gold)
    assert r.inputs["sample_weight"] == {"source": "sample_weight=", "sum": pytest.approx(w.sum()), "n_instances": len(w)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, rc, f, support = sk.precision_recall_fscore_support(
            gold, pred, labels=labels, sample_weight=w, zero_division=0
        )
        for i, lab in enumerate(labels):
            row = r.per_label[lab]
            _close(row.precision, p[i])
            _close(row.recall, rc[i])
            _close(row.f, f[i])
            _close(row.support, support[i])
            _close(row.jaccard, sk.jaccard_score(gold, pred, labels=[lab], average=None, sample_weight=w, zero_division=0)[0])
        for average in ("micro", "macro", "weighted"):
            for measure, fn in (("precision", sk.precision_score), ("recall", sk.recall_score), ("f", sk.f1_score)):
                _close(r.averages[average][measure], fn(gold, pred, average=average, sample_weight=w, zero_division=0))
            _close(r.averages[average]["jaccard"], sk.jaccard_score(gold, pred, average=average, sample_weight=w, zero_division=0))
        _close(r.overall["accuracy"], sk.accuracy_score(gold, pred, sample_weight=w))
        _close(r.overall["balanced_accuracy"], sk.balanced_accuracy_score(gold, pred, sample_weight=w))
        _close(r.overall["mcc"], sk.matthews_corrcoef(gold, pred, sample_weight=w))
        _close(r.overall["kappa"], sk.cohen_kappa_score(gold, pred, sample_weight=w))
        for weights in ("linear", "quadratic"):
            expected = sk.cohen_kappa_score(gold, pred, labels=labels, weights=weights, sample_weight=w)
            _close(r.overall[f"kappa_{weights}"], expected)
        _close(r.overall["hamming_loss"], sk.hamming_loss(gold, pred, sample_weight=w))
    assert r.confusion is not None
    np.testing.assert_allclose(r.confusion.with_labels(labels).cells, sk.confusion_matrix(gold, pred, labels=labels, sample_weight=w), rtol=1e-12)


def _multi(seed: int) -> tuple[list[list[str]], list[list[str]], np.ndarray, list[str]]:
    rng = np.random.default_rng(1000 + seed)
    k = int(rng.integers(2, 9))
    n = int(rng.integers(30, 200))
    names = [f"t{i}" for i in range(k)]
    gold_m = rng.random((n, k)) < rng.uniform(0.15, 0.5)
    flip = rng.random((n, k)) < rng.uniform(0.05, 0.4)
    pred_m = gold_m ^ flip
    gold = [[names[j] for j in np.flatnonzero(row)] for row in gold_m]
    pred = [[names[j] for j in np.flatnonzero(row)] for row in pred_m]
    return gold, pred, _weights(rng, n, seed % 3), names


@pytest.mark.parametrize("seed", SEEDS)
def test_multi_label_measures_equal_scikit_learns_with_sample_weight(seed: int) -> None:
    gold, pred, w, names = _multi(seed)
    r = clfeval.score(gold, pred, multilabel=True, sample_weight=w, labels=names)
    assert r.task == "weighted multi-label" and r.family == "multi-label"
    binarizer = MultiLabelBinarizer(classes=names)
    y, p = binarizer.fit_transform(gold), binarizer.transform(pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prec, rec, f, support = sk.precision_recall_fscore_support(y, p, sample_weight=w, zero_division=0)
        for i, lab in enumerate(names):
            row = r.per_label[lab]
            _close(row.precision, prec[i])
            _close(row.recall, rec[i])
            _close(row.f, f[i])
            _close(row.support, support[i])
        for average in ("micro", "macro", "weighted", "samples"):
            for measure, fn in (("precision", sk.precision_score), ("recall", sk.recall_score), ("f", sk.f1_score)):
                _close(r.averages[average][measure], fn(y, p, average=average, sample_weight=w, zero_division=0))
            _close(r.averages[average]["jaccard"], sk.jaccard_score(y, p, average=average, sample_weight=w, zero_division=0))
        _close(r.overall["accuracy"], sk.accuracy_score(y, p, sample_weight=w))
        _close(r.overall["hamming_loss"], sk.hamming_loss(y, p, sample_weight=w))
    mcm = sk.multilabel_confusion_matrix(y, p, sample_weight=w)
    for i, lab in enumerate(names):
        row = r.per_label[lab]
        np.testing.assert_allclose([[row.tn, row.fp], [row.fn, row.tp]], mcm[i], rtol=1e-12, atol=1e-9)


def test_whole_weights_are_the_instances_repeated() -> None:
    """A weight of 3 is three instances: every score equals that of the instances repeated."""
    gold, pred, _, _ = _single(5)
    w = np.random.default_rng(5).integers(1, 4, len(gold))
    got = clfeval.score(gold, pred, sample_weight=w).flat()
    expected = clfeval.score(np.repeat(gold, w), np.repeat(pred, w)).flat()
    assert got.pop("n_instances") == len(gold) and got.pop("sample_weight_sum") == expected.pop("n_instances")
    assert got.keys() == expected.keys()
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, rel=1e-12, nan_ok=True), name
