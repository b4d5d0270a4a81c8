"""The measure registry: every measure against scikit-learn and PyCM, its intervals, ``compare --metric`` and ``cv``.

Oracles: scikit-learn's ``matthews_corrcoef``, ``cohen_kappa_score`` (with ``weights``), ``balanced_accuracy_score``
(with ``adjusted``), ``jaccard_score`` (every ``average``), ``multilabel_confusion_matrix`` (NPV, FPR, FNR,
specificity from its tn, fp, fn, tp) and ``hamming_loss``; PyCM's ``ConfusionMatrix`` on random data, and the
worked values its documentation prints for its own example.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pycm import ConfusionMatrix
from sklearn.metrics import (
    balanced_accuracy_score,
    cohen_kappa_score,
    hamming_loss,
    jaccard_score,
    matthews_corrcoef,
    multilabel_confusion_matrix,
)
from sklearn.preprocessing import MultiLabelBinarizer

import clfeval
from clfeval.errors import OptionError
from clfeval.scoring.measures import MEASURES, averaged_measures, label_measures

LABELS = ["a", "b", "c", "d", "e"]
labels = st.sampled_from(LABELS)
pairs = st.lists(st.tuples(labels, labels), min_size=1, max_size=60)
label_sets = st.lists(st.sampled_from(LABELS), max_size=4, unique=True)
ml_pairs = st.lists(st.tuples(label_sets, label_sets), min_size=1, max_size=40)


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return fn(*args, **kw)


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def test_the_registry_is_complete_and_each_entry_defines_itself() -> None:
    assert [m.name for m in label_measures()] == [
        "precision",
        "recall",
        "f",
        "specificity",
        "npv",
        "fpr",
        "fnr",
        "jaccard",
    ]
    assert averaged_measures() == ("precision", "recall", "f", "specificity", "jaccard")
    assert clfeval.MEASURES is MEASURES
    for m in MEASURES.values():
        assert m.title and m.definition and m.undefined_when and m.scope in ("label", "overall")
        assert m.tasks <= {"single-label", "multi-label", "spans"} and m.low < m.high
        assert (m.denominator != "") == (m.scope == "label")
    single = [m.name for m in MEASURES.values() if m.scope == "overall" and "single-label" in m.tasks]
    assert single == [
        "accuracy",
        "hamming_loss",
        "micro_fpr",
        "balanced_accuracy",
        "balanced_accuracy_adjusted",
        "mcc",
        "kappa",
        "kappa_linear",
        "kappa_quadratic",
    ]
    lower = {name for name, m in MEASURES.items() if not m.higher_is_better}
    assert lower == {"fpr", "fnr", "hamming_loss", "micro_fpr"}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(pairs, st.sampled_from([0, 1]))
def test_single_label_measures_match_sklearn(data, zd) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    result = clfeval.score(gold, pred, scoring=clfeval.Scoring(zero_division=zd))
    labs = list(result.labels)
    table = list(result.confusion.labels)  # the order weighted κ takes
    mcm = multilabel_confusion_matrix(gold, pred, labels=labs)
    jac = _quiet(jaccard_score, gold, pred, labels=labs, average=None, zero_division=zd)
    for i, lab in enumerate(labs):
        tn, fp, fn, tp = mcm[i].ravel()
        row = result.per_label[lab]
        expect = {"specificity": (tn, tn + fp), "npv": (tn, tn + fn), "fpr": (fp, fp + tn), "fnr": (fn, fn + tp)}
        for name, (num, den) in expect.items():
            assert row[name] == pytest.approx(num / den if den else zd), (lab, name)
        assert row.jaccard == pytest.approx(jac[i])
    for average in ("micro", "macro", "weighted"):
        assert result.averages[average]["jaccard"] == pytest.approx(
            _quiet(jaccard_score, gold, pred, labels=labs, average=average, zero_division=zd)
        ), average
    if len(set(gold)) > 1 and len(set(pred)) > 1:
        assert result.overall["mcc"] == pytest.approx(_quiet(matthews_corrcoef, gold, pred), abs=1e-12)
    else:  # 0/0: chance level, 0, whatever zero_division 0 or 1 says (as scikit-learn)
        assert result.overall["mcc"] == 0 and _quiet(matthews_corrcoef, gold, pred) == 0
    assert result.overall["balanced_accuracy"] == pytest.approx(_quiet(balanced_accuracy_score, gold, pred))
    assert result.overall["hamming_loss"] == pytest.approx(hamming_loss(gold, pred))
    adjusted = _quiet(balanced_accuracy_score, gold, pred, adjusted=True)
    # one gold class: 0/0, chance level
    assert result.overall["balanced_accuracy_adjusted"] == (pytest.approx(adjusted) if math.isfinite(adjusted) else 0)
    for weights, name in ((None, "kappa"), ("linear", "kappa_linear"), ("quadratic", "kappa_quadratic")):
        expected = _quiet(cohen_kappa_score, gold, pred, labels=table, weights=weights)
        if math.isnan(expected):  # chance disagreement 0: 0/0, chance level
            assert result.overall[name] == 0.0
        else:
            assert result.overall[name] == pytest.approx(expected, abs=1e-12), name


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(ml_pairs, st.sampled_from([0, 1]))
def test_multilabel_measures_match_sklearn(data, zd) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    result = clfeval.score(gold, pred, multilabel=True, scoring=clfeval.Scoring(zero_division=zd, labels=LABELS))
    mlb = MultiLabelBinarizer(classes=LABELS).fit([LABELS])
    yg, yp = mlb.transform(gold), mlb.transform(pred)
    mcm = multilabel_confusion_matrix(yg, yp)
    jac = _quiet(jaccard_score, yg, yp, average=None, zero_division=zd)
    for i, lab in enumerate(LABELS):
        tn, fp, fn, tp = mcm[i].ravel()
        row = result.per_label[lab]
        assert (row.npv, row.fpr, row.fnr) == pytest.approx(
            (tn / (tn + fn) if tn + fn else zd, fp / (fp + tn) if fp + tn else zd, fn / (fn + tp) if fn + tp else zd)
        )
        assert row.jaccard == pytest.approx(jac[i])
    for average in ("micro", "macro", "samples"):
        assert result.averages[average]["jaccard"] == pytest.approx(
            _quiet(jaccard_score, yg, yp, average=average, zero_division=zd)
        ), average
    if yg.sum():
        assert result.averages["weighted"]["jaccard"] == pytest.approx(
            _quiet(jaccard_score, yg, yp, average="weighted", zero_division=zd)
        )
    assert result.hamming_loss == pytest.approx(hamming_loss(yg, yp))
    for name in ("mcc", "kappa", "balanced_accuracy"):
        assert name not in result.overall  # single-label only, as in scikit-learn


def test_samples_specificity_is_the_mean_of_each_instances_specificity() -> None:
    gold = [["a"], ["a", "b"], [], ["c"]]
    pred = [["a", "b"], ["b"], ["c"], ["c"]]
    result = clfeval.score(gold, pred, multilabel=True, scoring=clfeval.Scoring(labels=["a", "b", "c"]))
    # per instance over L = {a, b, c}: tn / (tn + fp) = 1/2, 1/1, 2/3, 2/2
    assert result.averages["samples"]["specificity"] == pytest.approx(np.mean([1 / 2, 1, 2 / 3, 1]))
    # Jaccard per instance: |G ∩ P| / |G ∪ P| = 1/2, 1/2, 0/1, 1/1
    assert result.averages["samples"]["jaccard"] == pytest.approx(np.mean([1 / 2, 1 / 2, 0, 1]))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=50))
def test_overall_measures_match_pycm(data) -> None:
    gold = [g for g, _ in data]
    pred = [p for _, p in data]
    assume(len(set(gold) | set(pred)) > 1)  # PyCM cannot build a one-class matrix
    result = clfeval.score(gold, pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cm = ConfusionMatrix(actual_vector=gold, predict_vector=pred)
    assert result.accuracy == pytest.approx(cm.overall_stat["Overall ACC"])
    if cm.overall_stat["Overall MCC"] != "None":
        assert result.overall["mcc"] == pytest.approx(cm.overall_stat["Overall MCC"], abs=1e-12)
    if cm.overall_stat["Kappa"] != "None":
        assert result.overall["kappa"] == pytest.approx(cm.overall_stat["Kappa"], abs=1e-12)
    for cls in cm.classes:
        row = result.per_label[str(cls)]
        for ours, theirs in (("specificity", "TNR"), ("npv", "NPV"), ("fpr", "FPR"), ("fnr", "FNR"), ("jaccard", "J")):
            value = getattr(cm, theirs)[cls]
            if value != "None":
                assert row[ours] == pytest.approx(value, abs=1e-12), (cls, ours)


def test_pycm_worked_example() -> None:
    """PyCM's documented example (its README, "Usage"): the values it prints, to its 5 decimals."""
    actual = [2, 0, 2, 2, 0, 1, 1, 2, 2, 0, 1, 2]
    predicted = [0, 0, 2, 1, 0, 2, 1, 0, 2, 0, 2, 2]
    r = clfeval.score(actual, predicted)
    assert round(r.accuracy, 5) == 0.58333
    assert round(r.overall["kappa"], 5) == 0.35484
    assert round(r.overall["mcc"], 5) == 0.36667
    assert round(r.overall["hamming_loss"], 5) == 0.41667
    expected = {
        "specificity": (0.77778, 0.88889, 0.66667),
        "npv": (1.0, 0.8, 0.57143),
        "fpr": (0.22222, 0.11111, 0.33333),
        "fnr": (0.0, 0.66667, 0.5),
        "jaccard": (0.6, 0.25, 0.375),
        "recall": (1.0, 0.33333, 0.5),
        "precision": (0.6, 0.5, 0.6),
    }
    for measure, values in expected.items():
        assert tuple(round(r.per_label[lab][measure], 5) for lab in ("0", "1", "2")) == values, measure
    # PyCM's weighted_kappa with quadratic weights on this example
    assert round(r.overall["kappa_quadratic"], 5) == 0.42105


def test_mcc_is_phi_for_two_labels_and_kappa_weights_follow_the_stated_order() -> None:
    gold = ["y", "y", "n", "n", "y", "n", "y", "y"]
    pred = ["y", "n", "n", "y", "y", "n", "y", "n"]
    r = clfeval.score(gold, pred)
    tp, fn, fp, tn = 3, 2, 1, 2  # y positive
    phi = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert r.overall["mcc"] == pytest.approx(phi)
    assert r.overall["kappa_linear"] == pytest.approx(r.overall["kappa"])  # two labels: every weighting agrees
    ordinal = ["low", "mid", "high", "mid", "low", "high", "mid", "low"]
    guess = ["mid", "mid", "low", "high", "low", "high", "high", "mid"]
    declared = clfeval.score(ordinal, guess, scoring=clfeval.Scoring(ordinal=["low", "mid", "high"]))
    assert declared.confusion.labels == ("low", "mid", "high")
    assert declared["kappa_quadratic"] == pytest.approx(
        cohen_kappa_score(ordinal, guess, labels=["low", "mid", "high"], weights="quadratic")
    )
    assert declared.order == ("low", "mid", "high")
    other = clfeval.score(ordinal, guess, ordinal=sorted(set(ordinal)))  # another order: high < low < mid
    assert other["kappa_quadratic"] != pytest.approx(declared["kappa_quadratic"])


def test_overall_measures_run_over_the_whole_matrix_whatever_the_label_set() -> None:
    gold = ["a", "b", "c", "a", "b", "c", "c"]
    pred = ["a", "c", "c", "b", "b", "a", "c"]
    whole = clfeval.score(gold, pred)
    subset = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=["a", "b"]))
    for name in ("accuracy", "mcc", "kappa", "balanced_accuracy", "hamming_loss"):
        assert subset.overall[name] == pytest.approx(whole.overall[name]), name
    assert subset.overall["mcc"] == pytest.approx(matthews_corrcoef(gold, pred))
    assert subset.overall["micro_fpr"] != pytest.approx(whole.overall["micro_fpr"])  # over L, as stated


def test_undefined_overall_measures_follow_the_zero_division_choice() -> None:
    same = clfeval.score(["a", "a"], ["a", "a"], scoring=clfeval.Scoring(zero_division="nan"))
    assert math.isnan(same.overall["mcc"]) and math.isnan(same.overall["kappa"])
    assert clfeval.score(["a", "a"], ["a", "a"]).overall["mcc"] == 0.0  # scikit-learn's value as well
    assert _quiet(matthews_corrcoef, ["a", "a"], ["a", "a"]) == 0.0
    r = clfeval.with_intervals(clfeval.score(["a", "a", "a"], ["a", "b", "a"]), "delta")
    assert "MCC is 0/0" in r.intervals.not_estimable[("mcc",)]  # gold is all one label
    # never 1 for a classifier that predicts the majority label everywhere, whatever zero_division says
    majority = clfeval.score(list("aaaaaaaaab"), list("a" * 10), scoring=clfeval.Scoring(zero_division=1))
    assert majority.overall["mcc"] == majority.overall["kappa"] == 0.0
    assert "MCC is 0/0 (every gold label, or every prediction, is the same label); set to 0 (chance level)" in (
        majority.warnings
    )
    undefined = clfeval.score(list("abab"), list("aaaa"), scoring=clfeval.Scoring(zero_division="nan"))
    assert any(w.startswith("MCC is 0/0") and w.endswith("set to nan") for w in undefined.warnings)


def test_each_warning_says_which_scores_it_bears_on() -> None:
    """Scores.warnings_about, which clfeval.hf and the scikit-learn scorer use to warn about what they return: a
    label's 0/0 bears on that measure of that label and on its averages that give the label weight (macro_fa's F
    on precision's and recall's), not on micro or the overall measures; an overall measure's 0/0 on that measure; a
    samples 0/0 on the samples average; a warning about the data or the label set on every score; and every warning
    bears on some score."""
    r = clfeval.score(list("aabd"), list("aaad"), scoring=clfeval.Scoring(labels=["a", "b", "c"]))
    outside, precision, recall, f = r.warnings[:4]  # b is in gold but never predicted; c is nowhere; d is outside
    assert "outside the label set" in outside and "'b', 'c'" in precision and "'c'" in recall and "'c'" in f

    def about(*key: str) -> tuple[str, ...]:
        return r.warnings_about(key)

    assert about("averages", "macro", "precision") == (outside, precision)
    assert about("averages", "macro", "recall") == (outside, recall)
    assert about("averages", "macro", "f") == about("averages", "macro", "jaccard") == (outside, f)
    assert about("averages", "macro_fa", "f") == (outside, precision, recall)  # F of macro precision and recall
    for average in ("weighted", "lfb"):  # c has weight 0 there (support 0, frequency 0); b does not
        assert about("averages", average, "precision") == (outside, precision), average
        assert about("averages", average, "f") == about("averages", average, "recall") == (outside,), average
    assert about("averages", "micro", "precision") == about("averages", "micro", "f") == (outside,)
    assert about("per_label", "a", "precision") == about("per_label", "b", "f") == (outside,)
    assert about("per_label", "b", "precision") == about("per_label", "c", "precision") == (outside, precision)
    assert about("per_label", "c", "f") == about("per_label", "c", "jaccard") == (outside, f)
    assert about("accuracy") == about("mcc") == (outside,)

    majority = clfeval.score(list("aab"), list("aaa"))
    (mcc,) = (w for w in majority.warnings if w.startswith("MCC is 0/0"))
    assert mcc in majority.warnings_about(("mcc",)) and mcc not in majority.warnings_about(("kappa",))
    assert mcc not in majority.warnings_about(("averages", "macro", "f"))

    ml = clfeval.score([["a"], [], ["b"]], [["b"], ["a"], []], multilabel=True, scoring=clfeval.Scoring(labels=["c"]))
    weighted = next(w for w in ml.warnings if w.startswith("weighted:"))
    lfb = next(w for w in ml.warnings if w.startswith("lfb:"))
    samples = tuple(w for w in ml.warnings if w.startswith("samples "))
    assert [w.split(" is 0/0")[0] for w in samples] == ["samples precision", "samples recall", "samples F"]
    outside_ml = ml.warnings[0]  # labels a and b are outside the declared set: that bears on everything
    assert ml.warnings_about(("averages", "samples", "precision")) == (outside_ml, samples[0])  # not recall's, F's
    assert ml.warnings_about(("averages", "samples", "jaccard")) == (outside_ml, samples[2])
    assert weighted in ml.warnings_about(("averages", "weighted", "f"))
    assert weighted not in ml.warnings_about(("averages", "macro", "f"))
    assert lfb in ml.warnings_about(("averages", "lfb", "recall")) and lfb not in ml.warnings_about(("hamming_loss",))
    assert set(ml.warnings_about(("averages", "samples", "f"))) & set(samples) == {samples[2]}
    assert not set(samples) & set(ml.warnings_about(("averages", "macro", "f")) + ml.warnings_about(("accuracy",)))
    # micro is 0/0 only when every label's denominator is: here nothing is predicted at all (scikit-learn warns too)
    silent = clfeval.score(
        [["a"], ["b"], ["a", "b"]], [[], [], []], multilabel=True, scoring=clfeval.Scoring(zero_division=1)
    )
    assert silent.averages["micro"]["precision"] == 1.0
    assert [w[:20] for w in silent.warnings_about(("averages", "micro", "precision"))] == ["precision is 0/0 for"]
    assert silent.warnings_about(("averages", "micro", "recall")) == ()
    assert about("per_label", "c", "fnr") == (outside, recall)  # FNR fails where recall does
    # an undefined (NaN) average bears on its own measure, not on the average's others
    nan = clfeval.score(list("aabb"), list("aaaa"), scoring=clfeval.Scoring(zero_division="nan"))
    (macro_p,) = (w for w in nan.warnings if w.startswith("macro precision is undefined"))
    assert macro_p in nan.warnings_about(("averages", "macro", "precision"))
    assert not nan.warnings_about(("averages", "macro", "f")) and not nan.warnings_about(
        ("averages", "macro", "recall")
    )
    for bad in (("averages", "macro"), ("per_label",), "accuracy", ()):
        with pytest.raises(OptionError, match="a score's key is"):
            r.warnings_about(bad)  # type: ignore[arg-type]
    for result in (r, majority, ml, silent, nan):
        keys = [("averages", a, m) for a, values in result.averages.items() for m in values]
        keys += [(m,) for m in result.overall]
        keys += [("per_label", lab, m) for lab, row in result.per_label.items() for m in row.values]
        assert set(result.warnings) == {w for key in keys for w in result.warnings_about(key)}


def test_weighted_kappa_takes_one_order_for_every_system_and_fold() -> None:
    """compare and cv give every system and fold the labels of all (the label set, then the others sorted), so a
    pair's difference is the difference of the scores it reports, and weighted κ's positions agree."""
    gold, a, b = list("abababab"), list("azabbzab"), list("abxbabxa")
    cmp = clfeval.compare(
        gold,
        {"A": a, "B": b},
        metrics=["kappa_linear", "kappa_quadratic"],
        test=clfeval.Test(rounds=200, seed=1),
        scoring=clfeval.Scoring(ordinal=["a", "b", "x", "z"]),  # weighted κ: an order that places every label
    )
    for pair in cmp.pairs:
        assert pair.difference == pytest.approx(pair.score_a - pair.score_b)
    assert cmp.results["A"].confusion.labels == cmp.results["B"].confusion.labels == ("a", "b", "x", "z")
    cv = clfeval.cv(gold + gold, a + b, [0] * 8 + [1] * 8, scoring=clfeval.Scoring(labels=["a", "b"]))
    assert {fold.confusion.labels for fold in cv.folds} == {cv.pooled.confusion.labels}


def test_kappa_at_a_billion_instances_keeps_its_digits() -> None:
    """The chance terms are sums of non-negative products, not differences of numbers near N²."""
    from fractions import Fraction

    counts = clfeval.ConfusionCounts(("a", "b"), [[10**9, 3], [5, 2]])
    n = 10**9 + 10
    po = Fraction(10**9 + 2, n)
    pe = Fraction((10**9 + 3) * (10**9 + 5) + 7 * 5, n**2)  # gold a: 10^9+3, b: 7; predicted a: 10^9+5, b: 5
    kappa = float((po - pe) / (1 - pe))  # exact
    assert clfeval.score(counts).overall["kappa"] == pytest.approx(kappa, rel=1e-12)


def test_new_measures_have_intervals_that_hold_their_estimates() -> None:
    rng = np.random.default_rng(3)
    gold = rng.choice(4, 3000, p=[0.4, 0.3, 0.2, 0.1])
    pred = np.where(rng.random(3000) < 0.7, gold, rng.integers(0, 4, 3000))
    base = clfeval.score(gold, pred)
    keys = [
        ("mcc",),
        ("kappa",),
        ("kappa_linear",),
        ("kappa_quadratic",),
        ("balanced_accuracy",),
        ("balanced_accuracy_adjusted",),
        ("hamming_loss",),
        ("averages", "macro", "jaccard"),
        ("averages", "weighted", "specificity"),
        ("per_label", "3", "npv"),
        ("per_label", "0", "fnr"),
    ]
    delta = clfeval.with_intervals(base, "delta")
    boot = clfeval.with_intervals(base, clfeval.CI("bootstrap", resamples=2000, seed=5))
    logit = clfeval.with_intervals(base, "delta-logit")
    for key in keys:
        estimate = (
            delta.overall[key[0]]
            if len(key) == 1
            else (delta.averages[key[1]][key[2]] if key[0] == "averages" else delta.per_label[key[1]][key[2]])
        )
        for result in (delta, boot, logit):
            low, high = result.intervals.get(key)
            assert low < estimate < high, (key, result.intervals.method)
        (dl, dh), (bl, bh) = delta.intervals.get(key), boot.intervals.get(key)
        assert abs(dl - bl) < 0.15 * (dh - dl) and abs(dh - bh) < 0.15 * (dh - dl), key


def test_new_measures_as_compare_metrics_and_in_cv() -> None:
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 3, 400)
    a = np.where(rng.random(400) < 0.8, gold, rng.integers(0, 3, 400))
    b = np.where(rng.random(400) < 0.6, gold, rng.integers(0, 3, 400))
    cmp = clfeval.compare(
        gold,
        {"a": a, "b": b},
        metrics=["mcc", "kappa_quadratic", "macro.jaccard", "per_label.1.npv", "hamming_loss"],
        test=clfeval.Test(rounds=500, seed=2),
        ordinal=[0, 1, 2],  # weighted κ reads the declared order
    )
    for metric in cmp.metrics:
        pair = cmp.pair("a", "b", metric)
        assert 0 < pair.p_value <= 1 and (pair.p_value < 0.01 or metric.startswith("per_label"))
        assert pair.difference == pytest.approx(cmp.score("a", metric) - cmp.score("b", metric))
    ranking = cmp.ranking("hamming_loss")  # lower is better: a first
    assert ranking[0]["system"] == "a"
    assert cmp.score("a", "mcc") == pytest.approx(matthews_corrcoef(gold, a))
    folds = rng.integers(0, 4, 400)
    cv = clfeval.cv(gold, a, folds)
    means = cv.mean_of_folds()
    fold_mcc = [matthews_corrcoef(gold[folds == k], a[folds == k]) for k in range(4)]
    assert means["mcc"] == pytest.approx(np.mean(fold_mcc)) and cv.pooled.overall["mcc"] == pytest.approx(
        matthews_corrcoef(gold, a)
    )
    assert means["averages"]["macro"]["jaccard"] == pytest.approx(
        np.mean([jaccard_score(gold[folds == k], a[folds == k], average="macro") for k in range(4)])
    )


def test_every_format_carries_every_measure() -> None:
    r = clfeval.score(["a", "b", "b", "c"], ["a", "b", "a", "c"], ci="delta", ordinal=["a", "b", "c"])
    data = r.to_dict()
    for m in label_measures():
        key = "f1" if m.name == "f" else m.name
        assert key in data["per_label"]["a"] and f"{key}_ci" in data["per_label"]["a"]
    for name in ("mcc", "kappa", "kappa_linear", "kappa_quadratic", "balanced_accuracy", "hamming_loss"):
        assert data[name] == pytest.approx(r.overall[name]) and data[f"{name}_ci"] is not None
    csv_text = r.render("csv")  # CSV (and JSON) hold every measure; the human formats with --measures all
    text = r.render("text", measures="all")
    markdown = r.render("markdown", measures="all")
    latex = r.render("latex", measures="all")
    html = r.render("html", measures="all")
    for m in MEASURES.values():
        if "single-label" not in m.tasks or m.name == "f":
            continue
        assert f",{m.name}," in csv_text, m.name
        for out in (text, markdown):
            assert m.title in out or m.title.replace("'", "’") in out, (m.name, out[:200])
        assert m.title.replace("κ", r"\ensuremath{\kappa}").replace("'", "'") in latex or m.scope == "label", m.name
        assert m.title.replace("'", "&#x27;") in html or m.title in html, m.name


def test_docs_list_every_measure_with_its_definition() -> None:
    """docs/measures.md has a row for every registry entry, with the registry's own definition (they cannot drift)."""
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "measures.md").read_text(encoding="utf-8")
    for m in MEASURES.values():
        row = next((line for line in text.splitlines() if line.startswith(f"| `{m.name}`")), None)
        assert row is not None, m.name
        assert m.definition.replace("|", "\\|") in row and m.title in row, m.name
