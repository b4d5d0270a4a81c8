"""Counts of two systems on the same gold: unique (gold, prediction A, prediction B) triples."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.errors import OptionError

__all__ = ["PairedCounts"]

Triple = tuple[Any, Any, Any]


@dataclass(frozen=True, eq=False)
class PairedCounts:
    """How often each (gold, prediction of A, prediction of B) triple occurred.

    These are the sufficient statistics of every paired comparison of two systems: each
    system's counts, the randomization and bootstrap distributions of any score difference,
    and McNemar's discordant pairs. Entries are labels (single-label) or canonical label-set
    tuples (multi-label). Counts of parts add up with ``+``.
    """

    triples: Mapping[Triple, int]
    multilabel: bool = False
    duplicates: str = "keep"
    empty: str = "ignore"

    def __post_init__(self) -> None:
        object.__setattr__(self, "triples", {k: int(v) for k, v in self.triples.items() if v})

    @property
    def n_instances(self) -> int:
        """Number of instances counted."""
        return sum(self.triples.values())

    def system(self, which: int) -> ConfusionCounts | LabelSetCounts:
        """The counts of system A (``which=1``) or B (``which=2``) alone."""
        pairs: Counter[tuple[Any, Any]] = Counter()
        for triple, c in self.triples.items():
            pairs[(triple[0], triple[which])] += c
        if self.multilabel:
            return LabelSetCounts(pairs, self.duplicates, self.empty)
        labels = sorted({lab for pair in pairs for lab in pair})
        index = {lab: i for i, lab in enumerate(labels)}
        cells = np.zeros((len(labels), len(labels)), dtype=np.int64)
        for (g, p), c in pairs.items():
            cells[index[g], index[p]] += c
        return ConfusionCounts(tuple(labels), cells)

    def swapped(self) -> "PairedCounts":
        """The same counts with A and B exchanged."""
        return PairedCounts({(g, b, a): c for (g, a, b), c in self.triples.items()}, self.multilabel,
                            self.duplicates, self.empty)

    def __add__(self, other: object) -> "PairedCounts":
        if not isinstance(other, PairedCounts):
            return NotImplemented
        if (self.multilabel, self.duplicates, self.empty) != (other.multilabel, other.duplicates, other.empty):
            raise OptionError("cannot add paired counts made with different multi-label options")
        merged: Counter[Triple] = Counter(self.triples)
        merged.update(other.triples)
        return PairedCounts(merged, self.multilabel, self.duplicates, self.empty)

    @classmethod
    def from_rows(cls, rows: list[tuple[Any, ...]], counts: np.ndarray, a: int, b: int, *, multilabel: bool = False,
                  duplicates: str = "keep", empty: str = "ignore") -> "PairedCounts":
        """Triples (gold, system ``a``, system ``b``) from unique rows (gold, system 1, system 2, …) with counts."""
        triples: Counter[Triple] = Counter()
        for row, c in zip(rows, counts):
            triples[(row[0], row[a], row[b])] += int(c)
        return cls(triples, multilabel, duplicates, empty)

