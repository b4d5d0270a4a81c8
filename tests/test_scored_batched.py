"""The batched scores of scored predictions (many count vectors over the same rows at once) equal measures_of of each
vector's counts, to 1e-12, for every score: binary, multi-class and multi-label scores, with and without sample
weights, on distinct rows and on rows that repeat (the rows of a pair or of blocks), under every convention."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.count.scored import ScoreCounts
from clfeval.scoring.batched import ScoredMeasures
from clfeval.scoring.scored import Conventions


def _rows(seed: int, kind: str, weighted: bool, repeat: bool) -> ScoreCounts:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 120))
    digits = int(rng.integers(1, 3))  # few distinct scores: ties
    if kind == "binary":
        gold, scores, labels, columns = rng.integers(0, 2, n), np.round(rng.random((n, 1)), digits), ("a", "b"), ("b",)
    elif kind == "multiclass":
        k = int(rng.integers(3, 6))
        p = np.round(rng.random((n, k)), digits) + 0.01
        gold, scores = rng.integers(0, k, n), p / p.sum(axis=1, keepdims=True)
        labels = columns = tuple("abcdef"[:k])
    else:
        k = int(rng.integers(2, 5))
        gold, scores = (rng.random((n, k)) < 0.4).astype(np.int8), np.round(rng.random((n, k)), digits)
        labels = columns = tuple("abcdef"[:k])
    weight = np.round(rng.random(n) * 3, 1) if weighted else None
    counts = ScoreCounts(labels, columns, gold, scores, np.ones(n, dtype=np.int64), weight)
    if not repeat:
        return counts
    # rows that repeat (a pair's or a block's rows are not merged): the same rows, some twice, in another order
    take = rng.permutation(np.r_[np.arange(len(counts.count)), rng.integers(0, len(counts.count), 10)])
    out = object.__new__(ScoreCounts)
    for name, value in (("labels", labels), ("columns", columns), ("gold", counts.gold[take]),
                        ("scores", counts.scores[take]), ("count", counts.count[take]),
                        ("weight", None if weight is None else counts.weight[take])):  # fmt: skip
        object.__setattr__(out, name, value)
    if len(columns) == 1 and gold.ndim == 1:  # one column: the rows sorted by score, as the views are
        order = np.argsort(out.scores[:, 0], kind="stable")
        for name in ("gold", "scores", "count", "weight"):
            value = getattr(out, name)
            if value is not None:
                object.__setattr__(out, name, value[order])
    return out


CONVENTIONS = [
    Conventions(),
    Conventions(brier="sum", ties="optimistic", top_k=(1, 2), bins=7),
    Conventions(brier="half", ties="pessimistic", binning="equal-mass", bins=4),
    Conventions(brier="mean", ties="sklearn", top_k=(2, 3)),
]


@pytest.mark.parametrize("seed", range(24))
def test_batched_scores_equal_the_scores_of_each_vector(seed: int) -> None:
    kind = ("binary", "multiclass", "multilabel")[seed % 3]
    weighted, repeat = seed % 4 in (1, 3), seed % 4 >= 2
    conventions = CONVENTIONS[(seed // 3) % len(CONVENTIONS)]
    if weighted and conventions.binning == "equal-mass":
        conventions = Conventions(brier="half", bins=4)  # equal-mass bins are refused with sample weights
    rows = _rows(seed, kind, weighted, repeat)
    rng = np.random.default_rng(100 + seed)
    n = len(rows.count)
    draws = rng.multinomial(n, np.full(n, 1 / n), size=12)
    draws[0] = rows.count  # the counts themselves: the point value
    draws[1, : n // 2] = 0  # rows left out, as the jackknife and sparse draws leave them
    for probabilities in (True, False):
        measures = ScoredMeasures(conventions, probabilities)
        batched = measures.batched(rows)(draws)
        for b, draw in enumerate(draws):
            want = measures(rows.with_counts(draw))
            assert set(batched) == set(want)
            for name, value in want.items():
                assert batched[name][b] == pytest.approx(value, rel=1e-12, abs=1e-12, nan_ok=True), (name, b)


def test_wanted_names_limit_the_batched_groups() -> None:
    rows = _rows(4, "multiclass", False, False)
    measures = ScoredMeasures(Conventions(), True, frozenset({"macro.auc", "brier"}))
    found = measures.batched(rows)(np.ones((2, len(rows.count))))
    assert set(found) == set(measures(rows))


@pytest.mark.parametrize("seed", range(4))
def test_the_batched_bootstrap_is_the_bootstrap_of_its_draws_one_by_one(seed: int) -> None:
    import clfeval
    from clfeval.infer.scored import resampled_counts

    rng = np.random.default_rng(seed)
    n = 400
    y = rng.integers(0, 3, n) if seed % 2 else rng.integers(0, 2, n)
    if seed % 2:
        p = np.round(rng.random((n, 3)), 1) + 0.05
        s = p / p.sum(axis=1, keepdims=True)
    else:  # rounded hard (few rows: multinomial draws) or not (instance draws)
        s = np.round(rng.random(n) * 0.6 + y * 0.3, 1 if seed == 0 else 4)
    r = clfeval.score(y, scores=s, ci="bootstrap", resamples=150, seed=seed)
    counts = r.counts
    draw = np.random.default_rng(seed)
    found: dict[str, list[float]] = {}
    measures = ScoredMeasures(r.conventions, True)
    for _ in range(150):  # one resample at a time, each scored alone
        drawn = counts.with_counts(resampled_counts(draw, counts.count, 1)[0])
        for name, value in measures(drawn).items():
            found.setdefault(name, []).append(value)
    for name, (low, high) in r.intervals.items():
        x = np.array(found[name])
        want = np.quantile(x[~np.isnan(x)], [0.025, 0.975])
        assert (low, high) == pytest.approx(tuple(want), abs=1e-12), name
