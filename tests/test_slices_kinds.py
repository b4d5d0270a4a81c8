"""Scores by group of weighted labels, label sets and 0/1 indicator matrices: each group equals scikit-learn on its
subset (with sample_weight; multi-label averages) over the whole data's labels, and the gaps read the same values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

import clfeval


def _groups(rng: np.random.Generator, n: int, k: int = 3) -> np.ndarray:
    return rng.choice([f"g{i}" for i in range(k)], n)


@pytest.mark.parametrize("seed", range(4))
def test_weighted_labels_by_group_equal_sklearn_with_sample_weight(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 500
    g = _groups(rng, n, 2 + seed % 3)
    y = rng.integers(0, 4, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, 4, n))
    w = rng.random(n) * 3
    r = clfeval.score(y, p, groups=g, sample_weight=w, test="permutation", rounds=50, seed=seed)
    labels = sorted(set(y) | set(p))
    for name in r.names:
        m = g == name
        for average in ("macro", "micro", "weighted"):
            want = f1_score(y[m], p[m], labels=labels, average=average, sample_weight=w[m], zero_division=0)
            assert r[f"by_group.{name}.{average}.f1"] == pytest.approx(want, abs=1e-12)
        assert r[f"by_group.{name}.accuracy"] == pytest.approx(accuracy_score(y[m], p[m], sample_weight=w[m]))
    values = [f1_score(y[g == x], p[g == x], labels=labels, average="macro", sample_weight=w[g == x])
              for x in r.names]  # fmt: skip
    assert r.gap("macro.f1").difference == pytest.approx(max(values) - min(values), abs=1e-12)
    assert r.overall.inputs["sample_weight"]["sum"] == pytest.approx(w.sum())


def test_weighted_binary_fairness_equals_fairlearn_with_sample_weight() -> None:
    from fairlearn import metrics as fm

    rng = np.random.default_rng(4)
    n = 600
    g = _groups(rng, n, 3)
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < 0.75, y, 1 - y)
    w = rng.random(n) * 2
    r = clfeval.score(y, p, groups=g, sample_weight=w, test="none")
    for name in ("demographic_parity_difference", "equalized_odds_difference", "equal_opportunity_ratio"):
        want = getattr(fm, name)(y, p, sensitive_features=g, sample_weight=w)
        assert r[f"fairness.{name}"] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_label_sets_and_indicator_matrices_by_group_equal_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = 400, 5
    g = _groups(rng, n)
    Y = (rng.random((n, k)) < 0.3).astype(int)
    P = np.where(rng.random((n, k)) < 0.8, Y, 1 - Y)
    names = [f"L{j}" for j in range(k)]
    sets_y = [[names[j] for j in np.flatnonzero(row)] for row in Y]
    sets_p = [[names[j] for j in np.flatnonzero(row)] for row in P]
    w = rng.random(n) + 0.2 if seed == 2 else None
    as_sets = clfeval.score(sets_y, sets_p, multilabel=True, groups=g, sample_weight=w, test="none")
    as_matrix = clfeval.score(pd.DataFrame(Y, columns=names), pd.DataFrame(P, columns=names), groups=g,
                              sample_weight=w, test="none")  # fmt: skip
    for r in (as_sets, as_matrix):
        assert r.task in ("multi-label", "weighted-multi-label")
        for name in r.names:
            m = g == name
            sw = None if w is None else w[m]
            for average in ("macro", "micro", "weighted", "samples"):
                want = f1_score(Y[m], P[m], average=average, sample_weight=sw, zero_division=0)
                assert r[f"by_group.{name}.{average}.f1"] == pytest.approx(want, abs=1e-12)
            for j, label in enumerate(names):
                want = precision_score(Y[m][:, j], P[m][:, j], sample_weight=sw, zero_division=0)
                assert r[f"by_group.{name}.per_label.{label}.precision"] == pytest.approx(want, abs=1e-12)
                want = recall_score(Y[m][:, j], P[m][:, j], sample_weight=sw, zero_division=0)
                assert r[f"by_group.{name}.per_label.{label}.recall"] == pytest.approx(want, abs=1e-12)
    for key in ("gap.max.macro.f1", "by_group.g0.macro.f1"):
        assert as_sets[key] == pytest.approx(as_matrix[key], abs=1e-12)


def test_an_indicator_group_missing_a_label_keeps_it() -> None:
    rng = np.random.default_rng(9)
    n, k = 300, 4
    g = np.where(np.arange(n) < 150, "a", "b")
    Y = (rng.random((n, k)) < 0.4).astype(int)
    Y[:150, 3] = 0  # group a has no gold L3
    P = np.where(rng.random((n, k)) < 0.8, Y, 1 - Y)
    r = clfeval.score(Y, P, groups=g, labels=["L0", "L1", "L2", "L3"], test="none")
    want = f1_score(Y[:150], P[:150], average="macro", zero_division=0)
    assert r["by_group.a.macro.f1"] == pytest.approx(want, abs=1e-12)
    assert tuple(r.by_group["a"].labels) == ("L0", "L1", "L2", "L3")


def test_intervals_and_tests_of_weighted_label_sets_run_by_group() -> None:
    rng = np.random.default_rng(1)
    n, k = 300, 3
    g = _groups(rng, n, 2)
    Y = (rng.random((n, k)) < 0.4).astype(int)
    P = np.where(rng.random((n, k)) < np.where(g == "g0", 0.6, 0.9)[:, None], Y, 1 - Y)
    w = rng.random(n) + 0.5
    for ci, test in (("bootstrap", "bootstrap"), ("delta", "delta"), ("bootstrap", "permutation")):
        r = clfeval.score(
            Y, P, groups=g, sample_weight=w, ci=ci, resamples=300, seed=3, test=test, rounds=300, metrics="micro.f1"
        )
        gap = r.gap("micro.f1", "g0", "g1")
        assert gap.difference_ci is not None and gap.difference_ci[0] < gap.difference < gap.difference_ci[1]
        assert r.tests and all(0 <= t.p_value <= 1 for t in r.tests)
        assert next(t for t in r.tests if t.between == "pair").p_value < 0.05  # 0.6 against 0.9 right
