"""compare on several systems' joint counts of scores (JointScoreCounts) is compare on the same instances as arrays:
the same pairs' rows, the same draws, the same numbers, and each system's own result."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

import clfeval
from clfeval.count.jointscored import JointScoreCounts
from clfeval.errors import OptionError
from clfeval.scoring.scored import Conventions


def _case(seed: int, kind: str) -> tuple[np.ndarray, dict[str, np.ndarray], tuple[str, ...], tuple[str, ...]]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 160))
    if kind == "binary":
        gold = rng.integers(0, 2, n)
        systems = {s: np.round(rng.random(n), 1) for s in "ABC"}
        return gold, systems, ("0", "1"), ("1",)
    if kind == "multi":
        gold = rng.integers(0, 3, n)
        systems = {}
        for s in "ABC":
            p = np.round(rng.random((n, 3)), 1) + 0.05
            systems[s] = p / p.sum(axis=1, keepdims=True)
        return gold, systems, ("0", "1", "2"), ("0", "1", "2")
    gold = (rng.random((n, 3)) < 0.4).astype(np.int8)
    systems = {s: np.round(rng.random((n, 3)), 1) for s in "ABC"}
    return gold, systems, ("0", "1", "2"), ("0", "1", "2")


def _same(a: object, b: object, tol: float = 0.0) -> None:
    x, y = a.to_dict(), b.to_dict()  # type: ignore[attr-defined]
    for d in (x, y):  # the provenance differs (arrays, counts): nothing else
        for r in d["results"].values():
            r.pop("inputs")
    if tol == 0.0:
        assert json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)
        return
    _close(x, y, tol)


def _close(x: object, y: object, tol: float) -> None:
    if isinstance(x, dict):
        assert isinstance(y, dict) and set(x) == set(y)
        for k in x:
            _close(x[k], y[k], tol)
    elif isinstance(x, list):
        assert isinstance(y, list) and len(x) == len(y)
        for u, v in zip(x, y):
            _close(u, v, tol)
    elif isinstance(x, float) and isinstance(y, float):
        assert x == pytest.approx(y, rel=tol, abs=tol, nan_ok=True)
    else:
        assert x == y


@pytest.mark.parametrize("seed", range(9))
def test_compare_of_joint_counts_is_compare_of_the_arrays(seed: int) -> None:
    kind = ("binary", "multi", "multilabel")[seed % 3]
    gold, systems, labels, columns = _case(seed, kind)
    weighted = seed % 4 == 3
    weight = np.round(np.random.default_rng(seed).random(len(gold)) * 2, 1) if weighted else None
    joint = JointScoreCounts.of_systems(labels, columns, gold, systems, weight)
    metrics = {"binary": ["auc", "brier", "ece"], "multi": ["macro.auc", "ovo.auc", "top_1_accuracy", "log_loss"],
               "multilabel": ["macro.auc", "lrap", "micro.average_precision"]}[kind]  # fmt: skip
    conventions = (Conventions(), Conventions(lower_is_more_confident=True), Conventions(score_bins=5))[seed % 3]
    if conventions.ranking_only:
        metrics = [m for m in metrics if "auc" in m or "precision" in m or m == "lrap"]
    ml = True if kind == "multilabel" else None
    tests = ["bootstrap", "ar"] + ([] if weighted else ["delong"])
    for test in tests:
        use = metrics if test != "delong" else [m for m in metrics if m in ("auc", "macro.auc")]
        keywords = {"test": test, "metrics": use, "conventions": conventions, "baseline": "B" if seed % 2 else None}
        if test != "delong":
            keywords.update(seed=seed, rounds=40)
        arrays = clfeval.compare(gold, scores=systems, multilabel=ml, sample_weight=weight, **keywords)
        counted = clfeval.compare(joint, **keywords)
        if test == "delong":  # exact on the instances as given, or on their distinct rows with counts: equal numbers
            pairs = [("A", "B"), ("A", "C"), ("B", "C")]
            assert arrays.distinct_rows == len(gold)
            assert counted.distinct_rows == max(len(joint.pair(a, b)[3]) for a, b in pairs) <= len(gold)
            _same(replace(arrays, distinct_rows=0), replace(counted, distinct_rows=0), tol=1e-12)
        else:
            _same(arrays, counted)
        for s in systems:  # each system's own result: its scores of the arrays, as score gives them
            alone = clfeval.score(gold, scores=systems[s], multilabel=ml, sample_weight=weight,
                                  conventions=conventions, labels=None if ml else [0, 1, 2][: len(labels)])  # fmt: skip
            assert counted.results[s].values == pytest.approx(dict(alone.values), nan_ok=True)


def test_joint_counts_refuse_what_they_carry_and_check_probabilities() -> None:
    gold, systems, labels, columns = _case(1, "binary")
    joint = JointScoreCounts.of_systems(labels, columns, gold, systems)
    with pytest.raises(OptionError, match="no sample_weight"):
        clfeval.compare(joint, sample_weight=np.ones(len(gold)))
    with pytest.raises(OptionError, match="no blocks, labels"):
        clfeval.compare(joint, blocks=np.arange(len(gold)) // 10, labels=[0, 1])
    wide = {**systems, "B": systems["B"] * 3}  # no probabilities: refused naming the system, unless declared
    bad = JointScoreCounts.of_systems(labels, columns, gold, wide)
    with pytest.raises(OptionError, match=r"scores\['B'\].*not probabilities"):
        clfeval.compare(bad, test="delong")
    r = clfeval.compare(bad, test="delong", conventions=Conventions(not_probabilities=True))
    assert r.pair("A", "B", "auc").score_b == pytest.approx(clfeval.compare(gold, scores=wide, test="delong",
        conventions=Conventions(not_probabilities=True)).pair("A", "B", "auc").score_b)  # fmt: skip
