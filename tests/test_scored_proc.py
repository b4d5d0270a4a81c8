"""Published anchors: pROC (R) on its own aSAH data set (Turck et al. 2010) — the AUC 0.7314, DeLong's 95% interval
0.6301–0.8326 of s100b, and DeLong's paired test of wfns against s100b, Z = 2.209, p = 0.02718, printed in pROC's
documentation — and pROC's DeLong on random scores with ties. The fixtures are pROC's outputs, written by
``Rscript tools/proc_fixtures.R tests/data/proc`` (pROC 1.18.0 from Debian)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import clfeval
from clfeval.scoring.scored import Conventions

DATA = Path(__file__).parent / "data" / "proc"
ANCHORS = json.loads((DATA / "anchors.json").read_text())
ASAH = pl.read_csv(DATA / "asah.csv")
LABELS = ["Good", "Poor"]
MARKERS = Conventions(not_probabilities=True)  # clinical markers (wfns 1–5, ndka 3–437) are no probabilities


def test_the_documented_figures_are_in_the_fixtures() -> None:
    """The fixtures are pROC's documented values, rounded as its print-out rounds them."""
    s100b = next(c for c in ANCHORS["single"] if c["case"] == "s100b" and c["conf"] == 0.95)
    assert (round(s100b["auc"], 4), round(s100b["low"], 4), round(s100b["high"], 4)) == (0.7314, 0.6301, 0.8326)
    pair = next(c for c in ANCHORS["paired"] if c["case"] == "wfns-s100b" and c["conf"] == 0.95)
    assert (round(pair["z"], 3), round(pair["p"], 5)) == (2.209, 0.02718)


@pytest.mark.parametrize("case", ANCHORS["single"], ids=lambda c: f"{c['case']}-{c['conf']}")
def test_delong_interval_equals_proc_on_asah(case: dict) -> None:
    r = clfeval.score(ASAH["outcome"].to_numpy(), scores=ASAH[case["case"]].to_numpy().astype(float), labels=LABELS,
                      ci="delong", confidence=case["conf"], conventions=MARKERS)  # fmt: skip
    assert r["auc"] == pytest.approx(case["auc"], abs=1e-12)
    low, high = r.interval("auc")
    assert (low, high) == (pytest.approx(case["low"], abs=1e-12), pytest.approx(case["high"], abs=1e-12))


@pytest.mark.parametrize("case", ANCHORS["paired"], ids=lambda c: f"{c['case']}-{c['conf']}")
def test_delong_paired_test_equals_proc_on_asah(case: dict) -> None:
    a, b = case["case"].split("-")
    scores = {a: ASAH[a].to_numpy().astype(float), b: ASAH[b].to_numpy().astype(float)}
    c = clfeval.compare(ASAH["outcome"].to_numpy(), scores=scores, labels=LABELS, test="delong",
                        confidence=case["conf"], conventions=MARKERS)  # fmt: skip
    p = c.pair(a, b)
    for alternative in ("greater", "less"):  # pROC's one-sided p: Φ(−z) for greater, Φ(z) for less
        one = clfeval.compare(ASAH["outcome"].to_numpy(), scores=scores, labels=LABELS, conventions=MARKERS,
                              test=clfeval.Test("delong", alternative=alternative)).pair(a, b)  # fmt: skip
        toward = (case["z"] > 0) == (alternative == "greater")
        assert one["p_value"] == pytest.approx(case["p"] / 2 if toward else 1 - case["p"] / 2, rel=1e-9)
        assert one["z"] == pytest.approx(case["z"], abs=1e-9)
    assert p["score_a"] == pytest.approx(case["auc_a"], abs=1e-12)
    assert p["score_b"] == pytest.approx(case["auc_b"], abs=1e-12)
    assert p["z"] == pytest.approx(case["z"], abs=1e-9)
    assert p["p_value"] == pytest.approx(case["p"], rel=1e-9)
    assert tuple(p["ci"]) == (pytest.approx(case["low"], abs=1e-12), pytest.approx(case["high"], abs=1e-12))


@pytest.mark.parametrize("case", ANCHORS["random"], ids=lambda c: c["single"]["case"])
def test_delong_equals_proc_on_random_scores_with_ties(case: dict) -> None:
    gold, a, b = np.array(case["gold"]), np.array(case["a"]), np.array(case["b"])
    r = clfeval.score(gold, scores=a, labels=LABELS, ci="delong", conventions=MARKERS)
    one = case["single"]
    assert r["auc"] == pytest.approx(one["auc"], abs=1e-12)
    low, high = r.interval("auc")
    assert low == pytest.approx(max(one["low"], 0.0), abs=1e-12)
    assert high == pytest.approx(min(one["high"], 1.0), abs=1e-12)
    p = clfeval.compare(gold, scores={"a": a, "b": b}, labels=LABELS, test="delong", conventions=MARKERS).pair("a", "b")
    two = case["pair"]
    assert p["z"] == pytest.approx(two["z"], abs=1e-9)
    assert p["p_value"] == pytest.approx(two["p"], rel=1e-9, abs=1e-15)
    assert tuple(p["ci"]) == (pytest.approx(two["low"], abs=1e-12), pytest.approx(two["high"], abs=1e-12))


def test_the_command_line_gives_procs_figures_from_the_file() -> None:
    """End to end from the CSV: one system's interval, then the two systems' paired test, as JSON."""
    path = str(DATA / "asah.csv")

    def run(*args: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-m", "clfeval", *args, "--format", "json"], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    one = run("score", path, "--gold-col", "outcome", "--scores", "s100b", "--positive", "Poor", "--ci", "delong",
              "--not-probabilities")  # fmt: skip
    assert one["scores"]["auc"] == pytest.approx(0.7313685636856369, abs=1e-12)
    two = run("compare", path, "--gold-col", "outcome", "--scores", "wfns=wfns", "--scores", "s100b=s100b",
              "--positive", "Poor", "--test", "delong", "--not-probabilities")  # fmt: skip
    pair = two["pairs"][0]
    assert (pair["a"], pair["b"]) == ("wfns", "s100b")
    assert pair["z"] == pytest.approx(2.2089835914409077, abs=1e-9)
    assert pair["p_value"] == pytest.approx(0.02717578222918815, rel=1e-9)
    greater = run("compare", path, "--gold-col", "outcome", "--scores", "wfns=wfns", "--scores", "s100b=s100b",
                  "--positive", "Poor", "--test", "delong", "--not-probabilities", "--alternative", "greater",
                  "--alpha", "0.001")  # fmt: skip
    assert greater["alternative"] == "greater" and greater["alpha"] == 0.001
    assert greater["pairs"][0]["p_value"] == pytest.approx(0.02717578222918815 / 2, rel=1e-9)  # pROC's 0.01359
    assert not greater["pairs"][0]["significant"] and "delong,greater,alpha=0.001" in greater["signature"]
    against = run("compare", path, "--gold-col", "outcome", "--scores", "wfns=wfns", "--scores", "s100b=s100b",
                  "--scores", "ndka=ndka", "--positive", "Poor", "--test", "delong", "--not-probabilities",
                  "--baseline", "ndka")  # fmt: skip
    assert [(p["a"], p["b"]) for p in against["pairs"]] == [("wfns", "ndka"), ("s100b", "ndka")]
    assert against["comparisons"] == "baseline" and against["baseline"] == "ndka"
