"""Measures of one's own (``clfeval.register_measure``): a registered measure is scored, averaged, given intervals and
tested like a built-in one. Oracles: scikit-learn (``fbeta_score`` with β = 0.5 under a name of its own, and
``balanced_accuracy_score`` recomputed as an overall measure), a permutation test written out instance by instance,
a bootstrap written out instance by instance, and the built-in measures the registered ones recompute."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score, fbeta_score

import clfeval
from clfeval.errors import OptionError
from clfeval.scoring.measures import MEASURES
from clfeval.scoring.registration import registered_measures

ROOT = Path(__file__).resolve().parent.parent


def f_half(tp, fp, fn):
    """F_0.5 = 1.25·tp / (1.25·tp + 0.25·fn + fp), elementwise; NaN where 0/0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return 1.25 * tp / (1.25 * tp + 0.25 * fn + fp)


def balanced(tp, fn):
    """The mean recall over the labels with gold instances ((B, K) → (B,)); NaN when none has."""
    gold = tp + fn
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(gold > 0, tp / np.where(gold > 0, gold, 1.0), 0.0)
        return recall.sum(axis=-1) / (gold > 0).sum(axis=-1)


def error_share(n, exact):
    """(n − exact) / n: reads the scalar sums only."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (n - exact) / n


def register_all() -> None:
    clfeval.register_measure(
        "f_half", f_half, reads=("tp", "fp", "fn"), definition="F with β = 0.5", direction="higher",
        tasks=("single-label", "multi-label", "spans"), undefined_when="{label} is neither in gold nor predicted",
    )  # fmt: skip
    clfeval.register_measure(
        "balanced_again", balanced, reads=("tp", "fn"), definition="mean recall over the gold labels",
        direction="higher", scope="overall", tasks=("single-label",),
    )  # fmt: skip
    clfeval.register_measure(
        "error_share", error_share, reads=("n", "exact"), definition="wrong / N", direction="lower", scope="overall"
    )


@pytest.fixture
def registered() -> Iterator[None]:
    """The three measures of this file, registered for one test and unregistered after it (even when it fails)."""
    register_all()
    try:
        yield
    finally:
        for name in registered_measures():
            clfeval.unregister_measure(name)


def single(rng: np.random.Generator, n: int = 300, k: int = 4, right: float = 0.6) -> tuple[list[str], list[str]]:
    labels = [f"c{i}" for i in range(k)]
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < right, gold, rng.integers(0, k, n))
    return [labels[i] for i in gold], [labels[i] for i in pred]


def test_values_equal_scikit_learn_for_every_average_and_per_label(registered) -> None:
    for seed in range(5):
        rng = np.random.default_rng(seed)
        gold, pred = single(rng, n=int(rng.integers(20, 300)), k=int(rng.integers(2, 7)))
        r = clfeval.score(gold, pred)
        labels = list(r.labels)
        for average in ("macro", "micro", "weighted"):
            expected = fbeta_score(gold, pred, beta=0.5, average=average, labels=labels, zero_division=0)
            assert r[f"{average}.f_half"] == pytest.approx(expected, abs=1e-12)
        per = fbeta_score(gold, pred, beta=0.5, average=None, labels=labels, zero_division=0)
        for lab, value in zip(labels, per):
            assert r[f"per_label.{lab}.f_half"] == pytest.approx(value, abs=1e-12)
        assert r["balanced_again"] == pytest.approx(balanced_accuracy_score(gold, pred), abs=1e-12)
        assert r["error_share"] == pytest.approx(1 - r["accuracy"], abs=1e-15)


def test_label_sets_and_spans_take_it_too(registered) -> None:
    rng = np.random.default_rng(4)
    names = ["x", "y", "z"]
    gold = (rng.random((120, 3)) < 0.4).astype(int)
    pred = np.where(rng.random((120, 3)) < 0.75, gold, 1 - gold)
    sets = [[names[j] for j in np.flatnonzero(row)] for row in gold]
    psets = [[names[j] for j in np.flatnonzero(row)] for row in pred]
    r = clfeval.score(sets, psets, multilabel=True, scoring=clfeval.Scoring(labels=names))
    for average in ("macro", "micro", "weighted", "samples"):
        expected = fbeta_score(gold, pred, beta=0.5, average=average, zero_division=0)
        assert r[f"{average}.f_half"] == pytest.approx(expected, abs=1e-12), average
    assert "balanced_again" not in r.to_dict() and r["error_share"] == pytest.approx(1 - r["subset_accuracy"])
    tags = clfeval.score([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]], spans="iob2")
    assert tags["per_label.LOC.f_half"] == 1.0 and tags["per_label.PER.f_half"] == 0.0
    assert tags["micro.f_half"] == pytest.approx(0.5)


def test_intervals_are_those_of_the_built_in_measure_it_recomputes(registered) -> None:
    """f_half is F with β = 0.5 (Scoring(beta=0.5)'s ``f``), balanced_again balanced accuracy: every interval
    method gives them the built-in's intervals — the bootstrap's the same resamples (same seed), the delta method's
    the same derivatives (balanced_again's numerically by cell type, the built-in's label by label)."""
    rng = np.random.default_rng(7)
    gold, pred = single(rng, n=250, k=3)
    results = {}
    for method in ("delta", "delta-logit", "bootstrap", "bootstrap-bca"):
        ci = clfeval.CI(method, resamples=2000, seed=3)
        results[method] = clfeval.score(gold, pred, ci=ci, scoring=clfeval.Scoring(beta=0.5))
    clfeval.unregister_measure("balanced_again")  # built-ins alone: the label-by-label (parts) derivatives
    for method, r in results.items():
        iv, alone = r.intervals, clfeval.score(gold, pred, ci=clfeval.CI(method, resamples=2000, seed=3)).intervals
        assert iv is not None and alone is not None
        assert iv.get(("balanced_again",)) == pytest.approx(alone.get(("balanced_accuracy",)), abs=1e-7), method
        for lab in r.labels:
            ours, theirs = iv.get(("per_label", lab, "f_half")), iv.get(("per_label", lab, "f"))
            assert ours == pytest.approx(theirs, abs=1e-7), (method, lab)
        for average in ("macro", "micro", "weighted"):
            ours, theirs = iv.get(("averages", average, "f_half")), iv.get(("averages", average, "f"))
            assert ours == pytest.approx(theirs, abs=1e-7), (method, average)
        low, high = iv.get(("error_share",))
        a_low, a_high = iv.get(("accuracy",))
        assert (low, high) == pytest.approx((1 - a_high, 1 - a_low), abs=1e-7), method


def test_the_bootstrap_matches_one_written_out_instance_by_instance(registered) -> None:
    """A percentile bootstrap drawn instance by instance (numpy's choice, scikit-learn's fbeta_score on each
    resample) gives the same interval to within its Monte Carlo error: clfeval draws the same thing as counts."""
    rng = np.random.default_rng(12)
    gold, pred = single(rng, n=200, k=3)
    labels = sorted(set(gold) | set(pred))
    g, p = np.array(gold), np.array(pred)
    draws = np.random.default_rng(5).integers(0, len(g), (3000, len(g)))
    values = [fbeta_score(g[i], p[i], beta=0.5, average="macro", labels=labels, zero_division=0) for i in draws]
    direct = np.percentile(values, [2.5, 97.5])
    r = clfeval.score(gold, pred, ci=clfeval.CI("bootstrap", resamples=3000, seed=9))
    assert r.intervals is not None
    ours = r.intervals.get(("averages", "macro", "f_half"))
    assert ours == pytest.approx(tuple(direct), abs=0.012)
    assert ours[0] < r["macro.f_half"] < ours[1]


def _permutation_p(metric, gold: list, a: list, b: list) -> tuple[float, float]:
    """Every way of swapping the systems' predictions instance by instance; p = share with |d*| ≥ |d|."""
    observed = metric(gold, a) - metric(gold, b)
    differ = [i for i in range(len(gold)) if a[i] != b[i]]
    hits = 0
    for pattern in itertools.product((False, True), repeat=len(differ)):
        x, y = list(a), list(b)
        for i, swap in zip(differ, pattern):
            if swap:
                x[i], y[i] = b[i], a[i]
        hits += abs(metric(gold, x) - metric(gold, y)) >= abs(observed) - 1e-12
    return observed, hits / 2 ** len(differ)


@pytest.mark.parametrize("name", ["macro.f_half", "balanced_again", "error_share"])
def test_the_randomization_p_is_that_of_a_direct_permutation(registered, name) -> None:
    rng = np.random.default_rng(21)
    gold, a = single(rng, n=16, k=3, right=0.7)
    b = [x if rng.random() < 0.6 else y for x, y in zip(a, single(rng, n=16, k=3, right=0.4)[1])]
    labels = sorted(set(gold) | set(a) | set(b))
    metric = {
        "macro.f_half": lambda g, p: fbeta_score(g, p, beta=0.5, average="macro", labels=labels, zero_division=0),
        "balanced_again": balanced_accuracy_score,
        "error_share": lambda g, p: float(np.mean(np.array(g) != np.array(p))),
    }[name]
    observed, expected = _permutation_p(metric, gold, a, b)
    assert observed != 0 and expected < 1
    exact = clfeval.compare(gold, {"A": a, "B": b}, metrics=name, test="ar", seed=5).pairs[0]
    assert exact.exact and exact.difference == pytest.approx(observed, abs=1e-12)
    assert exact.p_value == pytest.approx(expected, abs=1e-12)
    drawn = clfeval.compare(
        gold, {"A": a, "B": b}, metrics=name, test=clfeval.Test("ar", rounds=20_000, seed=5, exact_limit=0)
    ).pairs[0]
    assert abs(drawn.p_value - expected) < 5 * np.sqrt(expected * (1 - expected) / 20_000) + 1e-4


def test_reports_json_flat_and_explain_show_it_like_a_built_in(registered) -> None:
    rng = np.random.default_rng(3)
    gold, pred = single(rng, n=80, k=3)
    r = clfeval.score(gold, pred, ci="bootstrap", seed=1)
    flat = r.flat(per_label=True)
    assert {"macro/f_half", "macro/f_half_ci_low", "balanced_again", "error_share_ci_high"} <= set(flat)
    assert "per_label/c0/f_half" in flat
    doc = json.loads(r.to_json())
    assert doc["balanced_again"] == r["balanced_again"] and len(doc["balanced_again_ci"]) == 2
    assert doc["averages"]["macro"]["f_half"] == r["macro.f_half"] and "f_half" in doc["per_label"]["c0"]
    assert doc["registered_measures"]["f_half"] == {
        "scope": "label", "averaged": True, "definition": "F with β = 0.5", "reads": ["fn", "fp", "tp"],
        "higher_is_better": True, "range": [0.0, 1.0],
    }  # fmt: skip
    assert doc["registered_measures"]["error_share"]["higher_is_better"] is False
    text = r.render("text")
    assert "f_half" in text and "balanced_again (mean recall over the gold labels)" in text
    assert "f_half" not in r.render("text", measures="precision,recall")
    from clfeval.explain import explain, render_explanations

    shown = render_explanations(explain("f_half"))
    assert "F with β = 0.5" in shown and "registered" in shown and "macro.f_half" in shown
    cv = clfeval.cv(gold, pred, folds=[i % 4 for i in range(len(gold))])
    assert "f_half" in cv.to_dict()["pooled"]["averages"]["macro"]


def test_a_result_of_built_in_measures_alone_has_no_registered_field() -> None:
    assert "registered_measures" not in clfeval.score(["a", "b"], ["a", "a"]).to_dict()


def test_unregistering_takes_it_out_and_the_fixture_leaves_none(registered) -> None:
    clfeval.unregister_measure("error_share")
    assert "error_share" not in MEASURES and "error_share" not in clfeval.score(["a", "b"], ["a", "a"]).to_dict()
    with pytest.raises(OptionError, match="not a registered measure"):
        clfeval.unregister_measure("error_share")
    with pytest.raises(OptionError, match="'mcc' is a built-in measure"):
        clfeval.unregister_measure("mcc")


def test_no_registration_outlives_its_test() -> None:
    assert registered_measures() == ()
    assert all(not m.registered for m in MEASURES.values())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "mcc"}, "the measure 'mcc' exists (built in)"),
        ({"name": "subset_accuracy"}, "exists (built in)"),
        ({"name": "f2"}, "a name clfeval gives"),
        ({"name": "macro"}, "a name clfeval gives"),
        ({"name": "auc"}, "a name clfeval gives"),
        ({"name": "support"}, "a key of clfeval's JSON"),
        ({"name": "mine_ci"}, "a key of clfeval's JSON"),
        ({"name": "My Measure"}, "lower-case letters"),
        ({"reads": ("tp", "errors")}, "'errors', which are not sums"),
        ({"reads": ()}, "declare the sums it reads"),
        ({"reads": "tp"}, "reads is a list of sums"),
        ({"reads": ("tp", "n")}, "a measure of scope 'label' reads tp, fp, fn, tn, not 'n'"),
        ({"direction": "up"}, "direction is 'higher' or 'lower'"),
        ({"scope": "global"}, "scope is 'label' or 'overall'"),
        ({"range": (1.0, 0.0)}, "range needs low < high"),
        ({"range": "0-1"}, "range is (low, high)"),
        ({"tasks": ("spans",), "reads": ("tp", "tn")}, "spans counts have no tn"),
        ({"tasks": ("ranking",)}, "tasks are some of"),
        ({"definition": " "}, "give its definition"),
        ({"compute": lambda tp: tp[:, :1]}, "returned shape (2, 1)"),
        ({"compute": lambda tp, fp: tp / fp}, "compute failed on a trial table (TypeError"),
        ({"compute": "tp / fp"}, "compute is a function"),
        ({"scope": "overall", "averaged": True}, "an overall measure is not averaged"),
    ],
)
def test_a_bad_registration_is_a_one_line_error(kwargs, message) -> None:
    options = {
        "name": "mine", "compute": lambda tp: tp / 2, "reads": ("tp",), "definition": "tp / 2", "direction": "higher",
    }  # fmt: skip
    options.update(kwargs)
    name, compute = options.pop("name"), options.pop("compute")
    with pytest.raises(OptionError) as caught:
        clfeval.register_measure(name, compute, **options)  # type: ignore[arg-type]
    assert message in str(caught.value) and "\n" not in str(caught.value), str(caught.value)
    assert registered_measures() == ()


def test_a_name_registered_twice_is_refused(registered) -> None:
    with pytest.raises(OptionError, match="registered: unregister_measure it first"):
        clfeval.register_measure("f_half", f_half, reads=("tp", "fp", "fn"), definition="again", direction="higher")


def _cli(tmp_path: Path, *args: str, module: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    if module is not None:
        env["CLFEVAL_MEASURES"] = module
    return subprocess.run(
        [sys.executable, "-m", "clfeval", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_command_line_registers_the_modules_of_clfeval_measures(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(
        "import numpy as np\nimport clfeval\n\n\ndef f_half(tp, fp, fn):\n"
        "    with np.errstate(invalid='ignore', divide='ignore'):\n"
        "        return 1.25 * tp / (1.25 * tp + 0.25 * fn + fp)\n\n\n"
        "clfeval.register_measure('f_half', f_half, reads=('tp', 'fp', 'fn'), definition='F with beta 0.5', "
        "direction='higher')\n",
        encoding="utf-8",
    )
    rng = np.random.default_rng(2)
    gold, pred = single(rng, n=60, k=3)
    other = single(rng, n=60, k=3)[1]
    (tmp_path / "data.tsv").write_text(
        "gold\tA\tB\n" + "".join(f"{g}\t{a}\t{b}\n" for g, a, b in zip(gold, pred, other)), encoding="utf-8"
    )
    explained = _cli(tmp_path, "explain", "f_half", module="mine.py")
    assert explained.returncode == 0 and "F with beta 0.5" in explained.stdout, explained.stderr
    scored = _cli(tmp_path, "score", "data.tsv", "--gold-col", "gold", "--pred-col", "A", "--format", "json",
                  module="mine.py")  # fmt: skip
    assert scored.returncode == 0, scored.stderr
    expected = fbeta_score(gold, pred, beta=0.5, average="macro", zero_division=0)
    assert json.loads(scored.stdout)["averages"]["macro"]["f_half"] == pytest.approx(expected, abs=1e-12)
    compared = _cli(tmp_path, "compare", "data.tsv", "--gold-col", "gold", "--pred-col", "A", "--pred-col", "B",
                    "--metric", "macro.f_half", module="mine.py")  # fmt: skip
    assert compared.returncode == 0 and "macro.f_half" in compared.stdout, compared.stderr
    missing = _cli(tmp_path, "explain", "f_half", module="absent.py")
    assert (
        missing.returncode == 2 and missing.stderr.strip() == "clfeval: error: CLFEVAL_MEASURES: no such file absent.py"
    )
    (tmp_path / "broken.py").write_text("raise RuntimeError('no')\n", encoding="utf-8")
    broken = _cli(tmp_path, "explain", "mcc", module="broken.py")
    assert broken.returncode == 2 and "cannot import broken.py (RuntimeError: no)" in broken.stderr
    assert "Traceback" not in broken.stderr
