"""Invariances every measure must satisfy, driven by the AVERAGES registry (after scikit-learn's test_common)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval import AVERAGES
from clfeval.count import ConfusionCounts, LabelSetCounts

LABELS = ["a", "b", "c", "d"]
pairs = st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=2, max_size=50)
ml_pairs = st.lists(
    st.tuples(st.lists(st.sampled_from(LABELS), max_size=3), st.lists(st.sampled_from(LABELS), max_size=3)),
    min_size=2,
    max_size=40,
)


def _all_values(result) -> dict:
    return {(name, m): v[m] for name, v in result.averages.items() for m in ("precision", "recall", "f")}


@settings(max_examples=60, deadline=None)
@given(pairs, st.randoms(use_true_random=False))
def test_instance_order_does_not_matter(data, rnd) -> None:
    shuffled = list(data)
    rnd.shuffle(shuffled)
    a = clfeval.score([g for g, _ in data], [p for _, p in data])
    b = clfeval.score([g for g, _ in shuffled], [p for _, p in shuffled])
    assert _all_values(a) == pytest.approx(_all_values(b))


@settings(max_examples=60, deadline=None)
@given(pairs)
def test_renaming_labels_does_not_matter(data) -> None:
    rename = {"a": "zeta", "b": "alpha", "c": "mid", "d": "beta"}
    a = clfeval.score([g for g, _ in data], [p for _, p in data])
    b = clfeval.score([rename[g] for g, _ in data], [rename[p] for _, p in data])
    assert _all_values(a) == pytest.approx(_all_values(b))
    for lab, row in a.per_label.items():
        assert row == b.per_label[rename[lab]]


@settings(max_examples=60, deadline=None)
@given(pairs, st.integers(1, 49))
def test_counts_of_chunks_add_up_to_the_whole(data, cut) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    cut = min(cut, len(data) - 1)
    whole = clfeval.count_labels(gold, pred)
    parts = clfeval.count_labels(gold[:cut], pred[:cut]) + clfeval.count_labels(gold[cut:], pred[cut:])
    assert parts.with_labels(whole.labels).cells.tolist() == whole.cells.tolist()
    assert sum(
        [clfeval.count_labels(gold[:cut], pred[:cut]), clfeval.count_labels(gold[cut:], pred[cut:])]
    ).n_instances == len(data)


@settings(max_examples=60, deadline=None)
@given(ml_pairs, st.integers(1, 39))
def test_multilabel_counts_of_chunks_add_up(data, cut) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    cut = min(cut, len(data) - 1)
    whole = clfeval.score(gold, pred, multilabel=True, labels=LABELS)
    parts = clfeval.count_label_sets(gold[:cut], pred[:cut]) + clfeval.count_label_sets(gold[cut:], pred[cut:])
    assert _all_values(clfeval.score_counts(parts, labels=LABELS)) == pytest.approx(_all_values(whole))


@settings(max_examples=60, deadline=None)
@given(pairs)
def test_macro_is_the_mean_of_per_label_values(data) -> None:
    r = clfeval.score([g for g, _ in data], [p for _, p in data])
    for measure in ("precision", "recall", "f"):
        per = [getattr(row, measure) for row in r.per_label.values()]
        assert r.averages["macro"][measure] == pytest.approx(np.mean(per))
        support = np.array([row.support for row in r.per_label.values()])
        assert r.averages["weighted"][measure] == pytest.approx(np.dot(per, support) / support.sum())


@pytest.mark.parametrize("name", [n for n, a in AVERAGES.items() if "single-label" in a.tasks])
def test_every_single_label_average_is_reported_and_bounded(name) -> None:
    r = clfeval.score(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    assert set(r.averages) == {n for n, a in AVERAGES.items() if "single-label" in a.tasks}
    assert all(0.0 <= v <= 1.0 for v in r.averages[name].values())


def test_confusion_counts_align_by_label() -> None:
    a = ConfusionCounts(("x", "y"), np.array([[1, 2], [3, 4]]))
    b = ConfusionCounts(("y", "z"), np.array([[10, 0], [0, 5]]))
    total = a + b
    assert total.labels == ("x", "y", "z")
    assert total.cells.tolist() == [[1, 2, 0], [3, 14, 0], [0, 0, 5]]


def test_multilabel_counts_with_different_policies_do_not_add() -> None:
    a = LabelSetCounts.from_instances([["a"]], [["a"]], duplicates="keep")
    b = LabelSetCounts.from_instances([["a"]], [["a"]], duplicates="collapse")
    with pytest.raises(clfeval.OptionError, match="different duplicates/empty policies"):
        a + b
