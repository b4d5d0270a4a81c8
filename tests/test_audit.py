"""clfeval audit: which formula reproduces each reported average, on the seeds' tables and on random ones."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import classification_report, f1_score, precision_recall_fscore_support

import clfeval
from clfeval.inverse.audit import audit
from tests.conftest import run_cli

# Opitz & Burst's tables: entry ij is the number labelled i by the classifier with gold label j (rows predicted).
OPITZ = {
    "table 1": ([[100, 10_000], [0, 100]], "0.02", "0.5"),
    "table 2": ([[3500, 2500, 1500], [5000, 5000, 5000], [1500, 2500, 3500]], "0.40", "0.41"),
    "table 3": ([[2000, 1000, 0], [8000, 8000, 8000], [0, 1000, 2000]], "0.36", "0.47"),
}


def _text(x: float, decimals: int) -> str:
    """x rounded half up (as a paper prints it)."""
    return _rounded(Fraction(x).limit_denominator(10**12), decimals)


def _rounded(x: Fraction, decimals: int) -> str:
    whole = int(x * 10**decimals + Fraction(1, 2))
    text = str(whole).rjust(decimals + 1, "0")
    return f"{text[:-decimals]}.{text[-decimals:]}"


def _label_rows(matrix: np.ndarray, decimals: int, supports: bool) -> dict[str, dict[str, object]]:
    """Per-label figures of a matrix with rows = gold, columns = predicted."""
    tp = np.diag(matrix)
    predicted, gold = matrix.sum(axis=0), matrix.sum(axis=1)
    rows: dict[str, dict[str, object]] = {}
    for i in range(len(matrix)):
        p = Fraction(int(tp[i]), int(predicted[i])) if predicted[i] else Fraction(0)
        r = Fraction(int(tp[i]), int(gold[i])) if gold[i] else Fraction(0)
        f = 2 * p * r / (p + r) if p + r else Fraction(0)
        rows[f"L{i}"] = {
            "precision": _rounded(p, decimals),
            "recall": _rounded(r, decimals),
            "f1": _rounded(f, decimals),
        }
        if supports:
            rows[f"L{i}"]["support"] = int(gold[i])
    return rows


@pytest.mark.parametrize("name", list(OPITZ))
def test_opitz_burst_tables_af_and_fa_are_told_apart(name: str) -> None:
    predicted_by_gold, af, fa = OPITZ[name]
    matrix = np.array(predicted_by_gold).T  # rows gold
    result = audit(
        _label_rows(matrix, 2, supports=False), [("macro", {"f1": af}), ("macro F1", {"f1": fa})], decimals=None
    )
    assert [r.matches for r in result.rows] == [("macro",), ("macro_fa",)]
    assert "macro_fa" in result.rows[0].ruled_out and "macro" in result.rows[1].ruled_out
    assert "AF" in result.rows[0].verdict and "FA (macro_fa)" in result.rows[1].verdict


@pytest.mark.slow
def test_opitz_burst_table3_with_supports_bounds_the_counts() -> None:
    matrix = np.array(OPITZ["table 3"][0]).T
    result = audit(_label_rows(matrix, 2, supports=True), [("macro avg", {"f1": "0.36"}), ("macro", {"f1": "0.47"})])
    af, fa = result.rows
    assert "macro" in af.matches and "macro_fa" not in af.matches and "micro" not in af.matches
    assert fa.matches == ("macro_fa",)
    assert "weighted = macro" in af.verdict  # the data set is balanced
    tp, gold, predicted = np.diag(matrix), matrix.sum(axis=1), matrix.sum(axis=0)
    for i, label in enumerate(result.labels):
        lo, hi = label.counts["tp"]
        assert lo <= tp[i] <= hi and hi - lo < 0.02 * gold[i]  # the figures pin tp to within their rounding
        lo, hi = label.counts["fp"]
        assert lo <= predicted[i] - tp[i] <= hi
        assert label.tables > 1 and not label.flags


def test_a_trailing_zero_dropped_widens_the_interval() -> None:
    """Opitz & Burst print 0.4 for Table 2's AF: at one decimal both formulas fit; at two only AF."""
    rows = _label_rows(np.array(OPITZ["table 2"][0]).T, 2, supports=False)
    assert audit(rows, [("macro", {"f1": "0.4"})]).rows[0].matches == ("macro", "macro_fa")
    assert audit(rows, [("macro", {"f1": "0.4"})], decimals=2).rows[0].matches == ("macro",)


def test_van_asch_table8_f_is_af_below_the_harmonic_mean(tmp_path: Path) -> None:
    path = tmp_path / "table8.tsv"
    path.write_text(
        "\tPrecision\tRecall\tF1-score\tAccuracy\n"
        "NORMAL\t78.11%\t71.77%\t73.05%\t92.60%\n"
        "CHANGED\t78.87%\t71.02%\t73.16%\t91.58%\n"
        "UPPER\t90.44%\t71.83%\t76.33%\t93.32%\n",
        encoding="utf-8",
    )
    result = clfeval.audit_file(str(path), all_averages=True)
    f_rows = [r for r in result.rows if r.metric == "f"]
    assert [r.row for r in f_rows] == ["NORMAL", "CHANGED", "UPPER"]
    for r in f_rows:
        assert {"macro_fa", "micro"} <= set(r.ruled_out) and not r.matches
        assert r.own_f is not None and r.figure.high < r.own_f[0]
        assert "below the F1 of the row's own precision and recall" in r.verdict and "macro AF" in r.verdict
    normal = f_rows[0]
    assert float(normal.own_f[0]) == pytest.approx(0.74806, abs=6e-5)  # 2·78.11·71.77 / (78.11 + 71.77)
    assert "74.80" in normal.verdict
    assert [r.line for r in f_rows] == [2, 3, 4]


def test_f_above_the_harmonic_mean_is_no_average() -> None:
    row = audit({}, [("macro", {"precision": "0.50", "recall": "0.50", "f1": "0.60"})]).rows[-1]
    assert row.metric == "f" and set(row.ruled_out) == {"macro", "macro_fa", "weighted", "lfb", "micro"}
    assert "no average does that" in row.verdict


def test_label_rows_whose_f_is_not_their_harmonic_mean_are_flagged() -> None:
    result = audit(
        {
            "A": {"precision": "0.50", "recall": "0.50", "f1": "0.60"},
            "B": {"precision": "0.80", "recall": "0.40", "f1": "0.53"},
        },
        {"macro": {"f1": "0.57"}},
    )
    flagged = {a.label: a.flags for a in result.labels}
    assert flagged["A"] and "not the F of its precision and recall (0.495–0.505)" in flagged["A"][0]
    assert flagged["B"] == ()


def test_a_label_left_out_of_the_average_is_found() -> None:
    """NER-style: the reported macro F1 leaves out the O label (a label set nobody stated)."""
    rows = {
        "O": {"precision": "0.980", "recall": "0.990", "f1": "0.985"},
        "PER": {"precision": "0.800", "recall": "0.700", "f1": "0.747"},
        "LOC": {"precision": "0.600", "recall": "0.650", "f1": "0.624"},
        "ORG": {"precision": "0.500", "recall": "0.400", "f1": "0.444"},
    }
    row = audit(rows, {"macro": {"f1": "0.605"}}).rows[0]  # (0.747 + 0.624 + 0.444) / 3
    assert row.matches == ()
    assert ("O", ("macro",)) in row.without
    assert "macro without 'O' does" in row.verdict


@pytest.mark.parametrize("seed", range(40))
def test_random_tables_reported_with_each_formula_are_identified(seed: int) -> None:
    """scikit-learn computes the averages; each reported (rounded) figure lists its own formula among the matches."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    decimals = int(rng.integers(2, 5))
    scale = int(rng.choice([6, 40, 400]))
    matrix = rng.integers(0, scale, size=(k, k)) + np.diag(rng.integers(1, 3 * scale, size=k))
    gold = np.repeat(np.arange(k), matrix.sum(axis=1))
    pred = np.concatenate([np.repeat(np.arange(k), row) for row in matrix])
    labels = list(range(k))
    train_counts = {f"L{i}": int(c) for i, c in enumerate(rng.integers(1, 100, size=k))}
    p, r, f, _ = precision_recall_fscore_support(gold, pred, labels=labels, zero_division=0)
    weights = np.array([train_counts[f"L{i}"] for i in labels], dtype=float)
    truth = {
        ("macro", "f"): f.mean(),
        ("macro_fa", "f"): 2 * p.mean() * r.mean() / (p.mean() + r.mean()),
        ("weighted", "f"): f1_score(gold, pred, average="weighted", zero_division=0),
        ("micro", "f"): f1_score(gold, pred, average="micro", zero_division=0),
        ("lfb", "f"): float(weights @ f / weights.sum()),
        ("macro", "precision"): p.mean(),
        ("weighted", "recall"): float(matrix.sum(axis=1) @ r / matrix.sum()),
        ("micro", "accuracy"): float(np.trace(matrix) / matrix.sum()),
    }
    measure = {"f": "f1", "precision": "precision", "recall": "recall", "accuracy": "accuracy"}
    rows = _label_rows(matrix, decimals, supports=True)
    averages = [(name, {measure[m]: _text(v, decimals)}) for (name, m), v in truth.items()]
    result = audit(rows, averages, train=train_counts)
    assert not result.messages or "training labels" not in result.messages[0]
    for ((name, m), _), row in zip(truth.items(), result.rows):
        assert row.metric == m
        assert name in row.matches, (name, m, row.verdict, result.combinations)
    if scale == 6 and decimals == 4:
        assert result.combinations, "small counts at four decimals are checked exactly"


def test_exact_combinations_tighten_interval_arithmetic() -> None:
    """At four decimals with few instances, each label has few tables; matches then come from exact combinations."""
    matrix = np.array([[5, 1, 0], [2, 6, 1], [0, 1, 4]])
    rows = _label_rows(matrix, 4, supports=True)
    gold = np.repeat(np.arange(3), matrix.sum(axis=1))
    pred = np.concatenate([np.repeat(np.arange(3), row) for row in matrix])
    micro = f"{np.mean(gold == pred):.4f}"
    result = audit(rows, [("micro", {"f1": micro}), ("accuracy", {"f1": micro})])
    assert result.combinations and result.combinations >= 1
    assert [r.metric for r in result.rows] == ["f", "accuracy"]
    assert all("micro" in r.matches for r in result.rows)
    assert result.rows[1].claimed == "accuracy"


def test_multilabel_micro_from_count_ranges() -> None:
    rng = np.random.default_rng(3)
    y_true = rng.random((300, 4)) < 0.3
    y_pred = np.where(rng.random((300, 4)) < 0.8, y_true, ~y_true)
    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, zero_division=0)
    rows = {
        f"L{i}": {"precision": f"{p[i]:.3f}", "recall": f"{r[i]:.3f}", "f1": f"{f[i]:.3f}", "support": int(s[i])}
        for i in range(4)
    }
    micro = f"{f1_score(y_true, y_pred, average='micro'):.3f}"
    row = audit(rows, {"micro": {"f1": micro}}, single_label=False).rows[0]
    assert "micro" in row.matches
    as_single = audit(rows, {"micro": {"f1": micro}}).rows[0]  # N = Σ supports is wrong for multi-label data
    assert as_single.candidates["micro"] != row.candidates["micro"]
    accuracy = audit(rows, {"micro": {"accuracy": "0.5"}}, single_label=False).rows[0]
    assert accuracy.unavailable == {"micro": "accuracy is micro only for single-label data"} and not accuracy.matches


def test_classification_report_text_through_the_cli(tmp_path: Path) -> None:
    """scikit-learn's own report, read as printed: macro avg is AF, weighted avg is weighted, accuracy is micro."""
    rng = np.random.default_rng(7)
    gold = rng.integers(0, 4, size=500)
    pred = np.where(rng.random(500) < 0.6, gold, rng.integers(0, 4, size=500))
    path = tmp_path / "report.txt"
    path.write_text(classification_report(gold, pred, digits=4, target_names=["a b", "c", "d", "e"]), encoding="utf-8")
    proc = run_cli("audit", str(path), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["schema"] == "clfeval.audit/1"
    got = {(r["label"], r["metric"]): r["matches"] for r in doc["rows"]}
    assert "macro" in got[("macro avg", "f1")] and "macro_fa" not in got[("macro avg", "f1")]
    assert "weighted" in got[("weighted avg", "f1")]
    assert got[("accuracy", "accuracy")] == ["micro"]
    assert [lab["label"] for lab in doc["labels"]] == ["a b", "c", "d", "e"]
    assert all(lab["counts"]["tp"][0] <= lab["counts"]["tp"][1] for lab in doc["labels"])
    text = run_cli("audit", str(path)).stdout.decode()
    assert text.startswith("clfeval audit — ") and "reported averages:" in text and "macro avg" in text


def test_markdown_table_with_lfb_from_a_training_file(tmp_path: Path) -> None:
    train = tmp_path / "train.txt"
    train.write_text("A\n" * 6 + "B\n" * 3 + "C\n", encoding="utf-8")
    # per-label F: A 0.60, B 0.90, C 0.30 → lfb = 0.6·0.6 + 0.3·0.9 + 0.1·0.3 = 0.66; macro 0.60
    table = tmp_path / "paper.md"
    table.write_text(
        "| Class | P | R | F1 |\n|---|---|---|---|\n| A | 0.60 | 0.60 | 0.60 |\n"
        "| B | 0.90 | 0.90 | 0.90 |\n| C | 0.30 | 0.30 | 0.30 |\n| **Average** | | | **0.66** |\n",
        encoding="utf-8",
    )
    doc = json.loads(run_cli("audit", str(table), "--train", str(train), "--format", "json").stdout)
    assert doc["rows"][0]["matches"] == ["lfb"] and doc["frequencies"] == str(train)
    assert doc["rows"][0]["unavailable"]["weighted"] == "needs every label's support"
    no_train = json.loads(run_cli("audit", str(table), "--format", "json").stdout)
    assert no_train["rows"][0]["matches"] == [] and "lfb" in no_train["rows"][0]["unavailable"]


def test_bad_tables_fail_with_one_line(tmp_path: Path) -> None:
    only_labels = tmp_path / "lab.csv"
    only_labels.write_text("label,precision,recall,f1\nA,0.5,0.5,0.5\n", encoding="utf-8")
    proc = run_cli("audit", str(only_labels))
    assert proc.returncode == 2 and proc.stderr.count(b"\n") == 1
    assert f"{only_labels}: has no averaged rows".encode() in proc.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text("label,precision,recall,f1\nA,0.5,high,0.5\nmacro,,,0.5\n", encoding="utf-8")
    proc = run_cli("audit", str(bad))
    assert proc.returncode == 2 and f"{bad}:2:".encode() in proc.stderr and b"recall" in proc.stderr
    twice = tmp_path / "twice.csv"
    twice.write_text("label,f1\nA,0.5\nA,0.6\nmacro,0.55\n", encoding="utf-8")
    proc = run_cli("audit", str(twice))
    assert proc.returncode == 2 and f"{twice}:3:".encode() in proc.stderr and b"line 2" in proc.stderr


@pytest.mark.parametrize("seed", range(60))
def test_reports_printed_like_scikit_learn_with_ties_and_empty_labels(seed: int) -> None:
    """Small counts, '%.Nf' rounding (a true 0.25 prints 0.2), labels never predicted or never in gold."""
    rng = np.random.default_rng(1000 + seed)
    k = int(rng.integers(2, 5))
    decimals = int(rng.integers(1, 4))
    n = int(rng.integers(4, 40))
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.5, gold, rng.integers(0, k, n))
    labels = list(range(k))
    p, r, f, s = precision_recall_fscore_support(gold, pred, labels=labels, zero_division=0)
    rows = {
        f"L{i}": {
            "precision": f"{p[i]:.{decimals}f}",
            "recall": f"{r[i]:.{decimals}f}",
            "f1": f"{f[i]:.{decimals}f}",
            "support": int(s[i]),
        }
        for i in labels
    }
    truth = {
        ("macro", "f"): f.mean(),
        ("macro", "precision"): p.mean(),
        ("macro", "recall"): r.mean(),
        ("weighted", "f"): float(s @ f / s.sum()),
        ("micro", "accuracy"): float(np.mean(gold == pred)),
    }
    if p.mean() + r.mean():
        truth[("macro_fa", "f")] = 2 * p.mean() * r.mean() / (p.mean() + r.mean())
    metric = {"f": "f1", "precision": "precision", "recall": "recall", "accuracy": "accuracy"}
    result = audit(rows, [(name, {metric[m]: f"{v:.{decimals}f}"}) for (name, m), v in truth.items()])
    for (name, m), row in zip(truth, result.rows):
        assert name in row.matches, (name, m, row.figure.text, row.candidates, result.combinations)


@pytest.mark.parametrize("seed", range(30))
def test_formulas_far_from_the_figure_are_not_matched(seed: int) -> None:
    """Soundness the other way: when AF and FA differ by more than the rounding, only the reported one matches."""
    rng = np.random.default_rng(2000 + seed)
    k = int(rng.integers(2, 6))
    matrix = rng.integers(0, 60, size=(k, k)) + np.diag(rng.integers(1, 200, size=k))
    rows = _label_rows(matrix, 4, supports=False)
    p = np.diag(matrix) / matrix.sum(axis=0)
    r = np.diag(matrix) / matrix.sum(axis=1)
    af = float(np.mean(2 * p * r / (p + r)))
    fa = float(2 * p.mean() * r.mean() / (p.mean() + r.mean()))
    result = audit(rows, [("macro", {"f1": _text(af, 4)}), ("macro", {"f1": _text(fa, 4)})])
    if fa - af > 3e-4:  # FA ≥ AF; beyond three units in the fourth decimal the two are told apart
        assert result.rows[0].matches == ("macro",) and result.rows[1].matches == ("macro_fa",)
    else:
        assert {"macro", "macro_fa"} <= set(result.rows[0].matches) | set(result.rows[1].matches)


def test_rows_with_nothing_to_audit_and_bad_options(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text(
        "label,precision,recall,f1,support\nA,,,,3\nB,,,,5\naccuracy,,,,8\nmacro avg,,,0.5,8\n", encoding="utf-8"
    )
    result = clfeval.audit_file(str(table))
    assert [(r.row, r.metric) for r in result.rows] == [("macro avg", "f")]
    assert result.combinations is None and not result.messages
    assert result.rows[0].unavailable["macro"].startswith("needs every label's")
    for option, value in (("--decimals", "-1"), ("--beta", "inf")):
        proc = run_cli("audit", str(table), option, value)
        assert proc.returncode == 2 and proc.stderr.count(b"\n") == 1 and b"Traceback" not in proc.stderr


def test_a_support_only_row_does_not_accuse_the_others() -> None:
    rows = {
        "A": {"precision": "0.75", "recall": "0.60", "support": 5},
        "B": {"precision": "0.50", "recall": "0.67", "support": 3},
        "C": {"support": 2},
    }
    result = audit(rows, {"macro": {"precision": "0.62"}})
    assert not any("not from one matrix" in m for m in result.messages)
    assert result.combinations is None
