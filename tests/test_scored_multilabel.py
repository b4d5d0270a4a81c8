"""Multi-label scores (a score per label, a set of gold labels per instance): every measure against scikit-learn on
random data with ties, the label report at the threshold against clfeval's own multi-label scoring, intervals,
tests, count files and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as sk

import clfeval
from clfeval.count.scored import ScoreCounts
from clfeval.errors import ClfevalError
from clfeval.kinds import kind_of
from clfeval.scoring.scored import Conventions

MARGINS = Conventions(not_probabilities=True)  # normal scores and margins are no probabilities


def _data(seed: int, n: int | None = None, k: int | None = None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(40, 400))
    k = k or int(rng.integers(2, 7))
    y = (rng.random((n, k)) < rng.uniform(0.15, 0.6)).astype(int)
    y[0], y[1] = 1, 0  # every label has positives and negatives
    p = np.clip(np.round(rng.random((n, k)) * 0.7 + 0.3 * y, int(rng.integers(1, 3))), 0, 1)  # rounded: ties
    return y, p, [f"L{j}" for j in range(k)]


@pytest.mark.parametrize("seed", range(12))
def test_every_measure_equals_scikit_learn(seed: int) -> None:
    y, p, labels = _data(seed)
    r = clfeval.score(y, scores=p, labels=labels, multilabel=True)
    for average in ("macro", "weighted", "micro"):
        assert r[f"{average}.auc"] == pytest.approx(sk.roc_auc_score(y, p, average=average), abs=1e-12)
        assert r[f"{average}.average_precision"] == pytest.approx(
            sk.average_precision_score(y, p, average=average), abs=1e-12
        )
    for j, name in enumerate(labels):
        assert r[f"per_label.{name}.auc"] == pytest.approx(sk.roc_auc_score(y[:, j], p[:, j]), abs=1e-12)
        assert r[f"per_label.{name}.average_precision"] == pytest.approx(
            sk.average_precision_score(y[:, j], p[:, j]), abs=1e-12
        )
    assert r["lrap"] == pytest.approx(sk.label_ranking_average_precision_score(y, p), abs=1e-12)
    assert r["coverage_error"] == pytest.approx(sk.coverage_error(y, p), abs=1e-12)
    assert r["ranking_loss"] == pytest.approx(sk.label_ranking_loss(y, p), abs=1e-12)
    # samples averages: scikit-learn's on the instances where they are defined (clfeval leaves the others out)
    both = (y.sum(axis=1) > 0) & (y.sum(axis=1) < y.shape[1])
    assert r["samples.auc"] == pytest.approx(sk.roc_auc_score(y[both], p[both], average="samples"), abs=1e-12)
    some = y.sum(axis=1) > 0
    assert r["samples.average_precision"] == pytest.approx(
        sk.average_precision_score(y[some], p[some], average="samples"), abs=1e-12
    )
    # probabilities: each (instance, label) pair a binary probability
    per_label = [sk.log_loss(y[:, j], p[:, j], labels=[0, 1]) for j in range(len(labels))]
    assert r["log_loss"] == pytest.approx(np.mean(per_label), abs=1e-12)
    assert r["brier"] == pytest.approx(np.mean([sk.brier_score_loss(y[:, j], p[:, j]) for j in range(len(labels))]))


def test_instances_without_a_defined_samples_score_are_left_out_and_counted() -> None:
    y = np.array([[1, 0, 0], [0, 0, 0], [1, 1, 1], [0, 1, 0]])
    p = np.array([[0.9, 0.2, 0.1], [0.3, 0.2, 0.1], [0.5, 0.5, 0.5], [0.6, 0.4, 0.2]])
    r = clfeval.score(y, scores=p, labels=["a", "b", "c"], multilabel=True)
    assert r["samples.auc"] == pytest.approx((1.0 + 0.5) / 2)  # rows 0 and 3 only
    assert r["samples.average_precision"] == pytest.approx((1.0 + 1.0 + 0.5) / 3)  # row 1 has no gold label
    note = next(n for n in r.report().notes if n.startswith("multi-label:"))
    assert "2 without a gold label or with every label gold (AUC), 1 without a gold label" in note


def test_label_sets_and_indicator_matrices_give_the_same_result() -> None:
    y, p, labels = _data(3)
    sets = [[labels[j] for j in np.flatnonzero(row)] for row in y]
    a = clfeval.score(y, scores=p, labels=labels, multilabel=True).to_dict()
    b = clfeval.score(sets, scores=p, labels=labels, multilabel=True).to_dict()
    c = clfeval.score([";".join(s) for s in sets], scores=p, labels=labels, sep=";").to_dict()
    assert a["scores"] == b["scores"] == c["scores"]
    assert a["task"] == "scored-multilabel"


def test_the_label_report_at_the_threshold_is_clfevals_multi_label_scoring() -> None:
    y, p, labels = _data(5)
    sets = [[labels[j] for j in np.flatnonzero(row)] for row in y]
    for threshold in (None, 0.3):
        r = clfeval.score(sets, scores=p, labels=labels, multilabel=True, threshold=threshold)
        cut = 0.5 if threshold is None else threshold
        pred = [[labels[j] for j in np.flatnonzero(row >= cut)] for row in p]
        direct = clfeval.score(sets, pred, multilabel=True, labels=labels)
        got = r.labels_at_threshold.to_dict()
        assert got["averages"] == direct.to_dict()["averages"]
        assert got["confusion_matrix"] == direct.to_dict()["confusion_matrix"]  # the split-count matrix
        assert r.threshold == f"each label with score >= {cut:g}"


def test_intervals_per_label_are_the_binary_ones() -> None:
    y, p, labels = _data(7, n=300, k=3)
    r = clfeval.score(y, scores=p, labels=labels, multilabel=True, ci="delong")
    for j, name in enumerate(labels):
        one = clfeval.score(y[:, j], scores=p[:, j], labels=[0, 1], ci="delong")
        assert r.interval(f"per_label.{name}.auc") == pytest.approx(one.interval("auc"), abs=1e-12)
    boot = clfeval.score(y, scores=p, labels=labels, multilabel=True, ci="bootstrap", seed=1, resamples=200)
    for name in ("macro.auc", "samples.auc", "lrap", "ranking_loss", "log_loss"):
        low, high = boot.interval(name)
        assert low <= boot[name] <= high


def test_paired_tests_of_multi_label_scores() -> None:
    y, p, labels = _data(9, n=300, k=3)
    rng = np.random.default_rng(1)
    q = np.clip(np.round(p * 0.6 + rng.random(p.shape) * 0.4, 2), 0, 1)
    one = clfeval.compare(y, scores={"p": p, "q": q}, labels=labels, multilabel=True, test="delong",
                          metrics=["per_label.L1.auc"]).pair("p", "q")  # fmt: skip
    binary = clfeval.compare(y[:, 1], scores={"p": p[:, 1], "q": q[:, 1]}, labels=[0, 1], test="delong").pair("p", "q")
    assert one["p_value"] == pytest.approx(binary["p_value"], rel=1e-12)
    ar = clfeval.compare(y, scores={"p": p, "q": q}, labels=labels, multilabel=True, test="ar", seed=2, rounds=300)
    assert ar.metrics == ("macro.auc",) and 0 < ar.pair("p", "q")["p_value"] <= 1


def test_count_files_of_multi_label_scores_round_trip_and_add() -> None:
    y, p, labels = _data(11)
    counts = ScoreCounts.of_label_sets(y, p, labels)
    kind = kind_of(counts)
    again = kind.from_document(json.loads(json.dumps(kind.to_document(counts))), "part.json")
    assert again.multilabel and np.array_equal(again.gold, counts.gold) and np.array_equal(again.count, counts.count)
    doubled = clfeval.score(counts + again)
    assert doubled.n_instances == 2 * len(y)
    assert doubled["macro.auc"] == pytest.approx(clfeval.score(counts)["macro.auc"], abs=1e-12)


def test_bad_multi_label_input_is_refused_clearly() -> None:
    y, p, labels = _data(1, n=20, k=3)
    with pytest.raises(ClfevalError, match="a label outside"):
        clfeval.score([["L0", "nope"]] + [["L1"]] * 19, scores=p, labels=labels, multilabel=True)
    with pytest.raises(ClfevalError, match=r"\(n, labels\) array"):
        clfeval.score(y, scores=p[:, 0], labels=labels, multilabel=True)
    with pytest.raises(ClfevalError, match="positive="):
        clfeval.score(y, scores=p, labels=labels, multilabel=True, positive="L0")


def test_the_command_line_scores_and_compares_label_sets(tmp_path: Path) -> None:
    y, p, labels = _data(13, n=200, k=3)
    rng = np.random.default_rng(3)
    q = np.clip(np.round(p * 0.6 + rng.random(p.shape) * 0.4, 2), 0, 1)
    path = tmp_path / "ml.csv"
    head = ",".join(["gold", *(f"a_{x}" for x in labels), *(f"b_{x}" for x in labels)])
    rows = ['"' + ";".join(labels[j] for j in np.flatnonzero(y[i])) + '",' + ",".join(map(str, [*p[i], *q[i]]))
            for i in range(len(y))]  # fmt: skip
    path.write_text(head + "\n" + "\n".join(rows) + "\n")

    def run(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "clfeval", *args, "--gold-col", "gold", "--multilabel",
                               "--label-sep", ";", "--format", "json"], capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    one = run("score", str(path), "--scores", "a_*", "--ci", "delong")
    assert one["scores"]["macro.auc"] == pytest.approx(sk.roc_auc_score(y, p, average="macro"), abs=1e-12)
    assert one["task"] == "scored-multilabel" and one["per_label"]["L0"]["support"] == int(y[:, 0].sum())
    two = run("compare", str(path), "--scores", "A=a_*", "--scores", "B=b_*", "--test", "delong",
              "--metric", "per_label.L2.auc")  # fmt: skip
    expected = clfeval.compare(y[:, 2], scores={"A": p[:, 2], "B": q[:, 2]}, labels=[0, 1], test="delong")
    assert two["pairs"][0]["p_value"] == pytest.approx(expected.pair("A", "B")["p_value"], rel=1e-9)
    folds = run("cv", str(path), str(path), "--scores", "a_*")
    assert folds["pooled"]["scores"]["macro.auc"] == pytest.approx(one["scores"]["macro.auc"], abs=1e-12)
    assert folds["mean_of_folds"]["lrap"] == pytest.approx(one["scores"]["lrap"], abs=1e-12)


def test_the_html_page_shows_every_labels_curves() -> None:
    y, p, labels = _data(15, n=200, k=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        page = clfeval.score(y, scores=p, labels=labels, multilabel=True, ci="bootstrap", seed=1,
                             resamples=50).render("html")  # fmt: skip
    assert "<svg" in page and all(f"{x} (AUC" in page for x in labels)


def test_the_accumulator_counts_label_set_batches() -> None:
    y, p, labels = _data(17, n=120, k=3)
    sets = [[labels[j] for j in np.flatnonzero(row)] for row in y]
    acc = clfeval.Accumulator("scored", labels=labels, multilabel=True)
    acc.update(y[:50], p[:50])  # an indicator matrix
    acc.update(sets[50:], p[50:])  # label sets
    whole = clfeval.score(y, scores=p, labels=labels, multilabel=True)
    assert acc.score().to_dict()["scores"] == whole.to_dict()["scores"]
    other = clfeval.Accumulator("scored", labels=labels, multilabel=True)
    other.update(y, p)
    assert acc.copy().merge(other).n == 240
    with pytest.raises(ClfevalError, match="update 3"):
        acc.update([["nope"]], p[:1])


def test_cross_validation_of_label_sets() -> None:
    y, p, labels = _data(19, n=200, k=3)
    folds = np.arange(200) % 4
    r = clfeval.cv(y, scores=p, folds=folds, labels=labels, multilabel=True)
    assert r.pooled["macro.auc"] == pytest.approx(sk.roc_auc_score(y, p, average="macro"), abs=1e-12)
    for k, fold in enumerate(r.folds):
        mine = folds == k
        assert fold["lrap"] == pytest.approx(sk.label_ranking_average_precision_score(y[mine], p[mine]), abs=1e-12)


def test_one_label_is_scored_as_that_labels_binary_scores() -> None:
    """Multi-label scores of a single label: rows sorted by gold row first must not be read as sorted by score."""
    rng = np.random.default_rng(21)
    y = (rng.random((80, 1)) < 0.4).astype(int)
    s = np.round(rng.random((80, 1)) + 0.3 * y, 1)
    r = clfeval.score(y, scores=s, labels=["a"], multilabel=True, ci="delong", conventions=MARGINS)
    binary = clfeval.score(y[:, 0], scores=s[:, 0], labels=[0, 1], ci="delong", conventions=MARGINS)
    assert r["per_label.a.auc"] == pytest.approx(sk.roc_auc_score(y[:, 0], s[:, 0]), abs=1e-12)
    assert r.interval("per_label.a.auc") == pytest.approx(binary.interval("auc"), abs=1e-12)
