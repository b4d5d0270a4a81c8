"""Moving predictions: the closed-form costs (Van Asch eqs. 16–23) and clfeval finagle (NORMAL, CHANGED, UPPER)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

import clfeval
from clfeval.count import LabelCounts
from clfeval.count.confidence import ConfidenceCounts
from clfeval.errors import OptionError
from clfeval.scoring import average_measures, per_label_measures, precision_factor, precision_shift, recall_shift
from clfeval.scoring.finagle import calibrate, finagle_counts
from tests.conftest import run_cli

# ---------------------------------------------------------------- reference: recompute the average with fractions


def _average(values: list[Fraction], weights: dict[str, Fraction], labels: tuple[str, ...]) -> Fraction:
    return sum((weights[k] * v for k, v in zip(labels, values)), Fraction(0))


def _precisions(tp: list[int], fp: list[int]) -> list[Fraction]:
    return [Fraction(t, t + f) if t + f else Fraction(0) for t, f in zip(tp, fp)]


def _weights(labels: tuple[str, ...], average: str, freqs: dict[str, int]) -> dict[str, Fraction]:
    if average == "macro":
        return {k: Fraction(1, len(labels)) for k in labels}
    total = sum(freqs[k] for k in labels)
    return {k: Fraction(freqs[k], total) for k in labels}


def _random_counts(rng: np.random.Generator) -> tuple[LabelCounts, dict[str, int]]:
    k = int(rng.integers(2, 7))
    labels = tuple(f"c{i}" for i in range(k))
    tp, fp, fn = (rng.integers(0, 12, k) for _ in range(3))
    freqs = {lab: int(f) for lab, f in zip(labels, rng.integers(1, 50, k))}
    # per-label counts of no single-label table (Σ fp ≠ Σ fn): N large enough for each label's tp + fp + fn
    return LabelCounts.from_arrays(labels, tp, fp, fn, n_instances=int((tp + fp + fn).sum())), freqs


@pytest.mark.parametrize("average", ["macro", "lfb"])
@pytest.mark.parametrize("seed", range(25))
def test_precision_shift_equals_recomputed_precision_exactly(average: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    counts, freqs = _random_counts(rng)
    labels = counts.labels
    tp, fp = [int(v) for v in counts.tp], [int(v) for v in counts.fp]
    # a random redistribution of false positives: givers lose some, receivers gain them (eq. 18's chains included)
    moves = {k: 0 for k in labels}
    for _ in range(int(rng.integers(1, 4))):
        giver, receiver = rng.choice(len(labels), 2, replace=False)
        available = fp[giver] + moves[labels[giver]]
        if available:
            delta = int(rng.integers(1, available + 1))
            moves[labels[giver]] -= delta
            moves[labels[receiver]] += delta
    after = [f + moves[k] for k, f in zip(labels, fp)]
    w = _weights(labels, average, freqs)
    expected = _average(_precisions(tp, after), w, labels) - _average(_precisions(tp, fp), w, labels)
    assert precision_shift(counts, moves, average, freqs) == expected
    # the scorer agrees, in floats
    freq_array = np.array([freqs[k] for k in labels], dtype=float)
    before_f = average_measures(per_label_measures(counts), frequencies=freq_array)
    moved = LabelCounts.from_arrays(
        labels,
        tp,
        after,
        [int(v) for v in counts.fn],
        n_instances=int(counts.n_instances) + sum(max(m, 0) for m in moves.values()),
    )
    after_f = average_measures(per_label_measures(moved), frequencies=freq_array)
    assert after_f[average]["precision"] - before_f[average]["precision"] == pytest.approx(float(expected), abs=1e-12)


def test_eq17_sign_corrected_on_van_asch_table3() -> None:
    """One fp moves from c4 to c1: factor_c4(−1) + factor_c1(+1) = +1/700 (eq. 17 as printed gives another sign)."""
    c = LabelCounts.from_arrays(("c1", "c2", "c3", "c4"), [3, 1, 6, 6], [2, 7, 6, 9], [7, 9, 8, 0])
    f = {"c1": Fraction(1, 10), "c2": Fraction(2, 10), "c3": Fraction(3, 10), "c4": Fraction(4, 10)}
    assert precision_factor(6, 9, -1, f["c4"]) + precision_factor(3, 2, +1, f["c1"]) == Fraction(1, 700)
    assert precision_shift(c, {"c4": -1, "c1": 1}, "lfb", f) == Fraction(1, 700)
    printed = precision_factor(6, 9, 1, f["c4"]) + precision_factor(3, 2, 1, f["c1"])  # eq. 17 as printed
    assert printed != Fraction(1, 700)
    # macro (eq. 22): the same move, weight 1/C
    assert precision_shift(c, {"c4": -1, "c1": 1}) == Fraction(6, 4 * 15 * 14) - Fraction(3, 4 * 5 * 6)


@pytest.mark.parametrize("average", ["macro", "lfb"])
@pytest.mark.parametrize("seed", range(20))
def test_recall_shift_equals_recomputed_recall_exactly(average: str, seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    counts, freqs = _random_counts(rng)
    labels = counts.labels
    tp, fn = [int(v) for v in counts.tp], [int(v) for v in counts.fn]
    moves = {k: int(rng.integers(-t, f + 1)) for k, t, f in zip(labels, tp, fn) if t + f}
    w = _weights(labels, average, freqs)

    def recalls(tps: list[int]) -> list[Fraction]:
        return [Fraction(t, s) if s else Fraction(0) for t, s in zip(tps, [a + b for a, b in zip(tp, fn)])]

    after = [t + moves.get(k, 0) for k, t in zip(labels, tp)]
    expected = _average(recalls(after), w, labels) - _average(recalls(tp), w, labels)
    assert recall_shift(counts, moves, average, freqs) == expected


def test_eq20_with_test_frequencies_each_tp_is_worth_one_over_n() -> None:
    c = LabelCounts.from_arrays(("a", "b", "c"), [5, 2, 7], [1, 4, 2], [3, 3, 1])
    n = int(c.support.sum())
    test_freqs = {k: int(s) for k, s in zip(c.labels, c.support)}
    for label in c.labels:
        assert recall_shift(c, {label: 1}, "lfb", test_freqs) == Fraction(1, n)


def test_shift_errors() -> None:
    c = LabelCounts.from_arrays(("a", "b"), [3, 5], [1, 1], [1, 3])
    with pytest.raises(OptionError, match="add up to 0"):
        precision_shift(c, {"a": -1})
    with pytest.raises(OptionError, match="cannot give 2"):
        precision_shift(c, {"a": -2, "b": 2})
    with pytest.raises(OptionError, match="not in the label set"):
        precision_shift(c, {"z": -1, "a": 1})
    with pytest.raises(OptionError, match="cannot gain 4"):
        recall_shift(c, {"b": 4})
    with pytest.raises(OptionError, match="training frequencies"):
        recall_shift(c, {"a": 1}, "lfb")


# ---------------------------------------------------------------- finagle


def _tagger(seed: int = 0, n: int = 40_000, k: int = 30) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A POS-tagger-like system with calibrated confidences: P(correct | c) = c; errors spread over other tags."""
    rng = np.random.default_rng(seed)
    freq = 1 / np.arange(1, k + 1) ** 0.5
    freq /= freq.sum()
    tags = np.array([f"T{i:02d}" for i in range(k)])
    gold = rng.choice(k, n, p=freq)
    conf = np.round(rng.beta(5, 1.5, n), 3)
    right = rng.random(n) < conf
    pred = np.where(right, gold, (gold + rng.integers(1, k, n)) % k)
    train = rng.choice(k, 3 * n, p=freq)
    return tags[gold], tags[pred], conf, tags[train]


def test_changed_raises_macro_precision_without_more_correct_predictions() -> None:
    """Van Asch Table 8's pattern: CHANGED lifts macro precision (and F) while accuracy does not rise."""
    gold, pred, conf, train = _tagger()
    r = clfeval.finagle(gold, pred, conf, expected_accuracy=0.35, scoring=clfeval.Scoring(train=train))
    normal, changed, upper = (r.scenarios[s] for s in ("normal", "changed", "upper"))
    assert r.target == "T00" and r.target_source == "training"
    assert changed.averages["macro"]["precision"] > normal.averages["macro"]["precision"]
    assert changed.averages["macro"]["f"] > normal.averages["macro"]["f"]
    assert changed.accuracy <= normal.accuracy
    assert changed.averages["macro"]["recall"] < normal.averages["macro"]["recall"]
    assert upper.averages["macro"]["precision"] > 0.95 > changed.averages["macro"]["precision"]
    assert upper.accuracy >= normal.accuracy
    m = r.moved
    assert m["changed"] == m["lost"] + m["gained"] + m["still_wrong"] > 0
    n = normal.n_instances
    assert changed.accuracy * n - normal.accuracy * n == pytest.approx(m["gained"] - m["lost"])
    assert upper.accuracy * n - normal.accuracy * n == pytest.approx(m["upper_gained"])
    assert normal.labels == changed.labels == upper.labels


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.9])
def test_scenarios_equal_a_per_instance_reference(threshold: float) -> None:
    gold, pred, conf, _ = _tagger(seed=3, n=5_000, k=8)
    r = clfeval.finagle(gold, pred, conf, threshold=threshold, to="T03")
    labels = list(r.scenarios["normal"].confusion.labels)
    changed = [("T03" if c < threshold else p) for p, c in zip(pred, conf)]
    upper = [("T03" if p != g else p) for g, p in zip(gold, pred)]
    for name, predictions in (("normal", list(pred)), ("changed", changed), ("upper", upper)):
        got = r.scenarios[name].confusion
        expected = confusion_matrix(list(gold), predictions, labels=labels)
        assert np.array_equal(got.cells, expected), name
    assert r.moved["changed"] == sum(1 for p, c in zip(pred, conf) if c < threshold and p != "T03")


def test_distances_mirror_confidences() -> None:
    gold, pred, conf, _ = _tagger(seed=5, n=3_000, k=6)
    by_conf = clfeval.finagle(gold, pred, conf, threshold=0.4)
    by_dist = clfeval.finagle(gold, pred, -conf, threshold=-0.4, lower_is_more_confident=True)
    assert by_dist.changed_where == "distance > -0.4" and by_conf.changed_where == "confidence < 0.4"
    for s in ("normal", "changed", "upper"):
        assert np.array_equal(by_conf.scenarios[s].confusion.cells, by_dist.scenarios[s].confusion.cells)
    assert by_conf.moved == by_dist.moved
    calibrated = clfeval.finagle(gold, pred, conf, expected_accuracy=0.5)
    mirrored = clfeval.finagle(gold, pred, -conf, expected_accuracy=0.5, lower_is_more_confident=True)
    assert calibrated.moved == mirrored.moved


def test_calibration_is_monotone_and_the_rule_follows_it() -> None:
    gold, pred, conf, _ = _tagger(seed=8, n=20_000, k=10)
    counts = ConfidenceCounts.from_rows(gold, pred, conf)
    bins, row_bin = calibrate(counts)
    calibrated = np.array([b.calibrated for b in bins])
    assert np.all(np.diff(calibrated) >= 0)
    assert sum(b.n for b in bins) == 20_000 and sum(b.correct for b in bins) == int(np.sum(gold == pred))
    assert sum(b.calibrated * b.n for b in bins) == pytest.approx(sum(b.correct for b in bins))
    assert all(a.high <= b.low for a, b in itertools.pairwise(bins))  # ties never split across bins
    assert len(row_bin) == len(counts.counts)
    r = finagle_counts(counts, expected_accuracy=0.4)
    doubtful = [b for b in r.bins if b.high < r.threshold]
    assert doubtful and all(b.calibrated < 0.4 for b in doubtful)
    assert all(b.calibrated >= 0.4 for b in r.bins if b.low >= r.threshold)
    assert r.threshold in {b.low for b in r.bins}
    assert (
        r.moved["changed"]
        == sum(b.changed for b in r.bins)
        == sum(1 for p, c in zip(pred, conf) if c < r.threshold and p != r.target)
    )


def test_target_defaults_and_an_unseen_target() -> None:
    gold, pred, conf = ["a", "b", "b", "c"], ["a", "b", "c", "c"], [0.9, 0.8, 0.2, 0.9]
    assert clfeval.finagle(gold, pred, conf, threshold=0.5).target == "b"  # most frequent gold label
    assert (
        clfeval.finagle(gold, pred, conf, threshold=0.5, scoring=clfeval.Scoring(train=["c", "c", "a"])).target == "c"
    )
    r = clfeval.finagle(gold, pred, conf, threshold=0.5, to="UNK")
    plain = clfeval.score(gold, pred)
    assert r.scenarios["normal"].labels == plain.labels and "UNK" not in r.scenarios["changed"].labels
    assert r.scenarios["normal"].averages == plain.averages
    assert any("'UNK' is not in the label set" in w for w in r.scenarios["normal"].warnings)
    assert not any(
        "not in the label set" in w
        for w in clfeval.finagle(gold, pred, conf, threshold=0.5).scenarios["normal"].warnings
    )
    with pytest.raises(OptionError, match="not nan"):
        clfeval.finagle(gold, pred, conf, threshold=float("nan"))
    with pytest.raises(OptionError, match="either a threshold or an expected accuracy"):
        clfeval.finagle(gold, pred, conf)
    with pytest.raises(OptionError, match="between 0 and 1"):
        clfeval.finagle(gold, pred, conf, expected_accuracy=35)
    with pytest.raises(OptionError, match="not a finite number"):
        clfeval.finagle(gold, pred, [0.1, float("nan"), 0.3, 0.4], threshold=0.5)


def _timbl_file(path: Path, n: int = 4_000) -> tuple[list[str], list[str], list[float]]:
    """TiMBL +v di style: features, gold, predicted, distance to the nearest neighbour."""
    gold, pred, conf, _ = _tagger(seed=11, n=n, k=12)
    dist = np.round(-np.log(np.maximum(conf, 1e-3)), 4)
    path.write_text(
        "".join(f"w{i} x {g} {p} {d}\n" for i, (g, p, d) in enumerate(zip(gold, pred, dist))), encoding="utf-8"
    )
    return list(gold), list(pred), list(dist)


def test_cli_on_timbl_output_with_distances(tmp_path: Path) -> None:
    path = tmp_path / "tagger.out"
    gold, pred, dist = _timbl_file(path)
    train = tmp_path / "train.txt"
    train.write_text("T01\n" * 5 + "T00\n" * 3, encoding="utf-8")
    proc = run_cli(
        "finagle",
        str(path),
        "--expected-accuracy",
        "0.35",
        "--lower-is-more-confident",
        "--train",
        str(train),
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["schema"] == "clfeval.finagle/2"
    assert doc["target"] == {"label": "T01", "source": "training"}
    assert doc["rule"]["kind"] == "expected_accuracy" and doc["rule"]["changed_where"].startswith("distance > ")
    assert set(doc["scenarios"]) == {"normal", "changed", "upper"}
    assert doc["scenarios"]["normal"]["n_instances"] == len(gold) and "schema" not in doc["scenarios"]["normal"]
    api = clfeval.finagle(
        gold,
        pred,
        dist,
        expected_accuracy=0.35,
        lower_is_more_confident=True,
        scoring=clfeval.Scoring(train=["T01"] * 5 + ["T00"] * 3),
    )
    assert doc["moved"] == api.moved
    assert doc["scenarios"]["changed"]["averages"]["macro"]["precision"] == pytest.approx(
        api.scenarios["changed"].averages["macro"]["precision"]
    )
    text = run_cli("finagle", str(path), "--threshold", "1.0", "--lower-is-more-confident").stdout.decode()
    assert text.startswith("clfeval finagle — doubtful predictions changed to 'T00' (distance > 1)")
    for word in ("NORMAL", "CHANGED", "UPPER", "what moved", "calibration: accuracy by distance"):
        assert word in text
    # issue 30: notes one line per choice, within 100 columns; the full notes with --verbose
    assert max(len(line) for line in text.splitlines()[:-1]) <= 100 and "pooling adjacent violators" not in text
    verbose = run_cli(
        "finagle", str(path), "--threshold", "1.0", "--lower-is-more-confident", "--verbose"
    ).stdout.decode()
    assert "pooling adjacent violators" in " ".join(verbose.split()) and "micro: the measure on" in verbose


def test_cli_named_columns_and_parquet(tmp_path: Path) -> None:
    import polars as pl

    gold, pred, conf, _ = _tagger(seed=2, n=2_000, k=5)
    path = tmp_path / "run.parquet"
    pl.DataFrame({"conf": conf, "gold": gold, "pred": pred}).write_parquet(path)
    proc = run_cli(
        "finagle",
        str(path),
        "--gold-col",
        "gold",
        "--pred-col",
        "pred",
        "--conf-col",
        "conf",
        "--threshold",
        "0.5",
        "--to",
        "T02",
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["moved"] == clfeval.finagle(gold, pred, conf, threshold=0.5, to="T02").moved


def test_cli_bad_confidences_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("A A 0.9\nA B 0.2\nB B high\nB B 0.7\n", encoding="utf-8")
    proc = run_cli("finagle", str(path), "--threshold", "0.5")
    assert proc.returncode == 2 and proc.stderr.count(b"\n") == 1
    assert f"{path}:3: the confidence 'high' is not a finite number".encode() in proc.stderr
    nan = tmp_path / "nan.csv"
    nan.write_text("gold,pred,conf\nA,A,0.9\nA,B,nan\n", encoding="utf-8")
    proc = run_cli(
        "finagle", str(nan), "--gold-col", "gold", "--pred-col", "pred", "--conf-col", "conf", "--threshold", "0.5"
    )
    assert proc.returncode == 2 and f"{nan}:3: the confidence 'nan'".encode() in proc.stderr
    proc = run_cli("finagle", str(path))
    assert proc.returncode == 2 and b"--threshold" in proc.stderr and b"Traceback" not in proc.stderr


def test_bad_confidence_named_at_its_first_line_in_file_order(tmp_path: Path) -> None:
    """Counting groups rows in no particular order; the message still names the first bad line of the file."""
    path = tmp_path / "two_bad.txt"
    path.write_text("A A 0.9\nA B zzz\nB B 0.7\nB A aaa\n", encoding="utf-8")
    proc = run_cli("finagle", str(path), "--threshold", "0.5", "--lower-is-more-confident")
    assert proc.returncode == 2
    assert f"{path}:2: the distance 'zzz' is not a finite number".encode() in proc.stderr


def test_list_columns_and_numeric_labels(tmp_path: Path) -> None:
    lists = tmp_path / "lists.jsonl"
    lists.write_text('{"g": ["a", "b"], "p": "a", "c": 0.4}\n{"g": ["a"], "p": "b", "c": 0.9}\n', encoding="utf-8")
    proc = run_cli("finagle", str(lists), "--gold-col", "g", "--pred-col", "p", "--conf-col", "c", "--threshold", "1")
    assert proc.returncode == 2 and b"holds lists of labels: finagle scores one predicted label" in proc.stderr
    import polars as pl

    path = tmp_path / "ints.parquet"
    pl.DataFrame({"g": [1, 2, 2, 10, 10], "p": [1, 2, 10, 10, 1], "c": [0.9, 0.8, 0.1, 0.7, 0.2]}).write_parquet(path)
    r = clfeval.finagle(clfeval.read_confidences(str(path), gold_col="g", pred_col="p", conf_col="c"), threshold=0.5)
    assert r.target in {"2", "10"} and r.scenarios["normal"].labels == ("1", "2", "10")
    assert (
        r.moved
        == clfeval.finagle(
            ["1", "2", "2", "10", "10"],
            ["1", "2", "10", "10", "1"],
            [0.9, 0.8, 0.1, 0.7, 0.2],
            threshold=0.5,
            to=r.target,
        ).moved
    )


def test_arrays_of_different_lengths_are_an_input_error_as_in_score_and_cv() -> None:
    for call in (
        lambda: clfeval.finagle(["a", "b"], ["a"], [0.5, 0.5], threshold=0.5),
        lambda: clfeval.score(["a", "b"], ["a"]),
        lambda: clfeval.cv(["a", "b"], ["a", "b"], [1]),
    ):
        with pytest.raises(clfeval.InputError):
            call()
