"""Counts of several systems on the same gold: unique (gold, prediction 1, …, prediction k) rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.count.limits import check_total, whole_count
from clfeval.count.paired import PairedCounts, counts_of_pairs
from clfeval.errors import InputError, OptionError

__all__ = ["JointCounts"]


@dataclass(frozen=True, eq=False)
class JointCounts:
    """How often each (gold, prediction of system 1, …, prediction of system k) row occurred.

    The sufficient statistics of comparing k systems on one test set: each system's counts
    (:meth:`system`) and every pair's :class:`PairedCounts` (:meth:`paired`) follow from them.
    Entries are labels (single-label) or canonical label-set tuples (multi-label). Counts of
    parts made with the same systems add up with ``+``.

    Attributes
    ----------
    systems
        The systems' names, in column order.
    rows
        (gold, prediction of each system) → count.
    """

    systems: tuple[str, ...]
    rows: Mapping[tuple[Any, ...], int]
    multilabel: bool = False
    duplicates: str = "keep"
    empty: str = "ignore"

    def __post_init__(self) -> None:
        systems = tuple(str(s) for s in self.systems)
        if len(set(systems)) != len(systems):
            repeated = sorted({s for s in systems if systems.count(s) > 1})
            raise OptionError(f"system names must be distinct; repeated: {', '.join(map(repr, repeated))}")
        rows = {tuple(k): whole_count(v, f"the count of {k!r}") for k, v in sorted(self.rows.items())}  # canonical
        check_total(sum(rows.values()), "the counts add up to")
        rows = {k: v for k, v in rows.items() if v}
        if any(len(k) != len(systems) + 1 for k in rows):
            raise InputError(f"every row must hold the gold value and {len(systems)} predictions")
        object.__setattr__(self, "systems", systems)
        object.__setattr__(self, "rows", rows)

    @property
    def n_instances(self) -> int:
        """Number of instances counted."""
        return sum(self.rows.values())

    def _column(self, name: str) -> int:
        if name not in self.systems:
            raise OptionError(f"unknown system {name!r}; the systems are {', '.join(map(repr, self.systems))}")
        return self.systems.index(name) + 1

    def system(self, name: str) -> ConfusionCounts | LabelSetCounts:
        """The counts of one system alone."""
        column = self._column(name)
        pairs: Counter[tuple[Any, Any]] = Counter()
        for row, c in self.rows.items():
            pairs[(row[0], row[column])] += c
        return counts_of_pairs(pairs, self.multilabel, self.duplicates, self.empty)

    def paired(self, a: str, b: str) -> PairedCounts:
        """The (gold, A, B) triples of systems ``a`` and ``b``."""
        i, j = self._column(a), self._column(b)
        triples: Counter[tuple[Any, Any, Any]] = Counter()
        for row, c in self.rows.items():
            triples[(row[0], row[i], row[j])] += c
        return PairedCounts(triples, self.multilabel, self.duplicates, self.empty)

    def seen_labels(self) -> tuple[set[str], set[str]]:
        """The labels in the gold data, and in any system's predictions."""
        gold: set[str] = set()
        pred: set[str] = set()
        for row in self.rows:
            if self.multilabel:
                gold.update(row[0])
                for p in row[1:]:
                    pred.update(p)
            else:
                gold.add(row[0])
                pred.update(row[1:])
        return gold, pred

    def __add__(self, other: object) -> JointCounts:
        if not isinstance(other, JointCounts):
            return NotImplemented
        if other.systems != self.systems:
            raise OptionError(f"cannot add counts of systems {list(other.systems)} to counts of {list(self.systems)}")
        if (self.multilabel, self.duplicates, self.empty) != (other.multilabel, other.duplicates, other.empty):
            raise OptionError("cannot add joint counts made with different multi-label options")
        merged: Counter[tuple[Any, ...]] = Counter(self.rows)
        merged.update(other.rows)
        return JointCounts(self.systems, merged, self.multilabel, self.duplicates, self.empty)
