"""clfeval.sklearn against the real scikit-learn: scorers in cross_val_score, GridSearchCV and permutation_test_score,
and cross-validation of cross_val_predict output."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.datasets import make_classification, make_multilabel_classification
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    f1_score,
    fbeta_score,
    hamming_loss,
    multilabel_confusion_matrix,
    precision_score,
    recall_score,
)
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
    cross_validate,
    permutation_test_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import clfeval
from clfeval.errors import ClfevalWarning, InputError, OptionError
from clfeval.sklearn import Scorer, cv, folds_of, scorer


@pytest.fixture(scope="module")
def data() -> tuple[np.ndarray, np.ndarray]:
    return make_classification(n_samples=240, n_classes=4, n_informative=6, n_clusters_per_class=1, random_state=0)


@pytest.fixture(scope="module")
def multilabel_data() -> tuple[np.ndarray, np.ndarray]:
    return make_multilabel_classification(n_samples=200, n_classes=4, random_state=0)


def _folds() -> StratifiedKFold:
    return StratifiedKFold(5, shuffle=True, random_state=0)


def _quiet_f1(*args, **kwargs) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's notes on ill-defined scores are not what is tested here
        return f1_score(*args, **kwargs)


@pytest.mark.parametrize(
    "estimator", [LogisticRegression(max_iter=500), DecisionTreeClassifier(max_depth=4, random_state=0)]
)
def test_cross_validate_matches_sklearn_fold_by_fold(data, estimator) -> None:
    X, y = data
    scoring = {
        "macro": scorer("macro.f1"),
        "micro": scorer("micro.f1"),
        "weighted": scorer("weighted.f1"),
        "macro_fa": scorer("macro_fa.f1"),
        "accuracy": scorer("accuracy"),
        "sk_macro": "f1_macro",
        "sk_micro": "f1_micro",
        "sk_weighted": "f1_weighted",
        "sk_accuracy": "accuracy",
        "sk_precision": "precision_macro",
        "sk_recall": "recall_macro",
    }
    r = cross_validate(estimator, X, y, cv=_folds(), scoring=scoring)
    np.testing.assert_allclose(r["test_macro"], r["test_sk_macro"], rtol=1e-12)
    np.testing.assert_allclose(r["test_micro"], r["test_sk_micro"], rtol=1e-12)
    np.testing.assert_allclose(r["test_micro"], r["test_sk_accuracy"], rtol=1e-12)
    np.testing.assert_allclose(r["test_accuracy"], r["test_sk_accuracy"], rtol=1e-12)
    np.testing.assert_allclose(r["test_weighted"], r["test_sk_weighted"], rtol=1e-12)
    p, rc = r["test_sk_precision"], r["test_sk_recall"]
    np.testing.assert_allclose(r["test_macro_fa"], 2 * p * rc / (p + rc), rtol=1e-12)
    assert not np.allclose(r["test_macro_fa"], r["test_macro"])  # FA and AF are different averages here


def test_a_fold_lacking_a_class_averages_over_the_estimators_classes(data) -> None:
    X, y = data
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X[:120], y[:120])
    assert tree.classes_.tolist() == [0, 1, 2, 3]
    pred = tree.predict(X[120:])
    keep = 120 + np.flatnonzero((y[120:] != 3) & (pred != 3))  # a test fold with no class 3, gold or predicted
    X_test, y_test, p_test = X[keep], y[keep], pred[keep - 120]
    assert set(y_test.tolist()) == {0, 1, 2}
    with pytest.warns(ClfevalWarning, match=r"F is 0/0 for 1 label\(s\) neither in gold nor predicted: '3'"):
        got = scorer("macro.f1")(tree, X_test, y_test)
    over_classes = f1_score(y_test, p_test, labels=tree.classes_, average="macro", zero_division=0)
    union = f1_score(y_test, p_test, average="macro")
    assert got == pytest.approx(over_classes, rel=1e-12)
    assert got == pytest.approx(0.75 * union, rel=1e-12)  # class 3 takes part, with F = 0/0 = 0
    assert got < union - 0.1
    # without classes_ (scores of bare predictions): gold ∪ predicted
    assert scorer("macro.f1").scores(y_test, p_test).averages["macro"]["f"] == pytest.approx(union, rel=1e-12)
    # declared labels win over classes_
    with pytest.warns(ClfevalWarning, match="neither in gold nor predicted: '3', '4'"):
        declared = scorer("macro.f1", labels=[0, 1, 2, 3, 4])(tree, X_test, y_test)
    assert declared == pytest.approx(0.6 * union, rel=1e-12)
    # an explicit label policy in scoring is kept: the gold labels
    gold_only = scorer("macro.f1", scoring=clfeval.Scoring(labels_from="gold"))(tree, X_test, y_test)
    assert gold_only == pytest.approx(union, rel=1e-12)


def test_every_fold_of_cross_validate_averages_over_the_classes(data) -> None:
    X, y = data
    rest, threes = np.flatnonzero(y != 3), np.flatnonzero(y == 3)
    test0 = rest[:40]  # the first test fold holds no instance of class 3
    others = np.random.default_rng(0).permutation(np.concatenate([rest[40:], threes]))
    splits = [(np.setdiff1d(np.arange(len(y)), t), t) for t in [test0, *np.array_split(others, 3)]]
    r = cross_validate(
        LogisticRegression(max_iter=500), X, y, cv=splits, scoring=scorer("macro.f1"), return_estimator=True
    )
    for (_, test), est, got in zip(splits, r["estimator"], r["test_score"]):
        assert est.classes_.tolist() == [0, 1, 2, 3]
        expected = _quiet_f1(y[test], est.predict(X[test]), labels=est.classes_, average="macro", zero_division=0)
        assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("dtype", ["Int64", "boolean", "float64", "int32", "category", "string"])
def test_classes_held_in_another_type_than_y_are_the_same_labels(data, dtype: str) -> None:
    """Fitted on a pandas nullable Int64 (or boolean) y, an estimator's classes_ are floats (0.0, 1.0 …) and its
    predictions too, while y's labels are the integers: they are one label set, not two (which halved macro F1)."""
    pd = pytest.importorskip("pandas")
    X, y = data
    y2 = (y % 2).astype(bool) if dtype == "boolean" else y
    series = pd.Series(y2.astype(str) if dtype == "string" else y2).astype(dtype)
    model = LogisticRegression(max_iter=500)
    ours = cross_val_score(model, X, series, cv=_folds(), scoring=scorer("macro.f1"))
    theirs = cross_val_score(model, X, series, cv=_folds(), scoring="f1_macro")
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    fitted = model.fit(X, series)
    labels = scorer("macro.f1").scores(series, fitted.predict(X), classes=fitted.classes_).labels
    assert len(labels) == len(np.unique(y2)), labels


def test_boolean_y_takes_numbers_as_its_labels(data) -> None:
    """A boolean y's labels are False and True; declared 0/1 and per_label.1 name them by value, as scikit-learn's
    labels= and pos_label= do."""
    X, y = data
    flags = y % 2 == 1
    model = LogisticRegression(max_iter=500).fit(X[:150], flags[:150])
    pred = model.predict(X[150:])
    got = scorer("macro.f1", labels=[0, 1])(model, X[150:], flags[150:])
    assert got == pytest.approx(f1_score(flags[150:], pred, labels=[0, 1], average="macro"), rel=1e-12)
    for name, pos in (("per_label.1.f1", 1), ("per_label.True.f1", True), ("per_label.0.f1", 0)):
        expected = f1_score(flags[150:], pred, pos_label=pos)
        assert scorer(name)(model, X[150:], flags[150:]) == pytest.approx(expected, rel=1e-12), name
    with pytest.raises(OptionError, match=r"label '2' is not in the label set \('False', 'True'\)"):
        scorer("per_label.2.f1")(model, X[150:], flags[150:])


def test_a_label_outside_the_classes_still_counts(data) -> None:
    X, y = data
    train = np.flatnonzero(y[:150] != 3)  # the training fold lacks class 3, the test fold has it
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[train], y[train])
    assert tree.classes_.tolist() == [0, 1, 2] and 3 in y[150:]
    got = scorer("macro.f1")(tree, X[150:], y[150:])
    expected = f1_score(y[150:], tree.predict(X[150:]), labels=[0, 1, 2, 3], average="macro", zero_division=0)
    assert got == pytest.approx(expected, rel=1e-12)


def test_the_scorer_warns_where_scikit_learn_warns_about_the_metric_it_returns(data) -> None:
    """A fold whose class 3 is in gold but never predicted: its precision is 0/0. The scores that 0/0 decides warn,
    at the line that called the scorer, as scikit-learn's UndefinedMetricWarning does on the same fold: macro
    precision, and macro_fa F (the F of macro precision and recall). Macro F1 does not (F counted from tp, fp and
    fn is 0 for the class, and scikit-learn's f1_score is quiet too), nor do accuracy, micro F1 and recall."""
    X, y = data
    train = np.flatnonzero(y[:150] != 3)
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[train], y[train])
    pred = tree.predict(X[150:])
    assert 3 in y[150:] and 3 not in pred
    for metric in ("macro.precision", "macro_fa.f1", "weighted.precision", "per_label.3.precision"):
        with pytest.warns(ClfevalWarning, match=r"precision is 0/0 for 1 label\(s\) never predicted: '3'") as caught:
            scorer(metric, labels=[0, 1, 2, 3])(tree, X[150:], y[150:])
        assert len(caught) == 1 and caught[0].filename == __file__, metric
    with pytest.warns(UndefinedMetricWarning, match="no predicted samples"):
        precision_score(y[150:], pred, labels=[0, 1, 2, 3], average="macro")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for metric in ("macro.f1", "accuracy", "micro.f1", "per_label.0.precision", "macro.recall", "mcc"):
            scorer(metric, labels=[0, 1, 2, 3])(tree, X[150:], y[150:])
        f1_score(y[150:], pred, labels=[0, 1, 2, 3], average="macro")  # nor are scikit-learn's
        recall_score(y[150:], pred, labels=[0, 1, 2, 3], average="macro")


def test_grid_search_picks_what_f1_macro_picks_also_in_worker_processes(data) -> None:
    X, y = data
    grid = {"max_depth": [1, 2, 4, 8]}
    ours = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, scoring=scorer("macro.f1"), cv=_folds(), n_jobs=2)
    theirs = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, scoring="f1_macro", cv=_folds())
    ours.fit(X, y)
    theirs.fit(X, y)
    assert ours.best_params_ == theirs.best_params_
    assert ours.best_score_ == pytest.approx(theirs.best_score_, rel=1e-12)
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"], theirs.cv_results_["mean_test_score"], rtol=1e-12)
    assert len(set(np.round(theirs.cv_results_["mean_test_score"], 6))) == len(grid["max_depth"])  # no ties


def test_permutation_test_score_matches_f1_macro(data) -> None:
    X, y = data
    kwargs = {"cv": _folds(), "n_permutations": 5, "random_state": 0}
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    score, permuted, p = permutation_test_score(tree, X, y, scoring=scorer("macro.f1"), **kwargs)
    sk_score, sk_permuted, sk_p = permutation_test_score(tree, X, y, scoring="f1_macro", **kwargs)
    assert score == pytest.approx(sk_score, rel=1e-12)
    np.testing.assert_allclose(permuted, sk_permuted, rtol=1e-12)
    assert p == sk_p
    assert score > permuted.max()


def test_lower_is_better_measures_are_negated(data) -> None:
    X, y = data
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X[:150], y[:150])
    X_test, y_test = X[150:], y[150:]
    pred = tree.predict(X_test)
    mcm = multilabel_confusion_matrix(y_test, pred)
    fp, tn = mcm[:, 0, 1].sum(), mcm[:, 0, 0].sum()
    assert hamming_loss(y_test, pred) > 0
    cases = {
        "hamming_loss": hamming_loss(y_test, pred),
        "micro_fpr": fp / (fp + tn),
        "per_label.2.fnr": 1 - recall_score(y_test, pred, labels=[2], average=None)[0],
    }
    for metric, value in cases.items():
        s = scorer(metric)
        assert s.greater_is_better is False
        assert s(tree, X_test, y_test) == pytest.approx(-value, rel=1e-12), metric
        assert s.value(s.scores(y_test, pred)) == pytest.approx(value, rel=1e-12)
    assert scorer("per_label.2.recall")(tree, X_test, y_test) == pytest.approx(1 - cases["per_label.2.fnr"])
    assert scorer("mcc").greater_is_better is True


def test_beta_comes_from_scoring(data) -> None:
    X, y = data
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X[:150], y[:150])
    got = scorer("macro.f2", scoring=clfeval.Scoring(beta=2))(tree, X[150:], y[150:])
    assert got == pytest.approx(fbeta_score(y[150:], tree.predict(X[150:]), beta=2, average="macro"), rel=1e-12)


def test_names_are_checked_when_the_scorer_is_built() -> None:
    with pytest.raises(OptionError, match=r"unknown metric 'macro\.f11'; valid: .*macro_fa"):
        scorer("macro.f11")
    with pytest.raises(OptionError, match=r"unknown metric 'samples\.f1'"):
        scorer("samples.f1")  # multi-label only
    with pytest.raises(OptionError, match="unknown metric 'mcc'"):
        scorer("mcc", multilabel=True)  # single-label only
    with pytest.raises(OptionError, match=r"per_label\.<label>\.<measure>"):
        scorer("per_label.2.f9")
    with pytest.raises(OptionError, match="label '7' is not in the label set"):
        scorer("per_label.7.f1", labels=[0, 1, 2])
    with pytest.raises(OptionError, match="given twice"):
        scorer("macro.f1", labels=[0, 1], scoring=clfeval.Scoring(labels=[0, 1, 2]))
    with pytest.raises(OptionError, match="label source 'gold'"):
        scorer("macro.f1", labels=[0, 1], scoring=clfeval.Scoring(labels_from="gold"))
    with pytest.raises(OptionError, match="not int"):
        scorer(3)  # type: ignore[arg-type]


def test_a_per_label_metric_of_an_undeclared_label_fails_when_scored(data) -> None:
    X, y = data
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    s = scorer("per_label.9.f1")  # the labels are not known yet
    with pytest.raises(OptionError, match="label '9' is not in the label set"):
        s(tree, X, y)


def test_a_scorer_weighs_instances_as_scikit_learns_own_scorer(data) -> None:
    """Called with sample_weight (directly, and through scikit-learn's metadata routing in cross_validate), the
    scorer equals scikit-learn's weighted scorer fold by fold; set_score_request(sample_weight=False) scores without."""
    import sklearn
    from sklearn.metrics import f1_score, make_scorer, matthews_corrcoef
    from sklearn.model_selection import KFold, cross_validate

    X, y = data
    w = np.random.default_rng(3).gamma(2.0, 1.0, len(y))
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    expected = f1_score(y, tree.predict(X), average="macro", sample_weight=w)
    assert scorer("macro.f1")(tree, X, y, sample_weight=w) == pytest.approx(expected, rel=1e-12)
    assert scorer("mcc")(tree, X, y, sample_weight=w) == pytest.approx(
        matthews_corrcoef(y, tree.predict(X), sample_weight=w), rel=1e-12
    )
    assert scorer("macro.f1")(tree, X, y, sample_weight=None) == pytest.approx(
        f1_score(y, tree.predict(X), average="macro")
    )
    with sklearn.config_context(enable_metadata_routing=True):
        model = DecisionTreeClassifier(max_depth=2, random_state=0).set_fit_request(sample_weight=True)
        ours = cross_validate(model, X, y, cv=KFold(3), scoring=scorer("macro.f1"), params={"sample_weight": w})
        theirs = make_scorer(f1_score, average="macro").set_score_request(sample_weight=True)
        reference = cross_validate(model, X, y, cv=KFold(3), scoring=theirs, params={"sample_weight": w})
        np.testing.assert_allclose(ours["test_score"], reference["test_score"], rtol=1e-12)
        plain = cross_validate(
            model, X, y, cv=KFold(3), scoring=scorer("macro.f1").set_score_request(sample_weight=False),
            params={"sample_weight": w},
        )  # fmt: skip
        unrequested = make_scorer(f1_score, average="macro").set_score_request(sample_weight=False)
        unweighted = cross_validate(model, X, y, cv=KFold(3), scoring=unrequested, params={"sample_weight": w})
        np.testing.assert_allclose(plain["test_score"], unweighted["test_score"], rtol=1e-12)


def test_repr_and_pickle(data) -> None:
    X, y = data
    assert repr(scorer("macro_fa.f1")) == "clfeval.sklearn.scorer('macro_fa.f1')"
    assert repr(scorer("micro.f1", labels=["a", "b"])) == "clfeval.sklearn.scorer('micro.f1', labels=['a', 'b'])"
    assert repr(scorer("samples.f1", multilabel=True)) == "clfeval.sklearn.scorer('samples.f1', multilabel=True)"
    s = scorer("macro.f1", labels=np.array([0, 1, 2, 3]), scoring=clfeval.Scoring(zero_division=1))
    copy = pickle.loads(pickle.dumps(s))
    assert isinstance(copy, Scorer) and repr(copy) == repr(s)
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    assert copy(tree, X, y) == s(tree, X, y)


def test_multilabel_indicator_matrices_match_sklearn(multilabel_data) -> None:
    X, Y = multilabel_data
    assert (Y.sum(axis=1) == 0).any()  # instances with no label are counted too
    scoring = {f"ours_{a}": scorer(f"{a}.f1", multilabel=True) for a in ("macro", "micro", "samples")}
    scoring.update({f"sk_{a}": f"f1_{a}" for a in ("macro", "micro", "samples")})
    scoring["ours_accuracy"] = scorer("subset_accuracy", multilabel=True)
    scoring["sk_accuracy"] = "accuracy"
    scoring["ours_hamming"] = scorer("hamming_loss", multilabel=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn's notes on ill-defined F for empty rows
        r = cross_validate(KNeighborsClassifier(), X, Y, cv=KFold(4), scoring=scoring, return_estimator=True)
    for name in ("macro", "micro", "samples", "accuracy"):
        np.testing.assert_allclose(r[f"test_ours_{name}"], r[f"test_sk_{name}"], rtol=1e-12, err_msg=name)
    hamming = [hamming_loss(Y[t], est.predict(X[t])) for (_, t), est in zip(KFold(4).split(X), r["estimator"])]
    np.testing.assert_allclose(r["test_ours_hamming"], -np.array(hamming), rtol=1e-12)


def test_multilabel_column_labels_and_sparse_input(multilabel_data) -> None:
    X, Y = multilabel_data
    knn = KNeighborsClassifier().fit(X[:150], Y[:150])
    pred = knn.predict(X[150:])
    per_label = f1_score(Y[150:], pred, average=None)
    s = scorer("per_label.x.f1", labels=["w", "x", "y", "z"], multilabel=True)
    assert s(knn, X[150:], Y[150:]) == pytest.approx(per_label[1], rel=1e-12)
    assert s.scores(sparse.csr_matrix(Y[150:]), sparse.csr_matrix(pred)).per_label["x"].f == pytest.approx(
        per_label[1], rel=1e-12
    )
    # a column that is never used still counts in the macro average
    zeros = np.zeros((4, 2), dtype=int)
    zeros[:, 0] = 1
    got = scorer("macro.f1", multilabel=True).scores(zeros, zeros).averages["macro"]["f"]
    assert got == pytest.approx(0.5)
    none = scorer("per_label.NONE.precision", multilabel=clfeval.MultiLabel(empty="label"))
    result = none.scores(np.array([[1, 0], [0, 0], [0, 1]]), np.array([[1, 0], [0, 0], [0, 0]]))
    assert result.labels == ("0", "1", "NONE")
    assert none.value(result) == pytest.approx(0.5)  # predicted empty twice, right once
    with pytest.raises(InputError, match="2 columns but 4 labels"):
        s.scores(zeros, zeros)
    with pytest.raises(InputError, match=r"y_true\[1\]: is 2: an indicator matrix holds only 0 and 1"):
        scorer("micro.f1", multilabel=True).scores(np.array([[0, 1], [2, 0]]), zeros[:2])


def test_two_dimensional_y_needs_multilabel(multilabel_data) -> None:
    X, Y = multilabel_data
    knn = KNeighborsClassifier().fit(X, Y)
    with pytest.raises(OptionError, match="multilabel=True"):
        scorer("macro.f1")(knn, X, Y)


def test_cv_from_cross_val_predict(data) -> None:
    X, y = data
    splitter = KFold(5, shuffle=True, random_state=0)
    pred = cross_val_predict(LogisticRegression(max_iter=500), X, y, cv=splitter)
    result = cv(y, pred, splitter.split(X, y))
    whole = clfeval.score(y, pred)
    assert result.fold_names == ("0", "1", "2", "3", "4")
    for name in ("macro", "micro", "macro_fa", "weighted"):
        assert result.pooled.averages[name] == pytest.approx(whole.averages[name], rel=1e-12)
    assert result.pooled.averages["macro"]["f"] == pytest.approx(f1_score(y, pred, average="macro"), rel=1e-12)
    labels = clfeval.Scoring(labels=result.pooled.labels)
    for (_, test), fold in zip(splitter.split(X, y), result.folds):
        alone = clfeval.score(y[test], pred[test], scoring=labels)
        assert fold.n_instances == len(test)
        assert fold.averages["macro"]["f"] == pytest.approx(alone.averages["macro"]["f"], rel=1e-12)
        assert fold.accuracy == pytest.approx(alone.accuracy, rel=1e-12)
    means = result.mean_of_folds()
    assert means["averages"]["macro"]["f"] == pytest.approx(np.mean([f.averages["macro"]["f"] for f in result.folds]))
    # the same from each instance's fold
    numbers = folds_of(splitter.split(X, y), len(y))
    by_array = cv(y, pred, numbers)
    assert by_array.fold_names == result.fold_names
    assert [f.averages["macro"]["f"] for f in by_array.folds] == [f.averages["macro"]["f"] for f in result.folds]


def test_folds_of_numbers_each_instance_by_its_test_fold() -> None:
    splits = list(KFold(4, shuffle=True, random_state=1).split(np.zeros(10)))
    expected = np.empty(10, dtype=int)
    for k, (_, test) in enumerate(splits):
        expected[test] = k
    np.testing.assert_array_equal(folds_of(splits, 10), expected)
    masks = [(None, np.isin(np.arange(10), test)) for _, test in splits]
    np.testing.assert_array_equal(folds_of(masks, 10), expected)


@pytest.mark.parametrize(
    ("splits", "message"),
    [
        ([([], [0, 1, 2]), ([], [2, 3, 4])], r"in more than one test fold: 2$"),
        ([([], [0, 1]), ([], [3, 4])], r"in no test fold: 2$"),
        ([([], [0, 1]), ([], [1, 2])], r"in no test fold: 3, 4; instances in more than one test fold: 1$"),
        ([([], [0, 1, 2]), ([], [3, 4, 5])], r"split 1 holds test index 5, outside 0 … 4"),
        ([([], [0, 1, 2, 3, 4]), ([], [])], r"split 1 has no test instances"),
        ([[0, 1, 2, 3, 4]], r"split 0 is not a \(train indices, test indices\) pair"),
    ],
)
def test_bad_splits_are_refused(splits, message) -> None:
    with pytest.raises(InputError, match=message):
        folds_of(splits, 5)
    with pytest.raises(InputError, match=message):
        cv(list("aabba"), list("abbba"), splits)


def test_cv_refuses_a_splitter_and_a_short_fold_array() -> None:
    with pytest.raises(OptionError, match=r"pass splitter\.split\(X, y\)"):
        cv(list("aabba"), list("abbba"), KFold(5))
    with pytest.raises(InputError, match="4 entries for 5 instances"):
        cv(list("aabba"), list("abbba"), [0, 0, 1, 1])


def test_cv_of_multilabel_indicators(multilabel_data) -> None:
    X, Y = multilabel_data
    splitter = KFold(4, shuffle=True, random_state=0)
    pred = cross_val_predict(KNeighborsClassifier(), X, Y, cv=splitter)
    result = cv(Y, pred, splitter.split(X, Y), multilabel=True, labels=["w", "x", "y", "z"])
    assert result.pooled.labels == ("w", "x", "y", "z")
    for name in ("macro", "micro", "samples"):
        expected = _quiet_f1(Y, pred, average=name)
        assert result.pooled.averages[name]["f"] == pytest.approx(expected, rel=1e-12), name
    for (_, test), fold in zip(splitter.split(X, Y), result.folds):
        assert fold.averages["samples"]["f"] == pytest.approx(_quiet_f1(Y[test], pred[test], average="samples"))


def test_import_clfeval_does_not_import_sklearn() -> None:
    code = (
        "import sys, clfeval; clfeval.score([1, 2], [1, 1]); assert 'clfeval.sklearn' not in sys.modules\n"
        "import clfeval.sklearn; assert 'sklearn' not in sys.modules, 'sklearn imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_fold_outside_the_declared_labels_is_refused_not_scored_zero() -> None:
    """Declared labels that match none of the fold's would leave every average at 0: refused, with the remedy;
    declared booleans (a list or an array) name the labels as a boolean y's are named."""

    class Echo:  # predicts its input
        classes_ = np.array([False, True])

        def predict(self, X: np.ndarray) -> np.ndarray:
            return X

    y = np.array([True, False, True, True])
    pred = np.array([True, False, False, True])
    expected = f1_score(y, pred, average="macro")
    assert scorer("macro.f1", labels=[False, True])(Echo(), pred, y) == pytest.approx(expected, rel=1e-12)
    assert scorer("macro.f1", labels=np.array([False, True]))(Echo(), pred, y) == pytest.approx(expected, rel=1e-12)
    with pytest.raises(InputError, match=r"the fold holds labels outside the declared labels \('yes', 'no'\)"):
        scorer("macro.f1", labels=["yes", "no"])(Echo(), pred, y)
