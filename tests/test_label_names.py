"""One rule names labels (clfeval.count.labelnames), and every entry point calls it: the same gold and predicted values,
in any container, get the same label names and the same scores from clfeval.score, compare, cv, the Accumulator (in
one batch, in two at every split point, and as two merged workers), the scikit-learn scorer, clfeval.hf and count
files."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
import clfeval.hf
from clfeval import Accumulator
from clfeval.count.labelnames import BOOL, FLOAT, INT, declared_names, is_missing, joint_kinds, label_name, label_names
from clfeval.errors import InputError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

BIG = 2**63 + 5  # above int64: uint64 only, and never through float64

#: gold, pred and the label names every entry point must give them (in the report's order)
VALUES: dict[str, tuple[list[Any], list[Any], tuple[str, ...]]] = {
    "ints": ([0, 2, 1, 1, 0, 2, 2], [0, 1, 1, 2, 0, 2, 1], ("0", "1", "2")),
    "floats": ([0.5, 1.0, 2.0, 0.5, 1.0, 2.0], [0.5, 2.0, 2.0, 1.0, 1.0, 0.5], ("0.5", "1", "2")),
    "float ids": ([0.0, 1.0, 2.0, 1.0, 0.0], [0.0, 2.0, 2.0, 1.0, 1.0], ("0", "1", "2")),
    "bools": ([True, False, True, True, False], [True, True, False, True, False], ("False", "True")),
    "strings": (["cat", "dog", "1.0", "dog", "cat"], ["cat", "cat", "1.0", "dog", "1.0"], ("1.0", "cat", "dog")),
    "mixed": ([1, 2.0, 1, 2, 3], [1, 2, 3, 3, 2.0], ("1", "2", "3")),
    "int and fraction": ([1, 2.5, 1, 1], [1, 1, 2.5, 1], ("1", "2.5")),
    "uint64": ([BIG, 3, BIG, 3], [3, 3, BIG, BIG], ("3", str(BIG))),
}


def _pandas(dtype: str | None) -> Callable[[list[Any]], Any]:
    return lambda values: pd.Series(values, dtype=dtype)


def _numpy(values: list[Any]) -> np.ndarray:
    return np.array(values, dtype=np.uint64) if BIG in values else np.array(values)


#: container → (make it from a list, the value sets it can hold as they are)
CONTAINERS: dict[str, tuple[Callable[[list[Any]], Any], set[str]]] = {
    "list": (list, set(VALUES)),
    "numpy": (_numpy, set(VALUES)),
    "pandas object": (_pandas("object"), set(VALUES)),
    "pandas Int64": (_pandas("Int64"), {"ints", "float ids", "mixed"}),
    "pandas boolean": (_pandas("boolean"), {"bools"}),
    "pandas categorical": (_pandas("category"), set(VALUES)),
    "polars": (lambda values: pl.Series(values, strict=False), set(VALUES)),
}

CASES = [(c, v) for c, (_, holds) in CONTAINERS.items() for v in VALUES if v in holds]
OVERALL = ("accuracy", "hamming_loss", "micro_fpr", "balanced_accuracy", "mcc", "kappa", "kappa_linear")


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to NaN, nested dicts and lists alike."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def _scores(result: clfeval.Scores) -> dict[str, Any]:
    """What must be equal between entry points: the labels in order, every average, every label's row, overall."""
    d = result.to_dict()
    return {
        "labels": tuple(d["labels"]),
        "averages": d["averages"],
        "per_label": d["per_label"],
        "overall": {k: d[k] for k in OVERALL},
    }


def _agree(expected: dict[str, Any], result: clfeval.Scores, where: str) -> None:
    got = _scores(result)
    assert got["labels"] == expected["labels"], where
    for part in ("averages", "per_label", "overall"):
        assert _same(got[part], expected[part]), f"{where}: {part}"


def _accumulated(*batches: tuple[Any, Any]) -> Accumulator:
    acc = Accumulator()
    for g, p in batches:
        acc.update(g, p)
    return acc


def _cut(values: Any, at: int) -> tuple[Any, Any]:
    """The first ``at`` values and the rest, in the same container."""
    if isinstance(values, list):
        return values[:at], values[at:]
    if isinstance(values, np.ndarray):
        return values[:at], values[at:]
    if isinstance(values, pd.Series):
        return values.iloc[:at], values.iloc[at:]
    return values[:at], values[at:]  # polars


@pytest.mark.parametrize(("container", "kind"), CASES, ids=[f"{c}-{v}" for c, v in CASES])
def test_every_entry_point_names_the_same_values_alike(container: str, kind: str, tmp_path: Path) -> None:
    make = CONTAINERS[container][0]
    gold_values, pred_values, names = VALUES[kind]
    gold, pred = make(gold_values), make(pred_values)
    n = len(gold_values)
    reference = clfeval.score(gold, pred)
    assert reference.labels == names, (container, kind)
    expected = _scores(reference)
    # the same values in a plain Python list: the container does not matter
    _agree(expected, clfeval.score(list(gold_values), list(pred_values)), "list")

    compared = clfeval.compare(gold, {"A": pred, "B": gold}, metrics="macro.f1", test=clfeval.Test(rounds=20, seed=1))
    _agree(expected, compared.results["A"], "compare")
    folds = [i % 2 for i in range(n)]
    _agree(expected, clfeval.cv(gold, pred, folds).pooled, "cv pooled")

    whole = _accumulated((gold, pred))
    _agree(expected, whole.score(), "accumulator, one batch")
    for at in range(1, n):
        (g1, g2), (p1, p2) = _cut(gold, at), _cut(pred, at)
        _agree(expected, _accumulated((g1, p1), (g2, p2)).score(), f"accumulator, two batches cut at {at}")
        merged = _accumulated((g1, p1)) + _accumulated((g2, p2))
        _agree(expected, merged.score(), f"two accumulators cut at {at}, merged")
        _agree(expected, (_accumulated((g2, p2)) + _accumulated((g1, p1))).score(), f"merged the other way at {at}")

    whole.save(tmp_path / "counts.json")
    _agree(expected, clfeval.score(clfeval.load_counts(str(tmp_path / "counts.json"))), "count file")
    _agree(expected, Accumulator.load(tmp_path / "counts.json").score(), "count file, loaded accumulator")


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")  # scikit-learn's, on uint64
@pytest.mark.parametrize(("container", "kind"), CASES, ids=[f"{c}-{v}" for c, v in CASES])
def test_the_sklearn_scorer_and_hf_name_them_alike(container: str, kind: str) -> None:
    """A real estimator (1-nearest neighbour, predicting ``pred``) whose ``classes_`` are the labels, scikit-learn's
    own reading of ``y`` (a list of 1 and 2.0 is floats to it), and clfeval.hf for integer class ids."""
    pytest.importorskip("sklearn")
    from sklearn.neighbors import KNeighborsClassifier

    from clfeval.sklearn import scorer

    make = CONTAINERS[container][0]
    gold_values, pred_values, names = VALUES[kind]
    gold, pred = make(gold_values), make(pred_values)
    n = len(gold_values)
    expected = _scores(clfeval.score(gold, pred))
    per_label = [f"per_label.{name}.f1" for name in names]
    X = np.arange(2 * n, dtype=np.float64).reshape(-1, 1)
    try:
        fitted = KNeighborsClassifier(n_neighbors=1).fit(X, make(pred_values + gold_values))  # every label a class
    except ValueError:  # scikit-learn refuses fractions and object columns of mixed types as classes
        fitted = None
    if fitted is None:  # the scorer, given them as classes_, does not
        classes = np.unique(np.asarray(pred_values + gold_values, dtype=object))
        _agree(expected, scorer("macro.f1").scores(gold, pred, classes=classes), "scikit-learn scorer, classes")
        return
    predicted = fitted.predict(X[:n])  # the classes as scikit-learn holds them (a boolean Series: floats 0., 1.)
    result = scorer("macro.f1").scores(gold, predicted, classes=fitted.classes_)
    _agree(_scores(clfeval.score(gold, predicted)), result, "scikit-learn scorer")
    if fitted.classes_.dtype.kind != "b" and kind == "bools":  # True beside the number 1.0: the label 1
        assert result.labels == ("0", "1")
        renamed, named = result.to_dict()["averages"], expected["averages"]
        for averages in (renamed, named):
            averages["lfb"]["weights"] = list(averages["lfb"]["weights"].values())  # keyed by label
        assert _same(renamed, named)
        return
    assert [label_name(c) for c in fitted.classes_.tolist()] == list(names)
    _agree(expected, result, "scikit-learn scorer")
    assert scorer("macro.f1")(fitted, X[:n], gold) == expected["averages"]["macro"]["f1"]
    assert [scorer(m)(fitted, X[:n], gold) for m in per_label] == [expected["per_label"][x]["f1"] for x in names]

    ids = np.asarray(gold_values)
    if ids.dtype.kind in "iuf" and set(ids.tolist()) == set(range(len(names))):  # class ids 0 … K−1
        out = clfeval.hf.compute(
            predictions=np.asarray(pred_values), references=ids, labels=list(range(len(names))), metrics=per_label
        )
        assert out == {m: expected["per_label"][x]["f1"] for m, x in zip(per_label, names)}
        flat = clfeval.hf.compute(predictions=np.asarray(pred_values), references=ids, labels=list(range(len(names))))
        assert (
            flat["macro/f1"] == expected["averages"]["macro"]["f1"]
            and flat["accuracy"] == expected["overall"]["accuracy"]
        )


# -- the rule itself -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (1, "1"),
        (1.0, "1"),
        (np.float32(1.0), "1"),
        (np.uint64(1), "1"),
        (np.int8(-3), "-3"),
        (np.uint64(BIG), str(BIG)),
        (2.5, "2.5"),
        (np.float32(0.1), repr(float(np.float32(0.1)))),
        (1e20, "1e+20"),
        (float(2**53), str(2**53)),
        (float(2**60), repr(float(2**60))),
        (True, "True"),
        (np.bool_(False), "False"),
        ("1.0", "1.0"),
        ("True", "True"),
    ],
)
def test_a_value_alone_is_named_by_its_value(value: Any, name: str) -> None:
    assert label_name(value) == name
    assert clfeval.score([value], [value]).labels == (name,)


def test_a_boolean_beside_an_equal_number_is_that_number_in_every_entry_point_and_split() -> None:
    for gold, pred, names in [
        ([True, 1], [True, 1], ("1",)),
        ([True, 2], [True, 2], ("2", "True")),  # True equals no number here
        ([False, 1.0, True], [0, 1, 1], ("0", "1")),
        ([1e20, 10**20, 1.5], [1e20, 1e20, 1.5], ("1.5", "100000000000000000000")),  # beside the integer 10**20
        ([1e20, 1.5], [1e20, 1.5], ("1.5", "1e+20")),
    ]:
        assert clfeval.score(gold, pred).labels == names
        compared = clfeval.compare(gold, {"A": pred, "B": gold}, test=clfeval.Test(rounds=10, seed=1))
        assert compared.results["A"].labels == names
        for at in range(len(gold) + 1):
            acc = _accumulated((gold[:at], pred[:at]), (gold[at:], pred[at:]))
            assert acc.score().labels == names, (gold, at)
            merged = _accumulated((gold[:at], pred[:at])) + _accumulated((gold[at:], pred[at:]))
            assert merged.score().labels == names, (gold, at)
    assert label_names([True, 2.0, 1], joint=True) == ["1", "2", "1"]
    assert joint_kinds([True], [[True, 1, 1.0]]) == [BOOL | INT | FLOAT]


def test_a_saved_boolean_label_becomes_the_number_beside_an_equal_number(tmp_path: Path) -> None:
    """The kinds a label occurred as survive a count file (options.number_labels), so a loaded accumulator fed 1 after
    True names the label 1, as one fed both would."""
    acc = _accumulated(([True, False], [True, True]))
    acc.save(tmp_path / "flags.json")
    back = Accumulator.load(tmp_path / "flags.json")
    assert back.labels == ("False", "True")
    back.update([1], [1])
    assert back.labels == ("False", "1")  # False met no 0: still False
    assert back.score().labels == ("1", "False") == _accumulated(([True, False, 1], [True, True, 1])).score().labels


def test_declared_numbers_name_boolean_data_as_numbers() -> None:
    """Declared labels are named by the same rule, jointly with the data: declared 0 and 1 over boolean data are the
    labels 0 and 1 (a boolean beside an equal number)."""
    gold, pred = np.array([True, False, True]), np.array([True, True, False])
    acc = Accumulator(labels=[0, 1])
    acc.update(gold, pred)
    assert acc.labels == ("0", "1") and acc.score().labels == ("0", "1")
    assert clfeval.count_labels(gold, pred, labels=[0, 1]).labels == ("0", "1")
    assert set(clfeval.count_labels(gold, pred).labels) == {"False", "True"}
    floats = Accumulator(labels=[0.0, 1.0])
    floats.update(np.array([0, 1]), np.array([1, 1]))
    assert floats.labels == ("0", "1")
    assert declared_names([0.0, 1.0, 2.5, "x"], ()) == ["0", "1", "2.5", "x"]
    # where only names are left (counts), a declared number finds the label that spells an equal number
    counts = clfeval.count_labels(gold, pred)
    assert clfeval.score(counts, scoring=clfeval.Scoring(labels=[0, 1])).labels == ("False", "True")


def test_the_sklearn_scorer_names_declared_numbers_and_float_classes_by_value() -> None:
    pytest.importorskip("sklearn")
    from clfeval.sklearn import cv, scorer

    flags = np.array([True, False, True, True])
    predicted = np.array([True, True, False, True])
    assert scorer("macro.f1", labels=[0, 1]).scores(flags, predicted).labels == ("0", "1")
    # cross_val_predict's output scored fold by fold: each fold named with the whole data (True beside 1 in fold 1)
    folded = cv([True, True, 1, 2], [True, 2, 1, 2], [0, 0, 1, 1])
    assert folded.pooled.labels == ("1", "2") and all(f.labels == ("1", "2") for f in folded.folds)
    classes = np.array([0.0, 1.0])  # an estimator fitted on a pandas Int64 y
    assert scorer("macro.f1").scores(np.array([0, 1, 1]), np.array([0.0, 1.0, 0.0]), classes=classes).labels == (
        "0",
        "1",
    )


def test_a_number_and_a_string_that_print_alike_are_an_error_everywhere() -> None:
    for gold, pred in [(["1", 1], ["1", 1]), ([1.0, "1"], [1.0, 1.0]), ([True, "True"], [True, True])]:
        with pytest.raises(InputError, match="have the same name"):
            clfeval.score(gold, pred)
        with pytest.raises(InputError, match="have the same name"):
            _accumulated((gold, pred))
        with pytest.raises(InputError, match="have the same name"):
            _accumulated((gold[:1], pred[:1]), (gold[1:], pred[1:]))
        with pytest.raises(InputError, match="have the same name"):
            _accumulated((gold[:1], pred[:1])) + _accumulated((gold[1:], pred[1:]))
    assert clfeval.score(["1.0", 1], ["1.0", 1]).labels == ("1", "1.0")  # strings are never parsed


def test_missing_values_are_refused_where_they_are() -> None:
    for value in (None, float("nan"), pd.NA, pd.NaT, np.datetime64("NaT")):
        assert is_missing(value)
        with pytest.raises(InputError, match=r"gold\[1\]: is .*: a missing label"):
            clfeval.score(["a", value], ["a", "a"])
        with pytest.raises(InputError, match=r"update 1: gold\[1\]: is .*: a missing label"):
            _accumulated((["a", value], ["a", "a"]))
    for value in ("x", 0, 0.0, False, [None], np.array([np.nan])):
        assert not is_missing(value)
    with pytest.raises(InputError, match=r"gold\[1\]: is <NA>: a missing label"):
        clfeval.score(pd.Series([True, None], dtype="boolean"), [True, True])


def test_multilabel_numbers_are_named_by_the_rule_too() -> None:
    r = clfeval.score([[1, 2.0], [True]], [[1.0], [2, 1]], multilabel=True)
    assert r.labels == ("1", "2")


def test_score_compare_and_cv_name_data_jointly_with_declared_labels() -> None:
    gold, pred = np.array([True, False, True]), np.array([True, True, False])
    declared = clfeval.Scoring(labels=[0, 1])
    assert clfeval.score(gold, pred, scoring=declared).labels == ("0", "1")
    compared = clfeval.compare(gold, {"A": pred, "B": gold}, scoring=declared, test=clfeval.Test(rounds=10, seed=1))
    assert compared.results["A"].labels == ("0", "1")
    assert clfeval.cv(gold, pred, [0, 1, 1], scoring=declared).pooled.labels == ("0", "1")
    assert clfeval.score(gold, pred, scoring=declared, blocks=[0, 0, 1]).labels == ("0", "1")
    # folds are named jointly with the whole data: True is 1 in the fold that holds no number too
    folded = clfeval.cv([True, 1, True, 2], [True, 1, 2, 2], [0, 1, 0, 1])
    assert folded.pooled.labels == ("1", "2") and all(f.labels == ("1", "2") for f in folded.folds)


def test_training_labels_in_memory_find_the_datas_names() -> None:
    """Training labels named by the rule (``1``) are counted under the data's name of an equal number (``1.0`` read
    from a file), as declared labels are: the lfb weights and the train label set are the data's."""
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "out.txt"
    path.write_text("1.0 1.0\n2.0 1.0\n2.0 2.0\n3.0 2.0\n")
    r = clfeval.score(clfeval.read(str(path)), scoring=clfeval.Scoring(train=[1.0, 1.0, 1.0, 2.0, 3.0]))
    assert r.labels == ("1.0", "2.0", "3.0") and r.lfb_frequencies == {"1.0": 0.6, "2.0": 0.2, "3.0": 0.2}
    assert r.averages["lfb"]["f"] == pytest.approx(0.6 * 2 / 3 + 0.2 * 0.5)


def test_finagle_names_labels_as_score_does() -> None:
    gold, pred = [1.0, 2.0, 2.0, 1.0, 3.0], [1.0, 2.0, 1.0, 1.0, 2.0]
    r = clfeval.finagle(gold, pred, [0.9, 0.2, 0.8, 0.4, 0.3], threshold=0.5, scoring=clfeval.Scoring(train=[1.0, 2.0]))
    normal = r.scenarios["normal"]
    assert normal.labels == clfeval.score(gold, pred).labels == ("1", "2", "3")
    assert (
        normal.to_dict()["averages"]
        == clfeval.score(gold, pred, scoring=clfeval.Scoring(train=[1.0, 2.0])).to_dict()["averages"]
    )


def test_multi_label_folds_are_named_with_the_whole_data() -> None:
    gold, pred = [[True], [True], [1], [1, 2]], [[True], [2], [1], [1]]
    whole = clfeval.score(gold, pred, multilabel=True)
    cv = clfeval.cv(gold, pred, [0, 0, 1, 1], multilabel=True)
    assert cv.pooled.labels == whole.labels == ("1", "2")
    assert cv.pooled.to_dict()["averages"] == whole.to_dict()["averages"]
