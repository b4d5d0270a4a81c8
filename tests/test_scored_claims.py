"""The claims docs/scored.md makes about scored predictions against scikit-learn (issue 37, point 10), checked on many
random cases: the Brier score's default is scikit-learn's ``brier_score_loss`` (binary (p − y)², multi-class the sum
over classes) in Python, on the command line and for multi-label pairs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics

import clfeval
from clfeval.count.scored import ScoreCounts
from clfeval.scoring import probability
from clfeval.scoring.scored import Conventions


def _binary(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.25), 0, 1), int(rng.integers(0, 3)))  # rounded: ties
    return y, s


def _multiclass(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities with ties: small whole numbers normalised per row (equal numbers give equal floats)."""
    y = rng.integers(0, k, n)
    raw = rng.integers(0, 4, (n, k)).astype(np.float64) + 3.0 * np.eye(k)[y] * rng.integers(0, 2, (n, 1)) + 0.5
    return y, raw / raw.sum(axis=1, keepdims=True)


# --- Brier ------------------------------------------------------------------------------------------------------


def test_the_default_brier_is_scikit_learns_binary_and_multi_class_on_many_random_cases() -> None:
    rng = np.random.default_rng(370)
    for case in range(80):
        y, s = _binary(rng, int(rng.integers(4, 300)))
        expected = metrics.brier_score_loss(y, s)
        assert clfeval.score(y, scores=s, labels=[0, 1])["brier"] == pytest.approx(expected, abs=1e-12), case
        assert probability.brier(ScoreCounts.of_arrays(y, s, ["0", "1"])) == pytest.approx(expected, abs=1e-12)
        # the same binary data as a column per class: scikit-learn halves it too (two columns)
        two = np.column_stack([1 - s, s])
        assert metrics.brier_score_loss(y, two, labels=[0, 1]) == pytest.approx(expected, abs=1e-12)
        assert clfeval.score(y, scores=two, labels=[0, 1])["brier"] == pytest.approx(expected, abs=1e-12), case
        k = int(rng.integers(3, 7))
        ym, p = _multiclass(rng, int(rng.integers(5, 300)), k)
        expected = metrics.brier_score_loss(ym, p, labels=list(range(k)))
        assert clfeval.score(ym, scores=p, labels=list(range(k)))["brier"] == pytest.approx(expected, abs=1e-12), case


def test_the_other_brier_normalisations_are_what_their_names_say() -> None:
    rng = np.random.default_rng(371)
    y, s = _binary(rng, 200)
    c = ScoreCounts.of_arrays(y, s, ["0", "1"])
    binary = metrics.brier_score_loss(y, s)
    assert probability.brier(c, "sum") == pytest.approx(2 * binary)  # both classes' squared errors
    assert probability.brier(c, "half") == pytest.approx(binary)
    assert probability.brier(c, "mean") == pytest.approx(binary)
    assert probability.brier(c, "sum") == pytest.approx(metrics.brier_score_loss(y, s, scale_by_half=False))
    ym, p = _multiclass(rng, 200, 4)
    cm = ScoreCounts.of_arrays(ym, p, ["0", "1", "2", "3"])
    total = metrics.brier_score_loss(ym, p, labels=[0, 1, 2, 3])
    assert probability.brier(cm, "sklearn") == pytest.approx(total) and probability.brier(cm, "sum") == total
    assert probability.brier(cm, "half") == pytest.approx(total / 2)
    assert probability.brier(cm, "mean") == pytest.approx(total / 4)


def test_the_brier_option_help_and_note_say_what_the_number_is() -> None:
    from clfeval.cli.options import choices

    assert probability.DEFAULT_BRIER == "sklearn" and Conventions().brier == "sklearn"
    text = choices(probability.BRIER_NORMALISATIONS)
    assert "brier_score_loss" in text and "two classes (p − y)²" in text and "2 (p − y)²" in text
    rng = np.random.default_rng(372)
    y, s = _binary(rng, 100)
    r = clfeval.score(y, scores=s, labels=[0, 1])
    note = next(n for n in r.report().notes if n.startswith("Brier"))
    assert note.startswith("Brier: sklearn") and "here, 2 classes: (1/N) Σ (p − y)²" in note
    assert "brier:sklearn" in r.signature and r.to_dict()["conventions"]["brier"] == "sklearn"
    ym, p = _multiclass(rng, 100, 3)
    note = next(n for n in clfeval.score(ym, scores=p, labels=[0, 1, 2]).report().notes if n.startswith("Brier"))
    assert "here, 3 classes: (1/N) Σ_i Σ_k (p_ik − y_ik)²" in note
    summed = clfeval.score(y, scores=s, labels=[0, 1], conventions=Conventions(brier="sum"))
    assert summed["brier"] == pytest.approx(2 * r["brier"]) and "brier:sum" in summed.signature


def test_the_command_line_brier_is_scikit_learns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval.cli import main

    rng = np.random.default_rng(373)
    for case in range(6):
        y, s = _binary(rng, int(rng.integers(20, 200)))
        (tmp_path / "b.csv").write_text(
            "gold,p\n" + "".join(f"{g},{v!r}\n" for g, v in zip(y.tolist(), s.tolist())), encoding="utf-8"
        )
        args = ["score", str(tmp_path / "b.csv"), "--gold-col", "gold", "--scores", "p", "--format", "json"]
        assert main(args) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["scores"]["brier"] == pytest.approx(metrics.brier_score_loss(y, s), abs=1e-12), case
        assert doc["conventions"]["brier"] == "sklearn"
        assert main([*args, "--brier", "sum"]) == 0
        assert json.loads(capsys.readouterr().out)["scores"]["brier"] == pytest.approx(
            2 * metrics.brier_score_loss(y, s), abs=1e-12
        )
        k = int(rng.integers(3, 6))
        ym, p = _multiclass(rng, int(rng.integers(20, 200)), k)
        header = "gold," + ",".join(f"p_{c}" for c in range(k))
        rows = "".join(f"{g}," + ",".join(repr(float(v)) for v in row) + "\n" for g, row in zip(ym.tolist(), p))
        (tmp_path / "m.csv").write_text(header + "\n" + rows, encoding="utf-8")
        assert (
            main(["score", str(tmp_path / "m.csv"), "--gold-col", "gold", "--scores", "p_*", "--format", "json"]) == 0
        )
        doc = json.loads(capsys.readouterr().out)
        expected = metrics.brier_score_loss(ym, p, labels=list(range(k)))
        assert doc["scores"]["brier"] == pytest.approx(expected, abs=1e-12), case
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default sklearn)" in text and "brier_score_loss" in text


def test_multi_label_brier_is_scikit_learns_per_label_averaged() -> None:
    rng = np.random.default_rng(374)
    for case in range(20):
        n, k = int(rng.integers(20, 200)), int(rng.integers(2, 6))
        y = (rng.random((n, k)) < 0.4).astype(int)
        y[0], y[1] = 1, 0
        p = np.clip(np.round(rng.random((n, k)) * 0.7 + 0.3 * y, 1), 0, 1)
        labels = [f"L{j}" for j in range(k)]
        expected = np.mean([metrics.brier_score_loss(y[:, j], p[:, j]) for j in range(k)])
        r = clfeval.score(y, scores=p, labels=labels, multilabel=True)
        assert r["brier"] == pytest.approx(expected, abs=1e-12), case
        summed = clfeval.score(y, scores=p, labels=labels, multilabel=True, conventions=Conventions(brier="sum"))
        assert summed["brier"] == pytest.approx(2 * expected, abs=1e-12)  # --brier is honoured, not dropped
        assert "brier:pairs-half" in r.signature and "brier:pairs-sum" in summed.signature
