"""Paired tests on counts against straightforward per-instance reference implementations."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

import clfeval
from clfeval.count.paired import PairedCounts
from clfeval.infer.arrangement import Arrangements, binomial_half
from clfeval.infer.binomial import binomial_half_cdf, two_sided_binomial_half
from clfeval.infer.significance import mcnemar, paired_bootstrap, randomization_test
from clfeval.scoring.statistics import ScoreFunction

KEY = ("averages", "macro", "f")


def _paired(gold, a, b, multilabel=False) -> tuple[PairedCounts, Arrangements, list[str]]:
    if multilabel:
        canon = [tuple(sorted(x)) for x in gold], [tuple(sorted(x)) for x in a], [tuple(sorted(x)) for x in b]
        paired = PairedCounts(Counter(zip(*canon)), multilabel=True)
        labels = sorted({lab for col in canon for s in col for lab in s})
    else:
        paired = PairedCounts(Counter(zip(map(str, gold), map(str, a), map(str, b))))
        labels = sorted({str(x) for col in (gold, a, b) for x in col})
    template = ScoreFunction.of(clfeval.score(paired.system(1), scoring=clfeval.Scoring(labels=labels)))
    return paired, Arrangements.of(paired, template), labels


def _macro_f(gold, pred, labels, multilabel) -> float:
    return clfeval.score(
        list(gold), list(pred), multilabel=multilabel, scoring=clfeval.Scoring(labels=labels)
    ).averages["macro"]["f"]


def _samples_f(gold, pred, labels) -> float:
    return clfeval.score(gold, pred, multilabel=True, scoring=clfeval.Scoring(labels=labels)).averages["samples"]["f"]


def _swap(a, b, mask):
    aa, bb = list(a), list(b)
    for i, m in enumerate(mask):
        if m:
            aa[i], bb[i] = b[i], a[i]
    return aa, bb


@pytest.mark.parametrize("multilabel", [False, True])
def test_exact_enumeration_equals_brute_force(multilabel) -> None:
    rng = np.random.default_rng(4)
    n = 11
    if multilabel:
        names = "XYZ"
        gold = [[c for c in names if rng.random() < 0.4] for _ in range(n)]
        a = [[c for c in g if rng.random() < 0.8] + [c for c in names if rng.random() < 0.2] for g in gold]
        b = [[c for c in g if rng.random() < 0.6] for g in gold]
    else:
        gold = list(rng.integers(0, 3, n))
        a = [g if rng.random() < 0.7 else int(rng.integers(0, 3)) for g in gold]
        b = [g if rng.random() < 0.5 else int(rng.integers(0, 3)) for g in gold]
        gold, a, b = ([str(x) for x in col] for col in (gold, a, b))
    _, arr, labels = _paired(gold, a, b, multilabel)
    observed = _macro_f(gold, a, labels, multilabel) - _macro_f(gold, b, labels, multilabel)
    differ = [i for i in range(n) if sorted(a[i]) != sorted(b[i])]
    hits = total = 0
    for bits in itertools.product([0, 1], repeat=len(differ)):
        mask = [0] * n
        for i, bit in zip(differ, bits):
            mask[i] = bit
        aa, bb = _swap(a, b, mask)
        d = _macro_f(gold, aa, labels, multilabel) - _macro_f(gold, bb, labels, multilabel)
        hits += abs(d) >= abs(observed) - 1e-12
        total += 1
    result = randomization_test(arr, [arr.f.index(KEY)], rounds=100, rng=np.random.default_rng(0))
    assert result.exact and result.difference[0] == pytest.approx(observed, abs=1e-12)
    assert result.p_values[0] == pytest.approx(hits / total, abs=1e-12)


@pytest.mark.slow
def test_exact_enumeration_of_samples_f1_keeps_ties() -> None:
    """Samples averages move fractional per-instance sums: a float32 product broke ties between arrangements
    (found by the calibration study) and gave p-values too small."""
    rng = np.random.default_rng(21)
    names = "XYZ"
    for _ in range(6):
        n = 10
        gold = [[c for c in names if rng.random() < 0.5] for _ in range(n)]
        a = [[c for c in g if rng.random() < 0.7] + [c for c in names if rng.random() < 0.2] for g in gold]
        b = [[c for c in g if rng.random() < 0.7] + [c for c in names if rng.random() < 0.2] for g in gold]
        _, arr, labels = _paired(gold, a, b, True)
        key = ("averages", "samples", "f")
        observed = _samples_f(gold, a, labels) - _samples_f(gold, b, labels)
        differ = [i for i in range(n) if sorted(a[i]) != sorted(b[i])]
        hits = 0
        for bits in itertools.product([0, 1], repeat=len(differ)):
            mask = [0] * n
            for i, bit in zip(differ, bits):
                mask[i] = bit
            aa, bb = _swap(a, b, mask)
            hits += abs(_samples_f(gold, aa, labels) - _samples_f(gold, bb, labels)) >= abs(observed) - 1e-12
        result = randomization_test(arr, [arr.f.index(key)], rounds=100, rng=np.random.default_rng(0))
        assert result.exact
        assert result.p_values[0] == pytest.approx(hits / 2 ** len(differ), abs=1e-12)


@pytest.mark.slow
def test_approximate_randomization_agrees_with_per_instance_reference() -> None:
    rng = np.random.default_rng(7)
    n = 300
    gold = rng.choice(4, n, p=[0.55, 0.25, 0.15, 0.05])  # skewed labels
    a = np.where(rng.random(n) < 0.75, gold, rng.integers(0, 4, n))
    b = np.where(rng.random(n) < 0.70, gold, rng.integers(0, 4, n))
    gold, a, b = (np.array([str(x) for x in col]) for col in (gold, a, b))
    _, arr, labels = _paired(gold, a, b)
    ours = randomization_test(arr, [arr.f.index(KEY)], rounds=20000, rng=np.random.default_rng(1), exact_limit=0)
    observed = ours.difference[0]
    reference_rng = np.random.default_rng(2)
    rounds, hits = 600, 0
    for _ in range(rounds):  # swap each instance's predictions with probability ½
        mask = reference_rng.random(n) < 0.5
        aa, bb = np.where(mask, b, a), np.where(mask, a, b)
        d = _macro_f(gold, aa, labels, False) - _macro_f(gold, bb, labels, False)
        hits += abs(d) >= abs(observed) - 1e-12
    p_ref = (hits + 1) / (rounds + 1)
    se = math.sqrt(p_ref * (1 - p_ref) / rounds + ours.p_values[0] * (1 - ours.p_values[0]) / 20000)
    assert abs(ours.p_values[0] - p_ref) < 4 * se + 1e-3
    assert not ours.exact and ours.rounds == 20000


@pytest.mark.simulation
def test_half_binomial_draws_have_the_binomial_distribution() -> None:
    rng = np.random.default_rng(3)
    counts = np.array([3, 64, 65, 700, 2000])
    draws = binomial_half(counts, 100_000, rng)
    freq = np.bincount(draws[:, 0], minlength=4) / 100_000
    np.testing.assert_allclose(freq, [1 / 8, 3 / 8, 3 / 8, 1 / 8], atol=0.006)
    np.testing.assert_allclose(draws.mean(axis=0), counts / 2, rtol=0.005)
    np.testing.assert_allclose(draws.var(axis=0), counts / 4, rtol=0.03)
    assert (draws >= 0).all() and (draws <= counts).all()


def test_paired_bootstrap_matches_per_instance_resampling() -> None:
    rng = np.random.default_rng(5)
    n = 200
    gold = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.8, gold, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.6, gold, rng.integers(0, 3, n))
    gold, a, b = (np.array([str(x) for x in col]) for col in (gold, a, b))
    _, arr, labels = _paired(gold, a, b)
    ours = paired_bootstrap(arr, [arr.f.index(KEY)], rounds=4000, rng=np.random.default_rng(1))
    ref_rng = np.random.default_rng(9)
    diffs = []
    for _ in range(500):
        idx = ref_rng.integers(0, n, n)
        diffs.append(_macro_f(gold[idx], a[idx], labels, False) - _macro_f(gold[idx], b[idx], labels, False))
    low, high = np.quantile(diffs, [0.025, 0.975])
    width = high - low
    assert abs(ours.ci[0, 0] - low) < 0.15 * width and abs(ours.ci[0, 1] - high) < 0.15 * width
    assert ours.ci[0, 0] < ours.difference[0] < ours.ci[0, 1]


def test_mcnemar_counts_and_exact_p() -> None:
    from scipy import stats

    gold = ["a"] * 40
    a = ["a"] * 30 + ["b"] * 10
    b = ["a"] * 22 + ["b"] * 8 + ["a"] * 4 + ["b"] * 6
    paired = PairedCounts(Counter(zip(gold, a, b)))
    result = mcnemar(paired)
    assert (result.only_a, result.only_b, result.both, result.neither) == (8, 4, 22, 6)
    assert result.p_value == pytest.approx(stats.binomtest(4, 12, 0.5).pvalue, rel=1e-12)


def test_binomial_tail_against_scipy() -> None:
    from scipy import stats

    for n in (1, 7, 1000, 1001, 50_000, 3_000_000):
        for k in {0, n // 3, n // 2 - int(math.sqrt(n)), n // 2}:
            expected = stats.binom.cdf(k, n, 0.5)
            assert binomial_half_cdf(k, n) == pytest.approx(expected, rel=1e-7, abs=1e-300)
    assert two_sided_binomial_half(0, 0) == 1.0 and two_sided_binomial_half(5, 5) == 1.0
