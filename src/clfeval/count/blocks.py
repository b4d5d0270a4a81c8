"""Instances grouped in blocks (the tokens of a sentence): which label rows each block holds, how often.

A tagger's or chunker's tokens are not independent: the errors of one sentence hang together.
Tests and intervals that treat them as independent overstate the evidence, so the resampling and
randomization units are whole blocks. :class:`Blocks` is a sparse (block × label row) count matrix
beside the usual totals; its rows are the same unique (gold, prediction …) rows the totals count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["FEW_BLOCKS", "Blocks", "concatenated"]

#: Below this many blocks a warning says that block-level tests and intervals rest on few independent units.
FEW_BLOCKS = 20


@dataclass(frozen=True, eq=False)
class Blocks:
    """Which unique label rows each block holds, with counts: entry e says block ``block[e]`` holds
    ``count[e]`` instances of row ``keys[row[e]]``.

    Attributes
    ----------
    keys
        The unique label rows: (gold, predicted) for one system, (gold, prediction 1, …) for several;
        labels, or canonical label-set tuples for multi-label data.
    row, block, count
        The entries of the sparse matrix (int64 arrays of equal length).
    n_blocks
        The number of blocks (blocks without instances do not count).
    unit
        How blocks were delimited, in words (``blank lines``, ``column 'sent'``).
    """

    keys: tuple[tuple[Any, ...], ...]
    row: np.ndarray
    block: np.ndarray
    count: np.ndarray
    n_blocks: int
    unit: str

    def __post_init__(self) -> None:
        for name in ("row", "block", "count"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), dtype=np.int64))
        if not len(self.row) == len(self.block) == len(self.count):
            raise ValueError("row, block and count must have one entry each")

    @classmethod
    def of_instances(cls, rows: Sequence[tuple[Any, ...]], blocks: Sequence[Any], unit: str = "blocks") -> Blocks:
        """Blocks of instances given one by one: ``rows[i]`` is instance i's label row, ``blocks[i]`` its block."""
        if len(rows) != len(blocks):
            raise ValueError(f"{len(rows)} rows but {len(blocks)} block names")
        key_index: dict[tuple[Any, ...], int] = {}
        row_of = np.fromiter(
            (key_index.setdefault(tuple(r), len(key_index)) for r in rows), dtype=np.int64, count=len(rows)
        )
        return cls.of_codes(tuple(key_index), row_of, blocks, unit)

    @classmethod
    def of_codes(
        cls, keys: Sequence[tuple[Any, ...]], row_of: np.ndarray, blocks: Sequence[Any], unit: str = "blocks"
    ) -> Blocks:
        """Blocks of instances given by their rows' numbers: instance i is row ``keys[row_of[i]]`` in block
        ``blocks[i]``. Rows, blocks and entries are numbered in order of first sight (as :meth:`of_instances` numbers
        them); one hash per block id, the rest ``np.unique``.
        """
        if len(row_of) != len(blocks):
            raise ValueError(f"{len(row_of)} rows but {len(blocks)} block names")
        block_index: dict[Any, int] = {}
        block_of = np.fromiter(
            (block_index.setdefault(b, len(block_index)) for b in blocks), dtype=np.int64, count=len(blocks)
        )
        row_of = np.asarray(row_of, dtype=np.int64)
        used, first = np.unique(row_of, return_index=True)
        used = used[np.argsort(first)]  # the rows that occur, in order of first sight
        rank = np.zeros(len(keys), dtype=np.int64)
        rank[used] = np.arange(len(used))
        width = max(len(used), 1)
        entry, first, count = np.unique(block_of * width + rank[row_of], return_index=True, return_counts=True)
        order = np.argsort(first)  # entries in order of first sight
        entry, count = entry[order], count[order]
        return cls(tuple(keys[u] for u in used.tolist()), entry % width, entry // width, count, len(block_index), unit)

    @property
    def n_instances(self) -> int:
        """The instances in all blocks."""
        return int(self.count.sum())

    def totals(self) -> dict[tuple[Any, ...], int]:
        """Each label row's count over all blocks."""
        sums = np.bincount(self.row, weights=self.count, minlength=len(self.keys))
        return {k: int(c) for k, c in zip(self.keys, sums) if c}

    def regrouped(self, index: np.ndarray, keys: Sequence[tuple[Any, ...]]) -> Blocks:
        """The same blocks over other rows: row r becomes row ``index[r]`` of ``keys`` (rows that merge add up)."""
        row = np.asarray(index, dtype=np.int64)[self.row]
        key = self.block * (len(keys) + 1) + row
        unique, inverse = np.unique(key, return_inverse=True)
        count = np.bincount(inverse, weights=self.count).astype(np.int64)
        return Blocks(tuple(keys), unique % (len(keys) + 1), unique // (len(keys) + 1), count, self.n_blocks, self.unit)

    def sizes(self) -> np.ndarray:
        """The instances in each block (blocks numbered 0 … n_blocks − 1)."""
        return np.bincount(self.block, weights=self.count, minlength=self.n_blocks).astype(np.int64)

    def cautions(self) -> list[str]:
        """Warnings for blocks too few, or too uneven, for block-level tests and intervals to say much: one block
        only (blocks delimited other than intended, e.g. sentence-end lines removed by --skip), fewer than
        :data:`FEW_BLOCKS` blocks, or one block holding most instances."""
        b, n = self.n_blocks, self.n_instances
        if b <= 1:
            return [
                f"all {n} instances are in one block ({self.unit}): a block-level test cannot reject and a "
                "block-level interval cannot be estimated from one independent unit; check how blocks are "
                "delimited (lines passed over by --skip do not end blocks; lines matching --block-end do)"
            ]
        out = []
        if b < FEW_BLOCKS:
            out.append(
                f"only {b} blocks ({self.unit}): block-level p-values and intervals rest on {b} independent "
                f"units (fewer than {FEW_BLOCKS}); a randomization over them has at most 2^{b} arrangements "
                f"and a block bootstrap at most {math.comb(2 * b - 1, b):,} distinct resamples"
            )
        largest = int(self.sizes().max())
        if largest > n / 2:
            out.append(
                f"one block holds {largest} of the {n} instances ({100 * largest / n:.0f}%): block-level "
                "tests and intervals rest mostly on that block"
            )
        return out


def concatenated(first: Blocks, second: Blocks) -> Blocks:
    """The blocks of two parts one after the other (the second's blocks numbered after the first's)."""
    keys = list(dict.fromkeys([*first.keys, *second.keys]))
    index = {k: i for i, k in enumerate(keys)}
    remap = np.array([index[k] for k in second.keys], dtype=np.int64)
    return Blocks(
        tuple(keys),
        np.r_[first.row, remap[second.row] if len(second.row) else second.row],
        np.r_[first.block, second.block + first.n_blocks],
        np.r_[first.count, second.count],
        first.n_blocks + second.n_blocks,
        first.unit,
    )
