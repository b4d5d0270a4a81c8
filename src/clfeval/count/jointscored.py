"""Several systems' scored predictions of the same instances, as counts: how often each distinct row (gold, every
system's scores) occurred.

What :class:`~clfeval.count.scored.ScoreCounts` is for one system, :class:`JointScoreCounts` is for the systems a
comparison pairs: a paired test moves an instance's scores of every system together, so it needs the rows in which the
systems' scores of an instance stand side by side, not each system's rows alone. Each system's own counts
(:meth:`JointScoreCounts.system`) and each pair's joint rows (:meth:`JointScoreCounts.pair`) are margins of these rows.
Parts of a file, or of a cluster's data, are counted apart and added with ``+``: a file of scores is read once for
every system, and only the distinct rows travel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from clfeval.count.scored import ScoreCounts, checked_weights, distinct_rows, distinct_weighted_rows
from clfeval.errors import OptionError

__all__ = ["JointScoreCounts"]


@dataclass(frozen=True, eq=False)
class JointScoreCounts:
    """Distinct (gold, scores of system 1, …, scores of system S[, weight]) rows with their counts.

    Attributes
    ----------
    labels, columns
        The classes and each system's score columns, as :class:`~clfeval.count.scored.ScoreCounts` has them; every
        system scores the same columns.
    systems
        The systems' names, in order.
    gold
        Row r's gold class code (multi-label: its 0/1 row of the labels).
    scores
        Row r's scores, (rows, S · C): system s's C columns are ``scores[:, s*C:(s+1)*C]``.
    count
        How many instances have row r.
    weight
        ``None``, or row r's sample weight: its ``count[r]`` instances each weigh ``weight[r]``.

    Rows are distinct and sorted as :func:`~clfeval.count.scored.distinct_rows` sorts them, a canonical order that no
    order of parts changes.
    """

    labels: tuple[str, ...]
    columns: tuple[str, ...]
    systems: tuple[str, ...]
    gold: np.ndarray
    scores: np.ndarray
    count: np.ndarray
    weight: np.ndarray | None = None

    def __post_init__(self) -> None:
        systems = tuple(str(s) for s in self.systems)
        if len(systems) < 1 or len(set(systems)) != len(systems):
            raise OptionError(f"the systems must be named, each once: {list(systems)}")
        # the classes, columns and gold codes checked as one system's counts check them
        template = ScoreCounts(self.labels, self.columns, np.asarray(self.gold)[:0], np.zeros((0, len(self.columns))),
                               np.zeros(0, dtype=np.int64))  # fmt: skip
        width = len(template.columns) * len(systems)
        gold = np.asarray(self.gold)
        gold = gold.astype(np.int8) if gold.ndim == 2 else gold.astype(np.int64)
        if gold.ndim == 1 and len(gold) and (gold.min() < 0 or gold.max() >= len(template.labels)):
            raise OptionError("a gold code outside the classes")
        if gold.ndim == 2 and (gold.shape[1] != len(template.labels) or not np.isin(gold, (0, 1)).all()):
            raise OptionError("a multi-label gold row holds 0 or 1 for each label")
        scores = np.asarray(self.scores, dtype=np.float64).reshape(len(gold), width)
        count = np.asarray(self.count, dtype=np.int64)
        if len(count) != len(gold):
            raise OptionError("gold, scores and count must have one entry per row")
        if len(count) and count.min() < 0:
            raise OptionError("counts must be non-negative")
        if not np.isfinite(scores).all():
            raise OptionError("scores must be finite numbers")
        if self.weight is None:
            gold, scores, count = distinct_rows(gold, scores, count)
            weight = None
        else:
            weight = checked_weights(self.weight, len(count), "weight", positive_sum=False)
            gold, scores, count, weight = distinct_weighted_rows(gold, scores, count, weight)
        for name, value in (("labels", template.labels), ("columns", template.columns), ("systems", systems),
                            ("gold", gold), ("scores", scores), ("count", count), ("weight", weight)):  # fmt: skip
            object.__setattr__(self, name, value)

    @classmethod
    def of_systems(
        cls,
        labels: Sequence[str],
        columns: Sequence[str],
        gold: np.ndarray,
        scores: Mapping[str, np.ndarray],
        weight: np.ndarray | None = None,
    ) -> JointScoreCounts:
        """Instances' gold codes and each system's (n, C) scores (columns already matched to ``columns``), counted
        into their distinct joint rows."""
        names = list(scores)
        n = len(gold)
        stacked = np.column_stack([np.asarray(scores[s], dtype=np.float64).reshape(n, -1) for s in names])
        return cls(tuple(labels), tuple(columns), tuple(names), gold, stacked, np.ones(n, dtype=np.int64), weight)

    @property
    def n_instances(self) -> int:
        """The number of instances counted."""
        return int(self.count.sum())

    @property
    def multilabel(self) -> bool:
        """Whether the gold side of a row is a set of labels (a 0/1 row)."""
        return bool(self.gold.ndim == 2)

    def _block(self, name: str) -> np.ndarray:
        if name not in self.systems:
            raise OptionError(f"unknown system {name!r}; the systems are {', '.join(map(repr, self.systems))}")
        c = len(self.columns)
        s = self.systems.index(name)
        return np.asarray(self.scores[:, s * c : (s + 1) * c])

    def system(self, name: str) -> ScoreCounts:
        """One system's own counts: the margin of its score columns (rows that differ only in other systems' scores
        merged)."""
        return ScoreCounts(self.labels, self.columns, self.gold, self._block(name), self.count, self.weight)

    def pair(self, a: str, b: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """Two systems' joint rows (gold, A's scores, B's scores, counts, weights or ``None``): the margin of their
        columns, distinct and sorted, so that a pair's rows (and the draws made over them) do not depend on which
        other systems were counted with it."""
        both = np.column_stack([self._block(a), self._block(b)])
        if self.weight is None:
            gold, rows, count = distinct_rows(self.gold, both, self.count)
            weight = None
        else:
            gold, rows, count, weight = distinct_weighted_rows(self.gold, both, self.count, self.weight)
        c = len(self.columns)
        return gold, rows[:, :c], rows[:, c:], count, weight

    @classmethod
    def added(cls, parts: Sequence[JointScoreCounts]) -> JointScoreCounts:
        """The counts of several parts together (one sort): their classes, columns and systems must agree."""
        first = parts[0]
        for part in parts[1:]:
            if (part.labels, part.columns, part.systems) != (first.labels, first.columns, first.systems):
                raise OptionError(
                    f"cannot add scores of systems {list(part.systems)}, classes {list(part.labels)} (columns "
                    f"{list(part.columns)}) to those of systems {list(first.systems)}, classes {list(first.labels)} "
                    f"(columns {list(first.columns)})"
                )
            if (part.weight is None) != (first.weight is None):
                raise OptionError(
                    "cannot add scores with sample weights to scores without: give every part its weights"
                )
        weight = None if first.weight is None else np.concatenate([np.asarray(p.weight) for p in parts])
        return cls(
            first.labels,
            first.columns,
            first.systems,
            np.concatenate([p.gold for p in parts]),
            np.vstack([p.scores for p in parts]),
            np.concatenate([p.count for p in parts]),
            weight,
        )

    def __add__(self, other: object) -> JointScoreCounts:
        if not isinstance(other, JointScoreCounts):
            return NotImplemented
        return JointScoreCounts.added([self, other])

    def __repr__(self) -> str:
        return (
            f"JointScoreCounts({len(self.systems)} systems, {len(self.labels)} classes, {len(self.columns)} columns "
            f"each, {len(self.count):,} distinct rows, {self.n_instances:,} instances)"
        )
