"""The bounds every count is held to, checked where counts come in (count files, matrix files, constructors).

A count is a whole number ≥ 0, and counts (and their total, N) stay at or below 2⁵³: every
score is float64 arithmetic on counts, and beyond 2⁵³ a float64 no longer holds every whole
number, so N, tp + fp and the like would silently lose instances (and int64 sums would
overflow a little further on, giving negative N). Single-label counts are a dense K×K matrix in
this version, so K is bounded too.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.errors import InputError

__all__ = ["MAX_COUNT", "MAX_DENSE_LABELS", "check_dense", "check_total", "count_array", "exact_total", "whole_count"]

#: The largest count, and the largest total, clfeval accepts: 2⁵³ = 9,007,199,254,740,992.
MAX_COUNT = 2**53
#: The most labels a single-label count (a dense K×K int64 matrix, 2 GiB at this size) may have.
MAX_DENSE_LABELS = 1 << 14


def whole_count(value: Any, what: str, source: str | None = None) -> int:
    """``value`` as a count: a whole number from 0 to :data:`MAX_COUNT` (``2.0`` is 2; ``2.5``, ``True``, ``"2"``
    and ``null`` are errors naming ``what`` in ``source``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputError(f"{what} is {_shown(value)}: expected a count (a whole number ≥ 0)", source)
    shown = f"{value:g}" if isinstance(value, (float, np.floating)) else f"{int(value):,}"
    if isinstance(value, (float, np.floating)) and (not math.isfinite(value) or not float(value).is_integer()):
        raise InputError(f"{what} is {_shown(value)}: expected a whole number", source)
    number = int(value)
    if number < 0:
        raise InputError(f"{what} is {shown}: expected a count ≥ 0", source)
    if number > MAX_COUNT:
        raise InputError(
            f"{what} is {shown}: counts above 2^53 ({MAX_COUNT:,}) cannot be scored exactly (float64 arithmetic)",
            source,
        )
    return number


def check_total(total: int, what: str, source: str | None = None) -> None:
    """Refuse a total of counts above :data:`MAX_COUNT` (``what`` names it: ``the counts add up to``)."""
    if total > MAX_COUNT:
        raise InputError(
            f"{what} {total:,}, above 2^53 ({MAX_COUNT:,}): such a total cannot be scored exactly (float64 arithmetic)",
            source,
        )


def count_array(values: Any, what: str, source: str | None = None) -> np.ndarray:
    """An array of counts as int64, each a whole number in [0, :data:`MAX_COUNT`] and their sum too; a bad entry is
    an error naming its index (``cells[1][0] is 2.5``)."""
    found = _first_not_number(values, what)
    if found is not None:  # a string, null or boolean in nested lists (numpy would read true as 1, 1 as '1')
        whole_count(found[1], found[0], source)
    try:
        raw = np.asarray(values)
    except ValueError:  # ragged nested lists
        raise InputError(f"{what} must be a rectangular table of counts", source) from None
    if raw.dtype.kind == "b":  # true and false are not counts
        bad = np.ones(raw.shape, dtype=bool)
    elif raw.dtype.kind in "iu":
        bad = (raw < 0) | (raw > MAX_COUNT)
    elif raw.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(raw) | (raw != np.floor(raw)) | (raw < 0) | (raw > MAX_COUNT)
    else:
        raise InputError(f"{what} must be a rectangular table of counts", source)
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        whole_count(raw[at].item(), what + "".join(f"[{i}]" for i in at), source)
    cells = raw.astype(np.int64)
    check_total(exact_total(cells), f"{what} add up to", source)
    return cells


def exact_total(counts: np.ndarray) -> int:
    """The sum of int64 counts as a Python int, exactly, however large (int64 sums wrap around above 2⁶³)."""
    if not counts.size or counts.sum(dtype=np.float64) < 2**52:
        return int(counts.sum())
    return sum(int(c) for c in counts[counts != 0].ravel())


def _first_not_number(values: Any, what: str) -> tuple[str, Any] | None:
    """Where nested lists hold something other than a number (a string, null, a boolean), and what: or None."""
    if isinstance(values, (list, tuple)):
        for i, v in enumerate(values):
            where = f"{what}[{i}]"
            if isinstance(v, (list, tuple)):
                found = _first_not_number(v, where)
                if found is not None:
                    return found
            elif isinstance(v, bool) or not isinstance(v, (int, float)):
                return where, v
    return None


def check_dense(k: int, source: str | None = None, what: str | None = None) -> None:
    """Refuse a dense K×K table over more labels than it can hold here (``what`` names the table; default:
    single-label counts as a dense matrix). Counts themselves are sparse; a dense table is built only when asked for
    (:attr:`ConfusionCounts.cells`, :attr:`SplitMatrix.gold_view`, a matrix file)."""
    cells = k * k
    if cells > MAX_DENSE_LABELS**2:
        gib = cells * 8 / 2**30
        raise InputError(
            f"{k:,} distinct labels: this version of clfeval holds "
            f"{what or 'single-label counts as a dense K×K matrix'}, which would take "
            f"{gib:,.1f} GiB; it takes at most {MAX_DENSE_LABELS**2:,} cells "
            f"({MAX_DENSE_LABELS**2 * 8 / 2**30:.0f} GiB, e.g. {MAX_DENSE_LABELS:,} labels)",
            source,
        )


def _shown(value: Any) -> str:
    return (
        "null"
        if value is None
        else repr(value)
        if isinstance(value, str)
        else str(value).lower()
        if isinstance(value, (bool, np.bool_))
        else str(value)
    )
