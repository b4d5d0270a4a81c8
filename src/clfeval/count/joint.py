"""Counts of several systems on the same gold: unique (gold, prediction 1, …, prediction k) rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from clfeval.count.labelsets import MultiLabel
from clfeval.count.limits import check_total, whole_count
from clfeval.count.paired import PairedCounts, counts_of_rows, system_kind_name
from clfeval.errors import InputError, OptionError

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks

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
    multilabel
        How label sets were counted (a :class:`~clfeval.MultiLabel`; ``True`` is its defaults), or ``None`` for one
        label per instance.
    kind
        The kind of each system's counts (:data:`clfeval.kinds.KINDS`): by default ``multi-label`` with
        ``multilabel``, else ``single-label``. Its :meth:`~clfeval.kinds.Kind.system_row` says how a row holds each
        system's instance.
    units
        The rows by unit, when the kind's instances come in units that tests must keep whole (a tagger's spans, by
        sentence or document); ``None``: none.
    options
        The counting options of the systems' counts (spans: the scheme and the unit), as results record them.
    """

    systems: tuple[str, ...]
    rows: Mapping[tuple[Any, ...], int]
    multilabel: MultiLabel | None = None
    kind: str = ""
    units: Blocks | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    _systems: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        systems = tuple(str(s) for s in self.systems)
        if len(set(systems)) != len(systems):
            repeated = sorted({s for s in systems if systems.count(s) > 1})
            raise OptionError(f"system names must be distinct; repeated: {', '.join(map(repr, repeated))}")
        rows = {tuple(k): whole_count(v, f"the count of {k!r}") for k, v in sorted(self.rows.items())}  # canonical
        check_total(sum(rows.values()), "the counts add up to")
        rows = {k: v for k, v in rows.items() if v}
        ml = MultiLabel.of(self.multilabel)
        kind = system_kind_name(self.kind, ml)
        from clfeval.kinds import KINDS  # the kinds know their counts; counts load them when first used

        extra = KINDS[kind].joint_extra
        if any(len(k) != len(systems) + 1 + extra for k in rows):
            raise InputError(
                f"every row must hold the gold value and {len(systems)} predictions"
                + (f", then {extra} more value(s) of each instance" if extra else "")
            )
        object.__setattr__(self, "systems", systems)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "multilabel", None if ml is None else MultiLabel(None, ml.empty, ml.duplicates))
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "options", dict(self.options))

    @property
    def n_instances(self) -> int:
        """Number of instances counted."""
        return sum(self.rows.values())

    def _column(self, name: str) -> int:
        if name not in self.systems:
            raise OptionError(f"unknown system {name!r}; the systems are {', '.join(map(repr, self.systems))}")
        return self.systems.index(name) + 1

    def system(self, name: str) -> Any:
        """The counts of one system alone (of the kind :attr:`kind`)."""
        column = self._column(name)
        if name not in self._systems:
            self._systems[name] = counts_of_rows(self.rows, self.kind, self.multilabel, lambda row: (column,))[0]
        return self._systems[name]

    def paired(self, a: str, b: str) -> PairedCounts:
        """The (gold, A, B) triples of systems ``a`` and ``b``."""
        i, j = self._column(a), self._column(b)
        triples: Counter[tuple[Any, ...]] = Counter()
        for row, c in self.rows.items():
            triples[self.triple(row, i, j)] += c
        return PairedCounts(triples, self.multilabel, self.kind)

    def triple(self, row: tuple[Any, ...], i: int, j: int) -> tuple[Any, ...]:
        """The (gold, A, B) triple of a row for the systems in columns ``i`` and ``j`` (from 1), with the values of
        the instance after the predictions (a kind's :attr:`~clfeval.kinds.Kind.joint_extra`)."""
        return (row[0], row[i], row[j], *row[len(self.systems) + 1 :])

    def seen_labels(self) -> tuple[set[str], set[str]]:
        """The labels in the gold data, and in any system's predictions."""
        from clfeval.kinds import KINDS

        kind = KINDS[self.kind]
        gold: set[str] = set()
        pred: set[str] = set()
        for name in self.systems:
            g, p = kind.labels_seen(self.system(name))
            gold |= g
            pred |= p
        return gold, pred

    def __add__(self, other: object) -> JointCounts:
        if not isinstance(other, JointCounts):
            return NotImplemented
        if other.systems != self.systems:
            raise OptionError(f"cannot add counts of systems {list(other.systems)} to counts of {list(self.systems)}")
        if (self.kind, self.multilabel) != (other.kind, other.multilabel):
            raise OptionError("cannot add joint counts made with different multi-label options")
        if self.options != other.options:
            raise OptionError(f"cannot add joint counts counted with {dict(other.options)} to {dict(self.options)}")
        merged: Counter[tuple[Any, ...]] = Counter(self.rows)
        merged.update(other.rows)
        units = None
        if self.units is not None and other.units is not None:
            from clfeval.count.blocks import concatenated  # units are for kinds that have them (spans)

            units = concatenated(self.units, other.units)
        return JointCounts(self.systems, merged, self.multilabel, self.kind, units, self.options)
