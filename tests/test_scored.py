"""Scored predictions (issue 32, first part): counts of distinct (gold, scores) rows, the ranking and probability
measures against scikit-learn on random data with ties, and DeLong against a direct O(n²) implementation of DeLong,
DeLong & Clarke-Pearson (1988)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics

from clfeval.count.scored import ScoreCounts
from clfeval.errors import ClfevalError
from clfeval.infer.delong import delong, delong_paired
from clfeval.scoring import probability, ranking
from clfeval.scoring.scored import Conventions

MARGINS = Conventions(not_probabilities=True)  # normal scores and margins are no probabilities


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
    c = ScoreCounts.of_arrays([0, 1, 2], np.array([[0.5, 0.6, 0.0], [0.3, 0.7, 0.0], [0.1, 0.1, 0.8]]))
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


# -- clfeval.score(y, scores=...) -----------------------------------------------------------------------------------


def test_score_with_scores_gives_every_measure_named_with_intervals() -> None:
    import clfeval

    rng = np.random.default_rng(17)
    y, p = _multiclass(rng, 400, 4, decimals=3)
    r = clfeval.score(y, scores=p, labels=[0, 1, 2, 3], ci="bootstrap", seed=3, resamples=200)
    assert r["macro.auc"] == pytest.approx(metrics.roc_auc_score(y, p, multi_class="ovr"), abs=1e-12)
    assert r["ovo.auc"] == pytest.approx(metrics.roc_auc_score(y, p, multi_class="ovo"), abs=1e-12)
    assert r["log_loss"] == pytest.approx(metrics.log_loss(y, p, labels=range(4)), abs=1e-12)
    assert r["top_1_accuracy"] == pytest.approx(metrics.accuracy_score(y, p.argmax(axis=1)), abs=1e-12)
    low, high = r.interval("macro.auc")
    assert low < r["macro.auc"] < high
    again = clfeval.score(y, scores=p, labels=[0, 1, 2, 3], ci="bootstrap", seed=3, resamples=200)
    assert again.flat() == r.flat()  # the seed decides the draws
    doc = r.to_dict()
    assert doc["schema"] == "clfeval.scored/2" and doc["conventions"]["brier"] == "sklearn"
    assert doc["ci"]["method"] == "bootstrap" and doc["ci"]["seed"] == 3
    assert "calibration:15,equal-width" in r.signature and "topk_ties:expected" in r.signature
    # the label report at the threshold is score() of the argmax predictions
    labels = clfeval.score(y, p.argmax(axis=1), labels=[0, 1, 2, 3])
    assert r.labels_at_threshold.flat() == labels.flat() and r.threshold == "argmax"
    for fmt in ("text", "json", "markdown", "csv", "latex"):
        assert r.render(fmt)
    assert set(r.table_names()) >= {"per_label", "scores", "reliability", "labels_per_label"}


def test_binary_scores_name_their_positive_class_and_delong_intervals_cover_the_aucs() -> None:
    import clfeval

    rng = np.random.default_rng(19)
    y, s = _binary(rng, 300, decimals=2)
    names = np.where(y == 1, "spam", "ham")
    r = clfeval.score(names, scores=s, ci="delong")  # the last of the sorted labels is positive, as classes_[1]
    assert r.counts.columns == ("spam",) and r["auc"] == pytest.approx(metrics.roc_auc_score(y, s), abs=1e-12)
    d = delong(y == 1, s)
    assert r.interval("auc") == pytest.approx((d.low, d.high))
    with pytest.raises(ClfevalError, match="log_loss has no delong interval"):
        r.interval("log_loss")  # DeLong covers the AUCs only
    flipped = clfeval.score(names, scores=1 - s, positive="ham")
    assert flipped["auc"] == pytest.approx(r["auc"])
    assert "positive:ham" in flipped.signature and "threshold:score >= 0.5" in flipped.signature
    with pytest.raises(ClfevalError, match=r"scores\[\d+\]: the score .* is not a probability .*not_probabilities"):
        clfeval.score(y, scores=4 * s - 2)  # margins read as probabilities: an error naming the row, never silent
    said = Conventions(not_probabilities=True)
    margins = clfeval.score(y, scores=4 * s - 2, conventions=said)  # said: ranking only, and no label report
    assert "log_loss" not in margins and margins.labels_at_threshold is None
    at = clfeval.score(y, scores=4 * s - 2, threshold=0.0, conventions=said)
    assert at.labels_at_threshold.flat() == clfeval.score(y, (4 * s - 2 >= 0).astype(int)).flat()


def test_score_with_scores_refuses_what_does_not_fit() -> None:
    import clfeval

    with pytest.raises(ClfevalError, match="takes the place of pred"):
        clfeval.score([0, 1], [0, 1], scores=[0.2, 0.8])
    with pytest.raises(ClfevalError, match="for scored predictions"):
        clfeval.score([0, 1], [0, 1], positive=1)
    with pytest.raises(ClfevalError, match="3 score columns but 2 classes"):
        clfeval.score([0, 1], scores=np.full((2, 3), 1 / 3))
    with pytest.raises(ClfevalError, match="threshold= is for binary scores"):
        clfeval.score([0, 1, 2], scores=np.full((3, 3), 1 / 3), threshold=0.3)


# -- clfeval.compare(y, scores={...}) -------------------------------------------------------------------------------


def test_compare_of_scores_tests_aucs_with_delong_and_any_score_by_resampling() -> None:
    import clfeval

    rng = np.random.default_rng(23)
    y = rng.integers(0, 2, 250)
    a, b = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
    r = clfeval.compare(y, scores={"A": a, "B": b}, test="delong")
    direct = delong_paired(y == 1, a, b)
    p = r.pair("A", "B", "auc")
    assert p["difference"] == pytest.approx(direct.difference) and p["p_value"] == pytest.approx(direct.p_value)
    assert r.to_dict()["schema"] == "clfeval.scoredpairs/2" and "test:delong" in r.signature
    boot = clfeval.compare(y, scores={"A": a, "B": b}, test="bootstrap", metrics=["auc", "brier"], seed=4, rounds=400)
    q = boot.pair("A", "B", "auc")
    assert q["ci"][0] < q["difference"] < q["ci"][1]
    assert boot.pair("A", "B", "brier")["difference"] == pytest.approx(
        metrics.brier_score_loss(y, a) - metrics.brier_score_loss(y, b)
    )  # the default Brier is scikit-learn's: binary (p − y)²
    again = clfeval.compare(y, scores={"A": a, "B": b}, test="bootstrap", metrics=["auc", "brier"], seed=4, rounds=400)
    assert again.flat() == boot.flat()
    with pytest.raises(ClfevalError, match="DeLong's test compares the AUC of a score column"):
        clfeval.compare(y, scores={"A": a, "B": b}, test="delong", metrics="brier")
    for fmt in ("text", "json", "markdown", "csv", "latex"):
        assert boot.render(fmt)


def test_randomization_of_exchangeable_scores_is_calibrated() -> None:
    import clfeval

    rng = np.random.default_rng(29)
    small = 0
    runs = 60
    for _ in range(runs):
        y = rng.integers(0, 2, 60)
        a, b = rng.normal(y, 1.5), rng.normal(y, 1.5)  # the same system twice: the null holds
        p = clfeval.compare(
            y, scores={"A": a, "B": b}, test="ar", rounds=99, seed=int(rng.integers(1 << 30)), conventions=MARGINS
        )
        small += p.pair("A", "B")["p_value"] <= 0.1
    assert small / runs < 0.25  # about 0.10 expected; a broken test (always 0.01) would fail
    assert small >= 1


# -- the command line -----------------------------------------------------------------------------------------------


def _write_multiclass(path: Path, y: np.ndarray, p: np.ndarray, names: list[str]) -> None:
    lines = ["id,gold," + ",".join(f"p_{c}" for c in names)]
    for i in range(len(y)):
        lines.append(f"{i},{names[y[i]]}," + ",".join(repr(float(v)) for v in p[i]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_score_and_compare_read_score_columns_from_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import clfeval
    from clfeval.cli import main

    rng = np.random.default_rng(31)
    y, p = _multiclass(rng, 200, 3, decimals=4)
    names = ["cat", "dog", "fish"]
    _write_multiclass(tmp_path / "mc.csv", y, p, names)
    assert main(["score", str(tmp_path / "mc.csv"), "--scores", "p_*", "--gold-col", "gold", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["classes"] == names and doc["scores"]["macro.auc"] == pytest.approx(
        metrics.roc_auc_score(y, p, multi_class="ovr"), abs=1e-12
    )
    rows = [json.dumps({"gold": names[g], "probs": [float(v) for v in row]}) for g, row in zip(y, p)]
    (tmp_path / "mc.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "classes.txt").write_text("cat\ndog\nfish\n", encoding="utf-8")
    args = ["score", str(tmp_path / "mc.jsonl"), "--scores", "probs", "--labels", str(tmp_path / "classes.txt")]
    assert main([*args, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == doc["scores"]
    # two systems' binary scores in one file, compared from the file and in Python
    yb = rng.integers(0, 2, 150)
    a, b = np.round(np.clip(rng.normal(0.35 + 0.3 * yb, 0.2), 0, 1), 4), np.round(rng.uniform(0, 1, 150), 4)
    text = "gold,a,b\n" + "".join(f"{g},{u!r},{v!r}\n" for g, u, v in zip(yb, a.tolist(), b.tolist()))
    (tmp_path / "two.csv").write_text(text, encoding="utf-8")
    cmd = ["compare", str(tmp_path / "two.csv"), "--gold-col", "gold", "--scores", "A=a", "--scores", "B=b"]
    assert main([*cmd, "--test", "delong", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)["pairs"][0]
    want = clfeval.compare(yb, scores={"A": a, "B": b}, test="delong").pair("A", "B")
    assert got["p_value"] == pytest.approx(want["p_value"]) and got["difference"] == pytest.approx(want["difference"])


@pytest.mark.parametrize(
    ("text", "args", "message"),
    [
        (
            "gold,a,b\na,0.5,0.6\nb,0.3,0.7\n",
            ["--scores", "a,b", "--gold-col", "gold"],
            r"bad\.csv:2: the class probabilities \[0\.5, 0\.6\] sum to 1\.1",
        ),
        (
            "gold,a,b\na,0.5,zz\n",
            ["--scores", "a,b", "--gold-col", "gold"],
            r"bad\.csv:2: the score 'zz' in column 'b' is not a number",
        ),
        (
            "gold,a,b\na,0.5,0.5\n,0.5,0.5\n",
            ["--scores", "a,b", "--gold-col", "gold"],
            r"bad\.csv:3: the gold label in column 'gold' is missing",
        ),
        (
            "gold,a\nx,0.5\n",
            ["--scores", "q_*", "--gold-col", "gold"],
            r"bad\.csv:1: no column matches --scores 'q_\*'",
        ),
        ("id,gold,a,b\n1,x,0.5,0.5\n", ["--scores", "a,b"], r"say which column holds the gold labels"),
        ("gold,a,b\na,0.5,0.5\nx,0.5,0.5\n", ["--scores", "a,b"], r"bad\.csv:3: the gold label 'x' is not one of"),
    ],
)
def test_bad_score_files_get_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, args: list[str], message: str
) -> None:
    import re

    from clfeval.cli import main

    (tmp_path / "bad.csv").write_text(text, encoding="utf-8")
    assert main(["score", str(tmp_path / "bad.csv"), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(message, err), err


def test_curves_in_the_json_and_the_figures(tmp_path: Path) -> None:
    import clfeval
    from clfeval.scoring.scored import Conventions

    rng = np.random.default_rng(37)
    y, s = _binary(rng, 600, decimals=3)
    every = clfeval.score(y, scores=s, conventions=Conventions(curve_points=None)).to_dict()["curves"]["1"]
    fpr, tpr, _ = metrics.roc_curve(y, s, drop_intermediate=False)
    assert np.allclose(every["roc"]["fpr"], fpr) and np.allclose(every["roc"]["tpr"], tpr)
    thinned = clfeval.score(y, scores=s, conventions=Conventions(curve_points=50)).to_dict()["curves"]["1"]["roc"]
    assert len(thinned["fpr"]) == 50 and thinned["points"] == len(fpr)
    assert thinned["fpr"][0] == 0 and thinned["fpr"][-1] == 1 and thinned["tpr"][-1] == 1
    r = clfeval.score(y, scores=s, ci="bootstrap", seed=2, resamples=100)
    figures = r.figures()
    assert [f.key for f in figures] == ["roc", "precision-recall", "reliability"]
    roc = figures[0]
    band = [c for c in roc.curves if c.low is not None]
    assert band and all(lo <= hi for lo, hi in zip(band[0].low, band[0].high))
    page = r.render("html")
    assert page.count('class="lineplot"') == 3 and "reliability diagram" in page.lower()
    pytest.importorskip("matplotlib")
    written = r.plot(str(tmp_path))
    assert {p.name for p in written} >= {"roc.png", "precision-recall.svg", "reliability.png"}


# -- counts of parts: count files and the Accumulator ---------------------------------------------------------------


def test_count_files_and_the_accumulator_of_scores_equal_one_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pickle

    import clfeval
    from clfeval.cli import main

    rng = np.random.default_rng(41)
    y, p = _multiclass(rng, 400, 3, decimals=3)
    names = ["a", "b", "c"]
    whole = clfeval.score(y, scores=p, labels=[0, 1, 2], ci="delong")
    acc = clfeval.Accumulator("scored", labels=range(3))
    for start in range(0, 400, 64):
        acc.update(y[start : start + 64], p[start : start + 64])
    assert acc.n == 400 and acc.score(ci="delong").flat() == whole.flat()
    twice = pickle.loads(pickle.dumps(acc)) + acc
    assert twice.n == 800 and twice.score()["macro.auc"] == pytest.approx(whole["macro.auc"])
    acc.save(tmp_path / "acc.json")
    assert clfeval.Accumulator.load(tmp_path / "acc.json").score(ci="delong").flat() == whole.flat()
    with pytest.raises(clfeval.InputError, match=r"update 8, gold\[0\]: is '7', not one of the classes"):
        acc.update([7], [[0.2, 0.3, 0.5]])
    # count files of two parts add up to the file's report
    for part, rows in (("p1", slice(0, 150)), ("p2", slice(150, None))):
        _write_multiclass(tmp_path / f"{part}.csv", y[rows], p[rows], names)
        assert main(["count", str(tmp_path / f"{part}.csv"), "--scores", "p_*", "--gold-col", "gold",
                     "-o", str(tmp_path / f"{part}.json")]) == 0  # fmt: skip
    _write_multiclass(tmp_path / "all.csv", y, p, names)
    outputs = []
    for args in (
        ["--counts", str(tmp_path / "p1.json"), str(tmp_path / "p2.json")],
        [str(tmp_path / "all.csv"), "--scores", "p_*", "--gold-col", "gold"],
    ):
        assert main(["score", *args, "--ci", "delong", "--format", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        outputs.append((doc["scores"], doc["per_label"]))
    assert outputs[0] == outputs[1]


def test_the_binary_fast_path_counts_what_the_general_path_counts() -> None:
    rng = np.random.default_rng(43)
    for decimals in (0, 1, 3, 8):
        y, s = _binary(rng, 500, decimals=decimals)
        fast = ScoreCounts.of_arrays(y, s)  # one sort, the one-vs-rest table kept
        general = ScoreCounts(("0", "1"), ("1",), y, s.reshape(-1, 1), np.ones(len(y), dtype=np.int64))
        assert np.array_equal(fast.gold, general.gold) and np.array_equal(fast.count, general.count)
        assert np.array_equal(fast.scores, general.scores)
        for a, b in zip(fast.column(0), general.column(0)):
            assert np.array_equal(a, b)


def test_a_few_bootstrap_draws_without_positives_are_left_out_and_counted() -> None:
    import clfeval

    y = np.r_[np.ones(4, dtype=int), np.zeros(46, dtype=int)]
    s = np.r_[np.linspace(0.6, 0.9, 4), np.linspace(0.0, 0.7, 46)]
    r = clfeval.score(y, scores=s, ci="bootstrap", seed=5, resamples=500)
    missing = r.interval_method["not_estimable"].get("auc", 0)
    assert 0 < missing <= 0.05 * 500  # (46/50)^50 ≈ 1.5% of the draws hold no positive
    low, high = r.interval("auc")
    assert low <= r["auc"] <= high


def test_timbl_class_distributions_are_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import clfeval
    from clfeval.cli import main

    rng = np.random.default_rng(47)
    y, p = _multiclass(rng, 120, 3, decimals=2)
    names = ["LOC", "ORG", "PER"]
    lines = []
    for g, row in zip(y, p):
        shown = ", ".join(f"{c} {v:g}" for c, v in zip(names, row.tolist()) if v > 0)  # TiMBL leaves zeros out
        lines.append(f"f1 f2 {names[g]} {names[int(np.argmax(row))]} {{ {shown} }} 0.{g}")
    (tmp_path / "out.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", str(tmp_path / "out.txt"), "--scores", "timbl", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    direct = clfeval.score(np.array(names)[y], scores=p, labels=names)
    assert doc["classes"] == names
    assert doc["scores"]["macro.auc"] == pytest.approx(direct["macro.auc"], abs=1e-12)
    assert doc["scores"]["log_loss"] == pytest.approx(direct["log_loss"], abs=1e-12)
    (tmp_path / "bad.txt").write_text("f1 f2 LOC LOC { LOC 1 }\nf1 f2 LOC LOC\n", encoding="utf-8")
    assert main(["score", str(tmp_path / "bad.txt"), "--scores", "timbl"]) == 2
    assert "bad.txt:2: expected a TiMBL class distribution" in capsys.readouterr().err


def test_cv_of_scored_folds_pools_their_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import clfeval
    from clfeval.cli import main

    rng = np.random.default_rng(53)
    y, p = _multiclass(rng, 300, 3, decimals=3)
    folds = np.arange(300) % 3
    r = clfeval.cv(y, scores=p, folds=folds, labels=[0, 1, 2], ci="delong")
    whole = clfeval.score(y, scores=p, labels=[0, 1, 2], ci="delong")
    assert r.pooled.flat() == whole.flat()
    for k, fold in enumerate(r.folds):
        alone = clfeval.score(y[folds == k], scores=p[folds == k], labels=[0, 1, 2])
        assert fold["macro.auc"] == pytest.approx(alone["macro.auc"]) and fold["log_loss"] == pytest.approx(
            alone["log_loss"]
        )
    mean, sd = r.mean_of_folds()["macro.auc"]
    assert mean == pytest.approx(np.mean([f["macro.auc"] for f in r.folds])) and sd > 0
    assert r.to_dict()["schema"] == "clfeval.scoredcv/2" and "folds:3" in r.signature
    for fmt in ("text", "json", "markdown", "csv", "latex"):
        assert r.render(fmt)
    names = ["a", "b", "c"]
    for k in range(3):
        _write_multiclass(tmp_path / f"fold{k}.csv", y[folds == k], p[folds == k], names)
    files = [str(tmp_path / f"fold{k}.csv") for k in range(3)]
    assert main(["cv", *files, "--scores", "p_*", "--gold-col", "gold", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [name.rsplit("/", 1)[-1] for name in doc["fold_names"]] == ["fold0.csv", "fold1.csv", "fold2.csv"]
    assert doc["pooled"]["scores"]["macro.auc"] == pytest.approx(whole["macro.auc"])


def test_comparisons_and_cv_of_scores_have_pages_with_curves() -> None:
    import clfeval
    from clfeval.scoring.ranking import micro_roc_curve

    rng = np.random.default_rng(59)
    y, p = _multiclass(rng, 240, 3, decimals=3)
    other = 0.7 * p + 0.3 * np.roll(p, 1, axis=1)
    counts = ScoreCounts.of_arrays(y, p, ["0", "1", "2"])
    fpr, tpr = micro_roc_curve(counts)
    assert np.trapezoid(tpr, fpr) == pytest.approx(clfeval.score(y, scores=p, labels=[0, 1, 2])["micro.auc"])
    cmp = clfeval.compare(y, scores={"A": p, "B": other}, labels=[0, 1, 2], test="bootstrap", rounds=50, seed=1)
    page = cmp.render("html")
    assert page.count('class="lineplot"') == 1 and "ROC curves of the systems" in page
    cv = clfeval.cv(y, scores=p, folds=np.arange(240) % 3, labels=[0, 1, 2])
    assert cv.render("html").count('class="lineplot"') == 3


@pytest.mark.parametrize("as_mapping", [False, True])
def test_cv_of_each_folds_score_counts_is_cv_of_the_instances(as_mapping: bool) -> None:
    # folds counted apart (a cluster's count_folds, count files) are cross-validated as the instances with fold ids are
    import clfeval

    rng = np.random.default_rng(11)
    ys, ss = [], []
    for _ in range(3):
        ys.append(rng.integers(0, 2, 60))
        ss.append(np.round(rng.random(60), 2))
    counts = [ScoreCounts.of_arrays(y, s) for y, s in zip(ys, ss)]
    given = {f"fold {i + 1}": c for i, c in enumerate(counts)} if as_mapping else counts
    folded = clfeval.cv(given)
    whole = clfeval.cv(
        np.concatenate(ys), scores=np.concatenate(ss), folds=np.repeat(["fold 1", "fold 2", "fold 3"], 60)
    )
    assert folded.flat() == pytest.approx(whole.flat(), rel=1e-12)
    assert list(folded.fold_names) == ["fold 1", "fold 2", "fold 3"]
