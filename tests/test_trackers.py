"""What experiment trackers take: ``result.flat()``, the signature line, and ``clfeval.mlflow.log`` against a real
MLflow file store (mlflow from PyPI, no mock)."""

from __future__ import annotations

import csv
import io
import json
import math
import re

import pytest

import clfeval
from clfeval.errors import OptionError
from tests.conftest import signature_of

GOLD = list("abcabcabcaab" * 4)
PRED = list("abcaacabbcab" * 4)


def test_flat_names_are_the_report_paths_and_values_the_results() -> None:
    r = clfeval.score(GOLD, PRED, ci="delta")
    flat = r.flat()
    assert flat["macro/f1"] == r.averages["macro"]["f"]
    assert flat["macro_fa/f1"] == r.averages["macro_fa"]["f"]
    assert flat["accuracy"] == r.accuracy and flat["n_instances"] == len(GOLD)
    assert (flat["macro/f1_ci_low"], flat["macro/f1_ci_high"]) == r.intervals.get(("averages", "macro", "f"))
    assert not any(k.startswith("per_label") for k in flat)  # off by default
    assert all(isinstance(v, float) for v in flat.values())
    dotted = r.flat(".", per_label=True)
    assert dotted["per_label.b.recall"] == r.per_label["b"].recall
    assert dotted["per_label.b.f1_ci_low"] == r.intervals.get(("per_label", "b", "f"))[0]
    assert len(dotted) == len(flat) + 3 * 8 * 3  # 3 labels × 8 measures × (value, low, high)


def test_flat_follows_beta_and_names_every_average_and_overall_measure() -> None:
    r = clfeval.score(GOLD, PRED, scoring=clfeval.Scoring(beta=2))
    flat = r.flat()
    assert "macro/f2" in flat and "macro/f1" not in flat
    for average in r.averages:
        assert f"{average}/precision" in flat
    assert {"mcc", "kappa", "balanced_accuracy", "hamming_loss"} <= set(flat)


def test_flat_multi_label_names_subset_accuracy_and_samples() -> None:
    r = clfeval.score([["a"], ["a", "b"], ["b"]], [["a"], ["b"], []], multilabel=True)
    flat = r.flat()
    assert flat["subset_accuracy"] == r.accuracy and "samples/f1" in flat


def test_flat_of_compare_cv_and_finagle() -> None:
    cmp = clfeval.compare(GOLD, {"X": PRED, "Y": GOLD}, metrics=["macro.f1"], test=clfeval.Test(seed=3))
    flat = cmp.flat()
    pair = cmp.pairs[0]
    assert flat["X/macro/f1"] == cmp.score("X", "macro.f1")
    assert flat[f"macro/f1/{pair.a}_vs_{pair.b}/p_value"] == pair.p_value
    assert flat[f"macro/f1/{pair.a}_vs_{pair.b}/significant"] in (0.0, 1.0)
    assert "Y/per_label/a/f1" in cmp.flat(per_label=True)
    folds = [i % 4 for i in range(len(GOLD))]
    result = clfeval.cv(GOLD, PRED, folds)
    flat = result.flat()
    means = result.mean_of_folds()
    assert flat["pooled/macro/f1"] == result.pooled.averages["macro"]["f"]
    assert flat["mean_of_folds/macro/f1"] == means["averages"]["macro"]["f"]
    assert flat["sd/accuracy"] == means["accuracy_sd"]
    assert "fold/2/macro/f1" in result.flat(folds=True) and "fold/2/macro/f1" not in flat
    fin = clfeval.finagle(list("aaaabcc"), list("aaaabbc"), [0.9, 0.8, 0.9, 0.7, 0.9, 0.2, 0.9], threshold=0.5)
    assert fin.flat()["changed/macro/precision"] == fin.scenarios["changed"].averages["macro"]["precision"]
    assert fin.flat()["moved/changed"] == 1.0


def test_flat_refuses_an_empty_separator_and_results_without_scores() -> None:
    with pytest.raises(OptionError, match="separator of flat names must be a non-empty string"):
        clfeval.score(GOLD, PRED).flat("")
    conversion = clfeval.convert(precision="0.5", recall="0.5", tp=4)
    with pytest.raises(OptionError, match="a convert result has no scores to log"):
        conversion.flat()


SIGNATURE = re.compile(r"clfeval:[^|]+(\|[a-z_]+:[^|]+)+")


def test_signature_records_what_decides_the_numbers() -> None:
    r = clfeval.score(GOLD, PRED, ci=clfeval.CI("bootstrap", resamples=50, seed=9))
    parts = dict(p.split(":", 1) for p in r.signature.split("|"))
    assert parts == {
        "clfeval": clfeval.__version__,
        "task": "single-label",
        "labels": "union(3)",
        "beta": "1",
        "zero": "0,include",
        "lfb": "test",
        "ci": "bootstrap,0.95,n=50,seed=9",
    }
    declared = clfeval.score(
        GOLD, PRED, scoring=clfeval.Scoring(labels=["a", "b", "c", "d"], beta=0.5, zero_division="nan")
    )
    digest = clfeval.result.signature_digest(["a", "b", "c", "d"])
    assert f"labels:given(4,#{digest})|beta:0.5|zero:nan,include" in declared.signature
    multi = clfeval.score([["a"], ["a", "b"]], [["a"], ["b"]], multilabel=clfeval.MultiLabel(duplicates="collapse"))
    assert "task:multi-label" in multi.signature and "duplicates:collapse|empty:ignore" in multi.signature
    blocked = clfeval.score(GOLD, PRED, ci="delta", blocks=[i // 3 for i in range(len(GOLD))])
    assert blocked.signature.endswith("ci:delta,0.95,blocks=16")


def test_two_runs_with_different_numbers_never_share_a_signature() -> None:
    """Each option that moves a number moves the signature: the declared label set (not only its size), β or a
    confidence level beyond six digits, compare's baseline (Holm adjusts over fewer pairs) and exact-enumeration
    limit. An outside check found each of these giving different numbers under one signature."""

    def differ(a: clfeval.result.Result, b: clfeval.result.Result, numbers: tuple[float, float]) -> None:
        assert numbers[0] != numbers[1]  # the premise: the options move a number
        assert a.signature != b.signature

    ab = clfeval.score(GOLD, PRED, scoring=clfeval.Scoring(labels=["a", "b"]))
    ac = clfeval.score(GOLD, PRED, scoring=clfeval.Scoring(labels=["a", "c"]))
    differ(ab, ac, (ab.averages["macro"]["f"], ac.averages["macro"]["f"]))
    ba = clfeval.score(GOLD, PRED, scoring=clfeval.Scoring(labels=["b", "a"]))  # order: weighted κ's positions
    assert ba.signature != ab.signature
    joined = [clfeval.score(GOLD, PRED, scoring=clfeval.Scoring(labels=ls)) for ls in (["a\nb", "c"], ["a", "b\nc"])]
    differ(*joined, (joined[0].averages["macro"]["f"], joined[1].averages["macro"]["f"]))  # no separator collides
    uneven = list("aaabbc"), list("aabbcc")  # precision ≠ recall, so β moves F
    half, nearly = (clfeval.score(*uneven, scoring=clfeval.Scoring(beta=b)) for b in (0.5, 0.5000004))
    differ(half, nearly, (half.averages["macro"]["f"], nearly.averages["macro"]["f"]))
    assert "|beta:0.5|" in half.signature and "|beta:0.5000004|" in nearly.signature
    wide, wider = (clfeval.score(GOLD, PRED, ci=clfeval.CI("delta", confidence=c)) for c in (0.9, 0.9000001))
    key = ("averages", "macro", "f")
    differ(wide, wider, (wide.intervals.get(key)[0], wider.intervals.get(key)[0]))
    systems = {"A": PRED, "B": GOLD, "C": PRED[::-1]}
    test = clfeval.Test(rounds=200, seed=1)
    every, against = clfeval.compare(GOLD, systems, test=test), clfeval.compare(GOLD, systems, test=test, baseline="B")
    p_every = next(p.p_adjusted for p in every.pairs if {p.a, p.b} == {"A", "B"})
    p_against = next(p.p_adjusted for p in against.pairs if {p.a, p.b} == {"A", "B"})
    differ(every, against, (p_every, p_against))
    assert "|systems:3|baseline:B|" in against.signature
    few = [GOLD[0]] * 4 + [GOLD[1]] * 4  # few differing instances: enumerated exactly, unless the limit is 0
    exact = clfeval.compare(few, {"A": few[:6] + few[:2], "B": few}, test=test)
    drawn = clfeval.compare(
        few, {"A": few[:6] + few[:2], "B": few}, test=clfeval.Test(rounds=200, seed=1, exact_limit=0)
    )
    differ(exact, drawn, (exact.pairs[0].p_value, drawn.pairs[0].p_value))


def test_signature_of_compare_and_cv_and_in_every_output() -> None:
    cmp = clfeval.compare(
        GOLD, {"X": PRED, "Y": GOLD}, test=clfeval.Test("bootstrap", rounds=200, seed=4, ci="bootstrap")
    )
    assert "|systems:2|test:bootstrap,two-sided,n=200,seed=4,alpha=0.05,holm|ci:bootstrap,0.95" in cmp.signature
    ar = clfeval.compare(GOLD, {"X": PRED, "Y": GOLD}, test=clfeval.Test(rounds=200, seed=4))
    assert "|test:ar,two-sided,n=200,seed=4,exact_limit=100000,alpha=0.05,holm|" in ar.signature
    result = clfeval.cv(GOLD, PRED, [i % 4 for i in range(len(GOLD))])
    assert "|folds:4|ci:none" in result.signature
    for res in (clfeval.score(GOLD, PRED), cmp, result):
        assert SIGNATURE.fullmatch(res.signature)
        assert json.loads(res.to_json())["signature"] == res.signature
        assert signature_of(res.render("text")) == res.signature  # text: broken after a '|' to fit 100 columns
        assert res.signature.replace("|", "\\|") in res.render("markdown")
        assert res.signature in res.render("latex")
        assert res.signature in res.render("html")
    for res in (clfeval.score(GOLD, PRED), result):  # the tidy CSVs of a score and a cv hold it in a row
        assert ["signature", "", "", res.signature] in list(csv.reader(io.StringIO(res.render("csv"))))


def test_mlflow_log_to_a_real_file_store(tmp_path, monkeypatch) -> None:
    mlflow = pytest.importorskip("mlflow")
    # MLflow 3 keeps its file store in maintenance mode behind this switch; the store itself is the real one
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    import clfeval.mlflow

    mlflow.set_tracking_uri((tmp_path / "mlruns").as_uri())
    gold = GOLD + ["a|b:c", "=1+1", "x\r=2"]
    pred = PRED + ["a|b:c", "=1+1", "x\r=2"]
    r = clfeval.score(gold, pred, ci="delta")
    with mlflow.start_run() as run:
        run_id = clfeval.mlflow.log(r, prefix="test/", per_label=True, step=3)
        assert run_id == run.info.run_id  # logged into the active run, which stays open
        assert mlflow.active_run() is not None
    client = mlflow.tracking.MlflowClient()
    logged = client.get_run(run_id)
    metrics = logged.data.metrics
    assert metrics["test/macro/f1"] == pytest.approx(r.averages["macro"]["f"], rel=1e-12)
    assert metrics["test/macro/f1_ci_low"] == pytest.approx(r.intervals.get(("averages", "macro", "f"))[0], rel=1e-12)
    assert metrics["test/per_label/a_b:c/f1"] == 1.0  # '|' is not a metric-name character: it becomes '_'
    assert len(metrics) == len(r.flat(per_label=True))
    history = client.get_metric_history(run_id, "test/accuracy")
    assert [m.step for m in history] == [3]
    assert logged.data.tags["clfeval.signature"] == r.signature
    artifacts = {a.path for a in client.list_artifacts(run_id, "clfeval")}
    assert artifacts == {
        "clfeval/result.json",
        "clfeval/report.html",
        "clfeval/report.txt",
        "clfeval/confusion_matrix.csv",
    }
    folder = mlflow.artifacts.download_artifacts(run_id=run_id, artifact_path="clfeval", dst_path=str(tmp_path / "a"))
    data = json.loads((tmp_path / "a" / "clfeval" / "result.json").read_text(encoding="utf-8"))
    assert data["schema"] == "clfeval.score/2" and data["signature"] == r.signature
    assert "<svg" in (tmp_path / "a" / "clfeval" / "report.html").read_text(encoding="utf-8")
    assert folder.endswith("clfeval")
    text = (tmp_path / "a" / "clfeval" / "confusion_matrix.csv").read_bytes().decode("utf-8")
    cells = list(csv.reader(io.StringIO(text, newline="")))
    assert cells[0] == ["gold", "pred", "count"] and len(cells) == 1 + len(r.confusion.count)
    # the one rule of every CSV written: a label a spreadsheet would run gets an apostrophe, a line break is quoted
    assert ["'=1+1", "'=1+1", "1"] in cells and ["x\r=2", "x\r=2", "1"] in cells


def test_mlflow_log_without_a_run_starts_and_ends_one(tmp_path, monkeypatch) -> None:
    mlflow = pytest.importorskip("mlflow")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    import clfeval.mlflow

    mlflow.set_tracking_uri((tmp_path / "mlruns").as_uri())
    cmp = clfeval.compare(GOLD, {"X": PRED, "Y": GOLD}, test=clfeval.Test(seed=1, rounds=100))
    run_id = clfeval.mlflow.log(cmp)
    assert mlflow.active_run() is None
    logged = mlflow.tracking.MlflowClient().get_run(run_id)
    assert logged.info.status == "FINISHED"
    assert set(logged.data.metrics) == set(cmp.flat())
    assert all(math.isfinite(v) or math.isnan(v) for v in logged.data.metrics.values())


def test_mlflow_refuses_names_too_long_before_logging_anything(tmp_path, monkeypatch) -> None:
    mlflow = pytest.importorskip("mlflow")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    import clfeval.mlflow

    mlflow.set_tracking_uri((tmp_path / "mlruns").as_uri())
    long = "x" * 300
    r = clfeval.score([long, "a", "a"], [long, "a", long])
    with pytest.raises(OptionError, match=r"has 32[0-9] characters, more than MLflow's 250"):
        clfeval.mlflow.log(r, per_label=True)
    assert mlflow.active_run() is None and not mlflow.search_runs(search_all_experiments=True).shape[0]
    run_id = clfeval.mlflow.log(r)  # without the per-label names it logs
    assert mlflow.tracking.MlflowClient().get_run(run_id).info.status == "FINISHED"


def test_flat_names_that_would_collide_are_an_error_not_an_overwrite() -> None:
    gold = list("aabbab")
    preds = {"a": gold, "b_vs_c": list("abbbaa"), "a_vs_b": list("aaabab"), "c": list("babbab")}
    cmp = clfeval.compare(gold, preds, test=clfeval.Test(seed=1, rounds=100))
    with pytest.raises(OptionError, match=r"two numbers would share the flat name 'macro/f1/a_vs_b_vs_c/difference'"):
        cmp.flat()
    r = clfeval.score(["x/f1", "x", "x"], ["x/f1", "x", "x/f1"])
    assert len(r.flat(per_label=True)) == len(r.flat()) + 2 * 8  # 'x/f1' and 'x' stay apart under '/'
    assert isinstance(r.flat(), dict) and type(r.flat()) is dict  # a plain dict to the caller
