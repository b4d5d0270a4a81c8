"""Scored predictions: the distinct (gold, scores) rows of :class:`~clfeval.count.scored.ScoreCounts`.

Their count files are ``scored`` documents (the classes, the class of each score column, and each distinct row with its
count; with sample weights ``"weighted": true`` and each row's weight before its count, so that a reader that does not
know weights refuses the rows rather than dropping the weights); counts of parts add up with ``+`` when their classes
and columns agree. They are scored by :func:`clfeval.score` with ``scores=`` (the
:class:`~clfeval.scoring.scored.Scored` result), not through the label measures: the kind has no family.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from clfeval.count.limits import whole_count
from clfeval.count.scored import ScoreCounts
from clfeval.errors import InputError, OptionError
from clfeval.kinds.countfile import doc_labels, doc_list, shown_json
from clfeval.kinds.kind import Kind, register_kind

__all__ = ["ScoredKind"]


class ScoredKind(Kind):
    """Scored predictions: :class:`~clfeval.count.scored.ScoreCounts`, rows (gold, scores …)."""

    name: ClassVar[str] = "scored"
    title: ClassVar[str] = "scored predictions"
    counts_type: ClassVar[type] = ScoreCounts
    tasks: ClassVar[frozenset[str]] = frozenset({"score"})
    document: ClassVar[str | None] = "scored"
    scored: ClassVar[bool] = True
    interval_methods: ClassVar[frozenset[str] | None] = frozenset(
        {"none", "delong", "delong-logit", "bootstrap", "bootstrap-bca"}
    )
    paired_tests: ClassVar[frozenset[str] | None] = frozenset({"delong", "ar", "bootstrap"})
    accumulator: ClassVar[str | None] = "clfeval.accumulator.scored:ScoredAccumulator"

    def labels_seen(self, counts: ScoreCounts) -> tuple[set[str], set[str]]:
        if counts.multilabel:  # the labels of some gold set
            held = counts.count > 0
            present = counts.gold[held].any(axis=0) if held.any() else np.zeros(len(counts.labels), dtype=bool)
            return {counts.labels[k] for k in np.flatnonzero(present).tolist()}, set(counts.columns)
        gold = {counts.labels[g] for g in np.unique(counts.gold).tolist()}
        return gold, set(counts.columns)

    def labels(self, counts: ScoreCounts) -> list[str]:
        return list(counts.labels)

    def merge_signature(self, counts: ScoreCounts) -> tuple[Any, ...]:
        return (self.name, counts.labels, counts.columns)

    def describe(self, counts: ScoreCounts) -> str:
        return f"scored predictions of classes {', '.join(counts.labels)} (score columns {', '.join(counts.columns)})"

    def n_types(self, counts: ScoreCounts) -> int:
        return len(counts.count)

    def to_document(self, counts: ScoreCounts) -> dict[str, Any]:
        if counts.multilabel:  # each row's gold side is its list of labels
            names = np.array(counts.labels, dtype=object)
            gold: list[Any] = [names[row == 1].tolist() for row in counts.gold]
        else:
            gold = [counts.labels[g] for g in counts.gold.tolist()]
        doc: dict[str, Any] = {
            "kind": self.document,
            "n_instances": counts.n_instances,
            "classes": list(counts.labels),
            "score_columns": list(counts.columns),
            "multilabel": counts.multilabel,
        }
        if counts.weight is None:
            doc["rows"] = [
                [g, *(float(x) for x in s), int(c)] for g, s, c in zip(gold, counts.scores, counts.count.tolist())
            ]
        else:  # [gold, scores, weight, count]: the row's instances each weigh its weight
            doc["weighted"] = True
            doc["weight_sum"] = counts.total
            doc["rows"] = [
                [g, *(float(x) for x in s), float(w), int(c)]
                for g, s, w, c in zip(gold, counts.scores, counts.weight.tolist(), counts.count.tolist())
            ]
        return doc

    def from_document(self, doc: Mapping[str, Any], source: str) -> ScoreCounts:
        classes = doc_labels(doc["classes"], source, "classes", distinct=True)
        columns = doc_labels(doc["score_columns"], source, "score_columns", distinct=True)
        index = {c: i for i, c in enumerate(classes)}
        width = len(columns)
        multilabel = doc.get("multilabel", False) is True
        weighted = doc.get("weighted", False) is True
        gold: list[Any] = []
        scores, count, weight = [], [], []
        for i, row in enumerate(doc_list(doc["rows"], "rows", source)):
            first = row[0] if isinstance(row, list) and row else None
            fits = (
                isinstance(first, list) and all(isinstance(x, str) and x in index for x in first)
                if multilabel
                else isinstance(first, str) and first in index
            )
            if not (isinstance(row, list) and len(row) == width + 2 + weighted and fits):
                what = "[gold labels]" if multilabel else "gold class"
                raise InputError(
                    f"rows[{i}] must be [{what}, {width} score(s), {'weight, ' if weighted else ''}count], found "
                    f"{shown_json(row)}",
                    source,
                )
            if weighted:
                w = row[-2]
                if isinstance(w, bool) or not isinstance(w, (int, float)) or not np.isfinite(w) or w < 0:
                    raise InputError(f"rows[{i}] holds a weight that is not a finite number ≥ 0: {shown_json(row)}",
                                     source)  # fmt: skip
                weight.append(float(w))
                row = row[:-2] + row[-1:]
            values = row[1:-1]
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                raise InputError(f"rows[{i}] holds a score that is not a number: {shown_json(row)}", source)
            if multilabel:
                indicator = np.zeros(len(classes), dtype=np.int8)
                indicator[[index[x] for x in row[0]]] = 1
                gold.append(indicator)
            else:
                gold.append(index[row[0]])
            scores.append([float(v) for v in values])
            count.append(whole_count(row[-1], f"rows[{i}][{width + 1}]", source))
        try:
            counts = ScoreCounts(
                classes,
                columns,
                np.array(gold, dtype=np.int8).reshape(-1, len(classes))
                if multilabel
                else np.array(gold, dtype=np.int64),
                np.array(scores, dtype=np.float64).reshape(len(gold), width),
                np.array(count, dtype=np.int64),
                np.array(weight, dtype=np.float64) if weighted else None,
            )
        except OptionError as exc:
            raise InputError(str(exc), source) from None
        return counts  # the weights' source, when the file names it: counts_from_dict


SCORED = register_kind(ScoredKind())
