"""Sample weights (``sample_weight=``, ``--weight-col``): every measure equals scikit-learn's with ``sample_weight``.

Random cases of single-label and multi-label data, K from 2 to 8, whole and continuous weights and weights of 0; then
the seams (arrays, pandas, polars, a file with ``--weight-col``, a count file, the Accumulator give the same numbers),
compare and cv, the refusals.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.preprocessing import MultiLabelBinarizer

import clfeval

SEEDS = range(24)


def _weights(rng: np.random.Generator, n: int, kind: int) -> np.ndarray:
    """Whole-number weights (class or cost weights), continuous ones, or continuous with a share of zeros."""
    if kind == 0:
        return rng.integers(1, 5, n).astype(float)
    w = rng.gamma(2.0, 1.0, n)
    if kind == 2:
        w[rng.random(n) < 0.2] = 0.0
    return w


def _single(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    n = int(rng.integers(30, 300))
    names = np.array([f"c{i}" for i in range(k)])
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < rng.uniform(0.3, 0.9), gold, rng.integers(0, k, n))
    return names[gold], names[pred], _weights(rng, n, seed % 3), sorted(set(names[gold]) | set(names[pred]))


def _close(a: float, b: float) -> None:
    assert a == pytest.approx(b, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_single_label_measures_equal_scikit_learns_with_sample_weight(seed: int) -> None:
    gold, pred, w, labels = _single(seed)
    r = clfeval.score(gold, pred, sample_weight=w)
    assert r.task == "weighted-single-label" and r.family == "single-label" and r.n_instances == len(gold)
    assert r.inputs["sample_weight"] == {
        "source": "sample_weight=",
        "sum": pytest.approx(w.sum()),
        "n_instances": len(w),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, rc, f, support = sk.precision_recall_fscore_support(
            gold, pred, labels=labels, sample_weight=w, zero_division=0
        )
        for i, lab in enumerate(labels):
            row = r.per_label[lab]
            _close(row.precision, p[i])
            _close(row.recall, rc[i])
            _close(row.f, f[i])
            _close(row.support, support[i])
            _close(
                row.jaccard,
                sk.jaccard_score(gold, pred, labels=[lab], average=None, sample_weight=w, zero_division=0)[0],
            )
        for average in ("micro", "macro", "weighted"):
            for measure, fn in (("precision", sk.precision_score), ("recall", sk.recall_score), ("f", sk.f1_score)):
                _close(r.averages[average][measure], fn(gold, pred, average=average, sample_weight=w, zero_division=0))
            _close(
                r.averages[average]["jaccard"],
                sk.jaccard_score(gold, pred, average=average, sample_weight=w, zero_division=0),
            )
        _close(r.overall["accuracy"], sk.accuracy_score(gold, pred, sample_weight=w))
        _close(r.overall["balanced_accuracy"], sk.balanced_accuracy_score(gold, pred, sample_weight=w))
        _close(r.overall["mcc"], sk.matthews_corrcoef(gold, pred, sample_weight=w))
        _close(r.overall["kappa"], sk.cohen_kappa_score(gold, pred, sample_weight=w))
        for weights in ("linear", "quadratic"):
            expected = sk.cohen_kappa_score(gold, pred, labels=labels, weights=weights, sample_weight=w)
            _close(r.overall[f"kappa_{weights}"], expected)
        _close(r.overall["hamming_loss"], sk.hamming_loss(gold, pred, sample_weight=w))
    assert r.confusion is not None
    np.testing.assert_allclose(
        r.confusion.with_labels(labels).cells,
        sk.confusion_matrix(gold, pred, labels=labels, sample_weight=w),
        rtol=1e-12,
    )


def _multi(seed: int) -> tuple[list[list[str]], list[list[str]], np.ndarray, list[str]]:
    rng = np.random.default_rng(1000 + seed)
    k = int(rng.integers(2, 9))
    n = int(rng.integers(30, 200))
    names = [f"t{i}" for i in range(k)]
    gold_m = rng.random((n, k)) < rng.uniform(0.15, 0.5)
    flip = rng.random((n, k)) < rng.uniform(0.05, 0.4)
    pred_m = gold_m ^ flip
    gold = [[names[j] for j in np.flatnonzero(row)] for row in gold_m]
    pred = [[names[j] for j in np.flatnonzero(row)] for row in pred_m]
    return gold, pred, _weights(rng, n, seed % 3), names


@pytest.mark.parametrize("seed", SEEDS)
def test_multi_label_measures_equal_scikit_learns_with_sample_weight(seed: int) -> None:
    gold, pred, w, names = _multi(seed)
    r = clfeval.score(gold, pred, multilabel=True, sample_weight=w, labels=names)
    assert r.task == "weighted-multi-label" and r.family == "multi-label"
    binarizer = MultiLabelBinarizer(classes=names)
    y, p = binarizer.fit_transform(gold), binarizer.transform(pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prec, rec, f, support = sk.precision_recall_fscore_support(y, p, sample_weight=w, zero_division=0)
        for i, lab in enumerate(names):
            row = r.per_label[lab]
            _close(row.precision, prec[i])
            _close(row.recall, rec[i])
            _close(row.f, f[i])
            _close(row.support, support[i])
        for average in ("micro", "macro", "weighted", "samples"):
            for measure, fn in (("precision", sk.precision_score), ("recall", sk.recall_score), ("f", sk.f1_score)):
                _close(r.averages[average][measure], fn(y, p, average=average, sample_weight=w, zero_division=0))
            _close(
                r.averages[average]["jaccard"],
                sk.jaccard_score(y, p, average=average, sample_weight=w, zero_division=0),
            )
        _close(r.overall["accuracy"], sk.accuracy_score(y, p, sample_weight=w))
        _close(r.overall["hamming_loss"], sk.hamming_loss(y, p, sample_weight=w))
    mcm = sk.multilabel_confusion_matrix(y, p, sample_weight=w)
    for i, lab in enumerate(names):
        row = r.per_label[lab]
        np.testing.assert_allclose([[row.tn, row.fp], [row.fn, row.tp]], mcm[i], rtol=1e-12, atol=1e-9)


def test_whole_weights_are_the_instances_repeated() -> None:
    """A weight of 3 is three instances: every score equals that of the instances repeated."""
    gold, pred, _, _ = _single(5)
    w = np.random.default_rng(5).integers(1, 4, len(gold))
    got = clfeval.score(gold, pred, sample_weight=w).flat()
    expected = clfeval.score(np.repeat(gold, w), np.repeat(pred, w)).flat()
    assert got.pop("n_instances") == len(gold) and got.pop("sample_weight_sum") == expected.pop("n_instances")
    assert got.keys() == expected.keys()
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, rel=1e-12, nan_ok=True), name


# -- intervals and tests: whole weights are blocks of repeated instances ----------------------------------------------


def _repeated_in_blocks(values: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.repeat(values, w)


def test_the_delta_method_with_weights_is_the_sandwich_form() -> None:
    """With whole weights the weighted delta variance (Σ m w² terms less S Sᵀ/N) is the cluster-robust delta of the
    instances repeated, each weighted instance one block."""
    gold, pred, _, _ = _single(7)
    w = np.random.default_rng(7).integers(1, 4, len(gold))
    got = clfeval.score(gold, pred, sample_weight=w, ci="delta")
    blocks = np.repeat(np.arange(len(gold)), w)
    expected = clfeval.score(np.repeat(gold, w), np.repeat(pred, w), blocks=blocks, ci="delta")
    assert got.intervals is not None and expected.intervals is not None
    compared = 0
    for key, bounds in expected.intervals.bounds.items():
        if key[-1].endswith("_wilson"):
            assert got.intervals.get(key) is None  # Wilson's intervals are of counts of instances: left out
            continue
        assert got.intervals.get(key) == pytest.approx(bounds, rel=1e-6, abs=1e-9), key
        compared += 1
    assert compared > 20


def test_randomization_swaps_an_instance_with_its_weight() -> None:
    """Exact randomization over weighted instances equals exact randomization over their repeated instances swapped
    in blocks; every system's scores equal scikit-learn's."""
    rng = np.random.default_rng(11)
    n = 30
    gold = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.8, gold, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.85, a, rng.integers(0, 3, n))
    w = rng.integers(1, 4, n)
    metrics = ["macro.f1", "accuracy", "mcc"]
    got = clfeval.compare(gold, {"A": a, "B": b}, sample_weight=w, metrics=metrics, seed=1)
    expected = clfeval.compare(
        np.repeat(gold, w), {"A": np.repeat(a, w), "B": np.repeat(b, w)}, metrics=metrics, seed=1,
        blocks=np.repeat(np.arange(n), w),
    )  # fmt: skip
    for metric in metrics:
        g, e = got.pair("A", "B", metric), expected.pair("A", "B", metric)
        assert g.exact and e.exact
        assert g.difference == pytest.approx(e.difference, rel=1e-12)
        assert g.p_value == pytest.approx(e.p_value, rel=1e-12)
    assert got.pair("A", "B", "accuracy").sign is None  # no unweighted sign test beside it
    assert got.results["A"]["macro.f1"] == pytest.approx(sk.f1_score(gold, a, average="macro", sample_weight=w))
    assert got.to_dict()["inputs"]["sample_weight"]["n_instances"] == n


def test_cv_weighs_every_fold_and_the_pooled_counts() -> None:
    gold, pred, w, _ = _single(13)
    folds = np.arange(len(gold)) % 3
    r = clfeval.cv(gold, pred, folds, sample_weight=w)
    _close(r.pooled["macro.f1"], sk.f1_score(gold, pred, average="macro", sample_weight=w, zero_division=0))
    labels = r.pooled.labels
    for i, fold in enumerate(r.folds):
        at = folds == i
        expected = sk.f1_score(
            gold[at], pred[at], labels=list(labels), average="macro", sample_weight=w[at], zero_division=0
        )
        _close(fold["macro.f1"], expected)
    assert r.to_dict()["inputs"]["sample_weight"]["sum"] == pytest.approx(w.sum())


# -- the seam: every way in gives the same numbers --------------------------------------------------------------------


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    return subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=True, text=True, cwd=cwd, env=env)


@pytest.mark.parametrize("multilabel", [False, True])
def test_arrays_frames_a_file_a_count_file_and_the_accumulator_agree(tmp_path: Path, multilabel: bool) -> None:
    import pandas as pd
    import polars as pl

    if multilabel:
        gold_sets, pred_sets, w, _ = _multi(3)
        gold, pred = ["|".join(s) for s in gold_sets], ["|".join(s) for s in pred_sets]
        options: dict[str, Any] = {"multilabel": clfeval.MultiLabel(sep="|")}
        flags = ["--multilabel", "--label-sep", "|"]
    else:
        g, p, w, _ = _single(3)
        gold, pred = g.tolist(), p.tolist()
        options, flags = {}, []
    w = np.round(w, 6)  # as the file writes them
    expected = clfeval.score(gold, pred, sample_weight=w, **options)
    flat = expected.flat(per_label=True)
    assert flat["sample_weight_sum"] == pytest.approx(w.sum()) and flat["n_instances"] == len(w)
    ways = {
        "pandas": clfeval.score(pd.Series(gold), pd.Series(pred), sample_weight=pd.Series(w), **options),
        "polars": clfeval.score(pl.Series(gold), pl.Series(pred), sample_weight=pl.Series(w), **options),
        "list": clfeval.score(gold, pred, sample_weight=w.tolist(), **options),
    }
    acc = clfeval.Accumulator("multi-label" if multilabel else "single-label")
    for start in range(0, len(w), 17):
        part = slice(start, start + 17)
        if multilabel:
            acc.update(gold_sets[part], pred_sets[part], sample_weight=w[part])
        else:
            acc.update(gold[part], pred[part], sample_weight=w[part])
    ways["accumulator"] = acc.score()
    table = tmp_path / "data.tsv"
    table.write_text("w\tgold\tpred\n" + "".join(f"{x:.6f}\t{a}\t{b}\n" for x, a, b in zip(w, gold, pred)))
    run = _cli("score", str(table), "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "w", *flags,
               "--format", "json", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    from_file = json.loads(run.stdout)
    assert from_file["inputs"]["sample_weight"] == {"source": "w", "sum": pytest.approx(w.sum()), "n_instances": len(w)}
    assert from_file["options"]["weight_col"] == "w"
    run = _cli("count", str(table), "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "w", *flags, "-o",
               "counts.json", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    ways["count file"] = clfeval.score(clfeval.load_counts(str(tmp_path / "counts.json")))
    clfeval.save_counts(expected.counts, str(tmp_path / "saved.json"))
    ways["saved"] = clfeval.score(clfeval.load_counts(str(tmp_path / "saved.json")))
    for name, result in ways.items():
        got = result.flat(per_label=True)
        assert got.keys() == flat.keys(), name
        for key, value in flat.items():
            assert got[key] == pytest.approx(value, rel=1e-12, nan_ok=True), (name, key)
    assert from_file["averages"] == json.loads(expected.to_json())["averages"]
    assert "sample weights (w)" in _cli("score", str(table), "--gold-col", "gold", "--pred-col", "pred",
                                        "--weight-col", "w", *flags, cwd=tmp_path).stdout  # fmt: skip


def test_count_files_keep_every_weight(tmp_path: Path) -> None:
    gold, pred, w, _ = _single(4)
    counts = clfeval.score(gold, pred, sample_weight=w).counts
    clfeval.save_counts(counts, str(tmp_path / "c.json"))
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["kind"] == "weighted-confusion" and doc["weight_sum"] == pytest.approx(w.sum())
    again = clfeval.load_counts(str(tmp_path / "c.json")).counts
    assert again.rows == counts.rows  # the weights to the last bit
    joint = clfeval.compare(gold, {"A": pred, "B": gold}, sample_weight=w, test="bootstrap", rounds=50, seed=1)
    assert joint.to_dict()["inputs"]["sample_weight"]["source"] == "sample_weight="
    half = len(gold) // 2
    parts = [clfeval.score(gold[s], pred[s], sample_weight=w[s]).counts for s in (slice(0, half), slice(half, None))]
    for i, part in enumerate(parts):
        clfeval.save_counts(part, str(tmp_path / f"part{i}.json"))
    summed = clfeval.score(clfeval.load_counts(str(tmp_path / "part*.json")))
    assert summed["macro.f1"] == pytest.approx(clfeval.score(gold, pred, sample_weight=w)["macro.f1"], rel=1e-12)


# -- refusals ---------------------------------------------------------------------------------------------------------


def test_weights_that_are_not_weights_are_refused() -> None:
    gold, pred = ["a", "b", "a"], ["a", "a", "b"]
    for bad, message in (
        ([1, -1, 1], r"sample_weight\[1\] is -1.0: a weight must be a finite number ≥ 0"),
        ([1, float("nan"), 1], r"sample_weight\[1\] is nan"),
        ([1, 1], r"sample_weight has shape \(2,\): expected one weight per instance \(3\)"),
        ([0, 0, 0], "sample_weight sums to 0"),
        (["x", 1, 1], "sample_weight must hold numbers"),
    ):
        with pytest.raises(clfeval.InputError, match=message):
            clfeval.score(gold, pred, sample_weight=bad)


def test_what_weights_do_not_apply_to_is_refused_in_one_line() -> None:
    gold, pred, w = ["a", "b", "a", "b"], ["a", "a", "b", "b"], [1.0, 2.0, 1.0, 0.5]
    cases = [
        (lambda: clfeval.score([["B-X", "O"]], [["B-X", "O"]], spans=True, sample_weight=[1.0]), "span scores"),
        (lambda: clfeval.score(gold, pred, blocks=[1, 1, 2, 2], sample_weight=w), "not taken with blocks="),
        (lambda: clfeval.score(clfeval.count_labels(gold, pred), sample_weight=w), "belong"),
        (
            lambda: clfeval.compare(gold, {"A": pred, "B": gold}, sample_weight=w, test="mcnemar"),
            "McNemar's and the sign test count instances",
        ),
        (lambda: clfeval.compare(gold, {"A": pred, "B": gold}, sample_weight=w, test="sign"), "use randomization"),
    ]
    for call, message in cases:
        with pytest.raises((clfeval.OptionError, clfeval.InputError), match=message):
            call()
    acc = clfeval.Accumulator()
    acc.update(gold, pred, sample_weight=w)
    with pytest.raises(clfeval.InputError, match="update 2: this accumulator counts weighted instances"):
        acc.update(gold, pred)
    plain = clfeval.Accumulator()
    plain.update(gold, pred)
    with pytest.raises(clfeval.OptionError, match="cannot merge an accumulator of weighted instances"):
        plain.merge(acc)


def test_the_command_line_refuses_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "t.tsv").write_text("gold\tpred\tw\na\ta\t1\nb\ta\t-2\n")
    (tmp_path / "g.txt").write_text("a\nb\n")
    cases = [
        (["score", "t.tsv", "--weight-col", "w"], "t.tsv:3: the weight '-2' is not a finite number ≥ 0"),
        (["score", "t.tsv", "--weight-col", "w", "--block-col", "gold"], "--weight-col is not taken with blocks"),
        (["score", "g.txt", "g.txt", "--weight-col", "1"], "--weight-col names a column of one table"),
    ]
    for args, message in cases:
        run = _cli(*args, cwd=tmp_path)
        assert run.returncode == 2, (args, run.stderr)
        assert message in run.stderr and "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr


def test_compare_and_cv_read_the_weight_column(tmp_path: Path) -> None:
    gold, a, w, _ = _single(8)
    b = np.where(np.random.default_rng(8).random(len(gold)) < 0.8, gold, a)
    w = np.round(w, 6)
    rows = "".join(f"{x}\t{y}\t{z}\t{v:.6f}\n" for x, y, z, v in zip(gold, a, b, w))
    (tmp_path / "t.tsv").write_text("gold\tA\tB\tw\n" + rows)
    run = _cli("compare", "t.tsv", "--gold-col", "gold", "--pred-col", "A", "--pred-col", "B", "--weight-col", "w",
               "--seed", "3", "--rounds", "300", "--format", "json", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    expected = clfeval.compare(gold, {"A": a, "B": b}, sample_weight=w, seed=3, rounds=300).to_dict()
    assert got["pairs"] == expected["pairs"] and got["inputs"]["sample_weight"]["source"] == "w"
    half = len(gold) // 2
    for name, part in (("f1.tsv", slice(0, half)), ("f2.tsv", slice(half, None))):
        (tmp_path / name).write_text("gold\tpred\tw\n" + "".join(
            f"{x}\t{y}\t{v:.6f}\n" for x, y, v in zip(gold[part], a[part], w[part])))  # fmt: skip
    run = _cli("cv", "f1.tsv", "f2.tsv", "--weight-col", "w", "--format", "json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    pooled = json.loads(run.stdout)["pooled"]
    _close(pooled["averages"]["macro"]["f1"], sk.f1_score(gold, a, average="macro", sample_weight=w, zero_division=0))
    folds = (np.arange(len(gold)) >= half).astype(int) + 1  # f1.tsv, then f2.tsv, as a fold column
    (tmp_path / "folds.tsv").write_text("gold\tpred\tw\tfold\n" + "".join(
        f"{x}\t{y}\t{v:.6f}\t{f}\n" for x, y, v, f in zip(gold, a, w, folds)))  # fmt: skip
    run = _cli("cv", "folds.tsv", "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "pred", "--weight-col",
               "w", "--format", "json", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    by_column = json.loads(run.stdout)
    assert by_column["pooled"]["averages"] == pooled["averages"]
    assert by_column["inputs"]["sample_weight"]["source"] == "w"
    run = _cli("cv", "folds.tsv", "--fold-col", "fold", "--weight-col", "w", cwd=tmp_path)
    assert run.returncode == 2 and "--gold-col" in run.stderr


@pytest.mark.parametrize("seed", range(5))
def test_the_delta_interval_of_weighted_accuracy_is_the_ratio_estimators(seed: int) -> None:
    """Weighted accuracy is a ratio estimator, a = Σ w y / Σ w; its linearised standard error is
    √(Σ w² (y − a)²) / Σ w. The delta method over the weighted rows gives exactly that, for continuous weights too."""
    gold, pred, w, _ = _single(100 + seed)
    w[0] = max(w[0], 0.1)
    r = clfeval.score(gold, pred, sample_weight=w, ci="delta")
    y = (gold == pred).astype(float)
    a = (w * y).sum() / w.sum()
    se = math.sqrt(((w * (y - a)) ** 2).sum()) / w.sum()
    low, high = r.interval("accuracy")
    assert (low, high) == pytest.approx((a - 1.959963984540054 * se, a + 1.959963984540054 * se), rel=1e-9)


def test_label_sets_are_compared_and_cross_validated_with_weights() -> None:
    gold, a, w, names = _multi(21)
    rng = np.random.default_rng(21)
    b = [s if rng.random() < 0.7 else [] for s in gold]
    c = clfeval.compare(gold, {"A": a, "B": b}, multilabel=True, sample_weight=w, labels=names,
                        metrics=["macro.f1", "samples.f1"], rounds=200, seed=1)  # fmt: skip
    binarizer = MultiLabelBinarizer(classes=names)
    y = binarizer.fit_transform(gold)
    assert c.results["A"].task == "weighted-multi-label"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for system, pred in (("A", a), ("B", b)):
            p = binarizer.transform(pred)
            for average in ("macro", "samples", "micro"):
                expected = sk.f1_score(y, p, average=average, sample_weight=w, zero_division=0)
                _close(c.results[system][f"{average}.f1"], expected)
        folds = np.arange(len(gold)) % 2
        v = clfeval.cv(gold, a, folds, multilabel=True, sample_weight=w, labels=names)
        _close(v.pooled["macro.f1"], sk.f1_score(y, binarizer.transform(a), average="macro", sample_weight=w,
                                                 zero_division=0))  # fmt: skip


def test_the_warning_on_few_instances_counts_instances_not_weights() -> None:
    gold, pred, _, _ = _single(2)
    plain = clfeval.score(gold, pred, ci="delta")
    for scale in (0.01, 100.0):
        weighted = clfeval.score(gold, pred, sample_weight=np.full(len(gold), scale), ci="delta")
        assert [w for w in weighted.warnings if "simulation" in w] == [w for w in plain.warnings if "simulation" in w]


@pytest.mark.parametrize("command", [["score"], ["cv"], ["compare"]])
def test_weight_col_beside_count_files_is_refused_not_dropped(tmp_path: Path, command: list[str]) -> None:
    """--weight-col with --counts: a count file keeps its weights (or has none), so the column cannot apply; it was
    read past and the unweighted scores printed as if the weights had been used."""
    table = tmp_path / "data.tsv"
    table.write_text("gold\tpred\tw\n" + "a\ta\t1\nb\ta\t3\nb\tb\t0.5\na\tb\t2\n")
    run = _cli("count", str(table), "--gold-col", "gold", "--pred-col", "pred", "-o", "c.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    files = ["c.json", "c.json"] if command == ["cv"] else ["c.json"]
    run = _cli(*command, "--counts", *files, "--weight-col", "w", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "clfeval: error: a count file keeps its weights: give --weight-col when counting (clfeval count)"
    ]


ZERO_WEIGHTS = "the instances' weights sum to 0: at least one instance must have a weight above 0"


def test_weights_that_sum_to_0_are_refused_from_files_count_files_and_folds(tmp_path: Path) -> None:
    """sample_weight= of zeros is refused, but the same zeros read with --weight-col were scored: 0/0 warnings from
    numpy and a report of zeros, and a cv fold of zero weight pulled the mean of folds to half the pooled score."""
    zero = tmp_path / "zero.tsv"
    zero.write_text("gold\tpred\tw\na\ta\t0\nb\ta\t0\n")
    run = _cli("score", str(zero), "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "w", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (2, f"clfeval: error: {ZERO_WEIGHTS}\n")
    run = _cli("count", str(zero), "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "w", "-o", "z.json",
               cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr  # a part may weigh 0; the counts scored may not
    with pytest.raises(clfeval.InputError, match=ZERO_WEIGHTS):
        clfeval.score(clfeval.load_counts(str(tmp_path / "z.json")))
    other = tmp_path / "other.tsv"
    other.write_text("gold\tpred\tw\na\ta\t1\nb\ta\t2\n")
    run = _cli("cv", str(other), str(zero), "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "w",
               cwd=tmp_path)  # fmt: skip
    assert (run.returncode, run.stderr) == (2, f"clfeval: error: fold {zero}: {ZERO_WEIGHTS}\n")


@pytest.mark.parametrize(
    "command",
    [
        ["score", "ner-gold.conll", "ner-tagger-a.conll", "--spans"],
        ["compare", "ner-gold.conll", "ner-tagger-a.conll", "ner-tagger-b.conll", "--spans"],
        ["count", "ner-gold.conll", "ner-tagger-a.conll", "--spans", "-o", "out.json"],
        ["score", "--matrix", "matrix.csv"],
    ],
)
def test_weight_col_with_spans_or_a_matrix_is_refused_not_dropped(tmp_path: Path, command: list[str]) -> None:
    """--weight-col beside --spans (or --matrix) was read past: the unweighted span report printed, while
    sample_weight= with spans= is refused in Python."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    for name in ("ner-gold.conll", "ner-tagger-a.conll", "ner-tagger-b.conll"):
        (tmp_path / name).write_text((examples / name).read_text())
    (tmp_path / "matrix.csv").write_text(",a,b\na,5,1\nb,2,7\n")
    run = _cli(*command, "--weight-col", "3", cwd=tmp_path)
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1, run.stderr
    assert "--weight-col" in run.stderr and "weigh" in run.stderr.split("--weight-col", 1)[1]
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("seed", range(3))
def test_constant_weights_give_the_unweighted_intervals_by_every_method(seed: int) -> None:
    """sample_weight of ones with ci='bootstrap-bca' failed with an AssertionError (the label jackknife read the
    positions of unscaled types, which types scaled by 1 keep elsewhere); weights of one constant are the unweighted
    data, so every interval, weighted κ's too, is the unweighted one."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, 120)
    pred = np.where(rng.random(120) < 0.7, gold, rng.integers(0, 3, 120))
    names = ["macro.f1", "micro.f1", "accuracy", "mcc", "kappa", "kappa_linear", "kappa_quadratic"]
    for method in ("delta", "bootstrap", "bootstrap-bca"):
        plain = clfeval.score(gold, pred, ci=method, seed=1, resamples=200, ordinal=[0, 1, 2])
        for c in (1.0, 2.5):
            weighted = clfeval.score(
                gold, pred, ci=method, seed=1, resamples=200, ordinal=[0, 1, 2], sample_weight=np.full(120, c)
            )
            for name in names:
                assert weighted.interval(name) == pytest.approx(plain.interval(name), abs=1e-9), (method, c, name)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("empty.tsv", "gold\tpred\tw\na\ta\t1\nb\ta\t\n", "empty.tsv:3: the weight is empty"),
        ("null.jsonl", '{"gold": "a", "pred": "a", "w": 1}\n{"gold": "b", "pred": "a", "w": null}\n',
         "null.jsonl:2: the weight ('w') is missing (null)"),
        ("short.txt", "a a 1\nb a\n",
         "short.txt:2: expected at least 3 fields (for the gold and predicted labels and the weight), found 2"),
    ],
)  # fmt: skip
def test_a_bad_weight_cell_is_called_a_weight_not_a_label(tmp_path: Path, name: str, text: str, expected: str) -> None:
    """The reader's messages named a weight cell 'the weight label' ('no column named … for the weight labels')."""
    (tmp_path / name).write_text(text)
    columns = ["1", "2", "3"] if name.endswith(".txt") else ["gold", "pred", "w"]  # a text file: no header
    run = _cli("score", name, "--gold-col", columns[0], "--pred-col", columns[1], "--weight-col", columns[2],
               cwd=tmp_path)  # fmt: skip
    assert (run.returncode, run.stderr) == (2, f"clfeval: error: {expected}\n")
    (tmp_path / "header.tsv").write_text("gold\tpred\tw\na\ta\t1\n")
    run = _cli("score", "header.tsv", "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "v", cwd=tmp_path)
    assert run.returncode == 2 and "no column named 'v' for the weights;" in run.stderr


@pytest.mark.parametrize("multilabel", [False, True])
def test_an_accumulator_batch_may_weigh_0_and_the_total_is_checked_when_scored(multilabel: bool) -> None:
    """An evaluation batch whose weights are all 0 (a masked batch) stopped the loop ('update 1: sample_weight sums
    to 0') though the scored accumulator takes it: counts add up, so the total is what must not be 0."""
    rng = np.random.default_rng(7)
    gold, pred = rng.integers(0, 2, (40, 3)), rng.integers(0, 2, (40, 3))
    w = rng.random(40)
    w[:10] = 0
    acc = clfeval.Accumulator("multi-label" if multilabel else "single-label", labels=["a", "b", "c"])
    for part in (slice(0, 10), slice(10, 40)):
        if multilabel:
            acc.update(gold[part], pred[part], sample_weight=w[part])
        else:
            acc.update(np.array(["a", "b", "c"])[gold[part, 0]], np.array(["a", "b", "c"])[pred[part, 0]],
                       sample_weight=w[part])  # fmt: skip
    expected = (
        sk.f1_score(gold, pred, average="macro", sample_weight=w, zero_division=0)
        if multilabel
        else sk.f1_score(gold[:, 0], pred[:, 0], labels=[0, 1, 2], average="macro", sample_weight=w, zero_division=0)
    )
    assert acc.score()["macro.f1"] == pytest.approx(expected, rel=1e-12)
    empty = clfeval.Accumulator(labels=["a", "b"])
    empty.update(["a", "b"], ["a", "a"], sample_weight=[0, 0])
    with pytest.raises(clfeval.InputError, match="the instances' weights sum to 0"):
        empty.score()


def test_every_weighted_result_names_its_total_weight_in_flat() -> None:
    """score, compare and cv of labels and of scores: ``flat()["sample_weight_sum"]`` (cv: under ``pooled``) is Σw,
    and unweighted results have no such name."""
    gold, a, b = ["a", "b", "a", "b", "a", "b"], ["a", "b", "b", "b", "a", "a"], ["a", "a", "a", "b", "b", "b"]
    y, sa, sb = [0, 1, 0, 1, 1, 0], [0.1, 0.8, 0.3, 0.6, 0.4, 0.5], [0.2, 0.7, 0.1, 0.9, 0.3, 0.2]
    w = [1.0, 2.0, 3.0, 1.0, 1.0, 0.5]
    folds = [0, 0, 0, 1, 1, 1]
    weighted = [
        clfeval.score(gold, a, sample_weight=w).flat(),
        clfeval.compare(gold, {"A": a, "B": b}, sample_weight=w, seed=1, rounds=99).flat(),
        clfeval.compare(y, scores={"A": sa, "B": sb}, sample_weight=w, test="ar", seed=1, rounds=99).flat(),
        clfeval.score(y, scores=sa, sample_weight=w).flat(),
    ]
    for flat in weighted:
        assert flat["sample_weight_sum"] == pytest.approx(sum(w))
    assert clfeval.cv(gold, a, folds, sample_weight=w).flat()["pooled/sample_weight_sum"] == pytest.approx(sum(w))
    assert "sample_weight_sum" not in clfeval.compare(gold, {"A": a, "B": b}, seed=1, rounds=99).flat()


@pytest.mark.parametrize("multilabel", [False, True])
def test_a_label_count_file_names_the_weight_column_it_was_counted_with(tmp_path: Path, multilabel: bool) -> None:
    """Scoring a weighted label count file names the weights' column as scoring the table did (and as a scored count
    file does); it said only "counts", though the file records the column."""
    rng = np.random.default_rng(7)
    n = 40
    names = ["a", "b", "c"]
    if multilabel:
        gold = [",".join(sorted(set(rng.choice(names, rng.integers(0, 3))))) for _ in range(n)]
        pred = [",".join(sorted(set(rng.choice(names, rng.integers(0, 3))))) for _ in range(n)]
    else:
        gold, pred = list(rng.choice(names, n)), list(rng.choice(names, n))
    w = rng.uniform(0.1, 3, n)
    flags = ["--multilabel"] if multilabel else []
    rows = "".join(f"{x:.6f}\t{a}\t{b}\n" for x, a, b in zip(w, gold, pred))
    (tmp_path / "t.tsv").write_text("wt\tgold\tpred\n" + rows)
    run = _cli("count", "t.tsv", "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "wt", *flags, "-o",
               "c.json", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    run = _cli("score", "--counts", "c.json", "--format", "json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    held = json.loads(run.stdout)["inputs"]["sample_weight"]
    assert held == {"source": "wt", "sum": pytest.approx(w.sum(), rel=1e-6), "n_instances": n}
    loaded = clfeval.score(clfeval.load_counts(str(tmp_path / "c.json")))
    assert loaded.to_dict()["inputs"]["sample_weight"]["source"] == "wt"
    unweighted = clfeval.score(["a", "b"], ["a", "a"], sample_weight=[1.0, 2.0])
    clfeval.save_counts(unweighted.counts, str(tmp_path / "bare.json"))  # counts alone: no column to name
    bare = clfeval.score(clfeval.load_counts(str(tmp_path / "bare.json")))
    assert bare.to_dict()["inputs"]["sample_weight"]["source"] == "counts"
