"""Issue 38, parts 2, 3 and 7: scikit-learn's habits where clfeval spells things another way.

* a binary problem's ``r["f1"]``, ``r["precision"]``, ``r["recall"]`` are the positive class's values, as
  scikit-learn's default ``average="binary"`` (``pos_label=``, default the label 1), checked against ``f1_score`` …;
* scikit-learn's keywords (``average``, ``target_names``, ``output_dict``, ``digits``, ``zero_division="warn"`` …) and
  ``classification_report``'s row names (``macro avg``) point to clfeval's spelling in one line;
* multi-label 0/1 indicator matrices (numpy, scipy.sparse, pandas, polars) in score, compare and cv equal
  scikit-learn's multi-label metrics;
* weighted κ only under a declared order (``ordinal=``, ``--ordinal``), equal to ``cohen_kappa_score(weights=...,
  labels=order)``; without one it is withheld from every format, ``flat()`` and MLflow, and null in the JSON.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from sklearn.metrics import (
    accuracy_score,
    classification_report,
    cohen_kappa_score,
    f1_score,
    hamming_loss,
    jaccard_score,
    precision_score,
    recall_score,
)

import clfeval
from clfeval.errors import InputError, OptionError, UnknownName
from tests.conftest import run_cli

SEEDS = range(8)


def _binary(rng: np.random.Generator, values: list, n: int = 60) -> tuple[list, list]:
    gold = list(rng.choice(np.array(values, dtype=object), n))
    pred = [g if rng.random() < 0.7 else values[rng.integers(len(values))] for g in gold]
    return [v.item() if hasattr(v, "item") else v for v in gold], [v.item() if hasattr(v, "item") else v for v in pred]


# -- part 2: a binary problem's own names ---------------------------------------------------------------------------


@pytest.mark.parametrize("values", [[0, 1], [-1, 1], [1, 2], [False, True]])
@pytest.mark.parametrize("seed", SEEDS)
def test_binary_names_are_scikit_learns_default_average(values: list, seed: int) -> None:
    """Wherever scikit-learn's default (``average="binary"``, ``pos_label=1``) gives a number, r["f1"] … is it."""
    gold, pred = _binary(np.random.default_rng(seed), values)
    r = clfeval.score(gold, pred)
    assert r["f1"] == pytest.approx(f1_score(gold, pred, zero_division=0), abs=1e-12)
    assert r["precision"] == pytest.approx(precision_score(gold, pred, zero_division=0), abs=1e-12)
    assert r["recall"] == pytest.approx(recall_score(gold, pred, zero_division=0), abs=1e-12)
    assert r.to_dict()["pos_label"]["label"] == r.positive and "f1" in r.flat() and "f1" in r.names()
    assert r.flat()["recall"] == r["recall"]


@pytest.mark.parametrize("seed", SEEDS)
def test_pos_label_names_the_positive_class_in_score_compare_and_cv(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gold, pred = _binary(rng, ["spam", "ham"])
    other = [g if rng.random() < 0.6 else ("ham" if g == "spam" else "spam") for g in gold]
    for pos in ("spam", "ham"):
        r = clfeval.score(gold, pred, pos_label=pos, ci="delta")
        assert r["f1"] == pytest.approx(f1_score(gold, pred, pos_label=pos), abs=1e-12)
        assert r["precision"] == pytest.approx(precision_score(gold, pred, pos_label=pos, zero_division=0), abs=1e-12)
        assert r.interval("f1") == r.interval(f"per_label.{pos}.f1") is not None
        assert r.to_dict()["pos_label"] == {"label": pos, "rule": "pos_label= (--positive)"}
        assert r.flat()["f1_ci_low"] == r.interval("f1")[0]
        cmp = clfeval.compare(gold, {"A": pred, "B": other}, metrics=["f1", "recall"], pos_label=pos, seed=1)
        pair = cmp.pair("A", "B", "f1")
        assert pair.score_a == pytest.approx(f1_score(gold, pred, pos_label=pos), abs=1e-12)
        assert pair.score_b == pytest.approx(f1_score(gold, other, pos_label=pos), abs=1e-12)
        folds = [i % 3 for i in range(len(gold))]
        cv = clfeval.cv(gold, pred, folds, pos_label=pos)
        assert cv.pooled["f1"] == pytest.approx(f1_score(gold, pred, pos_label=pos), abs=1e-12)
    assert clfeval.score(gold, pred, scoring=clfeval.Scoring(pos_label="spam"))["f1"] == pytest.approx(
        f1_score(gold, pred, pos_label="spam")
    )


def test_without_a_label_1_the_binary_names_ask_for_pos_label_as_scikit_learn_refuses() -> None:
    for gold, pred in ((["a", "b", "a"], ["a", "a", "b"]), ([0, 2, 2], [2, 0, 2])):
        with pytest.raises(ValueError):  # scikit-learn: pos_label=1 is not a valid label
            f1_score(gold, pred)
        r = clfeval.score(gold, pred)
        with pytest.raises(UnknownName, match=r"pos_label=") as raised:
            r["f1"]
        assert "\n" not in str(raised.value) and r.to_dict()["pos_label"]["label"] is None
        assert "f1" not in r.flat()
    r = clfeval.score([0, 1, 2, 1], [0, 2, 2, 1])  # multi-class: the averages by their names
    with pytest.raises(UnknownName, match=r"result\['macro.f1'\] \(scikit-learn's average='macro'"):
        r["f1"]
    for bad, match in ((dict(pos_label=3), "not one of the labels"), (dict(pos_label=[1]), "one label")):
        with pytest.raises(OptionError, match=match):
            clfeval.score([0, 1, 1], [1, 1, 0], **bad)
    with pytest.raises(OptionError, match="binary problem"):
        clfeval.score([0, 1, 2], [1, 1, 0], pos_label=1)
    with pytest.raises(OptionError, match="binary problem"):
        clfeval.score([["a"], ["b"]], [["a"], ["a", "b"]], multilabel=True, pos_label="a")


def test_pos_label_is_positive_for_scored_predictions() -> None:
    gold, scores = [0, 1, 1, 0, 1], [0.2, 0.7, 0.4, 0.6, 0.9]
    a = clfeval.score(gold, scores=scores, pos_label=0)
    b = clfeval.score(gold, scores=scores, positive=0)
    assert a.values == b.values and a.to_dict()["positive"] == "0"
    a = clfeval.score(gold, scores=scores, pos_label=1)
    assert a.labels_at_threshold["f1"] == pytest.approx(f1_score(gold, [int(s >= 0.5) for s in scores]))
    with pytest.raises(OptionError, match="same class"):
        clfeval.score(gold, scores=scores, positive=1, pos_label=1)


def test_the_scorer_takes_a_binary_problems_names_as_scikit_learns_scoring_strings() -> None:
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import make_scorer
    from sklearn.model_selection import cross_val_score

    import clfeval.sklearn

    X, y = make_classification(240, flip_y=0.2, random_state=3)
    model = LogisticRegression()
    for name in ("f1", "precision", "recall"):
        ours = cross_val_score(model, X, y, cv=4, scoring=clfeval.sklearn.scorer(name))
        assert ours == pytest.approx(cross_val_score(model, X, y, cv=4, scoring=name), abs=1e-12)
    negative = clfeval.sklearn.scorer("f1", scoring=clfeval.Scoring(pos_label=0))
    theirs = make_scorer(f1_score, pos_label=0)
    assert cross_val_score(model, X, y, cv=4, scoring=negative) == pytest.approx(
        cross_val_score(model, X, y, cv=4, scoring=theirs), abs=1e-12
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_classification_report_names_point_to_their_equivalents(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gold = list(rng.choice(list("abcd"), 80))
    pred = [g if rng.random() < 0.6 else str(rng.choice(list("abcd"))) for g in gold]
    report = classification_report(gold, pred, output_dict=True, zero_division=0)
    r = clfeval.score(gold, pred)
    for row, average in (("macro avg", "macro"), ("weighted avg", "weighted")):
        for column, measure in (("precision", "precision"), ("recall", "recall"), ("f1-score", "f1")):
            assert r[f"{average}.{measure}"] == pytest.approx(report[row][column], abs=1e-12)
        with pytest.raises(UnknownName) as raised:
            r[row]
        message = str(raised.value)
        assert f"result['{average}.f1']" in message and "macro_fa.f1" not in message and "\n" not in message
    assert r["accuracy"] == pytest.approx(report["accuracy"])
    for name, pointed in (("macro avg.f1-score", "macro.f1"), ("f1_macro", "macro.f1"), ("micro avg", "micro.f1"),
                          ("recall_weighted", "weighted.recall")):  # fmt: skip
        with pytest.raises(UnknownName, match=rf"result\['{pointed}'\]"):
            r[name]
    with pytest.raises(UnknownName, match="not macro_fa"):
        r["macro avg"]


SKLEARN_KEYWORDS = {
    "average": ("macro", "result['macro.f1']"),
    "target_names": (["x", "y"], "labels="),
    "output_dict": (True, "result.flat()"),
    "digits": (2, "digits="),
    "normalize": (False, "n_instances"),
    "weights": ("linear", "ordinal="),
    "y_true": ([0, 1], "gold"),
}


@pytest.mark.parametrize("task", ["score", "compare", "cv"])
def test_scikit_learn_keywords_name_clfevals_way(task: str) -> None:
    gold, pred = [0, 1, 1, 0], [0, 1, 0, 0]
    call = {
        "score": lambda **kw: clfeval.score(gold, pred, **kw),
        "compare": lambda **kw: clfeval.compare(gold, {"A": pred, "B": gold}, **kw),
        "cv": lambda **kw: clfeval.cv(gold, pred, [0, 0, 1, 1], **kw),
    }[task]
    for keyword, (value, advice) in SKLEARN_KEYWORDS.items():
        with pytest.raises(OptionError) as raised:
            call(**{keyword: value})
        message = str(raised.value)
        assert f"no {keyword}=" in message and advice in message and "\n" not in message, message
    for average, name in (("micro", "micro.f1"), ("weighted", "weighted.f1"), ("binary", "result['f1']"),
                          (None, "per_label")):  # fmt: skip
        with pytest.raises(OptionError, match=name.replace("[", r"\[").replace("]", r"\]")):
            call(average=average)
    with pytest.raises(OptionError, match="zero_division=0"):
        call(zero_division="warn")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        call(colour="red")


def test_cli_positive_names_a_binary_problems_positive_class(tmp_path) -> None:
    path = tmp_path / "run.txt"
    path.write_text("w1 yes no\nw2 no no\nw3 yes yes\nw4 no yes\nw5 yes yes\n")
    done = subprocess.run(
        [sys.executable, "-m", "clfeval", "score", str(path), "--positive", "no", "--format", "json"],
        capture_output=True,
        check=False,
    )
    data = json.loads(done.stdout)
    assert data["pos_label"]["label"] == "no"
    unnamed = json.loads(run_cli("score", str(path), "--format", "json").stdout)
    assert unnamed["pos_label"]["label"] is None and "pos_label=" in unnamed["pos_label"]["rule"]
    three = tmp_path / "three.txt"
    three.write_text("w1 a b\nw2 b c\nw3 c c\n")
    refused = run_cli("score", str(three), "--positive", "a")
    assert refused.returncode == 2 and b"--positive" in refused.stderr and refused.stderr.count(b"\n") == 1


@pytest.mark.parametrize(
    ("name", "equivalent"),
    [("f1_macro", "macro.f1"), ("precision_weighted", "weighted.precision"), ("macro avg", "macro.f1"),
     ("recall_micro", "micro.recall")],
)  # fmt: skip
def test_scikit_learns_scorer_names_as_metrics_point_to_clfevals(tmp_path, name: str, equivalent: str) -> None:
    """r["f1_macro"] pointed to r["macro.f1"], but the same name as a metric (clfeval.sklearn.scorer, compare's
    metrics=, --metric), where a scikit-learn user types it first (scoring="f1_macro"), listed every valid form."""
    for refused in (
        lambda: clfeval.sklearn.scorer(name),
        lambda: clfeval.compare(["a", "b", "a"], {"A": ["a", "b", "b"], "B": ["a", "a", "a"]}, metrics=[name]),
    ):
        with pytest.raises(OptionError, match=rf"unknown metric '{name}': .*'{re.escape(equivalent)}'") as error:
            refused()
        assert "valid:" not in str(error.value)
    path = tmp_path / "run.tsv"
    path.write_text("gold\ta\tb\nx\tx\ty\ny\ty\ty\n")
    done = run_cli("compare", str(path), "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--metric", name)
    assert done.returncode == 2 and equivalent.encode() in done.stderr and done.stderr.count(b"\n") == 1


def test_pos_label_with_spans_says_spans_not_label_sets() -> None:
    """pos_label= with spans= said 'this has label sets', which spans are not."""
    tags = [["B-PER", "I-PER", "O"], ["B-LOC", "O", "O"]]
    with pytest.raises(OptionError, match="this has spans of entity types: read") as error:
        clfeval.score(tags, tags, spans="iob2", pos_label="PER")
    assert "label sets" not in str(error.value)


@pytest.mark.parametrize("task", ["score", "compare", "cv"])
@pytest.mark.parametrize("kind", ["label sets", "spans"])
def test_ordinal_with_label_sets_or_spans_is_refused_not_dropped(task: str, kind: str) -> None:
    """ordinal= with label sets was taken and read by nothing (label sets have no weighted κ); with spans it failed
    with 'does not place '∅'', an order to add a label no user wrote. Both now say why in one line."""
    if kind == "label sets":
        data: list = [["a"], ["a", "b"], ["b"]]
        keywords: dict = {"multilabel": True, "ordinal": ["a", "b"]}
    else:
        data, keywords = [["B-PER", "O"], ["B-LOC", "I-LOC"], ["O", "O"]], {"spans": "iob2", "ordinal": ["PER", "LOC"]}
    with pytest.raises(OptionError, match=f"{kind} have no weighted κ: leave it out") as error:
        if task == "score":
            clfeval.score(data, data, **keywords)
        elif task == "compare":
            clfeval.compare(data, {"A": data, "B": data}, **keywords)
        else:
            clfeval.cv(data, data, [1, 2, 2], **keywords)
    assert "∅" not in str(error.value)


# -- part 3: indicator matrices -------------------------------------------------------------------------------------


def _indicators(seed: int, n: int = 70, k: int = 5) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = (rng.random((n, k)) < 0.35).astype(np.int64)
    pred = np.where(rng.random((n, k)) < 0.75, gold, 1 - gold)
    return gold, pred


def _check_multilabel(r: clfeval.Scores, gold: np.ndarray, pred: np.ndarray) -> None:
    for average in ("micro", "macro", "weighted", "samples"):
        expected = f1_score(gold, pred, average=average, zero_division=0)
        assert r[f"{average}.f1"] == pytest.approx(expected, abs=1e-12), average
        assert r[f"{average}.precision"] == pytest.approx(
            precision_score(gold, pred, average=average, zero_division=0), abs=1e-12
        )
    assert r["macro.jaccard"] == pytest.approx(jaccard_score(gold, pred, average="macro", zero_division=0), abs=1e-12)
    assert r["hamming_loss"] == pytest.approx(hamming_loss(gold, pred), abs=1e-12)
    assert r["subset_accuracy"] == pytest.approx(accuracy_score(gold, pred), abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_indicator_matrices_score_as_scikit_learn_scores_them(seed: int) -> None:
    import pandas as pd
    import polars as pl
    import scipy.sparse

    gold, pred = _indicators(seed)
    names = ["toxic", "spam", "ad", "off", "ok"]
    r = clfeval.score(gold, pred)
    _check_multilabel(r, gold, pred)
    assert r.labels == ("0", "1", "2", "3", "4") and r.task == "multi-label"
    named = clfeval.score(gold, pred, labels=names)
    _check_multilabel(named, gold, pred)
    assert named.labels == tuple(names)
    for given in (
        (scipy.sparse.csr_matrix(gold), scipy.sparse.csr_matrix(pred)),
        (pd.DataFrame(gold, columns=names), pd.DataFrame(pred, columns=names)),
        (pl.DataFrame(gold, schema=names), pl.DataFrame(pred, schema=names)),
        (gold.astype(bool), pred.astype(bool)),
    ):
        r = clfeval.score(*given, multilabel=True)
        _check_multilabel(r, gold, pred)
    assert clfeval.score(pd.DataFrame(gold, columns=names), pd.DataFrame(pred, columns=names)).labels == tuple(
        sorted(names)
    )  # a frame's columns name the labels (the union, sorted, as for label sets)
    per = named.per_label["spam"]
    assert per.f == pytest.approx(f1_score(gold[:, 1], pred[:, 1], zero_division=0), abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_indicator_matrices_in_compare_and_cv_equal_label_sets(seed: int) -> None:
    gold, pred = _indicators(seed)
    _, other = _indicators(seed + 100)
    names = ["a", "b", "c", "d", "e"]

    def sets(m: np.ndarray) -> list[list[str]]:
        return [[names[j] for j in np.flatnonzero(row)] for row in m]

    test = clfeval.Test(rounds=200, seed=3)
    by_matrix = clfeval.compare(gold, {"A": pred, "B": other}, labels=names, metrics="micro.f1", test=test)
    by_sets = clfeval.compare(sets(gold), {"A": sets(pred), "B": sets(other)}, multilabel=True, labels=names,
                              metrics="micro.f1", test=test)  # fmt: skip
    assert by_matrix.pairs[0].p_value == by_sets.pairs[0].p_value
    assert by_matrix.score("A", "micro.f1") == pytest.approx(f1_score(gold, pred, average="micro"), abs=1e-12)
    folds = np.arange(len(gold)) % 4
    cv = clfeval.cv(gold, pred, folds, labels=names)
    _check_multilabel(cv.pooled, gold, pred)
    mean = np.mean([f1_score(gold[folds == k], pred[folds == k], average="macro", zero_division=0) for k in range(4)])
    assert cv.mean_of_folds()["averages"]["macro"]["f"] == pytest.approx(mean, abs=1e-12)


def test_indicator_matrices_refuse_what_they_cannot_be() -> None:
    gold, pred = _indicators(0, n=6, k=3)
    bad = pred.copy()
    bad[4, 2] = 2
    with pytest.raises(InputError, match=r"pred\[4\]: holds 2 at column 2") as raised:
        clfeval.score(gold, bad)
    assert "\n" not in str(raised.value)
    with pytest.raises(InputError, match="shapes"):
        clfeval.score(gold, pred[:, :2])
    with pytest.raises(OptionError, match="names the 3 columns"):
        clfeval.score(gold, pred, labels=["a", "b"])
    with pytest.raises(OptionError, match="multilabel=False"):
        clfeval.score(gold, pred, multilabel=False)
    with pytest.raises(InputError, match="not an indicator matrix"):
        clfeval.score(gold, [["a"]] * 6)


# -- part 7: weighted κ under a declared order ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_weighted_kappa_reads_the_declared_order_as_scikit_learn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    order = ["none", "mild", "moderate", "severe"]
    gold = list(rng.choice(order, 90))
    pred = [g if rng.random() < 0.5 else str(rng.choice(order)) for g in gold]
    r = clfeval.score(gold, pred, ordinal=order, ci="delta")
    for weights in ("linear", "quadratic"):
        assert r[f"kappa_{weights}"] == pytest.approx(
            cohen_kappa_score(gold, pred, labels=order, weights=weights), abs=1e-12
        )
        assert r.interval(f"kappa_{weights}") is not None and f"kappa_{weights}_ci_low" in r.flat()
    assert r.order == tuple(order) and r.labels == tuple(order)
    assert r.to_dict()["label_order"] == {"order": order, "rule": "ordinal=[...]: the order given", "withheld": []}
    same = clfeval.score(gold, pred, labels=order, ordinal=True)  # labels in order, ordinal=True: the same order
    assert same["kappa_quadratic"] == pytest.approx(r["kappa_quadratic"], abs=1e-15)
    unordered = clfeval.score(gold, pred, labels=order, ci="delta")  # labels= alone: no order
    data = unordered.to_dict()
    assert data["kappa_linear"] is None and data["kappa_quadratic_ci"] is None
    assert data["label_order"]["withheld"] == ["kappa_linear", "kappa_quadratic"]
    assert not any("kappa_linear" in k for k in unordered.flat())
    folds = [i % 3 for i in range(len(gold))]
    cv = clfeval.cv(gold, pred, folds, ordinal=order)
    assert cv.pooled["kappa_linear"] == pytest.approx(r["kappa_linear"], abs=1e-12)
    fold_mean = np.mean([cohen_kappa_score([g for g, f in zip(gold, folds) if f == k],
                                           [p for p, f in zip(pred, folds) if f == k],
                                           labels=order, weights="linear") for k in range(3)])  # fmt: skip
    assert cv.mean_of_folds()["kappa_linear"] == pytest.approx(fold_mean, abs=1e-12)
    unordered_cv = clfeval.cv(gold, pred, folds)
    assert "mean_of_folds/kappa_linear" not in unordered_cv.flat() and "pooled/kappa_linear" not in unordered_cv.flat()
    with pytest.raises(UnknownName, match="ordinal="):
        clfeval.compare(gold, {"A": pred, "B": gold}, metrics="kappa_linear")


def test_ordinal_refuses_an_order_that_misses_a_label_or_contradicts_labels() -> None:
    with pytest.raises(OptionError, match="does not place 'c'"):
        clfeval.score(["a", "b", "c"], ["a", "b", "b"], ordinal=["a", "b"])
    with pytest.raises(OptionError, match="name different labels"):
        clfeval.Scoring(labels=["a", "b"], ordinal=["a", "c"])
    with pytest.raises(OptionError, match="repeats"):
        clfeval.Scoring(ordinal=["a", "b", "a"])
    with pytest.raises(OptionError, match="two labels or more"):
        clfeval.Scoring(ordinal=["a"])
    with pytest.raises(OptionError, match="labels_from='gold'"):
        clfeval.Scoring(ordinal=["a", "b"], labels_from="gold")


def test_mlflow_logs_no_weighted_kappa_without_an_order(tmp_path, monkeypatch) -> None:
    mlflow = pytest.importorskip("mlflow")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    import clfeval.mlflow

    mlflow.set_tracking_uri((tmp_path / "mlruns").as_uri())
    gold, pred = ["cat", "dog", "bird", "dog"], ["cat", "bird", "bird", "dog"]
    for ordinal, logged in ((None, False), (["cat", "dog", "bird"], True)):
        run_id = clfeval.mlflow.log(clfeval.score(gold, pred, ordinal=ordinal))
        metrics = mlflow.tracking.MlflowClient().get_run(run_id).data.metrics
        assert ("kappa_linear" in metrics) is logged and "kappa" in metrics


def test_cli_ordinal_with_a_labels_file_is_scikit_learns_weighted_kappa(tmp_path) -> None:
    rng = np.random.default_rng(5)
    order = ["low", "mid", "high", "top"]
    gold = list(rng.choice(order, 40))
    pred = [g if rng.random() < 0.5 else str(rng.choice(order)) for g in gold]
    path = tmp_path / "run.tsv"
    path.write_text("".join(f"w{i}\t{g}\t{p}\n" for i, (g, p) in enumerate(zip(gold, pred))))
    labels = tmp_path / "labels.txt"
    labels.write_text("\n".join(order) + "\n")
    data = json.loads(run_cli("score", str(path), "--labels", str(labels), "--ordinal", "--format", "json").stdout)
    assert data["kappa_quadratic"] == pytest.approx(cohen_kappa_score(gold, pred, labels=order, weights="quadratic"))
    assert data["label_order"]["order"] == order
    plain = json.loads(run_cli("score", str(path), "--labels", str(labels), "--format", "json").stdout)
    assert plain["kappa_quadratic"] is None and "kappa_quadratic" in plain
    markdown = run_cli("score", str(path), "--labels", str(labels), "--format", "markdown").stdout.decode()
    assert "quadratic weights" not in markdown


def test_the_accumulator_scores_under_a_declared_order_and_a_positive_class() -> None:
    rng = np.random.default_rng(11)
    order = ["low", "mid", "high"]
    gold = list(rng.choice(order, 50))
    pred = [g if rng.random() < 0.6 else str(rng.choice(order)) for g in gold]
    acc = clfeval.Accumulator(labels=order)
    acc.update(gold[:20], pred[:20])
    acc.update(gold[20:], pred[20:])
    assert "kappa_linear" not in acc.score().flat()  # declared labels alone: no order
    assert acc.score(ordinal=True)["kappa_linear"] == pytest.approx(
        cohen_kappa_score(gold, pred, labels=order, weights="linear"), abs=1e-12
    )
    binary = clfeval.Accumulator(labels=["no", "yes"])
    binary.update(["no", "yes", "yes", "no"], ["no", "yes", "no", "yes"])
    assert binary.score(pos_label="yes")["recall"] == 0.5


def test_another_tasks_keyword_names_the_one_this_task_takes() -> None:
    """``rounds=`` given to score or cv, ``resamples=`` to compare: a one-line OptionError naming what each is and
    the keyword the task takes, not Python's "unexpected keyword argument"; unknown keywords stay a TypeError."""
    gold, pred = ["a", "b", "a"], ["a", "b", "b"]
    cases = [
        (lambda: clfeval.score(gold, pred, rounds=9), "score takes no rounds=.*resamples="),
        (lambda: clfeval.cv(gold, pred, [0, 1, 1], rounds=9), "cv takes no rounds=.*resamples="),
        (lambda: clfeval.compare(gold, {"A": pred, "B": gold}, resamples=9), "compare takes no resamples=.*rounds="),
        (lambda: clfeval.score(gold, pred, baseline="A"), "score takes no baseline="),
    ]
    for call, says in cases:
        with pytest.raises(clfeval.OptionError, match=says) as info:
            call()
        assert "\n" not in str(info.value)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        clfeval.score(gold, pred, colour="red")
