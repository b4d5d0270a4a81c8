"""The one contract of classes and score columns (clfeval.count.classes), through every entry point: classes in
scikit-learn's order, columns matched by name wherever the input names them, binary scores of the last class, and
probabilities checked (an error names the row; round-off is clipped and said). Issue 37's reproducers and more cases
of each."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest
from sklearn import metrics

import clfeval
from clfeval.cli import main
from clfeval.count.classes import checked_probabilities, class_order, score_layout
from clfeval.count.scored import ScoreCounts
from clfeval.errors import ClfevalError, InputError
from clfeval.scoring.scored import Conventions


@pytest.mark.parametrize("k", [3, 11, 12, 25])
def test_numeric_classes_are_ordered_by_value_as_scikit_learn_orders_them(k: int) -> None:
    """Issue 37, 1: twelve classes 0 … 11 with a perfect score each gave macro AUC 0.5455 (classes ordered as text);
    the columns are the classes in numeric order, as scikit-learn's ``np.unique``."""
    y = np.arange(k).repeat(5)
    p = np.eye(k)[y] * 0.9 + 0.1 / k
    rng = np.random.default_rng(k)
    noisy = rng.dirichlet(np.ones(k), size=len(y)) * 0.5 + p * 0.5
    for scores in (p, noisy):
        r = clfeval.score(y, scores=scores)
        assert r.counts.labels == tuple(str(i) for i in range(k))
        assert r["macro.auc"] == pytest.approx(metrics.roc_auc_score(y, scores, multi_class="ovr"), abs=1e-12)
        assert r["top_1_accuracy"] == pytest.approx(metrics.top_k_accuracy_score(y, scores, k=1), abs=1e-12)
        # the same through compare and cv, which share the contract
        c = clfeval.compare(y, scores={"a": scores, "b": p}, test="delong")
        assert c.results["a"]["macro.auc"] == pytest.approx(r["macro.auc"], abs=1e-12)
        folds = np.arange(len(y)) % 2
        cv = clfeval.cv(y, scores=scores, folds=folds)
        assert cv.pooled["macro.auc"] == pytest.approx(r["macro.auc"], abs=1e-12)


@pytest.mark.parametrize(("gold", "positive"), [([9, 10], "10"), ([2, 10], "10"), ([-1, 1], "1"), ([0.5, 2.0], "2")])
def test_binary_scores_belong_to_the_last_class_by_value(gold: list, positive: str) -> None:
    """Issue 37, 1: gold 9 and 10 took 9 as the positive class (AUC 0.0 where scikit-learn gives 1.0)."""
    y = np.array(gold * 3)
    s = np.where(y == y.max(), [0.9, 0.8, 0.7, 0.9, 0.8, 0.7][: len(y)], [0.1, 0.2, 0.3, 0.1, 0.2, 0.3][: len(y)])
    r = clfeval.score(y, scores=s)
    assert r.counts.columns == (positive,) and r.inputs["positive"] == positive
    assert r["auc"] == 1.0 == metrics.roc_auc_score(y == y.max(), s)


def test_a_predict_proba_array_of_two_columns_is_binary() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    p1 = np.clip(rng.normal(0.3 + 0.4 * y, 0.2), 0, 1)
    proba = np.column_stack([1 - p1, p1])
    two = clfeval.score(y, scores=proba)
    one = clfeval.score(y, scores=p1)
    assert two.task == "scored-binary" and two.counts.columns == ("1",)
    assert two["auc"] == one["auc"] == pytest.approx(metrics.roc_auc_score(y, p1), abs=1e-12)
    assert two["log_loss"] == pytest.approx(metrics.log_loss(y, proba), abs=1e-12)
    flipped = clfeval.score(y, scores=proba, positive=0)
    assert flipped["auc"] == pytest.approx(metrics.roc_auc_score(1 - y, proba[:, 0]), abs=1e-12)


@pytest.mark.parametrize("frame", ["pandas", "polars"])
def test_data_frame_columns_are_matched_by_name(frame: str) -> None:
    """Issue 37, 2: a data frame with columns c, a, b and labels a, b, c was read by position (AUC 0.25)."""
    rng = np.random.default_rng(5)
    y = np.array(list("abc") * 20)
    p = pd.get_dummies(y).astype(float).to_numpy() * 0.7 + rng.dirichlet(np.ones(3), size=len(y)) * 0.3
    expected = metrics.roc_auc_score(y, p, multi_class="ovr")
    df = pd.DataFrame({"c": p[:, 2], "a": p[:, 0], "b": p[:, 1]})
    given = df if frame == "pandas" else pl.from_pandas(df)
    for labels in (None, ["a", "b", "c"], ["c", "b", "a"]):
        r = clfeval.score(y, scores=given, labels=labels)
        assert r["macro.auc"] == pytest.approx(expected, abs=1e-12)
        assert r.inputs["columns_matched"] == "by name"
        assert r.counts.labels == tuple(labels or ["a", "b", "c"])
    c = clfeval.compare(y, scores={"x": given, "y": p}, labels=["a", "b", "c"], test="delong")
    assert c.pair("x", "y")["difference"] == pytest.approx(0.0, abs=1e-12)  # by name = the positional array
    cv = clfeval.cv(y, scores=given, folds=np.arange(len(y)) % 3)
    assert cv.pooled["macro.auc"] == pytest.approx(expected, abs=1e-12)


def test_columns_that_do_not_match_the_classes_are_named_in_one_error() -> None:
    y = ["a", "b", "c"]
    p = np.full((3, 3), 1 / 3)
    with pytest.raises(InputError, match=r"score column\(s\) 'c' match no class.*class\(es\) 'd' have no score column"):
        clfeval.score(y, scores=pd.DataFrame(p, columns=["c", "a", "b"]), labels=["a", "b", "d"])
    with pytest.raises(InputError, match="'a' is given twice"):
        clfeval.score(y, scores=pd.DataFrame(p, columns=["a", "a", "b"]))
    with pytest.raises(InputError, match="3 score columns but 2 classes"):
        clfeval.score(["a", "b", "a"], scores=p)
    layout = score_layout(["a", "b", "c"], 3)
    assert layout.matched == "by position" and layout.take is None


def test_class_order_and_layout_are_the_rule() -> None:
    assert class_order(["10", "9", "1.5"]) == ["1.5", "9", "10"]
    assert class_order(["b", "10", "a"]) == ["10", "a", "b"]  # not every name a number: as text
    assert class_order(["True", "False"]) == ["False", "True"]
    assert score_layout(["x", "y"], None).columns == ("y",)
    assert score_layout(["x", "y"], None, positive="x").columns == ("x",)
    with pytest.raises(ClfevalError, match="positive= names the class of binary scores"):
        score_layout(["a", "b", "c"], 3, positive="a")


def test_probabilities_are_checked_or_said_not_to_be() -> None:
    """Issue 37, 6: one score above 1 (even 1 + 2e-16) or a row not summing to 1 silently turned the probability
    measures off. Beyond round-off it is an error naming the row; round-off is clipped and said."""
    with pytest.raises(InputError, match=r"scores\[2\]: the score 1.5 is not a probability"):
        clfeval.score([0, 1, 1], scores=[0.2, 0.9, 1.5])
    with pytest.raises(InputError, match=r"scores\[1\]: the class probabilities .* sum to 1.2"):
        clfeval.score([0, 1, 2], scores=[[0.8, 0.1, 0.1], [0.4, 0.4, 0.4], [0.1, 0.1, 0.8]])
    with pytest.raises(InputError, match=r"scores\[0\]: the class probabilities"):
        clfeval.score([0, 1], scores=[[0.5, 0.6], [0.3, 0.7]])  # two columns: binary, but the row must sum to 1
    r = clfeval.score([0, 1, 1, 0], scores=[0.2, 1.0000000000000002, 0.7, -1e-17])
    assert "log_loss" in r and "2 probabilities" in r.inputs["clipped"]
    said = clfeval.score([0, 1, 1], scores=[0.2, 0.9, 1.5], conventions=Conventions(not_probabilities=True))
    assert "log_loss" not in said and said["auc"] == 1.0
    with pytest.raises(InputError, match=r"scores\['b'\]\[2\]: the score"):
        clfeval.compare([0, 1, 1], scores={"a": [0.2, 0.9, 0.7], "b": [0.2, 0.9, 1.5]})
    s, n = checked_probabilities(np.array([1 + 1e-7, 0.5]), rows_sum=False, where="x")
    assert n == 1 and s.max() == 1.0


def test_counts_that_are_no_probabilities_are_refused_unless_said() -> None:
    counts = ScoreCounts(("0", "1"), ("1",), np.array([0, 1]), np.array([[-2.0], [3.0]]), np.array([1, 1]))
    with pytest.raises(ClfevalError, match=r"not probabilities.*not_probabilities"):
        clfeval.score(counts)
    assert clfeval.score(counts, conventions=Conventions(not_probabilities=True))["auc"] == 1.0


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_matches_glob_columns_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37, 2: ``--scores 'p_*' --labels r1.labels`` with a labels file ``c a b`` renamed the columns by
    position (macro AUC 0.2083 for 1.0)."""
    rng = np.random.default_rng(9)
    y = np.array(list("abc") * 30)
    p = pd.get_dummies(y).astype(float).to_numpy() * 0.8 + rng.dirichlet(np.ones(3), size=len(y)) * 0.2
    path = tmp_path / "r1.csv"
    pd.DataFrame({"gold": y, "p_a": p[:, 0], "p_b": p[:, 1], "p_c": p[:, 2]}).to_csv(path, index=False)
    (tmp_path / "r1.labels").write_text("c\na\nb\n")
    expected = metrics.roc_auc_score(y, p, multi_class="ovr")
    for extra in ([], ["--labels", str(tmp_path / "r1.labels")]):
        code, out, err = _run(["score", str(path), "--gold-col", "gold", "--scores", "p_*", *extra, "--format", "json"],
                              capsys)  # fmt: skip
        assert code == 0, err
        found = json.loads(out)
        assert found["scores"]["macro.auc"] == pytest.approx(expected, abs=1e-12)
        assert found["inputs"]["score_columns"] == ["p_a", "p_b", "p_c"]  # the file's own column names
        assert found["inputs"]["columns_matched"] == "by name"
    (tmp_path / "bad.labels").write_text("a\nb\nd\n")
    code, _, err = _run(["score", str(path), "--gold-col", "gold", "--scores", "p_*", "--labels",
                         str(tmp_path / "bad.labels")], capsys)  # fmt: skip
    assert code == 2 and "'c' match no class" in err and "'d' have no score column" in err


def test_the_command_line_names_the_line_that_is_no_probability(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.csv"
    path.write_text("gold,p\n0,0.2\n1,0.8\n1,1.0000000000000002\n0,1.2\n")
    code, _, err = _run(["score", str(path), "--gold-col", "gold", "--scores", "p"], capsys)
    assert code == 2 and "s.csv:5: the score 1.2 is not a probability" in err and "--not-probabilities" in err
    code, out, err = _run(["score", str(path), "--gold-col", "gold", "--scores", "p", "--not-probabilities",
                           "--format", "json"], capsys)  # fmt: skip
    assert code == 0 and "log_loss" not in json.loads(out)["scores"]
    path.write_text("gold,p\n0,0.2\n1,0.8\n1,1.0000000000000002\n0,0.1\n")
    code, out, err = _run(["score", str(path), "--gold-col", "gold", "--scores", "p", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["inputs"]["clipped"].startswith("1 probabilities")


def test_numeric_classes_in_a_file_are_ordered_by_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.csv"
    path.write_text("gold,p\n" + "".join(f"{g},{s}\n" for g, s in [(9, 0.1), (10, 0.9), (9, 0.2), (10, 0.8)]))
    code, out, err = _run(["score", str(path), "--gold-col", "gold", "--scores", "p", "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)["scores"]["auc"] == 1.0


@pytest.mark.parametrize("test", ["ar", "bootstrap", "delong"])
def test_every_scored_test_honours_the_alternative_alpha_and_baseline(test: str) -> None:
    """Issue 37, 3: alternative, alpha and baseline were dropped for scored predictions."""
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 120)
    good = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
    bad = np.clip(rng.normal(0.45 + 0.1 * y, 0.2), 0, 1)
    worse = np.clip(rng.normal(0.5, 0.2, 120), 0, 1)
    systems = {"good": good, "bad": bad, "worse": worse}
    p = {}
    for alternative in ("two-sided", "greater", "less"):
        t = clfeval.Test(test, rounds=499, seed=1, alternative=alternative, alpha=0.01)
        c = clfeval.compare(y, scores=systems, test=t, baseline="worse")
        assert c.alternative == alternative and c.alpha == 0.01 and f"{test},{alternative}" in c.signature
        assert [(q["a"], q["b"]) for q in c.pairs] == [("good", "worse"), ("bad", "worse")]
        assert c.to_dict()["comparisons"] == "baseline"
        p[alternative] = c.pair("good", "worse")["p_value"]
        assert all(q["significant"] == (q["p_adjusted"] < 0.01) for q in c.pairs)
    assert p["greater"] <= p["two-sided"] and p["less"] > 0.5  # good's AUC is higher: d > 0
    if test == "delong":
        assert p["greater"] == pytest.approx(p["two-sided"] / 2, rel=1e-12)
        assert p["less"] == pytest.approx(1 - p["two-sided"] / 2, rel=1e-12)


def test_tests_that_do_not_apply_to_scores_are_refused() -> None:
    y, s = [0, 1, 0, 1], {"a": [0.1, 0.9, 0.2, 0.8], "b": [0.2, 0.8, 0.3, 0.7]}
    for name in ("mcnemar", "sign"):
        with pytest.raises(ClfevalError, match="with scores use"):
            clfeval.compare(y, scores=s, test=name)
    with pytest.raises(ClfevalError, match="unknown baseline"):
        clfeval.compare(y, scores=s, baseline="c")
    with pytest.raises(ClfevalError, match="DeLong's test compares scored counts"):
        clfeval.compare(y, {"a": [0, 1, 0, 1], "b": [1, 1, 0, 1]}, test="delong")
    with pytest.raises(ClfevalError, match="delong intervals are for scored counts"):
        clfeval.score([0, 1, 1], [0, 1, 0], ci="delong")
    assert clfeval.CI("delong").method == "delong"  # one registry: the group takes every method


def test_every_cross_validation_answers_by_name() -> None:
    """Issue 37, 6: the cv result could not be indexed. Both kinds answer r[name] (the pooled score),
    r["mean_of_folds.<name>"], r["sd.<name>"] and r.interval(name), in the score's naming scheme."""
    labels = clfeval.cv(["a", "b", "a", "b", "a", "b"], ["a", "b", "b", "b", "a", "a"], folds=[0, 0, 0, 1, 1, 1],
                        ci="delta")  # fmt: skip
    assert labels["macro.f1"] == labels.pooled["macro.f1"] == labels["pooled.macro.f1"]
    assert labels["mean_of_folds.macro.f1"] == pytest.approx(np.mean([f["macro.f1"] for f in labels.folds]))
    assert labels.interval("macro.f1") == labels.pooled.interval("macro.f1")
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    s = np.clip(rng.normal(0.3 + 0.4 * y, 0.2), 0, 1)
    scored = clfeval.cv(y, scores=s, folds=np.arange(60) % 3, ci="delong")
    assert scored["auc"] == scored.pooled["auc"] and "sd.auc" in scored
    assert scored["sd.auc"] == pytest.approx(np.std([f["auc"] for f in scored.folds], ddof=1))
    assert scored.interval("auc") == scored.pooled.interval("auc")
    with pytest.raises(ClfevalError, match="unknown score 'nonsense'"):
        scored["nonsense"]


# -- the review of the contract (each a silent wrong number before it was fixed) ---------------------------------------


def test_string_labels_that_spell_numbers_order_as_text_as_scikit_learn_does() -> None:
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    x = rng.normal(size=(600, 5))
    ys = ((x[:, 0] * 3).round().clip(-5, 6).astype(int) + 5).astype(str)  # classes_ '0', '1', '10', '11', '2' …
    model = LogisticRegression(max_iter=2000).fit(x, ys)
    p = model.predict_proba(x)
    r = clfeval.score(ys, scores=p)
    assert list(r.counts.labels) == list(model.classes_)
    assert r["macro.auc"] == pytest.approx(metrics.roc_auc_score(ys, p, multi_class="ovr"), abs=1e-12)
    assert r["top_1_accuracy"] == pytest.approx(metrics.top_k_accuracy_score(ys, p, k=1), abs=1e-12)
    yb = np.where(x[:, 0] > 0, "10", "9")  # classes_ ['10', '9']: the positive class is '9'
    binary = LogisticRegression().fit(x, yb)
    s = binary.predict_proba(x)[:, 1]
    assert clfeval.score(yb, scores=s)["auc"] == pytest.approx(metrics.roc_auc_score(yb, s), abs=1e-12)


def test_one_named_column_is_the_class_it_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y = np.array(["cat", "dog"] * 4)
    s = np.array([0.2, 0.9, 0.3, 0.8, 0.1, 0.7, 0.4, 0.6])  # P(dog)
    r = clfeval.score(y, scores=pd.DataFrame({"cat": 1 - s}))
    assert r["auc"] == 1.0 and r.inputs["positive"] == "cat"
    with pytest.raises(InputError, match="of two classes"):
        clfeval.score(y, scores=pd.DataFrame({"zebra": s}))
    with pytest.raises(ClfevalError, match="named 'cat', but positive= says 'dog'"):
        clfeval.score(y, scores=pd.DataFrame({"cat": 1 - s}), positive="dog")
    path = tmp_path / "one.csv"
    path.write_text("gold,p_cat\n" + "".join(f"{g},{1 - v}\n" for g, v in zip(y, s)))
    code, out, err = _run(["score", str(path), "--gold-col", "gold", "--scores", "p_*", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["scores"]["auc"] == 1.0 and json.loads(out)["positive"] == "cat", err
    (tmp_path / "two.csv").write_text("gold,p_a,p_b\na,0.9,0.1\nb,0.2,0.8\n")
    code, _, err = _run(["score", str(tmp_path / "two.csv"), "--gold-col", "gold", "--scores", "p_?"], capsys)
    assert code == 2 and "names no classes" in err


def test_a_gold_matrix_follows_its_own_names_or_the_class_order_never_the_scores_columns() -> None:
    rng = np.random.default_rng(1)
    y = (rng.random((80, 3)) < 0.4).astype(int)
    s = np.clip(y * 0.3 + rng.random((80, 3)) * 0.7, 0, 1)
    expected = metrics.roc_auc_score(y, s, average="macro")
    permuted = pd.DataFrame(s[:, [2, 0, 1]], columns=["z", "x", "y"])
    sets = [[label for label, v in zip("xyz", row) if v] for row in y]
    for gold in (sets, y, pd.DataFrame(y, columns=["x", "y", "z"]), pd.DataFrame(y[:, [1, 2, 0]], columns=list("yzx"))):
        assert clfeval.score(gold, scores=permuted, multilabel=True)["macro.auc"] == pytest.approx(expected, abs=1e-12)
    ordered = pd.DataFrame(s, columns=["x", "y", "z"])
    for systems in ({"A": permuted, "B": ordered}, {"B": ordered, "A": permuted}):
        c = clfeval.compare(y, scores=systems, multilabel=True, test="delong")
        assert c.score("A", "macro.auc") == pytest.approx(expected, abs=1e-12)
        assert c.pair("A", "B").difference == pytest.approx(0.0, abs=1e-12)


def test_the_accumulator_takes_the_contract() -> None:
    rng = np.random.default_rng(2)
    y = np.array(list("abc") * 20)
    p = pd.get_dummies(y).astype(float).to_numpy() * 0.6 + rng.dirichlet(np.ones(3), size=len(y)) * 0.4
    frame = pd.DataFrame(p[:, [2, 0, 1]], columns=["c", "a", "b"])
    acc = clfeval.Accumulator("scored", labels=["a", "b", "c"])
    acc.update(y[:30], frame.iloc[:30])
    acc.update(y[30:], p[30:])
    assert acc.score()["macro.auc"] == pytest.approx(clfeval.score(y, scores=frame)["macro.auc"], abs=1e-12)
    yb = rng.integers(0, 2, 50)
    p1 = np.clip(rng.normal(0.3 + 0.4 * yb, 0.2), 0, 1)
    binary = clfeval.Accumulator("scored", labels=[0, 1])
    binary.update(yb, np.column_stack([1 - p1, p1]))  # predict_proba: binary, as clfeval.score takes it
    assert binary.counts.columns == ("1",) and binary.score()["auc"] == clfeval.score(yb, scores=p1)["auc"]
    flags = clfeval.Accumulator("scored", labels=[False, True])
    flags.update(yb.astype(bool), p1)
    assert flags.counts.labels == clfeval.score(yb.astype(bool), scores=p1).counts.labels == ("False", "True")


def test_a_count_file_refuses_classes_it_was_not_counted_under(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "b.csv"
    path.write_text("gold,p\n9,0.1\n10,0.9\n9,0.2\n10,0.7\n9,0.6\n")
    counts = tmp_path / "b9.json"
    assert _run(["count", str(path), "--gold-col", "gold", "--scores", "p", "--positive", "9", "-o", str(counts)],
                capsys)[0] == 0  # fmt: skip
    code, _, err = _run(["score", "--counts", str(counts), "--positive", "10"], capsys)
    assert code == 2 and "positive class '9'" in err and "positive= says '10'" in err
    code, out, _ = _run(["score", "--counts", str(counts), "--positive", "9", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["positive"] == "9"
    loaded = clfeval.load_counts(str(counts))
    with pytest.raises(ClfevalError, match="counted over the classes"):
        clfeval.score(loaded, labels=["9", "10", "11"])


def test_a_scored_pair_draws_the_same_whatever_other_systems_are_compared() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 150)
    a, b = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1), np.clip(rng.normal(0.4 + 0.18 * y, 0.2), 0, 1)
    c = np.clip(rng.normal(0.5, 0.2, 150), 0, 1)
    for name in ("bootstrap", "ar"):
        test = clfeval.Test(name, rounds=300, seed=7)
        found = {
            clfeval.compare(y, scores=systems, test=test).pair("A", "B").p_value
            for systems in ({"A": a, "B": b}, {"A": a, "B": b, "C": c}, {"C": c, "A": a, "B": b})
        }
        assert len(found) == 1, (name, found)


def test_options_a_scored_test_cannot_honour_are_refused_and_old_names_named() -> None:
    y, s = [0, 1, 0, 1], {"A": [0.1, 0.9, 0.2, 0.8], "B": [0.2, 0.8, 0.3, 0.7]}
    with pytest.raises(ClfevalError, match="its own interval of the difference"):
        clfeval.compare(y, scores=s, test="delong", ci="bootstrap")
    p = np.full((6, 3), 1 / 3)
    with pytest.raises(ClfevalError, match=r"it is named 'macro\.auc'"):
        clfeval.compare([0, 1, 2] * 2, scores={"A": p, "B": p}, metrics=["auc.macro"], test="bootstrap")
    cv = clfeval.cv([0, 1, 2] * 2, scores=p, folds=[0, 1] * 3)
    with pytest.raises(ClfevalError, match=r"it is named 'macro\.auc'"):
        cv["auc.macro"]


def test_a_scored_report_as_csv_writes_its_intervals_as_numbers() -> None:
    """A column of intervals is two columns of numbers (it was the repr of the table's Bounds cell)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    s = np.clip(rng.normal(0.3 + 0.4 * y, 0.2), 0, 1)
    r = clfeval.score(y, scores=s, ci="delong")
    text = r.render("csv")
    assert "Bounds" not in text
    header, first = text.splitlines()[:2]
    assert "95% CI low,95% CI high" in header
    low, high = r.interval("auc")
    assert first.split(",")[4:6] == [repr(low), repr(high)]


def test_a_frame_with_default_column_labels_is_positional() -> None:
    """``pd.DataFrame(model.predict_proba(X))`` has columns 0 … K−1 (polars: column_0 …) that name no class: the
    columns are the classes in order, as for the array."""
    y = np.array(list("abc") * 4)
    p = pd.get_dummies(y).astype(float).to_numpy() * 0.8 + 0.2 / 3
    expected = clfeval.score(y, scores=p)["macro.auc"]
    for frame in (pd.DataFrame(p), pl.DataFrame(p)):
        r = clfeval.score(y, scores=frame)
        assert r["macro.auc"] == expected and r.inputs["columns_matched"] == "by position"
