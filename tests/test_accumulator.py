"""The streaming accumulator: counts added batch by batch (and merged across workers) equal the counts of the whole.

Oracles: :func:`clfeval.score` of the concatenated data (the same numbers, to the last bit) and scikit-learn's
``f1_score``; the sparse path is checked against the dense path and :func:`clfeval.count_labels`.
"""

from __future__ import annotations

import itertools
import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pytest
from sklearn.metrics import f1_score

import clfeval
from clfeval.accumulator import Accumulator
from clfeval.errors import InputError, OptionError
from tests.conftest import run_cli

PROVENANCE = ("inputs", "options")


def _without_provenance(result: Any) -> dict[str, Any]:
    return {k: v for k, v in result.to_dict().items() if k not in PROVENANCE}


def _cells(counts: clfeval.ConfusionCounts) -> set[tuple[str, str, int]]:
    return set(counts.entries())


def _single(n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, k, n))
    return gold, pred


def _chunks(n: int, parts: int) -> list[slice]:
    edges = np.linspace(0, n, parts + 1).astype(int)
    return [slice(a, b) for a, b in itertools.pairwise(edges)]


class ArrayOnly:
    """A tensor-like object exposing only ``__array__`` (as a framework tensor without DLPack would)."""

    def __init__(self, values: np.ndarray) -> None:
        self._values = values

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._values if dtype is None else self._values.astype(dtype)


class DLPackOnly:
    """A tensor-like object exposing only the DLPack protocol (numpy arrays implement it)."""

    def __init__(self, values: np.ndarray, device: tuple[int, int] = (1, 0)) -> None:
        self._values = values
        self._device = device
        self.shape = values.shape

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._values.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._device


class _DenseAccumulator(Accumulator):
    """An accumulator keeping a dense table up to 4000 labels, to compare with the sparse path."""

    _dense_cells = 4000 * 4000


# -- single-label: chunks, containers, oracles ------------------------------------------------------------------------


def test_single_label_chunks_in_every_container_equal_the_whole_and_sklearn() -> None:
    names = np.array(["cat", "dog", "emu", "fox", "gnu"])
    g, p = _single(5000, 5, seed=3)
    gold, pred = names[g], names[p]
    acc = Accumulator()
    wrap = [np.asarray, list, pd.Series, pl.Series, lambda a: a.astype(object), ArrayOnly]
    for i, part in enumerate(_chunks(len(gold), 12)):
        make = wrap[i % len(wrap)]
        acc.update(make(gold[part]), make(pred[part]))
    assert acc.n == 5000 and acc.updates == 12 and acc.label_origin == "seen"
    ours = acc.score()
    assert _without_provenance(ours) == _without_provenance(clfeval.score(gold, pred))
    assert ours.to_dict()["inputs"] == {"source": "accumulator", "updates": 12}
    for average in ("macro", "micro", "weighted"):
        assert ours.averages[average]["f"] == pytest.approx(f1_score(gold, pred, average=average), abs=1e-12)


def test_integer_labels_with_declared_zero_to_k_map_directly_and_equal_the_whole() -> None:
    gold, pred = _single(20000, 20, seed=4)
    acc = Accumulator(labels=range(20))
    for part in _chunks(len(gold), 7):
        acc.update(gold[part].astype(np.int32), pred[part].astype(np.int32))
    whole = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=range(20)))
    assert _without_provenance(acc.score()) == _without_provenance(whole)
    assert acc.counts.cells.tolist() == clfeval.count_labels(gold, pred).cells.tolist()


def test_labels_seen_grow_in_any_order_with_negative_and_large_integers() -> None:
    batches = [([5, 3, 5], [3, 3, 5]), ([0, -2, 5], [7, -2, 0]), ([10**9, 3], [3, 10**9])]
    acc = Accumulator()
    for gold, pred in batches:
        acc.update(np.array(gold), np.array(pred))
    all_gold = [x for g, _ in batches for x in g]
    all_pred = [x for _, p in batches for x in p]
    assert _cells(acc.counts) == _cells(clfeval.count_labels(all_gold, all_pred))
    assert set(acc.labels) == {"5", "3", "0", "-2", "7", str(10**9)}
    assert _without_provenance(acc.score()) == _without_provenance(clfeval.score(all_gold, all_pred))


def test_declared_labels_include_an_absent_label_and_macro_averages_over_it() -> None:
    gold = ["a", "b", "a", "c", "b", "a"]
    pred = ["a", "b", "b", "c", "a", "a"]
    declared = ["c", "b", "a", "zebra"]
    acc = Accumulator(labels=declared)
    acc.update(gold[:3], pred[:3])
    acc.update(np.array(gold[3:]), np.array(pred[3:]))
    result = acc.score()
    data = result.to_dict()
    assert data["labels"] == declared and data["label_source"] == "given"
    assert any("zebra" in note for note in data["notes"])
    assert data["options"]["labels"] == "declared"
    expected = f1_score(gold, pred, labels=declared, average="macro", zero_division=0)
    assert result.averages["macro"]["f"] == pytest.approx(expected, abs=1e-12)
    assert expected == pytest.approx(f1_score(gold, pred, average="macro") * 3 / 4)  # zebra's F1 = 0 counts
    # an explicit scoring with its own labels wins over the declared ones
    union = acc.score(scoring=clfeval.Scoring(labels_from="union"))
    assert union.to_dict()["labels"] == ["a", "b", "c"]


# -- the sparse path -------------------------------------------------------------------------------------------------


def test_sparse_counts_over_3000_labels_equal_the_dense_path_and_the_whole() -> None:
    rng = np.random.default_rng(11)
    k, n = 3000, 60000
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.3, gold, rng.integers(0, k, n))
    sparse, dense = Accumulator(labels=range(k)), _DenseAccumulator(labels=range(k))
    for part in _chunks(n, 9):
        sparse.update(gold[part], pred[part])
        dense.update(gold[part], pred[part])
    assert "sparse" in repr(sparse) and "dense" in repr(dense)
    ours, theirs, whole = sparse.counts, dense.counts, clfeval.count_labels(gold, pred)
    assert ours.labels == theirs.labels
    for field in ("gold", "pred", "count"):
        assert np.array_equal(getattr(ours, field), getattr(theirs, field))
    assert _cells(ours) == _cells(whole)
    assert sparse.n == n


def test_labels_seen_growing_past_the_dense_limit_switch_to_sparse_counts() -> None:
    rng = np.random.default_rng(12)
    names = np.array([f"label{i}" for i in range(2500)])
    acc = Accumulator()
    gold_parts, pred_parts = [], []
    for size, k in ((500, 10), (4000, 2500), (300, 40)):
        gold, pred = names[rng.integers(0, k, size)], names[rng.integers(0, k, size)]
        acc.update(gold, pred)
        gold_parts.append(gold)
        pred_parts.append(pred)
        if k == 10:
            assert "dense" in repr(acc)
    assert "sparse" in repr(acc)
    assert _cells(acc.counts) == _cells(clfeval.count_labels(np.concatenate(gold_parts), np.concatenate(pred_parts)))


# -- merging workers --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pickled", [False, True], ids=["in-process", "pickled"])
def test_three_workers_merge_to_one_accumulator(pickled: bool) -> None:
    gold, pred = _single(9000, 30, seed=5)
    one = Accumulator(labels=range(30))
    workers = [Accumulator(labels=range(30)) for _ in range(3)]
    for i, part in enumerate(_chunks(len(gold), 15)):
        one.update(gold[part], pred[part])
        workers[i % 3].update(gold[part], pred[part])
    if pickled:
        workers = [pickle.loads(pickle.dumps(w)) for w in workers]
    before = [w.n for w in workers]
    merged = workers[0] + workers[1] + workers[2]
    assert [w.n for w in workers] == before  # + leaves the operands alone
    assert merged.n == one.n and merged.updates == one.updates
    assert merged.counts.cells.tolist() == one.counts.cells.tolist()
    assert _without_provenance(merged.score()) == _without_provenance(one.score())
    assert sum(workers).counts.cells.tolist() == one.counts.cells.tolist()
    in_place = workers[0].merge(workers[1])
    assert in_place is workers[0] and workers[0].n == before[0] + before[1]


def test_workers_that_saw_different_labels_merge_by_name() -> None:
    a, b, c = Accumulator(), Accumulator(), Accumulator()
    a.update(["x", "y"], ["x", "x"])
    b.update([3, 1], [1, 1])
    c.update(["y", "z"], ["z", "y"])
    merged = a + b + c
    whole = clfeval.count_labels(["x", "y", "3", "1", "y", "z"], ["x", "x", "1", "1", "z", "y"])
    assert _cells(merged.counts) == _cells(whole)
    declared = Accumulator(labels=["z", "y", "x"])
    declared.update(["x"], ["y"])
    adopted = a + declared  # the declared set (and its order) wins; a's labels lie within it
    assert adopted.labels == ("z", "y", "x") and adopted.label_origin == "declared"
    assert _cells(adopted.counts) == {("x", "x", 1), ("y", "x", 1), ("x", "y", 1)}


# -- multi-label -------------------------------------------------------------------------------------------------------


def _indicators(n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.random((n, k)) < 0.3
    pred = np.where(rng.random((n, k)) < 0.8, gold, ~gold)
    return gold.astype(np.int8), pred.astype(np.int8)


def _sets(matrix: np.ndarray, names: list[str]) -> list[list[str]]:
    return [[names[j] for j in np.flatnonzero(row)] for row in matrix]


@pytest.mark.parametrize("k", [6, 40], ids=["packed in 64 bits", "wide rows"])
def test_multilabel_indicator_chunks_equal_the_whole_and_sklearn(k: int) -> None:
    gold, pred = _indicators(3000, k, seed=k)
    names = [f"L{j:02d}" for j in range(k)]
    acc = Accumulator("multi-label", labels=names)
    for i, part in enumerate(_chunks(len(gold), 8)):
        make = [np.asarray, ArrayOnly, DLPackOnly, lambda a: a.astype(bool), lambda a: a.astype(float)][i % 5]
        acc.update(make(gold[part]), make(pred[part]))
    whole = clfeval.score(
        _sets(gold, names), _sets(pred, names), multilabel=True, scoring=clfeval.Scoring(labels=names)
    )
    ours = acc.score()
    assert _without_provenance(ours) == _without_provenance(whole)
    for average in ("macro", "micro", "weighted", "samples"):
        expected = f1_score(gold, pred, average=average, zero_division=0)
        assert ours.averages[average]["f"] == pytest.approx(expected, abs=1e-12)


def test_multilabel_columns_without_labels_are_named_0_to_k_minus_1() -> None:
    gold, pred = _indicators(500, 5, seed=2)
    acc = Accumulator("multi-label")
    acc.update(gold[:200], pred[:200])
    acc.update(gold[200:], pred[200:])
    assert acc.labels == ("0", "1", "2", "3", "4") and acc.label_origin == "columns"
    names = list(acc.labels)
    assert acc.counts.pairs == clfeval.count_label_sets(_sets(gold, names), _sets(pred, names)).pairs
    with pytest.raises(InputError, match="6 columns; the accumulator has 5 labels"):
        acc.update(np.zeros((2, 6), dtype=int), np.zeros((2, 6), dtype=int))


def test_multilabel_collections_and_empty_sets_as_a_label() -> None:
    ml = clfeval.MultiLabel(empty="label", sep="|")
    gold = ["a|b", "", "b", "c|a", ""]
    pred = ["a", "", "b|c", "c|a", "b"]
    acc = Accumulator("multi-label", multilabel=ml)
    acc.update(gold[:2], pred[:2])
    acc.update(pd.Series(gold[2:]), pd.Series(pred[2:]))
    assert _without_provenance(acc.score()) == _without_provenance(clfeval.score(gold, pred, multilabel=ml))
    assert acc.counts.pairs[(("NONE",), ("NONE",))] == 1
    indicator = Accumulator("multi-label", labels=["a", "b"], multilabel=clfeval.MultiLabel(empty="label"))
    indicator.update(np.array([[0, 0], [1, 0]]), np.array([[0, 1], [1, 0]]))
    assert indicator.counts.pairs == {(("NONE",), ("b",)): 1, (("a",), ("a",)): 1}
    assert indicator.score().to_dict()["labels"] == ["a", "b", "NONE"]  # the empty set is a label of its own


def test_multilabel_workers_merge_and_pickle() -> None:
    gold, pred = _indicators(1200, 7, seed=9)
    names = list("abcdefg")
    one = Accumulator("multi-label", labels=names)
    workers = [Accumulator("multi-label", labels=names) for _ in range(3)]
    for i, part in enumerate(_chunks(len(gold), 6)):
        one.update(gold[part], pred[part])
        workers[i % 3].update(gold[part], pred[part])
    merged = sum(pickle.loads(pickle.dumps(w)) for w in workers)
    assert isinstance(merged, Accumulator)
    assert merged.counts.pairs == one.counts.pairs and merged.n == 1200
    assert _without_provenance(merged.score()) == _without_provenance(one.score())


# -- tensors -----------------------------------------------------------------------------------------------------------


def test_objects_with_only_array_or_only_dlpack_are_read() -> None:
    gold, pred = _single(1000, 4, seed=6)
    by_array, by_dlpack = Accumulator(labels=range(4)), Accumulator(labels=range(4))
    by_array.update(ArrayOnly(gold), ArrayOnly(pred))
    by_dlpack.update(DLPackOnly(gold), DLPackOnly(pred))
    expected = clfeval.count_labels(gold, pred).cells.tolist()
    assert by_array.counts.cells.tolist() == expected == by_dlpack.counts.cells.tolist()


class GradTensor(DLPackOnly):
    """A tensor that refuses export (as a torch tensor that requires grad does)."""

    def __dlpack__(self, **kwargs: Any) -> Any:
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad")


def test_a_tensor_on_another_device_or_that_refuses_export_is_refused_with_a_hint() -> None:
    acc = Accumulator()
    with pytest.raises(InputError, match=r"update 1: gold: is a tensor on cuda:0: move it to the CPU"):
        acc.update(DLPackOnly(np.arange(3), device=(2, 0)), np.arange(3))
    with pytest.raises(InputError, match=r"update 1: pred: cannot be read through DLPack \(Can't call numpy.*detach"):
        acc.update(np.arange(3), GradTensor(np.arange(3)))
    assert acc.n == 0


def test_equal_numbers_are_one_label_whatever_their_types_and_batches() -> None:
    """1, 1.0, np.uint64(1) (and True beside numbers) are one label, named by its value as clfeval.score names it
    (labelnames: the one rule), whatever the batches; mixing uint64 with int64 used to go through float64, where 2⁶⁰
    and 2⁶⁰ + 1 are one number."""

    def counted(*batches: tuple, labels: list | None = None) -> Accumulator:
        acc = Accumulator(labels=labels)
        for gold, pred in batches:
            acc.update(gold, pred)
        return acc

    big_g, big_p = np.array([2**60, 2**60 + 1], dtype=np.uint64), np.array([2**60 + 1, 2**60], dtype=np.int64)
    acc = counted((big_g, big_p))
    assert acc.labels == ("1152921504606846976", "1152921504606846977") and acc.score().accuracy == 0.0
    huge = np.array([2**63 + 5, 3], dtype=np.uint64)  # above int64: Python integers
    acc = counted((huge, huge[::-1]), (np.array([3.0]), np.array([2.5])))
    assert set(acc.labels) == {"3", "9223372036854775813", "2.5"} and acc.n == 3
    assert counted((np.array([5]), np.array([5])), (np.array([2**40], dtype=np.uint64), np.array([2**40]))).labels == (
        "5",
        "1099511627776",
    )

    gold, pred = np.array([0, 1, 2, 2, 1, 0]), np.array([0, 1, 1, 2, 0, 0])
    batches = [(gold[:2], pred[:2]), (gold[2:4].astype(float), pred[2:4].astype(np.float32)), (gold[4:], pred[4:])]
    acc = counted(*batches)
    assert acc.labels == ("0", "1", "2")  # named by value, not by the type it was first seen as
    assert acc.score().averages["macro"]["f"] == pytest.approx(f1_score(gold, pred, average="macro"), rel=1e-12)
    for g, p in [
        (gold, pred.astype(float)),
        (np.array([1, 2.5]), np.array([1, 1])),
        (np.array([1.0, 2.0]), np.array([2.0, 2.0])),
        (np.array([1, 2]), np.array([1.0, 3.0])),
        ([1, 2.5], [1, 1]),  # a list, read as a float array: still '1', as clfeval.score names it
        ([1, 2.0, 1, 2, 3], [1, 2, 3, 3, 3]),
    ]:
        assert counted((g, p)).labels == clfeval.score(g, p).labels  # named by value
    assert counted((np.array([-3, 2**62]), np.array([2**62, -3]))).score().accuracy == 0.0
    assert counted(([1, 2.5], [1, 1])).labels == ("1", "2.5") == clfeval.score([1, 2.5], [1, 1]).labels
    assert counted(([1.0, 2.0], [1.0, 1.0])).labels == ("1", "2")

    flags = [True, True, False, True, False], [True, False, False, True, True]
    mixed = counted(
        (np.array(flags[0][:3]), np.array(flags[1][:3])),
        (pd.Series(flags[0][3:] + [None]).dropna(), pd.Series(flags[1][3:] + [None]).dropna()),  # object dtype
    )
    assert mixed.labels == ("False", "True") == clfeval.score(np.array(flags[0]), np.array(flags[1])).labels
    assert mixed.score().averages["macro"]["f"] == pytest.approx(f1_score(*flags, average="macro"), rel=1e-12)
    assert counted((flags[0], flags[1]), labels=[False, True]).counts.cells.tolist() == [[1, 1], [1, 2]]
    assert counted((np.array([0, 1]), np.array([1, 1])), labels=[0.0, 1.0]).counts.cells.tolist() == [[0, 1], [0, 1]]
    with pytest.raises(InputError, match=r"update 1: gold\[0\]: holds the label '0.5', not among the 2 declared"):
        counted((np.array([0.5, 1.0]), np.array([0.0, 1.0])), labels=[0, 1])
    assert counted((np.array([1, 0], dtype=np.uint64), np.array([1, 2]))).labels == ("0", "1", "2")  # was IndexError

    # workers merge equal numbers as one label too (a worker fed booleans, one fed 0/1)
    bools = counted((np.array([True, False, True]), np.array([True, True, True])))
    ints = counted((np.array([0, 1, 1]), np.array([0, 1, 0])))
    expected = f1_score([1, 0, 1, 0, 1, 1], [1, 1, 1, 0, 1, 0], average="macro")
    for merged in (bools + ints, ints + bools):  # True and False beside the numbers 1 and 0: the labels 1 and 0
        assert merged.labels == ("0", "1") and merged.score().labels == ("0", "1")
        assert merged.score().averages["macro"]["f"] == pytest.approx(expected, rel=1e-12)
    floats = counted((np.array([1.0, 2.0]), np.array([2.0, 2.0])))
    assert (floats + counted((np.array([1, 2]), np.array([1, 1])))).labels == ("1", "2")
    declared = counted((np.array([0]), np.array([1])), labels=[0, 1])
    into_declared = bools.copy().merge(declared)  # the declared set is taken: the numbers 0 and 1
    assert into_declared.labels == ("0", "1") and into_declared.counts.cells.tolist() == [[0, 2], [0, 2]]
    strings = counted((["1", "True"], ["1", "True"]))  # strings are not numbers: a number named alike is an error
    with pytest.raises(InputError, match=r"labels 1 and '1' have the same name '1'"):
        strings + counted((np.array([1]), np.array([1])))
    with pytest.raises(InputError, match=r"labels True and 'True' have the same name 'True'"):
        strings + counted((np.array([True]), np.array([2])))  # the boolean True alone is named 'True' too
    with pytest.raises(OptionError, match=r"the declared labels 1 and 1\.0 are equal numbers"):
        Accumulator(labels=[1, 1.0, 0])
    both = Accumulator(labels=[0, 1]) + Accumulator(labels=[False, True])  # one declared set, spelled two ways
    assert both.labels == ("0", "1")
    after = bools.copy().merge(declared)
    after.reset()  # the declared numbers stay numbers
    after.update(np.array([True]), np.array([False]))
    assert after.labels == ("0", "1") and after.counts.cells.tolist() == [[0, 0], [1, 0]]


def test_a_list_of_large_integers_beside_floats_keeps_its_counts() -> None:
    """numpy reads [2**53 + 1, 1.5] as float64, where 2⁵³ + 1 is 2⁵³: the list is kept as Python numbers."""
    gold, pred = [2**53 + 1, 1.5, 2**53], [2**53, 1.5, 2**53]
    acc = Accumulator()
    acc.update(gold, pred)
    assert acc.score().accuracy == clfeval.score(gold, pred).accuracy == pytest.approx(2 / 3)
    huge = Accumulator()
    huge.update([np.uint64(2**63 + 1), -1], [-1, -1])
    assert huge.labels == ("-1", "9223372036854775809")


def test_equal_numbers_still_match_after_save_and_load(tmp_path: Path) -> None:
    """A count file says which labels were named from numbers, so a loaded accumulator matches them by value."""
    seen = Accumulator()
    seen.update(np.array([0, 1, 1]), np.array([0, 1, 0]))
    seen.save(tmp_path / "seen.json")
    back = Accumulator.load(tmp_path / "seen.json")
    back.update(np.array([False, True]), np.array([True, True]))
    back.update(np.array([0.0, 1.0]), np.array([1.0, 1.0]))
    assert back.labels == ("0", "1") and back.n == 7
    declared = Accumulator(labels=[0, 1])
    declared.update(np.array([0, 1]), np.array([1, 1]))
    declared.save(tmp_path / "declared.json")
    again = Accumulator.load(tmp_path / "declared.json")
    again.update(np.array([True]), np.array([False]))  # was refused: 'False' not among the declared labels
    assert again.labels == ("0", "1") and (again + Accumulator(labels=[False, True])).labels == ("0", "1")
    words = Accumulator()
    words.update(["1", "True"], ["1", "True"])
    words.save(tmp_path / "words.json")
    assert "number_labels" not in json.loads((tmp_path / "words.json").read_text())["options"]
    loaded = Accumulator.load(tmp_path / "words.json")
    loaded.update(np.array([1]), np.array([1]))
    assert loaded.labels == ("1", "True")  # the string 'True' was never the number 1


# -- files -------------------------------------------------------------------------------------------------------------


def test_an_empty_accumulator_saves_and_loads(tmp_path: Path) -> None:
    """A worker that received no batch saves an empty count file; loading it failed ("cells has shape (0,)")."""
    busy = Accumulator()
    busy.update(["a", "b", "b"], ["a", "a", "b"])
    for path, empty in [(tmp_path / "none.json", Accumulator()), (tmp_path / "zero.json", Accumulator())]:
        if path.name == "zero.json":
            empty.update([], [])
        empty.save(path)
        back = Accumulator.load(path)
        assert back.n == 0 and back.labels == ()
        assert clfeval.load_counts(str(path)).counts.n_instances == 0
        merged, alone = (back + busy).score().to_dict(), busy.score().to_dict()
        assert {**merged, "inputs": None} == {**alone, "inputs": None}  # the same numbers; one update more


def test_save_then_load_counts_scores_the_same(tmp_path: Path) -> None:
    gold, pred = _single(4000, 8, seed=7)
    acc = Accumulator()
    acc.update(gold[:1000], pred[:1000])
    acc.update(gold[1000:], pred[1000:])
    path = tmp_path / "run.counts.json"
    acc.save(path)
    loaded = clfeval.load_counts(str(path))
    assert _without_provenance(clfeval.score(loaded)) == _without_provenance(acc.score())
    again = Accumulator.load(path)
    assert again.n == acc.n and _cells(again.counts) == _cells(acc.counts)


def test_saved_declared_labels_come_back_with_accumulator_load(tmp_path: Path) -> None:
    declared = ["neg", "neu", "pos", "unused"]
    acc = Accumulator(labels=declared)
    acc.update(["neg", "pos", "pos"], ["neg", "neu", "pos"])
    path = tmp_path / "declared.json"
    acc.save(path)
    again = Accumulator.load(path)
    assert again.labels == tuple(declared) and again.label_origin == "declared"
    assert _without_provenance(again.score()) == _without_provenance(acc.score())
    loaded = clfeval.score(clfeval.load_counts(str(path)))  # the file's declared labels, not the 3 seen
    assert loaded.label_source == "given" and loaded.labels == tuple(declared)
    assert _without_provenance(loaded) == _without_provenance(acc.score())
    union = clfeval.score(clfeval.load_counts(str(path)), scoring=clfeval.Scoring(labels_from="union"))
    assert union.labels == ("neg", "neu", "pos")  # a policy given is a policy taken
    out = run_cli("score", "--counts", str(path), "--format", "json")
    assert out.returncode == 0 and json.loads(out.stdout)["labels"] == declared
    other = Accumulator(labels=["neg", "pos"])
    other.update(["neg"], ["pos"])
    other.save(tmp_path / "other.json")
    out = run_cli("score", "--counts", str(path), str(tmp_path / "other.json"))
    assert out.returncode == 2 and b"declares a label set of 2 labels" in out.stderr and b"Traceback" not in out.stderr
    with pytest.raises(InputError, match="'zebra', not among the 4 declared labels"):
        again.update(["zebra"], ["neg"])


def test_multilabel_save_and_load(tmp_path: Path) -> None:
    gold, pred = _indicators(300, 4, seed=8)
    acc = Accumulator("multi-label", labels=["w", "x", "y", "z"])
    acc.update(gold, pred)
    path = tmp_path / "ml.json"
    acc.save(path)
    again = Accumulator.load(path)
    assert again.task == "multi-label" and again.labels == acc.labels and again.counts.pairs == acc.counts.pairs
    assert _without_provenance(again.score()) == _without_provenance(acc.score())
    splitting = Accumulator("multi-label", labels=["w", "x", "y", "z"], multilabel=clfeval.MultiLabel(sep="|"))
    splitting.update(["w|x"], ["x"])  # the separator reads strings; it does not change how sets are counted
    assert (again + splitting).n == acc.n + 1


# -- state -------------------------------------------------------------------------------------------------------------


def test_reset_keeps_declared_labels_and_empty_batches_change_nothing() -> None:
    acc = Accumulator(labels=["a", "b"])
    acc.update(["a"], ["b"])
    acc.update([], [])
    assert acc.n == 1
    acc.reset()
    assert acc.n == 0 and acc.labels == ("a", "b") and acc.counts.n_instances == 0
    with pytest.raises(InputError, match="nothing to score"):
        acc.score()
    seen = Accumulator()
    seen.update(["q"], ["r"])
    seen.reset()
    assert seen.labels == ()


# -- errors ------------------------------------------------------------------------------------------------------------


def test_a_label_outside_the_declared_set_names_the_value_the_update_and_the_position() -> None:
    acc = Accumulator(labels=["a", "b"])
    acc.update(["a"], ["b"])
    with pytest.raises(InputError, match=r"^update 2: pred\[1\]: holds the label 'c', not among the 2 declared"):
        acc.update(["a", "b"], ["a", "c"])
    ints = Accumulator(labels=range(3))
    with pytest.raises(InputError, match=r"^update 1: gold\[2\]: holds the label '7'"):
        ints.update(np.array([0, 1, 7]), np.array([0, 1, 2]))
    assert acc.n == 1 and ints.n == 0  # a refused batch adds nothing


def test_length_mismatch_names_both_lengths() -> None:
    with pytest.raises(InputError, match="update 1: gold has 3 labels but pred has 2"):
        Accumulator().update([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="gold has 4 rows but pred has 3"):
        Accumulator("multi-label").update(np.zeros((4, 2)), np.zeros((3, 2)))


def test_two_dimensional_single_label_input_suggests_argmax() -> None:
    logits = np.random.default_rng(0).random((5, 3))
    with pytest.raises(InputError, match=r"gold: is 2-D \(shape \(5, 3\)\).*argmax\(axis=1\)"):
        Accumulator().update(logits, logits)


def test_missing_labels_and_non_indicator_values_are_refused() -> None:
    with pytest.raises(InputError, match=r"update 1: pred\[1\]: is None: a missing label"):
        Accumulator().update(np.array(["a", "b"], dtype=object), np.array(["a", None], dtype=object))
    with pytest.raises(InputError, match=r"update 1: gold\[0\]: is (nan|None): a missing label"):
        Accumulator().update(pd.Series([None, "b"]), pd.Series(["a", "b"]))
    with pytest.raises(InputError, match=r"update 1: gold\[1\]: is <NA>: a missing label"):
        Accumulator().update(np.array(["a", pd.NA], dtype=object), np.array(["a", "b"], dtype=object))
    with pytest.raises(InputError, match=r"gold\[2\]: is NaN"):
        Accumulator().update(np.array([1.0, 2.0, np.nan]), np.array([1.0, 2.0, 2.0]))
    with pytest.raises(InputError, match=r"pred\[1\]: holds 0.7 at column 0.*threshold"):
        Accumulator("multi-label").update(np.array([[1, 0], [0, 1]]), np.array([[1, 0], [0.7, 1]]))


def test_merging_different_tasks_options_or_declared_sets_is_refused() -> None:
    with pytest.raises(OptionError, match="cannot merge single-label counts with multi-label counts"):
        Accumulator().merge(Accumulator("multi-label"))
    with pytest.raises(OptionError, match="different declared label sets"):
        _ = Accumulator(labels=["a", "b"]) + Accumulator(labels=["a", "c"])
    strict = Accumulator("multi-label", multilabel=clfeval.MultiLabel(duplicates="collapse"))
    with pytest.raises(OptionError, match="cannot merge multi-label counts made with"):
        strict.merge(Accumulator("multi-label"))
    seen = Accumulator()
    seen.update(["a", "q"], ["a", "a"])
    with pytest.raises(InputError, match="'q', not among the 2 declared labels"):
        seen.merge(Accumulator(labels=["a", "b"]))
    with pytest.raises(OptionError, match="the declared label set is empty"):
        Accumulator(labels=[])
    with pytest.raises(OptionError, match="unknown task 'multiclass'"):
        Accumulator("multiclass")
    with pytest.raises(OptionError, match="multilabel options are for task='multi-label'"):
        Accumulator(multilabel=clfeval.MultiLabel())


TORCH_MISSING = (
    "PyTorch's CPU build is not installed: make test installs it where this machine keeps it on disk "
    "(torch==2.13.0+cpu; see build/torch.log), and downloads nothing elsewhere"
)


def test_real_torch_cpu_tensors_single_and_multi_label() -> None:
    """Real torch tensors go in through DLPack (torch is imported by the caller, never by clfeval); a tensor that
    requires grad is refused with the remedy."""
    torch = pytest.importorskip("torch", reason=TORCH_MISSING)
    generator = torch.Generator().manual_seed(0)
    gold = torch.randint(0, 5, (2000,), generator=generator)
    pred = torch.where(torch.rand(2000, generator=generator) < 0.6, gold, torch.randint(0, 5, (2000,)))
    acc = Accumulator(labels=range(5))
    acc.update(gold[:1200], pred[:1200])
    acc.update(gold[1200:].to(torch.int32), pred[1200:].to(torch.int32))
    expected = f1_score(gold.numpy(), pred.numpy(), average="macro")
    assert acc.n == 2000 and acc.score().averages["macro"]["f"] == pytest.approx(expected, rel=1e-12)
    with pytest.raises(InputError, match=r"update 3: gold: cannot be read through DLPack .*\.detach\(\)\.cpu\(\)"):
        acc.update(gold.float().requires_grad_(), pred.float())
    labels = ["a", "b", "c"]
    ml = Accumulator("multi-label", labels=labels)
    g_bits, p_bits = torch.rand(300, 3, generator=generator) < 0.4, torch.rand(300, 3, generator=generator) < 0.4
    ml.update(g_bits, p_bits)
    expected = f1_score(g_bits.numpy(), p_bits.numpy(), average="samples", zero_division=0)
    assert ml.score().averages["samples"]["f"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("width", [1, 7, 8, 9, 16, 25, 50])
def test_distinct_rows_match_numpys_unique_over_rows(width: int) -> None:
    """The word-wise sort of packed indicator rows finds the rows np.unique(axis=0) finds, with the same counts and
    each row's index into them (the order of the distinct rows may differ: only the pairs' counts matter)."""
    from clfeval.accumulator.sparse import _unique_rows

    rng = np.random.default_rng(width)
    base = rng.integers(0, 256, size=(40, width), dtype=np.uint8)
    rows = base[rng.integers(0, 40, size=500)]  # repeats
    rows[:3] = 0  # an all-zero row (the empty label set)
    expected, expected_counts = np.unique(rows, axis=0, return_counts=True)
    distinct, counts = _unique_rows(rows)
    assert sorted(map(bytes, distinct)) == sorted(map(bytes, expected))
    by_row = dict(zip(map(bytes, expected), expected_counts.tolist()))
    assert dict(zip(map(bytes, distinct), counts.tolist())) == by_row
    distinct, which = _unique_rows(rows, inverse=True)
    np.testing.assert_array_equal(distinct[which], rows)


def test_sparse_and_data_frame_indicator_matrices() -> None:
    """scikit-learn's multi-label y may be scipy.sparse; a data frame of 0/1 columns is an indicator matrix too
    (before, a sparse matrix's rows became labels named by their repr)."""
    from scipy import sparse

    gold, pred = _indicators(200, 3, seed=4)
    expected = Accumulator("multi-label", labels=["x", "y", "z"])
    expected.update(gold, pred)
    for convert in (
        sparse.csr_matrix,
        lambda m: pd.DataFrame(m, columns=["x", "y", "z"]),
        lambda m: pl.DataFrame(m, schema=["x", "y", "z"]),
        lambda m: pd.DataFrame(m, columns=["x", "y", "z"]).astype("Int64"),  # nullable columns: an object matrix
        lambda m: pd.DataFrame(m.astype(bool), columns=["x", "y", "z"]).astype("boolean"),
    ):
        acc = Accumulator("multi-label", labels=["x", "y", "z"])
        acc.update(convert(gold), convert(pred))
        assert acc.labels == ("x", "y", "z") and acc.counts.pairs == expected.counts.pairs
    holed = pd.DataFrame(gold, columns=["x", "y", "z"]).astype("Int64")
    holed.iloc[5, 2] = pd.NA
    with pytest.raises(InputError, match=r"update 1: gold\[5\]: holds <NA> at column 2"):
        Accumulator("multi-label", labels=["x", "y", "z"]).update(holed, pred)


def test_a_count_file_states_the_label_set_the_accumulators_scores_use(tmp_path: Path) -> None:
    """load_counts scores a saved accumulator over the labels its own score() uses: the indicator columns (none of
    them counted but the first), and NONE when empty label sets are a label."""
    columns = Accumulator("multi-label")
    columns.update(np.array([[1, 0, 0]]), np.array([[1, 0, 0]]))
    columns.save(tmp_path / "columns.json")
    assert clfeval.score(clfeval.load_counts(str(tmp_path / "columns.json"))).labels == ("0", "1", "2")
    again = Accumulator.load(tmp_path / "columns.json")
    assert again.label_origin == "columns" and again.score().labels == ("0", "1", "2")
    none = Accumulator("multi-label", labels=["x", "y"], multilabel=clfeval.MultiLabel(empty="label"))
    none.update([["x"], []], [["x"], ["y"]])
    none.save(tmp_path / "none.json")
    loaded = clfeval.score(clfeval.load_counts(str(tmp_path / "none.json")))
    assert loaded.labels == none.score().labels == ("x", "y", "NONE")
    assert not any("outside the label set" in w for w in loaded.warnings)
    assert _without_provenance(loaded) == _without_provenance(none.score())
    again = Accumulator.load(tmp_path / "none.json")
    assert again.labels == ("x", "y") and (again + none).n == 4  # it still merges with the one it was saved from
