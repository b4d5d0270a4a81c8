"""Scoring details: label-set policies, zero division, lfb weights, and the split-count matrix against a
straightforward per-instance reference implementation."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import clfeval
from clfeval.count import EMPTY_LABEL


def reference_split_matrix(gold, pred, labels):
    """Van Asch §5.2 written instance by instance, as plainly as possible."""
    names = list(labels) + ["∅"]
    k = len(names)
    row_view, col_view = np.zeros((k, k)), np.zeros((k, k))
    for g, p in zip(gold, pred):
        g_left, p_left = Counter(g), Counter(p)
        for lab in list(g_left):
            while g_left[lab] and p_left[lab]:
                i = names.index(lab)
                row_view[i, i] += 1
                col_view[i, i] += 1
                g_left[lab] -= 1
                p_left[lab] -= 1
        g_list = [lab for lab, c in g_left.items() for _ in range(c)]
        p_list = [lab for lab, c in p_left.items() for _ in range(c)]
        for gl in g_list:
            for pl_ in p_list:
                row_view[names.index(gl), names.index(pl_)] += 1 / len(p_list)
                col_view[names.index(gl), names.index(pl_)] += 1 / len(g_list)
            if not p_list:
                row_view[names.index(gl), k - 1] += 1
                col_view[names.index(gl), k - 1] += 1
        if not g_list:
            for pl_ in p_list:
                row_view[k - 1, names.index(pl_)] += 1
                col_view[k - 1, names.index(pl_)] += 1
    return row_view, col_view


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("duplicates", ["keep", "collapse"])
def test_split_matrix_matches_reference(seed: int, duplicates: str) -> None:
    rnd = random.Random(seed)
    labs = ["A", "B", "C", "D"]
    gold = [[rnd.choice(labs) for _ in range(rnd.randint(0, 3))] for _ in range(200)]
    pred = [[rnd.choice(labs) for _ in range(rnd.randint(0, 3))] for _ in range(200)]
    r = clfeval.score(
        gold, pred, multilabel=clfeval.MultiLabel(duplicates=duplicates), scoring=clfeval.Scoring(labels=labs)
    )
    if duplicates == "collapse":
        gold, pred = [sorted(set(g)) for g in gold], [sorted(set(p)) for p in pred]
    row_view, col_view = reference_split_matrix(gold, pred, labs)
    np.testing.assert_allclose(r.confusion.gold_view, row_view, atol=1e-9)
    np.testing.assert_allclose(r.confusion.predicted_view, col_view, atol=1e-9)
    support = Counter(lab for g in gold for lab in g)
    predicted = Counter(lab for p in pred for lab in p)
    np.testing.assert_allclose(r.confusion.gold_view.sum(axis=1)[:4], [support[x] for x in labs])
    np.testing.assert_allclose(r.confusion.predicted_view.sum(axis=0)[:4], [predicted[x] for x in labs])
    for lab in labs:  # per-label counts against the same plain definitions
        row = r.per_label[lab]
        tp = sum(min(g.count(lab), p.count(lab)) for g, p in zip(gold, pred))
        assert (row.tp, row.support, row.predicted) == (tp, support[lab], predicted[lab])
        assert row.tn == sum(lab not in g and lab not in p for g, p in zip(gold, pred))


def test_empty_set_as_its_own_label() -> None:
    gold, pred = [["A"], [], []], [["A"], [], ["B"]]
    ignored = clfeval.score(gold, pred, multilabel=True)
    assert EMPTY_LABEL not in ignored.labels
    as_label = clfeval.score(gold, pred, multilabel=clfeval.MultiLabel(empty="label"))
    none = as_label.per_label[EMPTY_LABEL]
    assert (none.tp, none.fn, none.fp) == (1, 1, 0)
    with pytest.raises(clfeval.InputError, match="cannot co-occur"):
        clfeval.score([["NONE", "A"]], [["A"]], multilabel=clfeval.MultiLabel(empty="label"))


def test_gold_label_set_leaves_predicted_only_labels_out() -> None:
    gold, pred = ["A", "A", "B", "B"], ["A", "C", "B", "C"]
    union = clfeval.score(gold, pred)
    strict = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels_from="gold"))
    assert strict.labels == ("A", "B") and strict.label_source == "gold"
    assert union.averages["micro"]["precision"] == pytest.approx(union.accuracy)
    assert strict.averages["micro"]["precision"] == pytest.approx(1.0)  # C's false positives are outside L
    assert strict.averages["micro"]["recall"] == pytest.approx(0.5)
    assert strict.accuracy == union.accuracy  # accuracy never depends on L
    assert any("outside the label set (gold): 'C'" in w for w in strict.warnings)
    assert strict.confusion.n_instances == 4


def test_macro_depends_on_the_label_set_as_van_asch_warns() -> None:
    """Van Asch §4.1: the same per-label F1s averaged over 3 or over 2 labels."""
    gold, pred = ["A", "B"], ["A", "B"]
    assert clfeval.score(gold, pred).averages["macro"]["f"] == 1.0
    assert clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=["A", "B", "C"])).averages["macro"][
        "f"
    ] == pytest.approx(2 / 3)


def test_lfb_with_training_frequencies_relative_within_the_label_set() -> None:
    gold, pred = ["A", "A", "B", "C"], ["A", "B", "B", "C"]
    train = ["A"] * 6 + ["B"] * 3 + ["C"]
    r = clfeval.score(gold, pred, scoring=clfeval.Scoring(train=train))
    assert r.lfb_source == "train" and r.labels == ("A", "B", "C")
    expected = 0.6 * r.per_label["A"].precision + 0.3 * r.per_label["B"].precision + 0.1 * r.per_label["C"].precision
    assert r.averages["lfb"]["precision"] == pytest.approx(expected)
    no_train = clfeval.score(gold, pred)
    assert no_train.lfb_source == "test"
    assert no_train.averages["lfb"]["recall"] == pytest.approx(no_train.averages["micro"]["recall"])  # Van Asch 3.3.2


def test_zero_division_choices_are_two_decisions() -> None:
    gold, pred = ["A", "A", "B"], ["A", "A", "A"]  # B never predicted: its precision is 0/0
    as_zero = clfeval.score(gold, pred)
    as_one = clfeval.score(gold, pred, scoring=clfeval.Scoring(zero_division=1))
    dropped = clfeval.score(gold, pred, scoring=clfeval.Scoring(zero_division=0, undefined="exclude"))
    p_a = 2 / 3
    assert as_zero.averages["macro"]["precision"] == pytest.approx(p_a / 2)
    assert as_one.averages["macro"]["precision"] == pytest.approx((p_a + 1) / 2)
    assert dropped.averages["macro"]["precision"] == pytest.approx(p_a)
    assert dropped.undefined["precision"] == ("B",)
    assert as_zero.per_label["B"].f == 0.0  # F is defined from counts: tp = 0 with fn > 0


def test_each_undefined_average_says_its_own_cause() -> None:
    """zero_division='nan' with undefined='exclude' warned 'use undefined=exclude' for every NaN average, micro
    included, although it was set and does not touch micro averages."""
    r = clfeval.score(
        ["0"], ["3"], scoring=clfeval.Scoring(labels=list("01234"), zero_division="nan", undefined="exclude")
    )
    nan_warnings = [w for w in r.warnings if "is undefined (NaN)" in w]
    assert nan_warnings and not any("use undefined" in w for w in r.warnings)
    by_average = {w.split(" is undefined")[0]: w for w in nan_warnings}
    assert set(by_average) == {
        f"{name} {m.replace('f', 'F') if m == 'f' else m}"
        for name, values in r.averages.items()
        for m, v in values.items()
        if v != v
    }
    assert "macro precision and macro recall are both 0" in by_average["macro_fa F"]
    assert "every label with weight in it ('0') has precision 0/0" in by_average["weighted precision"]
    r = clfeval.score(["a"], ["b"], scoring=clfeval.Scoring(labels=["c"], zero_division="nan", undefined="exclude"))
    micro = [w for w in r.warnings if w.startswith("micro ")]  # precision, recall, F and Jaccard: Σ counts are 0
    assert len(micro) == 4 and all("does not apply to micro averages" in w for w in micro)
    assert any(w.startswith("micro Jaccard is undefined (NaN): Σtp + Σfp + Σfn = 0") for w in micro)
    r = clfeval.score(
        ["a", "b"],
        ["a", "a"],
        scoring=clfeval.Scoring(labels=["a", "b", "c"], zero_division="nan", undefined="include"),
    )
    assert any(
        w.startswith("macro precision is undefined (NaN): 'b', 'c' have precision 0/0")
        and "--undefined exclude leaves them out" in w
        for w in r.warnings
    )
    # one label, always in gold: only specificity (tn + fp = 0) and what averages it are 0/0, and said so
    perfect = clfeval.score(["a"], ["a"], scoring=clfeval.Scoring(zero_division="nan")).warnings
    assert [w for w in perfect if "is undefined (NaN)" in w and "specificity" not in w] == []
    assert (
        "specificity is 0/0 for 1 label(s) in the gold labels of every instance: 'a'; set to nan and included in "
        "averages" in perfect
    )


def test_what_the_migration_table_says_about_the_original_scripts() -> None:
    """docs/original-scripts.md: where clfeval gives another number than confusionmatrix.py, and why."""
    # subset accuracy compares label lists as multisets under duplicates='keep' (the script compared sets)
    keep = clfeval.score([["A"]], [["A", "A"]], multilabel=True)
    collapse = clfeval.score([["A"]], [["A", "A"]], multilabel=clfeval.MultiLabel(duplicates="collapse"))
    assert keep.accuracy == 0.0 and keep.per_label["A"].fp == 1
    assert collapse.accuracy == 1.0 and collapse.per_label["A"].fp == 0
    # the split-count rule of Table 7: B's miss in x A_B A goes to (B, ∅), not to the matched A
    r = clfeval.score([["A", "B"]], [["A"]], multilabel=True)
    m = r.confusion
    cell = {(g, p): m.gold_view[i][j] for i, g in enumerate(m.labels) for j, p in enumerate(m.labels)}
    assert cell[("B", "∅")] == 1 and cell[("B", "A")] == 0 and cell[("A", "A")] == 1
    assert (r.per_label["A"].tp, r.per_label["B"].fn) == (1, 1)
    # test labels unseen in training are added to the 'train' label set, with a warning (the script left them out)
    r = clfeval.score(["a", "c"], ["a", "a"], scoring=clfeval.Scoring(train=["a", "b"]))
    assert r.labels == ("a", "b", "c") and any("'c'" in w and "training" in w for w in r.warnings)
    # one label set for every system (art.py scored each over its own labels)
    c = clfeval.compare(
        ["a", "b", "a"], {"X": ["a", "b", "a"], "Y": ["a", "a", "c"]}, metrics=["macro.f1"], test=clfeval.Test(seed=1)
    )
    assert c.results["X"].labels == c.results["Y"].labels == ("a", "b", "c")
