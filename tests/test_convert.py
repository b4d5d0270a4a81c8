"""clfeval convert: every integer table consistent with rounded figures, checked against brute force."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.errors import OptionError
from clfeval.inverse import convert, convert_labels, reported
from clfeval.inverse.conversion import QUANTITIES
from tests.conftest import run_cli


def _exact(tp: int, fp: int, fn: int, tn: int, beta: Fraction = Fraction(1)) -> dict[str, Fraction | None]:
    """Every quantity of a table as an exact fraction (None when 0/0)."""
    n = tp + fp + fn + tn
    b2 = beta * beta

    def div(a: Fraction | int, b: Fraction | int) -> Fraction | None:
        return Fraction(a) / b if b else None

    return {
        "tp": Fraction(tp),
        "fp": Fraction(fp),
        "fn": Fraction(fn),
        "tn": Fraction(tn),
        "n": Fraction(n),
        "support": Fraction(tp + fn),
        "predicted": Fraction(tp + fp),
        "precision": div(tp, tp + fp),
        "recall": div(tp, tp + fn),
        "f": div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
        "accuracy": div(tp + tn, n),
        "specificity": div(tn, tn + fp),
        "prevalence": div(tp + fn, n),
    }


def _rounded(x: Fraction, decimals: int) -> str:
    """x rounded half up to ``decimals``, as text (any rounding within ½ unit is a valid report)."""
    scaled = x * 10**decimals
    whole = int(scaled + Fraction(1, 2))
    if not decimals:
        return str(whole)
    text = str(whole).rjust(decimals + 1, "0")
    return f"{text[:-decimals]}.{text[-decimals:]}"


def _fits(table: tuple[int, int, int, int], figures: dict[str, str]) -> bool:
    """The brute-force oracle: does this table reproduce every figure within its rounding?"""
    values = _exact(*table)
    for name, text in figures.items():
        figure = reported(text, count=name in ("tp", "fp", "fn", "tn", "n", "support", "predicted"))
        value = values[name]
        if value is None:
            if not figure.low <= 0:  # 0/0, reported as 0
                return False
            continue
        if not figure.low <= value <= figure.high:
            return False
    return True


def _all_tables(n: int) -> list[tuple[int, int, int, int]]:
    return [
        (tp, fp, fn, n - tp - fp - fn)
        for tp in range(n + 1)
        for fp in range(n + 1 - tp)
        for fn in range(n + 1 - tp - fp)
    ]


SUFFICIENT = [
    ("precision", "recall", "support", "n"),
    ("f", "support", "predicted", "n"),
    ("precision", "recall", "n"),
    ("accuracy", "precision", "recall", "n"),
    ("specificity", "prevalence", "precision", "n"),
    ("recall", "predicted", "tn", "precision"),
]


@pytest.mark.slow
@pytest.mark.parametrize("which", range(len(SUFFICIENT)))
def test_exactly_the_brute_force_tables(which: int) -> None:
    rng = random.Random(100 + which)
    names = SUFFICIENT[which]
    for _ in range(12):
        n = rng.randint(5, 30)
        tables = _all_tables(n)
        truth = rng.choice(tables)
        exact = _exact(*truth)
        if any(exact[name] is None for name in names):
            continue
        decimals = rng.choice([1, 2, 3])
        figures = {
            name: (
                str(int(exact[name]))
                if name in ("tp", "fp", "fn", "tn", "n", "support", "predicted")
                else _rounded(exact[name], decimals)
            )
            for name in names
        }
        result = convert(limit=10**6, **figures)
        if result.status == "insufficient":  # e.g. recall 0 without n: fn can be anything
            assert "n" not in names and result.messages
            continue
        got = {(t.tp, t.fp, t.fn, t.tn) for t in result.tables}
        expected = {t for t in tables if _fits(t, figures)} if "n" in names else None
        assert truth in got, (figures, truth)
        assert result.count == len(got)
        if expected is not None:
            assert got == expected, (figures, got ^ expected)
        assert all(_fits(t, figures) for t in got)
        assert result.status == ("unique" if len(got) == 1 else "several")


@pytest.mark.slow
def test_round_trip_on_thousands_of_random_tables() -> None:
    rng = np.random.default_rng(7)
    for _ in range(2000):
        n = int(rng.integers(10, 120))
        tp, fp, fn = (int(v) for v in rng.multinomial(n, rng.dirichlet([1, 1, 1, 1]))[:3])
        tn = n - tp - fp - fn
        exact = _exact(tp, fp, fn, tn)
        if exact["precision"] is None or exact["recall"] is None:
            continue
        decimals = int(rng.integers(2, 5))
        figures = {
            "precision": _rounded(exact["precision"], decimals),
            "recall": _rounded(exact["recall"], decimals),
            "support": str(tp + fn),
            "n": str(n),
        }
        result = convert(limit=10**5, **figures)
        assert (tp, fp, fn, tn) in {(t.tp, t.fp, t.fn, t.tn) for t in result.tables}, figures


def test_worked_example_and_percentages() -> None:
    r = convert(precision="75%", recall="60%", support=50, n=100)
    assert r.status == "unique" and (r.tables[0].tp, r.tables[0].fp, r.tables[0].fn, r.tables[0].tn) == (30, 10, 20, 40)
    q = r.tables[0].quantities()
    assert q["f"] == pytest.approx(2 / 3) and q["accuracy"] == 0.7 and q["specificity"] == 0.8
    assert reported("75.0%").decimals == 3 and reported("0.6").decimals == 1 and reported(0.6).decimals == 1
    assert reported("0.6", 3).low == Fraction(5995, 10000)


def test_beta() -> None:
    # tp 30, fp 10, fn 20: F2 = 5·30 / (5·30 + 4·20 + 10) = 150/240
    r = convert(beta=2, f="0.625", support=50, predicted=40, n=100)
    assert [(t.tp, t.fp, t.fn) for t in r.tables] == [(30, 10, 20)]


def test_insufficient_figures_say_what_settles_them() -> None:
    r = convert(precision="0.75", recall="0.6")
    assert r.status == "insufficient" and "give a count" in r.messages[0]
    r = convert(precision="0.75", recall="0.6", support=50)
    assert r.status == "unique" and r.tables[0].tn is None
    assert any("tn is not determined: give n" in m for m in r.messages)
    r = convert(support=5, n=10)
    assert r.status == "several" and r.count == 6 * 6 and r.ranges["tp"] == (0, 5)


def test_inconsistent_figures_name_the_pair() -> None:
    r = convert(precision="0.9", support=10, predicted=3)
    assert r.status == "none"
    assert r.messages == ("precision = 0.9 and predicted = 3 disagree: no table has both",)
    r = convert(precision="0.5", recall="0.5", f="0.9", n=100)
    assert r.status == "none" and "the rest fit without f = 0.9" in r.messages[0]
    r = convert(support=20, n=10)
    assert r.status == "none" and "support = 20 and n = 10 disagree" in r.messages[0]


def test_bad_figures() -> None:
    with pytest.raises(OptionError, match="not a ratio between 0 and 1"):
        convert(precision="1.5", n=10)
    with pytest.raises(OptionError, match="not a count"):
        convert(support="2.5")
    with pytest.raises(OptionError, match="unknown quantity 'f1score'"):
        convert(f1score="0.5")
    assert set(QUANTITIES) == {
        "tp",
        "fp",
        "fn",
        "tn",
        "n",
        "support",
        "predicted",
        "precision",
        "recall",
        "f",
        "accuracy",
        "specificity",
        "prevalence",
    }


def test_per_label_figures_give_the_counts_and_the_averages() -> None:
    rng = np.random.default_rng(3)
    labels = ["A", "B", "C", "D"]
    gold = rng.choice(labels, 300, p=[0.4, 0.3, 0.2, 0.1])
    pred = np.where(rng.random(300) < 0.7, gold, rng.choice(labels, 300))
    truth = clfeval.score(gold, pred)
    rows = {
        lab: {
            "precision": f"{truth.per_label[lab].precision:.3f}",
            "recall": f"{truth.per_label[lab].recall:.3f}",
            "support": truth.per_label[lab].support,
        }
        for lab in labels
    }
    r = convert_labels(rows)
    assert r.n == 300 and r.combinations >= 1
    for lab in labels:
        found = {(t.tp, t.fp, t.fn) for t in r.labels[lab].tables}
        c = truth.per_label[lab]
        assert (c.tp, c.fp, c.fn) in found
    for name, measure in (("micro", "f"), ("macro", "f"), ("macro_fa", "f"), ("weighted", "recall")):
        low, high = r.averages[name][measure]
        assert low - 1e-12 <= truth.averages[name][measure] <= high + 1e-12


def test_cli_convert_binary_and_table(tmp_path: Path) -> None:
    out = run_cli(
        "convert", "--precision", "0.75", "--recall", "0.6", "--support", "50", "--n", "100", "--format", "json"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["schema"] == "clfeval.convert/1" and data["status"] == "unique" and data["count"] == 1
    assert {k: data["tables"][0][k] for k in ("tp", "fp", "fn", "tn")} == {"tp": 30, "fp": 10, "fn": 20, "tn": 40}
    assert data["given"]["recall"]["interval"] == [0.55, 0.65]
    text = run_cli("convert", "--precision", "0.9", "--support", "10", "--predicted", "3").stdout.decode()
    assert "no integer table fits" in text and "disagree" in text
    table = tmp_path / "report.md"
    table.write_text(
        "| class | precision | recall | f1-score | support |\n|---|---:|---:|---:|---:|\n"
        "| A | 0.80 | 0.67 | 0.73 | 6 |\n| B | 0.60 | 0.75 | 0.67 | 4 |\n"
        "| macro avg | 0.70 | 0.71 | 0.70 | 10 |\n"
    )
    data = json.loads(run_cli("convert", "--table", str(table), "--format", "json").stdout)
    assert data["n"] == 10 and data["labels"]["A"]["tables"][0]["tp"] == 4
    bad = run_cli("convert", "--precision", "high")
    assert bad.returncode == 2 and "'high' is not a number" in bad.stderr.decode()
    table.write_text("label,precision,recall\nA,0.8,x\n")
    bad = run_cli("convert", "--table", str(table))
    assert bad.returncode == 2 and f"{table}:2: the recall of 'A'" in bad.stderr.decode()
