"""DeLong's intervals and paired tests of averaged AUCs (macro, weighted, micro): the per-instance DeLong terms give
the variance of the average, with Bessel's correction per sample (a class's positives, its negatives) as DeLong's and
Obuchowski's own; a binary AUC given as two columns gets DeLong's variance exactly, and the averages are checked
against the instance jackknife computed directly with scikit-learn (the range over random cases:
benchmarks/scored_averaged.py)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval.count.scored import ScoreCounts
from clfeval.infer.delong import auc_terms, delong, delong_paired, influence_variance
from clfeval.infer.scored import averaged_auc_terms
from clfeval.scoring.scored import Conventions

MARGINS = Conventions(not_probabilities=True)  # normal scores and margins are no probabilities

K = 3


def _sample(seed: int, n: int = 200, shift: float = 1.2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    logits = rng.normal(size=(n, K)) + shift * np.eye(K)[y]
    p = np.round(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True), 2)
    p[:, -1] = 1 - p[:, :-1].sum(axis=1)
    return y, p


def _sklearn(average: str) -> object:
    if average == "micro":
        return lambda y, p: roc_auc_score(np.eye(K)[y], p, average="micro")
    return lambda y, p: roc_auc_score(y, p, multi_class="ovr", average=average, labels=list(range(K)))


def _jackknife(statistic: object, y: np.ndarray, *arrays: np.ndarray) -> float:
    n = len(y)
    values = np.array(
        [statistic(np.delete(y, i, axis=0), *(np.delete(a, i, axis=0) for a in arrays)) for i in range(n)]
    )
    return float((n - 1) / n * ((values - values.mean()) ** 2).sum())


def test_one_aucs_terms_give_delongs_variance() -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(size=300) + y, 1)
    _, terms = auc_terms(y == 1, s)
    parts = np.column_stack([np.where(y == 1, terms, np.nan), np.where(y == 1, np.nan, terms)])
    assert influence_variance(parts, np.ones(300)) == pytest.approx(delong(y == 1, s).variance, abs=1e-14)
    # pooled into one sample, n/(n − 1) Σ t², the terms give about DeLong's variance, short of P/(P − 1), N/(N − 1)
    assert influence_variance(terms, np.ones(300)) == pytest.approx(delong(y == 1, s).variance, rel=0.01)


@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
@pytest.mark.parametrize("seed", range(2))
def test_the_variance_of_an_averaged_auc_is_the_instance_jackknifes(average: str, seed: int) -> None:
    y, p = _sample(seed)
    counts = ScoreCounts.of_arrays(y, p, list(range(K)))
    value, terms = averaged_auc_terms(counts, y, p, np.ones(len(y)), average)
    assert value == pytest.approx(_sklearn(average)(y, p), abs=1e-12)
    variance = influence_variance(terms, np.ones(len(y)))
    assert variance == pytest.approx(_jackknife(_sklearn(average), y, p), rel=0.03)
    # from the distinct rows with their counts: the same
    _, row_terms = averaged_auc_terms(counts, counts.gold, counts.scores, counts.count, average)
    assert influence_variance(row_terms, counts.count) == pytest.approx(variance, rel=1e-10)


@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_the_paired_test_of_an_averaged_auc(average: str) -> None:
    y, p = _sample(4, n=180)
    _, q = _sample(5, n=180, shift=0.8)
    q = np.roll(q, 0)  # a second system on the same instances (its own noise)
    metric = f"{average}.auc"
    pair = clfeval.compare(y, scores={"p": p, "q": q}, labels=list(range(K)), test="delong", metrics=[metric])
    found = pair.pair("p", "q")
    f = _sklearn(average)
    assert found["difference"] == pytest.approx(f(y, p) - f(y, q), abs=1e-12)
    variance = _jackknife(lambda yy, pp, qq: f(yy, pp) - f(yy, qq), y, p, q)
    assert (found["difference"] / found["z"]) ** 2 == pytest.approx(variance, rel=0.05)
    low, high = found["ci"]
    assert low < found["difference"] < high


def test_score_gives_delong_intervals_of_the_averages_and_multi_label_too() -> None:
    y, p = _sample(6)
    r = clfeval.score(y, scores=p, labels=list(range(K)), ci="delong")
    for name in ("macro.auc", "weighted.auc", "micro.auc"):
        low, high = r.interval(name)
        assert low < r[name] < high
    with pytest.raises(clfeval.ClfevalError, match="no delong interval"):
        r.interval("ovo.auc")
    rng = np.random.default_rng(7)
    y2 = (rng.random((150, 3)) < 0.4).astype(int)
    s2 = np.round(rng.random((150, 3)) * 0.7 + 0.3 * y2, 2)
    ml = clfeval.score(y2, scores=s2, labels=list("abc"), multilabel=True, ci="delong")
    variance = _jackknife(lambda yy, ss: roc_auc_score(yy, ss, average="macro"), y2, s2)
    low, high = ml.interval("macro.auc")
    assert ((high - low) / (2 * 1.959963984540054)) ** 2 == pytest.approx(variance, rel=0.05)


def test_the_logit_delong_interval() -> None:
    """logit(A) ± z √Var / (A(1 − A)), back through the logistic function: inside (0, 1), asymmetric near 1, the
    same variance as DeLong's; none at A = 1."""
    rng = np.random.default_rng(8)
    y = (rng.random(80) < 0.15).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=80) + 2.3 * y
    plain = clfeval.score(y, scores=s, labels=[0, 1], ci="delong", conventions=MARGINS)
    logit = clfeval.score(y, scores=s, labels=[0, 1], ci="delong-logit", conventions=MARGINS)
    a = plain["auc"]
    variance = delong(y == 1, s).variance
    centre, half = np.log(a / (1 - a)), 1.959963984540054 * np.sqrt(variance) / (a * (1 - a))
    expected = (1 / (1 + np.exp(-(centre - half))), 1 / (1 + np.exp(-(centre + half))))
    assert logit.interval("auc") == pytest.approx(expected, abs=1e-12)
    assert logit.interval("auc")[1] < 1.0 and a - logit.interval("auc")[0] > logit.interval("auc")[1] - a
    perfect = clfeval.score([0, 0, 1, 1], scores=[0.1, 0.2, 0.8, 0.9], labels=[0, 1], ci="delong-logit")
    with pytest.raises(clfeval.ClfevalError, match="no delong-logit interval"):
        perfect.interval("auc")
    y3, p3 = _sample(9)
    multi = clfeval.score(y3, scores=p3, labels=list(range(K)), ci="delong-logit")
    low, high = multi.interval("macro.auc")
    assert 0 < low < multi["macro.auc"] < high < 1


@pytest.mark.parametrize("positives", [3, 5, 20])
def test_a_binary_auc_given_as_two_columns_gets_delongs_variance_exactly(positives: int) -> None:
    """Bessel's correction per sample (P − 1 for the positives, N − 1 for the negatives, as DeLong's S10 and S01):
    the macro and weighted averages of the two columns of a binary problem are its AUC, and their variance is
    DeLong's, to 1e-12 — the pooled n/(n − 1) gave 0.83 times the standard error at 3 positives (issue 37)."""
    rng = np.random.default_rng(positives)
    y = np.zeros(60, dtype=int)
    y[:positives] = 1
    s = np.round(rng.uniform(0, 1, 60) * 0.7 + 0.3 * y, 1)  # ties
    two = np.column_stack([1 - s, s])
    binary = delong(y == 1, s)
    counts = ScoreCounts(("0", "1"), ("0", "1"), y, two, np.ones(60, dtype=np.int64))  # a column per class, as given
    for average in ("macro", "weighted"):
        value, terms = averaged_auc_terms(counts, y, two, np.ones(60), average)
        assert value == pytest.approx(binary.auc, abs=1e-12)
        assert influence_variance(terms, np.ones(60)) == pytest.approx(binary.variance, abs=1e-12)
        _, rows = averaged_auc_terms(counts, counts.gold, counts.scores, counts.count, average)
        assert influence_variance(rows, counts.count) == pytest.approx(binary.variance, abs=1e-12)
    one = clfeval.score(y, scores=s, labels=[0, 1], ci="delong").interval("auc")
    both = clfeval.score(counts, ci="delong")
    assert both.interval("macro.auc") == pytest.approx(one, abs=1e-12)
    assert both.interval("weighted.auc") == pytest.approx(one, abs=1e-12)
    proba = clfeval.score(y, scores=two, labels=[0, 1], ci="delong")  # predict_proba's two columns: binary
    assert proba.task == "scored-binary" and proba.interval("auc") == pytest.approx(one, abs=1e-12)
    # one label of multi-label data is the binary problem too
    ml = clfeval.score(y[:, None], scores=s[:, None], labels=["x"], multilabel=True, ci="delong")
    assert ml.interval("macro.auc") == pytest.approx(one, abs=1e-12)
    # and a paired test of two systems' macro AUCs is DeLong's paired test
    q = np.round(rng.uniform(0, 1, 60) * 0.5 + 0.5 * y, 1)
    direct = delong_paired(y == 1, s, q)
    pair = clfeval.compare(y, scores={"p": two, "q": np.column_stack([1 - q, q])}, labels=[0, 1], test="delong",
                           metrics=["auc"]).pair("p", "q")  # fmt: skip
    assert pair["z"] == pytest.approx(direct.z, abs=1e-9) and pair["p_value"] == pytest.approx(direct.p_value)
    from clfeval.infer.scored import _averaged_pair

    qq = np.column_stack([1 - q, q])
    macro = _averaged_pair(counts, y, two, qq, np.ones(60, dtype=np.int64), "macro.auc", 0.95, None)
    assert macro["z"] == pytest.approx(direct.z, abs=1e-9) and macro["p_value"] == pytest.approx(direct.p_value)


@pytest.mark.parametrize("seed", range(3))
def test_blocks_give_obuchowskis_variance_to_averages_too(seed: int) -> None:
    """In blocks the per-sample correction is Obuchowski's I10/(I10 − 1) and I01/(I01 − 1) (blocks with a positive,
    with a negative) and I/(I − 1) for the cross products: a binary AUC as two columns gets her variance exactly, and
    blocks of one instance each give the variance without blocks, for every average."""
    rng = np.random.default_rng(40 + seed)
    size = rng.integers(1, 6, 40)
    block = np.repeat(np.arange(40), size)
    effect = rng.normal(size=40)[block]
    y = (rng.random(len(block)) < 1 / (1 + np.exp(-1.5 * effect))).astype(int)
    y[:2] = [0, 1]
    s = np.round(1 / (1 + np.exp(-(effect + rng.normal(size=len(y)) + y))), 1)
    two = np.column_stack([1 - s, s])
    counts = ScoreCounts(("0", "1"), ("0", "1"), y, two, np.ones(len(y), dtype=np.int64))  # a column per class
    ones = np.ones(len(y))
    assert len(np.unique(block[y == 1])) < 40 and len(np.unique(block[y == 0])) < 40  # I10, I01 < I
    clustered = delong(y == 1, s, cluster=block).variance
    for average in ("macro", "weighted"):
        _, terms = averaged_auc_terms(counts, y, two, ones, average)
        assert influence_variance(terms, ones, block) == pytest.approx(clustered, abs=1e-12)
    yk, pk = _sample(seed, n=150)
    counts = ScoreCounts.of_arrays(yk, pk, list(range(K)))
    for average in ("macro", "weighted", "micro"):
        _, terms = averaged_auc_terms(counts, yk, pk, np.ones(150), average)
        alone = influence_variance(terms, np.ones(150), np.arange(150))
        assert alone == pytest.approx(influence_variance(terms, np.ones(150)), abs=1e-14)
    assert delong(y == 1, s, cluster=np.arange(len(y))).variance == pytest.approx(delong(y == 1, s).variance, abs=1e-14)


def test_an_average_over_a_class_of_one_instance_has_no_delong_variance() -> None:
    """As DeLong's variance of one AUC needs two positives and two negatives, an average over a class of one gold
    instance has none (no interval) rather than a number without its correction."""
    rng = np.random.default_rng(9)
    y = np.r_[0, rng.integers(1, 3, 59)]
    p = rng.dirichlet(np.ones(3), 60)
    counts = ScoreCounts.of_arrays(y, p, [0, 1, 2])
    _, terms = averaged_auc_terms(counts, y, p, np.ones(60), "macro")
    assert np.isnan(influence_variance(terms, np.ones(60)))
    assert np.isnan(delong(y == 0, p[:, 0]).variance)
    with pytest.raises(clfeval.ClfevalError, match="no delong interval"):
        clfeval.score(y, scores=p, labels=[0, 1, 2], ci="delong").interval("macro.auc")
