"""An outside check of scores by group (issue 39): options, naming and seams against independent oracles."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import clfeval


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ordinal_order_of_numbers_by_group_equals_each_subset(seed: int) -> None:
    # ordinal=[...] of numbers with groups= raised "labels= and ordinal= name different labels"
    rng = np.random.default_rng(seed)
    n = 240
    gold = rng.integers(0, 4, n)
    pred = np.clip(gold + rng.integers(-1, 2, n), 0, 3)
    groups = rng.choice(["a", "b", "c"], n)
    order = [0, 2, 1, 3]
    r = clfeval.score(gold, pred, ordinal=order, groups=groups, metrics="kappa_quadratic")
    enc = {v: i for i, v in enumerate(order)}
    for g in "abc":
        m = groups == g
        oracle = cohen_kappa_score([enc[v] for v in gold[m]], [enc[v] for v in pred[m]], weights="quadratic")
        assert r.by_group[g]["kappa_quadratic"] == pytest.approx(oracle, abs=1e-12)
        assert r.by_group[g]["kappa_quadratic"] == pytest.approx(
            clfeval.score(gold[m], pred[m], ordinal=order)["kappa_quadratic"], abs=1e-12
        )


@pytest.mark.parametrize(
    "names", [["rest", "c", "d"], ["a_vs_b", "c", "a", "b_vs_c"]], ids=["a group named rest", "names holding _vs_"]
)
def test_group_names_that_would_name_two_gaps_alike_are_refused(names: list[str]) -> None:
    # a group named "rest" made the pair (c, rest) and c against the rest both gap/c_vs_rest: flat() kept one of the
    # two silently (and r.gap("accuracy", "c", "rest") returned the other)
    rng = np.random.default_rng(0)
    n = 200
    gold = rng.choice(["x", "y"], n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.choice(["x", "y"], n))
    groups = np.array(names * (n // len(names)) + names[: n % len(names)])
    with pytest.raises(clfeval.InputError, match="would both be named"):
        clfeval.score(gold, pred, groups=groups, metrics="accuracy")


def test_gap_and_test_flat_names_are_unique() -> None:
    rng = np.random.default_rng(4)
    n = 300
    gold = rng.choice(["x", "y", "z"], n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.choice(["x", "y", "z"], n))
    groups = rng.choice(["max", "a", "b.c", "rest_", "vs"], n)
    r = clfeval.score(gold, pred, groups=groups, ci="bootstrap", seed=1, resamples=100, rounds=100)
    keys = [(g.name, g.metric) for g in r.gaps]
    assert len(keys) == len(set(keys))
    tests = [(f"{t.a}_vs_{t.b}", t.metric) for t in r.tests]
    assert len(tests) == len(set(tests))
