"""DeLong's unpaired test of two AUCs of independent samples (:func:`clfeval.infer.delong.delong_unpaired`), the
building block of issue 39's tests between groups, against pROC's ``roc.test(paired = FALSE, method = "delong")``:
its statistic D, Welch–Satterthwaite degrees of freedom and p-values (two-sided, less, greater) on pROC's aSAH data
split by gender and on random binary samples with ties. The fixtures are pROC's outputs, written by
``Rscript tools/proc_unpaired_fixtures.R tests/data/proc`` (pROC 1.18.0 from Debian)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from clfeval.count.scored import ScoreCounts
from clfeval.errors import InputError, OptionError
from clfeval.infer.binomial import student_t_cdf
from clfeval.infer.delong import delong, delong_unpaired

DATA = Path(__file__).parent / "data" / "proc"
FIXTURES = json.loads((DATA / "unpaired.json").read_text())
ASAH = pl.read_csv(DATA / "asah.csv")
LABELS = ["Good", "Poor"]
ALTERNATIVES = {"two-sided": "p_two_sided", "less": "p_less", "greater": "p_greater"}


def _same_as_proc(a: ScoreCounts, b: ScoreCounts, case: dict) -> None:
    for alternative, key in ALTERNATIVES.items():
        r = delong_unpaired(a, b, alternative=alternative)
        assert r.auc_a == pytest.approx(case["auc_a"], abs=1e-12)
        assert r.auc_b == pytest.approx(case["auc_b"], abs=1e-12)
        assert r.statistic == pytest.approx(case["statistic"], abs=1e-12, rel=1e-12)
        assert r.df == pytest.approx(case["df"], rel=1e-12)
        # 1e-12 absolutely; a p-value far out in a tail (1e-26 …) to 1e-9 of itself
        assert r.p_value == pytest.approx(case[key], abs=1e-12 if case[key] > 1e-6 else 0, rel=1e-9)
        assert r.difference == pytest.approx(case["auc_a"] - case["auc_b"], abs=1e-12)
        assert r.statistic == pytest.approx(r.difference / r.se, rel=1e-14)
        assert r.alternative == alternative


@pytest.mark.parametrize("case", FIXTURES["asah"], ids=lambda c: c["case"])
def test_equals_proc_on_asah_by_gender(case: dict) -> None:
    def sample(gender: str) -> ScoreCounts:
        rows = ASAH.filter(pl.col("gender") == gender)
        return ScoreCounts.of_arrays(rows["outcome"].to_numpy(), rows[case["marker"]].to_numpy().astype(float), LABELS)

    _same_as_proc(sample(case["a"]), sample(case["b"]), case)


@pytest.mark.parametrize("case", FIXTURES["random"], ids=lambda c: c["case"])
def test_equals_proc_on_random_samples_with_ties(case: dict) -> None:
    a = ScoreCounts.of_arrays(np.array(case["gold_a"]), np.array(case["a"], dtype=float), LABELS)
    b = ScoreCounts.of_arrays(np.array(case["gold_b"]), np.array(case["b"], dtype=float), LABELS)
    _same_as_proc(a, b, case)


def test_the_fixtures_cover_ties_sizes_and_a_sample_without_variance() -> None:
    sizes = {len(c["a"]) for c in FIXTURES["random"]} | {len(c["b"]) for c in FIXTURES["random"]}
    assert {8, 30, 120, 500, 1000} <= sizes
    assert any(len(set(c["a"])) < len(c["a"]) / 2 for c in FIXTURES["random"])  # heavy ties
    assert any(c["df"] == pytest.approx(len(c["b"]) - 1) for c in FIXTURES["random"])  # V_a = 0: df = n_b − 1
    assert min(c["p_two_sided"] for c in FIXTURES["random"]) < 1e-20 < max(c["p_two_sided"] for c in FIXTURES["random"])


def _binormal(rng: np.random.Generator, n: int, shift: float = 1.0, digits: int | None = None) -> ScoreCounts:
    gold = np.where(rng.random(n) < 0.4, "Poor", "Good")
    gold[:4] = ["Good", "Good", "Poor", "Poor"]
    score = rng.normal(size=n) + shift * (gold == "Poor")
    return ScoreCounts.of_arrays(gold, score if digits is None else np.round(score, digits), LABELS)


def test_each_variance_is_delongs_of_its_own_sample() -> None:
    """V_a and V_b are the variances of the ``delong`` intervals (one path), from the direct O(n²) placements."""
    rng = np.random.default_rng(7)
    for _ in range(10):
        a, b = _binormal(rng, int(rng.integers(10, 80)), digits=1), _binormal(rng, int(rng.integers(10, 80)), digits=1)
        r = delong_unpaired(a, b)
        for counts, variance, auc in ((a, r.variance_a, r.auc_a), (b, r.variance_b, r.auc_b)):
            s = np.repeat(counts.scores[:, 0], counts.count)
            y = np.repeat(counts.gold == 1, counts.count)
            x, z = s[y][:, None], s[~y][None, :]
            psi = (x > z) + 0.5 * (x == z)  # the kernel of every (positive, negative) pair
            v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
            assert auc == pytest.approx(psi.mean(), abs=1e-12)
            direct = v10.var(ddof=1) / len(v10) + v01.var(ddof=1) / len(v01)
            assert variance == pytest.approx(direct, rel=1e-10)
            assert variance == pytest.approx(delong(y, s).variance, rel=1e-12)
        assert r.df == pytest.approx(
            (r.variance_a + r.variance_b) ** 2 / (r.variance_a**2 / (r.n_a - 1) + r.variance_b**2 / (r.n_b - 1))
        )
        assert r.p_value == pytest.approx(2 * stats.t.sf(abs(r.statistic), r.df), abs=1e-12)


def test_an_averaged_auc_of_a_binary_task_in_two_columns_is_the_binary_test() -> None:
    """The averaged AUCs' variance from the per-instance terms: a binary AUC given as two columns and averaged is
    DeLong's exactly, so its unpaired test is the binary one's."""
    rng = np.random.default_rng(11)
    for _ in range(5):
        samples = []
        for n in rng.integers(20, 200, 2):
            gold = np.where(rng.random(n) < 0.35, "Poor", "Good")
            gold[:4] = ["Good", "Good", "Poor", "Poor"]
            p = 1 / (1 + np.exp(-(rng.normal(size=n) + (gold == "Poor"))))
            p = np.round(p, 2)
            samples.append((gold, p))
        binary = delong_unpaired(*(ScoreCounts.of_arrays(g, p, LABELS) for g, p in samples), alternative="less")
        two = [ScoreCounts.of_arrays(g, np.column_stack([1 - p, p]), LABELS) for g, p in samples]
        for metric in ("macro.auc", "weighted.auc", "per_label.Poor.auc"):
            r = delong_unpaired(*two, metric, alternative="less")
            assert (r.auc_a, r.auc_b) == (
                pytest.approx(binary.auc_a, abs=1e-12),
                pytest.approx(binary.auc_b, abs=1e-12),
            )
            assert r.statistic == pytest.approx(binary.statistic, rel=1e-9)
            assert r.p_value == pytest.approx(binary.p_value, abs=1e-12)
            assert r.metric == metric


def test_multiclass_averages_are_tested() -> None:
    rng = np.random.default_rng(3)
    labels = ["a", "b", "c"]

    def sample(n: int, signal: float) -> ScoreCounts:
        gold = rng.integers(0, 3, n)
        logits = rng.normal(size=(n, 3)) + signal * np.eye(3)[gold]
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        return ScoreCounts.of_arrays(np.array(labels)[gold], p, labels)

    a, b = sample(150, 1.5), sample(120, 0.2)
    for metric in ("macro.auc", "weighted.auc", "micro.auc"):
        r = delong_unpaired(a, b, metric)
        assert r.auc_a > r.auc_b and r.statistic > 0 and 0 <= r.p_value < 0.05
        assert r.variance_a > 0 and r.variance_b > 0
    with pytest.raises(OptionError, match=r"takes an averaged AUC \(macro.auc, weighted.auc, micro.auc\)"):
        delong_unpaired(a, b)


def test_refusals() -> None:
    rng = np.random.default_rng(5)
    a, b = _binormal(rng, 40), _binormal(rng, 50)
    gold = np.array(["Good", "Poor"] * 10)
    weighted = ScoreCounts.of_arrays(gold, rng.random(20), LABELS, sample_weight=rng.random(20) + 0.5)
    with pytest.raises(OptionError, match="not derived for sample weights: use the bootstrap"):
        delong_unpaired(a, weighted)
    with pytest.raises(OptionError, match=r"unknown alternative 'two\.sided'"):
        delong_unpaired(a, b, alternative="two.sided")
    other = ScoreCounts.of_arrays(np.array(["no", "yes"] * 10), rng.random(20), ["no", "yes"])
    with pytest.raises(OptionError, match="score different classes"):
        delong_unpaired(a, other)
    one = ScoreCounts.of_arrays(np.array(["Poor"] + ["Good"] * 9), rng.random(10), LABELS)
    with pytest.raises(InputError, match="needs two positives and two negatives; sample b has 1 and 9"):
        delong_unpaired(a, one)
    separated = ScoreCounts.of_arrays(gold, (gold == "Poor") + 0.0, LABELS)  # AUC 1, variance 0
    tied = ScoreCounts.of_arrays(gold, np.full(20, 0.5), LABELS)  # AUC ½, variance 0
    with pytest.raises(InputError, match="variance of auc is 0 in both samples"):
        delong_unpaired(separated, tied)
    r = delong_unpaired(separated, b, alternative="greater")  # one sample without variance: V = V_b, df = n_b − 1
    assert r.variance_a == 0 and r.se == pytest.approx(math.sqrt(r.variance_b)) and r.df == pytest.approx(49)


def test_student_t_equals_scipy() -> None:
    rng = np.random.default_rng(1)
    for _ in range(3000):
        t, df = float(rng.normal() * rng.choice([0.01, 1, 4, 12])), float(np.exp(rng.uniform(0, math.log(1e4))))
        expected = stats.t.cdf(t, df)
        assert student_t_cdf(t, df) == pytest.approx(expected, abs=5e-12, rel=1e-10)
    assert student_t_cdf(-math.inf, 3) == 0.0 and student_t_cdf(math.inf, 3) == 1.0


@pytest.mark.parametrize("n", [50, 200])
def test_size_under_the_null(n: int) -> None:
    """Two independent samples of one binormal model (AUC Φ(1/√2) ≈ 0.76, 40% positives, scores to 2 decimals): the
    two-sided p ≤ 0.05 in about 5% of 4000 seeded replications (binomial sd 0.0034)."""
    rng = np.random.default_rng(20261128 + n)
    p = np.array(
        [delong_unpaired(_binormal(rng, n, digits=2), _binormal(rng, n, digits=2)).p_value for _ in range(4000)]
    )
    rate = float((p <= 0.05).mean())
    assert 0.04 <= rate <= 0.06, rate
