"""Tidy data frames of every result (``to_polars``, ``to_pandas``): the documented tables and columns, each value
equal to the JSON contract's, scikit-learn's report as an oracle, and labels that other tools' dict keys trip on."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pytest
from sklearn.metrics import classification_report, confusion_matrix, precision_recall_fscore_support

import clfeval
from clfeval.errors import OptionError
from clfeval.report.frames import MAX_WIDE_LABELS

RNG = np.random.default_rng(3)
GOLD = RNG.choice(["accuracy", "macro avg", "b", "c"], size=200).tolist()
PRED = [g if RNG.random() < 0.6 else str(RNG.choice(["accuracy", "macro avg", "b", "c"])) for g in GOLD]

PER_LABEL = ["label", "support", "predicted", "tp", "fp", "fn", "tn", "precision", "recall", "f1", "specificity"]
PER_LABEL += ["npv", "fpr", "fnr", "jaccard"]
AVERAGES = ["average", "precision", "recall", "f1", "specificity", "jaccard"]


def _close(a: float, b: float | None) -> bool:
    if b is None:
        return math.isnan(a)
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


def test_score_tables_and_columns_are_the_documented_ones() -> None:
    r = clfeval.score(GOLD, PRED)
    assert r.table_names() == ("per_label", "averages", "overall", "matrix", "matrix_wide")
    assert r.to_polars().columns == PER_LABEL  # the default table is per_label
    assert r.to_polars("averages").columns == AVERAGES
    assert r.to_polars("overall").columns == ["measure", "value"]
    assert r.to_polars("matrix").columns == ["gold", "pred", "count"]
    assert r.to_polars("matrix_wide").columns == ["gold", *r.labels]
    assert r.to_polars("per_label")["support"].dtype == pl.Int64
    with pytest.raises(OptionError, match="unknown table 'nope'; this result has 'per_label', 'averages'"):
        r.to_polars("nope")


def test_intervals_are_low_and_high_columns_beside_each_score() -> None:
    r = clfeval.score(GOLD, PRED, ci="delta")
    cols = r.to_polars("averages").columns
    assert cols[:4] == ["average", "precision", "precision_ci_low", "precision_ci_high"]
    assert "f1_ci_low" in cols and "jaccard_ci_high" in cols
    assert r.to_polars("overall").columns == ["measure", "value", "ci_low", "ci_high"]
    per_label = r.to_polars()
    assert {"precision_wilson_ci_low", "recall_wilson_ci_high", "f1_ci_low"} <= set(per_label.columns)
    data = r.to_dict()
    for row in per_label.iter_rows(named=True):
        json_row = data["per_label"][row["label"]]
        for name in ("f1", "precision_wilson", "recall"):
            low, high = json_row[f"{name}_ci"]
            assert _close(row[f"{name}_ci_low"], low) and _close(row[f"{name}_ci_high"], high)
    for row in r.to_polars("overall").iter_rows(named=True):
        assert _close(row["ci_low"], data[row["measure"] + "_ci"][0])


def test_every_value_equals_the_json_contract() -> None:
    r = clfeval.score(GOLD, PRED, ci="delta")
    data = r.to_dict()
    for row in r.to_polars().iter_rows(named=True):
        for name, value in data["per_label"][row["label"]].items():
            if not name.endswith("_ci"):
                assert _close(float(row[name]), value), (row["label"], name)
    for row in r.to_pandas("averages").to_dict("records"):
        for name, value in data["averages"][row["average"]].items():
            if isinstance(value, float):
                assert _close(row[name], value)
    for row in r.to_polars("overall").iter_rows(named=True):
        assert _close(row["value"], data[row["measure"]])


def test_per_label_rows_match_scikit_learns_report_even_for_labels_named_like_its_keys() -> None:
    """scikit-learn's output_dict mixes labels and averages as keys (#29205: a class named "accuracy" breaks it);
    here labels are values of a column and averages rows of another table."""
    r = clfeval.score(GOLD, PRED)
    labels = list(r.labels)
    p, rec, f, s = precision_recall_fscore_support(GOLD, PRED, labels=labels, zero_division=0)
    frame = r.to_pandas()
    assert frame["label"].tolist() == labels
    np.testing.assert_allclose(frame["precision"], p, rtol=1e-12)
    np.testing.assert_allclose(frame["recall"], rec, rtol=1e-12)
    np.testing.assert_allclose(frame["f1"], f, rtol=1e-12)
    np.testing.assert_array_equal(frame["support"], s)
    report = classification_report(GOLD, PRED, labels=labels, output_dict=True, zero_division=0)
    averages = r.to_pandas("averages").set_index("average")
    assert math.isclose(averages.loc["macro", "f1"], report["macro avg"]["f1-score"], rel_tol=1e-12)
    assert math.isclose(averages.loc["weighted", "f1"], report["weighted avg"]["f1-score"], rel_tol=1e-12)
    assert isinstance(report["accuracy"], float)  # the class "accuracy" was overwritten by the overall accuracy
    assert frame.set_index("label").loc["accuracy", "support"] == GOLD.count("accuracy")


def test_matrix_long_and_wide_agree_with_scikit_learn() -> None:
    r = clfeval.score(GOLD, PRED)
    labels = list(r.labels)
    expected = confusion_matrix(GOLD, PRED, labels=labels)
    wide = r.to_pandas("matrix_wide").set_index("gold")
    np.testing.assert_array_equal(wide.loc[labels, labels].to_numpy(), expected)
    long = r.to_polars("matrix")
    assert long["count"].min() > 0  # the long table holds the non-zero cells only
    rebuilt = np.zeros_like(expected)
    for g, p, n in long.iter_rows():
        rebuilt[labels.index(g), labels.index(p)] = n
    np.testing.assert_array_equal(rebuilt, expected)


def test_a_label_named_gold_does_not_collide_with_the_row_column() -> None:
    r = clfeval.score(["gold", "x", "x"], ["gold", "gold", "x"])
    wide = r.to_polars("matrix_wide")
    assert wide.columns == ["_gold", "gold", "x"]
    assert wide.row(1) == ("x", 1, 1)


def test_multi_label_matrix_has_both_views_and_the_empty_label() -> None:
    gold = [["a"], ["a", "b"], ["c"], []]
    pred = [["a", "b"], ["b"], [], ["c"]]
    r = clfeval.score(gold, pred, multilabel=True)
    assert r.table_names()[-1] == "matrix_wide_predicted_view"
    long = r.to_polars("matrix")
    assert long.columns == ["gold", "pred", "count", "count_predicted_view"]
    gold_view = r.to_pandas("matrix_wide").set_index("gold")
    labels = list(r.confusion.labels)
    np.testing.assert_allclose(gold_view.loc[labels, labels].to_numpy(), r.confusion.gold_view)
    predicted_view = r.to_pandas("matrix_wide_predicted_view").set_index("gold")
    np.testing.assert_allclose(predicted_view.loc[labels, labels].to_numpy(), r.confusion.predicted_view)
    assert math.isclose(long["count"].sum(), r.confusion.gold_view.sum())


def test_wide_matrix_is_refused_beyond_its_limit_and_the_long_one_is_not() -> None:
    k = MAX_WIDE_LABELS + 1
    labels = [f"l{i}" for i in range(k)]
    r = clfeval.score(labels, labels[1:] + labels[:1])
    with pytest.raises(OptionError, match=f"a wide confusion matrix of {k} labels .* take the long table 'matrix'"):
        r.to_polars("matrix_wide")
    assert r.to_polars("matrix").height == k


def test_comparison_pairs_and_scores() -> None:
    gold = list("abcabcabca" * 3)
    preds = {"X": list("abcabaacca" * 3), "Y": list("aacbbaccab" * 3), "Z": list("abcabcabcc" * 3)}
    cmp = clfeval.compare(gold, preds, metrics=["macro.f1", "accuracy"], test=clfeval.Test(seed=2, ci="bootstrap"))
    pairs = cmp.to_polars()
    assert pairs.columns == [
        "metric", "a", "b", "score_a", "score_b", "difference", "ci_low", "ci_high", "p_value", "p_adjusted",
        "significant", "exact", "rounds", "test", "alternative", "seed",
    ]  # fmt: skip
    assert pairs.height == len(cmp.pairs) == 6  # one row per (metric, pair)
    for row, p in zip(pairs.iter_rows(named=True), cmp.pairs):
        assert (row["metric"], row["a"], row["b"]) == (p.metric, p.a, p.b)
        assert row["p_value"] == p.p_value and row["ci_low"] == p.ci[0] and row["significant"] == p.significant
    scores = cmp.to_pandas("scores")
    assert scores.columns.tolist() == ["system", "metric", "score", "rank"]
    first = scores[scores.metric == "accuracy"].iloc[0]
    assert first["rank"] == 1 and first["score"] == max(cmp.score(s, "accuracy") for s in preds)


def test_cv_one_row_per_fold_and_a_summary() -> None:
    gold, pred = list("aabbabcabcca"), list("abbbaacabcba")
    folds = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    result = clfeval.cv(gold, pred, folds, ci="delta")
    frame = result.to_polars()
    assert frame.columns[:4] == ["fold", "n_instances", "micro.precision", "micro.recall"]
    assert {"macro.f1", "macro_fa.f1", "accuracy", "mcc"} <= set(frame.columns)
    assert frame["fold"].to_list() == ["1", "2", "3"] and frame["n_instances"].to_list() == [4, 4, 4]
    for row, fold in zip(frame.iter_rows(named=True), result.folds):
        assert row["macro.f1"] == fold.averages["macro"]["f"] and row["accuracy"] == fold.accuracy
    summary = result.to_pandas("summary").set_index("scope")
    means = result.mean_of_folds()
    assert summary.loc["pooled", "macro.f1"] == result.pooled.averages["macro"]["f"]
    assert summary.loc["mean_of_folds", "macro.f1"] == means["averages"]["macro"]["f"]
    assert summary.loc["sd", "accuracy"] == means["accuracy_sd"]
    assert summary.loc["pooled", "macro.f1_ci_low"] == result.pooled.intervals.get(("averages", "macro", "f"))[0]


def test_results_without_their_own_tables_give_their_report_tables() -> None:
    r = clfeval.finagle(list("aaaabcc"), list("aaaabbc"), [0.9, 0.8, 0.9, 0.7, 0.9, 0.2, 0.9], threshold=0.5)
    assert r.table_names() == ("scenarios", "moved", "calibration")
    scenarios = r.to_pandas()
    macro = scenarios[(scenarios.average == "macro") & (scenarios.scenario == "CHANGED")]
    assert math.isclose(macro["precision"].item(), r.scenarios["changed"].averages["macro"]["precision"], rel_tol=1e-12)


def test_pandas_is_imported_only_when_a_pandas_frame_is_asked_for() -> None:
    code = (
        "import sys, clfeval\n"
        "r = clfeval.score(['a', 'b'], ['a', 'a'])\n"
        "r.to_polars(); r.flat(); r.signature\n"
        "assert 'pandas' not in sys.modules, 'pandas imported'\n"
        "r.to_pandas()\n"
        "assert 'pandas' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_frames_are_built_from_counts_at_many_labels() -> None:
    k = 5_000
    gold = np.arange(20_000) % k
    pred = (gold + (np.arange(20_000) % 3 == 0)) % k
    r = clfeval.score(gold.astype(str), pred.astype(str))
    per_label = r.to_polars()
    assert per_label.height == k and per_label["support"].sum() == 20_000
    assert r.to_polars("matrix").height == len(r.confusion.count)
    assert pd.api.types.is_float_dtype(r.to_pandas()["f1"])
