"""Adjusting p-values for testing several comparisons at once."""

from __future__ import annotations

import numpy as np

__all__ = ["holm"]


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control under any dependence).

    Notes
    -----
    With the m defined p-values sorted, p_(1) ≤ … ≤ p_(m), the adjusted value of p_(i) is
    max_{j ≤ i} min(1, (m − j + 1) · p_(j)). Rejecting where the adjusted value is below α is
    Holm's (1979) procedure at level α. NaN p-values (no test) stay NaN and do not count in m.

    Examples
    --------
    >>> holm(np.array([0.01, 0.04, 0.03])).round(4).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full_like(p, np.nan)
    defined = np.flatnonzero(~np.isnan(p))
    m = len(defined)
    if m == 0:
        return out
    order = defined[np.argsort(p[defined], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(scaled)
    return out
