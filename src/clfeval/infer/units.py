"""Blocks as units of resampling and randomization: each block adds fixed sums, so blocks with the same
contents are interchangeable and are counted, not listed.

With instances grouped in blocks (sentences), the bootstrap draws whole blocks and randomization
swaps whole blocks. Block j adds the sums ``S_j = Σ_t n_jt M_t`` (its cell types' rows of the map
:class:`clfeval.scoring.cells.CellTypes`, times their counts), so a resample with block weights w
has sums ``w @ S`` and a swap pattern s moves A's sums by ``s @ Δ``: one matrix product per batch.
Blocks that hold the same (type, count) entries give the same row; they are merged into one
*unit* with a multiplicity m, so short sentences that recur cost nothing extra, and blocks of one
instance are exactly the instance-level units (cell types with their counts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from clfeval.errors import OptionError
from clfeval.scoring.cells import OrderedProduct, ordered_dot

__all__ = ["BlockUnits", "content_ranks", "signatures", "weighted_rows"]

#: Rows of (entries × sums) formed at once when adding up the rows of units.
_CHUNK_FLOATS = 8_000_000
#: The most sums (kinds of block × sums of each) held for block resampling: 2 GiB of float64.
_MAX_UNIT_FLOATS = 268_435_456


def signatures(
    block: np.ndarray, item: np.ndarray, count: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Blocks grouped by their contents: the entries of one representative block per group, and each group's size.

    Parameters
    ----------
    block, item, count
        Entries: block ``block[e]`` holds ``count[e]`` instances of item ``item[e]``.

    Returns
    -------
    unit, item, count, multiplicity
        The representative entries (``unit`` numbers the groups 0…J−1 in the order of their contents: the
        sorted (item, count) entries, compared as sequences) and how many blocks each group stands for. The
        order depends on the contents alone — not on the order or the names of the blocks, nor on a hash or a
        thread — so a seeded draw over the groups gives the same numbers for the same blocks in any order.
    """
    import polars as pl

    block, item, count = (np.asarray(x, dtype=np.int64) for x in (block, item, count))
    if not len(block):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    base = int(count.max()) + 1
    frame = pl.DataFrame({"b": block, "e": item * base + count})
    per_block = frame.group_by("b").agg(pl.col("e").sort())
    groups = per_block.group_by("e").agg(pl.len().alias("m")).sort("e").with_row_index("u")
    entries = groups.select("u", "e").explode("e")
    code = entries.get_column("e").to_numpy()
    return (
        entries.get_column("u").to_numpy().astype(np.int64),
        code // base,
        code % base,
        groups.get_column("m").to_numpy().astype(np.int64),
    )


def content_ranks(block: np.ndarray, item: np.ndarray) -> np.ndarray:
    """Each block's place when the blocks are sorted by their contents: ``out[b]`` for block ``b`` (0…B−1), whose
    instances are ``item[i]`` for the ``i`` with ``block[i] = b``.

    Blocks are compared by their sorted (item, count) entries, as sequences (blocks of equal contents by their
    numbers): a seeded draw over blocks in this order depends neither on their order nor on their names, and never
    on a hash or a thread. Every block 0…B−1 must hold an instance.
    """
    import polars as pl

    block, item = np.asarray(block, dtype=np.int64), np.asarray(item, dtype=np.int64)
    n_blocks = int(block.max()) + 1 if len(block) else 0
    width = int(item.max()) + 1 if len(item) else 1
    key, count = np.unique(block * width + item, return_counts=True)
    base = int(count.max()) + 1 if len(count) else 1
    frame = pl.DataFrame({"b": key // width, "e": (key % width) * base + count})
    order = frame.group_by("b").agg(pl.col("e").sort()).sort(["e", "b"]).get_column("b").to_numpy()
    if len(order) != n_blocks:
        raise ValueError(f"blocks 0…{n_blocks - 1} each hold an instance: {len(order)} do")
    ranks = np.empty(n_blocks, dtype=np.int64)
    ranks[order] = np.arange(n_blocks)
    return ranks


def weighted_rows(
    rows: np.ndarray | Callable[[np.ndarray], np.ndarray],
    width: int,
    unit: np.ndarray,
    item: np.ndarray,
    count: np.ndarray,
    n_units: int,
) -> np.ndarray:
    """``out[j] = Σ_{e: unit[e] = j} count[e] · rows[item[e]]``: each unit's sums (width ``width``).

    ``rows`` is an array, or a function giving the rows of given distinct items
    (:meth:`CellTypes.rows_of`). Rows are sparse (an instance touches a few sums), so each entry
    adds only its row's non-zeros: one weighted ``bincount`` per chunk of items, in bounded memory.
    """
    if n_units * width > _MAX_UNIT_FLOATS:
        raise OptionError(
            f"intervals and tests by blocks hold each kind of block's sums: {n_units:,} kinds × {width:,} sums "
            f"would take {n_units * width * 8 / 2**30:,.1f} GiB (the sums grow with the labels, 4 per label); this "
            f"version holds at most {_MAX_UNIT_FLOATS * 8 / 2**30:.0f} GiB: leave the blocks out, or use fewer labels"
        )
    out = np.zeros(n_units * width)
    unit, item, count = (np.asarray(x, dtype=np.int64) for x in (unit, item, count))
    if not len(unit):
        return out.reshape(n_units, width)
    items = np.unique(item)
    step = max(1, _CHUNK_FLOATS // max(width, 1))
    for start in range(0, len(items), step):
        chosen = items[start : start + step]
        dense = rows(chosen) if callable(rows) else np.asarray(rows)[chosen]
        r, c = np.nonzero(dense)  # row-major: the non-zeros of each chosen item, in order
        v = dense[r, c]
        first = np.searchsorted(r, np.arange(len(chosen)))
        nnz = np.diff(np.r_[first, len(r)])
        mine = np.flatnonzero((item >= chosen[0]) & (item <= chosen[-1]))
        local = np.searchsorted(chosen, item[mine])
        k = nnz[local]
        entry = np.repeat(mine, k)
        offset = np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k)
        pos = np.repeat(first[local], k) + offset
        out += np.bincount(unit[entry] * width + c[pos], weights=count[entry] * v[pos], minlength=n_units * width)
    return out.reshape(n_units, width)


@dataclass(frozen=True, eq=False)
class BlockUnits:
    """Blocks as resampling units: the sums each kind of block adds, and how many blocks are of that kind.

    Attributes
    ----------
    sums
        (J, D): the sums one block of kind j adds (for a pair of systems, A's sums then B's, (J, 2D)).
    multiplicity
        m_j, the number of blocks of kind j; Σ m_j is the number of blocks.
    unit
        How the blocks were delimited, in words.
    """

    sums: np.ndarray
    multiplicity: np.ndarray
    unit: str

    @property
    def n_blocks(self) -> int:
        """The number of blocks."""
        return int(self.multiplicity.sum())

    @classmethod
    def of(
        cls,
        rows: np.ndarray | Callable[[np.ndarray], np.ndarray],
        width: int,
        block: np.ndarray,
        item: np.ndarray,
        count: np.ndarray,
        unit: str,
        n_blocks: int | None = None,
    ) -> BlockUnits:
        """Units from entries (block, item, count) and each item's row of sums (see :func:`weighted_rows`); with
        ``n_blocks`` above the blocks that hold entries, the others are units too, empty ones (a sentence with no span
        is a sentence the bootstrap draws), one kind after the others."""
        u, i, c, m = signatures(block, item, count)
        sums, multiplicity = weighted_rows(rows, width, u, i, c, len(m)), m.astype(np.float64)
        empty = 0 if n_blocks is None else n_blocks - int(m.sum())
        if empty > 0:
            sums = np.vstack([sums, np.zeros((1, sums.shape[1]), dtype=sums.dtype)])
            multiplicity = np.r_[multiplicity, float(empty)]
        return cls(sums, multiplicity, unit)

    def __post_init__(self) -> None:
        # float32 products where they are exact: whole-number sums whose resampled totals stay below 2²⁴
        whole = bool(np.array_equal(self.sums, np.round(self.sums)))
        exact32 = whole and float(self.n_blocks * np.abs(self.sums).max(initial=0)) < 2**24  # bounds partial sums
        object.__setattr__(self, "_product", self.sums.astype(np.float32 if exact32 else np.float64))
        object.__setattr__(self, "_ordered", OrderedProduct(self.__dict__["_product"]))
        index_type = np.int32 if len(self.multiplicity) < 2**31 else np.int64
        object.__setattr__(
            self,
            "_kind",
            np.repeat(np.arange(len(self.multiplicity), dtype=index_type), self.multiplicity.astype(np.int64)),
        )

    def draw(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """Block weights of ``size`` bootstrap resamples (each draws as many blocks as there are, with
        replacement): a (size, J) array, Multinomial(B, m/B) per row.

        Drawn as B uniform block indices per resample, counted per kind: O(B) per resample, where a
        multinomial sampler costs a binomial draw per kind."""
        kinds = len(self.multiplicity)
        if kinds <= 64:  # few kinds: the multinomial sampler is the quicker
            m = self.multiplicity
            return rng.multinomial(self.n_blocks, m / m.sum(), size=size).astype(self.__dict__["_product"].dtype)
        picks = rng.integers(0, self.n_blocks, size=(size, self.n_blocks), dtype=np.intp)
        kind = self.__dict__["_kind"] if kinds < self.n_blocks else None  # blocks of the same kind: count the kind
        out = np.empty((size, kinds), dtype=self.__dict__["_product"].dtype)
        for r in range(size):  # one row at a time: its counts stay in cache, several times faster than one bincount
            out[r] = np.bincount(picks[r] if kind is None else kind[picks[r]], minlength=kinds)
        return out

    def resampled_sums(self, weights: np.ndarray) -> np.ndarray:
        """The sums of resamples with block weights ``weights`` (shape (R, J) → (R, D))."""
        sums: np.ndarray = self.__dict__["_ordered"](weights).astype(np.float64)  # the same bytes for any threads
        return sums

    def leave_one_out(self) -> np.ndarray:
        """The sums with one block of each kind left out: (J, D)."""
        sums: np.ndarray = ordered_dot(self.multiplicity, self.sums) - self.sums
        return sums
