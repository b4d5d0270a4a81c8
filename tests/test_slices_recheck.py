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


def test_a_pair_read_in_either_order_when_a_ratio_bound_is_zero() -> None:
    # r.gap(m, b, a) raised ZeroDivisionError when the stored pair's ratio interval reached 0 (a small group whose
    # recall resampled to 0)
    from fairlearn.metrics import MetricFrame
    from sklearn.metrics import recall_score

    rng = np.random.default_rng(3)
    n = 400
    groups = rng.integers(0, 30, n).astype(str)
    gold = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < 0.7, gold, 1 - gold)
    r = clfeval.score(gold, pred, groups=groups, pos_label=1, metrics="recall", ci="bootstrap", seed=1,
                      resamples=200, rounds=200)  # fmt: skip
    by = MetricFrame(metrics=recall_score, y_true=gold, y_pred=pred, sensitive_features=groups).by_group
    zero_bound = 0
    for gap in [g for g in r.gaps if g.between == "pair"]:
        back = r.gap("recall", gap.b, gap.a)
        assert back.difference == pytest.approx(by[gap.b] - by[gap.a], abs=1e-12)
        assert back.difference_ci == pytest.approx((-gap.difference_ci[1], -gap.difference_ci[0]))
        if gap.ratio_ci is None:
            assert back.ratio_ci is None
            continue
        low, high = gap.ratio_ci
        zero_bound += low == 0
        assert back.ratio_ci[0] == pytest.approx(1 / high if high else np.inf)
        assert back.ratio_ci[1] == pytest.approx(1 / low if low else np.inf)
    assert zero_bound > 0  # the case this checks occurs


@pytest.mark.parametrize("scored", [False, True], ids=["labels", "scores at a threshold"])
def test_a_group_without_positives_names_its_undefined_fairness(scored: bool) -> None:
    # a group with no gold positive has TPR 0/0: every summary reading the TPR was NaN with no word of why (fairlearn's
    # functions give a number there, reading the rate as 0)
    from fairlearn.metrics import MetricFrame, false_positive_rate, selection_rate

    rng = np.random.default_rng(7)
    n = 240
    groups = rng.choice(["a", "b", "c"], n)
    gold = rng.integers(0, 2, n)
    gold[groups == "c"] = 0
    prob = np.clip(0.5 * gold + rng.random(n) * 0.6, 0, 1)
    pred = (prob >= 0.5).astype(int)
    if scored:
        r = clfeval.score(gold, scores=prob, groups=groups, threshold=0.5)
    else:
        r = clfeval.score(gold, pred, groups=groups, pos_label=1)
    assert np.isnan(r.fairness["by_group"]["c"]["tpr"])
    assert np.isnan(r["fairness.equal_opportunity_difference"])
    warned = [w for w in r.warnings if w.startswith("tpr is undefined")]
    assert len(warned) == 1 and "'c'" in warned[0] and "equal_opportunity_difference" in warned[0]
    assert "demographic_parity_difference" not in warned[0]
    frame = MetricFrame(metrics={"selection_rate": selection_rate, "fpr": false_positive_rate}, y_true=gold,
                        y_pred=pred, sensitive_features=groups)  # fmt: skip
    assert r["fairness.demographic_parity_difference"] == pytest.approx(frame.difference()["selection_rate"])
    for g in "abc":
        assert r.fairness["by_group"][g]["fpr"] == pytest.approx(frame.by_group["fpr"][g])


def test_delta_p_values_between_groups_are_never_zero() -> None:
    # Wald's p was 2 (1 − Φ(|z|)), which rounds to 0.0 beyond |z| ≈ 8.3: p = 0 (and Holm's p = 0) for a large gap
    from scipy.stats import norm

    rng = np.random.default_rng(0)
    n = 600
    groups = rng.choice(["a", "b", "c"], n)
    gold = rng.choice(["x", "y"], n)
    right = rng.random(n) < np.where(groups == "b", 0.5, 0.95)
    pred = np.where(right, gold, np.where(gold == "x", "y", "x"))
    r = clfeval.score(gold, pred, groups=groups, test="delta", ci="delta", metrics="accuracy")
    for t in r.tests:
        gap = r.gap("accuracy", t.a, None if t.b == "rest" else t.b)
        se = (gap.difference_ci[1] - gap.difference_ci[0]) / (2 * norm.ppf(0.975))
        oracle = 2 * norm.sf(abs(t.difference) / se)
        assert 0 < t.p_value <= 1 and t.p_holm >= t.p_value
        assert t.p_value == pytest.approx(oracle, rel=1e-6)
    assert min(t.p_value for t in r.tests) < 1e-20  # the case this checks occurs


def test_a_block_split_across_groups_is_named() -> None:
    # groups= with blocks= accepted a block holding instances of two groups and said nothing: each group then
    # resampled (and the permutation dealt) its part of the block as an independent unit (30 + 31 units of 60 blocks)
    rng = np.random.default_rng(4)
    n = 300
    blocks = np.repeat(np.arange(60), 5)
    groups = np.where(blocks < 30, "a", "b")
    gold = rng.choice(["x", "y"], n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.choice(["x", "y"], n))
    kept = clfeval.score(gold, pred, groups=groups, blocks=blocks, ci="bootstrap", seed=1, resamples=50, rounds=50)
    assert not [w for w in kept.warnings if "block(s) hold instances of several groups" in w]
    groups[[0, 7]] = "b"
    split = clfeval.score(gold, pred, groups=groups, blocks=blocks, ci="bootstrap", seed=1, resamples=50, rounds=50)
    warned = [w for w in split.warnings if "block(s) hold instances of several groups" in w]
    assert len(warned) == 1 and warned[0].startswith("2 block(s)") and "'0', '1'" in warned[0]


@pytest.mark.parametrize("option", [{"ci": "delta"}, {"test": "delta"}], ids=["ci", "test"])
def test_macro_fa_gaps_by_the_delta_method(option: dict[str, str]) -> None:
    # metrics="macro_fa.f1" with the delta method raised KeyError ('averages', 'macro_fa', 'precision'): the delta
    # gradient asked a function restricted to the F of averages for the averages it reads
    rng = np.random.default_rng(3)
    n = 400
    groups = rng.choice(["a", "b"], n)
    gold = rng.choice(["x", "y", "z"], n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.choice(["x", "y", "z"], n))
    r = clfeval.score(gold, pred, groups=groups, metrics="macro_fa.f1", **option)
    whole = {g: clfeval.score(gold[groups == g], pred[groups == g], ci="delta") for g in "ab"}
    gap = r.gap("macro_fa.f1", "a", "b")
    assert gap.difference == pytest.approx(whole["a"]["macro_fa.f1"] - whole["b"]["macro_fa.f1"])
    if "ci" in option:  # Var(a − b) = Var a + Var b: each group's own delta interval
        half = [(hi - lo) / 2 for lo, hi in (whole[g].interval("macro_fa.f1") for g in "ab")]
        assert (gap.difference_ci[1] - gap.difference_ci[0]) / 2 == pytest.approx(np.hypot(*half), rel=1e-6)
    else:
        assert 0 < r.tests[0].p_value <= 1
