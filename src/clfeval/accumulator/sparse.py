"""Counting distinct keys with sorts instead of dense tables: the distinct rows of a packed bit matrix with their
counts (multi-label indicator rows), and sorted (key, count) arrays merged with more (sparse single-label counts).
Pure numpy on arrays; no accumulator state.
"""

from __future__ import annotations

import numpy as np


def _unique_rows(rows: np.ndarray, inverse: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a 2-D uint8 array and their counts (or, with ``inverse``, each row's index into them).

    Each row is read as whole 64-bit words (zero-padded): a row of at most 8 bytes is one integer for ``np.unique``;
    a longer row is sorted by its words with ``np.lexsort`` (integer sorts, not ``np.unique(axis=0)``'s comparison
    of byte strings, ten times slower at 10⁵ rows of 50 bytes) and cut where a word changes.
    """
    n, width = rows.shape
    words = max(1, -(-width // 8))
    padded = np.zeros((n, 8 * words), dtype=np.uint8)
    padded[:, :width] = rows
    keys = padded.view(np.uint64)  # (n, words)
    if words == 1:
        flat = keys.reshape(-1)
        if inverse:
            distinct, found = np.unique(flat, return_inverse=True)
        else:
            distinct, found = np.unique(flat, return_counts=True)
        return distinct.view(np.uint8).reshape(-1, 8)[:, :width], found.reshape(-1)
    order = np.lexsort(keys.T[::-1])  # the first word is the primary key
    ordered = keys[order]
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    starts = np.flatnonzero(new)
    distinct = rows[order[starts]]
    if inverse:
        which = np.empty(n, dtype=np.int64)
        which[order] = np.cumsum(new) - 1
        return distinct, which
    return distinct, np.diff(np.append(starts, n))


def _merge_sorted(
    keys: np.ndarray, counts: np.ndarray, new_keys: np.ndarray, new_counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys with counts, plus more (sorted, distinct): O(U + u log U) with a binary search."""
    if not len(keys):
        return new_keys.astype(np.int64), new_counts.astype(np.int64)
    at = np.searchsorted(keys, new_keys)
    found = at < len(keys)
    found[found] = keys[at[found]] == new_keys[found]
    counts = counts.copy()
    counts[at[found]] += new_counts[found]
    fresh = ~found
    if fresh.any():
        keys = np.insert(keys, at[fresh], new_keys[fresh])
        counts = np.insert(counts, at[fresh], new_counts[fresh])
    return keys, counts
