"""Confidence intervals: Takahashi's worked example, closed forms against the generic delta method,
the count bootstrap against an instance-level reference, BCa's jackknife, and the words said when an
interval cannot be had."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.infer import bootstrap as bootstrap_module
from clfeval.infer.bootstrap import (
    bca_levels,
    bootstrap_replicates,
    jackknife_moments,
    jackknife_replicates,
    label_jackknife_moments,
    type_jackknife_moments,
)
from clfeval.infer.delta import delta_variances, takahashi_variances, type_delta_variances
from clfeval.infer.proportion import wilson_interval
from clfeval.scoring.statistics import ScoreFunction

#: Takahashi et al. Table 1 (rows predicted, columns true); both reconstructions of DESIGN §5.
TAKAHASHI_TABLES = ([[2, 3, 1], [4, 70, 3], [1, 1, 15]], [[2, 2, 2], [5, 70, 2], [0, 2, 15]])
#: §3.1–3.3: 95% intervals and standard errors printed in the paper.
TAKAHASHI_PRINTED = {
    "micro": ((0.804, 0.936), 0.0336),
    "macro": ((0.562, 0.817), 0.0650),
    "macro_fa": ((0.563, 0.818), 0.0649),
}


def _takahashi(table) -> clfeval.Scores:
    gold_rows = np.array(table).T  # clfeval's orientation: rows gold
    return clfeval.score(clfeval.ConfusionCounts(("1", "2", "3"), gold_rows))


@pytest.mark.parametrize("table", TAKAHASHI_TABLES)
def test_takahashi_worked_example(table) -> None:
    r = clfeval.with_intervals(_takahashi(table), "delta")
    z = 1.959963984540054
    for name, ((low, high), se) in TAKAHASHI_PRINTED.items():
        got = r.intervals.get(("averages", name, "f"))
        assert (round(got[0], 3), round(got[1], 3)) == (low, high), name
        assert round((got[1] - got[0]) / (2 * z), 4) == se, name
    assert "closed forms of Takahashi" in r.intervals.notes[0]


def test_takahashi_covariance_as_printed_is_a_misprint() -> None:
    """With p_j·² (as printed) in Cov(maP, maR), sd(maF1*) is 0.0658; with p_·j² it is the printed 0.0649."""
    p = np.array(TAKAHASHI_TABLES[0], dtype=float) / 100  # rows predicted, as in the paper
    diag, row, col, n, r = np.diagonal(p), p.sum(1), p.sum(0), 100, 3
    ma_p, ma_r = np.mean(diag / row), np.mean(diag / col)
    var_p = np.sum(diag * (row - diag) / row**3) / (r * r * n)
    var_r = np.sum(diag * (col - diag) / col**3) / (r * r * n)
    first = np.sum((row - diag) * diag * (col - diag) / (row**2 * col**2))

    def sd(second_margin: np.ndarray) -> float:
        pair = np.outer(diag / row**2, diag / second_margin**2) * p
        cov = (first + pair.sum() - np.trace(pair)) / (r * r * n)
        var = 4 * (ma_r**4 * var_p + 2 * ma_p**2 * ma_r**2 * cov + ma_p**4 * var_r) / (ma_p + ma_r) ** 4
        return math.sqrt(var)

    assert round(sd(row), 4) == 0.0658  # as printed
    assert round(sd(col), 4) == 0.0649  # corrected
    assert math.sqrt(takahashi_variances(np.array(TAKAHASHI_TABLES[0]).T)["macro_fa"]) == pytest.approx(sd(col), 1e-12)


def test_closed_forms_agree_with_the_generic_delta_method() -> None:
    rng = np.random.default_rng(11)
    worst = 0.0
    for _ in range(150):
        k = int(rng.integers(2, 8))
        cells = rng.integers(1, int(rng.integers(2, 2000)), (k, k))
        scores = clfeval.score(clfeval.ConfusionCounts(tuple(map(str, range(k))), cells))
        f = ScoreFunction.of(scores)
        generic = delta_variances(f)
        for name, var in takahashi_variances(cells).items():
            worst = max(worst, abs(math.sqrt(generic[f.index(("averages", name, "f"))]) / math.sqrt(var) - 1))
    assert worst < 1e-9


def test_closed_forms_with_nothing_predicted_right_leave_macro_fa_undefined_quietly() -> None:
    """Every class predicted and present, none right: macro P = macro R = 0, so F(FA) is 0/0 with no derivative.
    The closed form gives NaN (not a 0/0 RuntimeWarning), and the interval says why there is none (found by the
    property test of tests/test_invariance.py on a fresh seed)."""
    gold, pred = ["a", "a", "b", "c", "d"], ["b", "c", "a", "d", "a"]
    variances = takahashi_variances(clfeval.score(gold, pred).counts)
    assert math.isnan(variances["macro_fa"]) and variances["micro"] == 0.0 and variances["macro"] == 0.0
    result = clfeval.score(gold, pred, ci="delta")  # the suite turns warnings into errors
    key = ("averages", "macro_fa", "f")
    assert result.intervals.get(key) is None and result.intervals.not_estimable[key]


def _assert_same(f: ScoreFunction, fast: np.ndarray, reference: np.ndarray, rtol: float, atol: float) -> None:
    """A fast path's value of every score of ``f`` against its reference: NaN where it is NaN, close elsewhere."""
    assert np.array_equal(np.isnan(fast), np.isnan(reference)), [
        key for key, a, b in zip(f.keys, fast, reference) if np.isnan(a) != np.isnan(b)
    ]
    fine = ~np.isnan(reference)
    close = np.isclose(fast[fine], reference[fine], rtol=rtol, atol=atol)
    keys = np.array(f.keys, dtype=object)[fine]
    assert close.all(), [(k, a, b) for k, a, b, ok in zip(keys, fast[fine], reference[fine], close) if not ok][:5]


def _same_variances(f: ScoreFunction) -> None:
    """The label-parts delta method against the type-by-type reference, score by score."""
    _assert_same(f, delta_variances(f), type_delta_variances(f), rtol=1e-6, atol=1e-10)


def _single_label_functions(
    rng: np.random.Generator, max_n: int, one_gold: bool, train_scoring: dict[str, Any]
) -> Iterator[ScoreFunction]:
    """Random single-label data over 3–7 labels, as drawn, with one label predicted for all, with one gold label for
    all (``one_gold``) and predicted perfectly: each scored under every zero-division value and undefined policy
    over a random label set (labels outside it) with β = 2, then with lfb from training data
    (``train_scoring``: further :class:`clfeval.Scoring` options)."""
    k = int(rng.integers(3, 8))
    n = int(rng.integers(20, max_n))
    gold = [str(x) for x in rng.integers(0, k, n)]
    pred = [str(x) for x in np.where(rng.random(n) < 0.6, [int(g) for g in gold], rng.integers(0, k + 2, n))]
    labels = [str(x) for x in range(k)]
    cases = [(gold, pred), (gold, ["0"] * n), *([(["1"] * n, pred)] if one_gold else []), (gold, gold)]
    for g, p in cases:
        for zd in (0, 1, "nan"):
            for undefined in ("include", "exclude"):
                scoring = clfeval.Scoring(
                    labels=labels[: int(rng.integers(2, k + 1))], zero_division=zd, undefined=undefined, beta=2.0
                )
                yield ScoreFunction.of(clfeval.score(g, p, scoring=scoring))
        train = [str(x) for x in rng.integers(0, k + 1, 3 * n)]
        yield ScoreFunction.of(clfeval.score(g, p, scoring=clfeval.Scoring(train=train, **train_scoring)))


def _multilabel_functions(
    rng: np.random.Generator, n: int, zero_divisions: Sequence[float | str]
) -> Iterator[ScoreFunction]:
    """Random multi-label data over six labels, scored under each zero-division value and undefined policy over a
    random label set."""
    labels = list("abcdef")
    gold = [[x for x in labels if rng.random() < 0.3] for _ in range(n)]
    pred = [[x for x in labels if (x in g and rng.random() < 0.8) or rng.random() < 0.15] for g in gold]
    for zd in zero_divisions:
        for undefined in ("include", "exclude"):
            scoring = clfeval.Scoring(labels=labels[: int(rng.integers(2, 7))], zero_division=zd, undefined=undefined)
            yield ScoreFunction.of(clfeval.score(gold, pred, multilabel=True, scoring=scoring))


@pytest.mark.parametrize("seed", range(6))
def test_label_parts_delta_method_matches_the_type_by_type_reference(seed: int) -> None:
    """Every score, single-label: label sets smaller than the table (labels outside it), β, every zero-division
    value and undefined policy, degenerate predictions (one label for all), and lfb from training data."""
    for f in _single_label_functions(np.random.default_rng(seed), 400, True, {"zero_division": "nan"}):
        _same_variances(f)


@pytest.mark.parametrize("seed", range(4))
def test_label_parts_delta_method_matches_the_reference_on_multilabel_data(seed: int) -> None:
    for f in _multilabel_functions(np.random.default_rng(100 + seed), 150, (0, 1, "nan")):
        _same_variances(f)


def test_label_parts_delta_method_at_many_labels_matches_the_reference() -> None:
    """400 labels, most of them rare: the per-label parts, the averages and κ's pair sum at a size where the
    reference's types × labels still runs in seconds."""
    rng = np.random.default_rng(3)
    k, n = 400, 3000
    weights = 1 / np.arange(1, k + 1)
    gold = rng.choice(k, n, p=weights / weights.sum())
    pred = np.where(rng.random(n) < 0.5, gold, rng.choice(k, n, p=weights / weights.sum()))
    _same_variances(ScoreFunction.of(clfeval.score([f"l{x:03d}" for x in gold], [f"l{x:03d}" for x in pred])))


def test_generic_delta_method_matches_textbook_variances() -> None:
    """Accuracy: a(1−a)/n. Precision of λ: P(1−P)/(n·q) with q the share predicted λ (unconditional)."""
    rng = np.random.default_rng(4)
    cells = rng.integers(1, 50, (4, 4))
    scores = clfeval.score(clfeval.ConfusionCounts(tuple("abcd"), cells))
    f = ScoreFunction.of(scores)
    var = delta_variances(f)
    n = cells.sum()
    acc = scores.accuracy
    assert var[f.index(("accuracy",))] == pytest.approx(acc * (1 - acc) / n, rel=1e-9)
    for j, lab in enumerate("abcd"):
        p = scores.per_label[lab].precision
        q = cells[:, j].sum() / n
        assert var[f.index(("per_label", lab, "precision"))] == pytest.approx(p * (1 - p) / (n * q), rel=1e-9)


def test_multilabel_samples_delta_variance_is_the_variance_of_a_mean() -> None:
    """samples precision is a mean of per-instance values v: Var = Σ c (v − mean)² / n²."""
    gold = [["A"], ["A", "B"], ["B"], ["A", "C"], ["C"]] * 7 + [["A"]] * 3
    pred = [["A"], ["A"], ["B", "C"], ["C"], ["A", "C"]] * 7 + [["B"]] * 3
    scores = clfeval.score(gold, pred, multilabel=True)
    f = ScoreFunction.of(scores)
    var = delta_variances(f)[f.index(("averages", "samples", "precision"))]
    values = np.array([len(set(g) & set(p)) / len(p) for g, p in zip(gold, pred)])
    assert var == pytest.approx(values.var() / len(values), rel=1e-9)


def test_wilson_reference_values() -> None:
    z = 1.959963984540054
    low, high = wilson_interval(np.array([0, 10, 8, 0]), np.array([10, 10, 10, 0]), z)
    assert low[0] == 0 and high[0] == pytest.approx(0.27753, abs=1e-5)
    assert low[1] == pytest.approx(0.72247, abs=1e-5) and high[1] == pytest.approx(1, abs=1e-15)
    assert (round(low[2], 4), round(high[2], 4)) == (0.4902, 0.9433)
    assert math.isnan(low[3])


def _noisy(rng: np.random.Generator, classes: int, n: int, right: float) -> tuple[np.ndarray, np.ndarray]:
    """Gold labels uniform over ``classes`` and predictions right with probability ``right`` (else uniform)."""
    gold = rng.integers(0, classes, n).astype(str)
    return gold, np.where(rng.random(n) < right, gold, rng.integers(0, classes, n).astype(str))


def _instance_bootstrap(gold: np.ndarray, pred: np.ndarray, resamples: int, key, seed: int) -> np.ndarray:
    """The reference: resample instances, recount, rescore (what scipy.stats.bootstrap does)."""
    rng = np.random.default_rng(seed)
    labels = sorted(set(gold) | set(pred))
    out = []
    for _ in range(resamples):
        idx = rng.integers(0, len(gold), len(gold))
        r = clfeval.score(gold[idx], pred[idx], scoring=clfeval.Scoring(labels=labels, labels_from="given"))
        out.append(ScoreFunction.value_of(r, key))
    return np.array(out)


@pytest.mark.simulation
def test_count_bootstrap_has_the_distribution_of_the_instance_bootstrap() -> None:
    gold, pred = _noisy(np.random.default_rng(0), 4, 150, 0.6)
    scores = clfeval.score(gold, pred)
    f = ScoreFunction.of(scores)
    counted = bootstrap_replicates(f, 4000, np.random.default_rng(1))
    for key in (("averages", "macro", "f"), ("averages", "macro_fa", "f"), ("averages", "weighted", "precision")):
        reference = _instance_bootstrap(gold, pred, 800, key, seed=2)
        ours = counted[:, f.index(key)]
        se_mean = math.hypot(ours.std() / math.sqrt(len(ours)), reference.std() / math.sqrt(len(reference)))
        assert abs(ours.mean() - reference.mean()) < 4 * se_mean, key
        assert ours.std() / reference.std() == pytest.approx(1, abs=0.12), key


def _same_jackknife(f: ScoreFunction) -> None:
    """The label-parts jackknife moments against the type-by-type reference, score by score."""
    for fast, reference in zip(label_jackknife_moments(f), type_jackknife_moments(f)):
        _assert_same(f, fast, reference, rtol=1e-7, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_label_parts_jackknife_matches_the_type_by_type_reference(seed: int) -> None:
    """BCa's acceleration, single- and multi-label: label sets smaller than the table, β = 2, every zero-division
    value and undefined policy, lfb from training data, one label predicted for all, perfect predictions."""
    rng = np.random.default_rng(200 + seed)
    for f in _single_label_functions(rng, 300, False, {}):
        _same_jackknife(f)
    for f in _multilabel_functions(rng, 120, (0, "nan")):
        _same_jackknife(f)


def test_label_parts_jackknife_at_many_labels_matches_the_reference() -> None:
    rng = np.random.default_rng(5)
    k, n = 300, 2000
    weights = 1 / np.arange(1, k + 1)
    gold = rng.choice(k, n, p=weights / weights.sum())
    pred = np.where(rng.random(n) < 0.5, gold, rng.choice(k, n, p=weights / weights.sum()))
    _same_jackknife(ScoreFunction.of(clfeval.score([f"l{x:03d}" for x in gold], [f"l{x:03d}" for x in pred])))


def test_bca_jackknife_per_cell_type_equals_the_instance_jackknife() -> None:
    gold, pred = _noisy(np.random.default_rng(3), 3, 40, 0.7)
    scores = clfeval.score(gold, pred)
    f = ScoreFunction.of(scores)
    key = ("averages", "macro", "f")
    labels = list(scores.labels)
    loo = np.array(
        [
            ScoreFunction.value_of(
                clfeval.score(
                    np.delete(gold, i), np.delete(pred, i), scoring=clfeval.Scoring(labels=labels, labels_from="given")
                ),
                key,
            )
            for i in range(40)
        ]
    )
    jack = jackknife_replicates(f)[:, f.index(key)]
    rows = clfeval.KINDS["single-label"].rows(scores.counts)[0]  # the types, in the order of f's weights
    by_type = dict(zip(rows, jack))
    np.testing.assert_allclose(loo, [by_type[(a, b)] for a, b in zip(gold, pred)], atol=1e-12)
    # and the acceleration BCa derives from them
    replicates = bootstrap_replicates(f, 2000, np.random.default_rng(0))
    second, third = jackknife_moments(f)
    mean = f.weights @ jackknife_replicates(f) / f.weights.sum()
    np.testing.assert_allclose(second, f.weights @ (mean - jackknife_replicates(f)) ** 2, rtol=1e-9, atol=1e-15)
    low, _, invalid = bca_levels(f.point(), replicates, (second, third), 0.05)
    dev = loo.mean() - loo
    accel = np.sum(dev**3) / (6 * np.sum(dev**2) ** 1.5)
    est = f.point()[f.index(key)]
    z0 = (
        __import__("statistics")
        .NormalDist()
        .inv_cdf((np.sum(replicates[:, f.index(key)] < est) + 0.5 * np.sum(replicates[:, f.index(key)] == est)) / 2000)
    )
    zl = z0 + (z0 - 1.959963984540054) / (1 - accel * (z0 - 1.959963984540054))
    assert low[f.index(key)] == pytest.approx(__import__("statistics").NormalDist().cdf(zl), rel=1e-9)
    assert not invalid[f.index(key)]


def test_bca_agrees_with_scipy_on_instances() -> None:
    from scipy import stats

    rng = np.random.default_rng(6)
    gold = rng.integers(0, 3, 300)
    pred = np.where(rng.random(300) < 0.75, gold, rng.integers(0, 3, 300))
    ours = clfeval.score(gold, pred, ci=clfeval.CI("bootstrap-bca", resamples=20000, seed=1)).intervals.get(
        ("accuracy",)
    )
    theirs = stats.bootstrap(
        ((gold == pred).astype(float),), np.mean, method="BCa", n_resamples=20000, random_state=np.random.default_rng(2)
    ).confidence_interval
    assert ours[0] == pytest.approx(theirs.low, abs=0.01) and ours[1] == pytest.approx(theirs.high, abs=0.01)


def test_bootstrap_agrees_with_delta_for_large_n() -> None:
    """Stated tolerance: every interval end within 10% of the delta interval's width (N = 20,000)."""
    rng = np.random.default_rng(9)
    gold = rng.choice(5, 20000, p=[0.4, 0.3, 0.15, 0.1, 0.05])
    pred = np.where(rng.random(20000) < 0.8, gold, rng.integers(0, 5, 20000))
    base = clfeval.score(gold, pred)
    delta = clfeval.with_intervals(base, "delta")
    for method in ("bootstrap", "bootstrap-bca", "delta-logit"):
        other = clfeval.with_intervals(base, clfeval.CI(method, resamples=4000, seed=3))
        compared = 0
        for key, (low, high) in delta.intervals.bounds.items():
            if key[-1].endswith("_wilson") or key in delta.intervals.remarks:
                continue
            o_low, o_high = other.intervals.get(key)
            width = high - low
            assert abs(o_low - low) <= 0.1 * width and abs(o_high - high) <= 0.1 * width, (method, key)
            compared += 1
        assert compared > 30


def test_batches_do_not_change_the_draws(monkeypatch) -> None:
    scores = _takahashi(TAKAHASHI_TABLES[0])
    f = ScoreFunction.of(scores)
    whole = bootstrap_replicates(f, 500, np.random.default_rng(5))
    monkeypatch.setattr(bootstrap_module, "_BATCH_FLOATS", 1000)
    seen = []
    batched = bootstrap_replicates(f, 500, np.random.default_rng(5), progress=lambda d, t: seen.append((d, t)))
    np.testing.assert_array_equal(whole, batched)
    assert len(seen) > 5 and seen[-1] == (500, 500)


def test_seed_is_recorded_and_reproduces() -> None:
    base = _takahashi(TAKAHASHI_TABLES[0])
    a = clfeval.with_intervals(base, clfeval.CI("bootstrap", resamples=300, seed=42))
    b = clfeval.with_intervals(base, clfeval.CI("bootstrap", resamples=300, seed=42))
    c = clfeval.with_intervals(base, clfeval.CI("bootstrap", resamples=300, seed=43))
    assert a.intervals.bounds == b.intervals.bounds != c.intervals.bounds
    drawn = clfeval.with_intervals(base, clfeval.CI("bootstrap", resamples=300))
    assert isinstance(drawn.intervals.seed, int)
    again = clfeval.with_intervals(base, clfeval.CI("bootstrap", resamples=300, seed=drawn.intervals.seed))
    assert again.intervals.bounds == drawn.intervals.bounds
    data = a.to_dict()["ci"]
    assert (data["method"], data["resamples"], data["seed"], data["confidence"]) == ("bootstrap", 300, 42, 0.95)


def test_never_predicted_class_is_said_in_words_not_nan() -> None:
    gold = ["a"] * 30 + ["b"] * 30 + ["c"] * 5
    pred = ["a"] * 28 + ["b"] * 2 + ["b"] * 27 + ["a"] * 3 + ["a"] * 5  # c never predicted
    r = clfeval.score(gold, pred, ci="delta")
    iv = r.intervals
    assert iv.get(("averages", "macro_fa", "f")) is None
    assert "precision of 'c' is 0/0 (never predicted)" in iv.not_estimable[("averages", "macro_fa", "f")]
    assert iv.get(("averages", "micro", "f")) is not None  # micro does not involve the 0/0
    data = r.to_dict()
    assert data["averages"]["macro_fa"]["f1_ci"] is None
    assert "/averages/macro_fa/f1_ci" in data["ci"]["not_estimable"]
    text = r.render("text")
    assert "no interval — precision of 'c' is 0/0 (never predicted)" in text
    assert "nan" not in text.lower().replace("nan)", "")
    boot = clfeval.score(gold, pred, ci=clfeval.CI("bootstrap", resamples=500, seed=1))
    assert boot.intervals.get(("averages", "macro_fa", "f")) is not None
    assert any("cannot predict what the data never predicted" in n for n in boot.intervals.notes)


def test_nan_zero_division_and_tiny_n_have_reasons() -> None:
    r = clfeval.score(
        ["a", "b", "b"],
        ["a", "a", "b"],
        ci=clfeval.CI("bootstrap", resamples=200, seed=0),
        scoring=clfeval.Scoring(labels=["a", "b", "c"], zero_division="nan"),
    )
    assert r.intervals.get(("averages", "macro", "precision")) is None
    assert "NaN" in r.intervals.not_estimable[("averages", "macro", "precision")]
    one = clfeval.score(["a"], ["a"], ci="delta")
    assert one.intervals.bounds.keys() <= {k for k in one.intervals.bounds if k[-1].endswith("_wilson")}
    assert "N = 1" in one.intervals.not_estimable[("accuracy",)]


def test_clipping_and_logit() -> None:
    r = clfeval.score(["a"] * 19 + ["b"], ["a"] * 19 + ["a"], ci="delta")
    low, high = r.intervals.get(("per_label", "a", "recall"))
    assert high == 1.0 and "clipped" in r.intervals.remarks.get(("per_label", "a", "precision"), "")
    logit = clfeval.with_intervals(r, "delta-logit")
    low, high = logit.intervals.get(("per_label", "a", "precision"))
    assert 0 < low < r.per_label["a"].precision < high < 1
    assert "0 < estimate < 1" in logit.intervals.not_estimable[("per_label", "a", "recall")]


def test_hamming_loss_above_one_is_not_clipped_to_one() -> None:
    gold = [["a", "a", "a"], ["a"], ["b", "b"], ["a"]] * 10
    pred = [["b", "b", "b"], ["a"], ["a", "a"], ["b"]] * 10
    r = clfeval.score(gold, pred, multilabel=True, ci="delta")
    low, high = r.intervals.get(("hamming_loss",))
    assert r.hamming_loss > 1 and low < r.hamming_loss < high
    logit = clfeval.with_intervals(r, "delta-logit")  # bounded below only: on the log scale, so it stays above 0
    low_log, high_log = logit.intervals.get(("hamming_loss",))
    assert 0 < low_log < r.hamming_loss < high_log and high_log > 1


def test_seed_recorded_even_when_nothing_is_resampled() -> None:
    r = clfeval.score(["a"], ["b"], ci=clfeval.CI("bootstrap-bca", seed=1))
    assert r.intervals.seed == 1 and r.intervals.get(("accuracy",)) is None


def test_multilabel_intervals() -> None:
    rng = np.random.default_rng(1)
    names = "ABC"
    gold = [[n for n in names if rng.random() < 0.4] for _ in range(3000)]
    pred = [[n for n in g if rng.random() < 0.8] + [n for n in names if rng.random() < 0.1] for g in gold]
    base = clfeval.score(gold, pred, multilabel=True)
    delta = clfeval.with_intervals(base, "delta")
    boot = clfeval.with_intervals(base, clfeval.CI("bootstrap", resamples=3000, seed=2))
    for key in (("averages", "samples", "f"), ("averages", "macro", "f"), ("hamming_loss",), ("accuracy",)):
        (dl, dh), (bl, bh) = delta.intervals.get(key), boot.intervals.get(key)
        assert abs(dl - bl) < 0.15 * (dh - dl) and abs(dh - bh) < 0.15 * (dh - dl), key
    data = boot.to_dict()
    assert data["subset_accuracy_ci"] == data["accuracy_ci"] and data["hamming_loss_ci"] is not None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"method": "wald"}, "unknown interval method 'wald'"),
        ({"method": "delta", "confidence": 95}, "confidence must be between 0 and 1"),
        ({"method": "bootstrap", "resamples": 1}, "resamples must be an integer of at least 2"),
        ({"method": "bootstrap", "seed": -3}, "seed must be a non-negative integer"),
    ],
)
def test_bad_options(kwargs, message) -> None:
    base = _takahashi(TAKAHASHI_TABLES[0])
    with pytest.raises(clfeval.OptionError, match=message):  # refused when the group is built
        clfeval.with_intervals(base, clfeval.CI(**kwargs))


def test_none_means_no_intervals_and_says_so_in_json() -> None:
    r = clfeval.score(["a", "b"], ["a", "b"])
    assert r.intervals is None
    data = r.to_dict()
    assert data["ci"]["method"] == "none" and "f1_ci" not in data["averages"]["macro"]
    assert json.loads(r.to_json()) == data


@pytest.mark.parametrize("seed", range(12))
def test_delta_intervals_of_a_perfectly_predicted_table(seed: int) -> None:
    """Σ p_ii = 1 + 1e-16 made a closed-form variance −1e-17 and math.sqrt failed ('math domain error')."""
    rng = np.random.default_rng(seed)
    gold = list("abcccddd") if seed == 0 else [str(x) for x in rng.integers(0, rng.integers(2, 9), rng.integers(3, 60))]
    for method in ("delta", "delta-logit"):
        r = clfeval.score(gold, gold, ci=method)
        for key in (("averages", "micro", "f"), ("averages", "macro", "f"), ("accuracy",)):
            bounds = r.intervals.get(key)
            if method == "delta":  # zero width, up to the numerical derivative's rounding
                assert bounds is not None and bounds[1] == 1.0 and bounds[0] == pytest.approx(1.0, abs=1e-6)
            else:
                assert bounds is None and "0 < estimate < 1" in r.intervals.not_estimable[key]
    sets = [[g] for g in gold]
    r = clfeval.score(sets, sets, multilabel=True, ci="delta")
    assert r.intervals.get(("averages", "samples", "f")) == (1.0, 1.0)


def test_a_warning_names_the_counts_that_decide_coverage_not_n() -> None:
    """docs/coverage.md: coverage follows the rarest label's support and predictions and the errors, not N. The
    old rule warned below N = 500 only, so a 1% class at N = 5000 (50 instances) got a warning it did not need
    and N = 600 with a 1% class (6 instances) got none."""
    rng = np.random.default_rng(3)

    def table(n: int, rare: float, accuracy: float) -> tuple[list[str], list[str]]:
        gold = np.where(rng.random(n) < rare, "rare", rng.choice(["a", "b", "c"], n))
        pred = np.where(rng.random(n) < accuracy, gold, rng.choice(["a", "b", "c", "rare"], n))
        return gold.tolist(), pred.tolist()

    gold, pred = table(600, 0.01, 0.8)
    r = clfeval.score(gold, pred, ci="delta")
    support = r.per_label["rare"].support
    warning = next(w for w in r.warnings if "docs/coverage.md" in w)
    assert f"label 'rare' has {support} gold instance(s)" in warning and support < 30
    gold, pred = table(5000, 0.06, 0.8)  # every count large
    for method in ("delta", "delta-logit", "bootstrap", "bootstrap-bca"):
        r = clfeval.score(gold, pred, ci=clfeval.CI(method, resamples=50, seed=1))
        assert not any("docs/coverage.md" in w for w in r.warnings), method
    gold, pred = table(2000, 0.01, 0.999)  # about 20 rare instances, 2 errors: BCa's thresholds are 10 and 10
    r = clfeval.score(gold, pred, ci=clfeval.CI("bootstrap-bca", resamples=50, seed=1))
    warning = next(w for w in r.warnings if "docs/coverage.md" in w)
    assert "error(s)" in warning and "gold instance(s)" not in warning
    sets = clfeval.score([["a"], ["b"]] * 20, [["a"], ["a", "b"]] * 20, multilabel=True, ci="delta")
    assert any("there are 20 error(s)" in w for w in sets.warnings)  # multi-label errors: Σ fp + fn
