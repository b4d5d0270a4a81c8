"""Cross-validation: pooled = score of the concatenated folds; mean of folds = mean of each fold's score."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.errors import InputError, OptionError
from tests.conftest import run_cli


def _folds(seed: int = 0, k: int = 5, multilabel: bool = False):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(k):
        n = int(rng.integers(20, 80))
        if multilabel:
            gold = [[c for c in "XYZ" if rng.random() < 0.4] for _ in range(n)]
            pred = [[c for c in g if rng.random() < 0.8] + [c for c in "XYZ" if rng.random() < 0.1] for g in gold]
        else:
            gold = [str(x) for x in rng.choice(4, n, p=[0.6, 0.2, 0.15, 0.05])]
            pred = [g if rng.random() < 0.75 else str(rng.integers(0, 4)) for g in gold]
        out.append((gold, pred))
    return out


@pytest.mark.parametrize("multilabel", [False, True])
def test_pooled_is_the_concatenation_and_the_mean_is_the_mean_of_fold_scores(multilabel: bool) -> None:
    folds = _folds(1, multilabel=multilabel)
    gold = [x for g, _ in folds for x in g]
    pred = [x for _, p in folds for x in p]
    fold_ids = [i for i, (g, _) in enumerate(folds) for _ in g]
    result = clfeval.cv(gold, pred, fold_ids, multilabel=multilabel)
    whole = clfeval.score(gold, pred, multilabel=multilabel)
    assert result.pooled.labels == whole.labels
    for name, values in whole.averages.items():
        for m, v in values.items():
            assert result.pooled.averages[name][m] == pytest.approx(v, abs=1e-12)
    assert result.pooled.accuracy == pytest.approx(whole.accuracy)
    alone = [clfeval.score(g, p, multilabel=multilabel, scoring=clfeval.Scoring(labels=whole.labels)) for g, p in folds]
    means = result.mean_of_folds()  # the measure names of Scores.averages: "f", not "f1"
    json_means = result.to_dict()["mean_of_folds"]  # the JSON's: "f1"
    for name in whole.averages:
        for m in ("precision", "recall", "f", "specificity", "jaccard"):
            values = [a.averages[name][m] for a in alone]
            assert means["averages"][name][m] == pytest.approx(np.mean(values), abs=1e-12)
            assert means["averages"][name][f"{m}_sd"] == pytest.approx(np.std(values, ddof=1), abs=1e-12)
            key = "f1" if m == "f" else m
            assert json_means["averages"][name][key] == pytest.approx(np.mean(values), abs=1e-12)
            assert json_means["averages"][name][f"{key}_sd"] == pytest.approx(np.std(values, ddof=1), abs=1e-12)
    averaged = {"precision", "recall", "specificity", "jaccard"}
    assert {r["measure"] for r in result.to_dict()["differences"]} == averaged | {"f1"}
    assert {r["measure"] for r in result.differences()} == averaged | {"f"}
    for name in whole.overall:  # every overall measure of the task: accuracy, MCC, κ …
        if name in whole.withheld():  # weighted κ, no order declared (issue 38): NaN (null in the JSON)
            assert math.isnan(means[name]) and json_means[name] is None
            continue
        assert means[name] == pytest.approx(np.mean([a.overall[name] for a in alone]), abs=1e-12)
        assert means[f"{name}_sd"] == pytest.approx(np.std([a.overall[name] for a in alone], ddof=1), abs=1e-12)
    assert means["accuracy"] == pytest.approx(np.mean([a.accuracy for a in alone]))
    assert [f.n_instances for f in result.folds] == [len(g) for g, _ in folds]


def test_van_asch_equation_26_on_random_binary_folds() -> None:
    """F1 of class A = 2 tp_A / (N + tp_A − tp_B), pooled (eq. 27) and per fold (eq. 29)."""
    rng = np.random.default_rng(26)
    for _ in range(20):
        k = int(rng.integers(2, 10))
        sizes = rng.integers(5, 60, k)
        folds = []
        for n in sizes:
            gold = np.where(rng.random(n) < rng.uniform(0.05, 0.5), "A", "B")  # class balance varies by fold
            pred = np.where(rng.random(n) < 0.85, gold, np.where(gold == "A", "B", "A"))
            folds.append((gold, pred))
        gold = np.concatenate([g for g, _ in folds])
        pred = np.concatenate([p for _, p in folds])
        ids = np.repeat(np.arange(k), sizes)
        result = clfeval.cv(gold, pred, ids, scoring=clfeval.Scoring(labels=["A", "B"]))
        tp = lambda g, p, c: int(np.sum((g == c) & (p == c)))  # noqa: E731
        pooled = 2 * tp(gold, pred, "A") / (len(gold) + tp(gold, pred, "A") - tp(gold, pred, "B"))
        assert result.pooled.per_label["A"].f == pytest.approx(pooled, abs=1e-12)
        fold_f = [2 * tp(g, p, "A") / (len(g) + tp(g, p, "A") - tp(g, p, "B")) for g, p in folds]
        assert [f.per_label["A"].f for f in result.folds] == pytest.approx(fold_f, abs=1e-12)


def test_equal_folds_agree_and_unequal_folds_are_warned_about() -> None:
    gold, pred = ["a"] * 6 + ["b"] * 4, ["a"] * 5 + ["b"] * 3 + ["a", "b"]
    same = clfeval.cv(gold * 3, pred * 3, [1] * 10 + [2] * 10 + [3] * 10)
    assert all(abs(r["difference"]) < 1e-12 for r in same.differences())
    assert not any("differ by more than" in w for w in same.warnings)
    skewed = clfeval.cv(["a"] * 20 + ["a", "b", "b", "a"], ["a"] * 19 + ["b", "b", "a", "b", "b"], [1] * 20 + [2] * 4)
    assert any("estimate different things" in w for w in skewed.warnings)
    quiet = clfeval.cv(
        ["a"] * 20 + ["a", "b", "b", "a"], ["a"] * 19 + ["b", "b", "a", "b", "b"], [1] * 20 + [2] * 4, warn_above=1.0
    )
    assert not any("estimate different things" in w for w in quiet.warnings)


def test_intervals_on_the_pooled_scores_and_json_contract() -> None:
    folds = _folds(3)
    gold = [x for g, _ in folds for x in g]
    pred = [x for _, p in folds for x in p]
    result = clfeval.cv(
        gold, pred, [i for i, (g, _) in enumerate(folds) for _ in g], ci=clfeval.CI("bootstrap", resamples=200, seed=4)
    )
    data = json.loads(result.render("json"))
    assert data["schema"] == "clfeval.cv/2" and data["n_folds"] == 5
    assert data["pooled"]["schema"] == "clfeval.score/2" and data["pooled"]["ci"]["seed"] == 4
    assert data["pooled"]["averages"]["macro"]["f1_ci"] is not None
    assert len(data["folds"]) == 5 and data["folds"][0]["inputs"] == {"fold": "0"}
    assert set(data["mean_of_folds"]["averages"]["macro"]) == {
        "precision",
        "precision_sd",
        "recall",
        "recall_sd",
        "f1",
        "f1_sd",
        "specificity",
        "specificity_sd",
        "jaccard",
        "jaccard_sd",
    }
    assert json.loads(json.dumps(data)) == data == result.to_dict()


def test_bad_options() -> None:
    with pytest.raises(OptionError):
        clfeval.cv([])
    with pytest.raises(OptionError, match="mix"):
        clfeval.cv([clfeval.count_labels(["a"], ["a"]), clfeval.count_label_sets([["a"]], [["a"]])])
    with pytest.raises(clfeval.InputError, match="one entry per instance"):
        clfeval.cv(["a", "b"], ["a", "b"], [1])


def test_cli_fold_files_and_fold_column(tmp_path: Path) -> None:
    paths = []
    for i, (gold, pred) in enumerate(_folds(5, k=3)):
        path = tmp_path / f"fold{i + 1}.txt"
        path.write_text("".join(f"w{j} {g} {p}\n" for j, (g, p) in enumerate(zip(gold, pred))))
        paths.append(str(path))
    out = run_cli("cv", *paths, "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["fold_names"] == paths and data["n_folds"] == 3
    table = tmp_path / "all.csv"
    table.write_text(
        "gold,pred,fold\n"
        + "".join(f"{g},{p},{i + 1}\n" for i, (gold, pred) in enumerate(_folds(5, k=3)) for g, p in zip(gold, pred))
    )
    by_column = json.loads(run_cli("cv", str(table), "--fold-col", "-1", "--header", "--format", "json").stdout)
    assert by_column["fold_names"] == ["1", "2", "3"]
    assert by_column["pooled"]["averages"] == data["pooled"]["averages"]
    named = run_cli("cv", str(table), "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "pred", "--no-matrix")
    text = named.stdout.decode()
    assert named.returncode == 0 and "pooled (counts added, then scored)" in text and "mean of folds" in text
    bad = run_cli("cv", str(table), "--fold-col", "fold")
    assert bad.returncode == 2 and "--gold-col, --pred-col" in bad.stderr.decode()
    short = tmp_path / "short.txt"
    short.write_text("A\n")
    bad = run_cli("cv", paths[0], str(short))
    assert bad.returncode == 2 and f"{short}:1:" in bad.stderr.decode()


def test_pooled_and_mean_of_folds_differ_for_folds_of_equal_size_and_balance() -> None:
    """Neither summary is 'the unbiased one': F is not linear in the counts, so the two differ even when every
    fold has the same size and the same class balance (docs/cv.md's example, which names this file)."""
    gold = ["a", "a", "b", "b"] * 2
    pred = ["a", "a", "b", "a", "a", "b", "b", "b"]
    r = clfeval.cv(gold, pred, [1] * 4 + [2] * 4)
    assert [f.averages["macro"]["f"] for f in r.folds] == pytest.approx([11 / 15, 11 / 15])
    assert r.mean_of_folds()["averages"]["macro"]["f"] == pytest.approx(11 / 15)  # 0.733
    assert r.pooled.averages["macro"]["f"] == pytest.approx(0.75)
    warning = next(w for w in r.warnings if "differ by more than" in w)
    assert "macro F1 by +0.0167" in warning and "estimate different things" in warning and "unbiased" not in warning
    # the page states these numbers and sends readers here
    page = " ".join((Path(__file__).resolve().parent.parent / "docs" / "cv.md").read_text(encoding="utf-8").split())
    assert "(`tests/test_crossvalidation.py` has such a case: macro F1 0.733 in each fold, 0.75 pooled)" in page
    assert "Neither is unbiased" in page


def test_folds_of_arrays_lists_and_series_are_the_per_instance_selections() -> None:
    """The folds of in-memory labels are grouped with one sort (no per-instance Python): each fold's counts equal
    those of its instances picked one by one, whatever container holds the labels and the fold names."""
    import pandas as pd

    rng = np.random.default_rng(5)
    n = 3_000
    gold = rng.integers(0, 6, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, 6, n))
    folds = rng.choice([3, 10, 2], size=n)
    expected = {}
    for f in (2, 3, 10):  # the oracle: each fold's instances picked one by one
        picked = [(str(g), str(p)) for g, p, k in zip(gold.tolist(), pred.tolist(), folds.tolist()) if k == f]
        expected[str(f)] = clfeval.score([g for g, _ in picked], [p for _, p in picked])
    for g, p, f in (
        (gold, pred, folds),
        (gold.tolist(), pred.tolist(), folds.tolist()),
        (pd.Series(gold), pd.Series(pred), pd.Series(folds)),
        (gold.astype(str), pred.astype(str), folds.astype(float)),
    ):
        result = clfeval.cv(g, p, f)
        names = ["2", "3", "10"]  # float ids as labels are named: 2.0 is "2", as a file's reader names it
        assert list(result.fold_names) == names  # numeric order
        for name, fold in zip(names, result.folds):
            want = expected[str(int(float(name)))]
            assert fold.n_instances == want.n_instances
            assert fold.per_label == want.per_label and fold.averages == want.averages


def test_fold_ids_that_print_alike_are_refused_and_equal_ids_are_one_fold() -> None:
    """Folds 1 and "1" were silently one fold of four instances (a mean over two folds, not three)."""
    gold, pred = list("aabbcc"), list("abbbca")
    with pytest.raises(InputError, match=r"folds\[2\]: fold ids 1 and '1' have the same name '1'"):
        clfeval.cv(gold, pred, [1, 1, "1", "1", 2, 2])
    with pytest.raises(InputError, match=r"folds\[0\]: is \[1\]: a fold id must be a string or a number"):
        clfeval.cv(gold, pred, [[1], [1], 2, 2, 3, 3])
    three = clfeval.cv(gold, pred, ["x", "x", "y", "y", "z", "z"])
    assert three.mean_of_folds()["accuracy"] == pytest.approx(2 / 3)
    equal = clfeval.cv(gold, pred, [1, 1, 1.0, 1.0, 2, 2])  # 1 == 1.0: one fold, named at first sight
    assert equal.fold_names == ("1", "2") and [f.n_instances for f in equal.folds] == [4, 2]
    mixed = clfeval.cv(gold, pred, np.array(["x", "x", 1, 1, 2, 2], dtype=object))
    assert mixed.fold_names == ("1", "2", "x")
    import pandas as pd

    holed = [1.0, 1.0, 2.0, 2.0, float("nan"), float("nan")]  # a fold left unassigned is not a fold named nan
    for folds in (
        holed,
        pd.Series(holed).tolist(),
        np.array(holed),
        pd.Series(holed),
        [1, 1, 2, 2, None, None],
        [1, 1, 2, 2, pd.NA, pd.NA],
        np.array(["2026-01-01"] * 2 + ["2026-01-02"] * 2 + ["NaT"] * 2, dtype="datetime64[D]"),
    ):
        with pytest.raises(InputError, match=r"folds\[4\]: is (nan|None|<NA>|NaT): a missing fold id"):
            clfeval.cv(gold, pred, folds)


def test_cv_report_shows_the_default_measures_and_the_full_notes_with_verbose() -> None:
    """Issue 30: pooled against mean of folds for the shown measures only; notes one line per choice, each line
    within 100 columns; --verbose says what pooled and mean of folds are in full."""
    gold = list("aabbccaabbccaabbcc")
    pred = list("abbbccaabbcaaabbcc")
    result = clfeval.cv(gold, pred, [k % 3 for k in range(18)])
    text = result.render("text")
    assert max(len(line) for line in text.splitlines()[:-1]) <= 100
    rows = [line.split()[:2] for line in text.split("\nfolds:\n")[0].splitlines()]
    assert ["overall", "MCC"] in rows and ["macro", "F1"] in rows
    assert "specificity" not in text and "κ, linear weights" not in text
    notes = " ".join(text.split("\nnotes:\n")[1].split())
    assert "pooled: the folds' counts added, then scored once" in notes and "Forman & Scholz" not in notes
    verbose = result.render("text", verbose=True, measures="all")
    assert "specificity" in verbose and "κ, quadratic weights" not in verbose  # no order declared (issue 38)
    ordered = clfeval.cv(gold, pred, [k % 3 for k in range(18)], ordinal=["a", "b", "c"])
    assert "κ, quadratic weights" in ordered.render("text", verbose=True, measures="all")
    assert "Forman & Scholz 2010" in verbose and "micro: the measure on" in verbose
    assert result.render("json", measures="mcc") == result.render("json")  # JSON keeps every measure


@pytest.mark.parametrize("seed", range(3))
def test_cv_of_spans_takes_intervals_over_sentences_as_score_does(seed: int) -> None:
    # cv(spans=, ci=) resampled the pooled counts without their sentences and refused with a message asking for
    # spans=, which was given: the pooled counts carry their sentences, and their intervals are score's
    rng = np.random.default_rng(seed)
    tags = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    gold = [list(rng.choice(tags, size=int(rng.integers(1, 8)))) for _ in range(40)]
    pred = [[t if rng.random() < 0.7 else str(rng.choice(tags)) for t in g] for g in gold]
    folds = np.repeat(np.arange(4), 10)  # contiguous folds: the pooled sentences are the data's, in order
    ci = clfeval.CI("bootstrap", resamples=300, seed=seed)
    pooled = clfeval.cv(gold, pred, folds=folds, spans="iob2", ci=ci).pooled
    whole = clfeval.score(gold, pred, spans="iob2", ci=ci)
    assert pooled.to_dict()["ci"] == whole.to_dict()["ci"]
    assert pooled.to_dict()["ci"]["unit"] == "sentences"
    assert pooled.flat() == whole.flat()
