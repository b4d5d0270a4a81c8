"""Counts with sample weights: how many instances of each (gold, predicted, weight) row occurred.

An instance of weight w adds w, not 1, to every count (scikit-learn's ``sample_weight``). The sufficient statistics
are the distinct (gold, predicted, weight) rows with the number m of instances of each: a score reads Σ m·w over the
rows of each cell, a bootstrap draws the instance counts m* (one multinomial over the rows) and reads Σ m*·w, which
is resampling instances with their weights. Weights that repeat (class or cost weights) keep the rows few; weights
that do not (continuous importance weights) make a row per instance.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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
    "WeightedRows",
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


def _checked_rows(given: Mapping[tuple[Any, Any, float], int]) -> dict[tuple[Any, Any, float], int]:
    """Rows as (gold, predicted, float weight) → whole count > 0, equal rows merged; checked with a few vectorised
    tests (a Python loop only where a weight is not yet a float or a count not an int)."""
    keys = list(given)
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
    values = list(given.values())
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
    return rows


@dataclass(frozen=True, eq=False)
class _Weighted:
    """Rows (gold, predicted, weight) → number of instances; the rows sorted (a canonical order for resampling)."""

    rows: Mapping[tuple[Any, Any, float], int]

    def _checked(self) -> dict[tuple[Any, Any, float], int]:
        """The rows checked (:func:`_checked_rows`) and sorted by (gold, predicted, weight), with their counts and
        weights as arrays: the distinct (gold, predicted) pairs sorted, then the rows by (pair's rank, weight)."""
        rows = _checked_rows(self.rows)
        keys = list(rows)
        pairs: dict[tuple[Any, Any], int] = {}
        which = np.fromiter((pairs.setdefault((k[0], k[1]), len(pairs)) for k in keys), np.int64, count=len(keys))
        rank = np.empty(len(pairs), dtype=np.int64)
        rank[[pairs[pair] for pair in sorted(pairs)]] = np.arange(len(pairs))
        weights = np.fromiter((k[2] for k in keys), dtype=np.float64, count=len(keys))
        ordered = {keys[i]: rows[keys[i]] for i in np.lexsort((weights, rank[which])).tolist()}
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


class WeightedLabelCounts:
    """Single-label counts with sample weights: how many instances of each (gold, predicted, weight) occurred.

    Made by ``clfeval.score(gold, pred, sample_weight=w)`` (and ``--weight-col``); they add up with ``+``. ``rows``
    maps (gold label, predicted label, weight) to a whole count ≥ 0; the counts hold them as arrays (as
    :class:`~clfeval.ConfusionCounts` holds its cells), which is what scoring reads.

    Attributes
    ----------
    labels
        The labels that occur in a row, sorted as strings.
    gold, pred, weights, counts
        The distinct rows: gold and predicted label positions (int64), weight (float64 ≥ 0) and number of instances
        m (int64 > 0), sorted by (gold label, predicted label, weight) — the canonical order of :attr:`rows`, of the
        kind's cell types and of a seeded resample — each row once.

    Notes
    -----
    Made from arrays (:meth:`of_codes`), a row costs no Python work: the rows are sorted by a few ``argsort`` and
    equal rows merged by ``np.add.reduceat``, so continuous weights (a row per instance) stay vectorised. ``+``
    merges two counts by the same sort. :attr:`rows`, a dict, is built on first use only (count files, small data).
    """

    labels: tuple[str, ...]
    gold: np.ndarray
    pred: np.ndarray
    weights: np.ndarray
    counts: np.ndarray

    def __init__(self, rows: Mapping[tuple[Any, Any, float], int]) -> None:
        checked = _checked_rows(rows)
        if any(not (isinstance(g, str) and isinstance(p, str)) for g, p, _ in checked):
            raise InputError("the gold and predicted labels of weighted single-label counts must be strings")
        labels = sorted({lab for g, p, _ in checked for lab in (g, p)})
        index = {lab: i for i, lab in enumerate(labels)}
        size = len(checked)
        gold = np.fromiter((index[g] for g, _, _ in checked), dtype=np.int64, count=size)
        pred = np.fromiter((index[p] for _, p, _ in checked), dtype=np.int64, count=size)
        weights = np.fromiter((w for _, _, w in checked), dtype=np.float64, count=size)
        counts = np.fromiter(checked.values(), dtype=np.int64, count=size)
        self._set(*_canonical(labels, gold, pred, weights, counts))

    @classmethod
    def of_codes(
        cls, names: Sequence[str], gold: np.ndarray, pred: np.ndarray, weights: np.ndarray, counts: Any = None
    ) -> WeightedLabelCounts:
        """Counts of rows given as positions into ``names`` (distinct strings): ``counts[u]`` instances (default 1
        each) of gold ``names[gold[u]]``, predicted ``names[pred[u]]`` and weight ``weights[u]`` (checked: finite
        and ≥ 0, as :func:`check_sample_weight` checks them). Rows may repeat (their counts add up); rows of count 0
        and labels in no row are dropped.

        Raises
        ------
        InputError
            If a weight is not a finite number ≥ 0, or the counts add up to more than float64 keeps exact.
        """
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
        bad = np.flatnonzero(~np.isfinite(w) | (w < 0))
        if len(bad):
            raise InputError(f"the weight {float(w[bad[0]])!r} of weighted counts must be a finite number ≥ 0")
        m = np.ones(len(w), dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64).reshape(-1)
        if len(m) and m.min() < 0:
            raise InputError("the counts of weighted counts must be whole numbers ≥ 0")
        check_total(int(m.sum()), "the counts add up to")
        out = cls.__new__(cls)
        g, p = (np.asarray(a, dtype=np.int64).reshape(-1) for a in (gold, pred))
        out._set(*_canonical(list(names), g, p, w, m))
        return out

    def _set(
        self, labels: tuple[str, ...], gold: np.ndarray, pred: np.ndarray, weights: np.ndarray, counts: np.ndarray
    ) -> None:
        for a in (gold, pred, weights, counts):
            a.setflags(write=False)
        for name, value in zip(("labels", "gold", "pred", "weights", "counts"), (labels, gold, pred, weights, counts)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"WeightedLabelCounts is immutable: cannot set {name}")

    def __reduce__(self) -> tuple[Any, ...]:  # pickling (Dask ships counts between processes)
        return (_rebuilt, (self.labels, self.gold, self.pred, self.weights, self.counts))

    @property
    def rows(self) -> Mapping[tuple[str, str, float], int]:
        """The rows (gold label, predicted label, weight) → number of instances, in the canonical order (built on
        first use: what count files and rows of several systems read; scoring reads the arrays)."""
        cached = self.__dict__.get("_rows")
        if cached is None:
            names = np.array(self.labels, dtype=object)
            cached = dict(
                zip(
                    zip(names[self.gold].tolist(), names[self.pred].tolist(), self.weights.tolist()),
                    self.counts.tolist(),
                )
            )
            object.__setattr__(self, "_rows", cached)
        out: Mapping[tuple[str, str, float], int] = cached
        return out

    @property
    def n_rows(self) -> int:
        """The number of distinct (gold, predicted, weight) rows."""
        return len(self.counts)

    @property
    def n_instances(self) -> int:
        """The number of instances counted (not their weight)."""
        return int(self.counts.sum())

    @property
    def weight_sum(self) -> float:
        """Σ m·w: the instances' total weight (computed once: the counts do not change)."""
        cached = self.__dict__.get("_weight_sum")
        if cached is None:
            cached = float(self.counts @ self.weights) if len(self.counts) else 0.0
            object.__setattr__(self, "_weight_sum", cached)
        out: float = cached
        return out

    def __add__(self, other: object) -> WeightedLabelCounts:
        if not isinstance(other, WeightedLabelCounts):
            return NotImplemented
        index = {lab: i for i, lab in enumerate(self.labels)}
        names = list(self.labels) + [lab for lab in other.labels if lab not in index]
        index = {lab: i for i, lab in enumerate(names)}
        code = np.array([index[lab] for lab in other.labels], dtype=np.int64)
        return WeightedLabelCounts.of_codes(
            names,
            np.concatenate([self.gold, code[other.gold]]),
            np.concatenate([self.pred, code[other.pred]]),
            np.concatenate([self.weights, other.weights]),
            np.concatenate([self.counts, other.counts]),
        )

    def __radd__(self, other: object) -> WeightedLabelCounts:
        if other == 0:
            return self
        return self.__add__(other)

    def __repr__(self) -> str:
        return f"WeightedLabelCounts({self.n_rows} rows, {self.n_instances} instances, weight {self.weight_sum:g})"


class WeightedRows:
    """Weighted single-label instances gathered batch by batch as label codes (an accumulator's): each batch's
    (gold code, predicted code, weight, count) arrays, merged by a sort once they outgrow what is merged already.

    Notes
    -----
    An update appends arrays; no Python work per instance or row. Equal rows merge when the rows not yet merged
    outnumber the merged ones (and 2¹⁶), so memory stays within twice the distinct rows.
    """

    def __init__(self) -> None:
        empty = np.zeros(0, dtype=np.int64)
        self._parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self._merged = (empty, empty, np.zeros(0), empty)
        self._pending = 0

    def add(self, gold: np.ndarray, pred: np.ndarray, weights: np.ndarray, counts: np.ndarray | None = None) -> None:
        """Add rows: codes, weights and counts (default one instance each)."""
        m = np.ones(len(weights), dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64)
        part = (np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64), np.asarray(weights, float), m)
        self._parts.append(part)
        self._pending += len(m)
        if self._pending > max(2**16, len(self._merged[3])):
            self.arrays()

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The rows merged: gold and predicted codes, weights and counts, sorted by (gold, pred, weight), each once."""
        if self._parts:
            parts = [self._merged, *self._parts]
            gold, pred, weights, counts = (np.concatenate([part[i] for part in parts]) for i in range(4))
            weights = weights + 0.0  # -0.0 is 0.0
            order = np.lexsort((weights, pred, gold))
            gold, pred, weights, counts = gold[order], pred[order], weights[order], counts[order]
            if len(gold) > 1:
                new = (gold[1:] != gold[:-1]) | (pred[1:] != pred[:-1]) | (weights[1:] != weights[:-1])
                starts = np.flatnonzero(np.r_[True, new])
                gold, pred, weights, counts = (
                    gold[starts],
                    pred[starts],
                    weights[starts],
                    np.add.reduceat(counts, starts),
                )
            self._merged, self._parts, self._pending = (gold, pred, weights, counts), [], 0
        return self._merged

    def counts(self, names: Sequence[str]) -> WeightedLabelCounts:
        """The rows as weighted counts, codes read as positions into ``names``."""
        return WeightedLabelCounts.of_codes(names, *self.arrays())

    def remapped(self, position: np.ndarray) -> WeightedRows:
        """The rows with each code ``c`` replaced by ``position[c]``."""
        gold, pred, weights, counts = self.arrays()
        out = WeightedRows()
        out.add(position[gold], position[pred], weights, counts)
        return out

    def copy(self) -> WeightedRows:
        """An independent copy."""
        out = WeightedRows()
        out._merged, out._parts, out._pending = self.arrays(), [], 0  # arrays are never written in place
        return out


def _rebuilt(
    labels: tuple[str, ...], gold: np.ndarray, pred: np.ndarray, weights: np.ndarray, counts: np.ndarray
) -> WeightedLabelCounts:
    out = WeightedLabelCounts.__new__(WeightedLabelCounts)
    out._set(labels, gold.copy(), pred.copy(), weights.copy(), counts.copy())
    return out


def _canonical(
    names: Sequence[str], gold: np.ndarray, pred: np.ndarray, weights: np.ndarray, counts: np.ndarray
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows as positions into ``names`` made canonical: the labels in a row, sorted as strings; the rows sorted by
    (gold label, predicted label, weight), equal rows merged (their counts added), rows of count 0 dropped.

    Notes
    -----
    No Python loop over rows. The distinct weights (-0.0 read as 0.0) are found by ``np.unique``; when the rows'
    possible values K²·W are few (repeating weights) one ``bincount`` over (gold·K + pred)·W + the weight's rank
    counts them, in order. Otherwise two sorts: the weights by value, then, stably, the key gold·K + pred (a radix
    sort when K² < 2¹⁵); rows equal in key and weight are then adjacent and merged. The counts, below 2⁵³, add
    exactly in float64.
    """
    keep = counts > 0
    if not keep.all():
        gold, pred, weights, counts = gold[keep], pred[keep], weights[keep], counts[keep]
    used = np.zeros(len(names), dtype=bool)
    used[gold] = True
    used[pred] = True
    kept = [names[i] for i in np.flatnonzero(used).tolist()]
    labels = sorted(set(kept))  # a name given twice is one label
    rank = {lab: i for i, lab in enumerate(labels)}
    position = np.full(len(names), -1, dtype=np.int64)
    position[used] = np.array([rank[lab] for lab in kept], dtype=np.int64)
    k = max(len(labels), 1)
    keys = position[gold] * k + position[pred]
    weights = weights + 0.0  # -0.0 is 0.0
    values, w_rank = np.unique(weights, return_inverse=True)
    nv = max(len(values), 1)
    if k * k * nv <= 4 * len(keys) + 2**16:  # few distinct weights (class weights): one bincount, no sort of rows
        total = np.bincount(keys * nv + w_rank.reshape(-1), weights=counts, minlength=k * k * nv)
        at = np.flatnonzero(total)
        key, w = at // nv, values[at % nv]
        return tuple(labels), key // k, key % k, np.ascontiguousarray(w), total[at].astype(np.int64)
    by_weight = np.argsort(weights)
    sort_keys = keys[by_weight]
    if k * k < 2**15:
        sort_keys = sort_keys.astype(np.int16)
    order = by_weight[np.argsort(sort_keys, kind="stable")]
    keys, weights, counts = keys[order], weights[order], counts[order]
    if len(keys) > 1:
        starts = np.flatnonzero(np.r_[True, (keys[1:] != keys[:-1]) | (weights[1:] != weights[:-1])])
        if len(starts) < len(keys):
            keys, weights, counts = keys[starts], weights[starts], np.add.reduceat(counts, starts)
    return (
        tuple(labels),
        np.ascontiguousarray(keys // k),
        np.ascontiguousarray(keys % k),
        np.ascontiguousarray(weights),
        np.ascontiguousarray(counts, dtype=np.int64),
    )


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
        flat = np.asarray(gold, dtype=np.int64) * k + np.asarray(pred, dtype=np.int64)
        weight = np.asarray(weight, dtype=np.float64)
        if k * k <= 4 * len(flat) + 4096:  # few cells: one bincount over all of them (the same sums, in row order)
            total = np.bincount(flat, weights=weight, minlength=k * k)
            keys = np.arange(k * k, dtype=np.int64)
        else:
            keys, inverse = np.unique(flat, return_inverse=True)
            total = np.bincount(inverse.reshape(-1), weights=weight, minlength=len(keys))
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
