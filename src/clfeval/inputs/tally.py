"""Counting unique rows in polars: a chunk's unique label rows with their counts, and the :class:`Tally` that adds
up the chunks of every file of one reading."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["BLOCK_KEY", "Tally", "collect", "unique_counts", "unpack"]


#: The key of the block number (blank-line blocks) in a counted frame.
BLOCK_KEY = "block"


def collect(lf: Any) -> Any:
    """Run a lazy polars query."""
    return lf.collect()


def unique_counts(lf: Any, keys: Sequence[str]) -> Any:
    """The unique rows of ``keys`` with their count in column ``n``, as a polars DataFrame."""
    import polars as pl

    return collect(lf.group_by(list(keys)).agg(pl.len().cast(pl.Int64).alias("n")))


class Tally:
    """Adds up chunks' counted frames (unique key rows → ``n``) in polars, merging as they pile up.

    Merging whenever the pending rows outnumber the merged ones keeps the work proportional to
    the distinct rows, however many chunks there are.
    """

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = list(keys)
        self.merged: Any = None
        self.pending: list[Any] = []
        self.pending_rows = 0

    def add(self, frame: Any) -> None:
        if frame.height == 0:
            return
        self.pending.append(frame)
        self.pending_rows += frame.height
        if self.pending_rows > max(1 << 16, 0 if self.merged is None else self.merged.height):
            self._merge()

    def _merge(self) -> None:
        import polars as pl

        parts = ([self.merged] if self.merged is not None else []) + self.pending
        if len(parts) == 1:
            self.merged = parts[0]
        elif parts:
            self.merged = pl.concat(parts).group_by(self.keys).agg(pl.col("n").sum())
        self.pending, self.pending_rows = [], 0

    def frame(self) -> Any:
        """The unique rows and their counts ``n`` as one polars DataFrame (``None`` when nothing was read)."""
        self._merge()
        return self.merged

    def rows(self, is_list: Sequence[bool] | None = None) -> tuple[list[tuple[Any, ...]], np.ndarray]:
        """The unique rows (list cells unpacked into tuples) and their counts."""
        self._merge()
        if self.merged is None:
            return [], np.zeros(0, dtype=np.int64)
        flags = list(is_list) if is_list is not None else [False] * len(self.keys)
        cols = [self.merged.get_column(k).to_list() for k in self.keys]
        rows = [tuple(unpack(v, f) for v, f in zip(row, flags)) for row in zip(*cols)]
        return rows, self.merged.get_column("n").to_numpy().astype(np.int64)


def unpack(value: Any, is_list: bool) -> Any:
    """A grouped cell back to its value: a list column's labels become a tuple."""
    if not is_list:
        return value
    return tuple(value)
