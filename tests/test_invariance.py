"""Invariances every measure must satisfy, driven by the MEASURES and AVERAGES registries (after scikit-learn's
test_common): every score a result reports, by its key, for every measure × every average and every overall
measure of the task."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval import AVERAGES
from clfeval.count import ConfusionCounts, LabelSetCounts
from clfeval.scoring.statistics import ScoreFunction

LABELS = ["a", "b", "c", "d"]
pairs = st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=2, max_size=50)
ml_pairs = st.lists(
    st.tuples(st.lists(st.sampled_from(LABELS), max_size=3), st.lists(st.sampled_from(LABELS), max_size=3)),
    min_size=2,
    max_size=40,
)


def _all_values(result, rename: dict | None = None) -> dict:
    """Every score of ``result`` by its key (per-label keys with their label renamed by ``rename``)."""
    keys = ScoreFunction.of(result).keys
    out = {}
    for key in keys:
        value = ScoreFunction.value_of(result, key)
        if rename and key[0] == "per_label":
            key = ("per_label", rename[key[1]], key[2])
        out[key] = value
    return out


def test_all_values_covers_every_registry_entry() -> None:
    from clfeval.scoring.averages import AVERAGED
    from clfeval.scoring.measures import MEASURES

    keys = set(_all_values(clfeval.score(["a", "b"], ["a", "a"])))
    for m in MEASURES.values():
        if "single-label" not in m.tasks:
            continue
        if m.scope == "label":
            assert ("per_label", "a", m.name) in keys
        else:
            assert (m.name,) in keys
    assert {
        ("averages", name, m) for name in ("micro", "macro", "macro_fa", "weighted", "lfb") for m in AVERAGED
    } <= keys


@settings(max_examples=60, deadline=None)
@given(pairs, st.randoms(use_true_random=False))
def test_instance_order_does_not_matter(data, rnd) -> None:
    shuffled = list(data)
    rnd.shuffle(shuffled)
    a = clfeval.score([g for g, _ in data], [p for _, p in data])
    b = clfeval.score([g for g, _ in shuffled], [p for _, p in shuffled])
    assert _all_values(a) == pytest.approx(_all_values(b), nan_ok=True)


@settings(max_examples=60, deadline=None)
@given(pairs)
def test_renaming_labels_does_not_matter(data) -> None:
    rename = {"a": "zeta", "b": "alpha", "c": "mid", "d": "beta"}
    # the same label order declared both ways (ordinal=): weighted κ reads it
    a = clfeval.score([g for g, _ in data], [p for _, p in data], scoring=clfeval.Scoring(ordinal=LABELS))
    b = clfeval.score(
        [rename[g] for g, _ in data],
        [rename[p] for _, p in data],
        scoring=clfeval.Scoring(ordinal=[rename[x] for x in LABELS]),
    )
    assert _all_values(a, rename) == pytest.approx(_all_values(b), nan_ok=True)
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
    whole = clfeval.score(gold, pred, multilabel=True, scoring=clfeval.Scoring(labels=LABELS))
    parts = clfeval.count_label_sets(gold[:cut], pred[:cut]) + clfeval.count_label_sets(gold[cut:], pred[cut:])
    assert _all_values(clfeval.score(parts, scoring=clfeval.Scoring(labels=LABELS))) == pytest.approx(
        _all_values(whole)
    )


@settings(max_examples=60, deadline=None)
@given(pairs, st.integers(1, 49))
def test_scores_of_added_chunk_counts_equal_the_whole(data, cut) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    cut = min(cut, len(data) - 1)
    whole = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=LABELS))
    parts = clfeval.count_labels(gold[:cut], pred[:cut]) + clfeval.count_labels(gold[cut:], pred[cut:])
    assert _all_values(clfeval.score(parts, scoring=clfeval.Scoring(labels=LABELS))) == pytest.approx(
        _all_values(whole)
    )


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    st.one_of(pairs.map(lambda d: (False, d)), ml_pairs.map(lambda d: (True, d))),
    st.sampled_from(["delta", "delta-logit"]),
)
def test_every_interval_holds_its_estimate(case, method) -> None:
    """A Wald interval (on any scale) holds its estimate whenever the score has one: every measure × average."""
    multilabel, data = case
    gold, pred = [g for g, _ in data], [p for _, p in data]
    r = clfeval.score(gold, pred, multilabel=multilabel, ci=method, scoring=clfeval.Scoring(labels=LABELS))
    for key, value in _all_values(r).items():
        bounds = r.intervals.get(key)
        if bounds is None:
            assert key in r.intervals.not_estimable, key
            continue
        low, high = bounds
        assert low - 1e-12 <= value <= high + 1e-12, (key, value, bounds)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=4, max_size=40
    )
)
def test_compare_is_antisymmetric_for_every_metric(data) -> None:
    """compare(A, B) = −compare(B, A): the difference changes sign, the two-sided p-value stays (exactly when every
    arrangement is weighed; within Monte Carlo error otherwise, each order drawing its own stream)."""
    from clfeval.scoring.averages import AVERAGED
    from clfeval.scoring.measures import MEASURES

    gold, a, b = ([t[i] for t in data] for i in range(3))
    metrics = [f"macro.{'f1' if m == 'f' else m}" for m in AVERAGED] + [
        name for name, m in MEASURES.items() if m.scope == "overall" and "single-label" in m.tasks
    ]
    ab = clfeval.compare(
        gold,
        {"A": a, "B": b},
        metrics=metrics,
        test=clfeval.Test(rounds=200, seed=7),
        scoring=clfeval.Scoring(ordinal=LABELS),  # weighted κ among the metrics: the labels' order declared
    )
    ba = clfeval.compare(
        gold,
        {"B": b, "A": a},
        metrics=metrics,
        test=clfeval.Test(rounds=200, seed=7),
        scoring=clfeval.Scoring(ordinal=LABELS),  # weighted κ among the metrics: the labels' order declared
    )
    for metric in metrics:
        x, y = ab.pair("A", "B", metric), ba.pair("A", "B", metric)
        assert (x.a, y.a) == ("A", "B")
        assert x.difference == pytest.approx(-y.difference, nan_ok=True), metric
        if x.exact and y.exact:  # every arrangement weighed: the same p-value
            assert x.p_value == pytest.approx(y.p_value, nan_ok=True), metric
        else:  # Monte Carlo estimates from each order's own stream: within 4 standard errors of 200 rounds
            assert abs(x.p_value - y.p_value) <= 4 * (0.25 / 200) ** 0.5 or math.isnan(x.p_value), metric


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
