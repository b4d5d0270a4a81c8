"""Single-label data: one gold and one predicted label per instance, counted as a confusion matrix.

Its rows are (gold, predicted) label pairs, held as the non-zero cells of :class:`~clfeval.ConfusionCounts`; its
count files are ``confusion`` documents (a dense table, or the non-zero cells beyond
:data:`~clfeval.kinds.countfile.DENSE_COUNT_LABELS` labels); its matrix is the confusion matrix itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import MultiLabel
from clfeval.count.limits import count_array
from clfeval.errors import InputError
from clfeval.kinds.countfile import (
    DENSE_COUNT_LABELS,
    SPARSE_COUNTS_SCHEMA,
    doc_labels,
    doc_list,
    shown_json,
)
from clfeval.kinds.kind import Kind, Row, register_kind

if TYPE_CHECKING:
    from clfeval.scoring.cells import CellTypes

__all__ = ["SingleLabel", "confusion_of_pairs"]


def confusion_of_pairs(pairs: Mapping[Row, int]) -> ConfusionCounts:
    """The confusion matrix of (gold, predicted) label pairs with multiplicities; labels sorted as strings."""
    labels = sorted({lab for pair in pairs for lab in pair})
    index = {lab: i for i, lab in enumerate(labels)}
    size = len(pairs)
    gold = np.fromiter((index[g] for g, _ in pairs), dtype=np.int64, count=size)
    pred = np.fromiter((index[p] for _, p in pairs), dtype=np.int64, count=size)
    counts = np.fromiter((int(c) for c in pairs.values()), dtype=np.int64, count=size)
    return ConfusionCounts.from_entries(labels, gold, pred, counts)


def _by_name(counts: ConfusionCounts) -> np.ndarray:
    """The order of the non-zero cells by (gold label, predicted label) as strings: the rows a seeded resample draws
    over are ordered by the labels' names, not by their positions in ``counts.labels`` (which follow a reader, a
    declared label list or the order labels were first seen)."""
    labels = counts.labels
    if list(labels) == sorted(labels):  # positions already follow the names
        return np.arange(len(counts.count))
    rank = np.empty(len(labels), dtype=np.int64)
    rank[np.array(sorted(range(len(labels)), key=labels.__getitem__), dtype=np.int64)] = np.arange(len(labels))
    return np.argsort(rank[counts.gold] * len(labels) + rank[counts.pred], kind="stable")


class SingleLabel(Kind):
    """One label per instance: :class:`~clfeval.ConfusionCounts`, rows (gold, predicted)."""

    name: ClassVar[str] = "single-label"
    title: ClassVar[str] = "single-label counts"
    counts_type: ClassVar[type] = ConfusionCounts
    document: ClassVar[str | None] = "confusion"
    family: ClassVar[str | None] = "single-label"

    def labels_seen(self, counts: ConfusionCounts) -> tuple[set[str], set[str]]:
        return counts.seen_labels()

    def labels(self, counts: ConfusionCounts) -> Sequence[str]:
        return counts.labels

    def n_types(self, counts: ConfusionCounts) -> int:
        return counts.n_cells

    def rows(self, counts: ConfusionCounts) -> tuple[Sequence[Row], np.ndarray]:
        order = _by_name(counts)
        labels = counts.labels
        rows = [(labels[g], labels[p]) for g, p in zip(counts.gold[order].tolist(), counts.pred[order].tolist())]
        return rows, counts.count[order]

    def from_rows(self, rows: Mapping[Row, int], labelsets: MultiLabel | None = None) -> ConfusionCounts:
        return confusion_of_pairs(rows)

    def cells_of_rows(
        self, rows: Sequence[Row], label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> CellTypes:
        from clfeval.scoring.cells import CellTypes

        return CellTypes.single_label([r[0] for r in rows], [r[1] for r in rows], label_set, table)

    def cells(
        self, counts: ConfusionCounts, label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> tuple[CellTypes, np.ndarray]:
        from clfeval.scoring.cells import CellTypes

        index = {lab: i for i, lab in enumerate(table)}
        position = np.array([index.get(lab, -1) for lab in counts.labels], dtype=np.int64)
        order = _by_name(counts)
        g, p = counts.gold[order], counts.pred[order]  # the non-zero cells in the order of rows()
        if len(g) and (position[g].min() < 0 or position[p].min() < 0):
            raise ValueError("the table's labels must hold every label with counts")
        cells = CellTypes.of_positions(tuple(label_set), tuple(table), position[g], position[p])
        return cells, counts.count[order].astype(np.float64)

    def observed(
        self, counts: ConfusionCounts, label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> tuple[CellTypes, np.ndarray]:
        from clfeval.scoring.cells import CellTypes

        return CellTypes.observed(counts, label_set, table)

    def matrix(self, counts: ConfusionCounts, label_set: Sequence[str], table: Sequence[str]) -> ConfusionCounts:
        return counts.with_labels(table)

    def notes(
        self, counts: ConfusionCounts, label_set: Sequence[str], table: Sequence[str], seen: set[str]
    ) -> list[str]:
        notes = []
        if set(label_set) >= seen:
            notes.append(
                "single-label data: micro precision = micro recall = micro F = accuracy "
                "(Frank 2019), and micro FPR = error rate/(K−1) for K labels"
            )
        notes.append("MCC, κ and balanced accuracy run over every label of the confusion matrix")
        return notes

    def confusion(self, counts: ConfusionCounts) -> ConfusionCounts:
        return counts

    def errors(self, counts: ConfusionCounts, label_set: Sequence[str]) -> int:
        return counts.n_instances - int(counts.diagonal.sum())

    def to_document(self, counts: ConfusionCounts) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "kind": self.document,
            "multilabel": False,
            "n_instances": counts.n_instances,
            "labels": list(counts.labels),
        }
        if len(counts.labels) <= DENSE_COUNT_LABELS:
            doc["cells"] = counts.cells.tolist()
        else:
            doc["schema"] = SPARSE_COUNTS_SCHEMA
            doc["entries"] = [list(e) for e in zip(counts.gold.tolist(), counts.pred.tolist(), counts.count.tolist())]
        return doc

    def from_document(self, doc: Mapping[str, Any], source: str) -> ConfusionCounts:
        if doc.get("multilabel", False) is not False:
            raise InputError(
                f"a confusion count file holds single-label counts: multilabel must be false, found "
                f"{shown_json(doc.get('multilabel'))}",
                source,
            )
        labels = doc_labels(doc["labels"], source, "labels", distinct=True)
        if "entries" in doc and doc["schema"] == SPARSE_COUNTS_SCHEMA:
            return _entries(doc["entries"], labels, source)
        cells = doc["cells"]
        if (
            not isinstance(cells, list)
            or len(cells) != len(labels)
            or not all(isinstance(row, list) and len(row) == len(labels) for row in cells)
        ):
            raise InputError(
                f"cells must be a {len(labels)}×{len(labels)} table of counts (a list of "
                f"{len(labels)} rows of {len(labels)}), one row and column per label",
                source,
            )
        return ConfusionCounts(labels, count_array(cells, "cells", source))


def _entries(value: Any, labels: tuple[str, ...], source: str) -> ConfusionCounts:
    """A confusion from its non-zero cells ``[[gold position, predicted position, count], …]``."""
    entries = doc_list(value, "entries", source)
    k = len(labels)
    for i, item in enumerate(entries):
        if (
            not isinstance(item, list)
            or len(item) != 3
            or any(isinstance(v, bool) or not isinstance(v, int) for v in item[:2])
            or not (0 <= item[0] < k and 0 <= item[1] < k)
        ):
            raise InputError(
                f"entries[{i}] must be [gold position, predicted position, count] with positions from 0 to {k - 1} "
                f"(into labels), found {shown_json(item)}",
                source,
            )
    counts = count_array([item[2] for item in entries], "the counts of entries", source)
    table = np.array([item[:2] for item in entries], dtype=np.int64).reshape(-1, 2)
    distinct, times = np.unique(table[:, 0] * k + table[:, 1], return_counts=True)
    if (times > 1).any():
        g, p = divmod(int(distinct[np.argmax(times > 1)]), k)
        raise InputError(f"entries holds the cell [{g}, {p}] more than once; each cell may appear once", source)
    return ConfusionCounts.from_entries(labels, table[:, 0], table[:, 1], counts, source=source)


SINGLE_LABEL = register_kind(SingleLabel())
