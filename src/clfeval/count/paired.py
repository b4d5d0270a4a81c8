"""Counts of two systems on the same gold: unique (gold, prediction A, prediction B) triples."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.count.limits import check_total, whole_count
from clfeval.errors import OptionError

__all__ = ["PairedCounts", "counts_of_pairs"]

Triple = tuple[Any, Any, Any]


def counts_of_pairs(
    pairs: Mapping[tuple[Any, Any], int], multilabel: bool, duplicates: str = "keep", empty: str = "ignore"
) -> ConfusionCounts | LabelSetCounts:
    """The counts of (gold, prediction) pairs with multiplicities: a confusion matrix, or label-set pairs."""
    if multilabel:
        return LabelSetCounts(pairs, duplicates, empty)
    labels = sorted({lab for pair in pairs for lab in pair})
    index = {lab: i for i, lab in enumerate(labels)}
    size = len(pairs)
    gold = np.fromiter((index[g] for g, _ in pairs), dtype=np.int64, count=size)
    pred = np.fromiter((index[p] for _, p in pairs), dtype=np.int64, count=size)
    counts = np.fromiter((int(c) for c in pairs.values()), dtype=np.int64, count=size)
    return ConfusionCounts.from_entries(labels, gold, pred, counts)


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
        # sorted: a canonical order, so a seeded test gives the same numbers whatever order the reader used
        triples = {k: whole_count(v, f"the count of {k!r}") for k, v in sorted(self.triples.items())}
        check_total(sum(triples.values()), "the counts add up to")
        object.__setattr__(self, "triples", {k: v for k, v in triples.items() if v})

    @property
    def n_instances(self) -> int:
        """Number of instances counted."""
        return sum(self.triples.values())

    def system(self, which: int) -> ConfusionCounts | LabelSetCounts:
        """The counts of system A (``which=1``) or B (``which=2``) alone."""
        pairs: Counter[tuple[Any, Any]] = Counter()
        for triple, c in self.triples.items():
            pairs[(triple[0], triple[which])] += c
        return counts_of_pairs(pairs, self.multilabel, self.duplicates, self.empty)

    def swapped(self) -> PairedCounts:
        """The same counts with A and B exchanged."""
        return PairedCounts(
            {(g, b, a): c for (g, a, b), c in self.triples.items()}, self.multilabel, self.duplicates, self.empty
        )

    def __add__(self, other: object) -> PairedCounts:
        if not isinstance(other, PairedCounts):
            return NotImplemented
        if (self.multilabel, self.duplicates, self.empty) != (other.multilabel, other.duplicates, other.empty):
            raise OptionError("cannot add paired counts made with different multi-label options")
        merged: Counter[Triple] = Counter(self.triples)
        merged.update(other.triples)
        return PairedCounts(merged, self.multilabel, self.duplicates, self.empty)
