"""Scores by group at the seams: the same data through numpy, lists, pandas and polars give the same result; label
sets (collections and indicator matrices) by group equal scikit-learn per subset; the Slicing group and score's
shorthands are one thing; a group against the rest is the rest scored directly."""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl
import pytest
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

import clfeval


def _labels(seed: int, n: int = 240) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.choice(np.array(["cat", "dog", "eel"]), n, p=[0.5, 0.3, 0.2])
    p = np.where(rng.random(n) < 0.75, y, rng.choice(np.array(["cat", "dog", "eel"]), n))
    lang = rng.choice(np.array(["en", "es", "fr"]), n)
    sex = rng.choice(np.array(["f", "m"]), n)
    w = rng.gamma(2.0, 0.5, n)
    return {"y": y, "p": p, "lang": lang, "sex": sex, "w": w}


def _as(container: str, values: np.ndarray, name: str) -> object:
    if container == "numpy":
        return values
    if container == "list":
        return values.tolist()
    if container == "pandas":
        return pd.Series(values, name=name)
    return pl.Series(name, values)


CONTAINERS = ("numpy", "list", "pandas", "polars")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_every_container_gives_the_same_flat_result(seed: int, weighted: bool) -> None:
    d = _labels(seed)
    options = {"ci": "bootstrap", "resamples": 200, "seed": seed, "test": "permutation", "rounds": 199}
    found = {}
    for container in CONTAINERS:
        w = _as(container, d["w"], "w") if weighted else None
        r = clfeval.score(_as(container, d["y"], "y"), _as(container, d["p"], "p"),
                          groups=_as(container, d["lang"], "lang"), sample_weight=w, **options)  # fmt: skip
        found[container] = r.flat()
    first = found["numpy"]
    assert any(k.startswith("gap/") and k.endswith("_ci_low") for k in first)
    assert any(k.startswith("p/") for k in first)
    for container, flat in found.items():
        assert flat.keys() == first.keys(), container
        np.testing.assert_array_equal(np.array(list(flat.values())), np.array(list(first.values())), err_msg=container)


@pytest.mark.parametrize("seed", range(3))
def test_several_group_columns_through_every_frame_and_mapping(seed: int) -> None:
    d = _labels(seed)
    frame = pd.DataFrame({"lang": d["lang"], "sex": d["sex"]})
    ways = {
        "mapping": {"lang": d["lang"], "sex": d["sex"]},
        "pandas": frame,
        "polars": pl.DataFrame(frame),
        "mapping of lists": {"lang": d["lang"].tolist(), "sex": d["sex"].tolist()},
        "pandas series": {"lang": pd.Series(d["lang"]), "sex": pd.Series(d["sex"])},
    }
    found = {}
    for way, groups in ways.items():
        r = clfeval.score(d["y"], d["p"], groups=groups, ci="delta", test="delta", seed=seed)
        assert r.columns == ("lang", "sex"), way
        found[way] = r.flat()
    first = found["mapping"]
    for way, flat in found.items():
        assert flat == pytest.approx(first, abs=0, rel=0, nan_ok=True), way
    m = (d["lang"] == "es") & (d["sex"] == "m")
    assert first["by_group/es&m/accuracy"] == pytest.approx(accuracy_score(d["y"][m], d["p"][m]), abs=1e-12)


def _label_sets(seed: int, n: int = 300, k: int = 5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    prevalence = np.linspace(0.5, 0.08, k)
    gold = (rng.random((n, k)) < prevalence).astype(np.int64)
    keep = rng.random((n, k)) < 0.8
    add = rng.random((n, k)) < 0.07
    pred = np.where(gold == 1, keep, add).astype(np.int64)
    groups = rng.choice(np.array(["news", "web", "wiki"]), n, p=[0.5, 0.3, 0.2])
    return gold, pred, groups


@pytest.mark.parametrize("seed", range(5))
def test_label_sets_by_group_equal_sklearn_per_subset(seed: int) -> None:
    gold, pred, groups = _label_sets(seed)
    labels = [f"L{j}" for j in range(gold.shape[1])]
    as_sets = [[{labels[j] for j in np.flatnonzero(row)} for row in m] for m in (gold, pred)]
    by_sets = clfeval.score(as_sets[0], as_sets[1], groups=groups, multilabel=True, labels=labels, test="none")
    by_matrix = clfeval.score(pd.DataFrame(gold, columns=labels), pd.DataFrame(pred, columns=labels), groups=groups,
                              test="none")  # fmt: skip
    by_array = clfeval.score(gold, pred, groups=groups, test="none")  # columns 0 … k−1
    assert by_matrix.flat() == by_sets.flat()
    for name in by_sets.names:
        m = groups == name
        for average in ("micro", "macro", "weighted", "samples"):
            want = f1_score(gold[m], pred[m], average=average, zero_division=0)
            assert by_sets[f"by_group.{name}.{average}.f1"] == pytest.approx(want, abs=1e-12)
            assert by_array[f"by_group.{name}.{average}.f1"] == pytest.approx(want, abs=1e-12)
        assert by_sets[f"by_group.{name}.subset_accuracy"] == pytest.approx(accuracy_score(gold[m], pred[m]), abs=1e-12)
        for j, label in enumerate(labels):
            got = by_sets.by_group[name].per_label[label]
            assert got.precision == pytest.approx(precision_score(gold[m, j], pred[m, j], zero_division=0))
            assert got.recall == pytest.approx(recall_score(gold[m, j], pred[m, j], zero_division=0))
            assert got.support == int(gold[m, j].sum())


@pytest.mark.parametrize("seed", range(3))
def test_slicing_group_and_shorthands_are_one_thing(seed: int) -> None:
    d = _labels(seed)
    for test, rounds in (("permutation", 299), ("bootstrap", 299), ("delta", 10_000)):
        shorthand = clfeval.score(d["y"], d["p"], groups=d["lang"], metrics=["accuracy", "macro.f1"], test=test,
                                  rounds=rounds, seed=seed, ci="bootstrap", resamples=150)  # fmt: skip
        # seed= is shared by the interval and the slicing; a Slicing's own seed seeds the groups alone
        for given, shared in (
            (clfeval.Slicing(metrics=("accuracy", "macro.f1"), test=test, rounds=rounds), seed),
            (clfeval.Slicing(metrics=("accuracy", "macro.f1"), test=test, rounds=rounds, seed=seed), seed),
        ):
            with_group = clfeval.score(d["y"], d["p"], groups=d["lang"], slicing=given, seed=shared, ci="bootstrap",
                                       resamples=150)  # fmt: skip
            assert with_group.flat() == shorthand.flat()
            a, b = with_group.to_dict(), shorthand.to_dict()
            assert a["test_method"] == b["test_method"] and a["gap_method"] == b["gap_method"]
            assert a["metrics"] == ["accuracy", "macro.f1"]
        alone = clfeval.score(d["y"], d["p"], groups=d["lang"], ci="bootstrap", resamples=150,
                              slicing=clfeval.Slicing(metrics=("accuracy", "macro.f1"), test=test, rounds=rounds,
                                                      seed=seed))  # fmt: skip
        flat, expected = alone.flat(), shorthand.flat()
        assert {k: v for k, v in flat.items() if not k.startswith("overall/")} == {
            k: v for k, v in expected.items() if not k.startswith("overall/")
        }


@pytest.mark.parametrize("seed", range(12))
def test_a_group_against_the_rest_is_the_rest_scored_directly(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    n, k, g_count = int(rng.integers(60, 400)), int(rng.integers(2, 6)), int(rng.integers(2, 6))
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < rng.uniform(0.4, 0.9), y, rng.integers(0, k, n))
    groups = rng.choice(np.array([f"g{i}" for i in range(g_count)]), n)
    if len(set(groups.tolist())) < 2:
        groups[0], groups[1] = "g0", "g1"
    weighted = seed % 3 == 0
    w = rng.gamma(2.0, 0.5, n) if weighted else None
    labels = sorted(set(y.tolist()) | set(p.tolist()))
    metrics = ["accuracy", "macro.f1", "weighted.recall"]
    r = clfeval.score(y, p, groups=groups, sample_weight=w, metrics=metrics, test="none")
    for name in r.names:
        rest = groups != name
        direct = clfeval.score(y[rest], p[rest], labels=labels, sample_weight=None if w is None else w[rest])
        for metric in metrics:
            gap = r.gap(metric, name)
            assert (gap.a, gap.b) == (name, "rest")
            assert gap.value_b == pytest.approx(direct[metric], abs=1e-12)
            assert gap.difference == pytest.approx(r.value(name, metric) - direct[metric], abs=1e-12)
        if w is None:
            want = f1_score(y[rest], p[rest], labels=labels, average="macro", zero_division=0)
            assert r.gap("macro.f1", name).value_b == pytest.approx(want, abs=1e-12)
