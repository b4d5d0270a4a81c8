"""Every reported score as a function of cell-type weights, evaluated for many weight vectors at once.

The bootstrap, the jackknife, the delta method's derivatives and randomization tests all need
the same thing: the scores of a re-weighted data set, thousands of times. :class:`ScoreFunction`
gives them, with the very arithmetic :func:`clfeval.score_counts` uses (the per-label measures and
the :data:`clfeval.AVERAGES` registry work on arrays with a leading resample axis).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.score.averages import AVERAGES, MEASURES, SampleSums
from clfeval.score.cells import CellTypes
from clfeval.score.ratios import ratio
from clfeval.score.result import Key, Scores
from clfeval.score.scorer import average_measures, per_label_measures, relative

__all__ = ["PER_LABEL_MEASURES", "OVERALL", "ScoreFunction"]

#: The per-label measures, in report order (``f`` is F_β).
PER_LABEL_MEASURES = ("precision", "recall", "f", "specificity")
#: The overall measures of each task.
OVERALL: Mapping[str, tuple[str, ...]] = {
    "single-label": ("accuracy", "micro_fpr"),
    "multi-label": ("accuracy", "hamming_loss", "micro_fpr"),
}


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
    task: str

    @classmethod
    def of(cls, scores: Scores) -> "ScoreFunction":
        """The score function of ``scores``: same counts, label set, β and zero-division choices.

        lfb weights from training data stay fixed; lfb weights from the test gold are
        recomputed from each weight vector, as they would be from a new test set.
        """
        cells, weights = CellTypes.of(scores.counts, scores.labels, scores.beta)
        train = (np.array([scores.lfb_frequencies[lab] for lab in scores.labels])
                 if scores.lfb_source == "train" else None)
        return cls.of_cells(cells, weights, task=scores.task, beta=scores.beta, zero_division=scores.zero_division,
                            undefined=scores.undefined_policy, train_frequencies=train)

    @classmethod
    def of_cells(cls, cells: CellTypes, weights: np.ndarray, *, task: str, beta: float, zero_division: float,
                 undefined: str, train_frequencies: np.ndarray | None) -> "ScoreFunction":
        """A score function over given cell types (``compare`` builds its own arrangements of types)."""
        averages = tuple(name for name, avg in AVERAGES.items() if task in avg.tasks)
        keys: list[Key] = [("per_label", lab, m) for lab in cells.labels for m in PER_LABEL_MEASURES]
        keys += [("averages", name, m) for name in averages for m in MEASURES]
        keys += [(name,) for name in OVERALL[task]]
        return cls(cells, np.asarray(weights, dtype=np.float64), tuple(keys), beta, zero_division, undefined,
                   train_frequencies, averages, task)

    def index(self, key: Key) -> int:
        """The column of ``key``."""
        return self.keys.index(key)

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        """The scores for each row of ``weights`` (shape (B, U) → (B, S))."""
        return self.from_sums(self.cells.sums(weights))

    def from_sums(self, sums: np.ndarray) -> np.ndarray:
        """The scores from the sums ``weights @ M`` (shape (B, D) → (B, S)); see :class:`CellTypes`."""
        c = self.cells
        tp, fp, fn, present = (sums[:, c.column(name)] for name in ("tp", "fp", "fn", "present"))
        n = sums[:, c.column("n")][:, 0]
        tn = n[:, None] - present
        lc = LabelCounts.trusted(c.labels, tp, fp, fn, tn, n)
        per = per_label_measures(lc, self.beta, self.zero_division)
        specificity = ratio(tn, tn + fp, self.zero_division)[0]
        freqs = self.train_frequencies if self.train_frequencies is not None else relative(lc.support)
        samples = None
        if c.multilabel:
            samples = SampleSums({m: sums[:, c.column(f"sum_{m}")][:, 0] for m in MEASURES},
                                 {m: sums[:, c.column(f"defined_{m}")][:, 0] for m in MEASURES}, n)
        averages = average_measures(per, beta=self.beta, zero_division=self.zero_division, undefined=self.undefined,
                                    frequencies=freqs, samples=samples)
        per_values = {**per.values, "specificity": specificity}
        columns = [np.stack([per_values[m] for m in PER_LABEL_MEASURES], axis=-1).reshape(len(n), -1)]
        columns += [np.stack([averages[name][m] for name in self.averages for m in MEASURES], axis=-1)]
        fp_sum, fn_sum, tn_sum = fp.sum(axis=-1), fn.sum(axis=-1), tn.sum(axis=-1)
        overall = {"accuracy": ratio(sums[:, c.column("exact")][:, 0], n, self.zero_division)[0],
                   "micro_fpr": ratio(fp_sum, fp_sum + tn_sum, self.zero_division)[0]}
        if c.multilabel:
            overall["hamming_loss"] = ratio(fp_sum + fn_sum, n * len(c.labels), self.zero_division)[0]
        columns.append(np.stack([overall[name] for name in OVERALL[self.task]], axis=-1))
        return np.concatenate(columns, axis=-1)

    def point(self) -> np.ndarray:
        """The scores of the observed counts (length S)."""
        return self(self.weights[None, :])[0]

    @staticmethod
    def value_of(scores: Scores, key: Key) -> float:
        """The value ``scores`` reports at ``key``."""
        if key[0] == "per_label":
            return float(getattr(scores.per_label[key[1]], key[2]))
        if key[0] == "averages":
            return float(scores.averages[key[1]][key[2]])
        value = getattr(scores, key[0])
        return float("nan") if value is None else float(value)

