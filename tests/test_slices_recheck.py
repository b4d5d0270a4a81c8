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
