"""The claims docs/scored.md makes about scored predictions against scikit-learn (issue 37, point 10), checked on many
random cases: the Brier score's default is scikit-learn's ``brier_score_loss`` (binary (p − y)², multi-class the sum
over classes) in Python, on the command line and for multi-label pairs; top-k accuracy's ``sklearn`` tie rule is
``top_k_accuracy_score`` and the default ``expected`` is what the docs say; and where scikit-learn and clfeval part
(a class without gold instances), the exceptions the docs name."""

from __future__ import annotations

import itertools
import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics

import clfeval
from clfeval.count.scored import ScoreCounts
from clfeval.scoring import probability
from clfeval.scoring.scored import Conventions


def _binary(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.25), 0, 1), int(rng.integers(0, 3)))  # rounded: ties
    return y, s


def _multiclass(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities with ties: small whole numbers normalised per row (equal numbers give equal floats)."""
    y = rng.integers(0, k, n)
    raw = rng.integers(0, 4, (n, k)).astype(np.float64) + 3.0 * np.eye(k)[y] * rng.integers(0, 2, (n, 1)) + 0.5
    return y, raw / raw.sum(axis=1, keepdims=True)


# --- Brier ------------------------------------------------------------------------------------------------------


def test_the_default_brier_is_scikit_learns_binary_and_multi_class_on_many_random_cases() -> None:
    rng = np.random.default_rng(370)
    for case in range(80):
        y, s = _binary(rng, int(rng.integers(4, 300)))
        expected = metrics.brier_score_loss(y, s)
        assert clfeval.score(y, scores=s, labels=[0, 1])["brier"] == pytest.approx(expected, abs=1e-12), case
        assert probability.brier(ScoreCounts.of_arrays(y, s, ["0", "1"])) == pytest.approx(expected, abs=1e-12)
        # the same binary data as a column per class: scikit-learn halves it too (two columns)
        two = np.column_stack([1 - s, s])
        assert metrics.brier_score_loss(y, two, labels=[0, 1]) == pytest.approx(expected, abs=1e-12)
        assert clfeval.score(y, scores=two, labels=[0, 1])["brier"] == pytest.approx(expected, abs=1e-12), case
        k = int(rng.integers(3, 7))
        ym, p = _multiclass(rng, int(rng.integers(5, 300)), k)
        expected = metrics.brier_score_loss(ym, p, labels=list(range(k)))
        assert clfeval.score(ym, scores=p, labels=list(range(k)))["brier"] == pytest.approx(expected, abs=1e-12), case


def test_the_other_brier_normalisations_are_what_their_names_say() -> None:
    rng = np.random.default_rng(371)
    y, s = _binary(rng, 200)
    c = ScoreCounts.of_arrays(y, s, ["0", "1"])
    binary = metrics.brier_score_loss(y, s)
    assert probability.brier(c, "sum") == pytest.approx(2 * binary)  # both classes' squared errors
    assert probability.brier(c, "half") == pytest.approx(binary)
    assert probability.brier(c, "mean") == pytest.approx(binary)
    assert probability.brier(c, "sum") == pytest.approx(metrics.brier_score_loss(y, s, scale_by_half=False))
    ym, p = _multiclass(rng, 200, 4)
    cm = ScoreCounts.of_arrays(ym, p, ["0", "1", "2", "3"])
    total = metrics.brier_score_loss(ym, p, labels=[0, 1, 2, 3])
    assert probability.brier(cm, "sklearn") == pytest.approx(total) and probability.brier(cm, "sum") == total
    assert probability.brier(cm, "half") == pytest.approx(total / 2)
    assert probability.brier(cm, "mean") == pytest.approx(total / 4)


def test_the_brier_option_help_and_note_say_what_the_number_is() -> None:
    from clfeval.cli.options import choices

    assert probability.DEFAULT_BRIER == "sklearn" and Conventions().brier == "sklearn"
    text = choices(probability.BRIER_NORMALISATIONS)
    assert "brier_score_loss" in text and "two classes (p − y)²" in text and "2 (p − y)²" in text
    rng = np.random.default_rng(372)
    y, s = _binary(rng, 100)
    r = clfeval.score(y, scores=s, labels=[0, 1])
    note = next(n for n in r.report().notes if n.startswith("Brier"))
    assert note.startswith("Brier: sklearn") and "here, 2 classes: (1/N) Σ (p − y)²" in note
    assert "brier:sklearn" in r.signature and r.to_dict()["conventions"]["brier"] == "sklearn"
    ym, p = _multiclass(rng, 100, 3)
    note = next(n for n in clfeval.score(ym, scores=p, labels=[0, 1, 2]).report().notes if n.startswith("Brier"))
    assert "here, 3 classes: (1/N) Σ_i Σ_k (p_ik − y_ik)²" in note
    summed = clfeval.score(y, scores=s, labels=[0, 1], conventions=Conventions(brier="sum"))
    assert summed["brier"] == pytest.approx(2 * r["brier"]) and "brier:sum" in summed.signature


def test_the_command_line_brier_is_scikit_learns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval.cli import main

    rng = np.random.default_rng(373)
    for case in range(6):
        y, s = _binary(rng, int(rng.integers(20, 200)))
        (tmp_path / "b.csv").write_text(
            "gold,p\n" + "".join(f"{g},{v!r}\n" for g, v in zip(y.tolist(), s.tolist())), encoding="utf-8"
        )
        args = ["score", str(tmp_path / "b.csv"), "--gold-col", "gold", "--scores", "p", "--format", "json"]
        assert main(args) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["scores"]["brier"] == pytest.approx(metrics.brier_score_loss(y, s), abs=1e-12), case
        assert doc["conventions"]["brier"] == "sklearn"
        assert main([*args, "--brier", "sum"]) == 0
        assert json.loads(capsys.readouterr().out)["scores"]["brier"] == pytest.approx(
            2 * metrics.brier_score_loss(y, s), abs=1e-12
        )
        k = int(rng.integers(3, 6))
        ym, p = _multiclass(rng, int(rng.integers(20, 200)), k)
        header = "gold," + ",".join(f"p_{c}" for c in range(k))
        rows = "".join(f"{g}," + ",".join(repr(float(v)) for v in row) + "\n" for g, row in zip(ym.tolist(), p))
        (tmp_path / "m.csv").write_text(header + "\n" + rows, encoding="utf-8")
        assert (
            main(["score", str(tmp_path / "m.csv"), "--gold-col", "gold", "--scores", "p_*", "--format", "json"]) == 0
        )
        doc = json.loads(capsys.readouterr().out)
        expected = metrics.brier_score_loss(ym, p, labels=list(range(k)))
        assert doc["scores"]["brier"] == pytest.approx(expected, abs=1e-12), case
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default sklearn)" in text and "brier_score_loss" in text and "(default expected)" in text


def test_multi_label_brier_is_scikit_learns_per_label_averaged() -> None:
    rng = np.random.default_rng(374)
    for case in range(20):
        n, k = int(rng.integers(20, 200)), int(rng.integers(2, 6))
        y = (rng.random((n, k)) < 0.4).astype(int)
        y[0], y[1] = 1, 0
        p = np.clip(np.round(rng.random((n, k)) * 0.7 + 0.3 * y, 1), 0, 1)
        labels = [f"L{j}" for j in range(k)]
        expected = np.mean([metrics.brier_score_loss(y[:, j], p[:, j]) for j in range(k)])
        r = clfeval.score(y, scores=p, labels=labels, multilabel=True)
        assert r["brier"] == pytest.approx(expected, abs=1e-12), case
        summed = clfeval.score(y, scores=p, labels=labels, multilabel=True, conventions=Conventions(brier="sum"))
        assert summed["brier"] == pytest.approx(2 * expected, abs=1e-12)  # --brier is honoured, not dropped
        assert "brier:pairs-half" in r.signature and "brier:pairs-sum" in summed.signature


# --- top-k ties -------------------------------------------------------------------------------------------------


def test_the_sklearn_tie_rule_equals_top_k_accuracy_score_on_many_tied_cases() -> None:
    rng = np.random.default_rng(375)
    differ = compared = 0
    for case in range(150):
        k = int(rng.integers(3, 8))
        y, p = _multiclass(rng, int(rng.integers(3, 120)), k)
        c = ScoreCounts.of_arrays(y, p, [str(i) for i in range(k)])
        for top in range(1, k):
            expected = metrics.top_k_accuracy_score(y, p, k=top, labels=list(range(k)))
            assert probability.top_k_accuracy(c, top, "sklearn") == pytest.approx(expected, abs=1e-12), (case, top)
            compared += 1
            differ += probability.top_k_accuracy(c, top) != pytest.approx(expected, abs=1e-12)
    # the default (expected) is another rule: it differs wherever ties cross place k (the count docs/scored.md gives)
    assert (differ, compared) == (564, 592)


def test_every_tie_rule_is_scikit_learns_without_ties() -> None:
    rng = np.random.default_rng(376)
    for _ in range(20):
        k = int(rng.integers(3, 7))
        y = rng.integers(0, k, 150)
        p = rng.dirichlet(np.ones(k), 150)  # continuous: no ties
        c = ScoreCounts.of_arrays(y, p, [str(i) for i in range(k)])
        for top in range(1, k):
            expected = metrics.top_k_accuracy_score(y, p, k=top, labels=list(range(k)))
            for rule in probability.TIE_RULES:
                assert probability.top_k_accuracy(c, top, rule) == pytest.approx(expected, abs=1e-12)


def test_the_default_tie_rule_is_the_mean_over_every_order_of_the_tied_classes() -> None:
    """``expected``: the chance that a random order of the classes tied with the gold class puts it in the top k,
    by enumerating every order; ``optimistic`` and ``pessimistic`` are the best and worst order."""
    rng = np.random.default_rng(377)
    for _ in range(60):
        k = int(rng.integers(3, 6))
        y, p = _multiclass(rng, 12, k)
        c = ScoreCounts.of_arrays(y, p, [str(i) for i in range(k)])
        for top in range(1, k):
            hits = []
            for g, row in zip(y, p):
                per_order = []
                for order in itertools.permutations(range(k)):  # every tie-break, each as likely
                    rank = sorted(range(k), key=lambda j: (-row[j], order.index(j)))
                    per_order.append(g in rank[:top])
                hits.append((np.mean(per_order), max(per_order), min(per_order)))
            mean, best, worst = np.array(hits).mean(axis=0)
            assert probability.top_k_accuracy(c, top) == pytest.approx(mean, abs=1e-12)
            assert probability.top_k_accuracy(c, top, "optimistic") == pytest.approx(best, abs=1e-12)
            assert probability.top_k_accuracy(c, top, "pessimistic") == pytest.approx(worst, abs=1e-12)
    assert probability.DEFAULT_TIES == "expected" == Conventions().ties


def test_the_tie_rule_is_chosen_by_name_and_named_in_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from clfeval.cli import main

    y = np.array([0, 1, 2, 3, 0, 2])
    p = np.full((6, 4), 0.25)  # every class tied: scikit-learn ranks the last class first
    r = clfeval.score(y, scores=p, labels=[0, 1, 2, 3], conventions=Conventions(ties="sklearn"))
    assert r["top_1_accuracy"] == metrics.top_k_accuracy_score(y, p, k=1, labels=[0, 1, 2, 3]) == 1 / 6
    assert r["top_3_accuracy"] == metrics.top_k_accuracy_score(y, p, k=3, labels=[0, 1, 2, 3]) == 4 / 6
    assert clfeval.score(y, scores=p, labels=[0, 1, 2, 3])["top_1_accuracy"] == 0.25  # expected: 1 in 4
    assert "topk_ties:sklearn" in r.signature and r.to_dict()["conventions"]["top_k_ties"] == "sklearn"
    assert any(n.startswith("top-k ties: sklearn — scikit-learn's top_k_accuracy_score") for n in r.report().notes)
    (tmp_path / "t.csv").write_text(
        "gold,p_0,p_1,p_2,p_3\n" + "".join(f"{g},0.25,0.25,0.25,0.25\n" for g in y), encoding="utf-8"
    )
    args = ["score", str(tmp_path / "t.csv"), "--gold-col", "gold", "--scores", "p_*", "--format", "json"]
    assert main([*args, "--top-k-ties", "sklearn"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["scores"]["top_1_accuracy"] == pytest.approx(1 / 6) and doc["conventions"]["top_k_ties"] == "sklearn"
    from clfeval.explain import explain, render_explanations

    text = " ".join(render_explanations(explain("sklearn")).split())
    assert "TIE_RULES: sklearn" in text and "top_k_accuracy_score" in text
    assert "BRIER_NORMALISATIONS: sklearn" in text and "brier_score_loss" in text


# --- where scikit-learn and clfeval part: a class without gold instances ----------------------------------------


def test_a_class_without_gold_instances_is_the_named_exception() -> None:
    """docs/scored.md names these: with a class of ``labels`` that no gold instance has, its AUC and average
    precision are NaN in clfeval, and so are the macro and weighted averages of each and the one-vs-one AUCs;
    scikit-learn gives that class an average precision of 0 (and averages it in), leaves it out of the weighted AUC
    (weight 0) and takes one-vs-one pairs of the classes in gold only. Everything else is equal."""
    rng = np.random.default_rng(378)
    y = rng.integers(0, 3, 80)
    p = np.round(rng.dirichlet(np.ones(4), 80), 2)
    p[:, -1] = 1 - p[:, :-1].sum(axis=1)
    labels = [0, 1, 2, 3]
    r = clfeval.score(y, scores=p, labels=labels)
    onehot = np.eye(4)[y]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = {
            "weighted.auc": metrics.roc_auc_score(y, p, multi_class="ovr", average="weighted", labels=labels),
            "ovo.auc": metrics.roc_auc_score(y, p, multi_class="ovo", labels=labels),
            "macro.average_precision": metrics.average_precision_score(onehot, p, average="macro"),
            "per_label.3.average_precision": metrics.average_precision_score(onehot, p, average=None)[3],
            "macro.auc": metrics.roc_auc_score(y, p, multi_class="ovr", labels=labels),
            "per_label.3.auc": metrics.roc_auc_score(onehot, p, average=None)[3],
        }
    assert sk["per_label.3.average_precision"] == 0 and np.isfinite(sk["weighted.auc"]) and np.isfinite(sk["ovo.auc"])
    for name in ("weighted.auc", "ovo.auc", "ovo_weighted.auc", "macro.average_precision"):
        assert np.isnan(r[name]), name
    assert np.isnan(r["per_label.3.average_precision"])
    assert np.isnan(sk["macro.auc"]) and np.isnan(r["macro.auc"])  # both undefined
    assert np.isnan(sk["per_label.3.auc"]) and np.isnan(r["per_label.3.auc"])
    for c in range(3):
        assert r[f"per_label.{c}.auc"] == pytest.approx(metrics.roc_auc_score(onehot[:, c], p[:, c]), abs=1e-12)
    assert r["micro.auc"] == pytest.approx(metrics.roc_auc_score(onehot, p, average="micro"), abs=1e-12)
    assert r["log_loss"] == pytest.approx(metrics.log_loss(y, p, labels=labels), abs=1e-12)
    assert r["brier"] == pytest.approx(metrics.brier_score_loss(y, p, labels=labels), abs=1e-12)
    ranked = clfeval.score(y, scores=p, labels=labels, conventions=Conventions(ties="sklearn"))
    for top in (1, 3):
        expected = metrics.top_k_accuracy_score(y, p, k=top, labels=labels)
        assert ranked[f"top_{top}_accuracy"] == pytest.approx(expected, abs=1e-12)


def test_log_loss_of_float32_scores_is_the_named_exception() -> None:
    """clfeval clips at float64's ε whatever the dtype; scikit-learn at the input dtype's: a probability of 0 on the
    gold class costs 36.0 (−log 2.2·10⁻¹⁶) here, 15.9 (−log 1.19·10⁻⁷) there; float64 scores agree."""
    y = np.array([1])
    p = np.array([0.0], dtype=np.float32)
    assert clfeval.score(y, scores=p, labels=[0, 1])["log_loss"] == pytest.approx(36.04365338911715)
    assert metrics.log_loss(y, p, labels=[0, 1]) == pytest.approx(15.942385, abs=1e-5)
    assert metrics.log_loss(y, p.astype(np.float64), labels=[0, 1]) == pytest.approx(36.04365338911715)


def test_the_curves_are_scikit_learns_without_dropped_points() -> None:
    from clfeval.scoring import ranking

    rng = np.random.default_rng(380)
    y, s = _binary(rng, 200)
    c = ScoreCounts.of_arrays(y, s, ["0", "1"])
    fpr, tpr, _ = ranking.roc_curve(c)
    sk_fpr, sk_tpr, _ = metrics.roc_curve(y, s, drop_intermediate=False)
    assert np.allclose(fpr, sk_fpr) and np.allclose(tpr, sk_tpr)
    precision, recall, _ = ranking.pr_curve(c)
    sk_p, sk_r, _ = metrics.precision_recall_curve(y, s, drop_intermediate=False)
    assert (sk_p[-1], sk_r[-1]) == (1.0, 0.0)  # scikit-learn's closing point, which clfeval leaves out
    assert np.allclose(precision, sk_p[:-1][::-1]) and np.allclose(recall, sk_r[:-1][::-1])


def test_a_multi_label_label_without_gold_instances_is_the_named_exception() -> None:
    rng = np.random.default_rng(379)
    y = (rng.random((60, 3)) < 0.4).astype(int)
    y[:, 2] = 0
    y[0, :2], y[1, :2] = 1, 0
    p = np.round(rng.random((60, 3)), 2)
    r = clfeval.score(y, scores=p, labels=list("abc"), multilabel=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert metrics.average_precision_score(y, p, average=None)[2] == 0
        assert np.isfinite(metrics.average_precision_score(y, p, average="macro"))
        assert np.isfinite(metrics.roc_auc_score(y, p, average="weighted"))
        assert np.isfinite(metrics.average_precision_score(y, p, average="weighted"))
    for name in ("per_label.c.average_precision", "macro.average_precision", "weighted.average_precision",
                 "weighted.auc", "macro.auc"):  # fmt: skip
        assert np.isnan(r[name]), name
    for average in ("micro",):
        assert r[f"{average}.auc"] == pytest.approx(metrics.roc_auc_score(y, p, average=average), abs=1e-12)
        assert r[f"{average}.average_precision"] == pytest.approx(
            metrics.average_precision_score(y, p, average=average), abs=1e-12
        )
