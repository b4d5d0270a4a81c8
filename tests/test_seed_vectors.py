"""Every worked number of the seed documents (tests/data/seed_vectors.json), to the printed decimals."""

from __future__ import annotations

import math

import numpy as np
import pytest

import clfeval
from clfeval.count import LabelCounts
from clfeval.scoring import average_measures, per_label_measures
from tests.conftest import DATA

_METRIC = {"precision": "precision", "recall": "recall", "f1": "f"}


def close(actual: float, printed: float, decimals: int) -> bool:
    """``actual`` rounds to ``printed`` at ``decimals`` (half-way cases such as 0.6125 → 0.613 included)."""
    return abs(actual - printed) <= 0.5 * 10**-decimals + 1e-12


def _vectors(seed_vectors: dict, kind: str) -> list[dict]:
    return seed_vectors[kind]


def _ids(kind: str) -> list[str]:
    import json

    return [c["id"] for c in json.loads((DATA / "seed_vectors.json").read_text())[kind]]


@pytest.mark.parametrize("case_id", _ids("per_label_counts"))
def test_per_label_count_tables(seed_vectors: dict, case_id: str) -> None:
    case = next(c for c in seed_vectors["per_label_counts"] if c["id"] == case_id)
    lc = LabelCounts.from_arrays(tuple(case["labels"]), case["tp"], case["fp"], case["fn"])
    per = per_label_measures(lc)
    freqs = None
    if case.get("train_frequencies"):
        freqs = np.array([case["train_frequencies"][lab] for lab in case["labels"]])
    averages = average_measures(per, frequencies=freqs)
    d = case["decimals"]
    checked = 0
    for lab, values in case["expected"].get("per_label", {}).items():
        i = case["labels"].index(lab)
        for metric, printed in values.items():
            assert close(per.values[_METRIC[metric]][i], printed, d), (lab, metric)
            checked += 1
    for name, values in case["expected"]["averages"].items():
        for metric, printed in values.items():
            assert close(averages[name][_METRIC[metric]], printed, d), (name, metric, averages[name])
            checked += 1
    for lab, printed in case.get("test_frequencies", {}).items():
        assert close(lc.support[case["labels"].index(lab)] / lc.support.sum(), printed, d)
    assert checked >= 6


@pytest.mark.parametrize("case_id", _ids("confusion_matrices"))
def test_confusion_matrix_tables(seed_vectors: dict, case_id: str, tmp_path) -> None:
    case = next(c for c in seed_vectors["confusion_matrices"] if c["id"] == case_id)
    counts = np.array(case["counts"])
    gold_rows = counts.T if case["rows"] == "predicted" else counts
    result = clfeval.score(clfeval.ConfusionCounts(tuple(case["labels"]), gold_rows))
    # the same table through the matrix reader, printed the seed's way round
    path = tmp_path / "cm.csv"
    path.write_text(
        ","
        + ",".join(case["labels"])
        + "\n"
        + "".join(lab + "," + ",".join(map(str, row)) + "\n" for lab, row in zip(case["labels"], case["counts"]))
    )
    from_file = clfeval.score(clfeval.read_matrix(str(path), rows=case["rows"]))
    d = case["decimals"]
    for res in (result, from_file):
        for name, values in case["expected"].get("averages", {}).items():
            for metric, printed in values.items():
                assert close(res.averages[name][_METRIC[metric]], printed, d), (name, metric)
        for lab, values in case["expected"].get("per_label", {}).items():
            for metric, printed in values.items():
                assert close(getattr(res.per_label[lab], _METRIC.get(metric, metric)), printed, d), (lab, metric)


def test_sefidian_nine_instances(seed_vectors: dict) -> None:
    case = seed_vectors["instances"][0]
    result = clfeval.score(case["gold"], case["pred"])
    d = case["decimals"]
    for name, values in case["expected"]["averages"].items():
        for metric, printed in values.items():
            assert close(result.averages[name][_METRIC[metric]], printed, d), (name, metric)
    assert close(result.accuracy, case["expected"]["accuracy"], d)
    for lab, values in case["expected"]["per_label"].items():
        row = result.per_label[lab]
        for metric, printed in values.items():
            actual = getattr(row, _METRIC.get(metric, metric))
            assert close(actual, printed, d), (lab, metric)


def test_vanasch_multilabel_tables_6_and_7(seed_vectors: dict) -> None:
    case = next(c for c in seed_vectors["multilabel"] if c["id"] == "vanasch_table6_7")
    result = clfeval.score(case["gold"], case["pred"], multilabel=True)
    for lab, values in case["expected"]["per_label"].items():
        row = result.per_label[lab]
        for metric, printed in values.items():
            assert close(getattr(row, metric), printed, case["decimals"]), (lab, metric)
    split = case["expected"]["split_matrix"]
    matrix = result.confusion
    k = len(split["labels"])
    assert matrix.labels[:k] == tuple(split["labels"]) and matrix.labels[k] == "∅"
    np.testing.assert_allclose(matrix.gold_view[:k, :k], split["gold_row_view"])
    np.testing.assert_allclose(matrix.predicted_view[:k, :k], split["predicted_column_view"])
    np.testing.assert_allclose(matrix.gold_view.sum(axis=1)[:k], split["row_totals"])
    np.testing.assert_allclose(matrix.predicted_view.sum(axis=0)[:k], split["column_totals"])
    assert matrix.gold_view[k].sum() == 0 and matrix.gold_view[:, k].sum() == 0  # nothing went to ∅ here


def test_vanasch_double_prediction(seed_vectors: dict) -> None:
    case = next(c for c in seed_vectors["multilabel"] if c["id"] == "vanasch_double_prediction")
    kept = clfeval.score(case["gold"], case["pred"], multilabel=clfeval.MultiLabel(duplicates="keep")).per_label["A"]
    assert (kept.tp, kept.fp, kept.fn) == (1, 2, 0)
    collapsed = clfeval.score(
        case["gold"], case["pred"], multilabel=clfeval.MultiLabel(duplicates="collapse")
    ).per_label["A"]
    assert (collapsed.tp, collapsed.fp, collapsed.fn) == (1, 0, 0)


def test_frank_micro_identities() -> None:
    rng = np.random.default_rng(3)
    for k in (2, 3, 7):
        gold, pred = rng.integers(0, k, 500), rng.integers(0, k, 500)
        r = clfeval.score(gold, pred)
        micro = r.averages["micro"]
        assert micro["precision"] == pytest.approx(r.accuracy) == micro["recall"] == micro["f"]
        assert r.micro_fpr == pytest.approx((1 - r.accuracy) / (k - 1))


def test_vanasch_lfb_shift_of_one_false_positive() -> None:
    """Moving one fp from c4 to c1 in Table 3 changes lfb precision by +1/700 exactly (DESIGN §5, eq. 17)."""
    freqs = np.array([0.1, 0.2, 0.3, 0.4])
    before = average_measures(
        per_label_measures(LabelCounts.from_arrays(("c1", "c2", "c3", "c4"), [3, 1, 6, 6], [2, 7, 6, 9], [7, 9, 8, 0])),
        frequencies=freqs,
    )
    after = average_measures(
        per_label_measures(LabelCounts.from_arrays(("c1", "c2", "c3", "c4"), [3, 1, 6, 6], [3, 7, 6, 8], [7, 9, 8, 0])),
        frequencies=freqs,
    )
    assert after["lfb"]["precision"] - before["lfb"]["precision"] == pytest.approx(1 / 700, abs=1e-15)


def test_opitz_fa_at_least_af_on_random_tables() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        k = int(rng.integers(2, 6))
        cells = rng.integers(0, 30, (k, k))
        cells[0, 0] += 1
        r = clfeval.score(clfeval.ConfusionCounts(tuple(map(str, range(k))), cells))
        assert r.averages["macro_fa"]["f"] >= r.averages["macro"]["f"] - 1e-12
        assert not math.isnan(r.averages["macro_fa"]["f"])
