"""groups= on every other entry point, through the one core of score(..., groups=): the grouped Accumulator (batches
equal to the whole arrays, merged workers, pickles), score_grouped_counts, cv(groups=), compare(groups=) refused, the
scikit-learn scorers by group with real metadata routing (beside GroupKFold's own groups), and the Hugging Face
compute_metrics by group, with scikit-learn and seqeval on each subset as oracles."""

from __future__ import annotations

import itertools
import json
import math
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score

import clfeval
from clfeval.api import score_grouped_counts
from clfeval.errors import InputError, OptionError
from clfeval.inputs.readers import Counted

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def _labels(seed: int, n: int = 500, k: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    g = rng.choice(["es", "en", "fr"], n)
    right = rng.random(n) < np.where(g == "es", 0.55, 0.8)
    p = np.where(right, y, rng.integers(0, k, n))
    return y, p, g, rng.integers(1, 3, n)


def _same(a: dict[str, float], b: dict[str, float]) -> None:
    assert set(a) == set(b)
    for key, value in a.items():
        assert b[key] == pytest.approx(value, abs=1e-12, nan_ok=True), key


def _batches(n: int, seed: int) -> list[slice]:
    cuts = np.sort(np.random.default_rng(seed).choice(np.arange(1, n), 6, replace=False))
    edges = [0, *cuts.tolist(), n]
    return [slice(a, b) for a, b in itertools.pairwise(edges)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ci", ["delta", "bootstrap"])
def test_accumulator_in_batches_equals_score_on_the_whole_arrays(seed: int, ci: str) -> None:
    y, p, g, x = _labels(seed)
    whole = clfeval.score(y, p, groups={"lang": g, "x": x}, ci=ci, seed=seed, rounds=200, resamples=200)
    acc = clfeval.Accumulator(labels=[0, 1, 2], groups=["lang", "x"])
    for part in _batches(len(y), seed):  # columns given in another order: read by name
        acc.update(y[part], p[part], groups={"x": x[part], "lang": g[part]})
    r = acc.score(ci=ci, seed=seed, rounds=200, resamples=200)
    assert isinstance(r, clfeval.Sliced) and r.columns == ("lang", "x") and r.names == whole.names
    _same(whole.flat(), r.flat())
    assert acc.n == len(y) and acc.updates == 7
    for name in r.names:
        lang, xs = name.split("&")
        m = (g == lang) & (x == int(xs))
        assert r[f"by_group.{name}.macro.f1"] == pytest.approx(f1_score(y[m], p[m], labels=[0, 1, 2], average="macro"))


@pytest.mark.parametrize("seed", range(3))
def test_accumulator_of_label_sets_weights_and_spans_equals_score(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, (300, 4))
    pred = np.where(rng.random((300, 4)) < 0.8, gold, 1 - gold)
    g = rng.choice(["a", "b", "c"], 300)
    w = rng.random(300)
    cases = [
        ("multi-label", ["w", "x", "y", "z"], gold, pred, {"multilabel": True, "labels": ["w", "x", "y", "z"]}, None),
        ("single-label", None, gold[:, 0], pred[:, 0], {}, w),
    ]
    for task, labels, a, b, keywords, weights in cases:
        whole = clfeval.score(a, b, groups=g, ci="delta", test="delta", seed=2, sample_weight=weights, **keywords)
        acc = clfeval.Accumulator(task, labels, groups=True)
        for part in _batches(300, seed):
            acc.update(a[part], b[part], groups=g[part], sample_weight=None if weights is None else weights[part])
        _same(whole.flat(), acc.score(ci="delta", test="delta", seed=2).flat())
    sentences = [[TAGS[t] for t in rng.integers(0, 5, rng.integers(1, 8))] for _ in range(150)]
    predicted = [[t if rng.random() < 0.8 else TAGS[rng.integers(0, 5)] for t in s] for s in sentences]
    domain = rng.choice(["news", "web"], 150)
    whole = clfeval.score(sentences, predicted, spans="iob2", groups=domain, ci="bootstrap", seed=1, rounds=100,
                          resamples=100)  # fmt: skip
    acc = clfeval.Accumulator("spans", spans="iob2", groups="domain")
    for part in _batches(150, seed):
        acc.update(sentences[part], predicted[part], groups=list(domain[part]))
    _same(whole.flat(), acc.score(ci="bootstrap", seed=1, rounds=100, resamples=100).flat())


def test_grouped_accumulators_merge_pickle_and_refuse_clearly() -> None:
    y, p, g, _ = _labels(7)
    workers = [clfeval.Accumulator(labels=[0, 1, 2], groups="lang") for _ in range(3)]
    for i, acc in enumerate(workers):
        acc.update(y[i::3], p[i::3], groups=g[i::3])
    merged = pickle.loads(pickle.dumps(sum(workers)))
    whole = clfeval.score(y, p, groups=g, test="none", labels=[0, 1, 2])
    _same(whole.flat(), merged.score(test="none").flat())
    assert workers[0].n == len(y[0::3])  # + leaves its operands alone
    assert set(merged.by_group) == {"en", "es", "fr"}
    acc = clfeval.Accumulator(groups=True)
    with pytest.raises(InputError, match="give groups="):
        acc.update(y, p)
    with pytest.raises(InputError, match=r"update 1, group 'es'.*\[\d+\]"):
        acc.update(y, np.where(g == "es", None, p).tolist(), groups=g)  # a missing prediction in group es
    assert acc.n == 0  # nothing of the refused batch counted
    acc.update(y, p, groups=g)
    with pytest.raises(InputError, match="must name one group per instance"):
        acc.update(y, p, groups=g[:-1])
    with pytest.raises(InputError, match="not the accumulator's group columns"):
        acc.update(y, p, groups={"a": g, "b": g})
    with pytest.raises(OptionError, match="merges with a grouped accumulator"):
        acc.merge(clfeval.Accumulator())
    with pytest.raises(OptionError, match="scored predictions"):
        clfeval.Accumulator("scored", labels=[0, 1], groups=True)
    with pytest.raises(OptionError, match="True or the group columns"):
        clfeval.Accumulator(groups=3)
    for plain in (clfeval.Accumulator(), clfeval.Accumulator("spans", spans="iob2")):
        with pytest.raises(OptionError, match="does not count by group"):
            plain.update([0], [0], groups=["a"])
    with pytest.raises(OptionError, match="one group only"):
        one = clfeval.Accumulator(groups=True)
        one.update([0, 1], [0, 1], groups=["a", "a"])
        one.score()


def test_grouped_accumulator_saves_counts_by_group_that_score_and_the_command_line_read(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    y, p, g, _ = _labels(8)
    gold = rng.integers(0, 2, (300, 3))
    found = np.where(rng.random((300, 3)) < 0.8, gold, 1 - gold)
    w = rng.random(300)
    cases = [
        (clfeval.Accumulator(labels=[0, 1, 2], groups="lang"), (y, p, g, None)),
        (clfeval.Accumulator("multi-label", ["u", "v", "z"], groups=True), (gold, found, g[:300], None)),
        (clfeval.Accumulator(groups=True), (gold[:, 0], found[:, 0], g[:300], w)),
    ]
    for i, (acc, (a, b, groups, weights)) in enumerate(cases):
        for part in _batches(len(a), i):
            acc.update(a[part], b[part], groups=groups[part], sample_weight=None if weights is None else weights[part])
        path = tmp_path / f"counts{i}.json"
        acc.save(path)
        want = acc.score(ci="delta", seed=3, rounds=300).flat()
        _same(want, clfeval.score(clfeval.load_counts(str(path)), ci="delta", seed=3, rounds=300).flat())
        _same(want, clfeval.score(acc.counted(), ci="delta", seed=3, rounds=300).flat())
    shown = subprocess.run(
        [sys.executable, "-m", "clfeval", "score", "--counts", str(tmp_path / "counts0.json"), "--rounds", "300",
         "--format", "json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    doc = json.loads(shown.stdout)
    assert doc["schema"] == "clfeval.slices/1" and [x["name"] for x in doc["groups"]] == ["en", "es", "fr"]
    spans = clfeval.Accumulator("spans", spans="iob2", groups=True)
    spans.update([["B-PER", "O"], ["O"]], [["B-PER", "O"], ["B-LOC"]], groups=["a", "b"])
    with pytest.raises(OptionError, match="not written to one count file yet"):
        spans.save(tmp_path / "spans.json")
    with pytest.raises(OptionError, match="load_counts"):
        type(spans).load(tmp_path / "counts0.json")


def test_score_grouped_counts_equals_score_of_groups() -> None:
    from clfeval.inputs.arrays import count_labels

    y, p, g, _ = _labels(3)
    whole = clfeval.score(y, p, groups=g, ci="bootstrap", seed=5, rounds=150, resamples=150)
    parts = {name: count_labels(y[g == name], p[g == name]) for name in ("en", "es", "fr")}
    r = score_grouped_counts(
        parts, ["group"], [("en",), ("es",), ("fr",)], interval=clfeval.CI("bootstrap", resamples=150, seed=5),
        slicing=clfeval.Slicing(rounds=150),
    )  # fmt: skip
    _same(whole.flat(), r.flat())
    with pytest.raises(OptionError, match="one value per group column"):
        score_grouped_counts(parts, ["group"], [("en",)])


@pytest.mark.parametrize("seed", range(3))
def test_cv_by_group_pools_each_groups_counts_over_the_folds(seed: int) -> None:
    y, p, g, _ = _labels(seed)
    folds = np.random.default_rng(seed).integers(0, 5, len(y))
    r = clfeval.cv(y, p, folds, groups=g, ci="delta", seed=seed)
    assert isinstance(r, clfeval.Sliced)
    _same(clfeval.score(y, p, groups=g, ci="delta", seed=seed).flat(), r.flat())
    assert "5 folds pooled" in r.notes[-1]
    for name in r.names:
        m = g == name
        assert r[f"by_group.{name}.accuracy"] == pytest.approx(accuracy_score(y[m], p[m]))
    with pytest.raises(InputError, match="one fold per instance"):
        clfeval.cv(y, p, folds[:-1], groups=g)
    with pytest.raises(OptionError, match="takes no slicing= without groups="):
        clfeval.cv(y, p, folds, slicing=clfeval.Slicing())
    with pytest.raises(OptionError, match="scored predictions takes no groups"):
        clfeval.cv(y, None, folds, scores=np.random.default_rng(0).random(len(y)), labels=[0, 1], groups=g)


@pytest.mark.parametrize("seed", range(3))
def test_compare_by_group_is_compare_of_each_group_with_holm_over_the_groups(seed: int) -> None:
    from clfeval.infer.multiplicity import holm
    from clfeval.infer.slicing import spawned

    y, p, g, _ = _labels(seed, n=360)
    rng = np.random.default_rng(seed + 10)
    systems = {"A": p, "B": np.where(rng.random(len(y)) < 0.6, y, rng.integers(0, 3, len(y))), "C": y[::-1].copy()}
    r = clfeval.compare(y, systems, groups=g, metrics=["macro.f1", "accuracy"], seed=seed, rounds=300)
    assert r.names == ("en", "es", "fr") and r.systems == ("A", "B", "C")
    _same(clfeval.compare(y, systems, metrics=["macro.f1", "accuracy"], seed=seed, rounds=300).flat(),
          {k[len("overall/") :]: v for k, v in r.flat().items() if k.startswith("overall/")})  # fmt: skip
    for name, group_seed in zip(r.names, spawned(seed, 3)):
        m = g == name
        alone = clfeval.compare(y[m], {s: v[m] for s, v in systems.items()}, metrics=["macro.f1", "accuracy"],
                                test=clfeval.Test(seed=group_seed, rounds=300), labels=["0", "1", "2"])  # fmt: skip
        _same(alone.flat(), r.by_group[name].flat())
        assert r.by_group[name].score("A", "macro.f1") == pytest.approx(f1_score(y[m], p[m], average="macro"))
    for metric in ("macro.f1", "accuracy"):
        for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
            found = [r.test(name, a, b, metric) for name in r.names]
            want = holm(np.array([t.p_value for t in found]))
            assert [t.p_holm_groups for t in found] == pytest.approx(want.tolist())
            assert all(t.significant == (t.p_holm_groups < 0.05) for t in found)
            assert [t.p_value for t in found] == [r.by_group[n].pair(a, b, metric).p_value for n in r.names]
    doc = r.to_dict()
    assert doc["schema"] == "clfeval.compare-slices/1" and set(doc["by_group"]) == set(r.names)
    assert doc["by_group"]["es"]["schema"] == "clfeval.compare/2" and len(doc["tests"]) == 3 * 2 * 3
    assert r["by_group.es.macro.f1.A_vs_B.p_holm_groups"] == r.test("es", "A", "B", "macro.f1").p_holm_groups
    text = r.render("text")
    assert "pairs by group" in text and "p (Holm, groups)" in text
    for fmt in ("markdown", "csv", "latex", "json"):
        assert r.render(fmt)


def test_compare_by_group_refuses_clearly() -> None:
    y, p, g, _ = _labels(1)
    with pytest.raises(OptionError, match="scores= takes no groups="):
        clfeval.compare(y, None, scores={"A": np.random.default_rng(0).random(len(y))}, labels=[0, 1], groups=g)
    with pytest.raises(InputError, match="must name one group per instance"):
        clfeval.compare(y, {"A": p, "B": y}, groups=g[:-1])
    with pytest.raises(OptionError, match="counts hold none"):
        clfeval.compare(Counted(None), groups=g)


sklearn = pytest.importorskip("sklearn")


def test_sklearn_scorers_by_group_through_metadata_routing_beside_group_k_fold() -> None:
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold, cross_validate

    from clfeval.sklearn import scorer

    X, y = make_classification(n_samples=450, n_classes=3, n_informative=4, random_state=0)
    rng = np.random.default_rng(0)
    lang = rng.choice(["en", "es", "fr"], len(y))
    patient = rng.integers(0, 45, len(y))  # GroupKFold's groups: the units kept together, not the groups compared
    model = LogisticRegression(max_iter=500)
    scorers = {
        "gap": scorer("gap.max.macro.f1"),
        "ratio": scorer("ratio.max.macro.f1"),
        "worst": scorer("group_min.macro.f1"),
        "es": scorer("by_group.es.accuracy"),
        "pair": scorer("gap.fr_vs_en.accuracy"),
        "rest": scorer("gap.es_vs_rest.macro.f1"),
        "plain": scorer("macro.f1"),
    }
    with sklearn.config_context(enable_metadata_routing=True):
        out = cross_validate(model, X, y, cv=GroupKFold(3), scoring=scorers,
                             params={"sensitive_features": lang, "groups": patient})  # fmt: skip
    for i, (train, test) in enumerate(GroupKFold(3).split(X, y, patient)):
        model.fit(X[train], y[train])
        pred, gold, groups = model.predict(X[test]), y[test], lang[test]
        per = {
            name: f1_score(gold[groups == name], pred[groups == name], labels=[0, 1, 2], average="macro")
            for name in ("en", "es", "fr")
        }
        assert out["test_gap"][i] == pytest.approx(-(max(per.values()) - min(per.values())))
        assert out["test_ratio"][i] == pytest.approx(min(per.values()) / max(per.values()))
        assert out["test_worst"][i] == pytest.approx(min(per.values()))
        es, fr, en = (groups == "es"), (groups == "fr"), (groups == "en")
        assert out["test_es"][i] == pytest.approx(accuracy_score(gold[es], pred[es]))
        pair = accuracy_score(gold[fr], pred[fr]) - accuracy_score(gold[en], pred[en])
        assert out["test_pair"][i] == pytest.approx(pair)
        rest = f1_score(gold[~es], pred[~es], labels=[0, 1, 2], average="macro")
        assert out["test_rest"][i] == pytest.approx(per["es"] - rest)
        assert out["test_plain"][i] == pytest.approx(f1_score(gold, pred, average="macro"))
    assert not scorer("gap.max.macro.f1").greater_is_better and scorer("ratio.max.macro.f1").greater_is_better


def test_sklearn_scorers_by_group_refuse_clearly() -> None:
    from sklearn.linear_model import LogisticRegression

    from clfeval.sklearn import scorer

    X = np.random.default_rng(0).normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(OptionError, match="unknown score by group"):
        scorer("gap.worst.macro.f1")
    with pytest.raises(OptionError, match="unknown metric"):
        scorer("by_group.es.macro.f7")
    with pytest.raises(InputError, match="sensitive_features"):
        scorer("gap.max.f1")(model, X, y)
    with pytest.raises(OptionError, match="not a score by group"):
        scorer("f1")(model, X, y, sensitive_features=["a"] * 60)
    with pytest.raises(OptionError, match="single labels"):
        scorer("gap.max.macro.f1", multilabel=True)
    with pytest.warns(clfeval.ClfevalWarning, match="no instance of group 'zz'"):
        assert math.isnan(scorer("by_group.zz.f1")(model, X, y, sensitive_features=["a", "b"] * 30))
    with pytest.warns(clfeval.ClfevalWarning, match="one group only"):
        assert math.isnan(scorer("gap.max.f1")(model, X, y, sensitive_features=["a"] * 60))


transformers = pytest.importorskip("transformers")


def test_hf_compute_metrics_by_group_of_labels_equals_sklearn_on_each_subset() -> None:
    from clfeval.hf import compute_metrics

    rng = np.random.default_rng(4)
    logits = rng.normal(size=(400, 3))
    labels = np.where(rng.random(400) < 0.6, logits.argmax(1), rng.integers(0, 3, 400))
    lang = rng.choice(["en", "es"], 400)
    metrics = compute_metrics(["macro.f1", "accuracy"], labels=["a", "b", "c"], groups=lang, ci="delta")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", clfeval.ClfevalWarning)
        out = metrics(transformers.EvalPrediction(predictions=logits, label_ids=labels))
    pred = logits.argmax(1)
    per = {}
    for name in ("en", "es"):
        m = lang == name
        per[name] = f1_score(labels[m], pred[m], labels=[0, 1, 2], average="macro")
        assert out[f"by_group/{name}/macro.f1"] == pytest.approx(per[name])
        assert out[f"by_group/{name}/accuracy"] == pytest.approx(accuracy_score(labels[m], pred[m]))
        assert out[f"by_group/{name}/macro.f1_ci_low"] < per[name] < out[f"by_group/{name}/macro.f1_ci_high"]
    assert out["macro.f1"] == pytest.approx(f1_score(labels, pred, average="macro"))
    assert out["gap/max/macro.f1"] == pytest.approx(abs(per["en"] - per["es"]))
    assert out["ratio/max/macro.f1"] == pytest.approx(min(per.values()) / max(per.values()))
    assert "gap/max/macro.f1_ci_low" in out
    with pytest.raises(InputError, match="names 400 rows, this evaluation has 10"):
        metrics((logits[:10], labels[:10]))
    with pytest.raises(OptionError, match="slicing= compares groups"):
        compute_metrics(labels=["a", "b", "c"], slicing=clfeval.Slicing())


def test_hf_compute_metrics_by_group_of_tokens_and_entities() -> None:
    seqeval = pytest.importorskip("seqeval.metrics")
    from clfeval.hf import compute_metrics

    rng = np.random.default_rng(5)
    n, t = 80, 9
    ref = rng.integers(0, 5, (n, t))
    lengths = rng.integers(3, t + 1, n)
    for i, length in enumerate(lengths):
        ref[i, length:] = -100
    pred = np.where(rng.random((n, t)) < 0.8, ref, rng.integers(0, 5, (n, t)))
    pred[ref == -100] = 0
    domain = rng.choice(["news", "web"], n)
    prediction = transformers.EvalPrediction(predictions=pred, label_ids=ref)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", clfeval.ClfevalWarning)
        asked = ["micro.f1", "token_accuracy"]
        spans = compute_metrics(asked, label_names=TAGS, spans="iob2", groups=domain)(prediction)
        tokens = compute_metrics(["macro.f1"], label_names=TAGS, groups=domain)(prediction)
    f1 = {}
    for name in ("news", "web"):
        rows = np.flatnonzero(domain == name)
        gold = [[TAGS[x] for x in ref[i, : lengths[i]]] for i in rows]
        found = [[TAGS[x] for x in pred[i, : lengths[i]]] for i in rows]
        f1[name] = seqeval.f1_score(gold, found, mode="strict", scheme=seqeval_scheme())
        assert spans[f"by_group/{name}/micro.f1"] == pytest.approx(f1[name])
        assert spans[f"by_group/{name}/token_accuracy"] == pytest.approx(seqeval.accuracy_score(gold, found))
        keep = (ref != -100) & (domain == name)[:, None]
        want = f1_score(ref[keep], pred[keep], labels=range(5), average="macro", zero_division=0)
        assert tokens[f"by_group/{name}/macro.f1"] == pytest.approx(want)
    assert spans["gap/max/micro.f1"] == pytest.approx(abs(f1["news"] - f1["web"]))


def seqeval_scheme() -> type:
    from seqeval.scheme import IOB2

    return IOB2


def test_sklearn_cv_by_group_is_cv_by_group_of_the_out_of_fold_predictions() -> None:
    from sklearn.model_selection import KFold

    from clfeval.sklearn import cv

    y, p, g, _ = _labels(2)
    splits = list(KFold(4, shuffle=True, random_state=0).split(y))
    r = cv(y, p, splits, sensitive_features=g, ci="delta")
    assert isinstance(r, clfeval.Sliced) and "4 folds pooled" in r.notes[-1]
    _same(clfeval.score(y, p, groups=g, ci="delta", seed=r.test_method["base_seed"]).flat(), r.flat())


def test_hf_compute_by_group_of_label_sets_equals_sklearn_on_each_subset() -> None:
    from clfeval.hf import compute

    rng = np.random.default_rng(6)
    targets = rng.integers(0, 2, (300, 4))
    logits = np.where(targets == 1, 1.0, -1.0) + rng.normal(scale=1.2, size=(300, 4))
    site = rng.choice(["x", "y", "z"], 300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", clfeval.ClfevalWarning)
        out = compute(predictions=logits, references=targets, metrics=["macro.f1", "micro.f1"], multilabel=True,
                      labels=["a", "b", "c", "d"], groups={"site": site})  # fmt: skip
    pred = (logits > 0).astype(int)
    per = []
    for name in ("x", "y", "z"):
        m = site == name
        want = f1_score(targets[m], pred[m], average="macro", zero_division=0)
        assert out[f"by_group/{name}/macro.f1"] == pytest.approx(want)
        assert out[f"by_group/{name}/micro.f1"] == pytest.approx(f1_score(targets[m], pred[m], average="micro"))
        per.append(want)
    assert out["gap/max/macro.f1"] == pytest.approx(max(per) - min(per))
    assert out["macro.f1"] == pytest.approx(f1_score(targets, pred, average="macro", zero_division=0))
