"""Scores by group (score(..., groups=)): each group equals scikit-learn on its subset over the whole data's label
set, fairlearn's MetricFrame and fairness functions; the gaps, tests and seeds of clfeval.infer.slices."""

from __future__ import annotations

import numpy as np
import pytest
from fairlearn import metrics as fm
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

import clfeval
from clfeval.errors import InputError, OptionError


def _data(seed: int, n: int = 600, k: int = 3, groups: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    g = rng.choice([f"g{i}" for i in range(groups)], n)
    right = rng.random(n) < np.where(g == "g0", 0.55, 0.8)
    p = np.where(right, y, rng.integers(0, k, n))
    return y, p, g


@pytest.mark.parametrize("seed", range(6))
def test_each_group_equals_sklearn_on_its_subset_over_the_whole_label_set(seed: int) -> None:
    y, p, g = _data(seed, k=4, groups=4)
    r = clfeval.score(y, p, groups=g, test="none")
    labels = sorted(set(y) | set(p))
    for name in r.names:
        m = g == name
        for average in ("macro", "micro", "weighted"):
            want = f1_score(y[m], p[m], labels=labels, average=average, zero_division=0)
            assert r[f"by_group.{name}.{average}.f1"] == pytest.approx(want, abs=1e-12)
        assert r[f"by_group.{name}.accuracy"] == pytest.approx(accuracy_score(y[m], p[m]), abs=1e-12)
        assert r.by_group[name].n_instances == int(m.sum())
    assert r["macro.f1"] == pytest.approx(f1_score(y, p, average="macro"), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_metric_frame_and_fairness_functions_of_fairlearn(seed: int) -> None:
    y, p, g = _data(seed, k=2, groups=3 + seed % 3)
    r = clfeval.score(y, p, groups=g, test="none", ci="bootstrap", resamples=200, seed=seed)
    frame = fm.MetricFrame(
        metrics={"f1": f1_score, "precision": precision_score, "recall": recall_score, "accuracy": accuracy_score},
        y_true=y,
        y_pred=p,
        sensitive_features=g,
    )
    for name in r.names:
        for metric in ("f1", "precision", "recall", "accuracy"):
            assert r.value(name, metric) == pytest.approx(frame.by_group.loc[name, metric], abs=1e-12)
    for metric in ("f1", "precision", "recall", "accuracy"):
        assert r.difference(metric) == pytest.approx(frame.difference()[metric], abs=1e-12)
        assert r.ratio(metric) == pytest.approx(frame.ratio()[metric], abs=1e-12)
        assert r.group_min(metric) == pytest.approx(frame.group_min()[metric], abs=1e-12)
        assert r.difference(metric, "to_overall") == pytest.approx(frame.difference("to_overall")[metric], abs=1e-12)
        assert r.ratio(metric, "to_overall") == pytest.approx(frame.ratio("to_overall")[metric], abs=1e-12)
    for name in (
        "demographic_parity_difference",
        "demographic_parity_ratio",
        "equalized_odds_difference",
        "equalized_odds_ratio",
        "equal_opportunity_difference",
        "equal_opportunity_ratio",
    ):
        want = getattr(fm, name)(y, p, sensitive_features=g)
        assert r[f"fairness.{name}"] == pytest.approx(want, abs=1e-12), name
        low, high = r.interval(f"fairness.{name}")
        assert low <= high


def test_the_max_gap_is_fairlearn_difference_and_pairs_are_signed() -> None:
    y, p, g = _data(3)
    r = clfeval.score(y, p, groups=g, ci="delta", seed=4, test="delta")
    gap = r.gap("macro.f1")
    assert gap.difference == pytest.approx(r.difference("macro.f1"), abs=1e-12)
    assert gap.ratio == pytest.approx(r.ratio("macro.f1"), abs=1e-12)
    ab, ba = r.gap("macro.f1", "g0", "g1"), r.gap("macro.f1", "g1", "g0")
    assert ab.difference == pytest.approx(-ba.difference)
    assert ab.difference == pytest.approx(r.value("g0", "macro.f1") - r.value("g1", "macro.f1"))
    assert ab.difference_ci is not None and ab.difference_ci[0] < ab.difference < ab.difference_ci[1]
    rest = r.gap("macro.f1", "g0")
    others = g != "g0"
    want = f1_score(y[others], p[others], labels=[0, 1, 2], average="macro")
    assert rest.value_b == pytest.approx(want, abs=1e-12)


def test_delta_gap_variance_is_the_sum_of_the_groups_delta_variances() -> None:
    y, p, g = _data(5, n=900)
    r = clfeval.score(y, p, groups=g, ci="delta", test="delta")
    a, b = r.by_group["g1"], r.by_group["g2"]
    z = 1.959963984540054
    (la, ha), (lb, hb) = a.interval("accuracy"), b.interval("accuracy")
    se = np.hypot((ha - la) / (2 * z), (hb - lb) / (2 * z))
    gap = r.gap("accuracy", "g1", "g2")
    assert gap.difference_ci is not None
    assert (gap.difference_ci[1] - gap.difference_ci[0]) / (2 * z) == pytest.approx(se, rel=1e-6)


def test_seeded_results_repeat_and_seeds_are_named() -> None:
    y, p, g = _data(1)
    one = clfeval.score(y, p, groups=g, ci="bootstrap", seed=11, resamples=300, rounds=300)
    two = clfeval.score(y, p, groups=g, ci="bootstrap", seed=11, resamples=300, rounds=300)
    assert one.flat() == two.flat()
    assert one.test_method["base_seed"] == 11
    seeds = {r.intervals.seed for r in one.by_group.values()}
    assert len(seeds) == len(one.names)  # one spawned seed per group


def test_permutation_p_is_large_without_a_difference_and_small_with_one() -> None:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 4000)
    g = np.repeat(["a", "b"], 2000)
    p = np.where(rng.random(4000) < np.where(g == "a", 0.9, 0.7), y, 1 - y)
    r = clfeval.score(y, p, groups=g, metrics="accuracy", rounds=999, seed=1)
    (test,) = [t for t in r.tests if t.between == "pair"]
    assert test.p_value == pytest.approx(1 / 1000)
    same = clfeval.score(y, y, groups=g, metrics="accuracy", rounds=999, seed=1)
    assert next(t for t in same.tests if t.between == "pair").p_value == 1.0


def test_intersections_and_frames_name_their_groups() -> None:
    y, p, g = _data(4)
    sex = np.where(np.arange(len(y)) % 2 == 0, "f", "m")
    r = clfeval.score(y, p, groups={"lang": g, "sex": sex}, test="none")
    assert r.columns == ("lang", "sex")
    assert r.names[0] == "g0&f" and len(r.names) == 6
    m = (g == "g2") & (sex == "m")
    assert r["by_group.g2&m.accuracy"] == pytest.approx(accuracy_score(y[m], p[m]))


def test_groups_errors_are_one_line() -> None:
    y, p, g = _data(0)
    with pytest.raises(InputError, match="one group per instance"):
        clfeval.score(y, p, groups=g[:-1])
    with pytest.raises(OptionError, match="one group only"):
        clfeval.score(y, p, groups=["x"] * len(y))
    with pytest.raises(OptionError, match="without groups="):
        clfeval.score(y, p, test="permutation")
    with pytest.raises(OptionError, match="counts hold none"):
        clfeval.score(clfeval.ConfusionCounts(("a", "b"), [[1, 2], [3, 4]]), groups=["a"])
    groups = list(g)
    groups[7] = None
    with pytest.raises(InputError, match="missing group"):
        clfeval.score(y, p, groups=groups)
    with pytest.raises(OptionError, match="unknown test"):
        clfeval.score(y, p, groups=g, test="ttest")


def test_permutation_within_strata_removes_a_confounded_difference() -> None:
    """Accuracy depends on the stratum alone, and group a lives mostly in the easy stratum: the plain permutation
    finds a difference, the permutation within strata does not (and says which strata it used)."""
    rng = np.random.default_rng(0)
    n = 3000
    stratum = rng.integers(0, 3, n)
    g = np.where(rng.random(n) < np.where(stratum == 0, 0.8, 0.2), "a", "b")
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < np.array([0.9, 0.7, 0.6])[stratum], y, 1 - y)
    plain = clfeval.score(y, p, groups=g, metrics="accuracy", rounds=999, seed=1)
    within = clfeval.score(y, p, groups=g, strata=stratum, metrics="accuracy", rounds=999, seed=1)
    assert next(t for t in plain.tests if t.between == "pair").p_value < 0.01
    assert next(t for t in within.tests if t.between == "pair").p_value > 0.05
    assert within.test_method["strata"] == {"columns": ["stratum"], "n_strata": 3}
    with pytest.raises(OptionError, match="permutation test reads it"):
        clfeval.score(y, p, groups=g, strata=stratum, test="bootstrap")
    with pytest.raises(OptionError, match="give groups="):
        clfeval.score(y, p, strata=stratum)


def test_the_largest_gap_interval_reads_simultaneous_pairwise_intervals() -> None:
    """max − min's interval comes from simultaneous intervals of every pairwise difference, not from the percentile
    of resampled max − min (biased away from 0 where groups tie): groups of one accuracy get an interval from 0, and
    the bounds are those of the widest pair."""
    from clfeval.infer.slicing import range_interval, simultaneous

    rng = np.random.default_rng(0)
    values = np.array([0.8, 0.8, 0.8])
    draws = values[:, None] + rng.normal(0, 0.02, (3, 4000))
    low, high = range_interval(values, draws, 0.95)
    assert low == 0.0 and 0.04 < high < 0.12
    d = np.array([0.0, 0.0, 0.0])
    assert range_interval(np.array([0.9, 0.5, 0.7]), np.array([0.9, 0.5, 0.7])[:, None] + 0 * draws, 0.95) == (
        pytest.approx(0.4),
        pytest.approx(0.4),
    )
    one_low, one_high = simultaneous(d, rng.normal(0, 1, (3, 20000)), 0.95)
    # three independent N(0, 1): the simultaneous 95% half-width is the 0.983 quantile of |Z|, about 2.39
    assert one_high == pytest.approx(np.full(3, 2.39), abs=0.05) and one_low == pytest.approx(-one_high)
    y, p, g = _data(2)
    r = clfeval.score(y, p, groups=g, ci="bootstrap", resamples=400, seed=3, test="none")
    gap = r.gap("accuracy")
    assert gap.difference_ci is not None and gap.difference_ci[0] <= gap.difference <= gap.difference_ci[1]
    assert gap.ratio_ci is not None and gap.ratio_ci[0] <= gap.ratio <= gap.ratio_ci[1]


def test_groups_of_sentences_name_their_sentences() -> None:
    """Spans by group: a group's n_instances is its span confusion's entries (as its score's), and its sentences, the
    units resampled and permuted, are named beside them."""
    gold = [["B-PER", "O"], ["O"], ["B-LOC"], ["B-ORG", "I-ORG"]]
    pred = [["B-PER", "O"], ["B-LOC"], ["B-LOC"], ["B-ORG", "O"]]
    r = clfeval.score(gold, pred, spans="iob2", groups=["a", "b", "a", "b"], test="none")
    groups = {g["name"]: g for g in r.to_dict()["groups"]}
    assert groups["a"]["n_units"] == 2 and groups["a"]["unit"] == "sentences"
    assert groups["b"]["n_instances"] == r.by_group["b"].n_instances == 3  # a spurious LOC, ORG missed and spurious
    assert "n_units" not in clfeval.score(["a", "b"], ["a", "a"], groups=["x", "y"], test="none").to_dict()["groups"][0]


def test_one_seed_repeats_everything_a_result_by_group_draws() -> None:
    """A seed given to the slicing alone seeds the whole data's interval too (no draw of the run is left unseeded);
    without any seed, the one drawn is reported and repeats the run."""
    y, p, g = _data(6)
    one = clfeval.score(y, p, groups=g, ci="bootstrap", resamples=200, slicing=clfeval.Slicing(seed=5, rounds=200))
    two = clfeval.score(y, p, groups=g, ci="bootstrap", resamples=200, slicing=clfeval.Slicing(seed=5, rounds=200))
    assert one.overall.intervals.seed == 5 and one.flat() == two.flat()
    drawn = clfeval.score(y, p, groups=g, ci="bootstrap", resamples=200, rounds=200)
    again = clfeval.score(
        y, p, groups=g, ci="bootstrap", resamples=200, rounds=200, seed=drawn.test_method["base_seed"]
    )
    assert drawn.overall.intervals.seed == drawn.test_method["base_seed"] and drawn.flat() == again.flat()


@pytest.mark.parametrize("test", ["permutation", "bootstrap", "delta"])
def test_two_groups_test_one_hypothesis_once(test: str) -> None:
    """With two groups, a group against the rest is the pair itself: one p for all three, not three draws that
    Holm then doubles."""
    y, p, g = _data(7, groups=2)
    r = clfeval.score(y, p, groups=g, metrics="accuracy", test=test, ci="bootstrap", resamples=300, rounds=300, seed=2)
    pair = next(t for t in r.tests if t.between == "pair")
    rests = [t for t in r.tests if t.between == "rest"]
    assert [t.p_value for t in rests] == [pair.p_value] * 2 and [t.p_holm for t in rests] == [pair.p_value] * 2
    assert rests[0].difference == pytest.approx(pair.difference) and rests[1].difference == pytest.approx(
        -pair.difference
    )


def test_group_ids_are_named_as_labels_and_as_a_files_reader_names_them() -> None:
    """1.0 is the group '1' (as a float column read from a file names it), and 0.3 beside 0.30000000000000004 two."""
    r = clfeval.score([1, 0, 1, 0], [1, 1, 1, 0], groups=np.array([1.0, 1.0, 2.0, 2.0]), test="none")
    assert r.names == ("1", "2")
    assert clfeval.score([1, 0, 1, 0], [1, 1, 1, 0], groups=[0.1, 0.1, 0.1 + 0.2, 0.3], test="none").names == (
        "0.1",
        "0.3",
        "0.30000000000000004",
    )


def test_cv_by_group_takes_the_slicing_shorthands_and_refuses_them_without_groups() -> None:
    y, p, g = _data(8)
    folds = np.arange(len(y)) % 3
    r = clfeval.cv(y, p, folds, groups=g, metrics="accuracy", test="bootstrap", rounds=200, seed=1)
    assert r.metrics == ("accuracy",) and r.test_method["name"] == "bootstrap" and r.test_method["rounds"] == 200
    for keyword in ({"rounds": 20}, {"test": "permutation"}, {"metrics": "accuracy"}):
        with pytest.raises(OptionError, match=r"cv takes no .* without groups="):
            clfeval.cv(y, p, folds, **keyword)
        with pytest.raises(OptionError, match=r"cv takes no .* without groups="):
            clfeval.cv(y, scores=np.linspace(0, 1, len(y)), folds=folds, **keyword)
