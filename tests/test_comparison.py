"""clfeval.compare end to end: per-instance reference tests, the common label set, Holm, rankings, calibration."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import clfeval
from clfeval.count.joint import JointCounts
from clfeval.errors import OptionError
from clfeval.infer.multiplicity import holm
from clfeval.inputs.arrays import count_systems
from clfeval.scoring.metrics import metric_key, metric_name


def _noisy(rng: np.random.Generator, gold: np.ndarray, k: int, accuracy: float) -> np.ndarray:
    return np.where(rng.random(len(gold)) < accuracy, gold, rng.integers(0, k, len(gold)))


def _label_sets(rng: np.random.Generator, n: int, names: str = "WXYZ") -> tuple[list, list, list]:
    gold = [[c for c in names if rng.random() < 0.35] for _ in range(n)]
    a = [[c for c in g if rng.random() < 0.85] + [c for c in names if c not in g and rng.random() < 0.1] for g in gold]
    b = [[c for c in g if rng.random() < 0.75] + [c for c in names if c not in g and rng.random() < 0.15] for g in gold]
    return gold, a, b


def _value(result: clfeval.Scores, metric: str) -> float:
    data = result.to_dict()
    node = data
    key = metric_key(metric, labels=result.labels, task=result.task, beta=result.beta)
    if key[0] == "per_label":
        node = data["per_label"][key[1]]
        return node[metric.rsplit(".", 1)[1]]
    if key[0] == "averages":
        return data["averages"][key[1]][metric.split(".", 1)[1]]
    return data["subset_accuracy" if metric == "subset_accuracy" else key[0]]


DATASETS = {
    "skewed single-label": dict(metrics=["macro.f1", "micro.f1", "lfb.precision"], multilabel=False),
    "multi-label": dict(metrics=["samples.f1", "macro.f1", "hamming_loss"], multilabel=True),
}


def _dataset(name: str) -> tuple[list, list, list]:
    rng = np.random.default_rng(11)
    if name == "multi-label":
        return _label_sets(rng, 120)
    gold = rng.choice(4, 250, p=[0.6, 0.25, 0.1, 0.05])
    a, b = _noisy(rng, gold, 4, 0.75), _noisy(rng, gold, 4, 0.68)
    return [str(x) for x in gold], [str(x) for x in a], [str(x) for x in b]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DATASETS))
def test_randomization_p_values_agree_with_a_per_instance_reference(name: str) -> None:
    """Count-compressed AR on several metrics at once against swapping instance by instance and rescoring."""
    gold, a, b = _dataset(name)
    spec = DATASETS[name]
    ours = clfeval.compare(
        gold,
        {"A": a, "B": b},
        metrics=spec["metrics"],
        test=clfeval.Test(rounds=20_000, seed=3, exact_limit=0),
        multilabel=spec["multilabel"],
    )
    labels = list(ours.first.labels)
    observed = [ours.pair("A", "B", m).difference for m in spec["metrics"]]
    rng = np.random.default_rng(5)
    rounds, hits = 400, np.zeros(len(observed))
    for _ in range(rounds):
        swap = rng.random(len(gold)) < 0.5
        aa = [y if s else x for x, y, s in zip(a, b, swap)]
        bb = [x if s else y for x, y, s in zip(a, b, swap)]
        ra = clfeval.score(gold, aa, multilabel=spec["multilabel"], scoring=clfeval.Scoring(labels=labels))
        rb = clfeval.score(gold, bb, multilabel=spec["multilabel"], scoring=clfeval.Scoring(labels=labels))
        d = np.array([_value(ra, m) - _value(rb, m) for m in spec["metrics"]])
        hits += np.abs(d) >= np.abs(observed) - 1e-12
    p_ref = (hits + 1) / (rounds + 1)
    for i, m in enumerate(spec["metrics"]):
        p = ours.pair("A", "B", m).p_value
        se = math.sqrt(p_ref[i] * (1 - p_ref[i]) / rounds + p * (1 - p) / 20_000)
        assert abs(p - p_ref[i]) < 4 * se + 2e-3, (m, p, p_ref[i])
        assert not ours.pair("A", "B", m).exact


def test_exact_enumeration_through_the_api_equals_brute_force() -> None:
    gold = list("abcabcabca")
    a = list("abcabbaaca")
    b = list("abccbcabba")
    ours = clfeval.compare(gold, [a, b], metrics=["macro.f1", "accuracy"])
    differ = [i for i in range(len(gold)) if a[i] != b[i]]
    for metric, attr in (("macro.f1", lambda r: r.averages["macro"]["f"]), ("accuracy", lambda r: r.accuracy)):
        observed = attr(clfeval.score(gold, a, scoring=clfeval.Scoring(labels=list("abc")))) - attr(
            clfeval.score(gold, b, scoring=clfeval.Scoring(labels=list("abc")))
        )
        hits = 0
        for bits in itertools.product([0, 1], repeat=len(differ)):
            aa, bb = list(a), list(b)
            for i, bit in zip(differ, bits):
                if bit:
                    aa[i], bb[i] = b[i], a[i]
            d = attr(clfeval.score(gold, aa, scoring=clfeval.Scoring(labels=list("abc")))) - attr(
                clfeval.score(gold, bb, scoring=clfeval.Scoring(labels=list("abc")))
            )
            hits += abs(d) >= abs(observed) - 1e-12
        pair = ours.pair("A", "B", metric)
        assert pair.exact and pair.rounds == 2 ** len(differ)
        assert pair.difference == pytest.approx(observed, abs=1e-12)
        assert pair.p_value == pytest.approx(hits / 2 ** len(differ), abs=1e-12)


def test_systems_are_scored_over_one_label_set() -> None:
    # A never predicts 'z' and B never predicts 'y': each alone would see a different union label set
    gold = ["x", "y", "z", "x", "y", "z"]
    result = clfeval.compare(
        gold,
        {"A": ["x", "y", "y", "x", "x", "y"], "B": ["x", "z", "z", "x", "x", "z"]},
        metrics=["macro.f1"],
        test=clfeval.Test(seed=1),
    )
    for name, pred in (("A", ["x", "y", "y", "x", "x", "y"]), ("B", ["x", "z", "z", "x", "x", "z"])):
        alone = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=["x", "y", "z"]))
        assert result.results[name].labels == ("x", "y", "z")
        assert result.score(name, "macro.f1") == pytest.approx(alone.averages["macro"]["f"])
    assert result.first.label_source == "union"
    gold_only = clfeval.compare(
        gold,
        {"A": ["x", "w", "y", "x", "x", "y"], "B": ["x", "z", "z", "x", "x", "z"]},
        test=clfeval.Test(seed=1),
        scoring=clfeval.Scoring(labels_from="gold"),
    )
    assert gold_only.first.labels == ("x", "y", "z")
    assert any("outside the label set" in w for w in gold_only.warnings)


def test_every_reported_score_is_a_metric_and_matches_score() -> None:
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 3, 80)
    a, b = _noisy(rng, gold, 3, 0.7), _noisy(rng, gold, 3, 0.6)
    alone = clfeval.score(gold, a, scoring=clfeval.Scoring(labels=["0", "1", "2"]))
    names = [f"{avg}.{m}" for avg in alone.averages for m in ("precision", "recall", "f1")]
    names += ["accuracy", "micro_fpr"] + [
        f"per_label.{lab}.{m}" for lab in alone.labels for m in ("precision", "recall", "f1", "specificity")
    ]
    result = clfeval.compare(gold, {"A": a, "B": b}, metrics=names, test=clfeval.Test(rounds=50, seed=1, exact_limit=0))
    for name in names:
        assert result.score("A", name) == pytest.approx(_value(alone, name), abs=1e-12), name
        pair = result.pair("A", "B", name)
        assert pair.difference == pytest.approx(result.score("A", name) - result.score("B", name), abs=1e-12)
        assert metric_name(metric_key(name, labels=alone.labels, task=alone.task)) == name


def test_metric_names_follow_beta_and_task() -> None:
    assert metric_key("macro.f2", labels=["a"], task="single-label", beta=2) == ("averages", "macro", "f")
    assert metric_key("subset_accuracy", labels=["a"], task="multi-label") == ("accuracy",)
    assert metric_key("per_label.a.b.f1", labels=["a.b"], task="single-label") == ("per_label", "a.b", "f")
    for bad, task in (
        ("macro.f1", "x"),
        ("samples.f1", "single-label"),
        ("mcc", "multi-label"),
        ("macro.f2", "single-label"),
        ("per_label.q.f1", "single-label"),
        ("macro", "single-label"),
    ):
        with pytest.raises(OptionError):
            metric_key(
                bad, labels=["a"], task=task if task != "x" else "single-label", beta=1 if bad != "macro.f1" else 2
            )


def test_holm_matches_its_definition() -> None:
    rng = np.random.default_rng(0)
    for m in (1, 2, 5, 9):
        p = rng.random(m) ** 2
        order = np.argsort(p)
        expected = np.empty(m)
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * p[i]))
            expected[i] = running
        np.testing.assert_allclose(holm(p), expected)
    assert np.isnan(holm(np.array([np.nan, 0.01])))[0] and holm(np.array([np.nan, 0.01]))[1] == 0.01


def test_three_systems_every_pair_holm_and_ranking() -> None:
    rng = np.random.default_rng(8)
    gold = rng.integers(0, 5, 3000)
    preds = {
        "weak": _noisy(rng, gold, 5, 0.55),
        "strong": _noisy(rng, gold, 5, 0.8),
        "strong2": _noisy(rng, gold, 5, 0.8),
    }
    result = clfeval.compare(gold, preds, metrics=["macro.f1", "accuracy"], test=clfeval.Test(rounds=2000, seed=4))
    assert [(p.a, p.b) for p in result.pairs[:3]] == [("weak", "strong"), ("weak", "strong2"), ("strong", "strong2")]
    for metric in ("macro.f1", "accuracy"):
        tests = [p for p in result.pairs if p.metric == metric]
        np.testing.assert_allclose([t.p_adjusted for t in tests], holm(np.array([t.p_value for t in tests])))
        ranking = result.ranking(metric)
        assert ranking[-1]["system"] == "weak" and ranking[-1]["rank"] == 3
        assert set(ranking[-1]["worse_than"]) == {"strong", "strong2"}
        top = {r["system"]: r for r in ranking[:2]}
        assert set(top) == {"strong", "strong2"}
        assert all(r["better_than"] == ["weak"] for r in top.values())
    baseline = clfeval.compare(gold, preds, test=clfeval.Test(rounds=500, seed=4), baseline="weak")
    assert [(p.a, p.b) for p in baseline.pairs] == [("strong", "weak"), ("strong2", "weak")]
    assert baseline.to_dict()["comparisons"] == "baseline"


def test_seed_reproduces_and_pairs_have_their_own_streams() -> None:
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 4, 500)
    preds = {"A": _noisy(rng, gold, 4, 0.7), "B": _noisy(rng, gold, 4, 0.7), "C": _noisy(rng, gold, 4, 0.66)}
    one = clfeval.compare(gold, preds, test=clfeval.Test(rounds=300, seed=42, exact_limit=0))
    two = clfeval.compare(gold, preds, test=clfeval.Test(rounds=300, seed=42, exact_limit=0))
    assert [p.p_value for p in one.pairs] == [p.p_value for p in two.pairs]
    # a pair's stream is keyed by its two names: the same numbers whichever other systems are compared
    against_b = clfeval.compare(gold, preds, test=clfeval.Test(rounds=300, seed=42, exact_limit=0), baseline="B")
    c_first = clfeval.compare(
        gold, {"C": preds["C"], "A": preds["A"], "B": preds["B"]}, test=clfeval.Test(rounds=300, seed=42, exact_limit=0)
    )
    two = clfeval.compare(
        gold, {"A": preds["A"], "B": preds["B"]}, test=clfeval.Test(rounds=300, seed=42, exact_limit=0)
    )
    for other in (against_b, c_first, two):
        assert other.pair("A", "B").p_value == one.pair("A", "B").p_value
    assert c_first.pair("C", "B").p_value == against_b.pair("C", "B").p_value
    drawn = clfeval.compare(gold, preds, test=clfeval.Test(rounds=50, exact_limit=0))
    assert isinstance(drawn.seed, int) and drawn.to_dict()["seed"] == drawn.seed


def test_the_order_counts_arrive_in_does_not_change_seeded_results() -> None:
    """Readers group rows in no fixed order; counts are kept in a canonical order so a seed reproduces."""
    rng = np.random.default_rng(9)
    gold = rng.integers(0, 5, 2000)
    joint = count_systems(gold, {"A": _noisy(rng, gold, 5, 0.7), "B": _noisy(rng, gold, 5, 0.7)})
    backwards = JointCounts(joint.systems, dict(reversed(list(joint.rows.items()))))
    for test in ("ar", "bootstrap"):
        one = clfeval.compare(joint, test=clfeval.Test(test, rounds=300, seed=7, exact_limit=0))
        two = clfeval.compare(backwards, test=clfeval.Test(test, rounds=300, seed=7, exact_limit=0))
        assert one.pairs[0].p_value == two.pairs[0].p_value and one.pairs[0].ci == two.pairs[0].ci
    sets = clfeval.count_label_sets(*_label_sets(rng, 300)[:2])
    shuffled = clfeval.LabelSetCounts(dict(reversed(list(sets.pairs.items()))))
    first = clfeval.with_intervals(clfeval.score(sets), clfeval.CI("bootstrap", resamples=200, seed=3))
    second = clfeval.with_intervals(clfeval.score(shuffled), clfeval.CI("bootstrap", resamples=200, seed=3))
    assert first.intervals.bounds == second.intervals.bounds


def test_paired_bootstrap_gives_an_interval_and_ar_can_add_one() -> None:
    rng = np.random.default_rng(6)
    gold = rng.integers(0, 3, 400)
    a, b = _noisy(rng, gold, 3, 0.8), _noisy(rng, gold, 3, 0.7)
    boot = clfeval.compare(gold, [a, b], test=clfeval.Test("bootstrap", rounds=1000, seed=1))
    pair = boot.pairs[0]
    assert pair.ci is not None and pair.ci[0] < pair.difference < pair.ci[1] and pair.rounds == 1000
    ar = clfeval.compare(gold, [a, b], test=clfeval.Test(rounds=1000, seed=1, ci="bootstrap", exact_limit=0))
    assert ar.pairs[0].ci is not None and ar.to_dict()["ci"] == {"method": "bootstrap", "confidence": 0.95}
    assert clfeval.compare(gold, [a, b], test=clfeval.Test(rounds=100, seed=1)).pairs[0].ci is None


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_mcnemar_through_the_api_against_scipy(alternative: str) -> None:
    from scipy import stats

    rng = np.random.default_rng(1)
    gold = rng.integers(0, 3, 300)
    a, b = _noisy(rng, gold, 3, 0.75), _noisy(rng, gold, 3, 0.7)
    result = clfeval.compare(gold, [a, b], test=clfeval.Test("mcnemar", alternative=alternative))
    pair = result.pairs[0]
    only_a = int(np.sum((a == gold) & (b != gold)))
    only_b = int(np.sum((a != gold) & (b == gold)))
    assert pair.discordant["only_a"] == only_a and pair.discordant["only_b"] == only_b
    assert pair.difference == pytest.approx((only_a - only_b) / 300)
    expected = stats.binomtest(only_a, only_a + only_b, 0.5, alternative=alternative).pvalue
    assert pair.p_value == pytest.approx(expected, rel=1e-9)
    assert result.metrics == ("accuracy",) and result.rounds is None and pair.exact
    with pytest.raises(OptionError, match="accuracy only"):
        clfeval.compare(gold, [a, b], metrics="macro.f1", test="mcnemar")


@pytest.mark.simulation
def test_ar_holds_its_level_under_the_null() -> None:
    """Two systems drawn from one distribution: AR rejects about α of the time (a quick calibration check;
    the full study is docs/calibration.md)."""
    rng = np.random.default_rng(2024)
    datasets, rejections = 300, 0
    for i in range(datasets):
        gold = rng.integers(0, 4, 120)
        result = clfeval.compare(
            gold, [_noisy(rng, gold, 4, 0.7), _noisy(rng, gold, 4, 0.7)], test=clfeval.Test(rounds=199, seed=i)
        )
        rejections += result.pairs[0].p_value <= 0.05
    rate = rejections / datasets
    assert 0.05 - 3 * math.sqrt(0.05 * 0.95 / datasets) < rate < 0.05 + 3 * math.sqrt(0.05 * 0.95 / datasets)


def test_identical_systems_and_undefined_differences() -> None:
    gold = ["a", "b", "a", "b"]
    same = clfeval.compare(gold, [["a", "a", "a", "b"], ["a", "a", "a", "b"]], test=clfeval.Test(seed=1))
    assert same.pairs[0].difference == 0 and same.pairs[0].p_value == 1 and same.pairs[0].exact
    undefined = clfeval.compare(
        ["a", "a"],
        [["a", "a"], ["a", "a"]],
        metrics=["per_label.b.precision"],
        test=clfeval.Test(seed=1),
        scoring=clfeval.Scoring(zero_division="nan", labels=["a", "b"]),
    )
    pair = undefined.pairs[0]
    assert math.isnan(pair.difference) and math.isnan(pair.p_value) and not pair.significant
    assert undefined.to_dict()["pairs"][0]["p_value"] is None
    assert any("difference is undefined" in n for n in undefined.notes)
    assert "no test" in undefined.render("text")


def test_bad_options_fail_with_the_valid_names() -> None:
    gold, a, b = ["a", "b"], ["a", "a"], ["b", "b"]
    # the test's settings are refused when its group is built (a name alone, when compare builds it)
    for test, kwargs, needle in (
        ("t", {}, "ar"),
        (dict(alternative="x"), {}, "two-sided"),
        ({}, dict(baseline="Q"), "unknown baseline"),
        (dict(rounds=0), {}, "rounds"),
        ({}, dict(metrics="macro.f9"), "macro.f1"),
        (dict(ci="delta"), {}, "bootstrap"),
        (dict(alpha=2), {}, "alpha"),
        ({}, dict(metrics=[]), "no metric"),
        (dict(name="mcnemar", ci="bootstrap"), {}, "McNemar"),
    ):
        with pytest.raises(OptionError, match=needle):
            clfeval.compare(gold, [a, b], test=test if isinstance(test, str) else clfeval.Test(**test), **kwargs)
    with pytest.raises(OptionError, match="at least two"):
        clfeval.compare(gold, [a])
    with pytest.raises(clfeval.InputError, match="ends early"):
        clfeval.compare(gold, [a, ["a"]])


def test_joint_counts_split_and_add() -> None:
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 3, 200)
    a, b = _noisy(rng, gold, 3, 0.7), _noisy(rng, gold, 3, 0.6)
    whole = count_systems(gold, {"A": a, "B": b})
    parts = count_systems(gold[:70], {"A": a[:70], "B": b[:70]}) + count_systems(gold[70:], {"A": a[70:], "B": b[70:]})
    assert parts.rows == whole.rows and parts.n_instances == 200
    strings = count_systems([str(x) for x in gold], {"A": [str(x) for x in a], "B": [str(x) for x in b]})
    assert strings.rows == whole.rows
    assert whole.paired("A", "B").n_instances == 200
    assert whole.system("A").cells.sum() == 200
    with pytest.raises(OptionError):
        whole + JointCounts(("A", "C"), {})
    with pytest.raises(OptionError, match="distinct"):
        JointCounts(("A", "A"), {})


def test_mcnemar_extreme_tails_do_not_cancel() -> None:
    from scipy import stats

    gold = ["a"] * 200
    result = clfeval.compare(
        gold, {"A": gold, "B": ["b"] * 100 + ["a"] * 100}, test=clfeval.Test("mcnemar", alternative="greater")
    )
    assert result.pairs[0].p_value == pytest.approx(
        stats.binomtest(100, 100, 0.5, alternative="greater").pvalue, rel=1e-9
    )
    assert result.pairs[0].p_value > 0 and result.seed is None


def test_ranking_of_undefined_scores_and_ties() -> None:
    gold = list("aaaabbbb")
    undefined = clfeval.compare(
        gold,
        {"X": list("aaaabbbb"), "Y": list("aaaaaaaa"), "Z": list("aaaabbba")},
        metrics=["per_label.b.precision"],
        test=clfeval.Test(seed=1),
        scoring=clfeval.Scoring(zero_division="nan"),
    )
    ranking = undefined.ranking("per_label.b.precision")
    assert [(r["system"], r["rank"]) for r in ranking] == [("X", 1), ("Z", 1), ("Y", None)]
    assert undefined.to_dict()["ranking"]["per_label.b.precision"][2]["rank"] is None
    gold = list("aaaabbbbcccc")
    tied = clfeval.compare(gold, {"X": list("aacbbbbaabcc"), "Y": list("bacaabcbaccc")}, test=clfeval.Test(seed=1))
    assert tied.score("X", "macro.f1") != tied.score("Y", "macro.f1")  # equal but for rounding
    assert [r["rank"] for r in tied.ranking("macro.f1")] == [1, 1]


def test_fractional_beta_per_label_metric_round_trips() -> None:
    key = metric_key("per_label.a.f0.5", labels=["a", "b"], task="single-label", beta=0.5)
    assert key == ("per_label", "a", "f") and metric_name(key, 0.5) == "per_label.a.f0.5"
    assert metric_key("per_label.x.y.recall", labels=["x.y"], task="single-label") == ("per_label", "x.y", "recall")
    result = clfeval.compare(
        list("abab"),
        [list("abaa"), list("bbab")],
        metrics="per_label.a.f0.5",
        test=clfeval.Test(seed=1),
        scoring=clfeval.Scoring(beta=0.5),
    )
    assert result.score("A", "per_label.a.f0.5") == pytest.approx(
        clfeval.score(list("abab"), list("abaa"), scoring=clfeval.Scoring(beta=0.5)).per_label["a"].f
    )


def test_bootstrap_interval_is_optional_and_ignores_undefined_resamples() -> None:
    rng = np.random.default_rng(6)
    gold = rng.integers(0, 3, 300)
    a, b = _noisy(rng, gold, 3, 0.8), _noisy(rng, gold, 3, 0.7)
    assert (
        clfeval.compare(gold, [a, b], test=clfeval.Test("bootstrap", rounds=200, seed=1, ci="none")).pairs[0].ci is None
    )
    gold = ["a"] * 40 + ["b"] * 2
    result = clfeval.compare(
        gold,
        {"A": gold, "B": ["a"] * 40 + ["a", "b"]},
        metrics=["macro.precision"],
        test=clfeval.Test("bootstrap", rounds=400, seed=2),
        scoring=clfeval.Scoring(zero_division="nan"),
    )
    pair = result.pairs[0]
    assert pair.undefined_rounds > 0 and pair.ci is not None and not any(map(math.isnan, pair.ci))
    assert any("left out of the interval" in n for n in result.notes)
    assert result.to_dict()["pairs"][0]["ci"] == list(pair.ci)


def test_exact_limit_zero_never_enumerates() -> None:
    same = clfeval.compare(["a", "b"], [["a", "a"], ["a", "a"]], test=clfeval.Test(rounds=20, seed=1, exact_limit=0))
    assert not same.pairs[0].exact and same.pairs[0].rounds == 20


# -- a test ranks what it tests (issue 37, point 4) --------------------------------------------------------------


def _labels_case(rng: np.random.Generator) -> dict:
    gold = rng.integers(0, 4, 600)
    preds = {"weak": _noisy(rng, gold, 4, 0.5), "mid": _noisy(rng, gold, 4, 0.65), "strong": _noisy(rng, gold, 4, 0.85)}
    return {"gold": gold, "preds": preds}


def _blocks_against_accuracy() -> dict:
    """10 blocks where A gets 2 of 2 right and B 1 of 2, and one block of 30 that only B gets right: A wins more
    blocks, B has the higher accuracy (0.8 against 0.4); the sign test's two-sided p is 0.012."""
    gold, a, b, blocks = [], [], [], []
    for k in range(10):
        gold += ["x", "x"]
        a += ["x", "x"]
        b += ["x", "y"]
        blocks += [k, k]
    gold += ["x"] * 30
    a += ["y"] * 30
    b += ["x"] * 30
    blocks += [10] * 30
    return {"gold": gold, "preds": {"A": a, "B": b}, "blocks": blocks}


def _blocks_case(rng: np.random.Generator) -> dict:
    case = _labels_case(rng)
    return {**case, "blocks": np.repeat(np.arange(100), 6)}


def _spans_case(rng: np.random.Generator) -> dict:
    tags = ["O", "B-PER", "I-PER", "B-LOC"]
    gold = [[str(rng.choice(tags)) for _ in range(int(rng.integers(1, 6)))] for _ in range(150)]

    def tagger(p: float) -> list[list[str]]:
        return [[t if rng.random() > p else str(rng.choice(tags)) for t in s] for s in gold]

    return {"gold": gold, "preds": {"weak": tagger(0.5), "mid": tagger(0.3), "strong": tagger(0.05)}, "spans": True}


def _label_sets_case(rng: np.random.Generator) -> dict:
    gold, a, b = _label_sets(rng, 500)
    return {"gold": gold, "preds": {"A": a, "B": b}, "multilabel": True}


def _spans_against_f1() -> dict:
    from tests.test_spans_compare import _fewer_errors_lower_f1

    gold, a, b = _fewer_errors_lower_f1()
    return {"gold": gold, "preds": {"A": a, "B": b}, "spans": True}


def _scored_case(rng: np.random.Generator) -> dict:
    y = rng.integers(0, 2, 300)
    scores = {
        "weak": np.clip(rng.normal(0.45 + 0.1 * y, 0.2), 0, 1),
        "mid": np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1),
        "strong": np.clip(rng.normal(0.25 + 0.5 * y, 0.15), 0, 1),
    }
    return {"gold": y, "preds": scores, "scores": True}


#: Per kind of counts, cases built to give significant differences; the ``against`` ones are built so that the sign
#: test's units favour the other system than the difference of a score does (issue 37's reproducers).
_CASES = {
    "single-label": [_labels_case, _blocks_case, lambda rng: _blocks_against_accuracy()],
    "multi-label": [lambda rng: _label_sets_case(rng)],
    "spans": [_spans_case, lambda rng: _spans_against_f1()],
    "scored": [_scored_case],
}


@pytest.mark.parametrize("name", sorted(clfeval.TESTS))
def test_every_test_ranks_by_the_sign_of_the_difference_it_tests(name: str) -> None:
    """For every test of TESTS on every kind it applies to: each pair's A − B is the difference of the quantity the
    test tests (score A − score B of the metric reported), and the ranking's verdicts follow its sign in that metric's
    direction (a significant pair makes the better-ranked system the one its difference favours)."""
    method = clfeval.TESTS[name]
    rng = np.random.default_rng(37)
    runs, significant = 0, 0
    for kind, builders in _CASES.items():
        if not method.applies_to(kind):
            continue
        for build in builders:
            case = build(rng)
            blocked = "blocks" in case or case.get("spans")
            if blocked and method.no_blocks:
                continue
            metric_sets = [None]  # the test's default metric
            if method.quantity == "metric" and kind not in ("spans", "scored"):
                metric_sets.append(["hamming_loss", "macro.f1"])  # a lower-is-better score beside a higher one
            elif kind == "scored" and method.metrics is None:
                metric_sets.append(["log_loss", "auc"])
            for metrics in metric_sets:
                given = {"scores": case["preds"]} if case.get("scores") else {"preds": case["preds"]}
                r = clfeval.compare(
                    case["gold"],
                    **given,
                    metrics=metrics,
                    test=clfeval.Test(name, rounds=300, seed=5) if method.random else name,
                    blocks=case.get("blocks"),
                    spans=case.get("spans"),
                    multilabel=case.get("multilabel"),
                )
                runs += 1
                doc = r.to_dict()
                for metric in r.metrics:
                    higher = r.higher_is_better(metric)
                    assert doc["higher_is_better"][metric] is higher
                    ranking = {x["system"]: x for x in r.ranking(metric)}
                    for p in (p for p in r.pairs if p.metric == metric):
                        assert p.score_a == pytest.approx(r.score(p.a, metric), abs=1e-12)
                        assert p.difference == pytest.approx(p.score_a - p.score_b, abs=1e-12), (name, kind, metric)
                        if not p.significant:
                            assert p.b not in ranking[p.a]["better_than"] + ranking[p.a]["worse_than"]
                            continue
                        significant += 1
                        better, worse = (p.a, p.b) if (p.difference > 0) == higher else (p.b, p.a)
                        assert worse in ranking[better]["better_than"], (name, kind, metric, p)
                        assert better in ranking[worse]["worse_than"], (name, kind, metric, p)
                        assert ranking[better]["rank"] < ranking[worse]["rank"], (name, kind, metric, p)
                        if p.sign is not None and method.counts_units:  # the units it counted favour it too
                            wins = (
                                (p.sign.a_better, p.sign.b_better)
                                if better == p.a
                                else (p.sign.b_better, p.sign.a_better)
                            )
                            assert wins[0] > wins[1], (name, kind, metric, p)
    assert runs, f"{name} applies to none of the kinds this test builds data for: add a case of its kinds"
    assert significant, f"no significant pair for {name}: the check above checked nothing"


def test_a_sign_test_whose_blocks_favour_the_less_accurate_system_decides_nothing() -> None:
    case = _blocks_against_accuracy()
    r = clfeval.compare(case["gold"], case["preds"], test="sign", blocks=case["blocks"])
    (p,) = r.pairs
    assert (p.metric, p.score_a, p.score_b, p.difference) == ("accuracy", 0.4, 0.8, pytest.approx(-0.4))
    assert (p.sign.a_better, p.sign.b_better) == (10, 1) and p.p_adjusted == pytest.approx(0.01171875)
    assert not p.significant  # the blocks favour A, accuracy B: no difference holds either way
    assert all(not x["better_than"] and not x["worse_than"] for x in r.ranking("accuracy"))
    assert any("the units favour one system and the difference the other" in n for n in r.notes)
