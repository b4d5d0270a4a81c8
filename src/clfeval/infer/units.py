"""Blocks as units of resampling and randomization: each block adds fixed sums, so blocks with the same
contents are interchangeable and are counted, not listed.

With instances grouped in blocks (sentences), the bootstrap draws whole blocks and randomization
swaps whole blocks. Block j adds the sums ``S_j = Σ_t n_jt M_t`` (its cell types' rows of the map
:class:`clfeval.score.cells.CellTypes`, times their counts), so a resample with block weights w
has sums ``w @ S`` and a swap pattern s moves A's sums by ``s @ Δ``: one matrix product per batch.
Blocks that hold the same (type, count) entries give the same row; they are merged into one
*unit* with a multiplicity m, so short sentences that recur cost nothing extra, and blocks of one
instance are exactly the instance-level units (cell types with their counts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["BlockUnits", "signatures", "weighted_rows"]

#: Rows of (entries × sums) formed at once when adding up the rows of units.
_CHUNK_FLOATS = 8_000_000


def signatures(block: np.ndarray, item: np.ndarray, count: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Blocks grouped by their contents: the entries of one representative block per group, and each group's size.

    Parameters
    ----------
    block, item, count
        Entries: block ``block[e]`` holds ``count[e]`` instances of item ``item[e]``.

    Returns
    -------
    unit, item, count, multiplicity
        The representative entries (``unit`` numbers the groups 0…J−1, in the order of each group's
        first block, so a seeded draw is reproducible) and how many blocks each group stands for.
    """
    import polars as pl

    block, item, count = (np.asarray(x, dtype=np.int64) for x in (block, item, count))
    if not len(block):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    base = int(count.max()) + 1
    frame = pl.DataFrame({"b": block, "e": item * base + count})
    per_block = frame.group_by("b").agg(pl.col("e").sort())
    groups = (per_block.group_by("e").agg(pl.col("b").min().alias("first"), pl.len().alias("m"))
              .sort("first").with_row_index("u"))
    entries = groups.select("u", "e").explode("e")
    code = entries.get_column("e").to_numpy()
    return (entries.get_column("u").to_numpy().astype(np.int64), code // base, code % base,
            groups.get_column("m").to_numpy().astype(np.int64))


def weighted_rows(rows: np.ndarray | Callable[[np.ndarray], np.ndarray], width: int, unit: np.ndarray,
                  item: np.ndarray, count: np.ndarray, n_units: int) -> np.ndarray:
    """``out[j] = Σ_{e: unit[e] = j} count[e] · rows[item[e]]``: each unit's sums (width ``width``).

    ``rows`` is an array, or a function giving the rows of given items (:meth:`CellTypes.rows_of`), called
    a chunk of entries at a time so memory stays bounded.
    """
    out = np.zeros((n_units, width))
    if not len(unit):
        return out
    if callable(rows):
        def take(items: np.ndarray) -> np.ndarray:  # rows_of wants each item once
            unique, inverse = np.unique(items, return_inverse=True)
            return rows(unique)[inverse]
    else:
        def take(items: np.ndarray) -> np.ndarray:
            return rows[items]
    order = np.argsort(unit, kind="stable")
    unit, item, count = unit[order], item[order], count[order]
    step = max(1, _CHUNK_FLOATS // max(width, 1))
    for start in range(0, len(unit), step):
        part = slice(start, start + step)
        u = unit[part]
        starts = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
        out[u[starts]] += np.add.reduceat(count[part, None] * take(item[part]), starts, axis=0)
    return out


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
    def of(cls, rows: np.ndarray | Callable[[np.ndarray], np.ndarray], width: int, block: np.ndarray,
           item: np.ndarray, count: np.ndarray, unit: str) -> "BlockUnits":
        """Units from entries (block, item, count) and each item's row of sums (see :func:`weighted_rows`)."""
        u, i, c, m = signatures(block, item, count)
        return cls(weighted_rows(rows, width, u, i, c, len(m)), m.astype(np.float64), unit)

    def draw(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """Block weights of ``size`` bootstrap resamples (each draws as many blocks as there are, with
        replacement): a (size, J) array, Multinomial(B, m/B) per row."""
        m = self.multiplicity
        return rng.multinomial(self.n_blocks, m / m.sum(), size=size).astype(np.float64)

    def resampled_sums(self, weights: np.ndarray) -> np.ndarray:
        """The sums of resamples with block weights ``weights`` (shape (R, J) → (R, D))."""
        return weights @ self.sums

    def leave_one_out(self) -> np.ndarray:
        """The sums with one block of each kind left out: (J, D)."""
        return self.multiplicity @ self.sums - self.sums
