"""Both systems' scores under re-arrangements of paired counts: swaps (randomization) and resamples (bootstrap).

A paired comparison is summarised by the unique (gold, prediction A, prediction B) triples t with
counts c_t. Swapping the two predictions of s_t instances of triple t moves s_t instances of A from
cell (gold, a_t) to (gold, b_t) and the same number of B the other way. So with the sums M of the
cell types (see :class:`clfeval.scoring.cells.CellTypes`), system A's sums after swaps s are
``base_A + s @ Δ`` and B's are ``base_B − s @ Δ``, with Δ = M(gold, b) − M(gold, a) over the triples
where the systems differ: one matrix product per batch of rounds, whatever N is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.count.paired import PairedCounts
from clfeval.errors import OptionError
from clfeval.infer.statistic import Statistic
from clfeval.infer.units import BlockUnits, signatures, weighted_rows
from clfeval.kinds import KINDS
from clfeval.scoring.cells import OrderedProduct
from clfeval.scoring.scores import Key

__all__ = ["Arrangements", "HalfBinomial", "SwapRows", "binomial_half"]

#: Entries of the swap matrix Δ (units × sums) up to which it is dense (one BLAS product a batch of rounds);
#: above, it is kept as its non-zeros (:class:`SwapRows`): 10⁴ labels and 10⁵ differing triples would be 30 GiB.
_DENSE_SWAPS = 25_000_000


@dataclass(frozen=True, eq=False)
class SwapRows:
    """The swap matrix Δ held as its non-zeros: entry e moves sum ``cols[e]`` by ``vals[e]`` per unit ``rows[e]``.

    Each unit (a triple where the systems differ) moves a few sums, so ``s @ Δ`` costs O(entries) a round.
    """

    n_units: int
    width: int
    rows: np.ndarray
    cols: np.ndarray
    vals: np.ndarray

    def product(self, swaps: np.ndarray) -> np.ndarray:
        """``swaps @ Δ`` for a (R, units) array of swap counts: (R, width)."""
        swaps = np.asarray(swaps, dtype=np.float64)
        out = np.empty((swaps.shape[0], self.width))
        for row, s in zip(out, swaps):
            row[:] = np.bincount(self.cols, weights=s[self.rows] * self.vals, minlength=self.width)
        return out

    def reordered(self, order: np.ndarray) -> SwapRows:
        """The same matrix with its units in ``order`` (unit i is the old unit ``order[i]``)."""
        new = np.empty(len(order), dtype=np.intp)
        new[np.asarray(order)] = np.arange(len(order))
        return replace(self, rows=new[self.rows])

    def kept(self, columns: np.ndarray) -> SwapRows:
        """Only the entries in ``columns`` (a mask over the sums); the others move nothing."""
        keep = columns[self.cols]
        return replace(self, rows=self.rows[keep], cols=self.cols[keep], vals=self.vals[keep])


class HalfBinomial:
    """A sampler of Binomial(c, ½) for fixed counts c, drawn many rounds at a time.

    Notes
    -----
    A Binomial(c, ½) variable is the number of ones among c fair random bits. For c up to
    ``64·_WORDS_MAX`` the draw is exactly that: ⌈c/64⌉ random 64-bit words, the last one masked
    to the remaining bits, and a population count — several times faster than a general
    binomial sampler. Counts of 1 (most kinds of sentence occur once) take one bit each, eight
    to a random byte. Other counts are grouped by their number of words (each group one array
    operation, its masks made once); larger counts use numpy's sampler.
    """

    def __init__(self, counts: np.ndarray) -> None:
        counts = np.asarray(counts, dtype=np.int64)
        words_needed = np.maximum((counts + 63) // 64, 1)
        #: The counts in the order :meth:`draw` returns them: the ones first, then grouped by number of words.
        self.order = np.argsort(np.where(counts == 1, 0, words_needed), kind="stable")
        self.counts = counts[self.order]
        words_needed = words_needed[self.order]
        self.ones = int(np.sum(self.counts == 1))
        words_needed[: self.ones] = 0
        self.groups = []
        for width in np.unique(words_needed[(words_needed > 0) & (words_needed <= _WORDS_MAX)]):
            members = np.flatnonzero(words_needed == width)
            bits = np.clip(self.counts[members][:, None] - 64 * np.arange(width)[None, :], 0, 64).astype(np.uint64)
            full = bits == 64
            masks = np.where(
                full, np.uint64(2**64 - 1), (np.uint64(1) << np.where(full, np.uint64(0), bits)) - np.uint64(1)
            )
            self.groups.append((slice(members[0], members[-1] + 1), int(width), masks))
        self.large = slice(int(np.sum(words_needed <= _WORDS_MAX)), len(counts))  # the ones have 0 words

    def draw(self, rounds: int, rng: np.random.Generator, dtype: Any = np.int64) -> np.ndarray:
        """A (rounds, len(counts)) array of draws of type ``dtype``, columns in the order :attr:`order`."""
        out = np.empty((rounds, len(self.counts)), dtype=dtype)
        if self.ones:
            packed = rng.integers(0, 256, size=(rounds, (self.ones + 7) // 8), dtype=np.uint8)
            out[:, : self.ones] = np.unpackbits(packed, axis=1, count=self.ones)
        for members, width, masks in self.groups:
            words = rng.integers(0, 2**64 - 1, size=(rounds, len(masks), width), dtype=np.uint64, endpoint=True)
            np.bitwise_and(words, masks, out=words)
            ones = np.bitwise_count(words)
            out[:, members] = ones[:, :, 0] if width == 1 else ones.sum(axis=2, dtype=np.int64)
        large = self.counts[self.large]
        if len(large):
            out[:, self.large] = rng.binomial(large, 0.5, size=(rounds, len(large)))
        return out


def binomial_half(counts: np.ndarray, rounds: int, rng: np.random.Generator) -> np.ndarray:
    """Draws of Binomial(c, ½) for each count c, ``rounds`` times: a (rounds, len(counts)) array
    in the order of ``counts`` (see :class:`HalfBinomial`)."""
    sampler = HalfBinomial(counts)
    out = np.empty((rounds, len(sampler.counts)), dtype=np.int64)
    out[:, sampler.order] = sampler.draw(rounds, rng)
    return out


#: Counts above 64 × this many bits are drawn with numpy's general binomial sampler.
_WORDS_MAX = 16


@dataclass(frozen=True, eq=False)
class Arrangements:
    """The scores of systems A and B as functions of swap counts or resampled triple weights.

    Attributes
    ----------
    f
        The score function over the cell types (gold, a_t) for every triple t, then (gold, b_t).
    counts
        c_t, the count of each triple.
    swap_counts
        The count of each swap unit: the triples where the two predictions differ (only those can
        change anything when swapped), or, with blocks, each kind of block where they differ.
    delta
        (K, D): how A's sums move when one unit of each kind is swapped (B's move the other way); a
        :class:`SwapRows` of its non-zeros when the dense table would be large (many labels).
    block_source
        With blocks: makes the resampling units (:attr:`blocks`); ``None`` for instances.
    """

    f: Statistic
    counts: np.ndarray
    swap_counts: np.ndarray
    base_a: np.ndarray
    base_b: np.ndarray
    delta: np.ndarray | SwapRows
    block_source: Callable[[], BlockUnits] | None = None

    @property
    def blocks(self) -> BlockUnits | None:
        """With blocks: the resampling units (A's sums, then B's, per kind of block), built on first use (a
        randomization test does not need them); ``None`` for instances."""
        if self.block_source is None:
            return None
        if "_blocks" not in self.__dict__:
            object.__setattr__(self, "_blocks", self.block_source())
        blocks: BlockUnits = self.__dict__["_blocks"]
        return blocks

    @property
    def swap_dtype(self) -> Any:
        """The dtype the swap product runs in (float32 where it is exact)."""
        if isinstance(self.delta, SwapRows):
            return np.dtype(np.float64)
        return self.__dict__["_delta_product"].dtype

    @classmethod
    def of(
        cls,
        paired: PairedCounts,
        template: Statistic,
        blocks: Blocks | None = None,
        keys: Sequence[Key] | None = None,
    ) -> Arrangements:
        """Arrangements of ``paired`` scored like ``template`` (its label set, β and zero-division choices).

        With ``blocks`` (whose keys are ``paired``'s triples), whole blocks are swapped and resampled. ``keys``
        (default: the template's) are the scores each arrangement computes: a test computes only its metrics.
        """
        triples = list(paired.triples)
        counts = np.array([paired.triples[t] for t in triples], dtype=np.float64)
        kind = KINDS[paired.kind]  # the systems' kind: where each system's instance lies in a triple
        rows_a = [kind.system_row(t, 1) for t in triples]
        rows_b = [kind.system_row(t, 2) for t in triples]
        f = template.on_rows(kind, rows_a + rows_b, np.concatenate([counts, np.zeros_like(counts)]), keys)
        cells = f.cells
        t = len(triples)
        zeros = np.zeros_like(counts)
        base_a = cells.sums(np.concatenate([counts, zeros])[None, :])[0]
        base_b = cells.sums(np.concatenate([zeros, counts])[None, :])[0]
        differ = np.flatnonzero([a != b for a, b in zip(rows_a, rows_b)])
        delta: np.ndarray | SwapRows
        if len(differ) * cells.width <= _DENSE_SWAPS:
            delta = cells.rows_of(differ + t) - cells.rows_of(differ)
        else:
            (entries_b, cols_b, vals_b), (entries_a, cols_a, vals_a) = (
                cells.sparse_rows_of(differ + t),
                cells.sparse_rows_of(differ),
            )
            delta = SwapRows(
                len(differ),
                cells.width,
                np.concatenate([entries_b, entries_a]),
                np.concatenate([cols_b, cols_a]),
                np.concatenate([vals_b, -vals_a]),
            )
        if blocks is None:
            return cls(f, counts, counts[differ], base_a, base_b, delta)
        if isinstance(delta, SwapRows):
            raise OptionError(
                f"a comparison by blocks over {len(cells.table):,} labels and {len(differ):,} triples where the "
                f"systems differ would hold a {len(differ):,} × {cells.width:,} table of swaps; this version "
                "compares by blocks only below 2.5·10⁷ entries: compare by instances (without the blocks)"
            )
        if tuple(blocks.keys) != tuple(triples):
            raise ValueError("the blocks' rows must be the paired counts' triples, in their order")
        position = np.full(t, -1, dtype=np.int64)
        position[differ] = np.arange(len(differ))
        moving = position[blocks.row] >= 0
        unit, item, count, multiplicity = signatures(
            blocks.block[moving], position[blocks.row[moving]], blocks.count[moving]
        )
        block_delta = weighted_rows(delta, cells.width, unit, item, count, len(multiplicity))

        def both(items: np.ndarray) -> np.ndarray:  # A's row of a triple, then B's
            return np.concatenate([cells.rows_of(items), cells.rows_of(items + t)], axis=1)

        def units() -> BlockUnits:
            return BlockUnits.of(
                both, 2 * cells.width, blocks.block, blocks.row, blocks.count, blocks.unit, blocks.n_blocks
            )

        return cls(f, counts, multiplicity.astype(np.float64), base_a, base_b, block_delta, units)

    @property
    def n_types(self) -> int:
        """The number of triples."""
        return len(self.counts)

    def observed(self) -> tuple[np.ndarray, np.ndarray]:
        """Both systems' scores on the data as it is (length S each)."""
        a, b = self.swapped(np.zeros((1, len(self.swap_counts))))
        return a[0], b[0]

    def __post_init__(self) -> None:
        # The swap product runs in float32 only where it is exact: whole-number moves (counts, not the fractional
        # per-instance sums of samples averages) whose totals stay below 2²⁴. A rounding error there would break
        # ties between arrangements and make p-values too small. Decided, and converted, once.
        # sums no score of f reads (weighted κ's disagreements, when κ is not asked for) move nothing: left at 0
        if isinstance(self.delta, SwapRows):
            object.__setattr__(self, "delta", self.delta.kept(self.f.sums_read()))
            return
        object.__setattr__(self, "delta", np.where(self.f.sums_read(), self.delta, 0.0))
        whole = bool(np.array_equal(self.delta, np.round(self.delta)))
        largest = np.abs(self.delta).max(axis=1) if len(self.delta) else np.zeros(0)
        exact32 = whole and float(self.swap_counts @ np.maximum(largest, 1.0)) < 2**24
        object.__setattr__(self, "_delta_product", self.delta.astype(np.float32 if exact32 else np.float64))
        object.__setattr__(self, "_ordered", OrderedProduct(self.__dict__["_delta_product"]))  # any BLAS threads

    def reordered(self, order: np.ndarray) -> Arrangements:
        """The same arrangements with the swap units in ``order`` (the columns of ``swaps``)."""
        delta = self.delta.reordered(order) if isinstance(self.delta, SwapRows) else self.delta[order]
        return replace(self, swap_counts=self.swap_counts[order], delta=delta)

    def swapped(self, swaps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scores of A and B (each (R, S)) after swapping ``swaps[r, i]`` of swap unit i."""
        if isinstance(self.delta, SwapRows):
            moved = self.delta.product(swaps)
        else:
            moved = self.__dict__["_ordered"](swaps).astype(np.float64)
        return self.f.from_sums(self.base_a + moved), self.f.from_sums(self.base_b - moved)

    @property
    def n_resample(self) -> int:
        """What one bootstrap resample draws: N instances, or B blocks."""
        return self.blocks.n_blocks if self.blocks is not None else round(self.counts.sum())

    def draw(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """The weights of ``size`` bootstrap resamples: over the triples, or over the kinds of block."""
        if self.blocks is not None:
            return self.blocks.draw(size, rng)
        return rng.multinomial(self.n_resample, self.counts / self.counts.sum(), size=size).astype(np.float64)

    def resampled(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scores of A and B (each (R, S)) on resamples with the weights of :meth:`draw`."""
        if self.blocks is not None:
            sums = self.blocks.resampled_sums(weights)
            width = self.f.cells.width
            return self.f.from_sums(sums[:, :width]), self.f.from_sums(sums[:, width:])
        zeros = np.zeros_like(weights)
        sums_a = self.f.cells.sums(np.concatenate([weights, zeros], axis=1))
        sums_b = self.f.cells.sums(np.concatenate([zeros, weights], axis=1))
        return self.f.from_sums(sums_a), self.f.from_sums(sums_b)
