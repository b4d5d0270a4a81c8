"""JointScoreCounts: several systems' scores of the same instances as distinct joint rows; each system's counts and
each pair's rows are its margins, and parts add up to the whole whatever their order."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from clfeval.count.jointscored import JointScoreCounts
from clfeval.count.scored import ScoreCounts
from clfeval.errors import OptionError


def _case(seed: int, k: int, weighted: bool) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray | None]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 200))
    gold = rng.integers(0, k, n)
    width = 1 if k == 2 else k
    systems = {s: np.round(rng.random((n, width)), 1) for s in ("A", "B", "C")}
    weight = np.round(rng.random(n) * 3, 1) if weighted else None
    return gold, systems, weight


@pytest.mark.parametrize("seed", range(6))
def test_margins_are_each_systems_counts_and_each_pairs_rows(seed: int) -> None:
    k = 2 if seed % 2 else 3
    labels = tuple("abc"[:k])
    columns = labels[-1:] if k == 2 else labels
    gold, systems, weight = _case(seed, k, weighted=seed % 3 == 0)
    joint = JointScoreCounts.of_systems(labels, columns, gold, systems, weight)
    assert joint.n_instances == len(gold)
    for s, scores in systems.items():
        own = ScoreCounts(labels, columns, gold, scores, np.ones(len(gold), dtype=np.int64), weight)
        mine = joint.system(s)
        for field in ("gold", "scores", "count"):
            np.testing.assert_array_equal(getattr(mine, field), getattr(own, field))
        if weight is not None:
            np.testing.assert_array_equal(mine.weight, own.weight)
    g, a, b, count, w = joint.pair("C", "A")
    table = np.column_stack([gold, systems["C"], systems["A"]] + ([] if weight is None else [weight]))
    rows, found = np.unique(table, axis=0, return_counts=True)
    ours = np.column_stack([g, a, b] + ([] if w is None else [w]))
    # the same rows with the same counts (orders may differ: compare as sorted tables)
    key = np.lexsort(ours.T[::-1])
    np.testing.assert_array_equal(ours[key], rows)
    np.testing.assert_array_equal(count[key], found)


def test_parts_add_to_the_whole_in_any_order() -> None:
    gold, systems, _ = _case(7, 3, weighted=False)
    labels = ("a", "b", "c")
    whole = JointScoreCounts.of_systems(labels, labels, gold, systems)
    cut = [0, 30, 31, len(gold)]
    parts = [
        JointScoreCounts.of_systems(labels, labels, gold[i:j], {s: v[i:j] for s, v in systems.items()})
        for i, j in itertools.pairwise(cut)
    ]
    for order in ([0, 1, 2], [2, 0, 1]):
        added = parts[order[0]] + parts[order[1]] + parts[order[2]]
        for field in ("gold", "scores", "count"):
            np.testing.assert_array_equal(getattr(added, field), getattr(whole, field))


def test_refusals() -> None:
    gold, systems, _ = _case(1, 3, weighted=False)
    labels = ("a", "b", "c")
    joint = JointScoreCounts.of_systems(labels, labels, gold, systems)
    with pytest.raises(OptionError, match="unknown system 'D'"):
        joint.system("D")
    other = JointScoreCounts.of_systems(labels, labels, gold, {"A": systems["A"], "B": systems["B"]})
    with pytest.raises(OptionError, match="cannot add scores of systems"):
        joint + other
    with pytest.raises(OptionError, match="each once"):
        JointScoreCounts(labels, labels, ("A", "A"), gold, np.zeros((len(gold), 6)), np.ones(len(gold)))
    with pytest.raises(OptionError, match="gold code outside"):
        JointScoreCounts(labels, labels, ("A",), gold + 3, np.zeros((len(gold), 3)), np.ones(len(gold)))
