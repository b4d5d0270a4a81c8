"""Labels and label sets with sample weights: rows (gold, predicted, weight) with their number of instances.

An instance of weight w adds w to every count a measure reads (scikit-learn's ``sample_weight``): the cell types of
the unweighted kind, each scaled by its row's weight (:meth:`~clfeval.scoring.cells.CellTypes.scaled`). Resampling
stays resampling of instances: the bootstrap draws the rows' instance counts and reads Σ m*·w, randomization swaps an
instance's two predictions with its weight, and the delta method's multinomial variance over the rows is the
sandwich form Cov(S) = Σ_u m_u w_u² M_uᵀM_u − S Sᵀ/N. McNemar's and the sign test count instances, which weights
do not, and Wilson's intervals are of counts of instances: weighted kinds refuse the one and leave out the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import MultiLabel, SplitMatrix
from clfeval.count.limits import check_total, whole_count
from clfeval.count.weighted import WeightedConfusion, WeightedLabelCounts, WeightedLabelSetCounts
from clfeval.errors import InputError
from clfeval.kinds.countfile import doc_list, doc_policies, doc_set, shown_json
from clfeval.kinds.kind import Kind, Row, register_kind
from clfeval.kinds.labelsets import LABEL_SETS
from clfeval.kinds.single import SINGLE_LABEL

if TYPE_CHECKING:
    from clfeval.scoring.cells import CellTypes

__all__ = ["WeightedLabelSets", "WeightedSingleLabel", "weighted_counts"]

#: Why weighted counts take no counting test, and what to use instead.
_COUNTING_TESTS = (
    ": McNemar's and the sign test count instances, not their weights; with sample weights use randomization "
    "(--test ar) or the paired bootstrap (--test bootstrap)"
)


def _weight(value: Any, where: str, source: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (np.isfinite(value) and value >= 0):
        raise InputError(f"{where} must be a weight (a finite number ≥ 0), found {shown_json(value)}", source)
    return float(value)


class _WeightedKind(Kind):
    """What both weighted kinds share: rows end with the instance's weight, which scales its cell type."""

    joint_extra: ClassVar[int] = 1  # a row of joint counts ends with the instance's weight
    sample_weights: ClassVar[bool] = True
    paired_tests: ClassVar[frozenset[str] | None] = frozenset({"ar", "bootstrap"})
    refused_tests_note: ClassVar[str] = _COUNTING_TESTS
    base: ClassVar[Kind]

    def rows(self, counts: Any) -> tuple[Sequence[Row], np.ndarray]:
        return list(counts.rows), counts.counts

    def labels_seen(self, counts: Any) -> tuple[set[str], set[str]]:
        return self.base.labels_seen(self._unweighted(counts))

    def labels(self, counts: Any) -> Sequence[str]:
        gold, pred = self.labels_seen(counts)
        return sorted(gold | pred)

    def unweighted(self, counts: Any) -> Any:
        return self._unweighted(counts)

    def _unweighted(self, counts: Any) -> Any:
        """The counts with every weight dropped (each instance counted once): what labels and policies read (made
        once per counts)."""
        cached = counts.__dict__.get("_unweighted")
        if cached is None:
            pairs: dict[Row, int] = {}
            for (g, p, _), m in counts.rows.items():
                pairs[(g, p)] = pairs.get((g, p), 0) + m
            cached = self.base.from_rows(pairs, getattr(counts, "multilabel", None))
            object.__setattr__(counts, "_unweighted", cached)
        return cached

    def cells_of_rows(
        self, rows: Sequence[Row], label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> CellTypes:
        pairs = [(r[0], r[1]) for r in rows]
        cells = self.base.cells_of_rows(pairs, label_set, beta=beta, table=table)
        return cells.scaled(np.array([r[2] for r in rows], dtype=np.float64))

    def system_row(self, joint_row: Row, column: int) -> Row:
        return (joint_row[0], joint_row[column], joint_row[-1])

    def correct(self, row: Row) -> bool:
        return self.base.correct(row[:2])

    def errors(self, counts: Any, label_set: Sequence[str]) -> int:
        return self.base.errors(self._unweighted(counts), label_set)

    def notes(self, counts: Any, label_set: Sequence[str], table: Sequence[str], seen: set[str]) -> list[str]:
        return self.base.notes(self._unweighted(counts), label_set, table, seen)


class WeightedSingleLabel(_WeightedKind):
    """One label per instance, with sample weights: :class:`~clfeval.count.weighted.WeightedLabelCounts`."""

    name: ClassVar[str] = "weighted-single-label"
    title: ClassVar[str] = "weighted single-label counts"
    counts_type: ClassVar[type] = WeightedLabelCounts
    document: ClassVar[str | None] = "weighted-confusion"
    family: ClassVar[str | None] = "single-label"
    base: ClassVar[Kind] = SINGLE_LABEL

    def from_rows(self, rows: Mapping[Row, int], labelsets: MultiLabel | None = None) -> WeightedLabelCounts:
        return WeightedLabelCounts(dict(rows))

    # the arrays of the counts, never their rows as tuples: a row per instance under continuous weights

    def n_types(self, counts: WeightedLabelCounts) -> int:
        return counts.n_rows

    def labels_seen(self, counts: WeightedLabelCounts) -> tuple[set[str], set[str]]:
        k = len(counts.labels)
        gold, pred = (np.bincount(codes, minlength=k) > 0 for codes in (counts.gold, counts.pred))
        return {counts.labels[i] for i in np.flatnonzero(gold)}, {counts.labels[i] for i in np.flatnonzero(pred)}

    def _unweighted(self, counts: Any) -> Any:
        """The counts with every weight dropped: the confusion matrix of the instances (made once per counts)."""
        cached = counts.__dict__.get("_unweighted")
        if cached is None:
            gold, pred, m = counts.gold, counts.pred, counts.counts
            if len(m) > 1:  # the rows are sorted by (gold, pred): each cell's rows are a run
                starts = np.flatnonzero(np.r_[True, (gold[1:] != gold[:-1]) | (pred[1:] != pred[:-1])])
                gold, pred, m = gold[starts], pred[starts], np.add.reduceat(m, starts)
            cached = ConfusionCounts.from_entries(counts.labels, gold, pred, m)
            object.__setattr__(counts, "_unweighted", cached)
        return cached

    @staticmethod
    def _positions(counts: WeightedLabelCounts, table: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Each row's gold and predicted label as a position in ``table``, in the order of the rows."""
        index = {lab: i for i, lab in enumerate(table)}
        position = np.array([index.get(lab, -1) for lab in counts.labels], dtype=np.int64)
        if len(position) and position.min() < 0:
            raise ValueError("the table's labels must hold every label with counts")
        return position[counts.gold], position[counts.pred]

    def cells(
        self, counts: WeightedLabelCounts, label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> tuple[CellTypes, np.ndarray]:
        """The rows' (gold, predicted) cell types, each scaled by its weight (as :meth:`cells_of_rows` of
        :meth:`rows`), and their numbers of instances as weights."""
        from clfeval.scoring.cells import CellTypes

        g, p = self._positions(counts, table)
        cells = CellTypes.of_positions(tuple(label_set), tuple(table), g, p).scaled(counts.weights)
        return cells, counts.counts.astype(np.float64)

    def observed(
        self, counts: WeightedLabelCounts, label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> tuple[CellTypes, np.ndarray]:
        from clfeval.scoring.cells import CellTypes

        g, p = self._positions(counts, table)
        return CellTypes.observed_scaled(
            tuple(label_set), tuple(table), g, p, counts.weights, counts.counts.astype(np.float64)
        )

    def matrix(self, counts: WeightedLabelCounts, label_set: Sequence[str], table: Sequence[str]) -> WeightedConfusion:
        g, p = self._positions(counts, table)
        return WeightedConfusion.of_cells(tuple(table), g, p, counts.counts * counts.weights)

    def to_document(self, counts: WeightedLabelCounts) -> dict[str, Any]:
        names = np.array(counts.labels, dtype=object)
        return {
            "kind": self.document,
            "multilabel": False,
            "n_instances": counts.n_instances,
            "weight_sum": counts.weight_sum,
            "rows": [
                list(row)
                for row in zip(
                    names[counts.gold].tolist(),
                    names[counts.pred].tolist(),
                    counts.weights.tolist(),
                    counts.counts.tolist(),
                )
            ],
        }

    def from_document(self, doc: Mapping[str, Any], source: str) -> WeightedLabelCounts:
        rows: dict[Row, int] = {}
        for i, item in enumerate(doc_list(doc["rows"], "rows", source)):
            if not (isinstance(item, list) and len(item) == 4 and all(isinstance(v, str) for v in item[:2])):
                raise InputError(
                    f"rows[{i}] must be [gold label, predicted label, weight, count], found {shown_json(item)}", source
                )
            key = (item[0], item[1], _weight(item[2], f"rows[{i}][2]", source))
            rows[key] = rows.get(key, 0) + whole_count(item[3], f"rows[{i}][3]", source)
        check_total(sum(rows.values()), "the rows' counts add up to", source)
        return WeightedLabelCounts(rows)


class WeightedLabelSets(_WeightedKind):
    """A set of labels per instance, with sample weights: :class:`~clfeval.count.weighted.WeightedLabelSetCounts`."""

    name: ClassVar[str] = "weighted-multi-label"
    title: ClassVar[str] = "weighted multi-label counts"
    counts_type: ClassVar[type] = WeightedLabelSetCounts
    document: ClassVar[str | None] = "weighted-labelsets"
    family: ClassVar[str | None] = "multi-label"
    label_sets: ClassVar[bool] = True
    option_names: ClassVar[tuple[str, ...]] = ("duplicates", "empty")
    base: ClassVar[Kind] = LABEL_SETS

    def options(self, counts: WeightedLabelSetCounts) -> dict[str, Any]:
        return {"duplicates": counts.duplicates, "empty": counts.empty}

    def option_notes(self, options: Mapping[str, Any]) -> list[str]:
        return self.base.option_notes(options)

    def from_rows(self, rows: Mapping[Row, int], labelsets: MultiLabel | None = None) -> WeightedLabelSetCounts:
        ml = labelsets or MultiLabel()
        return WeightedLabelSetCounts(dict(rows), ml.duplicates, ml.empty)

    def cells_of_rows(
        self, rows: Sequence[Row], label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> CellTypes:
        """The cell types of the distinct (gold set, predicted set) pairs, built once per pair and taken for every
        row of that pair (:meth:`~clfeval.scoring.cells.CellTypes.taken`), each scaled by its row's weight."""
        index: dict[Row, int] = {}
        which = np.fromiter((index.setdefault((r[0], r[1]), len(index)) for r in rows), dtype=np.int64, count=len(rows))
        cells = self.base.cells_of_rows(list(index), label_set, beta=beta, table=table).taken(which)
        return cells.scaled(np.array([r[2] for r in rows], dtype=np.float64))

    def table(self, label_set: Sequence[str], labels: Sequence[str]) -> tuple[str, ...]:
        return tuple(label_set)

    def matrix(self, counts: WeightedLabelSetCounts, label_set: Sequence[str], table: Sequence[str]) -> SplitMatrix:
        """Van Asch's split-count matrix of the weighted instances: each pair's shares times its total weight."""
        from clfeval.count.labelsets import LabelSetCounts
        from clfeval.scoring.labelset import sort_labels

        pairs: dict[Row, float] = {}
        for (g, p, w), m in counts.rows.items():
            pairs[(g, p)] = pairs.get((g, p), 0.0) + m * w
        gold, pred = self.labels_seen(counts)
        # the pairs with their total weights as the "counts" the split matrix spreads (its arithmetic is linear)
        shell = LabelSetCounts({k: 1 for k in pairs}, counts.duplicates, counts.empty)
        object.__setattr__(shell, "_weights", np.array([pairs[k] for k in shell.pairs], dtype=np.float64))
        return shell.split_matrix(tuple(label_set) + sort_labels((gold | pred) - set(label_set)))

    def to_document(self, counts: WeightedLabelSetCounts) -> dict[str, Any]:
        return {
            "kind": self.document,
            "multilabel": True,
            "duplicates": counts.duplicates,
            "empty": counts.empty,
            "n_instances": counts.n_instances,
            "weight_sum": counts.weight_sum,
            "rows": [[list(g), list(p), w, m] for (g, p, w), m in counts.rows.items()],
        }

    def from_document(self, doc: Mapping[str, Any], source: str) -> WeightedLabelSetCounts:
        duplicates, empty = doc_policies(doc, source)
        rows: dict[Row, int] = {}
        for i, item in enumerate(doc_list(doc["rows"], "rows", source)):
            if not isinstance(item, list) or len(item) != 4:
                raise InputError(
                    f"rows[{i}] must be [gold labels, predicted labels, weight, count], found {shown_json(item)}",
                    source,
                )
            key = (
                doc_set(item[0], source, f"rows[{i}][0]", duplicates, empty),
                doc_set(item[1], source, f"rows[{i}][1]", duplicates, empty),
                _weight(item[2], f"rows[{i}][2]", source),
            )
            rows[key] = rows.get(key, 0) + whole_count(item[3], f"rows[{i}][3]", source)
        check_total(sum(rows.values()), "the rows' counts add up to", source)
        return WeightedLabelSetCounts(rows, duplicates, empty)


WEIGHTED_SINGLE_LABEL = register_kind(WeightedSingleLabel())
WEIGHTED_LABEL_SETS = register_kind(WeightedLabelSets())


def weighted_counts(
    rows: Mapping[Row, int], labelsets: MultiLabel | None = None, systems: Sequence[str] | None = None
) -> Any:
    """Counts of weighted rows, in the kind that holds them: one system's (gold, predicted, weight) rows as weighted
    single labels, or weighted label sets with ``labelsets``; with ``systems``, joint counts whose rows end with the
    weight, of that kind. The one place that chooses between the two weighted kinds."""
    kind = WEIGHTED_LABEL_SETS if labelsets is not None else WEIGHTED_SINGLE_LABEL
    if systems is None:
        return kind.from_rows(rows, labelsets)
    from clfeval.count.joint import JointCounts

    return JointCounts(tuple(systems), rows, labelsets, kind.name)
