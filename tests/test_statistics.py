"""The batched score function (what the bootstrap and the delta method evaluate) against score_counts."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

import numpy as np
import pytest

import clfeval
from clfeval.scoring import cells as cells_module
from clfeval.scoring.measures import Measure, Setting, Tallies
from clfeval.scoring.parts import Separable
from clfeval.scoring.ratios import ratio
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
        index = {lab: i for i, lab in enumerate(counts.labels)}
        cells = np.zeros_like(counts.cells)
        for (g, p), w in zip(clfeval.KINDS["single-label"].rows(counts)[0], weights):  # the types of f, in order
            cells[index[g], index[p]] = w
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


# -- the sums each score reads: declared by its registry entries, never chosen by a name ---------------------------


def _spans(rng: np.random.Generator, trial: int) -> clfeval.Scores:
    tags = ["O", "B-PER", "I-PER", "B-LOC"]
    gold = [[tags[int(i)] for i in rng.integers(0, 4, 6)] for _ in range(12)]
    pred = [[t if rng.random() < 0.7 else tags[int(rng.integers(0, 4))] for t in sentence] for sentence in gold]
    return clfeval.score(gold, pred, spans=True)


@pytest.mark.parametrize("make", [_single, _multi, _spans])
def test_every_score_reads_only_the_sums_its_entries_declare(make) -> None:
    """Each score alone (as compare asks for it): sums outside ``sums_read()`` may hold anything without changing it,
    so a randomization round that leaves them still is exact. This holds every entry of MEASURES and AVERAGES to
    its declaration of ``reads``."""
    rng = np.random.default_rng(11)
    for trial in range(3):
        scores = make(rng, trial)
        f = ScoreFunction.of(scores)
        weights = rng.multinomial(scores.n_instances, f.weights / f.weights.sum(), size=5).astype(float)
        sums = f.cells.sums(weights)
        for key in f.keys:
            one = f.on(f.cells, f.weights, keys=[key])
            unread = ~one.sums_read()
            assert unread.shape == (f.cells.width,)
            noisy = sums.copy()
            noisy[:, unread] = rng.integers(0, 50, size=(len(sums), int(unread.sum())))
            np.testing.assert_array_equal(one.from_sums(noisy), one.from_sums(sums), err_msg=str(key))


def test_a_declaration_names_known_sums() -> None:
    from clfeval.scoring.measures import MEASURES

    with pytest.raises(ValueError, match="not sums"):
        replace(MEASURES["accuracy"], name="odd", reads=frozenset({"n", "errors"}))
    with pytest.raises(ValueError, match="declares no sums"):
        replace(MEASURES["accuracy"], name="odd", reads=frozenset())


def _no_parts(t: Tallies, s: Setting) -> dict[str, np.ndarray]:
    return {}


def _ordinal_mae(r: object, t: Tallies, s: Setting) -> tuple[np.ndarray, np.ndarray]:
    """Σ |i − j| / N: the mean distance between gold and predicted label in the table's order."""
    return ratio(t.disagreement["linear"], t.n, s.zero_division)


def _instance_jaccard(r: object, t: Tallies, s: Setting) -> tuple[np.ndarray, np.ndarray]:
    """Σ over instances of |G ∩ P| / |G ∪ P| (0 where both are empty), over N."""
    total, _ = t.samples["jaccard"]
    return ratio(total, t.n, s.zero_division)


#: Two measures of this file alone, each reading sums that no built-in average or measure of its name reads:
#: weighted κ's disagreement, and the multi-label per-instance sums of the samples average.
NEW_MEASURES = {
    "ordinal_mae": Measure(
        "ordinal_mae", "ordinal MAE", "Σ |i − j| / N over the instances", "overall", frozenset({"single-label"}),
        False, 0.0, np.inf, False, "there are no instances", Separable(_no_parts, _ordinal_mae),
        reads=frozenset({"disagreement_linear", "n"}),
    ),
    "instance_jaccard": Measure(
        "instance_jaccard", "instance Jaccard", "Σ |G ∩ P| / |G ∪ P| / N", "overall", frozenset({"multi-label"}),
        True, 0.0, 1.0, False, "there are no instances", Separable(_no_parts, _instance_jaccard),
        reads=frozenset({"samples", "n"}),
    ),
}  # fmt: skip


@pytest.fixture
def new_measures(monkeypatch) -> Iterator[None]:
    """NEW_MEASURES registered for one test: monkeypatch takes them out of MEASURES again."""
    from clfeval.scoring.measures import MEASURES

    for name, measure in NEW_MEASURES.items():
        monkeypatch.setitem(MEASURES, name, measure)  # type: ignore[arg-type]
    yield


def _ordinal(gold: Sequence[str], pred: Sequence[str]) -> float:
    return float(np.mean(np.abs(np.array(gold, dtype=int) - np.array(pred, dtype=int))))


def _jaccard(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]]) -> float:
    values = [len(set(g) & set(p)) / len(set(g) | set(p)) if set(g) | set(p) else 0.0 for g, p in zip(gold, pred)]
    return float(np.mean(values))


def _permutation_p(metric, gold: list, a: list, b: list) -> tuple[float, float]:
    """The reference: every way of swapping the two systems' predictions instance by instance (each swap with
    probability ½), the metric recomputed on each; p = the share of arrangements with |d*| ≥ |d|."""
    observed = metric(gold, a) - metric(gold, b)
    differ = [i for i in range(len(gold)) if a[i] != b[i]]
    hits = 0
    for pattern in itertools.product((False, True), repeat=len(differ)):
        x, y = list(a), list(b)
        for i, swap in zip(differ, pattern):
            if swap:
                x[i], y[i] = b[i], a[i]
        hits += abs(metric(gold, x) - metric(gold, y)) >= abs(observed) - 1e-12
    return observed, hits / 2 ** len(differ)


def _ordinal_data(rng: np.random.Generator) -> tuple[list, list, list, dict]:
    gold = rng.integers(1, 6, 16)
    a = np.clip(gold + rng.integers(-1, 2, 16), 1, 5)
    b = np.clip(gold + rng.integers(-2, 3, 16), 1, 5)
    g, x, y = ([str(v) for v in arr] for arr in (gold, a, b))
    return g, x, y, {"labels": [str(v) for v in range(1, 6)]}


def _label_set_data(rng: np.random.Generator) -> tuple[list, list, list, dict]:
    names = ["x", "y", "z"]
    gold = [sorted({names[j] for j in range(3) if rng.random() < 0.5}) for _ in range(13)]
    a = [sorted({lab for lab in g if rng.random() < 0.8} | ({"z"} if rng.random() < 0.2 else set())) for g in gold]
    b = [sorted({names[j] for j in range(3) if rng.random() < 0.4}) for _ in gold]
    return gold, a, b, {"multilabel": clfeval.MultiLabel(duplicates="collapse")}


@pytest.mark.parametrize(
    ("name", "metric", "data"),
    [("ordinal_mae", _ordinal, _ordinal_data), ("instance_jaccard", _jaccard, _label_set_data)],
)
def test_a_new_measure_gets_the_p_value_of_a_direct_permutation(new_measures, name, metric, data) -> None:
    """A measure added to MEASURES, asked for alone, is tested on the sums it declares: its exact randomization p
    (and, over many rounds, its approximate one) equals a permutation test written out instance by instance —
    not p = 1 from sums that never moved."""
    rng = np.random.default_rng(21)
    gold, a, b, options = data(rng)
    observed, expected = _permutation_p(metric, gold, a, b)
    assert observed != 0 and expected < 1
    exact = clfeval.compare(gold, {"A": a, "B": b}, metrics=name, test="ar", seed=5, **options).pairs[0]
    assert exact.exact and exact.difference == pytest.approx(observed, abs=1e-12)
    assert exact.p_value == pytest.approx(expected, abs=1e-12)
    rounds = 20_000
    drawn = clfeval.compare(
        gold, {"A": a, "B": b}, metrics=name, test=clfeval.Test("ar", rounds=rounds, seed=5, exact_limit=0), **options
    ).pairs[0]
    assert not drawn.exact
    assert abs(drawn.p_value - expected) < 5 * np.sqrt(expected * (1 - expected) / rounds) + 2 / rounds


def test_a_measure_registered_in_a_test_is_gone_after_it() -> None:
    from clfeval.scoring.measures import MEASURES

    assert not set(NEW_MEASURES) & set(MEASURES)


def test_ordered_products_add_fractions_in_a_fixed_order() -> None:
    """Resampled sums are the same bytes whatever the number of BLAS threads: whole-number columns of whole-number
    weights are exact (BLAS, in any order); fractional ones are added by numpy's own loop, never split by threads."""
    from clfeval.scoring.cells import OrderedProduct, ordered_dot

    rng = np.random.default_rng(12)
    matrix = rng.integers(0, 4, size=(300, 9)).astype(np.float64)
    matrix[:, [2, 5]] = rng.random((300, 2))  # per-instance sums of samples averages: fractions
    weights = rng.integers(0, 20, size=(7, 300)).astype(np.float64)
    product = OrderedProduct(matrix)
    assert product.whole.tolist() == [True, True, False, True, True, False, True, True, True]
    out = product(weights)
    exact = weights.astype(np.int64) @ matrix[:, product.whole].astype(np.int64)
    np.testing.assert_array_equal(out[:, product.whole], exact.astype(np.float64))
    np.testing.assert_array_equal(out[:, ~product.whole], np.einsum("bu,ud->bd", weights, matrix[:, ~product.whole]))
    halves = weights / 2  # weights that are not whole: every column in numpy's order
    np.testing.assert_array_equal(product(halves), np.einsum("bu,ud->bd", halves, matrix))
    np.testing.assert_array_equal(ordered_dot(weights[0], matrix), np.einsum("u,ud->d", weights[0], matrix))
    np.testing.assert_allclose(out, weights @ matrix, rtol=1e-12)
