"""Scores by group of scored predictions (score(gold, scores=S, groups=G)): each group equals scikit-learn on its
subset over the whole data's classes, the DeLong test between groups equals pROC's roc.test(paired = FALSE), the
permutation p equals a permutation of membership by hand, the gaps' intervals (DeLong's, the group-stratified
bootstrap, with blocks), fairness at the threshold equals fairlearn's, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest
from fairlearn import metrics as fm
from sklearn.metrics import average_precision_score, brier_score_loss, log_loss, roc_auc_score

import clfeval
from clfeval.count.scored import ScoreCounts
from clfeval.errors import OptionError

FIXTURES = json.loads((Path(__file__).parent / "data" / "proc" / "unpaired.json").read_text())


def _binary(seed: int, n: int = 400, groups: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    g = rng.choice([f"g{i}" for i in range(groups)], n)
    shift = np.where(g == "g0", 0.1, 0.35)
    s = np.clip(rng.random(n) * (1 - shift) + shift * y, 0, 1).round(2)
    return y, s, g


@pytest.mark.parametrize("seed", range(5))
def test_binary_groups_equal_sklearn_on_each_subset(seed: int) -> None:
    y, s, g = _binary(seed)
    w = np.random.default_rng(seed).random(len(y)) if seed % 2 else None
    r = clfeval.score(y, scores=s, groups=g, sample_weight=w, test="permutation", rounds=20, seed=seed)
    assert isinstance(r, clfeval.Sliced) and r.metrics == ("auc",)
    assert r.test_method["name"] == "permutation"
    for name in r.names:
        m = g == name
        sw = None if w is None else w[m]
        assert r[f"by_group.{name}.auc"] == pytest.approx(roc_auc_score(y[m], s[m], sample_weight=sw), abs=1e-12)
        ap = average_precision_score(y[m], s[m], sample_weight=sw)
        assert r[f"by_group.{name}.average_precision"] == pytest.approx(ap, abs=1e-12)
        assert r[f"by_group.{name}.log_loss"] == pytest.approx(log_loss(y[m], s[m], sample_weight=sw), abs=1e-12)
        assert r[f"by_group.{name}.brier"] == pytest.approx(brier_score_loss(y[m], s[m], sample_weight=sw), abs=1e-12)
        rest = ~m
        want = roc_auc_score(y[m], s[m], sample_weight=sw) - roc_auc_score(
            y[rest], s[rest], sample_weight=None if w is None else w[rest]
        )
        assert r.gap("auc", name).difference == pytest.approx(want, abs=1e-12)
    aucs = [roc_auc_score(y[g == n], s[g == n], sample_weight=None if w is None else w[g == n]) for n in r.names]
    assert r.gap("auc").difference == pytest.approx(max(aucs) - min(aucs), abs=1e-12)
    assert r.gap("auc").ratio == pytest.approx(min(aucs) / max(aucs), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_multiclass_and_multilabel_groups_equal_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 500
    g = rng.choice(["es", "en", "fr"], n)
    y = rng.choice(["a", "b", "c", "d"], n)
    s = rng.dirichlet([1, 1, 1, 1], n)
    s[np.arange(n), np.searchsorted(["a", "b", "c", "d"], y)] += 0.3
    s /= s.sum(axis=1, keepdims=True)
    r = clfeval.score(y, scores=s, groups=g, metrics=["macro.auc", "log_loss"], test="permutation", rounds=20)
    assert r.metrics == ("macro.auc", "log_loss")
    for name in r.names:
        m = g == name
        want = roc_auc_score(y[m], s[m], multi_class="ovr", average="macro", labels=["a", "b", "c", "d"])
        assert r[f"by_group.{name}.macro.auc"] == pytest.approx(want, abs=1e-12)
        assert r[f"by_group.{name}.log_loss"] == pytest.approx(log_loss(y[m], s[m], labels=list("abcd")), abs=1e-9)
    Y = (rng.random((n, 5)) < 0.35).astype(int)
    S = np.clip(rng.random((n, 5)) * 0.8 + 0.2 * Y, 0, 1)
    r = clfeval.score(Y, scores=S, multilabel=True, groups=g, test="none")
    assert r.metrics == ("macro.auc",)
    for name in r.names:
        m = g == name
        for average in ("macro", "micro", "weighted"):
            want = roc_auc_score(Y[m], S[m], average=average)
            assert r[f"by_group.{name}.{average}.auc"] == pytest.approx(want, abs=1e-12)


def test_a_group_without_a_class_keeps_the_whole_datas_classes() -> None:
    rng = np.random.default_rng(3)
    y = np.array(["a", "b", "c"] * 60)
    g = np.where(np.arange(180) < 90, "x", "y")
    y[(g == "x") & (y == "c")] = "a"  # group x has no gold c
    s = rng.dirichlet([1, 1, 1], 180)
    r = clfeval.score(y, scores=s, groups=g, test="none")
    assert r.by_group["x"].counts.labels == r.overall.counts.labels == ("a", "b", "c")
    assert r.by_group["x"].counts.columns == ("a", "b", "c")
    assert np.isnan(r["by_group.x.macro.auc"])
    assert any("group 'x'" in w and "macro.auc" in w for w in r.warnings)


def _fixture_case(case: dict) -> tuple[list[str], np.ndarray, np.ndarray]:
    gold = [*case["gold_a"], *case["gold_b"]]
    s = np.array([*case["a"], *case["b"]], dtype=float)
    g = np.array(["A"] * len(case["a"]) + ["B"] * len(case["b"]))
    return gold, s, g


@pytest.mark.parametrize("case", FIXTURES["random"], ids=lambda c: c["case"])
def test_delong_between_groups_equals_proc_roc_test_unpaired(case: dict) -> None:
    gold, s, g = _fixture_case(case)
    interval = clfeval.CI("delong", resamples=100, seed=0)  # resamples: the largest gap's bootstrap alone
    r = clfeval.score(gold, scores=s, groups=g, positive="Poor", ci=interval, conventions=_ranking())
    assert r.test_method["name"] == "delong"
    assert r["by_group.A.auc"] == pytest.approx(case["auc_a"], abs=1e-12)
    assert r["by_group.B.auc"] == pytest.approx(case["auc_b"], abs=1e-12)
    for test in r.tests:  # two groups: the pair and each group against the rest are pROC's one test
        assert test.test == "delong"
        assert test.p_value == pytest.approx(case["p_two_sided"], rel=1e-9, abs=1e-15)
    pair = r.gap("auc", "A", "B")
    assert pair.difference == pytest.approx(case["auc_a"] - case["auc_b"], abs=1e-12)
    if case["statistic"] not in (0, None) and np.isfinite(case["statistic"]):
        se = (case["auc_a"] - case["auc_b"]) / case["statistic"]  # pROC's D = d / √(V_a + V_b)
        z = NormalDist().inv_cdf(0.975)
        assert pair.difference_ci == pytest.approx((pair.difference - z * se, pair.difference + z * se), abs=1e-9)
        assert "DeLong" in pair.method and r.gap_method["name"] == "delong"


def _ranking() -> clfeval.scoring.scored.Conventions:
    from clfeval.scoring.scored import Conventions

    return Conventions(not_probabilities=True)


def test_delong_p_values_are_holm_adjusted_per_family() -> None:
    y, s, g = _binary(1, groups=4)
    r = clfeval.score(y, scores=s, groups=g)
    from clfeval.infer.delong import delong_unpaired

    for test in r.tests:
        a = ScoreCounts.of_arrays(y[g == test.a], s[g == test.a], labels=["0", "1"], positive="1")
        mask = g != test.a if test.b == "rest" else g == test.b
        b = ScoreCounts.of_arrays(y[mask], s[mask], labels=["0", "1"], positive="1")
        assert test.p_value == pytest.approx(delong_unpaired(a, b).p_value, rel=1e-12)
    for family in ("pair", "rest"):
        found = sorted((t for t in r.tests if t.between == family), key=lambda t: t.p_value)
        m = len(found)
        running = 0.0
        for i, t in enumerate(found):
            running = max(running, min(1.0, (m - i) * t.p_value))
            assert t.p_holm == pytest.approx(running, abs=1e-15)


def test_permutation_p_equals_a_permutation_of_membership_by_hand() -> None:
    rng = np.random.default_rng(7)
    n = 300
    y, g = rng.integers(0, 2, n), rng.choice(["g0", "g1"], n)
    s = np.clip(rng.random(n) * 0.7 + np.where(g == "g0", 0.3, 0.35) * y, 0, 1).round(2)
    r = clfeval.score(y, scores=s, groups=g, test="permutation", rounds=4000, seed=5)
    observed = roc_auc_score(y[g == "g0"], s[g == "g0"]) - roc_auc_score(y[g == "g1"], s[g == "g1"])
    rng = np.random.default_rng(11)
    n0 = int((g == "g0").sum())
    hits = 0
    rounds = 800
    for _ in range(rounds):
        order = rng.permutation(len(y))
        a, b = order[:n0], order[n0:]
        d = roc_auc_score(y[a], s[a]) - roc_auc_score(y[b], s[b])
        hits += abs(d) >= abs(observed) - 1e-12
    want = (1 + hits) / (rounds + 1)
    got = next(t for t in r.tests if t.between == "pair")
    assert got.difference == pytest.approx(observed, abs=1e-12)
    assert got.p_value == pytest.approx(want, abs=0.05)  # 3 standard errors of 800 rounds
    assert 0.05 < want < 0.95
    assert r.test_method["rounds"] == 4000 and r.test_method["seed"] is not None


def test_stratified_bootstrap_gap_agrees_with_delong_and_rest_is_the_other_group() -> None:
    y, s, g = _binary(2, n=1200, groups=2)
    boot = clfeval.score(y, scores=s, groups=g, ci="bootstrap", resamples=2000, seed=3, test="bootstrap")
    delong = clfeval.score(y, scores=s, groups=g, ci="delong")
    b, d = boot.gap("auc", "g0", "g1"), delong.gap("auc", "g0", "g1")
    width_b, width_d = b.difference_ci[1] - b.difference_ci[0], d.difference_ci[1] - d.difference_ci[0]
    assert width_b == pytest.approx(width_d, rel=0.12)
    # two groups: the rest of g0 in every replicate is g1's replicate
    assert boot.gap("auc", "g0").difference_ci == pytest.approx(b.difference_ci, abs=1e-12)
    assert boot.gap_method["name"] == "bootstrap" and boot.gap_method["resamples"] == 2000
    assert boot.test_method["name"] == "bootstrap"
    again = clfeval.score(y, scores=s, groups=g, ci="bootstrap", resamples=2000, seed=3, test="bootstrap")
    assert again.flat() == boot.flat()


def test_blocks_are_resampled_whole_within_groups() -> None:
    """Each instance copied 6 times in its own block: resampling blocks gives the intervals of the instances
    themselves; resampling the copies as instances would give intervals √6 times narrower."""
    y, s, g = _binary(4, n=500, groups=2)
    k = 6
    yy, ss, gg = np.repeat(y, k), np.repeat(s, k), np.repeat(g, k)
    blocks = np.repeat(np.arange(len(y)), k)
    once = clfeval.score(y, scores=s, groups=g, ci="bootstrap", resamples=1500, seed=1, rounds=300)
    whole = clfeval.score(yy, scores=ss, groups=gg, blocks=blocks, ci="bootstrap", resamples=1500, seed=1, rounds=300)
    loose = clfeval.score(yy, scores=ss, groups=gg, ci="bootstrap", resamples=1500, seed=1, rounds=300)

    def width(r: clfeval.Sliced) -> float:
        low, high = r.gap("auc", "g0", "g1").difference_ci
        return high - low

    assert width(whole) == pytest.approx(width(once), rel=0.15)
    for r in (once, whole):  # the draws are of the groups' own rows: the interval lies around the observed gap
        gap = r.gap("auc", "g0", "g1")
        low, high = gap.difference_ci
        assert low < gap.difference < high and abs((low + high) / 2 - gap.difference) < 0.15 * (high - low)
    assert whole.gap("auc", "g0", "g1").difference_ci == pytest.approx(once.gap("auc", "g0", "g1").difference_ci,
                                                                       abs=0.02)  # fmt: skip
    assert width(loose) < 0.6 * width(whole)
    assert whole.test_method["name"] == "permutation"  # blocks: DeLong's unpaired test is not for them
    p_whole = whole.tests[0].p_value
    p_once = once.tests[0].p_value
    assert p_whole == pytest.approx(p_once, abs=0.1)


@pytest.mark.parametrize("seed", range(3))
def test_fairness_at_the_threshold_equals_fairlearn(seed: int) -> None:
    y, s, g = _binary(seed, groups=3 + seed)
    w = np.random.default_rng(seed).random(len(y)) * 2 if seed == 2 else None
    threshold = None if seed == 0 else 0.4
    r = clfeval.score(y, scores=s, groups=g, threshold=threshold, sample_weight=w, ci="bootstrap", resamples=200,
                      seed=seed, test="none")  # fmt: skip
    pred = (s >= (0.5 if threshold is None else threshold)).astype(int)
    assert r.fairness is not None and r.fairness["positive"] == "1"
    for name in ("demographic_parity_difference", "demographic_parity_ratio", "equalized_odds_difference",
                 "equalized_odds_ratio", "equal_opportunity_difference", "equal_opportunity_ratio"):  # fmt: skip
        want = getattr(fm, name)(y, pred, sensitive_features=g, sample_weight=w)
        assert r[f"fairness.{name}"] == pytest.approx(want, abs=1e-12)
        assert r.interval(f"fairness.{name}") is not None
    for name in r.names:  # each group's rates are its label report's at the threshold
        report = r.by_group[name].labels_at_threshold
        assert r[f"fairness.{name}.tpr"] == pytest.approx(report["recall"], abs=1e-12)


def test_no_threshold_no_fairness_and_multiclass_none() -> None:
    y, s, g = _binary(0)
    r = clfeval.score(y, scores=s * 5, groups=g, conventions=_ranking(), test="none")
    assert r.fairness is None and any("no fairness" in n for n in r.notes)
    rng = np.random.default_rng(0)
    r = clfeval.score(rng.integers(0, 3, 90), scores=rng.dirichlet([1, 1, 1], 90), groups=g[:90], test="none")
    assert r.fairness is None


def test_json_and_flat_names() -> None:
    y, s, g = _binary(0)
    r = clfeval.score(y, scores=s, groups=g, ci="delong")
    doc = json.loads(r.to_json())
    assert doc["schema"] == "clfeval.slices/1" and doc["task"] == "scored-binary"
    assert doc["test_method"]["name"] == "delong" and doc["gap_method"]["name"] == "delong"
    assert set(doc["by_group"]) == set(r.names)
    assert doc["by_group"]["g0"]["scores"]["auc"] == pytest.approx(r["by_group.g0.auc"], abs=1e-15)
    assert doc["gaps"][0]["difference_ci"] is not None and doc["tests"][0]["test"] == "delong"
    assert r.interval("by_group.g0.auc") is not None and r.interval("gap.max.auc") is not None
    assert r["auc"] == r.overall["auc"]


def test_refusals_are_one_line_option_errors() -> None:
    y, s, g = _binary(0)
    w = np.ones(len(y))
    with pytest.raises(OptionError, match="sample weights"):
        clfeval.score(y, scores=s, groups=g, sample_weight=w, test="delong")
    with pytest.raises(OptionError, match="compares AUCs"):
        clfeval.score(y, scores=s, groups=g, metrics="log_loss", test="delong")
    with pytest.raises(OptionError, match="blocks"):
        clfeval.score(y, scores=s, groups=g, blocks=np.arange(len(y)) // 4, test="delong")
    with pytest.raises(OptionError, match="blocks"):
        clfeval.score(y, scores=s, groups=g, blocks=np.arange(len(y)) // 4, ci="delong", test="none")
    with pytest.raises(OptionError, match="delta test between groups is for"):
        clfeval.score(y, scores=s, groups=g, test="delta")
    with pytest.raises(OptionError, match="counts of scored predictions hold none"):
        clfeval.score(ScoreCounts.of_arrays(y, s), groups=g)
    with pytest.raises(OptionError, match="one group only"):
        clfeval.score(y, scores=s, groups=["x"] * len(y))
    with pytest.raises(clfeval.errors.UnknownName, match="unknown score"):
        clfeval.score(y, scores=s, groups=g, metrics="macro.f1")
    # weights without a test named: the permutation test, not DeLong's
    r = clfeval.score(y, scores=s, groups=g, sample_weight=w, rounds=20, seed=0)
    assert r.test_method["name"] == "permutation"


@pytest.mark.parametrize("kind", ["binary", "multiclass", "multilabel", "weighted"])
def test_batched_aucs_equal_the_scores_of_each_resample(kind: str) -> None:
    from clfeval.scoring.batched import ScoredMeasures
    from clfeval.scoring.scored import Conventions, measures_of

    rng = np.random.default_rng(5)
    n = 200
    if kind == "multilabel":
        counts = ScoreCounts.of_label_sets((rng.random((n, 3)) < 0.4).astype(int), rng.random((n, 3)).round(1),
                                           ("a", "b", "c"))  # fmt: skip
    elif kind == "multiclass":
        counts = ScoreCounts.of_arrays(rng.integers(0, 3, n), rng.dirichlet([1, 1, 1], n).round(2))
    else:
        y, s = rng.integers(0, 2, n), rng.random(n).round(2)
        w = rng.random(n) if kind == "weighted" else None
        counts = ScoreCounts(("0", "1"), ("1",), y, s[:, None], np.ones(n, dtype=np.int64), w)
    draws = rng.multinomial(counts.n_instances, counts.count / counts.count.sum(), size=7).astype(float)
    found = ScoredMeasures(Conventions(), False).batched(counts)(draws)  # what the gaps between groups read
    for r, draw in enumerate(draws):
        want = measures_of(counts.with_counts(draw.astype(np.int64)), Conventions(), False)
        names = [f"per_label.{name}.auc" for name in counts.columns]
        if not counts.binary:
            names += ["macro.auc", "weighted.auc"]
        for name in names:
            assert found[name][r] == pytest.approx(want[name], abs=1e-12)


@pytest.mark.parametrize("metric", ["macro.auc", "weighted.auc", "per_label.b.auc"])
def test_delong_gap_variance_is_the_sum_of_the_groups_delong_variances(metric: str) -> None:
    rng = np.random.default_rng(12)
    n = 900
    g = rng.choice(["es", "en"], n)
    y = rng.choice(["a", "b", "c"], n)
    s = rng.dirichlet([2, 2, 2], n)
    s[np.arange(n), np.searchsorted(["a", "b", "c"], y)] += np.where(g == "es", 0.2, 0.5)
    s /= s.sum(axis=1, keepdims=True)
    r = clfeval.score(y, scores=s, groups=g, metrics=metric, ci=clfeval.CI("delong", resamples=100, seed=1))

    def half(result: clfeval.scoring.scored.Scored) -> float:
        low, high = result.interval(metric)
        assert low > 0 and high < 1  # not clipped: the half-width is z √V
        return (high - low) / 2

    gap = r.gap(metric, "en", "es")
    low, high = gap.difference_ci
    assert ((high - low) / 2) ** 2 == pytest.approx(half(r.by_group["en"]) ** 2 + half(r.by_group["es"]) ** 2,
                                                    rel=1e-9)  # fmt: skip
    assert gap.difference == pytest.approx(r[f"by_group.en.{metric}"] - r[f"by_group.es.{metric}"], abs=1e-12)
    assert r.test_method["name"] == "delong" and all(t.p_value < 0.05 for t in r.tests)


def test_stratified_block_bootstrap_gap_variance_is_the_sum_of_the_groups_block_bootstraps() -> None:
    """Groups are independent: the stratified bootstrap's gap has (nearly) the variance of the two groups' own
    block-bootstrap intervals (the path of score(..., blocks=) alone) added, with blocks of several rows each."""
    rng = np.random.default_rng(4)
    n = 1200
    g = np.repeat(rng.choice(["g0", "g1"], n // 4), 4)
    blocks = np.repeat(np.arange(n // 4), 4)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.random(n) * 0.7 + np.where(g == "g0", 0.15, 0.35) * y, 0, 1).round(3)
    r = clfeval.score(y, scores=s, groups=g, blocks=blocks, ci="bootstrap", resamples=3000, seed=1, test="none")

    def half(bounds: tuple[float, float]) -> float:
        return (bounds[1] - bounds[0]) / 2

    gap = r.gap("auc", "g0", "g1")
    alone = half(r.by_group["g0"].interval("auc")) ** 2 + half(r.by_group["g1"].interval("auc")) ** 2
    assert half(gap.difference_ci) ** 2 == pytest.approx(alone, rel=0.2)
    assert gap.difference_ci[0] < gap.difference < gap.difference_ci[1]


@pytest.mark.parametrize("case", FIXTURES["asah"], ids=lambda c: c["case"])
def test_delong_by_gender_on_asah_equals_proc(case: dict) -> None:
    """pROC's aSAH data grouped by its gender column: the test between the groups is pROC's roc.test(paired = FALSE)
    of the two genders' ROC curves."""
    import pandas as pd

    asah = pd.read_csv(Path(__file__).parent / "data" / "proc" / "asah.csv")
    r = clfeval.score(asah["outcome"], scores=asah[case["marker"]].astype(float), positive="Poor",
                      groups=asah["gender"], conventions=_ranking())  # fmt: skip
    assert r.columns == ("gender",) and set(r.names) == {"Female", "Male"}
    assert r["by_group.Male.auc"] == pytest.approx(case["auc_a"], abs=1e-12)
    assert r["by_group.Female.auc"] == pytest.approx(case["auc_b"], abs=1e-12)
    pair = next(t for t in r.tests if t.between == "pair")
    assert (pair.a, pair.b) == ("Female", "Male")
    assert pair.difference == pytest.approx(case["auc_b"] - case["auc_a"], abs=1e-12)
    assert pair.p_value == pytest.approx(case["p_two_sided"], rel=1e-9)
    assert r.test_method["name"] == "delong" and "roc.test" in r.test_method["definition"]


def test_permutation_within_strata_removes_a_confounded_auc_difference() -> None:
    """Scores informative in stratum A, not in B; group g0 mostly in A, g1 mostly in B: the permutation of the whole
    data finds a difference of AUC, the permutation within strata does not, and says which strata it used."""
    rng = np.random.default_rng(2)
    n = 800
    g = rng.choice(["g0", "g1"], n)
    stratum = np.where(rng.random(n) < np.where(g == "g0", 0.85, 0.15), "A", "B")
    y = rng.integers(0, 2, n)
    s = np.clip(rng.random(n) * 0.6 + np.where(stratum == "A", 0.4, 0.02) * y, 0, 1).round(3)
    plain = clfeval.score(y, scores=s, groups=g, test="permutation", rounds=999, seed=1)
    within = clfeval.score(y, scores=s, groups=g, strata=stratum, rounds=999, seed=1)
    assert within.test_method["name"] == "permutation"  # strata: the permutation test, not DeLong's
    pair = next(t for t in plain.tests if t.between == "pair")
    pair_within = next(t for t in within.tests if t.between == "pair")
    assert pair.p_value < 0.01 and pair_within.p_value > 0.05  # under H0 within strata, p is uniform
    assert within.test_method["strata"] == {"columns": ["stratum"], "n_strata": 2}
    assert plain.test_method["strata"] is None
    with pytest.raises(OptionError, match="strata="):
        clfeval.score(y, scores=s, groups=g, strata=stratum, test="delong")
