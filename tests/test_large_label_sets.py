"""Large label sets: single-label counts are their non-zero cells, so nothing grows with K² (issue 20).

Oracles: a per-instance reference (Python dictionaries over the instances), scikit-learn's
``precision_recall_fscore_support`` at the same K, and the dense table where K is small.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.count.limits import MAX_DENSE_LABELS
from clfeval.errors import InputError
from clfeval.kinds.countfile import SPARSE_COUNTS_SCHEMA, counts_from_dict, counts_to_dict
from tests.conftest import run_cli


def _cli(*args: str) -> tuple[int, str, str]:
    done = run_cli(*args)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def _data(k: int, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.5, gold, rng.integers(0, k, n))
    return gold, pred


def test_twenty_thousand_labels_score_like_the_per_instance_reference() -> None:
    """More labels than a dense K×K table was allowed (16,384): every per-label count and the averages agree with a
    per-instance count, and with scikit-learn."""
    from sklearn.metrics import precision_recall_fscore_support

    gold, pred = _data(20_000, 60_000)
    result = clfeval.score(gold, pred)
    counts = result.counts
    assert isinstance(counts, clfeval.ConfusionCounts)
    pairs = Counter(zip(gold.tolist(), pred.tolist()))
    assert counts.n_cells == len(pairs) < 20_000**2 // 1000
    assert {(int(g), int(p)): c for g, p, c in counts.entries()} == dict(pairs)
    tp, support, predicted = Counter(), Counter(gold.tolist()), Counter(pred.tolist())
    for g, p in zip(gold.tolist(), pred.tolist()):
        tp[g] += g == p
    for lab in ("0", "7", "19999"):
        row = result.per_label[lab]
        assert (row.tp, row.support, row.predicted) == (tp[int(lab)], support[int(lab)], predicted[int(lab)])
    labels = sorted(set(gold.tolist()) | set(pred.tolist()))
    for average in ("macro", "weighted", "micro"):
        p, r, f, _ = precision_recall_fscore_support(gold, pred, labels=labels, average=average, zero_division=0)
        got = result.averages[average]
        assert (got["precision"], got["recall"], got["f"]) == pytest.approx((p, r, f), abs=1e-12)
    assert result.accuracy == pytest.approx(float(np.mean(gold == pred)), abs=1e-15)


def test_sparse_counts_equal_the_dense_table_and_merge_by_name() -> None:
    rng = np.random.default_rng(3)
    table = rng.integers(0, 3, (6, 6)) * (rng.random((6, 6)) < 0.4)
    labels = tuple("abcdef")
    dense = clfeval.ConfusionCounts(labels, table)
    assert dense.n_cells == int((table > 0).sum())
    np.testing.assert_array_equal(dense.cells, table)
    np.testing.assert_array_equal(dense.gold_totals, table.sum(axis=1))
    np.testing.assert_array_equal(dense.pred_totals, table.sum(axis=0))
    np.testing.assert_array_equal(dense.diagonal, np.diagonal(table))
    entries = clfeval.ConfusionCounts.from_entries(labels, [0, 0, 2, 0], [1, 1, 3, 1], [1, 2, 5, 0])
    assert entries.entries() == [("a", "b", 3), ("c", "d", 5)]  # repeats add up, zeros drop out
    other = clfeval.ConfusionCounts(("f", "z", "a"), [[1, 0, 2], [0, 4, 0], [0, 0, 1]])
    merged = dense + other
    assert merged.labels == (*labels, "z")
    expected = np.zeros((7, 7), dtype=np.int64)
    expected[:6, :6] = table
    for (g, p), c in {(5, 5): 1, (5, 0): 2, (6, 6): 4, (0, 0): 1}.items():
        expected[g, p] += c
    np.testing.assert_array_equal(merged.cells, expected)
    assert sum([dense, other]).entries() == merged.entries()
    with pytest.raises(InputError, match="positions must be whole numbers from 0 to 5"):
        clfeval.ConfusionCounts.from_entries(labels, [6], [0], [1])
    with pytest.raises(InputError, match="expected a whole number"):
        clfeval.ConfusionCounts.from_entries(labels, [0], [0], [1.5])


def test_a_large_confusion_count_file_holds_its_non_zero_cells(tmp_path: Path) -> None:
    gold, pred = _data(500, 5_000, seed=1)
    counts = clfeval.score(gold, pred).counts
    doc = counts_to_dict(counts)
    assert doc["schema"] == SPARSE_COUNTS_SCHEMA and "cells" not in doc
    assert len(doc["entries"]) == counts.n_cells
    back = counts_from_dict(json.loads(json.dumps(doc)))
    assert back.labels == counts.labels and back.entries() == counts.entries()
    small = counts_to_dict(clfeval.score(["a", "b"], ["b", "b"]).counts)
    assert small["schema"] == "clfeval.counts/1" and small["cells"] == [[0, 1], [0, 1]]  # what earlier versions read
    bad = dict(doc, entries=[[0, 0, 1], [0, 0, 2]])
    with pytest.raises(InputError, match=r"the cell \[0, 0\] more than once"):
        counts_from_dict(bad, "c.json")
    with pytest.raises(InputError, match=r"entries\[0\] must be \[gold position, predicted position, count\]"):
        counts_from_dict(dict(doc, entries=[[0, 500, 1]]), "c.json")
    with pytest.raises(InputError, match="n_instances is"):
        counts_from_dict(dict(doc, entries=doc["entries"][1:]), "c.json")
    path = tmp_path / "big.json"
    clfeval.save_counts(counts, str(path))
    assert clfeval.load_counts(str(path)).counts.entries() == counts.entries()


def test_json_writes_a_large_matrix_as_its_non_zero_cells_one_per_line(tmp_path: Path) -> None:
    gold, pred = _data(300, 3_000, seed=2)
    path = tmp_path / "run.tsv"
    path.write_text("".join(f"L{g}\tL{p}\n" for g, p in zip(gold, pred)))
    code, out, err = _cli("score", str(path), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    matrix = data["confusion_matrix"]
    assert data["schema"] == "clfeval.score/2" and matrix["layout"] == "sparse" and "counts" not in matrix
    expected = Counter(zip((f"L{g}" for g in gold), (f"L{p}" for p in pred)))
    labels = matrix["labels"]
    assert {(labels[i], labels[j]): c for i, j, c in matrix["cells"]} == dict(expected)
    cell_lines = [line for line in out.splitlines() if re.fullmatch(r"\s*\[\d+, \d+, \d+\],?", line)]
    assert len(cell_lines) == len(expected)  # one line per non-zero cell, not one per number or per zero
    code, out, _ = _cli("score", str(path), "--format", "json", "--no-matrix")
    assert code == 0 and json.loads(out)["confusion_matrix"] is None


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "latex", "json", "html"])
def test_no_matrix_is_honoured_by_every_format(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "run.tsv"
    path.write_text("zebra\tyak\nyak\tyak\nzebra\tzebra\nxeno\tyak\n")
    code, with_matrix, _ = _cli("score", str(path), "--format", fmt)
    code2, without, _ = _cli("score", str(path), "--format", fmt, "--no-matrix")
    assert code == code2 == 0
    marker = {"csv": "confusion_matrix,", "json": '"layout"', "html": 'data-key="matrix"'}.get(
        fmt, "confusion matrix (rows: gold"
    )
    assert marker in with_matrix.lower() and marker not in without.lower()


def test_text_shows_the_most_frequent_labels_and_confusions_of_a_large_matrix() -> None:
    gold, pred = _data(300, 6_000, seed=4)
    gold[:400], pred[:400] = 7, 8  # the largest confusion, on frequent labels
    result = clfeval.score(gold, pred)
    report = result.report()
    matrix = next(t for t in report.tables if t.key == "matrix")
    assert len(matrix.columns) == 1 + clfeval.report.matrix.MAX_SHOWN_LABELS == len(matrix.rows) + 1
    folded = len(result.confusion.labels) - (clfeval.report.matrix.MAX_SHOWN_LABELS - 1)
    assert matrix.rows[-1][0] == f"other ({folded} labels)" and f"the other {folded} added up" in matrix.title
    assert sum(sum(row[1:]) for row in matrix.rows) == len(gold)  # nothing lost in the folding
    support = Counter(gold.tolist())
    shown = [int(row[0]) for row in matrix.rows[:-1]]
    assert [support[s] for s in shown] == sorted((support[s] for s in shown), reverse=True)
    assert min(support[s] for s in shown) >= max(c for lab, c in support.items() if lab not in shown)
    confusions = next(t for t in report.tables if t.key == "confusions")
    assert confusions.rows[0][:3] == ("7", "8", Counter(zip(gold.tolist(), pred.tolist()))[(7, 8)])
    assert confusions.rows[0][3] == pytest.approx(confusions.rows[0][2] / support[7])
    text = result.render("text")
    # the 40 labels' matrix is split into parts of at most 100 columns, each repeating the row labels
    assert "most frequent confusions" in text and len(text.splitlines()) < 300 + 250
    assert max(map(len, text.splitlines())) <= 100
    small = clfeval.score(["b", "a", "a"], ["a", "a", "b"]).report()
    assert [t.key for t in small.tables].count("confusions") == 0
    assert next(t for t in small.tables if t.key == "matrix").rows == (("a", 1, 1), ("b", 1, 0))  # label order kept


def test_csv_writes_the_non_zero_cells() -> None:
    result = clfeval.score(["a", "b", "c", "c"], ["a", "c", "c", "c"])
    rows = [line for line in result.render("csv").splitlines() if line.startswith("confusion_matrix")]
    assert rows == ["confusion_matrix,a,a,1", "confusion_matrix,b,c,1", "confusion_matrix,c,c,2"]


def test_a_large_multi_label_matrix_is_written_sparse_in_json() -> None:
    rng = np.random.default_rng(5)
    labels = [f"t{i}" for i in range(120)]
    gold = [list(rng.choice(labels, 2, replace=False)) for _ in range(400)]
    pred = [[g[0], str(rng.choice(labels))] for g in gold]
    result = clfeval.score(gold, pred, multilabel=True)
    matrix = result.to_dict()["confusion_matrix"]
    assert matrix["layout"] == "sparse" and matrix["empty"] == "∅"
    view, predicted_view = result.confusion.gold_view, result.confusion.predicted_view
    expected = {(i, j) for i, j in zip(*np.nonzero((view != 0) | (predicted_view != 0)))}
    assert {(i, j) for i, j, _, _ in matrix["cells"]} == expected
    assert all(view[i, j] == a and predicted_view[i, j] == b for i, j, a, b in matrix["cells"])


def test_the_json_text_of_a_sparse_matrix_is_its_dict() -> None:
    gold, pred = _data(400, 4_000, seed=6)
    result = clfeval.score(gold, pred)
    data = result.to_dict()
    assert json.loads(result.to_json()) == data == json.loads(result.to_json(indent=None))
    assert len(result.to_json(indent=None).splitlines()) == 1
    assert json.loads(result.to_json(matrix=False))["confusion_matrix"] is None


def test_an_interval_method_says_up_front_when_it_will_take_long(capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval.cli.score import _say_cost
    from clfeval.infer.intervals import cost_note

    assert cost_note("bootstrap-bca", 921_286, 10_000, 1_000) is None  # resamples × (pairs + labels): not flagged
    assert cost_note("bootstrap", 921_286, 10_000, 1_000) is None
    assert cost_note("delta", 921_286, 100_000) is None  # pairs + labels: never flagged
    note = cost_note("bootstrap", 921_286, 10_000, 10_000)
    assert note is not None and "10,000 times (one per resample), each over 10,000 labels" in note
    assert "grows with resamples × (pairs + labels)" in note
    rng = np.random.default_rng(7)
    k = 40_000
    keys = np.unique(rng.integers(0, k * k, 130_000))
    labels = [f"l{i}" for i in range(k)]
    ones = np.ones(len(keys), int)
    counted = clfeval.Counted(clfeval.ConfusionCounts.from_entries(labels, keys // k, keys % k, ones))
    _say_cost(clfeval.CI("delta"), counted)
    _say_cost(clfeval.CI("bootstrap-bca", resamples=1_000), counted)
    assert capsys.readouterr().err == ""
    _say_cost(clfeval.CI("bootstrap-bca", resamples=100_000), counted)
    assert capsys.readouterr().err.startswith("clfeval: note: bootstrap-bca evaluates every score 100,000 times")


@pytest.mark.parametrize("test", ["ar", "bootstrap"])
def test_comparisons_over_many_labels_keep_the_swaps_sparse(monkeypatch: pytest.MonkeyPatch, test: str) -> None:
    """The swap matrix as its non-zeros gives exactly the dense one's p-values and intervals (same seed); a
    comparison by blocks that would need a huge table says so instead of running out of memory."""
    from clfeval.infer import arrangement

    rng = np.random.default_rng(8)
    gold = rng.integers(0, 60, 3_000)
    a = np.where(rng.random(3_000) < 0.6, gold, rng.integers(0, 60, 3_000))
    b = np.where(rng.random(3_000) < 0.5, gold, rng.integers(0, 60, 3_000))
    metrics = ["macro.f1", "macro_fa.f1", "accuracy", "kappa_linear", "per_label.7.recall"]

    def run() -> dict:
        result = clfeval.compare(  # weighted κ under the labels' numerical order (ordinal=True)
            gold, {"a": a, "b": b}, metrics=metrics, test=clfeval.Test(test, rounds=300, seed=3), ordinal=True
        )
        return result.to_dict()["pairs"]

    dense = run()
    monkeypatch.setattr(arrangement, "_DENSE_SWAPS", 0)
    assert run() == dense
    sentences = [i // 5 for i in range(3_000)]
    with pytest.raises(clfeval.OptionError, match="compares by blocks only below"):
        clfeval.compare(gold, {"a": a, "b": b}, metrics="macro.f1", blocks=sentences)


def test_blocks_whose_sums_would_not_fit_are_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    from clfeval.infer import units

    rng = np.random.default_rng(9)
    gold = rng.integers(0, 30, 600)
    pred = np.where(rng.random(600) < 0.6, gold, rng.integers(0, 30, 600))
    sentences = [i // 6 for i in range(600)]
    assert clfeval.score(gold, pred, ci="bootstrap", blocks=sentences).intervals is not None
    monkeypatch.setattr(units, "_MAX_UNIT_FLOATS", 1_000)
    for ci in ("bootstrap", "delta"):
        with pytest.raises(clfeval.OptionError, match=r"100 kinds × 124 sums would take .* GiB"):
            clfeval.score(gold, pred, ci=ci, blocks=sentences)


def test_the_delta_method_evaluates_the_scores_a_fixed_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """20,000 labels and about 45,000 distinct pairs: the delta method evaluates the scores on a number of rows that
    does not grow with the pairs (the type-by-type reference would take 4 per pair), and its per-label variances are
    the multinomial delta method's on each label's 2×2 table: Var(P̂) = P(1 − P)/(N·q), q the share predicted λ."""
    from clfeval.scoring.statistics import ScoreFunction

    gold, pred = _data(20_000, 60_000, seed=4)
    result = clfeval.score([f"l{x}" for x in gold], [f"l{x}" for x in pred])
    f = ScoreFunction.of(result)
    rows: list[int] = []
    for name in ("from_sums", "separated"):
        original = getattr(ScoreFunction, name)

        def counted(self: ScoreFunction, sums: np.ndarray, _original=original) -> object:
            rows.append(len(sums))
            return _original(self, sums)

        monkeypatch.setattr(ScoreFunction, name, counted)
    variances = clfeval.infer.delta.delta_variances(f)
    assert f.cells.n_types > 40_000 and sum(rows) < 40
    n = result.n_instances
    checked = [lab for lab in result.labels if result.per_label[lab].predicted >= 4][::1500]
    assert len(checked) >= 5
    for label in checked:
        p, q = result.per_label[label].precision, result.per_label[label].predicted / n
        assert variances[f.index(("per_label", label, "precision"))] == pytest.approx(p * (1 - p) / (n * q), rel=1e-8)
    interval = clfeval.with_intervals(result, "delta").intervals
    assert interval is not None and interval.get(("averages", "macro", "f")) is not None
    # BCa's jackknife: one evaluation with every tn − 1, the touched labels side by side, then the combines
    rows.clear()
    second, _ = clfeval.infer.bootstrap.label_jackknife_moments(f)
    assert sum(rows) == 1 and np.isfinite(second[f.index(("averages", "macro", "f"))])


def test_json_stays_valid_when_a_label_holds_the_entry_separator() -> None:
    """Objects of scalars are written by the C encoder and split at ', "' into one entry per line; a label (a key)
    or a reason (a string) that itself ends in ', ' must not be split (it made a raw newline inside a JSON string:
    invalid JSON)."""
    gold = ["a, ", "b", 'c, "d', "b", "a, ", "e", "b"]
    pred = ["a, ", "b", "b", 'c, "d', "b", "a, ", "a, "]
    result = clfeval.score(gold, pred, ci="delta")
    parsed = json.loads(result.to_json())
    assert set(parsed["per_label"]) == {"a, ", "b", 'c, "d', "e"}
    assert parsed["averages"]["lfb"]["weights"]["a, "] == pytest.approx(2 / 7)
    assert any(pointer.startswith("/per_label/e/") for pointer in parsed["ci"]["not_estimable"])
    assert json.loads(result.to_json(indent=None)) == parsed
    # the reasons are keyed by JSON Pointer, each label escaped (RFC 6901: ~ as ~0, / as ~1)
    slashed = clfeval.score(["x/y~z", "b", "b"], ["b", "b", "b"], ci="delta")  # x/y~z never predicted
    from clfeval.scoring.scores import json_pointer

    expected = {json_pointer(k, "f1"): v for k, v in slashed.intervals.not_estimable.items()}
    assert json.loads(slashed.to_json())["ci"]["not_estimable"] == expected
    assert "/per_label/x~1y~0z/precision_ci" in expected


def test_multi_label_counts_over_twenty_thousand_labels_score_like_scikit_learn() -> None:
    """Multi-label counts over more labels than a dense (pairs × labels) table or a (K+1)² split-count matrix may
    hold: per-label counts, every average and the split-count matrix come from each pair's occurrences. Oracles:
    scikit-learn on a sparse indicator matrix, and a per-instance count."""
    from scipy.sparse import csr_matrix
    from sklearn.metrics import multilabel_confusion_matrix, precision_recall_fscore_support

    rng = np.random.default_rng(20)
    k, n = 40_000, 12_000
    gold = [sorted({f"t{i}" for i in rng.integers(0, k, rng.integers(1, 4))}) for _ in range(n)]
    pred = [sorted({g[0], *(f"t{i}" for i in rng.integers(0, k, rng.integers(0, 3)))}) for g in gold]
    result = clfeval.score(gold, pred, multilabel=True, ci=clfeval.CI("bootstrap", resamples=20, seed=3))
    labels = list(result.labels)
    assert len(labels) > MAX_DENSE_LABELS  # the most a dense table over the labels was allowed
    where = {lab: i for i, lab in enumerate(labels)}

    def indicator(sets: list[list[str]]) -> csr_matrix:
        cols = [where[lab] for s in sets for lab in s]
        rows = [i for i, s in enumerate(sets) for _ in s]
        return csr_matrix((np.ones(len(cols), dtype=np.int64), (rows, cols)), shape=(n, len(labels)))

    y_true, y_pred = indicator(gold), indicator(pred)
    tables = multilabel_confusion_matrix(y_true, y_pred)
    lc = result.counts.label_counts(labels)
    assert (lc.tp.tolist(), lc.fp.tolist(), lc.fn.tolist(), lc.tn.tolist()) == (
        tables[:, 1, 1].tolist(),
        tables[:, 0, 1].tolist(),
        tables[:, 1, 0].tolist(),
        tables[:, 0, 0].tolist(),
    )
    for average in ("macro", "micro", "weighted", "samples"):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0)
        got = result.averages[average]
        assert (got["precision"], got["recall"], got["f"]) == pytest.approx((p, r, f), abs=1e-12), average
    matrix = result.confusion
    assert isinstance(matrix, clfeval.SplitMatrix) and matrix.labels[-1] == "∅"
    support = Counter(lab for s in gold for lab in s)
    predicted = Counter(lab for s in pred for lab in s)
    rows = matrix.gold_totals
    cols = np.bincount(matrix.pred, weights=matrix.predicted_counts, minlength=len(matrix.labels))
    assert [rows[where[lab]] for lab in labels] == pytest.approx([support[lab] for lab in labels])
    assert [cols[where[lab]] for lab in labels] == pytest.approx([predicted[lab] for lab in labels])
    data = result.to_dict()
    assert data["confusion_matrix"]["layout"] == "sparse" and len(data["confusion_matrix"]["cells"]) == len(matrix.gold)
    assert result.intervals is not None and "other (" in result.render("text")


def test_occurrences_equal_the_dense_multiplicity_tables() -> None:
    """A pair's occurrences are the non-zero columns of its rows in the dense gold and predicted multiplicity
    tables over the label set (duplicates kept, labels outside the set left out, empty sets)."""
    from clfeval.count.labelsets import occurrences_of

    rng = np.random.default_rng(8)
    names = [f"x{i}" for i in range(9)]
    pairs = [
        (tuple(sorted(rng.choice(names, rng.integers(0, 4)))), tuple(sorted(rng.choice(names, rng.integers(0, 4)))))
        for _ in range(60)
    ]
    label_set = names[:6]  # x6..x8 occur but are left out
    occ = occurrences_of(pairs, label_set)
    dense_g = np.zeros((len(pairs), len(label_set)), dtype=np.int64)
    dense_p = np.zeros_like(dense_g)
    for row, (g, p) in enumerate(pairs):
        for lab in g:
            if lab in label_set:
                dense_g[row, label_set.index(lab)] += 1
        for lab in p:
            if lab in label_set:
                dense_p[row, label_set.index(lab)] += 1
    r, c = np.nonzero((dense_g > 0) | (dense_p > 0))
    assert (occ.row.tolist(), occ.label.tolist()) == (r.tolist(), c.tolist())
    assert occ.gold.tolist() == dense_g[r, c].tolist() and occ.pred.tolist() == dense_p[r, c].tolist()
    assert occ.labels_per_row().tolist() == ((dense_g > 0) | (dense_p > 0)).sum(axis=1).tolist()
    empty = occurrences_of(pairs, [])
    assert len(empty.row) == 0 and empty.labels_per_row().tolist() == [0] * len(pairs)
    outside = sum(lab not in label_set for g, p in pairs for lab in (*g, *p))
    assert occ.left_out == outside > 0 and empty.left_out == sum(len(g) + len(p) for g, p in pairs)


def test_a_split_count_matrix_over_too_few_labels_says_which_label_is_missing() -> None:
    counts = clfeval.LabelSetCounts({(("a", "b"), ("c",)): 2, (("a",), ()): 1})
    with pytest.raises(clfeval.OptionError, match="needs every label that occurs: 'c' is not given"):
        counts.split_matrix(["a", "b"])
    matrix = counts.split_matrix(["a", "b", "c"])
    cells = dict(zip(zip(matrix.gold.tolist(), matrix.pred.tolist()), zip(matrix.gold_counts, matrix.predicted_counts)))
    assert cells == {(0, 2): (2.0, 1.0), (1, 2): (2.0, 1.0), (0, 3): (1.0, 1.0)}  # c's 2 split over a and b; a to ∅
