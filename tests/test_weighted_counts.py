"""Weighted single-label counts held as arrays (:class:`~clfeval.count.weighted.WeightedLabelCounts`) against a
straightforward per-instance reference: a dict of (gold, predicted, weight) rows counted one instance at a time.

Random cases with continuous weights (a row per instance), repeating weights (class weights), weights of 0 and labels
that gold never holds; every way in (arrays, the mapping of rows, ``+``, the Accumulator in batches, a pickle) gives
the same rows in the same canonical order, and the scores, the weighted matrix and seeded intervals are those of the
instances summed one by one (the seeded ones pinned to the numbers the dict of rows gave before the arrays).
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.count.weighted import WeightedLabelCounts
from clfeval.kinds import KINDS

SEEDS = range(12)


def _case(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gold and predicted names (predictions also of labels gold never holds) and weights: continuous, repeating
    (whole or fractional class weights), or continuous with a share of zeros."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 7))
    n = int(rng.integers(50, 600))
    names = np.array([f"c{i}" for i in range(k)] + ["Z", "a b", "10"])
    gold = names[rng.integers(0, k, n)]
    pred = np.where(rng.random(n) < rng.uniform(0.3, 0.9), gold, names[rng.integers(0, k + 3, n)])
    kind = seed % 3
    if kind == 0:
        w = rng.gamma(2.0, 1.0, n)
    elif kind == 1:
        w = rng.choice([0.5, 1.0, 2.0, 3.25], n)
    else:
        w = rng.gamma(2.0, 1.0, n)
        w[rng.random(n) < 0.25] = 0.0
    return gold, pred, w


def _reference(gold: Any, pred: Any, w: Any) -> dict[tuple[str, str, float], int]:
    """The rows counted instance by instance, sorted as the dict of rows always was: by (gold, predicted, weight)."""
    rows: dict[tuple[str, str, float], int] = {}
    for g, p, x in zip(gold, pred, w):
        key = (str(g), str(p), float(x))
        rows[key] = rows.get(key, 0) + 1
    return dict(sorted(rows.items()))


def _same_rows(counts: WeightedLabelCounts, expected: dict[tuple[str, str, float], int]) -> None:
    assert list(counts.rows.items()) == list(expected.items())  # the rows and their order, weights to the last bit
    rows, m = KINDS["weighted-single-label"].rows(counts)
    assert list(rows) == list(expected) and m.tolist() == list(expected.values())  # the order resampling draws in
    assert counts.labels == tuple(sorted({lab for g, p, _ in expected for lab in (g, p)}))
    names = np.array(counts.labels, dtype=object)
    got = list(zip(names[counts.gold], names[counts.pred], counts.weights.tolist(), counts.counts.tolist()))
    assert got == [(*key, m) for key, m in expected.items()]
    assert counts.n_instances == sum(expected.values())


@pytest.mark.parametrize("seed", SEEDS)
def test_the_arrays_hold_the_rows_counted_instance_by_instance(seed: int) -> None:
    gold, pred, w = _case(seed)
    expected = _reference(gold, pred, w)
    counts = clfeval.score(gold, pred, sample_weight=w).counts
    assert isinstance(counts, WeightedLabelCounts)
    _same_rows(counts, expected)
    _same_rows(WeightedLabelCounts(dict(reversed(list(expected.items())))), expected)  # the mapping, any order
    half = len(gold) // 2
    parts = [clfeval.score(gold[s], pred[s], sample_weight=w[s]).counts for s in (slice(0, half), slice(half, None))]
    _same_rows(parts[1] + parts[0], expected)
    _same_rows(sum(parts), expected)
    _same_rows(pickle.loads(pickle.dumps(counts)), expected)
    acc = clfeval.Accumulator("single-label")
    for start in range(0, len(gold), 37):
        part = slice(start, start + 37)
        acc.update(gold[part].tolist(), pred[part].tolist(), sample_weight=w[part])
    _same_rows(acc.counts, expected)  # type: ignore[arg-type]
    left, right = clfeval.Accumulator("single-label"), clfeval.Accumulator("single-label", labels=sorted(set(gold)))
    left.update(gold[:half], pred[:half], sample_weight=w[:half])
    try:  # a declared label set refuses predictions outside it; then the other order
        right.update(gold[half:], pred[half:], sample_weight=w[half:])
    except clfeval.InputError:
        right = clfeval.Accumulator("single-label")
        right.update(gold[half:], pred[half:], sample_weight=w[half:])
    _same_rows((left + right).counts, expected)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", SEEDS)
def test_scores_and_the_matrix_are_the_instances_summed_one_by_one(seed: int) -> None:
    gold, pred, w = _case(seed)
    declared = sorted(set(gold.tolist()) | set(pred.tolist())) + ["unseen"]
    r = clfeval.score(gold, pred, sample_weight=w, labels=declared)
    for lab in declared:
        tp = sum(x for g, p, x in zip(gold, pred, w) if g == p == lab)
        fp = sum(x for g, p, x in zip(gold, pred, w) if p == lab != g)
        fn = sum(x for g, p, x in zip(gold, pred, w) if g == lab != p)
        row = r.per_label[lab]
        assert (row.tp, row.fp, row.fn) == pytest.approx((tp, fp, fn), rel=1e-12, abs=1e-12), lab
    right = sum(x for g, p, x in zip(gold, pred, w) if g == p)
    assert r["accuracy"] == pytest.approx(right / w.sum(), rel=1e-12)
    assert r.per_label["unseen"].support == 0
    matrix = r.confusion
    index = {lab: i for i, lab in enumerate(matrix.labels)}
    expected = np.zeros((len(index), len(index)))
    for g, p, x in zip(gold, pred, w):
        expected[index[g], index[p]] += x
    np.testing.assert_allclose(matrix.cells, expected, rtol=1e-12, atol=1e-12)


def test_many_rows_score_as_few() -> None:
    """Beyond the size at which the map of cell types is kept dense (the point estimate then reads the arrays with a
    few bincount), the scores are still the instances summed one by one."""
    rng = np.random.default_rng(3)
    n = 120_000
    gold = rng.integers(0, 6, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, 8, n))
    w = rng.random(n)
    w[rng.random(n) < 0.05] = 0.0
    r = clfeval.score(gold, pred, sample_weight=w)
    assert r.counts.n_rows > 100_000
    k = 8
    cells = np.bincount(gold * k + pred, weights=w, minlength=k * k).reshape(k, k)
    tp, fp, fn = np.diag(cells), cells.sum(axis=0) - np.diag(cells), cells.sum(axis=1) - np.diag(cells)
    for i in range(k):
        row = r.per_label[str(i)]
        assert (row.tp, row.fp, row.fn) == pytest.approx((tp[i], fp[i], fn[i]), rel=1e-10)
    assert r["accuracy"] == pytest.approx(np.trace(cells) / w.sum(), rel=1e-12)
    # the numbers the dict of rows gave (clfeval before the arrays), to the last bits
    assert r.averages["macro"]["f"] == pytest.approx(0.5136262772332877, rel=1e-13)


# Seeded bootstrap intervals as the dict of rows gave them before the arrays: a resample draws over the rows in their
# canonical order, which the arrays keep, so the same seed gives the same interval.
PINNED = {
    (1, "continuous"): ((0.5857914477967772, 0.6544968037734671), (0.6988519678204431, 0.7896473068570069)),
    (2, "repeating"): ((0.5868912112622503, 0.64784115543163), (0.7061714429738627, 0.7848235544217687)),
    (3, "zeros"): ((0.5587328248933484, 0.647386538398541), (0.6804262436338707, 0.7860690531265062)),
}


@pytest.mark.parametrize(("seed", "kind"), list(PINNED))
def test_seeded_bootstrap_intervals_are_unchanged(seed: int, kind: str) -> None:
    rng = np.random.default_rng(seed)
    n = 500
    names = np.array(["b", "a", "c", "Z", "d"])
    gold = names[rng.integers(0, 4, n)]
    pred = np.where(rng.random(n) < 0.7, gold, names[rng.integers(0, 5, n)])
    w = rng.gamma(2.0, 1.0, n) if kind != "repeating" else rng.integers(1, 4, n).astype(float)
    if kind == "zeros":
        w[rng.random(n) < 0.3] = 0.0
    r = clfeval.score(gold, pred, sample_weight=w, ci="bootstrap", seed=seed, resamples=200)
    assert r.intervals is not None
    macro, accuracy = PINNED[(seed, kind)]
    assert r.intervals.bounds[("averages", "macro", "f")] == pytest.approx(macro, rel=1e-12)
    assert r.intervals.bounds[("accuracy",)] == pytest.approx(accuracy, rel=1e-12)


def test_invalid_predictions_are_screened_on_the_arrays() -> None:
    gold, pred, w = _case(4)
    pred = pred.astype(object)
    pred[::7] = "junk"
    declared = sorted(set(gold.tolist()))
    for policy in ("wrong", "omit"):
        r = clfeval.score(gold, pred, sample_weight=w, labels=declared, invalid=policy)
        bad = np.array([p not in declared for p in pred])
        if policy == "omit":
            expected = _reference(gold[~bad], pred[~bad], w[~bad])
        else:
            expected = _reference(gold, np.where(bad, "(invalid)", pred), w)
        _same_rows(r.counts, expected)
        assert r.invalid is not None and r.invalid.n_invalid == int(bad.sum())


# -- weighted label sets: each distinct pair's cell types built once, taken for every row --------------------------


@pytest.mark.parametrize("seed", range(6))
def test_label_set_cell_types_built_per_pair_equal_those_built_per_row(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 300))
    labs = ["x", "y", "z", "w", "v"][: int(rng.integers(2, 6))]
    gs = [[lab for lab in labs if rng.random() < 0.4] * int(rng.integers(1, 3)) for _ in range(n)]
    ps = [[lab for lab in labs if rng.random() < 0.4] for _ in range(n)]
    w = rng.choice([0.5, 1.0, 2.0], n) if seed % 2 else rng.gamma(2.0, 1.0, n)
    duplicates, empty = ("keep", "label") if seed % 3 == 0 else ("collapse", "ignore")
    ml = clfeval.MultiLabel(duplicates=duplicates, empty=empty)
    r = clfeval.score(gs, ps, sample_weight=w, multilabel=ml)
    kind = KINDS["weighted-multi-label"]
    rows, _ = kind.rows(r.counts)
    got = kind.cells_of_rows(rows, r.labels, beta=1.0, table=r.table)
    direct = (
        KINDS["multi-label"]
        .cells_of_rows([(row[0], row[1]) for row in rows], r.labels, beta=1.0, table=r.table)
        .scaled(np.array([row[2] for row in rows]))
    )
    assert got.n_types == direct.n_types == len(rows)
    for name in ("rows", "cols", "vals"):
        np.testing.assert_array_equal(getattr(got, name), getattr(direct, name), err_msg=name)
    assert list(rows) == sorted(rows)  # the canonical order: (gold set, predicted set, weight)


def test_a_seeded_label_set_interval_is_unchanged() -> None:
    """As the dict of rows sorted as tuples and the types built row by row gave it."""
    rng = np.random.default_rng(8)
    n = 300
    labs = ["x", "y", "z", "w"]
    gs = [[lab for lab in labs if rng.random() < 0.4] for _ in range(n)]
    ps = [[lab for lab in labs if rng.random() < 0.4] for _ in range(n)]
    w = rng.gamma(2.0, 1.0, n)
    ml = clfeval.MultiLabel()
    r = clfeval.score(gs, ps, sample_weight=w, multilabel=ml, ci="bootstrap", seed=8, resamples=200)
    assert r.intervals is not None
    macro = r.intervals.bounds[("averages", "macro", "f")]
    samples = r.intervals.bounds[("averages", "samples", "f")]
    assert macro == pytest.approx((0.3295716757265959, 0.4194538978268249), rel=1e-12)
    assert samples == pytest.approx((0.2597155733547937, 0.35581816050725806), rel=1e-12)
