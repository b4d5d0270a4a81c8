"""The first calls of a scikit-learn user: the common options as keywords of each task (shorthands of their groups),
and one number in one call, ``result[name]`` and ``result.interval(name)``, under the names of ``flat()``."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import clfeval
from clfeval.errors import UnknownName


def _data(seed: int = 3, n: int = 120) -> tuple[list[str], list[str], list[str], list[int]]:
    rng = np.random.default_rng(seed)
    gold = rng.choice(["ant", "bee", "cat", "dog.x"], n)
    a = np.where(rng.random(n) < 0.7, gold, rng.choice(["ant", "bee", "cat", "dog.x"], n))
    b = np.where(rng.random(n) < 0.8, a, rng.choice(["ant", "bee", "cat"], n))
    return gold.tolist(), a.tolist(), b.tolist(), (np.arange(n) % 4).tolist()


@pytest.mark.parametrize(
    "keywords",
    [
        {"labels": ["bee", "ant", "cat", "dog.x", "eel"]},
        {"beta": 2},
        {"zero_division": "nan", "undefined": "exclude"},
        {"labels": ["ant", "cat"], "beta": 0.5, "zero_division": 1},
    ],
)
def test_scoring_shorthands_equal_the_group(keywords: dict) -> None:
    gold, pred, _, folds = _data()
    group = clfeval.Scoring(**keywords)
    assert clfeval.score(gold, pred, **keywords).to_dict() == clfeval.score(gold, pred, scoring=group).to_dict()
    short = clfeval.cv(gold, pred, folds, **keywords)
    assert short.to_dict() == clfeval.cv(gold, pred, folds, scoring=group).to_dict()
    shown = clfeval.finagle(gold, pred, np.linspace(0, 1, len(gold)), threshold=0.3, **keywords)
    assert shown.to_dict() == clfeval.finagle(gold, pred, np.linspace(0, 1, len(gold)), threshold=0.3,
                                              scoring=group).to_dict()  # fmt: skip


def test_test_and_ci_shorthands_equal_the_groups() -> None:
    gold, a, b, folds = _data()
    preds = {"A": a, "B": b}
    for test in ("ar", "bootstrap"):
        short = clfeval.compare(gold, preds, test=test, seed=4, rounds=300, alternative="greater", beta=2)
        group = clfeval.compare(
            gold, preds, test=clfeval.Test(test, seed=4, rounds=300, alternative="greater"),
            scoring=clfeval.Scoring(beta=2),
        )  # fmt: skip
        assert short.to_dict() == group.to_dict()
    short = clfeval.compare(gold, preds, seed=4, rounds=300, ci="bootstrap", confidence=0.9)  # the difference's
    group = clfeval.compare(gold, preds, test=clfeval.Test(seed=4, rounds=300, ci="bootstrap", confidence=0.9))
    assert short.to_dict() == group.to_dict() and short.ci == "bootstrap" and short.confidence == 0.9
    assert short.to_dict() != clfeval.compare(gold, preds, seed=4, rounds=300).to_dict()
    short_ci = clfeval.score(gold, a, ci="bootstrap", seed=5, resamples=200, confidence=0.9)
    assert short_ci.to_dict() == clfeval.score(gold, a, ci=clfeval.CI("bootstrap", 0.9, 200, 5)).to_dict()
    cv = clfeval.cv(gold, a, folds, ci="bootstrap", seed=5, resamples=200)
    assert cv.to_dict() == clfeval.cv(gold, a, folds, ci=clfeval.CI("bootstrap", resamples=200, seed=5)).to_dict()


def test_the_separator_shorthand_means_label_sets() -> None:
    gold, pred = ["a|b", "b", ""], ["a", "b|c", "c"]
    assert (
        clfeval.score(gold, pred, sep="|").to_dict()
        == clfeval.score(gold, pred, multilabel=clfeval.MultiLabel(sep="|")).to_dict()
    )
    assert clfeval.compare(gold, {"A": pred, "B": gold}, sep="|", seed=1, rounds=20).first.task == "multi-label"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda g, p: clfeval.score(g, p, labels=["ant"], scoring=clfeval.Scoring()), "labels= and scoring=Scoring"),
        (lambda g, p: clfeval.score(g, p, ci=clfeval.CI("bootstrap"), seed=1), "seed= and ci=CI"),
        (lambda g, p: clfeval.score(g, p, seed=1), "but ci= asks for none"),
        (lambda g, p: clfeval.score(g, p, multilabel=clfeval.MultiLabel(), sep=","), "sep= and multilabel=MultiLabel"),
        (lambda g, p: clfeval.score(g, p, multilabel=False, sep=","), "multilabel=False says there are none"),
        (lambda g, p: clfeval.compare(g, {"A": p, "B": g}, test=clfeval.Test(), rounds=5), "rounds= and test=Test"),
        (lambda g, p: clfeval.compare(g, {"A": p, "B": g}, test=clfeval.Test(), ci="bootstrap"), "ci= and test=Test"),
        (lambda g, p: clfeval.compare(g, {"A": p, "B": g}, test=clfeval.Test(), confidence=0.9), "confidence= and"),
        (lambda g, p: clfeval.compare(g, {"A": p, "B": g}, ci=clfeval.CI("bootstrap")), "not a clfeval.CI"),
        (lambda g, p: clfeval.cv(g, p, [1] * len(g), beta=2, scoring=clfeval.Scoring()), "beta= and scoring="),
    ],
)
def test_a_group_and_its_shorthand_together_are_one_error(call, message: str) -> None:
    gold, pred, _, _ = _data()
    with pytest.raises(clfeval.OptionError, match=message) as raised:
        call(gold, pred)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("multilabel", [False, True])
@pytest.mark.parametrize("ci", ["none", "delta", "bootstrap"])
def test_every_flat_name_is_one_number_and_its_interval(multilabel: bool, ci: str) -> None:
    """``result[name]`` is ``flat(sep=".")[name]`` for every name flat gives (per-label scores included), and
    ``result.interval(name)`` its ``_ci_low`` and ``_ci_high``; the dict paths hold the same numbers."""
    gold, pred, _, _ = _data(7, 90)
    if multilabel:
        gold, pred = [[g] if i % 3 else [g, "eel"] for i, g in enumerate(gold)], [[p] for p in pred]
    r = clfeval.score(gold, pred, multilabel=multilabel, ci=clfeval.CI(ci, resamples=100, seed=1) if ci != "none"
                      else None, beta=2)  # fmt: skip
    flat = r.flat(".", per_label=True)
    names = [n for n in flat if not n.endswith(("_ci_low", "_ci_high"))]
    assert names == r.names() and len(names) > 40
    for name in names:
        value = r[name]
        assert value == flat[name] or (math.isnan(value) and math.isnan(flat[name])), name
        if ci != "none" and name != "n_instances":
            bounds = r.interval(name)
            low, high = flat[name + "_ci_low"], flat[name + "_ci_high"]
            assert (bounds is None and math.isnan(low)) or bounds == (low, high), name
    assert r["macro_fa.f2"] == r.averages["macro_fa"]["f"] and r["micro.recall"] == r.averages["micro"]["recall"]
    assert r["per_label.dog.x.f2"] == r.per_label["dog.x"]["f"]
    assert r["accuracy"] == r.overall["accuracy"]
    if multilabel:
        assert (
            r["subset_accuracy"] == r.overall["accuracy"]
            and r["samples.precision"] == r.averages["samples"]["precision"]
        )
    else:
        assert r["mcc"] == r.overall["mcc"] and r["kappa"] == r.overall["kappa"]


def test_an_unknown_name_lists_the_close_ones() -> None:
    gold, pred, _, _ = _data()
    r = clfeval.score(gold, pred)
    for name, close in (("macro.f2", "'macro.f1'"), ("macor.f1", "'macro.f1'"), ("per_label.bee.recal", "recall")):
        with pytest.raises(UnknownName, match="holds no score named") as raised:
            r[name]
        assert close in str(raised.value) and isinstance(raised.value, KeyError)
    with pytest.raises(clfeval.OptionError, match="no intervals were asked for"):
        r.interval("macro.f1")
    with pytest.raises(UnknownName):
        r[("averages", "macro", "f")]  # type: ignore[index]


def test_close_names_ignore_case_first_and_a_bare_measure_suggests_its_averages() -> None:
    """r["MCC"] and r["f1"] suggested nothing, and r["per_label.b.recall"] listed 'per_label.a.recall' before
    'per_label.B.recall': the name equal but for case comes first, a bare measure suggests the averages of it, and
    the message stays one line that never suggests the name asked for."""
    r = clfeval.score(["a", "B", "a", "c"], ["a", "B", "c", "c"])

    def suggested(name: str) -> list[str]:
        with pytest.raises(UnknownName) as raised:
            r[name]
        message = str(raised.value)
        assert "\n" not in message and isinstance(raised.value, KeyError)
        return re.findall(r"'([^']*)'", message.partition("did you mean ")[2].partition("?")[0])

    assert suggested("MCC")[0] == "mcc" and suggested("Accuracy")[0] == "accuracy"
    assert suggested("per_label.b.recall")[0] == "per_label.B.recall"
    assert suggested("Macro.F1")[0] == "macro.f1"
    assert {"micro", "macro", "macro_fa", "weighted", "lfb"} <= {
        s.partition(".")[0] for s in suggested("F1") if s.endswith(".f1")
    }
    for bare in ("f1", "recall"):  # a binary problem's name (issue 38): scikit-learn's averages by their names here
        with pytest.raises(UnknownName) as raised:
            r[bare]
        message = str(raised.value)
        assert "\n" not in message and "3 labels" in message, message
        assert all(f"result['{a}.{bare}']" in message for a in ("macro", "micro", "weighted")), message


def test_n_instances_is_a_count_with_no_interval() -> None:
    """r.interval("n_instances") said "no score named 'n_instances'; did you mean 'n_instances'?"."""
    gold, pred, _, _ = _data()
    r = clfeval.score(gold, pred, ci="delta")
    assert r["n_instances"] == len(gold)
    with pytest.raises(clfeval.OptionError, match=r"n_instances is a count .* it has no interval") as raised:
        r.interval("n_instances")
    assert "did you mean" not in str(raised.value)


@pytest.mark.parametrize("multilabel", [False, True])
def test_in_and_iteration_follow_the_names(multilabel: bool) -> None:
    """`"macro.f1" in r` and `for x in r` raised UnknownName ("... not 0"): ``in`` is true for every name ``r[...]``
    takes and false for any other value; iterating gives :meth:`names`, as a mapping's keys."""
    gold, pred, _, _ = _data(5, 40)
    if multilabel:
        gold, pred = [[g] for g in gold], [[p, "eel"] if i % 5 == 0 else [p] for i, p in enumerate(pred)]
    r = clfeval.score(gold, pred, multilabel=multilabel)
    assert list(r) == r.names() and all(name in r for name in r)
    assert {name: r[name] for name in r}.keys() == set(r.names())
    assert "macro.f1" in r and "n_instances" in r and "per_label.dog.x.recall" in r and "subset_accuracy" in r
    assert ("mcc" in r) is not multilabel and ("samples.f1" in r) is multilabel  # MCC: single-label data's
    for absent in ("macro.f2", "MCC", "per_label.eagle.recall", "", 0, None, ("averages", "macro", "f")):
        assert absent not in r, absent


@pytest.mark.parametrize("seed", range(3))
def test_scored_predictions_take_the_scoring_shorthands_as_the_group(seed: int) -> None:
    """With scores=, beta=, zero_division= and undefined= were taken and dropped (the label report at the threshold
    kept β = 1), while scoring=Scoring(beta=2) was honoured: score, cv and compare read the shorthands as the group."""
    from sklearn.metrics import fbeta_score

    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 80)
    s = np.clip(0.3 * y + rng.random(80) * 0.7, 0, 1)
    folds = np.arange(80) % 2
    for keywords in ({"beta": 2}, {"beta": 0.5, "zero_division": 1, "undefined": "exclude"}):
        group = {"scoring": clfeval.Scoring(**keywords)}  # type: ignore[arg-type]
        short = clfeval.score(y, scores=s, **keywords).labels_at_threshold
        assert short.to_dict() == clfeval.score(y, scores=s, **group).labels_at_threshold.to_dict()
        beta = float(keywords["beta"])
        name = "f2" if beta == 2 else "f0.5"
        assert short[name] == pytest.approx(fbeta_score(y, (s >= 0.5).astype(int), beta=beta))
        pooled = clfeval.cv(y, scores=s, folds=folds, **keywords).pooled.labels_at_threshold
        assert pooled.to_dict() == clfeval.cv(y, scores=s, folds=folds, **group).pooled.labels_at_threshold.to_dict()
        compared = clfeval.compare(y, scores={"A": s, "B": 1 - s}, seed=1, rounds=50, **keywords)
        grouped = clfeval.compare(y, scores={"A": s, "B": 1 - s}, seed=1, rounds=50, **group)
        assert compared.to_dict() == grouped.to_dict()
