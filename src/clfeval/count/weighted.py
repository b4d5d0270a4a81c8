"""Counts with sample weights: how many instances of each (gold, predicted, weight) row occurred.

An instance of weight w adds w, not 1, to every count (scikit-learn's ``sample_weight``). The sufficient statistics
are the distinct (gold, predicted, weight) rows with the number m of instances of each: a score reads Σ m·w over the
rows of each cell, a bootstrap draws the instance counts m* (one multinomial over the rows) and reads Σ m*·w, which
is resampling instances with their weights. Weights that repeat (class or cost weights) keep the rows few; weights
that do not (continuous importance weights) make a row per instance.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import LabelSet, MultiLabel, _check_policies
from clfeval.count.limits import check_dense, check_total, whole_count
from clfeval.errors import InputError, OptionError

__all__ = [
    "WeightedConfusion",
    "WeightedLabelCounts",
    "WeightedLabelSetCounts",
    "check_sample_weight",
    "check_weight_sum",
    "weight_summary",
    "weights_note",
    "weighted_rows",
]


def check_sample_weight(
    sample_weight: Any, n: int, source: str = "sample_weight", *, positive_sum: bool = True
) -> np.ndarray:
    """``sample_weight`` as float64, one finite number ≥ 0 per instance (``n`` of them), not all 0 (unless
    ``positive_sum`` is false: a part of what is scored, an accumulator's batch, may weigh 0; the whole is checked
    when scored, :func:`check_weight_sum`).

    Raises
    ------
    InputError
        If it is not one number per instance, holds a value that is not a finite number ≥ 0, or sums to 0.
    """
    values = sample_weight.to_numpy() if hasattr(sample_weight, "to_numpy") else sample_weight
    try:
        w = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{source} must hold numbers (one weight ≥ 0 per instance)") from None
    if w.ndim != 1 or len(w) != n:
        raise InputError(f"{source} has shape {w.shape}: expected one weight per instance ({n})")
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0))
    if len(bad):
        raise InputError(f"{source}[{int(bad[0])}] is {float(w[bad[0]])!r}: a weight must be a finite number ≥ 0")
    if positive_sum and n and not w.sum() > 0:
        raise InputError(f"{source} sums to 0: at least one instance must have a weight above 0")
    return w


def check_weight_sum(total: float, source: str | None = None) -> None:
    """Counts with sample weights whose total weight ``total`` (Σ m·w) is 0 have no score: every measure divides by a
    sum of weights. The check of :func:`check_sample_weight` for what was read from files, count files and folds
    (``source`` names the fold or file when known); a part of a larger count may weigh 0, the counts scored may not.

    Raises
    ------
    InputError
        If ``total`` is not above 0.
    """
    if not total > 0:
        raise InputError("the instances' weights sum to 0: at least one instance must have a weight above 0", source)


def weight_summary(source: str, counts: Any) -> dict[str, Any]:
    """What a result records of the sample weights (``inputs.sample_weight``): where they came from (``source``:
    ``sample_weight=`` or the column's name), their sum and the number of instances they weigh. ``counts`` are
    weighted counts, or joint counts whose rows end with the weight."""
    if hasattr(counts, "weight_sum"):
        total, n = float(counts.weight_sum), int(counts.n_instances)
    else:
        total = float(sum(row[-1] * m for row, m in counts.rows.items()))
        n = int(sum(counts.rows.values()))
    return {"source": source, "sum": total, "n_instances": n}


def weights_note(summary: Mapping[str, Any]) -> str:
    """A report's note that sample weights were used: their source, the number of instances and their total weight
    (``summary`` as :func:`weight_summary` makes it)."""
    return (
        f"sample weights ({summary['source']}): every count and score weighs each instance by its weight "
        f"(N = {summary['n_instances']} instances of total weight {summary['sum']:.6g}); intervals and tests "
        "resample instances with their weights"
    )


@dataclass(frozen=True, eq=False)
class _Weighted:
    """Rows (gold, predicted, weight) → number of instances; the rows sorted (a canonical order for resampling)."""

    rows: Mapping[tuple[Any, Any, float], int]

    def _checked(self) -> dict[tuple[Any, Any, float], int]:
        """The rows as (gold, predicted, float weight) → whole count > 0, sorted; checked with a few vectorised tests
        (a Python loop only where a weight is not yet a float or a count not an int)."""
        keys = list(self.rows)
        if any(len(key) != 3 for key in keys):
            bad = next(key for key in keys if len(key) != 3)
            raise InputError(f"a row of weighted counts is (gold, predicted, weight), found {bad!r}")
        try:
            w = np.fromiter((key[2] for key in keys), dtype=np.float64, count=len(keys))
        except (TypeError, ValueError):
            raise InputError("the weights of weighted counts must be numbers") from None
        bad_w = np.flatnonzero(~np.isfinite(w) | (w < 0))
        if len(bad_w):
            raise InputError(f"the weight of the row {keys[int(bad_w[0])]!r} must be a finite number ≥ 0")
        values = list(self.rows.values())
        plain = all(type(m) is int for m in values) and all(type(key[2]) is float for key in keys)
        rows: dict[tuple[Any, Any, float], int] = {}
        if plain:
            if any(m < 0 for m in values):
                raise InputError("the counts of weighted counts must be whole numbers ≥ 0")
            rows = {key: m for key, m in zip(keys, values) if m}
        else:
            for key, m, weight in zip(keys, values, w.tolist()):
                m = whole_count(m, f"the count of {key!r}")
                if m:
                    k = (key[0], key[1], weight)
                    rows[k] = rows.get(k, 0) + m
        check_total(sum(rows.values()), "the counts add up to")
        ordered = dict(sorted(rows.items()))
        object.__setattr__(self, "_counts", np.fromiter(ordered.values(), dtype=np.int64, count=len(ordered)))
        object.__setattr__(self, "_weights", np.fromiter((k[2] for k in ordered), dtype=np.float64, count=len(ordered)))
        return ordered

    @property
    def counts(self) -> np.ndarray:
        """Each row's number of instances m, in the order of :attr:`rows` (int64)."""
        out: np.ndarray = self.__dict__["_counts"]
        return out

    @property
    def weights(self) -> np.ndarray:
        """Each row's weight w, in the order of :attr:`rows` (float64)."""
        out: np.ndarray = self.__dict__["_weights"]
        return out

    @property
    def n_instances(self) -> int:
        """The number of instances counted (not their weight)."""
        return int(self.counts.sum())

    @property
    def weight_sum(self) -> float:
        """Σ m·w: the instances' total weight."""
        return float(self.counts @ self.weights) if self.rows else 0.0


@dataclass(frozen=True, eq=False)
class WeightedLabelCounts(_Weighted):
    """Single-label counts with sample weights: how many instances of each (gold, predicted, weight) occurred.

    Made by ``clfeval.score(gold, pred, sample_weight=w)`` (and ``--weight-col``); they add up with ``+``.
    """

    def __post_init__(self) -> None:
        rows = self._checked()
        if any(not (isinstance(g, str) and isinstance(p, str)) for g, p, _ in rows):
            raise InputError("the gold and predicted labels of weighted single-label counts must be strings")
        object.__setattr__(self, "rows", rows)

    def __add__(self, other: object) -> WeightedLabelCounts:
        if not isinstance(other, WeightedLabelCounts):
            return NotImplemented
        merged = dict(self.rows)
        for key, m in other.rows.items():
            merged[key] = merged.get(key, 0) + m
        return WeightedLabelCounts(merged)

    def __radd__(self, other: object) -> WeightedLabelCounts:
        if other == 0:
            return self
        return self.__add__(other)

    def __repr__(self) -> str:
        return f"WeightedLabelCounts({len(self.rows)} rows, {self.n_instances} instances, weight {self.weight_sum:g})"


@dataclass(frozen=True, eq=False)
class WeightedLabelSetCounts(_Weighted):
    """Multi-label counts with sample weights: how many instances of each (gold set, predicted set, weight) occurred,
    counted under the ``duplicates`` and ``empty`` policies of a :class:`~clfeval.MultiLabel`."""

    duplicates: str = "keep"
    empty: str = "ignore"

    def __post_init__(self) -> None:
        _check_policies(self.duplicates, self.empty)
        rows = self._checked()
        if any(not (isinstance(g, tuple) and isinstance(p, tuple)) for g, p, _ in rows):
            raise InputError("the gold and predicted labels of weighted multi-label counts must be label-set tuples")
        object.__setattr__(self, "rows", rows)

    @property
    def multilabel(self) -> MultiLabel:
        """The counting policies, as a :class:`~clfeval.MultiLabel`."""
        return MultiLabel(empty=self.empty, duplicates=self.duplicates)

    def __add__(self, other: object) -> WeightedLabelSetCounts:
        if not isinstance(other, WeightedLabelSetCounts):
            return NotImplemented
        if (self.duplicates, self.empty) != (other.duplicates, other.empty):
            raise OptionError(
                "cannot add multi-label counts made with different duplicates/empty policies: "
                f"{self.duplicates}/{self.empty} and {other.duplicates}/{other.empty}"
            )
        merged = dict(self.rows)
        for key, m in other.rows.items():
            merged[key] = merged.get(key, 0) + m
        return WeightedLabelSetCounts(merged, self.duplicates, self.empty)

    def __radd__(self, other: object) -> WeightedLabelSetCounts:
        if other == 0:
            return self
        return self.__add__(other)

    def __repr__(self) -> str:
        return (
            f"WeightedLabelSetCounts({len(self.rows)} rows, {self.n_instances} instances, weight {self.weight_sum:g})"
        )


def weighted_rows(keys: Iterable[tuple[Any, ...]], weights: np.ndarray) -> dict[tuple[Any, ...], int]:
    """Rows of instances (``keys``: one tuple per instance) with each instance's weight appended, counted.

    Notes
    -----
    The weights are grouped by value first (``np.unique``), so the Python work is one dict operation per instance
    on small tuples; the cost of scoring then grows with the distinct rows, not the instances.
    """
    values, index = np.unique(np.asarray(weights, dtype=np.float64), return_inverse=True)
    listed = values.tolist()
    out: dict[tuple[Any, ...], int] = {}
    for key, i in zip(keys, index.reshape(-1).tolist()):
        row = (*key, listed[i])
        out[row] = out.get(row, 0) + 1
    return out


LabelSetRow = tuple[LabelSet, LabelSet, float]


class WeightedConfusion(ConfusionCounts):
    """The confusion matrix of weighted instances: each cell the total weight Σ m·w of its instances (float64).

    The matrix view of :class:`WeightedLabelCounts` (``Scores.confusion``), as scikit-learn's ``confusion_matrix(...,
    sample_weight=w)``; it is what a report shows, not counts to score (those are the weighted counts themselves).
    """

    @classmethod
    def of_cells(
        cls, labels: tuple[str, ...], gold: np.ndarray, pred: np.ndarray, weight: np.ndarray
    ) -> WeightedConfusion:
        """The matrix over ``labels`` of cells at positions (``gold``, ``pred``) with weights ``weight`` (cells may
        repeat: their weights add up; cells of weight 0 stay out)."""
        k = max(len(labels), 1)
        keys, inverse = np.unique(
            np.asarray(gold, dtype=np.int64) * k + np.asarray(pred, dtype=np.int64), return_inverse=True
        )
        total = np.bincount(inverse.reshape(-1), weights=np.asarray(weight, dtype=np.float64), minlength=len(keys))
        keep = total > 0
        out = cls.__new__(cls)
        out._set(tuple(labels), keys[keep] // k, keys[keep] % k, np.ascontiguousarray(total[keep]))
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (WeightedConfusion.of_cells, (self.labels, self.gold, self.pred, self.count))

    @property
    def n_instances(self) -> int:
        """Not the number of instances but their total weight (the matrix's sum), as a float."""
        return float(self.count.sum())  # type: ignore[return-value]

    def _bincount(self, codes: np.ndarray, weights: np.ndarray) -> np.ndarray:
        return np.bincount(codes, weights=weights, minlength=len(self.labels)).astype(np.float64)

    @property
    def cells(self) -> np.ndarray:
        """The dense K×K table of weights, rows gold and columns predicted (float64)."""
        cached = self.__dict__.get("_cells")
        if cached is None:
            k = len(self.labels)
            check_dense(k)
            cached = np.zeros((k, k))
            cached[self.gold, self.pred] = self.count
            cached.setflags(write=False)
            object.__setattr__(self, "_cells", cached)
        return cached

    def with_labels(self, labels: Any) -> WeightedConfusion:
        labels = tuple(labels)
        if labels == self.labels:
            return self
        index = {lab: i for i, lab in enumerate(labels)}
        position = np.array([index.get(lab, -1) for lab in self.labels], dtype=np.int64)
        g, p = position[self.gold], position[self.pred]
        if ((g < 0) | (p < 0)).any():
            raise ValueError("the new labels must hold every label with weight")
        return WeightedConfusion.of_cells(labels, g, p, self.count)

    def __add__(self, other: object) -> Any:
        raise OptionError("a weighted confusion matrix is a view: add the weighted counts instead")

    def __repr__(self) -> str:
        return (
            f"WeightedConfusion({len(self.labels)} labels, {self.n_cells} non-zero cells, weight {self.n_instances:g})"
        )
