"""What inference needs of a score function: the protocols the interval methods and paired tests are written against.

Every method of :mod:`clfeval.infer` treats the scores as a function of the weights of kinds of instance (cell
types): the bootstrap draws weights, randomization moves them, the jackknife leaves one out, the delta method
differentiates. :class:`Statistic` is what all of them need; :class:`SeparableStatistic` adds what the
O(types + labels) delta method and jackknife read (each score written as per-label parts, summed, then combined,
over types that each stand for one instance); a statistic without those parts gets the type-by-type methods, which
need nothing more. :class:`clfeval.scoring.statistics.ScoreFunction` is both; a new kind's cell types (a weight per
instance, say) may make it only the first (:func:`separable`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from clfeval.scoring.scores import Key

if TYPE_CHECKING:
    from clfeval.kinds import Kind, Row
    from clfeval.scoring.cells import CellTypes
    from clfeval.scoring.measures import Tallies
    from clfeval.scoring.parts import Parts

__all__ = ["SeparableStatistic", "Statistic", "SumMap", "separable"]


@runtime_checkable
class SumMap(Protocol):
    """The linear map from type weights to the sums every score reads (``sums = weights @ M``)."""

    @property
    def n_types(self) -> int:
        """U, the number of types."""

    @property
    def table(self) -> tuple[str, ...]:
        """The labels whose per-label sums the map holds, in order."""

    @property
    def width(self) -> int:
        """D, the number of sums."""

    @property
    def unit_types(self) -> bool:
        """Whether every type stands for one instance (adds 1 to N): what leaving one instance out assumes."""

    def sums(self, weights: np.ndarray) -> np.ndarray:
        """``weights @ M`` for weights of shape (..., U)."""

    def rows_of(self, types: np.ndarray) -> np.ndarray:
        """Rows ``M[types]`` as a dense (len(types), D) array."""

    def sparse_rows_of(self, types: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows ``M[types]`` as their non-zeros: (row in ``types``, column, value)."""


@runtime_checkable
class Statistic(Protocol):
    """Scores as a function of type weights: what the bootstrap, the type-by-type jackknife and delta method, and
    randomization need.

    ``keys`` are the columns of what :meth:`__call__` returns; ``weights`` the observed count of each type (float64,
    length U); ``family`` whose measures these are (their ranges: a Wald interval is clipped to them).
    """

    @property
    def keys(self) -> tuple[Key, ...]:
        """The address of each score, in column order."""

    @property
    def weights(self) -> np.ndarray:
        """The observed count of each type."""

    @property
    def family(self) -> str:
        """Whose measures these are."""

    @property
    def cells(self) -> SumMap:
        """The types' linear map to sums."""

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        """The scores of each row of type weights ((B, U) → (B, S))."""

    def from_sums(self, sums: np.ndarray) -> np.ndarray:
        """The scores of each row of sums ((B, D) → (B, S))."""

    def index(self, key: Key) -> int:
        """The column of ``key``."""

    def point(self) -> np.ndarray:
        """The scores of the observed weights (length S)."""

    def sums_read(self) -> np.ndarray:
        """Which of the D sums the scores read (a mask): sums no score reads need not move."""

    def on_rows(
        self, kind: Kind, rows: Sequence[Row], weights: np.ndarray, keys: Sequence[Key] | None = None
    ) -> Statistic:
        """The same scores (label set, β, 0/0 choices) of other rows of a kind, with their weights: ``compare`` puts
        system A's rows, then B's, side by side; ``keys`` (default: these) are the scores it computes."""


@runtime_checkable
class SeparableStatistic(Statistic, Protocol):
    """A statistic whose scores are per-label parts summed over the labels, then combined
    (:mod:`clfeval.scoring.parts`): the delta method differentiates it label by label and the jackknife leaves one
    instance out of each label's counts, at O(types + labels)."""

    @property
    def train_frequencies(self) -> np.ndarray | None:
        """The lfb weights of training data, fixed (``None``: from each resample's gold)."""

    @property
    def cells(self) -> CellTypes:
        """The cell types, whose layout of sums the parts read."""

    def separated(self, sums: np.ndarray) -> tuple[dict[str, np.ndarray], dict[tuple[str, str], Parts]]:
        """Each per-label measure's values and every other score's parts, for rows of sums."""

    def parts_of(
        self, t: Tallies, labels: Sequence[str] | None = None, frequencies: np.ndarray | None = None
    ) -> tuple[dict[str, np.ndarray], dict[tuple[str, str], Parts]]:
        """:meth:`separated` of tallies."""

    def combined(
        self, group: tuple[str, str], reduced: Mapping[str, np.ndarray], sums: np.ndarray
    ) -> dict[Key, np.ndarray]:
        """A group's scores from the sums of its parts."""

    def combined_with(
        self, group: tuple[str, str], reduced: Mapping[str, np.ndarray], t: Tallies
    ) -> dict[Key, np.ndarray]:
        """:meth:`combined` with the scalar sums of tallies ``t``."""

    @property
    def separates(self) -> bool:
        """Whether every score it computes is written in parts (a registered overall measure that reads each
        label's counts as a whole is not)."""


def separable(f: Statistic) -> bool:
    """Whether ``f`` gives the per-label parts the O(types + labels) methods read, over types that are one instance
    each (else the methods go type by type)."""
    return isinstance(f, SeparableStatistic) and f.cells.unit_types and f.separates
