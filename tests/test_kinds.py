"""The registry of kinds: every kind declares what the tasks ask of its counts, and a new kind plugs in from outside.

The proof of the design is a kind registered here, in this test file alone: instances with whole-number weights
(a row (gold, predicted, weight) counts ``weight`` times). With no change under ``src/`` it gets scores, delta and
bootstrap intervals, ``compare`` (randomization, the bootstrap, the sign test), cross-validation and count files.
The oracles are clfeval itself on the same data written out instance by instance: each weighted instance repeated
``weight`` times gives the same point scores, and, as a block of ``weight`` identical instances, the same
delta-method variance, the same exact randomization test and the same sign test.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

import clfeval
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import MultiLabel
from clfeval.errors import InputError
from clfeval.kinds import KINDS, Kind, Row, kind_of, register_kind, unregister_kind
from clfeval.scoring.cells import CellTypes

SRC = Path(__file__).parents[1] / "src" / "clfeval"


# -- the toy kind: instances with whole-number weights ----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WeightedCounts:
    """How often each (gold, predicted, weight) row occurred; an instance of weight w stands for w instances."""

    rows: Mapping[tuple[str, str, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", {k: v for k, v in sorted(self.rows.items()) if v})

    @property
    def n_instances(self) -> int:
        return sum(self.rows.values())

    def __add__(self, other: WeightedCounts) -> WeightedCounts:
        return WeightedCounts(Counter(self.rows) + Counter(other.rows))


class Weighted(Kind):
    name: ClassVar[str] = "weighted"
    title: ClassVar[str] = "weighted instances"
    counts_type: ClassVar[type] = WeightedCounts
    document: ClassVar[str | None] = "weighted"
    family: ClassVar[str | None] = "single-label"
    joint_extra: ClassVar[int] = 1  # a row of joint counts ends with the instance's weight

    def rows(self, counts: WeightedCounts) -> tuple[Sequence[Row], np.ndarray]:
        return list(counts.rows), np.array(list(counts.rows.values()), dtype=np.int64)

    def from_rows(self, rows: Mapping[Row, int], labelsets: MultiLabel | None = None) -> WeightedCounts:
        return WeightedCounts(dict(rows))

    def cells_of_rows(
        self, rows: Sequence[Row], label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> CellTypes:
        single = CellTypes.single_label([r[0] for r in rows], [r[1] for r in rows], label_set, table)
        return single.scaled(np.array([r[2] for r in rows], dtype=np.float64))

    def matrix(self, counts: WeightedCounts, label_set: Sequence[str], table: Sequence[str]) -> ConfusionCounts:
        index = {lab: i for i, lab in enumerate(table)}
        cells = [(index[g], index[p], w * c) for (g, p, w), c in counts.rows.items()]
        return ConfusionCounts.from_entries(table, *zip(*cells)) if cells else ConfusionCounts.empty(table)

    def system_row(self, joint_row: Row, column: int) -> Row:
        return (joint_row[0], joint_row[column], joint_row[-1])

    def to_document(self, counts: WeightedCounts) -> dict[str, Any]:
        return {
            "kind": "weighted",
            "n_instances": counts.n_instances,
            "rows": [[*r, c] for r, c in counts.rows.items()],
        }

    def from_document(self, doc: Mapping[str, Any], source: str) -> WeightedCounts:
        rows: Counter[tuple[str, str, int]] = Counter()
        for i, item in enumerate(doc["rows"]):
            if not (isinstance(item, list) and len(item) == 4 and isinstance(item[2], int) and item[2] > 0):
                raise InputError(f"rows[{i}] must be [gold, predicted, weight ≥ 1, count]", source)
            rows[(item[0], item[1], item[2])] += item[3]
        return WeightedCounts(rows)


@pytest.fixture
def weighted() -> Iterator[Kind]:
    kind = register_kind(Weighted())
    yield kind
    unregister_kind(kind.name)


def _data(seed: int, n: int = 120, k: int = 4) -> tuple[list[str], list[str], list[str], list[int]]:
    """Gold, two systems' predictions and a weight (1–3) per instance."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.8, a, rng.integers(0, k, n))
    names = np.array([f"L{i}" for i in range(k)])
    return names[gold].tolist(), names[a].tolist(), names[b].tolist(), rng.integers(1, 4, n).tolist()


def _weighted(gold: list[str], pred: list[str], weights: list[int]) -> WeightedCounts:
    return WeightedCounts(Counter(zip(gold, pred, weights)))


def _repeated(values: list[Any], weights: list[int]) -> list[Any]:
    return [v for v, w in zip(values, weights) for _ in range(w)]


def _blocks(weights: list[int]) -> list[int]:
    """Each weighted instance as one block of its repeated instances."""
    return [i for i, w in enumerate(weights) for _ in range(w)]


# -- the toy kind gets everything -------------------------------------------------------------------------------------


def test_a_kind_registered_outside_src_is_scored_like_its_instances_repeated(weighted: Kind) -> None:
    gold, pred, _, weights = _data(1)
    counts = _weighted(gold, pred, weights)
    assert kind_of(counts) is weighted
    got = clfeval.score(counts)
    expected = clfeval.score(_repeated(gold, weights), _repeated(pred, weights))
    assert got.task == "weighted" and got.family == "single-label"
    for key in ("labels", "per_label", "averages", "confusion_matrix"):
        assert got.to_dict()[key] == expected.to_dict()[key], key
    for name in ("accuracy", "mcc", "kappa", "kappa_quadratic", "balanced_accuracy", "hamming_loss"):
        assert got.overall[name] == pytest.approx(expected.overall[name], rel=1e-12), name
    assert "weighted instances" not in str(got) and "clfeval score — weighted" in str(got)  # its own report


def test_delta_intervals_of_the_toy_kind_are_the_block_delta_of_its_instances(weighted: Kind) -> None:
    """A weighted instance is one independent unit: the delta method over its types equals the cluster-robust delta
    method of the repeated instances, each weighted instance a block."""
    gold, pred, _, weights = _data(2, n=150)
    got = clfeval.score(_weighted(gold, pred, weights), ci="delta")
    expected = clfeval.score(_repeated(gold, weights), _repeated(pred, weights), blocks=_blocks(weights), ci="delta")
    assert got.intervals is not None and expected.intervals is not None
    compared = 0
    for key, bounds in expected.intervals.bounds.items():
        if key[-1].endswith("_wilson"):
            continue  # Wilson intervals are of counts, not of units
        assert got.intervals.get(key) == pytest.approx(bounds, rel=1e-6, abs=1e-9), key
        compared += 1
    assert compared > 40


def test_bootstrap_intervals_of_the_toy_kind_are_seeded_and_hold_their_estimates(weighted: Kind) -> None:
    gold, pred, _, weights = _data(3)
    counts = _weighted(gold, pred, weights)
    ci = clfeval.CI("bootstrap-bca", resamples=400, seed=5)
    first, again = clfeval.score(counts, ci=ci), clfeval.score(counts, ci=ci)
    assert first.to_dict() == again.to_dict()
    assert first.intervals is not None and first.intervals.seed == 5
    low, high = first.intervals.get(("averages", "macro", "f"))  # type: ignore[misc]
    assert low < first.averages["macro"]["f"] < high
    wider = clfeval.score(_repeated(gold, weights), _repeated(pred, weights), ci=ci).intervals
    assert wider is not None  # the repeated instances treated as independent: a narrower interval, wrongly
    w_low, w_high = wider.get(("averages", "macro", "f"))  # type: ignore[misc]
    assert (high - low) > (w_high - w_low)


def test_the_toy_kind_is_compared_as_its_instances_in_blocks(weighted: Kind) -> None:
    """Randomization swaps a weighted instance whole, as randomization over blocks swaps a block: with few instances
    that differ both enumerate every arrangement, and give the same exact p-values; the sign test counts units."""
    gold, a, b, weights = _data(4, n=40)
    joint = clfeval.JointCounts(("A", "B"), Counter(zip(gold, a, b, weights)), kind="weighted")
    metrics = ["macro.f1", "accuracy", "mcc"]
    got = clfeval.compare(joint, metrics=metrics, test=clfeval.Test("ar", seed=1))
    expected = clfeval.compare(
        _repeated(gold, weights),
        {"A": _repeated(a, weights), "B": _repeated(b, weights)},
        metrics=metrics,
        blocks=_blocks(weights),
        test=clfeval.Test("ar", seed=1),
    )
    for metric in metrics:
        g, e = got.pair("A", "B", metric), expected.pair("A", "B", metric)
        assert g.exact and e.exact
        assert g.difference == pytest.approx(e.difference, rel=1e-12)
        assert g.p_value == pytest.approx(e.p_value, rel=1e-12)
    sign = clfeval.compare(joint, metrics="accuracy", test="sign").pair("A", "B", "accuracy").sign
    assert sign is not None and sign.unit == "instances" and sign.a_better + sign.b_better + sign.ties == len(gold)
    boot = clfeval.compare(joint, metrics="macro.f1", test=clfeval.Test("bootstrap", rounds=300, seed=2))
    assert boot.pair("A", "B").ci is not None and boot.results["A"].task == "weighted"


def test_the_toy_kind_has_count_files_and_cross_validation(weighted: Kind, tmp_path: Path) -> None:
    gold, pred, other, weights = _data(5)
    half = len(gold) // 2
    parts = [_weighted(gold[:half], pred[:half], weights[:half]), _weighted(gold[half:], pred[half:], weights[half:])]
    paths = []
    for i, part in enumerate(parts):
        paths.append(tmp_path / f"part{i}.json")
        clfeval.save_counts(part, str(paths[-1]))
    assert json.loads(paths[0].read_text())["kind"] == "weighted"
    loaded = clfeval.load_counts(str(tmp_path / "part*.json"))
    whole = clfeval.score(_weighted(gold, pred, weights))
    assert clfeval.score(loaded).to_dict()["averages"] == whole.to_dict()["averages"]
    cv = clfeval.cv(parts)
    assert cv.pooled.to_dict()["averages"] == whole.to_dict()["averages"] and len(cv.folds) == 2
    joint = clfeval.JointCounts(("A", "B"), Counter(zip(gold, pred, other, weights)), kind="weighted")
    clfeval.save_counts(joint, str(tmp_path / "joint.json"))
    again = clfeval.load_counts(str(tmp_path / "joint.json")).counts
    assert isinstance(again, clfeval.JointCounts) and again.kind == "weighted" and again.rows == joint.rows
    with pytest.raises(InputError, match="cannot be added"):
        clfeval.save_counts(clfeval.count_labels(["a"], ["a"]), str(tmp_path / "part9.json"))
        clfeval.load_counts(str(tmp_path / "part*.json"))


def test_a_kind_is_refused_where_its_tasks_do_not_take_it(weighted: Kind) -> None:
    counts = _weighted(["a"], ["a"], [2])
    with pytest.raises(clfeval.OptionError, match="finagle needs each prediction's confidence"):
        clfeval.finagle(counts, threshold=0.5)
    joint = clfeval.JointCounts(("A", "B"), {("a", "a", "b", 2): 1}, kind="weighted")
    with pytest.raises(InputError, match="holds joint counts"):
        clfeval.score(joint)
    with pytest.raises(InputError, match="every row must hold the gold value and 2 predictions, then 1 more"):
        clfeval.JointCounts(("A", "B"), {("a", "a", "b"): 1}, kind="weighted")


# -- the built-in kinds -----------------------------------------------------------------------------------------------


def test_the_built_in_kinds_are_registered_and_declare_what_the_tasks_ask() -> None:
    assert list(KINDS) == [
        "single-label",
        "multi-label",
        "joint",
        "confidences",
        "spans",
        "scored",
        "weighted-single-label",
        "weighted-multi-label",
    ]
    single = clfeval.count_labels(["a", "b"], ["a", "a"])
    sets = clfeval.count_label_sets([["a"], ["a", "b"]], [["a"], ["b"]])
    joint = clfeval.count_systems(["a", "b"], {"X": ["a", "a"], "Y": ["b", "b"]})
    assert [kind_of(c) for c in (single, sets, joint)] == [KINDS["single-label"], KINDS["multi-label"], KINDS["joint"]]
    assert kind_of(["a"]) is None and kind_of(clfeval.LabelCounts.from_arrays(("a",), [1], [0], [0])) is None
    assert KINDS["multi-label"].option_names == ("duplicates", "empty") and KINDS["single-label"].option_names == ()
    assert {k: KINDS[k].document for k in KINDS} == {
        "single-label": "confusion",
        "multi-label": "labelsets",
        "joint": "joint",
        "confidences": None,
        "spans": "spans",
        "scored": "scored",
        "weighted-single-label": "weighted-confusion",
        "weighted-multi-label": "weighted-labelsets",
    }
    with pytest.raises(clfeval.OptionError, match="unknown kind of counts 'nope'; the kinds are 'single-label'"):
        KINDS["nope"]
    with pytest.raises(clfeval.OptionError, match="are already the counts of the kind 'single-label'"):

        class Again(Weighted):
            name = "again"
            counts_type = ConfusionCounts

        register_kind(Again())


def _isinstance_of_counts(path: Path) -> list[int]:
    """The lines of ``path`` that ask ``isinstance`` of a count class."""
    counts = {"ConfusionCounts", "LabelSetCounts", "JointCounts", "ConfidenceCounts", "PairedCounts", "_COUNTS"}
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance" and len(node.args) == 2:
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if names & counts:
                lines.append(node.lineno)
    return lines


def test_no_module_but_the_registry_asks_what_kind_counts_are() -> None:
    """Only the count classes' own ``+`` (refusing another type, as Python's protocol has it) ask ``isinstance`` of a
    count class; every other module asks the registry (:func:`clfeval.kinds.kind_of`, ``KINDS[task]``)."""
    found = {
        str(path.relative_to(SRC)): lines
        for path in sorted(SRC.rglob("*.py"))
        if (lines := _isinstance_of_counts(path)) and path.parent.name != "kinds"
    }
    assert set(found) <= {"count/confusion.py", "count/labelsets.py", "count/joint.py", "count/paired.py"}, found
    assert sum(map(len, found.values())) <= 5, found


@dataclass(frozen=True, eq=False)
class UnshownCounts(WeightedCounts):
    """Weighted counts of the kind without a matrix."""

    def __add__(self, other: WeightedCounts) -> UnshownCounts:
        return UnshownCounts(Counter(self.rows) + Counter(other.rows))


class Unshown(Weighted):
    """The toy kind without a confusion-matrix view."""

    name: ClassVar[str] = "unshown"
    document: ClassVar[str | None] = "unshown"
    counts_type: ClassVar[type] = UnshownCounts

    def matrix(self, counts: WeightedCounts, label_set: Sequence[str], table: Sequence[str]) -> None:
        return None


def test_a_kind_without_a_matrix_renders_every_format_and_lists_only_its_tables(tmp_path: Path) -> None:
    register_kind(Unshown())
    try:
        gold, pred, _, weights = _data(6)
        r = clfeval.score(UnshownCounts(Counter(zip(gold, pred, weights))), ci="delta")
        assert r.confusion is None and r.to_dict()["confusion_matrix"] is None
        for fmt in ("text", "markdown", "csv", "latex", "html", "json"):
            assert r.render(fmt)
        assert "matrix" not in r.table_names() and "per_label" in r.table_names()
        assert r.flat()["macro/f1"] == r.averages["macro"]["f"]
    finally:
        unregister_kind("unshown")


def test_joint_count_files_say_their_systems_kind_and_refuse_a_wrong_one(weighted: Kind, tmp_path: Path) -> None:
    joint = clfeval.JointCounts(("A", "B"), {("a", "a", "b", 2): 3, ("b", "b", "b", 1): 1}, kind="weighted")
    path = tmp_path / "joint.json"
    clfeval.save_counts(joint, str(path))
    doc = json.loads(path.read_text())
    assert doc["system_kind"] == "weighted" and doc["multilabel"] is False
    for patch, message in (
        ({"system_kind": []}, "system_kind must name a kind of one system's counts"),
        ({"system_kind": "joint"}, "system_kind must name a kind of one system's counts"),
        ({"multilabel": True, "system_kind": "single-label"}, "counts single labels, but multilabel is true"),
        ({"system_kind": "multi-label"}, "counts label sets, but multilabel is false"),
        ({"rows": [["a", "a", "b", [[1]], 3]]}, r"rows\[0\] holds a value that is not a label"),
    ):
        path.write_text(json.dumps({**doc, **patch}))
        with pytest.raises(InputError, match=message):
            clfeval.load_counts(str(path))
