"""Cell types: counts as weights over kinds of instance, and the linear map to every sum a score needs.

A *cell type* is one kind of instance: a (gold, predicted) cell of a confusion matrix, or one
unique (gold set, predicted set) pair of multi-label data. Every score clfeval reports is a
function of a few sums that are linear in the number of instances of each type — per-label
tp, fp, fn, the instances that hold a label at all, N, exact matches, and (multi-label) the
sums of per-instance measures. :class:`CellTypes` holds that linear map as a sparse matrix, so a
resampled or re-arranged data set (a bootstrap draw, a randomization round, a jackknife
replicate) is scored from a vector of type weights at a cost that does not depend on N.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import LabelSet, occurrences_of
from clfeval.scoring.averages import instance_measures
from clfeval.scoring.labelset import sort_labels
from clfeval.scoring.measures import Tallies, averaged_measures

__all__ = ["CellTypes", "OrderedProduct", "ordered_dot", "table_order"]

#: Entries of ``M`` up to which it is kept dense (a BLAS product beats the sparse gather below this).
_DENSE_LIMIT = 4_000_000
#: The weights of weighted κ whose sums over the cells single-label types carry.
_KAPPA_WEIGHTS = ("linear", "quadratic")


def _whole(values: np.ndarray) -> bool:
    return bool(np.array_equal(values, np.round(values)))


class OrderedProduct:
    """``weights @ matrix`` for a fixed (U, D) ``matrix``, in the same bytes whatever the number of BLAS threads.

    A multi-threaded BLAS splits a long sum among its threads, so a sum of fractions can end in another last bit when
    the number of threads changes, and a seeded resample then gives another interval. Products and sums of whole
    numbers are exact in any order (below 2⁵³; in float32, below 2²⁴, which the callers check), so the matrix's
    whole-number columns keep BLAS when the weights are whole numbers too (bootstrap draws, swap counts); its other
    columns — and every column, for weights that are not whole — are added by numpy's own loop (``einsum``), whose
    order does not depend on threads.
    """

    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = np.asarray(matrix)
        self.whole = np.all(self.matrix == np.round(self.matrix), axis=0)
        self._whole_columns = np.ascontiguousarray(self.matrix[:, self.whole])
        self._other_columns = np.ascontiguousarray(self.matrix[:, ~self.whole].T)  # (D', U): each column contiguous

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        w = np.asarray(weights, dtype=self.matrix.dtype)
        if not _whole(w):
            out: np.ndarray = np.einsum("...u,ud->...d", w, self.matrix)
            return out
        if self.whole.all():
            product: np.ndarray = w @ self.matrix
            return product
        out = np.empty(w.shape[:-1] + (self.matrix.shape[1],), dtype=self.matrix.dtype)
        out[..., self.whole] = w @ self._whole_columns
        out[..., ~self.whole] = np.einsum("...u,du->...d", w, self._other_columns)
        return out


def ordered_dot(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``weights @ values`` for a vector of weights (length U) and values of shape (U, …), added in a fixed order
    (numpy's own loop, not a BLAS that splits the sum among threads: see :class:`OrderedProduct`)."""
    out: np.ndarray = np.einsum("u,u...->...", np.asarray(weights, dtype=np.float64), np.asarray(values))
    return out


def table_order(label_set: Sequence[str], labels: Iterable[str]) -> tuple[str, ...]:
    """The labels of a single-label confusion matrix in report order: the label set, then every other label of
    ``labels`` sorted (:func:`clfeval.scoring.labelset.sort_labels`). Weighted κ takes this order as the labels'."""
    inside = set(label_set)
    return tuple(label_set) + sort_labels(lab for lab in labels if lab not in inside)


@dataclass(frozen=True, eq=False)
class CellTypes:
    """The sparse map ``M`` from type weights ``w`` (length U) to the sums ``s = w @ M`` (length D).

    The columns of ``M`` are, for the table's labels T (the label set L of size K first; for
    single-label data every other label of the confusion matrix after it): ``tp``, ``fp``, ``fn``
    and ``present`` (instances whose gold or predicted labels hold λ; tn = N − present), |T| each;
    then ``n`` and ``exact`` (instances predicted exactly right); then, for single-label data,
    ``kappa_linear`` and ``kappa_quadratic`` (Σ |i − j| and Σ (i − j)² over the instances, i and j
    the positions of their gold and predicted labels in T), and for multi-label data the sums of
    each per-instance measure and the number of instances where it is defined (``sum_precision``
    … ``defined_<measure>``). :meth:`column` gives each block's slice; :meth:`tallies` names them.

    Attributes
    ----------
    labels
        The label set L.
    table
        The table's labels T (= L for multi-label data).
    multilabel
        Whether the types are label-set pairs.
    n_types
        U, the number of cell types.
    """

    labels: tuple[str, ...]
    table: tuple[str, ...]
    multilabel: bool
    n_types: int
    rows: np.ndarray
    cols: np.ndarray
    vals: np.ndarray
    #: Single-label types: the table positions of each type's gold and predicted label (the map's structure, which
    #: :meth:`sums` reads with a few ``bincount`` rather than gathering every entry of ``M``).
    positions: tuple[np.ndarray, np.ndarray] | None = None
    #: Single-label types :meth:`scaled` by instance weights: the positions of the unscaled types and each type's
    #: factor, so that :meth:`sums` still reads them with a few ``bincount`` (of the weights times the factors).
    scaled_positions: tuple[np.ndarray, np.ndarray] | None = None
    factors: np.ndarray | None = None

    def scalar_columns(self) -> list[str]:
        """The names of the one-column sums after the per-label blocks, in order."""
        return self._scalars()

    def _scalars(self) -> list[str]:
        if self.multilabel:
            averaged = averaged_measures()  # the built-in ones and those registered (clfeval.register_measure)
            return ["n", "exact"] + [f"sum_{m}" for m in averaged] + [f"defined_{m}" for m in averaged]
        return ["n", "exact"] + [f"kappa_{w}" for w in _KAPPA_WEIGHTS]

    @property
    def width(self) -> int:
        """D, the number of sums."""
        return 4 * len(self.table) + len(self._scalars())

    @property
    def unit_types(self) -> bool:
        """Whether every type stands for one instance (adds exactly 1 to N), as single-label cells and label-set
        pairs do; types :meth:`scaled` by an instance weight do not."""
        if self.positions is not None:
            return True
        at_n = self.cols == self.column("n").start
        return int(at_n.sum()) == self.n_types and bool(np.all(self.vals[at_n] == 1.0))

    def column(self, name: str) -> slice:
        """The columns of one block of sums: ``tp``, ``fp``, ``fn``, ``present`` (|T| each), ``n``, ``exact``,
        and ``kappa_linear``, ``kappa_quadratic`` (single-label) or ``sum_<measure>``, ``defined_<measure>``
        (multi-label)."""
        k = len(self.table)
        blocks = ["tp", "fp", "fn", "present"]
        if name in blocks:
            start = blocks.index(name) * k
            return slice(start, start + k)
        scalars = self._scalars()
        if name not in scalars:
            raise KeyError(name)
        start = 4 * k + scalars.index(name)
        return slice(start, start + 1)

    def columns_of(self, reads: Iterable[str]) -> np.ndarray:
        """Which of the D sums hold the sums named ``reads`` (names of :data:`~clfeval.scoring.measures.SUMS`): a
        mask. ``tn`` is N less ``present``; ``disagreement_<w>`` is ``kappa_<w>`` and ``samples`` every
        ``sum_<measure>`` and ``defined_<measure>``; a sum this layout does not hold (weighted κ's of label sets)
        marks nothing."""
        wanted = set(reads)
        names = {"tp": ["tp"], "fp": ["fp"], "fn": ["fn"], "tn": ["present", "n"], "n": ["n"], "exact": ["exact"]}
        names.update({f"disagreement_{w}": [f"kappa_{w}"] for w in _KAPPA_WEIGHTS})
        names["samples"] = [f"{what}_{m}" for what in ("sum", "defined") for m in averaged_measures()]
        read = np.zeros(self.width, dtype=bool)
        held = {"tp", "fp", "fn", "present", *self._scalars()}
        for name in wanted:
            for column in names[name]:
                if column in held:
                    read[self.column(column)] = True
        return read

    def tallies(self, sums: np.ndarray) -> Tallies:
        """The sums (shape (B, D)) by name, as the measures take them."""
        tp, fp, fn, present = (sums[:, self.column(name)] for name in ("tp", "fp", "fn", "present"))
        n = sums[:, self.column("n")][:, 0]
        exact = sums[:, self.column("exact")][:, 0]
        if self.multilabel:
            samples = {
                m: (sums[:, self.column(f"sum_{m}")][:, 0], sums[:, self.column(f"defined_{m}")][:, 0])
                for m in averaged_measures()
            }
            return Tallies(tp, fp, fn, n[:, None] - present, len(self.labels), n, exact, samples=samples)
        disagreement = {w: sums[:, self.column(f"kappa_{w}")][:, 0] for w in _KAPPA_WEIGHTS}
        return Tallies(tp, fp, fn, n[:, None] - present, len(self.labels), n, exact, disagreement=disagreement)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def observed(
        cls, counts: ConfusionCounts, label_set: Sequence[str], table: Sequence[str] | None = None
    ) -> tuple[CellTypes, np.ndarray]:
        """The sums of single-label ``counts`` (shape (1, D)) straight from the confusion matrix, with the layout
        of their columns: what :meth:`of` and :meth:`sums` give for the observed weights, without building the map
        (the point estimate needs only the sums; intervals and tests need the map).

        Notes
        -----
        For the matrix n_ij over the table's labels: tp = n_ii, fp = Σ_i n_ij − n_jj (column), fn = Σ_j n_ij − n_ii
        (row), present = row + column − n_ii, N = Σ n_ij, exact = Σ n_ii, and Σ |i − j|·n_ij, Σ (i − j)²·n_ij.
        """
        table = table_order(label_set, counts.labels) if table is None else tuple(table)
        aligned = counts.with_labels(table)
        empty = np.zeros(0, dtype=np.intp)
        layout = cls(tuple(label_set), table, False, 0, empty, empty, np.zeros(0))
        split = _PairSplit.of(aligned.gold, aligned.pred)
        return layout, split.sums(aligned.count.astype(np.float64), len(table))[None, :]

    @classmethod
    def observed_scaled(
        cls,
        labels: tuple[str, ...],
        table: tuple[str, ...],
        g: np.ndarray,
        p: np.ndarray,
        factors: np.ndarray,
        weights: np.ndarray,
    ) -> tuple[CellTypes, np.ndarray]:
        """The layout and the sums (shape (1, D)) of single-label types at table positions (``g``, ``p``) scaled by
        ``factors`` (instance weights) with type weights ``weights``: what
        ``of_positions(labels, table, g, p).scaled(factors)`` and its :meth:`sums` give, in the same bytes, without
        building the map when :meth:`sums` would not read it dense (many types: the sums are then a few
        ``bincount`` of weights × factors)."""
        empty = np.zeros(0, dtype=np.intp)
        layout = cls(labels, table, False, 0, empty, empty, np.zeros(0))
        weights = np.asarray(weights, dtype=np.float64)
        if len(g) * layout.width <= _DENSE_LIMIT:
            cells = cls.of_positions(labels, table, g, p).scaled(factors)
            return cells, cells.sums(weights[None, :])
        scaled = weights * np.asarray(factors, dtype=np.float64)
        return layout, _PairSplit.of(g, p).sums(scaled, len(table))[None, :]

    @classmethod
    def single_label(
        cls, gold: Sequence[str], pred: Sequence[str], label_set: Sequence[str], table: Sequence[str] | None = None
    ) -> CellTypes:
        """Types that are (gold label, predicted label) cells; the table's labels are ``label_set`` and then every
        other label of ``gold`` and ``pred`` (:func:`table_order`)."""
        table = table_order(label_set, [*gold, *pred]) if table is None else tuple(table)
        index = {lab: i for i, lab in enumerate(table)}
        g = np.array([index[x] for x in gold], dtype=np.int64)
        p = np.array([index[x] for x in pred], dtype=np.int64)
        return cls.of_positions(tuple(label_set), table, g, p)

    @classmethod
    def of_positions(cls, labels: tuple[str, ...], table: tuple[str, ...], g: np.ndarray, p: np.ndarray) -> CellTypes:
        """Single-label types from the table positions of their gold (``g``) and predicted (``p``) labels."""
        k = len(table)
        u = np.arange(len(g))
        hit = g == p
        miss = ~hit
        gap = (g - p).astype(np.float64)
        n_miss = int(miss.sum())
        rows = [u[hit], u[hit], u[miss], u[miss], u[miss], u[miss], u, u[hit], u[miss], u[miss]]
        cols = [
            g[hit],
            3 * k + g[hit],
            k + p[miss],
            3 * k + p[miss],
            2 * k + g[miss],
            3 * k + g[miss],
            np.full(len(u), 4 * k),
            np.full(int(hit.sum()), 4 * k + 1),
            np.full(n_miss, 4 * k + 2),
            np.full(n_miss, 4 * k + 3),
        ]
        vals = [np.ones(len(c)) for c in cols[:8]] + [np.abs(gap[miss]), gap[miss] ** 2]
        built = cls._build(
            labels, table, False, len(u), np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
        )
        return replace(built, positions=(np.asarray(g, dtype=np.int64), np.asarray(p, dtype=np.int64)))

    @classmethod
    def multi_label(
        cls, pairs: Sequence[tuple[LabelSet, LabelSet]], label_set: Sequence[str], beta: float = 1.0
    ) -> CellTypes:
        """Types that are (gold set, predicted set) pairs, label multiplicities as in
        :meth:`clfeval.LabelSetCounts.label_counts`."""
        labels = tuple(label_set)
        k = len(labels)
        occ = occurrences_of(pairs, labels)
        both = np.minimum(occ.gold, occ.pred)
        u = np.arange(len(pairs))
        rows, cols, vals = [], [], []
        for block, part in enumerate((both, occ.pred - both, occ.gold - both, np.ones(len(occ.row), dtype=np.int64))):
            rows.append(occ.row)
            cols.append(block * k + occ.label)
            vals.append(part.astype(np.float64))
        exact = np.array([g == p for g, p in pairs], dtype=bool)
        rows += [u, u[exact]]
        cols += [np.full(len(u), 4 * k), np.full(int(exact.sum()), 4 * k + 1)]
        vals += [np.ones(len(u)), np.ones(int(exact.sum()))]
        values = instance_measures(occ, beta)
        averaged = averaged_measures()
        for j, m in enumerate(averaged):
            value, defined = values[m]
            rows += [u, u[defined]]
            cols += [np.full(len(u), 4 * k + 2 + j), np.full(int(defined.sum()), 4 * k + 2 + len(averaged) + j)]
            vals += [value, np.ones(int(defined.sum()))]
        return cls._build(
            labels, labels, True, len(u), np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
        )

    @classmethod
    def _build(
        cls,
        labels: tuple[str, ...],
        table: tuple[str, ...],
        multilabel: bool,
        n_types: int,
        rows: np.ndarray,
        cols: np.ndarray,
        vals: np.ndarray,
    ) -> CellTypes:
        keep = vals != 0
        rows, cols, vals = rows[keep], cols[keep], vals[keep]
        order = np.lexsort((rows, cols))
        return cls(
            labels,
            table,
            multilabel,
            n_types,
            rows[order].astype(np.intp),
            cols[order].astype(np.intp),
            vals[order].astype(np.float64),
        )

    def taken(self, which: np.ndarray) -> CellTypes:
        """The types ``which`` (indices, which may repeat) of these, as new types in that order: row u of the new
        map is row ``which[u]`` of this one. Multi-label types whose pairs repeat (one pair under many weights) are
        built once per distinct pair and taken for every row."""
        which = np.asarray(which, dtype=np.intp)
        order = np.argsort(self.rows, kind="stable")  # the entries grouped by type, each type's in column order
        per_type = np.bincount(self.rows, minlength=self.n_types)
        first = np.cumsum(per_type) - per_type
        reps = per_type[which]
        ends = np.cumsum(reps)
        at = np.repeat(first[which] - (ends - reps), reps) + np.arange(int(ends[-1]) if len(ends) else 0)
        entries = order[at]
        rows = np.repeat(np.arange(len(which), dtype=np.intp), reps)
        return self._build(
            self.labels, self.table, self.multilabel, len(which), rows, self.cols[entries], self.vals[entries]
        )

    def scaled(self, factors: np.ndarray) -> CellTypes:
        """The same types, each standing for ``factors[u]`` instances at once (an instance weight): every sum it adds
        to is multiplied by its factor.

        Notes
        -----
        ``M`` becomes diag(factors)·M, so a type of weight w with factor f adds w·f·M_u: a kind whose instances carry
        whole-number weights (a row seen once standing for f instances) is scored as the instances repeated."""
        factors = np.asarray(factors, dtype=np.float64)
        if factors.shape != (self.n_types,):
            raise ValueError(f"one factor per type: {self.n_types}, not {factors.shape}")
        positions = self.positions if self.factors is None else None  # scaled once: the fast path keeps up
        return replace(
            self, vals=self.vals * factors[self.rows], positions=None, scaled_positions=positions, factors=factors
        )

    # -- the map --------------------------------------------------------------------------------

    def dense(self) -> np.ndarray | None:
        """``M`` as a dense (U, D) array when it is small enough for a matrix product to be the fast way."""
        if self.n_types * self.width > _DENSE_LIMIT:
            return None
        cached = self.__dict__.get("_dense")
        if cached is None:
            cached = np.zeros((self.n_types, self.width))
            np.add.at(cached, (self.rows, self.cols), self.vals)
            object.__setattr__(self, "_dense", cached)
        return cached

    def sums(self, weights: np.ndarray) -> np.ndarray:
        """``weights @ M``: the sums of each row of type weights (shape (..., U) → (..., D))."""
        weights = np.asarray(weights, dtype=np.float64)
        dense = self.dense()
        if dense is not None:
            product = self.__dict__.get("_product")
            if product is None:
                product = OrderedProduct(dense)  # the same bytes whatever the number of BLAS threads
                object.__setattr__(self, "_product", product)
            return product(weights)
        if self.positions is not None:
            return self._single_sums(weights, self.positions)
        if self.scaled_positions is not None and self.factors is not None:
            return self._single_sums(weights * self.factors, self.scaled_positions)  # diag(factors)·M, by bincount
        out = np.zeros(weights.shape[:-1] + (self.width,))
        if len(self.cols):
            starts = np.flatnonzero(np.r_[True, self.cols[1:] != self.cols[:-1]])
            contrib = weights[..., self.rows] * self.vals
            out[..., self.cols[starts]] = np.add.reduceat(contrib, starts, axis=-1)
        return out

    def _single_sums(self, weights: np.ndarray, positions: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """:meth:`sums` of single-label types from their positions (:meth:`_PairSplit.sums`): O(B·U)."""
        split = self.__dict__.get("_split")
        if split is None:
            split = _PairSplit.of(*positions)
            object.__setattr__(self, "_split", split)  # made once: every resample reads it
        k = len(self.table)
        flat = weights.reshape(-1, self.n_types)
        out = np.empty((flat.shape[0], self.width))
        for row, w in zip(out, flat):
            row[:] = split.sums(w, k)
        return out.reshape(weights.shape[:-1] + (self.width,))

    def sparse_rows_of(self, types: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows ``M[types]`` as their non-zeros: (row in ``types``, column, value), O(entries), never (len × D)."""
        types = np.asarray(types, dtype=np.intp)
        position = np.full(self.n_types, -1, dtype=np.intp)
        position[types] = np.arange(len(types))
        hit = position[self.rows] >= 0
        return position[self.rows[hit]], self.cols[hit], self.vals[hit]

    def rows_of(self, types: np.ndarray) -> np.ndarray:
        """Rows ``M[types]`` as a dense (len(types), D) array: what one more instance of each type adds."""
        out = np.zeros((len(types), self.width))
        row, col, val = self.sparse_rows_of(types)
        np.add.at(out, (row, col), val)
        return out

    def pullback(self, gradient: np.ndarray) -> np.ndarray:
        """``M @ gradient``: a gradient with respect to the sums (shape (D, S)) as one with respect to the
        type weights (shape (U, S)); the chain rule through the linear map."""
        gradient = np.asarray(gradient, dtype=np.float64)
        out = np.zeros((self.n_types,) + gradient.shape[1:])
        if len(self.rows):
            order = np.argsort(self.rows, kind="stable")
            rows = self.rows[order]
            starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
            contrib = gradient[self.cols[order]] * self.vals[order].reshape((-1,) + (1,) * (gradient.ndim - 1))
            out[rows[starts]] = np.add.reduceat(contrib, starts, axis=0)
        return out


@dataclass(frozen=True, eq=False)
class _PairSplit:
    """Single-label (gold, predicted) pairs split into hits and misses: the pairs' indices, their labels' positions
    and the misses' gaps g − p, from which :meth:`sums` gives every sum of :class:`CellTypes` for any weights."""

    hits: np.ndarray
    misses: np.ndarray
    hit_gold: np.ndarray
    miss_gold: np.ndarray
    miss_pred: np.ndarray
    gap: np.ndarray

    @classmethod
    def of(cls, gold: np.ndarray, pred: np.ndarray) -> _PairSplit:
        hits, misses = np.flatnonzero(gold == pred), np.flatnonzero(gold != pred)
        gap = (gold[misses] - pred[misses]).astype(np.float64)
        return cls(hits, misses, gold[hits], gold[misses], pred[misses], gap)

    def sums(self, weights: np.ndarray, k: int) -> np.ndarray:
        """The D sums for one vector of pair weights over k table labels, in three ``bincount``.

        Notes
        -----
        With w_u the weight of pair u = (g, p): tp_λ = Σ_{g=p=λ} w_u, fp_λ = Σ_{p=λ≠g} w_u, fn_λ = Σ_{g=λ≠p} w_u,
        present_λ = tp_λ + fp_λ + fn_λ, N = Σ w_u, exact = Σ_{g=p} w_u, and Σ_{g≠p} w_u·|g − p| and w_u·(g − p)²:
        the columns :meth:`CellTypes.of_positions` puts in ``M``, summed without reading ``M``.
        """
        hit, miss = weights[self.hits], weights[self.misses]
        tp = np.bincount(self.hit_gold, weights=hit, minlength=k)
        fp = np.bincount(self.miss_pred, weights=miss, minlength=k)
        fn = np.bincount(self.miss_gold, weights=miss, minlength=k)
        scalars = [weights.sum(), hit.sum(), miss @ np.abs(self.gap), miss @ self.gap**2]
        return np.concatenate([tp, fp, fn, tp + fp + fn, scalars])
