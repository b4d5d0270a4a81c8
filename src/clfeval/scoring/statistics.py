"""Every reported score as a function of cell-type weights, evaluated for many weight vectors at once.

The point estimate, the bootstrap, the jackknife, the delta method's derivatives and the
randomization tests all need the same thing: the scores of a (re-weighted) data set. A
:class:`ScoreFunction` gives them, from the one computation each measure has in
:data:`clfeval.scoring.measures.MEASURES` and each average in :data:`clfeval.AVERAGES` (both work on
arrays with a leading axis of count tables).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.scoring.averages import AVERAGES, AverageInput, PerLabel, SampleSums
from clfeval.scoring.cells import CellTypes
from clfeval.scoring.measures import (
    MEASURES,
    Setting,
    Tallies,
    Values,
    averaged_measures,
    label_measures,
    overall_measures,
)
from clfeval.scoring.parts import Parts, Separable
from clfeval.scoring.ratios import ratio
from clfeval.scoring.scores import Key, Scores

if TYPE_CHECKING:
    from clfeval.kinds import Kind, Row

__all__ = [
    "Evaluation",
    "Group",
    "PER_LABEL_MEASURES",
    "ScoreFunction",
    "family_measures",
    "overall_names",
    "relative",
]

#: A group of scores computed together from one set of parts: ``("averages", name)`` or ``("overall", measure)``.
Group = tuple[str, str]

#: The per-label measures, in report order (``f`` is F_β).
PER_LABEL_MEASURES: tuple[str, ...] = tuple(m.name for m in label_measures())


def family_measures(family: str) -> tuple[str, ...]:
    """The names of the per-label measures of the measure family ``family``, in report order (spans have no true
    negatives, so no measure that reads them)."""
    return tuple(m.name for m in label_measures(family))


def overall_names(family: str) -> tuple[str, ...]:
    """The names of the overall measures of the measure family ``family``, in report order."""
    return tuple(m.name for m in overall_measures(family))


def relative(counts: np.ndarray) -> np.ndarray:
    """Counts divided by their sum over the last axis (all zeros stay zeros)."""
    counts = np.asarray(counts, dtype=np.float64)
    return ratio(counts, counts.sum(axis=-1, keepdims=True), 0.0)[0]


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Every score of B count tables, with where each is undefined (0/0).

    Attributes
    ----------
    counts
        The per-label counts over the label set ((B, K) arrays).
    per_label
        Measure → (values, undefined), (B, K) each.
    averages
        Average → measure → (B,) values.
    overall
        Measure → (values, undefined), (B,) each.
    frequencies
        (B, K) the lfb weights used.
    tallies
        The sums the measures read.
    """

    counts: LabelCounts
    per_label: Mapping[str, Values]
    averages: Mapping[str, Mapping[str, np.ndarray]]
    overall: Mapping[str, Values]
    frequencies: np.ndarray
    tallies: Tallies


@dataclass(frozen=True, eq=False)
class ScoreFunction:
    """The scores of a :class:`Scores` result as a function of the weights of its cell types.

    ``f(weights)`` for weights of shape (B, U) returns a (B, S) array whose columns follow
    :attr:`keys`; ``f(f.weights)`` reproduces the result's own scores.

    Attributes
    ----------
    cells
        The cell types and their linear map to sums.
    weights
        The observed count of each type.
    keys
        The address of each score (column).
    """

    cells: CellTypes
    weights: np.ndarray
    keys: tuple[Key, ...]
    beta: float
    zero_division: float
    undefined: str
    train_frequencies: np.ndarray | None
    averages: tuple[str, ...]
    family: str

    @classmethod
    def of(cls, scores: Scores) -> ScoreFunction:
        """The score function of ``scores``: same counts, label set, β and zero-division choices.

        lfb weights from training data stay fixed; lfb weights from the test gold are
        recomputed from each weight vector, as they would be from a new test set.
        """
        from clfeval.kinds import KINDS

        kind = KINDS[scores.task]
        cells, weights = kind.cells(scores.counts, scores.labels, beta=scores.beta, table=scores.table)
        train = (
            np.array([scores.lfb_frequencies[lab] for lab in scores.labels]) if scores.lfb_source == "train" else None
        )
        return cls.of_cells(
            cells,
            weights,
            family=scores.family,
            beta=scores.beta,
            zero_division=scores.zero_division,
            undefined=scores.undefined_policy,
            train_frequencies=train,
        )

    @classmethod
    def of_cells(
        cls,
        cells: CellTypes,
        weights: np.ndarray,
        *,
        family: str,
        beta: float,
        zero_division: float,
        undefined: str,
        train_frequencies: np.ndarray | None,
        keys: Sequence[Key] | None = None,
    ) -> ScoreFunction:
        """A score function over given cell types (``compare`` builds its own arrangements of types).

        ``keys`` restricts it to those scores, in that order (a test of macro F1 computes macro F1 only); by
        default it gives every score.
        """
        averages = tuple(name for name, avg in AVERAGES.items() if family in avg.tasks)
        if keys is None:
            per = family_measures(family)
            every: list[Key] = [("per_label", lab, m) for lab in cells.labels for m in per]
            every += [("averages", name, m) for name in averages for m in averaged_measures(family)]
            every += [(name,) for name in overall_names(family)]
            keys = every
        return cls(
            cells,
            np.asarray(weights, dtype=np.float64),
            tuple(keys),
            beta,
            zero_division,
            undefined,
            train_frequencies,
            averages,
            family,
        )

    def on(self, cells: CellTypes, weights: np.ndarray, keys: Sequence[Key] | None = None) -> ScoreFunction:
        """The same scores (label set, β, 0/0 choices, training frequencies) of other cell types, with their weights:
        ``keys`` (default: this function's) are the scores it computes."""
        return ScoreFunction.of_cells(
            cells,
            weights,
            family=self.family,
            beta=self.beta,
            zero_division=self.zero_division,
            undefined=self.undefined,
            train_frequencies=self.train_frequencies,
            keys=self.keys if keys is None else keys,
        )

    def on_rows(
        self, kind: Kind, rows: Sequence[Row], weights: np.ndarray, keys: Sequence[Key] | None = None
    ) -> ScoreFunction:
        """The same scores of other rows of a kind (``compare`` puts system A's rows, then B's, side by side), over
        this function's label set and matrix order."""
        cells = kind.cells_of_rows(rows, self.cells.labels, beta=self.beta, table=self.cells.table)
        return self.on(cells, weights, keys)

    @cached_property
    def _plan(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """What :attr:`keys` need computed: per-label measures, averages, averaged measures, overall measures."""
        per, averaged, names, overall = set(), set(), set(), set()
        for key in self.keys:
            if key[0] == "per_label":
                per.add(key[2])
            elif key[0] == "averages":
                names.add(key[1])
                averaged.add(key[2])
            else:
                overall.add(key[0])
        if "macro_fa" in names and "f" in averaged:  # FA's F is the F of macro precision and macro recall
            averaged |= {"precision", "recall"}
        per |= averaged
        return (
            tuple(m for m in family_measures(self.family) if m in per),
            tuple(a for a in self.averages if a in names),
            tuple(m for m in averaged_measures(self.family) if m in averaged),
            tuple(m for m in overall_names(self.family) if m in overall),
        )

    @property
    def separates(self) -> bool:
        """Whether every overall measure of :attr:`keys` is a :class:`~clfeval.scoring.parts.Separable` (a measure
        registered with :func:`clfeval.register_measure` that reads each label's counts as a whole is not: the
        methods then go cell type by cell type)."""
        return all(isinstance(MEASURES[m].compute, Separable) for m in self._plan[3])

    def sums_read(self) -> np.ndarray:
        """Which of the D sums the scores of :attr:`keys` read: those that the measures and averages computed for
        them declare (``reads`` of their :data:`MEASURES` and :data:`~clfeval.AVERAGES` entries), through the
        layout of the cells (:meth:`CellTypes.columns_of`). A product of swaps can leave the others at 0 (and stay
        in float32)."""
        per, names, averaged, overall = self._plan
        reads: set[str] = set()
        for m in (*per, *averaged, *overall):
            reads |= MEASURES[m].reads
        for name in names:
            reads |= AVERAGES[name].reads
        return self.cells.columns_of(reads)

    @cached_property
    def _full(self) -> bool:
        """Whether :attr:`keys` are every score in the default order (written block by block)."""
        return (
            self.keys
            == ScoreFunction.of_cells(
                self.cells,
                self.weights,
                family=self.family,
                beta=self.beta,
                zero_division=self.zero_division,
                undefined=self.undefined,
                train_frequencies=self.train_frequencies,
            ).keys
        )

    @cached_property
    def _columns(self) -> dict[Key, int]:
        return {key: i for i, key in enumerate(self.keys)}

    def index(self, key: Key) -> int:
        """The column of ``key``."""
        return self._columns[key]

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        """The scores for each row of ``weights`` (shape (B, U) → (B, S))."""
        return self.from_sums(self.cells.sums(weights))

    def _inputs(self, sums: np.ndarray) -> tuple[Setting, Tallies, LabelCounts, dict[str, Values], AverageInput]:
        """What the measures read from the sums (shape (B, D)): the tallies, the per-label counts and measures over
        the label set, and the averages' input."""
        return self._read(self.cells.tallies(np.asarray(sums, dtype=np.float64)))

    def _read(
        self, t: Tallies, labels: Sequence[str] | None = None, frequencies: np.ndarray | None = None
    ) -> tuple[Setting, Tallies, LabelCounts, dict[str, Values], AverageInput]:
        """What the measures read from tallies ``t``: by default of the table's labels; or of other columns, named
        ``labels`` (as many as ``t.k``), with their lfb training ``frequencies`` when there are such."""
        setting = Setting(self.beta, self.zero_division, self.cells.multilabel)
        per_measures, _, averaged, _ = self._plan
        tp, fp, fn, tn = t.label_set()
        lc = LabelCounts.trusted(self.cells.labels if labels is None else tuple(labels), tp, fp, fn, tn, t.n)
        per = {m: MEASURES[m].compute(tp, fp, fn, tn, setting) for m in per_measures}
        samples = None
        if t.samples is not None:
            every = averaged_measures()  # the layout's per-instance sums: every averaged measure's
            samples = SampleSums({m: t.samples[m][0] for m in every}, {m: t.samples[m][1] for m in every}, t.n)
        per_label = PerLabel(lc, {m: v for m, (v, _) in per.items()}, {m: u for m, (_, u) in per.items()})
        inp = AverageInput(
            per_label,
            self.beta,
            self.zero_division,
            self.undefined,
            frequencies if labels is not None else self._train,
            samples,
            averaged,
        )
        return setting, t, lc, per, inp

    @cached_property
    def _train(self) -> np.ndarray | None:
        return None if self.train_frequencies is None else np.asarray(self.train_frequencies, dtype=np.float64)

    def separated(self, sums: np.ndarray) -> tuple[dict[str, np.ndarray], dict[Group, Parts]]:
        """The scores of :attr:`keys` taken apart, for the sums ``weights @ M`` (shape (B, D)): each per-label
        measure's values over the label set ((B, K)), and the per-label parts of every average and overall measure
        (:class:`~clfeval.scoring.parts.Separable`), by group: ``("averages", name)`` or ``("overall", measure)``.
        :meth:`combined` turns sums of the parts back into scores."""
        return self.parts_of(self.cells.tallies(np.asarray(sums, dtype=np.float64)))

    def parts_of(
        self, t: Tallies, labels: Sequence[str] | None = None, frequencies: np.ndarray | None = None
    ) -> tuple[dict[str, np.ndarray], dict[Group, Parts]]:
        """:meth:`separated` of tallies ``t`` (see :meth:`_read` for ``labels`` and ``frequencies``: the jackknife
        evaluates the parts of single labels with one instance left out, side by side as the columns of ``t``)."""
        setting, t, _, per, inp = self._read(t, labels, frequencies)
        _, average_names, _, overall_wanted = self._plan
        parts: dict[Group, Parts] = {("averages", name): AVERAGES[name].compute.parts(inp) for name in average_names}
        for m in overall_wanted:
            compute = MEASURES[m].compute
            assert isinstance(compute, Separable)
            parts[("overall", m)] = compute.parts(t, setting)
        return {m: v for m, (v, _) in per.items()}, parts

    def combined(self, group: Group, reduced: Mapping[str, np.ndarray], sums: np.ndarray) -> dict[Key, np.ndarray]:
        """The scores of ``group`` (see :meth:`separated`) from the sums of its parts over the labels (arrays of any
        shape that broadcasts with the rows of ``sums``, whose scalar sums — N, exact matches … — they read)."""
        return self.combined_with(group, reduced, self.cells.tallies(np.asarray(sums, dtype=np.float64)))

    def combined_with(self, group: Group, reduced: Mapping[str, np.ndarray], t: Tallies) -> dict[Key, np.ndarray]:
        """:meth:`combined` with the scalar sums of tallies ``t`` (whose per-label arrays it does not read)."""
        setting, t, _, _, inp = self._read(t, () if np.shape(t.tp)[-1] == 0 else None)
        kind, name = group
        if kind == "averages":
            values = AVERAGES[name].compute.combine(reduced, inp)
            return {("averages", name, m): values[m] for m in inp.measures}
        compute = MEASURES[name].compute
        assert isinstance(compute, Separable)
        return {(name,): compute.combine(reduced, t, setting)[0]}

    def evaluate(self, sums: np.ndarray) -> Evaluation:
        """Every score, and where it is 0/0, from the sums ``weights @ M`` (shape (B, D)); see :class:`CellTypes`.

        Notes
        -----
        Per-label measures and the averages run over the label set; single-label overall measures that
        take the whole confusion matrix (MCC, κ, balanced accuracy) run over every label of it.
        """
        setting, t, lc, per, inp = self._inputs(sums)
        _, average_names, _, overall_wanted = self._plan
        freqs = self.train_frequencies if self.train_frequencies is not None else relative(lc.support)
        averages = {name: AVERAGES[name].compute(inp) for name in average_names}
        overall = {m: MEASURES[m].compute(t, setting) for m in overall_wanted}
        return Evaluation(lc, per, averages, overall, np.broadcast_to(freqs, np.shape(lc.tp)), t)

    def from_sums(self, sums: np.ndarray) -> np.ndarray:
        """The scores from the sums ``weights @ M`` (shape (B, D) → (B, S)); see :class:`CellTypes`."""
        e = self.evaluate(sums)
        b, k = np.shape(sums)[0], len(self.cells.labels)
        out = np.empty((b, len(self.keys)))
        if not self._full:  # a chosen few scores (compare's metrics): one column each
            index = {lab: i for i, lab in enumerate(self.cells.labels)}
            for column, key in enumerate(self.keys):
                if key[0] == "per_label":
                    out[:, column] = e.per_label[key[2]][0][:, index[key[1]]]
                elif key[0] == "averages":
                    out[:, column] = e.averages[key[1]][key[2]]
                else:
                    out[:, column] = e.overall[key[0]][0]
            return out
        measures = family_measures(self.family)
        per_label = out[:, : k * len(measures)].reshape(b, k, len(measures))
        for j, m in enumerate(measures):  # written in place: key order is (label, measure)
            per_label[:, :, j] = e.per_label[m][0]
        column = k * len(measures)
        for name in self.averages:
            for m in averaged_measures(self.family):
                out[:, column] = e.averages[name][m]
                column += 1
        for name in overall_names(self.family):
            out[:, column] = e.overall[name][0]
            column += 1
        return out

    def point(self) -> np.ndarray:
        """The scores of the observed counts (length S)."""
        scores: np.ndarray = self(self.weights[None, :])[0]
        return scores

    @staticmethod
    def value_of(scores: Scores, key: Key) -> float:
        """The value ``scores`` reports at ``key`` (:meth:`Scores.value_at`)."""
        return scores.value_at(key)
