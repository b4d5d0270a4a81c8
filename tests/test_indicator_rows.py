"""Indicator matrices counted through their distinct joint rows (clfeval.inputs.indicators) give what the same data
as lists of label tuples gives: score (with blocks and intervals), compare of three systems, cv, sample weights, the
empty-set policy, and the same errors; and the label-collection counter is not run instance by instance for them."""

from __future__ import annotations

import json

import numpy as np
import pytest

import clfeval
from clfeval.errors import InputError

NAMES = ["b", "a", "tox", "ok", "spam", "zz"]


def _matrices(seed: int, n: int, k: int = len(NAMES), systems: int = 1) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    gold = (rng.random((n, k)) < rng.uniform(0.05, 0.5)).astype(np.int8)
    gold[rng.random(n) < 0.1] = 0  # some empty sets
    preds = [np.where(rng.random((n, k)) < rng.uniform(0.6, 0.95), gold, 1 - gold) for _ in range(systems)]
    return gold, preds


def _sets(m: np.ndarray, names: list[str] = NAMES) -> list[tuple[str, ...]]:
    return [tuple(names[j] for j in np.flatnonzero(row)) for row in m]


def _same(a: clfeval.Scores, b: clfeval.Scores) -> None:
    assert json.loads(a.to_json()) == json.loads(b.to_json())


@pytest.mark.parametrize("seed", range(6))
def test_score_of_matrices_equals_score_of_label_tuples(seed: int) -> None:
    gold, (pred,) = _matrices(seed, n=300 + 50 * seed)
    _same(
        clfeval.score(gold, pred, labels=NAMES), clfeval.score(_sets(gold), _sets(pred), multilabel=True, labels=NAMES)
    )
    empty = clfeval.MultiLabel(empty="label")
    _same(
        clfeval.score(gold, pred, labels=NAMES, multilabel=empty),
        clfeval.score(_sets(gold), _sets(pred), multilabel=empty, labels=NAMES),
    )
    named = ["NONE", *NAMES[1:]]  # a label the empty-set policy reserves: read the slow way, set by set
    collapse = clfeval.MultiLabel(duplicates="collapse")
    _same(
        clfeval.score(gold, pred, labels=named, multilabel=collapse),
        clfeval.score(_sets(gold, named), _sets(pred, named), labels=named, multilabel=collapse),
    )
    blocks = np.random.default_rng(seed).integers(0, 40, len(gold))
    ci = clfeval.CI("bootstrap", seed=seed, resamples=200)
    by_matrix = clfeval.score(gold, pred, labels=NAMES, blocks=blocks, ci=ci)
    by_sets = clfeval.score(_sets(gold), _sets(pred), multilabel=True, labels=NAMES, blocks=blocks, ci=ci)
    _same(by_matrix, by_sets)
    assert by_matrix.intervals.get(("averages", "macro", "f")) is not None


@pytest.mark.parametrize("seed", range(4))
def test_compare_of_three_systems_equals_label_tuples(seed: int) -> None:
    gold, preds = _matrices(seed, n=250, systems=3)
    test = clfeval.Test(rounds=300, seed=seed)
    metrics = ["micro.f1", "macro.f1", "samples.f1", "hamming_loss"]
    by_matrix = clfeval.compare(gold, dict(zip("ABC", preds)), labels=NAMES, metrics=metrics, test=test)
    by_sets = clfeval.compare(
        _sets(gold),
        {s: _sets(p) for s, p in zip("ABC", preds)},
        multilabel=True,
        labels=NAMES,
        metrics=metrics,
        test=test,
    )
    assert json.loads(by_matrix.to_json()) == json.loads(by_sets.to_json())
    blocks = np.arange(len(gold)) // 5
    by_matrix = clfeval.compare(gold, dict(zip("ABC", preds)), labels=NAMES, metrics=metrics, test=test, blocks=blocks)
    by_sets = clfeval.compare(
        _sets(gold), {s: _sets(p) for s, p in zip("ABC", preds)}, multilabel=True, labels=NAMES, metrics=metrics,
        test=test, blocks=blocks,
    )  # fmt: skip
    assert json.loads(by_matrix.to_json()) == json.loads(by_sets.to_json())


@pytest.mark.parametrize("seed", range(4))
def test_cv_and_sample_weights_equal_label_tuples(seed: int) -> None:
    gold, (pred, other) = _matrices(seed, n=240, systems=2)
    rng = np.random.default_rng(seed)
    folds = rng.integers(0, 4, len(gold))
    by_matrix = clfeval.cv(gold, pred, folds, labels=NAMES)
    by_sets = clfeval.cv(_sets(gold), _sets(pred), folds, multilabel=True, labels=NAMES)
    assert json.loads(by_matrix.to_json()) == json.loads(by_sets.to_json())
    w = rng.choice([0.5, 1.0, 2.0, 3.25], len(gold))
    _same(
        clfeval.score(gold, pred, labels=NAMES, sample_weight=w),
        clfeval.score(_sets(gold), _sets(pred), multilabel=True, labels=NAMES, sample_weight=w),
    )
    by_matrix = clfeval.cv(gold, pred, folds, labels=NAMES, sample_weight=w)
    by_sets = clfeval.cv(_sets(gold), _sets(pred), folds, multilabel=True, labels=NAMES, sample_weight=w)
    assert json.loads(by_matrix.to_json()) == json.loads(by_sets.to_json())
    test = clfeval.Test(rounds=200, seed=seed)
    by_matrix = clfeval.compare(gold, {"A": pred, "B": other}, labels=NAMES, metrics="micro.f1", test=test,
                                sample_weight=w)  # fmt: skip
    by_sets = clfeval.compare(_sets(gold), {"A": _sets(pred), "B": _sets(other)}, multilabel=True, labels=NAMES,
                              metrics="micro.f1", test=test, sample_weight=w)  # fmt: skip
    assert json.loads(by_matrix.to_json()) == json.loads(by_sets.to_json())


def test_matrices_refuse_what_label_tuples_refuse_naming_the_same_instance() -> None:
    gold, (pred,) = _matrices(3, n=60)
    for names, multilabel in ((["a", "∅", "c", "d", "e", "f"], True), (["a", "NONE", "c", "d", "e", "f"], "label")):
        ml = clfeval.MultiLabel(empty="label") if multilabel == "label" else True
        with pytest.raises(InputError) as by_matrix:
            clfeval.score(gold, pred, labels=names, multilabel=ml)
        with pytest.raises(InputError) as by_sets:
            clfeval.score(_sets(gold, names), _sets(pred, names), multilabel=ml)
        assert str(by_matrix.value) == str(by_sets.value)
        assert "∅" in str(by_matrix.value) or "NONE" in str(by_matrix.value)


def test_empty_matrices_are_refused_as_empty_label_tuples() -> None:
    empty = np.zeros((0, 3), dtype=np.int8)
    for call in (
        lambda g, p, **kw: clfeval.score(g, p, **kw),
        lambda g, p, **kw: clfeval.score(g, p, sample_weight=[], **kw),
        lambda g, p, **kw: clfeval.score(g, p, blocks=[], **kw),
        lambda g, p, **kw: clfeval.compare(g, {"A": p, "B": p}, **kw),
        lambda g, p, **kw: clfeval.compare(g, {"A": p, "B": p}, sample_weight=[], **kw),
    ):
        with pytest.raises(InputError) as by_matrix:
            call(empty, empty)
        with pytest.raises(InputError) as by_sets:
            call([], [], multilabel=True)
        assert str(by_matrix.value) == str(by_sets.value)


def test_matrices_are_not_counted_instance_by_instance(monkeypatch: pytest.MonkeyPatch) -> None:
    import clfeval.inputs.arrays as arrays

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("an indicator matrix was read instance by instance")

    for name in ("count_label_sets", "count_systems", "count_in_blocks", "count_weighted", "_label_sets"):
        monkeypatch.setattr(arrays, name, refuse)
    gold, (pred, other) = _matrices(1, n=2000, systems=2)
    w = np.random.default_rng(1).random(len(gold))
    folds = np.arange(len(gold)) % 3
    clfeval.score(gold, pred, blocks=np.arange(len(gold)) // 10)
    clfeval.score(gold, pred, sample_weight=w)
    clfeval.compare(gold, {"A": pred, "B": other}, metrics="micro.f1", test=clfeval.Test(rounds=50, seed=1))
    clfeval.cv(gold, pred, folds, sample_weight=w)
    with pytest.raises(AssertionError, match="instance by instance"):  # the patch bites: label tuples use them
        clfeval.score(_sets(gold), _sets(pred), multilabel=True, labels=NAMES)


@pytest.mark.parametrize("seed", range(3))
def test_accumulator_reads_indicator_frames_by_column_name(seed: int) -> None:
    """An Accumulator fed data frames counts their columns by name, as clfeval.score does: batches whose columns come
    in another order (or in another order than the declared labels) were summed by position, each label's row
    holding another label's counts without a word; frames that name other labels are refused."""
    import pandas as pd
    import polars as pl

    gold, (pred,) = _matrices(seed, n=120)
    w = np.random.default_rng(seed).uniform(0, 2, len(gold))
    order = list(np.random.default_rng(seed + 1).permutation(len(NAMES)))
    shuffled = [NAMES[j] for j in order]
    for weights in (None, w):
        expected = clfeval.score(gold, pred, labels=NAMES, sample_weight=weights).flat(per_label=True)
        for declared in (None, NAMES):
            acc = clfeval.Accumulator("multi-label", labels=declared)
            half = len(gold) // 2
            part = None if weights is None else weights[:half]
            acc.update(pd.DataFrame(gold[:half], columns=NAMES), pd.DataFrame(pred[:half], columns=NAMES),
                       sample_weight=part)  # fmt: skip
            part = None if weights is None else weights[half:]
            acc.update(pl.DataFrame(gold[half:, order], schema=shuffled), pl.DataFrame(pred[half:, order],
                       schema=shuffled), sample_weight=part)  # fmt: skip
            got = acc.score().flat(per_label=True)
            assert list(acc.labels) == NAMES
            assert got == pytest.approx(expected, rel=1e-12, nan_ok=True)
    acc = clfeval.Accumulator("multi-label", labels=NAMES)
    other = pd.DataFrame(gold, columns=[*NAMES[:-1], "other"])
    with pytest.raises(InputError, match="are not the accumulator's labels"):
        acc.update(other, other)
