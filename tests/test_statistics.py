"""The batched score function (what the bootstrap and the delta method evaluate) against score_counts."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import clfeval
from clfeval.scoring import cells as cells_module
from clfeval.scoring.statistics import ScoreFunction


def _single(rng: np.random.Generator, trial: int) -> clfeval.Scores:
    k = int(rng.integers(2, 6))
    gold, pred = rng.integers(0, k, 60), rng.integers(0, k, 60)
    labels = [str(i) for i in range(k - 1)] if trial % 3 == 0 else None  # a label set smaller than the data
    train = clfeval.LabelFrequencies.from_labels(list(map(str, rng.integers(0, k, 30)))) if trial % 4 == 1 else None
    return clfeval.score(
        gold,
        pred,
        scoring=clfeval.Scoring(
            labels=labels,
            labels_from="given" if labels else None,
            train=train,
            beta=[1.0, 2.0, 0.5][trial % 3],
            zero_division=["0", "1", "nan"][trial % 3],
            undefined=["include", "exclude"][trial % 2],
        ),
    )


def _multi(rng: np.random.Generator, trial: int) -> clfeval.Scores:
    names = "ABCD"
    gold = [[names[j] for j in range(4) if rng.random() < 0.3] for _ in range(50)]
    pred = [
        [names[j] for j in range(4) if rng.random() < 0.3] + (["A"] if rng.random() < 0.1 else []) for _ in range(50)
    ]
    return clfeval.score(
        gold,
        pred,
        multilabel=clfeval.MultiLabel(empty=["ignore", "label"][trial % 2], duplicates=["keep", "collapse"][trial % 2]),
        scoring=clfeval.Scoring(
            zero_division=["0", "1", "nan"][trial % 3],
            undefined=["include", "exclude"][trial % 2],
            beta=[1.0, 2.0][trial % 2],
        ),
    )


def _reported(scores: clfeval.Scores, f: ScoreFunction) -> np.ndarray:
    return np.array([ScoreFunction.value_of(scores, key) for key in f.keys])


@pytest.mark.parametrize("make", [_single, _multi])
def test_point_equals_the_reported_scores(make) -> None:
    rng = np.random.default_rng(5)
    for trial in range(24):
        scores = make(rng, trial)
        f = ScoreFunction.of(scores)
        np.testing.assert_allclose(f.point(), _reported(scores, f), rtol=0, atol=1e-12, equal_nan=True)


def _rescored(scores: clfeval.Scores, f: ScoreFunction, weights: np.ndarray) -> clfeval.Scores:
    """The reference: build the re-weighted data's counts and score them from scratch."""
    train = None
    if scores.lfb_source == "train":
        train = clfeval.LabelFrequencies(dict(scores.lfb_frequencies), 1)
    scoring = clfeval.Scoring(
        labels=scores.labels,
        labels_from="given",
        train=train,
        beta=scores.beta,
        zero_division=scores.zero_division,
        undefined=scores.undefined_policy,
    )
    counts = scores.counts
    if isinstance(counts, clfeval.ConfusionCounts):
        g, p = np.nonzero(counts.cells)
        cells = np.zeros_like(counts.cells)
        cells[g, p] = weights
        return clfeval.score(clfeval.ConfusionCounts(counts.labels, cells), scoring=scoring)
    pairs = Counter({key: int(w) for key, w in zip(counts.pairs, weights)})
    return clfeval.score(clfeval.LabelSetCounts(pairs, counts.duplicates, counts.empty), scoring=scoring)


@pytest.mark.parametrize("make", [_single, _multi])
def test_resampled_weights_score_like_the_resampled_counts(make) -> None:
    """Each row of f(W) is what clfeval.score gives on the counts W describes."""
    rng = np.random.default_rng(8)
    for trial in range(12):
        scores = make(rng, trial)
        f = ScoreFunction.of(scores)
        draws = rng.multinomial(scores.n_instances, f.weights / f.weights.sum(), size=4)
        values = f(draws.astype(float))
        for row, w in zip(values, draws):
            if w.sum() == 0:
                continue
            reference = _rescored(scores, f, w)
            np.testing.assert_allclose(row, _reported(reference, f), rtol=0, atol=1e-12, equal_nan=True)


def test_sparse_and_dense_maps_agree(monkeypatch) -> None:
    rng = np.random.default_rng(2)
    for make in (_single, _multi):
        scores = make(rng, 1)
        f = ScoreFunction.of(scores)
        weights = rng.multinomial(100, f.weights / f.weights.sum(), size=7).astype(float)
        dense_sums = f.cells.sums(weights)
        gradient = rng.normal(size=(f.cells.width, 3))
        dense_pull = f.cells.pullback(gradient)
        assert f.cells.dense() is not None
        np.testing.assert_allclose(f.cells.dense() @ gradient, dense_pull, atol=1e-12)
        monkeypatch.setattr(cells_module, "_DENSE_LIMIT", 0)
        fresh = ScoreFunction.of(scores)
        assert fresh.cells.dense() is None
        np.testing.assert_allclose(fresh.cells.sums(weights), dense_sums, atol=1e-9)
        stacked = fresh.cells.sums(weights.reshape(7, 1, -1))  # any leading shape (single-label: from positions)
        np.testing.assert_allclose(stacked.reshape(7, -1), dense_sums, atol=1e-9)
        assert (fresh.cells.positions is not None) == (make is _single)
        np.testing.assert_allclose(fresh.cells.pullback(gradient), dense_pull, atol=1e-12)
        monkeypatch.undo()


def test_types_of_compare_style_arrangements_may_repeat() -> None:
    """A list of types may name the same (gold, pred) pair twice; each keeps its own weight."""
    from clfeval.scoring.cells import CellTypes

    cells = CellTypes.multi_label([(("A",), ("A",)), (("A",), ("B",)), (("A",), ("A",))], ("A", "B"))
    sums = cells.sums(np.array([[1.0, 2.0, 3.0]]))[0]
    assert sums[cells.column("tp")].tolist() == [4.0, 0.0]
    assert sums[cells.column("fp")].tolist() == [0.0, 2.0]
    assert sums[cells.column("n")].tolist() == [6.0]
    single = CellTypes.single_label(["a", "a", "b"], ["a", "b", "b"], ["a"])
    s = single.sums(np.array([[5.0, 1.0, 2.0]]))[0]
    # the table's labels: the label set first, then the others (b), which MCC and κ take into account
    assert single.labels == ("a",) and single.table == ("a", "b")
    assert s[single.column("tp")].tolist() == [5.0, 2.0] and s[single.column("fn")].tolist() == [1.0, 0.0]
    assert s[single.column("exact")].tolist() == [7.0]  # b→b is exact although b is outside the label set


def test_observed_sums_equal_the_maps_sums_of_the_observed_weights() -> None:
    """The point estimate reads the sums straight from the matrix; resampling reads them through the map: the
    same numbers, labels outside the label set and never-seen labels of it included."""
    from clfeval.kinds import KINDS
    from clfeval.scoring.cells import CellTypes

    rng = np.random.default_rng(4)
    for label_set in (("0", "1", "2", "3", "4"), ("3", "1"), ("1", "9", "0")):
        gold = rng.integers(0, 5, 300).astype(str)
        pred = np.where(rng.random(300) < 0.6, gold, rng.integers(0, 5, 300).astype(str))
        counts = clfeval.count_labels(gold, pred)
        layout, direct = CellTypes.observed(counts, label_set)
        cells, weights = KINDS["single-label"].cells(counts, label_set, beta=1.0, table=layout.table)
        assert layout.table == cells.table and layout.width == cells.width
        np.testing.assert_array_equal(direct[0], cells.sums(weights[None, :])[0])
