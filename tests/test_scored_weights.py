"""Sample weights of scored predictions (issue 38, part 1 for scores): every scored measure against scikit-learn's
``sample_weight`` on random cases with ties and zero weights (binary, multi-class one-vs-rest, multi-label), the
one-vs-one AUC and the calibration error against direct weighted references, weights as repeated instances, the
bootstrap and randomization with weights, DeLong refused, and one number through every entry point: arrays, pandas, a
file with --weight-col, a count file and the ScoredAccumulator."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as sk
from sklearn.preprocessing import label_binarize

import clfeval
from clfeval.errors import ClfevalError, InputError, OptionError
from clfeval.scoring.scored import Conventions


def _weights(rng: np.random.Generator, n: int) -> np.ndarray:
    """Weights with ties and zeros: whole numbers 0-3 or positive reals, a few zeros either way."""
    if rng.random() < 0.5:
        return rng.integers(0, 4, n).astype(np.float64)
    w = rng.gamma(1.0, 2.0, n)
    w[rng.random(n) < 0.1] = 0.0
    return w


def _binary(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    return y, np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), int(rng.integers(1, 3)))  # rounded: ties


def _multiclass(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    p = np.round(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True), 2)
    p[:, -1] = 1 - p[:, :-1].sum(axis=1)
    p = np.clip(p, 0, 1)
    return y, p / p.sum(axis=1, keepdims=True)


def _positive_weight_on_every_class(y: np.ndarray, w: np.ndarray, k: int) -> None:
    for c in range(k):  # every class keeps some weight, so that every one-vs-rest AUC is defined
        w[np.flatnonzero(y == c)[0]] = 1.0


@pytest.mark.parametrize("seed", range(15))
def test_binary_measures_equal_scikit_learn_with_weights(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y, s = _binary(rng, int(rng.integers(30, 400)))
    w = _weights(rng, len(y))
    _positive_weight_on_every_class(y, w, 2)
    r = clfeval.score(y, scores=s, sample_weight=w)
    assert r["auc"] == pytest.approx(sk.roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    assert r["average_precision"] == pytest.approx(sk.average_precision_score(y, s, sample_weight=w), abs=1e-12)
    assert r["log_loss"] == pytest.approx(sk.log_loss(y, s, sample_weight=w), abs=1e-12)
    assert r["brier"] == pytest.approx(sk.brier_score_loss(y, s, sample_weight=w), abs=1e-12)
    assert r["ece"] == pytest.approx(_ece(s, y.astype(float), w), abs=1e-12)  # positive class's calibration


@pytest.mark.parametrize("seed", range(15))
def test_multiclass_measures_equal_scikit_learn_with_weights(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    k = int(rng.integers(3, 6))
    y, p = _multiclass(rng, int(rng.integers(60, 400)), k)
    w = _weights(rng, len(y))
    _positive_weight_on_every_class(y, w, k)
    r = clfeval.score(y, scores=p, sample_weight=w, conventions=Conventions(ties="sklearn", top_k=tuple(range(1, k))))
    for average in ("macro", "weighted"):  # scikit-learn weights the one-vs-rest averages
        expected = sk.roc_auc_score(y, p, multi_class="ovr", average=average, sample_weight=w)
        assert r[f"{average}.auc"] == pytest.approx(expected, abs=1e-12)
    onehot = label_binarize(y, classes=range(k))
    assert r["micro.auc"] == pytest.approx(sk.roc_auc_score(onehot, p, average="micro", sample_weight=w), abs=1e-12)
    assert r["macro.average_precision"] == pytest.approx(
        sk.average_precision_score(onehot, p, average="macro", sample_weight=w), abs=1e-12
    )
    for c in range(k):
        assert r[f"per_label.{c}.auc"] == pytest.approx(sk.roc_auc_score(y == c, p[:, c], sample_weight=w), abs=1e-12)
        assert r[f"per_label.{c}.average_precision"] == pytest.approx(
            sk.average_precision_score(y == c, p[:, c], sample_weight=w), abs=1e-12
        )
    assert r["log_loss"] == pytest.approx(sk.log_loss(y, p, sample_weight=w, labels=range(k)), abs=1e-12)
    assert r["brier"] == pytest.approx(sk.brier_score_loss(y, p, sample_weight=w, labels=range(k)), abs=1e-12)
    for top in range(1, k):
        expected = sk.top_k_accuracy_score(y, p, k=top, labels=range(k), sample_weight=w)
        assert r[f"top_{top}_accuracy"] == pytest.approx(expected, abs=1e-12)
    top = np.argmax(p, axis=1)  # top-label calibration: a direct per-instance weighted reference
    assert r["ece"] == pytest.approx(_ece(p[np.arange(len(p)), top], (top == y).astype(float), w), abs=1e-12)
    classwise = np.mean([_ece(p[:, c], (y == c).astype(float), w) for c in range(k)])
    assert r["ece_classwise"] == pytest.approx(classwise, abs=1e-12)
    # one-vs-one (scikit-learn takes no weights there): Hand & Till's pairs from scikit-learn's weighted binary AUCs
    pairs, prevalence = [], []
    for i in range(k):
        for j in range(i + 1, k):
            mine = (y == i) | (y == j)
            a_ij = sk.roc_auc_score(y[mine] == i, p[mine, i], sample_weight=w[mine])
            a_ji = sk.roc_auc_score(y[mine] == j, p[mine, j], sample_weight=w[mine])
            pairs.append((a_ij + a_ji) / 2)
            prevalence.append(np.average(mine, weights=w))
    assert r["ovo.auc"] == pytest.approx(np.mean(pairs), abs=1e-12)
    assert r["ovo_weighted.auc"] == pytest.approx(np.average(pairs, weights=prevalence), abs=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_multilabel_measures_equal_scikit_learn_with_weights(seed: int) -> None:
    rng = np.random.default_rng(200 + seed)
    n, k = int(rng.integers(40, 300)), int(rng.integers(2, 6))
    y = (rng.random((n, k)) < rng.uniform(0.15, 0.6)).astype(int)
    y[0], y[1] = 1, 0
    p = np.clip(np.round(rng.random((n, k)) * 0.7 + 0.3 * y, int(rng.integers(1, 3))), 0, 1)
    w = _weights(rng, n)
    w[:2] = 1.0
    labels = [f"L{j}" for j in range(k)]
    r = clfeval.score(y, scores=p, labels=labels, multilabel=True, sample_weight=w)
    for average in ("macro", "weighted", "micro"):
        assert r[f"{average}.auc"] == pytest.approx(sk.roc_auc_score(y, p, average=average, sample_weight=w), abs=1e-12)
        assert r[f"{average}.average_precision"] == pytest.approx(
            sk.average_precision_score(y, p, average=average, sample_weight=w), abs=1e-12
        )
    assert r["lrap"] == pytest.approx(sk.label_ranking_average_precision_score(y, p, sample_weight=w), abs=1e-12)
    assert r["coverage_error"] == pytest.approx(sk.coverage_error(y, p, sample_weight=w), abs=1e-12)
    assert r["ranking_loss"] == pytest.approx(sk.label_ranking_loss(y, p, sample_weight=w), abs=1e-12)
    both = (y.sum(axis=1) > 0) & (y.sum(axis=1) < k)  # the samples averages: where each instance's own is defined
    assert r["samples.auc"] == pytest.approx(
        sk.roc_auc_score(y[both], p[both], average="samples", sample_weight=w[both]), abs=1e-12
    )
    some = y.sum(axis=1) > 0
    assert r["samples.average_precision"] == pytest.approx(
        sk.average_precision_score(y[some], p[some], average="samples", sample_weight=w[some]), abs=1e-12
    )
    pairs_w = np.repeat(w, k)  # every (instance, label) pair a binary probability, weighing its instance's weight
    assert r["log_loss"] == pytest.approx(sk.log_loss(y.ravel(), p.ravel(), sample_weight=pairs_w), abs=1e-12)
    assert r["brier"] == pytest.approx(sk.brier_score_loss(y.ravel(), p.ravel(), sample_weight=pairs_w), abs=1e-12)
    assert r["ece"] == pytest.approx(_ece(p.ravel(), y.ravel().astype(float), pairs_w), abs=1e-12)


def _ece(confidence: np.ndarray, right: np.ndarray, w: np.ndarray, bins: int = 15) -> float:
    """The weighted ECE instance by instance: bins (a, b] of [0, 1] (0 in the first), Σ_b (W_b / W) |ȳ_b − p̄_b| with
    weighted means, a loop over bins and instances written apart from clfeval's."""
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for b in range(bins):
        lo, hi = edges[b], edges[b + 1]
        inside = [i for i in range(len(confidence)) if (lo < confidence[i] <= hi) or (b == 0 and confidence[i] <= lo)]
        mass = sum(w[i] for i in inside)
        if mass > 0:
            y_bar = sum(w[i] * right[i] for i in inside) / mass
            p_bar = sum(w[i] * confidence[i] for i in inside) / mass
            total += mass * abs(y_bar - p_bar)
    return total / w.sum()


@pytest.mark.parametrize("seed", range(6))
def test_whole_weights_equal_repeated_instances_and_zero_weights_equal_dropped_ones(seed: int) -> None:
    rng = np.random.default_rng(300 + seed)
    k = 3
    y, p = _multiclass(rng, 150, k)
    w = rng.integers(0, 4, len(y))
    _positive_weight_on_every_class(y, w, k)
    weighted = clfeval.score(y, scores=p, sample_weight=w)
    repeated = clfeval.score(np.repeat(y, w), scores=np.repeat(p, w, axis=0))
    for name, value in weighted.values.items():
        assert value == pytest.approx(repeated[name], abs=1e-12), name
    assert "ece_debiased" not in weighted and "ece_debiased" in repeated  # not derived for weights: left out, said
    assert any("no ece_debiased" in n for n in weighted.notes)
    assert weighted.n_instances == len(y)  # instances, not weight
    assert weighted.flat()["sample_weight_sum"] == float(w.sum()) and "sample_weight_sum" not in repeated.flat()
    assert "weights:sample" in weighted.signature and "weights:" not in repeated.signature
    assert weighted.to_dict()["inputs"]["sample_weight"] == {
        "source": "sample_weight=",
        "sum": float(w.sum()),
        "n_instances": len(y),
    }


def test_weights_repeat_as_distinct_rows_with_an_instance_count() -> None:
    y = np.array([0, 1, 0, 1, 0, 1])
    s = np.array([0.2, 0.8, 0.2, 0.8, 0.2, 0.8])
    w = np.array([2.0, 1.0, 2.0, 1.0, 0.5, 1.0])
    c = clfeval.score(y, scores=s, sample_weight=w).counts
    assert c.weighted and len(c.count) == 3  # (0, 0.2, 2.0) twice, (0, 0.2, 0.5), (1, 0.8, 1.0) three times
    assert sorted(zip(c.count.tolist(), c.weight.tolist())) == [(1, 0.5), (2, 2.0), (3, 1.0)]
    assert c.total == pytest.approx(w.sum()) and c.n_instances == 6


def test_bad_weights_are_refused_in_one_line() -> None:
    y, s = np.array([0, 1, 0, 1]), np.array([0.1, 0.9, 0.4, 0.6])
    for bad, says in (
        ([1, 1, 1], "4 instances"),
        ([1, -1, 1, 1], "finite number ≥ 0"),
        ([1, np.nan, 1, 1], "finite number ≥ 0"),
        ([0, 0, 0, 0], "sum to 0"),
    ):
        with pytest.raises(InputError, match=says) as info:
            clfeval.score(y, scores=s, sample_weight=bad)
        assert "\n" not in str(info.value)
    with pytest.raises(OptionError, match="equal-width"):
        clfeval.score(y, scores=s, sample_weight=[1, 2, 1, 1], conventions=Conventions(binning="equal-mass"))


def test_delong_is_refused_with_weights_naming_the_bootstrap() -> None:
    rng = np.random.default_rng(7)
    y, s = _binary(rng, 200)
    w = _weights(rng, 200)
    for method in ("delong", "delong-logit"):
        with pytest.raises(OptionError, match="bootstrap"):
            clfeval.score(y, scores=s, sample_weight=w, ci=method)
    with pytest.raises(OptionError, match="bootstrap"):
        clfeval.compare(y, scores={"a": s, "b": s[::-1]}, test="delong", sample_weight=w)


@pytest.mark.parametrize("multilabel", [False, True])
def test_constant_weights_resample_as_no_weights(multilabel: bool) -> None:
    """The bootstrap draws the instances (a multinomial over the rows' instance counts) whatever their weights, and
    randomization swaps them: constant weights give the unweighted intervals and p-values, draw for draw."""
    rng = np.random.default_rng(11)
    if multilabel:
        y = (rng.random((120, 3)) < 0.4).astype(int)
        y[0], y[1] = 1, 0
        a, b = np.round(rng.random((120, 3)), 1), np.round(rng.random((120, 3)), 1)
        extra: dict[str, object] = {"multilabel": True, "labels": ["x", "y", "z"]}
        metric = "macro.auc"
    else:
        y, a = _binary(rng, 120)
        b = np.round(rng.random(120), 1)
        extra, metric = {}, "auc"
    w = np.full(len(y), 2.5)
    for method in ("bootstrap", "bootstrap-bca"):
        plain = clfeval.score(y, scores=a, ci=method, seed=3, resamples=100, **extra)  # type: ignore[arg-type]
        heavy = clfeval.score(y, scores=a, ci=method, seed=3, resamples=100, sample_weight=w, **extra)  # type: ignore[arg-type]
        assert heavy.interval(metric) == pytest.approx(plain.interval(metric), abs=1e-12)
    for test in ("bootstrap", "ar"):
        options: dict[str, object] = {"test": test, "seed": 5, "rounds": 200, "metrics": [metric, "log_loss"], **extra}
        plain_c = clfeval.compare(y, scores={"a": a, "b": b}, **options)  # type: ignore[call-overload]
        heavy_c = clfeval.compare(y, scores={"a": a, "b": b}, sample_weight=w, **options)  # type: ignore[call-overload]
        for p, q in zip(plain_c.pairs, heavy_c.pairs):
            assert (p.difference, p.p_value) == pytest.approx((q.difference, q.p_value), abs=1e-12)


def test_randomization_moves_each_instance_with_its_weight() -> None:
    """With one system's scores equal to the other's, every swap leaves both the same: p = 1; and a weighted
    difference is the difference of the weighted scores."""
    rng = np.random.default_rng(12)
    y, a = _binary(rng, 150)
    b = np.round(rng.random(150), 2)
    w = _weights(rng, 150)
    _positive_weight_on_every_class(y, w, 2)
    same = clfeval.compare(y, scores={"a": a, "b": a}, test="ar", seed=1, rounds=100, sample_weight=w)
    assert same.pairs[0].p_value == 1.0
    r = clfeval.compare(y, scores={"a": a, "b": b}, test="ar", seed=1, rounds=100, sample_weight=w)
    expected = sk.roc_auc_score(y, a, sample_weight=w) - sk.roc_auc_score(y, b, sample_weight=w)
    assert r.pairs[0].difference == pytest.approx(expected, abs=1e-12)
    assert r.results["a"].to_dict()["inputs"]["sample_weight"]["sum"] == pytest.approx(w.sum())


def test_blocks_with_weights_draw_blocks_that_keep_their_weights() -> None:
    rng = np.random.default_rng(13)
    y, s = _binary(rng, 200)
    blocks = np.repeat(np.arange(40), 5)
    plain = clfeval.score(y, scores=s, ci="bootstrap", seed=2, resamples=100, blocks=blocks)
    heavy = clfeval.score(y, scores=s, ci="bootstrap", seed=2, resamples=100, blocks=blocks,
                          sample_weight=np.full(200, 3.0))  # fmt: skip
    assert heavy.interval("auc") == pytest.approx(plain.interval("auc"), abs=1e-12)


def test_cross_validation_with_weights_weighs_each_fold_and_the_pool() -> None:
    rng = np.random.default_rng(14)
    y, s = _binary(rng, 240)
    w = _weights(rng, 240)
    _positive_weight_on_every_class(y, w, 2)
    folds = np.repeat([0, 1, 2], 80)
    for f in range(3):
        _positive_weight_on_every_class(y[folds == f], w[folds == f], 2)
    r = clfeval.cv(y, scores=s, folds=folds, sample_weight=w)
    assert r.pooled["auc"] == pytest.approx(sk.roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    for f, fold in enumerate(r.folds):
        mine = folds == f
        assert fold["auc"] == pytest.approx(sk.roc_auc_score(y[mine], s[mine], sample_weight=w[mine]), abs=1e-12)


def test_accumulator_updates_with_weights_in_every_update_or_none() -> None:
    acc = clfeval.Accumulator("scored", labels=[0, 1])
    acc.update([0, 1], [0.2, 0.7], sample_weight=[1.0, 2.0])
    with pytest.raises(InputError, match="every update or none"):
        acc.update([0], [0.5])
    with pytest.raises(InputError, match="finite number ≥ 0"):
        acc.update([0], [0.5], sample_weight=[-1.0])


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=True, text=True, cwd=cwd)


def test_one_number_through_every_entry_point(tmp_path: Path) -> None:
    """Arrays, pandas, a file read with --weight-col (whole and in chunks), a count file of it, and the
    ScoredAccumulator fed in batches give the same scores and name the weights."""
    rng = np.random.default_rng(21)
    k = 3
    y, p = _multiclass(rng, 300, k)
    w = np.round(_weights(rng, len(y)), 3)
    _positive_weight_on_every_class(y, w, k)
    names = ["a", "b", "c"]
    gold = np.array(names)[y]
    frame = pd.DataFrame(p, columns=names)
    frame.insert(0, "gold", gold)
    frame["w"] = w
    frame.to_csv(tmp_path / "s.csv", index=False)
    arrays = clfeval.score(gold, scores=p, labels=names, sample_weight=w)
    pandas = clfeval.score(frame["gold"], scores=frame[names], sample_weight=frame["w"])
    acc = clfeval.Accumulator("scored", labels=names)
    for at in range(0, len(y), 70):
        acc.update(gold[at : at + 70], p[at : at + 70], sample_weight=w[at : at + 70])
    accumulated = acc.score()
    saved = tmp_path / "acc.json"
    acc.save(str(saved))
    reloaded = clfeval.score(clfeval.load_counts(str(saved)))
    ran = _run("score", "s.csv", "--scores", "a,b,c", "--gold-col", "gold", "--weight-col", "w", "--format", "json",
               cwd=tmp_path)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    from_file = json.loads(ran.stdout)
    counted = _run("count", "s.csv", "--scores", "a,b,c", "--gold-col", "gold", "--weight-col", "w", "-o", "c.json",
                   cwd=tmp_path)  # fmt: skip
    assert counted.returncode == 0, counted.stderr
    again = _run("score", "--counts", "c.json", "--format", "json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    from_counts = json.loads(again.stdout)
    expected = arrays.to_dict()["scores"]
    assert sk.roc_auc_score(y, p, multi_class="ovr", sample_weight=w) == pytest.approx(expected["macro.auc"])
    for other in (pandas.to_dict(), accumulated.to_dict(), reloaded.to_dict(), from_file, from_counts):
        assert other["scores"].keys() == expected.keys()
        for name, value in expected.items():
            assert other["scores"][name] == pytest.approx(value, abs=1e-12), name
        assert other["inputs"]["sample_weight"]["sum"] == pytest.approx(w.sum())
        assert other["inputs"]["sample_weight"]["n_instances"] == len(y)
    assert from_file["inputs"]["sample_weight"]["source"] == "w"
    assert from_counts["inputs"]["sample_weight"]["source"] == "w"  # the count file keeps where its weights came from
    assert pandas.to_dict()["inputs"]["sample_weight"]["source"] == "sample_weight="
    text = _run("score", "s.csv", "--scores", "a,b,c", "--gold-col", "gold", "--weight-col", "w", cwd=tmp_path)
    assert "sample weights (column w)" in text.stdout


def test_the_command_line_refuses_what_weights_do_not_allow(tmp_path: Path) -> None:
    (tmp_path / "b.csv").write_text("gold,p,w\n0,0.2,1\n1,0.7,x\n0,0.4,2\n1,0.9,1\n")
    bad = _run("score", "b.csv", "--scores", "p", "--gold-col", "gold", "--weight-col", "w", cwd=tmp_path)
    assert bad.returncode == 2 and "b.csv:3" in bad.stderr and "Traceback" not in bad.stderr
    rows = [f"{i % 2},{(i * 37 % 100) / 100},{i % 4}" for i in range(60)]
    (tmp_path / "b.csv").write_text("gold,p,w\n" + "\n".join(rows) + "\n")
    delong = _run("score", "b.csv", "--scores", "p", "--gold-col", "gold", "--weight-col", "w", "--ci", "delong",
                  cwd=tmp_path)  # fmt: skip
    assert delong.returncode == 2 and "bootstrap" in delong.stderr and len(delong.stderr.strip().splitlines()) == 1
    counted = _run("count", "b.csv", "--scores", "p", "--gold-col", "gold", "--weight-col", "w", "-o", "c.json",
                   cwd=tmp_path)  # fmt: skip
    assert counted.returncode == 0, counted.stderr
    twice = _run("score", "--counts", "c.json", "--weight-col", "w", cwd=tmp_path)
    assert twice.returncode == 2 and "keeps its weights" in twice.stderr
    boot = _run("score", "b.csv", "--scores", "p", "--gold-col", "gold", "--weight-col", "w", "--ci", "bootstrap",
                "--resamples", "50", "--seed", "1", "--format", "json", cwd=tmp_path)  # fmt: skip
    assert boot.returncode == 0, boot.stderr
    assert json.loads(boot.stdout)["scores"]["auc_ci"] is not None


def test_an_earlier_reader_refuses_weighted_count_rows_rather_than_dropping_weights() -> None:
    from clfeval.kinds.countfile import counts_to_dict

    rng = np.random.default_rng(3)
    y, s = _binary(rng, 50)
    counts = clfeval.score(y, scores=s, sample_weight=_weights(rng, 50) + 0.1).counts
    doc = counts_to_dict(counts)
    assert doc["weighted"] is True and all(len(row) == 4 for row in doc["rows"])  # [gold, score, weight, count]
    unweighted = {k: v for k, v in doc.items() if k != "weighted"}  # a reader that knows no weights
    from clfeval.kinds.countfile import counts_from_dict

    with pytest.raises(ClfevalError, match="rows\\[0\\] must be"):
        counts_from_dict(unweighted)
    back = counts_from_dict(doc)
    assert clfeval.score(back)["auc"] == pytest.approx(clfeval.score(counts)["auc"], abs=1e-12)


def test_the_count_bootstrap_is_the_instance_bootstrap_with_weights() -> None:
    """clfeval's count bootstrap (multinomial over the distinct rows' instances, Σ m*·w) gives the percentile
    interval of a direct bootstrap that draws instances with their weights and scores each draw with scikit-learn, to
    Monte Carlo error; the unweighted interval is farther off."""
    rng = np.random.default_rng(3)
    n = 150
    y = (rng.random(n) < 0.5).astype(int)
    y[:2] = [0, 1]
    x = rng.standard_normal(n) + 2.0 * y
    p = 1 / (1 + np.exp(-(2.0 * x - 2.0)))
    w = np.where(y == 1, 1.0, np.exp(0.8 * x)) * rng.exponential(1.0, n)  # importance weights that move the AUC
    r = clfeval.score(y, scores=p, sample_weight=w, ci="bootstrap", seed=1, resamples=3000)
    draws = np.random.default_rng(2)
    direct = []
    for _ in range(3000):
        i = draws.integers(0, n, n)
        direct.append(sk.roc_auc_score(y[i], p[i], sample_weight=w[i]))
    expected = np.quantile(direct, [0.025, 0.975])
    assert r.interval("auc") == pytest.approx(tuple(expected), abs=0.01)
    plain = clfeval.score(y, scores=p, ci="bootstrap", seed=1, resamples=3000).interval("auc")
    assert max(abs(plain[0] - expected[0]), abs(plain[1] - expected[1])) > 0.03


def test_compare_and_cv_read_the_weight_column(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    y, a = _binary(rng, 200)
    b = np.round(np.clip(a + rng.normal(0, 0.2, 200), 0, 1), 2)
    w = rng.integers(0, 4, 200) * 0.5
    w[:2] = 1.0
    pd.DataFrame({"gold": y, "a": a, "b": b, "w": w}).to_csv(tmp_path / "two.csv", index=False)
    for k in range(2):
        part = slice(k * 100, (k + 1) * 100)
        pd.DataFrame({"gold": y[part], "a": a[part], "w": w[part]}).to_csv(tmp_path / f"f{k}.csv", index=False)
    ran = _run("compare", "two.csv", "--scores", "A=a", "--scores", "B=b", "--gold-col", "gold", "--weight-col", "w",
               "--test", "ar", "--seed", "1", "--format", "json", cwd=tmp_path)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    found = json.loads(ran.stdout)
    expected = sk.roc_auc_score(y, a, sample_weight=w) - sk.roc_auc_score(y, b, sample_weight=w)
    assert found["pairs"][0]["difference"] == pytest.approx(expected, abs=1e-12)
    assert found["results"]["A"]["inputs"]["sample_weight"]["source"] == "w"
    python = clfeval.compare(y, scores={"A": a, "B": b}, test="ar", seed=1, sample_weight=w)
    assert found["pairs"][0]["p_value"] == pytest.approx(python.pairs[0].p_value, abs=1e-12)
    folds = _run("cv", "f0.csv", "f1.csv", "--scores", "a", "--gold-col", "gold", "--weight-col", "w", "--format",
                 "json", cwd=tmp_path)  # fmt: skip
    assert folds.returncode == 0, folds.stderr
    pooled = json.loads(folds.stdout)["pooled"]
    assert pooled["scores"]["auc"] == pytest.approx(sk.roc_auc_score(y, a, sample_weight=w), abs=1e-12)
    assert pooled["inputs"]["sample_weight"] == {"source": "w", "sum": float(w.sum()), "n_instances": 200}
    thresholded = (a >= 0.5).astype(int)  # the same column of weights serves labels: one --weight-col
    pd.DataFrame({"gold": y, "pred": thresholded, "w": w}).to_csv(tmp_path / "labels.csv", index=False)
    labels_only = _run("score", "labels.csv", "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "w",
                       "--format", "json", cwd=tmp_path)  # fmt: skip
    assert labels_only.returncode == 0, labels_only.stderr
    got = json.loads(labels_only.stdout)
    assert got["accuracy"] == pytest.approx(sk.accuracy_score(y, thresholded, sample_weight=w), abs=1e-12)
    assert got["inputs"]["sample_weight"]["source"] == "w"


def test_scores_whose_weights_sum_to_0_are_refused(tmp_path: Path) -> None:
    """A file's weights of 0, and a cv fold's, were scored: numpy's 0/0 warnings, then NaN scores (score) or a
    traceback (cv: the calibration error of an empty table); sample_weight= of zeros was already refused."""
    message = "the instances' weights sum to 0: at least one instance must have a weight above 0"
    (tmp_path / "zero.tsv").write_text("y\tp\tw\n0\t0.2\t0\n1\t0.7\t0\n")
    (tmp_path / "one.tsv").write_text("y\tp\tw\n0\t0.2\t1\n1\t0.7\t1\n")
    run = _run("score", "zero.tsv", "--gold-col", "y", "--scores", "p", "--weight-col", "w", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (2, f"clfeval: error: {message}\n")
    run = _run("cv", "one.tsv", "zero.tsv", "--gold-col", "y", "--scores", "p", "--weight-col", "w", cwd=tmp_path)
    assert run.returncode == 2 and run.stderr.startswith("clfeval: error: fold ") and message in run.stderr
    assert len(run.stderr.splitlines()) == 1
    with pytest.raises(clfeval.InputError, match=f"fold 2: {message}"):
        clfeval.cv([0, 1, 0, 1], scores=[0.1, 0.9, 0.2, 0.3], folds=[1, 1, 2, 2], sample_weight=[1, 1, 0, 0])


@pytest.mark.parametrize("seed", range(6))
def test_the_label_report_at_the_threshold_is_weighted(seed: int) -> None:
    """Binary (at a threshold), multi-class (argmax) and multi-label (each label at the threshold): the label report of
    weighted scores weighs each instance's predicted label as scikit-learn's ``sample_weight`` does."""
    rng = np.random.default_rng(seed)
    n = 120
    w = rng.integers(0, 4, n) * rng.random(n)
    w[0] = 1.0
    y, p = _binary(rng, n)
    cut = float(rng.choice([0.3, 0.5, 0.7]))
    report = clfeval.score(y, scores=p, sample_weight=w, threshold=cut).labels_at_threshold
    predicted = (p >= cut).astype(int)
    assert report.task == "weighted-single-label"
    assert report["f1"] == pytest.approx(sk.f1_score(y, predicted, sample_weight=w), rel=1e-12)
    assert report["accuracy"] == pytest.approx(sk.accuracy_score(y, predicted, sample_weight=w), rel=1e-12)
    k = 4
    gold = rng.integers(0, k, n)
    scores = rng.dirichlet(np.ones(k), n)
    multi = clfeval.score(gold, scores=scores, sample_weight=w).labels_at_threshold
    argmax = scores.argmax(axis=1)
    assert multi["macro.f1"] == pytest.approx(
        sk.f1_score(gold, argmax, average="macro", labels=range(k), sample_weight=w, zero_division=0), rel=1e-12
    )
    sets = (rng.random((n, 3)) < 0.4).astype(int)
    probs = np.clip(sets * 0.5 + rng.random((n, 3)) * 0.5, 0, 1)
    ml = clfeval.score(sets, scores=probs, multilabel=True, labels=["a", "b", "c"], sample_weight=w)
    at = (probs >= 0.5).astype(int)
    assert ml.labels_at_threshold["micro.f1"] == pytest.approx(
        sk.f1_score(sets, at, average="micro", sample_weight=w), rel=1e-12
    )
