"""Counts of two systems on the same gold: unique (gold, prediction A, prediction B) triples."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from clfeval.count.labelsets import MultiLabel
from clfeval.count.limits import check_total, whole_count
from clfeval.errors import OptionError

__all__ = ["PairedCounts", "counts_of_pairs", "counts_of_rows", "system_kind_name"]

Triple = tuple[Any, ...]


def system_kind_name(kind: str, labelsets: MultiLabel | None) -> str:
    """The kind of each system's counts: ``kind`` when given, else ``multi-label`` for label sets and
    ``single-label`` otherwise."""
    if kind:
        return kind
    return "single-label" if labelsets is None else "multi-label"


def counts_of_rows(
    rows: Mapping[tuple[Any, ...], int],
    kind: str,
    labelsets: MultiLabel | None,
    columns: Callable[[tuple[Any, ...]], tuple[int, ...]],
) -> list[Any]:
    """Each system's counts of the kind ``kind`` (:data:`clfeval.kinds.KINDS`) from rows of several systems:
    ``columns(row)`` are the systems' positions, from 1 (:meth:`~clfeval.kinds.Kind.system_row` reads them)."""
    from clfeval.kinds import KINDS

    system = KINDS[kind]
    out: list[Counter[tuple[Any, ...]]] = []
    for row, c in rows.items():
        for i, column in enumerate(columns(row)):
            if i == len(out):
                out.append(Counter())
            out[i][system.system_row(row, column)] += c
    return [system.from_rows(pairs, labelsets) for pairs in out] or [system.from_rows({}, labelsets)]


def counts_of_pairs(pairs: Mapping[tuple[Any, Any], int], labelsets: MultiLabel | None = None) -> Any:
    """The counts of (gold, prediction) pairs with multiplicities: a confusion matrix, or label-set pairs counted
    under ``labelsets``."""
    return counts_of_rows(pairs, system_kind_name("", labelsets), labelsets, lambda row: (1,))[0]


@dataclass(frozen=True, eq=False)
class PairedCounts:
    """How often each (gold, prediction of A, prediction of B) triple occurred.

    These are the sufficient statistics of every paired comparison of two systems: each
    system's counts, the randomization and bootstrap distributions of any score difference,
    and McNemar's discordant pairs. Entries are labels (single-label) or canonical label-set
    tuples (multi-label). Counts of parts add up with ``+``.

    Attributes
    ----------
    triples
        (gold, prediction of A, prediction of B) → count.
    multilabel, kind
        How label sets were counted, and the kind of each system's counts, as for :class:`~clfeval.JointCounts`.
    """

    triples: Mapping[Triple, int]
    multilabel: MultiLabel | None = None
    kind: str = ""

    def __post_init__(self) -> None:
        # sorted: a canonical order, so a seeded test gives the same numbers whatever order the reader used
        triples = {k: whole_count(v, f"the count of {k!r}") for k, v in sorted(self.triples.items())}
        check_total(sum(triples.values()), "the counts add up to")
        ml = MultiLabel.of(self.multilabel)
        object.__setattr__(self, "triples", {k: v for k, v in triples.items() if v})
        object.__setattr__(self, "multilabel", None if ml is None else MultiLabel(None, ml.empty, ml.duplicates))
        object.__setattr__(self, "kind", system_kind_name(self.kind, ml))

    @property
    def n_instances(self) -> int:
        """Number of instances counted."""
        return sum(self.triples.values())

    def system(self, which: int) -> Any:
        """The counts of system A (``which=1``) or B (``which=2``) alone."""
        return counts_of_rows(self.triples, self.kind, self.multilabel, lambda row: (which,))[0]

    def swapped(self) -> PairedCounts:
        """The same counts with A and B exchanged."""
        return PairedCounts(
            {(t[0], t[2], t[1], *t[3:]): c for t, c in self.triples.items()}, self.multilabel, self.kind
        )

    def __add__(self, other: object) -> PairedCounts:
        if not isinstance(other, PairedCounts):
            return NotImplemented
        if (self.kind, self.multilabel) != (other.kind, other.multilabel):
            raise OptionError("cannot add paired counts made with different multi-label options")
        merged: Counter[Triple] = Counter(self.triples)
        merged.update(other.triples)
        return PairedCounts(merged, self.multilabel, self.kind)
