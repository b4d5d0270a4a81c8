"""Multi-label 0/1 indicator matrices in memory as their distinct joint rows: what the tasks count of them.

The Accumulator's reader (:func:`clfeval.accumulator.batches.indicator_sets`) packs each matrix's rows into bits and
finds the distinct (gold, prediction …) rows with one sort; :class:`IndicatorRows` holds those rows as label sets and
each instance's row. Every count of the instances — label-set pairs, several systems' joint rows, blocks, folds,
rows with sample weights — is a ``bincount`` or ``np.unique`` of the instances' row numbers: Python runs once per
distinct row, never per instance. The label sets are checked and made canonical as label collections are
(:func:`clfeval.inputs.arrays.count_label_sets`), so a matrix and the same data as lists of labels count alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.count.labelsets import EMPTY_LABEL, EMPTY_SET, LabelSet, MultiLabel, canonical_set
from clfeval.errors import InputError

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks

__all__ = ["IndicatorRows"]

Row = tuple[LabelSet, ...]


@dataclass(frozen=True, eq=False)
class IndicatorRows:
    """Instances of indicator matrices as their distinct joint rows.

    Attributes
    ----------
    keys
        The distinct rows: one label set per matrix (gold, then each system's predictions), labels sorted by name.
    which
        Each instance's row: an index into ``keys`` (int64, one per instance, in instance order).
    roles
        What each matrix is (``gold``, ``pred``, ``pred 'A'`` …), for messages.
    names
        The labels of the columns, in column order.
    """

    keys: tuple[Row, ...]
    which: np.ndarray
    roles: tuple[str, ...]
    names: tuple[str, ...]

    @property
    def n_instances(self) -> int:
        """The number of instances (rows of each matrix)."""
        return len(self.which)

    def instances(self) -> list[list[LabelSet]]:
        """Each matrix's label sets, instance by instance (for a task that reads label collections one by one)."""
        listed = self.which.tolist()
        return [[self.keys[u][c] for u in listed] for c in range(len(self.roles))]

    def canonical(self, multilabel: MultiLabel) -> IndicatorRows:
        """The rows with each label set checked and made canonical under ``multilabel`` as a label collection is
        (:func:`~clfeval.inputs.arrays.count_label_sets`); rows that become equal (the empty set and a column named
        ``NONE`` under ``empty="label"``) merge.

        Raises
        ------
        InputError
            As the label collections would: naming the first instance whose set holds an empty label or ``∅`` (gold
            before predictions), then the first whose set cannot be canonical (``NONE`` beside another label).
        """
        from clfeval.inputs.arrays import _as_label_set  # the one check of an instance's labels

        names = set(self.names)
        if len(names) == len(self.names) and not names & {"", EMPTY_SET, EMPTY_LABEL}:
            # distinct names, none the checks refuse: every set (sorted by name, no repeats) is canonical as it is,
            # but for the empty set under empty="label"
            if multilabel.empty != "label":
                return self
            return IndicatorRows(
                tuple(tuple(s or (EMPTY_LABEL,) for s in key) for key in self.keys), self.which, self.roles, self.names
            )
        n_columns = len(self.roles)
        # each matrix's distinct label sets, and each row's set in it: the checks run once per distinct set
        distinct: list[list[LabelSet]] = []
        set_of: list[np.ndarray] = []
        for c in range(n_columns):
            index: dict[LabelSet, int] = {}
            codes = [index.setdefault(key[c], len(index)) for key in self.keys]
            distinct.append(list(index))
            set_of.append(np.array(codes, dtype=np.int64))

        def first(c: int, bad: Sequence[int]) -> int:
            """The first instance whose set in matrix ``c`` is one of ``bad``."""
            mask = np.zeros(len(distinct[c]), dtype=bool)
            mask[list(bad)] = True
            return int(np.flatnonzero(mask[set_of[c][self.which]])[0])

        for c, role in enumerate(self.roles):
            bad = []
            for s, labels in enumerate(distinct[c]):
                try:
                    _as_label_set(labels, role, -1, None)
                except InputError:
                    bad.append(s)
            if bad:
                at = first(c, bad)
                _as_label_set(self.keys[int(self.which[at])][c], role, at, None)  # raises, naming instance `at`
        made: list[list[LabelSet]] = []
        failed: list[tuple[int, int]] = []  # (first instance, matrix) of sets that cannot be canonical
        for c in range(n_columns):
            sets, bad = [], []
            for s, labels in enumerate(distinct[c]):
                try:
                    sets.append(canonical_set(labels, multilabel.duplicates, multilabel.empty))
                except InputError:
                    sets.append(labels)
                    bad.append(s)
            made.append(sets)
            if bad:
                failed.append((first(c, bad), c))
        if failed:
            at, c = min(failed)  # instance by instance, gold before predictions: the order label collections take
            canonical_set(self.keys[int(self.which[at])][c], multilabel.duplicates, multilabel.empty)  # raises
        rows: dict[Row, int] = {}
        renumber = np.array(
            [
                rows.setdefault(tuple(made[c][int(set_of[c][u])] for c in range(n_columns)), len(rows))
                for u in range(len(self.keys))
            ],
            dtype=np.int64,
        )
        return IndicatorRows(tuple(rows), renumber[self.which], self.roles, self.names)

    def tally(self, instances: np.ndarray | None = None) -> dict[Any, int]:
        """How often each distinct row occurs among ``instances`` (indices; ``None``: all): one ``bincount``."""
        which = self.which if instances is None else self.which[instances]
        counts = np.bincount(which, minlength=len(self.keys)).tolist()
        return {key: m for key, m in zip(self.keys, counts) if m}

    def weighted(self, weights: np.ndarray, instances: np.ndarray | None = None) -> dict[tuple[Any, ...], int]:
        """The rows of weighted counts (:mod:`clfeval.count.weighted`): each distinct (row, weight) with its number
        of instances among ``instances`` (``None``: all; ``weights``: one per instance taken) — the weight one more
        key column of one ``np.unique``."""
        which = self.which if instances is None else self.which[instances]
        values, index = np.unique(np.asarray(weights, dtype=np.float64), return_inverse=True)
        width = max(len(values), 1)
        keys, counts = np.unique(which * width + index.reshape(-1), return_counts=True)
        listed = values.tolist()
        return {(*self.keys[k // width], listed[k % width]): m for k, m in zip(keys.tolist(), counts.tolist())}

    def blocks(self, blocks: Any, unit: str) -> Blocks:
        """The instances grouped in ``blocks`` (each instance's block id), as
        :func:`~clfeval.inputs.arrays.count_in_blocks` groups label collections."""
        from clfeval.count.blocks import Blocks  # loaded when blocks are given
        from clfeval.inputs.arrays import block_values_of

        return Blocks.of_codes(self.keys, self.which, block_values_of(blocks, self.n_instances, self.roles[0]), unit)
