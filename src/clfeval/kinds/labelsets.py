"""Multi-label data: a set of labels per instance, counted as unique (gold set, predicted set) pairs.

Its rows are the pairs of :class:`~clfeval.LabelSetCounts`, made under the counting options of a
:class:`~clfeval.MultiLabel` group (``duplicates``, ``empty``); its count files are ``labelsets`` documents; its
matrix is Van Asch's split-count confusion matrix (:class:`~clfeval.SplitMatrix`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from clfeval.count.labelsets import DUPLICATE_POLICIES, EMPTY_POLICIES, LabelSetCounts, MultiLabel, SplitMatrix
from clfeval.count.limits import check_total, whole_count
from clfeval.errors import InputError
from clfeval.kinds.countfile import doc_list, doc_policies, doc_set, shown_json
from clfeval.kinds.kind import Kind, Row, register_kind

if TYPE_CHECKING:
    from clfeval.scoring.cells import CellTypes

__all__ = ["LabelSets"]


class LabelSets(Kind):
    """A set of labels per instance: :class:`~clfeval.LabelSetCounts`, rows (gold set, predicted set)."""

    name: ClassVar[str] = "multi-label"
    title: ClassVar[str] = "multi-label counts"
    counts_type: ClassVar[type] = LabelSetCounts
    document: ClassVar[str | None] = "labelsets"
    family: ClassVar[str | None] = "multi-label"
    label_sets: ClassVar[bool] = True
    option_names: ClassVar[tuple[str, ...]] = ("duplicates", "empty")

    def labels_seen(self, counts: LabelSetCounts) -> tuple[set[str], set[str]]:
        pairs = counts.pairs
        return set(chain.from_iterable(map(itemgetter(0), pairs))), set(chain.from_iterable(map(itemgetter(1), pairs)))

    def options(self, counts: LabelSetCounts) -> dict[str, Any]:
        return {"duplicates": counts.duplicates, "empty": counts.empty}

    def option_notes(self, options: Mapping[str, Any]) -> list[str]:
        return [
            f"duplicates: {options['duplicates']} ({DUPLICATE_POLICIES[options['duplicates']]})",
            f"empty label set: {options['empty']} ({EMPTY_POLICIES[options['empty']]})",
        ]

    def n_types(self, counts: LabelSetCounts) -> int:
        return len(counts.pairs)

    def rows(self, counts: LabelSetCounts) -> tuple[Sequence[Row], np.ndarray]:
        return list(counts.pairs), counts.weights

    def from_rows(self, rows: Mapping[Row, int], labelsets: MultiLabel | None = None) -> LabelSetCounts:
        ml = labelsets or MultiLabel()
        return LabelSetCounts(rows, ml.duplicates, ml.empty)  # rows of label sets

    def cells_of_rows(
        self, rows: Sequence[Row], label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> CellTypes:
        from clfeval.scoring.cells import CellTypes

        return CellTypes.multi_label(rows, label_set, beta)  # rows of label sets

    def table(self, label_set: Sequence[str], labels: Sequence[str]) -> tuple[str, ...]:
        return tuple(label_set)  # per-label sums run over the label set; no measure reads a label order

    def matrix(self, counts: LabelSetCounts, label_set: Sequence[str], table: Sequence[str]) -> SplitMatrix:
        from clfeval.scoring.labelset import sort_labels

        gold, pred = self.labels_seen(counts)
        return counts.split_matrix(tuple(label_set) + sort_labels((gold | pred) - set(label_set)))

    def errors(self, counts: LabelSetCounts, label_set: Sequence[str]) -> int:
        lc = counts.label_counts(label_set)
        return int(lc.fp.sum() + lc.fn.sum())

    def to_document(self, counts: LabelSetCounts) -> dict[str, Any]:
        return {
            "kind": self.document,
            "multilabel": True,
            "duplicates": counts.duplicates,
            "empty": counts.empty,
            "n_instances": counts.n_instances,
            "pairs": [[list(g), list(p), c] for (g, p), c in counts.pairs.items()],
        }

    def from_document(self, doc: Mapping[str, Any], source: str) -> LabelSetCounts:
        duplicates, empty = doc_policies(doc, source)
        pairs: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
        for i, item in enumerate(doc_list(doc["pairs"], "pairs", source)):
            if not isinstance(item, list) or len(item) != 3:
                raise InputError(
                    f"pairs[{i}] must be [gold labels, predicted labels, count], found {shown_json(item)}", source
                )
            key = (
                doc_set(item[0], source, f"pairs[{i}][0]", duplicates, empty),
                doc_set(item[1], source, f"pairs[{i}][1]", duplicates, empty),
            )
            pairs[key] = pairs.get(key, 0) + whole_count(item[2], f"pairs[{i}][2]", source)
        check_total(sum(pairs.values()), "the pairs' counts add up to", source)
        return LabelSetCounts(pairs, duplicates, empty)


LABEL_SETS = register_kind(LabelSets())
